package dev.zstdjava.cli;

import java.io.PrintWriter;

/**
 * A progress line on stderr, rewritten in place at most twice a second ({@code \r}); silent when off. Not
 * thread-safe.
 */
final class Progress {
    private final PrintWriter err;
    private final boolean on;
    private long last;
    private int width;

    Progress(PrintWriter err, boolean on) {
        this.err = err;
        this.on = on;
    }

    /** Shows {@code line} if half a second passed since the last one. */
    void update(String line) {
        long now = System.nanoTime();
        if (!on || now - last < 500_000_000L) {
            return;
        }
        last = now;
        String padded = line.length() < width ? line + " ".repeat(width - line.length()) : line;
        width = line.length();
        err.print("\r" + padded);
        err.flush();
    }

    /** Clears the line. */
    void done() {
        if (on && width > 0) {
            err.print("\r" + " ".repeat(width) + "\r");
            err.flush();
        }
    }
}
