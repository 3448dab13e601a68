/* Public entry points of the spline family: validate, split the work into
 * fixed tasks, dispatch. */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "core/wk_core.h"
#include "spline_impl.h"

WK__DISPATCH_SIMD(wk__spline_kernels, spline_kernels)

/* Tasks: chunks of this many samples or values, blocks of this many
 * columns (curves side by side) or bodies. Fixed sizes: results do not
 * depend on the cut. */
enum { CHUNK = 4096, COLS = 64 };
/* Evenly spaced samples: tasks of about EVEN_CHUNK samples (a group of
 * short rows, or one row's chunk). Each chunk restarts the per-segment
 * runs (setup about 20 ns): 4096-sample chunks cost 4% at 65536 samples. */
enum { EVEN_CHUNK = 4 * CHUNK };
#define MAX_POINTS (1u << 24)

/* Floats spanned by `rows` rows of `len` floats, `stride` apart; 0 when
 * empty. *overflow set when it does not fit a size_t of bytes. */
static size_t rows_extent(size_t rows, size_t stride, size_t len, int *overflow) {
    if (rows == 0 || len == 0) return 0;
    size_t limit = SIZE_MAX / sizeof(float);
    if (rows - 1 > 0 && stride > (limit - len) / (rows - 1)) {
        *overflow = 1;
        return 0;
    }
    if (len > limit) {
        *overflow = 1;
        return 0;
    }
    return (rows - 1) * stride + len;
}

static wk_status check_cr_shape(uint32_t n, uint32_t mode) {
    if (mode != WK_SPLINE_END_CLAMP && mode != WK_SPLINE_END_PHANTOM)
        return wk__fail(WK_ERR_INVALID_ARG, "end_mode must be WK_SPLINE_END_CLAMP (0) or WK_SPLINE_END_PHANTOM (1), got %u",
                        mode);
    if (n < 4 || n > MAX_POINTS)
        return wk__fail(WK_ERR_INVALID_ARG, "n (points per curve) must be 4 .. 2^24, got %u", n);
    return WK_OK;
}

static wk_status check_m(uint32_t m) {
    if (m == 1 || m > MAX_POINTS) return wk__fail(WK_ERR_INVALID_ARG, "m (samples) must be 0 or 2 .. 2^24, got %u", m);
    return WK_OK;
}

/* ------------------------------------------------------------ rows */

typedef struct cr_rows_job {
    const wk__spline_kernels *k;
    const float *p, *s;
    size_t p_stride, s_stride, out_stride, count, chunks;
    uint32_t n, mode, m;
    float *out;
    size_t curves, group;
} cr_rows_job;

/* Evenly spaced: a task is a group of j->group curves x one chunk of
 * samples (the samples' positions are shared by the group's curves). */
static void cr_sample_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    const cr_rows_job *j = ctx;
    for (size_t task = begin; task < end; task++) {
        size_t c0 = task / j->chunks * j->group, k0 = task % j->chunks * EVEN_CHUNK;
        size_t count = j->m - k0 < EVEN_CHUNK ? j->m - k0 : EVEN_CHUNK;
        uint32_t nc = (uint32_t)(j->curves - c0 < j->group ? j->curves - c0 : j->group);
        j->k->cr_even(j->p + c0 * j->p_stride, j->p_stride, nc, j->n, j->mode, j->m, (uint32_t)k0, count,
                      j->out + c0 * j->out_stride + k0, j->out_stride);
    }
}

static void cr_eval_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    const cr_rows_job *j = ctx;
    for (size_t task = begin; task < end; task++) {
        size_t c = task / j->chunks, q0 = task % j->chunks * CHUNK;
        size_t count = j->count - q0 < CHUNK ? j->count - q0 : CHUNK;
        j->k->cr_at(j->p + c * j->p_stride, j->n, j->mode, j->s + c * j->s_stride + q0, count,
                    j->out + c * j->out_stride + q0);
    }
}

