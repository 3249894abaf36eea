package dev.zstdjava.values;

/**
 * One published dictionary as a {@link DictionaryStore} lists it. Immutable.
 *
 * @param id       the zstd dictionary id (unsigned 32-bit, never 0), recorded in every frame compressed with it
 * @param sequence the store's publication counter when it was published: a higher sequence is newer; the newest
 *                 valid dictionary compresses new values
 * @param size     the dictionary's size in bytes
 */
public record DictionaryInfo(long id, long sequence, int size) {
}
