package dev.zstdjava.bench;

import dev.zstdjava.lz4.Lz4Decompressor;
import io.airlift.compress.v3.lz4.Lz4JavaDecompressor;
import io.airlift.compress.v3.lz4.Lz4NativeDecompressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
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
 * lz4 block decompression (safe decoding, exact decompressed size known) of one block made by this library in the
 * cell's mode, by each contestant in its best and its convenient form. Method names are {@code <contestant>_<form>}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms2g", "-Xmx2g"})
public class Lz4DecompressBench {

    /** this library: one decompressor, native segments, a heap destination array and direct buffers */
    @State(Scope.Thread)
    public static class ZstdJava {
        Lz4Decompressor d;
        Arena arena;
        MemorySegment src, dst;
        byte[] block, dstArray;
        ByteBuffer bsrc, bdst;
        int size;

        @Setup(Level.Trial)
        public void setup(Lz4Input in) {
            block = in.block;
            size = in.raw.length;
            d = Lz4Decompressor.create();
            arena = Arena.ofConfined();
            src = Check.nativeCopy(arena, block, block.length);
            dst = arena.allocate(Math.max(1, size), 64);
            dstArray = new byte[size];
            bsrc = src.asByteBuffer();
            bdst = dst.asByteBuffer();
            Check.same("zstd-java segment", in.raw, Check.bytes(dst, d.decompress(src, dst)), size);
            Check.same("zstd-java byte[]", in.raw, dstArray, d.decompress(block, 0, block.length, dstArray, 0, size));
            byte[] out = d.decompress(block, size);
            Check.same("zstd-java new byte[]", in.raw, out, out.length);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            d.close();
            arena.close();
        }
    }

    /** lz4-java's JNI safeDecompressor */
    @State(Scope.Thread)
    public static class Lz4Java {
        LZ4SafeDecompressor d;
        byte[] block, dstArray;
        int size;

        @Setup(Level.Trial)
        public void setup(Lz4Input in) {
            block = in.block;
            size = in.raw.length;
            d = LZ4Factory.nativeInstance().safeDecompressor();
            dstArray = new byte[size];
            Check.same("lz4-java", in.raw, dstArray, d.decompress(block, 0, block.length, dstArray, 0, size));
            byte[] out = d.decompress(block, size);
            Check.same("lz4-java new byte[]", in.raw, out, out.length);
        }
    }

    /** aircompressor v3's pure Java decompressor on arrays */
    @State(Scope.Thread)
    public static class AirJava {
        Lz4JavaDecompressor d;
        byte[] block, dstArray;

        @Setup(Level.Trial)
        public void setup(Lz4Input in) {
            block = in.block;
            d = new Lz4JavaDecompressor();
            dstArray = new byte[in.raw.length];
            Check.same("aircompressor java", in.raw, dstArray,
                    d.decompress(block, 0, block.length, dstArray, 0, dstArray.length));
        }
    }

    /** aircompressor v3's FFM binding to its bundled liblz4, on native segments */
    @State(Scope.Thread)
    public static class AirNative {
        Lz4NativeDecompressor d;
        Arena arena;
        MemorySegment src, dst;

        @Setup(Level.Trial)
        public void setup(Lz4Input in) {
            d = new Lz4NativeDecompressor();
            arena = Arena.ofConfined();
            src = Check.nativeCopy(arena, in.block, in.block.length);
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
        return s.d.decompress(s.block, 0, s.block.length, s.dstArray, 0, s.size);
    }

    @Benchmark
    public byte[] zstdjava_arrayNew(ZstdJava s) {
        return s.d.decompress(s.block, s.size);
    }

    @Benchmark
    public int zstdjava_buffer(ZstdJava s) {
        s.bsrc.rewind();
        s.bdst.clear();
        return s.d.decompress(s.bsrc, s.bdst);
    }

    @Benchmark
    public int lz4java_jni(Lz4Java s) {
        return s.d.decompress(s.block, 0, s.block.length, s.dstArray, 0, s.size);
    }

    @Benchmark
    public byte[] lz4java_jniArrayNew(Lz4Java s) {
        return s.d.decompress(s.block, s.size);
    }

    @Benchmark
    public int aircompressor_java(AirJava s) {
        return s.d.decompress(s.block, 0, s.block.length, s.dstArray, 0, s.dstArray.length);
    }

    @Benchmark
    public int aircompressor_native(AirNative s) {
        return s.d.decompress(s.src, s.dst);
    }
}
