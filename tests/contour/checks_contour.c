/* The contour family's checks: marching squares geometry derived by hand,
 * invariants (welding, closed loops, area), chunk seams, every ISA against
 * the reference, bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contour_fields.h"
#include "wk_checks.h"
#include "worldkern/contour.h"
#include "worldkern/noise.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------- helpers */

typedef struct mesh_buf {
    wk_mesh2 m;
    float *x, *y;
    uint32_t *tri, *seg;
} mesh_buf;

static mesh_buf mesh_new(uint32_t cw, uint32_t ch, uint32_t flags) {
    mesh_buf b;
    memset(&b, 0, sizeof b);
    uint32_t vc = 0, tc = 0, sc = 0;
    wk_msq_bound(cw, ch, flags, &vc, &tc, &sc);
    b.x = malloc(sizeof(float) * (vc + 1));
    b.y = malloc(sizeof(float) * (vc + 1));
    b.tri = malloc(sizeof(uint32_t) * (3 * (size_t)tc + 1));
    b.seg = malloc(sizeof(uint32_t) * (2 * (size_t)sc + 1));
    b.m.x = b.x;
    b.m.y = b.y;
    b.m.tri = b.tri;
    b.m.seg = b.seg;
    b.m.vert_cap = vc;
    b.m.tri_cap = tc;
    b.m.seg_cap = sc;
    return b;
}

static void mesh_free(mesh_buf *b) {
    free(b->x);
    free(b->y);
    free(b->tri);
    free(b->seg);
}

static wk_field2 field_of(const float *v, uint32_t w, uint32_t h, size_t stride) {
    wk_field2 f;
    memset(&f, 0, sizeof f);
    f.v = v;
    f.w = w;
    f.h = h;
    f.stride = stride;
    return f;
}

/* contour_fields.h */
float *wk_contour_noise_field(uint32_t w, uint32_t h, uint32_t seed, double freq, float shift) {
    float *v = malloc(sizeof(float) * w * h);
    wk_fbm f = WK_FBM_DEFAULTS;
    f.seed = seed;
    f.octaves = 3;
    f.frequency = freq;
    wk_grid2 g = WK_GRID2_DEFAULTS;
    g.nx = w;
    g.ny = h;
    g.step = 1.0;
    g.stride = w;
    wk_noise_fbm2_grid(&f, &g, v, NULL);
    for (size_t i = 0; i < (size_t)w * h; i++) v[i] += shift;
    return v;
}

/* --------------------------------------------- the 16 cases, by hand */

/* Slot names: c0..c3 corners, e0..e3 edges. Expected triangles and
 * segments per case, derived on paper from the rules in contour.h. */
typedef struct hand_case {
    unsigned cs;
    int connected; /* saddles: 1 connected reading, 0 separated */
    const char *tris;
    const char *segs;
} hand_case;

static const hand_case hand_cases[] = {
    {0, 0, "", ""},
    {1, 0, "c0 e0 e3", "e3 e0"},
    {2, 0, "e0 c1 e1", "e0 e1"},
    {3, 0, "c0 c1 e1 c0 e1 e3", "e3 e1"},
    {4, 0, "e1 c2 e2", "e1 e2"},
    {5, 1, "c0 e0 e1 c0 e1 c2 c0 c2 e2 c0 e2 e3", "e1 e0 e3 e2"},
    {5, 0, "c0 e0 e3 e1 c2 e2", "e3 e0 e1 e2"},
    {6, 0, "e0 c1 c2 e0 c2 e2", "e0 e2"},
    {7, 0, "c0 c1 c2 c0 c2 e2 c0 e2 e3", "e3 e2"},
    {8, 0, "e2 c3 e3", "e2 e3"},
    {9, 0, "c0 e0 e2 c0 e2 c3", "e2 e0"},
    {10, 1, "e0 c1 e1 e0 e1 e2 e0 e2 c3 e0 c3 e3", "e0 e3 e2 e1"},
    {10, 0, "e0 c1 e1 e2 c3 e3", "e0 e1 e2 e3"},
    {11, 0, "c0 c1 e1 c0 e1 e2 c0 e2 c3", "e2 e1"},
    {12, 0, "e1 c2 c3 e1 c3 e3", "e1 e3"},
    {13, 0, "c0 e0 e1 c0 e1 c2 c0 c2 c3", "e1 e0"},
    {14, 0, "e0 c1 c2 e0 c2 c3 e0 c3 e3", "e0 e3"},
    {15, 0, "c0 c1 c2 c0 c2 c3", ""},
};

/* Position of a named slot of the cell with corner values v (cell at field
 * node (gx, gy)), from the formulas in contour.h. */
static void slot_pos(const char *name, const float v[4], float iso, uint32_t gx, uint32_t gy, float cell,
                     float *px, float *py) {
    int k = name[1] - '0';
    double x = gx, y = gy;
    static const int cx[4] = {0, 1, 1, 0}, cy[4] = {0, 0, 1, 1};
    if (name[0] == 'c') {
        x += cx[k];
        y += cy[k];
    } else {
        /* edge k joins corners k and k+1; a = the lower-coordinate one */
        int a = k, b = (k + 1) & 3;
        if (cx[b] + cy[b] < cx[a] + cy[a]) {
            int t = a;
            a = b;
            b = t;
        }
        float t = v[a] == v[b] ? 0.5f : (iso - v[a]) / (v[b] - v[a]);
        if (t != t) t = 0.5f;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        x += cx[a] + (cx[b] - cx[a]) * (double)t;
        y += cy[a] + (cy[b] - cy[a]) * (double)t;
    }
    *px = (float)(x * cell);
    *py = (float)(y * cell);
}

static int split_names(const char *s, char names[24][3]) {
    int n = 0;
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        names[n][0] = s[0];
        names[n][1] = s[1];
        names[n][2] = 0;
        n++;
        s += 2;
    }
    return n;
}

static int same_point(const wk_mesh2 *m, uint32_t idx, float px, float py) {
    return idx < m->nvert && wk_bits(m->x[idx]) == wk_bits(px) && wk_bits(m->y[idx]) == wk_bits(py);
}

