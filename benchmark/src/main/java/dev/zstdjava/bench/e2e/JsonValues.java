package dev.zstdjava.bench.e2e;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts single values out of the corpus JSON files: Jackson's streaming parser finds where each value starts and ends,
 * and the value's own bytes are kept, only the whitespace between tokens removed. Re-writing the values with Jackson's
 * generator instead would change them (escapes such as {@code \u00f1} and {@code <\/a>} written out, exponents
 * spelled differently): about a fifth of the JSON value set would then no longer be the corpus' bytes.
 */
final class JsonValues {
    private static final JsonFactory JSON = JsonFactory.builder().build();

    private JsonValues() {}


    /**
     * @param path member names leading from the top-level object to an array or object; none for the top level
     * @return each element of that array, or each member value of that object, written compact
     */
    static List<byte[]> children(byte[] text, String... path) throws IOException {
        try (JsonParser p = JSON.createParser(text)) {
            p.nextToken();
            for (String name : path) {
                seekMember(p, name);
            }
            JsonToken container = p.currentToken();
            if (container != JsonToken.START_ARRAY && container != JsonToken.START_OBJECT) {
                throw new IOException("not an array or object at " + String.join(".", path) + " but " + container);
            }
            List<byte[]> out = new ArrayList<>();
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY && t != JsonToken.END_OBJECT) {
                if (t == JsonToken.FIELD_NAME) {
                    p.nextToken();
                }
                out.add(cut(text, p));
            }
            return out;
        }
    }

    /** @return the value of member {@code name} of the top-level object, written compact */
    static byte[] member(byte[] text, String name) throws IOException {
        try (JsonParser p = JSON.createParser(text)) {
            p.nextToken();
            seekMember(p, name);
            return cut(text, p);
        }
    }

    /** Moves {@code p} from the start of an object to the value of its member {@code name}. */
    private static void seekMember(JsonParser p, String name) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new IOException("no object to find member '" + name + "' in at " + p.currentLocation());
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            boolean found = p.currentName().equals(name);
            p.nextToken();
            if (found) {
                return;
            }
            p.skipChildren();
        }
        throw new IOException("no member '" + name + "' in the object ending at " + p.currentLocation());
    }

    /** @return the value {@code p} is at, without whitespace; {@code p} is left at its last token */
    private static byte[] cut(byte[] text, JsonParser p) throws IOException {
        int start = (int) p.currentTokenLocation().getByteOffset();
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            p.finishToken();
        }
        p.skipChildren();
        int end = (int) p.currentLocation().getByteOffset();
        return minify(text, start, end);
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
