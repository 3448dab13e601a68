/* Golden cases and the check that compares them with golden_table.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "wk_checks.h"
#include "worldkern/erosion.h"
#include "worldkern/fracture.h"
#include "worldkern/noise.h"
#include "worldkern/spline.h"
#include "worldkern/voxel.h"

static const wk_golden_entry golden_table[] = {
#include "golden_table.h"
};

static uint64_t fnv1a64(const void *data, size_t n) {
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* ---- cases: each returns a wk_status and fills out (at most OUT_FLOATS) */
enum { OUT_FLOATS = 3 * 96 * 96 };

static int fbm2_case(float *out, size_t *n, uint32_t lattice, uint32_t seed, int octaves) {
    wk_fbm f = WK_FBM_DEFAULTS;
    f.lattice = lattice;
    f.seed = seed;
    f.octaves = octaves;
    f.frequency = 1.0 / 32;
    wk_grid2 g = {-4096, 777, 96, 96, 1.0, 96, {0, 0}};
    *n = 96 * 96;
    return wk_noise_fbm2_grid(&f, &g, out, NULL);
}

static int fbm2_perm_seed0(float *out, size_t *n) { return fbm2_case(out, n, WK_LATTICE_PERM, 0, 1); }
static int fbm2_perm_seed7(float *out, size_t *n) { return fbm2_case(out, n, WK_LATTICE_PERM, 7, 5); }
static int fbm2_hash_seed1337(float *out, size_t *n) { return fbm2_case(out, n, WK_LATTICE_HASH, 1337, 6); }

static int fbm3_hash_seed42(float *out, size_t *n) {
    wk_fbm f = WK_FBM_DEFAULTS;
    f.seed = 42;
    f.frequency = 1.0 / 16;
    wk_grid3 g = {100, -50, 3, 24, 24, 16, 1.0, 24, 24 * 24, {0, 0}};
    *n = 24 * 24 * 16;
    return wk_noise_fbm3_grid(&f, &g, out, NULL);
}

static int fbm2_deriv_hash_seed3(float *out, size_t *n) {
    wk_fbm f = WK_FBM_DEFAULTS;
    f.seed = 3;
    wk_grid2 g = {0, 0, 96, 96, 0.75, 96, {0, 0}};
    *n = 3 * 96 * 96;
    return wk_noise_fbm2_grid_deriv(&f, &g, out, out + 96 * 96, out + 2 * 96 * 96, NULL);
}

static int perlin3_points_seed9(float *out, size_t *n) {
    enum { N = 4000 };
    static float x[N], y[N], z[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.173f - 300.0f;
        y[i] = (float)(i % 97) * 0.61f;
        z[i] = (float)(i % 13) * -1.37f;
    }
    *n = N;
    return wk_noise_perlin3(x, y, z, N, 9, out, NULL);
}

static int spline_cr_sample_phantom(float *out, size_t *n) {
    enum { POINTS = 37, CURVES = 3, M = 1000 };
    static float p[CURVES * POINTS];
    for (int i = 0; i < CURVES * POINTS; i++) p[i] = (float)((i * 7919) % 101) * 0.37f - 12.0f;
    *n = CURVES * M;
    return wk_spline_cr_sample(p, POINTS, POINTS, CURVES, WK_SPLINE_END_PHANTOM, M, out, M, NULL);
}

/* 60 steps of 40 bodies of 32 springs after splashes: pos and vel. */
static int spline_water_60_steps(float *out, size_t *n) {
    enum { B = 40, N = 32 };
    static float rest[N * B];
    float *pos = out, *vel = out + N * B;
    for (int i = 0; i < N * B; i++) rest[i] = pos[i] = vel[i] = 0.0f;
    wk_water w = WK_WATER_DEFAULTS;
    w.pos = pos;
    w.vel = vel;
    w.rest = rest;
    w.bodies = B;
    w.springs = N;
    wk_water_params prm = WK_WATER_PARAMS_DEFAULTS;
    prm.sleep_threshold = 0;
    uint32_t body[3] = {0, 17, 39};
    float x[3] = {0.5f, 0.1f, 0.93f}, amount[3] = {-0.3f, 0.7f, 0.05f};
    int s = wk_spline_water_displace(&w, body, x, amount, 3, NULL);
    for (int step = 0; step < 60 && s == 0; step++) s = wk_spline_water_step(&w, &prm, NULL);
    *n = 2 * N * B;
    return s;
}

