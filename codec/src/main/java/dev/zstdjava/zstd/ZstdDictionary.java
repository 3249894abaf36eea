package dev.zstdjava.zstd;

import dev.zstdjava.internal.Bounds;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Objects;

/**
 * The bytes of a zstd dictionary: trained here ({@link #train}), trained elsewhere ({@code zstd --train}, zstd-jni)
 * and loaded with {@link #of(byte[])}, or any bytes used as raw content ({@link #rawContent(byte[])}), which act as
 * a shared prefix of every input.
 *
 * <p>To compress or decompress with it, digest it once with {@link #forCompression(int)} or
 * {@link #forDecompression()} and pass the result to {@link ZstdCompressor.Builder#dictionary},
 * {@link ZstdDecompressor.Builder#dictionary} or the stream builders.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe. <b>Allocation:</b> holds one copy of the dictionary bytes;
 * training uses temporary native memory of about the size of the samples, freed before it returns.
 */
public final class ZstdDictionary {
    /** Smallest dictionary capacity zstd's trainer accepts ({@code ZDICT_DICTSIZE_MIN}). */
    public static final int MIN_CAPACITY = 256;
    private static final int DICT_MAGIC = 0xEC30A437;
    /** {@code ZSTD_error_dictionaryCreation_failed} ({@code zstd_errors.h}). */
    private static final int DICTIONARY_CREATION_FAILED = 34;

    private final byte[] content;
    private final long id;
    private final ZstdNative.DictionaryContent type;

    private ZstdDictionary(byte[] content, ZstdNative.DictionaryContent type) {
        this.content = content;
        this.type = type;
        this.id = type == ZstdNative.DictionaryContent.RAW ? 0 : ZstdNative.getDictIdFromDict(MemorySegment.ofArray(content), content.length) & 0xFFFFFFFFL;
    }

    /**
     * A dictionary from its bytes: in zstd's dictionary format (starting with its magic number, as
     * {@code zstd --train} writes) it is parsed as such; any other bytes are raw content. The array is copied.
     */
    public static ZstdDictionary of(byte[] dictionary) {
        byte[] copy = Objects.requireNonNull(dictionary, "dictionary").clone();
        return new ZstdDictionary(copy, hasMagic(copy) ? ZstdNative.DictionaryContent.AUTO : ZstdNative.DictionaryContent.RAW);
    }

    /**
     * Raw content: bytes used as if they preceded every input, without zstd's dictionary header (id 0). Content of
     * fewer than 8 bytes is ignored by zstd. The array is copied.
     */
    public static ZstdDictionary rawContent(byte[] content) {
        return new ZstdDictionary(Objects.requireNonNull(content, "content").clone(), ZstdNative.DictionaryContent.RAW);
    }

    /** @return the dictionary id written into frames compressed with it (an unsigned 32-bit value); 0 for raw content */
    public long id() {
        return id;
    }

    /** @return the size of the dictionary in bytes */
    public int size() {
        return content.length;
    }

    /** @return true if this is raw content rather than a dictionary in zstd's format */
    public boolean isRawContent() {
        return type == ZstdNative.DictionaryContent.RAW;
    }

    /** @return how zstd is to read the bytes: raw content, or its dictionary format */
    ZstdNative.DictionaryContent content() {
        return type;
    }

    /** @return the dictionary bytes themselves, not a copy: for this package's native copies, never to be written */
    byte[] bytes() {
        return content;
    }

    /** @return a copy of the dictionary bytes (for example to save it next to the data) */
    public byte[] toByteArray() {
        return content.clone();
    }

    /**
     * Digests the dictionary for compression at {@code level}: the tables are built once and shared by every
     * compressor that references the result.
     *
     * @throws IllegalArgumentException if the level is out of range or zstd rejects the dictionary
     */
    public ZstdCompressionDictionary forCompression(int level) {
        Zstd.checkLevel(level);
        return new ZstdCompressionDictionary(this, level);
    }

    /** Digests the dictionary for decompression; the result is shared by every decompressor that references it. */
    public ZstdDecompressionDictionary forDecompression() {
        return new ZstdDecompressionDictionary(this);
    }

    /** Copies the content into new native memory; the caller frees it with {@code free}. */
    MemorySegment nativeCopy() {
        MemorySegment m = ZstdNative.LIBC.malloc(content.length);
        MemorySegment.copy(content, 0, m, ValueLayout.JAVA_BYTE, 0, content.length);
        return m;
    }

