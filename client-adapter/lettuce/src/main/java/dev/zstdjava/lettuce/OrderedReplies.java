package dev.zstdjava.lettuce;

import dev.zstdjava.values.LegacyFormat;
import io.lettuce.core.CommandListenerWriter;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.output.BooleanListOutput;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.DoubleOutput;
import io.lettuce.core.output.IntegerListOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.KeyListOutput;
import io.lettuce.core.output.KeyOutput;
import io.lettuce.core.output.KeyScanStreamingOutput;
import io.lettuce.core.output.KeyStreamingOutput;
import io.lettuce.core.output.KeyValueScanStreamingOutput;
import io.lettuce.core.output.KeyValueStreamingOutput;
import io.lettuce.core.output.ListSubscriber;
import io.lettuce.core.output.ScoredValueScanStreamingOutput;
import io.lettuce.core.output.ScoredValueStreamingOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.StreamingOutput;
import io.lettuce.core.output.ValueScanStreamingOutput;
import io.lettuce.core.output.ValueStreamingOutput;
import io.lettuce.core.output.VoidOutput;
import io.lettuce.core.protocol.CommandExpiryWriter;
import io.lettuce.core.protocol.CommandWrapper;
import io.lettuce.core.protocol.ConnectionFacade;
import io.lettuce.core.protocol.MaintenanceAwareComponent;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Completes a connection's commands in the order of their replies while the replies that carry compressed values are
 * decoded in parallel, mostly off the event loop. A writer under Lettuce's {@link CommandListenerWriter} (so that
 * listeners are told the decoded outcome) and above its expiry writer and endpoint; every command it passes gets a
 * wrapper, and a {@link ReplyRecorder} as its output where its reply may hold values.
 *
 * <p>On the event loop, a reply without a compressed value is decoded as Lettuce decodes it. A reply with one is
 * decoded there too when nothing of the connection is pending and it is the first such reply of this pass of the
 * loop ({@link #decodeHere}): a lone request costs what it costs with any codec. Otherwise its bulk values are copied
 * and, once the pass of the loop has read its replies, the client's {@link ReplyDecoders} decode them: each thread a
 * share of consecutive replies (at least {@value #MIN_SHARE}), so that a pipeline's replies complete together rather
 * than wake their caller one by one. A reply completes on the loop at once when nothing before it is
 * pending; otherwise it waits in the queue, and a decoding thread that has finished its share completes the ready
 * replies at the head of the queue, one after the other, up to the first still being decoded. So callbacks run on the event loop or on a decoding
 * thread, never on an application thread, and in reply order; a reply whose output signals the application as it
 * decodes (a reactive {@code Flux}'s subscriber, a streaming channel, an output that is not Lettuce's: a module
 * command's, sent with {@code dispatch}) is recorded whole when an earlier reply is still
 * pending, and decoded only when it completes, so that its elements too come in reply order. A callback that blocks
 * holds back its connection's
 * later completions, as it holds back the loop with Lettuce alone. Failures (a timeout, a closed connection) complete
 * a command at once, as in Lettuce, but for one the event loop meets while earlier replies are still pending (the
 * application's codec threw on the reply, the channel failed): that one fails in its turn; a timeout first completes
 * the decoded replies at the head of the queue that no thread is completing (their share's thread still decodes a
 * later reply), as Lettuce had completed them. A command
 * that a closed cluster node connection held unanswered, which Lettuce writes again through the cluster to another
 * node's connection, is recorded, ordered and completed by that connection's stage alone: the wrapper of the closed
 * connection's stage then passes straight through.
 *
 * <p>Thread-safe: the queue is guarded by this object's monitor, held only to add, mark and take commands (never
 * while a command completes). Per command: one wrapper, and its chain of wrappers looked through for an earlier
 * stage's (an {@code instanceof} per wrapper); per command whose output may hold values, one recorder; per
 * reply decoded off the loop, the copy of its values; per pass of the loop that hands replies over, an array and a
 * task per share.
 */
class OrderedReplies implements RedisChannelWriter {
    private final RedisChannelWriter delegate;
    private final Executor decoders;
    private final RedisCodec<?, ?> codec;
    private final Set<LegacyFormat> legacy;
    /** commands replied to but not yet completed, in reply order; guarded by this */
    private final ArrayDeque<Ordered<?, ?, ?>> queue = new ArrayDeque<>();
    /** whether a thread is completing the queue's ready commands; guarded by this */
    private boolean draining;
    /** completed when the queue is next empty and nothing drains, for a close waiting on it; guarded by this */
    private CompletableFuture<Void> idle;
    /** whether the loop may decode one reply itself while the stage is idle (the first of a pass of the loop) */
    private final boolean inline;
    /** whether the loop decoded a reply itself in its current pass; read and written on the loop */
    private volatile boolean inlinePass;
    private final Runnable endOfPass = () -> inlinePass = false;
    /** the replies of this pass of the loop still to hand to the decoders, in reply order; guarded by this */
    private final ArrayList<Ordered<?, ?, ?>> burst = new ArrayList<>();
    private final Runnable handOff = this::handOff;
    /** how many decoding threads a burst is shared among */
    private final int parallelism;
    /** which threads decode: {@link ReplyDecoders#PLATFORM}, {@link ReplyDecoders#VIRTUAL} or {@code LIKE_CALLER} */
    private final int threads;

    private OrderedReplies(RedisChannelWriter delegate, Executor decoders, RedisCodec<?, ?> codec,
                           Set<LegacyFormat> legacy, boolean inline) {
        this.inline = inline;
        this.parallelism = decoders instanceof ReplyDecoders d ? d.threads() : 1;
        this.delegate = delegate;
        this.decoders = decoders;
        this.threads = decoders instanceof ReplyDecoders ? ReplyDecoders.threadsForConnection() : ReplyDecoders.PLATFORM;
        this.codec = codec;
        this.legacy = legacy;
    }

    /** The system property that picks how new connections decode replies (to measure the designs side by side). */
    static final String MODE_PROPERTY = "zstdjava.lettuce.replies";

    /**
     * How a new connection decodes replies: {@code hybrid} (the default: as described above), {@code parallel}
     * (every reply with a compressed value off the loop) or {@code loop} (on the event loop, as Lettuce decodes with
     * any codec: no stage). Read from {@value #MODE_PROPERTY} when a connection is made.
     * @throws IllegalArgumentException for any other value, naming the three
     */
    static String mode() {
        String v = System.getProperty(MODE_PROPERTY, "hybrid");
        if (!v.equals("hybrid") && !v.equals("parallel") && !v.equals("loop")) {
            throw new IllegalArgumentException(MODE_PROPERTY + "=" + v + ": expected hybrid (the default), parallel "
                    + "or loop");
        }
        return v;
    }

    /**
     * The writer of a new connection: for a {@link CompressingCodec}, Lettuce's chain with the stage inserted under its
     * {@link CommandListenerWriter} (unless {@link #mode()} is {@code loop}); for any other codec, the chain itself.
     * @param writer    the chain Lettuce built (listener writer, expiry writer, endpoint)
     * @param listeners the client's command listeners (those the listener writer was made with)
     */
    static RedisChannelWriter writer(RedisChannelWriter writer, RedisCodec<?, ?> codec, List<CommandListener> listeners,
                                     Executor decoders) {
        String mode = codec instanceof CompressingCodec<?, ?> ? mode() : "loop";
        if (mode.equals("loop")) {
            return writer;
        }
        Set<LegacyFormat> legacy = ((CompressingCodec<?, ?>) codec).compressor().config().legacyFormats();
        boolean inline = mode.equals("hybrid");
        if (writer instanceof CommandListenerWriter listening) {
            return new CommandListenerWriter(new OrderedReplies(listening.getDelegate(), decoders, codec, legacy,
                    inline), listeners);
        }
        if (MAINTENANCE_AWARE != null && MAINTENANCE_AWARE.isInstance(writer)) {
            return MaintenanceAware.over(writer, decoders, codec, legacy, inline);
        }
        return new OrderedReplies(writer, decoders, codec, legacy, inline);
    }

    /**
     * Lettuce 7's interface of the writer that takes the server's maintenance events (its expiry writer, which relaxes
     * timeouts while a node moves, migrates or fails over), or null on a Lettuce without it. Lettuce connects the
     * events to a connection whose channel writer is one, which the stage, on top, then has to be.
     */
    private static final Class<?> MAINTENANCE_AWARE = lettuceClass("io.lettuce.core.protocol.MaintenanceAwareComponent");

    private static Class<?> lettuceClass(String name) {
        try {
            return Class.forName(name, false, RedisChannelWriter.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError absent) {
            return null;
        }
    }

    /**
     * The stage over a writer that takes maintenance events (Lettuce 7): passes them to it. Loaded only where Lettuce
     * has the interface.
     */
    static final class MaintenanceAware extends OrderedReplies implements MaintenanceAwareComponent {
        private final MaintenanceAwareComponent events;

        private MaintenanceAware(RedisChannelWriter delegate, Executor decoders, RedisCodec<?, ?> codec,
                                 Set<LegacyFormat> legacy, boolean inline) {
            super(delegate, decoders, codec, legacy, inline);
            this.events = (MaintenanceAwareComponent) delegate;
        }

        static OrderedReplies over(RedisChannelWriter delegate, Executor decoders, RedisCodec<?, ?> codec,
                                   Set<LegacyFormat> legacy, boolean inline) {
            return new MaintenanceAware(delegate, decoders, codec, legacy, inline);
        }

        @Override
        public void onMigrateStarted(String shards) {
            events.onMigrateStarted(shards);
        }

        @Override
        public void onMigrateCompleted(String shards) {
            events.onMigrateCompleted(shards);
        }

        @Override
        public void onFailoverStarted(String shards) {
            events.onFailoverStarted(shards);
        }

        @Override
        public void onFailoverCompleted(String shards) {
            events.onFailoverCompleted(shards);
        }

        @Override
        public void onRebindStarted(Duration time, SocketAddress endpoint) {
            events.onRebindStarted(time, endpoint);
        }

        @Override
        public void onRebindCompleted() {
            events.onRebindCompleted();
        }
    }

    /**
     * Passes a connection's new command timeout to Lettuce's expiry writer under the stage (Lettuce's
     * {@code setTimeout} looks for it right under the listener writer only).
     */
    static void setTimeout(RedisChannelWriter writer, Duration timeout) {
        RedisChannelWriter w = writer instanceof CommandListenerWriter l ? l.getDelegate() : writer;
        if (w instanceof OrderedReplies o && o.delegate instanceof CommandExpiryWriter expiry) {
            expiry.setTimeout(timeout);
        }
    }

    // --------------------------------------------------------------------------------------------------- writing

    // Returns what Lettuce's writers return, with the stage's wrapper replaced by the command it was given: callers
    // (the API, the policy's transaction bookkeeping) keep the command they sent.
    @Override
    public <K, V, T> RedisCommand<K, V, T> write(RedisCommand<K, V, T> command) {
        RedisCommand<K, V, T> wrapped = wrap(command);
        RedisCommand<K, V, T> written = delegate.write(wrapped);
        return written == wrapped ? command : written;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <K, V> Collection<RedisCommand<K, V, ?>> write(Collection<? extends RedisCommand<K, V, ?>> commands) {
        List<RedisCommand<K, V, ?>> wrapped = new ArrayList<>(commands.size());
        for (RedisCommand<K, V, ?> c : commands) {
            wrapped.add(wrap((RedisCommand) c));
        }
        delegate.write(wrapped);
        return (Collection<RedisCommand<K, V, ?>>) commands;
    }

    @SuppressWarnings("unchecked")
    private <K, V, T> RedisCommand<K, V, T> wrap(RedisCommand<K, V, T> command) {
        if (command instanceof Ordered<?, ?, ?>) {
            return command; // written again
        }
        forwardEarlierWrapper(command);
        CommandOutput<K, V, T> output = command.getOutput();
        if (output == null) {
            return command; // fire-and-forget (Lettuce completes it when written)
        }
        return new Ordered<>(command, this, mayHoldValues(output)
                ? new ReplyRecorder<>((RedisCodec<K, V>) codec, command, legacy, signals(output), this) : null);
    }

    // A command that a cluster node connection still held unanswered when it closed (its node left the topology):
    // Lettuce's ClusterNodeEndpoint writes it again through the cluster, to its slot's owner, wrapped as that
    // connection's stage wrapped it. That earlier wrapper then passes its output and completion straight through, so
    // that this stage alone records, orders and completes the reply (two would complete it out of reply order).
    private static void forwardEarlierWrapper(RedisCommand<?, ?, ?> command) {
        for (RedisCommand<?, ?, ?> c = command; c instanceof CommandWrapper<?, ?, ?> w; c = w.getDelegate()) {
            if (c instanceof Ordered<?, ?, ?> earlier) {
                earlier.forwarded = true;
                return;
            }
        }
    }

    /** Lettuce's outputs that hand each element to the application's streaming channel as they decode it. */
    private static final Set<Class<?>> CHANNEL_OUTPUTS = Set.of(KeyStreamingOutput.class, ValueStreamingOutput.class,
            KeyValueStreamingOutput.class, ScoredValueStreamingOutput.class, KeyScanStreamingOutput.class,
            ValueScanStreamingOutput.class, KeyValueScanStreamingOutput.class, ScoredValueScanStreamingOutput.class);

    /** The package of Lettuce's own outputs, whose callbacks run no application code unless they stream. */
    private static final String LETTUCE_OUTPUTS = "io.lettuce.core";

    // Whether an output signals the application as it decodes: a reactive Flux's subscriber (a streaming output whose
    // subscriber is not Lettuce's list-filling default), a streaming channel, or an output that is not Lettuce's (a
    // module command's, sent with dispatch: its callbacks are application code, which Lettuce runs in reply order).
    private static boolean signals(CommandOutput<?, ?, ?> output) {
        if (output instanceof StreamingOutput<?> streaming) {
            return !(streaming.getSubscriber() instanceof ListSubscriber<?>);
        }
        Class<?> c = output.getClass();
        return CHANNEL_OUTPUTS.contains(c) || !c.getPackageName().startsWith(LETTUCE_OUTPUTS);
    }

    // Whether an output may decode a value: Lettuce's outputs of statuses, numbers, booleans and keys never do.
    private static boolean mayHoldValues(CommandOutput<?, ?, ?> output) {
        Class<?> c = output.getClass();
        return c != StatusOutput.class && c != IntegerOutput.class && c != BooleanOutput.class
                && c != DoubleOutput.class && c != KeyOutput.class && c != KeyListOutput.class
                && c != IntegerListOutput.class && c != BooleanListOutput.class && c != VoidOutput.class;
    }

    // --------------------------------------------------------------------------------------------------- ordering

    // On the event loop: the command's reply is in.
    private void replied(Ordered<?, ?, ?> c) {
        boolean decode = c.recorder != null && c.recorder.recording();
        boolean now;
        boolean firstOfBurst = false;
        synchronized (this) {
            if (c.state != Ordered.NEW) {
                return; // failed before its reply (a timeout, a decoding error)
            }
            now = !decode && queue.isEmpty() && !draining;
            if (now) {
                c.state = Ordered.DONE;
            } else {
                c.state = decode ? Ordered.DECODING : Ordered.READY;
                queue.add(c);
                if (decode) {
                    firstOfBurst = burst.isEmpty();
                    burst.add(c);
                }
            }
        }
        if (now) {
            c.finish();
        } else if (firstOfBurst) {
            // the replies to decode are handed over once this pass of the loop has read them all: one task per
            // decoding thread rather than one per reply, so that a pipeline's replies complete together
            EventExecutor loop = ThreadExecutorMap.currentExecutor();
            try {
                if (loop != null) {
                    loop.execute(handOff);
                    return;
                }
            } catch (RejectedExecutionException shuttingDown) {
                // hand it over now
            }
            handOff();
        }
        // a ready command behind one still decoding is completed by the thread that decodes that one
    }

    /** Smallest share of a burst worth a decoding thread of its own. */
    private static final int MIN_SHARE = 2;

    // On the event loop, after a pass: hands this pass's replies to the decoding threads, in shares of consecutive
    // replies (at least MIN_SHARE each, at most one share per thread).
    private void handOff() {
        Ordered<?, ?, ?>[] replies;
        synchronized (this) {
            replies = burst.toArray(new Ordered<?, ?, ?>[0]);
            burst.clear();
        }
        int n = replies.length;
        int shares = Math.max(1, Math.min(parallelism, n / MIN_SHARE));
        for (int i = 0; i < shares; i++) {
            Share share = new Share(replies, i * n / shares, (i + 1) * n / shares);
            try {
                executor(replies[share.from]).execute(share);
            } catch (RejectedExecutionException closed) {
                share.run(); // the client shut down: decode them here rather than leave them pending
            }
        }
    }

    // The threads that decode a share whose first reply is c's: the kind of thread that dispatched c, where the
    // connection decodes like its callers (a virtual thread's replies on a virtual thread: the hand-over and the
    // completions stay on the application's carriers; a platform thread's on the platform threads).
    private Executor executor(Ordered<?, ?, ?> c) {
        if (!(decoders instanceof ReplyDecoders d)) {
            return decoders;
        }
        return d.executor(threads == ReplyDecoders.VIRTUAL || threads == ReplyDecoders.LIKE_CALLER && c.virtualCaller);
    }

    /** Consecutive replies of one pass, decoded by one thread, which then completes the ready ones in order. */
    private final class Share implements Runnable {
        private final Ordered<?, ?, ?>[] replies;
        private final int from;
        private final int to;

        Share(Ordered<?, ?, ?>[] replies, int from, int to) {
            this.replies = replies;
            this.from = from;
            this.to = to;
        }

        @Override
        public void run() {
            for (int i = from; i < to; i++) {
                Ordered<?, ?, ?> c = replies[i];
                c.decode(i == to - 1);
            }
        }
    }

    /**
     * On the event loop, at a reply's first compressed value: whether the loop decodes it itself, as Lettuce would.
     * Yes when nothing of this connection is pending (so it completes at once, in order) and it is the first such
     * reply of this pass of the loop (the rest of a burst of replies goes to the decoding threads).
     */
    boolean decodeHere() {
        if (!inline || inlinePass) {
            return false;
        }
        synchronized (this) {
            if (!queue.isEmpty() || draining) {
                return false; // only the loop adds: nothing can be queued until this reply is completed
            }
        }
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        if (loop == null) {
            return false;
        }
        inlinePass = true;
        loop.execute(endOfPass); // runs after this pass's reads
        return true;
    }

    /**
     * On the event loop, at the first callback of a reply whose output signals the application as it decodes: whether
     * an earlier reply of the connection is still pending (queued, or being completed), so that this reply's
     * elements must wait for it.
     */
    synchronized boolean earlierPending() {
        return !queue.isEmpty() || draining; // only the loop adds, and it is reading this reply
    }

    // On a decoding thread: the command's reply is decoded (failure: the first exception decoding threw); the last
    // of a share then completes what is ready.
    private void decoded(Ordered<?, ?, ?> c, Throwable failure, boolean complete) {
        synchronized (this) {
            if (failure != null && c.failure == null) {
                c.failure = failure;
            }
            c.state = Ordered.READY;
            if (!complete || draining) {
                return;
            }
            draining = true;
        }
        drain();
    }

    // Completes the ready commands at the head of the queue, in order, until the head is still decoding; once the
    // queue is empty, releases a close waiting for it.
    private void drain() {
        for (;;) {
            Ordered<?, ?, ?> next;
            CompletableFuture<Void> nowIdle = null;
            synchronized (this) {
                next = queue.peek();
                if (next != null && next.state == Ordered.READY) {
                    queue.poll();
                    next.state = Ordered.DONE;
                } else {
                    draining = false;
                    if (next == null) {
                        nowIdle = idle;
                        idle = null;
                    }
                    next = null;
                }
            }
            if (next == null) {
                if (nowIdle != null) {
                    nowIdle.complete(null);
                }
                return;
            }
            try {
                next.finish();
            } catch (Throwable e) {
                // a completion hook threw: Lettuce logs and goes on with the next reply; so does the stage (an Error
                // too: the later replies of the connection must not wait for ever)
            }
        }
    }

    // On any thread: the command fails (a timeout, the connection closed, a decoding error on the loop). As in
    // Lettuce, at once: a timeout must fire even while the thread completing this connection's replies is blocked in
    // a callback. A reply that arrives later, or is still being decoded, then completes nothing. A timeout first
    // completes the decoded replies at the head of the queue when no thread is completing them (their share's thread
    // is still decoding a later reply: an application codec that blocks, say), c's own among them: Lettuce would
    // have completed them before it read the later reply, so before c timed out. Any other failure on a Netty thread
    // (the event loop: the application's codec threw decoding c's reply there, the channel failed) while earlier
    // replies are still pending is queued behind them, as a ready reply: Lettuce completes those earlier replies on
    // the loop before it fails c.
    private boolean failed(Ordered<?, ?, ?> c, Throwable failure) {
        boolean drain;
        synchronized (this) {
            if (c.state == Ordered.NEW && (!queue.isEmpty() || draining)
                    && !(failure instanceof RedisCommandTimeoutException)
                    && ThreadExecutorMap.currentExecutor() != null) {
                c.failure = failure;
                c.state = Ordered.READY; // completed, failed, by the thread that completes the replies before it
                queue.add(c);
                return true;
            }
            if (c.state == Ordered.NEW) {
                c.state = Ordered.DONE;
            }
            Ordered<?, ?, ?> head = queue.peek();
            drain = failure instanceof RedisCommandTimeoutException && !draining && head != null
                    && head.state == Ordered.READY;
            draining |= drain;
        }
        if (drain) {
            drain();
        }
        return c.failExceptionally(failure);
    }

    /** A command of the connection, completed through the stage. */
    static final class Ordered<K, V, T> extends CommandWrapper<K, V, T> {
        static final int NEW = 0;
        static final int DECODING = 1;
        static final int READY = 2;
        static final int DONE = 3;

        private final OrderedReplies stage;
        final ReplyRecorder<K, V, T> recorder;
        /** guarded by the stage */
        int state;
        /** guarded by the stage */
        Throwable failure;
        /** whether the thread that dispatched the command is virtual */
        final boolean virtualCaller = Thread.currentThread().isVirtual();
        /**
         * whether the command was written again through a stage (see {@code forwardEarlierWrapper}): this wrapper
         * then passes its output and completion straight through; set before that write
         */
        volatile boolean forwarded;

        Ordered(RedisCommand<K, V, T> command, OrderedReplies stage, ReplyRecorder<K, V, T> recorder) {
            super(command);
            this.stage = stage;
            this.recorder = recorder;
        }

        @Override
        public CommandOutput<K, V, T> getOutput() {
            return recorder != null && !forwarded ? recorder : command.getOutput();
        }

        @Override
        public void complete() {
            if (forwarded) {
                super.complete();
            } else {
                stage.replied(this);
            }
        }

        @Override
        public boolean completeExceptionally(Throwable throwable) {
            return forwarded ? super.completeExceptionally(throwable) : stage.failed(this, throwable);
        }

        // Decodes the recorded reply (on a decoding thread); then, if asked, completes the ready commands in order. A
        // reply that signals the application as it decodes is decoded when it completes, in reply order.
        void decode(boolean complete) {
            stage.decoded(this, recorder.signals() ? null : replay(), complete);
        }

        private Throwable replay() {
            try {
                return recorder.replay();
            } catch (Throwable t) {
                return t;
            }
        }

        void finish() {
            Throwable f = failure;
            if (recorder != null && recorder.signals() && recorder.recording()) {
                Throwable decoding = replay();
                f = f != null ? f : decoding;
            }
            if (f != null) {
                super.completeExceptionally(f);
            } else {
                super.complete();
            }
        }

        boolean failExceptionally(Throwable t) {
            return super.completeExceptionally(t);
        }
    }

    // ------------------------------------------------------------------------------------------ the rest: Lettuce's

    // Closing returns once the replies already read are completed too, as Lettuce's close does (it completes them on
    // the loop before the channel closes): after the channel is closed (which fails the commands not yet answered),
    // it waits for the queue to empty. Not on an event loop (its pass may still have to hand replies over) nor on a
    // decoding thread (a callback closing its own connection, or another of the client's whose replies wait for the
    // decoding threads the callbacks hold): those could wait for themselves.
    @Override
    public void close() {
        closeAsync().join();
    }

    @Override
    public CompletableFuture<Void> closeAsync() {
        boolean waits = ThreadExecutorMap.currentExecutor() == null && !ReplyDecoders.decodes(Thread.currentThread());
        CompletableFuture<Void> closed = delegate.closeAsync();
        return waits ? closed.thenCompose(v -> whenIdle()) : closed;
    }

    private synchronized CompletableFuture<Void> whenIdle() {
        if (queue.isEmpty() && !draining) {
            return CompletableFuture.completedFuture(null);
        }
        if (idle == null) {
            idle = new CompletableFuture<>();
        }
        return idle;
    }

    @Override
    public void setConnectionFacade(ConnectionFacade connection) {
        delegate.setConnectionFacade(connection);
    }

    @Override
    public void setAutoFlushCommands(boolean autoFlush) {
        delegate.setAutoFlushCommands(autoFlush);
    }

    @Override
    public void flushCommands() {
        delegate.flushCommands();
    }

    @Override
    public ClientResources getClientResources() {
        return delegate.getClientResources();
    }
}
