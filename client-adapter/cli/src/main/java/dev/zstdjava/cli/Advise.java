package dev.zstdjava.cli;

import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionGoal;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.HeldOut;
import dev.zstdjava.values.OptionMeasurements;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code advise URI}: per key pattern, what each compression option would save of the stored bytes and of the
 * server's memory, at what CPU cost, projected onto the whole pattern, and which option to take. Read-only. Not
 * thread-safe.
 */
@Command(name = "advise", mixinStandardHelpOptions = true,
        description = {"Per key pattern, on sampled string and hash values: the stored bytes and server memory each "
                + "option would save (lz4, zstd -1, 1, 3, 6, 9, zstd 3 with a dictionary trained on half the sample and "
                + "measured on the other half), compress/decompress microseconds per value here, the projection onto "
                + "the pattern in MiB, a recommendation and the configuration to paste. Read-only."})
final class Advise implements Callable<Integer> {
    @Mixin
    Common common;

    @Mixin
    Sampling sampling;

    @Option(names = "--min-size", defaultValue = "" + CompressionConfig.DEFAULT_MIN_COMPRESSION_SIZE,
            paramLabel = "BYTES", description = "minCompressionSize of every option (default ${DEFAULT-VALUE}, at least "
                    + CompressionConfig.MIN_COMPRESSION_SIZE_LIMIT + ")")
    int minSize;

    @Option(names = "--max-sample-bytes", defaultValue = "67108864", paramLabel = "BYTES",
            description = "stop reading keys once the decoded values read hold this many bytes (default ${DEFAULT-VALUE})")
    long maxSampleBytes;

    @Option(names = "--goal", defaultValue = "balanced", paramLabel = "GOAL",
            description = "the goal the recommendation follows, as adaptive compression's: balanced (the default), "
                    + "memory (the largest saving within --cpu-budget) or speed (lz4 or plain)")
    String goal;

    @Option(names = "--cpu-budget", paramLabel = "US_PER_KIB",
            description = "with --goal memory: the most compression CPU an option may take, in microseconds per KiB "
                    + "of value, as measured here")
    Double cpuBudget;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The options measured, in cost order: the library's list, which the run-time decisions choose among too. */
    static final List<CompressionOption> CHOICES = CompressionOption.compressing();

    /** One key read: its type, MEMORY USAGE, HLEN, and its values as {field stored bytes or null, stored, decoded}. */
    record KeyData(String type, long memory, long length, List<byte[][]> values) {}

    /**
     * The result of one option on one pattern; {@code values} and {@code plainBytes}: how many values the figures are
     * of, and their decoded bytes (what they take stored plain). {@code decideSaved}, {@code decideMicrosPerKiB} and
     * {@code decideUsable}: the option's figures from {@link OptionMeasurements}, the measuring code the run-time
     * decisions use, which the recommendation takes.
     */
    record Outcome(CompressionOption choice, long storedBefore, long storedAfter, long memoryBefore, double memorySaved,
                   long keysMeasured, double compressMicros, double decompressMicros, long values, long plainBytes,
                   String note, double decideSaved, double decideMicrosPerKiB, boolean decideUsable) {
        /** An outcome whose decision figures are its own totals (no shared measurement: tests, no values). */
        Outcome(CompressionOption choice, long storedBefore, long storedAfter, long memoryBefore, double memorySaved,
                long keysMeasured, double compressMicros, double decompressMicros, long values, long plainBytes,
                String note) {
            this(choice, storedBefore, storedAfter, memoryBefore, memorySaved, keysMeasured, compressMicros,
                    decompressMicros, values, plainBytes, note,
                    plainBytes == 0 ? 0 : 1 - (double) storedAfter / plainBytes,
                    plainBytes == 0 ? 0 : compressMicros * values / (plainBytes / 1024.0), true);
        }

        /** @return this outcome with the shared measurement's figures of its option */
        Outcome measured(OptionMeasurements m) {
            return new Outcome(choice, storedBefore, storedAfter, memoryBefore, memorySaved, keysMeasured,
                    compressMicros, decompressMicros, values, plainBytes, note, m.saved(choice),
                    m.cpuMicrosPerKiB(choice), m.usable(choice));
        }

        double storedFraction() {
            return storedBefore == 0 ? 0 : 1 - (double) storedAfter / storedBefore;
        }

        double memoryFraction() {
            return memoryBefore <= 0 ? 0 : memorySaved / memoryBefore;
        }

        /**
         * @return the stored bytes saved against the values stored plain, as the shared rule and the run-time
         *         decisions count (the same as {@link #storedFraction()} where the values are plain now)
         */
        double plainFraction() {
            return plainBytes == 0 ? 0 : 1 - (double) storedAfter / plainBytes;
        }

        /** @return the compression CPU in microseconds per KiB of decoded value, as the shared rule takes it */
        double compressMicrosPerKiB() {
            return plainBytes == 0 ? 0 : compressMicros * values / (plainBytes / 1024.0);
        }
    }

