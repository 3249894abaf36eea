package dev.zstdjava.internal;

/**
 * How a downcall is made ({@link Binder}): {@link #REGULAR} with the thread-state transition (native memory only;
 * the JVM reaches safepoints during the call) or {@link #CRITICAL} without it (heap memory allowed; for short calls,
 * since it holds off safepoints, and so every GC, until it returns).
 */
public enum CallKind {
    /** With the thread-state transition: native memory only; for long calls. */
    REGULAR,
    /** Without the thread-state transition: heap memory allowed; for short calls. */
    CRITICAL
}
