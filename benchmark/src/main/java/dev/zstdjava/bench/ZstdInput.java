package dev.zstdjava.bench;

import dev.zstdjava.zstd.ZstdCompressor;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** The zstd payload of one benchmark cell: its raw bytes and one zstd frame of them at {@link #level}. */
@State(Scope.Benchmark)
public class ZstdInput {
    @Param({"text-128", "text-1k", "text-64k", "text-1m", "text-64m", "json-small", "json-large", "canterbury",
            "binary"})
    public String payload;

    @Param({"3"})
    public int level;

    /** the uncompressed payload */
    public byte[] raw;
    /** one frame of {@link #raw} at {@link #level}, with its content size, from this library */
    public byte[] frame;

    @Setup(Level.Trial)
    public void setup() {
        raw = Payloads.load(payload);
        try (ZstdCompressor c = ZstdCompressor.create(level)) {
            frame = c.compress(raw);
        }
    }
}