    @Override
    public Integer call() {
        sampling.check();
        Common.checkMinSize(minSize);
        if (maxSampleBytes < 1) {
            throw new ToolException.BadArguments("--max-sample-bytes must be at least 1, got " + maxSampleBytes);
        }
        CompressionGoal g = goal(goal, cpuBudget);
        PrintWriter out = spec.commandLine().getOut();
        Progress progress = common.progress(spec.commandLine().getErr());
        try (Keyspace ks = common.connect()) {
            DictionaryManager dicts = common.dictionaries(ks, spec.commandLine().getErr());
            Classifier classifier = new Classifier(common.limit, common.legacyFormats(), dicts,
                    common::missingDictionary);
            MemoryModel model = new MemoryModel(ks.jemalloc(), ks.config("hash-max-listpack-entries", 128),
                    ks.config("hash-max-listpack-value", 64));
            long t0 = System.nanoTime();
            Inspect.Sampled s = Inspect.scan(ks, common, sampling.pattern(), sampling.sample, progress);
            Map<String, List<KeyData>> byPattern = new TreeMap<>();
            Reader reader = new Reader(ks.limiter, common.limit);
            long bytes = 0;
            long values = 0;
            int unreadable = 0;
            boolean cut = false;
            for (Inspect.Draw d : s.drawn()) {
                if (bytes >= maxSampleBytes) {
                    cut = true;
                    break;
                }
                Reader.KeyRead r = reader.sample(ks.nodes().get(d.node()).sync(), d.key(), sampling.elements,
                        sampling.maxElements);
                progress.update("read " + values + " values");
                if (!r.type().equals("string") && !r.type().equals("hash")) {
                    continue;
                }
                List<byte[][]> vs = new ArrayList<>();
                boolean ok = true;
                for (Reader.Element e : r.elements()) {
                    if (e.role() == Reader.Role.HASH_FIELD) {
                        continue;
                    }
                    Classifier.Result c = e.stored() == null ? null : classifier.classify(e.stored());
                    if (c == null || c.decoded() == null) {
                        ok = false;
                        break;
                    }
                    vs.add(new byte[][] {e.field(), e.stored(), c.decoded()});
                    bytes += c.decoded().length;
                }
                if (!ok || vs.isEmpty()) {
                    unreadable++;
                    continue;
                }
                values += vs.size();
                byPattern.computeIfAbsent(Inspect.patternOf(s.patterns(), d.key()), k -> new ArrayList<>())
                        .add(new KeyData(r.type(), r.memory(), r.length(), vs));
            }
            long read = System.nanoTime() - t0;
            progress.update("measuring " + values + " values");
            long t1 = System.nanoTime();
            Map<CompressionOption, ValueCompressor> compressors = new LinkedHashMap<>();
            for (CompressionOption c : CHOICES) {
                if (!c.dictionary()) {
                    compressors.put(c, ValueCompressor.create(config(c)));
                }
            }
            Map<String, List<Outcome>> results = new TreeMap<>();
            byPattern.forEach((p, keys) -> results.put(p, evaluate(keys, compressors, model)));
            long measured = System.nanoTime() - t1;
            progress.done();
            print(out, ks, s, byPattern, results, values, unreadable, cut, read, measured, g);
            if (dicts != null) {
                dicts.close();
            }
            return 0;
        }
    }

