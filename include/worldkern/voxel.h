/* worldkern voxel family: a sparse block world with 4x4x4 sub-voxel bricks
 * and exact batched ray casts.
 *
 * ## World
 * Block (x, y, z) (int32 each) occupies [x, x+1) x [y, y+1) x [z, z+1).
 * A block is empty, solid, or a brick of 4x4x4 sub-voxels given by a
 * 64-bit mask: sub-voxel (i, j, k), 0..3 each, occupies
 * [x + i/4, x + (i+1)/4) x [y + j/4, ...) x [z + k/4, ...) and is bit
 * i + 4*j + 16*k. A mask of 0 clears the block; the full mask
 * (WK_VOXEL_FULL) is stored as, and behaves exactly like, a solid block.
 *
 * Storage: chunks of 16^3 blocks in an open-addressing hash map keyed by
 * chunk coordinates; per chunk, one 64-bit occupancy mask per 4x4x4 group
 * of blocks, a 64-bit mask of nonempty groups, and a compact brick array
 * per group. Every summary (chunk nonempty, group nonempty, block solid or
 * brick) is updated exactly by each edit in O(1): there is no rebuild step,
 * and an edit is visible to the next ray cast. The world's bounds (the
 * chunks ever made nonempty) only grow. A dense directory over the bounds
 * (with room to grow on every side; 16 bytes per chunk position: the
 * chunk's address, its nonempty-group mask, and whether its aligned
 * 2 x 2 x 2 block of chunks is empty, all kept exact by edits) speeds up
 * the casts' chunk lookups; an edit that grows the bounds out of it rebuilds it
 * at least twice as large (amortized O(1) per edit), and a world too
 * sprawling for one (over 2^22 entries, or 64 per chunk) goes without:
 * lookups then use the hash map, with the same results. The directory
 * entry of an empty chunk and the unused brick word of an empty group hold
 * an empty box around them (up to 5 x 5 x 5 chunks, up to 4 x 4 x 4 groups)
 * that the AVX-512 walk leaves in one step; edits keep the boxes empty in
 * O(1) (a chunk or group turning nonempty cuts the boxes around it: at most
 * 125 directory entries or 64 groups). On the benchmarks' terrain a warm
 * single edit takes about 0.3 us at the median, 0.7 us at the 99th
 * percentile and up to about 1 us at the 99.9th; one that
 * allocates (a place's first brick) takes longer.
 *
 * Memory: the world allocates on edits (chunks, bricks, the hash table)
 * through the allocator hooks given at creation; ray casts and queries
 * never allocate. On WK_ERR_NO_MEMORY an edit leaves the world unchanged.
 *
 * Concurrency: any number of threads may cast rays and query one world at
 * once (they only read it). Edits (set_block, set_sub, set_box,
 * set_terrain, destroy) need exclusive access: no other call on the same world may run during an
 * edit. Different worlds are independent. Edits apply in call order, the
 * last one wins.
 *
 * ## Rays (wk_voxel_raycast)
 * A ray is origin o and direction d (floats, converted exactly to double),
 * p(s) = o + s * d for s >= 0. Directions need not be normalized.
 * The traversal is the double-precision Amanatides-Woo walk over the
 * sub-voxel lattice (cells of 1/4 block; a solid block is 64 solid cells):
 *  - the start cell is floor(4 * o) on each axis: cells are half-open, so
 *    an origin exactly on a boundary lies in the upper cell;
 *  - an axis with d == 0 (+0.0 or -0.0) never steps; any other d (also
 *    subnormal) steps. The plane at lattice coordinate P (P/4 world units)
 *    is crossed at s = (P/4 - o) / d, computed in double from the origin
 *    for every plane (never accumulated). With an origin exactly on a
 *    plane and moving down that axis, that plane bounds the start cell
 *    and is crossed at s = 0 (so an origin on the top of a block moving
 *    down enters that block at t = 0 through its top face, face 3);
 *  - events are taken in order of s; on equal s (a ray through an edge or
 *    a corner) x steps before y before z. This tie order is the same in
 *    every path (reference, SIMD, segments);
 *  - the result is the first solid cell visited: the start cell (t = 0,
 *    face 6), or a cell entered at s through the face normal to the axis
 *    that stepped. t = s * |d| (|d| = sqrt(dx^2 + dy^2 + dz^2) in double),
 *    the Euclidean distance along d; a hit counts when t <= tmax (compared
 *    in double), and t is returned rounded to float (never -0.0).
 * Empty aligned 2 x 2 x 2 blocks of chunks, empty chunks, empty groups of
 * 4^3 blocks (and aligned pairs of them) and empty blocks (and pairs) are
 * skipped in O(1) each; the cell found is exactly the one the plain walk
 * finds.
 * A ray that leaves the world's bounds stops, so tmax = INFINITY always
 * terminates. Cost: about one step per empty node crossed, so a ray
 * through the bounds of a world whose chunks lie far apart walks all the
 * empty chunks in between (64^3 or 128^3 cells per step).
 *
 * ## Batches, instruction sets, threads
 * Rays are structure of arrays. The batch is cut into blocks of 512 rays
 * that the threads share (wk_exec); with AVX-512 (AVX2) each block is
 * walked in packets of 8 (4) rays in double lanes (three (two) packets
 * interleaved), a finished lane refilled with the next ray at once. NEON
 * runs the scalar reference (its packet path is not written). Every ISA,
 * thread count and cut of the batch gives bit-identical outputs.
 */
