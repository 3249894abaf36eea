package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static dev.zstdjava.values.TwoPatterns.b;
import static dev.zstdjava.values.TwoPatterns.blobValue;

/**
 * The program {@link PatternStateRaceTest} runs under {@code HoldingDebugger} ({@code src/test/jdi}): a writer reads a pattern's option,
 * is held there by the debugger (a breakpoint just before the pattern's lock), while the main thread's sampled write
 * makes the pattern's first decision (zstd 3 to plain, random values); then the writer goes on. It prints the pattern's
 * switches and the decisions logged. With the argument {@code segment} the held writer writes through
 * {@link AdaptiveCompressor#compress(byte[], int, int, MemorySegment, MemorySegment)}.
 */
public final class StaleOptionChild {
    private StaleOptionChild() {
    }

    public static void main(String[] args) throws InterruptedException {
        Logger log = Logger.getLogger(AdaptiveCompressor.class.getName());
        List<String> logged = new CopyOnWriteArrayList<>();
        log.addHandler(new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel() == Level.INFO) {
                    logged.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        // every write of the first 64 sampled; the first decision after 8 samples; one evaluation switches
        AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults()).patterns(List.of("blob:*"))
                .sampling(64, 1 << 30, 1 << 30).window(8, 8).hysteresis(1, 0.01, 0.2).build();
        byte[] key = b("blob:1");
        for (int i = 0; i < 7; i++) {
            ac.compress(key, blobValue(i)); // samples 1 to 7: no decision yet
        }
        boolean segment = args.length > 0 && args[0].equals("segment");
        Thread stale = new Thread(() -> {
            byte[] v = blobValue(7);
            if (segment) {
                ac.compress(key, 0, key.length, MemorySegment.ofArray(v), MemorySegment.ofArray(new byte[v.length]));
            } else {
                ac.compress(key, v);
            }
        }, "stale-writer");
        stale.start(); // reads zstd 3, the default, and is held before the lock
        awaitHeld();
        ac.compress(key, blobValue(8)); // the 8th sample: the first decision, zstd 3 -> plain
        releaseHeld();
        stale.join();
        System.out.println("switches=" + ac.state(key).switches() + " option=" + ac.state(key).current()
                + " logged=" + logged.size());
        logged.forEach(System.out::println);
    }

    /** The debugger holds the caller here until the stale writer is held. */
    static void awaitHeld() {
    }

    /** The debugger lets the stale writer go on here. */
    static void releaseHeld() {
    }
}
