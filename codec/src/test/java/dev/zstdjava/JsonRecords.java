package dev.zstdjava;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Synthetic JSON records from a seeded generator, shaped like the values real services keep in a cache: social
 * media statuses with a nested user object (1-2 KiB each) and small product records (250-450 B). Same seed, same
 * bytes, on every JVM. Used instead of third-party API dumps whose content carries no licence to redistribute;
 * {@code testdata/json/} holds files made by {@link #main} (a test checks they still match).
 */
public final class JsonRecords {
    private JsonRecords() {}

    private static final String[] WORDS = ("the of and to in is for on that with as was at by be this from are or "
            + "have an not they which one you had her all she there would their we him been has when who will more no "
            + "if out so said what up its about into than them can only other new some could time these two may then "
            + "do first any my now such like our over man me even most made after also did many before must through "
            + "back years where much your way well down should because each just those people how too little state "
            + "good very make world still own see men work long get here between both life being under never day same "
            + "another know while last might us great old year off come since against go came right used take three "
            + "coffee release build server cache latency deploy weekend meeting travel music launch update review").split(" ");
    private static final String[] NAMES = ("Ada Alan Grace Linus Margaret Dennis Barbara Ken Radia Edsger Frances "
            + "Donald John Leslie Tim Vint Shafi Silvio Judea Yoshua Geoffrey Yann Fei Andrew Daphne").split(" ");
    private static final String[] CITIES = ("Tokyo Osaka Berlin Paris London Lagos Lima Austin Oslo Seoul Madrid "
            + "Toronto Sydney Nairobi Mumbai Cairo Dublin Vienna Prague Lisbon").split(" ");
    private static final String[] SOURCES = {"web", "iPhone app", "Android app", "iPad app", "scheduler"};
    private static final String[] LANGS = {"en", "ja", "es", "de", "fr", "pt"};
    private static final String[] BRANDS = {"Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark",
            "Wayne", "Tyrell", "Cyberdyne"};
    private static final String[] COLORS = {"Black", "White", "Silver", "Blue", "Red", "Gold", "Green"};
    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
            "Nov", "Dec"};

    /** @return {@code n} status records (minified JSON objects, 1-2 KiB each) */
    public static List<byte[]> statuses(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(status(r).getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    /** @return {@code n} product records (minified JSON objects, 250-450 B each) */
    public static List<byte[]> products(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(product(r).getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    /** @return a JSON document of at least {@code size} bytes: {@code {"statuses":[...]}}, pretty-printed by line */
    public static byte[] document(int size, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder b = new StringBuilder(size + 4096).append("{\"statuses\":[\n");
        boolean first = true;
        while (b.length() < size) {
            b.append(first ? "  " : ",\n  ").append(status(r));
            first = false;
        }
        return b.append("\n]}\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String status(SplittableRandom r) {
        long id = 240_000_000_000_000_000L + r.nextLong(1_000_000_000_000L);
        String name = pick(r, NAMES) + " " + pick(r, NAMES).charAt(0) + ".";
        String screen = pick(r, NAMES).toLowerCase() + "_" + r.nextInt(10_000);
        StringBuilder s = new StringBuilder(1600);
        s.append("{\"created_at\":\"").append(date(r)).append("\",\"id\":").append(id)
                .append(",\"id_str\":\"").append(id).append("\",\"text\":\"").append(words(r, 6 + r.nextInt(14)));
        if (r.nextBoolean()) {
            s.append(" #").append(pick(r, WORDS));
        }
        s.append("\",\"source\":\"").append(pick(r, SOURCES)).append("\",\"truncated\":false")
                .append(",\"in_reply_to_status_id\":").append(r.nextInt(4) == 0 ? Long.toString(id - r.nextInt(1 << 20)) : "null")
                .append(",\"user\":{\"id\":").append(r.nextLong(4_000_000_000L)).append(",\"name\":\"").append(name)
                .append("\",\"screen_name\":\"").append(screen).append("\",\"location\":\"").append(pick(r, CITIES))
                .append("\",\"description\":\"").append(words(r, 3 + r.nextInt(12)))
                .append("\",\"url\":").append(r.nextBoolean() ? "null" : "\"https://example.org/" + screen + "\"")
                .append(",\"protected\":false,\"followers_count\":").append(r.nextInt(100_000))
                .append(",\"friends_count\":").append(r.nextInt(5_000)).append(",\"listed_count\":").append(r.nextInt(300))
                .append(",\"created_at\":\"").append(date(r)).append("\",\"favourites_count\":").append(r.nextInt(20_000))
                .append(",\"utc_offset\":").append(3600 * (r.nextInt(25) - 12))
                .append(",\"verified\":").append(r.nextInt(20) == 0).append(",\"statuses_count\":").append(r.nextInt(90_000))
                .append(",\"lang\":\"").append(pick(r, LANGS)).append("\",\"profile_background_color\":\"")
                .append(String.format("%06X", r.nextInt(1 << 24))).append("\",\"profile_image_url_https\":")
                .append("\"https://img.example.org/profile_images/").append(r.nextInt(1 << 30)).append("/")
                .append(screen).append("_normal.jpeg\",\"default_profile\":").append(r.nextBoolean())
                .append(",\"following\":false,\"notifications\":false},\"geo\":null,\"coordinates\":null")
                .append(",\"retweet_count\":").append(r.nextInt(4) == 0 ? r.nextInt(5000) : 0)
                .append(",\"favorite_count\":").append(r.nextInt(3) == 0 ? r.nextInt(900) : 0)
                .append(",\"entities\":{\"hashtags\":[");
        int tags = r.nextInt(3);
        for (int t = 0; t < tags; t++) {
            s.append(t > 0 ? "," : "").append("{\"text\":\"").append(pick(r, WORDS)).append("\",\"indices\":[")
                    .append(r.nextInt(60)).append(",").append(60 + r.nextInt(60)).append("]}");
        }
        s.append("],\"urls\":[],\"user_mentions\":[");
        int mentions = r.nextInt(3);
        for (int m = 0; m < mentions; m++) {
            s.append(m > 0 ? "," : "").append("{\"screen_name\":\"").append(pick(r, NAMES).toLowerCase())
                    .append(r.nextInt(1000)).append("\",\"id\":").append(r.nextLong(4_000_000_000L)).append("}");
        }
        return s.append("]},\"favorited\":false,\"retweeted\":false,\"lang\":\"").append(pick(r, LANGS))
                .append("\"}").toString();
    }

    private static String product(SplittableRandom r) {
        String brand = pick(r, BRANDS);
        StringBuilder s = new StringBuilder(400);
        s.append("{\"asin\":\"B0").append(String.format("%08X", r.nextInt() & 0x7fffffff))
                .append("\",\"title\":\"").append(brand).append(" ").append(Character.toUpperCase(pick(r, WORDS).charAt(0)))
                .append(r.nextInt(100)).append(" ").append(words(r, 2 + r.nextInt(5)))
                .append("\",\"brand\":\"").append(brand).append("\",\"price\":").append(r.nextInt(1500)).append('.')
                .append(10 + r.nextInt(90)).append(",\"rating\":").append(1 + r.nextInt(4)).append('.').append(r.nextInt(10))
                .append(",\"reviews\":").append(r.nextInt(12_000))
                .append(",\"category\":[\"Electronics\",\"Cell Phones\",\"").append(r.nextBoolean() ? "Unlocked" : "Carrier")
                .append("\"],\"color\":\"").append(pick(r, COLORS)).append("\",\"storage_gb\":").append(16 << r.nextInt(5))
                .append(",\"in_stock\":").append(r.nextInt(5) != 0).append(",\"features\":[");
        int f = 1 + r.nextInt(3);
        for (int i = 0; i < f; i++) {
            s.append(i > 0 ? "," : "").append('"').append(words(r, 2 + r.nextInt(4))).append('"');
        }
        return s.append("]}").toString();
    }

    private static String date(SplittableRandom r) {
        return String.format("%s %s %02d %02d:%02d:%02d +0000 20%02d", pick(r, DAYS), pick(r, MONTHS), 1 + r.nextInt(28),
                r.nextInt(24), r.nextInt(60), r.nextInt(60), 10 + r.nextInt(16));
    }

    private static String words(SplittableRandom r, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            // skewed: low indices (common words) far more often, like real text
            int idx = (int) (WORDS.length * Math.pow(r.nextDouble(), 2.2));
            b.append(i > 0 ? " " : "").append(WORDS[idx]);
        }
        return b.toString();
    }

    private static String pick(SplittableRandom r, String[] a) {
        return a[r.nextInt(a.length)];
    }

    /** Writes the committed sample files: {@code testdata/json/statuses.ndjson} and {@code products.ndjson}. */
    public static void main(String[] args) throws java.io.IOException {
        java.nio.file.Path dir = java.nio.file.Path.of(args.length > 0 ? args[0] : "testdata/json");
        java.nio.file.Files.createDirectories(dir);
        java.nio.file.Files.write(dir.resolve("statuses.ndjson"), ndjson(statuses(STATUS_FILE_RECORDS, FILE_SEED)));
        java.nio.file.Files.write(dir.resolve("products.ndjson"), ndjson(products(PRODUCT_FILE_RECORDS, FILE_SEED)));
    }

    /** Record counts and seed of the committed files. */
    public static final int STATUS_FILE_RECORDS = 80, PRODUCT_FILE_RECORDS = 300;
    public static final long FILE_SEED = 2026;

    /** @return the records, one per line */
    public static byte[] ndjson(List<byte[]> records) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        for (byte[] rec : records) {
            b.writeBytes(rec);
            b.write('\n');
        }
        return b.toByteArray();
    }
}
