package dev.zstdjava.bench.e2e;

import dev.zstdjava.lettuce.CompressingRedisClient;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.redisson.CompressingRedissonCodec;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.redisson.Redisson;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.Codec;
import org.redisson.config.Config;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ./e2e --probe-event-loop}: what compression costs the threads that every caller of a connection shares. For
 * each client, {@code --threads} application threads (platform threads, 16 by default) share one client and run
 * three phases on ~2 KiB JSON values: sync {@code SET}, sync {@code GET} (checked against what was written), and
 * async pipelines of 20 {@code SET}s (each thread queues 20, then waits for them). Per phase it reports the CPU time
 * and the heap allocation of the client's event-loop threads ({@link EventLoopThreads}) per command, the process CPU
 * per command and the throughput, the median of {@code --rounds} rounds, and the ratio of each compressing client
 * to its plain twin.
 *
 * <p>The clients go through the APIs applications call (not the {@code AsyncCommand}s the matrix dispatches):
 * Lettuce's sync and async commands on one shared connection ({@code lettuce}: a plain {@code RedisClient};
 * {@code lettuce-zstd}: {@code CompressingRedisClient} with {@code CompressingCodec}; {@code lettuce-zstd-caller}:
 * a plain connection with {@link ValueCompressor} on the calling thread), and Redisson's {@code RBucket} and
 * {@code RBatch} ({@code redisson}: {@code ByteArrayCodec}; {@code redisson-zstd}: {@code CompressingRedissonCodec}
 * around it; {@code redisson-zstd-caller}: {@code ByteArrayCodec} with {@link ValueCompressor} on the calling thread),
 * Redisson with its default pool of connections.
 */
final class EventLoopProbe {
    static final int PIPELINE = 20;
    /** Target of the Lettuce change: event-loop CPU per command, transparent zstd ÷ plain Lettuce, every phase */
    static final double LOOP_TARGET = 1.15;
    private static final int KEYS = 1000;
    private static final long TIMEOUT_S = 60;
    private static final CompressionConfig ZSTD_3 =
            CompressionConfig.builder().backend(CompressionBackend.ZSTD).level(3).build();

    private EventLoopProbe() {}

    /** One client as the probe drives it; every method is called by many threads at once. */
    interface Subject extends AutoCloseable {
        void set(byte[] key, byte[] value) throws Exception;

        byte[] get(byte[] key) throws Exception;

        /** Sends {@code keys.length} SETs as one pipeline and waits for every reply. */
        void setPipeline(byte[][] keys, byte[][] values) throws Exception;

        EventLoopThreads.Family loops();

        @Override
        void close();
    }

    enum Phase {
        SET("sync SET"), GET("sync GET"), PIPELINED_SET("async pipelines of " + PIPELINE + " SETs");

        final String label;

        Phase(String label) {
            this.label = label;
        }
    }

    /** A phase's figures: per command. */
    record Measure(long ops, double seconds, double loopCpuMicros, double loopAllocBytes, double processCpuMicros) {
        double opsPerSec() {
            return seconds == 0 ? 0 : ops / seconds;
        }
    }

    /** The clients the probe compares, in the order it runs them; each compressing one names its plain twin. */
    static final List<String> CLIENTS = List.of("lettuce", "lettuce-zstd", "lettuce-zstd-parallel", "lettuce-zstd-loop", "lettuce-zstd-caller", "spring-lettuce",
            "spring-lettuce-zstd", "spring-jedis-zstd", "jedis", "jedis-zstd", "redisson", "redisson-zstd",
            "redisson-zstd-caller");

