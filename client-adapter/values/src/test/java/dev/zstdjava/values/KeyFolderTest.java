package dev.zstdjava.values;

import dev.zstdjava.testkit.Allocations;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link KeyFolder} against the fold {@code zstd-values advise} was written with, kept here as the oracle: the regular
 * expressions below, applied to the key decoded as UTF-8 (each invalid byte a separator, then written {@code \xHH},
 * a backslash {@code \\}); and a pattern's text against its bytes: one-to-one.
 */
class KeyFolderTest {
    /** The reference: a UUID, then hex runs with a digit between non-alphanumerics, then digit runs, then stars. */
    static final class RegexFold {
        private static final Pattern UUID = Pattern.compile(
                "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
        private static final Pattern HEX =
                Pattern.compile("(?<![0-9A-Za-z])(?=[a-fA-F]*[0-9])[0-9a-fA-F]{8,}(?![0-9A-Za-z])");
        private static final Pattern DIGITS = Pattern.compile("[0-9]+");
        private static final Pattern STARS = Pattern.compile("\\*{2,}");

        static String fold(byte[] key) {
            return fold(new String(key, StandardCharsets.UTF_8));
        }

        /**
         * The text of {@code key}'s pattern: the key decoded by the JDK's strict decoder, each byte of a malformed
         * run standing for a character of the private use area U+F700 + byte (a separator), folded, then a backslash
         * written {@code \\} and each such character {@code \xHH}; null when the key holds such a character.
         */
        static String text(byte[] key) {
            ByteBuffer in = ByteBuffer.wrap(key);
            java.nio.CharBuffer out = java.nio.CharBuffer.allocate(2 * key.length + 2);
            CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
            while (true) {
                int mark = out.position();
                java.nio.charset.CoderResult r = d.decode(in, out, true);
                for (int k = mark; k < out.position(); k++) {
                    if (out.get(k) >= 0xF700 && out.get(k) <= 0xF7FF) {
                        return null;
                    }
                }
                if (!r.isError()) {
                    break;
                }
                for (int k = 0; k < r.length(); k++) {
                    out.put((char) (0xF700 + (in.get() & 0xFF)));
                }
            }
            String folded = fold(out.flip().toString());
            StringBuilder text = new StringBuilder();
            for (char c : folded.toCharArray()) {
                if (c == '\\') {
                    text.append("\\\\");
                } else if (c >= 0xF700 && c <= 0xF7FF) {
                    text.append(String.format("\\x%02X", c - 0xF700));
                } else {
                    text.append(c);
                }
            }
            return text.toString();
        }

        static String fold(String key) {
            String s = UUID.matcher(key).replaceAll("*");
            s = HEX.matcher(s).replaceAll("*");
            s = DIGITS.matcher(s).replaceAll("*");
            return STARS.matcher(s).replaceAll("*");
        }
    }

    private static final String[][] EXAMPLES = {
        {"user:1234:profile", "user:*:profile"},
        {"session:3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b", "session:*"},
        {"blob:deadbeef01:v2", "blob:*:v*"},
        {"word:deadbeefcafe", "word:deadbeefcafe"}, // hex letters without a digit stay
        {"tag:abc12", "tag:abc*"}, // a short hex run keeps its letters, its digits fold
        {"order:12:34", "order:*:*"}, // separators stay
        {"id:12deadbeef9", "id:*"},
        {"", ""},
        {"**", "*"},
        {"a**b:1*2", "a*b:*"},
        {"x3F2B8C1E-9A4D-4E6F-8B7A-1C2D3E4F5A6Bz", "x*z"}, // a UUID matches anywhere, in either case
        {"3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b00", "*"},
        {"abcdef1", "abcdef*"}, // 7 hex characters
        {"abcdef12", "*"}, // 8
        {"abcdefg12345", "abcdefg*"}, // not all hex
        {"deadbeef01é", "*é"}, // a non-ASCII character separates
        {"clé:42", "clé:*"},
        {"C:\\dir\\7", "C:\\\\dir\\\\*"}, // a backslash is written as two
    };

    @Test
    void examplesFoldAsTheRegularExpressionsDo() {
        KeyFolder folder = new KeyFolder();
        for (String[] e : EXAMPLES) {
            byte[] key = e[0].getBytes(StandardCharsets.UTF_8);
            assertEquals(e[1], RegexFold.text(key), "the oracle, " + e[0]);
            folder.fold(key);
            assertEquals(e[1], folder.pattern(), e[0]);
            assertEquals(e[1], KeyFolder.patternOf(key), e[0]);
            byte[] pattern = RegexFold.fold(e[0]).getBytes(StandardCharsets.UTF_8);
            assertArrayEquals(pattern, folder.patternBytes(), e[0]);
            assertTrue(folder.patternEquals(pattern), e[0]);
        }
    }

