package dev.zstdjava.values.lines;

/**
 * The client and framework lines the adapters support, stated once: the adapters' messages use these constants and
 * {@code docs/support.md} repeats them ({@code ClientLinesTest} checks that it does). Exported to the Lettuce adapter
 * only: the adapters of this module and {@code dev.zstdjava.lettuce} use it.
 *
 * <p>An adapter learns what its library offers by looking a class or method up once (its capability), never by
 * parsing a version; the version found is named in the message only.
 */
public final class ClientLines {
    /** The Jedis lines {@code CompressingJedis} supports. */
    public static final String JEDIS = "Jedis 6.0 to 8.x";
    /** The Lettuce lines {@code CompressingRedisClient} and {@code CompressingRedisClusterClient} support. */
    public static final String LETTUCE = "Lettuce 6.6 to 7.x";
    /** The Spring Data Redis lines the serializer, the templates and the dictionary store support. */
    public static final String SPRING_DATA_REDIS = "Spring Data Redis 3.5 to 4.1";
    /** The Spring Data Redis line whose {@code SetSpec}/{@code DeleteSpec} operations the templates handle. */
    public static final String SPRING_DATA_REDIS_SPECS = "Spring Data Redis 4.1";

    private ClientLines() {
    }

    /** @return whether {@code name} can be loaded next to {@code anchor} (a class of the library), not initialised */
    public static boolean present(Class<?> anchor, String name) {
        try {
            Class.forName(name, false, anchor.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** @return whether {@code type} has the public method {@code name(parameters)} */
    public static boolean hasMethod(Class<?> type, String name, Class<?>... parameters) {
        try {
            type.getMethod(name, parameters);
            return true;
        } catch (NoSuchMethodException | LinkageError e) {
            return false;
        }
    }

    /**
     * The failure of an adapter on a library outside its range.
     * @param what    the adapter or call, e.g. {@code "CompressingJedis"}
     * @param range   the supported range, one of this class's constants
     * @param anchor  a class of the library found, whose version the message names
     * @param missing what the library lacks
     */
    public static UnsupportedOperationException unsupported(String what, String range, Class<?> anchor,
                                                            String missing) {
        return new UnsupportedOperationException(what + " needs " + range + "; the " + describe(anchor)
                + " on the class path lacks " + missing);
    }

    // "redis.clients.jedis from jedis-5.2.0.jar" or "org.springframework.data.redis.core 3.4.0": the version from
    // the jar's manifest, else the jar's file name
    private static String describe(Class<?> anchor) {
        String library = anchor.getPackageName();
        String version = anchor.getPackage() == null ? null : anchor.getPackage().getImplementationVersion();
        if (version != null) {
            return library + " " + version;
        }
        var source = anchor.getProtectionDomain().getCodeSource();
        String where = source == null || source.getLocation() == null ? "" : source.getLocation().getPath();
        return library + " from " + (where.isEmpty() ? "an unknown jar" : where.substring(where.lastIndexOf('/') + 1));
    }
}
