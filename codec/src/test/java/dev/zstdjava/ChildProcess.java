package dev.zstdjava;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A child process (a JVM, a command-line tool) run to its end within a time limit. Its output goes to files, never
 * to pipes the test would block on, so the wait is bounded: past the limit, or when the test thread is interrupted
 * (JUnit's timeout), the child is killed and the test fails with what it printed. Test code only; one call per
 * child, from one thread.
 *
 * @param exit   the exit status
 * @param stdout what it wrote to standard output (with standard error when the builder merges them)
 * @param stderr what it wrote to standard error (empty when merged)
 */
public record ChildProcess(int exit, byte[] stdout, String stderr) {
    /** @return standard output as UTF-8 text */
    public String out() {
        return new String(stdout, StandardCharsets.UTF_8);
    }

    /**
     * Starts {@code pb} with no input and waits at most {@code seconds} for it to end; kills it and throws
     * {@link AssertionError} (naming the command and with its output so far) when it does not.
     */
    public static ChildProcess run(ProcessBuilder pb, long seconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile("child", ".out");
        Path err = Files.createTempFile("child", ".err");
        try {
            pb.redirectInput(ProcessBuilder.Redirect.from(new File(isWindows() ? "NUL" : "/dev/null")));
            pb.redirectOutput(out.toFile());
            if (!pb.redirectErrorStream() && pb.redirectError() == ProcessBuilder.Redirect.PIPE) {
                pb.redirectError(err.toFile());
            }
            Process p = pb.start();
            boolean ended;
            try {
                ended = p.waitFor(seconds, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                kill(p);
                throw e;
            }
            if (!ended) {
                kill(p);
                throw new AssertionError(String.join(" ", pb.command()) + " did not end within " + seconds
                        + " s and was killed; its output:\n" + Files.readString(out, StandardCharsets.UTF_8)
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            return new ChildProcess(p.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            delete(out);
            delete(err);
        }
    }

    /**
     * Deletes an output file. On Windows (and under Wine) the ended child's handle on it can outlive the process for a
     * moment, and deleting then fails with a sharing violation: retried for up to 5 s, then left to be deleted when
     * this JVM exits (a leftover output file, never a failed test for it).
     */
    private static void delete(Path f) {
        for (int attempt = 0; attempt < 50; attempt++) {
            try {
                Files.deleteIfExists(f);
                return;
            } catch (IOException e) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        f.toFile().deleteOnExit();
    }

    /** {@link #run(ProcessBuilder, long)} of {@code cmd} with standard error merged into standard output. */
    public static ChildProcess run(long seconds, String... cmd) throws IOException, InterruptedException {
        return run(new ProcessBuilder(cmd).redirectErrorStream(true), seconds);
    }

    private static void kill(Process p) throws InterruptedException {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    private static boolean isWindows() {
        return System.getProperty("os.name").startsWith("Windows");
    }
}
