/* The contour family's checks of chains, simplification, the brush and the
 * chunked field. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contour_fields.h"
#include "wk_checks.h"
#include "worldkern/contour.h"
#include "worldkern/noise.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static wk_field2 field(const float *v, uint32_t w, uint32_t h) {
    wk_field2 f;
    memset(&f, 0, sizeof f);
    f.v = v;
    f.w = w;
    f.h = h;
    f.stride = w;
    return f;
}

typedef struct built {
    wk_mesh2 m;
} built;

static wk_mesh2 build_mesh(const float *v, uint32_t w, uint32_t h, uint32_t x0, uint32_t y0, uint32_t cw, uint32_t ch,
                           float iso, uint32_t flags) {
    wk_mesh2 m = WK_MESH2_DEFAULTS;
    wk_msq_bound(cw, ch, flags, &m.vert_cap, &m.tri_cap, &m.seg_cap);
    m.x = malloc(sizeof(float) * m.vert_cap + 4);
    m.y = malloc(sizeof(float) * m.vert_cap + 4);
    m.tri = malloc(sizeof(uint32_t) * 3 * (size_t)m.tri_cap + 4);
    m.seg = malloc(sizeof(uint32_t) * 2 * (size_t)m.seg_cap + 4);
    wk_field2 f = field(v, w, h);
    if (wk_msq_build(&f, x0, y0, cw, ch, iso, 1.0f, flags, &m, NULL) != WK_OK) m.nvert = m.ntri = m.nseg = 0;
    return m;
}

static void free_mesh(wk_mesh2 *m) {
    free(m->x);
    free(m->y);
    free(m->tri);
    free(m->seg);
}

typedef struct chain_buf {
    wk_chains c;
    uint32_t *work;
    size_t work_len;
} chain_buf;

static chain_buf chain_new(const wk_mesh2 *m) {
    chain_buf b;
    memset(&b, 0, sizeof b);
    b.c.idx_cap = 2 * m->nseg;
    b.c.chain_cap = m->nseg;
    b.c.idx = malloc(sizeof(uint32_t) * (b.c.idx_cap + 1));
    b.c.start = malloc(sizeof(uint32_t) * (b.c.chain_cap + 1));
    b.c.closed = malloc(b.c.chain_cap + 1);
    b.work_len = wk_msq_chains_work(m->nvert, m->nseg);
    b.work = malloc(sizeof(uint32_t) * (b.work_len + 1));
    return b;
}

static void chain_free(chain_buf *b) {
    free(b->c.idx);
    free(b->c.start);
    free(b->c.closed);
    free(b->work);
}

/* Independent: components of the segment graph by a plain flood (BFS over
 * an adjacency matrix-free edge scan), and how many are cycles (every
 * vertex with one segment in and one out). */
static void flood_components(const wk_mesh2 *m, uint32_t *ncomp, uint32_t *ncycles) {
    uint32_t nv = m->nvert, ns = m->nseg;
    int *comp = malloc(sizeof(int) * (nv + 1));
    int *in = calloc(nv + 1, sizeof(int)), *out = calloc(nv + 1, sizeof(int));
    uint32_t *queue = malloc(sizeof(uint32_t) * (nv + 1));
    int *used = calloc(nv + 1, sizeof(int));
    for (uint32_t i = 0; i < nv; i++) comp[i] = -1;
    for (uint32_t s = 0; s < ns; s++) {
        out[m->seg[2 * s]]++;
        in[m->seg[2 * s + 1]]++;
        used[m->seg[2 * s]] = used[m->seg[2 * s + 1]] = 1;
    }
    /* vertex -> segments incidence by scanning (small meshes only) */
    uint32_t nc = 0, cyc = 0;
    for (uint32_t v = 0; v < nv; v++) {
        if (!used[v] || comp[v] >= 0) continue;
        uint32_t head = 0, tail = 0;
        queue[tail++] = v;
        comp[v] = (int)nc;
        int is_cycle = 1;
        while (head < tail) {
            uint32_t u = queue[head++];
            if (in[u] != 1 || out[u] != 1) is_cycle = 0;
            for (uint32_t s = 0; s < ns; s++) {
                uint32_t a = m->seg[2 * s], b = m->seg[2 * s + 1], o;
                if (a == u) o = b;
                else if (b == u) o = a;
                else continue;
                if (comp[o] < 0) {
                    comp[o] = (int)nc;
                    queue[tail++] = o;
                }
            }
        }
        cyc += (uint32_t)is_cycle;
        nc++;
    }
    *ncomp = nc;
    *ncycles = cyc;
    free(comp);
    free(in);
    free(out);
    free(queue);
    free(used);
}

