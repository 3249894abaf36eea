package dev.zstdjava.zstd;

import java.util.Objects;

/**
 * The setters {@link ZstdCompressor.Builder} and {@link ZstdCompressStream.Builder} share, which also make the
 * {@code with...} copies of {@link ZstdCompressionParameters}: each sets one component, where the option is described,
 * and checks it at once.
 *
 * @param <B> the builder, returned by every setter for chaining
 */
abstract sealed class CompressionSetters<B extends CompressionSetters<B>>
        permits ZstdCompressor.Builder, ZstdCompressStream.Builder, ZstdCompressionParameters.Copy {
    private int level;
    private boolean checksum;
    private boolean contentSize;
    private int windowLog;
    private boolean longDistanceMatching;
    private int workers;
    private ZstdStrategy strategy;
    private ZstdCompressionDictionary dictionary;

    /** Starts from {@link ZstdCompressionParameters#defaults()}. */
    CompressionSetters() {
        this(ZstdCompressionParameters.defaults());
    }

    /** Starts from {@code start}. */
    CompressionSetters(ZstdCompressionParameters start) {
        parameters(start);
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** Sets all parameters at once, replacing what was set before. */
    public B parameters(ZstdCompressionParameters parameters) {
        Objects.requireNonNull(parameters, "parameters");
        level = parameters.level();
        checksum = parameters.checksum();
        contentSize = parameters.contentSize();
        windowLog = parameters.windowLog();
        longDistanceMatching = parameters.longDistanceMatching();
        workers = parameters.workers();
        strategy = parameters.strategy();
        dictionary = parameters.dictionary();
        return self();
    }

    /** @return the parameters set so far */
    final ZstdCompressionParameters toParameters() {
        return new ZstdCompressionParameters(level, checksum, contentSize, windowLog, longDistanceMatching, workers,
                strategy, dictionary);
    }

    /**
     * Sets {@link ZstdCompressionParameters#level()}.
     *
     * @throws IllegalArgumentException if the level is outside {@link Zstd#MIN_LEVEL}..{@link Zstd#MAX_LEVEL}
     */
    public B level(int level) {
        Zstd.checkLevel(level);
        this.level = level;
        return self();
    }

    /** Sets {@link ZstdCompressionParameters#checksum()}. */
    public B checksum(boolean checksum) {
        this.checksum = checksum;
        return self();
    }

    /** Sets {@link ZstdCompressionParameters#contentSize()}. */
    public B contentSize(boolean contentSize) {
        this.contentSize = contentSize;
        return self();
    }

    /**
     * Sets {@link ZstdCompressionParameters#windowLog()}.
     *
     * @throws IllegalArgumentException if the value is neither 0 nor in
     *                                  {@link ZstdCompressionParameters#windowLogRange()}
     */
    public B windowLog(int windowLog) {
        ZstdCompressionParameters.checkWindowLog(windowLog);
        this.windowLog = windowLog;
        return self();
    }

    /** Sets {@link ZstdCompressionParameters#longDistanceMatching()}. */
    public B longDistanceMatching(boolean enabled) {
        this.longDistanceMatching = enabled;
        return self();
    }

    /**
     * Sets {@link ZstdCompressionParameters#workers()}.
     *
     * @throws IllegalArgumentException if {@code workers} is negative
     */
    public B workers(int workers) {
        ZstdCompressionParameters.checkWorkers(workers);
        this.workers = workers;
        return self();
    }

    /** Sets {@link ZstdCompressionParameters#strategy()}. */
    public B strategy(ZstdStrategy strategy) {
        this.strategy = strategy;
        return self();
    }

    /** Sets {@link ZstdCompressionParameters#dictionary()}. */
    public B dictionary(ZstdCompressionDictionary dictionary) {
        this.dictionary = dictionary;
        return self();
    }
}
