package dev.zstdjava.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;

/**
 * What the tests of the codecs read of a codec's {@link Guard} to prove that a close came while a call was running:
 * test code only (reflection), nothing on the library's path. Not thread-safe to build; its reads are volatile.
 */
public final class GuardProbe {
    private static final VarHandle STATE;
    private static final int BUSY;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(Guard.class, MethodHandles.lookup());
            STATE = lookup.findVarHandle(Guard.class, "state", int.class);
            BUSY = (int) lookup.findStaticVarHandle(Guard.class, "BUSY", int.class).get();
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Guard guard;

    private GuardProbe(Guard guard) {
        this.guard = guard;
    }

    /**
     * The guard held by {@code codec} in a field of type {@link Guard} (declared by its class or a superclass), or by
     * the {@link OneShot} it holds in a field (the one-shot codecs are composed of one).
     */
    public static GuardProbe of(Object codec) throws ReflectiveOperationException {
        for (Class<?> c = codec.getClass(); c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getType() == Guard.class) {
                    f.setAccessible(true);
                    return new GuardProbe((Guard) f.get(codec));
                }
                if (OneShot.class.isAssignableFrom(f.getType())) {
                    f.setAccessible(true);
                    return of(f.get(codec));
                }
            }
        }
        throw new NoSuchFieldException("no Guard field in " + codec.getClass().getName());
    }

    /** @return true while a call is inside the guard (between enter and exit) */
    public boolean inCall() {
        return (int) STATE.getVolatile(guard) == BUSY;
    }

    /** @return true once the guarded native memory has been freed */
    public boolean freed() {
        return guard.isFreed();
    }
}
