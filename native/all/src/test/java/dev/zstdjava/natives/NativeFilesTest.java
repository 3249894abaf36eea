package dev.zstdjava.natives;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every bundled file of every platform, read from the all jar's classes folder: the expected format and machine,
 * every function the Java side binds exported, only the expected libraries needed, the hardening the build asks for,
 * stripped (ELF, PE), and (Mach-O) a code signature whose page hashes match. macOS and Windows files cannot run here, so this
 * is what checks them.
 */
class NativeFilesTest {

    private static final Path ROOT = Path.of(System.getProperty("zstdjava.natives.dir",
            "target/classes/META-INF/zstd-java/native"));
    /** The codec's sources: the bindings are {@code zstd/ZstdNative.java} and {@code lz4/Lz4Native.java}. */
    private static final Path BINDINGS = Path.of(System.getProperty("zstdjava.codec.sources",
            "../../codec/src/main/java/dev/zstdjava"));

    /** platform -> format, machine, zstd file, lz4 file */
    private static final Map<String, List<String>> PLATFORMS = Map.ofEntries(
            Map.entry("linux-x86_64", List.of("ELF64", "x86_64", "libzstd.so", "liblz4.so")),
            Map.entry("linux-aarch64", List.of("ELF64", "aarch64", "libzstd.so", "liblz4.so")),
            Map.entry("linux-x86_64-musl", List.of("ELF64", "x86_64", "libzstd.so", "liblz4.so")),
            Map.entry("linux-aarch64-musl", List.of("ELF64", "aarch64", "libzstd.so", "liblz4.so")),
            Map.entry("macos-x86_64", List.of("Mach-O 64", "x86_64", "libzstd.dylib", "liblz4.dylib")),
            Map.entry("macos-aarch64", List.of("Mach-O 64", "aarch64", "libzstd.dylib", "liblz4.dylib")),
            Map.entry("windows-x86_64", List.of("PE32+", "x86_64", "zstd.dll", "lz4.dll")),
            Map.entry("windows-aarch64", List.of("PE32+", "aarch64", "zstd.dll", "lz4.dll")),
            Map.entry("linux-ppc64le", List.of("ELF64", "ppc64le", "libzstd.so", "liblz4.so")),
            Map.entry("linux-s390x", List.of("ELF64", "s390x", "libzstd.so", "liblz4.so")),
            Map.entry("linux-riscv64", List.of("ELF64", "riscv64", "libzstd.so", "liblz4.so")));

    /**
     * The newest glibc symbol version a glibc build may need: 2.17, except ppc64le (2.19, the oldest glibc the pinned
     * zig has for it) and riscv64 (2.27, its first glibc).
     */
    private static int glibcMinorLimit(String platform) {
        return switch (platform) {
            case "linux-ppc64le" -> 19;
            case "linux-riscv64" -> 27;
            default -> 17;
        };
    }

    /** DLLs every Windows machine has (the Universal CRT ships with Windows 10 and later). */
    private static final Pattern WINDOWS_SYSTEM_DLL = Pattern.compile(
            "(?i)kernel32\\.dll|ntdll\\.dll|api-ms-win-crt-[a-z0-9-]+\\.dll|ucrtbase\\.dll|msvcrt\\.dll");

    /** The function names a Java class binds: the string literals handed to the binder and the loader. */
    static Set<String> bound(String javaFile, String prefixes) throws IOException {
        String src = Files.readString(BINDINGS.resolve(javaFile));
        Matcher m = Pattern.compile("\"((?:" + prefixes + ")_[A-Za-z0-9_]+)\"").matcher(src);
        Set<String> names = new TreeSet<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void theBindingsAreFoundInTheJavaSources() throws IOException {
        // guards the regex: if it found nothing, the export checks below would pass vacuously
        Set<String> zstd = bound("zstd/ZstdNative.java", "ZSTD|ZDICT");
        Set<String> lz4 = bound("lz4/Lz4Native.java", "LZ4|LZ4F");
        assertTrue(zstd.size() > 40 && zstd.contains("ZSTD_compress2") && zstd.contains("ZDICT_trainFromBuffer"), zstd::toString);
        assertTrue(lz4.size() > 20 && lz4.contains("LZ4_compress_fast_extState_fastReset")
                && lz4.contains("LZ4F_compressFrame_usingCDict"), lz4::toString);
    }

    @Test
    void everyPlatformIsThereAndNothingElse() throws IOException {
        Set<String> dirs = new TreeSet<>();
        try (Stream<Path> s = Files.list(ROOT)) {
            s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).filter(n -> !n.equals("licenses"))
                    .forEach(dirs::add);
        }
        assertEquals(new TreeSet<>(PLATFORMS.keySet()), dirs);
        for (String licence : List.of("zstd-LICENSE", "zstd-COPYING", "lz4-LICENSE")) {
            assertTrue(Files.size(ROOT.resolve("licenses").resolve(licence)) > 500, licence);
        }
    }

