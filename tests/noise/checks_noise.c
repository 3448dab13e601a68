/* The noise family's checks (see checks.h). Every comparison between an ISA
 * and the scalar reference is bit for bit (memcmp). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wk_checks.h"
#include "perlin_double.h"
#include "worldkern/array.h"
#include "worldkern/noise.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define CANONICAL_NAN 0x7FC00000u

static const size_t point_sizes[] = {0, 1, 15, 16, 17, 31, 1023, 1025};

/* Every check restores the process-wide ISA and thread count it changes. */
typedef struct saved_state { wk_isa isa; } saved_state;
static saved_state save_state(void) {
    wk_set_threads(wk_test_threads());
    saved_state s = {wk_isa_active()};
    return s;
}
static void restore_state(saved_state s) {
    wk_set_isa(s.isa);
    wk_set_threads(wk_test_threads());
}

static int use_isa(int isa) { return wk_set_isa((wk_isa)isa) == WK_OK; }

static size_t first_diff(const float *a, const float *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (wk_bits(a[i]) != wk_bits(b[i])) return i;
    return n;
}

/* Compares n floats bit for bit; prints the first difference. */
#define EXPECT_SAME(a, b, n, ...)                                                             \
    do {                                                                                      \
        size_t at_ = first_diff((a), (b), (n));                                               \
        if (at_ < (n)) {                                                                      \
            char what_[200];                                                                  \
            snprintf(what_, sizeof what_, __VA_ARGS__);                                       \
            FAIL("%s: differs at %zu of %zu: %.9g (0x%08x) vs %.9g (0x%08x)", what_, at_,     \
                 (size_t)(n), (double)(a)[at_], (unsigned)wk_bits((a)[at_]),                  \
                 (double)(b)[at_], (unsigned)wk_bits((b)[at_]));                              \
        }                                                                                     \
    } while (0)

/* A random coordinate drawn from a mix of magnitudes, signs and specials
 * near cell boundaries; finite. */
static float wide_coordinate(wk_rng *r) {
    static const double scales[] = {1.0, 4.0, 256.0, 65535.0, 1e6, 16777216.0, 1e9, 1e20, 3e38};
    double s = scales[wk_rng_u64(r) % COUNT(scales)];
    float v = (float)wk_rng_range(r, -s, s);
    switch (wk_rng_u64(r) % 8) {
    case 0: return floorf(v);                              /* exact lattice point */
    case 1: return nextafterf(floorf(v), INFINITY);        /* just past it */
    case 2: return nextafterf(floorf(v), -INFINITY);       /* just before */
    case 3: return floorf(v) + 0.5f;
    default: return v;
    }
}

static float small_coordinate(wk_rng *r) { return (float)wk_rng_range(r, -300.0, 300.0); }

static wk_status call_perlin(int dims, const float *x, const float *y, const float *z, size_t n,
                             uint32_t seed, float *out) {
    return dims == 2 ? wk_noise_perlin2(x, y, n, seed, out, NULL) : wk_noise_perlin3(x, y, z, n, seed, out, NULL);
}

/* ------------------------------------------------------------- api basics */

int wk_check_api_basics(void) {
    int fails = 0;
    saved_state st = save_state();
    EXPECT(strcmp(wk_version(), WK_VERSION_STRING) == 0, "wk_version() = %s, header %s", wk_version(),
           WK_VERSION_STRING);
    EXPECT(WK_VERSION_NUMBER == ((WK_VERSION_MAJOR << 16) | (WK_VERSION_MINOR << 8) | WK_VERSION_PATCH),
           "WK_VERSION_NUMBER");
    for (int s = -3; s < 12; s++) {
        const char *m = wk_status_str((wk_status)s);
        EXPECT(m != NULL && m[0] != '\0', "wk_status_str(%d) is NULL or empty", s);
    }
    EXPECT(strcmp(wk_status_str((wk_status)99), "unknown status") == 0, "unknown status text");
    EXPECT(strcmp(wk_status_str(WK_OK), "unknown status") != 0, "WK_OK has its own text");
    EXPECT(strcmp(wk_isa_name(WK_ISA_SCALAR), "scalar") == 0, "isa name scalar");
    EXPECT(strcmp(wk_isa_name(WK_ISA_AVX2), "avx2") == 0, "isa name avx2");
    EXPECT(strcmp(wk_isa_name(WK_ISA_AVX512), "avx512") == 0, "isa name avx512");
    EXPECT(strcmp(wk_isa_name(WK_ISA_NEON), "neon") == 0, "isa name neon");
    EXPECT(strcmp(wk_isa_name(WK_ISA_DEFAULT), "default") == 0, "isa name default");
    EXPECT(strcmp(wk_isa_name((wk_isa)7), "unknown") == 0, "isa name unknown");
    EXPECT(strcmp(wk_isa_name((wk_isa)-1), "unknown") == 0, "isa name -1");

    EXPECT(wk_isa_supported(WK_ISA_SCALAR), "scalar must be supported");
    EXPECT(wk_isa_supported(wk_isa_active()), "active ISA %d not supported", (int)wk_isa_active());
    int invalid[] = {-1, 5, 100, WK_ISA_COUNT};
    for (size_t i = 0; i < COUNT(invalid); i++) {
        wk_isa before = wk_isa_active();
        EXPECT(!wk_isa_supported((wk_isa)invalid[i]), "isa %d reported supported", invalid[i]);
        EXPECT(wk_set_isa((wk_isa)invalid[i]) == WK_ERR_UNSUPPORTED_ISA, "wk_set_isa(%d)", invalid[i]);
        EXPECT(wk_isa_active() == before, "wk_set_isa(%d) changed the ISA", invalid[i]);
    }
    for (int isa = WK_ISA_SCALAR; isa < WK_ISA_COUNT; isa++) {
        wk_isa before = wk_isa_active();
        wk_status s = wk_set_isa((wk_isa)isa);
        if (wk_isa_supported((wk_isa)isa)) {
            EXPECT(s == WK_OK, "wk_set_isa(%s) = %d", wk_isa_name((wk_isa)isa), (int)s);
            EXPECT(wk_isa_active() == (wk_isa)isa, "active after wk_set_isa(%s)", wk_isa_name((wk_isa)isa));
        } else {
            EXPECT(s == WK_ERR_UNSUPPORTED_ISA, "unsupported wk_set_isa(%s) = %d", wk_isa_name((wk_isa)isa),
                   (int)s);
            EXPECT(wk_isa_active() == before, "unsupported wk_set_isa changed the ISA");
        }
    }
#if defined(__x86_64__)
    EXPECT(!wk_isa_supported(WK_ISA_NEON), "NEON supported on x86-64");
#elif defined(__aarch64__)
    EXPECT(!wk_isa_supported(WK_ISA_AVX2) && !wk_isa_supported(WK_ISA_AVX512), "x86 ISA on aarch64");
#endif

    EXPECT(wk_set_threads(3) == WK_OK, "wk_set_threads(3)");
    int t3 = wk_threads();
    EXPECT(t3 == 3 || t3 == 1, "wk_threads() after set 3 = %d", t3);
    EXPECT(wk_set_threads(-1) == WK_ERR_INVALID_ARG, "wk_set_threads(-1)");
    EXPECT(wk_set_threads(-1000) == WK_ERR_INVALID_ARG, "wk_set_threads(-1000)");
    EXPECT(wk_threads() == t3, "wk_set_threads(-1) changed the count");
    EXPECT(wk_set_threads(0) == WK_OK, "wk_set_threads(0)");
    EXPECT(wk_threads() >= 1, "wk_threads() = %d", wk_threads());
    restore_state(st);
    return fails;
}

/* ---------------------------------------------------- independent answers */

