/* Catmull-Rom checks: independent double evaluation, the knot property, C1
 * continuity, every ISA against the reference, bad input. */
#include "spline_test.h"

/* ----------------------------------------------------------- positions */

/* The vector paths compute s = k / (m - 1) as (float)((double)k * (1.0 /
 * (m - 1))); spline_impl.h proves it equals the float division. Checked
 * here exhaustively for m <= 2049 and on random (k, m) up to 2^24. */
int wk_check_spline_even_positions(void) {
    int fails = 0;
    for (uint32_t m = 2; m <= 2049 && fails < 5; m++) {
        double r = 1.0 / (double)(m - 1);
        for (uint32_t k = 0; k < m; k++) {
            float a = (float)k / (float)(m - 1), b = (float)((double)k * r);
            if (wk_bits(a) != wk_bits(b)) {
                FAIL("m %u k %u: division %.9g, double product %.9g", m, k, (double)a, (double)b);
                break;
            }
        }
    }
    wk_rng rng = {42};
    for (int t = 0; t < 200000 && fails < 5; t++) {
        uint32_t m = 2 + (uint32_t)(wk_rng_u64(&rng) % ((1u << 24) - 1));
        uint32_t k = (uint32_t)(wk_rng_u64(&rng) % m);
        float a = (float)k / (float)(m - 1), b = (float)((double)k * (1.0 / (double)(m - 1)));
        EXPECT(wk_bits(a) == wk_bits(b), "m %u k %u: division %.9g, double product %.9g", m, k, (double)a, (double)b);
    }
    return fails;
}

/* For m <= 2^22 the vector paths compute s = k / (m - 1) as fmaf(k, rh,
 * k * rl) with rh = RN(1 / d), rl = RN(1 / d - rh) (spline_impl.h proves it
 * equals the float division). Checked exhaustively for m <= 2049 and for
 * every k of two whole large m (2^22 itself, the largest), and on random
 * (k, m). */
/* RN(a b + c) with one rounding, without libm's fmaf (mingw-w64's rounds
 * twice): a b is exact in double, s = RN(a b + c) in double and its error e
 * exactly (two-sum). RN_float(s) is the answer unless s is a float midpoint,
 * where the sign of e decides. */
static float fused_mul_add(float a, float b, float c) {
    double p = (double)a * (double)b, s = p + (double)c;
    double pv = s - (double)c, e = (p - pv) + ((double)c - (s - pv));
    float r = (float)s;
    if (e == 0 || (double)r == s) return r;
    float other = nextafterf(r, s > (double)r ? INFINITY : -INFINITY);
    if (s - (double)r != (double)other - s) return r; /* not a midpoint */
    return (e > 0) == (other > r) ? other : r;
}

static float fma_position(uint32_t k, uint32_t m) {
    float d = (float)(m - 1), rh = 1.0f / d, rl = fused_mul_add(-rh, d, 1.0f) / d, kf = (float)k;
    return fused_mul_add(kf, rh, kf * rl);
}

static int fma_whole_m(uint32_t m) {
    int fails = 0;
    for (uint32_t k = 0; k < m; k++) {
        float a = (float)k / (float)(m - 1), b = fma_position(k, m);
        if (wk_bits(a) != wk_bits(b)) {
            FAIL("m %u k %u: division %.9g, fused two-term product %.9g", m, k, (double)a, (double)b);
            break;
        }
    }
    return fails;
}

int wk_check_spline_even_positions_fma(void) {
    int fails = 0;
    for (uint32_t m = 2; m <= 2049 && fails < 5; m++) fails += fma_whole_m(m);
    wk_rng rng = {4242};
    fails += fma_whole_m(1u << 22);
    fails += fma_whole_m((1u << 21) + 1 + (uint32_t)(wk_rng_u64(&rng) % (1u << 21)));
    for (int t = 0; t < 200000 && fails < 5; t++) {
        uint32_t m = 2 + (uint32_t)(wk_rng_u64(&rng) % ((1u << 22) - 1));
        uint32_t k = (uint32_t)(wk_rng_u64(&rng) % m);
        float a = (float)k / (float)(m - 1), b = fma_position(k, m);
        EXPECT(wk_bits(a) == wk_bits(b), "m %u k %u: division %.9g, fused two-term product %.9g", m, k, (double)a,
               (double)b);
    }
    return fails;
}

/* Long evenly spaced runs on every ISA against the reference: m at both
 * sides of 2^22 (the fused positions up to it, the division above) and at
 * the largest m (k up to 2^24 - 1),
 * chunk starts inside runs, and curves whose coefficients overflow (the
 * NaN step of non-finite segments inside dense runs). */
