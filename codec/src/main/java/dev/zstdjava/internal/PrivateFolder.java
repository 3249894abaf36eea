package dev.zstdjava.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.AclEntry;
import java.nio.file.attribute.AclEntryFlag;
import java.nio.file.attribute.AclEntryPermission;
import java.nio.file.attribute.AclEntryType;
import java.nio.file.attribute.AclFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The folder the loader extracts its bundled libraries into: created by this process alone, readable and writable by
 * its owner alone, and made without {@code SecureRandom} (whose first use seeds itself, which costs startup time
 * everywhere and crashes some Windows emulations).
 *
 * <p>Safety comes from how the folder is made, not from a secret name: {@link Files#createDirectory} fails when the
 * name exists in any form (folder, file, symbolic link), so a name someone else made first is never entered; the next
 * name is tried. The name is {@code zstd-java-<pid>-<nanoTime hex>-<counter>}. The new folder gets {@code rwx------}
 * on POSIX file systems and an ACL with one entry, its owner, on Windows (ACL file systems; SYSTEM and
 * Administrators may appear too), and is checked after creation and before each reuse: a symbolic link, a folder
 * owned by another user or one with wider permissions is refused with the reason.
 *
 * <p>A loaded DLL cannot be deleted on Windows, so a JVM there leaves its folder behind at exit. The JVM that uses a
 * folder holds a lock on a file in it ({@link #lock}); each new folder's creator removes the folders of earlier JVMs
 * whose lock is free (see {@link #removeStale}), so the temporary folder does not grow run after run.
 *
 * <p>Static methods, thread-safe; each call allocates (file system calls).
 */
final class PrivateFolder {

    /** Name prefix of every extraction folder. */
    static final String PREFIX = "zstd-java-";

    /** How many names {@link #create} tries before giving up. */
    static final int ATTEMPTS = 8;

    /** The file whose lock marks a folder as in use (see {@link #lock}). */
    static final String LOCK = "in-use.lock";

    /** What {@link #lock} writes into the lock file once it holds the lock. */
    private static final byte[] LOCKED_MARK = {'1'};

    private static final Pattern NAME = Pattern.compile(Pattern.quote(PREFIX) + "\\d+-[0-9a-f]+-\\d+");
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final AtomicLong COUNTER = new AtomicLong();

    private PrivateFolder() {}

    /** A fresh folder name for this process: {@code zstd-java-<pid>-<nanoTime hex>-<counter>}. */
    static String nextName() {
        return PREFIX + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime()) + "-"
                + COUNTER.incrementAndGet();
    }

    /**
     * Creates a new owner-only folder in {@code base} under the first name from {@code names} that does not exist yet,
     * trying at most {@value #ATTEMPTS} names; then checks it with {@link #whyNotPrivate}.
     *
     * @throws IOException when no name could be created (the message says why each was refused), or the created
     *                     folder is not private
     */
    static Path create(Path base, Supplier<String> names) throws IOException {
        Files.createDirectories(base);
        boolean posix = Files.getFileStore(base).supportsFileAttributeView(PosixFileAttributeView.class);
        List<String> refused = new ArrayList<>();
        for (int i = 0; i < ATTEMPTS; i++) {
            Path dir = base.resolve(names.get());
            try {
                if (posix) {
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                } else {
                    Files.createDirectory(dir);
                    restrictAcl(dir);
                }
            } catch (FileAlreadyExistsException e) {
                refused.add(dir + " exists already (" + describe(dir) + ")");
                continue;
            }
            UserPrincipal owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
            String why = whyNotPrivate(dir, owner);
            if (why != null) {
                throw new IOException("the new folder " + dir + " is not private: " + why);
            }
            return dir;
        }
        throw new IOException("could not create a private folder in " + base + ": " + String.join("; ", refused));
    }

    /**
     * Why {@code dir} is not a private folder of {@code owner}, or null when it is one: it must be a folder (not a
     * symbolic link), owned by {@code owner}, with no permission for anyone else (POSIX: within {@code rwx------};
     * ACL: no entry allowing another principal than SYSTEM and Administrators).
     */
    static String whyNotPrivate(Path dir, UserPrincipal owner) {
        try {
            BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink()) {
                return dir + " is a symbolic link";
            }
            if (!a.isDirectory()) {
                return dir + " is not a folder";
            }
            UserPrincipal actual = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
            if (!actual.equals(owner)) {
                return dir + " is owned by " + actual.getName() + ", not by " + owner.getName();
            }
            PosixFileAttributeView posix = Files.getFileAttributeView(dir, PosixFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (posix != null) {
                Set<PosixFilePermission> p = posix.readAttributes().permissions();
                if (!OWNER_ONLY.containsAll(p)) {
                    return dir + " has permissions " + PosixFilePermissions.toString(p) + ", wider than rwx------";
                }
                return null;
            }
            AclFileAttributeView acl = Files.getFileAttributeView(dir, AclFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (acl != null) {
                List<UserPrincipal> privileged = null;
                for (AclEntry e : acl.getAcl()) {
                    if (e.type() != AclEntryType.ALLOW || e.principal().equals(owner)) {
                        continue;
                    }
                    if (privileged == null) {
                        privileged = privileged(dir);
                    }
                    if (!privileged.contains(e.principal())) {
                        return dir + " allows access to " + e.principal().getName() + " (its ACL must name "
                                + owner.getName() + " alone)";
                    }
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return dir + " cannot be checked: " + e;
        }
    }

    /**
     * The accounts an ACL may name besides the owner: Windows' SYSTEM and Administrators, which can read every file
     * anyway (Wine adds SYSTEM to every ACL). Looked up by their English names; where a lookup fails, an entry for
     * that account is refused like any other.
     */
    static List<UserPrincipal> privileged(Path dir) {
        List<UserPrincipal> l = new ArrayList<>(2);
        for (String name : List.of("NT AUTHORITY\\SYSTEM", "BUILTIN\\Administrators")) {
            try {
                l.add(dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(name));
            } catch (IOException | RuntimeException e) {
                // not on this system: not privileged here
            }
        }
        return l;
    }

    /** Replaces the ACL of a folder this process just created by one entry: its owner, with every permission. */
    private static void restrictAcl(Path dir) throws IOException {
        AclFileAttributeView view = Files.getFileAttributeView(dir, AclFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return; // neither POSIX permissions nor ACLs (FAT): nothing to restrict; whyNotPrivate checks the rest
        }
        AclEntry ownerOnly = AclEntry.newBuilder().setType(AclEntryType.ALLOW).setPrincipal(view.getOwner())
                .setPermissions(EnumSet.allOf(AclEntryPermission.class))
                .setFlags(AclEntryFlag.FILE_INHERIT, AclEntryFlag.DIRECTORY_INHERIT).build();
        view.setAcl(List.of(ownerOnly));
    }

    /** What is at {@code p}, for the message when a name exists already. */
    private static String describe(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            String kind = a.isSymbolicLink() ? "a symbolic link" : a.isDirectory() ? "a folder" : "a file";
            return kind + " owned by " + Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName()
                    + "; made by someone else, not used";
        } catch (IOException | RuntimeException e) {
            return "made by someone else, not used";
        }
    }

    /**
     * Takes the lock that marks {@code dir} as in use for the rest of this JVM's life: an exclusive lock on its file
     * {@value #LOCK}, released by the operating system when the process ends however it ends, then marks the file
     * as locked (one byte), so that {@link #removeStale} does not take the moment between the file's creation and
     * its lock for an ended JVM. The channel stays open on purpose (the caller keeps it).
     */
    static FileChannel lock(Path dir) throws IOException {
        FileChannel ch = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            for (int tries = 0; ; tries++) {
                try {
                    ch.lock();
                    break;
                } catch (OverlappingFileLockException e) {
                    // another class loader's removeStale in this JVM is checking this file: it lets go at once
                    if (tries == 10_000) {
                        throw e;
                    }
                    Thread.yield();
                }
            }
            // the mark that the file was locked: until it is written, the file is free but its JVM lives (see unused)
            ch.write(ByteBuffer.wrap(LOCKED_MARK));
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    /**
     * Deletes the extraction folders in {@code base} that earlier JVMs of {@code owner} left behind: names of this
     * class's pattern, other than {@code keep}, that are real private folders of {@code owner} and whose
     * {@value #LOCK} file no process holds and that {@link #lock} marked (its JVM has ended; an unmarked one only
     * when last modified before {@code unlockedBefore}); without a lock file, those holding files (their JVM
     * ended and deleted the lock file at exit, or an older loader made them) or last modified before
     * {@code unlockedBefore} (empty: a JVM died before locking it). Only their
     * direct entries are deleted (symbolic links are removed, never followed). Anything that cannot be deleted (a
     * library another process still maps) is left for a later JVM. Process ids are not used: Wine and containers
     * reuse them.
     *
     * @return how many folders were deleted
     */
    static int removeStale(Path base, UserPrincipal owner, Path keep, FileTime unlockedBefore) {
        int removed = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(base, PREFIX + "*")) {
            for (Path dir : ds) {
                if (!NAME.matcher(dir.getFileName().toString()).matches() || dir.equals(keep)
                        || whyNotPrivate(dir, owner) != null || !unused(dir, unlockedBefore)) {
                    continue;
                }
                try {
                    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
                        for (Path f : files) {
                            Files.delete(f);
                        }
                    }
                    Files.delete(dir);
                    removed++;
                } catch (IOException | RuntimeException e) {
                    // in use or changed meanwhile: a later JVM tries again
                }
            }
        } catch (IOException | RuntimeException e) {
            // base unreadable: nothing to clean
        }
        return removed;
    }

    /**
     * Whether no live JVM uses {@code dir}: its lock file is free and marked (or old), or it has none and is old.
     * One read of the folder decides which: a check for the lock file before the listing could miss a lock file
     * made between the two and take the new folder for one with libraries and no lock.
     */
    private static boolean unused(Path dir, FileTime unlockedBefore) throws IOException {
        boolean entries = false;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path e : ds) {
                if (e.getFileName().toString().equals(LOCK)) {
                    return lockFree(e, unlockedBefore);
                }
                entries = true;
            }
        }
        // libraries but no lock: its JVM ended and deleted the lock file at exit (the libraries it could not:
        // Windows), or an older loader made it (a JVM makes its lock file first). Empty and new: another JVM may be
        // about to lock it
        return entries || Files.getLastModifiedTime(dir, LinkOption.NOFOLLOW_LINKS).compareTo(unlockedBefore) < 0;
    }

    /** Whether the lock file {@code lock} marks an ended JVM's folder (see {@link #lock}). */
    private static boolean lockFree(Path lock, FileTime unlockedBefore) throws IOException {
        if (!Files.isRegularFile(lock, LinkOption.NOFOLLOW_LINKS)) {
            return false; // not a lock file this class made: leave the folder alone
        }
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
             FileLock l = ch.tryLock()) {
            if (l == null) {
                return false; // held by a live JVM
            }
            // free: its JVM has ended once it had locked it (the mark is written); an empty lock file is one that its
            // JVM may have just created and not locked yet, unless it is old (that JVM died in between)
            return ch.size() > 0
                    || Files.getLastModifiedTime(lock, LinkOption.NOFOLLOW_LINKS).compareTo(unlockedBefore) < 0;
        } catch (OverlappingFileLockException e) {
            return false; // held by this JVM
        }
    }
}
