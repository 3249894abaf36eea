package dev.zstdjava.lz4;

import dev.zstdjava.CompressionException;

/**
 * An LZ4 call failed: malformed or truncated input, a destination that is too small, an input over lz4's size
 * limits. The message names the operation, the offsets and the sizes involved.
 *
 * <p>{@link #errorCode()} is the frame API's {@code LZ4F_errorCodes} value when the frame decoder or encoder reported
 * the error; for frame problems found in Java it is the matching code (a destination below the required bound:
 * {@link #DST_MAX_SIZE_TOO_SMALL}; empty input or not a frame: {@link #FRAME_TYPE_UNKNOWN}; input ending inside a
 * frame: {@link #FRAME_SIZE_WRONG}). It is {@link #NO_FRAME_CODE} (0) for block-format errors (the block decoder reports only where it
 * stopped, which the message gives as an input offset) and for size limits.
 */
public final class Lz4Exception extends CompressionException {
    private static final long serialVersionUID = 1L;

    /**
     * Not an {@code LZ4F_errorCodes} value: a block-format error (the block decoder reports only where it stopped)
     * or a size limit.
     */
    public static final int NO_FRAME_CODE = 0;
    /** {@code LZ4F_ERROR_dstMaxSize_tooSmall}. */
    public static final int DST_MAX_SIZE_TOO_SMALL = 11;
    /** {@code LZ4F_ERROR_frameType_unknown}: not an LZ4 frame (bad magic number). */
    public static final int FRAME_TYPE_UNKNOWN = 13;
    /** {@code LZ4F_ERROR_frameSize_wrong}: the content size differs from the declared one. */
    public static final int FRAME_SIZE_WRONG = 14;
    /** {@code LZ4F_ERROR_decompressionFailed}: a corrupt block. */
    public static final int DECOMPRESSION_FAILED = 16;
    /** {@code LZ4F_ERROR_contentChecksum_invalid}. */
    public static final int CONTENT_CHECKSUM_INVALID = 18;

    private final int errorCode;

    /**
     * @param operation what was called, for example {@code "lz4 decompress"}
     * @param errorCode the {@code LZ4F_errorCodes} value, or 0
     * @param message   what went wrong, with offsets and sizes
     */
    public Lz4Exception(String operation, int errorCode, String message) {
        super(operation, message);
        this.errorCode = errorCode;
    }

    /** @return the {@code LZ4F_errorCodes} value of a frame error, or 0 for block-format errors and size limits */
    public int errorCode() {
        return errorCode;
    }
}
