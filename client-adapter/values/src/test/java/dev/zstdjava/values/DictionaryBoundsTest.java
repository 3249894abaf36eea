package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.zstdjava.values.DictionaryManagerTest.DICT_A;
import static dev.zstdjava.values.DictionaryManagerTest.DICT_B;
import static dev.zstdjava.values.DictionaryManagerTest.TRAIN;
import static dev.zstdjava.values.DictionaryManagerTest.VALUES;
import static dev.zstdjava.values.DictionaryManagerTest.frameDictId;
import static dev.zstdjava.values.DictionaryManagerTest.id;
import static org.junit.jupiter.api.Assertions.*;

/**
 * A manager's bounds against a store that lists more dictionaries than it should load, and its listeners' failures.
 */
class DictionaryBoundsTest {
    /** {@code DICT_B} with content appended to {@code size} bytes: still a zstd dictionary, of its id. */
    static byte[] grown(int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        out.writeBytes(DICT_B);
        for (int i = 0; out.size() < size; i++) {
            out.writeBytes(TRAIN.get(i % TRAIN.size()));
        }
        return java.util.Arrays.copyOf(out.toByteArray(), size);
    }

    /** {@code dictionary} with {@code id} in its header. */
    static byte[] withId(byte[] dictionary, long id) {
        byte[] d = dictionary.clone();
        MemorySegment.ofArray(d).set(ValueFormat.LE_INT, 4, (int) id);
        return d;
    }

    /** A store in memory that counts the entries read from it. */
    static final class CountingStore extends AdaptivePatternDictionariesTest.Forwarding {
        final AtomicInteger gets = new AtomicInteger();

        CountingStore(InMemoryDictionaryStore inner) {
            super(inner);
        }

        @Override
        public byte[] get(long id) {
            gets.incrementAndGet();
            return super.get(id);
        }
    }

    /** @return {@code value} compressed with {@code dictionary} (its frame names the dictionary) */
    static byte[] writtenWith(byte[] dictionary, byte[] value) {
        try (DictionaryManager m = DictionaryManager.given(dictionary).build()) {
            byte[] w = ValueCompressor.create(CompressionConfig.defaults(), m).compress(value);
            assertEquals(id(dictionary), frameDictId(w));
            return w;
        }
    }

    @Test
    void byDefaultAStoreListingMoreThan64MiBOfDictionariesLoadsOnlyTheNewestWithinIt() {
        byte[] big = grown(256 << 10);
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        int listed = (int) (DictionaryManager.DEFAULT_MAX_LOADED_BYTES / each) + 8; // more than 64 MiB of them
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        List<byte[]> published = new ArrayList<>();
        for (int i = 0; i < listed; i++) {
            byte[] d = withId(big, 100_000 + i);
            inner.putIfAbsent(id(d), d);
            published.add(d);
        }
        CountingStore store = new CountingStore(inner);
        try (DictionaryManager m = DictionaryManager.shared(store).notifications(false).build()) {
            int loaded = m.dictionaryStats().size();
            assertTrue((long) loaded * each <= DictionaryManager.DEFAULT_MAX_LOADED_BYTES,
                    loaded + " dictionaries of an estimated " + each + " native bytes loaded, above the default"
                            + " bound of " + DictionaryManager.DEFAULT_MAX_LOADED_BYTES);
            assertEquals(DictionaryManager.DEFAULT_MAX_LOADED_BYTES / each, loaded, "as many as fit");
            assertEquals(loaded, store.gets.get(), "an entry beyond the bound is not even read");
            byte[] newest = published.get(listed - 1);
            assertEquals(id(newest), m.currentId(), "the newest compresses");
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            assertArrayEquals(VALUES.get(3), vc.decompress(writtenWith(newest, VALUES.get(3))));
            assertArrayEquals(VALUES.get(4), vc.decompress(writtenWith(published.get(listed - loaded),
                    VALUES.get(4))), "the oldest one within the bound reads");
            byte[] oldest = writtenWith(published.get(0), VALUES.get(5));
            MissingDictionaryException e = assertThrows(MissingDictionaryException.class, () -> vc.decompress(oldest));
            assertTrue(e.getMessage().contains("DictionaryManager.Builder.maxLoadedBytes")
                    && e.getMessage().contains("bound of " + DictionaryManager.DEFAULT_MAX_LOADED_BYTES + " bytes")
                    && e.getMessage().contains("retrying the read does not help"), e.getMessage());
        }
    }

