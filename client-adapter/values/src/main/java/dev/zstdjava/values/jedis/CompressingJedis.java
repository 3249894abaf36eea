package dev.zstdjava.values.jedis;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CommandAction;
import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CommandRule;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.lines.ClientLines;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.args.Rawable;
import redis.clients.jedis.commands.JedisBinaryCommands;
import redis.clients.jedis.params.GetExParams;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.JedisByteHashMap;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
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
 * <p><b>Adaptive mode.</b> Made with an {@link AdaptiveCompressor} ({@link #CompressingJedis(JedisBinaryCommands,
 * AdaptiveCompressor)}), every value the policy compresses is written by {@link AdaptiveCompressor#compress(byte[],
 * byte[])} with its key, so each key pattern gets the option its values have shown to suit the goal: the key of
 * {@code SET}, {@code SETEX} and {@code SET ... GET}, each value's own key in {@code MSET}, and the hash's key (not
 * the field) in {@code HSET}. The policy, the refusals and the reads are those of the fixed mode; reads go through
 * {@link AdaptiveCompressor#reader()}, so values a pattern's dictionary option wrote need a reader with that
 * pattern's manager. {@link #adaptive()}{@code .snapshot()} shows the decisions.
 *
 * <p><b>Failures are Jedis's.</b> Arguments Jedis refuses (a null key, field or value, a null {@code SetParams}, map
 * or array, an odd number of {@code MSET} arguments) are handed to it as given, so each fails with the exception it
 * throws on Jedis, before anything is sent and with nothing compressed; what the server refuses fails with Jedis's
 * {@code JedisDataException}. Reads fail with {@link DecompressionLimitException} for a value that would decompress
 * past the configured maximum; the client stays usable. A {@code Jedis} in {@code MULTI}, or in a pipeline with
 * replies pending, refuses the calls with its {@link IllegalStateException} (its message), as it refuses its own,
 * and nothing is sent; Jedis has no public way to ask for that state, so a write asks Jedis's own check (its
 * protected {@code checkIsInMultiOrPipeline()}) before compressing, and such a write is neither compressed nor
 * counted.
 *
 * <p><b>The counters count what was compressed for sending.</b> A write's values are compressed, and counted in
 * the compressor's {@link ValueCompressor#stats() statistics} (in the adaptive mode, in its per-option writes and
 * its samples), before the command is sent: a write the server then refuses ({@code WRONGTYPE}, {@code OOM},
 * {@code READONLY}), a write that never reaches it (a broken connection) and a {@code SET ... NX} or {@code XX} the
 * server does not apply are counted all the same. A write refused before sending (by the policy, by Jedis's
 * argument checks, or in {@code MULTI} or a pipeline, above) is not.
 *
 * <p><b>Replies are Jedis's.</b> The lists and maps returned ({@link #mget}, {@link #hmget}, {@link #hvals},
 * {@link #hgetAll}) are of the class Jedis returns, as mutable as Jedis's, in its order, with {@code null} where it
 * has one; an empty one is the one Jedis returned ({@code hgetAll} of a missing key: Jedis's immutable empty map).
 *
 * <p><b>Thread safety:</b> as thread-safe as the client it wraps ({@code RedisClient} and {@code UnifiedJedis} are,
 * {@code Jedis} is not). <b>Allocation:</b> the compressed value on writes (none when a value is stored as it is),
 * the decompressed values and the returned list or map on reads, besides what Jedis allocates; each write also
 * makes a small array of its arguments for the catalogue's decision, and a {@code SET} with parameters lays them
 * out once as Jedis sends them. In the adaptive mode a sampled write also allocates each candidate option's stored
 * form ({@link AdaptiveCompressor} says how often), on the calling thread.
 *
 * <p><b>The catalogue decides.</b> Each method only translates its call into the command it sends and that
 * command's arguments; what is compressed, sent plain or refused comes from the policy's {@link CommandRule} for
 * the command ({@code refusalFor}, {@code action}, {@code isValue}).
 *
 * <p><b>Jedis lines:</b> works on the lines of {@code docs/support.md}, oldest the one Spring Boot 3.5 manages. A
 * {@code SetParams} condition ({@code IFEQ} and the others) exists only on the newer lines; there it is refused as
 * above. On an older Jedis the constructor fails with {@link UnsupportedOperationException} naming the range.
 */
public final class CompressingJedis {
    /**
     * What an older Jedis than the range lacks, looked up once: {@code HSetExParams} (6.0 added the hash field
     * commands {@code HSETEX}/{@code HGETEX}/{@code HGETDEL}, which the catalogue classifies); {@code null} when present.
     */
    private static final String MISSING = ClientLines.present(Protocol.class, "redis.clients.jedis.params.HSetExParams")
            ? null : "redis.clients.jedis.params.HSetExParams";

    /**
     * Jedis's own check that a {@code Jedis} is neither in {@code MULTI} nor in a pipeline with replies pending (the
     * protected {@code checkIsInMultiOrPipeline()} every command of the supported lines calls before sending; Jedis
     * has no public way to ask), looked up once; null where it cannot be reached (a security manager, a Jedis without
     * it): the writes then compress first and Jedis refuses them after, as documented.
     */
    private static final MethodHandle JEDIS_STATE_CHECK = jedisStateCheck();

    private static MethodHandle jedisStateCheck() {
        try {
            Method m = Jedis.class.getDeclaredMethod("checkIsInMultiOrPipeline");
            m.setAccessible(true);
            return MethodHandles.lookup().unreflect(m);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private final JedisBinaryCommands jedis;
    /** whether {@link #jedis} is a {@code Jedis} whose state {@link #JEDIS_STATE_CHECK} checks before a write */
    private final boolean checksState;
    /** what the reads decompress with (in adaptive mode, the adaptive compressor's reader) */
    private final ValueCompressor compressor;
    /** the adaptive compressor, or null in the fixed mode */
    private final AdaptiveCompressor adaptive;
    /** how each value the policy compresses is written: one instance, made here */
    private final Writer writer;
    /** the catalogue's rules for the commands this class sends (by Jedis's command names) */
    private final CommandRule set;
    private final CommandRule setex;
    private final CommandRule getset;
    private final CommandRule mset;
    private final CommandRule hset;

    /**
     * @param jedis      the client that sends the commands
     * @param compressor the compressor, shared with every other use of the same data
     * @throws UnsupportedOperationException on a Jedis older than the supported range (the message names it)
     */
    public CompressingJedis(JedisBinaryCommands jedis, ValueCompressor compressor) {
        this(jedis, Objects.requireNonNull(compressor, "compressor"), null);
    }

    /**
     * The adaptive mode: each value the policy compresses is written with the option of its key's pattern (see the
     * class comment); the policy is {@code adaptive.config().commandPolicy()}.
     * @param jedis    the client that sends the commands
     * @param adaptive the adaptive compressor, shared with every other writer of the same keys
     * @throws UnsupportedOperationException on a Jedis older than the supported range (the message names it)
     */
    public CompressingJedis(JedisBinaryCommands jedis, AdaptiveCompressor adaptive) {
        this(jedis, Objects.requireNonNull(adaptive, "adaptive").reader(), adaptive);
    }

    private CompressingJedis(JedisBinaryCommands jedis, ValueCompressor compressor, AdaptiveCompressor adaptive) {
        if (MISSING != null) {
            throw ClientLines.unsupported("CompressingJedis", ClientLines.JEDIS, Protocol.class, MISSING);
        }
        this.jedis = Objects.requireNonNull(jedis, "jedis");
        this.checksState = JEDIS_STATE_CHECK != null && jedis instanceof Jedis;
        this.compressor = compressor;
        this.adaptive = adaptive;
        this.writer = adaptive == null ? (key, value) -> compressor.compress(value) : adaptive::compress;
        CommandPolicy policy = compressor.config().commandPolicy();
        this.set = policy.rule(Protocol.Command.SET.name());
        this.setex = policy.rule(Protocol.Command.SETEX.name());
        this.getset = policy.rule(Protocol.Command.GETSET.name());
        this.mset = policy.rule(Protocol.Command.MSET.name());
        this.hset = policy.rule(Protocol.Command.HSET.name());
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

    /**
     * @return the compressor doing the work: in the fixed mode the one given, in the adaptive mode the one the reads
     *         decompress with ({@link AdaptiveCompressor#reader()})
     */
    public ValueCompressor compressor() {
        return compressor;
    }

    /**
     * @return the adaptive compressor writing the values (its {@code snapshot()} lists the decisions), or null in the
     *         fixed mode
     */
    public AdaptiveCompressor adaptive() {
        return adaptive;
    }

    /**
     * Writes one value the policy compresses, given its key: the fixed compressor ignores the key, the adaptive one
     * takes the key's pattern. Thread-safe as the compressors are; allocates only the stored form.
     */
    @FunctionalInterface
    private interface Writer {
        byte[] write(byte[] key, byte[] value);
    }

    private byte[] in(byte[] stored) {
        return stored == null ? null : compressor.decompress(stored);
    }

    // An empty reply is Jedis's own (nothing to decode): the same class and mutability as on Jedis. A non-empty one is
    // copied, never decoded in place: a reply may be shared (Jedis's client-side cache hands out its cached one).
    private List<byte[]> in(List<byte[]> stored) {
        if (stored.isEmpty()) {
            return stored;
        }
        List<byte[]> out = new ArrayList<>(stored.size());
        for (byte[] s : stored) {
            out.add(in(s));
        }
        return out;
    }

    /**
     * The catalogue's decision for one command: its refusal thrown, or, when the rule compresses, the value
     * arguments ({@link CommandRule#isValue}) compressed in place, each by the {@link Writer} with its key: the
     * argument before it for key-value pairs ({@code MSET}), else the command's key (a hash's key for {@code HSET}).
     * Arguments with a null are left as given, for Jedis to refuse with its own exception before sending anything
     * (nothing is compressed or counted for them).
     * @param rule the command's rule
     * @param args the arguments after the command's name, as the server would receive them; changed in place
     * @return whether the rule's compression applied (some of {@code args} may then be compressed): false when the
     *         rule does not compress, or an argument is null
     */
    private boolean decide(CommandRule rule, byte[][] args) {
        for (byte[] arg : args) {
            if (arg == null) {
                return false;
            }
        }
        List<byte[]> words = Arrays.asList(args);
        CommandRefusedException refused = rule.refusalFor(words);
        if (refused != null) {
            throw refused;
        }
        if (rule.action() != CommandAction.COMPRESS) {
            return false;
        }
        if (checksState) {
            checkJedisState();
        }
        boolean pairs = rule.valueSlots() == CommandRule.ValueSlots.ODD;
        for (int i = 0; i < args.length; i++) {
            if (rule.isValue(words, i)) {
                args[i] = writer.write(pairs ? args[i - 1] : args[0], args[i]);
            }
        }
        return true;
    }

    /**
     * Throws what Jedis throws for a command while the {@code Jedis} is in {@code MULTI} or in a pipeline with replies
     * pending ({@link IllegalStateException}, its message), before any value is compressed: so such a write is
     * neither compressed nor counted, and fails as on Jedis with nothing sent.
     */
    private void checkJedisState() {
        try {
            JEDIS_STATE_CHECK.invoke((Jedis) jedis);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) { // the method declares no checked exception
            throw new IllegalStateException(e);
        }
    }

    // The arguments of SET key value [params...]: params laid out as Jedis sends them.
    private static byte[][] setArgs(byte[] key, byte[] value, SetParams params, boolean get) {
        CommandArguments laid = new CommandArguments(Protocol.Command.SET).key(key).add(value);
        if (params != null) {
            laid.addParams(params);
        }
        if (get) {
            laid.add(Protocol.Keyword.GET);
        }
        // by the iterator: CommandArguments.get(int) is newer than Jedis 6.0
        byte[][] args = new byte[laid.size() - 1][];
        Iterator<Rawable> words = laid.iterator();
        words.next(); // SET
        for (int i = 0; i < args.length; i++) {
            args[i] = words.next().getRaw();
        }
        return args;
    }

    /** {@code SET key value}. */
    public String set(byte[] key, byte[] value) {
        byte[][] a = {key, value};
        decide(set, a);
        return jedis.set(a[0], a[1]);
    }

    /**
     * {@code SET key value} with options ({@code EX}, {@code NX}, {@code XX}, ...).
     * @throws CommandRefusedException if {@code params} carry a condition that compares the given value with the
     *         stored bytes ({@code IFEQ}, {@code IFNE}, {@code IFDEQ}, {@code IFDNE}); nothing is sent
     */
    public String set(byte[] key, byte[] value, SetParams params) {
        if (params == null) { // Jedis refuses it before sending: nothing to compress
            return jedis.set(key, value, params);
        }
        byte[][] a = setArgs(key, value, params, false);
        decide(set, a);
        return jedis.set(a[0], a[1], params);
    }

    /**
     * {@code SET key value GET}: the new value compressed (as GLIDE does for {@code SET ... GET}).
     * @return the old value, decompressed; {@code null} if the key did not exist
     */
    public byte[] setGet(byte[] key, byte[] value) {
        byte[][] a = setArgs(key, value, null, true);
        decide(set, a);
        return in(jedis.setGet(a[0], a[1]));
    }

    /**
     * {@code SET key value GET} with options.
     * @return the old value, decompressed; {@code null} if the key did not exist
     * @throws CommandRefusedException as {@link #set(byte[], byte[], SetParams)}
     */
    public byte[] setGet(byte[] key, byte[] value, SetParams params) {
        if (params == null) { // Jedis refuses it before sending: nothing to compress
            return jedis.setGet(key, value, params);
        }
        byte[][] a = setArgs(key, value, params, true);
        decide(set, a);
        return in(jedis.setGet(a[0], a[1], params));
    }

    /**
     * {@code GETSET key value}: the new value is sent <b>plain</b>, as GLIDE sends it (GLIDE leaves {@code GETSET}
     * out of its compressed scope); the old value is decompressed.
     * @return the old value; {@code null} if the key did not exist
     */
    public byte[] getSet(byte[] key, byte[] value) {
        byte[][] a = {key, value};
        decide(getset, a);
        return in(jedis.getSet(a[0], a[1]));
    }

    /** {@code SETEX key seconds value}. */
    public String setex(byte[] key, long seconds, byte[] value) {
        byte[][] a = {key, Protocol.toByteArray(seconds), value};
        decide(setex, a);
        return jedis.setex(a[0], seconds, a[2]);
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

    /**
     * {@code MSET key value [key value ...]}: the values (every second argument) are compressed. An odd number of
     * arguments (or a null array) is handed to Jedis as given, so it fails as Jedis fails (on the supported lines with
     * {@link ArrayIndexOutOfBoundsException}, before anything is sent); nothing is compressed or counted for it.
     */
    public String mset(byte[]... keysAndValues) {
        if (keysAndValues == null || keysAndValues.length % 2 != 0) {
            return jedis.mset(keysAndValues);
        }
        byte[][] a = keysAndValues.clone();
        decide(mset, a);
        return jedis.mset(a);
    }

    /**
     * {@code HSET key field value}: the value compressed only when hash compression is opted in
     * ({@link CompressionConfig#compressHashValues()}), sent plain otherwise.
     */
    public long hset(byte[] key, byte[] field, byte[] value) {
        byte[][] a = {key, field, value};
        decide(hset, a);
        return jedis.hset(a[0], a[1], a[2]);
    }

    /** {@code HSET key field value [field value ...]}: values as {@link #hset(byte[], byte[], byte[])}. */
    public long hset(byte[] key, Map<byte[], byte[]> fields) {
        if (fields == null) { // Jedis refuses it before sending
            return jedis.hset(key, fields);
        }
        byte[][] a = new byte[1 + 2 * fields.size()][];
        a[0] = key;
        int i = 1;
        for (Map.Entry<byte[], byte[]> e : fields.entrySet()) {
            a[i++] = e.getKey();
            a[i++] = e.getValue();
        }
        if (!decide(hset, a)) {
            return jedis.hset(key, fields);
        }
        Map<byte[], byte[]> stored = new LinkedHashMap<>();
        for (i = 1; i < a.length; i += 2) {
            stored.put(a[i], a[i + 1]);
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

    /**
     * @return {@code HGETALL key} with the values decompressed (field names as Jedis returns them), in a map that
     *         finds a field by its bytes, as the one Jedis returns ({@code get(field)}, {@code containsKey(field)}),
     *         in Jedis's order; for a missing key Jedis's own empty map (immutable, as on Jedis)
     */
    public Map<byte[], byte[]> hgetAll(byte[] key) {
        Map<byte[], byte[]> stored = jedis.hgetAll(key);
        if (stored.isEmpty()) {
            return stored;
        }
        Map<byte[], byte[]> out = new JedisByteHashMap();
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
