package modulecheck;

import dev.zstdjava.lettuce.CompressingCodec;
import dev.zstdjava.values.CompressionConfig;

/**
 * Run by {@code ModulePathTest} in a child JVM with the adapter and codec on the module path and this class (copied
 * alone) on the class path; precompiled so that it also runs on JDK runtimes without a compiler.
 */
public class LettuceMain {
    public static void main(String[] a) {
        if (!CompressingCodec.class.getModule().isNamed()) {
            throw new AssertionError("not a module");
        }
        var codec = CompressingCodec.wrap(io.lettuce.core.codec.StringCodec.UTF8, CompressionConfig.defaults());
        String v = "module path ".repeat(100);
        var buf = io.netty.buffer.Unpooled.directBuffer();
        codec.encodeValue(v, buf);
        String back = codec.decodeValue(buf.nioBuffer());
        System.out.println(v.equals(back) + " " + (buf.readableBytes() < v.length()) + " "
                + CompressingCodec.class.getModule().getName() + " " + CompressionConfig.class.getModule().getName());
    }
}
