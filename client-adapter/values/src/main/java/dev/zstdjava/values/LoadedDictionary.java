package dev.zstdjava.values;

import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdDecompressionDictionary;
import dev.zstdjava.zstd.ZstdDictionary;

import java.util.concurrent.atomic.LongAdder;

/**
 * One loaded dictionary at its place in the publication order: its native digests (shared with every other entry
 * for the same dictionary) and its counters, shared with every earlier entry of its id (at another place in the order,
 * or evicted and loaded again: {@code DictionaryRegistry} keeps an evicted one's counters). The compressor's hot path
 * reads the fields directly (through {@link DictionaryManager.Entry}). Thread-safe; immutable apart from the
 * counters.
 */
abstract class LoadedDictionary {
    final long id;
    final long sequence;
    final int size;
    final boolean given;
    final ZstdDictionary dictionary;
    final ZstdDecompressionDictionary decompression;
    final DictionaryDigests digests;
    final LongAdder valuesWritten;
    final LongAdder originalBytes;
    final LongAdder storedBytes;
    final LongAdder valuesRead;
    /**
     * When a read last decoded with this dictionary ({@link System#nanoTime()}, to {@link #TOUCH_NANOS}), or when it
     * was loaded: which loaded dictionary {@code StoreSync} evicts first to stay within
     * {@link DictionaryManager.Builder#maxLoadedBytes} (the least recently used). One volatile long; the read path
     * writes it at most once per {@link #TOUCH_NANOS} and allocates nothing.
     */
    volatile long lastUsed = System.nanoTime();

    /** The granularity of {@link #lastUsed}: a read writes it only when it is older than this, 1 ms. */
    static final long TOUCH_NANOS = 1_000_000;

    /**
     * Until when ({@link System#nanoTime()}) this dictionary is kept for the retry of the read whose miss loaded it,
     * or 0: {@code StoreSync} loads it so, and does not evict it to keep within
     * {@link DictionaryManager.Builder#maxLoadedBytes} before then unless such dictionaries alone take more than the
     * bound; the first read decoding with it ends the wait ({@link #touch}). Written by the loading thread before the
     * entry is findable, cleared by readers; one volatile long.
     */
    volatile long heldForRead;

    LoadedDictionary(long id, long sequence, DictionaryDigests digests, boolean given) {
        this(id, sequence, digests, given, new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder());
    }

    /** The same dictionary and counters at its now known place in the order. */
    LoadedDictionary(LoadedDictionary e, long sequence) {
        this(e.id, sequence, e.digests, e.given, e.valuesWritten, e.originalBytes, e.storedBytes, e.valuesRead);
        this.lastUsed = e.lastUsed;
        this.heldForRead = e.heldForRead;
    }

    /**
     * The dictionary {@code e}, just loaded, counting on with {@code kept}: the counters of an earlier entry of its
     * id, evicted to keep within {@link DictionaryManager.Builder#maxLoadedBytes} (the same counter objects, so a
     * call that found the evicted entry just before and counts on it afterwards is not lost).
     */
    LoadedDictionary(LoadedDictionary e, Counters kept) {
        this(e.id, e.sequence, e.digests, e.given, kept.written, kept.original, kept.stored, kept.read);
        this.lastUsed = e.lastUsed;
        this.heldForRead = e.heldForRead;
    }

    /** The counters of an evicted dictionary, kept for when its id is loaded again; see {@link #counters()}. */
    record Counters(LongAdder written, LongAdder original, LongAdder stored, LongAdder read) {
    }

    /** @return this dictionary's counters (the objects themselves, not a copy), to keep when it is evicted */
    Counters counters() {
        return new Counters(valuesWritten, originalBytes, storedBytes, valuesRead);
    }

    private LoadedDictionary(long id, long sequence, DictionaryDigests digests, boolean given, LongAdder written,
                  LongAdder original, LongAdder stored, LongAdder read) {
        this.id = id;
        this.sequence = sequence;
        this.size = digests.dictionary.size();
        this.given = given;
        this.dictionary = digests.dictionary;
        this.decompression = digests.decompression;
        this.digests = digests;
        this.valuesWritten = written;
        this.originalBytes = original;
        this.storedBytes = stored;
        this.valuesRead = read;
    }

    /**
     * @return the dictionary digested for compression at {@code level}: digested on first use per level, the
     *         digest of another level released (see {@link DictionaryDigests}); lock-free
     */
    ZstdCompressionDictionary compressionDictionary(int level) {
        return digests.forCompression(level);
    }

    /**
     * Records a read decoded with this dictionary now ({@link #lastUsed}) and ends its wait for a read
     * ({@link #heldForRead}); allocates nothing.
     */
    void touch() {
        long now = System.nanoTime();
        if (now - lastUsed > TOUCH_NANOS) {
            lastUsed = now;
        }
        if (heldForRead != 0) {
            heldForRead = 0;
        }
    }

    /** @return whether this dictionary is kept for a read's retry at {@code now} ({@link #heldForRead}) */
    boolean isHeldForRead(long now) {
        long until = heldForRead;
        return until != 0 && now - until < 0;
    }

    /** Counts a value offered while this dictionary was current: its size and its stored size. */
    void countWrite(long original, long stored, boolean compressed) {
        if (compressed) {
            valuesWritten.increment();
        }
        originalBytes.add(original);
        storedBytes.add(stored);
    }
}
