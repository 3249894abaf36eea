package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded reservoir of values written (reservoir sampling, algorithm R): every value offered since the last
 * {@link #reset()} has the same chance to be held, whatever its size. Bounded in count, in total bytes, per sample
 * (longer values contribute their first bytes, and the sample keeps the value's whole length) and in bytes copied per
 * second.
 *
 * <p><b>No bound depends on a value's size</b>, so the samples stand for the values written by count, and a check
 * that counts each sample at its value's whole length stands for them by bytes. When the samples held pass the byte
 * bound, held samples drawn at random (any of them, the new one too) are dropped until they are within it, and the
 * reservoir holds no more than that many from then on ({@link #limit()}): a random part of a random sample is one.
 * The byte rate is a budget that may run into debt by one sample: a value is copied while the budget is positive,
 * whatever its size, and its bytes are then taken from it. (Refusing a value too large for what is left of a bound
 * keeps the small ones: on a mix of 250 B records and 30 KiB pages the samples became mostly records.)
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
    // the samples held are slots[0, held), each with its value's whole length
    private final byte[][] slots;
    private final long[] lengths;
    private volatile boolean collecting;
    // how many samples the reservoir keeps: the capacity, less once the byte bound has dropped some
    private volatile int limit;
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
        this.limit = capacity;
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
        // the n-th value is kept with the chance limit / n, in a slot drawn at random once the reservoir is full
        long draw = ThreadLocalRandom.current().nextLong(n);
        if (draw >= limit) {
            return;
        }
        int len = (int) Math.min(value.byteSize(), maxSampleSize);
        synchronized (this) {
            long now = System.nanoTime();
            budget = refill(budget, now - budgetAt, bytesPerSecond);
            budgetAt = now;
            if (budget <= 0) {
                return;
            }
            int slot;
            if (held < limit) {
                slot = held++;
            } else if (draw < limit) {
                slot = (int) draw;
            } else {
                return; // the limit fell since the draw
            }
            budget -= len;
            byte[] copy = new byte[len];
            MemorySegment.copy(value, ValueLayout.JAVA_BYTE, 0, copy, 0, len);
            heldBytes += len - (slots[slot] == null ? 0 : slots[slot].length);
            slots[slot] = copy;
            lengths[slot] = value.byteSize();
            if (heldBytes > maxBytes) {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (heldBytes > maxBytes) {
                    int drop = random.nextInt(held);
                    heldBytes -= slots[drop].length;
                    held--;
                    slots[drop] = slots[held];
                    lengths[drop] = lengths[held];
                    slots[held] = null;
                }
                limit = held;
            }
        }
    }

    /**
     * @return the byte budget after {@code elapsedNanos} at {@code bytesPerSecond}, at most a second's worth (worked
     *         out in floating point: the product in a {@code long} overflowed after pauses of 2.4 hours at 1 MiB/s,
     *         and left the budget in debt for hours)
     */
    static long refill(long budget, long elapsedNanos, long bytesPerSecond) {
        return (long) Math.min(bytesPerSecond, budget + Math.max(0, elapsedNanos) * (double) bytesPerSecond / 1e9);
    }

    synchronized int size() {
        return held;
    }

    synchronized long bytes() {
        return heldBytes;
    }

    /**
     * @return how many samples the reservoir keeps now: its capacity, or fewer once the byte bound has dropped some
     *         (it then holds this many as long as values come)
     */
    int limit() {
        return limit;
    }

    /** @return the samples held now (the arrays themselves; the reservoir stops referencing them on reset) */
    synchronized List<Sample> samples() {
        List<Sample> out = new ArrayList<>(held);
        for (int i = 0; i < held; i++) {
            out.add(new Sample(slots[i], lengths[i]));
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
        Arrays.fill(slots, null);
        held = 0;
        heldBytes = 0;
        limit = capacity;
        seen.set(0);
    }
}
