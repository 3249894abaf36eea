package dev.zstdjava.internal;

import dev.zstdjava.NativeLibrary;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Makes the downcall handles of one library from declarations ({@link Fn}: symbol, signature, optional or
 * required). Every binding goes through here (the package-private {@code ZstdNative} and {@code Lz4Native} of the
 * codec packages, and {@link LibC}), so the calling conventions are decided in one place:
 * {@link #regular} handles make the thread-state transition and take native memory only; {@link #critical} handles
 * skip it and accept heap segments (how is the JDK-specific part, in {@link Ffm}). The wrappers call the handles
 * through {@code static final} fields with {@code invokeExact} and turn failures into exceptions with
 * {@link #rethrow}, the one error idiom of the bindings.
 */
public final class Binder {
    // An instance makes downcall handles, so only the binding classes get one: load(...) checks its caller (see
    // checkCaller), and every method that makes a handle or reads through a returned pointer is an instance method.
    /** The packages whose binding classes may bind functions: their own package-private classes hold the handles. */
    private static final Set<String> BINDING_PACKAGES = Set.of("dev.zstdjava.zstd", "dev.zstdjava.lz4");

    /** {@code size_t}: bound as {@code long}, which is exact on the 64-bit platforms this library supports. */
    public static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG;
    public static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    public static final ValueLayout PTR = ValueLayout.ADDRESS;
    /**
     * A {@code const} pointer: memory the function only reads. Where heap arguments are copied for a call (JDK 21),
     * these are not copied back; a buffer passed as input and output at once is then written back only once.
     */
    public static final ValueLayout IN = ValueLayout.ADDRESS.withName(Ffm.CONST);

    private static final Linker LINKER = Linker.nativeLinker();

    /**
     * One native function as the bindings declare it, once: its symbol, its C signature and whether older library
     * versions may lack it (then its handles throw {@link UnsupportedOperationException} when called).
     */
    public record Fn(String symbol, FunctionDescriptor descriptor, boolean required) {
        /** A function returning {@code result}. */
        public static Fn of(String symbol, MemoryLayout result, MemoryLayout... args) {
            return new Fn(symbol, FunctionDescriptor.of(result, args), true);
        }

        /** A {@code void} function. */
        public static Fn ofVoid(String symbol, MemoryLayout... args) {
            return new Fn(symbol, FunctionDescriptor.ofVoid(args), true);
        }

        /** The same function, allowed to be missing from the loaded library. */
        public Fn optional() {
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

    /**
     * Loads a library (see {@link NativeLoader}) for the binding class that {@code caller} belongs to.
     * {@code caller} must be a full-privilege lookup ({@code MethodHandles.lookup()}) of a class in a codec package
     * of this library; anything else gets an {@link IllegalCallerException}: a Binder makes downcall handles, so
     * only the binding classes, which keep them package-private, may hold one.
     */
    public static Binder load(MethodHandles.Lookup caller, NativeLoader.Spec spec) {
        checkCaller(caller);
        NativeLoader.Loaded loaded = NativeLoader.load(spec.requiring(requiredSymbols(caller)));
        return new Binder(loaded.lookup(), "lib" + loaded.info().name() + " " + loaded.info().version(),
                loaded.info());
    }

    /**
     * The symbols of the required functions that the class of {@code caller} declares in its static {@link Fn}
     * fields, which must be initialised already (declared before the field the loaded Binder goes into).
     */
    static List<String> requiredSymbols(MethodHandles.Lookup caller) {
        List<String> symbols = new ArrayList<>();
        for (Field f : caller.lookupClass().getDeclaredFields()) {
            if (f.getType() != Fn.class || !Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            Fn fn;
            try {
                fn = (Fn) caller.unreflectGetter(f).invoke();
            } catch (Throwable t) {
                throw new IllegalStateException("cannot read " + f, t);
            }
            if (fn == null) {
                throw new IllegalStateException(f + " is not initialised yet: declare the Fn fields before the Binder");
            }
            if (fn.required()) {
                symbols.add(fn.symbol());
            }
        }
        return symbols;
    }

    /** The C library of the process. */
    static Binder libc() {
        return new Binder(LINKER.defaultLookup(), "C library", null);
    }

    /**
     * Accepts {@code caller} when it is a full-privilege lookup of a class of this library's own class loader and
     * module in one of the codec packages that hold bindings; throws {@link IllegalCallerException} otherwise.
     */
    static void checkCaller(MethodHandles.Lookup caller) {
        Class<?> c = caller.lookupClass();
        if (!caller.hasFullPrivilegeAccess() || c.getClassLoader() != Binder.class.getClassLoader()
                || c.getModule() != Binder.class.getModule() || !BINDING_PACKAGES.contains(c.getPackageName())) {
            throw new IllegalCallerException("zstd-java native bindings are reserved for the classes of packages "
                    + BINDING_PACKAGES + " of the codec; refused lookup " + caller);
        }
    }

    /** @return what was loaded, for diagnostics (null for the C library) */
    public NativeLibrary info() {
        return info;
    }

    /** A handle with the thread-state transition: native memory only; lets the JVM reach safepoints meanwhile. */
    public MethodHandle regular(Fn fn) {
        MemorySegment address = find(fn);
        return address == null ? missing(fn) : LINKER.downcallHandle(address, fn.descriptor());
    }

    /**
     * A handle without the thread-state transition that accepts heap segments. It holds off safepoints (and so GC)
     * for the call's length: for heap memory and short calls only.
     */
    public MethodHandle critical(Fn fn) {
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
    public MethodHandle heap(Fn fn) {
        return retargeted(fn, ValueLayout.JAVA_BYTE);
    }

    /**
     * A {@link #critical} handle for calls on a context's own native buffers only (small heap arrays copied there,
     * {@link Scratch}): those segments exist before the call, so nothing is allocated for them, and a signature of
     * its own (as {@link #heap}) keeps them out of the type profiles of the other handles' adapters, where they
     * would make the views of direct buffers and arrays harder for the JIT to remove.
     */
    public MethodHandle staged(Fn fn) {
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
        if (fn.descriptor().returnLayout().orElse(null) instanceof GroupLayout) {
            // the linker's handles of a function returning a struct take the allocator of the result first
            type = type.insertParameterTypes(0, SegmentAllocator.class);
        }
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
    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("unexpected checked exception from a downcall", t);
    }

    /**
     * @return the NUL-terminated UTF-8 string a C function of this library returned ({@code "unknown error"} for
     *         NULL); an instance method, so only the holders of a Binder can read through a returned pointer
     */
    public String cString(MemorySegment s) {
        return s.address() == 0 ? "unknown error" : Ffm.JDK.string(s.reinterpret(4096));
    }
}
