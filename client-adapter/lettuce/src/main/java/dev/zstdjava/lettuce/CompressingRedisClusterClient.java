package dev.zstdjava.lettuce;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.cluster.ClusterPushHandler;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.StatefulRedisClusterConnectionImpl;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.json.JsonParser;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.resource.ClientResources;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A Lettuce {@link RedisClusterClient} that makes compressing cluster connections:
 * {@link #connect(RedisCodec, ValueCompressor)} returns a connection that follows the compressor's command policy, as
 * {@link CompressingRedisClient} describes. A command is decided once, before Lettuce routes it: the parts of an
 * {@code MSET} that Lettuce splits by slot are each an {@code MSET}, and a retry after {@code MOVED}/{@code ASK}
 * re-sends the same command object with the same bytes, compressed once on the dispatching thread. Node connections
 * ({@code getConnection(nodeId)}) follow the policy too.
 *
 * <pre>{@code
 * ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults()); // one per application
 * CompressingRedisClusterClient cluster =
 *         CompressingRedisClusterClient.create(RedisURI.create("redis://localhost:7000"));
 * StatefulRedisClusterConnection<String, String> connection = cluster.connect(StringCodec.UTF8, values);
 * }</pre>
 *
 * <p><b>Not covered:</b> cluster pub/sub connections ({@code connectPubSub}), which Lettuce builds without a
 * factory method to override: connect them with the plain codec (messages are never compressed) and use a cluster
 * connection for values. Needs Lettuce 6.6 or newer, as {@link CompressingRedisClient} does. Thread-safe, like {@link RedisClusterClient}.
 */
public class CompressingRedisClusterClient extends RedisClusterClient {
    /** decode the replies of this client's compressing connections (threads start when first needed) */
    private final ReplyDecoders decoders = new ReplyDecoders(getResources().computationThreadPoolSize());
    /** fails the commands of a connection whose event loop ended without closing its channel (Netty 4.2) */
    private final StrandedChannels stranded = new StrandedChannels(channels);

    /**
     * @param resources shared client resources, or null for the client's own; @param uris seed nodes
     * @throws UnsupportedOperationException on a Lettuce older than the supported range (the message names it)
     */
    protected CompressingRedisClusterClient(ClientResources resources, Iterable<RedisURI> uris) {
        super(LettuceLine.require("CompressingRedisClusterClient", resources), uris);
    }

    /** @return a client with its own resources, seeded by {@code uri} */
    public static CompressingRedisClusterClient create(RedisURI uri) {
        return new CompressingRedisClusterClient(null, List.of(Objects.requireNonNull(uri, "uri")));
    }

    /** @return a client with its own resources, seeded by {@code uris} */
    public static CompressingRedisClusterClient create(Iterable<RedisURI> uris) {
        return new CompressingRedisClusterClient(null, uris);
    }

    /** @return a client on shared {@code resources}, seeded by {@code uris} */
    public static CompressingRedisClusterClient create(ClientResources resources, Iterable<RedisURI> uris) {
        return new CompressingRedisClusterClient(Objects.requireNonNull(resources, "resources"), uris);
    }

    /**
     * Connects to the cluster with values compressed: the one call that makes a compressing cluster connection (its
     * node connections follow the policy too). Its codec is {@code codec} wrapped in a {@link CompressingCodec} with
     * {@code values}, available as {@code getCodec()}.
     *
     * @param codec  encodes keys and values, for example {@code StringCodec.UTF8} or {@code ByteArrayCodec.INSTANCE};
     *               not a {@code CompressingCodec}
     * @param values compresses the values of the commands the policy compresses (one per application)
     * @return a cluster connection under the command policy of {@code values}' configuration
     * @throws IllegalArgumentException when {@code codec} is a {@code CompressingCodec}
     */
    public <K, V> StatefulRedisClusterConnection<K, V> connect(RedisCodec<K, V> codec, ValueCompressor values) {
        return connect(PolicyConnections.codec(codec, values));
    }

    /**
     * As {@link #connect(RedisCodec, ValueCompressor)}, with each value written with the option its key's pattern has
     * shown to suit {@code adaptive}'s goal: adaptive compression, opt-in. The pattern key of a value is its command's
     * key ({@code MSET}: the key before each value; a hash write: the hash's key);
     * {@link CompressingCodec#wrap(RedisCodec, AdaptiveCompressor)} says how, and what it costs. The command policy
     * and the size limits are those of {@link AdaptiveCompressor#config()}; the connection reads with
     * {@link AdaptiveCompressor#reader()}, which reads every value {@code adaptive} writes (with per-pattern
     * dictionaries too); fixed-mode connections and Valkey GLIDE read them all but those of the dictionary option
     * (build {@code adaptive} without dictionaries where they read the same keys). The decisions:
     * {@code adaptive.snapshot()} ({@link CompressingCodec#adaptive()} gives the compressor of a codec).
     *
     * @param codec    encodes keys and values; not a {@code CompressingCodec}
     * @param adaptive decides per key pattern and writes the values (one per application)
     * @return a connection under the command policy of {@code adaptive}'s configuration
     * @throws IllegalArgumentException when {@code codec} is a {@code CompressingCodec}
     */
    public <K, V> StatefulRedisClusterConnection<K, V> connect(RedisCodec<K, V> codec, AdaptiveCompressor adaptive) {
        return connect(PolicyConnections.codec(codec, adaptive));
    }

    // Lettuce's cluster client makes its node and cluster connections through the factories with a JSON parser.
    @Override
    protected <K, V> StatefulRedisConnectionImpl<K, V> newStatefulRedisConnection(RedisChannelWriter channelWriter,
            PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout, Supplier<JsonParser> parser) {
        StatefulRedisConnectionImpl<K, V> gated = PolicyConnections.standalone(
                OrderedReplies.writer(channelWriter, codec, getCommandListeners(), decoders), pushHandler, codec,
                timeout, parser, stranded);
        return gated != null ? gated
                : super.newStatefulRedisConnection(channelWriter, pushHandler, codec, timeout, parser);
    }

    @Override
    protected <V, K> StatefulRedisClusterConnectionImpl<K, V> newStatefulRedisClusterConnection(
            RedisChannelWriter channelWriter, ClusterPushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout,
            Supplier<JsonParser> parser) {
        CommandPolicy policy = PolicyConnections.policyOf(codec);
        return policy == null
                ? super.newStatefulRedisClusterConnection(channelWriter, pushHandler, codec, timeout, parser)
                : new PolicyConnections.Cluster<>(policy, channelWriter, pushHandler, codec, timeout, parser);
    }

    @Override
    public CompletableFuture<Void> shutdownAsync(long quietPeriod, long timeout, TimeUnit timeUnit) {
        decoders.shutdown();
        stranded.close();
        return super.shutdownAsync(quietPeriod, timeout, timeUnit);
    }
}