/* One cell at field position (gx, gy) in a 3x3-node field (the others NaN). */
static int check_hand_case(const hand_case *hc, int variant, uint32_t flags) {
    int fails = 0;
    const float iso = 0.25f, cell = 1.5f;
    float v[4];
    for (int k = 0; k < 4; k++) {
        int solid = (int)(hc->cs >> k & 1);
        /* variant 0: 1 / 0 (t = 0.25); variant 1: uneven values */
        if (variant == 0) v[k] = solid ? 1.0f : 0.0f;
        else v[k] = solid ? 0.5f + 0.37f * (float)k : -0.1f - 0.2f * (float)k;
    }
    if (hc->cs == 5 || hc->cs == 10) {
        /* choose the empty values so the mean gives the wanted reading */
        float e = hc->connected ? 0.0f : -1.0f;
        for (int k = 0; k < 4; k++)
            if (!(hc->cs >> k & 1)) v[k] = e - (variant ? 0.05f * (float)k : 0.0f);
        float mean = (((v[0] + v[1]) + v[2]) + v[3]) * 0.25f;
        EXPECT((mean >= iso) == hc->connected, "case %u: test setup mean %g", hc->cs, (double)mean);
    }
    /* field 4 x 3 nodes, cell (1, 1) */
    float fv[12];
    for (int i = 0; i < 12; i++) fv[i] = NAN;
    uint32_t gx = 1, gy = 1;
    fv[gy * 4 + gx] = v[0];
    fv[gy * 4 + gx + 1] = v[1];
    fv[(gy + 1) * 4 + gx + 1] = v[2];
    fv[(gy + 1) * 4 + gx] = v[3];
    wk_field2 f = field_of(fv, 4, 3, 4);
    mesh_buf b = mesh_new(1, 1, flags);
    wk_status s = wk_msq_build(&f, gx, gy, 1, 1, iso, cell, flags, &b.m, NULL);
    EXPECT(s == WK_OK, "case %u: status %d", hc->cs, s);
    char tn[24][3], sn[24][3];
    int nt = split_names(hc->tris, tn) / 3, ns = split_names(hc->segs, sn) / 2;
    int want_tri = (flags & WK_MSQ_TRIANGLES) != 0, want_seg = (flags & WK_MSQ_SEGMENTS) != 0;
    /* vertex count: solid corners (triangles) + crossed edges */
    unsigned solid = hc->cs, crossed = 0;
    for (int k = 0; k < 4; k++) crossed += ((solid >> k) ^ (solid >> ((k + 1) & 3))) & 1;
    uint32_t nv = crossed + (want_tri ? (uint32_t)__builtin_popcount(solid) : 0);
    EXPECT(b.m.nvert == nv, "case %u: %u vertices, want %u", hc->cs, b.m.nvert, nv);
    EXPECT(b.m.ntri == (uint32_t)(want_tri ? nt : 0), "case %u conn %d: %u triangles, want %d", hc->cs,
           hc->connected, b.m.ntri, want_tri ? nt : 0);
    EXPECT(b.m.nseg == (uint32_t)(want_seg ? ns : 0), "case %u: %u segments, want %d", hc->cs, b.m.nseg,
           want_seg ? ns : 0);
    int cw = (flags & WK_MSQ_CLOCKWISE) != 0;
    for (int t = 0; t < nt && want_tri && (uint32_t)t < b.m.ntri; t++) {
        for (int c = 0; c < 3; c++) {
            int from = cw && c > 0 ? 3 - c : c; /* clockwise: (p0, p2, p1) */
            float px, py;
            slot_pos(tn[3 * t + from], v, iso, gx, gy, cell, &px, &py);
            EXPECT(same_point(&b.m, b.m.tri[3 * t + c], px, py),
                   "case %u conn %d var %d: triangle %d corner %d (%s) at (%g, %g), want (%g, %g)", hc->cs,
                   hc->connected, variant, t, c, tn[3 * t + from], (double)b.m.x[b.m.tri[3 * t + c]],
                   (double)b.m.y[b.m.tri[3 * t + c]], (double)px, (double)py);
        }
        /* and the winding, by the signed area */
        double a = 0;
        const uint32_t *q = &b.m.tri[3 * t];
        a = ((double)b.m.x[q[1]] - b.m.x[q[0]]) * ((double)b.m.y[q[2]] - b.m.y[q[0]]) -
            ((double)b.m.x[q[2]] - b.m.x[q[0]]) * ((double)b.m.y[q[1]] - b.m.y[q[0]]);
        EXPECT(cw ? a <= 0 : a >= 0, "case %u: triangle %d winding (area %g)", hc->cs, t, a);
    }
    for (int g = 0; g < ns && want_seg && (uint32_t)g < b.m.nseg; g++)
        for (int c = 0; c < 2; c++) {
            float px, py;
            slot_pos(sn[2 * g + c], v, iso, gx, gy, cell, &px, &py);
            EXPECT(same_point(&b.m, b.m.seg[2 * g + c], px, py), "case %u conn %d: segment %d end %d (%s)",
                   hc->cs, hc->connected, g, c, sn[2 * g + c]);
        }
    /* welding: every index in range, and distinct slots get distinct indices */
    for (uint32_t t = 0; t < 3 * b.m.ntri; t++) EXPECT(b.m.tri[t] < b.m.nvert, "case %u: index range", hc->cs);
    mesh_free(&b);
    return fails;
}

int wk_check_msq_cases(void) {
    int fails = 0;
    const uint32_t flag_sets[] = {WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, WK_MSQ_TRIANGLES, WK_MSQ_SEGMENTS,
                                  WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS | WK_MSQ_CLOCKWISE};
    for (size_t c = 0; c < COUNT(hand_cases); c++)
        for (int variant = 0; variant < 2; variant++)
            for (size_t f = 0; f < COUNT(flag_sets); f++) fails += check_hand_case(&hand_cases[c], variant, flag_sets[f]);
    return fails;
}

/* Nodes exactly at iso are solid; edge points collapse onto them. */
int wk_check_msq_iso_nodes(void) {
    int fails = 0;
    /* c0 exactly iso, the rest below: case 1 collapsed onto c0. */
    float v[4] = {0.5f, 0.0f, 0.0f, 0.0f};
    wk_field2 f = field_of(v, 2, 2, 2);
    mesh_buf b = mesh_new(1, 1, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS);
    wk_status s = wk_msq_build(&f, 0, 0, 1, 1, 0.5f, 1.0f, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, &b.m, NULL);
    EXPECT(s == WK_OK && b.m.nvert == 3 && b.m.ntri == 1 && b.m.nseg == 1, "iso corner: %d %u %u %u", s,
           b.m.nvert, b.m.ntri, b.m.nseg);
    for (uint32_t i = 0; i < b.m.nvert; i++)
        EXPECT(b.m.x[i] == 0.0f && b.m.y[i] == 0.0f, "iso corner: vertex %u at (%g, %g)", i, (double)b.m.x[i],
               (double)b.m.y[i]);
    /* a whole field at iso: all solid, no segments, 2 triangles per cell */
    float w[16];
    for (int i = 0; i < 16; i++) w[i] = 0.5f;
    f = field_of(w, 4, 4, 4);
    mesh_buf c = mesh_new(3, 3, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS);
    s = wk_msq_build(&f, 0, 0, 3, 3, 0.5f, 1.0f, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, &c.m, NULL);
    EXPECT(s == WK_OK && c.m.nvert == 16 && c.m.ntri == 18 && c.m.nseg == 0, "field at iso: %u %u %u", c.m.nvert,
           c.m.ntri, c.m.nseg);
    /* all solid with triangles and segments: no segment, so seg may be NULL
     * with seg_cap 0 (no arithmetic on it either: UBSan), on every ISA */
    {
        int isas[WK_ISA_COUNT];
        int nisa = wk_supported_isas(isas);
        for (int k = 0; k < nisa; k++) {
            wk_mesh2 m = c.m;
            m.seg = NULL;
            m.seg_cap = 0;
            wk_exec ex = wk_exec_for(isas[k], 1);
            s = wk_msq_build(&f, 0, 0, 3, 3, 0.5f, 1.0f, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, &m, &ex);
            EXPECT(s == WK_OK && m.nseg == 0 && m.ntri == 18, "%s: all solid, seg NULL: %d",
                   wk_isa_name((wk_isa)isas[k]), s);
        }
    }
    /* symmetric ends: t = 0.5 exactly */
    float e[4] = {1.0f, -1.0f, 1.0f, -1.0f}; /* case 9, e0 and e2 at t = 0.5 */
    f = field_of(e, 2, 2, 2);
    s = wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 2.0f, WK_MSQ_SEGMENTS, &c.m, NULL);
    EXPECT(s == WK_OK && c.m.nseg == 1 && c.m.nvert == 2, "t = 0.5 case: %u %u", c.m.nseg, c.m.nvert);
    if (s == WK_OK && c.m.nvert == 2)
        EXPECT(c.m.x[0] == 1.0f && c.m.x[1] == 1.0f, "t = 0.5: x %g %g", (double)c.m.x[0], (double)c.m.x[1]);
    mesh_free(&b);
    mesh_free(&c);
    return fails;
}