static int check_chains_of(const wk_mesh2 *m, const char *what, int expect_all_closed) {
    int fails = 0;
    chain_buf b = chain_new(m);
    wk_status s = wk_msq_chains(m, &b.c, b.work, b.work_len, NULL);
    EXPECT(s == WK_OK, "%s: status %d (%s)", what, s, wk_last_error_detail());
    uint32_t nc, ncyc;
    flood_components(m, &nc, &ncyc);
    EXPECT(b.c.nchain == nc, "%s: %u chains, flood finds %u components", what, b.c.nchain, nc);
    uint32_t closed = 0, segs = 0;
    int order_ok = 1, seen_closed = 0;
    for (uint32_t k = 0; k < b.c.nchain; k++) {
        uint32_t len = b.c.start[k + 1] - b.c.start[k];
        closed += b.c.closed[k];
        segs += b.c.closed[k] ? len : len - 1;
        if (b.c.closed[k]) seen_closed = 1;
        else if (seen_closed) order_ok = 0;
        /* consecutive points are joined by a segment a -> b */
        for (uint32_t i = 0; i + 1 < len || (b.c.closed[k] && i < len); i++) {
            uint32_t a = b.c.idx[b.c.start[k] + i], c = b.c.idx[b.c.start[k] + (i + 1) % len];
            int found = 0;
            for (uint32_t g = 0; g < m->nseg && !found; g++) found = m->seg[2 * g] == a && m->seg[2 * g + 1] == c;
            if (!found) {
                FAIL("%s: chain %u step %u: no segment %u -> %u", what, k, i, a, c);
                break;
            }
        }
    }
    EXPECT(order_ok, "%s: an open chain after a closed one", what);
    EXPECT(closed == ncyc, "%s: %u closed chains, flood finds %u cycles", what, closed, ncyc);
    EXPECT(segs == m->nseg, "%s: chains use %u segments of %u", what, segs, m->nseg);
    if (expect_all_closed) EXPECT(closed == b.c.nchain && nc > 0, "%s: %u of %u closed", what, closed, b.c.nchain);
    chain_free(&b);
    return fails;
}

int wk_check_chains_vs_flood(void) {
    int fails = 0;
    const uint32_t w = 60, h = 45;
    float *v = wk_contour_noise_field(w, h, 21, 1.0 / 6.0, 0.0f);
    float *e = malloc(sizeof(float) * w * h);
    memcpy(e, v, sizeof(float) * w * h);
    for (uint32_t x = 0; x < w; x++) e[x] = e[(h - 1) * w + x] = -1.0f;
    for (uint32_t y = 0; y < h; y++) e[y * w] = e[y * w + w - 1] = -1.0f;
    wk_mesh2 m = build_mesh(e, w, h, 0, 0, w - 1, h - 1, 0.0f, WK_MSQ_SEGMENTS);
    fails += check_chains_of(&m, "empty border", 1);
    free_mesh(&m);
    m = build_mesh(v, w, h, 0, 0, w - 1, h - 1, 0.0f, WK_MSQ_SEGMENTS | WK_MSQ_TRIANGLES);
    fails += check_chains_of(&m, "whole field", 0);
    free_mesh(&m);
    /* a chunk: contours leaving it stay open, their ends on its border */
    m = build_mesh(v, w, h, 10, 7, 20, 16, 0.0f, WK_MSQ_SEGMENTS);
    fails += check_chains_of(&m, "chunk", 0);
    {
        chain_buf b = chain_new(&m);
        wk_msq_chains(&m, &b.c, b.work, b.work_len, NULL);
        int open = 0;
        for (uint32_t k = 0; k < b.c.nchain; k++) {
            if (b.c.closed[k]) continue;
            open++;
            uint32_t ends[2] = {b.c.idx[b.c.start[k]], b.c.idx[b.c.start[k + 1] - 1]};
            for (int i = 0; i < 2; i++) {
                float x = m.x[ends[i]], y = m.y[ends[i]];
                EXPECT(x == 10.0f || x == 30.0f || y == 7.0f || y == 23.0f, "chunk: open end at (%g, %g) inside",
                       (double)x, (double)y);
            }
        }
        EXPECT(open > 0, "chunk: no open chain (the test field should cross its border)");
        chain_free(&b);
    }
    /* random fields with saddles */
    wk_rng r = {9};
    for (uint32_t i = 0; i < w * h; i++) v[i] = (float)wk_rng_range(&r, -1, 1);
    free_mesh(&m);
    m = build_mesh(v, w, h, 0, 0, w - 1, h - 1, 0.0f, WK_MSQ_SEGMENTS);
    fails += check_chains_of(&m, "random", 0);
    free_mesh(&m);
    free(v);
    free(e);
    return fails;
}

