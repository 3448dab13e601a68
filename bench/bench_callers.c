/* bench_callers.c: several threads calling at once, as an engine's job
 * threads do. Each caller runs a kernel on its own data with one library
 * thread (wk_exec.threads = 1) while the other callers run theirs. Names:
 *   <family>/<kernel>_callers<n>/<isa>/<size>/t1
 * n callers (the benchmark's thread and n - 1 workers that wait spinning
 * between iterations, yielding now and then) each do the same work per iteration, so the time of
 * an iteration is that of one caller's work when the calls scale; items
 * count every caller's work. callers1 is the same loop with one caller:
 * items per second of callers2 over callers1, measured in one run, is the
 * scaling of independent calls sharing the cores, caches and memory
 * (2.0 = perfect on two cores). Kernels, the sizes a game calls them at:
 *   contour/mesh_chunks: the meshes (triangles + segments) of the 16
 *     64x64-cell chunks of the caller's own 257^2 field (bench_contour's
 *     sparse fBm, another seed per caller), with
 *     wk_msq_bound capacities (one pass);
 *   voxel/raycast: 4096 random rays of the caller's own (a frame's worth
 *     of game rays) in the benchmarks' 256^3 terrain, shared by all callers;
 *   noise/fbm2_chunks: 16 chunks of 64^2 fBm samples (5 octaves).
 * Before timing, every caller's output is compared with the scalar
 * reference's. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <worldkern/contour.h>
#include <worldkern/noise.h>
#include <worldkern/voxel.h>

#include "bench_shim.h"
#include "voxel_scene.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SPIN_PAUSE() _mm_pause()
#else
#define SPIN_PAUSE() ((void)0)
#endif

/* A waiting caller spins (a job system's workers do), and yields now and
 * then so that a busy machine still runs the caller it waits for. */
static void spin_wait(unsigned *spins) {
    if (++*spins % 256 == 0)
        sched_yield();
    else
        SPIN_PAUSE();
}

enum { MAX_CALLERS = 2, CHUNKS = 16, CHUNK = 64, FIELD = 4 * CHUNK + 1, RAYS = 4096 };

/* ------------------------------------------------------------ the callers */

typedef void (*caller_work)(void *ctx, int caller);

/* n - 1 worker threads beside the benchmark's thread; a round starts when
 * `round` changes and ends when every worker has counted `pending` down. */
typedef struct callers {
    int n;
    caller_work work;
    void *ctx;
    atomic_uint round;
    atomic_int pending, stop;
    pthread_t thread[MAX_CALLERS];
    int index[MAX_CALLERS];
} callers;

static callers *team;

static void *worker(void *arg) {
    const int k = *(const int *)arg;
    unsigned seen = 0, spins = 0;
    for (;;) {
        unsigned r;
        while ((r = atomic_load_explicit(&team->round, memory_order_acquire)) == seen) spin_wait(&spins);
        seen = r;
        if (atomic_load_explicit(&team->stop, memory_order_relaxed)) return NULL;
        team->work(team->ctx, k);
        atomic_fetch_sub_explicit(&team->pending, 1, memory_order_release);
    }
}

static int callers_start(callers *c, int n, caller_work work, void *ctx) {
    memset(c, 0, sizeof *c);
    c->n = n;
    c->work = work;
    c->ctx = ctx;
    team = c;
    for (int k = 1; k < n; k++) {
        c->index[k] = k;
        if (pthread_create(&c->thread[k], NULL, worker, &c->index[k]) != 0) {
            c->n = k;
            return 0;
        }
    }
    return 1;
}

/* Every caller does its work once; returns when all have. */
static void callers_round(callers *c) {
    atomic_store_explicit(&c->pending, c->n - 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->round, 1, memory_order_release);
    c->work(c->ctx, 0);
    unsigned spins = 0;
    while (atomic_load_explicit(&c->pending, memory_order_acquire)) spin_wait(&spins);
}

static void callers_stop(callers *c) {
    atomic_store_explicit(&c->stop, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->round, 1, memory_order_release);
    for (int k = 1; k < c->n; k++) pthread_join(c->thread[k], NULL);
}

/* ------------------------------------------------------------ the kernels */

typedef struct bcase {
    int kind; /* 0 contour, 1 voxel, 2 noise */
    int n;    /* callers */
    wk_isa isa;
} bcase;

