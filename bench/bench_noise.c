/* bench_noise.c: the noise family, every kernel x every supported ISA x
 * {1 thread, all cores}. Names: noise/<kernel>/<isa>/<size>/t<threads>.
 *
 * Before timing, each benchmark runs its kernel once on the benchmarked ISA
 * and compares the output (memcmp) with the scalar reference, computed once
 * per kernel with wk_set_isa(WK_ISA_SCALAR) and cached. A mismatch skips the
 * benchmark with an error and the table shows verified = no.
 *
 * Buffers are allocated (64-byte aligned) the first time a kernel is
 * benchmarked and kept for the rest of the process; the timed loop only
 * calls the kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <worldkern/array.h>
#include <worldkern/noise.h>

#include "bench_shim.h"

typedef struct kernel kernel;
typedef wk_status (*kernel_run_fn)(const kernel *k, float *out);

struct kernel {
    const char *name;
    const char *size;      /* e.g. "1024x1024" */
    size_t items;          /* points (items) per call */
    size_t out_floats;     /* floats of output compared against the reference */
    size_t in_arrays;      /* random input arrays of `items` floats (0..3) */
    float in_lo, in_hi;    /* range of the random inputs: [lo, hi) */
    kernel_run_fn run;
    wk_fbm fbm;
    wk_grid2 g2;
    wk_grid3 g3;
    /* set up on first use */
    int ready;             /* 0 not yet, 1 ready, -1 failed */
    int ref_ready;
    float *in[3];
    float *out, *ref;
};

typedef struct bench_case {
    kernel *k;
    wk_isa isa;
    int threads_arg;       /* passed to wk_set_threads: 1, or 0 = all cores */
} bench_case;

/* ------------------------------------------------------------ kernels */

static wk_status run_fbm2(const kernel *k, float *out) { return wk_noise_fbm2_grid(&k->fbm, &k->g2, out, NULL); }
static wk_status run_fbm3(const kernel *k, float *out) { return wk_noise_fbm3_grid(&k->fbm, &k->g3, out, NULL); }

static wk_status run_fbm2_deriv(const kernel *k, float *out) {
    size_t n = k->items;
    return wk_noise_fbm2_grid_deriv(&k->fbm, &k->g2, out, out + n, out + 2 * n, NULL);
}

static wk_status run_perlin2(const kernel *k, float *out) {
    return wk_noise_perlin2(k->in[0], k->in[1], k->items, 0, out, NULL);
}

static wk_status run_perlin3(const kernel *k, float *out) {
    return wk_noise_perlin3(k->in[0], k->in[1], k->in[2], k->items, 0, out, NULL);
}

static wk_status run_minmax(const kernel *k, float *out) {
    return wk_minmax(k->in[0], k->items, &out[0], &out[1], NULL);
}

static wk_status run_remap(const kernel *k, float *out) {
    return wk_remap(k->in[0], k->items, -1.0f, 1.0f, 0.0f, 1.0f, out, NULL);
}

static wk_fbm fbm(uint32_t lattice, int octaves) {
    wk_fbm f;
    f.lattice = lattice;
    f.seed = 0;
    f.octaves = octaves;
    f.frequency = 1.0;
    f.lacunarity = 2.0;
    f.gain = 0.5f;
    f.normalize = 1;
    return f;
}

static wk_grid2 grid2(uint32_t n, double step) {
    wk_grid2 g;
    g.i0 = 0;
    g.j0 = 0;
    g.nx = n;
    g.ny = n;
    g.step = step;
    g.stride = n;
    return g;
}

static wk_grid3 grid3(uint32_t n, double step) {
    wk_grid3 g;
    g.i0 = 0;
    g.j0 = 0;
    g.k0 = 0;
    g.nx = n;
    g.ny = n;
    g.nz = n;
    g.step = step;
    g.stride = n;
    g.slice_stride = (size_t)n * n;
    return g;
}

#define POINTS 65536u
#define STREAM (1u << 20)

static kernel kernels[] = {
    {.name = "perlin2_grid", .size = "1024x1024", .items = 1024u * 1024u, .out_floats = 1024u * 1024u,
     .run = run_fbm2},
    {.name = "perlin3_grid", .size = "128x128x128", .items = 128u * 128u * 128u,
     .out_floats = 128u * 128u * 128u, .run = run_fbm3},
    {.name = "fbm2_grid", .size = "1024x1024", .items = 1024u * 1024u, .out_floats = 1024u * 1024u,
     .run = run_fbm2},
    {.name = "fbm2_hash", .size = "1024x1024", .items = 1024u * 1024u, .out_floats = 1024u * 1024u,
     .run = run_fbm2},
    {.name = "fbm3_grid", .size = "64x64x64", .items = 64u * 64u * 64u, .out_floats = 64u * 64u * 64u,
     .run = run_fbm3},
    {.name = "fbm2_deriv", .size = "512x512", .items = 512u * 512u, .out_floats = 3u * 512u * 512u,
     .run = run_fbm2_deriv},
    {.name = "perlin2", .size = "65536", .items = POINTS, .out_floats = POINTS, .in_arrays = 2,
     .in_lo = -100.0f, .in_hi = 100.0f, .run = run_perlin2},
    {.name = "perlin3", .size = "65536", .items = POINTS, .out_floats = POINTS, .in_arrays = 3,
     .in_lo = -100.0f, .in_hi = 100.0f, .run = run_perlin3},
    {.name = "minmax", .size = "1048576", .items = STREAM, .out_floats = 2, .in_arrays = 1,
     .in_lo = -1.0f, .in_hi = 1.0f, .run = run_minmax},
    {.name = "remap", .size = "1048576", .items = STREAM, .out_floats = STREAM, .in_arrays = 1,
     .in_lo = -1.0f, .in_hi = 1.0f, .run = run_remap},
};
#define KERNEL_COUNT (sizeof kernels / sizeof kernels[0])

