package dev.zstdjava.zstd;

/** Turns a decoding failure that may come from a wrong or missing dictionary into a message naming the ids. */
final class DictionaryErrors {
    private DictionaryErrors() {}

    /** Unknown frame dictionary id: the header was not at hand when the error came. */
    static final long UNKNOWN = -1;

    /**
     * @param code       zstd's error result
     * @param frameDict  the dictionary id the frame header names (0 = none, {@link #UNKNOWN} = not read)
     * @param dict       the dictionary the decoder references, or null
     */
    static ZstdException decodeError(long code, String operation, String detail, long frameDict,
                                     ZstdDecompressionDictionary dict) {
        int err = ZstdNative.errorCode(code);
        String name = ZstdNative.errorName(code);
        if (err == ZstdException.DICTIONARY_WRONG || err == ZstdException.CORRUPTION_DETECTED
                || err == ZstdException.CHECKSUM_WRONG) {
            String hint = hint(err, frameDict, dict);
            if (hint != null) {
                return new ZstdException(operation, err, name + ": " + hint, detail);
            }
        }
        return new ZstdException(operation, err, name, detail);
    }

    private static String hint(int err, long frameDict, ZstdDecompressionDictionary dict) {
        long have = dict == null ? 0 : dict.id();
        if (frameDict > 0) {
            if (dict == null) {
                return "the frame was compressed with dictionary id " + frameDict + " but no dictionary was given";
            }
            if (frameDict != have) {
                return "the frame needs dictionary id " + frameDict + " but the decoder references dictionary id "
                        + have + (dict.isRawContent() ? " (raw content)" : "");
            }
            return null;
        }
        if (err == ZstdException.DICTIONARY_WRONG) {
            return dict == null ? "the frame needs a dictionary but none was given"
                    : "the dictionary (id " + have + ") does not match the frame";
        }
        if (frameDict == 0 && dict != null) {
            return "the frame does not record a dictionary id; if it was compressed with a dictionary, check that it"
                    + " is the one with id " + have + (dict.isRawContent() ? " (raw content)" : "");
        }
        return null;
    }
}
