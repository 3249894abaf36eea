package dev.zstdjava.lz4;

import dev.zstdjava.Decompressor;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.Confinement;

/**
 * The setting every lz4 builder shares, {@link #confined()}, and the decompressors' limit ({@link Limit}), written
 * once here as {@code dev.zstdjava.zstd}'s builders share theirs.
 *
 * @param <B> the builder, returned by every setter for chaining
 */
abstract sealed class ContextSettings<B extends ContextSettings<B>>
        permits Lz4Compressor.Builder, Lz4FrameCompressor.Builder, ContextSettings.Limit {
    /** Which threads may use the object built: {@link Confinement#SHARED} unless {@link #confined()}. */
    Confinement confinement = Confinement.SHARED;

    @SuppressWarnings("unchecked")
    final B self() {
        return (B) this;
    }

    /**
     * The object will belong to the thread that calls {@code build()}, as FFM's confined arenas do: only that thread
     * may call it and close it, with a plain read of the owner thread instead of the atomic instruction per call; a
     * call or close from another thread throws {@link IllegalStateException} naming both threads and changes nothing.
     * Freed by a {@link java.lang.ref.Cleaner} if it becomes unreachable unclosed.
     *
     * @return this builder
     */
    public B confined() {
        this.confinement = Confinement.CONFINED;
        return self();
    }

    /** The decompressors' settings: {@link #maxDecompressedSize(long)} too. */
    abstract static sealed class Limit<B extends Limit<B>> extends ContextSettings<B>
            permits Lz4Decompressor.Builder, Lz4FrameDecompressor.Builder {
        /** The limit set so far. */
        long maxDecompressedSize = Decompressor.DEFAULT_MAX_DECOMPRESSED_SIZE;

        /**
         * Sets the largest output of the forms that find the output size in the data ({@code decompress(byte[])}
         * and, for frames, one frame through {@code update}), in bytes; default
         * {@link Decompressor#DEFAULT_MAX_DECOMPRESSED_SIZE}.
         *
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is negative
         */
        public B maxDecompressedSize(long bytes) {
            this.maxDecompressedSize = Bounds.maxDecompressedSize(bytes);
            return self();
        }
    }
}
