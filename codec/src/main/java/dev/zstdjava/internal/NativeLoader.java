package dev.zstdjava.internal;

import dev.zstdjava.NativeLibrary;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Finds and opens one native library. When the system property names a file, that file alone is loaded: if it does
 * not load, loading fails with the reason (a user who names a file means it). Otherwise, in order: the copy bundled
 * for this platform ({@link NativePlatform}: os, arch and C library) in a natives jar, then the system library. A library older than the spec's minimum version is refused. When
 * every source fails, one {@link UnsatisfiedLinkError} lists each attempt and why it failed.
 */
public final class NativeLoader {

    /**
     * System property naming the folder in which bundled libraries are extracted, each JVM into its own owner-only
     * sub-folder (default {@code java.io.tmpdir}).
     */
    public static final String TMPDIR_PROPERTY = "zstdjava.tmpdir";

    /**
     * What to load.
     *
     * @param name            short name, {@code zstd} or {@code lz4}
     * @param property        system property holding an explicit path
     * @param systemNames     names handed to the dynamic linker, in order
     * @param versionFunction {@code unsigned (void)} function returning major*10000 + minor*100 + patch
     * @param minVersion      lowest accepted version number in that encoding
     * @param required        functions the library must export: a library lacking one is refused when loaded, as
     *                        a too old one is, and the next source is tried
     */
    public record Spec(String name, String property, List<String> systemNames, String versionFunction,
                       int minVersion, List<String> required) {
        public Spec {
            systemNames = List.copyOf(systemNames);
            required = List.copyOf(required);
        }

        /** A spec that requires the version function only. */
        public Spec(String name, String property, List<String> systemNames, String versionFunction, int minVersion) {
            this(name, property, systemNames, versionFunction, minVersion, List.of());
        }

        /** This spec requiring {@code symbols} too. */
        Spec requiring(List<String> symbols) {
            return new Spec(name, property, systemNames, versionFunction, minVersion, symbols);
        }

        String resourceFile(String os) {
            return switch (os) {
                case "windows" -> name + ".dll";
                case "macos" -> "lib" + name + ".dylib";
                default -> "lib" + name + ".so";
            };
        }
    }

    /** An opened library: where to look symbols up, and what it is. */
    public record Loaded(SymbolLookup lookup, NativeLibrary info) {}

    private static Path extractDir;
    private static UserPrincipal extractOwner;
    /** Kept open for the JVM's life: their locks mark the extraction folders as in use. */
    private static final List<FileChannel> extractLocks = new ArrayList<>();

    private NativeLoader() {}

    /** Loads {@code spec} from the sources configured by system properties and the class path. */
    static Loaded load(Spec spec) {
        NativePlatform platform;
        try {
            platform = NativePlatform.current();
        } catch (IllegalArgumentException e) { // a -Dzstdjava.platform that names no platform
            throw new UnsatisfiedLinkError("zstd-java could not load lib" + spec.name() + ": " + e.getMessage()
                    + "; natives jars are built for " + builtPlatforms());
        }
        return load(spec, System.getProperty(spec.property()), NativeLoader.class.getClassLoader(),
                System.getProperty(TMPDIR_PROPERTY, System.getProperty("java.io.tmpdir")), spec.systemNames(),
                platform);
    }

    /**
     * Loads {@code spec} from explicitly given sources (tests use this to exercise each source in turn).
     *
     * @param explicitPath the explicit path, or null
     * @param resources    where to find the bundled copy, or null to skip it
     * @param tmpDir       where to extract the bundled copy
     * @param systemNames  system library names to try
     */
    static Loaded load(Spec spec, String explicitPath, ClassLoader resources, String tmpDir,
                              List<String> systemNames) {
        return load(spec, explicitPath, resources, tmpDir, systemNames, NativePlatform.current());
    }

