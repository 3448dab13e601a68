/* Public entry points of the voxel family's batched kernels: validate,
 * split work over threads, dispatch. */
#include "core/wk_fp_guard.h"

#include <math.h>
#include <string.h>

#include "core/wk_core.h"
#include "voxel_impl.h"

WK__DISPATCH_SIMD(wk__voxel_kernels, voxel_kernels)

/* Rays per task. With more than one part (thread), tasks are visited in a
 * scrambled order (a fixed permutation of units of RAY_UNIT blocks, the
 * blocks of a unit in order), so that the contiguous task ranges the
 * threads get each sample the whole batch: camera batches are costly in
 * some rows and cheap in others. With one part the order is the rays'
 * own. Consecutive blocks of a part go to the kernel in one call, so that
 * its packets refill across them and neighbouring rays (which cross the
 * same chunks) follow each other. Results do not depend on any of it. */
enum { RAY_BLOCK = 512, RAY_WORK = RAY_BLOCK * 256, RAY_UNIT = 8 };

static const double COORD_LIMIT = 2147483648.0; /* 2^31 */

static uint64_t gcd64(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* A multiplier coprime with n near 0.618 n (1 for n <= 2). */
static size_t scramble_for(size_t n) {
    if (n <= 2 || n >= ((size_t)1 << 31)) return 1;
    size_t k = (size_t)((double)n * 0.6180339887);
    if (k < 1) k = 1;
    while (gcd64(k, n) != 1) k++;
    return k;
}

static size_t block_of(size_t task, size_t k, size_t blocks) {
    /* k = 1 when blocks >= 2^31, so the product never overflows */
    return (size_t)((uint64_t)task * k % blocks);
}

/* Checks one coordinate: NaN passes (no hit); Inf and out-of-range fail. */
static wk_status check_coord(float v, const char *name, size_t i, int is_origin) {
    if (isnan(v)) return WK_OK;
    if (isinf(v)) return wk__fail(WK_ERR_NOT_FINITE, "%s[%zu] must be finite, got %g", name, i, (double)v);
    if (is_origin && !((double)v >= -COORD_LIMIT && (double)v < COORD_LIMIT))
        return wk__fail(WK_ERR_OVERFLOW, "%s[%zu] must lie in [-2^31, 2^31), got %.9g", name, i, (double)v);
    return WK_OK;
}

/* ------------------------------------------------------------- raycast */

/* 1 when every origin component lies in (-2^31, 2^31) and every direction
 * component is finite (no NaN either): then check_coord passes them all,
 * and this branch-free scan (vectorized by the compiler) replaces the
 * per-element checks. Otherwise the checks run and name the culprit. */
static int coords_plain(const wk_rays *r, size_t n) {
    const float *in[6] = {r->ox, r->oy, r->oz, r->dx, r->dy, r->dz};
    for (int a = 0; a < 6; a++) {
        const float *v = in[a];
        int bad = 0;
        if (a < 3)
            for (size_t i = 0; i < n; i++) bad |= !(fabsf(v[i]) < 2147483648.0f);
        else
            for (size_t i = 0; i < n; i++) bad |= !(fabsf(v[i]) <= 3.40282347e38f);
        if (bad) return 0;
    }
    return 1;
}

typedef struct raycast_job {
    const wk__voxel_kernels *k;
    const struct wk_voxel_world *w;
    const wk_rays *r;
    const wk_hits *h;
    size_t blocks, units, scramble; /* units: whole units of RAY_UNIT blocks; scramble 1: in order */
} raycast_job;

/* The block of task t: the units permuted (scramble), the blocks past the
 * last whole unit in order. */
static size_t ray_block_of(const raycast_job *job, size_t t) {
    size_t u = t / RAY_UNIT;
    if (job->scramble == 1 || u >= job->units) return t;
    return block_of(u, job->scramble, job->units) * RAY_UNIT + t % RAY_UNIT;
}

static void raycast_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    raycast_job *job = ctx;
    size_t t = begin;
    while (t < end) {
        /* a run of tasks whose blocks follow each other: one call */
        size_t b = ray_block_of(job, t), b_end = b + 1;
        for (t++; t < end && ray_block_of(job, t) == b_end; t++) b_end++;
        size_t lo = b * RAY_BLOCK, hi = b_end * RAY_BLOCK < job->r->n ? b_end * RAY_BLOCK : job->r->n;
        job->k->raycast(job->w, job->r, job->h, lo, hi);
    }
}

