package dev.zstdjava.cli;

import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.StoredForm;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.SetArgs;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.sync.RedisCommands;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * {@code migrate URI --from F --to T --match P [--apply]}: rewrites values from one stored form to another, one key at
 * a time under {@code WATCH}/{@code MULTI}/{@code EXEC} (a key changed since it was read is skipped), keeping the TTL
 * (strings with {@code SET ... KEEPTTL}; collections are changed in place, never emptied). A dry run unless
 * {@code --apply}. Not thread-safe; one run at a time.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = {"Rewrite values from one stored form to another: a legacy format to GLIDE's, plain to "
                + "compressed, compressed to plain. A dry run unless --apply.",
                "String values and hash values take --to; hash fields, set and sorted-set members and list elements in "
                        + "the --from form are rewritten plain (members and names are never compressed).",
                "Each key is rewritten only if unchanged since it was read (WATCH/MULTI/EXEC); TTLs are kept."})
final class Migrate implements Callable<Integer> {
    /** The most failed keys listed in the summary; the rest are counted. */
    static final int MAX_LISTED = 100;

    /** Test hook: runs after a key was read and before its rewrite is sent (null: nothing). */
    static volatile Consumer<byte[]> beforeWrite;

    @Mixin
    Common common;

    @Option(names = "--from", required = true, paramLabel = "FORMAT", completionCandidates = FromForms.class,
            description = "what to rewrite: ${COMPLETION-CANDIDATES} (glide: every form the library writes, legacy: "
                    + "every form it only reads, compressed: both)")
    String from;

    @Option(names = "--to", required = true, paramLabel = "FORMAT", completionCandidates = ToForms.class,
            description = "what to write: ${COMPLETION-CANDIDATES} (the library's rule: stored compressed only when at "
                    + "least --min-size bytes and smaller)")
    String to;

    @Option(names = "--match", required = true, paramLabel = "PATTERN", description = "SCAN MATCH pattern of the keys;"
            + " \\xHH is one byte, as the tool prints names")
    String match;

    @Option(names = "--apply", description = "write; without it nothing is written (a dry run)")
    boolean apply;

    @Option(names = "--cursor", paramLabel = "CURSOR", description = "resume where an earlier run stopped, with the"
            + " cursor it printed (0:CURSOR/OPTIONS on a standalone server, NODEID:CURSOR@TOPOLOGY/OPTIONS on a"
            + " cluster: refused when that primary or the cluster's slots changed since, or when --match, --from, --to,"
            + " --min-size, --legacy, --dictionary-prefix or --apply differ from the run that printed it)")
    String cursor;

    @Option(names = "--max-elements", defaultValue = "10000", paramLabel = "N",
            description = "collections with more elements are left alone and counted failed (default ${DEFAULT-VALUE})")
    int maxElements;

    @Option(names = "--min-size", defaultValue = "" + CompressionConfig.DEFAULT_MIN_COMPRESSION_SIZE, paramLabel = "BYTES",
            description = "smallest value compressed (default ${DEFAULT-VALUE}, at least "
                    + CompressionConfig.MIN_COMPRESSION_SIZE_LIMIT + ")")
    int minSize;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Outcome of one key. */
    enum Outcome {
        REWRITTEN("rewritten"), CHANGED("skipped: changed meanwhile"), NOT_THAT_FORMAT("skipped: not that format"),
        NOT_SMALLER("skipped: would not be smaller"), FAILED("failed");

        final String label;

        Outcome(String label) {
            this.label = label;
        }
    }

    private Set<StoredForm> fromForms;
    private ValueCompressor target;
    private Classifier classifier;
    private Reader reader;

    /** The groups {@code --from} takes besides the labels of the catalogue's forms; the label is the name in lower case. */
    enum FromGroup {
        /** The forms the library writes. */
        GLIDE,
        /** The read-only forms. */
        LEGACY,
        /** Both: anything but plain. */
        COMPRESSED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        boolean contains(StoredForm f) {
            boolean written = f.backend() != null;
            boolean readOnly = f.legacyFormat() != null;
            return switch (this) {
                case GLIDE -> written;
                case LEGACY -> readOnly;
                case COMPRESSED -> written || readOnly;
            };
        }
    }

