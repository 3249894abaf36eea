package dev.zstdjava.values;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * What {@link CommandPolicy} says about one command: its {@link CommandAction}, its {@link CommandGroup}, which of
 * its arguments are values, and why it is refused. Immutable and thread-safe; clients look a rule up once per
 * command type (for example into an array indexed by their own command enum) and keep it.
 *
 * <p><b>The decision, for every client.</b> A client adapter translates its client's call into a command name and
 * the argument words the server would receive, and asks the rule; it decides nothing itself:
 * <ol>
 *   <li>{@link #refusalFor(List) refusalFor(words)}: non-null means refused (throw it, or complete the command with
 *       it; nothing is sent). It covers commands refused by name and commands refused by an option (a condition
 *       such as {@code IFEQ} on {@code SET} or {@code DELEX}, a {@code SORT ... BY} pattern).</li>
 *   <li>otherwise {@link #action()}: {@link CommandAction#COMPRESS} compresses the arguments at
 *       {@link #isValue(List, int)} positions, every other argument goes out as given.</li>
 * </ol>
 * {@link #checksArguments(int)} says when the words are worth making (false: {@code refusalFor(List.of())} decides).
 * {@code docs/architecture.md} ("Where to add things") says how a command is added to the catalogue.
 *
 * <p>Argument positions count from 0 at the first argument after the command's name: in {@code SET key value},
 * {@code key} is 0 and {@code value} is 1.
 */
public final class CommandRule {
    /** Which argument positions of a command are values to compress. */
    public enum ValueSlots {
        /** No argument is a value to compress. */
        NONE,
        /** Position 1: {@code SET key value}, {@code SETNX key value}. */
        SECOND,
        /** Position 2: {@code SETEX key seconds value}, {@code PSETEX}, {@code HSETNX key field value}. */
        THIRD,
        /** Positions 1, 3, 5, ...: {@code MSET key value [key value ...]}, {@code MSETNX}. */
        ODD,
        /** Positions 2, 4, 6, ...: {@code HSET key field value [field value ...]}, {@code HMSET}. */
        EVEN_FROM_2,
        /**
         * The values of the field-value pairs after {@code FIELDS numfields}:
         * {@code HSETEX key [options] FIELDS numfields field value [field value ...]}.
         */
        AFTER_FIELDS
    }

    /** What a rule reads in a command's arguments before deciding; {@link #NONE} for most commands. */
    enum Check {
        /** The name decides. */
        NONE,
        /** Refused when a condition ({@link CommandRule#refusedOptions()}) is among the options. */
        CONDITIONS,
        /** {@code SORT}/{@code SORT_RO}: refused when a {@code BY} pattern reads stored values that are compressed. */
        SORT_BY
    }

    private final String name;
    private final CommandAction action;
    private final CommandGroup group;
    private final ValueSlots slots;
    private final String reason;
    private final List<String> refusedOptions;
    private final Check check;
    /** CONDITIONS: the first argument position that can be an option; SORT_BY: 1 */
    private final int optionsFrom;
    /** SORT_BY: whether hash values are compressed (then {@code BY key_*->field} reads compressed bytes too) */
    private final boolean hashValues;

    CommandRule(String name, CommandAction action, CommandGroup group, ValueSlots slots, String reason,
                List<String> refusedOptions) {
        this(name, action, group, slots, reason, refusedOptions, refusedOptions.isEmpty() ? Check.NONE
                : Check.CONDITIONS, 2, false);
    }

    CommandRule(String name, CommandAction action, CommandGroup group, ValueSlots slots, String reason,
                List<String> refusedOptions, Check check, int optionsFrom, boolean hashValues) {
        this.name = Objects.requireNonNull(name);
        this.action = Objects.requireNonNull(action);
        this.group = Objects.requireNonNull(group);
        this.slots = Objects.requireNonNull(slots);
        this.reason = reason;
        this.refusedOptions = List.copyOf(refusedOptions);
        this.check = action == CommandAction.REFUSE ? Check.NONE : Objects.requireNonNull(check);
        this.optionsFrom = optionsFrom;
        this.hashValues = hashValues;
    }

    /** @return the command's name, upper case */
    public String name() {
        return name;
    }

    /**
     * What a compressing client does with the command by its name. When {@link #checksArguments()} is true, the
     * arguments can still refuse it: {@link #refusalFor(List)} decides.
     * @return the action for the name
     */
    public CommandAction action() {
        return action;
    }

    /** @return the command's family (one line of the table in docs/command-policy.md) */
    public CommandGroup group() {
        return group;
    }

    /** @return which argument positions are values to compress; {@link ValueSlots#NONE} unless {@link CommandAction#COMPRESS} */
    public ValueSlots valueSlots() {
        return slots;
    }

    /** @return why the command is refused ({@link CommandAction#REFUSE}) or why it is sent plain; never null */
    public String reason() {
        return reason != null ? reason : group.description();
    }

    /**
     * Options that make an otherwise allowed command refused ({@code SET} and {@code DELEX}: {@code IFEQ} and the
     * other conditions that compare a given value or digest with the stored bytes). Upper case; empty for most
     * commands.
     */
    public List<String> refusedOptions() {
        return refusedOptions;
    }

    /**
     * @return whether the arguments can make this command refused although {@link #action()} is not
     *         {@link CommandAction#REFUSE}: {@code SET} and {@code DELEX} (conditions), {@code SORT} and
     *         {@code SORT_RO} ({@code BY} patterns). A client passes such a command's arguments to
     *         {@link #refusalFor(List)}; for every other command the name decides.
     */
    public boolean checksArguments() {
        return check != Check.NONE;
    }

    /**
     * As {@link #checksArguments()}, for a command with {@code count} arguments after its name: false when there
     * are too few to hold an option that refuses it ({@code SET key value}, {@code SORT key}), so that the common
     * forms are decided without reading their arguments.
     * @param count the number of arguments after the command's name
     */
    public boolean checksArguments(int count) {
        return switch (check) {
            case NONE -> false;
            case CONDITIONS -> count > optionsFrom;
            case SORT_BY -> count > 2; // SORT key BY pattern
        };
    }

    /**
     * The decision for one command: refused or not, by its name and its arguments. Allocates nothing unless it
     * refuses (then the exception); reads only the argument positions that can hold options.
     * @param args the arguments after the command's name, each as sent (the application's bytes, before any
     *             compression); not modified; null elements are skipped
     * @return the exception to throw or to complete the command with (never thrown here), or null when the command
     *         may go out under {@link #action()}
     */
    public CommandRefusedException refusalFor(List<byte[]> args) {
        return switch (check) {
            case NONE -> action == CommandAction.REFUSE ? refusal(null) : null;
            case CONDITIONS -> {
                String option = refusedOption(args);
                yield option == null ? null : refusal(option);
            }
            case SORT_BY -> {
                byte[] pattern = sortPatternReadingValues(args);
                yield pattern == null ? null : sortRefusal(new String(pattern, StandardCharsets.UTF_8));
            }
        };
    }

    /**
     * The refusal for this command, or for one of its {@link #refusedOptions()}. Package-private: clients get a
     * refusal only from {@link #refusalFor(List)}, so the catalogue decides every one.
     * @param option the refused option, or null for the command itself
     * @return the exception to throw or to complete the command with; never thrown here
     */
    CommandRefusedException refusal(String option) {
        if (option == null) {
            return new CommandRefusedException(name, reason());
        }
        return new CommandRefusedException(name + " ... " + option, option.startsWith("IFD")
                ? "the server compares the given digest with the digest of the stored bytes, which are compressed"
                : "the server compares the given value with the stored bytes, which are compressed");
    }

    /**
     * Checks a command's arguments (after its name) for a refused option ({@link #refusedOptions()}), whatever
     * was used to add it (keyword, string, bytes, characters, value); {@link #refusalFor(List)} is the decision.
     * @param args the arguments; not modified
     * @return the refused option found (upper case), or null; always null for a rule without refused options
     */
    String refusedOption(List<byte[]> args) {
        if (refusedOptions.isEmpty()) {
            return null;
        }
        // options follow the key (DELEX) or the value (SET): SET key value [NX|XX] [IFEQ v] [GET] [EX s|...].
        // A word at an option's argument position that reads like a condition is a syntax error for the server
        // (EX, PX, ... take numbers), or the argument of a condition that came first: refusing it changes nothing.
        for (int i = optionsFrom; i < args.size(); i++) {
            byte[] a = args.get(i);
            if (a == null || a.length < 4 || a.length > 5) {
                continue;
            }
            for (String o : refusedOptions) {
                if (isWord(a, o)) {
                    return o;
                }
            }
        }
        return null;
    }

    // SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC] [ALPHA] [STORE destination], read
    // as the server reads it: the BY pattern that makes it read stored values that are compressed, or null.
    private byte[] sortPatternReadingValues(List<byte[]> args) {
        int n = args.size();
        for (int i = 1; i < n; i++) {
            byte[] a = args.get(i);
            if (a == null) {
                continue;
            }
            if (isWord(a, "BY") && i + 1 < n) {
                byte[] pattern = args.get(++i);
                if (pattern != null && readsCompressed(pattern)) {
                    return pattern;
                }
            } else if (isWord(a, "LIMIT")) {
                i += 2;
            } else if (isWord(a, "GET") || isWord(a, "STORE")) {
                i++;
            }
        }
        return null;
    }

    // The server sorts by a BY pattern only when it has a '*' (otherwise it does not sort: BY nosort); it then reads
    // the string value of the key the '*' names, or, with "->field" after the '*', that hash field's value.
    private boolean readsCompressed(byte[] pattern) {
        int star = indexOf(pattern, (byte) '*', 0);
        if (star < 0) {
            return false;
        }
        for (int f = indexOf(pattern, (byte) '-', star + 1); f >= 0; f = indexOf(pattern, (byte) '-', f + 1)) {
            if (f + 1 < pattern.length && pattern[f + 1] == '>') {
                return f + 2 < pattern.length ? hashValues : true; // "->" with a field: a hash field's value
            }
        }
        return true;
    }

    private CommandRefusedException sortRefusal(String pattern) {
        return new CommandRefusedException(name + " ... BY", "BY " + pattern + " sorts by the values stored under"
                + " other keys (" + (hashValues ? "string values and hash values" : "string values")
                + "), which are compressed on this connection, so the order would be that of the compressed bytes;"
                + " BY nosort and GET patterns work here",
                "Keep the weight keys plain: write them, and send this " + name + ", through a connection without"
                + " compression" + (hashValues ? "" : ", or keep the weights in hash fields (BY weight_*->field),"
                + " whose values this connection sends plain"));
    }

    private static int indexOf(byte[] a, byte b, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code a} is the ASCII word {@code w} in any case; allocates nothing. */
    static boolean isWord(byte[] a, String w) {
        if (a.length != w.length()) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            int c = a[i];
            if (c >= 'a' && c <= 'z') {
                c -= 'a' - 'A';
            }
            if (c != w.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Says whether argument {@code index} (after the command's name) is a value to compress. Always false unless
     * the action is {@link CommandAction#COMPRESS}.
     * @param args  the command's arguments (only {@link ValueSlots#AFTER_FIELDS} reads them, to find the keyword)
     * @param index a position in {@code args}
     */
    public boolean isValue(List<byte[]> args, int index) {
        if (index < 0 || index >= args.size()) {
            return false;
        }
        return switch (slots) {
            case NONE -> false;
            case SECOND -> index == 1;
            case THIRD -> index == 2;
            case ODD -> (index & 1) == 1;
            case EVEN_FROM_2 -> index >= 2 && (index & 1) == 0;
            case AFTER_FIELDS -> {
                int fields = fieldsKeyword(args);
                // FIELDS numfields field value field value ...: values at fields + 3, + 5, ...
                yield fields >= 0 && index >= fields + 3 && ((index - fields - 3) & 1) == 0;
            }
        };
    }

    private static int fieldsKeyword(List<byte[]> args) {
        for (int i = 1; i < args.size(); i++) {
            byte[] a = args.get(i);
            if (a != null && isWord(a, "FIELDS")) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return name + ": " + action + " (" + group + ", " + slots + ")";
    }
}
