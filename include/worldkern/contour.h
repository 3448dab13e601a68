/* worldkern contour family: per-chunk marching squares over a 2D density
 * field, for 2D games with destructible terrain: a welded filled mesh for
 * rendering, welded contour segments with the solid side on the right,
 * polylines for edge colliders (chains), their simplification, and the
 * dig/fill brush that edits the field.
 *
 * Semantics (the scalar reference, exactly; every ISA returns the same bits):
 *  - Field (grid.h wk_field2): w x h nodes, node (x, y) = v[y * stride + x],
 *    sitting at world position (x * cell, y * cell), y up. x, y are the
 *    field's own node indices ("global" coordinates): two calls over
 *    different cell rectangles of one field give bit-identical positions on
 *    the nodes and edges they share.
 *  - A node is solid iff v >= iso. NaN values are never solid (empty).
 *  - Cell (x, y) has corners c0 (x,y) bit 1, c1 (x+1,y) bit 2,
 *    c2 (x+1,y+1) bit 4, c3 (x,y+1) bit 8; its case is the sum of the bits
 *    of its solid corners. Edges e0 bottom (c0-c1), e1 right (c1-c2), e2 top
 *    (c2-c3), e3 left (c3-c0). An edge is crossed iff its ends differ.
 *  - Edge point: with a the lower-coordinate node of the edge and b the
 *    higher one (never the other way), t = (iso - va) / (vb - va) in float;
 *    t = 0.5 when va == vb or when t is NaN (a NaN or infinite end); then
 *    clamped to [0, 1]. A horizontal edge from node (x, y) gives the point
 *    ((float)((x + t) * cell), (float)(y * cell)), a vertical one
 *    ((float)(x * cell), (float)((y + t) * cell)), the products in double.
 *    A solid node gives ((float)(x * cell), (float)(y * cell)).
 *  - Saddles (cases 5 and 10) are connected iff the mean of the four corner
 *    values, ((v0 + v1) + v2) + v3) * 0.25f in float, is >= iso (a NaN
 *    corner: not connected). The same decision drives mesh and contour.
 *  - Fill: walking c0 e0 c1 e1 c2 e2 c3 e3 and keeping solid corners and
 *    crossed edges gives the cell's solid polygon (convex), triangulated as
 *    a fan from its first vertex: (p0, p1, p2), (p0, p2, p3), ...
 *    A separated saddle gives one triangle per solid corner m, its vertices
 *    (e[m-1], c[m], e[m]) in the walk order above (corner 0 first).
 *    Counter-clockwise in y-up space; WK_MSQ_CLOCKWISE swaps the last two
 *    indices of every triangle (Unity's front faces are clockwise).
 *  - Segments: one per crossed cell, oriented so that the solid side is on
 *    the right of a -> b (so the contour around a solid blob runs
 *    clockwise). A saddle gives two, in the order of the corner each one
 *    cuts off: separated, around each solid corner m, e[m-1] -> e[m];
 *    connected, around each empty corner m, e[m] -> e[m-1]. The winding
 *    flag does not change segments.
 *  - Welding: one vertex per solid node (triangles only) and one per crossed
 *    edge of the rectangle, shared by every cell that touches it.
 *  - Order (deterministic, independent of ISA and threads): cells row-major
 *    (y, then x). Each cell owns the vertices no earlier cell touches: c2,
 *    e1, e2 always; c1 and e0 in the first row; c3 and e3 in the first
 *    column; c0 in the first cell. It appends the ones it owns in the walk
 *    order c0 e0 c1 e1 c2 e2 c3 e3 (present ones only), then its triangles,
 *    then its segments.
 */
#ifndef WORLDKERN_CONTOUR_H
#define WORLDKERN_CONTOUR_H

#include "grid.h"
#include "wk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A welded 2D mesh in caller-owned buffers.
 * x, y:  vert_cap floats each (vertex positions, world units).
 * tri:   3 * tri_cap indices (3 per triangle); may be NULL when tri_cap is 0.
 * seg:   2 * seg_cap indices (2 per segment, solid on the right).
 * nvert, ntri, nseg are written by the call (the counts it produced, or on
 * WK_ERR_CAPACITY the counts it needs). reserved must be zero. */
typedef struct wk_mesh2 {
    float *x, *y;
    uint32_t vert_cap, nvert;
    uint32_t *tri;
    uint32_t tri_cap, ntri;
    uint32_t *seg;
    uint32_t seg_cap, nseg;
    uint64_t reserved[4];
} wk_mesh2;
#define WK_MESH2_DEFAULTS {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0, 0, 0, 0}}

