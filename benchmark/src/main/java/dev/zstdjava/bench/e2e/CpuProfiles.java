package dev.zstdjava.bench.e2e;

import dev.zstdjava.bench.BenchMain;
import one.profiler.AsyncProfiler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * CPU profiles of the measured phases ({@code ./e2e --profile DIR}): async-profiler samples every thread of the JVM
 * each millisecond of CPU time while a measured SET or GET phase runs, and writes the phase's stacks, one line per
 * stack with its thread first, to {@code DIR/<cell>-<client>-r<round>-<set|get>.collapsed} (the input of flame-graph
 * tools). {@code DIR/profiles.md} then splits each phase's samples by the kind of thread that ran them, as CPU µs per
 * command: the application's requests (the carriers of the virtual threads that stand for them), the client's event
 * loop, and the rest of the JVM (garbage
 * collection, JIT compilation, timers). A sample is one interval of CPU time, so the split is an estimate with about
 * the phase's samples' precision; compare clients within one run. The stacks take about 1.5 MB a phase.
 *
 * <p>Not thread-safe: one phase at a time, as the tool measures them.
 */
final class CpuProfiles {
    /** Sampling interval, µs of CPU time. */
    static final int INTERVAL_US = 1000;

    private static final Pattern CARRIER = Pattern.compile("ForkJoinPool-\\d+-worker-\\d+");
    static final List<String> GROUPS = List.of("requests", "event loop", "rest of the JVM");

    private final Path dir;
    private final AsyncProfiler profiler;
    private final List<Entry> entries = new ArrayList<>();

    /**
     * One measured phase: samples per {@link #GROUPS} group.
     *
     * @param kind   the client's kind (whose event loops are the "event loop" group)
     * @param client the client's name (its kind's, or one of {@code ./e2e --adaptive}'s clients)
     */
    record Entry(String cell, Clients.Kind kind, String client, int round, String phase, long ops, long[] samples) {
        double microsPerOp(int group) {
            return ops == 0 ? 0 : (double) samples[group] * INTERVAL_US / ops;
        }
    }

    private CpuProfiles(Path dir, AsyncProfiler profiler) {
        this.dir = dir;
        this.profiler = profiler;
    }

    /** Loads async-profiler (the library the benchmark jar carries) and creates {@code dir}. */
    static CpuProfiles open(Path dir) throws IOException {
        Files.createDirectories(dir);
        AsyncProfiler p;
        try {
            p = AsyncProfiler.getInstance(BenchMain.asyncProfilerLibrary().toString());
        } catch (UnsatisfiedLinkError | IllegalStateException e) {
            throw new IOException("--profile: async-profiler cannot be loaded here: " + e.getMessage(), e);
        }
        return new CpuProfiles(dir, p);
    }

    /** Starts sampling. */
    void start() {
        try {
            profiler.execute("start,event=cpu,interval=" + INTERVAL_US + "us,threads");
        } catch (IOException e) {
            throw new UncheckedIOException("--profile: async-profiler did not start", e);
        }
    }

    /** Stops sampling, writes the phase's stacks and keeps its split by thread. */
    void stop(Results.Cell cell, Clients.Kind kind, String client, int round, boolean isSet, long ops) {
        String phase = isSet ? "set" : "get";
        Path file = dir.resolve(fileName(cell, client, round, phase));
        try {
            profiler.execute("stop,threads,collapsed,file=" + file);
            entries.add(new Entry(cell.label(), kind, client, round, phase, ops, split(file, kind)));
        } catch (IOException e) {
            throw new UncheckedIOException("--profile: writing " + file, e);
        }
    }

    static String fileName(Results.Cell cell, String client, int round, String phase) {
        String c = (cell.dataset() + "-" + cell.inflight() + "-" + cell.batch()).replaceAll("[^A-Za-z0-9.-]+", "");
        return c + "-" + client.replaceAll("[^A-Za-z0-9.-]+", "") + "-r" + round + "-" + phase + ".collapsed";
    }

    /** @return the samples of a collapsed-stacks file per {@link #GROUPS} group, by each stack's thread */
    static long[] split(Path collapsed, Clients.Kind kind) throws IOException {
        long[] samples = new long[GROUPS.size()];
        Pattern loop = kind.eventLoops().pattern;
        try (Stream<String> lines = Files.lines(collapsed, StandardCharsets.UTF_8)) {
            lines.forEach(line -> {
                int space = line.lastIndexOf(' ');
                if (space < 0 || !line.startsWith("[")) {
                    return;
                }
                long n = Long.parseLong(line.substring(space + 1).trim());
                int end = line.indexOf(']');
                String thread = end < 0 ? "" : line.substring(1, end);
                int tid = thread.lastIndexOf(" tid=");
                if (tid >= 0) {
                    thread = thread.substring(0, tid);
                }
                samples[group(thread, loop)] += n;
            });
        }
        return samples;
    }

    static int group(String thread, Pattern loop) {
        if (CARRIER.matcher(thread).matches()) {
            return 0;
        }
        if (loop != null && loop.matcher(thread).matches()) {
            return 1;
        }
        return 2;
    }

    /** Writes {@code DIR/profiles.md}: per phase and client, CPU µs per command by kind of thread, median of rounds. */
    Path writeSummary(String setup) throws IOException {
        // rows: cells in the order measured, SET before GET, clients in their order of Clients.Kind (then by name)
        List<String> cells = entries.stream().map(Entry::cell).distinct().toList();
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(java.util.Comparator.comparingInt((Entry e) -> cells.indexOf(e.cell()))
                .thenComparing(e -> e.phase().equals("get"))
                .thenComparing(Entry::kind).thenComparing(Entry::client));
        Map<String, List<Entry>> byRow = new LinkedHashMap<>();
        for (Entry e : sorted) {
            byRow.computeIfAbsent(e.cell() + "|" + e.phase() + "|" + e.client(), k -> new ArrayList<>()).add(e);
        }
        StringBuilder md = new StringBuilder("# CPU profiles of the measured phases\n\n").append(setup).append("\n\n");
        md.append("CPU µs per command by the kind of thread that ran it, from async-profiler's samples (one per ")
                .append(INTERVAL_US).append(" µs of CPU time), median of the rounds; the stacks are in the ")
                .append(".collapsed files beside this one. Requests: the carriers of the virtual threads that send ")
                .append("the requests. Event loop: the client's Netty I/O threads. ")
                .append("Rest: garbage collection, JIT compilation, timers.\n\n");
        md.append("| cell | phase | client | rounds |");
        for (String g : GROUPS) {
            md.append(' ').append(g).append(" |");
        }
        md.append(" sum |\n|---|---|---|---:|");
        md.append("---:|".repeat(GROUPS.size() + 1)).append('\n');
        for (List<Entry> row : byRow.values()) {
            Entry first = row.get(0);
            md.append("| ").append(first.cell()).append(" | ").append(first.phase().toUpperCase(Locale.ROOT))
                    .append(" | ").append(first.client()).append(" | ").append(row.size()).append(" |");
            double total = 0;
            for (int g = 0; g < GROUPS.size(); g++) {
                int group = g;
                double m = EventLoopProbe.median(row.stream().map(e -> e.microsPerOp(group)).toList());
                total += m;
                md.append(String.format(Locale.ROOT, " %.2f |", m));
            }
            md.append(String.format(Locale.ROOT, " %.2f |%n", total));
        }
        Path out = dir.resolve("profiles.md");
        Files.writeString(out, md, StandardCharsets.UTF_8);
        return out;
    }

    /** @return how many phases were profiled */
    int phases() {
        return entries.size();
    }
}
