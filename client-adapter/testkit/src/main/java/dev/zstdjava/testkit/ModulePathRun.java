package dev.zstdjava.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Runs a single-file Java program in a child JVM with given modules on the module path and the bundled natives on the
 * class path, as the adapters' module-path tests do.
 *
 * @param exit   the child's exit status
 * @param out    what it printed on standard output, trimmed
 * @param err    what it printed on standard error
 */
public record ModulePathRun(int exit, String out, String err) {
    /**
     * @param modulePath  module path entries, to which the test class path entries that {@code alsoOnModulePath}
     *                    accepts are added (for example a client library's jars)
     * @param addModules  the root module
     * @param nativeAccess the modules given {@code --enable-native-access}
     * @param main        the program's source file
     * @throws IllegalStateException if the natives are not on the test class path or the child does not finish
     */
    public static ModulePathRun run(List<Path> modulePath, Predicate<String> alsoOnModulePath, String addModules,
            String nativeAccess, Path main) throws IOException, InterruptedException {
        List<String> path = new ArrayList<>();
        modulePath.forEach(p -> path.add(p.toAbsolutePath().toString()));
        String nativesRoot = null;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (alsoOnModulePath.test(entry)) {
                path.add(entry);
            } else if (entry.contains("zstd-java-natives") || entry.endsWith("native/target/classes")) {
                nativesRoot = entry;
            }
        }
        if (nativesRoot == null) {
            throw new IllegalStateException("the natives are not on the test class path");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--module-path", String.join(File.pathSeparator, path),
                "--add-modules", addModules, "--enable-native-access=" + nativeAccess,
                "-cp", nativesRoot, main.toString()).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        String err = new String(p.getErrorStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("the child JVM did not finish in 60 s; stderr:\n" + err);
        }
        return new ModulePathRun(p.exitValue(), out, err);
    }
}
