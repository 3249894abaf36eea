package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/** The catalogue of stored forms: one entry per form, recognised as a reader recognises it. */
class StoredFormTest {
    static MemorySegment seg(byte[] b) {
        return MemorySegment.ofArray(b);
    }

    static MemorySegment seg(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return MemorySegment.ofArray(out);
    }

    @Test
    void everyBackendAndLegacyFormatHasOneEntryWithAUniqueLabel() {
        List<StoredForm> all = StoredForm.all();
        assertEquals(CompressionBackend.values().length + LegacyFormat.values().length + 2, all.size());
        Set<String> labels = new HashSet<>();
        for (StoredForm f : all) {
            assertTrue(labels.add(f.label()), "label used twice: " + f);
            assertSame(f, StoredForm.forLabel(f.label()));
        }
        for (CompressionBackend b : CompressionBackend.values()) {
            StoredForm f = StoredForm.of(b);
            assertSame(b, f.backend());
            assertEquals(b.id() & 0xff, f.headerId());
            assertTrue(f.hasHeader());
            assertFalse(f.matchesPlainValuesByChance());
        }
        for (LegacyFormat l : LegacyFormat.values()) {
            StoredForm f = StoredForm.of(l);
            assertSame(l, f.legacyFormat());
            assertNull(f.backend());
            assertEquals(-1, f.headerId());
            assertFalse(f.hasHeader());
        }
        assertEquals(List.of("glide-zstd", "glide-lz4", "redisson-zstd", "lettuce-gzip", "lettuce-deflate",
                "redisson-lz4", "plain", "glide-unknown-header"), all.stream().map(StoredForm::label).toList(),
                "the labels the tools print and take, in the order a reader tries the forms");
        assertNull(StoredForm.forLabel("glide"));
    }

    @Test
    void aReadOnlyFormIsLabelledWithItsSelectorsNameInKebabCase() {
        // Spring Boot binds zstd-java.redis.compression.legacy-formats to LegacyFormat by that name: the property and
        // the command-line tool take the same words
        for (LegacyFormat l : LegacyFormat.values()) {
            assertEquals(l.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'), StoredForm.of(l).label());
        }
    }

    @Test
    void theHeaderNamesTheFormWhateverTheVersion() {
        byte[] zstd = ValueCompressor.create(CompressionConfig.defaults()).compress("x".repeat(200).getBytes(StandardCharsets.US_ASCII));
        Set<LegacyFormat> none = Set.of();
        assertSame(StoredForm.of(CompressionBackend.ZSTD), StoredForm.recognise(seg(zstd), none));
        assertEquals(0, ValueFormat.headerVersion(seg(zstd)));
        assertEquals(1, ValueFormat.headerId(seg(zstd)));
        assertSame(StoredForm.of(CompressionBackend.LZ4), StoredForm.recognise(seg(0, 1, 2, 0, 2, 9), none));
        assertEquals(7, ValueFormat.headerVersion(seg(0, 1, 2, 7, 1)));
        assertSame(StoredForm.of(CompressionBackend.ZSTD), StoredForm.recognise(seg(0, 1, 2, 7, 1), none),
                "a reader does not check the version");
        assertSame(StoredForm.UNKNOWN_HEADER, StoredForm.recognise(seg(0, 1, 2, 0, 9), none), "an id no backend uses");
        assertEquals(9, ValueFormat.headerId(seg(0, 1, 2, 0, 9)));
        assertEquals(-1, ValueFormat.headerVersion(seg(0, 1, 2, 0)), "shorter than a header");
        assertSame(StoredForm.PLAIN, StoredForm.recognise(seg(0, 1, 2, 0), none));
        assertEquals(-1, ValueFormat.headerId(seg("plain value".getBytes(StandardCharsets.US_ASCII))));
        assertSame(StoredForm.PLAIN, StoredForm.recognise(seg("plain value".getBytes(StandardCharsets.US_ASCII)),
                EnumSet.noneOf(LegacyFormat.class)));
    }

    @Test
    void legacySignaturesAreCheckedInTheReadersOrder() {
        byte[] gzip = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        byte[] redissonZstd = {0, 0, 0, 9, 0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0};
        Set<LegacyFormat> all = EnumSet.allOf(LegacyFormat.class);
        assertSame(StoredForm.of(LegacyFormat.LETTUCE_GZIP), StoredForm.recognise(seg(gzip), all));
        assertSame(StoredForm.of(LegacyFormat.REDISSON_ZSTD), StoredForm.recognise(seg(redissonZstd), all));
        assertSame(StoredForm.of(LegacyFormat.LETTUCE_DEFLATE), StoredForm.recognise(seg(0x78, 0x9c, 1, 2, 3), all));
        assertSame(StoredForm.of(LegacyFormat.REDISSON_LZ4),
                StoredForm.recognise(seg("plain value".getBytes(StandardCharsets.US_ASCII)), all),
                "Redisson's lz4 has no signature: anything of 5 bytes or more");
        assertSame(StoredForm.PLAIN, StoredForm.recognise(seg(redissonZstd), EnumSet.of(LegacyFormat.LETTUCE_GZIP)));
        assertSame(StoredForm.PLAIN, StoredForm.recognise(seg(1, 2, 3), all), "shorter than any legacy form");
        assertTrue(StoredForm.of(LegacyFormat.REDISSON_ZSTD).recognises(seg(redissonZstd)));
        assertFalse(StoredForm.PLAIN.recognises(seg(redissonZstd)));
        assertTrue(StoredForm.of(LegacyFormat.LETTUCE_DEFLATE).matchesPlainValuesByChance(), "zlib's two bytes");
        assertTrue(StoredForm.of(LegacyFormat.REDISSON_LZ4).matchesPlainValuesByChance(), "no signature");
        assertFalse(StoredForm.of(LegacyFormat.LETTUCE_GZIP).matchesPlainValuesByChance());
        assertFalse(StoredForm.of(LegacyFormat.REDISSON_ZSTD).matchesPlainValuesByChance());
    }

    @Test
    void theZstdFormNamesItsDictionary() throws Exception {
        List<byte[]> records = dev.zstdjava.testkit.TestValues.jsonRecords(2000, 3);
        byte[] dict = dev.zstdjava.zstd.ZstdDictionary.train(records, 16 << 10).toByteArray();
        try (DictionaryManager m = DictionaryManager.given(dict).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            byte[] stored = vc.compress(records.get(7));
            StoredForm f = StoredForm.recognise(seg(stored), Set.of());
            assertSame(StoredForm.of(CompressionBackend.ZSTD), f);
            assertEquals(m.currentId(), f.dictionaryId(seg(stored)));
            assertEquals(0, StoredForm.of(CompressionBackend.ZSTD).dictionaryId(seg(ValueCompressor.create(
                    CompressionConfig.defaults()).compress(new byte[1000]))));
            assertEquals(0, StoredForm.PLAIN.dictionaryId(seg(stored)));
        }
    }
}
