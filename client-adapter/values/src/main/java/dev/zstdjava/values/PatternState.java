package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * One pattern's adaptive decision: the option its writes use now, and how it changes. Sampled writes
 * ({@link AdaptiveSettings#sampled}) are written with every candidate option on the calling thread, each timed, into
 * its {@link OptionMeasurements} (the measuring code {@code zstd-values advise} uses too); after each sample the goal's
 * rule ({@link CompressionGoal#decide}) runs on the window with the option in use favoured by the margins, and the
 * pattern switches only when another option wins {@code switchAfter} evaluations in a row (hysteresis), to the latest
 * winner. Until {@code minSamples} samples it keeps its default; the default is not a decision, so the first evaluation
 * takes the rule's pick at once, without margins or hysteresis; so does the first evaluation on a full window
 * ({@code window} samples), when the first was made on fewer: a decision on {@code minSamples} samples is
 * provisional, and the margins would keep it even where the full window favours another option. A settled pattern
 * measures fewer of its sampled writes ({@link #BACK_OFF}), and measures again at {@code sampleEvery} as soon as its
 * writes {@linkplain #DRIFT drift}. A plain pattern's sampled write (its re-probe) is first compressed with
 * {@link #PROBE} alone, and measured only if that saves anything. A pattern whose dictionary is gone leaves the
 * dictionary option at its next sampled write, without hysteresis, and does not take it again (on the samples its
 * window still holds of it) until it is ready again. A switch is logged (logger
 * {@code dev.zstdjava.values.AdaptiveCompressor}, level INFO).
 *
 * <p><b>Thread safety:</b> thread-safe. A write reads the decision in use (one volatile read of an immutable record:
 * its option, saving and time, so {@link #decision} is always one decision, never a switch's new option with the old
 * one's saving or time), counts itself (one atomic
 * add) and, when its option compresses, adds its bytes to the drift figure (plain fields, racy by design: see
 * {@link #RECENT_WRITES}); a sampled write takes the pattern's lock with {@code tryLock}, so when another thread is sampling the pattern
 * it is written as an ordinary one, and no write waits. Under the lock it reads the option in use again and samples
 * with that one, so a switch another sampler made after this write's first read is not made, counted or logged a
 * second time (the first read only chose whether the write is sampled). The lock is a {@link ReentrantLock}: virtual threads do not
 * pin. <b>Allocation:</b> an ordinary write allocates nothing beyond what its option's compressor returns (a plain
 * write: nothing); a sampled write also allocates each candidate's stored form (twice: {@link OptionMeasurements}) and
 * its evaluation the decision's record; a switch allocates its time and the log line.
 */
final class PatternState {
    private static final System.Logger LOG = System.getLogger(AdaptiveCompressor.class.getName());

    private final String pattern;
    private final AdaptiveSettings settings;
    private final OptionWriter writer;
    private final AtomicLong writes = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    // under the lock
    private final OptionMeasurements measurements;
    private int against; // evaluations in a row that took another option
    private boolean measuredDictionary; // whether the latest measurement had the pattern's dictionary ready
    private boolean decided; // whether the rule has decided once (the default option is not a decision)
    private boolean confirmed; // whether it has decided on a full window (a decision on fewer is provisional)
    // written under the lock, read by any thread: the decision, replaced whole, so a reader never pairs one
    // decision's option with another's saving or time
    private volatile Current current;
    private volatile long switches;
    // when the pattern was first written (until then, when this state was made: a listed pattern's and "other"'s are
    // made with the table); the decision's time while it has never changed
    private volatile Instant firstSeen;
    // one measured write in this many, from settings.sampleEvery() up to BACK_OFF times it; written by any thread
    private volatile int every;
    // the decayed bytes of the recent ordinary writes, in and stored (RECENT_WRITES); written by any thread without
    // synchronisation: an update lost to a race moves the figure a write later, and the figure only decides when to
    // measure, never what is written (the library's platforms are all 64-bit, where a double is written whole)
    private double recentIn;
    private double recentOut;

    private final OptionCounters counters;

    /**
     * A plain pattern's re-probe tries this option first, and measures the others only when it stores the value in
     * fewer bytes (or the pattern has a dictionary): on data that still does not compress, such as random tokens or
     * gzip blobs, a re-probe costs one fast compression instead of one per option. zstd 1, not lz4 or zstd -1: it
     * codes literals with Huffman, so text that only entropy coding shrinks (base64) is seen too.
     */
    static final CompressionOption PROBE = CompressionOption.ZSTD_1;

    /**
     * A settled pattern measures fewer of its sampled writes: after each evaluation that keeps the option in use on a
     * full window, the interval between measured writes doubles, up to this many times {@code sampleEvery}. The
     * writes in between still feed the pattern's dictionary training. It does not back off while an option that is
     * ready has too few measurements in the window to be weighed (a new dictionary). It returns to {@code sampleEvery} at once when an
     * evaluation picks another option, the pattern switches, its dictionary becomes ready or goes, or its writes
     * {@linkplain #DRIFT drift}. With the default {@code sampleEvery} a settled pattern measures one write in 4,096:
     * a measured write compresses the value twice with each option, the first call with cold caches, some 15 to 30
     * times an ordinary write's work at 128 bytes, so its samples cost under 1% of the pattern's writes (one in 512
     * cost some 3%, half of what zstd 1 saves on zstd 3 there).
     */
    static final int BACK_OFF = 64;

    /**
     * A pattern's writes drift when what its recent ordinary writes save ({@link #RECENT_WRITES}) is this far from the
     * window's figure for the option in use: its data may have changed, so measuring returns to {@code sampleEvery}.
     */
    static final double DRIFT = 0.1;

    /**
     * How many ordinary writes the drift figure is about: their stored bytes saved as a fraction of their bytes, each
     * write weighing its bytes, and every weight decaying by {@code 1 / RECENT_WRITES} at each later write. So one
     * odd value (a small record that saves little, a tile that does not compress) does not send a settled pattern
     * back to measuring at the base rate, while data that stops compressing does within a few writes (from 85% saved
     * to values stored as they are: the fourth such write; from 50%: the eighth).
     */
    static final int RECENT_WRITES = 32;
    private static final double RECENT_DECAY = 1 - 1.0 / RECENT_WRITES;

    PatternState(String pattern, AdaptiveSettings settings, OptionWriter writer, LongSupplier nanoClock,
                 OptionCounters counters) {
        this.pattern = pattern;
        this.counters = counters;
        this.settings = settings;
        this.writer = writer;
        this.measurements = new OptionMeasurements(writer, null, settings.window(), nanoClock);
        this.current = new Current(settings.defaultOption(), 0, null);
        this.firstSeen = Instant.now();
        this.every = settings.sampleEvery();
    }

    /** @return the stored form of {@code value}, a value of this pattern, as the pattern's decision writes it */
    byte[] store(byte[] value) {
        long n = writes.getAndIncrement();
        if (n == 0) {
            firstSeen = Instant.now();
        }
        CompressionOption now = current.option();
        if (settings.sampled(n, now) && lock.tryLock()) {
            try {
                return sample(value, current.option(), n); // read again: another sampler may have switched since
            } finally {
                lock.unlock();
            }
        }
        return write(now, value);
    }

    /**
     * As {@link #store(byte[])}, from {@code value} into the start of {@code dst} (at least {@code value.byteSize()}
     * bytes); an ordinary write makes no copy of the value, a sampled one works on a copy.
     *
     * @return the bytes written to {@code dst}
     */
    long store(MemorySegment value, MemorySegment dst) {
        long n = writes.getAndIncrement();
        if (n == 0) {
            firstSeen = Instant.now();
        }
        CompressionOption now = current.option();
        if (settings.sampled(n, now) && lock.tryLock()) {
            byte[] out;
            try {
                out = sample(value.toArray(ValueLayout.JAVA_BYTE), current.option(), n); // read again, as above
            } finally {
                lock.unlock();
            }
            MemorySegment.copy(out, 0, dst, ValueLayout.JAVA_BYTE, 0, out.length);
            return out.length;
        }
        long size = value.byteSize();
        CompressionOption option = stored(now, ValueFormat.hasHeader(value));
        long out;
        if (option.compresses()) {
            out = writer.store(option, value, dst);
            drift(size, out);
            if (option.dictionary() && !withDictionary(dst, out)) {
                option = WITHOUT_DICTIONARY;
            }
        } else {
            MemorySegment.copy(value, 0, dst, 0, size);
            out = size;
        }
        counters.count(option, size, out);
        return out;
    }

    private byte[] write(CompressionOption option, byte[] value) {
        option = stored(option, value.length >= ValueFormat.HEADER_SIZE
                && value[0] == 0x00 && value[1] == 0x01 && value[2] == 0x02);
        byte[] out = value;
        if (option.compresses()) {
            out = writer.store(option, value);
            drift(value.length, out.length);
            if (option.dictionary() && !withDictionary(out)) {
                option = WITHOUT_DICTIONARY;
            }
        }
        counters.count(option, value.length, out.length);
        return out;
    }

    /**
     * What the dictionary option writes with while the pattern's dictionary is gone (released, or its manager closed,
     * until the pattern's next sampled write leaves the option): its values are counted under it, as written.
     */
    private static final CompressionOption WITHOUT_DICTIONARY = CompressionOption.ZSTD_3;
    private static final int FRAME_AT = ValueFormat.HEADER_SIZE;
    private static final int ZSTD_MAGIC = 0xFD2FB528;

    /**
     * @return whether {@code stored}, a stored form the dictionary option wrote, is a zstd frame naming a dictionary
     *         (its frame header's dictionary id field is present), or a value stored as it is (counted under the option
     *         that stored it, as every option's); false for a frame written without one. Allocates nothing.
     */
    private static boolean withDictionary(byte[] stored) {
        return stored.length <= FRAME_AT + 4 || !ValueFormat.hasHeader(stored)
                || (int) ValueFormat.LE_INT_IN_ARRAY.get(stored, FRAME_AT) != ZSTD_MAGIC
                || (stored[FRAME_AT + 4] & 3) != 0;
    }

    /** As {@link #withDictionary(byte[])}, of the {@code length} bytes at the start of {@code stored}. */
    private static boolean withDictionary(MemorySegment stored, long length) {
        return length <= FRAME_AT + 4 || !ValueFormat.hasHeader(stored)
                || stored.get(ValueFormat.LE_INT, FRAME_AT) != ZSTD_MAGIC
                || (stored.get(ValueLayout.JAVA_BYTE, FRAME_AT + 4) & 3) != 0;
    }

    /**
     * Counts an ordinary write of {@code in} bytes stored in {@code out} into the recent writes' figure, and returns
     * measuring to {@code sampleEvery} when that figure {@link #DRIFT drifts}. Allocates nothing; no division.
     */
    private void drift(long in, long out) {
        double recentIn = this.recentIn * RECENT_DECAY + in;
        double recentOut = this.recentOut * RECENT_DECAY + Math.min(in, out);
        this.recentIn = recentIn;
        this.recentOut = recentOut;
        int base = settings.sampleEvery();
        if (every != base && Math.abs(recentIn - recentOut - current.saved() * recentIn) > DRIFT * recentIn) {
            every = base;
        }
    }

    /**
     * @return the option a value is written with under {@code option}: a value stored as it is that a reader would take
     *         for a compressed one ({@code looksCompressed}: it starts as the header does) is written as the fixed
     *         mode writes it
     */
    private CompressionOption stored(CompressionOption option, boolean looksCompressed) {
        if (!option.compresses() && looksCompressed) {
            return settings.defaultOption().compresses() ? settings.defaultOption() : CompressionOption.ZSTD_3;
        }
        return option;
    }

    private byte[] sample(byte[] value, CompressionOption now, long n) {
        writer.sampled(value);
        if (now.dictionary() && !writer.ready(now)) {
            now = dictionaryGone(now);
        }
        boolean dictionary = writer.ready(CompressionOption.ZSTD_3_DICTIONARY);
        if (now.compresses() && n >= settings.firstWrites() && !AdaptiveSettings.multiple(n, every) && dictionary == measuredDictionary) {
            return write(now, value); // a settled pattern's write between two measured ones
        }
        if (dictionary != measuredDictionary) {
            every = settings.sampleEvery(); // a dictionary came or went: measure at the base rate again
        }
        measuredDictionary = dictionary;
        if (now == CompressionOption.PLAIN && !writer.ready(CompressionOption.ZSTD_3_DICTIONARY)
                && writer.store(PROBE, value) == value) {
            // a plain pattern's re-probe, and its data still does not compress at all: nothing to measure
            return write(now, value);
        }
        byte[] out = measurements.sample(value, now, null, settings);
        evaluate(now, dictionary);
        if (out == null) {
            return write(now, value);
        }
        counters.count(now.dictionary() && !withDictionary(out) ? WITHOUT_DICTIONARY : now, value.length, out.length);
        return out;
    }

    /**
     * The pattern's dictionary was released (or its manager lost its dictionary): leave the dictionary option at once,
     * without hysteresis, for the best option without one the window holds (the default option when none qualifies).
     */
    private CompressionOption dictionaryGone(CompressionOption now) {
        measurements.fill();
        measurements.exclude(now);
        CompressionOption pick = measurements.values() == 0 ? settings.defaultOption()
                : measurements.decide(settings.goal(), null, 0, 0);
        switchTo(now, pick, "its dictionary is no longer available");
        return pick;
    }

    /** @param dictionary whether the pattern's dictionary is ready: if not, the window's figures of it are not used */
    private void evaluate(CompressionOption now, boolean dictionary) {
        Current c = current; // its option is now: this sampler holds the lock
        current = new Current(now, measurements.saved(now), c.since());
        if (measurements.values() < settings.minSamples()) {
            return;
        }
        measurements.fill();
        if (!dictionary) {
            measurements.exclude(CompressionOption.ZSTD_3_DICTIONARY); // measured while it was there
        }
        if (!decided || !confirmed && measurements.values() >= settings.window()) {
            // the first decision: the default option was never chosen, so it gets no margin and no hysteresis; nor
            // does the first on a full window, which confirms or replaces the one made on fewer samples
            String which = decided ? "its decision on a full window" : "its first decision";
            decided = true;
            confirmed = measurements.values() >= settings.window();
            CompressionOption first = measurements.decide(settings.goal(), null, 0, 0);
            if (first != now) {
                switchTo(now, first, settings.goal().kind() + ", " + which + "; over the first "
                        + measurements.values() + " sampled writes: " + measured(first) + "; " + measured(now));
            }
            against = 0; // a decision without margins: the evaluations before it that took another option are moot
            return;
        }
        CompressionOption pick = measurements.decide(settings.goal(), now, settings.savingMargin(),
                settings.cpuMargin());
        if (pick == now) {
            against = 0;
            if (measurements.values() >= settings.window() && everyReadyOptionMeasured()) {
                every = (int) Math.min(Math.min(2L * every, (long) BACK_OFF * settings.sampleEvery()),
                        Integer.MAX_VALUE);
            }
            return;
        }
        every = settings.sampleEvery();
        if (++against < settings.switchAfter()) {
            return;
        }
        switchTo(now, pick, settings.goal().kind() + "; over the last " + measurements.values() + " sampled writes: "
                + measured(pick) + "; " + measured(now));
    }

    /**
     * Whether the window, as last filled, has figures for every candidate option the writer has ready: a dictionary
     * that became ready is not usable until it has been measured on half the window, and until then the pattern keeps
     * measuring at {@code sampleEvery}, so the dictionary option is weighed within some {@code window / 2} samples.
     */
    private boolean everyReadyOptionMeasured() {
        for (CompressionOption o : CompressionOption.ALL) {
            if (o.compresses() && settings.candidate(o) && writer.ready(o) && !measurements.filledUsable(o)) {
                return false;
            }
        }
        return true;
    }

    /** Takes {@code pick} instead of {@code now}, and logs it with {@code why}. */
    private void switchTo(CompressionOption now, CompressionOption pick, String why) {
        decided = true;
        against = 0;
        every = settings.sampleEvery();
        current = new Current(pick, measurements.saved(pick), Instant.now());
        switches++;
        LOG.log(System.Logger.Level.INFO, () -> "adaptive compression: pattern " + pattern + ": " + now + " -> " + pick
                + " (" + why + ")");
    }

    private String measured(CompressionOption o) {
        return !o.compresses() ? "plain" : !measurements.filledUsable(o) ? o + " not measured"
                : String.format(Locale.ROOT, "%s saves %.1f%% of the stored bytes at %.2f us/KiB", o,
                100 * measurements.filledSaved(o), measurements.filledCpu(o));
    }

    /** @return the option writes use now */
    CompressionOption current() {
        return current.option();
    }

    /** @return how many values of this pattern have been written */
    long writes() {
        return writes.get();
    }

    /** @return how many times the decision has changed */
    long switches() {
        return switches;
    }

    /** @return the pattern's decision now, under {@code name} */
    PatternDecision decision(String name) {
        Current c = current;
        Instant since = c.since() != null ? c.since() : firstSeen;
        return new PatternDecision(name, c.option(), c.saved(), writes.get(), since);
    }

    /**
     * A decision: the option writes use, what it saved over the samples of the latest evaluation, since when it is in
     * use (null while the pattern has never changed its option: then since it was first written,
     * {@link #firstSeen}). Published whole through one volatile field.
     */
    private record Current(CompressionOption option, double saved, Instant since) {}
}