    /** What each client is, for the report. */
    static final Map<String, String> DESCRIPTIONS = Map.ofEntries(
            Map.entry("lettuce", "plain RedisClient, ByteArrayCodec, one connection"),
            Map.entry("lettuce-zstd", "CompressingRedisClient + CompressingCodec (zstd 3), one connection"),
            Map.entry("lettuce-zstd-parallel", "as lettuce-zstd, every reply with a compressed value decoded off the "
                    + "loop (-Dzstdjava.lettuce.replies=parallel)"),
            Map.entry("lettuce-zstd-loop", "as lettuce-zstd, replies decoded on the event loop "
                    + "(-Dzstdjava.lettuce.replies=loop)"),
            Map.entry("lettuce-zstd-caller", "plain RedisClient, ByteArrayCodec, ValueCompressor (zstd 3) on the "
                    + "calling thread"),
            Map.entry("spring-lettuce", "RedisTemplate (byte-array values) over LettuceConnectionFactory (one shared "
                    + "connection)"),
            Map.entry("spring-lettuce-zstd", "CompressingRedisTemplate (zstd 3) over LettuceConnectionFactory"),
            Map.entry("spring-jedis-zstd", "CompressingRedisTemplate (zstd 3) over JedisConnectionFactory (a pool)"),
            Map.entry("jedis", "Jedis RedisClient (a pool)"),
            Map.entry("jedis-zstd", "Jedis RedisClient, ValueCompressor (zstd 3) around the byte[] commands"),
            Map.entry("redisson", "RBucket/RBatch with ByteArrayCodec (Redisson's default pool)"),
            Map.entry("redisson-zstd", "RBucket/RBatch with CompressingRedissonCodec (zstd 3) around ByteArrayCodec"),
            Map.entry("redisson-zstd-caller", "RBucket/RBatch with ByteArrayCodec, ValueCompressor (zstd 3) on the "
                    + "calling thread"));

    /** @return the client without compression that {@code client} is compared with */
    static String twin(String client) {
        String family = client.replaceFirst("-zstd.*$", "");
        return family.equals("spring-jedis") ? "jedis" : family;
    }

    static Subject open(String client, String host, int port) {
        RedisURI uri = RedisURI.create(host, port);
        return switch (client) {
            case "lettuce" -> LettuceSubject.plain(RedisClient.create(uri), null);
            case "lettuce-zstd" -> LettuceSubject.compressing(CompressingRedisClient.create(uri),
                    ValueCompressor.create(ZSTD_3));
            case "lettuce-zstd-parallel", "lettuce-zstd-loop" -> Clients.repliesDecoded(
                    client.substring("lettuce-zstd-".length()), () -> LettuceSubject.compressing(
                            CompressingRedisClient.create(uri), ValueCompressor.create(ZSTD_3)));
            case "lettuce-zstd-caller" -> LettuceSubject.plain(RedisClient.create(uri), ValueCompressor.create(ZSTD_3));
            case "spring-lettuce" -> SpringSubject.lettuce(host, port, null);
            case "spring-lettuce-zstd" -> SpringSubject.lettuce(host, port, ValueCompressor.create(ZSTD_3));
            case "spring-jedis-zstd" -> SpringSubject.jedis(host, port, ValueCompressor.create(ZSTD_3));
            case "jedis" -> new JedisSubject(host, port, null);
            case "jedis-zstd" -> new JedisSubject(host, port, ValueCompressor.create(ZSTD_3));
            case "redisson" -> new RedissonSubject(host, port, org.redisson.client.codec.ByteArrayCodec.INSTANCE, null);
            case "redisson-zstd" -> new RedissonSubject(host, port,
                    new CompressingRedissonCodec(org.redisson.client.codec.ByteArrayCodec.INSTANCE, ZSTD_3), null);
            case "redisson-zstd-caller" -> new RedissonSubject(host, port,
                    org.redisson.client.codec.ByteArrayCodec.INSTANCE, ValueCompressor.create(ZSTD_3));
            default -> throw new IllegalArgumentException("unknown probe client '" + client + "'; known: " + CLIENTS);
        };
    }

    /** One Lettuce connection shared by every thread (Lettuce's model), through its sync and async APIs. */
    static final class LettuceSubject implements Subject {
        private final RedisClient client;
        private final StatefulRedisConnection<byte[], byte[]> conn;
        private final RedisCommands<byte[], byte[]> sync;
        private final RedisAsyncCommands<byte[], byte[]> async;
        private final ValueCompressor callerSide;

