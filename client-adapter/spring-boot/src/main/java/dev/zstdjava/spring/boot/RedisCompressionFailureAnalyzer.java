package dev.zstdjava.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Prints a startup failure of the auto-configuration as Boot prints its own ("APPLICATION FAILED TO START",
 * Description, Action): the problem (the property and its value, or the native library's loader message), then what
 * to change. Registered in {@code META-INF/spring.factories}.
 */
final class RedisCompressionFailureAnalyzer extends AbstractFailureAnalyzer<RedisCompressionException> {
    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, RedisCompressionException cause) {
        return new FailureAnalysis(cause.problem(), cause.action(), cause);
    }
}
