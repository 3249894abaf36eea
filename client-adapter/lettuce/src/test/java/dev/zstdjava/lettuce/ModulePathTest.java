package dev.zstdjava.lettuce;

import dev.zstdjava.values.CompressionConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The adapter works as the named module {@code dev.zstdjava.lettuce} (on the core module {@code dev.zstdjava.values})
 * next to Lettuce's automatic module, with
 * {@code --enable-native-access=dev.zstdjava.codec,dev.zstdjava.lettuce} and no warnings: the codec writes into a
 * direct Netty buffer through its native address.
 */
class ModulePathTest {
    static final Pattern RUNTIME_JARS = Pattern.compile(".*/(lettuce-core|netty-[a-z-]+|reactor-core|reactive-streams"
            + "|slf4j-api|redis-authx-core)-[^/]*\\.jar");

    @Test
    void runsAsANamedModule(@TempDir Path dir) throws Exception {
        Path classes = Path.of("target/classes").toAbsolutePath();
        Path valuesClasses = Path.of("../values/target/classes").toAbsolutePath();
        Path codecClasses = Path.of("../../codec/target/classes").toAbsolutePath();
        assertTrue(Files.exists(classes.resolve("module-info.class")), "compiled module descriptor");
        assertTrue(Files.exists(valuesClasses.resolve("module-info.class")), "compiled core module descriptor");
        List<String> modulePath = new ArrayList<>(List.of(classes.toString(), valuesClasses.toString(),
                codecClasses.toString()));
        String nativesRoot = null;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (RUNTIME_JARS.matcher(entry).matches()) {
                modulePath.add(entry);
            } else if (entry.contains("zstd-java-natives") || entry.endsWith("native/target/classes")) {
                nativesRoot = entry;
            }
        }
        assertNotNull(nativesRoot, "natives on the test class path");
        Path main = dir.resolve("Main.java");
        Files.writeString(main, """
                import dev.zstdjava.lettuce.*;
                import dev.zstdjava.values.*;
                public class Main {
                    public static void main(String[] a) {
                        if (!CompressingCodec.class.getModule().isNamed()) throw new AssertionError("not a module");
                        var codec = CompressingCodec.wrap(io.lettuce.core.codec.StringCodec.UTF8, CompressionConfig.defaults());
                        String v = "module path ".repeat(100);
                        var buf = io.netty.buffer.Unpooled.directBuffer();
                        codec.encodeValue(v, buf);
                        String back = codec.decodeValue(buf.nioBuffer());
                        System.out.println(v.equals(back) + " " + (buf.readableBytes() < v.length()) + " "
                                + CompressingCodec.class.getModule().getName() + " "
                                + CompressionConfig.class.getModule().getName());
                    }
                }
                """);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--module-path", String.join(File.pathSeparator, modulePath),
                "--add-modules", "dev.zstdjava.lettuce",
                "--enable-native-access=dev.zstdjava.codec,dev.zstdjava.lettuce",
                "-cp", nativesRoot, main.toString()).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        String err = new String(p.getErrorStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err);
        assertEquals("true true dev.zstdjava.lettuce dev.zstdjava.values", out, err);
        assertFalse(err.contains("WARNING"), err);
    }
}
