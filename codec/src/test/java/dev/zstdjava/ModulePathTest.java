package dev.zstdjava;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The codec works as a named module with {@code --enable-native-access=dev.zstdjava.codec}, as the README and docs/api-guide.md say. */
class ModulePathTest {

    @Test
    void runsAsANamedModuleWithoutNativeAccessWarnings(@TempDir Path dir) throws Exception {
        Path codecClasses = Path.of("target/classes").toAbsolutePath();
        assertTrue(Files.exists(codecClasses.resolve("module-info.class")), "compiled module descriptor");
        URL natives = getClass().getClassLoader().getResource("META-INF/zstd-java/native/"
                + dev.zstdjava.internal.NativePlatform.current().folder() + "/libzstd.so");
        assertNotNull(natives);
        String nativesRoot = natives.getPath().substring(0, natives.getPath().indexOf("META-INF"));
        if (nativesRoot.startsWith("file:")) { // inside a jar: file:/...jar!/
            nativesRoot = nativesRoot.substring(5, nativesRoot.length() - 2);
        }
        // the main class, precompiled (runtimes without jdk.compiler cannot run a source file), copied alone
        String mainClass = modulecheck.ZstdMain.class.getName();
        Path classFile = Path.of(modulecheck.ZstdMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve(mainClass.replace('.', '/') + ".class");
        Path copy = dir.resolve(mainClass.replace('.', '/') + ".class");
        Files.createDirectories(copy.getParent());
        Files.copy(classFile, copy);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ChildProcess p = ChildProcess.run(new ProcessBuilder(java, "--module-path", codecClasses.toString(),
                "--add-modules", "dev.zstdjava.codec", "--enable-native-access=dev.zstdjava.codec",
                "-cp", dir + File.pathSeparator + nativesRoot, mainClass), 60);
        String out = p.out().trim();
        String err = p.stderr();
        assertEquals(0, p.exit(), err);
        assertEquals("true 1.5.7 dev.zstdjava.codec", out, err);
        assertFalse(err.contains("WARNING"), err);
    }
}
