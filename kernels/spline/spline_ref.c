/* Scalar reference of the spline family: plain, obvious C, the formulas of
 * spline.h one sample (one body) at a time. */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "simd/wk_math.h"
#include "spline_impl.h"

static void cr_even_ref(const float *p, size_t p_stride, uint32_t curves, uint32_t n, uint32_t mode, uint32_t m,
                        uint32_t k0, size_t count, float *out, size_t out_stride) {
    for (uint32_t c = 0; c < curves; c++)
        for (size_t q = 0; q < count; q++)
            out[c * out_stride + q] = wk__cr_value(p + c * p_stride, n, mode, wk__cr_even_s(k0 + (uint32_t)q, m));
}

static void cr_at_ref(const float *p, uint32_t n, uint32_t mode, const float *s, size_t count, float *out) {
    for (size_t q = 0; q < count; q++) out[q] = wk__cr_value(p, n, mode, s[q]);
}

static void cr_even_cols_ref(const float *p, size_t p_stride, uint32_t n, uint32_t mode, uint32_t lanes,
                             uint32_t m, float *out, size_t out_stride) {
    uint32_t lo, hi;
    wk__cr_range(n, mode, &lo, &hi);
    for (uint32_t c = 0; c < lanes; c++)
        for (uint32_t k = 0; k < m; k++) {
            uint32_t i;
            float t = wk__cr_even_s(k, m) * (float)(n - 1);
            float f = wk__cr_segment(t, (float)lo, (float)hi, lo, &i);
            float q[4], cf[4];
#define P(j) p[(size_t)(j) * p_stride + c]
            if (mode == WK_SPLINE_END_PHANTOM) {
                q[0] = i == 0 ? 2.0f * P(0) - P(1) : P(i - 1);
                q[3] = i + 2 >= n ? 2.0f * P(n - 1) - P(n - 2) : P(i + 2);
            } else {
                q[0] = P(i - 1);
                q[3] = P(i + 2);
            }
            q[1] = P(i);
            q[2] = P(i + 1);
#undef P
            wk__cr_coeffs(q, cf);
            out[(size_t)k * out_stride + c] = wk__spline_canon(wk__cr_horner(cf, t - f));
        }
}

/* Unity AnimationCurve (free tangents, ClampForever) at x. */
static float curve_value(const wk_curve_key *keys, uint32_t nkeys, float x) {
    if (x != x) return wk__spline_nan();
    if (!(keys[0].time < x)) return keys[0].value;
    if (!(x < keys[nkeys - 1].time)) return keys[nkeys - 1].value;
    uint32_t lo = 0, hi = nkeys - 1; /* keys[lo].time < x < keys[hi].time... */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (keys[mid].time <= x) lo = mid;
        else hi = mid;
    }
    const wk_curve_key *k0 = &keys[lo], *k1 = &keys[lo + 1];
    if (!isfinite(k0->out_tangent) || !isfinite(k1->in_tangent)) return k0->value;
    float dt = k1->time - k0->time;
    float u = (x - k0->time) / dt;
    float m0 = k0->out_tangent * dt, m1 = k1->in_tangent * dt;
    float v0 = k0->value, v1 = k1->value;
    float c2 = ((3.0f * (v1 - v0)) - 2.0f * m0) - m1;
    float c3 = ((2.0f * (v0 - v1)) + m0) + m1;
    return wk__spline_canon(((c3 * u + c2) * u + m0) * u + v0);
}

static void curve_ref(const wk_curve_key *keys, uint32_t nkeys, const float *x, size_t count, float *out) {
    for (size_t i = 0; i < count; i++) out[i] = curve_value(keys, nkeys, x[i]);
}

static float clamp01(float v) {
    v = v < 0.0f ? 0.0f : v;
    return 1.0f < v ? 1.0f : v;
}

static void redistribute_ref(const float *v, size_t n, float exponent, float *out) {
    for (size_t i = 0; i < n; i++) out[i] = wk__spline_canon(wk__powf(clamp01(v[i]), exponent));
}

static void terrace_ref(const float *v, size_t n, float levels, float one_minus_w, float inv_w, float *out) {
    for (size_t i = 0; i < n; i++) {
        float q = clamp01(v[i]) * levels;
        float f = floorf(q);
        float r = q - f;
        float b = 0.0f;
        if (inv_w > 0.0f) {
            b = clamp01((r - one_minus_w) * inv_w);
            b = (b * b) * (3.0f - 2.0f * b);
        }
        out[i] = wk__spline_canon((f + b) / levels);
    }
}

/* One body's step: the game loop of spline.h. The deltas of a pass are the
 * game loop's left[] and right[] arrays; since the heights do not change
 * during the first loop, the second loop recomputes them from the heights
 * at the start of the pass (kept in three rolling locals), the same bits. */
static void body_step(float *pos, float *vel, const float *rest, size_t stride, uint32_t N,
                      const wk__water_args *a) {
    for (uint32_t i = 0; i < N; i++) {
        size_t o = (size_t)i * stride;
        float force = (rest[o] - pos[o]) * a->k;
        vel[o] += force;
        pos[o] += vel[o];
        vel[o] *= a->damping;
    }
    for (uint32_t pass = 0; pass < a->passes; pass++) {
        for (uint32_t i = 0; i < N; i++) {
            size_t o = (size_t)i * stride;
            if (i > 0) {
                float left = a->spread * (pos[o] - pos[o - stride]);
                vel[o - stride] += left;
            }
            if (i < N - 1) {
                float right = a->spread * (pos[o] - pos[o + stride]);
                vel[o + stride] += right;
            }
        }
        float h_prev = 0.0f, h_cur = pos[0];
        for (uint32_t i = 0; i < N; i++) {
            size_t o = (size_t)i * stride;
            float h_next = i < N - 1 ? pos[o + stride] : 0.0f; /* not yet changed */
            if (i > 0) pos[o - stride] += a->spread * (h_cur - h_prev);
            if (i < N - 1) pos[o + stride] += a->spread * (h_cur - h_next);
            h_prev = h_cur;
            h_cur = h_next;
        }
    }
}

static int body_settled(const float *pos, const float *vel, const float *rest, size_t stride, uint32_t N,
                        float threshold) {
    for (uint32_t i = 0; i < N; i++) {
        size_t o = (size_t)i * stride;
        if (!(fabsf(vel[o]) < threshold) || !(fabsf(pos[o] - rest[o]) < threshold)) return 0;
    }
    return 1;
}

static void water_step_ref(float *pos, float *vel, const float *rest, size_t stride, uint32_t lanes,
                           uint32_t springs, const wk__water_args *a, uint8_t *asleep) {
    for (uint32_t b = 0; b < lanes; b++) {
        if (asleep && asleep[b]) continue;
        body_step(pos + b, vel + b, rest + b, stride, springs, a);
        for (uint32_t i = 0; i < springs; i++) { /* NaNs leave as the canonical NaN */
            pos[(size_t)i * stride + b] = wk__spline_canon(pos[(size_t)i * stride + b]);
            vel[(size_t)i * stride + b] = wk__spline_canon(vel[(size_t)i * stride + b]);
        }
        if (asleep && a->threshold > 0.0f && body_settled(pos + b, vel + b, rest + b, stride, springs, a->threshold))
            asleep[b] = 1;
    }
}

const wk__spline_kernels wk__spline_kernels_ref = {cr_even_ref,  cr_at_ref,        cr_even_cols_ref, curve_ref,
                                                   redistribute_ref, terrace_ref, water_step_ref};
