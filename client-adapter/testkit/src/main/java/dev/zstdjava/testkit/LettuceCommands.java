package dev.zstdjava.testkit;

import io.lettuce.core.protocol.CommandType;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;

/** The commands the Lettuce on the class path can send as a {@link CommandType}: the catalogue tests' list. */
public final class LettuceCommands {
    /** Names of Lettuce's {@code CommandType} that are not commands: option keywords, subcommands, a removed beta. */
    public static final Set<String> NOT_COMMANDS = Set.of("AUTH2", "MYID", "MYSHARDID", "GEOENCODE", "GEODECODE",
            "VEMBRAW", "VLINKSWITHSCORES", "VSIMWITHSCORES");

    private LettuceCommands() {
    }

    /** @return the protocol names of this Lettuce's command types that are commands, sorted */
    public static Set<String> names() {
        Set<String> names = new TreeSet<>();
        for (CommandType t : CommandType.values()) {
            names.add(new String(t.getBytes(), StandardCharsets.US_ASCII));
        }
        names.removeAll(NOT_COMMANDS);
        return names;
    }
}
