/* Noise features of issue 6: ridged and billow fractals, 3D analytic
 * derivatives, domain warp. ISA comparisons go through the shared harness
 * (exec per call); answers are checked against formulas evaluated here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wk_checks.h"
#include "worldkern/noise.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static wk_fbm fbm_with(uint32_t lattice, uint32_t seed, int octaves, double freq, uint32_t fractal, int normalize) {
    wk_fbm f;
    memset(&f, 0, sizeof f);
    f.lattice = lattice;
    f.seed = seed;
    f.octaves = octaves;
    f.frequency = freq;
    f.lacunarity = 2.03;
    f.gain = 0.55f;
    f.fractal = fractal;
    f.normalize = normalize;
    return f;
}

static size_t extent2(const wk_grid2 *g) { return ((size_t)g->ny - 1) * g->stride + g->nx; }
static size_t extent3(const wk_grid3 *g) {
    return ((size_t)g->nz - 1) * g->slice_stride + ((size_t)g->ny - 1) * g->stride + g->nx;
}

/* ------------------------------------------------------ grids by harness */

typedef struct grid_case {
    wk_fbm f;
    wk_grid2 g2;
    wk_grid3 g3;
    int dims, deriv;
    const wk_warp *warp;
} grid_case;

/* split s > 0: the grid cut into two sub-grids along y (2D) or z (3D) at
 * row s, each computed by its own call. */
static int run_grid(void *ctx, const wk_exec *exec, uint32_t split, void *out_v) {
    const grid_case *c = ctx;
    float *out = out_v;
    if (c->dims == 2) {
        size_t n = extent2(&c->g2);
        uint32_t cut = split == 0 || split >= c->g2.ny ? c->g2.ny : split;
        wk_grid2 a = c->g2, b = c->g2;
        a.ny = cut;
        b.j0 += cut, b.ny -= cut;
        for (int part = 0; part < 2; part++) {
            const wk_grid2 *g = part ? &b : &a;
            if (g->ny == 0) continue;
            float *o = out + (part ? (size_t)cut * c->g2.stride : 0);
            wk_status s = c->warp ? wk_noise_fbm2_grid_warp(&c->f, c->warp, g, o, exec)
                          : c->deriv ? wk_noise_fbm2_grid_deriv(&c->f, g, o, o + n, o + 2 * n, exec)
                                     : wk_noise_fbm2_grid(&c->f, g, o, exec);
            if (s != WK_OK) return s;
        }
        return WK_OK;
    }
    size_t n = extent3(&c->g3);
    uint32_t cut = split == 0 || split >= c->g3.nz ? c->g3.nz : split;
    wk_grid3 a = c->g3, b = c->g3;
    a.nz = cut;
    b.k0 += cut, b.nz -= cut;
    for (int part = 0; part < 2; part++) {
        const wk_grid3 *g = part ? &b : &a;
        if (g->nz == 0) continue;
        float *o = out + (part ? (size_t)cut * c->g3.slice_stride : 0);
        wk_status s = c->warp ? wk_noise_fbm3_grid_warp(&c->f, c->warp, g, o, exec)
                      : c->deriv ? wk_noise_fbm3_grid_deriv(&c->f, g, o, o + n, o + 2 * n, o + 3 * n, exec)
                                 : wk_noise_fbm3_grid(&c->f, g, o, exec);
        if (s != WK_OK) return s;
    }
    return WK_OK;
}

static int harness_grid(grid_case *c, const char *what) {
    size_t n = c->dims == 2 ? extent2(&c->g2) : extent3(&c->g3);
    size_t outs = c->deriv ? (size_t)(c->dims + 1) : 1;
    wk_harness h = {what, run_grid, c, n * outs * sizeof(float), 3};
    return wk_harness_compare(&h);
}

static const uint32_t widths[] = {1, 8, 15, 17, 33, 300};

