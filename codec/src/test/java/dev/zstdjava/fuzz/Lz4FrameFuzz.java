package dev.zstdjava.fuzz;

import dev.zstdjava.lz4.Lz4Frame;
import dev.zstdjava.lz4.Lz4FrameDecompressor;
import dev.zstdjava.lz4.Lz4FrameInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/** Fuzz targets for LZ4 frames: one-shot decoding and the two streaming forms, which must agree. */
public final class Lz4FrameFuzz {
    static final int LIMIT = 128 << 10;
    private static final Lz4FrameDecompressor D = Lz4FrameDecompressor.builder().maxDecompressedSize(LIMIT).build();
    private static final byte[] DST = new byte[LIMIT + 9];
    private static final MemorySegment IN = Arena.global().allocate(1 << 20);
    private static final MemorySegment OUT = Arena.global().allocate(4096);

    private Lz4FrameFuzz() {}

    /** Target: {@code Lz4Frame.decompress}, {@code Lz4Frame.contentSize} and the caller-destination form. */
    public static final class OneShot {
        private OneShot() {}

        public static void fuzzerTestOneInput(byte[] data) {
            Outcome array = Outcome.of(() -> Lz4Frame.decompress(data, LIMIT));
            Outcome ctx = Outcome.of(() -> D.decompress(data));
            Outcome.sameWhenBothOk("Lz4Frame vs Lz4FrameDecompressor", array, ctx);
            try {
                long declared = Lz4Frame.contentSize(data, 0, data.length);
                if (array.ok() && declared != Lz4Frame.UNKNOWN_SIZE && data.length > 0
                        && Lz4Frame.contentSize(data, 0, data.length) < 0) {
                    throw new AssertionError("negative content size " + declared);
                }
            } catch (dev.zstdjava.CompressionException notAFrame) {
                // documented for bytes that are no frame header
            }
            Outcome range = Outcome.ofRange(DST, 4, LIMIT, () -> D.decompress(data, 0, data.length, DST, 4, LIMIT));
            Outcome.sameWhenBothOk("byte[] vs caller range", array, range);
        }
    }

    /**
     * Target: {@link Lz4FrameInputStream} read in odd chunks and {@link Lz4FrameDecompressor#update} over native
     * segments in small steps. The first input byte picks the step sizes.
     */
    public static final class Streams {
        private Streams() {}

        public static void fuzzerTestOneInput(byte[] data) {
            if (data.length < 1 || data.length - 1 > IN.byteSize()) {
                return;
            }
            int inStep = 1 + (data[0] & 0x0F) * 41;
            int outStep = 1 + ((data[0] >>> 4) & 0x0F) * 233;
            byte[] frame = Arrays.copyOfRange(data, 1, data.length);
            Outcome stream = Outcome.of(() -> {
                try (Lz4FrameInputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(frame), LIMIT)) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    byte[] buf = new byte[outStep + 1];
                    for (int n; (n = in.read(buf, 1, outStep)) != -1; ) {
                        if (n < 0 || n > outStep) {
                            throw new AssertionError("read returned " + n + " for " + outStep + " bytes asked");
                        }
                        out.write(buf, 1, n);
                    }
                    return out.toByteArray();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            MemorySegment.copy(frame, 0, IN, ValueLayout.JAVA_BYTE, 0, frame.length);
            D.reset();
            Outcome update = Outcome.of(() -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                long pos = 0;
                long hint = 1;
                int idle = 0;
                while (pos < frame.length || hint != 0) {
                    long end = Math.min(frame.length, pos + inStep);
                    MemorySegment dst = OUT.asSlice(0, Math.min(outStep, OUT.byteSize()));
                    hint = D.update(IN.asSlice(pos, end - pos), dst);
                    if (D.consumed() < 0 || D.consumed() > end - pos || D.produced() < 0
                            || D.produced() > dst.byteSize()) {
                        throw new AssertionError("consumed " + D.consumed() + " of " + (end - pos) + ", produced "
                                + D.produced() + " into " + dst.byteSize());
                    }
                    out.write(OUT.asSlice(0, D.produced()).toArray(ValueLayout.JAVA_BYTE), 0, (int) D.produced());
                    pos += D.consumed();
                    idle = D.consumed() == 0 && D.produced() == 0 ? idle + 1 : 0;
                    if (idle > 2) {
                        return null; // truncated input: no progress possible
                    }
                }
                return out.toByteArray();
            });
            Outcome.sameWhenBothOk("Lz4FrameInputStream vs update", stream, update);
            if (frame.length > 0) {
                Outcome.sameWhenBothOk("Lz4FrameInputStream vs one-shot", stream,
                        Outcome.of(() -> Lz4Frame.decompress(frame, LIMIT)));
            }
        }
    }
}
