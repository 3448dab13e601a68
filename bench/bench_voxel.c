/* bench_voxel.c: the voxel family. Names voxel/<kernel>/<isa>/<scene>/t<threads>.
 *
 * Scene (voxel_scene.c, shared with bench_voxel_embree.c): a 256^3 terrain.
 * Heights come from wk_noise_fbm2_grid (5 octaves,
 * a lattice cell every 64 blocks) mapped to 40..216; blocks below the
 * height are solid (one wk_voxel_set_box call), then about 1% of the
 * surface blocks are carved into random bricks (half their sub-voxels).
 *   camera1024: 1024 x 1024 pinhole rays from above one corner, looking across
 *   random1M: 2^20 rays from random points in the air, random directions
 *   random4k: the first 4096 of those, one call each (a frame's worth of
 *   game queries: per-call overhead included)
 * The world is built once; every benchmark of a kernel compares its output
 * with the scalar reference (memcmp) before timing.
 *
 * Also: point queries, edits per second (set_sub then clear on random
 * blocks), and the baseline game code's fixed-step marcher (0.9 blocks per
 * step, batched point queries) with its wrong-first-hit rate against the
 * exact cast as a counter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <worldkern/voxel.h>

#include "bench_shim.h"
#include "voxel_scene.h"

enum { SIZE = WK_SCENE_SIZE, CAM = 1024, RANDOM_RAYS = 1 << 20, POINTS = 1 << 20, MARCH_CAM = 256 };

typedef struct ray_buf {
    size_t n;
    float *o[3], *d[3];
    float *t, *ref_t;
    int32_t *xyz, *ref_xyz; /* 3n each */
    int8_t *sf, *ref_sf;    /* 2n each: sub, face */
} ray_buf;

static struct scene {
    int state; /* 0 not built, 1 ok, -1 failed */
    wk_voxel_world *w;
    float *height;
    ray_buf camera, random, small, march;
    uint64_t bricks;
} scene;

static int ray_buf_alloc(ray_buf *r, size_t n) {
    r->n = n;
    for (int a = 0; a < 3; a++) {
        r->o[a] = malloc(n * 4);
        r->d[a] = malloc(n * 4);
        if (!r->o[a] || !r->d[a]) return 0;
    }
    r->t = malloc(n * 4);
    r->ref_t = malloc(n * 4);
    r->xyz = malloc(n * 12);
    r->ref_xyz = malloc(n * 12);
    r->sf = malloc(n * 2);
    r->ref_sf = malloc(n * 2);
    return r->t && r->ref_t && r->xyz && r->ref_xyz && r->sf && r->ref_sf;
}

static wk_status cast(ray_buf *r, int ref, const wk_exec *e) {
    wk_rays rays = {r->o[0], r->o[1], r->o[2], r->d[0], r->d[1], r->d[2], NULL, r->n, {0}};
    int32_t *xyz = ref ? r->ref_xyz : r->xyz;
    int8_t *sf = ref ? r->ref_sf : r->sf;
    wk_hits hits = {ref ? r->ref_t : r->t, xyz, xyz + r->n, xyz + 2 * r->n, sf, sf + r->n, {0}};
    return wk_voxel_raycast(scene.w, &rays, &hits, e);
}

static int same_as_ref(const ray_buf *r) {
    return memcmp(r->t, r->ref_t, r->n * 4) == 0 && memcmp(r->xyz, r->ref_xyz, r->n * 12) == 0 &&
           memcmp(r->sf, r->ref_sf, r->n * 2) == 0;
}

static int camera_rays(ray_buf *r, uint32_t side) {
    return ray_buf_alloc(r, (size_t)side * side) && wk_scene_camera_rays(side, r->o, r->d);
}

static int build_scene(void) {
    if (scene.state) return scene.state > 0;
    scene.state = -1;
    scene.height = malloc(SIZE * SIZE * sizeof(float));
    uint32_t st = 99;
    if (!scene.height || !wk_scene_build_world(&scene.w, scene.height, &st, &scene.bricks)) return 0;
    if (!camera_rays(&scene.camera, CAM) || !camera_rays(&scene.march, MARCH_CAM)) return 0;
    ray_buf *r = &scene.random;
    if (!ray_buf_alloc(r, RANDOM_RAYS)) return 0;
    wk_scene_random_rays(scene.height, &st, r->n, r->o, r->d);
    ray_buf *sm = &scene.small;
    if (!ray_buf_alloc(sm, 4096)) return 0;
    for (int a = 0; a < 3; a++) {
        memcpy(sm->o[a], r->o[a], 4096 * sizeof(float));
        memcpy(sm->d[a], r->d[a], 4096 * sizeof(float));
    }
    wk_exec scalar = WK_EXEC_DEFAULTS;
    scalar.isa = WK_ISA_SCALAR;
    scalar.threads = 1;
    if (cast(&scene.camera, 1, &scalar) != WK_OK || cast(&scene.random, 1, &scalar) != WK_OK ||
        cast(&scene.march, 1, &scalar) != WK_OK || cast(&scene.small, 1, &scalar) != WK_OK)
        return 0;
    scene.state = 1;
    return 1;
}

