/* bench_fracture.c: the fracture family. Names:
 *   fracture/adjacency/<isa>/100k/t<threads>     100k fragments, lattice-like (jittered
 *                                                cubes 50 x 50 x 40), full two-pass call
 *   fracture/anchors/<isa>/100k/t1               the same fragments against 4 anchor boxes
 *   fracture/break_random/scalar/100k/t1         one random fragment per break (mean per break),
 *                                                1000 breaks from the intact structure per run
 *   fracture/break_random_30k_seq/scalar/100k/t1 the same, 30000 breaks per run (the structure
 *                                                wears down and routes lengthen)
 *   fracture/break_half/scalar/100k/t1           one break that detaches half the structure
 *   fracture/bfs_full/scalar/100k/t1             a full breadth-first support search (reset),
 *                                                the cost a break without route maintenance pays
 *   fracture/volumes/scalar/1000x1280/t<threads> 1000 closed meshes of 1280 triangles, with flags
 * The graph and volumes run the same scalar code on every ISA. Each
 * benchmark verifies its output (against the scalar reference or a
 * breadth-first search) before timing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <worldkern/fracture.h>

#include "bench_shim.h"

enum { LX = 50, LY = 50, LZ = 40, NFRAG = LX * LY * LZ };

static uint32_t next_u32(uint32_t *state) {
    uint32_t z = (*state += 0x9E3779B9u);
    z = (z ^ (z >> 16)) * 0x85EBCA6Bu;
    z = (z ^ (z >> 13)) * 0xC2B2AE35u;
    return z ^ (z >> 16);
}
static float unit(uint32_t *state) { return (float)(next_u32(state) >> 8) * (1.0f / 16777216.0f); }

/* ------------------------------------------------------------ shared data */

typedef struct lattice {
    int ready;
    float *v[6];
    wk_boxes boxes;
    uint32_t *pairs;
    size_t npairs;
    uint8_t *anchor;
    void *ws;
    size_t ws_bytes;
} lattice;
static lattice L;

/* Cubes of side 0.9..1 jittered by up to 0.04 around a unit lattice;
 * padding 0.06 makes face, edge and corner neighbours touch. */
static const float PAD = 0.06f;

static int lattice_setup(void) {
    if (L.ready) return L.ready > 0;
    L.ready = -1;
    uint32_t st = 12345;
    for (int a = 0; a < 6; a++) {
        L.v[a] = malloc(NFRAG * sizeof(float));
        if (!L.v[a]) return 0;
    }
    for (uint32_t i = 0; i < NFRAG; i++) {
        float c[3] = {(float)(i % LX), (float)(i / LX % LY), (float)(i / LX / LY)};
        for (int a = 0; a < 3; a++) {
            float lo = c[a] + (unit(&st) - 0.5f) * 0.08f, size = 0.9f + 0.1f * unit(&st);
            L.v[a][i] = lo;
            L.v[a + 3][i] = lo + size;
        }
    }
    wk_boxes b = WK_BOXES_DEFAULTS;
    b.min_x = L.v[0];
    b.min_y = L.v[1];
    b.min_z = L.v[2];
    b.max_x = L.v[3];
    b.max_y = L.v[4];
    b.max_z = L.v[5];
    b.n = NFRAG;
    L.boxes = b;
    if (wk_fracture_adjacency_workspace_size(NFRAG, &L.ws_bytes) != WK_OK) return 0;
    L.ws = malloc(L.ws_bytes);
    wk_exec scalar = WK_EXEC_DEFAULTS;
    scalar.isa = WK_ISA_SCALAR;
    scalar.threads = 1;
    if (!L.ws || wk_fracture_adjacency(&b, PAD, L.ws, L.ws_bytes, NULL, 0, &L.npairs, &scalar) != WK_OK) return 0;
    L.pairs = malloc(L.npairs * 2 * sizeof(uint32_t));
    if (!L.pairs || wk_fracture_adjacency(&b, PAD, L.ws, L.ws_bytes, L.pairs, L.npairs, &L.npairs, &scalar) != WK_OK)
        return 0;
    /* Anchors: the bottom layer (a ground slab below z = 0.1). */
    L.anchor = malloc(NFRAG);
    wk_boxes ground = WK_BOXES_DEFAULTS;
    float gx0 = -10, gy0 = -10, gz0 = -10, gx1 = 100, gy1 = 100, gz1 = 0.0f;
    ground.min_x = &gx0;
    ground.min_y = &gy0;
    ground.min_z = &gz0;
    ground.max_x = &gx1;
    ground.max_y = &gy1;
    ground.max_z = &gz1;
    ground.n = 1;
    if (!L.anchor || wk_fracture_anchors(&b, PAD, &ground, L.anchor, &scalar) != WK_OK) return 0;
    L.ready = 1;
    return 1;
}

