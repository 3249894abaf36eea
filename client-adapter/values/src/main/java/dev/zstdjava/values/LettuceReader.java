package dev.zstdjava.values;

import dev.zstdjava.DecompressionLimitException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/**
 * Lettuce's {@code CompressionCodec}, one reader per compression type: {@link LegacyFormat#LETTUCE_GZIP} (a gzip
 * stream; signature {@code 1f 8b 08}, at least 18 bytes) and {@link LegacyFormat#LETTUCE_DEFLATE} (a zlib stream;
 * signature: zlib's two-byte header with method 8, a window of at most 32 KiB, no preset dictionary and a header
 * check that is a multiple of 31; at least 5 bytes). A value over the limit fails as soon as the limit is passed; a
 * truncated or malformed stream fails with {@link UncheckedIOException}. Decoding allocates the value, a copy of the
 * stored bytes and a buffer.
 */
final class LettuceReader extends LegacyReader {
    /** Lettuce's compression types. */
    enum Type {
        /** {@code CompressionType.GZIP}. */
        GZIP,
        /** {@code CompressionType.DEFLATE}: zlib's format. */
        DEFLATE
    }

    private final Type type;

    /** @param coder the coder to bind to, or null for the unbound instance (the selector's) */
    LettuceReader(Type type, Coder coder) {
        super(type == Type.GZIP ? "lettuce-gzip" : "lettuce-deflate", type == Type.GZIP ? 3 : 2, coder);
        this.type = type;
    }

    @Override
    public LettuceReader bind(Coder coder) {
        return new LettuceReader(type, coder);
    }

    @Override
    public boolean recognises(MemorySegment s) {
        if (s.byteSize() < (type == Type.GZIP ? 18 : 5)) {
            return false;
        }
        int b0 = s.get(ValueLayout.JAVA_BYTE, 0) & 0xff;
        int b1 = s.get(ValueLayout.JAVA_BYTE, 1) & 0xff;
        return switch (type) {
            case GZIP -> b0 == 0x1f && b1 == 0x8b && s.get(ValueLayout.JAVA_BYTE, 2) == 8;
            case DEFLATE -> (b0 & 0x0f) == 8 && (b0 >>> 4) <= 7 && (b1 & 0x20) == 0 && ((b0 << 8) | b1) % 31 == 0;
        };
    }

    /** A preset dictionary, which would end a zlib stream early, is excluded by the signature. */
    @Override
    public byte[] decode(MemorySegment stored) {
        String format = type == Type.GZIP ? "gzip" : "zlib";
        ByteArrayInputStream bytes = new ByteArrayInputStream(stored.toArray(ValueLayout.JAVA_BYTE));
        try (InputStream in = type == Type.GZIP ? new GZIPInputStream(bytes, 8192) : new InflaterInputStream(bytes)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            long max = coder.config().maxDecompressedSize();
            long total = 0;
            for (int n; (n = in.read(buf)) > 0; ) {
                total += n;
                if (total > max) {
                    throw new DecompressionLimitException(format + " decompress", total, max);
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("malformed " + format + " stream", e);
        }
    }

    @Override
    public boolean malformed(RuntimeException e) {
        return e instanceof UncheckedIOException;
    }
}
