/*
 * C reference for the zstd-java benchmarks: calls libzstd and liblz4 directly, with the same library build the Java
 * library bundles, on the same payload files, the same way the Java contestants do (one reused context, one frame or
 * block per operation), and prints one JSON object per measured cell.
 *
 *   cref <payload-dir> <warmup-ms> <iteration-ms> <iterations> <case>...
 *     case = zstd:<level>:<payload> | lz4:<level>:<payload>
 *     lz4 level: 0 default (acceleration 1), < 0 acceleration -level, > 0 HC level
 *     payload = a file <payload-dir>/<payload>.bin
 *
 * Each case measures compress and decompress. An iteration runs the operation in a loop for about <iteration-ms>
 * and yields ns/op; the output carries the mean, the sample standard deviation and the minimum over the iterations.
 * Built by ./bench with gcc -O2 and linked to the bundled .so files (never to a system copy: the output names the
 * file each library was loaded from).
 */
#define _GNU_SOURCE
#define CREF_NAME "cref"
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>

#include "cref-cell.h"

static volatile size_t sink;

static void measure(op_fn fn, cell *c, double warmup_ms, double iter_ms, int iters,
                    double *mean, double *sd, double *min, long *ops_total) {
    /* warm up, and find a batch size that takes about 1/10 of an iteration */
    long batch = 1;
    double start = now_ns();
    while (now_ns() - start < warmup_ms * 1e6) {
        double t0 = now_ns();
        for (long i = 0; i < batch; i++) sink += fn(c);
        double dt = now_ns() - t0;
        if (dt < iter_ms * 1e5 && batch < (1L << 30)) batch *= 2;
    }
    double *v = calloc((size_t) iters, sizeof(double));
    *ops_total = 0;
    for (int k = 0; k < iters; k++) {
        long n = 0;
        double t0 = now_ns(), t1;
        do {
            for (long i = 0; i < batch; i++) sink += fn(c);
            n += batch;
            t1 = now_ns();
        } while (t1 - t0 < iter_ms * 1e6);
        v[k] = (t1 - t0) / (double) n;
        *ops_total += n;
    }
    double s = 0, m = v[0];
    for (int k = 0; k < iters; k++) { s += v[k]; if (v[k] < m) m = v[k]; }
    *mean = s / iters;
    double q = 0;
    for (int k = 0; k < iters; k++) q += (v[k] - *mean) * (v[k] - *mean);
    *sd = iters > 1 ? sqrt(q / (iters - 1)) : 0;
    *min = m;
    free(v);
}

static const char *lib_of(void *symbol) {
    Dl_info info;
    return dladdr(symbol, &info) && info.dli_fname ? info.dli_fname : "?";
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: cref <payload-dir> <warmup-ms> <iteration-ms> <iterations> <case>...\n"
                        "  case = zstd:<level>:<payload> | lz4:<level>:<payload>\n");
        return 2;
    }
    const char *dir = argv[1];
    double warmup_ms = atof(argv[2]), iter_ms = atof(argv[3]);
    int iters = atoi(argv[4]);
    if (iters < 1 || iter_ms <= 0) die("bad arguments", "iterations and iteration-ms must be positive");

    printf("{\"kind\":\"env\",\"zstd_version\":\"%s\",\"zstd_library\":\"%s\",\"lz4_version\":\"%s\","
           "\"lz4_library\":\"%s\",\"compiler\":\"gcc %s\"}\n",
           ZSTD_versionString(), lib_of((void *) ZSTD_compress2), LZ4_versionString(),
           lib_of((void *) LZ4_decompress_safe), __VERSION__);
    fflush(stdout);

    for (int a = 5; a < argc; a++) {
        char spec[512];
        snprintf(spec, sizeof spec, "%s", argv[a]);
        char *codec = strtok(spec, ":"), *lvl = strtok(NULL, ":"), *payload = strtok(NULL, ":");
        if (!codec || !lvl || !payload) die("bad case (want codec:level:payload)", argv[a]);
        cell c;
        op_fn comp, decomp;
        cell_open(&c, dir, codec, lvl, payload, argv[a], &comp, &decomp);
        size_t n = c.src_len, clen = c.frame_len;

        const char *ops[2] = {"compress", "decompress"};
        op_fn fns[2] = {comp, decomp};
        for (int o = 0; o < 2; o++) {
            double mean, sd, min;
            long total;
            measure(fns[o], &c, warmup_ms, iter_ms, iters, &mean, &sd, &min, &total);
            printf("{\"kind\":\"cell\",\"codec\":\"%s\",\"level\":%d,\"payload\":\"%s\",\"op\":\"%s\","
                   "\"bytes\":%zu,\"compressed\":%zu,\"ns_op\":%.3f,\"ns_op_sd\":%.3f,\"ns_op_min\":%.3f,"
                   "\"iterations\":%d,\"ops\":%ld}\n",
                   codec, c.level, payload, ops[o], n, clen, mean, sd, min, iters, total);
            fflush(stdout);
        }
        cell_close(&c);
    }
    return 0;
}