/* 30 iterations of thermal erosion on a 96 x 64 fBm height map. */
static int erosion_thermal_30(float *out, size_t *n) {
    enum { W = 96, H = 64 };
    wk_fbm f = WK_FBM_DEFAULTS;
    f.seed = 5;
    f.frequency = 1.0 / 24;
    wk_grid2 g = {0, 0, W, H, 1.0, W, {0, 0}};
    int s = wk_noise_fbm2_grid(&f, &g, out, NULL);
    for (size_t i = 0; i < (size_t)W * H; i++) out[i] *= 40.0f;
    size_t floats = 0;
    if (s == 0) s = wk_erosion_scratch_bound(W, H, 1, &floats);
    float *scratch = s == 0 ? malloc(floats * sizeof(float)) : NULL;
    wk_heightmap map = WK_HEIGHTMAP_DEFAULTS;
    map.v = out;
    map.w = W;
    map.h = H;
    map.stride = W;
    if (s == 0 && !scratch) s = -1;
    if (s == 0) s = wk_erosion_thermal(&map, 0.5f, 30, scratch, floats, NULL);
    free(scratch);
    *n = (size_t)W * H;
    return s;
}

/* A 48 x 32 camera over a 64 x 64 noise terrain with one brick: every hit
 * (t, cell, sub-voxel, face) as bytes. */
static int voxel_camera_hits(float *out, size_t *n) {
    enum { W = 48, H = 32, R = W * H };
    wk_voxel_world *w = NULL;
    int s = wk_voxel_world_create(&w, NULL);
    wk_fbm f = WK_FBM_DEFAULTS;
    f.frequency = 1.0 / 16;
    if (s == 0) s = wk_voxel_set_terrain(w, &f, 0, 0, 64, 64, 0, 64, 20.0f, 12.0f, NULL);
    if (s == 0) s = wk_voxel_set_sub(w, 30, 22, 30, 0x00FF00FF00FF00FFull);
    static float ray[6][R], t[R];
    static int32_t x[R], y[R], z[R];
    static int8_t sub[R], face[R];
    wk_voxel_camera cam = {{-10, 50, -10}, {1, -0.6f, 1}, {0.7f, 0, -0.7f}, {0, 1, 0}, 0.8f, 0.55f, {0}};
    if (s == 0) s = wk_voxel_camera_rays(&cam, W, H, ray[0], ray[1], ray[2], ray[3], ray[4], ray[5], NULL);
    wk_rays rays = {ray[0], ray[1], ray[2], ray[3], ray[4], ray[5], NULL, R, {0}};
    wk_hits hits = {t, x, y, z, sub, face, {0}};
    if (s == 0) s = wk_voxel_raycast(w, &rays, &hits, NULL);
    wk_voxel_world_destroy(w);
    unsigned char *o = (unsigned char *)out;
    size_t at = 0;
    memcpy(o + at, t, sizeof t), at += sizeof t;
    memcpy(o + at, x, sizeof x), at += sizeof x;
    memcpy(o + at, y, sizeof y), at += sizeof y;
    memcpy(o + at, z, sizeof z), at += sizeof z;
    memcpy(o + at, sub, sizeof sub), at += sizeof sub;
    memcpy(o + at, face, sizeof face), at += sizeof face;
    *n = at / sizeof(float);
    return s;
}

