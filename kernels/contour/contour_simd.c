/* The contour family's SIMD path, one source compiled once per ISA.
 *
 * Classification is vectorized: each node row of a strip of cells becomes a
 * bit mask (bit i: node solid, v >= iso, NaN empty), one compare per vector
 * of nodes, each node row classified once while the rows roll upwards.
 * Whole-word bit operations then give, per 64 cells, the crossed edges, the
 * cells that need work (any solid corner when triangles are wanted, else
 * mixed cells) and the counts (popcounts: the count pass touches no cell
 * one by one except separated saddles). Only the cells that need work go
 * through the per-cell code, table-driven, in the same row-major order as
 * the reference, so the output is the same bits. */
#include "core/wk_fp_guard.h"

#include <string.h>

#include "contour_impl.h"
#include "wk_simd.h"

#if defined(__GNUC__) || defined(__clang__)
#define WK_RESTRICT __restrict__
#else
#define WK_RESTRICT
#endif

/* Cells per strip: rows wider than this are classified a strip at a time
 * (each node row then three times). */
enum { STRIP = 4096, WORDS = STRIP / 64 + 2 };
/* One-strip column handover (write_rows): cols[i] holds the e2 index of
 * the last cell written in column i, cols[C2OFF + i] its c2 index
 * (triangles) or, segments only, the row's cell list. */
enum { C2OFF = STRIP + 8 };

WK_INLINE uint64_t pop64(uint64_t x) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__aarch64__))
    return (uint64_t)__builtin_popcountll(x); /* one instruction (x86 builds: -mpopcnt; AArch64: cnt) */
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (x * 0x0101010101010101ull) >> 56;
#endif
}

WK_INLINE unsigned ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned n = 0;
    while (!(x & 1)) x >>= 1, n++;
    return n;
#endif
}

/* The solid mask of the 64 nodes at q. */
WK_INLINE uint64_t classify_word(const float *q, const wk_vf viso) {
#if defined(WK_SIMD_AVX512)
    /* the four compare masks joined in mask registers, one kmov out */
    __mmask32 m01 = _mm512_kunpackw((__mmask32)wk_vf_ge(wk_vf_loadu(q + 16), viso),
                                    (__mmask32)wk_vf_ge(wk_vf_loadu(q), viso));
    __mmask32 m23 = _mm512_kunpackw((__mmask32)wk_vf_ge(wk_vf_loadu(q + 48), viso),
                                    (__mmask32)wk_vf_ge(wk_vf_loadu(q + 32), viso));
    return (uint64_t)_mm512_kunpackd((__mmask64)m23, (__mmask64)m01);
#else
    uint64_t b = 0;
    for (size_t k = 0; k < 64; k += WK_W) b |= (uint64_t)wk_vm_bits(wk_vf_ge(wk_vf_loadu(q + k), viso)) << k;
    return b;
#endif
}

/* bits[0] = the solid mask of the rem (< 64) nodes at p (partial loads),
 * bits[1] = 0. */
WK_INLINE void classify_tail(const float *p, size_t rem, const wk_vf viso, uint64_t *bits) {
    uint64_t b = 0;
    for (size_t k = 0; k < rem; k += WK_W) {
        size_t m = rem - k < WK_W ? rem - k : WK_W;
        uint64_t x = wk_vm_bits(wk_vf_ge(wk_vf_load_n(p + k, m), viso));
        if (m < WK_W) x &= ((uint64_t)1 << m) - 1;
        b |= x << k;
    }
    bits[0] = b;
    bits[1] = 0;
}

/* bits[] = solid mask of n nodes at p (words past n cleared). Each word is
 * put together in a register (64 / WK_W compares) and stored once. */
static void classify(const float *p, size_t n, float iso, uint64_t *bits) {
    const wk_vf viso = wk_vf_set1(iso);
    size_t full = n / 64;
    for (size_t w = 0; w < full; w++) bits[w] = classify_word(p + w * 64, viso);
    /* the last n % 64 nodes through the same compares (partial loads) */
    classify_tail(p + full * 64, n - full * 64, viso, bits + full);
}

/* Byte fields: one unsigned byte compare per WK_W8 nodes. */
static void classify_u8(const uint8_t *p, size_t n, uint8_t iso, uint64_t *bits) {
    size_t words = n / 64 + 2;
    for (size_t w = 0; w < words; w++) bits[w] = 0;
    size_t i = 0;
    /* full byte vectors (WK_W8 divides 64), then the tail through a copy */
    for (; i + WK_W8 <= n; i += WK_W8) bits[i / 64] |= wk_u8_ge_bits(p + i, iso) << (i % 64);
    if (i < n) {
        uint8_t tail[WK_W8];
        memset(tail, 0, sizeof tail);
        memcpy(tail, p + i, n - i);
        uint64_t b = wk_u8_ge_bits(tail, iso) & ((((uint64_t)1) << (n - i)) - 1);
        bits[i / 64] |= b << (i % 64);
    }
}

/* Solid mask of node row r, nodes s0 .. s0 + n - 1 of the rectangle. */
static void classify_row(const wk__msq_job *job, uint32_t r, uint32_t s0, size_t n, uint64_t *bits) {
    if (job->v8) classify_u8(job->v8 + (size_t)r * job->stride + s0, n, (uint8_t)job->iso, bits);
    else classify(job->v + (size_t)r * job->stride + s0, n, job->iso, bits);
}

WK_INLINE uint64_t shr1(const uint64_t *b, size_t w) { return (b[w] >> 1) | (b[w + 1] << 63); }

WK_INLINE unsigned bit_at(const uint64_t *b, size_t i) { return (unsigned)(b[i / 64] >> (i % 64)) & 1u; }

/* Case of cell i from the masks of its lower and upper node rows. */
WK_INLINE unsigned case_of(const uint64_t *lo, const uint64_t *hi, size_t i) {
    return bit_at(lo, i) | bit_at(lo, i + 1) << 1 | bit_at(hi, i + 1) << 2 | bit_at(hi, i) << 3;
}

/* Per-word masks of 64 cells (bit b: cell w * 64 + b of the strip). */
typedef struct cell_words {
    uint64_t l, l1, u, u1; /* corners c0, c1, c3, c2 solid */
    uint64_t valid;
} cell_words;

WK_INLINE cell_words words_at(const uint64_t *lo, const uint64_t *hi, size_t w, size_t n) {
    cell_words c;
    c.l = lo[w];
    c.l1 = shr1(lo, w);
    c.u = hi[w];
    c.u1 = shr1(hi, w);
    size_t first = w * 64;
    c.valid = n - first >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << (n - first)) - 1);
    return c;
}

WK_INLINE uint64_t active_of(const cell_words *c, int tri) {
    uint64_t any = c->l | c->l1 | c->u | c->u1;
    uint64_t all = c->l & c->l1 & c->u & c->u1;
    /* all is inside any: any ^ all == any & ~all, without a NOT that gcc
     * may route through AVX-512 mask registers (kandn + two kmov) */
    return (tri ? any : any ^ all) & c->valid;
}

/* Rolling node-row masks of one strip. */
typedef struct strip_rows {
    uint64_t buf[3][WORDS];
    uint64_t *row[3];  /* node rows r0, r0 + 1, r0 + 2 */
    uint32_t r0;       /* UINT32_MAX: none */
} strip_rows;

/* Makes row[0..2] hold node rows r, r+1, r+2 (those that exist up to
 * `last`) of the strip [s0, s0 + n] nodes. */
static void rows_at(const wk__msq_job *job, strip_rows *sr, uint32_t r, uint32_t last, uint32_t s0, size_t n,
                    int keep) {
    if (keep && sr->r0 != UINT32_MAX && r == sr->r0 + 1) {
        uint64_t *t = sr->row[0];
        sr->row[0] = sr->row[1];
        sr->row[1] = sr->row[2];
        sr->row[2] = t;
        if (r + 2 <= last) classify_row(job, r + 2, s0, n + 1, sr->row[2]);
    } else if (!keep || sr->r0 != r) {
        for (int k = 0; k < 3; k++)
            if (r + (uint32_t)k <= last)
                classify_row(job, r + (uint32_t)k, s0, n + 1, sr->row[k]);
    }
    sr->r0 = r;
}

static void rows_init(strip_rows *sr) {
    for (int k = 0; k < 3; k++) sr->row[k] = sr->buf[k];
    sr->r0 = UINT32_MAX;
}

/* Counts of cell word w of cell row j of a strip (masks lo, hi; n cells);
 * T (triangles) and S (segments) are constants at each call site, so that
 * a build without triangles computes none of their bit counts. */
WK_INLINE void count_word(const wk__msq_job *job, const uint64_t *lo, const uint64_t *hi, size_t n, size_t w,
                          uint32_t j, uint32_t s0, const int T, const int S, uint64_t *vert_, uint64_t *tri_,
                          uint64_t *seg_) {
    uint64_t vert = 0, tri = 0, seg = 0;
    cell_words cw = words_at(lo, hi, w, n);
    uint64_t v = cw.valid;
    uint64_t h_lo = (cw.l ^ cw.l1) & v, h_hi = (cw.u ^ cw.u1) & v;
    uint64_t v_l = (cw.l ^ cw.u) & v, v_r = (cw.l1 ^ cw.u1) & v;
    /* c0 == c2, c1 == c3, c0 != c1: written without a NOT (see active_of) */
    uint64_t saddle = (cw.l ^ cw.l1) & (cw.l ^ cw.u) & (cw.l1 ^ cw.u1) & v;
    vert += pop64(v_r) + pop64(h_hi);
    if (T) vert += pop64(cw.u1 & v);
    if (j == 0) vert += pop64(h_lo) + (T ? pop64(cw.l1 & v) : 0);
    if (s0 == 0 && w == 0) vert += (v_l & 1) + (T ? (cw.u & 1) + (j == 0 ? (cw.l & 1) : 0) : 0);
    if (S) seg += pop64(h_lo | h_hi | v_l | v_r) + pop64(saddle);
    if (T) {
        uint64_t sep = 0;
        for (uint64_t sd = saddle; sd; sd &= sd - 1) {
            float fv[4];
            wk__msq_values(job, (uint32_t)(s0 + w * 64 + ctz64(sd)), j, fv);
            sep += !wk__msq_connected(fv[0], fv[1], fv[2], fv[3], job->iso);
        }
        /* A nonempty cell has (solid corners + crossed edges - 2)
         * triangles, a separated saddle two fewer. Per cell, with L / R =
         * its left / right column has a solid node: c0 + c3 + e3 = 2 L,
         * c1 + c2 + e1 = 2 R, and nonempty = L | R, so the sum is
         * 2 (L & R) + e0 + e2 (three bit counts instead of ten) */
        tri += 2 * pop64((cw.l | cw.u) & (cw.l1 | cw.u1) & v) + pop64(h_lo) + pop64(h_hi) - 2 * sep;
    }
    *vert_ += vert;
    *tri_ += tri;
    *seg_ += seg;
}

