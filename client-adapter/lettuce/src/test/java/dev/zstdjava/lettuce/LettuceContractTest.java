package dev.zstdjava.lettuce;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.testkit.ThreadCpu;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.event.command.CommandFailedEvent;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandSucceededEvent;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Lettuce's contract, side by side: every scenario runs on a plain {@link RedisClient} and on a
 * {@link CompressingRedisClient} connection to one real server, with the same {@link ClientOptions}, and asserts the
 * same observable outcome (completion order, the thread and context callbacks run in, waits and timeouts, completion
 * hooks, blocking inside callbacks, large values at the same heap plus 10%). Values are compressed on the compressing
 * side. The replies of a scenario are made to arrive together, while the application thread already waits, by pausing
 * the server's clients ({@code CLIENT PAUSE}) before the commands and letting it answer them all at once; each
 * scenario runs under a watchdog, so a hang fails the test instead of stopping the build.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettuceContractTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer();

    /** A compressible value: the compressing side stores it compressed. */
    static final String BIG = TestValues.json(4000);
    static final int TRIALS = 12;

    enum Kind { PLAIN, COMPRESSING }

    /** One side: a client of {@code kind} and a connection of it; closed after each test. */
    static final class Side implements AutoCloseable {
        final Kind kind;
        final RedisClient client;
        final StatefulRedisConnection<String, String> c;
        /**
         * A codec that decodes as the connection's does, for outputs the tests make (Lettuce 6 has no getCodec()); it
         * encodes nothing (arguments: StringCodec.UTF8, as the connection was given).
         */
        final RedisCodec<String, String> codec;

        Side(Kind kind, CompressionConfig config, CommandListener listener) {
            this(kind, config, listener, ClientOptions.builder().build());
        }

        Side(Kind kind, CompressionConfig config, CommandListener listener, ClientOptions options) {
            this(kind, config, listener, options, StringCodec.UTF8);
        }

        /** A side whose connection has the application's codec {@code userCodec} (wrapped on the compressing side). */
        Side(Kind kind, CompressionConfig config, CommandListener listener, ClientOptions options,
             RedisCodec<String, String> userCodec) {
            this.kind = kind;
            this.client = kind == Kind.PLAIN ? RedisClient.create(redis.uri()) : CompressingRedisClient.create(redis.uri());
            client.setOptions(options);
            if (listener != null) {
                client.addListener(listener);
            }
            ValueCompressor values = kind == Kind.PLAIN ? null : ValueCompressor.create(config);
            this.c = kind == Kind.PLAIN ? client.connect(userCodec)
                    : ((CompressingRedisClient) client).connect(userCodec, values);
            this.codec = kind == Kind.PLAIN ? userCodec : CompressingCodec.wrap(userCodec, values);
        }

        RedisAsyncCommands<String, String> async() {
            return c.async();
        }

        // Bounded, so that a scenario that hung fails its test rather than hang the build here.
        @Override
        public void close() {
            try {
                c.closeAsync().get(10, TimeUnit.SECONDS);
                client.shutdownAsync(0, 2, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError(kind + ": closing the side did not end in 10 s", e);
            }
        }
    }

    private final List<Side> sides = new ArrayList<>();
    private final ExecutorService watchdog = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "contract-scenario");
        t.setDaemon(true);
        return t;
    });

    Side side(Kind kind) {
        return side(kind, CompressionConfig.defaults(), null);
    }

    Side side(Kind kind, CompressionConfig config, CommandListener listener) {
        return side(kind, config, listener, ClientOptions.builder().build());
    }

    Side side(Kind kind, CompressionConfig config, CommandListener listener, ClientOptions options) {
        return side(kind, config, listener, options, StringCodec.UTF8);
    }

    Side side(Kind kind, CompressionConfig config, CommandListener listener, ClientOptions options,
              RedisCodec<String, String> userCodec) {
        Side s = new Side(kind, config, listener, options, userCodec);
        sides.add(s);
        return s;
    }

    @AfterEach
    void close() {
        watchdog.shutdownNow();
        sides.forEach(Side::close);
    }

    // Runs a scenario under a watchdog: its result, or a failure naming the side when it does not end in time.
    <T> T within(Side side, int seconds, Callable<T> scenario) throws Exception {
        Future<T> f = watchdog.submit(scenario);
        try {
            return f.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            return fail(side.kind + ": the scenario hung (no result within " + seconds + " s)");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception x) {
                throw x;
            }
            throw e;
        }
    }

    // Runs the same scenario on a plain and a compressing side; asserts the plain outcome, then that both are equal.
    <T> T sameOnBoth(Function<Side, Callable<T>> scenario, T expected) throws Exception {
        return sameOnBoth(ClientOptions.builder().build(), scenario, expected);
    }

    // As sameOnBoth(scenario, expected), both sides' clients with these options.
    <T> T sameOnBoth(ClientOptions options, Function<Side, Callable<T>> scenario, T expected) throws Exception {
        T plain = null;
        for (Kind k : Kind.values()) {
            Side s = side(k, CompressionConfig.defaults(), null, options);
            T outcome = within(s, 30, scenario.apply(s));
            assertEquals(expected, outcome, k + "'s outcome");
            plain = plain == null ? outcome : plain;
        }
        return plain;
    }

    // The next commands of every client wait until the server answers them together, ms from now.
    static void pause(int ms) {
        assertEquals("OK", redis.raw().sync().clientPause(ms));
    }

    /** Another connection of the side's client, of the side's kind (the caller closes it). */
    static StatefulRedisConnection<String, String> another(Side s) {
        return s.kind == Kind.PLAIN ? s.client.connect(StringCodec.UTF8) : ((CompressingRedisClient) s.client)
                .connect(StringCodec.UTF8, ValueCompressor.create(CompressionConfig.defaults()));
    }

    static void store(Side s, String... keys) throws Exception {
        for (String k : keys) {
            assertEquals("OK", s.async().set(k, BIG).get(5, TimeUnit.SECONDS));
        }
        if (s.kind == Kind.COMPRESSING) {
            byte[] stored = redis.raw().sync().get(keys[0].getBytes(StandardCharsets.UTF_8));
            assertTrue(stored.length < BIG.length() / 2, "the compressing side stores the value compressed");
        }
    }

    // ------------------------------------------------------------------------------------------------ 1. order

    /** A GET, then a SET and a DEL: their futures complete in the order of their replies, GET first. */
    @Test
    void futuresCompleteInTheOrderOfTheirReplies() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k");
            List<String> wrong = new ArrayList<>();
            for (int t = 0; t < TRIALS; t++) {
                Queue<String> order = new ConcurrentLinkedQueue<>();
                Map<String, String> cache = new java.util.concurrent.ConcurrentHashMap<>();
                pause(100);
                CompletableFuture<Void> get = s.async().get("k").thenAccept(v -> {
                    order.add("GET");
                    cache.put("k", v.length() == BIG.length() ? "old" : "?");
                }).toCompletableFuture();
                CompletableFuture<Void> set = s.async().set("k2", "new").thenAccept(v -> {
                    order.add("SET");
                    cache.put("k", "new");
                }).toCompletableFuture();
                CompletableFuture<Void> del = s.async().del("k3").thenAccept(v -> order.add("DEL"))
                        .toCompletableFuture();
                CompletableFuture.allOf(get, set, del).get(5, TimeUnit.SECONDS);
                if (!List.copyOf(order).equals(List.of("GET", "SET", "DEL")) || !"new".equals(cache.get("k"))) {
                    wrong.add(order + " " + cache);
                }
            }
            return wrong;
        }, List.of());
    }

    /** A pipeline of GETs then a PING: once the PING's future is done, every GET's is. */
    @Test
    void whenTheLastFutureIsDoneEveryEarlierOneIs() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k");
            int notDone = 0;
            for (int t = 0; t < TRIALS; t++) {
                s.c.setAutoFlushCommands(false);
                List<RedisFuture<String>> gets = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    gets.add(s.async().get("k"));
                }
                RedisFuture<String> ping = s.async().ping();
                s.c.flushCommands();
                s.c.setAutoFlushCommands(true);
                assertEquals("PONG", ping.get(5, TimeUnit.SECONDS));
                for (RedisFuture<String> g : gets) {
                    notDone += g.isDone() ? 0 : 1;
                }
                for (RedisFuture<String> g : gets) {
                    assertEquals(BIG, g.get(5, TimeUnit.SECONDS));
                }
            }
            return notDone;
        }, 0);
    }

    /**
     * Elements a command signals while its reply is decoded (a reactive {@code Flux}, a streaming channel), behind
     * GETs of compressed values: signalled after the GETs complete and before the next command's, in reply order.
     */
    @Test
    void streamedElementsAreSignalledInReplyOrder() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k");
            s.c.sync().del("list");
            s.c.sync().rpush("list", "a", "b");
            List<List<String>> wrong = new ArrayList<>();
            for (int t = 0; t < TRIALS; t++) {
                Queue<String> order = new ConcurrentLinkedQueue<>();
                pause(100);
                CompletableFuture<Void> get1 = s.async().get("k").thenAccept(v -> order.add("GET"))
                        .toCompletableFuture();
                CompletableFuture<Void> get2 = s.async().get("k").thenAccept(v -> order.add("GET"))
                        .toCompletableFuture();
                CompletableFuture<Void> mget = s.c.reactive().mget("k", "k")
                        .doOnNext(kv -> order.add("flux mget " + kv.getValue().length())).then().toFuture();
                CompletableFuture<Void> channel = s.async().lrange(v -> order.add("channel " + v), "list", 0, -1)
                        .thenAccept(n -> order.add("LRANGE " + n)).toCompletableFuture();
                CompletableFuture<Void> flux = s.c.reactive().lrange("list", 0, -1)
                        .doOnNext(v -> order.add("flux " + v)).then().toFuture();
                CompletableFuture.allOf(get1, get2, mget, channel, flux).get(5, TimeUnit.SECONDS);
                List<String> seen = List.copyOf(order);
                String m = "flux mget " + BIG.length();
                if (!seen.equals(List.of("GET", "GET", m, m, "channel a", "channel b", "LRANGE 2", "flux a",
                        "flux b"))) {
                    wrong.add(seen);
                }
            }
            return wrong;
        }, List.of());
    }

    /**
     * A burst of GETs, and close() once the first has completed: a reply read before close() returns is completed by
     * then. No future still pending when close() returns completes with a value later (those whose replies were not
     * read fail, and may do so after close() returns, with Lettuce alone too).
     */
    @Test
    void aReplyReadBeforeCloseReturnsIsCompletedByThen() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k");
            List<Integer> lateValues = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                StatefulRedisConnection<String, String> c = t == 0 ? s.c : another(s);
                CountDownLatch first = new CountDownLatch(1);
                pause(100);
                List<RedisFuture<String>> gets = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    gets.add(c.async().get("k"));
                }
                gets.get(0).thenAccept(v -> first.countDown());
                assertTrue(first.await(5, TimeUnit.SECONDS), "the first GET completes");
                c.close();
                List<RedisFuture<String>> pending = gets.stream().filter(g -> !g.isDone()).toList();
                int late = 0;
                for (RedisFuture<String> g : pending) {
                    try {
                        late += g.get(5, TimeUnit.SECONDS) != null ? 1 : 0;
                    } catch (ExecutionException failed) {
                        // not read before the close: fails, as with Lettuce
                    }
                }
                lateValues.add(late);
            }
            return lateValues;
        }, List.of(0, 0, 0, 0));
    }

    /** A callback in a burst of replies that closes its own connection: close() returns there, as with Lettuce. */
    @Test
    void aCallbackClosingItsOwnConnectionReturns() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k");
            pause(100);
            List<RedisFuture<String>> gets = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                gets.add(s.async().get("k"));
            }
            CompletableFuture<String> closed = gets.get(10).toCompletableFuture().thenApply(v -> {
                s.c.close();
                return "closed " + s.c.isOpen();
            });
            return closed.get(10, TimeUnit.SECONDS);
        }, "closed false");
    }

    /**
     * Two connections' callbacks, running at once, each close another connection of the client while replies of that
     * one are read and wait to be decoded: close() returns in both, as with Lettuce (it must not wait for decoding
     * that only the threads running the callbacks could do).
     */
    @Test
    void callbacksClosingOtherConnectionsReturn() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k");
            List<StatefulRedisConnection<String, String>> more = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                more.add(another(s));
            }
            List<StatefulRedisConnection<String, String>> callers = List.of(s.c, more.get(0));
            List<StatefulRedisConnection<String, String>> victims = more.subList(1, 3);
            CyclicBarrier together = new CyclicBarrier(2);
            pause(100);
            List<CompletableFuture<String>> closed = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                List<RedisFuture<String>> gets = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    gets.add(callers.get(c).async().get("k"));
                }
                StatefulRedisConnection<String, String> victim = victims.get(c);
                closed.add(gets.get(10).toCompletableFuture().thenApply(v -> {
                    try {
                        together.await(5, TimeUnit.SECONDS); // both callbacks at once, where they can be
                    } catch (Exception notTogether) {
                        // one thread runs both: still each closes its victim
                    }
                    pause(100); // the victims' replies come in a burst, read while the callbacks run
                    for (int i = 0; i < 20; i++) {
                        victim.async().get("k");
                    }
                    try {
                        Thread.sleep(400);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    victim.close();
                    return "closed " + victim.isOpen();
                }));
            }
            List<String> outcome = new ArrayList<>();
            for (CompletableFuture<String> f : closed) {
                outcome.add(f.get(20, TimeUnit.SECONDS));
            }
            return outcome;
        }, List.of("closed false", "closed false"));
    }

    // ------------------------------------------------------------------ 2. where callbacks run, 3. no hang, no spin

    /**
     * Request 1's callback never runs inside request 2's wait on the same thread: not on that thread, not under its
     * lock, not with its thread-local.
     */
    @Test
    void aCallbackNeverRunsInsideAnotherRequestsWait() throws Exception {
        ThreadLocal<String> requestId = new ThreadLocal<>();
        ReentrantLock lock = new ReentrantLock();
        sameOnBoth(s -> () -> {
            store(s, "k1", "k2");
            List<String> leaks = new ArrayList<>();
            for (int t = 0; t < TRIALS; t++) {
                Thread me = Thread.currentThread();
                CompletableFuture<String> seen = new CompletableFuture<>();
                pause(100);
                requestId.set("request-1");
                s.async().get("k1").thenAccept(v -> seen.complete((Thread.currentThread() == me ? "same thread " : "")
                        + (lock.isHeldByCurrentThread() ? "lock held " : "") + requestId.get()));
                requestId.set("request-2");
                lock.lock();
                try {
                    assertEquals(BIG, s.async().get("k2").get(5, TimeUnit.SECONDS));
                } finally {
                    lock.unlock();
                    requestId.remove();
                }
                String where = seen.get(5, TimeUnit.SECONDS);
                if (!where.equals("null")) {
                    leaks.add(where);
                }
            }
            return leaks;
        }, List.of());
    }

    /** x's stage, joined inside y's callback while the thread waits for y: completes, and a timed wait is bounded. */
    @Test
    void aCallbackJoiningAnEarlierRepliesStageNeverHangs() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k1", "k2");
            int done = 0;
            for (int t = 0; t < TRIALS; t++) {
                pause(100);
                RedisFuture<String> x = s.async().get("k1");
                RedisFuture<String> y = s.async().get("k2");
                CompletableFuture<Integer> xs = x.toCompletableFuture().thenApply(String::length);
                CompletableFuture<Integer> ys = y.toCompletableFuture().thenApply(v -> xs.join() + v.length());
                assertEquals(BIG, y.get(2, TimeUnit.SECONDS));
                done += ys.get(2, TimeUnit.SECONDS) == 2 * BIG.length() ? 1 : 0;
            }
            return done;
        }, TRIALS);
    }

    /**
     * A thread whose interrupt flag is set parks in join() until the reply: that thread uses little CPU meanwhile
     * (the server holds the command; a spinning thread would use about the whole wait). Measured on the waiting thread
     * alone: the process's CPU also counts the JIT, the GC and the rest of the test JVM, which once passed a third of
     * the wait on plain Lettuce in CI. The command is a write ({@code GETDEL}), held by a pause of writes that another
     * thread ends a second after the wait began, so the wait lasts at least that second however slow the machine.
     */
    @Test
    void anInterruptedJoinWaitsWithoutSpinning() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k");
            CountDownLatch waiting = new CountDownLatch(1);
            Thread unpause = null;
            try {
                WorkThreadsTest.pauseWrites(redis.server()); // before the thread that ends it, which would wait forever
                unpause = Thread.ofPlatform().name("contract-unpause").start(() -> {
                    try {
                        waiting.await();
                        Thread.sleep(1000);
                        WorkThreadsTest.unpause(redis.server());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                CompletableFuture<String> f = s.async().getdel("k").toCompletableFuture();
                long cpu = ThreadCpu.nanos();
                long wall = System.nanoTime();
                waiting.countDown();
                Thread.currentThread().interrupt();
                String v = f.join();
                boolean stillInterrupted = Thread.interrupted();
                cpu = ThreadCpu.nanos() - cpu;
                wall = System.nanoTime() - wall;
                assertTrue(wall >= TimeUnit.SECONDS.toNanos(1), s.kind + ": the reply came before the unpause, in "
                        + wall / 1_000_000 + " ms");
                return List.of(BIG.equals(v), stillInterrupted, cpu < wall / 3 ? "parked"
                        : "spun: CPU " + cpu / 1_000_000 + " ms in a wait of " + wall / 1_000_000 + " ms");
            } finally {
                Thread.interrupted(); // a failed join may leave the flag set
                waiting.countDown();
                if (unpause != null) {
                    unpause.join();
                }
                WorkThreadsTest.unpause(redis.server()); // also when the thread above failed, or never started
            }
        }, List.of(true, true, "parked"));
    }

    // ---------------------------------------------------------------------------------------- 4. completion hooks

    /** A CommandListener sees the outcome the future has: the decoded value, or the decoding failure. */
    @Test
    void commandListenersSeeTheDecodedOutcome() throws Exception {
        for (Kind k : Kind.values()) {
            Queue<String> events = new ConcurrentLinkedQueue<>();
            CommandListener listener = new CommandListener() {
                @Override
                public void commandSucceeded(CommandSucceededEvent event) {
                    if (event.getCommand().getType().toString().equals("GET")) {
                        Object out = event.getCommand().getOutput().get();
                        events.add("succeeded " + (BIG.equals(out) ? "with the value" : "with " + out));
                    }
                }

                @Override
                public void commandFailed(CommandFailedEvent event) {
                    if (event.getCommand().getType().toString().equals("GET")) {
                        events.add("failed " + event.getCause().getClass().getSimpleName());
                    }
                }
            };
            Side s = side(k, CompressionConfig.builder().maxDecompressedSize(BIG.length() - 1).build(), listener);
            Side writer = side(k);
            within(s, 30, () -> {
                store(writer, "big");
                pause(100);
                CompletableFuture<String> f = s.async().get("big").toCompletableFuture();
                String outcome;
                try {
                    outcome = "value " + (f.get(5, TimeUnit.SECONDS).equals(BIG));
                } catch (ExecutionException e) {
                    outcome = "failed " + e.getCause().getClass().getSimpleName();
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (events.isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                if (k == Kind.PLAIN) {
                    assertEquals("value true", outcome);
                    assertEquals(List.of("succeeded with the value"), List.copyOf(events));
                } else {
                    assertEquals("failed " + DecompressionLimitException.class.getSimpleName(), outcome);
                    assertEquals(List.of(outcome), List.copyOf(events), "the listener is told what the future says");
                }
                return null;
            });
        }
    }

    // ---------------------------------------------------------------------------- 6. blocking inside a callback

    /** A callback that calls the same connection's sync API: times out on both, as on Lettuce's event loop. */
    @Test
    void aCallbackBlockingOnTheSameConnectionHasLettucesOutcome() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k1", "k2");
            s.c.setTimeout(Duration.ofMillis(500));
            pause(200); // the callback is registered before the reply arrives, as in a service under load
            CompletableFuture<String> f = s.async().get("k1").toCompletableFuture()
                    .thenApply(v -> s.c.sync().get("k2"));
            String outcome;
            try {
                outcome = "value " + f.get(10, TimeUnit.SECONDS).equals(BIG);
            } catch (ExecutionException e) {
                outcome = e.getCause().getClass().getSimpleName();
            }
            s.c.setTimeout(Duration.ofSeconds(5));
            assertEquals(BIG, s.c.sync().get("k2"), "the connection is usable after");
            // reactive: block() inside map, four chains at once
            List<CompletableFuture<String>> chains = new ArrayList<>();
            s.c.setTimeout(Duration.ofMillis(500));
            pause(200);
            for (int i = 0; i < 4; i++) {
                chains.add(s.c.reactive().get("k1").map(v -> s.c.reactive().get("k2").block())
                        .map(v -> "value " + v.equals(BIG))
                        .onErrorResume(e -> reactor.core.publisher.Mono.just(e.getClass().getSimpleName()))
                        .toFuture());
            }
            List<String> reactive = new ArrayList<>();
            for (CompletableFuture<String> c : chains) {
                reactive.add(c.get(10, TimeUnit.SECONDS));
            }
            s.c.setTimeout(Duration.ofSeconds(5));
            assertEquals(BIG, s.c.sync().get("k2"), "the connection is usable after");
            return outcome + " " + reactive;
        }, RedisCommandTimeoutException.class.getSimpleName() + " " + List.of("RedisCommandTimeoutException",
                "RedisCommandTimeoutException", "RedisCommandTimeoutException", "RedisCommandTimeoutException"));
    }

    // ------------------------------------------------------------------- what already behaved, kept side by side

    /** MULTI/EXEC with compressed values, WATCH that discards, a command timeout while paused, close() pending. */
    @Test
    void transactionsWatchTimeoutsAndCloseBehaveAsLettuce() throws Exception {
        sameOnBoth(s -> () -> {
            List<Object> out = new ArrayList<>();
            RedisAsyncCommands<String, String> a = s.async();
            a.multi().get(5, TimeUnit.SECONDS);
            RedisFuture<String> set = a.set("t", BIG);
            RedisFuture<String> get = a.get("t");
            TransactionResult tx = a.exec().get(5, TimeUnit.SECONDS);
            out.add(tx.wasDiscarded());
            out.add(tx.stream().map(o -> BIG.equals(o) ? "BIG" : o).toList());
            out.add(set.get(1, TimeUnit.SECONDS) + " " + BIG.equals(get.get(1, TimeUnit.SECONDS)));
            // WATCH, then another client changes the key: EXEC runs nothing
            try (StatefulRedisConnection<String, String> other = redis.client().connect(StringCodec.UTF8)) {
                s.c.sync().watch("t");
                other.sync().set("t", "changed");
                s.c.sync().multi();
                s.c.sync().set("t", BIG);
                out.add(s.c.sync().exec().wasDiscarded());
            }
            // a timeout while the server holds the command (a write: GETDEL of a stored value); the GET behind it is
            // held too, and gets its own reply once the server answers both: the connection stays in step
            store(s, "late");
            s.c.setTimeout(Duration.ofMillis(200));
            RedisFuture<String> next;
            try {
                WorkThreadsTest.pauseWrites(redis.server());
                try {
                    s.c.sync().getdel("late");
                    out.add("no timeout");
                } catch (RedisCommandTimeoutException e) {
                    out.add("timeout");
                }
                s.c.setTimeout(Duration.ofSeconds(5));
                next = s.async().get("t");
            } finally {
                WorkThreadsTest.unpause(redis.server());
            }
            out.add(next.get(5, TimeUnit.SECONDS));
            // close() with replies pending: every future completes, none stays pending
            store(s, "c");
            pause(300);
            List<RedisFuture<String>> pending = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                pending.add(s.async().get("c"));
            }
            s.c.close();
            int completed = 0;
            for (RedisFuture<String> p : pending) {
                try {
                    p.get(5, TimeUnit.SECONDS);
                    completed++;
                } catch (ExecutionException | java.util.concurrent.CancellationException e) {
                    completed++;
                }
            }
            out.add(completed);
            return out;
        }, List.of(false, List.of("OK", "BIG"), "OK true", true, "timeout", "changed", 10));
    }

    /** 2,000 virtual threads share one connection, each writing and reading its own value. */
    @Test
    void twoThousandVirtualThreadsOnOneConnection() throws Exception {
        sameOnBoth(s -> () -> {
            List<Future<Boolean>> fs = new ArrayList<>();
            try (ExecutorService v = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 2000; i++) {
                    String key = "vt" + i;
                    String value = i + BIG;
                    fs.add(v.submit(() -> {
                        s.c.sync().set(key, value);
                        return value.equals(s.c.sync().get(key)) && value.equals(s.async().get(key).get());
                    }));
                }
                int ok = 0;
                for (Future<Boolean> f : fs) {
                    ok += f.get(60, TimeUnit.SECONDS) ? 1 : 0;
                }
                return ok;
            }
        }, 2000);
    }

    /** RESP3 maps (the protocol Lettuce negotiates with this server): a hash reads back the same on both. */
    @Test
    void resp3MapsReadTheSame() throws Exception {
        sameOnBoth(s -> () -> {
            s.c.sync().hset("h", Map.of("a", BIG, "b", "x"));
            s.c.sync().set("s", BIG);
            Map<String, String> h = s.c.sync().hgetall("h");
            return List.of(s.c.sync().clientInfo().contains("resp=3"), h.size(), BIG.equals(h.get("a")),
                    BIG.equals(s.c.sync().get("s")));
        }, List.of(true, 2, true, true));
    }

    // ------------------------------------------------------------ 7. protocols, timeouts, transactions, batches

    /** Completion order and values of a burst of replies under RESP2 (maps and sets come as arrays there). */
    @Test
    void resp2HasTheSameOrderAndValues() throws Exception {
        ClientOptions resp2 = ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).build();
        sameOnBoth(resp2, s -> () -> {
            store(s, "k");
            s.c.sync().del("h", "l");
            s.c.sync().hset("h", Map.of("a", BIG, "b", "x"));
            s.c.sync().rpush("l", BIG, "y");
            List<Object> wrong = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Queue<String> order = new ConcurrentLinkedQueue<>();
                pause(100);
                List<CompletableFuture<Void>> all = List.of(
                        s.async().get("k").thenAccept(v -> order.add("GET " + BIG.equals(v))).toCompletableFuture(),
                        s.async().mget("k", "nothing").thenAccept(v -> order.add("MGET " + BIG.equals(v.get(0)
                                .getValue()) + " " + v.get(1).hasValue())).toCompletableFuture(),
                        s.async().hgetall("h").thenAccept(v -> order.add("HGETALL " + BIG.equals(v.get("a")) + " "
                                + v.get("b"))).toCompletableFuture(),
                        s.async().lrange("l", 0, -1).thenAccept(v -> order.add("LRANGE " + BIG.equals(v.get(0))
                                + " " + v.get(1))).toCompletableFuture(),
                        s.async().ping().thenAccept(v -> order.add(v)).toCompletableFuture(),
                        s.async().get("nothing").thenAccept(v -> order.add("GET " + v)).toCompletableFuture());
                CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get(5, TimeUnit.SECONDS);
                List<String> seen = List.copyOf(order);
                if (!seen.equals(List.of("GET true", "MGET true false", "HGETALL true x", "LRANGE true y", "PONG",
                        "GET null"))) {
                    wrong.add(seen);
                }
            }
            return List.of(s.c.sync().clientInfo().contains("resp=2"), wrong);
        }, List.of(true, List.of()));
    }

    /**
     * A GET whose reply waits behind a callback that blocks (on the event loop with Lettuce, in the stage's queue on
     * the compressing side) times out with Lettuce's exception; once the callback returns, its late reply completes
     * nothing, the listeners are told what the future says, and later commands get their own replies.
     */
    @Test
    void aCommandWaitingBehindABlockedCallbackTimesOutAsOnLettuce() throws Exception {
        for (Kind k : Kind.values()) {
            Queue<String> events = new ConcurrentLinkedQueue<>();
            CountDownLatch failedTold = new CountDownLatch(1); // Lettuce may tell listeners after the future fails
            CommandListener listener = new CommandListener() {
                @Override
                public void commandSucceeded(CommandSucceededEvent event) {
                    if (event.getCommand().getArgs() != null
                            && event.getCommand().getArgs().toCommandString().contains("late")) {
                        events.add("succeeded");
                    }
                }

                @Override
                public void commandFailed(CommandFailedEvent event) {
                    if (event.getCommand().getArgs() != null
                            && event.getCommand().getArgs().toCommandString().contains("late")) {
                        events.add("failed " + event.getCause().getClass().getSimpleName());
                        failedTold.countDown();
                    }
                }
            };
            Side s = side(k, CompressionConfig.defaults(), listener);
            List<Object> outcome = within(s, 30, () -> {
                store(s, "k", "late", "again");
                List<Object> out = new ArrayList<>();
                CountDownLatch release = new CountDownLatch(1);
                s.c.setTimeout(Duration.ofMillis(300));
                pause(100);
                RedisFuture<String> first = s.async().get("k");
                CompletableFuture<Boolean> blocked = s.async().get("k").toCompletableFuture().thenApply(v -> {
                    try {
                        return release.await(5, TimeUnit.SECONDS) && BIG.equals(v);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                });
                RedisFuture<String> late = s.async().get("late");
                try {
                    out.add("value " + late.get(5, TimeUnit.SECONDS).length());
                } catch (ExecutionException e) {
                    out.add(e.getCause().getClass().getSimpleName());
                }
                release.countDown();
                out.add(BIG.equals(first.get(5, TimeUnit.SECONDS)));
                out.add(blocked.get(5, TimeUnit.SECONDS));
                s.c.setTimeout(Duration.ofSeconds(5));
                s.c.sync().set("after", "own");
                out.add(s.c.sync().get("after"));
                out.add(BIG.equals(s.c.sync().get("again")));
                out.add(late.toCompletableFuture().isCompletedExceptionally());
                failedTold.await(5, TimeUnit.SECONDS); // the outcome below says whether it was told
                out.add(List.copyOf(events));
                return out;
            });
            assertEquals(List.of("RedisCommandTimeoutException", true, true, "own", true, true,
                    List.of("succeeded", "failed RedisCommandTimeoutException")), outcome,
                    k + "'s outcome (the listener: SET late, then the GET that timed out, once)");
        }
    }

    /**
     * A command timeout that fires while the command's reply is being decoded: the application's codec blocks in
     * decodeValue on one value (on the event loop with Lettuce; on the loop or on a decoding thread on the compressing
     * side) until the command has timed out, with the reply alone, last of a burst, between other replies of a burst,
     * and first of a burst. As on Lettuce, the future fails with the timeout while its decoding is still blocked; once
     * the decoding returns, its value completes nothing and the listener, told the failure once, is told no success;
     * the replies around it complete their own futures with their own values, in reply order, and the connection goes
     * on. A reply read just before the held one completes before the held one times out, and before its own, shorter,
     * timeout: with Lettuce it completed before the held decoding began.
     */
    @Test
    void aTimeoutWhileItsReplyIsBeingDecodedHasLettucesOutcome() throws Exception {
        // as Lettuce users set a timeout per command: the held GET's fires while its decoding is blocked; the GET of
        // v1, whose reply comes just before the held one's, has a shorter one, which fires while that decoding is
        // blocked too (with Lettuce, long after v1 completed); every other command's only long after the scenario
        // would have failed
        ClientOptions options = timeoutsPerCommand(c -> isHeldGet(c) ? 2500 : isGet(c, "v1") ? 1000 : 30_000);
        for (Kind k : Kind.values()) {
            HoldingCodec codec = new HoldingCodec();
            Queue<String> events = new ConcurrentLinkedQueue<>();
            Semaphore failedTold = new Semaphore(0); // Lettuce tells listeners after the future completes
            Semaphore succeededTold = new Semaphore(0);
            CommandListener listener = new CommandListener() {
                @Override
                public void commandSucceeded(CommandSucceededEvent event) {
                    if (isHeldGet(event.getCommand())) {
                        events.add("succeeded");
                        succeededTold.release();
                    }
                }

                @Override
                public void commandFailed(CommandFailedEvent event) {
                    if (isHeldGet(event.getCommand())) {
                        events.add("failed " + event.getCause().getClass().getSimpleName());
                        failedTold.release();
                    }
                }
            };
            Side s = side(k, CompressionConfig.defaults(), listener, options, codec);
            List<Object> outcome = within(s, 90, () -> {
                for (int i = 0; i < 4; i++) {
                    assertEquals("OK", s.async().set("v" + i, i + BIG).get(5, TimeUnit.SECONDS));
                }
                assertEquals("OK", s.async().set("held", HoldingCodec.HOLD + BIG).get(5, TimeUnit.SECONDS));
                List<Object> out = new ArrayList<>();
                for (String arrangement : List.of("alone", "behind", "between", "first")) {
                    CountDownLatch release = codec.arm();
                    Queue<String> order = new ConcurrentLinkedQueue<>();
                    List<CompletableFuture<?>> others = new ArrayList<>();
                    if (!arrangement.equals("alone")) {
                        pause(100); // the replies come together
                    }
                    for (int i = 0; (arrangement.equals("behind") || arrangement.equals("between")) && i < 2; i++) {
                        others.add(getInto(s, "v" + i, order));
                    }
                    CompletableFuture<String> held = s.async().get("held").toCompletableFuture();
                    CompletableFuture<String> heldSeen = held.whenComplete((v, e) -> order.add("held "
                            + (e == null ? "value" : e.getClass().getSimpleName())));
                    for (int i = 2; (arrangement.equals("between") || arrangement.equals("first")) && i < 4; i++) {
                        others.add(getInto(s, "v" + i, order));
                    }
                    out.add(arrangement);
                    out.add(codec.decoding.await(10, TimeUnit.SECONDS) && !held.isDone()
                            ? "decoding before its timeout" : "no decoding before the timeout");
                    try {
                        out.add("value " + heldSeen.get(10, TimeUnit.SECONDS).length());
                    } catch (ExecutionException e) {
                        out.add(e.getCause().getClass().getSimpleName() + (codec.holding() ? " while decoding" : ""));
                    } catch (TimeoutException e) {
                        out.add("pending 10 s after its timeout");
                    }
                    release.countDown();
                    CompletableFuture.allOf(others.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.SECONDS);
                    // the next reply of the connection comes after the held one's decoding has returned
                    assertEquals("3" + BIG, s.async().get("v3").get(10, TimeUnit.SECONDS), "a later command's value");
                    out.add(List.copyOf(order));
                    out.add(failedTold.tryAcquire(10, TimeUnit.SECONDS) ? "failure told" : "no failure told");
                    out.add(List.copyOf(events));
                    events.clear();
                    out.add(held.isCompletedExceptionally());
                }
                out.add(s.async().get("held").get(5, TimeUnit.SECONDS).equals(HoldingCodec.HOLD + BIG));
                out.add(succeededTold.tryAcquire(10, TimeUnit.SECONDS) ? "success told" : "no success told");
                out.add(List.copyOf(events));
                return out;
            });
            String timeout = RedisCommandTimeoutException.class.getSimpleName();
            List<String> failed = List.of("failed " + timeout);
            assertEquals(List.of(
                    "alone", "decoding before its timeout", timeout + " while decoding", List.of("held " + timeout),
                    "failure told", failed, true,
                    "behind", "decoding before its timeout", timeout + " while decoding",
                    List.of("v0 true", "v1 true", "held " + timeout), "failure told", failed, true,
                    "between", "decoding before its timeout", timeout + " while decoding",
                    List.of("v0 true", "v1 true", "held " + timeout, "v2 true", "v3 true"), "failure told", failed, true,
                    "first", "decoding before its timeout", timeout + " while decoding",
                    List.of("held " + timeout, "v2 true", "v3 true"), "failure told", failed, true,
                    true, "success told", List.of("succeeded")), outcome, k + "'s outcome");
        }
    }

    // Client options whose command timeouts are set per command (in milliseconds), as Lettuce users set them.
    static ClientOptions timeoutsPerCommand(java.util.function.ToLongFunction<RedisCommand<?, ?, ?>> millis) {
        return ClientOptions.builder().timeoutOptions(TimeoutOptions.builder()
                .timeoutSource(new TimeoutOptions.TimeoutSource() {
                    @Override
                    public long getTimeout(RedisCommand<?, ?, ?> command) {
                        return millis.applyAsLong(command);
                    }
                }).build()).build();
    }

    // A GET of the held key: its timeout is a short one, and the listener records its events.
    static boolean isHeldGet(RedisCommand<?, ?, ?> command) {
        return isGet(command, "held");
    }

    static boolean isGet(RedisCommand<?, ?, ?> command, String key) {
        return command.getType().toString().equals("GET") && command.getArgs() != null
                && command.getArgs().toCommandString().contains(key);
    }

    // A GET whose completion adds "key true" (its own value) or "key false" / the failure to order; the stage returned
    // completes normally once that is added.
    static CompletableFuture<String> getInto(Side s, String key, Queue<String> order) {
        String expected = key.substring(1) + BIG;
        return s.async().get(key).toCompletableFuture().handle((v, e) -> {
            order.add(key + " " + (e == null ? String.valueOf(expected.equals(v)) : e.getClass().getSimpleName()));
            return v;
        });
    }

    /**
     * The application's codec: {@link StringCodec#UTF8}, whose decodeValue, once armed, blocks on the next value
     * that starts with {@link #HOLD} until released.
     */
    static final class HoldingCodec extends Utf8Codec {
        static final String HOLD = "hold:";
        private final AtomicBoolean armed = new AtomicBoolean();
        private volatile boolean holding;
        volatile CountDownLatch decoding = new CountDownLatch(1);
        private volatile CountDownLatch release = new CountDownLatch(0);

        /** @return the latch that releases the next held decoding */
        CountDownLatch arm() {
            decoding = new CountDownLatch(1);
            release = new CountDownLatch(1);
            armed.set(true);
            return release;
        }

        /** @return whether a decoding is blocked right now */
        boolean holding() {
            return holding;
        }

        @Override
        public String decodeValue(ByteBuffer bytes) {
            String v = bytes == null ? null : StringCodec.UTF8.decodeValue(bytes);
            if (v != null && v.startsWith(HOLD) && armed.compareAndSet(true, false)) {
                holding = true;
                decoding.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    holding = false;
                }
            }
            return v;
        }
    }

    /** The application's codec of some tests: {@link StringCodec#UTF8} as a codec of the application's own class. */
    static class Utf8Codec implements RedisCodec<String, String> {
        @Override
        public String decodeValue(ByteBuffer bytes) {
            return StringCodec.UTF8.decodeValue(bytes);
        }

        @Override
        public String decodeKey(ByteBuffer bytes) {
            return StringCodec.UTF8.decodeKey(bytes);
        }

        @Override
        public ByteBuffer encodeKey(String key) {
            return StringCodec.UTF8.encodeKey(key);
        }

        @Override
        public ByteBuffer encodeValue(String value) {
            return StringCodec.UTF8.encodeValue(value);
        }
    }

    /**
     * Streamed replies (a reactive {@code Flux} of LRANGE, a {@code ValueStreamingChannel} LRANGE, a module command's
     * own output sent with dispatch) whose commands time out while they wait behind a callback that blocks (on the
     * event loop with Lettuce; in the stage's queue, recorded whole, on the compressing side): each future and the
     * subscriber fail with the timeout while the callback blocks, and the listener is told each failure and no
     * success. Once the callback returns, the late replies are decoded into their outputs, in reply order, as Lettuce
     * decodes them: the streaming channel gets every element and the module's output its value after their futures
     * failed; the subscriber gets nothing more (neither elements nor a completion after its error: Lettuce's
     * publisher drops them). Later commands get their own replies.
     */
    @Test
    void streamedRepliesThatTimeOutWhileTheyWaitHaveLettucesOutcome() throws Exception {
        // per command: the streamed commands' timeouts fire while the callback blocks; every other command's only
        // long after the scenario would have failed
        ClientOptions options = timeoutsPerCommand(c -> isStreamed(c) ? 1000 : 30_000);
        for (Kind k : Kind.values()) {
            Queue<String> events = new ConcurrentLinkedQueue<>();
            Semaphore failedTold = new Semaphore(0); // Lettuce may tell listeners after the future fails
            CommandListener listener = new CommandListener() {
                @Override
                public void commandSucceeded(CommandSucceededEvent event) {
                    if (isStreamed(event.getCommand())) {
                        events.add("succeeded " + event.getCommand().getType());
                    }
                }

                @Override
                public void commandFailed(CommandFailedEvent event) {
                    if (isStreamed(event.getCommand())) {
                        events.add("failed " + event.getCommand().getType() + " "
                                + event.getCause().getClass().getSimpleName());
                        failedTold.release();
                    }
                }
            };
            Side s = side(k, CompressionConfig.defaults(), listener, options);
            List<Object> outcome = within(s, 60, () -> {
                store(s, "k", "streamed-m");
                s.c.sync().del("streamed-list");
                s.c.sync().rpush("streamed-list", "a", "b", "c", "d", "e");
                List<Object> out = new ArrayList<>();
                Queue<String> order = new ConcurrentLinkedQueue<>();
                CountDownLatch release = new CountDownLatch(1);
                CountDownLatch timedOut = new CountDownLatch(3);
                pause(100); // the replies come together
                RedisFuture<String> first = s.async().get("k");
                CompletableFuture<Boolean> blocked = s.async().get("k").toCompletableFuture().thenApply(v -> {
                    try {
                        boolean released = release.await(10, TimeUnit.SECONDS);
                        order.add("callback returns");
                        return released && BIG.equals(v);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                });
                s.c.reactive().lrange("streamed-list", 0, -1).subscribe(new reactor.core.CoreSubscriber<String>() {
                    @Override
                    public void onSubscribe(org.reactivestreams.Subscription subscription) {
                        subscription.request(Long.MAX_VALUE);
                    }

                    @Override
                    public void onNext(String v) {
                        order.add("flux " + v);
                    }

                    @Override
                    public void onError(Throwable t) {
                        order.add("flux error " + t.getClass().getSimpleName());
                        timedOut.countDown();
                    }

                    @Override
                    public void onComplete() {
                        order.add("flux complete");
                    }
                });
                RedisFuture<Long> channel = s.async().lrange(v -> order.add("channel " + v), "streamed-list", 0, -1);
                channel.whenComplete((n, e) -> {
                    order.add("channel LRANGE " + (e == null ? n : e.getClass().getSimpleName()));
                    timedOut.countDown();
                });
                RedisFuture<String> module = s.async().dispatch(ModuleCommand.GET,
                        new ModuleOutput(s.codec, order), new io.lettuce.core.protocol.CommandArgs<>(StringCodec.UTF8)
                                .addKey("streamed-m"));
                module.whenComplete((v, e) -> {
                    order.add("module GET " + (e == null ? "value" : e.getClass().getSimpleName()));
                    timedOut.countDown();
                });
                out.add(timedOut.await(10, TimeUnit.SECONDS) ? "timed out while the callback blocks"
                        : "not timed out");
                // the timeouts fire on Lettuce's timer threads, in any order among themselves
                List<String> beforeRelease = List.copyOf(order);
                out.add(beforeRelease.stream().sorted().toList());
                release.countDown();
                out.add(BIG.equals(first.get(5, TimeUnit.SECONDS)));
                out.add(blocked.get(5, TimeUnit.SECONDS));
                // the next reply of the connection comes after the late streamed replies
                out.add(BIG.equals(s.async().get("k").get(5, TimeUnit.SECONDS)));
                List<String> all = List.copyOf(order);
                out.add(all.subList(beforeRelease.size(), all.size()));
                out.add(failedTold.tryAcquire(3, 10, TimeUnit.SECONDS) ? "failures told" : "not all failures told");
                out.add(List.copyOf(events).stream().sorted().toList());
                out.add(s.async().lrange("streamed-list", 0, -1).get(5, TimeUnit.SECONDS));
                return out;
            });
            String timeout = RedisCommandTimeoutException.class.getSimpleName();
            assertEquals(List.of("timed out while the callback blocks",
                    List.of("channel LRANGE " + timeout, "flux error " + timeout, "module GET " + timeout),
                    true, true, true,
                    List.of("callback returns", "channel a", "channel b", "channel c", "channel d", "channel e",
                            "set " + BIG.length()), "failures told",
                    List.of("failed GET " + timeout, "failed LRANGE " + timeout, "failed LRANGE " + timeout),
                    List.of("a", "b", "c", "d", "e")), outcome, k + "'s outcome");
        }
    }

    // The streamed commands, whose timeout is short: an LRANGE of the streamed list, the module command's GET.
    static boolean isStreamed(RedisCommand<?, ?, ?> command) {
        return (command.getType() == ModuleCommand.GET || command.getType().toString().equals("LRANGE"))
                && command.getArgs() != null && command.getArgs().toCommandString().contains("streamed");
    }

    /**
     * A module's command word, sent with dispatch (its reply goes to a {@link ModuleOutput}). An enum, so that it has
     * the name() every Lettuce line reads (deprecated on Lettuce 7).
     */
    @SuppressWarnings("deprecation")
    enum ModuleCommand implements io.lettuce.core.protocol.ProtocolKeyword {
        GET;

        @Override
        public byte[] getBytes() {
            return name().getBytes(StandardCharsets.US_ASCII);
        }
    }

    /**
     * MULTI/EXEC behind GETs whose replies are still pending: the queued commands' futures, EXEC's and the GET's
     * complete in reply order; the TransactionResult holds the decoded values and a WRONGTYPE error in place; a WATCH
     * conflict gives a discarded result; DISCARD and a command refused at queue time (EXECABORT) end as on Lettuce.
     */
    @Test
    void transactionsCompleteInReplyOrderWithTheirErrors() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k");
            s.c.sync().del("t", "t2");
            List<Object> out = new ArrayList<>();
            RedisAsyncCommands<String, String> a = s.async();
            for (int t = 0; t < 4; t++) {
                Queue<String> order = new ConcurrentLinkedQueue<>();
                pause(100);
                for (int i = 0; i < 3; i++) {
                    a.get("k").thenAccept(v -> order.add("GET " + BIG.equals(v)));
                }
                a.multi().thenAccept(v -> order.add("MULTI"));
                a.set("t", BIG).thenAccept(v -> order.add("SET"));
                a.get("t").thenAccept(v -> order.add("GET t " + BIG.equals(v)));
                a.lpush("t", "x").whenComplete((v, e) -> order.add("LPUSH " + (e == null ? v
                        : e.getClass().getSimpleName())));
                a.mget("t", "t2").thenAccept(v -> order.add("MGET " + BIG.equals(v.get(0).getValue())));
                TransactionResult tx = a.exec().thenApply(r -> {
                    order.add("EXEC");
                    return r;
                }).toCompletableFuture().get(5, TimeUnit.SECONDS);
                List<String> seen = List.copyOf(order);
                if (t == 0) {
                    out.add(tx.wasDiscarded());
                    out.add(tx.stream().map(o -> BIG.equals(o) ? "BIG" : o instanceof Exception e
                            ? e.getClass().getSimpleName() : o instanceof List<?> l ? "list " + l.size()
                            : String.valueOf(o)).toList());
                }
                out.add(seen);
            }
            // WATCH conflict: EXEC runs nothing, its result is discarded; the queued commands' futures end
            try (StatefulRedisConnection<String, String> other = redis.client().connect(StringCodec.UTF8)) {
                a.watch("t").get(5, TimeUnit.SECONDS);
                other.sync().set("t", "changed");
                a.multi().get(5, TimeUnit.SECONDS);
                RedisFuture<String> get = a.get("k");
                RedisFuture<String> set = a.set("t", BIG);
                TransactionResult tx = a.exec().get(5, TimeUnit.SECONDS);
                out.add(tx.wasDiscarded() + " " + tx.size());
                out.add(outcome(get) + " " + outcome(set));
            }
            // DISCARD
            a.multi().get(5, TimeUnit.SECONDS);
            RedisFuture<String> set = a.set("d", BIG);
            out.add(a.discard().get(5, TimeUnit.SECONDS) + " " + outcome(set) + " " + a.get("d").get(5,
                    TimeUnit.SECONDS));
            // an error at queue time: EXEC fails with EXECABORT and runs nothing
            a.multi().get(5, TimeUnit.SECONDS);
            RedisFuture<String> queued = a.set("e", BIG);
            RedisFuture<String> bad = a.dispatch(() -> "NO.SUCH.COMMAND".getBytes(StandardCharsets.US_ASCII),
                    new io.lettuce.core.output.ValueOutput<>(StringCodec.UTF8));
            out.add(outcome(a.exec()) + " " + outcome(queued) + " " + outcome(bad) + " " + a.get("e").get(5,
                    TimeUnit.SECONDS));
            out.add(BIG.equals(a.get("k").get(5, TimeUnit.SECONDS)));
            return out;
        }, List.of(false, List.of("OK", "BIG", "RedisCommandExecutionException", "list 2"), INTX, INTX, INTX, INTX,
                "true 0", "null null", "OK null null", "RedisCommandExecutionException null "
                        + "RedisCommandExecutionException null", true));
    }

    /**
     * Commands batched with auto-flush off: nothing completes before flushCommands(), then all in order, also
     * behind a GET whose reply is still pending when the batch goes out. (Lettuce 7 has no reset() any more.)
     */
    @Test
    void batchesWithAutoFlushOffCompleteInOrder() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k");
            List<Object> out = new ArrayList<>();
            Queue<String> order = new ConcurrentLinkedQueue<>();
            s.c.setAutoFlushCommands(false);
            RedisFuture<String> set = s.async().set("b", BIG);
            set.thenAccept(v -> order.add("SET"));
            s.async().get("b").thenAccept(v -> order.add("GET b " + BIG.equals(v)));
            s.async().get("k").thenAccept(v -> order.add("GET k " + BIG.equals(v)));
            // waited on through its callback's stage: get() on the reply's future may return before the callbacks run
            CompletableFuture<Void> pinged = s.async().ping().thenAccept(order::add).toCompletableFuture();
            out.add(set.isDone());
            s.c.flushCommands();
            pinged.get(5, TimeUnit.SECONDS);
            out.add(List.copyOf(order));
            s.c.setAutoFlushCommands(true);
            // a batch whose replies come while earlier replies of compressed values are still pending
            pause(100);
            RedisFuture<String> first = s.async().get("k");
            first.thenAccept(v -> order.add("first GET"));
            s.c.setAutoFlushCommands(false);
            List<RedisFuture<String>> batch = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                RedisFuture<String> g = s.async().get("k");
                int n = i;
                g.thenAccept(v -> order.add("batch " + n + " " + BIG.equals(v)));
                batch.add(g);
            }
            s.c.flushCommands();
            s.c.setAutoFlushCommands(true);
            s.async().ping().thenAccept(order::add).toCompletableFuture().get(5, TimeUnit.SECONDS);
            out.add(List.copyOf(order));
            return out;
        }, List.of(false, List.of("SET", "GET b true", "GET k true", "PONG"), List.of("SET", "GET b true",
                "GET k true", "PONG", "first GET", "batch 0 true", "batch 1 true", "batch 2 true", "batch 3 true",
                "batch 4 true", "batch 5 true", "batch 6 true", "batch 7 true", "batch 8 true", "batch 9 true",
                "PONG")));
    }

    /**
     * A pub/sub connection made with the compressing codec: messages arrive in publishing order, on the thread
     * Lettuce's listeners run on, with the payloads a plain subscriber gets, including one that carries the shared
     * header but is no valid value (a truncated compressed value), which the codec hands over as it is.
     */
    @Test
    void pubSubListenersSeeTheSameMessagesOnTheSameThread() throws Exception {
        byte[] compressed = ValueCompressor.create(CompressionConfig.defaults())
                .compress(BIG.getBytes(StandardCharsets.UTF_8));
        byte[] truncated = Arrays.copyOf(compressed, compressed.length / 2);
        List<byte[]> payloads = List.of("one".getBytes(StandardCharsets.UTF_8), BIG.getBytes(StandardCharsets.UTF_8),
                truncated, "".getBytes(StandardCharsets.UTF_8), "last".getBytes(StandardCharsets.UTF_8));
        List<Object> expected = new ArrayList<>();
        for (byte[] p : payloads) {
            expected.add(new String(p, StandardCharsets.UTF_8).hashCode());
        }
        expected.add(Set.of("lettuce-nioEventLoop-N-N")); // Lettuce's event loop
        sameOnBoth(s -> () -> {
            io.lettuce.core.pubsub.StatefulRedisPubSubConnection<String, String> sub = s.kind == Kind.PLAIN
                    ? s.client.connectPubSub(StringCodec.UTF8) : s.client.connectPubSub(CompressingCodec.wrap(
                    StringCodec.UTF8, ValueCompressor.create(CompressionConfig.defaults())));
            try (sub) {
                Queue<Object> seen = new ConcurrentLinkedQueue<>();
                Queue<String> threads = new ConcurrentLinkedQueue<>();
                CountDownLatch all = new CountDownLatch(payloads.size());
                sub.addListener(new io.lettuce.core.pubsub.RedisPubSubAdapter<>() {
                    @Override
                    public void message(String channel, String message) {
                        seen.add(message.hashCode());
                        threads.add(Thread.currentThread().getName().replaceAll("[0-9]+", "N"));
                        all.countDown();
                    }
                });
                sub.sync().subscribe("news");
                byte[] channel = "news".getBytes(StandardCharsets.UTF_8);
                for (byte[] p : payloads) {
                    redis.raw().async().publish(channel, p);
                }
                assertTrue(all.await(5, TimeUnit.SECONDS), s.kind + ": every message arrives");
                List<Object> out = new ArrayList<>(seen);
                out.add(Set.copyOf(threads));
                return out;
            }
        }, expected);
    }

    /**
     * dispatch(...) behind GETs whose replies are pending: a built-in output's future, and a module command's custom
     * output (its set() callbacks and its future), come after the GETs' completions and before the next command's,
     * in reply order, whether the custom reply looks compressed or not.
     */
    @Test
    void dispatchedCommandsAndCustomOutputsKeepReplyOrder() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k");
            List<List<String>> wrong = new ArrayList<>();
            for (int t = 0; t < TRIALS; t++) {
                Queue<String> order = new ConcurrentLinkedQueue<>();
                RedisCodec<String, String> codec = s.codec;
                pause(100);
                List<CompletableFuture<?>> all = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    all.add(s.async().get("k").thenAccept(v -> order.add("GET " + BIG.equals(v)))
                            .toCompletableFuture());
                }
                all.add(s.async().dispatch(io.lettuce.core.protocol.CommandType.GET,
                        new io.lettuce.core.output.ValueOutput<>(codec), new io.lettuce.core.protocol.CommandArgs<>(
                                StringCodec.UTF8).addKey("k")).thenAccept(v -> order.add("dispatch GET " + BIG.equals(v)))
                        .toCompletableFuture());
                all.add(s.async().dispatch(() -> "GET".getBytes(StandardCharsets.US_ASCII), new ModuleOutput(codec,
                        order), new io.lettuce.core.protocol.CommandArgs<>(StringCodec.UTF8).addKey("k"))
                        .thenAccept(v -> order.add("module GET done")).toCompletableFuture());
                all.add(s.async().dispatch(() -> "ECHO".getBytes(StandardCharsets.US_ASCII), new ModuleOutput(codec,
                        order), new io.lettuce.core.protocol.CommandArgs<>(StringCodec.UTF8).addValue("hello"))
                        .thenAccept(v -> order.add("module ECHO done")).toCompletableFuture());
                all.add(s.async().ping().thenAccept(order::add).toCompletableFuture());
                CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get(5, TimeUnit.SECONDS);
                List<String> seen = List.copyOf(order);
                if (!seen.equals(List.of("GET true", "GET true", "GET true", "dispatch GET true",
                        "set " + BIG.length(), "module GET done", "set 5", "module ECHO done", "PONG"))) {
                    wrong.add(seen);
                }
            }
            return wrong;
        }, List.of());
    }

    /** A module's output that throws as the reply is decoded: its future fails with that, later commands go on. */
    @Test
    void aCustomOutputThatThrowsFailsItsCommandAsOnLettuce() throws Exception {
        sameOnBoth(s -> () -> {
            store(s, "k");
            List<Object> out = new ArrayList<>();
            RedisCodec<String, String> codec = s.codec;
            for (boolean behind : List.of(false, true)) {
                pause(100);
                List<RedisFuture<String>> gets = new ArrayList<>();
                for (int i = 0; behind && i < 3; i++) {
                    gets.add(s.async().get("k"));
                }
                RedisFuture<String> thrown = s.async().dispatch(() -> "GET".getBytes(StandardCharsets.US_ASCII),
                        new io.lettuce.core.output.CommandOutput<>(codec, null) {
                            @Override
                            public void set(java.nio.ByteBuffer bytes) {
                                throw new IllegalStateException("module output refuses");
                            }
                        }, new io.lettuce.core.protocol.CommandArgs<>(StringCodec.UTF8).addKey("k"));
                RedisFuture<String> next = s.async().get("k");
                out.add(outcome(thrown) + " " + outcome(next) + " " + gets.stream().map(LettuceContractTest::outcome)
                        .toList());
            }
            return out;
        }, List.of("IllegalStateException BIG []", "IllegalStateException BIG [BIG, BIG, BIG]"));
    }

    /** A module's output: tells the application of each bulk value as the reply is decoded. */
    static final class ModuleOutput extends io.lettuce.core.output.CommandOutput<String, String, String> {
        private final Queue<String> order;

        ModuleOutput(RedisCodec<String, String> codec, Queue<String> order) {
            super(codec, null);
            this.order = order;
        }

        @Override
        public void set(java.nio.ByteBuffer bytes) {
            output = bytes == null ? null : codec.decodeValue(bytes);
            order.add("set " + (output == null ? "null" : output.length()));
        }
    }

    /** The order of a transaction's completions behind three GETs. */
    static final List<String> INTX = List.of("GET true", "GET true", "GET true", "MULTI", "SET", "GET t true",
            "LPUSH RedisCommandExecutionException", "MGET true", "EXEC");

    // What a future ended with: its value (BIG for the big value), the simple name of its failure, or "pending".
    static String outcome(RedisFuture<?> f) {
        try {
            Object v = f.get(2, TimeUnit.SECONDS);
            return BIG.equals(v) ? "BIG" : String.valueOf(v);
        } catch (ExecutionException e) {
            return e.getCause().getClass().getSimpleName();
        } catch (java.util.concurrent.CancellationException e) {
            return "cancelled";
        } catch (Exception e) {
            return "pending";
        }
    }

    /**
     * The client shut down while many large compressed replies are read and decoded (early, midway, late in the
     * burst): every future completes, with its value or exceptionally (Lettuce's {@code RedisException}), as on
     * Lettuce; none is left pending.
     */
    @Test
    void shuttingDownWhileRepliesAreDecodedLeavesNoFuturePending() throws Exception {
        for (int shutDownAfter : new int[] {0, 20, 150}) {
            for (Kind kind : Kind.values()) {
                String outcome = shutDownWhileDecoding(kind, shutDownAfter);
                System.out.println("shut down after reply " + shutDownAfter + ", " + kind + ": " + outcome);
                assertFalse(outcome.contains("pending"), kind + ", shut down after reply " + shutDownAfter
                        + ": futures left pending: " + outcome);
            }
        }
    }

    // Sends 300 GETs of a large compressed value, shuts the client down once reply shutDownAfter is in, and returns
    // how many futures ended how (given 30 s together).
    private static String shutDownWhileDecoding(Kind kind, int shutDownAfter) throws Exception {
        String value = TestValues.json(256 * 1024);
        RedisClient client = kind == Kind.PLAIN ? RedisClient.create(redis.uri())
                : CompressingRedisClient.create(redis.uri());
        try {
            List<RedisFuture<String>> gets = bigGets(kind, client, value).gets;
            gets.get(shutDownAfter).await(30, TimeUnit.SECONDS);
            client.shutdownAsync(0, 2, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
            return outcomes(gets, value, 30).toString();
        } finally {
            client.shutdownAsync(0, 2, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Only the {@code ClientResources} shut down (not the client first) just after the first of many large compressed
     * replies is in: every future of the compressing client completes, with its value or exceptionally, and the
     * connection says it is closed, over {@value #RESOURCE_SHUTDOWNS} runs. On Netty 4.2 an event loop that sees the
     * shutdown while it runs its tasks ends without closing its channels (Lettuce is never told the channel is
     * inactive, and its commands stay pending); the compressing client tells Lettuce itself. Plain Lettuce meets that
     * end too, rarely in this scenario: its count is printed, not asserted (Lettuce's own race; the compressing
     * client must be no worse, and it leaves none).
     */
    @Test
    void shuttingDownOnlyTheResourcesLeavesNoFuturePending() throws Exception {
        String value = TestValues.json(256 * 1024);
        for (Kind kind : Kind.values()) {
            List<String> stranded = new ArrayList<>();
            for (int run = 0; run < RESOURCE_SHUTDOWNS; run++) {
                String outcome = shutDownResourcesWhileReading(kind, value);
                if (outcome.contains("pending") || outcome.contains("open")) {
                    stranded.add(outcome);
                }
            }
            System.out.println("resources shut down under " + kind + ": " + stranded.size() + " of "
                    + RESOURCE_SHUTDOWNS + " runs left futures pending " + stranded);
            if (kind == Kind.COMPRESSING) {
                assertEquals(List.of(), stranded, "runs that left futures pending or the connection open");
            }
        }
    }

    static final int RESOURCE_SHUTDOWNS = 12;

    /** A connection of a client without auto-reconnect, and its 300 GETs of a large value, sent at once. */
    record BigGets(StatefulRedisConnection<String, String> connection, List<RedisFuture<String>> gets) {
    }

    private static BigGets bigGets(Kind kind, RedisClient client, String value) {
        client.setOptions(ClientOptions.builder().autoReconnect(false).build());
        StatefulRedisConnection<String, String> c = kind == Kind.PLAIN ? client.connect(StringCodec.UTF8)
                : ((CompressingRedisClient) client).connect(StringCodec.UTF8,
                ValueCompressor.create(CompressionConfig.defaults()));
        c.sync().set("shutdown-big", value);
        List<RedisFuture<String>> gets = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            gets.add(c.async().get("shutdown-big"));
        }
        return new BigGets(c, gets);
    }

    // How many of the futures ended how: "value", the exception's class, or "pending" (given seconds together).
    private static Map<String, Integer> outcomes(List<RedisFuture<String>> gets, String value, int seconds)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Map<String, Integer> outcomes = new java.util.TreeMap<>();
        for (RedisFuture<String> f : gets) {
            String o;
            try {
                String v = f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                o = value.equals(v) ? "value" : "another value";
            } catch (ExecutionException e) {
                o = e.getCause().getClass().getSimpleName();
            } catch (TimeoutException e) {
                o = "pending";
            }
            outcomes.merge(o, 1, Integer::sum);
        }
        return outcomes;
    }

    // Sends 300 GETs of a large compressed value on a client of its own resources, shuts only the resources down once
    // the first reply is in, and returns how many futures ended how (given 10 s together), and "open" if the
    // connection still says so.
    private static String shutDownResourcesWhileReading(Kind kind, String value) throws Exception {
        ClientResources resources = DefaultClientResources.create();
        RedisClient client = kind == Kind.PLAIN ? RedisClient.create(resources, redis.uri())
                : CompressingRedisClient.create(resources, redis.uri());
        BigGets big = bigGets(kind, client, value);
        big.gets.get(0).await(30, TimeUnit.SECONDS);
        resources.shutdown(0, 2, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        String outcome = outcomes(big.gets, value, 10) + (big.connection.isOpen() ? " open" : "");
        try {
            client.shutdownAsync(0, 1, TimeUnit.SECONDS).get(5, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            outcome += ", the client's shutdown did not end in 5 s";
        }
        return outcome;
    }

    /**
     * A reply the application's codec cannot decode (it throws) behind replies still being decoded: its command fails
     * after theirs complete, in reply order, as on Lettuce, which decodes and completes every reply on the event loop.
     */
    @Test
    void aReplyTheApplicationsCodecRefusesFailsInReplyOrder() throws Exception {
        RedisCodec<String, String> refusing = new Utf8Codec() {
            @Override
            public String decodeValue(ByteBuffer bytes) {
                String v = super.decodeValue(bytes);
                if ("boom".equals(v)) {
                    throw new IllegalArgumentException("the application's codec refuses boom");
                }
                return v;
            }
        };
        for (Kind k : Kind.values()) {
            Side s = side(k, CompressionConfig.defaults(), null, ClientOptions.builder().build(), refusing);
            List<String> wrong = within(s, 60, () -> {
                store(s, "k1", "k2", "k3");
                assertEquals("OK", s.async().set("boom", "boom").get(5, TimeUnit.SECONDS));
                List<String> w = new ArrayList<>();
                for (int t = 0; t < TRIALS; t++) {
                    Queue<String> order = new ConcurrentLinkedQueue<>();
                    pause(100);
                    List<CompletableFuture<String>> all = new ArrayList<>();
                    for (String key : List.of("k1", "k2", "k3", "boom")) {
                        all.add(s.async().get(key).whenComplete((v, e) -> order.add(key + " " + (e != null
                                ? e.getClass().getSimpleName() : BIG.equals(v) ? "BIG" : v))).toCompletableFuture());
                    }
                    for (CompletableFuture<String> f : all) {
                        f.handle((v, e) -> v).get(5, TimeUnit.SECONDS); // its callback has run
                    }
                    List<String> seen = List.copyOf(order);
                    if (!seen.equals(List.of("k1 BIG", "k2 BIG", "k3 BIG", "boom IllegalArgumentException"))) {
                        w.add(seen.toString());
                    }
                }
                return w;
            });
            assertEquals(List.of(), wrong, k + ": completions out of reply order");
        }
    }

    /** The JSON parser of {@code ClientOptions} is the connection's, as on a connection of Lettuce's own. */
    @Test
    void theConnectionsJsonParserIsTheClientOptionsOne() {
        io.lettuce.core.json.JsonParser mine = (io.lettuce.core.json.JsonParser) java.lang.reflect.Proxy
                .newProxyInstance(getClass().getClassLoader(), new Class<?>[] {io.lettuce.core.json.JsonParser.class},
                        (proxy, method, args) -> switch (method.getName()) {
                            case "toString" -> "the application's JSON parser";
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            default -> throw new UnsupportedOperationException(method.getName());
                        });
        ClientOptions options = ClientOptions.builder().jsonParser(() -> mine).build();
        List<String> parsers = new ArrayList<>();
        for (Kind k : Kind.values()) {
            Side s = side(k, CompressionConfig.defaults(), null, options);
            String parser;
            try {
                io.lettuce.core.json.JsonParser p = s.c.sync().getJsonParser();
                parser = p == mine ? "the application's" : "another: " + p;
            } catch (LinkageError e) {
                parser = "Lettuce's default, which fails without Jackson: " + e; // the test has no Jackson
            }
            parsers.add(k + " " + parser);
        }
        assertEquals(List.of("PLAIN the application's", "COMPRESSING the application's"), parsers);
    }

    // ------------------------------------------------------------------------------------ 5. large values' memory

    /**
     * A 50 MB value, SET and read back, in a child JVM: plain Lettuce at -Xmx250m, the compressing client at 10% more,
     * both with the same MaxDirectMemorySize; String (compressible and random letters) and byte[] (random) values.
     */
    @Test
    void aLargeValueNeedsTheHeapLettuceNeedsPlusTenPercent() throws Exception {
        for (String value : List.of("string-text", "string-random", "bytes-random")) {
            String plain = child("plain", value, 250);
            assertEquals("OK", plain, "plain Lettuce at -Xmx250m, " + value);
            String compressing = child("compressing", value, 275);
            assertEquals("OK", compressing, "the compressing client at -Xmx275m, " + value);
        }
    }

    static final int LARGE = 50 * 1024 * 1024;

    private static String child(String kind, String value, int heapMb) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = Files.createTempFile("large-value", ".log");
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xmx" + heapMb + "m",
                "-XX:MaxDirectMemorySize=512m", "-cp", System.getProperty("java.class.path"),
                LettuceContractTest.class.getName(), kind, value, redis.uri().getHost(),
                String.valueOf(redis.uri().getPort()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), () -> "the child did not end within 120 s");
            List<String> lines = Files.readAllLines(log);
            return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1).startsWith("OK") ? "OK"
                    : String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    /** Child JVM: SET and GET one 50 MB value of the kind given, print OK when it reads back equal. */
    public static void main(String[] args) throws Exception {
        boolean compressing = args[0].equals("compressing");
        RedisURI uri = RedisURI.create(args[2], Integer.parseInt(args[3]));
        RedisClient client = compressing ? CompressingRedisClient.create(uri) : RedisClient.create(uri);
        try {
            byte[] bytes = new byte[LARGE];
            Random r = new Random(42);
            if (args[1].equals("string-text")) {
                byte[] text = TestValues.json(64 * 1024).getBytes(StandardCharsets.ISO_8859_1);
                for (int i = 0; i < LARGE; i += text.length) {
                    System.arraycopy(text, 0, bytes, i, Math.min(text.length, LARGE - i));
                }
            } else if (args[1].equals("string-random")) {
                for (int i = 0; i < LARGE; i++) {
                    bytes[i] = (byte) ('a' + r.nextInt(26));
                }
            } else {
                r.nextBytes(bytes);
            }
            if (args[1].startsWith("string")) {
                String v = new String(bytes, StandardCharsets.ISO_8859_1);
                bytes = null;
                System.out.println(roundTrip(client, compressing, StringCodec.UTF8, "large", v));
            } else {
                System.out.println(roundTrip(client, compressing, ByteArrayCodec.INSTANCE, new byte[] {'k'}, bytes));
            }
        } catch (Throwable e) {
            System.out.println("FAILED " + e);
        } finally {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
        System.exit(0);
    }

    private static <K, V> String roundTrip(RedisClient client, boolean compressing, RedisCodec<K, V> codec, K key,
                                           V v) {
        try (StatefulRedisConnection<K, V> c = compressing
                ? ((CompressingRedisClient) client).connect(codec, ValueCompressor.create(CompressionConfig.builder()
                .maxDecompressedSize(2L * LARGE).build()))
                : client.connect(codec)) {
            c.setTimeout(Duration.ofSeconds(60));
            c.sync().set(key, v);
            V back = c.sync().get(key);
            boolean equal = v instanceof byte[] b ? Arrays.equals(b, (byte[]) back) : v.equals(back);
            return equal ? "OK" : "DIFFERENT";
        }
    }
}
