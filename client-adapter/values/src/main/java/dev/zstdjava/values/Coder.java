package dev.zstdjava.values;

import dev.zstdjava.CompressionException;
import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.lz4.Lz4Exception;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdException;
import dev.zstdjava.zstd.ZstdFrame;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * The native contexts and scratch memory one thread uses for one call of a {@link ValueCompressor}. Not
 * thread-safe: {@link CoderPool} lends each instance to one thread at a time. Contexts are created on first use.
 */
final class Coder implements AutoCloseable {
    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** Scratch arrays up to this size are kept between calls. */
    static final int KEEP_SCRATCH = 1 << 20;

    private final CompressionConfig config;
    private ZstdCompressor zstdCompressor;
    private ZstdDecompressor zstdDecompressor;
    private Lz4Compressor lz4Compressor;
    private Lz4Decompressor lz4Decompressor;
    private byte[] scratch = new byte[0];
    /** Decompressors bound to dictionaries, a few per coder, replaced round-robin. */
    private static final int DICT_DECOMPRESSORS = 4;
    private final DictionaryManager dictionaries;
    private final long[] dictIds = new long[DICT_DECOMPRESSORS];
    private final ZstdDecompressor[] dictDecompressors = new ZstdDecompressor[DICT_DECOMPRESSORS];
    private int nextDictSlot;
    private DictionaryManager.Entry compressEntry;
    private ZstdCompressor dictCompressor;

    Coder(CompressionConfig config, DictionaryManager dictionaries) {
        this.config = config;
        this.dictionaries = dictionaries;
    }

    /** @return a heap array of at least {@code size} bytes, reused between calls */
    byte[] scratch(int size) {
        if (scratch.length < size) {
            scratch = new byte[size];
        }
        return scratch;
    }

    void trimScratch() {
        if (scratch.length > KEEP_SCRATCH) {
            scratch = new byte[0];
        }
    }

    /**
     * Compresses {@code src} into {@code dst} as the configured backend's payload (without the header).
     *
     * @return the payload size, or -1 when it does not fit in {@code dst}; throws if the backend fails
     */
    long compressPayload(MemorySegment src, MemorySegment dst) {
        return switch (config.backend()) {
            case ZSTD -> zstdCompressor().tryCompress(src, dst);
            case LZ4 -> lz4Compressor().tryCompress(src, dst);
        };
    }

    /**
     * Compresses {@code src} into {@code dst} as one zstd frame with the dictionary {@code entry} (the frame records
     * its id). The compressor is rebuilt only when the current dictionary changes.
     *
     * @return the payload size, or -1 when it does not fit in {@code dst}; throws if zstd fails
     */
    long compressPayload(DictionaryManager.Entry entry, MemorySegment src, MemorySegment dst) {
        if (entry != compressEntry) {
            ZstdCompressor c = ZstdCompressor.builder().dictionary(entry.compressionDictionary(config.level())).build();
            if (dictCompressor != null) {
                dictCompressor.close();
            }
            dictCompressor = c;
            compressEntry = entry;
        }
        return dictCompressor.tryCompress(src, dst);
    }

    /**
     * Decodes one payload.
     *
     * @param backend the backend named by the header
     * @param payload the bytes after the header
     * @return the original value
     * @throws DecompressionLimitException if it would be larger than the configured maximum
     * @throws MissingDictionaryException  if it is a zstd frame that declares a dictionary
     * @throws RuntimeException            if the payload does not decode
     */
    byte[] decompressPayload(CompressionBackend backend, MemorySegment payload) {
        return switch (backend) {
            case ZSTD -> decompressZstd(payload);
            case LZ4 -> decompressLz4(payload);
        };
    }

    private byte[] decompressZstd(MemorySegment payload) {
        long dictId = ZstdFrame.dictionaryId(payload);
        if (dictId != 0) {
            if (dictionaries == null) {
                throw new MissingDictionaryException(dictId, "this ValueCompressor has no dictionaries configured"
                        + " (ValueCompressor.create(config, DictionaryManager))");
            }
            DictionaryManager.Entry e = dictionaries.find(dictId);
            if (e == null) {
                throw dictionaries.missing(dictId);
            }
            byte[] out;
            try {
                out = decompressZstd(payload, dictionaryDecompressor(e));
            } catch (ZstdException x) { // a dictionary frame is never returned as stored, even when it is corrupt
                throw new CompressionException("zstd decompress", "a value compressed with dictionary " + dictId
                        + " does not decode with the loaded dictionary of that id: " + x.getMessage(), x);
            }
            e.valuesRead.increment();
            return out;
        }
        return decompressZstd(payload, zstdDecompressor());
    }