/* Counts of cell row j of a strip (masks lo, hi; n cells). */
WK_INLINE void count_row(const wk__msq_job *job, const uint64_t *lo, const uint64_t *hi, size_t n, uint32_t j,
                         uint32_t s0, const int T, const int S, uint64_t *vert_, uint64_t *tri_, uint64_t *seg_) {
    for (size_t w = 0; w * 64 < n; w++) count_word(job, lo, hi, n, w, j, s0, T, S, vert_, tri_, seg_);
}

/* One strip of a float field (n cells): cell rows [j0, j1) counted while
 * each next node row is classified, a word at a time (the counting of
 * word w - 1 waits for the next row's word w only), so that the field
 * read and the counting overlap. lo: the solid mask of node row j0
 * (classified); hi: room for one row's mask. */
WK_INLINE void count_rows_fused(const wk__msq_job *job, uint32_t j0, uint32_t j1, size_t n, uint64_t *lo,
                                uint64_t *hi, const int T, const int S, uint64_t *vert, uint64_t *tri,
                                uint64_t *seg) {
    const size_t nodes = n + 1, full = nodes / 64, cwords = (n + 63) / 64;
    const wk_vf viso = wk_vf_set1(job->iso);
    for (uint32_t j = j0; j < j1; j++) {
        const float *p = job->v + (size_t)(j + 1) * job->stride;
        size_t w = 0;
        for (; w < full; w++) {
            hi[w] = classify_word(p + w * 64, viso);
            if (w >= 1) count_word(job, lo, hi, n, w - 1, j, 0, T, S, vert, tri, seg);
        }
        classify_tail(p + full * 64, nodes - full * 64, viso, hi + full); /* words full, full + 1 */
        for (w = full ? full - 1 : 0; w < cwords; w++) count_word(job, lo, hi, n, w, j, 0, T, S, vert, tri, seg);
        uint64_t *t = lo;
        lo = hi;
        hi = t;
    }
}

static void count_rows(const wk__msq_job *job, uint32_t j0, uint32_t j1, wk__msq_counts *c) {
    const int T = (job->flags & WK_MSQ_TRIANGLES) != 0, S = (job->flags & WK_MSQ_SEGMENTS) != 0;
    int one_strip = job->cw <= STRIP;
    uint64_t vert = 0, tri = 0, seg = 0;
    if (one_strip && job->v && j0 < j1) {
        uint64_t rows[2][WORDS];
        size_t n = job->cw;
        classify_row(job, j0, 0, n + 1, rows[0]);
        if (!T) count_rows_fused(job, j0, j1, n, rows[0], rows[1], 0, 1, &vert, &tri, &seg);
        else if (S) count_rows_fused(job, j0, j1, n, rows[0], rows[1], 1, 1, &vert, &tri, &seg);
        else count_rows_fused(job, j0, j1, n, rows[0], rows[1], 1, 0, &vert, &tri, &seg);
        c->vert += vert;
        c->tri += tri;
        c->seg += seg;
        return;
    }
    strip_rows sr;
    rows_init(&sr);
    for (uint32_t j = j0; j < j1; j++) {
        for (uint32_t s0 = 0; s0 < job->cw; s0 += STRIP) {
            size_t n = job->cw - s0 < STRIP ? job->cw - s0 : STRIP;
            rows_at(job, &sr, j, job->ch, s0, n, one_strip);
            const uint64_t *lo = sr.row[0], *hi = sr.row[1];
            if (!T) count_row(job, lo, hi, n, j, s0, 0, 1, &vert, &tri, &seg);
            else if (S) count_row(job, lo, hi, n, j, s0, 1, 1, &vert, &tri, &seg);
            else count_row(job, lo, hi, n, j, s0, 1, 0, &vert, &tri, &seg);
        }
    }
    c->vert += vert;
    c->tri += tri;
    c->seg += seg;
}

/* Slots present per case: [tri][case]. */
static const uint8_t present_table[2][16] = {
    {0x00, 0x82, 0x0A, 0x88, 0x28, 0xAA, 0x22, 0xA0, 0xA0, 0x22, 0xAA, 0x28, 0x88, 0x0A, 0x82, 0x00},
    {0x00, 0x83, 0x0E, 0x8D, 0x38, 0xBB, 0x36, 0xB5, 0xE0, 0x63, 0xEE, 0x6D, 0xD8, 0x5B, 0xD6, 0x55}};

/* One cell through the tables (the same result as wk__msq_cell). */
/* cols (one strip only, else NULL): per column i, the e2 and c2 indices of
 * the last cell written there (the row below); r->below_c3 then holds the
 * first column's c3. */
WK_INLINE void cell_fast(const wk__msq_job *job, wk__msq_row *r, unsigned cs, uint32_t i, uint32_t j, int tri,
                         int seg, int cwise, uint32_t *cols) {
    float v[4];
    wk__msq_values(job, i, j, v);
    uint32_t gx = job->x0 + i, gy = job->y0 + j;
    unsigned own = present_table[tri][cs] & wk__msq_owned(i == 0, j == 0);
    uint32_t idx[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint32_t next = r->cur;
    /* slot by slot with constant slots: straight-line position code */
#define SLOT(k)                                                                                  \
    if (own & (1u << (k))) {                                                                     \
        idx[k] = next;                                                                           \
        wk__msq_position((k), gx, gy, v, job->iso, job->cell, &job->x[next], &job->y[next]);     \
        next++;                                                                                  \
    }
    SLOT(0) SLOT(1) SLOT(2) SLOT(3) SLOT(4) SLOT(5) SLOT(6) SLOT(7)
#undef SLOT
    r->cur = next;
    if (j > 0 && cols) {
        idx[0] = i > 0 ? r->left_c1 : r->below_c3;
        idx[1] = cols[i];
        idx[2] = tri ? cols[C2OFF + (size_t)i] : 0;
    } else if (j > 0) {
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
    if (cols) {
        cols[i] = idx[5];
        if (tri) cols[C2OFF + (size_t)i] = idx[4];
        if (i == 0) r->below_c3 = idx[6];
    }
    unsigned config = cs;
    if (cs == 5 || cs == 10)
        if (wk__msq_connected(v[0], v[1], v[2], v[3], job->iso)) config = cs == 5 ? 16 : 17;
    if (tri && config != 0) { /* (no pointer arithmetic on a NULL buffer) */
        const uint8_t *t = wk__msq_tri_table[config];
        uint32_t *o = job->tri + 3 * (size_t)r->tri;
        int a = cwise ? 2 : 1, b = cwise ? 1 : 2;
        for (int k = 0; k < t[0]; k++) {
            o[3 * k] = idx[t[1 + 3 * k]];
            o[3 * k + 1] = idx[t[1 + 3 * k + a]];
            o[3 * k + 2] = idx[t[1 + 3 * k + b]];
        }
        r->tri += t[0];
    }
    if (seg && config != 0 && config != 15) {
        const uint8_t *t = wk__msq_seg_table[config];
        uint32_t *o = job->seg + 2 * (size_t)r->seg;
        for (int k = 0; k < t[0]; k++) {
            o[2 * k] = idx[t[1 + 2 * k]];
            o[2 * k + 1] = idx[t[2 + 2 * k]];
        }
        r->seg += t[0];
    }
}

/* Segments only, an interior cell (i > 0, j > 0) of one strip: it owns at
 * most e1 and e2; e0 comes from the row below (cols), e3 from the left
 * neighbour. The same output as cell_fast, with less bookkeeping. */
WK_INLINE void seg_cell_interior(const wk__msq_job *job, wk__msq_row *r, unsigned cs, uint32_t i, uint32_t j,
                                 uint32_t *cols, float top) {
    const float *lo = job->v ? job->v + (size_t)j * job->stride + i : NULL;
    float v[4];
    if (lo) {
        const float *hi = lo + job->stride;
        v[0] = lo[0], v[1] = lo[1], v[2] = hi[1], v[3] = hi[0];
    } else {
        wk__msq_values(job, i, j, v);
    }
    unsigned c1 = cs >> 1 & 1u, c2 = cs >> 2 & 1u, c3 = cs >> 3 & 1u;
    uint32_t e[4];
    uint32_t next = r->cur;
    e[0] = cols[i];
    e[3] = r->left_e1;
    e[1] = next;
    if (c1 != c2) {
        float t = wk__msq_t(v[1], v[2], job->iso);
        job->x[next] = (float)(((double)(job->x0 + i) + 1.0) * job->cell);
        job->y[next] = (float)(((double)(job->y0 + j) + (double)t) * job->cell);
        next++;
    }
    e[2] = next;
    if (c2 != c3) {
        float t = wk__msq_t(v[3], v[2], job->iso);
        job->x[next] = (float)(((double)(job->x0 + i) + (double)t) * job->cell);
        job->y[next] = top;
        next++;
    }
    r->cur = next;
    r->left_e1 = e[1];
    cols[i] = e[2];
    unsigned config = cs;
    if (cs == 5 || cs == 10)
        if (wk__msq_connected(v[0], v[1], v[2], v[3], job->iso)) config = cs == 5 ? 16 : 17;
    const uint8_t *t = wk__msq_seg_table[config];
    uint32_t *o = job->seg + 2 * (size_t)r->seg;
    o[0] = e[t[1] >> 1];
    o[1] = e[t[2] >> 1];
    if (t[0] == 2) {
        o[2] = e[t[3] >> 1];
        o[3] = e[t[4] >> 1];
    }
    r->seg += t[0];
}

WK_INLINE void below_fast(wk__msq_row *r, unsigned bcs, int tri, uint32_t i, uint32_t j) {
    unsigned own = present_table[tri][bcs] & wk__msq_owned(i == 0, j - 1 == 0);
    r->below_c2 = r->below + wk__msq_popcount(own & 0x0Fu);
    r->below_e2 = r->below + wk__msq_popcount(own & 0x1Fu);
    r->below_c3 = i == 0 ? r->below + wk__msq_popcount(own & 0x3Fu) : r->prev_below_c2;
    r->prev_below_c2 = r->below_c2;
    r->below += wk__msq_popcount(own);
}

/* ------------------------------------------- segments only, interior rows */

/* Vertices of a row are staged here (stores that a cell does not keep are
 * overwritten by the next one; nothing past the kept ones reaches the
 * caller's buffers), then copied out. */
enum { STAGE = 256 };

/* While a row's cells are written, the node row that the next step
 * classifies (three above the row's lower one) is requested a few lines
 * per cell, so that memory keeps streaming during the emission (a
 * prefetch never faults; without one the emission and the row reads take
 * turns). */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH_R(p) __builtin_prefetch((p), 0, 3)
#define PREFETCH_W(p) __builtin_prefetch((p), 1, 3)
#else
#define PREFETCH_R(p) ((void)(p))
#define PREFETCH_W(p) ((void)(p))
#endif
enum { AHEAD_ROWS = 3, AHEAD_LINES = 3, OUT_AHEAD_LINES = 8, OUT_AHEAD_MIN_CELLS = 1 << 22 };

#if !defined(__AVX__)
/* Without AVX (NEON): the e1 point's y and the e2 point's x of a cell as
 * wk__msq_position computes them. */
WK_INLINE void edge_points(float v1, float v2, float v3, float iso, double gx, double gy, double cell, float *y1,
                           float *x2) {
    *y1 = (float)((gy + (double)wk__msq_t(v1, v2, iso)) * cell);
    *x2 = (float)((gx + (double)wk__msq_t(v3, v2, iso)) * cell);
}
#endif

#if defined(__AVX__)
#include <immintrin.h>

/* Case from the compare mask of [c0 c1 c3 c2]. */
static const uint8_t quad_case[16] = {0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15};

/* The e1 point (x1, y1) and the e2 point's x (x2) of a cell, q = [v0 v1 v3
 * v2], at = [gy, gx, gx + 1, _]: as wk__msq_position (a t of -0 becomes
 * +0, the same position bits). */
WK_INLINE void quad_points(__m128 q, __m128 viso, __m256d at, __m256d vcell, float *x1, float *y1, float *x2) {
    __m128 va = _mm_shuffle_ps(q, q, _MM_SHUFFLE(2, 2, 2, 1)); /* v1 v3 */
    __m128 vb = _mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 3, 3, 3)); /* v2 v2 */
    __m128 t = _mm_div_ps(_mm_sub_ps(viso, va), _mm_sub_ps(vb, va));
    __m128 bad = _mm_or_ps(_mm_cmp_ps(va, vb, _CMP_EQ_OQ), _mm_cmp_ps(t, t, _CMP_UNORD_Q));
    t = _mm_blendv_ps(t, _mm_set1_ps(0.5f), bad);
    t = _mm_min_ps(_mm_max_ps(t, _mm_setzero_ps()), _mm_set1_ps(1.0f));
    t = _mm_blend_ps(t, _mm_setzero_ps(), 0xC); /* lane 2: gx + 1 + 0, exact */
    __m128 f = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_add_pd(at, _mm256_cvtps_pd(t)), vcell));
    *y1 = _mm_cvtss_f32(f);
    *x2 = _mm_cvtss_f32(_mm_shuffle_ps(f, f, 1));
    *x1 = _mm_cvtss_f32(_mm_movehl_ps(f, f));
}
#endif

