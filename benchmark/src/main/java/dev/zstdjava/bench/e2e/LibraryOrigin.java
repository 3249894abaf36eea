package dev.zstdjava.bench.e2e;

import dev.zstdjava.lettuce.CompressingRedisClient;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.CodeSource;
import java.time.temporal.ChronoUnit;

/**
 * Which build of the library a run measured: where the Lettuce adapter's classes were loaded from and when that jar
 * or folder was written. {@code ./e2e} runs on the modules' own {@code target/} output; a class path assembled by
 * hand may point at an older jar in the local Maven repository, and the report then says so.
 */
final class LibraryOrigin {
    private static final String LOCAL_REPOSITORY = "/.m2/repository/";

    private LibraryOrigin() {}

    /** @return e.g. "zstd-java-lettuce from client-adapter/lettuce/target/classes, written 2026-11-27T18:23:05Z" */
    static String describe() {
        CodeSource source = CompressingRedisClient.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return "zstd-java-lettuce from a location the JVM does not say";
        }
        Path location;
        try {
            location = Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return "zstd-java-lettuce from " + source.getLocation();
        }
        FileTime written;
        try {
            written = Files.getLastModifiedTime(location);
        } catch (IOException e) {
            written = null;
        }
        return describe(location, Path.of("").toAbsolutePath(), written);
    }

    /**
     * @param location the jar or class folder the classes came from
     * @param workDir  the folder the tool runs in (the repository root under {@code ./e2e})
     * @param written  when {@code location} was last written, null when unknown
     */
    static String describe(Path location, Path workDir, FileTime written) {
        Path abs = location.toAbsolutePath().normalize();
        String where;
        if (abs.toString().replace('\\', '/').contains(LOCAL_REPOSITORY)) {
            where = "the local Maven repository's " + abs.getFileName()
                    + " (installed there, not this checkout's build output)";
        } else if (abs.startsWith(workDir.toAbsolutePath().normalize())) {
            where = workDir.toAbsolutePath().normalize().relativize(abs).toString().replace('\\', '/');
        } else {
            where = abs.toString();
        }
        return "zstd-java-lettuce from " + where
                + (written == null ? "" : ", written " + written.toInstant().truncatedTo(ChronoUnit.SECONDS));
    }
}
