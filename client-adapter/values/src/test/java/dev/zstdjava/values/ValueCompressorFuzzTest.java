package dev.zstdjava.values;

import dev.zstdjava.fuzz.FuzzTargetsTest;
import java.util.List;

/** The value format under fuzzing (see {@link FuzzTargetsTest}). */
class ValueCompressorFuzzTest extends FuzzTargetsTest {
    @Override
    protected List<Class<?>> all() {
        return List.of(ValueCompressorFuzz.class);
    }
}
