package dev.zstdjava.cli;

import picocli.CommandLine.Option;

/** The options of the commands that read a sample of the keyspace, inspect and advise (picocli mixin). Not thread-safe. */
final class Sampling {
    @Option(names = "--match", paramLabel = "PATTERN", description = "SCAN MATCH pattern (default: every key); \\xHH is"
            + " one byte, as the tool prints names")
    String match;

    @Option(names = "--sample", defaultValue = "2000", paramLabel = "N", description = "keys read, drawn uniformly "
            + "from all keys scanned (default ${DEFAULT-VALUE}); counts are exact when the keyspace has at most N keys")
    int sample;

    @Option(names = "--elements", defaultValue = "16", paramLabel = "N", description = "elements read per collection "
            + "key: random hash fields and set members, the first list elements (default ${DEFAULT-VALUE})")
    int elements;

    @Option(names = "--max-elements", defaultValue = "10000", paramLabel = "N", description = "sets, sorted sets and "
            + "hashes with more elements are not read (counted as skipped): their members and field names have no "
            + "length command, and bounding them takes MEMORY USAGE over every element (default ${DEFAULT-VALUE})")
    int maxElements;

    /** @return the bytes of {@code --match} as {@code SCAN MATCH} takes them ({@link Names#glob}), null when not given */
    byte[] pattern() {
        return match == null ? null : Names.glob(match, "--match");
    }

    /**
     * @throws ToolException.BadArguments unless the sample, the elements per key and --max-elements are at least 1
     *                                    and {@code --match} is a glob the tool reads ({@link Names#glob})
     */
    void check() {
        pattern();
        if (sample < 1) {
            throw new ToolException.BadArguments("--sample must be at least 1, got " + sample);
        }
        if (elements < 1) {
            throw new ToolException.BadArguments("--elements must be at least 1, got " + elements);
        }
        if (maxElements < 1) {
            throw new ToolException.BadArguments("--max-elements must be at least 1, got " + maxElements);
        }
    }
}
