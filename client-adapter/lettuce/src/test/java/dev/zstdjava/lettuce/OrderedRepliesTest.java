package dev.zstdjava.lettuce;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionConfig;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ConnectionFacade;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The ordering stage of a compressing connection ({@link OrderedReplies}) without a server: the test writes commands
 * through it, plays Lettuce's decoder on their outputs and completes them in reply order, as the event loop would
 * (off a loop here, so every compressed reply goes to the decoding threads), and runs the decoding tasks itself, in
 * the order it chooses.
 */
class OrderedRepliesTest {
    static final String BIG = TestValues.json(2000);

    static final int LIMIT = 64 * 1024;
    final CompressingCodec<String, String> codec = CompressingCodec.wrap(StringCodec.UTF8,
            CompressionConfig.builder().maxDecompressedSize(LIMIT).build());
    /** the decoding tasks handed over, run by the test */
    final List<Runnable> tasks = new ArrayList<>();
    /** what the endpoint was given */
    final List<RedisCommand<?, ?, ?>> written = new ArrayList<>();
    final OrderedReplies stage = (OrderedReplies) OrderedReplies.writer(new Endpoint(), codec, List.of(), tasks::add);
    final List<String> completions = new CopyOnWriteArrayList<>();

    AsyncCommand<String, String, String> get(String name) {
        AsyncCommand<String, String, String> c = new AsyncCommand<>(new Command<>(CommandType.GET,
                new ValueOutput<>(codec), new CommandArgs<>(codec).addKey(name)));
        c.whenComplete((v, e) -> completions.add(name + (e != null ? " failed " + e.getClass().getSimpleName()
                : " " + (BIG.equals(v) ? "BIG" : v)) + " on " + Thread.currentThread().getName()));
        assertSame(c, stage.write(c), "the caller keeps the command it sent");
        return c;
    }

    AsyncCommand<String, String, String> del(String name) {
        AsyncCommand<String, String, String> c = new AsyncCommand<>(new Command<>(CommandType.DEL,
                new StatusOutput<>(codec), new CommandArgs<>(codec).addKey(name)));
        c.whenComplete((v, e) -> completions.add(name + " " + v + " on " + Thread.currentThread().getName()));
        stage.write(c);
        return c;
    }

    // The event loop's part of a reply: the decoder fills the written command's output, then completes it.
    @SuppressWarnings("unchecked")
    void reply(int index, ByteBuffer value) {
        RedisCommand<String, String, ?> w = (RedisCommand<String, String, ?>) written.get(index);
        w.getOutput().set(value);
        w.complete();
    }