static void fail(wk_bench_state *st, const char *msg) {
    wk_bench_set_counter(st, "verified", 0.0);
    wk_bench_skip_with_error(st, msg);
}

typedef struct bench_case {
    wk_isa isa;
    int threads;
} bench_case;

static wk_exec exec_of(const bench_case *c) {
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = c->isa;
    e.threads = c->threads;
    return e;
}

/* -------------------------------------------------------------- adjacency */

static void bm_adjacency(wk_bench_state *st, void *vctx) {
    const bench_case *c = vctx;
    if (!lattice_setup()) return fail(st, "setup failed");
    wk_exec e = exec_of(c);
    uint32_t *out = malloc(L.npairs * 2 * sizeof(uint32_t));
    size_t count = 0;
    if (!out) return fail(st, "allocation failed");
    memset(out, 0x5A, L.npairs * 2 * sizeof(uint32_t));
    if (wk_fracture_adjacency(&L.boxes, PAD, L.ws, L.ws_bytes, out, L.npairs, &count, &e) != WK_OK ||
        count != L.npairs || memcmp(out, L.pairs, L.npairs * 2 * sizeof(uint32_t)) != 0) {
        free(out);
        return fail(st, "pairs differ from the scalar reference");
    }
    wk_bench_set_counter(st, "verified", 1.0);
    wk_bench_set_counter(st, "pairs", (double)L.npairs);
    while (wk_bench_keep_running(st)) {
        wk_fracture_adjacency(&L.boxes, PAD, L.ws, L.ws_bytes, out, L.npairs, &count, &e);
        wk_bench_do_not_optimize(out);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)NFRAG);
    free(out);
}

static void bm_anchors(wk_bench_state *st, void *vctx) {
    const bench_case *c = vctx;
    if (!lattice_setup()) return fail(st, "setup failed");
    wk_exec e = exec_of(c), scalar = WK_EXEC_DEFAULTS;
    scalar.isa = WK_ISA_SCALAR;
    float mn[3][4] = {{-10, -10, 49, 20}, {-10, -10, -10, 20}, {-10, -10, -10, 39}};
    float mx[3][4] = {{100, 0, 100, 30}, {100, 100, 0, 30}, {0.05f, 100, 100, 100}};
    wk_boxes a = WK_BOXES_DEFAULTS;
    a.min_x = mn[0];
    a.min_y = mn[1];
    a.min_z = mn[2];
    a.max_x = mx[0];
    a.max_y = mx[1];
    a.max_z = mx[2];
    a.n = 4;
    uint8_t *ref = malloc(NFRAG), *out = malloc(NFRAG);
    if (!ref || !out || wk_fracture_anchors(&L.boxes, PAD, &a, ref, &scalar) != WK_OK ||
        wk_fracture_anchors(&L.boxes, PAD, &a, out, &e) != WK_OK || memcmp(ref, out, NFRAG) != 0) {
        free(ref);
        free(out);
        return fail(st, "flags differ from the scalar reference");
    }
    wk_bench_set_counter(st, "verified", 1.0);
    while (wk_bench_keep_running(st)) {
        wk_fracture_anchors(&L.boxes, PAD, &a, out, &e);
        wk_bench_do_not_optimize(out);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)NFRAG);
    free(ref);
    free(out);
}

/* ------------------------------------------------------------------ graph */