int wk_check_spline_cr_even_long(void) {
    int fails = 0;
    wk_rng rng = {77};
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    const uint32_t ms[] = {1u << 22, (1u << 22) + 1, 100003, 1u << 24};
    for (size_t b = 0; b < COUNT(ms); b++) {
        uint32_t m = ms[b], n = b == 2 ? 13 : 64, mode = (uint32_t)(b & 1);
        float *p = sp_alloc((size_t)n * sizeof *p), *ref = sp_alloc((size_t)m * sizeof *ref);
        float *out = sp_alloc((size_t)m * sizeof *out);
        for (uint32_t j = 0; j < n; j++) p[j] = sp_rand(&rng, -10, 10);
        if (b == 2) { /* huge points: some segments' coefficients overflow, others exceed 2^100 */
            p[3] = 3e38f;
            p[4] = -3e38f;
            p[8] = 1e31f;
            p[11] = -INFINITY;
        }
        wk_exec sc = wk_exec_for(WK_ISA_SCALAR, 1);
        EXPECT(wk_spline_cr_sample(p, n, n, 1, mode, m, ref, m, &sc) == WK_OK, "scalar sample m %u", m);
        for (int t = 0; t < nisa; t++) {
            if (isas[t] == WK_ISA_SCALAR) continue;
            wk_exec ex = wk_exec_for(isas[t], wk_test_threads());
            memset(out, 0x5A, (size_t)m * sizeof *out);
            EXPECT(wk_spline_cr_sample(p, n, n, 1, mode, m, out, m, &ex) == WK_OK, "sample m %u", m);
            EXPECT_SAME(out, ref, m, "%s long sample n %u m %u mode %u", wk_isa_name((wk_isa)isas[t]), n, m, mode);
        }
        free(p);
        free(ref);
        free(out);
    }
    return fails;
}

/* Evenly spaced samples of segments whose coefficients are all 0 or
 * 2^-40 <= |c| <= 2^100 take halved coefficients and skip the final 0.5 *
 * (spline_simd.c proves it exact for u = 0 or 2^-24 <= |u| <= 2). Checked
 * here on random coefficients at the edges of that range, with forced
 * cancellations, against the reference's formula. */
static float halved_coef(wk_rng *r) {
    uint64_t z = wk_rng_u64(r);
    if (z % 8 == 0) return (z & 8) ? -0.0f : 0.0f;
    float v = ldexpf(1.0f + (float)((z >> 8) % (1u << 23)) / (float)(1u << 23), -40 + (int)((z >> 40) % 141));
    if (v > 0x1p100f) v = 0x1p100f;
    return (z & 16) ? -v : v;
}

static float halved_u(wk_rng *r) {
    uint64_t z = wk_rng_u64(r);
    if (z % 8 == 0) return 0.0f;
    int g = 23 - (int)((z >> 8) % 24);
    float v = (float)((z >> 16) % ((2u << g) + 1)) / (float)(1u << g);
    if (v < 0x1p-24f) v = 0x1p-24f;
    return (z & 1) ? -v : v;
}

int wk_check_spline_even_halved(void) {
    int fails = 0;
    wk_rng rng = {31337};
    volatile float half = 0.5f; /* no folding: the operations as written */
    for (int t = 0; t < 1000000 && fails < 5; t++) {
        float a = halved_coef(&rng), b = halved_coef(&rng), c = halved_coef(&rng), d = halved_coef(&rng);
        float u = halved_u(&rng);
        if (t % 3 == 0) { /* cancel in the first sum */
            b = -(u * a);
            if (!(b == 0.0f || (fabsf(b) >= 0x1p-40f && fabsf(b) <= 0x1p100f))) b = 0.0f;
        }
        if (t % 5 == 0) { /* cancel in the second */
            c = -(u * (u * a + b));
            if (!(c == 0.0f || (fabsf(c) >= 0x1p-40f && fabsf(c) <= 0x1p100f))) c = 0.0f;
        }
        float ref = half * (u * (u * (u * a + b) + c) + d);
        float got = u * (u * (u * (a * half) + b * half) + c * half) + d * half;
        if (wk_bits(ref) != wk_bits(got))
            FAIL("a %a b %a c %a d %a u %a: reference %a, halved %a", (double)a, (double)b, (double)c, (double)d,
                 (double)u, (double)ref, (double)got);
    }
    return fails;
}

/* Evenly spaced sampling on every ISA against the reference for curves at
 * the edges of the halved form: tiny, huge, subnormal and infinite points,
 * straight runs (zero coefficients), equal neighbours; the run path
 * (dense), the register tables (n <= 17, several curves) and sparse. */
