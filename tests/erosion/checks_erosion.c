/* Checks of thermal erosion (erosion.h): hand-computed cases, an independent
 * whole-map implementation, every ISA x threads x band cuts bit for bit,
 * mass, tiles with halos, NaN holes and bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "erosion/erosion_impl.h" /* the test hook wk__erosion_tune */
#include "wk_checks.h"
#include "worldkern/erosion.h"

/* ------------------------------------------------------------ helpers */

static float *alloc_floats(size_t n) {
    float *p = malloc((n ? n : 1) * sizeof(float));
    if (!p) {
        fprintf(stderr, "out of memory\n");
        abort();
    }
    return p;
}

/* Scratch for a w x h map: the bound for 8 threads (room for every cut the
 * checks force), at an odd float offset. */
typedef struct scratch_buf {
    float *base, *p;
    size_t n;
} scratch_buf;

static scratch_buf scratch_for(uint32_t w, uint32_t h, int32_t threads) {
    scratch_buf s = {0, 0, 0};
    if (wk_erosion_scratch_bound(w, h, threads, &s.n) != WK_OK) s.n = 0;
    s.base = alloc_floats(s.n + 1);
    s.p = s.base + 1;
    return s;
}

/* Runs the erosion on a copy-free map; returns the status. */
static wk_status erode(float *v, uint32_t w, uint32_t h, size_t stride, float talus, uint32_t iterations,
                       const wk_exec *exec) {
    wk_heightmap m = WK_HEIGHTMAP_DEFAULTS;
    m.v = v;
    m.w = w;
    m.h = h;
    m.stride = stride;
    scratch_buf s = scratch_for(w, h, 8);
    wk_status st = wk_erosion_thermal(&m, talus, iterations, s.p, s.n, exec);
    free(s.base);
    return st;
}

static size_t count_bit_differences(const float *a, const float *b, size_t n) {
    size_t d = 0;
    for (size_t i = 0; i < n; i++) d += wk_bits(a[i]) != wk_bits(b[i]);
    return d;
}

/* ------------------------------------------- the independent implementation
 * Whole map, double buffered, written from the wording (gather form:
 * each cell recomputes its neighbours' shares), with the arithmetic that
 * erosion.h documents. */

static const int DX[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
static const int DY[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

static float naive_share(const float *H, size_t stride, int w, int h, int x, int y, float talus, float *count) {
    *count = 0.0f;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) return 0.0f;
    float hc = H[(size_t)y * stride + (size_t)x], sum = 0.0f, n = 0.0f;
    for (int k = 0; k < 8; k++) {
        float d = hc - H[(size_t)(y + DY[k]) * stride + (size_t)(x + DX[k])];
        if (d > talus) {
            sum = sum + d;
            n = n + 1.0f;
        }
    }
    *count = n;
    if (n == 0.0f) return (sum - n * talus) / 1.0f;
    return (sum - n * talus) / (n * (n + 1.0f) * 2.0f);
}

static void naive_erode(float *H, int w, int h, size_t stride, float talus, uint32_t iterations) {
    float *next = alloc_floats((size_t)h * stride);
    memcpy(next, H, ((size_t)(h - 1) * stride + (size_t)w) * sizeof(float));
    for (uint32_t it = 0; it < iterations && w >= 3 && h >= 3; it++) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float hc = H[(size_t)y * stride + (size_t)x], count;
                float share = naive_share(H, stride, w, h, x, y, talus, &count);
                float received = -0.0f;
                for (int k = 0; k < 8; k++) {
                    int nx = x + DX[k], ny = y + DY[k];
                    if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
                    float c2;
                    if (H[(size_t)ny * stride + (size_t)nx] - hc > talus)
                        received = received + naive_share(H, stride, w, h, nx, ny, talus, &c2);
                }
                float given = (x == 0 || y == 0 || x == w - 1 || y == h - 1) ? 0.0f : share * count;
                next[(size_t)y * stride + (size_t)x] = (hc - given) + received;
            }
        for (int y = 0; y < h; y++)
            memcpy(H + (size_t)y * stride, next + (size_t)y * stride, (size_t)w * sizeof(float));
    }
    free(next);
}

/* Random terrain: smooth hills plus noise, heights in about [0, scale]. */
static void fill_terrain(float *v, uint32_t w, uint32_t h, size_t stride, float scale, uint64_t seed) {
    wk_rng r = {seed};
    double fx = wk_rng_range(&r, 0.05, 0.3), fy = wk_rng_range(&r, 0.05, 0.3);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            double base = 0.5 + 0.25 * sin(fx * x) * cos(fy * y);
            v[(size_t)y * stride + x] = (float)(scale * (base + 0.25 * wk_rng_unit(&r)));
        }
}

/* --------------------------------------------------- the ISA harness cases */

/* Band/pass cuts the splits force (bands, iterations per pass; 0 = auto). */
static const wk__erosion_tuning CUTS[] = {{0, 0}, {1, 1}, {2, 3}, {3, 8}, {7, 2}, {1000000, 5}, {5, 1}};
enum { NCUTS = sizeof CUTS / sizeof CUTS[0] };