    /**
     * 200,000 generated keys of 0 to 100 bytes (fixed seed): separators, digit runs, hex runs of 7 to 9 characters
     * with and without digits, other words, UUIDs in either case, stars, non-ASCII characters and invalid UTF-8
     * bytes, often with no separator between them; each folded whole and at an offset of a larger array.
     */
    @Test
    void generatedKeysFoldAsTheRegularExpressionsDo() {
        SplittableRandom random = new SplittableRandom(0x4B3E_F01DL);
        KeyFolder folder = new KeyFolder();
        Map<String, Long> hashes = new HashMap<>();
        byte[] buffer = new byte[256];
        int valid = 0;
        int skipped = 0;
        for (int n = 0; n < 200_000; n++) {
            byte[] key = generatedKey(random);
            String expected = RegexFold.text(key);
            if (expected == null) { // the key holds a character the oracle stands invalid bytes for
                assertTrue(++skipped < 10, "keys the oracle cannot fold: " + skipped);
                continue;
            }
            long hash = folder.fold(key);
            if (!expected.equals(folder.pattern()) || !expected.equals(KeyFolder.patternOf(key))) {
                fail("key " + show(key) + ": folded to " + folder.pattern() + ", the regular expressions give "
                        + expected);
            }
            if (isUtf8(key)) {
                valid++;
                if (!folder.patternEquals(RegexFold.fold(key).getBytes(StandardCharsets.UTF_8))) {
                    fail("key " + show(key) + ": the pattern's bytes are not the UTF-8 of " + RegexFold.fold(key));
                }
            }
            assertTrue(folder.length() <= key.length, () -> "longer than the key: " + show(key));
            assertEquals(hash, folder.hash());
            Long before = hashes.putIfAbsent(new String(folder.patternBytes(), StandardCharsets.ISO_8859_1), hash);
            if (before != null && before != hash) {
                fail("two hashes for the pattern of " + show(key));
            }
            int off = random.nextInt(buffer.length - key.length + 1);
            System.arraycopy(key, 0, buffer, off, key.length);
            if (folder.fold(buffer, off, key.length) != hash || !expected.equals(folder.pattern())) {
                fail("key " + show(key) + " at offset " + off + ": folded to " + folder.pattern());
            }
        }
        assertTrue(valid > 100_000 && valid < 190_000, "valid and invalid UTF-8 both generated: " + valid);
        assertTrue(hashes.size() > 10_000, "patterns seen: " + hashes.size());
    }

