package dev.zstdjava.values;

import dev.zstdjava.CompressionException;
import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdException;
import dev.zstdjava.zstd.ZstdFrame;

import java.lang.foreign.MemorySegment;

/**
 * The shared format's zstd backend (id {@code 0x01}): the payload is one standard zstd frame, which records a
 * dictionary id when it was compressed with one of a {@link DictionaryManager}'s dictionaries. Bound instances keep
 * a compressor, a decompressor and a few dictionary-bound decompressors, made on first use; not thread-safe (see
 * {@link ValueBackend}). Encoding allocates nothing; decoding allocates the returned value.
 */
final class ZstdBackend extends HeaderBackend {
    // zstd's error codes (ZSTD_ErrorCode in zstd_errors.h, stable across versions) that mean the input is malformed
    /** Found in Java before calling zstd: empty, truncated, sizes that disagree. */
    static final int FOUND_IN_JAVA = 0;
    /** ZSTD_error_prefix_unknown = 10. */
    static final int PREFIX_UNKNOWN = 10;
    /** ZSTD_error_version_unsupported = 12. */
    static final int VERSION_UNSUPPORTED = 12;
    /** ZSTD_error_frameParameter_unsupported = 14. */
    static final int FRAME_PARAMETER_UNSUPPORTED = 14;
    /** ZSTD_error_frameParameter_windowTooLarge = 16. */
    static final int WINDOW_TOO_LARGE = 16;
    /** ZSTD_error_literals_headerWrong = 24. */
    static final int LITERALS_HEADER_WRONG = 24;
    /** ZSTD_error_noForwardProgress_destFull = 80. */
    static final int NO_FORWARD_PROGRESS_DEST_FULL = 80;
    /** ZSTD_error_noForwardProgress_inputEmpty = 82. */
    static final int NO_FORWARD_PROGRESS_INPUT_EMPTY = 82;
    // and ZstdException's: CORRUPTION_DETECTED = 20, CHECKSUM_WRONG = 22, DST_SIZE_TOO_SMALL = 70, SRC_SIZE_WRONG = 72

    /**
     * Decompressors built with a dictionary, a few per coder: each keeps a copy of its dictionary next to the output
     * (reads of up to 128 KiB some 15% faster). They go to the first dictionaries read and are kept while each is read
     * at least once in {@value #COLD_AFTER} of the coder's reads with a dictionary.
     */
    static final int DICT_DECOMPRESSORS = 4;
    /**
     * A built decompressor not used by the coder's last this many reads with a dictionary is cold: the next
     * dictionary not held replaces it. Until one is cold, the others are read by the coder's one switching
     * decompressor ({@link ZstdDecompressor#useDictionary}), which costs no new context: values of more dictionaries
     * than {@value #DICT_DECOMPRESSORS} read in turn (per-pattern dictionaries, a lineage's generations) neither
     * build a context per read nor evict the ones read most.
     */
    static final int COLD_AFTER = 64;

    private ZstdCompressor compressor;
    private ZstdDecompressor decompressor;
    private DictionaryManager.Entry compressEntry;
    private ZstdCompressor dictCompressor;
    /**
     * The digests each dictionary-bound decompressor was built from: a decompressor is reused for the same digests
     * only, never for another dictionary of the same id (a lineage reopened loads its dictionaries anew).
     */
    private final DictionaryDigests[] dictDigests;
    private final ZstdDecompressor[] dictDecompressors;
    /** The coder's reads with a dictionary so far, and the count at each built decompressor's latest read. */
    private long dictReads;
    private final long[] lastRead;
    /** The decompressor that switches to the dictionaries the built ones do not hold, and the digests it uses. */
    private ZstdDecompressor switcher;
    private DictionaryDigests switcherDigests;
    /** Decompressors built with a dictionary so far, for tests. */
    long built;

    /** @param coder the coder to bind to, or null for the unbound instance (the selector's) */
    ZstdBackend(Coder coder) {
        super("glide-zstd", 0x01, Zstd.MIN_LEVEL, Zstd.MAX_LEVEL, Zstd.DEFAULT_LEVEL, coder);
        this.dictDigests = coder == null ? null : new DictionaryDigests[DICT_DECOMPRESSORS];
        this.dictDecompressors = coder == null ? null : new ZstdDecompressor[DICT_DECOMPRESSORS];
        this.lastRead = coder == null ? null : new long[DICT_DECOMPRESSORS];
    }

    @Override
    public ZstdBackend bind(Coder coder) {
        return new ZstdBackend(coder);
    }

    @Override
    boolean takesDictionaries() {
        return true;
    }