typedef struct erosion_case {
    uint32_t w, h;
    size_t stride;
    float talus;
    uint32_t iterations;
    const float *input; /* h rows of stride floats */
} erosion_case;

static int run_case(void *ctx, const wk_exec *exec, uint32_t split, void *out) {
    const erosion_case *c = ctx;
    float *v = out;
    for (uint32_t y = 0; y < c->h; y++)
        memcpy(v + (size_t)y * c->stride, c->input + (size_t)y * c->stride, c->w * sizeof(float));
    wk__erosion_tune = CUTS[split];
    wk_status s = erode(v, c->w, c->h, c->stride, c->talus, c->iterations, exec);
    wk__erosion_tune = CUTS[0];
    return s;
}

static int compare_case(const erosion_case *c, const char *what) {
    char name[160];
    snprintf(name, sizeof name, "%s %ux%u stride %zu talus %g it %u", what, c->w, c->h, c->stride, (double)c->talus,
             c->iterations);
    wk_harness hh = {name, run_case, (void *)c, ((size_t)(c->h - 1) * c->stride + c->w) * sizeof(float), NCUTS};
    return wk_harness_compare(&hh);
}

static int isa_sizes(uint32_t iterations) {
    int fails = 0;
    static const uint32_t ws[] = {3, 4, 15, 16, 17, 31, 32, 33, 47, 48, 70};
    static const uint32_t hs[] = {3, 5, 17, 40};
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++)
        for (size_t j = 0; j < sizeof hs / sizeof hs[0]; j++) {
            erosion_case c = {ws[i], hs[j], ws[i] + (i % 3), (float)(0.02 * (double)(j + 1)), iterations, NULL};
            float *in = alloc_floats((size_t)c.h * c.stride);
            for (size_t k = 0; k < (size_t)c.h * c.stride; k++) in[k] = 0.0f;
            fill_terrain(in, c.w, c.h, c.stride, 3.0f, 100 + i * 10 + j);
            c.input = in;
            fails += compare_case(&c, "terrain");
            free(in);
        }
    /* Tiny heights: differences are denormal, which a caller's FTZ/DAZ must
     * not change; and a wide map with talus 0. */
    erosion_case c = {37, 9, 37, 0.0f, iterations, NULL};
    float *in = alloc_floats(37 * 9);
    fill_terrain(in, 37, 9, 37, 1e-38f, 7);
    c.input = in;
    fails += compare_case(&c, "denormal");
    free(in);
    erosion_case wide = {300, 23, 301, 0.0f, iterations, NULL};
    in = alloc_floats(301 * 23);
    fill_terrain(in, 300, 23, 301, 50.0f, 8);
    wide.input = in;
    fails += compare_case(&wide, "wide");
    free(in);
    return fails;
}

int wk_check_erosion_isa_1_iteration(void) { return isa_sizes(1); }
int wk_check_erosion_isa_50_iterations(void) { return isa_sizes(50); }

/* ------------------------------------------------------- hand-made cases */

static int for_each_isa_threads(const float *input, uint32_t w, uint32_t h, float talus, uint32_t iterations,
                                const float *expect, const char *what) {
    int fails = 0;
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    size_t n = (size_t)w * h;
    float *v = alloc_floats(n);
    for (int t = 0; t < nisa; t++)
        for (int threads = 1; threads <= (wk_test_threads() == 1 ? 1 : 3); threads++) {
            wk_exec e = wk_exec_for(isas[t], threads);
            memcpy(v, input, n * sizeof *v);
            wk_status s = erode(v, w, h, w, talus, iterations, &e);
            EXPECT(s == WK_OK, "%s: %s status %d (%s)", what, wk_isa_name((wk_isa)isas[t]), s, wk_last_error_detail());
            for (size_t i = 0; i < n; i++)
                if (wk_bits(v[i]) != wk_bits(expect[i])) {
                    FAIL("%s: %s threads %d cell (%zu, %zu) is %.9g, expected %.9g", what,
                         wk_isa_name((wk_isa)isas[t]), threads, i % w, i / w, (double)v[i], (double)expect[i]);
                    break;
                }
        }
    free(v);
    return fails;
}

int wk_check_erosion_flat_stays_flat(void) {
    int fails = 0;
    enum { W = 37, H = 21 };
    static float v[W * H], slope[W * H];
    for (int i = 0; i < W * H; i++) v[i] = 3.25f;
    fails += for_each_isa_threads(v, W, H, 0.0f, 10, v, "flat, talus 0");
    for (int i = 0; i < W * H; i++) v[i] = -0.0f;
    fails += for_each_isa_threads(v, W, H, 0.0f, 3, v, "flat -0, talus 0 (bits kept)");
    /* A plane that slopes by 0.25 per cell (diagonals 0.5) under a talus of
     * 0.5: every difference is at most the talus, nothing moves. */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) slope[y * W + x] = 0.25f * (float)x + 0.25f * (float)y;
    fails += for_each_isa_threads(slope, W, H, 0.5f, 10, slope, "plane steeper nowhere than talus");
    return fails;
}

