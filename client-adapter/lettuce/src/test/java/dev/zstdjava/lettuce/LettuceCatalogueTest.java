package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.ClientJars;
import dev.zstdjava.testkit.LettuceCommands;
import dev.zstdjava.values.CommandAction;
import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.CommandRule;
import io.lettuce.core.RedisClient;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import static dev.zstdjava.lettuce.LettucePolicyTest.keyword;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The command catalogue against the {@code CommandType} of the Lettuce line this run loads (zstd-java-lettuce: the
 * newest; lettuce-lines: the older supported lines): every command type is classified, and the gate decides a
 * command the policy knows the same way whether this line has a command type for it or it is sent under its name
 * (as an older line must send the commands it lacks), so an older line refuses and compresses what the newest does.
 */
class LettuceCatalogueTest {
    /** Transaction markers: plain for the policy, tracked by the gate. */
    private static final Set<String> TRANSACTIONS = Set.of("MULTI", "EXEC", "DISCARD");

    @Test
    void thisRunLoadsTheLettuceItNames() {
        ClientJars.assertThisRunsVersion("lettuce", "lettuce-core", RedisClient.class);
    }

    @Test
    void everyCommandTypeOfThisLineIsClassified() {
        for (CommandPolicy policy : List.of(CommandPolicy.glide(), CommandPolicy.withHashValues())) {
            List<String> unknown = LettuceCommands.names().stream().filter(n -> !policy.knows(n)).toList();
            assertEquals(List.of(), unknown, "Lettuce command types the policy does not classify");
        }
    }

    @Test
    void theGateDecidesEveryKnownCommandByItsNameOnEveryLine() {
        for (CommandPolicy policy : List.of(CommandPolicy.glide(), CommandPolicy.withHashValues())) {
            CommandGate.Table table = new CommandGate.Table(policy);
            policy.knownCommands().forEach((name, rule) -> {
                int expected = expected(name, rule);
                assertEquals(expected, action(table, keyword(name)), name);
                assertEquals(expected, action(table, keyword(name.toLowerCase(Locale.ROOT))), name);
                CommandType type = CommandGate.Table.commandType(keyword(name));
                if (type != null) { // a command this line lacks is sent under its name only
                    assertEquals(expected, action(table, type), name + " as this line's CommandType");
                }
            });
        }
    }

    private static int expected(String name, CommandRule rule) {
        if (TRANSACTIONS.contains(name)) {
            return name.equals("MULTI") ? CommandGate.MULTI : name.equals("EXEC") ? CommandGate.EXEC
                    : CommandGate.DISCARD;
        }
        return rule.action() == CommandAction.REFUSE ? CommandGate.REFUSE
                : rule.action() == CommandAction.COMPRESS ? CommandGate.COMPRESS : CommandGate.PLAIN;
    }

    // the action of the command without arguments (a rule that reads arguments then decides by its action)
    private static int action(CommandGate.Table table, ProtocolKeyword type) {
        return table.action(new Command<>(type, null));
    }
}