        private LettuceSubject(RedisClient client, StatefulRedisConnection<byte[], byte[]> conn,
                               ValueCompressor callerSide) {
            this.client = client;
            this.conn = conn;
            this.sync = conn.sync();
            this.async = conn.async();
            this.callerSide = callerSide;
        }

        /** A {@code ByteArrayCodec} connection; values compressed on the caller's thread when {@code callerSide}. */
        static LettuceSubject plain(RedisClient client, ValueCompressor callerSide) {
            return new LettuceSubject(client, client.connect(ByteArrayCodec.INSTANCE), callerSide);
        }

        /** The policy client's compressing connection. */
        static LettuceSubject compressing(CompressingRedisClient client, ValueCompressor values) {
            return new LettuceSubject(client, client.connect(ByteArrayCodec.INSTANCE, values), null);
        }

        @Override
        public void set(byte[] key, byte[] value) {
            sync.set(key, callerSide == null ? value : callerSide.compress(value));
        }

        @Override
        public byte[] get(byte[] key) {
            byte[] v = sync.get(key);
            return callerSide == null || v == null ? v : callerSide.decompress(v);
        }

        @Override
        public void setPipeline(byte[][] keys, byte[][] values) {
            List<RedisFuture<String>> fs = new ArrayList<>(keys.length);
            for (int i = 0; i < keys.length; i++) {
                fs.add(async.set(keys[i], callerSide == null ? values[i] : callerSide.compress(values[i])));
            }
            if (!LettuceFutures.awaitAll(Duration.ofSeconds(TIMEOUT_S), fs.toArray(new RedisFuture[0]))) {
                throw new IllegalStateException("a pipeline of SETs did not complete in " + TIMEOUT_S + " s");
            }
        }

        @Override
        public EventLoopThreads.Family loops() {
            return EventLoopThreads.Family.LETTUCE;
        }