int wk_check_fractal_isa(void) {
    int fails = 0;
    for (uint32_t fr = 1; fr <= 2; fr++)
        for (int lat = 0; lat <= 1; lat++)
            for (size_t wi = 0; wi < COUNT(widths); wi++) {
                grid_case c;
                memset(&c, 0, sizeof c);
                c.f = fbm_with((uint32_t)lat, 4242, 5, wi & 1 ? 0.013 : 0.4, fr, (int)(wi & 1));
                c.dims = 2;
                c.g2 = (wk_grid2){-77, 1000001, widths[wi], 5, 0.73, widths[wi] + 3, {0, 0}};
                char what[96];
                snprintf(what, sizeof what, "fractal %u lattice %d 2D nx %u", fr, lat, widths[wi]);
                fails += harness_grid(&c, what);
                c.dims = 3;
                c.g3 = (wk_grid3){5, -9, 123456789, widths[wi], 3, 4, 0.61, widths[wi] + 1,
                                  (size_t)(widths[wi] + 1) * 3 + 2, {0, 0}};
                snprintf(what, sizeof what, "fractal %u lattice %d 3D nx %u", fr, lat, widths[wi]);
                fails += harness_grid(&c, what);
            }
    return fails;
}

/* Ridged and billow from plain one-octave fBm grids, combined here as
 * noise.h documents (same float operations in the same order). */
int wk_check_fractal_known(void) {
    int fails = 0;
    enum { NX = 70, NY = 6, N = NX * NY };
    static float plain[16][N], got[N];
    wk_exec e = wk_exec_for(WK_ISA_DEFAULT, 0);
    for (uint32_t fr = 1; fr <= 2; fr++)
        for (int lat = 0; lat <= 1; lat++)
            for (int norm = 0; norm <= 1; norm++) {
                wk_fbm f = fbm_with((uint32_t)lat, 77, 4, 0.11, fr, norm);
                wk_grid2 g = {-3, 8, NX, NY, 0.9, NX, {0, 0}};
                EXPECT(wk_noise_fbm2_grid(&f, &g, got, &e) == WK_OK, "fractal grid status");
                double freq = f.frequency;
                float amp = 1.0f, amp_sum = 0.0f;
                float want[N];
                for (int k = 0; k < f.octaves; k++) {
                    wk_fbm one = fbm_with((uint32_t)lat, f.seed + (uint32_t)k, 1, freq, 0, 0);
                    EXPECT(wk_noise_fbm2_grid(&one, &g, plain[k], &e) == WK_OK, "one octave status");
                    for (int i = 0; i < N; i++) {
                        float a = fabsf(plain[k][i]) * 2.0f;
                        float t = fr == WK_FRACTAL_RIDGED ? 1.0f - a : a - 1.0f;
                        want[i] = k == 0 ? amp * t : want[i] + amp * t;
                    }
                    amp_sum += amp;
                    freq *= f.lacunarity;
                    amp *= f.gain;
                }
                for (int i = 0; i < N; i++) {
                    float w = norm ? want[i] / amp_sum : want[i];
                    if (wk_bits(w) != wk_bits(got[i])) {
                        FAIL("fractal %u lattice %d norm %d sample %d: %.9g, want %.9g", fr, lat, norm, i,
                             (double)got[i], (double)w);
                        break;
                    }
                    if (norm && !(fabsf(got[i]) <= 1.0f)) {
                        FAIL("normalized fractal %u value %g outside [-1, 1]", fr, (double)got[i]);
                        break;
                    }
                }
            }
    return fails;
}

/* ------------------------------------------------------ 3D derivatives */

int wk_check_deriv3_isa(void) {
    int fails = 0;
    for (int lat = 0; lat <= 1; lat++)
        for (size_t wi = 0; wi < COUNT(widths); wi++) {
            grid_case c;
            memset(&c, 0, sizeof c);
            c.f = fbm_with((uint32_t)lat, 31337, 3, 0.21, 0, (int)(wi & 1));
            c.dims = 3;
            c.deriv = 1;
            c.g3 = (wk_grid3){-1000, 7, -3, widths[wi], 4, 3, 0.37, widths[wi], (size_t)widths[wi] * 4 + 5, {0, 0}};
            char what[96];
            snprintf(what, sizeof what, "fbm3_grid_deriv lattice %d nx %u", lat, widths[wi]);
            fails += harness_grid(&c, what);
        }
    return fails;
}