    /**
     * A pattern's text is one-to-one with its bytes: read back (each {@code \\} a backslash, each {@code \xHH} that
     * byte, every other character its UTF-8) it gives the bytes again, for 200,000 random byte strings of 0 to 24
     * bytes (often of bytes that start, continue or cut well-formed, overlong and surrogate sequences, backslashes and
     * the letters of an escape); every string of up to 4 bytes over 16 such bytes has a text of its own; a string of
     * valid UTF-8 reads as the JDK decodes it, each backslash doubled; and the text of a range is that of its copy.
     */
    @Test
    void aPatternsTextIsOneToOneWithItsBytes() {
        byte[] alphabet = {'\\', 'x', 'F', '7', (byte) 0xFF, (byte) 0xC3, (byte) 0xA9, (byte) 0xE2, (byte) 0x82,
            (byte) 0xAC, (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0xED, (byte) 0xA0, (byte) 0xC0};
        SplittableRandom random = new SplittableRandom(0x7E57_BA5EL);
        byte[] buffer = new byte[64];
        int valid = 0;
        for (int n = 0; n < 200_000; n++) {
            byte[] b = new byte[random.nextInt(25)];
            for (int i = 0; i < b.length; i++) {
                b[i] = random.nextBoolean() ? alphabet[random.nextInt(alphabet.length)] : (byte) random.nextInt(256);
            }
            String text = KeyFolder.text(b, 0, b.length);
            assertArrayEquals(b, readBack(text), () -> show(b) + " has the text " + text);
            assertArrayEquals(b, KeyFolder.bytesOf(text), () -> "bytesOf, the inverse of " + text);
            if (isUtf8(b)) {
                valid++;
                assertEquals(new String(b, StandardCharsets.UTF_8).replace("\\", "\\\\"), text, show(b));
            }
            int off = random.nextInt(buffer.length - b.length + 1);
            System.arraycopy(b, 0, buffer, off, b.length);
            assertEquals(text, KeyFolder.text(buffer, off, off + b.length), () -> show(b) + " at offset " + off);
        }
        assertTrue(valid > 5_000 && valid < 190_000, "valid and invalid UTF-8 both drawn: " + valid);
        // strings that are no bytes' text: a backslash that starts no escape, an escape text writes otherwise
        for (String none : List.of("\\", "a\\b", "\\x4", "\\xff", "\\x41", "\\xC3\\xA9", "\\\\\\", "a\uD800")) {
            assertNull(KeyFolder.bytesOf(none), none);
        }

        Map<String, String> seen = new HashMap<>();
        int strings = 0;
        for (int length = 0; length <= 4; length++) {
            int[] digit = new int[length];
            for (boolean more = true; more; strings++) {
                byte[] b = new byte[length];
                for (int i = 0; i < length; i++) {
                    b[i] = alphabet[digit[i]];
                }
                String before = seen.put(KeyFolder.text(b, 0, length), show(b));
                if (before != null) {
                    fail(before + " and " + show(b) + " have the same text " + KeyFolder.text(b, 0, length));
                }
                more = false;
                for (int i = 0; i < length && !more; i++) { // the next string of this length, as an odometer
                    digit[i] = (digit[i] + 1) % alphabet.length;
                    more = digit[i] != 0;
                }
            }
        }
        assertEquals(1 + 16 + 256 + 4096 + 65536, strings);
        assertEquals(strings, seen.size());
        assertThrows(IndexOutOfBoundsException.class, () -> KeyFolder.text(new byte[4], 3, 5));
    }

    /** The bytes a pattern's text stands for: the inverse of {@link KeyFolder#text}, written apart from it. */
    private static byte[] readBack(String text) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < text.length(); ) {
            if (text.startsWith("\\\\", i)) {
                out.write('\\');
                i += 2;
            } else if (text.startsWith("\\x", i)) {
                String hex = text.substring(i + 2, i + 4);
                assertEquals(hex.toUpperCase(java.util.Locale.ROOT), hex, text);
                out.write(Integer.parseInt(hex, 16));
                i += 4;
            } else {
                assertFalse(text.charAt(i) == '\\', () -> "a lone backslash in " + text);
                int cp = text.codePointAt(i);
                out.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(cp);
            }
        }
        return out.toByteArray();
    }

    private static final String[] SEPARATORS = {":", "-", "_", ".", "/", "*", " ", "{", "}"};
    private static final String[] NON_ASCII = {"é", "ü", "日本", "ß", "\uD83D\uDE00", "–"};
    private static final String HEX = "0123456789abcdefABCDEF";
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

    private static byte[] generatedKey(SplittableRandom r) {
        int limit = r.nextInt(101);
        ByteBuffer b = ByteBuffer.allocate(limit + 64);
        while (b.position() < limit) {
            int kind = r.nextInt(14);
            switch (kind) {
                case 0, 1, 2 -> b.put(bytes(SEPARATORS[r.nextInt(SEPARATORS.length)]));
                case 3 -> b.put(bytes(run(r, "0123456789", 1 + r.nextInt(12))));
                case 4 -> b.put(bytes(hexRun(r, 7 + r.nextInt(3), r.nextBoolean())));
                case 5 -> b.put(bytes(hexRun(r, 1 + r.nextInt(16), r.nextBoolean())));
                case 6 -> b.put(bytes(run(r, LETTERS, 1 + r.nextInt(8))));
                case 7 -> b.put(bytes(run(r, LETTERS + "0123456789", 1 + r.nextInt(10))));
                case 8 -> b.put(bytes(uuid(r)));
                case 9 -> b.put(bytes(nearUuid(r)));
                case 10 -> b.put(bytes(NON_ASCII[r.nextInt(NON_ASCII.length)]));
                case 11 -> b.put((byte) (0x80 + r.nextInt(128))); // a lone byte that is not ASCII: mostly invalid
                case 12 -> b.put(bytes(run(r, "**", 1 + r.nextInt(3))));
                default -> b.put((byte) r.nextInt(128)); // any ASCII byte
            }
        }
        byte[] key = new byte[limit]; // cut at the length drawn, through a character or token
        b.flip().get(key);
        return key;
    }

