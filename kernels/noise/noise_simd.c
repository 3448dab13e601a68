#include "core/wk_fp_guard.h"

/* The noise family's SIMD paths: one source, compiled once per ISA against
 * kernels/simd/wk_simd.h. Every function returns exactly the bits of its
 * counterpart in noise_ref.c; the comments say why each rewrite is exact.
 *
 * Gradients. Perlin's gradient is u + v, two signed coordinates chosen by
 * the hash. Here every axis contributes a term (coordinate & mask) ^ sign
 * looked up by the gradient index; an axis the gradient does not use gives
 * -0.0f, which is the exact identity of IEEE addition (k + -0 == k for every
 * k, zeros included). Adding the terms in another order than u + v is exact
 * because IEEE addition is commutative and at most two terms are nonzero. */
#include <math.h>

#include "noise_impl.h"
#include "noise_lattice.h"
#include "wk_simd.h"

#define SIGN 0x80000000u
#define ONES 0xFFFFFFFFu
#define LIST16(F) {F(0u), F(1u), F(2u), F(3u), F(4u), F(5u), F(6u), F(7u), \
                   F(8u), F(9u), F(10u), F(11u), F(12u), F(13u), F(14u), F(15u)}

/* 2D (h & 7): u = h<4 ? x : y signed by bit 0, v = h<4 ? y : x by bit 1. */
#define G2_XSIGN(h) ((((h) & 7) < 4 ? ((h) & 1) : ((h) & 2)) ? SIGN : 0u)
#define G2_YSIGN(h) ((((h) & 7) < 4 ? ((h) & 2) : ((h) & 1)) ? SIGN : 0u)
/* 3D (h & 15): u = h<8 ? x : y signed by bit 0;
 * v = h<4 ? y : (h == 12 || h == 14) ? x : z signed by bit 1. */
#define U_IS_X(h) ((h) < 8)
#define V_IS_X(h) ((h) == 12 || (h) == 14)
#define V_IS_Y(h) ((h) < 4)
#define BIT_SIGN(h, b) (((h) & (b)) ? SIGN : 0u)
#define G3_XMASK(h) ((U_IS_X(h) || V_IS_X(h)) ? ONES : 0u)
#define G3_XSIGN(h) (U_IS_X(h) ? BIT_SIGN(h, 1) : V_IS_X(h) ? BIT_SIGN(h, 2) : SIGN)
#define G3_YMASK(h) ((!U_IS_X(h) || V_IS_Y(h)) ? ONES : 0u)
#define G3_YSIGN(h) (!U_IS_X(h) ? BIT_SIGN(h, 1) : V_IS_Y(h) ? BIT_SIGN(h, 2) : SIGN)
#define G3_ZMASK(h) ((!V_IS_Y(h) && !V_IS_X(h)) ? ONES : 0u)
#define G3_ZSIGN(h) (G3_ZMASK(h) ? BIT_SIGN(h, 2) : SIGN)
#define ALL_ONES(h) ONES

static const uint32_t g2_xsign[16] = LIST16(G2_XSIGN), g2_ysign[16] = LIST16(G2_YSIGN);
static const uint32_t g2_mask[16] = LIST16(ALL_ONES);
static const uint32_t g3_xmask[16] = LIST16(G3_XMASK), g3_xsign[16] = LIST16(G3_XSIGN);
static const uint32_t g3_ymask[16] = LIST16(G3_YMASK), g3_ysign[16] = LIST16(G3_YSIGN);
static const uint32_t g3_zmask[16] = LIST16(G3_ZMASK), g3_zsign[16] = LIST16(G3_ZSIGN);
/* An axis a gradient never uses: its term is always -0. */
static const uint32_t unused_mask[16] = {0};
static const uint32_t unused_sign[16] = {SIGN, SIGN, SIGN, SIGN, SIGN, SIGN, SIGN, SIGN,
                                         SIGN, SIGN, SIGN, SIGN, SIGN, SIGN, SIGN, SIGN};

/* The term one axis adds for gradient index h: (a & mask[h]) ^ sign[h]. */
static inline wk_vf grad_term(wk_vf a, wk_lut16 mask, wk_lut16 sign, wk_vi h) {
    return wk_vi_as_vf(wk_vi_ternary_xor_and(wk_vf_as_vi(a), wk_lut16_get(mask, h), wk_lut16_get(sign, h)));
}

/* The gradient terms of the axes that are constant along a row, summed per
 * gradient index (y then z, like v after u), as a 16-entry table. */
static inline wk_lut16 row_terms(float y, const uint32_t *ymask, const uint32_t *ysign, float z,
                                 const uint32_t *zmask, const uint32_t *zsign) {
    uint32_t table[16];
    for (int b = 0; b < 16; b += WK_W) {
        wk_vf ty = wk_vi_as_vf(wk_vi_ternary_xor_and(wk_vf_as_vi(wk_vf_set1(y)), wk_vi_loadu(ymask + b),
                                                     wk_vi_loadu(ysign + b)));
        wk_vf tz = wk_vi_as_vf(wk_vi_ternary_xor_and(wk_vf_as_vi(wk_vf_set1(z)), wk_vi_loadu(zmask + b),
                                                     wk_vi_loadu(zsign + b)));
        wk_vi_storeu(table + b, wk_vf_as_vi(wk_vf_add(ty, tz)));
    }
    return wk_lut16_load(table);
}

static inline wk_vf lerp(wk_vf t, wk_vf a, wk_vf b) { return wk_vf_add(a, wk_vf_mul(t, wk_vf_sub(b, a))); }

/* out = first ? amp * n : out + amp * n, then / divisor when asked. */
WK_INLINE void accumulate(const wk_octave *o, wk_vf n, float *out, size_t m) {
    if (o->fractal) { /* |n| * 2 (exact), then 1 - it or it - 1, as noise_ref.c */
        wk_vf twice = wk_vf_mul(wk_vi_as_vf(wk_vi_and(wk_vf_as_vi(n), wk_vi_set1(0x7FFFFFFFu))), wk_vf_set1(2.0f));
        n = o->fractal == WK_FRACTAL_RIDGED ? wk_vf_sub(wk_vf_set1(1.0f), twice) : wk_vf_sub(twice, wk_vf_set1(1.0f));
    }
    wk_vf s = wk_vf_mul(wk_vf_set1(o->amp), n);
    if (!o->first) s = wk_vf_add(wk_vf_load_n(out, m), s);
    if (o->divide) s = wk_vf_div(s, wk_vf_set1(o->divisor));
    wk_vf_store_n(out, s, m);
}

