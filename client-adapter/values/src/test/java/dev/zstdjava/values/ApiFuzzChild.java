package dev.zstdjava.values;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The forked side of {@link PublicApiFuzzTest}: loads the listed classes, enumerates their public constructors and
 * methods, and calls each one {@code rounds} times with hostile arguments. Every call is announced on stdout (flushed)
 * before it is made, so a JVM that dies names its last call; a call that outlives the per-call deadline is reported as
 * {@code HANG} and the JVM halts with exit code 3. Java exceptions thrown by a call are the expected outcome and only
 * counted.
 *
 * <p>Arguments are built without restricted methods: {@code MemorySegment.ofAddress} (not restricted), closed and
 * read-only segments, heap and direct buffers at odd positions, boundary numbers, and the library's own types made by
 * its public factories (some closed before use). Each call's arguments come from a {@link Random} seeded by the run
 * seed, the member and the round, so a call is the same whichever call the JVM started at.
 *
 * <p>Arguments: {@code seed rounds startIndex callTimeoutMillis classListFile skipFile}; the skip file lists classes
 * or members ({@code Class#name}) never called and factories never used. Output lines: {@code MEMBERS n},
 * {@code PREPARE index member}, {@code CALL index member args}, {@code FACTORY member}, {@code CLOSE index type}, {@code HANG index},
 * {@code NORECEIVER member}, {@code DONE calls exceptions}.
 *
 * <p>Not thread-safe; one instance per JVM. Allocates freely (arguments are built per call).
 */
public final class ApiFuzzChild {
    static final int HANG_EXIT = 3;

    private static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out),
            true, StandardCharsets.UTF_8);

    private final long seed;
    private final Set<String> skip;
    private final List<Class<?>> classes = new ArrayList<>();
    private final Map<Class<?>, List<Factory>> factories = new HashMap<>();

    /** A factory and the set of plain arguments it works with (0: small numbers, 1: larger sizes and a real dictionary). */
    private record Factory(Executable executable, int variant, boolean build) {}
    private final Set<Class<?>> discovering = new HashSet<>();
    private final Path tempDir;
    private final Path tempFile;
    private final Arena mainThreadArena = Arena.ofConfined();
    private final MemorySegment otherThreadSegment = mainThreadArena.allocate(64);
    private final List<byte[]> payloads = new ArrayList<>();
    private byte[] dictionary;

    // per call
    private Random rnd;
    private List<Object> cleanup;
    private IdentityHashMap<Object, String> names;
    private String currentIndex = "";

    private ApiFuzzChild(long seed, Set<String> skip) throws IOException {
        this.seed = seed;
        this.skip = skip;
        this.tempDir = Files.createTempDirectory("zstdjava-apifuzz");
        this.tempFile = tempDir.resolve("random.bin");
        byte[] r = new byte[1000];
        new Random(seed).nextBytes(r);
        Files.write(tempFile, r);
    }

    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int start = Integer.parseInt(args[2]);
        long timeout = Long.parseLong(args[3]);
        List<String> classNames = Files.readAllLines(Path.of(args[4]));
        Set<String> skip = new HashSet<>(Files.readAllLines(Path.of(args[5])));
        ApiFuzzChild child = new ApiFuzzChild(seed, skip);
        child.payloads();
        List<Member> members = child.members(classNames);
        OUT.println("MEMBERS " + members.size());
        final Thread[] workerThread = new Thread[1];
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "apifuzz-worker");
            t.setDaemon(true);
            workerThread[0] = t;
            return t;
        });
        // every library type's factories are found once, before the calls, so no call's deadline pays for that
        // and a JVM started at any call makes the same instances; a factory that crashes here is named by FACTORY
        Future<?> warm = worker.submit(child::discoverAll);
        try {
            warm.get(10, TimeUnit.MINUTES);
        } catch (TimeoutException e) {
            OUT.println("HANG discovery");
            OUT.flush();
            Runtime.getRuntime().halt(HANG_EXIT);
        }
        long calls = 0, exceptions = 0;
        for (int index = start; index < members.size() * rounds; index++) {
            Member member = members.get(index / rounds);
            int round = index % rounds;
            int idx = index;
            Future<Boolean> f = worker.submit(() -> child.call(idx, member, round));
            try {
                if (f.get(timeout, TimeUnit.MILLISECONDS)) {
                    exceptions++;
                }
                calls++;
            } catch (TimeoutException e) {
                StringBuilder where = new StringBuilder("HANG " + index);
                for (StackTraceElement frame : workerThread[0].getStackTrace()) {
                    where.append("\n    at ").append(frame);
                }
                OUT.println(where);
                OUT.flush();
                Runtime.getRuntime().halt(HANG_EXIT);
            }
        }
        OUT.println("DONE " + calls + " " + exceptions);
        OUT.flush();
        Runtime.getRuntime().halt(0);
    }

    /**
     * A public constructor or method, and the class it is called on: a concrete class's inherited library methods
     * (an interface's method on each implementation) are members of that class too.
     */
    record Member(Class<?> on, Executable executable) {
        @Override
        public String toString() {
            return executable.toGenericString()
                    + (executable.getDeclaringClass() == on ? "" : " [on " + on.getName() + "]");
        }
    }

    /**
     * Every public constructor, static method declared by the class, and instance method (inherited from a library
     * class too) of the accessible classes, in a fixed order. An interface's or abstract class's instance methods are
     * called on its concrete classes.
     */
    private List<Member> members(List<String> classNames) {
        List<Member> out = new ArrayList<>();
        List<String> sorted = new ArrayList<>(classNames);
        sorted.sort(null);
        for (String name : sorted) {
            Class<?> c;
            try {
                c = Class.forName(name, true, ApiFuzzChild.class.getClassLoader());
            } catch (Throwable e) {
                OUT.println("NOLOAD " + name + " " + e);
                continue;
            }
            if (accessible(c)) {
                classes.add(c);
            }
        }
        for (Class<?> c : classes) {
            if (skipped(c.getName())) {
                continue;
            }
            boolean concrete = !c.isInterface() && !Modifier.isAbstract(c.getModifiers());
            List<Executable> own = new ArrayList<>();
            if (concrete) {
                own.addAll(Arrays.asList(c.getConstructors()));
            }
            for (Method m : c.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()
                        && (Modifier.isStatic(m.getModifiers()) || concrete || c.isEnum() || !hasConcrete(c))) {
                    own.add(m);
                }
            }
            if (concrete) {
                for (Method m : c.getMethods()) {
                    if (m.getDeclaringClass() != c && !Modifier.isStatic(m.getModifiers()) && !m.isBridge()
                            && library(m.getDeclaringClass())) {
                        own.add(m);
                    }
                }
            }
            own.sort(Comparator.comparing(Executable::toGenericString));
            for (Executable e : own) {
                if (!skip.contains(key(e)) && !skipped(e.getDeclaringClass().getName())) {
                    out.add(new Member(c, e));
                }
            }
        }
        return out;
    }

    private boolean skipped(String className) {
        for (String s : skip) {
            if (className.equals(s) || className.startsWith(s + "$")) {
                return true;
            }
        }
        return false;
    }

    /** {@code Class#name} of a member (constructors are {@code Class#<init>}). */
    static String key(Executable e) {
        return e.getDeclaringClass().getName() + "#" + (e instanceof Constructor ? "<init>" : e.getName());
    }

    /** True when a concrete accessible library class implements or extends {@code c}: it is called there. */
    private boolean hasConcrete(Class<?> c) {
        for (Class<?> k : classes) {
            if (k != c && c.isAssignableFrom(k) && !k.isInterface() && !Modifier.isAbstract(k.getModifiers())
                    && !skipped(k.getName())) {
                return true;
            }
        }
        return false;
    }

    static boolean accessible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (!Modifier.isPublic(k.getModifiers()) || k.isAnonymousClass() || k.isLocalClass()) {
                return false;
            }
        }
        return true;
    }

    private static boolean library(Class<?> c) {
        return c.getName().startsWith("dev.zstdjava.") && !c.getName().startsWith("dev.zstdjava.values.ApiFuzz")
                && accessible(c);
    }

    /** Real compressed data (valid frames are where bounds mistakes hide), made once through the public API. */
    private void payloads() {
        byte[] text = "zstd-java api fuzz zstd-java api fuzz zstd-java api fuzz 0123456789"
                .repeat(4).getBytes(StandardCharsets.UTF_8);
        payloads.add(text);
        try {
            payloads.add(dev.zstdjava.zstd.Zstd.compress(text));
            payloads.add(dev.zstdjava.lz4.Lz4.compress(text));
            payloads.add(dev.zstdjava.lz4.Lz4Frame.compress(text));
            byte[] z = dev.zstdjava.zstd.Zstd.compress(text);
            payloads.add(Arrays.copyOf(z, z.length / 2));
            dictionary = dev.zstdjava.zstd.ZstdDictionary.train(sampleList(), 1024).toByteArray();
            payloads.add(dictionary);
        } catch (Throwable e) {
            OUT.println("NOPAYLOAD " + e);
        }
    }

    /** Finds the working factories of every library type (under a call's bookkeeping, so closing is tracked). */
    private void discoverAll() {
        rnd = new Random(seed);
        cleanup = new ArrayList<>();
        names = new IdentityHashMap<>();
        currentIndex = "discovery";
        for (Class<?> c : classes) {
            if (library(c) && !c.isEnum() && !skipped(c.getName())) {
                factoriesFor(c);
            }
        }
        closeAll();
    }

    /** Makes one call; true when it threw (the expected clear error). */
    private boolean call(int index, Member call, int round) {
        Executable member = call.executable();
        rnd = new Random(seed * 0x9E3779B97F4A7C15L + call.toString().hashCode() * 1_000_003L + round);
        this.round = round;
        cleanup = new ArrayList<>();
        names = new IdentityHashMap<>();
        currentIndex = String.valueOf(index);
        Object result = null;
        boolean threw = false;
        OUT.println("PREPARE " + index + " " + call); // making the receiver and arguments, which may call factories
        try {
            Object receiver = null;
            if (member instanceof Method m && !Modifier.isStatic(m.getModifiers())) {
                receiver = instance(call.on(), 0, true);
                if (receiver == null) {
                    OUT.println("NORECEIVER " + index + " " + call);
                    return false;
                }
            }
            Class<?>[] types = member.getParameterTypes();
            Type[] generic = member.getGenericParameterTypes();
            Object[] args = new Object[types.length];
            for (int i = 0; i < types.length; i++) {
                param = i;
                args[i] = hostile(types[i], i < generic.length ? generic[i] : types[i], 0);
            }
            param = -1;
            StringBuilder line = new StringBuilder("CALL ").append(index).append(' ').append(call)
                    .append(" on ").append(describe(receiver)).append(" with (");
            for (int i = 0; i < args.length; i++) {
                line.append(i == 0 ? "" : ", ").append(describe(args[i]));
            }
            OUT.println(line.append(')'));
            OUT.flush();
            try {
                result = member instanceof Method m ? m.invoke(receiver, args)
                        : ((Constructor<?>) member).newInstance(args);
            } catch (InvocationTargetException e) {
                threw = true;
            }
        } catch (Throwable e) {
            threw = true;
        } finally {
            if (result != null) {
                cleanup.add(0, result);
            }
            closeAll();
        }
        return threw;
    }

    private void closeAll() {
        for (Object o : cleanup) {
            if (o instanceof AutoCloseable c && !(o instanceof Proxy)) {
                if (o == mainThreadArena) {
                    continue;
                }
                OUT.println("CLOSE " + currentIndex + " " + o.getClass().getName());
                OUT.flush();
                try {
                    c.close();
                } catch (Throwable ignored) {
                    // closing twice or a closed arena: a clear error is fine
                }
            }
        }
    }

    private String describe(Object o) {
        if (o == null) {
            return "null";
        }
        String n = names.get(o);
        if (n != null) {
            return n;
        }
        if (o instanceof String s) {
            return '"' + (s.length() > 24 ? s.substring(0, 24) + "...(" + s.length() + ")" : s) + '"';
        }
        if (o instanceof Number || o instanceof Boolean || o instanceof Character || o instanceof Enum<?>) {
            return o.toString();
        }
        if (o.getClass().isArray()) {
            return o.getClass().getComponentType().getSimpleName() + "[" + java.lang.reflect.Array.getLength(o) + "]";
        }
        return o.getClass().getSimpleName();
    }

    private <T> T named(T o, String name) {
        if (o != null) {
            names.put(o, name);
        }
        return o;
    }

    private <T> T pick(List<T> options) {
        return options.get(rnd.nextInt(options.size()));
    }

    /** The call's round, and the parameter whose argument is being made (-1: a nested or factory value). */
    private int round;
    private int param = -1;

    /**
     * One of {@code n} options: while the round is below {@code n}, a parameter's top-level value takes each option
     * in turn (shifted by its position, so two parameters differ), so every option reaches every parameter within
     * {@code n} rounds; random after that and for nested values.
     */
    private int choice(int n) {
        return param >= 0 && round < n ? (round + param * 5) % n : rnd.nextInt(n);
    }

    private static final int[] INTS = {0, -1, 1, 2, 3, 7, 8, 64, 255, 4096, 65536, 1 << 20, Integer.MIN_VALUE,
            Integer.MAX_VALUE, Integer.MAX_VALUE - 1, Integer.MIN_VALUE + 1, -8};
    private static final long[] LONGS = {0, -1, 1, 8, 64, 4096, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L,
            0xFFFFFFFFL, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 7, 1L << 40, -4096};
    private static final double[] DOUBLES = {0, -1, 1, 0.5, Double.NaN, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.MAX_VALUE, -Double.MIN_VALUE, 1e300};

    /** A hostile value of type {@code t}: boundary numbers, null, odd memory, closed or foreign-thread resources. */
    private Object hostile(Class<?> t, Type generic, int depth) throws Exception {
        if (t == int.class || t == Integer.class) {
            return t == Integer.class && rnd.nextInt(8) == 0 ? null : INTS[choice(INTS.length)];
        }
        if (t == long.class || t == Long.class) {
            return t == Long.class && rnd.nextInt(8) == 0 ? null : LONGS[choice(LONGS.length)];
        }
        if (t == short.class || t == Short.class) {
            return (short) INTS[rnd.nextInt(INTS.length)];
        }
        if (t == byte.class || t == Byte.class) {
            return (byte) INTS[rnd.nextInt(INTS.length)];
        }
        if (t == char.class || t == Character.class) {
            return (char) INTS[rnd.nextInt(INTS.length)];
        }
        if (t == boolean.class || t == Boolean.class) {
            return rnd.nextBoolean();
        }
        if (t == double.class || t == Double.class) {
            return DOUBLES[rnd.nextInt(DOUBLES.length)];
        }
        if (t == float.class || t == Float.class) {
            return (float) DOUBLES[rnd.nextInt(DOUBLES.length)];
        }
        if (!t.isPrimitive() && rnd.nextInt(8) == 0) {
            return null;
        }
        if (t == String.class || t == CharSequence.class) {
            return pick(List.of("", "a", "\0", "zstd", "lz4", "GET", "SET", "x".repeat(100_000), "../../../tmp/x",
                    "%s%n", "\uD800", "dev.zstdjava.zstd.Zstd"));
        }
        if (t == byte[].class) {
            return bytes();
        }
        if (t.isArray()) {
            int n = pick(List.of(0, 1, 3));
            Object a = java.lang.reflect.Array.newInstance(t.getComponentType(), n);
            for (int i = 0; i < n; i++) {
                java.lang.reflect.Array.set(a, i, hostile(t.getComponentType(), t.getComponentType(), depth + 1));
            }
            return a;
        }
        if (t == MemorySegment.class) {
            return segment();
        }
        if (t == ByteBuffer.class) {
            return buffer();
        }
        if (t == Arena.class || t == SegmentAllocator.class) {
            return arena();
        }
        if (t.isEnum()) {
            Object[] values = t.getEnumConstants();
            return values.length == 0 ? null : values[rnd.nextInt(values.length)];
        }
        if (t == Path.class || t == File.class) {
            Path p = pick(List.of(tempFile, tempDir, tempDir.resolve("missing/deeper"), Path.of("/"), Path.of("")));
            return t == File.class ? p.toFile() : p;
        }
        if (t == InputStream.class) {
            return pick(List.of(new ByteArrayInputStream(nonNullBytes()), InputStream.nullInputStream(),
                    new InputStream() {
                        @Override
                        public int read() throws IOException {
                            throw new IOException("hostile stream");
                        }
                    }));
        }
        if (t == OutputStream.class) {
            return pick(List.of(new ByteArrayOutputStream(), OutputStream.nullOutputStream(), new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    throw new IOException("hostile stream");
                }
            }));
        }
        if (t == Duration.class) {
            return pick(List.of(Duration.ZERO, Duration.ofNanos(-1), Duration.ofMillis(1), Duration.ofMillis(50),
                    Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MIN_VALUE)));
        }
        if (t == Charset.class) {
            return StandardCharsets.UTF_8;
        }
        if (t == Optional.class) {
            return Optional.empty();
        }
        if (t == Class.class) {
            return pick(List.of(String.class, byte[].class, Object.class, MemorySegment.class));
        }
        if (t == Object.class || t == Number.class) {
            return pick(List.of("x", new byte[3], 1, -1L, new Object()));
        }
        if (Collection.class.isAssignableFrom(t) || t == Iterable.class || Map.class.isAssignableFrom(t)) {
            return collection(t, generic, depth);
        }
        if (library(t)) {
            Object o = depth < 3 ? instance(t, depth + 1, false) : null;
            if (o == null && t.isInterface()) {
                return proxy(t);
            }
            return o;
        }
        if (t.isInterface()) {
            return proxy(t);
        }
        return null; // a foreign class (a client, a registry): only null, never one that could open a connection
    }

    private byte[] nonNullBytes() {
        int p = param;
        param = -1; // random choices: a fixed one could be the null option every time
        try {
            byte[] b;
            do {
                b = bytes();
            } while (b == null);
            return b;
        } finally {
            param = p;
        }
    }

    private byte[] bytes() {
        int k = choice(6 + payloads.size());
        byte[] b = switch (k) {
            case 0 -> new byte[0];
            case 1 -> new byte[] {1};
            case 2 -> new byte[7];
            case 3 -> new byte[4096];
            case 4 -> null;
            case 5 -> {
                byte[] r = new byte[1 + rnd.nextInt(300)];
                rnd.nextBytes(r);
                yield r;
            }
            default -> payloads.get(k - 6).clone();
        };
        return b;
    }

    private MemorySegment segment() {
        int k = choice(14);
        return switch (k) {
            case 0 -> named(MemorySegment.NULL, "MemorySegment.NULL");
            case 1 -> named(MemorySegment.ofAddress(1), "ofAddress(1)");
            case 2 -> named(MemorySegment.ofAddress(8), "ofAddress(8)");
            case 3 -> named(MemorySegment.ofAddress(4096), "ofAddress(4096)");
            case 4 -> named(MemorySegment.ofAddress(-8), "ofAddress(-8)");
            case 5 -> named(MemorySegment.ofArray(nonNullBytes()), "heap segment");
            case 6 -> named(MemorySegment.ofArray(new long[3]).asSlice(3), "long[] heap segment at offset 3");
            case 7 -> {
                Arena a = Arena.ofConfined();
                MemorySegment s = a.allocate(64);
                a.close();
                yield named(s, "segment of a closed arena");
            }
            case 8 -> named(Arena.ofAuto().allocate(64).asReadOnly(), "read-only native segment");
            case 9 -> named(MemorySegment.ofArray(nonNullBytes()).asReadOnly(), "read-only heap segment");
            case 10 -> named(otherThreadSegment, "segment confined to another thread");
            case 11 -> {
                MemorySegment s = Arena.ofAuto().allocate(300);
                byte[] p = payloads.get(rnd.nextInt(payloads.size()));
                MemorySegment.copy(MemorySegment.ofArray(p), 0, s, 0, Math.min(p.length, 300));
                yield named(s.asSlice(0, Math.min(p.length, 300)), "native segment with a payload");
            }
            case 12 -> named(MemorySegment.ofBuffer(ByteBuffer.allocateDirect(33).position(5)),
                    "segment of a direct buffer at 5");
            default -> named(Arena.ofAuto().allocate(1).asSlice(1), "empty native segment");
        };
    }

    private ByteBuffer buffer() {
        int k = choice(9);
        ByteBuffer b = switch (k) {
            case 0 -> ByteBuffer.allocate(0);
            case 1 -> ByteBuffer.wrap(nonNullBytes());
            case 2 -> ByteBuffer.allocate(64).position(3).limit(17);
            case 3 -> ByteBuffer.allocateDirect(64).position(5).limit(13);
            case 4 -> ByteBuffer.wrap(nonNullBytes()).asReadOnlyBuffer();
            case 5 -> ByteBuffer.allocateDirect(64).asReadOnlyBuffer().position(7);
            case 6 -> {
                byte[] p = payloads.get(rnd.nextInt(payloads.size()));
                ByteBuffer d = ByteBuffer.allocateDirect(p.length + 3).position(3);
                d.put(p).position(3);
                yield d;
            }
            case 7 -> ByteBuffer.allocateDirect(4096).slice(1, 4095);
            default -> {
                Arena a = Arena.ofShared();
                ByteBuffer d = a.allocate(64).asByteBuffer();
                a.close();
                yield named(d, "buffer of a closed arena");
            }
        };
        return names.containsKey(b) ? b : named(b, (b.isDirect() ? "direct" : "heap") + (b.isReadOnly() ? " read-only" : "")
                + " ByteBuffer[pos=" + b.position() + " lim=" + b.limit() + " cap=" + b.capacity() + "]");
    }

    private Arena arena() {
        int k = choice(4);
        return switch (k) {
            case 0 -> {
                Arena a = Arena.ofConfined();
                a.close();
                yield named(a, "closed arena");
            }
            case 1 -> named(mainThreadArena, "arena confined to another thread");
            case 2 -> {
                Arena a = Arena.ofShared();
                cleanup.add(a);
                yield named(a, "shared arena");
            }
            default -> {
                Arena a = Arena.ofConfined();
                cleanup.add(a);
                yield named(a, "confined arena");
            }
        };
    }

    private Object collection(Class<?> t, Type generic, int depth) throws Exception {
        Class<?> element = Object.class;
        Type elementType = Object.class;
        if (generic instanceof ParameterizedType p && p.getActualTypeArguments().length > 0) {
            Type a = p.getActualTypeArguments()[Map.class.isAssignableFrom(t) ? 1 : 0];
            elementType = a;
            if (a instanceof Class<?> c) {
                element = c;
            } else if (a instanceof ParameterizedType pa && pa.getRawType() instanceof Class<?> c) {
                element = c;
            }
        }
        int n = pick(List.of(0, 1, 2, 30));
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            items.add(hostile(element, elementType, depth + 1));
        }
        if (Map.class.isAssignableFrom(t)) {
            Map<Object, Object> m = new HashMap<>();
            for (Object o : items) {
                m.put(m.size() == 0 ? "k" : hostile(String.class, String.class, depth + 1), o);
            }
            return m;
        }
        if (Set.class.isAssignableFrom(t)) {
            return new HashSet<>(items);
        }
        return items;
    }

    private Object proxy(Class<?> t) {
        Object p = Proxy.newProxyInstance(t.getClassLoader(), new Class<?>[] {t}, (self, m, a) -> {
            switch (m.getName()) {
                case "equals": return self == a[0];
                case "hashCode": return System.identityHashCode(self);
                case "toString": return "proxy " + t.getSimpleName();
                default: return defaultValue(m.getReturnType());
            }
        });
        return named(p, "proxy " + t.getSimpleName());
    }

    private static Object defaultValue(Class<?> t) {
        if (t == boolean.class) {
            return false;
        }
        if (t == char.class) {
            return '\0';
        }
        if (t.isPrimitive() && t != void.class) {
            return java.lang.reflect.Array.get(java.lang.reflect.Array.newInstance(t, 1), 0);
        }
        return null;
    }

    /**
     * A fresh instance of a library type from one of its public factories, called with plain arguments; sometimes
     * closed before use. Null when no factory works.
     */
    private Object instance(Class<?> t, int depth, boolean receiver) {
        if (t.isEnum()) {
            Object[] values = t.getEnumConstants();
            return values.length == 0 ? null : values[rnd.nextInt(values.length)];
        }
        List<Factory> fs = factoriesFor(t);
        if (fs.isEmpty()) {
            return null;
        }
        Factory fa = fs.get(rnd.nextInt(fs.size()));
        Executable f = fa.executable();
        Object o = make(fa, depth);
        if (o instanceof AutoCloseable c && rnd.nextInt(receiver ? 5 : 4) == 0) {
            OUT.println("CLOSE " + currentIndex + " " + o.getClass().getName() + " (made closed)");
            OUT.flush();
            try {
                c.close();
                return named(o, o.getClass().getSimpleName() + " (closed)");
            } catch (Throwable ignored) {
                // a close that refuses is a clear error
            }
        }
        if (o != null) {
            cleanup.add(o);
            named(o, o.getClass().getSimpleName() + " from " + f.getName());
        }
        return o;
    }

    /**
     * Calls a factory with plain arguments; null when it throws. A builder factory's result is build() of what it
     * returns; an instance factory is called on a plain instance of its class.
     */
    private Object make(Factory fa, int depth) {
        Executable f = fa.executable();
        try {
            Object[] args = new Object[f.getParameterCount()];
            Class<?>[] types = f.getParameterTypes();
            Type[] generic = f.getGenericParameterTypes();
            for (int i = 0; i < args.length; i++) {
                args[i] = plain(types[i], i < generic.length ? generic[i] : types[i], depth, fa.variant());
            }
            if (f instanceof Constructor<?> c) {
                return c.newInstance(args);
            }
            Method m = (Method) f;
            Object receiver = null;
            if (!Modifier.isStatic(m.getModifiers())) {
                receiver = plain(m.getDeclaringClass(), m.getDeclaringClass(), depth, fa.variant());
                if (receiver == null) {
                    return null;
                }
                cleanup.add(receiver);
            }
            Object o = m.invoke(receiver, args);
            return fa.build() && o != null ? builderMethod(m.getReturnType()).invoke(o) : o;
        } catch (Throwable e) {
            return null;
        }
    }

    private static Method builderMethod(Class<?> b) {
        for (String name : List.of("build", "create")) {
            try {
                Method m = b.getMethod(name);
                if (!Modifier.isStatic(m.getModifiers()) && m.getReturnType() != void.class) {
                    return m;
                }
            } catch (NoSuchMethodException ignored) {
                // not a builder
            }
        }
        return null;
    }

    /** Plain (valid-looking) arguments for factories. */
    private Object plain(Class<?> t, Type generic, int depth, int variant) throws Exception {
        if (t == int.class || t == Integer.class) {
            return variant == 0 ? 3 : 1024;
        }
        if (t == long.class || t == Long.class) {
            return variant == 0 ? 4096L : 1L;
        }
        if (t == double.class || t == Double.class) {
            return 0.5;
        }
        if (t == float.class || t == Float.class) {
            return 0.5f;
        }
        if (t == boolean.class || t == Boolean.class) {
            return false;
        }
        if (t == short.class || t == byte.class || t == char.class) {
            return defaultValue(t);
        }
        if (t == String.class) {
            return "fuzz";
        }
        if (t == byte[].class) {
            return (variant == 0 || dictionary == null ? payloads.get(0) : dictionary).clone();
        }
        if (t == Object.class) {
            return new Object();
        }
        if (t == InputStream.class) {
            return new ByteArrayInputStream(payloads.get(Math.min(1, payloads.size() - 1)));
        }
        if (t == OutputStream.class) {
            return new ByteArrayOutputStream();
        }
        if (t == byte[][].class) {
            return sampleList().toArray(new byte[0][]);
        }
        if (t == String[].class) {
            return new String[0];
        }
        if (t == Duration.class) {
            return Duration.ofSeconds(1);
        }
        if (t == Path.class) {
            return tempDir;
        }
        if (t.isEnum()) {
            return t.getEnumConstants()[0];
        }
        if (t == List.class || t == Collection.class) {
            return sampleList();
        }
        if (t == Set.class) {
            return Set.of();
        }
        if (t == MemorySegment.class) {
            return Arena.ofAuto().allocate(256);
        }
        if (library(t) && depth < 4) {
            for (Factory f : factoriesFor(t)) {
                Object o = make(f, depth + 1);
                if (o != null) {
                    return o;
                }
            }
            return t.isInterface() ? proxy(t) : null;
        }
        return t.isInterface() ? proxy(t) : null;
    }

    private List<byte[]> sampleList() {
        List<byte[]> samples = new ArrayList<>();
        Random r = new Random(7);
        for (int i = 0; i < 200; i++) {
            samples.add(("{\"user\":" + r.nextInt(1000) + ",\"name\":\"n" + r.nextInt(50) + "\",\"tags\":[\"a\",\"b\"]}")
                    .getBytes(StandardCharsets.UTF_8));
        }
        return samples;
    }

    /**
     * The working factories of a library type: public constructors and static methods of the type's concrete
     * subtypes that return it, and builders (a static no-arg method whose result has build()). Each is tried once
     * with plain arguments, announced first so a factory that crashes is named.
     */
    private List<Factory> factoriesFor(Class<?> t) {
        List<Factory> known = factories.get(t);
        if (known != null) {
            return known;
        }
        if (!discovering.add(t)) {
            return List.of(); // a cycle: this type is being discovered further up
        }
        boolean nested = discovering.size() > 1; // results may miss what the cycle hid: not cached
        List<Executable> candidates = new ArrayList<>();
        Set<Executable> builderFactories = new HashSet<>();
        for (Class<?> c : classes) {
            if (skipped(c.getName())) {
                continue;
            }
            if (t.isAssignableFrom(c) && !c.isInterface() && !Modifier.isAbstract(c.getModifiers())) {
                candidates.addAll(Arrays.asList(c.getConstructors()));
            }
            for (Method m : c.getDeclaredMethods()) {
                if (!Modifier.isPublic(m.getModifiers()) || m.isSynthetic() || m.isBridge()
                        || skip.contains(key(m))) {
                    continue;
                }
                if (t.isAssignableFrom(m.getReturnType()) && m.getReturnType() != Object.class) {
                    candidates.add(m);
                } else if (Modifier.isStatic(m.getModifiers()) && library(m.getReturnType())) {
                    Method build = builderMethod(m.getReturnType());
                    if (build != null && t.isAssignableFrom(build.getReturnType())) {
                        builderFactories.add(m);
                        candidates.add(m);
                    }
                }
            }
        }
        // constructors and static factories first: they need no instance of another type
        candidates.sort(Comparator.comparing((Executable e) -> e instanceof Method m && !Modifier.isStatic(m.getModifiers()))
                .thenComparing(Executable::toGenericString));
        List<Factory> working = new ArrayList<>();
        for (Executable f : candidates) {
            if (skip.contains("factory " + f.toGenericString())) {
                continue;
            }
            for (int variant = 0; variant < 2; variant++) {
                OUT.println("FACTORY " + f.toGenericString());
                OUT.flush();
                Factory fa = new Factory(f, variant, builderFactories.contains(f));
                Object o = make(fa, 1);
                if (o != null && t.isInstance(o)) {
                    working.add(fa);
                    if (o instanceof AutoCloseable c) {
                        OUT.println("CLOSE factory " + o.getClass().getName());
                        OUT.flush();
                        try {
                            c.close();
                        } catch (Throwable ignored) {
                            // fine
                        }
                    }
                    break;
                }
            }
            if (nested && !working.isEmpty()) {
                break; // inside another type's discovery: one working factory is enough, and is not cached
            }
        }
        discovering.remove(t);
        if (!nested) {
            factories.put(t, working);
        }
        return working;
    }
}
