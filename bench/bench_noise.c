/* bench_noise.c: the noise family. Names: noise/<kernel>/<isa>/<size>/t<threads>.
 * Every benchmark runs its kernel through a wk_exec of its own (ISA cap and
 * thread count per call; the process setters are never touched).
 *
 * Before timing, each benchmark runs its kernel once on the benchmarked ISA
 * and compares the output (memcmp) with the scalar reference, computed once
 * per kernel and cached. A mismatch skips the benchmark with an error and
 * the table shows verified = no.
 *
 * Kinds of case (what engines run):
 *   dense grids       spacing well below a lattice cell (warm output buffer)
 *   sparse grids      spacing 0.37 and 1.37 cells (one sample per cell or
 *                     more) and an 8-octave fBm whose upper octaves are sparse
 *   cold output       the same grids written into a ring of buffers larger
 *                     than the last-level cache, so every call's output is
 *                     out of cache (_cold)
 *   chunk walks       16x16 and 32x32 tiles, 16^3 chunks, one call per chunk
 *                     with the origin moving each call (time per iteration =
 *                     ns per call), and one sample per call (fixed cost)
 *   points, warp, 3D derivatives
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <worldkern/noise.h>

#include "bench_shim.h"

typedef struct kernel kernel;
typedef wk_status (*kernel_run_fn)(kernel *k, float *out, const wk_exec *exec, int64_t call);

enum { RING = 12 }; /* cold output: 12 buffers (48 MiB for 1024^2 floats) */

struct kernel {
    const char *name;
    const char *size;      /* e.g. "1024x1024" */
    size_t items;          /* points (items) per call */
    size_t out_floats;     /* floats of output compared against the reference */
    int cold;              /* output ring instead of one buffer */
    int walk;              /* chunk walk: the origin moves every call */
    int all_threads;       /* also benchmark with every core */
    kernel_run_fn run;
    wk_fbm fbm;
    wk_grid2 g2;
    wk_grid3 g3;
    wk_warp warp;
    /* set up on first use */
    int ready;             /* 0 not yet, 1 ready, -1 failed */
    int ref_ready;
    double *in[3];         /* points: coordinates */
    float *out, *ref, *ring[RING];
};

typedef struct bench_case {
    kernel *k;
    wk_isa isa;
    int threads;           /* wk_exec.threads: 1, or 0 = all cores */
} bench_case;

/* ------------------------------------------------------------ kernels */

/* Chunk walk: call c samples the chunk at (c % 64, c / 64 % 64) chunks from the origin. */
static void walk2(kernel *k, int64_t call) {
    k->g2.i0 = (int64_t)(call % 64) * k->g2.nx;
    k->g2.j0 = (int64_t)(call / 64 % 64) * k->g2.ny;
}
static void walk3(kernel *k, int64_t call) {
    k->g3.i0 = (int64_t)(call % 16) * k->g3.nx;
    k->g3.j0 = (int64_t)(call / 16 % 16) * k->g3.ny;
    k->g3.k0 = (int64_t)(call / 256 % 16) * k->g3.nz;
}

