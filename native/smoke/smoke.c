/* Smoke test of the bundled libraries on one platform, linked against them like any C program: round-trips data
 * through zstd (single-threaded and with worker threads), the LZ4 block API and the LZ4 frame API, and prints what it
 * checked. Exits non-zero on the first mismatch. Declares the few functions it uses instead of including the
 * libraries' headers, so it builds with nothing but a C compiler.
 *
 *   smoke [--write DIR] [--read DIR]
 *
 * --write DIR saves the zstd frame (one thread), the LZ4 frame and the LZ4 block it made as DIR/smoke.{zst,lz4,lz4b};
 * --read DIR decodes those files written by another platform (another byte order: s390x against x86-64) and checks
 * that they give back the same input, which every platform generates identically. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned ZSTD_versionNumber(void);
size_t ZSTD_compressBound(size_t srcSize);
unsigned ZSTD_isError(size_t code);
const char *ZSTD_getErrorName(size_t code);
void *ZSTD_createCCtx(void);
size_t ZSTD_freeCCtx(void *cctx);
size_t ZSTD_CCtx_setParameter(void *cctx, int param, int value);
size_t ZSTD_compress2(void *cctx, void *dst, size_t dstCapacity, const void *src, size_t srcSize);
size_t ZSTD_decompress(void *dst, size_t dstCapacity, const void *src, size_t compressedSize);
unsigned long long ZSTD_getFrameContentSize(const void *src, size_t srcSize);
#define ZSTD_c_compressionLevel 100
#define ZSTD_c_nbWorkers 400

int LZ4_versionNumber(void);
int LZ4_compressBound(int inputSize);
int LZ4_compress_default(const char *src, char *dst, int srcSize, int dstCapacity);
int LZ4_decompress_safe(const char *src, char *dst, int compressedSize, int dstCapacity);
size_t LZ4F_compressFrameBound(size_t srcSize, const void *prefs);
size_t LZ4F_compressFrame(void *dst, size_t dstCapacity, const void *src, size_t srcSize, const void *prefs);
unsigned LZ4F_isError(size_t code);
size_t LZ4F_createDecompressionContext(void **dctx, unsigned version);
size_t LZ4F_freeDecompressionContext(void *dctx);
size_t LZ4F_decompress(void *dctx, void *dst, size_t *dstSize, const void *src, size_t *srcSize, const void *opts);

static int save(const char *dir, const char *name, const char *data, size_t len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) return 0;
    return 1;
}

static char *load(const char *dir, const char *name, size_t *len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(64u << 20);
    *len = buf ? fread(buf, 1, 64u << 20, f) : 0;
    fclose(f);
    return buf;
}

static int fail(const char *what, const char *detail) {
    fprintf(stderr, "smoke: FAILED %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

int main(int argc, char **argv) {
    const char *writeDir = NULL, *readDir = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--write") == 0) writeDir = argv[i + 1];
        else if (strcmp(argv[i], "--read") == 0) readDir = argv[i + 1];
    }
    const size_t n = 4u << 20; /* big enough for zstd's workers to split it into jobs */
    char *src = malloc(n), *back = malloc(n);
    size_t zcap = ZSTD_compressBound(n), fcap = LZ4F_compressFrameBound(n, NULL);
    char *dst = malloc(zcap > fcap ? zcap : fcap);
    unsigned x = 12345;
    if (!src || !back || !dst) return fail("malloc", NULL);
    for (size_t i = 0; i < n; i++) { /* text-like: repeated words with some noise */
        x = x * 1103515245u + 12345u;
        src[i] = (x >> 24) % 7 == 0 ? (char) ('a' + (x >> 16) % 26) : "the quick brown fox "[i % 20];
    }

    for (int workers = 0; workers <= 2; workers += 2) {
        void *cctx = ZSTD_createCCtx();
        if (!cctx) return fail("ZSTD_createCCtx", NULL);
        size_t r = ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 3);
        if (ZSTD_isError(r)) return fail("ZSTD_c_compressionLevel", ZSTD_getErrorName(r));
        r = ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, workers);
        if (ZSTD_isError(r)) return fail("ZSTD_c_nbWorkers (built without ZSTD_MULTITHREAD?)", ZSTD_getErrorName(r));
        size_t c = ZSTD_compress2(cctx, dst, zcap, src, n);
        if (ZSTD_isError(c)) return fail("ZSTD_compress2", ZSTD_getErrorName(c));
        ZSTD_freeCCtx(cctx);
        if (ZSTD_getFrameContentSize(dst, c) != n) return fail("ZSTD_getFrameContentSize", NULL);
        memset(back, 0, n);
        size_t d = ZSTD_decompress(back, n, dst, c);
        if (ZSTD_isError(d)) return fail("ZSTD_decompress", ZSTD_getErrorName(d));
        if (d != n || memcmp(src, back, n) != 0) return fail("zstd round trip", "bytes differ");
        if (workers == 0 && writeDir && !save(writeDir, "smoke.zst", dst, c)) return fail("writing smoke.zst", writeDir);
        printf("zstd %u: %zu -> %zu bytes with %d workers, round trip ok\n", ZSTD_versionNumber(), n, c, workers);
    }

    int lc = LZ4_compress_default(src, dst, (int) n, LZ4_compressBound((int) n));
    if (lc <= 0) return fail("LZ4_compress_default", NULL);
    memset(back, 0, n);
    if (LZ4_decompress_safe(dst, back, lc, (int) n) != (int) n || memcmp(src, back, n) != 0)
        return fail("lz4 block round trip", "bytes differ");
    printf("lz4 %d: block %zu -> %d bytes, round trip ok\n", LZ4_versionNumber(), n, lc);
    if (writeDir && !save(writeDir, "smoke.lz4b", dst, (size_t) lc)) return fail("writing smoke.lz4b", writeDir);

    size_t fc = LZ4F_compressFrame(dst, fcap, src, n, NULL);
    if (LZ4F_isError(fc)) return fail("LZ4F_compressFrame", NULL);
    void *dctx = NULL;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, 100))) return fail("LZ4F_createDecompressionContext", NULL);
    size_t out = n, in = fc;
    memset(back, 0, n);
    size_t fr = LZ4F_decompress(dctx, back, &out, dst, &in, NULL);
    LZ4F_freeDecompressionContext(dctx);
    if (LZ4F_isError(fr) || fr != 0 || out != n || in != fc || memcmp(src, back, n) != 0)
        return fail("lz4 frame round trip", "bytes differ or frame incomplete");
    printf("lz4 frame: %zu -> %zu bytes, round trip ok\n", n, fc);
    if (writeDir) {
        if (!save(writeDir, "smoke.lz4", dst, fc)) return fail("writing smoke.lz4", writeDir);
        printf("wrote smoke.zst, smoke.lz4, smoke.lz4b to %s\n", writeDir);
    }

    if (readDir) { /* frames another platform made from the same input */
        size_t len;
        char *z = load(readDir, "smoke.zst", &len);
        if (!z) return fail("reading smoke.zst", readDir);
        memset(back, 0, n);
        size_t d = ZSTD_decompress(back, n, z, len);
        if (ZSTD_isError(d) || d != n || memcmp(src, back, n) != 0) return fail("decoding the other platform's smoke.zst", NULL);
        free(z);
        char *b = load(readDir, "smoke.lz4b", &len);
        if (!b) return fail("reading smoke.lz4b", readDir);
        memset(back, 0, n);
        if (LZ4_decompress_safe(b, back, (int) len, (int) n) != (int) n || memcmp(src, back, n) != 0)
            return fail("decoding the other platform's smoke.lz4b", NULL);
        free(b);
        char *f = load(readDir, "smoke.lz4", &len);
        if (!f) return fail("reading smoke.lz4", readDir);
        dctx = NULL;
        if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, 100))) return fail("LZ4F_createDecompressionContext", NULL);
        out = n; in = len;
        memset(back, 0, n);
        fr = LZ4F_decompress(dctx, back, &out, f, &in, NULL);
        LZ4F_freeDecompressionContext(dctx);
        if (LZ4F_isError(fr) || fr != 0 || out != n || in != len || memcmp(src, back, n) != 0)
            return fail("decoding the other platform's smoke.lz4", NULL);
        free(f);
        printf("read smoke.zst, smoke.lz4, smoke.lz4b from %s: all decode to the same input\n", readDir);
    }
    free(src); free(back); free(dst);
    return 0;
}