/* ------------------------------------------------ invariants on fields */

/* Independent count of what the mesh of a rectangle must hold. */
static void expected_counts(const float *v, size_t stride, uint32_t x0, uint32_t y0, uint32_t cw, uint32_t ch,
                            float iso, int tri, uint32_t *nvert) {
    uint32_t n = 0;
    for (uint32_t y = y0; y <= y0 + ch; y++)
        for (uint32_t x = x0; x <= x0 + cw; x++) {
            int s = v[y * stride + x] >= iso;
            if (tri && s) n++;
            if (x < x0 + cw && s != (v[y * stride + x + 1] >= iso)) n++;
            if (y < y0 + ch && s != (v[(y + 1) * stride + x] >= iso)) n++;
        }
    *nvert = n;
}

static double tri_area(const wk_mesh2 *m) {
    double a = 0;
    for (uint32_t t = 0; t < m->ntri; t++) {
        const uint32_t *q = &m->tri[3 * t];
        a += 0.5 * (((double)m->x[q[1]] - m->x[q[0]]) * ((double)m->y[q[2]] - m->y[q[0]]) -
                    ((double)m->x[q[2]] - m->x[q[0]]) * ((double)m->y[q[1]] - m->y[q[0]]));
    }
    return a;
}

static double seg_area(const wk_mesh2 *m) {
    double a = 0;
    for (uint32_t s = 0; s < m->nseg; s++) {
        uint32_t p = m->seg[2 * s], q = m->seg[2 * s + 1];
        a += 0.5 * ((double)m->x[p] * m->y[q] - (double)m->x[q] * m->y[p]);
    }
    return -a; /* solid on the right: clockwise */
}

int wk_check_msq_closed_area(void) {
    int fails = 0;
    const uint32_t w = 67, h = 53;
    for (uint32_t seed = 0; seed < 4; seed++) {
        float *v = wk_contour_noise_field(w, h, seed, 1.0 / 9.0, seed == 3 ? 0.3f : 0.0f);
        /* empty border ring; a few NaN nodes inside */
        for (uint32_t x = 0; x < w; x++) v[x] = v[(h - 1) * w + x] = -1.0f;
        for (uint32_t y = 0; y < h; y++) v[y * w] = v[y * w + w - 1] = -1.0f;
        v[20 * w + 30] = NAN;
        v[21 * w + 31] = NAN;
        wk_field2 f = field_of(v, w, h, w);
        uint32_t flags = WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS;
        mesh_buf b = mesh_new(w - 1, h - 1, flags);
        wk_status s = wk_msq_build(&f, 0, 0, w - 1, h - 1, 0.0f, 0.75f, flags, &b.m, NULL);
        EXPECT(s == WK_OK, "seed %u: status %d", seed, s);
        uint32_t nv;
        expected_counts(v, w, 0, 0, w - 1, h - 1, 0.0f, 1, &nv);
        EXPECT(b.m.nvert == nv, "seed %u: %u vertices, independent count %u", seed, b.m.nvert, nv);
        /* closed loops: every contour vertex starts one segment and ends one */
        int *deg_out = calloc(b.m.nvert + 1, sizeof(int)), *deg_in = calloc(b.m.nvert + 1, sizeof(int));
        for (uint32_t g = 0; g < b.m.nseg; g++) {
            deg_out[b.m.seg[2 * g]]++;
            deg_in[b.m.seg[2 * g + 1]]++;
        }
        int bad = 0;
        for (uint32_t i = 0; i < b.m.nvert; i++) bad += deg_out[i] != deg_in[i] || deg_out[i] > 1;
        EXPECT(bad == 0, "seed %u: %d vertices not on a closed loop", seed, bad);
        double am = tri_area(&b.m), ac = seg_area(&b.m);
        EXPECT(am > 0 && fabs(am - ac) <= 1e-5 * am, "seed %u: mesh area %.9g vs contour area %.9g", seed, am, ac);
        free(deg_out);
        free(deg_in);
        mesh_free(&b);
        free(v);
    }
    return fails;
}

/* A segment or triangle as positions, for comparing meshes of chunks. */
typedef struct prim {
    uint32_t k[6];
} prim;

static int prim_cmp(const void *a, const void *b) { return memcmp(a, b, sizeof(prim)); }

static size_t collect(const wk_mesh2 *m, int tris, prim *out) {
    uint32_t n = tris ? m->ntri : m->nseg, per = tris ? 3 : 2;
    const uint32_t *ix = tris ? m->tri : m->seg;
    for (uint32_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof(prim));
        for (uint32_t c = 0; c < per; c++) {
            out[i].k[2 * c] = wk_bits(m->x[ix[per * i + c]]);
            out[i].k[2 * c + 1] = wk_bits(m->y[ix[per * i + c]]);
        }
    }
    return n;
}

int wk_check_msq_chunk_seams(void) {
    int fails = 0;
    const uint32_t w = 101, h = 77;
    float *v = wk_contour_noise_field(w, h, 7, 1.0 / 7.0, 0.05f);
    wk_field2 f = field_of(v, w, h, w);
    uint32_t flags = WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS;
    mesh_buf whole = mesh_new(w - 1, h - 1, flags);
    wk_status s = wk_msq_build(&f, 0, 0, w - 1, h - 1, 0.0f, 0.37f, flags, &whole.m, NULL);
    EXPECT(s == WK_OK, "whole: %d", s);
    const uint32_t sizes[] = {1, 7, 32, 33};
    for (size_t si = 0; si < COUNT(sizes); si++) {
        uint32_t n = sizes[si];
        for (int tris = 0; tris < 2; tris++) {
            size_t total = tris ? whole.m.ntri : whole.m.nseg;
            prim *a = malloc(sizeof(prim) * (total + 1)), *b = malloc(sizeof(prim) * (total + 1));
            collect(&whole.m, tris, a);
            size_t nb = 0;
            int overflow = 0;
            for (uint32_t y0 = 0; y0 < h - 1; y0 += n)
                for (uint32_t x0 = 0; x0 < w - 1; x0 += n) {
                    uint32_t cw = w - 1 - x0 < n ? w - 1 - x0 : n, ch = h - 1 - y0 < n ? h - 1 - y0 : n;
                    mesh_buf c = mesh_new(cw, ch, flags);
                    s = wk_msq_build(&f, x0, y0, cw, ch, 0.0f, 0.37f, flags, &c.m, NULL);
                    if (s != WK_OK) FAIL("chunk %u,%u: %d", x0, y0, s);
                    size_t cn = tris ? c.m.ntri : c.m.nseg;
                    if (nb + cn > total) overflow = 1;
                    else nb += collect(&c.m, tris, b + nb);
                    mesh_free(&c);
                }
            EXPECT(!overflow && nb == total, "chunks of %u: %zu %s, whole %zu", n, nb, tris ? "triangles" : "segments",
                   total);
            if (!overflow && nb == total) {
                qsort(a, total, sizeof(prim), prim_cmp);
                qsort(b, total, sizeof(prim), prim_cmp);
                EXPECT(memcmp(a, b, sizeof(prim) * total) == 0, "chunks of %u: %s differ from the whole field's", n,
                       tris ? "triangles" : "segments");
            }
            free(a);
            free(b);
        }
    }
    mesh_free(&whole);
    free(v);
    return fails;
}