    /** The compressor is rebuilt only when the dictionary changes. */
    @Override
    long encodePayload(MemorySegment value, MemorySegment dst, long offset, long room, DictionaryManager.Entry dict) {
        ZstdCompressor c = dict == null ? compressor() : dictionaryCompressor(dict);
        long n = c.tryCompress(value, dst, offset, room);
        return n < 0 ? NO_ROOM : n;
    }

    @Override
    long encodePayload(byte[] value, byte[] dst, int offset, int room, DictionaryManager.Entry dict) {
        ZstdCompressor c = dict == null ? compressor() : dictionaryCompressor(dict);
        long n = c.tryCompress(value, 0, value.length, dst, offset, room);
        return n < 0 ? NO_ROOM : n;
    }

    /** zstd's frame magic, and a skippable frame's with its low four bits cleared (little-endian). */
    static final int FRAME_MAGIC = 0xFD2FB528;
    private static final int SKIPPABLE_MAGIC = 0x184D2A50;

    /** A frame, or a skippable frame, starts right after the header. */
    @Override
    boolean couldBePayload(MemorySegment stored) {
        if (stored.byteSize() < ValueFormat.HEADER_SIZE + 4) {
            return false;
        }
        int magic = stored.get(ValueFormat.LE_INT, ValueFormat.HEADER_SIZE);
        return magic == FRAME_MAGIC || (magic & 0xFFFFFFF0) == SKIPPABLE_MAGIC;
    }

    @Override
    byte[] decodePayload(MemorySegment payload) {
        return decodeFrame(payload);
    }

    @Override
    public boolean malformed(RuntimeException e) {
        return e instanceof ZstdException z && malformed(z);
    }

    /**
     * @return whether zstd rejected the payload itself (corrupt, truncated, unsupported frame), as opposed to the
     *     environment (memory, parameters) or a missing dictionary
     */
    static boolean malformed(ZstdException e) {
        return switch (e.errorCode()) {
            case FOUND_IN_JAVA, PREFIX_UNKNOWN, VERSION_UNSUPPORTED, FRAME_PARAMETER_UNSUPPORTED, WINDOW_TOO_LARGE,
                 ZstdException.CORRUPTION_DETECTED, ZstdException.CHECKSUM_WRONG, LITERALS_HEADER_WRONG,
                 ZstdException.DST_SIZE_TOO_SMALL, ZstdException.SRC_SIZE_WRONG, NO_FORWARD_PROGRESS_DEST_FULL,
                 NO_FORWARD_PROGRESS_INPUT_EMPTY -> true;
            default -> false;
        };
    }

    /** The frame after the header names the dictionary, if any. */
    @Override
    public long dictionaryId(MemorySegment stored) {
        return ValueFormat.hasHeader(stored) ? ZstdFrame.dictionaryId(stored.asSlice(ValueFormat.HEADER_SIZE)) : 0;
    }

    /**
     * Decodes one zstd frame (or several concatenated), with the dictionary it names when it names one. Without
     * dictionaries the frame's headers are read once, by the decoding itself ({@link ZstdDecompressor#decompress(
     * MemorySegment)}); the dictionary id is read only when decoding fails (such a frame cannot decode without its
     * dictionary), so a value that needs one still fails as missing it, before any other error.
     * @throws MissingDictionaryException  if it names a dictionary that is not loaded
     * @throws DecompressionLimitException if it would be larger than the configured maximum
     */
    byte[] decodeFrame(MemorySegment frame) {
        DictionaryLookup dictionaries = coder.dictionaries();
        if (dictionaries == null) {
            try {
                return decompressor().decompress(frame);
            } catch (RuntimeException e) {
                long dictId = ZstdFrame.dictionaryId(frame);
                if (dictId != 0) {
                    throw new MissingDictionaryException(dictId, "this ValueCompressor has no dictionaries configured"
                            + " (ValueCompressor.create(config, DictionaryManager))");
                }
                throw e;
            }
        }
        long dictId = ZstdFrame.dictionaryId(frame);
        if (dictId == 0) {
            return decompressor().decompress(frame);
        }
        DictionaryManager.Entry e = dictionaries.find(dictId);
        if (e == null) {
            throw dictionaries.missing(dictId);
        }
        ZstdDecompressor d;
        try {
            d = dictionaryDecompressor(e);
        } catch (IllegalStateException x) {
            if (!e.digests.isClosed()) {
                throw x;
            }
            throw dictionaries.released(dictId, x); // its manager closed after the look-up: no context of it is made
        }
        byte[] out;
        try {
            out = d.decompress(frame);
        } catch (ZstdException x) { // a dictionary frame is never returned as stored, even when it is corrupt
            throw new CompressionException("zstd decompress", "a value compressed with dictionary " + dictId
                    + " does not decode with the loaded dictionary of that id: " + x.getMessage(), x);
        }
        e.valuesRead.increment();
        e.touch();
        return out;
    }

