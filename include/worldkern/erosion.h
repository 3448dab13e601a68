/* worldkern thermal erosion: talus-angle slumping of a height map, in place.
 *
 * One iteration, as terrain code does it: for every interior cell c (not on
 * the map's border), over its 8 neighbours n, the neighbours lower than c by
 * more than the talus (h[c] - h[n] > talus) are counted (count) and their
 * differences summed; their excess is that sum minus count * talus. The cell
 * gives away half of the average excess, the average taken over the cell and
 * its `count` lower neighbours (the cell's own excess being 0):
 *     given = 0.5 * excess / (count + 1)
 * split equally among those neighbours (each receives given / count). The
 * `count + 1` is what levels a cell with its lower neighbours, and it gives
 * the hand-computed spike: a 3x3 map, centre 9, neighbours 0, talus 0
 * becomes centre 5, each neighbour 0.5. All cells read the heights of the
 * previous iteration (the result does not depend on the order cells are
 * visited). Border cells give nothing but receive. The talus applies per cell
 * step to all 8 neighbours alike, diagonals included (no sqrt(2) for the
 * diagonal distance), as in the usual game implementations.
 *
 * Arithmetic (float, the map's type; the same operations on every ISA, so
 * every ISA, thread count and band cut returns the same bits):
 *     sum = 0, count = 0
 *     for n in (-1,-1) (0,-1) (1,-1) (-1,0) (1,0) (-1,1) (0,1) (1,1):   (dx, dy)
 *         d = h[c] - h[n];  if (d > talus) { sum += d; count += 1 }
 *     share = (sum - count * talus) / (2 * count * (count + 1))   (0 if count = 0)
 *     h'[c] = (h[c] - share * count) + received
 * where `received` starts at -0.0f and adds, in the same neighbour order,
 * the share of each neighbour n with h[n] - h[c] > talus (a border cell's
 * share is 0).
 * Mass: what a cell gives and what its neighbours receive differ only by the
 * rounding of share * count and of the two additions of h'[c], so the sum of
 * the heights is conserved up to float rounding (the tests measure it in
 * double over 100 iterations: well within 1e-6 relative).
 *
 * Heights: NaN marks a hole: a NaN cell keeps its NaN, gives and receives
 * nothing, and its neighbours ignore it (NaN never spreads). Infinite
 * heights, or differences that overflow (|h| near FLT_MAX), give Inf and NaN
 * results; no crash. Cells where nothing moves keep their exact bits.
 *
 * Chunked worlds: what a cell becomes in one iteration depends on heights up
 * to two cells away (a neighbour's share depends on the neighbour's own
 * neighbours). Eroding a tile cut from the map with a halo of
 * wk_erosion_halo(iterations) = 2 * iterations cells on every side that has
 * more map beyond it gives, in the tile's interior, exactly the bits eroding
 * the whole map gives. (A halo of `iterations` is not enough.)
 */
#ifndef WORLDKERN_EROSION_H
#define WORLDKERN_EROSION_H

#include "grid.h"
#include "wk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A mutable 2D height map of w x h cells: cell (x, y) is v[y * stride + x]
 * (heights in world units; strides in floats). The read-only wk_field2 of
 * grid.h with a writable pointer. w, h >= 1, stride >= w; v holds
 * (h - 1) * stride + w floats; floats between rows are never touched.
 * reserved must be zero. */
typedef struct wk_heightmap {
    float *v;
    uint32_t w, h;
    size_t stride;
    uint64_t reserved[2];
} wk_heightmap;
#define WK_HEIGHTMAP_DEFAULTS {0, 0, 0, 0, {0, 0}}

/* The talus (height difference per cell step) of a slope of `degrees` over
 * cells `cell_size` world units apart: cell_size * tan(degrees), rounded to
 * float. Use the same units for heights and cell_size. The result applies to
 * all 8 neighbours (diagonals use the same talus, see above).
 * degrees: finite, 0 <= degrees < 90. cell_size: finite, > 0.
 * Errors: WK_ERR_NULL (talus), WK_ERR_NOT_FINITE (degrees or cell_size not
 * finite), WK_ERR_INVALID_ARG (out of range), WK_ERR_OVERFLOW (the talus is
 * not a finite float). *talus is untouched on error. Thread-safe. */
WK_API wk_status wk_erosion_talus_from_angle(double degrees, double cell_size, float *talus);

/* The halo, in cells, a tile needs so that its interior erodes exactly as
 * the whole map: 2 * iterations (UINT32_MAX when that overflows). */
WK_API uint32_t wk_erosion_halo(uint32_t iterations);

/* Scratch (in floats) that wk_erosion_thermal needs for a w x h map so that
 * calls can use up to `threads` threads (0 = wk_threads() now; the count is
 * capped at WK_MAX_THREADS and at h). A call given less scratch, but at
 * least the bound for 1 thread, uses fewer threads (same results); below
 * the bound for 1 thread it fails with WK_ERR_CAPACITY. The size depends on
 * w, not on h: each thread caches, per iteration it runs at a time, 19 rows
 * and 6 rows of neighbour masks (1 byte per cell), about 20.5 rows of floats
 * (K = 1..8 iterations, fewer for wide maps: K = 8 up to w of about 2300, 4
 * at w = 4096), and each boundary between two threads' bands copies 4K rows:
 * about 20.5 * K * (w + 32) * threads + 4 * K * w * (threads - 1) floats
 * (1024 wide, 1 thread: 0.71 MB; 2 threads: 1.5 MB).
 * Errors: WK_ERR_NULL (floats), WK_ERR_INVALID_ARG (threads < 0),
 * WK_ERR_OVERFLOW (the size overflows size_t bytes). Thread-safe. */
WK_API wk_status wk_erosion_scratch_bound(uint32_t w, uint32_t h, int32_t threads, size_t *floats);

/* Runs `iterations` iterations of thermal erosion on `map`, in place (the
 * result is as if each iteration read a copy of the previous one).
 * talus: height difference per cell step, finite, >= 0 (a difference equal
 *   to the talus moves nothing).
 * iterations: any count; 0 leaves the map untouched. Maps narrower or
 *   shorter than 3 cells have no interior: nothing moves, the map is
 *   untouched.
 * scratch: scratch_floats floats of caller memory (see
 *   wk_erosion_scratch_bound), any alignment; its contents are undefined
 *   afterwards. It must not overlap the map's floats.
 * Errors (the map is untouched): WK_ERR_NULL (map, map->v, scratch when
 *   needed), WK_ERR_INVALID_ARG (reserved not zero, talus < 0, w or h = 0),
 *   WK_ERR_NOT_FINITE (talus), WK_ERR_STRIDE (stride < w), WK_ERR_OVERFLOW
 *   (the map's extent overflows), WK_ERR_CAPACITY (scratch_floats below the
 *   1-thread bound; the detail names the size needed), WK_ERR_ALIAS (scratch
 *   overlaps the map), and wk_exec errors.
 * Threads: rows are cut into bands, one per thread; each band runs up to 8
 * iterations per sweep over rows cached in the scratch, recomputing the
 * rows within 2 cells per iteration of its edges (every cell computed the
 * same way, so bands, sweeps and threads never change a bit). Calls on
 * different maps and scratch may run at once; one map or scratch must not
 * be used by two calls at once. */
WK_API wk_status wk_erosion_thermal(const wk_heightmap *map, float talus, uint32_t iterations, float *scratch,
                                    size_t scratch_floats, const wk_exec *exec);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_EROSION_H */
