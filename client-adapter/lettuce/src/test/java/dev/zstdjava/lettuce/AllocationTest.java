package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.Allocations;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdCompressor;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;

import static dev.zstdjava.testkit.TestValues.concat;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The allocation claims of the Lettuce codec's Javadoc, after JIT warm-up: no copy of a value is ever made on the way
 * in, and decoding allocates the returned value ({@code ValueCompressor}'s own: the values module's
 * {@code ValueCompressorAllocationTest}). What remains per call is a few small wrapper objects the JIT does not always remove,
 * and Netty's bookkeeping for a borrowed pooled buffer, so the bounds are far below the 4 KiB a copy would cost.
 */
class AllocationTest {
    @Test
    void codecEncodesIntoPooledBuffersWithoutAllocating() {
        byte[] value = text(4096);
        String s = new String(value);
        CompressingCodec<byte[], byte[]> bytes = CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CompressionConfig.defaults());
        CompressingCodec<String, String> strings = CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults());
        ByteBuf target = PooledByteBufAllocator.DEFAULT.directBuffer(8192);
        Compressing.set(true); // as while the policy client encodes a SET
        try {
            long perBytes = Allocations.bytesPerCall(20_000, () -> {
                target.clear();
                bytes.encodeValue(value, target);
                return target.writerIndex();
            });
            assertTrue(perBytes < 512, "heap bytes per ByteArrayCodec value encode: " + perBytes);
            long perString = Allocations.bytesPerCall(20_000, () -> {
                target.clear();
                strings.encodeValue(s, target);
                return target.writerIndex();
            });
            assertTrue(perString < 512, "heap bytes per StringCodec value encode: " + perString);
            assertTrue(target.writerIndex() < value.length, "the values were compressed");
        } finally {
            Compressing.set(false);
            target.release();
        }
    }

    /**
     * The adaptive codec writes as the fixed one does: into Lettuce's buffer, no copy of the value (the plain encoding
     * of a String goes through a pooled buffer), on a pattern that is not being sampled.
     */
    @Test
    void theAdaptiveCodecEncodesIntoPooledBuffersWithoutACopy() {
        byte[] value = text(4096);
        String s = new String(value);
        // never sampled: the pattern stays on its default option, zstd 3
        AdaptiveCompressor adaptive = AdaptiveCompressor.builder(CompressionConfig.defaults())
                .sampling(0, 1 << 30, 1 << 30).build();
        CompressingCodec<byte[], byte[]> bytes = CompressingCodec.wrap(ByteArrayCodec.INSTANCE, adaptive);
        CompressingCodec<String, String> strings = CompressingCodec.wrap(StringCodec.UTF8, adaptive);
        bytes.attachPolicy(); // as the policy client's connection does
        strings.attachPolicy();
        byte[] key = "doc:1".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ByteBuf keys = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        ByteBuf target = PooledByteBufAllocator.DEFAULT.directBuffer(8192);
        PolicyScope scope = PolicyScope.current();
        Compressing.set(true);
        try {
            long perBytes = Allocations.bytesPerCall(20_000, () -> {
                keys.clear();
                target.clear();
                scope.startKeys(false);
                bytes.encodeKey(key, keys);
                bytes.encodeValue(value, target);
                return target.writerIndex();
            });
            assertTrue(perBytes < 512, "heap bytes per adaptive ByteArrayCodec value encode: " + perBytes);
            long perString = Allocations.bytesPerCall(20_000, () -> {
                keys.clear();
                target.clear();
                scope.startKeys(false);
                strings.encodeKey("doc:1", keys);
                strings.encodeValue(s, target);
                return target.writerIndex();
            });
            assertTrue(perString < 512, "heap bytes per adaptive StringCodec value encode: " + perString);
            assertTrue(target.writerIndex() < value.length, "the values were compressed");
            // every encode went through the key's pattern (the warm-up and three rounds of each measurement)
            assertTrue(adaptive.snapshot().stream().anyMatch(d -> d.pattern().equals("doc:*")
                    && d.valuesSeen() >= 2 * 4 * 20_000), adaptive.snapshot().toString());
        } finally {
            Compressing.set(false);
            scope.keyLength = -1;
            keys.release();
            target.release();
        }
    }

    /**
     * Heap bytes per command through the policy client against a real server, summed over the threads that serve the
     * command (the caller, and the threads the test's clients started: the event loop, the decoding executor, Lettuce's
     * timer and computation threads), next to a plain {@code RedisClient} with {@code StringCodec} sending the same
     * 4 KiB JSON uncompressed: what the off-loop path adds is the command's encoded bytes (compressed, on the caller),
     * the wrapper, the copy of a compressed reply and the decompressed value. Threads alive before the clients (another
     * test class's leftovers) are not counted. Printed for docs/values.md.
     */
    @Test
    @org.junit.jupiter.api.condition.DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true",
            disabledReason = "left out with -Dzstdjava.skipServerTests=true")
    void bytesPerSetAndGetThroughThePolicyClient() throws Exception {
        String value = TestValues.json(4096);
        try (dev.zstdjava.testkit.RedisServer server = dev.zstdjava.testkit.RedisServer.start()) {
            io.lettuce.core.RedisURI uri = io.lettuce.core.RedisURI.create(dev.zstdjava.testkit.RedisServer.HOST,
                    server.port());
            // every thread alive now is another's: the clients' threads start after this
            Set<Long> others = Allocations.allocatedByThread().keySet();
            io.lettuce.core.RedisClient policy = CompressingRedisClient.create(uri);
            io.lettuce.core.RedisClient plain = io.lettuce.core.RedisClient.create(uri);
            CompressingCodec<String, String> codec = CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults());
            int stored = codec.compressor().compress(value.getBytes(java.nio.charset.StandardCharsets.US_ASCII)).length;
            try (var c = policy.connect(codec);
                 var p = plain.connect(StringCodec.UTF8)) {
                var sync = c.sync();
                var async = c.async();
                var plainSync = p.sync();
                long set = ourThreadsBytesPerCall(others, () -> sync.set("k", value).length());
                long get = ourThreadsBytesPerCall(others, () -> sync.get("k").length());
                long asyncSet = ourThreadsBytesPerCall(others,
                        () -> async.set("k", value).toCompletableFuture().join().length());
                long asyncGet = ourThreadsBytesPerCall(others, () -> async.get("k").toCompletableFuture()
                        .thenApply(String::length).join());
                long plainSet = ourThreadsBytesPerCall(others, () -> plainSync.set("p", value).length());
                long plainGet = ourThreadsBytesPerCall(others, () -> plainSync.get("p").length());
                System.out.printf("heap bytes per command, caller and clients' threads, 4096-byte JSON value"
                        + " (stored in " + stored + " bytes): policy client sync SET"
                        + " %d, sync GET %d, async SET %d, async GET %d; plain RedisClient"
                        + " + StringCodec (uncompressed) SET %d, GET %d%n", set, get, asyncSet, asyncGet, plainSet,
                        plainGet);
                // a SET keeps the compressed command (about 1/4 of the value here), never a second copy of the value
                assertTrue(set < plainSet + 2048, "policy SET " + set + " vs plain " + plainSet);
                // a GET makes the copy of the compressed reply, the decompressed bytes and the String: no more
                assertTrue(get < plainGet + 2 * 4096, "policy GET " + get + " vs plain " + plainGet);
                assertTrue(asyncGet < plainGet + 2 * 4096 + 1024, "policy async GET " + asyncGet);
            } finally {
                policy.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
                plain.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
            }
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
            long per = Allocations.bytesPerCall(10_000, () -> codec.decodeValue(direct).length);
            // JDK 21 refuses heap memory in downcalls: frames without a size are decoded from an array in pieces,
            // each piece's input copied through a native arena made for the call (docs/platforms.md, JDK 21)
            long jdk21Staging = Runtime.version().feature() < 22 && stored == withoutSize ? 2048 : 0;
            assertTrue(per < value.length + 16 + 512 + jdk21Staging, "heap bytes per decode of a 4096-byte value: "
                    + per);
        }
    }

    /**
     * @return heap bytes per call of {@code call}, after a warm-up of 5,000 calls, summed over this thread and the
     *         threads not in {@code others} (the test's clients' threads, a thread started meanwhile counted from 0):
     *         the least of three rounds of 2,000 calls. A cost of every call shows in every round; a one-off (a late
     *         compile, a decoding thread that retired and started again) in one round only
     */
    static long ourThreadsBytesPerCall(Set<Long> others, IntSupplier call) {
        long sink = 0;
        for (int i = 0; i < 5_000; i++) {
            sink += call.getAsInt();
        }
        long caller = Thread.currentThread().threadId();
        long least = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            Map<Long, Long> before = Allocations.allocatedByThread();
            for (int i = 0; i < 2_000; i++) {
                sink += call.getAsInt();
            }
            long sum = 0;
            for (Map.Entry<Long, Long> now : Allocations.allocatedByThread().entrySet()) {
                if (now.getKey() == caller || !others.contains(now.getKey())) {
                    sum += Math.max(0, now.getValue() - before.getOrDefault(now.getKey(), 0L));
                }
            }
            least = Math.min(least, sum / 2_000);
        }
        assertTrue(sink > 0);
        return least;
    }
}
