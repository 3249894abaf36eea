package dev.zstdjava.values.jedis;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.values.CommandAction;
import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CommandRule;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.args.Rawable;
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
 * <p><b>The command policy.</b> The methods follow the compressor's {@link CommandPolicy}
 * ({@link CompressionConfig#commandPolicy()}), the same one the Lettuce integration and the Spring template follow:
 * the values of the {@code SET} family ({@link #set}, {@link #setex}, {@link #setGet}, {@link #mset}) are compressed,
 * as GLIDE compresses them; {@link #getSet} sends its new value plain, as GLIDE does; hash values ({@link #hset})
 * are compressed only when {@link CompressionConfig.Builder#compressHashValues hash compression is opted in}, and sent
 * plain otherwise. A {@code SET} whose {@link SetParams} carry a condition that compares the given value with the
 * stored bytes ({@code IFEQ}, {@code IFNE} and the digest forms) is refused with {@link CommandRefusedException}
 * before anything is sent. Every read decodes any value that carries the header, whatever wrote it.
 *
 * <p><b>{@link #commands()} is outside the policy.</b> It is the wrapped client itself: what it sends goes out as
 * given and what it returns is not decoded. Use it for everything the server compares, orders or edits (set and
 * sorted-set members, list elements, scripts, counters, {@code APPEND}, bit operations): there the bytes must be the
 * application's own, so do not pass them through {@link ValueCompressor#compress(byte[])}. To read a value written
 * by this class through it, call {@code values.decompress(reply)}. Nothing there is refused, so the application
 * keeps the policy's other limits itself: {@code SORT ... BY weight_*} through {@code commands()} sorts by the
 * stored bytes of the weight keys, which are compressed when this class wrote them (keep weight keys plain: write
 * them through {@code commands()}); scripts that read a value this class wrote get its compressed bytes.
 *
 * <p>Jedis has no codec hook, so this class does what a Jedis user would otherwise write around each command, with
 * {@code null} (missing keys and fields) passed through. Keys and hash field names are never compressed. Pipelines
 * and transactions use the client directly, with the same rules: {@code values.compress(v)} only for the values of
 * the {@code SET} family (and of hashes when opted in), {@code values.decompress(r)} for what they read.
 *
 * <p>Reads fail with {@link DecompressionLimitException} for a value that would decompress past the configured
 * maximum; the client stays usable.
 *
 * <p><b>Thread safety:</b> as thread-safe as the client it wraps ({@code RedisClient} and {@code UnifiedJedis} are,
 * {@code Jedis} is not). <b>Allocation:</b> the compressed value on writes (none when a value is stored as it is),
 * the decompressed values and the returned list or map on reads, besides what Jedis allocates; a {@code SET} with
 * parameters also lays the parameters out once to check them.
 */
public final class CompressingJedis {
    private final JedisBinaryCommands jedis;
    private final ValueCompressor compressor;
    private final CommandRule setRule;
    private final boolean hashValues;

    /**
     * @param jedis      the client that sends the commands
     * @param compressor the compressor, shared with every other use of the same data
     */
    public CompressingJedis(JedisBinaryCommands jedis, ValueCompressor compressor) {
        this.jedis = Objects.requireNonNull(jedis, "jedis");
        this.compressor = Objects.requireNonNull(compressor, "compressor");
        CommandPolicy policy = compressor.config().commandPolicy();
        this.setRule = policy.rule("SET");
        this.hashValues = policy.rule("HSET").action() == CommandAction.COMPRESS;
    }

    /** @return the policy the methods follow: the compressor's {@link CompressionConfig#commandPolicy()} */
    public CommandPolicy policy() {
        return compressor.config().commandPolicy();
    }

    /**
     * @return the wrapped client, for every other command: <b>outside the command policy</b> (nothing it sends is
     *         compressed or refused, nothing it returns is decoded)
     */
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

    /**
     * {@code SET key value} with options ({@code EX}, {@code NX}, {@code XX}, ...).
     * @throws CommandRefusedException if {@code params} carry a condition that compares the given value with the
     *         stored bytes ({@code IFEQ}, {@code IFNE}, {@code IFDEQ}, {@code IFDNE}); nothing is sent
     */
    public String set(byte[] key, byte[] value, SetParams params) {
        checkSet(key, value, params);
        return jedis.set(key, compressor.compress(value), params);
    }

    /**
     * {@code SET key value GET}: the new value compressed (as GLIDE does for {@code SET ... GET}).
     * @return the old value, decompressed; {@code null} if the key did not exist
     */
    public byte[] setGet(byte[] key, byte[] value) {
        return in(jedis.setGet(key, compressor.compress(value)));
    }

    /**
     * {@code SET key value GET} with options.
     * @return the old value, decompressed; {@code null} if the key did not exist
     * @throws CommandRefusedException as {@link #set(byte[], byte[], SetParams)}
     */
    public byte[] setGet(byte[] key, byte[] value, SetParams params) {
        checkSet(key, value, params);
        return in(jedis.setGet(key, compressor.compress(value), params));
    }

    /**
     * {@code GETSET key value}: the new value is sent <b>plain</b>, as GLIDE sends it (GLIDE leaves {@code GETSET}
     * out of its compressed scope); the old value is decompressed.
     * @return the old value; {@code null} if the key did not exist
     */
    public byte[] getSet(byte[] key, byte[] value) {
        return in(jedis.getSet(key, value));
    }

    private void checkSet(byte[] key, byte[] value, SetParams params) {
        if (params == null) {
            return;
        }
        CommandArguments laid = new CommandArguments(Protocol.Command.SET).addParams(params);
        List<byte[]> args = new ArrayList<>(laid.size() + 1);
        args.add(key);
        args.add(value);
        boolean first = true;
        for (Rawable r : laid) {
            if (!first) {
                args.add(r.getRaw());
            }
            first = false;
        }
        CommandRefusedException refused = setRule.refusalFor(args);
        if (refused != null) {
            throw refused;
        }
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

    private byte[] hashValue(byte[] value) {
        return hashValues ? compressor.compress(value) : value;
    }

    /**
     * {@code HSET key field value}: the value compressed only when hash compression is opted in
     * ({@link CompressionConfig#compressHashValues()}), sent plain otherwise.
     */
    public long hset(byte[] key, byte[] field, byte[] value) {
        return jedis.hset(key, field, hashValue(value));
    }

    /** {@code HSET key field value [field value ...]}: values as {@link #hset(byte[], byte[], byte[])}. */
    public long hset(byte[] key, Map<byte[], byte[]> fields) {
        if (!hashValues) {
            return jedis.hset(key, fields);
        }
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
