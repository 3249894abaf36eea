package dev.zstdjava.cli;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a resume cursor depends on besides the server: the command and the options that decide which keys a run acts
 * on and how, each by its meaning (the caller normalises them: a form's label in any case, a level left out or given
 * as the default). A cursor carries them compactly ({@link #text}): 8 hex digits of a SHA-256 of them all, then one
 * hex digit per entry (the command first, then the options in the caller's order), each of a SHA-256 of that entry
 * alone, so that a cursor resumed under other options is refused naming the option that differs ({@link #check}).
 * Immutable, thread-safe.
 */
final class CursorOptions {
    private static final String COMMAND = "command";
    private final List<String> names = new ArrayList<>();
    private final String text;

    /** @param options each option's name ({@code --match}) and its normalised value, in a fixed order */
    CursorOptions(String command, Map<String, byte[]> options) {
        Map<String, byte[]> all = new LinkedHashMap<>();
        all.put(COMMAND, command.getBytes(StandardCharsets.UTF_8));
        all.putAll(options);
        MessageDigest whole = sha256();
        StringBuilder digits = new StringBuilder();
        all.forEach((name, value) -> {
            names.add(name);
            byte[] entry = entry(name, value);
            whole.update(entry);
            digits.append(HexFormat.of().toHexDigits(sha256().digest(entry)[0]).charAt(0));
        });
        text = HexFormat.of().formatHex(whole.digest(), 0, 4) + digits;
    }

    /** @return the UTF-8 bytes of {@code s}, for an option's value */
    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** @return the options as a cursor carries them after its {@code /}: lower-case hex digits */
    String text() {
        return text;
    }

    /**
     * @param cursor the {@code --cursor} as given, for the message
     * @param given  the options part of it ({@link Keyspace.Position#options})
     * @throws ToolException.BadArguments when {@code given} is not {@link #text}: naming the options whose digit
     *                                    differs (or, when none does, every option, as the cursor cannot tell which)
     */
    void check(String cursor, String given) {
        if (given.equals(text)) {
            return;
        }
        String restart = "; resume with the options of the run that printed it, or run again without --cursor (keys"
                + " rewritten already are then skipped as not that format)";
        String head = "--cursor '" + Names.escape(cursor) + "' was printed by a run with ";
        if (given.length() != text.length()) {
            throw new ToolException.BadArguments(head + "another command or version of the tool (it carries "
                    + (given.length() - 8) + " options, this run " + names.size() + ")" + restart);
        }
        List<String> differ = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (given.charAt(8 + i) != text.charAt(8 + i)) {
                differ.add(names.get(i));
            }
        }
        String which = differ.isEmpty() ? "another value of one of " + and(names) : "another " + and(differ);
        throw new ToolException.BadArguments(head + which + " (a cursor stands for the keys its run's options chose"
                + " before it: under others, keys it passed would never be seen, or be seen twice)" + restart);
    }

    /** @return {@code l} as "a", "a and b", "a, b and c" */
    private static String and(List<String> l) {
        return l.size() == 1 ? l.get(0)
                : String.join(", ", l.subList(0, l.size() - 1)) + " and " + l.get(l.size() - 1);
    }

    /** @return the bytes hashed for one entry: its name, a NUL, its value's length (4 bytes, big-endian), its value */
    private static byte[] entry(String name, byte[] value) {
        byte[] n = utf8(name);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(n.length + 5 + value.length)
                .order(java.nio.ByteOrder.BIG_ENDIAN);
        return b.put(n).put((byte) 0).putInt(value.length).put(value).array();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }
}