int wk_check_erosion_spike_by_hand(void) {
    int fails = 0;
    /* The case: 3x3, centre 9, talus 0 -> centre 5, each neighbour 0.5
     * (centre gives 0.5 * 72 / (8 + 1) = 4, split 8 ways). */
    const float in3[9] = {0, 0, 0, 0, 9, 0, 0, 0, 0};
    const float out3[9] = {0.5f, 0.5f, 0.5f, 0.5f, 5.0f, 0.5f, 0.5f, 0.5f, 0.5f};
    fails += for_each_isa_threads(in3, 3, 3, 0.0f, 1, out3, "3x3 spike");
    /* The same spike inside a 6x5 map (interior neighbours, which in the first
     * iteration give nothing: their lower neighbours are none). */
    float in6[30] = {0}, out6[30] = {0};
    in6[2 * 6 + 2] = 9.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) out6[(2 + dy) * 6 + 2 + dx] = 0.5f;
    out6[2 * 6 + 2] = 5.0f;
    fails += for_each_isa_threads(in6, 6, 5, 0.0f, 1, out6, "6x5 spike");
    /* Talus 1 on 3x3: each difference 9 has excess 8; sum of differences 72,
     * count 8: share (72 - 8) / (2 * 8 * 9) = 4/9; centre 9 - 32/9. */
    float out3t[9];
    float share = (72.0f - 8.0f) / 144.0f;
    for (int i = 0; i < 9; i++) out3t[i] = -0.0f + share;
    out3t[4] = 9.0f - share * 8.0f;
    fails += for_each_isa_threads(in3, 3, 3, 1.0f, 1, out3t, "3x3 spike talus 1");
    /* One lower neighbour: 3x3 all 2 but the left-middle 0 and centre 3 with
     * talus 0: lower by more than 0 are the 8 neighbours (1 each, 3 for the
     * left one): sum 10, count 8 -> share 10 / 144. */
    const float in1[9] = {2, 2, 2, 0, 3, 2, 2, 2, 2};
    float out1[9], s1 = 10.0f / 144.0f;
    for (int i = 0; i < 9; i++) out1[i] = in1[i] + s1;
    out1[4] = 3.0f - s1 * 8.0f;
    fails += for_each_isa_threads(in1, 3, 3, 0.0f, 1, out1, "3x3 uneven");
    /* Mass over the spike's iterations stays 9. */
    float v[9];
    memcpy(v, in3, sizeof v);
    EXPECT(erode(v, 3, 3, 3, 0.0f, 20, NULL) == WK_OK, "spike 20 iterations");
    double sum = 0;
    for (int i = 0; i < 9; i++) sum += v[i];
    EXPECT(fabs(sum - 9.0) < 1e-5, "spike mass after 20 iterations %.9g", sum);
    return fails;
}

int wk_check_erosion_talus_exact_moves_nothing(void) {
    int fails = 0;
    /* Differences of exactly the talus (exact in float) move nothing. */
    const float in[9] = {1, 1, 1, 1, 1.5f, 1, 1, 1, 1};
    fails += for_each_isa_threads(in, 3, 3, 0.5f, 5, in, "difference == talus");
    /* Above the talus: it moves. */
    float above[9];
    memcpy(above, in, sizeof above);
    above[4] = 1.625f;
    float v[9];
    memcpy(v, above, sizeof v);
    EXPECT(erode(v, 3, 3, 3, 0.5f, 1, NULL) == WK_OK, "above talus");
    EXPECT(v[4] < above[4] && v[0] > 1.0f, "a difference above the talus moves (centre %.9g, corner %.9g)",
           (double)v[4], (double)v[0]);
    /* A cliff of exactly talus on a larger map: two plateaus 0 and 0.75. */
    enum { W = 20, H = 9 };
    static float cliff[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) cliff[y * W + x] = x < 10 ? 0.75f : 0.0f;
    fails += for_each_isa_threads(cliff, W, H, 0.75f, 7, cliff, "cliff == talus");
    return fails;
}

/* Mass flows to the border (a high plateau in the middle of a low map):
 * border cells never lose height, and the total stays. */
int wk_check_erosion_border_receives(void) {
    int fails = 0;
    enum { W = 9, H = 7 };
    float v[W * H], before[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) v[y * W + x] = (x > 0 && y > 0 && x < W - 1 && y < H - 1) ? 10.0f : 0.0f;
    memcpy(before, v, sizeof v);
    double m0 = 0, m1 = 0;
    for (int i = 0; i < W * H; i++) m0 += v[i];
    EXPECT(erode(v, W, H, W, 0.1f, 200, NULL) == WK_OK, "plateau");
    for (int i = 0; i < W * H; i++) m1 += v[i];
    int border_gained = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            if (!(x == 0 || y == 0 || x == W - 1 || y == H - 1)) continue;
            EXPECT(v[y * W + x] >= before[y * W + x], "border cell (%d, %d) lost height", x, y);
            border_gained += v[y * W + x] > before[y * W + x];
        }
    EXPECT(border_gained > 0, "no border cell received anything");
    EXPECT(fabs(m1 - m0) <= 1e-6 * m0, "mass left the map: %.9g -> %.9g", m0, m1);
    return fails;
}

