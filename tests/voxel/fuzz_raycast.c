/* libFuzzer target: a random edit sequence in a small box, then rays; every
 * supported ISA (and 1 or 2 threads) against the scalar reference, and the
 * reference against the dense walk of voxel_dense.c. abort() on mismatch.
 *
 * Input: byte 0: box position selector; then edits of 8 bytes
 * (x, y, z, kind, mask bytes...) until a 0xFF marker, then rays of 28 bytes
 * (7 floats: ox, oy, oz, dx, dy, dz, tmax) read raw (NaN, Inf, subnormals
 * all reach the kernel). Origins are folded into the box's neighbourhood
 * unless the high bit of the first byte says raw. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "voxel_dense.h" /* voxel_dense.c is in wk_checks, linked into every fuzz target */
#include "worldkern/voxel.h"

enum { BOX = 12, MAX_RAYS = 64 };

static float fold(float v, int32_t lo) {
    if (!isfinite(v)) return v;
    double f = fmod((double)v, (double)(BOX + 8));
    if (f < 0) f += BOX + 8;
    return (float)((double)lo - 4.0 + f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    static const int32_t bases[8] = {0, -7, 13, 1 << 20, -(1 << 20), 2147483647 - 20, -2147483647 - 1, 1 << 24};
    int raw = data[0] & 0x80;
    int32_t base = bases[data[0] & 7];
    size_t at = 1;
    wk_voxel_world *w = NULL;
    if (wk_voxel_world_create(&w, NULL) != WK_OK) abort();
    dense_world dw = dense_new(base, base, base, BOX, BOX, BOX);
    while (at + 8 <= size && data[at] != 0xFF) {
        const uint8_t *e = data + at;
        int32_t x = base + e[0] % BOX, y = base + e[1] % BOX, z = base + e[2] % BOX;
        uint64_t m;
        switch (e[3] % 4) {
        case 0: m = 0; break;
        case 1: m = WK_VOXEL_FULL; break;
        default: m = ((uint64_t)e[4] << 56) | ((uint64_t)e[5] << 37) | ((uint64_t)e[6] << 18) | e[7]; break;
        }
        if (wk_voxel_set_sub(w, x, y, z, m) != WK_OK) abort();
        dense_set(&dw, x, y, z, m);
        at += 8;
    }
    at++;
    size_t n = 0;
    float f[7][MAX_RAYS];
    while (at + 28 <= size && n < MAX_RAYS) {
        for (int k = 0; k < 7; k++) memcpy(&f[k][n], data + at + 4 * k, 4);
        if (!raw)
            for (int k = 0; k < 3; k++) f[k][n] = fold(f[k][n], base);
        at += 28;
        n++;
    }
    float t[5][MAX_RAYS];
    int32_t xyz[5][3][MAX_RAYS];
    int8_t sf[5][2][MAX_RAYS];
    wk_rays rays = {f[0], f[1], f[2], f[3], f[4], f[5], f[6], n, {0}};
    static const int isas[4] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    wk_status ref_status = WK_OK;
    for (int v = 0; v < 5; v++) {
        int isa = v < 4 ? isas[v] : WK_ISA_DEFAULT;
        if (v < 4 && !wk_isa_supported((wk_isa)isa)) continue;
        wk_exec e = WK_EXEC_DEFAULTS;
        e.isa = isa;
        e.threads = v == 4 ? 2 : 1;
        wk_hits hits = {t[v], xyz[v][0], xyz[v][1], xyz[v][2], sf[v][0], sf[v][1], {0}};
        wk_status s = wk_voxel_raycast(w, &rays, &hits, &e);
        if (v == 0) ref_status = s;
        else if (s != ref_status) abort();
        if (s != WK_OK || v == 0) continue;
        if (memcmp(t[v], t[0], n * 4) || memcmp(xyz[v], xyz[0], sizeof xyz[0]) || memcmp(sf[v], sf[0], sizeof sf[0]))
            for (size_t i = 0; i < n; i++)
                if (memcmp(&t[v][i], &t[0][i], 4) || xyz[v][0][i] != xyz[0][0][i] || xyz[v][1][i] != xyz[0][1][i] ||
                    xyz[v][2][i] != xyz[0][2][i] || sf[v][0][i] != sf[0][0][i] || sf[v][1][i] != sf[0][1][i])
                    abort();
    }
    if (ref_status == WK_OK && !raw)
        for (size_t i = 0; i < n; i++) {
            float o[3] = {f[0][i], f[1][i], f[2][i]}, d[3] = {f[3][i], f[4][i], f[5][i]};
            dense_hit hh;
            dense_cast(&dw, o, d, f[6][i], 0, &hh);
            if (memcmp(&hh.t, &t[0][i], 4) || hh.x != xyz[0][0][i] || hh.y != xyz[0][1][i] || hh.z != xyz[0][2][i] ||
                hh.sub != sf[0][0][i] || hh.face != sf[0][1][i])
                abort();
        }
    dense_free(&dw);
    wk_voxel_world_destroy(w);
    return 0;
}
