package dev.zstdjava.bench;

import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Exact heap allocation per call of this library's forms, counted for the calling thread only.
 *
 * <p>JMH's {@code gc.alloc.rate.norm} divides every thread's allocation during an iteration (JMH's own threads and
 * its result channel included) by the operations of that iteration, so for large payloads, with few operations per
 * iteration, it cannot resolve single bytes. This probe warms each form up on a small payload until the JIT has
 * compiled it, then counts {@code ThreadMXBean.getCurrentThreadAllocatedBytes()} around a run of calls on each
 * payload: the result is the allocation of the calls themselves, exact to the byte.
 *
 * <pre>  alloc OUT.jsonl PAYLOAD...</pre>
 */
public final class AllocProbe {
    private static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static long sink;

    private AllocProbe() {
    }

    /** One form of one codec operation, prepared for one payload. */
    interface Form {
        long run();
    }

    interface Factory {
        Form prepare(byte[] raw, Arena arena);
    }

    record Named(String codec, String op, String contestant, String setting, Factory factory) {
    }

    static List<Named> forms() {
        ZstdCompressor zc = ZstdCompressor.create(3);
        ZstdDecompressor zd = ZstdDecompressor.create();
        Lz4Compressor lc = Lz4Compressor.create(0);
        Lz4Decompressor ld = Lz4Decompressor.create();
        return List.of(
                new Named("zstd", "compress", "zstdjava_segment", "3", (raw, a) -> {
                    MemorySegment s = Check.nativeCopy(a, raw, raw.length);
                    MemorySegment d = a.allocate(Zstd.compressBound(raw.length));
                    return () -> zc.compress(s, d);
                }),
                new Named("zstd", "compress", "zstdjava_arrayDst", "3", (raw, a) -> {
                    byte[] d = new byte[(int) Zstd.compressBound(raw.length)];
                    return () -> zc.compress(raw, 0, raw.length, d, 0, d.length);
                }),
                new Named("zstd", "compress", "zstdjava_arrayNew", "3", (raw, a) -> () -> zc.compress(raw).length),
                new Named("zstd", "compress", "zstdjava_buffer", "3", (raw, a) -> {
                    ByteBuffer s = Check.nativeCopy(a, raw, raw.length).asByteBuffer();
                    ByteBuffer d = a.allocate(Zstd.compressBound(raw.length)).asByteBuffer();
                    return () -> {
                        s.rewind();
                        d.clear();
                        return zc.compress(s, d);
                    };
                }),
                new Named("zstd", "compress", "zstdjava_static", "3", (raw, a) -> () -> Zstd.compress(raw, 3).length),
                new Named("zstd", "decompress", "zstdjava_segment", "3", (raw, a) -> {
                    byte[] f = zc.compress(raw);
                    MemorySegment s = Check.nativeCopy(a, f, f.length);
                    MemorySegment d = a.allocate(Math.max(1, raw.length));
                    return () -> zd.decompress(s, d);
                }),
                new Named("zstd", "decompress", "zstdjava_arrayDst", "3", (raw, a) -> {
                    byte[] f = zc.compress(raw);
                    byte[] d = new byte[raw.length];
                    return () -> zd.decompress(f, 0, f.length, d, 0, d.length);
                }),
                new Named("zstd", "decompress", "zstdjava_arrayNew", "3", (raw, a) -> {
                    byte[] f = zc.compress(raw);
                    return () -> zd.decompress(f).length;
                }),
                new Named("zstd", "decompress", "zstdjava_buffer", "3", (raw, a) -> {
                    byte[] f = zc.compress(raw);
                    ByteBuffer s = Check.nativeCopy(a, f, f.length).asByteBuffer();
                    ByteBuffer d = a.allocate(Math.max(1, raw.length)).asByteBuffer();
                    return () -> {
                        s.rewind();
                        d.clear();
                        return zd.decompress(s, d);
                    };
                }),
                new Named("zstd", "decompress", "zstdjava_static", "3", (raw, a) -> {
                    byte[] f = zc.compress(raw);
                    return () -> Zstd.decompress(f).length;
                }),
                new Named("lz4", "compress", "zstdjava_segment", "default", (raw, a) -> {
                    MemorySegment s = Check.nativeCopy(a, raw, raw.length);
                    MemorySegment d = a.allocate(Lz4.maxCompressedLength(raw.length));
                    return () -> lc.compress(s, d);
                }),
                new Named("lz4", "compress", "zstdjava_arrayDst", "default", (raw, a) -> {
                    byte[] d = new byte[Lz4.maxCompressedLength(raw.length)];
                    return () -> lc.compress(raw, 0, raw.length, d, 0, d.length);
                }),
                new Named("lz4", "compress", "zstdjava_arrayNew", "default", (raw, a) -> () -> lc.compress(raw).length),
                new Named("lz4", "compress", "zstdjava_buffer", "default", (raw, a) -> {
                    ByteBuffer s = Check.nativeCopy(a, raw, raw.length).asByteBuffer();
                    ByteBuffer d = a.allocate(Lz4.maxCompressedLength(raw.length)).asByteBuffer();
                    return () -> {
                        s.rewind();
                        d.clear();
                        return lc.compress(s, d);
                    };
                }),
                new Named("lz4", "decompress", "zstdjava_segment", "default", (raw, a) -> {
                    byte[] f = lc.compress(raw);
                    MemorySegment s = Check.nativeCopy(a, f, f.length);
                    MemorySegment d = a.allocate(Math.max(1, raw.length));
                    return () -> ld.decompress(s, d);
                }),
                new Named("lz4", "decompress", "zstdjava_arrayDst", "default", (raw, a) -> {
                    byte[] f = lc.compress(raw);
                    byte[] d = new byte[raw.length];
                    return () -> ld.decompress(f, 0, f.length, d, 0, d.length);
                }),
                new Named("lz4", "decompress", "zstdjava_arrayNew", "default", (raw, a) -> {
                    byte[] f = lc.compress(raw);
                    return () -> ld.decompress(f, raw.length).length;
                }),
                new Named("lz4", "decompress", "zstdjava_buffer", "default", (raw, a) -> {
                    byte[] f = lc.compress(raw);
                    ByteBuffer s = Check.nativeCopy(a, f, f.length).asByteBuffer();
                    ByteBuffer d = a.allocate(Math.max(1, raw.length)).asByteBuffer();
                    return () -> {
                        s.rewind();
                        d.clear();
                        return ld.decompress(s, d);
                    };
                }));
    }