    @TestFactory
    Stream<DynamicTest> eachFileHasTheExpectedFormatExportsAndHardening() throws IOException {
        Set<String> zstd = bound("zstd/ZstdNative.java", "ZSTD|ZDICT");
        Set<String> lz4 = bound("lz4/Lz4Native.java", "LZ4|LZ4F");
        List<DynamicTest> tests = new ArrayList<>();
        for (var e : new TreeSet<>(PLATFORMS.keySet())) {
            List<String> spec = PLATFORMS.get(e);
            tests.add(DynamicTest.dynamicTest(e + "/" + spec.get(2), () -> check(e, spec, spec.get(2), zstd)));
            tests.add(DynamicTest.dynamicTest(e + "/" + spec.get(3), () -> check(e, spec, spec.get(3), lz4)));
        }
        return tests.stream();
    }

    /** The exports without the symbols the Mach-O linker defines in every dylib. */
    private static Set<String> api(Binary b) {
        Set<String> api = new TreeSet<>(b.exports());
        if (b.format().startsWith("Mach-O")) {
            api.removeAll(Set.of("__dso_handle", "_mh_dylib_header"));
        }
        return api;
    }

    @Test
    void everyPlatformExportsTheSameApi() throws IOException {
        for (int lib = 2; lib <= 3; lib++) {
            Set<String> reference = null;
            String referenceName = null;
            for (var e : new TreeSet<>(PLATFORMS.keySet())) {
                String file = PLATFORMS.get(e).get(lib);
                Set<String> api = api(Binary.read(ROOT.resolve(e).resolve(file)));
                if (reference == null) {
                    reference = api;
                    referenceName = e + "/" + file;
                    assertTrue(api.size() > 100, referenceName + " exports " + api.size() + " symbols");
                } else {
                    Set<String> extra = new TreeSet<>(api);
                    extra.removeAll(reference);
                    Set<String> lacking = new TreeSet<>(reference);
                    lacking.removeAll(api);
                    assertEquals(reference, api, e + "/" + file + " differs from " + referenceName + ": has " + extra
                            + " more and lacks " + lacking);
                }
            }
        }
    }

    private static void check(String platform, List<String> spec, String file, Set<String> wanted) throws IOException {
        Path p = ROOT.resolve(platform).resolve(file);
        Binary b = Binary.read(p);
        String what = platform + "/" + file + ": ";
        assertEquals(spec.get(0), b.format(), what + "format");
        assertEquals(spec.get(1), b.machine(), what + "machine");
        Set<String> missing = new TreeSet<>(wanted);
        missing.removeAll(b.exports());
        assertTrue(missing.isEmpty(), what + "not exported: " + missing);
        // hidden visibility everywhere: only the libraries' API is exported
        Set<String> api = api(b);
        assertTrue(api.stream().allMatch(s -> s.startsWith(file.contains("zstd") ? "Z" : "LZ4")),
                () -> what + "exports beyond the API: " + api.stream()
                        .filter(s -> !s.startsWith("Z") && !s.startsWith("LZ4")).toList());
        // Mach-O: zig's linker keeps local symbols even with -s, and stripping afterwards would break the ad-hoc
        // signature arm64 macOS requires, so those files stay unstripped (and their signature is checked below)
        assertTrue(b.stripped() || spec.get(0).equals("Mach-O 64"), what + "not stripped");
        switch (spec.get(0)) {
            case "ELF64" -> {
                assertTrue(b.hardening().containsAll(Set.of("relro", "bind-now", "nx")), what + b.hardening());
                if (platform.endsWith("-musl")) {
                    assertEquals(List.of("libc.so"), b.needed(), what + "needed");
                    assertTrue(b.glibcNeeded().isEmpty(), what + b.glibcNeeded());
                } else {
                    assertTrue(Set.of("libc.so.6", "libpthread.so.0", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
                            "ld64.so.2", "ld64.so.1", "ld-linux-riscv64-lp64d.so.1").containsAll(b.needed()),
                            what + b.needed());
                    int limit = glibcMinorLimit(platform);
                    for (String v : b.glibcNeeded()) {
                        String[] n = v.substring("GLIBC_".length()).split("\\.");
                        int minor = n.length > 1 ? Integer.parseInt(n[1]) : 0;
                        assertTrue(Integer.parseInt(n[0]) == 2 && minor <= limit,
                                what + "needs " + v + " (> GLIBC_2." + limit + ")");
                    }
                }
            }
            case "PE32+" -> {
                assertTrue(b.hardening().containsAll(Set.of("aslr", "high-entropy-aslr", "nx")), what + b.hardening());
                for (String dll : b.needed()) {
                    assertTrue(WINDOWS_SYSTEM_DLL.matcher(dll).matches(), what + "imports " + dll
                            + ", which Windows does not ship");
                }
            }
            case "Mach-O 64" -> {
                assertEquals(List.of("/usr/lib/libSystem.B.dylib"), b.needed(), what + "needed");
                if (spec.get(1).equals("aarch64")) {
                    assertEquals("valid ad-hoc", b.signature(), what + "code signature");
                } else {
                    assertFalse(b.signature().startsWith("invalid"), what + b.signature());
                }
            }
            default -> throw new AssertionError(spec.get(0));
        }
    }
}