int wk_check_deriv3_finite_differences(void) {
    int fails = 0;
    enum { NX = 300, NY = 3, NZ = 3, N = NX * NY * NZ };
    static float v[N], dx[N], dy[N], dz[N], plain[N];
    const double h = 1e-3;
    static const int64_t origins[][3] = {{12345, -6789, 55}, {-100000000, 3, 77777777}};
    double worst = 0, worst_scale = 0;
    for (int lat = 0; lat <= 1; lat++)
        for (int norm = 0; norm <= 1; norm++)
            for (size_t o = 0; o < COUNT(origins); o++) {
                wk_fbm f = fbm_with((uint32_t)lat, 9, 3, 0.7, 0, norm);
                f.lacunarity = 2.0;
                wk_grid3 g = {origins[o][0], origins[o][1], origins[o][2], NX, NY, NZ, h, NX, NX * NY, {0, 0}};
                EXPECT(wk_noise_fbm3_grid_deriv(&f, &g, v, dx, dy, dz, NULL) == WK_OK, "deriv3 status: %s",
                       wk_last_error_detail());
                EXPECT(wk_noise_fbm3_grid(&f, &g, plain, NULL) == WK_OK, "fbm3 status");
                EXPECT(memcmp(v, plain, sizeof v) == 0, "deriv3 value differs from wk_noise_fbm3_grid");
                double scale = 1;
                for (int i = 0; i < N; i++) {
                    double a = fabs((double)dx[i]), b = fabs((double)dy[i]), c = fabs((double)dz[i]);
                    if (a > scale) scale = a;
                    if (b > scale) scale = b;
                    if (c > scale) scale = c;
                }
                const size_t mid = NX * NY + NX; /* row 1 of slice 1 */
                for (int i = 1; i + 1 < NX; i++) {
                    size_t at = mid + (size_t)i;
                    double fdx = ((double)v[at + 1] - v[at - 1]) / (2 * h);
                    double fdy = ((double)v[at + NX] - v[at - NX]) / (2 * h);
                    double fdz = ((double)v[at + NX * NY] - v[at - NX * NY]) / (2 * h);
                    double e[3] = {fabs(fdx - dx[at]), fabs(fdy - dy[at]), fabs(fdz - dz[at])};
                    for (int a = 0; a < 3; a++)
                        if (e[a] > worst) worst = e[a], worst_scale = scale;
                    EXPECT(e[0] <= 1e-2 * scale && e[1] <= 1e-2 * scale && e[2] <= 1e-2 * scale,
                           "lattice %d norm %d origin %zu i=%d: d/dx %.6g vs %.6g, d/dy %.6g vs %.6g, d/dz %.6g vs %.6g",
                           lat, norm, o, i, (double)dx[at], fdx, (double)dy[at], fdy, (double)dz[at], fdz);
                }
            }
    fprintf(stderr, "  deriv3 vs finite differences: worst %.3g (scale %.3g)\n", worst, worst_scale);
    return fails;
}

#define EXPECT_ERR(call, want, what)                                                                \
    do {                                                                                           \
        wk_status got_ = (call);                                                                   \
        if (got_ != (want))                                                                        \
            FAIL("%s: status %d (%s), want %d; detail %s", what, (int)got_, wk_status_str(got_),    \
                 (int)(want), wk_last_error_detail());                                             \
    } while (0)