#ifndef WORLDKERN_VOXEL_H
#define WORLDKERN_VOXEL_H

#include "wk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The opaque world: sparse, unbounded within int32 block coordinates. */
typedef struct wk_voxel_world wk_voxel_world;

/* The full sub-voxel mask: a solid block. */
#define WK_VOXEL_FULL UINT64_C(0xFFFFFFFFFFFFFFFF)

/* Creates an empty world in *w. alloc may be NULL (malloc/free); the hooks
 * are copied. Errors: WK_ERR_NULL (w NULL), WK_ERR_INVALID_ARG (one hook
 * NULL, reserved nonzero), WK_ERR_NO_MEMORY; *w is NULL on error (when w
 * is not NULL). */
WK_API wk_status wk_voxel_world_create(wk_voxel_world **w, const wk_allocator *alloc);

/* Frees the world and everything it allocated. NULL is a no-op. */
WK_API void wk_voxel_world_destroy(wk_voxel_world *w);

/* Makes block (x, y, z) solid (solid != 0) or empty (solid == 0).
 * Errors: WK_ERR_NULL, WK_ERR_NO_MEMORY (world unchanged). Clearing a block
 * never allocates. Exclusive access (see above). */
WK_API wk_status wk_voxel_set_block(wk_voxel_world *w, int32_t x, int32_t y, int32_t z, int solid);

/* Sets block (x, y, z) to the sub-voxel mask: 0 clears it, WK_VOXEL_FULL
 * makes it solid, anything else makes it a brick. Errors as set_block. */
WK_API wk_status wk_voxel_set_sub(wk_voxel_world *w, int32_t x, int32_t y, int32_t z, uint64_t mask);

/* The mask of block (x, y, z) into *mask: 0 empty, WK_VOXEL_FULL solid,
 * else the brick. Errors: WK_ERR_NULL. Read-only (concurrent with casts). */
WK_API wk_status wk_voxel_get_block(const wk_voxel_world *w, int32_t x, int32_t y, int32_t z,
                                    uint64_t *mask);

/* Bulk edit from a dense box of bytes: block (x0 + i, y0 + j, z0 + k) for
 * i < nx, j < ny, k < nz takes v[k * slice_stride + j * stride + i]:
 * 0 = empty, 1 = solid (any brick there is replaced). Applied in one call
 * with the same result as the set_block calls in that order, a chunk and a
 * group of 4 x 4 x 4 blocks at a time (the 256^3 benchmark terrain: about
 * 30 ms, under 2 ns per block).
 * stride >= nx, slice_stride >= (ny - 1) * stride + nx; an empty box is a
 * no-op (v may be NULL). Errors, world unchanged:
 *   WK_ERR_NULL         w, or v with a nonempty box
 *   WK_ERR_INVALID_ARG  a byte other than 0 or 1
 *   WK_ERR_STRIDE       stride or slice_stride too small
 *   WK_ERR_OVERFLOW     the box leaves int32 block coordinates, or its
 *                       extent overflows size_t
 *   WK_ERR_NO_MEMORY    (the world's contents unchanged; chunks made
 *                       during the attempt stay, empty) */
