/**
 * Client-neutral value compression in Valkey GLIDE's stored format, depending only on {@code zstd-java-codec}.
 *
 * <ul>
 *   <li>{@link dev.zstdjava.values.ValueCompressor}: compresses and decompresses one value at a time, for any client
 *       (Jedis, Redisson, Spring Data Redis, or the Lettuce codec in {@code zstd-java-lettuce}); keeps GLIDE's
 *       counters ({@link dev.zstdjava.values.CompressionStats}).</li>
 *   <li>{@link dev.zstdjava.values.CompressionConfig}: backend ({@link dev.zstdjava.values.CompressionBackend}),
 *       level, minimum size, maximum decompressed size, on/off.</li>
 *   <li>{@link dev.zstdjava.values.ValueFormat}: the header every stored compressed value starts with.</li>
 *   <li>{@link dev.zstdjava.values.StoredForm}: the catalogue of every stored form written or read (the shared
 *       format's backends, other clients' formats selected by {@link dev.zstdjava.values.LegacyFormat}), with the
 *       labels tools print.</li>
 *   <li>{@link dev.zstdjava.values.DictionaryManager}: zstd dictionaries for small values (opt-in): given by the
 *       application, or sampled, trained, checked and published by the library; kept in a
 *       {@link dev.zstdjava.values.DictionaryStore} (the server itself with {@code LettuceDictionaryStore}, or
 *       {@link dev.zstdjava.values.InMemoryDictionaryStore}).</li>
 *   <li>{@link dev.zstdjava.values.AdaptiveCompressor}: the option per key pattern ({@link
 *       dev.zstdjava.values.CompressionOption}) that suits a {@link dev.zstdjava.values.CompressionGoal}, measured by
 *       {@link dev.zstdjava.values.OptionMeasurements} (as {@code zstd-values advise} measures), optionally with a
 *       dictionary lineage per pattern ({@link dev.zstdjava.values.PatternDictionaries}).</li>
 * </ul>
 *
 * <p>Values written by clients without compression read back unchanged; GLIDE clients read what this package
 * writes, and the reverse, for both zstd and lz4. Commands that act on a string's bytes on the server
 * ({@code APPEND}, {@code GETRANGE}, {@code SETRANGE}, {@code STRLEN}, {@code LCS}, {@code INCR} and family, bit
 * operations) cannot work on compressed values: see {@link dev.zstdjava.values.ValueCompressor}.
 */
package dev.zstdjava.values;
