package dev.zstdjava.bench.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code --server-cpus} and {@code --client-cpus}: the server started through {@code taskset -c LIST}, and this JVM
 * (every thread it has, and so every thread it starts later) moved onto its CPUs with {@code taskset -a -p -c LIST}
 * (the {@code e2e} script starts the JVM under {@code taskset -c LIST} already, so that the JVM sizes its GC and JIT
 * threads for those CPUs; the tool then only checks). Linux only; needs {@code taskset} from util-linux, and says so
 * before anything starts when it is missing. Not thread-safe (used once, at the start of a run).
 */
final class CpuPinning {
    /** A CPU list as taskset and /proc write it: 0, 2-5, 0,2,4-7 */
    private static final Pattern LIST = Pattern.compile("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");

    private CpuPinning() {}

    /** @throws IllegalArgumentException when {@code cpus} is not a CPU list */
    static String checkList(String option, String cpus) {
        if (cpus == null || !LIST.matcher(cpus).matches()) {
            throw new IllegalArgumentException(option + " takes a CPU list such as 0, 1-3 or 0,2-3, got '" + cpus + "'");
        }
        return cpus;
    }

    /** @return the taskset executable on {@code path} (a PATH value, may be null), or null */
    static Path taskset(String path) {
        if (path == null) {
            return null;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "taskset");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /**
     * @param path a PATH value ({@code System.getenv("PATH")})
     * @return taskset, or an {@link IllegalStateException} saying {@code option} needs it
     */
    static Path requireTaskset(String option, String path) {
        Path t = taskset(path);
        if (t == null) {
            throw new IllegalStateException(option + " needs taskset (util-linux, e.g. apt-get install util-linux), "
                    + "which is not on PATH; nothing was started");
        }
        return t;
    }

    /** @return the prefix that starts a program on {@code cpus} */
    static List<String> launcher(Path taskset, String cpus) {
        return List.of(taskset.toString(), "-c", cpus);
    }

    /**
     * Moves every thread of this process onto {@code cpus} unless it already runs on exactly those.
     *
     * @return this process's CPUs afterwards, as /proc/self/status lists them
     * @throws IOException when taskset fails (its output is in the message)
     */
    static String pinThisProcess(Path taskset, String cpus) throws IOException, InterruptedException {
        String before = allowedCpus();
        if (!cpus.equals(before)) {
            List<String> cmd = new ArrayList<>(List.of(taskset.toString(), "-a", "-p", "-c", cpus,
                    Long.toString(ProcessHandle.current().pid())));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor() != 0) {
                throw new IOException(String.join(" ", cmd) + " failed: " + out);
            }
        }
        return allowedCpus();
    }

    /** @return the machine's online CPUs as Linux lists them (e.g. "0-15"), whatever this process may use */
    static String onlineCpus() {
        try {
            return Files.readString(Path.of("/sys/devices/system/cpu/online"), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** @return {@code Cpus_allowed_list} of this process (its main thread), "unknown" off Linux */
    static String allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return line.substring("Cpus_allowed_list:".length()).trim();
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return "unknown";
    }
}
