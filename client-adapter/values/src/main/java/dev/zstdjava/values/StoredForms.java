package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.Set;

/**
 * Read-only look at a stored value's form, for tools that classify what a keyspace holds (the {@code zstd-values}
 * command-line tool): whether it carries the shared header and which version and backend it names, or which
 * {@link LegacyFormat} signature it carries. Decoding stays with {@link ValueCompressor}. Stateless and thread-safe;
 * allocates nothing.
 */
public final class StoredForms {
    private StoredForms() {}

    /** The version byte this library writes and reads; a header naming another version is of an unknown format. */
    public static final int KNOWN_VERSION = ValueFormat.VERSION;

    /**
     * Reads the version byte of the shared header (offset 3) of a value that {@link ValueFormat#hasHeader has one}.
     * @return the version byte as 0..255, or -1 when {@code stored} carries no shared header
     */
    public static int headerVersion(MemorySegment stored) {
        return ValueFormat.hasHeader(stored) ? stored.get(ValueLayout.JAVA_BYTE, ValueFormat.VERSION_OFFSET) & 0xff : -1;
    }

    /**
     * Finds the backend named by the shared header's backend id (offset 4).
     * @return that backend, or null when {@code stored} has no shared header or names an id no backend uses
     */
    public static CompressionBackend headerBackend(MemorySegment stored) {
        return ValueFormat.hasHeader(stored)
                ? CompressionBackend.ofId(stored.get(ValueLayout.JAVA_BYTE, ValueFormat.BACKEND_OFFSET)) : null;
    }

    /**
     * Checks the signatures of {@code formats}, in the order a reading compressor checks them (Redisson zstd, gzip,
     * zlib, Redisson lz4, which has no signature and so matches anything of 5 bytes or more).
     * @return the first of {@code formats} whose signature {@code stored} carries, or null; nothing is decoded
     */
    public static LegacyFormat legacySignature(Set<LegacyFormat> formats, MemorySegment stored) {
        return LegacyFormat.recognise(Objects.requireNonNull(formats, "formats"), stored);
    }
}