/* ----------------------------------------------------- every ISA */

typedef struct isa_case {
    const float *v;
    wk_field2 f;
    uint32_t x0, y0, cw, ch, flags;
    float iso;
    uint32_t vc, tc, sc; /* bound capacities */
    uint32_t nv, nt, ns; /* exact counts (split 1 uses them) */
    uint32_t shift;      /* the outputs start this many floats later (0..15) */
} isa_case;

static size_t isa_case_bytes(const isa_case *c) {
    return 16 + 64 + (size_t)c->vc * 8 + (size_t)c->tc * 12 + (size_t)c->sc * 8;
}

static int isa_run(void *ctx, const wk_exec *exec, uint32_t split, void *out) {
    const isa_case *c = ctx;
    unsigned char *o = out;
    wk_mesh2 m = WK_MESH2_DEFAULTS;
    m.x = (float *)(void *)(o + 16 + 4 * (size_t)c->shift);
    m.y = m.x + c->vc;
    m.tri = (uint32_t *)(void *)(m.y + c->vc);
    m.seg = m.tri + 3 * (size_t)c->tc;
    /* split 0: bound capacities (one pass); 1: exact ones (count, then write) */
    m.vert_cap = split ? c->nv : c->vc;
    m.tri_cap = split ? c->nt : c->tc;
    m.seg_cap = split ? c->ns : c->sc;
    wk_status s = wk_msq_build(&c->f, c->x0, c->y0, c->cw, c->ch, c->iso, 0.5f, c->flags, &m, exec);
    uint32_t counts[4] = {m.nvert, m.ntri, m.nseg, 0};
    memcpy(o, counts, 16);
    return s;
}

static int isa_compare_at(const float *v, uint32_t w, uint32_t h, uint32_t x0, uint32_t y0, uint32_t cw,
                          uint32_t ch, float iso, uint32_t flags, uint32_t shift, const char *what) {
    int fails = 0;
    isa_case c;
    memset(&c, 0, sizeof c);
    c.shift = shift;
    c.f = field_of(v, w, h, w);
    c.x0 = x0, c.y0 = y0, c.cw = cw, c.ch = ch, c.flags = flags, c.iso = iso;
    wk_msq_bound(cw, ch, flags, &c.vc, &c.tc, &c.sc);
    /* exact counts from a reference run */
    mesh_buf b = mesh_new(cw, ch, flags);
    wk_exec e = wk_exec_for(WK_ISA_SCALAR, 1);
    wk_status s = wk_msq_build(&c.f, x0, y0, cw, ch, iso, 0.5f, flags, &b.m, &e);
    EXPECT(s == WK_OK, "%s: reference status %d", what, s);
    c.nv = b.m.nvert, c.nt = b.m.ntri, c.ns = b.m.nseg;
    mesh_free(&b);
    char name[160];
    snprintf(name, sizeof name, "%s %ux%u at (%u,%u) flags %u shift %u", what, cw, ch, x0, y0, flags, shift);
    wk_harness hs = {name, isa_run, &c, isa_case_bytes(&c), 2};
    fails += wk_harness_compare(&hs);
    return fails;
}

static int isa_compare(const float *v, uint32_t w, uint32_t h, uint32_t x0, uint32_t y0, uint32_t cw, uint32_t ch,
                       float iso, uint32_t flags, const char *what) {
    return isa_compare_at(v, w, h, x0, y0, cw, ch, iso, flags, 0, what);
}

int wk_check_msq_isa_sizes(void) {
    int fails = 0;
    const uint32_t widths[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 130};
    const uint32_t w = 140, h = 24;
    float *v = wk_contour_noise_field(w, h, 3, 1.0 / 5.0, 0.0f);
    v[5 * w + 9] = NAN;
    v[6 * w + 70] = INFINITY;
    v[7 * w + 71] = -INFINITY;
    v[3 * w + 33] = 0.0f; /* exactly iso */
    for (size_t i = 0; i < COUNT(widths); i++) {
        uint32_t cw = widths[i], ch = 1 + (uint32_t)(i % 7);
        uint32_t x0 = (uint32_t)(i * 3) % (w - 1 - cw + 1), y0 = (uint32_t)i % (h - 1 - ch);
        fails += isa_compare(v, w, h, x0, y0, cw, ch, 0.0f, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, "sizes");
        fails += isa_compare(v, w, h, x0, y0, cw, ch, 0.1f, WK_MSQ_SEGMENTS, "sizes seg");
    }
    fails += isa_compare(v, w, h, 0, 0, w - 1, h - 1, 0.0f, WK_MSQ_TRIANGLES | WK_MSQ_CLOCKWISE, "whole tri cw");
    free(v);
    return fails;
}

/* Wider than a strip (1024 cells), tall enough for several threads. */
int wk_check_msq_isa_wide(void) {
    int fails = 0;
    const uint32_t w = 2200, h = 40;
    float *v = wk_contour_noise_field(w, h, 11, 1.0 / 13.0, 0.0f);
    fails += isa_compare(v, w, h, 0, 0, w - 1, h - 1, 0.0f, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, "wide");
    fails += isa_compare(v, w, h, 3, 1, 2049, h - 3, 0.2f, WK_MSQ_SEGMENTS, "wide seg");
    free(v);
    /* wider than one strip (4096 cells): the strip-by-strip path */
    const uint32_t w3 = 4300, h3 = 7;
    v = wk_contour_noise_field(w3, h3, 13, 1.0 / 9.0, 0.0f);
    fails += isa_compare(v, w3, h3, 0, 0, w3 - 1, h3 - 1, 0.0f, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, "two strips");
    fails += isa_compare(v, w3, h3, 5, 1, 4100, 4, 0.1f, WK_MSQ_SEGMENTS, "two strips seg");
    free(v);
    const uint32_t w2 = 160, h2 = 300;
    v = wk_contour_noise_field(w2, h2, 12, 1.0 / 4.0, 0.0f);
    fails += isa_compare(v, w2, h2, 0, 0, w2 - 1, h2 - 1, 0.0f, WK_MSQ_SEGMENTS, "tall seg");
    fails += isa_compare(v, w2, h2, 0, 0, w2 - 1, h2 - 1, 0.0f, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, "tall");
    free(v);
    return fails;
}

