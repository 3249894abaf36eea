package dev.zstdjava.values;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.lz4.Lz4Exception;
import dev.zstdjava.zstd.ZstdException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;

import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The {@link ValueBackend} contract, checked for every backend the selectors list, so that a new backend is held to
 * it by adding its line: unique header ids, the header written by {@link HeaderBackend}, {@code NO_ROOM} when the
 * stored form does not fit, the round trip through a bound instance, the limit, which failures count as malformed,
 * and that the legacy readers only read, in the order of their signatures.
 */
class ValueBackendContractTest {
    static Coder coder(CompressionBackend backend, long limit, LegacyFormat... legacy) {
        return new Coder(CompressionConfig.builder().backend(backend).maxDecompressedSize(limit).readLegacy(legacy)
                .build(), null);
    }

    @Test
    void headerIdsAreUniqueAndTheCatalogueFindsEachBackend() {
        Set<Byte> ids = new HashSet<>();
        for (CompressionBackend b : CompressionBackend.values()) {
            assertTrue(ids.add(b.id()), "header id " + b.id() + " used twice");
            assertSame(b, StoredForm.recognise(MemorySegment.ofArray(new byte[] {0, 1, 2, 0, b.id()}), Set.of()).backend());
            assertEquals(b.id(), b.backend().id());
            assertTrue(b.minLevel() <= b.defaultLevel() && b.defaultLevel() <= b.maxLevel(), b.toString());
        }
        assertSame(StoredForm.UNKNOWN_HEADER, StoredForm.recognise(MemorySegment.ofArray(new byte[] {0, 1, 2, 0, 0}), Set.of()));
        assertSame(StoredForm.UNKNOWN_HEADER, StoredForm.recognise(MemorySegment.ofArray(new byte[] {0, 1, 2, 0, -1}), Set.of()));
        assertEquals(1, CompressionBackend.ZSTD.id());
        assertEquals(2, CompressionBackend.LZ4.id());
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void boundBackendsWriteTheHeaderAndRoundTrip(CompressionBackend backend) {
        try (Coder c = coder(backend, 1 << 20)) {
            HeaderBackend b = c.writer();
            assertSame(c.shared(backend), b);
            byte[] value = text(3000);
            byte[] dst = new byte[value.length];
            long n = b.encode(MemorySegment.ofArray(value), MemorySegment.ofArray(dst), value.length - 1, null);
            assertTrue(n > ValueFormat.HEADER_SIZE && n < value.length, backend + ": " + n);
            MemorySegment stored = MemorySegment.ofArray(dst).asSlice(0, n);
            assertArrayEquals(new byte[] {0, 1, 2, 0, backend.id()}, Arrays.copyOf(dst, 5));
            assertTrue(b.recognises(stored));
            assertTrue(backend.backend().recognises(stored), "the unbound instance recognises too");
            for (CompressionBackend other : CompressionBackend.values()) {
                assertEquals(other == backend, other.backend().recognises(stored), other + " on " + backend);
            }
            assertArrayEquals(value, b.decode(stored));
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void noRoomWhenTheStoredFormDoesNotFit(CompressionBackend backend) {
        try (Coder c = coder(backend, 1 << 20)) {
            MemorySegment value = MemorySegment.ofArray(random(2000, 3));
            MemorySegment dst = MemorySegment.ofArray(new byte[2000]);
            assertEquals(ValueBackend.NO_ROOM, c.writer().encode(value, dst, 1999, null), "incompressible");
            MemorySegment small = MemorySegment.ofArray(text(200));
            for (long max = 0; max <= ValueFormat.HEADER_SIZE; max++) {
                assertEquals(ValueBackend.NO_ROOM, c.writer().encode(small, dst, max, null), "max " + max);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void decodingHoldsTheLimitAndNamesMalformedPayloads(CompressionBackend backend) {
        byte[] value = text(5000);
        byte[] stored;
        try (Coder c = coder(backend, 1 << 20)) {
            byte[] dst = new byte[value.length];
            stored = Arrays.copyOf(dst, (int) c.writer().encode(MemorySegment.ofArray(value), MemorySegment.ofArray(dst),
                    value.length - 1, null));
        }
        try (Coder c = coder(backend, 4999)) {
            assertThrows(DecompressionLimitException.class, () -> c.writer().decode(MemorySegment.ofArray(stored)));
        }
        try (Coder c = coder(backend, 1 << 20)) {
            byte[] truncated = Arrays.copyOf(stored, stored.length - 3);
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> c.writer().decode(MemorySegment.ofArray(truncated)));
            assertTrue(c.writer().malformed(e), backend + ": " + e);
            assertFalse(c.writer().malformed(new IllegalStateException("closed")));
        }
    }

    @Test
    void eachBackendNamesItsOwnFailuresAsMalformed() {
        ZstdException corrupt = new ZstdException("op", ZstdException.CORRUPTION_DETECTED, "c", "");
        Lz4Exception lz4 = new Lz4Exception("op", Lz4Exception.DECOMPRESSION_FAILED, "d");
        UncheckedIOException io = new UncheckedIOException(new java.io.IOException("bad"));
        assertTrue(CompressionBackend.ZSTD.backend().malformed(corrupt));
        assertFalse(CompressionBackend.ZSTD.backend().malformed(lz4));
        assertTrue(CompressionBackend.LZ4.backend().malformed(lz4));
        assertFalse(CompressionBackend.LZ4.backend().malformed(corrupt));
        assertTrue(LegacyFormat.REDISSON_ZSTD.reader().malformed(corrupt));
        assertTrue(LegacyFormat.LETTUCE_GZIP.reader().malformed(io));
        assertTrue(LegacyFormat.LETTUCE_DEFLATE.reader().malformed(io));
        assertFalse(LegacyFormat.REDISSON_LZ4.reader().malformed(lz4), "no signature: a failure means a plain value");
    }

    @ParameterizedTest
    @EnumSource(LegacyFormat.class)
    void legacyReadersOnlyRead(LegacyFormat format) {
        try (Coder c = coder(CompressionBackend.ZSTD, 1 << 20, format)) {
            LegacyReader r = c.legacy(format);
            assertNotNull(r);
            MemorySegment v = MemorySegment.ofArray(text(100));
            assertThrows(UnsupportedOperationException.class,
                    () -> r.encode(v, MemorySegment.ofArray(new byte[100]), 100, null));
            for (LegacyFormat other : LegacyFormat.values()) {
                assertEquals(other == format, c.legacy(other) != null, "only the configured readers are bound");
            }
        }
    }

    @Test
    void legacyReadersAreTriedFromTheLongestSignature() {
        int last = Integer.MAX_VALUE;
        MemorySegment anything = MemorySegment.ofArray(text(100));
        Set<LegacyFormat> all = EnumSet.allOf(LegacyFormat.class);
        for (LegacyFormat f : new LegacyFormat[] {LegacyFormat.REDISSON_ZSTD, LegacyFormat.LETTUCE_GZIP,
                LegacyFormat.LETTUCE_DEFLATE, LegacyFormat.REDISSON_LZ4}) {
            assertTrue(f.reader().signatureBytes() <= last, f + " is tried in this order");
            last = f.reader().signatureBytes();
        }
        assertEquals(0, LegacyFormat.REDISSON_LZ4.reader().signatureBytes());
        assertEquals(LegacyFormat.REDISSON_LZ4, StoredForm.recognise(anything, all).legacyFormat(), "no signature: tried last");
        assertSame(StoredForm.PLAIN, StoredForm.recognise(anything, EnumSet.complementOf(EnumSet.of(LegacyFormat.REDISSON_LZ4))));
    }
}
