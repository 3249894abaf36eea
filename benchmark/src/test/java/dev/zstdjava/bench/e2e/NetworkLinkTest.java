package dev.zstdjava.bench.e2e;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code ./e2e --link}: the checks that need nothing special (rate parsing, the message naming missing privileges),
 * and, as root, a tiny matrix through a real namespace + tbf-shaped veth pair that must leave nothing behind. The
 * root tests fail (never skip) without root or iproute2; {@code -Dzstdjava.skipNetnsTests=true} leaves them out.
 */
class NetworkLinkTest {
    static final String SKIP = "zstdjava.skipNetnsTests";
    private static final String HINT = "; run the tests as root with iproute2 installed, or leave the network "
            + "namespace tests out with -D" + SKIP + "=true";

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    @Test
    void ratesAreReadAsTcBitRates() {
        assertEquals(100_000_000L, NetworkLink.parseRate("100mbit"));
        assertEquals(1_000_000_000L, NetworkLink.parseRate("1gbit"));
        assertEquals(2_500_000_000L, NetworkLink.parseRate("2.5Gbit"));
        assertThrows(IllegalArgumentException.class, () -> NetworkLink.parseRate("100mbps"));
        assertThrows(IllegalArgumentException.class, () -> NetworkLink.parseRate("fast"));
        assertThrows(IllegalArgumentException.class, () -> NetworkLink.parseRate("10kbit"));
        assertEquals(64 * 1024, NetworkLink.burstFor(100_000_000L));
        assertEquals(1_250_000, NetworkLink.burstFor(10_000_000_000L));
    }

    @Test
    void missingPrivilegesAndToolsAreNamed() {
        String user = "Name:\tjava\nUid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000000000\n";
        String m = NetworkLink.missing(user, null, "/usr/sbin/tc");
        assertNotNull(m);
        assertTrue(m.contains("root privileges") && m.contains("uid 1000"), m);
        assertTrue(m.contains("CAP_SYS_ADMIN") && m.contains("CAP_NET_ADMIN"), m);
        assertTrue(m.contains("'ip'") && m.contains("iproute2"), m);
        assertFalse(m.contains("'tc'"), m);

        String netAdminOnly = "Uid:\t0\t0\t0\t0\nCapEff:\t0000000000001000\n";
        String n = NetworkLink.missing(netAdminOnly, "/usr/sbin/ip", "/usr/sbin/tc");
        assertTrue(n.contains("CAP_SYS_ADMIN") && !n.contains("CAP_NET_ADMIN"), n);

        String root = "Uid:\t0\t0\t0\t0\nCapEff:\t000001ffffffffff\n";
        assertNull(NetworkLink.missing(root, "/usr/sbin/ip", "/usr/sbin/tc"));
    }

    @Test
    void linkOptionsSetTheLinkMatrixUnlessGiven() {
        EndToEnd.Options o = EndToEnd.parse(new String[] {"--link", "100mbit", "--quick"});
        assertEquals(NetworkLink.LINK_SIZES, o.sizes);
        assertEquals(List.of(1, 100), o.inflight);
        assertEquals(List.of(1), o.batch);
        assertEquals(EndToEnd.QUICK_OUT.resolveSibling("end-to-end-link-100mbit.md"), o.out);
        EndToEnd.Options given = EndToEnd.parse(new String[] {"--inflight", "8", "--link", "1gbit", "--batch", "1,20"});
        assertEquals(List.of(8), given.inflight);
        assertEquals(List.of(1, 20), given.batch);
        assertEquals(EndToEnd.FULL_OUT.resolveSibling("end-to-end-link-1gbit.md"), given.out);
        assertThrows(IllegalArgumentException.class, () -> EndToEnd.parse(new String[] {"--link", "1gbps"}));
        assertThrows(IllegalArgumentException.class,
                () -> EndToEnd.parse(new String[] {"--link", "1gbit", "--host", "127.0.0.1"}));
    }

