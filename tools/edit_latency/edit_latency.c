/* The latency of single voxel edits, one at a time, as percentiles: the
 * issue's "an edit visible to the next ray cast in under 1 us" is a bound
 * on each edit, which the benchmark row voxel/edits (a mean over a loop)
 * does not show. On the benchmarks' 256^3 terrain (bench/voxel_scene.c):
 *
 *   1. 20000 random blocks made a brick, then restored; three passes over
 *      the same places (pass 0 allocates bricks and touches fresh pages,
 *      passes 1 and 2 are the steady state of a game editing its world);
 *   2. the first block of an empty chunk in the air above the terrain
 *      (every empty box around it is cut), then cleared again (the chunk
 *      grows its own box).
 *
 * Not part of the build; from the repository root, after a release build:
 *
 *   cc -O2 -Iinclude -Ibench tools/edit_latency/edit_latency.c bench/voxel_scene.c \
 *      build/libworldkern.a -lm -fopenmp -lpthread -o edit_latency && ./edit_latency
 *
 * x86-64 (the time stamp counter, calibrated against CLOCK_MONOTONIC). The
 * maxima include the VM's interrupts; read the percentiles. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

#include "voxel_scene.h"

enum { EDITS = 20000, PASSES = 3 };

static double ns_per_tick;

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void calibrate(void) {
    double t0 = seconds();
    uint64_t c0 = __rdtsc();
    while (seconds() - t0 < 0.2) continue;
    ns_per_tick = (seconds() - t0) * 1e9 / (double)(__rdtsc() - c0);
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *what, double *ns, int n) {
    qsort(ns, (size_t)n, sizeof *ns, by_value);
    printf("%-34s median %5.0f  p90 %5.0f  p99 %5.0f  p99.9 %5.0f  max %6.0f ns\n", what, ns[n / 2],
           ns[n * 9 / 10], ns[n * 99 / 100], ns[n * 999 / 1000], ns[n - 1]);
}

int main(void) {
    static float height[WK_SCENE_SIZE * WK_SCENE_SIZE];
    static int32_t at[3 * EDITS];
    static uint64_t old[EDITS];
    static double set_ns[EDITS], back_ns[EDITS];
    wk_voxel_world *w = NULL;
    uint32_t rng = 99, s = 3;
    uint64_t bricks;
    calibrate();
    if (!wk_scene_build_world(&w, height, &rng, &bricks)) {
        fprintf(stderr, "the scene could not be built\n");
        wk_voxel_world_destroy(w);
        return 1;
    }
    for (int i = 0; i < 3 * EDITS; i++) at[i] = (int32_t)(wk_scene_next_u32(&s) % WK_SCENE_SIZE);
    for (int i = 0; i < EDITS; i++) wk_voxel_get_block(w, at[3 * i], at[3 * i + 1], at[3 * i + 2], &old[i]);
    for (int pass = 0; pass < PASSES; pass++) {
        for (int i = 0; i < EDITS; i++) {
            const int32_t *p = at + 3 * i;
            uint64_t c0 = __rdtsc();
            wk_voxel_set_sub(w, p[0], p[1], p[2], 0x0F0F0F0F0F0F0F0Full);
            uint64_t c1 = __rdtsc();
            wk_voxel_set_sub(w, p[0], p[1], p[2], old[i]);
            uint64_t c2 = __rdtsc();
            set_ns[i] = (double)(c1 - c0) * ns_per_tick;
            back_ns[i] = (double)(c2 - c1) * ns_per_tick;
        }
        char label[64];
        snprintf(label, sizeof label, "pass %d: block made a brick", pass);
        report(label, set_ns, EDITS);
        snprintf(label, sizeof label, "pass %d: block restored", pass);
        report(label, back_ns, EDITS);
    }
    for (int i = 0; i < EDITS; i++) {
        /* above the highest terrain (216): chunks 14 and 15 of y are empty */
        int32_t x = (int32_t)(wk_scene_next_u32(&s) % WK_SCENE_SIZE);
        int32_t z = (int32_t)(wk_scene_next_u32(&s) % WK_SCENE_SIZE);
        int32_t y = 224 + (int32_t)(wk_scene_next_u32(&s) % 32);
        uint64_t c0 = __rdtsc();
        wk_voxel_set_block(w, x, y, z, 1);
        uint64_t c1 = __rdtsc();
        wk_voxel_set_block(w, x, y, z, 0);
        uint64_t c2 = __rdtsc();
        set_ns[i] = (double)(c1 - c0) * ns_per_tick;
        back_ns[i] = (double)(c2 - c1) * ns_per_tick;
    }
    report("empty chunk: its first block", set_ns, EDITS);
    report("empty chunk: that block cleared", back_ns, EDITS);
    wk_voxel_world_destroy(w);
    return 0;
}
