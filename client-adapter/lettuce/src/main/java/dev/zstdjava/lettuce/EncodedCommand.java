package dev.zstdjava.lettuce;

import io.lettuce.core.protocol.CommandWrapper;
import io.lettuce.core.protocol.DemandAware;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;

import java.util.Arrays;

/**
 * The command {@link CommandGate} sends in place of one whose values it compresses and whose reply carries no value
 * (a {@code SET}, an {@code MSET}, a queued command of a transaction): compression on the dispatching thread.
 * {@link #encodeOnThisThread} encodes the whole command, its values compressed, when it is dispatched, into a heap
 * array this object keeps; {@link #encode} writes those bytes, so every write of the command (the first, a cluster
 * {@code MOVED}/{@code ASK} retry, a replay after a reconnect) sends the same bytes, compressed once, and no pooled or
 * freed memory is referenced after dispatch.
 *
 * <p>It is not a future: completion, cancellation and timeouts pass to the wrapped command ({@link CommandWrapper}),
 * which is the future the API hands out. Allocates nothing after construction. Thread-safe.
 */
final class EncodedCommand<K, V, T> extends CommandWrapper<K, V, T> implements DemandAware.Sink {
    /** Initial capacity of the buffer a command is encoded into ({@link EncodeBuffers}; it grows as needed). */
    private static final int ENCODE_INITIAL = 512;

    private final byte[] encoded;

    /**
     * @param command the dispatched command
     * @param encoded its bytes, from {@link #encodeOnThisThread}
     */
    EncodedCommand(RedisCommand<K, V, T> command, byte[] encoded) {
        super(command);
        this.encoded = encoded;
    }

    /**
     * Encodes {@code command} on the calling thread with its value arguments compressed ({@link PolicyScope}), as
     * Lettuce would on the event loop.
     * @return the command's bytes, a new array
     */
    static byte[] encodeOnThisThread(RedisCommand<?, ?, ?> command) {
        PolicyScope scope = PolicyScope.current();
        boolean before = scope.compress;
        EncodeBuffers.Spares outer = scope.spares;
        EncodeBuffers.Spares spares = outer != null ? outer : EncodeBuffers.acquire();
        scope.spares = spares;
        ByteBuf buf = EncodeBuffers.ALLOCATOR.heapBuffer(ENCODE_INITIAL);
        scope.compress = true;
        try {
            command.encode(buf);
            return Arrays.copyOfRange(buf.array(), buf.arrayOffset() + buf.readerIndex(),
                    buf.arrayOffset() + buf.writerIndex());
        } finally {
            scope.compress = before;
            buf.release();
            scope.spares = outer;
            if (outer == null) {
                EncodeBuffers.release(spares);
            }
        }
    }

    @Override
    public void encode(ByteBuf buf) {
        buf.writeBytes(encoded);
    }

    // ---------------------------------------------------------------------- reactive back-pressure, passed through

    @Override
    public boolean hasDemand() {
        return !(command instanceof DemandAware.Sink s) || s.hasDemand();
    }

    @Override
    public void setSource(DemandAware.Source source) {
        if (command instanceof DemandAware.Sink s) {
            s.setSource(source);
        }
    }

    @Override
    public void removeSource() {
        if (command instanceof DemandAware.Sink s) {
            s.removeSource();
        }
    }
}