int wk_check_bad_features(void) {
    int fails = 0;
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    const wk_grid3 g3 = {0, 0, 0, 9, 3, 2, 0.5, 9, 27, {0, 0}};
    const wk_grid2 g2 = {0, 0, 9, 3, 0.5, 9, {0, 0}};
    for (int t = 0; t < nisa; t++) {
        wk_exec e = wk_exec_for(isas[t], 0);
        wk_buf b[4];
        for (int i = 0; i < 4; i++) b[i] = wk_buf_new(54, (size_t)i & 1), wk_buf_fill_canary(&b[i]);
        wk_fbm f = fbm_with(WK_LATTICE_HASH, 1, 2, 0.3, 0, 1);
        EXPECT_ERR(wk_noise_fbm3_grid_deriv(&f, &g3, NULL, b[1].p, b[2].p, b[3].p, &e), WK_ERR_NULL, "value NULL");
        EXPECT_ERR(wk_noise_fbm3_grid_deriv(&f, &g3, b[0].p, NULL, b[2].p, b[3].p, &e), WK_ERR_NULL, "ddx NULL");
        EXPECT_ERR(wk_noise_fbm3_grid_deriv(&f, &g3, b[0].p, b[1].p, b[2].p, NULL, &e), WK_ERR_NULL, "ddz NULL");
        EXPECT_ERR(wk_noise_fbm3_grid_deriv(&f, &g3, b[0].p, b[1].p, b[1].p + 3, b[3].p, &e), WK_ERR_ALIAS,
                   "ddy overlaps ddx");
        EXPECT_ERR(wk_noise_fbm3_grid_deriv(NULL, &g3, b[0].p, b[1].p, b[2].p, b[3].p, &e), WK_ERR_NULL, "f NULL");
        f.fractal = WK_FRACTAL_RIDGED;
        EXPECT_ERR(wk_noise_fbm3_grid_deriv(&f, &g3, b[0].p, b[1].p, b[2].p, b[3].p, &e), WK_ERR_INVALID_ARG,
                   "deriv3 with ridged");
        EXPECT_ERR(wk_noise_fbm2_grid_deriv(&f, &g2, b[0].p, b[1].p, b[2].p, &e), WK_ERR_INVALID_ARG,
                   "deriv2 with ridged");
        f.fractal = 3;
        EXPECT_ERR(wk_noise_fbm2_grid(&f, &g2, b[0].p, &e), WK_ERR_INVALID_ARG, "fractal 3");
        double px = 1, py = 2;
        EXPECT_ERR(wk_noise_fbm2_points(&f, &px, &py, 1, b[0].p, &e), WK_ERR_INVALID_ARG, "points fractal 3");
        for (int i = 0; i < 4; i++) {
            EXPECT(wk_buf_all_canary(&b[i]), "buffer %d touched on error", i);
            wk_buf_free(&b[i]);
        }
    }
    return fails;
}

/* ------------------------------------------------------------ domain warp */

int wk_check_warp_isa(void) {
    int fails = 0;
    for (int lat = 0; lat <= 1; lat++)
        for (size_t wi = 0; wi < COUNT(widths); wi++) {
            wk_warp w;
            memset(&w, 0, sizeof w);
            w.noise = fbm_with((uint32_t)(1 - lat), 5, 2, 0.05, 0, 1);
            w.amplitude = wi & 1 ? 7.5 : -30.0;
            grid_case c;
            memset(&c, 0, sizeof c);
            c.warp = &w;
            c.f = fbm_with((uint32_t)lat, 99, 3, 0.08, (uint32_t)(wi % 3), 1);
            c.dims = 2;
            c.g2 = (wk_grid2){-5000, 123, widths[wi], 4, 0.9, widths[wi] + 2, {0, 0}};
            char what[96];
            snprintf(what, sizeof what, "warp lattice %d 2D nx %u", lat, widths[wi]);
            fails += harness_grid(&c, what);
            c.dims = 3;
            c.g3 = (wk_grid3){7, -8, 1 << 20, widths[wi], 3, 3, 1.3, widths[wi], (size_t)widths[wi] * 3, {0, 0}};
            snprintf(what, sizeof what, "warp lattice %d 3D nx %u", lat, widths[wi]);
            fails += harness_grid(&c, what);
        }
    return fails;
}

