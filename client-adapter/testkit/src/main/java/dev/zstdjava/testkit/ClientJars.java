package dev.zstdjava.testkit;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client line a test run loads: each run names the versions it is meant to load in system properties
 * ({@code zstdjava.lines.<name>}, set in client-adapter/pom.xml from the pom's version properties), and a test checks
 * that the jar a class comes from is that version (the newest lines in the adapter modules, the older ones in the
 * {@code *-lines} modules).
 */
public final class ClientJars {
    private ClientJars() {}

    /**
     * Asserts that {@code anchor} is loaded from {@code <artifact>-<version>.jar}, the version being the system property
     * {@code zstdjava.lines.<property>}.
     */
    public static void assertThisRunsVersion(String property, String artifact, Class<?> anchor) {
        String expected = System.getProperty("zstdjava.lines." + property);
        assertNotNull(expected, artifact + ": the run names no version");
        String jar = anchor.getProtectionDomain().getCodeSource().getLocation().getPath();
        assertTrue(jar.endsWith("/" + artifact + "-" + expected + ".jar"), artifact + " " + expected + ": " + jar);
    }
}
