/* bench_array.c: the array utilities. Names: array/<kernel>/<isa>/<n>/t1.
 * Each benchmark checks its output against the scalar reference (memcmp)
 * before timing and runs through a wk_exec of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <worldkern/array.h>

#include "bench_shim.h"

enum { N = 1u << 20 };

typedef struct array_case {
    int op; /* 0 minmax, 1 remap, 2 pow */
    wk_isa isa;
} array_case;

static float *in, *ref[3];

static wk_status run(int op, float *out, const wk_exec *e) {
    if (op == 0) return wk_minmax(in, N, &out[0], &out[1], e);
    if (op == 1) return wk_remap(in, N, -1.0f, 1.0f, 0.0f, 255.0f, out, e);
    return wk_pow(in, N, 1.7f, out, e);
}

static void bm_array(wk_bench_state *st, void *vctx) {
    const array_case *c = vctx;
    static float *out;
    if (!in) {
        in = malloc(N * sizeof(float));
        out = malloc(N * sizeof(float));
        for (int i = 0; i < 3; i++) ref[i] = malloc(N * sizeof(float));
        if (!in || !out || !ref[0] || !ref[1] || !ref[2]) {
            wk_bench_skip_with_error(st, "allocation failed");
            return;
        }
        uint32_t s = 12345;
        for (size_t i = 0; i < N; i++) {
            s = s * 1664525u + 1013904223u;
            in[i] = (float)(s >> 8) * (1.0f / 16777216.0f); /* heights in [0, 1) */
        }
        wk_exec scalar = WK_EXEC_DEFAULTS;
        scalar.isa = WK_ISA_SCALAR;
        for (int op = 0; op < 3; op++) run(op, ref[op], &scalar);
    }
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = (int32_t)c->isa;
    e.threads = 1;
    size_t bytes = (c->op == 0 ? 2 : N) * sizeof(float);
    memset(out, 0x5A, bytes);
    if (run(c->op, out, &e) != WK_OK || memcmp(out, ref[c->op], bytes) != 0) {
        wk_bench_set_counter(st, "verified", 0.0);
        wk_bench_skip_with_error(st, "output differs from the scalar reference");
        return;
    }
    wk_bench_set_counter(st, "verified", 1.0);
    while (wk_bench_keep_running(st)) {
        run(c->op, out, &e);
        wk_bench_do_not_optimize(out);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)N);
}

void wk_bench_register_array(void) {
    static const wk_isa isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    static const char *const names[] = {"minmax", "remap", "pow"};
    static array_case cases[3 * 4];
    size_t n = 0;
    for (int op = 0; op < 3; op++)
        for (size_t i = 0; i < 4; i++) {
            if (!wk_isa_supported(isas[i])) continue;
            cases[n].op = op;
            cases[n].isa = isas[i];
            char name[96];
            snprintf(name, sizeof name, "array/%s/%s/1048576/t1", names[op], wk_isa_name(isas[i]));
            wk_bench_register(name, bm_array, &cases[n], 1);
            n++;
        }
}
