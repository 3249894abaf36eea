package dev.zstdjava.bench.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/**
 * The mixed value set of the adaptive-compression measurement ({@code ./e2e --adaptive}): six kinds of value, each
 * under a key pattern of its own, generated from a seed (the same keys and bytes on every machine; no corpus is read),
 * so that the option that suits each kind differs:
 * <ul>
 *   <li>{@code session}: JSON session records, 1-2 KiB (a user, a cart, timestamps, tokens as text);</li>
 *   <li>{@code product}: small JSON product records, about 300 bytes, from a small vocabulary (what a dictionary is
 *       for);</li>
 *   <li>{@code html}: HTML fragments of 10-50 KiB (cards of a product listing);</li>
 *   <li>{@code tiles}: map tile bundles of 8-24 KiB: a few already-compressed tiles of 96-192 bytes each (random
 *       bytes), most of them repeated (sea, empty land), so long matches of bytes entropy coding cannot shrink are all
 *       there is to gain (what lz4 is for);</li>
 *   <li>{@code token}: tokens and encrypted blobs, 200 B-2 KiB of random bytes (incompressible);</li>
 *   <li>{@code gzip}: already-compressed blobs, 4-64 KiB: gzip ({@code java.util.zip}) of generated text
 *       (incompressible).</li>
 * </ul>
 * The kinds are interleaved in the key order (a seeded shuffle), and the incompressible kinds are 40% of the values by
 * count.
 */
final class MixedValues {
    /** The key of value {@code i} of kind {@code k}: {@value #PREFIX}{@code <k.id>:<i>}. */
    static final String PREFIX = Bench.KEY_PREFIX + "adaptive:";
    static final long SEED = 20261202L;

    /** One kind: its name in keys, what it is, its share of the values by count, its size range in bytes. */
    enum Kind {
        SESSION("session", "JSON session records", 25, 1024, 2048, false),
        PRODUCT("product", "small JSON product records", 20, 240, 360, false),
        HTML("html", "HTML fragments", 10, 10 * 1024, 50 * 1024, false),
        TILES("tiles", "map tile bundles (compressed tiles, most of them repeated)", 5, 8 * 1024, 24 * 1024, false),
        TOKEN("token", "tokens / encrypted blobs (random bytes)", 25, 200, 2048, true),
        GZIP("gzip", "already-compressed blobs (gzip of generated text)", 15, 4 * 1024, 64 * 1024, true);

        final String id;
        final String label;
        final int sharePercent;
        final int minSize;
        final int maxSize;
        final boolean incompressible;

        Kind(String id, String label, int sharePercent, int minSize, int maxSize, boolean incompressible) {
            this.id = id;
            this.label = label;
            this.sharePercent = sharePercent;
            this.minSize = minSize;
            this.maxSize = maxSize;
            this.incompressible = incompressible;
        }

        /**
         * @return how the tool's keys of this kind look, e.g. {@code zstdjava-e2e:adaptive:session:<n>:<client>}
         *         ({@link Set#tagged})
         */
        String keyPattern() {
            return PREFIX + id + ":<n>:<client>";
        }
    }

    /**
     * The values, in key order: {@code keys[i]} holds {@code values[i]}, of kind {@code kinds[i]}.
     */
    record Set(byte[][] keys, byte[][] values, Kind[] kinds) {
        int size() {
            return keys.length;
        }

        /** @return the indexes of the values of {@code kind}, in key order */
        int[] indexesOf(Kind kind) {
            int n = 0;
            for (Kind k : kinds) {
                n += k == kind ? 1 : 0;
            }
            int[] out = new int[n];
            int j = 0;
            for (int i = 0; i < kinds.length; i++) {
                if (kinds[i] == kind) {
                    out[j++] = i;
                }
            }
            return out;
        }

        /**
         * @return the same values under keys of their own: each key with {@code ":" + tag} appended, so clients that
         *         each take a tag of the same length keep their values in the server side by side, in keys of one length
         */
        Set tagged(String tag) {
            byte[] suffix = (":" + tag).getBytes(StandardCharsets.US_ASCII);
            byte[][] out = new byte[keys.length][];
            for (int i = 0; i < keys.length; i++) {
                out[i] = java.util.Arrays.copyOf(keys[i], keys[i].length + suffix.length);
                System.arraycopy(suffix, 0, out[i], keys[i].length, suffix.length);
            }
            return new Set(out, values, kinds);
        }

