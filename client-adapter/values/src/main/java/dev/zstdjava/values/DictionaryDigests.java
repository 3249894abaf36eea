package dev.zstdjava.values;

import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdDecompressionDictionary;
import dev.zstdjava.zstd.ZstdDictionary;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The native forms of one loaded dictionary: its decompression digest ({@code ZSTD_DDict}, made when it is loaded)
 * and at most one compression digest ({@code ZSTD_CDict}, for the level last asked for). One instance per loaded
 * dictionary, shared by every {@link DictionaryManager.Entry} that describes it.
 *
 * <p><b>Lifetime:</b> the manager owns both digests and releases them here: {@link #close()} when the manager closes,
 * {@link #retireCompression()} when the dictionary stops compressing, and {@link #forCompression(int)} when it
 * replaces the digest of another level. Releasing closes the codec's handle: the native tables are freed at once when
 * no compressor or decompressor references them, otherwise when the last one that does is closed (the codec counts
 * those references), so a call in flight always finishes with the tables it started with.
 *
 * <p><b>Thread safety:</b> lock-free. The compression digest is an immutable object in an {@link AtomicReference},
 * replaced by compare-and-set; the closing flag is volatile. {@link #forCompression(int)} allocates nothing when the
 * digest for the level exists.
 */
final class DictionaryDigests {
    final ZstdDictionary dictionary;
    final ZstdDecompressionDictionary decompression;
    private final AtomicReference<ZstdCompressionDictionary> compression = new AtomicReference<>();
    private volatile boolean closed;

    DictionaryDigests(ZstdDictionary dictionary, ZstdDecompressionDictionary decompression) {
        this.dictionary = dictionary;
        this.decompression = decompression;
    }

    /**
     * Returns the compression digest for {@code level}, digesting it first when the one held is of another level or
     * was retired; a replaced digest is released (freed once no compressor references it).
     */
    ZstdCompressionDictionary forCompression(int level) {
        ZstdCompressionDictionary c = compression.get();
        if (c != null && c.level() == level) {
            return c;
        }
        ZstdCompressionDictionary made = dictionary.forCompression(level);
        while (true) {
            ZstdCompressionDictionary old = compression.get();
            if (old != null && old.level() == level) { // another thread digested it meanwhile
                made.close();
                return old;
            }
            if (compression.compareAndSet(old, made)) {
                release(old);
                if (closed) { // close() ran meanwhile and may have missed this digest: release it here
                    retireCompression();
                }
                return made;
            }
        }
    }

    /** Releases the compression digest (the dictionary no longer compresses); a later request digests again. */
    void retireCompression() {
        release(compression.getAndSet(null));
    }

    /** @return whether {@link #close()} ran: no new compressor or decompressor may be made of these digests */
    boolean isClosed() {
        return closed;
    }

    /** Releases both digests; idempotent. Calls in flight finish first (see the class comment). */
    void close() {
        closed = true; // written before the slot is read: a concurrent forCompression sees it or its digest is seen
        decompression.close();
        retireCompression();
    }

    private static void release(ZstdCompressionDictionary c) {
        if (c != null) {
            c.close();
        }
    }
}
