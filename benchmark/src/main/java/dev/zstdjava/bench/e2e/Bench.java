package dev.zstdjava.bench.e2e;

import dev.zstdjava.lettuce.CompressingRedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.HdrHistogram.Histogram;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one client through one matrix cell: a short unmeasured warm-up, then the SET phase (every key written at
 * least once, for at least the phase time), server memory, then the GET phase (every value checked against what was
 * written). Requests in flight are virtual threads, each sending one request (or pipelined batch) at a time and
 * waiting for its replies.
 */
final class Bench {
    static final String KEY_PREFIX = "zstdjava-e2e:";
    private static final int MEMORY_SAMPLES = 400;

    private final String host;
    private final int port;
    private final CompressingRedisClient lettuce;
    private final StatefulRedisConnection<byte[], byte[]> admin;
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final AtomicLong mismatches = new AtomicLong();
    private final AtomicReference<String> firstMismatch = new AtomicReference<>();
    /** CPU profiles of the measured phases ({@code --profile}), or null */
    private CpuProfiles profiles;

    Bench(String host, int port, CompressingRedisClient lettuce) {
        this.host = host;
        this.port = port;
        this.lettuce = lettuce;
        this.admin = lettuce.connect(ByteArrayCodec.INSTANCE);
    }

    /** Profiles every measured phase from now on into {@code profiles}. */
    void profile(CpuProfiles profiles) {
        this.profiles = profiles;
    }

    long mismatches() {
        return mismatches.get();
    }

    String firstMismatch() {
        return firstMismatch.get();
    }

    String serverVersion() {
        String info = admin.sync().info("server");
        String v = field(info, "valkey_version");
        return v != null ? "Valkey " + v : "Redis " + field(info, "redis_version");
    }

    Clients.Kv open(Clients.Kind kind) throws Exception {
        return Clients.open(kind, lettuce, host, port);
    }

    static byte[][] keys(int n) {
        byte[][] keys = new byte[n][];
        for (int i = 0; i < n; i++) {
            keys[i] = (KEY_PREFIX + i).getBytes(StandardCharsets.US_ASCII);
        }
        return keys;
    }

    /** Measures one client in one cell; {@code keys.length} keys, value {@code i} is {@code values[i % values.length]}. */
    Results.Row run(Clients.Kv kv, Clients.Kind kind, Results.Cell cell, int round, byte[][] keys, byte[][] values,
                    double seconds, double warmupSeconds) throws Exception {
        int warmKeys = Math.min(keys.length, 2000);
        deleteKeys(keys, keys.length);
        if (warmupSeconds > 0) {
            phase(kv, cell, keys, warmKeys, values, true, warmupSeconds, null, kind, 0);
            phase(kv, cell, keys, warmKeys, values, false, warmupSeconds, null, kind, 0);
            deleteKeys(keys, warmKeys);
        }
        long usedBefore = usedMemory();
        Results.Phase set = phase(kv, cell, keys, keys.length, values, true, seconds, new Histogram(3), kind, round);
        long usedAfter = usedMemory();
        double memPerKey = memoryUsagePerKey(keys);
        String stored = storedForm(keys);
        long before = mismatches.get();
        Results.Phase get = phase(kv, cell, keys, keys.length, values, false, seconds, new Histogram(3), kind, round);
        return new Results.Row(cell, kind, round, keys.length, set, get, memPerKey,
                (double) (usedAfter - usedBefore) / keys.length, stored, mismatches.get() - before);
    }

    /** Unmeasured SETs then GETs (verified) on up to {@code keys} keys, to warm the JIT and the connection. */
    void warmup(Clients.Kv kv, Clients.Kind kind, byte[][] keys, int n, byte[][] values, double seconds) throws Exception {
        Results.Cell cell = new Results.Cell("warm-up", 16, 8);
        phase(kv, cell, keys, n, values, true, seconds, null, kind, 0);
        phase(kv, cell, keys, n, values, false, seconds, null, kind, 0);
        deleteKeys(keys, n);
    }

    private Results.Phase phase(Clients.Kv kv, Results.Cell cell, byte[][] keys, int keyCount, byte[][] values,
                                boolean isSet, double seconds, Histogram total, Clients.Kind kind, int round)
            throws Exception {
        return phase(kv, cell, keys, keyCount, values, isSet, seconds, total, kind, kind.id, round);
    }

