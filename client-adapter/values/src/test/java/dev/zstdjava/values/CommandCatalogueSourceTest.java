package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command catalogue ({@link CommandPolicy}, {@link CommandRule}) is the one place that decides commands: the
 * client adapters only translate their client's calls into command names and argument words. This test reads the
 * published modules' sources (client-adapter/values, lettuce, spring-boot, cli; not testkit and interop, which are
 * test support that speaks the protocol to test servers) and fails when
 * <ul>
 *   <li>a string literal outside the catalogue and the declared translation tables names a command or an option
 *       of the catalogue as code spells one (upper case, the whole literal: {@code "DELEX"}, {@code "CONFIG|GET"},
 *       {@code "SET ... IFEQ"}; prose such as a help text that mentions {@code SCAN} is not read as a command): a
 *       decision or a translation made where nobody looks for it;</li>
 *   <li>a translation table spells an upper-case word that is neither a command nor an option of the catalogue,
 *       nor one of the argument keywords it is declared to translate: a command outside the catalogue (which the
 *       catalogue would silently send plain as unknown);</li>
 *   <li>an adapter names a client's command constant ({@code CommandType.X} of Lettuce, {@code Protocol.Command.X}
 *       of Jedis) that is not a command of the catalogue.</li>
 * </ul>
 * Comments are not read. The rules are checked on planted violations too, so that the test can fail.
 */
class CommandCatalogueSourceTest {
    /** client-adapter, from the values module's directory (where Maven runs its tests) */
    private static final Path ADAPTERS = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> MODULES = List.of("values", "lettuce", "spring-boot", "cli");

    /** The catalogue: the only files that decide by command name. */
    private static final Set<String> CATALOGUE = Set.of(
            "values/src/main/java/dev/zstdjava/values/CommandPolicy.java",
            "values/src/main/java/dev/zstdjava/values/CommandRule.java");

    /**
     * The translation tables, each with the argument keywords (not commands) it may spell: Spring's operations to
     * the commands they send and the words of their {@code SetSpec}, {@code DeleteSpec} and {@code SortQuery}.
     */
    private static final Map<String, Set<String>> TRANSLATIONS = Map.of(
            "values/src/main/java/dev/zstdjava/values/spring/SpringCommands.java",
            Set.of("NX", "XX", "PX", "KEEPTTL", "BY", "LIMIT", "ALPHA", "STORE"));

    /** a command as code spells it: {@code "DELEX"}, {@code "CONFIG|GET"}, {@code "SET ... IFEQ"} (not prose) */
    private static final Pattern COMMAND_LIKE = Pattern.compile("[A-Z][A-Z0-9_|-]*( \\.\\.\\. [A-Z]+)?");
    private static final Pattern UPPER_WORD = Pattern.compile("[A-Z][A-Z0-9_]*(-[A-Z]+)?");
    private static final Pattern CLIENT_COMMAND = Pattern.compile(
            "\\b(CommandType|Protocol\\s*\\.\\s*Command)\\s*\\.\\s*([A-Z][A-Z0-9_]*)\\b");

    @Test
    void onlyTheCatalogueDecidesAndAdaptersNameOnlyItsCommands() {
        Map<String, String> sources = sources();
        assertTrue(sources.keySet().containsAll(CATALOGUE), "the catalogue's files moved: " + CATALOGUE);
        assertTrue(sources.keySet().containsAll(TRANSLATIONS.keySet()), "a translation table moved: "
                + TRANSLATIONS.keySet());
        assertTrue(sources.keySet().stream().anyMatch(f -> f.startsWith("lettuce/")), "no Lettuce sources read");
        assertEquals(List.of(), violations(sources));
    }

    @Test
    void aPlantedViolationFails() {
        String gate = "class CommandGate {\n"
                + "  // \"DELEX\" in a comment is fine\n"
                + "  /* so is \"SET ... IFEQ\" */\n"
                + "  int action(String name) {\n"
                + "    return switch (name) { case \"DELEX\" -> 4; default -> 0; };\n"
                + "  }\n"
                + "  Object refused = \"SET ... IFEQ\";\n"
                + "  char quote = '\"'; String message = \"a \\\"GET\\\" is fine inside\";\n"
                + "  Object t = CommandType.SET; Object u = CommandType.NOT_A_COMMAND;\n"
                + "}\n";
        String spring = "class SpringCommands {\n"
                + "  String c = \"DELIFEQ2\"; String d = \"DELEX\"; String e = \"NX\"; String f = \"IFEQ\";\n"
                + "}\n";
        List<String> found = violations(Map.of(
                "lettuce/src/main/java/dev/zstdjava/lettuce/CommandGate.java", gate,
                "values/src/main/java/dev/zstdjava/values/spring/SpringCommands.java", spring,
                "values/src/main/java/dev/zstdjava/values/CommandPolicy.java", "class CommandPolicy { String s = \"DELEX\"; }"));
        assertEquals(List.of(
                "lettuce/src/main/java/dev/zstdjava/lettuce/CommandGate.java:5: \"DELEX\" names a command of the"
                        + " catalogue outside it",
                "lettuce/src/main/java/dev/zstdjava/lettuce/CommandGate.java:7: \"SET ... IFEQ\" names a command of"
                        + " the catalogue outside it",
                "lettuce/src/main/java/dev/zstdjava/lettuce/CommandGate.java:9: CommandType.NOT_A_COMMAND is not a"
                        + " command of the catalogue",
                "values/src/main/java/dev/zstdjava/values/spring/SpringCommands.java:2: \"DELIFEQ2\" is neither a"
                        + " command nor an option of the catalogue, nor a declared argument keyword"), found);
    }

