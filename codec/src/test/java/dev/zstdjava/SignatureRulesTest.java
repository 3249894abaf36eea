package dev.zstdjava;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Signature rules over every class compiled from {@code codec/src/main} (every declared method and constructor, any
 * visibility; synthetic, bridge and record-generated members left out): no parameter declared {@code Object} (memory
 * is typed: arrays, buffers, segments; {@code equals(Object)} excepted), no {@code boolean} parameter outside the
 * allow-list below (modes and directions are enums), and at most {@value #MAX_PARAMETERS} parameters.
 */
class SignatureRulesTest {
    static final int MAX_PARAMETERS = 7;

    /** The boolean parameters that are genuine on/off settings, by "Class#method", each with its reason. */
    static final Map<String, String> BOOLEAN_ALLOWED = Map.ofEntries(
            Map.entry("dev.zstdjava.zstd.CompressionSetters#checksum",
                    "builder setter of zstd's frame checksum flag (ZSTD_c_checksumFlag)"),
            Map.entry("dev.zstdjava.zstd.CompressionSetters#contentSize",
                    "builder setter of zstd's content-size flag (ZSTD_c_contentSizeFlag)"),
            Map.entry("dev.zstdjava.zstd.CompressionSetters#longDistanceMatching",
                    "builder setter of long-distance matching (ZSTD_c_enableLongDistanceMatching)"),
            Map.entry("dev.zstdjava.zstd.ZstdCompressionParameters#withChecksum",
                    "copy-with setter of the same checksum flag on the parameters record"),
            Map.entry("dev.zstdjava.zstd.ZstdCompressionParameters#withContentSize",
                    "copy-with setter of the same content-size flag"),
            Map.entry("dev.zstdjava.zstd.ZstdCompressionParameters#withLongDistanceMatching",
                    "copy-with setter of long-distance matching"),
            Map.entry("dev.zstdjava.zstd.ZstdDictionary$Trainer#optimize",
                    "trainer setting: search the fastCover parameters (on) or use the given ones (off)"),
            Map.entry("dev.zstdjava.zstd.ZstdInputStream#continuous",
                    "stream setting: end of input is a pause (files still being written), not the end"),
            Map.entry("dev.zstdjava.lz4.Lz4Frame$Options#withBlockIndependent",
                    "copy-with setter of the LZ4 frame's block-independence flag"),
            Map.entry("dev.zstdjava.lz4.Lz4Frame$Options#withBlockChecksum",
                    "copy-with setter of the LZ4 frame's block checksum flag"),
            Map.entry("dev.zstdjava.lz4.Lz4Frame$Options#withContentChecksum",
                    "copy-with setter of the LZ4 frame's content checksum flag"),
            Map.entry("dev.zstdjava.lz4.Lz4Frame$Options#withContentSize",
                    "copy-with setter of the LZ4 frame's content-size flag"),
            Map.entry("dev.zstdjava.lz4.Lz4Frame$Options$Copy#blockIndependent",
                    "the builder behind the copy-with setters above"),
            Map.entry("dev.zstdjava.lz4.Lz4Frame$Options$Copy#blockChecksum",
                    "the builder behind the copy-with setters above"),
            Map.entry("dev.zstdjava.lz4.Lz4Frame$Options$Copy#contentChecksum",
                    "the builder behind the copy-with setters above"),
            Map.entry("dev.zstdjava.lz4.Lz4Frame$Options$Copy#contentSize",
                    "the builder behind the copy-with setters above"));

    @Test
    void everyMainSignatureFollowsTheRules() throws Exception {
        List<String> classes = mainClasses();
        assertTrue(classes.size() > 50, "found only " + classes.size() + " main classes: " + classes);
        List<String> violations = new ArrayList<>();
        for (String name : classes) {
            Class<?> c = Class.forName(name, false, SignatureRulesTest.class.getClassLoader());
            for (Executable e : members(c)) {
                check(c, e, violations);
            }
        }
        assertEquals("", String.join("\n", violations), violations.size() + " signature rule violations");
    }

    /** The rules reject what they are meant to: a made-up class with each kind of violation. */
    @Test
    void theRulesCatchEachKindOfViolation() {
        List<String> violations = new ArrayList<>();
        for (Executable e : members(Bad.class)) {
            check(Bad.class, e, violations);
        }
        assertEquals(3, violations.size(), String.join("\n", violations));
    }

    @SuppressWarnings("unused")
    private static final class Bad {
        void memory(Object src) {}

        void mode(boolean compress) {}

        void many(int a, int b, int c, int d, int e, int f, int g, int h) {}

        void fine(byte[] src, int off, int len) {}
    }

    private static List<Executable> members(Class<?> c) {
        List<Executable> all = new ArrayList<>();
        for (Method m : c.getDeclaredMethods()) {
            if (!m.isSynthetic() && !m.isBridge() && !recordGenerated(c, m)) {
                all.add(m);
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (!k.isSynthetic() && !canonical(c, k)) {
                all.add(k);
            }
        }
        return all;
    }

    private static void check(Class<?> c, Executable e, List<String> violations) {
        String where = c.getName() + "#" + (e instanceof Constructor<?> ? "<init>" : e.getName())
                + Arrays.toString(e.getParameterTypes());
        String key = c.getName() + "#" + e.getName();
        boolean equals = e instanceof Method m && m.getName().equals("equals") && m.getParameterCount() == 1;
        Type[] generic = e.getGenericParameterTypes();
        for (Type t : generic) {
            if (t == Object.class && !equals) {
                violations.add(where + ": a parameter declared Object (use typed overloads or a sealed type)");
            }
            if (t == boolean.class && !BOOLEAN_ALLOWED.containsKey(key)) {
                violations.add(where + ": a boolean parameter (use an enum, or allow-list a genuine setting)");
            }
        }
        if (e.getParameterCount() > MAX_PARAMETERS) {
            violations.add(where + ": " + e.getParameterCount() + " parameters (at most " + MAX_PARAMETERS + ")");
        }
    }

    private static boolean recordGenerated(Class<?> c, Method m) {
        if (!c.isRecord()) {
            return false;
        }
        if (m.getParameterCount() == 0 && Arrays.stream(c.getRecordComponents())
                .anyMatch(rc -> rc.getName().equals(m.getName()))) {
            return true; // accessor
        }
        return m.getName().equals("equals") || m.getName().equals("hashCode") || m.getName().equals("toString");
    }

    private static boolean canonical(Class<?> c, Constructor<?> k) {
        return c.isRecord() && Arrays.equals(k.getParameterTypes(),
                Arrays.stream(c.getRecordComponents()).map(rc -> rc.getType()).toArray());
    }

    /** @return true when the running JDK reads the class file's version (its bytes 6-7: 65 is JDK 21) */
    private static boolean loadable(Path classFile) {
        try (var in = new java.io.DataInputStream(Files.newInputStream(classFile))) {
            in.skipNBytes(6);
            return in.readUnsignedShort() <= Runtime.version().feature() + 44;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Every class in the codec's main output (the folder {@link Compressor} was loaded from) that the running JDK can
     * load: on JDK 21 that leaves out {@code Ffm22}, compiled for JDK 22 (its signatures are checked on 22+).
     */
    static List<String> mainClasses() throws IOException, URISyntaxException {
        Path root = Path.of(Compressor.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isDirectory(root), "expected the codec's classes folder, got " + root);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".class") && loadable(p))
                    .map(root::relativize)
                    .filter(p -> !p.startsWith("META-INF"))
                    .map(p -> p.toString().replace(p.getFileSystem().getSeparator(), "."))
                    .map(s -> s.substring(0, s.length() - ".class".length()))
                    .filter(s -> !s.endsWith("module-info") && !s.endsWith("package-info"))
                    .sorted()
                    .toList();
        }
    }
}