int wk_check_erosion_mass_conservation(void) {
    int fails = 0;
    const uint32_t w = 256, h = 192;
    float *v = alloc_floats((size_t)w * h);
    fill_terrain(v, w, h, w, 100.0f, 99);
    /* Spikes as well, so that much moves. */
    for (uint32_t i = 0; i < 50; i++) v[(i * 7919u) % (w * h)] += 500.0f;
    double before = 0, after = 0;
    for (size_t i = 0; i < (size_t)w * h; i++) before += v[i];
    float talus;
    EXPECT(wk_erosion_talus_from_angle(30.0, 1.0, &talus) == WK_OK, "talus");
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    wk_exec e = wk_exec_for(isas[nisa - 1], 0);
    EXPECT(erode(v, w, h, w, talus, 100, &e) == WK_OK, "100 iterations");
    for (size_t i = 0; i < (size_t)w * h; i++) after += v[i];
    double rel = fabs(after - before) / before;
    EXPECT(rel <= 1e-6, "mass drift %.3g relative over 100 iterations (bound 1e-6)", rel);
    printf("erosion: mass drift over 100 iterations of 256x192 (sum in double): %.3g relative\n", rel);
    free(v);
    return fails;
}

/* Every ISA and cut against the independent whole-map implementation. */
int wk_check_erosion_vs_independent(void) {
    int fails = 0;
    static const struct { uint32_t w, h, it; float talus, scale; } cases[] = {
        {3, 3, 4, 0.0f, 9.0f}, {19, 13, 1, 0.05f, 2.0f}, {33, 18, 9, 0.0f, 5.0f}, {70, 11, 17, 0.3f, 20.0f}};
    int isas[WK_ISA_COUNT], nisa = wk_supported_isas(isas);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint32_t w = cases[c].w, h = cases[c].h;
        size_t stride = w + 3, n = (size_t)h * stride;
        float *in = alloc_floats(n), *expect = alloc_floats(n), *v = alloc_floats(n);
        for (size_t i = 0; i < n; i++) in[i] = 0.0f;
        fill_terrain(in, w, h, stride, cases[c].scale, 500 + c);
        in[stride + 1] = NAN; /* a hole too */
        memcpy(expect, in, n * sizeof(float));
        naive_erode(expect, (int)w, (int)h, stride, cases[c].talus, cases[c].it);
        for (int t = 0; t < nisa; t++)
            for (int cut = 0; cut < NCUTS; cut++) {
                memcpy(v, in, n * sizeof(float));
                wk__erosion_tune = CUTS[cut];
                wk_exec e = wk_exec_for(isas[t], wk_test_threads() == 1 ? 1 : 2);
                EXPECT(erode(v, w, h, stride, cases[c].talus, cases[c].it, &e) == WK_OK, "status");
                wk__erosion_tune = CUTS[0];
                size_t d = count_bit_differences(v, expect, n);
                EXPECT(d == 0, "%ux%u %u iterations: %s cut %d: %zu cells differ from the independent implementation",
                       w, h, cases[c].it, wk_isa_name((wk_isa)isas[t]), cut, d);
            }
        free(in);
        free(expect);
        free(v);
    }
    return fails;
}

/* 3x3 has one interior cell; 1xN, Nx1, 2xN have none: nothing to do. */
int wk_check_erosion_small_maps(void) {
    int fails = 0;
    static const uint32_t sizes[][2] = {{1, 1}, {1, 17}, {17, 1}, {2, 9}, {9, 2}, {2, 2}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t w = sizes[i][0], h = sizes[i][1];
        float v[40], before[40];
        wk_rng r = {i + 1};
        for (int k = 0; k < 40; k++) v[k] = (float)wk_rng_range(&r, -10, 10);
        v[0] = -0.0f;
        memcpy(before, v, sizeof v);
        wk_heightmap m = {v, w, h, w, {0, 0}};
        /* No interior: no scratch needed. */
        EXPECT(wk_erosion_thermal(&m, 0.0f, 10, NULL, 0, NULL) == WK_OK, "%ux%u: status %s", w, h,
               wk_last_error_detail());
        EXPECT(memcmp(v, before, sizeof v) == 0, "%ux%u changed", w, h);
    }
    /* Zero iterations: untouched. */
    float v[9] = {0, 0, 0, 0, 9, 0, 0, 0, 0}, before[9];
    memcpy(before, v, sizeof v);
    wk_heightmap m = {v, 3, 3, 3, {0, 0}};
    EXPECT(wk_erosion_thermal(&m, 0.0f, 0, NULL, 0, NULL) == WK_OK, "0 iterations");
    EXPECT(memcmp(v, before, sizeof v) == 0, "0 iterations changed the map");
    /* 3x3 and 3xN through the harness. */
    erosion_case c3 = {3, 3, 3, 0.0f, 5, v};
    fails += compare_case(&c3, "3x3");
    float tall[3 * 41];
    fill_terrain(tall, 3, 41, 3, 4.0f, 3);
    erosion_case c3n = {3, 41, 3, 0.01f, 6, tall};
    fails += compare_case(&c3n, "3x41");
    erosion_case cn3 = {41, 3, 41, 0.01f, 6, tall};
    fails += compare_case(&cn3, "41x3");
    return fails;
}