/* Per case, for the segments cell code: bit 0 e1 crossed, bit 1 e2
 * crossed, bits 2-3 and 4-5 the edges (e0..e3) of the segment's start and
 * end (wk__msq_seg_table), SEG_SADDLE for cases 5 and 10. seg_info_quad:
 * the same by the compare mask of [c0 c1 c3 c2] (quad_case). */
#define SEG_SADDLE 0x40u
#if defined(__AVX__)
static const uint8_t seg_info_quad[16] = {0x00, 0x0C, 0x11, 0x1D, 0x3A, 0x0A, 0x43, 0x1B,
                                          0x27, 0x43, 0x22, 0x2E, 0x35, 0x05, 0x30, 0x00};
#else
static const uint8_t seg_info[16] = {0x00, 0x0C, 0x11, 0x1D, 0x27, 0x43, 0x22, 0x2E,
                                     0x3A, 0x0A, 0x43, 0x1B, 0x35, 0x05, 0x30, 0x00};
#endif

/* clang 14 (not gcc): keeps x in a general register here, opaque to the
 * optimizer, so that the SLP vectorizer does not turn a group of
 * independent ctz64 into one vector (bit tricks, byte-table popcounts
 * and a vpmovqd store: decode_row measured 1.4x slower that way). */
#if defined(__clang__)
#define WK_SCALAR_HERE(x) __asm__("" : "+r"(x))
#else
#define WK_SCALAR_HERE(x) ((void)0)
#endif

/* Indices of the mixed cells of a row (segments: the active cells), in
 * order; list needs room for n + 4 entries. */
static size_t decode_row(const uint64_t *lo, const uint64_t *hi, size_t n, uint32_t *list) {
    const uint64_t top = (uint64_t)1 << 63; /* ctz of an emptied word: 63, never used */
    size_t cnt = 0;
    for (size_t w = 0; w * 64 < n; w++) {
        cell_words c = words_at(lo, hi, w, n);
        uint64_t a = active_of(&c, 0);
        uint32_t k = (uint32_t)pop64(a), base = (uint32_t)(w * 64);
        uint32_t *d = list + cnt;
        for (uint32_t q = 0;; q += 4) { /* four at a time, past k unused */
            d[q] = base + ctz64(a | top);
            a &= a - 1;
            WK_SCALAR_HERE(a);
            d[q + 1] = base + ctz64(a | top);
            a &= a - 1;
            WK_SCALAR_HERE(a);
            d[q + 2] = base + ctz64(a | top);
            a &= a - 1;
            WK_SCALAR_HERE(a);
            d[q + 3] = base + ctz64(a | top);
            a &= a - 1;
            if (q + 4 >= k) break;
        }
        cnt += k;
    }
    return cnt;
}

/* seg_row's saddles: inlined (gcc); clang 14 gets a call out of the loop
 * instead, so that the saddle code's values do not push the loop's own
 * out of registers. */
#if defined(__clang__)
__attribute__((noinline, cold)) static void seg_saddle_cell(const wk__msq_job *job, wk__msq_row *r, unsigned cs,
                                                           uint32_t i, uint32_t j, uint32_t *cols, float top) {
    seg_cell_interior(job, r, cs, i, j, cols, top);
}
#define SEG_SADDLE_CELL seg_saddle_cell
#else
#define SEG_SADDLE_CELL seg_cell_interior
#endif

/* Segments only, cell row j > 0 of one strip: the same output as
 * cell_fast / seg_cell_interior cell by cell. Interior cells that are not
 * saddles run without branches: both candidate vertices are staged, the
 * count advances by the crossings. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void seg_row(const wk__msq_job *job, wk__msq_row *r, const uint64_t *lo, const uint64_t *hi, size_t n,
                    uint32_t j, uint32_t *WK_RESTRICT cols, uint32_t *WK_RESTRICT list, float top, int cwise) {
    size_t cnt = decode_row(lo, hi, n, list), q = 0;
    const char *pf = NULL, *pfe = NULL; /* the lines of node row j + AHEAD_ROWS not yet requested */
    if (j + AHEAD_ROWS <= job->ch) {
        size_t at = (size_t)(j + AHEAD_ROWS) * job->stride;
        pf = job->v ? (const char *)(job->v + at) : (const char *)(job->v8 + at);
        pfe = pf + (n + 1) * (job->v ? sizeof(float) : 1);
    }
    if (cnt && list[0] == 0) {
        cell_fast(job, r, case_of(lo, hi, 0), 0, j, 0, 1, cwise, cols);
        q = 1;
    }
    if (q == cnt) return;
    float sx[STAGE + 4], sy[STAGE + 4];
    uint32_t base = r->cur, ns = 0; /* sx[0] is vertex base; ns staged */
    /* Where the part's end leaves room for two vertices per cell of the
     * row and one more (wk__msq_job: the stores a cell does not keep are
     * written again later), the vertices go straight to the caller's
     * arrays (wx[off + ns]), else through the stage. */
    const int direct = (uint64_t)base + 2 * (uint64_t)(cnt - q) + 2 <= job->vert_end;
    float *wx = direct ? job->x : sx, *wy = direct ? job->y : sy;
    uint32_t off = direct ? base : 0;
#define FLUSH()                                                      \
    do {                                                             \
        if (ns && !direct) {                                         \
            memcpy(job->x + base, sx, ns * sizeof(float));           \
            memcpy(job->y + base, sy, ns * sizeof(float));           \
        }                                                            \
        base += ns;                                                  \
        ns = 0;                                                      \
        off = direct ? base : 0;                                     \
    } while (0)
    const double cell = job->cell, gy = (double)(job->y0 + j), gx0 = (double)job->x0;
    const float iso = job->iso;
    const size_t stride = job->stride;
    const float *vrow = job->v ? job->v + (size_t)j * stride : NULL;
    const uint8_t *brow = job->v8 ? job->v8 + (size_t)j * stride : NULL;
    uint32_t left = r->left_e1;
    uint32_t *WK_RESTRICT o = job->seg + 2 * (size_t)r->seg;
