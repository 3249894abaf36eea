package dev.zstdjava.internal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * Makes downcall handles for one library. Every binding in this package goes through here, so the calling
 * conventions (critical or not, which symbols are optional) are decided in one place.
 */
final class Binder {
    /** {@code size_t}: bound as {@code long}, which is exact on the 64-bit platforms this library supports. */
    static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG;
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    static final ValueLayout PTR = ValueLayout.ADDRESS;

    private static final Linker LINKER = Linker.nativeLinker();
    /**
     * Critical calls skip the thread-state transition and may read and write heap arrays in place. They hold off
     * safepoints (and so GC) for their length, so they are used for heap memory and for short calls only.
     */
    private static final Linker.Option CRITICAL = Linker.Option.critical(true);

    private final SymbolLookup lookup;
    private final String library;
    private final String version;

    Binder(NativeLoader.Loaded loaded) {
        this.lookup = loaded.lookup();
        this.library = "lib" + loaded.info().name();
        this.version = loaded.info().version();
    }

    static FunctionDescriptor fn(MemoryLayout result, MemoryLayout... args) {
        return FunctionDescriptor.of(result, args);
    }

    static FunctionDescriptor proc(MemoryLayout... args) {
        return FunctionDescriptor.ofVoid(args);
    }

    /** A required symbol, regular (thread-state transition; native memory only). */
    MethodHandle bind(String symbol, FunctionDescriptor fd) {
        return LINKER.downcallHandle(require(symbol), fd);
    }

    /** A required symbol, critical: heap segments allowed, no safepoint for the call's length. */
    MethodHandle critical(String symbol, FunctionDescriptor fd) {
        return LINKER.downcallHandle(require(symbol), fd, CRITICAL);
    }

    /**
     * A symbol older library versions may lack: when absent, the handle throws {@link UnsupportedOperationException}
     * naming the symbol and the loaded version.
     */
    MethodHandle optional(String symbol, FunctionDescriptor fd, boolean critical) {
        var found = lookup.find(symbol);
        if (found.isPresent()) {
            return critical ? LINKER.downcallHandle(found.get(), fd, CRITICAL) : LINKER.downcallHandle(found.get(), fd);
        }
        var type = fd.toMethodType();
        var thrower = MethodHandles.throwException(type.returnType(), UnsupportedOperationException.class)
                .bindTo(new UnsupportedOperationException(symbol + " is not available in the loaded " + library
                        + " " + version + "; use the bundled natives or a newer system library"));
        return MethodHandles.dropArguments(thrower, 0, type.parameterList());
    }

    private java.lang.foreign.MemorySegment require(String symbol) {
        return lookup.find(symbol).orElseThrow(() -> new UnsatisfiedLinkError(
                "symbol " + symbol + " not found in the loaded " + library + " " + version));
    }
}
