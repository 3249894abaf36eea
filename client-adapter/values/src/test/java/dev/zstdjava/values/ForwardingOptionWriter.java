package dev.zstdjava.values;

/**
 * An {@link OptionWriter} for tests that passes {@link #store(CompressionOption, byte[])}, {@link #ready} and
 * {@link #sampled} to {@code inner}: a test overrides what it times or counts. The segment form stays the interface's
 * default (through the array form), so that an override of the array form sees every write.
 *
 * <p><b>Thread safety:</b> as {@code inner}'s, plus whatever an override adds.
 */
class ForwardingOptionWriter implements OptionWriter {
    final OptionWriter inner;

    ForwardingOptionWriter(OptionWriter inner) {
        this.inner = inner;
    }

    @Override
    public byte[] store(CompressionOption option, byte[] value) {
        return inner.store(option, value);
    }

    @Override
    public boolean ready(CompressionOption option) {
        return inner.ready(option);
    }

    @Override
    public void sampled(byte[] value) {
        inner.sampled(value);
    }
}
