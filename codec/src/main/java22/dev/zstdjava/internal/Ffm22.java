package dev.zstdjava.internal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * JDK 22 and later: critical downcalls ({@code Linker.Option.critical(true)}) read and write heap segments in
 * place. Compiled with {@code --release 22}; loaded by {@link Ffm} only on JDK 22+.
 */
final class Ffm22 extends Ffm {
    private static final Linker.Option CRITICAL = Linker.Option.critical(true);

    @Override
    MethodHandle critical(Linker linker, MemorySegment address, FunctionDescriptor descriptor) {
        return linker.downcallHandle(address, descriptor, CRITICAL);
    }

    @Override
    String string(MemorySegment s) {
        return s.getString(0);
    }
}
