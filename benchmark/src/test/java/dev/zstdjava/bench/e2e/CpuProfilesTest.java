package dev.zstdjava.bench.e2e;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/** {@code ./e2e --profile}: the stacks of every measured phase, and their split by the kind of thread. */
class CpuProfilesTest {
    @BeforeAll
    static void headless() {
        EndToEndTest.headless();
    }

    @Test
    void samplesAreSplitByTheThreadThatRanThem(@TempDir Path dir) throws Exception {
        Path collapsed = dir.resolve("p.collapsed");
        Files.writeString(collapsed, String.join("\n",
                "[ForkJoinPool-1-worker-2 tid=27901];java/lang/VirtualThread.run;Bench.slot 40",
                "[ForkJoinPool-1-worker-1 tid=27900];java/lang/VirtualThread.run 2",
                "[lettuce-nioEventLoop-4-2 tid=27898];io/netty/channel/nio/NioEventLoop.run 17",
                "[C2 CompilerThre tid=27890];C2Compiler::compile_method 3",
                "[lettuce-timer-3-1 tid=27895];io/netty/util/HashedWheelTimer$Worker.run 1",
                "") + "\n");
        assertArrayEquals(new long[] {42, 17, 4}, CpuProfiles.split(collapsed, Clients.Kind.LETTUCE_ZSTD));
        // a client without a Java event loop: its I/O threads count as the rest of the JVM
        assertArrayEquals(new long[] {42, 0, 21}, CpuProfiles.split(collapsed, Clients.Kind.GLIDE_ZSTD));
        assertEquals("json-64-20-lettuce-zstd-r3-get.collapsed",
                CpuProfiles.fileName(new Results.Cell("json", 64, 20), "lettuce-zstd", 3, "get"));
        assertEquals("4KiB-1-1-lettuce-r1-set.collapsed",
                CpuProfiles.fileName(new Results.Cell("4 KiB", 1, 1), "lettuce", 1, "set"));
        assertEquals("mixed-64-20-lettuce-zstd-adaptive-r2-set.collapsed",
                CpuProfiles.fileName(new Results.Cell("mixed", 64, 20), "lettuce-zstd-adaptive", 2, "set"));
    }

    @Test
    void aRunWithProfileWritesEachMeasuredPhasesStacksAndTheirSplit(@TempDir Path dir) throws Exception {
        Path profiles = dir.resolve("profiles");
        EndToEndTest.Ran ran = EndToEndTest.run("--corpus", EndToEndTest.testdata().toString(), "--sizes", "json",
                "--inflight", "8", "--batch", "1", "--clients", "lettuce,lettuce-zstd", "--keys", "300",
                "--rounds", "2", "--seconds", "0.3", "--warmup", "0.1", "--global-warmup", "0.2", "--no-progress",
                "--out", dir.resolve("e2e.md").toString(), "--profile", profiles.toString());
        assertEquals(EndToEnd.OK, ran.status(), ran.log());
        assertTrue(ran.log().contains("e2e: CPU profiles written to "), ran.log());
        for (String client : List.of("lettuce", "lettuce-zstd")) {
            for (int round = 1; round <= 2; round++) {
                for (String phase : List.of("set", "get")) {
                    Path f = profiles.resolve("json-8-1-" + client + "-r" + round + "-" + phase + ".collapsed");
                    assertTrue(Files.size(f) > 0, f + " is empty");
                    assertTrue(Files.readAllLines(f).stream().anyMatch(l -> l.startsWith("[ForkJoinPool-")),
                            "no request thread sampled in " + f);
                }
            }
        }
        String md = Files.readString(profiles.resolve("profiles.md"));
        assertTrue(md.contains("| cell | phase | client | rounds | requests | event loop | rest of the JVM | "
                + "sum |"), md);
        // every phase: requests and the event loop both ran, in every round
        Pattern row = Pattern.compile("\\| json if8 b1 \\| (SET|GET) \\| (lettuce|lettuce-zstd) \\| 2 \\| "
                + "([0-9.]+) \\| ([0-9.]+) \\| ([0-9.]+) \\| ([0-9.]+) \\|");
        Matcher m = row.matcher(md);
        List<String> rows = new java.util.ArrayList<>();
        while (m.find()) {
            rows.add(m.group(1) + " " + m.group(2));
            assertTrue(Double.parseDouble(m.group(3)) > 0, "no request CPU in " + m.group());
            assertTrue(Double.parseDouble(m.group(4)) > 0, "no event-loop CPU in " + m.group());
        }
        assertEquals(List.of("SET lettuce", "SET lettuce-zstd", "GET lettuce", "GET lettuce-zstd"), rows, md);
    }
}