/* The warp is its documented composition of point queries. */
int wk_check_warp_composition(void) {
    int fails = 0;
    enum { NX = 23, NY = 4, NZ = 3, N = NX * NY * NZ };
    static double p[3][N], q[3][N];
    static float got[N], want[N], off[N];
    for (int dims = 2; dims <= 3; dims++)
        for (int lat = 0; lat <= 1; lat++) {
            wk_warp w;
            memset(&w, 0, sizeof w);
            w.noise = fbm_with((uint32_t)lat, 0xFFFFFFFFu, 3, 0.02, WK_FRACTAL_BILLOW, 1);
            w.amplitude = 12.25;
            wk_fbm f = fbm_with((uint32_t)lat, 1234, 4, 1.0 / 64, 0, 1);
            size_t n = dims == 2 ? (size_t)NX * NY : (size_t)N;
            int64_t o[3] = {-1000000, 777, 3};
            double step = 0.75;
            for (size_t a = 0; a < n; a++) {
                size_t i = a % NX, j = a / NX % NY, k = a / (NX * NY);
                p[0][a] = (double)(o[0] + (int64_t)i) * step;
                p[1][a] = (double)(o[1] + (int64_t)j) * step;
                p[2][a] = (double)(o[2] + (int64_t)k) * step;
            }
            for (int axis = 0; axis < dims; axis++) {
                wk_fbm wf = w.noise;
                wf.seed += (uint32_t)axis * 0x9E3779B9u;
                wk_status s = dims == 2 ? wk_noise_fbm2_points(&wf, p[0], p[1], n, off, NULL)
                                        : wk_noise_fbm3_points(&wf, p[0], p[1], p[2], n, off, NULL);
                EXPECT(s == WK_OK, "warp noise points");
                for (size_t a = 0; a < n; a++) q[axis][a] = p[axis][a] + w.amplitude * (double)off[a];
            }
            wk_status s;
            if (dims == 2) {
                EXPECT(wk_noise_fbm2_points(&f, q[0], q[1], n, want, NULL) == WK_OK, "points");
                wk_grid2 g = {o[0], o[1], NX, NY, step, NX, {0, 0}};
                s = wk_noise_fbm2_grid_warp(&f, &w, &g, got, NULL);
            } else {
                EXPECT(wk_noise_fbm3_points(&f, q[0], q[1], q[2], n, want, NULL) == WK_OK, "points");
                wk_grid3 g = {o[0], o[1], o[2], NX, NY, NZ, step, NX, NX * NY, {0, 0}};
                s = wk_noise_fbm3_grid_warp(&f, &w, &g, got, NULL);
            }
            EXPECT(s == WK_OK, "warp status %d: %s", (int)s, wk_last_error_detail());
            for (size_t a = 0; a < n; a++)
                if (wk_bits(got[a]) != wk_bits(want[a])) {
                    FAIL("warp %dD lattice %d sample %zu: %.9g, composition %.9g", dims, lat, a, (double)got[a],
                         (double)want[a]);
                    break;
                }
            /* Amplitude 0 is the plain grid. */
            w.amplitude = 0;
            if (dims == 2) {
                wk_grid2 g = {o[0], o[1], NX, NY, step, NX, {0, 0}};
                EXPECT(wk_noise_fbm2_grid_warp(&f, &w, &g, got, NULL) == WK_OK, "warp 0");
                EXPECT(wk_noise_fbm2_grid(&f, &g, want, NULL) == WK_OK, "grid");
            } else {
                wk_grid3 g = {o[0], o[1], o[2], NX, NY, NZ, step, NX, NX * NY, {0, 0}};
                EXPECT(wk_noise_fbm3_grid_warp(&f, &w, &g, got, NULL) == WK_OK, "warp 0");
                EXPECT(wk_noise_fbm3_grid(&f, &g, want, NULL) == WK_OK, "grid");
            }
            EXPECT(memcmp(got, want, n * sizeof(float)) == 0, "warp amplitude 0 differs from the grid (%dD)", dims);
        }
    return fails;
}

