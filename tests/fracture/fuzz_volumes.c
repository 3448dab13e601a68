/* libFuzzer target: wk_fracture_volumes on meshes decoded from the input
 * (random triangles, ranges, out-of-range indices, non-finite vertices),
 * for every supported ISA and 1 or 3 threads: the same status and the same
 * bits as the scalar reference; a closed cube appended to every input must
 * give volume 1 and no flags. abort() on any mismatch. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/fracture.h"

typedef struct reader { const uint8_t *p; size_t n; } reader;
static uint8_t byte(reader *r) {
    if (!r->n) return 0;
    r->n--;
    return *r->p++;
}

enum { MAX_V = 64, MAX_T = 128, MAX_M = 8 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    static float vx[MAX_V + 8], vy[MAX_V + 8], vz[MAX_V + 8];
    static uint32_t tris[3 * (MAX_T + 12)], start[MAX_M + 2];
    uint32_t nv = byte(&r) % MAX_V, nt = byte(&r) % MAX_T, nm = byte(&r) % MAX_M;
    for (uint32_t i = 0; i < nv; i++) {
        uint8_t b = byte(&r);
        vx[i] = b == 255 ? NAN : b == 254 ? INFINITY : (float)(b % 32) - 8.0f + (b >> 5) * 1e4f;
        vy[i] = (float)(byte(&r) % 32) * 0.5f;
        vz[i] = (float)(byte(&r) % 32) * 0.25f;
    }
    for (uint32_t t = 0; t < 3 * nt; t++) tris[t] = byte(&r) % (nv + 1 + (byte(&r) == 0)); /* sometimes out of range */
    start[0] = 0;
    for (uint32_t m = 1; m <= nm; m++) {
        uint32_t s = start[m - 1] + byte(&r) % 24;
        start[m] = s > nt ? nt : s;
    }
    /* A closed unit cube as the last mesh. */
    uint32_t base = nv;
    for (int k = 0; k < 8; k++) {
        vx[nv + k] = 100.0f + (k & 1);
        vy[nv + k] = (float)(k >> 1 & 1);
        vz[nv + k] = (float)(k >> 2 & 1);
    }
    static const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    uint32_t first = start[nm];
    for (int f = 0; f < 6; f++) {
        const int *q = quads[f];
        uint32_t t = first + 2 * (uint32_t)f;
        tris[3 * t] = base + (uint32_t)q[0], tris[3 * t + 1] = base + (uint32_t)q[1], tris[3 * t + 2] = base + (uint32_t)q[2];
        t++;
        tris[3 * t] = base + (uint32_t)q[0], tris[3 * t + 1] = base + (uint32_t)q[2], tris[3 * t + 2] = base + (uint32_t)q[3];
    }
    start[nm + 1] = first + 12;
    wk_meshes m = WK_MESHES_DEFAULTS;
    m.vx = vx, m.vy = vy, m.vz = vz;
    m.vertex_count = nv + 8;
    m.mesh_count = nm + 1;
    m.tris = tris;
    m.tri_count = first + 12;
    m.tri_start = start;
    size_t bytes;
    if (wk_fracture_volumes_workspace_size(m.tri_count, &bytes) != WK_OK) abort();
    void *ws = malloc(bytes);
    double vol_ref[MAX_M + 1], mass_ref[MAX_M + 1], vol[MAX_M + 1], mass[MAX_M + 1];
    uint8_t flags_ref[MAX_M + 1], flags[MAX_M + 1];
    wk_exec scalar = WK_EXEC_DEFAULTS;
    scalar.isa = WK_ISA_SCALAR;
    scalar.threads = 1;
    wk_status rs = wk_fracture_volumes(&m, 0.5, ws, bytes, vol_ref, mass_ref, flags_ref, &scalar);
    if (rs == WK_OK && (vol_ref[nm] != 1.0 || flags_ref[nm] != 0 || mass_ref[nm] != 0.5)) abort();
    static const wk_isa isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    for (int t = 0; t < 4; t++) {
        if (!wk_isa_supported(isas[t])) continue;
        for (int threads = 1; threads <= 3; threads += 2) {
            wk_exec e = WK_EXEC_DEFAULTS;
            e.isa = isas[t];
            e.threads = threads;
            wk_status s = wk_fracture_volumes(&m, 0.5, ws, bytes, vol, mass, flags, &e);
            if (s != rs) abort();
            if (s == WK_OK && (memcmp(vol, vol_ref, (nm + 1) * sizeof(double)) != 0 ||
                               memcmp(mass, mass_ref, (nm + 1) * sizeof(double)) != 0 ||
                               memcmp(flags, flags_ref, nm + 1) != 0))
                abort();
        }
    }
    free(ws);
    return 0;
}
