package dev.zstdjava.values;

import dev.zstdjava.CompressionException;

/**
 * A stored value is a zstd frame that needs a dictionary this reader does not hold. The value is not malformed, and
 * it is never returned as stored: the command that read it fails with this exception, naming the dictionary ID, and
 * the connection stays usable. The message says where the dictionary was looked for (a server store's key,
 * {@link DictionaryStore#entryLocation}) and what to do. With a {@link DictionaryManager} that has a
 * {@link DictionaryStore}, the dictionary is fetched on the manager's own thread, so a later read of the value
 * succeeds once it is published (when the store has no entry for it, the message says that retrying does not help
 * until the entry is restored or published); otherwise load the dictionary (or read with a client that has it) to
 * read the value.
 */
public final class MissingDictionaryException extends CompressionException {
    private static final long serialVersionUID = 1L;

    private final long dictionaryId;

    /** @param dictionaryId the dictionary ID the frame declares */
    public MissingDictionaryException(long dictionaryId) {
        this(dictionaryId, null);
    }

    /**
     * @param dictionaryId the dictionary ID the frame declares
     * @param detail       why it is missing and what happens next, or null
     */
    public MissingDictionaryException(long dictionaryId, String detail) {
        super("zstd decompress", "the stored value needs zstd dictionary " + dictionaryId
                + ", which this reader does not have; it is not returned as stored"
                + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"));
        this.dictionaryId = dictionaryId;
    }

    /** @return the dictionary ID the frame declares (unsigned 32-bit) */
    public long dictionaryId() {
        return dictionaryId;
    }
}
