package dev.zstdjava.bench;

import dev.zstdjava.zstd.ZstdDecompressor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/** Setup helpers: copies into native memory and the round-trip checks every contestant passes before it is timed. */
final class Check {
    private Check() {
    }

    static MemorySegment nativeCopy(Arena arena, byte[] bytes, long capacity) {
        MemorySegment s = arena.allocate(Math.max(1, capacity), 64);
        MemorySegment.copy(bytes, 0, s, ValueLayout.JAVA_BYTE, 0, bytes.length);
        return s;
    }

    static byte[] bytes(MemorySegment s, long len) {
        return s.asSlice(0, len).toArray(ValueLayout.JAVA_BYTE);
    }

    /** Fails unless {@code frame[0, len)} is a zstd frame that decompresses to {@code raw}. */
    static void zstdFrame(String who, byte[] raw, byte[] frame, int len) {
        byte[] back = new byte[raw.length];
        int n;
        try (ZstdDecompressor d = ZstdDecompressor.create()) {
            n = d.decompress(frame, 0, len, back, 0, back.length);
        }
        same(who, raw, back, n);
    }

    /** Fails unless {@code block[0, len)} is a raw lz4 block that decompresses to {@code raw}. */
    static void lz4Block(String who, byte[] raw, byte[] block, int len) {
        byte[] back = new byte[raw.length];
        int n;
        try (dev.zstdjava.lz4.Lz4Decompressor d = dev.zstdjava.lz4.Lz4Decompressor.create()) {
            n = d.decompress(block, 0, len, back, 0, back.length);
        }
        same(who, raw, back, n);
    }

    /** Fails unless {@code out[0, len)} equals {@code raw}. */
    static void same(String who, byte[] raw, byte[] out, long len) {
        if (len != raw.length || !Arrays.equals(raw, 0, raw.length, out, 0, raw.length)) {
            throw new IllegalStateException(who + ": round trip does not give the payload back (" + len + " of "
                    + raw.length + " bytes)");
        }
    }
}
