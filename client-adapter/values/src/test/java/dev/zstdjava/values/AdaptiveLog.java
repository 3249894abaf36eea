package dev.zstdjava.values;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records the adaptive compressor's logger ({@code dev.zstdjava.values.AdaptiveCompressor}, a
 * {@link System.Logger}: here, JUL) publishes while this is open, those {@code kept} keeps; for the tests that check
 * what it logs.
 */
final class AdaptiveLog implements AutoCloseable {
    private final Logger log = Logger.getLogger(AdaptiveCompressor.class.getName());
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler;

    AdaptiveLog(Predicate<LogRecord> kept) {
        handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (kept.test(r)) {
                    records.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(handler);
    }

    /** @return the records kept so far (a live, thread-safe list) */
    List<LogRecord> records() {
        return records;
    }

    @Override
    public void close() {
        log.removeHandler(handler);
    }
}