    /** The forms {@code --from} can name: every form of the catalogue but the unknown header. */
    static final class FromForms implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            List<String> l = new ArrayList<>();
            for (StoredForm f : StoredForm.all()) {
                if (f != StoredForm.UNKNOWN_HEADER) {
                    l.add(f.label());
                }
            }
            for (FromGroup g : FromGroup.values()) {
                l.add(g.label());
            }
            return l.iterator();
        }
    }

    /** The forms {@code --to} can name: plain, or a form the library writes, with its level. */
    static final class ToForms implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            List<String> l = new ArrayList<>(List.of(StoredForm.PLAIN.label()));
            for (CompressionBackend b : CompressionBackend.values()) {
                l.add(StoredForm.of(b).label() + "[:LEVEL]");
            }
            return l.iterator();
        }
    }

    static Set<StoredForm> parseFrom(String f) {
        String s = f.trim().toLowerCase(Locale.ROOT);
        Set<StoredForm> forms = new java.util.LinkedHashSet<>();
        for (FromGroup g : FromGroup.values()) {
            if (g.label().equals(s)) {
                StoredForm.all().stream().filter(g::contains).forEach(forms::add);
                return forms;
            }
        }
        StoredForm form = StoredForm.forLabel(s);
        if (form == null || form == StoredForm.UNKNOWN_HEADER) {
            throw new ToolException.BadArguments("--from '" + f + "': expected one of "
                    + String.join(", ", new FromForms()));
        }
        return Set.of(form);
    }

    /** @return the compressor that writes {@code t}, or null for plain */
    ValueCompressor parseTo(String t) {
        String s = t.trim().toLowerCase(Locale.ROOT);
        if (s.equals(StoredForm.PLAIN.label())) {
            return null;
        }
        String[] parts = s.split(":", 2);
        StoredForm form = StoredForm.forLabel(parts[0]);
        if (form == null || form.backend() == null) {
            throw new ToolException.BadArguments("--to '" + t + "': expected one of " + String.join(", ", new ToForms()));
        }
        CompressionConfig.Builder b = CompressionConfig.builder().backend(form.backend()).minCompressionSize(minSize)
                .maxDecompressedSize(common.limit);
        try {
            if (parts.length == 2) {
                b.level(Integer.parseInt(parts[1]));
            }
            return ValueCompressor.create(b.build());
        } catch (IllegalArgumentException e) {
            throw new ToolException.BadArguments("--to '" + t + "': " + e.getMessage());
        }
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        common.check(); // first: the writer is built from --limit
        Common.checkMinSize(minSize);
        fromForms = parseFrom(from);
        target = parseTo(to);
        if (target == null && fromForms.contains(StoredForm.PLAIN)) {
            throw new ToolException.BadArguments("--from plain --to plain changes nothing");
        }
        if (fromForms.stream().allMatch(f -> f.legacyFormat() != null
                && !common.legacyFormats().contains(f.legacyFormat()))) { // the classifier would never find one
            throw new ToolException.BadArguments("--from " + from + " is not among the formats --legacy recognises ("
                    + String.join(",", common.legacy) + "): every value would be skipped as not that format");
        }
        if (maxElements < 1) {
            throw new ToolException.BadArguments("--max-elements must be at least 1, got " + maxElements);
        }
        byte[] pattern = Names.glob(match, "--match");
        CursorOptions options = cursorOptions(pattern);
        Keyspace.Position start = cursor == null ? Keyspace.Position.START : Keyspace.Position.parse(cursor);
        if (start.options() != null) {
            options.check(cursor, start.options());
        }
        Progress progress = common.progress(err);
        Map<Outcome, Long> counts = new LinkedHashMap<>();
        for (Outcome o : Outcome.values()) {
            counts.put(o, 0L);
        }
        List<String> failures = new ArrayList<>();
        String[] resume = {start.text()};
        long[] merged = {0}; // members and hash fields made one with an equal one, in the keys rewritten
        try (Keyspace ks = common.connect()) {
            DictionaryManager dicts = common.dictionaries(ks, spec.commandLine().getErr());
            classifier = new Classifier(common.limit, common.legacyFormats(), dicts, common::missingDictionary);
            reader = new Reader(ks.limiter, common.limit);
            Thread hook = new Thread(() -> {
                err.println("zstd-values migrate: stopped; resume with --cursor " + resume[0]);
                err.flush();
            });
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                ks.scanAll(pattern, start, 100, options, (node, keys, next) -> {
                    RedisCommands<byte[], byte[]> c = ks.nodes().get(node).sync();
                    for (byte[] key : keys) {
                        if (common.isStoreKey(key)) {
                            continue;
                        }
                        String[] why = new String[1];
                        Outcome o = migrateKey(ks, c, key, why, merged);
                        counts.merge(o, 1L, Long::sum);
                        if (o == Outcome.FAILED && failures.size() < MAX_LISTED) {
                            failures.add(Names.of(key) + ": " + Names.escape(why[0]));
                        }
                    }
                    resume[0] = next;
                    progress.update(counts.get(Outcome.REWRITTEN) + (apply ? " rewritten" : " to rewrite") + ", "
                            + counts.values().stream().mapToLong(Long::longValue).sum() + " keys seen; cursor " + next);
                });
            } catch (ToolException.BadArguments e) {
                throw e;
            } catch (Keyspace.TopologyChanged e) {
                // keys may have moved into the part scanned: no cursor resumes this run, it is run again from the start
                progress.done();
                summary(out, ks, counts, merged[0], failures, Keyspace.Position.START.text(),
                        Names.escape(e.getMessage()));
                throw new ToolException(e.getMessage() + " (stopped after " + counts.get(Outcome.REWRITTEN)
                        + (apply ? " rewritten" : " to rewrite") + ")", e);
            } catch (RuntimeException e) {
                // the keys of the page it stopped in are seen again from there; those rewritten are left as they are;
                // the summary so far lists the keys that failed before, which a resumed run does not see again
                progress.done();
                summary(out, ks, counts, merged[0], failures, resume[0], Names.escape(Main.describe(e)));
                throw new ToolException(Main.describe(e) + " (stopped after " + counts.get(Outcome.REWRITTEN)
                        + (apply ? " rewritten" : " to rewrite") + "; resume with --cursor " + resume[0] + ")", e);
            } finally {
                Runtime.getRuntime().removeShutdownHook(hook);
                progress.done();
            }
            long failed = counts.get(Outcome.FAILED);
            summary(out, ks, counts, merged[0], failures, resume[0], null);
            if (dicts != null) {
                dicts.close();
            }
            if (failed > 0) {
                err.println("zstd-values migrate: " + failed + " key" + (failed == 1 ? "" : "s")
                        + " failed and were left as they are (" + (failed > failures.size() ? "the first "
                        + failures.size() + " " : "") + "listed above)");
                err.flush();
                return 1;
            }
            return 0;
        }
    }

    /**
     * Prints the summary of the run: the count of each outcome, the failed keys listed, the cursor; {@code stopped}:
     * null, or the error that stopped the run (the counts are then those until it).
     */
    private void summary(PrintWriter out, Keyspace ks, Map<Outcome, Long> counts, long merged, List<String> failures,
                         String cursor, String stopped) {
        long failed = counts.get(Outcome.FAILED);
        if (common.json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("apply", apply);
            m.put("from", from);
            m.put("to", to);
            m.put("match", match);
            Map<String, Long> byLabel = new LinkedHashMap<>();
            counts.forEach((o, n) -> byLabel.put(o.label, n));
            m.put("keys", byLabel);
            m.put("merged", merged);
            m.put("failures", failures);
            m.put("failuresNotListed", failed - failures.size());
            m.put("cursor", cursor);
            if (stopped != null) {
                m.put("stopped", stopped);
            }
            m.put("commands", ks.limiter.acquired());
            Main.printJson(out, m);
        } else {
            out.printf(Locale.ROOT, "migrate %s -> %s, keys matching %s on %s (%s)%s%n", from, to,
                    Names.escape(match),
                    ks.uri().getHost() + ":" + ks.uri().getPort(), apply ? "applied" : "dry run: nothing written",
                    stopped == null ? "" : ", stopped by an error: " + stopped);
            counts.forEach((o, n) -> out.printf(Locale.ROOT, "  %-30s %d%n",
                    (o == Outcome.REWRITTEN && !apply ? "would be rewritten" : o.label), n));
            out.printf(Locale.ROOT, "  %-30s %d%n",
                    apply ? "merged with an equal one" : "would merge with an equal one", merged);
            for (String f : failures) {
                out.println("  failed: " + f);
            }
            if (failed > failures.size()) {
                out.println("  failed: " + (failed - failures.size()) + " more keys, not listed (the first "
                        + failures.size() + " are)");
            }
            boolean restart = stopped != null && cursor.equals(Keyspace.Position.START.text());
            out.println("cursor: " + cursor + (cursor.equals("done") ? " (every key seen)"
                    : restart ? " (run again from the start)" : ""));
            out.printf(Locale.ROOT, "%d commands sent (at most %.0f/s)%n", ks.limiter.acquired(), common.rate);
        }
        out.flush();
    }

    /**
     * @return what this run's cursors carry and a resumed run must share: the options that decide which keys it
     *         rewrites and how, by their meaning ({@code --from} and {@code --legacy} as the forms they name,
     *         {@code --to} as its form and level, {@code --match} as the glob's bytes, {@code --min-size} only with a
     *         compressed {@code --to})
     */
    private CursorOptions cursorOptions(byte[] pattern) {
        Map<String, byte[]> o = new LinkedHashMap<>();
        o.put("--match", pattern);
        o.put("--from", CursorOptions.utf8(String.join(",",
                fromForms.stream().map(StoredForm::label).sorted().toList())));
        o.put("--to", CursorOptions.utf8(target == null ? StoredForm.PLAIN.label()
                : StoredForm.of(target.config().backend()).label() + ":" + target.config().level()));
        // --min-size decides only what a compressed --to writes; --to plain writes every value plain whatever it is
        // (taken as the default, so that a cursor of another --to is refused naming --from and --to alone)
        o.put("--min-size", CursorOptions.utf8(String.valueOf(target == null
                ? CompressionConfig.DEFAULT_MIN_COMPRESSION_SIZE : minSize)));
        o.put("--legacy", CursorOptions.utf8(common.legacyFormats().toString())); // an EnumSet: in a fixed order
        o.put("--dictionary-prefix", CursorOptions.utf8(common.dictionaryPrefix));
        o.put("--apply", CursorOptions.utf8(String.valueOf(apply)));
        return new CursorOptions("migrate", o);
    }

    /** Reads, converts and (with --apply) rewrites one key. */
    private Outcome migrateKey(Keyspace ks, RedisCommands<byte[], byte[]> c, byte[] key, String[] why, long[] merged) {
        if (apply) {
            ks.limiter.acquire();
            c.watch(key);
        }
        boolean watching = apply;
        try {
            Reader.KeyRead kr;
            try {
                kr = reader.readAll(c, key, maxElements);
            } catch (Reader.TooLarge e) {
                why[0] = e.getMessage();
                return Outcome.FAILED;
            }
            if (kr.type().equals("none")) {
                return Outcome.CHANGED;
            }
            Plan plan = plan(ks, c, key, kr, why);
            if (plan == null) {
                return Outcome.FAILED;
            }
            if (plan.changes.isEmpty()) {
                return plan.matched ? Outcome.NOT_SMALLER : Outcome.NOT_THAT_FORMAT;
            }
            if (!apply) {
                merged[0] += plan.merged;
                return Outcome.REWRITTEN;
            }
            Consumer<byte[]> h = beforeWrite;
            if (h != null) {
                h.accept(key);
            }
            ks.limiter.acquire();
            c.multi();
            write(ks, c, key, kr, plan);
            ks.limiter.acquire();
            TransactionResult r = c.exec();
            watching = false;
            if (r.wasDiscarded()) {
                return Outcome.CHANGED;
            }
            for (Object o : r) {
                if (o instanceof Exception e) {
                    why[0] = "the server refused the rewrite: " + e.getMessage();
                    return Outcome.FAILED;
                }
            }
            merged[0] += plan.merged;
            return Outcome.REWRITTEN;
        } finally {
            if (watching) {
                ks.limiter.acquire();
                c.unwatch();
            }
        }
    }

    /** The new bytes of each changed element, by element. */
    private static final class Plan {
        final Map<Reader.Element, byte[]> changes = new LinkedHashMap<>();
        boolean matched;
        /** Members and hash fields that become one with another of the key: the same value, stored in two forms. */
        long merged;
        /** For a hash rewritten: when each of its fields with a TTL of its own expires, by its stored name. */
        Map<ByteBuffer, Long> fieldExpiry = Map.of();
    }

    /** What a hash field written holds: its value and when it expires (0: never). */
    private record FieldState(ByteBuffer value, long expiresAt) {}

    /**
     * Counts in {@code p} the set and sorted-set members and hash fields of {@code kr} that the rewrite makes one with
     * another (a compressed member whose plain form is a member already, or two forms of one value): a set member is
     * kept once, which loses nothing; a sorted-set member whose forms have different scores, and a hash field whose
     * forms hold different values or expire at different times (a TTL of its own, or none), would keep one score,
     * value or TTL and lose the other, so the key is left alone.
     *
     * @return null, or why the key is left alone
     */
    private static String merges(Reader.KeyRead kr, Plan p) {
        Map<ByteBuffer, Object> kept = new HashMap<>(); // the member or field name written -> its score or value
        Map<ByteBuffer, byte[]> names = new HashMap<>(); // a hash field's stored name -> the name written
        for (Reader.Element e : kr.elements()) {
            if (e.role() == Reader.Role.HASH_FIELD) {
                names.put(ByteBuffer.wrap(e.stored()), p.changes.getOrDefault(e, e.stored()));
            }
        }
        for (Reader.Element e : kr.elements()) {
            byte[] name;
            Object with;
            switch (e.role()) {
                case SET_MEMBER -> {
                    name = p.changes.getOrDefault(e, e.stored());
                    with = Boolean.TRUE;
                }
                case ZSET_MEMBER -> {
                    name = p.changes.getOrDefault(e, e.stored());
                    with = e.score();
                }
                case HASH_VALUE -> {
                    name = names.getOrDefault(ByteBuffer.wrap(e.field()), e.field());
                    with = new FieldState(ByteBuffer.wrap(p.changes.getOrDefault(e, e.stored())),
                            p.fieldExpiry.getOrDefault(ByteBuffer.wrap(e.field()), 0L));
                }
                default -> {
                    continue;
                }
            }
            Object other = kept.putIfAbsent(ByteBuffer.wrap(name), with);
            if (other == null) {
                continue;
            }
            if (!other.equals(with)) {
                String what = e.role() == Reader.Role.ZSET_MEMBER ? "zset member" : "hash field";
                String differ = e.role() == Reader.Role.ZSET_MEMBER ? "scores (" + other + " and " + with + ")"
                        : ((FieldState) other).value().equals(((FieldState) with).value()) ? "TTLs (expiring "
                        + expiry(((FieldState) other).expiresAt()) + " and " + expiry(((FieldState) with).expiresAt())
                        + ")" : "values";
                return what + " " + printable(name) + " is stored in two forms with different " + differ
                        + ": rewriting them as one would lose one; the key is left as it is";
            }
            p.merged++;
        }
        return null;
    }

    /** @return {@code b} as text for a message, as {@link Names} prints it, cut at 60 characters */
    private static String printable(byte[] b) {
        String t = Names.of(b);
        return "'" + (t.length() > 60 ? t.substring(0, 60) + "..." : t) + "'";
    }

    /** @return when a hash field expires, in words: the time (UTC), or never for 0 */
    private static String expiry(long at) {
        return at == 0 ? "never" : "at " + java.time.Instant.ofEpochMilli(at);
    }

    /**
     * @return what to change of {@code key}, read as {@code kr} (for a hash with changes: with its fields' expiry
     *         times, the same in a dry run), or null with {@code why[0]} set when a value of the --from form cannot be
     *         read or members would be lost ({@link #merges})
     */
    private Plan plan(Keyspace ks, RedisCommands<byte[], byte[]> c, byte[] key, Reader.KeyRead kr, String[] why) {
        Plan p = new Plan();
        for (Reader.Element e : kr.elements()) {
            if (e.stored() == null) {
                boolean measured = e.role() == Reader.Role.STRING || e.role() == Reader.Role.HASH_VALUE;
                why[0] = Inspect.where(e.role()) + " of " + e.size() + " bytes is over --limit " + common.limit
                        + (measured ? "; not read" : "; the key is left as it is");
                return null;
            }
            Classifier.Result r = classifier.classify(e.stored());
            if (!fromForms.contains(r.form())) {
                continue;
            }
            boolean compressible = e.role() == Reader.Role.STRING || e.role() == Reader.Role.HASH_VALUE;
            if (r.form() == StoredForm.PLAIN && !compressible) {
                continue; // names and members are never compressed
            }
            if (r.problem() != null) {
                why[0] = Inspect.where(e.role()) + ": " + r.describe();
                return null;
            }
            p.matched = true;
            byte[] now = target != null && compressible ? target.compress(r.decoded()) : r.decoded();
            if (!java.util.Arrays.equals(now, e.stored())) {
                p.changes.put(e, now);
            }
        }
        if (!p.changes.isEmpty()) {
            if (kr.type().equals("hash")) {
                p.fieldExpiry = fieldExpiry(ks, c, key, kr);
            }
            why[0] = merges(kr, p);
            if (why[0] != null) {
                return null;
            }
        }
        return p;
    }

    /**
     * @return when each field of hash {@code key} (read as {@code kr}) expires ({@code HPEXPIRETIME}, Unix time in
     *         milliseconds), by its stored name, for the fields that have a TTL of their own (HSET clears it, so a
     *         field written gets it back; two forms of a field that expire at different times are not merged); none
     *         on a server without field TTLs (one that does not know the command)
     */
    private static Map<ByteBuffer, Long> fieldExpiry(Keyspace ks, RedisCommands<byte[], byte[]> c, byte[] key,
                                                     Reader.KeyRead kr) {
        List<byte[]> names = new ArrayList<>();
        for (Reader.Element e : kr.elements()) {
            if (e.role() == Reader.Role.HASH_FIELD) {
                names.add(e.stored());
            }
        }
        List<Long> at;
        try {
            ks.limiter.acquire();
            at = c.hpexpiretime(key, names.toArray(new byte[0][]));
        } catch (io.lettuce.core.RedisCommandExecutionException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("ERR unknown command")) {
                return Map.of(); // a server before field TTLs
            }
            throw e;
        }
        Map<ByteBuffer, Long> m = new HashMap<>();
        for (int i = 0; i < names.size() && i < at.size(); i++) {
            if (at.get(i) != null && at.get(i) > 0) {
                m.put(ByteBuffer.wrap(names.get(i)), at.get(i));
            }
        }
        return m;
    }

    /**
     * Queues the rewrite of {@code key} inside MULTI; the key is never emptied, so its TTL stays, and a hash field
     * written gets its own TTL back ({@link Plan#fieldExpiry}, by its stored name: HSET clears it).
     */
    private void write(Keyspace ks, RedisCommands<byte[], byte[]> c, byte[] key, Reader.KeyRead kr, Plan plan) {
        switch (kr.type()) {
            case "string" -> {
                ks.limiter.acquire();
                c.set(key, plan.changes.values().iterator().next(), SetArgs.Builder.keepttl());
            }
            case "hash" -> {
                Map<ByteBuffer, byte[]> newName = new HashMap<>();
                Map<ByteBuffer, byte[]> value = new LinkedHashMap<>();
                Map<ByteBuffer, byte[]> newValue = new HashMap<>();
                for (Reader.Element e : kr.elements()) {
                    if (e.role() == Reader.Role.HASH_FIELD && plan.changes.containsKey(e)) {
                        newName.put(ByteBuffer.wrap(e.stored()), plan.changes.get(e));
                    } else if (e.role() == Reader.Role.HASH_VALUE) {
                        value.put(ByteBuffer.wrap(e.field()), e.stored());
                        if (plan.changes.containsKey(e)) {
                            newValue.put(ByteBuffer.wrap(e.field()), plan.changes.get(e));
                        }
                    }
                }
                List<byte[]> removed = new ArrayList<>();
                java.util.Set<ByteBuffer> written = new java.util.HashSet<>();
                for (Map.Entry<ByteBuffer, byte[]> f : value.entrySet()) {
                    byte[] name = newName.getOrDefault(f.getKey(), f.getKey().array());
                    byte[] v = newValue.getOrDefault(f.getKey(), f.getValue());
                    if (newName.containsKey(f.getKey()) || newValue.containsKey(f.getKey())) {
                        ks.limiter.acquire();
                        c.hset(key, name, v);
                        written.add(ByteBuffer.wrap(name));
                        Long expiry = plan.fieldExpiry.get(f.getKey());
                        if (expiry != null) {
                            ks.limiter.acquire();
                            c.hpexpireat(key, expiry, name);
                        }
                        if (newName.containsKey(f.getKey())) {
                            removed.add(f.getKey().array());
                        }
                    }
                }
                for (byte[] old : removed) {
                    if (!written.contains(ByteBuffer.wrap(old))) {
                        ks.limiter.acquire();
                        c.hdel(key, old);
                    }
                }
            }
            case "set" -> {
                java.util.Set<ByteBuffer> added = new java.util.HashSet<>();
                for (byte[] m : plan.changes.values()) {
                    ks.limiter.acquire();
                    c.sadd(key, m);
                    added.add(ByteBuffer.wrap(m));
                }
                for (Reader.Element e : plan.changes.keySet()) {
                    if (!added.contains(ByteBuffer.wrap(e.stored()))) {
                        ks.limiter.acquire();
                        c.srem(key, e.stored());
                    }
                }
            }
            case "zset" -> {
                java.util.Set<ByteBuffer> added = new java.util.HashSet<>();
                for (Map.Entry<Reader.Element, byte[]> ch : plan.changes.entrySet()) {
                    ks.limiter.acquire();
                    c.zadd(key, ch.getKey().score(), ch.getValue());
                    added.add(ByteBuffer.wrap(ch.getValue()));
                }
                for (Reader.Element e : plan.changes.keySet()) {
                    if (!added.contains(ByteBuffer.wrap(e.stored()))) {
                        ks.limiter.acquire();
                        c.zrem(key, e.stored());
                    }
                }
            }
            case "list" -> {
                for (Map.Entry<Reader.Element, byte[]> ch : plan.changes.entrySet()) {
                    ks.limiter.acquire();
                    c.lset(key, ch.getKey().index(), ch.getValue());
                }
            }
            default -> throw new IllegalStateException("no rewrite for type " + kr.type());
        }
    }
}
