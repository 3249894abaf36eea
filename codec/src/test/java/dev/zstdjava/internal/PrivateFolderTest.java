package dev.zstdjava.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.AclEntry;
import java.nio.file.attribute.AclEntryPermission;
import java.nio.file.attribute.AclEntryType;
import java.nio.file.attribute.AclFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The loader's extraction folder: made owner-only without SecureRandom, never entering a name someone else made first
 * (each bad case is pre-created under the injected name), and the leftovers of dead JVMs removed.
 */
class PrivateFolderTest {

    private static final boolean POSIX = Files.getFileAttributeView(Path.of("."), PosixFileAttributeView.class) != null;

    /** Whether this is Windows emulated by Wine (its ntdll exports wine_get_version). */
    private static final boolean WINE = !POSIX && wine();

    private static final String WINE_LINKS = "under Wine 8 a pre-created symbolic link does not make createDirectory"
            + " fail and is not reported as a link (a Wine gap; Windows fails on any existing name)";

    private static boolean wine() {
        try {
            return SymbolLookup.libraryLookup("ntdll", Arena.global()).find("wine_get_version").isPresent();
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Test
    void aNewFolderIsOwnerOnlyAndNamedAfterThisProcess(@TempDir Path base) throws IOException {
        Path dir = PrivateFolder.create(base, PrivateFolder::nextName);
        assertTrue(dir.getFileName().toString().startsWith("zstd-java-" + ProcessHandle.current().pid() + "-"), dir
                .toString());
        UserPrincipal owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
        assertNull(PrivateFolder.whyNotPrivate(dir, owner));
        if (POSIX) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        } else {
            List<AclEntry> acl = Files.getFileAttributeView(dir, AclFileAttributeView.class).getAcl();
            assertFalse(acl.isEmpty());
            assertTrue(acl.stream().anyMatch(e -> e.principal().equals(owner)), acl.toString());
            List<UserPrincipal> privileged = PrivateFolder.privileged(dir);
            for (AclEntry e : acl) {
                assertTrue(e.principal().equals(owner) || privileged.contains(e.principal()), acl.toString());
            }
        }
        assertTrue(!dir.equals(PrivateFolder.create(base, PrivateFolder::nextName)), "each call makes a new folder");
    }

    @Test
    void aPreCreatedFileIsNotEntered(@TempDir Path base) throws IOException {
        Files.writeString(base.resolve("taken"), "x");
        refusedThenNext(base, "a file owned by");
        assertEquals("x", Files.readString(base.resolve("taken")));
    }

    @Test
    void aPreCreatedSymbolicLinkIsNotFollowed(@TempDir Path base) throws IOException {
        assumeFalse(WINE, WINE_LINKS);
        Path elsewhere = Files.createDirectory(base.resolve("elsewhere"));
        try {
            Files.createSymbolicLink(base.resolve("taken"), elsewhere);
        } catch (UnsupportedOperationException | IOException e) {
            assumeTrue(false, "symbolic links cannot be made here: " + e);
        }
        refusedThenNext(base, "a symbolic link owned by");
        try (var s = Files.list(elsewhere)) {
            assertEquals(0, s.count(), "nothing written through the link");
        }
        assertEquals(base.resolve("taken") + " is a symbolic link",
                PrivateFolder.whyNotPrivate(base.resolve("taken"), me(base)));
    }

    /** Wider permissions: POSIX mode bits where the file system has them, otherwise (Windows) an ACL entry. */
    @Test
    void aFolderOpenToOthersIsRefused(@TempDir Path base) throws IOException {
        if (!POSIX) {
            aclNamingSomeoneElseIsRefused(base);
            return;
        }
        Path taken = Files.createDirectory(base.resolve("taken"));
        Files.setPosixFilePermissions(taken, PosixFilePermissions.fromString("rwxrwxrwx"));
        refusedThenNext(base, "a folder owned by");
        assertEquals(taken + " has permissions rwxrwxrwx, wider than rwx------",
                PrivateFolder.whyNotPrivate(taken, me(base)));
        Files.setPosixFilePermissions(taken, PosixFilePermissions.fromString("rwxr-x---"));
        assertEquals(taken + " has permissions rwxr-x---, wider than rwx------",
                PrivateFolder.whyNotPrivate(taken, me(base)));
        Files.setPosixFilePermissions(taken, PosixFilePermissions.fromString("rwx------"));
        assertNull(PrivateFolder.whyNotPrivate(taken, me(base)));
    }

    @Test
    void aPreCreatedFolderOfAnotherUserIsNotEntered(@TempDir Path base) throws IOException {
        UserPrincipal nobody = nobody(base);
        Path taken = Files.createDirectory(base.resolve("taken"));
        Files.setOwner(taken, nobody);
        refusedThenNext(base, "a folder owned by " + nobody.getName());
        assertEquals(taken + " is owned by " + nobody.getName() + ", not by " + me(base).getName(),
                PrivateFolder.whyNotPrivate(taken, me(base)));
    }

    private static void aclNamingSomeoneElseIsRefused(Path base) throws IOException {
        Path dir = PrivateFolder.create(base, PrivateFolder::nextName);
        AclFileAttributeView view = Files.getFileAttributeView(dir, AclFileAttributeView.class);
        UserPrincipal everyone = base.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("Everyone");
        List<AclEntry> acl = new ArrayList<>(view.getAcl());
        acl.add(AclEntry.newBuilder().setType(AclEntryType.ALLOW).setPrincipal(everyone)
                .setPermissions(EnumSet.of(AclEntryPermission.READ_DATA)).build());
        view.setAcl(acl);
        String why = PrivateFolder.whyNotPrivate(dir, view.getOwner());
        assertTrue(why != null && why.contains("allows access to " + everyone.getName()), why);
    }

    @Test
    void whenEveryNameIsTakenTheErrorSaysWhy(@TempDir Path base) throws IOException {
        Files.writeString(base.resolve("taken"), "x");
        IOException e = assertThrows(IOException.class, () -> PrivateFolder.create(base, () -> "taken"));
        assertTrue(e.getMessage().startsWith("could not create a private folder in " + base + ": "
                + base.resolve("taken") + " exists already (a file owned by "), e.getMessage());
        assertEquals(PrivateFolder.ATTEMPTS, e.getMessage().split("exists already").length - 1, e.getMessage());
    }

    @Test
    void leftoversOfEndedJvmsAreRemovedAndNothingElse(@TempDir Path base) throws IOException {
        UserPrincipal me = me(base);
        // the time stamps of folders made from now on are not before this: a file system stamps them with a coarse
        // clock (the kernel's, a tick behind; FAT's two seconds), so a folder made a moment ago can read as made a
        // few milliseconds before a currentTimeMillis() taken just before it; the hour-old ones are well before
        FileTime unlockedBefore = FileTime.fromMillis(System.currentTimeMillis() - 3_000);
        FileTime longAgo = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
        Path ended = stale(base, "zstd-java-111-1a-1");
        PrivateFolder.lock(ended).close(); // a lock file nobody holds: its JVM has ended
        Path inUse = stale(base, "zstd-java-111-2b-2");
        Path self = stale(base, "zstd-java-333-3c-1");
        Path unlocked = stale(base, "zstd-java-444-4d-1"); // an ended JVM deleted its lock file, or an older loader
        Path oldEmpty = PrivateFolder.create(base, () -> "zstd-java-444-4d-2"); // its JVM died before locking
        Files.setLastModifiedTime(oldEmpty, longAgo);
        Path newEmpty = PrivateFolder.create(base, () -> "zstd-java-444-4e-3"); // made a moment ago, not locked yet
        Path other = stale(base, "zstd-java-4x-1");
        Files.setLastModifiedTime(other, longAgo);
        Path target = Files.writeString(base.resolve("keep-me"), "kept");
        boolean links = !WINE; // WINE_LINKS
        if (links) {
            try {
                Files.createSymbolicLink(ended.resolve("link"), target);
                Files.createSymbolicLink(base.resolve("zstd-java-555-5e-1"), inUse);
            } catch (UnsupportedOperationException | IOException e) {
                links = false;
            }
        }
        Path foreign = null;
        if (POSIX && isRoot(base)) {
            foreign = stale(base, "zstd-java-666-6f-1");
            Files.createFile(foreign.resolve(PrivateFolder.LOCK));
            Files.setOwner(foreign, nobody(base));
        }

        try (FileChannel held = PrivateFolder.lock(inUse)) {
            assertEquals(3, PrivateFolder.removeStale(base, me, self, unlockedBefore));
            assertTrue(held.isOpen());
        }

        assertFalse(Files.exists(ended, LinkOption.NOFOLLOW_LINKS), "the ended JVM's folder is removed");
        assertFalse(Files.exists(unlocked, LinkOption.NOFOLLOW_LINKS), "libraries without a lock file are removed");
        assertFalse(Files.exists(oldEmpty, LinkOption.NOFOLLOW_LINKS), "an old empty folder is removed");
        assertTrue(Files.exists(inUse.resolve("libzstd.so")), "a locked folder is kept");
        assertTrue(Files.exists(self.resolve("libzstd.so")), "this JVM's folder is kept");
        assertTrue(Files.exists(newEmpty), "a new empty folder is kept");
        assertTrue(Files.exists(other), "other names are kept");
        assertEquals("kept", Files.readString(target), "a link inside is removed, its target kept");
        if (links) {
            assertTrue(Files.isSymbolicLink(base.resolve("zstd-java-555-5e-1")), "a link of that name is kept");
        }
        if (foreign != null) {
            assertTrue(Files.exists(foreign.resolve("libzstd.so")), "another user's folder is kept");
        }
    }

    /**
     * Another JVM's folder between the creation of its lock file and its lock (the file exists and is free, that JVM
     * lives): kept, as an empty folder of that age is; the same file once locked, marked and released (its JVM has
     * ended) is removed, and so is an unmarked one that is old (its JVM died in between).
     */
    @Test
    void aLockFileNotLockedYetIsNotTakenForAnEndedJvm(@TempDir Path base) throws IOException {
        UserPrincipal me = me(base);
        FileTime aMinuteAgo = FileTime.fromMillis(System.currentTimeMillis() - 60_000);
        Path starting = PrivateFolder.create(base, () -> "zstd-java-777-7a-1");
        Files.createFile(starting.resolve(PrivateFolder.LOCK)); // what lock() does first; its lock comes next
        assertEquals(0, PrivateFolder.removeStale(base, me, null, aMinuteAgo));
        assertTrue(Files.exists(starting.resolve(PrivateFolder.LOCK)), "a starting JVM's folder is kept");

        Files.setLastModifiedTime(starting.resolve(PrivateFolder.LOCK), FileTime.fromMillis(0));
        assertEquals(1, PrivateFolder.removeStale(base, me, null, aMinuteAgo), "its JVM died before the lock");

        Path ended = PrivateFolder.create(base, () -> "zstd-java-777-7a-2");
        PrivateFolder.lock(ended).close();
        assertEquals(1, Files.size(ended.resolve(PrivateFolder.LOCK)), "the lock marks its file");
        assertEquals(1, PrivateFolder.removeStale(base, me, null, aMinuteAgo));
        assertFalse(Files.exists(ended, LinkOption.NOFOLLOW_LINKS), "a JVM that locked its folder and ended");
    }

    /**
     * Folders being made and locked while another loader (here another thread; class loaders of one JVM share its
     * locks) removes stale ones, again and again: no folder is deleted or its lock refused once its maker has it.
     */
    @Test
    void foldersBeingMadeAreNeverTakenForStaleOnes(@TempDir Path base) throws Exception {
        UserPrincipal me = me(base);
        FileTime aMinuteAgo = FileTime.fromMillis(System.currentTimeMillis() - 60_000);
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger sweeps = new java.util.concurrent.atomic.AtomicInteger();
        Thread sweeper = new Thread(() -> {
            while (!done.get()) {
                PrivateFolder.removeStale(base, me, null, aMinuteAgo);
                sweeps.incrementAndGet();
            }
        });
        sweeper.start();
        List<String> lost = new ArrayList<>();
        int made = 0;
        long start = System.nanoTime();
        long end = start + 2_000_000_000L;
        long hardEnd = start + 60_000_000_000L; // a loaded machine sweeps slowly: at least 11 sweeps, whatever it takes
        try {
            while ((System.nanoTime() < end || sweeps.get() <= 10 || made <= 10) && System.nanoTime() < hardEnd
                    && lost.size() < 5) {
                Path dir = PrivateFolder.create(base, PrivateFolder::nextName);
                made++;
                try (FileChannel held = PrivateFolder.lock(dir)) {
                    Files.writeString(dir.resolve("libzstd.so"), "extracted");
                    if (!Files.exists(dir.resolve(PrivateFolder.LOCK)) || !held.isOpen()) {
                        lost.add(dir + ": its lock file was deleted");
                    }
                } catch (IOException | RuntimeException e) {
                    lost.add(dir + ": " + e);
                }
            }
        } finally {
            done.set(true);
            sweeper.join();
        }
        assertTrue(lost.isEmpty(), made + " folders made, " + sweeps.get() + " sweeps; lost: " + lost);
        assertTrue(made > 10 && sweeps.get() > 10, made + " folders made, " + sweeps.get() + " sweeps");
    }

    @Test
    void aFolderCanBeLockedOnce(@TempDir Path base) throws IOException {
        Path dir = PrivateFolder.create(base, PrivateFolder::nextName);
        try (FileChannel ch = PrivateFolder.lock(dir)) {
            assertTrue(ch.isOpen());
            assertThrows(FileAlreadyExistsException.class, () -> PrivateFolder.lock(dir));
        }
    }

    private static Path stale(Path base, String name) throws IOException {
        Path d = PrivateFolder.create(base, () -> name);
        Files.writeString(d.resolve("libzstd.so"), "not really");
        return d;
    }

    /** Names "taken" first, then fresh names: the folder made must be a fresh one; "taken" is described. */
    private static void refusedThenNext(Path base, String described) throws IOException {
        Iterator<String> names = List.of("taken", "fresh").iterator();
        Path dir = PrivateFolder.create(base, names::next);
        assertEquals(base.resolve("fresh"), dir);
        IOException e = assertThrows(IOException.class, () -> PrivateFolder.create(base, () -> "taken"));
        assertTrue(e.getMessage().contains(base.resolve("taken") + " exists already (" + described), e.getMessage());
        assertTrue(e.getMessage().contains("made by someone else, not used"), e.getMessage());
    }

    private static UserPrincipal me(Path base) throws IOException {
        Path probe = Files.writeString(base.resolve("owner-probe"), "");
        try {
            return Files.getOwner(probe);
        } finally {
            Files.delete(probe);
        }
    }

    private static boolean isRoot(Path base) throws IOException {
        return "root".equals(me(base).getName());
    }

    private static UserPrincipal nobody(Path base) throws IOException {
        assumeTrue(POSIX && isRoot(base), "giving a folder to another user needs root on a POSIX file system");
        return base.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    }
}
