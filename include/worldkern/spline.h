/* worldkern spline family: Catmull-Rom sampling, height curves (keyframe
 * curves, redistribution, terraces) and batched spring water.
 *
 * Every function returns a wk_status; on an error nothing is written and
 * wk_last_error_detail() names the argument, the rule and the value. Every
 * kernel may be called from any number of threads at once on distinct
 * outputs (a water state is an output of the functions that change it).
 * Results are bit-identical on every ISA (scalar, AVX2, AVX-512, NEON), for
 * every thread count and task runner. A NaN result is always the quiet NaN
 * 0x7FC00000. */
#ifndef WORLDKERN_SPLINE_H
#define WORLDKERN_SPLINE_H

#include "wk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================================ Catmull-Rom
 *
 * A uniform Catmull-Rom curve through n points p[0..n-1] (4 <= n <=
 * 2^24), sampled at positions s in [0, 1], exactly as game code writes it
 * (every operation in float, in this order, no fused multiply-add):
 *
 *     segments = n - 1                       (exact in float)
 *     t  = s * segments
 *     f  = floor(t), clamped to [lo, hi]     (see the end modes)
 *     i  = (int)f;  u = t - f
 *     p0..p3 = P[i-1], P[i], P[i+1], P[i+2]
 *     a = ((-p0 + 3*p1) - 3*p2) + p3
 *     b = ((2*p0 - 5*p1) + 4*p2) - p3
 *     c = -p0 + p2
 *     d = 2*p1
 *     value = 0.5 * (u*(u*(u*a + b) + c) + d)    (Horner form)
 *
 * End modes:
 *  WK_SPLINE_END_CLAMP    P = p, [lo, hi] = [1, n-3]: the common game code.
 *      The first and last segments are not curve segments of their own: the
 *      second and second-to-last segments' cubics are extrapolated over them
 *      (u runs over [-1, 0) on the first, (1, 2] on the last), so the curve
 *      passes through p[1..n-2] only at the segment starts, and generally
 *      not through p[0] and p[n-1].
 *  WK_SPLINE_END_PHANTOM  P[-1] = 2p[0] - p[1], P[n] = 2p[n-1] - p[n-2],
 *      P[j] = p[j] otherwise, [lo, hi] = [0, n-2]: the curve passes through
 *      every point: at u = 0 the value is 0.5 * (2 * p1) = p[i] exactly, so
 *      exactly through p[0..n-2] at their knots; p[n-1] is reached at s = 1
 *      with u = 1 (i is clamped to n-2), where the sum of the coefficients
 *      rounds: to within a few ULP, not exactly. (Clamp mode: exactly
 *      through p[1..n-3], p[n-2] to rounding.)
 *
 * The derivative at a knot is (p2 - p0) / 2 per unit of u (C1 continuity).
 * NaN s gives NaN; s = +-Inf gives +-Inf or NaN; s outside [0, 1] is
 * extrapolated by the end cubics. Points are not checked: non-finite points
 * give non-finite samples (NaN as above). */
#define WK_SPLINE_END_CLAMP 0u
#define WK_SPLINE_END_PHANTOM 1u

/* m evenly spaced samples of each of `curves` curves: sample k is the value
 * at s = (float)k / (float)(m - 1), bit for bit what the formula above (and
 * wk_spline_cr_eval with those positions) gives; the segment coefficients
 * a, b, c, d are computed once per segment, not per sample.
 * p          curve c's points at p[c * p_stride + j], j < n.
 * p_stride   floats between curves, >= n (ignored when curves <= 1).
 * n          points per curve, 4 .. 2^24.
 * curves     number of curves (0: nothing to do).
 * end_mode   WK_SPLINE_END_CLAMP or WK_SPLINE_END_PHANTOM.
 * m          samples per curve: 0 (nothing) or 2 .. 2^24.
 * out        curve c's sample k at out[c * out_stride + k]; must not overlap p.
 * out_stride floats between output rows, >= m (ignored when curves <= 1).
 * Errors: WK_ERR_NULL, WK_ERR_INVALID_ARG (n, m, end_mode), WK_ERR_STRIDE,
 * WK_ERR_OVERFLOW (extents), WK_ERR_ALIAS. */
WK_API wk_status wk_spline_cr_sample(const float *p, size_t p_stride, uint32_t n, uint32_t curves,
                                     uint32_t end_mode, uint32_t m, float *out, size_t out_stride,
                                     const wk_exec *exec);

