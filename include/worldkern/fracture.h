/* worldkern fracture family: support graphs for fractured objects.
 *
 * A fractured object is n fragments with axis-aligned bounds. Fragments
 * whose bounds touch are neighbours; fragments whose bounds touch an anchor
 * volume (the ground, a wall) are anchors. When fragments break off, every
 * fragment no longer connected to an anchor through unbroken fragments
 * falls too. The pieces:
 *
 *   wk_fracture_adjacency   every touching pair of fragments (uniform grids)
 *   wk_fracture_anchors     which fragments touch any of m anchor boxes
 *   wk_fracture_volumes     signed volumes (and masses) of closed meshes
 *   wk_fracture_graph_*     the support graph: built once, then `break`
 *                           returns what fell, in work proportional to what
 *                           changes
 *
 * The touching rule (adjacency and anchors): a fragment's box grows by
 * `padding` on every side, each bound computed in float (min - padding,
 * max + padding, round to nearest); two boxes touch when their closed
 * intervals intersect on all three axes (a <= b compares, so boxes that only
 * share a face, an edge or a corner touch, as game engines' bounds tests
 * do). Two fragments therefore touch when their gap is at most 2 * padding
 * on every axis (up to the rounding of the padded bounds).
 *
 * Exactness: every function here returns the same results (pairs, flags,
 * bits of volumes) on every instruction set and thread count.
 *
 * Thread safety: the kernels (adjacency, anchors, volumes) may be called from
 * any number of threads at once on distinct outputs and workspaces. A
 * support graph is not synchronized: calls on one graph must not overlap;
 * distinct graphs are independent.
 */
#ifndef WORLDKERN_FRACTURE_H
#define WORLDKERN_FRACTURE_H

#include "wk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* n axis-aligned boxes as structure of arrays: box i spans
 * [min_x[i], max_x[i]] x [min_y[i], max_y[i]] x [min_z[i], max_z[i]]
 * (world units). Every bound must be finite and min <= max on every axis.
 * n may be 0 (pointers may then be NULL); n <= WK_FRACTURE_MAX_FRAGMENTS.
 * reserved must be zero. */
typedef struct wk_boxes {
    const float *min_x, *min_y, *min_z;
    const float *max_x, *max_y, *max_z;
    uint32_t n;
    uint32_t reserved32;
    uint64_t reserved[2];
} wk_boxes;
#define WK_BOXES_DEFAULTS {0, 0, 0, 0, 0, 0, 0, 0, {0, 0}}

/* Fragment ids are uint32_t; counts stay below 2^31. */
#define WK_FRACTURE_MAX_FRAGMENTS 0x7FFFFFFFu

/* ------------------------------------------------------------ adjacency */

/* Bytes of workspace wk_fracture_adjacency needs for n fragments (any
 * alignment; about 181 bytes per fragment). Errors: WK_ERR_NULL (bytes),
 * WK_ERR_OVERFLOW (n > WK_FRACTURE_MAX_FRAGMENTS). */
WK_API wk_status wk_fracture_adjacency_workspace_size(uint32_t n, size_t *bytes);

/* Every touching pair of fragments (the rule at the top of this header),
 * each pair once as (i, j) with i < j, sorted lexicographically:
 * pairs[2k] = i, pairs[2k + 1] = j.
 *
 * frags    the fragments' bounds (world units).
 * padding  world units, finite, >= 0 (0: only boxes that overlap or touch).
 * workspace, workspace_bytes: scratch of at least
 *          wk_fracture_adjacency_workspace_size(frags->n) bytes, any
 *          alignment; contents on return are unspecified. Must not overlap
 *          pairs or the inputs. May be NULL when n < 2.
 * pairs    room for `capacity` pairs (2 * capacity uint32_t), or NULL with
 *          capacity 0 to ask for the count only.
 * count    gets the number of touching pairs, also on WK_ERR_CAPACITY.
 *
 * Two-call pattern: call with pairs = NULL, capacity = 0 (returns WK_OK and
 * the count), allocate, call again. When pairs is not NULL and capacity is
 * smaller than the count: WK_ERR_CAPACITY, *count = the count needed, pairs
 * untouched.
 *
 * Method: the padded boxes go into uniform grids, one per size class (class
 * size doubling from about 1.5 x the typical box size, cells 2/3 of it; each
 * box in the smallest class at least its size); the boxes of one cell test
 * the boxes of the cells their union can reach in every class, with vector
 * box tests; never all pairs. Cost is
 * about n * (neighbours + 27 cells) for boxes of similar size; a world with
 * boxes far apart and dense clusters keeps the grid at most about 2n cells,
 * so dense clusters then share cells (slower, still correct). Two passes
 * (count, then write) so that threads write disjoint ranges.
 *
 * Errors (outputs untouched): WK_ERR_NULL (frags, count, workspace, a bounds
 * array with n > 0, pairs NULL with capacity > 0); WK_ERR_NOT_FINITE (a NaN or
 * infinite bound, or padding; the detail names the fragment); WK_ERR_INVALID_ARG
 * (padding < 0, min > max on an axis, reserved nonzero); WK_ERR_OVERFLOW
 * (n too large, a padded bound overflows float); WK_ERR_CAPACITY (workspace
 * too small: *count is untouched; pairs too small: *count = the count needed);
 * WK_ERR_ALIAS (workspace overlaps pairs). */