static wk_status raycast_run(const wk__call *call, const struct wk_voxel_world *w, const wk_rays *r,
                             wk_hits *h) {
    if (!w || !r || !h) return wk__fail(WK_ERR_NULL, "w, r and h must not be NULL");
    if (!wk__all_zero(r->reserved, sizeof r->reserved)) return wk__fail(WK_ERR_INVALID_ARG, "r->reserved must be zero");
    if (!wk__all_zero(h->reserved, sizeof h->reserved)) return wk__fail(WK_ERR_INVALID_ARG, "h->reserved must be zero");
    size_t n = r->n;
    if (n == 0) return WK_OK;
    if (n > SIZE_MAX / sizeof(float)) return wk__fail(WK_ERR_OVERFLOW, "r->n = %zu overflows size_t bytes", n);
    if (!r->ox || !r->oy || !r->oz || !r->dx || !r->dy || !r->dz)
        return wk__fail(WK_ERR_NULL, "r->ox .. r->dz must not be NULL with n = %zu", n);
    if (!h->t || !h->x || !h->y || !h->z || !h->sub || !h->face)
        return wk__fail(WK_ERR_NULL, "h->t, x, y, z, sub and face must not be NULL with n = %zu", n);
    const void *out[6] = {h->t, h->x, h->y, h->z, h->sub, h->face};
    const size_t out_bytes[6] = {4 * n, 4 * n, 4 * n, 4 * n, n, n};
    static const char *const out_name[6] = {"t", "x", "y", "z", "sub", "face"};
    const void *in[7] = {r->ox, r->oy, r->oz, r->dx, r->dy, r->dz, r->tmax};
    for (int i = 0; i < 6; i++) {
        for (int j = i + 1; j < 6; j++)
            if (wk__overlap(out[i], out_bytes[i], out[j], out_bytes[j]))
                return wk__fail(WK_ERR_ALIAS, "h->%s overlaps h->%s", out_name[i], out_name[j]);
        for (int j = 0; j < 7; j++)
            if (wk__overlap(out[i], out_bytes[i], in[j], 4 * n))
                return wk__fail(WK_ERR_ALIAS, "h->%s overlaps an input array of r", out_name[i]);
    }
    const int plain = coords_plain(r, n); /* else check each and name the first culprit */
    for (size_t i = 0; i < n && !plain; i++) {
        wk_status s;
        if ((s = check_coord(r->ox[i], "r->ox", i, 1)) != WK_OK) return s;
        if ((s = check_coord(r->oy[i], "r->oy", i, 1)) != WK_OK) return s;
        if ((s = check_coord(r->oz[i], "r->oz", i, 1)) != WK_OK) return s;
        if ((s = check_coord(r->dx[i], "r->dx", i, 0)) != WK_OK) return s;
        if ((s = check_coord(r->dy[i], "r->dy", i, 0)) != WK_OK) return s;
        if ((s = check_coord(r->dz[i], "r->dz", i, 0)) != WK_OK) return s;
    }
    raycast_job job = {voxel_kernels(call), w, r, h, 0, 0, 1};
    job.blocks = n / RAY_BLOCK + (n % RAY_BLOCK != 0);
    job.units = job.blocks / RAY_UNIT;
    if (wk__parts_for(call, job.blocks, RAY_WORK) > 1) job.scramble = scramble_for(job.units);
    wk__parallel_for(call, job.blocks, RAY_WORK, raycast_part, &job);
    return WK_OK;
}

wk_status wk_voxel_raycast(const wk_voxel_world *w, const wk_rays *r, wk_hits *h, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = raycast_run(&call, w, r, h);
    return wk__end(&call, s);
}

/* ------------------------------------------------------------ segments */

typedef struct segments_job {
    const struct wk_voxel_world *w;
    const float *p[6];
    uint8_t *visible;
    size_t n;
} segments_job;

