/* Public entry points of the contour family's marching squares: validate,
 * count (when needed), cut the rows into bands, call the ISA table. */
#include "core/wk_fp_guard.h"

#include <math.h>
#include <string.h>

#include "contour_impl.h"
#include "core/wk_core.h"

WK__DISPATCH_SIMD(wk__contour_kernels, contour_kernels)

enum { KNOWN_FLAGS = WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS | WK_MSQ_CLOCKWISE };

/* Bounds in 64 bits (never overflow for uint32 sizes). */
static void bounds64(uint32_t cw, uint32_t ch, uint32_t flags, uint64_t *v, uint64_t *t, uint64_t *s) {
    uint64_t w = cw, h = ch;
    uint64_t edges = w * (h + 1) + (w + 1) * h;
    *v = edges + ((flags & WK_MSQ_TRIANGLES) ? (w + 1) * (h + 1) : 0);
    *t = (flags & WK_MSQ_TRIANGLES) ? 4 * w * h : 0;
    *s = (flags & WK_MSQ_SEGMENTS) ? 2 * w * h : 0;
}

static wk_status check_flags(uint32_t flags) {
    if (flags & ~(uint32_t)KNOWN_FLAGS)
        return wk__fail(WK_ERR_INVALID_ARG, "flags has unknown bits 0x%x", (unsigned)(flags & ~(uint32_t)KNOWN_FLAGS));
    if (!(flags & (WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS)))
        return wk__fail(WK_ERR_INVALID_ARG, "flags must include WK_MSQ_TRIANGLES or WK_MSQ_SEGMENTS, got 0x%x",
                        (unsigned)flags);
    return WK_OK;
}

static wk_status bound_run(uint32_t cw, uint32_t ch, uint32_t flags, uint32_t *vc, uint32_t *tc, uint32_t *sc) {
    if (cw == 0 || ch == 0) return wk__fail(WK_ERR_INVALID_ARG, "cw and ch must be >= 1, got %u x %u", cw, ch);
    wk_status s = check_flags(flags);
    if (s != WK_OK) return s;
    uint64_t v, t, g;
    bounds64(cw, ch, flags, &v, &t, &g);
    int over = v > UINT32_MAX || t > UINT32_MAX || g > UINT32_MAX;
    if (vc) *vc = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
    if (tc) *tc = t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
    if (sc) *sc = g > UINT32_MAX ? UINT32_MAX : (uint32_t)g;
    if (over) return wk__fail(WK_ERR_OVERFLOW, "%u x %u cells: a bound exceeds UINT32_MAX", cw, ch);
    return WK_OK;
}

wk_status wk_msq_bound(uint32_t cw, uint32_t ch, uint32_t flags, uint32_t *vert_cap, uint32_t *tri_cap,
                       uint32_t *seg_cap) {
    wk__detail_reset(__func__);
    return bound_run(cw, ch, flags, vert_cap, tri_cap, seg_cap);
}

/* ------------------------------------------------------------------ build */

typedef struct build_ctx {
    const wk__contour_kernels *k;
    wk__msq_job job;
    uint32_t parts;
    wk__msq_counts counts[WK__MAX_PARTS]; /* per part: its counts, then (prefix sums) its bases */
    wk__msq_counts total;                 /* the whole build's counts (after the count pass) */
} build_ctx;

static void count_part(void *vctx, size_t begin, size_t end, uint32_t part) {
    build_ctx *c = vctx;
    wk__msq_counts n = {0, 0, 0};
    c->k->count_rows(&c->job, (uint32_t)begin, (uint32_t)end, &n);
    c->counts[part] = n;
}

static void write_part(void *vctx, size_t begin, size_t end, uint32_t part) {
    build_ctx *c = vctx;
    wk__msq_counts n;
    /* the part's exact ends (the next part's bases): whole-vector stores
     * may reach up to them (wk__msq_job) */
    wk__msq_job job = c->job;
    const wk__msq_counts *e = part + 1 < c->parts ? &c->counts[part + 1] : &c->total;
    job.vert_end = (uint32_t)e->vert;
    job.tri_end = (uint32_t)e->tri;
    job.seg_end = (uint32_t)e->seg;
    job.ends_known = 1;
    c->k->write_rows(&job, (uint32_t)begin, (uint32_t)end, (uint32_t)c->counts[part].vert,
                     (uint32_t)c->counts[part].tri, (uint32_t)c->counts[part].seg, &n);
}

