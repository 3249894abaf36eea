package dev.zstdjava.values;

import dev.zstdjava.testkit.Allocations;
import dev.zstdjava.testkit.TestValues;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AdaptiveCompressor#compress(byte[], int, int, MemorySegment, MemorySegment)}, the form an adapter uses to write
 * into its client's buffers: it stores what the array form stores, from heap and native segments into heap and native
 * ones, counts its writes, refuses a destination it cannot fill, and a write that is not sampled makes no copy.
 */
class AdaptiveSegmentWritesTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Patterns settled after 8 sampled writes each, and never sampled again: the options are fixed from then on. */
    static AdaptiveCompressor settled() {
        AdaptiveCompressor a = AdaptiveCompressor.builder(CompressionConfig.defaults())
                .patterns(List.of("json:*", "blob:*")).sampling(8, 1 << 30, 1 << 30).window(8, 8)
                .hysteresis(1, 0.01, 0.2).build();
        for (int i = 0; i < 8; i++) {
            a.compress(utf8("json:" + i), utf8(TestValues.json(1500 + i)));
            a.compress(utf8("blob:" + i), TestValues.random(700, i));
        }
        assertEquals(CompressionOption.PLAIN, a.snapshot().get(1).option(), "random bytes settle on plain");
        return a;
    }

    private static byte[] stored(AdaptiveCompressor a, byte[] key, MemorySegment value, MemorySegment dst) {
        long n = a.compress(key, 0, key.length, value, dst);
        return dst.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void aSegmentWriteStoresWhatTheArrayFormStores() {
        AdaptiveCompressor a = settled();
        byte[] lookalike = TestValues.random(900, 7);
        lookalike[0] = 0x00;
        lookalike[1] = 0x01;
        lookalike[2] = 0x02;
        List<byte[]> keys = List.of(utf8("json:100"), utf8("blob:100"), utf8("blob:101"), utf8("json:tiny"));
        List<byte[]> values = List.of(utf8(TestValues.json(1700)), TestValues.random(800, 3), lookalike, utf8("tiny"));
        try (Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < keys.size(); i++) {
                byte[] key = keys.get(i);
                byte[] value = values.get(i);
                byte[] expected = a.compress(key, value);
                MemorySegment nativeValue = arena.allocate(value.length);
                nativeValue.copyFrom(MemorySegment.ofArray(value));
                for (MemorySegment src : List.of(MemorySegment.ofArray(value), nativeValue)) {
                    for (MemorySegment dst : List.of(MemorySegment.ofArray(new byte[value.length]),
                            arena.allocate(value.length))) {
                        byte[] got = stored(a, key, src, dst);
                        String what = new String(key, StandardCharsets.UTF_8) + (src.isNative() ? " native" : " heap")
                                + " into " + (dst.isNative() ? "native" : "heap");
                        assertArrayEquals(expected, got, what);
                        assertArrayEquals(value, a.decompress(got), what);
                    }
                }
            }
        }
    }

    @Test
    void segmentWritesAreCountedUnderTheirOption() {
        AdaptiveCompressor a = settled();
        CompressionOption json = a.snapshot().get(0).option();
        OptionWrites before = a.writes(json);
        byte[] value = utf8(TestValues.json(1600));
        long stored = 0;
        for (int i = 0; i < 20; i++) {
            byte[] key = utf8("json:" + (200 + i));
            stored += a.compress(key, 0, key.length, MemorySegment.ofArray(value),
                    MemorySegment.ofArray(new byte[value.length]));
        }
        OptionWrites after = a.writes(json);
        assertEquals(20, after.values() - before.values());
        assertEquals(20L * value.length, after.originalBytes() - before.originalBytes());
        assertEquals(stored, after.storedBytes() - before.storedBytes());
    }

    @Test
    void aDestinationThatCannotHoldTheValueIsRefused() {
        AdaptiveCompressor a = settled();
        byte[] key = utf8("json:1");
        MemorySegment value = MemorySegment.ofArray(utf8(TestValues.json(1500)));
        IllegalArgumentException shorter = assertThrows(IllegalArgumentException.class,
                () -> a.compress(key, 0, key.length, value, MemorySegment.ofArray(new byte[100])));
        assertTrue(shorter.getMessage().contains("holds 100 bytes"), shorter.getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.compress(key, 0, key.length, value,
                MemorySegment.ofArray(new byte[2000]).asReadOnly()));
        assertThrows(IndexOutOfBoundsException.class, () -> a.compress(key, 1, key.length, value,
                MemorySegment.ofArray(new byte[2000])));
    }

    /**
     * The array form allocates its stored form; the segment form, on a write that is not sampled, nothing, as the fixed
     * mode's segment write ({@link ValueCompressor#compress(MemorySegment, MemorySegment)}): no copy of the value, no
     * view of the destination.
     */
    @Test
    void aSegmentWriteThatIsNotSampledAllocatesNothingAsTheFixedModesDoes() {
        AdaptiveCompressor a = settled();
        ValueCompressor fixed = ValueCompressor.create(CompressionConfig.defaults());
        byte[] key = utf8("json:300");
        byte[] blobKey = utf8("blob:300");
        byte[] json = utf8(TestValues.json(1500));
        byte[] blob = TestValues.random(700, 5);
        MemorySegment jsonSegment = MemorySegment.ofArray(json);
        MemorySegment blobSegment = MemorySegment.ofArray(blob);
        MemorySegment dst = MemorySegment.ofArray(new byte[2000]);
        long adaptive = Allocations.bytesPerCall(20_000, () -> (int) a.compress(key, 0, key.length, jsonSegment, dst));
        long plain = Allocations.bytesPerCall(20_000,
                () -> (int) a.compress(blobKey, 0, blobKey.length, blobSegment, dst));
        long fixedMode = Allocations.bytesPerCall(20_000, () -> (int) fixed.compress(jsonSegment, dst));
        long array = Allocations.bytesPerCall(20_000, () -> a.compress(key, json).length);
        String figures = "bytes per write: segment " + adaptive + ", fixed mode's segment write " + fixedMode
                + ", array form " + array;
        assertEquals(0, fixedMode, "the fixed mode's segment write makes no view of dst; " + figures);
        assertEquals(0, adaptive, "a compressing pattern's segment write allocates nothing; " + figures);
        assertEquals(0, plain, "a plain pattern's segment write copies the value and allocates nothing; " + figures);
        int storedLength = a.compress(key, json).length;
        assertTrue(array >= storedLength && adaptive < storedLength / 4, figures + "; stored form " + storedLength);
        assertArrayEquals(a.compress(key, json), stored(a, key, jsonSegment, dst));
    }
}
