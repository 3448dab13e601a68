/* bench_erosion.c: thermal erosion, every supported ISA x {1, 2 threads}.
 * Names: erosion/thermal/<isa>/<size>/t<threads>; items = cells x
 * iterations, so ns per item is ns per cell per iteration.
 *
 * Each call runs ITER iterations on a map reset (timer paused) to the same
 * hilly terrain with spikes, so every timed call does the same work. Before
 * timing, the output of the benchmarked ISA is compared (memcmp) with the
 * scalar reference's, computed once per size. ISA and threads come from a
 * wk_exec per benchmark. Sizes: a 256x256 chunk (what a streaming world
 * erodes per call), 1024x1024 and 4096x4096. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <worldkern/erosion.h>

#include "bench_shim.h"

typedef struct map_size {
    uint32_t n;
    uint32_t iterations;
    const char *label;
    int ready; /* 0 not yet, 1 ready, -1 failed */
    float *input, *ref, *map, *scratch;
    size_t scratch_floats;
} map_size;

static map_size sizes[] = {
    {256, 16, "256x256", 0, 0, 0, 0, 0, 0},
    {1024, 16, "1024x1024", 0, 0, 0, 0, 0, 0},
    {4096, 8, "4096x4096", 0, 0, 0, 0, 0, 0},
};
#define SIZE_COUNT (sizeof sizes / sizeof sizes[0])

typedef struct bench_case {
    map_size *m;
    wk_isa isa;
    int threads;
} bench_case;

static const float TALUS = 0.01f;

static float *alloc_floats(size_t n) {
    size_t bytes = (n * sizeof(float) + 63) & ~(size_t)63;
    return (float *)aligned_alloc(64, bytes ? bytes : 64);
}

static uint32_t next_u32(uint32_t *state) {
    uint32_t z = (*state += 0x9E3779B9u);
    z = (z ^ (z >> 16)) * 0x85EBCA6Bu;
    z = (z ^ (z >> 13)) * 0xC2B2AE35u;
    return z ^ (z >> 16);
}

static int setup(map_size *m) {
    if (m->ready) return m->ready > 0;
    m->ready = -1;
    size_t cells = (size_t)m->n * m->n;
    if (wk_erosion_scratch_bound(m->n, m->n, 2, &m->scratch_floats) != WK_OK) return 0;
    m->input = alloc_floats(cells);
    m->ref = alloc_floats(cells);
    m->map = alloc_floats(cells);
    m->scratch = alloc_floats(m->scratch_floats);
    if (!m->input || !m->ref || !m->map || !m->scratch) return 0;
    uint32_t state = 12345;
    for (uint32_t y = 0; y < m->n; y++)
        for (uint32_t x = 0; x < m->n; x++) {
            float hill = (float)(sin(x * 0.05) * cos(y * 0.037));
            float noise = (float)(next_u32(&state) >> 8) * (1.0f / 16777216.0f);
            m->input[(size_t)y * m->n + x] = hill + 0.05f * noise + ((next_u32(&state) & 1023) == 0 ? 2.0f : 0.0f);
        }
    memcpy(m->ref, m->input, cells * sizeof(float));
    wk_exec scalar = WK_EXEC_DEFAULTS;
    scalar.isa = WK_ISA_SCALAR;
    scalar.threads = 2;
    wk_heightmap hm = {m->ref, m->n, m->n, m->n, {0, 0}};
    if (wk_erosion_thermal(&hm, TALUS, m->iterations, m->scratch, m->scratch_floats, &scalar) != WK_OK) return 0;
    m->ready = 1;
    return 1;
}

static void bm_thermal(wk_bench_state *st, void *vctx) {
    const bench_case *c = (const bench_case *)vctx;
    map_size *m = c->m;
    if (!setup(m)) {
        wk_bench_set_counter(st, "verified", 0.0);
        wk_bench_skip_with_error(st, "setup failed");
        return;
    }
    size_t cells = (size_t)m->n * m->n;
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = c->isa;
    e.threads = c->threads;
    wk_heightmap hm = {m->map, m->n, m->n, m->n, {0, 0}};
    memcpy(m->map, m->input, cells * sizeof(float));
    wk_status s = wk_erosion_thermal(&hm, TALUS, m->iterations, m->scratch, m->scratch_floats, &e);
    if (s != WK_OK || memcmp(m->map, m->ref, cells * sizeof(float)) != 0) {
        wk_bench_set_counter(st, "verified", 0.0);
        wk_bench_skip_with_error(st, s != WK_OK ? "kernel failed" : "output differs from the scalar reference");
        return;
    }
    wk_bench_set_counter(st, "verified", 1.0);
    while (wk_bench_keep_running(st)) {
        wk_bench_pause_timing(st);
        memcpy(m->map, m->input, cells * sizeof(float));
        wk_bench_resume_timing(st);
        wk_erosion_thermal(&hm, TALUS, m->iterations, m->scratch, m->scratch_floats, &e);
        wk_bench_do_not_optimize(m->map);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)(cells * m->iterations));
}

void wk_bench_register_erosion(void) {
    static const wk_isa isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    static bench_case cases[SIZE_COUNT * 2 * 4];
    size_t n = 0;
    for (size_t si = 0; si < SIZE_COUNT; si++)
        for (int threads = 1; threads <= 2; threads++)
            for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
                if (!wk_isa_supported(isas[i])) continue;
                bench_case *c = &cases[n++];
                c->m = &sizes[si];
                c->isa = isas[i];
                c->threads = threads;
                char name[128];
                snprintf(name, sizeof name, "erosion/thermal/%s/%s/t%d", wk_isa_name(isas[i]), sizes[si].label,
                         threads);
                wk_bench_register(name, bm_thermal, c, threads);
            }
}
