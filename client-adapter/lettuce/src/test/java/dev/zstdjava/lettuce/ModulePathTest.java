package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.ModulePathRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The adapter works as the named module {@code dev.zstdjava.lettuce} (on the core module {@code dev.zstdjava.values})
 * next to Lettuce's automatic module, with
 * {@code --enable-native-access=dev.zstdjava.codec,dev.zstdjava.lettuce} and no warnings: the policy client compresses
 * a SET value against a real server, and reads the arguments of a SET with options (to refuse IFEQ) from Lettuce's
 * automatic module.
 */
@org.junit.jupiter.api.condition.DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class ModulePathTest {
    @org.junit.jupiter.api.extension.RegisterExtension
    static final dev.zstdjava.testkit.LettuceServer redis = new dev.zstdjava.testkit.LettuceServer();

    static final Pattern RUNTIME_JARS = Pattern.compile(".*/(lettuce-core|netty-[a-z-]+|reactor-core|reactive-streams"
            + "|slf4j-api|redis-authx-core)-[^/]*\\.jar");

    @Test
    void runsAsANamedModule(@TempDir Path dir) throws Exception {
        Path classes = Path.of("target/classes").toAbsolutePath();
        Path valuesClasses = Path.of("../values/target/classes").toAbsolutePath();
        Path codecClasses = Path.of("../../codec/target/classes").toAbsolutePath();
        assertTrue(Files.exists(classes.resolve("module-info.class")), "compiled module descriptor");
        assertTrue(Files.exists(valuesClasses.resolve("module-info.class")), "compiled core module descriptor");
        Path main = dir.resolve("Main.java");
        Files.writeString(main, """
                import dev.zstdjava.lettuce.*;
                import dev.zstdjava.values.*;
                public class Main {
                    public static void main(String[] a) {
                        if (!CompressingCodec.class.getModule().isNamed()) throw new AssertionError("not a module");
                        var codec = CompressingCodec.wrap(io.lettuce.core.codec.StringCodec.UTF8, CompressionConfig.defaults());
                        var client = CompressingRedisClient.create(io.lettuce.core.RedisURI.create("127.0.0.1", PORT));
                        try (var c = client.connect(codec);
                             var raw = client.connect(io.lettuce.core.codec.ByteArrayCodec.INSTANCE)) {
                            String v = "module path ".repeat(100);
                            c.sync().set("m", v);
                            boolean refused = false;
                            try {
                                c.sync().set("m", "x", new io.lettuce.core.SetArgs().compareCondition(
                                        io.lettuce.core.CompareCondition.valueEq(v)));
                            } catch (CommandRefusedException e) {
                                refused = e.command().equals("SET ... IFEQ");
                            }
                            System.out.println(v.equals(c.sync().get("m")) + " "
                                    + (raw.sync().get("m".getBytes()).length < v.length()) + " " + refused + " "
                                    + CompressingCodec.class.getModule().getName() + " "
                                    + CompressionConfig.class.getModule().getName());
                        } finally {
                            client.shutdown();
                        }
                    }
                }
                """.replace("PORT", Integer.toString(redis.server().port())));
        ModulePathRun run = ModulePathRun.run(List.of(classes, valuesClasses, codecClasses),
                entry -> RUNTIME_JARS.matcher(entry).matches(), "ALL-MODULE-PATH", // Lettuce (automatic) needs Netty's modules
                "dev.zstdjava.codec,dev.zstdjava.lettuce", main);
        assertEquals(0, run.exit(), run.err());
        assertEquals("true true true dev.zstdjava.lettuce dev.zstdjava.values", run.out(), run.err());
        assertFalse(run.err().contains("WARNING"), run.err());
    }
}
