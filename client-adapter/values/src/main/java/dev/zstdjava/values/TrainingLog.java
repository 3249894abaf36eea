package dev.zstdjava.values;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The training counters and the most recent {@value #MAX_EVENTS} training events of a {@link DictionaryManager}.
 *
 * <p><b>Thread safety:</b> lock-free. The events are an immutable list replaced by compare-and-set; the counters are
 * {@link LongAdder}s. Each event is recorded before its counter is incremented, and {@link #stats} reads the counters
 * before the events, so every count a reader sees has its event.
 */
final class TrainingLog {
    private static final System.Logger LOG = System.getLogger(DictionaryManager.class.getName());
    static final int MAX_EVENTS = 64;

    private final AtomicReference<List<TrainingEvent>> events = new AtomicReference<>(List.of());
    private final LongAdder trained = new LongAdder();
    private final LongAdder adopted = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder failed = new LongAdder();

    /** Records an event of {@code kind} and counts it; logs it (failures as warnings). */
    void record(TrainingEvent.Kind kind, long id, int samples, double before, double after, String reason) {
        TrainingEvent e = new TrainingEvent(Instant.now(), kind, id, samples, before, after, reason);
        events.updateAndGet(list -> {
            List<TrainingEvent> next = new ArrayList<>(Math.min(list.size() + 1, MAX_EVENTS));
            next.addAll(list.size() == MAX_EVENTS ? list.subList(1, MAX_EVENTS) : list);
            next.add(e);
            return List.copyOf(next);
        });
        switch (kind) { // counters after events: whoever sees a count sees its event
            case TRAINED -> trained.increment();
            case ADOPTED -> adopted.increment();
            case REJECTED -> rejected.increment();
            case FAILED -> failed.increment();
        }
        System.Logger.Level lvl = kind == TrainingEvent.Kind.FAILED ? System.Logger.Level.WARNING
                : System.Logger.Level.INFO;
        LOG.log(lvl, "zstd dictionary training: " + kind + " " + (id == 0 ? "" : "id " + id + " ") + reason);
    }

    /** @return the counters and recent events, with {@code samplesHeld} as the reservoir's size */
    TrainingStats stats(int samplesHeld) {
        long t = trained.sum();
        long a = adopted.sum();
        long r = rejected.sum();
        long f = failed.sum();
        return new TrainingStats(t, a, r, f, samplesHeld, events.get());
    }
}
