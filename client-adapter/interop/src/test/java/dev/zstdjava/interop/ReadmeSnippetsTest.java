package dev.zstdjava.interop;

import dev.zstdjava.testkit.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The snippets of the README and of every {@code docs/*.md} page (each Java block after a {@code <!-- snippet: ... -->}
 * marker) are complete programs: compiled here against the test class path, then run against a real server
 * ({@code localhost:6379} in the text is replaced by the test server's address). Class names are unique across pages.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class ReadmeSnippetsTest {
    static final Path README = Path.of("../../README.md").toAbsolutePath().normalize();
    static final Path DOCS = README.resolveSibling("docs");
    static final Pattern SNIPPET = Pattern.compile("<!-- snippet:[^>]*-->\\s*```java\\n(.*?)```", Pattern.DOTALL);
    static final Pattern CLASS = Pattern.compile("public class (\\w+)");

    static RedisServer server;

    @BeforeAll
    static void start() {
        server = RedisServer.start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** @return the README, then every Markdown page under {@code docs/} (sub-folders included) in path order */
    static List<Path> pages() throws Exception {
        assertTrue(Files.isRegularFile(README), "missing " + README);
        assertTrue(Files.isDirectory(DOCS), "missing " + DOCS);
        List<Path> pages = new ArrayList<>(List.of(README));
        try (var files = Files.walk(DOCS)) {
            files.filter(f -> f.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** @return class name to source of every marked snippet of one page, in page order */
    static Map<String, String> snippets(Path page) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = SNIPPET.matcher(Files.readString(page));
        while (m.find()) {
            Matcher c = CLASS.matcher(m.group(1));
            assertTrue(c.find(), "a snippet without a public class in " + page + ":\n" + m.group(1));
            assertNull(out.put(c.group(1), m.group(1)), "two snippets named " + c.group(1) + " in " + page);
        }
        return out;
    }

    /** @return class name to source of every marked snippet of every page; a name used twice fails */
    static Map<String, String> snippets() throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        for (Path page : pages()) {
            for (Map.Entry<String, String> e : snippets(page).entrySet()) {
                assertNull(out.put(e.getKey(), e.getValue()), "two snippets named " + e.getKey() + " (again in " + page + ")");
            }
        }
        return out;
    }

    @Test
    void theReadmeShowsOneSnippetPerUse() throws Exception {
        assertEquals(List.of("CodecExample", "LettuceExample", "SpringExample", "RedissonExample", "JedisExample",
                        "DictionaryExample"),
                new ArrayList<>(snippets(README).keySet()), "one snippet per use, in README order");
        assertTrue(snippets(DOCS.resolve("values.md")).containsKey("MetricsExample"),
                "docs/values.md shows the Micrometer snippet");
    }

    @Test
    void everySnippetCompilesAndRuns(@TempDir Path dir) throws Exception {
        Map<String, String> snippets = snippets();
        assertTrue(snippets.size() >= 7, "snippets found: " + snippets.keySet());
        Path src = Files.createDirectories(dir.resolve("src"));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, String> e : snippets.entrySet()) {
            String code = e.getValue().replace("localhost:6379", RedisServer.HOST + ":" + server.port())
                    .replace("\"localhost\", 6379", "\"" + RedisServer.HOST + "\", " + server.port());
            Path f = src.resolve(e.getKey() + ".java");
            Files.writeString(f, code);
            files.add(f);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> options = List.of("-proc:none", "-Xlint:all", "-Werror",
                "-classpath", System.getProperty("java.class.path"), "-d", classes.toString());
        if (javac == null) {
            // a runtime without jdk.compiler (the JDK 21 test run): the build's javac, targeting this runtime
            compileWithBuildJdk(options, files);
        } else {
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, null, null)) {
                boolean ok = javac.getTask(null, fm, diagnostics, options, null,
                        fm.getJavaFileObjectsFromPaths(files)).call();
                assertTrue(ok, "README/docs snippets do not compile: " + diagnostics.getDiagnostics());
            }
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            for (String name : snippets.keySet()) {
                Method main = loader.loadClass(name).getMethod("main", String[].class);
                PrintStream stdout = System.out;
                ByteArrayOutputStream captured = new ByteArrayOutputStream();
                System.setOut(new PrintStream(captured, true));
                try {
                    main.invoke(null, (Object) new String[0]);
                } finally {
                    System.setOut(stdout);
                }
                String printed = captured.toString().trim();
                System.out.println(name + " printed: " + printed);
                assertFalse(printed.isEmpty(), name + " printed nothing");
            }
        }
    }

    /** javac of the JDK named by {@code zstdjava.buildJdk} (set by the build), with {@code --release} of this JVM. */
    private static void compileWithBuildJdk(List<String> options, List<Path> files) throws Exception {
        String buildJdk = System.getProperty("zstdjava.buildJdk");
        assertNotNull(buildJdk, "this runtime has no jdk.compiler and -Dzstdjava.buildJdk (a JDK with javac) is not"
                + " set: run the tests through ./mvnw, which sets it");
        List<String> cmd = new ArrayList<>(List.of(Path.of(buildJdk, "bin", "javac").toString(),
                "--release", String.valueOf(Runtime.version().feature())));
        cmd.addAll(options);
        cmd.add("-Xlint:-path"); // surefire's class path names folders and jars that need not exist
        files.forEach(f -> cmd.add(f.toString()));
        Path log = Files.createTempFile("javac", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                throw new AssertionError("javac of the README/docs snippets did not end within 180 s:\n"
                        + Files.readString(log));
            }
            assertEquals(0, p.exitValue(), "README/docs snippets do not compile:\n" + Files.readString(log));
        } finally {
            p.destroyForcibly(); // no-op when it ended; kills it on a timeout or an interrupt
            Files.deleteIfExists(log);
        }
    }
}