/* Breadth-first support over the lattice pairs, for verification. */
static uint32_t bfs_alive(const uint8_t *removed, uint8_t *alive) {
    static uint32_t *off, *adj, *queue;
    if (!off) {
        off = calloc(NFRAG + 1, sizeof(uint32_t));
        adj = malloc(L.npairs * 2 * sizeof(uint32_t));
        queue = malloc(NFRAG * sizeof(uint32_t));
        uint32_t *fill = malloc(NFRAG * sizeof(uint32_t));
        for (size_t k = 0; k < L.npairs; k++) {
            off[L.pairs[2 * k] + 1]++;
            off[L.pairs[2 * k + 1] + 1]++;
        }
        for (uint32_t v = 0; v < NFRAG; v++) off[v + 1] += off[v];
        memcpy(fill, off, NFRAG * sizeof(uint32_t));
        for (size_t k = 0; k < L.npairs; k++) {
            adj[fill[L.pairs[2 * k]]++] = L.pairs[2 * k + 1];
            adj[fill[L.pairs[2 * k + 1]]++] = L.pairs[2 * k];
        }
        free(fill);
    }
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < NFRAG; v++) {
        alive[v] = L.anchor[v] && !removed[v];
        if (alive[v]) queue[tail++] = v;
    }
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t e = off[u]; e < off[u + 1]; e++) {
            uint32_t w = adj[e];
            if (alive[w] || removed[w]) continue;
            alive[w] = 1;
            queue[tail++] = w;
        }
    }
    return tail;
}

/* Breaks per run from the intact structure: ctx points at the count. */
static uint32_t breaks_1k = 1000, breaks_30k = 30000;

static void bm_break_random(wk_bench_state *st, void *vctx) {
    const uint32_t BREAKS_PER_RESET = *(const uint32_t *)vctx;
    if (!lattice_setup()) return fail(st, "setup failed");
    wk_fracture_graph *g = NULL;
    if (wk_fracture_graph_create(NFRAG, L.pairs, L.npairs, L.anchor, NULL, &g, NULL) != WK_OK)
        return fail(st, "create failed");
    /* Random order of all fragments; each run of BREAKS_PER_RESET breaks
     * starts from the intact structure. */
    uint32_t *order = malloc(NFRAG * sizeof(uint32_t));
    uint8_t *removed = calloc(NFRAG, 1), *want = malloc(NFRAG), *got = malloc(NFRAG);
    uint32_t st32 = 99;
    for (uint32_t i = 0; i < NFRAG; i++) order[i] = i;
    for (uint32_t i = NFRAG - 1; i > 0; i--) {
        uint32_t j = next_u32(&st32) % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    /* Verify 300 breaks against a full breadth-first search. */
    const uint32_t *fallen;
    size_t count, total_fallen = 0;
    int ok = 1;
    for (uint32_t b = 0; b < 300 && ok; b++) {
        removed[order[b]] = 1;
        wk_fracture_graph_break(g, &order[b], 1, &fallen, &count, NULL);
        uint32_t alive_count;
        wk_fracture_graph_alive(g, got, &alive_count);
        ok = bfs_alive(removed, want) == alive_count && memcmp(want, got, NFRAG) == 0;
    }
    wk_fracture_graph_reset(g);
    if (!ok) {
        wk_fracture_graph_destroy(g);
        return fail(st, "break differs from a breadth-first search");
    }
    wk_bench_set_counter(st, "verified", 1.0);
    uint32_t at = 0;
    while (wk_bench_keep_running(st)) {
        if (at == BREAKS_PER_RESET) {
            wk_bench_pause_timing(st);
            wk_fracture_graph_reset(g);
            at = 0;
            wk_bench_resume_timing(st);
        }
        wk_fracture_graph_break(g, &order[at++], 1, &fallen, &count, NULL);
        total_fallen += count;
        wk_bench_do_not_optimize(fallen);
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st));
    wk_bench_set_counter(st, "fallen_per_break", (double)total_fallen / (double)wk_bench_iterations(st));
    wk_fracture_graph_destroy(g);
    free(order);
    free(removed);
    free(want);
    free(got);
}

/* The lattice with its middle layer gone but for one fragment: breaking
 * that fragment detaches the upper half (everything above the layer). */
