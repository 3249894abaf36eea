package dev.zstdjava.lettuce;

import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.InMemoryDictionaryStore;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.soak.CodecOps;
import dev.zstdjava.soak.Soak;
import io.lettuce.core.codec.ByteArrayCodec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The adapter's operations for soak runs: {@link ValueCompressor} with both backends in every form (shared
 * instances, and instances created now and then), {@link CompressingCodec} encoding and decoding values as Lettuce
 * does, and dictionaries: a given dictionary, a managed one that samples, trains and retrains in the background (an
 * in-memory store), and managers created, used and closed now and then. Each operation checks its result. Not
 * thread-safe (per-instance native buffers).
 */
final class AdapterOps {
    private static final List<CompressionConfig> CONFIGS = List.of(CompressionConfig.defaults(),
            CompressionConfig.builder().backend(CompressionBackend.LZ4).level(0).build(),
            CompressionConfig.builder().level(9).minCompressionSize(6).build(),
            CompressionConfig.builder().backend(CompressionBackend.LZ4).level(9).minCompressionSize(6).build());
    private final List<ValueCompressor> shared = CONFIGS.stream().map(ValueCompressor::create).toList();
    private final List<CompressingCodec<byte[], byte[]>> codecs = shared.stream()
            .map(vc -> CompressingCodec.wrap(ByteArrayCodec.INSTANCE, vc)).toList();
    private final MemorySegment dst = Arena.ofAuto().allocate(1 << 17);
    private final byte[] dictionary = trainedDictionary();
    private final ValueCompressor given = ValueCompressor.create(CompressionConfig.defaults(),
            DictionaryManager.given(dictionary).build());
    private final ValueCompressor managed = ValueCompressor.create(CompressionConfig.defaults(), managedMode(
            new InMemoryDictionaryStore()));

    /** A 16 KiB dictionary trained on the soak's own values. */
    private static byte[] trainedDictionary() {
        SplittableRandom r = new SplittableRandom(7);
        List<byte[]> samples = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            samples.add(CodecOps.value(r));
        }
        return dev.zstdjava.zstd.ZstdDictionary.train(samples, 16 << 10).toByteArray();
    }

    /** Managed mode that trains early and retrains often, so a soak run goes through many training rounds. */
    private static DictionaryManager managedMode(InMemoryDictionaryStore store) {
        return DictionaryManager.managed(store).minSamples(200).retrainInterval(Duration.ofSeconds(2))
                .minImprovement(0).build();
    }

    static void same(String what, byte[] expected, byte[] actual) {
        if (!Arrays.equals(expected, actual)) {
            throw new AssertionError(what + ": " + expected.length + " bytes in, " + actual.length + " back");
        }
    }

    /** @return what the managed dictionary did during the run (trained, adopted, rejected) */
    String trainingStats() {
        var t = managed.dictionaries().trainingStats();
        return String.format("trained %d, adopted %d, rejected %d, failed %d", t.trained(), t.adopted(), t.rejected(),
                t.failed());
    }

    Map<String, Soak.Op> ops() {
        Map<String, Soak.Op> m = new LinkedHashMap<>();
        m.put("ValueCompressor byte[]", (r, i) -> {
            ValueCompressor vc = shared.get(r.nextInt(shared.size()));
            byte[] v = CodecOps.value(r);
            same("byte[] " + vc.config(), v, vc.decompress(vc.compress(v)));
        });
        m.put("ValueCompressor ByteBuffer and segment", (r, i) -> {
            ValueCompressor vc = shared.get(r.nextInt(shared.size()));
            byte[] v = CodecOps.value(r);
            ByteBuffer out = ByteBuffer.allocateDirect(v.length);
            vc.compress(ByteBuffer.wrap(v), out);
            ByteBuffer back = vc.decompress(out.flip());
            byte[] b = new byte[back.remaining()];
            back.get(b);
            same("ByteBuffer " + vc.config(), v, b);
            long n = vc.compress(MemorySegment.ofArray(v), dst);
            same("segment " + vc.config(), v, vc.decompress(dst.asSlice(0, n)));
        });
        m.put("CompressingCodec", (r, i) -> {
            CompressingCodec<byte[], byte[]> codec = codecs.get(r.nextInt(codecs.size()));
            byte[] v = CodecOps.value(r);
            same("codec", v, codec.decodeValue(Compressing.on(() -> codec.encodeValue(v))));
        });
        m.put("ValueCompressor created", (r, i) -> {
            if (i % 100 == 0) {
                ValueCompressor vc = ValueCompressor.create(CONFIGS.get((int) (i / 100 % CONFIGS.size())));
                byte[] v = CodecOps.value(r);
                same("new ValueCompressor", v, vc.decompress(vc.compress(v)));
                byte[] stored = vc.compress(v);
                if (stored.length > 5) {
                    byte[] broken = stored.clone();
                    broken[broken.length - 1] ^= 0x33;
                    try {
                        vc.decompress(broken); // returned as stored, or decoded to other bytes: never a crash
                    } catch (dev.zstdjava.CompressionException documented) {
                        // the stricter error policy may report it
                    }
                }
            }
        });
        m.put("ValueCompressor with dictionaries", (r, i) -> {
            ValueCompressor vc = r.nextBoolean() ? given : managed;
            byte[] v = CodecOps.value(r);
            same("dictionary " + vc.dictionaries(), v, vc.decompress(vc.compress(v)));
        });
        m.put("DictionaryManager created and closed", (r, i) -> {
            if (i % 1000 == 0) {
                InMemoryDictionaryStore store = new InMemoryDictionaryStore();
                try (DictionaryManager dm = i % 2000 == 0 ? DictionaryManager.given(dictionary).build()
                        : managedMode(store)) {
                    ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), dm);
                    for (int k = 0; k < 300; k++) {
                        byte[] v = CodecOps.value(r);
                        same("new " + dm, v, vc.decompress(vc.compress(v)));
                    }
                }
            }
        });
        return m;
    }
}
