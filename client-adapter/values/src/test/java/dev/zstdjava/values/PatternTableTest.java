package dev.zstdjava.values;

import dev.zstdjava.testkit.Allocations;
import dev.zstdjava.values.PatternTable.Kind;
import dev.zstdjava.values.PatternTable.Row;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** {@link PatternTable}: sharing by fold, listed patterns first, the bound, recency, allocation and concurrency. */
class PatternTableTest {
    /** A state that knows the pattern it was made for, and which one it was of those made. */
    record State(String pattern, int made) {}

    private final AtomicInteger made = new AtomicInteger();
    private final AtomicLong clock = new AtomicLong(1_000);

    private PatternTable<State> table(int capacity, long idleWindowNanos, String... listed) {
        return new PatternTable<>(capacity, idleWindowNanos, List.of(listed),
                p -> new State(p, made.incrementAndGet()), clock::get);
    }

    /** With the state's own count given, rows report it (ordered by it), and lookups are not counted again. */
    @Test
    void rowsReportTheStatesOwnCountWhenGiven() {
        record Counted(String pattern, AtomicLong uses) {}
        PatternTable<Counted> table = new PatternTable<>(8, Duration.ofHours(1), List.of("listed:*"),
                p -> new Counted(p, new AtomicLong()), c -> c.uses().get());
        table.lookup(bytes("a:1")).uses().addAndGet(5);
        table.lookup(bytes("b:1")).uses().addAndGet(7);
        table.lookup(bytes("listed:x")).uses().addAndGet(2);
        table.lookup(bytes("a:2"));
        List<Row<Counted>> rows = table.snapshot();
        assertEquals(List.of("listed:*", "b:*", "a:*", PatternTable.OTHER), rows.stream().map(Row::pattern).toList(),
                "tracked rows by the state's count, not by lookups (a:* had two, b:* one)");
        assertEquals(List.of(2L, 7L, 5L, 0L), rows.stream().map(Row::seen).toList());
    }

    @Test
    void keysThatFoldAlikeShareOneState() {
        PatternTable<State> table = new PatternTable<>(List.of(), p -> new State(p, made.incrementAndGet()));
        State a = table.lookup(bytes("user:1234:profile"));
        assertEquals("user:*:profile", a.pattern());
        assertSame(a, table.lookup(bytes("user:77:profile")));
        byte[] framed = bytes("[[user:5:profile]]");
        assertSame(a, table.lookup(framed, 2, framed.length - 4), "a key inside a larger array");
        State session = table.lookup(bytes("session:3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b"));
        assertEquals("session:*", session.pattern());
        assertSame(session, table.lookup(bytes("session:00000000-0000-4000-8000-000000000000")));
        assertNotSame(a, table.lookup(bytes("user:1:cart")));
        String longKey = "user:1:" + "x".repeat(100); // folded into an array of its own
        assertSame(table.lookup(bytes(longKey)), table.lookup(bytes(longKey.replace(":1:", ":2:"))));
        assertEquals(4, table.size());
        assertEquals(1 + 4, made.get(), "one state per pattern, and one for other");

        List<Row<State>> rows = table.snapshot();
        assertEquals(5, rows.size());
        Row<State> first = rows.get(0);
        assertEquals("user:*:profile", first.pattern());
        assertEquals(Kind.FOLDED, first.kind());
        assertSame(a, first.state());
        assertEquals(3, first.seen());
        assertTrue(first.firstSeen().toEpochMilli() <= System.currentTimeMillis());
        Row<State> last = rows.get(rows.size() - 1);
        assertEquals(Kind.OTHER, last.kind());
        assertEquals(PatternTable.OTHER, last.pattern());
        assertEquals(0, last.seen());
        assertThrows(IndexOutOfBoundsException.class, () -> table.lookup(new byte[4], 3, 2));
        assertThrows(NullPointerException.class, () -> table.lookup(null));
    }

