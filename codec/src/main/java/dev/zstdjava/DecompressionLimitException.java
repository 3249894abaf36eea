package dev.zstdjava;

/**
 * Thrown when decompressing would produce more bytes than the configured limit allows. It is raised before the
 * output is allocated whenever the input declares its size up front, and as soon as the limit is passed otherwise.
 */
public final class DecompressionLimitException extends CompressionException {
    private static final long serialVersionUID = 1L;

    private final long limit;
    private final long size;

    /**
     * @param operation the call that failed
     * @param size      the declared (or reached) decompressed size in bytes
     * @param limit     the limit in bytes
     */
    public DecompressionLimitException(String operation, long size, long limit) {
        super(operation, "decompressed size " + (size < 0 ? "unknown" : size + " bytes")
                + " exceeds the limit of " + limit + " bytes (raise maxDecompressedSize if this data is trusted)");
        this.limit = limit;
        this.size = size;
    }

    /** @return the limit in bytes */
    public long limit() {
        return limit;
    }

    /** @return the declared or reached decompressed size in bytes */
    public long size() {
        return size;
    }
}
