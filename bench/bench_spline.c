/* bench_spline.c: the spline family, each kernel x every supported ISA,
 * names spline/<kernel>/<isa>/<size>/t<threads>. ISA and threads come from
 * a wk_exec per benchmark. Before timing, each benchmark's output is
 * compared (memcmp) with the scalar reference on the same inputs.
 *
 * spline/store/plain/<m> is the yardstick of the goal for evenly
 * spaced sampling: a plain loop storing m floats (m16777216: 64 MB, past
 * the last-level cache, the yardstick of 256curves_n64_m65536), built for
 * the baseline target (16-byte stores on x86-64); spline/memset/plain/<m>
 * writes the same bytes by the C library's memset, its widest stores, as
 * zeros; spline/memset_nz/plain/<m> writes nonzero bytes (0x3f: floats
 * 0.747), like sample data (on the VM measured, zero lines past the
 * last-level cache write 2-3x faster than any others, whatever the store
 * instruction). spline/cr_sample/<isa>/n64_m16777216 is one curve of 64 MB.
 * water_step items are spring-pass updates (bodies x springs x passes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <worldkern/spline.h>

#include "bench_shim.h"

typedef struct bcase bcase;
typedef wk_status (*run_fn)(bcase *c, const wk_exec *e, float *out);

struct bcase {
    const char *kernel, *size;
    run_fn run;
    size_t out_floats;   /* compared with the reference */
    int64_t items;       /* per call */
    wk_isa isa;
    int threads;
    /* inputs */
    uint32_t n, curves, m, nkeys, B, N, stride;
    float *p, *s, *v;
    wk_curve_key *keys;
    /* water */
    float *pos0, *vel0, *rest, *pos, *vel;
    uint8_t *asleep0, *asleep;
    wk_water_params wp;
    float *out, *ref;
};

static float *falloc(size_t n) {
    size_t bytes = (n * sizeof(float) + 63) & ~(size_t)63;
    float *p = aligned_alloc(64, bytes ? bytes : 64);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        abort();
    }
    return p;
}

static uint32_t rng_state = 12345;
static float frand(float lo, float hi) {
    uint32_t z = (rng_state += 0x9E3779B9u);
    z = (z ^ (z >> 16)) * 0x85EBCA6Bu;
    z = (z ^ (z >> 13)) * 0xC2B2AE35u;
    z ^= z >> 16;
    return lo + (hi - lo) * (float)((z >> 8) * (1.0 / 16777216.0));
}

/* ------------------------------------------------------------ runs */

static wk_status run_sample(bcase *c, const wk_exec *e, float *out) {
    return wk_spline_cr_sample(c->p, c->n, c->n, c->curves, WK_SPLINE_END_PHANTOM, c->m, out, c->m, e);
}
static wk_status run_eval(bcase *c, const wk_exec *e, float *out) {
    return wk_spline_cr_eval(c->p, c->n, c->n, c->curves, WK_SPLINE_END_PHANTOM, c->s, 0, c->m, out, c->m, e);
}
static wk_status run_cols(bcase *c, const wk_exec *e, float *out) {
    return wk_spline_cr_sample_cols(c->p, c->curves, c->n, c->curves, WK_SPLINE_END_PHANTOM, c->m, out, c->curves, e);
}
static wk_status run_curve(bcase *c, const wk_exec *e, float *out) {
    return wk_spline_curve_eval(c->keys, c->nkeys, c->v, c->m, out, e);
}
static wk_status run_redistribute(bcase *c, const wk_exec *e, float *out) {
    return wk_spline_redistribute(c->v, c->m, 2.2f, out, e);
}
static wk_status run_terrace(bcase *c, const wk_exec *e, float *out) {
    return wk_spline_terrace(c->v, c->m, 8, 0.3f, out, e);
}
static wk_status run_store(bcase *c, const wk_exec *e, float *out) {
    (void)e;
    for (uint32_t i = 0; i < c->m; i++) out[i] = 1.0f;
    return WK_OK;
}
static wk_status run_memset(bcase *c, const wk_exec *e, float *out) {
    (void)e;
    memset(out, 0, (size_t)c->m * sizeof *out);
    return WK_OK;
}
static wk_status run_memset_nz(bcase *c, const wk_exec *e, float *out) {
    (void)e;
    memset(out, 0x3f, (size_t)c->m * sizeof *out);
    return WK_OK;
}
static int run_fn_is_store(const bcase *c) {
    return c->run == run_store || c->run == run_memset || c->run == run_memset_nz;
}

static wk_water water_of(bcase *c) {
    wk_water w = WK_WATER_DEFAULTS;
    w.pos = c->pos;
    w.vel = c->vel;
    w.rest = c->rest;
    w.asleep = c->asleep;
    w.bodies = c->B;
    w.springs = c->N;
    w.stride = c->stride;
    return w;
}

/* Verification run of the water step: from the initial state, one step,
 * output pos and vel. */
static size_t water_floats(const bcase *c) { return (size_t)(c->stride ? c->stride : c->B) * c->N; }

