package dev.zstdjava.lettuce;

import io.netty.util.concurrent.FastThreadLocal;

/**
 * Per-thread state of the policy: the flag that turns compression on in {@link CompressingCodec} while a command the
 * policy compresses is being encoded ({@link EncodedCommand#encodeOnThisThread}, on the dispatching thread), and the
 * arrays that encoding borrows ({@link EncodeBuffers}).
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

    private PolicyScope() {}

    /** @return this thread's scope */
    static PolicyScope current() {
        return CURRENT.get();
    }

    /** @return whether a compressing command is being encoded on this thread */
    static boolean compressing() {
        return CURRENT.get().compress;
    }
}