int wk_check_erosion_nan_holes(void) {
    int fails = 0;
    enum { W = 29, H = 17 };
    static float v[W * H], in[W * H];
    fill_terrain(in, W, H, W, 10.0f, 42);
    for (int i = 0; i < W * H; i += 11) in[i] = NAN;
    in[5 * W + 5] = -NAN;
    memcpy(v, in, sizeof v);
    EXPECT(erode(v, W, H, W, 0.1f, 30, NULL) == WK_OK, "holes");
    for (int i = 0; i < W * H; i++) {
        if (isnan(in[i])) EXPECT(wk_bits(v[i]) == wk_bits(in[i]), "hole %d changed", i);
        else EXPECT(isfinite(v[i]), "cell %d became %g next to holes", i, (double)v[i]);
    }
    /* An all-NaN map stays as it is. */
    for (int i = 0; i < W * H; i++) v[i] = NAN;
    memcpy(in, v, sizeof v);
    EXPECT(erode(v, W, H, W, 0.0f, 3, NULL) == WK_OK, "all NaN");
    EXPECT(memcmp(v, in, sizeof v) == 0, "all-NaN map changed");
    /* Every ISA and cut agree. */
    fill_terrain(in, W, H, W, 10.0f, 43);
    for (int i = 3; i < W * H; i += 7) in[i] = NAN;
    erosion_case c = {W, H, W, 0.05f, 12, in};
    fails += compare_case(&c, "NaN holes");
    return fails;
}

/* The AVX-512 path records each row's "lower neighbour" masks as a byte per
 * cell that pass 2 reads one column left or right, and takes the shares of
 * the columns left and right from lane shifts of aligned vectors: cells at
 * the map's left and right columns, at the edges of 16-cell vectors, next to
 * NaN holes, and in the first and last rows, for widths that end a vector
 * exactly, one cell into the next, and one short. */
int wk_check_erosion_vector_edges(void) {
    int fails = 0;
    static const uint32_t ws[] = {16, 32, 47, 48, 49, 64, 65};
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) {
        const uint32_t w = ws[i], h = 7;
        float *in = alloc_floats((size_t)w * h);
        fill_terrain(in, w, h, w, 4.0f, 300 + i);
        for (uint32_t y = 0; y < h; y++) { /* tall cells on the vector edges and the borders */
            in[(size_t)y * w] += 3.0f;
            in[(size_t)y * w + w - 1] += 3.0f;
            for (uint32_t x = 15; x < w; x += 16) in[(size_t)y * w + x] += (y & 1) ? 3.0f : -3.0f;
            for (uint32_t x = 16; x < w; x += 16) in[(size_t)y * w + x] += (y & 1) ? -2.0f : 2.0f;
        }
        erosion_case c = {w, h, w, 0.1f, 3, in};
        fails += compare_case(&c, "vector edges");
        for (uint32_t y = 1; y < h; y += 2) { /* holes on the vector edges */
            in[(size_t)y * w + 16] = NAN;
            in[(size_t)y * w + w - 2] = NAN;
        }
        in[w + 1] = -NAN;
        fails += compare_case(&c, "vector edges with holes");
        free(in);
    }
    return fails;
}

/* The AVX2 kernels walk 8-cell columns through two rows at a time and mask
 * with and/blend instead of masked adds: every width 3 .. 26 (each
 * remainder mod 8, widths under one vector), odd and even heights (one-row
 * calls), tall cells on the 8-cell edges, and +-0 heights with talus 0 and
 * -0 (a masked-out lane must keep -0 and +0 apart), Inf and -NaN in the
 * tail lanes. */
int wk_check_erosion_avx2_tails(void) {
    int fails = 0;
    for (uint32_t w = 3; w <= 26; w++)
        for (uint32_t h = 4; h <= 7; h += 3) {
            float *in = alloc_floats((size_t)w * h);
            fill_terrain(in, w, h, w, 4.0f, 700 + w * 8 + h);
            for (uint32_t y = 0; y < h; y++)
                for (uint32_t x = 7; x < w; x += 8) {
                    in[(size_t)y * w + x] += (y & 1) ? 3.0f : -3.0f;
                    if (x + 1 < w) in[(size_t)y * w + x + 1] += (y & 1) ? -2.0f : 2.0f;
                }
            erosion_case c = {w, h, w, 0.1f, 3, in};
            fails += compare_case(&c, "avx2 tails");
            /* zeros of both signs, a few raised cells, talus 0 and -0 */
            for (uint32_t k = 0; k < w * h; k++) in[k] = (k * 7 + w) % 3 == 0 ? -0.0f : 0.0f;
            for (uint32_t k = w + 1; k < w * h; k += 5) in[k] = (float)(k % 4) * 0.25f;
            c.talus = 0.0f;
            fails += compare_case(&c, "avx2 tails, signed zeros");
            c.talus = -0.0f;
            fails += compare_case(&c, "avx2 tails, signed zeros, talus -0");
            /* Inf and -NaN in the last columns */
            fill_terrain(in, w, h, w, 4.0f, 900 + w * 8 + h);
            in[(size_t)(h / 2) * w + w - 1] = INFINITY;
            in[(size_t)(h / 2) * w + w - 2] = -NAN;
            in[(size_t)(h - 2) * w + w - 2] = -INFINITY;
            in[(size_t)1 * w + w / 2] = INFINITY;
            c.talus = 0.05f;
            fails += compare_case(&c, "avx2 tails, Inf and NaN");
            free(in);
        }
    return fails;
}

