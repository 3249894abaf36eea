package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionConfig;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reused arrays a command is encoded into on its dispatching thread: what {@link EncodedCommand#encodeOnThisThread} returns
 * is byte for byte what Lettuce encodes into a fresh buffer, whatever the earlier commands left in the arrays, on
 * platform and virtual threads at once; arrays held at the same time are never the same array.
 */
class EncodeBuffersTest {
    private static final CompressingCodec<byte[], byte[]> BYTES =
            CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CompressionConfig.defaults());
    private static final CompressingCodec<String, String> STRINGS =
            CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults());

    static {
        BYTES.attachPolicy(); // as CompressingRedisClient does when it connects with the codec
        STRINGS.attachPolicy();
    }

    // MSET of values of several sizes (compressible, incompressible, below the minimum), keys of the same codec
    private static RedisCommand<byte[], byte[], String> mset(int seed) {
        CommandArgs<byte[], byte[]> args = new CommandArgs<>(BYTES);
        for (int i = 0; i < 4; i++) {
            byte[] v = switch ((seed + i) % 4) {
                case 0 -> TestValues.json(200 + seed % 3000).getBytes(StandardCharsets.UTF_8);
                case 1 -> TestValues.random(100 + seed % 5000, seed);
                case 2 -> "short".getBytes(StandardCharsets.UTF_8);
                default -> TestValues.json(70_000).getBytes(StandardCharsets.UTF_8); // above the kept array size
            };
            args.addKey(("k" + seed + ":" + i).getBytes(StandardCharsets.UTF_8)).addValue(v);
        }
        return new AsyncCommand<>(new Command<>(CommandType.MSET, new StatusOutput<>(BYTES), args));
    }

    private static RedisCommand<String, String, String> setString(int seed) {
        CommandArgs<String, String> args = new CommandArgs<>(STRINGS).addKey("s" + seed)
                .addValue(TestValues.json(300 + seed % 6000));
        return new AsyncCommand<>(new Command<>(CommandType.SET, new StatusOutput<>(STRINGS), args));
    }

    // The reference: the same command encoded into a fresh, unshared buffer, its values compressed.
    private static byte[] fresh(RedisCommand<?, ?, ?> command) {
        return Compressing.on(() -> {
            ByteBuf buf = Unpooled.buffer(256);
            try {
                command.encode(buf);
                byte[] out = new byte[buf.readableBytes()];
                buf.readBytes(out);
                return out;
            } finally {
                buf.release();
            }
        });
    }

    @Test
    void encodedBytesAreLettucesWhateverTheReusedArraysHeld() {
        for (int seed = 0; seed < 200; seed++) {
            RedisCommand<byte[], byte[], String> m = mset(seed);
            assertArrayEquals(fresh(m), EncodedCommand.encodeOnThisThread(m), "MSET " + seed);
            RedisCommand<String, String, String> s = setString(seed);
            assertArrayEquals(fresh(s), EncodedCommand.encodeOnThisThread(s), "SET " + seed);
        }
    }

    @Test
    void platformAndVirtualThreadsEncodeAtOnceWithoutSharingArrays() throws Exception {
        List<Future<?>> done = new ArrayList<>();
        try (var platform = Executors.newFixedThreadPool(4); var virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < 16; t++) {
                int base = t * 1000;
                var pool = t % 2 == 0 ? platform : virtual;
                done.add(pool.submit(() -> {
                    for (int seed = base; seed < base + 60; seed++) {
                        RedisCommand<byte[], byte[], String> m = mset(seed);
                        byte[] expected = fresh(m);
                        assertArrayEquals(expected, EncodedCommand.encodeOnThisThread(m), "MSET " + seed);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
    }

    @Test
    void arraysHeldAtOnceAreDistinctAndReleasedOnesAreReused() {
        EncodeBuffers.Spares spares = new EncodeBuffers.Spares();
        byte[] a = spares.take(512);
        byte[] b = spares.take(512);
        assertNotSame(a, b);
        spares.give(a);
        spares.give(b);
        byte[] c = spares.take(100);
        byte[] d = spares.take(100);
        byte[] e = spares.take(100);
        assertTrue((c == a || c == b) && (d == a || d == b) && c != d, "both kept arrays reused");
        assertTrue(e != a && e != b && e.length == 100, "a third array is new");
        byte[] huge = new byte[EncodeBuffers.Spares.MAX_KEPT_ARRAY + 1];
        EncodeBuffers.Spares bounded = new EncodeBuffers.Spares();
        bounded.give(huge);
        assertTrue(bounded.take(10) != huge, "an array above the kept size is not kept");
        // best fit: the smallest kept array that holds the request
        EncodeBuffers.Spares fit = new EncodeBuffers.Spares();
        byte[] small = new byte[600];
        byte[] large = new byte[12_000];
        fit.give(large);
        fit.give(small);
        assertSame(small, fit.take(512));
        assertSame(large, fit.take(4096));
    }
}
