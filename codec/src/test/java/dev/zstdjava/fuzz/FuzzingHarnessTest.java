package dev.zstdjava.fuzz;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The fuzzing harness itself: a JVM crash and a thrown exception in a target both fail the run. */
class FuzzingHarnessTest {

    /** A target that crashes the JVM on every input: {@code strlen(NULL)} faults in native code (SIGSEGV). */
    public static final class Crashing {
        private static final MethodHandle STRLEN = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("strlen").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));

        private Crashing() {}

        public static void fuzzerTestOneInput(byte[] data) throws Throwable {
            long unused = (long) STRLEN.invokeExact(MemorySegment.NULL);
        }
    }

    /** A target that throws an undocumented exception on inputs starting with 'X'. */
    public static final class Throwing {
        private Throwing() {}

        public static void fuzzerTestOneInput(byte[] data) {
            if (data.length > 0 && data[0] == 'X') {
                throw new IllegalStateException("planted bug");
            }
        }
    }

    @Test
    void aSegfaultInNativeCodeFailsTheRun() throws Exception {
        Path corpus = Path.of("target", "fuzz-selftest", "crashing").toAbsolutePath();
        Fuzzing.Run run = Fuzzing.fork(Crashing.class, corpus, 5);
        assertNotEquals(0, run.exit(), run.output());
        try (Stream<Path> files = Files.list(run.work())) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().startsWith("hs_err")),
                    "the JVM's crash report is in " + run.work() + "\n" + run.output());
        }
    }

    @Test
    void anExceptionIsAFindingSavedAsRegressionInput() throws Exception {
        Path corpus = Path.of("target", "fuzz-selftest", "throwing").toAbsolutePath();
        Files.createDirectories(corpus);
        Files.write(corpus.resolve("seed"), new byte[] {'Y'});
        Fuzzing.Run run = Fuzzing.fork(Throwing.class, corpus, 30);
        assertNotEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains("planted bug"), run.output());
        try (Stream<Path> files = Files.list(corpus)) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().startsWith("crash-")), run.output());
        }
    }
}
