package dev.zstdjava.soak;

import dev.zstdjava.CompressionException;
import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.lz4.Lz4Frame;
import dev.zstdjava.lz4.Lz4FrameCompressor;
import dev.zstdjava.lz4.Lz4FrameDecompressor;
import dev.zstdjava.lz4.Lz4FrameInputStream;
import dev.zstdjava.lz4.Lz4FrameOutputStream;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressStream;
import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressStream;
import dev.zstdjava.zstd.ZstdDecompressionDictionary;
import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import dev.zstdjava.zstd.ZstdFrame;
import dev.zstdjava.zstd.ZstdInputStream;
import dev.zstdjava.zstd.ZstdOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The codec's operations for soak and concurrency runs: every public API (static one-shots, contexts created and
 * closed, contexts reused, the four buffer forms, streams, dictionaries, frame inspection, LZ4 blocks and frames,
 * error paths, and contexts left to the Cleaner). Each operation checks its result and throws on a wrong byte.
 * Instances are not thread-safe (the reused contexts are per instance); static methods are.
 */
public final class CodecOps {
    private static final byte[] TEXT = text();
    private final ZstdCompressor zc = ZstdCompressor.builder().level(3).checksum(true).build();
    private final ZstdDecompressor zd = ZstdDecompressor.create();
    private final ZstdCompressStream zcs = ZstdCompressStream.create(1);
    private final ZstdDecompressStream zds = ZstdDecompressStream.create();
    private final Lz4Compressor lc = Lz4Compressor.create(0);
    private final Lz4Decompressor ld = Lz4Decompressor.create();
    private final ZstdDictionary dict;
    private final ZstdCompressionDictionary cdict;
    private final ZstdDecompressionDictionary ddict;
    private final ZstdCompressor dictC;
    private final ZstdDecompressor dictD;
    private final MemorySegment nativeSrc = Arena.ofAuto().allocate(1 << 17);
    private final MemorySegment nativeDst = Arena.ofAuto().allocate(Zstd.compressBound(1 << 17));
    private final MemorySegment nativeBack = Arena.ofAuto().allocate(1 << 17);

