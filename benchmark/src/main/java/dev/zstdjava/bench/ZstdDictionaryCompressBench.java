package dev.zstdjava.bench;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDictCompress;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdCompressor;
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
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * zstd compression with a trained dictionary, one value per operation, on byte arrays: this library against zstd-jni
 * (whose context keeps libzstd's default of copying the dictionary's tables into the context for inputs from 16 KiB
 * to 128 KiB at levels 3 and 4, where this library attaches them). The values, of {@code size} bytes: the start of
 * the {@code json-large} payload ({@code json}; its dictionary, 16 KiB, trained on 1 KiB pieces of the payload's
 * second half), generated text ({@code text}; the dictionary trained on other text of the same generator) or random
 * bytes ({@code random}, what already-compressed values look like; the text dictionary).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class ZstdDictionaryCompressBench {
    @Param({"3"})
    public int level;
    @Param({"1024", "24576", "65536"})
    public int size;
    @Param({"json", "text", "random"})
    public String data;

    byte[] value, dst, dictionary;
    ZstdCompressionDictionary digested;
    ZstdCompressor ours;
    ZstdCompressCtx theirs;
    ZstdDictCompress theirDictionary;

    @Setup(Level.Trial)
    public void setup() {
        byte[] corpus = data.equals("json") ? Payloads.load("json-large") : Payloads.text(4 << 20);
        if (corpus.length < 2 * size) {
            throw new IllegalArgumentException("the " + data + " payload has " + corpus.length + " bytes, fewer than "
                    + "twice the size asked for (" + size + ")");
        }
        List<byte[]> samples = new ArrayList<>();
        for (int at = corpus.length / 2; at + 1024 <= corpus.length; at += 1024) {
            samples.add(Arrays.copyOfRange(corpus, at, at + 1024));
        }
        dictionary = ZstdDictionary.train(samples, 16 << 10).toByteArray();
        if (data.equals("text") || data.equals("json")) {
            value = Arrays.copyOf(corpus, size);
        } else if (data.equals("random")) {
            value = new byte[size];
            new SplittableRandom(size).nextBytes(value);
        } else {
            throw new IllegalArgumentException("data: json, text or random, not " + data);
        }
        dst = new byte[(int) Zstd.compressBound(size)];
        digested = ZstdDictionary.of(dictionary).forCompression(level);
        ours = ZstdCompressor.builder().dictionary(digested).build();
        theirDictionary = new ZstdDictCompress(dictionary, level);
        theirs = new ZstdCompressCtx();
        theirs.setLevel(level);
        theirs.loadDict(theirDictionary);
        byte[] back = com.github.luben.zstd.Zstd.decompress(Arrays.copyOf(dst, ours()),
                new com.github.luben.zstd.ZstdDictDecompress(dictionary), size);
        if (!Arrays.equals(back, value)) {
            throw new IllegalStateException("this library's frame did not read back");
        }
        back = com.github.luben.zstd.Zstd.decompress(Arrays.copyOf(dst, zstdJni()),
                new com.github.luben.zstd.ZstdDictDecompress(dictionary), size);
        if (!Arrays.equals(back, value)) {
            throw new IllegalStateException("zstd-jni's frame did not read back");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        ours.close();
        digested.close();
        theirs.close();
        theirDictionary.close();
    }

    @Benchmark
    public int ours() {
        return ours.compress(value, 0, value.length, dst, 0, dst.length);
    }

    @Benchmark
    public int zstdJni() {
        return theirs.compressByteArray(dst, 0, dst.length, value, 0, value.length);
    }
}
