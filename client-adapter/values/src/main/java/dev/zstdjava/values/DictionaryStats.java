package dev.zstdjava.values;

/**
 * Counters of one dictionary a {@link DictionaryManager} holds, since the manager first loaded it: a dictionary evicted
 * to keep within {@link DictionaryManager.Builder#maxLoadedBytes} and loaded again counts on from where it was (the
 * manager keeps the counters of the 1024 dictionaries evicted most
 * recently; one evicted before those, loaded again, counts from zero). Immutable snapshot.
 *
 * @param id            the dictionary id
 * @param sequence      its place in the publication order (a given dictionary: its position in the given list)
 * @param size          its size in bytes
 * @param current       whether it compresses new values now
 * @param valuesWritten values stored compressed with it
 * @param originalBytes size of the values offered while it was current (at least the minimum size), before
 *                      compression
 * @param bytesSaved    bytes those values saved as stored (original minus stored size, header included)
 * @param valuesRead    values decompressed with it
 */
public record DictionaryStats(long id, long sequence, int size, boolean current, long valuesWritten,
        long originalBytes, long bytesSaved, long valuesRead) {
    /** @return bytesSaved / originalBytes, or 0 before any value */
    public double savedFraction() {
        return originalBytes == 0 ? 0 : (double) bytesSaved / originalBytes;
    }
}
