package dev.zstdjava.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Platform detection: os and arch names, the C library from an ELF interpreter or the memory map, the override. */
class NativePlatformTest {

    private static final String MUSL_X64 = "/lib/ld-musl-x86_64.so.1";
    private static final String GLIBC_X64 = "/lib64/ld-linux-x86-64.so.2";

    @Test
    void osAndArchNamesAreNormalised() {
        assertEquals("linux", NativePlatform.os("Linux"));
        assertEquals("macos", NativePlatform.os("Mac OS X"));
        assertEquals("windows", NativePlatform.os("Windows 11"));
        assertEquals("freebsd", NativePlatform.os("FreeBSD"));
        assertEquals("x86_64", NativePlatform.arch("amd64"));
        assertEquals("x86_64", NativePlatform.arch("x86_64"));
        assertEquals("aarch64", NativePlatform.arch("aarch64"));
        assertEquals("aarch64", NativePlatform.arch("arm64"));
        assertEquals("ppc64le", NativePlatform.arch("ppc64le"));
    }

    @Test
    void muslIsReadFromTheProgramsInterpreter(@TempDir Path dir) throws IOException {
        Path musl = elf(dir.resolve("musl"), true, ByteOrder.LITTLE_ENDIAN, MUSL_X64);
        Path glibc = elf(dir.resolve("glibc"), true, ByteOrder.LITTLE_ENDIAN, GLIBC_X64);
        Path noMaps = dir.resolve("no-maps");

        NativePlatform m = NativePlatform.detect(null, "Linux", "amd64", musl, noMaps);
        assertEquals("linux-x86_64-musl", m.folder());
        assertEquals("zstd-java-natives-linux-x86_64-musl", m.artifact());
        assertTrue(m.isBuilt());
        assertTrue(m.how().contains("loaded by " + MUSL_X64), m.how());

        NativePlatform g = NativePlatform.detect(null, "Linux", "amd64", glibc, noMaps);
        assertEquals("linux-x86_64", g.folder());
        assertTrue(g.how().contains("glibc"), g.how());
    }

    @Test
    void thirtyTwoBitBigEndianElfIsRead(@TempDir Path dir) throws IOException {
        Path f = elf(dir.resolve("be32"), false, ByteOrder.BIG_ENDIAN, "/lib/ld-musl-mips.so.1");
        assertEquals("/lib/ld-musl-mips.so.1", NativePlatform.interpreter(f));
    }

    @Test
    void aProgramWithoutInterpreterFallsBackToTheMemoryMap(@TempDir Path dir) throws IOException {
        Path staticExe = elf(dir.resolve("static"), true, ByteOrder.LITTLE_ENDIAN, null);
        assertNull(NativePlatform.interpreter(staticExe));
        Path maps = Files.write(dir.resolve("maps"), List.of(
                "55d0c0a00000-55d0c0a01000 r--p 00000000 08:01 123 /usr/lib/jvm/java-21-openjdk/bin/java",
                "7f1c2c000000-7f1c2c021000 rw-p 00000000 00:00 0 ",
                "7f1c3e5d4000-7f1c3e5e9000 r-xp 00000000 08:01 456 /lib/ld-musl-aarch64.so.1"));
        NativePlatform p = NativePlatform.detect(null, "Linux", "aarch64", staticExe, maps);
        assertEquals("linux-aarch64-musl", p.folder());
        assertTrue(p.how().contains("/lib/ld-musl-aarch64.so.1 is mapped into the process"), p.how());
    }

    @Test
    void unreadableInputsAssumeGlibcAndSaySo(@TempDir Path dir) throws IOException {
        Path notElf = Files.writeString(dir.resolve("script"), "#!/bin/sh\necho hello, this is not an ELF file\n");
        assertThrows(IOException.class, () -> NativePlatform.interpreter(notElf));
        NativePlatform p = NativePlatform.detect(null, "Linux", "x86_64", notElf, dir.resolve("missing"));
        assertEquals("linux-x86_64", p.folder());
        assertTrue(p.how().contains("assumed glibc"), p.how());
    }

    @Test
    void otherSystemsNeedNoLibcDetection(@TempDir Path dir) {
        NativePlatform mac = NativePlatform.detect(null, "Mac OS X", "aarch64", dir.resolve("x"), dir.resolve("y"));
        assertEquals("macos-aarch64", mac.folder());
        assertEquals("zstd-java-natives-macos-aarch64", mac.artifact());
        NativePlatform win = NativePlatform.detect(null, "Windows Server 2022", "amd64", dir, dir);
        assertEquals("windows-x86_64", win.folder());
        NativePlatform bsd = NativePlatform.detect(null, "FreeBSD", "amd64", dir, dir);
        assertFalse(bsd.isBuilt());
    }

