package dev.zstdjava.lettuce;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionConfig;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.codec.ToByteBufEncoder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Compression on the dispatching thread, decoding by the client, on a real server: a codec that records the
 * threads its values are encoded and decoded on sees every compressed value encoded on the thread that dispatched its
 * command, never on the loop, and every reply decoded on the event loop or on the client's decoding threads
 * ({@code zstd-java-decode-*}), never on an application thread; a command written twice (a replay after a reconnect) sends the bytes compressed
 * once; timeouts, cancellation and failures leave no future pending and the connection usable.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class WorkThreadsTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer(CompressingRedisClient::create);

    /** A compressible value of 2000 characters: only such values are recorded (every one of them is compressed). */
    static final String BIG = TestValues.json(2000);
    static final int RECORDED = 1000;

    /** Where a value was encoded or decoded. */
    record Use(String what, String value, Thread thread) {
        boolean onEventLoop() {
            return eventLoop(thread);
        }

        boolean onTheClientsThreads() {
            return eventLoop(thread) || thread.getName().startsWith("zstd-java-decode-");
        }
    }

    // Lettuce's I/O threads are named ...nioEventLoop... / ...epollEventLoop... / ...kqueueEventLoop...
    static boolean eventLoop(Thread t) {
        return t.getName().contains("EventLoop");
    }

    /** StringCodec.UTF8 that records the thread of every big value it encodes or decodes; fails on "fail!". */
    static final class ThreadRecordingCodec implements RedisCodec<String, String>, ToByteBufEncoder<String, String> {
        final Queue<Use> uses = new ConcurrentLinkedQueue<>();

        @Override
        public String decodeKey(ByteBuffer bytes) {
            return StringCodec.UTF8.decodeKey(bytes);
        }

        @Override
        public String decodeValue(ByteBuffer bytes) {
            String v = StringCodec.UTF8.decodeValue(bytes);
            if (v != null && v.length() >= RECORDED) {
                uses.add(new Use("decode", v, Thread.currentThread()));
            }
            return v;
        }

        @Override
        public ByteBuffer encodeKey(String key) {
            return StringCodec.UTF8.encodeKey(key);
        }

        @Override
        public ByteBuffer encodeValue(String value) {
            check(value);
            return StringCodec.UTF8.encodeValue(value);
        }

        @Override
        public void encodeKey(String key, ByteBuf target) {
            StringCodec.UTF8.encodeKey(key, target);
        }

        @Override
        public void encodeValue(String value, ByteBuf target) {
            check(value);
            StringCodec.UTF8.encodeValue(value, target);
        }

        private void check(String value) {
            if ("fail!".equals(value)) {
                throw new IllegalArgumentException("this codec refuses the value fail!");
            }
            if (value != null && value.length() >= RECORDED) {
                uses.add(new Use("encode", value, Thread.currentThread()));
            }
        }

        @Override
        public int estimateSize(Object keyOrValue) {
            return StringCodec.UTF8.estimateSize(keyOrValue);
        }

        @Override
        public boolean isEstimateExact() {
            return StringCodec.UTF8.isEstimateExact();
        }

        List<Use> take() {
            List<Use> out = new ArrayList<>();
            for (Use u; (u = uses.poll()) != null; ) {
                out.add(u);
            }
            return out;
        }
    }

    ThreadRecordingCodec recorder;
    CompressingCodec<String, String> codec;

    @BeforeEach
    void codec() {
        recorder = new ThreadRecordingCodec();
        codec = CompressingCodec.wrap(recorder, CompressionConfig.defaults());
    }

    static String big(int i) {
        return i + BIG;
    }

    static boolean compressed(String key) {
        byte[] stored = redis.raw().sync().get(key.getBytes(StandardCharsets.UTF_8));
        return stored != null && stored.length < BIG.length() / 2 && stored[0] == 0 && stored[1] == 1;
    }

    // Every recorded use: encodings on application threads, decodings on the client's (loop or decoding threads);
    // returns them.
    List<Use> encodedOffDecodedByTheClient(int atLeast) {
        List<Use> uses = recorder.take();
        assertTrue(uses.size() >= atLeast, "expected at least " + atLeast + " recorded values, got " + uses);
        for (Use u : uses) {
            assertEquals(u.what.equals("decode"), u.onTheClientsThreads(), () -> u.what + " on " + u.thread);
        }
        return uses;
    }

    // The encodings among uses, each on thread.
    static void encodedOn(Thread thread, List<Use> uses) {
        for (Use u : uses) {
            if (u.what.equals("encode")) {
                assertSame(thread, u.thread, () -> "encoded on " + u.thread);
            }
        }
    }

    @Test
    void syncCallersCompressTheirOwnValuesTheClientDecodes() {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec)) {
            RedisCommands<String, String> sync = c.sync();
            Thread me = Thread.currentThread();
            for (int i = 0; i < 50; i++) {
                assertEquals("OK", sync.set("k" + i, big(i)));
                assertEquals(big(i), sync.get("k" + i));
                assertEquals(big(i), sync.setGet("k" + i, big(i + 1)));
                assertEquals(big(i + 1), sync.getdel("k" + i));
            }
            sync.mset(Map.of("a", big(1), "b", big(2), "c", "small"));
            assertEquals(List.of(KeyValue.just("a", big(1)), KeyValue.just("b", big(2)), KeyValue.just("c", "small")),
                    sync.mget("a", "b", "c"));
            assertTrue(compressed("a"));
            encodedOn(me, encodedOffDecodedByTheClient(50 * 5 + 4));
            assertEquals(50 * 2 + 2, codec.compressor().stats().valuesCompressed());
        }
    }

    // Dispatches pipelines of 20 GETs of compressed values from a thread of the kind asked for until some reply was
    // decoded off the loop; returns the threads that decoded them off the loop.
    List<Thread> decodedOffTheLoop(boolean fromVirtual) throws Exception {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec)) {
            assertEquals("OK", c.sync().set("p", BIG));
            recorder.take();
            List<Thread> off = new ArrayList<>();
            for (int attempt = 0; attempt < 20 && off.isEmpty(); attempt++) {
                Runnable pipeline = () -> {
                    c.setAutoFlushCommands(false);
                    List<RedisFuture<String>> gets = new ArrayList<>();
                    for (int i = 0; i < 20; i++) {
                        gets.add(c.async().get("p"));
                    }
                    c.flushCommands();
                    c.setAutoFlushCommands(true);
                    for (RedisFuture<String> g : gets) {
                        try {
                            assertEquals(BIG, g.get(10, TimeUnit.SECONDS));
                        } catch (Exception e) {
                            throw new AssertionError(e);
                        }
                    }
                };
                Thread t = (fromVirtual ? Thread.ofVirtual() : Thread.ofPlatform()).start(pipeline);
                t.join(30_000);
                assertFalse(t.isAlive(), "the pipeline did not complete");
                for (Use u : encodedOffDecodedByTheClient(20)) {
                    if (u.what.equals("decode") && !u.onEventLoop()) {
                        off.add(u.thread);
                    }
                }
            }
            assertFalse(off.isEmpty(), "no reply of 20 pipelines of 20 was decoded off the loop");
            return off;
        }
    }

    @Test
    void fromJdk24AVirtualCallersRepliesAreDecodedOnVirtualThreadsAPlatformCallersOnPlatformThreads() throws Exception {
        boolean likeCaller = Runtime.version().feature() >= 24
                && System.getProperty(ReplyDecoders.THREADS_PROPERTY) == null;
        for (Thread t : decodedOffTheLoop(true)) {
            assertEquals(likeCaller, t.isVirtual(), () -> "a virtual caller's reply decoded on " + t);
        }
        for (Thread t : decodedOffTheLoop(false)) {
            assertFalse(t.isVirtual(), () -> "a platform caller's reply decoded on " + t);
        }
    }

    @Test
    void asyncAndReactiveCompressOnTheDispatchingThreadTheClientDecodes() throws Exception {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec)) {
            RedisAsyncCommands<String, String> async = c.async();
            Thread me = Thread.currentThread();
            assertEquals("OK", async.set("k", BIG).get(5, TimeUnit.SECONDS));
            List<Use> encoded = encodedOffDecodedByTheClient(1);
            assertSame(me, encoded.get(0).thread, "compressed on the dispatching thread");

            // consumed only through a dependent stage, or waited on: decoded by the client either way
            List<CompletableFuture<String>> stages = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                stages.add(async.get("k").toCompletableFuture().thenApply(v -> v));
            }
            for (CompletableFuture<String> s : stages) {
                assertEquals(BIG, s.get(5, TimeUnit.SECONDS));
            }
            encodedOffDecodedByTheClient(20);
            for (int i = 0; i < 20; i++) {
                assertEquals(BIG, async.get("k").get(5, TimeUnit.SECONDS));
                assertEquals(BIG, async.get("k").toCompletableFuture().join());
            }
            encodedOffDecodedByTheClient(40);

            // reactive: compressed on the subscribing thread, decoded by the client
            assertEquals("OK", c.reactive().set("r", BIG).block());
            assertSame(me, encodedOffDecodedByTheClient(1).get(0).thread);
            assertEquals(BIG, c.reactive().get("r").block());
            assertEquals(List.of(KeyValue.just("k", BIG), KeyValue.just("r", BIG)),
                    c.reactive().mget("k", "r").collectList().block());
            encodedOffDecodedByTheClient(3);
            assertTrue(compressed("r"));
        }
    }

    @Test
    void pipelinedAndTransactionalRepliesAreDecodedByTheClient() throws Exception {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec)) {
            RedisAsyncCommands<String, String> async = c.async();
            // pipelining with auto-flush off: nothing leaves before the flush, everything in dispatch order
            c.setAutoFlushCommands(false);
            List<RedisFuture<?>> futures = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                futures.add(async.set("p", big(i)));
                futures.add(async.get("p"));
            }
            assertFalse(futures.get(0).isDone());
            c.flushCommands();
            c.setAutoFlushCommands(true);
            for (int i = 0; i < 100; i++) {
                assertEquals("OK", futures.get(2 * i).get(5, TimeUnit.SECONDS));
                assertEquals(big(i), futures.get(2 * i + 1).get(5, TimeUnit.SECONDS), "each GET sees its SET");
            }
            encodedOffDecodedByTheClient(200);

            // MULTI/EXEC, async: the queued GETs' replies arrive in EXEC's and are decoded with it
            async.set("t", BIG).get();
            assertEquals("OK", async.multi().get());
            RedisFuture<String> get = async.get("t");
            RedisFuture<String> set = async.set("t2", big(2));
            RedisFuture<String> get2 = async.get("t2");
            TransactionResult tx = async.exec().get(5, TimeUnit.SECONDS);
            assertEquals(List.of(BIG, "OK", big(2)), tx.stream().toList());
            assertEquals(BIG, get.get(5, TimeUnit.SECONDS));
            assertEquals("OK", set.get(5, TimeUnit.SECONDS));
            assertEquals(big(2), get2.get(5, TimeUnit.SECONDS));
            // sync: queued commands return null
            RedisCommands<String, String> sync = c.sync();
            assertEquals("OK", sync.multi());
            assertNull(sync.get("t"));
            assertNull(sync.setGet("t", big(3)));
            TransactionResult tx2 = sync.exec();
            assertEquals(List.of(BIG, BIG), tx2.stream().toList());
            assertEquals(big(3), sync.get("t"));
            encodedOffDecodedByTheClient(8);
            // a refused command still discards the transaction
            assertEquals("OK", sync.multi());
            assertNull(sync.get("t"));
            assertNull(sync.append("t", "x"));
            assertThrows(CommandRefusedException.class, sync::exec);
            assertEquals(big(3), sync.get("t"));
        }
    }

    @Test
    void theEventLoopDecodesForAPlainClientTheControl() {
        // the recording codec alone on a plain RedisClient (which takes no CompressingCodec): Lettuce decodes on its
        // event loop
        redis.raw().sync().set("k".getBytes(StandardCharsets.UTF_8), BIG.getBytes(StandardCharsets.UTF_8));
        RedisClient plain = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> c = plain.connect(recorder)) {
            assertEquals(BIG, c.sync().get("k"));
            List<Use> uses = recorder.take();
            assertEquals(1, uses.size());
            assertTrue(uses.get(0).onEventLoop(), "the control decodes on " + uses.get(0).thread);
        } finally {
            plain.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    @Test
    void failuresOnEitherSideLeaveNoFuturePending() throws Exception {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec)) {
            // a value the codec refuses to encode fails on the caller's thread
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.sync().set("f", "fail!"));
            assertTrue(e.getMessage().contains("refuses"));
            RedisFuture<String> failed = c.async().set("f", "fail!");
            assertTrue(failed.isDone());
            ExecutionException ee = assertThrows(ExecutionException.class, failed::get);
            assertInstanceOf(IllegalArgumentException.class, ee.getCause());
            // ... and inside MULTI discards the transaction, as a refusal does
            assertEquals("OK", c.sync().multi());
            assertNull(c.sync().set("g", "x"));
            assertNull(c.sync().set("f", "fail!")); // queued calls of the sync API return null
            CommandRefusedException discarded = assertThrows(CommandRefusedException.class, () -> c.sync().exec());
            assertInstanceOf(IllegalArgumentException.class, discarded.getCause());
            assertNull(c.sync().get("g"));
            assertEquals(0, redis.raw().sync().exists("f".getBytes(StandardCharsets.UTF_8)));
            c.sync().set("ok", BIG);
            assertEquals(BIG, c.sync().get("ok"));
        }
        // a value over the decompression limit fails its command with that exception, on every API
        CompressingCodec<String, String> limited = CompressingCodec.wrap(recorder,
                CompressionConfig.builder().maxDecompressedSize(1000).build());
        try (StatefulRedisConnection<String, String> c = redis.client().connect(limited)) {
            // written by a connection without that limit (this one stores a value over its limit as it is)
            redis.raw().sync().set("big".getBytes(StandardCharsets.UTF_8),
                    codec.compressor().compress(BIG.getBytes(StandardCharsets.UTF_8)));
            assertInstanceOf(DecompressionLimitException.class, assertThrows(RuntimeException.class,
                    () -> c.sync().get("big")));
            ExecutionException ee = assertThrows(ExecutionException.class,
                    () -> c.async().get("big").get(5, TimeUnit.SECONDS));
            assertInstanceOf(DecompressionLimitException.class, ee.getCause());
            CompletableFuture<String> stage = c.async().get("big").toCompletableFuture().thenApply(v -> v);
            ee = assertThrows(ExecutionException.class, () -> stage.get(5, TimeUnit.SECONDS));
            assertInstanceOf(DecompressionLimitException.class, ee.getCause());
            assertEquals("OK", c.sync().set("small", "x"));
            assertEquals("x", c.sync().get("small"));
            // nothing lost: a value over the limit written through this connection is stored as it is
            assertEquals("OK", c.sync().set("over", BIG));
            assertEquals(BIG, c.sync().get("over"), "wrapped");
            assertEquals(BIG, new String(redis.raw().sync().get("over".getBytes(StandardCharsets.UTF_8)),
                    StandardCharsets.UTF_8), "unwrapped: stored as it is");
            assertEquals(1, limited.compressor().stats().skippedTooLarge());
        }
    }

    /**
     * Holds every write on {@code server} ({@code CLIENT PAUSE ... WRITE}, Redis 6.2 or newer, any Valkey), and the
     * commands behind a held write on its connection, until {@link #unpause}: for far longer than any test needs, so
     * that the pause never ends on its own while a slow machine runs the test. Only writes: a pause of every command
     * would hold the {@code CLIENT UNPAUSE} too. Call it inside the {@code try} whose {@code finally} calls
     * {@link #unpause}: a pause that was sent, whatever happens next, is ended there.
     */
    static void pauseWrites(RedisServer server) throws java.io.IOException {
        String reply = server.command("CLIENT PAUSE 120000 WRITE");
        assertTrue(reply.startsWith("+OK"), "CLIENT PAUSE ... WRITE (Redis 6.2 or newer, any Valkey): " + reply);
    }

    /** Ends {@link #pauseWrites}: the held commands run. */
    static void unpause(RedisServer server) throws java.io.IOException {
        String reply = server.command("CLIENT UNPAUSE");
        assertTrue(reply.startsWith("+OK"), "CLIENT UNPAUSE: " + reply);
    }

    @Test
    void timeoutsAndCancellationLeaveTheConnectionInStep() throws Exception {
        redis.raw().sync().set("k".getBytes(StandardCharsets.UTF_8), codec.compressor().compress(
                BIG.getBytes(StandardCharsets.UTF_8)));
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec)) {
            c.setTimeout(Duration.ofMillis(300));
            RedisFuture<String> cancelled;
            RedisFuture<String> kept;
            try {
                // the server holds the SET below, and the commands behind it on this connection, until the UNPAUSE
                pauseWrites(redis.server());
                // replies arrive after the caller gave up (sync) or cancelled (async); they are dropped, not mixed up
                assertThrows(RedisCommandTimeoutException.class, () -> c.sync().set("k2", big(2)));
                assertThrows(RedisCommandTimeoutException.class, () -> c.sync().get("k"));
                c.setTimeout(Duration.ofSeconds(5));
                cancelled = c.async().get("k");
                kept = c.async().get("k");
                assertTrue(cancelled.cancel(true));
                assertFalse(kept.isDone(), "answered while the server held the connection");
            } finally {
                unpause(redis.server());
            }
            assertEquals(BIG, kept.get(5, TimeUnit.SECONDS));
            assertTrue(cancelled.isCancelled());
            assertEquals(BIG, c.sync().get("k"));
            assertEquals(big(2), c.sync().get("k2"), "the timed-out SET was still sent, compressed once");
            assertEquals(2, codec.compressor().stats().valuesCompressed(), "the stored value above, and k2 once");
            assertEquals("OK", c.sync().set("k3", big(3)));
            assertEquals(big(3), c.sync().get("k3"));
            encodedOffDecodedByTheClient(5);
        }
    }

    @Test
    void aCommandReplayedAfterAReconnectSendsTheBytesCompressedOnce() throws Exception {
        try (RedisServer server = RedisServer.start()) {
            ClientResources resources = ClientResources.builder()
                    .reconnectDelay(Delay.constant(Duration.ofMillis(100))).build();
            RedisClient client = CompressingRedisClient.create(resources, RedisURI.builder()
                    .withHost(RedisServer.HOST).withPort(server.port()).withTimeout(Duration.ofSeconds(20)).build());
            try (StatefulRedisConnection<String, String> c = client.connect(codec)) {
                assertEquals("OK", c.sync().set("before", "x"));
                // the server pauses: the SET is written and stays unanswered; then the server dies and comes back
                // empty. Lettuce puts the unanswered command back into its buffer and writes it again on reconnect.
                assertTrue(server.command("CLIENT PAUSE 5000").contains("OK"));
                RedisFuture<String> set = c.async().set("k", BIG);
                Thread.sleep(300);
                assertFalse(set.isDone());
                server.kill();
                server.startAgain();
                assertEquals("OK", set.get(15, TimeUnit.SECONDS));
                assertNull(c.sync().get("before"), "a new, empty server: the value below came from the replay");
                assertEquals(BIG, c.sync().get("k"));
                assertEquals(1, codec.compressor().stats().valuesCompressed(), "written twice, compressed once");
                encodedOffDecodedByTheClient(2);
            } finally {
                client.shutdown(0, 2, TimeUnit.SECONDS);
                resources.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }
    }
}
