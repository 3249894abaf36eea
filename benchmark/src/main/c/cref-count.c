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
#define CREF_NAME "cref-count"
#include "cref-cell.h"

/* the measured region: callgrind's --toggle-collect=run_ops counts from entry to return */
__attribute__((noinline)) size_t run_ops(op_fn fn, cell *c, long ops) {
    size_t last = 0;
    for (long i = 0; i < ops; i++) {
        last = fn(c);
        __asm__ volatile("" ::: "memory");
    }
    return last;
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
    cell c;
    op_fn comp, decomp;
    cell_open(&c, argv[1], codec, lvl, payload, argv[2], &comp, &decomp);
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