/* Checks one curve set and its output; *p_bytes / *out_bytes get extents. */
static wk_status check_rows(const char *pname, const float *p, size_t p_stride, uint32_t n, uint32_t curves,
                            const char *oname, const float *out, size_t out_stride, size_t out_len,
                            size_t *p_bytes, size_t *out_bytes) {
    *p_bytes = *out_bytes = 0;
    if (curves == 0 || out_len == 0) return WK_OK;
    if (!p) return wk__fail(WK_ERR_NULL, "%s is NULL with %u curves", pname, curves);
    if (!out) return wk__fail(WK_ERR_NULL, "%s is NULL with %u curves", oname, curves);
    if (curves > 1 && p_stride < n)
        return wk__fail(WK_ERR_STRIDE, "p_stride must be >= n = %u, got %zu", n, p_stride);
    if (curves > 1 && out_stride < out_len)
        return wk__fail(WK_ERR_STRIDE, "out_stride must be >= %zu samples per row, got %zu", out_len, out_stride);
    int overflow = 0;
    size_t pf = rows_extent(curves, p_stride, n, &overflow), of = rows_extent(curves, out_stride, out_len, &overflow);
    if (overflow) return wk__fail(WK_ERR_OVERFLOW, "%u curves with these strides overflow size_t bytes", curves);
    *p_bytes = pf * sizeof(float);
    *out_bytes = of * sizeof(float);
    if (wk__overlap(p, *p_bytes, out, *out_bytes)) return wk__fail(WK_ERR_ALIAS, "%s overlaps %s", oname, pname);
    return WK_OK;
}

static void run_sample(const wk__call *call, const float *p, size_t p_stride, uint32_t n, uint32_t curves,
                       uint32_t mode, uint32_t m, float *out, size_t out_stride) {
    /* short rows: curves grouped up to about EVEN_CHUNK samples per task */
    size_t group = m < EVEN_CHUNK ? EVEN_CHUNK / m : 1;
    if (group > curves) group = curves;
    const size_t chunks = (m + EVEN_CHUNK - 1) / EVEN_CHUNK;
    cr_rows_job j = {spline_kernels(call), p, NULL, p_stride, 0, out_stride, 0, chunks, n, mode, m, out, curves, group};
    wk__parallel_for(call, (curves + group - 1) / group * chunks, group * (EVEN_CHUNK < m ? EVEN_CHUNK : m),
                     cr_sample_part, &j);
}

static wk_status sample_run(const wk__call *call, const float *x, const float *y, size_t p_stride, uint32_t n,
                            uint32_t curves, uint32_t mode, uint32_t m, float *out_x, float *out_y,
                            size_t out_stride) {
    wk_status s = check_cr_shape(n, mode);
    if (s == WK_OK) s = check_m(m);
    if (s != WK_OK || curves == 0 || m == 0) return s;
    size_t xb, oxb, yb = 0, oyb = 0;
    s = check_rows(y ? "x" : "p", x, p_stride, n, curves, y ? "out_x" : "out", out_x, out_stride, m, &xb, &oxb);
    if (s != WK_OK) return s;
    if (y || out_y) {
        s = check_rows("y", y, p_stride, n, curves, "out_y", out_y, out_stride, m, &yb, &oyb);
        if (s != WK_OK) return s;
        if (wk__overlap(y, yb, out_x, oxb)) return wk__fail(WK_ERR_ALIAS, "out_x overlaps y");
        if (wk__overlap(x, xb, out_y, oyb)) return wk__fail(WK_ERR_ALIAS, "out_y overlaps x");
        if (wk__overlap(out_x, oxb, out_y, oyb)) return wk__fail(WK_ERR_ALIAS, "out_x overlaps out_y");
    }
    run_sample(call, x, p_stride, n, curves, mode, m, out_x, out_stride);
    if (y) run_sample(call, y, p_stride, n, curves, mode, m, out_y, out_stride);
    return WK_OK;
}

wk_status wk_spline_cr_sample(const float *p, size_t p_stride, uint32_t n, uint32_t curves, uint32_t end_mode,
                              uint32_t m, float *out, size_t out_stride, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = sample_run(&call, p, NULL, p_stride, n, curves, end_mode, m, out, NULL, out_stride);
    return wk__end(&call, s);
}