    CompressionConfig config(CompressionOption c) {
        return c.config(base());
    }

    /** The configuration every option applies, but its backend and level. */
    CompressionConfig base() {
        return CompressionConfig.builder().minCompressionSize(minSize).maxDecompressedSize(common.limit).build();
    }

    List<Outcome> evaluate(List<KeyData> keys, Map<CompressionOption, ValueCompressor> compressors,
                                   MemoryModel model) {
        List<Outcome> out = new ArrayList<>();
        DictionaryManager adopted = null;
        Set<KeyData> heldOut = Collections.newSetFromMap(new IdentityHashMap<>());
        try {
            for (CompressionOption c : CHOICES) {
                if (!c.dictionary()) {
                    out.add(measure(c, compressors.get(c), keys, model, null));
                    continue;
                }
                // train on one half of the keys, measure on the other (keys holding the same values on one side:
                // measured on values it was not trained on), adopt as the library does
                List<KeyData> train = List.of();
                List<KeyData> test = List.of();
                if (keys.size() >= 2) {
                    HeldOut.Split<KeyData> split = HeldOut.split(keys,
                            k -> k.values().stream().map(v -> java.nio.ByteBuffer.wrap(v[2])).toList(),
                            keys.size() - keys.size() / 2, new Random(1));
                    train = split.train();
                    test = split.heldOut();
                }
                List<byte[]> samples = new ArrayList<>();
                train.forEach(k -> k.values().forEach(v -> samples.add(v[2])));
                if (samples.size() < 16 || test.isEmpty()) {
                    out.add(new Outcome(c, 0, 0, 0, 0, 0, 0, 0, 0, 0, "too few values to train a dictionary ("
                            + samples.size() + ")"));
                    continue;
                }
                ZstdDictionary dict;
                try {
                    dict = ZstdDictionary.train(samples, DictionaryManager.DEFAULT_DICTIONARY_SIZE);
                } catch (RuntimeException e) {
                    out.add(new Outcome(c, 0, 0, 0, 0, 0, 0, 0, 0, 0, "training failed: " + e.getMessage()));
                    continue;
                }
                DictionaryManager dm = DictionaryManager.given(dict.toByteArray()).build();
                ValueCompressor vc = ValueCompressor.create(config(c), dm);
                Outcome with = measure(c, vc, test, model, null);
                double gain = savedOfOriginal(vc, test)
                        - savedOfOriginal(compressors.get(CompressionOption.ZSTD_3), test);
                boolean adopt = gain >= DictionaryManager.DEFAULT_MIN_IMPROVEMENT;
                if (adopt) {
                    adopted = dm;
                    heldOut.addAll(test);
                } else {
                    dm.close();
                }
                String note = String.format(Locale.ROOT, "%s: %+.1f points over zstd 3 on the held-out half (%d keys; "
                        + "the library adopts a dictionary at %+.1f)", adopt ? "adopted" : "not adopted", 100 * gain,
                        test.size(), 100 * DictionaryManager.DEFAULT_MIN_IMPROVEMENT);
                // project the held-out half's savings onto all keys read
                double scale = (double) keys.size() / test.size();
                long memBefore = keys.stream().mapToLong(k -> Math.max(0, k.memory())).sum();
                out.add(new Outcome(c, (long) (with.storedBefore() * scale), (long) (with.storedAfter() * scale),
                        memBefore, with.memorySaved() * scale, keys.size(), with.compressMicros(),
                        with.decompressMicros(), (long) (with.values() * scale), (long) (with.plainBytes() * scale),
                        note));
            }
            OptionMeasurements m = measureShared(keys, adopted, heldOut);
            out.replaceAll(o -> o.keysMeasured() > 0 ? o.measured(m) : o);
            return out;
        } finally {
            if (adopted != null) {
                adopted.close();
            }
        }
    }

