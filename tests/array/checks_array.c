/* Checks of the array utilities: every ISA against the scalar reference
 * through the shared harness, answers computed independently here, and
 * bad input. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wk_checks.h"
#include "worldkern/array.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t sizes[] = {0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 1000, 4097, 20000};

/* Inputs: mostly ordinary values, some specials (NaN, +-Inf, +-0,
 * denormals, huge). */
static void fill(float *x, size_t n, uint64_t seed) {
    wk_rng r = {seed};
    for (size_t i = 0; i < n; i++) {
        uint64_t u = wk_rng_u64(&r) % 40;
        x[i] = u == 0 ? NAN : u == 1 ? INFINITY : u == 2 ? -INFINITY : u == 3 ? 0.0f : u == 4 ? -0.0f
             : u == 5 ? 1e-40f : u == 6 ? -3e-39f : u == 7 ? 3e38f : (float)wk_rng_range(&r, -10, 10);
    }
}

typedef struct map_case {
    const float *x;
    size_t n;
    int op; /* 0 remap, 1 pow */
    float lo, hi, a, b, e;
} map_case;

static wk_status call_map(const map_case *c, const float *x, size_t n, float *out, const wk_exec *exec) {
    return c->op == 0 ? wk_remap(x, n, c->lo, c->hi, c->a, c->b, out, exec) : wk_pow(x, n, c->e, out, exec);
}

/* split 0: out of place; 1: in place; 2: two calls cut at an odd place. */
static int run_map(void *ctx, const wk_exec *exec, uint32_t split, void *out_v) {
    const map_case *c = ctx;
    float *out = out_v;
    if (split == 1) {
        if (c->n) memcpy(out, c->x, c->n * sizeof(float));
        return call_map(c, out, c->n, out, exec);
    }
    if (split == 2) {
        size_t half = c->n / 2 + (c->n & 1);
        wk_status s = call_map(c, c->x, half, out, exec);
        return s != WK_OK ? s : call_map(c, c->x + half, c->n - half, out + half, exec);
    }
    return call_map(c, c->x, c->n, out, exec);
}

static int map_isa(int op) {
    int fails = 0;
    static const float remaps[][4] = {{0, 1, 0, 1},      {-1, 1, 0, 1},       {-3.5f, 7.25f, 10, -10},
                                      {1, -1, 0, 255},   {2, 2, 0.25f, 9},    {-0.0f, 0.0f, -1, 1},
                                      {1e-3f, 2e-3f, -1e30f, 1e30f}, {-1e30f, 1e30f, 5, 5}};
    static const float exponents[] = {2.0f, 0.5f, 1.7f, -1.3f, 0.0f, 3.0f, 1.0f, 7.25f};
    size_t ncases = op == 0 ? COUNT(remaps) : COUNT(exponents);
    for (size_t si = 0; si < COUNT(sizes); si++)
        for (size_t ci = 0; ci < ncases; ci++) {
            size_t n = sizes[si];
            float *x = malloc((n + 1) * sizeof *x);
            fill(x, n, 100 + si * 31 + ci);
            if (op == 1) /* pow: mostly [0, 1] heights, some negatives and specials */
                for (size_t i = 0; i < n; i++)
                    if (i % 5 != 0 && isfinite(x[i])) x[i] = fabsf(x[i]) / 10.0f;
            map_case c = {x, n, op, 0, 0, 0, 0, 0};
            if (op == 0) c.lo = remaps[ci][0], c.hi = remaps[ci][1], c.a = remaps[ci][2], c.b = remaps[ci][3];
            else c.e = exponents[ci];
            char what[96];
            snprintf(what, sizeof what, "%s n %zu case %zu", op == 0 ? "wk_remap" : "wk_pow", n, ci);
            wk_harness h = {what, run_map, &c, (n ? n : 1) * sizeof(float), 3};
            fails += wk_harness_compare(&h);
            free(x);
        }
    return fails;
}

int wk_check_remap_isa(void) { return map_isa(0); }
int wk_check_pow_isa(void) { return map_isa(1); }

/* The documented formula, computed here one operation at a time. */
static float remap_want(float x, float lo, float hi, float a, float b) {
    volatile float range = hi - lo;
    if (range == 0.0f) return a;
    volatile float t = (x - lo) / range;
    volatile float tb = t * b, one_minus = 1.0f - t;
    volatile float ta = one_minus * a;
    return tb + ta;
}

