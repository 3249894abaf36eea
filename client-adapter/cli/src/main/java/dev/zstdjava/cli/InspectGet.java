package dev.zstdjava.cli;

import dev.zstdjava.values.DictionaryManager;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code inspect get URI KEY}: decodes one string value or hash value, to stdout or a file. Read-only. */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = "Decode one value (a string, or a hash value with --field) with the library's readers and the "
                + "dictionaries published in the store; print it, or write it to --out.")
final class InspectGet implements Callable<Integer> {
    @Mixin
    Common common;

    @Parameters(index = "1", paramLabel = "KEY",
            description = "the key, as the tool prints names: UTF-8, with \\\\ for a backslash and \\xHH for any byte")
    String key;

    @Option(names = "--field", paramLabel = "FIELD", description = "a hash field (its stored name), written as KEY")
    String field;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE", description = "write the decoded bytes to FILE")
    Path outFile;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        byte[] k = Names.bytesOf(key, "KEY");
        byte[] f = field == null ? null : Names.bytesOf(field, "--field");
        String name = Names.of(k) + (f == null ? "" : " field " + Names.of(f)); // as the tool prints names
        try (Keyspace ks = common.connect()) {
            DictionaryManager dicts = common.dictionaries(ks, spec.commandLine().getErr());
            Classifier classifier = new Classifier(common.limit, common.legacyFormats(), dicts,
                    common::missingDictionary);
            var c = ks.nodes().get(nodeOf(ks, k)).sync();
            byte[] stored;
            try {
                ks.limiter.acquire();
                long size = f == null ? c.strlen(k) : c.hstrlen(k, f);
                if (size > common.limit) {
                    throw new ToolException(name + ": the stored value holds "
                            + size + " bytes, over --limit " + common.limit + "; not read");
                }
                ks.limiter.acquire();
                stored = f == null ? c.get(k) : c.hget(k, f);
            } catch (io.lettuce.core.RedisCommandExecutionException e) {
                throw new ToolException(Names.of(k) + ": " + e.getMessage() + " (inspect get reads a string value, or a"
                        + " hash value with --field)");
            }
            if (stored == null) {
                throw new ToolException(name + ": no such "
                        + (field == null ? "key" : "field"));
            }
            Classifier.Result r = classifier.classify(stored);
            if (r.decoded() == null) {
                throw new ToolException(name + ": " + r.form().label() + ", " + r.describe());
            }
            if (outFile != null) {
                Files.write(outFile, r.decoded());
            }
            if (common.json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("key", Names.of(k));
                if (f != null) {
                    m.put("field", Names.of(f));
                }
                m.put("class", r.label());
                m.put("storedBytes", stored.length);
                m.put("decodedBytes", r.decoded().length);
                if (outFile == null) {
                    m.put("value", new String(r.decoded(), StandardCharsets.UTF_8));
                } else {
                    m.put("file", outFile.toString());
                }
                Main.printJson(out, m);
            } else if (outFile != null) {
                out.println(name + ": " + r.label() + ", " + stored.length + " bytes stored, " + r.decoded().length
                        + " decoded, written to " + outFile);
            } else {
                spec.commandLine().getErr().println(name + ": " + r.label() + ", " + stored.length + " bytes stored, "
                        + r.decoded().length + " decoded");
                spec.commandLine().getErr().flush();
                out.println(new String(r.decoded(), StandardCharsets.UTF_8));
            }
            out.flush();
            if (dicts != null) {
                dicts.close();
            }
            return 0;
        }
    }

    /** @return the index of the node serving {@code key} (0 on a standalone server) */
    static int nodeOf(Keyspace ks, byte[] key) {
        if (!ks.cluster()) {
            return 0;
        }
        int slot = io.lettuce.core.cluster.SlotHash.getSlot(key);
        return ks.nodeOfSlot(slot);
    }
}