    /**
     * Loads {@code spec} from explicitly given sources for the given platform (tests use this to exercise each
     * source and platform in turn).
     *
     * @param explicitPath the explicit path, or null
     * @param resources    where to find the bundled copy, or null to skip it
     * @param tmpDir       where to extract the bundled copy
     * @param systemNames  system library names to try
     * @param platform     whose bundled folder to use
     */
    static Loaded load(Spec spec, String explicitPath, ClassLoader resources, String tmpDir,
                              List<String> systemNames, NativePlatform platform) {
        String folder = platform.folder();
        List<String> attempts = new ArrayList<>();
        if (explicitPath == null || explicitPath.isBlank()) {
            attempts.add("system property " + spec.property() + ": not set");
        } else {
            Path p = Path.of(explicitPath).toAbsolutePath();
            try {
                if (!Files.isRegularFile(p)) {
                    throw new IOException(Files.isDirectory(p) ? "a folder, not a library file" : "no such file");
                }
                return open(spec, lookup(p, platform), NativeLibrary.Source.SYSTEM_PROPERTY, p.toString(), folder);
            } catch (Throwable e) {
                // a file named explicitly is meant: no silent fallback to another copy
                throw new UnsatisfiedLinkError("zstd-java could not load lib" + spec.name() + " for " + folder
                        + " from system property " + spec.property() + "=" + explicitPath + ": " + reason(e)
                        + " (an explicit path is used alone; unset the property to use the bundled or system library)");
            }
        }

        String os = platform.os();
        String resource = "META-INF/zstd-java/native/" + folder + "/" + spec.resourceFile(os);
        URL url = resources == null ? null : resources.getResource(resource);
        if (url == null) {
            attempts.add("bundled " + resource + ": not on the class path (" + (platform.isBuilt()
                    ? "add dev.zstdjava:" + platform.artifact() + " or dev.zstdjava:zstd-java-natives-all"
                    : "no natives jar is built for " + folder + ", only for " + builtPlatforms()
                    + "; use a system library") + ")");
        } else {
            Path file = null;
            try {
                file = extract(url, spec.resourceFile(os), tmpDir);
                return open(spec, lookup(file, platform), NativeLibrary.Source.BUNDLED, file.toString(), folder);
            } catch (Throwable e) {
                String where = file == null ? tmpDir : file.toString();
                attempts.add("bundled " + resource + " extracted into " + where + ": " + reason(e)
                        + noexecHint(file == null ? Path.of(tmpDir) : file)
                        + " (set -D" + TMPDIR_PROPERTY + " to a writable folder that allows executing code)");
            }
        }

        for (String n : systemNames) {
            try {
                return open(spec, SymbolLookup.libraryLookup(n, Arena.global()), NativeLibrary.Source.SYSTEM, n,
                        folder);
            } catch (Throwable e) {
                attempts.add("system library " + n + ": " + reason(e));
            }
        }

        StringBuilder msg = new StringBuilder("zstd-java could not load lib").append(spec.name())
                .append(" for ").append(folder).append(" (").append(platform.how()).append("); tried:");
        for (int i = 0; i < attempts.size(); i++) {
            msg.append("\n  ").append(i + 1).append(". ").append(attempts.get(i));
        }
        throw new UnsatisfiedLinkError(msg.toString());
    }

    /** Opens a library file; when the JDK cannot, says what the file is if its header tells why. */
    private static SymbolLookup lookup(Path file, NativePlatform platform) {
        try {
            return SymbolLookup.libraryLookup(file, Arena.global());
        } catch (IllegalArgumentException e) {
            String why = platform.whyNotALibraryFor(file);
            if (why == null) {
                throw e;
            }
            throw new IllegalArgumentException(reason(e) + "; " + why, e);
        }
    }

    /** The platforms natives jars are built for, sorted, for messages. */
    private static String builtPlatforms() {
        return String.join(", ", new TreeSet<>(NativePlatform.BUILT));
    }