        byte[][] keysOf(Kind kind) {
            return pick(keys, indexesOf(kind));
        }

        byte[][] valuesOf(Kind kind) {
            return pick(values, indexesOf(kind));
        }

        private static byte[][] pick(byte[][] from, int[] at) {
            byte[][] out = new byte[at.length][];
            for (int i = 0; i < at.length; i++) {
                out[i] = from[at[i]];
            }
            return out;
        }

        /** @return the share of the values (by count) of the incompressible kinds */
        double incompressibleShare() {
            int n = 0;
            for (Kind k : kinds) {
                n += k.incompressible ? 1 : 0;
            }
            return kinds.length == 0 ? 0 : (double) n / kinds.length;
        }

        /** @return per kind: {count, least size, largest size, total bytes} */
        Map<Kind, long[]> stats() {
            Map<Kind, long[]> out = new EnumMap<>(Kind.class);
            for (int i = 0; i < kinds.length; i++) {
                long[] s = out.computeIfAbsent(kinds[i], k -> new long[] {0, Long.MAX_VALUE, 0, 0});
                s[0]++;
                s[1] = Math.min(s[1], values[i].length);
                s[2] = Math.max(s[2], values[i].length);
                s[3] += values[i].length;
            }
            return out;
        }

        /** @return one line per kind, for the report and the log */
        String describe() {
            StringBuilder sb = new StringBuilder();
            stats().forEach((k, s) -> sb.append(String.format(Locale.ROOT, "%s%s: %d values (%.0f%%), %d..%d bytes, "
                    + "mean %.0f", sb.isEmpty() ? "" : "; ", k.id, s[0], 100.0 * s[0] / kinds.length, s[1], s[2],
                    (double) s[3] / s[0])));
            return sb.toString();
        }
    }

    private MixedValues() {}

    /** @return {@code n} values (at least one of each kind), the kinds in their shares, from {@code seed} */
    static Set generate(int n, long seed) {
        if (n < Kind.values().length * 10) {
            throw new IllegalArgumentException("the mixed value set needs at least " + Kind.values().length * 10
                    + " keys, got " + n);
        }
        List<Kind> order = new ArrayList<>(n);
        int given = 0;
        for (Kind k : Kind.values()) {
            int count = k == Kind.GZIP ? n - given : (int) Math.round(n * k.sharePercent / 100.0);
            given += count;
            for (int i = 0; i < count; i++) {
                order.add(k);
            }
        }
        Collections.shuffle(order, new Random(seed));
        byte[][] keys = new byte[n][];
        byte[][] values = new byte[n][];
        Kind[] kinds = order.toArray(new Kind[0]);
        for (int i = 0; i < n; i++) {
            Random r = new Random(seed * 1_000_003L + i);
            keys[i] = (PREFIX + kinds[i].id + ":" + i).getBytes(StandardCharsets.US_ASCII);
            values[i] = value(kinds[i], r);
        }
        return new Set(keys, values, kinds);
    }

    static byte[] value(Kind kind, Random r) {
        return switch (kind) {
            case SESSION -> session(r);
            case PRODUCT -> product(r);
            case HTML -> html(r, kind.minSize + r.nextInt(kind.maxSize - kind.minSize + 1));
            case TILES -> tiles(r, kind.minSize + r.nextInt(kind.maxSize - kind.minSize + 1));
            case TOKEN -> {
                byte[] b = new byte[kind.minSize + r.nextInt(kind.maxSize - kind.minSize + 1)];
                r.nextBytes(b);
                yield b;
            }
            case GZIP -> gzip(r, kind.minSize + r.nextInt(kind.maxSize - kind.minSize - 2048 + 1));
        };
    }

