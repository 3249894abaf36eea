package dev.zstdjava.lettuce;

import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.fuzz.FuzzTargetsTest;
import java.util.List;

/** The value format under fuzzing (see {@link FuzzTargetsTest}). */
class ValueCompressorFuzzTest extends FuzzTargetsTest {
    @Override
    protected List<Class<?>> all() {
        return List.of(ValueCompressorFuzz.class);
    }
}