static wk_status run_water_once(bcase *c, const wk_exec *e, float *out) {
    size_t f = water_floats(c);
    memcpy(c->pos, c->pos0, f * sizeof(float));
    memcpy(c->vel, c->vel0, f * sizeof(float));
    memcpy(c->asleep, c->asleep0, c->B);
    wk_water w = water_of(c);
    wk_status s = wk_spline_water_step(&w, &c->wp, e);
    memcpy(out, c->pos, f * sizeof(float));
    memcpy(out + f, c->vel, f * sizeof(float));
    return s;
}

static wk_status run_water(bcase *c, const wk_exec *e, float *out) {
    (void)out;
    wk_water w = water_of(c);
    return wk_spline_water_step(&w, &c->wp, e);
}

/* ------------------------------------------------------------ benchmark */

static void bm(wk_bench_state *st, void *vctx) {
    bcase *c = vctx;
    size_t bytes = c->out_floats * sizeof(float);
    int water = c->run == run_water;
    run_fn verify = water ? run_water_once : c->run;
    wk_exec scalar = WK_EXEC_DEFAULTS, e = WK_EXEC_DEFAULTS;
    scalar.isa = WK_ISA_SCALAR;
    scalar.threads = 1;
    e.isa = c->isa;
    e.threads = c->threads;
    memset(c->ref, 0xA5, bytes);
    memset(c->out, 0x5A, bytes);
    wk_status s = verify(c, &scalar, c->ref);
    if (s == WK_OK) s = verify(c, &e, c->out);
    if (s != WK_OK || (!run_fn_is_store(c) && memcmp(c->out, c->ref, bytes) != 0)) {
        wk_bench_set_counter(st, "verified", 0.0);
        wk_bench_skip_with_error(st, s != WK_OK ? wk_last_error_detail() : "output differs from the scalar reference");
        return;
    }
    wk_bench_set_counter(st, "verified", 1.0);
    if (water) { /* the timed state starts from the initial one */
        memcpy(c->pos, c->pos0, water_floats(c) * sizeof(float));
        memcpy(c->vel, c->vel0, water_floats(c) * sizeof(float));
        memcpy(c->asleep, c->asleep0, c->B);
    }
    while (wk_bench_keep_running(st)) {
        c->run(c, &e, c->out);
        wk_bench_do_not_optimize(c->out);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * c->items);
}

/* ------------------------------------------------------------ setup */

static bcase *new_case(const char *kernel, const char *size, run_fn run) {
    bcase *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->kernel = kernel;
    c->size = size;
    c->run = run;
    return c;
}


static void add(bcase *proto, wk_isa isa, int threads) {
    bcase *c = malloc(sizeof *c);
    if (!c) abort();
    *c = *proto;
    c->isa = isa;
    c->threads = threads;
    char name[160];
    snprintf(name, sizeof name, "spline/%s/%s/%s/t%d", c->kernel, run_fn_is_store(c) ? "plain" : wk_isa_name(isa),
             c->size, threads);
    wk_bench_register(name, bm, c, threads);
}

