package dev.zstdjava.cli;

import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.KeyFolder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code inspect URI}: what the keyspace stores, per key pattern and class; {@code inspect get URI KEY} decodes one
 * value. Read-only.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true, subcommands = InspectGet.class,
        description = {"Classify sampled values per key pattern: plain, GLIDE zstd (with dictionary id), GLIDE lz4, "
                + "unknown header, legacy formats (Lettuce gzip/deflate, Redisson zstd/lz4).",
                "Strings and hash values; hash fields, set and sorted-set members and list elements too (to find what "
                        + "earlier builds compressed). Read-only."})
final class Inspect implements Callable<Integer> {
    /** Most distinct patterns counted; keys of further patterns are counted under {@link #OTHER}. */
    static final int MAX_PATTERNS = 10_000;
    static final String OTHER = "(other patterns)";

    @Mixin
    Common common;

    @Mixin
    Sampling sampling;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Counts of one class of values in one place (where) of one pattern. */
    static final class ClassCount {
        long values;
        long stored;
        long decoded;
    }

    /** What one pattern holds. */
    static final class PatternStats {
        long keys;
        long read;
        final Map<String, Long> types = new TreeMap<>();
        long memoryKeys;
        long memoryBytes;
        final Map<String, ClassCount> classes = new TreeMap<>();
    }

    /** Keys scanned and drawn, shared by inspect and advise. */
    record Sampled(Map<String, PatternStats> patterns, List<Draw> drawn, long scanned) {}

    /** One key drawn for reading. */
    record Draw(int node, byte[] key) {}

    @Override
    public Integer call() {
        sampling.check();
        PrintWriter out = spec.commandLine().getOut();
        Progress progress = common.progress(spec.commandLine().getErr());
        try (Keyspace ks = common.connect()) {
            DictionaryManager dicts = common.dictionaries(ks, spec.commandLine().getErr());
            Classifier classifier = new Classifier(common.limit, common.legacyFormats(), dicts,
                    common::missingDictionary);
            Sampled s = scan(ks, common, sampling.pattern(), sampling.sample, progress);
            Reader reader = new Reader(ks.limiter, common.limit);
            int done = 0;
            for (Draw d : s.drawn()) {
                PatternStats p = s.patterns().get(patternOf(s.patterns(), d.key()));
                Reader.KeyRead r = reader.sample(ks.nodes().get(d.node()).sync(), d.key(), sampling.elements,
                        sampling.maxElements);
                progress.update("reading " + (++done) + "/" + s.drawn().size() + " keys");
                if (r.type().equals("none")) {
                    continue; // deleted since the scan
                }
                p.read++;
                p.types.merge(r.type(), 1L, Long::sum);
                if (r.memory() >= 0) {
                    p.memoryKeys++;
                    p.memoryBytes += r.memory();
                }
                if (r.unread() != null) { // its members were not read: counted once, with its MEMORY USAGE
                    ClassCount cc = p.classes.computeIfAbsent(where(memberRole(r.type())) + "\t" + UNREAD,
                            k -> new ClassCount());
                    cc.values++;
                    cc.stored += Math.max(r.memory(), 0);
                }
                for (Reader.Element e : r.elements()) {
                    String where = where(e.role());
                    String label;
                    long decoded = 0;
                    if (e.stored() == null) {
                        label = "skipped: over the limit (--limit)";
                    } else {
                        Classifier.Result c = classifier.classify(e.stored());
                        label = c.label();
                        decoded = c.decoded() == null ? 0 : c.decoded().length;
                    }
                    ClassCount cc = p.classes.computeIfAbsent(where + "\t" + label, k -> new ClassCount());
                    cc.values++;
                    cc.stored += e.size();
                    cc.decoded += decoded;
                }
            }
            progress.done();
            print(out, ks, s, dicts);
            if (dicts != null) {
                dicts.close();
            }
            return 0;
        }
    }

    /** The class of a collection whose members were not read ({@link Reader#unbounded}). */
    static final String UNREAD = "skipped: collection not read (--max-elements, --limit)";

    /** @return the role of the members (hash: field names) of a collection of {@code type} */
    static Reader.Role memberRole(String type) {
        return switch (type) {
            case "hash" -> Reader.Role.HASH_FIELD;
            case "set" -> Reader.Role.SET_MEMBER;
            case "zset" -> Reader.Role.ZSET_MEMBER;
            default -> Reader.Role.LIST_ELEMENT;
        };
    }

    static String where(Reader.Role r) {
        return switch (r) {
            case STRING -> "string value";
            case HASH_FIELD -> "hash field";
            case HASH_VALUE -> "hash value";
            case SET_MEMBER -> "set member";
            case ZSET_MEMBER -> "zset member";
            case LIST_ELEMENT -> "list element";
        };
    }

    static String patternOf(Map<String, PatternStats> patterns, byte[] key) {
        String p = KeyFolder.patternOf(key);
        return patterns.containsKey(p) ? p : OTHER;
    }