typedef struct bcase {
    int kind; /* 0 camera, 1 random, 2 points, 3 edits, 4 march, 5 random4k */
    wk_isa isa;
    int threads;
} bcase;

static void fail(wk_bench_state *st, const char *msg) {
    wk_bench_set_counter(st, "verified", 0.0);
    wk_bench_skip_with_error(st, msg);
}

static void bm_raycast(wk_bench_state *st, void *vctx) {
    const bcase *c = vctx;
    if (!build_scene()) return fail(st, "scene setup failed");
    ray_buf *r = c->kind == 0 ? &scene.camera : c->kind == 5 ? &scene.small : &scene.random;
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = c->isa;
    e.threads = c->threads;
    memset(r->t, 0x5A, r->n * 4);
    if (cast(r, 0, &e) != WK_OK) return fail(st, "raycast failed");
    if (!same_as_ref(r)) return fail(st, "output differs from the scalar reference");
    size_t hits = 0;
    for (size_t i = 0; i < r->n; i++) hits += r->sf[r->n + i] >= 0;
    wk_bench_set_counter(st, "verified", 1.0);
    wk_bench_set_counter(st, "hit_fraction", (double)hits / (double)r->n);
    while (wk_bench_keep_running(st)) {
        cast(r, 0, &e);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)r->n);
}

static void bm_points(wk_bench_state *st, void *vctx) {
    const bcase *c = vctx;
    if (!build_scene()) return fail(st, "scene setup failed");
    static float *p[3];
    static uint8_t *solid, *ref;
    static int8_t *sub;
    if (!p[0]) {
        uint32_t s = 7;
        for (int a = 0; a < 3; a++) {
            p[a] = malloc(POINTS * 4);
            if (!p[a]) return fail(st, "alloc");
            for (size_t i = 0; i < POINTS; i++) p[a][i] = (float)(wk_scene_unit(&s) * SIZE);
        }
        solid = malloc(POINTS);
        ref = malloc(POINTS);
        sub = malloc(POINTS);
        if (!solid || !ref || !sub) return fail(st, "alloc");
        wk_exec sc = WK_EXEC_DEFAULTS;
        sc.isa = WK_ISA_SCALAR;
        sc.threads = 1;
        if (wk_voxel_query_points(scene.w, p[0], p[1], p[2], POINTS, ref, NULL, &sc) != WK_OK)
            return fail(st, "reference query failed");
    }
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = c->isa;
    e.threads = c->threads;
    if (wk_voxel_query_points(scene.w, p[0], p[1], p[2], POINTS, solid, sub, &e) != WK_OK)
        return fail(st, "query failed");
    if (memcmp(solid, ref, POINTS) != 0) return fail(st, "output differs from the scalar reference");
    wk_bench_set_counter(st, "verified", 1.0);
    while (wk_bench_keep_running(st)) {
        wk_voxel_query_points(scene.w, p[0], p[1], p[2], POINTS, solid, sub, &e);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)POINTS);
}

/* Edits: 4096 random blocks of the 256^3 region of a world of its own
 * (the terrain), each made a brick and then cleared again (2 edits). */
static void bm_edits(wk_bench_state *st, void *vctx) {
    (void)vctx;
    if (!build_scene()) return fail(st, "scene setup failed");
    enum { EDITS = 4096 };
    static int32_t xyz[3 * EDITS];
    static uint64_t old[EDITS];
    uint32_t s = 3;
    for (int i = 0; i < 3 * EDITS; i++) xyz[i] = (int32_t)(wk_scene_next_u32(&s) % SIZE);
    for (int i = 0; i < EDITS; i++) wk_voxel_get_block(scene.w, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], &old[i]);
    wk_bench_set_counter(st, "verified", 1.0);
    while (wk_bench_keep_running(st)) {
        for (int i = 0; i < EDITS; i++) {
            wk_voxel_set_sub(scene.w, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], 0x0F0F0F0F0F0F0F0Full);
            wk_voxel_set_sub(scene.w, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], old[i]);
        }
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)EDITS * 2);
}

/* The baseline: march every ray in steps of 0.9 blocks (normalized
 * direction), up to 450 blocks, asking the world whether each point is
 * solid (batched point queries, one batch per step). Counter
 * wrong_first_hit: fraction of rays whose first solid block (or miss)
 * differs from the exact cast. */
