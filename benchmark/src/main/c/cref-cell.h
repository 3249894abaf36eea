/*
 * One measured case of the C references (cref.c times it, cref-count.c counts it): a payload file, one reused
 * context, one zstd frame or lz4 block per operation, prepared the way the Java contestants prepare theirs.
 * Define CREF_NAME (the program's name, for error messages) before including this file.
 */
#ifndef CREF_CELL_H
#define CREF_CELL_H

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

/* one codec operation on the cell's prepared buffers; returns the output size (0 = failure) */
typedef size_t (*op_fn)(cell *c);

/* prints "<CREF_NAME>: <what>: <detail>" and exits with status 1 */
static void die(const char *what, const char *detail) {
    fprintf(stderr, "%s: %s: %s\n", CREF_NAME, what, detail);
    exit(1);
}

/* monotonic clock in nanoseconds */
static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec * 1e9 + (double) t.tv_nsec;
}

static size_t zstd_c(cell *c) {
    size_t r = ZSTD_compress2(c->cctx, c->dst, c->dst_cap, c->src, c->src_len);
    return ZSTD_isError(r) ? 0 : r;
}

static size_t zstd_d(cell *c) {
    size_t r = ZSTD_decompressDCtx(c->dctx, c->out, c->out_cap, c->frame, c->frame_len);
    return ZSTD_isError(r) ? 0 : r;
}

/* lz4 level: 0 default (acceleration 1), < 0 acceleration -level, > 0 HC level */
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

/*
 * Prepares case <codec>:<level> on <dir>/<payload>.bin: reads the payload, makes the context, compresses once into
 * a separate frame copy (decompression reads that copy, like the Java cells) and checks the round trip; dies on any
 * failure, naming `spec`. Sets *compress and *decompress to the cell's two operations.
 */
static void cell_open(cell *c, const char *dir, const char *codec, const char *lvl, const char *payload,
                      const char *spec, op_fn *compress, op_fn *decompress) {
    memset(c, 0, sizeof *c);
    c->lz4 = strcmp(codec, "lz4") == 0;
    if (!c->lz4 && strcmp(codec, "zstd") != 0) die("unknown codec", codec);
    c->level = atoi(lvl);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.bin", dir, payload);
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open payload", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *src = malloc(n > 0 ? (size_t) n : 1);
    if (!src || fread(src, 1, (size_t) n, f) != (size_t) n) die("cannot read payload", path);
    fclose(f);
    c->src = src; c->src_len = (size_t) n;
    c->out_cap = n > 0 ? (size_t) n : 1;
    c->out = malloc(c->out_cap);
    if (c->lz4) {
        c->dst_cap = (size_t) LZ4_compressBound((int) n);
        size_t sz = c->level > 0 ? (size_t) LZ4_sizeofStateHC() : (size_t) LZ4_sizeofState();
        c->lz4_state = malloc(sz);
        if (c->level > 0) LZ4_initStreamHC(c->lz4_state, sz); else LZ4_initStream(c->lz4_state, sz);
    } else {
        c->dst_cap = ZSTD_compressBound((size_t) n);
        c->cctx = ZSTD_createCCtx();
        c->dctx = ZSTD_createDCtx();
        if (ZSTD_isError(ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_compressionLevel, c->level)))
            die("bad zstd level", lvl);
    }
    c->dst = malloc(c->dst_cap);
    *compress = c->lz4 ? lz4_c : zstd_c;
    *decompress = c->lz4 ? lz4_d : zstd_d;
    size_t clen = (*compress)(c);
    if (clen == 0) die("compression failed", spec);
    unsigned char *frame = malloc(clen);
    memcpy(frame, c->dst, clen);
    c->frame = frame; c->frame_len = clen;
    if ((*decompress)(c) != (size_t) n || memcmp(c->out, src, (size_t) n) != 0) die("round trip failed", spec);
}

/* frees what cell_open allocated */
static inline void cell_close(cell *c) {
    free((void *) c->frame); free(c->dst); free(c->out); free((void *) c->src); free(c->lz4_state);
    ZSTD_freeCCtx(c->cctx);
    ZSTD_freeDCtx(c->dctx);
}

#endif
