package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A stored form of another client's own compression, only read (see {@link LegacyFormat}). A subclass recognises
 * the form by its signature and decodes it; this class refuses to encode. Readers are tried from the longest
 * signature to the shortest ({@link #signatureBytes}), so a form without a signature comes last. Unbound instances
 * are immutable and thread-safe; bound ones are not (see {@link ValueBackend}).
 */
abstract class LegacyReader implements ValueBackend {
    /** The Redisson formats' length prefix: signed 32-bit big-endian. */
    static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final String label;
    private final int signatureBytes;
    /** The coder this reader is bound to; null in the unbound instance. */
    final Coder coder;

    /**
     * @param label          the form's label in the catalogue
     * @param signatureBytes how many bytes the signature fixes, to order the readers (0: no signature)
     * @param coder          the coder to bind to, or null for the unbound instance
     */
    LegacyReader(String label, int signatureBytes, Coder coder) {
        this.label = label;
        this.signatureBytes = signatureBytes;
        this.coder = coder;
    }

    @Override
    public final String label() {
        return label;
    }

    /** @return how many bytes the signature fixes: readers with more are tried first */
    final int signatureBytes() {
        return signatureBytes;
    }

    @Override
    public abstract LegacyReader bind(Coder coder);

    /** Values are written in the shared format only. */
    @Override
    public final long encode(MemorySegment value, MemorySegment dst, long max, DictionaryManager.Entry dictionary) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " only reads; values are written in the"
                + " shared format");
    }

    /** Holds nothing native of its own (the Redisson readers use the coder's zstd and lz4 backends). */
    @Override
    public void close() {}
}
