package dev.zstdjava.lettuce;

import dev.zstdjava.CompressionException;

/**
 * A stored value is a zstd frame that needs a dictionary this reader does not hold. The value is not malformed, and
 * it is never returned as stored: the command that read it fails with this exception, naming the dictionary ID, and
 * the connection stays usable. Load the dictionary (or read with a client that has it) to read the value.
 */
public final class MissingDictionaryException extends CompressionException {
    private static final long serialVersionUID = 1L;

    private final long dictionaryId;

    /** @param dictionaryId the dictionary ID the frame declares */
    public MissingDictionaryException(long dictionaryId) {
        super("zstd decompress", "the stored value needs zstd dictionary " + dictionaryId
                + ", which this reader does not have; it is not returned as stored");
        this.dictionaryId = dictionaryId;
    }

    /** @return the dictionary ID the frame declares */
    public long dictionaryId() {
        return dictionaryId;
    }
}
