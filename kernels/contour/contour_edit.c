/* The contour family's scalar kernels: chains, simplification, the brush.
 * They are the same code on every ISA (nothing here is vectorized: chains
 * and simplification are pointer chasing, a brush stroke touches a few
 * hundred nodes), so every ISA returns the same bits by construction. */
#include "core/wk_fp_guard.h"

#include <math.h>
#include <string.h>

#include "contour_impl.h"
#include "core/wk_core.h"

/* ----------------------------------------------------------------- chains */

size_t wk_msq_chains_work(uint32_t nvert, uint32_t nseg) {
    return 2 * (size_t)nvert + 1 + (size_t)nseg + 2 * (((size_t)nseg + 31) / 32);
}

typedef struct chain_state {
    const uint32_t *seg;
    uint32_t nvert, nseg;
    uint32_t *off, *adj, *cur, *used, *open;
} chain_state;

static int bit_get(const uint32_t *b, uint32_t i) { return (int)(b[i >> 5] >> (i & 31) & 1u); }
static void bit_set(uint32_t *b, uint32_t i) { b[i >> 5] |= 1u << (i & 31); }

static void chain_reset(chain_state *c) {
    memcpy(c->cur, c->off, sizeof(uint32_t) * c->nvert);
    memset(c->used, 0, sizeof(uint32_t) * ((c->nseg + 31) / 32));
}

/* Builds the outgoing lists (segment order) and the open-start bits. */
static void chain_prepare(chain_state *c) {
    uint32_t nv = c->nvert, ns = c->nseg;
    uint32_t *indeg = c->cur;
    memset(c->off, 0, sizeof(uint32_t) * ((size_t)nv + 1));
    memset(indeg, 0, sizeof(uint32_t) * nv);
    for (uint32_t s = 0; s < ns; s++) {
        c->off[c->seg[2 * s] + 1]++;
        indeg[c->seg[2 * s + 1]] = 1;
    }
    memset(c->open, 0, sizeof(uint32_t) * ((ns + 31) / 32));
    for (uint32_t s = 0; s < ns; s++)
        if (!indeg[c->seg[2 * s]]) bit_set(c->open, s);
    for (uint32_t v = 0; v < nv; v++) c->off[v + 1] += c->off[v];
    /* fill with off[v] as the cursor, then shift back */
    for (uint32_t s = 0; s < ns; s++) c->adj[c->off[c->seg[2 * s]]++] = s;
    for (uint32_t v = nv; v > 0; v--) c->off[v] = c->off[v - 1];
    c->off[0] = 0;
    chain_reset(c);
}

/* Walks every chain; writes them when out is not NULL. Returns the counts. */
static void chain_walk(chain_state *c, wk_chains *out, uint32_t *nidx, uint32_t *nchain) {
    uint32_t ni = 0, nc = 0;
    for (int phase = 0; phase < 2; phase++)
        for (uint32_t s0 = 0; s0 < c->nseg; s0++) {
            if (bit_get(c->used, s0) || (phase == 0 && !bit_get(c->open, s0))) continue;
            uint32_t first = c->seg[2 * s0], s = s0;
            if (out) out->start[nc] = ni;
            if (out) out->idx[ni] = first;
            ni++;
            int closed = 0;
            for (;;) {
                bit_set(c->used, s);
                uint32_t v = c->seg[2 * s + 1];
                if (v == first) {
                    closed = 1;
                    break;
                }
                if (out) out->idx[ni] = v;
                ni++;
                uint32_t end = c->off[v + 1];
                while (c->cur[v] < end && bit_get(c->used, c->adj[c->cur[v]])) c->cur[v]++;
                if (c->cur[v] == end) break;
                s = c->adj[c->cur[v]];
            }
            if (out) out->closed[nc] = (uint8_t)closed;
            nc++;
        }
    if (out) out->start[nc] = ni;
    *nidx = ni;
    *nchain = nc;
}

