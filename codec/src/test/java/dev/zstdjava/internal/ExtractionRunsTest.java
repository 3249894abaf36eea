package dev.zstdjava.internal;

import dev.zstdjava.ChildProcess;
import dev.zstdjava.NativeLibrary;
import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.zstd.Zstd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fresh JVMs, one after the other, load the bundled libraries from the same temporary folder: each extracts into a
 * folder of its own, and the folders do not pile up run after run (on Windows a loaded DLL survives its JVM's exit;
 * the next JVM removes it).
 */
class ExtractionRunsTest {

    private static final boolean WINDOWS = System.getProperty("os.name", "").toLowerCase().contains("win");

    @Test
    void theTemporaryFolderDoesNotGrowRunAfterRun(@TempDir Path tmp) throws Exception {
        List<Long> counts = new ArrayList<>();
        List<String> dirs = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            String out = runChild(tmp);
            String[] lines = out.strip().split("\\R");
            String last = lines[lines.length - 1];
            assertTrue(last.startsWith("BUNDLED BUNDLED "), out);
            Path dir = Path.of(last.substring("BUNDLED BUNDLED ".length())).getParent();
            assertEquals(tmp.toRealPath(), dir.getParent().toRealPath(), out);
            dirs.add(dir.getFileName().toString());
            counts.add(extractionFolders(tmp));
        }
        assertEquals(3, dirs.stream().distinct().count(), "each JVM its own folder: " + dirs);
        // Linux/macOS: the JVM deletes its folder at exit (0 left). Windows: the last JVM's DLLs stay (1 left)
        long expected = WINDOWS ? 1 : 0;
        assertEquals(List.of(expected, expected, expected), counts, "extraction folders left after each run");
    }

    /**
     * JVMs started at once with the same temporary folder: each loads the bundled libraries from a folder of its own
     * (none takes another's folder, being made or in use, for an ended JVM's and deletes it), and none is left.
     */
    @Test
    void jvmsStartedTogetherEachLoadTheBundledCopy(@TempDir Path tmp) throws Exception {
        int n = 4;
        List<Future<String>> runs = new ArrayList<>();
        ExecutorService starters = Executors.newFixedThreadPool(n);
        try {
            for (int i = 0; i < n; i++) {
                runs.add(starters.submit(() -> runChild(tmp)));
            }
        } finally {
            starters.shutdown();
        }
        List<String> dirs = new ArrayList<>();
        for (Future<String> run : runs) {
            String out = run.get();
            String[] lines = out.strip().split("\\R");
            String last = lines[lines.length - 1];
            assertTrue(last.startsWith("BUNDLED BUNDLED "), out);
            dirs.add(Path.of(last.substring("BUNDLED BUNDLED ".length())).getParent().getFileName().toString());
        }
        assertEquals(n, dirs.stream().distinct().count(), "each JVM its own folder: " + dirs);
        if (!WINDOWS) {
            assertEquals(0, extractionFolders(tmp), "extraction folders left");
        }
    }

    private static long extractionFolders(Path tmp) throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.filter(p -> p.getFileName().toString().startsWith(PrivateFolder.PREFIX)).count();
        }
    }

    private static String runChild(Path tmp) throws Exception {
        // the aarch64 run under qemu names its wrapper: the emulated JVM cannot start an aarch64 program itself
        String java = System.getProperty("zstdjava.test.childJava",
                Path.of(System.getProperty("java.home"), "bin", WINDOWS ? "java.exe" : "java").toString());
        ChildProcess p = ChildProcess.run(new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "-XX:-PrintWarnings", "-D" + NativeLoader.TMPDIR_PROPERTY + "=" + tmp, "-cp",
                System.getProperty("java.class.path"), Child.class.getName()).redirectErrorStream(true), 120);
        String s = p.out();
        assertEquals(0, p.exit(), s);
        return s;
    }

    /** The child JVM: one zstd and one lz4 call, then where both libraries came from. */
    public static final class Child {
        public static void main(String[] args) {
            byte[] one = {42};
            if (Zstd.decompress(Zstd.compress(one), 1)[0] != 42 || Lz4.compress(one).length == 0) {
                throw new AssertionError("round trip");
            }
            NativeLibrary z = Zstd.library();
            NativeLibrary l = Lz4.library();
            System.out.println(z.source() + " " + l.source() + " " + z.location());
        }
    }
}