static void bm_break_half(wk_bench_state *st, void *vctx) {
    (void)vctx;
    if (!lattice_setup()) return fail(st, "setup failed");
    const uint32_t mid = LZ / 2, keep = (mid * LY + LY / 2) * LX + LX / 2;
    uint32_t *pairs = malloc(L.npairs * 2 * sizeof(uint32_t));
    size_t np = 0;
    for (size_t k = 0; k < L.npairs; k++) {
        uint32_t a = L.pairs[2 * k], b = L.pairs[2 * k + 1];
        int drop = (a / (LX * LY) == mid && a != keep) || (b / (LX * LY) == mid && b != keep);
        if (drop) continue;
        pairs[2 * np] = a;
        pairs[2 * np + 1] = b;
        np++;
    }
    wk_fracture_graph *g = NULL;
    if (wk_fracture_graph_create(NFRAG, pairs, np, L.anchor, NULL, &g, NULL) != WK_OK) return fail(st, "create");
    const uint32_t *fallen;
    size_t count = 0;
    wk_fracture_graph_break(g, &keep, 1, &fallen, &count, NULL);
    size_t want = (size_t)(LZ - mid - 1) * LX * LY;
    if (count != want) {
        wk_fracture_graph_destroy(g);
        free(pairs);
        return fail(st, "the break did not detach the upper half");
    }
    wk_bench_set_counter(st, "verified", 1.0);
    wk_bench_set_counter(st, "fallen", (double)count);
    while (wk_bench_keep_running(st)) {
        wk_bench_pause_timing(st);
        wk_fracture_graph_reset(g);
        wk_bench_resume_timing(st);
        wk_fracture_graph_break(g, &keep, 1, &fallen, &count, NULL);
        wk_bench_do_not_optimize(fallen);
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)want);
    wk_fracture_graph_destroy(g);
    free(pairs);
}

static void bm_bfs_full(wk_bench_state *st, void *vctx) {
    (void)vctx;
    if (!lattice_setup()) return fail(st, "setup failed");
    wk_fracture_graph *g = NULL;
    if (wk_fracture_graph_create(NFRAG, L.pairs, L.npairs, L.anchor, NULL, &g, NULL) != WK_OK) return fail(st, "create");
    wk_bench_set_counter(st, "verified", 1.0);
    while (wk_bench_keep_running(st)) {
        wk_fracture_graph_reset(g);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)NFRAG);
    wk_fracture_graph_destroy(g);
}

/* ---------------------------------------------------------------- volumes */

enum { MESHES = 1000, SEG = 40, RINGS = 17 }; /* 2 * 40 * 16 = 1280 triangles */