    @Override
    public String toString() {
        return "ZstdDictionary[" + (isRawContent() ? "raw content" : "id " + id) + ", " + content.length
                + " bytes]";
    }

    private static boolean hasMagic(byte[] b) {
        // the format is little-endian on every machine (zstd's dictionary format: magic 0xEC30A437, then the ID)
        return b.length >= 8
                && MemorySegment.ofArray(b).get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0)
                == DICT_MAGIC;
    }

    // ---- training ------------------------------------------------------------------------------------------------

    /**
     * Trains a dictionary of at most {@code capacity} bytes from samples with {@code ZDICT_trainFromBuffer}.
     * zstd advises a few thousand samples totalling about 100 times the capacity; a typical capacity is 16-112 KiB.
     *
     * @throws ZstdException            if zstd cannot train from these samples (too few or too small)
     * @throws IllegalArgumentException if {@code capacity} is below {@link #MIN_CAPACITY} or there are no samples
     */
    public static ZstdDictionary train(List<byte[]> samples, int capacity) {
        return trainer(capacity).train(samples);
    }

    /**
     * Trains from samples stored back to back in one segment: sample {@code i} has {@code sampleSizes[i]} bytes.
     * Native memory is read in place; a heap segment is copied once into native memory first (training is long and
     * must not hold off the garbage collector).
     */
    public static ZstdDictionary train(MemorySegment samples, long[] sampleSizes, int capacity) {
        return trainer(capacity).train(samples, sampleSizes);
    }

    /** @return a trainer with more options (the fastCover optimiser, target level, threads) */
    public static Trainer trainer(int capacity) {
        return new Trainer(capacity);
    }

    /**
     * Options of dictionary training. Not thread-safe (a builder); {@code train} may be called several times.
     */
    public static final class Trainer {
        private final int capacity;
        private boolean optimize;
        private int level;
        private int threads = 1;
        private int dictionaryId;

        private Trainer(int capacity) {
            if (capacity < MIN_CAPACITY || capacity > Bounds.MAX_ARRAY) {
                throw new IllegalArgumentException("dictionary capacity " + capacity + " is out of range "
                        + MIN_CAPACITY + ".." + Bounds.MAX_ARRAY);
            }
            this.capacity = capacity;
        }

        /**
         * Searches fastCover's parameters ({@code ZDICT_optimizeTrainFromBuffer_fastCover}, parameters k and d)
         * instead of using the defaults: slower, usually a better dictionary. Default off.
         */
        public Trainer optimize(boolean optimize) {
            this.optimize = optimize;
            return this;
        }

        /** The compression level the dictionary is tuned for (0 = zstd's default, 3). */
        public Trainer level(int level) {
            if (level < 0 || level > Zstd.MAX_LEVEL) {
                throw new IllegalArgumentException("training level " + level + " is out of range 0.." + Zstd.MAX_LEVEL);
            }
            this.level = level;
            return this;
        }

        /** Threads the optimiser may use (default 1); only with {@link #optimize(boolean)}. */
        public Trainer threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be >= 1, got " + threads);
            }
            this.threads = threads;
            return this;
        }

        /** Forces the dictionary id (1..2^32-1); default 0: a random id. */
        public Trainer dictionaryId(long id) {
            if (id < 0 || id > 0xFFFFFFFFL) {
                throw new IllegalArgumentException("dictionary id " + id + " is out of range 0..4294967295");
            }
            this.dictionaryId = (int) id;
            return this;
        }

        /** Trains from separate samples; see {@link ZstdDictionary#train(List, int)}. */
        public ZstdDictionary train(List<byte[]> samples) {
            // each sample read from the list once: the bytes copied are the bytes counted, whatever the list does
            byte[][] taken = Objects.requireNonNull(samples, "samples").toArray(new byte[0][]);
            long total = 0;
            long[] sizes = new long[taken.length];
            for (int i = 0; i < sizes.length; i++) {
                byte[] s = Objects.requireNonNull(taken[i], "sample");
                sizes[i] = s.length;
                total += s.length;
            }
            checkCount(sizes.length);
            MemorySegment buf = ZstdNative.LIBC.malloc(total);
            try {
                long at = 0;
                for (byte[] s : taken) {
                    MemorySegment.copy(s, 0, buf, ValueLayout.JAVA_BYTE, at, s.length);
                    at += s.length;
                }
                return trainNative(buf, sizes, total);
            } finally {
                ZstdNative.LIBC.free(buf);
            }
        }

        /** Trains from one segment of samples back to back; see {@link ZstdDictionary#train(MemorySegment, long[], int)}. */
        public ZstdDictionary train(MemorySegment samples, long[] sampleSizes) {
            Objects.requireNonNull(samples, "samples");
            // a copy: the sizes checked here are the sizes zstd reads, whatever another thread does to the caller's array
            long[] sizes = Objects.requireNonNull(sampleSizes, "sampleSizes").clone();
            checkCount(sizes.length);
            long total = 0;
            for (int i = 0; i < sizes.length; i++) {
                if (sizes[i] < 0) {
                    throw new IllegalArgumentException("sampleSizes[" + i + "] = " + sizes[i] + " is negative");
                }
                total += sizes[i];
                if (total > samples.byteSize() || total < 0) {
                    throw new IllegalArgumentException("sample sizes add up to more than the " + samples.byteSize()
                            + "-byte segment (at sample " + i + ")");
                }
            }
            if (samples.isNative()) {
                return trainNative(samples, sizes, total);
            }
            MemorySegment buf = ZstdNative.LIBC.malloc(total);
            try {
                MemorySegment.copy(samples, 0, buf, 0, total);
                return trainNative(buf, sizes, total);
            } finally {
                ZstdNative.LIBC.free(buf);
            }
        }

        private static void checkCount(int n) {
            if (n == 0) {
                throw new IllegalArgumentException("no samples to train a dictionary from");
            }
        }

        private ZstdDictionary trainNative(MemorySegment samples, long[] sizes, long total) {
            MemorySegment dict = ZstdNative.LIBC.malloc(capacity);
            try (Arena a = Arena.ofConfined()) {
                MemorySegment nativeSizes = a.allocate(8L * sizes.length, 8); // (layout, count) means another thing on JDK 21
                MemorySegment.copy(sizes, 0, nativeSizes, ValueLayout.JAVA_LONG, 0, sizes.length);
                long r;
                String how;
                if (optimize || level != 0 || dictionaryId != 0) {
                    MemorySegment p = a.allocate(ZstdNative.FAST_COVER_PARAMS);
                    if (!optimize) { // what ZDICT_trainFromBuffer does: d=8, a short search over k
                        p.set(ValueLayout.JAVA_INT, ZstdNative.FC_D, 8);
                        p.set(ValueLayout.JAVA_INT, ZstdNative.FC_STEPS, 4);
                    }
                    p.set(ValueLayout.JAVA_INT, ZstdNative.FC_THREADS, threads);
                    p.set(ValueLayout.JAVA_INT, ZstdNative.FC_LEVEL, level);
                    p.set(ValueLayout.JAVA_INT, ZstdNative.FC_DICT_ID, dictionaryId);
                    how = "ZDICT_optimizeTrainFromBuffer_fastCover";
                    r = ZstdNative.optimizeFastCover(dict, capacity, samples, nativeSizes, sizes.length, p);
                } else {
                    how = "ZDICT_trainFromBuffer";
                    r = ZstdNative.trainFromBuffer(dict, capacity, samples, nativeSizes, sizes.length);
                }
                String detail = how + " with " + sizes.length + " samples totalling " + total + " bytes for a "
                        + capacity + "-byte dictionary: too few or too small samples? zstd needs more than 5 samples"
                        + " of at least 8 bytes and works best with thousands totalling ~100x the capacity";
                if (ZstdNative.zdictIsError(r)) {
                    throw new ZstdException("zstd dictionary training", ZstdNative.errorCode(r),
                            ZstdNative.zdictErrorName(r), detail);
                }
                long header = ZstdNative.dictHeaderSize(dict, r);
                if (ZstdNative.zdictIsError(header) || r - header <= 8) {
                    // zstd "succeeds" with entropy tables and only its 8 bytes of padding when samples are too short
                    throw new ZstdException("zstd dictionary training", DICTIONARY_CREATION_FAILED,
                            "the trained dictionary has no content", detail);
                }
                byte[] out = new byte[(int) r];
                MemorySegment.copy(dict, ValueLayout.JAVA_BYTE, 0, out, 0, out.length);
                return new ZstdDictionary(out, ZstdNative.DictionaryContent.AUTO);
            } finally {
                ZstdNative.LIBC.free(dict);
            }
        }
    }
}
