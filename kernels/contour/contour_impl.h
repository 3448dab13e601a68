/* The contour family's internal contract: the per-ISA entry points and the
 * per-cell logic every path shares (contour.h gives the semantics).
 *
 * Cell slots are numbered in walk order: slot 2m is corner c[m], slot 2k+1
 * edge e[k] (e[k] joins c[k] and c[(k+1) & 3]). A cell's vertex indices are
 * idx[8], by slot. */
#ifndef WK_CONTOUR_IMPL_H
#define WK_CONTOUR_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "worldkern/contour.h"

/* One build: the rectangle, the parameters and the output buffers. Cell
 * (i, j) of the rectangle is field cell (x0 + i, y0 + j). */
typedef struct wk__msq_job {
    const float *v;   /* field node (x0, y0); NULL for a byte field */
    const uint8_t *v8; /* byte field node (x0, y0) (wk_msq_build_u8); else NULL */
    size_t stride;
    uint32_t x0, y0, cw, ch;
    float iso;
    double cell;
    uint32_t flags;
    float *x, *y;
    uint32_t *tri, *seg;
    /* Ends of the part being written (write_rows; ends_known 0: unknown):
     * every vertex, triangle and segment index from the part's base up to
     * these is written by the part, in order. So a whole-vector store that
     * reaches past a cell's own output, but not past these ends, is safe:
     * the lanes past the cell are written again with their values later.
     * With unknown ends (a one-pass build), write_rows finds them itself:
     * it counts the part's last rows until they hold WK__MSQ_REACH_* (more
     * than any whole-vector store reaches past the output so far); the
     * rows before those then have ends UINT32_MAX (whatever a store there
     * reaches past, the last rows write later), and those rows the exact
     * ends (where the first of them starts, plus their counts). */
    uint32_t vert_end, tri_end, seg_end;
    uint32_t ends_known;
} wk__msq_job;

/* Farthest any whole-vector store of write_rows reaches past the output
 * written so far (a run's tail block: 16 vertices, 96 indices = 32
 * triangles; a mixed cell: 4 vertices, 16 indices, 4 segment indices;
 * seg_row: 1 vertex past its row). */
enum { WK__MSQ_REACH_VERT = 16, WK__MSQ_REACH_TRI = 32, WK__MSQ_REACH_SEG = 2 };

typedef struct wk__msq_counts {
    uint64_t vert, tri, seg;
} wk__msq_counts;

/* Per-ISA entry points.
 * count_rows: adds to *c the vertices owned by, and the triangles and
 *   segments of, cell rows [j0, j1).
 * write_rows: writes cell rows [j0, j1): their owned vertices from index
 *   vbase, triangles from tbase, segments from sbase; *c gets the counts. */
typedef struct wk__contour_kernels {
    void (*count_rows)(const wk__msq_job *job, uint32_t j0, uint32_t j1, wk__msq_counts *c);
    void (*write_rows)(const wk__msq_job *job, uint32_t j0, uint32_t j1, uint32_t vbase, uint32_t tbase,
                       uint32_t sbase, wk__msq_counts *c);
} wk__contour_kernels;

/* wk_msq_build after wk__begin (contour.c); the chunked field calls it per
 * chunk with a one-thread call. */
struct wk__call;
wk_status wk__msq_build_run(const struct wk__call *call, const wk_field2 *f, uint32_t x0, uint32_t y0,
                            uint32_t cw, uint32_t ch, float iso, float cell, uint32_t flags, wk_mesh2 *out);

/* ----------------------------------------------------- shared cell logic */

#if defined(__GNUC__) || defined(__clang__)
#define WK__MSQ_INLINE static inline __attribute__((always_inline))
#else
#define WK__MSQ_INLINE static inline
#endif

/* Bits set in an 8-bit mask (no popcnt instruction is assumed). */
WK__MSQ_INLINE uint32_t wk__msq_popcount(unsigned x) {
    const uint64_t nibble = 0x4332322132212110ull; /* popcount of 0..15, 4 bits each */
    return (uint32_t)((nibble >> ((x & 15u) * 4)) & 15u) + (uint32_t)((nibble >> ((x >> 4 & 15u) * 4)) & 15u);
}

WK__MSQ_INLINE unsigned wk__msq_case(float v0, float v1, float v2, float v3, float iso) {
    return (unsigned)(v0 >= iso) | (unsigned)(v1 >= iso) << 1 | (unsigned)(v2 >= iso) << 2 |
           (unsigned)(v3 >= iso) << 3;
}