int wk_check_remap_known(void) {
    int fails = 0;
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    static const float ranges[][4] = {{0, 1, 0, 1},   {-1, 1, 0, 1},    {1, -1, 0, 1},     {-1, 1, 1, 0},
                                      {-1, 1, -5, 5}, {3, 3, 0.5f, 1},  {0.0f, -0.0f, 7, 8}, {-2.5f, 4, 100, -100},
                                      {0.1f, 0.7f, 0.1f, 0.7f}};
    float x[64], out[64];
    fill(x, 64, 7);
    for (int t = 0; t < nisa; t++) {
        wk_exec e = wk_exec_for(isas[t], 1);
        for (size_t ri = 0; ri < COUNT(ranges); ri++) {
            float lo = ranges[ri][0], hi = ranges[ri][1], a = ranges[ri][2], b = ranges[ri][3];
            float xs[66];
            memcpy(xs, x, sizeof x);
            xs[64] = lo, xs[65] = hi;
            float o[66];
            EXPECT(wk_remap(xs, 66, lo, hi, a, b, o, &e) == WK_OK, "remap status");
            for (size_t i = 0; i < 66; i++) {
                float want = remap_want(xs[i], lo, hi, a, b);
                if (isnan(want) ? !isnan(o[i]) : wk_bits(want) != wk_bits(o[i])) {
                    FAIL("%s remap(%g, [%g, %g] -> [%g, %g]) = %.9g, want %.9g", wk_isa_name((wk_isa)isas[t]),
                         (double)xs[i], (double)lo, (double)hi, (double)a, (double)b, (double)o[i], (double)want);
                    break;
                }
            }
            if (lo != hi) {
                EXPECT(wk_bits(o[64]) == wk_bits(a), "x = lo must give exactly a (%g), got %.9g", (double)a, (double)o[64]);
                EXPECT(wk_bits(o[65]) == wk_bits(b), "x = hi must give exactly b (%g), got %.9g", (double)b, (double)o[65]);
            } else {
                for (size_t i = 0; i < 66; i++)
                    if (wk_bits(o[i]) != wk_bits(a)) {
                        FAIL("lo == hi: element %zu (%g) = %g, want the constant a = %g", i, (double)xs[i],
                             (double)o[i], (double)a);
                        break;
                    }
            }
        }
        /* [0, 1] onto [0, 1] is the identity for finite x; inverted [1, 0] mirrors. */
        EXPECT(wk_remap(x, 64, 0, 1, 0, 1, out, &e) == WK_OK, "identity status");
        for (size_t i = 0; i < 64; i++)
            if (isfinite(x[i]) && wk_bits(out[i]) != wk_bits(x[i]) && !(x[i] == 0 && out[i] == 0)) {
                FAIL("identity remap(%g) = %g", (double)x[i], (double)out[i]);
                break;
            }
        float mid = 0.25f, m;
        EXPECT(wk_remap(&mid, 1, 1, 0, 0, 1, &m, &e) == WK_OK && m == 0.75f, "inverted: 0.25 -> %g, want 0.75",
               (double)m);
        EXPECT(wk_remap(&mid, 1, 0, 1, 1, 0, &m, &e) == WK_OK && m == 0.75f, "inverted target: 0.25 -> %g", (double)m);
    }
    return fails;
}

#define EXPECT_ERR(call, want, buf, what)                                                           \
    do {                                                                                           \
        wk_status got_ = (call);                                                                   \
        if (got_ != (want))                                                                        \
            FAIL("%s: status %d (%s), want %d; detail %s", what, (int)got_, wk_status_str(got_),    \
                 (int)(want), wk_last_error_detail());                                             \
        if (!wk_buf_all_canary(buf)) FAIL("%s: output touched on error", what);                    \
    } while (0)

int wk_check_bad_remap(void) {
    int fails = 0;
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    float x[16];
    fill(x, 16, 3);
    for (int t = 0; t < nisa; t++) {
        wk_exec e = wk_exec_for(isas[t], 0);
        wk_buf o = wk_buf_new(16, 1);
        wk_buf_fill_canary(&o);
        EXPECT_ERR(wk_remap(x, 16, NAN, 1, 0, 1, o.p, &e), WK_ERR_NOT_FINITE, &o, "lo NaN");
        EXPECT_ERR(wk_remap(x, 16, 0, INFINITY, 0, 1, o.p, &e), WK_ERR_NOT_FINITE, &o, "hi Inf");
        EXPECT_ERR(wk_remap(x, 16, 0, 1, -INFINITY, 1, o.p, &e), WK_ERR_NOT_FINITE, &o, "a -Inf");
        EXPECT_ERR(wk_remap(x, 16, 0, 1, 0, NAN, o.p, &e), WK_ERR_NOT_FINITE, &o, "b NaN");
        EXPECT_ERR(wk_remap(x, 16, -FLT_MAX, FLT_MAX, 0, 1, o.p, &e), WK_ERR_OVERFLOW, &o, "hi - lo overflows");
        EXPECT_ERR(wk_remap(NULL, 16, 0, 1, 0, 1, o.p, &e), WK_ERR_NULL, &o, "x NULL");
        EXPECT_ERR(wk_remap(x, 16, 0, 1, 0, 1, NULL, &e), WK_ERR_NULL, &o, "out NULL");
        EXPECT_ERR(wk_remap(x, SIZE_MAX / 2, 0, 1, 0, 1, o.p, &e), WK_ERR_OVERFLOW, &o, "n overflows");
        EXPECT_ERR(wk_remap(NULL, 0, 0, 1, 0, 1, NULL, &e), WK_OK, &o, "n = 0 with NULL");
        EXPECT_ERR(wk_remap(o.p, 15, 0, 1, 0, 1, o.p + 1, &e), WK_ERR_ALIAS, &o, "partial overlap");
        wk_exec bad = e;
        bad.threads = -1;
        EXPECT_ERR(wk_remap(x, 16, 0, 1, 0, 1, o.p, &bad), WK_ERR_INVALID_ARG, &o, "exec threads -1");
        wk_buf_free(&o);
    }
    return fails;
}