    private static final String[] FIRST = {"Ada", "Grace", "Linus", "Barbara", "Ken", "Margaret", "Dennis", "Frances",
        "Alan", "Edsger", "Radia", "Donald", "Leslie", "Niklaus", "Sophie", "John"};
    private static final String[] LAST = {"Lovelace", "Hopper", "Torvalds", "Liskov", "Thompson", "Hamilton",
        "Ritchie", "Allen", "Turing", "Dijkstra", "Perlman", "Knuth", "Lamport", "Wirth", "Wilson", "Backus"};
    private static final String[] WORDS = {"steel", "oak", "linen", "compact", "wireless", "ceramic", "organic",
        "travel", "kitchen", "garden", "classic", "deluxe", "mini", "pro", "solar", "smart", "vintage", "outdoor",
        "bottle", "lamp", "chair", "kettle", "backpack", "speaker", "jacket", "blender", "router", "notebook", "mug",
        "shelf", "charger", "sneaker", "watch", "pillow", "drone", "camera"};
    private static final String[] BRANDS = {"Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne",
        "Tyrell"};
    private static final String[] CATEGORIES = {"home", "kitchen", "outdoor", "electronics", "fashion", "office"};
    private static final String[] AGENTS = {
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"};

    private static String pick(String[] from, Random r) {
        return from[r.nextInt(from.length)];
    }

    private static String hex(Random r, int chars) {
        StringBuilder sb = new StringBuilder(chars);
        for (int i = 0; i < chars; i++) {
            sb.append(Character.forDigit(r.nextInt(16), 16));
        }
        return sb.toString();
    }

    private static String timestamp(Random r) {
        return String.format(Locale.ROOT, "2026-%02d-%02dT%02d:%02d:%02dZ", 1 + r.nextInt(12), 1 + r.nextInt(28),
                r.nextInt(24), r.nextInt(60), r.nextInt(60));
    }

    /** A session record of 1,024..2,048 bytes: its fixed part, then cart lines until at least a random target. */
    static byte[] session(Random r) {
        String first = pick(FIRST, r);
        String last = pick(LAST, r);
        StringBuilder sb = new StringBuilder(2048);
        sb.append("{\"sessionId\":\"").append(hex(r, 32)).append("\",\"user\":{\"id\":").append(r.nextInt(10_000_000))
                .append(",\"name\":\"").append(first).append(' ').append(last).append("\",\"email\":\"")
                .append(first.toLowerCase(Locale.ROOT)).append('.').append(last.toLowerCase(Locale.ROOT))
                .append("@example.com\",\"roles\":[\"customer\"").append(r.nextInt(8) == 0 ? ",\"admin\"" : "")
                .append("],\"locale\":\"").append(r.nextBoolean() ? "en-GB" : "de-DE").append("\"},\"createdAt\":\"")
                .append(timestamp(r)).append("\",\"expiresAt\":\"").append(timestamp(r)).append("\",\"ip\":\"10.")
                .append(r.nextInt(256)).append('.').append(r.nextInt(256)).append('.').append(r.nextInt(256))
                .append("\",\"userAgent\":\"").append(pick(AGENTS, r)).append("\",\"csrfToken\":\"").append(hex(r, 40))
                .append("\",\"flags\":{\"newsletter\":").append(r.nextBoolean()).append(",\"darkMode\":")
                .append(r.nextBoolean()).append(",\"betaCheckout\":").append(r.nextBoolean()).append("},\"cart\":[");
        int target = 1100 + r.nextInt(800);
        boolean firstLine = true;
        while (sb.length() < target) {
            sb.append(firstLine ? "" : ",").append("{\"sku\":\"SKU-").append(100_000 + r.nextInt(900_000))
                    .append("\",\"name\":\"").append(pick(WORDS, r)).append(' ').append(pick(WORDS, r))
                    .append("\",\"qty\":").append(1 + r.nextInt(4)).append(",\"unitPrice\":")
                    .append(String.format(Locale.ROOT, "%.2f", 1 + r.nextInt(20_000) / 100.0))
                    .append(",\"addedAt\":\"").append(timestamp(r)).append("\"}");
            firstLine = false;
        }
        sb.append("]}");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A product record of 240..360 bytes, from a small vocabulary. */
    static byte[] product(Random r) {
        while (true) {
            StringBuilder sb = new StringBuilder(360);
            sb.append("{\"id\":").append(r.nextInt(1_000_000)).append(",\"sku\":\"SKU-")
                    .append(100_000 + r.nextInt(900_000)).append("\",\"name\":\"").append(pick(WORDS, r)).append(' ')
                    .append(pick(WORDS, r)).append(' ').append(pick(WORDS, r)).append("\",\"brand\":\"")
                    .append(pick(BRANDS, r)).append("\",\"category\":\"").append(pick(CATEGORIES, r))
                    .append("\",\"price\":{\"amount\":").append(String.format(Locale.ROOT, "%.2f",
                            1 + r.nextInt(50_000) / 100.0)).append(",\"currency\":\"EUR\"},\"stock\":")
                    .append(r.nextInt(500)).append(",\"rating\":").append(String.format(Locale.ROOT, "%.1f",
                            1 + r.nextInt(41) / 10.0)).append(",\"tags\":[\"").append(pick(WORDS, r)).append("\",\"")
                    .append(pick(WORDS, r)).append("\"],\"available\":").append(r.nextBoolean())
                    .append(",\"updatedAt\":\"").append(timestamp(r)).append("\"}");
            if (sb.length() >= Kind.PRODUCT.minSize && sb.length() <= Kind.PRODUCT.maxSize) {
                return sb.toString().getBytes(StandardCharsets.UTF_8);
            }
        }
    }

    /** HTML of exactly {@code size} bytes: product cards, cut to the size and padded with a comment. */
    static byte[] html(Random r, int size) {
        StringBuilder sb = new StringBuilder(size + 1024);
        sb.append("<section class=\"listing\" data-page=\"").append(r.nextInt(500)).append("\">\n");
        while (sb.length() < size) {
            int id = r.nextInt(1_000_000);
            String name = pick(WORDS, r) + " " + pick(WORDS, r);
            sb.append("  <article class=\"card\" id=\"p-").append(id).append("\">\n    <a href=\"/products/")
                    .append(id).append("\"><img src=\"/img/").append(hex(r, 12)).append(".webp\" alt=\"").append(name)
                    .append("\" loading=\"lazy\" width=\"320\" height=\"240\"></a>\n    <h3 class=\"card-title\">")
                    .append(name).append("</h3>\n    <p class=\"card-text\">");
            for (int w = 6 + r.nextInt(20); w > 0; w--) {
                sb.append(pick(WORDS, r)).append(w > 1 ? " " : ".");
            }
            sb.append("</p>\n    <span class=\"price\">").append(String.format(Locale.ROOT, "%.2f",
                    1 + r.nextInt(50_000) / 100.0)).append(" EUR</span> <span class=\"brand\">")
                    .append(pick(BRANDS, r)).append("</span>\n    <button class=\"btn btn-primary\" data-sku=\"SKU-")
                    .append(100_000 + r.nextInt(900_000)).append("\">Add to cart</button>\n  </article>\n");
        }
        sb.setLength(size);
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A tile bundle of exactly {@code size} bytes: 6-12 tiles of 96-192 random bytes each (compressed images: no
     * entropy coding shrinks them), the bundle made of them picked at random, so that each tile is repeated many times.
     */
    static byte[] tiles(Random r, int size) {
        byte[][] tiles = new byte[6 + r.nextInt(7)][];
        for (int i = 0; i < tiles.length; i++) {
            tiles[i] = new byte[96 + r.nextInt(97)];
            r.nextBytes(tiles[i]);
        }
        byte[] out = new byte[size];
        for (int at = 0; at < size; ) {
            byte[] t = tiles[r.nextInt(tiles.length)];
            int n = Math.min(t.length, size - at);
            System.arraycopy(t, 0, out, at, n);
            at += n;
        }
        return out;
    }

    /** A gzip member of at least {@code target} bytes (and at most one compressed chunk more): generated text. */
    static byte[] gzip(Random r, int target) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(target + 2048);
        try (GZIPOutputStream z = new GZIPOutputStream(out, 8192, true)) {
            while (out.size() < target) {
                byte[] chunk = r.nextBoolean() ? session(r) : html(r, 2048);
                z.write(chunk);
                z.flush(); // a sync flush: out's size is what has been compressed so far
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
