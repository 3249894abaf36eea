package dev.zstdjava.values;

/**
 * A dictionary was published under an id that another, different dictionary already has. Entries are never
 * overwritten: values compressed with the existing dictionary must stay readable.
 */
public final class DictionaryCollisionException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final long dictionaryId;

    public DictionaryCollisionException(long dictionaryId) {
        super("dictionary id " + dictionaryId + " is already published with other bytes; entries are never"
                + " overwritten (train again to get another id)");
        this.dictionaryId = dictionaryId;
    }

    /** @return the id that is taken */
    public long dictionaryId() {
        return dictionaryId;
    }
}