int wk_check_perlin_double_known_answers(void) {
    int fails = 0;
    static const struct { double x, y, z, v; } known[] = {
        {3.14, 42, 7, 0.13691995878400012},
        {0.5, 0.5, 0.5, -0.25},
        {1.5, 2.25, 3.75, -0.23534488677978516},
        {-1.3, 0.7, 10.2, -0.20242736360842206},
        {12.34, 56.78, 90.12, 0.078343843442175279},
        {0.1, 0.2, 0.3, 0.35122924878110723},
        {-0.25, -7.5, 255.75, -0.37507867813110352},
    };
    for (size_t i = 0; i < COUNT(known); i++) {
        double v = pd_noise3(known[i].x, known[i].y, known[i].z, 0);
        EXPECT(fabs(v - known[i].v) <= 1e-15, "noise(%g,%g,%g) = %.17g, published %.17g", known[i].x,
               known[i].y, known[i].z, v, known[i].v);
    }
    for (int x = -3; x <= 260; x += 7)
        for (int y = -300; y <= 300; y += 61) {
            EXPECT(pd_noise3(x, y, x - y, 0) == 0.0, "lattice (%d,%d,%d) not 0", x, y, x - y);
            EXPECT(pd_noise2(x, y, 0) == 0.0, "2D lattice (%d,%d) not 0", x, y);
            EXPECT(pd_noise3(x, y, 5, 12345) == 0.0, "seeded lattice not 0");
        }
    /* Period 256 and plausible range. */
    wk_rng r = {1};
    for (int i = 0; i < 2000; i++) {
        double x = wk_rng_range(&r, -50, 50), y = wk_rng_range(&r, -50, 50), z = wk_rng_range(&r, -50, 50);
        double v = pd_noise3(x, y, z, 0), v2 = pd_noise2(x, y, 0);
        EXPECT(fabs(v - pd_noise3(x + 256, y - 512, z + 256, 0)) < 1e-9, "3D period 256");
        EXPECT(fabs(v2 - pd_noise2(x - 256, y + 256, 0)) < 1e-9, "2D period 256");
        EXPECT(fabs(v) <= 1.1 && fabs(v2) <= 1.1, "range");
    }
    return fails;
}

/* worldkern (every ISA) against the double implementation at the same float
 * coordinates, |coordinate| < 2^16. */
static int perlin_vs_double(int dims, uint32_t seed, int points, double *max_err_out) {
    int fails = 0;
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    size_t n = (size_t)points;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
    float *out = malloc(n * sizeof *out);
    wk_rng r = {0x5EED0000u + seed * 7u + (uint64_t)dims};
    static const float fixed[][3] = {{3.14f, 42, 7},   {0.5f, 0.5f, 0.5f},     {1.5f, 2.25f, 3.75f},
                                     {-1.3f, 0.7f, 10.2f}, {12.34f, 56.78f, 90.12f}, {0.1f, 0.2f, 0.3f},
                                     {-0.25f, -7.5f, 255.75f}, {3, -4, 5},     {-65535.5f, 65535.5f, -0.0f}};
    for (size_t i = 0; i < n; i++) {
        if (i < COUNT(fixed)) {
            x[i] = fixed[i][0], y[i] = fixed[i][1], z[i] = fixed[i][2];
            continue;
        }
        double lim = (i % 3 == 0) ? 65535.99 : (i % 3 == 1) ? 300.0 : 4.0;
        x[i] = (float)wk_rng_range(&r, -lim, lim);
        y[i] = (float)wk_rng_range(&r, -lim, lim);
        z[i] = (float)wk_rng_range(&r, -lim, lim);
    }
    double max_err = 0;
    for (int t = 0; t < nisa; t++) {
        use_isa(isas[t]);
        wk_status s = call_perlin(dims, x, y, z, n, seed, out);
        EXPECT(s == WK_OK, "perlin%d status %d", dims, (int)s);
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            double want = dims == 2 ? pd_noise2(x[i], y[i], seed) : pd_noise3(x[i], y[i], z[i], seed);
            double err = fabs((double)out[i] - want);
            if (!(err <= 2e-6)) {
                if (bad++ < 5)
                    FAIL("%s perlin%d seed %u at (%.9g, %.9g, %.9g): %.9g vs double %.17g",
                         wk_isa_name((wk_isa)isas[t]), dims, (unsigned)seed, (double)x[i], (double)y[i],
                         (double)z[i], (double)out[i], want);
                else
                    fails++;
            }
            if (err > max_err) max_err = err;
        }
    }
    if (max_err_out) *max_err_out = max_err;
    free(x), free(y), free(z), free(out);
    return fails;
}

int wk_check_perlin3_vs_double(void) {
    saved_state st = save_state();
    double e = 0;
    int fails = perlin_vs_double(3, 0, 20000, &e);
    fprintf(stderr, "  perlin3 vs double: max |error| %.3g\n", e);
    restore_state(st);
    return fails;
}

int wk_check_perlin2_vs_double(void) {
    saved_state st = save_state();
    double e = 0;
    int fails = perlin_vs_double(2, 0, 20000, &e);
    fprintf(stderr, "  perlin2 vs double: max |error| %.3g\n", e);
    restore_state(st);
    return fails;
}

int wk_check_perlin_seeded_vs_double(void) {
    saved_state st = save_state();
    int fails = 0;
    static const uint32_t seeds[] = {1, 2, 42, 0x80000000u, 0xFFFFFFFFu};
    for (size_t i = 0; i < COUNT(seeds); i++) {
        fails += perlin_vs_double(2, seeds[i], 2000, NULL);
        fails += perlin_vs_double(3, seeds[i], 2000, NULL);
    }
    restore_state(st);
    return fails;
}

/* ------------------------------------------------ point kernels, every ISA */

static int perlin_isa_sizes(int dims) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    wk_rng r = {100u + (uint64_t)dims};
    static const uint32_t seeds[] = {0, 3};
    for (size_t si = 0; si < COUNT(point_sizes); si++)
        for (size_t off = 0; off <= 1; off++)
            for (size_t sd = 0; sd < COUNT(seeds); sd++) {
                size_t n = point_sizes[si];
                wk_buf bx = wk_buf_new(n, off), by = wk_buf_new(n, 1 - off), bz = wk_buf_new(n, off);
                for (size_t i = 0; i < n; i++) {
                    bx.p[i] = small_coordinate(&r);
                    by.p[i] = small_coordinate(&r);
                    bz.p[i] = small_coordinate(&r);
                }
                wk_buf ref = wk_buf_new(n, off);
                use_isa(WK_ISA_SCALAR);
                wk_status s = call_perlin(dims, bx.p, by.p, bz.p, n, seeds[sd], ref.p);
                EXPECT(s == WK_OK, "scalar perlin%d n=%zu status %d", dims, n, (int)s);
                EXPECT(wk_buf_guards_ok(&ref), "scalar perlin%d n=%zu wrote outside", dims, n);
                for (size_t i = 0; i < n; i++)
                    if (!(fabsf(ref.p[i]) <= 1.1f)) {
                        FAIL("scalar perlin%d n=%zu out[%zu] = %g out of range", dims, n, i, (double)ref.p[i]);
                        break;
                    }
                for (int t = 0; t < nisa; t++) {
                    wk_buf o = wk_buf_new(n, off);
                    use_isa(isas[t]);
                    s = call_perlin(dims, bx.p, by.p, bz.p, n, seeds[sd], o.p);
                    EXPECT(s == WK_OK, "%s perlin%d n=%zu status %d", wk_isa_name((wk_isa)isas[t]), dims, n,
                           (int)s);
                    EXPECT_SAME(o.p, ref.p, n, "%s perlin%d n=%zu off=%zu seed=%u", wk_isa_name((wk_isa)isas[t]),
                                dims, n, off, (unsigned)seeds[sd]);
                    EXPECT(wk_buf_guards_ok(&o), "%s perlin%d n=%zu off=%zu: canary overwritten",
                           wk_isa_name((wk_isa)isas[t]), dims, n, off);
                    EXPECT(wk_buf_guards_ok(&bx) && wk_buf_guards_ok(&by) && wk_buf_guards_ok(&bz),
                           "inputs' canaries changed");
                    if (n == 0) {
                        EXPECT(call_perlin(dims, NULL, NULL, NULL, 0, seeds[sd], NULL) == WK_OK,
                               "%s perlin%d n=0 with NULL", wk_isa_name((wk_isa)isas[t]), dims);
                        EXPECT(wk_buf_all_canary(&o), "n=0 wrote");
                    }
                    wk_buf_free(&o);
                }
                wk_buf_free(&ref), wk_buf_free(&bx), wk_buf_free(&by), wk_buf_free(&bz);
            }
    restore_state(st);
    return fails;
}

