package dev.zstdjava.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmark payloads, by name: deterministic generated text of fixed sizes, and real files from the shared test
 * corpus (read in place, never copied into the repository).
 *
 * <p>The corpus folder is, in order: system property {@code zstdjava.corpus}, environment variable
 * {@code ZSTDJAVA_CORPUS}, {@code ../shared/corpus} next to the repository that holds the running jar, or
 * {@code ../shared/corpus} from the working directory. JMH forks see the same jar, so all agree.
 */
public final class Payloads {
    /** Generated text, name to size in bytes. */
    public static final Map<String, Integer> TEXT = new LinkedHashMap<>();
    /** Corpus files, name to path relative to the corpus folder. */
    public static final Map<String, String> FILES = new LinkedHashMap<>();

    static {
        TEXT.put("text-128", 128);
        TEXT.put("text-1k", 1 << 10);
        TEXT.put("text-64k", 64 << 10);
        TEXT.put("text-1m", 1 << 20);
        TEXT.put("text-64m", 64 << 20);
        FILES.put("json-small", "json/twitter_api_compact_response.json");
        FILES.put("json-large", "json/citm_catalog.json");
        FILES.put("canterbury", "canterbury/alice29.txt");
        FILES.put("binary", "canterbury/kennedy.xls");
    }

    /** Every payload name, generated first. */
    public static List<String> names() {
        var all = new java.util.ArrayList<String>(TEXT.keySet());
        all.addAll(FILES.keySet());
        return all;
    }

    private Payloads() {
    }

