package dev.zstdjava.values.spring;

import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.CommandRefusedException;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.SortParameters;
import org.springframework.data.redis.core.HashOperations;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.data.redis.core.query.SortQueryBuilder;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The Spring translation: every operation to a command of the catalogue, and the words the catalogue decides on, on
 * every Spring Data Redis line; {@link SpringSpecCommandsTest} adds the {@code SetSpec}/{@code DeleteSpec} forms of 4.1.
 */
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
    void setWordsOfTheTimedForms() throws Exception {
        Method setGet = ValueOperations.class.getMethod("setGet", Object.class, Object.class, long.class,
                TimeUnit.class);
        assertEquals(List.of("", "", "GET", "PX", "3000"),
                words(SpringCommands.setWords(setGet, new Object[] {"k", "v", 3L, TimeUnit.SECONDS})));
        Method setGetDuration = ValueOperations.class.getMethod("setGet", Object.class, Object.class, Duration.class);
        assertEquals(List.of("", "", "GET", "PX", "2000"),
                words(SpringCommands.setWords(setGetDuration, new Object[] {"k", "v", Duration.ofSeconds(2)})));
        Method setIfPresent = ValueOperations.class.getMethod("setIfPresent", Object.class, Object.class);
        assertNull(CommandPolicy.glide().rule("SET").refusalFor(
                SpringCommands.setWords(setIfPresent, new Object[] {"k", "v"})));
    }

    @Test
    void compareAndDeleteAndSortWords() {
        assertEquals(List.of("", "IFEQ", ""), words(SpringCommands.compareAndDeleteWords()));
        assertEquals("DELEX ... IFEQ", CommandPolicy.glide().rule(SpringCommands.COMPARE_AND_DELETE)
                .refusalFor(SpringCommands.compareAndDeleteWords()).command());
        var query = SortQueryBuilder.sort("list").by("w_*").limit(1, 2).get("#").get("o_*")
                .order(SortParameters.Order.DESC).alphabetical(true).build();
        assertEquals(List.of("", "BY", "w_*", "LIMIT", "1", "2", "GET", "#", "GET", "o_*", "DESC", "ALPHA", "STORE", ""),
                words(SpringCommands.sortWords(query, true)));
        assertEquals("SORT ... BY", CommandPolicy.glide().rule(SpringCommands.SORT)
                .refusalFor(SpringCommands.sortWords(query, false)).command());
    }

    static List<String> words(List<byte[]> words) {
        return words.stream().map(w -> new String(w, StandardCharsets.UTF_8)).toList();
    }
}
