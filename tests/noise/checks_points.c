/* fBm at points (wk_noise_fbm2_points / wk_noise_fbm3_points): every ISA
 * against the scalar reference through the shared harness, points against
 * the grids bit for bit (huge origins included), bad input, and the 2^53
 * rule for grids and points. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wk_checks.h"
#include "worldkern/noise.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static wk_fbm fbm_of(uint32_t lattice, uint32_t seed, int octaves, double freq, double lac, float gain) {
    wk_fbm f;
    memset(&f, 0, sizeof f);
    f.lattice = lattice;
    f.seed = seed;
    f.octaves = octaves;
    f.frequency = freq;
    f.lacunarity = lac;
    f.gain = gain;
    f.normalize = 1;
    return f;
}

/* One points case: n positions of a grid's samples, in grid order. */
typedef struct pts_case {
    wk_fbm f;
    int dims;
    size_t n;
    double *x, *y, *z;
} pts_case;

/* split 1: two calls cut at an odd place; split 2: one point per call for
 * the first 9 points, then the rest. */
static int run_points(void *ctx, const wk_exec *exec, uint32_t split, void *out_v) {
    const pts_case *c = ctx;
    float *out = out_v;
    size_t cuts[12], ncut = 0;
    if (split == 1 && c->n > 3) cuts[ncut++] = c->n / 2 + 1;
    if (split == 2)
        for (size_t i = 1; i < 10 && i < c->n; i++) cuts[ncut++] = i;
    cuts[ncut++] = c->n;
    size_t at = 0;
    for (size_t k = 0; k < ncut; k++) {
        size_t m = cuts[k] - at;
        wk_status s = c->dims == 2 ? wk_noise_fbm2_points(&c->f, c->x + at, c->y + at, m, out + at, exec)
                                   : wk_noise_fbm3_points(&c->f, c->x + at, c->y + at, c->z + at, m, out + at, exec);
        if (s != WK_OK) return s;
        at = cuts[k];
    }
    return WK_OK;
}

typedef struct origin { int64_t i0, j0, k0; double step; } origin;

static const origin origins[] = {
    {0, 0, 0, 1.0},
    {-37, 11, 5, 0.731},
    {-1000003, 5, -77, 0.0625},
    {(int64_t)1 << 40, -((int64_t)1 << 41) + 3, 12345678901LL, 1.0 / 64},
    {((int64_t)1 << 52) - 1000, -(((int64_t)1 << 52) - 7), ((int64_t)1 << 50) + 1, 1.0 / 128},
    {3000000000000LL, -2999999999999LL, 7, 0.37},
};

