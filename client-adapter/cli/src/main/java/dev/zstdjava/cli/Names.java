package dev.zstdjava.cli;

import dev.zstdjava.values.KeyFolder;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The one rule by which the tool prints what the server supplies (key names, pattern names, hash field names and
 * members, type names, the server's error messages), and reads key names back from its arguments.
 * <p>
 * A name's bytes are written as {@link KeyFolder#text} writes them (each well-formed UTF-8 character as itself, a
 * backslash as {@code \\}, each other byte as {@code \xHH}), except that every byte of a character that could move
 * the cursor, end a line or reorder the text on a terminal is written as {@code \xHH} too: the control characters
 * (Unicode's Cc: U+0000 to U+001F, U+007F to U+009F, so ESC and the 8-bit CSI), the line and paragraph separators
 * (U+2028, U+2029) and the bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
 * U+2069). So no printed name can rewrite the terminal or forge a line of a report, and the text is one-to-one: the
 * tool takes it back as a key name ({@link #bytesOf}). Free text from the server (an error message) has its control
 * characters written the same way ({@link #escape}). The JSON output holds the same text. Thread-safe, stateless.
 */
final class Names {
    private static final String HEX = "0123456789ABCDEF";

    private Names() {
    }

    /** @return the printed form of the name {@code b}, one-to-one ({@link #bytesOf} reads it back) */
    static String of(byte[] b) {
        return escape(KeyFolder.text(b, 0, b.length));
    }

    /**
     * @return {@code text} with each character that could act on a terminal ({@link Names}) written as {@code \xHH},
     *         one per byte of its UTF-8 form; the rest, backslashes included, as it is
     */
    static String escape(String text) {
        int i = 0;
        while (i < text.length() && !unsafe(text.charAt(i))) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder s = new StringBuilder(text.length() + 16).append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!unsafe(c)) {
                s.append(c);
                continue;
            }
            for (byte b : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
                s.append("\\x").append(HEX.charAt((b >> 4) & 0xF)).append(HEX.charAt(b & 0xF));
            }
        }
        return s.toString();
    }

    /** @return whether {@code c} is written as {@code \xHH}: a control, separator or bidirectional formatting one */
    static boolean unsafe(char c) {
        return c < 0x20 || c >= 0x7F && c <= 0x9F || c == 0x2028 || c == 0x2029 || c == 0x061C || c == 0x200E
                || c == 0x200F || c >= 0x202A && c <= 0x202E || c >= 0x2066 && c <= 0x2069;
    }

    /**
     * Reads a key name (or a hash field name) given on the command line, in the form the tool prints: a backslash
     * starts an escape, {@code \\} for a backslash and {@code \xHH} (two hex digits, either case) for one byte; every
     * other character stands for its UTF-8 bytes.
     *
     * @param what what the text names, for the message ({@code KEY}, {@code --field})
     * @return the bytes
     * @throws ToolException.BadArguments when a backslash starts neither {@code \\} nor {@code \xHH}
     */
    static byte[] bytesOf(String text, String what) {
        return read(text, what, false);
    }

    /** The bytes that mean something in a glob ({@code SCAN MATCH}): written escaped when a {@code \xHH} names one. */
    private static final String GLOB = "*?[]\\-^";

    /**
     * Reads a glob given on the command line ({@code --match}) in the form the tool prints names: {@code \xHH} (two
     * hex digits, either case) is that byte, matched as itself (escaped with a backslash when it is one of the glob's
     * own characters {@code * ? [ ] \ - ^}), so a printed name pasted in matches that name; any other backslash is
     * the glob's escape and reaches the server as it is ({@code \\} a backslash, {@code \*} a star); every other
     * character stands for its UTF-8 bytes.
     *
     * @param what what the text is, for the message ({@code --match})
     * @return the glob's bytes, as {@code SCAN MATCH} takes them
     * @throws ToolException.BadArguments when {@code \x} is not followed by two hex digits (the glob would read a
     *                                    plain {@code x}), or when a backslash ends the text (it escapes nothing)
     */
    static byte[] glob(String text, String what) {
        return read(text, what, true);
    }

    /** @return the bytes of {@code text} read as {@link #bytesOf} ({@code glob} false) or {@link #glob} reads them */
    private static byte[] read(String text, String what, boolean glob) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 8);
        int from = 0; // the start of the run of characters written as themselves
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) != '\\') {
                continue;
            }
            out.writeBytes(text.substring(from, i).getBytes(StandardCharsets.UTF_8));
            char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
            if (next == 'x' && i + 3 < text.length() && hex(text.charAt(i + 2)) >= 0 && hex(text.charAt(i + 3)) >= 0) {
                int b = hex(text.charAt(i + 2)) << 4 | hex(text.charAt(i + 3));
                if (glob && GLOB.indexOf(b) >= 0) {
                    out.write('\\');
                }
                out.write(b);
                i += 3;
            } else if (next == '\\') {
                out.writeBytes(glob ? new byte[] {'\\', '\\'} : new byte[] {'\\'});
                i++;
            } else if (glob && next != 'x' && next != 0) { // the glob's escape; the character after it as itself
                out.write('\\');
            } else {
                throw new ToolException.BadArguments(what + " '" + escape(text) + "': " + (!glob
                        ? "a backslash at character " + (i + 1) + " starts neither \\\\ (a backslash) nor \\xHH (one"
                        + " byte), the forms the tool prints names in; write a backslash of the name as \\\\"
                        : next == 0 ? "the backslash at character " + (i + 1) + " escapes nothing (write a backslash"
                        + " of a name as \\\\)"
                        : "\\x at character " + (i + 1) + " is not followed by two hex digits (\\xHH is one byte, as"
                        + " the tool prints names; for the letter x write x)"));
            }
            from = i + 1;
        }
        out.writeBytes(text.substring(from).getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** @return the value of the ASCII hex digit {@code c}, either case, or -1 */
    private static int hex(char c) {
        return c < 0x80 ? Character.digit(c, 16) : -1;
    }
}