    ByteBuffer compressed() {
        return ByteBuffer.wrap(codec.compressor().compress(BIG.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void repliesDecodedOutOfOrderCompleteInReplyOrder() throws Exception {
        get("a");
        get("b");
        del("c");
        reply(0, compressed());
        reply(1, compressed());
        reply(2, ByteBuffer.wrap("OK".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(2, tasks.size(), "the two compressed replies go to the decoding threads");
        assertEquals(List.of(), completions, "nothing completes before the first reply is decoded");

        Thread second = new Thread(tasks.get(1), "decoder-2");
        second.start();
        second.join();
        assertEquals(List.of(), completions, "b is decoded, but a is not: b and c wait");

        Thread first = new Thread(tasks.get(0), "decoder-1");
        first.start();
        first.join();
        assertEquals(List.of("a BIG on decoder-1", "b BIG on decoder-1", "c OK on decoder-1"), completions,
                "the thread that decoded the oldest reply completes the ready ones in reply order");
    }

    @Test
    void aReplyWithNothingPendingCompletesOnTheLoopAtOnce() {
        del("x");
        reply(0, ByteBuffer.wrap("OK".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(List.of("x OK on " + Thread.currentThread().getName()), completions);
        assertTrue(tasks.isEmpty());
    }

    @Test
    void aFailureCompletesAtOnceAndItsLateReplyCompletesNothing() throws Exception {
        AsyncCommand<String, String, String> a = get("a");
        AsyncCommand<String, String, String> b = get("b");
        reply(0, compressed());
        // a timeout while the first reply is still being decoded: b fails at once, as in Lettuce
        written.get(1).completeExceptionally(new TimeoutException("timed out"));
        assertTrue(b.isCompletedExceptionally());
        assertFalse(a.isDone());
        reply(1, compressed()); // its reply arrives late: nothing to complete, nothing queued
        assertEquals(1, tasks.size());
        tasks.get(0).run();
        assertEquals(BIG, a.get());
        assertEquals(2, completions.size(), "each command completed once: " + completions);
    }

    @Test
    void aValueThatCannotBeDecodedFailsItsCommandInItsTurn() throws Exception {
        AsyncCommand<String, String, String> a = get("a");
        AsyncCommand<String, String, String> b = get("b");
        // a stored value the connection's limit refuses to decompress
        CompressingCodec<String, String> bigger = CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults());
        String huge = TestValues.json(LIMIT * 2);
        reply(0, ByteBuffer.wrap(bigger.compressor().compress(huge.getBytes(StandardCharsets.UTF_8))));
        reply(1, compressed());
        tasks.get(1).run();
        assertFalse(b.isDone(), "b waits for a");
        tasks.get(0).run();
        CompletableFuture<String> f = a.toCompletableFuture();
        assertTrue(f.isCompletedExceptionally(), "a fails with what decoding threw");
        assertInstanceOf(DecompressionLimitException.class, assertThrows(Exception.class, f::join).getCause());
        assertEquals(BIG, b.get());
        assertTrue(completions.get(0).startsWith("a failed"), completions::toString);
    }

    @Test
    void aPassOfTheLoopDecodesItsFirstReplyAndHandsTheRestOverAsOneTask() throws Exception {
        io.netty.channel.DefaultEventLoop loop = new io.netty.channel.DefaultEventLoop();
        try {
            List<AsyncCommand<String, String, String>> gets = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                gets.add(get("k" + i));
            }
            String loopThread = loop.submit(() -> {
                for (int i = 0; i < 20; i++) {
                    reply(i, compressed());
                }
                return Thread.currentThread().getName();
            }).get(10, java.util.concurrent.TimeUnit.SECONDS);
            loop.submit(() -> { }).get(10, java.util.concurrent.TimeUnit.SECONDS); // the pass's hand-over has run
            assertEquals(List.of("k0 BIG on " + loopThread), completions,
                    "the first reply of the pass is decoded and completed on the loop, as Lettuce would");
            assertEquals(1, tasks.size(), "the other 19 go to the decoding threads as one task (one thread here)");
            Thread decoder = new Thread(tasks.get(0), "decoder");
            decoder.start();
            decoder.join();
            List<String> expected = new ArrayList<>();
            expected.add("k0 BIG on " + loopThread);
            for (int i = 1; i < 20; i++) {
                expected.add("k" + i + " BIG on decoder");
            }
            assertEquals(expected, completions, "completed in reply order by the thread that decoded them");
        } finally {
            loop.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void aCompletionHookThatThrowsAnErrorDoesNotHoldBackTheLaterReplies() throws Exception {
        // a hook that completes with the command and then throws, as a command listener's wrapper would
        AsyncCommand<String, String, String> a = new AsyncCommand<>(new Command<>(CommandType.GET,
                new ValueOutput<>(codec), new CommandArgs<>(codec).addKey("a")));
        stage.write(new io.lettuce.core.protocol.CommandWrapper<>(a) {
            @Override
            public void complete() {
                super.complete();
                throw new AssertionError("a hook that throws");
            }
        });
        AsyncCommand<String, String, String> b = get("b");
        reply(0, compressed());
        reply(1, compressed());
        tasks.get(1).run();
        tasks.get(0).run();
        assertEquals(BIG, a.get());
        assertTrue(b.isDone(), "the reply behind the one whose hook threw completes too");
        assertEquals(BIG, b.get());
    }

    /** Lettuce's endpoint, as far as the stage sees it: it keeps what it is given. */
    final class Endpoint implements RedisChannelWriter {
        @Override
        public <K, V, T> RedisCommand<K, V, T> write(RedisCommand<K, V, T> command) {
            written.add(command);
            return command;
        }

        @Override
        public <K, V> Collection<RedisCommand<K, V, ?>> write(Collection<? extends RedisCommand<K, V, ?>> commands) {
            written.addAll(commands);
            return new ArrayList<>(commands);
        }

        @Override
        public void close() {
        }

        @Override
        public CompletableFuture<Void> closeAsync() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void setConnectionFacade(ConnectionFacade connection) {
        }

        @Override
        public void setAutoFlushCommands(boolean autoFlush) {
        }

        @Override
        public void flushCommands() {
        }

        @Override
        public ClientResources getClientResources() {
            return null;
        }
    }
}
