package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdCompressor;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.function.IntSupplier;

import static dev.zstdjava.testkit.TestValues.concat;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The allocation claims of the Javadoc, after JIT warm-up: no copy of a value is ever made on the way in, and decoding
 * allocates the returned value. What remains per call is a few small wrapper objects the JIT does not always remove,
 * and Netty's bookkeeping for a borrowed pooled buffer, so the bounds are far below the 4 KiB a copy would cost.
 */
class AllocationTest {
    // com.sun.management.ThreadMXBean, reached reflectively: the tests compile inside the module, which does not
    // read java.management
    private static final Object THREADS;
    private static final Method ALLOCATED;

    static {
        try {
            THREADS = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            ALLOCATED = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static long allocated() {
        try {
            return (long) ALLOCATED.invoke(THREADS);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return heap bytes per call of {@code call}, measured after a warm-up of as many calls */
    static long bytesPerCall(int calls, IntSupplier call) {
        long sink = 0;
        for (int i = 0; i < calls; i++) {
            sink += call.getAsInt();
        }
        long before = allocated();
        for (int i = 0; i < calls; i++) {
            sink += call.getAsInt();
        }
        long per = (allocated() - before) / calls;
        assertTrue(sink != 42);
        return per;
    }

    @Test
    void segmentCompressionAllocatesNothing() {
        for (CompressionBackend backend : CompressionBackend.values()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().backend(backend).build());
            byte[] value = text(4096);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment src = arena.allocate(value.length);
                src.copyFrom(MemorySegment.ofArray(value));
                MemorySegment dst = arena.allocate(value.length);
                long per = bytesPerCall(20_000, () -> (int) vc.compress(src, dst));
                assertTrue(per < 128, backend + ": heap bytes per compress(MemorySegment, MemorySegment): " + per);
            }
        }
    }

    @Test
    void dictionaryCompressionAndDecompressionAllocateAsWithout() {
        java.util.List<byte[]> records = TestValues.jsonRecords(2000, 3);
        byte[] dict = dev.zstdjava.zstd.ZstdDictionary.train(records, 16 << 10).toByteArray();
        try (dev.zstdjava.values.DictionaryManager m = dev.zstdjava.values.DictionaryManager.given(dict).build();
             Arena arena = Arena.ofConfined()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            byte[] value = records.get(7);
            MemorySegment src = arena.allocate(value.length);
            src.copyFrom(MemorySegment.ofArray(value));
            MemorySegment dst = arena.allocate(value.length);
            long per = bytesPerCall(20_000, () -> (int) vc.compress(src, dst));
            assertTrue(per < 128, "heap bytes per compress(MemorySegment, MemorySegment) with a dictionary: " + per);
            byte[] stored = vc.compress(value);
            assertEquals(m.currentId(), dev.zstdjava.zstd.ZstdFrame.dictionaryId(stored, 5, stored.length - 5));
            MemorySegment in = arena.allocate(stored.length);
            in.copyFrom(MemorySegment.ofArray(stored));
            long perRead = bytesPerCall(20_000, () -> vc.decompressOrNull(in).length);
            // the returned array (value.length + its 16-byte header, rounded to 8) plus a few small wrappers; on
            // JDK 21, which refuses heap memory in downcalls, the new array is filled through a staging copy whose
            // segment views the JIT does not always remove (docs/platforms.md, JDK 21)
            long jdk21Staging = Runtime.version().feature() < 22 ? 1024 : 0;
            assertTrue(perRead < value.length + 16 + 128 + jdk21Staging, "heap bytes per decompress with a dictionary: "
                    + perRead
                    + " for a " + value.length + "-byte value");
        }
    }

    @Test
    void incompressibleValuesAreStoredAsTheyAreWithoutAllocating() {
        // such values are common (small or already compressed data); they must not cost an exception each
        for (CompressionBackend backend : CompressionBackend.values()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().backend(backend).build());
            for (int size : new int[] {100, 4096}) {
                byte[] value = TestValues.random(size, size);
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment src = arena.allocate(value.length);
                    src.copyFrom(MemorySegment.ofArray(value));
                    MemorySegment dst = arena.allocate(value.length);
                    long before = vc.stats().valuesCompressed();
                    long per = bytesPerCall(20_000, () -> (int) vc.compress(src, dst));
                    assertEquals(before, vc.stats().valuesCompressed(), backend + ": random data was compressed");
                    assertEquals(-1, dst.mismatch(src), backend + ": stored form differs from the value");
                    assertTrue(per < 128, backend + ", " + size + " random bytes: heap bytes per call: " + per);
                }
            }
        }
    }

    @Test
    void codecEncodesIntoPooledBuffersWithoutAllocating() {
        byte[] value = text(4096);
        String s = new String(value);
        CompressingCodec<byte[], byte[]> bytes = CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CompressionConfig.defaults());
        CompressingCodec<String, String> strings = CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults());
        ByteBuf target = PooledByteBufAllocator.DEFAULT.directBuffer(8192);
        Compressing.set(true); // as while the policy client encodes a SET
        try {
            long perBytes = bytesPerCall(20_000, () -> {
                target.clear();
                bytes.encodeValue(value, target);
                return target.writerIndex();
            });
            assertTrue(perBytes < 512, "heap bytes per ByteArrayCodec value encode: " + perBytes);
            long perString = bytesPerCall(20_000, () -> {
                target.clear();
                strings.encodeValue(s, target);
                return target.writerIndex();
            });
            assertTrue(perString < 512, "heap bytes per StringCodec value encode: " + perString);
            assertEquals(0, bytes.valuesSentWithoutPolicy(), "every value was compressed");
        } finally {
            Compressing.set(false);
            target.release();
        }
    }

    @Test
    void decodingAllocatesOnlyTheValue() {
        byte[] value = text(4096);
        CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CompressionConfig.defaults());
        byte[] withSize = codec.compressor().compress(value);
        byte[] frame;
        try (ZstdCompressor c = ZstdCompressor.builder().contentSize(false).build()) {
            frame = c.compress(value);
        }
        byte[] withoutSize = concat(new byte[] {0, 1, 2, 0, 1}, frame); // as GLIDE writes them
        byte[] lz4 = ValueCompressor.create(CompressionConfig.builder().backend(CompressionBackend.LZ4).build())
                .compress(value);
        for (byte[] stored : new byte[][] {withSize, withoutSize, lz4}) {
            ByteBuffer direct = ByteBuffer.allocateDirect(stored.length);
            direct.put(stored).flip();
            long per = bytesPerCall(10_000, () -> codec.decodeValue(direct).length);
            // JDK 21 refuses heap memory in downcalls: frames without a size are decoded from an array in pieces,
            // each piece's input copied through a native arena made for the call (docs/platforms.md, JDK 21)
            long jdk21Staging = Runtime.version().feature() < 22 && stored == withoutSize ? 2048 : 0;
            assertTrue(per < value.length + 16 + 512 + jdk21Staging, "heap bytes per decode of a 4096-byte value: "
                    + per);
        }
    }
}
