package dev.zstdjava.values;

/**
 * A {@link DictionaryStore} will not return a published entry, for good: it is larger than the store accepts (its
 * index understated its size, or it grew), or otherwise unacceptable as it stands. Distinct from a failed read
 * (any other {@code RuntimeException} from {@link DictionaryStore#get}), which a {@link DictionaryManager} retries:
 * the manager rejects a refused entry once, lists it in {@link DictionaryManager#rejectedDictionaries()} with this
 * message, and does not read it again.
 */
public class DictionaryEntryRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long dictionaryId;

    /**
     * @param dictionaryId the refused entry's id
     * @param reason       why the store will not return it (what it found, which limit)
     */
    public DictionaryEntryRefusedException(long dictionaryId, String reason) {
        super(reason);
        this.dictionaryId = dictionaryId;
    }

    /** @return the refused entry's id */
    public long dictionaryId() {
        return dictionaryId;
    }
}
