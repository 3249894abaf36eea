package dev.zstdjava.lettuce;

import io.lettuce.core.protocol.CommandWrapper;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;

/**
 * A command whose value arguments the policy compresses: while it encodes (on the event loop), {@link PolicyScope}
 * says so to {@link CompressingCodec}. Everything else (completion, output, cancellation) is the wrapped command's.
 * Made once per compressed command by {@link CommandGate}; a cluster retry re-encodes the same object, so the
 * decision is never made again.
 */
final class PolicyCommand<K, V, T> extends CommandWrapper<K, V, T> {
    PolicyCommand(RedisCommand<K, V, T> command) {
        super(command);
    }

    // Encodes the wrapped command with compression on for its value arguments; restores the flag after (nesting-safe).
    @Override
    public void encode(ByteBuf buf) {
        PolicyScope scope = PolicyScope.current();
        boolean before = scope.compress;
        scope.compress = true;
        try {
            command.encode(buf);
        } finally {
            scope.compress = before;
        }
    }
}
