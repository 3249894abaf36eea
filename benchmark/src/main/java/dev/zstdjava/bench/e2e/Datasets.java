package dev.zstdjava.bench.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The values the benchmark writes, all from the real-data corpus ({@code ../shared/corpus/json}): fixed-size values
 * cut from the corpus JSON files (whitespace between tokens removed, then concatenated), and whole single API
 * objects of about 2 KiB (tweets, Twitter users, ticket-sale performances, GitHub events, Jenkins plugins, pages
 * of Amazon product records).
 */
final class Datasets {
    /** Name used in the report and CSV, what it is, and the distinct values (key {@code i} gets {@code values[i % n]}). */
    record Dataset(String name, String description, byte[][] values) {
        double meanSize() {
            long sum = 0;
            for (byte[] v : values) {
                sum += v.length;
            }
            return (double) sum / values.length;
        }
    }

    static final String JSON = "json";
    static final String RECORDS = "records";
    static final int JSON_MIN = 1024;
    static final int JSON_MAX = 3072;
    private static final int SIZED_DISTINCT = 2000;

    private Datasets() {}

    /** @param spec {@code json}, a size such as {@code 100}, {@code 1k}, {@code 4k}, or {@code repeat<size>} */
    static Dataset load(String spec, Path corpus) throws IOException {
        if (RepeatedValues.matches(spec)) {
            return RepeatedValues.load(spec);
        }
        if (spec.equalsIgnoreCase(JSON)) {
            return json(corpus);
        }
        if (spec.equalsIgnoreCase(RECORDS)) {
            return records(corpus);
        }
        int size = parseSize(spec);
        return sized(size, corpus);
    }

    static int parseSize(String spec) {
        String s = spec.trim().toLowerCase(java.util.Locale.ROOT);
        int mult = 1;
        if (s.endsWith("kib") || s.endsWith("k")) {
            mult = 1024;
            s = s.substring(0, s.length() - (s.endsWith("kib") ? 3 : 1));
        } else if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            int n = Integer.parseInt(s.trim()) * mult;
            if (n < 1 || n > (1 << 20)) {
                throw new IllegalArgumentException("value size " + spec + " is outside 1 B..1 MiB");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("value set '" + spec + "' is neither 'json', 'records' nor a size like 100,"
                    + " 1k, 4k");
        }
    }

    static String sizeName(int size) {
        return size % 1024 == 0 ? (size / 1024) + " KiB" : size + " B";
    }

