package dev.zstdjava.fuzz;

import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressStream;
import dev.zstdjava.zstd.ZstdDecompressionDictionary;
import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import dev.zstdjava.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Fuzz target: {@link ZstdDictionary#of} on arbitrary bytes, then decoding with it. Input layout: two bytes (big
 * endian) giving the dictionary length, the dictionary, then a frame. The frame is decoded one-shot and through a
 * stream with the digested dictionary (both must agree); when zstd accepts the bytes as a compression dictionary, a
 * round trip of the frame bytes through it must give them back.
 */
public final class ZstdDictionaryFuzz {
    static final int LIMIT = 128 << 10;

    private ZstdDictionaryFuzz() {}

    public static void fuzzerTestOneInput(byte[] data) {
        if (data.length < 2) {
            return;
        }
        int dictLen = Math.min(((data[0] & 0xFF) << 8) | (data[1] & 0xFF), data.length - 2);
        byte[] dictBytes = Arrays.copyOfRange(data, 2, 2 + dictLen);
        byte[] frame = Arrays.copyOfRange(data, 2 + dictLen, data.length);
        ZstdDictionary dict = ZstdDictionary.of(dictBytes);
        if (dict.size() != dictLen || !Arrays.equals(dict.toByteArray(), dictBytes)) {
            throw new AssertionError("dictionary bytes not kept as given");
        }
        ZstdDecompressionDictionary digested;
        try {
            digested = dict.forDecompression();
        } catch (IllegalArgumentException rejected) {
            return; // zstd refused to digest the bytes as a dictionary: documented, nothing to decode with
        }
        Outcome oneShot;
        Outcome streamed;
        try (ZstdDecompressionDictionary dd = digested;
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).maxDecompressedSize(LIMIT).build()) {
            oneShot = Outcome.of(() -> d.decompress(frame));
            streamed = Outcome.of(() -> {
                try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(frame),
                        ZstdDecompressStream.builder().dictionary(dd).maxDecompressedSize(LIMIT))) {
                    return in.readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        if (frame.length > 0) {
            Outcome.sameWhenBothOk("dictionary one-shot vs stream", oneShot, streamed);
        }
        ZstdCompressionDictionary forCompression;
        try {
            forCompression = dict.forCompression(1);
        } catch (IllegalArgumentException rejected) {
            return; // zstd refused the bytes as a compression dictionary: documented
        }
        try (ZstdCompressionDictionary cd = forCompression;
             ZstdDecompressionDictionary dd = dict.forDecompression();
             ZstdCompressor c = ZstdCompressor.builder().level(1).dictionary(cd).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
            byte[] back = d.decompress(c.compress(frame));
            if (!Arrays.equals(back, frame)) {
                throw new AssertionError("round trip through the dictionary changed " + frame.length + " bytes");
            }
        }
    }
}
