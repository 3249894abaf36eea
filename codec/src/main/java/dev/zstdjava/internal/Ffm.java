package dev.zstdjava.internal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The few FFM calls that differ between JDK 21 and JDK 22+, chosen once by {@link Runtime#version()}:
 * {@link Ffm21} (this source tree, compiled against JDK 21's {@code java.lang.foreign}) or {@code Ffm22}
 * ({@code src/main/java22}, compiled with {@code --release 22} and never loaded on 21). Everything else in the
 * codec is compiled once for JDK 21 and runs unchanged on both.
 */
abstract class Ffm {
    /**
     * Heap segments may be passed to critical downcalls and are read and written in place (JDK 22+). On JDK 21 the
     * linker refuses heap segments in every downcall, so the codecs stage heap arrays through their native buffers.
     */
    static final boolean HEAP_IN_DOWNCALLS = Runtime.version().feature() >= 22;

    /** The name {@link Binder#IN} gives {@code const} pointer arguments. */
    static final String CONST = "const";

    /** The implementation for the running JDK. */
    static final Ffm JDK = HEAP_IN_DOWNCALLS ? load("dev.zstdjava.internal.Ffm22") : new Ffm21();

    private static Ffm load(String name) {
        try {
            return (Ffm) Class.forName(name).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A downcall without the thread-state transition (it holds off safepoints for its length) that accepts heap
     * segments as arguments.
     */
    abstract MethodHandle critical(Linker linker, MemorySegment address, FunctionDescriptor descriptor);

    /** @return the NUL-terminated UTF-8 string at the start of {@code s} */
    abstract String string(MemorySegment s);
}
