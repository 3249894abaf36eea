package dev.zstdjava.bench.e2e;

import dev.zstdjava.lettuce.CompressingRedisClient;
import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.DictionaryStore;
import dev.zstdjava.values.PatternDecision;
import dev.zstdjava.values.PatternDictionaries;
import dev.zstdjava.values.TrainingEvent;
import dev.zstdjava.values.TrainingStats;
import dev.zstdjava.values.ValueCompressor;
import glide.api.GlideClient;
import glide.api.models.Batch;
import glide.api.models.GlideString;
import glide.api.models.configuration.CompressionConfiguration;
import glide.api.models.configuration.GlideClientConfiguration;
import glide.api.models.configuration.NodeAddress;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.CompressionCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The clients the benchmark compares, behind one blocking batch interface (callers are virtual threads). */
final class Clients {
    private static final long TIMEOUT_S = 60;

    private Clients() {}

    /** Every client in the comparison. {@code family} + {@code backend} pair a compressed client with its plain twin. */
    enum Kind {
        LETTUCE("lettuce", "Lettuce, no compression (baseline)", "lettuce", null),
        LETTUCE_ZSTD("lettuce-zstd", "Lettuce + zstd-java, zstd level 3", "lettuce", "zstd"),
        LETTUCE_LZ4("lettuce-lz4", "Lettuce + zstd-java, lz4 level 0", "lettuce", "lz4"),
        LETTUCE_ZSTD_PARALLEL("lettuce-zstd-parallel", "Lettuce + zstd-java, zstd level 3, every reply with a "
                + "compressed value decoded off the event loop (-Dzstdjava.lettuce.replies=parallel)", "lettuce", "zstd"),
        LETTUCE_ZSTD_LOOP("lettuce-zstd-loop", "Lettuce + zstd-java, zstd level 3, replies decoded on the event loop "
                + "(-Dzstdjava.lettuce.replies=loop)", "lettuce", "zstd"),
        LETTUCE_ZSTD_CALLER("lettuce-zstd-caller", "Lettuce + zstd-java, zstd level 3, compressed on the calling thread",
                "lettuce", "zstd"),
        LETTUCE_ZSTD_DICT("lettuce-zstd-dict", "Lettuce + zstd-java, zstd level 3 with a managed dictionary (trained on"
                + " the values it writes, published in the server)", "lettuce", "zstd"),
        LETTUCE_LZ4_CALLER("lettuce-lz4-caller", "Lettuce + zstd-java, lz4 level 0, compressed on the calling thread",
                "lettuce", "lz4"),
        LETTUCE_GZIP("lettuce-gzip", "Lettuce's own CompressionCodec, GZIP", "lettuce", "gzip"),
        GLIDE("glide", "Java GLIDE 2.5.2-rc1, no compression", "glide", null),
        GLIDE_ZSTD("glide-zstd", "Java GLIDE 2.5.2-rc1, zstd level 3", "glide", "zstd"),
        GLIDE_LZ4("glide-lz4", "Java GLIDE 2.5.2-rc1, lz4 level 0", "glide", "lz4");

        final String id;
        final String label;
        final String family;
        final String backend;

        Kind(String id, String label, String family, String backend) {
            this.id = id;
            this.label = label;
            this.family = family;
            this.backend = backend;
        }

        boolean glide() {
            return family.equals("glide");
        }

        /** @return whose event-loop threads carry this client's connection work */
        EventLoopThreads.Family eventLoops() {
            return glide() ? EventLoopThreads.Family.GLIDE : EventLoopThreads.Family.LETTUCE;
        }

        /** @return the same client without compression */
        Kind plainTwin() {
            return glide() ? GLIDE : LETTUCE;
        }

        static Kind byId(String id) {
            for (Kind k : values()) {
                if (k.id.equalsIgnoreCase(id.trim())) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown client '" + id + "'; known: lettuce, lettuce-zstd, "
                    + "lettuce-lz4, lettuce-zstd-parallel, lettuce-zstd-loop, lettuce-zstd-caller, lettuce-zstd-dict, lettuce-lz4-caller, lettuce-gzip, glide, glide-zstd, glide-lz4");
        }
    }

