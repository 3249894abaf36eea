package dev.zstdjava;

import dev.zstdjava.internal.Confinement;
import dev.zstdjava.internal.Guard;
import dev.zstdjava.internal.OneShot;
import dev.zstdjava.internal.Scratch;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No public type of the codec jar exposes {@code dev.zstdjava.internal} (the package the module does not export):
 * no supertype of a public type, and no type in a public or protected signature (fields, constructors, methods,
 * their type arguments, bounds and exceptions, inherited members included), comes from it. The public classes hold
 * the internal types they use in private fields (composition), so the Javadoc names no hidden type and nobody can
 * reach an internal class through the API. Walks the same class list as {@link SignatureRulesTest}.
 */
class InternalTypesTest {
    private static final String INTERNAL = "dev.zstdjava.internal";

    @Test
    void noPublicTypeHasAnInternalSupertypeOrSignature() throws Exception {
        List<Class<?>> api = new ArrayList<>();
        for (String name : SignatureRulesTest.mainClasses()) {
            Class<?> c = Class.forName(name, false, InternalTypesTest.class.getClassLoader());
            if (!c.getPackageName().equals(INTERNAL) && accessible(c)) {
                api.add(c);
            }
        }
        assertTrue(api.size() > 30 && api.contains(dev.zstdjava.zstd.ZstdCompressor.class)
                && api.contains(dev.zstdjava.lz4.Lz4FrameOutputStream.class)
                && api.contains(dev.zstdjava.lz4.Lz4Compressor.Builder.class), "public types found: " + api);
        List<String> exposures = new ArrayList<>();
        for (Class<?> c : api) {
            exposures.addAll(exposures(c, t -> t.getPackageName().equals(INTERNAL)));
        }
        assertEquals("", String.join("\n", exposures), exposures.size() + " exposures of " + INTERNAL);
    }

    /** The check finds each way a public type can expose a hidden one (here: the internal types it names). */
    @Test
    void theCheckCatchesEachKindOfExposure() {
        Predicate<Class<?>> hidden = t -> t.getPackageName().equals(INTERNAL) || t == Hidden.class;
        assertEquals(1, exposures(Extends.class, hidden).size(), exposures(Extends.class, hidden).toString());
        List<String> found = exposures(Exposes.class, hidden);
        assertEquals(8, found.size(), String.join("\n", found));
        assertEquals(List.of(), exposures(Hides.class, hidden), "private and package-private members are not exposed");
    }

    /** An internal supertype (its inherited public members are reported with it, once). */
    public abstract static class Extends extends OneShot.Encoder {
        Extends() {
            super("x", () -> { }, null, Confinement.SHARED);
        }
    }

    @SuppressWarnings("unused")
    public static class Exposes {
        public Guard field;
        protected List<? extends Scratch> wildcard;

        public Exposes(Confinement c) {}

        public Guard returned() {
            return null;
        }

        public void parameter(Scratch[] array) {}

        public <T extends Guard> void bound(T t) {}

        protected List<Confinement> typeArgument() {
            return null;
        }

        public void thrown() throws Hidden {}
    }

    @SuppressWarnings("unused")
    public static class Hides {
        private Guard guard;
        Scratch scratch;

        private void call(Confinement c) {}
    }

    /** Stands for an internal exception type. */
    @SuppressWarnings("serial")
    static class Hidden extends Exception {}

    /** @return true when code outside the module could name {@code c}: public, in public enclosing classes */
    private static boolean accessible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            boolean nestedProtected = k.getEnclosingClass() != null && Modifier.isProtected(k.getModifiers());
            if (!(Modifier.isPublic(k.getModifiers()) || nestedProtected) || k.isAnonymousClass() || k.isLocalClass()) {
                return false;
            }
        }
        return true;
    }

    /** @return each supertype and each public or protected signature of {@code c} that names a hidden type */
    static List<String> exposures(Class<?> c, Predicate<Class<?>> hidden) {
        Set<String> found = new LinkedHashSet<>();
        Predicate<Class<?>> isHidden = hidden;
        List<Class<?>> supertypes = new ArrayList<>(List.of(c)); // every supertype, up to a hidden one
        for (int i = 0; i < supertypes.size(); i++) {
            Class<?> k = supertypes.get(i);
            List<Type> direct = new ArrayList<>(List.of(k.getGenericInterfaces()));
            if (k.getGenericSuperclass() != null) {
                direct.add(k.getGenericSuperclass());
            }
            for (Type t : direct) {
                check(c.getName() + " has the supertype", t, isHidden, found);
                Class<?> raw = t instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) t;
                if (!isHidden.test(raw) && !supertypes.contains(raw)) {
                    supertypes.add(raw);
                }
            }
        }
        for (Class<?> k = c; k != null && !isHidden.test(k); k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (exposed(f)) {
                    check(where(c, f), f.getGenericType(), isHidden, found);
                }
            }
            for (Executable e : executables(k, k == c)) {
                if (exposed(e) && !e.isSynthetic()) {
                    String w = where(c, e);
                    for (Type t : e.getGenericParameterTypes()) {
                        check(w, t, isHidden, found);
                    }
                    for (Type t : e.getGenericExceptionTypes()) {
                        check(w, t, isHidden, found);
                    }
                    for (TypeVariable<?> v : e.getTypeParameters()) {
                        check(w, v, isHidden, found);
                    }
                    if (e instanceof Method m) {
                        check(w, m.getGenericReturnType(), isHidden, found);
                    }
                }
            }
        }
        for (Method m : c.getMethods()) { // public members of the interfaces, inherited
            if (!m.isSynthetic()) {
                check(where(c, m), m.getGenericReturnType(), isHidden, found);
                for (Type t : m.getGenericParameterTypes()) {
                    check(where(c, m), t, isHidden, found);
                }
            }
        }
        return new ArrayList<>(found);
    }

    private static List<Executable> executables(Class<?> k, boolean constructors) {
        List<Executable> all = new ArrayList<>(List.of(k.getDeclaredMethods()));
        if (constructors) {
            all.addAll(List.<Constructor<?>>of(k.getDeclaredConstructors()));
        }
        return all;
    }

    private static boolean exposed(Member m) {
        return Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers());
    }

    private static String where(Class<?> c, Member m) {
        return c.getName() + " member " + m.getDeclaringClass().getSimpleName() + "#" + m.getName();
    }

    /** Adds {@code where: type} when {@code t} is or mentions a hidden class. */
    private static void check(String where, Type t, Predicate<Class<?>> hidden, Set<String> found) {
        if (t != null && mentions(t, hidden, new LinkedHashSet<>())) {
            found.add(where + ": " + t.getTypeName());
        }
    }

    private static boolean mentions(Type t, Predicate<Class<?>> hidden, Set<Type> seen) {
        if (!seen.add(t)) {
            return false;
        }
        return switch (t) {
            case Class<?> k -> k.isArray() ? mentions(k.getComponentType(), hidden, seen) : hidden.test(k);
            case ParameterizedType p -> mentions(p.getRawType(), hidden, seen)
                    || List.of(p.getActualTypeArguments()).stream().anyMatch(a -> mentions(a, hidden, seen));
            case WildcardType w -> List.of(w.getUpperBounds()).stream().anyMatch(b -> mentions(b, hidden, seen))
                    || List.of(w.getLowerBounds()).stream().anyMatch(b -> mentions(b, hidden, seen));
            case GenericArrayType a -> mentions(a.getGenericComponentType(), hidden, seen);
            case TypeVariable<?> v -> List.of(v.getBounds()).stream().anyMatch(b -> mentions(b, hidden, seen));
            default -> false;
        };
    }
}