    public CodecOps() {
        List<byte[]> samples = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            samples.add(("{\"id\":" + i + ",\"name\":\"user" + (i % 19) + "\",\"ok\":" + (i % 3 == 0) + "}")
                    .getBytes(StandardCharsets.UTF_8));
        }
        dict = ZstdDictionary.train(samples, 2048);
        cdict = dict.forCompression(3);
        ddict = dict.forDecompression();
        dictC = ZstdCompressor.builder().dictionary(cdict).build();
        dictD = ZstdDecompressor.builder().dictionary(ddict).build();
    }

    private static byte[] text() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; b.length() < (1 << 17); i++) {
            b.append("{\"id\":").append(i).append(",\"user\":\"name").append(i % 97).append("\",\"score\":")
                    .append((i * 7919) % 1000).append("}\n");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A value of a random size (mostly small, as cache values are; 1 in 100 from 16 to 128 KiB) from the text. */
    public static byte[] value(SplittableRandom r) {
        int k = r.nextInt(100);
        int size = k < 10 ? r.nextInt(16)
                : k < 50 ? 16 + r.nextInt(240)
                : k < 85 ? 256 + r.nextInt(3840)
                : k < 99 ? 4096 + r.nextInt(12288)
                : 16384 + r.nextInt((1 << 17) - 16384);
        int off = r.nextInt(TEXT.length - size + 1);
        return Arrays.copyOfRange(TEXT, off, off + size);
    }

    static void same(String what, byte[] expected, byte[] actual) {
        if (!Arrays.equals(expected, actual)) {
            throw new AssertionError(what + ": " + expected.length + " bytes in, " + actual.length
                    + " bytes back, or different bytes");
        }
    }

    /** Runs {@code call}, which must throw {@code type}. */
    static void fails(Class<? extends CompressionException> type, Runnable call) {
        try {
            call.run();
        } catch (CompressionException e) {
            if (!type.isInstance(e)) {
                throw new AssertionError("expected " + type.getSimpleName() + ", got " + e, e);
            }
            return;
        }
        throw new AssertionError("expected " + type.getSimpleName() + ", the call succeeded");
    }

    /** @return the operations, by name */
    public Map<String, Soak.Op> ops() {
        Map<String, Soak.Op> m = new LinkedHashMap<>();
        m.put("zstd static", (r, i) -> {
            byte[] v = value(r);
            same("Zstd", v, Zstd.decompress(Zstd.compress(v, r.nextInt(-5, 6))));
        });
        m.put("zstd create/close", (r, i) -> {
            byte[] v = value(r);
            try (ZstdCompressor c = ZstdCompressor.builder().level(1 + (int) (i % 4)).build();
                 ZstdDecompressor d = ZstdDecompressor.create()) {
                same("new contexts", v, d.decompress(c.compress(v)));
            }
        });
        m.put("zstd reused, four forms", (r, i) -> {
            byte[] v = value(r);
            byte[] f = zc.compress(v);
            same("byte[]", v, zd.decompress(f));
            byte[] dst = new byte[(int) Zstd.compressBound(v.length) + 3];
            int n = zc.compress(v, 0, v.length, dst, 3, dst.length - 3);
            byte[] back = new byte[v.length + 1];
            int got = zd.decompress(dst, 3, n, back, 1, v.length);
            same("byte[] range", v, Arrays.copyOfRange(back, 1, 1 + got));
            MemorySegment src = nativeSrc.asSlice(0, v.length);
            MemorySegment.copy(v, 0, src, ValueLayout.JAVA_BYTE, 0, v.length);
            long cn = zc.compress(src, nativeDst);
            long dn = zd.decompress(nativeDst.asSlice(0, cn), nativeBack);
            same("segment", v, nativeBack.asSlice(0, dn).toArray(ValueLayout.JAVA_BYTE));
            ByteBuffer in = src.asByteBuffer();
            ByteBuffer out = ByteBuffer.allocate(dst.length);
            zc.compress(in, out);
            ByteBuffer plain = ByteBuffer.allocate(v.length);
            zd.decompress(out.flip(), plain);
            same("ByteBuffer", v, plain.array());
        });
        m.put("zstd streams", (r, i) -> {
            byte[] v = value(r);
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            try (ZstdOutputStream out = new ZstdOutputStream(sink, 1 + (int) (i % 3))) {
                int half = v.length / 2;
                out.write(v, 0, half);
                out.flush();
                out.write(v, half, v.length - half);
            }
            try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(sink.toByteArray()))) {
                same("ZstdOutputStream/ZstdInputStream", v, in.readAllBytes());
            }
        });
        m.put("zstd segment streams, reused", (r, i) -> {
            byte[] v = value(r);
            MemorySegment src = nativeSrc.asSlice(0, v.length);
            MemorySegment.copy(v, 0, src, ValueLayout.JAVA_BYTE, 0, v.length);
            zcs.reset();
            long written = 0;
            long pending;
            do {
                pending = zcs.end(src, nativeDst.asSlice(written));
                src = src.asSlice(zcs.consumed());
                written += zcs.produced();
            } while (pending != 0);
            zds.reset();
            zds.decompress(nativeDst.asSlice(0, written), nativeBack);
            if (!zds.isFrameComplete()) {
                throw new AssertionError("frame not complete after " + written + " bytes");
            }
            same("ZstdCompressStream/ZstdDecompressStream", v, nativeBack.asSlice(0, zds.produced())
                    .toArray(ValueLayout.JAVA_BYTE));
        });
        m.put("zstd dictionary", (r, i) -> {
            byte[] v = value(r);
            same("shared dictionary", v, dictD.decompress(dictC.compress(v)));
            if (i % 200 == 0) { // digest, use and close a dictionary of its own
                ZstdDictionary own = ZstdDictionary.of(dict.toByteArray());
                try (ZstdCompressionDictionary cd = own.forCompression(1 + (int) (i % 5));
                     ZstdDecompressionDictionary dd = own.forDecompression();
                     ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
                     ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
                    byte[] f = c.compress(v);
                    if (ZstdFrame.dictionaryId(f, 0, f.length) != own.id()) {
                        throw new AssertionError("frame names dictionary " + ZstdFrame.dictionaryId(f, 0, f.length));
                    }
                    same("own dictionary", v, d.decompress(f));
                }
            }
        });
        m.put("zstd frame inspection", (r, i) -> {
            byte[] v = value(r);
            byte[] f = Zstd.compress(v, 1);
            if (ZstdFrame.contentSize(f, 0, f.length) != v.length || ZstdFrame.compressedSize(f, 0, f.length) != f.length
                    || ZstdFrame.decompressBound(f, 0, f.length) < v.length
                    || ZstdFrame.decompressedSize(f, 0, f.length) != v.length) {
                throw new AssertionError("frame inspection of a " + v.length + "-byte frame");
            }
        });
        m.put("zstd errors", (r, i) -> {
            byte[] f = Zstd.compress(value(r), 1);
            byte[] broken = f.clone();
            broken[broken.length / 2] ^= 0x5A;
            fails(CompressionException.class, () -> Zstd.decompress(Arrays.copyOf(f, f.length - 1 - r.nextInt(
                    Math.max(1, f.length - 1)))));
            try {
                Zstd.decompress(broken); // may decode to other bytes when the flipped byte was in a literal
            } catch (CompressionException expected) {
                // documented
            }
            byte[] big = Zstd.compress(new byte[5000], 1);
            fails(DecompressionLimitException.class, () -> Zstd.decompress(big, 4999));
        });
        m.put("lz4 static", (r, i) -> {
            byte[] v = value(r);
            same("Lz4", v, Lz4.decompress(Lz4.compress(v, r.nextInt(-3, 10)), v.length));
        });
        m.put("lz4 create/close and reused", (r, i) -> {
            byte[] v = value(r);
            try (Lz4Compressor c = Lz4Compressor.create((int) (i % 10)); Lz4Decompressor d = Lz4Decompressor.create()) {
                same("new lz4 contexts", v, d.decompress(c.compress(v), v.length));
            }
            same("reused lz4 contexts", v, ld.decompress(lc.compress(v), v.length));
        });
        m.put("lz4 frames", (r, i) -> {
            byte[] v = value(r);
            same("Lz4Frame", v, Lz4Frame.decompress(Lz4Frame.compress(v)));
            try (Lz4FrameCompressor c = Lz4FrameCompressor.create(Lz4Frame.Options.DEFAULT.withLevel((int) (i % 4)));
                 Lz4FrameDecompressor d = Lz4FrameDecompressor.create()) {
                same("Lz4FrameCompressor/Decompressor", v, d.decompress(c.compress(v)));
            }
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            try (Lz4FrameOutputStream out = new Lz4FrameOutputStream(sink)) {
                out.write(v);
            }
            try (Lz4FrameInputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(sink.toByteArray()))) {
                same("Lz4FrameOutputStream/InputStream", v, in.readAllBytes());
            }
        });
        m.put("lz4 errors", (r, i) -> {
            byte[] v = value(r);
            byte[] block = Lz4.compress(v);
            fails(CompressionException.class, () -> Lz4.decompress(block, v.length + 1));
            byte[] frame = Lz4Frame.compress(v);
            fails(CompressionException.class, () -> Lz4Frame.decompress(Arrays.copyOf(frame, frame.length - 1)));
        });
        m.put("contexts left to the Cleaner", (r, i) -> {
            if (i % 50 == 0) { // never closed: freed by the Cleaner once unreachable
                byte[] v = value(r);
                ZstdCompressor c = ZstdCompressor.builder().level(1).build();
                same("unclosed zstd", v, ZstdDecompressor.create().decompress(c.compress(v)));
                same("unclosed lz4", v, Lz4FrameDecompressor.create().decompress(Lz4FrameCompressor.create()
                        .compress(v)));
            }
        });
        return m;
    }
}