/* Build flags: at least one of TRIANGLES and SEGMENTS. */
enum { WK_MSQ_TRIANGLES = 1, WK_MSQ_SEGMENTS = 2, WK_MSQ_CLOCKWISE = 4 };

/* Capacities that are always enough for wk_msq_build over cw x ch cells
 * with these flags: vertices (cw+1)(ch+1) + cw(ch+1) + (cw+1)ch (nodes only
 * with TRIANGLES), 4 triangles per cell (0 without TRIANGLES), 2 segments
 * per cell (0 without SEGMENTS). Any output pointer may be NULL.
 * Errors: WK_ERR_INVALID_ARG (cw or ch is 0, unknown flags, neither
 * TRIANGLES nor SEGMENTS), WK_ERR_OVERFLOW (a bound exceeds UINT32_MAX;
 * the outputs are then set to UINT32_MAX). */
WK_API wk_status wk_msq_bound(uint32_t cw, uint32_t ch, uint32_t flags, uint32_t *vert_cap,
                              uint32_t *tri_cap, uint32_t *seg_cap);

/* Marching squares over cells [x0, x0+cw) x [y0, y0+ch) of field f (the
 * nodes [x0, x0+cw] x [y0, y0+ch]), writing out (see the semantics above).
 * iso: finite, in the field's units. cell: world units per cell; finite,
 * > 0. flags: WK_MSQ_*.
 * Buffers: out->x, out->y need vert_cap floats; out->tri 3 * tri_cap
 * indices when TRIANGLES (else ignored, ntri = 0); out->seg 2 * seg_cap
 * when SEGMENTS (else ignored, nseg = 0). wk_msq_bound gives capacities that
 * always suffice. Buffers must not overlap each other nor the field.
 * Errors (out untouched unless said):
 *   WK_ERR_NULL         f, f->v, out, or a buffer the flags need is NULL
 *   WK_ERR_INVALID_ARG  cw or ch is 0, x0 + cw > w - 1, y0 + ch > h - 1,
 *                       cell <= 0, unknown flags or none of TRIANGLES and
 *                       SEGMENTS, nonzero reserved space (f, out, exec)
 *   WK_ERR_NOT_FINITE   iso or cell is NaN or infinite
 *   WK_ERR_STRIDE       f->stride < f->w
 *   WK_ERR_OVERFLOW     the field's extent overflows, or a needed count
 *                       exceeds UINT32_MAX
 *   WK_ERR_ALIAS        buffers overlap each other or the field
 *   WK_ERR_CAPACITY     a capacity is too small: out->nvert, out->ntri and
 *                       out->nseg are set to the counts needed (the rest of
 *                       out and every buffer are untouched); call again
 *                       with at least those capacities.
 * Thread safety: any number of concurrent calls with distinct outputs.
 * Cost: with wk_msq_bound capacities and one thread the build is one pass;
 * otherwise a count pass (bit operations only) runs first. Each calling or
 * worker thread needs about 62 KB of stack (no heap is used). */
WK_API wk_status wk_msq_build(const wk_field2 *f, uint32_t x0, uint32_t y0, uint32_t cw, uint32_t ch,
                              float iso, float cell, uint32_t flags, wk_mesh2 *out, const wk_exec *exec);

/* wk_msq_build over a byte density field (a quarter of the memory traffic):
 * node (x, y) = v[y * stride + x], w x h nodes, stride >= w bytes; solid iff
 * v >= iso. The output is bit for bit that of wk_msq_build on the float
 * field (float)v with iso (float)iso (t, saddle means and positions are
 * computed in float from the byte values). Errors as wk_msq_build (v NULL:
 * WK_ERR_NULL; w or h < 2: WK_ERR_INVALID_ARG; stride < w: WK_ERR_STRIDE). */
WK_API wk_status wk_msq_build_u8(const uint8_t *v, uint32_t w, uint32_t h, size_t stride, uint32_t x0, uint32_t y0,
                                 uint32_t cw, uint32_t ch, uint8_t iso, float cell, uint32_t flags, wk_mesh2 *out,
                                 const wk_exec *exec);

/* ----------------------------------------------------------------- chains */

/* Polylines made of segments (a chain is a list of vertex indices).
 * idx:    idx_cap entries: the chains' vertex indices, concatenated.
 * start:  chain_cap + 1 entries: chain k is idx[start[k] .. start[k+1]).
 * closed: chain_cap entries: 1 when chain k is a closed loop (its last
 *         vertex joins its first; the first is not repeated), else 0.
 * nidx, nchain are written by the call. reserved must be zero. */
