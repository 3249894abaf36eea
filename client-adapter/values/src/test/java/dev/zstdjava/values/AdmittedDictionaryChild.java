package dev.zstdjava.values;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static dev.zstdjava.values.AdaptivePatternDictionariesTest.RECORDS;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.utf8;

/**
 * The program {@link AdmittedDictionaryRaceTest} runs under {@code HoldingDebugger} ({@code src/test/jdi}): pattern
 * {@code a}'s lineage, over in-memory stores, is open and its pattern writes with its dictionary; another process
 * publishes a second dictionary in the lineage's store, announced, so the lineage's loading thread loads it and makes
 * it current, and is held by the debugger there, before it calls the manager's listeners. Meanwhile the main thread
 * writes values of the pattern until one is written with the second dictionary and reads it back through the adaptive
 * compressor's reader. With the argument {@code given}, the same with a manager the application gives for the
 * pattern ({@link AdaptiveCompressor.Builder#dictionaries(java.util.function.Function)}). Prints {@code read back} or
 * {@code missing: } and the read's exception message.
 */
public final class AdmittedDictionaryChild {
    private static final long FIRST = 1_000_031;
    private static final long SECOND = 1_000_032;

    private AdmittedDictionaryChild() {
    }

    /** @param args {@code given} for a manager the application gives for the pattern, else a lineage */
    public static void main(String[] args) throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        InMemoryDictionaryStore a = stores.computeIfAbsent("a:*", n -> new InMemoryDictionaryStore());
        a.putIfAbsent(FIRST, trained(FIRST, RECORDS.subList(0, 1000)));
        byte[] second = trained(SECOND, RECORDS.subList(1000, 2000));
        java.util.function.UnaryOperator<DictionaryManager.Builder> settings = b -> AdaptivePatternDictionariesTest
                .quick(b).minImprovement(1) // adopts no training
                .loadTimeout(Duration.ofSeconds(30)).refreshInterval(Duration.ofHours(1))
                .notifications(true); // the second dictionary loads on its announcement, on the loading thread
        if (args.length > 0 && args[0].equals("given")) {
            try (DictionaryManager m = settings.apply(DictionaryManager.shared(a)).build()) {
                AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults()).sampling(64, 2, 4)
                        .window(8, 4).hysteresis(1, 0.01, 0.2).dictionaries(p -> p.equals("a:*") ? m : null).build();
                run(ac, () -> m, a, second);
            }
            return;
        }
        try (PatternDictionaries pd = AdaptivePatternDictionariesTest.inMemory(stores).manager(settings).build()) {
            AdaptiveCompressor ac = AdaptivePatternDictionariesTest.compressor(pd);
            run(ac, () -> pd.manager("a:*"), a, second);
        }
    }

    /** Puts pattern a on its first dictionary, publishes the second, and reads a value written with it. */
    private static void run(AdaptiveCompressor ac, java.util.function.Supplier<DictionaryManager> manager,
                            InMemoryDictionaryStore a, byte[] second)
            throws Exception {
        AdaptivePatternDictionariesTest.writeUntilOnDictionaries(ac, List.of("a"), new ConcurrentHashMap<>());
        long current = manager.get().currentId();
        if (current != FIRST) {
            throw new IllegalStateException("a writes with " + current + ", not " + FIRST);
        }
        armHold();
        a.putIfAbsent(SECOND, second); // by another process: announced, loaded on a's loading thread
        awaitHeld(); // that thread has made it current and is held before it calls the listeners
        try {
            byte[][] v = writtenWith(ac, SECOND);
            byte[] read = ac.reader().decompress(v[1]);
            System.out.println(java.util.Arrays.equals(read, v[0]) ? "read back" : "read other bytes");
        } catch (MissingDictionaryException x) {
            System.out.println("missing: " + x.getMessage());
        } finally {
            releaseHeld();
        }
    }

    /** @return a value of pattern a written with dictionary {@code id}, and what was stored */
    private static byte[][] writtenWith(AdaptiveCompressor ac, long id) {
        for (int i = 0; i < 100_000; i++) {
            byte[] value = RECORDS.get(i % RECORDS.size());
            byte[] stored = ac.compress(utf8("a:" + i), value);
            if (stored.length > ValueFormat.HEADER_SIZE && stored[0] == 0
                    && AdaptiveDictionaryReaderTest.frameId(stored) == id) {
                return new byte[][] {value, stored};
            }
        }
        throw new IllegalStateException("no value of a written with " + id);
    }

    private static byte[] trained(long id, List<byte[]> samples) {
        return dev.zstdjava.zstd.ZstdDictionary.trainer(4096).dictionaryId(id).train(samples).toByteArray();
    }

    /** The debugger sets its breakpoint in the loading thread here. */
    static void armHold() {
    }

    /** The debugger holds the caller here until the loading thread is held. */
    static void awaitHeld() {
    }

    /** The debugger lets the loading thread go on here. */
    static void releaseHeld() {
    }
}