/* Random fields with many saddles and specials. */
int wk_check_msq_isa_random(void) {
    int fails = 0;
    wk_rng r = {42};
    const uint32_t w = 70, h = 30;
    float *v = malloc(sizeof(float) * w * h);
    for (int round = 0; round < 4; round++) {
        for (uint32_t i = 0; i < w * h; i++) {
            uint64_t k = wk_rng_u64(&r) % 16;
            v[i] = k == 0 ? NAN : k == 1 ? 0.5f : k == 2 ? INFINITY : (float)wk_rng_range(&r, -1, 2);
        }
        fails += isa_compare(v, w, h, 0, 0, w - 1, h - 1, 0.5f, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, "random");
        fails += isa_compare(v, w, h, 1, 2, 37, 19, 0.5f, WK_MSQ_SEGMENTS | WK_MSQ_CLOCKWISE, "random seg");
    }
    free(v);
    return fails;
}

/* Solid stretches of every length 1..72 nodes (the mesh's runs of
 * all-solid cells: vector blocks, tails, run ends beside mixed cells),
 * flipped nodes inside them (mixed cells and saddles next to runs), NaN and
 * exact iso nodes, both windings, with and without segments, sub-rectangles. */
int wk_check_msq_isa_runs(void) {
    int fails = 0;
    const uint32_t w = 330, h = 40;
    float *v = malloc(sizeof(float) * w * h);
    wk_rng r = {2024};
    for (uint32_t y = 0; y < h; y++) {
        uint32_t g = y / 3, len = 1 + (g * 29 + 5) % 72, gap = 1 + g % 4, period = len + gap;
        for (uint32_t x = 0; x < w; x++) {
            int solid = (x + g * 5) % period < len;
            float a = (float)wk_rng_range(&r, 0.05, 2.0);
            float val = solid ? a : -a;
            uint64_t k = wk_rng_u64(&r) % 100;
            if (k < 4) val = -val;                 /* a flipped node */
            else if (k == 4) val = NAN;            /* empty */
            else if (k == 5) val = 0.0f;           /* exactly iso: solid */
            else if (k == 6 && x + 1 < w && y + 1 < h) { /* a saddle's corners */
                val = 1.0f;
            }
            v[(size_t)y * w + x] = val;
        }
    }
    /* explicit saddles (both readings) at the ends of some stretches */
    for (uint32_t y = 2; y + 2 < h; y += 5)
        for (uint32_t x = 3 + y % 7; x + 2 < w; x += 37) {
            float s = (y / 5) % 2 ? 1.5f : 0.5f;
            v[(size_t)y * w + x] = s, v[(size_t)y * w + x + 1] = -1.0f;
            v[(size_t)(y + 1) * w + x] = -1.0f, v[(size_t)(y + 1) * w + x + 1] = s;
        }
    const uint32_t T = WK_MSQ_TRIANGLES, S = WK_MSQ_SEGMENTS, C = WK_MSQ_CLOCKWISE;
    const uint32_t flags[] = {T | S, T | S | C, T, T | C};
    for (size_t k = 0; k < COUNT(flags); k++) {
        fails += isa_compare(v, w, h, 0, 0, w - 1, h - 1, 0.0f, flags[k], "runs");
        fails += isa_compare(v, w, h, 7, 3, w - 20, h - 9, 0.0f, flags[k], "runs sub");
        fails += isa_compare(v, w, h, 1, 1, 47, 12, 0.3f, flags[k], "runs narrow");
    }
    free(v);
    return fails;
}

/* Long solid stretches (runs of 1..700 cells: many vector blocks per run,
 * outputs of several hundred KB), twelve builds with their outputs at
 * ten different float offsets from a 64-byte line, every flag set. */
int wk_check_msq_isa_long_runs(void) {
    int fails = 0;
    const uint32_t w = 720, h = 26;
    static const uint32_t lens[] = {63, 64, 65, 127, 128, 129, 191, 300, 700, 1, 17, 250, 80};
    float *v = malloc(sizeof(float) * w * h);
    wk_rng r = {77};
    for (uint32_t y = 0; y < h; y++) {
        uint32_t len = lens[(y / 2) % COUNT(lens)], gap = 1 + y % 5, period = len + gap;
        for (uint32_t x = 0; x < w; x++) {
            int solid = (x + y * 11) % period < len;
            float a = (float)wk_rng_range(&r, 0.05, 2.0);
            v[(size_t)y * w + x] = solid ? a : -a;
        }
    }
    v[9 * w + 200] = NAN;  /* one mixed cell inside a long stretch */
    v[13 * w + 400] = 0.0f; /* exactly iso: solid */
    const uint32_t T = WK_MSQ_TRIANGLES, S = WK_MSQ_SEGMENTS, C = WK_MSQ_CLOCKWISE;
    const uint32_t flags[] = {T | S, T | S | C, T, T | C};
    for (size_t k = 0; k < COUNT(flags); k++) {
        fails += isa_compare_at(v, w, h, 0, 0, w - 1, h - 1, 0.0f, flags[k], (uint32_t)(5 * k) % 16, "long runs");
        fails += isa_compare_at(v, w, h, 3, 2, w - 9, h - 5, 0.0f, flags[k], (uint32_t)(5 * k + 3) % 16, "long runs sub");
        fails += isa_compare_at(v, w, h, 1, 0, 130, 6, 0.0f, flags[k], (uint32_t)(7 * k + 1) % 16, "long runs narrow");
    }
    free(v);
    return fails;
}

/* Builds whose every row, so every part of a threaded build and the
 * build itself, ends in a solid run of 0..66 cells after a mixed cell, or
 * in a run of 1..60 cells and then one mixed cell (node column 60 is
 * empty in even rows: cases 13 and 11, 3 triangles and 2 vertices after
 * the run); split 1 (exact capacities) makes the part ends exact:
 * whole-vector stores that may reach past a cell's or a run's own output
 * (up to the part's end) must never reach past it. */
int wk_check_msq_isa_part_ends(void) {
    int fails = 0;
    const uint32_t w = 72, h = 9;
    float *v = malloc(sizeof(float) * w * h);
    wk_rng r = {4242};
    for (uint32_t y = 0; y < h; y++) {
        uint32_t m = 4 + (y * 7) % 12; /* the row's last empty node */
        for (uint32_t x = 0; x < w; x++) {
            float a = (float)wk_rng_range(&r, 0.05, 2.0);
            v[(size_t)y * w + x] = x == 60 ? (y % 2 ? a : -a) : x > m ? a : x == m ? -a : (wk_rng_u64(&r) & 1) ? a : -a;
        }
    }
    const uint32_t T = WK_MSQ_TRIANGLES, S = WK_MSQ_SEGMENTS, C = WK_MSQ_CLOCKWISE;
    const uint32_t flags[] = {T | S, T | S | C, T, S};
    for (uint32_t cw = 1; cw <= w - 1; cw++)
        fails += isa_compare_at(v, w, h, 0, 0, cw, h - 1, 0.0f, flags[cw % COUNT(flags)], cw % 16, "part ends");
    for (uint32_t x0 = 0; x0 < 59; x0++) /* the last cell (59) mixed, after a run */
        fails += isa_compare_at(v, w, h, x0, 0, 60 - x0, h - 1, 0.0f, flags[x0 % COUNT(flags)], (x0 * 3) % 16,
                                "part ends mixed");
    for (uint32_t cw = 10; cw <= w - 4; cw += 3)
        fails += isa_compare_at(v, w, h, 3, 1, cw, h - 2, 0.0f, flags[(cw / 3) % COUNT(flags)], (cw * 5) % 16,
                                "part ends sub");
    free(v);
    return fails;
}

