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
static const uint32_t lane_index[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

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

/* Loads and stores of m <= WK_W lanes: full vectors or the tail. */
static inline wk_vf load_f(const float *p, size_t m) { return m == WK_W ? wk_vf_loadu(p) : wk_vf_load_part(p, m); }
static inline wk_vi load_i(const uint32_t *p, size_t m) { return m == WK_W ? wk_vi_loadu(p) : wk_vi_load_part(p, m); }
static inline void store_f(float *p, wk_vf a, size_t m) {
    if (m == WK_W) wk_vf_storeu(p, a);
    else wk_vf_store_part(p, a, m);
}

/* out = first ? amp * n : out + amp * n, then / divisor when asked. */
static inline void accumulate(const wk_octave *o, wk_vf n, float *out, size_t m) {
    wk_vf s = wk_vf_mul(wk_vf_set1(o->amp), n);
    if (!o->first) s = wk_vf_add(load_f(out, m), s);
    if (o->divide) s = wk_vf_div(s, wk_vf_set1(o->divisor));
    store_f(out, s, m);
}

/* Gradient index of a corner from column and row keys (noise_impl.h). */
typedef struct corner_ctx {
    wk_perm256 perm;
    int hash;
} corner_ctx;

static inline wk_vi corner(const corner_ctx *c, wk_vi col, uint32_t row, int shift) {
    if (!c->hash) return wk_perm256_get(&c->perm, wk_vi_add(col, wk_vi_set1(row)));
    wk_vi h = wk_vi_xor(col, wk_vi_set1(row));
    h = wk_vi_mullo(wk_vi_xor(h, wk_vi_srli(h, 16)), wk_vi_set1(0x7FEB352Du));
    return shift == 29 ? wk_vi_srli(h, 29) : wk_vi_srli(h, 28);
}

static inline void corner_init(corner_ctx *c, const wk_octave *o) {
    c->hash = o->lattice == WK_LATTICE_HASH;
    if (!c->hash) wk_perm256_init(&c->perm, o->perm->p);
}

/* ------------------------------------------------------------- 2D rows */

/* always_inline with a constant `hash` gives each lattice its own loop. */
#define WK_INLINE static inline __attribute__((always_inline))

WK_INLINE void row2_loop(const wk_row2 *r, const wk_octave *o, size_t n, float *out, int hash) {
    corner_ctx c;
    corner_init(&c, o);
    c.hash = hash;
    /* 2D gradients use the low 3 bits of h; the 16-entry tables repeat. */
    wk_lut16 xmask = wk_lut16_load(g2_mask), xsign = wk_lut16_load(g2_xsign);
    wk_lut16 k0 = row_terms(r->fy, g2_mask, g2_ysign, 0.0f, unused_mask, unused_sign);
    wk_lut16 k1 = row_terms(r->fy1, g2_mask, g2_ysign, 0.0f, unused_mask, unused_sign);
    wk_vf v = wk_vf_set1(r->v);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vi q0 = load_i(r->q0 + i, m), q1 = load_i(r->q1 + i, m);
        wk_vf x0 = load_f(r->fx + i, m), x1 = load_f(r->fx1 + i, m), u = load_f(r->u + i, m);
        wk_vi h00 = corner(&c, q0, r->y0, 29), h10 = corner(&c, q1, r->y0, 29);
        wk_vi h01 = corner(&c, q0, r->y1, 29), h11 = corner(&c, q1, r->y1, 29);
        wk_vf g00 = wk_vf_add(grad_term(x0, xmask, xsign, h00), wk_vi_as_vf(wk_lut16_get(k0, h00)));
        wk_vf g10 = wk_vf_add(grad_term(x1, xmask, xsign, h10), wk_vi_as_vf(wk_lut16_get(k0, h10)));
        wk_vf g01 = wk_vf_add(grad_term(x0, xmask, xsign, h01), wk_vi_as_vf(wk_lut16_get(k1, h01)));
        wk_vf g11 = wk_vf_add(grad_term(x1, xmask, xsign, h11), wk_vi_as_vf(wk_lut16_get(k1, h11)));
        accumulate(o, lerp(v, lerp(u, g00, g10), lerp(u, g01, g11)), out + i, m);
    }
}