int wk_check_bad_warp(void) {
    int fails = 0;
    wk_warp w = WK_WARP_DEFAULTS;
    wk_fbm f = WK_FBM_DEFAULTS;
    wk_grid2 g = {0, 0, 8, 2, 1.0, 8, {0, 0}};
    wk_grid3 g3 = {0, 0, 0, 8, 2, 2, 1.0, 8, 16, {0, 0}};
    wk_buf o = wk_buf_new(32, 1);
    wk_buf_fill_canary(&o);
    EXPECT(wk_noise_fbm2_grid_warp(&f, &w, &g, o.p, NULL) == WK_OK, "defaults work: %s", wk_last_error_detail());
    wk_buf_fill_canary(&o);
    EXPECT_ERR(wk_noise_fbm2_grid_warp(&f, NULL, &g, o.p, NULL), WK_ERR_NULL, "w NULL");
    EXPECT_ERR(wk_noise_fbm2_grid_warp(NULL, &w, &g, o.p, NULL), WK_ERR_NULL, "f NULL");
    EXPECT_ERR(wk_noise_fbm2_grid_warp(&f, &w, NULL, o.p, NULL), WK_ERR_NULL, "g NULL");
    EXPECT_ERR(wk_noise_fbm2_grid_warp(&f, &w, &g, NULL, NULL), WK_ERR_NULL, "out NULL");
    EXPECT_ERR(wk_noise_fbm3_grid_warp(&f, &w, &g3, NULL, NULL), WK_ERR_NULL, "3D out NULL");
    wk_warp bad = w;
    bad.amplitude = NAN;
    EXPECT_ERR(wk_noise_fbm2_grid_warp(&f, &bad, &g, o.p, NULL), WK_ERR_NOT_FINITE, "amplitude NaN");
    bad = w, bad.reserved[1] = 1;
    EXPECT_ERR(wk_noise_fbm2_grid_warp(&f, &bad, &g, o.p, NULL), WK_ERR_INVALID_ARG, "reserved");
    bad = w, bad.noise.octaves = 0;
    EXPECT_ERR(wk_noise_fbm3_grid_warp(&f, &bad, &g3, o.p, NULL), WK_ERR_INVALID_ARG, "warp octaves 0");
    bad = w, bad.amplitude = 1e300;
    EXPECT_ERR(wk_noise_fbm2_grid_warp(&f, &bad, &g, o.p, NULL), WK_ERR_OVERFLOW, "amplitude 1e300");
    EXPECT(wk_buf_all_canary(&o), "output touched on error");
    wk_buf_free(&o);
    return fails;
}

/* ------------------------------------------------------- README recipes */

int make_tile(int64_t tile_x, int64_t tile_y, float *height);
int tile_slopes(int64_t tile_x, int64_t tile_y, float *value, float *ddx, float *ddy);
float height_at(double x, double y);

int wk_check_readme_example(void) {
    int fails = 0;
    enum { T = 256 };
    float *a = malloc(T * T * sizeof(float)), *b = malloc(T * T * sizeof(float));
    float *v = malloc(T * T * sizeof(float)), *dx = malloc(T * T * sizeof(float)), *dy = malloc(T * T * sizeof(float));
    EXPECT(make_tile(-3, 7, a) == 0 && make_tile(-2, 7, b) == 0, "make_tile failed: %s", wk_last_error_detail());
    EXPECT(tile_slopes(-3, 7, v, dx, dy) == 0, "tile_slopes failed");
    /* in [0, 1]; the seam between the tiles steps like the inside does */
    double seam = 0, inside = 0;
    for (int j = 0; j < T; j++) {
        for (int i = 0; i < T; i++)
            if (!(a[j * T + i] >= 0.0f && a[j * T + i] <= 1.0f)) {
                FAIL("height %g outside [0, 1]", (double)a[j * T + i]);
                j = T;
                break;
            }
        if (j == T) break;
        double s = fabs((double)b[j * T] - a[j * T + T - 1]), in = fabs((double)a[j * T + T - 1] - a[j * T + T - 2]);
        if (s > seam) seam = s;
        if (in > inside) inside = in;
    }
    EXPECT(seam <= 2 * inside + 1e-6, "seam step %g vs %g inside a tile", seam, inside);
    /* the point query gives the tile's bits */
    static const int at[][2] = {{0, 0}, {17, 200}, {255, 255}, {128, 3}};
    for (size_t k = 0; k < COUNT(at); k++) {
        double x = (double)(-3 * T + at[k][0]) * 1.0, y = (double)(7 * T + at[k][1]) * 1.0;
        float h = height_at(x, y);
        EXPECT(wk_bits(h) == wk_bits(a[at[k][1] * T + at[k][0]]), "height_at(%g, %g) = %.9g, tile %.9g", x, y,
               (double)h, (double)a[at[k][1] * T + at[k][0]]);
    }
    free(a), free(b), free(v), free(dx), free(dy);
    return fails;
}