int wk_check_chains_bad_input(void) {
    int fails = 0;
    uint32_t seg[6] = {0, 1, 1, 2, 2, 0};
    float x[3] = {0, 1, 0}, y[3] = {0, 0, 1};
    wk_mesh2 m = WK_MESH2_DEFAULTS;
    m.x = x;
    m.y = y;
    m.nvert = 3;
    m.seg = seg;
    m.nseg = 3;
    chain_buf b = chain_new(&m);
    wk_status s = wk_msq_chains(&m, &b.c, b.work, b.work_len, NULL);
    EXPECT(s == WK_OK && b.c.nchain == 1 && b.c.closed[0] == 1 && b.c.nidx == 3, "triangle loop: %d %u", s, b.c.nchain);
    EXPECT(wk_msq_chains(NULL, &b.c, b.work, b.work_len, NULL) == WK_ERR_NULL, "NULL m");
    EXPECT(wk_msq_chains(&m, NULL, b.work, b.work_len, NULL) == WK_ERR_NULL, "NULL out");
    EXPECT(wk_msq_chains(&m, &b.c, NULL, b.work_len, NULL) == WK_ERR_NULL, "NULL work");
    EXPECT(wk_msq_chains(&m, &b.c, b.work, b.work_len - 1, NULL) == WK_ERR_INVALID_ARG, "short work");
    seg[3] = 3;
    EXPECT(wk_msq_chains(&m, &b.c, b.work, b.work_len, NULL) == WK_ERR_INVALID_ARG, "index out of range");
    seg[3] = 2;
    wk_chains small = b.c;
    small.idx_cap = 2;
    small.nidx = 77;
    uint32_t idx0 = b.c.idx[0] = 12345;
    s = wk_msq_chains(&m, &small, b.work, b.work_len, NULL);
    EXPECT(s == WK_ERR_CAPACITY && small.nidx == 3 && small.nchain == 1 && b.c.idx[0] == idx0,
           "capacity: %d %u %u", s, small.nidx, small.nchain);
    small = b.c;
    small.idx = b.work; /* overlaps work */
    EXPECT(wk_msq_chains(&m, &small, b.work, b.work_len, NULL) == WK_ERR_ALIAS, "alias");
    small = b.c;
    small.reserved[0] = 1;
    EXPECT(wk_msq_chains(&m, &small, b.work, b.work_len, NULL) == WK_ERR_INVALID_ARG, "reserved");
    /* empty */
    m.nseg = 0;
    s = wk_msq_chains(&m, &b.c, b.work, wk_msq_chains_work(3, 0), NULL);
    EXPECT(s == WK_OK && b.c.nchain == 0 && b.c.nidx == 0 && b.c.start[0] == 0, "empty: %d", s);
    chain_free(&b);
    return fails;
}

/* ------------------------------------------------------------ simplify */

static int simplify_case(const float *x, const float *y, uint32_t n, uint32_t closed, float tol, uint32_t method,
                         const uint32_t *want, uint32_t nwant, const char *what) {
    int fails = 0;
    uint32_t chain[64], out[64], nout = 0;
    for (uint32_t i = 0; i < n; i++) chain[i] = i;
    wk_status s = wk_msq_simplify(x, y, n, chain, n, closed, tol, method, out, n, &nout, NULL);
    EXPECT(s == WK_OK, "%s: status %d", what, s);
    int same = nout == nwant;
    for (uint32_t i = 0; same && i < nout; i++) same = out[i] == want[i];
    if (!same) {
        char got[256] = "";
        for (uint32_t i = 0; i < nout && strlen(got) < 200; i++) snprintf(got + strlen(got), 16, " %u", out[i]);
        FAIL("%s: kept%s (%u points), want %u points", what, got, nout, nwant);
    }
    return fails;
}