    /** A connected client: SET or GET a batch of {@code n} keys as one pipeline, blocking until every reply is in. */
    interface Kv extends AutoCloseable {
        void set(byte[][] keys, byte[][] values, int n) throws Exception;

        /** @return the values read, null where a key is missing */
        byte[][] get(byte[][] keys, int n) throws Exception;

        /**
         * @return the client to use for the value set {@code name}: itself, unless the client keeps state per kind of
         *     value (a dictionary per value set, as an application keeps one per key prefix)
         */
        default Kv forValues(String name) {
            return this;
        }

        /** @return whether this client is still learning from the values it writes (a first dictionary training) */
        default boolean trainingPending() {
            return false;
        }

        /** @return what this client learned from the values it wrote and how, or null when it learns nothing */
        default String trainingOutcome() {
            return null;
        }

        @Override
        void close();
    }

    private static final CompressionConfig ZSTD_3 = CompressionConfig.builder().backend(CompressionBackend.ZSTD).level(3).build();
    private static final CompressionConfig LZ4_0 = CompressionConfig.builder().backend(CompressionBackend.LZ4).level(0).build();

    static Kv open(Kind kind, CompressingRedisClient lettuce, String host, int port) throws Exception {
        return switch (kind) {
            case LETTUCE -> new LettuceKv(lettuce.connect(ByteArrayCodec.INSTANCE), null);
            case LETTUCE_ZSTD, LETTUCE_ZSTD_PARALLEL, LETTUCE_ZSTD_LOOP, LETTUCE_LZ4, LETTUCE_GZIP -> new LettuceKv(
                    compressing(kind, lettuce, ByteArrayCodec.INSTANCE), null);
            case LETTUCE_ZSTD_CALLER -> new LettuceKv(lettuce.connect(ByteArrayCodec.INSTANCE),
                    ValueCompressor.create(ZSTD_3));
            case LETTUCE_ZSTD_DICT -> dictionaryKv(lettuce, host, port);
            case LETTUCE_LZ4_CALLER -> new LettuceKv(lettuce.connect(ByteArrayCodec.INSTANCE),
                    ValueCompressor.create(LZ4_0));
            case GLIDE -> new GlideKv(host, port, null, 0);
            case GLIDE_ZSTD -> new GlideKv(host, port, glide.api.models.configuration.CompressionBackend.ZSTD, 3);
            case GLIDE_LZ4 -> new GlideKv(host, port, glide.api.models.configuration.CompressionBackend.LZ4, 0);
        };
    }

    /**
     * @return the connection of a codec client ({@code lettuce-zstd}, {@code -lz4}: the policy client's compressing
     * connection; {@code -gzip}: Lettuce's {@code CompressionCodec}) whose keys and values {@code inner} encodes
     */
    static StatefulRedisConnection<byte[], byte[]> compressing(Kind kind, CompressingRedisClient lettuce,
                                                               ByteArrayCodec inner) {
        return switch (kind) {
            case LETTUCE_ZSTD -> lettuce.connect(inner, ValueCompressor.create(ZSTD_3));
            case LETTUCE_ZSTD_PARALLEL, LETTUCE_ZSTD_LOOP -> repliesDecoded(kind == Kind.LETTUCE_ZSTD_LOOP ? "loop"
                    : "parallel", () -> lettuce.connect(inner, ValueCompressor.create(ZSTD_3)));
            case LETTUCE_LZ4 -> lettuce.connect(inner, ValueCompressor.create(LZ4_0));
            case LETTUCE_GZIP -> lettuce.connect(CompressionCodec.valueCompressor(inner,
                    CompressionCodec.CompressionType.GZIP));
            default -> throw new IllegalArgumentException(kind.id + " has no compressing codec");
        };
    }

