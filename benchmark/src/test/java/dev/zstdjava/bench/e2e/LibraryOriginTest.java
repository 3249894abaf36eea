package dev.zstdjava.bench.e2e;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The report's line on which build of the library a run measured. */
class LibraryOriginTest {
    private static final Path REPO = Path.of("/work/repo");
    private static final FileTime WRITTEN = FileTime.from(Instant.parse("2026-11-27T18:23:05.123Z"));

    @Test
    void theCheckoutsOwnBuildIsNamedRelativeToIt() {
        assertEquals("zstd-java-lettuce from client-adapter/lettuce/target/classes, written 2026-11-27T18:23:05Z",
                LibraryOrigin.describe(REPO.resolve("client-adapter/lettuce/target/classes"), REPO, WRITTEN));
    }

    @Test
    void aJarFromTheLocalRepositoryIsCalledOut() {
        String s = LibraryOrigin.describe(Path.of("/home/u/.m2/repository/dev/zstdjava/zstd-java-lettuce/0.1.0-SNAPSHOT"
                + "/zstd-java-lettuce-0.1.0-SNAPSHOT.jar"), REPO, null);
        assertEquals("zstd-java-lettuce from the local Maven repository's zstd-java-lettuce-0.1.0-SNAPSHOT.jar "
                + "(installed there, not this checkout's build output)", s);
    }

    @Test
    void thisRunsClassesAreDescribed() {
        String s = LibraryOrigin.describe();
        assertTrue(s.startsWith("zstd-java-lettuce from ") && s.contains(", written 20"), s);
    }
}
