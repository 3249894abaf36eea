package dev.zstdjava.lettuce;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.cluster.ClusterPushHandler;
import io.lettuce.core.cluster.StatefulRedisClusterConnectionImpl;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.json.JsonParser;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.pubsub.PubSubEndpoint;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnectionImpl;

import java.time.Duration;
import java.util.Collection;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Lettuce's connection classes with a {@link CommandGate} in front of their {@code dispatch}: every command of the
 * sync, async and reactive APIs (and of {@code dispatch}) passes it before Lettuce queues it for a transaction or
 * routes it in a cluster. Made by {@link CompressingRedisClient} and {@link CompressingRedisClusterClient} for
 * connections whose codec is a {@link CompressingCodec}.
 */
final class PolicyConnections {
    private PolicyConnections() {}

    /**
     * The codec of a connection made in one call ({@code connect(codec, values)} of either client).
     * @throws IllegalArgumentException when {@code codec} already is a {@link CompressingCodec}
     */
    static <K, V> CompressingCodec<K, V> codec(RedisCodec<K, V> codec, ValueCompressor values) {
        refuseWrapped(codec);
        return CompressingCodec.wrap(codec, values);
    }

    /**
     * The codec of an adaptive connection made in one call ({@code connect(codec, adaptive)} of either client).
     * @throws IllegalArgumentException when {@code codec} already is a {@link CompressingCodec}
     */
    static <K, V> CompressingCodec<K, V> codec(RedisCodec<K, V> codec, AdaptiveCompressor adaptive) {
        refuseWrapped(codec);
        return CompressingCodec.wrap(codec, adaptive);
    }

    private static void refuseWrapped(RedisCodec<?, ?> codec) {
        if (codec instanceof CompressingCodec<?, ?>) {
            throw new IllegalArgumentException("pass the codec that encodes keys and values (StringCodec.UTF8, "
                    + "ByteArrayCodec.INSTANCE, ...): the client wraps it in a CompressingCodec with the compressor");
        }
    }

    /** The policy of a compressing codec, or null for any other codec (whose connections stay Lettuce's own). */
    static CommandPolicy policyOf(RedisCodec<?, ?> codec) {
        if (codec instanceof CompressingCodec<?, ?> c) {
            c.attachPolicy();
            return c.compressor().config().commandPolicy();
        }
        return null;
    }

    /**
     * A standalone connection under the policy when {@code codec} is a {@link CompressingCodec} (the policy
     * clients' factory of standalone and node connections).
     * @return the connection, or null for any other codec: Lettuce's own connection is made instead
     */
    static <K, V> StatefulRedisConnectionImpl<K, V> standalone(RedisChannelWriter writer, PushHandler pushHandler,
            RedisCodec<K, V> codec, Duration timeout, Supplier<JsonParser> parser, StrandedChannels stranded) {
        CommandPolicy policy = policyOf(codec);
        return policy == null ? null : new Standalone<>(policy, writer, pushHandler, codec, timeout, parser, stranded);
    }

    /** Lettuce's own {@code dispatch} of one command (a connection's {@code super::dispatch}). */
    interface Send<K, V> {
        <T> RedisCommand<K, V, T> send(RedisCommand<K, V, T> command);
    }

    /** Lettuce's own {@code dispatch} of commands sent together (a connection's {@code super::dispatch}). */
    interface SendAll<K, V> {
        Collection<RedisCommand<K, V, ?>> send(Collection<? extends RedisCommand<K, V, ?>> commands);
    }

    /**
     * The gate of a connection with a {@link CompressingCodec}, sending through the connection's own (Lettuce's)
     * dispatch.
     */
    static <K, V> CommandGate<K, V> gate(CommandPolicy policy, Send<K, V> one, SendAll<K, V> all,
                                         BooleanSupplier multi) {
        CommandGate.Target<K, V> target = new CommandGate.Target<>() {
            @Override
            public <T> RedisCommand<K, V, T> send(RedisCommand<K, V, T> command) {
                return one.send(command);
            }

            @Override
            public Collection<RedisCommand<K, V, ?>> send(Collection<? extends RedisCommand<K, V, ?>> commands) {
                return all.send(commands);
            }

            @Override
            public boolean isMulti() {
                return multi.getAsBoolean();
            }
        };
        return new CommandGate<>(policy, target);
    }