/* The stated bounds |perlin2| <= 1 and |perlin3| <= 1.0364 (noise.h), on
 * random points of several seeds and both lattices; prints the largest seen. */
int wk_check_noise_bound(void) {
    int fails = 0;
    enum { N = 1 << 15 };
    static double x[N], y[N], z[N];
    static float o[N];
    wk_rng r = {2024};
    double seen[2] = {0, 0};
    for (int dims = 2; dims <= 3; dims++)
        for (int lat = 0; lat <= 1; lat++)
            for (uint32_t seed = 0; seed < 3; seed++) {
                wk_fbm f = fbm_with((uint32_t)lat, seed * 1000u, 1, 1.0, 0, 0);
                for (size_t i = 0; i < N; i++) {
                    x[i] = wk_rng_range(&r, -300, 300);
                    y[i] = i % 4 == 0 ? floor(x[i] * 7) + 0.5 : wk_rng_range(&r, -300, 300);
                    z[i] = wk_rng_range(&r, -300, 300);
                    if (i % 4 == 0) x[i] = floor(x[i]) + 0.5; /* cell centres: |perlin2| reaches 1 there */
                }
                wk_status s = dims == 2 ? wk_noise_fbm2_points(&f, x, y, N, o, NULL)
                                        : wk_noise_fbm3_points(&f, x, y, z, N, o, NULL);
                EXPECT(s == WK_OK, "bound points status");
                double bound = dims == 2 ? 1.0 : 1.0364;
                for (size_t i = 0; i < N; i++) {
                    double a = fabs((double)o[i]);
                    if (a > seen[dims - 2]) seen[dims - 2] = a;
                    if (a > bound) {
                        FAIL("|perlin%d| = %.9g > %g at (%g, %g, %g)", dims, a, bound, x[i], y[i], z[i]);
                        break;
                    }
                }
            }
    fprintf(stderr, "  largest |perlin2| seen %.7f (bound 1), |perlin3| %.7f (bound 1.0364)\n", seen[0], seen[1]);
    return fails;
}

/* ------------------------------------------- grids (moved onto the harness) */

/* Samples of a layout are written (finite), gaps between rows are not. */
static int layout_ok(const float *p, size_t n, size_t stride, size_t slice_stride, uint32_t nx, uint32_t ny,
                     uint32_t nz) {
    for (size_t a = 0; a < n; a++) {
        size_t k = a / slice_stride, rem = a % slice_stride, j = rem / stride, i = rem % stride;
        int sample = k < nz && j < ny && i < nx;
        if (sample ? (wk_is_canary(p[a]) || !isfinite(p[a])) : !wk_is_canary(p[a])) return 0;
    }
    return 1;
}

static const uint32_t grid_nx[] = {1, 7, 8, 15, 17, 31, 257, 300};

/* Scalar run into a canary buffer: every sample written, no gap touched. */
static int scalar_layout(grid_case *c, const char *what) {
    int fails = 0;
    size_t n = c->dims == 2 ? extent2(&c->g2) : extent3(&c->g3);
    size_t outs = c->deriv ? (size_t)(c->dims + 1) : 1;
    wk_buf b = wk_buf_new(n * outs, 1);
    wk_buf_fill_canary(&b);
    wk_exec e = wk_exec_for(WK_ISA_SCALAR, 1);
    EXPECT(run_grid(c, &e, 0, b.p) == WK_OK, "%s: scalar status", what);
    for (size_t o = 0; o < outs; o++) {
        int ok = c->dims == 2 ? layout_ok(b.p + o * n, n, c->g2.stride, n + 1, c->g2.nx, c->g2.ny, 1)
                              : layout_ok(b.p + o * n, n, c->g3.stride, c->g3.slice_stride, c->g3.nx, c->g3.ny,
                                          c->g3.nz);
        EXPECT(ok, "%s: output %zu layout (samples written, gaps untouched)", what, o);
    }
    EXPECT(wk_buf_guards_ok(&b), "%s: scalar wrote past its output", what);
    wk_buf_free(&b);
    return fails;
}