    /**
     * Makes a compressing connection that decodes its replies as {@code mode} says (the Lettuce adapter's measurement
     * switch, {@code zstdjava.lettuce.replies}, read when a connection is made).
     */
    static <T> T repliesDecoded(String mode, java.util.function.Supplier<T> connect) {
        String before = System.getProperty("zstdjava.lettuce.replies");
        System.setProperty("zstdjava.lettuce.replies", mode);
        try {
            return connect.get();
        } finally {
            if (before == null) {
                System.clearProperty("zstdjava.lettuce.replies");
            } else {
                System.setProperty("zstdjava.lettuce.replies", before);
            }
        }
    }

    /**
     * Where a client compresses and decompresses values, as this tool sends its commands ({@link LettuceKv}: Lettuce
     * {@code AsyncCommand}s dispatched on the connection). The {@code -caller} clients call {@link ValueCompressor}
     * on the requesting thread by construction, and GLIDE compresses in its Rust core; for the codec clients one SET
     * and one GET of a compressible 4 KiB value go through a connection whose codec wraps a {@code ByteArrayCodec}
     * that records the thread that encodes and decodes the value: the compressing codec calls it right before
     * compressing and right after decompressing.
     *
     * @return "compresses on ..., decompresses on ..." for the report
     */
    static String codecThreads(Kind kind, CompressingRedisClient lettuce) throws Exception {
        switch (kind) {
            case LETTUCE:
                return "no compression; Lettuce's ByteArrayCodec runs on its event-loop thread";
            case LETTUCE_ZSTD_CALLER:
            case LETTUCE_LZ4_CALLER:
                return "compresses and decompresses on the calling thread (ValueCompressor around a plain "
                        + "ByteArrayCodec connection)";
            case LETTUCE_ZSTD_DICT:
                return "as lettuce-zstd (the same CompressingCodec, with a dictionary)";
            case GLIDE:
                return "no compression";
            case GLIDE_ZSTD:
            case GLIDE_LZ4:
                return "compresses and decompresses in GLIDE's Rust core (native threads)";
            default:
                break;
        }
        ThreadRecordingCodec recorder = new ThreadRecordingCodec();
        byte[] key = (Bench.KEY_PREFIX + "codec-threads").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] value = "codec threads ".repeat(300).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        try (LettuceKv kv = new LettuceKv(compressing(kind, lettuce, recorder), null)) {
            kv.set(new byte[][] {key}, new byte[][] {value}, 1);
            byte[] back = kv.get(new byte[][] {key}, 1)[0];
            kv.delete(key);
            if (!java.util.Arrays.equals(back, value)) {
                throw new IllegalStateException(kind.id + ": GET did not return the value written");
            }
        }
        Thread caller = Thread.currentThread();
        return "compresses on " + where(recorder.encoder, caller) + ", decompresses on "
                + where(recorder.decoder, caller);
    }

    private static String where(Thread t, Thread caller) {
        if (t == null) {
            return "no thread seen";
        }
        if (t == caller) {
            return "the calling thread";
        }
        boolean loop = EventLoopThreads.Family.LETTUCE.pattern.matcher(t.getName()).matches();
        return (loop ? "the connection's event-loop thread" : "another thread") + " (" + t.getName() + ")";
    }

    /** A {@link ByteArrayCodec} that remembers the last threads that encoded and decoded a value. */
    static final class ThreadRecordingCodec extends ByteArrayCodec {
        volatile Thread encoder;
        volatile Thread decoder;

        @Override
        public void encodeValue(byte[] value, io.netty.buffer.ByteBuf target) {
            encoder = Thread.currentThread();
            super.encodeValue(value, target);
        }

        @Override
        public java.nio.ByteBuffer encodeValue(byte[] value) {
            encoder = Thread.currentThread();
            return super.encodeValue(value);
        }

        @Override
        public byte[] decodeValue(java.nio.ByteBuffer bytes) {
            decoder = Thread.currentThread();
            return super.decodeValue(bytes);
        }
    }

    /**
     * The codec with a managed dictionary, one per value set, as an application keeps one per kind of value (a key
     * prefix of its own, a connection whose codec uses it). Each value set's dictionaries live in the server under a
     * prefix of this run's own (so an earlier run's dictionaries do not count); training starts after 1,000 sampled
     * values (the default) and may repeat every 5 s when the values drift.
     */
    static Kv dictionaryKv(CompressingRedisClient lettuce, String host, int port) {
        RedisURI uri = RedisURI.create(host, port);
        String run = Long.toHexString(System.nanoTime());
        Map<String, DictionaryKv> perSet = new LinkedHashMap<>();
        return new Kv() {
            @Override
            public void set(byte[][] keys, byte[][] values, int n) throws Exception {
                forValues("default").set(keys, values, n);
            }

            @Override
            public byte[][] get(byte[][] keys, int n) throws Exception {
                return forValues("default").get(keys, n);
            }

            @Override
            public synchronized Kv forValues(String name) {
                return perSet.computeIfAbsent(name, s -> new DictionaryKv(lettuce, uri,
                        "zstd-java:e2e-dict:{" + run + "-" + s.replaceAll("[^A-Za-z0-9]", "_") + "}:"));
            }

            @Override
            public synchronized void close() {
                perSet.values().forEach(DictionaryKv::close);
                perSet.clear();
            }
        };
    }

    /** A connection whose codec compresses with the managed dictionary of one key prefix. */
    static final class DictionaryKv implements Kv {
        private final CompressingRedisClient lettuce;
        private final RedisURI uri;
        private final String prefix;
        private final LettuceDictionaryStore store;
        private final DictionaryManager dicts;
        private final LettuceKv kv;

        DictionaryKv(CompressingRedisClient lettuce, RedisURI uri, String prefix) {
            this(lettuce, uri, prefix, DictionaryManager.DEFAULT_MIN_IMPROVEMENT);
        }

        /** @param minImprovement the gain at which the manager adopts its dictionary, as its builder takes it */
        DictionaryKv(CompressingRedisClient lettuce, RedisURI uri, String prefix, double minImprovement) {
            this.lettuce = lettuce;
            this.uri = uri;
            this.prefix = prefix;
            this.store = LettuceDictionaryStore.builder().keyPrefix(prefix).connect(lettuce, uri);
            this.dicts = DictionaryManager.managed(store).retrainInterval(Duration.ofSeconds(5))
                    .minImprovement(minImprovement).build();
            this.kv = new LettuceKv(lettuce.connect(ByteArrayCodec.INSTANCE, ValueCompressor.create(ZSTD_3, dicts)),
                    null);
        }

        @Override
        public void set(byte[][] keys, byte[][] values, int n) throws Exception {
            kv.set(keys, values, n);
        }

        @Override
        public byte[][] get(byte[][] keys, int n) throws Exception {
            return kv.get(keys, n);
        }

        @Override
        public boolean trainingPending() {
            return Clients.trainingPending(dicts);
        }

        @Override
        public String trainingOutcome() {
            return Clients.trainingOutcome(dicts);
        }

        /** @return the keys this client's dictionary store may hold in the server (its dictionaries, index, lease) */
        List<byte[]> serverKeys() {
            return Clients.serverKeys(prefix, store);
        }

        @Override
        public void close() {
            kv.close();
            dicts.close();
            // a benchmark leaves no dictionaries behind (an application keeps them: its values need them)
            List<byte[]> keys = serverKeys();
            try (StatefulRedisConnection<byte[], byte[]> admin = lettuce.connect(ByteArrayCodec.INSTANCE, uri)) {
                admin.sync().del(keys.toArray(new byte[0][]));
            }
            store.close();
        }
    }

    /**
     * Pending until the manager's first training ends (rejected or failed; a rejected dictionary is not retried) or its
     * adopted dictionary is the one in use: the adoption is counted just before the manager switches to it.
     */
    static boolean trainingPending(DictionaryManager dicts) {
        TrainingStats t = dicts.trainingStats();
        if (t.adopted() > 0) {
            return dicts.currentId() == 0;
        }
        return t.rejected() + t.failed() == 0;
    }

    /** @return the manager's dictionary in use and its last training event, or why it has none */
    static String trainingOutcome(DictionaryManager dicts) {
        TrainingStats t = dicts.trainingStats();
        String last = t.recent().isEmpty() ? "none" : describe(t.recent().get(t.recent().size() - 1));
        if (dicts.currentId() != 0) {
            return "dictionary " + Long.toUnsignedString(dicts.currentId()) + " (" + last + ")";
        }
        return trainingPending(dicts) ? "no training finished (" + t.samples() + " samples held)"
                : "no dictionary; last training event: " + last;
    }

    private static String describe(TrainingEvent e) {
        return String.format(java.util.Locale.ROOT, "%s from %d samples, held-out saved %.1f%% -> %.1f%%%s",
                e.kind().name().toLowerCase(java.util.Locale.ROOT), e.samples(), 100 * e.savedBefore(),
                100 * e.savedAfter(), e.reason() == null || e.reason().isEmpty() ? "" : ": " + e.reason());
    }

    /** @return the keys a server dictionary store under {@code prefix} may hold (its dictionaries, index, lease) */
    static List<byte[]> serverKeys(String prefix, DictionaryStore store) {
        List<byte[]> keys = new ArrayList<>();
        for (String k : new String[] {"seq", "index", "lease"}) {
            keys.add((prefix + k).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        store.list().forEach(d -> keys.add((prefix + "dict:" + d.id())
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return keys;
    }

    /**
     * lettuce-zstd-adaptive's dictionaries: a {@link PatternDictionaries} whose lineages keep their dictionaries in the
     * server, each under its own key prefix ({@link PatternDictionaries#prefix(String)}), trained after
     * {@value #MIN_SAMPLES} sampled values of a pattern (so within the run), with the library's retrain interval (a
     * lineage whose dictionary was refused trains again an hour later, as an application's would: not within the
     * run, where a shorter interval would add training CPU no user pays). A lineage's keys left by an earlier run
     * are deleted when it opens, and every lineage's keys when this closes: a benchmark starts from no dictionaries
     * and leaves none behind.
     */
    static final class PatternStores implements AutoCloseable {
        /** Samples a pattern's lineage trains on: about {@code 32 + (50 - 32) * 64} writes of the pattern. */
        static final int MIN_SAMPLES = 50;

        private final CompressingRedisClient lettuce;
        private final RedisURI uri;
        /** By lineage name. */
        private final Map<String, LettuceDictionaryStore> stores = new java.util.concurrent.ConcurrentHashMap<>();
        /** Pattern -> the writes of the pattern seen when its lineage first had a dictionary in use. */
        private final Map<String, Long> adoptedAt = new java.util.concurrent.ConcurrentHashMap<>();
        final PatternDictionaries dictionaries;

        /** @param minImprovement the gain at which a lineage adopts a dictionary, as the manager's builder takes it */
        PatternStores(CompressingRedisClient lettuce, RedisURI uri, double minImprovement) {
            this.lettuce = lettuce;
            this.uri = uri;
            this.dictionaries = PatternDictionaries.builder(this::open)
                    .manager(b -> b.minSamples(MIN_SAMPLES).minImprovement(minImprovement)).build();
        }

        /** The store of lineage {@code name}, emptied of an earlier run's keys; on the lineages' own thread. */
        private DictionaryStore open(String name) {
            String prefix = PatternDictionaries.prefix(name);
            LettuceDictionaryStore store = LettuceDictionaryStore.builder().keyPrefix(prefix).connect(lettuce, uri);
            delete(Clients.serverKeys(prefix, store));
            stores.put(name, store);
            return store;
        }

        private void delete(List<byte[]> keys) {
            try (StatefulRedisConnection<byte[], byte[]> admin = lettuce.connect(ByteArrayCodec.INSTANCE, uri)) {
                admin.sync().del(keys.toArray(new byte[0][]));
            }
        }

        /** Notes, for each pattern of {@code snapshot} whose lineage has a dictionary in use, when it first had one. */
        void observe(List<PatternDecision> snapshot) {
            for (PatternDecision d : snapshot) {
                if (!adoptedAt.containsKey(d.pattern())) {
                    DictionaryManager m = dictionaries.manager(d.pattern());
                    if (m != null && m.currentId() != 0) {
                        adoptedAt.put(d.pattern(), d.valuesSeen());
                    }
                }
            }
        }

        /** @return whether an open lineage that has the samples to train has not finished its first training */
        boolean trainingPending() {
            for (String p : dictionaries.openPatterns()) {
                DictionaryManager m = dictionaries.manager(p);
                if (m != null && m.trainingStats().samples() >= MIN_SAMPLES && Clients.trainingPending(m)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * @return {@code pattern}'s dictionary: the writes of the pattern by which its lineage had one in use, and
         *         its training outcome
         */
        String outcome(String pattern) {
            DictionaryManager m = dictionaries.manager(pattern);
            Long at = adoptedAt.get(pattern);
            String now = m == null ? "lineage not open" : trainingOutcome(m);
            return at == null ? "none: " + now : "from write " + at + ": " + now;
        }

        /** @return the keys every lineage keeps in the server (its dictionaries, index, lease) */
        List<byte[]> serverKeys() {
            List<byte[]> keys = new ArrayList<>();
            stores.forEach((name, store) -> keys.addAll(Clients.serverKeys(PatternDictionaries.prefix(name), store)));
            return keys;
        }

        @Override
        public void close() {
            dictionaries.close();
            List<byte[]> keys = serverKeys();
            if (!keys.isEmpty()) {
                delete(keys);
            }
            stores.values().forEach(LettuceDictionaryStore::close);
        }
    }

    /**
     * One Lettuce connection (Lettuce multiplexes every caller on it). A batch is dispatched as one write and one
     * flush ({@code StatefulConnection.dispatch(Collection)}), which is Lettuce's pipelining.
     */
    static final class LettuceKv implements Kv {
        private final StatefulRedisConnection<byte[], byte[]> conn;
        private final RedisCodec<byte[], byte[]> codec;
        /** Set when values are compressed and decompressed on the calling thread (the codec is then plain). */
        private final ValueCompressor callerSide;

        LettuceKv(StatefulRedisConnection<byte[], byte[]> conn, ValueCompressor callerSide) {
            this.conn = conn;
            this.codec = conn.getCodec();
            this.callerSide = callerSide;
        }

        @Override
        public void set(byte[][] keys, byte[][] values, int n) throws Exception {
            List<AsyncCommand<byte[], byte[], String>> cmds = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte[] v = callerSide == null ? values[i] : callerSide.compress(values[i]);
                CommandArgs<byte[], byte[]> args = new CommandArgs<>(codec).addKey(keys[i]).addValue(v);
                cmds.add(new AsyncCommand<>(new Command<>(CommandType.SET, new StatusOutput<>(codec), args)));
            }
            for (AsyncCommand<byte[], byte[], String> c : dispatch(cmds)) {
                String r = c.get(TIMEOUT_S, TimeUnit.SECONDS);
                if (!"OK".equals(r)) {
                    throw new IllegalStateException("SET replied " + r);
                }
            }
        }

        @Override
        public byte[][] get(byte[][] keys, int n) throws Exception {
            List<AsyncCommand<byte[], byte[], byte[]>> cmds = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                CommandArgs<byte[], byte[]> args = new CommandArgs<>(codec).addKey(keys[i]);
                cmds.add(new AsyncCommand<>(new Command<>(CommandType.GET, new ValueOutput<>(codec), args)));
            }
            List<AsyncCommand<byte[], byte[], byte[]>> sent = dispatch(cmds);
            byte[][] out = new byte[n][];
            for (int i = 0; i < n; i++) {
                byte[] stored = sent.get(i).get(TIMEOUT_S, TimeUnit.SECONDS);
                out[i] = callerSide == null || stored == null ? stored : callerSide.decompress(stored);
            }
            return out;
        }

        /** Deletes {@code key} (an unmeasured clean-up). */
        void delete(byte[] key) throws Exception {
            conn.async().del(key).get(TIMEOUT_S, TimeUnit.SECONDS);
        }

        // Dispatches and returns the futures to wait on: what Lettuce's dispatch returned where that is an
        // AsyncCommand, as Lettuce's own async API hands out, otherwise the command made here.
        @SuppressWarnings({"unchecked", "rawtypes"})
        private <T> List<AsyncCommand<byte[], byte[], T>> dispatch(List<AsyncCommand<byte[], byte[], T>> cmds) {
            if (cmds.size() == 1) {
                return List.of(future(conn.dispatch(cmds.get(0)), cmds.get(0)));
            }
            List<RedisCommand<byte[], byte[], ?>> sent = new ArrayList<>(
                    conn.dispatch((List<? extends RedisCommand<byte[], byte[], ?>>) (List) cmds));
            List<AsyncCommand<byte[], byte[], T>> out = new ArrayList<>(cmds.size());
            for (int i = 0; i < cmds.size(); i++) {
                out.add(future((RedisCommand<byte[], byte[], T>) sent.get(i), cmds.get(i)));
            }
            return out;
        }

        private static <T> AsyncCommand<byte[], byte[], T> future(RedisCommand<byte[], byte[], T> sent,
                                                                 AsyncCommand<byte[], byte[], T> made) {
            return sent instanceof AsyncCommand<byte[], byte[], T> a ? a : made;
        }

        @Override
        public void close() {
            conn.close();
        }
    }

    /**
     * One Java GLIDE client (one multiplexed connection). A batch is a non-atomic {@link Batch} (GLIDE's pipeline)
     * with binary output; a single request is a plain {@code set}/{@code get}.
     */
    static final class GlideKv implements Kv {
        private final GlideClient client;

        GlideKv(String host, int port, glide.api.models.configuration.CompressionBackend backend, int level)
                throws Exception {
            GlideClientConfiguration.GlideClientConfigurationBuilder<?, ?> b = GlideClientConfiguration.builder()
                    .address(NodeAddress.builder().host(host).port(port).build())
                    .requestTimeout(30_000)
                    .inflightRequestsLimit(100_000);
            if (backend != null) {
                b.compressionConfiguration(CompressionConfiguration.builder().enabled(true).backend(backend)
                        .compressionLevel(level).build());
            }
            this.client = GlideClient.createClient(b.build()).get(60, TimeUnit.SECONDS);
        }

        @Override
        public void set(byte[][] keys, byte[][] values, int n) throws Exception {
            if (n == 1) {
                String r = client.set(GlideString.of(keys[0]), GlideString.of(values[0])).get(TIMEOUT_S, TimeUnit.SECONDS);
                if (!"OK".equals(r)) {
                    throw new IllegalStateException("SET replied " + r);
                }
                return;
            }
            Batch batch = new Batch(false).withBinaryOutput();
            for (int i = 0; i < n; i++) {
                batch.set(GlideString.of(keys[i]), GlideString.of(values[i]));
            }
            Object[] r = client.exec(batch, true).get(TIMEOUT_S, TimeUnit.SECONDS);
            if (r == null || r.length != n) {
                throw new IllegalStateException("pipeline of " + n + " SETs returned " + (r == null ? "null" : r.length + " replies"));
            }
            for (Object o : r) {
                String s = o instanceof GlideString g ? g.getString() : String.valueOf(o);
                if (!"OK".equals(s)) {
                    throw new IllegalStateException("SET replied " + s);
                }
            }
        }

        @Override
        public byte[][] get(byte[][] keys, int n) throws Exception {
            byte[][] out = new byte[n][];
            if (n == 1) {
                GlideString g = client.get(GlideString.of(keys[0])).get(TIMEOUT_S, TimeUnit.SECONDS);
                out[0] = g == null ? null : g.getBytes();
                return out;
            }
            Batch batch = new Batch(false).withBinaryOutput();
            for (int i = 0; i < n; i++) {
                batch.get(GlideString.of(keys[i]));
            }
            Object[] r = client.exec(batch, true).get(TIMEOUT_S, TimeUnit.SECONDS);
            if (r == null || r.length != n) {
                throw new IllegalStateException("pipeline of " + n + " GETs returned " + (r == null ? "null" : r.length + " replies"));
            }
            for (int i = 0; i < n; i++) {
                out[i] = r[i] instanceof GlideString g ? g.getBytes() : null;
            }
            return out;
        }

        @Override
        public void close() {
            try {
                client.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing GLIDE client", e);
            }
        }
    }
}
