/* The spline family's per-ISA entry points and the scalar pieces that the
 * entry, the reference and the vector paths share. */
#ifndef WK_SPLINE_IMPL_H
#define WK_SPLINE_IMPL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "worldkern/spline.h"

#define WK__SPLINE_NAN_BITS 0x7FC00000u

/* Water parameters as the per-ISA step takes them. */
typedef struct wk__water_args {
    float k, damping, spread, threshold;
    uint32_t passes;
} wk__water_args;

typedef struct wk__spline_kernels {
    /* `curves` curves (curve c at p + c * p_stride, points [0, n)): samples
     * k0 .. k0+count-1 of m (s = k / (m - 1)) to out + c * out_stride,
     * [0, count). */
    void (*cr_even)(const float *p, size_t p_stride, uint32_t curves, uint32_t n, uint32_t mode, uint32_t m,
                    uint32_t k0, size_t count, float *out, size_t out_stride);
    /* One curve at positions s[0..count). */
    void (*cr_at)(const float *p, uint32_t n, uint32_t mode, const float *s, size_t count, float *out);
    /* `lanes` curves side by side (point j of curve c at p[j * p_stride + c]),
     * all m samples: out[k * out_stride + c]. */
    void (*cr_even_cols)(const float *p, size_t p_stride, uint32_t n, uint32_t mode, uint32_t lanes, uint32_t m,
                         float *out, size_t out_stride);
    void (*curve)(const wk_curve_key *keys, uint32_t nkeys, const float *x, size_t count, float *out);
    void (*redistribute)(const float *v, size_t n, float exponent, float *out);
    void (*terrace)(const float *v, size_t n, float levels, float one_minus_w, float inv_w, float *out);
    /* Bodies [0, lanes) of the arrays (already offset to the block), N springs
     * `stride` floats apart; asleep NULL or the block's flags. */
    void (*water_step)(float *pos, float *vel, const float *rest, size_t stride, uint32_t lanes, uint32_t springs,
                       const wk__water_args *a, uint8_t *asleep);
} wk__spline_kernels;