/* One-pass builds find their own part ends (write_rows counts the last
 * rows until they hold any whole-vector store's reach; the rows before
 * them store whole vectors freely). Splits: 0 capacities at the bound
 * (one pass), 1 one more than the bound (one pass), 2 exact (count pass),
 * 3 one more than exact (count pass); each array is followed by a canary
 * slot, all compared with the scalar reference. */
typedef struct ends_case {
    wk_field2 f;
    uint32_t cw, ch, flags, shift;
    uint32_t vc, tc, sc; /* bound capacities */
    uint32_t nv, nt, ns; /* exact counts */
} ends_case;

static int ends_run(void *ctx, const wk_exec *exec, uint32_t split, void *out) {
    const ends_case *c = ctx;
    unsigned char *o = out;
    wk_mesh2 m = WK_MESH2_DEFAULTS;
    m.x = (float *)(void *)(o + 16 + 4 * (size_t)c->shift);
    m.y = m.x + c->vc + 1;
    m.tri = (uint32_t *)(void *)(m.y + c->vc + 1);
    m.seg = m.tri + 3 * ((size_t)c->tc + 1);
    uint32_t more = split & 1;
    m.vert_cap = (split < 2 ? c->vc : c->nv) + more;
    m.tri_cap = (split < 2 ? c->tc : c->nt) + more;
    m.seg_cap = (split < 2 ? c->sc : c->ns) + more;
    wk_status s = wk_msq_build(&c->f, 0, 0, c->cw, c->ch, 0.0f, 0.5f, c->flags, &m, exec);
    uint32_t counts[4] = {m.nvert, m.ntri, m.nseg, 0};
    memcpy(o, counts, 16);
    return s;
}

/* Fields whose lower cell rows are solid up to the row's end (their runs
 * end in tail blocks of every length) or up to a mixed cell at column m,
 * under two top rows with k solid nodes (the last row: 2k - 1 triangles,
 * about k vertices), so that the counted last rows hold just under, just
 * at or just over the reach, or are every row. */
int wk_check_msq_isa_one_pass_ends(void) {
    int fails = 0;
    const uint32_t T = WK_MSQ_TRIANGLES, S = WK_MSQ_SEGMENTS, C = WK_MSQ_CLOCKWISE;
    const uint32_t flags[] = {T | S, T | S | C, T, S, T | C};
    const uint32_t widths[] = {1, 2, 5, 15, 16, 17, 18, 31, 33, 40};
    uint32_t iter = 0;
    for (size_t wi = 0; wi < COUNT(widths); wi++) {
        const uint32_t cw = widths[wi], w = cw + 1;
        for (uint32_t ch = 2; ch <= 7; ch += 5) {
            const uint32_t h = ch + 1;
            float *v = malloc(sizeof(float) * w * h);
            for (uint32_t mi = 0; mi < 3; mi++) {
                uint32_t m = mi == 0 ? w : mi == 1 ? cw - cw / 3 : cw; /* the empty node of the row below the top */
                for (uint32_t k = 0; k <= w; k += (k < 20 ? 1 : 3)) {
                    for (uint32_t y = 0; y < h; y++)
                        for (uint32_t x = 0; x < w; x++) {
                            int solid = y + 2 < h ? !(y + 3 == h && x == m) : y + 2 == h ? x < k : 0;
                            v[(size_t)y * w + x] = solid ? 0.25f + 0.01f * (float)((x * 7 + y * 3) % 50)
                                                         : -0.3f - 0.01f * (float)((x * 5 + y) % 40);
                        }
                    ends_case c;
                    memset(&c, 0, sizeof c);
                    c.f = field_of(v, w, h, w);
                    c.cw = cw, c.ch = ch, c.flags = flags[iter % COUNT(flags)], c.shift = (iter * 5) % 16;
                    iter++;
                    wk_msq_bound(cw, ch, c.flags, &c.vc, &c.tc, &c.sc);
                    mesh_buf b = mesh_new(cw, ch, c.flags);
                    wk_exec e = wk_exec_for(WK_ISA_SCALAR, 1);
                    wk_status s = wk_msq_build(&c.f, 0, 0, cw, ch, 0.0f, 0.5f, c.flags, &b.m, &e);
                    EXPECT(s == WK_OK, "one-pass ends: reference status %d", s);
                    c.nv = b.m.nvert, c.nt = b.m.ntri, c.ns = b.m.nseg;
                    mesh_free(&b);
                    char name[160];
                    snprintf(name, sizeof name, "one-pass ends %ux%u m %u k %u flags %u shift %u", cw, ch, m, k,
                             c.flags, c.shift);
                    size_t bytes = 16 + 64 + ((size_t)c.vc + 1) * 8 + ((size_t)c.tc + 1) * 12 + ((size_t)c.sc + 1) * 8;
                    wk_harness hs = {name, ends_run, &c, bytes, 4};
                    fails += wk_harness_compare(&hs);
                }
            }
            free(v);
        }
    }
    return fails;
}

/* ---------------------------------------------------------- bad input */

