package dev.zstdjava.spring.boot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The property table of docs/spring-boot.md, found above the working directory (a module's, or a Boot line's). */
final class DocumentedProperties {
    private DocumentedProperties() {
    }

    /** @return each documented property's full name and its documented default, in the table's order */
    static Map<String, String> read() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docs/spring-boot.md"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("docs/spring-boot.md above " + Path.of("").toAbsolutePath()).isNotNull();
        String doc = Files.readString(dir.resolve("docs/spring-boot.md"));
        String table = doc.substring(doc.indexOf("| property | default | what it does |"));
        table = table.substring(0, table.indexOf("\n\n"));
        Map<String, String> documented = new LinkedHashMap<>();
        Matcher row = Pattern.compile("(?m)^\\| `([a-z.-]+)` \\| ([^|]+) \\|").matcher(table);
        while (row.find()) {
            assertThat(documented.put(RedisCompressionProperties.PREFIX + "." + row.group(1), row.group(2).trim()))
                    .as(row.group(1) + " documented once").isNull();
        }
        return documented;
    }
}