/* Where a row's corner gradient indices come from (noise_impl.h): the
 * permutation or the hash applied to keys, or the dense tile's per-cell
 * tables indexed by the column's cell offset. */
enum corner_mode { CORNERS_PERM, CORNERS_HASH, CORNERS_DENSE };

typedef struct corner_ctx {
    int mode;
    wk_perm256 perm;
    wk_lut16 dense[4];
} corner_ctx;

/* dense: `tables` per-cell tables, or NULL to use the keys. */
static inline void corner_init(corner_ctx *c, const wk_octave *o, const uint32_t *const *dense,
                               int tables) {
    if (dense && dense[0]) {
        c->mode = CORNERS_DENSE;
        for (int t = 0; t < tables; t++) c->dense[t] = wk_lut16_load(dense[t]);
    } else if (o->lattice == WK_LATTICE_HASH) {
        c->mode = CORNERS_HASH;
    } else {
        c->mode = CORNERS_PERM;
        wk_perm256_init(&c->perm, o->perm->p);
    }
}

static inline wk_vi corner_from_keys(const corner_ctx *c, int mode, wk_vi col, uint32_t row, int shift) {
    if (mode == CORNERS_PERM) return wk_perm256_get(&c->perm, wk_vi_add(col, wk_vi_set1(row)));
    wk_vi h = wk_vi_xor(col, wk_vi_set1(row));
    h = wk_vi_mullo(wk_vi_xor(h, wk_vi_srli(h, 16)), wk_vi_set1(0x7FEB352Du));
    return shift == 29 ? wk_vi_srli(h, 29) : wk_vi_srli(h, 28);
}

/* The four corners of 2D points i..i+m: h[b + 2 a] is corner (X+a, Y+b). */
static inline void corners2(const corner_ctx *c, int mode, const wk_row2 *r, size_t i, size_t m,
                            wk_vi h[4]) {
    if (mode == CORNERS_DENSE) {
        wk_vi cell = wk_vi_load_n(r->cell + i, m), next = wk_vi_add(cell, wk_vi_set1(1));
        h[0] = wk_lut16_get(c->dense[0], cell);
        h[1] = wk_lut16_get(c->dense[1], cell);
        h[2] = wk_lut16_get(c->dense[0], next);
        h[3] = wk_lut16_get(c->dense[1], next);
    } else {
        wk_vi q0 = wk_vi_load_n(r->q0 + i, m), q1 = wk_vi_load_n(r->q1 + i, m);
        h[0] = corner_from_keys(c, mode, q0, r->y0, 29);
        h[1] = corner_from_keys(c, mode, q0, r->y1, 29);
        h[2] = corner_from_keys(c, mode, q1, r->y0, 29);
        h[3] = corner_from_keys(c, mode, q1, r->y1, 29);
    }
}

/* The eight corners of a 3D row's points from the keys: h[a + 2 b + 4 d] is
 * corner (X+a, Y+b, Z+d). (Dense 3D rows go through row3_dense.) */
static inline void corners3(const corner_ctx *c, int mode, const wk_row3 *r, size_t i, size_t m,
                            wk_vi h[8]) {
    wk_vi q[4] = {wk_vi_load_n(r->q00 + i, m), wk_vi_load_n(r->q10 + i, m), wk_vi_load_n(r->q01 + i, m),
                  wk_vi_load_n(r->q11 + i, m)};
    for (int t = 0; t < 4; t++) {
        h[t] = corner_from_keys(c, mode, q[t], r->z0, 28);
        h[4 + t] = corner_from_keys(c, mode, q[t], r->z1, 28);
    }
}

/* ------------------------------------------------------------- 2D rows */


/* Calls loop(..., mode) with `mode` a constant for each corner source;
 * DISPATCH_KEYS for loops that never see dense tables. */
#define DISPATCH_MODE(c, loop, ...)                                                   \
    do {                                                                              \
        if ((c)->mode == CORNERS_DENSE) loop(__VA_ARGS__, CORNERS_DENSE);             \
        else DISPATCH_KEYS(c, loop, __VA_ARGS__);                                     \
    } while (0)
#define DISPATCH_KEYS(c, loop, ...)                                                   \
    do {                                                                              \
        if ((c)->mode == CORNERS_HASH) loop(__VA_ARGS__, CORNERS_HASH);               \
        else loop(__VA_ARGS__, CORNERS_PERM);                                         \
    } while (0)

/* 2D gradients at the four corners: x varies per lane, y is the row's.
 * 2D uses the low 3 bits of h; the 16-entry tables repeat. */
typedef struct grad2_row {
    wk_lut16 xsign, y0_terms, y1_terms;
} grad2_row;

static inline grad2_row grad2_row_init(const wk_row2 *r) {
    grad2_row g = {wk_lut16_load(g2_xsign),
                   row_terms(r->fy, g2_mask, g2_ysign, 0.0f, unused_mask, unused_sign),
                   row_terms(r->fy1, g2_mask, g2_ysign, 0.0f, unused_mask, unused_sign)};
    return g;
}

/* g[b + 2 a]: gradient of corner (X+a, Y+b) at the lane's point. */
static inline void grad2_corners(const grad2_row *g, const wk_vi h[4], wk_vf x0, wk_vf x1, wk_vf out[4]) {
    /* 2D gradients always use x: its term is x ^ sign (the mask is all ones). */
    out[0] = wk_vf_add(wk_vf_xor_bits(x0, wk_lut16_get(g->xsign, h[0])), wk_vi_as_vf(wk_lut16_get(g->y0_terms, h[0])));
    out[1] = wk_vf_add(wk_vf_xor_bits(x0, wk_lut16_get(g->xsign, h[1])), wk_vi_as_vf(wk_lut16_get(g->y1_terms, h[1])));
    out[2] = wk_vf_add(wk_vf_xor_bits(x1, wk_lut16_get(g->xsign, h[2])), wk_vi_as_vf(wk_lut16_get(g->y0_terms, h[2])));
    out[3] = wk_vf_add(wk_vf_xor_bits(x1, wk_lut16_get(g->xsign, h[3])), wk_vi_as_vf(wk_lut16_get(g->y1_terms, h[3])));
}

/* Dense rows look up, per cell, the sign of the x term and the y term
 * directly: the gradient tables composed with the row's corner tables. */
typedef struct row2_dense_ctx {
    const wk_row2 *r;
    const wk_octave *o;
    float *out;
    wk_lut16 xsign[2], yterm[2];
    wk_vf v;
} row2_dense_ctx;

