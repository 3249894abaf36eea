package dev.zstdjava.cli;

import dev.zstdjava.values.StoredForm;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The stored forms are described once, in the values module's catalogue ({@link StoredForm}): this tool and the
 * client adapters name none of them themselves. Scans the Java sources of the tool and of every adapter (comments left
 * out) for what would describe a form again: a form's label in a string literal (taken from the catalogue, so a form
 * added later is covered), the header's magic bytes, a read-only form's selector constant, or the frame read at an
 * offset after the header.
 */
class StoredFormNamesTest {
    /** The sources that must go through the catalogue, relative to client-adapter/. */
    static final List<String> SCANNED = List.of("cli/src/main/java", "lettuce/src/main/java",
            "spring-boot/src/main/java", "values/src/main/java/dev/zstdjava/values/spring",
            "values/src/main/java/dev/zstdjava/values/redisson", "values/src/main/java/dev/zstdjava/values/jedis",
            "values/src/main/java/dev/zstdjava/values/micrometer");

    static final Pattern COMMENTS = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");
    static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\\\n]|\\\\.)*\"");

    /** Code that describes a form without the catalogue, with what it is. */
    static final List<Pattern> FORBIDDEN = List.of(
            // the shared header's magic bytes, compared one by one or written as an array
            Pattern.compile("(?s)==\\s*0x0?0\\b.{0,120}?==\\s*0x0?1\\b.{0,120}?==\\s*0x0?2\\b"),
            Pattern.compile("\\{\\s*0\\s*,\\s*1\\s*,\\s*2\\s*,"),
            // a read-only form's selector constant, by name or in a switch over the forms
            Pattern.compile("\\bLegacyFormat\\s*\\.\\s*[A-Z][A-Z0-9_]+\\b"),
            Pattern.compile("\\bcase\\s+(?:LETTUCE|REDISSON|GLIDE)_[A-Z0-9_]*"),
            // the zstd frame read at the header's offset (the catalogue's StoredForm.dictionaryId reads it)
            Pattern.compile("\\bZstdFrame\\s*\\.\\s*dictionaryId\\b"));

    static Path root() {
        Path here = Path.of("").toAbsolutePath();
        return here.getFileName().toString().equals("cli") ? here.getParent() : here.resolve("client-adapter");
    }

    /** @return one line per place in {@code code} (comments already left out) that names a stored form */
    static List<String> findings(String file, String code) {
        List<String> found = new ArrayList<>();
        Matcher s = STRING.matcher(code);
        while (s.find()) {
            String literal = s.group();
            for (StoredForm f : StoredForm.all()) {
                boolean named = f == StoredForm.PLAIN ? literal.equals("\"plain\"")
                        : Pattern.compile("(?<![\\w-])" + Pattern.quote(f.label()) + "(?![\\w-])").matcher(literal).find();
                if (named) {
                    found.add(file + ": the label of " + f.label() + " in " + literal);
                }
            }
        }
        for (Pattern p : FORBIDDEN) {
            Matcher m = p.matcher(code);
            while (m.find()) {
                found.add(file + ": " + m.group().replaceAll("\\s+", " "));
            }
        }
        return found;
    }

    @Test
    void theToolAndTheAdaptersNameNoStoredFormOutsideTheCatalogue() throws IOException {
        List<String> found = new ArrayList<>();
        int files = 0;
        for (String dir : SCANNED) {
            Path d = root().resolve(dir);
            assertTrue(Files.isDirectory(d), d + " is missing: the scan would see nothing");
            try (Stream<Path> walk = Files.walk(d)) {
                for (Path p : walk.filter(f -> f.toString().endsWith(".java")).toList()) {
                    files++;
                    String code = COMMENTS.matcher(Files.readString(p)).replaceAll(" ");
                    found.addAll(findings(root().relativize(p).toString(), code));
                }
            }
        }
        assertTrue(files > 20, "scanned " + files + " files");
        assertEquals(List.of(), found, "stored forms named outside dev.zstdjava.values.StoredForm");
    }

    @Test
    void theScanFindsWhatTheToolOnceSpelledItself() {
        // the shapes this tool and the Redisson adapter used before the catalogue
        String old = """
                enum Kind { GLIDE_ZSTD("glide-zstd"), REDISSON_LZ4("redisson-lz4") }
                static Kind of(LegacyFormat f) { return switch (f) { case LETTUCE_GZIP -> null; default -> null; }; }
                long dict = ZstdFrame.dictionaryId(stored, 5, stored.length - 5);
                return b.getByte(i) == 0x00 && b.getByte(i + 1) == 0x01 && b.getByte(i + 2) == 0x02;
                Set<LegacyFormat> s = EnumSet.of(LegacyFormat.REDISSON_ZSTD);
                if (s.equals("plain")) { }
                """;
        List<String> found = findings("Old.java", old);
        assertEquals(7, found.size(), String.join("\n", found));
        assertEquals(List.of(), findings("Fine.java", "String s = \"redisson-zstd-caller\" + \"plain text\";"
                + " StoredForm f = StoredForm.forLabel(label); Set<LegacyFormat> all = EnumSet.allOf(LegacyFormat.class);"),
                "names that only contain a label, and the catalogue's own API, are fine");
    }
}
