package dev.zstdjava.bench.e2e;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough JSON to cut single API objects out of the corpus files: a parser that records where each value
 * starts and ends in the UTF-8 bytes (objects keep their members, arrays their elements), and {@link #minify} to
 * drop the whitespace between tokens. Not a general JSON library: it trusts its (well-formed) input.
 */
final class JsonSpans {
    /** One JSON value: {@code bytes[start, end)}; members for objects, elements for arrays, empty otherwise. */
    record Node(byte[] bytes, int start, int end, Map<String, Node> members, List<Node> elements) {
        Node get(String key) {
            Node n = members.get(key);
            if (n == null) {
                throw new IllegalArgumentException("no member '" + key + "' in the JSON object at byte " + start);
            }
            return n;
        }

        boolean isObject() {
            return bytes[start] == '{';
        }

        /** @return this value's text without whitespace between tokens */
        byte[] compact() {
            return minify(bytes, start, end);
        }
    }

    private final byte[] b;
    private int pos;

    private JsonSpans(byte[] bytes) {
        this.b = bytes;
    }

    static Node parse(byte[] bytes) {
        JsonSpans p = new JsonSpans(bytes);
        Node n = p.value();
        p.ws();
        if (p.pos != bytes.length) {
            throw new IllegalArgumentException("trailing bytes after the JSON value at byte " + p.pos);
        }
        return n;
    }

    private void ws() {
        while (pos < b.length && (b[pos] == ' ' || b[pos] == '\n' || b[pos] == '\r' || b[pos] == '\t')) {
            pos++;
        }
    }

    private Node value() {
        ws();
        if (pos >= b.length) {
            throw new IllegalArgumentException("JSON ends early");
        }
        int start = pos;
        switch (b[pos]) {
            case '{' -> {
                pos++;
                Map<String, Node> members = new LinkedHashMap<>();
                ws();
                if (b[pos] == '}') {
                    pos++;
                    return new Node(b, start, pos, members, List.of());
                }
                while (true) {
                    ws();
                    int ks = pos;
                    skipString();
                    String key = new String(b, ks + 1, pos - ks - 2, java.nio.charset.StandardCharsets.UTF_8);
                    ws();
                    expect(':');
                    members.put(key, value());
                    ws();
                    if (b[pos] == ',') {
                        pos++;
                    } else {
                        expect('}');
                        return new Node(b, start, pos, members, List.of());
                    }
                }
            }
            case '[' -> {
                pos++;
                List<Node> elements = new ArrayList<>();
                ws();
                if (b[pos] == ']') {
                    pos++;
                    return new Node(b, start, pos, Map.of(), elements);
                }
                while (true) {
                    elements.add(value());
                    ws();
                    if (b[pos] == ',') {
                        pos++;
                    } else {
                        expect(']');
                        return new Node(b, start, pos, Map.of(), elements);
                    }
                }
            }
            case '"' -> {
                skipString();
                return new Node(b, start, pos, Map.of(), List.of());
            }
            default -> {
                while (pos < b.length && "{}[],: \n\r\t\"".indexOf(b[pos]) < 0) {
                    pos++;
                }
                if (pos == start) {
                    throw new IllegalArgumentException("unexpected '" + (char) b[pos] + "' at byte " + pos);
                }
                return new Node(b, start, pos, Map.of(), List.of());
            }
        }
    }

    private void skipString() {
        expect('"');
        while (b[pos] != '"') {
            pos += b[pos] == '\\' ? 2 : 1;
        }
        pos++;
    }

    private void expect(char c) {
        if (pos >= b.length || b[pos] != c) {
            throw new IllegalArgumentException("expected '" + c + "' at byte " + pos);
        }
        pos++;
    }

    /** @return {@code bytes[start, end)} without the whitespace outside strings */
    static byte[] minify(byte[] bytes, int start, int end) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(end - start);
        boolean inString = false;
        for (int i = start; i < end; i++) {
            byte c = bytes[i];
            if (inString) {
                out.write(c);
                if (c == '\\') {
                    out.write(bytes[++i]);
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
                out.write(c);
            } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                out.write(c);
            }
        }
        return out.toByteArray();
    }
}
