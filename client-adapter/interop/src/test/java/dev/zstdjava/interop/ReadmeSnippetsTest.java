package dev.zstdjava.interop;

import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The snippets of the README and of every {@code docs/*.md} page (each Java block after a {@code <!-- snippet: ... -->}
 * marker) are complete programs: compiled here against the test class path, then run against a real server
 * ({@code localhost:6379} in the text is replaced by the test server's address), each on an empty server, and then
 * checked for what it demonstrates: a compressing snippet's values are stored in the shared format (read back as raw
 * bytes), a codec snippet's output is smaller than its input. Class names are unique across pages; a snippet without
 * a check fails.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class ReadmeSnippetsTest {
    static final Path README = Path.of("../../README.md").toAbsolutePath().normalize();
    static final Path DOCS = README.resolveSibling("docs");
    static final Pattern SNIPPET = Pattern.compile("<!-- snippet:[^>]*-->\\s*```java\\n(.*?)```", Pattern.DOTALL);
    static final Pattern CLASS = Pattern.compile("public class (\\w+)");

    /** The header of a value stored compressed with zstd, the default backend. */
    static final byte[] ZSTD_HEADER = {0, 1, 2, 0, 1};

    static RedisServer server;
    static RedisClient lettuce;
    /** plain bytes, to read what the snippets stored */
    static StatefulRedisConnection<byte[], byte[]> raw;
    static final ValueCompressor VALUES = ValueCompressor.create(CompressionConfig.defaults());

    @BeforeAll
    static void start() {
        server = RedisServer.start();
        lettuce = RedisClient.create(RedisURI.create(RedisServer.HOST, server.port()));
        raw = lettuce.connect(ByteArrayCodec.INSTANCE);
    }

    @AfterAll
    static void stop() {
        if (lettuce != null) {
            lettuce.shutdown(0, 2, TimeUnit.SECONDS);
        }
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
    void everySnippetCompilesRunsAndDoesWhatItShows(@TempDir Path dir) throws Exception {
        Map<String, String> snippets = snippets();
        assertTrue(snippets.size() >= 7, "snippets found: " + snippets.keySet());
        run(snippets, dir, ReadmeSnippetsTest::check);
    }

    /** The checks fail for a snippet that stops compressing: its codec or connection swapped for the plain one. */
    @Test
    void aSnippetThatStopsCompressingFailsItsCheck(@TempDir Path dir) throws Exception {
        Map<String, String> snippets = snippets();
        Map<String, String> plain = new LinkedHashMap<>();
        plain.put("LettuceExample", replaced(snippets.get("LettuceExample"),
                "client.connect(StringCodec.UTF8, values)", "client.connect(StringCodec.UTF8)"));
        plain.put("RedissonExample", replaced(snippets.get("RedissonExample"),
                "new CompressingRedissonCodec(StringCodec.INSTANCE, CompressionConfig.defaults())",
                "StringCodec.INSTANCE"));
        plain.put("JedisExample", replaced(replaced(snippets.get("JedisExample"), "values.compress(value)", "value"),
                "new CompressingJedis(jedis, values)", "new CompressingJedis(jedis, ValueCompressor.create("
                        + "CompressionConfig.builder().enabled(false).build()))"));
        run(plain, dir, (name, printed) -> assertThrows(AssertionError.class, () -> check(name, printed),
                name + " passes its check without compressing"));
    }

    private static String replaced(String code, String what, String with) {
        assertTrue(code.contains(what), "the snippet no longer contains " + what + ":\n" + code);
        return code.replace(what, with);
    }

    // What each snippet shows, from what it printed and what it stored.
    static void check(String name, String printed) {
        String[] out = printed.split(" ");
        switch (name) {
            case "CodecExample" -> {
                int n = "hello, zstd-java; ".length() * 100;
                assertTrue(Integer.parseInt(out[0]) < n / 4, "the zstd frame is small: " + printed);
                assertEquals(List.of(n, n, n), Arrays.stream(out, 1, 4).map(Integer::valueOf).toList(),
                        "zstd, level 9 and lz4 round trips: " + printed);
            }
            case "LettuceExample" -> assertStoredCompressed("greeting", Integer.parseInt(out[0]));
            case "SpringExample" -> {
                assertStoredCompressed("spring:greeting", Integer.parseInt(out[0]));
                assertEquals(Set.of("blue"), members("spring:tags"), "a member stays plain");
            }
            case "RedissonExample" -> {
                assertStoredCompressed("redisson:greeting", Integer.parseInt(out[0]));
                byte[] mapValue = raw.sync().hget(bytes("redisson:map"), bytes("field"));
                assertNotNull(mapValue, "the field name is stored plain");
                assertEquals(Integer.parseInt(out[1]), mapValue.length, "a hash value stays plain (GLIDE's scope)");
            }
            case "JedisExample" -> {
                assertEquals(out[0], out[1], "both ways read the value back");
                assertStoredCompressed("jedis:greeting", Integer.parseInt(out[0]));
            }
            case "DictionaryExample" -> {
                int n = Integer.parseInt(out[0]);
                assertTrue(Integer.parseInt(out[2]) < n * 3 / 4,
                        "a small record shrinks with a dictionary: " + printed);
                assertEquals(n, Integer.parseInt(out[5]), "and reads back: " + printed);
            }
            case "MetricsExample" -> assertTrue(Double.parseDouble(out[0]) > 0, "bytes saved counted: " + printed);
            default -> fail("no check for the snippet " + name
                    + ": add what it demonstrates to ReadmeSnippetsTest.check");
        }
    }

    private static void assertStoredCompressed(String key, int length) {
        assertCompressed(key, raw.sync().get(bytes(key)), length);
    }

    // A value stored in the shared format: the zstd header, smaller than the value, decompressing to its length.
    private static void assertCompressed(String what, byte[] stored, int length) {
        assertNotNull(stored, what + " is not stored");
        assertArrayEquals(ZSTD_HEADER, Arrays.copyOf(stored, ZSTD_HEADER.length), what + " carries the header");
        assertTrue(stored.length < length, what + " is stored in " + stored.length + " bytes for " + length);
        assertEquals(length, VALUES.decompress(stored).length, what + " decompresses to the value");
    }

    private static Set<String> members(String key) {
        Set<String> out = new java.util.HashSet<>();
        raw.sync().smembers(bytes(key)).forEach(m -> out.add(new String(m, StandardCharsets.UTF_8)));
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Compiles {@code snippets} and runs each on an emptied server, then hands its name and what it printed to
     * {@code checked}.
     */
    private void run(Map<String, String> snippets, Path dir, BiConsumer<String, String> checked) throws Exception {
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
                raw.sync().flushall();
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
                checked.accept(name, printed);
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
