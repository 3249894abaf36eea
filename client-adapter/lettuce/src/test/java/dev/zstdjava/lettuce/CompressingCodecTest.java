package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionConfig;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.codec.ToByteBufEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/** The codec without a server: every target buffer kind, every delegate kind, Lettuce's decode buffers. */
class CompressingCodecTest {
    // these tests call the codec directly, as the policy client does while it encodes a compressed command
    @org.junit.jupiter.api.BeforeEach
    void compressionOn() {
        Compressing.set(true);
    }

    @org.junit.jupiter.api.AfterEach
    void compressionOff() {
        Compressing.set(false);
    }

    /**
     * A codec no policy client has connected refuses to encode a key or a value (a plain client's connection would
     * store the values uncompressed) and still decodes; connected, it writes the delegate's bytes, exactly sized,
     * outside a compressed command.
     */
    @Test
    void encodesOnlyOnceAPolicyClientConnectedIt() {
        Compressing.set(false);
        CompressingCodec<String, String> codec = CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults());
        String v = "plain ".repeat(200);
        ByteBuf buf = Unpooled.directBuffer();
        try {
            for (Runnable misuse : List.<Runnable>of(() -> codec.encodeValue(v, buf), () -> codec.encodeValue(v),
                    () -> codec.encodeKey("k", buf), () -> codec.encodeKey("k"))) {
                IllegalStateException e = assertThrows(IllegalStateException.class, misuse::run);
                assertEquals(CompressingCodec.MISUSE, e.getMessage());
                assertTrue(e.getMessage().contains("CompressingRedisClient.create(uri).connect(StringCodec.UTF8, "
                        + "valueCompressor)"), "says what to do: " + e.getMessage());
            }
            assertEquals(0, buf.writerIndex(), "nothing written");
            byte[] compressed = codec.compressor().compress(v.getBytes(StandardCharsets.UTF_8));
            assertEquals(v, codec.decodeValue(ByteBuffer.wrap(compressed)), "reading works before");

            codec.attachPolicy(); // as CompressingRedisClient does when it connects with the codec
            assertEquals(StringCodec.UTF8.isEstimateExact(), codec.isEstimateExact(), "the delegate's, for plain values");
            codec.encodeValue(v, buf);
            assertEquals(v, buf.toString(StandardCharsets.UTF_8));
            ByteBuffer nio = codec.encodeValue(v);
            assertEquals(v.length(), nio.remaining());
            // reading stays lenient: a compressed value decodes
            Compressing.set(true);
            assertFalse(codec.isEstimateExact());
            CompressingCodec<byte[], byte[]> bytes = CompressingCodec.wrap(ByteArrayCodec.INSTANCE,
                    CompressionConfig.defaults());
            assertFalse(bytes.isEstimateExact(), "compressed: the size is known only after compressing");
            Compressing.set(false);
            assertTrue(bytes.isEstimateExact(), "plain byte[]: exact, no scratch buffer");
            Compressing.set(true);
            ByteBuffer stored = codec.encodeValue(v);
            Compressing.set(false);
            assertTrue(stored.remaining() < v.length());
            assertEquals(v, codec.decodeValue(stored));
        } finally {
            buf.release();
        }
    }

    static final byte[] HEADER = {0, 1, 2, 0, 1};

    /** A codec that is not a ToByteBufEncoder. */
    static final class PlainCodec implements RedisCodec<String, String> {
        @Override
        public String decodeKey(ByteBuffer bytes) {
            return StandardCharsets.UTF_8.decode(bytes).toString();
        }

        @Override
        public String decodeValue(ByteBuffer bytes) {
            return StandardCharsets.UTF_8.decode(bytes).toString();
        }

        @Override
        public ByteBuffer encodeKey(String key) {
            return StandardCharsets.UTF_8.encode(key);
        }

        @Override
        public ByteBuffer encodeValue(String value) {
            return StandardCharsets.UTF_8.encode(value);
        }
    }

    static List<Supplier<ByteBuf>> targets() {
        return List.of(
                () -> Unpooled.directBuffer(16),
                () -> Unpooled.buffer(16),
                () -> PooledByteBufAllocator.DEFAULT.directBuffer(16),
                () -> PooledByteBufAllocator.DEFAULT.heapBuffer(16),
                () -> ByteBufAllocator.DEFAULT.buffer(16),
                () -> {
                    CompositeByteBuf c = Unpooled.compositeBuffer();
                    c.addComponent(true, Unpooled.directBuffer(8).writeBytes(new byte[] {9, 9}));
                    c.addComponent(true, Unpooled.directBuffer(8).writeBytes(new byte[] {9}));
                    c.readerIndex(0);
                    c.writerIndex(0);
                    return c;
                });
    }

    static byte[] readable(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        return out;
    }

    @Test
    void encodesIntoEveryKindOfTargetAfterExistingBytes() {
        String value = TestValues.json(3000);
        byte[] valueBytes = value.getBytes(StandardCharsets.UTF_8);
        List<RedisCodec<?, ?>> delegates = List.of(ByteArrayCodec.INSTANCE, StringCodec.UTF8, StringCodec.ASCII, new PlainCodec());
        for (RedisCodec<?, ?> d : delegates) {
            for (Supplier<ByteBuf> target : targets()) {
                @SuppressWarnings("unchecked")
                CompressingCodec<Object, Object> codec = CompressingCodec.wrap((RedisCodec<Object, Object>) d,
                        CompressionConfig.defaults());
                Object v = d instanceof ByteArrayCodec ? valueBytes : value;
                ByteBuf buf = target.get();
                try {
                    buf.writeBytes(new byte[] {'$', '7', '\r', '\n'});
                    codec.encodeValue(v, buf);
                    byte[] all = readable(buf);
                    assertArrayEquals(new byte[] {'$', '7', '\r', '\n'}, Arrays.copyOf(all, 4), "bytes before untouched");
                    byte[] stored = Arrays.copyOfRange(all, 4, all.length);
                    String what = d.getClass().getSimpleName() + " into " + buf.getClass().getSimpleName();
                    assertArrayEquals(HEADER, Arrays.copyOf(stored, 5), what);
                    assertTrue(stored.length < valueBytes.length, what);
                    if (d instanceof ToByteBufEncoder<?, ?>) { // otherwise the estimate is only a capacity hint
                        assertTrue(codec.estimateSize(v) >= stored.length, what);
                    }
                    // the ByteBuffer form writes the same bytes
                    ByteBuffer viaNio = codec.encodeValue(v);
                    byte[] nio = new byte[viaNio.remaining()];
                    viaNio.get(nio);
                    assertArrayEquals(stored, nio, what);
                    // and they decode back, from a direct buffer at a non-zero position
                    ByteBuffer direct = ByteBuffer.allocateDirect(stored.length + 20).position(11);
                    direct.put(stored).flip().position(11);
                    Object back = codec.decodeValue(direct);
                    if (back instanceof byte[] b) {
                        assertArrayEquals(valueBytes, b, what);
                    } else {
                        assertEquals(value, back, what);
                    }
                    assertEquals(2, codec.compressor().stats().valuesCompressed(), what);
                } finally {
                    buf.release();
                }
            }
        }
    }

    @Test
    void smallAndIncompressibleValuesAreWrittenAsIs() {
        CompressingCodec<String, String> strings = CompressingCodec.wrap(StringCodec.ASCII, CompressionConfig.defaults());
        ByteBuf buf = Unpooled.directBuffer();
        strings.encodeValue("short", buf);
        assertEquals("short", buf.toString(StandardCharsets.US_ASCII));
        buf.release();

        CompressingCodec<byte[], byte[]> bytes = CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CompressionConfig.defaults());
        byte[] noise = random(5000, 3);
        ByteBuf b2 = PooledByteBufAllocator.DEFAULT.directBuffer(10);
        bytes.encodeValue(noise, b2);
        assertArrayEquals(noise, readable(b2));
        b2.release();
        assertEquals(1, bytes.compressor().stats().skipped());
        assertEquals(1, strings.compressor().stats().skipped());
    }

    @Test
    void keysPassThroughUntouched() {
        CompressingCodec<String, String> codec = CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults());
        codec.attachPolicy();
        String key = "k".repeat(500);
        ByteBuf buf = Unpooled.buffer();
        codec.encodeKey(key, buf);
        assertEquals(key, buf.toString(StandardCharsets.UTF_8));
        assertEquals(key, StandardCharsets.UTF_8.decode(codec.encodeKey(key)).toString());
        assertEquals(key, codec.decodeKey(ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8))));
        CompressingCodec<String, String> plain = CompressingCodec.wrap(new PlainCodec(), CompressionConfig.defaults());
        plain.attachPolicy();
        ByteBuf b2 = Unpooled.directBuffer();
        plain.encodeKey(key, b2);
        assertEquals(key, b2.toString(StandardCharsets.UTF_8));
        assertEquals(0, codec.compressor().stats().valuesCompressed() + codec.compressor().stats().skipped());
    }

    @Test
    void decodingLeavesLettucesBufferAlone() {
        CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CompressionConfig.defaults());
        byte[] value = text(10_000);
        byte[] stored = codec.compressor().compress(value);
        ByteBuffer shared = ByteBuffer.allocateDirect(stored.length + 5).position(5);
        shared.put(stored).flip().position(5);
        byte[] got = codec.decodeValue(shared);
        assertArrayEquals(value, got);
        // the buffer is reused by Lettuce: overwrite it, the decoded value must not change
        for (int i = 0; i < shared.limit(); i++) {
            shared.put(i, (byte) 0x55);
        }
        assertArrayEquals(value, got);
        assertTrue(codec.delegate() instanceof ToByteBufEncoder);
        assertFalse(codec.isEstimateExact());
    }
}
