/* libFuzzer target: wk_noise_perlin2 / wk_noise_perlin3 at fuzzed float
 * points (raw bits: NaN, Inf, huge, denormal) with a fuzzed seed, and
 * wk_minmax over the same floats; every supported ISA and thread count
 * against the scalar reference: same status, same bits, nothing written past
 * the outputs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/array.h"
#include "worldkern/noise.h"

enum { MAX_POINTS = 1000 };

/* One run: perlin (2D when dims is 2) into out[0..n), minmax into out[n..n+2). */
static wk_status run(int dims, const float *xyz, size_t n, uint32_t seed, float *out, const wk_exec *e) {
    wk_status s = dims == 2 ? wk_noise_perlin2(xyz, xyz + n, n, seed, out, e)
                            : wk_noise_perlin3(xyz, xyz + n, xyz + 2 * n, n, seed, out, e);
    if (s == WK_OK) s = wk_minmax(xyz, 3 * n, &out[n], &out[n + 1], e);
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 5) return 0;
    int dims = data[0] & 1 ? 3 : 2;
    int threads = data[0] >> 1 & 3;
    uint32_t seed;
    memcpy(&seed, data + 1, 4);
    data += 5, size -= 5;
    size_t n = size / (3 * sizeof(float));
    if (n > MAX_POINTS) n = MAX_POINTS;
    float *xyz = calloc(3 * n + 1, sizeof(float));
    float *ref = malloc((n + 3) * sizeof(float)), *out = malloc((n + 3) * sizeof(float));
    if (!xyz || !ref || !out) abort();
    memcpy(xyz, data, 3 * n * sizeof(float));
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = WK_ISA_SCALAR;
    e.threads = 1;
    memset(ref, 0xCD, (n + 3) * sizeof(float));
    wk_status want = run(dims, xyz, n, seed, ref, &e);
    static const int isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    for (size_t t = 0; t < sizeof isas / sizeof isas[0]; t++) {
        if (!wk_isa_supported((wk_isa)isas[t])) continue;
        e.isa = isas[t];
        e.threads = threads;
        memset(out, 0xCD, (n + 3) * sizeof(float));
        wk_status got = run(dims, xyz, n, seed, out, &e);
        if (got != want || memcmp(out, ref, (n + 3) * sizeof(float)) != 0) abort();
    }
    free(xyz), free(ref), free(out);
    return 0;
}