typedef struct wk_chains {
    uint32_t *idx;
    uint32_t idx_cap, nidx;
    uint32_t *start;
    uint8_t *closed;
    uint32_t chain_cap, nchain;
    uint64_t reserved[4];
} wk_chains;
#define WK_CHAINS_DEFAULTS {0, 0, 0, 0, 0, 0, 0, {0, 0, 0, 0}}

/* uint32 words of scratch wk_msq_chains needs: 2 * nvert + 1 + nseg +
 * 2 * ((nseg + 31) / 32). */
WK_API size_t wk_msq_chains_work(uint32_t nvert, uint32_t nseg);

/* Joins the segments of m (m->seg, m->nseg; indices < m->nvert; positions
 * are not read) into chains, following each segment a -> b to a segment
 * that starts at b. Every segment is used exactly once.
 * Order: first the open chains, each from a segment whose start vertex no
 * segment ends at, taken in segment order; then, from the first unused
 * segment in order, the rest: a chain that comes back to its first vertex
 * is closed. At a vertex with several unused outgoing segments (never in
 * marching squares output) the first in segment order is taken.
 * Marching squares output gives one chain per contour: closed loops for a
 * field whose border ring is empty, open chains where a contour leaves the
 * rectangle (a chunk border).
 * Capacities that always suffice: idx_cap >= 2 * nseg, chain_cap >= nseg.
 * work: wk_msq_chains_work(m->nvert, m->nseg) words (may be NULL when that
 * is 0).
 * Errors: WK_ERR_NULL, WK_ERR_INVALID_ARG (a segment index >= nvert,
 * nonzero reserved), WK_ERR_ALIAS (outputs overlapping each other, the
 * work or m->seg), WK_ERR_CAPACITY (out->nidx and out->nchain set to the
 * counts needed, buffers untouched; work may have been written). */
WK_API wk_status wk_msq_chains(const wk_mesh2 *m, wk_chains *out, uint32_t *work, size_t work_len,
                               const wk_exec *exec);

/* ----------------------------------------------------------- simplify */

enum { WK_SIMPLIFY_GREEDY = 0, WK_SIMPLIFY_RDP = 1 };

/* Simplifies one chain (n vertex indices into x, y of nvert vertices).
 * The distance of a point p to the line through a and b is
 * |cross(b - a, p - a)| / |b - a| (|p - a| when a == b), in double.
 * GREEDY (one pass, the rule game code uses): walking the chain, a point is
 * dropped when its distance to the line from the last kept point to the
 * next point is <= tolerance.
 * RDP (Ramer-Douglas-Peucker): between two kept points, the farthest point
 * (first on ties) is kept when its distance to their line is > tolerance,
 * recursively.
 * Endpoints of an open chain stay. A closed chain (closed != 0) stays
 * closed: its first point stays, and the chain is treated as running back
 * to it (RDP first keeps the point farthest from it); if fewer than 3
 * points would remain of a loop of n >= 3, the points at 0, n/3 and 2n/3
 * are returned.
 * out: room for n indices; *nout gets the count kept (vertex indices, in
 * chain order). tolerance: finite, >= 0 (world units).
 * Errors: WK_ERR_NULL, WK_ERR_NOT_FINITE (tolerance), WK_ERR_INVALID_ARG
 * (tolerance < 0, unknown method, an index >= nvert), WK_ERR_CAPACITY
 * (out_cap < n; *nout = n), WK_ERR_ALIAS (out overlapping chain, x or y). */
WK_API wk_status wk_msq_simplify(const float *x, const float *y, uint32_t nvert, const uint32_t *chain,
                                 uint32_t n, uint32_t closed, float tolerance, uint32_t method,
                                 uint32_t *out, uint32_t out_cap, uint32_t *nout, const wk_exec *exec);

/* -------------------------------------------------------------- brush */

/* Brush modes and flags. */
enum { WK_BRUSH_DIG = 0, WK_BRUSH_FILL = 1, WK_BRUSH_EDIT_BORDER = 2 };

