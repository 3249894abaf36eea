package dev.zstdjava.bench.e2e;

import dev.zstdjava.lettuce.CompressingRedisClient;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.KeyFolder;
import dev.zstdjava.values.PatternDecision;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./e2e --adaptive}: adaptive compression against fixed zstd 3 on the mixed value set ({@link MixedValues}),
 * on one server. The clients: Lettuce without compression (the memory baseline), fixed zstd 3 ({@code lettuce-zstd}),
 * fixed zstd 3 with one managed dictionary ({@code lettuce-zstd-dict}), {@code lettuce-zstd-adaptive}
 * ({@link AdaptiveCompressor}, goal {@code --adaptive-goal} (BALANCED by default), patterns from the key fold, a
 * dictionary lineage per pattern kept in the server ({@link Clients.PatternStores}), through
 * {@link CompressingRedisClient#connect(io.lettuce.core.codec.RedisCodec, AdaptiveCompressor)}), and the oracle (each
 * kind written with the option {@link AdaptiveOracle} picks by advise's rule for the same goal; its memory only is a
 * target).
 *
 * <p>First the adaptive client learns: it writes the values in key order (pipelines of 20) until every kind's pattern
 * has had {@code --adaptive-writes} writes and, once every lineage that has the samples to train has ended its first
 * training (at most {@link EndToEnd#TRAINING_WAIT_S} s), {@value #AFTER_TRAINING} more, its decisions looked at after
 * every pipeline; the other clients warm up as in the matrix (the dictionary client until its first training has
 * ended). Each client writes keys of its own (the set's keys with {@code ":"} and the client's letter appended,
 * {@link MixedValues.Set#tagged}), so every client's values are in the server at once. Then each round, the clients in
 * an order that rotates from round to round: each client's keys deleted, a SET phase of the whole mixed set (client
 * CPU per SET: the JVM's process CPU time over the phase, which leaves out the server, a process of its own, divided
 * by the SETs) and {@code MEMORY USAGE} summed over every key written (and over the dictionary keys the client keeps in
 * the server); then, kind by kind, the GET phases of the clients that read (throughput, p50 of the request round trip,
 * every value checked): each client in {@link #GET_SLICES} slices of the phase's time, in the round's order, then in
 * the reverse order, and so on, so that the GETs compared are interleaved, come after the same SET phases, and a drift
 * of the machine's speed during the round weighs on each client alike.
 */
final class AdaptiveRun {
    static final Path FULL_OUT = dev.zstdjava.bench.report.Generated.DOCS_REPORTS.resolve("adaptive.md");
    static final Path QUICK_OUT = Path.of("benchmark/target/e2e-quick/adaptive.md");
    /** Decisions (other than dictionaries) settle within this many writes per pattern: the target. */
    static final int SETTLE_TARGET = 2000;
    static final double CPU_TARGET = 0.7;
    static final double GET_TOLERANCE = 0.05;
    static final double ORACLE_POINTS = 2;
    private static final int LEARN_BATCH = 20;
    /** Writes of every pattern after the trainings ended, for the decisions to measure the dictionary option. */
    static final int AFTER_TRAINING = 1000;

    /** The base configuration of every client: zstd 3, the library's defaults otherwise. */
    static final CompressionConfig ZSTD_3 = CompressionConfig.builder().backend(CompressionBackend.ZSTD).level(3)
            .build();

    /** The clients compared, in their first round's order. */
    enum Client {
        PLAIN("lettuce", "p", "Lettuce, no compression: the memory baseline"),
        ZSTD("lettuce-zstd", "z", "fixed zstd 3 (CompressingRedisClient.connect(codec, ValueCompressor))"),
        AGAIN("lettuce-zstd-again", "a", "fixed zstd 3 again, a second client the same as lettuce-zstd: how far two "
                + "equal clients' figures stray from each other in this run (the GET targets are read against it; it "
                + "is not judged)"),
        DICT("lettuce-zstd-dict", "y", "fixed zstd 3 with one managed dictionary (DictionaryManager.managed, trained on "
                + "the mixed values it writes, published in the server; adopted at any gain, minImprovement 0, so that "
                + "it writes with a dictionary whatever the held-out check finds: the library's default +5 points "
                + "rejects a dictionary for this mix)"),
        ADAPTIVE("lettuce-zstd-adaptive", "x", "AdaptiveCompressor, the run's goal, patterns from the key fold, a "
                + "dictionary lineage per pattern (PatternDictionaries, each pattern's dictionaries published in the "
                + "server under its own prefix, adopted at the run's dictionary gain, trained after "
                + Clients.PatternStores.MIN_SAMPLES + " sampled values; a refused dictionary is trained again after the library's retrain interval, an hour) "
                + "(CompressingRedisClient.connect(codec, AdaptiveCompressor))"),
        ORACLE("oracle", "o", "each kind written with the option advise's rule picks for it (compressed on the calling "
                + "thread; its memory is the target, its CPU and GETs are not compared)"),
        ORACLE_NO_DICTIONARY("oracle-no-dictionary", "n", "as the oracle, with the option advise's rule picks when the "
                + "dictionary option is left out (memory only)");

        final String id;
        /** The letter the client's keys end with, after a {@code ':'} (one letter each: keys of one length). */
        final String tag;
        final String label;

        Client(String id, String tag, String label) {
            this.id = id;
            this.tag = tag;
            this.label = label;
        }

        /** @return whether the client's GETs are measured (the oracles' are not) */
        boolean reads() {
            return this != ORACLE && this != ORACLE_NO_DICTIONARY;
        }
    }

    /**
     * One client's figures in one round.
     *
     * @param memory       {@code MEMORY USAGE} summed over every key written and the client's dictionary keys
     * @param memoryByKind the same over each kind's keys
     * @param dictionaries the same over the dictionary keys the client keeps in the server
     */
    record Round(int round, Results.Phase set, long memory, Map<MixedValues.Kind, Long> memoryByKind,
                 long dictionaries, Map<MixedValues.Kind, Results.Phase> gets) {}

    private AdaptiveRun() {}

    /** @return the exit status: {@link EndToEnd#OK}, or {@link EndToEnd#MISMATCH} when a GET read something else */
    static int run(EndToEnd.Options o, Bench bench, CompressingRedisClient lettuce, String host, int port,
                   String setup, PrintStream err) throws Exception {
        long t0 = System.nanoTime();
        MixedValues.Set data = MixedValues.generate(o.keys, MixedValues.SEED);
        err.printf(java.util.Locale.ROOT, "e2e: mixed values generated in %.1f s: %s%n", (System.nanoTime() - t0) / 1e9,
                data.describe());
        Map<MixedValues.Kind, AdaptiveOracle.Choice> oracle = new EnumMap<>(MixedValues.Kind.class);
        // a first, discarded pass over one kind: the JIT compiles the compression paths before anything is timed
        AdaptiveOracle.choose(MixedValues.Kind.SESSION, data.valuesOf(MixedValues.Kind.SESSION), ZSTD_3, o.goal,
                o.dictionaryGain);
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            AdaptiveOracle.Choice c = AdaptiveOracle.choose(k, data.valuesOf(k), ZSTD_3, o.goal, o.dictionaryGain);
            oracle.put(k, c);
            err.println("e2e: advise's rule on " + k.id + ": " + c.option() + ", without the dictionary option "
                    + c.withoutDictionary() + " (dictionary " + c.note() + ")");
        }
        int inflight = o.inflight.stream().mapToInt(Integer::intValue).max().orElse(64);
        int batch = o.batch.stream().mapToInt(Integer::intValue).max().orElse(20);
        Map<Client, Clients.Kv> kvs = new EnumMap<>(Client.class);
        Clients.PatternStores lineages = new Clients.PatternStores(lettuce, RedisURI.create(host, port),
                o.dictionaryGain);
        AdaptiveCompressor adaptive = AdaptiveCompressor.builder(ZSTD_3).goal(o.goal).dictionaries(lineages.dictionaries)
                .build();
        Clients.DictionaryKv dict = null;
        List<DictionaryManager> oracleDicts = new ArrayList<>();
        StatefulRedisConnection<byte[], byte[]> admin = lettuce.connect(ByteArrayCodec.INSTANCE);
        List<byte[]> oracleDictKeys = new ArrayList<>();
        Map<Client, MixedValues.Set> sets = new EnumMap<>(Client.class);
        for (Client c : Client.values()) {
            sets.put(c, data.tagged(c.tag));
        }
        try {
            kvs.put(Client.PLAIN, new Clients.LettuceKv(lettuce.connect(ByteArrayCodec.INSTANCE), null));
            kvs.put(Client.ZSTD, new Clients.LettuceKv(lettuce.connect(ByteArrayCodec.INSTANCE,
                    ValueCompressor.create(ZSTD_3)), null));
            kvs.put(Client.AGAIN, new Clients.LettuceKv(lettuce.connect(ByteArrayCodec.INSTANCE,
                    ValueCompressor.create(ZSTD_3)), null));
            dict = new Clients.DictionaryKv(lettuce, RedisURI.create(host, port), "zstd-java:e2e-dict:{"
                    + Long.toHexString(System.nanoTime()) + "-adaptive}:", 0);
            kvs.put(Client.DICT, dict);
            kvs.put(Client.ADAPTIVE, new Clients.LettuceKv(lettuce.connect(ByteArrayCodec.INSTANCE, adaptive), null));
            Map<MixedValues.Kind, ValueCompressor> perKind = new EnumMap<>(MixedValues.Kind.class);
            for (AdaptiveOracle.Choice c : oracle.values()) {
                if (c.option().dictionary()) {
                    DictionaryManager dm = DictionaryManager.given(c.dictionary()).build();
                    oracleDicts.add(dm);
                    perKind.put(c.kind(), ValueCompressor.create(c.option().config(ZSTD_3), dm));
                    // the oracle keeps its dictionary in the server too: counted as the managed one's are
                    byte[] key = (MixedValues.PREFIX + "oracle-dictionary:" + c.kind().id)
                            .getBytes(StandardCharsets.US_ASCII);
                    admin.sync().set(key, c.dictionary());
                    oracleDictKeys.add(key);
                } else if (c.option().compresses()) {
                    perKind.put(c.kind(), ValueCompressor.create(c.option().config(ZSTD_3)));
                }
            }
            kvs.put(Client.ORACLE, new OracleKv(new Clients.LettuceKv(lettuce.connect(ByteArrayCodec.INSTANCE), null),
                    perKind));
            Map<MixedValues.Kind, ValueCompressor> withoutDictionaries = new EnumMap<>(MixedValues.Kind.class);
            for (AdaptiveOracle.Choice c : oracle.values()) {
                if (c.withoutDictionary().compresses()) {
                    withoutDictionaries.put(c.kind(), ValueCompressor.create(c.withoutDictionary().config(ZSTD_3)));
                }
            }
            kvs.put(Client.ORACLE_NO_DICTIONARY, new OracleKv(new Clients.LettuceKv(
                    lettuce.connect(ByteArrayCodec.INSTANCE), null), withoutDictionaries));

            // learning and warm-up
            Trail trail = new Trail();
            long writes = learn(kvs.get(Client.ADAPTIVE), adaptive, sets.get(Client.ADAPTIVE), o.adaptiveWrites, trail,
                    lineages);
            err.println("e2e: lettuce-zstd-adaptive learned from " + writes + " writes: " + describe(adaptive));
            Map<MixedValues.Kind, String> patterns = patterns(sets.get(Client.ADAPTIVE));
            for (Map.Entry<MixedValues.Kind, String> e : patterns.entrySet()) {
                err.println("e2e: lettuce-zstd-adaptive's dictionary of " + e.getValue() + ": "
                        + lineages.outcome(e.getValue()));
            }
            for (Client c : Client.values()) {
                if (c == Client.ADAPTIVE) {
                    continue;
                }
                Clients.Kv kv = kvs.get(c);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(EndToEnd.TRAINING_WAIT_S);
                do {
                    bench.warmup(kv, Clients.Kind.LETTUCE, sets.get(c).keys(), Math.min(data.size(), 2000),
                            data.values(), o.globalWarmup);
                } while (c == Client.DICT && kv.trainingPending() && System.nanoTime() < deadline);
            }
            String dictOutcome = dict.trainingOutcome();
            err.println("e2e: lettuce-zstd-dict after the warm-up: " + dictOutcome);

            // the measured rounds
            Map<Client, List<Round>> rounds = new EnumMap<>(Client.class);
            Client[] order = Client.values();
            for (int round = 1; round <= o.rounds; round++) {
                Map<Client, Round> thisRound = new EnumMap<>(Client.class);
                for (int i = 0; i < order.length; i++) {
                    Client c = order[(i + round - 1) % order.length];
                    Round r = write(bench, c, kvs.get(c), sets.get(c), round, inflight, batch, o.seconds,
                            c == Client.DICT ? dict.serverKeys() : c == Client.ORACLE ? oracleDictKeys
                                    : c == Client.ADAPTIVE ? lineages.serverKeys() : List.of());
                    rounds.computeIfAbsent(c, x -> new ArrayList<>()).add(r);
                    thisRound.put(c, r);
                    if (c == Client.ADAPTIVE) {
                        List<PatternDecision> snapshot = adaptive.snapshot();
                        trail.record(snapshot);
                        lineages.observe(snapshot);
                    }
                    err.printf(java.util.Locale.ROOT, "e2e: round %d/%d %s: %.2f µs CPU per SET, %.1f MiB%s%n", round,
                            o.rounds, c.id, r.set().cpuMicrosPerOp(), r.memory() / 1048576.0,
                            bench.mismatches() > 0 ? "; MISMATCH: " + bench.firstMismatch() : "");
                }
                List<Client> readers = new ArrayList<>();
                for (int i = 0; i < order.length; i++) {
                    Client c = order[(i + round - 1) % order.length];
                    if (c.reads()) {
                        readers.add(c);
                    }
                }
                for (MixedValues.Kind k : MixedValues.Kind.values()) {
                    Map<Client, Results.Phase> gets = gets(bench, readers, kvs, sets, data, k, inflight, batch,
                            o.seconds, round);
                    StringBuilder line = new StringBuilder();
                    for (Client c : readers) {
                        Results.Phase get = gets.get(c);
                        thisRound.get(c).gets().put(k, get);
                        line.append(String.format(java.util.Locale.ROOT, "; %s %.0f/s, p50 %.0f µs", c.id,
                                get.opsPerSec(), get.micros(50)));
                    }
                    err.println("e2e: round " + round + "/" + o.rounds + " GET " + k.id + line);
                }
                if (bench.mismatches() > 0) {
                    err.println("e2e: round " + round + "'s GETs: MISMATCH: " + bench.firstMismatch());
                }
            }
            String took = String.format(java.util.Locale.ROOT, "%.0f s", (System.nanoTime() - t0) / 1e9);
            err.println("e2e: the adaptive measurement took " + took);
            Map<MixedValues.Kind, String> adaptiveDictionaries = new EnumMap<>(MixedValues.Kind.class);
            patterns.forEach((k, p) -> adaptiveDictionaries.put(k, lineages.outcome(p)));
            AdaptiveReport report = new AdaptiveReport(o, setup + " The measurement took " + took + ".", data,
                    oracle, rounds, adaptive.snapshot(), trail, writes, dictOutcome, adaptiveDictionaries, inflight,
                    batch, bench.mismatches(), bench.firstMismatch());
            Path written = report.write(o.out);
            err.println("e2e: adaptive report written to " + written.toAbsolutePath().normalize());
            for (String line : report.verdicts()) {
                err.println("e2e: " + line);
            }
            for (MixedValues.Set s : sets.values()) {
                bench.deleteKeys(s.keys(), s.size());
            }
            return EndToEnd.verdict(bench, err);
        } finally {
            EndToEnd.closeAll(kvs.values(), err);
            lineages.close();
            oracleDicts.forEach(DictionaryManager::close);
            if (!oracleDictKeys.isEmpty()) {
                admin.sync().del(oracleDictKeys.toArray(new byte[0][]));
            }
            admin.close();
        }
    }

    /**
     * How many slices each reader's GET phase of a kind is cut into, the readers in the round's order in the first,
     * in the reverse order in the second, and so on: each reader's figure is then the sum of this many short phases
     * spread over the kind's time, so that neither a drift of the machine's speed nor one slice that the scheduler
     * treats badly (on 2 CPUs shared with the server) weighs on one reader alone.
     */
    static final int GET_SLICES = 4;

    /**
     * The round's GET phases of kind {@code k}: each reader for {@code seconds} in all, in {@link #GET_SLICES} slices,
     * in the round's order then in the reverse order, and so on (every value checked in each slice; a slice's cell
     * is the kind's name and the slice's number, from 1, as {@code --profile} names its files); each reader's slices
     * counted as one phase.
     */
    private static Map<Client, Results.Phase> gets(Bench bench, List<Client> readers, Map<Client, Clients.Kv> kvs,
                                                   Map<Client, MixedValues.Set> sets, MixedValues.Set data,
                                                   MixedValues.Kind k, int inflight, int batch, double seconds,
                                                   int round) throws Exception {
        Map<Client, Histogram> latency = new EnumMap<>(Client.class);
        Map<Client, Results.Phase> both = new EnumMap<>(Client.class);
        for (int slice = 0; slice < GET_SLICES; slice++) {
            boolean reversed = slice % 2 == 1;
            for (int i = 0; i < readers.size(); i++) {
                Client c = readers.get(reversed ? readers.size() - 1 - i : i);
                byte[][] keys = sets.get(c).keysOf(k);
                Histogram h = latency.computeIfAbsent(c, x -> new Histogram(3));
                Results.Phase p = bench.phase(kvs.get(c), new Results.Cell(k.id + "-" + (slice + 1),
                        inflight, batch), keys, keys.length, data.valuesOf(k), false, seconds / GET_SLICES, h,
                        Clients.Kind.LETTUCE, c.id, round);
                Results.Phase a = both.get(c);
                both.put(c, a == null ? p : new Results.Phase(a.ops() + p.ops(), a.nanos() + p.nanos(), h,
                        a.cpuNanos() + p.cpuNanos(), a.netIn() + p.netIn(), a.netOut() + p.netOut()));
            }
        }
        return both;
    }

    /**
     * One client's writes in a round: its keys deleted, the SET phase, memory; its GET phases are added to the round's
     * {@link Round#gets()} afterwards, next to the other clients'.
     */
    private static Round write(Bench bench, Client c, Clients.Kv kv, MixedValues.Set data, int round, int inflight,
                               int batch, double seconds, List<byte[]> extraKeys) throws Exception {
        bench.deleteKeys(data.keys(), data.size());
        Results.Phase set = bench.phase(kv, new Results.Cell("mixed", inflight, batch), data.keys(), data.size(),
                data.values(), true, seconds, new Histogram(3), Clients.Kind.LETTUCE, c.id, round);
        Map<MixedValues.Kind, Long> byKind = new EnumMap<>(MixedValues.Kind.class);
        long memory = 0;
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            long m = bench.memoryUsageSum(List.of(data.keysOf(k)), true);
            byKind.put(k, m);
            memory += m;
        }
        long dictionaries = bench.memoryUsageSum(extraKeys, false);
        memory += dictionaries;
        return new Round(round, set, memory, byKind, dictionaries, new EnumMap<>(MixedValues.Kind.class));
    }

    /**
     * The adaptive client's learning: the values written in key order, pipelines of {@value #LEARN_BATCH}, until
     * every kind's pattern has had {@code perPattern} writes and, once no lineage's first training is pending (or
     * {@link EndToEnd#TRAINING_WAIT_S} s passed), {@value #AFTER_TRAINING} more; the decisions recorded after every
     * pipeline.
     *
     * @return the writes made
     */
    static long learn(Clients.Kv kv, AdaptiveCompressor adaptive, MixedValues.Set data, int perPattern, Trail trail,
                      Clients.PatternStores lineages) throws Exception {
        long writes = 0;
        byte[][] k = new byte[LEARN_BATCH][];
        byte[][] v = new byte[LEARN_BATCH][];
        Map<MixedValues.Kind, String> patterns = patterns(data);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(EndToEnd.TRAINING_WAIT_S);
        long trained = -1; // the least writes of a pattern when no training was pending any more
        while (true) {
            for (int i = 0; i < data.size(); i += LEARN_BATCH) {
                int n = Math.min(LEARN_BATCH, data.size() - i);
                System.arraycopy(data.keys(), i, k, 0, n);
                System.arraycopy(data.values(), i, v, 0, n);
                kv.set(k, v, n);
                writes += n;
                List<PatternDecision> snapshot = adaptive.snapshot();
                trail.record(snapshot);
                lineages.observe(snapshot);
            }
            long least = trail.leastSeen(patterns);
            if (trained < 0 && least >= perPattern
                    && (!lineages.trainingPending() || System.nanoTime() - deadline > 0)) {
                trained = least;
            }
            if (trained >= 0 && least >= trained + AFTER_TRAINING) {
                return writes;
            }
        }
    }

    /** @return each kind's pattern, as its keys fold */
    static Map<MixedValues.Kind, String> patterns(MixedValues.Set data) {
        Map<MixedValues.Kind, String> out = new EnumMap<>(MixedValues.Kind.class);
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            out.put(k, KeyFolder.patternOf(data.keysOf(k)[0]));
        }
        return out;
    }

    private static String describe(AdaptiveCompressor a) {
        StringBuilder sb = new StringBuilder();
        for (PatternDecision d : a.snapshot()) {
            sb.append(sb.isEmpty() ? "" : ", ").append(d.pattern()).append(" -> ").append(d.option());
        }
        return sb.toString();
    }

    /**
     * Each pattern's decisions as the writes went on: the values seen when its option changed (the first entry: when
     * it was first seen), and the latest count of values seen.
     */
    static final class Trail {
        /** pattern -> list of {values seen, option ordinal} at each change */
        final Map<String, List<long[]>> changes = new LinkedHashMap<>();
        final Map<String, Long> seen = new LinkedHashMap<>();

        void record(List<PatternDecision> snapshot) {
            for (PatternDecision d : snapshot) {
                List<long[]> c = changes.computeIfAbsent(d.pattern(), p -> new ArrayList<>());
                if (c.isEmpty() || c.get(c.size() - 1)[1] != d.option().ordinal()) {
                    c.add(new long[] {d.valuesSeen(), d.option().ordinal()});
                }
                seen.put(d.pattern(), d.valuesSeen());
            }
        }

        long leastSeen(Map<MixedValues.Kind, String> patterns) {
            long least = Long.MAX_VALUE;
            for (String p : patterns.values()) {
                least = Math.min(least, seen.getOrDefault(p, 0L));
            }
            return least;
        }

        /**
         * @return the writes of {@code pattern} by which it had taken its last option other than by a change to or
         *         from the dictionary option (0: no such change); dictionary adoption is reported on its own
         */
        long settledAt(String pattern) {
            List<long[]> c = changes.getOrDefault(pattern, List.of());
            for (int i = c.size() - 1; i > 0; i--) {
                if (!CompressionOption.values()[(int) c.get(i)[1]].dictionary()
                        && !CompressionOption.values()[(int) c.get(i - 1)[1]].dictionary()) {
                    return c.get(i)[0];
                }
            }
            return 0;
        }

        /** @return the options a pattern went through, "zstd 3 -> plain (at 40)" */
        String path(String pattern) {
            List<long[]> c = changes.getOrDefault(pattern, List.of());
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < c.size(); i++) {
                sb.append(i == 0 ? "" : " → ").append(CompressionOption.values()[(int) c.get(i)[1]].label());
                if (i > 0) {
                    sb.append(" (at ").append(c.get(i)[0]).append(')');
                }
            }
            return sb.toString();
        }
    }

    /** The oracle: each value compressed on the calling thread with its kind's option, over a plain connection. */
    static final class OracleKv implements Clients.Kv {
        private final Clients.LettuceKv kv;
        private final Map<String, ValueCompressor> byKindId = new LinkedHashMap<>();

        OracleKv(Clients.LettuceKv kv, Map<MixedValues.Kind, ValueCompressor> perKind) {
            this.kv = kv;
            perKind.forEach((k, vc) -> byKindId.put(k.id, vc));
        }

        /** @return the compressor of the key's kind, or null where its values are stored plain */
        private ValueCompressor of(byte[] key) {
            String s = new String(key, StandardCharsets.US_ASCII);
            int from = MixedValues.PREFIX.length();
            return byKindId.get(s.substring(from, s.indexOf(':', from)));
        }

        @Override
        public void set(byte[][] keys, byte[][] values, int n) throws Exception {
            byte[][] stored = new byte[n][];
            for (int i = 0; i < n; i++) {
                ValueCompressor vc = of(keys[i]);
                stored[i] = vc == null ? values[i] : vc.compress(values[i]);
            }
            kv.set(keys, stored, n);
        }

        @Override
        public byte[][] get(byte[][] keys, int n) throws Exception {
            byte[][] got = kv.get(keys, n);
            for (int i = 0; i < n; i++) {
                ValueCompressor vc = of(keys[i]);
                got[i] = vc == null || got[i] == null ? got[i] : vc.decompress(got[i]);
            }
            return got;
        }

        @Override
        public void close() {
            kv.close();
        }
    }
}