int wk_check_simplify_known(void) {
    int fails = 0;
    /* the worked example: greedy drops p1 (0.05 from p0-p2), keeps p2
     * (0.632 from p0-p3); RDP keeps p2 (farthest), then drops p1 */
    float x1[4] = {0, 1, 2, 3}, y1[4] = {0, 0.05f, 0, 1};
    uint32_t want1[3] = {0, 2, 3};
    fails += simplify_case(x1, y1, 4, 0, 0.1f, WK_SIMPLIFY_GREEDY, want1, 3, "example greedy");
    fails += simplify_case(x1, y1, 4, 0, 0.1f, WK_SIMPLIFY_RDP, want1, 3, "example rdp");
    uint32_t all[4] = {0, 1, 2, 3};
    fails += simplify_case(x1, y1, 4, 0, 0.0f, WK_SIMPLIFY_GREEDY, all, 4, "tolerance 0 greedy");
    fails += simplify_case(x1, y1, 4, 0, 0.0f, WK_SIMPLIFY_RDP, all, 4, "tolerance 0 rdp");
    /* collinear: endpoints only */
    float xl[6] = {0, 1, 2, 3, 4, 5}, yl[6] = {0, 0, 0, 0, 0, 0};
    uint32_t ends[2] = {0, 5};
    fails += simplify_case(xl, yl, 6, 0, 0.0f, WK_SIMPLIFY_GREEDY, ends, 2, "line greedy");
    fails += simplify_case(xl, yl, 6, 0, 0.0f, WK_SIMPLIFY_RDP, ends, 2, "line rdp");
    /* a closed square with midpoints: the 4 corners (RDP splits at the
     * corner farthest from p0, the opposite one) */
    float xs[8] = {0, 1, 2, 2, 2, 1, 0, 0}, ys[8] = {0, 0, 0, 1, 2, 2, 2, 1};
    uint32_t corners[4] = {0, 2, 4, 6};
    fails += simplify_case(xs, ys, 8, 1, 0.01f, WK_SIMPLIFY_GREEDY, corners, 4, "square greedy");
    fails += simplify_case(xs, ys, 8, 1, 0.01f, WK_SIMPLIFY_RDP, corners, 4, "square rdp");
    /* a tiny loop under a huge tolerance stays a loop of 3 */
    uint32_t three[3] = {0, 2, 5};
    fails += simplify_case(xs, ys, 8, 1, 100.0f, WK_SIMPLIFY_GREEDY, three, 3, "loop min greedy");
    fails += simplify_case(xs, ys, 8, 1, 100.0f, WK_SIMPLIFY_RDP, three, 3, "loop min rdp");
    /* bad input */
    uint32_t chain[4] = {0, 1, 2, 3}, out[4], nout = 0;
    EXPECT(wk_msq_simplify(x1, y1, 4, chain, 4, 0, NAN, 0, out, 4, &nout, NULL) == WK_ERR_NOT_FINITE, "NaN tol");
    EXPECT(wk_msq_simplify(x1, y1, 4, chain, 4, 0, -1.0f, 0, out, 4, &nout, NULL) == WK_ERR_INVALID_ARG, "neg tol");
    EXPECT(wk_msq_simplify(x1, y1, 4, chain, 4, 0, 1.0f, 2, out, 4, &nout, NULL) == WK_ERR_INVALID_ARG, "method");
    EXPECT(wk_msq_simplify(x1, y1, 3, chain, 4, 0, 1.0f, 0, out, 4, &nout, NULL) == WK_ERR_INVALID_ARG, "index");
    EXPECT(wk_msq_simplify(x1, y1, 4, chain, 4, 0, 1.0f, 0, out, 3, &nout, NULL) == WK_ERR_CAPACITY && nout == 4,
           "capacity");
    EXPECT(wk_msq_simplify(x1, y1, 4, chain, 4, 0, 1.0f, 0, chain, 4, &nout, NULL) == WK_ERR_ALIAS, "alias");
    EXPECT(wk_msq_simplify(NULL, y1, 4, chain, 4, 0, 1.0f, 0, out, 4, &nout, NULL) == WK_ERR_NULL, "NULL x");
    EXPECT(wk_msq_simplify(x1, y1, 4, chain, 0, 0, 1.0f, 0, out, 4, &nout, NULL) == WK_OK && nout == 0, "n 0");
    return fails;
}

/* On real contours: every dropped point lies within tolerance of the line
 * between the kept points around it; loops stay closed. */
int wk_check_simplify_contours(void) {
    int fails = 0;
    const uint32_t w = 80, h = 60;
    float *v = wk_contour_noise_field(w, h, 4, 1.0 / 10.0, 0.0f);
    for (uint32_t x = 0; x < w; x++) v[x] = v[(h - 1) * w + x] = -1.0f;
    for (uint32_t y = 0; y < h; y++) v[y * w] = v[y * w + w - 1] = -1.0f;
    wk_mesh2 m = build_mesh(v, w, h, 0, 0, w - 1, h - 1, 0.0f, WK_MSQ_SEGMENTS);
    chain_buf b = chain_new(&m);
    wk_msq_chains(&m, &b.c, b.work, b.work_len, NULL);
    uint32_t *out = malloc(sizeof(uint32_t) * (m.nseg + 1));
    for (uint32_t method = 0; method < 2; method++)
        for (uint32_t k = 0; k < b.c.nchain; k++) {
            const uint32_t *c = b.c.idx + b.c.start[k];
            uint32_t n = b.c.start[k + 1] - b.c.start[k], nout = 0;
            const float tol = 0.3f;
            wk_status s = wk_msq_simplify(m.x, m.y, m.nvert, c, n, b.c.closed[k], tol, method, out, n, &nout, NULL);
            EXPECT(s == WK_OK && nout >= (n >= 3 ? 3u : n) && nout <= n && out[0] == c[0], "chain %u: %d %u of %u", k,
                   s, nout, n);
            /* walk the original, checking each dropped point against its kept neighbours */
            uint32_t j = 0; /* index in out of the last kept at or before i */
            for (uint32_t i = 0; i < n && s == WK_OK; i++) {
                if (j + 1 < nout && c[i] == out[j + 1]) {
                    j++;
                    continue;
                }
                if (c[i] == out[j]) continue;
                uint32_t a = out[j], bb = j + 1 < nout ? out[j + 1] : out[0];
                double dx = (double)m.x[bb] - m.x[a], dy = (double)m.y[bb] - m.y[a];
                double px = (double)m.x[c[i]] - m.x[a], py = (double)m.y[c[i]] - m.y[a];
                double len = sqrt(dx * dx + dy * dy);
                double d = len > 0 ? fabs(dx * py - dy * px) / len : sqrt(px * px + py * py);
                if (method == WK_SIMPLIFY_RDP && nout > 3)
                    EXPECT(d <= tol + 1e-9, "rdp chain %u: dropped point %u at %g from its chord", k, i, d);
            }
        }
    free(out);
    chain_free(&b);
    free_mesh(&m);
    free(v);
    return fails;
}

