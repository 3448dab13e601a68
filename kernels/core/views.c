/* Checks of the grid and field views (grid.h), shared by every family. */
#include <math.h>

#include "wk_core.h"

static const size_t MAX_FLOATS = SIZE_MAX / sizeof(float);

/* Floats of `rows` rows of `width` apart `stride`: (rows - 1) * stride +
 * width, or 0 with WK_ERR_OVERFLOW in *s when it leaves size_t bytes. */
static size_t extent(size_t rows, size_t stride, size_t width, wk_status *s) {
    if (rows == 0 || width == 0) return 0;
    if (rows - 1 > (MAX_FLOATS - width) / (stride ? stride : 1)) {
        *s = WK_ERR_OVERFLOW;
        return 0;
    }
    return (rows - 1) * stride + width;
}

static wk_status check_step(double step, const char *name) {
    if (!isfinite(step)) return wk__fail(WK_ERR_NOT_FINITE, "%s->step must be finite, got %g", name, step);
    if (!(step > 0)) return wk__fail(WK_ERR_INVALID_ARG, "%s->step must be > 0, got %g", name, step);
    return WK_OK;
}

wk_status wk__check_grid2(const wk_grid2 *g, const char *name, size_t *floats) {
    *floats = 0;
    if (!g) return wk__fail(WK_ERR_NULL, "%s is NULL", name);
    if (!wk__all_zero(g->reserved, sizeof g->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "%s->reserved must be zero", name);
    wk_status s = check_step(g->step, name);
    if (s != WK_OK || g->nx == 0 || g->ny == 0) return s;
    if (g->stride < g->nx)
        return wk__fail(WK_ERR_STRIDE, "%s->stride must be >= nx (%u), got %zu", name, g->nx, g->stride);
    size_t n = extent(g->ny, g->stride, g->nx, &s);
    if (s != WK_OK)
        return wk__fail(s, "%s: %u rows of stride %zu overflow size_t bytes", name, g->ny, g->stride);
    *floats = n;
    return WK_OK;
}

wk_status wk__check_grid3(const wk_grid3 *g, const char *name, size_t *floats) {
    *floats = 0;
    if (!g) return wk__fail(WK_ERR_NULL, "%s is NULL", name);
    if (!wk__all_zero(g->reserved, sizeof g->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "%s->reserved must be zero", name);
    wk_status s = check_step(g->step, name);
    if (s != WK_OK || g->nx == 0 || g->ny == 0 || g->nz == 0) return s;
    if (g->stride < g->nx)
        return wk__fail(WK_ERR_STRIDE, "%s->stride must be >= nx (%u), got %zu", name, g->nx, g->stride);
    size_t slice = extent(g->ny, g->stride, g->nx, &s);
    if (s != WK_OK)
        return wk__fail(s, "%s: %u rows of stride %zu overflow size_t bytes", name, g->ny, g->stride);
    if (g->slice_stride < slice)
        return wk__fail(WK_ERR_STRIDE, "%s->slice_stride must be >= (ny - 1) * stride + nx = %zu, got %zu",
                        name, slice, g->slice_stride);
    size_t n = extent(g->nz, g->slice_stride, slice, &s);
    if (s != WK_OK)
        return wk__fail(s, "%s: %u slices of stride %zu overflow size_t bytes", name, g->nz, g->slice_stride);
    *floats = n;
    return WK_OK;
}

size_t wk__field2_extent(const wk_field2 *f) {
    wk_status s = WK_OK;
    return extent(f->h, f->stride, f->w, &s);
}

size_t wk__field3_extent(const wk_field3 *f) {
    wk_status s = WK_OK;
    size_t slice = extent(f->h, f->stride, f->w, &s);
    return extent(f->d, f->slice_stride, slice, &s);
}

wk_status wk__check_field2(const wk_field2 *f, const char *name, uint32_t min_w, uint32_t min_h) {
    if (!f) return wk__fail(WK_ERR_NULL, "%s is NULL", name);
    if (!f->v) return wk__fail(WK_ERR_NULL, "%s->v is NULL", name);
    if (!wk__all_zero(f->reserved, sizeof f->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "%s->reserved must be zero", name);
    if (f->w < min_w || f->h < min_h)
        return wk__fail(WK_ERR_INVALID_ARG, "%s must be at least %u x %u nodes, got %u x %u", name, min_w,
                        min_h, f->w, f->h);
    if (f->stride < f->w)
        return wk__fail(WK_ERR_STRIDE, "%s->stride must be >= w (%u), got %zu", name, f->w, f->stride);
    wk_status s = WK_OK;
    extent(f->h, f->stride, f->w, &s);
    if (s != WK_OK) return wk__fail(s, "%s: %u rows of stride %zu overflow size_t bytes", name, f->h, f->stride);
    return WK_OK;
}

wk_status wk__check_field3(const wk_field3 *f, const char *name, uint32_t min_w, uint32_t min_h,
                           uint32_t min_d) {
    if (!f) return wk__fail(WK_ERR_NULL, "%s is NULL", name);
    if (!f->v) return wk__fail(WK_ERR_NULL, "%s->v is NULL", name);
    if (!wk__all_zero(f->reserved, sizeof f->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "%s->reserved must be zero", name);
    if (f->w < min_w || f->h < min_h || f->d < min_d)
        return wk__fail(WK_ERR_INVALID_ARG, "%s must be at least %u x %u x %u nodes, got %u x %u x %u", name,
                        min_w, min_h, min_d, f->w, f->h, f->d);
    if (f->stride < f->w)
        return wk__fail(WK_ERR_STRIDE, "%s->stride must be >= w (%u), got %zu", name, f->w, f->stride);
    wk_status s = WK_OK;
    size_t slice = extent(f->h, f->stride, f->w, &s);
    if (s != WK_OK) return wk__fail(s, "%s: %u rows of stride %zu overflow size_t bytes", name, f->h, f->stride);
    if (f->slice_stride < slice)
        return wk__fail(WK_ERR_STRIDE, "%s->slice_stride must be >= %zu, got %zu", name, slice, f->slice_stride);
    extent(f->d, f->slice_stride, slice, &s);
    if (s != WK_OK) return wk__fail(s, "%s: %u slices overflow size_t bytes", name, f->d);
    return WK_OK;
}
