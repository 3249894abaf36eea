package dev.zstdjava.cli;

import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.LegacyFormat;
import dev.zstdjava.values.StoredForm;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** The options every command shares (picocli mixin): server, rate, limits, output. Not thread-safe. */
final class Common {
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
            description = "timeout of each command (default ${DEFAULT-VALUE} s)")
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

    /** Checks the numeric options. */
    void check() {
        if (uri == null) {
            throw new ToolException.BadArguments("missing the server URI (redis://host:port)");
        }
        if (limit < 1 || limit > Integer.MAX_VALUE - 8) {
            throw new ToolException.BadArguments("--limit must be between 1 and " + (Integer.MAX_VALUE - 8) + " bytes, got " + limit);
        }
        if (timeoutSeconds < 1) {
            throw new ToolException.BadArguments("--timeout must be at least 1 second, got " + timeoutSeconds);
        }
        if (!(rate >= 1)) {
            throw new ToolException.BadArguments("--rate must be at least 1 operation a second, got " + rate);
        }
    }

    /** Connects as {@link Keyspace#connect}, after checking the options. */
    Keyspace connect() {
        check();
        legacyFormats();
        return Keyspace.connect(uri, Duration.ofSeconds(timeoutSeconds), new RateLimiter(rate));
    }

    /** @return whether a key belongs to the dictionary store (left out of scans) */
    boolean isStoreKey(byte[] key) {
        byte[] p = dictionaryPrefix.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return java.util.Arrays.equals(key, 0, Math.min(p.length, key.length), p, 0, p.length) && key.length >= p.length;
    }

    /**
     * Loads the dictionaries published in the store of {@code ks} (its own short-lived connection), so that values
     * written with them decode.
     * @return a manager holding them, or null when none is published
     */
    DictionaryManager dictionaries(Keyspace ks) {
        List<byte[]> dicts = new ArrayList<>();
        ks.limiter.acquire();
        if (ks.cluster()) {
            RedisClusterClient cc = RedisClusterClient.create(ks.uri());
            try (LettuceDictionaryStore store = LettuceDictionaryStore.builder().keyPrefix(dictionaryPrefix).connect(cc)) {
                load(ks, store, dicts);
            } finally {
                cc.shutdown(0, 2, TimeUnit.SECONDS);
            }
        } else {
            RedisClient c = RedisClient.create();
            try (LettuceDictionaryStore store = LettuceDictionaryStore.builder().keyPrefix(dictionaryPrefix)
                    .connect(c, ks.uri())) {
                load(ks, store, dicts);
            } finally {
                c.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }
        return dicts.isEmpty() ? null : DictionaryManager.given(dicts).build();
    }

    private static void load(Keyspace ks, LettuceDictionaryStore store, List<byte[]> out) {
        for (DictionaryInfo info : store.list()) {
            ks.limiter.acquire();
            byte[] d = store.get(info.id());
            if (d != null) {
                out.add(d);
            }
        }
    }

    /** @return a progress line printer on stderr, silent unless asked or stderr is a terminal */
    Progress progress(PrintWriter err) {
        boolean on = progress != null ? progress : System.console() != null;
        return new Progress(err, on);
    }
}