static void init_kernel_params(void) {
    kernels[0].fbm = fbm(WK_LATTICE_PERM, 1); /* perlin2_grid */
    kernels[0].g2 = grid2(1024, 1.0 / 64.0);
    kernels[1].fbm = fbm(WK_LATTICE_PERM, 1); /* perlin3_grid */
    kernels[1].g3 = grid3(128, 1.0 / 32.0);
    kernels[2].fbm = fbm(WK_LATTICE_PERM, 5); /* fbm2_grid */
    kernels[2].g2 = grid2(1024, 1.0 / 256.0);
    kernels[3].fbm = fbm(WK_LATTICE_HASH, 5); /* fbm2_hash */
    kernels[3].g2 = grid2(1024, 1.0 / 256.0);
    kernels[4].fbm = fbm(WK_LATTICE_PERM, 3); /* fbm3_grid */
    kernels[4].g3 = grid3(64, 1.0 / 32.0);
    kernels[5].fbm = fbm(WK_LATTICE_PERM, 5); /* fbm2_deriv */
    kernels[5].g2 = grid2(512, 1.0 / 256.0);
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

static void fill_uniform(float *x, size_t n, float lo, float hi, uint32_t seed) {
    uint32_t state = seed;
    for (size_t i = 0; i < n; i++) {
        double u = (double)(next_u32(&state) >> 8) * (1.0 / 16777216.0); /* [0, 1) */
        float v = (float)((double)lo + ((double)hi - (double)lo) * u);
        x[i] = v < hi ? v : lo; /* keep the half-open range after rounding */
    }
}

static int kernel_setup(kernel *k) {
    if (k->ready) return k->ready > 0;
    k->ready = -1;
    for (size_t a = 0; a < k->in_arrays; a++) {
        k->in[a] = alloc_floats(k->items);
        if (!k->in[a]) return 0;
        fill_uniform(k->in[a], k->items, k->in_lo, k->in_hi, 0x1234u + 7919u * (uint32_t)a);
    }
    k->out = alloc_floats(k->out_floats);
    k->ref = alloc_floats(k->out_floats);
    if (!k->out || !k->ref) return 0;
    k->ready = 1;
    return 1;
}

/* ------------------------------------------------------------ benchmark */

static void fail(wk_bench_state *st, const char *what, wk_status s) {
    static char msg[256];
    snprintf(msg, sizeof msg, "%s: %s", what, wk_status_str(s));
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
    wk_status s = wk_set_threads(c->threads_arg);
    if (s != WK_OK) {
        fail(st, "wk_set_threads", s);
        return;
    }

    /* Scalar reference, once per kernel. Poisoned first (a different
     * pattern than the output) so an unwritten buffer cannot match. */
    if (!k->ref_ready) {
        s = wk_set_isa(WK_ISA_SCALAR);
        if (s == WK_OK) {
            memset(k->ref, 0xA5, bytes);
            s = k->run(k, k->ref);
        }
        if (s != WK_OK) {
            fail(st, "scalar reference failed", s);
            return;
        }
        k->ref_ready = 1;
    }

    s = wk_set_isa(c->isa);
    if (s != WK_OK) {
        fail(st, "wk_set_isa", s);
        return;
    }
    memset(k->out, 0x5A, bytes);
    s = k->run(k, k->out);
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

    while (wk_bench_keep_running(st)) {
        k->run(k, k->out);
        wk_bench_do_not_optimize(k->out);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)k->items);
}

/* ------------------------------------------------------------ main */

static const wk_isa all_isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};

void wk_bench_register_noise(void) {
    init_kernel_params();

    wk_set_threads(0);
    int all_cores = wk_threads();
    wk_set_threads(1);
    int thread_args[2] = {1, 0};
    int thread_labels[2] = {1, all_cores};
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

    for (size_t ki = 0; ki < KERNEL_COUNT; ki++) {
        for (int t = 0; t < thread_variants; t++) {
            for (size_t i = 0; i < isa_count; i++) {
                if (!wk_isa_supported(all_isas[i])) continue;
                bench_case *c = &cases[n++];
                c->k = &kernels[ki];
                c->isa = all_isas[i];
                c->threads_arg = thread_args[t];
                char name[128];
                snprintf(name, sizeof name, "noise/%s/%s/%s/t%d", kernels[ki].name,
                         wk_isa_name(all_isas[i]), kernels[ki].size, thread_labels[t]);
                wk_bench_register(name, bm_kernel, c, thread_labels[t]);
            }
        }
    }

}
