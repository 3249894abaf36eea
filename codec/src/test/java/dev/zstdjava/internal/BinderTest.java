package dev.zstdjava.internal;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An optional function the loaded library lacks: its stand-in handle has the type of the handle it replaces, so the
 * bindings' {@code invokeExact} call sites get the {@link UnsupportedOperationException} naming the symbol (as
 * {@code ZstdNative.strategyFor} expects of {@code ZSTD_getCParams}, which returns a struct).
 */
class BinderTest {
    private static final StructLayout PAIR = MemoryLayout.structLayout(Binder.INT.withName("a"),
            Binder.INT.withName("b"));

    @Test
    void aMissingOptionalFunctionReturningAStructThrowsUnsupportedOperation() {
        // the C library stands in for a library without the symbol
        Binder.Fn fn = Binder.Fn.of("zstdjava_no_such_function", PAIR, Binder.INT, Binder.SIZE_T).optional();
        Binder b = Binder.libc();
        // the type the linker gives a present function of this signature (less the unbound handle's address)
        var expected = Linker.nativeLinker().downcallHandle(fn.descriptor()).type().dropParameterTypes(0, 1);
        for (MethodHandle h : List.of(b.regular(fn), b.critical(fn), b.heap(fn), b.staged(fn))) {
            assertEquals(expected, h.type());
            try (Arena a = Arena.ofConfined()) {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                        () -> { MemorySegment ignored = (MemorySegment) h.invokeExact((SegmentAllocator) a, 1, 2L); });
                assertTrue(e.getMessage().startsWith("zstdjava_no_such_function is not available in the loaded C library"),
                        e.getMessage());
            }
        }
    }

    /** The declarations the loader checks a library against: the required ones of the binding class. */
    @Test
    void theRequiredSymbolsAreTheBindingClassesRequiredDeclarations() {
        assertEquals(List.of("zstdjava_required_one", "zstdjava_required_two"),
                Binder.requiredSymbols(java.lang.invoke.MethodHandles.lookup()).stream().sorted().toList());
        assertTrue(Late.EARLY != null && Late.EARLY.getMessage().contains("declare the Fn fields before the Binder"),
                String.valueOf(Late.EARLY));
    }

    private static final Binder.Fn REQUIRED_ONE = Binder.Fn.of("zstdjava_required_one", Binder.INT);
    private static final Binder.Fn OPTIONAL = Binder.Fn.of("zstdjava_optional", Binder.INT).optional();
    private static final Binder.Fn REQUIRED_TWO = Binder.Fn.ofVoid("zstdjava_required_two", Binder.PTR);

    /** A binding class that asks for its symbols before declaring one of them. */
    private static final class Late {
        static final IllegalStateException EARLY = tryEarly();
        static final Binder.Fn DECLARED_AFTER = Binder.Fn.of("zstdjava_late", Binder.INT);

        private static IllegalStateException tryEarly() {
            try {
                Binder.requiredSymbols(java.lang.invoke.MethodHandles.lookup());
                return null;
            } catch (IllegalStateException e) {
                return e;
            }
        }
    }

    @Test
    void aMissingOptionalFunctionReturningAValueKeepsItsType() {
        Binder.Fn fn = Binder.Fn.of("zstdjava_no_such_function", Binder.SIZE_T, Binder.PTR).optional();
        MethodHandle h = Binder.libc().critical(fn);
        assertEquals(FunctionDescriptor.of(Binder.SIZE_T, Binder.PTR).toMethodType(), h.type());
        assertThrows(UnsupportedOperationException.class, () -> { long ignored = (long) h.invokeExact(MemorySegment.NULL); });
    }
}