/* ---------------------------------------------------------------- brush */

int wk_check_brush_formula(void) {
    int fails = 0;
    const uint32_t w = 24, h = 20;
    float v[24 * 20];
    for (int i = 0; i < 24 * 20; i++) v[i] = 1.0f;
    uint32_t t[4];
    wk_status s = wk_msq_brush(v, w, h, w, 10.0f, 10.0f, 3.0f, 1.0f, WK_BRUSH_DIG, t, NULL);
    EXPECT(s == WK_OK, "dig: %d", s);
    EXPECT(v[10 * w + 13] == 0.5f, "d = r: %g", (double)v[10 * w + 13]);
    EXPECT(v[10 * w + 14] == 1.0f, "d = r + cell: %g", (double)v[10 * w + 14]);
    EXPECT(v[10 * w + 11] == 0.0f, "d = r - 2 cells: %g", (double)v[10 * w + 11]);
    EXPECT(v[10 * w + 10] == 0.0f, "centre: %g", (double)v[10 * w + 10]);
    /* d = 3.5: b = 0.75 */
    float cx = 10.0f, cy = 10.0f;
    (void)cx;
    (void)cy;
    EXPECT(t[0] == 5 && t[1] == 5 && t[2] == 16 && t[3] == 16, "touched %u %u %u %u", t[0], t[1], t[2], t[3]);
    /* fill back */
    s = wk_msq_brush(v, w, h, w, 10.0f, 10.0f, 3.0f, 1.0f, WK_BRUSH_FILL, t, NULL);
    EXPECT(s == WK_OK && v[10 * w + 13] == 0.5f && v[10 * w + 10] == 1.0f, "fill: %g %g", (double)v[10 * w + 13],
           (double)v[10 * w + 10]);
    /* half-cell distances: node (12, 10) from centre (9.5, 10), r 3: d = 2.5, b = 0.25 */
    for (int i = 0; i < 24 * 20; i++) v[i] = 1.0f;
    v[10 * w + 12] = NAN;
    s = wk_msq_brush(v, w, h, w, 9.5f, 10.0f, 3.0f, 1.0f, WK_BRUSH_DIG, t, NULL);
    EXPECT(v[10 * w + 12] == 0.25f, "NaN node takes b: %g", (double)v[10 * w + 12]);
    EXPECT(v[10 * w + 13] == 0.75f, "d = 3.5: %g", (double)v[10 * w + 13]);
    /* the border ring stays unless asked */
    for (int i = 0; i < 24 * 20; i++) v[i] = 1.0f;
    s = wk_msq_brush(v, w, h, w, 0.0f, 0.0f, 3.0f, 1.0f, WK_BRUSH_DIG, t, NULL);
    int border_changed = 0, inside_changed = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            int ring = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            if (v[y * w + x] != 1.0f) {
                border_changed += ring;
                inside_changed += !ring;
            }
        }
    EXPECT(s == WK_OK && border_changed == 0 && inside_changed > 0 && t[0] == 1 && t[1] == 1, "ring: %d %d (%u %u)",
           border_changed, inside_changed, t[0], t[1]);
    s = wk_msq_brush(v, w, h, w, 0.0f, 0.0f, 3.0f, 1.0f, WK_BRUSH_DIG | WK_BRUSH_EDIT_BORDER, t, NULL);
    EXPECT(s == WK_OK && v[0] == 0.0f && t[0] == 0 && t[1] == 0, "edit border: %g", (double)v[0]);
    /* missing the field */
    s = wk_msq_brush(v, w, h, w, -100.0f, 5.0f, 3.0f, 1.0f, WK_BRUSH_DIG, t, NULL);
    EXPECT(s == WK_OK && t[0] == 0 && t[2] == 0, "miss: %u %u", t[0], t[2]);
    s = wk_msq_brush(v, w, h, w, 5.0f, 5.0f, 1e30f, 1.0f, WK_BRUSH_DIG, t, NULL);
    EXPECT(s == WK_OK && t[0] == 1 && t[2] == w - 1 && v[5 * w + 5] == 0.0f, "huge radius: %u %u", t[0], t[2]);
    /* bad input, field untouched */
    float keep = v[5 * w + 6];
    EXPECT(wk_msq_brush(NULL, w, h, w, 5, 5, 3, 1, 0, t, NULL) == WK_ERR_NULL, "NULL v");
    EXPECT(wk_msq_brush(v, w, h, w, 5, 5, 3, 1, 0, NULL, NULL) == WK_ERR_NULL, "NULL touched");
    EXPECT(wk_msq_brush(v, w, h, w - 1, 5, 5, 3, 1, 0, t, NULL) == WK_ERR_STRIDE, "stride");
    EXPECT(wk_msq_brush(v, 0, h, w, 5, 5, 3, 1, 0, t, NULL) == WK_ERR_INVALID_ARG, "w 0");
    EXPECT(wk_msq_brush(v, w, h, w, NAN, 5, 3, 1, 0, t, NULL) == WK_ERR_NOT_FINITE, "NaN cx");
    EXPECT(wk_msq_brush(v, w, h, w, 5, 5, INFINITY, 1, 0, t, NULL) == WK_ERR_NOT_FINITE, "inf radius");
    EXPECT(wk_msq_brush(v, w, h, w, 5, 5, -1, 1, 0, t, NULL) == WK_ERR_INVALID_ARG, "negative radius");
    EXPECT(wk_msq_brush(v, w, h, w, 5, 5, 3, 0, 0, t, NULL) == WK_ERR_INVALID_ARG, "cell 0");
    EXPECT(wk_msq_brush(v, w, h, w, 5, 5, 3, 1, 8, t, NULL) == WK_ERR_INVALID_ARG, "flags");
    EXPECT(v[5 * w + 6] == keep, "field changed by a failed call");
    return fails;
}