WK__MSQ_INLINE int wk__msq_is_saddle(unsigned cs) { return cs == 5 || cs == 10; }

WK__MSQ_INLINE int wk__msq_connected(float v0, float v1, float v2, float v3, float iso) {
    float mean = (((v0 + v1) + v2) + v3) * 0.25f;
    return mean >= iso;
}

/* Slots present in a cell of case cs: crossed edges, and solid corners when
 * tri (triangles wanted). Bit s = slot s. */
WK__MSQ_INLINE unsigned wk__msq_present(unsigned cs, int tri) {
    unsigned rot = ((cs >> 1) | (cs << 3)) & 15; /* bit k: corner k+1 */
    unsigned crossed = cs ^ rot;                 /* bit k: edge k crossed */
    unsigned m = 0;
    for (int k = 0; k < 4; k++) {
        if (tri && (cs >> k & 1)) m |= 1u << (2 * k);
        if (crossed >> k & 1) m |= 1u << (2 * k + 1);
    }
    return m;
}

/* Slots cell (i, j) owns (whether present or not). */
WK__MSQ_INLINE unsigned wk__msq_owned(int first_col, int first_row) {
    unsigned m = 0x38u; /* e1 c2 e2 */
    if (first_row) m |= 0x06u;                 /* e0 c1 */
    if (first_col) m |= 0xC0u;                 /* c3 e3 */
    if (first_col && first_row) m |= 0x01u;    /* c0 */
    return m;
}

/* The triangles of a cell as slot triples, counter-clockwise; returns the
 * count (0..4). */
static inline int wk__msq_triangles(unsigned cs, int connected, uint8_t t[4][3]) {
    int n = 0;
    if (wk__msq_is_saddle(cs) && !connected) {
        for (int m = 0; m < 4; m++) {
            if (!(cs >> m & 1)) continue;
            /* e[m-1], c[m], e[m] in walk order (from slot 0). */
            uint8_t a = (uint8_t)((2 * m + 7) & 7), b = (uint8_t)(2 * m), c = (uint8_t)(2 * m + 1);
            if (m == 0) {
                t[n][0] = b; t[n][1] = c; t[n][2] = a;
            } else {
                t[n][0] = a; t[n][1] = b; t[n][2] = c;
            }
            n++;
        }
        return n;
    }
    uint8_t poly[8];
    int np = 0;
    unsigned present = wk__msq_present(cs, 1);
    for (int s = 0; s < 8; s++)
        if (present >> s & 1) poly[np++] = (uint8_t)s;
    for (int k = 1; k + 1 < np && n < 4; k++) {
        t[n][0] = poly[0];
        t[n][1] = poly[k];
        t[n][2] = poly[k + 1];
        n++;
    }
    return n;
}

/* The segments of a cell as slot pairs (a -> b, solid on the right);
 * returns the count (0..2). */
static inline int wk__msq_segments(unsigned cs, int connected, uint8_t s[2][2]) {
    if (cs == 0 || cs == 15) return 0;
    if (wk__msq_is_saddle(cs)) {
        int n = 0;
        for (int m = 0; m < 4; m++) {
            int solid = (int)(cs >> m & 1);
            uint8_t before = (uint8_t)((2 * m + 7) & 7), after = (uint8_t)(2 * m + 1);
            if (connected && !solid) {
                s[n][0] = after;
                s[n][1] = before;
                n++;
            } else if (!connected && solid) {
                s[n][0] = before;
                s[n][1] = after;
                n++;
            }
        }
        return n;
    }
    int entry = -1, exit = -1;
    for (int k = 0; k < 4; k++) {
        int a = (int)(cs >> k & 1), b = (int)(cs >> ((k + 1) & 3) & 1);
        if (!a && b) entry = k;
        if (a && !b) exit = k;
    }
    s[0][0] = (uint8_t)(2 * entry + 1);
    s[0][1] = (uint8_t)(2 * exit + 1);
    return 1;
}

/* Generated from wk__msq_triangles / wk__msq_segments (config = case, or
 * 16 + (case == 10) for a connected saddle): count, then slots. */