        @Override
        public void close() {
            conn.close();
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    /**
     * Spring Data Redis: a {@code RedisTemplate} (plain, byte-array serializers) or a {@code CompressingRedisTemplate}
     * (its value serializer compresses on the calling thread) over Spring's Lettuce connection factory (one shared
     * native connection, Spring's default) or its Jedis one (a pool; blocking I/O on the calling thread).
     * Pipelines: {@code executePipelined} with a {@code SessionCallback}.
     */
    static final class SpringSubject implements Subject {
        private final Runnable destroy;
        private final org.springframework.data.redis.core.RedisTemplate<String, byte[]> template;
        private final EventLoopThreads.Family loops;

        private SpringSubject(org.springframework.data.redis.connection.RedisConnectionFactory factory,
                              Runnable destroy, ValueCompressor compressor, EventLoopThreads.Family loops) {
            this.destroy = destroy;
            this.loops = loops;
            var bytes = org.springframework.data.redis.serializer.RedisSerializer.byteArray();
            if (compressor != null) {
                this.template = dev.zstdjava.values.spring.CompressingRedisTemplate.create(factory, bytes, compressor);
            } else {
                var t = new org.springframework.data.redis.core.RedisTemplate<String, byte[]>();
                t.setConnectionFactory(factory);
                t.setKeySerializer(org.springframework.data.redis.serializer.RedisSerializer.string());
                t.setValueSerializer(bytes);
                t.afterPropertiesSet();
                this.template = t;
            }
        }

        static SpringSubject lettuce(String host, int port, ValueCompressor compressor) {
            var f = new org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory(host, port);
            f.afterPropertiesSet();
            f.start();
            return new SpringSubject(f, f::destroy, compressor, EventLoopThreads.Family.LETTUCE);
        }

        static SpringSubject jedis(String host, int port, ValueCompressor compressor) {
            var f = new org.springframework.data.redis.connection.jedis.JedisConnectionFactory(
                    new org.springframework.data.redis.connection.RedisStandaloneConfiguration(host, port));
            f.afterPropertiesSet();
            f.start();
            return new SpringSubject(f, f::destroy, compressor, EventLoopThreads.Family.NONE);
        }

        @Override
        public void set(byte[] key, byte[] value) {
            template.opsForValue().set(new String(key, StandardCharsets.US_ASCII), value);
        }

        @Override
        public byte[] get(byte[] key) {
            return template.opsForValue().get(new String(key, StandardCharsets.US_ASCII));
        }

        @Override
        public void setPipeline(byte[][] keys, byte[][] values) {
            template.executePipelined(new org.springframework.data.redis.core.SessionCallback<Object>() {
                @Override
                @SuppressWarnings("unchecked")
                public <K, V> Object execute(org.springframework.data.redis.core.RedisOperations<K, V> ops) {
                    var o = (org.springframework.data.redis.core.RedisOperations<String, byte[]>) ops;
                    for (int i = 0; i < keys.length; i++) {
                        o.opsForValue().set(new String(keys[i], StandardCharsets.US_ASCII), values[i]);
                    }
                    return null;
                }
            });
        }

        @Override
        public EventLoopThreads.Family loops() {
            return loops;
        }

        @Override
        public void close() {
            destroy.run();
        }
    }

    /** Jedis 8's pooled {@code RedisClient} (blocking I/O on the calling thread), {@link ValueCompressor} around it. */
    static final class JedisSubject implements Subject {
        private final redis.clients.jedis.RedisClient jedis;
        private final ValueCompressor compressor;

        JedisSubject(String host, int port, ValueCompressor compressor) {
            this.jedis = redis.clients.jedis.RedisClient.create(host, port);
            this.compressor = compressor;
        }

        @Override
        public void set(byte[] key, byte[] value) {
            jedis.set(key, compressor == null ? value : compressor.compress(value));
        }

        @Override
        public byte[] get(byte[] key) {
            byte[] v = jedis.get(key);
            return compressor == null || v == null ? v : compressor.decompress(v);
        }

        @Override
        public void setPipeline(byte[][] keys, byte[][] values) {
            try (var p = jedis.pipelined()) {
                for (int i = 0; i < keys.length; i++) {
                    p.set(keys[i], compressor == null ? values[i] : compressor.compress(values[i]));
                }
                p.sync();
            }
        }

        @Override
        public EventLoopThreads.Family loops() {
            return EventLoopThreads.Family.NONE;
        }

        @Override
        public void close() {
            jedis.close();
        }
    }

    /** One Redisson client (its default connection pool) shared by every thread, through RBucket and RBatch. */
    static final class RedissonSubject implements Subject {
        private final RedissonClient redisson;
        private final Codec codec;
        private final ValueCompressor callerSide;

        RedissonSubject(String host, int port, Codec codec, ValueCompressor callerSide) {
            Config config = new Config();
            config.useSingleServer().setAddress("redis://" + host + ":" + port);
            config.setCodec(codec);
            this.redisson = Redisson.create(config);
            this.codec = codec;
            this.callerSide = callerSide;
        }

        private static String name(byte[] key) {
            return new String(key, StandardCharsets.US_ASCII);
        }

        @Override
        public void set(byte[] key, byte[] value) {
            redisson.<byte[]>getBucket(name(key), codec).set(callerSide == null ? value : callerSide.compress(value));
        }

        @Override
        public byte[] get(byte[] key) {
            byte[] v = redisson.<byte[]>getBucket(name(key), codec).get();
            return callerSide == null || v == null ? v : callerSide.decompress(v);
        }

        @Override
        public void setPipeline(byte[][] keys, byte[][] values) {
            RBatch batch = redisson.createBatch();
            for (int i = 0; i < keys.length; i++) {
                batch.<byte[]>getBucket(name(keys[i]), codec)
                        .setAsync(callerSide == null ? values[i] : callerSide.compress(values[i]));
            }
            batch.execute();
        }

        @Override
        public EventLoopThreads.Family loops() {
            return EventLoopThreads.Family.REDISSON;
        }

        @Override
        public void close() {
            redisson.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    /**
     * Runs the probe against {@code host}:{@code port}, writes the Markdown report to {@code out} and prints it.
     *
     * @return the number of GETs that did not return what was written
     */
    static long run(String host, int port, byte[][] values, String valuesDesc, int threads, double seconds,
                    int rounds, List<String> clients, Path out, String setup, PrintStream err) throws Exception {
        if (!EventLoopThreads.supported()) {
            throw new IllegalStateException("this JVM does not measure per-thread CPU time and allocation");
        }
        byte[][] keys = new byte[KEYS][];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = (Bench.KEY_PREFIX + "probe:" + i).getBytes(StandardCharsets.US_ASCII);
        }
        Map<String, Map<Phase, List<Measure>>> all = new LinkedHashMap<>();
        AtomicLong mismatches = new AtomicLong();
        for (String c : clients) {
            all.put(c, new LinkedHashMap<>());
        }
        for (int round = 1; round <= rounds; round++) {
            for (String c : clients) {
                try (Subject s = open(c, host, port)) {
                    // unmeasured: warm the JIT and the connections
                    for (Phase p : Phase.values()) {
                        measure(s, p, keys, values, threads, Math.min(seconds, 1.0), mismatches);
                    }
                    for (Phase p : Phase.values()) {
                        Measure m = measure(s, p, keys, values, threads, seconds, mismatches);
                        all.get(c).computeIfAbsent(p, x -> new ArrayList<>()).add(m);
                        err.printf(Locale.ROOT, "e2e probe: round %d/%d %-21s %-30s loop %7.2f µs/cmd %8.0f B/cmd, "
                                        + "process %6.2f µs/cmd, %,9.0f cmd/s%n", round, rounds, c, p.label,
                                m.loopCpuMicros(), m.loopAllocBytes(), m.processCpuMicros(), m.opsPerSec());
                    }
                }
            }
        }
        String md = report(all, threads, seconds, rounds, valuesDesc, setup, mismatches.get());
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md, StandardCharsets.UTF_8);
        err.println(md);
        return mismatches.get();
    }

    private static Measure measure(Subject s, Phase phase, byte[][] keys, byte[][] values, int threads,
                                   double seconds, AtomicLong mismatches) throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        AtomicLong next = new AtomicLong();
        AtomicLong ops = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        long[] end = new long[1];
        for (int t = 0; t < threads; t++) {
            ts.add(Thread.ofPlatform().name("probe-app-" + t).start(() -> {
                byte[][] k = new byte[PIPELINE][];
                byte[][] v = new byte[PIPELINE][];
                try {
                    start.await();
                    long n = 0;
                    // every key once at least (the GET phase reads what the SET phase wrote), then until the time is up
                    while (true) {
                        int batch = phase == Phase.PIPELINED_SET ? PIPELINE : 1;
                        long idx = next.getAndAdd(batch);
                        if (idx >= KEYS && System.nanoTime() >= end[0]) {
                            break;
                        }
                        for (int j = 0; j < batch; j++) {
                            int key = (int) ((idx + j) % KEYS);
                            k[j] = keys[key];
                            v[j] = values[key % values.length];
                        }
                        switch (phase) {
                            case SET -> s.set(k[0], v[0]);
                            case GET -> {
                                byte[] got = s.get(k[0]);
                                if (!Arrays.equals(got, v[0])) {
                                    mismatches.incrementAndGet();
                                }
                            }
                            case PIPELINED_SET -> s.setPipeline(k, v);
                        }
                        n += batch;
                    }
                    ops.addAndGet(n);
                } catch (Throwable e) {
                    synchronized (failure) {
                        failure[0] = e;
                    }
                }
            }));
        }
        EventLoopThreads.Snapshot loop0 = EventLoopThreads.snapshot(s.loops());
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        end[0] = t0 + (long) (seconds * 1e9);
        start.countDown();
        for (Thread t : ts) {
            t.join();
        }
        long nanos = System.nanoTime() - t0;
        long cpu = os.getProcessCpuTime() - cpu0;
        EventLoopThreads.Usage loop = EventLoopThreads.between(loop0, EventLoopThreads.snapshot(s.loops()));
        synchronized (failure) {
            if (failure[0] != null) {
                throw new IllegalStateException(phase.label + " failed: " + failure[0], failure[0]);
            }
        }
        long n = ops.get();
        return new Measure(n, nanos / 1e9, loop.cpuMicrosPer(n), loop.allocBytesPer(n), n == 0 ? Double.NaN
                : cpu / 1000.0 / n);
    }

