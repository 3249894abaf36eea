package dev.zstdjava.values;

import dev.zstdjava.testkit.JedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.util.SafeEncoder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandPolicyTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    private static final Set<String> GLIDE_COMPRESSED = Set.of("SET", "MSET", "MSETNX", "SETEX", "PSETEX", "SETNX");
    private static final Set<String> GLIDE_REFUSED = Set.of("APPEND", "GETRANGE", "SETRANGE", "STRLEN", "LCS",
            "SUBSTR", "INCR", "INCRBY", "INCRBYFLOAT", "DECR", "DECRBY", "GETBIT", "SETBIT", "BITCOUNT", "BITPOS",
            "BITFIELD", "BITFIELD_RO", "BITOP");

    @Test
    void everyCommandOfTheServerIsClassified() {
        Object reply = redis.client().sendCommand(Protocol.Command.COMMAND, "LIST");
        Set<String> names = new TreeSet<>();
        for (Object o : (List<?>) reply) {
            String name = SafeEncoder.encode((byte[]) o);
            if (!name.contains("|")) {
                names.add(name.toUpperCase());
            }
        }
        assertTrue(names.size() > 200, "COMMAND LIST returned " + names.size() + " names");
        List<String> unknown = names.stream().filter(n -> !CommandPolicy.glide().knows(n)).toList();
        assertEquals(List.of(), unknown, "commands of the test server the policy does not classify");
        // and nothing the policy lists is missing from the server (a typo would leave a real command unknown)
        List<String> notOnServer = CommandPolicy.glide().knownCommands().keySet().stream()
                .filter(n -> !names.contains(n)).toList();
        assertEquals(List.of(), notOnServer, "commands the policy lists that the test server does not have");
    }

    @Test
    void defaultScopeIsGlides() {
        CommandPolicy p = CommandPolicy.glide();
        Set<String> compressed = new TreeSet<>();
        Set<String> refused = new TreeSet<>();
        p.knownCommands().forEach((n, r) -> {
            if (r.action() == CommandAction.COMPRESS) {
                compressed.add(n);
            } else if (r.action() == CommandAction.REFUSE) {
                refused.add(n);
            }
        });
        assertEquals(new TreeSet<>(GLIDE_COMPRESSED), compressed);
        Set<String> expectedRefused = new TreeSet<>(GLIDE_REFUSED);
        expectedRefused.add("DELIFEQ"); // ours beyond GLIDE's list: compares a given value with the stored bytes
        assertEquals(expectedRefused, refused);
        assertEquals(CommandAction.PLAIN, p.rule("getset").action(), "GLIDE sends GETSET's new value plain");
        assertEquals(CommandAction.PLAIN, p.rule("HSET").action());
        assertEquals(CommandAction.PLAIN, p.rule("HINCRBY").action());
        assertEquals(CommandAction.PLAIN, p.rule("SADD").action());
        assertEquals(CommandAction.PLAIN, p.rule("EVAL").action());
        assertEquals(CommandAction.PLAIN, p.rule("PUBLISH").action());
        assertEquals(CommandGroup.UNKNOWN, p.rule("JSON.SET").group());
        assertEquals(CommandAction.PLAIN, p.rule("JSON.SET").action());
        assertEquals(CommandGroup.SERVER, p.rule("config|get").group());
    }

    @Test
    void hashValuesAreOptIn() {
        CommandPolicy p = CompressionConfig.builder().compressHashValues(true).build().commandPolicy();
        assertTrue(p.compressesHashValues());
        for (String c : List.of("HSET", "HSETNX", "HMSET", "HSETEX")) {
            assertEquals(CommandAction.COMPRESS, p.rule(c).action(), c);
        }
        for (String c : List.of("HINCRBY", "HINCRBYFLOAT", "HSTRLEN")) {
            assertEquals(CommandAction.REFUSE, p.rule(c).action(), c);
            assertTrue(p.rule(c).refusal(null).getMessage().startsWith(c + " is refused"));
        }
        assertFalse(CompressionConfig.defaults().commandPolicy().compressesHashValues());
    }

    @Test
    void valueSlotsPickTheValuesOnly() {
        CommandPolicy p = CommandPolicy.withHashValues();
        assertEquals(List.of(1), values(p, "SET", "k", "v", "EX", "10"));
        assertEquals(List.of(1), values(p, "SETNX", "k", "v"));
        assertEquals(List.of(2), values(p, "SETEX", "k", "10", "v"));
        assertEquals(List.of(2), values(p, "PSETEX", "k", "10", "v"));
        assertEquals(List.of(1, 3, 5), values(p, "MSET", "a", "1", "b", "2", "c", "3"));
        assertEquals(List.of(1, 3), values(p, "MSETNX", "a", "1", "b", "2"));
        assertEquals(List.of(2, 4), values(p, "HSET", "h", "f1", "v1", "f2", "v2"));
        assertEquals(List.of(2, 4), values(p, "HMSET", "h", "f1", "v1", "f2", "v2"));
        assertEquals(List.of(2), values(p, "HSETNX", "h", "f", "v"));
        assertEquals(List.of(7, 9), values(p, "HSETEX", "h", "FNX", "EX", "10", "FIELDS", "2", "f1", "v1", "f2",
                "v2"));
        assertEquals(List.of(4), values(p, "HSETEX", "h", "FIELDS", "1", "f", "v"));
        assertEquals(List.of(), values(p, "HSETEX", "h", "EX", "10"));
        assertEquals(List.of(), values(CommandPolicy.glide(), "HSET", "h", "f1", "v1"));
        assertEquals(List.of(), values(p, "SADD", "s", "m1", "m2"));
        assertEquals(List.of(), values(p, "GETSET", "k", "v"));
    }

    @Test
    void setConditionsThatCompareTheStoredBytesAreRefused() {
        CommandRule set = CommandPolicy.glide().rule("SET");
        assertEquals("IFEQ", set.refusedOption(args("k", "v", "ifeq", "old")));
        assertEquals("IFEQ", set.refusedOption(args("k", "v", "NX", "IFEQ", "old")));
        assertNull(set.refusedOption(args("k", "v", "EX", "10", "GET")));
        assertNull(set.refusedOption(args("IFEQ", "IFEQ")), "a key or value that reads IFEQ is not the option");
        assertTrue(set.refusal("IFEQ").getMessage().contains("IFEQ"));
        assertEquals("SET ... IFEQ", set.refusal("IFEQ").command());
        assertNull(CommandPolicy.glide().rule("MSET").refusedOption(args("a", "IFEQ", "b", "c")));
        CommandRefusedException e = CommandPolicy.glide().rule("append").refusal(null);
        assertEquals("APPEND", e.command());
        assertTrue(e.getMessage().contains("without compression"), e.getMessage());
    }

    private static List<Integer> values(CommandPolicy p, String command, String... a) {
        List<byte[]> args = args(a);
        CommandRule r = p.rule(command);
        return IntStream.range(0, args.size()).filter(i -> r.isValue(args, i)).boxed().toList();
    }

    private static List<byte[]> args(String... a) {
        List<byte[]> l = new ArrayList<>();
        for (String s : a) {
            l.add(s.getBytes(StandardCharsets.UTF_8));
        }
        return l;
    }
}