wk_status wk_spline_cr_sample2(const float *x, const float *y, size_t p_stride, uint32_t n, uint32_t curves,
                               uint32_t end_mode, uint32_t m, float *out_x, float *out_y, size_t out_stride,
                               const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK && curves > 0 && m > 0 && (!y || !out_y))
        s = wk__fail(WK_ERR_NULL, "y and out_y must not be NULL with %u curves", curves);
    if (s == WK_OK) s = sample_run(&call, x, y, p_stride, n, curves, end_mode, m, out_x, out_y, out_stride);
    return wk__end(&call, s);
}

static wk_status eval_run(const wk__call *call, const float *p, size_t p_stride, uint32_t n, uint32_t curves,
                          uint32_t mode, const float *s, size_t s_stride, size_t count, float *out,
                          size_t out_stride) {
    wk_status st = check_cr_shape(n, mode);
    if (st != WK_OK || curves == 0 || count == 0) return st;
    size_t pb, ob;
    st = check_rows("p", p, p_stride, n, curves, "out", out, out_stride, count, &pb, &ob);
    if (st != WK_OK) return st;
    if (!s) return wk__fail(WK_ERR_NULL, "s is NULL with count = %zu", count);
    if (s_stride != 0 && curves > 1 && s_stride < count)
        return wk__fail(WK_ERR_STRIDE, "s_stride must be 0 or >= count = %zu, got %zu", count, s_stride);
    int overflow = 0;
    size_t sf = rows_extent(s_stride ? curves : 1, s_stride, count, &overflow);
    if (overflow) return wk__fail(WK_ERR_OVERFLOW, "positions with s_stride %zu overflow size_t bytes", s_stride);
    if (wk__overlap(s, sf * sizeof(float), out, ob)) return wk__fail(WK_ERR_ALIAS, "out overlaps s");
    cr_rows_job j = {spline_kernels(call), p, s, p_stride, s_stride, out_stride, count, (count + CHUNK - 1) / CHUNK,
                     n, mode, 0, out, 0, 0};
    wk__parallel_for(call, (size_t)curves * j.chunks, CHUNK < count ? CHUNK : count, cr_eval_part, &j);
    return WK_OK;
}

wk_status wk_spline_cr_eval(const float *p, size_t p_stride, uint32_t n, uint32_t curves, uint32_t end_mode,
                            const float *s, size_t s_stride, size_t count, float *out, size_t out_stride,
                            const wk_exec *exec) {
    wk__call call;
    wk_status st = wk__begin(&call, exec, __func__);
    if (st == WK_OK) st = eval_run(&call, p, p_stride, n, curves, end_mode, s, s_stride, count, out, out_stride);
    return wk__end(&call, st);
}

/* ------------------------------------------------------------ columns */

typedef struct cr_cols_job {
    const wk__spline_kernels *k;
    const float *p;
    size_t p_stride, out_stride;
    uint32_t n, mode, m, curves;
    float *out;
} cr_cols_job;

static void cr_cols_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    const cr_cols_job *j = ctx;
    for (size_t task = begin; task < end; task++) {
        size_t c0 = task * COLS;
        uint32_t lanes = (uint32_t)(j->curves - c0 < COLS ? j->curves - c0 : COLS);
        j->k->cr_even_cols(j->p + c0, j->p_stride, j->n, j->mode, lanes, j->m, j->out + c0, j->out_stride);
    }
}