void WK_SIMD_NAME(wk_noise_row2)(const wk_row2 *r, const wk_octave *o, size_t n, float *out) {
    if (o->lattice == WK_LATTICE_HASH) row2_loop(r, o, n, out, 1);
    else row2_loop(r, o, n, out, 0);
}

/* +-1.0f with the sign a gradient gives one axis: its partial derivative. */
static inline wk_vf unit_with_sign(wk_lut16 sign, wk_vi h) {
    return wk_vi_as_vf(wk_vi_xor(wk_vi_set1(0x3F800000u), wk_lut16_get(sign, h)));
}

WK_INLINE void row2d_loop(const wk_row2d *d, const wk_octave *o, size_t n, float *value,
                          float *ddx, float *ddy, int hash) {
    const wk_row2 *r = &d->r;
    corner_ctx c;
    corner_init(&c, o);
    c.hash = hash;
    wk_lut16 xmask = wk_lut16_load(g2_mask), xsign = wk_lut16_load(g2_xsign);
    wk_lut16 ysign = wk_lut16_load(g2_ysign);
    wk_lut16 k0 = row_terms(r->fy, g2_mask, g2_ysign, 0.0f, unused_mask, unused_sign);
    wk_lut16 k1 = row_terms(r->fy1, g2_mask, g2_ysign, 0.0f, unused_mask, unused_sign);
    wk_vf v = wk_vf_set1(r->v), dv = wk_vf_set1(d->dv);
    wk_vf sx = wk_vf_set1(d->sx), sy = wk_vf_set1(d->sy);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vi q0 = load_i(r->q0 + i, m), q1 = load_i(r->q1 + i, m);
        wk_vf x0 = load_f(r->fx + i, m), x1 = load_f(r->fx1 + i, m);
        wk_vf u = load_f(r->u + i, m), du = load_f(d->du + i, m);
        wk_vi h00 = corner(&c, q0, r->y0, 29), h10 = corner(&c, q1, r->y0, 29);
        wk_vi h01 = corner(&c, q0, r->y1, 29), h11 = corner(&c, q1, r->y1, 29);
        wk_vf g00 = wk_vf_add(grad_term(x0, xmask, xsign, h00), wk_vi_as_vf(wk_lut16_get(k0, h00)));
        wk_vf g10 = wk_vf_add(grad_term(x1, xmask, xsign, h10), wk_vi_as_vf(wk_lut16_get(k0, h10)));
        wk_vf g01 = wk_vf_add(grad_term(x0, xmask, xsign, h01), wk_vi_as_vf(wk_lut16_get(k1, h01)));
        wk_vf g11 = wk_vf_add(grad_term(x1, xmask, xsign, h11), wk_vi_as_vf(wk_lut16_get(k1, h11)));
        wk_vf a = lerp(u, g00, g10), b = lerp(u, g01, g11);
        /* Product rule on lerp(u, g0, g1) = g0 + u (g1 - g0), as noise_ref.c. */
        wk_vf ax = wk_vf_add(lerp(u, unit_with_sign(xsign, h00), unit_with_sign(xsign, h10)),
                             wk_vf_mul(du, wk_vf_sub(g10, g00)));
        wk_vf bx = wk_vf_add(lerp(u, unit_with_sign(xsign, h01), unit_with_sign(xsign, h11)),
                             wk_vf_mul(du, wk_vf_sub(g11, g01)));
        wk_vf ay = lerp(u, unit_with_sign(ysign, h00), unit_with_sign(ysign, h10));
        wk_vf by = lerp(u, unit_with_sign(ysign, h01), unit_with_sign(ysign, h11));
        accumulate(o, lerp(v, a, b), value + i, m);
        accumulate(o, wk_vf_mul(lerp(v, ax, bx), sx), ddx + i, m);
        accumulate(o, wk_vf_mul(wk_vf_add(lerp(v, ay, by), wk_vf_mul(dv, wk_vf_sub(b, a))), sy), ddy + i, m);
    }
}

void WK_SIMD_NAME(wk_noise_row2d)(const wk_row2d *d, const wk_octave *o, size_t n, float *value,
                                  float *ddx, float *ddy) {
    if (o->lattice == WK_LATTICE_HASH) row2d_loop(d, o, n, value, ddx, ddy, 1);
    else row2d_loop(d, o, n, value, ddx, ddy, 0);
}