static void segments_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    segments_job *job = ctx;
    size_t lo = begin * RAY_BLOCK, hi = end * RAY_BLOCK < job->n ? end * RAY_BLOCK : job->n;
    for (size_t i = lo; i < hi; i++) {
        wk__vray ray;
        int nan = 0;
        for (int a = 0; a < 3; a++) {
            double A = job->p[a][i], B = job->p[3 + a][i];
            nan |= isnan(A) | isnan(B);
            ray.o[a] = A;
            ray.d[a] = B - A;
        }
        ray.limit = 1.0;
        ray.limit_in_s = 1;
        wk__vhit hit;
        job->visible[i] = (uint8_t)(nan ? 0 : !wk__voxel_trace(job->w, &ray, &hit));
    }
}

static wk_status segments_run(const wk__call *call, const struct wk_voxel_world *w, const float *const p[6],
                              size_t n, uint8_t *visible) {
    if (!w) return wk__fail(WK_ERR_NULL, "w is NULL");
    if (n == 0) return WK_OK;
    if (n > SIZE_MAX / sizeof(float)) return wk__fail(WK_ERR_OVERFLOW, "n = %zu overflows size_t bytes", n);
    static const char *const names[6] = {"ax", "ay", "az", "bx", "by", "bz"};
    if (!visible) return wk__fail(WK_ERR_NULL, "visible is NULL with n = %zu", n);
    for (int a = 0; a < 6; a++) {
        if (!p[a]) return wk__fail(WK_ERR_NULL, "%s is NULL with n = %zu", names[a], n);
        if (wk__overlap(visible, n, p[a], 4 * n)) return wk__fail(WK_ERR_ALIAS, "visible overlaps %s", names[a]);
    }
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 6; a++) {
            wk_status s = check_coord(p[a][i], names[a], i, 1);
            if (s != WK_OK) return s;
        }
    segments_job job = {w, {p[0], p[1], p[2], p[3], p[4], p[5]}, visible, n};
    wk__parallel_for(call, n / RAY_BLOCK + (n % RAY_BLOCK != 0), RAY_WORK, segments_part, &job);
    return WK_OK;
}

wk_status wk_voxel_segments(const wk_voxel_world *w, const float *ax, const float *ay, const float *az,
                            const float *bx, const float *by, const float *bz, size_t n, uint8_t *visible,
                            const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    const float *const p[6] = {ax, ay, az, bx, by, bz};
    if (s == WK_OK) s = segments_run(&call, w, p, n, visible);
    return wk__end(&call, s);
}

/* -------------------------------------------------------- point queries */

typedef struct points_job {
    const struct wk_voxel_world *w;
    const float *x, *y, *z;
    uint8_t *solid;
    int8_t *sub;
    size_t n;
} points_job;

enum { POINT_BLOCK = 1024 };

static void points_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    points_job *job = ctx;
    size_t lo = begin * POINT_BLOCK, hi = end * POINT_BLOCK < job->n ? end * POINT_BLOCK : job->n;
    const struct wk_voxel_world *w = job->w;
    for (size_t i = lo; i < hi; i++) {
        float v[3] = {job->x[i], job->y[i], job->z[i]};
        int solid = 0, sub = -1;
        if (!isnan(v[0]) && !isnan(v[1]) && !isnan(v[2]) && w->has_bounds) {
            int64_t q[3];
            for (int a = 0; a < 3; a++) q[a] = (int64_t)floor((double)v[a] * 4.0);
            const wk__vchunk *c =
                wk__vfind(w, (int32_t)wk__vshr(q[0], 6), (int32_t)wk__vshr(q[1], 6), (int32_t)wk__vshr(q[2], 6));
            const uint64_t ux = (uint64_t)q[0], uy = (uint64_t)q[1], uz = (uint64_t)q[2];
            int g = wk__vpart(ux, uy, uz, 4);
            int bb = wk__vpart(ux, uy, uz, 2);
            if (c && ((c->grp[g].occ >> bb) & 1)) {
                solid = 1;
                if ((c->grp[g].brick >> bb) & 1) {
                    uint64_t m = wk__vbrick_mask(c, g, bb);
                    sub = wk__vpart(ux, uy, uz, 0);
                    solid = (int)((m >> sub) & 1);
                }
            }
        }
        job->solid[i] = (uint8_t)solid;
        if (job->sub) job->sub[i] = (int8_t)sub;
    }
}

