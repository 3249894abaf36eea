package dev.zstdjava.values;

import dev.zstdjava.testkit.Allocations;
import dev.zstdjava.testkit.TestValues;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The allocation claims of {@link ValueCompressor}'s Javadoc, after JIT warm-up: compressing between segments makes
 * no copy of the value, no scratch array and no per-call context; decoding allocates the returned value. What remains
 * per call is a small segment view the JIT does not always remove.
 */
class ValueCompressorAllocationTest {
    /**
     * Not "nothing": each backend compresses into a slice of the destination past the header
     * ({@code dst.asSlice}), a segment view of about 40 bytes that the JIT removes only sometimes (35 to 40 bytes per
     * call measured on JDK 25). Below 64 bytes per call is at most that one small object: never a copy of the
     * 4096-byte value, no scratch array, no per-call context.
     */
    @Test
    void segmentCompressionAllocatesAtMostOneSmallWrapper() {
        for (CompressionBackend backend : CompressionBackend.values()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().backend(backend).build());
            byte[] value = text(4096);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment src = arena.allocate(value.length);
                src.copyFrom(MemorySegment.ofArray(value));
                MemorySegment dst = arena.allocate(value.length);
                long per = Allocations.bytesPerCall(20_000, () -> (int) vc.compress(src, dst));
                assertTrue(per < 64, backend + ": heap bytes per compress(MemorySegment, MemorySegment): " + per);
            }
        }
    }

    /**
     * The array form allocates exactly the returned array, with every backend, whatever the JIT inlines: it makes no
     * views (the codecs' array forms, which stage values up to {@code zstdjava.heapStagingLimit}, 4 KiB by default,
     * through native memory); a value stored as it is, nothing.
     */
    @Test
    void theArrayFormAllocatesExactlyTheStoredForm() {
        for (CompressionBackend backend : CompressionBackend.values()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().backend(backend).build());
            for (int size : new int[] {1000, 4096}) { // at most the codecs' heap staging limit: no view of the arrays
                byte[] value = text(size);
                int stored = vc.compress(value).length;
                assertTrue(stored < size, backend + ", " + size + " bytes: not compressed");
                long per = Allocations.bytesPerCall(20_000, () -> vc.compress(value).length);
                assertEquals(Allocations.arrayBytes(stored), per, backend + ", " + size + " bytes: heap bytes per "
                        + "compress(byte[]) for a stored form of " + stored + " bytes");
                byte[] random = TestValues.random(size, size);
                assertEquals(0, Allocations.bytesPerCall(20_000, () -> vc.compress(random).length),
                        backend + ", " + size + " random bytes: heap bytes per compress(byte[])");
            }
        }
    }

    @Test
    void dictionaryCompressionAndDecompressionAllocateAsWithout() {
        java.util.List<byte[]> records = TestValues.jsonRecords(2000, 3);
        byte[] dict = dev.zstdjava.zstd.ZstdDictionary.train(records, 16 << 10).toByteArray();
        try (DictionaryManager m = DictionaryManager.given(dict).build();
             Arena arena = Arena.ofConfined()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            byte[] value = records.get(7);
            MemorySegment src = arena.allocate(value.length);
            src.copyFrom(MemorySegment.ofArray(value));
            MemorySegment dst = arena.allocate(value.length);
            long per = Allocations.bytesPerCall(20_000, () -> (int) vc.compress(src, dst));
            assertTrue(per < 128, "heap bytes per compress(MemorySegment, MemorySegment) with a dictionary: " + per);
            byte[] stored = vc.compress(value);
            assertEquals(m.currentId(), dev.zstdjava.zstd.ZstdFrame.dictionaryId(stored, 5, stored.length - 5));
            MemorySegment in = arena.allocate(stored.length);
            in.copyFrom(MemorySegment.ofArray(stored));
            long perRead = Allocations.bytesPerCall(20_000, () -> vc.decompress(in).length);
            // the returned array (value.length + its 16-byte header, rounded to 8) plus a few small wrappers; on
            // JDK 21, which refuses heap memory in downcalls, the new array is filled through a staging copy whose
            // segment views the JIT does not always remove (docs/platforms.md, JDK 21)
            long jdk21Staging = Runtime.version().feature() < 22 ? 1024 : 0;
            assertTrue(perRead < value.length + 16 + 128 + jdk21Staging, "heap bytes per decompress with a dictionary: "
                    + perRead
                    + " for a " + value.length + "-byte value");
        }
    }

    /**
     * Such values are common (small or already compressed data); they must not cost an exception or a copy each.
     * Not "without allocating": as in {@link #segmentCompressionAllocatesAtMostOneSmallWrapper}, the backend's
     * slice of the destination remains (40 to 80 bytes per call measured on JDK 25); a copy of the value would be
     * its size plus a 16-byte array header, an exception with its stack trace hundreds of bytes.
     */
    @Test
    void incompressibleValuesAreStoredAsTheyAreWithoutAnExceptionOrACopy() {
        for (CompressionBackend backend : CompressionBackend.values()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().backend(backend).build());
            for (int size : new int[] {100, 4096}) {
                byte[] value = TestValues.random(size, size);
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment src = arena.allocate(value.length);
                    src.copyFrom(MemorySegment.ofArray(value));
                    MemorySegment dst = arena.allocate(value.length);
                    long before = vc.stats().valuesCompressed();
                    long per = Allocations.bytesPerCall(20_000, () -> (int) vc.compress(src, dst));
                    assertEquals(before, vc.stats().valuesCompressed(), backend + ": random data was compressed");
                    assertEquals(-1, dst.mismatch(src), backend + ": stored form differs from the value");
                    assertTrue(per < Math.min(128, size + 16), backend + ", " + size
                            + " random bytes: heap bytes per call: " + per);
                }
            }
        }
    }

}
