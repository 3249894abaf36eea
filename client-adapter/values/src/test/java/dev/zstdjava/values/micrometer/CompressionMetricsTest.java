package dev.zstdjava.values.micrometer;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.CompressionStats;
import dev.zstdjava.values.OptionWrites;
import dev.zstdjava.values.ValueCompressor;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/** The Micrometer binder reports exactly what a compressor did with real traffic through Jedis on a real server. */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressionMetricsTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    static byte[] client(byte[] key) {
        return redis.client().get(key);
    }

    static byte[] k(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static double count(SimpleMeterRegistry r, String name) {
        FunctionCounter c = r.get(CompressionMetrics.PREFIX + name).functionCounter();
        return c.count();
    }

    static double skipped(SimpleMeterRegistry r, String reason) {
        return r.get(CompressionMetrics.PREFIX + "skipped").tag("reason", reason).functionCounter().count();
    }

    @Test
    void adaptivePatternsAreCountedPerOption() {
        AdaptiveCompressor adaptive = AdaptiveCompressor.builder(CompressionConfig.defaults())
                .patterns(List.of("json:*", "blob:*", "idle:*")).sampling(8, 1 << 30, 1 << 30).window(8, 8)
                .hysteresis(1, 0.01, 0.2).build();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new CompressionMetrics(adaptive, Tags.of("app", "metrics-test")).bindTo(registry);
        for (int i = 0; i < 8; i++) {
            byte[] j = adaptive.compress(k("json:" + i), k(json(1500 + i)));
            redis.client().set(k("json:" + i), j);
            adaptive.compress(k("blob:" + i), random(700, i));
        }
        assertArrayEquals(k(json(1500)), adaptive.decompress(client(k("json:0"))));
        String name = CompressionMetrics.PREFIX + "adaptive.patterns";
        // one series per option, whatever the patterns: the tags are bounded
        assertEquals(CompressionOption.values().length, registry.find(name).gauges().size());
        assertEquals(1, registry.get(name).tag("option", CompressionOption.PLAIN.label()).gauge().value(), "blob:*");
        for (CompressionOption o : CompressionOption.values()) {
            long n = adaptive.snapshot().stream().filter(d -> d.option() == o && d.valuesSeen() > 0).count();
            assertEquals(n, registry.get(name).tag("option", o.label()).gauge().value(), o.label());
        }
        double total = registry.find(name).gauges().stream().mapToDouble(g -> g.value()).sum();
        assertEquals(2, total, "json:* and blob:*; idle:* and (other) are not written");
        assertEquals(1, count(registry, "decompressed"), "the reader's counters");
        // the writes: per option, as the compressor counts them, one series per option
        for (String meter : List.of("adaptive.values.written", "adaptive.original", "adaptive.stored")) {
            assertEquals(CompressionOption.values().length,
                    registry.find(CompressionMetrics.PREFIX + meter).functionCounters().size(), meter);
        }
        long written = 0;
        for (CompressionOption o : CompressionOption.values()) {
            OptionWrites w = adaptive.writes(o);
            written += (long) registry.get(CompressionMetrics.PREFIX + "adaptive.values.written")
                    .tag("option", o.label()).functionCounter().count();
            assertEquals(w.values(), registry.get(CompressionMetrics.PREFIX + "adaptive.values.written")
                    .tag("option", o.label()).functionCounter().count(), o.label());
            assertEquals(w.storedBytes(), registry.get(CompressionMetrics.PREFIX + "adaptive.stored")
                    .tag("option", o.label()).functionCounter().count(), o.label());
            assertEquals(w.originalBytes(), registry.get(CompressionMetrics.PREFIX + "adaptive.original")
                    .tag("option", o.label()).functionCounter().count(), o.label());
        }
        assertEquals(16, written, "every value written, once");
        assertEquals("metrics-test", registry.get(name).gauge().getId().getTag("app"));
    }

    @Test
    void countersFollowRealTraffic() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(100_000).build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new CompressionMetrics(vc, Tags.of("cache", "metrics-test")).bindTo(registry);
        assertEquals(0, count(registry, "compressed"));

        long original = 0;
        long decompressedBytes = 0;
        int compressible = 0;
        for (int n = 100; n <= 60_000; n *= 3) {
            byte[] a = text(n);
            byte[] b = json(n).getBytes(StandardCharsets.UTF_8);
            redis.client().set(k("m:text:" + n), vc.compress(a));
            redis.client().set(k("m:json:" + n), vc.compress(b));
            original += a.length + b.length;
            compressible += 2;
        }
        redis.client().set(k("m:small"), vc.compress(text(63)));           // below the minimum size
        redis.client().set(k("m:random"), vc.compress(random(5000, 1)));   // not smaller when compressed
        redis.client().set(k("m:large"), vc.compress(text(100_001)));      // over the decompression limit
        byte[] already = vc.compress(text(2000));
        redis.client().set(k("m:already"), vc.compress(already));           // already compressed: stored as it is
        compressible++;
        original += 2000;
        long stored = client(k("m:already")).length;
        decompressedBytes += 2000;
        assertArrayEquals(text(2000), vc.decompress(client(k("m:already"))));
        for (int n = 100; n <= 60_000; n *= 3) {
            for (String kind : List.of("text", "json")) {
                byte[] s = redis.client().get(k("m:" + kind + ":" + n));
                stored += s.length;
                byte[] back = vc.decompress(s);
                assertEquals(n, back.length);
                decompressedBytes += back.length;
            }
        }
        assertArrayEquals(text(63), vc.decompress(redis.client().get(k("m:small"))));
        assertArrayEquals(random(5000, 1), vc.decompress(redis.client().get(k("m:random"))));
        assertArrayEquals(text(100_001), vc.decompress(redis.client().get(k("m:large"))));
        // a header followed by bytes that are no zstd frame: returned as stored, counted as a failure
        byte[] lookalike = {0, 1, 2, 0, 1, 'n', 'o', 't', ' ', 'z', 's', 't', 'd'};
        redis.client().set(k("m:lookalike"), lookalike);
        assertArrayEquals(lookalike, vc.decompress(redis.client().get(k("m:lookalike"))));
        // written by a compressor with a higher limit: this one refuses it
        redis.client().set(k("m:big"), ValueCompressor.create(CompressionConfig.defaults()).compress(text(200_000)));
        byte[] big = redis.client().get(k("m:big"));
        assertThrows(DecompressionLimitException.class, () -> vc.decompress(big));

        CompressionStats s = vc.stats();
        assertEquals(compressible, count(registry, "compressed"));
        assertEquals(1, skipped(registry, "too-small"));
        assertEquals(1, skipped(registry, "not-smaller"));
        assertEquals(1, skipped(registry, "too-large"));
        assertEquals(1, skipped(registry, "already-compressed"));
        assertEquals(0, skipped(registry, "disabled"));
        assertEquals(0, skipped(registry, "failed"));
        assertEquals(s.skipped(), registry.find(CompressionMetrics.PREFIX + "skipped").functionCounters().stream()
                .mapToDouble(FunctionCounter::count).sum(), "the reasons add up to stats().skipped()");
        assertEquals(original, count(registry, "compression.input"));
        assertEquals(stored, count(registry, "compression.output"), "bytes as the server holds them");
        assertEquals(original - stored, count(registry, "compression.saved"));
        assertTrue(original - stored > original / 2, "text and JSON compress well: " + (original - stored));
        assertEquals(compressible, count(registry, "decompressed"));
        assertEquals(decompressedBytes, count(registry, "decompression.output"));
        assertEquals(1, count(registry, "decompression.failures"));
        assertEquals(1, count(registry, "decompression.limit.exceeded"));
        assertEquals(0, count(registry, "legacy.decompressed"));
        assertEquals(s.valuesCompressed(), count(registry, "compressed"));
        assertEquals(s.decompressionFailures(), count(registry, "decompression.failures"));

        // the meters read the compressor live
        redis.client().set(k("m:later"), vc.compress(text(1000)));
        assertEquals(compressible + 1, count(registry, "compressed"));
    }

    @Test
    void dictionaryMetersWhenTheCompressorHasDictionaries() {
        List<byte[]> records = new java.util.ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            records.add(("{\"user\":" + i + ",\"name\":\"user-" + (i * 7919 % 1000) + "\",\"plan\":\""
                    + (i % 3 == 0 ? "free" : "pro") + "\",\"region\":\"eu-" + (i % 5) + "\",\"active\":"
                    + (i % 2 == 0) + "}").getBytes(StandardCharsets.UTF_8));
        }
        byte[] dictionary = dev.zstdjava.zstd.ZstdDictionary.train(records.subList(0, 1000), 8 << 10).toByteArray();
        try (dev.zstdjava.values.DictionaryManager dicts =
                     dev.zstdjava.values.DictionaryManager.given(dictionary).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), dicts);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new CompressionMetrics(vc).bindTo(registry);
            assertEquals(1, registry.get("zstdjava.values.dictionaries").gauge().value());
            assertEquals(0, registry.get("zstdjava.values.dictionary.current.saved.ratio").gauge().value());
            for (byte[] r : records.subList(1000, 2000)) {
                redis.client().set(k("d:" + r.length), vc.compress(r));
            }
            double saved = registry.get("zstdjava.values.dictionary.current.saved.ratio").gauge().value();
            double expected = dicts.dictionaryStats().get(0).savedFraction();
            assertEquals(expected, saved, 1e-12);
            assertTrue(saved > 0.3, "a trained dictionary saves on small records: " + saved);
            // the dictionary's own series, tagged with its ID
            var st = dicts.dictionaryStats().get(0);
            String id = Long.toString(st.id());
            assertTrue(st.valuesWritten() > 900, "values written with the dictionary: " + st.valuesWritten());
            assertEquals(st.valuesWritten(), registry.get("zstdjava.values.dictionary.values.written")
                    .tag("dictionary", id).functionCounter().count());
            assertEquals(st.bytesSaved(), registry.get("zstdjava.values.dictionary.saved").tag("dictionary", id)
                    .functionCounter().count());
            assertEquals("bytes", registry.get("zstdjava.values.dictionary.saved").functionCounter().getId()
                    .getBaseUnit());
            for (int i = 0; i < 10; i++) {
                byte[] stored = vc.compress(records.get(1000 + i));
                assertArrayEquals(records.get(1000 + i), vc.decompress(stored), "in memory " + i);
                redis.client().set(k("read:" + i), stored);
                assertArrayEquals(records.get(1000 + i), vc.decompress(redis.client().get(k("read:" + i))));
            }
            assertEquals(dicts.dictionaryStats().get(0).valuesRead(), registry.get("zstdjava.values.dictionary.values.read")
                    .tag("dictionary", id).functionCounter().count());
            assertTrue(dicts.dictionaryStats().get(0).valuesRead() >= 10);
            assertEquals(3, registry.find("zstdjava.values.dictionary.trainings").functionCounters().size());
            for (String result : List.of("adopted", "rejected", "failed")) {
                assertEquals(0, registry.get("zstdjava.values.dictionary.trainings").tag("result", result)
                        .functionCounter().count(), "given mode trains nothing: " + result);
            }
        }
        ValueCompressor plain = ValueCompressor.create(CompressionConfig.defaults());
        SimpleMeterRegistry none = new SimpleMeterRegistry();
        new CompressionMetrics(plain).bindTo(none);
        assertNull(none.find("zstdjava.values.dictionaries").gauge(), "no dictionary meters without dictionaries");
    }

    /**
     * A dictionary evicted to keep within the manager's bound keeps its series: while evicted it reads what it read
     * last (not zero, which a registry would take for a reset), and once loaded again it counts on from there.
     */
    @Test
    void aDictionaryCounterNeverGoesBackWhenItsDictionaryIsEvictedAndLoadedAgain() throws Exception {
        List<byte[]> records = new java.util.ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            records.add(("{\"order\":" + i + ",\"item\":\"sku-" + (i * 31 % 500) + "\",\"qty\":" + (i % 7)
                    + ",\"state\":\"" + (i % 4 == 0 ? "open" : "paid") + "\"}").getBytes(StandardCharsets.UTF_8));
        }
        List<byte[]> dictionaries = new java.util.ArrayList<>();
        for (int d = 0; d < 3; d++) {
            dictionaries.add(dev.zstdjava.zstd.ZstdDictionary.train(records.subList(1000 * d, 1000 * d + 800),
                    8 << 10).toByteArray());
        }
        long each = dictionaries.get(0).length + dev.zstdjava.values.PatternDictionaries.DIGEST_OVERHEAD;
        for (byte[] d : dictionaries) {
            assertEquals(dictionaries.get(0).length, d.length, "the three are as large");
        }
        long older = dev.zstdjava.zstd.ZstdDictionary.of(dictionaries.get(0)).id();
        long newer = dev.zstdjava.zstd.ZstdDictionary.of(dictionaries.get(2)).id();
        byte[] value = String.join(",", records.subList(900, 906).stream()
                .map(r -> new String(r, StandardCharsets.UTF_8)).toList()).getBytes(StandardCharsets.UTF_8);
        byte[] ofOlder;
        try (dev.zstdjava.values.DictionaryManager given =
                     dev.zstdjava.values.DictionaryManager.given(dictionaries.get(0)).build()) {
            ofOlder = ValueCompressor.create(CompressionConfig.defaults(), given).compress(value);
        }
        dev.zstdjava.values.InMemoryDictionaryStore store = new dev.zstdjava.values.InMemoryDictionaryStore();
        store.putIfAbsent(older, dictionaries.get(0));
        store.putIfAbsent(dev.zstdjava.zstd.ZstdDictionary.of(dictionaries.get(1)).id(), dictionaries.get(1));
        try (dev.zstdjava.values.DictionaryManager dicts = dev.zstdjava.values.DictionaryManager.shared(store)
                .maxLoadedBytes(2 * each).notifications(false).refreshInterval(java.time.Duration.ofMillis(20))
                .build()) { // holds two: the newest, which compresses, and one other
            assertTrue(dicts.isLoaded(older));
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), dicts);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new CompressionMetrics(vc).bindTo(registry);
            FunctionCounter reads = registry.get("zstdjava.values.dictionary.values.read")
                    .tag("dictionary", Long.toString(older)).functionCounter();
            assertArrayEquals(value, vc.decompress(ofOlder));
            assertEquals(1, reads.count());
            store.putIfAbsent(newer, dictionaries.get(2)); // compresses from now on: the older one is evicted for it
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (dicts.currentId() != newer && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(newer, dicts.currentId());
            assertFalse(dicts.isLoaded(older));
            assertEquals(1, reads.count(), "while its dictionary is evicted");
            byte[] back = null;
            while (back == null) { // the first read misses and loads it again; the retry reads
                try {
                    back = vc.decompress(ofOlder);
                } catch (dev.zstdjava.values.MissingDictionaryException e) {
                    assertTrue(System.nanoTime() < deadline, e.getMessage());
                    Thread.sleep(5);
                }
            }
            assertArrayEquals(value, back);
            assertEquals(2, reads.count(), "loaded again, it counts on");
        }
    }

    /**
     * A dictionary whose counters the manager no longer kept (more evicted ids than it keeps) counts from zero once
     * loaded again; its series holds while evicted and until the new count passes it, and a read below the last one
     * (a restart, or a read that raced a write) never adds the total again.
     */
    @Test
    void aDictionaryCounterNeverGoesBackNorCountsTwice() {
        CompressionMetrics.KeptCount count = new CompressionMetrics.KeptCount();
        assertEquals(100, count.loaded(100));
        assertEquals(150, count.loaded(150));
        assertEquals(150, count.evicted(), "while evicted it holds");
        assertEquals(150, count.loaded(120), "a read below the last one is not taken for new counts");
        assertEquals(150, count.loaded(2), "loaded again with its counters dropped: held");
        assertEquals(160, count.loaded(160), "and goes on once the new count passes it");
        assertEquals(160, count.evicted());
    }

    @Test
    void namesUnitsAndTagsFollowMicrometersConventions() {
        ValueCompressor lz4 = ValueCompressor.create(CompressionConfig.builder().backend(CompressionBackend.LZ4).build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        assertSame(lz4, CompressionMetrics.monitor(registry, lz4, "cache", "a"));
        Set<String> names = registry.getMeters().stream().map(m -> m.getId().getName())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of("disabled", "too-small", "too-large", "already-compressed", "not-smaller",
                "failed")), registry.find("zstdjava.values.skipped").functionCounters().stream()
                .map(c -> c.getId().getTag("reason")).collect(Collectors.toCollection(TreeSet::new)),
                "one series per reason");
        assertEquals(6, registry.find("zstdjava.values.skipped").functionCounters().size(), "one series per reason");
        assertEquals(new TreeSet<>(List.of("zstdjava.values.compressed", "zstdjava.values.skipped",
                "zstdjava.values.compression.input", "zstdjava.values.compression.output",
                "zstdjava.values.compression.saved", "zstdjava.values.decompressed", "zstdjava.values.legacy.decompressed",
                "zstdjava.values.decompression.output", "zstdjava.values.decompression.failures",
                "zstdjava.values.decompression.limit.exceeded")), names);
        for (Meter m : registry.getMeters()) {
            Meter.Id id = m.getId();
            assertTrue(id.getName().matches("[a-z]+(\\.[a-z]+)*"), id.getName());
            assertEquals(Meter.Type.COUNTER, id.getType(), id.getName());
            assertEquals("lz4", id.getTag("backend"), id.getName());
            assertEquals("a", id.getTag("cache"), id.getName());
            assertNotNull(id.getDescription(), id.getName());
            assertEquals(id.getName().equals("zstdjava.values.skipped"), id.getTag("reason") != null, id.getName());
            boolean bytes = id.getName().contains(".compression.") || id.getName().endsWith(".output");
            assertEquals(bytes ? "bytes" : null, id.getBaseUnit(), id.getName());
        }
        // a second compressor with another tag value gets its own series
        ValueCompressor other = ValueCompressor.create(CompressionConfig.defaults());
        CompressionMetrics.monitor(registry, other, "cache", "b");
        other.compress(text(1000));
        assertEquals(1, registry.get("zstdjava.values.compressed").tag("cache", "b").functionCounter().count());
        assertEquals(0, registry.get("zstdjava.values.compressed").tag("cache", "a").functionCounter().count());
    }
}
