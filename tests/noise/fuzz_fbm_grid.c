/* libFuzzer target: the grid entries (fbm2/3 grids, 2D/3D derivatives,
 * 2D/3D domain warp) with fuzzed fBm settings (fractals included), grid
 * origins, steps and sizes (small), against the scalar reference on every
 * supported ISA: same status, same bits, untouched output on error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/noise.h"

static void take(const uint8_t **data, size_t *size, void *out, size_t n) {
    size_t m = *size < n ? *size : n;
    memset(out, 0, n);
    memcpy(out, *data, m);
    *data += m;
    *size -= m;
}

enum { MAXN = 24 };

static wk_status run(int which, const wk_fbm *f, const wk_warp *w, const wk_grid2 *g2, const wk_grid3 *g3, float *o,
                     size_t n, const wk_exec *e) {
    switch (which) {
    case 0: return wk_noise_fbm2_grid(f, g2, o, e);
    case 1: return wk_noise_fbm3_grid(f, g3, o, e);
    case 2: return wk_noise_fbm2_grid_deriv(f, g2, o, o + n, o + 2 * n, e);
    case 3: return wk_noise_fbm3_grid_deriv(f, g3, o, o + n, o + 2 * n, o + 3 * n, e);
    case 4: return wk_noise_fbm2_grid_warp(f, w, g2, o, e);
    default: return wk_noise_fbm3_grid_warp(f, w, g3, o, e);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t h[12];
    take(&data, &size, h, sizeof h);
    int which = h[0] % 6;
    wk_fbm f = WK_FBM_DEFAULTS;
    f.lattice = h[1] % 3;
    f.fractal = h[2] % 4;
    f.octaves = h[3] % 18;
    f.normalize = h[4] & 1;
    take(&data, &size, &f.seed, 4);
    if (h[4] & 2) take(&data, &size, &f.frequency, 8);
    if (h[4] & 4) take(&data, &size, &f.gain, 4);
    if (h[4] & 8) take(&data, &size, &f.lacunarity, 8);
    wk_warp w = WK_WARP_DEFAULTS;
    w.noise.lattice = h[5] & 1;
    w.noise.octaves = 1 + h[5] % 3;
    if (h[5] & 8) take(&data, &size, &w.amplitude, 8);
    double step = 0.37;
    if (h[6] & 1) take(&data, &size, &step, 8);
    int64_t o[3];
    take(&data, &size, o, sizeof o);
    if (!(h[6] & 2))
        for (int a = 0; a < 3; a++) o[a] >>= (h[7] % 64); /* mostly moderate origins */
    uint32_t nx = h[8] % MAXN, ny = h[9] % 5, nz = h[10] % 4;
    wk_grid2 g2 = {o[0], o[1], nx, ny, step, (size_t)nx + (h[11] & 3), {0, 0}};
    wk_grid3 g3 = {o[0], o[1], o[2], nx, ny, nz, step, (size_t)nx + (h[11] & 1), 0, {0, 0}};
    g3.slice_stride = ny ? ((size_t)ny - 1) * g3.stride + nx + (h[11] >> 2 & 3) : nx;
    size_t n = (size_t)g3.slice_stride * (nz ? nz : 1) + (size_t)g2.stride * (ny ? ny : 1) + 8;
    size_t total = 4 * n;
    float *ref = malloc(total * sizeof(float)), *out = malloc(total * sizeof(float));
    memset(ref, 0xCD, total * sizeof(float));
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = WK_ISA_SCALAR;
    e.threads = 1;
    wk_status want = run(which, &f, &w, &g2, &g3, ref, n, &e);
    static const int isas[] = {WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    for (size_t t = 0; t < 3; t++) {
        if (!wk_isa_supported((wk_isa)isas[t])) continue;
        e.isa = isas[t];
        e.threads = h[11] >> 4 & 3;
        memset(out, 0xCD, total * sizeof(float));
        wk_status got = run(which, &f, &w, &g2, &g3, out, n, &e);
        if (got != want || memcmp(out, ref, total * sizeof(float)) != 0) abort();
    }
    if (want != WK_OK)
        for (size_t i = 0; i < total; i++) {
            uint32_t bits;
            memcpy(&bits, &ref[i], 4);
            if (bits != 0xCDCDCDCDu) abort();
        }
    free(ref), free(out);
    return 0;
}
