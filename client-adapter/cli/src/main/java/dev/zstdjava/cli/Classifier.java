package dev.zstdjava.cli;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.LegacyFormat;
import dev.zstdjava.values.MissingDictionaryException;
import dev.zstdjava.values.StoredForms;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdFrame;

import java.lang.foreign.MemorySegment;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Tells what a stored value is (plain, GLIDE zstd with its dictionary id, GLIDE lz4, a header of an unknown version or
 * backend, one of the legacy formats) and decodes it with the library's own readers, bounded by the decompression
 * limit. Thread-safe (the compressors are); each call allocates the decoded value.
 */
final class Classifier {
    /** What a stored value is. {@link #label} is what the tool prints and what {@code --from}/{@code --to} take. */
    enum Kind {
        PLAIN("plain"),
        GLIDE_ZSTD("glide-zstd"),
        GLIDE_LZ4("glide-lz4"),
        GLIDE_UNKNOWN("glide-unknown-header"),
        LETTUCE_GZIP("lettuce-gzip"),
        LETTUCE_DEFLATE("lettuce-deflate"),
        REDISSON_ZSTD("redisson-zstd"),
        REDISSON_LZ4("redisson-lz4");

        final String label;

        Kind(String label) {
            this.label = label;
        }

        boolean legacy() {
            return legacyFormat() != null;
        }

        boolean glide() {
            return this == GLIDE_ZSTD || this == GLIDE_LZ4 || this == GLIDE_UNKNOWN;
        }

        LegacyFormat legacyFormat() {
            return switch (this) {
                case LETTUCE_GZIP -> LegacyFormat.LETTUCE_GZIP;
                case LETTUCE_DEFLATE -> LegacyFormat.LETTUCE_DEFLATE;
                case REDISSON_ZSTD -> LegacyFormat.REDISSON_ZSTD;
                case REDISSON_LZ4 -> LegacyFormat.REDISSON_LZ4;
                default -> null;
            };
        }

        static Kind of(LegacyFormat f) {
            return switch (f) {
                case LETTUCE_GZIP -> LETTUCE_GZIP;
                case LETTUCE_DEFLATE -> LETTUCE_DEFLATE;
                case REDISSON_ZSTD -> REDISSON_ZSTD;
                case REDISSON_LZ4 -> REDISSON_LZ4;
            };
        }
    }

    /**
     * One classified value.
     *
     * @param kind     what it is (for a failed decode: what it claims to be)
     * @param dictId   the zstd dictionary id its frame names, 0 for none
     * @param decoded  the original bytes (the stored bytes themselves for plain), or null when it did not decode
     * @param problem  null, or why it did not decode: corrupt, over the limit, dictionary missing
     */
    record Result(Kind kind, long dictId, byte[] decoded, String problem) {
        /** @return the class name the tool counts: the kind, with the dictionary id or the problem */
        String label() {
            String l = kind.label + (dictId != 0 ? " (dictionary " + dictId + ")" : "");
            return problem == null ? l : l + ": " + problemKind();
        }

        /** @return the short name of the problem (corrupt, over the limit, missing dictionary) */
        String problemKind() {
            return problem == null ? null : problem.substring(0, problem.indexOf(':') < 0 ? problem.length()
                    : problem.indexOf(':'));
        }
    }

    /** Legacy formats in the order the library checks their signatures. */
    private static final LegacyFormat[] ORDER = {LegacyFormat.REDISSON_ZSTD, LegacyFormat.LETTUCE_GZIP,
            LegacyFormat.LETTUCE_DEFLATE, LegacyFormat.REDISSON_LZ4};

    private final long limit;
    private final ValueCompressor glide;
    private final Map<LegacyFormat, ValueCompressor> legacy = new EnumMap<>(LegacyFormat.class);

    /**
     * @param limit        the largest decoded value accepted, in bytes
     * @param legacy       the legacy formats to recognise (each is tried on its own reader)
     * @param dictionaries the dictionaries published in the store, or null
     */
    Classifier(long limit, Set<LegacyFormat> legacy, DictionaryManager dictionaries) {
        this.limit = limit;
        CompressionConfig base = CompressionConfig.builder().maxDecompressedSize(limit).build();
        this.glide = dictionaries == null ? ValueCompressor.create(base) : ValueCompressor.create(base, dictionaries);
        for (LegacyFormat f : legacy) {
            this.legacy.put(f, ValueCompressor.create(base.toBuilder().readLegacy(f).build()));
        }
    }

    /** @return the limit on decoded values, in bytes */
    long limit() {
        return limit;
    }

    /** Classifies and decodes {@code stored}; never throws for anything the value holds. */
    Result classify(byte[] stored) {
        MemorySegment s = MemorySegment.ofArray(stored);
        int version = StoredForms.headerVersion(s);
        if (version >= 0) {
            CompressionBackend backend = StoredForms.headerBackend(s);
            if (version != StoredForms.KNOWN_VERSION || backend == null) {
                return new Result(Kind.GLIDE_UNKNOWN, 0, null, String.format(Locale.ROOT,
                        "unknown header: version %d, backend id %d", version, stored[4] & 0xff));
            }
            Kind kind = backend == CompressionBackend.ZSTD ? Kind.GLIDE_ZSTD : Kind.GLIDE_LZ4;
            long dict = kind == Kind.GLIDE_ZSTD ? ZstdFrame.dictionaryId(stored, 5, stored.length - 5) : 0;
            return decode(glide, kind, dict, s);
        }
        for (LegacyFormat f : ORDER) {
            ValueCompressor c = legacy.get(f);
            if (c == null || StoredForms.legacySignature(Set.of(f), s) != f) {
                continue;
            }
            Result r = decode(c, Kind.of(f), 0, s);
            // zlib's two-byte header and lz4's missing signature match plain values by chance: only a value that
            // decodes is taken for one; gzip and Redisson zstd carry real signatures, so a failure there is corrupt
            if (r.decoded != null || f == LegacyFormat.REDISSON_ZSTD || f == LegacyFormat.LETTUCE_GZIP
                    || r.problem.startsWith("over the limit")) {
                return r;
            }
        }
        return new Result(Kind.PLAIN, 0, stored, null);
    }

    private Result decode(ValueCompressor c, Kind kind, long dict, MemorySegment s) {
        try {
            byte[] out = c.decompressOrNull(s);
            return out != null ? new Result(kind, dict, out, null)
                    : new Result(kind, dict, null, "corrupt: claims to be " + kind.label + " but does not decode");
        } catch (DecompressionLimitException e) {
            return new Result(kind, dict, null, "over the limit: decodes to more than " + limit + " bytes (--limit)");
        } catch (MissingDictionaryException e) {
            return new Result(kind, dict, null, "missing dictionary: " + e.getMessage());
        } catch (RuntimeException e) {
            return new Result(kind, dict, null, "corrupt: " + e.getMessage());
        }
    }
}
