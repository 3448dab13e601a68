/* Height curve checks: hand-computed Hermite values, an independent double
 * implementation of the Hermite basis form, every ISA, bad keys; the
 * redistribution and terrace maps. */
#include "spline_test.h"

/* Unity's form: the Hermite basis functions h00, h10, h01, h11, in double. */
static double hermite_double(const wk_curve_key *k, uint32_t nk, double x) {
    if (x <= k[0].time) return k[0].value;
    if (x >= k[nk - 1].time) return k[nk - 1].value;
    uint32_t j = 0;
    while (!(x < k[j + 1].time)) j++;
    if (isinf(k[j].out_tangent) || isinf(k[j + 1].in_tangent)) return k[j].value;
    double dt = (double)k[j + 1].time - k[j].time, u = (x - k[j].time) / dt, u2 = u * u, u3 = u2 * u;
    double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
    return h00 * k[j].value + h10 * dt * k[j].out_tangent + h01 * k[j + 1].value + h11 * dt * k[j + 1].in_tangent;
}

int wk_check_spline_curve_known(void) {
    int fails = 0;
    /* Worked by hand from the basis functions. */
    {
        wk_curve_key k[2] = {{0, 0, 0, 0}, {1, 1, 0, 0}}; /* smoothstep */
        float x[5] = {0.5f, 0.25f, -1.0f, 2.0f, 1.0f}, out[5];
        const double want[5] = {0.5, 0.15625, 0.0, 1.0, 1.0};
        EXPECT(wk_spline_curve_eval(k, 2, x, 5, out, NULL) == WK_OK, "eval");
        for (int i = 0; i < 5; i++) EXPECT(fabs(out[i] - want[i]) <= 1e-7, "smoothstep(%g) = %.9g, want %g", x[i], out[i], want[i]);
    }
    {
        wk_curve_key k[2] = {{0, 0, 0, 1}, {2, 1, 0, 0}}; /* dt 2: m0 = 2, m1 = 0 */
        float x[2] = {1.0f, 0.5f}, out[2];
        EXPECT(wk_spline_curve_eval(k, 2, x, 2, out, NULL) == WK_OK, "eval");
        EXPECT(fabs(out[0] - 0.75) <= 1e-7, "curve(1) = %.9g, want 0.75", out[0]);
        EXPECT(fabs(out[1] - 0.4375) <= 1e-7, "curve(0.5) = %.9g, want 0.4375", out[1]);
    }
    {
        wk_curve_key k[3] = {{0, 0, 1, 1}, {1, 1, 1, 1}, {3, 3, 1, 1}}; /* a line */
        float x[4] = {0.3f, 1.7f, 2.5f, 1.0f}, out[4];
        EXPECT(wk_spline_curve_eval(k, 3, x, 4, out, NULL) == WK_OK, "eval");
        for (int i = 0; i < 4; i++) EXPECT(fabs(out[i] - x[i]) <= 1e-6, "line(%g) = %.9g", x[i], out[i]);
    }
    {
        wk_curve_key k[3] = {{0, 2, 0, INFINITY}, {1, 5, 0, 0}, {2, 7, 0, 0}}; /* step, as Unity's constant tangent */
        float x[3] = {0.99f, 0.5f, 1.5f}, out[3];
        EXPECT(wk_spline_curve_eval(k, 3, x, 3, out, NULL) == WK_OK, "eval");
        EXPECT(out[0] == 2.0f && out[1] == 2.0f, "step segment gives %g %g, want 2", out[0], out[1]);
        EXPECT(fabs(out[2] - 6.0) <= 1e-6, "smoothstep 5..7 at mid = %.9g", out[2]);
    }
    {
        wk_curve_key k[1] = {{4, -3, 1, 1}};
        float x[3] = {-100, 4, NAN}, out[3];
        EXPECT(wk_spline_curve_eval(k, 1, x, 3, out, NULL) == WK_OK, "eval");
        EXPECT(out[0] == -3.0f && out[1] == -3.0f && wk_bits(out[2]) == 0x7FC00000u, "one key: %g %g %g", out[0], out[1],
               out[2]);
    }
    /* random curves against the double basis form */
    wk_rng rng = {21};
    for (int c = 0; c < 50; c++) {
        uint32_t nk = 2 + (uint32_t)(wk_rng_u64(&rng) % 8);
        wk_curve_key k[10];
        float t = sp_rand(&rng, -5, 5);
        for (uint32_t j = 0; j < nk; j++) {
            k[j].time = t;
            t += sp_rand(&rng, 0.1, 3);
            k[j].value = sp_rand(&rng, -2, 2);
            k[j].in_tangent = sp_rand(&rng, -3, 3);
            k[j].out_tangent = sp_rand(&rng, -3, 3);
        }
        float x[64], out[64];
        for (int i = 0; i < 64; i++) x[i] = sp_rand(&rng, k[0].time - 1, k[nk - 1].time + 1);
        EXPECT(wk_spline_curve_eval(k, nk, x, 64, out, NULL) == WK_OK, "eval");
        for (int i = 0; i < 64; i++) {
            double want = hermite_double(k, nk, x[i]);
            EXPECT(fabs(out[i] - want) <= 2e-5 * (1 + fabs(want)), "curve %d x %.9g: %.9g, double %.9g", c, x[i], out[i],
                   want);
        }
    }
    return fails;
}

