package dev.zstdjava.bench.report;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Renders the report from a small saved results folder (src/test/resources/.../report/results: ten zstd level-3 JMH
 * cells per operation on text-128 and text-1k, the C reference, the allocation probe, a JMH log with a failure) and
 * checks the loaded numbers, the verdicts, the Markdown and the charts.
 */
class ReportTest {
    private static Path results;

    @BeforeAll
    static void setUp() throws Exception {
        System.setProperty("java.awt.headless", "true");
        results = Path.of(ReportTest.class.getResource("results").toURI());
    }

    @Test
    void loadsJmhCrefProbeAndEnvironment() throws Exception {
        Measurements r = Measurements.load(results);
        assertEquals(24, r.cells().size(), "2 ops x 2 payloads x (5 JMH contestants + C)");
        Measurements.Cell seg = r.cell("zstd", "compress", "zstdjava_segment", "text-128", "3");
        assertEquals(351.0, seg.score());
        assertEquals(14.0, seg.error());
        assertEquals(0.05, seg.alloc());
        assertEquals(5, seg.samples());
        assertEquals(400.0, seg.iterMs());
        // JMH writes an error it could not compute as the string "NaN"
        assertTrue(Double.isNaN(r.cell("zstd", "decompress", "zstdjava_arrayNew", "text-1k", "3").error()));
        Measurements.Cell c = r.cell("zstd", "compress", "c", "text-128", "3");
        assertEquals(346.0, c.score(), 1e-9, "the C reference's ns/op turned into ops/ms");
        assertEquals(1.61, c.error(), 1e-9);
        assertEquals(144.0, r.probe().get(Measurements.key("zstd", "compress", "zstdjava_arrayDst", "text-128", "3")));
        assertEquals("full", r.env("profile", "?"));
        assertEquals("1.37", r.jmhVersion());
        assertEquals("OpenJDK 64-Bit Server VM 25.0.3+9-LTS (25.0.3)", r.jdk());
        assertEquals(2, r.failures().size(), String.valueOf(r.failures()));
        assertEquals(java.util.List.of("text-128", "text-1k"), r.payloads("zstd", "3"));
        assertEquals(java.util.List.of("c", "zstdjava_segment", "zstdjava_arrayDst", "zstdjava_arrayNew",
                "zstdjni_static", "zstdjni_ctxDirect"), r.contestants("zstd", "compress", "3"));
    }

    @Test
    void verdictsWeighScoresAgainstTheirErrorBars() throws Exception {
        var targets = new Verdicts(Measurements.load(results)).targets();
        assertEquals(10, targets.size());
        assertVerdict(targets.get(0), "met", "decompress text-1k: 0.99x (bar 0.97x, ±9.5%); 4 cells");
        // arr+dst/seg at 1 KiB is 0.95x, under the 0.97x bar, but the two error bars together span ±15%
        assertVerdict(targets.get(4), "within noise", "compress text-1k: 0.95x (bar 0.97x, ±15.2%); 4 cells");
        assertVerdict(targets.get(5), "missed", "decompress text-1k (3) arr+dst: 224 B/op");
        assertEquals("lz4 targets", targets.get(9).what());
        assertVerdict(targets.get(9), "not measured", "no lz4 cells in this run");
    }

    private static void assertVerdict(Verdicts.Target t, String status, String detailStart) {
        assertEquals(status, t.verdict().status(), t.what());
        assertTrue(t.verdict().detail().startsWith(detailStart), t.what() + ": " + t.verdict().detail());
    }

    @Test
    void writesMarkdownAndCharts(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("bench.md");
        String headline = Report.write(results, out, "Test report", "made by a test", "./bench full");
        // the README's codec rows: ns per call against the best peer and C, B/call from the probe where it ran
        assertTrue(headline.contains("| zstd compress (level 3) | text-128 (128 B) | 2,849 | zstd-jni, reused ctx, "
                + "direct buffers | 2,882 | 1.01x | 2,890 | 1.01x | 0.00 / 144 | 0.05 |"), headline);
        assertTrue(headline.contains("(above 1.00x favours zstd-java)"), headline);
        assertTrue(headline.contains("`./e2e --quick`"), "the server rows are named, not measured: " + headline);
        assertFalse(headline.contains("| lz4 "), "no lz4 rows without lz4 cells: " + headline);
        String md = Files.readString(out);
        assertTrue(md.startsWith("# Test report\n\n**Generated file: do not edit.** `./bench full` rewrites it whole;"),
                md);
        assertTrue(md.contains("\n\n> made by a test\n"), md);
        assertTrue(md.contains(headline), "the printed headline is the report's");
        assertTrue(md.contains("| zstd `MemorySegment` ahead of zstd-jni's best path at 128 B | **met** | "), md);
        assertTrue(md.contains("| text-1k | 1 KiB | 336 ± 8.50 | 331 ± 23.0 | 323 ± 60.4 | 290 | 157 ± 108 |"),
                "a cell without an error shows no ±:\n" + md);
        assertTrue(md.contains("- `jmh-zstd-compress.log: java.lang.IllegalStateException: made up for the report test`"),
                md);
        assertFalse(Pattern.compile("(?i)issue \\d").matcher(md).find(), "an internal issue number in the report");
        for (String png : new String[] {"zstd-compress.png", "zstd-decompress.png"}) {
            assertTrue(md.contains("![" + png + "](bench/" + png + ")"), png + " not linked");
            BufferedImage img = ImageIO.read(dir.resolve("bench").resolve(png).toFile());
            assertNotNull(img, png + " is not a readable PNG");
            assertTrue(img.getWidth() >= 600 && img.getHeight() >= 400, png);
        }
        try (Stream<Path> charts = Files.list(dir.resolve("bench"))) {
            assertEquals(2, charts.count(), "no lz4 and no level-sweep charts without their cells");
        }
    }
}
