package dev.zstdjava;

import java.security.Provider;
import java.security.SecureRandomSpi;
import java.util.SplittableRandom;

/**
 * Test-only security provider of the Windows test run under Wine (see {@code src/test/wine/java.security}): a
 * {@code SecureRandom} that does not seed from the network interfaces (the JDK's own seeding calls a function Wine
 * does not implement and the JVM dies). Its numbers come from {@link SplittableRandom}: good enough for the test
 * framework's temporary folder names and UUIDs, not for anything secret. The library never uses SecureRandom.
 */
public final class WineTestRandomProvider extends Provider {
    private static final long serialVersionUID = 1L;

    /** Registers the one service, {@code SecureRandom.WineTestSplitMix}. */
    public WineTestRandomProvider() {
        super("ZstdJavaWineTestRandom", "1.0", "test-only SecureRandom for the Wine test run (not secure)");
        putService(new Service(this, "SecureRandom", "WineTestSplitMix", Spi.class.getName(), null, null));
    }

    /** The generator: thread-safe by a lock; allocates nothing per call. */
    public static final class Spi extends SecureRandomSpi {
        private static final long serialVersionUID = 1L;
        private SplittableRandom random = new SplittableRandom(System.nanoTime() ^ ProcessHandle.current().pid() << 32);

        @Override
        protected synchronized void engineSetSeed(byte[] seed) {
            long s = random.nextLong();
            for (byte b : seed) {
                s = s * 31 + b;
            }
            random = new SplittableRandom(s);
        }

        @Override
        protected synchronized void engineNextBytes(byte[] bytes) {
            random.nextBytes(bytes);
        }

        @Override
        protected synchronized byte[] engineGenerateSeed(int numBytes) {
            byte[] b = new byte[numBytes];
            random.nextBytes(b);
            return b;
        }
    }
}