static wk_status run_fbm2(kernel *k, float *out, const wk_exec *e, int64_t call) {
    if (k->walk) walk2(k, call);
    return wk_noise_fbm2_grid(&k->fbm, &k->g2, out, e);
}
static wk_status run_fbm3(kernel *k, float *out, const wk_exec *e, int64_t call) {
    if (k->walk) walk3(k, call);
    return wk_noise_fbm3_grid(&k->fbm, &k->g3, out, e);
}
static wk_status run_fbm2_deriv(kernel *k, float *out, const wk_exec *e, int64_t call) {
    (void)call;
    size_t n = k->items;
    return wk_noise_fbm2_grid_deriv(&k->fbm, &k->g2, out, out + n, out + 2 * n, e);
}
static wk_status run_fbm3_deriv(kernel *k, float *out, const wk_exec *e, int64_t call) {
    (void)call;
    size_t n = k->items;
    return wk_noise_fbm3_grid_deriv(&k->fbm, &k->g3, out, out + n, out + 2 * n, out + 3 * n, e);
}
static wk_status run_warp2(kernel *k, float *out, const wk_exec *e, int64_t call) {
    (void)call;
    return wk_noise_fbm2_grid_warp(&k->fbm, &k->warp, &k->g2, out, e);
}
static wk_status run_points2(kernel *k, float *out, const wk_exec *e, int64_t call) {
    (void)call;
    return wk_noise_fbm2_points(&k->fbm, k->in[0], k->in[1], k->items, out, e);
}
static wk_status run_points3(kernel *k, float *out, const wk_exec *e, int64_t call) {
    (void)call;
    return wk_noise_fbm3_points(&k->fbm, k->in[0], k->in[1], k->in[2], k->items, out, e);
}
/* Perlin noise at float points (coordinates in k->out's second half). */
static wk_status run_perlin2(kernel *k, float *out, const wk_exec *e, int64_t call) {
    (void)call;
    const float *x = (const float *)k->in[0], *y = (const float *)k->in[1];
    return wk_noise_perlin2(x, y, k->items, 0, out, e);
}
static wk_status run_perlin3(kernel *k, float *out, const wk_exec *e, int64_t call) {
    (void)call;
    const float *x = (const float *)k->in[0], *y = (const float *)k->in[1], *z = (const float *)k->in[2];
    return wk_noise_perlin3(x, y, z, k->items, 0, out, e);
}

static wk_fbm fbm(uint32_t lattice, uint32_t seed, int octaves, double frequency) {
    wk_fbm f = WK_FBM_DEFAULTS;
    f.lattice = lattice;
    f.seed = seed;
    f.octaves = octaves;
    f.frequency = frequency;
    return f;
}

static wk_grid2 grid2(uint32_t n, double step) {
    wk_grid2 g = WK_GRID2_DEFAULTS;
    g.nx = g.ny = n;
    g.step = step;
    g.stride = n;
    return g;
}

static wk_grid3 grid3(uint32_t n, double step) {
    wk_grid3 g = WK_GRID3_DEFAULTS;
    g.nx = g.ny = g.nz = n;
    g.step = step;
    g.stride = n;
    g.slice_stride = (size_t)n * n;
    return g;
}

#define POINTS 65536u
#define M1 (1024u * 1024u)