/* 2D curves in SoA: wk_spline_cr_sample on x into out_x and on y into
 * out_y (same strides). None of the four arrays may overlap an output. */
WK_API wk_status wk_spline_cr_sample2(const float *x, const float *y, size_t p_stride, uint32_t n,
                                      uint32_t curves, uint32_t end_mode, uint32_t m, float *out_x,
                                      float *out_y, size_t out_stride, const wk_exec *exec);

/* The same sampling with the curves side by side ("columns"): point j of
 * curve c at p[j * p_stride + c], sample k of curve c at
 * out[k * out_stride + c]; p_stride and out_stride >= curves (ignored when
 * n, m <= 1 respectively). Curves run across vector lanes; the output is
 * bit-identical to wk_spline_cr_sample on the same curves. This is the
 * layout of wk_water states (wk_spline_water_surface uses it). */
WK_API wk_status wk_spline_cr_sample_cols(const float *p, size_t p_stride, uint32_t n, uint32_t curves,
                                          uint32_t end_mode, uint32_t m, float *out, size_t out_stride,
                                          const wk_exec *exec);

/* Arbitrary positions: out[c * out_stride + q] = curve c at
 * s[c * s_stride + q], q < count. s_stride 0 shares one array of `count`
 * positions between all curves, otherwise s_stride >= count. out must not
 * overlap p or s. Other arguments as for wk_spline_cr_sample. */
WK_API wk_status wk_spline_cr_eval(const float *p, size_t p_stride, uint32_t n, uint32_t curves,
                                   uint32_t end_mode, const float *s, size_t s_stride, size_t count,
                                   float *out, size_t out_stride, const wk_exec *exec);

/* ========================================================== height curves
 *
 * A keyframe curve with the semantics of Unity's AnimationCurve (free,
 * non-weighted tangents, wrap mode ClampForever): keys sorted by strictly
 * increasing time; between key j and j+1 the curve is the cubic Hermite
 * through (t0, v0) and (t1, v1) with slopes out_tangent of key j and
 * in_tangent of key j+1 (value units per time unit). Evaluated as
 *     dt = t1 - t0;  u = (x - t0) / dt
 *     m0 = out0 * dt;  m1 = in1 * dt
 *     c2 = ((3 * (v1 - v0)) - 2 * m0) - m1
 *     c3 = ((2 * (v0 - v1)) + m0) + m1
 *     value = ((c3 * u + c2) * u + m0) * u + v0
 * (equal in exact arithmetic to Unity's Hermite basis form). x <= t of the
 * first key gives its value, x >= t of the last key gives its value (one
 * key: a constant). As in Unity, an infinite out_tangent of key j or
 * in_tangent of key j+1 makes the segment a step: v0 up to t1. NaN x gives
 * NaN. */
typedef struct wk_curve_key {
    float time;        /* finite, strictly increasing over the keys */
    float value;       /* finite */
    float in_tangent;  /* slope arriving at the key: finite or +-Inf, not NaN */
    float out_tangent; /* slope leaving the key: finite or +-Inf, not NaN */
} wk_curve_key;

/* out[i] = curve(x[i]) for i < count. keys: nkeys >= 1 keys (at most 2^24),
 * times strictly increasing with every t[j+1] - t[j] finite. out may equal x
 * exactly; partial overlap (or overlap with keys) is WK_ERR_ALIAS.
 * Errors: WK_ERR_NULL, WK_ERR_INVALID_ARG (nkeys, key order, NaN tangent),
 * WK_ERR_NOT_FINITE (time, value), WK_ERR_OVERFLOW (time gap), WK_ERR_ALIAS. */
WK_API wk_status wk_spline_curve_eval(const wk_curve_key *keys, uint32_t nkeys, const float *x, size_t count,
                                      float *out, const wk_exec *exec);

/* Redistribution: out[i] = pow(clamp(v[i], 0, 1), exponent), where clamp
 * maps v < 0 to 0 and v > 1 to 1 (NaN stays NaN) and pow is SLEEF's
 * deterministic powf (1.0 ULP, same bits on every ISA; the C library's
 * powf where the library is built without SLEEF). exponent finite, > 0.
 * out may equal v exactly; partial overlap is WK_ERR_ALIAS.
 * Errors: WK_ERR_NULL, WK_ERR_NOT_FINITE, WK_ERR_INVALID_ARG, WK_ERR_ALIAS. */