int wk_check_erosion_non_finite_no_crash(void) {
    int fails = 0;
    enum { W = 23, H = 11 };
    static float in[W * H];
    fill_terrain(in, W, H, W, 10.0f, 44);
    in[3 * W + 4] = INFINITY;
    in[7 * W + 15] = -INFINITY;
    in[5 * W + 10] = 3.0e38f;
    in[5 * W + 11] = -3.0e38f;
    erosion_case c = {W, H, W, 0.05f, 6, in};
    fails += compare_case(&c, "Inf and huge heights");
    /* Vertically adjacent huge heights of both signs, on rows of both
     * parities: the AVX-512 pass 1 reuses a cell's difference with the cell
     * below, negated, as that cell's difference with the cell above (here
     * they overflow to +-Inf). */
    fill_terrain(in, W, H, W, 10.0f, 45);
    for (uint32_t y = 2; y + 2 < H; y += 3) {
        in[y * W + 5] = 3.0e38f;
        in[(y + 1) * W + 5] = -3.0e38f;
        in[y * W + 17] = -3.0e38f;
        in[(y + 1) * W + 17] = 3.0e38f;
        in[(y + 1) * W + 9] = INFINITY;
        in[(y + 2) * W + 9] = INFINITY;
    }
    fails += compare_case(&c, "vertically adjacent huge heights");
    return fails;
}

/* Chunked worlds: a 64x48 tile eroded with a halo of 2 * iterations equals
 * the whole map in its interior; a halo of `iterations` does not. */
int wk_check_erosion_tile_halo(void) {
    int fails = 0;
    const uint32_t W = 200, H = 160, TW = 64, TH = 48, IT = 6;
    float *whole = alloc_floats((size_t)W * H), *map = alloc_floats((size_t)W * H);
    fill_terrain(map, W, H, W, 30.0f, 77);
    memcpy(whole, map, (size_t)W * H * sizeof(float));
    EXPECT(erode(whole, W, H, W, 0.2f, IT, NULL) == WK_OK, "whole map");
    EXPECT(wk_erosion_halo(IT) == 2 * IT && wk_erosion_halo(UINT32_MAX) == UINT32_MAX, "wk_erosion_halo");
    /* Tiles: in the middle, and at a corner (the halo is clipped there, the
     * map's border being the same border). */
    static const uint32_t origins[][2] = {{70, 60}, {0, 0}, {W - TW, H - TH}};
    for (size_t o = 0; o < 3; o++)
        for (uint32_t halo = IT; halo <= 2 * IT; halo += IT) {
            int64_t x0 = (int64_t)origins[o][0] - halo, y0 = (int64_t)origins[o][1] - halo;
            int64_t x1 = origins[o][0] + TW + halo, y1 = origins[o][1] + TH + halo;
            if (x0 < 0) x0 = 0;
            if (y0 < 0) y0 = 0;
            if (x1 > W) x1 = W;
            if (y1 > H) y1 = H;
            uint32_t cw = (uint32_t)(x1 - x0), ch = (uint32_t)(y1 - y0);
            float *tile = alloc_floats((size_t)cw * ch);
            for (uint32_t y = 0; y < ch; y++)
                memcpy(tile + (size_t)y * cw, map + (size_t)(y0 + y) * W + x0, cw * sizeof(float));
            EXPECT(erode(tile, cw, ch, cw, 0.2f, IT, NULL) == WK_OK, "tile");
            size_t differ = 0;
            for (uint32_t y = 0; y < TH; y++)
                for (uint32_t x = 0; x < TW; x++) {
                    uint32_t gx = origins[o][0] + x, gy = origins[o][1] + y;
                    float a = tile[(size_t)(gy - y0) * cw + (gx - x0)], b = whole[(size_t)gy * W + gx];
                    differ += wk_bits(a) != wk_bits(b);
                }
            if (halo == 2 * IT)
                EXPECT(differ == 0, "tile at (%u, %u) halo %u: %zu interior cells differ from the whole map",
                       origins[o][0], origins[o][1], halo, differ);
            else if (o == 0) {
                EXPECT(differ > 0, "halo %u (= iterations) should not be enough, yet nothing differs", halo);
                printf("erosion: %ux%u tile, %u iterations, halo %u: %zu interior cells differ (halo %u: 0)\n", TW,
                       TH, IT, halo, differ, 2 * IT);
            }
            free(tile);
        }
    free(whole);
    free(map);
    return fails;
}