int wk_check_perlin2_isa_sizes(void) { return perlin_isa_sizes(2); }
int wk_check_perlin3_isa_sizes(void) { return perlin_isa_sizes(3); }

int wk_check_perlin_isa_random_wide(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    const size_t n = 4099;
    float *x = malloc(n * 4), *y = malloc(n * 4), *z = malloc(n * 4), *ref = malloc(n * 4),
          *out = malloc(n * 4);
    wk_rng r = {777};
    for (size_t i = 0; i < n; i++) x[i] = wide_coordinate(&r), y[i] = wide_coordinate(&r), z[i] = wide_coordinate(&r);
    static const uint32_t seeds[] = {0, 1, 0xDEADBEEFu};
    for (int dims = 2; dims <= 3; dims++)
        for (size_t sd = 0; sd < COUNT(seeds); sd++) {
            use_isa(WK_ISA_SCALAR);
            EXPECT(call_perlin(dims, x, y, z, n, seeds[sd], ref) == WK_OK, "scalar status");
            for (size_t i = 0; i < n; i++)
                if (!(fabsf(ref[i]) <= 1.1f)) {
                    FAIL("perlin%d at (%.9g, %.9g, %.9g) = %g: finite input, value out of range", dims,
                         (double)x[i], (double)y[i], (double)z[i], (double)ref[i]);
                    break;
                }
            for (int t = 1; t < nisa; t++) {
                use_isa(isas[t]);
                EXPECT(call_perlin(dims, x, y, z, n, seeds[sd], out) == WK_OK, "status");
                EXPECT_SAME(out, ref, n, "%s perlin%d wide seed %u", wk_isa_name((wk_isa)isas[t]), dims,
                            (unsigned)seeds[sd]);
            }
        }
    free(x), free(y), free(z), free(ref), free(out);
    restore_state(st);
    return fails;
}

int wk_check_perlin_non_finite(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    static const uint32_t specials[] = {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x7FFFFFFFu,
                                        0xFFFFFFFFu, 0x7F800000u, 0xFF800000u, 0x7FC12345u};
    const size_t n = 67;
    float x[67], y[67], z[67], out[67], ref[67];
    wk_rng r = {31337};
    for (int dims = 2; dims <= 3; dims++)
        for (int axis = 0; axis < dims; axis++)
            for (size_t sp = 0; sp < COUNT(specials); sp++) {
                int is_special[67] = {0};
                for (size_t i = 0; i < n; i++) x[i] = small_coordinate(&r), y[i] = small_coordinate(&r), z[i] = small_coordinate(&r);
                float *target = axis == 0 ? x : axis == 1 ? y : z;
                for (size_t i = (sp + (size_t)axis) % 5; i < n; i += 3 + sp % 4) {
                    target[i] = wk_from_bits(specials[sp]);
                    is_special[i] = 1;
                }
                use_isa(WK_ISA_SCALAR);
                EXPECT(call_perlin(dims, x, y, z, n, 9, ref) == WK_OK, "status");
                for (int t = 0; t < nisa; t++) {
                    use_isa(isas[t]);
                    EXPECT(call_perlin(dims, x, y, z, n, 9, out) == WK_OK, "status");
                    for (size_t i = 0; i < n; i++) {
                        if (is_special[i])
                            EXPECT(wk_bits(out[i]) == CANONICAL_NAN,
                                   "%s perlin%d input 0x%08x on axis %d at %zu gives 0x%08x, want 0x7FC00000",
                                   wk_isa_name((wk_isa)isas[t]), dims, (unsigned)specials[sp], axis, i,
                                   (unsigned)wk_bits(out[i]));
                        else
                            EXPECT(isfinite(out[i]), "finite input gave %g", (double)out[i]);
                    }
                    EXPECT_SAME(out, ref, n, "%s perlin%d specials", wk_isa_name((wk_isa)isas[t]), dims);
                }
            }
    restore_state(st);
    return fails;
}

int wk_check_perlin_alias(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    const size_t n = 133;
    float x[133], y[133], z[133], ref[133], buf[133];
    wk_rng r = {4242};
    for (size_t i = 0; i < n; i++) x[i] = small_coordinate(&r), y[i] = small_coordinate(&r), z[i] = small_coordinate(&r);
    for (int dims = 2; dims <= 3; dims++) {
        use_isa(WK_ISA_SCALAR);
        call_perlin(dims, x, y, z, n, 0, ref);
        for (int t = 0; t < nisa; t++) {
            use_isa(isas[t]);
            for (int which = 0; which < dims; which++) {
                const float *src = which == 0 ? x : which == 1 ? y : z;
                memcpy(buf, src, sizeof buf);
                wk_status s = call_perlin(dims, which == 0 ? buf : x, which == 1 ? buf : y, which == 2 ? buf : z,
                                          n, 0, buf);
                EXPECT(s == WK_OK, "alias status");
                EXPECT_SAME(buf, ref, n, "%s perlin%d out aliasing input %d", wk_isa_name((wk_isa)isas[t]), dims,
                            which);
            }
        }
    }
    restore_state(st);
    return fails;
}

/* ----------------------------------------------------------- minmax/remap */

static void naive_minmax(const float *x, size_t n, float *mn, float *mx) {
    float lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        float v = x[i];
        if (isnan(v)) continue;
        if (v < lo || (v == lo && signbit(v) && !signbit(lo))) lo = v;
        if (v > hi || (v == hi && !signbit(v) && signbit(hi))) hi = v;
    }
    *mn = lo, *mx = hi;
}

static int minmax_all_isas(const float *x, size_t n, const char *what) {
    int fails = 0;
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    float want_lo, want_hi;
    naive_minmax(x, n, &want_lo, &want_hi);
    for (int t = 0; t < nisa; t++) {
        use_isa(isas[t]);
        float lo = 1234.0f, hi = 1234.0f;
        wk_status s = wk_minmax(x, n, &lo, &hi, NULL);
        EXPECT(s == WK_OK, "minmax status %d", (int)s);
        EXPECT(wk_bits(lo) == wk_bits(want_lo) && wk_bits(hi) == wk_bits(want_hi),
               "%s minmax %s n=%zu: (%g 0x%08x, %g 0x%08x), want (%g 0x%08x, %g 0x%08x)",
               wk_isa_name((wk_isa)isas[t]), what, n, (double)lo, (unsigned)wk_bits(lo), (double)hi,
               (unsigned)wk_bits(hi), (double)want_lo, (unsigned)wk_bits(want_lo), (double)want_hi,
               (unsigned)wk_bits(want_hi));
    }
    return fails;
}

int wk_check_minmax_isa(void) {
    int fails = 0;
    saved_state st = save_state();
    wk_rng r = {99};
    for (size_t si = 0; si < COUNT(point_sizes); si++)
        for (size_t off = 0; off <= 1; off++)
            for (int kind = 0; kind < 4; kind++) {
                size_t n = point_sizes[si];
                wk_buf b = wk_buf_new(n, off);
                for (size_t i = 0; i < n; i++) {
                    uint64_t u = wk_rng_u64(&r) % 100;
                    float v = (float)wk_rng_range(&r, -1000, 1000);
                    if (kind >= 1 && u < 10) v = NAN;
                    if (kind >= 2 && u >= 10 && u < 14) v = (u & 1) ? -0.0f : 0.0f;
                    if (kind == 3 && u >= 14 && u < 16) v = (u & 1) ? INFINITY : -INFINITY;
                    b.p[i] = v;
                }
                char what[64];
                snprintf(what, sizeof what, "random kind %d off %zu", kind, off);
                fails += minmax_all_isas(b.p, n, what);
                /* Extremes placed in the last (tail) element. */
                if (n > 0) {
                    float keep = b.p[n - 1];
                    b.p[n - 1] = -5000.0f;
                    fails += minmax_all_isas(b.p, n, "min last");
                    b.p[n - 1] = 5000.0f;
                    fails += minmax_all_isas(b.p, n, "max last");
                    b.p[n - 1] = keep;
                }
                wk_buf_free(&b);
            }
    restore_state(st);
    return fails;
}