    private static List<Path> jsonFiles(Path corpus) throws IOException {
        Path dir = corpus.resolve("json");
        if (!Files.isDirectory(dir)) {
            throw new IOException("no corpus folder " + dir + " (pass --corpus <dir holding json/>)");
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }

    /** Values of exactly {@code size} bytes, slices at evenly spread offsets of the minified corpus JSON. */
    static Dataset sized(int size, Path corpus) throws IOException {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        for (Path f : jsonFiles(corpus)) {
            byte[] b = Files.readAllBytes(f);
            all.writeBytes(JsonValues.minify(b, 0, b.length));
        }
        byte[] text = all.toByteArray();
        if (text.length < size * 2) {
            throw new IOException("corpus JSON too small (" + text.length + " bytes) for " + size + "-byte values");
        }
        int n = SIZED_DISTINCT;
        long stride = Math.max(1, (long) (text.length - size) / n);
        byte[][] values = new byte[n][];
        for (int i = 0; i < n; i++) {
            int off = (int) ((i * stride) % (text.length - size));
            values[i] = java.util.Arrays.copyOfRange(text, off, off + size);
        }
        return new Dataset(sizeName(size), sizeName(size) + " slices of the corpus JSON files (minified, concatenated; "
                + n + " distinct values)", values);
    }

    /** Single API objects of 1..3 KiB (minified) from the corpus JSON files. */
    static Dataset json(Path corpus) throws IOException {
        Path dir = corpus.resolve("json");
        Map<String, List<byte[]>> sources = new LinkedHashMap<>();
        if (!Files.exists(dir.resolve("twitter.json")) && Files.exists(dir.resolve("statuses.ndjson"))) {
            // the repository's test data (no shared corpus): its synthetic status records, one per line
            sources.put("synthetic statuses.ndjson records", Files.readAllLines(dir.resolve("statuses.ndjson")).stream()
                    .filter(l -> !l.isBlank()).map(l -> l.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toList());
            return select(dir, sources);
        }
        sources.put("twitter_timeline.json tweets", JsonValues.children(read(dir, "twitter_timeline.json")));
        List<byte[]> users = new ArrayList<>();
        for (byte[] status : JsonValues.children(read(dir, "twitter.json"), "statuses")) {
            users.add(JsonValues.member(status, "user"));
        }
        sources.put("twitter.json status users", users);
        sources.put("citm_catalog.json performances",
                JsonValues.children(read(dir, "citm_catalog.json"), "performances"));
        sources.put("github_events.json events", JsonValues.children(read(dir, "github_events.json")));
        sources.put("update-center.json plugins", JsonValues.children(read(dir, "update-center.json"), "plugins"));
        sources.put("amazon_cellphones.ndjson pages of records", amazonPages(read(dir, "amazon_cellphones.ndjson")));
        return select(dir, sources);
    }

    /**
     * Small JSON records (about 150-300 bytes, minified), the kind of value dictionaries are for: the ticket-sale
     * events of citm_catalog.json, or, without the shared corpus, the repository's synthetic product records.
     */
    static Dataset records(Path corpus) throws IOException {
        Path dir = corpus.resolve("json");
        List<byte[]> values = new ArrayList<>();
        String source;
        if (Files.exists(dir.resolve("citm_catalog.json"))) {
            values.addAll(JsonValues.children(read(dir, "citm_catalog.json"), "events"));
            source = "citm_catalog.json events";
        } else {
            for (String l : Files.readAllLines(dir.resolve("products.ndjson"))) {
                if (!l.isBlank()) {
                    values.add(l.strip().getBytes(StandardCharsets.UTF_8));
                }
            }
            source = "synthetic products.ndjson records";
        }
        if (values.size() < 50) {
            throw new IOException("only " + values.size() + " records found under " + dir);
        }
        byte[][] arr = values.toArray(new byte[0][]);
        return new Dataset(RECORDS, String.format(java.util.Locale.ROOT, "small JSON records (%s, minified); %d"
                + " values, mean %.0f bytes", source, arr.length, new Dataset(RECORDS, "", arr).meanSize()), arr);
    }

    /** The values of 1..3 KiB among {@code sources}, with a description naming how many came from each. */
    private static Dataset select(Path dir, Map<String, List<byte[]>> sources) throws IOException {
        List<byte[]> values = new ArrayList<>();
        StringBuilder desc = new StringBuilder("single API objects of " + JSON_MIN + ".." + JSON_MAX
                + " bytes (minified) from the corpus: ");
        boolean first = true;
        for (Map.Entry<String, List<byte[]>> e : sources.entrySet()) {
            int kept = 0;
            for (byte[] v : e.getValue()) {
                if (v.length >= JSON_MIN && v.length <= JSON_MAX) {
                    values.add(v);
                    kept++;
                }
            }
            desc.append(first ? "" : ", ").append(kept).append(' ').append(e.getKey());
            first = false;
        }
        if (values.size() < 50) {
            throw new IOException("only " + values.size() + " JSON objects of " + JSON_MIN + ".." + JSON_MAX
                    + " bytes found under " + dir);
        }
        byte[][] arr = values.toArray(new byte[0][]);
        Dataset d = new Dataset("json", "", arr);
        return new Dataset("json", desc + String.format(java.util.Locale.ROOT, "; %d values, mean %.0f bytes",
                arr.length, d.meanSize()), arr);
    }

    private static byte[] read(Path dir, String name) throws IOException {
        Path p = dir.resolve(name);
        if (!Files.isRegularFile(p)) {
            throw new IOException("missing corpus file " + p);
        }
        return Files.readAllBytes(p);
    }

    /** Consecutive product records (one JSON array per line) grouped into JSON arrays of about 2 KiB. */
    private static List<byte[]> amazonPages(byte[] ndjson) {
        String[] lines = new String(ndjson, StandardCharsets.UTF_8).split("\n");
        List<byte[]> pages = new ArrayList<>();
        StringBuilder page = new StringBuilder();
        for (int i = 1; i < lines.length; i++) { // line 0 holds the column names
            String rec = lines[i].strip();
            if (rec.isEmpty()) {
                continue;
            }
            page.append(page.isEmpty() ? "[" : ",").append(rec);
            if (page.length() >= 1800) {
                pages.add(page.append(']').toString().getBytes(StandardCharsets.UTF_8));
                page.setLength(0);
            }
        }
        return pages;
    }
}