typedef struct curve_case {
    const wk_curve_key *keys;
    uint32_t nkeys;
    const float *x;
    size_t n;
} curve_case;

static int curve_run(void *ctx, const wk_exec *e, uint32_t split, void *out) {
    const curve_case *c = ctx;
    size_t cut = split ? c->n / 3 : c->n;
    wk_status s = wk_spline_curve_eval(c->keys, c->nkeys, c->x, cut, out, e);
    if (s == WK_OK && cut < c->n) s = wk_spline_curve_eval(c->keys, c->nkeys, c->x + cut, c->n - cut, (float *)out + cut, e);
    return s;
}

int wk_check_spline_curve_isa(void) {
    int fails = 0;
    wk_rng rng = {8};
    const uint32_t nks[] = {1, 2, 3, 5, 17, 18, 33, 34, 50, 65, 66, 100};
    const size_t sizes[] = {0, 1, 3, 4, 5, 15, 16, 17, 31, 1000, 9000};
    for (size_t a = 0; a < COUNT(nks); a++)
        for (size_t b = 0; b < COUNT(sizes); b++) {
            uint32_t nk = nks[a];
            size_t n = sizes[b];
            wk_curve_key *k = sp_alloc(nk * sizeof *k);
            float t = sp_rand(&rng, -5, 5);
            for (uint32_t j = 0; j < nk; j++) {
                k[j].time = t;
                t += sp_rand(&rng, 0.01, 2);
                k[j].value = sp_rand(&rng, -2, 2);
                k[j].in_tangent = wk_rng_u64(&rng) % 10 == 0 ? INFINITY : sp_rand(&rng, -3, 3);
                k[j].out_tangent = wk_rng_u64(&rng) % 10 == 0 ? -INFINITY : sp_rand(&rng, -3, 3);
            }
            float *x = sp_alloc((n + 1) * sizeof *x);
            for (size_t i = 0; i <= n; i++) {
                uint64_t r = wk_rng_u64(&rng) % 10;
                x[i] = r == 0 ? NAN : r == 1 ? k[wk_rng_u64(&rng) % nk].time : r == 2 ? INFINITY
                                                                            : sp_rand(&rng, k[0].time - 1, t);
            }
            curve_case c = {k, nk, x + 1, n};
            char what[64];
            snprintf(what, sizeof what, "curve keys %u n %zu", nk, n);
            wk_harness h = {what, curve_run, &c, n * sizeof(float), 2};
            fails += wk_harness_compare(&h);
            free(k);
            free(x);
        }
    return fails;
}