int wk_check_minmax_semantics(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    float x[67];
    /* All NaN and empty: the identities. */
    for (size_t n = 0; n <= 67; n += (n < 20 ? 1 : 23)) {
        for (size_t i = 0; i < n; i++) x[i] = (i & 1) ? NAN : -NAN;
        for (int t = 0; t < nisa; t++) {
            use_isa(isas[t]);
            float lo = 0, hi = 0;
            EXPECT(wk_minmax(x, n, &lo, &hi, NULL) == WK_OK, "status");
            EXPECT(lo == INFINITY && hi == -INFINITY, "%s all-NaN n=%zu: (%g, %g)", wk_isa_name((wk_isa)isas[t]),
                   n, (double)lo, (double)hi);
            lo = hi = 0;
            EXPECT(wk_minmax(NULL, 0, &lo, &hi, NULL) == WK_OK, "n=0 NULL x");
            EXPECT(lo == INFINITY && hi == -INFINITY, "n=0 identities");
        }
    }
    /* -0 below +0, at every lane position. */
    for (size_t n = 1; n <= 67; n += (n < 36 ? 1 : 31))
        for (size_t p = 0; p < n; p++) {
            for (size_t i = 0; i < n; i++) x[i] = 0.0f;
            x[p] = -0.0f;
            for (int t = 0; t < nisa; t++) {
                use_isa(isas[t]);
                float lo, hi;
                wk_minmax(x, n, &lo, &hi, NULL);
                EXPECT(wk_bits(lo) == 0x80000000u && (n == 1 ? wk_bits(hi) == 0x80000000u : wk_bits(hi) == 0),
                       "%s zeros n=%zu -0 at %zu: min 0x%08x max 0x%08x", wk_isa_name((wk_isa)isas[t]), n, p,
                       (unsigned)wk_bits(lo), (unsigned)wk_bits(hi));
            }
            for (size_t i = 0; i < n; i++) x[i] = (i % 3 == 0) ? NAN : -0.0f;
            x[p] = 0.0f;
            for (int t = 0; t < nisa; t++) {
                use_isa(isas[t]);
                float lo, hi;
                wk_minmax(x, n, &lo, &hi, NULL);
                int has_neg = 0;
                for (size_t i = 0; i < n; i++) has_neg |= wk_bits(x[i]) == 0x80000000u;
                EXPECT(wk_bits(hi) == 0 && wk_bits(lo) == (has_neg ? 0x80000000u : 0u),
                       "%s zeros/NaN n=%zu +0 at %zu: min 0x%08x max 0x%08x", wk_isa_name((wk_isa)isas[t]), n, p,
                       (unsigned)wk_bits(lo), (unsigned)wk_bits(hi));
            }
            /* Single non-NaN value among NaNs. */
            for (size_t i = 0; i < n; i++) x[i] = NAN;
            x[p] = -7.5f;
            for (int t = 0; t < nisa; t++) {
                use_isa(isas[t]);
                float lo, hi;
                wk_minmax(x, n, &lo, &hi, NULL);
                EXPECT(lo == -7.5f && hi == -7.5f, "%s single value among NaN n=%zu at %zu: (%g, %g)",
                       wk_isa_name((wk_isa)isas[t]), n, p, (double)lo, (double)hi);
            }
        }
    restore_state(st);
    return fails;
}

/* ------------------------------------------------------------------ grids */

static wk_fbm make_fbm(uint32_t lat, uint32_t seed, int octaves, double freq, double lac, float gain,
                       int normalize) {
    wk_fbm f;
    memset(&f, 0, sizeof f);
    f.lattice = lat;
    f.seed = seed;
    f.octaves = octaves;
    f.frequency = freq;
    f.lacunarity = lac;
    f.gain = gain;
    f.normalize = normalize;
    return f;
}

static size_t extent2(const wk_grid2 *g) { return ((size_t)g->ny - 1) * g->stride + g->nx; }
static size_t extent3(const wk_grid3 *g) {
    return ((size_t)g->nz - 1) * g->slice_stride + ((size_t)g->ny - 1) * g->stride + g->nx;
}





/* fBm in double from noise.h's definition. */
static double fbm_double(const wk_fbm *f, int dims, const double pos[3]) {
    double freq = f->frequency, amp = 1, sum = 0, amp_sum = 0;
    for (int k = 0; k < f->octaves; k++) {
        int64_t c[3];
        double t[3];
        for (int a = 0; a < dims; a++) {
            double l = pos[a] * freq, cell = floor(l);
            c[a] = (int64_t)cell;
            t[a] = l - cell;
        }
        uint32_t seed = f->seed + (uint32_t)k;
        double v;
        if (f->lattice == WK_LATTICE_PERM)
            v = dims == 2 ? pd_perm_noise2(c[0], t[0], c[1], t[1], seed)
                          : pd_perm_noise3(c[0], t[0], c[1], t[1], c[2], t[2], seed);
        else
            v = dims == 2 ? pd_hash_noise2(c[0], t[0], c[1], t[1], seed)
                          : pd_hash_noise3(c[0], t[0], c[1], t[1], c[2], t[2], seed);
        sum += amp * v;
        amp_sum += amp;
        freq *= f->lacunarity;
        amp *= (double)f->gain;
    }
    return f->normalize ? sum / amp_sum : sum;
}

int wk_check_fbm_vs_double(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    double max_err = 0;
    for (int t = 0; t < nisa; t++) {
        use_isa(isas[t]);
        for (int lat = 0; lat <= 1; lat++)
            for (int norm = 0; norm <= 1; norm++) {
                wk_fbm f = make_fbm((uint32_t)lat, 21 + (uint32_t)norm, 3, 0.37, 1.9, 0.55f, norm);
                wk_grid2 g2 = {-1234, 567, 40, 5, 0.173, 40, {0, 0}};
                float v2[200];
                EXPECT(wk_noise_fbm2_grid(&f, &g2, v2, NULL) == WK_OK, "fbm2 status");
                for (uint32_t j = 0; j < g2.ny; j++)
                    for (uint32_t i = 0; i < g2.nx; i++) {
                        double pos[3] = {(double)(g2.i0 + i) * g2.step, (double)(g2.j0 + j) * g2.step, 0};
                        double want = fbm_double(&f, 2, pos), got = v2[j * g2.stride + i];
                        double err = fabs(got - want);
                        if (err > max_err) max_err = err;
                        EXPECT(err <= 1e-5, "%s fbm2 lattice %d norm %d (%u,%u): %.9g vs double %.12g",
                               wk_isa_name((wk_isa)isas[t]), lat, norm, (unsigned)i, (unsigned)j, got, want);
                    }
                wk_grid3 g3 = {777, -31, 4, 20, 4, 3, 0.219, 20, 80, {0, 0}};
                float v3[240];
                EXPECT(wk_noise_fbm3_grid(&f, &g3, v3, NULL) == WK_OK, "fbm3 status");
                for (uint32_t k = 0; k < g3.nz; k++)
                    for (uint32_t j = 0; j < g3.ny; j++)
                        for (uint32_t i = 0; i < g3.nx; i++) {
                            double pos[3] = {(double)(g3.i0 + i) * g3.step, (double)(g3.j0 + j) * g3.step,
                                             (double)(g3.k0 + k) * g3.step};
                            double want = fbm_double(&f, 3, pos), got = v3[k * g3.slice_stride + j * g3.stride + i];
                            double err = fabs(got - want);
                            if (err > max_err) max_err = err;
                            EXPECT(err <= 1e-5, "%s fbm3 lattice %d norm %d (%u,%u,%u): %.9g vs double %.12g",
                                   wk_isa_name((wk_isa)isas[t]), lat, norm, (unsigned)i, (unsigned)j, (unsigned)k,
                                   got, want);
                        }
            }
    }
    fprintf(stderr, "  fbm vs double: max |error| %.3g\n", max_err);
    restore_state(st);
    return fails;
}

