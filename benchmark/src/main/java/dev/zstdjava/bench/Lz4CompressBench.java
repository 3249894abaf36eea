package dev.zstdjava.bench;

import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Compressor;
import io.airlift.compress.v3.lz4.Lz4JavaCompressor;
import io.airlift.compress.v3.lz4.Lz4NativeCompressor;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
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
 * lz4 block compression of one payload in one mode, one raw block per operation, by each contestant in its best and
 * its convenient form. Method names are {@code <contestant>_<form>}; the report tool reads them.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms2g", "-Xmx2g"})
public class Lz4CompressBench {

    /** this library: one compressor, native segments, a heap destination array and direct buffers */
    @State(Scope.Thread)
    public static class ZstdJava {
        Lz4Compressor c;
        Arena arena;
        MemorySegment src, dst;
        byte[] raw, dstArray;
        ByteBuffer bsrc, bdst;

        @Setup(Level.Trial)
        public void setup(Lz4Input in) {
            raw = in.raw;
            c = Lz4Compressor.create(Lz4Modes.level(in.mode));
            int bound = Lz4.maxCompressedLength(raw.length);
            arena = Arena.ofConfined();
            src = Check.nativeCopy(arena, raw, raw.length);
            dst = arena.allocate(bound, 64);
            dstArray = new byte[bound];
            bsrc = src.asByteBuffer();
            bdst = dst.asByteBuffer();
            long n = c.compress(src, dst);
            Check.lz4Block("zstd-java segment", raw, Check.bytes(dst, n), (int) n);
            Check.lz4Block("zstd-java byte[]", raw, dstArray, c.compress(raw, 0, raw.length, dstArray, 0, bound));
            byte[] f = c.compress(raw);
            Check.lz4Block("zstd-java new byte[]", raw, f, f.length);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            c.close();
            arena.close();
        }
    }

    /** lz4-java's JNI binding: fastResetCompressor (default, fast) or highFastResetCompressor (HC) */
    @State(Scope.Thread)
    public static class Lz4Java {
        LZ4Compressor c;
        byte[] raw, dstArray;

        @Setup(Level.Trial)
        public void setup(Lz4Input in) {
            raw = in.raw;
            int level = Lz4Modes.level(in.mode);
            LZ4Factory f = LZ4Factory.nativeInstance();
            c = level > 0 ? f.highFastResetCompressor(level) : f.fastResetCompressor(level < 0 ? -level : 1);
            dstArray = new byte[c.maxCompressedLength(raw.length)];
            Check.lz4Block("lz4-java", raw, dstArray, c.compress(raw, 0, raw.length, dstArray, 0, dstArray.length));
            byte[] b = c.compress(raw);
            Check.lz4Block("lz4-java new byte[]", raw, b, b.length);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            // the JNI compressors hold native state until closed
            if (c instanceof net.jpountz.lz4.LZ4JNIFastResetCompressor r) {
                r.close();
            } else if (c instanceof net.jpountz.lz4.LZ4JNIHCFastResetCompressor r) {
                r.close();
            }
        }
    }

    /** aircompressor v3's pure Java compressor: default mode only */
    @State(Scope.Thread)
    public static class AirJava {
        Lz4JavaCompressor c;
        byte[] raw, dstArray;

        @Setup(Level.Trial)
        public void setup(Lz4Input in) {
            if (!in.mode.equals("default")) {
                throw new IllegalArgumentException("aircompressor's Java lz4 compressor has no acceleration or HC "
                        + "setting; this cell asks for " + in.mode);
            }
            raw = in.raw;
            c = new Lz4JavaCompressor();
            dstArray = new byte[c.maxCompressedLength(raw.length)];
            Check.lz4Block("aircompressor java", raw, dstArray,
                    c.compress(raw, 0, raw.length, dstArray, 0, dstArray.length));
        }
    }

    /** aircompressor v3's FFM binding to its bundled liblz4 (default and fast modes; it has no HC) */
    @State(Scope.Thread)
    public static class AirNative {
        Lz4NativeCompressor c;
        Arena arena;
        MemorySegment src, dst;

        @Setup(Level.Trial)
        public void setup(Lz4Input in) {
            int level = Lz4Modes.level(in.mode);
            if (level > 0) {
                throw new IllegalArgumentException("aircompressor's native lz4 compressor has no HC mode; this cell "
                        + "asks for " + in.mode);
            }
            c = new Lz4NativeCompressor(level < 0 ? -level : 1);
            arena = Arena.ofConfined();
            src = Check.nativeCopy(arena, in.raw, in.raw.length);
            dst = arena.allocate(c.maxCompressedLength(in.raw.length), 64);
            int n = c.compress(src, dst);
            Check.lz4Block("aircompressor native", in.raw, Check.bytes(dst, n), n);
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
    public int lz4java_jni(Lz4Java s) {
        return s.c.compress(s.raw, 0, s.raw.length, s.dstArray, 0, s.dstArray.length);
    }

    @Benchmark
    public byte[] lz4java_jniArrayNew(Lz4Java s) {
        return s.c.compress(s.raw);
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
