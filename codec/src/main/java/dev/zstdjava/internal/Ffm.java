package dev.zstdjava.internal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The part of the FFM API that differs between JDK releases, JDK 22 and later: critical downcalls
 * ({@code Linker.Option.critical(true)}) read and write heap segments in place.
 */
final class Ffm {
    private Ffm() {}

    /** Heap segments may be passed to critical downcalls as they are. */
    static final boolean HEAP_IN_DOWNCALLS = true;

    private static final Linker.Option CRITICAL = Linker.Option.critical(true);

    /** A downcall without the thread-state transition that accepts heap segments. */
    static MethodHandle critical(Linker linker, MemorySegment address, FunctionDescriptor descriptor) {
        return linker.downcallHandle(address, descriptor, CRITICAL);
    }

    /** @return the NUL-terminated UTF-8 string at the start of {@code s} */
    static String string(MemorySegment s) {
        return s.getString(0);
    }
}
