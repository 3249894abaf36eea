package dev.zstdjava.values.redisson;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueFormat;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.api.BatchResult;
import org.redisson.api.LocalCachedMapOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RBucket;
import org.redisson.api.RBucketReactive;
import org.redisson.api.RLocalCachedMap;
import org.redisson.api.RMap;
import org.redisson.api.RMapCache;
import org.redisson.api.RStream;
import org.redisson.api.RedissonClient;
import org.redisson.api.stream.StreamAddArgs;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.Codec;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.Decoder;
import org.redisson.client.protocol.Encoder;

import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link CompressingRedissonCodec} side by side with the codec it wraps, on a real server, in both modes with map
 * values compressed: empty values, null values, buckets read and written together, batches, and the failures of the
 * wrapped codec's encoder and decoder reach the caller as they do without compression.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingRedissonCodecContractTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    enum Mode {
        FIXED, ADAPTIVE;

        Codec wrap(Codec inner) {
            CompressionConfig config = CompressionConfig.builder().compressHashValues(true).build();
            return this == FIXED ? new CompressingRedissonCodec(inner, config)
                    : CompressingRedissonCodec.forPattern(inner, AdaptiveCompressor.builder(config).build(), "c:*");
        }
    }

    /*
     * Streams on both Redisson lines: 4.0 moved StreamMessageId from org.redisson.api to org.redisson.api.stream, and
     * RStream.add and RStream.range name it in their signatures, so this test (compiled against one line, run on
     * every supported one) calls them by reflection.
     */

    /** {@code stream.add(args)}. */
    static void add(RStream<?, ?> stream, StreamAddArgs<?, ?> args) {
        invoke(stream, RStream.class, "add", new Class<?>[] {StreamAddArgs.class}, args);
    }

    /** A stream's entries, first to last ({@code RStream.range} over every ID). */
    @SuppressWarnings("unchecked")
    static <K, V> List<Map<K, V>> entries(RStream<K, V> stream) {
        Class<?> id;
        try {
            id = Class.forName("org.redisson.api.stream.StreamMessageId");
        } catch (ClassNotFoundException e) {
            try {
                id = Class.forName("org.redisson.api.StreamMessageId");
            } catch (ClassNotFoundException e2) {
                throw new AssertionError("Redisson has no StreamMessageId in either package", e2);
            }
        }
        Object min;
        Object max;
        try {
            min = id.getField("MIN").get(null);
            max = id.getField("MAX").get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        Object range = invoke(stream, RStream.class, "range", new Class<?>[] {id, id}, min, max);
        return new ArrayList<>(((Map<?, Map<K, V>>) range).values());
    }

    private static Object invoke(Object target, Class<?> type, String name, Class<?>[] parameters, Object... args) {
        try {
            return type.getMethod(name, parameters).invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new AssertionError(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** Runs {@code op} with the plain codec on keys under {@code p:} and the compressing one under {@code c:}. */
    static <T> void same(String what, Codec plain, Codec wrapped, BiFunction<Codec, String, T> op) {
        Object expected;
        try {
            expected = op.apply(plain, "p:");
        } catch (RuntimeException e) {
            RuntimeException got = assertThrows(RuntimeException.class, () -> op.apply(wrapped, "c:"), what);
            assertEquals(e.getClass(), got.getClass(), () -> what + ": " + got + ", where the plain codec threw " + e);
            assertEquals(String.valueOf(e.getCause()), String.valueOf(got.getCause()), what + ": the cause");
            return;
        }
        assertEquals(expected, op.apply(wrapped, "c:"), what);
    }

    /** A check given a Redisson client, the plain codec, the compressing one around it, and a large value. */
    interface SideBySide {
        void run(RedissonClient redisson, Codec plain, Codec wrapped, String big);
    }

    /** Runs {@code test} with a new client, {@code StringCodec} and {@code mode}'s codec around it. */
    static void withBoth(Mode mode, SideBySide test) {
        AdaptiveRedissonCodecTest.withRedisson(redis, redisson ->
                test.run(redisson, StringCodec.INSTANCE, mode.wrap(StringCodec.INSTANCE), json(3000)));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void valuesReadAndFailAsWithTheWrappedCodec(Mode mode) {
        AdaptiveRedissonCodecTest.withRedisson(redis, redisson -> sideBySide(redisson, mode));
    }

    private static void sideBySide(RedissonClient redisson, Mode mode) {
        Codec plain = StringCodec.INSTANCE;
        Codec wrapped = mode.wrap(plain);
        String big = json(3000);
        same("an empty bucket value", plain, wrapped, (c, k) -> {
            redisson.<String>getBucket(k + "empty", c).set("");
            return redisson.<String>getBucket(k + "empty", c).get();
        });
        same("a missing bucket", plain, wrapped, (c, k) -> redisson.<String>getBucket(k + "none", c).get());
        same("a null bucket value (deletes)", plain, wrapped, (c, k) -> {
            redisson.<String>getBucket(k + "gone", c).set(big);
            redisson.<String>getBucket(k + "gone", c).set(null);
            return redisson.<String>getBucket(k + "gone", c).isExists();
        });
        same("an empty map value", plain, wrapped, (c, k) -> {
            redisson.<String, String>getMap(k + "map", c).put("e", "");
            return redisson.<String, String>getMap(k + "map", c).get("e");
        });
        same("a null map value", plain, wrapped, (c, k) -> redisson.<String, String>getMap(k + "map", c).put("n", null));
        same("buckets written and read together", plain, wrapped, (c, k) -> {
            Map<String, Object> values = new LinkedHashMap<>();
            values.put(k + "b1", big);
            values.put(k + "b2", "");
            redisson.getBuckets(c).set(values);
            Map<String, Object> back = redisson.getBuckets(c).get(k + "b1", k + "b2", k + "b3");
            return back.get(k + "b1").equals(big) + " " + back.get(k + "b2") + " " + back.size();
        });
        same("a batch", plain, wrapped, (c, k) -> {
            RBatch batch = redisson.createBatch();
            batch.<String>getBucket(k + "batch", c).setAsync(big);
            batch.<String>getBucket(k + "batch", c).getAsync();
            batch.<String, String>getMap(k + "bmap", c).fastPutAsync("f", big);
            batch.<String, String>getMap(k + "bmap", c).getAsync("f");
            BatchResult<?> r = batch.execute();
            List<Object> out = new ArrayList<>(r.getResponses());
            out.add(redisson.<String>getBucket(k + "batch", c).get());
            return out;
        });

        // the wrapped codec's failures: encoding (on the calling thread) and decoding (on Redisson's threads)
        Codec failing = new StringCodec() {
            @Override
            public Encoder getValueEncoder() {
                return in -> {
                    throw new IllegalStateException("the wrapped encoder failed on " + in);
                };
            }

            @Override
            public Decoder<Object> getValueDecoder() {
                return (ByteBuf buf, org.redisson.client.handler.State state) -> {
                    throw new IllegalStateException("the wrapped decoder failed");
                };
            }
        };
        Codec failingWrapped = mode.wrap(failing);
        same("the wrapped encoder failing", failing, failingWrapped,
                (c, k) -> {
                    redisson.<String>getBucket(k + "enc", c).set("x");
                    return null;
                });
        redis.client().set(CompressingRedissonCodecTest.b("p:dec"), CompressingRedissonCodecTest.b(big));
        redis.client().set(CompressingRedissonCodecTest.b("c:dec"), CompressingRedissonCodecTest.b(big));
        same("the wrapped decoder failing", failing, failingWrapped, (c, k) -> redisson.<String>getBucket(k + "dec", c)
                .get());
        assertEquals(big, redisson.<String>getBucket("c:dec", wrapped).get(), "the connection stays usable");
    }

    /**
     * The get-and-set family of buckets, maps' replies (previous values, missing fields, whole maps in the server's
     * order) and keys of the wrong type: the same results, or the same exception with the same cause (Redisson's
     * message names the codec and the key, which differ here), as with the wrapped codec.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void readsAndWrongTypeKeysAsWithTheWrappedCodec(Mode mode) {
        withBoth(mode, (redisson, plain, wrapped, big) -> {
            for (String k : List.of("p:", "c:")) {
                redis.client().hset(CompressingRedissonCodecTest.b(k + "hash"), CompressingRedissonCodecTest.b("f"),
                        CompressingRedissonCodecTest.b("v"));
                redis.client().set(CompressingRedissonCodecTest.b(k + "string"), CompressingRedissonCodecTest.b("v"));
            }
            same("getAndSet, getAndDelete, getAndExpire", plain, wrapped, (c, k) -> {
                RBucket<String> b = redisson.getBucket(k + "gs", c);
                List<Object> out = new ArrayList<>();
                out.add(b.getAndSet(big));
                out.add(b.getAndSet(big + "2").equals(big));
                out.add(b.getAndExpire(Duration.ofSeconds(100)).equals(big + "2"));
                out.add(b.getAndDelete().equals(big + "2"));
                out.add(b.getAndDelete());
                out.add(b.setIfAbsent(big));
                out.add(b.setIfAbsent("other"));
                out.add(b.compareAndSet(big, "small"));
                out.add(b.get());
                return out;
            });
            same("map replies", plain, wrapped, (c, k) -> {
                RMap<String, String> m = redisson.getMap(k + "m", c);
                List<Object> out = new ArrayList<>();
                out.add(m.put("a", big));
                out.add(m.put("a", "small").equals(big));
                out.add(m.putIfAbsent("b", big));
                out.add(m.putIfAbsent("b", "other").equals(big));
                m.fastPut("c", "");
                out.add(m.getAll(Set.of("a", "missing")));
                out.add(m.readAllMap().keySet());
                out.add(m.readAllValues().size());
                out.add(m.remove("b").equals(big));
                out.add(m.get("missing"));
                return out;
            });
            same("a bucket on a hash", plain, wrapped, (c, k) -> redisson.<String>getBucket(k + "hash", c).get());
            same("getAndSet on a hash", plain, wrapped,
                    (c, k) -> redisson.<String>getBucket(k + "hash", c).getAndSet(big));
            same("getAndDelete on a hash", plain, wrapped,
                    (c, k) -> redisson.<String>getBucket(k + "hash", c).getAndDelete());
            same("a map on a string", plain, wrapped, (c, k) -> redisson.<String, String>getMap(k + "string", c)
                    .get("f"));
            same("a map put on a string", plain, wrapped, (c, k) -> redisson.<String, String>getMap(k + "string", c)
                    .put("f", big));
            same("readAllMap on a string", plain, wrapped,
                    (c, k) -> redisson.<String, String>getMap(k + "string", c).readAllMap());
            assertArrayEquals(CompressingRedissonCodecTest.b("v"), redis.client().hget(
                    CompressingRedissonCodecTest.b("c:hash"), CompressingRedissonCodecTest.b("f")), "the hash as it was");
        });
    }
    /**
     * The other map-like objects and APIs: map caches (values with a time to live), local cached maps (values read
     * from the local cache and from the server), streams, and the reactive API: the same results as with the wrapped
     * codec.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void otherObjectsAsWithTheWrappedCodec(Mode mode) {
        withBoth(mode, (redisson, plain, wrapped, big) -> {
            same("a map cache", plain, wrapped, (c, k) -> {
                RMapCache<String, String> m = redisson.getMapCache(k + "mc", c);
                List<Object> out = new ArrayList<>();
                out.add(m.put("a", big, 100, TimeUnit.SECONDS));
                out.add(m.put("a", "small").equals(big));
                out.add(m.putIfAbsent("b", big, 100, TimeUnit.SECONDS));
                out.add(m.get("b").equals(big));
                out.add(m.readAllMap().keySet());
                out.add(m.fastReplace("b", "x"));
                out.add(m.get("b"));
                return out;
            });
            same("a local cached map", plain, wrapped, (c, k) -> {
                RLocalCachedMap<String, String> m = redisson.getLocalCachedMap(k + "lc", c,
                        LocalCachedMapOptions.defaults());
                List<Object> out = new ArrayList<>();
                out.add(m.put("a", big));
                out.add(m.get("a").equals(big));
                out.add(m.get("a").equals(big));
                RLocalCachedMap<String, String> other = redisson.getLocalCachedMap(k + "lc", c,
                        LocalCachedMapOptions.defaults());
                out.add(other.get("a").equals(big));
                out.add(other.getAll(Set.of("a", "missing")).size());
                m.destroy();
                other.destroy();
                return out;
            });
            same("a stream", plain, wrapped, (c, k) -> {
                RStream<String, String> st = redisson.getStream(k + "st", c);
                add(st, StreamAddArgs.entry("f", big));
                return entries(st).get(0).get("f").equals(big);
            });
            same("the reactive API", plain, wrapped, (c, k) -> {
                RBucketReactive<String> b = redisson.reactive().getBucket(k + "rx", c);
                b.set(big).block();
                return b.get().block().equals(big) + " " + redisson.reactive().<String, String>getMap(k + "rxm", c)
                        .put("f", big).block();
            });
            // a stream's entry values go through the map-value encoder: compressed here, where map values are
            byte[] entry = entries(redisson.<byte[], byte[]>getStream("c:st", ByteArrayCodec.INSTANCE))
                    .get(0).values().iterator().next();
            assertTrue(ValueFormat.hasHeader(ByteBuffer.wrap(entry)), "a stream entry's value is compressed");
        });
    }
}
