package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;

/**
 * One {@link ValueCompressor} per {@linkplain CompressionOption option} without a dictionary, each made from the
 * adaptive compressor's configuration with the option's backend and level (so its minimum size and limits apply),
 * and shared by every pattern. They count nothing: the adaptive compressor counts its writes per option itself
 * ({@link OptionCounters}), and their counters would also hold every measuring call. The dictionary option is never
 * ready here: a pattern's dictionary comes from {@link PatternDictionary}.
 *
 * <p><b>Thread safety:</b> thread-safe (immutable over thread-safe compressors). <b>Allocation:</b>
 * {@link #store} allocates what {@link ValueCompressor#compress(byte[])} does: the returned array only; into a segment,
 * what {@link ValueCompressor#compress(java.lang.foreign.MemorySegment, java.lang.foreign.MemorySegment)} does.
 */
final class OptionWriters implements OptionWriter {
    private final ValueCompressor[] byOption = new ValueCompressor[CompressionOption.ALL.length];

    /** @throws IllegalStateException when a backend does not work, as {@link ValueCompressor#create} */
    OptionWriters(CompressionConfig config) {
        for (CompressionOption o : CompressionOption.ALL) {
            if (o.compresses() && !o.dictionary()) {
                byOption[o.ordinal()] = ValueCompressor.uncounted(o.config(config));
            }
        }
    }

    @Override
    public byte[] store(CompressionOption option, byte[] value) {
        ValueCompressor vc = byOption[option.ordinal()];
        return vc == null ? byOption[CompressionOption.ZSTD_3.ordinal()].compress(value) : vc.compress(value);
    }

    @Override
    public long store(CompressionOption option, MemorySegment value, MemorySegment dst) {
        ValueCompressor vc = byOption[option.ordinal()];
        return (vc == null ? byOption[CompressionOption.ZSTD_3.ordinal()] : vc).compress(value, dst);
    }

    @Override
    public boolean ready(CompressionOption option) {
        return byOption[option.ordinal()] != null;
    }
}
