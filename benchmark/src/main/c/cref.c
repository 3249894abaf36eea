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
#define LZ4_STATIC_LINKING_ONLY
#define LZ4_HC_STATIC_LINKING_ONLY
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zstd.h"
#include "lz4.h"
#include "lz4hc.h"

static volatile size_t sink;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec * 1e9 + (double) t.tv_nsec;
}

static void die(const char *what, const char *detail) {
    fprintf(stderr, "cref: %s: %s\n", what, detail);
    exit(1);
}

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open payload", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(n > 0 ? (size_t) n : 1);
    if (!b || fread(b, 1, (size_t) n, f) != (size_t) n) die("cannot read payload", path);
    fclose(f);
    *len = (size_t) n;
    return b;
}

/* one codec operation on prepared buffers; returns the output size (0 = failure) */
typedef size_t (*op_fn)(void *ctx);

typedef struct {
    int lz4, level;
    const unsigned char *src; size_t src_len;
    unsigned char *dst; size_t dst_cap;
    const unsigned char *frame; size_t frame_len;
    unsigned char *out; size_t out_cap;
    ZSTD_CCtx *cctx; ZSTD_DCtx *dctx;
    void *lz4_state;
} cell;

static size_t zstd_c(void *p) {
    cell *c = p;
    size_t r = ZSTD_compress2(c->cctx, c->dst, c->dst_cap, c->src, c->src_len);
    return ZSTD_isError(r) ? 0 : r;
}

static size_t zstd_d(void *p) {
    cell *c = p;
    size_t r = ZSTD_decompressDCtx(c->dctx, c->out, c->out_cap, c->frame, c->frame_len);
    return ZSTD_isError(r) ? 0 : r;
}

static size_t lz4_c(void *p) {
    cell *c = p;
    int r = c->level > 0
            ? LZ4_compress_HC_extStateHC_fastReset(c->lz4_state, (const char *) c->src, (char *) c->dst,
                                                   (int) c->src_len, (int) c->dst_cap, c->level)
            : LZ4_compress_fast_extState_fastReset(c->lz4_state, (const char *) c->src, (char *) c->dst,
                                                   (int) c->src_len, (int) c->dst_cap,
                                                   c->level < 0 ? -c->level : 1);
    return r > 0 ? (size_t) r : 0;
}

static size_t lz4_d(void *p) {
    cell *c = p;
    int r = LZ4_decompress_safe((const char *) c->frame, (char *) c->out, (int) c->frame_len, (int) c->out_cap);
    return r >= 0 ? (size_t) r : 0;
}

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
        cell c = {0};
        c.lz4 = strcmp(codec, "lz4") == 0;
        if (!c.lz4 && strcmp(codec, "zstd") != 0) die("unknown codec", codec);
        c.level = atoi(lvl);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.bin", dir, payload);
        size_t n;
        unsigned char *src = read_file(path, &n);
        c.src = src; c.src_len = n;
        c.out_cap = n > 0 ? n : 1;
        c.out = malloc(c.out_cap);
        if (c.lz4) {
            c.dst_cap = (size_t) LZ4_compressBound((int) n);
            if (c.level > 0) {
                c.lz4_state = malloc((size_t) LZ4_sizeofStateHC());
                LZ4_initStreamHC(c.lz4_state, (size_t) LZ4_sizeofStateHC());
            } else {
                c.lz4_state = malloc((size_t) LZ4_sizeofState());
                LZ4_initStream(c.lz4_state, (size_t) LZ4_sizeofState());
            }
        } else {
            c.dst_cap = ZSTD_compressBound(n);
            c.cctx = ZSTD_createCCtx();
            c.dctx = ZSTD_createDCtx();
            if (ZSTD_isError(ZSTD_CCtx_setParameter(c.cctx, ZSTD_c_compressionLevel, c.level)))
                die("bad zstd level", lvl);
        }
        c.dst = malloc(c.dst_cap);
        op_fn comp = c.lz4 ? lz4_c : zstd_c, decomp = c.lz4 ? lz4_d : zstd_d;
        size_t clen = comp(&c);
        if (clen == 0) die("compression failed", argv[a]);
        /* decompress a separate copy of the frame, like the Java cells do */
        unsigned char *frame = malloc(clen);
        memcpy(frame, c.dst, clen);
        c.frame = frame; c.frame_len = clen;
        if (decomp(&c) != n || memcmp(c.out, src, n) != 0) die("round trip failed", argv[a]);

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
        free(frame); free(c.dst); free(c.out); free(src); free(c.lz4_state);
        ZSTD_freeCCtx(c.cctx);
        ZSTD_freeDCtx(c.dctx);
    }
    return 0;
}
