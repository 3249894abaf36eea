package dev.zstdjava.lettuce;

import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zstdjava.soak.CodecOps;
import dev.zstdjava.soak.NativeMemory;
import dev.zstdjava.soak.Soak;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Leak and soak over every API, codec and adapter together: {@code -Dzstdjava.soak.ops} operations (default
 * 50,000; {@code tools/soak.sh} runs 10^7 and more), malloc in use and the heap after GC may grow by at most 16 MiB
 * after warm-up (each end the least over a few seconds of collections, longer than the managed dictionary's
 * retraining interval, so that a training in progress does not count). Samples go to {@code target/soak/all.csv}.
 * In this module because its adapter operations ({@link AdapterOps}) include {@link CompressingCodec} encoding and
 * decoding as Lettuce does.
 */
class SoakTest {
    static final long MAX_GROWTH = 16L << 20;

    @Test
    void nativeMemoryAndHeapStayFlat() throws Exception {
        assertTrue(NativeMemory.hasMallinfo(), "glibc's mallinfo2 is needed to measure malloc in use (glibc 2.33+)");
        Map<String, Soak.Op> ops = new LinkedHashMap<>(new CodecOps().ops());
        AdapterOps adapter = new AdapterOps();
        ops.putAll(adapter.ops());
        Soak.Result r = Soak.run(ops, Soak.ops(50_000), 40, Path.of("target", "soak", "all.csv"));
        System.out.println("soak (codec and adapter): " + r.summary());
        System.out.println("soak: managed dictionary " + adapter.trainingStats());
        assertTrue(r.mallocGrowth() <= MAX_GROWTH, "malloc in use grew: " + r.summary());
        assertTrue(r.heapGrowth() <= MAX_GROWTH, "heap grew: " + r.summary());
    }
}