int wk_check_spline_cr_even_scales(void) {
    int fails = 0;
    wk_rng rng = {2024};
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    static const float scales[] = {1.0f, 1e-12f, 0x1p-41f, 0x1p-38f, 1e-20f, 1e-30f, 1e-39f, 1e29f, 0x1p98f,
                                   0x1p101f, 3e38f};
    const uint32_t ns[] = {4, 5, 16, 17, 40, 300};
    const uint32_t ms[] = {2, 33, 300, 5000};
    for (size_t a = 0; a < COUNT(ns); a++)
        for (size_t b = 0; b < COUNT(ms); b++)
            for (uint32_t mode = 0; mode < 2; mode++) {
                uint32_t n = ns[a], m = ms[b], curves = 6;
                float *p = sp_alloc((size_t)n * curves * sizeof *p), *ref = sp_alloc((size_t)m * curves * sizeof *ref);
                float *out = sp_alloc((size_t)m * curves * sizeof *out);
                for (uint32_t c = 0; c < curves; c++) {
                    float sc = scales[wk_rng_u64(&rng) % COUNT(scales)];
                    int shape = (int)(wk_rng_u64(&rng) % 4);
                    for (uint32_t j = 0; j < n; j++) {
                        float v = sp_rand(&rng, -1, 1) * sc;
                        if (shape == 1) v = (float)j * sc;                     /* straight: a = b = 0 */
                        if (shape == 2 && j % 3) v = p[(size_t)c * n + j - 1]; /* equal neighbours */
                        p[(size_t)c * n + j] = v;
                    }
                    if (shape == 3) p[(size_t)c * n + wk_rng_u64(&rng) % n] = (wk_rng_u64(&rng) & 1) ? INFINITY : 0x1p-149f;
                }
                wk_exec sc = wk_exec_for(WK_ISA_SCALAR, 1);
                EXPECT(wk_spline_cr_sample(p, n, n, curves, mode, m, ref, m, &sc) == WK_OK, "scalar");
                for (int t = 0; t < nisa; t++) {
                    if (isas[t] == WK_ISA_SCALAR) continue;
                    for (int split = 0; split < 2; split++) { /* all curves at once, then one per call */
                        wk_exec ex = wk_exec_for(isas[t], 1);
                        memset(out, 0x5A, (size_t)m * curves * sizeof *out);
                        for (uint32_t c0 = 0; c0 < curves; c0 += split ? 1 : curves)
                            EXPECT(wk_spline_cr_sample(p + (size_t)c0 * n, n, n, split ? 1 : curves, mode, m,
                                                       out + (size_t)c0 * m, m, &ex) == WK_OK,
                                   "sample");
                        EXPECT_SAME(out, ref, (size_t)m * curves, "%s scales n %u m %u mode %u split %d",
                                    wk_isa_name((wk_isa)isas[t]), n, m, mode, split);
                    }
                }
                free(p);
                free(ref);
                free(out);
            }
    /* many curves: several tasks of grouped curves, two threads */
    for (uint32_t a = 0; a < 2; a++) {
        uint32_t n = a ? 30 : 10, m = 1000, curves = 40, mode = a;
        float *p = sp_alloc((size_t)n * curves * sizeof *p), *ref = sp_alloc((size_t)m * curves * sizeof *ref);
        float *out = sp_alloc((size_t)m * curves * sizeof *out);
        for (size_t i = 0; i < (size_t)n * curves; i++) p[i] = sp_rand(&rng, -5, 5);
        wk_exec sc = wk_exec_for(WK_ISA_SCALAR, 1);
        EXPECT(wk_spline_cr_sample(p, n, n, curves, mode, m, ref, m, &sc) == WK_OK, "scalar");
        for (int t = 0; t < nisa; t++)
            for (int threads = 1; threads <= (wk_test_threads() == 1 ? 1 : 2); threads++) { /* qemu: one */
                wk_exec ex = wk_exec_for(isas[t], threads);
                memset(out, 0x5A, (size_t)m * curves * sizeof *out);
                EXPECT(wk_spline_cr_sample(p, n, n, curves, mode, m, out, m, &ex) == WK_OK, "sample");
                EXPECT_SAME(out, ref, (size_t)m * curves, "%s grouped n %u curves %u threads %d",
                            wk_isa_name((wk_isa)isas[t]), n, curves, threads);
            }
        free(p);
        free(ref);
        free(out);
    }
    return fails;
}

/* ------------------------------------------------- independent double */

/* Catmull-Rom in double from the matrix form (Catmull & Rom 1974, tension
 * 1/2): q(u) = [1 u u^2 u^3] M [p0 p1 p2 p3]^T / 2. */