int wk_check_erosion_scratch_sizes(void) {
    int fails = 0;
    size_t b1 = 0, b2 = 0, b8 = 0;
    EXPECT(wk_erosion_scratch_bound(1000, 4000, 1, &b1) == WK_OK, "bound 1");
    EXPECT(wk_erosion_scratch_bound(1000, 4000, 2, &b2) == WK_OK, "bound 2");
    EXPECT(wk_erosion_scratch_bound(1000, 4000, 8, &b8) == WK_OK, "bound 8");
    EXPECT(b1 > 0 && b1 < b2 && b2 < b8, "bounds %zu %zu %zu", b1, b2, b8);
    EXPECT(b8 < (size_t)1000 * 4000 / 2, "the bound for 8 threads (%zu) should be below half the map", b8);
    /* Exactly the 1-thread bound works (any thread count), one less fails. */
    const uint32_t w = 40, h = 30;
    float *v = alloc_floats((size_t)w * h), *ref = alloc_floats((size_t)w * h), *in = alloc_floats((size_t)w * h);
    fill_terrain(in, w, h, w, 5.0f, 9);
    memcpy(ref, in, (size_t)w * h * sizeof(float));
    EXPECT(erode(ref, w, h, w, 0.1f, 11, NULL) == WK_OK, "ref");
    size_t need = 0;
    EXPECT(wk_erosion_scratch_bound(w, h, 1, &need) == WK_OK, "bound");
    float *scratch = alloc_floats(need);
    wk_heightmap m = {v, w, h, w, {0, 0}};
    wk_exec e = wk_exec_for(0, wk_test_threads() == 1 ? 1 : 3);
    memcpy(v, in, (size_t)w * h * sizeof(float));
    EXPECT(wk_erosion_thermal(&m, 0.1f, 11, scratch, need, &e) == WK_OK, "exact bound: %s", wk_last_error_detail());
    EXPECT(memcmp(v, ref, (size_t)w * h * sizeof(float)) == 0, "exact bound: result differs");
    memcpy(v, in, (size_t)w * h * sizeof(float));
    wk_status s = wk_erosion_thermal(&m, 0.1f, 11, scratch, need - 1, &e);
    EXPECT(s == WK_ERR_CAPACITY, "bound - 1: status %d", s);
    EXPECT(memcmp(v, in, (size_t)w * h * sizeof(float)) == 0, "bound - 1: map touched");
    char expect_detail[64];
    snprintf(expect_detail, sizeof expect_detail, "%zu", need);
    EXPECT(strstr(wk_last_error_detail(), expect_detail) != NULL, "detail names the size: %s", wk_last_error_detail());
    /* 0 threads: the process default. */
    size_t b0 = 0;
    EXPECT(wk_erosion_scratch_bound(w, h, 0, &b0) == WK_OK && b0 >= need, "bound for 0 threads");
    free(scratch);
    free(v);
    free(ref);
    free(in);
    return fails;
}

int wk_check_erosion_talus_from_angle(void) {
    int fails = 0;
    float t = -1.0f;
    EXPECT(wk_erosion_talus_from_angle(45.0, 1.0, &t) == WK_OK && t == 1.0f, "45 degrees: %.9g", (double)t);
    EXPECT(wk_erosion_talus_from_angle(0.0, 3.0, &t) == WK_OK && t == 0.0f, "0 degrees: %.9g", (double)t);
    /* tan 60 = sqrt 3, tan 30 = 1 / sqrt 3 (independent of tan()). */
    EXPECT(wk_erosion_talus_from_angle(60.0, 2.0, &t) == WK_OK && fabs(t - 2.0 * sqrt(3.0)) < 4e-7 * t,
           "60 degrees, 2 m cells: %.9g", (double)t);
    EXPECT(wk_erosion_talus_from_angle(30.0, 0.5, &t) == WK_OK && fabs(t - 0.5 / sqrt(3.0)) < 4e-7 * t,
           "30 degrees, 0.5 m cells: %.9g", (double)t);
    float keep = 123.0f;
    t = keep;
    EXPECT(wk_erosion_talus_from_angle(90.0, 1.0, &t) == WK_ERR_INVALID_ARG && t == keep, "90 degrees");
    EXPECT(wk_erosion_talus_from_angle(-1.0, 1.0, &t) == WK_ERR_INVALID_ARG && t == keep, "-1 degrees");
    EXPECT(wk_erosion_talus_from_angle(NAN, 1.0, &t) == WK_ERR_NOT_FINITE && t == keep, "NaN degrees");
    EXPECT(wk_erosion_talus_from_angle(10.0, INFINITY, &t) == WK_ERR_NOT_FINITE && t == keep, "Inf cell");
    EXPECT(wk_erosion_talus_from_angle(10.0, 0.0, &t) == WK_ERR_INVALID_ARG && t == keep, "0 cell");
    EXPECT(wk_erosion_talus_from_angle(89.999999, 1e38, &t) == WK_ERR_OVERFLOW && t == keep, "overflow");
    EXPECT(wk_erosion_talus_from_angle(10.0, 1.0, NULL) == WK_ERR_NULL, "NULL talus");
    return fails;
}

