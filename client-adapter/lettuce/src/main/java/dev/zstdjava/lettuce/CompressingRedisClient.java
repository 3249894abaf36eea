package dev.zstdjava.lettuce;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.pubsub.PubSubEndpoint;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnectionImpl;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.sentinel.StatefulRedisSentinelConnectionImpl;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A Lettuce {@link RedisClient} that makes compressing connections: {@link #connect(RedisCodec, ValueCompressor)}
 * returns a connection that follows the {@link CommandPolicy} of the compressor's configuration (GLIDE's scope by
 * default): the values of {@code SET}, {@code SETNX}, {@code SETEX}, {@code PSETEX}, {@code MSET} and {@code MSETNX}
 * are compressed (and hash values when {@code CompressionConfig.Builder#compressHashValues} is on); keys, hash fields,
 * members, list elements, stream entries, script arguments, pub/sub messages and every other command's arguments go
 * out as the given codec encoded them; the commands the server runs on a stored string's bytes ({@code APPEND},
 * {@code INCR}, {@code GETRANGE}, {@code STRLEN}, bit operations, {@code SET ... IFEQ}, {@code SORT ... BY weight_*},
 * ...) fail with {@link dev.zstdjava.values.CommandRefusedException} before anything is sent, and the connection stays
 * usable.
 *
 * <pre>{@code
 * ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults()); // one per application
 * CompressingRedisClient client = CompressingRedisClient.create("redis://localhost:6379");
 * StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8, values);
 * }</pre>
 *
 * <p>Holds for the sync, async and reactive APIs, pipelining with auto-flush off, {@code MULTI}/{@code EXEC} (a
 * refused command discards its transaction: {@code EXEC} runs nothing and every queued command fails with the
 * refusal), connections through a Sentinel URI, and, made with a {@link CompressingCodec} from
 * {@link CompressingCodec#wrap}, pub/sub connections ({@code connectPubSub}; {@code PUBLISH} is plain) and
 * master/replica connections ({@code MasterReplica.connect(thisClient, codec, uri)}, whose node connections this
 * client opens and whose commands go through their {@code dispatch}). Connections with any other codec
 * ({@code connect(codec)}) are Lettuce's own, untouched: use one for counters, strings edited in place, sort weights
 * and keys that scripts compute on (a script reads the stored, compressed bytes).
 *
 * <p><b>Which thread does the work, and Lettuce's contract.</b> A compressed command's values are compressed on the
 * thread that dispatches it (the caller of the sync and async APIs, the subscribing thread for reactive), once: a
 * cluster redirect or a replay after a reconnect sends the same bytes. A reply is read by the connection's event loop;
 * one that carries a compressed value is decoded there when nothing of the connection is pending and it is the first
 * such reply of the loop's pass (a single request decodes as with any codec), otherwise its bytes are copied and
 * decoded by the client's decoding threads ({@code zstd-java-decode-*}, as many at once as Lettuce's computation
 * threads; on JDK 24 and newer virtual threads for commands dispatched from virtual threads, platform threads
 * otherwise), in parallel. Either way the connection's commands complete in the order of their replies. With the same
 * {@code ClientOptions}, a compressing connection behaves as Lettuce's own:
 * <ul>
 *   <li>futures and reactive signals of one connection complete in the order of their replies, and so do the elements
 *       a reactive {@code Flux} or a streaming channel receives as its reply is decoded, and the callbacks of an
 *       output that is not Lettuce's (a module command's, sent with {@code dispatch}) (a reply of theirs that comes
 *       while an earlier one is still pending is recorded whole and decoded in its turn);</li>
 *   <li>callbacks run on the event loop or on a decoding thread, never on an application thread that waits for
 *       something else;</li>
 *   <li>waits, timeouts and cancellation have Lettuce's outcomes (a timeout fires on time; a callback that blocks on
 *       its own connection times out, as it does on the loop); {@code close()} returns once every reply read before it
 *       is completed;</li>
 *   <li>completion hooks ({@code CommandListener}, tracing, {@code onComplete}) see the decoded outcome: a value that
 *       cannot be decoded, or exceeds {@code maxDecompressedSize}, fails its command with that exception, and the
 *       hooks see that failure ({@code CommandLatencyRecorder} records when the reply is read, before it is
 *       decoded);</li>
 *   <li>a large value needs the memory Lettuce needs for it, plus the copy of its compressed bytes;</li>
 *   <li>when only the {@code ClientResources} shut down under open connections, their commands fail as when the
 *       event loop closes the channel, also where Netty 4.2's loop ends without closing it (Lettuce is then never told,
 *       and a plain connection's commands stay pending): {@code StrandedChannels} tells Lettuce.</li>
 * </ul>
 * The system property {@code zstdjava.lettuce.replies} ({@code hybrid}, the default; {@code parallel}; {@code loop}:
 * every reply decoded on the event loop), read when a connection is made, selects the design for measurements:
 * docs/measurements/lettuce-event-loop.md.
 *
 * <p><b>Adaptive compression per key pattern</b> (opt-in): {@link #connect(RedisCodec, AdaptiveCompressor)} writes
 * each value the policy compresses with the option its command's key's pattern has shown to suit a goal.
 *
 * <p>Needs Lettuce 6.6 or newer ({@code docs/support.md}): on an older Lettuce, creating the client throws
 * {@link UnsupportedOperationException} naming the supported range.
 *
 * <p>Per command: one array lookup; a compressed command adds a wrapper and the array of its encoded bytes. Thread-safe,
 * like {@link RedisClient}.
 */
public class CompressingRedisClient extends RedisClient {
    /** decode the replies of this client's compressing connections (threads start when first needed) */
    private final ReplyDecoders decoders = new ReplyDecoders(getResources().computationThreadPoolSize());
    /** fails the commands of a connection whose event loop ended without closing its channel (Netty 4.2) */
    private final StrandedChannels stranded = new StrandedChannels(channels);

    /**
     * A client without a default URI: connect with {@code connect(codec, uri)}.
     * @throws UnsupportedOperationException on a Lettuce older than the supported range (the message names it)
     */
    protected CompressingRedisClient() {
        this(null, new RedisURI()); // what RedisClient() does
    }

    /**
     * @param resources shared client resources, or null for the client's own; @param uri the default server
     * @throws UnsupportedOperationException on a Lettuce older than the supported range (the message names it)
     */
    protected CompressingRedisClient(ClientResources resources, RedisURI uri) {
        super(LettuceLine.require("CompressingRedisClient", resources), uri);
    }

    /** @return a client with its own resources and no default URI */
    public static CompressingRedisClient create() {
        return new CompressingRedisClient();
    }

    /** @return a client with its own resources whose {@code connect(codec)} connects to {@code uri} */
    public static CompressingRedisClient create(RedisURI uri) {
        return new CompressingRedisClient(null, Objects.requireNonNull(uri, "uri"));
    }

    /** @param uri for example {@code redis://localhost:6379}; @return a client with its own resources */
    public static CompressingRedisClient create(String uri) {
        return new CompressingRedisClient(null, RedisURI.create(uri));
    }

    /** @return a client on shared {@code resources} and no default URI */
    public static CompressingRedisClient create(ClientResources resources) {
        return new CompressingRedisClient(Objects.requireNonNull(resources, "resources"), new RedisURI());
    }

    /** @return a client on shared {@code resources} whose {@code connect(codec)} connects to {@code uri} */
    public static CompressingRedisClient create(ClientResources resources, RedisURI uri) {
        return new CompressingRedisClient(Objects.requireNonNull(resources, "resources"),
                Objects.requireNonNull(uri, "uri"));
    }

    /**
     * Connects to the client's URI with values compressed: the one call that makes a compressing connection. Its
     * codec is {@code codec} wrapped in a {@link CompressingCodec} with {@code values}, available as
     * {@code getCodec()}.
     *
     * @param codec  encodes keys and values, for example {@code StringCodec.UTF8} or {@code ByteArrayCodec.INSTANCE};
     *               not a {@code CompressingCodec}
     * @param values compresses the values of the commands the policy compresses (one per application: its
     *               {@link ValueCompressor#stats()} count every connection's values)
     * @return a connection under the command policy of {@code values}' configuration
     * @throws IllegalArgumentException when {@code codec} is a {@code CompressingCodec}
     */
    public <K, V> StatefulRedisConnection<K, V> connect(RedisCodec<K, V> codec, ValueCompressor values) {
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
    public <K, V> StatefulRedisConnection<K, V> connect(RedisCodec<K, V> codec, AdaptiveCompressor adaptive) {
        return connect(PolicyConnections.codec(codec, adaptive));
    }

    @Override
    protected <K, V> StatefulRedisConnectionImpl<K, V> newStatefulRedisConnection(RedisChannelWriter channelWriter,
            PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout) {
        // the JSON parser of the client's options, as Lettuce's own
        StatefulRedisConnectionImpl<K, V> gated = PolicyConnections.standalone(
                OrderedReplies.writer(channelWriter, codec, getCommandListeners(), decoders), pushHandler, codec,
                timeout, getOptions().getJsonParser(), stranded);
        return gated != null ? gated : super.newStatefulRedisConnection(channelWriter, pushHandler, codec, timeout);
    }

    @Override
    protected <K, V> StatefulRedisPubSubConnectionImpl<K, V> newStatefulRedisPubSubConnection(
            PubSubEndpoint<K, V> endpoint, RedisChannelWriter channelWriter, RedisCodec<K, V> codec, Duration timeout) {
        CommandPolicy policy = PolicyConnections.policyOf(codec);
        return policy == null ? super.newStatefulRedisPubSubConnection(endpoint, channelWriter, codec, timeout)
                : new PolicyConnections.PubSub<>(policy, endpoint, channelWriter, codec, timeout);
    }

    // A connection to a Sentinel carries Sentinel commands only: nothing to compress or refuse, so a compressing
    // codec is accepted there (as this client's) and the connection is Lettuce's own.
    @Override
    protected <K, V> StatefulRedisSentinelConnectionImpl<K, V> newStatefulRedisSentinelConnection(
            RedisChannelWriter channelWriter, RedisCodec<K, V> codec, Duration timeout) {
        PolicyConnections.policyOf(codec);
        return super.newStatefulRedisSentinelConnection(channelWriter, codec, timeout);
    }

    @Override
    public CompletableFuture<Void> shutdownAsync(long quietPeriod, long timeout, TimeUnit timeUnit) {
        decoders.shutdown();
        stranded.close();
        return super.shutdownAsync(quietPeriod, timeout, timeUnit);
    }
}
