package dev.zstdjava.zstd;

import java.util.Objects;

/**
 * The setters {@link ZstdCompressor.Builder} and {@link ZstdCompressStream.Builder} share: each sets one component
 * of a {@link ZstdCompressionParameters}, where the option is described, and checks it at once.
 *
 * @param <B> the builder, returned by every setter for chaining
 */
abstract sealed class CompressionSetters<B extends CompressionSetters<B>>
        permits ZstdCompressor.Builder, ZstdCompressStream.Builder {
    /** The parameters set so far. */
    ZstdCompressionParameters parameters = ZstdCompressionParameters.defaults();

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** Sets all parameters at once, replacing what was set before. */
    public B parameters(ZstdCompressionParameters parameters) {
        this.parameters = Objects.requireNonNull(parameters, "parameters");
        return self();
    }

    /**
     * Sets {@link ZstdCompressionParameters#level()}.
     *
     * @throws IllegalArgumentException if the level is outside {@link Zstd#minLevel()}..{@link Zstd#maxLevel()}
     */
    public B level(int level) {
        parameters = parameters.withLevel(level);
        return self();
    }

    /** Sets {@link ZstdCompressionParameters#checksum()}. */
    public B checksum(boolean checksum) {
        parameters = parameters.withChecksum(checksum);
        return self();
    }

    /** Sets {@link ZstdCompressionParameters#contentSize()}. */
    public B contentSize(boolean contentSize) {
        parameters = parameters.withContentSize(contentSize);
        return self();
    }

    /**
     * Sets {@link ZstdCompressionParameters#windowLog()}.
     *
     * @throws IllegalArgumentException if the value is neither 0 nor in
     *                                  {@link ZstdCompressionParameters#windowLogRange()}
     */
    public B windowLog(int windowLog) {
        parameters = parameters.withWindowLog(windowLog);
        return self();
    }

    /** Sets {@link ZstdCompressionParameters#longDistanceMatching()}. */
    public B longDistanceMatching(boolean enabled) {
        parameters = parameters.withLongDistanceMatching(enabled);
        return self();
    }

    /**
     * Sets {@link ZstdCompressionParameters#workers()}.
     *
     * @throws IllegalArgumentException if {@code workers} is negative
     */
    public B workers(int workers) {
        parameters = parameters.withWorkers(workers);
        return self();
    }

    /** Sets {@link ZstdCompressionParameters#strategy()}. */
    public B strategy(ZstdStrategy strategy) {
        parameters = parameters.withStrategy(strategy);
        return self();
    }

    /** Sets {@link ZstdCompressionParameters#dictionary()}. */
    public B dictionary(ZstdCompressionDictionary dictionary) {
        parameters = parameters.withDictionary(dictionary);
        return self();
    }
}