/* Segments of at most 8 cells look up in one register where that is
 * cheaper (AVX2: one vpermd instead of two and a blend); elsewhere the
 * lookups are the same instructions, so the choice is made at compile time. */
#if defined(WK_SIMD_AVX2)
#define LO8_PAYS 1
#else
#define LO8_PAYS 0
#endif

/* lo8: every cell offset + 1 is below 8 (a segment of at most 8 cells). */
WK_INLINE void row2_dense_at_n(const row2_dense_ctx *k, int lo8, size_t i, size_t m) {
    const wk_row2 *r = k->r;
    wk_vi cell[2] = {wk_vi_load_n(r->cell + i, m)};
    cell[1] = wk_vi_add(cell[0], wk_vi_set1(1));
    wk_vf x[2] = {wk_vf_load_n(r->fx + i, m), wk_vf_load_n(r->fx1 + i, m)}, g[4];
#define GET(t, h) (lo8 ? wk_lut16_get_lo8(t, h) : wk_lut16_get(t, h))
    for (int c = 0; c < 4; c++) /* corner (a, b) = (c >> 1, c & 1) */
        g[c] = wk_vf_add(wk_vf_xor_bits(x[c >> 1], GET(k->xsign[c & 1], cell[c >> 1])),
                         wk_vi_as_vf(GET(k->yterm[c & 1], cell[c >> 1])));
#undef GET
    wk_vf u = wk_vf_load_n(r->u + i, m);
    accumulate(k->o, lerp(k->v, lerp(u, g[0], g[2]), lerp(u, g[1], g[3])), k->out + i, m);
}

WK_INLINE void row2_dense_at(const row2_dense_ctx *k, size_t i, size_t m) { row2_dense_at_n(k, 0, i, m); }
WK_INLINE void row2_dense_at8(const row2_dense_ctx *k, size_t i, size_t m) { row2_dense_at_n(k, 1, i, m); }

static void row2_dense(const wk_row2 *r, const wk_octave *o, size_t n, float *out) {
    grad2_row grad = grad2_row_init(r);
    row2_dense_ctx k = {r, o, out,
                        {wk_lut16_compose(grad.xsign, r->h_y0), wk_lut16_compose(grad.xsign, r->h_y1)},
                        {wk_lut16_compose(grad.y0_terms, r->h_y0), wk_lut16_compose(grad.y1_terms, r->h_y1)},
                        wk_vf_set1(r->v)};
    WK_VECTOR_LOOP(n, row2_dense_at, &k);
}

WK_INLINE void row2_loop(const wk_row2 *r, const wk_octave *o, size_t n, float *out,
                         const corner_ctx *c, int mode) {
    grad2_row grad = grad2_row_init(r);
    wk_vf v = wk_vf_set1(r->v);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vi h[4];
        wk_vf g[4];
        corners2(c, mode, r, i, m, h);
        grad2_corners(&grad, h, wk_vf_load_n(r->fx + i, m), wk_vf_load_n(r->fx1 + i, m), g);
        wk_vf u = wk_vf_load_n(r->u + i, m);
        accumulate(o, lerp(v, lerp(u, g[0], g[2]), lerp(u, g[1], g[3])), out + i, m);
    }
}

void WK_SIMD_NAME(wk__noise_row2)(const wk_row2 *r, const wk_octave *o, size_t n, float *out) {
    if (r->h_y0) {
        row2_dense(r, o, n, out);
        return;
    }
    corner_ctx c;
    corner_init(&c, o, NULL, 0);
    DISPATCH_KEYS(&c, row2_loop, r, o, n, out, &c);
}

/* A whole tile: rows loop here, so the per-row cost is a few broadcasts
 * (key path) or, for dense tiles, the row's corner tables computed from
 * the segment's cell keys in vector registers. */
WK_INLINE void tile2_keys(const wk_tile2 *t, const wk_octave *o, float *out, const corner_ctx *c, int mode) {
    for (size_t j = 0; j < t->rows; j++) {
        wk_row2 r = {t->q0, t->q1, t->fx, t->fx1, t->u, t->y0[j], t->y1[j], t->fy[j], t->fy1[j], t->v[j],
                     NULL, NULL, NULL};
        row2_loop(&r, o, t->cols, out + j * t->stride, c, mode);
    }
}

WK_INLINE void tile2_dense(const wk_tile2 *t, const wk_octave *o, float *out, const corner_ctx *c, int mode) {
    wk_lut16 xsign = wk_lut16_load(g2_xsign);
    uint32_t h0[WK_DENSE_CELLS], h1[WK_DENSE_CELLS];
    for (size_t j = 0; j < t->rows; j++) {
        wk_lut16 y0_terms = row_terms(t->fy[j], g2_mask, g2_ysign, 0.0f, unused_mask, unused_sign);
        wk_lut16 y1_terms = row_terms(t->fy1[j], g2_mask, g2_ysign, 0.0f, unused_mask, unused_sign);
        for (size_t s = 0; s < t->segments; s++) {
            size_t start = s * t->seg_cols, n = t->cols - start < t->seg_cols ? t->cols - start : t->seg_cols;
            for (int b = 0; b < WK_DENSE_CELLS; b += WK_W) {
                wk_vi keys = wk_vi_loadu(t->cell_key[s] + b);
                wk_vi_storeu(h0 + b, corner_from_keys(c, mode, keys, t->y0[j], 29));
                wk_vi_storeu(h1 + b, corner_from_keys(c, mode, keys, t->y1[j], 29));
            }
            wk_row2 r = {NULL, NULL, t->fx + start, t->fx1 + start, t->u + start, 0, 0, 0, 0, 0,
                         t->cell + start, NULL, NULL};
            row2_dense_ctx k = {&r, o, out + j * t->stride + start,
                                {wk_lut16_compose(xsign, h0), wk_lut16_compose(xsign, h1)},
                                {wk_lut16_compose(y0_terms, h0), wk_lut16_compose(y1_terms, h1)},
                                wk_vf_set1(t->v[j])};
            if (LO8_PAYS && t->ncells[s] <= 8) WK_VECTOR_LOOP(n, row2_dense_at8, &k);
            else WK_VECTOR_LOOP(n, row2_dense_at, &k);
        }
    }
}

/* Rows this many vectors wide or less take tile2_narrow: AVX2's 16-entry
 * lookups cost three instructions, so there it pays for one vector only
 * (measured: 16x16 tiles 1.2x slower with two). */