#if defined(__AVX__)
    const __m128 viso4 = _mm_set1_ps(iso);
    /* per cell + i: [gy, gx, gx + 1, unused] (the lanes that take i: exact sums) */
    const __m256d row_base = _mm256_setr_pd(gy - 0.0, gx0, gx0 + 1.0, 0.0), vcell = _mm256_set1_pd(cell);
#endif
    for (; q < cnt; q++) {
        uint32_t i = list[q];
#if defined(__AVX__)
        __m128 qv; /* c0 c1 c3 c2 */
        if (vrow) {
            const float *p = vrow + i;
            qv = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)p), (const __m64 *)(p + stride));
        } else {
            const uint8_t *p = brow + i;
            qv = _mm_setr_ps((float)p[0], (float)p[1], (float)p[stride], (float)p[stride + 1]);
        }
        unsigned m = (unsigned)_mm_movemask_ps(_mm_cmp_ps(qv, viso4, _CMP_GE_OQ));
        unsigned info = seg_info_quad[m];
#else
        float v0, v1, v2, v3;
        if (vrow) {
            const float *p = vrow + i;
            v0 = p[0], v1 = p[1], v3 = p[stride], v2 = p[stride + 1];
        } else {
            const uint8_t *p = brow + i;
            v0 = (float)p[0], v1 = (float)p[1], v3 = (float)p[stride], v2 = (float)p[stride + 1];
        }
        unsigned cs = (unsigned)(v0 >= iso) | (unsigned)(v1 >= iso) << 1 | (unsigned)(v2 >= iso) << 2 |
                      (unsigned)(v3 >= iso) << 3;
        unsigned info = seg_info[cs];
#endif
        if (info & SEG_SADDLE) { /* saddles: the general code */
#if defined(__AVX__)
            unsigned cs = quad_case[m];
#endif
            FLUSH();
            r->cur = base;
            r->left_e1 = left;
            r->seg = (uint32_t)((size_t)(o - job->seg) / 2);
            SEG_SADDLE_CELL(job, r, cs, i, j, cols, top);
            base = r->cur;
            off = direct ? base : 0;
            left = r->left_e1;
            o = job->seg + 2 * (size_t)r->seg;
            continue;
        }
        float x1, y1, x2;
#if defined(__AVX__)
        quad_points(qv, viso4, _mm256_add_pd(row_base, _mm256_blend_pd(_mm256_setzero_pd(), _mm256_set1_pd((double)i), 0x6)), vcell,
                    &x1, &y1, &x2);
#else
        double gx = gx0 + (double)i; /* exact: integers below 2^53 */
        x1 = (float)((gx + 1.0) * cell);
        edge_points(v1, v2, v3, iso, gx, gy, cell, &y1, &x2);
#endif
        uint32_t e0 = cols[i], e1 = base + ns;
        wx[off + ns] = x1;
        wy[off + ns] = y1;
        ns += info & 1u;
        uint32_t e2 = base + ns;
        wx[off + ns] = x2;
        wy[off + ns] = top;
        ns += info >> 1 & 1u;
        uint32_t e[4] = {e0, e1, e2, left};
        cols[i] = e2;
        left = e1;
        o[0] = e[info >> 2 & 3u];
        o[1] = e[info >> 4 & 3u];
        o += 2;
        if (pf < pfe) {
            for (int k = 0; k < AHEAD_LINES; k++) PREFETCH_R(pf + 64 * k);
            pf += 64 * AHEAD_LINES;
        }
        if (!direct && ns > STAGE - 2) FLUSH();
    }
    FLUSH();
    for (; pf < pfe; pf += 64) PREFETCH_R(pf);
#undef FLUSH
    r->cur = base;
    r->left_e1 = left;
    r->seg = (uint32_t)((size_t)(o - job->seg) / 2);
}

#if defined(__AVX2__) && !defined(WK_SIMD_AVX512) /* AVX-512 runs sixteen at a time (below) */
/* Runs of all-solid cells, eight at a time: the six index vectors of their
 * 16 triangles come from the c1 column indices (one permute) and from the
 * new c2 indices (base + constant), per [winding][output vector][lane];
 * the first block's lanes 0 and 3 take the run's carried c0, and its c3
 * lane the carried c2. Fields of a cell: counter-clockwise c0 c1 c2, c0 c2 c3; clockwise c0 c2
 * c1, c0 c3 c2. */
static const int32_t full_perm[2][6][8] = {{{0, 0, 0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 1, 2, 0, 1}, {0, 0, 2, 3, 0, 2, 0, 0}, {3, 4, 0, 3, 0, 0, 4, 5}, {0, 4, 0, 0, 5, 6, 0, 5}, {0, 0, 6, 7, 0, 6, 0, 0}}, {{0, 0, 0, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 1, 0, 2, 1}, {0, 0, 2, 0, 3, 2, 0, 0}, {3, 0, 4, 3, 0, 0, 4, 0}, {5, 4, 0, 0, 5, 0, 6, 5}, {0, 0, 6, 0, 7, 6, 0, 0}}};
static const int32_t full_add[2][6][8] = {{{0, 0, 0, 0, 0, -1, 0, 0}, {1, 0, 1, 0, 0, 0, 2, 0}, {2, 1, 0, 0, 3, 0, 3, 2}, {0, 0, 4, 0, 4, 3, 0, 0}, {5, 0, 5, 4, 0, 0, 6, 0}, {6, 5, 0, 0, 7, 0, 7, 6}}, {{0, 0, 0, 0, -1, 0, 0, 1}, {0, 0, 0, 1, 0, 2, 0, 0}, {1, 2, 0, 3, 0, 0, 2, 3}, {0, 4, 0, 0, 3, 4, 0, 5}, {0, 0, 4, 5, 0, 6, 0, 0}, {5, 6, 0, 7, 0, 0, 6, 7}}};
/* Eight cells of a run from their c1 indices (c1, loaded before col is
 * overwritten), the winding a constant (blends with immediate masks); col
 * gets their c2 indices, xo / yo their 8 new c2 vertices (x = (gx + k) *
 * cell, exact integer sums in double as the scalar loop). */
#define RUN8_BODY(CW, S0, S1, S2, S3, S4, S5)                                                                  \
    do {                                                                                                       \
        __m256i vb = _mm256_set1_epi32((int32_t)base);                                                         \
        __m256i t0 = _mm256_blend_epi32(                                                                       \
            _mm256_permutevar8x32_epi32(c1, _mm256_loadu_si256((const __m256i *)full_perm[CW][0])),            \
            _mm256_add_epi32(vb, _mm256_loadu_si256((const __m256i *)full_add[CW][0])), S0);                    \
        t0 = _mm256_blend_epi32(t0, _mm256_set1_epi32((int32_t)c0), 0x09);                                     \
        t0 = _mm256_blend_epi32(t0, _mm256_set1_epi32((int32_t)c3), CW ? 0x10 : 0x20);                         \
        _mm256_storeu_si256((__m256i *)o, t0);                                                                 \
        RUN8_OUT(CW, 1, S1);                                                                                   \
        RUN8_OUT(CW, 2, S2);                                                                                   \
        RUN8_OUT(CW, 3, S3);                                                                                   \
        RUN8_OUT(CW, 4, S4);                                                                                   \
        RUN8_OUT(CW, 5, S5);                                                                                   \
        _mm256_storeu_si256((__m256i *)col, _mm256_add_epi32(vb, _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));  \
        __m128 xl_ = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_add_pd(gx, _mm256_setr_pd(0, 1, 2, 3)), vc));        \
        __m128 xh_ = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_add_pd(gx, _mm256_setr_pd(4, 5, 6, 7)), vc));        \
        _mm256_storeu_ps(xo, _mm256_insertf128_ps(_mm256_castps128_ps256(xl_), xh_, 1));                       \
        _mm256_storeu_ps(yo, vtop);                                                                            \
    } while (0)
#define RUN8_OUT(CW, M, S)                                                                                     \
    _mm256_storeu_si256((__m256i *)(o + 8 * (M)),                                                              \
                        _mm256_blend_epi32(_mm256_permutevar8x32_epi32(                                        \
                                               c1, _mm256_loadu_si256((const __m256i *)full_perm[CW][M])),     \
                                           _mm256_add_epi32(vb, _mm256_loadu_si256((const __m256i *)full_add[CW][M])), S))

WK_INLINE void run8_block(uint32_t *o, __m256i c1, uint32_t *col, float *xo, float *yo, uint32_t base, uint32_t c0,
                          uint32_t c3, __m256d gx, __m256d vc, __m256 vtop, const int cwise) {
    if (cwise) RUN8_BODY(1, 0xb2, 0x2c, 0xcb, 0xb2, 0x2c, 0xcb);
    else RUN8_BODY(0, 0x34, 0x4d, 0xd3, 0x34, 0x4d, 0xd3);
}
#undef RUN8_BODY
#undef RUN8_OUT
#endif

#if defined(WK_SIMD_AVX512)
/* Runs of all-solid cells, sixteen at a time: output vector m of a block
 * (indices 16m .. 16m + 15, cell q / 6, field q % 6) takes c1 / c0 lanes
 * from the block's c1 column and its copy shifted by one cell (a
 * two-source permute) and c2 / c3 lanes as the block base plus a constant
 * (a masked add); per [winding][output vector][lane]. */
