package dev.zstdjava.values;

/**
 * What one thread uses for one call of a {@link ValueCompressor}: a bound instance of every backend of the shared
 * format (they read any backend's values), of every configured {@link LegacyFormat} reader, and scratch memory. Not
 * thread-safe: {@link CoderPool} lends each instance to one thread at a time. The backends are bound once, here, and
 * create their native contexts on first use.
 */
final class Coder implements AutoCloseable {
    /** Scratch arrays up to this size are kept between calls. */
    static final int KEEP_SCRATCH = 1 << 20;

    private final CompressionConfig config;
    private final DictionaryLookup dictionaries;
    /** Bound backends of the shared format, by {@link CompressionBackend#ordinal()}. */
    private final HeaderBackend[] shared;
    /** The configured backend, which writes. */
    private final HeaderBackend writer;
    /** Bound readers of the configured legacy formats, by {@link LegacyFormat#ordinal()}; null for the others. */
    private final LegacyReader[] legacy;
    private byte[] scratch = new byte[0];
    /** How many of its pool's frees of released dictionaries this coder has seen; its pool's, under its lending. */
    int releasesSeen;

    Coder(CompressionConfig config, DictionaryLookup dictionaries) {
        this.config = config;
        this.dictionaries = dictionaries;
        CompressionBackend[] backends = CompressionBackend.values();
        this.shared = new HeaderBackend[backends.length];
        for (CompressionBackend b : backends) {
            shared[b.ordinal()] = b.backend().bind(this);
        }
        this.writer = shared[config.backend().ordinal()];
        this.legacy = new LegacyReader[LegacyFormat.values().length];
        for (LegacyFormat f : config.legacyFormats()) { // after the shared backends: the Redisson readers use them
            legacy[f.ordinal()] = f.reader().bind(this);
        }
    }

    CompressionConfig config() {
        return config;
    }

    /** @return where the compressor finds the dictionaries frames name, or null when it reads none */
    DictionaryLookup dictionaries() {
        return dictionaries;
    }

    /** @return the configured backend, bound to this coder */
    HeaderBackend writer() {
        return writer;
    }

    /** @return {@code backend}, bound to this coder */
    HeaderBackend shared(CompressionBackend backend) {
        return shared[backend.ordinal()];
    }

    /** @return the coder of {@code form} bound to this coder (a coded form: not plain, not unknown header) */
    ValueBackend bound(StoredForm form) {
        CompressionBackend backend = form.backend();
        return backend != null ? shared[backend.ordinal()] : legacy[form.legacyFormat().ordinal()];
    }

    /** @return the reader of {@code format} bound to this coder, or null when the format is not configured */
    LegacyReader legacy(LegacyFormat format) {
        return legacy[format.ordinal()];
    }

    /** @return a heap array of at least {@code size} bytes, reused between calls */
    byte[] scratch(int size) {
        if (scratch.length < size) {
            scratch = new byte[size];
        }
        return scratch;
    }

    void trimScratch() {
        if (scratch.length > KEEP_SCRATCH) {
            scratch = new byte[0];
        }
    }

    /** Frees the decompressors of dictionaries whose digests were released; the others are kept. */
    void freeReleasedDictionaries() {
        ((ZstdBackend) shared[CompressionBackend.ZSTD.ordinal()]).freeReleasedDictionaries();
    }

    @Override
    public void close() {
        for (HeaderBackend b : shared) {
            b.close();
        }
        for (LegacyReader r : legacy) {
            if (r != null) {
                r.close();
            }
        }
    }
}
