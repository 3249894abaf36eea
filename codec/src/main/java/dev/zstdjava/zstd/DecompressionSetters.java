package dev.zstdjava.zstd;

import java.util.Objects;

/**
 * The setters {@link ZstdDecompressor.Builder} and {@link ZstdDecompressStream.Builder} share: each sets one
 * component of a {@link ZstdDecompressionParameters}, where the option is described, and checks it at once.
 *
 * @param <B> the builder, returned by every setter for chaining
 */
abstract sealed class DecompressionSetters<B extends DecompressionSetters<B>>
        permits ZstdDecompressor.Builder, ZstdDecompressStream.Builder {
    /** The limits set so far. */
    ZstdDecompressionParameters parameters = ZstdDecompressionParameters.defaults();

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** Sets all limits and the dictionary at once, replacing what was set before. */
    public B parameters(ZstdDecompressionParameters parameters) {
        this.parameters = Objects.requireNonNull(parameters, "parameters");
        return self();
    }

    /**
     * Sets {@link ZstdDecompressionParameters#maxDecompressedSize()}.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public B maxDecompressedSize(long bytes) {
        parameters = parameters.withMaxDecompressedSize(bytes);
        return self();
    }

    /**
     * Sets {@link ZstdDecompressionParameters#windowLogMax()}.
     *
     * @throws IllegalArgumentException if the value is neither 0 nor in
     *                                  {@link ZstdDecompressionParameters#windowLogMaxRange()}
     */
    public B windowLogMax(int windowLogMax) {
        parameters = parameters.withWindowLogMax(windowLogMax);
        return self();
    }

    /** Sets {@link ZstdDecompressionParameters#dictionary()}. */
    public B dictionary(ZstdDecompressionDictionary dictionary) {
        parameters = parameters.withDictionary(dictionary);
        return self();
    }
}