static wk_status check_buffers(const void *field, size_t field_bytes, const wk_mesh2 *m, uint32_t flags) {
    struct { const void *p; size_t bytes; const char *name; } b[5];
    int n = 0;
    int tri = (flags & WK_MSQ_TRIANGLES) != 0, seg = (flags & WK_MSQ_SEGMENTS) != 0;
    if (m->vert_cap > 0 && (!m->x || !m->y)) return wk__fail(WK_ERR_NULL, "out->x and out->y must not be NULL");
    if (tri && m->tri_cap > 0 && !m->tri) return wk__fail(WK_ERR_NULL, "out->tri is NULL with WK_MSQ_TRIANGLES");
    if (seg && m->seg_cap > 0 && !m->seg) return wk__fail(WK_ERR_NULL, "out->seg is NULL with WK_MSQ_SEGMENTS");
    b[n].p = field, b[n].bytes = field_bytes, b[n++].name = "the field";
    if (m->vert_cap > 0) {
        b[n].p = m->x, b[n].bytes = (size_t)m->vert_cap * sizeof(float), b[n++].name = "out->x";
        b[n].p = m->y, b[n].bytes = (size_t)m->vert_cap * sizeof(float), b[n++].name = "out->y";
    }
    if (tri && m->tri_cap > 0) b[n].p = m->tri, b[n].bytes = (size_t)m->tri_cap * 12, b[n++].name = "out->tri";
    if (seg && m->seg_cap > 0) b[n].p = m->seg, b[n].bytes = (size_t)m->seg_cap * 8, b[n++].name = "out->seg";
    for (int i = 0; i < n; i++)
        for (int k = i + 1; k < n; k++)
            if (wk__overlap(b[i].p, b[i].bytes, b[k].p, b[k].bytes))
                return wk__fail(WK_ERR_ALIAS, "%s overlaps %s", b[i].name, b[k].name);
    return WK_OK;
}

/* Checks the rectangle and parameters and fills job (field and buffers
 * not yet). */
static wk_status msq_check(uint32_t w, uint32_t h, uint32_t x0, uint32_t y0, uint32_t cw, uint32_t ch, float iso,
                           float cell, uint32_t flags, wk__msq_job *job) {
    if (cw == 0 || ch == 0) return wk__fail(WK_ERR_INVALID_ARG, "cw and ch must be >= 1, got %u x %u", cw, ch);
    if ((uint64_t)x0 + cw > (uint64_t)w - 1 || (uint64_t)y0 + ch > (uint64_t)h - 1)
        return wk__fail(WK_ERR_INVALID_ARG,
                        "cells [%u, %llu) x [%u, %llu) must lie inside the field's %u x %u cells", x0,
                        (unsigned long long)x0 + cw, y0, (unsigned long long)y0 + ch, w - 1, h - 1);
    if (!isfinite(iso)) return wk__fail(WK_ERR_NOT_FINITE, "iso must be finite, got %g", (double)iso);
    if (!isfinite(cell)) return wk__fail(WK_ERR_NOT_FINITE, "cell must be finite, got %g", (double)cell);
    if (!(cell > 0)) return wk__fail(WK_ERR_INVALID_ARG, "cell must be > 0, got %g", (double)cell);
    wk_status s = check_flags(flags);
    if (s != WK_OK) return s;
    memset(job, 0, sizeof *job);
    job->x0 = x0;
    job->y0 = y0;
    job->cw = cw;
    job->ch = ch;
    job->iso = iso;
    job->cell = (double)cell;
    job->flags = flags;
    return WK_OK;
}

