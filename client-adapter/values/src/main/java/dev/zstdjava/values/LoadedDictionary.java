package dev.zstdjava.values;

import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdDecompressionDictionary;
import dev.zstdjava.zstd.ZstdDictionary;

import java.util.concurrent.atomic.LongAdder;

/**
 * One loaded dictionary at its place in the publication order: its native digests (shared with every other entry
 * for the same dictionary) and its counters. The compressor's hot path reads the fields directly (through
 * {@link DictionaryManager.Entry}). Thread-safe; immutable apart from the counters.
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

    LoadedDictionary(long id, long sequence, DictionaryDigests digests, boolean given) {
        this(id, sequence, digests, given, new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder());
    }

    /** The same dictionary and counters at its now known place in the order. */
    LoadedDictionary(LoadedDictionary e, long sequence) {
        this(e.id, sequence, e.digests, e.given, e.valuesWritten, e.originalBytes, e.storedBytes, e.valuesRead);
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

    /** Counts a value offered while this dictionary was current: its size and its stored size. */
    void countWrite(long original, long stored, boolean compressed) {
        if (compressed) {
            valuesWritten.increment();
        }
        originalBytes.add(original);
        storedBytes.add(stored);
    }
}