int wk_check_fbm2_grid_isa(void) {
    int fails = 0;
    for (int lat = 0; lat <= 1; lat++)
        for (size_t xi = 0; xi < COUNT(grid_nx); xi++)
            for (int variant = 0; variant < 2; variant++) {
                grid_case c;
                memset(&c, 0, sizeof c);
                c.dims = 2;
                c.f = variant ? fbm_with((uint32_t)lat, 7, 4, 0.05, 0, 1) : fbm_with((uint32_t)lat, 0xFFFFFFF0u, 16, 0.013, 0, 0);
                if (!variant) c.f.lacunarity = 1.7, c.f.gain = -0.6f;
                c.g2 = (wk_grid2){-37, 11, grid_nx[xi], grid_nx[xi] == 300 ? 66 : 3, 0.731, grid_nx[xi] + 5, {0, 0}};
                if (variant) c.g2.i0 = -1000003, c.g2.j0 = 5, c.g2.step = 0.0625;
                char what[96];
                snprintf(what, sizeof what, "fbm2_grid lattice %d nx %u variant %d", lat, grid_nx[xi], variant);
                fails += scalar_layout(&c, what);
                fails += harness_grid(&c, what);
            }
    return fails;
}

int wk_check_fbm3_grid_isa(void) {
    int fails = 0;
    for (int lat = 0; lat <= 1; lat++)
        for (size_t xi = 0; xi < COUNT(grid_nx); xi++) {
            grid_case c;
            memset(&c, 0, sizeof c);
            c.dims = 3;
            c.f = fbm_with((uint32_t)lat, 3, 3, 0.11, 0, 1);
            c.f.lacunarity = 2.0, c.f.gain = 0.45f;
            uint32_t nx = grid_nx[xi], ny = nx == 300 ? 17 : 3, nz = nx == 300 ? 17 : 2;
            c.g3 = (wk_grid3){-5, 7, -9, nx, ny, nz, 0.37, nx + 3, (size_t)(ny - 1) * (nx + 3) + nx + 7, {0, 0}};
            char what[96];
            snprintf(what, sizeof what, "fbm3_grid lattice %d nx %u", lat, nx);
            fails += scalar_layout(&c, what);
            fails += harness_grid(&c, what);
        }
    return fails;
}

int wk_check_fbm2_deriv_isa(void) {
    int fails = 0;
    for (int lat = 0; lat <= 1; lat++)
        for (size_t xi = 0; xi < COUNT(grid_nx); xi++) {
            grid_case c;
            memset(&c, 0, sizeof c);
            c.dims = 2;
            c.deriv = 1;
            c.f = fbm_with((uint32_t)lat, 11, 5, 0.09, 0, lat);
            c.f.lacunarity = 1.93;
            c.g2 = (wk_grid2){-20, -3, grid_nx[xi], grid_nx[xi] == 300 ? 66 : 3, 0.29, grid_nx[xi] + 2, {0, 0}};
            char what[96];
            snprintf(what, sizeof what, "fbm2_grid_deriv lattice %d nx %u", lat, grid_nx[xi]);
            fails += scalar_layout(&c, what);
            fails += harness_grid(&c, what);
            /* the value is wk_noise_fbm2_grid's, bit for bit */
            size_t n = extent2(&c.g2);
            float *a = malloc(3 * n * sizeof(float)), *b = malloc(n * sizeof(float));
            EXPECT(wk_noise_fbm2_grid_deriv(&c.f, &c.g2, a, a + n, a + 2 * n, NULL) == WK_OK, "deriv status");
            EXPECT(wk_noise_fbm2_grid(&c.f, &c.g2, b, NULL) == WK_OK, "grid status");
            for (uint32_t j = 0; j < c.g2.ny; j++)
                for (uint32_t i = 0; i < c.g2.nx; i++) {
                    size_t at = (size_t)j * c.g2.stride + i;
                    if (wk_bits(a[at]) != wk_bits(b[at])) {
                        FAIL("%s: value at (%u, %u) %.9g, grid %.9g", what, i, j, (double)a[at], (double)b[at]);
                        j = c.g2.ny;
                        break;
                    }
                }
            free(a), free(b);
        }
    return fails;
}