static const uint8_t wk__msq_tri_table[18][13] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {2, 0, 2, 3, 0, 3, 7, 0, 0, 0, 0, 0, 0},
    {1, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {2, 0, 1, 7, 3, 4, 5, 0, 0, 0, 0, 0, 0},
    {2, 1, 2, 4, 1, 4, 5, 0, 0, 0, 0, 0, 0},
    {3, 0, 2, 4, 0, 4, 5, 0, 5, 7, 0, 0, 0},
    {1, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {2, 0, 1, 5, 0, 5, 6, 0, 0, 0, 0, 0, 0},
    {2, 1, 2, 3, 5, 6, 7, 0, 0, 0, 0, 0, 0},
    {3, 0, 2, 3, 0, 3, 5, 0, 5, 6, 0, 0, 0},
    {2, 3, 4, 6, 3, 6, 7, 0, 0, 0, 0, 0, 0},
    {3, 0, 1, 3, 0, 3, 4, 0, 4, 6, 0, 0, 0},
    {3, 1, 2, 4, 1, 4, 6, 1, 6, 7, 0, 0, 0},
    {2, 0, 2, 4, 0, 4, 6, 0, 0, 0, 0, 0, 0},
    {4, 0, 1, 3, 0, 3, 4, 0, 4, 5, 0, 5, 7},
    {4, 1, 2, 3, 1, 3, 5, 1, 5, 6, 1, 6, 7},
};
static const uint8_t wk__msq_seg_table[18][5] = {
    {0, 0, 0, 0, 0},
    {1, 7, 1, 0, 0},
    {1, 1, 3, 0, 0},
    {1, 7, 3, 0, 0},
    {1, 3, 5, 0, 0},
    {2, 7, 1, 3, 5},
    {1, 1, 5, 0, 0},
    {1, 7, 5, 0, 0},
    {1, 5, 7, 0, 0},
    {1, 5, 1, 0, 0},
    {2, 1, 3, 5, 7},
    {1, 5, 3, 0, 0},
    {1, 3, 7, 0, 0},
    {1, 3, 1, 0, 0},
    {1, 1, 7, 0, 0},
    {0, 0, 0, 0, 0},
    {2, 3, 1, 7, 5},
    {2, 1, 7, 5, 3},
};

WK__MSQ_INLINE int wk__msq_ntri(unsigned cs, int connected) {
    if (wk__msq_is_saddle(cs)) return connected ? 4 : 2;
    int n = (int)wk__msq_popcount(wk__msq_present(cs, 1));
    return n >= 3 ? n - 2 : 0;
}

WK__MSQ_INLINE int wk__msq_nseg(unsigned cs) {
    return cs == 0 || cs == 15 ? 0 : wk__msq_is_saddle(cs) ? 2 : 1;
}

/* t along the edge from a (lower coordinate) to b. */
WK__MSQ_INLINE float wk__msq_t(float va, float vb, float iso) {
    if (va == vb) return 0.5f;
    float t = (iso - va) / (vb - va);
    if (t != t) return 0.5f;
    return t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
}

/* The position of slot s of field cell (gx, gy) with corner values v[4]. */
WK__MSQ_INLINE void wk__msq_position(int s, uint32_t gx, uint32_t gy, const float v[4], float iso,
                                     double cell, float *px, float *py) {
    double x = (double)gx, y = (double)gy;
    switch (s) {
    case 0: break;
    case 2: x += 1.0; break;
    case 4: x += 1.0; y += 1.0; break;
    case 6: y += 1.0; break;
    case 1: x += (double)wk__msq_t(v[0], v[1], iso); break;
    case 3: x += 1.0; y += (double)wk__msq_t(v[1], v[2], iso); break;
    case 5: y += 1.0; x += (double)wk__msq_t(v[3], v[2], iso); break;
    default: y += (double)wk__msq_t(v[0], v[3], iso); break;
    }
    *px = (float)(x * cell);
    *py = (float)(y * cell);
}

/* Vertices owned by cell (i, j) of case cs. */
WK__MSQ_INLINE uint32_t wk__msq_owned_count(unsigned cs, int tri, uint32_t i, uint32_t j) {
    return wk__msq_popcount(wk__msq_present(cs, tri) & wk__msq_owned(i == 0, j == 0));
}

/* Row-walk state: the last written cell of the row (left neighbour) and the
 * cursor over the row below. */
typedef struct wk__msq_row {
    uint32_t cur;                    /* next owned vertex index, this row */
    uint32_t below;                  /* next owned vertex index, row below */
    uint32_t left_c1, left_c2, left_e1;
    uint32_t below_c2, below_e2, below_c3, prev_below_c2;
    uint32_t tri, seg;               /* next triangle / segment */
} wk__msq_row;

/* Steps the below cursor over cell (i, j - 1) (j > 0) of case bcs. */
WK__MSQ_INLINE void wk__msq_below_step(wk__msq_row *r, unsigned bcs, int tri, uint32_t i, uint32_t j) {
    unsigned own = wk__msq_present(bcs, tri) & wk__msq_owned(i == 0, j - 1 == 0);
    r->below_c2 = r->below + wk__msq_popcount(own & 0x0Fu);
    r->below_e2 = r->below + wk__msq_popcount(own & 0x1Fu);
    r->below_c3 = i == 0 ? r->below + wk__msq_popcount(own & 0x3Fu) : r->prev_below_c2;
    r->prev_below_c2 = r->below_c2;
    r->below += wk__msq_popcount(own);
}

/* Writes cell (i, j) of case cs (corner values v[4]): its owned vertices,
 * triangles and segments. For j > 0 the below cursor must have stepped over
 * cell (i, j - 1) (wk__msq_below_step). */
static inline void wk__msq_cell(const wk__msq_job *job, wk__msq_row *r, unsigned cs, const float v[4],
                                uint32_t i, uint32_t j) {
    int tri = (job->flags & WK_MSQ_TRIANGLES) != 0, seg = (job->flags & WK_MSQ_SEGMENTS) != 0;
    uint32_t gx = job->x0 + i, gy = job->y0 + j;
    unsigned present = wk__msq_present(cs, tri);
    unsigned own = present & wk__msq_owned(i == 0, j == 0);
    uint32_t idx[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint32_t base = r->cur;
    for (int s = 0; s < 8; s++) {
        if (!(own >> s & 1)) continue;
        idx[s] = base + wk__msq_popcount(own & ((1u << s) - 1));
        wk__msq_position(s, gx, gy, v, job->iso, job->cell, &job->x[idx[s]], &job->y[idx[s]]);
    }
    r->cur = base + wk__msq_popcount(own);
    if (j > 0) {
        idx[0] = r->below_c3;
        idx[1] = r->below_e2;
        idx[2] = r->below_c2;
    } else if (i > 0) {
        idx[0] = r->left_c1;
    }
    if (i > 0) {
        idx[6] = r->left_c2;
        idx[7] = r->left_e1;
    }
    r->left_c1 = idx[2];
    r->left_c2 = idx[4];
    r->left_e1 = idx[3];
    if (cs == 0) return;
    int connected = wk__msq_is_saddle(cs) ? wk__msq_connected(v[0], v[1], v[2], v[3], job->iso) : 0;
    if (tri) {
        uint8_t t[4][3];
        int n = wk__msq_triangles(cs, connected, t);
        int cw = (job->flags & WK_MSQ_CLOCKWISE) != 0;
        for (int k = 0; k < n; k++) {
            uint32_t *o = job->tri + 3 * (size_t)r->tri++;
            o[0] = idx[t[k][0]];
            o[1] = idx[t[k][cw ? 2 : 1]];
            o[2] = idx[t[k][cw ? 1 : 2]];
        }
    }
    if (seg) {
        uint8_t sg[2][2];
        int n = wk__msq_segments(cs, connected, sg);
        for (int k = 0; k < n; k++) {
            uint32_t *o = job->seg + 2 * (size_t)r->seg++;
            o[0] = idx[sg[k][0]];
            o[1] = idx[sg[k][1]];
        }
    }
}

/* Corner values of cell (i, j): c0 c1 c2 c3. */
WK__MSQ_INLINE void wk__msq_values(const wk__msq_job *job, uint32_t i, uint32_t j, float v[4]) {
    if (job->v8) {
        const uint8_t *lo = job->v8 + (size_t)j * job->stride + i, *hi = lo + job->stride;
        v[0] = (float)lo[0];
        v[1] = (float)lo[1];
        v[2] = (float)hi[1];
        v[3] = (float)hi[0];
        return;
    }
    const float *lo = job->v + (size_t)j * job->stride + i, *hi = lo + job->stride;
    v[0] = lo[0];
    v[1] = lo[1];
    v[2] = hi[1];
    v[3] = hi[0];
}

#endif /* WK_CONTOUR_IMPL_H */
