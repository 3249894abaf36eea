package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A backend of the shared format: the 5-byte header ({@link ValueFormat}) with this backend's id, then its payload.
 * A subclass supplies the id, the level range and the payload's encoding and decoding; this class writes and checks
 * the header, so the header is written in one place. Unbound instances are immutable and thread-safe; bound ones
 * are not (see {@link ValueBackend}).
 */
abstract class HeaderBackend implements ValueBackend {
    private final String label;
    private final byte id;
    private final int minLevel;
    private final int maxLevel;
    private final int defaultLevel;
    /** The coder this backend is bound to; null in the unbound instance. */
    final Coder coder;

    /**
     * @param label        the form's label in the catalogue
     * @param id           the backend id byte the header carries at offset 4, unique among the backends
     * @param minLevel     the lowest level the codec accepts
     * @param maxLevel     the highest level the codec accepts
     * @param defaultLevel the level used when none is set
     * @param coder        the coder to bind to, or null for the unbound instance
     */
    HeaderBackend(String label, int id, int minLevel, int maxLevel, int defaultLevel, Coder coder) {
        this.coder = coder;
        this.label = label;
        this.id = (byte) id;
        this.minLevel = minLevel;
        this.maxLevel = maxLevel;
        this.defaultLevel = defaultLevel;
    }

    @Override
    public final String label() {
        return label;
    }

    final byte id() {
        return id;
    }

    final int minLevel() {
        return minLevel;
    }

    final int maxLevel() {
        return maxLevel;
    }

    final int defaultLevel() {
        return defaultLevel;
    }

    /** @return whether values can be compressed with a {@link DictionaryManager}'s dictionaries (zstd only) */
    boolean takesDictionaries() {
        return false;
    }

    @Override
    public abstract HeaderBackend bind(Coder coder);

    /** Closes each of {@code contexts} that was made (null: never made); for {@link #close()}. */
    static void closeAll(AutoCloseable... contexts) {
        for (AutoCloseable c : contexts) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) { // the codec's contexts declare none; fail loudly if one ever does
                    throw new IllegalStateException("closing " + c + " failed", e);
                }
            }
        }
    }

    @Override
    public final boolean recognises(MemorySegment stored) {
        return ValueFormat.hasHeader(stored) && stored.get(ValueLayout.JAVA_BYTE, ValueFormat.BACKEND_OFFSET) == id;
    }

    @Override
    public final long encode(MemorySegment value, MemorySegment dst, long max, DictionaryManager.Entry dictionary) {
        long room = Math.min(max, dst.byteSize()) - ValueFormat.HEADER_SIZE;
        if (room < 1) {
            return NO_ROOM;
        }
        long payload = encodePayload(value, dst, ValueFormat.HEADER_SIZE, room, dictionary);
        if (payload == NO_ROOM) {
            return NO_ROOM;
        }
        ValueFormat.writeHeader(dst, id);
        return ValueFormat.HEADER_SIZE + payload;
    }

    /**
     * Writes the payload of {@code value} into {@code dst} at {@code offset}, in at most {@code room} bytes.
     * @return the payload size, or {@link #NO_ROOM}; throws when the codec fails
     */
    abstract long encodePayload(MemorySegment value, MemorySegment dst, long offset, long room,
                                DictionaryManager.Entry dictionary);

    @Override
    public final byte[] decode(MemorySegment stored) {
        return decodePayload(stored.asSlice(ValueFormat.HEADER_SIZE));
    }

    /**
     * Decodes the bytes after the header, bounded by the configured limit.
     * @return the original value; throws DecompressionLimitException over the limit, the codec's exception if malformed
     */
    abstract byte[] decodePayload(MemorySegment payload);
}