    /** Measures every form on each payload and writes one JSON line per form and payload to {@code file}. */
    public static void run(Path file, List<String> payloads) throws IOException {
        byte[] warm = Payloads.load("text-1k");
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), true)) {
            for (Named n : forms()) {
                try (Arena wa = Arena.ofConfined()) {
                    Form w = n.factory.prepare(warm, wa);
                    for (int i = 0; i < 30_000; i++) { // enough for C2 to compile the call
                        sink += w.run();
                    }
                }
                for (String p : payloads) {
                    byte[] raw = Payloads.load(p);
                    try (Arena a = Arena.ofConfined()) {
                        Form f = n.factory.prepare(raw, a);
                        int calls = (int) Math.max(4, Math.min(20_000, (256L << 20) / Math.max(1, raw.length)));
                        for (int i = 0; i < Math.min(calls, 1000); i++) {
                            sink += f.run();
                        }
                        long before = MX.getCurrentThreadAllocatedBytes();
                        for (int i = 0; i < calls; i++) {
                            sink += f.run();
                        }
                        long bytes = MX.getCurrentThreadAllocatedBytes() - before;
                        out.printf(Locale.ROOT, "{\"codec\":\"%s\",\"op\":\"%s\",\"contestant\":\"%s\",\"setting\":\"%s\","
                                        + "\"payload\":\"%s\",\"bytes_per_op\":%.3f,\"calls\":%d}%n", n.codec, n.op,
                                n.contestant, n.setting, p, (double) bytes / calls, calls);
                    }
                }
            }
        }
        if (sink == 42) {
            System.out.println();
        }
    }

}