static wk_status cols_run(const wk__call *call, const float *p, size_t p_stride, uint32_t n, uint32_t curves,
                          uint32_t mode, uint32_t m, float *out, size_t out_stride) {
    wk_status s = check_cr_shape(n, mode);
    if (s == WK_OK) s = check_m(m);
    if (s != WK_OK || curves == 0 || m == 0) return s;
    if (!p || !out) return wk__fail(WK_ERR_NULL, "p and out must not be NULL with %u curves", curves);
    if (p_stride < curves) return wk__fail(WK_ERR_STRIDE, "p_stride must be >= curves = %u, got %zu", curves, p_stride);
    if (out_stride < curves)
        return wk__fail(WK_ERR_STRIDE, "out_stride must be >= curves = %u, got %zu", curves, out_stride);
    int overflow = 0;
    size_t pf = rows_extent(n, p_stride, curves, &overflow), of = rows_extent(m, out_stride, curves, &overflow);
    if (overflow) return wk__fail(WK_ERR_OVERFLOW, "columns with these strides overflow size_t bytes");
    if (wk__overlap(p, pf * sizeof(float), out, of * sizeof(float))) return wk__fail(WK_ERR_ALIAS, "out overlaps p");
    cr_cols_job j = {spline_kernels(call), p, p_stride, out_stride, n, mode, m, curves, out};
    wk__parallel_for(call, (curves + COLS - 1) / COLS, (size_t)COLS * m, cr_cols_part, &j);
    return WK_OK;
}

wk_status wk_spline_cr_sample_cols(const float *p, size_t p_stride, uint32_t n, uint32_t curves, uint32_t end_mode,
                                   uint32_t m, float *out, size_t out_stride, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = cols_run(&call, p, p_stride, n, curves, end_mode, m, out, out_stride);
    return wk__end(&call, s);
}

/* ------------------------------------------------------ maps of values */

typedef struct map_job {
    const wk__spline_kernels *k;
    const wk_curve_key *keys;
    uint32_t nkeys;
    const float *x;
    float *out;
    size_t n;
    float a, b, c;
    int kind; /* 0 curve, 1 redistribute, 2 terrace */
} map_job;

static void map_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    const map_job *j = ctx;
    size_t start = begin * CHUNK, stop = end * CHUNK < j->n ? end * CHUNK : j->n;
    if (j->kind == 0) j->k->curve(j->keys, j->nkeys, j->x + start, stop - start, j->out + start);
    else if (j->kind == 1) j->k->redistribute(j->x + start, stop - start, j->a, j->out + start);
    else j->k->terrace(j->x + start, stop - start, j->a, j->b, j->c, j->out + start);
}

static wk_status check_map(const float *x, size_t n, const float *out) {
    if (!x || !out) return wk__fail(WK_ERR_NULL, "input and out must not be NULL with n = %zu", n);
    if (n > SIZE_MAX / sizeof(float)) return wk__fail(WK_ERR_OVERFLOW, "n = %zu floats overflow size_t bytes", n);
    if (x != out && wk__overlap(x, n * sizeof(float), out, n * sizeof(float)))
        return wk__fail(WK_ERR_ALIAS, "out overlaps the input partially (equal pointers are allowed)");
    return WK_OK;
}

static void run_map(const wk__call *call, map_job *j) {
    j->k = spline_kernels(call);
    wk__parallel_for(call, (j->n + CHUNK - 1) / CHUNK, CHUNK, map_part, j);
}

static wk_status curve_run(const wk__call *call, const wk_curve_key *keys, uint32_t nkeys, const float *x,
                           size_t count, float *out) {
    if (!keys) return wk__fail(WK_ERR_NULL, "keys is NULL");
    if (nkeys < 1 || nkeys > MAX_POINTS) return wk__fail(WK_ERR_INVALID_ARG, "nkeys must be 1 .. 2^24, got %u", nkeys);
    for (uint32_t i = 0; i < nkeys; i++) {
        const wk_curve_key *k = &keys[i];
        if (!isfinite(k->time) || !isfinite(k->value))
            return wk__fail(WK_ERR_NOT_FINITE, "keys[%u] time and value must be finite, got %g and %g", i, k->time,
                            k->value);
        if (isnan(k->in_tangent) || isnan(k->out_tangent))
            return wk__fail(WK_ERR_INVALID_ARG, "keys[%u] tangents must not be NaN", i);
        if (i > 0) {
            if (!(keys[i - 1].time < k->time))
                return wk__fail(WK_ERR_INVALID_ARG,
                                "key times must be strictly increasing: keys[%u].time = %g, keys[%u].time = %g", i - 1,
                                keys[i - 1].time, i, k->time);
            if (!isfinite(k->time - keys[i - 1].time))
                return wk__fail(WK_ERR_OVERFLOW, "keys[%u].time - keys[%u].time overflows float", i, i - 1);
        }
    }
    if (count == 0) return WK_OK;
    wk_status s = check_map(x, count, out);
    if (s != WK_OK) return s;
    if (wk__overlap(keys, (size_t)nkeys * sizeof *keys, out, count * sizeof(float)))
        return wk__fail(WK_ERR_ALIAS, "out overlaps keys");
    map_job j = {NULL, keys, nkeys, x, out, count, 0, 0, 0, 0};
    run_map(call, &j);
    return WK_OK;
}

