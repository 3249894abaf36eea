package dev.zstdjava.lettuce;

import io.lettuce.core.protocol.CommandHandler;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.group.ChannelGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GenericFutureListener;
import io.netty.util.internal.ThreadExecutorMap;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells Lettuce that a policy client's channel is inactive when its event loop ended without closing it. Netty 4.2's
 * event loop closes its channels only when it sees the shutdown right after a pass of I/O: a shutdown of the
 * {@code ClientResources} (the client not shut down first) that comes while the loop runs its tasks ends the loop
 * with the channel still open, and Lettuce's {@code CommandHandler} never gets {@code channelInactive}: the
 * connection's commands would stay pending for ever and the connection would still say it is open. A policy client's
 * loop spends more of its time in tasks than a plain client's (its replies cost the loop less to read, and it hands
 * them over to the decoding threads in a task), so its connections met that end far more often than Lettuce's own.
 * Once a loop that one of the client's connections was activated on has terminated, each of the client's channels on
 * a terminated loop that is still open gets Lettuce's handling of an inactive channel, on the thread that learns of
 * the termination: the connection is deactivated and its commands fail (or wait for a reconnect) as when the loop
 * closes the channel. Netty 4.1 closes the channels before its loop ends: nothing is left to do here then.
 *
 * <p>Thread-safe. Nothing per command: a map look-up per activation of a connection, a listener per event loop
 * (removed when the client shuts down).
 */
final class StrandedChannels {
    private final ChannelGroup channels;
    private final Map<EventExecutor, GenericFutureListener<Future<Object>>> watched = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** @param channels the client's channels (Lettuce's {@code AbstractRedisClient.channels}) */
    StrandedChannels(ChannelGroup channels) {
        this.channels = channels;
    }

    /** On the event loop, when a connection of the client is activated: watches that loop's termination. */
    void watchThisLoop() {
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        if (loop == null || closed || watched.containsKey(loop)) {
            return;
        }
        GenericFutureListener<Future<Object>> ended = f -> {
            if (watched.remove(loop) != null) {
                release();
            }
        };
        if (watched.putIfAbsent(loop, ended) == null) {
            termination(loop).addListener(ended);
        }
    }

    /** When the client shuts down (it closes its channels itself): stops watching. */
    void close() {
        closed = true;
        watched.forEach((loop, ended) -> termination(loop).removeListener(ended));
        watched.clear();
    }

    @SuppressWarnings("unchecked")
    private static Future<Object> termination(EventExecutor loop) {
        return (Future<Object>) loop.terminationFuture();
    }

    // Each channel whose loop has terminated while the channel is still open: Lettuce's handler is told the channel
    // is inactive, once (by whoever takes the channel out of the group).
    private void release() {
        for (Channel channel : channels) {
            if (channel.isOpen() && channel.eventLoop().isTerminated() && channels.remove(channel)) {
                inactive(channel);
            }
        }
    }

    private static void inactive(Channel channel) {
        ChannelHandlerContext ctx = channel.pipeline().context(CommandHandler.class);
        if (ctx == null) {
            return;
        }
        try {
            ((CommandHandler) ctx.handler()).channelInactive(ctx);
        } catch (Exception passingOn) {
            // the handlers after Lettuce's cannot be told on the terminated loop (its reconnecting watchdog would not
            // reconnect without the loop anyway); the connection and its commands are handled by then
        }
    }
}