/* A circle dug by the brush comes out round: every contour vertex within
 * 0.02 cells of the radius. */
int wk_check_brush_round(void) {
    int fails = 0;
    const uint32_t w = 64, h = 64;
    float *v = malloc(sizeof(float) * w * h);
    const float cells[] = {1.0f, 0.25f};
    for (size_t ci = 0; ci < COUNT(cells); ci++) {
        float cell = cells[ci];
        for (uint32_t i = 0; i < w * h; i++) v[i] = 1.0f;
        float cx = 31.3f * cell, cy = 30.8f * cell, r = 14.0f * cell;
        uint32_t t[4];
        wk_msq_brush(v, w, h, w, cx, cy, r, cell, WK_BRUSH_DIG, t, NULL);
        wk_field2 f = field(v, w, h);
        wk_mesh2 m = WK_MESH2_DEFAULTS;
        wk_msq_bound(w - 1, h - 1, WK_MSQ_SEGMENTS, &m.vert_cap, &m.tri_cap, &m.seg_cap);
        m.x = malloc(sizeof(float) * m.vert_cap);
        m.y = malloc(sizeof(float) * m.vert_cap);
        m.seg = malloc(sizeof(uint32_t) * 2 * m.seg_cap);
        wk_status s = wk_msq_build(&f, 0, 0, w - 1, h - 1, 0.5f, cell, WK_MSQ_SEGMENTS, &m, NULL);
        EXPECT(s == WK_OK && m.nvert > 50, "round: %d, %u vertices", s, m.nvert);
        double worst = 0;
        for (uint32_t i = 0; i < m.nvert; i++) {
            double d = hypot((double)m.x[i] - cx, (double)m.y[i] - cy);
            double e = fabs(d - r) / cell;
            if (e > worst) worst = e;
        }
        EXPECT(worst <= 0.02, "cell %g: a contour vertex %g cells off the radius", (double)cell, worst);
        if (ci == 0) fprintf(stderr, "brush_round: worst vertex %.4f cells off the radius\n", worst);
        free(m.x);
        free(m.y);
        free(m.seg);
    }
    free(v);
    return fails;
}

/* --------------------------------------------------------- chunked field */

typedef struct counting_alloc {
    int allocs, frees;
    long long bytes; /* outstanding: every free must give back its allocation's size */
} counting_alloc;
static void *count_alloc(void *user, size_t bytes) {
    ((counting_alloc *)user)->allocs++;
    ((counting_alloc *)user)->bytes += (long long)bytes;
    return malloc(bytes);
}
static void count_free(void *user, void *p, size_t bytes) {
    ((counting_alloc *)user)->frees++;
    ((counting_alloc *)user)->bytes -= (long long)bytes;
    free(p);
}