wk_status wk_spline_curve_eval(const wk_curve_key *keys, uint32_t nkeys, const float *x, size_t count, float *out,
                               const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = curve_run(&call, keys, nkeys, x, count, out);
    return wk__end(&call, s);
}

static wk_status redistribute_run(const wk__call *call, const float *v, size_t n, float exponent, float *out) {
    if (!isfinite(exponent)) return wk__fail(WK_ERR_NOT_FINITE, "exponent must be finite, got %g", exponent);
    if (!(exponent > 0.0f)) return wk__fail(WK_ERR_INVALID_ARG, "exponent must be > 0, got %g", exponent);
    if (n == 0) return WK_OK;
    wk_status s = check_map(v, n, out);
    if (s != WK_OK) return s;
    map_job j = {NULL, NULL, 0, v, out, n, exponent, 0, 0, 1};
    run_map(call, &j);
    return WK_OK;
}

wk_status wk_spline_redistribute(const float *v, size_t n, float exponent, float *out, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = redistribute_run(&call, v, n, exponent, out);
    return wk__end(&call, s);
}

static wk_status terrace_run(const wk__call *call, const float *v, size_t n, uint32_t levels, float blend,
                             float *out) {
    if (levels < 1 || levels > MAX_POINTS) return wk__fail(WK_ERR_INVALID_ARG, "levels must be 1 .. 2^24, got %u", levels);
    if (!isfinite(blend)) return wk__fail(WK_ERR_NOT_FINITE, "blend must be finite, got %g", blend);
    if (!(blend >= 0.0f && blend <= 1.0f)) return wk__fail(WK_ERR_INVALID_ARG, "blend must be in [0, 1], got %g", blend);
    if (n == 0) return WK_OK;
    wk_status s = check_map(v, n, out);
    if (s != WK_OK) return s;
    float one_minus_w = 1.0f - blend, inv_w = blend > 0.0f ? 1.0f / blend : 0.0f;
    map_job j = {NULL, NULL, 0, v, out, n, (float)levels, one_minus_w, inv_w, 2};
    run_map(call, &j);
    return WK_OK;
}

wk_status wk_spline_terrace(const float *v, size_t n, uint32_t levels, float blend, float *out, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = terrace_run(&call, v, n, levels, blend, out);
    return wk__end(&call, s);
}

/* ------------------------------------------------------------ water */

/* Checks the state; *stride gets the effective stride, *floats the extent. */
static wk_status check_water(const wk_water *w, size_t *stride, size_t *floats) {
    if (!w) return wk__fail(WK_ERR_NULL, "w is NULL");
    if (!wk__all_zero(w->reserved, sizeof w->reserved)) return wk__fail(WK_ERR_INVALID_ARG, "w->reserved must be zero");
    if (w->springs < 1) return wk__fail(WK_ERR_INVALID_ARG, "w->springs must be >= 1, got 0");
    uint64_t st = w->stride ? w->stride : w->bodies;
    if (st < w->bodies)
        return wk__fail(WK_ERR_STRIDE, "w->stride must be 0 or >= bodies = %u, got %llu", w->bodies,
                        (unsigned long long)w->stride);
    if (st > SIZE_MAX) return wk__fail(WK_ERR_OVERFLOW, "w->stride overflows size_t");
    *stride = (size_t)st;
    int overflow = 0;
    *floats = rows_extent(w->springs, *stride, w->bodies, &overflow);
    if (overflow) return wk__fail(WK_ERR_OVERFLOW, "springs x stride overflows size_t bytes");
    if (w->bodies == 0) return WK_OK;
    if (!w->pos || !w->vel || !w->rest) return wk__fail(WK_ERR_NULL, "w->pos, w->vel and w->rest must not be NULL");
    size_t bytes = *floats * sizeof(float);
    if (wk__overlap(w->pos, bytes, w->vel, bytes) || wk__overlap(w->pos, bytes, w->rest, bytes) ||
        wk__overlap(w->vel, bytes, w->rest, bytes))
        return wk__fail(WK_ERR_ALIAS, "w->pos, w->vel and w->rest must not overlap");
    if (w->asleep && (wk__overlap(w->asleep, w->bodies, w->pos, bytes) || wk__overlap(w->asleep, w->bodies, w->vel, bytes) ||
                      wk__overlap(w->asleep, w->bodies, w->rest, bytes)))
        return wk__fail(WK_ERR_ALIAS, "w->asleep overlaps the state arrays");
    return WK_OK;
}

