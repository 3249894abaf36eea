package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The catalogue of stored forms: every form of a value this library writes or reads, each with its label, how it is
 * recognised (the shared header's backend id, or another client's signature) and the package-private class that codes
 * it. {@link ValueCompressor} reads through it, and tools (the {@code zstd-values} command-line tool) classify and
 * migrate values with it, so a form is described in one place: its coder class, registered by one line of
 * {@link CompressionBackend} (a form written in the shared format) or {@link LegacyFormat} (a form only read).
 *
 * <p>Besides the coded forms the catalogue names two that are not coded: {@link #PLAIN} (a value stored as it is)
 * and {@link #UNKNOWN_HEADER} (the shared header naming a backend id no backend uses, returned as stored).
 *
 * <p>Immutable and thread-safe; nothing here allocates after class initialisation, and nothing loads a native library.
 */
public final class StoredForm {
    /** A value stored as it is (no form recognised, or a form this reader is not configured for). */
    public static final StoredForm PLAIN = new StoredForm("plain", null, null, null);
    /** The shared header with a backend id that no backend uses, or (for tools) a version this library does not write. */
    public static final StoredForm UNKNOWN_HEADER = new StoredForm("glide-unknown-header", null, null, null);

    /** The coded forms in the order a reader tries them: the header forms, then the longest signature first. */
    private static final List<StoredForm> CODED;
    /** Every form: the coded ones, then {@link #PLAIN} and {@link #UNKNOWN_HEADER}. */
    private static final List<StoredForm> ALL;
    /** The header forms by backend id (0..255); null where no backend has that id. */
    private static final StoredForm[] BY_ID = new StoredForm[256];
    /** The read-only forms by {@link LegacyFormat#ordinal()}. */
    private static final StoredForm[] BY_LEGACY = new StoredForm[LegacyFormat.values().length];
    /** The read-only forms in the order they are tried (a stable sort keeps ties in declaration order). */
    private static final StoredForm[] TRIED;

    static {
        List<StoredForm> coded = new ArrayList<>();
        for (CompressionBackend b : CompressionBackend.values()) {
            StoredForm f = new StoredForm(b.backend().label(), b, null, b.backend());
            int id = b.id() & 0xff;
            if (BY_ID[id] != null) {
                throw new ExceptionInInitializerError("backends " + BY_ID[id].backend + " and " + b
                        + " share the header id " + id);
            }
            BY_ID[id] = f;
            coded.add(f);
        }
        for (LegacyFormat l : LegacyFormat.values()) {
            BY_LEGACY[l.ordinal()] = new StoredForm(l.reader().label(), null, l, l.reader());
        }
        TRIED = Arrays.stream(BY_LEGACY)
                .sorted(Comparator.comparingInt((StoredForm f) -> -f.legacy.reader().signatureBytes()))
                .toArray(StoredForm[]::new);
        coded.addAll(Arrays.asList(TRIED));
        CODED = List.copyOf(coded);
        List<StoredForm> all = new ArrayList<>(CODED);
        all.add(PLAIN);
        all.add(UNKNOWN_HEADER);
        for (StoredForm f : all) {
            if (all.stream().filter(o -> o.label.equals(f.label)).count() != 1) {
                throw new ExceptionInInitializerError("two stored forms are labelled " + f.label);
            }
        }
        ALL = List.copyOf(all);
    }

    private final String label;
    private final CompressionBackend backend;
    private final LegacyFormat legacy;
    /** The unbound coder (see {@code ValueBackend}); null for {@link #PLAIN} and {@link #UNKNOWN_HEADER}. */
    private final ValueBackend coder;

    private StoredForm(String label, CompressionBackend backend, LegacyFormat legacy, ValueBackend coder) {
        this.label = label;
        this.backend = backend;
        this.legacy = legacy;
        this.coder = coder;
    }

    /**
     * @return every form, in the order a reader tries them: the shared format's backends, the read-only forms from
     *         the longest signature to none, then {@link #PLAIN} and {@link #UNKNOWN_HEADER}
     */
    public static List<StoredForm> all() {
        return ALL;
    }

    /** @return the form written by {@code backend} */
    public static StoredForm of(CompressionBackend backend) {
        return BY_ID[backend.id() & 0xff];
    }

    /** @return the form read by {@code format} */
    public static StoredForm of(LegacyFormat format) {
        return BY_LEGACY[format.ordinal()];
    }

    /** @return the form labelled {@code label} (as {@link #label()} spells it), or null */
    public static StoredForm forLabel(String label) {
        for (StoredForm f : ALL) {
            if (f.label.equals(label)) {
                return f;
            }
        }
        return null;
    }

    /**
     * Recognises the form of {@code stored} as a reader does, without decoding: a value with the shared header is in
     * the form of the backend its id names ({@link #UNKNOWN_HEADER} when no backend has that id; the version byte is
     * not checked), otherwise in the first of {@code reading} whose signature it carries (tried from the longest
     * signature to none), otherwise {@link #PLAIN}. A form without a signature, or with a short one, matches plain
     * values too ({@link #matchesPlainValuesByChance()}): only decoding tells. Allocates nothing.
     *
     * @param reading the read-only forms to consider
     */
    public static StoredForm recognise(MemorySegment stored, Set<LegacyFormat> reading) {
        int id = ValueFormat.headerId(stored);
        if (id >= 0) {
            StoredForm f = BY_ID[id];
            return f != null ? f : UNKNOWN_HEADER;
        }
        if (!reading.isEmpty()) {
            for (StoredForm f : TRIED) {
                if (reading.contains(f.legacy) && f.coder.recognises(stored)) {
                    return f;
                }
            }
        }
        return PLAIN;
    }

    /**
     * Whether a reader of {@code reading} has to look at {@code stored} more closely than this: false when it is
     * certainly {@link #PLAIN} (no shared header, and no read-only form configured). Reads absolutely, moves nothing,
     * allocates nothing; for a client's I/O thread that decides where a reply is decoded.
     */
    public static boolean mayBeCoded(ByteBuffer stored, Set<LegacyFormat> reading) {
        return ValueFormat.hasHeader(stored) || !reading.isEmpty();
    }

    /** @return what the tools print and take: {@code glide-zstd}, {@code lettuce-gzip}, {@code plain}, ... */
    public String label() {
        return label;
    }

    /** @return the backend that writes this form, or null for a form only read (and for plain, unknown header) */
    public CompressionBackend backend() {
        return backend;
    }

    /** @return the selector of this read-only form, or null for the shared format's forms (and plain, unknown header) */
    public LegacyFormat legacyFormat() {
        return legacy;
    }

    /** @return whether this form carries the shared header ({@link #UNKNOWN_HEADER} included) */
    public boolean hasHeader() {
        return backend != null || this == UNKNOWN_HEADER;
    }

    /** @return the backend id this form's header carries (0..255), or -1 for a form without a known one */
    public int headerId() {
        return backend == null ? -1 : backend.id() & 0xff;
    }

    /**
     * Whether plain values carry this form's signature by chance: a read-only form with no signature or one shorter
     * than three bytes (zlib's two-byte header). A value of such a form that does not decode is plain; a value of
     * any other coded form that does not decode is corrupt.
     */
    public boolean matchesPlainValuesByChance() {
        return legacy != null && legacy.reader().signatureBytes() < 3;
    }

    /**
     * Whether {@code stored} carries this form's header or signature (see {@link #recognise} for the order in which
     * a reader checks them); false for {@link #PLAIN} and {@link #UNKNOWN_HEADER}. Allocates nothing.
     */
    public boolean recognises(MemorySegment stored) {
        return coder != null && coder.recognises(stored);
    }

    /**
     * @return the id of the zstd dictionary that {@code stored}, a value of this form, was compressed with; 0 when it
     *         names none or the form takes no dictionaries
     */
    public long dictionaryId(MemorySegment stored) {
        return coder == null ? 0 : coder.dictionaryId(stored);
    }

    /** @return the unbound coder of a coded form (see {@code ValueBackend}); null for plain and unknown header */
    ValueBackend coder() {
        return coder;
    }

    @Override
    public String toString() {
        return label;
    }
}