WK_API wk_status wk_fracture_adjacency(const wk_boxes *frags, float padding, void *workspace,
                                       size_t workspace_bytes, uint32_t *pairs, size_t capacity,
                                       size_t *count, const wk_exec *exec);

/* -------------------------------------------------------------- anchors */

/* flags[i] = 1 when fragment i, grown by padding, touches any of the anchor
 * boxes (closed rule above; anchors are not grown), else 0.
 * frags: n fragments; anchors: m boxes (m may be 0: all flags 0); flags: n
 * bytes. Cost: n * m box tests (vectorized); meant for a few anchor volumes.
 * Errors (flags untouched): WK_ERR_NULL, WK_ERR_NOT_FINITE (a NaN/Inf bound or
 * padding), WK_ERR_INVALID_ARG (padding < 0, min > max, reserved nonzero),
 * WK_ERR_OVERFLOW (a padded bound overflows float), WK_ERR_ALIAS (flags
 * overlaps a bounds array). */
WK_API wk_status wk_fracture_anchors(const wk_boxes *frags, float padding, const wk_boxes *anchors,
                                     uint8_t *flags, const wk_exec *exec);

/* --------------------------------------------------------------- volumes */

/* Per-mesh flags of wk_fracture_volumes. */
enum {
    WK_MESH_OPEN = 1,       /* some directed edge (a, b) is not matched by exactly one
                               (b, a) and used exactly once: not a closed 2-manifold
                               with consistent winding; the volume is not meaningful */
    WK_MESH_INVERTED = 2,   /* the signed volume is negative (inward-facing winding) */
    WK_MESH_DEGENERATE = 4, /* a triangle repeats a vertex index */
    WK_MESH_EMPTY = 8       /* no triangles (volume 0) */
};

/* Triangle meshes sharing one vertex array. Mesh k is the triangles
 * [tri_start[k], tri_start[k + 1]) of `tris` (three uint32_t vertex indices
 * per triangle, counter-clockwise seen from outside), so tri_start has
 * mesh_count + 1 entries, non-decreasing, tri_start[mesh_count] <=
 * tri_count. Vertices: vx, vy, vz, vertex_count each (world units, finite).
 * reserved must be zero. */
typedef struct wk_meshes {
    const float *vx, *vy, *vz;
    uint32_t vertex_count;
    uint32_t mesh_count;
    const uint32_t *tris;
    uint32_t tri_count;
    uint32_t reserved32;
    const uint32_t *tri_start;
    uint64_t reserved[2];
} wk_meshes;
#define WK_MESHES_DEFAULTS {0, 0, 0, 0, 0, 0, 0, 0, 0, {0, 0}}

/* Bytes of workspace for wk_fracture_volumes with tri_count triangles in all
 * (72 per triangle + 16). Errors: WK_ERR_NULL, WK_ERR_OVERFLOW. */
WK_API wk_status wk_fracture_volumes_workspace_size(uint32_t tri_count, size_t *bytes);

/* Signed volume of each mesh: the sum over its triangles (a, b, c) of the
 * tetrahedron volume det(a - r, b - r, c - r) / 6, every product and sum in
 * double, triangles in order, where r is the centre of the mesh's vertex
 * bounds ((min + max) / 2 per axis, in double). Outward (counter-clockwise)
 * winding gives a positive volume. Taking r inside the bounds keeps the
 * terms small for a mesh far from the origin.
 *
 * volumes  mesh_count doubles (cubic world units).
 * masses   mesh_count doubles, density * volume, or NULL (not wanted). An
 *          inverted mesh gets a negative mass: never silently wrong.
 * flags    mesh_count bytes of WK_MESH_* bits, or NULL. Checking closedness
 *          sorts the mesh's directed edges (uses the workspace); with flags
 *          NULL nothing is checked.
 * density  mass per cubic world unit, finite.
 * workspace: wk_fracture_volumes_workspace_size(tri_count) bytes, any
 *          alignment (unused, may be NULL, when flags is NULL).
 *
 * Threads take whole meshes; results do not depend on the thread count.
 * Errors (outputs untouched): WK_ERR_NULL, WK_ERR_NOT_FINITE (density, or a
 * vertex of some mesh, named in the detail), WK_ERR_INVALID_ARG (a vertex
 * index >= vertex_count, tri_start decreasing or past tri_count, reserved
 * nonzero), WK_ERR_CAPACITY (workspace too small), WK_ERR_ALIAS (outputs
 * overlap each other or the workspace). */