int wk_check_msq_bad_input(void) {
    int fails = 0;
    const uint32_t w = 9, h = 8;
    float *v = wk_contour_noise_field(w, h, 1, 1.0 / 3.0, 0.0f);
    wk_field2 f = field_of(v, w, h, w);
    uint32_t F = WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS;
    mesh_buf b = mesh_new(w - 1, h - 1, F);
    uint32_t vc = b.m.vert_cap;
    for (uint32_t i = 0; i < vc; i++) b.x[i] = b.y[i] = -7.0f;
    wk_mesh2 m0 = b.m;
    m0.nvert = 1234;
    m0.ntri = 2345;
    m0.nseg = 3456;
#define BAD(expr, code)                                                                               \
    do {                                                                                              \
        wk_mesh2 m_ = m0;                                                                             \
        b.m = m_;                                                                                     \
        wk_status s_ = (expr);                                                                        \
        EXPECT(s_ == (code), "%s: status %d, want %d (%s)", #expr, s_, code, wk_last_error_detail()); \
        EXPECT(memcmp(&b.m, &m_, sizeof m_) == 0, "%s: out changed", #expr);                          \
        EXPECT(strlen(wk_last_error_detail()) > 0, "%s: no detail", #expr);                           \
    } while (0)
    wk_field2 g = f;
    BAD(wk_msq_build(NULL, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_NULL);
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, F, NULL, NULL), WK_ERR_NULL);
    g.v = NULL;
    BAD(wk_msq_build(&g, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_NULL);
    g = f;
    g.stride = w - 1;
    BAD(wk_msq_build(&g, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_STRIDE);
    g = f;
    g.reserved[1] = 1;
    BAD(wk_msq_build(&g, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_INVALID_ARG);
    g = f;
    g.w = 1;
    BAD(wk_msq_build(&g, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_INVALID_ARG);
    g = f;
    g.stride = SIZE_MAX / 2;
    BAD(wk_msq_build(&g, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_OVERFLOW);
    BAD(wk_msq_build(&f, 0, 0, 0, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_msq_build(&f, 0, 0, 1, 0, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_msq_build(&f, 1, 0, w - 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_msq_build(&f, 0, h - 1, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_msq_build(&f, UINT32_MAX, 0, 2, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_msq_build(&f, 0, 0, UINT32_MAX, UINT32_MAX, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_msq_build(&f, 0, 0, 1, 1, NAN, 1.0f, F, &b.m, NULL), WK_ERR_NOT_FINITE);
    BAD(wk_msq_build(&f, 0, 0, 1, 1, INFINITY, 1.0f, F, &b.m, NULL), WK_ERR_NOT_FINITE);
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, INFINITY, F, &b.m, NULL), WK_ERR_NOT_FINITE);
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, NAN, F, &b.m, NULL), WK_ERR_NOT_FINITE);
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 0.0f, F, &b.m, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, -1.0f, F, &b.m, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, 0, &b.m, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, WK_MSQ_CLOCKWISE, &b.m, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, F | 8, &b.m, NULL), WK_ERR_INVALID_ARG);
    wk_exec ex = WK_EXEC_DEFAULTS;
    ex.reserved[0] = 1;
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, &ex), WK_ERR_INVALID_ARG);
    m0.reserved[3] = 1;
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_INVALID_ARG);
    m0.reserved[3] = 0;
    m0.x = NULL;
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_NULL);
    m0.x = b.x;
    m0.tri = NULL;
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_NULL);
    m0.tri = b.tri;
    m0.seg = NULL;
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_NULL);
    m0.seg = b.seg;
    m0.y = b.x + 1; /* x and y overlap */
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_ALIAS);
    m0.y = (float *)(void *)b.tri;
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_ALIAS);
    m0.y = v + 3; /* into the field */
    BAD(wk_msq_build(&f, 0, 0, 1, 1, 0.0f, 1.0f, F, &b.m, NULL), WK_ERR_ALIAS);
    m0.y = b.y;
    /* a segments-only build ignores tri (NULL is fine, so is overlap) */
    {
        wk_mesh2 m = m0;
        m.tri = NULL;
        m.tri_cap = 0;
        wk_status s = wk_msq_build(&f, 0, 0, w - 1, h - 1, 0.0f, 1.0f, WK_MSQ_SEGMENTS, &m, NULL);
        EXPECT(s == WK_OK && m.ntri == 0, "segments only with tri NULL: %d", s);
    }
    /* capacities too small: the counts needed come back, buffers untouched */
    {
        wk_mesh2 full = m0;
        wk_status s = wk_msq_build(&f, 0, 0, w - 1, h - 1, 0.0f, 1.0f, F, &full, NULL);
        EXPECT(s == WK_OK, "full: %d", s);
        for (int which = 0; which < 3; which++) {
            for (uint32_t i = 0; i < vc; i++) b.x[i] = b.y[i] = -7.0f;
            wk_mesh2 m = m0;
            if (which == 0) m.vert_cap = full.nvert - 1;
            if (which == 1) m.tri_cap = full.ntri - 1;
            if (which == 2) m.seg_cap = full.nseg - 1;
            wk_exec e1 = wk_exec_for(0, which + 1);
            s = wk_msq_build(&f, 0, 0, w - 1, h - 1, 0.0f, 1.0f, F, &m, &e1);
            EXPECT(s == WK_ERR_CAPACITY, "capacity %d: status %d", which, s);
            EXPECT(m.nvert == full.nvert && m.ntri == full.ntri && m.nseg == full.nseg,
                   "capacity %d: needed %u %u %u, want %u %u %u", which, m.nvert, m.ntri, m.nseg, full.nvert,
                   full.ntri, full.nseg);
            int touched = 0;
            for (uint32_t i = 0; i < vc; i++) touched += b.x[i] != -7.0f || b.y[i] != -7.0f;
            EXPECT(touched == 0, "capacity %d: %d floats written", which, touched);
            /* exactly enough works */
            if (which == 0) m.vert_cap = full.nvert;
            if (which == 1) m.tri_cap = full.ntri;
            if (which == 2) m.seg_cap = full.nseg;
            s = wk_msq_build(&f, 0, 0, w - 1, h - 1, 0.0f, 1.0f, F, &m, &e1);
            EXPECT(s == WK_OK, "exact capacity %d: status %d", which, s);
        }
    }
    /* bound */
    uint32_t a = 1, t = 1, sg = 1;
    EXPECT(wk_msq_bound(0, 3, F, &a, &t, &sg) == WK_ERR_INVALID_ARG, "bound 0 width");
    EXPECT(wk_msq_bound(3, 3, 0, &a, &t, &sg) == WK_ERR_INVALID_ARG, "bound no flags");
    EXPECT(wk_msq_bound(3, 3, 16, &a, &t, &sg) == WK_ERR_INVALID_ARG, "bound bad flags");
    EXPECT(wk_msq_bound(70000, 70000, F, &a, &t, &sg) == WK_ERR_OVERFLOW && a == UINT32_MAX, "bound overflow");
    EXPECT(wk_msq_bound(2, 3, F, &a, &t, &sg) == WK_OK && a == 12 + 8 + 9 && t == 24 && sg == 12,
           "bound 2x3: %u %u %u", a, t, sg);
    EXPECT(wk_msq_bound(2, 3, WK_MSQ_SEGMENTS, &a, &t, &sg) == WK_OK && a == 17 && t == 0 && sg == 12,
           "bound seg 2x3: %u %u %u", a, t, sg);
    EXPECT(wk_msq_bound(2, 3, F, NULL, NULL, NULL) == WK_OK, "bound NULL outputs");
#undef BAD
    mesh_free(&b);
    free(v);
    return fails;
}

/* Nothing past the counts is written (canary floats and indices). */
int wk_check_msq_canaries(void) {
    int fails = 0;
    const uint32_t w = 40, h = 30;
    float *v = wk_contour_noise_field(w, h, 5, 1.0 / 6.0, 0.0f);
    wk_field2 f = field_of(v, w, h, w);
    uint32_t F = WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS;
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    for (int t = 0; t < nisa; t++) {
        mesh_buf b = mesh_new(w - 1, h - 1, F);
        memset(b.x, 0xE1, sizeof(float) * (b.m.vert_cap + 1));
        memset(b.y, 0xE1, sizeof(float) * (b.m.vert_cap + 1));
        memset(b.tri, 0xE1, sizeof(uint32_t) * (3 * (size_t)b.m.tri_cap + 1));
        memset(b.seg, 0xE1, sizeof(uint32_t) * (2 * (size_t)b.m.seg_cap + 1));
        wk_exec e = wk_exec_for(isas[t], 2);
        wk_status s = wk_msq_build(&f, 2, 3, w - 5, h - 7, 0.0f, 1.0f, F, &b.m, &e);
        EXPECT(s == WK_OK, "%s: %d", wk_isa_name((wk_isa)isas[t]), s);
        int bad = 0;
        for (uint32_t i = 0; i <= b.m.vert_cap; i++) {
            int written = wk_bits(b.x[i]) != 0xE1E1E1E1u;
            bad += written != (i < b.m.nvert);
            bad += (wk_bits(b.y[i]) != 0xE1E1E1E1u) != (i < b.m.nvert);
        }
        for (size_t i = 0; i <= 3 * (size_t)b.m.tri_cap; i++) bad += (b.tri[i] != 0xE1E1E1E1u) != (i < 3 * b.m.ntri);
        for (size_t i = 0; i <= 2 * (size_t)b.m.seg_cap; i++) bad += (b.seg[i] != 0xE1E1E1E1u) != (i < 2 * b.m.nseg);
        EXPECT(bad == 0, "%s: %d entries written outside the counts or left unwritten", wk_isa_name((wk_isa)isas[t]), bad);
        mesh_free(&b);
    }
    free(v);
    return fails;
}

