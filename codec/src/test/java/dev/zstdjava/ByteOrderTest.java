package dev.zstdjava;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every multi-byte read or write in the main sources of the codec and the client adapters names its byte order, except accesses to native structs
 * and C arguments (native order by definition), listed here with the reason.
 */
class ByteOrderTest {

    private static final String STRUCT = "a field of a C struct in native memory (native order by definition)";

    static final List<ByteOrderScan.Allowed> ALLOWED = List.of(
            new ByteOrderScan.Allowed("Binder.java", "= ValueLayout.JAVA_", "C types size_t and int of function descriptors"),
            new ByteOrderScan.Allowed("ZstdNative.java", "ValueLayout.JAVA_DOUBLE.withName", "ZSTD_compressionParameters-like struct layout"),
            new ByteOrderScan.Allowed("ZstdNative.java", "INT, ValueLayout.JAVA_LONG, SIZE_T", "C arguments of ZSTD_getCParams"),
            new ByteOrderScan.Allowed("ZstdNative.java", "r.get(ValueLayout.JAVA_", "ZSTD_bounds returned by value: " + STRUCT),
            new ByteOrderScan.Allowed("Lz4Native.java", "ValueLayout.JAVA_LONG.withName", "LZ4F_frameInfo_t layout"),
            new ByteOrderScan.Allowed("Lz4Native.java", "prefs.set(ValueLayout.JAVA_", "LZ4F_preferences_t: " + STRUCT),
            new ByteOrderScan.Allowed("Lz4Native.java", "Size.set(ValueLayout.JAVA_LONG", "size_t in/out argument of LZ4F_(de)compress: " + STRUCT),
            new ByteOrderScan.Allowed("Lz4Native.java", "info.get(ValueLayout.JAVA_LONG", "LZ4F_frameInfo_t.contentSize: " + STRUCT),
            new ByteOrderScan.Allowed("Lz4FrameDecompressor.java", "Size.get(ValueLayout.JAVA_LONG", "size_t in/out argument of LZ4F_decompress: " + STRUCT),
            new ByteOrderScan.Allowed("ZstdStream.java", "pos.set(ValueLayout.JAVA_LONG", "ZSTD_inBuffer/outBuffer.pos: " + STRUCT),
            new ByteOrderScan.Allowed("ZstdStream.java", "pos.get(ValueLayout.JAVA_LONG", "ZSTD_inBuffer/outBuffer.pos: " + STRUCT),
            new ByteOrderScan.Allowed("ZstdDecompressor.java", "pos.set(ValueLayout.JAVA_LONG", "ZSTD_inBuffer/outBuffer.pos: " + STRUCT),
            new ByteOrderScan.Allowed("ZstdDecompressor.java", "pos.get(ValueLayout.JAVA_LONG", "ZSTD_inBuffer/outBuffer.pos: " + STRUCT),
            new ByteOrderScan.Allowed("ZstdDictionary.java", "p.set(ValueLayout.JAVA_INT, ZstdNative.FC_", "ZDICT_fastCover_params_t: " + STRUCT),
            new ByteOrderScan.Allowed("ZstdDictionary.java", "nativeSizes, ValueLayout.JAVA_LONG", "the size_t array ZDICT_trainFromBuffer reads: " + STRUCT));

    @Test
    void everyMultiByteAccessNamesItsByteOrder() throws Exception {
        Path main = Path.of("src/main");
        assertTrue(Files.isDirectory(main), "run from the codec module folder");
        // the client adapters' main sources too (the value format's lz4 length, the dictionary magic and ID)
        List<Path> roots = new java.util.ArrayList<>(List.of(main));
        try (var adapters = Files.list(Path.of("../client-adapter"))) {
            adapters.map(p -> p.resolve("src/main")).filter(Files::isDirectory).sorted().forEach(roots::add);
        }
        assertTrue(roots.size() > 1, "client-adapter modules next to the codec: " + roots);
        Map<String, Integer> used = new TreeMap<>();
        List<String> findings = new java.util.ArrayList<>();
        for (Path root : roots) {
            findings.addAll(ByteOrderScan.findings(root, ALLOWED, used));
        }
        assertEquals(List.of(), findings, "multi-byte accesses without a byte order (name it with withOrder(...) or"
                + " ByteBuffer.order(...), or allow-list a native struct in ByteOrderTest with the reason)");
        for (ByteOrderScan.Allowed a : ALLOWED) {
            assertTrue(used.containsKey(a.file() + ": " + a.text()), "allow-list entry matches nothing now: " + a);
        }
    }

    @Test
    void theScanFindsWhatItLooksFor(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("Bad.java"), String.join("\n",
                "class Bad {",
                "  int a(java.lang.foreign.MemorySegment s) { return s.get(ValueLayout.JAVA_INT_UNALIGNED, 0); }",
                "  int b(java.lang.foreign.MemorySegment s) { return s.get(ValueLayout.JAVA_INT_UNALIGNED",
                "      .withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), 0); }",
                "  int c(java.nio.ByteBuffer b) { return b.getInt(0); }",
                "  // ValueLayout.JAVA_LONG in a comment",
                "  long d() { return Long.getLong(\"some.property\", 1L); }",
                "}"));
        Files.writeString(dir.resolve("Good.java"), String.join("\n",
                "class Good {",
                "  int c(java.nio.ByteBuffer b) { return b.order(java.nio.ByteOrder.BIG_ENDIAN).getInt(0); }",
                "}"));
        List<String> f = ByteOrderScan.findings(dir, List.of(), new TreeMap<>());
        assertEquals(List.of(
                "Bad.java:2: int a(java.lang.foreign.MemorySegment s) { return s.get(ValueLayout.JAVA_INT_UNALIGNED, 0); }",
                "Bad.java:5: int c(java.nio.ByteBuffer b) { return b.getInt(0); }"), f);
    }
}