WK_API wk_status wk_fracture_volumes(const wk_meshes *meshes, double density, void *workspace,
                                     size_t workspace_bytes, double *volumes, double *masses,
                                     uint8_t *flags, const wk_exec *exec);

/* --------------------------------------------------------- support graph */


/* The support graph: n fragments, their neighbour pairs (compact CSR
 * arrays) and which are anchors, plus the state of what is broken. */
typedef struct wk_fracture_graph wk_fracture_graph;

/* Builds a graph in *g from n fragments, npairs pairs (pairs[2k], pairs[2k+1]:
 * fragment ids < n, in any order, e.g. wk_fracture_adjacency's output) and
 * anchor flags (n bytes, nonzero = anchor; NULL = no anchors).
 * Self pairs (i, i) are ignored; a pair given twice (in either order) counts
 * once. Fragments not connected to any anchor at build are unsupported from
 * the start: not alive (wk_fracture_graph_alive), never reported by a break.
 * One allocation of about 38 bytes per fragment + 8 per pair, through alloc
 * (NULL: malloc/free; the hooks are copied). No allocation afterwards.
 * Errors (*g = NULL when g is not NULL): WK_ERR_NULL (g; pairs with
 * npairs > 0), WK_ERR_INVALID_ARG (an id >= n, the pair index named; hooks;
 * reserved), WK_ERR_OVERFLOW (n > WK_FRACTURE_MAX_FRAGMENTS or too many pairs),
 * WK_ERR_NO_MEMORY. */
WK_API wk_status wk_fracture_graph_create(uint32_t n, const uint32_t *pairs, size_t npairs,
                                          const uint8_t *anchor, const wk_allocator *alloc,
                                          wk_fracture_graph **g, const wk_exec *exec);

/* Frees the graph (NULL is a no-op). */
WK_API void wk_fracture_graph_destroy(wk_fracture_graph *g);

/* Breaks fragments ids[0..k) off: they are removed, and so is every
 * fragment that is no longer connected to an alive anchor through alive
 * fragments. *fallen gets those (not the broken ids themselves), ascending
 * by id, *fallen_count their number; the array lives in the graph and stays
 * valid until the next call that changes it (break, reset, destroy).
 * Ids already removed (broken earlier, fallen, unsupported at build) and
 * repeated ids are ignored, so breaking the same fragments again returns
 * nothing. Breaking an anchor removes it like any fragment.
 *
 * Method: the graph keeps a spanning forest of routes (each supported
 * fragment's parent towards an anchor, child lists, and depth ranks that
 * fall strictly along every route). A broken fragment's children first try
 * to hang, with their whole subtrees, on a neighbour whose rank is at most
 * the least rank broken (such a neighbour cannot route through a broken
 * fragment), which settles most breaks in a few neighbour checks. The
 * subtrees of the children that cannot (the orphans) are re-attached where
 * they touch a routed fragment (fewest ranks first) and grown breadth-first;
 * orphans not reached have fallen. Work: proportional to the orphans and
 * their neighbours, never a traversal of the whole graph (a break that
 * detaches half the structure costs in proportion to that half: a couple of
 * breadth-first traversals of it). The graph runs on the calling thread;
 * exec is checked (reserved, threads >= 0) but has no other effect.
 *
 * Errors (graph unchanged, outputs untouched): WK_ERR_NULL (g, fallen,
 * fallen_count, ids with k > 0), WK_ERR_INVALID_ARG (an id >= n, named). */
WK_API wk_status wk_fracture_graph_break(wk_fracture_graph *g, const uint32_t *ids, size_t k,
                                         const uint32_t **fallen, size_t *fallen_count,
                                         const wk_exec *exec);

/* Back to the state right after create (all supported fragments alive).
 * Errors: WK_ERR_NULL. */
WK_API wk_status wk_fracture_graph_reset(wk_fracture_graph *g);

/* Number of fragments and of neighbour pairs after dropping self and
 * repeated pairs (0 for NULL). */
WK_API uint32_t wk_fracture_graph_size(const wk_fracture_graph *g);
WK_API size_t wk_fracture_graph_pair_count(const wk_fracture_graph *g);

/* alive[i] = 1 when fragment i is alive (supported, not broken), else 0;
 * n bytes. Returns the number alive through *alive_count (may be NULL).
 * Errors: WK_ERR_NULL (g, alive). */
WK_API wk_status wk_fracture_graph_alive(const wk_fracture_graph *g, uint8_t *alive,
                                         uint32_t *alive_count);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_FRACTURE_H */
