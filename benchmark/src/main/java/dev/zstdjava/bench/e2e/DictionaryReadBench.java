package dev.zstdjava.bench.e2e;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictDecompress;
import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressionDictionary;
import dev.zstdjava.zstd.ZstdDecompressor;
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
 * What reading a value costs with a dictionary and without one, on the values of one kind of the {@code ./e2e
 * --adaptive} set ({@link MixedValues}): zstd 3 frames of the kind's values with and without a dictionary
 * ({@code dictionaryKiB}, 16 KiB as the library's default) trained as the e2e's oracle trains it (on the first 16 KiB
 * of every other value; the frames are of the others), decompressed one value per operation, the values in turn, by
 * this library and by zstd-jni. A dictionary makes small values smaller and faster to read; whether it costs on large
 * ones is what {@code kind=html} shows, and {@code -p dictionaryKiB=1,4,16,64} whether a smaller dictionary keeps
 * the saving without the cost (the setup prints each size's saving).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class DictionaryReadBench {
    @Param({"html", "session"})
    public String kind;

    @Param({"16"})
    public int dictionaryKiB;

    byte[][] plain;
    byte[][] withDictionary;
    byte[] dst;
    int next;
    ZstdDecompressor ours;
    ZstdDecompressor oursWithDictionary;
    ZstdDecompressionDictionary digested;
    ZstdDecompressCtx theirs;
    ZstdDecompressCtx theirsWithDictionary;
    ZstdDictDecompress theirDictionary;

    @Setup(Level.Trial)
    public void setup() {
        MixedValues.Kind k = Arrays.stream(MixedValues.Kind.values()).filter(x -> x.id.equals(kind)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("kind: one of the e2e's kinds, not " + kind));
        byte[][] values = MixedValues.generate(5000, MixedValues.SEED).valuesOf(k);
        List<byte[]> train = new ArrayList<>();
        List<byte[]> read = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            if (i % 2 == 0) {
                train.add(Arrays.copyOf(values[i], Math.min(values[i].length, 16 << 10)));
            } else {
                read.add(values[i]);
            }
        }
        ZstdDictionary dictionary = ZstdDictionary.trainer(dictionaryKiB << 10).level(3).train(train);
        plain = new byte[read.size()][];
        withDictionary = new byte[read.size()][];
        int largest = 0;
        long raw = 0;
        long storedPlain = 0;
        long stored = 0;
        try (ZstdCompressionDictionary cd = dictionary.forCompression(3);
             ZstdCompressor c = ZstdCompressor.builder().level(3).build();
             ZstdCompressor cDict = ZstdCompressor.builder().level(3).dictionary(cd).build()) {
            for (int i = 0; i < read.size(); i++) {
                plain[i] = c.compress(read.get(i));
                withDictionary[i] = cDict.compress(read.get(i));
                largest = Math.max(largest, read.get(i).length);
                raw += read.get(i).length;
                storedPlain += plain[i].length;
                stored += withDictionary[i].length;
            }
        }
        System.out.printf("%n%s, %d KiB dictionary: frames %.2f%% of the values with it, %.2f%% without (%+.2f points"
                + " saved)%n", kind, dictionaryKiB, 100.0 * stored / raw, 100.0 * storedPlain / raw,
                100.0 * (storedPlain - stored) / raw);
        dst = new byte[largest];
        digested = dictionary.forDecompression();
        ours = ZstdDecompressor.create();
        oursWithDictionary = ZstdDecompressor.builder().dictionary(digested).build();
        theirDictionary = new ZstdDictDecompress(dictionary.toByteArray());
        theirs = new ZstdDecompressCtx();
        theirsWithDictionary = new ZstdDecompressCtx();
        theirsWithDictionary.loadDict(theirDictionary);
        for (int i = 0; i < read.size(); i++) {
            int n = oursWithDictionary.decompress(withDictionary[i], 0, withDictionary[i].length, dst, 0, dst.length);
            if (!Arrays.equals(dst, 0, n, read.get(i), 0, read.get(i).length)) {
                throw new IllegalStateException("value " + i + " did not read back with its dictionary");
            }
            n = theirsWithDictionary.decompressByteArray(dst, 0, dst.length, withDictionary[i], 0,
                    withDictionary[i].length);
            if (!Arrays.equals(dst, 0, n, read.get(i), 0, read.get(i).length)) {
                throw new IllegalStateException("value " + i + " did not read back with zstd-jni and the dictionary");
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        ours.close();
        oursWithDictionary.close();
        digested.close();
        theirs.close();
        theirsWithDictionary.close();
        theirDictionary.close();
    }

    private int advance() {
        int i = next;
        next = i + 1 == plain.length ? 0 : i + 1;
        return i;
    }

    @Benchmark
    public int ours() {
        byte[] f = plain[advance()];
        return ours.decompress(f, 0, f.length, dst, 0, dst.length);
    }

    @Benchmark
    public int oursWithDictionary() {
        byte[] f = withDictionary[advance()];
        return oursWithDictionary.decompress(f, 0, f.length, dst, 0, dst.length);
    }

    @Benchmark
    public int zstdJni() {
        byte[] f = plain[advance()];
        return theirs.decompressByteArray(dst, 0, dst.length, f, 0, f.length);
    }

    @Benchmark
    public int zstdJniWithDictionary() {
        byte[] f = withDictionary[advance()];
        return theirsWithDictionary.decompressByteArray(dst, 0, dst.length, f, 0, f.length);
    }
}
