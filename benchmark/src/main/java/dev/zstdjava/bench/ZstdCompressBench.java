package dev.zstdjava.bench;

import com.github.luben.zstd.ZstdCompressCtx;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressor;
import io.airlift.compress.v3.zstd.ZstdJavaCompressor;
import io.airlift.compress.v3.zstd.ZstdNativeCompressor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * zstd compression of one payload at one level, one frame per operation, by each contestant in its best and its
 * convenient form. Method names are {@code <contestant>_<form>}; the report tool reads them.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms2g", "-Xmx2g"})
public class ZstdCompressBench {

    /** this library: one compressor, native segments, a heap destination array and direct buffers */
    @State(Scope.Thread)
    public static class ZstdJava {
        ZstdCompressor c;
        Arena arena;
        MemorySegment src, dst;
        byte[] raw, dstArray;
        ByteBuffer bsrc, bdst;
        int level;

        @Setup(Level.Trial)
        public void setup(ZstdInput in) {
            raw = in.raw;
            level = in.level;
            c = ZstdCompressor.create(in.level);
            int bound = (int) Zstd.compressBound(raw.length);
            arena = Arena.ofConfined();
            src = Check.nativeCopy(arena, raw, raw.length);
            dst = arena.allocate(bound, 64);
            dstArray = new byte[bound];
            bsrc = src.asByteBuffer();
            bdst = dst.asByteBuffer();
            long n = c.compress(src, dst);
            Check.zstdFrame("zstd-java segment", raw, Check.bytes(dst, n), (int) n);
            Check.zstdFrame("zstd-java byte[]", raw, dstArray, c.compress(raw, 0, raw.length, dstArray, 0, bound));
            byte[] f = c.compress(raw);
            Check.zstdFrame("zstd-java new byte[]", raw, f, f.length);
            f = Zstd.compress(raw, level);
            Check.zstdFrame("zstd-java static", raw, f, f.length);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            c.close();
            arena.close();
        }
    }

    /** zstd-jni: a reused context on direct buffers (its best path) and on arrays, and its static method */
    @State(Scope.Thread)
    public static class ZstdJni {
        ZstdCompressCtx ctx;
        ByteBuffer src, dst;
        byte[] raw, dstArray;
        int level;

        @Setup(Level.Trial)
        public void setup(ZstdInput in) {
            raw = in.raw;
            level = in.level;
            ctx = new ZstdCompressCtx();
            ctx.setLevel(level);
            int bound = (int) com.github.luben.zstd.Zstd.compressBound(raw.length);
            src = ByteBuffer.allocateDirect(Math.max(1, raw.length)).put(raw).flip();
            dst = ByteBuffer.allocateDirect(bound);
            dstArray = new byte[bound];
            int n = ctx.compressDirectByteBuffer(dst, 0, bound, src, 0, raw.length);
            byte[] f = new byte[n];
            dst.get(0, f);
            Check.zstdFrame("zstd-jni direct", raw, f, n);
            Check.zstdFrame("zstd-jni ctx byte[]", raw, dstArray,
                    ctx.compressByteArray(dstArray, 0, bound, raw, 0, raw.length));
            f = com.github.luben.zstd.Zstd.compress(raw, level);
            Check.zstdFrame("zstd-jni static", raw, f, f.length);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            ctx.close();
        }
    }

    /** aircompressor v3's pure Java compressor: it has one level only (zstd's 3), so other levels fail here */
    @State(Scope.Thread)
    public static class AirJava {
        ZstdJavaCompressor c;
        byte[] raw, dstArray;

        @Setup(Level.Trial)
        public void setup(ZstdInput in) {
            if (in.level != 3) {
                throw new IllegalArgumentException("aircompressor's Java zstd compressor has no level setting (it "
                        + "always compresses like level 3); this cell asks for level " + in.level);
            }
            raw = in.raw;
            c = new ZstdJavaCompressor();
            dstArray = new byte[c.maxCompressedLength(raw.length)];
            Check.zstdFrame("aircompressor java", raw, dstArray,
                    c.compress(raw, 0, raw.length, dstArray, 0, dstArray.length));
        }
    }

    /** aircompressor v3's FFM binding to the libzstd it bundles, on native segments */
    @State(Scope.Thread)
    public static class AirNative {
        ZstdNativeCompressor c;
        Arena arena;
        MemorySegment src, dst;

        @Setup(Level.Trial)
        public void setup(ZstdInput in) {
            c = new ZstdNativeCompressor(in.level);
            arena = Arena.ofConfined();
            src = Check.nativeCopy(arena, in.raw, in.raw.length);
            dst = arena.allocate(c.maxCompressedLength(in.raw.length), 64);
            int n = c.compress(src, dst);
            Check.zstdFrame("aircompressor native", in.raw, Check.bytes(dst, n), n);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    @Benchmark
    public long zstdjava_segment(ZstdJava s) {
        return s.c.compress(s.src, s.dst);
    }

    @Benchmark
    public int zstdjava_arrayDst(ZstdJava s) {
        return s.c.compress(s.raw, 0, s.raw.length, s.dstArray, 0, s.dstArray.length);
    }

    @Benchmark
    public byte[] zstdjava_arrayNew(ZstdJava s) {
        return s.c.compress(s.raw);
    }

    @Benchmark
    public int zstdjava_buffer(ZstdJava s) {
        s.bsrc.rewind();
        s.bdst.clear();
        return s.c.compress(s.bsrc, s.bdst);
    }

    @Benchmark
    public byte[] zstdjava_static(ZstdJava s) {
        return Zstd.compress(s.raw, s.level);
    }

    @Benchmark
    public byte[] zstdjni_static(ZstdJni s) {
        return com.github.luben.zstd.Zstd.compress(s.raw, s.level);
    }

    @Benchmark
    public int zstdjni_ctxArray(ZstdJni s) {
        return s.ctx.compressByteArray(s.dstArray, 0, s.dstArray.length, s.raw, 0, s.raw.length);
    }

    @Benchmark
    public int zstdjni_ctxDirect(ZstdJni s) {
        return s.ctx.compressDirectByteBuffer(s.dst, 0, s.dst.capacity(), s.src, 0, s.raw.length);
    }

    @Benchmark
    public int aircompressor_java(AirJava s) {
        return s.c.compress(s.raw, 0, s.raw.length, s.dstArray, 0, s.dstArray.length);
    }

    @Benchmark
    public int aircompressor_native(AirNative s) {
        return s.c.compress(s.src, s.dst);
    }
}