static void march(const ray_buf *r, int32_t *hit_xyz, uint8_t *found, float *px, float *py, float *pz,
                  uint8_t *solid, const wk_exec *e) {
    size_t n = r->n;
    memset(found, 0, n);
    for (int k = 1; k <= 500; k++) {
        double s = 0.9 * k;
        for (size_t i = 0; i < n; i++) {
            double d[3] = {r->d[0][i], r->d[1][i], r->d[2][i]};
            double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            px[i] = (float)(r->o[0][i] + s * d[0] / l);
            py[i] = (float)(r->o[1][i] + s * d[1] / l);
            pz[i] = (float)(r->o[2][i] + s * d[2] / l);
            if (found[i]) px[i] = -1e6f; /* done: park it outside */
        }
        wk_voxel_query_points(scene.w, px, py, pz, n, solid, NULL, e);
        for (size_t i = 0; i < n; i++)
            if (!found[i] && solid[i]) {
                found[i] = 1;
                hit_xyz[i] = (int32_t)floorf(px[i]);
                hit_xyz[n + i] = (int32_t)floorf(py[i]);
                hit_xyz[2 * n + i] = (int32_t)floorf(pz[i]);
            }
    }
}

static void bm_march(wk_bench_state *st, void *vctx) {
    const bcase *c = vctx;
    if (!build_scene()) return fail(st, "scene setup failed");
    ray_buf *r = &scene.march;
    size_t n = r->n;
    int32_t *hx = malloc(n * 12);
    uint8_t *found = malloc(n), *solid = malloc(n);
    float *px = malloc(n * 4), *py = malloc(n * 4), *pz = malloc(n * 4);
    if (!hx || !found || !solid || !px || !py || !pz) return fail(st, "alloc");
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = c->isa;
    e.threads = c->threads;
    march(r, hx, found, px, py, pz, solid, &e);
    size_t wrong = 0, exact_hits = 0;
    for (size_t i = 0; i < n; i++) {
        int exact = r->ref_sf[n + i] >= 0;
        exact_hits += (size_t)exact;
        if (exact != found[i]) wrong++;
        else if (exact && (hx[i] != r->ref_xyz[i] || hx[n + i] != r->ref_xyz[n + i] || hx[2 * n + i] != r->ref_xyz[2 * n + i]))
            wrong++;
    }
    wk_bench_set_counter(st, "verified", 1.0);
    wk_bench_set_counter(st, "wrong_first_hit", (double)wrong / (double)n);
    wk_bench_set_counter(st, "exact_hit_fraction", (double)exact_hits / (double)n);
    while (wk_bench_keep_running(st)) {
        march(r, hx, found, px, py, pz, solid, &e);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)n);
    free(hx);
    free(found);
    free(solid);
    free(px);
    free(py);
    free(pz);
}

static const wk_isa isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};

void wk_bench_register_voxel(void) {
    wk_set_threads(0);
    int all = wk_threads();
    static bcase cases[64];
    size_t n = 0;
    static const char *const scenes[2] = {"camera1024", "random1M"};
    for (int kind = 0; kind < 3; kind++)
        for (int t = 0; t < (all > 1 ? 2 : 1); t++)
            for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
                if (!wk_isa_supported(isas[i])) continue;
                if (kind == 2 && isas[i] != WK_ISA_SCALAR) continue; /* point queries: one path */
                bcase *c = &cases[n++];
                c->kind = kind;
                c->isa = isas[i];
                c->threads = t ? all : 1;
                char name[128];
                if (kind < 2)
                    snprintf(name, sizeof name, "voxel/raycast/%s/%s/t%d", wk_isa_name(isas[i]), scenes[kind], c->threads);
                else
                    snprintf(name, sizeof name, "voxel/points/%s/1M/t%d", wk_isa_name(isas[i]), c->threads);
                wk_bench_register(name, kind < 2 ? bm_raycast : bm_points, c, c->threads);
            }
    for (int t = 0; t < (all > 1 ? 2 : 1); t++)
        for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
            if (!wk_isa_supported(isas[i])) continue;
            bcase *c = &cases[n++];
            c->kind = 5;
            c->isa = isas[i];
            c->threads = t ? all : 1;
            char name[128];
            snprintf(name, sizeof name, "voxel/raycast/%s/random4k/t%d", wk_isa_name(isas[i]), c->threads);
            wk_bench_register(name, bm_raycast, c, c->threads);
        }
    bcase *e = &cases[n++];
    e->kind = 3;
    e->isa = WK_ISA_SCALAR;
    e->threads = 1;
    wk_bench_register("voxel/edits/scalar/set_sub_clear/t1", bm_edits, e, 1);
    bcase *m = &cases[n++];
    m->kind = 4;
    m->isa = WK_ISA_SCALAR;
    m->threads = 1;
    wk_bench_register("voxel/march0.9/scalar/camera256/t1", bm_march, m, 1);
}
