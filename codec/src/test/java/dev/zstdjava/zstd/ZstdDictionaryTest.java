package dev.zstdjava.zstd;

import dev.zstdjava.JsonRecords;

import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.lang.reflect.Field;

import static dev.zstdjava.zstd.StreamTestData.readAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZstdDictionaryTest {
    static List<byte[]> tweetsTrain, tweetsTest, phonesTrain, phonesTest;
    static ZstdDictionary phonesDict;

    @BeforeAll
    static void load() {
        List<byte[]> tweets = JsonRecords.statuses(100, 31);
        tweetsTrain = tweets.subList(0, 70);
        tweetsTest = tweets.subList(70, 100);
        List<byte[]> phones = JsonRecords.products(793, 32);
        phonesTrain = phones.subList(0, 600);
        phonesTest = phones.subList(600, phones.size());
        phonesDict = ZstdDictionary.train(phonesTrain, 16 << 10);
    }

    /** Total compressed size of each value compressed on its own. */
    static long compressedTotal(List<byte[]> values, ZstdCompressor c, ZstdDecompressor d) {
        long total = 0;
        for (byte[] v : values) {
            byte[] frame = c.compress(v);
            assertArrayEquals(v, d.decompress(frame));
            total += frame.length;
        }
        return total;
    }

    static long rawTotal(List<byte[]> values) {
        return values.stream().mapToLong(v -> v.length).sum();
    }

    @Test
    void trainedDictionaryGivesARealGainOnSmallJsonValues() {
        ZstdDictionary tweetsDict = ZstdDictionary.train(tweetsTrain, 16 << 10);
        for (var set : List.of(new Object[] {"synthetic status records", tweetsDict, tweetsTest},
                new Object[] {"synthetic product records", phonesDict, phonesTest})) {
            ZstdDictionary dict = (ZstdDictionary) set[1];
            @SuppressWarnings("unchecked") List<byte[]> test = (List<byte[]>) set[2];
            long raw = rawTotal(test);
            long plain;
            long withDict;
            try (ZstdCompressor c = ZstdCompressor.create(3); ZstdDecompressor d = ZstdDecompressor.create()) {
                plain = compressedTotal(test, c, d);
            }
            try (ZstdCompressionDictionary cd = dict.forCompression(3);
                 ZstdDecompressionDictionary dd = dict.forDecompression();
                 ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
                 ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
                withDict = compressedTotal(test, c, d);
            }
            double r0 = (double) raw / plain;
            double r1 = (double) raw / withDict;
            System.out.printf("dictionary gain, %s: %d held-out values, %d bytes, avg %d bytes; level 3 ratio "
                            + "without dictionary %.2f, with %d-byte dictionary (id %d) %.2f (%.2fx)%n",
                    set[0], test.size(), raw, raw / test.size(), r0, dict.size(), dict.id(), r1, r1 / r0);
            assertTrue(r1 > 1.3 * r0, set[0] + ": ratio " + r0 + " -> " + r1);
        }
    }

    @Test
    void trainingFromOneSegmentMatchesTrainingFromArrays() {
        long total = rawTotal(phonesTrain);
        long[] sizes = phonesTrain.stream().mapToLong(b -> b.length).toArray();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment all = a.allocate(total);
            long at = 0;
            for (byte[] s : phonesTrain) {
                MemorySegment.copy(s, 0, all, ValueLayout.JAVA_BYTE, at, s.length);
                at += s.length;
            }
            ZstdDictionary fromSegment = ZstdDictionary.train(all, sizes, 16 << 10);
            ZstdDictionary fromHeap = ZstdDictionary.train(MemorySegment.ofArray(all.toArray(ValueLayout.JAVA_BYTE)),
                    sizes, 16 << 10);
            assertEquals(fromSegment.size(), fromHeap.size());
            assertTrue(fromSegment.size() <= 16 << 10 && fromSegment.size() > 1000, "size " + fromSegment.size());
            assertNotEquals(0, fromSegment.id());
            assertTrue(fromSegment.id() >= 0 && fromSegment.id() <= 0xFFFFFFFFL);
            assertThrows(IllegalArgumentException.class, () -> ZstdDictionary.train(all, new long[] {total + 1}, 4096));
        }
    }

    /**
     * Each sample is taken from the list once: a list that hands out other arrays on a second read (a list another
     * thread changes, a view computed on the fly) trains the dictionary the first read gives, never one made of
     * bytes no sample held (native memory left as malloc returned it).
     */
    @Test
    void eachSampleIsReadFromTheListOnce() {
        List<byte[]> firstReadOnly = new java.util.AbstractList<>() {
            private final int[] reads = new int[phonesTrain.size()];

            @Override
            public byte[] get(int i) {
                return reads[i]++ == 0 ? phonesTrain.get(i) : new byte[0];
            }

            @Override
            public int size() {
                return phonesTrain.size();
            }
        };
        ZstdDictionary expected = ZstdDictionary.train(new ArrayList<>(phonesTrain), 16 << 10);
        assertArrayEquals(expected.toByteArray(), ZstdDictionary.train(firstReadOnly, 16 << 10).toByteArray());
    }

    @Test
    void fastCoverOptimiserAndForcedId() {
        ZstdDictionary opt = ZstdDictionary.trainer(8 << 10).optimize(true).threads(2).level(5).dictionaryId(123456)
                .train(phonesTrain);
        assertEquals(123456, opt.id());
        assertTrue(opt.size() <= 8 << 10);
        try (ZstdCompressionDictionary cd = opt.forCompression(5); ZstdDecompressionDictionary dd = opt.forDecompression();
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
            long with = compressedTotal(phonesTest, c, d);
            System.out.printf("fastCover-optimised 8 KiB dictionary: %d -> %d bytes%n", rawTotal(phonesTest), with);
            assertTrue(with < rawTotal(phonesTest) / 3);
        }
    }

    @Test
    void tooFewOrTooSmallSamplesGiveAClearError() {
        ZstdException few = assertThrows(ZstdException.class,
                () -> ZstdDictionary.train(phonesTrain.subList(0, 2), 16 << 10));
        assertTrue(few.getMessage().contains("2 samples"), few.getMessage());
        List<byte[]> tiny = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            tiny.add(new byte[] {(byte) i, 1});
        }
        ZstdException small = assertThrows(ZstdException.class, () -> ZstdDictionary.train(tiny, 16 << 10));
        assertTrue(small.getMessage().contains("100 bytes"), small.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ZstdDictionary.train(List.of(), 16 << 10));
        assertThrows(IllegalArgumentException.class, () -> ZstdDictionary.train(phonesTrain, 100));
    }

    @Test
    void wrongOrMissingDictionaryNamesTheExpectedId() {
        ZstdDictionary other = ZstdDictionary.train(tweetsTrain, 16 << 10);
        byte[] value = phonesTest.get(0);
        byte[] frame;
        try (ZstdCompressionDictionary cd = phonesDict.forCompression(3);
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build()) {
            frame = c.compress(value);
        }
        assertEquals(phonesDict.id(), ZstdFrame.dictionaryId(frame, 0, frame.length));
        assertEquals(0, ZstdFrame.dictionaryId(Zstd.compress(value), 0, 20));

        ZstdException missing = assertThrows(ZstdException.class, () -> Zstd.decompress(frame));
        assertEquals(ZstdException.DICTIONARY_WRONG, missing.errorCode());
        assertTrue(missing.getMessage().contains("dictionary id " + phonesDict.id()), missing.getMessage());
        assertTrue(missing.getMessage().contains("no dictionary"), missing.getMessage());

        try (ZstdDecompressionDictionary wrong = other.forDecompression();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(wrong).build()) {
            ZstdException e = assertThrows(ZstdException.class, () -> d.decompress(frame));
            assertTrue(e.getMessage().contains("dictionary id " + phonesDict.id()), e.getMessage());
            assertTrue(e.getMessage().contains("dictionary id " + other.id()), e.getMessage());
            // the caller-destination and segment forms say the same
            byte[] dst = new byte[value.length];
            ZstdException e2 = assertThrows(ZstdException.class,
                    () -> d.decompress(frame, 0, frame.length, dst, 0, dst.length));
            assertTrue(e2.getMessage().contains("dictionary id " + phonesDict.id()), e2.getMessage());
            // and the streams
            ZstdException e3 = assertThrows(ZstdException.class, () -> readAll(new ZstdInputStream(
                    new ByteArrayInputStream(frame), ZstdDecompressStream.builder().dictionary(wrong)), 100));
            assertTrue(e3.getMessage().contains("dictionary id " + phonesDict.id())
                    && e3.getMessage().contains("dictionary id " + other.id()), e3.getMessage());
        }
        ZstdException e4 = assertThrows(ZstdException.class,
                () -> readAll(new ZstdInputStream(new ByteArrayInputStream(frame)), 1));
        assertTrue(e4.getMessage().contains("dictionary id " + phonesDict.id()), e4.getMessage());
    }

    @Test
    void streamsWithDictionaries() throws IOException {
        try (ZstdCompressionDictionary cd = phonesDict.forCompression(7);
             ZstdDecompressionDictionary dd = phonesDict.forDecompression()) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            ByteArrayOutputStream plain = new ByteArrayOutputStream();
            try (ZstdOutputStream out = new ZstdOutputStream(bytes, ZstdCompressStream.builder().dictionary(cd))) {
                for (byte[] v : phonesTest) {
                    out.write(v);
                    out.flush();
                    plain.write(v);
                }
            }
            assertEquals(phonesDict.id(), ZstdFrame.dictionaryId(bytes.toByteArray(), 0, bytes.size()));
            try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(bytes.toByteArray()),
                    ZstdDecompressStream.builder().dictionary(dd))) {
                assertArrayEquals(plain.toByteArray(), readAll(in, 999));
            }
            try (var in = new com.github.luben.zstd.ZstdInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                in.setDict(phonesDict.toByteArray());
                assertArrayEquals(plain.toByteArray(), readAll(in, 999));
            }
        }
    }

    @Test
    void rawContentDictionary() {
        // a few earlier records as raw content: no header, id 0, still a large gain
        ByteArrayOutputStream prefix = new ByteArrayOutputStream();
        phonesTrain.subList(0, 100).forEach(prefix::writeBytes);
        ZstdDictionary raw = ZstdDictionary.rawContent(prefix.toByteArray());
        assertTrue(raw.isRawContent());
        assertEquals(0, raw.id());
        assertTrue(ZstdDictionary.of(prefix.toByteArray()).isRawContent(), "no magic: raw content");
        assertTrue(!ZstdDictionary.of(phonesDict.toByteArray()).isRawContent());
        try (ZstdCompressionDictionary cd = raw.forCompression(3);
             ZstdDecompressionDictionary dd = raw.forDecompression();
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build();
             ZstdCompressor plainC = ZstdCompressor.create(3);
             ZstdDecompressor plainD = ZstdDecompressor.create()) {
            long with = compressedTotal(phonesTest, c, d);
            long without = compressedTotal(phonesTest, plainC, plainD);
            assertTrue(with * 1.3 < without, with + " vs " + without);
            byte[] frame = c.compress(phonesTest.get(3));
            assertEquals(0, ZstdFrame.dictionaryId(frame, 0, frame.length));
            // zstd-jni decodes it with the same raw content
            var jni = new ZstdDictDecompress(prefix.toByteArray(), com.github.luben.zstd.ZstdDictContentType.RAW_CONTENT);
            byte[] out = new byte[phonesTest.get(3).length];
            long n = com.github.luben.zstd.Zstd.decompressFastDict(out, 0, frame, 0, frame.length, jni);
            assertEquals(out.length, n);
            assertArrayEquals(phonesTest.get(3), out);
        }
    }

    @Test
    void dfastDictionariesAttachAtAnySizeAndOtherLevelsKeepLibzstdsChoice() {
        for (int level : new int[] {0, 3, 4}) {
            try (ZstdCompressionDictionary cd = phonesDict.forCompression(level)) {
                assertTrue(cd.attachesAtAnySize(), "level " + level);
            }
        }
        for (int level : new int[] {-5, -1, 1, 2, 5, 6, 9, 19, 22}) {
            try (ZstdCompressionDictionary cd = phonesDict.forCompression(level)) {
                assertEquals(false, cd.attachesAtAnySize(), "level " + level);
            }
        }
    }

    @Test
    void framesAcrossLibzstdsCopyAndLoadCutoffsReadBackHereAndInZstdJni() {
        // values of many records around 16 KiB (where libzstd would start copying a dfast dictionary's tables) and
        // 128 KiB (where it loads the dictionary's content instead), compressible and not
        java.util.Random random = new java.util.Random(7);
        ByteArrayOutputStream records = new ByteArrayOutputStream();
        for (int i = 0; records.size() < 200_000; i++) {
            records.writeBytes(phonesTest.get(i % phonesTest.size()));
        }
        byte[] json = records.toByteArray();
        byte[] noise = new byte[200_000];
        random.nextBytes(noise);
        for (int level : new int[] {1, 3, 4, 6}) {
            try (ZstdCompressionDictionary cd = phonesDict.forCompression(level);
                 ZstdDecompressionDictionary dd = phonesDict.forDecompression();
                 ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
                 ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
                for (byte[] source : new byte[][] {json, noise}) {
                    for (int n : new int[] {1000, (16 << 10) - 1, 16 << 10, (16 << 10) + 1, 40_000, (128 << 10) - 1,
                            128 << 10, (128 << 10) + 1, 150_000}) {
                        byte[] value = java.util.Arrays.copyOf(source, n);
                        byte[] frame = c.compress(value);
                        String what = "level " + level + ", " + n + " bytes of " + (source == json ? "JSON" : "noise");
                        assertArrayEquals(value, d.decompress(frame), what);
                        assertArrayEquals(value, com.github.luben.zstd.Zstd.decompress(frame,
                                new ZstdDictDecompress(phonesDict.toByteArray()), n), what);
                        if (source == json) {
                            assertTrue(frame.length < n / 2, what + ": " + frame.length);
                        }
                    }
                }
            }
        }
    }

    @Test
    void zstdJniUsesOurDictionaryAndWeUseTheirs() {
        byte[] value = phonesTest.get(5);
        try (ZstdCompressionDictionary cd = phonesDict.forCompression(3);
             ZstdDecompressionDictionary dd = phonesDict.forDecompression();
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
            byte[] ours = c.compress(value);
            byte[] out = new byte[value.length];
            long n = com.github.luben.zstd.Zstd.decompressFastDict(out, 0, ours, 0, ours.length,
                    new ZstdDictDecompress(phonesDict.toByteArray()));
            assertEquals(value.length, n);
            assertArrayEquals(value, out);
            byte[] theirs = com.github.luben.zstd.Zstd.compress(value, new ZstdDictCompress(phonesDict.toByteArray(), 3));
            assertArrayEquals(value, d.decompress(theirs));
        }
        // a dictionary trained by zstd-jni
        byte[] buf = new byte[16 << 10];
        long size = com.github.luben.zstd.Zstd.trainFromBuffer(phonesTrain.toArray(new byte[0][]), buf);
        ZstdDictionary jniDict = ZstdDictionary.of(java.util.Arrays.copyOf(buf, (int) size));
        assertEquals(com.github.luben.zstd.Zstd.getDictIdFromDict(buf), jniDict.id());
        try (ZstdCompressionDictionary cd = jniDict.forCompression(3);
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build()) {
            byte[] frame = c.compress(value);
            assertArrayEquals(value, com.github.luben.zstd.Zstd.decompress(frame, new ZstdDictDecompress(
                    jniDict.toByteArray()), value.length));
        }
    }

    @DisabledIfSystemProperty(named = "zstdjava.skipCliTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipCliTests=true")
    @Test
    void zstdCliUsesOurDictionaryAndWeUseOneItTrained(@TempDir Path dir) throws Exception {
        Files.write(dir.resolve("ours.dict"), phonesDict.toByteArray());
        byte[] value = phonesTest.get(7);
        Files.write(dir.resolve("value"), value);
        try (ZstdCompressionDictionary cd = phonesDict.forCompression(3);
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build()) {
            Files.write(dir.resolve("value.zst"), c.compress(value));
        }
        assertArrayEquals(value, StreamTestData.zstd(dir, "-q", "-d", "-c", "-D", "ours.dict", "value.zst"));
        byte[] cliFrame = StreamTestData.zstd(dir, "-q", "-c", "-D", "ours.dict", "value");
        assertEquals(phonesDict.id(), ZstdFrame.dictionaryId(cliFrame, 0, cliFrame.length));
        try (ZstdDecompressionDictionary dd = phonesDict.forDecompression();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
            assertArrayEquals(value, d.decompress(cliFrame));
        }

        // the CLI trains, we use its dictionary in both directions
        Path samples = Files.createDirectory(dir.resolve("samples"));
        List<String> args = new ArrayList<>(List.of("-q", "--train", "--maxdict=16384", "-o", "cli.dict"));
        for (int i = 0; i < phonesTrain.size(); i++) {
            Files.write(samples.resolve("s" + i), phonesTrain.get(i));
            args.add("samples/s" + i);
        }
        StreamTestData.zstd(dir, args.toArray(new String[0]));
        ZstdDictionary cli = ZstdDictionary.of(Files.readAllBytes(dir.resolve("cli.dict")));
        assertNotEquals(0, cli.id());
        byte[] frame = StreamTestData.zstd(dir, "-q", "-c", "-D", "cli.dict", "value");
        assertEquals(cli.id(), ZstdFrame.dictionaryId(frame, 0, frame.length));
        try (ZstdCompressionDictionary cd = cli.forCompression(3);
             ZstdDecompressionDictionary dd = cli.forDecompression();
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
            assertArrayEquals(value, d.decompress(frame));
            Files.write(dir.resolve("value2.zst"), c.compress(value));
        }
        assertArrayEquals(value, StreamTestData.zstd(dir, "-q", "-d", "-c", "-D", "cli.dict", "value2.zst"));
    }

    @Test
    void corruptDictionaryIsRejected() {
        byte[] bad = phonesDict.toByteArray();
        java.util.Arrays.fill(bad, 8, 100, (byte) 0xFF); // entropy tables destroyed, magic and id intact
        ZstdDictionary d = ZstdDictionary.of(bad);
        assertEquals(phonesDict.id(), d.id());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.forCompression(3));
        assertTrue(e.getMessage().contains("id " + phonesDict.id()), e.getMessage());
        assertThrows(IllegalArgumentException.class, d::forDecompression);
        assertThrows(IllegalArgumentException.class, () -> phonesDict.forCompression(Zstd.MAX_LEVEL + 1));
        assertEquals(0, ZstdFrame.dictionaryId(new byte[] {1, 2, 3}, 0, 3));
    }

    @Test
    void closingADictionaryInUseKeepsItAliveForItsUsers() {
        ZstdCompressionDictionary cd = phonesDict.forCompression(3);
        ZstdDecompressionDictionary dd = phonesDict.forDecompression();
        try (ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
            cd.close();
            dd.close();
            cd.close();
            for (byte[] v : phonesTest.subList(0, 20)) {
                assertArrayEquals(v, d.decompress(c.compress(v)));
            }
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> ZstdCompressor.builder().dictionary(cd).build());
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> ZstdDecompressStream.builder().dictionary(dd).build());
        }
    }

    /**
     * Dictionaries closed by one thread while another is inside calls of compressors, decompressors and streams that
     * reference them: the native tables stay until the last of those is closed, so every round trip, before and after
     * the close, decodes to its input (a freed table would give wrong output or crash the JVM), and closing the
     * users then frees them.
     */
    @Test
    void closingDictionariesDuringCallsOnAnotherThreadFreesNothingInUse() throws Exception {
        for (int round = 0; round < 20; round++) {
            ZstdCompressionDictionary cd = phonesDict.forCompression(3);
            ZstdDecompressionDictionary dd = phonesDict.forDecompression();
            ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
            ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build();
            ZstdCompressStream cs = ZstdCompressStream.builder().dictionary(cd).build();
            ZstdDecompressStream ds = ZstdDecompressStream.builder().dictionary(dd).build();
            AtomicInteger done = new AtomicInteger();
            AtomicBoolean closed = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread worker = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0, after = 0; after < 40; i++) {
                        after += closed.get() ? 1 : 0;
                        byte[] v = phonesTest.get(i % phonesTest.size());
                        byte[] frame = c.compress(v);
                        assertEquals(cd.id(), ZstdFrame.dictionaryId(frame, 0, frame.length));
                        assertArrayEquals(v, d.decompress(frame));
                        MemorySegment out = MemorySegment.ofArray(new byte[(int) Zstd.compressBound(v.length) + 64]);
                        assertEquals(0, cs.end(MemorySegment.ofArray(v), out));
                        byte[] back = new byte[v.length];
                        ds.decompress(out.asSlice(0, cs.produced()), MemorySegment.ofArray(back));
                        assertArrayEquals(v, back);
                        done.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            while (done.get() < 1 + round % 5 && worker.isAlive()) {
                Thread.onSpinWait();
            }
            cd.close();
            dd.close();
            closed.set(true);
            cd.close();
            dd.close();
            worker.join();
            if (failure.get() != null) {
                throw new AssertionError("round " + round, failure.get());
            }
            assertEquals(2, references(cd), "the compressor and the stream still hold the compression tables");
            assertEquals(2, references(dd), "the decompressor and the stream still hold the decompression tables");
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> ZstdCompressor.builder().dictionary(cd).build());
            assertEquals("ZstdCompressionDictionary is closed", e.getMessage());
            c.close();
            cs.close();
            d.close();
            ds.close();
            c.close();
            assertEquals(0, references(cd), "freed with its last user");
            assertEquals(0, references(dd), "freed with its last user");
        }
    }

    /** The references to a dictionary's native tables (its own, until closed, and each context's). */
    private static int references(DigestedDictionary dictionary) throws ReflectiveOperationException {
        SharedDict shared = dictionary.shared();
        Field refs = SharedDict.class.getDeclaredField("refs");
        refs.setAccessible(true);
        synchronized (shared) {
            return refs.getInt(shared);
        }
    }

    @Test
    void sharedDictionaryAcrossThreads() throws Exception {
        try (ZstdCompressionDictionary cd = phonesDict.forCompression(3);
             ZstdDecompressionDictionary dd = phonesDict.forDecompression()) {
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < 4; t++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try (ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
                         ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
                        for (int round = 0; round < 20; round++) {
                            for (byte[] v : phonesTest) {
                                assertArrayEquals(v, d.decompress(c.compress(v)));
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(List.of(), failures);
        }
    }
}