    /**
     * SETs or GETs (each checked) of {@code keys[0, keyCount)} (value {@code i}: {@code values[i % values.length]})
     * from {@code cell.inflight()} requests in flight, for at least {@code seconds} and until every key was covered
     * once; {@code kind}: whose event loops to observe, {@code id}: the client's name in messages.
     */
    Results.Phase phase(Clients.Kv kv, Results.Cell cell, byte[][] keys, int keyCount, byte[][] values,
                        boolean isSet, double seconds, Histogram total, Clients.Kind kind, String id, int round)
            throws Exception {
        int batch = cell.batch();
        CpuProfiles profiling = total != null ? profiles : null; // measured phases only
        long[] net0 = netBytes();
        EventLoopThreads.Family loops = kind.eventLoops();
        EventLoopThreads.Snapshot loop0 = EventLoopThreads.snapshot(loops);
        long cpu0 = os.getProcessCpuTime();
        AtomicLong next = new AtomicLong();
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        List<Future<long[]>> futures = new ArrayList<>(cell.inflight());
        List<Histogram> hists = new ArrayList<>();
        if (profiling != null) {
            profiling.start();
        }
        try (var exec = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int s = 0; s < cell.inflight(); s++) {
                Histogram h = total == null ? null : new Histogram(3);
                hists.add(h);
                futures.add(exec.submit(() -> slot(kv, keys, keyCount, values, isSet, batch, next, end, h, id)));
            }
            long ops = 0;
            long last = start;
            for (Future<long[]> f : futures) {
                long[] r = f.get();
                ops += r[0];
                last = Math.max(last, r[1]);
            }
            long cpu = os.getProcessCpuTime() - cpu0;
            EventLoopThreads.Usage loop = EventLoopThreads.between(loop0, EventLoopThreads.snapshot(loops));
            if (profiling != null) {
                profiling.stop(cell, kind, id, round, isSet, ops);
                profiling = null;
            }
            long[] net1 = netBytes();
            if (total != null) {
                for (Histogram h : hists) {
                    total.add(h);
                }
            }
            return new Results.Phase(ops, last - start, total, cpu, net1[0] - net0[0], net1[1] - net0[1], loop);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException((isSet ? "SET" : "GET") + " phase of " + id + " in " + cell.label()
                    + " failed: " + e.getCause(), e.getCause());
        } finally {
            if (profiling != null) { // the phase failed: stop sampling; the phase's own exception is the one to see
                try {
                    profiling.stop(cell, kind, id, round, isSet, 0);
                } catch (RuntimeException secondary) {
                    // reported through the phase's exception, which is already on its way
                }
            }
        }
    }

    /** One request in flight: @return {ops done, nanoTime of its last reply} */
    private long[] slot(Clients.Kv kv, byte[][] keys, int keyCount, byte[][] values, boolean isSet, int batch,
                        AtomicLong next, long end, Histogram h, String id) throws Exception {
        byte[][] k = new byte[batch][];
        byte[][] v = new byte[batch][];
        long ops = 0;
        long last = System.nanoTime();
        while (true) {
            long idx = next.getAndAdd(batch);
            // keep going until the time is up and every key has been covered once
            if (idx >= keyCount && System.nanoTime() >= end) {
                break;
            }
            for (int j = 0; j < batch; j++) {
                int key = (int) ((idx + j) % keyCount);
                k[j] = keys[key];
                v[j] = values[key % values.length];
            }
            long t0 = System.nanoTime();
            if (isSet) {
                kv.set(k, v, batch);
            } else {
                byte[][] got = kv.get(k, batch);
                for (int j = 0; j < batch; j++) {
                    if (!Arrays.equals(got[j], v[j])) {
                        mismatches.incrementAndGet();
                        firstMismatch.compareAndSet(null, id + ": GET " + new String(k[j], StandardCharsets.US_ASCII)
                                + " returned " + (got[j] == null ? "nothing" : got[j].length + " bytes")
                                + " instead of the " + v[j].length + " bytes written");
                    }
                }
            }
            last = System.nanoTime();
            if (h != null) {
                h.recordValue(Math.max(1, last - t0));
            }
            ops += batch;
        }
        return new long[] {ops, last};
    }

    void deleteKeys(byte[][] keys, int n) throws Exception {
        RedisAsyncCommands<byte[], byte[]> a = admin.async();
        List<io.lettuce.core.RedisFuture<Long>> fs = new ArrayList<>();
        for (int i = 0; i < n; i += 500) {
            fs.add(a.del(Arrays.copyOfRange(keys, i, Math.min(n, i + 500))));
        }
        for (var f : fs) {
            f.get(60, TimeUnit.SECONDS);
        }
    }

    private long usedMemory() {
        return Long.parseLong(field(admin.sync().info("memory"), "used_memory"));
    }

    /** @return {total_net_input_bytes, total_net_output_bytes} */
    private long[] netBytes() {
        String info = admin.sync().info("stats");
        return new long[] {Long.parseLong(field(info, "total_net_input_bytes")),
                Long.parseLong(field(info, "total_net_output_bytes"))};
    }

    /**
     * @return the sum of {@code MEMORY USAGE} over {@code keys}; a missing key counts 0 unless {@code mustExist}
     * @throws IllegalStateException when {@code mustExist} and a key is missing
     */
    long memoryUsageSum(List<byte[]> keys, boolean mustExist) throws Exception {
        long sum = 0;
        for (int from = 0; from < keys.size(); from += 1000) {
            List<io.lettuce.core.RedisFuture<Long>> fs = new ArrayList<>();
            for (byte[] k : keys.subList(from, Math.min(keys.size(), from + 1000))) {
                fs.add(admin.async().memoryUsage(k));
            }
            for (var f : fs) {
                Long v = f.get(60, TimeUnit.SECONDS);
                if (v == null && mustExist) {
                    throw new IllegalStateException("MEMORY USAGE found no value for a key that was written");
                }
                sum += v == null ? 0 : v;
            }
        }
        return sum;
    }

    private double memoryUsagePerKey(byte[][] keys) throws Exception {
        int n = Math.min(MEMORY_SAMPLES, keys.length);
        List<io.lettuce.core.RedisFuture<Long>> fs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            fs.add(admin.async().memoryUsage(keys[(int) ((long) i * keys.length / n)]));
        }
        long sum = 0;
        for (var f : fs) {
            Long v = f.get(60, TimeUnit.SECONDS);
            if (v == null) {
                throw new IllegalStateException("MEMORY USAGE found no value for a key written in the SET phase");
            }
            sum += v;
        }
        return (double) sum / n;
    }

    /** @return what sampled stored values look like: "zstd 100%", "plain 40%, lz4 60%", ... */
    private String storedForm(byte[][] keys) throws Exception {
        int n = Math.min(200, keys.length);
        int zstd = 0;
        Map<Long, Integer> dicts = new TreeMap<>();
        int lz4 = 0;
        int gzip = 0;
        int plain = 0;
        List<io.lettuce.core.RedisFuture<byte[]>> fs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            fs.add(admin.async().get(keys[(int) ((long) i * keys.length / n)]));
        }
        for (var f : fs) {
            byte[] v = f.get(60, TimeUnit.SECONDS);
            if (v != null && v.length >= 5 && v[0] == 0 && v[1] == 1 && v[2] == 2 && v[4] == 1) {
                long dict = dictionaryId(v, 5);
                if (dict > 0) {
                    dicts.merge(dict, 1, Integer::sum);
                } else {
                    zstd++;
                }
            } else if (v != null && v.length >= 5 && v[0] == 0 && v[1] == 1 && v[2] == 2 && v[4] == 2) {
                lz4++;
            } else if (v != null && v.length >= 2 && (v[0] & 0xff) == 0x1f && (v[1] & 0xff) == 0x8b) {
                gzip++;
            } else {
                plain++;
            }
        }
        StringBuilder sb = new StringBuilder();
        append(sb, "zstd", zstd, n);
        dicts.forEach((id, count) -> append(sb, "zstd with dictionary " + Long.toUnsignedString(id), count, n));
        append(sb, "lz4", lz4, n);
        append(sb, "gzip", gzip, n);
        append(sb, "plain", plain, n);
        return sb.toString();
    }

    /**
     * @return the dictionary ID declared by the zstd frame at {@code at} (RFC 8878: the frame header descriptor's
     *     two low bits give the ID's size, after the optional window descriptor), 0 when none or not a frame
     */
    static long dictionaryId(byte[] v, int at) {
        if (v.length < at + 6 || (v[at] & 0xff) != 0x28 || (v[at + 1] & 0xff) != 0xb5 || (v[at + 2] & 0xff) != 0x2f
                || (v[at + 3] & 0xff) != 0xfd) {
            return 0;
        }
        int fhd = v[at + 4] & 0xff;
        int p = at + 5 + ((fhd & 0x20) == 0 ? 1 : 0);
        int size = new int[] {0, 1, 2, 4}[fhd & 3];
        if (v.length < p + size) {
            return 0;
        }
        long id = 0;
        for (int i = size - 1; i >= 0; i--) {
            id = (id << 8) | (v[p + i] & 0xff);
        }
        return id;
    }

    private static void append(StringBuilder sb, String name, int count, int n) {
        if (count > 0) {
            sb.append(sb.isEmpty() ? "" : " + ").append(name).append(' ').append(Math.round(100.0 * count / n)).append('%');
        }
    }

    static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return null;
    }

    void close() {
        admin.close();
    }
}
