package dev.zstdjava.values;

/**
 * What a compressing client does with one command, as decided by {@link CommandPolicy}.
 *
 * <p>Replies are not governed by the action: every value in every reply that starts with the header is decoded,
 * whatever the command (values written compressed by earlier builds keep reading back).
 */
public enum CommandAction {
    /** Compress the command's value arguments ({@link CommandRule#isValue}); every other argument goes out plain. */
    COMPRESS,
    /** Send every argument exactly as the application's codec encoded it. */
    PLAIN,
    /** Refuse before anything is sent: the server would read, compare or edit the stored bytes. */
    REFUSE
}