    private static String run(SplittableRandom r, String alphabet, int n) {
        StringBuilder s = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            s.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return s.toString();
    }

    private static String hexRun(SplittableRandom r, int n, boolean withDigits) {
        return run(r, withDigits ? HEX : "abcdefABCDEF", n);
    }

    private static String uuid(SplittableRandom r) {
        String u = new java.util.UUID(r.nextLong(), r.nextLong()).toString();
        return switch (r.nextInt(3)) {
            case 0 -> u;
            case 1 -> u.toUpperCase(java.util.Locale.ROOT);
            default -> hexRun(r, 8, true) + "-" + hexRun(r, 4, true) + "-" + hexRun(r, 4, true) + "-"
                    + hexRun(r, 4, true) + "-" + hexRun(r, 12, true);
        };
    }

    /** A UUID with one group a character short or long, or one character not hex. */
    private static String nearUuid(SplittableRandom r) {
        int[] groups = {8, 4, 4, 4, 12};
        groups[r.nextInt(5)] += r.nextBoolean() ? 1 : -1;
        StringBuilder s = new StringBuilder();
        for (int g : groups) {
            s.append(s.isEmpty() ? "" : "-").append(hexRun(r, g, true));
        }
        if (r.nextBoolean()) {
            s.setCharAt(r.nextInt(s.length()), 'g');
        }
        return s.toString();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final CharsetDecoder STRICT = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);

