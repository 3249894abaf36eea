package dev.zstdjava.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zstdjava.testkit.TestValues;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.zstdjava.cli.Writers.utf8;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code advise} on a real server: recommendations, and the projection check: on the value sets that {@code ./e2e}
 * uses without the shared corpus (the repository's testdata/json records), the memory advise projects for zstd 3 is
 * what MEMORY USAGE measures after the values are rewritten with zstd 3, within 5 percentage points.
 */
class AdviseTest extends StandaloneServer {
    static final Path JSON = Path.of("../../testdata/json");

    static Map<String, JsonNode> patterns(JsonNode root) {
        Map<String, JsonNode> m = new HashMap<>();
        root.get("patterns").forEach(p -> m.put(p.get("pattern").asText(), p));
        return m;
    }

    static JsonNode option(JsonNode pattern, String name) {
        for (JsonNode o : pattern.get("options")) {
            if (o.get("option").asText().equals(name)) {
                return o;
            }
        }
        throw new AssertionError("no option " + name + " in " + pattern);
    }

    /** @return the sum of MEMORY USAGE over the keys matching {@code glob} (the test's own KEYS) */
    static long memory(String glob) {
        RedisCommands<byte[], byte[]> c = raw.sync();
        long sum = 0;
        for (byte[] k : c.keys(glob)) {
            sum += c.memoryUsage(k);
        }
        return sum;
    }

    @Test
    void theProjectionMatchesWhatTheServerMeasuresAfterTheRewrite() throws IOException {
        RedisCommands<byte[], byte[]> c = raw.sync();
        List<String> statuses = Files.readAllLines(JSON.resolve("statuses.ndjson"));
        List<String> products = Files.readAllLines(JSON.resolve("products.ndjson"));
        for (int i = 0; i < 300; i++) {
            c.set(utf8("status:" + i), utf8(statuses.get(i % statuses.size())));
            c.set(utf8("product:" + i), utf8(products.get(i)));
            c.set(utf8("counter:" + i), utf8(Integer.toString(i * 7)));
            c.set(utf8("blob:" + i), TestValues.random(1000, i));
        }
        Tool t = Tool.run("advise", uri, "--json", "--sample", "5000");
        assertEquals(0, t.code(), t.toString());
        Map<String, JsonNode> ps = patterns(t.json());
        assertEquals(4, ps.size(), t.out());
        assertTrue(ps.get("counter:*").get("recommendation").asText().startsWith("leave it plain: small values"),
                t.out());
        assertTrue(ps.get("blob:*").get("recommendation").asText().startsWith("leave it plain: the best option saves"),
                t.out());
        assertEquals("balanced", t.json().get("goal").asText());
        // the other goals adaptive compression takes: speed is lz4 or plain; memory needs its budget
        Tool speed = Tool.run("advise", uri, "--json", "--sample", "5000", "--goal", "speed");
        assertEquals(0, speed.code(), speed.toString());
        assertEquals("speed", speed.json().get("goal").asText());
        Map<String, JsonNode> fast = patterns(speed.json());
        assertTrue(fast.get("blob:*").get("recommendation").asText().startsWith("leave it plain: lz4 saves"),
                speed.out());
        for (JsonNode pattern : fast.values()) {
            String r = pattern.get("recommendation").asText();
            assertTrue(r.equals("lz4") || r.startsWith("leave it plain"), speed.out());
        }
        Tool noBudget = Tool.run("advise", uri, "--goal", "memory");
        assertNotEquals(0, noBudget.code(), noBudget.toString());
        assertTrue(noBudget.err().contains("--goal memory needs --cpu-budget"), noBudget.toString());
        Tool memory = Tool.run("advise", uri, "--sample", "5000", "--goal", "memory", "--cpu-budget", "1000");
        assertEquals(0, memory.code(), memory.toString());
        assertTrue(memory.out().contains("; goal memory (CPU budget 1000.00 us/KiB)"), memory.out());
        for (String p : List.of("status:*", "product:*")) {
            JsonNode pattern = ps.get(p);
            assertFalse(pattern.get("recommendation").asText().startsWith("leave it plain"), t.out());
            assertTrue(pattern.get("config").toString().contains("CompressingRedisClient.create(uri).connect(StringCodec.UTF8, compressor)"), t.out());
            JsonNode z3 = option(pattern, "zstd 3");
            double projected = z3.get("memorySavedFraction").asDouble();
            double projectedMiB = z3.get("projectedSavedMiB").asDouble();
            assertTrue(z3.get("storedSavedFraction").asDouble() > 0.1, t.out());
            long before = memory(p);
            Tool m = Tool.run("migrate", uri, "--from", "plain", "--to", "glide-zstd:3", "--match", p, "--apply",
                    "--json");
            assertEquals(300, MigrateTest.count(m.json(), "rewritten"), m.out());
            long after = memory(p);
            double measured = 1 - (double) after / before;
            System.out.printf(java.util.Locale.ROOT, "projection check %s: zstd 3 projected %.1f%% of memory saved "
                    + "(%.3f MiB), measured %.1f%% (%.3f MiB)%n", p, 100 * projected, projectedMiB, 100 * measured,
                    (before - after) / (double) (1 << 20));
            assertEquals(measured, projected, 0.05, p + ": projected " + projected + " measured " + measured);
            assertEquals((before - after) / (double) (1 << 20), projectedMiB, 0.05 * before / (1 << 20), p);
        }
        // the dictionary option on small records: trained on one half, measured on the other, with the adoption rule
        String note = option(ps.get("product:*"), "zstd 3 + dictionary").get("note").asText();
        assertTrue(note.startsWith("adopted") || note.startsWith("not adopted"), note);
        assertTrue(note.contains("held-out half (150 keys"), note);
    }

    @Test
    void hashProjectionMatchesTooWhenTheEncodingStays() throws IOException {
        // hashes of 4 product records (values over hash-max-listpack-value before and after: a hash table both times)
        RedisCommands<byte[], byte[]> c = raw.sync();
        List<String> products = Files.readAllLines(JSON.resolve("products.ndjson"));
        for (int i = 0; i < 60; i++) {
            for (int f = 0; f < 4; f++) {
                c.hset(utf8("cart:" + i), utf8("item" + f), utf8(products.get((i * 4 + f) % products.size())));
            }
        }
        Tool t = Tool.run("advise", uri, "--json");
        assertEquals(0, t.code(), t.toString());
        JsonNode z3 = option(patterns(t.json()).get("cart:*"), "zstd 3");
        double projected = z3.get("memorySavedFraction").asDouble();
        long before = memory("cart:*");
        Tool m = Tool.run("migrate", uri, "--from", "plain", "--to", "glide-zstd:3", "--match", "cart:*", "--apply",
                "--json");
        assertEquals(60, MigrateTest.count(m.json(), "rewritten"), m.out());
        long after = memory("cart:*");
        double measured = 1 - (double) after / before;
        System.out.printf(java.util.Locale.ROOT, "projection check cart:* (hashes): zstd 3 projected %.1f%%, measured "
                + "%.1f%%%n", 100 * projected, 100 * measured);
        assertEquals(measured, projected, 0.05, "projected " + projected + " measured " + measured);
    }

    @Test
    void textOutputHasATableARecommendationAndTheConfigToPaste() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        for (int i = 0; i < 50; i++) {
            c.set(utf8("doc:" + i), utf8(TestValues.json(2000 + i)));
        }
        Tool t = Tool.run("advise", uri, "--match", "doc:*");
        assertEquals(0, t.code(), t.toString());
        assertTrue(t.out().contains("pattern doc:*: 50 keys, 50 read"), t.out());
        assertTrue(t.out().contains("  recommendation: "), t.out());
        assertTrue(t.out().contains("Redisson: Codec codec = new CompressingRedissonCodec"), t.out());
        assertTrue(t.out().contains("per 10,000 values"), t.out());
    }
}
