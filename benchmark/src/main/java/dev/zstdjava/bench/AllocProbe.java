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
 * compiled it, then counts {@code ThreadMXBean.getCurrentThreadAllocatedBytes()} around three runs of calls on each
 * payload and keeps the least: the result is the steady-state allocation of the calls themselves, exact to the
 * byte.
 *
 * <p>The library's methods are never inlined into the probe's code (a compiler directive added when the probe
 * starts, {@link #DIRECTIVE}): each form is measured as it runs when its call site is not inlined into the caller
 * (a large or megamorphic caller, or a form the JIT already compiled into a large body), the case where array and
 * buffer views that cross a method boundary would be allocated. Inside the library the JIT inlines as it likes.
 * The {@code byte[] -> new byte[]} forms also report {@code beyond_result_bytes}: the allocation per call minus the
 * size of the returned array.
 *
 * <pre>  alloc OUT.jsonl PAYLOAD...</pre>
 */
public final class AllocProbe {
    private static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static long sink;

    /** Compilations of the probe's code (the forms' lambdas and the loops) inline nothing of the codecs. */
    static final String DIRECTIVE = "[{match: \"dev/zstdjava/bench/*.*\","
            + " inline: [\"-dev/zstdjava/zstd/*.*\", \"-dev/zstdjava/lz4/*.*\"]}]";

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
        /** The form returns the length of a new array it allocates. */
        boolean returnsArray() {
            return contestant.equals("zstdjava_arrayNew") || contestant.equals("zstdjava_static");
        }
    }

    /** Adds {@link #DIRECTIVE} to the running JVM (as {@code jcmd PID Compiler.directives_add} would). */
    static void neverInlineTheLibrary() throws IOException {
        Path file = Files.createTempFile("alloc-probe-directive", ".json");
        try {
            Files.writeString(file, DIRECTIVE);
            Object r = ManagementFactory.getPlatformMBeanServer().invoke(
                    new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "compilerDirectivesAdd", new Object[] {new String[] {file.toString()}},
                    new String[] {String[].class.getName()});
            if (!String.valueOf(r).contains("1 compiler directives added")) {
                throw new IllegalStateException("compiler directive refused: " + r);
            }
        } catch (javax.management.JMException e) {
            throw new IllegalStateException("cannot add the compiler directive", e);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** @return the heap size of a {@code byte[]} of {@code n} elements (16-byte header, 8-byte alignment) */
    static long arrayBytes(long n) {
        return (16 + n + 7) & ~7L;
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
                new Named("lz4", "compress", "zstdjava_static", "default", (raw, a) -> () -> Lz4.compress(raw).length),
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
                new Named("lz4", "decompress", "zstdjava_static", "default", (raw, a) -> {
                    byte[] f = lc.compress(raw);
                    return () -> Lz4.decompress(f, raw.length).length;
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
        run(file, payloads, "");
    }

    /** As {@link #run(Path, List)}, only for the forms whose {@code codec.op.contestant} starts with {@code only}. */
    public static void run(Path file, List<String> payloads, String only) throws IOException {
        neverInlineTheLibrary();
        byte[] warm = Payloads.load("text-1k");
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), true)) {
            for (Named n : forms()) {
                if (!(n.codec + "." + n.op + "." + n.contestant).startsWith(only)) {
                    continue;
                }
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
                        int calls = (int) Math.max(4, Math.min(20_000, (128L << 20) / Math.max(1, raw.length)));
                        for (int i = 0; i < Math.min(calls, 1000); i++) {
                            sink += f.run();
                        }
                        // the least of three runs: a run the JIT recompiles the form during (a deoptimisation
                        // when a payload takes a branch the warm-up did not) counts its interpreted calls too
                        long bytes = Long.MAX_VALUE;
                        for (int round = 0; round < 3; round++) {
                            long before = MX.getCurrentThreadAllocatedBytes();
                            for (int i = 0; i < calls; i++) {
                                sink += f.run();
                            }
                            bytes = Math.min(bytes, MX.getCurrentThreadAllocatedBytes() - before);
                        }
                        double perCall = (double) bytes / calls;
                        String beyond = n.returnsArray()
                                ? String.format(Locale.ROOT, ",\"beyond_result_bytes\":%.3f",
                                        perCall - arrayBytes(f.run()))
                                : "";
                        out.printf(Locale.ROOT, "{\"codec\":\"%s\",\"op\":\"%s\",\"contestant\":\"%s\",\"setting\":\"%s\","
                                        + "\"payload\":\"%s\",\"bytes_per_op\":%.3f%s,\"calls\":%d,"
                                        + "\"inlined\":false}%n", n.codec, n.op, n.contestant, n.setting, p, perCall,
                                beyond, calls);
                    }
                }
            }
        }
        if (sink == 42) {
            System.out.println();
        }
    }

}
