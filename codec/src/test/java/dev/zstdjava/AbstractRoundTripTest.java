package dev.zstdjava;

import dev.zstdjava.TestData.Kind;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntToLongFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The round trip every codec must pass, in every API shape it offers: each size and kind of data at each level is
 * compressed in every shape, the outputs must be identical and within the codec's bound, and the output must
 * decompress to the input in every shape. A codec's own test extends this class with a {@link Codec} and keeps only
 * what is specific to it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractRoundTripTest {
    /** The API shapes of a codec. */
    public enum Shape {
        /** {@code compress(MemorySegment, MemorySegment)} on native memory. */
        SEGMENT_NATIVE,
        /** The same on heap segments, the destination a slice at an offset of a larger array. */
        SEGMENT_HEAP,
        /** {@code compress(byte[], off, len, byte[], off, len)} with ranges inside larger arrays. */
        ARRAY_OFFSETS,
        /** {@code compress(byte[])} into a new array of exactly the output's size. */
        ARRAY_NEW,
        /** {@code compress(ByteBuffer, ByteBuffer)} on direct buffers with positions other than 0. */
        BUFFER_DIRECT,
        /** The same on heap buffers, the destination a slice with an array offset. */
        BUFFER_HEAP,
        /** The codec's static one-liners. */
        STATIC,
        /** {@link OutputStream} and {@link InputStream} wrappers. */
        STREAM
    }

    /** {@code long call(MemorySegment src, MemorySegment dst)}. */
    public interface SegmentCall {
        long call(MemorySegment src, MemorySegment dst);
    }

    /** {@code int call(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen)}. */
    public interface ArrayCall {
        int call(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen);
    }

    /** {@code int call(ByteBuffer src, ByteBuffer dst)}. */
    public interface BufferCall {
        int call(ByteBuffer src, ByteBuffer dst);
    }

    /** {@code byte[] call(byte[] src, int size)}: to a new array; {@code size} is the original size. */
    public interface NewArrayCall {
        byte[] call(byte[] src, int size);
    }

    /** Wraps a stream in a compressing or decompressing one. */
    public interface StreamWrap<S> {
        S wrap(S stream) throws IOException;
    }

    /** One direction of a codec in every shape: segments, arrays with offsets, new arrays, buffers, static calls. */
    public record Calls(SegmentCall segment, ArrayCall array, NewArrayCall newArray, BufferCall buffer,
                           NewArrayCall statics) {}

    /**
     * One compressor and decompressor at one level.
     *
     * @param bound         the most output an input of a given size can give
     * @param compressing   the compressing stream, or null when the codec has no streams
     * @param decompressing the decompressing stream, or null
     * @param closer        frees both
     */
    public record Codec(IntToLongFunction bound, Calls compress, Calls decompress,
                           StreamWrap<OutputStream> compressing, StreamWrap<InputStream> decompressing, Runnable closer)
            implements AutoCloseable {
        @Override
        public void close() {
            closer.run();
        }
    }

    /** @return a codec at {@code level} whose options suit inputs of {@code size} bytes */
    protected abstract Codec open(int level, int size);

    /** @return the input sizes to test */
    protected abstract int[] sizes();

    /** @return the levels to test at {@code size} */
    protected abstract int[] levels(int size);

    /** @return the shapes to test at {@code size}; by default all but STREAM, which a codec with streams adds */
    protected Set<Shape> shapes(int size) {
        return EnumSet.complementOf(EnumSet.of(Shape.STREAM));
    }

    /** @return the smallest size from which repetitive data must shrink to under a twentieth */
    protected abstract int compressesFrom();

    /** @return true when compressing writes nothing in the destination past its output (not scratch space) */
    protected boolean writesOnlyItsOutput() {
        return false;
    }

    /** Checks the codec's own facts about one output of {@code size} bytes of input, e.g. a declared size. */
    protected void checkCompressed(byte[] compressed, int size) {}

    final Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (int size : sizes()) {
                for (int level : levels(size)) {
                    out.add(Arguments.of(kind, size, level));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} B level {2}")
    @MethodSource("cases")
    void roundTripsInEveryShape(Kind kind, int size, int level) throws IOException {
        byte[] data = TestData.generate(kind, size, size * 31L + level);
        Set<Shape> shapes = shapes(size);
        try (Codec c = open(level, size)) {
            byte[] reference = null;
            for (Shape shape : shapes) {
                if (shape == Shape.STREAM) {
                    continue; // a stream may write a different (equally valid) output: checked below
                }
                byte[] out = compress(c, shape, data);
                assertTrue(out.length <= c.bound().applyAsLong(size), shape + ": within the bound");
                checkCompressed(out, size);
                if (reference == null) {
                    reference = out;
                } else {
                    assertArrayEquals(reference, out, "the same output in every shape (" + shape + ")");
                }
            }
            for (Shape shape : shapes) {
                assertArrayEquals(data, decompress(c, shape, reference, size), "round trip through " + shape);
            }
            if (shapes.contains(Shape.STREAM)) {
                ByteArrayOutputStream sink = new ByteArrayOutputStream();
                try (OutputStream out = c.compressing().wrap(sink)) {
                    out.write(data);
                }
                assertArrayEquals(data, c.decompress().newArray().call(sink.toByteArray(), size), "streamed output decodes one-shot");
            }
            if (kind == Kind.REPETITIVE && size >= compressesFrom()) {
                assertTrue(reference.length < size / 20, "repetitive data compresses: " + reference.length);
            }
        }
    }

    private byte[] compress(Codec c, Shape shape, byte[] data) {
        int bound = (int) c.bound().applyAsLong(data.length);
        switch (shape) {
            case SEGMENT_NATIVE -> {
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment src = a.allocate(Math.max(1, data.length)).asSlice(0, data.length);
                    MemorySegment.copy(data, 0, src, ValueLayout.JAVA_BYTE, 0, data.length);
                    MemorySegment dst = a.allocate(bound);
                    long n = c.compress().segment().call(src, dst);
                    return dst.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
                }
            }
            case SEGMENT_HEAP -> {
                byte[] dst = new byte[bound + 10];
                long n = c.compress().segment().call(MemorySegment.ofArray(data), MemorySegment.ofArray(dst).asSlice(10));
                return Arrays.copyOfRange(dst, 10, 10 + (int) n);
            }
            case ARRAY_OFFSETS -> {
                byte[] src = new byte[data.length + 13];
                System.arraycopy(data, 0, src, 5, data.length);
                byte[] dst = new byte[bound + 11];
                Arrays.fill(dst, (byte) 0x5A);
                int n = c.compress().array().call(src, 5, data.length, dst, 3, bound);
                assertEquals(0x5A, dst[2] & 0xFF, "nothing written before the destination range");
                for (int i = writesOnlyItsOutput() ? 3 + n : 3 + bound; i < dst.length; i++) {
                    assertEquals(0x5A, dst[i] & 0xFF, "nothing written after the "
                            + (writesOnlyItsOutput() ? "output" : "destination range"));
                }
                return Arrays.copyOfRange(dst, 3, 3 + n);
            }
            case ARRAY_NEW -> {
                return c.compress().newArray().call(data, data.length);
            }
            case BUFFER_DIRECT, BUFFER_HEAP -> {
                boolean direct = shape == Shape.BUFFER_DIRECT;
                ByteBuffer src = direct ? ByteBuffer.allocateDirect(data.length + 8) : ByteBuffer.allocate(data.length + 8);
                src.position(3);
                src.put(data);
                src.flip().position(3);
                ByteBuffer dst = direct ? ByteBuffer.allocateDirect(bound + 20)
                        : ByteBuffer.allocate(bound + 20).slice(4, bound + 16);
                dst.position(6);
                int n = c.compress().buffer().call(src, dst);
                assertEquals(src.limit(), src.position(), "source consumed");
                assertEquals(6 + n, dst.position(), "destination advanced");
                byte[] out = new byte[n];
                dst.get(6, out);
                return out;
            }
            case STATIC -> {
                return c.compress().statics().call(data, data.length);
            }
            default -> throw new AssertionError(shape);
        }
    }

    private static byte[] decompress(Codec c, Shape shape, byte[] compressed, int size) throws IOException {
        switch (shape) {
            case SEGMENT_NATIVE -> {
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment src = a.allocate(compressed.length);
                    MemorySegment.copy(compressed, 0, src, ValueLayout.JAVA_BYTE, 0, compressed.length);
                    MemorySegment dst = a.allocate(size + 100L); // more room than needed is fine
                    long n = c.decompress().segment().call(src, dst);
                    return dst.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
                }
            }
            case SEGMENT_HEAP -> {
                byte[] dst = new byte[size + 3];
                long n = c.decompress().segment().call(MemorySegment.ofArray(compressed), MemorySegment.ofArray(dst).asSlice(3, size));
                assertEquals(size, n, "exactly the destination's size");
                return Arrays.copyOfRange(dst, 3, 3 + size);
            }
            case ARRAY_OFFSETS -> {
                byte[] src = new byte[compressed.length + 9];
                System.arraycopy(compressed, 0, src, 4, compressed.length);
                byte[] dst = new byte[size + 10];
                int n = c.decompress().array().call(src, 4, compressed.length, dst, 6, size + 4);
                return Arrays.copyOfRange(dst, 6, 6 + n);
            }
            case ARRAY_NEW -> {
                return c.decompress().newArray().call(compressed, size);
            }
            case BUFFER_DIRECT, BUFFER_HEAP -> {
                boolean direct = shape == Shape.BUFFER_DIRECT;
                ByteBuffer src = direct ? ByteBuffer.allocateDirect(compressed.length).put(compressed).flip()
                        : ByteBuffer.wrap(compressed);
                ByteBuffer dst = direct ? ByteBuffer.allocateDirect(size + 3) : ByteBuffer.allocate(size + 3);
                dst.position(3);
                int n = c.decompress().buffer().call(src, dst);
                assertEquals(size, n);
                assertEquals(0, src.remaining(), "source consumed");
                assertEquals(size + 3, dst.position(), "destination advanced");
                byte[] out = new byte[n];
                dst.get(3, out);
                return out;
            }
            case STATIC -> {
                return c.decompress().statics().call(compressed, size);
            }
            case STREAM -> {
                try (InputStream in = c.decompressing().wrap(new ByteArrayInputStream(compressed))) {
                    byte[] out = in.readAllBytes();
                    assertEquals(-1, in.read(), "end of stream stays the end");
                    return out;
                }
            }
            default -> throw new AssertionError(shape);
        }
    }
}
