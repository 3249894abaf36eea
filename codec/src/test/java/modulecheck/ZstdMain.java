package modulecheck;

/**
 * Run by {@code ModulePathTest} in a child JVM with the codec on the module path and this class (copied alone) on
 * the class path; precompiled so that it also runs on JDK runtimes without a compiler.
 */
public class ZstdMain {
    public static void main(String[] a) {
        if (!dev.zstdjava.zstd.Zstd.class.getModule().isNamed()) {
            throw new AssertionError("not a module");
        }
        byte[] data = "module path ".repeat(50).getBytes();
        byte[] back = dev.zstdjava.zstd.Zstd.decompress(dev.zstdjava.zstd.Zstd.compress(data));
        System.out.println(java.util.Arrays.equals(data, back) + " " + dev.zstdjava.zstd.Zstd.library().version()
                + " " + dev.zstdjava.zstd.Zstd.class.getModule().getName());
    }
}