/* ULPs between two floats of the same sign (ordered integers). */
static double ulps(float a, double want) {
    float w = (float)want;
    if (w == a) return 0;
    double step = fabs((double)nextafterf(w, INFINITY) - (double)w);
    return fabs((double)a - want) / step;
}

int wk_check_pow_accuracy(void) {
    int fails = 0;
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    enum { N = 4096 };
    static float x[N], out[N];
    wk_rng r = {11};
    for (size_t i = 0; i < N; i++) x[i] = (float)wk_rng_range(&r, 0, 1) * (i % 7 == 0 ? 100.0f : 1.0f);
    static const float exps[] = {2.0f, 0.5f, 1.7f, -1.3f, 3.0f, 0.1f};
    double worst = 0;
    for (int t = 0; t < nisa; t++) {
        wk_exec e = wk_exec_for(isas[t], 1);
        for (size_t k = 0; k < COUNT(exps); k++) {
            EXPECT(wk_pow(x, N, exps[k], out, &e) == WK_OK, "pow status");
            for (size_t i = 0; i < N; i++) {
                double want = pow((double)x[i], (double)exps[k]);
                double u = ulps(out[i], want);
                if (u > worst) worst = u;
                if (u > 1.0) {
                    FAIL("%s pow(%.9g, %g) = %.9g, double %.17g: %.2f ulp > 1", wk_isa_name((wk_isa)isas[t]),
                         (double)x[i], (double)exps[k], (double)out[i], want, u);
                    break;
                }
            }
        }
        /* Special cases (C99 pow). */
        float sx[6] = {-0.5f, 0.0f, 1.0f, 4.0f, -8.0f, 2.0f}, so[6];
        EXPECT(wk_pow(sx, 6, 0.5f, so, &e) == WK_OK, "pow status");
        EXPECT(isnan(so[0]) && so[1] == 0.0f && so[2] == 1.0f && so[3] == 2.0f && isnan(so[4]),
               "%s pow(., 0.5) specials: %g %g %g %g %g", wk_isa_name((wk_isa)isas[t]), (double)so[0], (double)so[1],
               (double)so[2], (double)so[3], (double)so[4]);
        EXPECT(wk_pow(sx, 6, 0.0f, so, &e) == WK_OK, "pow status");
        for (int i = 0; i < 6; i++) EXPECT(so[i] == 1.0f, "pow(%g, 0) = %g", (double)sx[i], (double)so[i]);
        EXPECT(wk_pow(sx, 6, 3.0f, so, &e) == WK_OK && so[4] == -512.0f, "pow(-8, 3) = %g", (double)so[4]);
    }
    fprintf(stderr, "  wk_pow vs double pow: max %.3f ulp\n", worst);
    return fails;
}

int wk_check_bad_pow(void) {
    int fails = 0;
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    float x[16];
    fill(x, 16, 5);
    for (int t = 0; t < nisa; t++) {
        wk_exec e = wk_exec_for(isas[t], 0);
        wk_buf o = wk_buf_new(16, 0);
        wk_buf_fill_canary(&o);
        EXPECT_ERR(wk_pow(x, 16, NAN, o.p, &e), WK_ERR_NOT_FINITE, &o, "exponent NaN");
        EXPECT_ERR(wk_pow(x, 16, INFINITY, o.p, &e), WK_ERR_NOT_FINITE, &o, "exponent Inf");
        EXPECT_ERR(wk_pow(NULL, 16, 2, o.p, &e), WK_ERR_NULL, &o, "x NULL");
        EXPECT_ERR(wk_pow(x, 16, 2, NULL, &e), WK_ERR_NULL, &o, "out NULL");
        EXPECT_ERR(wk_pow(x, SIZE_MAX / 2, 2, o.p, &e), WK_ERR_OVERFLOW, &o, "n overflows");
        EXPECT_ERR(wk_pow(NULL, 0, 2, NULL, &e), WK_OK, &o, "n = 0");
        EXPECT_ERR(wk_pow(o.p + 1, 15, 2, o.p, &e), WK_ERR_ALIAS, &o, "partial overlap");
        wk_buf_free(&o);
    }
    return fails;
}
