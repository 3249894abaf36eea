package dev.zstdjava;

import dev.zstdjava.internal.Binder;
import dev.zstdjava.internal.LibC;
import dev.zstdjava.internal.NativeLoader;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Modifier;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing public hands out native access: the binding classes are package-private, and the two capabilities that
 * make downcall handles or free native memory ({@link Binder}, {@link LibC}) refuse every lookup but the codec
 * packages' own. This class is in {@code dev.zstdjava}, a package of the same jar that holds no bindings.
 */
class NativeAccessTest {
    private static final NativeLoader.Spec ZSTD = new NativeLoader.Spec("zstd", "zstdjava.zstd.path",
            List.of("libzstd.so.1"), "ZSTD_versionNumber", 10400);

    @Test
    void bindingClassesAreNotPublic() throws ClassNotFoundException {
        for (String name : List.of("dev.zstdjava.zstd.ZstdNative", "dev.zstdjava.lz4.Lz4Native")) {
            Class<?> c = Class.forName(name, false, NativeAccessTest.class.getClassLoader());
            assertFalse(Modifier.isPublic(c.getModifiers()), name + " is public");
        }
    }

    @Test
    void capabilitiesRefuseOtherPackagesLookups() {
        assertThrows(IllegalCallerException.class, () -> LibC.bind(MethodHandles.lookup()));
        assertThrows(IllegalCallerException.class, () -> Binder.load(MethodHandles.lookup(), ZSTD));
        assertThrows(IllegalCallerException.class, () -> LibC.bind(MethodHandles.publicLookup()));
        assertThrows(IllegalCallerException.class, () -> Binder.load(MethodHandles.publicLookup(), ZSTD));
    }

    @Test
    void aLookupMovedIntoACodecPackageLosesItsPrivileges() throws ClassNotFoundException {
        Class<?> inside = Class.forName("dev.zstdjava.zstd.ZstdCompressor");
        MethodHandles.Lookup moved = MethodHandles.lookup().in(inside);
        assertFalse(moved.hasFullPrivilegeAccess());
        assertThrows(IllegalCallerException.class, () -> LibC.bind(moved));
        assertThrows(IllegalCallerException.class, () -> Binder.load(moved, ZSTD));
    }

    @Test
    void theLoaderIsReachableOnlyThroughTheCapability() throws NoSuchMethodException {
        for (var m : NativeLoader.class.getDeclaredMethods()) {
            if (m.getName().equals("load")) {
                assertFalse(Modifier.isPublic(m.getModifiers()), "public " + m);
            }
        }
        assertTrue(Modifier.isPublic(LibC.class.getMethod("bind", MethodHandles.Lookup.class).getModifiers()));
    }
}
