/* libFuzzer target: wk_remap and wk_pow with fuzzed ranges, exponents and
 * inputs (raw floats), every supported ISA against the scalar reference:
 * same status, same bits, untouched output on error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/array.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    float p[5] = {0, 1, 0, 1, 2};
    uint8_t op = size ? data[0] : 0;
    if (size) data++, size--;
    size_t np = size < sizeof p ? size : sizeof p;
    memcpy(p, data, np);
    data += np, size -= np;
    size_t n = size / sizeof(float);
    if (n > 1000) n = 1000;
    float *x = malloc((n + 1) * sizeof(float)), *ref = malloc((n + 1) * sizeof(float));
    float *out = malloc((n + 1) * sizeof(float));
    memcpy(x, data, n * sizeof(float));
    int in_place = op & 2;
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = WK_ISA_SCALAR;
    e.threads = 1;
    memset(ref, 0xCD, (n + 1) * sizeof(float));
    if (in_place) memcpy(ref, x, n * sizeof(float));
    const float *src = in_place ? ref : x;
    wk_status want = op & 1 ? wk_pow(src, n, p[4], ref, &e) : wk_remap(src, n, p[0], p[1], p[2], p[3], ref, &e);
    static const int isas[] = {WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    for (size_t t = 0; t < 3; t++) {
        if (!wk_isa_supported((wk_isa)isas[t])) continue;
        e.isa = isas[t];
        e.threads = op >> 4 & 3;
        memset(out, 0xCD, (n + 1) * sizeof(float));
        if (in_place) memcpy(out, x, n * sizeof(float));
        const float *s2 = in_place ? out : x;
        wk_status got = op & 1 ? wk_pow(s2, n, p[4], out, &e) : wk_remap(s2, n, p[0], p[1], p[2], p[3], out, &e);
        if (got != want || memcmp(out, ref, (n + 1) * sizeof(float)) != 0) abort();
    }
    if (want != WK_OK && !in_place)
        for (size_t i = 0; i <= n; i++) {
            uint32_t bits;
            memcpy(&bits, &ref[i], 4);
            if (bits != 0xCDCDCDCDu) abort();
        }
    free(x), free(ref), free(out);
    return 0;
}
