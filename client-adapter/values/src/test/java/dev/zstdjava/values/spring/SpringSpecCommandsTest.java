package dev.zstdjava.values.spring;

import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.CommandRefusedException;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.DeleteSpec;
import org.springframework.data.redis.core.SetSpec;
import org.springframework.data.redis.core.ValueOperations;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import static dev.zstdjava.values.spring.SpringCommandsTest.words;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The words of Spring Data Redis 4.1's {@code SetSpec}, {@code compareAndSet} and {@code DeleteSpec} operations.
 * Runs on 4.1 only (the older lines lack these types); {@link SpringCommandsTest} covers every line.
 */
class SpringSpecCommandsTest {
    @Test
    void theSpecsOfThisLineExist() {
        assertTrue(SpringLine.SPECS, "DeleteSpec found once, by its class");
    }

    @Test
    void setSpecWords() throws Exception {
        Method set = ValueOperations.class.getMethod("set", Object.class, Object.class, Consumer.class);
        Consumer<SetSpec<String, String>> nx = s -> s.ifAbsent().expire(Duration.ofSeconds(2));
        assertEquals(List.of("", "", "NX", "PX", "2000"), words(SpringCommands.setWords(set, new Object[] {"k", "v", nx})));
        Consumer<SetSpec<String, String>> digest = s -> s.ifNotEquals().digest("abc").keepTtl();
        assertEquals(List.of("", "", "IFDNE", "abc", "KEEPTTL"),
                words(SpringCommands.setWords(set, new Object[] {"k", "v", digest})));
        Method cas = ValueOperations.class.getMethod("compareAndSet", Object.class, Object.class, Object.class);
        List<byte[]> casWords = SpringCommands.setWords(cas, new Object[] {"k", "old", "new"});
        assertEquals(List.of("", "", "IFEQ", ""), words(casWords));
        CommandRefusedException e = CommandPolicy.glide().rule("SET").refusalFor(casWords);
        assertEquals("SET ... IFEQ", e.command());
    }

    @Test
    void deleteSpecWords() {
        Consumer<DeleteSpec<String, String>> alwaysSpec = s -> s.always();
        List<byte[]> always = SpringCommands.deleteWords(alwaysSpec);
        assertEquals("DEL", SpringCommands.deleteCommand(always));
        Consumer<DeleteSpec<String, String>> ifneSpec = s -> s.ifNotEquals().value("x");
        List<byte[]> ifne = SpringCommands.deleteWords(ifneSpec);
        assertEquals("DELEX", SpringCommands.deleteCommand(ifne));
        assertEquals(List.of("", "IFNE", ""), words(ifne));
        assertEquals("DELEX ... IFNE", CommandPolicy.glide().rule("DELEX").refusalFor(ifne).command());
    }
}
