package dev.zstdjava.values;

import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressionDictionary;
import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdDictionary;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks dictionary bytes given by the application or read back from a {@link DictionaryStore} before they are used:
 * the size limit, zstd's dictionary format, the id the entry is published under, digesting, and a probe value that
 * must round-trip. Every refusal is recorded in the {@link DictionaryRegistry} with its reason.
 *
 * <p><b>Thread safety:</b> stateless apart from its final settings; any thread. <b>Allocation:</b> {@link #load}
 * digests the dictionary (native memory the returned entry owns) and frees the probe's contexts before it returns.
 */
final class EntryValidator {
    private static final int DICT_MAGIC = 0xEC30A437;
    private static final byte[] PROBE = ("{\"probe\":\"zstd-java dictionary check\",\"n\":12345,\"ok\":true,"
            + "\"list\":[1,2,3,4,5,6,7,8,9,10]}").getBytes(StandardCharsets.US_ASCII);

    /** Where refusals are recorded; also gives the level to digest for. */
    private final DictionaryRegistry registry;
    private final int maxDictionarySize;

    EntryValidator(DictionaryRegistry registry, int maxDictionarySize) {
        this.registry = registry;
        this.maxDictionarySize = maxDictionarySize;
    }

    int maxDictionarySize() {
        return maxDictionarySize;
    }

    /** @return the dictionary id in the header of {@code d} (little-endian, after the magic number), 0 if too short */
    static long headerId(byte[] d) {
        if (d.length < 8) {
            return 0;
        }
        return Integer.toUnsignedLong(MemorySegment.ofArray(d).get(ValueFormat.LE_INT, 4));
    }

    /** @return why these bytes cannot be the dictionary {@code id}, or null if they pass the cheap checks */
    String check(long id, byte[] bytes) {
        if (bytes.length > maxDictionarySize) {
            return bytes.length + " bytes, above the " + maxDictionarySize + "-byte limit (Builder.maxDictionarySize)";
        }
        if (bytes.length < 8 || MemorySegment.ofArray(bytes).get(ValueFormat.LE_INT, 0) != DICT_MAGIC) {
            return "not in zstd's dictionary format (no dictionary magic number)";
        }
        long inHeader = headerId(bytes);
        if (inHeader == 0) {
            return "its header records dictionary id 0 (frames could not name it)";
        }
        if (inHeader != id) {
            return "published as id " + id + " but its header says id " + inHeader;
        }
        return null;
    }

    /**
     * Checks, digests and probes the application's dictionaries; the last compresses (given mode).
     *
     * @return one entry per dictionary, sequence 1, 2, ... in the order given
     * @throws IllegalArgumentException naming the first dictionary that is not usable (those loaded before it are
     *                                  released)
     */
    List<DictionaryManager.Entry> loadGiven(List<byte[]> given) {
        List<DictionaryManager.Entry> out = new ArrayList<>(given.size());
        for (int i = 0; i < given.size(); i++) {
            byte[] d = given.get(i);
            long id = headerId(d);
            String why = check(id, d);
            DictionaryManager.Entry e = why != null ? null : load(id, i + 1, d, true);
            if (e == null) {
                for (DictionaryManager.Entry x : out) {
                    x.digests.close();
                }
                throw new IllegalArgumentException("given dictionary #" + i + " is not usable: "
                        + (why != null ? why : registry.rejection(id)));
            }
            out.add(e);
        }
        return out;
    }

    /**
     * Checks, digests and probes the dictionary {@code id}; on any failure rejects it in the registry (with the
     * reason) and returns null.
     *
     * @return the loaded entry (owning its native digests), or null
     */
    DictionaryManager.Entry load(long id, long sequence, byte[] bytes, boolean given) {
        String why = check(id, bytes);
        if (why != null) {
            registry.reject(id, why);
            return null;
        }
        ZstdDictionary dict = ZstdDictionary.of(bytes);
        ZstdDecompressionDictionary dd = null;
        try {
            dd = dict.forDecompression();
            try (ZstdCompressionDictionary cd = dict.forCompression(registry.level());
                 ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
                 ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).maxDecompressedSize(PROBE.length)
                         .build()) {
                byte[] back = d.decompress(c.compress(PROBE));
                if (!Arrays.equals(back, PROBE)) {
                    throw new IllegalStateException("a probe value did not round-trip");
                }
            }
            return new DictionaryManager.Entry(id, sequence, new DictionaryDigests(dict, dd), given);
        } catch (RuntimeException e) {
            if (dd != null) {
                dd.close();
            }
            registry.reject(id, "zstd refuses it: " + e.getMessage());
            return null;
        }
    }
}