static const int32_t run16_perm[2][6][16] = {{{16, 0, 0, 16, 0, 0, 17, 1, 0, 17, 0, 0, 18, 2, 0, 18}, {0, 0, 19, 3, 0, 19, 0, 0, 20, 4, 0, 20, 0, 0, 21, 5}, {0, 21, 0, 0, 22, 6, 0, 22, 0, 0, 23, 7, 0, 23, 0, 0}, {24, 8, 0, 24, 0, 0, 25, 9, 0, 25, 0, 0, 26, 10, 0, 26}, {0, 0, 27, 11, 0, 27, 0, 0, 28, 12, 0, 28, 0, 0, 29, 13}, {0, 29, 0, 0, 30, 14, 0, 30, 0, 0, 31, 15, 0, 31, 0, 0}}, {{16, 0, 0, 16, 0, 0, 17, 0, 1, 17, 0, 0, 18, 0, 2, 18}, {0, 0, 19, 0, 3, 19, 0, 0, 20, 0, 4, 20, 0, 0, 21, 0}, {5, 21, 0, 0, 22, 0, 6, 22, 0, 0, 23, 0, 7, 23, 0, 0}, {24, 0, 8, 24, 0, 0, 25, 0, 9, 25, 0, 0, 26, 0, 10, 26}, {0, 0, 27, 0, 11, 27, 0, 0, 28, 0, 12, 28, 0, 0, 29, 0}, {13, 29, 0, 0, 30, 0, 14, 30, 0, 0, 31, 0, 15, 31, 0, 0}}};
static const int32_t run16_add[2][6][16] = {{{0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 1, 0, 0, 0, 2, 0}, {2, 1, 0, 0, 3, 0, 3, 2, 0, 0, 4, 0, 4, 3, 0, 0}, {5, 0, 5, 4, 0, 0, 6, 0, 6, 5, 0, 0, 7, 0, 7, 6}, {0, 0, 8, 0, 8, 7, 0, 0, 9, 0, 9, 8, 0, 0, 10, 0}, {10, 9, 0, 0, 11, 0, 11, 10, 0, 0, 12, 0, 12, 11, 0, 0}, {13, 0, 13, 12, 0, 0, 14, 0, 14, 13, 0, 0, 15, 0, 15, 14}}, {{0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0}, {1, 2, 0, 3, 0, 0, 2, 3, 0, 4, 0, 0, 3, 4, 0, 5}, {0, 0, 4, 5, 0, 6, 0, 0, 5, 6, 0, 7, 0, 0, 6, 7}, {0, 8, 0, 0, 7, 8, 0, 9, 0, 0, 8, 9, 0, 10, 0, 0}, {9, 10, 0, 11, 0, 0, 10, 11, 0, 12, 0, 0, 11, 12, 0, 13}, {0, 0, 12, 13, 0, 14, 0, 0, 13, 14, 0, 15, 0, 0, 14, 15}}};
static const uint16_t run16_mask[2][6] = {{0x4d34, 0x34d3, 0xd34d, 0x4d34, 0x34d3, 0xd34d}, {0x2cb2, 0xb2cb, 0xcb2c, 0x2cb2, 0xb2cb, 0xcb2c}};

/* One block of nc (1..16) cells of a run (ALL: nc == 16, plain stores;
 * else masked ones, or with room (the part's ends lie at least a whole
 * block past o and xo, wk__msq_job) plain ones too: the lanes past the
 * run are written again later): 96 indices to o, 16 new c2 vertices to
 * xo / yo, the c1 column in col replaced by the c2 indices; c3: the first
 * cell's c3 (the block before's last c2, or the run's carried left c2);
 * *prev: the previous block's c1 column (lane 15: the block's first c0). */
WK_INLINE void run16_block(uint32_t *o, uint32_t *col, float *xo, float *yo, uint32_t base, uint32_t c3,
                           __m512i *prev, __m512d gx, __m512d vcell, __m512 vtop, const int cwise,
                           const unsigned nc, const int ALL, const int room) {
    const __mmask16 kc = (__mmask16)((1u << nc) - 1);
    /* the whole 16-lane column, also for a tail block: its store below
     * writes lanes nc.. back unchanged, a plain store (a masked store there
     * would block the loads of the next cells' column entries until it
     * retires, behind all the output stores still in flight) */
    __m512i c1 = _mm512_loadu_si512(col);
    __m512i c0 = _mm512_alignr_epi32(c1, *prev, 15);
    __m512i vb = _mm512_set1_epi32((int32_t)base);
    for (int m = 0; m < 6; m++) {
        __m512i t = _mm512_permutex2var_epi32(c1, _mm512_loadu_si512(run16_perm[cwise][m]), c0);
        t = _mm512_mask_add_epi32(t, (__mmask16)run16_mask[cwise][m], vb, _mm512_loadu_si512(run16_add[cwise][m]));
        if (m == 0) t = _mm512_mask_set1_epi32(t, cwise ? 0x10 : 0x20, (int32_t)c3); /* the first cell's c3 */
        if (ALL) {
            _mm512_storeu_si512(o + 16 * m, t);
        } else {
            int left = 6 * (int)nc - 16 * m;
            if (left <= 0) break;
            if (room) { /* (a masked store costs more on this path than whole lines) */
                _mm512_storeu_si512(o + 16 * m, t);
                continue;
            }
            __mmask16 km = (__mmask16)(left >= 16 ? 0xFFFFu : (1u << left) - 1);
            _mm512_mask_storeu_epi32(o + 16 * m, km, t);
        }
    }
    __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m256 xl = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_add_pd(gx, _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7)), vcell));
    __m256 xh = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_add_pd(gx, _mm512_setr_pd(8, 9, 10, 11, 12, 13, 14, 15)), vcell));
    __m512 x = _mm512_insertf32x8(_mm512_castps256_ps512(xl), xh, 1);
    if (ALL) {
        _mm512_storeu_si512(col, _mm512_add_epi32(vb, iota));
        _mm512_storeu_ps(xo, x);
        _mm512_storeu_ps(yo, vtop);
    } else {
        _mm512_storeu_si512(col, _mm512_mask_blend_epi32(kc, c1, _mm512_add_epi32(vb, iota)));
        if (room) {
            _mm512_storeu_ps(xo, x);
            _mm512_storeu_ps(yo, vtop);
        } else {
            _mm512_mask_storeu_ps(xo, kc, x);
            _mm512_mask_storeu_ps(yo, kc, vtop);
        }
    }
    *prev = c1;
}
#endif

#if defined(__AVX__) && defined(__AVX2__)
/* Mixed interior cells of a mesh (x86): per config (case, or 16 + (case
 * == 10) for a connected saddle) and winding, the slots of its triangles
 * (lanes 0-11, wk__msq_tri_table with the winding applied) and segments
 * (lanes 12-15, wk__msq_seg_table); mixed_counts: triangles | segments << 4. */
static const int32_t mixed_perm[2][18][16] = {{{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 1, 0, 0}, {1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0, 0}, {0, 2, 3, 0, 3, 7, 0, 0, 0, 0, 0, 0, 7, 3, 0, 0}, {3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 5, 0, 0}, {0, 1, 7, 3, 4, 5, 0, 0, 0, 0, 0, 0, 7, 1, 3, 5}, {1, 2, 4, 1, 4, 5, 0, 0, 0, 0, 0, 0, 1, 5, 0, 0}, {0, 2, 4, 0, 4, 5, 0, 5, 7, 0, 0, 0, 7, 5, 0, 0}, {5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 7, 0, 0}, {0, 1, 5, 0, 5, 6, 0, 0, 0, 0, 0, 0, 5, 1, 0, 0}, {1, 2, 3, 5, 6, 7, 0, 0, 0, 0, 0, 0, 1, 3, 5, 7}, {0, 2, 3, 0, 3, 5, 0, 5, 6, 0, 0, 0, 5, 3, 0, 0}, {3, 4, 6, 3, 6, 7, 0, 0, 0, 0, 0, 0, 3, 7, 0, 0}, {0, 1, 3, 0, 3, 4, 0, 4, 6, 0, 0, 0, 3, 1, 0, 0}, {1, 2, 4, 1, 4, 6, 1, 6, 7, 0, 0, 0, 1, 7, 0, 0}, {0, 2, 4, 0, 4, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 3, 0, 3, 4, 0, 4, 5, 0, 5, 7, 3, 1, 7, 5}, {1, 2, 3, 1, 3, 5, 1, 5, 6, 1, 6, 7, 1, 7, 5, 3}}, {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 7, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 1, 0, 0}, {1, 3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0, 0}, {0, 3, 2, 0, 7, 3, 0, 0, 0, 0, 0, 0, 7, 3, 0, 0}, {3, 5, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 5, 0, 0}, {0, 7, 1, 3, 5, 4, 0, 0, 0, 0, 0, 0, 7, 1, 3, 5}, {1, 4, 2, 1, 5, 4, 0, 0, 0, 0, 0, 0, 1, 5, 0, 0}, {0, 4, 2, 0, 5, 4, 0, 7, 5, 0, 0, 0, 7, 5, 0, 0}, {5, 7, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 7, 0, 0}, {0, 5, 1, 0, 6, 5, 0, 0, 0, 0, 0, 0, 5, 1, 0, 0}, {1, 3, 2, 5, 7, 6, 0, 0, 0, 0, 0, 0, 1, 3, 5, 7}, {0, 3, 2, 0, 5, 3, 0, 6, 5, 0, 0, 0, 5, 3, 0, 0}, {3, 6, 4, 3, 7, 6, 0, 0, 0, 0, 0, 0, 3, 7, 0, 0}, {0, 3, 1, 0, 4, 3, 0, 6, 4, 0, 0, 0, 3, 1, 0, 0}, {1, 4, 2, 1, 6, 4, 1, 7, 6, 0, 0, 0, 1, 7, 0, 0}, {0, 4, 2, 0, 6, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 3, 1, 0, 4, 3, 0, 5, 4, 0, 7, 5, 3, 1, 7, 5}, {1, 3, 2, 1, 5, 3, 1, 6, 5, 1, 7, 6, 1, 7, 5, 3}}};
static const uint8_t mixed_counts[18] = {0, 17, 17, 18, 17, 34, 18, 19, 17, 18, 34, 19, 18, 19, 19, 2, 36, 36};
/* The owned vertices (slots 3 e1, 4 c2, 5 e2; bit k - 3) in order, as
 * lanes of [y1 x2 x1 _] (x) and of [y1 top top top] (y). */
static const int32_t mixed_xperm[8][4] = {{2, 2, 2, 2}, {2, 2, 2, 2}, {2, 2, 2, 2}, {2, 2, 2, 2},
                                          {1, 2, 2, 2}, {2, 1, 2, 2}, {2, 1, 2, 2}, {2, 2, 1, 2}};
