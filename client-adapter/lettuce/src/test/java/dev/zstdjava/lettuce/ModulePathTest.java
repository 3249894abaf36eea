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
        // the main class, precompiled (runtimes without jdk.compiler cannot run a source file), copied alone
        String mainClass = modulecheck.LettuceMain.class.getName();
        Path classFile = Path.of(modulecheck.LettuceMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve(mainClass.replace('.', '/') + ".class");
        Path copy = dir.resolve(mainClass.replace('.', '/') + ".class");
        Files.createDirectories(copy.getParent());
        Files.copy(classFile, copy);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--module-path", String.join(File.pathSeparator, modulePath),
                "--add-modules", "dev.zstdjava.lettuce",
                "--enable-native-access=dev.zstdjava.codec,dev.zstdjava.lettuce",
                "-cp", dir + File.pathSeparator + nativesRoot, mainClass).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        String err = new String(p.getErrorStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err);
        assertEquals("true true dev.zstdjava.lettuce dev.zstdjava.values", out, err);
        assertFalse(err.contains("WARNING"), err);
    }
}
