package dev.zstdjava.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class MemoryModelTest {
    @Test
    void jemallocSizeClasses() {
        long[][] cases = {{1, 8}, {8, 8}, {9, 16}, {17, 32}, {33, 48}, {65, 80}, {129, 160}, {257, 320}, {1025, 1280},
                {4097, 5120}, {16385, 20480}};
        for (long[] c : cases) {
            assertEquals(c[1], MemoryModel.jemallocClass(c[0]), "class of " + c[0]);
        }
    }

    @Test
    void stringsSwitchFromEmbstrAbove44BytesAndHashesFromListpackAboveTheValueLimit() {
        MemoryModel je = new MemoryModel(true, 128, 64);
        assertEquals(MemoryModel.jemallocClass(16 + 3 + 44 + 1), je.string(44), "embstr: one allocation");
        assertEquals(16 + MemoryModel.jemallocClass(3 + 45 + 1), je.string(45), "raw: object and SDS");
        long listpack = je.hash(List.of(new long[] {5, 60}), 10);
        long table = je.hash(List.of(new long[] {5, 65}), 10);
        assertTrue(table > 1.5 * listpack, "a value over hash-max-listpack-value makes a hash table: " + listpack + " vs " + table);
        assertTrue(je.hash(List.of(new long[] {5, 60}), 129) > je.hash(List.of(new long[] {5, 60}), 128) * 1.5,
                "over hash-max-listpack-entries: a hash table");
        MemoryModel libc = new MemoryModel(false, 128, 64);
        assertEquals(1000, libc.string(1000) - libc.string(0) + 8, 16, "libc: about linear");
    }
}
