package dev.zstdjava.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The platform the JVM runs on, as the natives jars name their folders: {@code <os>-<arch>[-musl]}, for example
 * {@code linux-x86_64}, {@code linux-aarch64-musl}, {@code macos-aarch64}, {@code windows-x86_64}.
 *
 * <p>On Linux the C library is read from the running program, not guessed from file names: the {@code PT_INTERP}
 * entry (the dynamic loader) of {@code /proc/self/exe}, which is {@code /lib/ld-musl-<arch>.so.1} for musl; if that
 * cannot be read, the dynamic loader mapped into the process ({@code /proc/self/maps}). The system property
 * {@value #PROPERTY} overrides the whole detection.
 *
 * <p>Immutable and thread-safe.
 *
 * @param os     {@code linux}, {@code macos}, {@code windows}, or the lower-cased {@code os.name} otherwise
 * @param arch   {@code x86_64}, {@code aarch64}, or the lower-cased {@code os.arch} otherwise ({@code ppc64le},
 *               {@code s390x}, {@code riscv64} as the JDK names them)
 * @param musl   whether the C library is musl (Linux only)
 * @param how    how the platform was determined, for diagnostics
 */
public record NativePlatform(String os, String arch, boolean musl, String how) {

    /** System property that names the platform folder to load from, bypassing detection. */
    public static final String PROPERTY = "zstdjava.platform";

    /** The platforms a natives jar is built for. */
    public static final Set<String> BUILT = Set.of("linux-x86_64", "linux-aarch64", "linux-x86_64-musl",
            "linux-aarch64-musl", "macos-x86_64", "macos-aarch64", "windows-x86_64", "windows-aarch64", "linux-ppc64le",
            "linux-s390x", "linux-riscv64");

    private static final int PT_INTERP = 3;

    private static volatile NativePlatform current;

    /** The folder name of this platform, for example {@code linux-aarch64-musl}. */
    public String folder() {
        return os + "-" + arch + (musl ? "-musl" : "");
    }

    /** Whether a natives jar exists for this platform. */
    public boolean isBuilt() {
        return BUILT.contains(folder());
    }

    /** The Maven artifact id of the natives jar for this platform. */
    public String artifact() {
        return "zstd-java-natives-" + folder();
    }

    /** The platform of this JVM (detected once). */
    public static NativePlatform current() {
        NativePlatform p = current;
        if (p == null) {
            p = detect(System.getProperty(PROPERTY), System.getProperty("os.name", ""),
                    System.getProperty("os.arch", ""), Path.of("/proc/self/exe"), Path.of("/proc/self/maps"));
            current = p;
        }
        return p;
    }

    /**
     * Detects the platform from the given inputs (tests pass their own).
     *
     * @param override the {@value #PROPERTY} value, or null
     * @param osName   {@code os.name}
     * @param osArch   {@code os.arch}
     * @param exe      the running program ({@code /proc/self/exe})
     * @param maps     the process's memory map ({@code /proc/self/maps})
     */
    static NativePlatform detect(String override, String osName, String osArch, Path exe, Path maps) {
        if (override != null && !override.isBlank()) {
            String v = override.trim().toLowerCase(Locale.ROOT);
            boolean musl = v.endsWith("-musl");
            String base = musl ? v.substring(0, v.length() - 5) : v;
            int dash = base.indexOf('-');
            if (dash <= 0 || dash == base.length() - 1) {
                throw new IllegalArgumentException("-D" + PROPERTY + "=" + override
                        + ": expected <os>-<arch>[-musl], for example linux-x86_64-musl");
            }
            return new NativePlatform(base.substring(0, dash), base.substring(dash + 1), musl,
                    "-D" + PROPERTY + "=" + override);
        }
        String os = os(osName);
        String arch = arch(osArch);
        if (!os.equals("linux")) {
            return new NativePlatform(os, arch, false, "os.name=" + osName + ", os.arch=" + osArch);
        }
        String how = "os.name=" + osName + ", os.arch=" + osArch + ", C library ";
        try {
            String interp = interpreter(exe);
            if (interp != null) {
                // a glibc loader's name can lead to musl: Alpine's glibc compatibility links it to musl's
                String real = realFile(interp);
                boolean musl = isMuslLoader(interp) || (real != null && isMuslLoader(real));
                return new NativePlatform(os, arch, musl, how + (musl ? "musl" : "glibc") + " (" + exe
                        + " is loaded by " + interp + (real == null || real.equals(interp) ? "" : ", which is " + real)
                        + ")");
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the memory map
        }
        try {
            String loader = mappedLoader(Files.readAllLines(maps));
            if (loader != null) {
                boolean musl = isMuslLoader(loader);
                return new NativePlatform(os, arch, musl, how + (musl ? "musl" : "glibc") + " (" + loader
                        + " is mapped into the process)");
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: assume glibc, say so
        }
        return new NativePlatform(os, arch, false, how + "assumed glibc (neither " + exe + "'s interpreter nor "
                + maps + " could be read)");
    }

    /**
     * Whether a dynamic loader path belongs to musl: {@code /lib/ld-musl-x86_64.so.1}, or the file that name links
     * to, musl's C library, {@code /lib/libc.musl-x86_64.so.1} (which is its own loader).
     */
    static boolean isMuslLoader(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.startsWith("ld-musl-") || name.startsWith("libc.musl-");
    }

    /** The file a loader path names, symbolic links resolved; null when it cannot be resolved. */
    private static String realFile(String path) {
        try {
            return Path.of(path).toRealPath().toString();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The first dynamic loader ({@code ld-linux*}, {@code ld-musl-*}, {@code ld64.so*}, or musl's
     * {@code libc.musl-*}, the file a memory map names for {@code ld-musl-*}) in a memory map.
     */
    static String mappedLoader(Iterable<String> mapsLines) {
        for (String line : mapsLines) {
            int slash = line.indexOf('/');
            if (slash < 0) {
                continue;
            }
            String path = line.substring(slash).trim();
            String name = path.substring(path.lastIndexOf('/') + 1);
            if (isMuslLoader(name) || name.startsWith("ld-linux") || name.startsWith("ld64.so")) {
                return path;
            }
        }
        return null;
    }

    /**
     * The {@code PT_INTERP} string of an ELF file (its dynamic loader), or null when it has none (static programs,
     * shared libraries).
     *
     * @throws IOException when the file cannot be read or is not ELF
     */
    static String interpreter(Path elf) throws IOException {
        byte[] head = new byte[64];
        try (InputStream in = Files.newInputStream(elf)) {
            if (in.readNBytes(head, 0, head.length) < 52) {
                throw new IOException(elf + ": too short for an ELF header");
            }
        }
        ElfHeader h = ElfHeader.parse(head, elf);
        try (var ch = Files.newByteChannel(elf)) {
            ByteBuffer ph = ByteBuffer.allocate(h.phentsize * h.phnum).order(h.order);
            ch.position(h.phoff);
            while (ph.hasRemaining() && ch.read(ph) >= 0) {
                // read the whole program header table
            }
            if (ph.hasRemaining()) {
                throw new IOException(elf + ": program header table truncated");
            }
            for (int i = 0; i < h.phnum; i++) {
                int at = i * h.phentsize;
                if (ph.getInt(at) != PT_INTERP) {
                    continue;
                }
                long off = h.is64 ? ph.getLong(at + 8) : Integer.toUnsignedLong(ph.getInt(at + 4));
                long size = h.is64 ? ph.getLong(at + 32) : Integer.toUnsignedLong(ph.getInt(at + 16));
                if (size <= 0 || size > 4096) {
                    throw new IOException(elf + ": PT_INTERP size " + size + " out of range");
                }
                ByteBuffer s = ByteBuffer.allocate((int) size);
                ch.position(off);
                while (s.hasRemaining() && ch.read(s) >= 0) {
                    // read the loader path
                }
                byte[] b = s.array();
                int len = 0;
                while (len < s.position() && b[len] != 0) {
                    len++;
                }
                return new String(b, 0, len, StandardCharsets.ISO_8859_1);
            }
            return null;
        }
    }

    /** The fields of an ELF file header that locate its program headers. */
    private record ElfHeader(boolean is64, ByteOrder order, long phoff, int phentsize, int phnum) {
        static ElfHeader parse(byte[] b, Path file) throws IOException {
            if (b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F') {
                throw new IOException(file + ": not an ELF file");
            }
            boolean is64 = switch (b[4]) {
                case 1 -> false;
                case 2 -> true;
                default -> throw new IOException(file + ": unknown ELF class " + b[4]);
            };
            ByteOrder order = switch (b[5]) {
                case 1 -> ByteOrder.LITTLE_ENDIAN;
                case 2 -> ByteOrder.BIG_ENDIAN;
                default -> throw new IOException(file + ": unknown ELF data encoding " + b[5]);
            };
            ByteBuffer h = ByteBuffer.wrap(b).order(order);
            long phoff = is64 ? h.getLong(0x20) : Integer.toUnsignedLong(h.getInt(0x1c));
            int phentsize = Short.toUnsignedInt(h.getShort(is64 ? 0x36 : 0x2a));
            int phnum = Short.toUnsignedInt(h.getShort(is64 ? 0x38 : 0x2c));
            if (phentsize < (is64 ? 56 : 32) || phnum > 4096) {
                throw new IOException(file + ": implausible program header table (" + phnum + " x " + phentsize + ")");
            }
            return new ElfHeader(is64, order, phoff, phentsize, phnum);
        }
    }

    /**
     * Why {@code file} cannot be this platform's shared library, as far as its first bytes tell (the JDK's "Cannot
     * open library" names no reason): not a shared library at all, one of another operating system, or an ELF file
     * of another machine or type.
     *
     * @return the reason, or null when the header fits this platform (or the file cannot be read)
     */
    String whyNotALibraryFor(Path file) {
        byte[] b = new byte[20];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(b, 0, b.length);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        String kind;
        if (n >= 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') {
            if (!os.equals("linux")) {
                return "it is an ELF file (a Linux library), not a library for " + os;
            }
            if (n < 20) {
                return "it is a truncated ELF file";
            }
            ByteOrder order = b[5] == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            ByteBuffer h = ByteBuffer.wrap(b).order(order);
            int type = Short.toUnsignedInt(h.getShort(16));
            int machine = Short.toUnsignedInt(h.getShort(18));
            String machineName = ELF_MACHINES.getOrDefault(machine, "machine " + machine);
            Integer expected = ELF_MACHINES.entrySet().stream().filter(e -> e.getValue().equals(arch))
                    .map(Map.Entry::getKey).findFirst().orElse(null);
            if (b[4] != 2) {
                return "it is a 32-bit ELF file (" + machineName + "); " + folder() + " needs a 64-bit one";
            }
            if (expected != null && machine != expected) {
                return "it is an ELF file for " + machineName + ", not for " + arch;
            }
            if (type != 3) {
                return "it is an ELF file of type " + type + ", not a shared library (type 3)";
            }
            return null;
        } else if (n >= 2 && b[0] == 'M' && b[1] == 'Z') {
            kind = "windows";
        } else if (n >= 4 && machO(ByteBuffer.wrap(b).order(ByteOrder.BIG_ENDIAN).getInt(0))) {
            kind = "macos";
        } else {
            return "it is not a shared library (no ELF, Mach-O or PE header)";
        }
        return kind.equals(os) ? null : "it is a " + (kind.equals("windows") ? "Windows DLL" : "macOS library")
                + ", not a library for " + os;
    }

    /** Whether a file's first four bytes (read big-endian) are a Mach-O or universal binary magic number. */
    private static boolean machO(int magic) {
        return magic == 0xfeedfacf || magic == 0xcffaedfe || magic == 0xfeedface || magic == 0xcefaedfe
                || magic == 0xcafebabe;
    }

    /** ELF {@code e_machine} values of the architectures natives jars are built for, by this class's arch names. */
    private static final Map<Integer, String> ELF_MACHINES = Map.of(62, "x86_64", 183, "aarch64", 21, "ppc64le",
            22, "s390x", 243, "riscv64", 3, "x86", 40, "arm");

    static String os(String osName) {
        String n = osName.toLowerCase(Locale.ROOT);
        if (n.contains("win")) {
            return "windows";
        }
        if (n.contains("mac") || n.contains("darwin")) {
            return "macos";
        }
        return n.contains("linux") ? "linux" : n.replace(' ', '_');
    }

    static String arch(String osArch) {
        String a = osArch.toLowerCase(Locale.ROOT);
        return switch (a) {
            case "amd64", "x86_64", "x64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> a;
        };
    }
}
