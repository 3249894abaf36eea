package dev.zstdjava.cli;

/** A failure the tool reports as one clear line and a non-zero exit code (1; 2 for bad arguments), without a stack trace. */
class ToolException extends RuntimeException {
    ToolException(String message) {
        super(message);
    }

    ToolException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Arguments that cannot work together or are out of range: exit code 2, like picocli's own usage errors. */
    static final class BadArguments extends ToolException {
        BadArguments(String message) {
            super(message);
        }
    }
}
