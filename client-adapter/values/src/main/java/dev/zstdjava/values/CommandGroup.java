package dev.zstdjava.values;

/**
 * The family a command belongs to in {@link CommandPolicy}: one line of the table in docs/command-policy.md of what each client
 * compresses, sends plain or refuses.
 */
public enum CommandGroup {
    /** {@code SET}, {@code SETNX}, {@code SETEX}, {@code PSETEX}, {@code MSET}, {@code MSETNX}: GLIDE's scope. */
    STRING_WRITE("string values written whole (GLIDE's compressed scope)"),
    /** Reads of string values ({@code GET}, {@code MGET}, ...) and {@code GETSET}, whose new value GLIDE sends plain. */
    STRING_READ("string reads; GETSET's and MSETEX's values are sent plain, as GLIDE does"),
    /** Commands that read, compare or edit a string's bytes in the server. */
    STRING_EDIT("string commands the server runs on the stored bytes"),
    /** Hash values of {@code HSET}, {@code HSETNX}, {@code HMSET}, {@code HSETEX}. */
    HASH_WRITE("hash values (compressed only when opted in)"),
    /** {@code HINCRBY}, {@code HINCRBYFLOAT}, {@code HSTRLEN}: run on a hash value's bytes. */
    HASH_EDIT("hash commands the server runs on a value's bytes (refused when hash values are compressed)"),
    /** Every other hash command: fields, reads, expiry; {@code HIMPORT}, whose values are sent plain. */
    HASH_OTHER("hash fields, reads and field expiry; HIMPORT's values are sent plain"),
    /** Set, sorted-set, list, stream, geo, HyperLogLog, array and vector-set commands. */
    MEMBERS("set, sorted-set, list, stream, geo, HyperLogLog, array and vector-set elements: the server compares,"
            + " orders or searches them"),
    /** {@code EVAL}, {@code FCALL} and the script and function administration. */
    SCRIPTS("script and function arguments: code sees them as sent"),
    /** {@code PUBLISH} and the subscriptions. */
    PUBSUB("pub/sub messages: subscribers see them as sent"),
    /**
     * Commands on keys as a whole, transactions and scans; {@code DELEX} (refused with a condition) and
     * {@code SORT}/{@code SORT_RO} (refused with a {@code BY} pattern that reads stored values).
     */
    KEYSPACE("whole keys, transactions, scans and SORT: no value argument"),
    /** Connection, server and cluster administration. */
    SERVER("connection, server and cluster administration: no value argument"),
    /** Commands of modules ({@code JSON.*}, {@code FT.*}, {@code BF.*}, ...), on their own data types. */
    MODULES("module commands (JSON, search, probabilistic, time series): their own types, sent plain"),
    /** A command the policy does not know (other modules' commands, custom or newer commands). */
    UNKNOWN("commands the policy does not know (other modules, custom or newer commands): sent plain");

    private final String description;

    CommandGroup(String description) {
        this.description = description;
    }

    /** @return one line saying what the family is and why it is treated so */
    public String description() {
        return description;
    }
}
