package dev.zstdjava.bench;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import dev.zstdjava.bench.report.Env;
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
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The side-by-side comparison with the peers: this library, zstd-jni (reused contexts; direct buffers are its best
 * path), aircompressor v3's FFM natives and lz4-java (JNI), all in ONE JVM per run, in interleaved rounds (each
 * round times every contestant of a cell once, in a rotating order, so a slow phase of the machine hits all of them),
 * repeated in several fresh JVMs. zstd level 3 and lz4 (default, acceleration 1), compression and decompression of
 * slices of real JSON, every form both sides offer, grouped by kind of memory:
 * <ul>
 *   <li>{@code native}: native memory (this library's {@code MemorySegment} and direct {@code ByteBuffer} forms;
 *       zstd-jni's direct-buffer context calls, aircompressor's segments, lz4-java's direct buffers);</li>
 *   <li>{@code byte[]}: heap arrays into a caller's array;</li>
 *   <li>{@code new byte[]}: a heap array in, a new array out (this library's instance and static forms).</li>
 * </ul>
 * Each of this library's forms is compared with the fastest peer form of the same kind in the same cell: the ratio is
 * the peer's time over ours (above 1: we are faster). The report (Markdown) gives per cell the median over the JVMs of
 * each JVM's median, the spread (lowest and highest JVM), and a verdict against 1.00x (0.99x counts when the spread
 * reaches 1.00x).
 *
 * <pre>
 *   peers DIR [--jvms 3] [--rounds 10] [--warmup-rounds 3] [--round-ms 200] [--sizes 128,1024,16384,262144]
 * </pre>
 *
 * Writes DIR/peers.md and DIR/peers-jvmN.tsv (one line per round: cell, contestant, ns per call). A child JVM is
 * {@code java -cp <this class path> dev.zstdjava.bench.Peers --child ...}.
 */
@Command(name = "peers", description = "This library against zstd-jni, aircompressor (FFM) and lz4-java: one JVM, "
        + "interleaved rounds, several fresh JVMs; writes DIR/peers.md.")
public final class Peers implements Callable<Integer> {
    /** the payload the JSON slices are cut from (the corpus's citm_catalog.json; a stand-in without the corpus) */
    static final String SOURCE = "json-large";

    @Parameters(index = "0", paramLabel = "DIR", description = "results folder")
    Path dir;

    @Option(names = "--jvms", description = "fresh JVMs (default ${DEFAULT-VALUE})")
    int jvms = 3;

    @Option(names = "--rounds", description = "measured rounds per JVM (default ${DEFAULT-VALUE})")
    int rounds = 10;

    @Option(names = "--warmup-rounds", description = "rounds run first and not counted (default ${DEFAULT-VALUE})")
    int warmupRounds = 3;

    @Option(names = "--round-ms", description = "time per contestant per round (default ${DEFAULT-VALUE})")
    int roundMs = 200;

    @Option(names = "--sizes", split = ",", description = "JSON slice sizes in bytes (default ${DEFAULT-VALUE})")
    List<Integer> sizes = List.of(128, 1024, 16384, 262144);

    @Option(names = "--only", description = "only cells whose name starts with this (e.g. lz4.decompress)")
    String only = "";

    @Option(names = "--jvm-arg", description = "extra argument for the child JVMs (repeatable)")
    List<String> jvmArgs = new ArrayList<>();

    /** One contestant of a cell: who, which form, which kind of memory, and the call. */
    record Contestant(String library, String form, String kind, Call call) {
        String name() {
            return library + " " + form;
        }

        boolean ours() {
            return library.equals(OURS);
        }
    }

    static final String OURS = "zstd-java";

    @FunctionalInterface
    interface Call {
        long run();
    }

    /** A cell: codec, operation and size, with every contestant's call prepared on the same input. */
    record Cell(String name, List<Contestant> contestants) {}

    // ---- parent: runs the child JVMs and writes the report --------------------------------------------------------

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(dir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Path> results = new ArrayList<>();
        for (int j = 1; j <= jvms; j++) {
            Path out = dir.resolve("peers-jvm" + j + ".tsv");
            List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g"));
            cmd.addAll(jvmArgs);
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Peers.class.getName(), "--child",
                    out.toString(), String.valueOf(rounds), String.valueOf(warmupRounds), String.valueOf(roundMs),
                    sizes.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElseThrow(), only));
            System.out.printf("peers: JVM %d of %d (%s)%n", j, jvms, out);
            Process p = new ProcessBuilder(cmd).inheritIO().start();
            if (p.waitFor() != 0) {
                throw new IOException("peers: child JVM " + j + " failed (exit " + p.exitValue() + ")");
            }
            results.add(out);
        }
        Path md = dir.resolve("peers.md");
        Files.writeString(md, report(results, describe()));
        System.out.println("peers: wrote " + md);
        return 0;
    }

    private String describe() {
        return String.format(Locale.ROOT, "%d fresh JVMs x (%d warm-up + %d measured rounds) x %d ms per contestant "
                        + "per round; JSON slices of %s (%s); JDK %s; %s; zstd-jni %s, aircompressor-v3 %s, lz4-java %s; "
                        + "load average %s",
                jvms, warmupRounds, rounds, roundMs, SOURCE, Payloads.describe(SOURCE), Runtime.version(), Env.cpu(),
                Env.artifact("zstd-jni"), Env.artifact("aircompressor-v3"), Env.artifact("lz4-java"), Env.load());
    }

    /** A cell and contestant's ns per call in each JVM (the median of that JVM's rounds). */
    static Map<String, Map<String, double[]>> perJvm(List<Path> results) throws IOException {
        Map<String, Map<String, double[]>> m = new TreeMap<>(BY_CODEC_OP_SIZE);
        for (int j = 0; j < results.size(); j++) {
            Map<String, Map<String, List<Double>>> rounds = new LinkedHashMap<>();
            for (String line : Files.readAllLines(results.get(j))) {
                String[] f = line.split("\t");
                if (f.length == 3) {
                    rounds.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).computeIfAbsent(f[1], k -> new ArrayList<>())
                            .add(Double.parseDouble(f[2]));
                }
            }
            for (var cell : rounds.entrySet()) {
                for (var c : cell.getValue().entrySet()) {
                    m.computeIfAbsent(cell.getKey(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(c.getKey(), k -> new double[results.size()])[j] = median(c.getValue());
                }
            }
        }
        return m;
    }

    /** Cells ordered by codec and operation, then by size ({@code zstd.compress.128B} before {@code ...1KiB}). */
    static final java.util.Comparator<String> BY_CODEC_OP_SIZE = java.util.Comparator
            .comparing((String c) -> c.substring(0, c.lastIndexOf('.')))
            .thenComparingLong(c -> {
                String s = c.substring(c.lastIndexOf('.') + 1);
                return s.endsWith("KiB") ? Long.parseLong(s.substring(0, s.length() - 3)) << 10
                        : s.endsWith("B") ? Long.parseLong(s.substring(0, s.length() - 1)) : 0;
            })
            .thenComparing(c -> c);

    static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length == 0 ? Double.NaN : a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    static double median(double[] v) {
        return median(Arrays.stream(v).boxed().toList());
    }

    /** The verdict against the target: 1.00x, or 0.99x when the spread over the JVMs reaches 1.00x. */
    static String verdict(double ratio, double best) {
        if (ratio >= 1.0) {
            return "met";
        }
        if (ratio >= 0.99 && best >= 1.0) {
            return "met within spread";
        }
        return "MISSED";
    }

    /** The Markdown report of the runs in {@code results}. */
    static String report(List<Path> results, String description) throws IOException {
        Map<String, Map<String, double[]>> m = perJvm(results);
        StringBuilder sb = new StringBuilder("# zstd-java against its peers\n\n");
        sb.append("Made by `./bench peers` (").append(description).append(").\n\n");
        sb.append("Each row: one of this library's forms in one cell against the fastest peer form of the same kind ")
                .append("of memory (native memory, `byte[]` into a caller array, `byte[]` to a new array). ns per call: ")
                .append("median over the JVMs of each JVM's median round [lowest JVM, highest JVM]. Ratio: the peer's ")
                .append("time over ours, per JVM, median [lowest, highest]. Target: at least 1.00x, or 0.99x when the ")
                .append("spread reaches 1.00x.\n\n");
        sb.append("| cell | kind | zstd-java form | zstd-java ns | best peer | peer ns | ratio | verdict |\n");
        sb.append("|---|---|---|---:|---|---:|---:|---|\n");
        int met = 0;
        int rows = 0;
        List<String> missed = new ArrayList<>();
        for (var cell : m.entrySet()) {
            Map<String, double[]> cs = cell.getValue();
            for (var ours : cs.entrySet()) {
                String[] o = ours.getKey().split("\\|");
                if (!o[0].equals(OURS)) {
                    continue;
                }
                String kind = o[2];
                // the best peer of the same kind: the lowest median time
                String bestPeer = null;
                for (var c : cs.entrySet()) {
                    String[] p = c.getKey().split("\\|");
                    if (!p[0].equals(OURS) && p[2].equals(kind)
                            && (bestPeer == null || median(c.getValue()) < median(cs.get(bestPeer)))) {
                        bestPeer = c.getKey();
                    }
                }
                if (bestPeer == null) {
                    continue; // no peer offers this kind
                }
                double[] ot = ours.getValue();
                double[] pt = cs.get(bestPeer);
                double[] ratio = new double[ot.length];
                for (int j = 0; j < ot.length; j++) {
                    ratio[j] = pt[j] / ot[j];
                }
                double r = median(ratio);
                double lo = Arrays.stream(ratio).min().orElse(r);
                double hi = Arrays.stream(ratio).max().orElse(r);
                String v = verdict(r, hi);
                rows++;
                if (!v.equals("MISSED")) {
                    met++;
                } else {
                    missed.add(cell.getKey() + " " + o[1]);
                }
                String[] pn = bestPeer.split("\\|");
                sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s %s | %s | %.3fx [%.3f, %.3f] | %s |%n",
                        cell.getKey(), kind, o[1], ns(ot), pn[0], pn[1], ns(pt), r, lo, hi, v));
            }
        }
        sb.append(String.format(Locale.ROOT, "%n%d of %d rows at the target.%s%n", met, rows,
                missed.isEmpty() ? "" : " Missed: " + String.join(", ", missed) + "."));
        sb.append("\n## Every contestant\n\nns per call, median over the JVMs [lowest, highest].\n\n");
        sb.append("| cell | library | form | kind | ns |\n|---|---|---|---|---:|\n");
        for (var cell : m.entrySet()) {
            for (var c : cell.getValue().entrySet()) {
                String[] p = c.getKey().split("\\|");
                sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", cell.getKey(), p[0], p[1], p[2],
                        ns(c.getValue())));
            }
        }
        return sb.toString();
    }

    private static String ns(double[] t) {
        return String.format(Locale.ROOT, "%.1f [%.1f, %.1f]", median(t), Arrays.stream(t).min().orElse(0),
                Arrays.stream(t).max().orElse(0));
    }

    // ---- child: one JVM's rounds ----------------------------------------------------------------------------------

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
                byte[] raw = slice(source, size);
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

    /** @return the first {@code size} bytes of {@code source} (repeated when it is shorter) */
    static byte[] slice(byte[] source, int size) {
        byte[] b = new byte[size];
        for (int at = 0; at < size; at += source.length) {
            System.arraycopy(source, 0, b, at, Math.min(source.length, size - at));
        }
        return b;
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
