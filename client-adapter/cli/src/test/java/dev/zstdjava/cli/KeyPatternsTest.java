package dev.zstdjava.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class KeyPatternsTest {
    @Test
    void digitRunsUuidsAndHexRunsWithADigitFold() {
        assertEquals("user:*:profile", KeyPatterns.fold("user:1234:profile"));
        assertEquals("session:*", KeyPatterns.fold("session:3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b"));
        assertEquals("blob:*:v*", KeyPatterns.fold("blob:deadbeef01:v2"));
        assertEquals("word:deadbeefcafe", KeyPatterns.fold("word:deadbeefcafe"), "hex letters without a digit stay");
        assertEquals("tag:abc*", KeyPatterns.fold("tag:abc12"), "a short hex run keeps its letters, its digits fold");
        assertEquals("order:*:*", KeyPatterns.fold("order:12:34"), "separators stay");
        assertEquals("id:*", KeyPatterns.fold("id:12deadbeef9"));
    }
}