int wk_check_spline_curve_bad_input(void) {
    int fails = 0;
    wk_curve_key good[3] = {{0, 0, 0, 0}, {1, 1, 0, 0}, {2, 0, 0, 0}};
    float x[4] = {0.5f, 1.5f, 0, 0};
    wk_buf out = wk_buf_new(4, 1);
#define BAD(keys_init, nk, code)                                                                               \
    do {                                                                                                       \
        wk_curve_key k_[3];                                                                                    \
        memcpy(k_, good, sizeof k_);                                                                           \
        keys_init;                                                                                             \
        wk_buf_fill_canary(&out);                                                                              \
        wk_status st_ = wk_spline_curve_eval(k_, (nk), x, 2, out.p, NULL);                                     \
        EXPECT(st_ == (code), "%s: status %d, want %d (%s)", #keys_init, (int)st_, (int)(code), wk_last_error_detail()); \
        EXPECT(wk_buf_all_canary(&out), "%s: wrote its output on error", #keys_init);                         \
    } while (0)
    BAD((void)0, 0, WK_ERR_INVALID_ARG);
    BAD(k_[1].time = 0, 3, WK_ERR_INVALID_ARG);          /* equal times */
    BAD(k_[2].time = 0.5f, 3, WK_ERR_INVALID_ARG);       /* decreasing */
    BAD(k_[1].time = NAN, 3, WK_ERR_NOT_FINITE);
    BAD(k_[1].value = INFINITY, 3, WK_ERR_NOT_FINITE);
    BAD(k_[1].in_tangent = NAN, 3, WK_ERR_INVALID_ARG);
    BAD((k_[0].time = -3e38f, k_[1].time = 3e38f), 3, WK_ERR_OVERFLOW);
#undef BAD
    wk_buf_fill_canary(&out);
    EXPECT(wk_spline_curve_eval(NULL, 3, x, 2, out.p, NULL) == WK_ERR_NULL, "keys NULL");
    EXPECT(wk_spline_curve_eval(good, 3, NULL, 2, out.p, NULL) == WK_ERR_NULL, "x NULL");
    EXPECT(wk_spline_curve_eval(good, 3, out.p, 2, out.p + 1, NULL) == WK_ERR_ALIAS, "partial overlap");
    EXPECT(wk_spline_curve_eval(good, 3, (const float *)good, 2, (float *)good + 1, NULL) == WK_ERR_ALIAS,
           "out overlaps keys");
    EXPECT(wk_buf_all_canary(&out), "wrote on error");
    float inplace[2] = {0.5f, 1.5f};
    EXPECT(wk_spline_curve_eval(good, 3, inplace, 2, inplace, NULL) == WK_OK, "in place");
    EXPECT(fabs(inplace[0] - 0.5) < 1e-7 && fabs(inplace[1] - 0.5) < 1e-7, "in place values %g %g", inplace[0], inplace[1]);
    wk_buf_free(&out);
    return fails;
}

/* ------------------------------------------------ redistribution, terraces */

static double terrace_double(double v, double k, double w) {
    double c = v < 0 ? 0 : v > 1 ? 1 : v, q = c * k, f = floor(q), r = q - f, b = 0;
    if (w > 0) {
        b = (r - (1 - w)) / w;
        b = b < 0 ? 0 : b > 1 ? 1 : b;
        b = b * b * (3 - 2 * b);
    }
    return (f + b) / k;
}

int wk_check_spline_redistribute_terrace(void) {
    int fails = 0;
    /* by hand: 4 levels, blend 1/2 */
    {
        float v[6] = {0.3f, 0.45f, 1.0f, -2.0f, 0.0f, 0.5f}, out[6];
        const double want[6] = {0.25, (1 + 0.648) / 4, 1.0, 0.0, 0.0, 0.5};
        EXPECT(wk_spline_terrace(v, 6, 4, 0.5f, out, NULL) == WK_OK, "terrace");
        for (int i = 0; i < 6; i++) EXPECT(fabs(out[i] - want[i]) <= 1e-6, "terrace(%g) = %.9g, want %.9g", v[i], out[i], want[i]);
        EXPECT(wk_spline_terrace(v, 6, 4, 0.0f, out, NULL) == WK_OK, "hard terrace");
        EXPECT(out[0] == 0.25f && out[1] == 0.25f && out[2] == 1.0f, "hard steps %g %g %g", out[0], out[1], out[2]);
    }
    wk_rng rng = {17};
    float v[512], out[512];
    for (int i = 0; i < 512; i++) v[i] = sp_rand(&rng, -0.2, 1.2);
    const float exps[] = {0.5f, 1.0f, 2.2f, 7.0f};
    for (size_t e = 0; e < COUNT(exps); e++) {
        EXPECT(wk_spline_redistribute(v, 512, exps[e], out, NULL) == WK_OK, "redistribute");
        for (int i = 0; i < 512; i++) {
            double c = v[i] < 0 ? 0 : v[i] > 1 ? 1 : v[i], want = pow(c, exps[e]);
            /* SLEEF u10: within 1 ULP (plus the exact clamps) */
            EXPECT(fabs(out[i] - want) <= 2.5e-7 * fabs(want) + 1e-38, "pow(%.9g, %g) = %.9g, want %.9g", c, exps[e],
                   out[i], want);
        }
    }
    const float blends[] = {0.0f, 0.25f, 1.0f};
    for (size_t b = 0; b < COUNT(blends); b++) {
        EXPECT(wk_spline_terrace(v, 512, 7, blends[b], out, NULL) == WK_OK, "terrace");
        for (int i = 0; i < 512; i++) {
            double want = terrace_double(v[i], 7, blends[b]);
            EXPECT(fabs(out[i] - want) <= 1e-5, "terrace7(%.9g, %g) = %.9g, want %.9g", v[i], blends[b], out[i], want);
        }
    }
    /* NaN in, NaN out; bad parameters */
    float nan_in[2] = {NAN, 0.5f}, nan_out[2];
    EXPECT(wk_spline_redistribute(nan_in, 2, 2.0f, nan_out, NULL) == WK_OK && wk_bits(nan_out[0]) == 0x7FC00000u,
           "redistribute NaN");
    EXPECT(wk_spline_terrace(nan_in, 2, 3, 0.5f, nan_out, NULL) == WK_OK && wk_bits(nan_out[0]) == 0x7FC00000u,
           "terrace NaN");
    wk_buf o = wk_buf_new(8, 1);
    EXPECT(wk_spline_redistribute(v, 8, 0.0f, o.p, NULL) == WK_ERR_INVALID_ARG, "exponent 0");
    EXPECT(wk_spline_redistribute(v, 8, -1.0f, o.p, NULL) == WK_ERR_INVALID_ARG, "exponent < 0");
    EXPECT(wk_spline_redistribute(v, 8, INFINITY, o.p, NULL) == WK_ERR_NOT_FINITE, "exponent inf");
    EXPECT(wk_spline_redistribute(NULL, 8, 2.0f, o.p, NULL) == WK_ERR_NULL, "v NULL");
    EXPECT(wk_spline_redistribute(o.p, 4, 2.0f, o.p + 1, NULL) == WK_ERR_ALIAS, "overlap");
    EXPECT(wk_spline_terrace(v, 8, 0, 0.5f, o.p, NULL) == WK_ERR_INVALID_ARG, "levels 0");
    EXPECT(wk_spline_terrace(v, 8, 3, 1.5f, o.p, NULL) == WK_ERR_INVALID_ARG, "blend > 1");
    EXPECT(wk_spline_terrace(v, 8, 3, NAN, o.p, NULL) == WK_ERR_NOT_FINITE, "blend NaN");
    EXPECT(wk_buf_all_canary(&o), "wrote on error");
    wk_buf_free(&o);
    return fails;
}

typedef struct map_case {
    const float *v;
    size_t n;
    int kind;
    float a;
    uint32_t levels;
} map_case;

static int map_run(void *ctx, const wk_exec *e, uint32_t split, void *out) {
    const map_case *c = ctx;
    size_t cut = split ? c->n / 2 + 1 : c->n;
    if (cut > c->n) cut = c->n;
    for (int part = 0; part < 2; part++) {
        size_t at = part ? cut : 0, len = part ? c->n - at : cut;
        if (len == 0) continue;
        wk_status s = c->kind ? wk_spline_terrace(c->v + at, len, c->levels, c->a, (float *)out + at, e)
                              : wk_spline_redistribute(c->v + at, len, c->a, (float *)out + at, e);
        if (s != WK_OK) return s;
    }
    return WK_OK;
}

int wk_check_spline_map_isa(void) {
    int fails = 0;
    wk_rng rng = {31};
    const size_t sizes[] = {1, 3, 15, 16, 17, 31, 4095, 9001};
    for (size_t b = 0; b < COUNT(sizes); b++)
        for (int kind = 0; kind < 2; kind++)
            for (int variant = 0; variant < 3; variant++) {
                size_t n = sizes[b];
                float *v = sp_alloc((n + 1) * sizeof *v);
                for (size_t i = 0; i <= n; i++) {
                    uint64_t r = wk_rng_u64(&rng) % 16;
                    v[i] = r == 0 ? NAN : r == 1 ? -0.0f : r == 2 ? 1e-40f : r == 3 ? 1.0f : sp_rand(&rng, -0.3, 1.3);
                }
                static const float exps[3] = {0.37f, 2.0f, 9.5f}, blends[3] = {0.0f, 0.3f, 1.0f};
                map_case c = {v + 1, n, kind, kind ? blends[variant] : exps[variant], 3 + (uint32_t)variant * 5};
                char what[64];
                snprintf(what, sizeof what, "%s n %zu variant %d", kind ? "terrace" : "redistribute", n, variant);
                wk_harness h = {what, map_run, &c, n * sizeof(float), 2};
                fails += wk_harness_compare(&h);
                free(v);
            }
    return fails;
}
