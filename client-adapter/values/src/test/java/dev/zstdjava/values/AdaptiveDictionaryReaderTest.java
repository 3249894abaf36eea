package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.zstdjava.values.AdaptivePatternDictionariesTest.RECORDS;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.compressor;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.foreign;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.inMemory;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.quick;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.readAll;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.utf8;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.writeUntil;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.writeUntilOnDictionaries;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AdaptiveCompressor#reader()} with {@link PatternDictionaries}: the reader every adapter uses fails, in every
 * form, for a dictionary no open lineage loaded, naming it, and fetches one another process published (in a lineage
 * this one opened, or one the id's claim names); never decodes with a released lineage's dictionaries;
 * and writes as a plain {@link ValueCompressor}. (Reading per-pattern values in every form, and a released lineage
 * read once reopened: {@link AdaptivePatternDictionariesTest}.)
 */
class AdaptiveDictionaryReaderTest {
    static long frameId(byte[] stored) {
        return DictionaryManagerTest.frameDictId(stored);
    }

    /** The first value of {@code values} written with a dictionary. */
    static byte[][] withDictionary(List<byte[][]> values) {
        for (byte[][] vs : values) {
            if (vs[1].length > ValueFormat.HEADER_SIZE && vs[1][0] == 0 && frameId(vs[1]) != 0) {
                return vs;
            }
        }
        throw new AssertionError("no value written with a dictionary");
    }

    /** Reads {@code stored} through every form of {@code reader}. */
    static void assertReadsInEveryForm(ValueCompressor reader, byte[] value, byte[] stored) {
        assertArrayEquals(value, reader.decompress(stored), "byte[]");
        ByteBuffer heap = ByteBuffer.wrap(stored);
        assertEquals(ByteBuffer.wrap(value), reader.decompress(heap), "heap ByteBuffer");
        assertEquals(0, heap.position());
        ByteBuffer direct = ByteBuffer.allocateDirect(stored.length).put(stored).flip();
        assertEquals(ByteBuffer.wrap(value), reader.decompress(direct), "direct ByteBuffer");
        assertArrayEquals(value, reader.decompress(MemorySegment.ofArray(stored)), "heap MemorySegment");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = arena.allocate(stored.length);
            MemorySegment.copy(MemorySegment.ofArray(stored), 0, nat, 0, stored.length);
            assertArrayEquals(value, reader.decompress(nat), "native MemorySegment");
        }
    }

    /** Writes {@code event:*} values through {@code pd} until they go on its dictionary; @return one such value */
    static byte[][] eventOnItsDictionary(PatternDictionaries pd) throws Exception {
        Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
        writeUntilOnDictionaries(compressor(pd), List.of("event"), written);
        return withDictionary(written.get("event"));
    }

    /**
     * A process that has not written the pattern: a read fails naming the dictionary while the id's claim is looked
     * up, which opens the lineage it names (the claim is all a reader needs: a lineage dropped under churn is found
     * the same way); retried, the read succeeds, in every form, without the pattern written here.
     */
    @Test
    void aReaderThatHasNotOpenedThePatternFindsItsLineageByTheIdsClaim() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        byte[][] v;
        try (PatternDictionaries pd = inMemory(stores).build()) {
            v = eventOnItsDictionary(pd);
        }
        long id = frameId(v[1]);
        // another process over the same stores, which has not written the pattern; its claim look-up held until
        // the reads below are done
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        try (PatternDictionaries other = PatternDictionaries.builder(n -> {
            InMemoryDictionaryStore s = stores.computeIfAbsent(n, x -> new InMemoryDictionaryStore());
            return !n.equals(PatternDictionaries.ID_CLAIMS) ? s : new AdaptivePatternDictionariesTest.Forwarding(s) {
                @Override
                public byte[] get(long claimed) {
                    try {
                        held.await(10, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return inner.get(claimed);
                }
            };
        }).manager(AdaptivePatternDictionariesTest::quick).build()) {
            AdaptiveCompressor ac = compressor(other);
            for (Runnable read : List.<Runnable>of(() -> ac.reader().decompress(v[1]),
                    () -> ac.reader().decompress(ByteBuffer.wrap(v[1])),
                    () -> ac.reader().decompress(MemorySegment.ofArray(v[1])), () -> ac.decompress(v[1]))) {
                MissingDictionaryException x = assertThrows(MissingDictionaryException.class, read::run);
                assertEquals(id, x.dictionaryId());
                assertTrue(x.getMessage().contains("dictionary " + id) && x.getMessage().contains("no dictionary"
                        + " lineage of this process has loaded it"), x.getMessage());
            }
            assertNull(other.manager("event:*"), "opened before its claim was read");
            held.countDown();
            // the claim names event's lineage: it is opened by that name, loads what its store holds, and reads
            readAll(ac, List.<byte[][]>of(v));
            assertNotNull(other.manager("event:*"), "event's lineage opened by its claim");
            assertTrue(other.manager("event:*").isLoaded(id));
            assertReadsInEveryForm(ac.reader(), v[0], v[1]);
        }
    }

    /**
     * A read of a per-pattern dictionary value allocates what the fixed mode's read of it does: the id's lineage is
     * found without boxing the id (a boxed look-up measured 312 bytes against 288).
     */
    @Test
    void aDictionaryReadAllocatesAsTheFixedModeDoes() throws Exception {
        try (PatternDictionaries pd = inMemory(new ConcurrentHashMap<>()).build()) {
            byte[][] v = eventOnItsDictionary(pd);
            ValueCompressor reader = compressor(pd).reader();
            assertArrayEquals(v[0], reader.decompress(v[1]));
            // side by side: the same value read by a compressor over the pattern's own manager (the fixed mode)
            ValueCompressor fixed = ValueCompressor.create(CompressionConfig.defaults(), pd.manager("event:*"));
            assertArrayEquals(v[0], fixed.decompress(v[1]));
            long perFixed = 0;
            long per = 0;
            for (int round = 0; round < 3; round++) {
                perFixed = dev.zstdjava.testkit.Allocations.bytesPerCall(20_000, () -> fixed.decompress(v[1]).length);
                per = dev.zstdjava.testkit.Allocations.bytesPerCall(20_000, () -> reader.decompress(v[1]).length);
            }
            assertTrue(per < perFixed + 16, "bytes per read of a " + v[0].length + "-byte value with a dictionary: "
                    + per + " through the adaptive reader, " + perFixed + " with the pattern's manager");
        }
    }

    /**
     * The race a lineage's release leaves: a look-up that gave a dictionary just before its manager closed. A coder
     * that holds a decompressor over that dictionary does not decode with it (nor makes a new one): the read fails
     * as the lookup says; a new entry of the same id (the lineage reopened) then reads.
     */
    @Test
    void aReleasedDictionaryIsNeverDecodedWithEvenWhenACoderHoldsIt() {
        byte[] value = DictionaryManagerTest.VALUES.get(3);
        long id = DictionaryManagerTest.id(DictionaryManagerTest.DICT_A);
        DictionaryManager first = DictionaryManager.given(DictionaryManagerTest.DICT_A).build();
        AtomicReference<DictionaryManager> open = new AtomicReference<>(first);
        DictionaryLookup lookup = new DictionaryLookup() {
            @Override
            public DictionaryManager.Entry find(long dictId) {
                return open.get().find(dictId);
            }

            @Override
            public MissingDictionaryException missing(long dictId) {
                return new MissingDictionaryException(dictId, "not found");
            }

            @Override
            public RuntimeException released(long dictId, IllegalStateException closed) {
                return new MissingDictionaryException(dictId, "released under the read");
            }
        };
        ValueCompressor reader = ValueCompressor.reading(CompressionConfig.defaults(), lookup);
        byte[] stored = ValueCompressor.create(CompressionConfig.defaults(), first).compress(value);
        assertEquals(id, frameId(stored));
        assertArrayEquals(value, reader.decompress(stored));
        first.close();
        MissingDictionaryException x = assertThrows(MissingDictionaryException.class, () -> reader.decompress(stored));
        assertTrue(x.getMessage().contains("released under the read"), x.getMessage());
        try (DictionaryManager second = DictionaryManager.given(DictionaryManagerTest.DICT_A).build()) {
            open.set(second);
            assertArrayEquals(value, reader.decompress(stored));
            assertEquals(1, second.dictionaryStats(id).valuesRead());
        }
    }

    /**
     * Freeing the decompressors of released dictionaries never touches a call in flight: the pool frees those its idle
     * coders hold at once, and a coder lent out at the time frees its own when it comes back; the decompressors of
     * dictionaries still loaded stay.
     */
    @Test
    void aPoolFreesReleasedDictionariesDecompressorsOfIdleCodersAndOfLentOnesOnTheirReturn() {
        byte[] value = DictionaryManagerTest.VALUES.get(3);
        long idA = DictionaryManagerTest.id(DictionaryManagerTest.DICT_A);
        long idB = DictionaryManagerTest.id(DictionaryManagerTest.DICT_B);
        try (DictionaryManager a = DictionaryManager.given(DictionaryManagerTest.DICT_A).build();
             DictionaryManager b = DictionaryManager.given(DictionaryManagerTest.DICT_B).build()) {
            DictionaryLookup lookup = new DictionaryLookup() {
                @Override
                public DictionaryManager.Entry find(long dictId) {
                    return dictId == idA ? a.find(dictId) : b.find(dictId);
                }

                @Override
                public MissingDictionaryException missing(long dictId) {
                    return new MissingDictionaryException(dictId, "not found");
                }
            };
            MemorySegment frameA = payload(ValueCompressor.create(CompressionConfig.defaults(), a).compress(value));
            MemorySegment frameB = payload(ValueCompressor.create(CompressionConfig.defaults(), b).compress(value));
            dev.zstdjava.zstd.ZstdDecompressionDictionary digestA = a.find(idA).digests.decompression;
            dev.zstdjava.zstd.ZstdDecompressionDictionary digestB = b.find(idB).digests.decompression;
            CoderPool pool = new CoderPool(CompressionConfig.defaults(), lookup);
            Coder lent = pool.acquire();
            Coder idle = pool.acquire();
            for (Coder c : List.of(lent, idle)) {
                ZstdBackend zstd = (ZstdBackend) c.shared(CompressionBackend.ZSTD);
                assertArrayEquals(value, zstd.decodeFrame(frameA));
                assertArrayEquals(value, zstd.decodeFrame(frameB));
            }
            assertEquals(3, AdaptivePatternDictionariesTest.references(digestA), "a's own and two decompressors'");
            pool.release(idle);
            a.close();
            pool.freeReleasedDictionaries();
            assertEquals(1, AdaptivePatternDictionariesTest.references(digestA), "the lent coder's, in use");
            assertEquals(3, AdaptivePatternDictionariesTest.references(digestB), "b is loaded: both kept");
            pool.release(lent);
            assertEquals(0, AdaptivePatternDictionariesTest.references(digestA), "freed on its return");
            assertEquals(3, AdaptivePatternDictionariesTest.references(digestB));
            Coder again = pool.acquire(); // a coder freed of a's decompressor still reads b's values
            assertArrayEquals(value, ((ZstdBackend) again.shared(CompressionBackend.ZSTD)).decodeFrame(frameB));
            pool.release(again);
            pool.close();
            assertEquals(1, AdaptivePatternDictionariesTest.references(digestB));
        }
    }

    /** @return the zstd frame of a stored value (after the header) */
    private static MemorySegment payload(byte[] stored) {
        return MemorySegment.ofArray(stored).asSlice(ValueFormat.HEADER_SIZE);
    }

    @Test
    void theReaderWritesAsAPlainValueCompressor() throws Exception {
        CompressionConfig config = CompressionConfig.defaults();
        ValueCompressor plain = ValueCompressor.create(config);
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        try (PatternDictionaries pd = inMemory(stores).build()) {
            AdaptiveCompressor ac = compressor(pd);
            writeUntilOnDictionaries(ac, List.of("event"), new ConcurrentHashMap<>());
            assertNotNull(pd.manager("event:*"));
            ValueCompressor reader = ac.reader();
            assertSame(reader, ac.reader());
            List<byte[]> values = new ArrayList<>(RECORDS.subList(0, 50));
            values.add(new byte[10]);
            for (byte[] v : values) {
                byte[] mine = reader.compress(v);
                assertArrayEquals(plain.compress(v), mine);
                assertTrue(mine.length <= ValueFormat.HEADER_SIZE || frameId(mine) == 0, "no dictionary");
                ByteBuffer dst = ByteBuffer.allocate(v.length);
                ByteBuffer plainDst = ByteBuffer.allocate(v.length);
                reader.compress(ByteBuffer.wrap(v), dst);
                plain.compress(ByteBuffer.wrap(v), plainDst);
                assertEquals(plainDst.flip(), dst.flip());
            }
        }
    }

    /** {@code event:*}'s lineage open here, with no announcements and no periodic check due for an hour. */
    static PatternDictionaries.Builder noRefresh(Map<String, InMemoryDictionaryStore> stores) {
        return inMemory(stores).manager(b -> quick(b).refreshInterval(Duration.ofHours(1)).minSamples(400));
    }

    /**
     * Opens {@code event:*}'s lineage in {@code here} (writing through {@code ac}), then has another process over
     * {@code stores} write an {@code event:*} value with its own dictionary; @return that value
     */
    static byte[][] openHereWrittenThere(PatternDictionaries here, AdaptiveCompressor ac,
                                         Map<String, InMemoryDictionaryStore> stores) throws Exception {
        writeUntil(ac, List.of("event"), new ConcurrentHashMap<>(), "event open here",
                () -> here.manager("event:*") != null);
        try (PatternDictionaries there = inMemory(stores).build()) {
            return eventOnItsDictionary(there);
        }
    }

    /**
     * A dictionary another process published in a lineage open here, with notifications off and the periodic check
     * an hour away: the read fails once, the id's claim leads to the lineage, which fetches it, and the read retried
     * succeeds.
     */
    @Test
    void aDictionaryAnotherProcessPublishedInALineageOpenHereIsFetchedOnARead() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        try (PatternDictionaries here = noRefresh(stores).build()) {
            AdaptiveCompressor ac = compressor(here);
            byte[][] v = openHereWrittenThere(here, ac, stores);
            long id = frameId(v[1]);
            assertFalse(here.manager("event:*").isLoaded(id), "loaded here before any read");
            MissingDictionaryException x = assertThrows(MissingDictionaryException.class, () -> ac.decompress(v[1]));
            assertEquals(id, x.dictionaryId());
            assertTrue(x.getMessage().contains("looking up its claim in the " + PatternDictionaries.ID_CLAIMS)
                    && x.getMessage().contains("retry the read"), x.getMessage());
            readAll(ac, List.<byte[][]>of(v), Duration.ofSeconds(5));
            assertTrue(here.manager("event:*").isLoaded(id));
            assertReadsInEveryForm(ac.reader(), v[0], v[1]);
        }
    }

    /**
     * The messages about an id's claim name the claim's key in the id claims' store (a server store's
     * {@link DictionaryStore#entryLocation}): a read's look-up of the claim, and a publication refused because of it.
     */
    @Test
    void claimMessagesNameTheClaimsKey() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        PatternDictionaries.Builder keyed = PatternDictionaries.builder(n -> new Keyed(n,
                        stores.computeIfAbsent(n, x -> new InMemoryDictionaryStore())))
                .manager(b -> quick(b).refreshInterval(Duration.ofHours(1)).minSamples(400));
        try (PatternDictionaries here = keyed.build()) {
            AdaptiveCompressor ac = compressor(here);
            byte[][] v = openHereWrittenThere(here, ac, stores);
            long id = frameId(v[1]);
            String claimKey = "its claim in the " + PatternDictionaries.ID_CLAIMS + " store (key zstd-java:dict:"
                    + "{zstd-java-dictionaries:" + PatternDictionaries.ID_CLAIMS + "}:dict:" + id + ")";
            MissingDictionaryException x = assertThrows(MissingDictionaryException.class, () -> ac.decompress(v[1]));
            assertTrue(x.getMessage().contains("looking up " + claimKey + " to fetch it")
                    && x.getMessage().contains("retry the read"), x.getMessage());
            readAll(ac, List.<byte[][]>of(v), Duration.ofSeconds(5));
            assertEquals("dictionary id " + id + " is claimed by lineage event:* (" + claimKey + ") with different"
                    + " bytes", here.manager("event:*").publishCheck().refusal(id, foreign(id)));
        }
    }

    /** A store over {@code inner} that says where it keeps an entry as lineage {@code name}'s server store does. */
    private static final class Keyed extends AdaptivePatternDictionariesTest.Forwarding {
        private final ServerDictionaryLayout layout;

        Keyed(String name, DictionaryStore inner) {
            super(inner);
            this.layout = new ServerDictionaryLayout(PatternDictionaries.prefix(name), 1 << 20, "maxDictionarySize");
        }

        @Override
        public String entryLocation(long id) {
            return layout.entryLocation(id);
        }

        @Override
        public AutoCloseable subscribe(Runnable onPublished) {
            return inner.subscribe(onPublished);
        }

        @Override
        public boolean tryLease(String owner, Duration ttl) {
            return inner.tryLease(owner, ttl);
        }

        @Override
        public void releaseLease(String owner) {
            inner.releaseLease(owner);
        }
    }

    /** As above, with the lineage released here when the dictionary was published: the read reopens it. */
    @Test
    void aDictionaryAnotherProcessPublishedInALineageReleasedHereReopensItOnARead() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        try (PatternDictionaries here = noRefresh(stores).maxOpenLineages(1).build()) {
            AdaptiveCompressor ac = compressor(here);
            writeUntil(ac, List.of("event"), new ConcurrentHashMap<>(), "event open here",
                    () -> here.manager("event:*") != null);
            writeUntil(ac, List.of("order"), new ConcurrentHashMap<>(), "order open, event released",
                    () -> here.manager("order:*") != null && here.manager("event:*") == null);
            byte[][] v;
            try (PatternDictionaries there = inMemory(stores).build()) {
                v = eventOnItsDictionary(there);
            }
            assertThrows(MissingDictionaryException.class, () -> ac.decompress(v[1]));
            readAll(ac, List.<byte[][]>of(v), Duration.ofSeconds(5));
            assertNotNull(here.manager("event:*"), "reopened");
        }
    }

    /** @return {@code stored}, a value written with a dictionary of a 4-byte id, naming dictionary {@code id} */
    static byte[] namingDictionary(byte[] stored, long id) {
        byte[] out = stored.clone();
        int descriptor = out[ValueFormat.HEADER_SIZE + 4];
        assertEquals(3, descriptor & 3, "a 4-byte dictionary id");
        int at = ValueFormat.HEADER_SIZE + 5 + ((descriptor & 0x20) != 0 ? 0 : 1); // after the window descriptor
        for (int i = 0; i < 4; i++) {
            out[at + i] = (byte) (id >>> (8 * i));
        }
        assertEquals(id, frameId(out));
        return out;
    }

    /** A look-up of an id's claim in the id claims' store; {@code claim} looks it up in the store itself. */
    @FunctionalInterface
    interface ClaimLookUp {
        byte[] get(long id, java.util.function.LongFunction<byte[]> claim);
    }

    /**
     * Lineages over in-memory stores (one per lineage name), trained quickly, whose id claims' store looks each
     * claim up through {@code lookUp}.
     */
    static PatternDictionaries claimsLookedUpThrough(ClaimLookUp lookUp) {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        return PatternDictionaries.builder(n -> {
            InMemoryDictionaryStore s = stores.computeIfAbsent(n, x -> new InMemoryDictionaryStore());
            return !n.equals(PatternDictionaries.ID_CLAIMS) ? s : new AdaptivePatternDictionariesTest.Forwarding(s) {
                @Override
                public byte[] get(long id) {
                    return lookUp.get(id, inner::get);
                }
            };
        }).manager(AdaptivePatternDictionariesTest::quick).build();
    }

    /** @return a compressor over {@code pd} that wrote pattern event until its lineage opened */
    static AdaptiveCompressor eventOpen(PatternDictionaries pd) throws InterruptedException {
        AdaptiveCompressor ac = compressor(pd);
        writeUntil(ac, List.of("event"), new ConcurrentHashMap<>(), "event open", () -> pd.manager("event:*") != null);
        return ac;
    }

    /**
     * At most {@code MAX_CLAIM_LOOKUPS} ids' claims are looked up at once (or were, within the retry delay): a read
     * missed beyond them says that its claim is not looked up, not that it is; once they are done and the retry delay
     * has passed, a read of it starts its look-up and says so.
     */
    @Test
    void aReadMissedBeyondTheClaimLookUpsCapSaysItsClaimIsNotLookedUp() throws Exception {
        int cap = PatternDictionaries.MAX_CLAIM_LOOKUPS;
        long first = 0x4000_0000L;
        java.util.concurrent.CountDownLatch lookUps = new java.util.concurrent.CountDownLatch(1);
        ClaimLookUp slowClaims = (id, claim) -> {
            if (id >= first && id <= first + cap) {
                try { // the look-ups of the test's ids wait: they are all under way at once
                    lookUps.await(20, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return claim.apply(id);
        };
        try (PatternDictionaries pd = claimsLookedUpThrough(slowClaims);
             DictionaryManager a = DictionaryManager.given(DictionaryManagerTest.DICT_A).build()) {
            AdaptiveCompressor ac = eventOpen(pd);
            byte[] stored = ValueCompressor.create(CompressionConfig.defaults(), a).compress(
                    DictionaryManagerTest.VALUES.get(3));
            try {
                for (long id = first; id < first + cap; id++) {
                    byte[] s = namingDictionary(stored, id);
                    MissingDictionaryException x = assertThrows(MissingDictionaryException.class,
                            () -> ac.decompress(s));
                    assertTrue(x.getMessage().contains("looking up its claim"), x.getMessage());
                }
                byte[] beyond = namingDictionary(stored, first + cap);
                MissingDictionaryException x = assertThrows(MissingDictionaryException.class,
                        () -> ac.decompress(beyond));
                assertEquals(first + cap, x.dictionaryId());
                assertFalse(x.getMessage().contains("looking up its claim"), x.getMessage());
                assertTrue(x.getMessage().contains("not looked up") && x.getMessage().contains(cap + " "),
                        x.getMessage());
                lookUps.countDown();
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (true) {
                    x = assertThrows(MissingDictionaryException.class, () -> ac.decompress(beyond));
                    if (x.getMessage().contains("looking up its claim")) {
                        break;
                    }
                    assertTrue(System.nanoTime() < deadline, "its claim never looked up: " + x.getMessage());
                    Thread.sleep(50);
                }
            } finally {
                lookUps.countDown();
            }
        }
    }

    /**
     * A read of an id whose own claim look-up finished less than the retry delay ago and found no claim says so, not
     * that a look-up runs: nothing is looked up for it until the delay has passed.
     */
    @Test
    void aReadRightAfterItsClaimLookUpFoundNothingSaysSo() throws Exception {
        long unclaimed = DictionaryManagerTest.id(DictionaryManagerTest.DICT_A);
        java.util.concurrent.CountDownLatch read = new java.util.concurrent.CountDownLatch(1);
        ClaimLookUp counting = (id, claim) -> {
            byte[] found = claim.apply(id);
            if (id == unclaimed) {
                read.countDown();
            }
            return found;
        };
        try (PatternDictionaries pd = claimsLookedUpThrough(counting);
             DictionaryManager a = DictionaryManager.given(DictionaryManagerTest.DICT_A).build()) {
            AdaptiveCompressor ac = eventOpen(pd);
            byte[] stored = ValueCompressor.create(CompressionConfig.defaults(), a)
                    .compress(DictionaryManagerTest.VALUES.get(3));
            MissingDictionaryException x = assertThrows(MissingDictionaryException.class, () -> ac.decompress(stored));
            assertTrue(x.getMessage().contains("looking up its claim"), x.getMessage());
            assertTrue(read.await(10, java.util.concurrent.TimeUnit.SECONDS), "its claim was never read");
            // the look-up that found no claim is done (its verdict recorded once the claim is read): a read soon after
            // (well within the 1 s retry delay, polled every 5 ms) says so; one before it still says it is looked up
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            do {
                Thread.sleep(5);
                x = assertThrows(MissingDictionaryException.class, () -> ac.decompress(stored));
            } while (x.getMessage().contains("looking up its claim") && System.nanoTime() < deadline);
            assertEquals(unclaimed, x.dictionaryId());
            assertFalse(x.getMessage().contains("looking up its claim"), x.getMessage());
            assertTrue(x.getMessage().contains("looked up less than 1 s ago")
                    && x.getMessage().contains("not claimed by any lineage (no claim)"), x.getMessage());
        }
    }

    /**
     * Reads of ids no lineage here loaded, one with no claim and one whose claim cannot be read, over and over: each
     * fails as missing its dictionary, and each id's claim is read at most once per retry delay, on this object's
     * thread, which a store error does not stop.
     */
    @Test
    void aMissedIdsClaimIsReadAtMostOncePerRetryDelayOffTheReadingThread() throws Exception {
        long unclaimed = DictionaryManagerTest.id(DictionaryManagerTest.DICT_A);
        byte[] broken = foreign(0x5eed_1234L);
        long unreadable = DictionaryManagerTest.id(broken);
        Map<Long, AtomicInteger> claimReads = new ConcurrentHashMap<>();
        Set<String> readingThreads = ConcurrentHashMap.newKeySet();
        ClaimLookUp counting = (id, claim) -> {
            if (id == unclaimed || id == unreadable) {
                readingThreads.add(Thread.currentThread().getName());
                claimReads.computeIfAbsent(id, x -> new AtomicInteger()).incrementAndGet();
            }
            if (id == unreadable) {
                throw new IllegalStateException("the claims store is down");
            }
            return claim.apply(id);
        };
        List<Throwable> uncaught = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
        try (PatternDictionaries pd = claimsLookedUpThrough(counting);
             DictionaryManager a = DictionaryManager.given(DictionaryManagerTest.DICT_A).build();
             DictionaryManager b = DictionaryManager.given(broken).build()) {
            AdaptiveCompressor ac = eventOpen(pd);
            byte[] value = DictionaryManagerTest.VALUES.get(3);
            List<byte[]> stored = List.of(ValueCompressor.create(CompressionConfig.defaults(), a).compress(value),
                    ValueCompressor.create(CompressionConfig.defaults(), b).compress(value));
            assertEquals(List.of(unclaimed, unreadable), stored.stream().map(s -> frameId(s)).toList());
            long start = System.nanoTime();
            int reads = 0;
            while (System.nanoTime() - start < Duration.ofMillis(2500).toNanos()) {
                for (byte[] s : stored) {
                    assertThrows(MissingDictionaryException.class, () -> ac.decompress(s));
                    reads++;
                }
            }
            // the look-ups asked for by the reads start on this object's thread, the last of them possibly after the
            // reads: wait until each id's claim was read twice (one look-up, and another one retry delay later at
            // least), then count; no read asks for another meanwhile, and the time waited counts for the most allowed
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while ((claimReads.getOrDefault(unclaimed, new AtomicInteger()).get() < 2
                    || claimReads.getOrDefault(unreadable, new AtomicInteger()).get() < 2)
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            long most = (System.nanoTime() - start) / PatternDictionaries.CLAIM_LOOKUP_RETRY_NANOS + 1;
            for (long id : List.of(unclaimed, unreadable)) {
                int n = claimReads.getOrDefault(id, new AtomicInteger()).get();
                assertTrue(n >= 2 && n <= most, "claim of " + id + " read " + n + " times in " + reads + " reads,"
                        + " at most " + most + " allowed");
            }
            assertEquals(Set.of("zstd-java-pattern-dictionaries"), readingThreads);
            assertEquals(List.of(), uncaught);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }
}