static wk_status points_run(const wk__call *call, const struct wk_voxel_world *w, const float *x, const float *y,
                            const float *z, size_t n, uint8_t *solid, int8_t *sub) {
    if (!w) return wk__fail(WK_ERR_NULL, "w is NULL");
    if (n == 0) return WK_OK;
    if (n > SIZE_MAX / sizeof(float)) return wk__fail(WK_ERR_OVERFLOW, "n = %zu overflows size_t bytes", n);
    if (!x || !y || !z || !solid) return wk__fail(WK_ERR_NULL, "x, y, z and solid must not be NULL with n = %zu", n);
    const float *in[3] = {x, y, z};
    for (int a = 0; a < 3; a++) {
        if (wk__overlap(solid, n, in[a], 4 * n)) return wk__fail(WK_ERR_ALIAS, "solid overlaps an input");
        if (sub && wk__overlap(sub, n, in[a], 4 * n)) return wk__fail(WK_ERR_ALIAS, "sub overlaps an input");
    }
    if (sub && wk__overlap(sub, n, solid, n)) return wk__fail(WK_ERR_ALIAS, "sub overlaps solid");
    static const char *const names[3] = {"x", "y", "z"};
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            wk_status s = check_coord(in[a][i], names[a], i, 1);
            if (s != WK_OK) return s;
        }
    points_job job = {w, x, y, z, solid, sub, n};
    wk__parallel_for(call, n / POINT_BLOCK + (n % POINT_BLOCK != 0), POINT_BLOCK * 8, points_part, &job);
    return WK_OK;
}

wk_status wk_voxel_query_points(const wk_voxel_world *w, const float *x, const float *y, const float *z, size_t n,
                                uint8_t *solid, int8_t *sub, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = points_run(&call, w, x, y, z, n, solid, sub);
    return wk__end(&call, s);
}

/* --------------------------------------------------------------- camera */

static wk_status camera_run(const wk_voxel_camera *cam, uint32_t width, uint32_t height, float *const out[6]) {
    if (!cam) return wk__fail(WK_ERR_NULL, "cam is NULL");
    if (!wk__all_zero(cam->reserved, sizeof cam->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "cam->reserved must be zero");
    const float *f = &cam->pos[0];
    for (int i = 0; i < 14; i++) {
        float v = i < 12 ? f[i] : i == 12 ? cam->tan_half_fov_x : cam->tan_half_fov_y;
        if (!isfinite(v)) return wk__fail(WK_ERR_NOT_FINITE, "camera field %d must be finite, got %g", i, (double)v);
    }
    if (width == 0 || height == 0) return WK_OK;
    size_t n = (size_t)width * height;
    if ((uint64_t)width * height > SIZE_MAX / sizeof(float))
        return wk__fail(WK_ERR_OVERFLOW, "%u x %u rays overflow size_t bytes", width, height);
    static const char *const names[6] = {"ox", "oy", "oz", "dx", "dy", "dz"};
    for (int a = 0; a < 6; a++) {
        if (!out[a]) return wk__fail(WK_ERR_NULL, "%s is NULL", names[a]);
        for (int b = a + 1; b < 6; b++)
            if (wk__overlap(out[a], 4 * n, out[b], 4 * n))
                return wk__fail(WK_ERR_ALIAS, "%s overlaps %s", names[a], names[b]);
    }
    const float w2 = 2.0f / (float)width, h2 = 2.0f / (float)height;
    for (uint32_t j = 0; j < height; j++) {
        float v = (1.0f - ((float)j + 0.5f) * h2) * cam->tan_half_fov_y;
        for (uint32_t i = 0; i < width; i++) {
            float u = (((float)i + 0.5f) * w2 - 1.0f) * cam->tan_half_fov_x;
            size_t k = (size_t)j * width + i;
            for (int a = 0; a < 3; a++) {
                out[a][k] = cam->pos[a];
                out[3 + a][k] = cam->forward[a] + u * cam->right[a] + v * cam->up[a];
            }
        }
    }
    return WK_OK;
}

wk_status wk_voxel_camera_rays(const wk_voxel_camera *cam, uint32_t width, uint32_t height, float *ox, float *oy,
                               float *oz, float *dx, float *dy, float *dz, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    float *const out[6] = {ox, oy, oz, dx, dy, dz};
    if (s == WK_OK) s = camera_run(cam, width, height, out);
    return wk__end(&call, s);
}