    private static Loaded open(Spec spec, SymbolLookup lookup, NativeLibrary.Source source, String location,
                               String platform) {
        var fn = lookup.find(spec.versionFunction()).orElseThrow(
                () -> new IllegalStateException("symbol " + spec.versionFunction() + " not found: not lib" + spec.name()));
        MethodHandle h = Linker.nativeLinker().downcallHandle(fn, FunctionDescriptor.of(ValueLayout.JAVA_INT));
        int v;
        try {
            v = (int) h.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(spec.versionFunction() + " failed", t);
        }
        String version = (v / 10000) + "." + (v / 100 % 100) + "." + (v % 100);
        if (v < spec.minVersion()) {
            int m = spec.minVersion();
            throw new IllegalStateException("version " + version + " is older than the minimum "
                    + (m / 10000) + "." + (m / 100 % 100) + "." + (m % 100));
        }
        List<String> missing = spec.required().stream().filter(s -> lookup.find(s).isEmpty()).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("lib" + spec.name() + " " + version + " lacks "
                    + (missing.size() == 1 ? "a function" : missing.size() + " functions") + " zstd-java needs: "
                    + String.join(", ", missing));
        }
        return new Loaded(lookup, new NativeLibrary(spec.name(), version, source, location, platform));
    }

    private static synchronized Path extract(URL url, String fileName, String tmpDir) throws IOException {
        Path base = Path.of(tmpDir).toAbsolutePath();
        if (extractDir == null || !extractDir.getParent().equals(base)
                || PrivateFolder.whyNotPrivate(extractDir, extractOwner) != null) {
            // a folder of this process alone, made without SecureRandom (see PrivateFolder)
            Path dir = PrivateFolder.create(base, PrivateFolder::nextName);
            extractOwner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
            dir.toFile().deleteOnExit();
            extractLocks.add(PrivateFolder.lock(dir)); // held until the JVM ends: marks the folder as in use
            dir.resolve(PrivateFolder.LOCK).toFile().deleteOnExit();
            extractDir = dir;
            // earlier JVMs' folders that exit could not delete (a loaded DLL on Windows); a minute's grace for a
            // folder another JVM has just made and not locked yet
            PrivateFolder.removeStale(base, extractOwner, dir,
                    FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        }
        Path file = extractDir.resolve(fileName);
        if (!Files.exists(file)) {
            Path part = extractDir.resolve(fileName + ".part");
            try (InputStream in = url.openStream()) {
                Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(part, file, StandardCopyOption.ATOMIC_MOVE);
            file.toFile().deleteOnExit();
        }
        return file;
    }

    private static String noexecHint(Path p) {
        Path mountInfo = Path.of("/proc/self/mountinfo");
        try {
            return Files.isReadable(mountInfo) ? noexecHint(p, Files.readAllLines(mountInfo)) : "";
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * "; {@code <mount point>} is mounted noexec" when the file system {@code p} is on (symbolic links resolved:
     * a link can lead into another mount) is mounted {@code noexec} according to {@code mountInfo}, the lines of
     * {@code /proc/self/mountinfo} (whose paths escape space, tab, newline and backslash as octal); "" otherwise.
     */
    static String noexecHint(Path p, List<String> mountInfo) {
        Path real = realPath(p.toAbsolutePath().normalize());
        Path best = null;
        boolean noexec = false;
        for (String line : mountInfo) {
            String[] f = line.split(" ");
            if (f.length < 6) {
                continue;
            }
            Path mount;
            try {
                mount = Path.of(unescapeMountPath(f[4]));
            } catch (RuntimeException e) {
                continue;
            }
            // the last matching line of the longest mount point wins: later mounts hide earlier ones
            if (real.startsWith(mount) && (best == null || mount.getNameCount() >= best.getNameCount())) {
                best = mount;
                noexec = ("," + f[5] + ",").contains(",noexec,");
            }
        }
        return noexec ? "; " + best + " is mounted noexec" : "";
    }

    /** {@code p} with symbolic links resolved as far as it exists (a folder not made yet keeps its name). */
    private static Path realPath(Path p) {
        Path rest = p.getFileSystem().getPath("");
        for (Path at = p; at != null; at = at.getParent()) {
            try {
                return at.toRealPath().resolve(rest);
            } catch (IOException | RuntimeException e) {
                if (at.getFileName() == null) {
                    break;
                }
                rest = at.getFileName().resolve(rest);
            }
        }
        return p;
    }

    /** A path field of {@code /proc/self/mountinfo} with its octal escapes ({@code \040} for a space) decoded. */
    private static String unescapeMountPath(String field) {
        StringBuilder b = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && isOctal(field.charAt(i + 1))
                    && isOctal(field.charAt(i + 2)) && isOctal(field.charAt(i + 3))) {
                b.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static boolean isOctal(char c) {
        return c >= '0' && c <= '7';
    }

    private static String reason(Throwable e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }
}
