package dev.zstdjava;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds multi-byte reads and writes in main sources that do not name their byte order, so a stored format cannot
 * silently change on a big-endian machine (s390x):
 * <ul>
 *   <li>a {@code ValueLayout.JAVA_SHORT/CHAR/INT/LONG/FLOAT/DOUBLE[_UNALIGNED]} used without {@code .withOrder(} in
 *       the same statement (the line and the next) reads in native order;</li>
 *   <li>a {@code ByteBuffer}-style {@code getInt(}/{@code putLong(}... in a file that never calls {@code .order(}
 *       reads big-endian by default, which is fine only when meant: the file must say so by setting it.</li>
 * </ul>
 * Layouts in a {@code FunctionDescriptor} are C types of a call, not accesses, and are not reported. Accesses to
 * native structs and C arguments are native order by definition; they are allowed by (file, text on the
 * line) with the reason. Shift-and-mask code names its order by construction and is not scanned.
 *
 * <p>Stateless; not a test itself (each module's test passes its source folder and allow-list).
 */
public final class ByteOrderScan {

    private static final Pattern LAYOUT = Pattern.compile("ValueLayout\\.JAVA_(SHORT|CHAR|INT|LONG|FLOAT|DOUBLE)\\b"
            + "|ValueLayout\\.JAVA_(SHORT|CHAR|INT|LONG|FLOAT|DOUBLE)_UNALIGNED\\b");
    private static final Pattern BUFFER = Pattern.compile("(?<!\\bLong)\\.(get|put)(Short|Char|Int|Long|Float|Double)\\(");

    /** An allowed native-order access: in {@code file} (name only), a line containing {@code text}. */
    public record Allowed(String file, String text, String reason) {}

    private ByteOrderScan() {}

    /**
     * Scans every {@code .java} file under {@code root}.
     *
     * @return one line per access without a byte order that no {@code allowed} entry covers ({@code File.java:line:
     *         code}); empty when everything names its order
     */
    public static List<String> findings(Path root, List<Allowed> allowed, Map<String, Integer> used) {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                String name = f.getFileName().toString();
                boolean setsOrder = lines.stream().anyMatch(l -> l.contains(".order("));
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).strip();
                    if (line.startsWith("*") || line.startsWith("//") || line.startsWith("/*")) {
                        continue;
                    }
                    String statement = line + (i + 1 < lines.size() ? " " + lines.get(i + 1).strip() : "");
                    boolean layout = LAYOUT.matcher(line).find() && !statement.contains(".withOrder(")
                            && !line.contains("FunctionDescriptor."); // a C type of a function, not an access
                    boolean buffer = BUFFER.matcher(line).find() && !setsOrder;
                    if (!layout && !buffer) {
                        continue;
                    }
                    Allowed a = allowed.stream().filter(x -> x.file().equals(name) && line.contains(x.text()))
                            .findFirst().orElse(null);
                    if (a == null) {
                        out.add(name + ":" + (i + 1) + ": " + line);
                    } else {
                        used.merge(a.file() + ": " + a.text(), 1, Integer::sum);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