/* ------------------------------------------------------------ u8 field */

typedef struct u8_case {
    const uint8_t *v;
    uint32_t w, h, x0, y0, cw, ch, flags;
    uint8_t iso;
    uint32_t vc, tc, sc;
} u8_case;

static int u8_run(void *ctx, const wk_exec *exec, uint32_t split, void *out) {
    (void)split;
    const u8_case *c = ctx;
    unsigned char *o = out;
    wk_mesh2 m = WK_MESH2_DEFAULTS;
    m.x = (float *)(void *)(o + 16);
    m.y = m.x + c->vc;
    m.tri = (uint32_t *)(void *)(m.y + c->vc);
    m.seg = m.tri + 3 * (size_t)c->tc;
    m.vert_cap = c->vc, m.tri_cap = c->tc, m.seg_cap = c->sc;
    wk_status s = wk_msq_build_u8(c->v, c->w, c->h, c->w, c->x0, c->y0, c->cw, c->ch, c->iso, 0.5f, c->flags, &m, exec);
    uint32_t counts[4] = {m.nvert, m.ntri, m.nseg, 0};
    memcpy(o, counts, 16);
    return s;
}

/* The byte field gives the float field's mesh, bit for bit, on every ISA. */
int wk_check_msq_u8(void) {
    int fails = 0;
    const uint32_t w = 75, h = 21;
    uint8_t *b = malloc(w * h);
    float *fv = malloc(sizeof(float) * w * h);
    wk_rng r = {5};
    const uint8_t isos[] = {0, 1, 100, 127, 128, 129, 200, 255};
    for (size_t k = 0; k < COUNT(isos); k++) {
        for (uint32_t i = 0; i < w * h; i++) {
            /* smooth-ish values with exact hits on iso and extremes */
            uint64_t q = wk_rng_u64(&r) % 8;
            b[i] = q == 0 ? isos[k] : q == 1 ? 0 : q == 2 ? 255 : (uint8_t)(wk_rng_u64(&r) & 255);
            fv[i] = (float)b[i];
        }
        const uint32_t widths[] = {1, 7, 8, 9, 63, 64, 65, 74};
        for (size_t wi = 0; wi < COUNT(widths); wi++) {
            uint32_t cw = widths[wi], ch = 1 + (uint32_t)(wi * 3) % (h - 1), x0 = (w - 1 - cw) / 2, y0 = (h - 1 - ch) / 3;
            uint32_t flags = wi % 2 ? WK_MSQ_SEGMENTS : WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS;
            mesh_buf a = mesh_new(cw, ch, flags), c = mesh_new(cw, ch, flags);
            wk_field2 f = field_of(fv, w, h, w);
            wk_status s1 = wk_msq_build(&f, x0, y0, cw, ch, (float)isos[k], 0.5f, flags, &a.m, NULL);
            wk_status s2 = wk_msq_build_u8(b, w, h, w, x0, y0, cw, ch, isos[k], 0.5f, flags, &c.m, NULL);
            int same = s1 == WK_OK && s2 == WK_OK && a.m.nvert == c.m.nvert && a.m.ntri == c.m.ntri &&
                       a.m.nseg == c.m.nseg && !memcmp(a.x, c.x, 4 * (size_t)a.m.nvert) &&
                       !memcmp(a.y, c.y, 4 * (size_t)a.m.nvert) && !memcmp(a.tri, c.tri, 12 * (size_t)a.m.ntri) &&
                       !memcmp(a.seg, c.seg, 8 * (size_t)a.m.nseg);
            EXPECT(same, "iso %u width %u: u8 build differs from the float build (%d %d, %u/%u verts)", isos[k], cw, s1,
                   s2, a.m.nvert, c.m.nvert);
            mesh_free(&a);
            mesh_free(&c);
            u8_case uc = {b, w, h, x0, y0, cw, ch, flags, isos[k], 0, 0, 0};
            wk_msq_bound(cw, ch, flags, &uc.vc, &uc.tc, &uc.sc);
            char name[64];
            snprintf(name, sizeof name, "u8 iso %u width %u", isos[k], cw);
            wk_harness hs = {name, u8_run, &uc, 16 + (size_t)uc.vc * 8 + (size_t)uc.tc * 12 + (size_t)uc.sc * 8, 1};
            fails += wk_harness_compare(&hs);
        }
    }
    /* bad input */
    wk_mesh2 m = WK_MESH2_DEFAULTS;
    float x[8], y[8];
    uint32_t sg[8];
    m.x = x, m.y = y, m.seg = sg, m.vert_cap = 8, m.seg_cap = 4;
    EXPECT(wk_msq_build_u8(NULL, w, h, w, 0, 0, 1, 1, 9, 1.0f, WK_MSQ_SEGMENTS, &m, NULL) == WK_ERR_NULL, "u8 NULL");
    EXPECT(wk_msq_build_u8(b, w, h, w - 1, 0, 0, 1, 1, 9, 1.0f, WK_MSQ_SEGMENTS, &m, NULL) == WK_ERR_STRIDE, "u8 stride");
    EXPECT(wk_msq_build_u8(b, 1, h, w, 0, 0, 1, 1, 9, 1.0f, WK_MSQ_SEGMENTS, &m, NULL) == WK_ERR_INVALID_ARG, "u8 w 1");
    EXPECT(wk_msq_build_u8(b, w, h, w, w - 1, 0, 1, 1, 9, 1.0f, WK_MSQ_SEGMENTS, &m, NULL) == WK_ERR_INVALID_ARG,
           "u8 rect");
    EXPECT(wk_msq_build_u8(b, w, h, SIZE_MAX / 2, 0, 0, 1, 1, 9, 1.0f, WK_MSQ_SEGMENTS, &m, NULL) == WK_ERR_OVERFLOW,
           "u8 overflow");
    EXPECT(wk_msq_build_u8(b, w, h, w, 0, 0, 1, 1, 9, NAN, WK_MSQ_SEGMENTS, &m, NULL) == WK_ERR_NOT_FINITE, "u8 cell");
    m.x = (float *)(void *)(b + 4);
    EXPECT(wk_msq_build_u8(b, w, h, w, 0, 0, 1, 1, 9, 1.0f, WK_MSQ_SEGMENTS, &m, NULL) == WK_ERR_ALIAS, "u8 alias");
    free(b);
    free(fv);
    return fails;
}