static kernel kernels[] = {
    /* dense grids (names kept from the first release for the baseline) */
    {.name = "perlin2_grid", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2, .all_threads = 1},
    {.name = "perlin3_grid", .size = "128x128x128", .items = 128u * 128u * 128u, .out_floats = 128u * 128u * 128u,
     .run = run_fbm3, .all_threads = 1},
    {.name = "fbm2_grid", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2, .all_threads = 1},
    {.name = "fbm2_hash", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2, .all_threads = 1},
    {.name = "fbm3_grid", .size = "64x64x64", .items = 64u * 64u * 64u, .out_floats = 64u * 64u * 64u,
     .run = run_fbm3, .all_threads = 1},
    {.name = "fbm2_deriv", .size = "512x512", .items = 512u * 512u, .out_floats = 3u * 512u * 512u,
     .run = run_fbm2_deriv},
    {.name = "perlin2", .size = "65536", .items = POINTS, .out_floats = POINTS, .run = run_perlin2},
    {.name = "perlin3", .size = "65536", .items = POINTS, .out_floats = POINTS, .run = run_perlin3},
    /* the rows: spacing 0.01, 0.37, 1.37 at frequency 1, warm and cold */
    {.name = "perlin2_sp0.01", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2},
    {.name = "perlin2_sp0.01_cold", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2, .cold = 1},
    {.name = "perlin2_sp0.37", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2},
    {.name = "perlin2_sp0.37_cold", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2, .cold = 1},
    {.name = "perlin2_sp1.37", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2},
    {.name = "perlin2_sp1.37_cold", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2, .cold = 1},
    {.name = "perlin3_sp0.01", .size = "128x128x128", .items = 128u * 128u * 128u, .out_floats = 128u * 128u * 128u,
     .run = run_fbm3},
    {.name = "perlin3_sp1.37", .size = "128x128x128", .items = 128u * 128u * 128u, .out_floats = 128u * 128u * 128u,
     .run = run_fbm3},
    {.name = "fbm2_5oct_sp0.01", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2},
    {.name = "fbm2_8oct_sp1_64", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2},
    {.name = "fbm2_8oct_sp1_64_hash", .size = "1024x1024", .items = M1, .out_floats = M1, .run = run_fbm2},
    /* chunk walks: one call per chunk (Time = ns per call) */
    {.name = "chunk2_perm1337", .size = "32x32", .items = 32u * 32u, .out_floats = 32u * 32u, .run = run_fbm2,
     .walk = 1},
    {.name = "chunk2_5oct_perm1337", .size = "32x32", .items = 32u * 32u, .out_floats = 32u * 32u, .run = run_fbm2,
     .walk = 1},
    {.name = "chunk2_hash", .size = "32x32", .items = 32u * 32u, .out_floats = 32u * 32u, .run = run_fbm2, .walk = 1},
    {.name = "chunk2_perm1337", .size = "16x16", .items = 16u * 16u, .out_floats = 16u * 16u, .run = run_fbm2,
     .walk = 1},
    {.name = "chunk3_perm1337", .size = "16x16x16", .items = 4096u, .out_floats = 4096u, .run = run_fbm3, .walk = 1},
    {.name = "chunk3_hash", .size = "16x16x16", .items = 4096u, .out_floats = 4096u, .run = run_fbm3, .walk = 1},
    {.name = "point_perm1337", .size = "1", .items = 1, .out_floats = 1, .run = run_fbm2, .walk = 1},
    {.name = "point_hash", .size = "1", .items = 1, .out_floats = 1, .run = run_fbm2, .walk = 1},
    /* points, warp, 3D derivatives */
    {.name = "fbm2_points", .size = "65536", .items = POINTS, .out_floats = POINTS, .run = run_points2},
    {.name = "fbm3_points", .size = "65536", .items = POINTS, .out_floats = POINTS, .run = run_points3},
    {.name = "fbm2_warp", .size = "256x256", .items = 65536u, .out_floats = 65536u, .run = run_warp2},
    {.name = "fbm3_deriv", .size = "32x32x32", .items = 32768u, .out_floats = 4u * 32768u, .run = run_fbm3_deriv},
};
#define KERNEL_COUNT (sizeof kernels / sizeof kernels[0])