WK_API wk_status wk_spline_redistribute(const float *v, size_t n, float exponent, float *out,
                                        const wk_exec *exec);

/* Terraces: k = levels (1 .. 2^24), w = blend in [0, 1]:
 *     c = clamp(v, 0, 1);  q = c * k;  f = floor(q);  r = q - f
 *     b = (w > 0) ? smooth(clamp((r - (1 - w)) * (1 / w), 0, 1)) : 0
 *     smooth(x) = x * x * (3 - 2 * x)      (as (x * x) * (3 - 2 * x))
 *     out = (f + b) / k
 * i.e. v is rounded down to one of k + 1 levels 0, 1/k, .., 1, and over the
 * last fraction w of each step the value rises smoothly (C1) to the next
 * level: w = 0 gives hard steps, w = 1 a smooth staircase with flat points
 * at the levels. (1 - w) and (1 / w) are computed once in float. NaN gives
 * NaN. Errors as for wk_spline_redistribute (levels, blend). */
WK_API wk_status wk_spline_terrace(const float *v, size_t n, uint32_t levels, float blend, float *out,
                                   const wk_exec *exec);

/* ============================================================ spring water
 *
 * B bodies of N springs each, in structure-of-arrays with the bodies side by
 * side: spring i of body b at pos[i * stride + b] (and vel, rest alike).
 * One step of one body is the game loop, per spring i:
 *     force = (rest[i] - pos[i]) * k;  vel[i] += force;
 *     pos[i] += vel[i];  vel[i] *= damping;
 * then `passes` spreading passes, each over the heights h = pos at its start:
 *     for i in 0 .. N-1:
 *         if i > 0:     left[i]  = spread * (h[i] - h[i-1]); vel[i-1] += left[i]
 *         if i < N-1:   right[i] = spread * (h[i] - h[i+1]); vel[i+1] += right[i]
 *     for i in 0 .. N-1:
 *         if i > 0:     pos[i-1] += left[i]
 *         if i < N-1:   pos[i+1] += right[i]
 * The vector paths run bodies across lanes and reproduce this per-body
 * sequential loop bit for bit (same additions in the same order). A NaN in
 * a stepped body's pos or vel comes out as the quiet NaN 0x7FC00000 (which
 * NaN payload survives an operation depends on operand order; whether a
 * value is NaN does not).
 *
 * Sleep: after a body's step, when sleep_threshold > 0 and every spring has
 * |vel| < sleep_threshold and |pos - rest| < sleep_threshold, the body's
 * asleep flag is set; steps skip sleeping bodies entirely (their state is
 * not touched; a block of the vector width whose bodies all sleep costs one
 * flag test). wk_spline_water_displace wakes a body; so does writing 0 to
 * its flag.
 *
 * Stability (per Fourier mode of the spring row, see wk_spline_water_check):
 * sufficient for every N and passes: 0 <= damping < 1,
 * 0 < k < 2 * (1 + damping), 0 <= spread <= 1/4. For 1/4 < spread <= 1/2
 * the highest modes are damped by a negative factor per pass and an odd
 * number of passes can be unstable for ordinary k (the check computes it);
 * spread > 1/2 makes the per-pass factor of the highest modes < -1, and
 * spread < 0 makes it > 1 for every mode but the uniform one. */
typedef struct wk_water {
    float *pos;          /* heights, (N - 1) * stride + B floats (read and written) */
    float *vel;          /* velocities, as pos (read and written) */
    const float *rest;   /* rest heights, as pos */
    uint8_t *asleep;     /* B flags (0 awake, nonzero asleep), or NULL: no sleeping */
    uint32_t bodies;     /* B, may be 0 */
    uint32_t springs;    /* N >= 1 (>= 4 for wk_spline_water_surface) */
    uint64_t stride;     /* floats from spring i to spring i+1, >= B; 0 means B.
                            With B a multiple of 1024, B + 16 avoids cache-set
                            aliasing between the springs of a block of bodies. */
    uint64_t reserved[4]; /* must be zero */
} wk_water;
#define WK_WATER_DEFAULTS {0, 0, 0, 0, 0, 0, 0, {0, 0, 0, 0}}

/* Fields present here take their values literally (0 is a valid k, damping,
 * spread, passes or threshold); fields added later in the reserved space
 * read 0 as their default. */