/* The build once job holds a checked field and rectangle. */
static wk_status build_job(const wk__call *call, build_ctx *cp, const void *field, size_t field_bytes,
                           wk_mesh2 *out) {
    uint32_t cw = cp->job.cw, ch = cp->job.ch, flags = cp->job.flags;
    wk_status s = check_buffers(field, field_bytes, out, flags);
    if (s != WK_OK) return s;
    int tri = (flags & WK_MSQ_TRIANGLES) != 0, seg = (flags & WK_MSQ_SEGMENTS) != 0;
    cp->job.x = out->x;
    cp->job.y = out->y;
    cp->job.tri = tri ? out->tri : NULL;
    cp->job.seg = seg ? out->seg : NULL;
    cp->k = contour_kernels(call);
    uint32_t tri_cap = tri ? out->tri_cap : 0, seg_cap = seg ? out->seg_cap : 0;
    uint64_t bv, bt, bs;
    bounds64(cw, ch, flags, &bv, &bt, &bs);
    cp->parts = wk__parts_for(call, ch, cw);
    if (cp->parts == 1 && out->vert_cap >= bv && tri_cap >= bt && seg_cap >= bs) {
        /* Room for anything: one pass, no count. */
        wk__msq_counts n;
        cp->k->write_rows(&cp->job, 0, ch, 0, 0, 0, &n);
        out->nvert = (uint32_t)n.vert;
        out->ntri = (uint32_t)n.tri;
        out->nseg = (uint32_t)n.seg;
        return WK_OK;
    }
    memset(cp->counts, 0, sizeof(wk__msq_counts) * cp->parts);
    wk__parallel_for(call, ch, cw, count_part, cp);
    wk__msq_counts total = {0, 0, 0};
    for (uint32_t p = 0; p < cp->parts; p++) {
        wk__msq_counts n = cp->counts[p];
        cp->counts[p] = total; /* now the part's base */
        total.vert += n.vert;
        total.tri += n.tri;
        total.seg += n.seg;
    }
    cp->total = total;
    if (total.vert > UINT32_MAX || total.tri > UINT32_MAX || total.seg > UINT32_MAX)
        return wk__fail(WK_ERR_OVERFLOW, "the mesh needs more than UINT32_MAX vertices, triangles or segments");
    if (total.vert > out->vert_cap || total.tri > tri_cap || total.seg > seg_cap) {
        out->nvert = (uint32_t)total.vert;
        out->ntri = (uint32_t)total.tri;
        out->nseg = (uint32_t)total.seg;
        return wk__fail(WK_ERR_CAPACITY,
                        "needs %llu vertices, %llu triangles, %llu segments; capacities are %u, %u, %u",
                        (unsigned long long)total.vert, (unsigned long long)total.tri,
                        (unsigned long long)total.seg, out->vert_cap, tri_cap, seg_cap);
    }
    wk__parallel_for(call, ch, cw, write_part, cp);
    out->nvert = (uint32_t)total.vert;
    out->ntri = (uint32_t)total.tri;
    out->nseg = (uint32_t)total.seg;
    return WK_OK;
}

wk_status wk__msq_build_run(const wk__call *call, const wk_field2 *f, uint32_t x0, uint32_t y0, uint32_t cw,
                           uint32_t ch, float iso, float cell, uint32_t flags, wk_mesh2 *out) {
    if (!out) return wk__fail(WK_ERR_NULL, "out is NULL");
    if (!wk__all_zero(out->reserved, sizeof out->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "out->reserved must be zero");
    build_ctx c;
    wk_status s = wk__check_field2(f, "f", 2, 2);
    if (s != WK_OK) return s;
    s = msq_check(f->w, f->h, x0, y0, cw, ch, iso, cell, flags, &c.job);
    if (s != WK_OK) return s;
    c.job.v = f->v + (size_t)y0 * f->stride + x0;
    c.job.stride = f->stride;
    return build_job(call, &c, f->v, wk__field2_extent(f) * sizeof(float), out);
}

static wk_status build_u8_run(const wk__call *call, const uint8_t *v, uint32_t w, uint32_t h, size_t stride,
                              uint32_t x0, uint32_t y0, uint32_t cw, uint32_t ch, uint8_t iso, float cell,
                              uint32_t flags, wk_mesh2 *out) {
    if (!out) return wk__fail(WK_ERR_NULL, "out is NULL");
    if (!v) return wk__fail(WK_ERR_NULL, "v is NULL");
    if (!wk__all_zero(out->reserved, sizeof out->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "out->reserved must be zero");
    if (w < 2 || h < 2) return wk__fail(WK_ERR_INVALID_ARG, "the field must be at least 2 x 2 nodes, got %u x %u", w, h);
    if (stride < w) return wk__fail(WK_ERR_STRIDE, "stride must be >= w (%u), got %zu", w, stride);
    if (h - 1 > (SIZE_MAX - w) / stride)
        return wk__fail(WK_ERR_OVERFLOW, "%u rows of stride %zu overflow size_t", h, stride);
    build_ctx c;
    wk_status s = msq_check(w, h, x0, y0, cw, ch, (float)iso, cell, flags, &c.job);
    if (s != WK_OK) return s;
    c.job.v8 = v + (size_t)y0 * stride + x0;
    c.job.stride = stride;
    return build_job(call, &c, v, (size_t)(h - 1) * stride + w, out);
}

wk_status wk_msq_build_u8(const uint8_t *v, uint32_t w, uint32_t h, size_t stride, uint32_t x0, uint32_t y0,
                          uint32_t cw, uint32_t ch, uint8_t iso, float cell, uint32_t flags, wk_mesh2 *out,
                          const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = build_u8_run(&call, v, w, h, stride, x0, y0, cw, ch, iso, cell, flags, out);
    return wk__end(&call, s);
}

wk_status wk_msq_build(const wk_field2 *f, uint32_t x0, uint32_t y0, uint32_t cw, uint32_t ch, float iso,
                       float cell, uint32_t flags, wk_mesh2 *out, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = wk__msq_build_run(&call, f, x0, y0, cw, ch, iso, cell, flags, out);
    return wk__end(&call, s);
}
