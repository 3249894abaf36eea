package dev.zstdjava.bench;

import dev.zstdjava.values.KeyFolder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Folding a key into its pattern ({@link KeyFolder}), as the write path does before it looks the pattern up: the fold
 * and its hash, then the comparison with the pattern held for that hash. The target: at most 200 ns at the median and
 * 0 B per fold for a 40-byte key ({@code -prof gc}).
 *
 * <pre>  java -jar benchmarks.jar KeyFoldBench -prof gc</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(value = 3)
public class KeyFoldBench {
    @State(Scope.Thread)
    public static class Input {
        /** 40-byte keys: a UUID, numbers and a hex id, plain words. */
        @Param({"sid:3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b", "user:12345678:cart:deadbeef01:items:v123",
                "catalog:product:summary:en-gb:cache:html"})
        String key;

        byte[] bytes;
        byte[] known;
        KeyFolder folder;

        @Setup(Level.Trial)
        public void setup() {
            bytes = key.getBytes(StandardCharsets.UTF_8);
            folder = new KeyFolder();
            folder.fold(bytes);
            known = folder.patternBytes();
        }
    }

    /** The fold and the pattern's hash. */
    @Benchmark
    public long fold(Input in) {
        return in.folder.fold(in.bytes);
    }

    /** The fold, then the comparison a pattern table makes with the pattern it holds for the hash. */
    @Benchmark
    public boolean foldAndCompare(Input in) {
        KeyFolder f = in.folder;
        return f.fold(in.bytes) != 0 && f.patternEquals(in.known);
    }
}
