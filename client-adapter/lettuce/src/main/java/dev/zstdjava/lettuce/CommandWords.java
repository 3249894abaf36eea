package dev.zstdjava.lettuce;

import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CommandRule;
import io.lettuce.core.protocol.CommandArgs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.util.AbstractList;
import java.util.List;

/**
 * The arguments of one Lettuce command as the words the server would receive, for
 * {@link CommandRule#refusalFor(List)}: whatever added them ({@code add(String)}, {@code add(byte[])},
 * {@code add(char[])}, a keyword, {@code addKey}, {@code addValue}, a number), they are read the same way.
 *
 * <p>How: {@link CommandArgs#encode(ByteBuf)} (public; no reflection into Lettuce) writes every argument as a RESP
 * bulk string into a pooled heap buffer, which is released before returning. The gate calls it on the dispatching
 * thread, where {@link PolicyScope} has compression off, so value arguments are encoded as the application's codec
 * encodes them (the bytes the server would compare). Only the offsets of the words are read up front; a word is
 * copied into a {@code byte[]} when the rule reads it, and rules read only the positions that can hold options (not
 * the key or the value of a {@code SET}).
 *
 * <p>Cost, per checked command ({@code SET}/{@code DELEX} with options, {@code SORT} with options, a custom keyword
 * of those names): one plain encoding of the arguments into a pooled buffer (no garbage for the buffer), two small
 * {@code int} arrays and this list, and the option words read. Confined to the calling thread.
 */
final class CommandWords extends AbstractList<byte[]> {
    private final ByteBuf buf;
    private final int[] starts;
    private final int[] lengths;

    private CommandWords(ByteBuf buf, int count) {
        this.buf = buf;
        this.starts = new int[count];
        this.lengths = new int[count];
        int n = 0;
        while (buf.isReadable()) {
            if (n == count || buf.readByte() != '$') {
                throw new IllegalStateException("not " + count + " RESP bulk strings");
            }
            int length = 0;
            for (byte b = buf.readByte(); b != '\r'; b = buf.readByte()) {
                if (b < '0' || b > '9') {
                    throw new IllegalStateException("not a RESP bulk string length");
                }
                length = Math.addExact(Math.multiplyExact(length, 10), b - '0');
            }
            buf.skipBytes(1); // \n
            starts[n] = buf.readerIndex();
            lengths[n] = length;
            buf.skipBytes(length + 2); // the word and its \r\n
            n++;
        }
        if (n != count) {
            throw new IllegalStateException(n + " RESP bulk strings, not " + count);
        }
    }

    /**
     * The rule's decision for a command with these arguments.
     * @param rule the command's rule
     * @param args its arguments, or null for none
     * @return the refusal, or null when the command may go out under the rule's action
     */
    static CommandRefusedException refusal(CommandRule rule, CommandArgs<?, ?> args) {
        if (args == null || !rule.checksArguments(args.count())) {
            return rule.refusalFor(List.of());
        }
        ByteBuf buf = ByteBufAllocator.DEFAULT.heapBuffer(256);
        try {
            args.encode(buf);
            return rule.refusalFor(new CommandWords(buf, args.count()));
        } catch (RuntimeException e) {
            // CommandArgs writes bulk strings only; a subclass that writes something else cannot be read, so the
            // command is not sent rather than sent unchecked
            CommandRefusedException refused = new CommandRefusedException(rule.name(), "its arguments could not be"
                    + " read to check the options that make it compare or sort by the stored bytes ("
                    + e.getMessage() + ")", "Send it with Lettuce's own CommandArgs, or through a connection without"
                    + " compression");
            refused.initCause(e);
            return refused;
        } finally {
            buf.release();
        }
    }

    @Override
    public byte[] get(int index) {
        byte[] word = new byte[lengths[index]];
        buf.getBytes(starts[index], word);
        return word;
    }

    @Override
    public int size() {
        return starts.length;
    }
}