typedef struct wk_water_params {
    float k;               /* spring stiffness per step, finite */
    float damping;         /* velocity factor per step, finite */
    float spread;          /* neighbour coupling per pass, finite */
    uint32_t passes;       /* spreading passes per step, 0 .. 1024 */
    float sleep_threshold; /* finite, >= 0; 0 = bodies never fall asleep */
    uint32_t reserved[3];  /* must be zero */
} wk_water_params;
#define WK_WATER_PARAMS_DEFAULTS {0.025f, 0.975f, 0.25f, 8u, 1e-4f, {0, 0, 0}}

/* One step of every awake body. pos, vel, rest (and asleep) must not
 * overlap each other. Threads over blocks of 64 bodies. The vector paths
 * step each block of vector-width bodies with up to 4096 / (2 * width)
 * springs (128 with AVX-512, 256 AVX2, 512 NEON) in a 16 KiB tile on the
 * stack (more springs: in place), so job threads need that much stack.
 * Errors: WK_ERR_NULL, WK_ERR_INVALID_ARG (springs 0, reserved, passes,
 * threshold), WK_ERR_NOT_FINITE (params), WK_ERR_STRIDE, WK_ERR_OVERFLOW,
 * WK_ERR_ALIAS. Parameters are not checked for stability here. */
WK_API wk_status wk_spline_water_step(const wk_water *w, const wk_water_params *params, const wk_exec *exec);

/* Splashes, applied in order: for each e < count, with t = x[e] * (N - 1),
 * i = min((uint32_t)floor(t), N - 2) (0 when N = 1), f = t - i:
 *     vel[i] += amount[e] * (1 - f);  vel[i+1] += amount[e] * f  (if N > 1)
 * and body[e] is woken. x[e] in [0, 1], amount[e] finite, body[e] < B; any
 * bad entry fails the whole call before anything is written.
 * Errors: WK_ERR_NULL, WK_ERR_INVALID_ARG, WK_ERR_NOT_FINITE. */
WK_API wk_status wk_spline_water_displace(const wk_water *w, const uint32_t *body, const float *x,
                                          const float *amount, size_t count, const wk_exec *exec);

/* Every body's surface sampled to `samples` (R) heights through
 * Catmull-Rom over its springs (n = N >= 4, end_mode as above): sample k of
 * body b at out[k * out_stride + b], out_stride >= B; sleeping bodies are
 * sampled too. Equal to wk_spline_cr_sample_cols on pos.
 * Errors: as wk_spline_cr_sample_cols. */
WK_API wk_status wk_spline_water_surface(const wk_water *w, uint32_t end_mode, uint32_t samples, float *out,
                                         size_t out_stride, const wk_exec *exec);

/* Stability report of wk_spline_water_check. */
#define WK_WATER_UNSTABLE_DAMPING 1u /* damping outside [0, 1] */
#define WK_WATER_UNSTABLE_K 2u       /* k outside [0, 2 * (1 + damping)] */
#define WK_WATER_UNSTABLE_SPREAD 4u  /* spread outside [0, 1/2] */
#define WK_WATER_UNSTABLE_MODES 8u   /* some mode grows (e.g. odd passes with spread near 1/2) */
typedef struct wk_water_stability {
    double growth;        /* largest factor per step over the N modes (spectral radius) */
    uint32_t unstable;    /* WK_WATER_UNSTABLE_* bits; 0 = stable (growth <= 1 + 1e-9) */
    uint32_t worst_mode;  /* the mode with that growth (0 = uniform .. N-1 = alternating) */
    uint32_t reserved[4]; /* written as zero */
} wk_water_stability;

/* Derives the stability of params for rows of `springs` springs (>= 1).
 * The step is linear in x = pos - rest; on the free-ended row each Fourier
 * mode j has Laplacian eigenvalue mu_j = -4 sin^2(pi j / (2N)), a pass
 * multiplies its heights by g = 1 + spread * mu_j, the passes by G = g^P,
 * and one step acts on (x, vel) by
 *     [[G (1 - k),                 G        ],
 *      [(G - 1)(1 - k) - damping k, G - 1 + damping]]
 * (trace G (2 - k) + damping - 1, determinant G * damping). growth is the
 * largest spectral radius over the modes, in double. Returns WK_OK with the
 * report filled whether or not the parameters are stable.
 * Errors: WK_ERR_NULL, WK_ERR_INVALID_ARG (springs 0, reserved),
 * WK_ERR_NOT_FINITE. */
WK_API wk_status wk_spline_water_check(const wk_water_params *params, uint32_t springs,
                                       wk_water_stability *report, const wk_exec *exec);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_SPLINE_H */
