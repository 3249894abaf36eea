package dev.zstdjava;

import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.lz4.Lz4FrameCompressor;
import dev.zstdjava.lz4.Lz4FrameDecompressor;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The allocation the Javadoc promises for the one-shot forms, when the call site is NOT inlined into the caller, as
 * exact numbers: the caller-destination forms ({@code byte[]}, {@code ByteBuffer}) allocate nothing, the
 * {@code byte[] -> new byte[]} forms exactly the returned array; measured with all forms in one JVM (each form's
 * JIT state after the others') and with each form alone in a JVM of its own.
 *
 * <p>Arrays of at most {@code zstdjava.heapStagingLimit} bytes (4 KiB by default; the payload here is 2,064 bytes)
 * are copied through the context's native buffers (for lz4 decompression up to
 * {@code zstdjava.lz4DecompressStagingLimit}, 512 B by default: its forms decode 344 bytes into 512), so no array view is made and the numbers do not depend on what
 * C2 inlines. On JDK 21, which refuses heap memory in downcalls, arrays are always staged; the direct-buffer forms
 * pay for JDK 21's heap-check combinator (144 bytes: two views and their sessions).
 *
 * <p>A control form, which makes heap views in the caller and passes them to the library, must allocate: it proves
 * that the compiler directive (which only keeps the codecs out of this class's compilations) worked.
 */
class AllocationTest {
    private static final int WARM_UP = 30_000;
    private static final int CALLS = Integer.getInteger("allocationTest.calls", 10_000);

    /**
     * Heap bytes per call of each form, measured in this (child) JVM; printed as {@code name bytes} lines. With an
     * argument, only the forms whose names start with it (and the control).
     */
    public static void main(String[] args) throws Exception {
        Object threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                .invoke(null);
        Method allocated = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
        byte[] raw = ("The quick brown fox jumps over the lazy dog; " + "pack my box with five dozen liquor jugs. ")
                .repeat(24).getBytes(StandardCharsets.US_ASCII);
        ZstdCompressor zc = ZstdCompressor.create(3);
        ZstdDecompressor zd = ZstdDecompressor.create();
        Lz4Compressor lc = Lz4Compressor.create();
        Lz4Decompressor ld = Lz4Decompressor.create();
        Lz4FrameCompressor fc = Lz4FrameCompressor.create();
        Lz4FrameDecompressor fd = Lz4FrameDecompressor.create();
        byte[] zf = zc.compress(raw);
        // lz4 decompression stages arrays only up to zstdjava.lz4DecompressStagingLimit (512 B by default): its forms
        // decode a 344-byte payload into a 512-byte destination
        byte[] small = java.util.Arrays.copyOf(raw, 344);
        byte[] lf = lc.compress(small);
        byte[] ff = fc.compress(small);
        byte[] sdst = new byte[512];
        ByteBuffer hsd = ByteBuffer.wrap(sdst);
        byte[] dst = new byte[(int) Math.max(fc.maxCompressedLength(raw.length), Zstd.compressBound(raw.length))];
        ByteBuffer hs = ByteBuffer.wrap(raw);
        ByteBuffer hd = ByteBuffer.wrap(dst);
        ByteBuffer ds = ByteBuffer.allocateDirect(raw.length).put(raw).flip();
        ByteBuffer dd = ByteBuffer.allocateDirect(dst.length);
        ByteBuffer dzf = ByteBuffer.allocateDirect(zf.length).put(zf).flip();
        ByteBuffer dlf = ByteBuffer.allocateDirect(lf.length).put(lf).flip();
        ByteBuffer dff = ByteBuffer.allocateDirect(ff.length).put(ff).flip();
        ByteBuffer hff = ByteBuffer.wrap(ff);
        Map<String, LongSupplier> forms = new LinkedHashMap<>();
        forms.put("control", () -> zc.compress(MemorySegment.ofArray(raw), MemorySegment.ofArray(dst)));
        forms.put("zstd.compress.arrayDst", () -> zc.compress(raw, 0, raw.length, dst, 0, dst.length));
        forms.put("zstd.decompress.arrayDst", () -> zd.decompress(zf, 0, zf.length, dst, 0, dst.length));
        forms.put("lz4.compress.arrayDst", () -> lc.compress(raw, 0, raw.length, dst, 0, dst.length));
        forms.put("zstd.tryCompress.arrayDst", () -> (int) zc.tryCompress(raw, 0, raw.length, dst, 0, dst.length));
        forms.put("lz4.tryCompress.arrayDst", () -> (int) lc.tryCompress(raw, 0, raw.length, dst, 0, dst.length));
        // segments at an offset (a frame after a caller's header): the view of dst is made next to the native call
        MemorySegment rawSegment = MemorySegment.ofArray(raw);
        MemorySegment dstSegment = MemorySegment.ofArray(dst);
        MemorySegment nativeRaw = java.lang.foreign.Arena.global().allocate(raw.length).copyFrom(rawSegment);
        MemorySegment nativeDst = java.lang.foreign.Arena.global().allocate(dst.length);
        forms.put("zstd.tryCompress.segmentAt", () -> (int) zc.tryCompress(rawSegment, dstSegment, 5, dst.length - 5));
        forms.put("lz4.tryCompress.segmentAt", () -> (int) lc.tryCompress(rawSegment, dstSegment, 9, dst.length - 9));
        forms.put("zstd.tryCompress.nativeSegmentAt",
                () -> (int) zc.tryCompress(nativeRaw, nativeDst, 5, dst.length - 5));
        forms.put("lz4.tryCompress.nativeSegmentAt",
                () -> (int) lc.tryCompress(nativeRaw, nativeDst, 9, dst.length - 9));
        // "does not fit" (random bytes into fewer bytes than themselves): lz4 restarts its state, zstd reports it
        byte[] random = new byte[raw.length];
        new java.util.SplittableRandom(1).nextBytes(random);
        forms.put("zstd.tryCompressRandom.arrayDst",
                () -> (int) zc.tryCompress(random, 0, random.length, dst, 0, random.length - 1));
        forms.put("lz4.tryCompressRandom.arrayDst",
                () -> (int) lc.tryCompress(random, 0, random.length, dst, 0, random.length - 1));
        forms.put("lz4.decompress.arrayDst", () -> ld.decompress(lf, 0, lf.length, sdst, 0, sdst.length));
        forms.put("lz4frame.compress.arrayDst", () -> fc.compress(raw, 0, raw.length, dst, 0, dst.length));
        forms.put("lz4frame.decompress.arrayDst", () -> fd.decompress(ff, 0, ff.length, sdst, 0, sdst.length));
        forms.put("zstd.compress.heapBuffer", () -> zc.compress(hs.rewind(), hd.clear()));
        forms.put("zstd.compress.directBuffer", () -> zc.compress(ds.rewind(), dd.clear()));
        forms.put("zstd.decompress.directBuffer", () -> zd.decompress(dzf.rewind(), dd.clear()));
        forms.put("lz4.compress.heapBuffer", () -> lc.compress(hs.rewind(), hd.clear()));
        forms.put("lz4.compress.directBuffer", () -> lc.compress(ds.rewind(), dd.clear()));
        forms.put("lz4.decompress.directBuffer", () -> ld.decompress(dlf.rewind(), dd.clear()));
        forms.put("lz4frame.compress.heapBuffer", () -> fc.compress(hs.rewind(), hd.clear()));
        forms.put("lz4frame.compress.directBuffer", () -> fc.compress(ds.rewind(), dd.clear()));
        forms.put("lz4frame.decompress.heapBuffer", () -> fd.decompress(hff.rewind(), hsd.clear()));
        forms.put("lz4frame.decompress.directBuffer", () -> fd.decompress(dff.rewind(), dd.clear()));
        // the new-array forms return the array's length; the test subtracts the array itself
        forms.put("zstd.compress.arrayNew", () -> zc.compress(raw).length);
        forms.put("zstd.decompress.arrayNew", () -> zd.decompress(zf).length);
        forms.put("lz4.compress.arrayNew", () -> lc.compress(raw).length);
        forms.put("lz4.decompress.arrayNew", () -> ld.decompress(lf, small.length).length);
        forms.put("lz4frame.compress.arrayNew", () -> fc.compress(raw).length);
        forms.put("lz4frame.decompress.arrayNew", () -> fd.decompress(ff).length);
        if (args.length > 0) { // only the forms whose names start with args[0] (and the control): one form's JIT alone
            forms.keySet().removeIf(k -> !k.equals("control") && !k.startsWith(args[0]));
        }
        long sink = 0;
        for (Map.Entry<String, LongSupplier> e : forms.entrySet()) {
            LongSupplier f = e.getValue();
            for (int i = 0; i < WARM_UP; i++) {
                sink += f.getAsLong();
            }
            long before = (long) allocated.invoke(threads);
            for (int i = 0; i < CALLS; i++) {
                sink += f.getAsLong();
            }
            long bytes = (long) allocated.invoke(threads) - before;
            long result = f.getAsLong();
            long array = e.getKey().endsWith("arrayNew") ? (16 + result + 7) & ~7L : 0;
            System.out.println(e.getKey() + " " + ((double) bytes / CALLS - array) + " (" + (double) bytes / CALLS
                    + " B per call, result " + result + ")");
        }
        System.out.println("sink " + sink);
    }

    /** Forms whose views of direct buffers reach JDK 21's heap-check combinator (internal/Ffm21): bytes per call. */
    private static final Map<String, Double> JDK21_DIRECT = Map.of(
            "zstd.compress.directBuffer", 144.0, "zstd.decompress.directBuffer", 144.0,
            "lz4.compress.directBuffer", 144.0, "lz4.decompress.directBuffer", 144.0,
            "lz4frame.compress.directBuffer", 144.0, "lz4frame.decompress.directBuffer", 144.0);

    /**
     * Runs {@link #main} in a child JVM whose JIT state nothing else touches: a compiler directive keeps every codec
     * method out of the compilations of this class's code (as for a caller the JIT does not inline the call into; it
     * forces no inlining anywhere), tiered compilation is off and compilation synchronous.
     *
     * @return heap bytes per call beyond the result, by form
     */
    private static Map<String, Double> child(String only) throws Exception {
        Path directive = Files.createTempFile("allocation-test", ".json");
        try {
            Files.writeString(directive, "[{match: \"dev/zstdjava/AllocationTest*.*\","
                    + " inline: [\"-dev/zstdjava/zstd/*.*\", \"-dev/zstdjava/lz4/*.*\", \"-dev/zstdjava/internal/*.*\"]}]");
            String exe = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(exe,
                    "--enable-native-access=ALL-UNNAMED", "-XX:+UnlockDiagnosticVMOptions",
                    "-XX:CompilerDirectivesFile=" + directive, "-XX:-TieredCompilation", "-Xbatch", "-cp",
                    System.getProperty("java.class.path"), AllocationTest.class.getName()));
            if (only != null) {
                cmd.add(only);
            }
            ChildProcess p = ChildProcess.run(new ProcessBuilder(cmd).redirectErrorStream(true), 300);
            String out = p.out();
            assertEquals(0, p.exit(), out);
            Map<String, Double> beyond = new LinkedHashMap<>();
            for (String line : out.split("\n")) {
                String[] f = line.trim().split(" ");
                if (f.length > 2 && f[2].startsWith("(")) {
                    beyond.put(f[0], Double.parseDouble(f[1]));
                }
            }
            // the control makes two array views in the caller and passes them to a call that is not inlined: they
            // are allocated (two views and their sessions); had the directive not worked, they would be removed
            assertEquals(144, beyond.remove("control"), 0.01, "control form: the directive had no effect\n" + out);
            System.out.print("heap bytes per call beyond the result, call sites not inlined"
                    + (only == null ? ", all forms in one JVM" : ", " + only + " alone") + ":\n" + out);
            return beyond;
        } finally {
            Files.deleteIfExists(directive);
        }
    }

    /**
     * The exact numbers: every caller-destination form 0 bytes, every {@code byte[] -> new byte[]} form exactly its
     * array (the 2,064-byte payload is at most {@code zstdjava.heapStagingLimit}, lz4 decompression's 344 bytes into
     * 512 at most {@code zstdjava.lz4DecompressStagingLimit}: their arrays are staged through the
     * context's native buffers, no view of them is made, so nothing depends on what the JIT inlines). On JDK 21 the
     * views of direct buffers reach the heap-check combinator of its critical handles: two views and their sessions.
     * The measurement itself adds 0.004 bytes per call (the allocation counter's own read, 40 bytes, over the calls).
     */
    private static void assertExact(Map<String, Double> beyond, String run) {
        for (Map.Entry<String, Double> e : beyond.entrySet()) {
            double expected = Runtime.version().feature() < 22 ? JDK21_DIRECT.getOrDefault(e.getKey(), 0.0) : 0.0;
            assertEquals(expected, e.getValue(), 0.01, e.getKey() + " (" + run + "): heap bytes per call beyond the"
                    + " result, expected exactly " + expected);
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // child JVMs with -Xbatch: 92 s for both at load 13
    void everyFormInOneJvmAllocatesExactlyItsResult() throws Exception {
        Map<String, Double> beyond = child(null);
        assertEquals(31, beyond.size() + 1, "forms measured: " + beyond.keySet());
        assertExact(beyond, "mixed");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // child JVMs with -Xbatch: 92 s for both at load 13
    void everyFormAloneInItsJvmAllocatesExactlyItsResult() throws Exception {
        // two child JVMs at a time: allocation counts do not depend on timing
        try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2)) {
            java.util.List<java.util.concurrent.Future<Map<String, Double>>> runs = new java.util.ArrayList<>();
            for (String form : FORMS) {
                runs.add(pool.submit(() -> child(form)));
            }
            for (int i = 0; i < FORMS.size(); i++) {
                Map<String, Double> beyond = runs.get(i).get();
                assertEquals(java.util.Set.of(FORMS.get(i)), beyond.keySet());
                assertExact(beyond, "alone");
            }
        }
    }

    static final java.util.List<String> FORMS = java.util.List.of("zstd.compress.arrayDst", "zstd.decompress.arrayDst",
            "lz4.compress.arrayDst", "lz4.decompress.arrayDst", "zstd.tryCompress.arrayDst", "lz4.tryCompress.arrayDst",
            "zstd.tryCompressRandom.arrayDst", "lz4.tryCompressRandom.arrayDst", "zstd.tryCompress.segmentAt",
            "lz4.tryCompress.segmentAt", "zstd.tryCompress.nativeSegmentAt", "lz4.tryCompress.nativeSegmentAt",
            "lz4frame.compress.arrayDst",
            "lz4frame.decompress.arrayDst", "zstd.compress.heapBuffer", "zstd.compress.directBuffer",
            "zstd.decompress.directBuffer", "lz4.compress.heapBuffer", "lz4.compress.directBuffer",
            "lz4.decompress.directBuffer", "lz4frame.compress.heapBuffer", "lz4frame.compress.directBuffer",
            "lz4frame.decompress.heapBuffer", "lz4frame.decompress.directBuffer", "zstd.compress.arrayNew",
            "zstd.decompress.arrayNew", "lz4.compress.arrayNew", "lz4.decompress.arrayNew", "lz4frame.compress.arrayNew",
            "lz4frame.decompress.arrayNew");
}