static wk_status check_params(const wk_water_params *p) {
    if (!p) return wk__fail(WK_ERR_NULL, "params is NULL");
    if (!wk__all_zero(p->reserved, sizeof p->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "params->reserved must be zero");
    if (!isfinite(p->k) || !isfinite(p->damping) || !isfinite(p->spread) || !isfinite(p->sleep_threshold))
        return wk__fail(WK_ERR_NOT_FINITE, "params k %g, damping %g, spread %g, sleep_threshold %g must be finite", p->k,
                        p->damping, p->spread, p->sleep_threshold);
    if (p->passes > 1024) return wk__fail(WK_ERR_INVALID_ARG, "params->passes must be 0 .. 1024, got %u", p->passes);
    if (!(p->sleep_threshold >= 0.0f))
        return wk__fail(WK_ERR_INVALID_ARG, "params->sleep_threshold must be >= 0, got %g", p->sleep_threshold);
    return WK_OK;
}

typedef struct water_job {
    const wk__spline_kernels *k;
    const wk_water *w;
    size_t stride;
    wk__water_args a;
} water_job;

static void water_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    const water_job *j = ctx;
    const wk_water *w = j->w;
    for (size_t task = begin; task < end; task++) {
        size_t b0 = task * COLS;
        uint32_t lanes = (uint32_t)(w->bodies - b0 < COLS ? w->bodies - b0 : COLS);
        uint8_t *asleep = w->asleep ? w->asleep + b0 : NULL;
        if (asleep) {
            uint32_t awake = 0;
            for (uint32_t b = 0; b < lanes; b++) awake |= asleep[b] == 0;
            if (!awake) continue;
        }
        j->k->water_step(w->pos + b0, w->vel + b0, w->rest + b0, j->stride, lanes, w->springs, &j->a, asleep);
    }
}

static wk_status step_run(const wk__call *call, const wk_water *w, const wk_water_params *p) {
    size_t stride = 0, floats = 0;
    wk_status s = check_water(w, &stride, &floats);
    if (s == WK_OK) s = check_params(p);
    if (s != WK_OK || w->bodies == 0) return s;
    water_job j = {spline_kernels(call), w, stride, {p->k, p->damping, p->spread, p->sleep_threshold, p->passes}};
    wk__parallel_for(call, (w->bodies + COLS - 1) / COLS, (size_t)COLS * w->springs * (p->passes + 1), water_part, &j);
    return WK_OK;
}

wk_status wk_spline_water_step(const wk_water *w, const wk_water_params *params, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = step_run(&call, w, params);
    return wk__end(&call, s);
}

