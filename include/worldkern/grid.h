/* worldkern grid and field views, shared by every family.
 *
 * A grid describes where samples go (noise writes one); a field is a
 * read-only view of values a kernel reads (contour, erosion, voxel edits).
 * Strides count elements, not bytes. All views end in reserved space that
 * must stay zero (wk.h, the growth rule). */
#ifndef WORLDKERN_GRID_H
#define WORLDKERN_GRID_H

#include "wk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A uniform 2D grid of samples. Sample (i, j) sits at world position
 * ((i0 + i) * step, (j0 + j) * step) and goes to out[j * stride + i].
 * Because positions come from the global index (i0 + i), a grid cut into
 * sub-grids with other origins gives bit-identical samples to the whole.
 * nx, ny: samples per row and rows (0 makes the call a no-op).
 * step: world units between samples; finite, > 0.
 * stride >= nx. The output holds (ny - 1) * stride + nx floats; floats
 * between rows (stride > nx) are not touched. */
typedef struct wk_grid2 {
    int64_t i0, j0;
    uint32_t nx, ny;
    double step;
    size_t stride;
    uint64_t reserved[2];
} wk_grid2;
#define WK_GRID2_DEFAULTS {0, 0, 0, 0, 0.0, 0, {0, 0}}

/* 3D: sample (i, j, k) at ((i0+i)*step, (j0+j)*step, (k0+k)*step), written to
 * out[k * slice_stride + j * stride + i]; stride >= nx and
 * slice_stride >= (ny - 1) * stride + nx. */
typedef struct wk_grid3 {
    int64_t i0, j0, k0;
    uint32_t nx, ny, nz;
    double step;
    size_t stride, slice_stride;
    uint64_t reserved[2];
} wk_grid3;
#define WK_GRID3_DEFAULTS {0, 0, 0, 0, 0, 0, 0.0, 0, 0, {0, 0}}

/* A read-only 2D field of w x h nodes: node (x, y) is v[y * stride + x].
 * w, h >= 1 (a family may ask for more); stride >= w. v must hold
 * (h - 1) * stride + w floats. */
typedef struct wk_field2 {
    const float *v;
    uint32_t w, h;
    size_t stride;
    uint64_t reserved[2];
} wk_field2;

/* 3D: node (x, y, z) is v[z * slice_stride + y * stride + x];
 * slice_stride >= (h - 1) * stride + w. */
typedef struct wk_field3 {
    const float *v;
    uint32_t w, h, d;
    size_t stride, slice_stride;
    uint64_t reserved[2];
} wk_field3;

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_GRID_H */