/* Touching pairs of 500 jittered boxes (as floats' bytes: uint32 ids). */
static int fracture_pairs(float *out, size_t *n) {
    enum { N = 500, CAP = 6000 };
    static float b[6][N];
    for (int i = 0; i < N; i++) {
        float jitter = (float)((i * 37) % 11) * 0.01f;
        b[0][i] = (float)(i % 10) + jitter, b[1][i] = (float)(i / 10 % 10), b[2][i] = (float)(i / 100);
        b[3][i] = b[0][i] + 1.0f, b[4][i] = b[1][i] + 1.0f - jitter, b[5][i] = b[2][i] + 1.0f;
    }
    wk_boxes frags = {b[0], b[1], b[2], b[3], b[4], b[5], N, 0, {0, 0}};
    size_t ws_bytes = 0, count = 0;
    int s = wk_fracture_adjacency_workspace_size(N, &ws_bytes);
    void *ws = s == 0 ? malloc(ws_bytes) : NULL;
    if (s == 0 && !ws) s = -1;
    if (s == 0) s = wk_fracture_adjacency(&frags, 0.005f, ws, ws_bytes, (uint32_t *)out, CAP, &count, NULL);
    free(ws);
    *n = 2 * count;
    return s;
}

typedef struct golden_case { const char *name; int (*fill)(float *out, size_t *n); } golden_case;
static const golden_case cases[] = {
    {"noise/fbm2/perm/seed0/1oct", fbm2_perm_seed0},
    {"noise/fbm2/perm/seed7/5oct", fbm2_perm_seed7},
    {"noise/fbm2/hash/seed1337/6oct", fbm2_hash_seed1337},
    {"noise/fbm3/hash/seed42/5oct", fbm3_hash_seed42},
    {"noise/fbm2_deriv/hash/seed3", fbm2_deriv_hash_seed3},
    {"noise/perlin3/points/seed9", perlin3_points_seed9},
    {"spline/cr_sample/phantom", spline_cr_sample_phantom},
    {"spline/water/60_steps", spline_water_60_steps},
    {"erosion/thermal/30_iterations", erosion_thermal_30},
    {"voxel/raycast/camera48x32", voxel_camera_hits},
    {"fracture/adjacency/500", fracture_pairs},
};
enum { CASES = sizeof cases / sizeof cases[0] };

/* Hash of case c; returns 0 and reports when the kernel fails. */
static int case_hash(const golden_case *c, uint64_t *hash) {
    float *out = calloc(OUT_FLOATS, sizeof(float));
    size_t n = 0;
    int s = out ? c->fill(out, &n) : -1;
    if (s == 0) *hash = fnv1a64(out, n * sizeof(float));
    free(out);
    return s == 0;
}

int wk_golden_print(void) {
    int fails = 0;
    printf("/* Generated by tools/wk golden (plain_runner --print-golden): FNV-1a 64 of\n"
           " * each golden case's output bytes. Review every change. */\n");
    for (int i = 0; i < CASES; i++) {
        uint64_t h = 0;
        if (!case_hash(&cases[i], &h)) {
            FAIL("%s: kernel failed", cases[i].name);
            continue;
        }
        printf("{\"%s\", 0x%016llxull},\n", cases[i].name, (unsigned long long)h);
    }
    return fails;
}

int wk_check_golden_hashes(void) {
    int fails = 0;
    for (int i = 0; i < CASES; i++) {
        const wk_golden_entry *e = NULL;
        for (size_t t = 0; t < sizeof golden_table / sizeof golden_table[0]; t++)
            if (strcmp(golden_table[t].name, cases[i].name) == 0) e = &golden_table[t];
        uint64_t h = 0;
        if (!case_hash(&cases[i], &h)) {
            FAIL("%s: kernel failed", cases[i].name);
            continue;
        }
        EXPECT(e != NULL, "%s: no committed hash (run tools/wk golden)", cases[i].name);
        EXPECT(!e || e->hash == h, "%s: hash %016llx, committed %016llx: outputs changed (deliberate? regenerate "
               "with tools/wk golden)", cases[i].name, (unsigned long long)h, e ? (unsigned long long)e->hash : 0ull);
    }
    return fails;
}