static wk_status displace_run(const wk_water *w, const uint32_t *body, const float *x, const float *amount,
                              size_t count) {
    size_t stride = 0, floats = 0;
    wk_status s = check_water(w, &stride, &floats);
    if (s != WK_OK || count == 0) return s;
    if (!body || !x || !amount) return wk__fail(WK_ERR_NULL, "body, x and amount must not be NULL with count = %zu", count);
    for (size_t e = 0; e < count; e++) {
        if (body[e] >= w->bodies)
            return wk__fail(WK_ERR_INVALID_ARG, "body[%zu] = %u must be < bodies = %u", e, body[e], w->bodies);
        if (!(x[e] >= 0.0f && x[e] <= 1.0f))
            return wk__fail(x[e] != x[e] ? WK_ERR_NOT_FINITE : WK_ERR_INVALID_ARG, "x[%zu] must be in [0, 1], got %g", e,
                            x[e]);
        if (!isfinite(amount[e])) return wk__fail(WK_ERR_NOT_FINITE, "amount[%zu] must be finite, got %g", e, amount[e]);
    }
    uint32_t N = w->springs;
    for (size_t e = 0; e < count; e++) {
        float *v = w->vel + body[e];
        if (N == 1) {
            v[0] += amount[e];
        } else {
            float t = x[e] * (float)(N - 1);
            uint32_t i = (uint32_t)floorf(t);
            if (i > N - 2) i = N - 2;
            float f = t - (float)i;
            v[(size_t)i * stride] += amount[e] * (1.0f - f);
            v[(size_t)(i + 1) * stride] += amount[e] * f;
        }
        if (w->asleep) w->asleep[body[e]] = 0;
    }
    return WK_OK;
}

wk_status wk_spline_water_displace(const wk_water *w, const uint32_t *body, const float *x, const float *amount,
                                   size_t count, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = displace_run(w, body, x, amount, count);
    return wk__end(&call, s);
}

wk_status wk_spline_water_surface(const wk_water *w, uint32_t end_mode, uint32_t samples, float *out,
                                  size_t out_stride, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    size_t stride = 0, floats = 0;
    if (s == WK_OK) s = check_water(w, &stride, &floats);
    if (s == WK_OK) s = cols_run(&call, w->pos, stride, w->springs, w->bodies, end_mode, samples, out, out_stride);
    return wk__end(&call, s);
}

/* Spectral radius of [[a, b], [c, d]]. */
static double radius2(double a, double b, double c, double d) {
    double tr = a + d, det = a * d - b * c, disc = tr * tr / 4.0 - det;
    if (disc >= 0.0) {
        double r = sqrt(disc);
        return fmax(fabs(tr / 2.0 + r), fabs(tr / 2.0 - r));
    }
    return sqrt(det > 0.0 ? det : 0.0);
}

static wk_status check_run(const wk_water_params *p, uint32_t springs, wk_water_stability *r) {
    wk_status s = check_params(p);
    if (s != WK_OK) return s;
    if (!r) return wk__fail(WK_ERR_NULL, "report is NULL");
    if (springs < 1) return wk__fail(WK_ERR_INVALID_ARG, "springs must be >= 1, got 0");
    const double pi = 3.14159265358979323846;
    double k = p->k, d = p->damping, sp = p->spread, worst = 0.0;
    uint32_t worst_mode = 0, flags = 0;
    for (uint32_t j = 0; j < springs; j++) {
        double sn = sin(pi * j / (2.0 * springs));
        double g = 1.0 - 4.0 * sp * sn * sn, G = pow(g, (double)p->passes);
        double rad = radius2(G * (1.0 - k), G, (G - 1.0) * (1.0 - k) - d * k, G - 1.0 + d);
        if (rad > worst) {
            worst = rad;
            worst_mode = j;
        }
    }
    if (!(d >= 0.0 && d <= 1.0)) flags |= WK_WATER_UNSTABLE_DAMPING;
    if (!(k >= 0.0 && k <= 2.0 * (1.0 + d))) flags |= WK_WATER_UNSTABLE_K;
    if (!(sp >= 0.0 && sp <= 0.5)) flags |= WK_WATER_UNSTABLE_SPREAD;
    if (worst > 1.0 + 1e-9) flags |= WK_WATER_UNSTABLE_MODES;
    memset(r, 0, sizeof *r);
    r->growth = worst;
    r->unstable = flags;
    r->worst_mode = worst_mode;
    return WK_OK;
}

wk_status wk_spline_water_check(const wk_water_params *params, uint32_t springs, wk_water_stability *report,
                                const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = check_run(params, springs, report);
    return wk__end(&call, s);
}