/* Every chunk's mesh equals wk_msq_build over its rectangle, bit for bit. */
static int chunks_match(wk_msq_chunks *c, const float *v, uint32_t w, uint32_t h, uint32_t n, uint32_t flags,
                        float iso, float cell, const char *what) {
    int fails = 0;
    uint32_t nx, ny;
    wk_msq_chunks_grid(c, &nx, &ny);
    wk_field2 f = field(v, w, h);
    for (uint32_t ky = 0; ky < ny; ky++)
        for (uint32_t kx = 0; kx < nx; kx++) {
            wk_mesh2 view;
            wk_msq_chunks_mesh(c, kx, ky, &view);
            uint32_t x0 = kx * n, y0 = ky * n;
            uint32_t cw = w - 1 - x0 < n ? w - 1 - x0 : n, ch = h - 1 - y0 < n ? h - 1 - y0 : n;
            wk_mesh2 m = WK_MESH2_DEFAULTS;
            wk_msq_bound(cw, ch, flags, &m.vert_cap, &m.tri_cap, &m.seg_cap);
            m.x = malloc(sizeof(float) * m.vert_cap);
            m.y = malloc(sizeof(float) * m.vert_cap);
            m.tri = malloc(sizeof(uint32_t) * 3 * (size_t)m.tri_cap + 4);
            m.seg = malloc(sizeof(uint32_t) * 2 * (size_t)m.seg_cap + 4);
            wk_status s = wk_msq_build(&f, x0, y0, cw, ch, iso, cell, flags, &m, NULL);
            int same = s == WK_OK && m.nvert == view.nvert && m.ntri == view.ntri && m.nseg == view.nseg;
            if (same && m.nvert)
                same = !memcmp(m.x, view.x, 4 * (size_t)m.nvert) && !memcmp(m.y, view.y, 4 * (size_t)m.nvert);
            if (same && m.ntri) same = !memcmp(m.tri, view.tri, 12 * (size_t)m.ntri);
            if (same && m.nseg) same = !memcmp(m.seg, view.seg, 8 * (size_t)m.nseg);
            EXPECT(same, "%s: chunk (%u, %u) differs from a direct build (%u/%u verts)", what, kx, ky, view.nvert,
                   m.nvert);
            free(m.x);
            free(m.y);
            free(m.tri);
            free(m.seg);
            if (!same) return fails;
        }
    return fails;
}

