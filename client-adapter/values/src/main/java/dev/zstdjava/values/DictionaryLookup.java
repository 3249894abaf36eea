package dev.zstdjava.values;

/**
 * Where the decoding path finds the dictionary a zstd frame names: a {@link DictionaryManager} (the dictionaries it
 * has loaded), or {@link PatternDictionaries} (those of every open lineage, for the adaptive compressor's reader).
 * Readers never lock: {@link #find} allocates nothing on the way to a loaded dictionary.
 */
interface DictionaryLookup {
    /** @return the loaded dictionary with this id, or null */
    DictionaryManager.Entry find(long id);

    /**
     * @return the exception for a frame naming dictionary {@code id}, which {@link #find} did not give; may start
     *         loading it (on a thread of the lookup's own), so that a later read succeeds
     */
    MissingDictionaryException missing(long id);

    /**
     * @param closed what the codec threw for the digest of dictionary {@code id}, released after {@link #find} gave
     *               it (its manager closed)
     * @return the exception the read fails with: {@code closed} itself, a manager closed under its compressor being a
     *         misuse, unless the lookup closes managers on its own (then the dictionary is missing, and retried)
     */
    default RuntimeException released(long id, IllegalStateException closed) {
        return closed;
    }
}
