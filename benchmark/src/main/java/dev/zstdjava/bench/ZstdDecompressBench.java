package dev.zstdjava.bench;

import com.github.luben.zstd.ZstdDecompressCtx;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdDecompressor;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;
import io.airlift.compress.v3.zstd.ZstdNativeDecompressor;
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
 * zstd decompression of one frame (made by this library at the cell's level, with its content size) per operation,
 * by each contestant in its best and its convenient form. Method names are {@code <contestant>_<form>}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms2g", "-Xmx2g"})
public class ZstdDecompressBench {

    /** this library: one decompressor, native segments, a heap destination array and direct buffers */
    @State(Scope.Thread)
    public static class ZstdJava {
        ZstdDecompressor d;
        Arena arena;
        MemorySegment src, dst;
        byte[] frame, dstArray;
        ByteBuffer bsrc, bdst;

        @Setup(Level.Trial)
        public void setup(ZstdInput in) {
            frame = in.frame;
            d = ZstdDecompressor.create();
            arena = Arena.ofConfined();
            src = Check.nativeCopy(arena, frame, frame.length);
            dst = arena.allocate(Math.max(1, in.raw.length), 64);
            dstArray = new byte[in.raw.length];
            bsrc = src.asByteBuffer();
            bdst = dst.asByteBuffer();
            Check.same("zstd-java segment", in.raw, Check.bytes(dst, d.decompress(src, dst)), in.raw.length);
            Check.same("zstd-java byte[]", in.raw, dstArray,
                    d.decompress(frame, 0, frame.length, dstArray, 0, dstArray.length));
            byte[] out = d.decompress(frame);
            Check.same("zstd-java new byte[]", in.raw, out, out.length);
            out = Zstd.decompress(frame);
            Check.same("zstd-java static", in.raw, out, out.length);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            d.close();
            arena.close();
        }
    }

    /** zstd-jni: a reused context on direct buffers (its best path) and on arrays, and its static method */
    @State(Scope.Thread)
    public static class ZstdJni {
        ZstdDecompressCtx ctx;
        ByteBuffer src, dst;
        byte[] frame, dstArray;
        int size;

        @Setup(Level.Trial)
        public void setup(ZstdInput in) {
            frame = in.frame;
            size = in.raw.length;
            ctx = new ZstdDecompressCtx();
            src = ByteBuffer.allocateDirect(frame.length).put(frame).flip();
            dst = ByteBuffer.allocateDirect(Math.max(1, size));
            dstArray = new byte[size];
            int n = ctx.decompressDirectByteBuffer(dst, 0, dst.capacity(), src, 0, frame.length);
            byte[] out = new byte[n];
            dst.get(0, out);
            Check.same("zstd-jni direct", in.raw, out, n);
            Check.same("zstd-jni ctx byte[]", in.raw, dstArray,
                    ctx.decompressByteArray(dstArray, 0, size, frame, 0, frame.length));
            out = com.github.luben.zstd.Zstd.decompress(frame, size);
            Check.same("zstd-jni static", in.raw, out, out.length);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            ctx.close();
        }
    }

    /** aircompressor v3's pure Java decompressor on arrays */
    @State(Scope.Thread)
    public static class AirJava {
        ZstdJavaDecompressor d;
        byte[] frame, dstArray;

        @Setup(Level.Trial)
        public void setup(ZstdInput in) {
            frame = in.frame;
            d = new ZstdJavaDecompressor();
            dstArray = new byte[in.raw.length];
            Check.same("aircompressor java", in.raw, dstArray,
                    d.decompress(frame, 0, frame.length, dstArray, 0, dstArray.length));
        }
    }

    /** aircompressor v3's FFM binding to the libzstd it bundles, on native segments */
    @State(Scope.Thread)
    public static class AirNative {
        ZstdNativeDecompressor d;
        Arena arena;
        MemorySegment src, dst;

        @Setup(Level.Trial)
        public void setup(ZstdInput in) {
            d = new ZstdNativeDecompressor();
            arena = Arena.ofConfined();
            src = Check.nativeCopy(arena, in.frame, in.frame.length);
            dst = arena.allocate(Math.max(1, in.raw.length), 64);
            Check.same("aircompressor native", in.raw, Check.bytes(dst, d.decompress(src, dst)), in.raw.length);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    @Benchmark
    public long zstdjava_segment(ZstdJava s) {
        return s.d.decompress(s.src, s.dst);
    }

    @Benchmark
    public int zstdjava_arrayDst(ZstdJava s) {
        return s.d.decompress(s.frame, 0, s.frame.length, s.dstArray, 0, s.dstArray.length);
    }

    @Benchmark
    public byte[] zstdjava_arrayNew(ZstdJava s) {
        return s.d.decompress(s.frame);
    }

    @Benchmark
    public int zstdjava_buffer(ZstdJava s) {
        s.bsrc.rewind();
        s.bdst.clear();
        return s.d.decompress(s.bsrc, s.bdst);
    }

    @Benchmark
    public byte[] zstdjava_static(ZstdJava s) {
        return Zstd.decompress(s.frame);
    }

    @Benchmark
    public byte[] zstdjni_static(ZstdJni s) {
        return com.github.luben.zstd.Zstd.decompress(s.frame, s.size);
    }

    @Benchmark
    public int zstdjni_ctxArray(ZstdJni s) {
        return s.ctx.decompressByteArray(s.dstArray, 0, s.size, s.frame, 0, s.frame.length);
    }

    @Benchmark
    public int zstdjni_ctxDirect(ZstdJni s) {
        return s.ctx.decompressDirectByteBuffer(s.dst, 0, s.dst.capacity(), s.src, 0, s.frame.length);
    }

    @Benchmark
    public int aircompressor_java(AirJava s) {
        return s.d.decompress(s.frame, 0, s.frame.length, s.dstArray, 0, s.dstArray.length);
    }

    @Benchmark
    public int aircompressor_native(AirNative s) {
        return s.d.decompress(s.src, s.dst);
    }
}
