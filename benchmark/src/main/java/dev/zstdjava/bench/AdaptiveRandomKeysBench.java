package dev.zstdjava.bench;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
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
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Adaptive compression on a keyspace of random keys, every key its own pattern and none seen twice, against the fixed
 * mode (zstd 3, {@link ValueCompressor}) on the same value: the target is that the adaptive write costs no more. Each
 * key is 20 bytes, {@code sess:} and 15 letters from {@code g} to {@code z} (no digit or hex id, so the fold keeps every
 * one its own pattern), counted up in place, so making a key allocates nothing. With the default settings the pattern
 * table admits at most 256 new patterns per 10-second idle window, each sampled on its first write (every option
 * measured), and sends the rest to its shared "other" entry, whose decision they take; {@code adaptiveOneKey} is one
 * pattern written on and on, for reference, and the {@code StoredAsIs} methods time the adaptive mode's own work per
 * write (random bytes, stored as they are). Run with {@code -prof gc} for the bytes per write.
 *
 * <pre>  java -jar benchmarks.jar AdaptiveRandomKeysBench -prof gc</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(value = 3)
public class AdaptiveRandomKeysBench {
    @State(Scope.Thread)
    public static class Input {
        /** Generated text of 128 bytes and of 1 KiB ({@link Payloads}). */
        @Param({"text-128", "text-1k"})
        String payload;

        byte[] value;
        byte[] random;
        ValueCompressor fixed;
        AdaptiveCompressor adaptive;
        AdaptiveCompressor unsampled;
        AdaptiveCompressor storedAsIs;
        AdaptiveCompressor storedAsIsOneKey;
        final byte[] key = "sess:ggggggggggggggg".getBytes(StandardCharsets.US_ASCII);
        final byte[] oneKey = "sess:12345:profile".getBytes(StandardCharsets.US_ASCII);

        @Setup(Level.Trial)
        public void setup() {
            value = Payloads.load(payload);
            random = new byte[value.length];
            new SplittableRandom(42).nextBytes(random);
            storedAsIs = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
            storedAsIsOneKey = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
            fixed = ValueCompressor.create(CompressionConfig.defaults());
            adaptive = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
            unsampled = AdaptiveCompressor.builder(CompressionConfig.defaults())
                    .sampling(AdaptiveCompressor.DEFAULT_FIRST_WRITES, Integer.MAX_VALUE, Integer.MAX_VALUE).build();
        }

        /** A key not seen before ({@link AdaptiveKeys#nextKey}). */
        byte[] nextKey() {
            return AdaptiveKeys.nextKey(key);
        }
    }

    /** The fixed mode: zstd 3. */
    @Benchmark
    public byte[] fixedZstd3(Input in) {
        return in.fixed.compress(in.value);
    }

    /** Adaptive, every write a key of its own pattern. */
    @Benchmark
    public byte[] adaptiveRandomKeys(Input in) {
        return in.adaptive.compress(in.nextKey(), in.value);
    }

    /**
     * Adaptive, one key written on and on, with no sample after the pattern's first writes: what the look-up and the
     * decision cost without the samples, for reference.
     */
    @Benchmark
    public byte[] adaptiveOneKeyUnsampled(Input in) {
        return in.unsampled.compress(in.oneKey, in.value);
    }

    /**
     * Adaptive, random keys, a random value of the payload's size: the shared entry settles on storing it as it is, so
     * what a write costs here is the adaptive mode's own work (the fold, the look-up, the counting, a re-probe in
     * 256), without a compression, for reference.
     */
    @Benchmark
    public byte[] adaptiveRandomKeysStoredAsIs(Input in) {
        return in.storedAsIs.compress(in.nextKey(), in.random);
    }

    /** As {@link #adaptiveRandomKeysStoredAsIs}, one key written on and on. */
    @Benchmark
    public byte[] adaptiveOneKeyStoredAsIs(Input in) {
        return in.storedAsIsOneKey.compress(in.oneKey, in.random);
    }

    /** Adaptive, one key written on and on. */
    @Benchmark
    public byte[] adaptiveOneKey(Input in) {
        return in.adaptive.compress(in.oneKey, in.value);
    }
}
