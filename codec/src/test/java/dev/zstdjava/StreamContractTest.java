package dev.zstdjava;

import dev.zstdjava.lz4.Lz4Frame;
import dev.zstdjava.lz4.Lz4FrameInputStream;
import dev.zstdjava.lz4.Lz4FrameOutputStream;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdDecompressStream;
import dev.zstdjava.zstd.ZstdInputStream;
import dev.zstdjava.zstd.ZstdOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The codec's {@code InputStream}s and {@code OutputStream}s side by side with each other and with the JDK's
 * {@code java.util.zip} streams: the decompression limit (what reaches the caller's array) and every operation after
 * {@code close()}.
 */
class StreamContractTest {
    /** Lower-case ASCII: never the 0xFF the destinations are filled with. */
    private static final byte[] DATA = new byte[300_000];
    private static final byte UNTOUCHED = (byte) 0xFF;

    static {
        for (int i = 0; i < DATA.length; i++) {
            DATA[i] = (byte) ('a' + (i / 7 + i % 13) % 26);
        }
    }

    private interface Opener {
        InputStream open(byte[] compressed, long limit) throws IOException;
    }

    private record Codec(String name, byte[] compressed, Opener opener) {}

    private static Codec[] codecs() {
        return new Codec[] {
                new Codec("zstd", Zstd.compress(DATA), (c, limit) -> new ZstdInputStream(new ByteArrayInputStream(c),
                        ZstdDecompressStream.builder().maxDecompressedSize(limit))),
                new Codec("lz4 frame", Lz4Frame.compress(DATA),
                        (c, limit) -> new Lz4FrameInputStream(new ByteArrayInputStream(c), limit))};
    }

    /**
     * With a limit under the content, reads into a large array return at most the limit in total, and the read that
     * passes it writes at most one byte past it before it throws: the lz4 stream wrote up to 64 KiB past it (a whole
     * native call's output) where the zstd stream stops at the limit plus one byte.
     */
    @Test
    void theReadThatPassesTheLimitWritesAtMostOneBytePastIt() throws IOException {
        for (Codec codec : codecs()) {
            for (int limit : new int[] {100_000, 65_536, 1, 0}) {
                byte[] dst = new byte[DATA.length + 100];
                Arrays.fill(dst, UNTOUCHED);
                String what = codec.name() + ", limit " + limit;
                try (InputStream in = codec.opener().open(codec.compressed(), limit)) {
                    int[] returned = {0};
                    assertThrows(DecompressionLimitException.class, () -> {
                        for (int n; (n = in.read(dst, returned[0], dst.length - returned[0])) >= 0; ) {
                            returned[0] += n;
                        }
                    }, what);
                    assertTrue(returned[0] <= limit, what + ": returned " + returned[0]);
                }
                int written = 0;
                while (written < dst.length && dst[written] != UNTOUCHED) {
                    written++;
                }
                assertTrue(written <= limit + 1, what + ": the array was written up to index " + (written - 1));
                assertArrayEquals(Arrays.copyOf(DATA, written), Arrays.copyOf(dst, written), what);
                for (int i = written; i < dst.length; i++) {
                    assertEquals(UNTOUCHED, dst[i], what + ": byte " + i + " written past the limit");
                }
            }
            try (InputStream in = codec.opener().open(codec.compressed(), DATA.length)) {
                assertArrayEquals(DATA, in.readAllBytes(), codec.name() + ": exactly at the limit reads it all");
            }
        }
    }

    @Test
    void skipDecodesAndDropsWhileOpen() throws IOException {
        for (Codec codec : codecs()) {
            try (InputStream in = codec.opener().open(codec.compressed(), DATA.length)) {
                assertEquals(0, in.skip(0));
                assertEquals(0, in.skip(-5), "a negative skip skips nothing, as InputStream.skip");
                assertEquals(100_000, in.skip(100_000), codec.name());
                assertEquals(DATA[100_000], (byte) in.read(), codec.name());
                assertEquals(DATA.length - 100_001, in.skip(Long.MAX_VALUE), codec.name() + ": up to the end");
                assertEquals(0, in.skip(10), codec.name() + ": nothing left");
                assertEquals(-1, in.read());
            }
        }
    }

    /**
     * After {@code close()} every operation of an input stream throws {@link IOException}, as
     * {@code InflaterInputStream}'s do: {@code available()} returned 0 and {@code skip(0)} 0 on the codec's streams.
     */
    @Test
    void inputStreamsRefuseEveryOperationAfterClose() throws IOException {
        Map<String, InputStream> streams = new LinkedHashMap<>();
        ByteArrayOutputStream deflated = new ByteArrayOutputStream();
        try (DeflaterOutputStream out = new DeflaterOutputStream(deflated)) {
            out.write(DATA, 0, 1000);
        }
        streams.put("InflaterInputStream (the JDK's)", new InflaterInputStream(new ByteArrayInputStream(
                deflated.toByteArray())));
        for (Codec codec : codecs()) {
            streams.put(codec.name(), codec.opener().open(codec.compressed(), DATA.length));
        }
        for (Map.Entry<String, InputStream> e : streams.entrySet()) {
            InputStream in = e.getValue();
            String what = e.getKey();
            assertEquals(DATA[0], (byte) in.read(), what);
            in.close();
            byte[] b = new byte[10];
            closed(what + " read()", in::read);
            closed(what + " read(b)", () -> in.read(b));
            closed(what + " read(b, 0, 0)", () -> in.read(b, 0, 0));
            closed(what + " available()", in::available);
            closed(what + " skip(5)", () -> in.skip(5));
            closed(what + " skip(0)", () -> in.skip(0));
            closed(what + " readAllBytes()", in::readAllBytes);
            in.close(); // idempotent
        }
    }

    /**
     * After {@code close()} every write of an output stream throws {@link IOException}, as
     * {@code DeflaterOutputStream}'s do; {@code flush()} throws too (the JDK's depends on the stream below it).
     */
    @Test
    void outputStreamsRefuseEveryWriteAfterClose() throws IOException {
        Map<String, OutputStream> streams = new LinkedHashMap<>();
        streams.put("DeflaterOutputStream (the JDK's)", new DeflaterOutputStream(new ByteArrayOutputStream()));
        streams.put("zstd", new ZstdOutputStream(new ByteArrayOutputStream()));
        streams.put("lz4 frame", new Lz4FrameOutputStream(new ByteArrayOutputStream()));
        for (Map.Entry<String, OutputStream> e : streams.entrySet()) {
            OutputStream out = e.getValue();
            String what = e.getKey();
            out.write(DATA, 0, 1000);
            out.close();
            closed(what + " write(int)", () -> out.write(1));
            closed(what + " write(b)", () -> out.write(DATA));
            closed(what + " write(b, 0, 0)", () -> out.write(DATA, 0, 0));
            if (!(out instanceof DeflaterOutputStream)) {
                closed(what + " flush()", out::flush);
            }
            out.close(); // idempotent
        }
        Lz4FrameOutputStream lz4 = (Lz4FrameOutputStream) streams.get("lz4 frame");
        closed("lz4 frame finish()", lz4::finish);
    }

    private static void closed(String what, Executable call) {
        assertThrows(IOException.class, call, what + " after close");
    }
}