WK_API wk_status wk_voxel_set_box(wk_voxel_world *w, int32_t x0, int32_t y0, int32_t z0, uint32_t nx,
                                  uint32_t ny, uint32_t nz, const uint8_t *v, size_t stride,
                                  size_t slice_stride);

/* Terrain from the noise family in one call: for every column (x, z) with
 * x0 <= x < x0 + nx, z0 <= z < z0 + nz, the height
 *     h = base + amplitude * n,  n = wk_noise_fbm2_grid(f) at grid node
 *     (x, z) (a wk_grid2 with i0 = x0, j0 = z0, step 1, so positions are
 *     (x, z) * 1.0 in world units before f->frequency),
 * in float, and every block y0 <= y < y0 + ny of the column becomes solid
 * when (float)y < h, else empty (bricks there are replaced). Same result
 * as the set_block calls, set as set_box does (256^3 of the benchmark
 * terrain: about 20 ms); scratch for the heights (nx * nz floats) comes
 * from the world's allocator. Errors, world unchanged: those of
 * wk_noise_fbm2_grid for f; WK_ERR_NULL (w or f); WK_ERR_NOT_FINITE (base
 * or amplitude); WK_ERR_OVERFLOW (the box leaves int32 coordinates, or
 * nx * nz floats overflow size_t); WK_ERR_NO_MEMORY (contents unchanged;
 * chunks made during the attempt stay, empty). An empty box is a no-op. */
struct wk_fbm;
WK_API wk_status wk_voxel_set_terrain(wk_voxel_world *w, const struct wk_fbm *f, int32_t x0, int32_t z0,
                                      uint32_t nx, uint32_t nz, int32_t y0, uint32_t ny, float base,
                                      float amplitude, const wk_exec *exec);

/* What a world holds. bytes: everything allocated through the hooks
 * (world object, hash table, chunks, bricks). chunks: chunks allocated
 * (emptied chunks stay until destroy). solid_blocks, bricks: blocks now
 * solid, blocks now bricks. */
typedef struct wk_voxel_stats {
    uint64_t bytes;
    uint64_t chunks;
    uint64_t solid_blocks;
    uint64_t bricks;
    uint64_t reserved[4];
} wk_voxel_stats;

/* Fills *stats (reserved space set to zero). Errors: WK_ERR_NULL. */
WK_API wk_status wk_voxel_world_stats(const wk_voxel_world *w, wk_voxel_stats *stats);

/* ---------------------------------------------------------------- rays */

/* n rays in structure of arrays. `n` stays where the issue put it, after
 * the pointers; reserved space (zero) follows it (the growth rule).
 * ox, oy, oz: origins in blocks; each finite with -2^31 <= o < 2^31.
 * dx, dy, dz: directions, finite, any length (zero vector: only the start
 *             cell is looked at).
 * tmax:       per-ray limit on t (Euclidean, in blocks); may be NULL for
 *             INFINITY everywhere. A negative or NaN tmax gives no hit,
 *             even from inside solid; tmax = 0 finds only hits at t = 0.
 * A ray with a NaN in its origin or direction gives no hit. */
typedef struct wk_rays {
    const float *ox, *oy, *oz, *dx, *dy, *dz, *tmax;
    size_t n;
    uint64_t reserved[4];
} wk_rays;

/* Outputs, n entries each, all required when n > 0:
 * t:       distance to the hit (float), INFINITY when none;
 * x, y, z: block hit (0 when none);
 * sub:     -1 for a solid block (and for no hit), else the sub-voxel index
 *          0..63 (i + 4j + 16k) of the brick's cell that was hit;
 * face:    0..5 outward normal of the face entered (-x, +x, -y, +y, -z,
 *          +z), 6 when the ray starts inside solid, -1 when no hit. */