    @Test
    void theBoundSetIsKeptAtBuildOnANewPublicationAndOnAReadOfAnOlderValue() throws Exception {
        byte[] big = grown(64 << 10);
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        List<byte[]> published = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            byte[] d = withId(big, 200_000 + i);
            inner.putIfAbsent(id(d), d);
            published.add(d);
        }
        CountingStore store = new CountingStore(inner);
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(2 * each + 1)
                .refreshInterval(java.time.Duration.ofMillis(20)).build()) {
            assertEquals(List.of(id(published.get(2)), id(published.get(3))),
                    m.dictionaryStats().stream().map(DictionaryStats::id).toList(), "the two newest");
            assertEquals(2, store.gets.get());
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            byte[] old = writtenWith(published.get(0), VALUES.get(6));
            for (int i = 0; i < 3; i++) { // the read's fetch does not load it either
                MissingDictionaryException e = assertThrows(MissingDictionaryException.class,
                        () -> vc.decompress(old));
                assertTrue(e.getMessage().contains("bound of " + (2 * each + 1) + " bytes (DictionaryManager.Builder"
                        + ".maxLoadedBytes"), e.getMessage());
                Thread.sleep(1_100); // past the fetch's once-a-second limit
            }
            assertFalse(m.isLoaded(id(published.get(0))));
            byte[] newer = withId(big, 200_010);
            inner.putIfAbsent(id(newer), newer); // a publication beyond the bound is not loaded either
            Thread.sleep(300);
            assertEquals(2, m.dictionaryStats().size());
            assertEquals(id(published.get(3)), m.currentId(), "compresses on with the newest loaded");
            assertEquals(2, store.gets.get(), "nothing beyond the bound was read from the store");
        }
    }

    @Test
    void aManagedManagersOwnNewDictionaryBeyondTheBoundIsSaidInItsAdoptionAndNoValueIsWrittenWithIt()
            throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        try (DictionaryManager m = DictionaryManager.managed(store).minSamples(300).maxLoadedBytes(1)
                .retrainInterval(java.time.Duration.ofMinutes(10)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            List<byte[]> written = new ArrayList<>();
            for (byte[] v : TRAIN) {
                written.add(vc.compress(v));
            }
            DictionaryManagerTest.await("a dictionary adopted", () -> m.trainingStats().adopted() == 1);
            TrainingEvent adopted = m.trainingStats().recent().get(1);
            assertEquals(TrainingEvent.Kind.ADOPTED, adopted.kind());
            assertTrue(adopted.reason().contains("not loaded: ") && adopted.reason().contains("bound of 1 bytes"
                    + " (DictionaryManager.Builder.maxLoadedBytes"), adopted.reason());
            assertEquals(0, m.currentId(), "compresses with none: its only dictionary is beyond the bound");
            assertEquals(List.of(), m.dictionaryStats());
            for (int i = 0; i < VALUES.size(); i += 50) {
                byte[] w = vc.compress(VALUES.get(i));
                assertEquals(0, frameDictId(w));
                assertArrayEquals(VALUES.get(i), vc.decompress(w));
            }
            for (int i = 0; i < written.size(); i += 100) {
                assertArrayEquals(TRAIN.get(i), vc.decompress(written.get(i)));
            }
        }
    }

    @Test
    void aDictionaryTheStoreDoesNotListIsFetchedForARead_OnlyWithinTheBound() throws Exception {
        byte[] big = grown(64 << 10);
        byte[] listed = withId(big, 400_001);
        byte[] hidden = withId(big, 400_002);
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        inner.putIfAbsent(id(listed), listed);
        inner.putIfAbsent(id(hidden), hidden);
        DictionaryStore store = new AdaptivePatternDictionariesTest.Forwarding(inner) {
            @Override
            public List<DictionaryInfo> list() {
                return inner.list().stream().filter(i -> i.id() != id(hidden)).toList();
            }
        };
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(each).build()) {
            assertTrue(m.isLoaded(id(listed)));
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            byte[] w = writtenWith(hidden, VALUES.get(7));
            assertThrows(MissingDictionaryException.class, () -> vc.decompress(w)); // starts the fetch
            DictionaryManagerTest.await("the fetch to find it beyond the bound", () -> {
                try {
                    vc.decompress(w);
                    return false;
                } catch (MissingDictionaryException e) {
                    return e.getMessage().contains("(DictionaryManager.Builder.maxLoadedBytes");
                }
            });
            assertFalse(m.isLoaded(id(hidden)));
            assertEquals(1, m.dictionaryStats().size());
        }
    }

    @Test
    void aBoundBelowOneIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DictionaryManager.shared(new InMemoryDictionaryStore()).maxLoadedBytes(0).build());
        assertTrue(e.getMessage().contains("maxLoadedBytes"), e.getMessage());
    }

    @Test
    void aListenerThatThrowsForDictionariesLoadedBeforeItsRegistrationIsLoggedNotThrown() {
        try (DictionaryManager m = DictionaryManager.given(DICT_A, DICT_B).build()) {
            List<Long> seen = new CopyOnWriteArrayList<>();
            m.onLoaded(id -> {
                seen.add(id);
                throw new IllegalStateException("a listener's failure");
            }); // before the fix, this call threw the listener's exception
            assertEquals(List.of(id(DICT_A), id(DICT_B)), seen, "called for each loaded id despite its failures");
            List<Long> next = new CopyOnWriteArrayList<>();
            m.onLoaded(next::add);
            assertEquals(List.of(id(DICT_A), id(DICT_B)), next);
        }
    }

    @Test
    void aListenerThatThrowsForADictionaryLoadedLaterStopsNeitherTheOthersNorTheLoading() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        try (DictionaryManager m = DictionaryManager.shared(store).build()) {
            List<Long> first = new CopyOnWriteArrayList<>();
            List<Long> second = new CopyOnWriteArrayList<>();
            m.onLoaded(id -> { // registered with nothing loaded: only the path of later loads calls it
                first.add(id);
                throw new IllegalStateException("a listener's failure");
            });
            m.onLoaded(second::add);
            store.putIfAbsent(id(DICT_A), DICT_A);
            DictionaryManagerTest.await("DICT_A loaded", () -> m.isLoaded(id(DICT_A)));
            store.putIfAbsent(id(DICT_B), DICT_B);
            DictionaryManagerTest.await("DICT_B loaded", () -> m.isLoaded(id(DICT_B)));
            DictionaryManagerTest.await("both listeners told", () -> second.size() == 2);
            assertEquals(List.of(id(DICT_A), id(DICT_B)), first);
            assertEquals(List.of(id(DICT_A), id(DICT_B)), second);
            assertEquals(id(DICT_B), m.currentId());
        }
    }
}