static double cr_double(const float *p, uint32_t n, uint32_t mode, double s) {
    int lo = mode == WK_SPLINE_END_PHANTOM ? 0 : 1, hi = mode == WK_SPLINE_END_PHANTOM ? (int)n - 2 : (int)n - 3;
    double t = s * (n - 1);
    int i = (int)floor(t);
    if (i < lo) i = lo;
    if (i > hi) i = hi;
    double u = t - i, q[4];
    for (int j = 0; j < 4; j++) {
        int at = i - 1 + j;
        if (at < 0) q[j] = 2.0 * p[0] - p[1];
        else if (at >= (int)n) q[j] = 2.0 * p[n - 1] - p[n - 2];
        else q[j] = p[at];
    }
    static const double M[4][4] = {{0, 2, 0, 0}, {-1, 0, 1, 0}, {2, -5, 4, -1}, {-1, 3, -3, 1}};
    double uu[4] = {1, u, u * u, u * u * u}, v = 0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) v += uu[r] * M[r][c] * q[c];
    return v / 2;
}

int wk_check_spline_cr_vs_double(void) {
    int fails = 0;
    wk_rng rng = {7};
    const uint32_t ns[] = {4, 5, 9, 33};
    for (size_t a = 0; a < COUNT(ns); a++)
        for (uint32_t mode = 0; mode < 2; mode++) {
            uint32_t n = ns[a], m = 257;
            float p[33], out[257], s[257], out2[257];
            for (uint32_t j = 0; j < n; j++) p[j] = sp_rand(&rng, -1, 1);
            EXPECT(wk_spline_cr_sample(p, n, n, 1, mode, m, out, m, NULL) == WK_OK, "sample: %s",
                   wk_last_error_detail());
            for (uint32_t k = 0; k < m; k++) {
                double want = cr_double(p, n, mode, (double)((float)k / (float)(m - 1)));
                EXPECT(fabs(out[k] - want) <= 1e-5, "n %u mode %u k %u: %.9g, double %.9g", n, mode, k, (double)out[k],
                       want);
                s[k] = sp_rand(&rng, -0.5, 1.5); /* extrapolation too */
            }
            EXPECT(wk_spline_cr_eval(p, n, n, 1, mode, s, 0, m, out2, m, NULL) == WK_OK, "eval: %s",
                   wk_last_error_detail());
            for (uint32_t k = 0; k < m; k++) {
                double want = cr_double(p, n, mode, s[k]);
                EXPECT(fabs(out2[k] - want) <= 1e-4 * (1 + fabs(want)), "eval n %u mode %u s %.9g: %.9g, double %.9g",
                       n, mode, (double)s[k], (double)out2[k], want);
            }
        }
    return fails;
}

/* The knot property: at u = 0 the value is 0.5 * (2 * p1) = p1 exactly, so
 * with phantom ends the curve passes through p[0..n-2] exactly (and through
 * p[n-1] at s = 1 with u = 1, to rounding), in clamp mode through
 * p[1..n-3] exactly and p[n-2] to rounding. n - 1 a power of two makes
 * s = j / (n - 1) and t = s * (n - 1) exact, so u = 0 at the knots. */
static int near(float a, float b) { return fabs((double)a - b) <= 1e-5 * (1 + fabs((double)b)); }

int wk_check_spline_cr_knots(void) {
    int fails = 0;
    wk_rng rng = {11};
    const uint32_t ns[] = {5, 9, 17, 65};
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    for (size_t a = 0; a < COUNT(ns); a++)
        for (int t = 0; t < nisa; t++) {
            uint32_t n = ns[a];
            float p[65], out[65], s[65];
            for (uint32_t j = 0; j < n; j++) {
                p[j] = sp_rand(&rng, -100, 100);
                s[j] = (float)j / (float)(n - 1);
            }
            wk_exec e = wk_exec_for(isas[t], 1);
            const char *isa = wk_isa_name((wk_isa)isas[t]);
            EXPECT(wk_spline_cr_eval(p, n, n, 1, WK_SPLINE_END_PHANTOM, s, 0, n, out, n, &e) == WK_OK, "eval");
            EXPECT_SAME(out, p, n - 1, "phantom knots n %u %s", n, isa);
            EXPECT(near(out[n - 1], p[n - 1]), "phantom end knot n %u %s: %.9g vs %.9g", n, isa, out[n - 1], p[n - 1]);
            /* evenly spaced samples with m - 1 a multiple of n - 1 land on the knots too */
            uint32_t m = 4 * (n - 1) + 1;
            float *o = sp_alloc(m * sizeof *o);
            EXPECT(wk_spline_cr_sample(p, n, n, 1, WK_SPLINE_END_PHANTOM, m, o, m, &e) == WK_OK, "sample");
            for (uint32_t j = 0; j + 1 < n; j++)
                EXPECT(wk_bits(o[4 * j]) == wk_bits(p[j]), "%s sample knot %u of n %u: %.9g vs %.9g", isa, j, n,
                       (double)o[4 * j], (double)p[j]);
            EXPECT(near(o[m - 1], p[n - 1]), "%s sample end knot n %u: %.9g vs %.9g", isa, n, o[m - 1], p[n - 1]);
            free(o);
            EXPECT(wk_spline_cr_eval(p, n, n, 1, WK_SPLINE_END_CLAMP, s, 0, n, out, n, &e) == WK_OK, "eval clamp");
            EXPECT_SAME(out + 1, p + 1, n - 3, "%s clamp-mode interior knots n %u", isa, n);
            EXPECT(near(out[n - 2], p[n - 2]), "%s clamp-mode knot n-2, n %u: %.9g vs %.9g", isa, n, out[n - 2], p[n - 2]);
        }
    return fails;
}

