package dev.zstdjava.testkit;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Python GLIDE side of the interop tests: {@code client-adapter/lettuce/src/test/python/glide_interop.py}, run
 * by the Python of the test environment ({@link TestEnv#python()}, which has valkey-glide). The script takes a mode,
 * the server port, a backend, an input file of entries and an output file.
 */
public final class GlideScript {
    private static final long TIMEOUT_SECONDS = 60;

    private GlideScript() {}

    /**
     * Writes {@code entries} to an input file (per entry: key length, UTF-8 key, value length or -1 for a key without
     * a value, value; lengths as big-endian ints), runs the script on it and waits for it. The input, output and log
     * files are new files in {@code dir}.
     *
     * @param script the script's path
     * @return the output file
     * @throws AssertionError if the script fails or runs longer than 60 s; the message carries its output
     */
    public static Path run(Path script, Path dir, String mode, int port, String backend, Map<String, byte[]> entries)
            throws IOException, InterruptedException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buf)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                byte[] k = e.getKey().getBytes(StandardCharsets.UTF_8);
                out.writeInt(k.length);
                out.write(k);
                out.writeInt(e.getValue() == null ? -1 : e.getValue().length);
                if (e.getValue() != null) {
                    out.write(e.getValue());
                }
            }
        }
        Path in = Files.createTempFile(dir, "in", ".bin");
        Path out = Files.createTempFile(dir, "out", ".bin");
        Path log = Files.createTempFile(dir, "glide", ".log");
        Files.write(in, buf.toByteArray());
        Process p = new ProcessBuilder(TestEnv.python().toString(), script.toString(), mode, Integer.toString(port),
                backend, in.toString(), out.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        String what = "GLIDE script " + mode + " " + backend;
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(what + " timed out:\n" + Files.readString(log));
        }
        if (p.exitValue() != 0) {
            throw new AssertionError(what + " failed (exit " + p.exitValue() + "):\n" + Files.readString(log));
        }
        return out;
    }
}