/* Grid computed whole equals the grid computed as sub-grids. */
static int chunk2(const wk_fbm *f, const wk_grid2 *whole, int deriv, const char *what) {
    int fails = 0;
    static const uint32_t xcut[] = {0, 1, 100, 257, 300}, ycut[] = {0, 33, 64, 70};
    size_t n = extent2(whole);
    float *a[3], *b[3];
    for (int q = 0; q < 3; q++) {
        a[q] = malloc(n * sizeof(float)), b[q] = malloc(n * sizeof(float));
        for (size_t i = 0; i < n; i++) a[q][i] = b[q][i] = wk_from_bits(wk_canary_bits);
    }
    wk_status s = deriv ? wk_noise_fbm2_grid_deriv(f, whole, a[0], a[1], a[2], NULL) : wk_noise_fbm2_grid(f, whole, a[0], NULL);
    EXPECT(s == WK_OK, "%s whole status %d", what, (int)s);
    for (size_t cy = 0; cy + 1 < COUNT(ycut); cy++)
        for (size_t cx = 0; cx + 1 < COUNT(xcut); cx++) {
            wk_grid2 g = *whole;
            g.i0 += xcut[cx], g.j0 += ycut[cy];
            g.nx = xcut[cx + 1] - xcut[cx], g.ny = ycut[cy + 1] - ycut[cy];
            size_t at = (size_t)ycut[cy] * g.stride + xcut[cx];
            s = deriv ? wk_noise_fbm2_grid_deriv(f, &g, b[0] + at, b[1] + at, b[2] + at, NULL)
                      : wk_noise_fbm2_grid(f, &g, b[0] + at, NULL);
            EXPECT(s == WK_OK, "%s part status %d", what, (int)s);
        }
    for (int q = 0; q < (deriv ? 3 : 1); q++) EXPECT_SAME(b[q], a[q], n, "%s output %d", what, q);
    for (int q = 0; q < 3; q++) free(a[q]), free(b[q]);
    return fails;
}

static int chunk3(const wk_fbm *f, const wk_grid3 *whole, const char *what) {
    int fails = 0;
    static const uint32_t cut[] = {0, 1, 7, 17, 20};
    static const uint32_t xcut[] = {0, 13, 40};
    size_t n = extent3(whole);
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) a[i] = b[i] = wk_from_bits(wk_canary_bits);
    EXPECT(wk_noise_fbm3_grid(f, whole, a, NULL) == WK_OK, "%s whole status", what);
    for (size_t cz = 0; cz + 1 < COUNT(cut); cz++)
        for (size_t cy = 0; cy + 1 < COUNT(cut); cy++)
            for (size_t cx = 0; cx + 1 < COUNT(xcut); cx++) {
                wk_grid3 g = *whole;
                g.i0 += xcut[cx], g.j0 += cut[cy], g.k0 += cut[cz];
                g.nx = xcut[cx + 1] - xcut[cx], g.ny = cut[cy + 1] - cut[cy], g.nz = cut[cz + 1] - cut[cz];
                size_t at = (size_t)cut[cz] * g.slice_stride + (size_t)cut[cy] * g.stride + xcut[cx];
                EXPECT(wk_noise_fbm3_grid(f, &g, b + at, NULL) == WK_OK, "%s part status", what);
            }
    EXPECT_SAME(b, a, n, "%s", what);
    free(a), free(b);
    return fails;
}

int wk_check_grid_chunk_invariance(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    static const int64_t origins[][3] = {{0, 0, 0}, {-5000, 777, -3}, {1000000000000LL, -1000000000000LL, 1000000000000LL}};
    for (int t = 0; t < nisa; t++) {
        use_isa(isas[t]);
        for (int lat = 0; lat <= 1; lat++)
            for (size_t o = 0; o < COUNT(origins); o++) {
                char what[96];
                wk_fbm f = make_fbm((uint32_t)lat, 5, 4, 0.05, 2.0, 0.5f, 1);
                double step = o == 2 ? 0.001 : 0.37;
                wk_grid2 g = {origins[o][0], origins[o][1], 300, 70, step, 303, {0, 0}};
                snprintf(what, sizeof what, "%s chunk2 lattice %d origin %zu", wk_isa_name((wk_isa)isas[t]), lat, o);
                fails += chunk2(&f, &g, 0, what);
                snprintf(what, sizeof what, "%s chunk2 deriv lattice %d origin %zu", wk_isa_name((wk_isa)isas[t]), lat,
                         o);
                fails += chunk2(&f, &g, 1, what);
                wk_grid3 g3 = {origins[o][0], origins[o][1], origins[o][2], 40, 20, 20, step, 41, 41 * 20 + 3, {0, 0}};
                snprintf(what, sizeof what, "%s chunk3 lattice %d origin %zu", wk_isa_name((wk_isa)isas[t]), lat, o);
                fails += chunk3(&f, &g3, what);
            }
    }
    restore_state(st);
    return fails;
}

int wk_check_thread_invariance(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    static const int all_counts[] = {1, 2, 3, 0};
    size_t ncounts = sizeof all_counts / sizeof all_counts[0];
    if (wk_test_threads() == 1) {
        ncounts = 1;
        fprintf(stderr, "  note: single-thread build (emulator): thread counts 2, 3, 0 not run\n");
    }
    const int *counts = all_counts;
    const size_t np = 70000;
    float *px = malloc(np * 4), *py = malloc(np * 4), *pz = malloc(np * 4);
    wk_rng r = {8};
    for (size_t i = 0; i < np; i++) {
        px[i] = small_coordinate(&r), py[i] = small_coordinate(&r), pz[i] = small_coordinate(&r);
        if (i % 1000 == 999) px[i] = NAN;
    }
    px[12345] = -0.0f;
    px[54321] = -1e9f;
    wk_grid2 g2 = {-100, 50, 300, 120, 0.21, 300, {0, 0}};
    wk_grid3 g3 = {3, -4, 5, 64, 32, 32, 0.3, 64, 64 * 32, {0, 0}};
    size_t e2 = extent2(&g2), e3 = extent3(&g3);
    size_t sizes[6] = {e2, e3, 3 * e2, np, np, 2};
    float *ref[6], *out[6];
    for (int q = 0; q < 6; q++) ref[q] = malloc(sizes[q] * 4), out[q] = malloc(sizes[q] * 4);
    for (int t = 0; t < nisa; t++) {
        use_isa(isas[t]);
        const char *nm = wk_isa_name((wk_isa)isas[t]);
        for (int lat = 0; lat <= 1; lat++) {
            wk_fbm f = make_fbm((uint32_t)lat, 1, 3, 0.07, 2.0, 0.5f, 1);
            for (size_t c = 0; c < ncounts; c++) {
                float **dst = c == 0 ? ref : out;
                EXPECT(wk_set_threads(counts[c]) == WK_OK, "set threads");
                EXPECT(wk_noise_fbm2_grid(&f, &g2, dst[0], NULL) == WK_OK, "fbm2");
                EXPECT(wk_noise_fbm3_grid(&f, &g3, dst[1], NULL) == WK_OK, "fbm3");
                EXPECT(wk_noise_fbm2_grid_deriv(&f, &g2, dst[2], dst[2] + e2, dst[2] + 2 * e2, NULL) == WK_OK, "deriv");
                if (c == 0) continue;
                EXPECT_SAME(out[0], ref[0], sizes[0], "%s fbm2 threads %d vs 1, lattice %d", nm, counts[c], lat);
                EXPECT_SAME(out[1], ref[1], sizes[1], "%s fbm3 threads %d vs 1, lattice %d", nm, counts[c], lat);
                EXPECT_SAME(out[2], ref[2], sizes[2], "%s deriv threads %d vs 1, lattice %d", nm, counts[c], lat);
            }
        }
        for (size_t c = 0; c < ncounts; c++) {
            float **dst = c == 0 ? ref : out;
            EXPECT(wk_set_threads(counts[c]) == WK_OK, "set threads");
            EXPECT(wk_noise_perlin3(px, py, pz, np, 77, dst[3], NULL) == WK_OK, "perlin3");
            EXPECT(wk_remap(px, np, -300, 300, 0, 1, dst[4], NULL) == WK_OK, "remap");
            EXPECT(wk_minmax(px, np, &dst[5][0], &dst[5][1], NULL) == WK_OK, "minmax");
            if (c == 0) continue;
            EXPECT_SAME(out[3], ref[3], np, "%s perlin3 threads %d vs 1", nm, counts[c]);
            EXPECT_SAME(out[4], ref[4], np, "%s remap threads %d vs 1", nm, counts[c]);
            EXPECT_SAME(out[5], ref[5], 2, "%s minmax threads %d vs 1", nm, counts[c]);
        }
        EXPECT(wk_bits(ref[5][0]) == wk_bits(-1e9f), "%s minmax min %g", nm, (double)ref[5][0]);
    }
    for (int q = 0; q < 6; q++) free(ref[q]), free(out[q]);
    free(px), free(py), free(pz);
    restore_state(st);
    return fails;
}

