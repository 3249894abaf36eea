package dev.zstdjava.internal;

import dev.zstdjava.ChildProcess;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code -Dzstdjava.criticalHeapLimit}: the default, an explicit value, and a negative value (never stage). On JDK
 * 21, whose downcalls refuse heap segments, heap arrays are always staged (limit 0) and the property only sets the
 * piece size of long heap operations.
 */
class HeapLimitPropertyTest {

    /** Prints the limit the property gives, after a 4 MiB heap round trip through zstd and lz4. */
    public static void main(String[] args) throws ReflectiveOperationException {
        byte[] data = new byte[4 << 20];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 251 < 200 ? 'a' + i % 7 : i);
        }
        byte[] z = dev.zstdjava.zstd.Zstd.compress(data);
        byte[] l = dev.zstdjava.lz4.Lz4.compress(data, 0);
        boolean ok = java.util.Arrays.equals(data, dev.zstdjava.zstd.Zstd.decompress(z))
                && java.util.Arrays.equals(data, dev.zstdjava.lz4.Lz4.decompress(l, data.length));
        System.out.println(ok + " " + Bounds.HEAP_CRITICAL_LIMIT + " " + heapCriticalLimit("dev.zstdjava.zstd.ZstdNative") + " "
                + heapCriticalLimit("dev.zstdjava.lz4.Lz4Native") + " " + Bounds.HEAP_WINDOW);
    }

    /** The limit a package-private binding class uses (read reflectively: the bindings are not public). */
    private static long heapCriticalLimit(String bindings) throws ReflectiveOperationException {
        var f = Class.forName(bindings).getDeclaredField("HEAP_CRITICAL_LIMIT");
        f.setAccessible(true);
        return f.getLong(null);
    }

    @Test
    void propertySetsTheLimitForBothCodecs() throws Exception {
        boolean jdk21 = Runtime.version().feature() < 22;
        assertEquals(jdk21 ? "true 0 0 0 1048576" : "true 1048576 1048576 1048576 1048576", run(null));
        assertEquals(jdk21 ? "true 0 0 0 65536" : "true 65536 65536 65536 65536", run("65536"));
        String max = String.valueOf(Long.MAX_VALUE);
        assertEquals(jdk21 ? "true 0 0 0 " + max : "true " + max + " " + max + " " + max + " " + max, run("-1"));
    }

    private static String run(String value) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = value == null
                ? new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                        System.getProperty("java.class.path"), HeapLimitPropertyTest.class.getName())
                : new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Dzstdjava.criticalHeapLimit=" + value,
                        "-cp", System.getProperty("java.class.path"), HeapLimitPropertyTest.class.getName());
        ChildProcess p = ChildProcess.run(pb.redirectErrorStream(true), 60);
        String out = p.out().trim();
        assertEquals(0, p.exit(), out);
        return out;
    }
}
