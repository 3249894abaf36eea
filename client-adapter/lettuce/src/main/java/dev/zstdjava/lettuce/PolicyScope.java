package dev.zstdjava.lettuce;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

import java.nio.ByteBuffer;

/**
 * Per-thread state of the policy: the flag that turns compression on in {@link CompressingCodec} while a command the
 * policy compresses is being encoded ({@link EncodedCommand#encodeOnThisThread}, on the dispatching thread), and the
 * arrays that encoding borrows ({@link EncodeBuffers}), and, for an adaptive codec, the key the values being encoded
 * belong to.
 *
 * <p>Confined to one thread by construction; allocates nothing after the thread's first use.
 */
final class PolicyScope {
    private static final FastThreadLocal<PolicyScope> CURRENT = new FastThreadLocal<>() {
        @Override
        protected PolicyScope initialValue() {
            return new PolicyScope();
        }
    };

    /** Whether the command being encoded on this thread has its value arguments compressed. */
    boolean compress;

    /** The arrays this thread's encoding buffers use while it encodes a command ({@link EncodeBuffers}), else null. */
    EncodeBuffers.Spares spares;

    /**
     * Whether each value of the command being encoded belongs to the key just before it ({@code MSET},
     * {@code MSETNX}) rather than to the command's first key (every other command the policy compresses: the string
     * commands, and the hash writes, whose fields are encoded as keys after the hash's key).
     */
    boolean keyPerValue;

    /**
     * The encoded key the values being encoded belong to, {@code key[0, keyLength)}, or {@code keyLength} -1 while
     * none is known; recorded by an adaptive {@link CompressingCodec} only. The array grows to the longest key seen and
     * is kept up to {@link EncodeBuffers.Spares#MAX_KEPT_ARRAY} bytes, as the encoding buffers' arrays are
     * ({@link #endKeys}): a thread that once wrote a longer key does not keep a copy of it.
     */
    byte[] key = new byte[64];

    /** The length of {@link #key}, or -1 when no key is known. */
    int keyLength = -1;

    private PolicyScope() {}

    /** Starts a command: no key known yet; {@code perValue} as {@link #keyPerValue}. */
    void startKeys(boolean perValue) {
        keyPerValue = perValue;
        keyLength = -1;
    }

    /**
     * Ends a command: no key known, and an array grown beyond {@link EncodeBuffers.Spares#MAX_KEPT_ARRAY} for a
     * longer key is dropped.
     */
    void endKeys() {
        keyLength = -1;
        if (key.length > EncodeBuffers.Spares.MAX_KEPT_ARRAY) {
            key = new byte[64];
        }
    }

    /** @return whether the key encoded next is the one the following values belong to */
    boolean wantsKey() {
        return compress && (keyPerValue || keyLength < 0);
    }

    /** Records {@code src[from, from + n)} as the current key. */
    void recordKey(ByteBuf src, int from, int n) {
        src.getBytes(from, room(n), 0, n);
        keyLength = n;
    }

    /** Records the remaining bytes of {@code src} (its position unchanged) as the current key. */
    void recordKey(ByteBuffer src) {
        int n = src.remaining();
        src.get(src.position(), room(n), 0, n);
        keyLength = n;
    }

    private byte[] room(int n) {
        if (key.length < n) {
            key = new byte[Math.max(n, key.length * 2)];
        }
        return key;
    }

    /** @return this thread's scope */
    static PolicyScope current() {
        return CURRENT.get();
    }

    /** @return whether a compressing command is being encoded on this thread */
    static boolean compressing() {
        return CURRENT.get().compress;
    }
}
