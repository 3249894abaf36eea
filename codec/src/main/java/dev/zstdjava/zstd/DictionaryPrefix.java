package dev.zstdjava.zstd;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A decompressor's output placed right after its dictionary: a native copy of the dictionary followed by an output
 * area, and a {@code ZSTD_DDict} that references that copy instead of copying it. libzstd treats history that ends
 * where the output starts as one block of memory, so the matches a frame makes into the dictionary are copied as
 * matches within the output are; decoded anywhere else, each such match takes libzstd's separate-dictionary path (a
 * {@code memmove} per match), which made 10-50 KiB HTML values read about 10% slower with their dictionary than without
 * one. The decoded bytes are then copied to the caller's destination (in {@code ZstdDecompressor}).
 *
 * <p>Only for outputs of at most {@link #MAX_AREA} bytes and dictionaries of at most {@link #MAX_DICTIONARY} bytes:
 * the copy and the area are native memory of each decompressor, made at its second such call. The area grows in
 * powers of two, from 4 KiB, as larger outputs come; each growth digests the dictionary's tables again.
 *
 * <p><b>Thread safety:</b> none; one per decompressor, used under its guard and freed with its context.
 */
final class DictionaryPrefix {
    /** The largest output decoded in the area: zstd's largest block (a frame's first block sees the whole dictionary). */
    static final long MAX_AREA = 128 << 10;
    /** The largest dictionary copied next to the area (trained dictionaries are 16-112 KiB). */
    static final int MAX_DICTIONARY = 256 << 10;
    private static final long MIN_AREA = 4 << 10;

    private final ZstdDictionary dictionary;
    /** The dictionary's copy and the area after it, or null before the first use. */
    private MemorySegment buffer;
    private MemorySegment ddict;
    private MemorySegment area;
    /** Set when a copy could not be made (or the library lacks {@code ZSTD_createDDict_advanced}): in place then. */
    private boolean unavailable;
    /** Set by the first call that could use the area (which decodes in place). */
    private boolean calledBefore;

    private DictionaryPrefix(ZstdDictionary dictionary) {
        this.dictionary = dictionary;
    }

    /** @return a prefix for {@code dictionary}, or null when there is none or it is larger than {@link #MAX_DICTIONARY} */
    static DictionaryPrefix of(ZstdDecompressionDictionary dictionary) {
        return dictionary == null || dictionary.source().size() > MAX_DICTIONARY ? null
                : new DictionaryPrefix(dictionary.source());
    }

    /**
     * @return where to decode an output of at most {@code cap} bytes: the area (at least {@code cap} bytes), with
     *         {@code dctx} referencing the dictionary's copy right before it (its other outputs then use that copy
     *         too: the same tables); null to decode in place: {@code cap} over {@link #MAX_AREA}, the first such call
     *         (a decompressor used once, as one replaced at every read, does not pay for the copy), or the copy could
     *         not be made, now or before (no memory, or the library lacks {@code ZSTD_createDDict_advanced})
     */
    MemorySegment area(MemorySegment dctx, long cap) {
        if (area != null && area.byteSize() >= cap) {
            return area;
        }
        if (cap > MAX_AREA || unavailable) {
            return null;
        }
        if (!calledBefore) {
            calledBefore = true;
            return null;
        }
        try {
            grow(dctx, cap);
            return area;
        } catch (RuntimeException | OutOfMemoryError failed) { // UnsupportedOperationException: the library lacks it
            unavailable = true; // not tried again: the context keeps the copy it had (or the shared tables)
            return null;
        }
    }

    /** For tests: thrown by the next {@code grow}, as a failed allocation would be; null for none. */
    static volatile Throwable nextGrowFailure;

    private void grow(MemorySegment dctx, long cap) {
        long size = Math.min(MAX_AREA, Math.max(MIN_AREA, Long.highestOneBit(Math.max(cap - 1, 1)) << 1));
        int dictSize = dictionary.size();
        Throwable injected = nextGrowFailure;
        if (injected != null) {
            nextGrowFailure = null;
            if (injected instanceof Error e) {
                throw e;
            }
            throw (RuntimeException) injected;
        }
        MemorySegment b = ZstdNative.LIBC.malloc(dictSize + size);
        MemorySegment d = MemorySegment.NULL;
        boolean referenced = false;
        try {
            MemorySegment.copy(dictionary.bytes(), 0, b, ValueLayout.JAVA_BYTE, 0, dictSize);
            d = ZstdNative.createDDictByReference(b, dictSize, dictionary.content());
            if (d.address() == 0) {
                throw new OutOfMemoryError("ZSTD_createDDict_advanced returned NULL for " + dictionary);
            }
            // a stream the context was in the middle of (an error thrown through it) would make it refuse the copy
            ZstdNative.dctxReset(dctx, ZstdNative.ResetDirective.SESSION_ONLY);
            long r = ZstdNative.dctxRefDDict(dctx, d);
            referenced = !ZstdNative.isError(r);
            if (!referenced) {
                throw new ZstdException("zstd decompress", ZstdNative.errorCode(r), "the context refused the"
                        + " dictionary's copy", dictionary.toString());
            }
        } catch (Throwable t) {
            if (!referenced) { // once the context references them, they are kept (and freed with the prefix)
                if (d.address() != 0) {
                    ZstdNative.freeDDict(d);
                }
                ZstdNative.LIBC.free(b);
            }
            throw t;
        }
        free();
        buffer = b;
        ddict = d;
        area = b.asSlice(dictSize, size);
    }

    /** Frees the copy, its tables and the area; the context must no longer reference them (it is freed first). */
    void free() {
        if (ddict != null) {
            ZstdNative.freeDDict(ddict);
            ZstdNative.LIBC.free(buffer);
            ddict = null;
            buffer = null;
            area = null;
        }
    }

    /** @return the dictionary's copy and the area after it, for tests; null before the first use */
    MemorySegment buffer() {
        return buffer;
    }

    /** @return the tables over the copy, for tests; null before the first use */
    MemorySegment ddict() {
        return ddict;
    }

    /** @return the bytes of native memory held (the copy, its tables and the area), 0 before the first use */
    long size() {
        return buffer == null ? 0 : buffer.byteSize() + ZstdNative.sizeofDDict(ddict);
    }
}