int wk_check_points_equal_grid(void) {
    int fails = 0;
    const uint32_t nx = 37, ny = 5, nz = 3;
    for (int lat = 0; lat <= 1; lat++)
        for (size_t oi = 0; oi < COUNT(origins); oi++)
            for (int dims = 2; dims <= 3; dims++) {
                const origin *o = &origins[oi];
                /* octaves 6, lacunarity 2: the top octave's coordinate stays < 2^53 for every origin */
                wk_fbm f = oi & 1 ? fbm_of((uint32_t)lat, 1337, 6, 1.0 / 64, 2.0, 0.5f)
                                  : fbm_of((uint32_t)lat, 0xFFFFFFFEu, 3, 0.3, 1.93, -0.6f);
                size_t n = (size_t)nx * ny * (dims == 3 ? nz : 1);
                float *grid = malloc(n * sizeof *grid);
                pts_case c = {f, dims, n, malloc(n * sizeof(double)), malloc(n * sizeof(double)),
                              malloc(n * sizeof(double))};
                wk_exec scalar = wk_exec_for(WK_ISA_SCALAR, 1);
                wk_status s;
                if (dims == 2) {
                    wk_grid2 g = {o->i0, o->j0, nx, ny, o->step, nx, {0, 0}};
                    s = wk_noise_fbm2_grid(&f, &g, grid, &scalar);
                } else {
                    wk_grid3 g = {o->i0, o->j0, o->k0, nx, ny, nz, o->step, nx, (size_t)nx * ny, {0, 0}};
                    s = wk_noise_fbm3_grid(&f, &g, grid, &scalar);
                }
                EXPECT(s == WK_OK, "grid %dD origin %zu status %d (%s)", dims, oi, (int)s, wk_last_error_detail());
                for (size_t a = 0; a < n; a++) {
                    size_t i = a % nx, j = a / nx % ny, k = a / ((size_t)nx * ny);
                    c.x[a] = (double)(o->i0 + (int64_t)i) * o->step;
                    c.y[a] = (double)(o->j0 + (int64_t)j) * o->step;
                    c.z[a] = (double)(o->k0 + (int64_t)k) * o->step;
                }
                char what[128];
                snprintf(what, sizeof what, "fbm%d_points lattice %d origin %zu", dims, lat, oi);
                wk_harness h = {what, run_points, &c, n * sizeof(float), 3};
                fails += wk_harness_compare(&h);
                float *pts = malloc(n * sizeof *pts);
                s = (wk_status)run_points(&c, &scalar, 0, pts);
                EXPECT(s == WK_OK, "%s: status %d", what, (int)s);
                for (size_t a = 0; a < n; a++)
                    if (wk_bits(pts[a]) != wk_bits(grid[a])) {
                        FAIL("%s: point %zu (%.17g, %.17g) = %.9g, grid sample %.9g", what, a, c.x[a], c.y[a],
                             (double)pts[a], (double)grid[a]);
                        break;
                    }
                /* Not all zeros: far origins still have fractions. */
                int nonzero = 0;
                for (size_t a = 0; a < n; a++) nonzero += pts[a] != 0.0f;
                EXPECT(nonzero > (int)n / 2, "%s: only %d of %zu samples nonzero", what, nonzero, n);
                free(pts), free(grid), free(c.x), free(c.y), free(c.z);
            }
    return fails;
}

/* Random positions (not on a grid) and sizes 0..W+1, 31, 1000: every ISA
 * against the scalar reference. */
int wk_check_points_isa_random(void) {
    int fails = 0;
    static const size_t sizes[] = {0, 1, 7, 8, 9, 15, 16, 17, 31, 257, 1000, 5000};
    wk_rng r = {99};
    for (int lat = 0; lat <= 1; lat++)
        for (int dims = 2; dims <= 3; dims++)
            for (size_t si = 0; si < COUNT(sizes); si++) {
                size_t n = sizes[si];
                pts_case c = {fbm_of((uint32_t)lat, (uint32_t)si * 77u, 1 + (int)(si % 5), 0.07, 2.1, 0.55f), dims, n,
                              malloc((n + 1) * sizeof(double)), malloc((n + 1) * sizeof(double)),
                              malloc((n + 1) * sizeof(double))};
                for (size_t a = 0; a < n; a++) {
                    double scale = (a % 3 == 0) ? 1e9 : (a % 3 == 1) ? 300.0 : 3.0;
                    c.x[a] = wk_rng_range(&r, -scale, scale);
                    c.y[a] = wk_rng_range(&r, -scale, scale);
                    c.z[a] = a % 7 == 0 ? floor(c.x[a]) : wk_rng_range(&r, -scale, scale);
                }
                char what[96];
                snprintf(what, sizeof what, "fbm%d_points random lattice %d n %zu", dims, lat, n);
                wk_harness h = {what, run_points, &c, (n ? n : 1) * sizeof(float), n ? 3 : 1};
                if (n == 0) { /* nothing written: compare the untouched buffer */
                    h.out_bytes = 4;
                }
                fails += wk_harness_compare(&h);
                free(c.x), free(c.y), free(c.z);
            }
    return fails;
}