    private ZstdDecompressor dictionaryDecompressor(DictionaryManager.Entry e) {
        for (int i = 0; i < DICT_DECOMPRESSORS; i++) {
            if (dictIds[i] == e.id && dictDecompressors[i] != null) {
                return dictDecompressors[i];
            }
        }
        int slot = nextDictSlot;
        nextDictSlot = (slot + 1) % DICT_DECOMPRESSORS;
        ZstdDecompressor d = ZstdDecompressor.builder().maxDecompressedSize(config.maxDecompressedSize())
                .dictionary(e.decompression).build();
        if (dictDecompressors[slot] != null) {
            dictDecompressors[slot].close();
        }
        dictDecompressors[slot] = d;
        dictIds[slot] = e.id;
        return d;
    }

    private byte[] decompressZstd(MemorySegment payload, ZstdDecompressor decompressor) {
        long max = config.maxDecompressedSize();
        long size = ZstdFrame.decompressedSize(payload);
        if (size == ZstdFrame.UNKNOWN_SIZE) {
            // Frames without a declared size (streaming writers such as GLIDE's core): stream with a growing,
            // bounded buffer. The decompressor takes arrays, so the compressed bytes go through the scratch array.
            int len = (int) payload.byteSize();
            byte[] in = scratch(len);
            MemorySegment.copy(payload, ValueLayout.JAVA_BYTE, 0, in, 0, len);
            try {
                return decompressor.decompress(in, 0, len);
            } finally {
                trimScratch();
            }
        }
        if (size > max) {
            throw new DecompressionLimitException("zstd decompress", size, max);
        }
        byte[] out = new byte[(int) size];
        long n = size == 0 ? decodeEmpty(payload, decompressor)
                : decompressor.decompress(payload, MemorySegment.ofArray(out));
        if (n != size) {
            throw new ZstdException("zstd decompress", ZstdException.CORRUPTION_DETECTED,
                    "decoded size differs from the declared content size", "declared " + size + ", decoded " + n);
        }
        return out;
    }

    /** The payload is the original length (unsigned 32-bit little-endian), then one raw LZ4 block. */
    /**
     * Decodes a value in one of the other clients' formats, bounded by the configured maximum.
     *
     * @return the original value, or {@code null} for {@link LegacyFormat#REDISSON_LZ4} when the value is not one
     * @throws DecompressionLimitException if it would be larger than the configured maximum
     * @throws UncheckedIOException        if a gzip or zlib stream is malformed (ZstdException, Lz4Exception for
     *                                     the others)
     */
    byte[] decompressLegacy(LegacyFormat format, MemorySegment stored) {
        long max = config.maxDecompressedSize();
        return switch (format) {
            case LETTUCE_GZIP -> gunzip(stored.toArray(ValueLayout.JAVA_BYTE), max);
            case LETTUCE_DEFLATE -> inflate(stored.toArray(ValueLayout.JAVA_BYTE), max);
            case REDISSON_ZSTD -> {
                int declared = stored.get(BE_INT, 0);
                if (declared < 0) {
                    throw new ZstdException("zstd decompress", ZstdException.CORRUPTION_DETECTED,
                            "negative length prefix", "declared " + declared);
                }
                if (declared > max) {
                    throw new DecompressionLimitException("zstd decompress", declared, max);
                }
                byte[] out = decompressZstd(stored.asSlice(4));
                if (out.length != declared) {
                    throw new ZstdException("zstd decompress", ZstdException.CORRUPTION_DETECTED,
                            "decoded size differs from the length prefix", "declared " + declared + ", decoded "
                            + out.length);
                }
                yield out;
            }
            case REDISSON_LZ4 -> {
                int declared = stored.get(BE_INT, 0);
                if (declared == 0) {
                    // Redisson's empty value is exactly a zero length and an empty block (one zero token): 5 zero
                    // bytes. The format has no signature, so nothing looser is taken for an empty value.
                    yield stored.byteSize() == 5 && stored.get(ValueLayout.JAVA_BYTE, 4) == 0 ? new byte[0] : null;
                }
                yield declared < 0 || declared > max ? null : lz4Block(stored.asSlice(4), declared);
            }
        };
    }