#if defined(WK_SIMD_AVX2)
#define NARROW_VECTORS 1
#else
#define NARROW_VECTORS 2
#endif

/* Narrow dense segments (at most NARROW_VECTORS vectors per row): composing four
 * tables per row costs more than it saves, so each lane looks its corner
 * up, then the sign of its x term and its y term by gradient index (the y
 * term (fy & mask) ^ sign with the row's fy, as row_terms builds it: the
 * 2D mask is all ones). Same values as tile2_dense. */
WK_INLINE void tile2_narrow(const wk_tile2 *t, const wk_octave *o, float *out, const corner_ctx *c, int mode) {
    const wk_lut16 xsign = wk_lut16_load(g2_xsign), ysign = wk_lut16_load(g2_ysign);
    uint32_t h0[WK_DENSE_CELLS], h1[WK_DENSE_CELLS];
    for (size_t j = 0; j < t->rows; j++) {
        const wk_vf fy[2] = {wk_vf_set1(t->fy[j]), wk_vf_set1(t->fy1[j])}, v = wk_vf_set1(t->v[j]);
        for (size_t s = 0; s < t->segments; s++) {
            size_t start = s * t->seg_cols, n = t->cols - start < t->seg_cols ? t->cols - start : t->seg_cols;
            for (int b = 0; b < WK_DENSE_CELLS; b += WK_W) {
                wk_vi keys = wk_vi_loadu(t->cell_key[s] + b);
                wk_vi_storeu(h0 + b, corner_from_keys(c, mode, keys, t->y0[j], 29));
                wk_vi_storeu(h1 + b, corner_from_keys(c, mode, keys, t->y1[j], 29));
            }
            const wk_lut16 tab[2] = {wk_lut16_load(h0), wk_lut16_load(h1)};
            float *row = out + j * t->stride + start;
            for (size_t i = 0; i < n; i += WK_W) {
                size_t m = n - i < WK_W ? n - i : WK_W;
                wk_vi cell[2] = {wk_vi_load_n(t->cell + start + i, m)};
                cell[1] = wk_vi_add(cell[0], wk_vi_set1(1));
                wk_vf x[2] = {wk_vf_load_n(t->fx + start + i, m), wk_vf_load_n(t->fx1 + start + i, m)}, g[4];
                for (int k = 0; k < 4; k++) { /* corner (a, b) = (k >> 1, k & 1) */
                    wk_vi h = wk_lut16_get(tab[k & 1], cell[k >> 1]);
                    g[k] = wk_vf_add(wk_vf_xor_bits(x[k >> 1], wk_lut16_get(xsign, h)),
                                     wk_vf_xor_bits(fy[k & 1], wk_lut16_get(ysign, h)));
                }
                wk_vf u = wk_vf_load_n(t->u + start + i, m);
                accumulate(o, lerp(v, lerp(u, g[0], g[2]), lerp(u, g[1], g[3])), row + i, m);
            }
        }
    }
}

void WK_SIMD_NAME(wk__noise_tile2)(const wk_tile2 *t, const wk_octave *o, float *out) {
    corner_ctx c;
    corner_init(&c, o, NULL, 0);
    if (t->cell && (t->segments == 1 ? t->cols : t->seg_cols) <= NARROW_VECTORS * WK_W)
        DISPATCH_KEYS(&c, tile2_narrow, t, o, out, &c);
    else if (t->cell) DISPATCH_KEYS(&c, tile2_dense, t, o, out, &c);
    else DISPATCH_KEYS(&c, tile2_keys, t, o, out, &c);
}

/* +-1.0f with the sign a gradient gives one axis: its partial derivative. */
static inline wk_vf unit_with_sign(wk_lut16 sign, wk_vi h) {
    return wk_vi_as_vf(wk_vi_xor(wk_vi_set1(0x3F800000u), wk_lut16_get(sign, h)));
}

WK_INLINE void row2d_loop(const wk_row2d *d, const wk_octave *o, size_t n, float *value,
                          float *ddx, float *ddy, const corner_ctx *c, int mode) {
    const wk_row2 *r = &d->r;
    grad2_row grad = grad2_row_init(r);
    wk_lut16 xsign = grad.xsign, ysign = wk_lut16_load(g2_ysign);
    wk_vf v = wk_vf_set1(r->v), dv = wk_vf_set1(d->dv);
    wk_vf sx = wk_vf_set1(d->sx), sy = wk_vf_set1(d->sy);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vi h[4];
        wk_vf g[4];
        corners2(c, mode, r, i, m, h);
        grad2_corners(&grad, h, wk_vf_load_n(r->fx + i, m), wk_vf_load_n(r->fx1 + i, m), g);
        wk_vf u = wk_vf_load_n(r->u + i, m), du = wk_vf_load_n(d->du + i, m);
        wk_vf a = lerp(u, g[0], g[2]), b = lerp(u, g[1], g[3]);
        /* Product rule on lerp(u, g0, g1) = g0 + u (g1 - g0), as noise_ref.c. */
        wk_vf ax = wk_vf_add(lerp(u, unit_with_sign(xsign, h[0]), unit_with_sign(xsign, h[2])),
                             wk_vf_mul(du, wk_vf_sub(g[2], g[0])));
        wk_vf bx = wk_vf_add(lerp(u, unit_with_sign(xsign, h[1]), unit_with_sign(xsign, h[3])),
                             wk_vf_mul(du, wk_vf_sub(g[3], g[1])));
        wk_vf ay = lerp(u, unit_with_sign(ysign, h[0]), unit_with_sign(ysign, h[2]));
        wk_vf by = lerp(u, unit_with_sign(ysign, h[1]), unit_with_sign(ysign, h[3]));
        accumulate(o, lerp(v, a, b), value + i, m);
        accumulate(o, wk_vf_mul(lerp(v, ax, bx), sx), ddx + i, m);
        accumulate(o, wk_vf_mul(wk_vf_add(lerp(v, ay, by), wk_vf_mul(dv, wk_vf_sub(b, a))), sy), ddy + i, m);
    }
}

void WK_SIMD_NAME(wk__noise_row2d)(const wk_row2d *d, const wk_octave *o, size_t n, float *value,
                                  float *ddx, float *ddy) {
    corner_ctx c;
    const uint32_t *dense[2] = {d->r.h_y0, d->r.h_y1};
    corner_init(&c, o, dense, 2);
    DISPATCH_MODE(&c, row2d_loop, d, o, n, value, ddx, ddy, &c);
}

