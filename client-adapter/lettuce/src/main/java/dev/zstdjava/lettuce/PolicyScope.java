package dev.zstdjava.lettuce;

import io.netty.util.concurrent.FastThreadLocal;

/**
 * The per-thread flag that turns compression on in {@link CompressingCodec} while a command the policy compresses is
 * being encoded ({@link PolicyCommand#encode}). Lettuce encodes commands on the connection's event-loop thread (a
 * Netty {@code FastThreadLocalThread}), where reading the flag is an indexed load.
 *
 * <p>Confined to one thread by construction; never allocates after the thread's first use.
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
