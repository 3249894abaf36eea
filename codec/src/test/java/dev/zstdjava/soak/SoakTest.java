package dev.zstdjava.soak;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Leak and soak, short form: the codec's operations ({@link CodecOps}) for {@code -Dzstdjava.soak.ops} operations
 * (default 50,000); malloc in use and the heap after GC may grow by at most 16 MiB after warm-up (each end the least
 * over a few seconds of collections, {@link Soak#leastSample}). The long form (10^7 operations and more, codec and
 * adapter together) is {@code tools/soak.sh}. Samples go to {@code target/soak/codec.csv}.
 */
class SoakTest {
    static final long MAX_GROWTH = 16L << 20;

    @Test
    void nativeMemoryAndHeapStayFlat() throws Exception {
        assertTrue(NativeMemory.hasMallinfo(), "glibc's mallinfo2 is needed to measure malloc in use (glibc 2.33+)");
        Soak.Result r = Soak.run(new CodecOps().ops(), Soak.ops(50_000), 20, Path.of("target", "soak", "codec.csv"));
        System.out.println("soak (codec): " + r.summary());
        assertTrue(r.mallocGrowth() <= MAX_GROWTH, "malloc in use grew: " + r.summary());
        assertTrue(r.heapGrowth() <= MAX_GROWTH, "heap grew: " + r.summary());
    }
}