/* A 1-octave frequency-1 PERM grid equals perlin2/3 at the same positions. */
int wk_check_grid_equals_perlin(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    enum { NX = 100, NY = 6, NZ = 4 };
    static float gx[NX * NY * NZ], gy[NX * NY * NZ], gz[NX * NY * NZ], grid[NX * NY * NZ], pts[NX * NY * NZ];
    static const uint32_t seeds[] = {0, 5};
    for (int t = 0; t < nisa; t++) {
        use_isa(isas[t]);
        const char *nm = wk_isa_name((wk_isa)isas[t]);
        for (size_t sd = 0; sd < COUNT(seeds); sd++)
            for (int norm = 0; norm <= 1; norm++) {
                wk_fbm f = make_fbm(WK_LATTICE_PERM, seeds[sd], 1, 1.0, 2.0, 0.5f, norm);
                wk_grid2 g2 = {-40, -3, NX, NY, 0.125, NX, {0, 0}};
                wk_grid3 g3 = {-40, -3, 2037, NX, NY, NZ, 0.125, NX, NX * NY, {0, 0}};
                for (int dims = 2; dims <= 3; dims++) {
                    size_t n = dims == 2 ? NX * NY : NX * NY * NZ;
                    for (size_t a = 0; a < n; a++) {
                        size_t i = a % NX, j = (a / NX) % NY, k = a / (NX * NY);
                        gx[a] = (float)((double)(g3.i0 + (int64_t)i) * 0.125);
                        gy[a] = (float)((double)(g3.j0 + (int64_t)j) * 0.125);
                        gz[a] = (float)((double)(g3.k0 + (int64_t)k) * 0.125);
                    }
                    wk_status s = dims == 2 ? wk_noise_fbm2_grid(&f, &g2, grid, NULL) : wk_noise_fbm3_grid(&f, &g3, grid, NULL);
                    EXPECT(s == WK_OK, "grid status");
                    EXPECT(call_perlin(dims, gx, gy, gz, n, seeds[sd], pts) == WK_OK, "perlin status");
                    size_t differ = 0;
                    float worst = 0;
                    for (size_t a = 0; a < n; a++) {
                        float d = fabsf(grid[a] - pts[a]);
                        if (wk_bits(grid[a]) != wk_bits(pts[a])) differ++;
                        if (d > worst) worst = d;
                        EXPECT(d <= 2e-6f, "%s %dD grid vs perlin at %zu: %.9g vs %.9g", nm, dims, a, (double)grid[a],
                               (double)pts[a]);
                    }
                    if (differ)
                        fprintf(stderr, "  note: %s %dD seed %u: grid and perlin%d not bit-identical at %zu of %zu "
                                        "(max |diff| %.3g)\n",
                                nm, dims, (unsigned)seeds[sd], dims, differ, n, (double)worst);
                }
            }
    }
    restore_state(st);
    return fails;
}

static int cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int wk_check_grid_smooth_far(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    enum { N = 1000 };
    static float v[N], sorted[N];
    for (int t = 0; t < nisa; t++) {
        use_isa(isas[t]);
        const char *nm = wk_isa_name((wk_isa)isas[t]);
        for (int lat = 0; lat <= 1; lat++)
            for (int dims = 2; dims <= 3; dims++) {
                wk_fbm f = make_fbm((uint32_t)lat, 0, 1, 1.0, 2.0, 0.5f, 0);
                wk_grid2 g2 = {100000000, 12345, N, 1, 0.01, N, {0, 0}};
                wk_grid3 g3 = {100000000, 12345, -777, N, 1, 1, 0.01, N, N, {0, 0}};
                wk_status s = dims == 2 ? wk_noise_fbm2_grid(&f, &g2, v, NULL) : wk_noise_fbm3_grid(&f, &g3, v, NULL);
                EXPECT(s == WK_OK, "status %d", (int)s);
                memcpy(sorted, v, sizeof v);
                qsort(sorted, N, sizeof(float), cmp_float);
                /* Distinct values overall: cells whose corner gradients match give exactly
                 * the same values at the same (float) fractions, so a correct implementation
                 * repeats some values; a float position (spacing 0.0625 at 1e6) would give
                 * only about 160. Neighbours must (almost) always differ: no staircase. */
                int distinct = 1, changes = 0;
                for (int i = 1; i < N; i++) distinct += sorted[i] != sorted[i - 1];
                for (int i = 1; i < N; i++) changes += v[i] != v[i - 1];
                float jump = 0;
                for (int i = 1; i < N; i++) {
                    float d = fabsf(v[i] - v[i - 1]);
                    if (!(d <= jump)) jump = d; /* NaN counts as a jump */
                }
                EXPECT(distinct >= 900, "%s %dD lattice %d at x=1e6: only %d distinct values of %d", nm, dims, lat,
                       distinct, N);
                EXPECT(changes >= 990, "%s %dD lattice %d at x=1e6: only %d of %d neighbours differ", nm, dims, lat,
                       changes, N - 1);
                EXPECT(jump <= 0.05f, "%s %dD lattice %d at x=1e6: jump %g between neighbours", nm, dims, lat,
                       (double)jump);
            }
    }
    restore_state(st);
    return fails;
}

int wk_check_deriv_finite_differences(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    enum { NX = 400, NY = 3 };
    static float v[NX * NY], dx[NX * NY], dy[NX * NY];
    const double h = 1e-3;
    static const int64_t origins[][2] = {{12345, -6789}, {100000000, 3}};
    for (int t = 0; t < nisa; t++) {
        use_isa(isas[t]);
        const char *nm = wk_isa_name((wk_isa)isas[t]);
        for (int lat = 0; lat <= 1; lat++)
            for (int norm = 0; norm <= 1; norm++)
                for (size_t o = 0; o < COUNT(origins); o++) {
                    wk_fbm f = make_fbm((uint32_t)lat, 9, 3, 0.7, 2.0, 0.5f, norm);
                    wk_grid2 g = {origins[o][0], origins[o][1], NX, NY, h, NX, {0, 0}};
                    EXPECT(wk_noise_fbm2_grid_deriv(&f, &g, v, dx, dy, NULL) == WK_OK, "deriv status");
                    double scale = 1;
                    /* (Plain comparisons: an fmax reduction here crashes aarch64 GCC 12's vectorizer.) */
                    for (int i = 0; i < NX * NY; i++) {
                        double a = fabs((double)dx[i]), b = fabs((double)dy[i]);
                        if (a > scale) scale = a;
                        if (b > scale) scale = b;
                    }
                    double worst = 0;
                    for (int i = 1; i + 1 < NX; i++) {
                        double fdx = ((double)v[NX + i + 1] - v[NX + i - 1]) / (2 * h);
                        double fdy = ((double)v[2 * NX + i] - v[i]) / (2 * h);
                        double ex = fabs(fdx - dx[NX + i]), ey = fabs(fdy - dy[NX + i]);
                        worst = fmax(worst, fmax(ex, ey));
                        EXPECT(ex <= 1e-2 * scale, "%s lattice %d norm %d origin %zu i=%d: ddx %.6g, finite diff %.6g",
                               nm, lat, norm, o, i, (double)dx[NX + i], fdx);
                        EXPECT(ey <= 1e-2 * scale, "%s lattice %d norm %d origin %zu i=%d: ddy %.6g, finite diff %.6g",
                               nm, lat, norm, o, i, (double)dy[NX + i], fdy);
                    }
                    if (t == 0 && lat == 0 && norm == 0 && o == 0)
                        fprintf(stderr, "  deriv vs finite differences: worst %.3g (scale %.3g)\n", worst, scale);
                }
    }
    restore_state(st);
    return fails;
}