    /**
     * The figures the recommendation takes, measured by the library's own measuring code on every value read (the
     * dictionary option on the held-out half, when adopted): as the run-time decisions measure a pattern's sampled
     * writes, after one pass that warms the coders.
     */
    OptionMeasurements measureShared(List<KeyData> keys, DictionaryManager dictionary, Set<KeyData> heldOut) {
        int n = Math.clamp(keys.stream().mapToLong(k -> k.values().size()).sum(), 1, OptionMeasurements.MAX_WINDOW);
        OptionMeasurements warm = OptionMeasurements.create(base(), dictionary, 1);
        OptionMeasurements m = OptionMeasurements.create(base(), dictionary, n);
        for (OptionMeasurements pass : List.of(warm, m)) {
            for (KeyData k : keys) {
                for (byte[][] v : k.values()) {
                    pass.add(v[2], heldOut.contains(k));
                }
            }
        }
        return m;
    }

    /** @return the fraction of the original (decoded) bytes {@code vc} saves on {@code keys}, as the library counts */
    private static double savedOfOriginal(ValueCompressor vc, List<KeyData> keys) {
        long original = 0;
        long stored = 0;
        for (KeyData k : keys) {
            for (byte[][] v : k.values()) {
                original += v[2].length;
                stored += vc.compress(v[2]).length;
            }
        }
        return original == 0 ? 0 : 1 - (double) stored / original;
    }

    private Outcome measure(CompressionOption c, ValueCompressor vc, List<KeyData> keys, MemoryModel model,
                            String note) {
        long storedBefore = 0;
        long valueBytes = 0;
        long storedAfter = 0;
        long memBefore = 0;
        double memSaved = 0;
        List<byte[]> compressed = new ArrayList<>();
        for (KeyData k : keys) {
            List<long[]> before = new ArrayList<>();
            List<long[]> after = new ArrayList<>();
            for (byte[][] v : k.values()) {
                byte[] now = vc.compress(v[2]);
                compressed.add(now);
                valueBytes += v[2].length;
                storedBefore += v[1].length;
                storedAfter += now.length;
                long field = v[0] == null ? 0 : v[0].length;
                before.add(new long[] {field, v[1].length});
                after.add(new long[] {field, now.length});
            }
            long delta = k.type().equals("string") ? model.string(before.get(0)[1]) - model.string(after.get(0)[1])
                    : model.hash(before, k.length()) - model.hash(after, k.length());
            if (k.memory() > 0) {
                memBefore += k.memory();
                memSaved += delta;
            }
        }
        // CPU per value on this machine: the pass above warmed the coder; then the fastest of 3 to 5 timed passes
        // each way (more than 3 only while under 100 ms), so that one slow pass (JIT, GC, a busy machine) does not count
        long n = Math.max(1, compressed.size());
        double cUs = Double.MAX_VALUE;
        double dUs = Double.MAX_VALUE;
        long budget = System.nanoTime() + 100_000_000L;
        for (int pass = 0; pass < 5 && (pass < 3 || System.nanoTime() < budget); pass++) {
            long t = System.nanoTime();
            for (KeyData k : keys) {
                for (byte[][] v : k.values()) {
                    vc.compress(v[2]);
                }
            }
            cUs = Math.min(cUs, (System.nanoTime() - t) / 1e3 / n);
            t = System.nanoTime();
            for (byte[] s : compressed) {
                vc.decompress(s);
            }
            dUs = Math.min(dUs, (System.nanoTime() - t) / 1e3 / n);
        }
        return new Outcome(c, storedBefore, storedAfter, memBefore, memSaved, keys.size(), cUs, dUs,
                compressed.size(), valueBytes, note);
    }

