package dev.zstdjava.values;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How dictionaries are kept in a Valkey/Redis server: the one layout every server-backed {@link DictionaryStore}
 * writes ({@code LettuceDictionaryStore} of {@code zstd-java-lettuce}, {@code SpringDictionaryStore} of the Spring
 * package), so that clients on any of them with the same prefix share one set of dictionaries, one publication
 * counter and one training lease. Every key starts with one reserved prefix holding exactly one hash tag, so in a
 * cluster they all live in one slot:
 * <ul>
 *   <li>{@code <prefix>dict:<id>}: the dictionary's bytes, written once;</li>
 *   <li>{@code <prefix>seq}: the publication counter, which orders "newest" for every client;</li>
 *   <li>{@code <prefix>index}: a hash from id to {@code "<sequence> <size>"};</li>
 *   <li>{@code <prefix>lease}: the training lease ({@code SET NX PX}, released by {@link #RELEASE_SCRIPT});</li>
 *   <li>the channel {@code <prefix>published}: each publication is announced there, the id as message.</li>
 * </ul>
 * Publishing runs {@link #PUBLISH_SCRIPT}, which writes the entry, the counter and the index at once. This class holds
 * the keys, the scripts, the parsing of what the server returns and the size checks; a store sends the commands over
 * its own client.
 *
 * <p><b>Thread safety:</b> immutable. <b>Allocation:</b> each key method returns a new array.
 */
public final class ServerDictionaryLayout {
    /** The default key prefix; its hash tag keeps every dictionary key in one cluster slot. */
    public static final String DEFAULT_PREFIX = "zstd-java:dict:{zstd-java-dictionaries}:";
    /** The default largest entry read or written, in bytes (1 MiB). */
    public static final int DEFAULT_MAX_DICTIONARY_SIZE = 1 << 20;
    /** The smallest accepted entry limit, in bytes (zstd's smallest dictionary). */
    public static final int MIN_MAX_DICTIONARY_SIZE = 256;

    /**
     * Publishes unless published: {@code KEYS} = entry, index, counter; {@code ARGV} = dictionary, id, channel.
     * Returns the index entry ({@code "<sequence> <size>"}, {@code "0 0"} for an entry without one) when the id holds
     * these bytes afterwards, nil when it holds other bytes.
     */
    public static final String PUBLISH_SCRIPT = """
            local existing = redis.call('GET', KEYS[1])
            if existing then
              if existing == ARGV[1] then return redis.call('HGET', KEYS[2], ARGV[2]) or '0 0' end
              return false
            end
            redis.call('SET', KEYS[1], ARGV[1], 'NX')
            local seq = redis.call('INCR', KEYS[3])
            local meta = seq .. ' ' .. string.len(ARGV[1])
            redis.call('HSET', KEYS[2], ARGV[2], meta)
            redis.call('PUBLISH', ARGV[3], ARGV[2])
            return meta
            """;
    /** Releases the lease if held by the owner: {@code KEYS} = lease; {@code ARGV} = owner. Returns 1 or 0. */
    public static final String RELEASE_SCRIPT = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
            return 0
            """;

    private final String prefix;
    private final int maxDictionarySize;
    private final String sizeSetting;

    /**
     * @param prefix            the reserved key prefix (see {@link #checkPrefix})
     * @param maxDictionarySize the largest entry read or written, in bytes (256 to
     *                          {@link DictionaryManager#MAX_DICTIONARY_SIZE_LIMIT})
     * @param sizeSetting       the store setting that holds the limit, named in refusals
     * @throws IllegalArgumentException if the prefix or the limit is not valid
     */
    public ServerDictionaryLayout(String prefix, int maxDictionarySize, String sizeSetting) {
        this.prefix = checkPrefix(prefix);
        this.maxDictionarySize = checkMaxDictionarySize(maxDictionarySize);
        this.sizeSetting = Objects.requireNonNull(sizeSetting, "sizeSetting");
    }

    /**
     * @return {@code prefix}, if it holds exactly one non-empty hash tag ({@code {...}})
     * @throws IllegalArgumentException otherwise
     */
    public static String checkPrefix(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        int open = prefix.indexOf('{');
        int close = prefix.indexOf('}');
        if (open < 0 || close < open + 2 || prefix.indexOf('{', open + 1) >= 0 || prefix.indexOf('}', close + 1) >= 0) {
            throw new IllegalArgumentException("key prefix \"" + prefix + "\" must hold exactly one non-empty hash tag"
                    + " such as {zstd-java-dictionaries}, so that a cluster keeps its keys in one slot");
        }
        return prefix;
    }

    /**
     * @return {@code bytes}, if at least {@value #MIN_MAX_DICTIONARY_SIZE} and at most
     *         {@link DictionaryManager#MAX_DICTIONARY_SIZE_LIMIT} (a larger entry no manager could use)
     * @throws IllegalArgumentException otherwise
     */
    public static int checkMaxDictionarySize(int bytes) {
        if (bytes < MIN_MAX_DICTIONARY_SIZE) {
            throw new IllegalArgumentException("maxDictionarySize " + bytes + " is below " + MIN_MAX_DICTIONARY_SIZE);
        }
        if (bytes > DictionaryManager.MAX_DICTIONARY_SIZE_LIMIT) {
            throw new IllegalArgumentException("maxDictionarySize " + bytes + " is above "
                    + DictionaryManager.MAX_DICTIONARY_SIZE_LIMIT + " (DictionaryManager.MAX_DICTIONARY_SIZE_LIMIT),"
                    + " the largest dictionary a manager uses");
        }
        return bytes;
    }

    /** @return the key prefix */
    public String prefix() {
        return prefix;
    }

    private byte[] key(String suffix) {
        return (prefix + suffix).getBytes(StandardCharsets.UTF_8);
    }

    /** @return the key of dictionary {@code id}'s bytes */
    public byte[] entryKey(long id) {
        return key("dict:" + id);
    }

    /**
     * @return where dictionary {@code id}'s bytes are, for messages ({@link DictionaryStore#entryLocation}):
     *         {@code key <prefix>dict:<id>}
     */
    public String entryLocation(long id) {
        return "key " + prefix + "dict:" + id;
    }

    /** @return the key of the publication counter */
    public byte[] counterKey() {
        return key("seq");
    }

    /** @return the key of the index hash */
    public byte[] indexKey() {
        return key("index");
    }

    /** @return the key of the training lease */
    public byte[] leaseKey() {
        return key("lease");
    }

    /** @return the channel publications are announced on */
    public byte[] channel() {
        return key("published");
    }

    /** @return {@code id} as the index field and script argument (decimal ASCII) */
    public static byte[] idArgument(long id) {
        return Long.toString(id).getBytes(StandardCharsets.US_ASCII);
    }

    /** @return the entries of the index hash this layout writes, oldest first; other fields are left out */
    public List<DictionaryInfo> list(Map<byte[], byte[]> index) {
        List<DictionaryInfo> out = new ArrayList<>(index == null ? 0 : index.size());
        if (index != null) {
            for (Map.Entry<byte[], byte[]> e : index.entrySet()) {
                DictionaryInfo info = parse(e.getKey(), e.getValue());
                if (info != null) {
                    out.add(info);
                }
            }
        }
        out.sort(Comparator.comparingLong(DictionaryInfo::sequence));
        return out;
    }

    /** @return the index entry, or null when it is not one this layout writes */
    private static DictionaryInfo parse(byte[] field, byte[] value) {
        try {
            long id = Long.parseLong(new String(field, StandardCharsets.US_ASCII));
            String[] meta = new String(value, StandardCharsets.US_ASCII).split(" ");
            if (meta.length != 2) {
                return null;
            }
            long seq = Long.parseLong(meta[0]);
            int size = Integer.parseInt(meta[1]);
            if (id <= 0 || id > 0xFFFFFFFFL || seq < 0 || size < 0) {
                return null;
            }
            return new DictionaryInfo(id, seq, size);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Checks an entry's stored length ({@code STRLEN}) before it is read.
     *
     * @return whether there is an entry to read (a length above 0)
     * @throws DictionaryEntryRefusedException if the entry is larger than the limit: it is not read
     */
    public boolean readable(long id, Long length) {
        if (length == null || length == 0) {
            return false;
        }
        if (length > maxDictionarySize) {
            throw new DictionaryEntryRefusedException(id, "dictionary entry " + prefix + "dict:" + id + " holds "
                    + length + " bytes, above the " + maxDictionarySize + "-byte limit (" + sizeSetting
                    + "); not read");
        }
        return true;
    }

    /**
     * @return {@code read}, the entry as read
     * @throws DictionaryEntryRefusedException if it grew past the limit between the length check and the read
     */
    public byte[] checkRead(long id, byte[] read) {
        if (read != null && read.length > maxDictionarySize) {
            throw new DictionaryEntryRefusedException(id, "dictionary entry " + prefix + "dict:" + id + " grew to "
                    + read.length + " bytes while being read, above the " + maxDictionarySize + "-byte limit");
        }
        return read;
    }

    /** @throws IllegalArgumentException if {@code dictionary} is larger than the limit (nothing is written) */
    public void checkPublishable(byte[] dictionary) {
        Objects.requireNonNull(dictionary, "dictionary");
        if (dictionary.length > maxDictionarySize) {
            throw new IllegalArgumentException("dictionary of " + dictionary.length + " bytes is above the "
                    + maxDictionarySize + "-byte limit");
        }
    }

    /**
     * @param reply what {@link #PUBLISH_SCRIPT} returned
     * @return the entry as published
     * @throws DictionaryCollisionException if another dictionary is published under {@code id}
     */
    public DictionaryInfo published(long id, byte[] reply, int length) {
        if (reply == null) {
            throw new DictionaryCollisionException(id);
        }
        DictionaryInfo info = parse(idArgument(id), reply);
        return info != null ? info : new DictionaryInfo(id, 0, length);
    }

    /**
     * @param counter the publication counter's value, or null when nothing was published
     * @return the counter
     * @throws IllegalStateException if it is not a number
     */
    public long version(byte[] counter) {
        if (counter == null) {
            return 0;
        }
        try {
            return Long.parseLong(new String(counter, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("the publication counter " + prefix + "seq is not a number", e);
        }
    }
}
