package dev.zstdjava.soak;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The process's native memory as the C allocator sees it: glibc's {@code mallinfo2()} (bytes in use in every arena
 * plus mmapped chunks), called through FFM; and the resident set size from {@code /proc/self/status} as a coarser
 * second measure. zstd and lz4 allocate their contexts, dictionaries and buffers with {@code malloc}, so a leak in
 * this library shows up as malloc in use.
 */
public final class NativeMemory {
    /** struct mallinfo2: ten size_t fields; uordblks (index 7) is the bytes in use, hblkhd (index 4) mmapped bytes. */
    private static final StructLayout MALLINFO2 = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("arena"), ValueLayout.JAVA_LONG.withName("ordblks"),
            ValueLayout.JAVA_LONG.withName("smblks"), ValueLayout.JAVA_LONG.withName("hblks"),
            ValueLayout.JAVA_LONG.withName("hblkhd"), ValueLayout.JAVA_LONG.withName("usmblks"),
            ValueLayout.JAVA_LONG.withName("fsmblks"), ValueLayout.JAVA_LONG.withName("uordblks"),
            ValueLayout.JAVA_LONG.withName("fordblks"), ValueLayout.JAVA_LONG.withName("keepcost"));
    private static final MethodHandle MALLINFO = Linker.nativeLinker().defaultLookup().find("mallinfo2")
            .map(s -> Linker.nativeLinker().downcallHandle(s, FunctionDescriptor.of(MALLINFO2))).orElse(null);

    private NativeMemory() {}

    /** @return true when glibc's {@code mallinfo2} is available (glibc 2.33 and later) */
    public static boolean hasMallinfo() {
        return MALLINFO != null;
    }

    /** @return bytes allocated with malloc and not yet freed, or empty without glibc's {@code mallinfo2} */
    public static Optional<Long> mallocInUse() {
        if (MALLINFO == null) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = (MemorySegment) MALLINFO.invokeExact((SegmentAllocator) arena);
            return Optional.of(info.getAtIndex(ValueLayout.JAVA_LONG, 7) + info.getAtIndex(ValueLayout.JAVA_LONG, 4));
        } catch (Throwable t) {
            throw new IllegalStateException("mallinfo2 failed", t);
        }
    }

    /** @return the resident set size in bytes ({@code VmRSS} of {@code /proc/self/status}), or -1 elsewhere */
    public static long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