/* ------------------------------------------------------------- 3D rows */

/* y and z are constant along a 3D row: their summed terms per gradient
 * index, for each (y corner b, z corner d) in the order b + 2 d. */
static inline void row3_terms(const wk_row3 *r, wk_lut16 terms[4]) {
    terms[0] = row_terms(r->fy, g3_ymask, g3_ysign, r->fz, g3_zmask, g3_zsign);
    terms[1] = row_terms(r->fy1, g3_ymask, g3_ysign, r->fz, g3_zmask, g3_zsign);
    terms[2] = row_terms(r->fy, g3_ymask, g3_ysign, r->fz1, g3_zmask, g3_zsign);
    terms[3] = row_terms(r->fy1, g3_ymask, g3_ysign, r->fz1, g3_zmask, g3_zsign);
}

/* Dense 3D rows: x mask, x sign and row terms composed per cell, as row2_dense. */
typedef struct row3_dense_ctx {
    const wk_row3 *r;
    const wk_octave *o;
    float *out;
    wk_lut16 terms[4], xmask[4], xsign[4];
    wk_vf v, w;
} row3_dense_ctx;

/* lo8: every cell offset + 1 is below 8 (see row2_dense_at_n). */
WK_INLINE void row3_dense_at_n(const row3_dense_ctx *k, int lo8, size_t i, size_t m) {
    const wk_row3 *r = k->r;
    wk_vi cell[2] = {wk_vi_load_n(r->cell + i, m)};
    cell[1] = wk_vi_add(cell[0], wk_vi_set1(1));
    wk_vf x[2] = {wk_vf_load_n(r->fx + i, m), wk_vf_load_n(r->fx1 + i, m)}, u = wk_vf_load_n(r->u + i, m);
    wk_vf g[8];
#define GET(t, h) (lo8 ? wk_lut16_get_lo8(t, h) : wk_lut16_get(t, h))
    for (int c = 0; c < 8; c++) { /* corner a + 2 b + 4 d */
        wk_vi h = cell[c & 1];
        wk_vf term = wk_vi_as_vf(wk_vi_ternary_xor_and(wk_vf_as_vi(x[c & 1]), GET(k->xmask[c >> 1], h),
                                                       GET(k->xsign[c >> 1], h)));
        g[c] = wk_vf_add(term, wk_vi_as_vf(GET(k->terms[c >> 1], h)));
    }
#undef GET
    wk_vf near = lerp(k->v, lerp(u, g[0], g[1]), lerp(u, g[2], g[3]));
    wk_vf far = lerp(k->v, lerp(u, g[4], g[5]), lerp(u, g[6], g[7]));
    accumulate(k->o, lerp(k->w, near, far), k->out + i, m);
}

WK_INLINE void row3_dense_at(const row3_dense_ctx *k, size_t i, size_t m) { row3_dense_at_n(k, 0, i, m); }
WK_INLINE void row3_dense_at8(const row3_dense_ctx *k, size_t i, size_t m) { row3_dense_at_n(k, 1, i, m); }

static void row3_dense(const wk_row3 *r, const wk_octave *o, size_t n, float *out, int lo8) {
    row3_dense_ctx k = {.r = r, .o = o, .out = out, .v = wk_vf_set1(r->v), .w = wk_vf_set1(r->w)};
    row3_terms(r, k.terms);
    for (int t = 0; t < 4; t++) {
        k.xmask[t] = wk_lut16_compose(wk_lut16_load(g3_xmask), r->h[t]);
        k.xsign[t] = wk_lut16_compose(wk_lut16_load(g3_xsign), r->h[t]);
        k.terms[t] = wk_lut16_compose(k.terms[t], r->h[t]);
    }
    if (lo8) WK_VECTOR_LOOP(n, row3_dense_at8, &k);
    else WK_VECTOR_LOOP(n, row3_dense_at, &k);
}

WK_INLINE void row3_loop(const wk_row3 *r, const wk_octave *o, size_t n, float *out,
                         const corner_ctx *c, int mode) {
    wk_lut16 xmask = wk_lut16_load(g3_xmask), xsign = wk_lut16_load(g3_xsign), terms[4];
    row3_terms(r, terms);
    wk_vf v = wk_vf_set1(r->v), w = wk_vf_set1(r->w);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vf x[2] = {wk_vf_load_n(r->fx + i, m), wk_vf_load_n(r->fx1 + i, m)}, u = wk_vf_load_n(r->u + i, m);
        wk_vi h[8];
        wk_vf g[8];
        corners3(c, mode, r, i, m, h);
        for (int k = 0; k < 8; k++)
            g[k] = wk_vf_add(grad_term(x[k & 1], xmask, xsign, h[k]), wk_vi_as_vf(wk_lut16_get(terms[k >> 1], h[k])));
        wk_vf near = lerp(v, lerp(u, g[0], g[1]), lerp(u, g[2], g[3]));
        wk_vf far = lerp(v, lerp(u, g[4], g[5]), lerp(u, g[6], g[7]));
        accumulate(o, lerp(w, near, far), out + i, m);
    }
}

void WK_SIMD_NAME(wk__noise_row3)(const wk_row3 *r, const wk_octave *o, size_t n, float *out) {
    if (r->h[0]) {
        row3_dense(r, o, n, out, 0);
        return;
    }
    corner_ctx c;
    corner_init(&c, o, NULL, 0);
    DISPATCH_KEYS(&c, row3_loop, r, o, n, out, &c);
}

/* ------------------------------------------------------ fBm at points */

/* A corner index from per-lane column and row keys. */
static inline wk_vi corner_lanes(const corner_ctx *c, int mode, wk_vi col, wk_vi row, int shift) {
    if (mode == CORNERS_PERM) return wk_perm256_get(&c->perm, wk_vi_add(col, row));
    wk_vi h = wk_vi_xor(col, row);
    h = wk_vi_mullo(wk_vi_xor(h, wk_vi_srli(h, 16)), wk_vi_set1(0x7FEB352Du));
    return shift == 29 ? wk_vi_srli(h, 29) : wk_vi_srli(h, 28);
}