/* C1 at knots: one-sided difference quotients of the library's samples on
 * both sides of each interior knot approach (p[j+1] - p[j-1]) / 2 per unit
 * of u (times n - 1 per unit of s). */
int wk_check_spline_cr_c1(void) {
    int fails = 0;
    wk_rng rng = {3};
    for (uint32_t mode = 0; mode < 2; mode++) {
        const uint32_t n = 9;
        float p[9];
        for (uint32_t j = 0; j < n; j++) p[j] = sp_rand(&rng, -1, 1);
        uint32_t first = mode == WK_SPLINE_END_PHANTOM ? 1 : 2, last = mode == WK_SPLINE_END_PHANTOM ? n - 2 : n - 3;
        for (uint32_t j = first; j <= last; j++) {
            const float h = 1.0f / 65536.0f; /* exact in s, t and u */
            float s[3] = {(float)j / 8.0f - h, (float)j / 8.0f, (float)j / 8.0f + h}, v[3];
            EXPECT(wk_spline_cr_eval(p, n, n, 1, mode, s, 0, 3, v, 3, NULL) == WK_OK, "eval");
            double left = (v[1] - v[0]) / (h * 8.0), right = (v[2] - v[1]) / (h * 8.0);
            double want = (p[j + 1] - p[j - 1]) / 2.0;
            /* per unit u, |f''| = |6 a u + 2 b| / 2 <= 62 for |p| <= 1, so each quotient is
             * within 31 * 8h of the derivative, plus rounding of the values (2^-21) over 8h */
            double tol = 31.0 * (8.0 * h) + ldexp(1.0, -21) / (8.0 * h);
            EXPECT(fabs(left - want) <= tol && fabs(right - want) <= tol,
                   "mode %u knot %u: left %.6g right %.6g, (p2 - p0) / 2 = %.6g", mode, j, left, right, want);
        }
    }
    return fails;
}

/* ------------------------------------------------------------ ISAs */

typedef struct cr_case {
    const float *p, *s;
    uint32_t n, curves, mode, m;
    size_t p_stride, out_stride, s_stride, count;
    int kind; /* 0 sample, 1 eval, 2 cols, 3 sample2 */
} cr_case;

static int cr_run(void *ctx, const wk_exec *e, uint32_t split, void *out_v) {
    const cr_case *c = ctx;
    float *out = out_v;
    /* split 1: one call per curve (or per column), cut differently */
    uint32_t step = split ? 1 : (c->curves ? c->curves : 1);
    for (uint32_t c0 = 0; c0 < c->curves || c0 == 0; c0 += step) {
        uint32_t nc = c->curves - c0 < step ? c->curves - c0 : step;
        wk_status s;
        switch (c->kind) {
        case 0:
            s = wk_spline_cr_sample(c->p + c0 * c->p_stride, c->p_stride, c->n, nc, c->mode, c->m,
                                    out + c0 * c->out_stride, c->out_stride, e);
            break;
        case 1:
            s = wk_spline_cr_eval(c->p + c0 * c->p_stride, c->p_stride, c->n, nc, c->mode,
                                  c->s + (c->s_stride ? c0 * c->s_stride : 0), c->s_stride, c->count,
                                  out + c0 * c->out_stride, c->out_stride, e);
            break;
        case 2:
            s = wk_spline_cr_sample_cols(c->p + c0, c->p_stride, c->n, nc, c->mode, c->m, out + c0, c->out_stride, e);
            break;
        default: {
            size_t half = (size_t)c->curves * c->out_stride;
            s = wk_spline_cr_sample2(c->p + c0 * c->p_stride, c->s + c0 * c->p_stride, c->p_stride, c->n, nc, c->mode,
                                     c->m, out + c0 * c->out_stride, out + half + c0 * c->out_stride, c->out_stride, e);
        }
        }
        if (s != WK_OK) return s;
        if (c->curves == 0) break;
    }
    return WK_OK;
}