static const int32_t mixed_yperm[8][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
                                          {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0}};

/* Owned vertices present (bit k: slot 3 + k) per config. */
static const uint8_t mixed_own[18] = {0, 0, 1, 1, 7, 7, 6, 6, 4, 4, 5, 5, 3, 3, 2, 2, 7, 5};

WK_INLINE void mixed_emit(const wk__msq_job *job, wk__msq_row *r, uint32_t i, float top, uint32_t *WK_RESTRICT cols,
                          int seg, int cwise, unsigned config, __m128 f);

/* Stores the first n lanes (n <= 8 / 4; none past them). Without AVX-512
 * a short scalar loop: vpmaskmovd measured slower on Zen 4. */
WK_INLINE void store_first8(uint32_t *p, __m256i v, int n) {
#if defined(WK_SIMD_AVX512)
    _mm256_mask_storeu_epi32(p, (__mmask8)((1u << (n < 0 ? 0 : n > 8 ? 8 : n)) - 1), v);
#else
    uint32_t t[8];
    _mm256_storeu_si256((__m256i *)t, v);
    for (int k = 0; k < n && k < 8; k++) p[k] = t[k];
#endif
}
WK_INLINE void store_first4(void *p, __m128i v, int n) {
#if defined(WK_SIMD_AVX512)
    _mm_mask_storeu_epi32(p, (__mmask8)((1u << (n < 0 ? 0 : n > 4 ? 4 : n)) - 1), v);
#else
    uint32_t t[4];
    _mm_storeu_si128((__m128i *)t, v);
    for (int k = 0; k < n && k < 4; k++) ((uint32_t *)p)[k] = t[k];
#endif
}

/* A mixed interior cell (i > 0, j > 0) of a mesh row of one float strip:
 * the same output as cell_fast. p: its node (i, j); at: [gy, gx, gx + 1, 0]. */
WK_INLINE void mixed_cell(const wk__msq_job *job, wk__msq_row *r, const float *p, uint32_t i, float top,
                          __m256d at, __m256d vcell, __m128 viso4, uint32_t *WK_RESTRICT cols, int seg,
                          int cwise) {
    __m128 qv = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)p), (const __m64 *)(p + job->stride));
    unsigned m = (unsigned)_mm_movemask_ps(_mm_cmp_ps(qv, viso4, _CMP_GE_OQ));
    unsigned cs = quad_case[m], config = cs;
    if (cs == 5 || cs == 10) {
        float v0 = p[0], v1 = p[1], v3 = p[job->stride], v2 = p[job->stride + 1];
        if (wk__msq_connected(v0, v1, v2, v3, job->iso)) config = cs == 5 ? 16 : 17;
    }
    /* the e1 / e2 points as wk__msq_position (see quad_points) */
    __m128 va = _mm_shuffle_ps(qv, qv, _MM_SHUFFLE(2, 2, 2, 1));
    __m128 vb = _mm_shuffle_ps(qv, qv, _MM_SHUFFLE(3, 3, 3, 3));
    __m128 t = _mm_div_ps(_mm_sub_ps(viso4, va), _mm_sub_ps(vb, va));
    __m128 bad = _mm_or_ps(_mm_cmp_ps(va, vb, _CMP_EQ_OQ), _mm_cmp_ps(t, t, _CMP_UNORD_Q));
    t = _mm_blendv_ps(t, _mm_set1_ps(0.5f), bad);
    t = _mm_min_ps(_mm_max_ps(t, _mm_setzero_ps()), _mm_set1_ps(1.0f));
    t = _mm_blend_ps(t, _mm_setzero_ps(), 0xC);
    __m128 f = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_add_pd(at, _mm256_cvtps_pd(t)), vcell)); /* y1 x2 x1 _ */
    mixed_emit(job, r, i, top, cols, seg, cwise, config, f);
}

/* The output of a mixed interior cell of config `config` whose e1 point is
 * (f[2], f[0]) and e2 point x f[1]. */
WK_INLINE void mixed_emit(const wk__msq_job *job, wk__msq_row *r, uint32_t i, float top, uint32_t *WK_RESTRICT cols,
                          int seg, int cwise, unsigned config, __m128 f) {
    unsigned own = mixed_own[config]; /* e1 c2 e2 */
    int nv = (int)(0x32212110u >> (4 * own) & 15u); /* popcount of own */
    uint32_t next = r->cur;
    __m128 xs = _mm_permutevar_ps(f, _mm_loadu_si128((const __m128i *)mixed_xperm[own]));
    __m128 ys = _mm_permutevar_ps(_mm_blend_ps(_mm_set1_ps(top), f, 0x1),
                                  _mm_loadu_si128((const __m128i *)mixed_yperm[own]));
    /* whole vectors where the part's ends leave room (wk__msq_job: the
     * lanes past the cell's output are written again later); masked or
     * lane by lane stores cost more */
    if ((uint64_t)next + 4 <= job->vert_end) {
        _mm_storeu_ps(job->x + next, xs);
        _mm_storeu_ps(job->y + next, ys);
    } else {
        store_first4(job->x + next, _mm_castps_si128(xs), nv);
        store_first4(job->y + next, _mm_castps_si128(ys), nv);
    }
    uint32_t i3 = next, i4 = next + (own & 1u), i5 = i4 + (own >> 1 & 1u);
    uint32_t c1 = cols[C2OFF + (size_t)i];
    __m256i idx = _mm256_setr_epi32((int32_t)r->left_c1, (int32_t)cols[i], (int32_t)c1, (int32_t)i3, (int32_t)i4,
                                    (int32_t)i5, (int32_t)r->left_c2, (int32_t)r->left_e1);
    r->cur = next + (uint32_t)nv;
    r->left_c1 = c1;
    r->left_c2 = i4;
    r->left_e1 = i3;
    cols[i] = i5;
    cols[C2OFF + (size_t)i] = i4;
    const int32_t *pt = mixed_perm[cwise][config];
    unsigned counts = mixed_counts[config], nt = counts & 15u, ns = counts >> 4;
#if defined(WK_SIMD_AVX512)
    {
        /* one 16-lane permute: lanes 0-11 the triangles, 12-15 the segments */
        __m512i all = _mm512_permutexvar_epi32(_mm512_loadu_si512(pt), _mm512_castsi256_si512(idx));
        if ((uint64_t)3 * r->tri + 16 <= (uint64_t)3 * job->tri_end)
            _mm512_storeu_si512(job->tri + 3 * (size_t)r->tri, all);
        else
            _mm512_mask_storeu_epi32(job->tri + 3 * (size_t)r->tri, (__mmask16)((1u << (3 * nt)) - 1), all);
        r->tri += nt;
        if (seg) {
            if ((uint64_t)2 * r->seg + 4 <= (uint64_t)2 * job->seg_end)
                _mm_storeu_si128((__m128i *)(job->seg + 2 * (size_t)r->seg), _mm512_extracti32x4_epi32(all, 3));
            else
                _mm_mask_storeu_epi32(job->seg + 2 * (size_t)r->seg, (__mmask8)((1u << (2 * ns)) - 1),
                                      _mm512_extracti32x4_epi32(all, 3));
            r->seg += ns;
        }
        return;
    }
#endif
    __m256i a = _mm256_permutevar8x32_epi32(idx, _mm256_loadu_si256((const __m256i *)pt));
    __m256i b = _mm256_permutevar8x32_epi32(idx, _mm256_loadu_si256((const __m256i *)(pt + 8)));
    uint32_t *o = job->tri + 3 * (size_t)r->tri;
    if ((uint64_t)3 * r->tri + 12 <= (uint64_t)3 * job->tri_end) {
        _mm256_storeu_si256((__m256i *)o, a);
        _mm_storeu_si128((__m128i *)(o + 8), _mm256_castsi256_si128(b));
    } else {
        store_first8(o, a, 3 * (int)nt);
        if (nt > 2) store_first4(o + 8, _mm256_castsi256_si128(b), 3 * (int)nt - 8);
    }
    r->tri += nt;
    if (seg) {
        if ((uint64_t)2 * r->seg + 4 <= (uint64_t)2 * job->seg_end)
            _mm_storeu_si128((__m128i *)(job->seg + 2 * (size_t)r->seg), _mm256_extracti128_si256(b, 1));
        else
            store_first4(job->seg + 2 * (size_t)r->seg, _mm256_extracti128_si256(b, 1), 2 * (int)ns);
        r->seg += ns;
    }
}
#endif

/* A run of L >= 1 all-solid cells from cell i (i > 0, j > 0) of one strip:
 * each owns its c2 (x = (gx + 1) * cell, y = top) and has two triangles;
 * col (the c2 column at cell i) holds their c1 indices and gets their c2
 * ones. The same output as cell_fast cell by cell. */
