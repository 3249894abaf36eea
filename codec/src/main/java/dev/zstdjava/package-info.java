/**
 * zstd-java: zstd and LZ4 codecs over the Java FFM API.
 *
 * <ul>
 *   <li>{@link dev.zstdjava.zstd} – zstd one-shot compression, decompression and frame inspection;</li>
 *   <li>{@link dev.zstdjava.lz4} – LZ4 block and frame formats;</li>
 *   <li>{@link dev.zstdjava.NativeLibrary} – which native library was loaded and from where.</li>
 * </ul>
 *
 * <p>The native libraries come from, in order: the path in the system property {@code zstdjava.zstd.path}
 * ({@code zstdjava.lz4.path}); the copy bundled in a {@code zstd-java-natives-<platform>} jar, extracted once per
 * process below {@code zstdjava.tmpdir} (default {@code java.io.tmpdir}); the system library.
 */
package dev.zstdjava;
