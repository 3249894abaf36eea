package dev.zstdjava.bench;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import dev.zstdjava.bench.Peers.Cell;
import dev.zstdjava.bench.Peers.Call;
import dev.zstdjava.bench.Peers.Contestant;
import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;
import io.airlift.compress.v3.lz4.Lz4NativeCompressor;
import io.airlift.compress.v3.lz4.Lz4NativeDecompressor;
import io.airlift.compress.v3.zstd.ZstdNativeCompressor;
import io.airlift.compress.v3.zstd.ZstdNativeDecompressor;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.bench.Peers.OURS;
import static dev.zstdjava.bench.Peers.SOURCE;

/**
 * One JVM of {@link Peers}: every cell's contestants prepared on the same JSON slice and checked, then timed in
 * interleaved rounds (each round runs every contestant of the cell once, in a rotating order). Writes one line per
 * measured round: cell, {@code library|form|kind}, ns per call.
 *
 * <pre>  PeerCells --child OUT.tsv ROUNDS WARMUP_ROUNDS ROUND_MS SIZES [ONLY]</pre>
 */
public final class PeerCells {
    private PeerCells() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 6 || !args[0].equals("--child")) {
            throw new IllegalArgumentException("usage: Peers --child OUT.tsv ROUNDS WARMUP ROUND_MS SIZES [ONLY]");
        }
        Path out = Path.of(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        long roundNs = TimeUnit.MILLISECONDS.toNanos(Integer.parseInt(args[4]));
        List<Integer> sizes = Arrays.stream(args[5].split(",")).map(Integer::parseInt).toList();
        String only = args.length > 6 ? args[6] : "";
        byte[] source = Payloads.load(SOURCE);
        StringBuilder tsv = new StringBuilder();
        try (Arena arena = Arena.ofConfined()) {
            for (int size : sizes) {
                byte[] raw = Peers.slice(source, size);
                for (Cell cell : cells(raw, arena)) {
                    if (!cell.name().startsWith(only)) {
                        continue;
                    }
                    List<Contestant> cs = cell.contestants();
                    for (int r = -warmup; r < rounds; r++) {
                        for (int k = 0; k < cs.size(); k++) {
                            Contestant c = cs.get(Math.floorMod(k + r, cs.size())); // a rotating order
                            double ns = time(c.call(), roundNs);
                            if (r >= 0) {
                                tsv.append(cell.name()).append('\t').append(c.library()).append('|').append(c.form())
                                        .append('|').append(c.kind()).append('\t')
                                        .append(String.format(Locale.ROOT, "%.3f", ns)).append('\n');
                            }
                        }
                    }
                    System.out.printf("peers:   %s: %d contestants%n", cell.name(), cs.size());
                }
            }
        }
        Files.writeString(out, tsv);
        if (sink == 42) {
            System.out.println();
        }
    }

    private static long sink;

    /** @return ns per call of {@code call}, run in batches for at least {@code budgetNs} (at least one call) */
    static double time(Call call, long budgetNs) {
        long calls = 0;
        long start = System.nanoTime();
        long elapsed;
        int batch = 1;
        do {
            for (int i = 0; i < batch; i++) {
                sink += call.run();
            }
            calls += batch;
            elapsed = System.nanoTime() - start;
            if (batch < 1 << 16) {
                batch <<= 1;
            }
        } while (elapsed < budgetNs);
        return (double) elapsed / calls;
    }

    /** Every cell of one JSON slice: zstd level 3 and lz4, compression and decompression, all contestants checked. */
    static List<Cell> cells(byte[] raw, Arena a) {
        String size = raw.length >= 1024 ? (raw.length >> 10) + "KiB" : raw.length + "B";
        return List.of(zstdCompress(raw, a, "zstd.compress." + size), zstdDecompress(raw, a, "zstd.decompress." + size),
                lz4Compress(raw, a, "lz4.compress." + size), lz4Decompress(raw, a, "lz4.decompress." + size));
    }

    static final String NATIVE = "native", ARRAY = "byte[]", NEW = "new byte[]";

    /**
     * The memory of one cell: the input in native memory ({@code src}, and {@code bsrc} its direct buffer), a native
     * destination ({@code dst}, {@code bdst}) and a heap one for this library; a direct-buffer pair for the JNI peer
     * and a segment pair and heap destination for aircompressor, each of {@code outCap} bytes.
     */
    record Memory(MemorySegment src, MemorySegment dst, ByteBuffer bsrc, ByteBuffer bdst, byte[] dstArray,
                  ByteBuffer jniSrc, ByteBuffer jniDst, MemorySegment airSrc, MemorySegment airDst, byte[] airArray) {
        static Memory of(Arena a, byte[] in, int outCap) {
            MemorySegment src = Check.nativeCopy(a, in, in.length);
            MemorySegment dst = a.allocate(Math.max(1, outCap), 64);
            return new Memory(src, dst, src.asByteBuffer(), dst.asByteBuffer(), new byte[outCap],
                    ByteBuffer.allocateDirect(in.length).put(in).flip(), ByteBuffer.allocateDirect(outCap),
                    Check.nativeCopy(a, in, in.length), a.allocate(Math.max(1, outCap), 64), new byte[outCap]);
        }
    }
    static final int LEVEL = 3;

    static Cell zstdCompress(byte[] raw, Arena a, String name) {
        int bound = (int) Zstd.compressBound(raw.length);
        Memory m = Memory.of(a, raw, bound);
        MemorySegment src = m.src(), dst = m.dst(), asrc = m.airSrc(), adst = m.airDst();
        ByteBuffer bsrc = m.bsrc(), bdst = m.bdst(), jsrc = m.jniSrc(), jdst = m.jniDst();
        byte[] dstArray = m.dstArray(), airArray = m.airArray();
        ZstdCompressor ours = ZstdCompressor.create(LEVEL);
        ZstdCompressCtx jni = new ZstdCompressCtx();
        jni.setLevel(LEVEL);
        ZstdNativeCompressor air = new ZstdNativeCompressor(LEVEL);
        List<Contestant> cs = List.of(
                new Contestant(OURS, "segment", NATIVE, () -> ours.compress(src, dst)),
                new Contestant(OURS, "direct ByteBuffer", NATIVE, () -> ours.compress(bsrc.rewind(), bdst.clear())),
                new Contestant(OURS, "byte[] into byte[]", ARRAY,
                        () -> ours.compress(raw, 0, raw.length, dstArray, 0, bound)),
                new Contestant(OURS, "compress(byte[])", NEW, () -> ours.compress(raw).length),
                new Contestant(OURS, "Zstd.compress static", NEW, () -> Zstd.compress(raw, LEVEL).length),
                new Contestant("zstd-jni", "ctx direct ByteBuffer", NATIVE,
                        () -> jni.compressDirectByteBuffer(jdst, 0, bound, jsrc, 0, raw.length)),
                new Contestant("zstd-jni", "ctx byte[] into byte[]", ARRAY,
                        () -> jni.compressByteArray(dstArray, 0, bound, raw, 0, raw.length)),
                new Contestant("zstd-jni", "ctx compress(byte[])", NEW, () -> jni.compress(raw).length),
                new Contestant("zstd-jni", "Zstd.compress static", NEW,
                        () -> com.github.luben.zstd.Zstd.compress(raw, LEVEL).length),
                new Contestant("aircompressor", "native segment", NATIVE, () -> air.compress(asrc, adst)),
                new Contestant("aircompressor", "native byte[] into byte[]", ARRAY,
                        () -> air.compress(raw, 0, raw.length, airArray, 0, airArray.length)));
        // every contestant writes a frame that decodes to the slice
        for (Contestant c : cs) {
            byte[] frame = output(c, m, c.call().run());
            if (frame != null) {
                Check.zstdFrame(c.name(), raw, frame, frame.length);
            }
        }
        byte[] f = ours.compress(raw);
        Check.zstdFrame("zstd-java compress(byte[])", raw, f, f.length);
        f = jni.compress(raw);
        Check.zstdFrame("zstd-jni ctx compress(byte[])", raw, f, f.length);
        return new Cell(name, cs);
    }

    static Cell zstdDecompress(byte[] raw, Arena a, String name) {
        byte[] frame = ZstdCompressor.create(LEVEL).compress(raw);
        Memory m = Memory.of(a, frame, raw.length);
        MemorySegment src = m.src(), dst = m.dst(), asrc = m.airSrc(), adst = m.airDst();
        ByteBuffer bsrc = m.bsrc(), bdst = m.bdst(), jsrc = m.jniSrc(), jdst = m.jniDst();
        byte[] dstArray = m.dstArray(), airArray = m.airArray();
        ZstdDecompressor ours = ZstdDecompressor.create();
        ZstdDecompressCtx jni = new ZstdDecompressCtx();
        ZstdNativeDecompressor air = new ZstdNativeDecompressor();
        int n = raw.length;
        List<Contestant> cs = List.of(
                new Contestant(OURS, "segment", NATIVE, () -> ours.decompress(src, dst)),
                new Contestant(OURS, "direct ByteBuffer", NATIVE, () -> ours.decompress(bsrc.rewind(), bdst.clear())),
                new Contestant(OURS, "byte[] into byte[]", ARRAY,
                        () -> ours.decompress(frame, 0, frame.length, dstArray, 0, n)),
                new Contestant(OURS, "decompress(byte[])", NEW, () -> ours.decompress(frame).length),
                new Contestant(OURS, "Zstd.decompress static", NEW, () -> Zstd.decompress(frame).length),
                new Contestant("zstd-jni", "ctx direct ByteBuffer", NATIVE,
                        () -> jni.decompressDirectByteBuffer(jdst, 0, n, jsrc, 0, frame.length)),
                new Contestant("zstd-jni", "ctx byte[] into byte[]", ARRAY,
                        () -> jni.decompressByteArray(dstArray, 0, n, frame, 0, frame.length)),
                new Contestant("zstd-jni", "ctx decompress(byte[], size)", NEW, () -> jni.decompress(frame, n).length),
                new Contestant("zstd-jni", "Zstd.decompress static", NEW,
                        () -> com.github.luben.zstd.Zstd.decompress(frame, n).length),
                new Contestant("aircompressor", "native segment", NATIVE, () -> air.decompress(asrc, adst)),
                new Contestant("aircompressor", "native byte[] into byte[]", ARRAY,
                        () -> air.decompress(frame, 0, frame.length, airArray, 0, n)));
        checkDecoders(cs, raw, m);
        Check.same("zstd-java decompress(byte[])", raw, ours.decompress(frame), n);
        Check.same("zstd-jni decompress(byte[], size)", raw, jni.decompress(frame, n), n);
        return new Cell(name, cs);
    }

    /**
     * @return the first {@code n} bytes a contestant's call wrote to its destination in {@code m} (where its form
     *         writes), or null for the new-array forms, whose result is not kept
     */
    static byte[] output(Contestant c, Memory m, long n) {
        boolean air = c.library().equals("aircompressor");
        return switch (c.kind()) {
            case NATIVE -> Check.bytes(c.ours() ? m.dst() : air ? m.airDst() : MemorySegment.ofBuffer(m.jniDst()), n);
            case ARRAY -> Arrays.copyOf(air ? m.airArray() : m.dstArray(), (int) n);
            default -> null;
        };
    }

    /** Runs each decoder once and checks its output (in the destination its form writes to, or its length). */
    private static void checkDecoders(List<Contestant> cs, byte[] raw, Memory m) {
        for (Contestant c : cs) {
            Arrays.fill(m.dstArray(), (byte) 0);
            Arrays.fill(m.airArray(), (byte) 0);
            m.dst().fill((byte) 0);
            m.airDst().fill((byte) 0);
            long n = c.call().run();
            byte[] out = output(c, m, n);
            Check.same(c.name(), raw, out == null ? raw : out, n);
        }
    }

    static Cell lz4Compress(byte[] raw, Arena a, String name) {
        int bound = Lz4.maxCompressedLength(raw.length);
        Memory m = Memory.of(a, raw, bound);
        MemorySegment src = m.src(), dst = m.dst(), asrc = m.airSrc(), adst = m.airDst();
        ByteBuffer bsrc = m.bsrc(), bdst = m.bdst(), jsrc = m.jniSrc(), jdst = m.jniDst();
        byte[] dstArray = m.dstArray(), airArray = m.airArray();
        Lz4Compressor ours = Lz4Compressor.create(0);
        LZ4Compressor jni = LZ4Factory.nativeInstance().fastCompressor();
        Lz4NativeCompressor air = new Lz4NativeCompressor(1);
        List<Contestant> cs = List.of(
                new Contestant(OURS, "segment", NATIVE, () -> ours.compress(src, dst)),
                new Contestant(OURS, "direct ByteBuffer", NATIVE, () -> ours.compress(bsrc.rewind(), bdst.clear())),
                new Contestant(OURS, "byte[] into byte[]", ARRAY,
                        () -> ours.compress(raw, 0, raw.length, dstArray, 0, bound)),
                new Contestant(OURS, "compress(byte[])", NEW, () -> ours.compress(raw).length),
                new Contestant(OURS, "Lz4.compress static", NEW, () -> Lz4.compress(raw).length),
                new Contestant("lz4-java", "direct ByteBuffer", NATIVE,
                        () -> jni.compress(jsrc, 0, raw.length, jdst, 0, bound)),
                new Contestant("lz4-java", "byte[] into byte[]", ARRAY,
                        () -> jni.compress(raw, 0, raw.length, dstArray, 0, bound)),
                new Contestant("lz4-java", "compress(byte[])", NEW, () -> jni.compress(raw).length),
                new Contestant("aircompressor", "native segment", NATIVE, () -> air.compress(asrc, adst)),
                new Contestant("aircompressor", "native byte[] into byte[]", ARRAY,
                        () -> air.compress(raw, 0, raw.length, airArray, 0, airArray.length)));
        for (Contestant c : cs) {
            byte[] block = output(c, m, c.call().run());
            if (block != null) {
                Check.lz4Block(c.name(), raw, block, block.length);
            }
        }
        byte[] b = ours.compress(raw);
        Check.lz4Block("zstd-java compress(byte[])", raw, b, b.length);
        b = jni.compress(raw);
        Check.lz4Block("lz4-java compress(byte[])", raw, b, b.length);
        return new Cell(name, cs);
    }

    static Cell lz4Decompress(byte[] raw, Arena a, String name) {
        byte[] block = Lz4Compressor.create(0).compress(raw);
        Memory m = Memory.of(a, block, raw.length);
        MemorySegment src = m.src(), dst = m.dst(), asrc = m.airSrc(), adst = m.airDst();
        ByteBuffer bsrc = m.bsrc(), bdst = m.bdst(), jsrc = m.jniSrc(), jdst = m.jniDst();
        byte[] dstArray = m.dstArray(), airArray = m.airArray();
        Lz4Decompressor ours = Lz4Decompressor.create();
        LZ4SafeDecompressor jni = LZ4Factory.nativeInstance().safeDecompressor();
        Lz4NativeDecompressor air = new Lz4NativeDecompressor();
        int n = raw.length;
        List<Contestant> cs = List.of(
                new Contestant(OURS, "segment", NATIVE, () -> ours.decompress(src, dst)),
                new Contestant(OURS, "direct ByteBuffer", NATIVE, () -> ours.decompress(bsrc.rewind(), bdst.clear())),
                new Contestant(OURS, "byte[] into byte[]", ARRAY,
                        () -> ours.decompress(block, 0, block.length, dstArray, 0, n)),
                new Contestant(OURS, "decompress(byte[], size)", NEW, () -> ours.decompress(block, n).length),
                new Contestant(OURS, "Lz4.decompress static", NEW, () -> Lz4.decompress(block, n).length),
                new Contestant("lz4-java", "safe direct ByteBuffer", NATIVE,
                        () -> jni.decompress(jsrc, 0, block.length, jdst, 0, n)),
                new Contestant("lz4-java", "safe byte[] into byte[]", ARRAY,
                        () -> jni.decompress(block, 0, block.length, dstArray, 0, n)),
                new Contestant("lz4-java", "safe decompress(byte[], size)", NEW, () -> jni.decompress(block, n).length),
                new Contestant("aircompressor", "native segment", NATIVE, () -> air.decompress(asrc, adst)),
                new Contestant("aircompressor", "native byte[] into byte[]", ARRAY,
                        () -> air.decompress(block, 0, block.length, airArray, 0, n)));
        checkDecoders(cs, raw, m);
        Check.same("zstd-java decompress(byte[], size)", raw, ours.decompress(block, n), n);
        Check.same("lz4-java decompress(byte[], size)", raw, jni.decompress(block, n), n);
        return new Cell(name, cs);
    }
}
