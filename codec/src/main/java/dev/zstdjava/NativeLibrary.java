package dev.zstdjava;

import java.util.Objects;

/**
 * Which native library a codec runs on: its name, version and where it was loaded from.
 *
 * <p>Immutable and thread-safe. Obtained from {@code Zstd.library()} or {@code Lz4.library()}.
 *
 * @param name     the library's short name, {@code "zstd"} or {@code "lz4"}
 * @param version  the version the library reports about itself, for example {@code "1.5.7"}
 * @param source   how the library was found
 * @param location the file that was loaded, or the system library name handed to the dynamic linker
 * @param platform the platform zstd-java detected, as the natives jars name it: {@code <os>-<arch>[-musl]}, for
 *                 example {@code linux-aarch64-musl} (the folder a bundled library was taken from)
 */
public record NativeLibrary(String name, String version, Source source, String location, String platform) {

    /** How a native library was found; the loader tries them in this order. */
    public enum Source {
        /** The file named by the library's system property ({@code zstdjava.zstd.path}, {@code zstdjava.lz4.path}). */
        SYSTEM_PROPERTY,
        /**
         * The copy bundled in a {@code zstd-java-natives-<platform>} (or {@code zstd-java-natives-all}) jar on the
         * class or module path.
         */
        BUNDLED,
        /** The operating system's shared library ({@code libzstd.so.1}, {@code liblz4.so.1}, ...). */
        SYSTEM
    }

    public NativeLibrary {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(platform, "platform");
    }

    @Override
    public String toString() {
        return name + " " + version + " for " + platform + " (" + source.name().toLowerCase(java.util.Locale.ROOT) + ": "
                + location + ")";
    }
}
