package dev.zstdjava.bench.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A shaped network link for {@code ./e2e --link RATE}: a network namespace of its own holding one end of a veth pair,
 * the other end in the tool's namespace, a link-local /30 from 169.254.0.0/16 on the pair and nothing else, and a
 * {@code tbf} qdisc limiting each direction to RATE. The server runs inside the namespace (through
 * {@link #launcher()}) bound to {@link #serverAddress()}; the clients reach it only over the pair.
 *
 * <p>Names are unique per run ({@code zstdjava-e2e-<id>}, veths {@code zje<id>h}/{@code zje<id>n}; the id comes from
 * {@code ZSTDJAVA_E2E_LINK_ID}, which the {@code e2e} script sets so that its exit trap can remove the same names, or
 * is random). {@link #close()} (also run by a shutdown hook, so Ctrl-C and failures clean up) kills whatever still
 * runs in the namespace, then deletes the pair and the namespace. Needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN) and
 * {@code ip}/{@code tc} from iproute2; {@link #missing()} says what is absent.
 *
 * <p>Not thread-safe except {@link #close()}, which may run concurrently from the shutdown hook.
 */
final class NetworkLink implements AutoCloseable {
    /** The environment variable carrying the run's id (lower-case hex, 6 characters), set by the e2e script. */
    static final String ID_ENV = "ZSTDJAVA_E2E_LINK_ID";
    static final String NAMESPACE_PREFIX = "zstdjava-e2e-";
    static final String VETH_PREFIX = "zje";
    static final int SERVER_PORT = 6379;
    /** tbf's queue limit, given as the longest a packet may wait. */
    static final String TBF_LATENCY = "50ms";
    static final long MIN_BURST = 64 * 1024;

    private static final int CAP_NET_ADMIN = 12;
    private static final int CAP_SYS_ADMIN = 21;
    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)(bit|kbit|mbit|gbit|tbit)");
    private static final Pattern ID = Pattern.compile("[0-9a-f]{6}");
    private static final List<Path> SBIN = List.of(Path.of("/usr/sbin"), Path.of("/sbin"), Path.of("/usr/bin"),
            Path.of("/bin"));

    private final String ip;
    private final String tc;
    private final String rate;
    private final long bitsPerSecond;
    private final long burst;
    private final String namespace;
    private final String hostVeth;
    private final String nsVeth;
    private final String hostAddress;
    private final String serverAddress;
    private final Thread hook;
    private boolean closed;
    /** What this instance made, so that teardown never removes another run's namespace or pair of the same name. */
    private volatile boolean madeNamespace;
    private volatile boolean madePair;

    private NetworkLink(String ip, String tc, String rate, long bitsPerSecond, String id, int subnet) {
        this.ip = ip;
        this.tc = tc;
        this.rate = rate;
        this.bitsPerSecond = bitsPerSecond;
        this.burst = burstFor(bitsPerSecond);
        this.namespace = NAMESPACE_PREFIX + id;
        this.hostVeth = VETH_PREFIX + id + "h";
        this.nsVeth = VETH_PREFIX + id + "n";
        String net = "169.254." + (subnet >> 8) + ".";
        this.hostAddress = net + ((subnet & 0xff) + 1);
        this.serverAddress = net + ((subnet & 0xff) + 2);
        this.hook = new Thread(this::teardown, "e2e-link-teardown");
    }

    /**
     * @param rate a tc rate in bits per second: a number followed by bit, kbit, mbit, gbit or tbit (e.g. 100mbit)
     * @return bits per second
     * @throws IllegalArgumentException when {@code rate} is not of that form
     */
    static long parseRate(String rate) {
        Matcher m = RATE.matcher(rate.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("--link " + rate + ": give a rate like 100mbit, 1gbit or 10gbit "
                    + "(a number followed by bit, kbit, mbit, gbit or tbit)");
        }
        long unit = switch (m.group(2)) {
            case "bit" -> 1L;
            case "kbit" -> 1_000L;
            case "mbit" -> 1_000_000L;
            case "gbit" -> 1_000_000_000L;
            default -> 1_000_000_000_000L;
        };
        double bits = Double.parseDouble(m.group(1)) * unit;
        if (bits < 1_000_000 || bits > 100e9) {
            throw new IllegalArgumentException("--link " + rate + " is outside 1mbit..100gbit");
        }
        return (long) bits;
    }

    /** Value sets of a link run unless {@code --sizes} is given: realistic and repeated values, point by point. */
    static final List<String> LINK_SIZES = List.of("100", "repeat100", "4000", "repeat4000", "json");
    /** Requests in flight of a link run unless {@code --inflight} is given (100 as in the GLIDE benchmark). */
    static final List<Integer> LINK_INFLIGHT = List.of(1, 100);

    /**
     * Sets a link run's matrix where the command line does not: {@link #LINK_SIZES}, {@link #LINK_INFLIGHT} and no
     * pipelining (the GLIDE benchmark sends single commands). Checks the rate and that {@code --host} is not given.
     */
    static void applyDefaults(EndToEnd.Options o, java.util.function.Predicate<String> given) {
        parseRate(o.link);
        if (o.host != null) {
            throw new IllegalArgumentException("--link starts its own server in a namespace; it cannot be combined "
                    + "with --host");
        }
        if (!given.test("--sizes")) {
            o.sizes = LINK_SIZES;
        }
        if (!given.test("--inflight")) {
            o.inflight = LINK_INFLIGHT;
        }
        if (!given.test("--batch")) {
            o.batch = List.of(1);
        }
        if (!o.outGiven) { // never replace the loopback report
            Path report = o.mode.equals("quick") ? EndToEnd.QUICK_OUT : EndToEnd.FULL_OUT;
            o.out = report.resolveSibling("end-to-end-link-" + o.link.trim().toLowerCase(Locale.ROOT) + ".md");
        }
    }

    /** @return tbf's bucket: one millisecond at the rate, at least 64 KiB (so 100mbit..1gbit get 64 KiB) */
    static long burstFor(long bitsPerSecond) {
        return Math.max(MIN_BURST, bitsPerSecond / 8 / 1000);
    }

    /**
     * @return what this process lacks to build the link (missing privileges, missing {@code ip} or {@code tc}), or
     *         null when nothing is missing
     */
    static String missing() {
        String status;
        try {
            status = Files.readString(Path.of("/proc/self/status"), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return "cannot read /proc/self/status to check privileges (" + e.getMessage() + "); --link needs Linux";
        }
        return missing(status, tool("ip"), tool("tc"));
    }

    /** {@link #missing()} on a given {@code /proc/self/status} text and tool paths (null: not found). */
    static String missing(String procStatus, String ip, String tc) {
        List<String> out = new ArrayList<>();
        long caps = 0;
        String uid = "?";
        for (String line : procStatus.split("\n")) {
            if (line.startsWith("CapEff:")) {
                caps = Long.parseUnsignedLong(line.substring(7).trim(), 16);
            } else if (line.startsWith("Uid:")) {
                uid = line.substring(4).trim().split("\\s+")[1]; // real, effective, saved, fs
            }
        }
        List<String> lacking = new ArrayList<>();
        if ((caps >> CAP_SYS_ADMIN & 1) == 0) {
            lacking.add("CAP_SYS_ADMIN (to create a network namespace)");
        }
        if ((caps >> CAP_NET_ADMIN & 1) == 0) {
            lacking.add("CAP_NET_ADMIN (to create the veth pair and its tbf qdiscs)");
        }
        if (!lacking.isEmpty()) {
            out.add("root privileges: running as uid " + uid + " without " + String.join(" and ", lacking));
        }
        if (ip == null) {
            out.add("the 'ip' command (Debian package iproute2: apt-get install iproute2)");
        }
        if (tc == null) {
            out.add("the 'tc' command (Debian package iproute2: apt-get install iproute2)");
        }
        return out.isEmpty() ? null : String.join("; ", out);
    }

    private static String tool(String name) {
        List<Path> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(":")) {
                if (!d.isEmpty()) {
                    dirs.add(Path.of(d));
                }
            }
        }
        dirs.addAll(SBIN);
        for (Path d : dirs) {
            Path p = d.resolve(name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    /**
     * Builds the namespace, the pair, the addresses and both tbf qdiscs; on any failure removes what it made.
     *
     * @throws IllegalStateException naming what is missing when {@link #missing()} finds something
     * @throws IOException           when a command fails (its output is in the message)
     */
    static NetworkLink create(String rate) throws IOException {
        String id = System.getenv(ID_ENV);
        if (id == null || !ID.matcher(id).matches()) {
            byte[] b = new byte[3];
            new SecureRandom().nextBytes(b);
            id = HexFormat.of().formatHex(b);
        }
        return create(rate, id);
    }

    /** {@link #create(String)} with the names' id given (6 lower-case hex digits). */
    static NetworkLink create(String rate, String id) throws IOException {
        long bits = parseRate(rate);
        String lacking = missing();
        if (lacking != null) {
            throw new IllegalStateException("--link needs " + lacking);
        }
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("link id " + id + " is not 6 lower-case hex digits");
        }
        NetworkLink link = new NetworkLink(tool("ip"), tool("tc"), rate.trim().toLowerCase(Locale.ROOT), bits, id,
                freeSubnet(tool("ip")));
        Runtime.getRuntime().addShutdownHook(link.hook);
        try {
            link.build();
        } catch (IOException | RuntimeException e) {
            link.close();
            throw e;
        }
        return link;
    }

    /**
     * @return a /30 in 169.254.1.0 .. 169.254.254.255 (without 169.254.169.0/24, where cloud metadata services
     *         live) that no interface of this namespace uses yet, as {@code third octet << 8 | fourth octet}
     */
    private static int freeSubnet(String ip) throws IOException {
        String used = exec(List.of(ip, "-4", "-o", "addr", "show")) + exec(List.of(ip, "-4", "route", "show"));
        SecureRandom random = new SecureRandom();
        for (int attempt = 0; attempt < 100; attempt++) {
            int third = 1 + random.nextInt(254);
            if (third == 169) {
                continue;
            }
            int fourth = random.nextInt(64) * 4;
            String prefix = "169.254." + third + ".";
            boolean taken = false;
            for (int i = 0; i < 4 && !taken; i++) {
                taken = Pattern.compile("\\b" + Pattern.quote(prefix + (fourth + i)) + "\\b").matcher(used).find();
            }
            if (!taken) {
                return third << 8 | fourth;
            }
        }
        throw new IOException("no free 169.254.x.y/30 found after 100 tries; used here:\n" + used);
    }

    private void build() throws IOException {
        exec(List.of(ip, "netns", "add", namespace));
        madeNamespace = true;
        exec(List.of(ip, "link", "add", hostVeth, "type", "veth", "peer", "name", nsVeth, "netns", namespace));
        madePair = true;
        noIpv6();
        exec(List.of(ip, "addr", "add", hostAddress + "/30", "dev", hostVeth));
        exec(List.of(ip, "-n", namespace, "addr", "add", serverAddress + "/30", "dev", nsVeth));
        exec(List.of(ip, "-n", namespace, "link", "set", "lo", "up"));
        exec(List.of(ip, "-n", namespace, "link", "set", nsVeth, "up"));
        exec(List.of(ip, "link", "set", hostVeth, "up"));
        for (String[] side : new String[][] {{hostVeth, null}, {nsVeth, namespace}}) {
            List<String> cmd = new ArrayList<>(List.of(tc));
            if (side[1] != null) {
                cmd.addAll(List.of("-n", side[1]));
            }
            cmd.addAll(List.of("qdisc", "add", "dev", side[0], "root", "tbf", "rate", Long.toString(bitsPerSecond) + "bit",
                    "burst", Long.toString(burst), "latency", TBF_LATENCY));
            exec(cmd);
        }
    }

    /** Turns IPv6 off on both ends before they come up, so the pair carries no fe80:: addresses or traffic. */
    private void noIpv6() throws IOException {
        Path hostSide = Path.of("/proc/sys/net/ipv6/conf", hostVeth, "disable_ipv6");
        if (!Files.exists(hostSide)) {
            return; // no IPv6 in this kernel
        }
        Files.writeString(hostSide, "1");
        List<String> cmd = new ArrayList<>(launcher());
        cmd.addAll(List.of("sh", "-c", "echo 1 > /proc/sys/net/ipv6/conf/" + nsVeth + "/disable_ipv6"));
        exec(cmd);
    }

    /** @return the command prefix that runs a program inside the namespace */
    List<String> launcher() {
        return List.of(ip, "netns", "exec", namespace);
    }

    /** The server's address, on the namespace's end of the pair. */
    String serverAddress() {
        return serverAddress;
    }

    String hostAddress() {
        return hostAddress;
    }

    String namespace() {
        return namespace;
    }

    String hostVeth() {
        return hostVeth;
    }

    String nsVeth() {
        return nsVeth;
    }

    long bitsPerSecond() {
        return bitsPerSecond;
    }

    /** @return the qdiscs as tc shows them, e.g. for the report and the test */
    String qdiscs() throws IOException {
        return exec(List.of(tc, "qdisc", "show", "dev", hostVeth)).strip() + " | "
                + exec(List.of(tc, "-n", namespace, "qdisc", "show", "dev", nsVeth)).strip();
    }

    /** @return one sentence for the report */
    String describe() {
        return rate + " each way: veth pair " + hostVeth + " (" + hostAddress + "/30, the clients' side) and " + nsVeth
                + " (" + serverAddress + "/30; no other address, IPv6 off) in network namespace " + namespace + ", each end shaped by `tc qdisc "
                + "... root tbf rate " + rate + " burst " + burst + " latency " + TBF_LATENCY + "` (no added delay)";
    }

    private synchronized void teardown() {
        if (closed) {
            return;
        }
        closed = true;
        if (madeNamespace) {
            try {
                killAll();
            } catch (IOException | RuntimeException ignored) {
                // already gone
            }
        }
        if (madePair) {
            quiet(List.of(ip, "link", "del", hostVeth)); // removes both ends
        }
        if (madeNamespace) {
            quiet(List.of(ip, "netns", "del", namespace));
        }
    }

    /** Stops every process still in the namespace (only the ones this run started can be there). */
    private void killAll() throws IOException {
        for (String signal : new String[] {"TERM", "KILL"}) {
            List<Long> pids = pids();
            if (pids.isEmpty()) {
                return;
            }
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresent(p -> {
                    if (signal.equals("TERM")) {
                        p.destroy();
                    } else {
                        p.destroyForcibly();
                    }
                });
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!pids().isEmpty() && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
    }

    private List<Long> pids() throws IOException {
        List<Long> out = new ArrayList<>();
        for (String s : exec(List.of(ip, "netns", "pids", namespace)).split("\\s+")) {
            if (!s.isBlank()) {
                out.add(Long.parseLong(s.trim()));
            }
        }
        return out;
    }

    private static void quiet(List<String> cmd) {
        try {
            exec(cmd);
        } catch (IOException | RuntimeException ignored) {
            // already gone
        }
    }

    /** Runs a command to its end; @return its output; @throws IOException with its output when it fails */
    static String exec(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not finish in 30 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", cmd) + " interrupted", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed (exit " + p.exitValue() + "): " + out.strip());
        }
        return out;
    }

    /** Stops what runs in the namespace, deletes the veth pair and the namespace. Idempotent. */
    @Override
    public void close() {
        teardown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // shutting down: the hook runs teardown(), which is then a no-op
        }
    }
}
