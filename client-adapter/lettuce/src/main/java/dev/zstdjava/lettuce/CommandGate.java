package dev.zstdjava.lettuce;

import dev.zstdjava.values.CommandAction;
import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CommandRule;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Applies a {@link CommandPolicy} to the commands one Lettuce connection dispatches, before Lettuce's own
 * bookkeeping ({@code MULTI} queueing, cluster routing) sees them: a refused command is completed exceptionally and
 * never sent, a compressed command is encoded (its values compressed) on the dispatching thread and sent as an
 * {@link EncodedCommand} that keeps those bytes; every other command is passed on as it is. Replies are decoded and
 * completed below Lettuce's writers, by {@link OrderedReplies}.
 *
 * <p>Cost: one {@code getType()}, one {@code instanceof} and one array load per command (a command sent with a custom
 * keyword through {@code dispatch} is looked up by name and then decided as the command of that name); a compressed
 * command adds one wrapper, the array of its bytes and one thread-local read; a {@code SET}, {@code DELEX}, {@code SORT}
 * or {@code SORT_RO} with options has its arguments encoded once more, plain, into a pooled buffer and read for the
 * options that refuse it ({@link CommandWords}). Transactions (from {@code MULTI} to {@code EXEC}/{@code DISCARD})
 * take a lock and keep a list
 * of the queued commands, so that a refusal inside one discards it without leaving any future pending.
 *
 * <p>Thread-safe: outside transactions it keeps no state; transactions are serialized on the gate (Lettuce requires
 * a connection that runs a transaction not to be shared meanwhile).
 */
final class CommandGate<K, V> {
    /** The connection the gate sits in: its own (Lettuce's) dispatch, and whether Lettuce has a MULTI open. */
    interface Target<K, V> {
        <T> RedisCommand<K, V, T> send(RedisCommand<K, V, T> command);

        Collection<RedisCommand<K, V, ?>> send(Collection<? extends RedisCommand<K, V, ?>> commands);

        boolean isMulti();
    }

    static final byte PLAIN = 0;
    static final byte COMPRESS = 1;
    static final byte REFUSE = 2;
    /** compressed unless its arguments refuse it ({@code SET ... IFEQ}) */
    static final byte COMPRESS_UNLESS_REFUSED = 3;
    /** plain unless its arguments refuse it ({@code DELEX ... IFEQ}, {@code SORT ... BY weight_*}) */
    static final byte PLAIN_UNLESS_REFUSED = 4;
    static final byte MULTI = 5;
    static final byte EXEC = 6;
    static final byte DISCARD = 7;

    private static final Table GLIDE = new Table(CommandPolicy.glide());
    private static final Table WITH_HASH_VALUES = new Table(CommandPolicy.withHashValues());

    private final Table table;
    private final Target<K, V> target;
    /** non-null from MULTI until EXEC or DISCARD */
    private volatile Transaction transaction;

    CommandGate(CommandPolicy policy, Target<K, V> target) {
        this.table = policy.compressesHashValues() ? WITH_HASH_VALUES : GLIDE;
        this.target = target;
    }

    // Dispatches one command under the policy; returns what Lettuce's dispatch returned (the command itself when it
    // was refused, or when only the gate's wrapper was returned).
    <T> RedisCommand<K, V, T> dispatch(RedisCommand<K, V, T> command) {
        return dispatch(command, table.action(command));
    }

    private <T> RedisCommand<K, V, T> dispatch(RedisCommand<K, V, T> command, int action) {
        if (transaction == null) {
            if (action == PLAIN) {
                return target.send(command);
            }
            if (action == COMPRESS) {
                return sendCompressed(command);
            }
        }
        return dispatchSlow(command, action);
    }

    // Dispatches commands sent together (auto-flush off, or dispatch(Collection)): one write when none is refused and
    // no transaction is involved, otherwise one by one through dispatch(command).
    Collection<RedisCommand<K, V, ?>> dispatch(Collection<? extends RedisCommand<K, V, ?>> commands) {
        boolean wrap = false;
        boolean simple = transaction == null;
        int[] actions = new int[commands.size()]; // decided once: a command with options encodes its words to decide
        int i = 0;
        for (RedisCommand<K, V, ?> c : commands) {
            int a = actions[i++] = table.action(c);
            wrap |= a == COMPRESS;
            simple &= a == PLAIN || a == COMPRESS;
        }
        if (simple && !wrap) {
            return target.send(commands);
        }
        List<RedisCommand<K, V, ?>> out = new ArrayList<>(commands.size());
        if (simple) {
            List<RedisCommand<K, V, ?>> sent = new ArrayList<>(commands.size());
            i = 0;
            for (RedisCommand<K, V, ?> c : commands) {
                RedisCommand<K, V, ?> w = actions[i++] == COMPRESS ? compressed(c) : c;
                out.add(w);
                if (w != c || !c.isDone()) {
                    sent.add(w); // a command whose encoding failed is completed and not sent
                }
            }
            target.send(sent);
            return out;
        }
        i = 0;
        for (RedisCommand<K, V, ?> c : commands) {
            out.add(dispatch(c, actions[i++]));
        }
        return out;
    }

