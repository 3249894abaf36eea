package dev.zstdjava.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The peer comparison ({@code ./bench peers}): its short form end to end, and the arithmetic of its report. */
class PeersTest {
    @Test
    void shortRunMeasuresEveryContestantOfEveryCellAndWritesTheTable(@TempDir Path dir) throws Exception {
        // one child JVM, one round of 1 ms per contestant, one size: checks the plumbing, its numbers mean nothing
        int status = new CommandLine(new Peers()).execute(dir.toString(), "--jvms", "1", "--rounds", "1",
                "--warmup-rounds", "0", "--round-ms", "1", "--sizes", "128");
        assertEquals(0, status);
        List<String> rounds = Files.readAllLines(dir.resolve("peers-jvm1.tsv"));
        // zstd compress and decompress: 11 contestants each; lz4: 10 each
        assertEquals(42, rounds.size(), String.join("\n", rounds));
        for (String cell : List.of("zstd.compress.128B", "zstd.decompress.128B", "lz4.compress.128B",
                "lz4.decompress.128B")) {
            assertTrue(rounds.stream().anyMatch(l -> l.startsWith(cell + "\tzstd-jni|") || l.startsWith(cell
                    + "\tlz4-java|")), cell);
            assertTrue(rounds.stream().anyMatch(l -> l.startsWith(cell + "\taircompressor|native segment|native")),
                    cell);
        }
        String md = Files.readString(dir.resolve("peers.md"));
        // every one of our forms has a peer form of its kind: 5 rows per cell
        assertEquals(20, md.lines().filter(l -> l.matches("\\| (zstd|lz4)\\.\\S+ \\| (native|byte\\[\\]|new byte\\[\\]) \\| .*"))
                .count(), md);
        assertTrue(md.contains("of 20 rows at the target"), md);
    }

    @Test
    void ratioIsThePeersTimeOverOursAndTheVerdictAllowsTheSpread(@TempDir Path dir) throws Exception {
        // JVM medians: ours 100, 100, 100 ns; the peer 99, 101, 100 ns: ratio 0.99, 1.01, 1.00 -> median 1.00, met
        // ours 100 in all; a second peer form 98, 99, 98: best peer by median; ratio 0.98, 0.99, 0.98 -> missed
        String[] jvm = {
            "c.x\tzstd-java|segment|native\t100\nc.x\tp|a|native\t99\nc.y\tzstd-java|f|byte[]\t100\nc.y\tq|b|byte[]\t98\n",
            "c.x\tzstd-java|segment|native\t100\nc.x\tp|a|native\t101\nc.y\tzstd-java|f|byte[]\t100\nc.y\tq|b|byte[]\t99\n",
            "c.x\tzstd-java|segment|native\t100\nc.x\tp|a|native\t100\nc.y\tzstd-java|f|byte[]\t100\nc.y\tq|b|byte[]\t98\n"};
        List<Path> files = new java.util.ArrayList<>();
        for (int i = 0; i < jvm.length; i++) {
            files.add(Files.writeString(dir.resolve("j" + i + ".tsv"), jvm[i]));
        }
        String md = Peers.report(files, "test");
        assertTrue(md.contains("| c.x | native | segment | 100.0 [100.0, 100.0] | p a | 100.0 [99.0, 101.0] | 1.000x "
                + "[0.990, 1.010] | met |"), md);
        assertTrue(md.contains("| c.y | byte[] | f | 100.0 [100.0, 100.0] | q b | 98.0 [98.0, 99.0] | 0.980x "
                + "[0.980, 0.990] | MISSED |"), md);
        assertEquals("met within spread", Peers.verdict(0.995, 1.002));
        assertEquals("MISSED", Peers.verdict(0.995, 0.998));
        assertTrue(md.contains("1 of 2 rows at the target. Missed: c.y f."), md);
    }
}