    /** A standalone connection (and a cluster's node connection) under the policy. */
    static final class Standalone<K, V> extends StatefulRedisConnectionImpl<K, V> {
        private final CommandGate<K, V> gate;
        private final StrandedChannels stranded;

        Standalone(CommandPolicy policy, RedisChannelWriter writer, PushHandler pushHandler, RedisCodec<K, V> codec,
                   Duration timeout, Supplier<JsonParser> parser, StrandedChannels stranded) {
            super(writer, pushHandler, codec, timeout, parser);
            this.gate = gate(policy, super::dispatch, super::dispatch, this::isMulti);
            this.stranded = stranded;
        }

        // On the event loop, once the channel is active (and again after each reconnect)
        @Override
        public void activated() {
            super.activated();
            stranded.watchThisLoop();
        }

        @Override
        public <T> RedisCommand<K, V, T> dispatch(RedisCommand<K, V, T> command) {
            return gate == null ? super.dispatch(command) : gate.dispatch(command);
        }

        @Override
        public Collection<RedisCommand<K, V, ?>> dispatch(Collection<? extends RedisCommand<K, V, ?>> commands) {
            return gate == null ? super.dispatch(commands) : gate.dispatch(commands);
        }

        @Override
        public void setTimeout(Duration timeout) {
            super.setTimeout(timeout);
            OrderedReplies.setTimeout(getChannelWriter(), timeout);
        }
    }

    /** A standalone pub/sub connection under the policy ({@code PUBLISH} and subscriptions are plain). */
    static final class PubSub<K, V> extends StatefulRedisPubSubConnectionImpl<K, V> {
        private final CommandGate<K, V> gate;

        PubSub(CommandPolicy policy, PubSubEndpoint<K, V> endpoint, RedisChannelWriter writer, RedisCodec<K, V> codec,
               Duration timeout) {
            super(endpoint, writer, codec, timeout);
            this.gate = gate(policy, super::dispatch, super::dispatch, this::isMulti);
        }

        @Override
        public <T> RedisCommand<K, V, T> dispatch(RedisCommand<K, V, T> command) {
            return gate == null ? super.dispatch(command) : gate.dispatch(command);
        }

        @Override
        public Collection<RedisCommand<K, V, ?>> dispatch(Collection<? extends RedisCommand<K, V, ?>> commands) {
            return gate == null ? super.dispatch(commands) : gate.dispatch(commands);
        }
    }

    /** A cluster connection under the policy: commands are decided before Lettuce routes them. */
    static final class Cluster<K, V> extends StatefulRedisClusterConnectionImpl<K, V> {
        private final CommandGate<K, V> gate;

        Cluster(CommandPolicy policy, RedisChannelWriter writer, ClusterPushHandler pushHandler, RedisCodec<K, V> codec,
                Duration timeout, Supplier<JsonParser> parser) {
            super(writer, pushHandler, codec, timeout, parser);
            // Lettuce runs no MULTI on a cluster connection (only on node connections)
            this.gate = gate(policy, super::dispatch, super::dispatch, () -> false);
        }

        @Override
        public <T> RedisCommand<K, V, T> dispatch(RedisCommand<K, V, T> command) {
            return gate == null ? super.dispatch(command) : gate.dispatch(command);
        }

        @Override
        public Collection<RedisCommand<K, V, ?>> dispatch(Collection<? extends RedisCommand<K, V, ?>> commands) {
            return gate == null ? super.dispatch(commands) : gate.dispatch(commands);
        }
    }
}
