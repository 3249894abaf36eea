package dev.zstdjava.values;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * What {@link CommandPolicy} says about one command: its {@link CommandAction}, its {@link CommandGroup}, which of
 * its arguments are values, and why it is refused. Immutable and thread-safe; clients look a rule up once per
 * command type (for example into an array indexed by their own command enum) and keep it.
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

    private static final byte[] FIELDS = "FIELDS".getBytes(StandardCharsets.US_ASCII);

    private final String name;
    private final CommandAction action;
    private final CommandGroup group;
    private final ValueSlots slots;
    private final String reason;
    private final List<String> refusedOptions;

    CommandRule(String name, CommandAction action, CommandGroup group, ValueSlots slots, String reason,
                List<String> refusedOptions) {
        this.name = Objects.requireNonNull(name);
        this.action = Objects.requireNonNull(action);
        this.group = Objects.requireNonNull(group);
        this.slots = Objects.requireNonNull(slots);
        this.reason = reason;
        this.refusedOptions = List.copyOf(refusedOptions);
    }

    /** @return the command's name, upper case */
    public String name() {
        return name;
    }

    /** @return what a compressing client does with the command */
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
     * Options that make an otherwise compressing command refused (for {@code SET}: {@code IFEQ} and the other
     * conditions that compare the given value with the stored bytes). Upper case.
     */
    public List<String> refusedOptions() {
        return refusedOptions;
    }

    /**
     * The refusal for this command, or for one of its {@link #refusedOptions()}.
     * @param option the refused option, or null for the command itself
     * @return the exception to throw or to complete the command with; never thrown here
     */
    public CommandRefusedException refusal(String option) {
        if (option == null) {
            return new CommandRefusedException(name, reason());
        }
        return new CommandRefusedException(name + " ... " + option,
                "the server compares the given value with the stored bytes, which are compressed");
    }

    /**
     * Checks a command's arguments (after its name) for a refused option.
     * @param args the arguments; not modified
     * @return the refused option found (upper case), or null; always null for a rule without refused options
     */
    public String refusedOption(List<byte[]> args) {
        if (refusedOptions.isEmpty()) {
            return null;
        }
        // options follow the value (position 2 on): SET key value [NX|XX] [IFEQ v] [GET] [EX s|...]
        for (int i = 2; i < args.size(); i++) {
            byte[] a = args.get(i);
            if (a == null || a.length > 5) {
                continue;
            }
            String s = new String(a, StandardCharsets.US_ASCII);
            for (String o : refusedOptions) {
                if (o.equalsIgnoreCase(s)) {
                    return o;
                }
            }
        }
        return null;
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
            if (a != null && a.length == FIELDS.length
                    && new String(a, StandardCharsets.US_ASCII).equalsIgnoreCase("FIELDS")) {
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
