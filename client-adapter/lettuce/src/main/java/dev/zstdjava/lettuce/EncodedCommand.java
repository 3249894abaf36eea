package dev.zstdjava.lettuce;

import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.CommandWrapper;
import io.lettuce.core.protocol.DemandAware;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;

import java.util.Arrays;

/**
 * The command {@link CommandGate} sends in place of one whose values it compresses and whose reply carries no value
 * (a {@code SET}, an {@code MSET}, a queued command of a transaction): compression on the dispatching thread.
 * The constructor encodes the whole command, its values compressed, when it is dispatched, into a heap array this
 * object keeps; {@link #encode} writes those bytes, so every write of the command (the first, a cluster
 * {@code MOVED}/{@code ASK} retry, a replay after a reconnect) sends the same bytes, compressed once, and no pooled or
 * freed memory is referenced after dispatch.
 *
 * <p>While it encodes, {@link PolicyScope} also tells an adaptive {@link CompressingCodec} which key the values belong
 * to: the key just before each value for {@code MSET} and {@code MSETNX}, the command's first key for every other
 * command (a hash write's values are its hash's, not its fields').
 *
 * <p>It is not a future: completion, cancellation and timeouts pass to the wrapped command ({@link CommandWrapper}),
 * which is the future the API hands out. Allocates nothing after construction; a command larger than
 * the arrays {@link EncodeBuffers} keeps holds the array it was encoded into (no copy: a large value is in memory once
 * more, compressed, not twice). Thread-safe.
 */
final class EncodedCommand<K, V, T> extends CommandWrapper<K, V, T> implements DemandAware.Sink {
    /** Initial capacity of the buffer a command is encoded into ({@link EncodeBuffers}; it grows as needed). */
    private static final int ENCODE_INITIAL = 512;

    /** the command's bytes: {@code encoded[0, length)} */
    private final byte[] encoded;
    private final int length;

    /**
     * Encodes {@code command} on the calling thread with its value arguments compressed ({@link PolicyScope}), as
     * Lettuce would on the event loop, and keeps the bytes.
     * @param command the dispatched command
     * @throws RuntimeException what encoding it threw (its codec's, or a value's compression)
     */
    EncodedCommand(RedisCommand<K, V, T> command) {
        super(command);
        PolicyScope scope = PolicyScope.current();
        boolean before = scope.compress;
        EncodeBuffers.Spares outer = scope.spares;
        EncodeBuffers.Spares spares = outer != null ? outer : EncodeBuffers.acquire();
        scope.spares = spares;
        ByteBuf buf = EncodeBuffers.ALLOCATOR.heapBuffer(ENCODE_INITIAL);
        scope.compress = true;
        scope.startKeys(keyPerValue(command));
        try {
            command.encode(buf);
            int from = buf.arrayOffset() + buf.readerIndex();
            int n = buf.readableBytes();
            byte[] array = buf.array();
            if (from == 0 && EncodeBuffers.keepsAsIs(array.length, n)) {
                encoded = array; // a large command's array is never reused (released below, it is dropped)
            } else {
                encoded = Arrays.copyOfRange(array, from, from + n);
            }
            length = n;
        } finally {
            scope.compress = before;
            scope.endKeys();
            buf.release();
            scope.spares = outer;
            if (outer == null) {
                EncodeBuffers.release(spares);
            }
        }
    }

    // MSET and MSETNX: each value is the key's just before it; every other command's values are its first key's.
    private static boolean keyPerValue(RedisCommand<?, ?, ?> command) {
        CommandType t = CommandGate.Table.commandType(command.getType());
        return t == CommandType.MSET || t == CommandType.MSETNX;
    }

    /**
     * Encodes {@code command} on the calling thread with its value arguments compressed.
     * @return the command's bytes, a new array
     */
    static byte[] encodeOnThisThread(RedisCommand<?, ?, ?> command) {
        EncodedCommand<?, ?, ?> c = new EncodedCommand<>(command);
        return c.encoded.length == c.length ? c.encoded : Arrays.copyOf(c.encoded, c.length);
    }

    @Override
    public void encode(ByteBuf buf) {
        buf.writeBytes(encoded, 0, length);
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
