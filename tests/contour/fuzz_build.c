/* Fuzz target: wk_msq_build on every supported ISA and thread count
 * against the scalar reference (status, counts, every output byte). The
 * input decodes to a field (values, NaN, infinities), a cell rectangle
 * (sometimes out of range), iso, cell, flags and capacities (sometimes too
 * small). abort() on any difference. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/contour.h"

typedef struct reader { const uint8_t *p; size_t n; } reader;
static uint8_t next(reader *r) {
    if (!r->n) return 0;
    r->n--;
    return *r->p++;
}

static float value_of(uint8_t b) {
    switch (b) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return 0.5f;
    default: return ((float)b - 128.0f) / 37.0f;
    }
}

typedef struct out_buf { float *x, *y; uint32_t *tri, *seg; } out_buf;

static wk_status run(const wk_field2 *f, uint32_t x0, uint32_t y0, uint32_t cw, uint32_t ch, float iso, float cell,
                     uint32_t flags, uint32_t vc, uint32_t tc, uint32_t sc, out_buf *o, uint32_t counts[3], int isa,
                     int threads) {
    memset(o->x, 0xA5, sizeof(float) * (vc + 1));
    memset(o->y, 0xA5, sizeof(float) * (vc + 1));
    memset(o->tri, 0xA5, sizeof(uint32_t) * (3 * (size_t)tc + 1));
    memset(o->seg, 0xA5, sizeof(uint32_t) * (2 * (size_t)sc + 1));
    wk_mesh2 m = WK_MESH2_DEFAULTS;
    m.x = o->x, m.y = o->y, m.tri = o->tri, m.seg = o->seg;
    m.vert_cap = vc, m.tri_cap = tc, m.seg_cap = sc;
    m.nvert = m.ntri = m.nseg = 0xDEADu;
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = isa;
    e.threads = threads;
    wk_status s = wk_msq_build(f, x0, y0, cw, ch, iso, cell, flags, &m, &e);
    counts[0] = m.nvert, counts[1] = m.ntri, counts[2] = m.nseg;
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    uint32_t w = 1 + next(&r) % 48, h = 1 + next(&r) % 24;
    uint32_t pad = next(&r) % 3;
    size_t stride = w + pad;
    float *v = malloc(sizeof(float) * stride * h);
    for (size_t i = 0; i < stride * h; i++) v[i] = value_of(next(&r));
    wk_field2 f = {v, w, h, stride, {0, 0}};
    uint32_t x0 = next(&r) % (w + 1), y0 = next(&r) % (h + 1);
    uint32_t cw = next(&r) % (w + 1), ch = next(&r) % (h + 1);
    uint8_t ib = next(&r);
    float iso = ib == 255 ? NAN : ib == 254 ? INFINITY : value_of((uint8_t)(ib | 4));
    uint8_t cb = next(&r);
    float cell = cb == 0 ? 0.0f : cb == 1 ? -1.0f : cb == 2 ? INFINITY : (float)cb / 16.0f;
    uint32_t flags = next(&r) % 8;
    if (next(&r) == 7) flags |= 64;
    uint32_t vc = 0, tc = 0, sc = 0;
    if (wk_msq_bound(cw ? cw : 1, ch ? ch : 1, flags & 3 ? flags & 7 : 3, &vc, &tc, &sc) != WK_OK) abort();
    uint8_t shrink = next(&r);
    if (shrink & 1) vc = vc * (shrink >> 1) / 128;
    if (shrink & 2) tc = tc * (shrink >> 2) / 64;
    if (shrink & 4) sc = sc * (shrink >> 3) / 32;
    out_buf ref = {malloc(4 * (vc + 1)), malloc(4 * (vc + 1)), malloc(12 * (size_t)tc + 4), malloc(8 * (size_t)sc + 4)};
    out_buf got = {malloc(4 * (vc + 1)), malloc(4 * (vc + 1)), malloc(12 * (size_t)tc + 4), malloc(8 * (size_t)sc + 4)};
    uint32_t rc[3], gc[3];
    wk_status rs = run(&f, x0, y0, cw, ch, iso, cell, flags, vc, tc, sc, &ref, rc, WK_ISA_SCALAR, 1);
    for (int isa = WK_ISA_SCALAR; isa < WK_ISA_COUNT; isa++) {
        if (!wk_isa_supported((wk_isa)isa)) continue;
        for (int threads = 1; threads <= 3; threads++) {
            wk_status gs = run(&f, x0, y0, cw, ch, iso, cell, flags, vc, tc, sc, &got, gc, isa, threads);
            if (gs != rs || memcmp(rc, gc, sizeof rc)) abort();
            if (memcmp(ref.x, got.x, 4 * (vc + 1)) || memcmp(ref.y, got.y, 4 * (vc + 1)) ||
                memcmp(ref.tri, got.tri, 12 * (size_t)tc + 4) || memcmp(ref.seg, got.seg, 8 * (size_t)sc + 4))
                abort();
        }
    }
    if (rs == WK_OK) {
        /* every index in range */
        for (uint32_t i = 0; i < 3 * rc[1]; i++)
            if (ref.tri[i] >= rc[0]) abort();
        for (uint32_t i = 0; i < 2 * rc[2]; i++)
            if (ref.seg[i] >= rc[0]) abort();
    }
    free(ref.x), free(ref.y), free(ref.tri), free(ref.seg);
    free(got.x), free(got.y), free(got.tri), free(got.seg);
    free(v);
    return 0;
}