static float wild_position(wk_rng *r) {
    switch (wk_rng_u64(r) % 12) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return sp_rand(r, -3, 4);
    case 4: return 0.0f;
    case 5: return 1.0f;
    case 6: return -0.0f;
    case 7: return 1e30f;
    default: return sp_rand(r, 0, 1);
    }
}

int wk_check_spline_cr_isa(void) {
    int fails = 0;
    wk_rng rng = {99};
    const uint32_t ns[] = {4, 5, 7, 18};
    const uint32_t ms[] = {2, 3, 15, 16, 17, 31, 33, 100, 4099};
    for (size_t a = 0; a < COUNT(ns); a++)
        for (size_t b = 0; b < COUNT(ms); b++)
            for (uint32_t mode = 0; mode < 2; mode++)
                for (int kind = 0; kind < 4; kind++) {
                    uint32_t n = ns[a], m = ms[b], curves = kind == 2 ? 1 + (uint32_t)(wk_rng_u64(&rng) % 70) : 3;
                    if (kind == 2 && m > 200) m = 200;
                    cr_case c = {0};
                    c.n = n;
                    c.curves = curves;
                    c.mode = mode;
                    c.m = m;
                    c.kind = kind;
                    c.count = m;
                    if (kind == 2) {
                        c.p_stride = curves + 1;
                        c.out_stride = curves + 3;
                    } else {
                        c.p_stride = n + 1;
                        c.out_stride = m + 1;
                    }
                    size_t pts = (kind == 2 ? n : curves) * c.p_stride + 8;
                    float *p = sp_alloc(pts * sizeof *p), *s = sp_alloc((pts + (size_t)curves * (m + 2)) * sizeof *s);
                    for (size_t i = 0; i < pts; i++) p[i] = sp_rand(&rng, -50, 50);
                    if (wk_rng_u64(&rng) % 8 == 0) p[wk_rng_u64(&rng) % pts] = NAN;
                    if (kind == 1) {
                        c.s_stride = (b & 1) ? 0 : m + 2;
                        for (size_t i = 0; i < (size_t)curves * (m + 2); i++) s[i] = wild_position(&rng);
                    } else if (kind == 3) {
                        for (size_t i = 0; i < pts; i++) s[i] = sp_rand(&rng, -50, 50);
                    }
                    c.p = p + 1; /* unaligned */
                    c.s = s;
                    char what[96];
                    snprintf(what, sizeof what, "cr kind %d n %u m %u mode %u curves %u", kind, n, m, mode, curves);
                    size_t rows = kind == 2 ? m : curves;
                    wk_harness h = {what, cr_run, &c, (rows * c.out_stride * (kind == 3 ? 2 : 1)) * sizeof(float), 2};
                    fails += wk_harness_compare(&h);
                    free(p);
                    free(s);
                }
    return fails;
}

/* Evenly spaced sampling equals the formula at s = k / (m - 1) (eval), and
 * the column layout equals the rows, on every ISA. */
int wk_check_spline_cr_sample_is_eval(void) {
    int fails = 0;
    wk_rng rng = {5};
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    const uint32_t ms[] = {2, 7, 64, 1000, 4097};
    for (int t = 0; t < nisa; t++)
        for (size_t b = 0; b < COUNT(ms); b++)
            for (uint32_t mode = 0; mode < 2; mode++) {
                uint32_t n = 4 + (uint32_t)(wk_rng_u64(&rng) % 60), m = ms[b], curves = 5;
                float *p = sp_alloc((size_t)n * curves * sizeof *p), *cols = sp_alloc((size_t)n * curves * sizeof *p);
                float *s = sp_alloc(m * sizeof *s), *a = sp_alloc((size_t)m * curves * sizeof *a);
                float *e = sp_alloc((size_t)m * curves * sizeof *e), *ct = sp_alloc((size_t)m * curves * sizeof *e);
                for (size_t i = 0; i < (size_t)n * curves; i++) p[i] = sp_rand(&rng, -10, 10);
                for (uint32_t c = 0; c < curves; c++)
                    for (uint32_t j = 0; j < n; j++) cols[(size_t)j * curves + c] = p[(size_t)c * n + j];
                for (uint32_t k = 0; k < m; k++) s[k] = (float)k / (float)(m - 1);
                wk_exec ex = wk_exec_for(isas[t], 0);
                EXPECT(wk_spline_cr_sample(p, n, n, curves, mode, m, a, m, &ex) == WK_OK, "sample");
                EXPECT(wk_spline_cr_eval(p, n, n, curves, mode, s, 0, m, e, m, &ex) == WK_OK, "eval");
                EXPECT(wk_spline_cr_sample_cols(cols, curves, n, curves, mode, m, ct, curves, &ex) == WK_OK, "cols");
                EXPECT_SAME(a, e, (size_t)m * curves, "%s sample vs eval n %u m %u mode %u", wk_isa_name((wk_isa)isas[t]),
                            n, m, mode);
                for (uint32_t c = 0; c < curves; c++)
                    for (uint32_t k = 0; k < m; k++) e[(size_t)c * m + k] = ct[(size_t)k * curves + c];
                EXPECT_SAME(a, e, (size_t)m * curves, "%s sample vs cols n %u m %u mode %u", wk_isa_name((wk_isa)isas[t]),
                            n, m, mode);
                free(p);
                free(cols);
                free(s);
                free(a);
                free(e);
                free(ct);
            }
    return fails;
}

