package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded reservoir of values written (reservoir sampling, algorithm R): every value offered since the last
 * {@link #reset()} has the same chance to be held. Bounded in count, in total bytes, per sample (longer values
 * contribute their first bytes, and the sample keeps the value's whole length) and in bytes copied per second.
 *
 * <p><b>Thread safety:</b> thread-safe. {@link #offer} is called on the write path: when not collecting it reads one
 * volatile field; otherwise it draws one random number and, only for the values it keeps, copies them under a lock
 * (the only allocation, bounded by the byte rate).
 */
final class Sampler {
    private final int capacity;
    private final long maxBytes;
    private final int maxSampleSize;
    private final long bytesPerSecond;
    private final AtomicLong seen = new AtomicLong();
    private final byte[][] slots;
    private final long[] lengths;
    private volatile boolean collecting;
    private int held;
    private long heldBytes;
    private long budget;
    private long budgetAt = System.nanoTime();

    Sampler(int capacity, long maxBytes, int maxSampleSize, long bytesPerSecond) {
        this.capacity = capacity;
        this.maxBytes = maxBytes;
        this.maxSampleSize = maxSampleSize;
        this.bytesPerSecond = bytesPerSecond;
        this.slots = new byte[capacity][];
        this.lengths = new long[capacity];
        this.budget = bytesPerSecond;
    }

    boolean collecting() {
        return collecting;
    }

    void collecting(boolean on) {
        collecting = on;
    }

    void offer(MemorySegment value) {
        if (!collecting) {
            return;
        }
        long n = seen.incrementAndGet();
        long slot = n <= capacity ? n - 1 : ThreadLocalRandom.current().nextLong(n);
        if (slot >= capacity) {
            return;
        }
        int len = (int) Math.min(value.byteSize(), maxSampleSize);
        synchronized (this) {
            long now = System.nanoTime();
            budget = Math.min(bytesPerSecond, budget + (now - budgetAt) * bytesPerSecond / 1_000_000_000L);
            budgetAt = now;
            byte[] old = slots[(int) slot];
            long after = heldBytes + len - (old == null ? 0 : old.length);
            if (budget < len || after > maxBytes) {
                return;
            }
            budget -= len;
            byte[] copy = new byte[len];
            MemorySegment.copy(value, ValueLayout.JAVA_BYTE, 0, copy, 0, len);
            slots[(int) slot] = copy;
            lengths[(int) slot] = value.byteSize();
            heldBytes = after;
            if (old == null) {
                held++;
            }
        }
    }

    synchronized int size() {
        return held;
    }

    synchronized long bytes() {
        return heldBytes;
    }

    /** @return the samples held now (the arrays themselves; the reservoir stops referencing them on reset) */
    synchronized List<Sample> samples() {
        List<Sample> out = new ArrayList<>(held);
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != null) {
                out.add(new Sample(slots[i], lengths[i]));
            }
        }
        return out;
    }

    /**
     * One value held.
     *
     * @param bytes  the value, or its first {@code maxSampleSize} bytes when it is longer
     * @param length the value's whole length, at least {@code bytes.length}
     */
    record Sample(byte[] bytes, long length) {}

    /** Empties the reservoir; the next values offered start a new sample. */
    synchronized void reset() {
        java.util.Arrays.fill(slots, null);
        held = 0;
        heldBytes = 0;
        seen.set(0);
    }
}