/* 2D: g = (x ^ xsign) + (y ^ ysign), the row path's terms with y per lane. */
WK_INLINE void pts2_loop(const wk_pts2 *p, const wk_octave *o, size_t n, float *out, const corner_ctx *c,
                         int mode) {
    wk_lut16 xsign = wk_lut16_load(g2_xsign), ysign = wk_lut16_load(g2_ysign);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vi q0 = wk_vi_load_n(p->q0 + i, m), q1 = wk_vi_load_n(p->q1 + i, m);
        wk_vi r0 = wk_vi_load_n(p->y0 + i, m), r1 = wk_vi_load_n(p->y1 + i, m);
        wk_vf x0 = wk_vf_load_n(p->fx + i, m), x1 = wk_vf_load_n(p->fx1 + i, m);
        wk_vf y0 = wk_vf_load_n(p->fy + i, m), y1 = wk_vf_load_n(p->fy1 + i, m);
        wk_vi h[4] = {corner_lanes(c, mode, q0, r0, 29), corner_lanes(c, mode, q0, r1, 29),
                      corner_lanes(c, mode, q1, r0, 29), corner_lanes(c, mode, q1, r1, 29)};
        wk_vf g[4];
        for (int k = 0; k < 4; k++) /* corner (a, b) = (k >> 1, k & 1) */
            g[k] = wk_vf_add(wk_vf_xor_bits(k >> 1 ? x1 : x0, wk_lut16_get(xsign, h[k])),
                             wk_vf_xor_bits(k & 1 ? y1 : y0, wk_lut16_get(ysign, h[k])));
        wk_vf u = wk_vf_load_n(p->u + i, m), v = wk_vf_load_n(p->v + i, m);
        accumulate(o, lerp(v, lerp(u, g[0], g[2]), lerp(u, g[1], g[3])), out + i, m);
    }
}

void WK_SIMD_NAME(wk__noise_pts2)(const wk_pts2 *p, const wk_octave *o, size_t n, float *out) {
    corner_ctx c;
    corner_init(&c, o, NULL, 0);
    DISPATCH_KEYS(&c, pts2_loop, p, o, n, out, &c);
}

/* 3D: g = x term + (y term + z term), as the rows (row_terms sums y and z). */
WK_INLINE void pts3_loop(const wk_pts3 *p, const wk_octave *o, size_t n, float *out, const corner_ctx *c,
                         int mode) {
    wk_lut16 xmask = wk_lut16_load(g3_xmask), xsign = wk_lut16_load(g3_xsign);
    wk_lut16 ymask = wk_lut16_load(g3_ymask), ysign = wk_lut16_load(g3_ysign);
    wk_lut16 zmask = wk_lut16_load(g3_zmask), zsign = wk_lut16_load(g3_zsign);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vf x[2] = {wk_vf_load_n(p->fx + i, m), wk_vf_load_n(p->fx1 + i, m)};
        wk_vf y[2] = {wk_vf_load_n(p->fy + i, m), wk_vf_load_n(p->fy1 + i, m)};
        wk_vf z[2] = {wk_vf_load_n(p->fz + i, m), wk_vf_load_n(p->fz1 + i, m)};
        wk_vi q[4] = {wk_vi_load_n(p->q00 + i, m), wk_vi_load_n(p->q10 + i, m), wk_vi_load_n(p->q01 + i, m),
                      wk_vi_load_n(p->q11 + i, m)};
        wk_vi zk[2] = {wk_vi_load_n(p->z0 + i, m), wk_vi_load_n(p->z1 + i, m)};
        wk_vf g[8];
        for (int k = 0; k < 8; k++) { /* corner a + 2 b + 4 d */
            wk_vi h = corner_lanes(c, mode, q[k & 3], zk[k >> 2], 28);
            wk_vf yz = wk_vf_add(grad_term(y[(k >> 1) & 1], ymask, ysign, h), grad_term(z[k >> 2], zmask, zsign, h));
            g[k] = wk_vf_add(grad_term(x[k & 1], xmask, xsign, h), yz);
        }
        wk_vf u = wk_vf_load_n(p->u + i, m), v = wk_vf_load_n(p->v + i, m), w = wk_vf_load_n(p->w + i, m);
        wk_vf near = lerp(v, lerp(u, g[0], g[1]), lerp(u, g[2], g[3]));
        wk_vf far = lerp(v, lerp(u, g[4], g[5]), lerp(u, g[6], g[7]));
        accumulate(o, lerp(w, near, far), out + i, m);
    }
}

void WK_SIMD_NAME(wk__noise_pts3)(const wk_pts3 *p, const wk_octave *o, size_t n, float *out) {
    corner_ctx c;
    corner_init(&c, o, NULL, 0);
    DISPATCH_KEYS(&c, pts3_loop, p, o, n, out, &c);
}

/* Partial derivatives of 3D gradients per index, as float bits: +-1.0 for
 * the axes a gradient uses, +0.0 otherwise (noise_ref.c's grad3_d*). */
#define PARTIAL(mask, sign) ((0x3F800000u ^ (sign)) & (mask))
#define G3_DX(h) PARTIAL(G3_XMASK(h), G3_XSIGN(h))
#define G3_DY(h) PARTIAL(G3_YMASK(h), G3_YSIGN(h))
#define G3_DZ(h) PARTIAL(G3_ZMASK(h), G3_ZSIGN(h))
static const uint32_t g3_dx[16] = LIST16(G3_DX), g3_dy[16] = LIST16(G3_DY), g3_dz[16] = LIST16(G3_DZ);