/* ------------------------------------------------------------ bad input */

int wk_check_spline_cr_bad_input(void) {
    int fails = 0;
    float p[32], s[8] = {0, 0.5f, 1};
    for (int i = 0; i < 32; i++) p[i] = (float)i;
    wk_buf out = wk_buf_new(64, 1);
#define BAD(call, code)                                                                                    \
    do {                                                                                                   \
        wk_buf_fill_canary(&out);                                                                          \
        wk_status st_ = (call);                                                                            \
        EXPECT(st_ == (code), "%s: status %d, want %d (%s)", #call, (int)st_, (int)(code), wk_last_error_detail()); \
        EXPECT(wk_last_error_detail()[0] != '\0', "%s: no detail", #call);                                 \
        EXPECT(wk_buf_all_canary(&out), "%s: wrote its output on error", #call);                           \
    } while (0)
    BAD(wk_spline_cr_sample(p, 8, 3, 1, 0, 8, out.p, 8, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_spline_cr_sample(p, 8, 0, 1, 0, 8, out.p, 8, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_spline_cr_sample(p, 8, (1u << 24) + 1, 1, 0, 8, out.p, 8, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_spline_cr_sample(p, 8, 8, 1, 2, 8, out.p, 8, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_spline_cr_sample(p, 8, 8, 1, 0, 1, out.p, 8, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_spline_cr_sample(p, 8, 8, 1, 0, (1u << 24) + 1, out.p, 8, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_spline_cr_sample(NULL, 8, 8, 1, 0, 8, out.p, 8, NULL), WK_ERR_NULL);
    BAD(wk_spline_cr_sample(p, 8, 8, 1, 0, 8, NULL, 8, NULL), WK_ERR_NULL);
    BAD(wk_spline_cr_sample(p, 7, 8, 2, 0, 8, out.p, 8, NULL), WK_ERR_STRIDE);
    BAD(wk_spline_cr_sample(p, 8, 8, 2, 0, 8, out.p, 7, NULL), WK_ERR_STRIDE);
    BAD(wk_spline_cr_sample(p, SIZE_MAX / 2, 8, 3, 0, 8, out.p, 8, NULL), WK_ERR_OVERFLOW);
    BAD(wk_spline_cr_sample(out.p, 8, 8, 1, 0, 8, out.p + 4, 8, NULL), WK_ERR_ALIAS);
    BAD(wk_spline_cr_sample2(p, NULL, 8, 8, 1, 0, 8, out.p, out.p + 16, 8, NULL), WK_ERR_NULL);
    BAD(wk_spline_cr_sample2(p, p + 8, 8, 8, 1, 0, 8, out.p, out.p + 4, 8, NULL), WK_ERR_ALIAS);
    BAD(wk_spline_cr_eval(p, 8, 8, 1, 0, NULL, 0, 3, out.p, 8, NULL), WK_ERR_NULL);
    BAD(wk_spline_cr_eval(p, 8, 8, 2, 0, s, 2, 3, out.p, 8, NULL), WK_ERR_STRIDE);
    BAD(wk_spline_cr_eval(p, 8, 8, 1, 0, out.p + 2, 0, 3, out.p, 8, NULL), WK_ERR_ALIAS);
    BAD(wk_spline_cr_eval(p, 8, 2, 1, 0, s, 0, 3, out.p, 8, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_spline_cr_sample_cols(p, 3, 8, 4, 0, 8, out.p, 4, NULL), WK_ERR_STRIDE);
    BAD(wk_spline_cr_sample_cols(p, 4, 8, 4, 0, 8, out.p, 3, NULL), WK_ERR_STRIDE);
    BAD(wk_spline_cr_sample_cols(p, 4, 8, 4, 1, 1, out.p, 4, NULL), WK_ERR_INVALID_ARG);
    BAD(wk_spline_cr_sample_cols(out.p, 4, 8, 4, 1, 8, out.p + 8, 4, NULL), WK_ERR_ALIAS);
    wk_exec bad = WK_EXEC_DEFAULTS;
    bad.reserved[0] = 1;
    BAD(wk_spline_cr_sample(p, 8, 8, 1, 0, 8, out.p, 8, &bad), WK_ERR_INVALID_ARG);
    /* nothing to do is fine, even with NULL */
    EXPECT(wk_spline_cr_sample(NULL, 0, 8, 0, 0, 8, NULL, 0, NULL) == WK_OK, "0 curves");
    EXPECT(wk_spline_cr_sample(NULL, 0, 8, 3, 0, 0, NULL, 0, NULL) == WK_OK, "m = 0");
    EXPECT(wk_spline_cr_eval(NULL, 0, 8, 3, 0, NULL, 0, 0, NULL, 0, NULL) == WK_OK, "count 0");
#undef BAD
    wk_buf_free(&out);
    return fails;
}

/* Evenly spaced sampling into outputs at every float offset from a 64-byte
 * boundary, rows of every alignment (strides m, m + 1, m + 5), m around
 * vector and chunk multiples, each path (register tables, windows, one
 * dense or sparse curve), every ISA on 1 and 2 threads, against the scalar
 * reference, canaries before, between and after the rows: every path's
 * head, full vectors and partial last vector at every alignment. */
int wk_check_spline_cr_edges(void) {
    int fails = 0;
    wk_rng rng = {77};
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    static const struct { uint32_t n, curves, m; } cases[] = {
        {5, 3, 2},     {5, 3, 15},     {5, 3, 16},     {5, 3, 17},    {5, 3, 33},    {5, 3, 1023}, {5, 3, 1025},
        {5, 2, 4097},  {5, 1, 300},    {5, 1, 4113},   {20, 3, 17},   {20, 3, 65},   {20, 3, 1300}, {20, 2, 4111},
        {20, 1, 40},   {20, 1, 1300},  {64, 2, 5000},  {4, 1, 8209},
    };
    static const size_t extras[] = {0, 1, 5};
    const int tcount = wk_test_threads() == 1 ? 1 : 2;
    for (size_t ci = 0; ci < COUNT(cases) && fails < 10; ci++) {
        const uint32_t n = cases[ci].n, curves = cases[ci].curves, m = cases[ci].m;
        float *p = sp_alloc((size_t)curves * n * 2 * sizeof *p);
        for (size_t i = 0; i < (size_t)curves * n * 2; i++) p[i] = sp_rand(&rng, -20, 20);
        for (uint32_t mode = 0; mode < 2; mode++)
            for (size_t ei = 0; ei < COUNT(extras); ei++) {
                const size_t stride = m + extras[ei], len = (size_t)curves * stride;
                /* room for the offset, both outputs of sample2, guards */
                const size_t total = 16 + 2 * len + 32;
                wk_buf rb = wk_buf_new(total, 0), gb = wk_buf_new(total, 0); /* 64-byte aligned */
                float *ref = rb.p, *got = gb.p;
                for (uint32_t off = 0; off < 16; off++) {
                    const int two = (off & 1) != 0; /* odd offsets through wk_spline_cr_sample2 */
                    float *ro = ref + off, *go = got + off;
                    for (size_t i = 0; i < total; i++) ref[i] = wk_from_bits(wk_canary_bits);
                    wk_exec sc = wk_exec_for(WK_ISA_SCALAR, 1);
                    wk_status s = two ? wk_spline_cr_sample2(p, p + (size_t)curves * n, n, n, curves, mode, m, ro,
                                                              ro + len, stride, &sc)
                                      : wk_spline_cr_sample(p, n, n, curves, mode, m, ro, stride, &sc);
                    EXPECT(s == WK_OK, "scalar n %u m %u", n, m);
                    for (int t = 1; t < nisa; t++)
                        for (int th = 1; th <= tcount; th++) {
                            for (size_t i = 0; i < total; i++) got[i] = wk_from_bits(wk_canary_bits);
                            wk_exec ex = wk_exec_for(isas[t], th);
                            s = two ? wk_spline_cr_sample2(p, p + (size_t)curves * n, n, n, curves, mode, m, go,
                                                           go + len, stride, &ex)
                                    : wk_spline_cr_sample(p, n, n, curves, mode, m, go, stride, &ex);
                            EXPECT(s == WK_OK, "isa %d n %u m %u", isas[t], n, m);
                            EXPECT_SAME(got, ref, total, "%s n %u curves %u m %u mode %u stride %zu offset %u %s t%d",
                                        wk_isa_name((wk_isa)isas[t]), n, curves, m, mode, stride, off,
                                        two ? "sample2" : "sample", th);
                        }
                }
                wk_buf_free(&rb);
                wk_buf_free(&gb);
            }
        free(p);
    }
    return fails;
}
