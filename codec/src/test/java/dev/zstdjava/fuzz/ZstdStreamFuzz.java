package dev.zstdjava.fuzz;

import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdDecompressStream;
import dev.zstdjava.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Fuzz targets for zstd streaming decompression: {@link ZstdDecompressStream} over native segments in small
 * steps, and {@link ZstdInputStream} read in odd chunks. The first input byte picks the step sizes, the rest is the
 * stream. A stream that decodes must give the same bytes as one-shot decompression when that decodes too.
 */
public final class ZstdStreamFuzz {
    static final int LIMIT = 128 << 10;
    private static final ZstdDecompressStream DS = ZstdDecompressStream.builder().maxDecompressedSize(LIMIT).build();
    private static final MemorySegment IN = Arena.global().allocate(1 << 20);
    private static final MemorySegment OUT = Arena.global().allocate(4096);

    private ZstdStreamFuzz() {}

    /** Target: {@link ZstdDecompressStream#decompress} with input and output given in small steps. */
    public static final class DecompressStream {
        private DecompressStream() {}

        public static void fuzzerTestOneInput(byte[] data) {
            if (data.length < 1 || data.length - 1 > IN.byteSize()) {
                return;
            }
            int inStep = 1 + (data[0] & 0x0F) * 37;
            int outStep = 1 + ((data[0] >>> 4) & 0x0F) * 211;
            byte[] frame = Arrays.copyOfRange(data, 1, data.length);
            MemorySegment.copy(frame, 0, IN, ValueLayout.JAVA_BYTE, 0, frame.length);
            DS.reset();
            Outcome streamed = Outcome.of(() -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                long pos = 0;
                int idle = 0;
                while (pos < frame.length || !DS.isFrameComplete()) {
                    long end = Math.min(frame.length, pos + inStep);
                    MemorySegment dst = OUT.asSlice(0, Math.min(outStep, OUT.byteSize()));
                    DS.decompress(IN.asSlice(pos, end - pos), dst);
                    if (DS.consumed() < 0 || DS.consumed() > end - pos || DS.produced() < 0
                            || DS.produced() > dst.byteSize()) {
                        throw new AssertionError("consumed " + DS.consumed() + " of " + (end - pos) + ", produced "
                                + DS.produced() + " into " + dst.byteSize());
                    }
                    out.write(OUT.asSlice(0, DS.produced()).toArray(ValueLayout.JAVA_BYTE), 0, (int) DS.produced());
                    pos += DS.consumed();
                    idle = DS.consumed() == 0 && DS.produced() == 0 ? idle + 1 : 0;
                    if (idle > 2) {
                        return null; // truncated: no input left and no progress; not an error of the stream API
                    }
                }
                return out.toByteArray();
            });
            if (streamed.ok() && DS.totalProduced() != streamed.output().length) {
                throw new AssertionError("totalProduced " + DS.totalProduced() + " for " + streamed.output().length);
            }
            Outcome.sameWhenBothOk("stream vs one-shot", streamed, Outcome.of(() -> Zstd.decompress(frame, LIMIT)));
        }
    }

    /** Target: {@link ZstdInputStream} over a byte stream, read in chunks of odd sizes. */
    public static final class InputStreamTarget {
        private InputStreamTarget() {}

        public static void fuzzerTestOneInput(byte[] data) {
            if (data.length < 1) {
                return;
            }
            int chunk = 1 + (data[0] & 0x7F) * 13;
            boolean continuous = data[0] < 0;
            byte[] frame = Arrays.copyOfRange(data, 1, data.length);
            Outcome streamed = Outcome.of(() -> {
                try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(frame),
                        ZstdDecompressStream.builder().maxDecompressedSize(LIMIT)).continuous(continuous)) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    byte[] buf = new byte[chunk + 2];
                    for (int n; (n = in.read(buf, 1, chunk)) != -1; ) {
                        if (n < 0 || n > chunk) {
                            throw new AssertionError("read returned " + n + " for " + chunk + " bytes asked");
                        }
                        out.write(buf, 1, n);
                    }
                    if (in.decompressedBytes() != out.size()) {
                        throw new AssertionError("decompressedBytes " + in.decompressedBytes() + " for " + out.size());
                    }
                    return out.toByteArray();
                } catch (IOException e) {
                    throw new UncheckedIOException(e); // a byte array stream never fails: a finding
                }
            });
            Outcome.sameWhenBothOk("ZstdInputStream vs one-shot", streamed,
                    Outcome.of(() -> Zstd.decompress(frame, LIMIT)));
        }
    }
}
