package dev.zstdjava.internal;

import dev.zstdjava.ChildProcess;
import dev.zstdjava.NativeLibrary;
import dev.zstdjava.zstd.Zstd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each of the loader's three sources, the version floor, and the message when all of them fail. */
class NativeLoaderTest {
    private static final NativeLoader.Spec ZSTD = new NativeLoader.Spec("zstd", "zstdjava.zstd.path",
            List.of("libzstd.so.1"), "ZSTD_versionNumber", 10400);
    private static final ClassLoader CL = NativeLoaderTest.class.getClassLoader();

    @Test
    void defaultRunUsesTheBundledLibrary() {
        NativeLibrary lib = Zstd.library();
        assertEquals(NativeLibrary.Source.BUNDLED, lib.source());
        assertEquals("1.5.7", lib.version());
        assertTrue(lib.location().endsWith("libzstd.so"), lib.location());
        assertEquals(NativePlatform.current().folder(), lib.platform());
        assertTrue(lib.toString().contains(" for " + lib.platform() + " (bundled: "), lib.toString());
    }

    @Test
    void explicitPathComesFirst(@TempDir Path dir) throws IOException {
        Path copy = dir.resolve("my-libzstd.so");
        String folder = NativePlatform.current().folder();
        try (InputStream in = CL.getResourceAsStream("META-INF/zstd-java/native/" + folder + "/libzstd.so")) {
            assertNotNull(in, "natives jar on the test class path");
            Files.copy(in, copy);
        }
        NativeLoader.Loaded l = NativeLoader.load(ZSTD, copy.toString(), CL, dir.toString(), List.of("libzstd.so.1"));
        assertEquals(NativeLibrary.Source.SYSTEM_PROPERTY, l.info().source());
        assertEquals(copy.toAbsolutePath().toString(), l.info().location());
        assertEquals("1.5.7", l.info().version());
        assertEquals(10507, callVersion(l));
    }

    @Test
    void bundledCopyIsExtractedIntoAPrivateFolder(@TempDir Path dir) {
        NativeLoader.Loaded l = NativeLoader.load(ZSTD, null, CL, dir.toString(), List.of());
        assertEquals(NativeLibrary.Source.BUNDLED, l.info().source());
        Path file = Path.of(l.info().location());
        assertTrue(file.startsWith(dir), file.toString());
        assertTrue(file.getParent().getFileName().toString().startsWith("zstd-java-"));
        assertEquals(10507, callVersion(l));
    }

    @Test
    void systemLibraryIsTheFallback() {
        NativeLoader.Loaded l = NativeLoader.load(ZSTD, null, null, "/nonexistent", List.of("libzstd.so.1"));
        assertEquals(NativeLibrary.Source.SYSTEM, l.info().source());
        assertEquals("libzstd.so.1", l.info().location());
        assertTrue(callVersion(l) >= 10400);
    }

