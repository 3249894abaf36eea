package dev.zstdjava.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
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
                    .redirectErrorStream(true).redirectOutput(main.resolveSibling("javac.log").toFile()).start();
            int status = awaitOrKill(javac, 180, "javac of " + main);
            if (status != 0) {
                throw new IllegalStateException("javac failed on " + main + ":\n"
                        + Files.readString(main.resolveSibling("javac.log")));
            }
            String name = main.getFileName().toString().replaceFirst("\\.java$", "");
            program = List.of("-cp", classes + File.pathSeparator + nativesRoot, name);
        }
        List<String> cmd = new ArrayList<>(List.of(java, "--module-path", String.join(File.pathSeparator, path),
                "--add-modules", addModules, "--enable-native-access=" + nativeAccess));
        cmd.addAll(program);
        Path outFile = main.resolveSibling("child.out");
        Path errFile = main.resolveSibling("child.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(outFile.toFile()).redirectError(errFile.toFile()).start();
        int status;
        try {
            status = awaitOrKill(p, 60, "the child JVM");
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "; stderr:\n" + Files.readString(errFile), e);
        }
        return new ModulePathRun(status, Files.readString(outFile).trim(), Files.readString(errFile));
    }

    /**
     * Waits at most {@code seconds} for {@code p} and returns its exit status; kills it when it does not end in time
     * ({@link IllegalStateException} naming {@code what}) or when this thread is interrupted (a test's timeout).
     */
    private static int awaitOrKill(Process p, long seconds, String what) throws InterruptedException {
        try {
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                throw new IllegalStateException(what + " did not finish in " + seconds + " s and was killed");
            }
            return p.exitValue();
        } finally {
            p.destroyForcibly(); // no-op when it ended
        }
    }
}