/* Digs or fills a disc of the density field v (w x h nodes, stride >= w;
 * densities where 0.5 is the usual iso: 1 solid, 0 empty).
 * Node (x, y) sits at (x * cell, y * cell). For each node whose distance d
 * (double) to (cx, cy) is <= radius + 2 * cell:
 *     b = clamp01((d - radius) / cell * 0.5 + 0.5)   (double, then float)
 *     DIG:  v = min(v, b)       FILL: v = max(v, 1 - b)
 * (a NaN node takes the brush value). The outer ring of nodes (x = 0,
 * y = 0, x = w - 1, y = h - 1) is left as it is unless flags has
 * WK_BRUSH_EDIT_BORDER.
 * touched: the node rectangle the brush may have changed, half-open
 * {x0, y0, x1, y1}; empty (all 0) when it misses the field. Feed it to
 * wk_msq_chunks_mark.
 * cx, cy, radius, cell: world units; finite; radius >= 0; cell > 0.
 * Errors: WK_ERR_NULL, WK_ERR_NOT_FINITE, WK_ERR_INVALID_ARG (radius < 0,
 * cell <= 0, unknown flags, w or h 0), WK_ERR_STRIDE, WK_ERR_OVERFLOW. */
WK_API wk_status wk_msq_brush(float *v, uint32_t w, uint32_t h, size_t stride, float cx, float cy, float radius,
                              float cell, uint32_t flags, uint32_t touched[4], const wk_exec *exec);

/* ------------------------------------------------------- chunked field */

/* A chunked field: one shared density field of w x h nodes (the caller's,
 * passed to each rebuild) cut into chunks of chunk x chunk cells (the last
 * row and column of chunks may be smaller); nodes on a chunk border are
 * shared. Each chunk keeps the mesh wk_msq_build gives for its cell
 * rectangle (bit-identical), in buffers the object owns and grows.
 * The object is the caller-held workspace: once its buffers have grown to
 * what the edits need, rebuilds allocate nothing. */
typedef struct wk_msq_chunks wk_msq_chunks;

typedef struct wk_msq_chunks_desc {
    uint32_t w, h;     /* field nodes; >= 2 each */
    uint32_t chunk;    /* cells per chunk side; 1..65536 */
    uint32_t flags;    /* WK_MSQ_* as for wk_msq_build */
    float iso, cell;   /* as for wk_msq_build */
    /* Allocator hooks (wk.h; zero: malloc/free); called only from create,
     * destroy and rebuild, on the calling thread. */
    wk_allocator alloc;
    uint64_t reserved[4];
} wk_msq_chunks_desc;
#define WK_MSQ_CHUNKS_DESC_DEFAULTS \
    {0, 0, 32, WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS, 0.5f, 1.0f, WK_ALLOCATOR_DEFAULTS, {0, 0, 0, 0}}

/* Creates the object with every chunk dirty. Errors: WK_ERR_NULL,
 * WK_ERR_INVALID_ARG (sizes, flags, cell, reserved, one hook without the
 * other), WK_ERR_NOT_FINITE, WK_ERR_NO_MEMORY (*out = NULL). */
WK_API wk_status wk_msq_chunks_create(const wk_msq_chunks_desc *d, wk_msq_chunks **out);
/* Frees the object and every chunk's buffers; NULL is a no-op. */
WK_API void wk_msq_chunks_destroy(wk_msq_chunks *c);
/* Chunks across and down. */
WK_API wk_status wk_msq_chunks_grid(const wk_msq_chunks *c, uint32_t *nx, uint32_t *ny);
/* Marks dirty every chunk with a cell that has a corner in the node
 * rectangle rect = {x0, y0, x1, y1} (half-open; clipped to the field; an
 * empty rectangle marks nothing). A node on a chunk border dirties every
 * chunk it touches. */
WK_API wk_status wk_msq_chunks_mark(wk_msq_chunks *c, const uint32_t rect[4]);
/* Number of dirty chunks, and whether chunk (cx, cy) is dirty. */
WK_API wk_status wk_msq_chunks_dirty(const wk_msq_chunks *c, uint32_t cx, uint32_t cy, uint32_t *dirty,
                                     uint32_t *ndirty);
/* Rebuilds every dirty chunk from f (w x h as created), the chunks in
 * parallel (exec); *rebuilt (may be NULL) gets how many. Allocates only
 * when a chunk's mesh outgrows its buffers. On an error, chunks not
 * rebuilt stay dirty. Errors: those of wk_msq_build for f,
 * WK_ERR_INVALID_ARG (f's size differs), WK_ERR_NO_MEMORY. */
WK_API wk_status wk_msq_chunks_rebuild(wk_msq_chunks *c, const wk_field2 *f, uint32_t *rebuilt,
                                       const wk_exec *exec);
/* A read-only view of chunk (cx, cy)'s mesh (its cells start at
 * (cx * chunk, cy * chunk)); valid until the next rebuild or destroy. A
 * dirty chunk's view is its last build (empty before the first). */
WK_API wk_status wk_msq_chunks_mesh(const wk_msq_chunks *c, uint32_t cx, uint32_t cy, wk_mesh2 *view);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_CONTOUR_H */
