/* Public entry points of the array utilities. */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "array_impl.h"
#include "core/wk_core.h"

WK__DISPATCH_SIMD(wk__array_kernels, array_kernels)

/* Chunks of this many floats are the tasks the threads share. */
enum { CHUNK = 4096 };

typedef struct minmax_job {
    const wk__array_kernels *k;
    const float *x;
    size_t n;
    float lo[WK__MAX_PARTS], hi[WK__MAX_PARTS];
} minmax_job;

static void minmax_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    minmax_job *job = ctx;
    size_t start = begin * CHUNK, stop = end * CHUNK < job->n ? end * CHUNK : job->n;
    job->k->minmax(job->x + start, stop - start, &job->lo[part], &job->hi[part]);
}

static wk_status minmax_run(const wk__call *call, const float *x, size_t n, float *min, float *max) {
    if (!min || !max) return wk__fail(WK_ERR_NULL, "min and max must not be NULL");
    if (n > 0 && !x) return wk__fail(WK_ERR_NULL, "x is NULL with n = %zu", n);
    minmax_job job;
    job.k = array_kernels(call);
    job.x = x;
    job.n = n;
    size_t chunks = n / CHUNK + (n % CHUNK != 0);
    uint32_t parts = wk__parts_for(call, chunks, CHUNK);
    float lo = INFINITY, hi = -INFINITY;
    if (n > 0) wk__parallel_for(call, chunks, CHUNK, minmax_part, &job);
    /* min and max over a total order: any cut gives the same bits. */
    for (uint32_t p = 0; p < parts && n > 0; p++) {
        if (wk__float_order_key(job.lo[p]) < wk__float_order_key(lo)) lo = job.lo[p];
        if (wk__float_order_key(job.hi[p]) > wk__float_order_key(hi)) hi = job.hi[p];
    }
    *min = lo;
    *max = hi;
    return WK_OK;
}

wk_status wk_minmax(const float *x, size_t n, float *min, float *max, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = minmax_run(&call, x, n, min, max);
    return wk__end(&call, s);
}

typedef struct map_job {
    const wk__array_kernels *k;
    const float *x;
    float *out;
    size_t n;
    int op; /* 0 remap, 1 constant a, 2 pow */
    float lo, range, a, b, exponent;
} map_job;

static void map_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    map_job *job = ctx;
    size_t start = begin * CHUNK, stop = end * CHUNK < job->n ? end * CHUNK : job->n;
    const float *x = job->x + start;
    float *out = job->out + start;
    if (job->op == 0) job->k->remap(x, stop - start, job->lo, job->range, job->a, job->b, out);
    else if (job->op == 2) job->k->pow(x, stop - start, job->exponent, out);
    else
        for (size_t i = 0; i < stop - start; i++) out[i] = job->a;
}

/* Shared checks of the element-wise maps: out may equal x, not overlap it. */
static wk_status map_buffers(const float *x, size_t n, const float *out) {
    if (!x || !out) return wk__fail(WK_ERR_NULL, "x and out must not be NULL with n = %zu", n);
    if (n > SIZE_MAX / sizeof(float)) return wk__fail(WK_ERR_OVERFLOW, "n = %zu floats overflow size_t bytes", n);
    if (x != out && wk__overlap(x, n * sizeof(float), out, n * sizeof(float)))
        return wk__fail(WK_ERR_ALIAS, "out overlaps x partially (equal pointers are allowed)");
    return WK_OK;
}

static wk_status remap_run(const wk__call *call, const float *x, size_t n, float lo, float hi, float a, float b,
                           float *out) {
    if (!isfinite(lo) || !isfinite(hi))
        return wk__fail(WK_ERR_NOT_FINITE, "lo and hi must be finite, got %g and %g", lo, hi);
    if (!isfinite(a) || !isfinite(b))
        return wk__fail(WK_ERR_NOT_FINITE, "a and b must be finite, got %g and %g", a, b);
    float range = hi - lo;
    if (!isfinite(range)) return wk__fail(WK_ERR_OVERFLOW, "hi - lo overflows float (lo %g, hi %g)", lo, hi);
    if (n == 0) return WK_OK;
    wk_status s = map_buffers(x, n, out);
    if (s != WK_OK) return s;
    map_job job = {array_kernels(call), x, out, n, range == 0.0f ? 1 : 0, lo, range, a, b, 0.0f};
    wk__parallel_for(call, n / CHUNK + (n % CHUNK != 0), CHUNK, map_part, &job);
    return WK_OK;
}

wk_status wk_remap(const float *x, size_t n, float lo, float hi, float a, float b, float *out,
                   const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = remap_run(&call, x, n, lo, hi, a, b, out);
    return wk__end(&call, s);
}

static wk_status pow_run(const wk__call *call, const float *x, size_t n, float exponent, float *out) {
    if (!isfinite(exponent)) return wk__fail(WK_ERR_NOT_FINITE, "exponent must be finite, got %g", exponent);
    if (n == 0) return WK_OK;
    wk_status s = map_buffers(x, n, out);
    if (s != WK_OK) return s;
    map_job job = {array_kernels(call), x, out, n, 2, 0.0f, 0.0f, 0.0f, 0.0f, exponent};
    /* pow costs some 20x a remap per element: smaller chunks are worth a thread */
    wk__parallel_for(call, n / CHUNK + (n % CHUNK != 0), (size_t)CHUNK * 16, map_part, &job);
    return WK_OK;
}

wk_status wk_pow(const float *x, size_t n, float exponent, float *out, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = pow_run(&call, x, n, exponent, out);
    return wk__end(&call, s);
}
