/*
 * For liblz4 builds that do not export the fastReset entry points (aircompressor's): the harness's two lz4 compress
 * calls mapped to the full-reset forms. Linked into cref-count (tools/toolchain-counts.sh, CREF_EXTRA), it replaces
 * those entry points for every library the harness runs on, so all of them run the same functions; the full reset
 * clears the 16 KiB state each call, which matters only for small inputs.
 */
#define LZ4_STATIC_LINKING_ONLY
#define LZ4_HC_STATIC_LINKING_ONLY
#include <lz4.h>
#include <lz4hc.h>

int LZ4_compress_fast_extState_fastReset(void *state, const char *src, char *dst, int srcSize, int dstCapacity,
                                         int acceleration) {
    return LZ4_compress_fast_extState(state, src, dst, srcSize, dstCapacity, acceleration);
}

int LZ4_compress_HC_extStateHC_fastReset(void *state, const char *src, char *dst, int srcSize, int dstCapacity,
                                         int compressionLevel) {
    return LZ4_compress_HC_extStateHC(state, src, dst, srcSize, dstCapacity, compressionLevel);
}
