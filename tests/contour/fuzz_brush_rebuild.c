/* Fuzz target: sequences of dig/fill strokes with chunk marking and
 * rebuilds (chunk size, iso, flags and strokes from the input), each
 * rebuild on a different ISA and thread count; at the end every chunk's
 * mesh must equal a scalar wk_msq_build of its rectangle, bit for bit. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/contour.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 5) return 0;
    uint32_t w = 2 + data[0] % 60, h = 2 + data[1] % 40, n = 1 + data[2] % 20;
    uint32_t flags = (1 + data[3] % 3) | (data[3] & 4u);
    float *v = malloc(sizeof(float) * w * h);
    for (uint32_t i = 0; i < w * h; i++) v[i] = (i / w) < h / 2 ? 1.0f : 0.0f;
    wk_msq_chunks_desc d = WK_MSQ_CHUNKS_DESC_DEFAULTS;
    d.w = w, d.h = h, d.chunk = n, d.flags = flags, d.iso = 0.5f, d.cell = 0.5f + (float)(data[4] % 4);
    wk_msq_chunks *c = NULL;
    if (wk_msq_chunks_create(&d, &c) != WK_OK) abort();
    wk_field2 f = {v, w, h, w, {0, 0}};
    int isas[WK_ISA_COUNT], nisa = 0;
    for (int i = WK_ISA_SCALAR; i < WK_ISA_COUNT; i++)
        if (wk_isa_supported((wk_isa)i)) isas[nisa++] = i;
    for (size_t p = 5; p + 4 <= size; p += 4) {
        float cx = ((float)data[p] - 16.0f) * d.cell * 0.3f, cy = ((float)data[p + 1] - 16.0f) * d.cell * 0.2f;
        float r = (float)(data[p + 2] % 64) * d.cell / 8.0f;
        uint32_t bf = data[p + 3] % 4, t[4];
        if (wk_msq_brush(v, w, h, w, cx, cy, r, d.cell, bf, t, NULL) != WK_OK) abort();
        if (wk_msq_chunks_mark(c, t) != WK_OK) abort();
        wk_exec e = WK_EXEC_DEFAULTS;
        e.isa = isas[(p / 4) % nisa];
        e.threads = 1 + (int)(p / 4) % 3;
        if (wk_msq_chunks_rebuild(c, &f, NULL, &e) != WK_OK) abort();
    }
    if (wk_msq_chunks_rebuild(c, &f, NULL, NULL) != WK_OK) abort(); /* the first build when no stroke */
    uint32_t nx, ny;
    wk_msq_chunks_grid(c, &nx, &ny);
    for (uint32_t ky = 0; ky < ny; ky++)
        for (uint32_t kx = 0; kx < nx; kx++) {
            uint32_t x0 = kx * n, y0 = ky * n, cw = w - 1 - x0 < n ? w - 1 - x0 : n, ch = h - 1 - y0 < n ? h - 1 - y0 : n;
            wk_mesh2 m = WK_MESH2_DEFAULTS, view;
            wk_msq_bound(cw, ch, flags, &m.vert_cap, &m.tri_cap, &m.seg_cap);
            m.x = malloc(4 * (size_t)m.vert_cap), m.y = malloc(4 * (size_t)m.vert_cap);
            m.tri = malloc(12 * (size_t)m.tri_cap + 4), m.seg = malloc(8 * (size_t)m.seg_cap + 4);
            wk_exec e = WK_EXEC_DEFAULTS;
            e.isa = WK_ISA_SCALAR;
            if (wk_msq_build(&f, x0, y0, cw, ch, d.iso, d.cell, flags, &m, &e) != WK_OK) abort();
            wk_msq_chunks_mesh(c, kx, ky, &view);
            if (m.nvert != view.nvert || m.ntri != view.ntri || m.nseg != view.nseg) abort();
            if ((m.nvert && (memcmp(m.x, view.x, 4 * (size_t)m.nvert) || memcmp(m.y, view.y, 4 * (size_t)m.nvert))) ||
                (m.ntri && memcmp(m.tri, view.tri, 12 * (size_t)m.ntri)) ||
                (m.nseg && memcmp(m.seg, view.seg, 8 * (size_t)m.nseg)))
                abort();
            free(m.x), free(m.y), free(m.tri), free(m.seg);
        }
    wk_msq_chunks_destroy(c);
    free(v);
    return 0;
}
