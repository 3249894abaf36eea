package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Writes a value with a given {@linkplain CompressionOption option}, for {@link AdaptiveCompressor}: the shared
 * writers ({@link OptionWriters}) and a pattern's own dictionary ({@link PatternDictionary}) implement it, and tests
 * wrap it to measure with a clock of their own.
 *
 * <p><b>Thread safety:</b> {@link #store} is called from any thread at once; {@link #ready} by one thread at a time
 * (the pattern's sampling thread).
 */
interface OptionWriter {
    /**
     * @param option an option that {@linkplain CompressionOption#compresses() compresses}
     * @return the stored form of {@code value} written with {@code option} (the value itself when it is stored as it
     *         is), as {@link ValueCompressor#compress(byte[])} returns it; allocates nothing else
     */
    byte[] store(CompressionOption option, byte[] value);

    /**
     * As {@link #store(CompressionOption, byte[])}, from {@code value} into the start of {@code dst} (which holds at
     * least {@code value.byteSize()} bytes), as {@link ValueCompressor#compress(MemorySegment, MemorySegment)} writes.
     * By default through the array form (copies); the library's writers make no copy.
     *
     * @return the bytes written to {@code dst}
     */
    default long store(CompressionOption option, MemorySegment value, MemorySegment dst) {
        byte[] out = store(option, value.toArray(ValueLayout.JAVA_BYTE));
        MemorySegment.copy(out, 0, dst, ValueLayout.JAVA_BYTE, 0, out.length);
        return out.length;
    }

    /** @return whether {@code option} can be measured now (a dictionary option: a dictionary is in use) */
    boolean ready(CompressionOption option);

    /**
     * Called with each sampled value before it is measured, on the pattern's sampling thread: a pattern's own
     * dictionary lineage trains on these. Nothing by default.
     */
    default void sampled(byte[] value) {
    }
}