static wk_status chains_run(const wk_mesh2 *m, wk_chains *out, uint32_t *work, size_t work_len) {
    if (!m || !out) return wk__fail(WK_ERR_NULL, "m and out must not be NULL");
    if (!wk__all_zero(out->reserved, sizeof out->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "out->reserved must be zero");
    if (!wk__all_zero(m->reserved, sizeof m->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "m->reserved must be zero");
    uint32_t ns = m->nseg, nv = m->nvert;
    if (ns > 0 && !m->seg) return wk__fail(WK_ERR_NULL, "m->seg is NULL with nseg = %u", ns);
    size_t need = wk_msq_chains_work(nv, ns);
    if (work_len < need) return wk__fail(WK_ERR_INVALID_ARG, "work_len must be >= %zu, got %zu", need, work_len);
    if (!work) return wk__fail(WK_ERR_NULL, "work is NULL");
    if (out->idx_cap > 0 && !out->idx) return wk__fail(WK_ERR_NULL, "out->idx is NULL");
    if (!out->start) return wk__fail(WK_ERR_NULL, "out->start is NULL");
    if (out->chain_cap > 0 && !out->closed) return wk__fail(WK_ERR_NULL, "out->closed is NULL");
    for (uint32_t s = 0; s < 2 * ns; s++)
        if (m->seg[s] >= nv)
            return wk__fail(WK_ERR_INVALID_ARG, "m->seg[%u] = %u is not < nvert = %u", s, m->seg[s], nv);
    struct { const void *p; size_t bytes; const char *name; } b[5] = {
        {m->seg, (size_t)ns * 8, "m->seg"},
        {work, need * 4, "work"},
        {out->idx, (size_t)out->idx_cap * 4, "out->idx"},
        {out->start, ((size_t)out->chain_cap + 1) * 4, "out->start"},
        {out->closed, (size_t)out->chain_cap, "out->closed"}};
    for (int i = 0; i < 5; i++)
        for (int k = i + 1; k < 5; k++)
            if (b[i].bytes && b[k].bytes && wk__overlap(b[i].p, b[i].bytes, b[k].p, b[k].bytes))
                return wk__fail(WK_ERR_ALIAS, "%s overlaps %s", b[i].name, b[k].name);
    chain_state c;
    c.seg = m->seg;
    c.nvert = nv;
    c.nseg = ns;
    c.off = work;
    c.adj = c.off + (size_t)nv + 1;
    c.cur = c.adj + ns;
    c.used = c.cur + nv;
    c.open = c.used + (ns + 31) / 32;
    chain_prepare(&c);
    uint32_t ni, nc;
    if (out->idx_cap < 2 * (uint64_t)ns || out->chain_cap < ns) {
        chain_walk(&c, NULL, &ni, &nc);
        if (ni > out->idx_cap || nc > out->chain_cap) {
            out->nidx = ni;
            out->nchain = nc;
            return wk__fail(WK_ERR_CAPACITY, "needs %u indices and %u chains; capacities are %u and %u", ni, nc,
                            out->idx_cap, out->chain_cap);
        }
        chain_reset(&c);
    }
    chain_walk(&c, out, &ni, &nc);
    out->nidx = ni;
    out->nchain = nc;
    return WK_OK;
}

wk_status wk_msq_chains(const wk_mesh2 *m, wk_chains *out, uint32_t *work, size_t work_len,
                        const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = chains_run(m, out, work, work_len);
    return wk__end(&call, s);
}

/* ------------------------------------------------------------- simplify */

typedef struct poly {
    const float *x, *y;
    const uint32_t *idx;
    uint32_t n; /* point n (closed loops) is point 0 again */
} poly;

static uint32_t poly_vertex(const poly *p, uint32_t i) { return p->idx[i == p->n ? 0 : i]; }

/* Distance of point i to the line through points a and b. */
static double line_dist(const poly *p, uint32_t i, uint32_t a, uint32_t b) {
    uint32_t vi = poly_vertex(p, i), va = poly_vertex(p, a), vb = poly_vertex(p, b);
    double ax = p->x[va], ay = p->y[va];
    double dx = (double)p->x[vb] - ax, dy = (double)p->y[vb] - ay;
    double px = (double)p->x[vi] - ax, py = (double)p->y[vi] - ay;
    double len = sqrt(dx * dx + dy * dy);
    if (len == 0) return sqrt(px * px + py * py);
    return fabs(dx * py - dy * px) / len;
}

/* RDP between kept points lo < hi; out[k] links kept point k to the next.
 * The distances are line_dist's, with the line's terms computed once. */
static void rdp(const poly *p, uint32_t first, uint32_t last, double tol, uint32_t *link) {
    link[first] = last;
    uint32_t lo = first;
    while (lo != last) {
        uint32_t hi = link[lo], far = lo;
        double best = -1;
        uint32_t va = poly_vertex(p, lo), vb = poly_vertex(p, hi);
        double ax = p->x[va], ay = p->y[va];
        double dx = (double)p->x[vb] - ax, dy = (double)p->y[vb] - ay;
        double len = sqrt(dx * dx + dy * dy);
        for (uint32_t i = lo + 1; i < hi; i++) {
            uint32_t vi = poly_vertex(p, i);
            double px = (double)p->x[vi] - ax, py = (double)p->y[vi] - ay;
            double d = len == 0 ? sqrt(px * px + py * py) : fabs(dx * py - dy * px) / len;
            if (d > best) {
                best = d;
                far = i;
            }
        }
        if (far != lo && best > tol) {
            link[lo] = far;
            link[far] = hi;
        } else {
            lo = hi;
        }
    }
}

static wk_status simplify_run(const float *x, const float *y, uint32_t nvert, const uint32_t *chain, uint32_t n,
                              uint32_t closed, float tolerance, uint32_t method, uint32_t *out, uint32_t out_cap,
                              uint32_t *nout) {
    if (!nout) return wk__fail(WK_ERR_NULL, "nout is NULL");
    if (!isfinite(tolerance)) return wk__fail(WK_ERR_NOT_FINITE, "tolerance must be finite, got %g", (double)tolerance);
    if (!(tolerance >= 0)) return wk__fail(WK_ERR_INVALID_ARG, "tolerance must be >= 0, got %g", (double)tolerance);
    if (method != WK_SIMPLIFY_GREEDY && method != WK_SIMPLIFY_RDP)
        return wk__fail(WK_ERR_INVALID_ARG, "method must be WK_SIMPLIFY_GREEDY or _RDP, got %u", method);
    if (n == 0) {
        *nout = 0;
        return WK_OK;
    }
    if (!x || !y || !chain || !out) return wk__fail(WK_ERR_NULL, "x, y, chain and out must not be NULL");
    for (uint32_t i = 0; i < n; i++)
        if (chain[i] >= nvert) return wk__fail(WK_ERR_INVALID_ARG, "chain[%u] = %u is not < nvert = %u", i, chain[i], nvert);
    if (out_cap < n) {
        *nout = n;
        return wk__fail(WK_ERR_CAPACITY, "out_cap must be >= n = %u, got %u", n, out_cap);
    }
    size_t ob = (size_t)n * 4;
    if (wk__overlap(out, ob, chain, ob) || wk__overlap(out, ob, x, (size_t)nvert * 4) ||
        wk__overlap(out, ob, y, (size_t)nvert * 4))
        return wk__fail(WK_ERR_ALIAS, "out overlaps chain, x or y");
    poly p = {x, y, chain, n};
    double tol = tolerance;
    uint32_t k = 0;
    if (n < 3) {
        for (uint32_t i = 0; i < n; i++) out[i] = chain[i];
        *nout = n;
        return WK_OK;
    }
    uint32_t last = closed ? n : n - 1;
    if (method == WK_SIMPLIFY_GREEDY) {
        uint32_t kept = 0;
        out[k++] = chain[0];
        for (uint32_t i = 1; i < last; i++) {
            if (line_dist(&p, i, kept, i + 1) <= tol) continue;
            out[k++] = chain[i];
            kept = i;
        }
        if (!closed) out[k++] = chain[n - 1];
    } else {
        uint32_t *link = out;
        if (closed) {
            uint32_t far = 1;
            double best = -1;
            for (uint32_t i = 1; i < n; i++) {
                double d = line_dist(&p, i, 0, 0);
                if (d > best) {
                    best = d;
                    far = i;
                }
            }
            rdp(&p, far, n, tol, link); /* the second half first: link[0] is set last */
            rdp(&p, 0, far, tol, link);
        } else {
            rdp(&p, 0, n - 1, tol, link);
        }
        /* compact: kept positions ascend and k <= position */
        uint32_t pos = 0;
        for (;;) {
            uint32_t next = pos == last ? last : link[pos];
            if (pos == last) {
                if (!closed) out[k++] = chain[pos];
                break;
            }
            out[k++] = chain[pos];
            pos = next;
        }
    }
    if (closed && k < 3) {
        out[0] = chain[0];
        out[1] = chain[n / 3];
        out[2] = chain[2 * n / 3];
        k = 3;
    }
    *nout = k;
    return WK_OK;
}

wk_status wk_msq_simplify(const float *x, const float *y, uint32_t nvert, const uint32_t *chain, uint32_t n,
                          uint32_t closed, float tolerance, uint32_t method, uint32_t *out, uint32_t out_cap,
                          uint32_t *nout, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = simplify_run(x, y, nvert, chain, n, closed, tolerance, method, out, out_cap, nout);
    return wk__end(&call, s);
}

/* ---------------------------------------------------------------- brush */

typedef struct brush_job {
    float *v;
    size_t stride;
    uint32_t x0, y0, x1, y1; /* node rectangle, half-open */
    double cx, cy, radius, cell, reach;
    int fill;
} brush_job;

static void brush_rows(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    const brush_job *b = ctx;
    for (size_t r = begin; r < end; r++) {
        uint32_t y = b->y0 + (uint32_t)r;
        float *row = b->v + (size_t)y * b->stride;
        double dy = (double)y * b->cell - b->cy;
        for (uint32_t x = b->x0; x < b->x1; x++) {
            double dx = (double)x * b->cell - b->cx;
            double d = sqrt(dx * dx + dy * dy);
            if (!(d <= b->reach)) continue;
            double t = (d - b->radius) / b->cell * 0.5 + 0.5;
            float bv = (float)(t < 0 ? 0 : t > 1 ? 1 : t);
            float v = row[x];
            if (b->fill) {
                float f = 1.0f - bv;
                row[x] = v >= f ? v : f;
            } else {
                row[x] = v <= bv ? v : bv;
            }
        }
    }
}

/* The node index range [lo, hi] of positions [a, b] (world) clipped to
 * [min, max]; 0 when empty. */
static int node_range(double a, double b, double cell, uint32_t min, uint32_t max, uint32_t *lo, uint32_t *hi) {
    double l = ceil(a / cell), h = floor(b / cell);
    if (l < (double)min) l = min;
    if (h > (double)max) h = max;
    if (!(l <= h)) return 0;
    *lo = (uint32_t)l;
    *hi = (uint32_t)h;
    return 1;
}

static wk_status brush_run(const wk__call *call, float *v, uint32_t w, uint32_t h, size_t stride, float cx, float cy,
                           float radius, float cell, uint32_t flags, uint32_t touched[4]) {
    if (!touched) return wk__fail(WK_ERR_NULL, "touched is NULL");
    wk_field2 f;
    memset(&f, 0, sizeof f);
    f.v = v;
    f.w = w;
    f.h = h;
    f.stride = stride;
    wk_status s = wk__check_field2(&f, "the field", 1, 1);
    if (s != WK_OK) return s;
    if (!isfinite(cx) || !isfinite(cy) || !isfinite(radius) || !isfinite(cell))
        return wk__fail(WK_ERR_NOT_FINITE, "cx, cy, radius and cell must be finite, got %g, %g, %g, %g", (double)cx,
                        (double)cy, (double)radius, (double)cell);
    if (!(radius >= 0)) return wk__fail(WK_ERR_INVALID_ARG, "radius must be >= 0, got %g", (double)radius);
    if (!(cell > 0)) return wk__fail(WK_ERR_INVALID_ARG, "cell must be > 0, got %g", (double)cell);
    if (flags & ~(uint32_t)(WK_BRUSH_FILL | WK_BRUSH_EDIT_BORDER))
        return wk__fail(WK_ERR_INVALID_ARG, "flags has unknown bits 0x%x", flags);
    brush_job b;
    b.v = v;
    b.stride = stride;
    b.cx = cx;
    b.cy = cy;
    b.radius = radius;
    b.cell = cell;
    b.reach = (double)radius + 2.0 * (double)cell;
    b.fill = (flags & WK_BRUSH_FILL) != 0;
    int border = (flags & WK_BRUSH_EDIT_BORDER) != 0;
    uint32_t xmin = border ? 0 : 1, ymin = border ? 0 : 1;
    uint32_t xmax = border ? w - 1 : (w >= 2 ? w - 2 : 0), ymax = border ? h - 1 : (h >= 2 ? h - 2 : 0);
    uint32_t xl, xh, yl, yh;
    int hit = (border || (w > 2 && h > 2)) && node_range(b.cx - b.reach, b.cx + b.reach, b.cell, xmin, xmax, &xl, &xh) &&
              node_range(b.cy - b.reach, b.cy + b.reach, b.cell, ymin, ymax, &yl, &yh);
    if (!hit) {
        touched[0] = touched[1] = touched[2] = touched[3] = 0;
        return WK_OK;
    }
    b.x0 = xl;
    b.x1 = xh + 1;
    b.y0 = yl;
    b.y1 = yh + 1;
    wk__parallel_for(call, b.y1 - b.y0, b.x1 - b.x0, brush_rows, &b);
    touched[0] = b.x0;
    touched[1] = b.y0;
    touched[2] = b.x1;
    touched[3] = b.y1;
    return WK_OK;
}

wk_status wk_msq_brush(float *v, uint32_t w, uint32_t h, size_t stride, float cx, float cy, float radius, float cell,
                       uint32_t flags, uint32_t touched[4], const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = brush_run(&call, v, w, h, stride, cx, cy, radius, cell, flags, touched);
    return wk__end(&call, s);
}
