package dev.zstdjava.values;

import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.zstd.ZstdException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Only a payload the codec rejects as malformed is returned as stored; a broken environment or a value this reader
 * cannot decode for another reason fails loudly.
 */
class ErrorPolicyTest {

    @Test
    void aFrameThatNeedsADictionaryIsNeverReturnedAsStored() {
        long[] id = new long[1];
        byte[] stored = TestValues.dictionaryValue(id);
        assertTrue(id[0] != 0);
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        MissingDictionaryException e = assertThrows(MissingDictionaryException.class, () -> vc.decompress(stored));
        assertEquals(id[0], e.dictionaryId());
        assertTrue(e.getMessage().contains("dictionary " + id[0]), e.getMessage());
        assertThrows(MissingDictionaryException.class, () -> vc.decompress(java.nio.ByteBuffer.wrap(stored)));
        assertThrows(MissingDictionaryException.class,
                () -> vc.decompress(java.lang.foreign.MemorySegment.ofArray(stored)));
        assertEquals(0, vc.stats().decompressionFailures(), "not counted as a malformed payload");
        // the same reader still reads other values
        byte[] v = "a value that compresses, a value that compresses, a value that compresses".repeat(4)
                .getBytes(StandardCharsets.UTF_8);
        assertTrue(java.util.Arrays.equals(v, vc.decompress(vc.compress(v))));
    }

    @Test
    void malformedPayloadsAreReturnedAsStoredAndCounted() {
        for (CompressionBackend backend : CompressionBackend.values()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().backend(backend).build());
            byte[] good = vc.compress("compressible text, compressible text, compressible text. ".repeat(40)
                    .getBytes(StandardCharsets.UTF_8));
            byte[] corrupt = good.clone();
            for (int i = 12; i < corrupt.length; i += 3) {
                corrupt[i] ^= (byte) 0x5a;
            }
            byte[] truncated = java.util.Arrays.copyOf(good, good.length / 2);
            assertSame(corrupt, vc.decompress(corrupt), backend + " corrupt");
            assertSame(truncated, vc.decompress(truncated), backend + " truncated");
            assertEquals(2, vc.stats().decompressionFailures(), backend.toString());
        }
    }

    @Test
    void whichZstdErrorsCountAsMalformed() {
        assertTrue(ZstdBackend.malformed(new ZstdException("op", ZstdException.CORRUPTION_DETECTED, "c", "")));
        assertTrue(ZstdBackend.malformed(new ZstdException("op", ZstdException.SRC_SIZE_WRONG, "c", "")));
        assertTrue(ZstdBackend.malformed(new ZstdException("op", 0, "found in Java", "")));
        assertFalse(ZstdBackend.malformed(new ZstdException("op", ZstdException.DICTIONARY_WRONG, "d", "")));
        assertFalse(ZstdBackend.malformed(new ZstdException("op", 64, "memory_allocation", "")));
        assertFalse(ZstdBackend.malformed(new ZstdException("op", 42, "parameter_outOfBound", "")));
    }

    /** Child JVM entry point: creates a compressor for the backend in args[0] and prints what happened. */
    public static void main(String[] args) {
        try {
            ValueCompressor.create(CompressionConfig.builder().backend(CompressionBackend.valueOf(args[0])).build());
            System.out.println("CREATED");
        } catch (IllegalStateException e) {
            System.out.println("REFUSED " + e.getMessage().replace('\n', ' '));
        }
    }

    private static String childRun(String property, String value, String backend) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = Files.createTempFile("child", ".log");
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-D" + property + "=" + value,
                "-cp", System.getProperty("java.class.path"), ErrorPolicyTest.class.getName(), backend)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), () -> "child JVM did not end within 60 s:\n" + read(log));
            return read(log).trim();
        } finally {
            p.destroyForcibly(); // no-op when it ended; kills it on a timeout or an interrupt
            Files.deleteIfExists(log);
        }
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "(its output is unreadable: " + e + ")";
        }
    }

    @Test
    void anExplicitLibraryPathThatDoesNotLoadFailsAtCreation() throws Exception {
        String zstd = childRun("zstdjava.zstd.path", "/nonexistent/libzstd.so.1", "ZSTD");
        assertTrue(zstd.startsWith("REFUSED zstd-java: the zstd backend does not work here"), zstd);
        assertTrue(zstd.contains("zstdjava.zstd.path=/nonexistent/libzstd.so.1: no such file"), zstd);
        String lz4 = childRun("zstdjava.lz4.path", "/nonexistent/liblz4.so.1", "LZ4");
        assertTrue(lz4.startsWith("REFUSED zstd-java: the lz4 backend does not work here"), lz4);
        assertTrue(lz4.contains("zstdjava.lz4.path=/nonexistent/liblz4.so.1: no such file"), lz4);
        // a broken zstd path does not stop an lz4 compressor (each backend loads its own library)
        assertEquals("CREATED", childRun("zstdjava.zstd.path", "/nonexistent/libzstd.so.1", "LZ4"));
    }
}
