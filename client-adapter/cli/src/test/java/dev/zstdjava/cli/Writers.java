package dev.zstdjava.cli;

import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.redisson.CompressingRedissonCodec;
import io.lettuce.core.codec.CompressionCodec;
import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.redisson.client.codec.Codec;
import org.redisson.codec.LZ4Codec;
import org.redisson.codec.ZStdCodec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The stored bytes each client's own codec makes of a value, taken from those codecs themselves (Lettuce's
 * CompressionCodec, Redisson's ZStdCodec/LZ4Codec, this project's Redisson integration), to be written
 * with a plain connection.
 */
final class Writers {
    private Writers() {}

    static final ValueCompressor ZSTD = ValueCompressor.create(CompressionConfig.defaults());
    static final ValueCompressor LZ4 = ValueCompressor.create(
            CompressionConfig.builder().backend(CompressionBackend.LZ4).build());

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    static byte[] lettuce(CompressionCodec.CompressionType type, String v) {
        return bytes(CompressionCodec.valueCompressor(StringCodec.UTF8, type).encodeValue(v));
    }

    static byte[] redisson(Codec codec, String v, boolean mapKey) {
        try {
            ByteBuf b = (mapKey ? codec.getMapKeyEncoder() : codec.getValueEncoder()).encode(v);
            try {
                return ByteBufUtil.getBytes(b);
            } finally {
                b.release();
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static byte[] redissonZstd(String v) {
        return redisson(new ZStdCodec(org.redisson.client.codec.StringCodec.INSTANCE), v, false);
    }

    static byte[] redissonZstdKey(String v) {
        return redisson(new ZStdCodec(org.redisson.client.codec.StringCodec.INSTANCE), v, true);
    }

    static byte[] redissonLz4(String v) {
        return redisson(new LZ4Codec(org.redisson.client.codec.StringCodec.INSTANCE), v, false);
    }

    /** This project's Redisson integration. */
    static byte[] redissonIntegration(String v) {
        return redisson(new CompressingRedissonCodec(org.redisson.client.codec.StringCodec.INSTANCE,
                CompressionConfig.defaults()), v, false);
    }

    /** This project's Spring Data Redis serializer. */
    static byte[] spring(String v) {
        return dev.zstdjava.values.spring.CompressingRedisSerializer.wrap(
                org.springframework.data.redis.serializer.RedisSerializer.string(), CompressionConfig.defaults())
                .serialize(v);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
