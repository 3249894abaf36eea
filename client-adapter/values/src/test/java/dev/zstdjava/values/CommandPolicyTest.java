package dev.zstdjava.values;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.testkit.LettuceCommands;
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

    /**
     * Commands the policy classifies that the test server (Valkey 9.1) does not have: those of Redis 8.x that
     * Lettuce 7.9 sends ({@code DELEX}, {@code DIGEST} 8.4; {@code INCREX}, arrays, {@code HIMPORT} 8.8; vector sets
     * 8.0; ...), Sentinel's, and the older name Lettuce still sends ({@code STRALGO}, Redis 6).
     */
    static final Set<String> NOT_ON_TEST_SERVER = Set.of("DELEX", "DIGEST", "INCREX", "STRALGO", "HOTKEYS",
            "SENTINEL", "SFLUSH", "HIMPORT", "SDIFFCARD", "SUNIONCARD", "LMOVEM", "BLMOVEM", "XACKDEL", "XDELEX",
            "XCFGSET", "XNACK",
            "ARCOUNT", "ARDEL", "ARDELRANGE", "ARGET", "ARGETRANGE", "ARGREP", "ARINFO", "ARINSERT", "ARLASTITEMS",
            "ARLEN", "ARMGET", "ARMSET", "ARNEXT", "AROP", "ARRING", "ARSCAN", "ARSEEK", "ARSET",
            "VADD", "VCARD", "VDIM", "VEMB", "VGETATTR", "VINFO", "VISMEMBER", "VLINKS", "VRANDMEMBER", "VREM",
            "VSETATTR", "VSIM");

    static Set<String> serverCommands() {
        Object reply = redis.client().sendCommand(Protocol.Command.COMMAND, "LIST");
        Set<String> names = new TreeSet<>();
        for (Object o : (List<?>) reply) {
            String name = SafeEncoder.encode((byte[]) o);
            if (!name.contains("|")) {
                names.add(name.toUpperCase());
            }
        }
        assertTrue(names.size() > 200, "COMMAND LIST returned " + names.size() + " names");
        return names;
    }

    /** the command types of the Lettuce this module is tested with (lettuce-lines checks each line's) */
    static Set<String> lettuceCommands() {
        return LettuceCommands.names();
    }

    @Test
    void everyCommandOfTheServerIsClassified() {
        List<String> unknown = serverCommands().stream().filter(n -> !CommandPolicy.glide().knows(n)).toList();
        assertEquals(List.of(), unknown, "commands of the test server the policy does not classify");
    }

    /** A command Lettuce can send (a new CommandType) fails here until the policy classifies it. */
    @Test
    void everyCommandLettuceSendsIsClassified() {
        List<String> unknown = lettuceCommands().stream().filter(n -> !CommandPolicy.glide().knows(n)).toList();
        assertEquals(List.of(), unknown, "Lettuce command types the policy does not classify");
        assertEquals(CommandGroup.MODULES, CommandPolicy.glide().rule("JSON.SET").group());
        assertEquals(CommandGroup.MODULES, CommandPolicy.glide().rule("ft.search").group());
    }

    /** Nothing the policy lists is a typo: each is a command of the test server, of Lettuce, or listed above. */
    @Test
    void everyCommandThePolicyListsExists() {
        Set<String> server = serverCommands();
        Set<String> lettuce = lettuceCommands();
        List<String> nowhere = CommandPolicy.glide().knownCommands().keySet().stream()
                .filter(n -> !server.contains(n) && !NOT_ON_TEST_SERVER.contains(n)).toList();
        assertEquals(List.of(), nowhere, "commands the policy lists that the test server lacks and that are not"
                + " listed as such");
        List<String> unsent = NOT_ON_TEST_SERVER.stream().filter(n -> !lettuce.contains(n) && !n.equals("SFLUSH"))
                .sorted().toList();
        assertEquals(List.of(), unsent, "listed as missing on the test server, but not a command Lettuce sends");
        assertEquals(CommandPolicy.glide().knownCommands().keySet(),
                CommandPolicy.withHashValues().knownCommands().keySet());
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
        // and the string commands GLIDE's list does not name: LCS's old name, and Redis 8.4/8.8's
        expectedRefused.addAll(List.of("STRALGO", "DIGEST", "INCREX"));
        assertEquals(expectedRefused, refused);
        assertEquals(CommandAction.PLAIN, p.rule("getset").action(), "GLIDE sends GETSET's new value plain");
        assertEquals(CommandAction.PLAIN, p.rule("HSET").action());
        assertEquals(CommandAction.PLAIN, p.rule("HINCRBY").action());
        assertEquals(CommandAction.PLAIN, p.rule("SADD").action());
        assertEquals(CommandAction.PLAIN, p.rule("EVAL").action());
        assertEquals(CommandAction.PLAIN, p.rule("PUBLISH").action());
        assertEquals(CommandGroup.UNKNOWN, p.rule("MYMODULE.SET").group());
        assertEquals(CommandAction.PLAIN, p.rule("MYMODULE.SET").action());
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

    @Test
    void conditionsAreReadFromTheArgumentWordsOfSetAndDelex() {
        CommandRule set = CommandPolicy.glide().rule("SET");
        assertTrue(set.checksArguments());
        assertFalse(set.checksArguments(2), "SET key value: decided by the name");
        assertTrue(set.checksArguments(3));
        assertNull(set.refusalFor(args("k", "v")));
        assertNull(set.refusalFor(args("k", "v", "EX", "10", "GET", "KEEPTTL")));
        assertEquals("SET ... IFEQ", set.refusalFor(args("k", "v", "GET", "ifEq", "old")).command());
        assertEquals("SET ... IFDNE", set.refusalFor(args("k", "v", "IFDNE", "abc")).command());
        assertTrue(set.refusalFor(args("k", "v", "IFDEQ", "abc")).getMessage().contains("digest"));
        assertNull(set.refusalFor(args("IFEQ", "IFNE")), "the key and the value are not options");
        CommandRule delex = CommandPolicy.glide().rule("DELEX");
        assertEquals(CommandAction.PLAIN, delex.action());
        assertEquals(CommandGroup.KEYSPACE, delex.group());
        assertFalse(delex.checksArguments(1));
        assertNull(delex.refusalFor(args("IFEQ")), "DELEX key: a DEL of a key named IFEQ");
        assertEquals("DELEX ... IFNE", delex.refusalFor(args("k", "ifne", "v")).command());
        // rules without an argument check: the name decides, whatever the arguments
        CommandRule append = CommandPolicy.glide().rule("APPEND");
        assertFalse(append.checksArguments());
        assertEquals("APPEND", append.refusalFor(args("k", "v")).command());
        assertNull(CommandPolicy.glide().rule("MSET").refusalFor(args("a", "IFEQ", "b", "c")));
        assertNull(CommandPolicy.glide().rule("GET").refusalFor(args("IFEQ")));
    }

    @Test
    void sortIsRefusedOnlyByPatternsThatReadCompressedValues() {
        for (String command : List.of("SORT", "SORT_RO", "sort")) {
            CommandRule glide = CommandPolicy.glide().rule(command);
            CommandRule hashes = CommandPolicy.withHashValues().rule(command);
            assertEquals(CommandAction.PLAIN, glide.action());
            assertFalse(glide.checksArguments(2));
            assertTrue(glide.checksArguments(3));
            String name = command.toUpperCase(java.util.Locale.ROOT);
            // string weights: compressed under both policies
            for (CommandRule r : List.of(glide, hashes)) {
                assertEquals(name + " ... BY", r.refusalFor(args("l", "BY", "w_*")).command());
                assertEquals(name + " ... BY", r.refusalFor(args("l", "LIMIT", "0", "10", "by", "w_*", "ALPHA"))
                        .command());
                assertEquals(name + " ... BY", r.refusalFor(args("l", "BY", "w_*->")).command(),
                        "-> without a field names a string key");
                assertEquals(name + " ... BY", r.refusalFor(args("l", "BY", "a->b_*")).command(),
                        "-> before the * is part of the key name");
                assertNull(r.refusalFor(args("l", "BY", "nosort", "GET", "w_*")), "no * : not sorted");
                assertNull(r.refusalFor(args("l", "GET", "BY", "GET", "#")), "BY as a GET pattern");
                assertNull(r.refusalFor(args("l", "LIMIT", "BY", "w_*", "ALPHA")), "LIMIT's arguments");
                assertNull(r.refusalFor(args("l", "STORE", "BY")), "STORE's destination");
                assertNull(r.refusalFor(args("l", "DESC", "ALPHA")));
            }
            // hash-field weights: plain unless hash values are compressed
            assertNull(glide.refusalFor(args("l", "BY", "h_*->weight")));
            assertEquals(name + " ... BY", hashes.refusalFor(args("l", "BY", "h_*->weight")).command());
            String message = glide.refusalFor(args("l", "BY", "w_*")).getMessage();
            assertTrue(message.contains("BY w_*") && message.contains("connection without compression")
                    && message.contains("BY weight_*->field") && message.contains("BY nosort"), message);
            assertFalse(hashes.refusalFor(args("l", "BY", "w_*")).getMessage().contains("->field"));
        }
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
