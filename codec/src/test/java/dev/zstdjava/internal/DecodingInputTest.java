package dev.zstdjava.internal;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared part of the decompressing streams, with made-up decoders (the codecs' own are tested with them). */
class DecodingInputTest {

    @Test
    void aDecoderThatReturnsZeroIsRefusedInsteadOfSpinning() throws IOException {
        DecodingInput input = new DecodingInput(new ByteArrayInputStream(new byte[0]), "TestStream",
                (b, off, len) -> 0, () -> { });
        IllegalStateException e = assertThrows(IllegalStateException.class, input::read);
        assertTrue(e.getMessage().contains("TestStream: the decoder returned 0"), e.getMessage());
        IOException later = assertThrows(IOException.class, () -> input.read(new byte[4], 0, 4));
        assertSame(e, later.getCause(), "the stream stays failed");
    }

    @Test
    void readsDelegateAndCloseReleasesOnce() throws IOException {
        AtomicInteger released = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        InputStream in = new ByteArrayInputStream(new byte[0]) {
            @Override
            public void close() {
                closed.incrementAndGet();
            }
        };
        int[] calls = {0};
        DecodingInput input = new DecodingInput(in, "TestStream", (b, off, len) -> {
            if (calls[0]++ > 0) {
                return -1;
            }
            b[off] = 7;
            return 1;
        }, released::incrementAndGet);
        assertEquals(0, input.read(new byte[1], 0, 0), "nothing asked, nothing decoded");
        assertEquals(7, input.read());
        assertEquals(-1, input.read());
        input.close();
        input.close();
        assertEquals(1, released.get());
        assertEquals(1, closed.get());
        assertThrows(IOException.class, input::read);
    }
}