    private ZstdCompressor compressor() { // contexts are made on first use: a backend never used loads nothing
        return compressor != null ? compressor : (compressor = ZstdCompressor.create(coder.config().level()));
    }

    private ZstdDecompressor decompressor() {
        return decompressor != null ? decompressor : (decompressor = ZstdDecompressor.builder()
                .maxDecompressedSize(coder.config().maxDecompressedSize()).build());
    }

    private ZstdCompressor dictionaryCompressor(DictionaryManager.Entry entry) {
        if (entry != compressEntry) {
            ZstdCompressor c = withDigest(entry);
            if (dictCompressor != null) {
                dictCompressor.close();
            }
            dictCompressor = c;
            compressEntry = entry;
        }
        return dictCompressor;
    }

    /**
     * A compressor over the entry's compression digest for this coder's level. The manager may release that digest
     * (another level asked for, the dictionary retired) between the lookup and the build, which then refuses the
     * closed digest: the lookup is repeated (it digests anew), up to {@value #DIGEST_ATTEMPTS} times, so a value is
     * not stored plain only because of that race.
     */
    private ZstdCompressor withDigest(DictionaryManager.Entry entry) {
        for (int attempt = 1; ; attempt++) {
            try {
                return ZstdCompressor.builder().dictionary(entry.compressionDictionary(coder.config().level())).build();
            } catch (IllegalStateException released) {
                if (attempt == DIGEST_ATTEMPTS) {
                    throw released;
                }
            }
        }
    }

    private static final int DIGEST_ATTEMPTS = 3;

    /**
     * The decompressor for {@code e}'s digest: a built one kept for that very digest; else a new one in place of one
     * whose digest was released (freeing the tables it held), of an empty slot or of the least recently read when it
     * is {@linkplain #COLD_AFTER cold}; else the switching decompressor, switched to it.
     * @throws IllegalStateException when {@code e}'s digest was released (its manager closed)
     */
    private ZstdDecompressor dictionaryDecompressor(DictionaryManager.Entry e) {
        long read = ++dictReads;
        int slot = -1;
        int oldest = 0;
        for (int i = 0; i < DICT_DECOMPRESSORS; i++) {
            DictionaryDigests held = dictDigests[i];
            if (held == e.digests && !held.isClosed()) {
                lastRead[i] = read;
                return dictDecompressors[i];
            }
            if (held == null || held.isClosed()) {
                slot = i;
            } else if (lastRead[i] < lastRead[oldest]) {
                oldest = i;
            }
        }
        if (slot < 0 && read - lastRead[oldest] > COLD_AFTER) {
            slot = oldest;
        }
        if (slot < 0) {
            if (switcherDigests != e.digests || e.digests.isClosed()) {
                if (switcher == null) {
                    switcher = ZstdDecompressor.builder().maxDecompressedSize(coder.config().maxDecompressedSize())
                            .build();
                }
                switcherDigests = null; // a refused switch leaves it without a dictionary
                switcher.useDictionary(e.decompression);
                switcherDigests = e.digests;
            }
            return switcher;
        }
        if (dictDecompressors[slot] != null) {
            dictDecompressors[slot].close();
            dictDecompressors[slot] = null;
            dictDigests[slot] = null;
        }
        ZstdDecompressor d = ZstdDecompressor.builder().maxDecompressedSize(coder.config().maxDecompressedSize())
                .dictionary(e.decompression).build();
        built++;
        dictDecompressors[slot] = d;
        dictDigests[slot] = e.digests;
        lastRead[slot] = read;
        return d;
    }

    /**
     * Frees the decompressors bound to digests that were released (their manager closed, or the dictionary evicted to
     * keep within {@link DictionaryManager.Builder#maxLoadedBytes}), and the compressor of a dictionary evicted since it
     * last compressed here: their slots are free for the next dictionaries; the switching decompressor drops such a
     * digest. For an idle coder only (its pool's {@link CoderPool#freeReleasedDictionaries()}).
     */
    void freeReleasedDictionaries() {
        if (compressEntry != null && compressEntry.digests.isClosed()) { // evicted after it stopped compressing
            dictCompressor.close();
            dictCompressor = null;
            compressEntry = null;
        }
        for (int i = 0; i < DICT_DECOMPRESSORS; i++) {
            if (dictDigests[i] != null && dictDigests[i].isClosed()) {
                dictDecompressors[i].close();
                dictDecompressors[i] = null;
                dictDigests[i] = null;
            }
        }
        if (switcherDigests != null && switcherDigests.isClosed()) {
            switcher.useDictionary(null); // drops its reference to the released tables
            switcherDigests = null;
        }
    }

    @Override
    public void close() {
        closeAll(compressor, decompressor, dictCompressor, switcher);
        if (dictDecompressors != null) {
            closeAll(dictDecompressors);
        }
    }
}