int wk_check_erosion_bad_input(void) {
    int fails = 0;
    enum { W = 12, H = 10 };
    float v[W * H + 8], before[W * H + 8];
    fill_terrain(v, W, H, W, 5.0f, 5);
    for (int i = W * H; i < W * H + 8; i++) v[i] = 1.0f;
    memcpy(before, v, sizeof v);
    size_t n = 0;
    EXPECT(wk_erosion_scratch_bound(W, H, 4, &n) == WK_OK, "bound");
    float *scratch = alloc_floats(n);
#define BAD(expect_status, map_ptr, talus, scratch_ptr, scratch_n, exec_ptr)                                     \
    do {                                                                                                      \
        wk_status s_ = wk_erosion_thermal((map_ptr), (talus), 3, (scratch_ptr), (scratch_n), (exec_ptr));      \
        EXPECT(s_ == (expect_status), "line %d: status %d (%s), expected %d", __LINE__, s_, wk_last_error_detail(), \
               expect_status);                                                                                \
        EXPECT(s_ == WK_OK || wk_last_error_detail()[0] != 0, "line %d: no detail", __LINE__);              \
        EXPECT(memcmp(v, before, sizeof v) == 0, "line %d: map touched", __LINE__);                          \
    } while (0)
    wk_heightmap good = {v, W, H, W, {0, 0}}, m;
    BAD(WK_ERR_NULL, NULL, 0.1f, scratch, n, NULL);
    m = good, m.v = NULL;
    BAD(WK_ERR_NULL, &m, 0.1f, scratch, n, NULL);
    m = good, m.reserved[1] = 1;
    BAD(WK_ERR_INVALID_ARG, &m, 0.1f, scratch, n, NULL);
    m = good, m.w = 0;
    BAD(WK_ERR_INVALID_ARG, &m, 0.1f, scratch, n, NULL);
    m = good, m.h = 0;
    BAD(WK_ERR_INVALID_ARG, &m, 0.1f, scratch, n, NULL);
    m = good, m.stride = W - 1;
    BAD(WK_ERR_STRIDE, &m, 0.1f, scratch, n, NULL);
    m = good, m.stride = SIZE_MAX / 2, m.h = 5;
    BAD(WK_ERR_OVERFLOW, &m, 0.1f, scratch, n, NULL);
    BAD(WK_ERR_NOT_FINITE, &good, NAN, scratch, n, NULL);
    BAD(WK_ERR_NOT_FINITE, &good, INFINITY, scratch, n, NULL);
    BAD(WK_ERR_INVALID_ARG, &good, -0.5f, scratch, n, NULL);
    BAD(WK_ERR_NULL, &good, 0.1f, NULL, n, NULL);
    BAD(WK_ERR_CAPACITY, &good, 0.1f, scratch, 10, NULL);
    BAD(WK_ERR_CAPACITY, &good, 0.1f, scratch, 0, NULL);
    /* Scratch overlapping the map (the floats after it, or inside it). */
    float *big = alloc_floats(n + W * H);
    memcpy(big, v, W * H * sizeof(float));
    wk_heightmap mb = {big, W, H, W, {0, 0}};
    wk_status s = wk_erosion_thermal(&mb, 0.1f, 3, big + W * H - 1, n, NULL);
    EXPECT(s == WK_ERR_ALIAS, "scratch overlapping the map: status %d", s);
    EXPECT(memcmp(big, v, W * H * sizeof(float)) == 0, "alias: map touched");
    s = wk_erosion_thermal(&mb, 0.1f, 3, big + W * H, n, NULL);
    EXPECT(s == WK_OK, "scratch right after the map: status %d (%s)", s, wk_last_error_detail());
    free(big);
    /* Bad exec. */
    wk_exec e = WK_EXEC_DEFAULTS;
    e.reserved[0] = 1;
    BAD(WK_ERR_INVALID_ARG, &good, 0.1f, scratch, n, &e);
    e = wk_exec_for(0, -1);
    BAD(WK_ERR_INVALID_ARG, &good, 0.1f, scratch, n, &e);
    e = wk_exec_for(99, 1);
    BAD(WK_ERR_INVALID_ARG, &good, 0.1f, scratch, n, &e);
    /* The bound's own errors. */
    EXPECT(wk_erosion_scratch_bound(W, H, -1, &n) == WK_ERR_INVALID_ARG, "bound threads -1");
    EXPECT(wk_erosion_scratch_bound(W, H, 1, NULL) == WK_ERR_NULL, "bound NULL");
    /* Huge widths: the bound is a size or an overflow, never a wrap. */
    size_t huge = 0;
    wk_status hs = wk_erosion_scratch_bound(UINT32_MAX, UINT32_MAX, WK_MAX_THREADS, &huge);
    EXPECT(hs == WK_OK || hs == WK_ERR_OVERFLOW, "huge bound status %d", hs);
    if (hs == WK_OK) EXPECT(huge > (size_t)UINT32_MAX, "huge bound %zu", huge);
    /* Fine calls leave the tail of the buffer (past the map) alone. */
    EXPECT(wk_erosion_thermal(&good, 0.1f, 3, scratch, n, NULL) == WK_OK, "good call");
    for (int i = W * H; i < W * H + 8; i++) EXPECT(v[i] == 1.0f, "float %d past the map written", i);
#undef BAD
    free(scratch);
    return fails;
}