/* ------------------------------------------------------------- bad input */

#define EXPECT_STATUS(call, want, buf, ...)                                                        \
    do {                                                                                           \
        wk_status got_ = (call);                                                                   \
        if (got_ != (want)) {                                                                      \
            char what_[160];                                                                       \
            snprintf(what_, sizeof what_, __VA_ARGS__);                                            \
            FAIL("%s: status %d (%s), want %d (%s)", what_, (int)got_, wk_status_str(got_), (int)(want), \
                 wk_status_str(want));                                                             \
        }                                                                                          \
        if (!wk_buf_all_canary(buf)) FAIL("%s: output touched on error", #call);        \
    } while (0)

int wk_check_bad_points(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    float x[8] = {0.5f, 1, 2, 3, 4, 5, 6, 7}, y[8] = {0}, z[8] = {0};
    for (int t = 0; t < nisa; t++) {
        use_isa(isas[t]);
        wk_buf o = wk_buf_new(8, 1);
        EXPECT_STATUS(wk_noise_perlin2(NULL, y, 8, 0, o.p, NULL), WK_ERR_NULL, &o, "perlin2 x NULL");
        EXPECT_STATUS(wk_noise_perlin2(x, NULL, 8, 0, o.p, NULL), WK_ERR_NULL, &o, "perlin2 y NULL");
        EXPECT_STATUS(wk_noise_perlin2(x, y, 8, 0, NULL, NULL), WK_ERR_NULL, &o, "perlin2 out NULL");
        EXPECT_STATUS(wk_noise_perlin3(NULL, y, z, 8, 0, o.p, NULL), WK_ERR_NULL, &o, "perlin3 x NULL");
        EXPECT_STATUS(wk_noise_perlin3(x, NULL, z, 8, 0, o.p, NULL), WK_ERR_NULL, &o, "perlin3 y NULL");
        EXPECT_STATUS(wk_noise_perlin3(x, y, NULL, 8, 0, o.p, NULL), WK_ERR_NULL, &o, "perlin3 z NULL");
        EXPECT_STATUS(wk_noise_perlin3(x, y, z, 8, 0, NULL, NULL), WK_ERR_NULL, &o, "perlin3 out NULL");
        EXPECT_STATUS(wk_noise_perlin2(x, y, SIZE_MAX / 2, 0, o.p, NULL), WK_ERR_OVERFLOW, &o, "perlin2 n overflow");
        EXPECT_STATUS(wk_noise_perlin3(x, y, z, SIZE_MAX, 0, o.p, NULL), WK_ERR_OVERFLOW, &o, "perlin3 n overflow");
        EXPECT_STATUS(wk_noise_perlin2(NULL, NULL, 0, 0, NULL, NULL), WK_OK, &o, "perlin2 n=0 NULL");
        EXPECT_STATUS(wk_noise_perlin3(NULL, NULL, NULL, 0, 0, NULL, NULL), WK_OK, &o, "perlin3 n=0 NULL");
        EXPECT_STATUS(wk_noise_perlin3(x, y, z, 0, 0, o.p, NULL), WK_OK, &o, "perlin3 n=0");
        wk_buf_free(&o);
    }
    restore_state(st);
    return fails;
}

int wk_check_bad_minmax(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    float x[8] = {0.5f, 1, 2, 3, 4, 5, 6, 7};
    for (int t = 0; t < nisa; t++) {
        use_isa(isas[t]);
        wk_buf mm = wk_buf_new(2, 0);
        EXPECT_STATUS(wk_minmax(NULL, 8, &mm.p[0], &mm.p[1], NULL), WK_ERR_NULL, &mm, "minmax x NULL");
        EXPECT_STATUS(wk_minmax(x, 8, NULL, &mm.p[1], NULL), WK_ERR_NULL, &mm, "minmax min NULL");
        EXPECT_STATUS(wk_minmax(x, 8, &mm.p[0], NULL, NULL), WK_ERR_NULL, &mm, "minmax max NULL");
        EXPECT_STATUS(wk_minmax(x, 0, NULL, NULL, NULL), WK_ERR_NULL, &mm, "minmax n=0 outputs NULL");
        wk_buf_free(&mm);

    }
    restore_state(st);
    return fails;
}

/* One bad-input case for all three grid functions. */
typedef struct grid_case {
    const char *what;
    wk_fbm f;
    wk_grid2 g2;
    wk_grid3 g3;
    wk_status want;
} grid_case;

static int run_grid_case(const grid_case *c, wk_buf *o, wk_buf *dx, wk_buf *dy, int which) {
    int fails = 0;
    /* which: 0 all, 1 only 2D ones, 2 only 3D */
    if (which != 2) {
        EXPECT_STATUS(wk_noise_fbm2_grid(&c->f, &c->g2, o->p, NULL), c->want, o, "fbm2 %s", c->what);
        EXPECT_STATUS(wk_noise_fbm2_grid_deriv(&c->f, &c->g2, o->p, dx->p, dy->p, NULL), c->want, o, "deriv %s", c->what);
        EXPECT(wk_buf_all_canary(dx) && wk_buf_all_canary(dy), "deriv %s touched ddx/ddy", c->what);
    }
    if (which != 1) EXPECT_STATUS(wk_noise_fbm3_grid(&c->f, &c->g3, o->p, NULL), c->want, o, "fbm3 %s", c->what);
    return fails;
}

int wk_check_bad_grids(void) {
    int fails = 0;
    saved_state st = save_state();
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    const wk_fbm good = make_fbm(WK_LATTICE_PERM, 1, 3, 0.1, 2.0, 0.5f, 1);
    const wk_grid2 g2 = {0, 0, 17, 5, 0.5, 20, {0, 0}};
    const wk_grid3 g3 = {0, 0, 0, 17, 5, 2, 0.5, 20, 100, {0, 0}};
    const size_t n = extent3(&g3); /* >= extent2(&g2) */
    for (int t = 0; t < nisa; t++) {
        use_isa(isas[t]);
        wk_buf o = wk_buf_new(n, 1), dx = wk_buf_new(n, 0), dy = wk_buf_new(n, 0);
        /* Sanity: the good setup works (then restore the canaries). */
        EXPECT(wk_noise_fbm2_grid(&good, &g2, o.p, NULL) == WK_OK, "good fbm2");
        EXPECT(wk_noise_fbm3_grid(&good, &g3, o.p, NULL) == WK_OK, "good fbm3");
        wk_buf_fill_canary(&o);

        /* NULL pointers. */
        EXPECT_STATUS(wk_noise_fbm2_grid(NULL, &g2, o.p, NULL), WK_ERR_NULL, &o, "fbm2 f NULL");
        EXPECT_STATUS(wk_noise_fbm2_grid(&good, NULL, o.p, NULL), WK_ERR_NULL, &o, "fbm2 g NULL");
        EXPECT_STATUS(wk_noise_fbm2_grid(&good, &g2, NULL, NULL), WK_ERR_NULL, &o, "fbm2 out NULL");
        EXPECT_STATUS(wk_noise_fbm3_grid(NULL, &g3, o.p, NULL), WK_ERR_NULL, &o, "fbm3 f NULL");
        EXPECT_STATUS(wk_noise_fbm3_grid(&good, NULL, o.p, NULL), WK_ERR_NULL, &o, "fbm3 g NULL");
        EXPECT_STATUS(wk_noise_fbm3_grid(&good, &g3, NULL, NULL), WK_ERR_NULL, &o, "fbm3 out NULL");
        EXPECT_STATUS(wk_noise_fbm2_grid_deriv(NULL, &g2, o.p, dx.p, dy.p, NULL), WK_ERR_NULL, &o, "deriv f NULL");
        EXPECT_STATUS(wk_noise_fbm2_grid_deriv(&good, NULL, o.p, dx.p, dy.p, NULL), WK_ERR_NULL, &o, "deriv g NULL");
        EXPECT_STATUS(wk_noise_fbm2_grid_deriv(&good, &g2, NULL, dx.p, dy.p, NULL), WK_ERR_NULL, &dx, "deriv value NULL");
        EXPECT_STATUS(wk_noise_fbm2_grid_deriv(&good, &g2, o.p, NULL, dy.p, NULL), WK_ERR_NULL, &o, "deriv ddx NULL");
        EXPECT_STATUS(wk_noise_fbm2_grid_deriv(&good, &g2, o.p, dx.p, NULL, NULL), WK_ERR_NULL, &o, "deriv ddy NULL");
        EXPECT(wk_buf_all_canary(&dx) && wk_buf_all_canary(&dy), "deriv NULL cases touched ddx/ddy");

        /* Empty grids: no-op, NULL outputs allowed. */
        {
            wk_grid2 e2 = g2;
            wk_grid3 e3 = g3;
            e2.nx = 0;
            EXPECT_STATUS(wk_noise_fbm2_grid(&good, &e2, NULL, NULL), WK_OK, &o, "fbm2 nx=0");
            EXPECT_STATUS(wk_noise_fbm2_grid_deriv(&good, &e2, NULL, NULL, NULL, NULL), WK_OK, &o, "deriv nx=0");
            e2 = g2, e2.ny = 0;
            EXPECT_STATUS(wk_noise_fbm2_grid(&good, &e2, o.p, NULL), WK_OK, &o, "fbm2 ny=0");
            e3.nz = 0;
            EXPECT_STATUS(wk_noise_fbm3_grid(&good, &e3, NULL, NULL), WK_OK, &o, "fbm3 nz=0");
            e3 = g3, e3.nx = 0;
            EXPECT_STATUS(wk_noise_fbm3_grid(&good, &e3, o.p, NULL), WK_OK, &o, "fbm3 nx=0");
        }

        grid_case c;
#define CASE(label, want_status, edit)                 \
    do {                                               \
        c.what = label;                                \
        c.f = good, c.g2 = g2, c.g3 = g3;              \
        c.want = want_status;                          \
        edit;                                          \
        fails += run_grid_case(&c, &o, &dx, &dy, 0);   \
    } while (0)
        CASE("octaves 0", WK_ERR_INVALID_ARG, c.f.octaves = 0);
        CASE("octaves 17", WK_ERR_INVALID_ARG, c.f.octaves = 17);
        CASE("octaves -1", WK_ERR_INVALID_ARG, c.f.octaves = -1);
        CASE("lattice 2", WK_ERR_INVALID_ARG, c.f.lattice = (uint32_t)2);
        CASE("lattice -1", WK_ERR_INVALID_ARG, c.f.lattice = (uint32_t)-1);
        static const double nonfinite[] = {NAN, INFINITY, -INFINITY};
        static const double nonpositive[] = {0.0, -0.0, -1.0, -1e-300};
        for (size_t i = 0; i < COUNT(nonfinite); i++) {
            CASE("step not finite", WK_ERR_NOT_FINITE, (c.g2.step = c.g3.step = nonfinite[i]));
            CASE("frequency not finite", WK_ERR_NOT_FINITE, c.f.frequency = nonfinite[i]);
            CASE("lacunarity not finite", WK_ERR_NOT_FINITE, c.f.lacunarity = nonfinite[i]);
            CASE("gain not finite", WK_ERR_NOT_FINITE, c.f.gain = (float)nonfinite[i]);
        }
        for (size_t i = 0; i < COUNT(nonpositive); i++) {
            CASE("step <= 0", WK_ERR_INVALID_ARG, (c.g2.step = c.g3.step = nonpositive[i]));
            CASE("frequency <= 0", WK_ERR_INVALID_ARG, c.f.frequency = nonpositive[i]);
            CASE("lacunarity <= 0", WK_ERR_INVALID_ARG, c.f.lacunarity = nonpositive[i]);
        }
        CASE("normalize, gains sum to 0 (gain -1, 2 octaves)", WK_ERR_INVALID_ARG,
             (c.f.gain = -1.0f, c.f.octaves = 2));
        CASE("normalize, gains sum to 0 (gain -1, 4 octaves)", WK_ERR_INVALID_ARG,
             (c.f.gain = -1.0f, c.f.octaves = 4));
        CASE("stride < nx", WK_ERR_STRIDE, (c.g2.stride = 16, c.g3.stride = 16, c.g3.slice_stride = 1000));
        CASE("i0 = INT64_MAX", WK_ERR_OVERFLOW, (c.g2.i0 = INT64_MAX, c.g3.i0 = INT64_MAX));
        CASE("i0 = INT64_MAX - 16", WK_ERR_OVERFLOW, (c.g2.i0 = INT64_MAX - 16, c.g3.i0 = INT64_MAX - 16));
        CASE("i0 = INT64_MIN", WK_ERR_OVERFLOW, (c.g2.i0 = INT64_MIN, c.g3.i0 = INT64_MIN));
        CASE("j0 = INT64_MAX - 4", WK_ERR_OVERFLOW, (c.g2.j0 = INT64_MAX - 4, c.g3.j0 = INT64_MAX - 4));
        CASE("j0 = INT64_MIN", WK_ERR_OVERFLOW, (c.g2.j0 = INT64_MIN, c.g3.j0 = INT64_MIN));
        CASE("i0 + nx past 2^53", WK_ERR_OVERFLOW,
             (c.g2.i0 = ((int64_t)1 << 53) - 10, c.g3.i0 = ((int64_t)1 << 53) - 10));
        CASE("i0 below -2^53", WK_ERR_OVERFLOW, (c.g2.i0 = -((int64_t)1 << 53) - 1, c.g3.i0 = -((int64_t)1 << 53) - 1));
        CASE("step 1e300 (huge coordinates)", WK_ERR_OVERFLOW, (c.g2.step = c.g3.step = 1e300, c.g2.i0 = c.g3.i0 = 1));
        CASE("frequency 1e300", WK_ERR_OVERFLOW, (c.f.frequency = 1e300, c.g2.j0 = c.g3.j0 = -1));
        CASE("lattice coordinate past 2^62", WK_ERR_OVERFLOW,
             (c.g2.step = c.g3.step = 0x1p62, c.f.frequency = 1.0, c.g2.i0 = c.g3.i0 = 1));
        c.what = "ny = UINT32_MAX, stride = SIZE_MAX/8";
        c.f = good, c.g2 = g2, c.g3 = g3, c.want = WK_ERR_OVERFLOW;
        c.g2.ny = UINT32_MAX, c.g2.stride = SIZE_MAX / 8;
        c.g3.ny = UINT32_MAX, c.g3.stride = SIZE_MAX / 8, c.g3.slice_stride = SIZE_MAX / 4;
        fails += run_grid_case(&c, &o, &dx, &dy, 0);
        /* 3D only. */
        c.what = "slice_stride too small";
        c.f = good, c.g3 = g3, c.want = WK_ERR_STRIDE;
        c.g3.slice_stride = (size_t)(g3.ny - 1) * g3.stride + g3.nx - 1;
        fails += run_grid_case(&c, &o, &dx, &dy, 2);
        c.what = "nz = UINT32_MAX, slice_stride = SIZE_MAX/8";
        c.g3 = g3, c.want = WK_ERR_OVERFLOW;
        c.g3.nz = UINT32_MAX, c.g3.slice_stride = SIZE_MAX / 8;
        fails += run_grid_case(&c, &o, &dx, &dy, 2);
        c.what = "k0 = INT64_MAX";
        c.g3 = g3, c.g3.k0 = INT64_MAX;
        fails += run_grid_case(&c, &o, &dx, &dy, 2);
        c.what = "k0 = INT64_MIN";
        c.g3 = g3, c.g3.k0 = INT64_MIN;
        fails += run_grid_case(&c, &o, &dx, &dy, 2);
        /* Amplitudes overflowing float: an error (noise.h does not say which), output untouched. */
        {
            wk_fbm f = good;
            f.gain = 1e30f;
            f.octaves = 4;
            wk_status s = wk_noise_fbm2_grid(&f, &g2, o.p, NULL);
            EXPECT(s != WK_OK && wk_buf_all_canary(&o), "gain 1e30 x 4 octaves: status %d, untouched %d", (int)s,
                   wk_buf_all_canary(&o));
        }
        wk_buf_free(&o), wk_buf_free(&dx), wk_buf_free(&dy);
    }
    restore_state(st);
    return fails;
}