    /**
     * @return the goal {@code --goal} and {@code --cpu-budget} name, as adaptive compression takes it
     * @throws ToolException.BadArguments for an unknown goal, a budget without the memory goal, or memory without one
     */
    static CompressionGoal goal(String name, Double cpuBudget) {
        String n = name.toLowerCase(Locale.ROOT);
        if (!n.equals("memory") && cpuBudget != null) {
            throw new ToolException.BadArguments("--cpu-budget is for --goal memory only (the goal is " + name + ")");
        }
        return switch (n) {
            case "balanced" -> CompressionGoal.balanced();
            case "speed" -> CompressionGoal.speed();
            case "memory" -> {
                if (cpuBudget == null || !(cpuBudget > 0)) {
                    throw new ToolException.BadArguments("--goal memory needs --cpu-budget, a positive number of"
                            + " microseconds per KiB (" + (cpuBudget == null ? "none given" : cpuBudget + " given")
                            + ")");
                }
                yield CompressionGoal.memory(cpuBudget);
            }
            default -> throw new ToolException.BadArguments("--goal " + name + ": balanced, memory or speed");
        };
    }

    /** @return {@code goal} in words, as the output names it */
    static String describe(CompressionGoal goal) {
        String kind = goal.kind().name().toLowerCase(Locale.ROOT);
        return goal.kind() == CompressionGoal.Kind.MEMORY
                ? String.format(Locale.ROOT, "%s (CPU budget %.2f us/KiB)", kind, goal.cpuBudgetMicrosPerKiB()) : kind;
    }

    /** As {@link #recommend(List, CompressionGoal)} for the default goal, {@link CompressionGoal#balanced()}. */
    static Outcome recommend(List<Outcome> os) {
        return recommend(os, CompressionGoal.balanced());
    }

    /**
     * The library's rule for {@code goal} ({@link CompressionGoal#decide}, as the run-time decisions take it) on the
     * figures of the library's measuring code ({@link OptionMeasurements}): for the default goal, by the stored bytes
     * saved against the values stored plain, the option with the least median compression CPU per KiB within 2 points
     * of the best saving, plain when none saves 5%.
     *
     * @return the recommended outcome, or null for "leave it plain"
     */
    static Outcome recommend(List<Outcome> os, CompressionGoal goal) {
        int n = CompressionOption.values().length;
        double[] saved = new double[n];
        double[] cpu = new double[n];
        boolean[] usable = new boolean[n];
        Outcome[] byOption = new Outcome[n];
        for (Outcome o : os) {
            int i = o.choice().ordinal();
            byOption[i] = o;
            saved[i] = o.decideSaved();
            cpu[i] = o.decideMicrosPerKiB();
            usable[i] = usable(o);
        }
        CompressionOption pick = goal.decide(saved, cpu, usable);
        return pick.compresses() ? byOption[pick.ordinal()] : null;
    }

    private static boolean usable(Outcome o) {
        return o.keysMeasured() > 0 && o.decideUsable()
                && (!o.choice().dictionary() || o.note().startsWith("adopted"));
    }

    static String why(List<KeyData> keys, List<Outcome> os, CompressionGoal goal) {
        List<Integer> sizes = new ArrayList<>();
        keys.forEach(k -> k.values().forEach(v -> sizes.add(v[2].length)));
        Collections.sort(sizes);
        int median = sizes.isEmpty() ? 0 : sizes.get(sizes.size() / 2);
        if (median < 64) {
            return "leave it plain: small values (median " + median + " B)";
        }
        return switch (goal.kind()) {
            case BALANCED -> String.format(Locale.ROOT, "leave it plain: the best option saves %.1f%% of the bytes"
                    + " stored plain (under %d%%)", 100 * best(os, o -> true), CompressionGoal.MIN_SAVING_PERCENT);
            case SPEED -> String.format(Locale.ROOT, "leave it plain: lz4 saves %.1f%% of the bytes stored plain"
                    + " (under %d%%)", 100 * best(os, o -> o.choice() == CompressionOption.LZ4),
                    CompressionGoal.MIN_SAVING_PERCENT);
            case MEMORY -> String.format(Locale.ROOT, "leave it plain: the best option within the CPU budget saves"
                    + " %.1f%% of the bytes stored plain (under %d%%)", 100 * best(os,
                    o -> o.decideMicrosPerKiB() <= goal.cpuBudgetMicrosPerKiB()),
                    CompressionGoal.MEMORY_MIN_SAVING_PERCENT);
        };
    }

