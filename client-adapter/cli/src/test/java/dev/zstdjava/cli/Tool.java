package dev.zstdjava.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the tool in this JVM, as {@code java -jar zstd-values.jar ARGS} would, and keeps what it printed. */
record Tool(int code, String out, String err) {
    static Tool run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Tool(code, out.toString(), err.toString());
    }

    /** @return stdout parsed as JSON; fails the test with the tool's output when it is not */
    JsonNode json() {
        try {
            return Main.JSON.readTree(out);
        } catch (Exception e) {
            throw new AssertionError("not JSON (exit " + code + "):\n" + out + "\nstderr:\n" + err, e);
        }
    }

    @Override
    public String toString() {
        return "exit " + code + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
}
