package dev.zstdjava.bench;

import dev.zstdjava.lz4.Lz4Compressor;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** The lz4 payload of one benchmark cell: its raw bytes and one raw lz4 block of them in {@link #mode}. */
@State(Scope.Benchmark)
public class Lz4Input {
    @Param({"text-128", "text-1k", "text-64k", "text-1m", "text-64m", "json-small", "json-large", "canterbury",
            "binary"})
    public String payload;

    /** {@code default}, {@code fast8} (acceleration 8) or {@code hc9}; see {@link Lz4Modes} */
    @Param({"default"})
    public String mode;

    /** the uncompressed payload */
    public byte[] raw;
    /** one raw lz4 block of {@link #raw} in {@link #mode}, from this library */
    public byte[] block;

    @Setup(Level.Trial)
    public void setup() {
        raw = Payloads.load(payload);
        try (Lz4Compressor c = Lz4Compressor.create(Lz4Modes.level(mode))) {
            block = c.compress(raw);
        }
    }
}
