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
 * Thread safety: any number of concurrent calls with distinct outputs. */
WK_API wk_status wk_msq_build(const wk_field2 *f, uint32_t x0, uint32_t y0, uint32_t cw, uint32_t ch,
                              float iso, float cell, uint32_t flags, wk_mesh2 *out, const wk_exec *exec);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_CONTOUR_H */
