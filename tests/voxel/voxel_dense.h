/* An independent reference for the voxel checks: a dense box of block
 * masks and the plain double-precision Amanatides-Woo walk over the
 * sub-voxel lattice, one cell at a time, written from the rules in
 * worldkern/voxel.h only (no skipping, no hash map, no shared code). */
#ifndef WK_TESTS_VOXEL_DENSE_H
#define WK_TESTS_VOXEL_DENSE_H

#include <stdint.h>

typedef struct dense_world {
    int32_t x0, y0, z0; /* block at the box's low corner */
    int32_t nx, ny, nz;
    uint64_t *m;        /* nx * ny * nz masks, x fastest */
} dense_world;

typedef struct dense_hit {
    float t;
    int32_t x, y, z;
    int8_t sub, face;
} dense_hit;

dense_world dense_new(int32_t x0, int32_t y0, int32_t z0, int32_t nx, int32_t ny, int32_t nz);
void dense_free(dense_world *d);
/* Sets block (x, y, z) (inside the box) to mask. */
void dense_set(dense_world *d, int32_t x, int32_t y, int32_t z, uint64_t mask);
uint64_t dense_get(const dense_world *d, int64_t x, int64_t y, int64_t z);
/* Solid at sub-voxel lattice cell (qx, qy, qz)? */
int dense_cell(const dense_world *d, int64_t qx, int64_t qy, int64_t qz);

/* The walk. limit: tmax (limit_in_s = 0) or the largest s (1). Returns 1
 * and *hit on a hit; 0 and the miss values (t = INFINITY, 0, 0, 0, -1,
 * -1) otherwise. Rays must start within a few hundred cells of the box. */
int dense_cast(const dense_world *d, const float o[3], const float dir[3], double limit, int limit_in_s,
               dense_hit *hit);

#endif
