package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Two writers of one pattern, interleaved exactly by a debugger ({@code src/test/jdi/HoldingDebugger.java} runs
 * {@link StaleOptionChild}): one reads the option in use and is held before the pattern's lock while the other's
 * sampled write switches the pattern; the first then samples. It must sample with the option in use now, so the
 * switch is made, counted and logged once.
 */
class PatternStateRaceTest {
    private static final Path SOURCE = Path.of("src/main/java/dev/zstdjava/values/PatternState.java");
    static final Path DEBUGGER = Path.of("src/test/jdi/HoldingDebugger.java");

    /**
     * @return the line of the {@code PatternState.store} method declared as {@code declaration} that takes the lock:
     *         a writer held there has read the option in use and not yet taken the lock
     */
    static int lockLine(String declaration) throws IOException {
        List<String> lines = Files.readAllLines(SOURCE, StandardCharsets.UTF_8);
        int i = 0;
        while (i < lines.size() && !lines.get(i).contains(declaration)) {
            i++;
        }
        while (i < lines.size() && !lines.get(i).contains("lock.tryLock()")) {
            i++;
        }
        assertTrue(i < lines.size(), declaration + " and its tryLock in " + SOURCE.toAbsolutePath());
        return i + 1;
    }

    @Test
    void aWriterThatReadTheOptionBeforeASwitchDoesNotSwitchAgain() throws Exception {
        staleWriter("byte[] store(byte[] value) {", "([B)[B", "array");
    }

    @Test
    void aSegmentWriterThatReadTheOptionBeforeASwitchDoesNotSwitchAgain() throws Exception {
        staleWriter("long store(MemorySegment value, MemorySegment dst) {",
                "(Ljava/lang/foreign/MemorySegment;Ljava/lang/foreign/MemorySegment;)J", "segment");
    }

    private static void staleWriter(String declaration, String signature, String form) throws Exception {
        String out = debug(StaleOptionChild.class, PatternState.class, lockLine(declaration), "store", signature,
                "stale-writer", form);
        assertTrue(out.contains("option=plain"), out);
        assertTrue(out.contains("switches=1 "), "one switch, zstd 3 -> plain, counted once:\n" + out);
        assertTrue(out.contains("logged=1"), "and logged once:\n" + out);
    }

    /**
     * Runs {@code child} (on this runtime, with this class path) under {@code src/test/jdi/HoldingDebugger.java},
     * which holds the thread named {@code thread} at {@code line} of {@code holdClass}'s method {@code method}
     * ({@code signature}) until the child's main thread passes its {@code releaseHeld()} (see the debugger).
     *
     * @return the child's output, once it has exited with status 0
     */
    static String debug(Class<?> child, Class<?> holdClass, int line, String method, String signature, String thread,
                        String... childArgs) throws Exception {
        // the debugger, a source file, needs jdk.jdi and jdk.compiler: this runtime's, or the build JDK's (the JDK 21
        // test runtime has neither); the program it debugs runs on this runtime
        String debuggerHome = ModuleLayer.boot().findModule("jdk.jdi").isPresent()
                && ModuleLayer.boot().findModule("jdk.compiler").isPresent() ? System.getProperty("java.home")
                : System.getProperty("zstdjava.buildJdk");
        assertNotNull(debuggerHome, "this runtime has no jdk.jdi or jdk.compiler and -Dzstdjava.buildJdk (a JDK) is"
                + " not set: run the tests through ./mvnw, which sets it");
        Path log = Files.createTempFile("holding-debugger", ".log");
        try {
            List<String> command = new java.util.ArrayList<>(List.of(Path.of(debuggerHome, "bin", "java").toString(),
                    DEBUGGER.toString(), System.getProperty("java.home"), System.getProperty("java.class.path"),
                    child.getName(), holdClass.getName(), String.valueOf(line), method, signature, thread));
            command.addAll(List.of(childArgs));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                fail("the debugger did not finish in 120 s:\n" + Files.readString(log));
            }
            String out = Files.readString(log);
            assertEquals(0, p.exitValue(), out);
            return out;
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