#define EXPECT_PTS(call, want, buf, ...)                                                            \
    do {                                                                                           \
        wk_status got_ = (call);                                                                   \
        if (got_ != (want)) {                                                                      \
            char what_[160];                                                                       \
            snprintf(what_, sizeof what_, __VA_ARGS__);                                            \
            FAIL("%s: status %d (%s), want %d; detail %s", what_, (int)got_, wk_status_str(got_),   \
                 (int)(want), wk_last_error_detail());                                             \
        }                                                                                          \
        if (!wk_buf_all_canary(buf)) FAIL("%s: output touched on error", #call);                   \
    } while (0)

int wk_check_bad_fbm_points(void) {
    int fails = 0;
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    const wk_fbm good = fbm_of(WK_LATTICE_HASH, 3, 4, 0.5, 2.0, 0.5f);
    double x[9] = {0.5, 1, 2, 3, 4, 5, 6, 7, 8}, y[9] = {0}, z[9] = {0};
    for (int t = 0; t < nisa; t++) {
        wk_exec e = wk_exec_for(isas[t], 0);
        wk_buf o = wk_buf_new(9, 1);
        wk_buf_fill_canary(&o);
        EXPECT_PTS(wk_noise_fbm2_points(NULL, x, y, 9, o.p, &e), WK_ERR_NULL, &o, "f NULL");
        EXPECT_PTS(wk_noise_fbm2_points(&good, NULL, y, 9, o.p, &e), WK_ERR_NULL, &o, "x NULL");
        EXPECT_PTS(wk_noise_fbm2_points(&good, x, NULL, 9, o.p, &e), WK_ERR_NULL, &o, "y NULL");
        EXPECT_PTS(wk_noise_fbm2_points(&good, x, y, 9, NULL, &e), WK_ERR_NULL, &o, "out NULL");
        EXPECT_PTS(wk_noise_fbm3_points(&good, x, y, NULL, 9, o.p, &e), WK_ERR_NULL, &o, "z NULL");
        EXPECT_PTS(wk_noise_fbm2_points(&good, NULL, NULL, 0, NULL, &e), WK_OK, &o, "n 0");
        EXPECT_PTS(wk_noise_fbm3_points(&good, NULL, NULL, NULL, 0, NULL, &e), WK_OK, &o, "n 0 3D");
        EXPECT_PTS(wk_noise_fbm2_points(&good, x, y, SIZE_MAX / 4, o.p, &e), WK_ERR_OVERFLOW, &o, "n huge");
        wk_fbm bad = good;
        bad.octaves = 0;
        EXPECT_PTS(wk_noise_fbm2_points(&bad, x, y, 9, o.p, &e), WK_ERR_INVALID_ARG, &o, "octaves 0");
        bad = good, bad.reserved[5] = 1;
        EXPECT_PTS(wk_noise_fbm3_points(&bad, x, y, z, 9, o.p, &e), WK_ERR_INVALID_ARG, &o, "reserved");
        bad = good, bad.frequency = NAN;
        EXPECT_PTS(wk_noise_fbm2_points(&bad, x, y, 9, o.p, &e), WK_ERR_NOT_FINITE, &o, "frequency NaN");
        static const double specials[] = {NAN, INFINITY, -INFINITY};
        for (size_t s = 0; s < COUNT(specials); s++) {
            double keep = x[8];
            x[8] = specials[s];
            EXPECT_PTS(wk_noise_fbm2_points(&good, x, y, 9, o.p, &e), WK_ERR_NOT_FINITE, &o, "x[8] %g", specials[s]);
            EXPECT_PTS(wk_noise_fbm3_points(&good, y, z, x, 9, o.p, &e), WK_ERR_NOT_FINITE, &o, "z[8] %g", specials[s]);
            x[8] = keep;
        }
        /* 2^53: frequency 0.5, 4 octaves (top frequency 4): |x| = 2^51 reaches it, just below does not. */
        {
            double keep = x[3];
            x[3] = 0x1p51;
            EXPECT_PTS(wk_noise_fbm2_points(&good, x, y, 9, o.p, &e), WK_ERR_OVERFLOW, &o, "x = 2^51 (2^53 at top)");
            EXPECT(strstr(wk_last_error_detail(), "2^53") != NULL, "detail names 2^53: %s", wk_last_error_detail());
            x[3] = -0x1p51;
            EXPECT_PTS(wk_noise_fbm3_points(&good, y, x, z, 9, o.p, &e), WK_ERR_OVERFLOW, &o, "y = -2^51");
            x[3] = nextafter(0x1p51, 0);
            EXPECT(wk_noise_fbm2_points(&good, x, y, 9, o.p, &e) == WK_OK, "x just below 2^51: %s",
                   wk_last_error_detail());
            wk_buf_fill_canary(&o);
            x[3] = keep;
        }
        /* Aliasing: out inside x. */
        {
            double *xx = malloc(16 * sizeof(double));
            memcpy(xx, x, 9 * sizeof(double));
            wk_status s = wk_noise_fbm2_points(&good, xx, y, 9, (float *)(void *)(xx + 1), &e);
            EXPECT(s == WK_ERR_ALIAS, "out overlapping x: status %d", (int)s);
            EXPECT(memcmp(xx, x, 9 * sizeof(double)) == 0, "aliasing call wrote x");
            free(xx);
        }
        wk_buf_free(&o);
    }
    return fails;
}

/* Grids: the 2^53 rule at the boundary, 2D and 3D (deriv too). */
int wk_check_grid_2p53(void) {
    int fails = 0;
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    wk_fbm f = fbm_of(WK_LATTICE_HASH, 0, 3, 1.0, 2.0, 0.5f); /* top frequency 4 */
    for (int t = 0; t < nisa; t++) {
        wk_exec e = wk_exec_for(isas[t], 0);
        wk_buf o = wk_buf_new(64, 0), dx = wk_buf_new(64, 0), dy = wk_buf_new(64, 0);
        wk_buf_fill_canary(&o);
        /* index 2^51 - 8 + 7 with step 1: top coordinate 4 * (2^51 - 1) < 2^53: fine */
        wk_grid2 g = {((int64_t)1 << 51) - 8, 0, 8, 2, 1.0, 8, {0, 0}};
        EXPECT(wk_noise_fbm2_grid(&f, &g, o.p, &e) == WK_OK, "just below 2^53: %s", wk_last_error_detail());
        wk_buf_fill_canary(&o);
        g.i0 += 1; /* last index 2^51: top coordinate 2^53 */
        EXPECT_PTS(wk_noise_fbm2_grid(&f, &g, o.p, &e), WK_ERR_OVERFLOW, &o, "2D reaches 2^53");
        EXPECT(strstr(wk_last_error_detail(), "2^53") != NULL, "detail: %s", wk_last_error_detail());
        EXPECT_PTS(wk_noise_fbm2_grid_deriv(&f, &g, o.p, dx.p, dy.p, &e), WK_ERR_OVERFLOW, &o, "deriv reaches 2^53");
        g.i0 = 0, g.j0 = -((int64_t)1 << 51);
        EXPECT_PTS(wk_noise_fbm2_grid(&f, &g, o.p, &e), WK_ERR_OVERFLOW, &o, "2D j0 = -2^51");
        wk_grid3 g3 = {0, 0, -((int64_t)1 << 50), 2, 2, 2, 2.0, 2, 4, {0, 0}};
        EXPECT_PTS(wk_noise_fbm3_grid(&f, &g3, o.p, &e), WK_ERR_OVERFLOW, &o, "3D k0 = -2^50 step 2");
        g3.k0 += 1;
        EXPECT(wk_noise_fbm3_grid(&f, &g3, o.p, &e) == WK_OK, "3D just below: %s", wk_last_error_detail());
        wk_buf_free(&o), wk_buf_free(&dx), wk_buf_free(&dy);
    }
    return fails;
}