typedef struct caller_data {
    wk_exec exec;
    float *field;      /* contour: FIELD^2 nodes */
    wk_mesh2 mesh[CHUNKS];
    float *o[3], *d[3]; /* voxel: RAYS rays */
    wk_hits hits;
    float *samples; /* noise: CHUNKS chunks of CHUNK^2 */
} caller_data;

typedef struct run_ctx {
    const bcase *c;
    caller_data data[MAX_CALLERS];
    wk_voxel_world *world;
    wk_fbm fbm;
    wk_status status[MAX_CALLERS];
} run_ctx;

static wk_field2 caller_field(const caller_data *cd) {
    wk_field2 f;
    memset(&f, 0, sizeof f);
    f.v = cd->field;
    f.w = FIELD;
    f.h = FIELD;
    f.stride = FIELD;
    return f;
}

static wk_status contour_work(caller_data *cd) {
    const wk_field2 f = caller_field(cd);
    wk_status s = WK_OK;
    for (int i = 0; i < CHUNKS && s == WK_OK; i++)
        s = wk_msq_build(&f, (uint32_t)(i % 4) * CHUNK, (uint32_t)(i / 4) * CHUNK, CHUNK, CHUNK, 0.0f, 1.0f,
                         WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, &cd->mesh[i], &cd->exec);
    return s;
}

static wk_status voxel_work(const run_ctx *x, caller_data *cd) {
    wk_rays r;
    memset(&r, 0, sizeof r);
    r.ox = cd->o[0];
    r.oy = cd->o[1];
    r.oz = cd->o[2];
    r.dx = cd->d[0];
    r.dy = cd->d[1];
    r.dz = cd->d[2];
    r.n = RAYS;
    return wk_voxel_raycast(x->world, &r, &cd->hits, &cd->exec);
}

static wk_status noise_work(const run_ctx *x, caller_data *cd, int caller) {
    wk_status s = WK_OK;
    for (int i = 0; i < CHUNKS && s == WK_OK; i++) {
        wk_grid2 g = WK_GRID2_DEFAULTS;
        g.i0 = CHUNK * (i % 4 + 4 * caller);
        g.j0 = CHUNK * (i / 4);
        g.nx = CHUNK;
        g.ny = CHUNK;
        g.step = 1.0;
        g.stride = CHUNK;
        s = wk_noise_fbm2_grid(&x->fbm, &g, cd->samples + (size_t)i * CHUNK * CHUNK, &cd->exec);
    }
    return s;
}

static void work(void *ctx, int caller) {
    run_ctx *x = ctx;
    caller_data *cd = &x->data[caller];
    wk_status s = x->c->kind == 0 ? contour_work(cd) : x->c->kind == 1 ? voxel_work(x, cd) : noise_work(x, cd, caller);
    if (s != WK_OK) x->status[caller] = s;
}

static void free_data(run_ctx *x) {
    for (int k = 0; k < MAX_CALLERS; k++) {
        caller_data *cd = &x->data[k];
        free(cd->field);
        for (int i = 0; i < CHUNKS; i++) {
            free(cd->mesh[i].x);
            free(cd->mesh[i].y);
            free(cd->mesh[i].tri);
            free(cd->mesh[i].seg);
        }
        for (int a = 0; a < 3; a++) {
            free(cd->o[a]);
            free(cd->d[a]);
        }
        free(cd->hits.t);
        free(cd->hits.x);
        free(cd->hits.y);
        free(cd->hits.z);
        free(cd->hits.sub);
        free(cd->hits.face);
        free(cd->samples);
    }
    if (x->world) wk_voxel_world_destroy(x->world);
}

static int alloc_mesh(wk_mesh2 *m) {
    uint32_t vc, tc, sc;
    wk_msq_bound(CHUNK, CHUNK, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, &vc, &tc, &sc);
    memset(m, 0, sizeof *m);
    m->x = malloc(sizeof(float) * vc);
    m->y = malloc(sizeof(float) * vc);
    m->tri = malloc(sizeof(uint32_t) * 3 * (size_t)tc);
    m->seg = malloc(sizeof(uint32_t) * 2 * (size_t)sc);
    m->vert_cap = vc;
    m->tri_cap = tc;
    m->seg_cap = sc;
    return m->x && m->y && m->tri && m->seg;
}

