package dev.zstdjava.lettuce;

import io.netty.util.concurrent.FastThreadLocal;

import java.util.ArrayList;

/**
 * Per-thread state of the policy: the flag that turns compression on in {@link CompressingCodec} while a command the
 * policy compresses is being encoded ({@link EncodedCommand#encodeOnThisThread}, on the dispatching thread), and,
 * during a call of the sync API ({@link SyncCalls}), the commands it made whose replies this thread will decode.
 *
 * <p>Confined to one thread by construction; allocates nothing after the thread's first use, except a list when one
 * sync call makes more than one command that may carry values (a cluster's multi-slot command), and a holder when sync
 * calls nest.
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
    /** whether a sync call is running on this thread */
    private boolean syncCall;
    /** the first command of the running sync call that announced this thread as its waiter, and the others */
    private PolicyCommand<?, ?, ?> first;
    private ArrayList<PolicyCommand<?, ?, ?>> more;

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

    /** @return whether a sync call is running on this thread: its commands' replies are left to this thread */
    boolean syncCall() {
        return syncCall;
    }

    /** Notes a command made by the running sync call, which announced this thread as its waiter. */
    void announced(PolicyCommand<?, ?, ?> command) {
        if (first == null) {
            first = command;
        } else {
            if (more == null) {
                more = new ArrayList<>(4);
            }
            more.add(command);
        }
    }

    /** Starts a sync call; @return what {@link #endSyncCall} restores (null unless calls nest) */
    Object beginSyncCall() {
        Object saved = null;
        if (syncCall) {
            saved = new Object[] {first, more};
        }
        syncCall = true;
        first = null;
        more = null;
        return saved;
    }

    /**
     * Ends a sync call once it has dispatched its commands: every command it made except {@code awaited} is released
     * to the executor (nobody will wait for it on this thread).
     */
    @SuppressWarnings("unchecked")
    void endSyncCall(Object saved, Object awaited) {
        if (first != null && first != awaited) {
            first.release();
        }
        if (more != null) {
            for (PolicyCommand<?, ?, ?> c : more) {
                if (c != awaited) {
                    c.release();
                }
            }
        }
        if (saved == null) {
            syncCall = false;
            first = null;
            more = null;
        } else {
            Object[] s = (Object[]) saved;
            first = (PolicyCommand<?, ?, ?>) s[0];
            more = (ArrayList<PolicyCommand<?, ?, ?>>) s[1];
        }
    }
}
