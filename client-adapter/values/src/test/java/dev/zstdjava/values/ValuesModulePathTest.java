package dev.zstdjava.values;

import dev.zstdjava.testkit.ModulePathRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
        ModulePathRun run = ModulePathRun.run(List.of(classes, codecClasses), entry -> false, "dev.zstdjava.values",
                "dev.zstdjava.codec", main);
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().startsWith("true true dev.zstdjava.values "), run.out() + run.err());
        assertTrue(run.out().endsWith(" false"), "no optional module resolved: " + run.out());
        assertFalse(run.err().contains("WARNING"), run.err());
    }
}
