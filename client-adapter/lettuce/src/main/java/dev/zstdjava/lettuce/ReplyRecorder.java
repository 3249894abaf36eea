package dev.zstdjava.lettuce;

import dev.zstdjava.values.LegacyFormat;
import dev.zstdjava.values.StoredForm;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.RedisCommand;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Set;

/**
 * The output Lettuce's decoder fills for an {@link OrderedReplies} command whose reply may carry compressed values. On the
 * event loop it passes every callback straight to the command's real output until a bulk value looks compressed
 * ({@link StoredForm#mayBeCoded}) and the stage does not let the loop decode it ({@link OrderedReplies#decodeHere});
 * from there on it records the callbacks in order, copying each bulk value
 * once (the buffer the decoder hands over is valid only during the call), and {@link #replay()} later plays them
 * into the real output on the thread that decodes: so decompression, and every decoding after it, leaves the loop,
 * while a reply without a compressed value is decoded as before, with no copy. An output that signals the application
 * as it decodes (a reactive subscriber, a streaming channel, an output that is not Lettuce's) is recorded from its first callback when an earlier reply
 * of the connection is still pending ({@link OrderedReplies#earlierPending}), and replayed when its turn comes.
 *
 * <p>Errors and the result are the real output's: {@link #getError()}, {@link #hasError()} and {@link #get()} read
 * it, so Lettuce's redirect detection and protected-mode check see a top-level error at once. {@code setError(null)}
 * (a cluster redirect clearing the output before the retry) drops whatever was recorded.
 *
 * <p>Not thread-safe: written by the event loop, then replayed by one thread after a hand-off that orders the two
 * ({@link OrderedReplies}' queue). Allocates only when it records: the copied values, and for a reply of more than
 * one value two small arrays.
 */
final class ReplyRecorder<K, V, T> extends CommandOutput<K, V, T> {
    private static final int SET_BYTES = 1;
    private static final int SET_SINGLE = 2;
    private static final int SET_BIG_NUMBER = 3;
    private static final int SET_ERROR = 4;
    private static final int SET_LONG = 5;
    private static final int SET_DOUBLE = 6;
    private static final int SET_BOOLEAN = 7;
    private static final int MULTI = 8;
    private static final int MULTI_ARRAY = 9;
    private static final int MULTI_PUSH = 10;
    private static final int MULTI_MAP = 11;
    private static final int MULTI_SET = 12;
    private static final int COMPLETE = 13;

    private final RedisCommand<K, V, T> command;
    private final Set<LegacyFormat> legacy;
    /*
     * The recorded callbacks, each a long: the operation in the low byte, an int argument above it; set(long) and
     * set(double) take two. The first two are held in fields and the rest in an array, so that a single value's reply
     * (a bulk, then the end of the reply) allocates nothing but the copy of its bytes.
     */
    private long event0;
    private long event1;
    private long[] moreEvents;
    private int eventCount;
    /** the copied bulk values and errors of the recorded callbacks, in order (null for a null bulk): the first here */
    private byte[] payload0;
    private byte[][] morePayloads;
    private int payloadCount;
    private boolean recording;
    /** whether the real output signals the application as it decodes (a reactive subscriber, a streaming channel) */
    private final boolean signals;
    /** whether a signalling output's reply has had its first callback, which decides whether it is held back */
    private boolean started;

    private final OrderedReplies stage;

    /**
     * @param signals whether the command's output signals the application as it decodes: its reply is then recorded
     *                whole when an earlier reply of the connection is still pending, and {@link OrderedReplies}
     *                replays it in reply order
     */
    ReplyRecorder(RedisCodec<K, V> codec, RedisCommand<K, V, T> command, Set<LegacyFormat> legacy, boolean signals,
                  OrderedReplies stage) {
        super(codec, null);
        this.command = command;
        this.legacy = legacy;
        this.signals = signals;
        this.stage = stage;
    }

    /** @return whether the real output signals the application as it decodes, so that it is replayed in order */
    boolean signals() {
        return signals;
    }

    // At a callback of the reply (a top-level error aside: it signals nothing): whether it is recorded. A signalling
    // output's reply is recorded whole when, at its first callback, an earlier reply is still pending: its elements
    // must not reach the application before the earlier replies complete (Lettuce signals in reply order).
    private boolean records() {
        if (recording) {
            return true;
        }
        if (signals && !started) {
            started = true;
            recording = stage.earlierPending();
        }
        return recording;
    }

    /** @return whether callbacks were recorded, so that the command must be finished by {@link #replay()} */
    boolean recording() {
        return recording;
    }

    private CommandOutput<K, V, T> target() {
        return command.getOutput();
    }

    /**
     * Plays the recorded callbacks into the real output, in order, and forgets them. A callback that throws (a value
     * over the decompression limit, say) does not stop the others, as with Lettuce's own decoder.
     * @return the first exception a callback threw, or null
     */
    Throwable replay() {
        CommandOutput<K, V, T> out = target();
        Throwable failure = null;
        int p = 0;
        for (int i = 0; i < eventCount; i++) {
            long e = eventAt(i);
            int op = (int) (e & 0xff);
            int arg = (int) (e >> 8);
            try {
                switch (op) {
                    case SET_BYTES -> out.set(wrap(payloadAt(p++)));
                    case SET_SINGLE -> out.setSingle(wrap(payloadAt(p++)));
                    case SET_BIG_NUMBER -> out.setBigNumber(wrap(payloadAt(p++)));
                    case SET_ERROR -> out.setError(wrap(payloadAt(p++)));
                    case SET_LONG -> out.set(eventAt(++i));
                    case SET_DOUBLE -> out.set(Double.longBitsToDouble(eventAt(++i)));
                    case SET_BOOLEAN -> out.set(arg != 0);
                    case MULTI -> out.multi(arg);
                    case MULTI_ARRAY -> out.multiArray(arg);
                    case MULTI_PUSH -> out.multiPush(arg);
                    case MULTI_MAP -> out.multiMap(arg);
                    case MULTI_SET -> out.multiSet(arg);
                    case COMPLETE -> out.complete(arg);
                    default -> throw new IllegalStateException("unknown recorded callback " + op);
                }
            } catch (Throwable t) {
                if (failure == null) {
                    failure = t;
                }
            }
        }
        clear();
        return failure;
    }

