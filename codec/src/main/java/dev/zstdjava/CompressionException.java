package dev.zstdjava;

/**
 * Base class of the errors the codecs report: malformed or truncated input, a destination that is too small,
 * a size over the configured limit, an invalid parameter rejected by the native library.
 *
 * <p>Every message names the operation that failed and the sizes or limits involved.
 */
public class CompressionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String operation;

    /**
     * @param operation the call that failed, for example {@code "zstd decompress"}
     * @param message   what went wrong, with the sizes or limits involved
     */
    public CompressionException(String operation, String message) {
        super(operation + ": " + message);
        this.operation = operation;
    }

    /**
     * @param operation the call that failed
     * @param message   what went wrong
     * @param cause     the underlying failure
     */
    public CompressionException(String operation, String message, Throwable cause) {
        super(operation + ": " + message, cause);
        this.operation = operation;
    }

    /** @return the call that failed, for example {@code "zstd decompress"} */
    public String operation() {
        return operation;
    }
}