int wk_check_chunks_rebuild(void) {
    int fails = 0;
    const uint32_t w = 97, h = 70, n = 16;
    float *v = wk_contour_noise_field(w, h, 33, 1.0 / 12.0, 0.0f);
    for (uint32_t i = 0; i < w * h; i++) v[i] = v[i] * 0.5f + 0.5f; /* densities around 0.5 */
    counting_alloc ca = {0, 0, 0};
    wk_msq_chunks_desc d = WK_MSQ_CHUNKS_DESC_DEFAULTS;
    d.w = w;
    d.h = h;
    d.chunk = n;
    d.iso = 0.5f;
    d.cell = 0.5f;
    d.alloc.alloc = count_alloc;
    d.alloc.free = count_free;
    d.alloc.user = &ca;
    wk_msq_chunks *c = NULL;
    wk_status s = wk_msq_chunks_create(&d, &c);
    EXPECT(s == WK_OK && c, "create: %d", s);
    if (!c) return fails;
    uint32_t nx, ny, nd, dirty, rebuilt;
    wk_msq_chunks_grid(c, &nx, &ny);
    EXPECT(nx == 6 && ny == 5, "grid %u x %u", nx, ny);
    wk_msq_chunks_dirty(c, 0, 0, &dirty, &nd);
    EXPECT(dirty == 1 && nd == nx * ny, "all dirty at first: %u", nd);
    wk_field2 f = field(v, w, h);
    s = wk_msq_chunks_rebuild(c, &f, &rebuilt, NULL);
    EXPECT(s == WK_OK && rebuilt == nx * ny, "first rebuild: %d, %u", s, rebuilt);
    EXPECT(wk_last_error_detail()[0] == 0, "detail after success: %s", wk_last_error_detail());
    fails += chunks_match(c, v, w, h, n, d.flags, d.iso, d.cell, "first");
    /* marking: a node on a chunk corner dirties 4 chunks, inside 1, at the
     * field's corner 1 */
    uint32_t r1[4] = {32, 16, 33, 17};
    wk_msq_chunks_mark(c, r1);
    wk_msq_chunks_dirty(c, 1, 0, &dirty, &nd);
    EXPECT(nd == 4 && dirty == 1, "corner node: %u dirty", nd);
    wk_msq_chunks_rebuild(c, &f, &rebuilt, NULL);
    uint32_t r2[4] = {40, 40, 41, 41}, r3[4] = {0, 0, 1, 1}, r4[4] = {96, 69, 97, 70}, r5[4] = {5, 5, 5, 9};
    wk_msq_chunks_mark(c, r2);
    wk_msq_chunks_dirty(c, 2, 2, &dirty, &nd);
    EXPECT(nd == 1 && dirty == 1, "inner node: %u", nd);
    wk_msq_chunks_mark(c, r3);
    wk_msq_chunks_mark(c, r4);
    wk_msq_chunks_mark(c, r5);
    wk_msq_chunks_dirty(c, 5, 4, &dirty, &nd);
    EXPECT(nd == 3 && dirty == 1, "field corners and an empty rect: %u", nd);
    wk_msq_chunks_rebuild(c, &f, &rebuilt, NULL);
    EXPECT(rebuilt == 3, "rebuilt %u", rebuilt);
    /* brush strokes, marking, rebuilding on every ISA and thread count */
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    wk_rng r = {77};
    for (int stroke = 0; stroke < 24; stroke++) {
        float cx = (float)wk_rng_range(&r, -2, w * d.cell + 2), cy = (float)wk_rng_range(&r, -2, h * d.cell + 2);
        float rad = (float)wk_rng_range(&r, 0, 6);
        uint32_t t[4];
        s = wk_msq_brush(v, w, h, w, cx, cy, rad, d.cell, stroke % 3 == 0 ? WK_BRUSH_FILL : WK_BRUSH_DIG, t, NULL);
        EXPECT(s == WK_OK, "brush: %d", s);
        wk_msq_chunks_mark(c, t);
        wk_exec e = wk_exec_for(isas[stroke % nisa], wk_test_threads() == 1 ? 1 : 1 + stroke % 3);
        s = wk_msq_chunks_rebuild(c, &f, &rebuilt, &e);
        EXPECT(s == WK_OK, "rebuild: %d", s);
        fails += chunks_match(c, v, w, h, n, d.flags, d.iso, d.cell, "stroke");
        if (fails) break;
    }
    /* warm: the same stroke again and again allocates nothing */
    uint32_t t[4];
    wk_msq_brush(v, w, h, w, 20.0f, 15.0f, 4.0f, d.cell, WK_BRUSH_DIG, t, NULL);
    wk_msq_chunks_mark(c, t);
    wk_msq_chunks_rebuild(c, &f, &rebuilt, NULL);
    int before = ca.allocs;
    for (int i = 0; i < 5; i++) {
        wk_msq_brush(v, w, h, w, 20.0f, 15.0f, 4.0f, d.cell, WK_BRUSH_DIG, t, NULL);
        wk_msq_chunks_mark(c, t);
        wk_msq_chunks_rebuild(c, &f, &rebuilt, NULL);
    }
    EXPECT(ca.allocs == before, "warm rebuilds allocated %d times", ca.allocs - before);
    /* bad input */
    wk_field2 g = field(v, w - 1, h);
    g.stride = w;
    wk_msq_chunks_mark(c, r2);
    EXPECT(wk_msq_chunks_rebuild(c, &g, &rebuilt, NULL) == WK_ERR_INVALID_ARG, "wrong field size");
    wk_msq_chunks_dirty(c, 0, 0, NULL, &nd);
    EXPECT(nd == 1, "still dirty after a failed rebuild: %u", nd);
    EXPECT(wk_msq_chunks_rebuild(NULL, &f, &rebuilt, NULL) == WK_ERR_NULL, "NULL c");
    EXPECT(wk_msq_chunks_mesh(c, nx, 0, &(wk_mesh2){0}) == WK_ERR_INVALID_ARG, "mesh out of range");
    wk_msq_chunks_destroy(c);
    EXPECT(ca.allocs == ca.frees, "allocs %d, frees %d", ca.allocs, ca.frees);
    EXPECT(ca.bytes == 0, "frees gave back %lld bytes fewer than allocated", ca.bytes);
    wk_msq_chunks_destroy(NULL);
    d.chunk = 0;
    EXPECT(wk_msq_chunks_create(&d, &c) == WK_ERR_INVALID_ARG && c == NULL, "chunk 0");
    d.chunk = 8;
    d.w = 1;
    EXPECT(wk_msq_chunks_create(&d, &c) == WK_ERR_INVALID_ARG, "w 1");
    d.w = w;
    d.iso = NAN;
    EXPECT(wk_msq_chunks_create(&d, &c) == WK_ERR_NOT_FINITE, "iso NaN");
    d.iso = 0.5f;
    d.alloc.free = NULL;
    EXPECT(wk_msq_chunks_create(&d, &c) == WK_ERR_INVALID_ARG, "half hooks");
    free(v);
    return fails;
}