/* ------------------------------------------------------------- 3D rows */

WK_INLINE void row3_loop(const wk_row3 *r, const wk_octave *o, size_t n, float *out, int hash) {
    corner_ctx c;
    corner_init(&c, o);
    c.hash = hash;
    wk_lut16 xmask = wk_lut16_load(g3_xmask), xsign = wk_lut16_load(g3_xsign);
    /* y and z are constant along the row: their terms per (y corner, z corner). */
    wk_lut16 k00 = row_terms(r->fy, g3_ymask, g3_ysign, r->fz, g3_zmask, g3_zsign);
    wk_lut16 k10 = row_terms(r->fy1, g3_ymask, g3_ysign, r->fz, g3_zmask, g3_zsign);
    wk_lut16 k01 = row_terms(r->fy, g3_ymask, g3_ysign, r->fz1, g3_zmask, g3_zsign);
    wk_lut16 k11 = row_terms(r->fy1, g3_ymask, g3_ysign, r->fz1, g3_zmask, g3_zsign);
    wk_vf v = wk_vf_set1(r->v), w = wk_vf_set1(r->w);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vi q00 = load_i(r->q00 + i, m), q10 = load_i(r->q10 + i, m);
        wk_vi q01 = load_i(r->q01 + i, m), q11 = load_i(r->q11 + i, m);
        wk_vf x0 = load_f(r->fx + i, m), x1 = load_f(r->fx1 + i, m), u = load_f(r->u + i, m);
        /* hXYZ: corner X (0/1) in x, Y in y, Z in z. */
        wk_vi h000 = corner(&c, q00, r->z0, 28), h100 = corner(&c, q10, r->z0, 28);
        wk_vi h010 = corner(&c, q01, r->z0, 28), h110 = corner(&c, q11, r->z0, 28);
        wk_vi h001 = corner(&c, q00, r->z1, 28), h101 = corner(&c, q10, r->z1, 28);
        wk_vi h011 = corner(&c, q01, r->z1, 28), h111 = corner(&c, q11, r->z1, 28);
        wk_vf g000 = wk_vf_add(grad_term(x0, xmask, xsign, h000), wk_vi_as_vf(wk_lut16_get(k00, h000)));
        wk_vf g100 = wk_vf_add(grad_term(x1, xmask, xsign, h100), wk_vi_as_vf(wk_lut16_get(k00, h100)));
        wk_vf g010 = wk_vf_add(grad_term(x0, xmask, xsign, h010), wk_vi_as_vf(wk_lut16_get(k10, h010)));
        wk_vf g110 = wk_vf_add(grad_term(x1, xmask, xsign, h110), wk_vi_as_vf(wk_lut16_get(k10, h110)));
        wk_vf g001 = wk_vf_add(grad_term(x0, xmask, xsign, h001), wk_vi_as_vf(wk_lut16_get(k01, h001)));
        wk_vf g101 = wk_vf_add(grad_term(x1, xmask, xsign, h101), wk_vi_as_vf(wk_lut16_get(k01, h101)));
        wk_vf g011 = wk_vf_add(grad_term(x0, xmask, xsign, h011), wk_vi_as_vf(wk_lut16_get(k11, h011)));
        wk_vf g111 = wk_vf_add(grad_term(x1, xmask, xsign, h111), wk_vi_as_vf(wk_lut16_get(k11, h111)));
        wk_vf near = lerp(v, lerp(u, g000, g100), lerp(u, g010, g110));
        wk_vf far = lerp(v, lerp(u, g001, g101), lerp(u, g011, g111));
        accumulate(o, lerp(w, near, far), out + i, m);
    }
}

