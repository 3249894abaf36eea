package dev.zstdjava.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.stream.IntStream;

/**
 * JDK 21: {@code java.lang.foreign} is a preview API there, but this class is compiled against stubs of JDK 21's
 * class files without the {@code PreviewFeature} annotation, so it carries no preview bit and runs without
 * {@code --enable-preview} (the approach Apache Lucene used for its JDK 19-21 memory mapping).
 *
 * <p>JDK 21 has no {@code Linker.Option.critical}; {@code isTrivial()} skips the thread-state transition the same
 * way but refuses heap segments, as every JDK 21 downcall does. The codecs stage heap arrays through their own
 * native buffers on 21 ({@link Bounds#HEAP_CRITICAL_LIMIT} is 0), so the hot paths never pass one; for the rest
 * (streams over heap buffers, frame header queries on arrays) a critical handle here copies each heap segment
 * argument into a native one for the call and copies the non-{@code const} ones ({@link Binder#IN}) back
 * afterwards. Calls with native memory only take the direct path.
 */
final class Ffm21 extends Ffm {
    private static final MethodHandle IS_HEAP, STAGED_CALL;

    static {
        try {
            var lookup = MethodHandles.lookup();
            IS_HEAP = lookup.findStatic(Ffm21.class, "isHeap", MethodType.methodType(boolean.class, MemorySegment.class));
            STAGED_CALL = lookup.findStatic(Ffm21.class, "stagedCall",
                    MethodType.methodType(Object.class, MethodHandle.class, int[].class, int[].class,
                            Object[].class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    MethodHandle critical(Linker linker, MemorySegment address, FunctionDescriptor descriptor) {
        MethodHandle direct = linker.downcallHandle(address, descriptor, Linker.Option.isTrivial());
        MethodType type = direct.type();
        int[] segments = IntStream.range(0, type.parameterCount())
                .filter(i -> type.parameterType(i) == MemorySegment.class).toArray();
        if (segments.length == 0) {
            return direct;
        }
        // (args...) -> isHeap(s1) || isHeap(s2) || ... over the segment arguments, allocation-free
        MethodType testType = type.changeReturnType(boolean.class);
        MethodHandle test = MethodHandles.dropArguments(MethodHandles.constant(boolean.class, false), 0,
                testType.parameterList());
        MethodHandle yes = MethodHandles.dropArguments(MethodHandles.constant(boolean.class, true), 0,
                testType.parameterList());
        for (int k = segments.length - 1; k >= 0; k--) {
            MethodHandle isHeapK = MethodHandles.permuteArguments(IS_HEAP, testType, segments[k]);
            test = MethodHandles.guardWithTest(isHeapK, yes, test);
        }
        // (args...) -> stagedCall(direct spread, segments, new Object[] {args})
        MethodHandle spread = direct.asSpreader(Object[].class, type.parameterCount())
                .asType(MethodType.methodType(Object.class, Object[].class));
        int[] outputs = IntStream.of(segments)
                .filter(i -> !descriptor.argumentLayouts().get(i).name().orElse("").equals(CONST)).toArray();
        MethodHandle staged = MethodHandles.insertArguments(STAGED_CALL, 0, spread, segments, outputs)
                .asCollector(Object[].class, type.parameterCount()).asType(type);
        return MethodHandles.guardWithTest(test, staged, direct);
    }

    private static boolean isHeap(MemorySegment s) {
        return !s.isNative();
    }

    /**
     * Calls {@code spread} with each heap segment among {@code args} replaced by a native copy; copies those at
     * {@code outputs} (the non-{@code const} pointers) back afterwards.
     */
    private static Object stagedCall(MethodHandle spread, int[] segments, int[] outputs, Object[] args)
            throws Throwable {
        MemorySegment[] heap = new MemorySegment[args.length];
        try (Arena arena = Arena.ofConfined()) {
            for (int i : segments) {
                MemorySegment s = (MemorySegment) args[i];
                if (!s.isNative()) {
                    MemorySegment copy = arena.allocate(Math.max(s.byteSize(), 1), 16).asSlice(0, s.byteSize());
                    MemorySegment.copy(s, 0, copy, 0, s.byteSize());
                    heap[i] = s;
                    args[i] = copy;
                }
            }
            Object result = (Object) spread.invokeExact(args);
            for (int i : outputs) {
                if (heap[i] != null && !heap[i].isReadOnly()) {
                    MemorySegment.copy((MemorySegment) args[i], 0, heap[i], 0, heap[i].byteSize());
                }
            }
            return result;
        }
    }

    @Override
    String string(MemorySegment s) {
        return s.getUtf8String(0);
    }
}
