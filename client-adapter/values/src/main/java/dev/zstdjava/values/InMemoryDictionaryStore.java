package dev.zstdjava.values;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link DictionaryStore} in this JVM's memory: for tests, for one process, and for several
 * {@link DictionaryManager}s of one process that share it. Keeps the same rules as a server store (write-once entries,
 * a publication counter, one lease holder at a time).
 *
 * <p><b>Thread safety:</b> thread-safe (every method synchronizes on the store). <b>Allocation:</b> copies the
 * dictionary bytes in and out.
 */
public final class InMemoryDictionaryStore implements DictionaryStore {
    private final Map<Long, byte[]> entries = new LinkedHashMap<>();
    private final Map<Long, DictionaryInfo> infos = new LinkedHashMap<>();
    private long sequence;
    private String leaseOwner;
    private long leaseUntilNanos;
    private final List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** An empty store. */
    public InMemoryDictionaryStore() {
    }

    @Override
    public synchronized List<DictionaryInfo> list() {
        return new ArrayList<>(infos.values());
    }

    @Override
    public synchronized byte[] get(long id) {
        byte[] b = entries.get(id);
        return b == null ? null : b.clone();
    }

    @Override
    public synchronized DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
        Objects.requireNonNull(dictionary, "dictionary");
        byte[] existing = entries.get(id);
        if (existing != null) {
            if (Arrays.equals(existing, dictionary)) {
                return infos.get(id);
            }
            throw new DictionaryCollisionException(id);
        }
        DictionaryInfo info = new DictionaryInfo(id, ++sequence, dictionary.length);
        entries.put(id, dictionary.clone());
        infos.put(id, info);
        listeners.forEach(Runnable::run);
        return info;
    }

    /**
     * Stores bytes under an id without any check, as a broken or hostile writer could: for tests of what readers do
     * with a corrupt entry.
     */
    public synchronized void putUnchecked(long id, byte[] bytes) {
        entries.put(id, bytes.clone());
        infos.put(id, new DictionaryInfo(id, ++sequence, bytes.length));
        listeners.forEach(Runnable::run);
    }

    /** Calls {@code onPublished} after every publication, on the publishing thread. */
    @Override
    public AutoCloseable subscribe(Runnable onPublished) {
        listeners.add(Objects.requireNonNull(onPublished, "onPublished"));
        return () -> listeners.remove(onPublished);
    }

    @Override
    public synchronized long version() {
        return sequence;
    }

    @Override
    public synchronized boolean tryLease(String owner, Duration ttl) {
        long now = System.nanoTime();
        if (leaseOwner == null || now - leaseUntilNanos > 0) {
            leaseOwner = owner;
            leaseUntilNanos = now + ttl.toNanos();
            return true;
        }
        return false;
    }

    @Override
    public synchronized void releaseLease(String owner) {
        if (owner.equals(leaseOwner)) {
            leaseOwner = null;
        }
    }
}
