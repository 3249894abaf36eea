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

    /**
     * Whether the bytes after the header of {@code stored}, which carries this backend's header, could be this
     * backend's payload (a cheap look at their start, no decoding). A writer stores such a value as it is, as already
     * compressed (GLIDE does the same); a value that only begins with the header is compressed like any other, so that
     * every reader, GLIDE's included, reads it back as written.
     */
    abstract boolean couldBePayload(MemorySegment stored);

    /** As {@link #recognises(MemorySegment)}, for an array. */
    final boolean recognises(byte[] stored) {
        return ValueFormat.hasHeader(stored) && stored[ValueFormat.BACKEND_OFFSET] == id;
    }

    /**
     * As {@link #encode(MemorySegment, MemorySegment, long, DictionaryManager.Entry)}, from all of {@code value} into
     * the start of {@code dst}: the {@code byte[]} form, which makes no view of the arrays (allocates nothing).
     */
    final long encode(byte[] value, byte[] dst, int max, DictionaryManager.Entry dictionary) {
        return encode(null, null, value, dst, max, dictionary);
    }

    @Override
    public final long encode(MemorySegment value, MemorySegment dst, long max, DictionaryManager.Entry dictionary) {
        return encode(value, dst, null, null, max, dictionary);
    }

    /** The header, then the payload: of the segments, or of the arrays when {@code array} is not null. */
    private long encode(MemorySegment value, MemorySegment dst, byte[] array, byte[] arrayDst, long max,
                        DictionaryManager.Entry dictionary) {
        long room = Math.min(max, array != null ? arrayDst.length : dst.byteSize()) - ValueFormat.HEADER_SIZE;
        if (room < 1) {
            return NO_ROOM;
        }
        long payload = array != null
                ? encodePayload(array, arrayDst, ValueFormat.HEADER_SIZE, (int) room, dictionary)
                : encodePayload(value, dst, ValueFormat.HEADER_SIZE, room, dictionary);
        if (payload == NO_ROOM) {
            return NO_ROOM;
        }
        if (array != null) {
            ValueFormat.writeHeader(arrayDst, id);
        } else {
            ValueFormat.writeHeader(dst, id);
        }
        return ValueFormat.HEADER_SIZE + payload;
    }

    /**
     * Writes the payload of {@code value} into {@code dst} at {@code offset}, in at most {@code room} bytes.
     * @return the payload size, or {@link #NO_ROOM}; throws when the codec fails
     */
    abstract long encodePayload(MemorySegment value, MemorySegment dst, long offset, long room,
                                DictionaryManager.Entry dictionary);

    /** As {@link #encodePayload(MemorySegment, MemorySegment, long, long, DictionaryManager.Entry)}, for arrays. */
    abstract long encodePayload(byte[] value, byte[] dst, int offset, int room, DictionaryManager.Entry dictionary);

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