    private static double best(List<Outcome> os, java.util.function.Predicate<Outcome> which) {
        return os.stream().filter(Advise::usable).filter(which).mapToDouble(Outcome::decideSaved).max().orElse(0);
    }

    /** @return the configuration to paste for Lettuce, Spring Data Redis and Redisson */
    static List<String> snippets(CompressionOption c, int minSize) {
        String cfg = "CompressionConfig config = CompressionConfig.builder().backend(CompressionBackend."
                + c.backend().name() + ").level(" + c.level() + ")"
                + (minSize != CompressionConfig.DEFAULT_MIN_COMPRESSION_SIZE ? ".minCompressionSize(" + minSize + ")" : "")
                + ".build();";
        String vc = c.dictionary()
                ? "ValueCompressor compressor = ValueCompressor.create(config, DictionaryManager.managed("
                + "LettuceDictionaryStore.builder().connect(redisClient, redisUri)).build());"
                : "ValueCompressor compressor = ValueCompressor.create(config);";
        List<String> lines = new ArrayList<>(List.of(cfg, vc,
                "Lettuce:  CompressingRedisClient.create(uri).connect(StringCodec.UTF8, compressor);",
                "Spring:   CompressingRedisTemplate.create(connectionFactory, RedisSerializer.string(), compressor);",
                "Redisson: Codec codec = new CompressingRedissonCodec(StringCodec.INSTANCE, compressor);"
                        + " // buckets and map values only"));
        if (c.dictionary()) {
            lines.add("(Valkey GLIDE and earlier versions of this library cannot read values written with a dictionary:"
                    + " turn it on once every reader runs a version that has them)");
        }
        return lines;
    }