    private void clear() {
        moreEvents = null;
        payload0 = null;
        morePayloads = null;
        eventCount = 0;
        payloadCount = 0;
        recording = false;
        started = false;
    }

    private long eventAt(int i) {
        return i == 0 ? event0 : i == 1 ? event1 : moreEvents[i - 2];
    }

    private byte[] payloadAt(int p) {
        return p == 0 ? payload0 : morePayloads[p - 1];
    }

    private static ByteBuffer wrap(byte[] payload) {
        return payload == null ? null : ByteBuffer.wrap(payload);
    }

    private void event(long e) {
        int i = eventCount++;
        if (i == 0) {
            event0 = e;
        } else if (i == 1) {
            event1 = e;
        } else {
            int j = i - 2;
            if (moreEvents == null) {
                moreEvents = new long[8];
            } else if (j == moreEvents.length) {
                moreEvents = Arrays.copyOf(moreEvents, j * 2);
            }
            moreEvents[j] = e;
        }
    }

    private void event(int op, int arg) {
        event(((long) arg << 8) | op);
    }

    private void event(int op, long value) {
        event(op, 0);
        event(value);
    }

    private void payload(int op, ByteBuffer bytes) {
        event(op, 0);
        byte[] copy = null;
        if (bytes != null) {
            copy = new byte[bytes.remaining()];
            bytes.get(bytes.position(), copy);
        }
        int p = payloadCount++;
        if (p == 0) {
            payload0 = copy;
            return;
        }
        int j = p - 1;
        if (morePayloads == null) {
            morePayloads = new byte[4][];
        } else if (j == morePayloads.length) {
            morePayloads = Arrays.copyOf(morePayloads, j * 2);
        }
        morePayloads[j] = copy;
    }

    // ------------------------------------------------------------------ callbacks of Lettuce's decoder, on the loop

    @Override
    public void set(ByteBuffer bytes) {
        if (!records()) {
            if (bytes == null || !StoredForm.mayBeCoded(bytes, legacy) || stage.decodeHere()) {
                target().set(bytes);
                return;
            }
            recording = true;
        }
        payload(SET_BYTES, bytes);
    }

    @Override
    public void setSingle(ByteBuffer bytes) {
        if (records()) {
            payload(SET_SINGLE, bytes);
        } else {
            target().setSingle(bytes);
        }
    }

    @Override
    public void setBigNumber(ByteBuffer bytes) {
        if (records()) {
            payload(SET_BIG_NUMBER, bytes);
        } else {
            target().setBigNumber(bytes);
        }
    }

    @Override
    public void setError(ByteBuffer error) {
        if (recording) {
            payload(SET_ERROR, error);
        } else {
            target().setError(error);
        }
    }

    @Override
    public void setError(String error) {
        if (error == null) {
            clear(); // a redirect clears the output before the command is sent again
        }
        target().setError(error);
    }

    @Override
    public void set(long integer) {
        if (records()) {
            event(SET_LONG, integer);
        } else {
            target().set(integer);
        }
    }

    @Override
    public void set(double number) {
        if (records()) {
            event(SET_DOUBLE, Double.doubleToRawLongBits(number));
        } else {
            target().set(number);
        }
    }

    @Override
    public void set(boolean value) {
        if (records()) {
            event(SET_BOOLEAN, value ? 1 : 0);
        } else {
            target().set(value);
        }
    }

    @Override
    public void multi(int count) {
        if (records()) {
            event(MULTI, count);
        } else {
            target().multi(count);
        }
    }

    @Override
    public void multiArray(int count) {
        if (records()) {
            event(MULTI_ARRAY, count);
        } else {
            target().multiArray(count);
        }
    }

    @Override
    public void multiPush(int count) {
        if (records()) {
            event(MULTI_PUSH, count);
        } else {
            target().multiPush(count);
        }
    }

    @Override
    public void multiMap(int count) {
        if (records()) {
            event(MULTI_MAP, count);
        } else {
            target().multiMap(count);
        }
    }

    @Override
    public void multiSet(int count) {
        if (records()) {
            event(MULTI_SET, count);
        } else {
            target().multiSet(count);
        }
    }

    @Override
    public void complete(int depth) {
        if (records()) {
            event(COMPLETE, depth);
        } else {
            target().complete(depth);
        }
    }

    // ------------------------------------------------------------------------------------ the real output's state

    @Override
    public T get() {
        return target().get();
    }

    @Override
    public boolean hasError() {
        return target().hasError();
    }

    @Override
    public String getError() {
        return target().getError();
    }

    @Override
    public String toString() {
        return "ReplyRecorder [recording=" + recording + ", events=" + eventCount + ", output=" + target() + ']';
    }
}
