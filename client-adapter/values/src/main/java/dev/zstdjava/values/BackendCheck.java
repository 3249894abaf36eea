package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The check {@link ValueCompressor#create} makes before it returns: one round trip of a small value through a pooled
 * coder with the configured backend, so that a library that does not load or a backend that does not work is reported
 * when the compressor is made, naming every location tried. Stateless.
 */
final class BackendCheck {
    private BackendCheck() {}

    /** @throws IllegalStateException naming the reason (and the library locations tried) when the round trip fails */
    static void run(CompressionConfig config, DictionaryLookup dictionaries, CoderPool pool) {
        CompressionBackend backend = config.backend();
        byte[] unit = "zstd-java backend check ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] sample = new byte[256];
        for (int i = 0; i < sample.length; i++) {
            sample[i] = unit[i % unit.length];
        }
        // a limit below the sample's size would refuse the round trip: check the backend with a coder of its own
        Coder own = config.maxDecompressedSize() >= sample.length ? null
                : new Coder(config.toBuilder().maxDecompressedSize(sample.length).build(), dictionaries);
        Coder c = own != null ? own : pool.acquire();
        try {
            MemorySegment stored = MemorySegment.ofArray(new byte[sample.length + 64]);
            long n = c.writer().encode(MemorySegment.ofArray(sample), stored, stored.byteSize(), null);
            if (n == ValueBackend.NO_ROOM) {
                throw new IllegalStateException("a " + sample.length + "-byte repetitive value did not compress");
            }
            byte[] back = c.writer().decode(stored.asSlice(0, n));
            if (!Arrays.equals(sample, back)) {
                throw new IllegalStateException("a round trip returned different bytes");
            }
        } catch (RuntimeException | LinkageError e) {
            throw new IllegalStateException("zstd-java: the " + backend.name().toLowerCase(java.util.Locale.ROOT)
                    + " backend does not work here: " + describe(e), e);
        } finally {
            if (own != null) {
                own.close();
            } else {
                pool.release(c);
            }
        }
    }

    /** @return the messages along a cause chain (a failed class initialisation hides the loader's in its cause) */
    static String describe(Throwable e) {
        StringBuilder b = new StringBuilder();
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && !m.isBlank() && b.indexOf(m) < 0) {
                b.append(b.length() == 0 ? "" : "; caused by: ").append(m);
            } else if (b.length() == 0) {
                b.append(t.getClass().getName());
            }
        }
        return b.toString();
    }
}
