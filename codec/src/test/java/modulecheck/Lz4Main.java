package modulecheck;

import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Frame;

/** Run by {@code Lz4ModulePathTest} like {@link ZstdMain}: the lz4 block and frame formats from the named module. */
public class Lz4Main {
    public static void main(String[] a) {
        byte[] data = "module path ".repeat(50).getBytes();
        boolean block = java.util.Arrays.equals(data, Lz4.decompress(Lz4.compress(data, 9), data.length));
        boolean frame = java.util.Arrays.equals(data, Lz4Frame.decompress(Lz4Frame.compress(data)));
        System.out.println(block + " " + frame + " " + Lz4.library().version() + " "
                + Lz4.library().source() + " " + Lz4.class.getModule().getName());
    }
}
