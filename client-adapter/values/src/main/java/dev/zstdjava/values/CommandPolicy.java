package dev.zstdjava.values;

import dev.zstdjava.values.CommandRule.ValueSlots;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which commands a compressing client compresses, sends plain or refuses: one policy, used by every integration
 * (Lettuce, Spring, Jedis; Redisson's codec documents where it cannot follow it).
 *
 * <p><b>Default scope: GLIDE's.</b> Valkey GLIDE compresses the values of {@code SET}, {@code MSET}, {@code MSETNX},
 * {@code SETEX}, {@code PSETEX} and {@code SETNX}, sends {@code GETSET}'s new value plain and refuses the string,
 * counter and bit commands listed in {@link CommandGroup#STRING_EDIT} (its {@code glide-core/src/compression.rs} and
 * {@code request_type.rs}, release 2.5). This policy does the same, and also refuses {@code SET ... IFEQ} (and the
 * other conditions that compare a given value with the stored bytes, also on {@code DELEX}) and {@code DELIFEQ},
 * which GLIDE sends: the server would compare plain bytes with compressed ones and silently answer "not equal";
 * {@code STRALGO}, {@code DIGEST} and {@code INCREX}, which read the stored bytes like the refused {@code LCS},
 * {@code GETRANGE} and {@code INCR}; and {@code SORT}/{@code SORT_RO} with a {@code BY} pattern that sorts by stored
 * values (string values, and hash values when they are compressed): the order would be that of the compressed
 * bytes.
 *
 * <p><b>Arguments decide too.</b> A command's name gives its {@link CommandRule}; for the few commands whose
 * options can refuse them ({@link CommandRule#checksArguments()}: {@code SET}, {@code DELEX}, {@code SORT},
 * {@code SORT_RO}) a client passes the arguments, as the application's bytes, to {@link CommandRule#refusalFor(List)}.
 * Every integration does so however the command was written (Lettuce's command types, a custom keyword, an argument
 * added as a string, bytes, characters or a value).
 *
 * <p><b>The one catalogue.</b> This class and {@link CommandRule} decide every command for every client; the
 * integrations only translate their client's calls into command names and argument words (Spring's operations in
 * one package-private table), and name no command the catalogue lacks ({@code CommandCatalogueSourceTest}). Adding
 * a command is one entry here plus its test in {@code CommandPolicyTest} (docs/architecture.md, "Where to add things").
 *
 * <p><b>Opt-in: hash values</b> ({@link #withHashValues()}, or {@link CompressionConfig.Builder#compressHashValues}):
 * the values of {@code HSET}, {@code HSETNX}, {@code HMSET} and {@code HSETEX} are compressed, and {@code HINCRBY},
 * {@code HINCRBYFLOAT} and {@code HSTRLEN} are refused. GLIDE does not decompress {@code HGET} replies outside a
 * batch, so a GLIDE reader gets such values as stored.
 *
 * <p><b>Never compressed:</b> keys, hash fields, set and sorted-set members, list elements, stream entries, geo
 * members, script and function arguments, pub/sub messages, and every command the policy does not know (custom and
 * module commands): anything the server compares, orders, searches or hands to code goes out exactly as the
 * application's codec encoded it. {@link #knownCommands()} lists every command of Valkey 9.1, of Redis 8.x as far
 * as Lettuce 7.9 sends it, and the older names those clients still send ({@code STRALGO}), with its group; module
 * commands ({@code JSON.*}, {@code FT.*}, {@code BF.*}, ...) are {@link CommandGroup#MODULES}, by prefix.
 *
 * <p><b>Scripts and functions</b> ({@code EVAL}, {@code FCALL}) are sent plain, but code that reads a stored value
 * ({@code redis.call('GET', k)}) gets the stored, compressed bytes: no client can see what a script reads.
 *
 * <p><b>Replies</b> are not governed by the policy: any value in any reply that starts with the header is decoded.
 *
 * <p>Immutable and thread-safe. {@link #rule(String)} is a map lookup; clients resolve it once per command type.
 */
public final class CommandPolicy {
    private static final List<String> SET_CONDITIONS = List.of("IFEQ", "IFNE", "IFDEQ", "IFDNE");

    private static final String[] STRING_WRITE = {"SET", "SETNX", "SETEX", "PSETEX", "MSET", "MSETNX"};
    private static final String[] STRING_READ = {"GET", "MGET", "GETEX", "GETDEL", "GETSET", "MSETEX"};
    private static final String[] HASH_WRITE = {"HSET", "HSETNX", "HMSET", "HSETEX"};
    private static final String[] HASH_EDIT = {"HINCRBY", "HINCRBYFLOAT", "HSTRLEN"};
    private static final String[] HASH_OTHER = {"HDEL", "HEXISTS", "HEXPIRE", "HEXPIREAT", "HEXPIRETIME", "HGET",
            "HGETALL", "HGETDEL", "HGETEX", "HIMPORT", "HKEYS", "HLEN", "HMGET", "HPERSIST", "HPEXPIRE", "HPEXPIREAT",
            "HPEXPIRETIME", "HPTTL", "HRANDFIELD", "HSCAN", "HTTL", "HVALS"};
    private static final String[] MEMBERS = {
            "SADD", "SCARD", "SDIFF", "SDIFFCARD", "SDIFFSTORE", "SINTER", "SINTERCARD", "SINTERSTORE", "SISMEMBER", "SMEMBERS",
            "SMISMEMBER", "SMOVE", "SPOP", "SRANDMEMBER", "SREM", "SSCAN", "SUNION", "SUNIONCARD", "SUNIONSTORE",
            "ZADD", "ZCARD", "ZCOUNT", "ZDIFF", "ZDIFFSTORE", "ZINCRBY", "ZINTER", "ZINTERCARD", "ZINTERSTORE",
            "ZLEXCOUNT", "ZMPOP", "ZMSCORE", "ZPOPMAX", "ZPOPMIN", "ZRANDMEMBER", "ZRANGE", "ZRANGEBYLEX",
            "ZRANGEBYSCORE", "ZRANGESTORE", "ZRANK", "ZREM", "ZREMRANGEBYLEX", "ZREMRANGEBYRANK", "ZREMRANGEBYSCORE",
            "ZREVRANGE", "ZREVRANGEBYLEX", "ZREVRANGEBYSCORE", "ZREVRANK", "ZSCAN", "ZSCORE", "ZUNION", "ZUNIONSTORE",
            "BZMPOP", "BZPOPMAX", "BZPOPMIN",
            "LINDEX", "LINSERT", "LLEN", "LMOVE", "LMOVEM", "LMPOP", "LPOP", "LPOS", "LPUSH", "LPUSHX", "LRANGE", "LREM", "LSET",
            "LTRIM", "RPOP", "RPOPLPUSH", "RPUSH", "RPUSHX", "BLMOVE", "BLMOVEM", "BLMPOP", "BLPOP", "BRPOP", "BRPOPLPUSH",
            "XACK", "XACKDEL", "XADD", "XAUTOCLAIM", "XCFGSET", "XCLAIM", "XDEL", "XDELEX", "XGROUP", "XINFO", "XLEN",
            "XNACK", "XPENDING", "XRANGE", "XREAD", "XREADGROUP", "XREVRANGE", "XSETID", "XTRIM",
            "GEOADD", "GEODIST", "GEOHASH", "GEOPOS", "GEORADIUS", "GEORADIUS_RO", "GEORADIUSBYMEMBER",
            "GEORADIUSBYMEMBER_RO", "GEOSEARCH", "GEOSEARCHSTORE",
            "PFADD", "PFCOUNT", "PFDEBUG", "PFMERGE", "PFSELFTEST",
            // arrays (Redis 8.8) and vector sets (Redis 8.0): elements and attributes of their own types
            "ARCOUNT", "ARDEL", "ARDELRANGE", "ARGET", "ARGETRANGE", "ARGREP", "ARINFO", "ARINSERT", "ARLASTITEMS",
            "ARLEN", "ARMGET", "ARMSET", "ARNEXT", "AROP", "ARRING", "ARSCAN", "ARSEEK", "ARSET",
            "VADD", "VCARD", "VDIM", "VEMB", "VGETATTR", "VINFO", "VISMEMBER", "VLINKS", "VRANDMEMBER", "VREM",
            "VSETATTR", "VSIM"};
    private static final String[] SCRIPTS = {"EVAL", "EVAL_RO", "EVALSHA", "EVALSHA_RO", "FCALL", "FCALL_RO",
            "SCRIPT", "FUNCTION"};
    private static final String[] PUBSUB = {"PUBLISH", "SPUBLISH", "SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE",
            "UNSUBSCRIBE", "PUNSUBSCRIBE", "SUNSUBSCRIBE", "PUBSUB"};
    private static final String[] KEYSPACE = {"COPY", "DEL", "DUMP", "EXISTS", "EXPIRE", "EXPIREAT", "EXPIRETIME",
            "KEYS", "MIGRATE", "MOVE", "OBJECT", "PERSIST", "PEXPIRE", "PEXPIREAT", "PEXPIRETIME", "PTTL",
            "RANDOMKEY", "RENAME", "RENAMENX", "RESTORE", "RESTORE-ASKING", "SCAN", "TOUCH", "TTL",
            "TYPE", "UNLINK", "WAIT", "WAITAOF", "MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH", "CLUSTERSCAN"};
    private static final String[] SERVER = {"ACL", "ASKING", "AUTH", "BGREWRITEAOF", "BGSAVE", "CLIENT", "CLUSTER",
            "COMMAND", "COMMANDLOG", "CONFIG", "DBSIZE", "DEBUG", "ECHO", "FAILOVER", "FLUSHALL", "FLUSHDB", "HELLO",
            "HOTKEYS", "INFO", "LASTSAVE", "LATENCY", "LOLWUT", "MEMORY", "MODULE", "MONITOR", "PING", "PSYNC", "QUIT",
            "READONLY", "READWRITE", "REPLCONF", "REPLICAOF", "RESET", "ROLE", "SAVE", "SELECT", "SENTINEL", "SFLUSH", "SHUTDOWN",
            "SLAVEOF", "SLOWLOG", "SWAPDB", "SYNC", "TIME"};
    /** Prefixes of the module commands ({@code JSON.SET}, {@code FT.SEARCH}, ...) of {@link CommandGroup#MODULES}. */
    private static final List<String> MODULE_PREFIXES = List.of("JSON.", "FT.", "BF.", "CF.", "TOPK.", "CMS.",
            "TDIGEST.", "TS.");

    private static final Map<String, String> STRING_EDIT = stringEdit();

    private static final CommandPolicy GLIDE = new CommandPolicy(false);
    private static final CommandPolicy WITH_HASH_VALUES = new CommandPolicy(true);

    private final boolean hashValues;
    private final Map<String, CommandRule> rules;

    private CommandPolicy(boolean hashValues) {
        this.hashValues = hashValues;
        Map<String, CommandRule> m = new TreeMap<>();
        for (String c : STRING_WRITE) {
            ValueSlots slots = switch (c) {
                case "SET", "SETNX" -> ValueSlots.SECOND;
                case "SETEX", "PSETEX" -> ValueSlots.THIRD;
                default -> ValueSlots.ODD;
            };
            m.put(c, new CommandRule(c, CommandAction.COMPRESS, CommandGroup.STRING_WRITE, slots, null,
                    c.equals("SET") ? SET_CONDITIONS : List.of()));
        }
        // DELEX key [IFEQ v|IFNE v|IFDEQ d|IFDNE d]: a DEL unless it compares
        m.put("DELEX", new CommandRule("DELEX", CommandAction.PLAIN, CommandGroup.KEYSPACE, ValueSlots.NONE,
                "a DEL unless it compares a given value or digest with the stored bytes (refused then)",
                SET_CONDITIONS, CommandRule.Check.CONDITIONS, 1, false));
        for (String c : new String[] {"SORT", "SORT_RO"}) {
            m.put(c, new CommandRule(c, CommandAction.PLAIN, CommandGroup.KEYSPACE, ValueSlots.NONE,
                    c + " orders the elements as sent; BY a pattern that reads stored values"
                            + (hashValues ? " (string or hash values)" : " (string values)") + " is refused",
                    List.of(), CommandRule.Check.SORT_BY, 1, hashValues));
        }
        STRING_EDIT.forEach((c, why) -> m.put(c, new CommandRule(c, CommandAction.REFUSE, CommandGroup.STRING_EDIT,
                ValueSlots.NONE, why, List.of())));
        for (String c : HASH_WRITE) {
            ValueSlots slots = !hashValues ? ValueSlots.NONE : switch (c) {
                case "HSETNX" -> ValueSlots.THIRD;
                case "HSETEX" -> ValueSlots.AFTER_FIELDS;
                default -> ValueSlots.EVEN_FROM_2;
            };
            m.put(c, new CommandRule(c, hashValues ? CommandAction.COMPRESS : CommandAction.PLAIN,
                    CommandGroup.HASH_WRITE, slots,
                    hashValues ? null : "hash values are sent plain unless hash compression is opted in", List.of()));
        }
        for (String c : HASH_EDIT) {
            m.put(c, new CommandRule(c, hashValues ? CommandAction.REFUSE : CommandAction.PLAIN,
                    CommandGroup.HASH_EDIT, ValueSlots.NONE, hashValues
                            ? c + " runs on a hash value's bytes, which are compressed when hash values are"
                            : "hash values are plain, so the server runs it on the application's bytes", List.of()));
        }
        plain(m, STRING_READ, CommandGroup.STRING_READ);
        plain(m, HASH_OTHER, CommandGroup.HASH_OTHER);
        plain(m, MEMBERS, CommandGroup.MEMBERS);
        plain(m, SCRIPTS, CommandGroup.SCRIPTS);
        plain(m, PUBSUB, CommandGroup.PUBSUB);
        plain(m, KEYSPACE, CommandGroup.KEYSPACE);
        plain(m, SERVER, CommandGroup.SERVER);
        this.rules = Collections.unmodifiableMap(m);
    }

    private static void plain(Map<String, CommandRule> m, String[] names, CommandGroup group) {
        for (String c : names) {
            if (m.put(c, new CommandRule(c, CommandAction.PLAIN, group, ValueSlots.NONE, null, List.of())) != null) {
                throw new AssertionError("listed twice: " + c);
            }
        }
    }

    private static Map<String, String> stringEdit() {
        Map<String, String> m = new TreeMap<>();
        m.put("APPEND", "APPEND adds bytes to the stored value, which is compressed");
        m.put("SETRANGE", "SETRANGE writes bytes at an offset of the stored value, which is compressed");
        m.put("GETRANGE", "GETRANGE returns bytes of the stored value, which is compressed");
        m.put("SUBSTR", "SUBSTR returns bytes of the stored value, which is compressed");
        m.put("STRLEN", "STRLEN returns the length of the stored value, which is compressed");
        m.put("LCS", "LCS compares the stored values, which are compressed");
        m.put("STRALGO", "STRALGO LCS (LCS under its Redis 6 name) compares the stored values, which are compressed");
        m.put("DIGEST", "DIGEST hashes the stored bytes, which are compressed: the digest is not the value's");
        for (String c : new String[] {"INCR", "INCRBY", "INCRBYFLOAT", "DECR", "DECRBY", "INCREX"}) {
            m.put(c, c + " parses the stored value as a number, and counters share the connection's keys");
        }
        for (String c : new String[] {"GETBIT", "SETBIT", "BITCOUNT", "BITPOS", "BITFIELD", "BITFIELD_RO", "BITOP"}) {
            m.put(c, c + " works on the bits of the stored value, which is compressed");
        }
        m.put("DELIFEQ", "DELIFEQ compares the given value with the stored bytes, which are compressed");
        return Collections.unmodifiableMap(m);
    }

    /** @return GLIDE's scope: the {@code SET} family's values compressed, hash values plain (the default) */
    public static CommandPolicy glide() {
        return GLIDE;
    }

    /** @return GLIDE's scope plus hash values; {@code HINCRBY}, {@code HINCRBYFLOAT} and {@code HSTRLEN} refused */
    public static CommandPolicy withHashValues() {
        return WITH_HASH_VALUES;
    }

    /** @return whether hash values are compressed */
    public boolean compressesHashValues() {
        return hashValues;
    }

    /**
     * The rule for one command. Unknown commands (modules, custom commands, names this policy has not seen) get a
     * {@link CommandAction#PLAIN} rule of group {@link CommandGroup#UNKNOWN}.
     * @param command the command's name, any case (for a container command such as {@code CONFIG GET}, the first word)
     * @return the rule; never null
     */
    public CommandRule rule(String command) {
        String name = command.toUpperCase(Locale.ROOT);
        int bar = name.indexOf('|');
        CommandRule r = rules.get(bar < 0 ? name : name.substring(0, bar));
        if (r != null) {
            return r;
        }
        for (String prefix : MODULE_PREFIXES) {
            if (name.startsWith(prefix)) {
                return new CommandRule(name, CommandAction.PLAIN, CommandGroup.MODULES, ValueSlots.NONE, null,
                        List.of());
            }
        }
        return new CommandRule(name, CommandAction.PLAIN, CommandGroup.UNKNOWN, ValueSlots.NONE, null, List.of());
    }

    /** @return whether the policy names this command (subcommands {@code A|B} count as {@code A}) */
    public boolean knows(String command) {
        return rule(command).group() != CommandGroup.UNKNOWN;
    }

    /** @return every command the policy names, upper case, with its rule, in name order */
    public Map<String, CommandRule> knownCommands() {
        return rules;
    }

    @Override
    public String toString() {
        return hashValues ? "CommandPolicy[GLIDE's scope + hash values]" : "CommandPolicy[GLIDE's scope]";
    }
}
