package dev.zstdjava.cli;

import java.util.List;

/**
 * What a value costs in the server's memory, to project a change of stored sizes onto {@code MEMORY USAGE}: the
 * allocator's size classes (jemalloc: 4 per doubling above 64 bytes, 16-byte steps below 128; a server built with
 * libc malloc, as {@code INFO memory} says in {@code mem_allocator}: 16-byte steps), strings as {@code embstr} up to 44 bytes (one
 * allocation with the object header) and {@code raw} above (a separate SDS string), hashes as a listpack while they
 * have at most {@code hash-max-listpack-entries} entries of at most {@code hash-max-listpack-value} bytes, a hash
 * table otherwise. Estimates of the allocations that change with the value's size; the rest of a key's memory (its
 * name, its dictionary entry) is the same before and after. Stateless and thread-safe.
 */
final class MemoryModel {
    private final boolean jemalloc;
    private final long listpackEntries;
    private final long listpackValue;

    /**
     * @param jemalloc        whether the server allocates with jemalloc (else libc malloc)
     * @param listpackEntries the server's {@code hash-max-listpack-entries}; {@code listpackValue} its value limit
     */
    MemoryModel(boolean jemalloc, long listpackEntries, long listpackValue) {
        this.jemalloc = jemalloc;
        this.listpackEntries = listpackEntries;
        this.listpackValue = listpackValue;
    }

    /** @return the allocator's usable size for a request of {@code n} bytes */
    long allocation(long n) {
        return jemalloc ? jemallocClass(n) : Math.max(24, (n + 8 + 15) / 16 * 16 - 8);
    }

    /** Rounds an allocation of {@code n} bytes up to jemalloc's size class. */
    static long jemallocClass(long n) {
        if (n <= 8) {
            return 8;
        }
        if (n <= 16) {
            return 16;
        }
        long k = Long.highestOneBit(n - 1);
        long step = Math.max(16, k / 4);
        return (n + step - 1) / step * step;
    }

    /** @return bytes of an SDS string header for a string of {@code len} bytes */
    static long sdsHeader(long len) {
        return len < 256 ? 3 : len < 65536 ? 5 : 9;
    }

    /** @return the memory a string value of {@code len} bytes takes: embstr up to 44 bytes, else object + SDS */
    long string(long len) {
        if (len <= 44) {
            return allocation(16 + 3 + len + 1);
        }
        return 16 + allocation(sdsHeader(len) + len + 1);
    }

    /**
     * @param sizes   the sampled fields' and values' sizes, as {field, value} pairs
     * @param entries the hash's number of fields (HLEN); the sample is scaled to it
     * @return the memory the hash's entries take in the encoding the server would choose for these sizes
     */
    long hash(List<long[]> sizes, long entries) {
        if (sizes.isEmpty()) {
            return 0;
        }
        double scale = (double) entries / sizes.size();
        boolean listpack = entries <= listpackEntries;
        for (long[] fv : sizes) {
            listpack &= fv[0] <= listpackValue && fv[1] <= listpackValue;
        }
        double total = 0;
        if (listpack) {
            for (long[] fv : sizes) {
                total += listpackEntry(fv[0]) + listpackEntry(fv[1]);
            }
            return allocation((long) (7 + total * scale));
        }
        for (long[] fv : sizes) {
            // a hash-table entry, the field and the value each in their own allocation
            total += 32 + allocation(sdsHeader(fv[0]) + fv[0] + 1) + allocation(sdsHeader(fv[1]) + fv[1] + 1);
        }
        long buckets = Long.highestOneBit(Math.max(1, entries - 1)) * 2;
        return (long) (total * scale) + allocation(8 * buckets);
    }

    /** @return bytes of one listpack entry holding {@code n} bytes of a string: encoding, data, back length */
    static long listpackEntry(long n) {
        long head = n < 64 ? 1 : n < 4096 ? 2 : 5;
        long body = head + n;
        return body + (body < 128 ? 1 : body < 16384 ? 2 : body < 2097152 ? 3 : 4);
    }
}
