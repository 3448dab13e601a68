/* libFuzzer target for the other entries: a bulk box edit (wk_voxel_set_box)
 * plus single edits, then segments and point queries, on 1 and 2 threads and
 * every ISA cap, against the dense walk and the dense box of voxel_dense.c.
 * abort() on mismatch.
 *
 * Input: byte 0 selects the box position; bytes 1..3 the box size (1..8
 * each), then nx * ny * nz bytes (low bit: solid), then edits of 8 bytes up
 * to a 0xFF marker, then segments of 24 bytes (6 floats, raw bits; folded
 * near the box when finite). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "voxel_dense.h" /* voxel_dense.c is in wk_checks, linked into every fuzz target */
#include "worldkern/voxel.h"

enum { BOX = 10, MAX_SEG = 48 };

static float fold(float v, int32_t lo) {
    if (!isfinite(v)) return v;
    double f = fmod((double)v, (double)(BOX + 6));
    if (f < 0) f += BOX + 6;
    return (float)((double)lo - 3.0 + f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 4) return 0;
    static const int32_t bases[4] = {0, -5, 1 << 20, -(1 << 22)};
    int32_t base = bases[data[0] & 3];
    uint32_t nx = 1 + data[1] % 8, ny = 1 + data[2] % 8, nz = 1 + data[3] % 8;
    size_t at = 4;
    wk_voxel_world *w = NULL;
    if (wk_voxel_world_create(&w, NULL) != WK_OK) abort();
    dense_world dw = dense_new(base, base, base, BOX, BOX, BOX);
    uint8_t box[512];
    for (size_t i = 0; i < (size_t)nx * ny * nz; i++) box[i] = at + i < size ? data[at + i] & 1 : 0;
    at += (size_t)nx * ny * nz;
    if (wk_voxel_set_box(w, base + 1, base + 1, base + 1, nx, ny, nz, box, nx, (size_t)nx * ny) != WK_OK) abort();
    for (uint32_t k = 0; k < nz; k++)
        for (uint32_t j = 0; j < ny; j++)
            for (uint32_t i = 0; i < nx; i++)
                if (box[(k * ny + j) * nx + i])
                    dense_set(&dw, base + 1 + (int32_t)i, base + 1 + (int32_t)j, base + 1 + (int32_t)k, ~(uint64_t)0);
    while (at + 8 <= size && data[at] != 0xFF) {
        const uint8_t *e = data + at;
        int32_t x = base + e[0] % BOX, y = base + e[1] % BOX, z = base + e[2] % BOX;
        uint64_t m = e[3] & 1 ? ((uint64_t)e[4] << 40) | ((uint64_t)e[5] << 20) | ((uint64_t)e[6] << 7) | e[7] : 0;
        if (wk_voxel_set_sub(w, x, y, z, m) != WK_OK) abort();
        dense_set(&dw, x, y, z, m);
        at += 8;
    }
    at++;
    size_t n = 0;
    float p[6][MAX_SEG];
    while (at + 24 <= size && n < MAX_SEG) {
        for (int k = 0; k < 6; k++) {
            memcpy(&p[k][n], data + at + 4 * k, 4);
            p[k][n] = fold(p[k][n], base);
        }
        at += 24;
        n++;
    }
    uint8_t vis[3][MAX_SEG], solid[3][MAX_SEG];
    int8_t sub[3][MAX_SEG];
    wk_status vs[3], ps[3];
    for (int v = 0; v < 3; v++) {
        wk_exec e = WK_EXEC_DEFAULTS;
        e.threads = v == 1 ? 2 : 1;
        e.isa = v == 2 ? WK_ISA_SCALAR : WK_ISA_DEFAULT;
        vs[v] = wk_voxel_segments(w, p[0], p[1], p[2], p[3], p[4], p[5], n, vis[v], &e);
        ps[v] = wk_voxel_query_points(w, p[0], p[1], p[2], n, solid[v], sub[v], &e);
        if (vs[v] != vs[0] || ps[v] != ps[0]) abort();
        if (vs[v] == WK_OK && memcmp(vis[v], vis[0], n)) abort();
        if (ps[v] == WK_OK && (memcmp(solid[v], solid[0], n) || memcmp(sub[v], sub[0], n))) abort();
    }
    for (size_t i = 0; i < n; i++) {
        int nan = 0;
        for (int k = 0; k < 6; k++) nan |= isnan(p[k][i]);
        if (ps[0] == WK_OK && !isnan(p[0][i]) && !isnan(p[1][i]) && !isnan(p[2][i])) {
            int64_t q[3] = {(int64_t)floor((double)p[0][i] * 4), (int64_t)floor((double)p[1][i] * 4),
                            (int64_t)floor((double)p[2][i] * 4)};
            if (solid[0][i] != dense_cell(&dw, q[0], q[1], q[2])) abort();
        }
        if (vs[0] != WK_OK) continue;
        if (nan) {
            if (vis[0][i] != 0) abort();
            continue;
        }
        float o[3], d[3];
        int exact = 1;
        for (int a = 0; a < 3; a++) {
            double dd = (double)p[3 + a][i] - (double)p[a][i];
            o[a] = p[a][i];
            d[a] = (float)dd;
            exact &= (double)d[a] == dd;
        }
        if (!exact) continue;
        dense_hit hh;
        if (vis[0][i] != !dense_cast(&dw, o, d, 1.0, 1, &hh)) abort();
    }
    dense_free(&dw);
    wk_voxel_world_destroy(w);
    return 0;
}