/* The caller's data; 0 when out of memory. */
static int make_data(run_ctx *x, int k, uint32_t *rng, const float *height) {
    caller_data *cd = &x->data[k];
    cd->exec = (wk_exec)WK_EXEC_DEFAULTS;
    cd->exec.threads = 1;
    cd->exec.isa = x->c->isa;
    if (x->c->kind == 0) {
        cd->field = malloc(sizeof(float) * FIELD * FIELD);
        if (!cd->field) return 0;
        wk_fbm f = WK_FBM_DEFAULTS;
        f.seed = 5 + (uint32_t)k;
        f.octaves = 4;
        f.frequency = 1.0 / 160.0; /* bench_contour's sparse field */
        wk_grid2 g = WK_GRID2_DEFAULTS;
        g.nx = FIELD;
        g.ny = FIELD;
        g.step = 1.0;
        g.stride = FIELD;
        if (wk_noise_fbm2_grid(&f, &g, cd->field, NULL) != WK_OK) return 0;
        for (int i = 0; i < CHUNKS; i++)
            if (!alloc_mesh(&cd->mesh[i])) return 0;
    } else if (x->c->kind == 1) {
        for (int a = 0; a < 3; a++) {
            cd->o[a] = malloc(sizeof(float) * RAYS);
            cd->d[a] = malloc(sizeof(float) * RAYS);
            if (!cd->o[a] || !cd->d[a]) return 0;
        }
        wk_scene_random_rays(height, rng, RAYS, cd->o, cd->d);
        cd->hits.t = malloc(sizeof(float) * RAYS);
        cd->hits.x = malloc(sizeof(int32_t) * RAYS);
        cd->hits.y = malloc(sizeof(int32_t) * RAYS);
        cd->hits.z = malloc(sizeof(int32_t) * RAYS);
        cd->hits.sub = malloc(RAYS);
        cd->hits.face = malloc(RAYS);
        if (!cd->hits.t || !cd->hits.x || !cd->hits.y || !cd->hits.z || !cd->hits.sub || !cd->hits.face) return 0;
    } else {
        cd->samples = malloc(sizeof(float) * CHUNKS * CHUNK * CHUNK);
        if (!cd->samples) return 0;
    }
    return 1;
}

/* 1 when caller k's outputs are those of the scalar reference. */
static int matches_reference(run_ctx *x, int k) {
    caller_data *cd = &x->data[k], ref;
    ref = *cd;
    ref.exec.isa = WK_ISA_SCALAR;
    int same = 1;
    if (x->c->kind == 0) {
        const wk_field2 f = caller_field(cd);
        for (int i = 0; i < CHUNKS && same; i++) {
            wk_mesh2 m;
            if (!alloc_mesh(&m)) return 0;
            same = wk_msq_build(&f, (uint32_t)(i % 4) * CHUNK, (uint32_t)(i / 4) * CHUNK, CHUNK, CHUNK, 0.0f, 1.0f,
                                WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, &m, &ref.exec) == WK_OK;
            const wk_mesh2 *a = &cd->mesh[i];
            same = same && m.nvert == a->nvert && m.ntri == a->ntri && m.nseg == a->nseg &&
                   !memcmp(m.x, a->x, sizeof(float) * m.nvert) && !memcmp(m.y, a->y, sizeof(float) * m.nvert) &&
                   !memcmp(m.tri, a->tri, sizeof(uint32_t) * 3 * m.ntri) &&
                   !memcmp(m.seg, a->seg, sizeof(uint32_t) * 2 * m.nseg);
            free(m.x);
            free(m.y);
            free(m.tri);
            free(m.seg);
        }
    } else if (x->c->kind == 1) {
        float *t = malloc(sizeof(float) * RAYS);
        int32_t *c[3] = {malloc(sizeof(int32_t) * RAYS), malloc(sizeof(int32_t) * RAYS), malloc(sizeof(int32_t) * RAYS)};
        int8_t *sub = malloc(RAYS), *face = malloc(RAYS);
        same = t && c[0] && c[1] && c[2] && sub && face;
        if (same) {
            memset(&ref.hits, 0, sizeof ref.hits);
            ref.hits.t = t;
            ref.hits.x = c[0];
            ref.hits.y = c[1];
            ref.hits.z = c[2];
            ref.hits.sub = sub;
            ref.hits.face = face;
            same = voxel_work(x, &ref) == WK_OK && !memcmp(t, cd->hits.t, sizeof(float) * RAYS) &&
                   !memcmp(c[0], cd->hits.x, sizeof(int32_t) * RAYS) &&
                   !memcmp(c[1], cd->hits.y, sizeof(int32_t) * RAYS) &&
                   !memcmp(c[2], cd->hits.z, sizeof(int32_t) * RAYS) && !memcmp(sub, cd->hits.sub, RAYS) &&
                   !memcmp(face, cd->hits.face, RAYS);
        }
        free(t);
        free(c[0]);
        free(c[1]);
        free(c[2]);
        free(sub);
        free(face);
    } else {
        ref.samples = malloc(sizeof(float) * CHUNKS * CHUNK * CHUNK);
        same = ref.samples && noise_work(x, &ref, k) == WK_OK &&
               !memcmp(ref.samples, cd->samples, sizeof(float) * CHUNKS * CHUNK * CHUNK);
        free(ref.samples);
    }
    return same;
}

