package dev.zstdjava.values;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Deliberately broken methods, for {@link PublicApiFuzzTest}'s proof that the fuzzer fails: one crashes the JVM in
 * native code ({@code strlen(NULL)}), one never returns, one throws a clear exception (which must not be reported).
 * Test code only; never part of a jar.
 */
public final class ApiFuzzSelfTestTargets {
    private ApiFuzzSelfTestTargets() {}

    /** Passes NULL to libc's strlen: SIGSEGV in native code, as a binding given a raw pointer would. */
    public static long crashInNative() throws Throwable {
        Linker linker = Linker.nativeLinker();
        return (long) linker.downcallHandle(linker.defaultLookup().find("strlen").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS)).invokeExact(MemorySegment.NULL);
    }

    /** Never returns. */
    public static void spinForever() {
        while (true) {
            Thread.onSpinWait();
        }
    }

    /** Refuses every argument with a clear exception: the outcome the fuzzer accepts. */
    public static void throwsClearError(int value, byte[] data) {
        throw new IllegalArgumentException("refused: value " + value);
    }
}
