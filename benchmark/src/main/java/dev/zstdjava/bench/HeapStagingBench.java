package dev.zstdjava.bench;

import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.lz4.Lz4FrameCompressor;
import dev.zstdjava.lz4.Lz4FrameDecompressor;
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

import java.util.concurrent.TimeUnit;

/**
 * Where copying a heap array through the context's native buffer stops paying: the {@code byte[]}-with-destination
 * forms with every array staged ({@code staged}: {@code -Dzstdjava.heapStagingLimit=2147483647}) against every
 * array used in place through its view ({@code inPlace}: {@code -Dzstdjava.heapStagingLimit=0}), per operation and
 * size of a JSON slice. The crossover for an operation is the largest size at which {@code staged} is at least as
 * fast as {@code inPlace}; it decides {@code zstdjava.heapStagingLimit} (default 4096, every codec) and
 * {@code zstdjava.lz4DecompressStagingLimit} (default 512, lz4 block and frame decompression), both set here (staging
 * also removes the allocation of views that the JIT does not remove, whatever it inlines).
 *
 * <pre>  java -jar benchmarks.jar HeapStagingBench -p op=lz4.decompress</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 8, time = 1)
public class HeapStagingBench {
    @State(Scope.Thread)
    public static class Input {
        @Param({"zstd.compress", "zstd.decompress", "lz4.compress", "lz4.decompress", "lz4frame.decompress"})
        String op;

        @Param({"128", "256", "512", "768", "1024", "2048", "4096", "8192", "16384", "65536"})
        int size;

        byte[] raw, in, dst;
        ZstdCompressor zc;
        ZstdDecompressor zd;
        Lz4Compressor lc;
        Lz4Decompressor ld;
        Lz4FrameDecompressor fd;

        @Setup(Level.Trial)
        public void setup() {
            raw = Peers.slice(Payloads.load(Peers.SOURCE), size);
            zc = ZstdCompressor.create(3);
            zd = ZstdDecompressor.create();
            lc = Lz4Compressor.create(0);
            ld = Lz4Decompressor.create();
            fd = Lz4FrameDecompressor.create();
            switch (op) {
                case "zstd.compress" -> {
                    in = raw;
                    dst = new byte[(int) Zstd.compressBound(size)];
                }
                case "zstd.decompress" -> {
                    in = zc.compress(raw);
                    dst = new byte[size];
                }
                case "lz4.compress" -> {
                    in = raw;
                    dst = new byte[Lz4.maxCompressedLength(size)];
                }
                case "lz4.decompress" -> {
                    in = lc.compress(raw);
                    dst = new byte[size];
                }
                case "lz4frame.decompress" -> {
                    try (Lz4FrameCompressor fc = Lz4FrameCompressor.create()) {
                        in = fc.compress(raw);
                    }
                    dst = new byte[size];
                }
                default -> throw new IllegalArgumentException("unknown op " + op);
            }
            long n = run(this);
            if (op.endsWith("decompress")) {
                Check.same(op, raw, dst, n);
            } else if (op.startsWith("zstd")) {
                Check.zstdFrame(op, raw, dst, (int) n);
            } else {
                Check.lz4Block(op, raw, dst, (int) n);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            zc.close();
            zd.close();
            lc.close();
            ld.close();
            fd.close();
        }
    }

    static long run(Input s) {
        return switch (s.op) {
            case "zstd.compress" -> s.zc.compress(s.in, 0, s.in.length, s.dst, 0, s.dst.length);
            case "zstd.decompress" -> s.zd.decompress(s.in, 0, s.in.length, s.dst, 0, s.dst.length);
            case "lz4.compress" -> s.lc.compress(s.in, 0, s.in.length, s.dst, 0, s.dst.length);
            case "lz4.decompress" -> s.ld.decompress(s.in, 0, s.in.length, s.dst, 0, s.dst.length);
            default -> s.fd.decompress(s.in, 0, s.in.length, s.dst, 0, s.dst.length);
        };
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Dzstdjava.heapStagingLimit=2147483647",
            "-Dzstdjava.lz4DecompressStagingLimit=2147483647"})
    public long staged(Input s) {
        return run(s);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Dzstdjava.heapStagingLimit=0",
            "-Dzstdjava.lz4DecompressStagingLimit=0"})
    public long inPlace(Input s) {
        return run(s);
    }
}
