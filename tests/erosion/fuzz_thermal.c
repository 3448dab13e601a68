/* libFuzzer target for wk_erosion_thermal: sizes, stride, talus (NaN, Inf,
 * negative included), iterations, band cut and heights (any bits) from the
 * input; every supported ISA, on 1 and 2 threads, must return the scalar
 * reference's status and bits, and never touch floats between rows. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "erosion/erosion_impl.h" /* the band-cut test hook */
#include "worldkern/erosion.h"

static uint32_t take(const uint8_t **p, size_t *n, int bytes) {
    uint32_t v = 0;
    for (int i = 0; i < bytes; i++) {
        v |= (uint32_t)(*n ? **p : 0) << (8 * i);
        if (*n) (*p)++, (*n)--;
    }
    return v;
}

static const uint32_t CANARY = 0x7FA5C3E1u;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *p = data;
    size_t n = size;
    uint32_t w = 1 + take(&p, &n, 1) % 40, h = 1 + take(&p, &n, 1) % 40;
    size_t stride = w + take(&p, &n, 1) % 4;
    uint32_t iterations = take(&p, &n, 1) % 24;
    uint32_t talus_bits = take(&p, &n, 4);
    uint32_t cut = take(&p, &n, 1);
    float talus;
    if ((talus_bits >> 28) < 12) talus = (float)(talus_bits & 0xFFFF) / 8192.0f; /* mostly small and sane */
    else memcpy(&talus, &talus_bits, sizeof talus);
    size_t floats = (size_t)(h - 1) * stride + w;
    float *in = malloc(floats * sizeof(float)), *ref = malloc(floats * sizeof(float)),
          *out = malloc(floats * sizeof(float));
    if (!in || !ref || !out) abort();
    int raw = (take(&p, &n, 1) & 3) == 0; /* raw float bits (NaN, Inf, huge) or small heights */
    for (size_t i = 0; i < floats; i++) {
        uint32_t bits = take(&p, &n, raw ? 4 : 1);
        float v;
        if (raw) memcpy(&v, &bits, sizeof v);
        else v = (float)bits / 32.0f;
        if (i % stride >= w) memcpy(&v, &CANARY, sizeof v);
        in[i] = v;
    }
    size_t scratch_floats = 0;
    if (wk_erosion_scratch_bound(w, h, 4, &scratch_floats) != WK_OK) abort();
    float *scratch = malloc(scratch_floats * sizeof(float));
    if (!scratch) abort();
    wk_heightmap map = {ref, w, h, stride, {0, 0}};
    wk__erosion_tuning tune = {cut & 7, (cut >> 3) & 7};
    wk__erosion_tune = tune;
    memcpy(ref, in, floats * sizeof(float));
    wk_exec scalar = {1, WK_ISA_SCALAR, 0, 0, {0, 0, 0, 0}};
    wk_status s_ref = wk_erosion_thermal(&map, talus, iterations, scratch, scratch_floats, &scalar);
    if (s_ref != WK_OK && memcmp(ref, in, floats * sizeof(float)) != 0) abort(); /* untouched on error */
    for (size_t i = 0; i < floats; i++)
        if (i % stride >= w && memcmp(&ref[i], &CANARY, sizeof(float)) != 0) abort();
    static const wk_isa isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    for (size_t k = 0; k < sizeof isas / sizeof isas[0]; k++) {
        if (!wk_isa_supported(isas[k])) continue;
        for (int threads = 1; threads <= 2; threads++) {
            wk_exec e = {threads, (int32_t)isas[k], 0, 0, {0, 0, 0, 0}};
            memcpy(out, in, floats * sizeof(float));
            map.v = out;
            wk_status s = wk_erosion_thermal(&map, talus, iterations, scratch, scratch_floats, &e);
            if (s != s_ref || memcmp(out, ref, floats * sizeof(float)) != 0) abort();
        }
    }
    wk__erosion_tuning none = {0, 0};
    wk__erosion_tune = none;
    free(scratch);
    free(in);
    free(ref);
    free(out);
    return 0;
}