    private static byte[] gunzip(byte[] in, long max) {
        try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(in), 8192)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            long total = 0;
            for (int n; (n = gz.read(buf)) > 0; ) {
                total += n;
                if (total > max) {
                    throw new DecompressionLimitException("gzip decompress", total, max);
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("malformed gzip stream", e);
        }
    }

    private static byte[] inflate(byte[] in, long max) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(in);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            long total = 0;
            while (!inflater.finished()) {
                int n = inflater.inflate(buf);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new UncheckedIOException(new ZipException("truncated zlib stream"));
                }
                total += n;
                if (total > max) {
                    throw new DecompressionLimitException("zlib decompress", total, max);
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new UncheckedIOException(new ZipException("malformed zlib stream: " + e.getMessage()));
        } finally {
            inflater.end();
        }
    }

    private byte[] decompressLz4(MemorySegment payload) {
        if (payload.byteSize() < ValueFormat.LZ4_LENGTH_SIZE) {
            throw new Lz4Exception("lz4 decompress", Lz4Exception.DECOMPRESSION_FAILED,
                    "payload of " + payload.byteSize() + " bytes is shorter than its 4-byte length prefix");
        }
        long declared = Integer.toUnsignedLong(payload.get(ValueFormat.LE_INT, 0));
        long max = config.maxDecompressedSize();
        if (declared > max) {
            throw new DecompressionLimitException("lz4 decompress", declared, max);
        }
        return lz4Block(payload.asSlice(ValueFormat.LZ4_LENGTH_SIZE), declared);
    }

    /** Decodes one raw LZ4 block that must decode to exactly {@code declared} bytes (within the limit). */
    private byte[] lz4Block(MemorySegment block, long declared) {
        byte[] out = new byte[(int) declared];
        long n = lz4Decompressor().decompress(block, MemorySegment.ofArray(out));
        if (n != declared) {
            throw new Lz4Exception("lz4 decompress", Lz4Exception.DECOMPRESSION_FAILED,
                    "block decoded to " + n + " bytes, its length prefix says " + declared);
        }
        return out;
    }

    /** Frames declaring size 0 still have to be valid frames. */
    private long decodeEmpty(MemorySegment payload, ZstdDecompressor decompressor) {
        return decompressor.decompress(payload, MemorySegment.ofArray(scratch(1)).asSlice(0, 1));
    }

    private ZstdCompressor zstdCompressor() {
        if (zstdCompressor == null) {
            zstdCompressor = ZstdCompressor.create(config.level());
        }
        return zstdCompressor;
    }

    private Lz4Compressor lz4Compressor() {
        if (lz4Compressor == null) {
            lz4Compressor = Lz4Compressor.create(config.level());
        }
        return lz4Compressor;
    }

    private Lz4Decompressor lz4Decompressor() {
        if (lz4Decompressor == null) {
            lz4Decompressor = Lz4Decompressor.create();
        }
        return lz4Decompressor;
    }

    private ZstdDecompressor zstdDecompressor() {
        if (zstdDecompressor == null) {
            zstdDecompressor = ZstdDecompressor.builder().maxDecompressedSize(config.maxDecompressedSize()).build();
        }
        return zstdDecompressor;
    }

    @Override
    public void close() {
        if (zstdCompressor != null) {
            zstdCompressor.close();
        }
        if (zstdDecompressor != null) {
            zstdDecompressor.close();
        }
        if (lz4Compressor != null) {
            lz4Compressor.close();
        }
        if (lz4Decompressor != null) {
            lz4Decompressor.close();
        }
        if (dictCompressor != null) {
            dictCompressor.close();
        }
        for (ZstdDecompressor d : dictDecompressors) {
            if (d != null) {
                d.close();
            }
        }
    }
}
