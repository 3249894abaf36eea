package dev.zstdjava.values.spring;

import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.CommandRefusedException;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.SortParameters;
import org.springframework.data.redis.core.DeleteSpec;
import org.springframework.data.redis.core.HashOperations;
import org.springframework.data.redis.core.SetSpec;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.data.redis.core.query.SortQueryBuilder;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The Spring translation: every operation to a command of the catalogue, and the words the catalogue decides on. */
class SpringCommandsTest {
    /** A method of this Spring that the translation does not know would be sent plain without the catalogue. */
    @Test
    void everyOperationSendsACommandOfTheCatalogue() {
        List<String> unknown = new ArrayList<>();
        check(ValueOperations.class, SpringCommands::valueCommand, unknown);
        check(HashOperations.class, SpringCommands::hashCommand, unknown);
        assertEquals(List.of(), unknown);
    }

    private static void check(Class<?> type, Function<Method, String> commands, List<String> unknown) {
        for (Method m : type.getMethods()) {
            if (m.isSynthetic() || Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            String c = commands.apply(m);
            if (c == null || !c.equals(SpringCommands.NO_COMMAND) && !CommandPolicy.glide().knows(c)) {
                unknown.add(type.getSimpleName() + "." + m.getName() + " -> " + c);
            }
        }
    }

    @Test
    void setWordsAreTheWordsSpringSends() throws Exception {
        Method set = ValueOperations.class.getMethod("set", Object.class, Object.class, Consumer.class);
        Consumer<SetSpec<String, String>> nx = s -> s.ifAbsent().expire(Duration.ofSeconds(2));
        assertEquals(List.of("", "", "NX", "PX", "2000"), words(SpringCommands.setWords(set, new Object[] {"k", "v", nx})));
        Consumer<SetSpec<String, String>> digest = s -> s.ifNotEquals().digest("abc").keepTtl();
        assertEquals(List.of("", "", "IFDNE", "abc", "KEEPTTL"),
                words(SpringCommands.setWords(set, new Object[] {"k", "v", digest})));
        Method setGet = ValueOperations.class.getMethod("setGet", Object.class, Object.class, long.class,
                TimeUnit.class);
        assertEquals(List.of("", "", "GET", "PX", "3000"),
                words(SpringCommands.setWords(setGet, new Object[] {"k", "v", 3L, TimeUnit.SECONDS})));
        Method cas = ValueOperations.class.getMethod("compareAndSet", Object.class, Object.class, Object.class);
        List<byte[]> casWords = SpringCommands.setWords(cas, new Object[] {"k", "old", "new"});
        assertEquals(List.of("", "", "IFEQ", ""), words(casWords));
        CommandRefusedException e = CommandPolicy.glide().rule("SET").refusalFor(casWords);
        assertEquals("SET ... IFEQ", e.command());
        Method setIfPresent = ValueOperations.class.getMethod("setIfPresent", Object.class, Object.class);
        assertNull(CommandPolicy.glide().rule("SET").refusalFor(
                SpringCommands.setWords(setIfPresent, new Object[] {"k", "v"})));
    }

    @Test
    void deleteAndSortWords() {
        Consumer<DeleteSpec<String, String>> alwaysSpec = s -> s.always();
        List<byte[]> always = SpringCommands.deleteWords(alwaysSpec);
        assertEquals("DEL", SpringCommands.deleteCommand(always));
        Consumer<DeleteSpec<String, String>> ifneSpec = s -> s.ifNotEquals().value("x");
        List<byte[]> ifne = SpringCommands.deleteWords(ifneSpec);
        assertEquals("DELEX", SpringCommands.deleteCommand(ifne));
        assertEquals(List.of("", "IFNE", ""), words(ifne));
        assertEquals("DELEX ... IFNE", CommandPolicy.glide().rule("DELEX").refusalFor(ifne).command());
        assertEquals(List.of("", "IFEQ", ""), words(SpringCommands.compareAndDeleteWords()));

        var query = SortQueryBuilder.sort("list").by("w_*").limit(1, 2).get("#").get("o_*")
                .order(SortParameters.Order.DESC).alphabetical(true).build();
        assertEquals(List.of("", "BY", "w_*", "LIMIT", "1", "2", "GET", "#", "GET", "o_*", "DESC", "ALPHA", "STORE", ""),
                words(SpringCommands.sortWords(query, true)));
        assertEquals("SORT ... BY", CommandPolicy.glide().rule(SpringCommands.SORT)
                .refusalFor(SpringCommands.sortWords(query, false)).command());
    }

    private static List<String> words(List<byte[]> words) {
        return words.stream().map(w -> new String(w, StandardCharsets.UTF_8)).toList();
    }
}
