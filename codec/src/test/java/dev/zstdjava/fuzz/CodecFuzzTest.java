package dev.zstdjava.fuzz;

import java.util.List;

/** Every codec decoding entry point under fuzzing (see {@link FuzzTargetsTest}). */
class CodecFuzzTest extends FuzzTargetsTest {
    @Override
    protected List<Class<?>> all() {
        return List.of(ZstdOneShotFuzz.class, ZstdStreamFuzz.DecompressStream.class,
                ZstdStreamFuzz.InputStreamTarget.class, ZstdFrameFuzz.class, ZstdDictionaryFuzz.class,
                Lz4BlockFuzz.Exact.class, Lz4BlockFuzz.Bounded.class, Lz4FrameFuzz.OneShot.class,
                Lz4FrameFuzz.Streams.class);
    }
}
