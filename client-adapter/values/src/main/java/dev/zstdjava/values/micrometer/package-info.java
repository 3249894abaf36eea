/**
 * Micrometer meters over a {@link dev.zstdjava.values.ValueCompressor}'s counters:
 * {@link dev.zstdjava.values.micrometer.CompressionMetrics}. Needs {@code io.micrometer:micrometer-core} (1.16 or
 * newer) on the class or module path; {@code zstd-java-values} declares it optional, so only users of this package
 * bring it in.
 */
package dev.zstdjava.values.micrometer;
