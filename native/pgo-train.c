/*
 * The training run of linux-x86_64's profile-guided libzstd (build-natives.sh): compresses and decompresses slices of
 * the repository's test data (testdata/: English text from the Canterbury corpus and the JSON records), 128 B to
 * 256 KiB, at levels 3 (the default) and 1, through the calls the Java binding makes (ZSTD_compress2 and
 * ZSTD_decompressDCtx on reused contexts), against the instrumented library. gcc then optimises the library for the
 * branches and calls this run took; code it never ran is optimised as without a profile
 * (-fprofile-partial-training).
 *
 * Deterministic: fixed files (their SHA-256 is part of the build's cache key and TestDataFilesTest pins them), fixed
 * counts, no clock, so two builds record the same profile and make the same library (tools/check-reproducible.sh).
 * Exits non-zero if a file cannot be read or a round trip fails, which stops the build.
 *
 *   pgo-train <file>...        each file's first 128 B, 1 KiB, 16 KiB and 64 KiB, and 256 KiB of all files in turn
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define MAX_SLICE (256 * 1024)

static void die(const char *what, const char *detail) {
    fprintf(stderr, "pgo-train: %s: %s\n", what, detail);
    exit(1);
}

/* appends the file's bytes to buf[*len, cap) (as many as fit) */
static void append(const char *path, char *buf, size_t *len, size_t cap) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot read", path);
    *len += fread(buf + *len, 1, cap - *len, f);
    fclose(f);
}

/* compresses and decompresses src[0, n) at each level, about 4 MiB of input at level 3 and 1 MiB at level 1 */
static void train(ZSTD_CCtx *cctx, ZSTD_DCtx *dctx, const char *src, size_t n, char *frame, size_t bound, char *out) {
    static const int levels[] = {3, 1};
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        unsigned ops = (unsigned) ((levels[l] == 3 ? 4u << 20 : 1u << 20) / n);
        size_t r = ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, levels[l]), len = 0;
        if (ZSTD_isError(r)) die("setParameter", ZSTD_getErrorName(r));
        for (unsigned i = 0; i < ops; i++) {
            len = ZSTD_compress2(cctx, frame, bound, src, n);
            if (ZSTD_isError(len)) die("compress", ZSTD_getErrorName(len));
        }
        for (unsigned i = 0; i < ops; i++) {
            r = ZSTD_decompressDCtx(dctx, out, n, frame, len);
            if (ZSTD_isError(r)) die("decompress", ZSTD_getErrorName(r));
            if (r != n) die("decompress", "wrong size");
        }
        if (memcmp(src, out, n) != 0) die("round trip", "different bytes");
    }
}

int main(int argc, char **argv) {
    static const size_t sizes[] = {128, 1024, 16384, 65536};
    size_t bound = ZSTD_compressBound(MAX_SLICE), all = 0;
    char *src = malloc(MAX_SLICE), *mix = malloc(MAX_SLICE), *frame = malloc(bound), *out = malloc(MAX_SLICE);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    if (argc < 2) die("usage", "pgo-train <file>...");
    if (!src || !mix || !frame || !out || !cctx || !dctx) die("out of memory", "");
    for (int a = 1; a < argc; a++) {
        size_t len = 0;
        append(argv[a], src, &len, MAX_SLICE);
        if (all < MAX_SLICE) append(argv[a], mix, &all, MAX_SLICE);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0] && sizes[s] <= len; s++) {
            train(cctx, dctx, src, sizes[s], frame, bound, out);
        }
    }
    if (all == MAX_SLICE) train(cctx, dctx, mix, all, frame, bound, out);
    ZSTD_freeCCtx(cctx);
    ZSTD_freeDCtx(dctx);
    free(src); free(mix); free(frame); free(out);
    return 0;
}