    private static boolean isUtf8(byte[] key) {
        try {
            STRICT.reset().decode(ByteBuffer.wrap(key));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static String show(byte[] key) {
        StringBuilder s = new StringBuilder("\"");
        for (byte b : key) {
            s.append(b >= 0x20 && b < 0x7F ? String.valueOf((char) b) : String.format("\\x%02X", b & 0xFF));
        }
        return s.append("\" (").append(key.length).append(" bytes)").toString();
    }

    @Test
    void keysOfOnePatternShareTheHashAndOthersDiffer() {
        KeyFolder folder = new KeyFolder();
        long a = folder.fold(bytes("user:1234:cart:deadbeef01"));
        long b = folder.fold(bytes("user:7:cart:0123abcd"));
        long c = folder.fold(bytes("user:7:cart"));
        assertEquals(a, b);
        assertFalse(a == c);
        assertFalse(folder.patternEquals(bytes("user:*:cart:*")));
        assertTrue(folder.patternEquals(bytes("user:*:cart")));
        assertEquals(new KeyFolder().hash(), folder.fold(new byte[0]), "a new folder holds the empty pattern");
    }

    @Test
    void keysLongerThanTheInlineLengthFoldTheSame() {
        String tail = ":3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b:" + "x".repeat(200) + ":123";
        KeyFolder folder = new KeyFolder();
        long hash = folder.fold(bytes("tenant:42" + tail));
        assertEquals("tenant:*:*:" + "x".repeat(200) + ":*", folder.pattern());
        assertEquals(hash, folder.fold(bytes("tenant:7" + tail)));
        folder.fold(bytes("short:1"));
        assertEquals("short:*", folder.pattern(), "back to the inline scratch");
        folder.fold(bytes("tenant:42" + tail));
        folder.release(); // as a pool does: the long key's copy is let go
        assertEquals(new KeyFolder().hash(), folder.hash(), "the empty key's pattern, as a new folder");
        assertEquals("", folder.pattern());
    }

    /**
     * Edge keys against the oracle: the empty key, keys of digits only, keys whose 2- to 4-byte characters, UUIDs and
     * hex runs cross the {@value KeyFolder#INLINE_LENGTH}-byte inline length at every offset around it, and keys of
     * 65 bytes to 1 MiB made of the generated pieces (with the byte 0xFF, never part of UTF-8, as the invalid byte);
     * each folded by {@link KeyFolder#patternOf} and by a folder that folded longer and shorter keys before.
     */
    @Test
    void edgeKeysFoldAsTheRegularExpressionsDo() {
        List<byte[]> keys = new java.util.ArrayList<>();
        keys.add(new byte[0]);
        keys.add(bytes("0"));
        keys.add(bytes("1234567890".repeat(20)));
        keys.add(bytes("9".repeat(KeyFolder.INLINE_LENGTH + 1)));
        String[] crossing = {"é", "日", "\uD83D\uDE00", "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b", "deadbeef01", "ab12"};
        for (String c : crossing) {
            for (int before = KeyFolder.INLINE_LENGTH - 40; before <= KeyFolder.INLINE_LENGTH + 2; before++) {
                String head = ("k:" + "x".repeat(before)).substring(0, before);
                keys.add(bytes(head + c + ":42"));
                byte[] cut = bytes(head + c); // and cut at the inline length + 1, through the piece
                keys.add(java.util.Arrays.copyOf(cut, Math.min(cut.length, KeyFolder.INLINE_LENGTH + 1)));
            }
        }
        SplittableRandom random = new SplittableRandom(0xED6E_5EEDL);
        for (int size : new int[] {65, 100, 1_000, 65_536, 1 << 20}) {
            ByteBuffer b = ByteBuffer.allocate(size + 64);
            while (b.position() < size) {
                b.put(switch (random.nextInt(8)) {
                    case 0 -> bytes(SEPARATORS[random.nextInt(SEPARATORS.length)]);
                    case 1 -> bytes(run(random, "0123456789", 1 + random.nextInt(12)));
                    case 2 -> bytes(hexRun(random, 7 + random.nextInt(3), random.nextBoolean()));
                    case 3 -> bytes(run(random, LETTERS + "0123456789", 1 + random.nextInt(10)));
                    case 4 -> bytes(uuid(random));
                    case 5 -> bytes(nearUuid(random));
                    case 6 -> bytes(NON_ASCII[random.nextInt(NON_ASCII.length)]);
                    default -> new byte[] {(byte) 0xFF};
                });
            }
            keys.add(java.util.Arrays.copyOf(b.array(), size));
        }
        KeyFolder folder = new KeyFolder();
        for (byte[] key : keys) {
            String expected = RegexFold.text(key);
            String shown = key.length > 80 ? key.length + " bytes" : show(key);
            assertEquals(expected, KeyFolder.patternOf(key), shown);
            folder.fold(key);
            assertEquals(expected, folder.pattern(), shown);
            assertTrue(folder.length() <= key.length, shown);
        }
        assertEquals("", KeyFolder.patternOf(new byte[0]));
        assertEquals("*", KeyFolder.patternOf(bytes("1234567890".repeat(20))), "digits only");
    }

    @Test
    void foldingAKeyOfUpTo64BytesAllocatesNothing() {
        KeyFolder folder = new KeyFolder();
        byte[][] keys = {
            bytes("session:3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b"),
            bytes("user:12345678:cart:deadbeef01:items:v2"),
            bytes("x".repeat(KeyFolder.INLINE_LENGTH)),
        };
        byte[] known = bytes("session:*");
        int[] i = {0};
        long per = Allocations.bytesPerCall(200_000, () -> {
            byte[] key = keys[i[0]++ % keys.length];
            return (int) folder.fold(key) + folder.length() + (folder.patternEquals(known) ? 1 : 0);
        });
        assertEquals(0, per, "heap bytes per fold");
    }

    @Test
    void globsMatchTheWholePatternWithStarsForAnyRun() {
        KeyFolder folder = new KeyFolder();
        String[][] cases = { // key, glob, whether it matches
            {"user:42:profile", "user:*:profile", "true"},
            {"user:abc:profile", "user:*:profile", "true"},
            {"user:42:profile:x", "user:*:profile", "false"}, // the whole pattern
            {"user:", "user:*", "true"}, // a star matches no byte too
            {"", "*", "true"},
            {"", "", "true"},
            {"a", "", "false"},
            {"aXbXbc", "a*bc", "true"}, // backtracks past an earlier b
            {"ab:ab:ac", "*ab:ac", "true"},
            {"ab:ab:ad", "*ab:ac", "false"},
            {"order", "order*x", "false"},
        };
        for (String[] c : cases) {
            folder.fold(bytes(c[0]));
            assertEquals(Boolean.parseBoolean(c[2]), folder.patternMatches(bytes(c[1])), c[0] + " against " + c[1]);
        }
    }

    @Test
    void rangesAreChecked() {
        KeyFolder folder = new KeyFolder();
        assertThrows(IndexOutOfBoundsException.class, () -> folder.fold(new byte[4], 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> folder.fold(new byte[4], -1, 1));
        assertThrows(NullPointerException.class, () -> folder.fold(null));
        assertThrows(NullPointerException.class, () -> KeyFolder.patternOf(null));
    }
}