void wk_bench_register_spline(void) {
    static const wk_isa isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    bcase *list[32];
    int nl = 0;

    /* evenly spaced: one long curve (m = 65536), and many short calls' worth (256 curves x 256) */
    bcase *c = new_case("cr_sample", "n64_m65536", run_sample);
    c->n = 64; c->curves = 1; c->m = 65536;
    list[nl++] = c;
    c = new_case("cr_sample", "256curves_n16_m256", run_sample);
    c->n = 16; c->curves = 256; c->m = 256;
    list[nl++] = c;
    c = new_case("cr_sample", "256curves_n64_m256", run_sample); /* longer curves: beyond register tables */
    c->n = 64; c->curves = 256; c->m = 256;
    list[nl++] = c;
    c = new_case("store", "m65536", run_store);
    c->n = 4; c->curves = 1; c->m = 65536;
    list[nl++] = c;
    c = new_case("memset", "m65536", run_memset);
    c->n = 4; c->curves = 1; c->m = 65536;
    list[nl++] = c;
    c = new_case("memset_nz", "m65536", run_memset_nz);
    c->n = 4; c->curves = 1; c->m = 65536;
    list[nl++] = c;
    c = new_case("cr_sample", "n64_m4194304", run_sample);
    c->n = 64; c->curves = 1; c->m = 4194304;
    list[nl++] = c;
    c = new_case("store", "m4194304", run_store);
    c->n = 4; c->curves = 1; c->m = 4194304;
    list[nl++] = c;
    c = new_case("memset", "m4194304", run_memset);
    c->n = 4; c->curves = 1; c->m = 4194304;
    list[nl++] = c;
    c = new_case("memset_nz", "m4194304", run_memset_nz);
    c->n = 4; c->curves = 1; c->m = 4194304;
    list[nl++] = c;
    /* output past the last-level cache (64 MB): what a batch of long curves costs
     * when the store stream goes to memory */
    c = new_case("cr_sample", "256curves_n64_m65536", run_sample);
    c->n = 64; c->curves = 256; c->m = 65536;
    list[nl++] = c;
    c = new_case("store", "m16777216", run_store);
    c->n = 4; c->curves = 1; c->m = 16777216;
    list[nl++] = c;
    c = new_case("memset", "m16777216", run_memset);
    c->n = 4; c->curves = 1; c->m = 16777216;
    list[nl++] = c;
    c = new_case("memset_nz", "m16777216", run_memset_nz);
    c->n = 4; c->curves = 1; c->m = 16777216;
    list[nl++] = c;
    c = new_case("cr_sample", "n64_m16777216", run_sample); /* one curve past the last-level cache */
    c->n = 64; c->curves = 1; c->m = 16777216;
    list[nl++] = c;
    c = new_case("cr_eval", "n64_65536", run_eval);
    c->n = 64; c->curves = 1; c->m = 65536;
    list[nl++] = c;
    c = new_case("cr_eval", "n16_65536", run_eval);
    c->n = 16; c->curves = 1; c->m = 65536;
    list[nl++] = c;
    c = new_case("cr_cols", "4096curves_n64_m256", run_cols);
    c->n = 64; c->curves = 4096; c->m = 256;
    list[nl++] = c;
    c = new_case("curve", "8keys_65536", run_curve);
    c->nkeys = 8; c->m = 65536;
    list[nl++] = c;
    c = new_case("curve", "64keys_65536", run_curve);
    c->nkeys = 64; c->m = 65536;
    list[nl++] = c;
    c = new_case("redistribute", "65536", run_redistribute);
    c->m = 65536;
    list[nl++] = c;
    c = new_case("terrace", "65536", run_terrace);
    c->m = 65536;
    list[nl++] = c;
    c = new_case("water_step", "4096x64x8", run_water);
    c->B = 4096; c->N = 64;
    list[nl++] = c;
    c = new_case("water_step", "4096x64x8_stride4112", run_water);
    c->B = 4096; c->N = 64; c->stride = 4112;
    list[nl++] = c;
    c = new_case("water_sleep", "4096x64x8_15of16asleep", run_water);
    c->B = 4096; c->N = 64;
    list[nl++] = c;

    for (int i = 0; i < nl; i++) {
        c = list[i];
        if (c->run == run_water) {
            size_t f = water_floats(c);
            c->pos0 = falloc(f); c->vel0 = falloc(f); c->rest = falloc(f); c->pos = falloc(f); c->vel = falloc(f);
            c->asleep0 = malloc(c->B); c->asleep = malloc(c->B);
            for (size_t j = 0; j < f; j++) {
                c->rest[j] = 0.0f;
                c->pos0[j] = frand(-1, 1);
                c->vel0[j] = frand(-0.1f, 0.1f);
            }
            int sleepy = strcmp(c->kernel, "water_sleep") == 0;
            /* sleeping bodies in whole blocks of 16: one block in 16 awake */
            for (uint32_t b = 0; b < c->B; b++) c->asleep0[b] = sleepy && (b / 16) % 16 != 0;
            c->wp = (wk_water_params)WK_WATER_PARAMS_DEFAULTS;
            c->wp.damping = 0.999f; /* keeps the state far from denormals over long runs */
            c->wp.sleep_threshold = 0.0f;
            c->out_floats = 2 * f;
            c->items = (int64_t)c->B * c->N * c->wp.passes;
        } else {
            size_t np = (size_t)(c->n ? c->n : 1) * (c->curves ? c->curves : 1);
            c->p = falloc(np);
            for (size_t j = 0; j < np; j++) c->p[j] = frand(-10, 10);
            c->s = falloc(c->m);
            c->v = falloc(c->m);
            for (uint32_t j = 0; j < c->m; j++) {
                c->s[j] = frand(0, 1);
                c->v[j] = frand(-0.1f, 1.1f);
            }
            if (c->nkeys) {
                c->keys = malloc(c->nkeys * sizeof *c->keys);
                for (uint32_t j = 0; j < c->nkeys; j++) {
                    c->keys[j].time = (float)j / (c->nkeys - 1);
                    c->keys[j].value = frand(0, 1);
                    c->keys[j].in_tangent = frand(-2, 2);
                    c->keys[j].out_tangent = frand(-2, 2);
                }
            }
            c->out_floats = (size_t)c->m * (c->curves ? c->curves : 1);
            c->items = (int64_t)c->out_floats;
        }
        c->out = falloc(c->out_floats);
        c->ref = falloc(c->out_floats);
        if (run_fn_is_store(c)) {
            add(c, WK_ISA_SCALAR, 1);
            continue;
        }
        for (size_t k = 0; k < sizeof isas / sizeof isas[0]; k++) {
            if (!wk_isa_supported(isas[k])) continue;
            add(c, isas[k], 1);
            if (c->run == run_water && !c->stride && strcmp(c->kernel, "water_step") == 0) add(c, isas[k], 2);
            if (c->run == run_sample && (c->curves == 256 || c->m == 16777216)) add(c, isas[k], 2);
        }
    }
}