    /** The violations in {@code sources} (path relative to client-adapter -> text), as "path:line: what". */
    static List<String> violations(Map<String, String> sources) {
        CommandPolicy policy = CommandPolicy.glide();
        Set<String> commands = new TreeSet<>(policy.knownCommands().keySet());
        commands.addAll(CommandPolicy.withHashValues().knownCommands().keySet());
        Set<String> options = new TreeSet<>();
        for (CommandPolicy p : List.of(CommandPolicy.glide(), CommandPolicy.withHashValues())) {
            p.knownCommands().values().forEach(r -> options.addAll(r.refusedOptions()));
        }
        List<String> out = new ArrayList<>();
        new TreeMap<>(sources).forEach((file, text) -> {
            if (CATALOGUE.contains(file)) {
                return;
            }
            Set<String> keywords = TRANSLATIONS.get(file);
            Source s = Source.read(text);
            for (Literal l : s.literals) {
                if (keywords == null) {
                    String first = l.text.strip().split("[\\s|]", 2)[0];
                    if (COMMAND_LIKE.matcher(l.text.strip()).matches()
                            && (commands.contains(first) || options.contains(first))) {
                        out.add(file + ":" + l.line + ": \"" + l.text + "\" names a command of the catalogue outside it");
                    }
                } else if (UPPER_WORD.matcher(l.text).matches() && !commands.contains(l.text)
                        && !options.contains(l.text) && !keywords.contains(l.text)) {
                    out.add(file + ":" + l.line + ": \"" + l.text + "\" is neither a command nor an option of the"
                            + " catalogue, nor a declared argument keyword");
                }
            }
            Matcher m = CLIENT_COMMAND.matcher(s.code);
            while (m.find()) {
                if (!commands.contains(m.group(2))) {
                    out.add(file + ":" + s.lineOf(m.start()) + ": " + m.group(1).replaceAll("\\s", "") + "."
                            + m.group(2) + " is not a command of the catalogue");
                }
            }
        });
        return out;
    }

    private static Map<String, String> sources() {
        Map<String, String> out = new TreeMap<>();
        for (String module : MODULES) {
            Path root = ADAPTERS.resolve(module).resolve("src/main/java");
            assertTrue(Files.isDirectory(root), root + " is missing");
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                    try {
                        out.put(ADAPTERS.relativize(f).toString().replace('\\', '/'), Files.readString(f));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    private record Literal(String text, int line) {}

    /** A Java source split into its string literals (text blocks included) and its code without comments. */
    private record Source(List<Literal> literals, String code) {
        static Source read(String text) {
            List<Literal> literals = new ArrayList<>();
            StringBuilder code = new StringBuilder(text.length());
            int n = text.length();
            int i = 0;
            while (i < n) {
                char c = text.charAt(i);
                if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                    int end = text.indexOf('\n', i);
                    i = end < 0 ? n : end;
                } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                    int end = text.indexOf("*/", i + 2);
                    int stop = end < 0 ? n : end + 2;
                    keepNewlines(text, i, stop, code);
                    i = stop;
                } else if (c == '"' && text.startsWith("\"\"\"", i)) {
                    int end = text.indexOf("\"\"\"", i + 3);
                    int stop = end < 0 ? n : end + 3;
                    literals.add(new Literal(text.substring(text.indexOf('\n', i) + 1, Math.max(i + 3, stop - 3))
                            .strip(), lineAt(text, i)));
                    keepNewlines(text, i, stop, code);
                    code.append("\"\"");
                    i = stop;
                } else if (c == '"' || c == '\'') {
                    StringBuilder value = new StringBuilder();
                    int j = i + 1;
                    while (j < n && text.charAt(j) != c) {
                        if (text.charAt(j) == '\\' && j + 1 < n) {
                            j++;
                        }
                        value.append(text.charAt(j));
                        j++;
                    }
                    if (c == '"') {
                        literals.add(new Literal(value.toString(), lineAt(text, i)));
                    }
                    code.append(c).append(c);
                    i = j + 1;
                } else {
                    code.append(c);
                    i++;
                }
            }
            return new Source(literals, code.toString());
        }

        private static void keepNewlines(String text, int from, int to, StringBuilder code) {
            for (int k = from; k < to; k++) {
                if (text.charAt(k) == '\n') {
                    code.append('\n');
                }
            }
        }

        private static int lineAt(String text, int index) {
            int line = 1;
            for (int k = 0; k < index; k++) {
                if (text.charAt(k) == '\n') {
                    line++;
                }
            }
            return line;
        }

        int lineOf(int codeIndex) {
            return lineAt(code, codeIndex);
        }
    }
}
