package dev.zstdjava.values.jedis;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.values.ValueCompressor;
import redis.clients.jedis.commands.JedisBinaryCommands;
import redis.clients.jedis.params.GetExParams;
import redis.clients.jedis.params.SetParams;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Jedis's binary string and hash commands with values compressed in the shared stored format, over any Jedis
 * client ({@code RedisClient}, {@code UnifiedJedis}, {@code Jedis}, or a cluster client):
 *
 * <pre>{@code
 * ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults());
 * CompressingJedis jedis = new CompressingJedis(RedisClient.create("localhost", 6379), values);
 * jedis.set(key, value);
 * byte[] back = jedis.get(key);   // null when the key does not exist
 * }</pre>
 *
 * <p>Jedis has no codec hook, so this class does what a Jedis user would otherwise write around each command:
 * {@link ValueCompressor#compress(byte[])} on every value written and {@link ValueCompressor#decompress(byte[])} on
 * every value read, with {@code null} (missing keys and fields) passed through. Keys and hash field names are never
 * compressed. Any other command, pipelines and transactions use the client directly ({@link #commands()}) with the
 * same compressor: {@code values.compress(v)} for what they write, {@code values.decompress(r)} for what they read.
 *
 * <p>Reads fail with {@link DecompressionLimitException} for a value that would decompress past the configured
 * maximum; the client stays usable.
 *
 * <p><b>Thread safety:</b> as thread-safe as the client it wraps ({@code RedisClient} and {@code UnifiedJedis} are,
 * {@code Jedis} is not). <b>Allocation:</b> the compressed value on writes (none when a value is stored as it is),
 * the decompressed values and the returned list or map on reads, besides what Jedis allocates.
 */
public final class CompressingJedis {
    private final JedisBinaryCommands jedis;
    private final ValueCompressor compressor;

    /**
     * @param jedis      the client that sends the commands
     * @param compressor the compressor, shared with every other use of the same data
     */
    public CompressingJedis(JedisBinaryCommands jedis, ValueCompressor compressor) {
        this.jedis = Objects.requireNonNull(jedis, "jedis");
        this.compressor = Objects.requireNonNull(compressor, "compressor");
    }

    /** @return the wrapped client, for every other command */
    public JedisBinaryCommands commands() {
        return jedis;
    }

    /** @return the compressor doing the work */
    public ValueCompressor compressor() {
        return compressor;
    }

    private byte[] in(byte[] stored) {
        return stored == null ? null : compressor.decompress(stored);
    }

    private List<byte[]> in(List<byte[]> stored) {
        List<byte[]> out = new ArrayList<>(stored.size());
        for (byte[] s : stored) {
            out.add(in(s));
        }
        return out;
    }

    /** {@code SET key value}. */
    public String set(byte[] key, byte[] value) {
        return jedis.set(key, compressor.compress(value));
    }

    /** {@code SET key value} with options ({@code EX}, {@code NX}, {@code GET}, ...). */
    public String set(byte[] key, byte[] value, SetParams params) {
        return jedis.set(key, compressor.compress(value), params);
    }

    /** {@code SETEX key seconds value}. */
    public String setex(byte[] key, long seconds, byte[] value) {
        return jedis.setex(key, seconds, compressor.compress(value));
    }

    /** @return {@code GET key}, decompressed; {@code null} if the key does not exist */
    public byte[] get(byte[] key) {
        return in(jedis.get(key));
    }

    /** @return {@code GETDEL key}, decompressed */
    public byte[] getDel(byte[] key) {
        return in(jedis.getDel(key));
    }

    /** @return {@code GETEX key ...}, decompressed */
    public byte[] getEx(byte[] key, GetExParams params) {
        return in(jedis.getEx(key, params));
    }

    /** @return {@code MGET keys...}, each decompressed, {@code null} for missing keys */
    public List<byte[]> mget(byte[]... keys) {
        return in(jedis.mget(keys));
    }

    /** {@code MSET key value [key value ...]}: the values (every second argument) are compressed. */
    public String mset(byte[]... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("mset takes key/value pairs, got " + keysAndValues.length + " arguments");
        }
        byte[][] args = keysAndValues.clone();
        for (int i = 1; i < args.length; i += 2) {
            args[i] = compressor.compress(args[i]);
        }
        return jedis.mset(args);
    }

    /** {@code HSET key field value}. */
    public long hset(byte[] key, byte[] field, byte[] value) {
        return jedis.hset(key, field, compressor.compress(value));
    }

    /** {@code HSET key field value [field value ...]}. */
    public long hset(byte[] key, Map<byte[], byte[]> fields) {
        Map<byte[], byte[]> stored = new LinkedHashMap<>();
        for (Map.Entry<byte[], byte[]> e : fields.entrySet()) {
            stored.put(e.getKey(), compressor.compress(e.getValue()));
        }
        return jedis.hset(key, stored);
    }

    /** @return {@code HGET key field}, decompressed */
    public byte[] hget(byte[] key, byte[] field) {
        return in(jedis.hget(key, field));
    }

    /** @return {@code HMGET key fields...}, each decompressed */
    public List<byte[]> hmget(byte[] key, byte[]... fields) {
        return in(jedis.hmget(key, fields));
    }

    /** @return {@code HGETALL key} with the values decompressed (field names as Jedis returns them) */
    public Map<byte[], byte[]> hgetAll(byte[] key) {
        Map<byte[], byte[]> stored = jedis.hgetAll(key);
        Map<byte[], byte[]> out = new LinkedHashMap<>();
        for (Map.Entry<byte[], byte[]> e : stored.entrySet()) {
            out.put(e.getKey(), in(e.getValue()));
        }
        return out;
    }

    /** @return {@code HVALS key}, each decompressed */
    public List<byte[]> hvals(byte[] key) {
        return in(jedis.hvals(key));
    }
}
