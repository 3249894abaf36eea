package dev.zstdjava.bench.e2e;

import org.HdrHistogram.Histogram;

/** What one run measures. */
final class Results {
    private Results() {}

    /**
     * One measured phase (all SETs or all GETs of one client in one cell).
     *
     * @param ops      commands completed
     * @param nanos    wall time from the first request to the last reply
     * @param latency  round trip of each request (a pipelined batch counts as one request), nanoseconds
     * @param cpuNanos CPU time of the whole benchmark process (all client threads, GC, GLIDE's native threads)
     * @param netIn    bytes the server received ({@code total_net_input_bytes} delta)
     * @param netOut   bytes the server sent ({@code total_net_output_bytes} delta)
     * @param loop     CPU time and allocation of the client's event-loop threads ({@link EventLoopThreads}),
     *                 {@link EventLoopThreads.Usage#NONE} where the client has none the JVM can see
     */
    record Phase(long ops, long nanos, Histogram latency, long cpuNanos, long netIn, long netOut,
                 EventLoopThreads.Usage loop) {
        /** A phase without event-loop figures. */
        Phase(long ops, long nanos, Histogram latency, long cpuNanos, long netIn, long netOut) {
            this(ops, nanos, latency, cpuNanos, netIn, netOut, EventLoopThreads.Usage.NONE);
        }

        double opsPerSec() {
            return nanos == 0 ? 0 : ops * 1e9 / nanos;
        }

        /** @return the latency at {@code percentile} in microseconds */
        double micros(double percentile) {
            return latency.getValueAtPercentile(percentile) / 1000.0;
        }

        double cpuMicrosPerOp() {
            return ops == 0 ? 0 : cpuNanos / 1000.0 / ops;
        }

        /** @return µs of event-loop CPU time per command, NaN when not measured */
        double loopCpuMicrosPerOp() {
            return loop.cpuMicrosPer(ops);
        }

        /** @return bytes the event-loop threads allocated per command, NaN when not measured */
        double loopAllocPerOp() {
            return loop.allocBytesPer(ops);
        }

        double inPerOp() {
            return ops == 0 ? 0 : (double) netIn / ops;
        }

        double outPerOp() {
            return ops == 0 ? 0 : (double) netOut / ops;
        }
    }

    /** A matrix cell: value set, requests in flight, commands per pipelined batch. */
    record Cell(String dataset, int inflight, int batch) {
        String label() {
            return dataset + " if" + inflight + " b" + batch;
        }
    }

    /**
     * One client in one cell.
     *
     * @param memPerKey     mean {@code MEMORY USAGE} of sampled keys, bytes
     * @param usedPerKey    {@code used_memory} growth over the SET phase divided by the key count, bytes
     * @param storedForm    how sampled stored values look on the server (e.g. "zstd 100%")
     * @param mismatches    GETs that did not return what was written
     * @param round         which pass over the matrix (1..), 0 for rows combining every round
     */
    record Row(Cell cell, Clients.Kind client, int round, int keys, Phase set, Phase get, double memPerKey,
               double usedPerKey, String storedForm, long mismatches) {}
}