    @Test
    void listedPatternsComeFirstInTheirOrder() {
        PatternTable<State> table = table(8, 1_000, "user:*:profile", "user:*", "v2:*");
        State profile = table.lookup(bytes("user:42:profile"));
        assertEquals("user:*:profile", profile.pattern());
        assertSame(profile, table.lookup(bytes("user:abc:profile")), "matched on the pattern, not only by fold");
        State user = table.lookup(bytes("user:42:cart"));
        assertEquals("user:*", user.pattern(), "the first that matches wins");
        assertSame(user, table.lookup(bytes("user:")));
        State v2 = table.lookup(bytes("v7:item:9"));
        assertEquals("v2:*", v2.pattern(), "the listed pattern is folded like a key: v*:*");
        assertSame(v2, table.lookup(bytes("v2:x")));
        State order = table.lookup(bytes("order:5"));
        assertEquals("order:*", order.pattern(), "not listed: its own pattern");
        assertEquals(1, table.size(), "listed patterns are not tracked");
        assertEquals(List.of("user:*:profile", "user:*", "v2:*", "order:*", PatternTable.OTHER),
                table.snapshot().stream().map(Row::pattern).toList());
        assertEquals(List.of(2L, 2L, 2L, 1L, 0L), table.snapshot().stream().map(Row::seen).toList());

        assertThrows(IllegalArgumentException.class, () -> table(8, 1_000, "a:1", "a:22"), "folding alike");
        assertThrows(IllegalArgumentException.class, () -> table(-1, 1_000));
        assertThrows(IllegalArgumentException.class, () -> table(PatternTable.MAX_CAPACITY + 1, 1_000));
        assertThrows(IllegalArgumentException.class, () -> table(8, 0));
    }

