package dev.zstdjava.values;

/**
 * A stored zstd value names a dictionary (by the id in its frame header) that this reader does not have. The value
 * is not returned as stored bytes: the command reading it fails with this exception and the connection stays usable.
 * With a {@link DictionaryManager} that has a {@link DictionaryStore}, the dictionary is fetched on the manager's own
 * thread, so a later read of the value succeeds once it is published.
 */
public final class MissingDictionaryException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final long dictionaryId;

    public MissingDictionaryException(long dictionaryId, String detail) {
        super("the value was compressed with zstd dictionary id " + dictionaryId + ", which this reader does not have"
                + (detail == null || detail.isEmpty() ? "" : ": " + detail));
        this.dictionaryId = dictionaryId;
    }

    /** @return the dictionary id the value's frame names (unsigned 32-bit) */
    public long dictionaryId() {
        return dictionaryId;
    }
}
