package dev.zstdjava.values;

import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Folds a key into its pattern: UUIDs, then whole hex runs of 8 or more with a digit, then digit runs become {@code *};
 * a run of {@code *} becomes one. Only ASCII letters and digits are matched; every other byte is kept and separates.
 *
 * <p>In full: a UUID is 8-4-4-4-12 hex characters of either case, wherever it starts; a hex run is a whole run of
 * ASCII letters and digits that are all hex, so {@code user:1234:profile} and {@code user:77:profile} are both
 * {@code user:*:profile}, {@code blob:deadbeef01:v2} is {@code blob:*:v*} and {@code word:deadbeefcafe} stays as it
 * is. The key is folded as bytes: a byte of a multi-byte UTF-8 character or an invalid byte is never part of a token
 * and is kept, so the pattern is what the same rules give on the key's characters, each invalid byte a separator.
 * This is the fold {@code zstd-values advise} groups keys by.
 *
 * <p><b>A pattern's text</b> ({@link #pattern()}, {@link #patternOf(byte[])}, {@link #text(byte[], int, int)}: the
 * name a pattern has in decisions, lineages and tools) is one-to-one with its bytes: each well-formed UTF-8 character
 * is itself, a backslash is written {@code \\} and each byte that is not part of a well-formed character is written
 * {@code \xHH} (two upper-case hex digits), so no two patterns have the same text and a pattern that is valid UTF-8
 * with no backslash reads as its UTF-8 decoding.
 *
 * <p>Use: {@link #fold(byte[], int, int)} folds into this object's scratch and returns the pattern's 64-bit
 * {@linkplain #hash() hash}; {@link #patternEquals(byte[])} compares the pattern with a known one, and
 * {@link #pattern()} or {@link #patternBytes()} make a copy only when it is needed (a pattern seen for the first
 * time). The hash is of the pattern's bytes only, the same in every JVM, but not a stored format.
 *
 * <p><b>Thread safety:</b> not thread-safe: one folder per thread (or per caller that owns its thread), as the
 * folded pattern stays in the folder until the next fold. {@link #patternOf(byte[])} is stateless and thread-safe.
 *
 * <p><b>Allocation:</b> {@code fold}, {@link #hash()}, {@link #length()} and {@link #patternEquals(byte[])} allocate
 * nothing for keys of at most {@value #INLINE_LENGTH} bytes; a longer key is folded into a new array of its length,
 * kept until the next fold (or until a pool that keeps the folder releases it). {@link #pattern()},
 * {@link #patternBytes()} and {@link #patternOf(byte[])} allocate the result.
 */
public final class KeyFolder {
    /** The longest key, in bytes, folded without allocating. */
    public static final int INLINE_LENGTH = 64;

    private static final int UUID_LENGTH = 36;
    // the class of each byte value: an ASCII digit, an ASCII hex letter, another ASCII letter, or 0 (a separator)
    private static final byte DIGIT = 1;
    private static final byte HEX_LETTER = 2;
    private static final byte LETTER = 4;
    private static final byte[] CLASS = new byte[256];
    private static final byte STAR = '*';
    private static final String HEX_DIGITS = "0123456789ABCDEF";
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long K1 = 0x9E3779B97F4A7C15L;
    private static final long K2 = 0xC2B2AE3D27D4EB4FL;
    private static final long EMPTY_HASH = hashOf(new byte[0], 0);

    static {
        for (int c = '0'; c <= '9'; c++) {
            CLASS[c] = DIGIT;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            CLASS[c] = c <= 'f' ? HEX_LETTER : LETTER;
            CLASS[c - 'a' + 'A'] = CLASS[c];
        }
    }

    private final byte[] inline = new byte[INLINE_LENGTH];
    private byte[] folded = inline;
    private int length;
    private long hash = EMPTY_HASH;

    /** A folder holding the pattern of the empty key until its first fold. */
    public KeyFolder() {
    }

    /**
     * Folds a whole key; as {@link #fold(byte[], int, int)}.
     *
     * @throws NullPointerException when {@code key} is null
     */
    public long fold(byte[] key) {
        return fold(key, 0, key.length);
    }

    /**
     * Folds {@code key[offset, offset + length)} into this folder, replacing the pattern held before, and returns the
     * pattern's hash. The key is only read.
     *
     * @return the 64-bit hash of the pattern, as {@link #hash()}
     * @throws NullPointerException      when {@code key} is null
     * @throws IndexOutOfBoundsException when the range is not inside {@code key}
     */
    public long fold(byte[] key, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, key.length);
        byte[] out = length <= INLINE_LENGTH ? inline : new byte[length];
        this.folded = out;
        this.length = foldInto(key, offset, offset + length, out);
        this.hash = hashOf(out, this.length);
        return hash;
    }

    /**
     * Lets go of the array a key longer than {@value #INLINE_LENGTH} bytes was folded into, so that a folder kept for
     * later (a pool's) does not hold on to the pattern of a long key: the folder then holds the empty key's pattern,
     * as a new one does. Allocates nothing.
     */
    void release() {
        if (folded != inline) {
            folded = inline;
            length = 0;
            hash = EMPTY_HASH;
        }
    }

    /** The hash of the pattern last folded (every key of one pattern has the same hash). */
    public long hash() {
        return hash;
    }

    /** The length in bytes of the pattern last folded: at most the key's length. */
    public int length() {
        return length;
    }

    /**
     * Whether the pattern last folded is exactly {@code pattern}'s bytes. Allocates nothing.
     *
     * @throws NullPointerException when {@code pattern} is null
     */
    public boolean patternEquals(byte[] pattern) {
        return Arrays.equals(folded, 0, length, pattern, 0, pattern.length);
    }

    /**
     * Whether the pattern last folded matches {@code glob}, in which each {@code *} matches any run of bytes (none
     * included) and every other byte itself; a {@code *} of the pattern is an ordinary byte there. Allocates nothing.
     */
    boolean patternMatches(byte[] glob) {
        byte[] text = folded;
        int g = 0;
        int t = 0;
        int star = -1; // the glob's last star, and where its match in the text ends for now
        int starEnd = 0;
        while (t < length) {
            if (g < glob.length && glob[g] == STAR) {
                star = g++;
                starEnd = t;
            } else if (g < glob.length && glob[g] == text[t]) {
                g++;
                t++;
            } else if (star >= 0) {
                g = star + 1;
                t = ++starEnd;
            } else {
                return false;
            }
        }
        while (g < glob.length && glob[g] == STAR) {
            g++;
        }
        return g == glob.length;
    }

    /** A copy of the pattern last folded. */
    public byte[] patternBytes() {
        return Arrays.copyOf(folded, length);
    }

    /** The {@linkplain #text(byte[], int, int) text} of the pattern last folded. */
    public String pattern() {
        return text(folded, 0, length);
    }

    /**
     * The {@linkplain #text(byte[], int, int) text} of {@code key}'s pattern, in one call: for tools, not the write
     * path.
     *
     * @throws NullPointerException when {@code key} is null
     */
    public static String patternOf(byte[] key) {
        byte[] out = new byte[key.length];
        return text(out, 0, foldInto(key, 0, key.length, out));
    }

    /**
     * The text of the bytes {@code b[from, to)}, one-to-one (no two byte strings have the same text): each well-formed
     * UTF-8 character as itself, a backslash as {@code \\}, and each other byte (one that is not part of a
     * well-formed character: a stray continuation byte, a truncated or overlong sequence, a surrogate's or one beyond
     * U+10FFFF) as {@code \xHH}, two upper-case hex digits. The one rendering of a pattern's name.
     *
     * @throws NullPointerException      when {@code b} is null
     * @throws IndexOutOfBoundsException when the range is not inside {@code b}
     */
    public static String text(byte[] b, int from, int to) {
        Objects.checkFromToIndex(from, to, b.length);
        int i = from;
        while (i < to && b[i] >= 0 && b[i] != '\\') {
            i++;
        }
        if (i == to) { // ASCII with no backslash: the common case
            return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
        }
        StringBuilder s = new StringBuilder(to - from + 16).append(new String(b, from, i - from,
                StandardCharsets.ISO_8859_1));
        while (i < to) {
            int c = b[i] & 0xFF;
            int n = c < 0x80 ? 1 : wellFormed(b, i, to);
            if (c == '\\') {
                s.append("\\\\");
            } else if (n == 1) {
                s.append((char) c);
            } else if (n == 0) {
                s.append("\\x").append(HEX_DIGITS.charAt(c >> 4)).append(HEX_DIGITS.charAt(c & 0xF));
                n = 1;
            } else {
                int cp = c & (0xFF >> (n + 1));
                for (int k = 1; k < n; k++) {
                    cp = cp << 6 | (b[i + k] & 0x3F);
                }
                s.appendCodePoint(cp);
            }
            i += n;
        }
        return s.toString();
    }

    /**
     * The bytes whose {@linkplain #text(byte[], int, int) text} is {@code text}: the inverse of {@code text}, checked
     * against it. For a name that is a pattern's text, its bytes; null for a string that is no bytes' text (a
     * backslash that starts neither {@code \\} nor {@code \xHH} of a byte {@code text} writes so, an unpaired
     * surrogate). Not for the write path: allocates.
     *
     * @throws NullPointerException when {@code text} is null
     */
    static byte[] bytesOf(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 8);
        int n = text.length();
        int from = 0; // the start of the run of characters written as themselves
        for (int i = 0; i < n; i++) {
            if (text.charAt(i) != '\\') {
                continue;
            }
            out.writeBytes(text.substring(from, i).getBytes(StandardCharsets.UTF_8));
            if (i + 1 < n && text.charAt(i + 1) == '\\') {
                out.write('\\');
                i++;
            } else if (i + 3 < n && text.charAt(i + 1) == 'x' && HEX_DIGITS.indexOf(text.charAt(i + 2)) >= 0
                    && HEX_DIGITS.indexOf(text.charAt(i + 3)) >= 0) {
                out.write(HEX_DIGITS.indexOf(text.charAt(i + 2)) << 4 | HEX_DIGITS.indexOf(text.charAt(i + 3)));
                i += 3;
            } else {
                return null;
            }
            from = i + 1;
        }
        out.writeBytes(text.substring(from).getBytes(StandardCharsets.UTF_8));
        byte[] b = out.toByteArray();
        return text(b, 0, b.length).equals(text) ? b : null; // not for \x41, \xC3\xA9 or an unpaired surrogate
    }

    /**
     * The length of the well-formed UTF-8 sequence of 2 to 4 bytes that starts at {@code b[i]} and ends by {@code to}
     * (the Unicode standard's table of well-formed byte sequences), or 0 when none does.
     */
    private static int wellFormed(byte[] b, int i, int to) {
        int c = b[i] & 0xFF;
        int n;
        int lo = 0x80; // the range of the second byte; the others are 0x80 to 0xBF
        int hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            lo = c == 0xE0 ? 0xA0 : lo; // not overlong
            hi = c == 0xED ? 0x9F : hi; // not a surrogate
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            lo = c == 0xF0 ? 0x90 : lo; // not overlong
            hi = c == 0xF4 ? 0x8F : hi; // not beyond U+10FFFF
        } else {
            return 0;
        }
        if (to - i < n) {
            return 0;
        }
        for (int k = 1; k < n; k++) {
            int d = b[i + k] & 0xFF;
            if (d < (k == 1 ? lo : 0x80) || d > (k == 1 ? hi : 0xBF)) {
                return 0;
            }
        }
        return n;
    }

    /**
     * The fold, in one pass: the UUIDs are found ahead of the scan (they match anywhere, before the other rules), the
     * text between them is cut into runs of ASCII letters and digits and single other bytes, and a {@code *} is never
     * written after a {@code *}. Returns the pattern's length, at most {@code end - from}.
     */
    private static int foldInto(byte[] key, int from, int end, byte[] out) {
        int o = 0;
        int i = from;
        int uuid = nextUuid(key, i, end);
        while (i < end) {
            if (i == uuid) {
                o = star(out, o);
                i += UUID_LENGTH;
                uuid = nextUuid(key, i, end);
                continue;
            }
            byte b = key[i];
            int c = CLASS[b & 0xFF];
            if (c == 0) {
                if (b == STAR) {
                    o = star(out, o);
                } else {
                    out[o++] = b;
                }
                i++;
                continue;
            }
            // a run of letters and digits, which a UUID found ahead also ends (its star is a separator)
            int j = i + 1;
            int seen = c;
            while (j < uuid && (c = CLASS[key[j] & 0xFF]) != 0) {
                seen |= c;
                j++;
            }
            if ((seen & DIGIT) == 0) {
                System.arraycopy(key, i, out, o, j - i);
                o += j - i;
            } else if (j - i >= 8 && (seen & LETTER) == 0) {
                o = star(out, o);
            } else {
                for (int k = i; k < j; k++) {
                    byte d = key[k];
                    if (CLASS[d & 0xFF] == DIGIT) {
                        o = star(out, o);
                    } else {
                        out[o++] = d;
                    }
                }
            }
            i = j;
        }
        return o;
    }

    private static int star(byte[] out, int o) {
        if (o == 0 || out[o - 1] != STAR) {
            out[o++] = STAR;
        }
        return o;
    }

    /** The first position at or after {@code from} where a UUID starts, or {@code end} when none does. */
    private static int nextUuid(byte[] key, int from, int end) {
        for (int p = from, last = end - UUID_LENGTH; p <= last; p++) {
            if (key[p + 8] == '-' && key[p + 13] == '-' && key[p + 18] == '-' && key[p + 23] == '-'
                    && hexRun(key, p, 8) && hexRun(key, p + 9, 4) && hexRun(key, p + 14, 4)
                    && hexRun(key, p + 19, 4) && hexRun(key, p + 24, 12)) {
                return p;
            }
        }
        return end;
    }

    private static boolean hexRun(byte[] key, int from, int n) {
        for (int k = from; k < from + n; k++) {
            if ((CLASS[key[k] & 0xFF] & (DIGIT | HEX_LETTER)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** A 64-bit hash of {@code b[0, n)}: eight bytes a step, then a final mix. */
    private static long hashOf(byte[] b, int n) {
        long h = n * K1;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            h = Long.rotateLeft(h ^ (long) LONGS.get(b, i) * K2, 29) * K1;
        }
        long tail = 0;
        for (int k = n - 1; k >= i; k--) {
            tail = tail << 8 | (b[k] & 0xFF);
        }
        h = Long.rotateLeft(h ^ tail * K2, 29) * K1;
        h ^= h >>> 33;
        h *= K2;
        return h ^ h >>> 29;
    }
}
