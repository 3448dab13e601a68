/* libFuzzer target: wk_noise_fbm2_points / wk_noise_fbm3_points. The bytes
 * give the fBm settings (lattice, fractal, seed, octaves, frequency,
 * lacunarity, gain, normalize), the dimension and the coordinates (raw
 * doubles: NaN, Inf, huge and denormal values included). Every supported
 * ISA must return the scalar reference's status and bits; on an error the
 * output must be untouched. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/noise.h"

enum { MAX_POINTS = 300 };

static size_t take(const uint8_t **data, size_t *size, void *out, size_t n) {
    size_t m = *size < n ? *size : n;
    memset(out, 0, n);
    memcpy(out, *data, m);
    *data += m;
    *size -= m;
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t head[8];
    take(&data, &size, head, sizeof head);
    wk_fbm f = WK_FBM_DEFAULTS;
    f.lattice = head[0] % 3;           /* 2: invalid */
    f.fractal = head[1] % 4;           /* 3: invalid */
    f.octaves = head[2] % 18;          /* 0, 17: invalid */
    f.normalize = head[3] & 1;
    int dims = 2 + (head[3] >> 1 & 1);
    take(&data, &size, &f.seed, sizeof f.seed);
    if (head[4] & 1) take(&data, &size, &f.frequency, sizeof f.frequency);
    if (head[4] & 2) take(&data, &size, &f.lacunarity, sizeof f.lacunarity);
    if (head[4] & 4) take(&data, &size, &f.gain, sizeof f.gain);
    if (head[4] & 8) f.frequency = 1.0 / (1 + head[5]);
    size_t n = size / (sizeof(double) * (size_t)dims);
    if (n > MAX_POINTS) n = MAX_POINTS;
    double *c[3];
    for (int a = 0; a < 3; a++) c[a] = calloc(n + 1, sizeof(double));
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < dims; a++) {
            take(&data, &size, &c[a][i], sizeof(double));
            if (head[6] & 1) { /* moderate coordinates on half cells */
                double v = c[a][i];
                c[a][i] = (v == v && fabs(v) < 1e9 ? floor(v) : 0.0) + 0.5;
            }
        }
    float *ref = malloc((n + 1) * sizeof(float)), *out = malloc((n + 1) * sizeof(float));
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = WK_ISA_SCALAR;
    e.threads = 1;
    memset(ref, 0xCD, (n + 1) * sizeof(float));
    wk_status want = dims == 2 ? wk_noise_fbm2_points(&f, c[0], c[1], n, ref, &e)
                               : wk_noise_fbm3_points(&f, c[0], c[1], c[2], n, ref, &e);
    static const int isas[] = {WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    for (size_t t = 0; t < sizeof isas / sizeof isas[0]; t++) {
        if (!wk_isa_supported((wk_isa)isas[t])) continue;
        e.isa = isas[t];
        e.threads = head[7] % 4;
        memset(out, 0xCD, (n + 1) * sizeof(float));
        wk_status got = dims == 2 ? wk_noise_fbm2_points(&f, c[0], c[1], n, out, &e)
                                  : wk_noise_fbm3_points(&f, c[0], c[1], c[2], n, out, &e);
        if (got != want || memcmp(out, ref, (n + 1) * sizeof(float)) != 0) abort();
    }
    if (want != WK_OK)
        for (size_t i = 0; i <= n; i++) {
            uint32_t bits;
            memcpy(&bits, &ref[i], 4);
            if (bits != 0xCDCDCDCDu) abort(); /* written on error */
        }
    free(ref), free(out);
    for (int a = 0; a < 3; a++) free(c[a]);
    return 0;
}