static void init_kernel_params(void) {
    for (size_t i = 0; i < KERNEL_COUNT; i++) {
        kernel *k = &kernels[i];
        const char *n = k->name;
        wk_fbm f = fbm(WK_LATTICE_PERM, 0, 1, 1.0);
        f.normalize = 1;
        if (!strcmp(n, "perlin2_grid")) k->g2 = grid2(1024, 1.0 / 64.0);
        if (!strcmp(n, "perlin3_grid")) k->g3 = grid3(128, 1.0 / 32.0);
        if (!strcmp(n, "fbm2_grid")) f.octaves = 5, k->g2 = grid2(1024, 1.0 / 256.0);
        if (!strcmp(n, "fbm2_hash")) f = fbm(WK_LATTICE_HASH, 0, 5, 1.0), k->g2 = grid2(1024, 1.0 / 256.0);
        if (!strcmp(n, "fbm3_grid")) f.octaves = 3, k->g3 = grid3(64, 1.0 / 32.0);
        if (!strcmp(n, "fbm2_deriv")) f.octaves = 5, k->g2 = grid2(512, 1.0 / 256.0);
        if (!strncmp(n, "perlin2_sp", 10)) k->g2 = grid2(1024, atof(n + 10));
        if (!strncmp(n, "perlin3_sp", 10)) k->g3 = grid3(128, atof(n + 10));
        if (!strcmp(n, "fbm2_5oct_sp0.01")) f.octaves = 5, k->g2 = grid2(1024, 0.01);
        if (!strncmp(n, "fbm2_8oct", 9)) f.octaves = 8, k->g2 = grid2(1024, 1.0 / 64.0);
        if (!strcmp(n, "fbm2_8oct_sp1_64_hash")) f.lattice = WK_LATTICE_HASH;
        if (!strncmp(n, "chunk2", 6)) {
            f = fbm(strstr(n, "hash") ? WK_LATTICE_HASH : WK_LATTICE_PERM, strstr(n, "hash") ? 0 : 1337,
                    strstr(n, "5oct") ? 5 : 1, 1.0 / 64);
            k->g2 = grid2(k->items == 256 ? 16 : 32, 1.0);
        }
        if (!strncmp(n, "chunk3", 6)) {
            f = fbm(strstr(n, "hash") ? WK_LATTICE_HASH : WK_LATTICE_PERM, strstr(n, "hash") ? 0 : 1337, 1, 1.0 / 32);
            k->g3 = grid3(16, 1.0);
        }
        if (!strncmp(n, "point_", 6)) {
            f = fbm(strstr(n, "hash") ? WK_LATTICE_HASH : WK_LATTICE_PERM, strstr(n, "hash") ? 0 : 1337, 1, 1.0 / 64);
            k->g2 = grid2(1, 1.0);
        }
        if (!strncmp(n, "fbm2_points", 11) || !strncmp(n, "fbm3_points", 11)) f = fbm(WK_LATTICE_HASH, 0, 5, 1.0 / 64);
        if (!strcmp(n, "fbm2_warp")) {
            f = fbm(WK_LATTICE_HASH, 0, 3, 1.0 / 64);
            k->g2 = grid2(256, 1.0);
            wk_warp w = WK_WARP_DEFAULTS;
            w.noise.octaves = 2;
            k->warp = w;
        }
        if (!strcmp(n, "fbm3_deriv")) f = fbm(WK_LATTICE_HASH, 0, 3, 1.0 / 32), k->g3 = grid3(32, 1.0);
        k->fbm = f;
    }
}

/* ------------------------------------------------------------ setup */

static float *alloc_floats(size_t n) {
    size_t bytes = n * sizeof(float);
    bytes = (bytes + 63) & ~(size_t)63; /* aligned_alloc wants a multiple of the alignment */
    return (float *)aligned_alloc(64, bytes);
}

/* Deterministic inputs: splitmix32-style generator, fixed seed per array. */
static uint32_t next_u32(uint32_t *state) {
    uint32_t z = (*state += 0x9E3779B9u);
    z = (z ^ (z >> 16)) * 0x85EBCA6Bu;
    z = (z ^ (z >> 13)) * 0xC2B2AE35u;
    return z ^ (z >> 16);
}

static int kernel_setup(kernel *k) {
    if (k->ready) return k->ready > 0;
    k->ready = -1;
    int doubles = k->run == run_points2 || k->run == run_points3;
    int floats = k->run == run_perlin2 || k->run == run_perlin3;
    for (int a = 0; a < 3 && (doubles || floats); a++) {
        k->in[a] = (double *)malloc(k->items * sizeof(double));
        if (!k->in[a]) return 0;
        uint32_t state = 0x1234u + 7919u * (uint32_t)a;
        for (size_t i = 0; i < k->items; i++) {
            double u = (double)(next_u32(&state) >> 8) * (1.0 / 16777216.0); /* [0, 1) */
            if (doubles) k->in[a][i] = -5000.0 + 10000.0 * u;
            else ((float *)k->in[a])[i] = (float)(-100.0 + 200.0 * u);
        }
    }
    k->out = alloc_floats(k->out_floats);
    k->ref = alloc_floats(k->out_floats);
    if (!k->out || !k->ref) return 0;
    for (int r = 0; r < RING && k->cold; r++) {
        k->ring[r] = alloc_floats(k->out_floats);
        if (!k->ring[r]) return 0;
        memset(k->ring[r], 0, k->out_floats * sizeof(float)); /* fault the pages in once */
    }
    k->ready = 1;
    return 1;
}