static void bm(wk_bench_state *st, void *arg) {
    const bcase *c = arg;
    run_ctx *x = calloc(1, sizeof *x);
    if (!x) {
        wk_bench_skip_with_error(st, "out of memory");
        return;
    }
    x->c = c;
    x->fbm = (wk_fbm)WK_FBM_DEFAULTS;
    x->fbm.octaves = 5;
    x->fbm.frequency = 1.0 / 256.0;
    uint32_t rng = 99;
    uint64_t bricks = 0;
    float *height = NULL;
    const char *err = NULL;
    if (c->kind == 1) {
        height = malloc(sizeof(float) * WK_SCENE_SIZE * WK_SCENE_SIZE);
        if (!height || !wk_scene_build_world(&x->world, height, &rng, &bricks)) err = "building the voxel scene failed";
    }
    for (int k = 0; k < c->n && !err; k++)
        if (!make_data(x, k, &rng, height)) err = "out of memory";
    free(height);
    /* one round first: the outputs to verify, and pages touched */
    callers team_storage;
    memset(&team_storage, 0, sizeof team_storage);
    if (!err && !callers_start(&team_storage, c->n, work, x)) err = "pthread_create failed";
    if (!err) callers_round(&team_storage);
    for (int k = 0; k < c->n && !err; k++)
        if (x->status[k] != WK_OK) err = wk_status_str(x->status[k]);
        else if (!matches_reference(x, k)) err = "a caller's output differs from the scalar reference";
    if (err) {
        callers_stop(&team_storage);
        free_data(x);
        free(x);
        wk_bench_set_counter(st, "verified", 0.0);
        wk_bench_skip_with_error(st, err);
        return;
    }
    wk_bench_set_counter(st, "verified", 1.0);
    while (wk_bench_keep_running(st)) {
        callers_round(&team_storage);
        wk_bench_clobber_memory();
    }
    callers_stop(&team_storage);
    const int64_t items = c->kind == 1 ? RAYS : (int64_t)CHUNKS * CHUNK * CHUNK;
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * items * c->n);
    free_data(x);
    free(x);
}

static bcase cases[3 * 3 * MAX_CALLERS];

void wk_bench_register_callers(void) {
    static const char *const names[3] = {"contour/mesh_chunks", "voxel/raycast", "noise/fbm2_chunks"};
    static const char *const sizes[3] = {"16x64x64", "random4k", "16x64x64"};
    static const wk_isa isas[3] = {WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    int used = 0;
    for (int kind = 0; kind < 3; kind++)
        for (int i = 0; i < 3; i++) {
            if (!wk_isa_supported(isas[i])) continue;
            for (int n = 1; n <= MAX_CALLERS; n++) {
                bcase *c = &cases[used++];
                c->kind = kind;
                c->n = n;
                c->isa = isas[i];
                char name[128];
                snprintf(name, sizeof name, "%s_callers%d/%s/%s/t1", names[kind], n, wk_isa_name(isas[i]), sizes[kind]);
                wk_bench_register(name, bm, c, 1);
            }
        }
}
