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
 * {@code --enable-native-access=dev.zstdjava.codec,dev.zstdjava.lettuce} and no warnings: the codec writes into a
 * direct Netty buffer through its native address.
 */
class ModulePathTest {
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
                        String v = "module path ".repeat(100);
                        var buf = io.netty.buffer.Unpooled.directBuffer();
                        codec.encodeValue(v, buf);
                        String back = codec.decodeValue(buf.nioBuffer());
                        System.out.println(v.equals(back) + " " + (buf.readableBytes() < v.length()) + " "
                                + CompressingCodec.class.getModule().getName() + " "
                                + CompressionConfig.class.getModule().getName());
                    }
                }
                """);
        ModulePathRun run = ModulePathRun.run(List.of(classes, valuesClasses, codecClasses),
                entry -> RUNTIME_JARS.matcher(entry).matches(), "dev.zstdjava.lettuce",
                "dev.zstdjava.codec,dev.zstdjava.lettuce", main);
        assertEquals(0, run.exit(), run.err());
        assertEquals("true true dev.zstdjava.lettuce dev.zstdjava.values", run.out(), run.err());
        assertFalse(run.err().contains("WARNING"), run.err());
    }
}