    /**
     * A listed pattern that an earlier one matches every key of would never take a key (the first that matches wins):
     * refused, naming both and the order that works; a more specific pattern listed first, or two that overlap without
     * either covering the other, are kept.
     */
    @Test
    void aListedPatternAnEarlierOneCoversIsRefused() {
        String[][] covered = { // earlier, later
            {"user:*", "user:*:cart"},
            {"user:*", "user:"}, // a star matches no byte too
            {"*", "anything:*"},
            {"a*c", "a*b*c"},
            {"*:cart", "user:*:cart"},
            {"v2:*", "v7:*:x"}, // folded like keys: v*:* covers v*:*:x
        };
        for (String[] c : covered) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> table(8, 1_000, "first:*", c[0], c[1]), c[0] + " then " + c[1]);
            assertEquals("listed pattern " + c[1] + " would never be used: " + c[0] + ", listed before it, matches"
                    + " every key it matches (the first listed pattern that matches a key takes it); list " + c[1]
                    + " before " + c[0] + ", or leave it out", e.getMessage());
            assertEquals(c[1], table(8, 1_000, c[1], c[0]).lookup(bytes(c[1].replace("*", "x"))).pattern(),
                    "the other order: both used");
        }
        PatternTable<State> table = table(8, 1_000, "*:cart", "user:*", "a*", "*c");
        assertEquals("*:cart", table.lookup(bytes("user:1:cart")).pattern());
        assertEquals("user:*", table.lookup(bytes("user:1:list")).pattern());
        assertEquals("a*", table.lookup(bytes("abc")).pattern(), "a* and *c overlap, neither covers the other");
        assertEquals("*c", table.lookup(bytes("xbc")).pattern());
    }

    /**
     * A tracked entry keeps its pattern and its name, so a key whose pattern is longer than
     * {@link PatternTable#MAX_PATTERN_LENGTH} bytes is one of "other"'s keys, without a lock or an entry: keys of a
     * mebibyte (binary, named {@code \xHH} a byte) leave nothing of themselves in the table. A listed pattern still
     * matches such a key, and a pattern of exactly the bound is tracked.
     */
    @Test
    void aKeyWhosePatternIsLongerThanTheBoundIsOthers() {
        PatternTable<State> table = table(8, 1_000, "blob:*");
        byte[] atBound = bytes("k:" + "x".repeat(PatternTable.MAX_PATTERN_LENGTH - 2));
        assertEquals("k:" + "x".repeat(PatternTable.MAX_PATTERN_LENGTH - 2), table.lookup(atBound).pattern());
        byte[] over = bytes("k:" + "y".repeat(PatternTable.MAX_PATTERN_LENGTH - 1));
        assertEquals(PatternTable.OTHER, table.lookup(over).pattern());
        for (int i = 0; i < 8; i++) {
            byte[] key = new byte[1 << 20];
            for (int j = 0; j < key.length; j++) {
                key[j] = (byte) (j % 2 == 0 ? 0xFF : 'g' + (i + j) % 20); // not UTF-8, no digits: folds to itself
            }
            assertEquals(PatternTable.OTHER, table.lookup(key).pattern(), "a key of 1 MiB, " + i);
            byte[] blob = java.util.Arrays.copyOf(bytes("blob:"), 1 << 20);
            java.util.Arrays.fill(blob, 5, blob.length, (byte) ('g' + i));
            assertEquals("blob:*", table.lookup(blob).pattern(), "listed patterns still match");
        }
        assertEquals(1, table.size(), "only the pattern of the bound's length is tracked");
        List<Row<State>> rows = table.snapshot();
        assertEquals(List.of("blob:*", atBound.length + " bytes", PatternTable.OTHER),
                rows.stream().map(r -> r.kind() == Kind.FOLDED ? r.pattern().length() + " bytes" : r.pattern())
                        .toList());
        assertEquals(9L, rows.getLast().seen());
        assertEquals(3, made.get(), "blob:*, other and the pattern at the bound: no state made for the long keys");
    }

    /**
     * The table's pool of folders keeps no long key: after a lookup of a key of 1 MiB, the folder given back to the
     * pool holds its inline array only (a folder of a stripe no lookup uses again would keep the key's folded copy).
     */
    @Test
    void aPooledFolderKeepsNoLongKey() throws ReflectiveOperationException {
        PatternTable<State> table = table(8, 1_000);
        byte[] key = new byte[1 << 20];
        java.util.Arrays.fill(key, (byte) 'k');
        assertEquals(PatternTable.OTHER, table.lookup(key).pattern());
        assertEquals("k:*", table.lookup(bytes("k:1")).pattern(), "the folder folds on as before");
        table.lookup(key);
        java.lang.reflect.Field pool = PatternTable.class.getDeclaredField("folders");
        pool.setAccessible(true);
        java.lang.reflect.Field folded = KeyFolder.class.getDeclaredField("folded");
        folded.setAccessible(true);
        java.util.concurrent.atomic.AtomicReferenceArray<?> folders =
                (java.util.concurrent.atomic.AtomicReferenceArray<?>) pool.get(table);
        int kept = 0;
        for (int i = 0; i < folders.length(); i++) {
            Object f = folders.get(i);
            if (f != null) {
                kept++;
                assertEquals(KeyFolder.INLINE_LENGTH, ((byte[]) folded.get(f)).length, "a pooled folder's array");
            }
        }
        assertEquals(1, kept, "this thread's folder");
    }

    /**
     * Two patterns that differ only in bytes that are not UTF-8 (kept by the fold as separators) are two patterns with
     * two names, as their states and rows see them (each such byte {@code \xHH}, a backslash {@code \\}); listed
     * patterns of valid UTF-8 still match as before and keep the name given.
     */
    @Test
    void patternsThatDifferOnlyInInvalidUtf8BytesHaveNamesOfTheirOwn() {
        PatternTable<State> table = table(8, 1_000, "clé:*", "dir\\sub:*");
        State ff = table.lookup(new byte[] {'a', ':', (byte) 0xFF, ':', '1'});
        State fe = table.lookup(new byte[] {'a', ':', (byte) 0xFE, ':', '2'});
        assertNotSame(ff, fe);
        State slash = table.lookup(bytes("a\\b:3"));
        assertEquals(List.of("a:\\xFF:*", "a:\\xFE:*", "a\\\\b:*"), table.snapshot().stream()
                .filter(r -> r.kind() == Kind.FOLDED).map(Row::pattern).toList(), "one name per pattern");
        assertEquals(List.of("a:\\xFF:*", "a:\\xFE:*", "a\\\\b:*"), List.of(ff.pattern(), fe.pattern(),
                slash.pattern()));
        assertSame(ff, table.lookup(new byte[] {'a', ':', (byte) 0xFF, ':', '9'}));
        State listed = table.lookup(bytes("clé:42"));
        assertEquals("clé:*", listed.pattern());
        assertSame(listed, table.lookup(bytes("clé:abc")));
        assertEquals("dir\\sub:*", table.lookup(bytes("dir\\sub:7")).pattern(), "a listed pattern is named as given");
        assertEquals(3, table.size());
    }

    /**
     * A listed pattern is named by its text as given, a folded one by {@link KeyFolder#text}: a listed pattern whose
     * text is the text of other bytes ({@code \\} or {@code \xHH}) would have the name of a pattern it does not match,
     * and {@code (other)} is "other"'s name: both are refused, naming the pattern and what to list instead. A
     * backslash that reads as no byte's text is no other pattern's name, and is kept.
     */
    @Test
    void aListedPatternWithAnotherPatternsNameIsRefused() {
        IllegalArgumentException slash = assertThrows(IllegalArgumentException.class,
                () -> table(8, 1_000, "ok:*", "a\\\\b:*"), "the name of the keys a\\b:*");
        assertEquals("listed pattern a\\\\b:* is also the name of the keys of another pattern: a key pattern's name"
                + " writes a backslash \\\\ and a byte that is not UTF-8 \\xHH, and a listed pattern is matched by its own"
                + " UTF-8 bytes, so the two would share a name (its row, its dictionary lineage); list a\\b:* for those"
                + " keys, or a pattern without \\\\ and \\xHH", slash.getMessage());
        IllegalArgumentException invalid = assertThrows(IllegalArgumentException.class,
                () -> table(8, 1_000, "a:\\xFF:*"), "the name of the keys a:<FF>:<digits>");
        assertTrue(invalid.getMessage().startsWith("listed pattern a:\\xFF:* is also the name of the keys of another"
                + " pattern"), invalid.getMessage());
        assertTrue(invalid.getMessage().contains("no listed pattern spells their bytes that are not UTF-8 (a * matches"
                + " them)"), invalid.getMessage());
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> table(8, 1_000, PatternTable.OTHER));
        assertEquals("listed pattern (other) is the name of the entry the keys of every pattern not tracked share:"
                + " list another pattern", other.getMessage());

        // no other bytes have these texts: kept, named as given
        List<String> kept = List.of("dir\\sub:*", "hex\\x41:*", "lower\\xff:*", "pair\\xC3\\xA9:*", "end\\", "clé:*");
        PatternTable<State> table = table(8, 1_000, kept.toArray(new String[0]));
        assertEquals(kept, table.snapshot().stream().filter(r -> r.kind() == Kind.LISTED).map(Row::pattern).toList());
        assertEquals("dir\\sub:*", table.lookup(bytes("dir\\sub:7")).pattern());
    }

    /**
     * No two entries share a name: a key whose pattern has a listed pattern's bytes is that listed pattern's (never
     * tracked under the same name), and a key whose pattern is named {@code (other)} is one of "other"'s keys.
     */
    @Test
    void noTwoEntriesShareAName() {
        PatternTable<State> table = table(8, 1_000, "dir\\sub:*", "user:*");
        State other = table.snapshot().getLast().state();
        assertSame(other, table.lookup(bytes("(other)")), "the pattern named (other) is other's");
        assertSame(other, table.lookup(bytes("(other)")));
        assertSame(table.lookup(bytes("dir\\sub:1")), table.lookup(bytes("dir\\sub:*")));
        table.lookup(bytes("a\\b:1"));
        table.lookup(new byte[] {'a', ':', (byte) 0xFF, ':', '1'});
        table.lookup(bytes("user:*"));
        table.lookup(bytes("(other):1"));
        List<String> names = table.snapshot().stream().map(Row::pattern).toList();
        assertEquals(List.of("dir\\sub:*", "user:*", "a\\\\b:*", "a:\\xFF:*", "(other):*", PatternTable.OTHER),
                names);
        assertEquals(2L, table.snapshot().getLast().seen(), "the two lookups of the key (other)");
    }

    @Test
    void theLeastRecentlySeenIsEvictedOnlyWhenIdleForTheWindow() {
        long window = 64_000;
        PatternTable<State> table = table(3, window);
        State a = table.lookup(bytes("a:1"));
        State b = table.lookup(bytes("b:1"));
        State c = table.lookup(bytes("c:1"));
        clock.addAndGet(window / 2);
        assertEquals(PatternTable.OTHER, table.lookup(bytes("d:1")).pattern(), "all three seen within the window");
        table.lookup(bytes("a:2"));
        table.lookup(bytes("c:2"));
        clock.addAndGet(window / 2); // b idle for the window, a and c for half of it
        State d = table.lookup(bytes("d:2"));
        assertEquals("d:*", d.pattern(), "b evicted");
        assertEquals(1, table.evictions());
        assertSame(a, table.lookup(bytes("a:3")), "recently seen: kept");
        assertSame(c, table.lookup(bytes("c:3")));
        assertSame(d, table.lookup(bytes("d:3")));
        assertEquals(PatternTable.OTHER, table.lookup(bytes("b:3")).pattern(), "evicted, and none idle now");
        clock.addAndGet(window);
        table.lookup(bytes("a:4"));
        table.lookup(bytes("d:4"));
        State b2 = table.lookup(bytes("b:4"));
        assertEquals("b:*", b2.pattern(), "c idle for the window: evicted for b");
        assertNotSame(b, b2, "an evicted pattern comes back with a fresh state");
        assertEquals(3, table.size());
        assertEquals(List.of("a:*", "d:*", "b:*"),
                table.snapshot().stream().filter(r -> r.kind() == Kind.FOLDED).map(Row::pattern).toList());
    }

    /**
     * 100,000 keys of random letters, each its own pattern, one a microsecond against a window of 10 ms: the table
     * never tracks more than its capacity, admits at most its capacity per window, and "other" takes the rest.
     */
    @Test
    void aKeyspaceOfRandomKeysStaysWithinTheBound() {
        int capacity = PatternTable.DEFAULT_CAPACITY;
        long window = 10_000_000;
        PatternTable<State> table = table(capacity, window);
        SplittableRandom random = new SplittableRandom(0x7AB1E);
        byte[] key = new byte[24];
        int keys = 100_000;
        for (int n = 0; n < keys; n++) {
            for (int i = 0; i < key.length; i++) {
                key[i] = (byte) ('a' + random.nextInt(26));
            }
            table.lookup(key);
            clock.addAndGet(1_000);
            if (table.size() > capacity) {
                fail("tracked " + table.size() + " after " + n + " keys");
            }
        }
        List<Row<State>> rows = table.snapshot();
        assertTrue(rows.size() <= capacity + 1, "rows: " + rows.size());
        long windows = keys * 1_000L / window + 1;
        assertTrue(table.evictions() > 0 && table.evictions() <= capacity * windows, "evictions " + table.evictions());
        Row<State> other = rows.get(rows.size() - 1);
        assertEquals(Kind.OTHER, other.kind());
        assertTrue(other.seen() >= keys - capacity * (windows + 1), "other: " + other.seen());
        assertEquals(keys, other.seen() + table.evictions() + capacity, "every key counted once");
        assertEquals(1 + capacity + table.evictions(), made.get(), "a state per admission");
    }

    @Test
    void aHitOnAListedOrTrackedPatternAllocatesNothing() {
        PatternTable<State> table = new PatternTable<>(List.of("cart:*:items:*"), p -> new State(p, 0));
        byte[][] keys = {
            bytes("session:3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b"), // 44 bytes
            bytes("user:12345678:profile:deadbeef01:settings"), // 40 bytes
            bytes("cart:1234567890:items:and:some:more:text"), // 40 bytes, listed
        };
        int[] i = {0};
        long per = Allocations.bytesPerCall(200_000, () -> table.lookup(keys[i[0]++ % keys.length]).made());
        assertEquals(0, per, "heap bytes per lookup");
        assertEquals(2, table.size(), "the listed key is not tracked");
        Row<State> cart = table.snapshot().get(0);
        assertEquals(Kind.LISTED, cart.kind());
        assertTrue(cart.seen() >= 4 * 200_000 / 3, "the listed pattern's lookups: " + cart.seen());
    }

    /**
     * 2,000 virtual threads, 500 lookups each over 40 patterns and 2 listed ones, all raced for from the start, then
     * keys of random letters too (a table of 48, with a window no test outlasts, so nothing is evicted): each lookup
     * gets its own pattern's state or "other", one state is made per entry, and the counters add up to the lookups.
     */
    @Test
    void twoThousandVirtualThreadsCountEveryLookupOnce() throws InterruptedException {
        int threads = 2_000;
        int perThread = 500;
        PatternTable<State> table = new PatternTable<>(48, Duration.ofHours(1), List.of("listed:*:a", "listed:*"),
                p -> {
                    Thread.yield(); // lets other threads miss the same pattern meanwhile
                    return new State(p, made.incrementAndGet());
                });
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch firstPhase = new CountDownLatch(threads); // every pattern raced for, before random keys
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long seed = t;
            started.add(Thread.ofVirtual().start(() -> {
                boolean counted = false;
                try {
                    start.await();
                    SplittableRandom random = new SplittableRandom(seed);
                    for (int n = 0; n < perThread; n++) {
                        if (n == 100) {
                            counted = true;
                            firstPhase.countDown();
                            firstPhase.await();
                        }
                        int kind = random.nextInt(n < 100 ? 47 : 50);
                        String key;
                        String expected;
                        if (kind < 40) {
                            expected = kindPattern(kind);
                            key = expected.replace("*", Integer.toString(random.nextInt(1_000_000)));
                        } else if (kind < 44) {
                            key = "listed:" + random.nextInt(1000) + ":a";
                            expected = "listed:*:a";
                        } else if (kind < 47) {
                            key = "listed:" + random.nextInt(1000) + ":b";
                            expected = "listed:*";
                        } else {
                            key = "rnd:" + random.ints(12, 'a', 'z' + 1)
                                    .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append);
                            expected = key;
                        }
                        String got = table.lookup(bytes(key)).pattern();
                        if (!got.equals(expected) && !(kind >= 47 && got.equals(PatternTable.OTHER))) {
                            throw new AssertionError(key + " got the state of " + got);
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                    if (!counted) {
                        firstPhase.countDown(); // so the others do not wait for this one
                    }
                }
            }));
        }
        start.countDown();
        for (Thread t : started) {
            t.join();
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " failures, the first: " + failures.peek());
        List<Row<State>> rows = table.snapshot();
        assertEquals((long) threads * perThread, rows.stream().mapToLong(Row::seen).sum(), "lookups counted");
        assertEquals(48, table.size(), "40 patterns and 8 of random keys tracked");
        assertEquals(0, table.evictions());
        assertEquals(rows.size(), made.get(), "one state made per entry");
        assertEquals(rows.size(), rows.stream().map(Row::state).distinct().count());
        assertTrue(rows.get(rows.size() - 1).seen() > 0, "random keys beyond the bound went to other");
    }

    private static String kindPattern(int kind) {
        return "kind" + (char) ('a' + kind / 26) + (char) ('a' + kind % 26) + ":*";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