#if defined(__clang__)
__attribute__((noinline)) static void
#else
WK_INLINE void
#endif
full_run(const wk__msq_job *job, wk__msq_row *r, uint32_t *WK_RESTRICT col, uint32_t i, uint32_t L,
                     float top, int cwise) {
    uint32_t c0 = r->left_c1, c3 = r->left_c2, base = r->cur;
    float *WK_RESTRICT xo = job->x + base, *WK_RESTRICT yo = job->y + base;
    uint32_t *WK_RESTRICT o = job->tri + 3 * (size_t)r->tri;
    const double cell = job->cell;
    double gx1 = (double)(job->x0 + i) + 1.0;
    r->left_c1 = col[L - 1];
    r->left_c2 = base + L - 1;
    r->cur = base + L;
    r->tri += 2 * L;
#if defined(WK_SIMD_AVX512)
    {
        __m512i prev = _mm512_set1_epi32((int32_t)c0);
        const __m512d vcell = _mm512_set1_pd(cell);
        const __m512 vtop = _mm512_set1_ps(top);
        uint32_t k = 0;
        /* room for the tail block's whole vectors (see run16_block) */
        const uint32_t tail = L & ~15u;
        const int room = (uint64_t)3 * (r->tri - 2 * L + 2 * tail) + 96 <= (uint64_t)3 * job->tri_end &&
                         (uint64_t)base + tail + 16 <= job->vert_end;
        if (cwise) {
            for (; k + 16 <= L; k += 16)
                run16_block(o + 6 * k, col + k, xo + k, yo + k, base + k, k ? base + k - 1 : c3, &prev,
                            _mm512_set1_pd(gx1 + (double)k), vcell, vtop, 1, 16, 1, 0);
            if (k < L)
                run16_block(o + 6 * k, col + k, xo + k, yo + k, base + k, k ? base + k - 1 : c3, &prev,
                            _mm512_set1_pd(gx1 + (double)k), vcell, vtop, 1, L - k, 0, room);
        } else {
            for (; k + 16 <= L; k += 16)
                run16_block(o + 6 * k, col + k, xo + k, yo + k, base + k, k ? base + k - 1 : c3, &prev,
                            _mm512_set1_pd(gx1 + (double)k), vcell, vtop, 0, 16, 1, 0);
            if (k < L)
                run16_block(o + 6 * k, col + k, xo + k, yo + k, base + k, k ? base + k - 1 : c3, &prev,
                            _mm512_set1_pd(gx1 + (double)k), vcell, vtop, 0, L - k, 0, room);
        }
        return;
    }
#else
    uint32_t k = 0;
#if defined(__AVX2__)
    if (L >= 8) {
        /* blocks of eight; the last one overlaps the one before (it writes
         * the same values again) instead of a scalar tail: its c1 indices
         * and carries are read before the blocks overwrite the column */
        const __m256i c1_last = _mm256_loadu_si256((const __m256i *)(col + L - 8));
        const uint32_t c0_last = L > 8 ? col[L - 9] : c0, c3_last = L > 8 ? base + L - 9 : c3;
        const __m256d vc = _mm256_set1_pd(cell);
        const __m256 vtop = _mm256_set1_ps(top);
        for (; k + 8 <= L; k += 8) {
            __m256i c1 = _mm256_loadu_si256((const __m256i *)(col + k));
            run8_block(o + 6 * k, c1, col + k, xo + k, yo + k, base + k, c0, c3, _mm256_set1_pd(gx1 + (double)k), vc,
                       vtop, cwise);
            c0 = (uint32_t)_mm256_extract_epi32(c1, 7);
            c3 = base + k + 7;
        }
        if (k < L)
            run8_block(o + 6 * (L - 8), c1_last, col + L - 8, xo + L - 8, yo + L - 8, base + L - 8, c0_last, c3_last,
                       _mm256_set1_pd(gx1 + (double)(L - 8)), vc, vtop, cwise);
        return;
    }
#endif
    for (; k < L; k++) {
        uint32_t c1 = col[k], c2 = base + k;
        xo[k] = (float)((gx1 + (double)k) * cell);
        yo[k] = top;
        uint32_t *t = o + 6 * (size_t)k;
        if (cwise) {
            t[0] = c0, t[1] = c2, t[2] = c1, t[3] = c0, t[4] = c3, t[5] = c2;
        } else {
            t[0] = c0, t[1] = c1, t[2] = c2, t[3] = c0, t[4] = c2, t[5] = c3;
        }
        col[k] = c2;
        c0 = c1;
        c3 = c2;
    }
#endif
}

/* An all-solid first cell (i == 0) of row j > 0 of one strip, triangles:
 * it owns c2 and c3 (in that order) and has two triangles; the same
 * output and row state as cell_fast (left_e1 and the e2 column entry: 0,
 * no such vertex). */
WK_INLINE void first_col_solid(const wk__msq_job *job, wk__msq_row *r, uint32_t j, uint32_t *WK_RESTRICT cols,
                               int cwise) {
    const double cell = job->cell, gx = (double)job->x0, gy = (double)(job->y0 + j);
    const uint32_t c0 = r->below_c3, c1 = cols[C2OFF], c2 = r->cur, c3 = c2 + 1;
    job->x[c2] = (float)((gx + 1.0) * cell);
    job->y[c2] = (float)((gy + 1.0) * cell);
    job->x[c3] = (float)(gx * cell);
    job->y[c3] = (float)((gy + 1.0) * cell);
    r->cur = c2 + 2;
    uint32_t *o = job->tri + 3 * (size_t)r->tri;
    if (cwise) {
        o[0] = c0, o[1] = c2, o[2] = c1, o[3] = c0, o[4] = c3, o[5] = c2;
    } else {
        o[0] = c0, o[1] = c1, o[2] = c2, o[3] = c0, o[4] = c2, o[5] = c3;
    }
    r->tri += 2;
    r->left_c1 = c1;
    r->left_c2 = c2;
    r->left_e1 = 0;
    cols[0] = 0;
    cols[C2OFF] = c2;
    r->below_c3 = c3;
}

/* Triangles (and segments if wanted), cell row j > 0 of one strip: the
 * mixed cells in order through the cell code; between two of them (and
 * before the first, after the last) the cells are all solid or all empty
 * (a solid cell's right neighbour has two solid corners, an empty one's
 * two empty ones), the solid stretches as runs. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void mesh_row(const wk__msq_job *job_, wk__msq_row *r_, const uint64_t *lo, const uint64_t *hi, size_t n,
                     uint32_t j, uint32_t *WK_RESTRICT cols, float top, int seg, int cwise) {
    /* local copies (no output store can alias them: kept in registers) */
    const wk__msq_job J = *job_, *job = &J;
    wk__msq_row R = *r_, *r = &R;
    uint32_t p = 1; /* the first cell not yet written */
    const unsigned cs0 = case_of(lo, hi, 0);
    if (cs0 == 15) first_col_solid(job, r, j, cols, cwise);
    else if (cs0 != 0) cell_fast(job, r, cs0, 0, j, 1, seg, cwise, cols);
#if defined(__AVX__) && defined(__AVX2__)
    if (job->v) {
        /* the mixed cells straight from the row's words (no list: every
         * store, even to L1, holds a store-queue slot until the output
         * stores ahead of it have left, so fewer of those are in flight) */
        const size_t nw = (n + 63) / 64;
        size_t w = 0;
        cell_words w0 = words_at(lo, hi, 0, n);
        uint64_t a = active_of(&w0, 0) & ~(uint64_t)1; /* cell 0: written above */
        const float *vrow = job->v + (size_t)j * job->stride;
        /* the lines of node row j + AHEAD_ROWS (the next step classifies
         * it) are requested a few per mixed cell, so that the field read
         * overlaps the output stores */
        const char *pf = NULL, *pfe = NULL;
        if (j + AHEAD_ROWS <= job->ch) {
            pf = (const char *)(vrow + (size_t)AHEAD_ROWS * job->stride);
            pfe = pf + (n + 1) * sizeof(float);
        }
        const __m128 viso4 = _mm_set1_ps(job->iso);
        const int big = (uint64_t)job->cw * job->ch >= OUT_AHEAD_MIN_CELLS;
        const double gx0 = (double)job->x0;
        const __m256d row_base = _mm256_setr_pd((double)(job->y0 + j), gx0, gx0 + 1.0, 0.0),
                      vcell = _mm256_set1_pd(job->cell);
        for (;;) {
            while (!a && ++w < nw) {
                cell_words cw = words_at(lo, hi, w, n);
                a = active_of(&cw, 0);
            }
            uint32_t i = a ? (uint32_t)(w * 64 + ctz64(a)) : (uint32_t)n; /* the next mixed cell (n: none) */
            a &= a - 1;
            if (i > p && bit_at(lo, p)) full_run(job, r, cols + C2OFF + p, p, i - p, top, cwise);
            if (i >= n) break;
            __m256d at = _mm256_add_pd(row_base, _mm256_blend_pd(_mm256_setzero_pd(), _mm256_set1_pd((double)i), 0x6));
            mixed_cell(job, r, vrow + i, i, top, at, vcell, viso4, cols, seg, cwise);
            p = i + 1;
            /* in a build whose output is far larger than the caches: the
             * output lines right after the cell (eight of triangles, two
             * of each vertex array) are requested now, so that the stores
             * that follow a mixed cell (mostly a run's) do not restart the
             * stream cold (sparse 4096^2: 7-13% faster; eight lines
             * measured best, six gained less, twelve and sixteen lost; in
             * cache and on 1024^2 dense fields the requests cost 5-6%,
             * on 4096^2 dense ones 0-5%; asked only before long runs, or
             * only for lines not asked yet, they gained less and cost
             * more on dense fields) */
            if (big) { /* (addresses as integers: they may lie past the arrays; a request never faults) */
                const uintptr_t ot = (uintptr_t)(job->tri + 3 * (size_t)r->tri);
                const uintptr_t ox = (uintptr_t)(job->x + r->cur), oy = (uintptr_t)(job->y + r->cur);
                for (int k = 1; k <= OUT_AHEAD_LINES; k++) PREFETCH_W((const void *)(ot + 64 * (uintptr_t)k));
                PREFETCH_W((const void *)(ox + 64));
                PREFETCH_W((const void *)(oy + 64));
                PREFETCH_W((const void *)(ox + 128));
                PREFETCH_W((const void *)(oy + 128));
            }
            if (pf < pfe) {
                for (int k = 0; k < AHEAD_LINES; k++) PREFETCH_R(pf + 64 * k);
                pf += 64 * AHEAD_LINES;
            }
        }
        for (; pf < pfe; pf += 64) PREFETCH_R(pf);
        *r_ = R;
        return;
    }
#endif
    uint32_t list[STRIP + 8]; /* the row's mixed cells */
    size_t cnt = decode_row(lo, hi, n, list), q = 0;
    if (cnt && list[0] == 0) q = 1;
    for (;; q++) {
        uint32_t i = q < cnt ? list[q] : (uint32_t)n; /* the next mixed cell (n: none) */
        if (i > p && bit_at(lo, p)) full_run(job, r, cols + C2OFF + p, p, i - p, top, cwise);
        if (q >= cnt) break;
        cell_fast(job, r, case_of(lo, hi, i), i, j, 1, seg, cwise, cols);
        p = i + 1;
    }
    *r_ = R;
}

