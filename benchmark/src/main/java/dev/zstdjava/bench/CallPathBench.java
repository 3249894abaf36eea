package dev.zstdjava.bench;

import dev.zstdjava.internal.ContextCache;
import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * The fixed cost of a call by guard: the same lz4 and zstd calls on a shared (guarded: one compare-and-set per call)
 * and on a confined object (a plain read of the owner thread), and the static one-liners, whose per-thread contexts
 * are confined on platform threads. Compare {@code lz4_segmentCompress_*} with the C reference's lz4 compress of the
 * same payload ({@code ./bench targets} has it) for the 0.85x-of-C target, and {@code *_shared} with
 * {@code *_confined} for the guard's share, and {@code *_tryCompressAt_*} (a frame after a 5- or 9-byte header, copied
 * into the range from the compressor's native buffer) with {@code *_tryCompressSlice_*} (the same into a view of the
 * range) for what the copy costs against the view it replaces: heap value into a heap or a native destination, as
 * {@code ValueCompressor}'s segment write takes them.
 *
 * <pre>  java -jar benchmarks.jar CallPathBench -p payload=text-128</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(value = 3, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class CallPathBench {
    // The static one-liners' per-thread contexts as they are (confined on platform threads) and as they were before
    // (every thread's context shared, so guarded): the same calls through the same cache, only the context differs.
    // Compare *_cacheConfined with *_cacheGuarded for what the confined per-thread context saves a one-liner.
    private static final ContextCache<Lz4Compressor> LZ4C_CONFINED = new ContextCache<>(
            () -> Lz4Compressor.builder().confined().build(), () -> Lz4Compressor.create(0), Lz4Compressor::close);
    private static final ContextCache<Lz4Compressor> LZ4C_GUARDED = new ContextCache<>(
            () -> Lz4Compressor.create(0), () -> Lz4Compressor.create(0), Lz4Compressor::close);
    private static final ContextCache<Lz4Decompressor> LZ4D_CONFINED = new ContextCache<>(
            () -> Lz4Decompressor.builder().confined().build(), Lz4Decompressor::create, Lz4Decompressor::close);
    private static final ContextCache<Lz4Decompressor> LZ4D_GUARDED = new ContextCache<>(
            Lz4Decompressor::create, Lz4Decompressor::create, Lz4Decompressor::close);
    private static final ContextCache<ZstdCompressor> ZSTDC_CONFINED = new ContextCache<>(
            () -> ZstdCompressor.builder().level(3).confined().build(), () -> ZstdCompressor.create(3),
            ZstdCompressor::close);
    private static final ContextCache<ZstdCompressor> ZSTDC_GUARDED = new ContextCache<>(
            () -> ZstdCompressor.create(3), () -> ZstdCompressor.create(3), ZstdCompressor::close);
    private static final ContextCache<ZstdDecompressor> ZSTDD_CONFINED = new ContextCache<>(
            () -> ZstdDecompressor.builder().confined().build(), ZstdDecompressor::create, ZstdDecompressor::close);
    private static final ContextCache<ZstdDecompressor> ZSTDD_GUARDED = new ContextCache<>(
            ZstdDecompressor::create, ZstdDecompressor::create, ZstdDecompressor::close);

    @State(Scope.Thread)
    public static class Input {
        @Param({"text-128", "text-1k"})
        String payload;

        byte[] raw, lz4Block, zstdFrame;
        Arena arena;
        MemorySegment src, dst, block, frame, out, heapSrc, heapDst;
        Lz4Compressor lcShared, lcConfined;
        Lz4Decompressor ldShared, ldConfined;
        ZstdCompressor zcShared, zcConfined;
        ZstdDecompressor zdShared, zdConfined;

        @Setup(Level.Trial)
        public void setup() {
            raw = Payloads.load(payload);
            lcShared = Lz4Compressor.create(0);
            lcConfined = Lz4Compressor.builder().level(0).confined().build();
            ldShared = Lz4Decompressor.create();
            ldConfined = Lz4Decompressor.builder().confined().build();
            zcShared = ZstdCompressor.create(3);
            zcConfined = ZstdCompressor.builder().level(3).confined().build();
            zdShared = ZstdDecompressor.create();
            zdConfined = ZstdDecompressor.builder().confined().build();
            lz4Block = lcShared.compress(raw);
            zstdFrame = zcShared.compress(raw);
            arena = Arena.ofConfined();
            src = Check.nativeCopy(arena, raw, raw.length);
            dst = arena.allocate(Math.max(Lz4.maxCompressedLength(raw.length), Zstd.compressBound(raw.length)), 64);
            block = Check.nativeCopy(arena, lz4Block, lz4Block.length);
            frame = Check.nativeCopy(arena, zstdFrame, zstdFrame.length);
            out = arena.allocate(raw.length, 64);
            heapSrc = MemorySegment.ofArray(raw);
            heapDst = MemorySegment.ofArray(new byte[(int) dst.byteSize()]);
            long at = zcShared.tryCompress(heapSrc, heapDst, 5, heapDst.byteSize() - 5);
            Check.same("tryCompressAt", raw, Zstd.decompress(Check.bytes(heapDst.asSlice(5), at)), raw.length);
            long n = lcConfined.compress(src, dst);
            Check.lz4Block("confined", raw, Check.bytes(dst, n), (int) n);
            Check.same("confined", raw, Check.bytes(out, ldConfined.decompress(block, out)), raw.length);
            Check.same("confined", raw, Check.bytes(out, zdConfined.decompress(frame, out)), raw.length);
            Check.same("static", raw, Lz4.decompress(Lz4.compress(raw), raw.length), raw.length);
            Check.same("static", raw, Zstd.decompress(Zstd.compress(raw, 3)), raw.length);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            for (AutoCloseable c : new AutoCloseable[] {lcShared, lcConfined, ldShared, ldConfined, zcShared,
                zcConfined, zdShared, zdConfined}) {
                try {
                    c.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            arena.close();
        }
    }

    @Benchmark
    public long lz4_segmentCompress_shared(Input s) {
        return s.lcShared.compress(s.src, s.dst);
    }

    @Benchmark
    public long lz4_segmentCompress_confined(Input s) {
        return s.lcConfined.compress(s.src, s.dst);
    }

    @Benchmark
    public long lz4_segmentDecompress_shared(Input s) {
        return s.ldShared.decompress(s.block, s.out);
    }

    @Benchmark
    public long lz4_segmentDecompress_confined(Input s) {
        return s.ldConfined.decompress(s.block, s.out);
    }

    @Benchmark
    public byte[] lz4_arrayNewCompress_shared(Input s) {
        return s.lcShared.compress(s.raw);
    }

    @Benchmark
    public byte[] lz4_staticCompress(Input s) {
        return Lz4.compress(s.raw);
    }

    @Benchmark
    public byte[] lz4_arrayNewDecompress_shared(Input s) {
        return s.ldShared.decompress(s.lz4Block, s.raw.length);
    }

    @Benchmark
    public byte[] lz4_staticDecompress(Input s) {
        return Lz4.decompress(s.lz4Block, s.raw.length);
    }

    @Benchmark
    public long zstd_tryCompressAt_heapDst(Input s) {
        return s.zcShared.tryCompress(s.heapSrc, s.heapDst, 5, s.heapDst.byteSize() - 5);
    }

    @Benchmark
    public long zstd_tryCompressSlice_heapDst(Input s) {
        return s.zcShared.tryCompress(s.heapSrc, s.heapDst.asSlice(5, s.heapDst.byteSize() - 5));
    }

    @Benchmark
    public long zstd_tryCompressAt_nativeDst(Input s) {
        return s.zcShared.tryCompress(s.heapSrc, s.dst, 5, s.dst.byteSize() - 5);
    }

    @Benchmark
    public long zstd_tryCompressSlice_nativeDst(Input s) {
        return s.zcShared.tryCompress(s.heapSrc, s.dst.asSlice(5, s.dst.byteSize() - 5));
    }

    @Benchmark
    public long lz4_tryCompressAt_heapDst(Input s) {
        return s.lcShared.tryCompress(s.heapSrc, s.heapDst, 9, s.heapDst.byteSize() - 9);
    }

    @Benchmark
    public long lz4_tryCompressSlice_heapDst(Input s) {
        return s.lcShared.tryCompress(s.heapSrc, s.heapDst.asSlice(9, s.heapDst.byteSize() - 9));
    }

    @Benchmark
    public long lz4_tryCompressAt_nativeDst(Input s) {
        return s.lcShared.tryCompress(s.heapSrc, s.dst, 9, s.dst.byteSize() - 9);
    }

    @Benchmark
    public long lz4_tryCompressSlice_nativeDst(Input s) {
        return s.lcShared.tryCompress(s.heapSrc, s.dst.asSlice(9, s.dst.byteSize() - 9));
    }

    @Benchmark
    public long zstd_segmentCompress_shared(Input s) {
        return s.zcShared.compress(s.src, s.dst);
    }

    @Benchmark
    public long zstd_segmentCompress_confined(Input s) {
        return s.zcConfined.compress(s.src, s.dst);
    }

    @Benchmark
    public byte[] zstd_arrayNewCompress_shared(Input s) {
        return s.zcShared.compress(s.raw);
    }

    @Benchmark
    public byte[] zstd_staticCompress(Input s) {
        return Zstd.compress(s.raw, 3);
    }

    @Benchmark
    public byte[] zstd_arrayNewDecompress_shared(Input s) {
        return s.zdShared.decompress(s.zstdFrame);
    }

    @Benchmark
    public byte[] zstd_staticDecompress(Input s) {
        return Zstd.decompress(s.zstdFrame);
    }

    @Benchmark
    public long zstd_segmentDecompress_shared(Input s) {
        return s.zdShared.decompress(s.frame, s.out);
    }

    @Benchmark
    public long zstd_segmentDecompress_confined(Input s) {
        return s.zdConfined.decompress(s.frame, s.out);
    }

    @Benchmark
    public byte[] lz4_staticCompress_cacheConfined(Input s) {
        return LZ4C_CONFINED.run((c, src, off, len, level) -> c.compress(src, off, len), s.raw, 0, s.raw.length, 0);
    }

    @Benchmark
    public byte[] lz4_staticCompress_cacheGuarded(Input s) {
        return LZ4C_GUARDED.run((c, src, off, len, level) -> c.compress(src, off, len), s.raw, 0, s.raw.length, 0);
    }

    @Benchmark
    public byte[] lz4_staticDecompress_cacheConfined(Input s) {
        return LZ4D_CONFINED.run((d, src, off, len, size) -> d.decompress(src, off, len, (int) size), s.lz4Block, 0,
                s.lz4Block.length, s.raw.length);
    }

    @Benchmark
    public byte[] lz4_staticDecompress_cacheGuarded(Input s) {
        return LZ4D_GUARDED.run((d, src, off, len, size) -> d.decompress(src, off, len, (int) size), s.lz4Block, 0,
                s.lz4Block.length, s.raw.length);
    }

    @Benchmark
    public byte[] zstd_staticCompress_cacheConfined(Input s) {
        return ZSTDC_CONFINED.run((c, src, off, len, level) -> c.compress(src, off, len), s.raw, 0, s.raw.length, 3);
    }

    @Benchmark
    public byte[] zstd_staticCompress_cacheGuarded(Input s) {
        return ZSTDC_GUARDED.run((c, src, off, len, level) -> c.compress(src, off, len), s.raw, 0, s.raw.length, 3);
    }

    @Benchmark
    public byte[] zstd_staticDecompress_cacheConfined(Input s) {
        return ZSTDD_CONFINED.run((d, src, off, len, max) -> d.decompress(src, off, len), s.zstdFrame, 0,
                s.zstdFrame.length, 0);
    }

    @Benchmark
    public byte[] zstd_staticDecompress_cacheGuarded(Input s) {
        return ZSTDD_GUARDED.run((d, src, off, len, max) -> d.decompress(src, off, len), s.zstdFrame, 0,
                s.zstdFrame.length, 0);
    }
}
