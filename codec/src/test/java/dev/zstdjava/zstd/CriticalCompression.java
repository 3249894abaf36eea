package dev.zstdjava.zstd;

import java.lang.foreign.MemorySegment;

/**
 * Test-only access to one critical {@code ZSTD_compress2} call over whole heap arrays, whatever their size (the
 * library itself stages arrays above {@code zstdjava.criticalHeapLimit}): the unstaged case the safepoint probe
 * compares staging with. Lives in the test sources of the bindings' package because the bindings are
 * package-private. Not thread-safe: one instance per thread; {@link #close()} frees the context.
 */
public final class CriticalCompression implements AutoCloseable {
    private final MemorySegment cctx = ZstdNative.createCCtx();

    /** A context at {@code level}. */
    public CriticalCompression(int level) {
        ZstdNative.cctxSetParameter(cctx, ZstdNative.C_COMPRESSION_LEVEL, level);
    }

    /** The limit above which the library stages heap arrays (0 on JDK 21: always staged). */
    public static long heapCriticalLimit() {
        return ZstdNative.HEAP_CRITICAL_LIMIT;
    }

    /** Compresses all of {@code src} into {@code dst} in one critical call; returns zstd's result (checked by the caller). */
    public long compress(byte[] src, byte[] dst) {
        return ZstdNative.compressArrays(cctx, dst, 0, dst.length, src, 0, src.length);
    }

    @Override
    public void close() {
        ZstdNative.freeCCtx(cctx);
    }
}
