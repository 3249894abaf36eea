/*
 * Fixed-count companion of the C reference (cref.c), for load-independent comparisons of two builds of libzstd and
 * liblz4 (tools/toolchain-counts.sh): runs one operation a fixed number of times inside run_ops(), so that a counting
 * tool (valgrind --tool=callgrind --toggle-collect=run_ops) sees exactly those operations and nothing of the set-up.
 * The operations are the ones cref.c times: one reused context, one zstd frame or lz4 block per operation.
 *
 *   cref-count <payload-dir> <case> <ops> [min-time]
 *     case = zstd:<level>:<payload>:<compress|decompress> | lz4:<level>:<payload>:<compress|decompress>
 *     lz4 level: 0 default (acceleration 1), < 0 acceleration -level, > 0 HC level
 *
 * Prints the case and the output size of the last operation. With "min-time" it also times the operations in batches
 * of about 20 us (clock_gettime) and prints the fastest batch's time per operation: a batch that the scheduler
 * interrupted, or that another process slowed, only ever makes a batch slower, so on a busy machine the minimum over
 * many batches is a usable, if rougher, stand-in for the idle time (the counts above do not depend on the machine).
 */
#define LZ4_STATIC_LINKING_ONLY
#define LZ4_HC_STATIC_LINKING_ONLY
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zstd.h"
#include "lz4.h"
#include "lz4hc.h"

typedef struct {
    int lz4, level;
    const unsigned char *src; size_t src_len;
    unsigned char *dst; size_t dst_cap;
    const unsigned char *frame; size_t frame_len;
    unsigned char *out; size_t out_cap;
    ZSTD_CCtx *cctx; ZSTD_DCtx *dctx;
    void *lz4_state;
} cell;

typedef size_t (*op_fn)(cell *c);

static size_t zstd_c(cell *c) {
    size_t r = ZSTD_compress2(c->cctx, c->dst, c->dst_cap, c->src, c->src_len);
    return ZSTD_isError(r) ? 0 : r;
}

static size_t zstd_d(cell *c) {
    size_t r = ZSTD_decompressDCtx(c->dctx, c->out, c->out_cap, c->frame, c->frame_len);
    return ZSTD_isError(r) ? 0 : r;
}

static size_t lz4_c(cell *c) {
    int r = c->level > 0
            ? LZ4_compress_HC_extStateHC_fastReset(c->lz4_state, (const char *) c->src, (char *) c->dst,
                                                   (int) c->src_len, (int) c->dst_cap, c->level)
            : LZ4_compress_fast_extState_fastReset(c->lz4_state, (const char *) c->src, (char *) c->dst,
                                                   (int) c->src_len, (int) c->dst_cap,
                                                   c->level < 0 ? -c->level : 1);
    return r > 0 ? (size_t) r : 0;
}

static size_t lz4_d(cell *c) {
    int r = LZ4_decompress_safe((const char *) c->frame, (char *) c->out, (int) c->frame_len, (int) c->out_cap);
    return r >= 0 ? (size_t) r : 0;
}

static void die(const char *what, const char *detail) {
    fprintf(stderr, "cref-count: %s: %s\n", what, detail);
    exit(1);
}

/* the measured region: callgrind's --toggle-collect=run_ops counts from entry to return */
__attribute__((noinline)) size_t run_ops(op_fn fn, cell *c, long ops) {
    size_t last = 0;
    for (long i = 0; i < ops; i++) {
        last = fn(c);
        __asm__ volatile("" ::: "memory");
    }
    return last;
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec * 1e9 + (double) t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 4 && !(argc == 5 && strcmp(argv[4], "min-time") == 0))
        die("usage", "cref-count <payload-dir> <codec:level:payload:compress|decompress> <ops> [min-time]");
    char spec[512];
    snprintf(spec, sizeof spec, "%s", argv[2]);
    char *codec = strtok(spec, ":"), *lvl = strtok(NULL, ":"), *payload = strtok(NULL, ":"), *op = strtok(NULL, ":");
    if (!codec || !lvl || !payload || !op) die("bad case", argv[2]);
    long ops = atol(argv[3]);
    if (ops < 1) die("bad ops", argv[3]);
    cell c = {0};
    c.lz4 = strcmp(codec, "lz4") == 0;
    if (!c.lz4 && strcmp(codec, "zstd") != 0) die("unknown codec", codec);
    c.level = atoi(lvl);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.bin", argv[1], payload);
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open payload", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *src = malloc(n > 0 ? (size_t) n : 1);
    if (!src || fread(src, 1, (size_t) n, f) != (size_t) n) die("cannot read payload", path);
    fclose(f);
    c.src = src; c.src_len = (size_t) n;
    c.out_cap = n > 0 ? (size_t) n : 1;
    c.out = malloc(c.out_cap);
    if (c.lz4) {
        c.dst_cap = (size_t) LZ4_compressBound((int) n);
        size_t sz = c.level > 0 ? (size_t) LZ4_sizeofStateHC() : (size_t) LZ4_sizeofState();
        c.lz4_state = malloc(sz);
        if (c.level > 0) LZ4_initStreamHC(c.lz4_state, sz); else LZ4_initStream(c.lz4_state, sz);
    } else {
        c.dst_cap = ZSTD_compressBound((size_t) n);
        c.cctx = ZSTD_createCCtx();
        c.dctx = ZSTD_createDCtx();
        if (ZSTD_isError(ZSTD_CCtx_setParameter(c.cctx, ZSTD_c_compressionLevel, c.level))) die("bad level", lvl);
    }
    c.dst = malloc(c.dst_cap);
    op_fn comp = c.lz4 ? lz4_c : zstd_c, decomp = c.lz4 ? lz4_d : zstd_d;
    size_t clen = comp(&c);
    if (clen == 0) die("compression failed", argv[2]);
    unsigned char *frame = malloc(clen);
    memcpy(frame, c.dst, clen);
    c.frame = frame; c.frame_len = clen;
    if (decomp(&c) != (size_t) n || memcmp(c.out, src, (size_t) n) != 0) die("round trip failed", argv[2]);
    op_fn fn;
    if (strcmp(op, "compress") == 0) fn = comp;
    else if (strcmp(op, "decompress") == 0) fn = decomp;
    else die("unknown operation", op);
    fn(&c); /* one untimed operation: first-touch of the output buffer, lazy binding */
    size_t last;
    if (argc == 5) {
        /* batch size: about 20 us per batch, at least one operation */
        double t0 = now_ns();
        fn(&c);
        double one = now_ns() - t0;
        long batch = one > 0 && one < 20000 ? (long) (20000 / one) : 1;
        double best = 1e300;
        for (long done = 0; done < ops; done += batch) {
            t0 = now_ns();
            last = run_ops(fn, &c, batch);
            double per = (now_ns() - t0) / (double) batch;
            if (per < best) best = per;
        }
        printf("%s ops=%ld batch=%ld min_ns_op=%.1f out=%zu\n", argv[2], ops, batch, best, last);
    } else {
        last = run_ops(fn, &c, ops);
        printf("%s ops=%ld out=%zu\n", argv[2], ops, last);
    }
    return last ? 0 : 1;
}
