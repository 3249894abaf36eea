package dev.zstdjava.zstd;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * One set of zstd compression parameters, checked once when it is made and applied to a native context by the
 * compressors that take it. {@link ZstdCompressor.Builder} and {@link ZstdCompressStream.Builder} (and so
 * {@link ZstdOutputStream}) hold one of these; each option is described here, once.
 *
 * <p>Every {@code with...} method returns a new value and throws {@link IllegalArgumentException}, naming the
 * option, the value and the valid range, for a value zstd would refuse; a value that passes is applied as it is.
 *
 * <p><b>Thread safety:</b> immutable; safe to share between threads and between compressors. <b>Allocation:</b> each
 * {@code with...} call makes one small object (through a short-lived copy); applying it to a context allocates
 * nothing on the Java heap.
 *
 * @param level                compression level, {@link Zstd#MIN_LEVEL}..{@link Zstd#MAX_LEVEL}; negative levels
 *                             are faster, higher ones compress more. Default {@link Zstd#DEFAULT_LEVEL} (3). A
 *                             {@link #dictionary()} brings its own level, which applies instead.
 * @param checksum             append a 32-bit content checksum (the low 32 bits of XXH64) to each frame, checked on
 *                             decompression; default off
 * @param contentSize          write the content size into the frame header when it is known, so a decoder can
 *                             allocate exactly; default on. A stream knows the size only when one call ends the frame
 *                             with all of its input.
 * @param windowLog            log2 of the match window in bytes, {@link #windowLogRange()} (10..31 on 64-bit); 0 lets
 *                             the level decide (default). A decoder needs at least a window this large, see
 *                             {@link ZstdDecompressionParameters#windowLogMax()}.
 * @param longDistanceMatching long-distance matching, for large inputs with repetitions far apart; default off
 * @param workers              worker threads inside zstd, {@code >= 0}; 0 (default) compresses on the calling thread.
 *                             More than zstd's own limit is refused naming the range when a context is made with
 *                             them (zstd alone would run fewer and say nothing).
 *                             With workers a call may wait for them, so heap data is staged through native buffers
 *                             (see {@link ZstdCompressStream}).
 * @param strategy             match-finding strategy; {@link ZstdStrategy#LEVEL_DEFAULT} (default) lets the level
 *                             decide
 * @param dictionary           a digested dictionary to compress with (its level and parameters apply instead of
 *                             {@code level}); the compressor keeps it alive until it is closed. Null (default): none.
 */
public record ZstdCompressionParameters(int level, boolean checksum, boolean contentSize, int windowLog,
                                        boolean longDistanceMatching, int workers, ZstdStrategy strategy,
                                        ZstdCompressionDictionary dictionary) {
    /** zstd's range for {@code windowLog}, asked once: {lower, upper}. */
    private static final int[] WINDOW_LOG = Checks.bounds(ZstdNative.cParamBounds(ZstdNative.C_WINDOW_LOG), 10, 31);

    /** Checks every value; see the class description for the ranges. */
    public ZstdCompressionParameters {
        Zstd.checkLevel(level);
        Objects.requireNonNull(strategy, "strategy (ZstdStrategy.LEVEL_DEFAULT lets the level decide)");
        checkWindowLog(windowLog);
        checkWorkers(workers);
    }

    static void checkWindowLog(int windowLog) {
        if (windowLog != 0) {
            Checks.inRange("zstd windowLog", windowLog, WINDOW_LOG);
        }
    }

    static void checkWorkers(int workers) {
        if (workers < 0) {
            throw new IllegalArgumentException("zstd workers must be >= 0, got " + workers);
        }
    }

    /** @return zstd's defaults: level {@link Zstd#DEFAULT_LEVEL}, content size on, everything else off */
    public static ZstdCompressionParameters defaults() {
        return new ZstdCompressionParameters(Zstd.DEFAULT_LEVEL, false, true, 0, false, 0, ZstdStrategy.LEVEL_DEFAULT,
                null);
    }

    /** @return the {@code windowLog} values other than 0 that this libzstd accepts, {lower, upper} */
    public static int[] windowLogRange() {
        return WINDOW_LOG.clone();
    }

    /** @return these parameters with {@link #level()} set */
    public ZstdCompressionParameters withLevel(int level) {
        return new Copy(this).level(level).toParameters();
    }

    /** @return these parameters with {@link #checksum()} set */
    public ZstdCompressionParameters withChecksum(boolean checksum) {
        return new Copy(this).checksum(checksum).toParameters();
    }

    /** @return these parameters with {@link #contentSize()} set */
    public ZstdCompressionParameters withContentSize(boolean contentSize) {
        return new Copy(this).contentSize(contentSize).toParameters();
    }

    /** @return these parameters with {@link #windowLog()} set */
    public ZstdCompressionParameters withWindowLog(int windowLog) {
        return new Copy(this).windowLog(windowLog).toParameters();
    }

    /** @return these parameters with {@link #longDistanceMatching()} set */
    public ZstdCompressionParameters withLongDistanceMatching(boolean longDistanceMatching) {
        return new Copy(this).longDistanceMatching(longDistanceMatching).toParameters();
    }

    /** @return these parameters with {@link #workers()} set */
    public ZstdCompressionParameters withWorkers(int workers) {
        return new Copy(this).workers(workers).toParameters();
    }

    /** @return these parameters with {@link #strategy()} set */
    public ZstdCompressionParameters withStrategy(ZstdStrategy strategy) {
        return new Copy(this).strategy(strategy).toParameters();
    }

    /** @return these parameters with {@link #dictionary()} set */
    public ZstdCompressionParameters withDictionary(ZstdCompressionDictionary dictionary) {
        return new Copy(this).dictionary(dictionary).toParameters();
    }

    /** A copy to change one component of: the {@code with...} methods use the builders' setters and checks. */
    static final class Copy extends CompressionSetters<Copy> {
        Copy(ZstdCompressionParameters p) {
            super(p);
        }
    }

    /**
     * Sets these parameters on a fresh {@code ZSTD_CCtx} and references the dictionary.
     *
     * @return the dictionary's shared handle, acquired for the context (the caller releases it when it frees the
     *         context), or null when there is none
     */
    SharedDict applyTo(MemorySegment cctx) {
        Checks.setParameter(cctx, ZstdNative.C_COMPRESSION_LEVEL, level, "level");
        if (checksum) {
            Checks.setParameter(cctx, ZstdNative.C_CHECKSUM_FLAG, 1, "checksum");
        }
        if (!contentSize) {
            Checks.setParameter(cctx, ZstdNative.C_CONTENT_SIZE_FLAG, 0, "contentSize");
        }
        if (windowLog != 0) {
            Checks.setParameter(cctx, ZstdNative.C_WINDOW_LOG, windowLog, "windowLog");
        }
        if (longDistanceMatching) {
            Checks.setParameter(cctx, ZstdNative.C_ENABLE_LONG_DISTANCE_MATCHING, 1, "longDistanceMatching");
        }
        if (workers != 0) {
            int[] range = ZstdNative.cParamBounds(ZstdNative.C_NB_WORKERS); // zstd caps a larger count silently
            if (range != null) {
                Checks.inRange("zstd parameter workers", workers, range);
            }
            Checks.setParameter(cctx, ZstdNative.C_NB_WORKERS, workers, "workers");
        }
        if (strategy != ZstdStrategy.LEVEL_DEFAULT) {
            Checks.setParameter(cctx, ZstdNative.C_STRATEGY, strategy.nativeValue(), "strategy");
        }
        if (dictionary == null) {
            return null;
        }
        SharedDict shared = Checks.reference(dictionary.shared(), dict -> ZstdNative.cctxRefCDict(cctx, dict),
                dictionary);
        if (dictionary.attachesAtAnySize()) {
            // a library that does not know the parameter refuses it and keeps its default: the same frames, slower
            long ignored = ZstdNative.cctxSetParameter(cctx, ZstdNative.C_FORCE_ATTACH_DICT,
                    ZstdNative.DICT_FORCE_ATTACH);
        }
        return shared;
    }
}