    @Test
    void repeatedValuesAreOneCharacterRepeated() throws Exception {
        Datasets.Dataset d = Datasets.load("repeat4000", Path.of("unused"));
        assertEquals("repeat 4000 B", d.name());
        assertEquals(RepeatedValues.DISTINCT, d.values().length);
        for (int i = 0; i < d.values().length; i++) {
            byte[] v = d.values()[i];
            assertEquals(4000, v.length);
            for (byte b : v) {
                assertEquals('0' + i, b);
            }
        }
        assertEquals(100, Datasets.load("repeat100", Path.of("unused")).values()[3].length);
        assertThrows(IllegalArgumentException.class, () -> Datasets.load("repeatlots", Path.of("unused")));
    }

    private static void needRoot() {
        String missing = NetworkLink.missing();
        assertNull(missing, () -> "this test builds a network namespace and needs " + missing + HINT);
    }

    @Test
    @DisabledIfSystemProperty(named = SKIP, matches = "true", disabledReason = "left out with -D" + SKIP + "=true")
    @DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true",
            disabledReason = "left out with -Dzstdjava.skipServerTests=true")
    void tinyMatrixOverAShapedLinkReadsEveryValueBackAndLeavesNothingBehind(@TempDir Path dir) throws Exception {
        needRoot();
        Path out = dir.resolve("link.md");
        // realistic 4000-byte values from the repository's test data, and the repeated ones
        String corpus = EndToEndTest.testdata().toString();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int status = run(log, "--link", "1gbit", "--sizes", "repeat4000,4000", "--corpus", corpus, "--inflight", "1,100",
                "--keys", "200", "--rounds", "1", "--seconds", "0.05", "--warmup", "0.01", "--global-warmup", "0.05",
                "--no-progress", "--out", out.toString());
        String logText = log.toString(StandardCharsets.UTF_8);
        Matcher names = Pattern.compile("network namespace (zstdjava-e2e-([0-9a-f]{6}))").matcher(logText);
        assertTrue(names.find(), "no namespace named in the log:\n" + logText);
        String ns = names.group(1);
        String id = names.group(2);
        assertNothingLeft(ns, id);
        assertEquals(EndToEnd.OK, status, logText);
        assertTrue(logText.contains("every GET returned what was written"), logText);
        Matcher server = Pattern.compile("on (169\\.254\\.\\d+\\.\\d+):6379").matcher(logText);
        assertTrue(server.find(), "the server was not on a link-local address:\n" + logText);

        String md = Files.readString(out);
        assertTrue(md.contains("- Link: 1gbit each way"), md);
        assertTrue(md.contains("tbf rate 1gbit"), md);
        assertTrue(md.contains("## Network link") && md.contains("### Link targets"), md);
        assertTrue(md.contains("**0 mismatches**"), md);
        assertFalse(md.contains("did not run here"), "a client did not run:\n" + md);

        List<String> csv = Files.readAllLines(dir.resolve("link/results.csv"));
        // header + 2 value sets x 2 in-flight x 1 batch x every client
        assertEquals(1 + 2 * 2 * Clients.Kind.values().length, csv.size(), String.join("\n", csv));
        int mismatches = List.of(csv.get(0).split(",")).indexOf("mismatches");
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",", -1);
            assertEquals("0", f[mismatches], "mismatches in " + line);
            assertTrue(Long.parseLong(f[14]) >= 200, "fewer GETs than keys in " + line);
            assertTrue(Double.parseDouble(f[21]) > 0, "no bytes on the wire in " + line);
            String backend = f[3].contains("zstd") ? "zstd" : f[3].contains("lz4") ? "lz4" : null;
            if (backend != null) {
                // every value compressed; the managed-dictionary client's frames may name their dictionary
                assertTrue(f[24].matches(backend + "( with dictionary \\d+)? 100%"), f[3] + " stored " + f[24] + " in " + line);
            }
        }
    }

    @Test
    @DisabledIfSystemProperty(named = SKIP, matches = "true", disabledReason = "left out with -D" + SKIP + "=true")
    @DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true",
            disabledReason = "left out with -Dzstdjava.skipServerTests=true")
    void theLinkIsShapedBothWaysAndRemovedAfterAFailedRun(@TempDir Path dir) throws Exception {
        needRoot();
        String ns;
        String id;
        try (NetworkLink link = NetworkLink.create("100mbit")) {
            ns = link.namespace();
            id = ns.substring(NetworkLink.NAMESPACE_PREFIX.length());
            String q = link.qdiscs();
            assertEquals(2, Pattern.compile("qdisc tbf .*?rate 100Mbit").matcher(q).results().count(), q);
            assertTrue(link.serverAddress().startsWith("169.254.") && link.hostAddress().startsWith("169.254."));
            assertTrue(NetworkLink.exec(List.of("ip", "netns", "list")).contains(ns));
            String inside = NetworkLink.exec(List.of("ip", "-n", ns, "-4", "-o", "addr", "show"));
            assertTrue(inside.contains(link.serverAddress() + "/30"), inside);
            assertEquals(2, inside.strip().lines().count(), "only lo and the veth end inside:\n" + inside);
            String inside6 = NetworkLink.exec(List.of("ip", "-n", ns, "-6", "-o", "addr", "show", "dev", link.nsVeth()));
            String host6 = NetworkLink.exec(List.of("ip", "-6", "-o", "addr", "show", "dev", link.hostVeth()));
            assertEquals("", inside6 + host6, "IPv6 addresses on the pair");
        }
        assertNothingLeft(ns, id);

        // a second run that happens to pick the same names fails, and leaves the first run's link alone
        try (NetworkLink first = NetworkLink.create("100mbit")) {
            String firstId = first.namespace().substring(NetworkLink.NAMESPACE_PREFIX.length());
            java.io.IOException clash = assertThrows(java.io.IOException.class,
                    () -> NetworkLink.create("100mbit", firstId).close());
            assertTrue(clash.getMessage().contains("netns add " + first.namespace()), clash.getMessage());
            assertTrue(NetworkLink.exec(List.of("ip", "netns", "list")).contains(first.namespace()));
            assertTrue(NetworkLink.exec(List.of("ip", "-o", "link", "show", first.hostVeth())).contains("tbf"));
        }

        // a server that does not start: the run fails, and the link it built is gone
        Path broken = dir.resolve("not-a-server");
        Files.writeString(broken, "#!/bin/sh\nexit 1\n");
        assertTrue(broken.toFile().setExecutable(true));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int status = run(log, "--link", "100mbit", "--server-binary", broken.toString(), "--sizes", "repeat100",
                "--no-progress", "--out", dir.resolve("x.md").toString());
        String logText = log.toString(StandardCharsets.UTF_8);
        assertEquals(EndToEnd.FAILED, status, logText);
        Matcher names = Pattern.compile("(zstdjava-e2e-([0-9a-f]{6}))").matcher(logText);
        assertTrue(names.find(), "the failure does not name the namespace:\n" + logText);
        assertNothingLeft(names.group(1), names.group(2));
    }

    private static int run(ByteArrayOutputStream log, String... args) {
        try (PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            return EndToEnd.run(args, err);
        }
    }

    private static void assertNothingLeft(String ns, String id) throws Exception {
        String namespaces = NetworkLink.exec(List.of("ip", "netns", "list"));
        assertFalse(namespaces.contains(ns), ns + " left behind:\n" + namespaces);
        String links = NetworkLink.exec(List.of("ip", "-o", "link", "show"));
        assertFalse(links.contains(NetworkLink.VETH_PREFIX + id), "veth of " + ns + " left behind:\n" + links);
        String addrs = NetworkLink.exec(List.of("ip", "-4", "-o", "addr", "show"));
        assertFalse(addrs.contains(NetworkLink.VETH_PREFIX + id), addrs);
    }
}
