package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The stored value format shared with Valkey GLIDE: {@code 00 01 02} magic, version byte {@code 00}, backend id,
 * then the backend's payload (see {@link ValueCompressor}); which backend an id names is in the catalogue of stored
 * forms ({@link StoredForm}). Stateless and thread-safe; allocates nothing.
 */
public final class ValueFormat {
    /** Size of the header: 3 magic bytes, the version, the backend id. */
    public static final int HEADER_SIZE = 5;
    static final int VERSION_OFFSET = 3;
    static final int BACKEND_OFFSET = 4;
    /** The version byte this library writes; a reader does not check it (a tool may report others as unknown). */
    public static final int VERSION = 0x00;
    static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** {@link #LE_INT} in a {@code byte[]}: {@code set(array, offset, int)}. */
    static final VarHandle LE_INT_IN_ARRAY = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private ValueFormat() {}

    /** @return whether {@code s} is at least a header long and starts with the magic bytes */
    public static boolean hasHeader(MemorySegment s) {
        return s.byteSize() >= HEADER_SIZE
                && s.get(ValueLayout.JAVA_BYTE, 0) == 0x00
                && s.get(ValueLayout.JAVA_BYTE, 1) == 0x01
                && s.get(ValueLayout.JAVA_BYTE, 2) == 0x02;
    }

    /** @return whether {@code a} starts with a header */
    static boolean hasHeader(byte[] a) {
        return a.length >= HEADER_SIZE && a[0] == 0x00 && a[1] == 0x01 && a[2] == 0x02;
    }

    /** @return whether the remaining bytes of {@code b} start with a header; reads absolutely, moves nothing */
    public static boolean hasHeader(ByteBuffer b) {
        int p = b.position();
        return b.limit() - p >= HEADER_SIZE && b.get(p) == 0x00 && b.get(p + 1) == 0x01 && b.get(p + 2) == 0x02;
    }

    /** @return the version byte of {@code s}'s header as 0..255, or -1 when {@code s} has no header */
    public static int headerVersion(MemorySegment s) {
        return hasHeader(s) ? s.get(ValueLayout.JAVA_BYTE, VERSION_OFFSET) & 0xff : -1;
    }

    /**
     * @return the backend id of {@code s}'s header as 0..255 (which form it names: {@link StoredForm#recognise}), or
     *         -1 when {@code s} has no header
     */
    public static int headerId(MemorySegment s) {
        return hasHeader(s) ? s.get(ValueLayout.JAVA_BYTE, BACKEND_OFFSET) & 0xff : -1;
    }

    /** Writes the header naming the backend {@code id} to the start of {@code dst}. */
    static void writeHeader(byte[] dst, byte id) {
        dst[0] = 0x00;
        dst[1] = 0x01;
        dst[2] = 0x02;
        dst[VERSION_OFFSET] = (byte) VERSION;
        dst[BACKEND_OFFSET] = id;
    }

    /** Writes the header naming the backend {@code id} to the start of {@code dst}. */
    static void writeHeader(MemorySegment dst, byte id) {
        dst.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x00);
        dst.set(ValueLayout.JAVA_BYTE, 1, (byte) 0x01);
        dst.set(ValueLayout.JAVA_BYTE, 2, (byte) 0x02);
        dst.set(ValueLayout.JAVA_BYTE, VERSION_OFFSET, (byte) VERSION);
        dst.set(ValueLayout.JAVA_BYTE, BACKEND_OFFSET, id);
    }
}