    /** @return the payload's bytes (a new array) */
    public static byte[] load(String name) {
        Integer size = TEXT.get(name);
        if (size != null) {
            return text(size);
        }
        String rel = file(name);
        if (rel == null) {
            throw new IllegalArgumentException("unknown payload '" + name + "'; known: " + names());
        }
        Path file = corpusDir().resolve(rel);
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read payload " + name + " from " + file
                    + " (set -Dzstdjava.corpus or ZSTDJAVA_CORPUS to the corpus folder)", e);
        }
    }

    /** @return a short description: generated text or the corpus file */
    public static String describe(String name) {
        Integer size = TEXT.get(name);
        return size != null ? "generated text, " + size + " B" : file(name);
    }

    /**
     * Writes each payload as {@code dir/NAME.bin} (the C reference reads them there); a file that already holds the
     * same bytes is left alone.
     */
    public static void writeAll(Path dir, List<String> names) throws IOException {
        Files.createDirectories(dir);
        for (String n : names) {
            Path f = dir.resolve(n + ".bin");
            byte[] b = load(n);
            if (!Files.exists(f) || Files.size(f) != b.length || !java.util.Arrays.equals(Files.readAllBytes(f), b)) {
                Files.write(f, b);
            }
        }
    }

    /**
     * Stand-ins from the repository's {@code testdata/} for corpus files it does not carry, used when the shared
     * corpus is missing.
     */
    static final Map<String, String> FALLBACK = Map.of(
            "json-small", "json/products.ndjson",
            "json-large", "json/statuses.ndjson",
            "binary", "golden/zstd/golden-compression/PR-3517-block-splitter-corruption-test");

    private static volatile boolean fallbackNoted;

    /** @return the corpus-relative path of file payload {@code name}, a stand-in when the corpus is the fallback */
    public static String file(String name) {
        String rel = FILES.get(name);
        Path dir = corpusDir();
        if (rel != null && !Files.exists(dir.resolve(rel)) && FALLBACK.containsKey(name)) {
            return FALLBACK.get(name);
        }
        return rel;
    }

    /**
     * @return the corpus folder (see the class comment); when no shared corpus is found, the repository's
     *     {@code testdata/} (a note says so once)
     */
    public static Path corpusDir() {
        String p = System.getProperty("zstdjava.corpus");
        if (p == null || p.isBlank()) {
            p = System.getenv("ZSTDJAVA_CORPUS");
        }
        if (p != null && !p.isBlank()) {
            return Path.of(p);
        }
        Path repo = null;
        try {
            // benchmark/target/benchmarks.jar (or benchmark/target/classes) -> repository root
            Path code = Path.of(Payloads.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path root = code.getParent() == null ? null : code.getParent().getParent();
            if (root != null && root.getParent() != null) {
                repo = root.getParent();
                Path c = repo.resolve("../shared/corpus").normalize();
                if (Files.isDirectory(c)) {
                    return c;
                }
            }
        } catch (URISyntaxException | RuntimeException ignored) {
            // fall through to the working directory
        }
        Path cwd = Path.of("../shared/corpus").toAbsolutePath().normalize();
        if (Files.isDirectory(cwd)) {
            return cwd;
        }
        Path testdata = (repo != null ? repo : Path.of("").toAbsolutePath()).resolve("testdata");
        if (!fallbackNoted) {
            fallbackNoted = true;
            System.err.println("payloads: no shared corpus (../shared/corpus, -Dzstdjava.corpus or ZSTDJAVA_CORPUS); "
                    + "using the repository's " + testdata + " with stand-ins for the files it lacks " + FALLBACK);
        }
        return testdata;
    }

    /**
     * Deterministic English-like text: words from a fixed vocabulary drawn with a skewed distribution by a fixed-seed
     * generator, with punctuation, numbers and line breaks. zstd level 3 compresses it about 2.8x at 64 KiB and 3x at 1 MiB;
     * every size is a prefix of the same stream.
     */
    public static byte[] text(int size) {
        String[] vocab = vocabulary();
        byte[] out = new byte[size];
        long s = 0x9E3779B97F4A7C15L;
        int pos = 0;
        int col = 0;
        boolean capital = true;
        while (pos < size) {
            s = next(s);
            // skewed pick: the product of two uniforms favours low indexes, like word frequencies
            double u = unit(s);
            s = next(s);
            double u2 = unit(s);
            int idx = (int) (u * u2 * u2 * vocab.length);
            String w = vocab[idx];
            s = next(s);
            long r = s >>> 40;
            StringBuilder sb = new StringBuilder(w.length() + 8);
            if (capital) {
                sb.append(Character.toUpperCase(w.charAt(0))).append(w, 1, w.length());
                capital = false;
            } else {
                sb.append(w);
            }
            if (r % 29 == 0) {
                sb.append(' ').append(r % 10_000);
            }
            if (r % 11 == 0) {
                sb.append('.');
                capital = true;
            } else if (r % 13 == 0) {
                sb.append(',');
            }
            col += sb.length() + 1;
            sb.append(col > 72 ? '\n' : ' ');
            if (col > 72) {
                col = 0;
            }
            byte[] b = sb.toString().getBytes(StandardCharsets.US_ASCII);
            int n = Math.min(b.length, size - pos);
            System.arraycopy(b, 0, out, pos, n);
            pos += n;
        }
        return out;
    }

    private static String[] vocabulary() {
        String[] syl = {"ka", "re", "to", "mi", "sa", "lo", "ne", "vi", "du", "pe", "ra", "ti", "on", "el", "ur", "ma",
                "st", "ch", "an", "is", "qu", "or", "be", "de", "fi", "go", "hu", "ja", "ly", "no"};
        String[] v = new String[1000];
        long s = 42;
        for (int i = 0; i < v.length; i++) {
            s = next(s);
            int n = 1 + (int) ((s >>> 33) % 4);
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < n; k++) {
                s = next(s);
                sb.append(syl[(int) ((s >>> 35) % syl.length)]);
            }
            v[i] = sb.toString();
        }
        return v;
    }

    private static long next(long x) { // xorshift64*
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        return x * 0x2545F4914F6CDD1DL;
    }

    private static double unit(long x) {
        return (x >>> 11) * 0x1.0p-53;
    }
}