/* First row (j == 0) of one strip, triangles: L >= 1 all-solid cells
 * from cell i > 0. Each owns c1 and c2 (in that order) and has two
 * triangles; the same output and row state as cell_fast cell by cell
 * (left_e1 and the e2 column entry: 0, no such vertex). */
WK_INLINE void first_row_run(const wk__msq_job *job, wk__msq_row *r, uint32_t *WK_RESTRICT cols, uint32_t i,
                             uint32_t L, int cwise) {
    const double cell = job->cell;
    const float y0 = (float)((double)job->y0 * cell), y1 = (float)(((double)job->y0 + 1.0) * cell);
    uint32_t c0 = r->left_c1, c3 = r->left_c2, v = r->cur;
    float *WK_RESTRICT xo = job->x, *WK_RESTRICT yo = job->y;
    uint32_t *WK_RESTRICT o = job->tri + 3 * (size_t)r->tri;
    for (uint32_t k = 0; k < L; k++, v += 2, o += 6) {
        const float x = (float)(((double)(job->x0 + i + k) + 1.0) * cell);
        xo[v] = x, yo[v] = y0;
        xo[v + 1] = x, yo[v + 1] = y1;
        const uint32_t c1 = v, c2 = v + 1;
        if (cwise) {
            o[0] = c0, o[1] = c2, o[2] = c1, o[3] = c0, o[4] = c3, o[5] = c2;
        } else {
            o[0] = c0, o[1] = c1, o[2] = c2, o[3] = c0, o[4] = c2, o[5] = c3;
        }
        cols[i + k] = 0;
        cols[C2OFF + (size_t)(i + k)] = c2;
        c0 = c1;
        c3 = c2;
    }
    r->cur = v;
    r->tri += 2 * L;
    r->left_c1 = c0;
    r->left_c2 = c3;
    r->left_e1 = 0;
}

/* One strip: counts cell rows j1 - 1, j1 - 2, ... (not below j0) until
 * they hold WK__MSQ_REACH_* (vertices always, triangles and segments when
 * the build makes them) or every row is counted; returns the first row
 * counted, *s their counts. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline)) /* (its row masks off write_rows' frame) */
#endif
static uint32_t count_tail(const wk__msq_job *job, uint32_t j0, uint32_t j1, wk__msq_counts *s) {
    const int T = (job->flags & WK_MSQ_TRIANGLES) != 0, S = (job->flags & WK_MSQ_SEGMENTS) != 0;
    const size_t n = job->cw;
    uint64_t rows[2][WORDS], *lo = rows[0], *hi = rows[1];
    uint64_t vert = 0, tri = 0, seg = 0;
    uint32_t j = j1;
    classify_row(job, j1, 0, n + 1, hi);
    while (j > j0) {
        j--;
        classify_row(job, j, 0, n + 1, lo);
        if (!T) count_row(job, lo, hi, n, j, 0, 0, 1, &vert, &tri, &seg);
        else if (S) count_row(job, lo, hi, n, j, 0, 1, 1, &vert, &tri, &seg);
        else count_row(job, lo, hi, n, j, 0, 1, 0, &vert, &tri, &seg);
        uint64_t *t = lo;
        lo = hi;
        hi = t;
        if (vert >= WK__MSQ_REACH_VERT && (!T || tri >= WK__MSQ_REACH_TRI) && (!S || seg >= WK__MSQ_REACH_SEG)) break;
    }
    s->vert = vert;
    s->tri = tri;
    s->seg = seg;
    return j;
}

static void write_rows(const wk__msq_job *job_, uint32_t j0, uint32_t j1, uint32_t vbase, uint32_t tbase,
                       uint32_t sbase, wk__msq_counts *c) {
    wk__msq_job J = *job_; /* its ends set below when unknown */
    const wk__msq_job *job = &J;
    const int tri = (job->flags & WK_MSQ_TRIANGLES) != 0, seg = (job->flags & WK_MSQ_SEGMENTS) != 0;
    const int cwise = (job->flags & WK_MSQ_CLOCKWISE) != 0;
    wk__msq_row r = {0};
    r.cur = vbase;
    r.tri = tbase;
    r.seg = sbase;
    uint32_t below = 0;
    if (j0 > 0) {
        wk__msq_counts prev = {0, 0, 0};
        count_rows(job, j0 - 1, j0, &prev);
        below = vbase - (uint32_t)prev.vert;
    }
    int one_strip = job->cw <= STRIP;
    strip_rows sr;
    rows_init(&sr);
    if (one_strip) {
        /* One strip: the row below hands its indices over per column. */
        uint32_t cols[C2OFF + STRIP + 16]; /* + 16: run16_block's whole-column loads and stores */
        size_t n = job->cw;
        memset(cols + C2OFF + n, 0, 16 * sizeof(uint32_t));
        /* unknown ends (one pass): rows before the last ones that hold
         * a store's reach have none (UINT32_MAX), those rows the exact
         * ends, set when the first of them starts (wk__msq_job) */
        uint32_t tail_row = j1;
        wk__msq_counts tail = {0, 0, 0};
        if (!job_->ends_known && j0 < j1) {
            tail_row = count_tail(job, j0, j1, &tail);
            J.vert_end = J.tri_end = J.seg_end = UINT32_MAX;
        }
        if (j0 > 0) {
            r.below = below;
            rows_at(job, &sr, j0 - 1, job->ch, 0, n, 1);
            uint32_t col0_c3 = 0;
            for (size_t w = 0; w * 64 < n; w++) {
                cell_words b = words_at(sr.row[0], sr.row[1], w, n);
                for (uint64_t act = active_of(&b, tri); act; act &= act - 1) {
                    size_t i = w * 64 + ctz64(act);
                    below_fast(&r, case_of(sr.row[0], sr.row[1], i), tri, (uint32_t)i, j0);
                    cols[i] = r.below_e2;
                    if (tri) cols[C2OFF + i] = r.below_c2;
                    if (i == 0) col0_c3 = r.below_c3;
                }
            }
            r.below_c3 = col0_c3;
        }
        for (uint32_t j = j0; j < j1; j++) {
            if (j == tail_row) {
                J.vert_end = (uint32_t)(r.cur + tail.vert);
                J.tri_end = (uint32_t)(r.tri + tail.tri);
                J.seg_end = (uint32_t)(r.seg + tail.seg);
            }
            rows_at(job, &sr, j, job->ch, 0, n, 1);
            const uint64_t *lo = sr.row[0], *hi = sr.row[1];
            /* all-solid interior cells (triangles): own c2 only, two triangles */
            const float top = (float)(((double)(job->y0 + j) + 1.0) * job->cell);
            if (!tri && j > 0) {
                seg_row(job, &r, lo, hi, n, j, cols, cols + C2OFF, top, cwise);
                continue;
            }
            if (j > 0) {
                mesh_row(job, &r, lo, hi, n, j, cols, top, seg, cwise);
                continue;
            }
            /* the first row (j == 0): all-solid cells after the first one
             * in stretches (first_row_run), the others one by one */
            for (size_t w = 0; w * 64 < n; w++) {
                cell_words cur = words_at(lo, hi, w, n);
                uint64_t act = active_of(&cur, tri);
                uint64_t full = tri ? cur.l & cur.l1 & cur.u & cur.u1 & cur.valid & (w == 0 ? ~(uint64_t)1 : ~(uint64_t)0) : 0;
                while (act) {
                    unsigned bit = ctz64(act);
                    uint32_t i = (uint32_t)(w * 64 + bit);
                    if (full >> bit & 1) {
                        uint64_t rest = ~(full >> bit); /* stretch length: its trailing ones */
                        unsigned len = rest ? ctz64(rest) : 64u - bit;
                        first_row_run(job, &r, cols, i, len, cwise);
                        act = len + bit >= 64 ? 0 : act & ~((((uint64_t)1 << len) - 1) << bit);
                        continue;
                    }
                    cell_fast(job, &r, case_of(lo, hi, i), i, j, tri, seg, cwise, cols);
                    act &= act - 1;
                }
            }
        }
        c->vert = r.cur - vbase;
        c->tri = r.tri - tbase;
        c->seg = r.seg - sbase;
        return;
    }
    uint64_t prev_act[WORDS]; /* one strip: the previous row's active cells */
    for (uint32_t j = j0; j < j1; j++) {
        r.below = below;
        below = r.cur;
        uint32_t rb = j > 0 ? j - 1 : 0; /* first node row held */
        for (uint32_t s0 = 0; s0 < job->cw; s0 += STRIP) {
            size_t n = job->cw - s0 < STRIP ? job->cw - s0 : STRIP;
            rows_at(job, &sr, rb, job->ch, s0, n, one_strip);
            const uint64_t *lo = sr.row[j - rb], *hi = sr.row[j - rb + 1], *bl = sr.row[0];
            int have_prev = one_strip && j > j0;
            for (size_t w = 0; w * 64 < n; w++) {
                cell_words cur = words_at(lo, hi, w, n);
                uint64_t act = active_of(&cur, tri), act_below = 0;
                if (have_prev) {
                    act_below = prev_act[w];
                } else if (j > 0) {
                    cell_words b = words_at(bl, lo, w, n);
                    act_below = active_of(&b, tri);
                }
                prev_act[w] = act;
                for (uint64_t any = act | act_below; any; any &= any - 1) {
                    unsigned bit = ctz64(any);
                    size_t i = w * 64 + bit;
                    uint32_t gi = (uint32_t)(s0 + i);
                    if (act_below >> bit & 1) below_fast(&r, case_of(bl, lo, i), tri, gi, j);
                    if (act >> bit & 1) cell_fast(job, &r, case_of(lo, hi, i), gi, j, tri, seg, cwise, NULL);
                }
            }
        }
    }
    c->vert = r.cur - vbase;
    c->tri = r.tri - tbase;
    c->seg = r.seg - sbase;
}

const wk__contour_kernels WK_SIMD_NAME(wk__contour_kernels) = {count_rows, write_rows};