    @Test
    void thePropertyOverridesDetection(@TempDir Path dir) {
        NativePlatform p = NativePlatform.detect("linux-aarch64-musl", "Linux", "amd64", dir, dir);
        assertEquals("linux-aarch64-musl", p.folder());
        assertEquals("-Dzstdjava.platform=linux-aarch64-musl", p.how());
        assertEquals("windows-x86_64", NativePlatform.detect("Windows-x86_64", "Linux", "amd64", dir, dir).folder());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NativePlatform.detect("musl", "Linux", "amd64", dir, dir));
        assertTrue(e.getMessage().contains("expected <os>-<arch>[-musl]"), e.getMessage());
    }

    @Test
    void loaderNamesInTheMemoryMapAreRecognised() {
        assertEquals(MUSL_X64, NativePlatform.mappedLoader(List.of("7f00-7f01 r-xp 0 00:00 1 " + MUSL_X64)));
        assertEquals(GLIBC_X64, NativePlatform.mappedLoader(List.of("a-b r--p 0 00:00 1 /usr/lib/libz.so.1",
                "7f00-7f01 r-xp 0 00:00 1 " + GLIBC_X64)));
        assertNull(NativePlatform.mappedLoader(List.of("a-b r--p 0 00:00 1 /opt/ld-musl-notes.txt.d/x")));
        assertTrue(NativePlatform.isMuslLoader("/lib/ld-musl-armhf.so.1"));
        assertFalse(NativePlatform.isMuslLoader("/usr/lib/musl/lib/libc.so"));
        assertFalse(NativePlatform.isMuslLoader("/lib/ld-linux-aarch64.so.1"));
    }

    /**
     * A glibc-built JVM on Alpine with its glibc compatibility package: the program names glibc's loader, a link to
     * musl's C library, which then runs it; the memory map names musl's C library itself.
     */
    @Test
    void aGlibcLoaderNameLinkedToMuslIsMusl(@TempDir Path dir) throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.io.File.separatorChar == '/', "loader paths are POSIX");
        Path muslLibc = Files.writeString(dir.resolve("libc.musl-x86_64.so.1"), "musl");
        Path glibcName = dir.resolve("ld-linux-x86-64.so.2");
        try {
            Files.createSymbolicLink(glibcName, muslLibc);
        } catch (UnsupportedOperationException | IOException e) {
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "symbolic links cannot be made here: " + e);
        }
        Path exe = elf(dir.resolve("java"), true, ByteOrder.LITTLE_ENDIAN, glibcName.toString());
        NativePlatform p = NativePlatform.detect(null, "Linux", "amd64", exe, dir.resolve("no-maps"));
        assertEquals("linux-x86_64-musl", p.folder(), p.how());
        assertTrue(p.how().contains("loaded by " + glibcName + ", which is " + muslLibc.toRealPath()), p.how());

        Path maps = Files.write(dir.resolve("maps"), List.of("7f00-7f01 r-xp 0 00:00 1 /lib/libc.musl-x86_64.so.1"));
        Path staticExe = elf(dir.resolve("static"), true, ByteOrder.LITTLE_ENDIAN, null);
        assertEquals("linux-x86_64-musl", NativePlatform.detect(null, "Linux", "amd64", staticExe, maps).folder());

        // a real glibc loader under its own name stays glibc
        Path glibc = Files.writeString(dir.resolve("ld-linux-aarch64.so.1"), "glibc");
        Path armExe = elf(dir.resolve("java-arm"), true, ByteOrder.LITTLE_ENDIAN, glibc.toString());
        assertEquals("linux-aarch64", NativePlatform.detect(null, "Linux", "aarch64", armExe, maps).folder());
    }

    @Test
    void thisJvmIsDetectedConsistently() throws IOException {
        NativePlatform here = NativePlatform.current();
        assertEquals(NativePlatform.arch(System.getProperty("os.arch")), here.arch());
        if (here.os().equals("linux")) {
            // the interpreter of the running java binary and the loader mapped into this process agree
            String interp = NativePlatform.interpreter(Path.of("/proc/self/exe"));
            assertNotNull(interp, "the java launcher is dynamically linked");
            String mapped = NativePlatform.mappedLoader(Files.readAllLines(Path.of("/proc/self/maps")));
            assertNotNull(mapped, "a dynamic loader is mapped into this process");
            assertEquals(NativePlatform.isMuslLoader(interp), NativePlatform.isMuslLoader(mapped));
            assertEquals(NativePlatform.isMuslLoader(interp), here.musl());
        }
    }

    /** A minimal ELF executable: header, one PT_LOAD, and a PT_INTERP naming {@code interp} when not null. */
    private static Path elf(Path file, boolean is64, ByteOrder order, String interp) throws IOException {
        int ehsize = is64 ? 64 : 52;
        int phentsize = is64 ? 56 : 32;
        int phnum = interp == null ? 1 : 2;
        int strOff = ehsize + phnum * phentsize;
        byte[] s = interp == null ? new byte[0] : (interp + "\0").getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocate(strOff + s.length).order(order);
        b.put(new byte[] {0x7f, 'E', 'L', 'F', (byte) (is64 ? 2 : 1), (byte) (order == ByteOrder.LITTLE_ENDIAN ? 1 : 2),
                1});
        if (is64) {
            b.putShort(16, (short) 2).putLong(0x20, ehsize).putShort(0x34, (short) ehsize)
                    .putShort(0x36, (short) phentsize).putShort(0x38, (short) phnum);
        } else {
            b.putShort(16, (short) 2).putInt(0x1c, ehsize).putShort(0x28, (short) ehsize)
                    .putShort(0x2a, (short) phentsize).putShort(0x2c, (short) phnum);
        }
        b.putInt(ehsize, 1); // PT_LOAD
        if (interp != null) {
            int ph = ehsize + phentsize;
            b.putInt(ph, 3); // PT_INTERP
            if (is64) {
                b.putLong(ph + 8, strOff).putLong(ph + 32, s.length);
            } else {
                b.putInt(ph + 4, strOff).putInt(ph + 16, s.length);
            }
            b.put(strOff, s);
        }
        return Files.write(file, b.array());
    }
}
