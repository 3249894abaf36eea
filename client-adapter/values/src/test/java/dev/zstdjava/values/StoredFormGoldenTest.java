package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.testkit.TestValues.jsonRecords;
import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The exact bytes each backend stores, pinned: the SHA-256 of the stored forms of a fixed set of values, per backend
 * and level (and with a fixed dictionary), recorded from the writer before the backends became one class each. A
 * change of the stored format (header, length prefix, compressor parameters) fails here; the bundled libzstd and
 * liblz4 versions are pinned, so their output is stable.
 */
class StoredFormGoldenTest {
    static final List<byte[]> VALUES = List.of(text(64), text(1000), json(4096).getBytes(StandardCharsets.US_ASCII),
            random(300, 7), new byte[2000], text(63));

    static String digest(ValueCompressor vc, List<byte[]> values) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (byte[] v : values) {
            byte[] stored = vc.compress(v);
            assertArrayEquals(v, vc.decompress(stored));
            md.update(stored);
            md.update((byte) 0xff); // separates the values
        }
        return HexFormat.of().formatHex(md.digest());
    }

    static String digest(CompressionBackend backend, int level) throws Exception {
        return digest(ValueCompressor.create(CompressionConfig.builder().backend(backend).level(level).build()), VALUES);
    }

    @Test
    void zstdStoredFormsAreUnchanged() throws Exception {
        assertAll(() -> assertEquals("a522859834320c5e69d8ff779b8d82c6f838527d823c38e57293e1396188fa74",
                        digest(CompressionBackend.ZSTD, 3), "zstd 3"),
                () -> assertEquals("b593ba1fa0db7e3ffb04caa81e0c39f50f006d280bd21806fbac24ef1e8ac7c1",
                        digest(CompressionBackend.ZSTD, -1), "zstd -1"),
                () -> assertEquals("6359cc8a49507c29efcb54d9260a621fae83cf4fc35adb7a61a7089878be4c22",
                        digest(CompressionBackend.ZSTD, 19), "zstd 19"));
    }

    @Test
    void lz4StoredFormsAreUnchanged() throws Exception {
        assertAll(() -> assertEquals("e521ae8a0fb69eb29f4c2003fd0152defc5d5f5f10ab1f163e3c529130f27dd4",
                        digest(CompressionBackend.LZ4, 0), "lz4 0"),
                () -> assertEquals("7a73701d7b9f5dd33ff3f44ffd244591230ede36ab9878e3ccad30eca4baf0ed",
                        digest(CompressionBackend.LZ4, 9), "lz4 HC 9"),
                () -> assertEquals("856e1337f1544e53ee94aff97aa600e2589932a4e53e4087abf3a351997f7545",
                        digest(CompressionBackend.LZ4, -5), "lz4 fast 5"));
    }

    @Test
    void zstdWithADictionaryStoredFormsAreUnchanged() throws Exception {
        try (DictionaryManager dicts = DictionaryManager.given(DictionaryManagerTest.DICT_A).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().minCompressionSize(16).build(), dicts);
            assertEquals("1e57a508feace02736893c7c273b2ab53beb76c2e109c6e420c39b5f7ab8f589", digest(vc, jsonRecords(40, 9)), "zstd 3, dictionary A");
        }
    }
}
