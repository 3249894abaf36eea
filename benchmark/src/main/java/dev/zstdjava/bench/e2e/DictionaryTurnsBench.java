package dev.zstdjava.bench.e2e;

import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdDictionary;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A values reader ({@link ValueCompressor} over one {@link DictionaryManager} holding every dictionary) reading the
 * {@code ./e2e --adaptive} set's session records ({@link MixedValues}) written with {@code dictionaries} dictionaries
 * in turn, one value per operation: what a reader of per-pattern dictionaries (or of a lineage's generations) pays
 * when its values name more dictionaries than a coder keeps decompressors for. Each dictionary (4 KiB) is trained on
 * its own share of the other values.
 *
 * <pre>  java -jar benchmarks.jar DictionaryTurnsBench</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class DictionaryTurnsBench {
    @Param({"1", "4", "8", "16"})
    public int dictionaries;

    byte[][] stored;
    byte[][] values;
    int next;
    ValueCompressor reader;
    final List<DictionaryManager> managers = new ArrayList<>();

    @Setup(Level.Trial)
    public void setup() {
        byte[][] all = MixedValues.generate(5000, MixedValues.SEED).valuesOf(MixedValues.Kind.SESSION);
        int half = all.length / 2;
        byte[][] dicts = new byte[dictionaries][];
        for (int d = 0; d < dictionaries; d++) {
            List<byte[]> train = new ArrayList<>();
            for (int i = d; i < half; i += dictionaries) {
                train.add(all[i]);
            }
            dicts[d] = ZstdDictionary.train(train, 4 << 10).toByteArray();
        }
        DictionaryManager readers = DictionaryManager.given(dicts).build();
        managers.add(readers);
        reader = ValueCompressor.create(CompressionConfig.defaults(), readers);
        List<ValueCompressor> writers = new ArrayList<>();
        for (byte[] d : dicts) {
            DictionaryManager m = DictionaryManager.given(d).build();
            managers.add(m);
            writers.add(ValueCompressor.create(CompressionConfig.defaults(), m));
        }
        values = Arrays.copyOfRange(all, half, all.length);
        stored = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            stored[i] = writers.get(i % dictionaries).compress(values[i]);
            if (!Arrays.equals(values[i], reader.decompress(stored[i]))) {
                throw new IllegalStateException("value " + i + " did not read back");
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        managers.forEach(DictionaryManager::close);
    }

    @Benchmark
    public byte[] read() {
        int i = next;
        next = i + 1 == stored.length ? 0 : i + 1;
        return reader.decompress(stored[i]);
    }
}