WK_INLINE void row3d_loop(const wk_row3d *d, const wk_octave *o, size_t n, float *value, float *ddx, float *ddy,
                          float *ddz, const corner_ctx *c, int mode) {
    const wk_row3 *r = &d->r;
    wk_lut16 xmask = wk_lut16_load(g3_xmask), xsign = wk_lut16_load(g3_xsign), terms[4];
    wk_lut16 tdx = wk_lut16_load(g3_dx), tdy = wk_lut16_load(g3_dy), tdz = wk_lut16_load(g3_dz);
    row3_terms(r, terms);
    wk_vf v = wk_vf_set1(r->v), w = wk_vf_set1(r->w), dv = wk_vf_set1(d->dv), dw = wk_vf_set1(d->dw);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vf x[2] = {wk_vf_load_n(r->fx + i, m), wk_vf_load_n(r->fx1 + i, m)};
        wk_vf u = wk_vf_load_n(r->u + i, m), du = wk_vf_load_n(d->du + i, m);
        wk_vi h[8];
        corners3(c, mode, r, i, m, h);
        wk_vf a[4], ax[4], ay[4], az[4];
        for (int e = 0; e < 4; e++) {
            wk_vi h0 = h[2 * e], h1 = h[2 * e + 1];
            wk_vf g0 = wk_vf_add(grad_term(x[0], xmask, xsign, h0), wk_vi_as_vf(wk_lut16_get(terms[e], h0)));
            wk_vf g1 = wk_vf_add(grad_term(x[1], xmask, xsign, h1), wk_vi_as_vf(wk_lut16_get(terms[e], h1)));
            a[e] = lerp(u, g0, g1);
            ax[e] = wk_vf_add(lerp(u, wk_vi_as_vf(wk_lut16_get(tdx, h0)), wk_vi_as_vf(wk_lut16_get(tdx, h1))),
                              wk_vf_mul(du, wk_vf_sub(g1, g0)));
            ay[e] = lerp(u, wk_vi_as_vf(wk_lut16_get(tdy, h0)), wk_vi_as_vf(wk_lut16_get(tdy, h1)));
            az[e] = lerp(u, wk_vi_as_vf(wk_lut16_get(tdz, h0)), wk_vi_as_vf(wk_lut16_get(tdz, h1)));
        }
        wk_vf near = lerp(v, a[0], a[1]), far = lerp(v, a[2], a[3]);
        wk_vf nx = lerp(v, ax[0], ax[1]), fx = lerp(v, ax[2], ax[3]);
        wk_vf ny = wk_vf_add(lerp(v, ay[0], ay[1]), wk_vf_mul(dv, wk_vf_sub(a[1], a[0])));
        wk_vf fy = wk_vf_add(lerp(v, ay[2], ay[3]), wk_vf_mul(dv, wk_vf_sub(a[3], a[2])));
        wk_vf nz = lerp(v, az[0], az[1]), fz = lerp(v, az[2], az[3]);
        accumulate(o, lerp(w, near, far), value + i, m);
        accumulate(o, wk_vf_mul(lerp(w, nx, fx), wk_vf_set1(d->sx)), ddx + i, m);
        accumulate(o, wk_vf_mul(lerp(w, ny, fy), wk_vf_set1(d->sy)), ddy + i, m);
        accumulate(o, wk_vf_mul(wk_vf_add(lerp(w, nz, fz), wk_vf_mul(dw, wk_vf_sub(far, near))), wk_vf_set1(d->sz)),
                   ddz + i, m);
    }
}

void WK_SIMD_NAME(wk__noise_row3d)(const wk_row3d *d, const wk_octave *o, size_t n, float *value, float *ddx,
                                  float *ddy, float *ddz) {
    corner_ctx c;
    corner_init(&c, o, NULL, 0);
    DISPATCH_KEYS(&c, row3d_loop, d, o, n, value, ddx, ddy, ddz, &c);
}

/* One 3D row across its slices (wk_tile3). */
WK_INLINE void tile3_run(const wk_tile3 *t, const wk_octave *o, float *out, const corner_ctx *c, int mode) {
    uint32_t h[4][WK_DENSE_CELLS];
    for (size_t s = 0; s < t->slices; s++) {
        wk_row3 r = {t->q00, t->q10, t->q01, t->q11, t->fx, t->fx1, t->u, t->z0[s], t->z1[s], t->fy, t->fy1, t->v,
                     t->fz[s], t->fz1[s], t->w[s], NULL, {NULL, NULL, NULL, NULL}};
        float *row_out = out + s * t->slice_stride;
        if (!t->cell) {
            row3_loop(&r, o, t->cols, row_out, c, mode);
            continue;
        }
        for (size_t seg = 0; seg < t->segments; seg++) {
            size_t start = seg * t->seg_cols, n = t->cols - start < t->seg_cols ? t->cols - start : t->seg_cols;
            for (int b = 0; b < WK_DENSE_CELLS; b += WK_W) { /* h[b' + 2 d]: corner (cell, Y+b', Z+d) */
                wk_vi k0 = wk_vi_loadu(t->cell_y0[seg] + b), k1 = wk_vi_loadu(t->cell_y1[seg] + b);
                wk_vi_storeu(h[0] + b, corner_from_keys(c, mode, k0, r.z0, 28));
                wk_vi_storeu(h[1] + b, corner_from_keys(c, mode, k1, r.z0, 28));
                wk_vi_storeu(h[2] + b, corner_from_keys(c, mode, k0, r.z1, 28));
                wk_vi_storeu(h[3] + b, corner_from_keys(c, mode, k1, r.z1, 28));
            }
            wk_row3 d = r;
            d.fx = t->fx + start, d.fx1 = t->fx1 + start, d.u = t->u + start, d.cell = t->cell + start;
            for (int i = 0; i < 4; i++) d.h[i] = h[i];
            row3_dense(&d, o, n, row_out + start, LO8_PAYS && t->ncells[seg] <= 8);
        }
    }
}

void WK_SIMD_NAME(wk__noise_tile3)(const wk_tile3 *t, const wk_octave *o, float *out) {
    corner_ctx c;
    corner_init(&c, o, NULL, 0);
    DISPATCH_KEYS(&c, tile3_run, t, o, out, &c);
}

/* ----------------------------------------------------------- points */

static inline wk_vf fade(wk_vf t) {
    wk_vf poly = wk_vf_add(wk_vf_mul(t, wk_vf_sub(wk_vf_mul(t, wk_vf_set1(6.0f)), wk_vf_set1(15.0f))),
                           wk_vf_set1(10.0f));
    return wk_vf_mul(wk_vf_mul(wk_vf_mul(t, t), t), poly);
}

/* Cell mod 256 (as noise_ref.c, exact for every finite float) and fraction.
 * Lanes that are NaN or infinite get an arbitrary cell: the table lookups
 * mask indices to 0..255 and the output is replaced by NaN. */
static inline wk_vi cell_and_fraction(wk_vf x, wk_vf *frac) {
    wk_vf cell = wk_vf_floor(x);
    wk_vf wraps = wk_vf_floor(wk_vf_mul(cell, wk_vf_set1(1.0f / 256.0f)));
    *frac = wk_vf_sub(x, cell);
    return wk_vi_from_vf_trunc(wk_vf_sub(cell, wk_vf_mul(wk_vf_set1(256.0f), wraps)));
}

static inline wk_vf canonical_nan_if(wk_vf a) {
    return wk_vf_select(wk_vf_isnan(a), wk_vi_as_vf(wk_vi_set1(WK_CANONICAL_NAN_BITS)), a);
}

