package dev.zstdjava.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The profiles `./bench` runs: which cells and how long each is measured. */
class SuiteTest {
    @Test
    void targetsProfileRepeatsTheTargetCellsWithMoreForksAndLongerIterations() {
        Suite.Profile t = Suite.profile("targets", null);
        Suite.Profile full = Suite.profile("full", null);
        assertEquals(3, t.forks());
        assertTrue(t.forks() > full.forks() && t.iterations() * t.iterationMs() > full.iterations() * full.iterationMs(),
                "more forks and longer measurement than the full profile");
        assertEquals(List.of("zstd-compress", "zstd-decompress", "lz4-compress", "lz4-decompress"),
                t.groups().stream().map(Suite.Group::name).toList());
        for (Suite.Group g : t.groups()) {
            assertEquals(List.of("zstdjava_segment", "zstdjava_arrayDst"), g.methods(), g.name());
            assertEquals(List.of("text-128", "text-1k", "text-64k"), g.payloads(), g.name());
        }
        assertEquals(List.of("zstd-compress", "zstd-decompress"),
                Suite.profile("targets", "zstd").groups().stream().map(Suite.Group::name).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Suite.profile("fast", null));
        assertTrue(e.getMessage().contains("quick, full, targets or smoke"), e.getMessage());
    }
}
