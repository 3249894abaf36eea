package dev.zstdjava.bench;

import dev.zstdjava.bench.report.Env;
import dev.zstdjava.bench.report.Report;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Entry point of {@code benchmarks.jar}.
 *
 * <pre>
 *   java -jar benchmarks.jar [JMH options]          plain JMH (e.g. -prof gc, -prof async, -p payload=text-1k)
 *   java -jar benchmarks.jar suite quick|full DIR    runs a profile's cells, JSON results into DIR
 *   java -jar benchmarks.jar payloads DIR [NAME...]  writes the payloads as DIR/NAME.bin (for the C reference)
 *   java -jar benchmarks.jar alloc OUT.jsonl NAME... exact B/op of this library's forms (see AllocProbe)
 *   java -jar benchmarks.jar peers DIR               side by side with zstd-jni, aircompressor, lz4-java (see Peers)
 *   java -jar benchmarks.jar report DIR OUT.md [--title T]  turns DIR's results into a Markdown report
 *   java -jar benchmarks.jar adaptive-keys           adaptive compression on random keys against fixed zstd 3,
 *                                                    paired round by round (see AdaptiveKeys)
 * </pre>
 *
 * Each command has {@code --help}. {@code -prof async} works without options: the async-profiler library that this
 * jar carries is extracted once and passed to JMH as {@code libPath}.
 */
@Command(name = "benchmarks.jar", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT,
        versionProvider = BenchMain.Versions.class,
        description = {"zstd-java benchmarks. Without a command the arguments go to JMH (its options: -h as the only "
                + "argument is JMH's help, --help this one)."},
        subcommands = {Suite.class, Report.class, Peers.class, AdaptiveKeys.class})
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        CommandLine cli = new CommandLine(new BenchMain());
        if (args.length > 0 && (cli.getSubcommands().containsKey(args[0]) || args[0].equals("--help")
                || args[0].equals("-V") || args[0].equals("--version"))) {
            int status = cli.execute(args);
            if (status != 0) {
                System.exit(status);
            }
            return;
        }
        org.openjdk.jmh.Main.main(withAsyncProfilerPath(args));
    }

    /** -V: the versions the build recorded. */
    static final class Versions implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"zstd-java benchmarks " + Env.artifact("zstd-java"),
                "zstd-jni " + Env.artifact("zstd-jni"),
                "lz4-java " + Env.artifact("lz4-java"), "aircompressor-v3 " + Env.artifact("aircompressor-v3"),
                "JMH " + Env.artifact("jmh"), "async-profiler " + Env.artifact("async-profiler")};
        }
    }

    @Command(name = "payloads",
            description = "Writes the payloads as DIR/NAME.bin (for the C reference).")
    int payloads(@Parameters(index = "0", paramLabel = "DIR") Path dir,
                 @Parameters(index = "1..*", arity = "0..*", paramLabel = "NAME",
                         description = "payloads (default: all)") List<String> names) throws IOException {
        Payloads.writeAll(dir, names == null || names.isEmpty() ? Payloads.names() : names);
        return 0;
    }

    @Command(name = "alloc",
            description = "Exact B/op of this library's forms on each payload (see AllocProbe), as JSON lines.")
    int alloc(@Parameters(index = "0", paramLabel = "OUT.jsonl") Path out,
              @Parameters(index = "1..*", arity = "1..*", paramLabel = "NAME") List<String> names,
              @Option(names = "--only", paramLabel = "CODEC.OP.FORM", description = "only the forms whose name "
                      + "(e.g. lz4.decompress.zstdjava_buffer) starts with this: one form's JIT state alone")
              String only) throws IOException {
        AllocProbe.run(out, names, only == null ? "" : only);
        return 0;
    }

    /** Adds {@code libPath=...} to every {@code -prof async[:opts]} that has none. */
    static String[] withAsyncProfilerPath(String[] args) throws IOException {
        List<String> out = new ArrayList<>(List.of(args));
        for (int i = 0; i < out.size(); i++) {
            String a = out.get(i);
            String spec = null;
            int at = -1;
            if (a.equals("-prof") && i + 1 < out.size()) {
                spec = out.get(i + 1);
                at = i + 1;
            } else if (a.startsWith("-prof") && a.length() > 5) {
                spec = a.substring(5);
                at = i;
            }
            if (spec != null && (spec.equals("async") || spec.startsWith("async:")) && !spec.contains("libPath=")) {
                String lib = asyncProfilerLibrary().toString();
                String fixed = spec.equals("async") ? "async:libPath=" + lib : spec + ";libPath=" + lib;
                out.set(at, at == i ? "-prof" + fixed : fixed);
            }
        }
        return out.toArray(String[]::new);
    }

    /** Extracts the async-profiler library for this platform from the jar (once per version) and returns it. */
    public static Path asyncProfilerLibrary() throws IOException {
        String os = System.getProperty("os.name").toLowerCase();
        String arch = System.getProperty("os.arch");
        String dir;
        if (os.contains("linux")) {
            dir = arch.equals("aarch64") || arch.equals("arm64") ? "linux-arm64" : "linux-x64";
        } else if (os.contains("mac")) {
            dir = "macos";
        } else {
            throw new IOException("async-profiler has no library for " + os + "/" + arch);
        }
        String version = "unknown";
        try (InputStream in = BenchMain.class.getResourceAsStream(
                "/META-INF/maven/tools.profiler/async-profiler/pom.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                version = p.getProperty("version", version);
            }
        }
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "zstd-java-bench",
                "async-profiler-" + version + "-" + dir, "libasyncProfiler.so");
        try (InputStream in = BenchMain.class.getResourceAsStream("/" + dir + "/libasyncProfiler.so")) {
            if (in == null) {
                throw new IOException("this jar carries no async-profiler library for " + dir);
            }
            byte[] bytes = in.readAllBytes();
            if (!Files.exists(target) || Files.size(target) != bytes.length) {
                Files.createDirectories(target.getParent());
                Path tmp = Files.createTempFile(target.getParent(), "lib", ".tmp");
                Files.write(tmp, bytes);
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        return target;
    }
}