static void bm_volumes(wk_bench_state *st, void *vctx) {
    const bench_case *c = vctx;
    const uint32_t per_v = SEG * (RINGS - 1) + 2, per_t = 2 * SEG * (RINGS - 1);
    uint32_t nv = MESHES * per_v, nt = MESHES * per_t;
    float *vx = malloc(nv * sizeof(float)), *vy = malloc(nv * sizeof(float)), *vz = malloc(nv * sizeof(float));
    uint32_t *tris = malloc((size_t)nt * 3 * sizeof(uint32_t)), *start = malloc((MESHES + 1) * sizeof(uint32_t));
    const double pi = 3.14159265358979323846;
    uint32_t v = 0, t = 0;
    for (uint32_t m = 0; m < MESHES; m++) {
        start[m] = t;
        double cx = (double)(m % 10) * 3, cy = (double)(m / 10 % 10) * 3, cz = (double)(m / 100) * 3, r = 1.0;
        uint32_t top = v;
        vx[v] = (float)cx, vy[v] = (float)cy, vz[v++] = (float)(cz + r);
        for (int i = 1; i < RINGS; i++)
            for (int j = 0; j < SEG; j++) {
                double th = pi * i / RINGS, ph = 2 * pi * j / SEG;
                vx[v] = (float)(cx + r * sin(th) * cos(ph));
                vy[v] = (float)(cy + r * sin(th) * sin(ph));
                vz[v++] = (float)(cz + r * cos(th));
            }
        uint32_t bottom = v;
        vx[v] = (float)cx, vy[v] = (float)cy, vz[v++] = (float)(cz - r);
#define RING(i, j) (top + 1 + (uint32_t)((i) - 1) * SEG + (uint32_t)((j) % SEG))
#define TRI(a, b, cc) (tris[3 * t] = (a), tris[3 * t + 1] = (b), tris[3 * t + 2] = (cc), t++)
        for (int j = 0; j < SEG; j++) TRI(top, RING(1, j), RING(1, j + 1));
        for (int i = 1; i < RINGS - 1; i++)
            for (int j = 0; j < SEG; j++) {
                TRI(RING(i, j), RING(i + 1, j), RING(i + 1, j + 1));
                TRI(RING(i, j), RING(i + 1, j + 1), RING(i, j + 1));
            }
        for (int j = 0; j < SEG; j++) TRI(bottom, RING(RINGS - 1, j + 1), RING(RINGS - 1, j));
#undef RING
#undef TRI
    }
    start[MESHES] = t;
    wk_meshes ms = WK_MESHES_DEFAULTS;
    ms.vx = vx;
    ms.vy = vy;
    ms.vz = vz;
    ms.vertex_count = nv;
    ms.mesh_count = MESHES;
    ms.tris = tris;
    ms.tri_count = nt;
    ms.tri_start = start;
    size_t bytes;
    wk_fracture_volumes_workspace_size(nt, &bytes);
    void *ws = malloc(bytes);
    double *vol = malloc(MESHES * sizeof(double)), *ref = malloc(MESHES * sizeof(double));
    uint8_t *flags = malloc(MESHES);
    wk_exec e = exec_of(c), scalar = WK_EXEC_DEFAULTS;
    scalar.isa = WK_ISA_SCALAR;
    scalar.threads = 1;
    int ok = wk_fracture_volumes(&ms, 1.0, ws, bytes, ref, NULL, flags, &scalar) == WK_OK &&
             wk_fracture_volumes(&ms, 1.0, ws, bytes, vol, NULL, flags, &e) == WK_OK &&
             memcmp(vol, ref, MESHES * sizeof(double)) == 0 && flags[0] == 0 && vol[0] > 4.0 && vol[0] < 4.19;
    if (!ok) fail(st, "volumes differ from the scalar reference or are wrong");
    else {
        wk_bench_set_counter(st, "verified", 1.0);
        while (wk_bench_keep_running(st)) {
            wk_fracture_volumes(&ms, 1.0, ws, bytes, vol, NULL, flags, &e);
            wk_bench_do_not_optimize(vol);
            wk_bench_clobber_memory();
        }
        wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)nt);
    }
    free(vx), free(vy), free(vz), free(tris), free(start), free(ws), free(vol), free(ref), free(flags);
}

/* ------------------------------------------------------------- register */

static bench_case cases[32];
static int ncases;

static void reg(const char *kernel, wk_bench_fn fn, wk_isa isa, int threads, const char *size, int label) {
    bench_case *c = &cases[ncases++];
    c->isa = isa;
    c->threads = threads;
    char name[128];
    snprintf(name, sizeof name, "fracture/%s/%s/%s/t%d", kernel, wk_isa_name(isa), size, label);
    wk_bench_register(name, fn, c, label);
}

void wk_bench_register_fracture(void) {
    static const wk_isa isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    wk_set_threads(0);
    int all = wk_threads();
    for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
        if (!wk_isa_supported(isas[i])) continue;
        reg("adjacency", bm_adjacency, isas[i], 1, "100k", 1);
        if (all > 1) reg("adjacency", bm_adjacency, isas[i], all, "100k", all);
        reg("anchors", bm_anchors, isas[i], 1, "100k", 1);
    }
    wk_bench_register("fracture/break_random/scalar/100k/t1", bm_break_random, &breaks_1k, 1);
    wk_bench_register("fracture/break_random_30k_seq/scalar/100k/t1", bm_break_random, &breaks_30k, 1);
    reg("break_half", bm_break_half, WK_ISA_SCALAR, 1, "100k", 1);
    reg("bfs_full", bm_bfs_full, WK_ISA_SCALAR, 1, "100k", 1);
    reg("volumes", bm_volumes, WK_ISA_SCALAR, 1, "1000x1280", 1);
    if (all > 1) reg("volumes", bm_volumes, WK_ISA_SCALAR, all, "1000x1280", all);
}
