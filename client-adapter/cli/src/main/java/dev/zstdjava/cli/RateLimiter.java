package dev.zstdjava.cli;

import java.util.concurrent.locks.LockSupport;

/**
 * Spaces the tool's server commands evenly: at most {@code rate} commands per second, counted together over every
 * node and every command. Thread-safe (one instance per run); allocates nothing.
 */
final class RateLimiter {
    private final long intervalNanos;
    private long next = System.nanoTime();
    private long acquired;

    /** Creates a limiter of {@code perSecond} operations a second; rejects a rate below 1. */
    RateLimiter(double perSecond) {
        if (!(perSecond >= 1)) {
            throw new IllegalArgumentException("--rate must be at least 1 operation a second, got " + perSecond);
        }
        this.intervalNanos = Math.max(1, (long) (1e9 / perSecond));
    }

    /** Waits until one more command may be sent. Blocks; never throws (an interrupt is kept for the caller). */
    void acquire() {
        long wait;
        synchronized (this) {
            long now = System.nanoTime();
            wait = next - now;
            next = Math.max(next, now) + intervalNanos;
            acquired++;
        }
        while (wait > 0 && !Thread.currentThread().isInterrupted()) {
            long start = System.nanoTime();
            LockSupport.parkNanos(wait);
            wait -= System.nanoTime() - start;
        }
    }

    /** Tells how many commands went through this limiter. */
    synchronized long acquired() {
        return acquired;
    }
}