void WK_SIMD_NAME(wk__perlin2)(const float *xs, const float *ys, size_t n, const wk_perm *perm,
                              float *out) {
    wk_perm256 p;
    wk_perm256_init(&p, perm->p);
    wk_lut16 ones = wk_lut16_load(g2_mask);
    wk_lut16 xsign = wk_lut16_load(g2_xsign), ysign = wk_lut16_load(g2_ysign);
    const wk_vf one = wk_vf_set1(1.0f);
    const wk_vi next = wk_vi_set1(1);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vf x0, y0;
        wk_vi X = cell_and_fraction(wk_vf_load_n(xs + i, m), &x0), Y = cell_and_fraction(wk_vf_load_n(ys + i, m), &y0);
        wk_vf u = fade(x0), v = fade(y0), x1 = wk_vf_sub(x0, one), y1 = wk_vf_sub(y0, one);
        wk_vi A = wk_perm256_get(&p, X), B = wk_perm256_get(&p, wk_vi_add(X, next));
        wk_vi h00 = wk_perm256_get(&p, wk_vi_add(A, Y)), h10 = wk_perm256_get(&p, wk_vi_add(B, Y));
        wk_vi h01 = wk_perm256_get(&p, wk_vi_add(wk_vi_add(A, Y), next));
        wk_vi h11 = wk_perm256_get(&p, wk_vi_add(wk_vi_add(B, Y), next));
#define G2(h, x, y) wk_vf_add(grad_term(x, ones, xsign, h), grad_term(y, ones, ysign, h))
        wk_vf value = lerp(v, lerp(u, G2(h00, x0, y0), G2(h10, x1, y0)),
                           lerp(u, G2(h01, x0, y1), G2(h11, x1, y1)));
#undef G2
        wk_vf_store_n(out + i, canonical_nan_if(value), m);
    }
}

void WK_SIMD_NAME(wk__perlin3)(const float *xs, const float *ys, const float *zs, size_t n,
                              const wk_perm *perm, float *out) {
    wk_perm256 p;
    wk_perm256_init(&p, perm->p);
    wk_lut16 xmask = wk_lut16_load(g3_xmask), xsign = wk_lut16_load(g3_xsign);
    wk_lut16 ymask = wk_lut16_load(g3_ymask), ysign = wk_lut16_load(g3_ysign);
    wk_lut16 zmask = wk_lut16_load(g3_zmask), zsign = wk_lut16_load(g3_zsign);
    const wk_vf one = wk_vf_set1(1.0f);
    const wk_vi next = wk_vi_set1(1);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vf x0, y0, z0;
        wk_vi X = cell_and_fraction(wk_vf_load_n(xs + i, m), &x0), Y = cell_and_fraction(wk_vf_load_n(ys + i, m), &y0);
        wk_vi Z = cell_and_fraction(wk_vf_load_n(zs + i, m), &z0);
        wk_vf u = fade(x0), v = fade(y0), w = fade(z0);
        wk_vf x1 = wk_vf_sub(x0, one), y1 = wk_vf_sub(y0, one), z1 = wk_vf_sub(z0, one);
        wk_vi A = wk_vi_add(wk_perm256_get(&p, X), Y), B = wk_vi_add(wk_perm256_get(&p, wk_vi_add(X, next)), Y);
        wk_vi AA = wk_vi_add(wk_perm256_get(&p, A), Z), AB = wk_vi_add(wk_perm256_get(&p, wk_vi_add(A, next)), Z);
        wk_vi BA = wk_vi_add(wk_perm256_get(&p, B), Z), BB = wk_vi_add(wk_perm256_get(&p, wk_vi_add(B, next)), Z);
        /* ((x term + y term) + z term): u + v with an exact -0 for the unused axis. */
#define G3(h, x, y, z)                                                                        \
    wk_vf_add(wk_vf_add(grad_term(x, xmask, xsign, h), grad_term(y, ymask, ysign, h)),       \
              grad_term(z, zmask, zsign, h))
#define AT(k) wk_perm256_get(&p, k)
#define AT1(k) wk_perm256_get(&p, wk_vi_add(k, next))
        wk_vf near = lerp(v, lerp(u, G3(AT(AA), x0, y0, z0), G3(AT(BA), x1, y0, z0)),
                          lerp(u, G3(AT(AB), x0, y1, z0), G3(AT(BB), x1, y1, z0)));
        wk_vf far = lerp(v, lerp(u, G3(AT1(AA), x0, y0, z1), G3(AT1(BA), x1, y0, z1)),
                         lerp(u, G3(AT1(AB), x0, y1, z1), G3(AT1(BB), x1, y1, z1)));
#undef AT1
#undef AT
#undef G3
        wk_vf_store_n(out + i, canonical_nan_if(lerp(w, near, far)), m);
    }
}


/* Points' lattice setup: the shared C of noise_lattice.h, compiled here. */
void WK_SIMD_NAME(wk__noise_coords)(const double *pos, size_t n, double freq, uint32_t lattice, uint32_t seed, unsigned axis,
        const uint8_t *perm, uint32_t *key0, uint32_t *key1, float *frac, float *frac1, float *fade) {
    wk__coords_impl(pos, n, freq, lattice, seed, axis, perm, key0, key1, frac, frac1, fade);
}


void WK_SIMD_NAME(wk__noise_grid_coords)(int64_t origin, size_t count, double step, double freq, uint32_t lattice, uint32_t seed,
        unsigned axis, int64_t *cells, uint32_t *key0, uint32_t *key1, float *frac, float *frac1, float *fade,
        float *dfade) {
    wk__grid_coords_impl(origin, count, step, freq, lattice, seed, axis, cells, key0, key1, frac, frac1, fade, dfade);
}

const wk__noise_kernels WK_SIMD_NAME(wk__noise_kernels) = {
    .row2 = WK_SIMD_NAME(wk__noise_row2),
    .row3 = WK_SIMD_NAME(wk__noise_row3),
    .row2d = WK_SIMD_NAME(wk__noise_row2d),
    .perlin2 = WK_SIMD_NAME(wk__perlin2),
    .perlin3 = WK_SIMD_NAME(wk__perlin3),
    .pts2 = WK_SIMD_NAME(wk__noise_pts2),
    .pts3 = WK_SIMD_NAME(wk__noise_pts3),
    .tile2 = WK_SIMD_NAME(wk__noise_tile2),
    .tile3 = WK_SIMD_NAME(wk__noise_tile3),
    .row3d = WK_SIMD_NAME(wk__noise_row3d),
    .coords = WK_SIMD_NAME(wk__noise_coords),
    .grid_coords = WK_SIMD_NAME(wk__noise_grid_coords),
};