/* ------------------------------------------------------------ benchmark */

static void fail(wk_bench_state *st, const char *what, wk_status s) {
    static char msg[256];
    snprintf(msg, sizeof msg, "%s: %s (%s)", what, wk_status_str(s), wk_last_error_detail());
    wk_bench_set_counter(st, "verified", 0.0);
    wk_bench_skip_with_error(st, msg);
}

static void bm_kernel(wk_bench_state *st, void *vctx) {
    const bench_case *c = (const bench_case *)vctx;
    kernel *k = c->k;
    size_t bytes = k->out_floats * sizeof(float);

    if (!kernel_setup(k)) {
        wk_bench_set_counter(st, "verified", 0.0);
        wk_bench_skip_with_error(st, "buffer allocation failed");
        return;
    }
    wk_exec exec = WK_EXEC_DEFAULTS;
    exec.isa = (int32_t)c->isa;
    exec.threads = c->threads;

    /* Scalar reference, once per kernel (chunk walks: call 0, the first
     * chunk). Poisoned first (a different pattern than the output) so an
     * unwritten buffer cannot match. */
    wk_status s;
    if (!k->ref_ready) {
        wk_exec scalar = WK_EXEC_DEFAULTS;
        scalar.isa = WK_ISA_SCALAR;
        memset(k->ref, 0xA5, bytes);
        s = k->run(k, k->ref, &scalar, 0);
        if (s != WK_OK) {
            fail(st, "scalar reference failed", s);
            return;
        }
        k->ref_ready = 1;
    }
    memset(k->out, 0x5A, bytes);
    s = k->run(k, k->out, &exec, 0);
    if (s != WK_OK) {
        fail(st, "kernel failed", s);
        return;
    }
    if (memcmp(k->out, k->ref, bytes) != 0) {
        wk_bench_set_counter(st, "verified", 0.0);
        wk_bench_skip_with_error(st, "output differs from the scalar reference");
        return;
    }
    wk_bench_set_counter(st, "verified", 1.0);

    int64_t call = 0;
    while (wk_bench_keep_running(st)) {
        float *out = k->cold ? k->ring[call % RING] : k->out;
        k->run(k, out, &exec, call++);
        wk_bench_do_not_optimize(out);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)k->items);
}

/* ------------------------------------------------------------ main */

static const wk_isa all_isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};

void wk_bench_register_noise(void) {
    init_kernel_params();
    int all_cores = wk_threads();
    int thread_variants = all_cores > 1 ? 2 : 1;
    size_t isa_count = sizeof all_isas / sizeof all_isas[0];
    bench_case *cases = (bench_case *)calloc(KERNEL_COUNT * 2 * isa_count, sizeof *cases);
    if (!cases) return;
    size_t n = 0;

    fprintf(stderr, "worldkern %s; ISAs:", wk_version());
    for (size_t i = 0; i < isa_count; i++)
        if (wk_isa_supported(all_isas[i])) fprintf(stderr, " %s", wk_isa_name(all_isas[i]));
    fprintf(stderr, "; threads: 1%s", all_cores > 1 ? " and " : "");
    if (all_cores > 1) fprintf(stderr, "%d (all cores)", all_cores);
    fprintf(stderr, "\n");

    for (size_t ki = 0; ki < KERNEL_COUNT; ki++)
        for (int t = 0; t < (kernels[ki].all_threads ? thread_variants : 1); t++)
            for (size_t i = 0; i < isa_count; i++) {
                if (!wk_isa_supported(all_isas[i])) continue;
                bench_case *c = &cases[n++];
                c->k = &kernels[ki];
                c->isa = all_isas[i];
                c->threads = t == 0 ? 1 : 0;
                int label = t == 0 ? 1 : all_cores;
                char name[160];
                snprintf(name, sizeof name, "noise/%s/%s/%s/t%d", kernels[ki].name, wk_isa_name(all_isas[i]),
                         kernels[ki].size, label);
                wk_bench_register(name, bm_kernel, c, label);
            }
}
