/* The contour family's SIMD path, one source compiled once per ISA.
 *
 * Classification is vectorized: each node row of a strip of cells becomes a
 * bit mask (bit i: node solid, v >= iso, NaN empty), one compare per vector
 * of nodes. Whole-word bit operations then give the cells that need work
 * (any solid corner when triangles are wanted, else mixed cells), and only
 * those go through the shared per-cell code of contour_impl.h, in the same
 * row-major order as the reference, so the output is the same bits. */
#include "core/wk_fp_guard.h"

#include "contour_impl.h"
#include "wk_simd.h"

/* Cells per strip: a row is classified STRIP cells at a time. */
enum { STRIP = 1024, WORDS = STRIP / 64 + 2 };

typedef struct strip_bits {
    uint64_t lo[WORDS], hi[WORDS]; /* node rows j and j + 1 */
} strip_bits;

WK_INLINE void classify_step(const float *p, wk_vf iso, uint64_t *bits, size_t i, size_t m) {
    uint64_t b = wk_vm_bits(wk_vf_ge(wk_vf_load_n(p + i, m), iso));
    if (m < WK_W) b &= ((uint64_t)1 << m) - 1;
    bits[i / 64] |= b << (i % 64);
}

/* bits[] = solid mask of n nodes at p (words past n cleared). */
static void classify(const float *p, size_t n, float iso, uint64_t *bits) {
    for (size_t w = 0; w < WORDS; w++) bits[w] = 0;
    const wk_vf viso = wk_vf_set1(iso);
    WK_VECTOR_LOOP(n, classify_step, p, viso, bits);
}

WK_INLINE uint64_t shr1(const uint64_t *b, size_t w) { return (b[w] >> 1) | (b[w + 1] << 63); }

WK_INLINE unsigned bit_at(const uint64_t *b, size_t i) { return (unsigned)(b[i / 64] >> (i % 64)) & 1u; }

/* Case of cell i from the masks of its lower and upper node rows. */
WK_INLINE unsigned case_of(const uint64_t *lo, const uint64_t *hi, size_t i) {
    return bit_at(lo, i) | bit_at(lo, i + 1) << 1 | bit_at(hi, i + 1) << 2 | bit_at(hi, i) << 3;
}

/* Cells of word w (of n cells) that need work; *full gets the all-solid
 * ones. */
WK_INLINE uint64_t active_word(const uint64_t *lo, const uint64_t *hi, size_t w, size_t n, int tri,
                               uint64_t *full) {
    uint64_t a = lo[w], b = shr1(lo, w), c = hi[w], d = shr1(hi, w);
    uint64_t any = a | b | c | d, all = a & b & c & d;
    size_t first = w * 64;
    uint64_t valid = n - first >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << (n - first)) - 1);
    *full = all & valid;
    return (tri ? any : any & ~all) & valid;
}

static void count_rows(const wk__msq_job *job, uint32_t j0, uint32_t j1, wk__msq_counts *c) {
    int tri = (job->flags & WK_MSQ_TRIANGLES) != 0, seg = (job->flags & WK_MSQ_SEGMENTS) != 0;
    strip_bits sb;
    for (uint32_t j = j0; j < j1; j++) {
        const float *row = job->v + (size_t)j * job->stride;
        for (uint32_t s0 = 0; s0 < job->cw; s0 += STRIP) {
            size_t n = job->cw - s0 < STRIP ? job->cw - s0 : STRIP;
            classify(row + s0, n + 1, job->iso, sb.lo);
            classify(row + job->stride + s0, n + 1, job->iso, sb.hi);
            for (size_t w = 0; w * 64 < n; w++) {
                uint64_t full, act = active_word(sb.lo, sb.hi, w, n, tri, &full);
                if (tri && j > 0) {
                    /* Interior all-solid cells: own c2, two triangles. */
                    uint64_t interior = full;
                    if (s0 == 0 && w == 0) interior &= ~(uint64_t)1;
                    uint64_t k = (uint64_t)__builtin_popcountll(interior);
                    c->vert += k;
                    c->tri += 2 * k;
                    act &= ~interior;
                }
                while (act) {
                    size_t b = (size_t)__builtin_ctzll(act);
                    act &= act - 1;
                    size_t i = w * 64 + b;
                    unsigned cs = case_of(sb.lo, sb.hi, i);
                    c->vert += wk__msq_owned_count(cs, tri, (uint32_t)(s0 + i), j);
                    int connected = 0;
                    if (wk__msq_is_saddle(cs)) {
                        float v[4];
                        wk__msq_values(job, (uint32_t)(s0 + i), j, v);
                        connected = wk__msq_connected(v[0], v[1], v[2], v[3], job->iso);
                    }
                    if (tri) c->tri += (uint64_t)wk__msq_ntri(cs, connected);
                    if (seg) c->seg += (uint64_t)wk__msq_nseg(cs);
                }
            }
        }
    }
}

static void write_rows(const wk__msq_job *job, uint32_t j0, uint32_t j1, uint32_t vbase, uint32_t tbase,
                       uint32_t sbase, wk__msq_counts *c) {
    int tri = (job->flags & WK_MSQ_TRIANGLES) != 0;
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
    uint64_t rows[3][WORDS]; /* node rows j - 1, j, j + 1 of the strip */
    for (uint32_t j = j0; j < j1; j++) {
        r.below = below;
        below = r.cur;
        const float *row = job->v + (size_t)j * job->stride;
        for (uint32_t s0 = 0; s0 < job->cw; s0 += STRIP) {
            size_t n = job->cw - s0 < STRIP ? job->cw - s0 : STRIP;
            if (j > 0) classify(row - job->stride + s0, n + 1, job->iso, rows[0]);
            classify(row + s0, n + 1, job->iso, rows[1]);
            classify(row + job->stride + s0, n + 1, job->iso, rows[2]);
            for (size_t w = 0; w * 64 < n; w++) {
                uint64_t full, act = active_word(rows[1], rows[2], w, n, tri, &full);
                uint64_t act_below = j > 0 ? active_word(rows[0], rows[1], w, n, tri, &full) : 0;
                uint64_t any = act | act_below;
                while (any) {
                    size_t b = (size_t)__builtin_ctzll(any);
                    any &= any - 1;
                    size_t i = w * 64 + b;
                    uint32_t gi = (uint32_t)(s0 + i);
                    if (act_below >> b & 1) wk__msq_below_step(&r, case_of(rows[0], rows[1], i), tri, gi, j);
                    if (act >> b & 1) {
                        float v[4];
                        wk__msq_values(job, gi, j, v);
                        wk__msq_cell(job, &r, case_of(rows[1], rows[2], i), v, gi, j);
                    }
                }
            }
        }
    }
    c->vert = r.cur - vbase;
    c->tri = r.tri - tbase;
    c->seg = r.seg - sbase;
}

const wk__contour_kernels WK_SIMD_NAME(wk__contour_kernels) = {count_rows, write_rows};
