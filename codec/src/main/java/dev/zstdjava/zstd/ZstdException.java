package dev.zstdjava.zstd;

import dev.zstdjava.CompressionException;

/**
 * A zstd call failed. Carries zstd's error code ({@code ZSTD_ErrorCode}, stable across versions), zstd's description
 * of it, and the operation with the sizes involved.
 *
 * <p>Error code {@code 0} means the problem was found in Java before zstd was called (for example an empty input).
 */
public final class ZstdException extends CompressionException {
    private static final long serialVersionUID = 1L;

    /** {@code ZSTD_error_corruption_detected}. */
    public static final int CORRUPTION_DETECTED = 20;
    /** {@code ZSTD_error_checksum_wrong}. */
    public static final int CHECKSUM_WRONG = 22;
    /** {@code ZSTD_error_dictionary_wrong}. */
    public static final int DICTIONARY_WRONG = 32;
    /** {@code ZSTD_error_dstSize_tooSmall}. */
    public static final int DST_SIZE_TOO_SMALL = 70;
    /** {@code ZSTD_error_srcSize_wrong}. */
    public static final int SRC_SIZE_WRONG = 72;

    private final int errorCode;
    private final String errorName;

    /**
     * @param operation what was called, for example {@code "zstd decompress"}
     * @param errorCode zstd's {@code ZSTD_ErrorCode}, or 0 for a problem found before calling zstd
     * @param errorName zstd's description of the error
     * @param detail    the sizes and limits involved
     */
    public ZstdException(String operation, int errorCode, String errorName, String detail) {
        super(operation, errorName + " (zstd error " + errorCode + ")" + (detail.isEmpty() ? "" : "; " + detail));
        this.errorCode = errorCode;
        this.errorName = errorName;
    }

    /** @return zstd's error code ({@code ZSTD_ErrorCode}), or 0 when the error was found before calling zstd */
    public int errorCode() {
        return errorCode;
    }

    /** @return zstd's description of the error, for example {@code "Destination buffer is too small"} */
    public String errorName() {
        return errorName;
    }
}
