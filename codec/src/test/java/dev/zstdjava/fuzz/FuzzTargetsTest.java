package dev.zstdjava.fuzz;

import java.util.List;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A module's fuzz targets under test: {@code regression} runs each target's corpus in this JVM, {@code fuzz} runs
 * each target briefly under the coverage-guided fuzzer in a forked JVM ({@link Fuzzing}).
 * {@code -Dzstdjava.fuzz.targets=A,B} restricts both to some targets ({@code tools/fuzz.sh} uses it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class FuzzTargetsTest {
    /** @return every fuzz target of the module */
    protected abstract List<Class<?>> all();

    List<Class<?>> targets() {
        return Fuzzing.select(all());
    }

    @ParameterizedTest(allowZeroInvocations = true)
    @MethodSource("targets")
    void regression(Class<?> target) throws Throwable {
        Fuzzing.regression(target);
    }

    @ParameterizedTest(allowZeroInvocations = true)
    @MethodSource("targets")
    void fuzz(Class<?> target) throws Exception {
        Fuzzing.fuzz(target);
    }
}