    /** The bundled copy (every platform has it; a system libzstd.so.1 not: the aarch64 run's sysroot) is too old. */
    @Test
    void tooOldLibrariesAreRefused(@TempDir Path dir) {
        NativeLoader.Spec future = new NativeLoader.Spec("zstd", "zstdjava.zstd.path", List.of("libzstd.so.1"),
                "ZSTD_versionNumber", 99_00_00);
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class,
                () -> NativeLoader.load(future, null, CL, dir.toString(), List.of()));
        assertTrue(e.getMessage().contains("2. bundled "), e.getMessage());
        assertTrue(e.getMessage().contains("older than the minimum 99.0.0"), e.getMessage());
    }

    /**
     * A library lacking a function the bindings require is refused when loaded, naming every missing one, and the
     * next source is tried: not loaded, to fail later at the first binding with the first missing name only.
     */
    @Test
    void aLibraryLackingARequiredFunctionIsRefusedWhenLoaded(@TempDir Path dir) throws IOException {
        NativeLoader.Spec needsMore = ZSTD.requiring(List.of("ZSTD_compress2", "ZSTD_noSuchFunction",
                "ZDICT_noSuchFunctionEither"));
        String lacks = "lacks 2 functions zstd-java needs: ZSTD_noSuchFunction, ZDICT_noSuchFunctionEither";
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(needsMore, null,
                CL, dir.toString(), List.of("libzstd-does-not-exist.so.9")));
        String folder = NativePlatform.current().folder();
        assertTrue(e.getMessage().contains("2. bundled META-INF/zstd-java/native/" + folder + "/"), e.getMessage());
        assertTrue(e.getMessage().contains(": libzstd 1.5.7 " + lacks + " (set -Dzstdjava.tmpdir"), e.getMessage());
        assertTrue(e.getMessage().contains("3. system library libzstd-does-not-exist.so.9: "), e.getMessage());

        // the next source is taken: here the bundled copy, after a system library that lacks them
        NativeLoader.Spec needsOne = ZSTD.requiring(List.of("ZSTD_compress2"));
        assertEquals(NativeLibrary.Source.BUNDLED, NativeLoader.load(needsOne, null, CL, dir.toString(),
                List.of()).info().source());

        Path copy = dir.resolve("my-libzstd.so");
        try (InputStream in = CL.getResourceAsStream("META-INF/zstd-java/native/" + folder + "/"
                + ZSTD.resourceFile(NativePlatform.current().os()))) {
            Files.copy(in, copy);
        }
        UnsatisfiedLinkError explicit = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(needsMore,
                copy.toString(), CL, dir.toString(), List.of()));
        assertTrue(explicit.getMessage().contains("zstdjava.zstd.path=" + copy + ": libzstd 1.5.7 " + lacks),
                explicit.getMessage());
    }

    @Test
    void whenEverythingFailsOneErrorListsEveryAttempt(@TempDir Path dir) throws IOException {
        Path notADir = Files.writeString(dir.resolve("file"), "x");
        NativePlatform here = NativePlatform.current();
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(ZSTD,
                null, CL, notADir.resolve("sub").toString(), List.of("libzstd-does-not-exist.so.9")));
        String m = e.getMessage();
        assertTrue(m.startsWith("zstd-java could not load libzstd for " + here.folder() + " (" + here.how()
                + "); tried:"), m);
        assertTrue(m.contains("1. system property zstdjava.zstd.path: not set"), m);
        assertTrue(m.contains("2. bundled META-INF/zstd-java/native/" + here.folder() + "/libzstd.so"), m);
        assertTrue(m.contains("set -Dzstdjava.tmpdir"), m);
        assertTrue(m.contains("3. system library libzstd-does-not-exist.so.9"), m);

        UnsatisfiedLinkError noJar = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(ZSTD, null,
                null, dir.toString(), List.of()));
        assertTrue(noJar.getMessage().contains("not on the class path (add dev.zstdjava:zstd-java-natives-"
                + here.folder() + " or dev.zstdjava:zstd-java-natives-all)"), noJar.getMessage());
    }

    @Test
    void anExplicitPathThatDoesNotLoadFailsWithoutFallingBack(@TempDir Path dir) throws IOException {
        // the bundled copy and the system library would both load: the named file is still the only one tried
        UnsatisfiedLinkError missing = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(ZSTD,
                dir.resolve("missing.so").toString(), CL, dir.toString(), List.of("libzstd.so.1")));
        assertTrue(missing.getMessage().contains("system property zstdjava.zstd.path=" + dir.resolve("missing.so")
                + ": no such file"), missing.getMessage());
        assertTrue(missing.getMessage().contains("an explicit path is used alone"), missing.getMessage());

        Path notALibrary = Files.writeString(dir.resolve("libzstd.so"), "not an ELF file");
        UnsatisfiedLinkError bad = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(ZSTD,
                notALibrary.toString(), CL, dir.toString(), List.of("libzstd.so.1")));
        assertTrue(bad.getMessage().contains("zstdjava.zstd.path=" + notALibrary), bad.getMessage());
    }

    /** The JDK says only "Cannot open library": the message says what the named file is instead. */
    @Test
    void anExplicitPathThatIsNoLibraryOfThisPlatformSaysWhatItIs(@TempDir Path dir) throws IOException {
        NativePlatform here = NativePlatform.current();
        UnsatisfiedLinkError folder = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(ZSTD,
                dir.toString(), CL, dir.toString(), List.of("libzstd.so.1")));
        assertTrue(folder.getMessage().contains("zstdjava.zstd.path=" + dir + ": a folder, not a library file"),
                folder.getMessage());

        Path text = Files.writeString(dir.resolve("libzstd.so"), "not a library at all");
        UnsatisfiedLinkError bad = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(ZSTD,
                text.toString(), CL, dir.toString(), List.of("libzstd.so.1")));
        assertTrue(bad.getMessage().contains("it is not a shared library (no ELF, Mach-O or PE header)"),
                bad.getMessage());
        assertTrue(bad.getMessage().startsWith("zstd-java could not load libzstd for " + here.folder()),
                bad.getMessage());

        // the library of another platform, from the natives jars on the test class path
        String other = here.folder().equals("linux-x86_64") ? "linux-aarch64" : "linux-x86_64";
        Path foreign = dir.resolve("libzstd-" + other + ".so");
        try (InputStream in = CL.getResourceAsStream("META-INF/zstd-java/native/" + other + "/libzstd.so")) {
            assertNotNull(in, "natives jar of " + other + " on the test class path");
            Files.copy(in, foreign);
        }
        UnsatisfiedLinkError wrong = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(ZSTD,
                foreign.toString(), CL, dir.toString(), List.of("libzstd.so.1")));
        String expected = here.os().equals("linux")
                ? "it is an ELF file for " + other.substring("linux-".length()) + ", not for " + here.arch()
                : "it is an ELF file (a Linux library), not a library for " + here.os();
        assertTrue(wrong.getMessage().contains(expected), wrong.getMessage());
    }

    /**
     * A -Dzstdjava.platform that names no platform fails as a load error: the first use with the loader's
     * {@code UnsatisfiedLinkError} naming the property and the platforms there are (not an
     * {@code ExceptionInInitializerError}), later uses with the JVM's {@code NoClassDefFoundError} whose cause
     * carries that message (a class whose initialisation failed stays failed).
     */
    @Test
    void aMalformedPlatformPropertyFailsAsALoadError() throws Exception {
        String java = System.getProperty("zstdjava.test.childJava",
                Path.of(System.getProperty("java.home"), "bin",
                        System.getProperty("os.name", "").toLowerCase().contains("win") ? "java.exe" : "java").toString());
        ChildProcess p = ChildProcess.run(new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "-XX:-PrintWarnings", "-D" + NativePlatform.PROPERTY + "=bogus", "-cp",
                System.getProperty("java.class.path"), FirstUse.class.getName()).redirectErrorStream(true), 120);
        String out = p.out();
        assertEquals(0, p.exit(), out);
        String message = "zstd-java could not load libzstd: -Dzstdjava.platform=bogus: expected <os>-<arch>[-musl], "
                + "for example linux-x86_64-musl; natives jars are built for linux-aarch64, linux-aarch64-musl, ";
        assertTrue(out.contains("first: java.lang.UnsatisfiedLinkError: " + message), out);
        assertTrue(out.contains("then: java.lang.NoClassDefFoundError: "), out);
        assertTrue(out.contains("caused by: java.lang.ExceptionInInitializerError: Exception "
                + "java.lang.UnsatisfiedLinkError: " + message), out);
    }

    /**
     * The noexec hint finds the mount a folder is really on: through a symbolic link into it, and under a mount
     * point whose name has a space ({@code \040} in {@code /proc/self/mountinfo}).
     */
    @Test
    void theNoexecHintFollowsLinksAndReadsEscapedMountPoints(@TempDir Path dir) throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.io.File.separatorChar == '/', "mountinfo paths are POSIX");
        Path mounted = Files.createDirectories(dir.resolve("app data").resolve("tmp")).toRealPath();
        String escaped = mounted.getParent().toString().replace(" ", "\\040");
        List<String> mountInfo = List.of(
                "22 1 0:21 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
                "90 22 0:50 / " + escaped + " rw,nosuid,noexec,relatime shared:9 - tmpfs tmpfs rw");
        String hint = "; " + mounted.getParent() + " is mounted noexec";
        assertEquals(hint, NativeLoader.noexecHint(mounted.resolve("zstd-java-1-a-1/libzstd.so"), mountInfo));
        Path link = dir.resolve("tmp-link");
        try {
            Files.createSymbolicLink(link, mounted);
        } catch (UnsupportedOperationException | IOException e) {
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "symbolic links cannot be made here: " + e);
        }
        assertEquals(hint, NativeLoader.noexecHint(link.resolve("zstd-java-1-a-1/libzstd.so"), mountInfo));
        assertEquals(hint, NativeLoader.noexecHint(link, mountInfo));
        assertEquals("", NativeLoader.noexecHint(dir.resolve("elsewhere"), mountInfo));
    }

    /** A child JVM's first two zstd calls; prints what each threw, with its causes. */
    public static final class FirstUse {
        public static void main(String[] args) {
            for (String use : List.of("first", "then")) {
                try {
                    Zstd.compress(new byte[] {1});
                    System.out.println(use + ": loaded " + Zstd.library());
                } catch (Throwable t) {
                    System.out.println(use + ": " + t);
                    for (Throwable c = t.getCause(); c != null; c = c.getCause()) {
                        System.out.println("caused by: " + c);
                    }
                }
            }
        }
    }

    @Test
    void aPlatformWithoutBundledFilesNamesItselfAndTheArtifactThatServesIt(@TempDir Path dir) {
        NativePlatform alpineArm = new NativePlatform("linux", "aarch64", true, "test");
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(ZSTD, null, CL,
                dir.toString(), List.of(), alpineArm));
        assertTrue(e.getMessage().startsWith("zstd-java could not load libzstd for linux-aarch64-musl (test)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("bundled META-INF/zstd-java/native/linux-aarch64-musl/libzstd.so: not on "
                + "the class path (add dev.zstdjava:zstd-java-natives-linux-aarch64-musl or "
                + "dev.zstdjava:zstd-java-natives-all)"), e.getMessage());

        NativePlatform power = new NativePlatform("linux", "ppc64le", false, "test");
        UnsatisfiedLinkError p = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(ZSTD, null, CL,
                dir.toString(), List.of(), power));
        assertTrue(p.getMessage().contains("(add dev.zstdjava:zstd-java-natives-linux-ppc64le or "
                + "dev.zstdjava:zstd-java-natives-all)"), p.getMessage());

        NativePlatform loong = new NativePlatform("linux", "loongarch64", false, "test");
        UnsatisfiedLinkError l = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(ZSTD, null, CL,
                dir.toString(), List.of(), loong));
        assertTrue(l.getMessage().contains("no natives jar is built for linux-loongarch64, only for linux-aarch64, "
                + "linux-aarch64-musl, linux-ppc64le, linux-riscv64, linux-s390x, linux-x86_64, linux-x86_64-musl, "
                + "macos-aarch64, macos-x86_64, windows-aarch64, windows-x86_64; use a system library"), l.getMessage());
    }

    @Test
    void windowsAndMacosFoldersHoldTheirOwnFileNames() {
        assertEquals("zstd.dll", ZSTD.resourceFile("windows"));
        assertEquals("libzstd.dylib", ZSTD.resourceFile("macos"));
        assertEquals("libzstd.so", ZSTD.resourceFile("linux"));
    }

    private static int callVersion(NativeLoader.Loaded l) {
        try {
            return (int) Linker.nativeLinker().downcallHandle(l.lookup().find("ZSTD_versionNumber").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT)).invokeExact();
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
