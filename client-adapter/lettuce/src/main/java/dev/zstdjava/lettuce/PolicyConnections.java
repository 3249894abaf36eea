package dev.zstdjava.lettuce;

import dev.zstdjava.values.CommandPolicy;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.ClusterPushHandler;
import io.lettuce.core.cluster.StatefulRedisClusterConnectionImpl;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.json.JsonParser;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.pubsub.PubSubEndpoint;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnectionImpl;

import java.time.Duration;
import java.util.Collection;
import java.util.function.Supplier;

/**
 * Lettuce's connection classes with a {@link CommandGate} in front of their {@code dispatch}: every command of the
 * sync, async and reactive APIs (and of {@code dispatch}) passes it before Lettuce queues it for a transaction or
 * routes it in a cluster. Made by {@link CompressingRedisClient} and {@link CompressingRedisClusterClient} for
 * connections whose codec is a {@link CompressingCodec}.
 */
final class PolicyConnections {
    private PolicyConnections() {}

    /** The policy of a compressing codec, or null for any other codec (whose connections stay Lettuce's own). */
    static CommandPolicy policyOf(RedisCodec<?, ?> codec) {
        if (codec instanceof CompressingCodec<?, ?> c) {
            c.attachPolicy();
            return c.compressor().config().commandPolicy();
        }
        return null;
    }

    /**
     * The gate of a connection with a {@link CompressingCodec}: replies with compressed values that no thread waits
     * for are decoded on the client's computation executor ({@code ClientResources#eventExecutorGroup()}, as many
     * threads as cores unless {@code computationThreadPoolSize} says otherwise).
     */
    static <K, V> CommandGate<K, V> gate(CommandPolicy policy, CommandGate.Target<K, V> target, RedisCodec<K, V> codec,
                                         RedisChannelWriter writer) {
        return new CommandGate<>(policy, target, (CompressingCodec<K, V>) codec,
                writer.getClientResources().eventExecutorGroup());
    }

    /** A standalone connection (and a cluster's node connection) under the policy. */
    static final class Standalone<K, V> extends StatefulRedisConnectionImpl<K, V> implements CommandGate.Target<K, V> {
        private final CommandGate<K, V> gate;

        Standalone(CommandPolicy policy, RedisChannelWriter writer, PushHandler pushHandler, RedisCodec<K, V> codec,
                   Duration timeout, Supplier<JsonParser> parser) {
            super(writer, pushHandler, codec, timeout, parser);
            this.gate = gate(policy, this, codec, writer);
        }

        Standalone(CommandPolicy policy, RedisChannelWriter writer, PushHandler pushHandler, RedisCodec<K, V> codec,
                   Duration timeout) {
            super(writer, pushHandler, codec, timeout);
            this.gate = gate(policy, this, codec, writer);
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
        public <T> RedisCommand<K, V, T> send(RedisCommand<K, V, T> command) {
            return super.dispatch(command);
        }

        @Override
        public Collection<RedisCommand<K, V, ?>> send(Collection<? extends RedisCommand<K, V, ?>> commands) {
            return super.dispatch(commands);
        }

        // The sync API whose callers decode their own replies (runs in Lettuce's constructor, after async()).
        @Override
        protected RedisCommands<K, V> newRedisSyncCommandsImpl() {
            return SyncCalls.of(this, super.newRedisSyncCommandsImpl(), async());
        }
    }

    /** A standalone pub/sub connection under the policy ({@code PUBLISH} and subscriptions are plain). */
    static final class PubSub<K, V> extends StatefulRedisPubSubConnectionImpl<K, V>
            implements CommandGate.Target<K, V> {
        private final CommandGate<K, V> gate;

        PubSub(CommandPolicy policy, PubSubEndpoint<K, V> endpoint, RedisChannelWriter writer, RedisCodec<K, V> codec,
               Duration timeout) {
            super(endpoint, writer, codec, timeout);
            // replies decoded on the loop: messages reach the listeners from there, and PUBLISH's reply has no value
            this.gate = new CommandGate<>(policy, this, (CompressingCodec<K, V>) codec, null);
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
        public <T> RedisCommand<K, V, T> send(RedisCommand<K, V, T> command) {
            return super.dispatch(command);
        }

        @Override
        public Collection<RedisCommand<K, V, ?>> send(Collection<? extends RedisCommand<K, V, ?>> commands) {
            return super.dispatch(commands);
        }
    }

    /** A cluster connection under the policy: commands are decided before Lettuce routes them. */
    static final class Cluster<K, V> extends StatefulRedisClusterConnectionImpl<K, V>
            implements CommandGate.Target<K, V> {
        private final CommandGate<K, V> gate;

        Cluster(CommandPolicy policy, RedisChannelWriter writer, ClusterPushHandler pushHandler, RedisCodec<K, V> codec,
                Duration timeout, Supplier<JsonParser> parser) {
            super(writer, pushHandler, codec, timeout, parser);
            this.gate = gate(policy, this, codec, writer);
        }

        Cluster(CommandPolicy policy, RedisChannelWriter writer, ClusterPushHandler pushHandler, RedisCodec<K, V> codec,
                Duration timeout) {
            super(writer, pushHandler, codec, timeout);
            this.gate = gate(policy, this, codec, writer);
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
        public <T> RedisCommand<K, V, T> send(RedisCommand<K, V, T> command) {
            return super.dispatch(command);
        }

        @Override
        public Collection<RedisCommand<K, V, ?>> send(Collection<? extends RedisCommand<K, V, ?>> commands) {
            return super.dispatch(commands);
        }

        public boolean isMulti() {
            return false; // Lettuce runs no MULTI on a cluster connection (only on node connections)
        }

        // The sync API whose callers decode their own replies (runs in Lettuce's constructor, after async()).
        @Override
        protected RedisAdvancedClusterCommands<K, V> newRedisAdvancedClusterCommandsImpl() {
            return SyncCalls.of(this, super.newRedisAdvancedClusterCommandsImpl(), async());
        }
    }
}