    /** @return the median of {@code xs} (the mean of the two middle ones for an even count), NaN when empty */
    static double median(List<Double> xs) {
        if (xs.isEmpty()) {
            return Double.NaN;
        }
        double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int m = a.length / 2;
        return a.length % 2 == 1 ? a[m] : (a[m - 1] + a[m]) / 2;
    }

    private static String report(Map<String, Map<Phase, List<Measure>>> all, int threads, double seconds,
                                 int rounds, String valuesDesc, String setup, long mismatches) {
        StringBuilder md = new StringBuilder();
        md.append("# Event-loop probe\n\n").append(setup).append("\n\n");
        md.append(String.format(Locale.ROOT, "%d application threads share each client; values: %s; each phase at "
                + "least %.1f s after an unmeasured one; medians of %d round(s). Loop: CPU time (and heap allocation) "
                + "of the client's event-loop threads per command; ×plain: that ÷ the plain twin's (lettuce for the "
                + "Lettuce clients, redisson for Redisson's). Process: CPU time of the whole JVM per command. "
                + "GET mismatches: %d.%n%n", threads, valuesDesc, seconds, rounds, mismatches));
        md.append("| Client | What |\n|---|---|\n");
        for (String c : all.keySet()) {
            md.append("| ").append(c).append(" | ").append(DESCRIPTIONS.get(c)).append(" |\n");
        }
        md.append("\nLettuce, Spring over Lettuce: ").append(EventLoopThreads.Family.LETTUCE.description)
                .append(". Redisson: ").append(EventLoopThreads.Family.REDISSON.description).append(". Jedis, Spring "
                + "over Jedis: ").append(EventLoopThreads.Family.NONE.description).append(" (Loop n/a).\n\n");
        md.append("| Phase | Client | Loop µs/cmd | ×plain | Loop B/cmd | Process µs/cmd | cmd/s |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (Phase p : Phase.values()) {
            for (Map.Entry<String, Map<Phase, List<Measure>>> e : all.entrySet()) {
                List<Measure> ms = e.getValue().getOrDefault(p, List.of());
                double loop = median(ms.stream().map(Measure::loopCpuMicros).toList());
                List<Measure> plain = all.getOrDefault(twin(e.getKey()), Map.of()).getOrDefault(p, List.of());
                double base = median(plain.stream().map(Measure::loopCpuMicros).toList());
                md.append("| ").append(p.label).append(" | ").append(e.getKey())
                        .append(" | ").append(EndToEndReport.num(loop))
                        .append(" | ").append(e.getKey().equals(twin(e.getKey())) ? "—" : EndToEndReport.x(loop / base))
                        .append(" | ").append(EndToEndReport.num(median(ms.stream().map(Measure::loopAllocBytes).toList())))
                        .append(" | ").append(EndToEndReport.num(median(ms.stream().map(Measure::processCpuMicros).toList())))
                        .append(" | ").append(EndToEndReport.num(median(ms.stream().map(Measure::opsPerSec).toList())))
                        .append(" |\n");
            }
        }
        md.append("\nTarget: event-loop CPU per command of lettuce-zstd at most ")
                .append(String.format(Locale.ROOT, "%.2fx", LOOP_TARGET)).append(" lettuce's in every phase: ");
        List<String> parts = new ArrayList<>();
        boolean met = true;
        boolean measured = all.containsKey("lettuce") && all.containsKey("lettuce-zstd");
        for (Phase p : Phase.values()) {
            if (!measured) {
                break;
            }
            double r = median(all.get("lettuce-zstd").getOrDefault(p, List.of()).stream().map(Measure::loopCpuMicros)
                    .toList()) / median(all.get("lettuce").getOrDefault(p, List.of()).stream()
                    .map(Measure::loopCpuMicros).toList());
            met &= r <= LOOP_TARGET;
            parts.add(p.label + " " + EndToEndReport.x(r));
        }
        md.append(measured ? String.join(", ", parts) + " — " + EndToEndReport.verdict(met) : "not measured")
                .append(".\n");
        return md.toString();
    }
}