    private void print(PrintWriter out, Keyspace ks, Inspect.Sampled s, Map<String, List<KeyData>> byPattern,
                       Map<String, List<Outcome>> results, long values, int unreadable, boolean cut, long readNanos,
                       long measureNanos, CompressionGoal goal) {
        double per10k = values == 0 ? 0 : measureNanos / 1e9 * 10_000 / values;
        if (common.json) {
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("server", ks.uri().getHost() + ":" + ks.uri().getPort());
            root.put("cluster", ks.cluster());
            root.put("goal", goal.kind().name().toLowerCase(Locale.ROOT));
            if (goal.kind() == CompressionGoal.Kind.MEMORY) {
                root.put("cpuBudgetMicrosPerKiB", goal.cpuBudgetMicrosPerKiB());
            }
            root.put("keysScanned", s.scanned());
            root.put("valuesMeasured", values);
            root.put("keysUnreadable", unreadable);
            root.put("sampleCut", cut);
            root.put("readSeconds", readNanos / 1e9);
            root.put("measureSeconds", measureNanos / 1e9);
            root.put("measureSecondsPer10000Values", per10k);
            List<Object> ps = new ArrayList<>();
            results.forEach((p, os) -> {
                List<KeyData> keys = byPattern.get(p);
                Inspect.PatternStats st = s.patterns().get(p);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("pattern", Names.escape(p));
                m.put("keys", st.keys);
                m.put("keysRead", keys.size());
                long mu = keys.stream().filter(k -> k.memory() > 0).mapToLong(KeyData::memory).sum();
                long muKeys = keys.stream().filter(k -> k.memory() > 0).count();
                m.put("memoryUsageMiB", muKeys == 0 ? 0 : (double) mu / muKeys * st.keys / (1 << 20));
                List<Object> opts = new ArrayList<>();
                for (Outcome o : os) {
                    Map<String, Object> om = new LinkedHashMap<>();
                    om.put("option", o.choice().label());
                    om.put("storedSavedFraction", o.storedFraction());
                    om.put("memorySavedFraction", o.memoryFraction());
                    om.put("projectedSavedMiB", projected(o, keys, st.keys));
                    om.put("compressMicros", o.compressMicros());
                    om.put("decompressMicros", o.decompressMicros());
                    if (o.note() != null) {
                        om.put("note", o.note());
                    }
                    opts.add(om);
                }
                m.put("options", opts);
                Outcome r = recommend(os, goal);
                m.put("recommendation", r == null ? why(keys, os, goal) : r.choice().label());
                if (r != null) {
                    m.put("config", snippets(r.choice(), minSize));
                }
                ps.add(m);
            });
            root.put("patterns", ps);
            root.put("commands", ks.limiter.acquired());
            Main.printJson(out, root);
            return;
        }
        out.printf(Locale.ROOT, "advise %s (%s): %d keys scanned, %d values measured%s%s; goal %s%n",
                ks.uri().getHost() + ":" + ks.uri().getPort(), ks.cluster() ? "cluster" : "standalone", s.scanned(),
                values, unreadable > 0 ? ", " + unreadable + " keys left out (a value that did not decode or was"
                        + " not read)" : "",
                cut ? ", sample cut at --max-sample-bytes" : "", describe(goal));
        results.forEach((p, os) -> {
            List<KeyData> keys = byPattern.get(p);
            Inspect.PatternStats st = s.patterns().get(p);
            long mu = keys.stream().filter(k -> k.memory() > 0).mapToLong(KeyData::memory).sum();
            long muKeys = keys.stream().filter(k -> k.memory() > 0).count();
            out.println();
            out.printf(Locale.ROOT, "pattern %s: %d keys, %d read; MEMORY USAGE %s/key, %s for the pattern%n",
                    Names.escape(p),
                    st.keys, keys.size(), muKeys == 0 ? "n/a" : Main.bytes((double) mu / muKeys),
                    muKeys == 0 ? "n/a" : Main.bytes((double) mu / muKeys * st.keys));
            out.printf(Locale.ROOT, "  %-20s %13s %13s %15s %12s %14s%n", "option", "stored saved", "memory saved",
                    "projected MiB", "compress us", "decompress us");
            for (Outcome o : os) {
                if (o.keysMeasured() == 0) {
                    out.printf(Locale.ROOT, "  %-20s %s%n", o.choice().label(), o.note());
                    continue;
                }
                out.printf(Locale.ROOT, "  %-20s %12.1f%% %12.1f%% %15.3f %12.2f %14.2f%s%n", o.choice().label(),
                        100 * o.storedFraction(), 100 * o.memoryFraction(), projected(o, keys, st.keys),
                        o.compressMicros(), o.decompressMicros(), o.note() == null ? "" : "  " + o.note());
            }
            Outcome r = recommend(os, goal);
            if (r == null) {
                out.println("  recommendation: " + why(keys, os, goal));
            } else {
                out.println("  recommendation: " + r.choice().label());
                for (String line : snippets(r.choice(), minSize)) {
                    out.println("    " + line);
                }
            }
        });
        out.printf(Locale.ROOT, "%nreading took %.1f s (rate-limited, %d commands), measuring %.2f s (%.2f s per 10,000 "
                + "values on this machine)%n", readNanos / 1e9, ks.limiter.acquired(), measureNanos / 1e9, per10k);
        out.flush();
    }

    /** @return the memory the option saves on the whole pattern, in MiB: the mean saving per key read times its keys */
    static double projected(Outcome o, List<KeyData> keys, long patternKeys) {
        long withMemory = keys.stream().filter(k -> k.memory() > 0).count();
        return withMemory == 0 ? 0 : o.memorySaved() / withMemory * patternKeys / (1 << 20);
    }
}