    // Compresses the command's values on this thread and sends it.
    private <T> RedisCommand<K, V, T> sendCompressed(RedisCommand<K, V, T> command) {
        RedisCommand<K, V, T> c = compressed(command);
        if (c == command) {
            return command;
        }
        // what Lettuce returned when that is a future (a transaction's queued command), otherwise the wrapper (not a
        // cluster's routing wrapper): the API hands out its own command, which completes with the wrapper
        RedisCommand<K, V, T> sent = target.send(c);
        return sent instanceof AsyncCommand<?, ?, ?> ? sent : c;
    }

    // The command to send for a compressed one, or the command itself, completed exceptionally, when encoding it
    // (its values compressed) failed on this thread.
    private static <K, V, T> RedisCommand<K, V, T> compressed(RedisCommand<K, V, T> command) {
        try {
            return new EncodedCommand<>(command);
        } catch (Throwable e) {
            command.completeExceptionally(e); // never a pending future
            if (e instanceof Error error) {
                throw error;
            }
            return command;
        }
    }

    private synchronized <T> RedisCommand<K, V, T> dispatchSlow(RedisCommand<K, V, T> command, int action) {
        Transaction tx = transaction;
        if (tx != null && !target.isMulti()) {
            transaction = tx = null; // MULTI failed, or the connection was reset
        }
        switch (action) {
            case MULTI -> {
                RedisCommand<K, V, T> sent = target.send(command);
                if (tx == null && target.isMulti()) {
                    transaction = new Transaction();
                }
                return sent;
            }
            case EXEC -> {
                transaction = null;
                if (tx != null && tx.discarded != null) {
                    discard(tx, command);
                    return command;
                }
                return target.send(command);
            }
            case DISCARD -> {
                transaction = null;
                return target.send(command);
            }
            default -> {
                // the other actions below
            }
        }
        CommandRefusedException refusal = action == REFUSE ? table.refusal(command) : null;
        if (tx == null) {
            if (refusal != null) {
                command.completeExceptionally(refusal);
                return command;
            }
            if (action == COMPRESS) {
                return sendCompressed(command);
            }
            return target.send(command);
        }
        if (tx.discarded != null) {
            command.completeExceptionally(tx.discarded);
            return command;
        }
        if (refusal != null) {
            command.completeExceptionally(refusal);
            tx.discarded = new CommandRefusedException(refusal.command(), "it was queued in a MULTI transaction, "
                    + "which is therefore discarded: EXEC runs none of its commands");
            tx.discarded.initCause(refusal);
            return command;
        }
        RedisCommand<K, V, T> toSend = command;
        if (action == COMPRESS) {
            try {
                toSend = new EncodedCommand<>(command);
            } catch (RuntimeException e) {
                // its values could not be encoded: the transaction must not run without it
                command.completeExceptionally(e);
                tx.discarded = new CommandRefusedException(new String(command.getType().getBytes(),
                        StandardCharsets.US_ASCII), "a value of it could not be encoded in a MULTI transaction, "
                        + "which is therefore discarded: EXEC runs none of its commands");
                tx.discarded.initCause(e);
                return command;
            }
        }
        RedisCommand<K, V, T> sent = target.send(toSend);
        tx.queued.add(sent);
        return sent;
    }

    // EXEC of a transaction with a refused command: DISCARD goes out instead, every queued command and EXEC fail.
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void discard(Transaction tx, RedisCommand<K, V, ?> exec) {
        for (RedisCommand<?, ?, ?> q : tx.queued) {
            q.completeExceptionally(tx.discarded);
        }
        RedisCommand discard = new AsyncCommand<>(new Command<>(CommandType.DISCARD,
                new StatusOutput<>(StringCodec.UTF8)));
        target.send((RedisCommand<K, V, Object>) discard);
        exec.completeExceptionally(tx.discarded);
    }

