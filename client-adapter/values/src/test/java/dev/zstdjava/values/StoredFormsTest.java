package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

class StoredFormsTest {
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
    void headerVersionAndBackendAreReadOnlyBehindTheMagicBytes() {
        byte[] zstd = ValueCompressor.create(CompressionConfig.defaults()).compress("x".repeat(200).getBytes(StandardCharsets.US_ASCII));
        assertEquals(0, StoredForms.headerVersion(seg(zstd)));
        assertEquals(CompressionBackend.ZSTD, StoredForms.headerBackend(seg(zstd)));
        assertEquals(CompressionBackend.LZ4, StoredForms.headerBackend(seg(0, 1, 2, 0, 2, 9)));
        assertEquals(7, StoredForms.headerVersion(seg(0, 1, 2, 7, 1)));
        assertNull(StoredForms.headerBackend(seg(0, 1, 2, 0, 9)), "an id no backend uses");
        assertEquals(-1, StoredForms.headerVersion(seg(0, 1, 2, 0)), "shorter than a header");
        assertEquals(-1, StoredForms.headerVersion(seg("plain value".getBytes(StandardCharsets.US_ASCII))));
        assertNull(StoredForms.headerBackend(seg("plain value".getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void legacySignaturesAreCheckedInTheReadersOrder() {
        byte[] gzip = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        byte[] redissonZstd = {0, 0, 0, 9, 0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0};
        Set<LegacyFormat> all = EnumSet.allOf(LegacyFormat.class);
        assertEquals(LegacyFormat.LETTUCE_GZIP, StoredForms.legacySignature(all, seg(gzip)));
        assertEquals(LegacyFormat.REDISSON_ZSTD, StoredForms.legacySignature(all, seg(redissonZstd)));
        assertEquals(LegacyFormat.LETTUCE_DEFLATE, StoredForms.legacySignature(all, seg(0x78, 0x9c, 1, 2, 3)));
        assertEquals(LegacyFormat.REDISSON_LZ4, StoredForms.legacySignature(all, seg("plain value".getBytes(StandardCharsets.US_ASCII))),
                "Redisson's lz4 has no signature: anything of 5 bytes or more");
        assertNull(StoredForms.legacySignature(EnumSet.of(LegacyFormat.LETTUCE_GZIP), seg(redissonZstd)));
        assertNull(StoredForms.legacySignature(all, seg(1, 2, 3)), "shorter than any legacy form");
    }
}
