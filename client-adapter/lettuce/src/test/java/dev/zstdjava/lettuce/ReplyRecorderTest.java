package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.Allocations;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionConfig;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The output a compressing connection's reply is read into on the event loop ({@link ReplyRecorder}), without a
 * server: the test plays Lettuce's decoder, calling the output's callbacks as the loop would (off the loop here, so
 * the stage never lets it decode a compressed value itself), and then replays the recording as a decoding thread
 * would.
 */
class ReplyRecorderTest {
    static final String A = "A" + TestValues.json(1500);
    static final String B = "B" + TestValues.json(1800);

    final ReplyDecoders decoders = new ReplyDecoders(1);
    final CompressingCodec<String, String> codec = CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults());

    @AfterEach
    void stop() {
        decoders.shutdown();
    }

    /** A real output that writes down every callback it gets, values decoded by the command's codec. */
    static final class Log extends CommandOutput<String, String, String> {
        final List<String> calls = new ArrayList<>();

        Log(CompressingCodec<String, String> codec) {
            super(codec, null);
        }

        private String text(ByteBuffer b) {
            return b == null ? "null" : codec.decodeValue(b);
        }

        @Override public void set(ByteBuffer bytes) { calls.add("set " + text(bytes)); }
        @Override public void setSingle(ByteBuffer bytes) { calls.add("single " + StandardCharsets.UTF_8.decode(bytes)); }
        @Override public void setBigNumber(ByteBuffer bytes) { calls.add("big " + StandardCharsets.UTF_8.decode(bytes)); }
        @Override public void setError(ByteBuffer error) { calls.add("error " + StandardCharsets.UTF_8.decode(error)); }
        @Override public void set(long integer) { calls.add("long " + integer); }
        @Override public void set(double number) { calls.add("double " + number); }
        @Override public void set(boolean value) { calls.add("boolean " + value); }
        @Override public void multi(int count) { calls.add("multi " + count); }
        @Override public void multiArray(int count) { calls.add("array " + count); }
        @Override public void multiPush(int count) { calls.add("push " + count); }
        @Override public void multiMap(int count) { calls.add("map " + count); }
        @Override public void multiSet(int count) { calls.add("set-of " + count); }
        @Override public void complete(int depth) { calls.add("complete " + depth); }
    }

    final OrderedReplies stage = (OrderedReplies) OrderedReplies.writer(null, codec, List.of(), decoders);

    ReplyRecorder<String, String, String> recorder(CommandOutput<String, String, String> output) {
        Command<String, String, String> c = new Command<>(CommandType.EXEC, output, new CommandArgs<>(codec));
        return new ReplyRecorder<>(codec, new AsyncCommand<>(c), codec.compressor().config().legacyFormats(), false,
                stage);
    }

    ByteBuffer stored(String value) {
        return ByteBuffer.wrap(codec.compressor().compress(value.getBytes(StandardCharsets.UTF_8)));
    }

    static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void callbacksBeforeTheFirstCompressedValuePassAtOnceAndTheRestReplayInOrderWithValuesDecompressed() {
        Log log = new Log(codec);
        ReplyRecorder<String, String, String> out = recorder(log);

        out.multi(12);
        out.set(ascii("plain"));
        ByteBuffer a = stored(A);
        out.set(a); // looks compressed: from here on the callbacks are recorded
        a.put(0, (byte) 0); // the decoder's buffer is reused after the call: the recording kept its own copy
        out.set(7L);
        out.set(1.5);
        out.set(true);
        out.multiArray(2);
        out.set(stored(B));
        out.set((ByteBuffer) null);
        out.complete(2);
        out.setError(ascii("ERR no such key"));
        out.setSingle(ascii("OK"));
        out.setBigNumber(ascii("12345678901234567890"));
        out.multiMap(1);
        out.set(ascii("field"));
        out.set(-3L);
        out.complete(2);
        out.multiSet(1);
        out.multiPush(0);
        out.complete(1);
        out.complete(0);

        assertEquals(List.of("multi 12", "set plain"), log.calls, "only the callbacks before the first compressed value");
        assertTrue(out.recording());

        assertNull(out.replay());
        assertEquals(List.of("multi 12", "set plain", "set " + A, "long 7", "double 1.5", "boolean true", "array 2",
                "set " + B, "set null", "complete 2", "error ERR no such key", "single OK",
                "big 12345678901234567890", "map 1", "set field", "long -3", "complete 2", "set-of 1", "push 0",
                "complete 1", "complete 0"), log.calls);
        assertFalse(out.recording(), "replayed and forgotten");
        assertNull(out.replay());
        assertEquals(21, log.calls.size(), "a second replay plays nothing");
    }

    @Test
    void aRedirectClearingTheOutputDropsWhatWasRecorded() {
        Log log = new Log(codec);
        ReplyRecorder<String, String, String> out = recorder(log);
        out.set(stored(A));
        out.complete(0);
        out.setError((String) null);
        assertFalse(out.recording());
        out.set(stored(B));
        out.complete(0);
        assertNull(out.replay());
        assertEquals(List.of("set " + B, "complete 0"), log.calls);
    }

    @Test
    void recordingAOneValueReplyAllocatesOnlyTheCopyOfItsBytes() {
        Log log = new Log(codec);
        ReplyRecorder<String, String, String> out = recorder(log);
        ByteBuffer value = stored(A);
        int n = value.remaining();
        long perReply = Allocations.bytesPerCall(20_000, () -> {
            out.set(value); // the event loop's part of a GET reply
            out.complete(0);
            out.setError((String) null); // drops the recording: ready for the next round
            return 0;
        });
        long copy = (16 + n + 7) & ~7L; // a byte[] of n bytes
        assertTrue(perReply <= copy + 16, "heap bytes per recorded one-value reply: " + perReply + ", the copy of its "
                + n + " bytes takes " + copy);
        assertTrue(perReply >= copy, "the copy was made: " + perReply);
    }
}
