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
            } else if (entry.contains("zstd-java-natives") || entry.matches(".*native/[a-z0-9_-]+/target/classes")) {
                // every natives jar on the class path: the loader picks this platform's file
                nativesRoot = nativesRoot == null ? entry : nativesRoot + File.pathSeparator + entry;
            }
        }
        if (nativesRoot == null) {
            throw new IllegalStateException("the natives are not on the test class path");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> program = List.of("-cp", nativesRoot, main.toString());
        if (ModuleLayer.boot().findModule("jdk.compiler").isEmpty()) {
            // a runtime without a compiler cannot run a source file (the JDK 21 test run): compile it with the
            // build's javac for this runtime, then run the class
            Path classes = main.resolveSibling("classes");
            String buildJdk = System.getProperty("zstdjava.buildJdk");
            if (buildJdk == null) {
                throw new IllegalStateException("this runtime has no jdk.compiler and -Dzstdjava.buildJdk (a JDK with"
                        + " javac) is not set: run the tests through ./mvnw, which sets it");
            }
            Process javac = new ProcessBuilder(Path.of(buildJdk, "bin", "javac").toString(), "--release",
                    String.valueOf(Runtime.version().feature()), "--module-path", String.join(File.pathSeparator, path),
                    "--add-modules", addModules, "-d", classes.toString(), main.toString())
                    .redirectErrorStream(true).start();
            String log = new String(javac.getInputStream().readAllBytes());
            if (javac.waitFor() != 0) {
                throw new IllegalStateException("javac failed on " + main + ":\n" + log);
            }
            String name = main.getFileName().toString().replaceFirst("\\.java$", "");
            program = List.of("-cp", classes + File.pathSeparator + nativesRoot, name);
        }
        List<String> cmd = new ArrayList<>(List.of(java, "--module-path", String.join(File.pathSeparator, path),
                "--add-modules", addModules, "--enable-native-access=" + nativeAccess));
        cmd.addAll(program);
        Process p = new ProcessBuilder(cmd).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        String err = new String(p.getErrorStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("the child JVM did not finish in 60 s; stderr:\n" + err);
        }
        return new ModulePathRun(p.exitValue(), out, err);
    }
}
