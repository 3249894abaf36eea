package dev.zstdjava.values;

import java.util.Objects;

/**
 * A command refused on a compressing connection before anything was sent: the server would read, compare or edit
 * the bytes of a stored value, which are compressed there. The connection stays usable. The way out is a connection
 * without compression for those keys (counters, bitmaps, strings edited in place).
 */
public final class CommandRefusedException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    private final String command;

    /**
     * @param command the command's name, upper case
     * @param reason  why the command cannot work on compressed values
     */
    public CommandRefusedException(String command, String reason) {
        this(command, reason, "Use a connection without compression for these keys");
    }

    /**
     * @param command the command's name, upper case (with the refused option: {@code SET ... IFEQ})
     * @param reason  why the command cannot work on compressed values
     * @param wayOut  what to do instead, one sentence
     */
    public CommandRefusedException(String command, String reason, String wayOut) {
        super(command + " is refused on a compressing connection: " + reason + ". " + wayOut);
        this.command = Objects.requireNonNull(command, "command");
    }

    /** @return the refused command's name, upper case (for example {@code APPEND}) */
    public String command() {
        return command;
    }
}
