package dev.zstdjava.cli;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.LegacyFormat;
import dev.zstdjava.values.MissingDictionaryException;
import dev.zstdjava.values.StoredForm;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.ValueFormat;

import java.lang.foreign.MemorySegment;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Tells what a stored value is, in the terms of the library's catalogue of stored forms ({@link StoredForm}: plain,
 * the shared format's backends with the dictionary id, a header of an unknown version or backend, the read-only
 * formats), and decodes it with the library's own readers, bounded by the decompression limit. Thread-safe (the
 * compressors are); each call allocates the decoded value.
 */
final class Classifier {
    /** Why a value did not decode; {@link #label()} is what the tool prints. */
    enum Problem {
        CORRUPT, OVER_THE_LIMIT, MISSING_DICTIONARY, UNKNOWN_HEADER;

        /** @return the name in lower case, in words: {@code over the limit} */
        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }

    /**
     * One classified value.
     *
     * @param form    what it is (for a failed decode: what it claims to be)
     * @param dictId  the zstd dictionary id it names, 0 for none
     * @param decoded the original bytes (the stored bytes themselves for plain), or null when it did not decode
     * @param problem null, or why it did not decode
     * @param detail  null, or the details of the problem
     */
    record Result(StoredForm form, long dictId, byte[] decoded, Problem problem, String detail) {
        /** @return the class name the tool counts: the form, with the dictionary id or the problem */
        String label() {
            String l = form.label() + (dictId != 0 ? " (dictionary " + dictId + ")" : "");
            return problem == null ? l : l + ": " + problem.label();
        }

        /** @return the problem and its details, as printed for one key; null when it decoded */
        String describe() {
            return problem == null ? null : problem.label() + ": " + detail;
        }
    }

    private final long limit;
    private final LongFunction<String> missing;
    /** Reads the shared format: every backend, with the published dictionaries. */
    private final ValueCompressor shared;
    /** One reader per read-only form asked for, so that each decodes only its own form. */
    private final Map<LegacyFormat, ValueCompressor> legacy = new EnumMap<>(LegacyFormat.class);

    /**
     * @param limit        the largest decoded value accepted, in bytes
     * @param legacy       the read-only forms to recognise (each is tried on its own reader)
     * @param dictionaries the dictionaries published in the store, or null
     */
    Classifier(long limit, Set<LegacyFormat> legacy, DictionaryManager dictionaries) {
        this(limit, legacy, dictionaries, id -> null);
    }

    /**
     * @param missing why a dictionary a value names is not among {@code dictionaries}, naming where it was looked for
     *                (see {@link Common#missingDictionary}), or null to say what the library says
     */
    Classifier(long limit, Set<LegacyFormat> legacy, DictionaryManager dictionaries, LongFunction<String> missing) {
        this.missing = missing;
        this.limit = limit;
        CompressionConfig base = CompressionConfig.builder().maxDecompressedSize(limit).build();
        this.shared = dictionaries == null ? ValueCompressor.create(base) : ValueCompressor.create(base, dictionaries);
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
        StoredForm form = StoredForm.recognise(s, Set.of());
        if (form.hasHeader()) {
            int version = ValueFormat.headerVersion(s);
            if (form == StoredForm.UNKNOWN_HEADER || version != ValueFormat.VERSION) {
                return new Result(StoredForm.UNKNOWN_HEADER, 0, null, Problem.UNKNOWN_HEADER, String.format(Locale.ROOT,
                        "version %d, backend id %d", version, ValueFormat.headerId(s)));
            }
            return decode(shared, form, form.dictionaryId(s), stored);
        }
        for (StoredForm f : StoredForm.all()) {
            ValueCompressor c = f.legacyFormat() == null ? null : legacy.get(f.legacyFormat());
            if (c == null || !f.recognises(s)) {
                continue;
            }
            Result r = decode(c, f, 0, stored);
            // a form whose signature plain values carry by chance is taken only when it decodes (or is too large to
            // tell); any other that does not decode is corrupt
            if (r.decoded != null || !f.matchesPlainValuesByChance() || r.problem == Problem.OVER_THE_LIMIT) {
                return r;
            }
        }
        return new Result(StoredForm.PLAIN, 0, stored, null, null);
    }

    private Result decode(ValueCompressor c, StoredForm form, long dict, byte[] stored) {
        try {
            byte[] out = c.decompress(stored);
            return out != stored ? new Result(form, dict, out, null, null)
                    : new Result(form, dict, null, Problem.CORRUPT, "claims to be " + form.label() + " but does not decode");
        } catch (DecompressionLimitException e) {
            return new Result(form, dict, null, Problem.OVER_THE_LIMIT, "decodes to more than " + limit
                    + " bytes (--limit)");
        } catch (MissingDictionaryException e) {
            String why = missing.apply(e.dictionaryId());
            return new Result(form, dict, null, Problem.MISSING_DICTIONARY, why != null ? why : e.getMessage());
        } catch (RuntimeException e) {
            return new Result(form, dict, null, Problem.CORRUPT, e.getMessage());
        }
    }
}