    /**
     * Scans every key matching {@code match}, counts keys per pattern and draws up to {@code sample} keys uniformly
     * (reservoir sampling: memory bounded by the sample and the pattern cap).
     */
    static Sampled scan(Keyspace ks, Common common, byte[] match, int sample, Progress progress) {
        Map<String, PatternStats> patterns = new TreeMap<>();
        List<Draw> drawn = new ArrayList<>();
        Random random = new Random();
        long[] seen = {0};
        ks.scanAll(match, Keyspace.Position.START, 1000, null, (node, keys, resume) -> {
            for (byte[] key : keys) {
                if (common.isStoreKey(key)) {
                    continue;
                }
                String p = KeyFolder.patternOf(key);
                PatternStats st = patterns.get(p);
                if (st == null) {
                    st = patterns.computeIfAbsent(patterns.size() < MAX_PATTERNS ? p : OTHER, k -> new PatternStats());
                }
                st.keys++;
                long i = seen[0]++;
                if (drawn.size() < sample) {
                    drawn.add(new Draw(node, key));
                } else {
                    long j = (long) (random.nextDouble() * (i + 1));
                    if (j < sample) {
                        drawn.set((int) j, new Draw(node, key));
                    }
                }
            }
            progress.update("scanned " + seen[0] + " keys");
        });
        return new Sampled(patterns, drawn, seen[0]);
    }

    /** @return the key types of {@code p} and their counts, each type (a module names its own) as {@link Names} prints */
    private static Map<String, Long> types(PatternStats p) {
        Map<String, Long> m = new TreeMap<>();
        p.types.forEach((t, n) -> m.put(Names.escape(t), n));
        return m;
    }

    private void print(PrintWriter out, Keyspace ks, Sampled s, DictionaryManager dicts) {
        long read = s.patterns().values().stream().mapToLong(p -> p.read).sum();
        boolean exact = s.drawn().size() == s.scanned();
        if (common.json) {
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("server", ks.uri().getHost() + ":" + ks.uri().getPort());
            root.put("cluster", ks.cluster());
            root.put("primaries", ks.nodes().size());
            root.put("keysScanned", s.scanned());
            root.put("keysRead", read);
            root.put("exact", exact);
            root.put("dictionaries", dicts == null ? List.of() : dicts.published().stream().map(i -> i.id()).toList());
            List<Object> ps = new ArrayList<>();
            s.patterns().forEach((name, p) -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("pattern", Names.escape(name));
                m.put("keys", p.keys);
                m.put("keysRead", p.read);
                m.put("types", types(p));
                m.put("memoryUsageKeys", p.memoryKeys);
                m.put("memoryUsageBytes", p.memoryBytes);
                List<Object> cs = new ArrayList<>();
                p.classes.forEach((k, c) -> {
                    String[] wl = k.split("\t", 2);
                    Map<String, Object> cm = new LinkedHashMap<>();
                    cm.put("where", wl[0]);
                    cm.put("class", wl[1]);
                    cm.put("values", c.values);
                    cm.put("storedBytes", c.stored);
                    cm.put("decodedBytes", c.decoded);
                    cs.add(cm);
                });
                m.put("classes", cs);
                ps.add(m);
            });
            root.put("patterns", ps);
            root.put("commands", ks.limiter.acquired());
            Main.printJson(out, root);
            return;
        }
        out.printf(Locale.ROOT, "%s %s (%s, %d primar%s): %d keys scanned, %d read%s%n", "inspect",
                ks.uri().getHost() + ":" + ks.uri().getPort(), ks.cluster() ? "cluster" : "standalone",
                ks.nodes().size(), ks.nodes().size() == 1 ? "y" : "ies", s.scanned(), read,
                exact ? " (every key: counts are exact)" : " (a sample: counts are of the keys read)");
        if (dicts != null) {
            out.println("dictionaries published: " + dicts.published().stream().map(i -> Long.toString(i.id())).toList());
        }
        s.patterns().forEach((name, p) -> {
            out.println();
            out.printf(Locale.ROOT, "pattern %s: %d keys, %d read, types %s, MEMORY USAGE %s%n", Names.escape(name),
                    p.keys, p.read, types(p), p.memoryKeys == 0 ? "n/a" : Main.bytes(p.memoryBytes) + " for "
                            + p.memoryKeys + " keys (" + Main.bytes((double) p.memoryBytes / p.memoryKeys) + "/key)");
            out.printf(Locale.ROOT, "  %-13s %-44s %8s %12s %12s%n", "where", "class", "values", "stored B", "decoded B");
            p.classes.forEach((k, c) -> {
                String[] wl = k.split("\t", 2);
                out.printf(Locale.ROOT, "  %-13s %-44s %8d %12d %12d%n", wl[0], wl[1], c.values, c.stored, c.decoded);
            });
        });
        out.printf(Locale.ROOT, "%n%d commands sent (at most %.0f/s)%n", ks.limiter.acquired(), common.rate);
        out.flush();
    }
}