    private static final class Transaction {
        final List<RedisCommand<?, ?, ?>> queued = new ArrayList<>();
        CommandRefusedException discarded;
    }

    /**
     * The action of every {@link CommandType}, by ordinal, for one policy, and of a custom keyword by its name (as
     * the command type of that name, or by the policy's rule for the name); immutable. Commands whose arguments can
     * refuse them ({@link CommandRule#checksArguments()}) are decided by their words ({@link CommandWords}); the
     * rules decide, the table only caches them. {@code MULTI}, {@code EXEC} and {@code DISCARD} (plain for the
     * policy) mark the transactions the gate tracks.
     */
    static final class Table {
        /** every command type by its protocol name, upper case */
        private static final Map<String, CommandType> TYPES = types();

        private final byte[] actions;
        private final CommandRule[] rules;
        private final CommandPolicy policy;

        Table(CommandPolicy policy) {
            this.policy = policy;
            CommandType[] types = CommandType.values();
            actions = new byte[types.length];
            rules = new CommandRule[types.length];
            for (CommandType t : types) {
                CommandRule rule = policy.rule(name(t));
                rules[t.ordinal()] = rule;
                actions[t.ordinal()] = actionOf(rule);
            }
            actions[CommandType.MULTI.ordinal()] = MULTI;
            actions[CommandType.EXEC.ordinal()] = EXEC;
            actions[CommandType.DISCARD.ordinal()] = DISCARD;
        }

        private static Map<String, CommandType> types() {
            Map<String, CommandType> m = new HashMap<>();
            for (CommandType t : CommandType.values()) {
                m.put(name(t), t);
            }
            return Map.copyOf(m);
        }

        private static String name(ProtocolKeyword keyword) {
            return new String(keyword.getBytes(), StandardCharsets.US_ASCII);
        }

        /**
         * @param keyword a command's keyword, or null
         * @return the keyword itself when it is a {@link CommandType}, the command type of the same name (any case)
         *         for a custom keyword, or null when Lettuce has no type of that name
         */
        static CommandType commandType(ProtocolKeyword keyword) {
            if (keyword instanceof CommandType t) {
                return t;
            }
            return keyword == null ? null : TYPES.get(name(keyword).toUpperCase(Locale.ROOT));
        }

        private static byte actionOf(CommandRule rule) {
            return rule.action() == CommandAction.REFUSE ? REFUSE
                    : rule.action() == CommandAction.PLAIN ? (rule.checksArguments() ? PLAIN_UNLESS_REFUSED : PLAIN)
                    : rule.checksArguments() ? COMPRESS_UNLESS_REFUSED : COMPRESS;
        }

        // The command's action, its arguments read where they can refuse it (REFUSE then).
        int action(RedisCommand<?, ?, ?> command) {
            ProtocolKeyword type = command.getType();
            CommandRule rule;
            int a;
            if (type instanceof CommandType t) {
                a = actions[t.ordinal()];
                if (a != COMPRESS_UNLESS_REFUSED && a != PLAIN_UNLESS_REFUSED) {
                    return a;
                }
                rule = rules[t.ordinal()];
            } else if (type == null) {
                return PLAIN;
            } else {
                CommandType t = commandType(type);
                rule = t != null ? rules[t.ordinal()] : policy.rule(name(type));
                a = t != null ? actions[t.ordinal()] : actionOf(rule);
                if (a != COMPRESS_UNLESS_REFUSED && a != PLAIN_UNLESS_REFUSED) {
                    return a;
                }
            }
            CommandArgs<?, ?> args = command.getArgs();
            if (args != null && rule.checksArguments(args.count()) && CommandWords.refusal(rule, args) != null) {
                return REFUSE;
            }
            return a == COMPRESS_UNLESS_REFUSED ? COMPRESS : PLAIN;
        }

        // The rule of a command: by its command type, or, for a keyword Lettuce has no type for (a custom "DELIFEQ"),
        // by its name.
        private CommandRule rule(ProtocolKeyword type) {
            CommandType t = commandType(type);
            return t != null ? rules[t.ordinal()] : policy.rule(name(type));
        }

        // The refusal of a command whose action is REFUSE: the rule's decision for its words.
        CommandRefusedException refusal(RedisCommand<?, ?, ?> command) {
            CommandRefusedException refused = CommandWords.refusal(rule(command.getType()), command.getArgs());
            if (refused == null) {
                throw new IllegalStateException("refused, but its rule sends it: " + command.getType());
            }
            return refused;
        }
    }
}
