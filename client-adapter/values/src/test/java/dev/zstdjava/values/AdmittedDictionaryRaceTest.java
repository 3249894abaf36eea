package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A value a lineage writes with a dictionary it has just loaded reads back in the same process at once, even while
 * the loading thread has not yet told the manager's listeners: a debugger ({@code src/test/jdi/HoldingDebugger.java}
 * runs {@link AdmittedDictionaryChild}) holds that thread in {@code DictionaryRegistry.add} after the new dictionary
 * is current, before the listeners, while the main thread writes with it and reads the value back through the
 * adaptive compressor's reader. The reader knows the dictionary's lineage from the manager's admission hook, called
 * before the dictionary is current (else: {@link MissingDictionaryException}, the id known to no lineage yet).
 */
class AdmittedDictionaryRaceTest {
    private static final Path SOURCE = Path.of("src/main/java/dev/zstdjava/values/DictionaryRegistry.java");

    /** @return the line of {@code DictionaryRegistry.add} that calls the listeners, after the snapshot is published */
    static int listenersLine() throws IOException {
        List<String> lines = Files.readAllLines(SOURCE, StandardCharsets.UTF_8);
        int i = 0;
        while (i < lines.size() && !lines.get(i).contains("synchronized void add(DictionaryManager.Entry e) {")) {
            i++;
        }
        while (i < lines.size() && !lines.get(i).contains("for (LongConsumer l : listeners)")) {
            i++;
        }
        assertTrue(i < lines.size(), "add and its listeners' loop in " + SOURCE.toAbsolutePath());
        return i + 1;
    }

    @Test
    void aValueWrittenWithADictionaryJustLoadedReadsBackBeforeTheListenersRun() throws Exception {
        String out = PatternStateRaceTest.debug(AdmittedDictionaryChild.class, DictionaryRegistry.class,
                listenersLine(), "add", "(Ldev/zstdjava/values/DictionaryManager$Entry;)V", "zstd-java-dictionaries");
        assertTrue(out.contains("read back"), "the value written with the new dictionary reads back:\n" + out);
    }

    /** The same with a manager the application gives for the pattern, which it built before the reader knew it. */
    @Test
    void aValueWrittenWithAGivenManagersDictionaryJustLoadedReadsBackBeforeTheListenersRun() throws Exception {
        String out = PatternStateRaceTest.debug(AdmittedDictionaryChild.class, DictionaryRegistry.class,
                listenersLine(), "add", "(Ldev/zstdjava/values/DictionaryManager$Entry;)V", "zstd-java-dictionaries",
                "given");
        assertTrue(out.contains("read back"), "the value written with the new dictionary reads back:\n" + out);
    }
}
