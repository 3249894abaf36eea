package dev.zstdjava;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The committed test data is what its README says: third-party files by SHA-256, JSON samples by their generator. */
class TestDataFilesTest {
    @Test
    void jsonSamplesAreWhatTheGeneratorMakes() throws IOException {
        assertArrayEquals(JsonRecords.ndjson(JsonRecords.statuses(JsonRecords.STATUS_FILE_RECORDS, JsonRecords.FILE_SEED)),
                Files.readAllBytes(TestData.corpus().resolve("json/statuses.ndjson")),
                "testdata/json/statuses.ndjson: regenerate with JsonRecords.main");
        assertArrayEquals(JsonRecords.ndjson(JsonRecords.products(JsonRecords.PRODUCT_FILE_RECORDS, JsonRecords.FILE_SEED)),
                Files.readAllBytes(TestData.corpus().resolve("json/products.ndjson")),
                "testdata/json/products.ndjson: regenerate with JsonRecords.main");
    }

    @Test
    void recordSizesAreThoseOfSmallCacheValues() {
        List<byte[]> statuses = JsonRecords.statuses(200, 1);
        List<byte[]> products = JsonRecords.products(200, 1);
        double s = statuses.stream().mapToInt(b -> b.length).average().orElseThrow();
        double p = products.stream().mapToInt(b -> b.length).average().orElseThrow();
        assertTrue(s > 900 && s < 2200, "status records average " + s + " B");
        assertTrue(p > 200 && p < 500, "product records average " + p + " B");
    }

    @Test
    void everyListedFileHasItsListedDigest() throws IOException, NoSuchAlgorithmException {
        String readme = Files.readString(TestData.corpus().resolve("README.md"));
        int checked = 0;
        for (String line : readme.lines().toList()) {
            // table rows: | `path` | bytes | `sha256` | ...
            String[] cells = line.split("\\|");
            if (cells.length > 4 && cells[1].trim().startsWith("`") && cells[3].trim().matches("`[0-9a-f]{64}`")) {
                String path = cells[1].trim().replace("`", "");
                String sha = cells[3].trim().replace("`", "");
                byte[] data = Files.readAllBytes(TestData.corpus().resolve(path));
                assertEquals(Long.parseLong(cells[2].trim().replace(",", "")), data.length, path);
                assertEquals(sha, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data)), path);
                checked++;
            }
        }
        try (var files = Files.walk(TestData.corpus())) {
            long onDisk = files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("README.md"))
                    .count();
            assertEquals(onDisk, checked, "every file in testdata/ is listed with its digest in testdata/README.md");
        }
    }
}
