package dev.zstdjava.cli;

import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryEntryRefusedException;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.LegacyFormat;
import dev.zstdjava.values.PatternDictionaries;
import dev.zstdjava.values.ServerDictionaryLayout;
import dev.zstdjava.values.StoredForm;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.resource.ClientResources;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** The options every command shares (picocli mixin): server, rate, limits, output. Not thread-safe. */
final class Common {
    /** The longest {@code --timeout}: a day (a command that takes longer is not one to wait for). */
    static final long MAX_TIMEOUT_SECONDS = 86_400;

    @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "the server: redis://[user:password@]host:port[/db], "
            + "rediss://... for TLS (untested here); any node of a cluster (every primary is scanned)")
    String uri;

    @Option(names = "--rate", defaultValue = "1000", paramLabel = "OPS",
            description = "at most this many commands a second, all nodes and commands together (default ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--limit", defaultValue = "67108864", paramLabel = "BYTES",
            description = "largest value read or decoded, in bytes; larger values are skipped by their STRLEN/HSTRLEN "
                    + "before they are read (default ${DEFAULT-VALUE}: 64 MiB)")
    long limit;

    @Option(names = "--timeout", defaultValue = "10", paramLabel = "SECONDS",
            description = "timeout of each command and of connecting (default ${DEFAULT-VALUE} s, at most "
                    + MAX_TIMEOUT_SECONDS + ")")
    long timeoutSeconds;

    @Option(names = "--legacy", split = ",", paramLabel = "FORMAT", completionCandidates = LegacyForms.class,
            description = "legacy formats to recognise (default all): ${COMPLETION-CANDIDATES}")
    List<String> legacy;

    @Option(names = "--dictionary-prefix", defaultValue = LettuceDictionaryStore.DEFAULT_PREFIX, paramLabel = "PREFIX",
            description = "key prefix of the dictionary store whose dictionaries decode values (default ${DEFAULT-VALUE}); "
                    + "its keys are left out of the scan")
    String dictionaryPrefix;

    @Option(names = "--json", description = "print the result as JSON on stdout")
    boolean json;

    @Option(names = "--progress", negatable = true,
            description = "a progress line on stderr (default: on when stderr is a terminal)")
    Boolean progress;

    /** The labels of the catalogue's read-only forms, for {@code --legacy}. */
    static final class LegacyForms implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return StoredForm.all().stream().filter(f -> f.legacyFormat() != null).map(StoredForm::label).iterator();
        }
    }

    /** @return the legacy formats chosen */
    Set<LegacyFormat> legacyFormats() {
        if (legacy == null || legacy.isEmpty()) {
            return EnumSet.allOf(LegacyFormat.class);
        }
        Set<LegacyFormat> s = EnumSet.noneOf(LegacyFormat.class);
        for (String l : legacy) {
            StoredForm f = StoredForm.forLabel(l.trim().toLowerCase(Locale.ROOT));
            if (f == null || f.legacyFormat() == null) {
                throw new ToolException.BadArguments("--legacy: unknown format '" + l + "' ("
                        + String.join(", ", new LegacyForms()) + ")");
            }
            s.add(f.legacyFormat());
        }
        return s;
    }

    /**
     * Checks the options shared by every command, before anything is sent: the URI is given, the numbers are in
     * range, the dictionary prefix is one a store takes, the legacy formats are known.
     *
     * @throws ToolException.BadArguments naming the option and its limit
     */
    void check() {
        if (uri == null) {
            throw new ToolException.BadArguments("missing the server URI (redis://host:port)");
        }
        if (limit < 1 || limit > CompressionConfig.MAX_DECOMPRESSED_SIZE_LIMIT) {
            throw new ToolException.BadArguments("--limit must be between 1 and "
                    + CompressionConfig.MAX_DECOMPRESSED_SIZE_LIMIT + " bytes, got " + limit);
        }
        if (timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
            throw new ToolException.BadArguments("--timeout must be between 1 and " + MAX_TIMEOUT_SECONDS
                    + " seconds (a day), got " + timeoutSeconds);
        }
        if (!(rate >= 1)) {
            throw new ToolException.BadArguments("--rate must be at least 1 operation a second, got " + rate);
        }
        try {
            ServerDictionaryLayout.checkPrefix(dictionaryPrefix);
        } catch (IllegalArgumentException e) {
            throw new ToolException.BadArguments("--dictionary-prefix: " + e.getMessage());
        }
        legacyFormats();
    }

    /**
     * @throws ToolException.BadArguments unless {@code minSize}, the value of {@code --min-size}, is a
     *                                    {@link CompressionConfig#minCompressionSize()} the library takes
     */
    static void checkMinSize(int minSize) {
        if (minSize < CompressionConfig.MIN_COMPRESSION_SIZE_LIMIT) {
            throw new ToolException.BadArguments("--min-size must be at least "
                    + CompressionConfig.MIN_COMPRESSION_SIZE_LIMIT + " bytes (the 5-byte header plus one byte), got "
                    + minSize);
        }
    }

    /** Connects as {@link Keyspace#connect}, after checking the options. */
    Keyspace connect() {
        check();
        return Keyspace.connect(uri, Duration.ofSeconds(timeoutSeconds), new RateLimiter(rate));
    }

    /**
     * @return whether a key belongs to a dictionary store (left out of scans): the one of {@code --dictionary-prefix},
     *         or a per-pattern lineage's (the id claims' included)
     */
    boolean isStoreKey(byte[] key) {
        byte[] p = dictionaryPrefix.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return key.length >= p.length && java.util.Arrays.equals(key, 0, p.length, p, 0, p.length)
                || PatternDictionaries.isLineageKey(key);
    }

    /** Set by {@link #dictionaries}: why a value's dictionary is not among those it loaded ({@link #missing}). */
    private java.util.function.LongFunction<String> missing;

    /**
     * @return why dictionary {@code id}, which a value names, is not among those {@link #dictionaries} loaded, naming
     *         the keys it was looked for at (the store's entry, the lineages' claim) or why it was left out; null
     *         before {@link #dictionaries} ran
     */
    String missingDictionary(long id) {
        java.util.function.LongFunction<String> m = missing;
        return m == null ? null : m.apply(id);
    }

    /**
     * Loads the dictionaries published in the store of {@code --dictionary-prefix} and those the per-pattern lineages
     * published ({@link PatternDictionaries#published}, found through the id claims), so that values written with
     * them decode; an id held with different bytes, and a dictionary that is not usable (refused by its store, not as
     * long as its store lists it, not accepted by the library, or whose header names another id), is left out, with a line on {@code err} naming it
     * and why, so that its values count as missing their dictionary (rather than read as wrong bytes, or stopping the
     * run). Each store is opened on its own short-lived
     * connection, one at a time.
     *
     * @return a manager holding them, or null when none is published
     * @throws ToolException when a store cannot be connected to or read: naming the store, the server and the
     *                       messages along the cause chain
     */
    DictionaryManager dictionaries(Keyspace ks, PrintWriter err) {
        missing = null;
        Map<Long, byte[]> byId = new TreeMap<>();
        Map<Long, String> leftOut = new TreeMap<>();
        ClientResources resources = Keyspace.resources(ks.uri().getTimeout()); // DNS queries wait --timeout at most
        RedisClient c = ks.cluster() ? null : RedisClient.create(resources);
        RedisClusterClient cc = ks.cluster() ? RedisClusterClient.create(resources, ks.uri()) : null;
        SocketOptions socket = Keyspace.socketOptions(ks.uri().getTimeout()); // connecting waits --timeout at most too
        if (c != null) {
            c.setOptions(ClientOptions.builder().socketOptions(socket).build());
        } else {
            cc.setOptions(ClusterClientOptions.builder().socketOptions(socket).build());
        }
        String[] reading = {dictionaryPrefix}; // the store in use, for the error line
        Map<String, ReadOnlyStore> opened = new java.util.HashMap<>(); // to name their keys (no call to a store)
        Function<String, ReadOnlyStore> open = prefix -> {
            reading[0] = prefix;
            try {
                ReadOnlyStore s = ReadOnlyStore.open(ks, c, cc, prefix);
                opened.put(prefix, s);
                return s;
            } catch (RuntimeException e) {
                throw storeFailure(ks, "cannot connect to", prefix, e);
            }
        };
        try {
            try (ReadOnlyStore store = open.apply(dictionaryPrefix)) {
                for (DictionaryInfo info : store.list()) {
                    try {
                        byte[] d = store.get(info.id());
                        if (d != null && d.length != info.size()) { // cut short, it may still be a dictionary
                            leftOut.put(info.id(), "the store of " + dictionaryPrefix + " lists it with " + info.size()
                                    + " bytes but its entry, " + store.entryLocation(info.id()) + ", holds " + d.length
                                    + " (cut short or overwritten)");
                        } else if (d != null) {
                            byId.put(info.id(), d);
                        }
                    } catch (DictionaryEntryRefusedException e) {
                        leftOut.put(info.id(), "the store of " + dictionaryPrefix + " refuses its entry, "
                                + store.entryLocation(info.id()) + ": " + e.getMessage());
                    }
                }
            }
            PatternDictionaries.Published lineages = PatternDictionaries.published( // closes each store after use
                    name -> open.apply(PatternDictionaries.prefix(name)));
            leftOut.putAll(lineages.leftOut());
            lineages.dictionaries().forEach((id, d) -> {
                byte[] held = byId.putIfAbsent(id, d);
                if (held != null && !java.util.Arrays.equals(held, d)) {
                    byId.remove(id);
                    leftOut.put(id, PatternDictionaries.ambiguity("the store of " + dictionaryPrefix + " ("
                            + opened.get(dictionaryPrefix).entryLocation(id) + ") and a pattern's lineage (its claim"
                            + " in the " + PatternDictionaries.ID_CLAIMS + " store names it)"));
                }
            });
        } catch (ToolException e) {
            throw e;
        } catch (RuntimeException e) {
            throw storeFailure(ks, "cannot read", reading[0], e);
        } finally {
            if (c != null) {
                c.shutdown(0, 2, TimeUnit.SECONDS);
            }
            if (cc != null) {
                cc.shutdown(0, 2, TimeUnit.SECONDS);
            }
            resources.shutdown(0, 2, TimeUnit.SECONDS);
        }
        byId.entrySet().removeIf(e -> {
            String why = unusable(e.getKey(), e.getValue());
            if (why != null) {
                leftOut.put(e.getKey(), why);
            }
            return why != null;
        });
        missing = id -> {
            String why = leftOut.get(id);
            if (why != null) {
                return "the value needs zstd dictionary " + id + ", which is left out: " + why;
            }
            ReadOnlyStore main = opened.get(dictionaryPrefix);
            ReadOnlyStore claims = opened.get(PatternDictionaries.prefix(PatternDictionaries.ID_CLAIMS));
            return "the value needs zstd dictionary " + id + ", which is not published: the store of "
                    + dictionaryPrefix + " holds no entry for it" + (main == null ? "" : " (" + main.entryLocation(id) + ")") + ", and no pattern"
                    + " lineage claims it" + (claims == null ? "" : " (" + claims.entryLocation(id) + ")") + "; values"
                    + " written with it cannot be read until its entry is restored there (or --dictionary-prefix"
                    + " names the store it is published in)";
        };
        leftOut.forEach((id, why) -> err.println("zstd-values: dictionary " + id + " is left out (values written with it"
                + " count as missing their dictionary): " + Names.escape(why)));
        err.flush();
        return byId.isEmpty() ? null : DictionaryManager.given(new ArrayList<>(byId.values())).build();
    }

    /**
     * @return the error that ends the run when the dictionary store of {@code prefix} fails: one line saying what
     *         failed ({@code doing} the store, where) and the distinct messages along {@code e}'s cause chain
     *         ({@link Keyspace#causes}), where the first message alone (Lettuce's "Unable to connect", "Unable to
     *         establish a connection to Redis Cluster") would hide the cause, such as a timeout
     */
    private static ToolException storeFailure(Keyspace ks, String doing, String prefix, RuntimeException e) {
        if (e instanceof ToolException t) {
            return t;
        }
        String where = ks.uri().getHost() + ":" + ks.uri().getPort() + (ks.cluster() ? " (a cluster)" : "");
        return new ToolException(doing + " the dictionary store of " + prefix + " on " + where + ": "
                + (e instanceof io.lettuce.core.RedisException ? "" : e.getClass().getSimpleName() + ": ")
                + Keyspace.causes(e), e);
    }

    /**
     * @return why dictionary {@code d}, published under {@code id}, is not one to read with (not a zstd dictionary
     *         the library accepts, or one whose header names another id), or null when it is
     */
    private static String unusable(long id, byte[] d) {
        try (DictionaryManager one = DictionaryManager.given(d).build()) {
            return one.currentId() == id ? null : "its header names dictionary " + one.currentId();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** @return a progress line printer on stderr, silent unless asked or stderr is a terminal */
    Progress progress(PrintWriter err) {
        boolean on = progress != null ? progress : System.console() != null;
        return new Progress(err, on);
    }
}
