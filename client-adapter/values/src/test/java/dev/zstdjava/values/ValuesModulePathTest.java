package dev.zstdjava.values;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The core runs as the named module {@code dev.zstdjava.values} with nothing but the codec on the module path: its
 * optional integrations ({@code requires static} Micrometer, Spring, Redisson, Jedis, Netty) are not needed at run
 * time, and {@code --enable-native-access=dev.zstdjava.codec} is enough (no warnings).
 */
class ValuesModulePathTest {
    @Test
    void runsAsANamedModuleWithoutItsOptionalDependencies(@TempDir Path dir) throws Exception {
        Path classes = Path.of("target/classes").toAbsolutePath();
        Path codecClasses = Path.of("../../codec/target/classes").toAbsolutePath();
        assertTrue(Files.exists(classes.resolve("module-info.class")), "compiled module descriptor");
        String nativesRoot = null;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.contains("zstd-java-natives") || entry.endsWith("native/target/classes")) {
                nativesRoot = entry;
            }
        }
        assertNotNull(nativesRoot, "natives on the test class path");
        Path main = dir.resolve("Main.java");
        Files.writeString(main, """
                import dev.zstdjava.values.*;
                public class Main {
                    public static void main(String[] a) {
                        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
                        byte[] v = "module path ".repeat(100).getBytes();
                        byte[] stored = vc.compress(v);
                        System.out.println(java.util.Arrays.equals(v, vc.decompress(stored)) + " "
                                + (stored.length < v.length) + " " + ValueCompressor.class.getModule().getName() + " "
                                + ModuleLayer.boot().modules().size() + " "
                                + ModuleLayer.boot().findModule("micrometer.core").isPresent());
                    }
                }
                """);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--module-path", classes + File.pathSeparator + codecClasses,
                "--add-modules", "dev.zstdjava.values", "--enable-native-access=dev.zstdjava.codec",
                "-cp", nativesRoot, main.toString()).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        String err = new String(p.getErrorStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err);
        assertTrue(out.startsWith("true true dev.zstdjava.values "), out + err);
        assertTrue(out.endsWith(" false"), "no optional module resolved: " + out);
        assertFalse(err.contains("WARNING"), err);
    }
}