void WK_SIMD_NAME(wk_noise_row3)(const wk_row3 *r, const wk_octave *o, size_t n, float *out) {
    if (o->lattice == WK_LATTICE_HASH) row3_loop(r, o, n, out, 1);
    else row3_loop(r, o, n, out, 0);
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

void WK_SIMD_NAME(wk_perlin2)(const float *xs, const float *ys, size_t n, const wk_perm *perm,
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
        wk_vi X = cell_and_fraction(load_f(xs + i, m), &x0), Y = cell_and_fraction(load_f(ys + i, m), &y0);
        wk_vf u = fade(x0), v = fade(y0), x1 = wk_vf_sub(x0, one), y1 = wk_vf_sub(y0, one);
        wk_vi A = wk_perm256_get(&p, X), B = wk_perm256_get(&p, wk_vi_add(X, next));
        wk_vi h00 = wk_perm256_get(&p, wk_vi_add(A, Y)), h10 = wk_perm256_get(&p, wk_vi_add(B, Y));
        wk_vi h01 = wk_perm256_get(&p, wk_vi_add(wk_vi_add(A, Y), next));
        wk_vi h11 = wk_perm256_get(&p, wk_vi_add(wk_vi_add(B, Y), next));
#define G2(h, x, y) wk_vf_add(grad_term(x, ones, xsign, h), grad_term(y, ones, ysign, h))
        wk_vf value = lerp(v, lerp(u, G2(h00, x0, y0), G2(h10, x1, y0)),
                           lerp(u, G2(h01, x0, y1), G2(h11, x1, y1)));
#undef G2
        store_f(out + i, canonical_nan_if(value), m);
    }
}

void WK_SIMD_NAME(wk_perlin3)(const float *xs, const float *ys, const float *zs, size_t n,
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
        wk_vi X = cell_and_fraction(load_f(xs + i, m), &x0), Y = cell_and_fraction(load_f(ys + i, m), &y0);
        wk_vi Z = cell_and_fraction(load_f(zs + i, m), &z0);
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
        store_f(out + i, canonical_nan_if(lerp(w, near, far)), m);
    }
}

/* ---------------------------------------------------- minmax and remap */

/* Order key of wk_float_order_key, per lane. */
static inline wk_vi order_key(wk_vf a) {
    wk_vi bits = wk_vf_as_vi(a);
    wk_vm negative = wk_vi_lt_s(bits, wk_vi_set1(0));
    return wk_vi_xor(bits, wk_vi_select(negative, wk_vi_set1(0x7FFFFFFFu), wk_vi_set1(0)));
}

static inline float float_of_key(uint32_t key) {
    union { uint32_t u; float f; } bits = {key ^ ((key >> 31) ? 0x7FFFFFFFu : 0u)};
    return bits.f;
}

void WK_SIMD_NAME(wk_minmax)(const float *x, size_t n, float *min, float *max) {
    const wk_vi key_inf = order_key(wk_vf_set1(INFINITY)), key_ninf = order_key(wk_vf_set1(-INFINITY));
    const wk_vi lanes = wk_vi_loadu(lane_index);
    wk_vi lo = key_inf, hi = key_ninf;
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vf a = load_f(x + i, m);
        /* NaN lanes and lanes past the end take no part. */
        wk_vm valid = wk_vi_lt_s(lanes, wk_vi_set1((uint32_t)m)), nan = wk_vf_isnan(a);
        wk_vi key = order_key(a);
        lo = wk_vi_min_s(lo, wk_vi_select(valid, wk_vi_select(nan, key_inf, key), key_inf));
        hi = wk_vi_max_s(hi, wk_vi_select(valid, wk_vi_select(nan, key_ninf, key), key_ninf));
    }
    *min = float_of_key(wk_vi_hmin_s(lo));
    *max = float_of_key(wk_vi_hmax_s(hi));
}

void WK_SIMD_NAME(wk_remap)(const float *x, size_t n, float lo, float range, float *out) {
    const wk_vf vlo = wk_vf_set1(lo), vrange = wk_vf_set1(range);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        store_f(out + i, wk_vf_div(wk_vf_sub(load_f(x + i, m), vlo), vrange), m);
    }
}

const wk_noise_kernels WK_SIMD_NAME(wk_noise_kernels) = {
    WK_SIMD_NAME(wk_noise_row2), WK_SIMD_NAME(wk_noise_row3), WK_SIMD_NAME(wk_noise_row2d),
    WK_SIMD_NAME(wk_perlin2),    WK_SIMD_NAME(wk_perlin3),    WK_SIMD_NAME(wk_minmax),
    WK_SIMD_NAME(wk_remap),
};