static inline float wk__spline_nan(void) {
    uint32_t bits = WK__SPLINE_NAN_BITS;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline float wk__spline_canon(float v) { return v != v ? wk__spline_nan() : v; }

/* Catmull-Rom segment range [lo, hi] of an end mode. */
static inline void wk__cr_range(uint32_t n, uint32_t mode, uint32_t *lo, uint32_t *hi) {
    if (mode == WK_SPLINE_END_PHANTOM) {
        *lo = 0;
        *hi = n - 2;
    } else {
        *lo = 1;
        *hi = n - 3;
    }
}

/* Segment of t: floor(t) clamped to [lo, hi] in float (NaN stays NaN);
 * *i gets its index (lo for NaN). */
static inline float wk__cr_segment(float t, float flo, float fhi, uint32_t lo, uint32_t *i) {
    float f = floorf(t);
    f = f < flo ? flo : f;
    f = fhi < f ? fhi : f;
    *i = f == f ? (uint32_t)f : lo;
    return f;
}

/* The four points of segment i, phantom ends included. */
static inline void wk__cr_points(const float *p, uint32_t n, uint32_t mode, uint32_t i, float q[4]) {
    if (mode == WK_SPLINE_END_PHANTOM) {
        q[0] = i == 0 ? 2.0f * p[0] - p[1] : p[i - 1];
        q[1] = p[i];
        q[2] = p[i + 1];
        q[3] = i + 2 >= n ? 2.0f * p[n - 1] - p[n - 2] : p[i + 2];
    } else {
        q[0] = p[i - 1];
        q[1] = p[i];
        q[2] = p[i + 1];
        q[3] = p[i + 2];
    }
}

/* The segment's Horner coefficients, exactly as the header's formula. */
static inline void wk__cr_coeffs(const float q[4], float c[4]) {
    float p0 = q[0], p1 = q[1], p2 = q[2], p3 = q[3];
    c[0] = ((-p0 + 3.0f * p1) - 3.0f * p2) + p3;
    c[1] = ((2.0f * p0 - 5.0f * p1) + 4.0f * p2) - p3;
    c[2] = -p0 + p2;
    c[3] = 2.0f * p1;
}

static inline float wk__cr_horner(const float c[4], float u) {
    return 0.5f * (u * (u * (u * c[0] + c[1]) + c[2]) + c[3]);
}

/* The scalar formula: the curve at s. */
static inline float wk__cr_value(const float *p, uint32_t n, uint32_t mode, float s) {
    uint32_t lo, hi, i;
    wk__cr_range(n, mode, &lo, &hi);
    float t = s * (float)(n - 1);
    float f = wk__cr_segment(t, (float)lo, (float)hi, lo, &i);
    float q[4], c[4];
    wk__cr_points(p, n, mode, i, q);
    wk__cr_coeffs(q, c);
    return wk__spline_canon(wk__cr_horner(c, t - f));
}

/* Position of evenly spaced sample k of m: (float)k / (float)(m - 1), also
 * computed as (float)((double)k * (1.0 / (m - 1))) by the vector paths' scalar
 * segment searches (spline_simd.c, even_segment). The
 * two agree for every k <= m - 1 < 2^24: k / d (d = m - 1) is never within
 * a relative 2^-49 of a float rounding boundary (a midpoint M / 2^E, M odd
 * of 25 bits, would need |k 2^E - d M| >= 1 over d 2^E, which is at least
 * 2^-25 / d >= 2^-49 relative), while the double product is within 2^-52
 * relative of k / d; so both round to the same float. */
static inline float wk__cr_even_s(uint32_t k, uint32_t m) { return (float)k / (float)(m - 1); }

/* A cheaper form for d = m - 1 < 2^22, all in float: with rh = RN(1 / d)
 * and rl = RN(1 / d - rh) (wk__cr_even_split), s = fmaf(k, rh, k * rl)
 * equals (float)k / (float)d for every k <= d. Proof (u = 2^-24, RN
 * relative error <= u in the normal range, k and d exact in float):
 * - x = 1 / d - rh: |x| <= ulp(rh) / 2 <= u / d, so |rl - x| <= u^2 / d and
 *   |rl| <= u (1 + u) / d;
 * - c = RN(k rl): |c - k rl| <= u^2 (1 + u) k / d;
 * - the fused v = k rh + c (one rounding) is within
 *   k |rh + rl - 1/d| + |c - k rl| <= 2u^2 (1 + u/2) k / d of k / d.
 * k / d in [2^a, 2^(a+1)), a < 0: it is never a rounding midpoint (those
 * need 25 significant bits; k / d = p / 2^j in lowest terms has p <= k <
 * 2^24), and a midpoint j 2^(a-24) (j odd) is at least 2^(a-24) / d away
 * (|k 2^(24-a) - j d| >= 1). The error is below 2u^2 (1 + u/2) 2^(a+1) =
 * 2^(a-46) (1 + u/2), which is < 2^(a-24) / d when d (1 + u/2) < 2^22, i.e.
 * for every d <= 2^22 - 1. So v and k / d round to the same float (k = 0
 * and k / d = 1 included). Checked exhaustively for m <= 2049 and for whole
 * large m, and on random (k, m), in tests/spline. */
#define WK__CR_FMA_MAX_M (1u << 22)

/* rh = RN(1 / d) (a float division of exact operands) and rl = RN(1 / d -
 * rh): 1 - rh d is an integer multiple of ulp(rh) below 2^23 of them, so it
 * is exact in float, and in double (rh d has 48 bits) without libm's fmaf,
 * which some C libraries (mingw-w64) do not fuse; the second division rounds
 * once. */
static inline void wk__cr_even_split(uint32_t m, float *rh, float *rl) {
    float d = (float)(m - 1);
    *rh = 1.0f / d;
    *rl = (float)(1.0 - (double)*rh * (double)d) / d;
}

#endif /* WK_SPLINE_IMPL_H */
