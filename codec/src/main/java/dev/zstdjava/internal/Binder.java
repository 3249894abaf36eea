package dev.zstdjava.internal;

import dev.zstdjava.NativeLibrary;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * Makes the downcall handles of one library from declarations ({@link Fn}: symbol, signature, optional or
 * required). Every binding in this package goes through here, so the calling conventions are decided in one place:
 * {@link #regular} handles make the thread-state transition and take native memory only; {@link #critical} handles
 * skip it and accept heap segments (how is the JDK-specific part, in {@link Ffm}). The wrappers call the handles
 * through {@code static final} fields with {@code invokeExact} and turn failures into exceptions with
 * {@link #rethrow}, the one error idiom of the bindings.
 */
final class Binder {
    /** {@code size_t}: bound as {@code long}, which is exact on the 64-bit platforms this library supports. */
    static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG;
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    static final ValueLayout PTR = ValueLayout.ADDRESS;
    /**
     * A {@code const} pointer: memory the function only reads. Where heap arguments are copied for a call (JDK 21),
     * these are not copied back; a buffer passed as input and output at once is then written back only once.
     */
    static final ValueLayout IN = ValueLayout.ADDRESS.withName(Ffm.CONST);

    private static final Linker LINKER = Linker.nativeLinker();

    /**
     * One native function as the bindings declare it, once: its symbol, its C signature and whether older library
     * versions may lack it (then its handles throw {@link UnsupportedOperationException} when called).
     */
    record Fn(String symbol, FunctionDescriptor descriptor, boolean required) {
        /** A function returning {@code result}. */
        static Fn of(String symbol, MemoryLayout result, MemoryLayout... args) {
            return new Fn(symbol, FunctionDescriptor.of(result, args), true);
        }

        /** A {@code void} function. */
        static Fn ofVoid(String symbol, MemoryLayout... args) {
            return new Fn(symbol, FunctionDescriptor.ofVoid(args), true);
        }

        /** The same function, allowed to be missing from the loaded library. */
        Fn optional() {
            return new Fn(symbol, descriptor, false);
        }
    }

    private final SymbolLookup lookup;
    private final String library;
    private final NativeLibrary info;

    private Binder(SymbolLookup lookup, String library, NativeLibrary info) {
        this.lookup = lookup;
        this.library = library;
        this.info = info;
    }

    /** Loads a library (see {@link NativeLoader}) to bind its functions. */
    static Binder load(NativeLoader.Spec spec) {
        NativeLoader.Loaded loaded = NativeLoader.load(spec);
        return new Binder(loaded.lookup(), "lib" + loaded.info().name() + " " + loaded.info().version(),
                loaded.info());
    }

    /** The C library of the process. */
    static Binder libc() {
        return new Binder(LINKER.defaultLookup(), "C library", null);
    }

    /** @return what was loaded, for diagnostics (null for the C library) */
    NativeLibrary info() {
        return info;
    }

    /** A handle with the thread-state transition: native memory only; lets the JVM reach safepoints meanwhile. */
    MethodHandle regular(Fn fn) {
        MemorySegment address = find(fn);
        return address == null ? missing(fn) : LINKER.downcallHandle(address, fn.descriptor());
    }

    /**
     * A handle without the thread-state transition that accepts heap segments. It holds off safepoints (and so GC)
     * for the call's length: for heap memory and short calls only.
     */
    MethodHandle critical(Fn fn) {
        MemorySegment address = find(fn);
        return address == null ? missing(fn) : Ffm.JDK.critical(LINKER, address, fn.descriptor());
    }

    /**
     * A {@link #critical} handle for calls whose pointer arguments are heap array views made next to the call (and
     * the context or scratch pointers passed with them). The JDK shares one adapter (and so one type profile) among
     * all handles of the same signature and options; its profile at each pointer argument's session check decides
     * whether the JIT can inline that check, and a check it cannot inline keeps the view's session object
     * allocated. Pointers declared with a target layout make a signature of their own: the adapter of these handles
     * sees array views and global native pointers only, never the caller segments of the segment forms, so the
     * views stay removable by escape analysis however the application uses the segment forms.
     */
    MethodHandle heap(Fn fn) {
        return retargeted(fn, ValueLayout.JAVA_BYTE);
    }

    /**
     * A {@link #critical} handle for calls on a context's own native buffers only (small heap arrays copied there,
     * {@link Scratch}): those segments exist before the call, so nothing is allocated for them, and a signature of
     * its own (as {@link #heap}) keeps them out of the type profiles of the other handles' adapters, where they
     * would make the views of direct buffers and arrays harder for the JIT to remove.
     */
    MethodHandle staged(Fn fn) {
        return retargeted(fn, MemoryLayout.sequenceLayout(1, ValueLayout.JAVA_BYTE));
    }

    /** A {@link #critical} handle whose pointer arguments are declared with {@code target}: an adapter of its own. */
    private MethodHandle retargeted(Fn fn, MemoryLayout target) {
        MemorySegment address = find(fn);
        if (address == null) {
            return missing(fn);
        }
        FunctionDescriptor d = fn.descriptor();
        MemoryLayout[] args = d.argumentLayouts().stream()
                .map(l -> l instanceof AddressLayout a ? a.withTargetLayout(target) : l)
                .toArray(MemoryLayout[]::new);
        FunctionDescriptor own = d.returnLayout().map(r -> FunctionDescriptor.of(r, args))
                .orElseGet(() -> FunctionDescriptor.ofVoid(args));
        return Ffm.JDK.critical(LINKER, address, own);
    }

    private MemorySegment find(Fn fn) {
        var found = lookup.find(fn.symbol());
        if (found.isPresent()) {
            return found.get();
        }
        if (!fn.required()) {
            return null;
        }
        throw new UnsatisfiedLinkError("symbol " + fn.symbol() + " not found in the loaded " + library);
    }

    /** A stand-in for an optional symbol the library lacks: throws naming the symbol and the loaded version. */
    private MethodHandle missing(Fn fn) {
        var type = fn.descriptor().toMethodType();
        var thrower = MethodHandles.throwException(type.returnType(), UnsupportedOperationException.class)
                .bindTo(new UnsupportedOperationException(fn.symbol() + " is not available in the loaded " + library
                        + "; use the bundled natives or a newer system library"));
        return MethodHandles.dropArguments(thrower, 0, type.parameterList());
    }

    /**
     * The one error idiom of the bindings: {@code catch (Throwable t) { throw Binder.rethrow(t); }}. Unchecked
     * exceptions and errors pass unchanged (a downcall declares {@code Throwable} but only ever throws those);
     * anything else would be a bug here and becomes an {@link IllegalStateException}.
     */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("unexpected checked exception from a downcall", t);
    }

    /** @return the NUL-terminated UTF-8 string a C function returned ({@code "unknown error"} for NULL) */
    static String cString(MemorySegment s) {
        return s.address() == 0 ? "unknown error" : Ffm.JDK.string(s.reinterpret(4096));
    }
}