typedef struct wk_hits {
    float *t;
    int32_t *x, *y, *z;
    int8_t *sub;
    int8_t *face;
    uint64_t reserved[4];
} wk_hits;

/* Casts r->n rays through w (see the top of this file for the exact
 * rules). Results are identical for every ISA, thread count and split of
 * the batch. Never allocates; concurrent casts on one world are fine.
 * n = 0 is a no-op (pointers may be NULL). Errors, outputs untouched:
 *   WK_ERR_NULL         w, r, h, or an array (except tmax) with n > 0
 *   WK_ERR_INVALID_ARG  nonzero reserved space in r or h
 *   WK_ERR_NOT_FINITE   an infinite origin or direction component
 *   WK_ERR_OVERFLOW     an origin outside [-2^31, 2^31), or n * 4 bytes
 *                       overflows size_t
 *   WK_ERR_ALIAS        output arrays overlap each other or an input */
WK_API wk_status wk_voxel_raycast(const wk_voxel_world *w, const wk_rays *r, wk_hits *h,
                                  const wk_exec *exec);

/* Line of sight for n segments from a to b: visible[i] = 1 when the
 * walk from a along d = b - a (computed in double) meets no solid cell at
 * s <= 1 (the start cell included), else 0. Same traversal and tie order
 * as the ray cast (a solid cell entered exactly at b blocks). a == b:
 * visible unless a is inside solid. A NaN anywhere gives 0 (not visible).
 * Errors (visible untouched): WK_ERR_NULL; WK_ERR_NOT_FINITE (an infinite
 * coordinate); WK_ERR_OVERFLOW (a coordinate outside [-2^31, 2^31), n too
 * large); WK_ERR_ALIAS (visible overlaps an input). */
WK_API wk_status wk_voxel_segments(const wk_voxel_world *w, const float *ax, const float *ay,
                                   const float *az, const float *bx, const float *by, const float *bz,
                                   size_t n, uint8_t *visible, const wk_exec *exec);

/* Batched point queries: solid[i] = 1 when the point (x, y, z) (blocks)
 * lies in a solid block or a solid sub-voxel (cells half-open), else 0.
 * sub (may be NULL): the sub-voxel index 0..63 containing the point when
 * its block is a brick, else -1. NaN points: 0 and -1.
 * Errors: WK_ERR_NULL, WK_ERR_NOT_FINITE (infinite coordinate),
 * WK_ERR_OVERFLOW (coordinate outside [-2^31, 2^31)), WK_ERR_ALIAS. */
WK_API wk_status wk_voxel_query_points(const wk_voxel_world *w, const float *x, const float *y,
                                       const float *z, size_t n, uint8_t *solid, int8_t *sub,
                                       const wk_exec *exec);

/* A pinhole camera. Ray (i, j) of a width x height image (i right, j down)
 * has origin pos and direction, per axis,
 *     (forward + u * right) + v * up,
 *     u = ((i + 0.5f) * (2.0f / width) - 1) * tan_half_fov_x,
 *     v = (1 - (j + 0.5f) * (2.0f / height)) * tan_half_fov_y,
 * in float, in that order (no fused multiply-add), so the rays are the same
 * bits everywhere. The vectors need not be orthonormal. */
typedef struct wk_voxel_camera {
    float pos[3];
    float forward[3];
    float right[3];
    float up[3];
    float tan_half_fov_x, tan_half_fov_y;
    uint32_t reserved[4];
} wk_voxel_camera;

/* Fills width * height rays (index j * width + i) into ox..dz.
 * Errors: WK_ERR_NULL, WK_ERR_INVALID_ARG (reserved), WK_ERR_NOT_FINITE
 * (a camera field not finite), WK_ERR_OVERFLOW (width * height * 4 bytes
 * overflows size_t), WK_ERR_ALIAS (outputs overlap). */
WK_API wk_status wk_voxel_camera_rays(const wk_voxel_camera *cam, uint32_t width, uint32_t height,
                                      float *ox, float *oy, float *oz, float *dx, float *dy, float *dz,
                                      const wk_exec *exec);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_VOXEL_H */
