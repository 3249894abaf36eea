package dev.zstdjava.bench.report;

import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/** The machine and the versions each contestant runs, asked of the libraries themselves where possible. */
public final class Env {
    private Env() {
    }

    /** @return the CPU model name, or the architecture */
    public static String cpu() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (Exception ignored) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    /** @return total memory from /proc/meminfo, or "?" */
    public static String memory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return String.format("%.1f GiB", kb / 1024.0 / 1024.0);
                }
            }
        } catch (Exception ignored) {
            // not Linux
        }
        return "?";
    }

    /** @return the 1, 5 and 15 minute load averages, or "?" */
    public static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (Exception e) {
            return "?";
        }
    }

    /** rows of [contestant, version, native library it runs] */
    static List<String[]> versions() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"zstd-java (this library)", artifact("zstd-java"),
                attempt(() -> dev.zstdjava.zstd.Zstd.library().toString().replace(System.getProperty("java.io.tmpdir"), "$TMP"))
                        + attempt(Env::ourLz4)});
        rows.add(new String[]{"zstd-jni", artifact("zstd-jni"), attempt(() -> {
            com.github.luben.zstd.Zstd.compressBound(1); // loads its JNI library
            String v = SymbolLookup.loaderLookup().find("ZSTD_versionString").isPresent()
                    ? versionString(SymbolLookup.loaderLookup(), "ZSTD_versionString")
                    : artifact("zstd-jni").replaceAll("-.*", "") + " (by its release number; its library hides "
                    + "zstd's symbols)";
            return "zstd " + v + ", compiled into its JNI library";
        })});
        rows.add(new String[]{"lz4-java (at.yawk.lz4)", artifact("lz4-java"), attempt(() -> {
            net.jpountz.lz4.LZ4Factory.nativeInstance(); // loads its JNI library
            return "lz4 " + versionString(SymbolLookup.loaderLookup(), "LZ4_versionString")
                    + ", compiled into its JNI library";
        })});
        rows.add(new String[]{"aircompressor-v3", artifact("aircompressor-v3"),
                attempt(() -> "zstd " + bundled("libzstd", "ZSTD_versionString") + ", lz4 "
                        + bundled("liblz4", "LZ4_versionString")
                        + ", its own .so files (extracted from its jar; it has no switch to use another build)")
                        + "; pure Java codecs for `air java`"});
        return rows;
    }

    private static String ourLz4() throws Exception {
        Class<?> c = Class.forName("dev.zstdjava.lz4.Lz4");
        return "; " + String.valueOf(c.getMethod("library").invoke(null))
                .replace(System.getProperty("java.io.tmpdir"), "$TMP");
    }

    interface Attempt {
        String get() throws Throwable;
    }

    private static String attempt(Attempt a) {
        try {
            return a.get();
        } catch (ClassNotFoundException e) {
            return "";
        } catch (Throwable t) {
            return "unknown (" + t + ")";
        }
    }

    /** @return a dependency's version as the build recorded it (versions.properties), or "?" */
    public static String artifact(String name) {
        try (InputStream in = Env.class.getResourceAsStream("/dev/zstdjava/bench/versions.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                return p.getProperty(name, "?");
            }
        } catch (Exception ignored) {
            // fall through
        }
        return "?";
    }

    private static String versionString(SymbolLookup lookup, String symbol) throws Throwable {
        Optional<MemorySegment> f = lookup.find(symbol);
        if (f.isEmpty()) {
            return "? (no " + symbol + ")";
        }
        MemorySegment s = (MemorySegment) Linker.nativeLinker()
                .downcallHandle(f.get(), FunctionDescriptor.of(ValueLayout.ADDRESS)).invokeExact();
        return s.reinterpret(64).getString(0);
    }

    /** Asks aircompressor's bundled library (a copy of the jar resource it loads) for its version. */
    private static String bundled(String lib, String symbol) throws Throwable {
        String arch = System.getProperty("os.arch").equals("aarch64") ? "linux-aarch64" : "linux-amd64";
        try (InputStream in = io.airlift.compress.v3.zstd.ZstdNativeCompressor.class
                .getResourceAsStream("/aircompressor/" + arch + "/" + lib + ".so")) {
            if (in == null) {
                return "? (no " + arch + " library in its jar)";
            }
            Path tmp = Files.createTempFile("air-" + lib, ".so");
            try (Arena arena = Arena.ofConfined()) {
                Files.write(tmp, in.readAllBytes());
                return versionString(SymbolLookup.libraryLookup(tmp, arena), symbol);
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
    }
}
