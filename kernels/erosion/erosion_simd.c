/* Thermal erosion's SIMD paths, one source compiled once per ISA: cells of a
 * row across the vector lanes, the reference's operations in its order, so
 * every ISA returns the reference's bits.
 *
 * Pass 2 needs, per neighbour n of a cell c, whether n is higher by more
 * than the talus: h[n] - h[c] > talus. That is exactly the test pass 1 ran
 * for n towards its neighbour c (n's d = h[n] - h[c]: the same subtraction of
 * the same operands). On AVX-512, pass 1 records its 8 "lower" masks as one
 * byte per cell (bit k: lower towards neighbour k) and pass 2 tests bit 7 - k
 * of neighbour n's byte, one column left or right for diagonal and
 * horizontal neighbours, instead of subtracting and comparing again; the
 * shares of the columns left and right come from aligned vectors by lane
 * shifts (a misaligned 64-byte load straddles two cache lines). Elsewhere
 * pass 2 recomputes the masks (on AVX2 a mask byte costs more to build and
 * to test than the subtraction and compare it saves: no mask registers).
 * On AVX-512 and AVX2 both passes take the rows of a driver step together,
 * column by column (see share_sums, gather_rows / gather_col).
 * The count of lower neighbours is kept in integers (exact, and off the
 * float adders: on AVX-512 the bits set in the mask byte), then looked up
 * as a float: equal to the reference's float count; the reference's
 * count * (count + 1) * 2 (1 when count is 0), exact small integers, comes
 * from a table of those 9 values. */
#include "core/wk_fp_guard.h"

#include "erosion_impl.h"
#include "wk_simd.h"

/* The row loops (over rows or rows + 2) have compile-time trip counts once
 * share_rows and gather_rows are inlined with a constant row count; unrolled
 * in full, their arrays of vectors stay in registers. GCC does that with
 * "GCC unroll 8" (FOR_ROWS: a loop). Clang 14 kept some of those loops
 * rolled even when asked for a full unroll (AVX2: both passes' per-row
 * vectors on the stack; AVX-512: pass 2's 4-row step), so under clang
 * FOR_ROWS spells the rows out, each behind a constant test (k < rows). */
#if defined(__clang__)
#define ROW_(k, j, count, ...)      \
    if ((j) < (count)) {            \
        const size_t k = (j);       \
        (void)k;                    \
        __VA_ARGS__;                \
    }
/* rows (up to 4) and rows + 2 (up to 6) */
#define FOR_ROWS(k, count, ...)                                                                                    \
    do {                                                                                                           \
        ROW_(k, 0, count, __VA_ARGS__) ROW_(k, 1, count, __VA_ARGS__) ROW_(k, 2, count, __VA_ARGS__)              \
        ROW_(k, 3, count, __VA_ARGS__)                                                                             \
    } while (0)
#define FOR_ROWS2(k, count, ...)                                                                                   \
    do {                                                                                                           \
        FOR_ROWS(k, count, __VA_ARGS__);                                                                           \
        ROW_(k, 4, count, __VA_ARGS__) ROW_(k, 5, count, __VA_ARGS__)                                              \
    } while (0)
_Static_assert(WK__EROSION_MAX_ROWS == 4, "FOR_ROWS spells out 4 rows");
#else
#define WK_UNROLL_ROWS _Pragma("GCC unroll 8")
#define FOR_ROWS(k, count, ...) WK_UNROLL_ROWS for (size_t k = 0; k < (count); k++) { __VA_ARGS__; }
#define FOR_ROWS2 FOR_ROWS
#endif

#if defined(WK_SIMD_AVX512) || !defined(WK_SIMD_AVX2) /* (AVX2 has its own 8-entry tables) */
/* den[count] = count * (count + 1) * 2 as float bits, 1.0f for count 0. */
static const uint32_t DEN_BITS[16] = {0x3f800000u, 0x40800000u, 0x41400000u, 0x41c00000u, 0x42200000u, 0x42700000u,
                                      0x42a80000u, 0x42e00000u, 0x43100000u, 0x3f800000u, 0x3f800000u, 0x3f800000u,
                                      0x3f800000u, 0x3f800000u, 0x3f800000u, 0x3f800000u};
#endif

#if defined(WK_SIMD_AVX512)
#define MASK_BYTES_PATH 1
/* count as float bits (0 .. 8). */
static const uint32_t COUNT_BITS[16] = {0x00000000u, 0x3f800000u, 0x40000000u, 0x40400000u, 0x40800000u, 0x40a00000u,
                                        0x40c00000u, 0x40e00000u, 0x41000000u, 0, 0, 0, 0, 0, 0, 0};
/* AVX-512 only (mask registers and byte-granular masked moves; the other
 * ISAs recompute the masks), so these few helpers use its intrinsics
 * directly: mask bytes, their bit counts, lane shifts. */
/* bits with bit `bit` set in the bytes of the lanes in `lower` (a masked
 * byte add of a bit that is still clear). */
WK_INLINE __m128i set_bit(__m128i bits, wk_vm lower, int bit) {
    return _mm_mask_add_epi8(bits, lower, bits, _mm_set1_epi8((char)(1 << bit)));
}
/* Bits set in each byte (0 .. 8): one byte popcount in the VBMI variant
 * (which core picks only with AVX512_BITALG too), else by nibble lookups
 * (6 operations; 10% of pass 1's time on Zen 4, whose vector pipes pass 1
 * fills). */
WK_INLINE __m128i count_bits(__m128i bits) {
#if defined(WK_SIMD_VBMI)
    return _mm_popcnt_epi8(bits);
#else
    const __m128i nib = _mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4), low4 = _mm_set1_epi8(0x0f);
    return _mm_add_epi8(_mm_shuffle_epi8(nib, _mm_and_si128(bits, low4)),
                        _mm_shuffle_epi8(nib, _mm_and_si128(_mm_srli_epi16(bits, 4), low4)));
#endif
}
WK_INLINE wk_vi count_to_vi(__m128i count) { return _mm512_cvtepu8_epi32(count); }
/* The lanes of 16 cells whose byte has bit `bit` set (the bytes second, so
 * that the load folds into the test). */
WK_INLINE wk_vm mask_bit(const uint8_t *p, int bit) {
    wk_vm m = _mm_test_epi8_mask(_mm_set1_epi8((char)(1 << bit)), _mm_loadu_si128((const __m128i *)(const void *)p));
#if defined(__clang__)
    /* Clang 14 turns a masked add under a bit test (x & b != 0) into a
     * blend under the inverted test (vptestnmb, an unmasked add, a masked
     * move: one more operation per neighbour); an opaque mask keeps the
     * masked add. */
    __asm__("" : "+k"(m));
#endif
    return m;
}
WK_INLINE wk_vf lanes_from_prev(wk_vf prev, wk_vf cur) { /* prev[15], cur[0..14] */
    return _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(cur), _mm512_castps_si512(prev), 15));
}
WK_INLINE wk_vf lanes_from_next(wk_vf cur, wk_vf next) { /* cur[1..15], next[0] */
    return _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(next), _mm512_castps_si512(cur), 1));
}
#else
#define MASK_BYTES_PATH 0
#endif

/* ------------------------------------------------------------- pass 1 */

#if MASK_BYTES_PATH
/* Rows of one call go down a column of 16 cells together: each height row
 * is loaded once per column (at i-1, i, i+1) for the up to three rows that
 * read it, and the difference between a cell and the cell below, d6, gives
 * the next row's difference with the cell above, d1 = -d6, exactly (a - b
 * rounds to -(b - a)): that row tests d6 < -talus and subtracts d6 from its
 * sum, the same bits as testing d1 > talus and adding d1 (x - y is x + -y;
 * a zero d1 is never added, as talus >= 0). */
/* What pass 1 carries from a column's sums to its shares. */
typedef struct share_state {
    wk_vf sum[WK__EROSION_MAX_ROWS], hc[WK__EROSION_MAX_ROWS];
    __m128i bits[WK__EROSION_MAX_ROWS]; /* bit k of a cell's byte: lower towards neighbour k */
} share_state;

/* The sums, and the mask bytes (stored), of the column at i for the rows. */
WK_INLINE void share_sums(const float *const *h, uint8_t *const *masks, float talus, size_t rows, size_t i, size_t m,
                          share_state *st) {
    const wk_vf vtalus = wk_vf_set1(talus), ntalus = wk_vf_set1(-talus);
    wk_vf lf[WK__EROSION_MAX_ROWS + 2], ce[WK__EROSION_MAX_ROWS + 2], rt[WK__EROSION_MAX_ROWS + 2];
    FOR_ROWS2(q, rows + 2,
        lf[q] = wk_vf_load_n(h[q] + i - 1, m);
        ce[q] = wk_vf_load_n(h[q] + i, m);
        rt[q] = wk_vf_load_n(h[q] + i + 1, m);
    );
    /* The rows' sums are chains of dependent adds: interleaved direction by
     * direction, so that the rows' chains overlap. */
    wk_vf sum[WK__EROSION_MAX_ROWS], below[WK__EROSION_MAX_ROWS];
    __m128i cb[WK__EROSION_MAX_ROWS];
    FOR_ROWS(k, rows, below[k] = wk_vf_sub(ce[k + 1], ce[k + 2])); /* d6: the next row's d1 = -d6 */
    /* The first direction starts the sums and the mask bytes by masked moves
     * instead of adds to zeros, off the float adders (and 2 cycles shorter
     * on the chain): +0.0f + d is d, as a lower d is > talus >= 0. */
    FOR_ROWS(k, rows,
        wk_vf d_ = wk_vf_sub(ce[k + 1], lf[k]);
        wk_vm lower_ = wk_vf_gt(d_, vtalus);
        sum[k] = _mm512_maskz_mov_ps(lower_, d_);
        cb[k] = _mm_maskz_mov_epi8(lower_, _mm_set1_epi8(1 << 0));
    );
#define STEP_D(nb, dir)                                                 \
    do {                                                                \
        FOR_ROWS(k, rows,     \
            wk_vf d_ = wk_vf_sub(ce[k + 1], (nb));                      \
            wk_vm lower_ = wk_vf_gt(d_, vtalus);                        \
            sum[k] = wk_vf_add_mask(sum[k], lower_, d_);                \
            cb[k] = set_bit(cb[k], lower_, dir);                        \
        );                                                               \
    } while (0)
    FOR_ROWS(k, rows,
        if (k == 0) {
            wk_vf d_ = wk_vf_sub(ce[1], ce[0]);
            wk_vm lower_ = wk_vf_gt(d_, vtalus);
            sum[0] = wk_vf_add_mask(sum[0], lower_, d_);
            cb[0] = set_bit(cb[0], lower_, 1);
        } else {
            wk_vm lower_ = wk_vf_lt(below[k - 1], ntalus);
            sum[k] = _mm512_mask_sub_ps(sum[k], lower_, sum[k], below[k - 1]);
            cb[k] = set_bit(cb[k], lower_, 1);
        }
    );
    STEP_D(rt[k], 2);
    STEP_D(lf[k + 1], 3);
    STEP_D(rt[k + 1], 4);
    STEP_D(lf[k + 2], 5);
    FOR_ROWS(k, rows,
        wk_vm lower_ = wk_vf_gt(below[k], vtalus);
        sum[k] = wk_vf_add_mask(sum[k], lower_, below[k]);
        cb[k] = set_bit(cb[k], lower_, 6);
    );
    STEP_D(rt[k + 2], 7);
#undef STEP_D
    FOR_ROWS(k, rows,
        _mm_storeu_si128((__m128i *)(void *)(masks[k] + 16 + i), cb[k]);
        st->sum[k] = sum[k];
        st->hc[k] = ce[k + 1];
        st->bits[k] = cb[k];
    );
}

/* The shares and heights minus what is given of the column at i. */
WK_INLINE void share_finish(float *const *s, float *const *p, float talus, wk_lut16 den_lut, wk_lut16 count_lut,
                            size_t rows, size_t i, size_t m, const share_state *st) {
    const wk_vf vtalus = wk_vf_set1(talus);
    FOR_ROWS(k, rows,
        wk_vi icount = count_to_vi(count_bits(st->bits[k]));
        wk_vf countf = wk_vi_as_vf(wk_lut16_get(count_lut, icount)); /* a lookup: off the float adders */
        wk_vf excess = wk_vf_sub(st->sum[k], wk_vf_mul(countf, vtalus));
        wk_vf den = wk_vi_as_vf(wk_lut16_get(den_lut, icount));
        wk_vf share = wk_vf_div(excess, den);
        wk_vf_store_n(s[k] + i, share, m);
        wk_vf_store_n(p[k] + i, wk_vf_sub(st->hc[k], wk_vf_mul(share, countf)), m);
    );
}

/* One call's rows as a compile-time count, so that the row loops unroll and
 * the loaded rows stay in registers. Software-pipelined by one column: the
 * shares of a column (a division and a few dependent steps after the sums'
 * chains) are computed after the next column's sums, so that they overlap.
 * A last partial vector writes the mask bytes of its lanes past n as 0
 * (those lanes compare 0 > talus and 0 < -talus, both false); the zero
 * bytes before and after a record are the driver's. */
WK_INLINE void share_rows(const float *const *h, size_t rows, size_t n, float talus, float *const *s,
                          float *const *p, uint8_t *const *masks) {
    const wk_lut16 den_lut = wk_lut16_load(DEN_BITS), count_lut = wk_lut16_load(COUNT_BITS);
    /* local copies: the mask byte stores may alias anything, which would
     * reload the pointers */
    const float *hl[WK__EROSION_MAX_ROWS + 2];
    float *sl[WK__EROSION_MAX_ROWS], *pl[WK__EROSION_MAX_ROWS];
    uint8_t *ml[WK__EROSION_MAX_ROWS];
    FOR_ROWS2(q, rows + 2, hl[q] = h[q]);
    FOR_ROWS(k, rows, sl[k] = s[k], pl[k] = p[k], ml[k] = masks[k]);
    size_t i = 0;
    if (n >= 16) {
        share_state prev, cur;
        share_sums(hl, ml, talus, rows, 0, 16, &prev);
        for (i = 16; i + 16 <= n; i += 16) {
            share_sums(hl, ml, talus, rows, i, 16, &cur);
            share_finish(sl, pl, talus, den_lut, count_lut, rows, i - 16, 16, &prev);
            prev = cur;
        }
        share_finish(sl, pl, talus, den_lut, count_lut, rows, i - 16, 16, &prev);
    }
    if (i < n) {
        share_state last;
        share_sums(hl, ml, talus, rows, i, n - i, &last);
        share_finish(sl, pl, talus, den_lut, count_lut, rows, i, n - i, &last);
    }
}

#elif defined(WK_SIMD_AVX2)
/* AVX2: the rows of one call go down a column of 8 cells together, as on
 * AVX-512, direction by direction, so that the two rows' chains of dependent
 * adds overlap; the next row's d1 is -d6 of the row above, exactly (a - b
 * rounds to -(b - a)): it tests d6 < -talus and subtracts d6. No mask
 * registers: a compare gives a lane mask, and the sum adds d & mask, +0 in
 * the lanes not lower; adding (or subtracting) +0 leaves every value but -0
 * unchanged, and the sum is never -0 (it starts at +0.0f and only adds
 * d > talus >= 0, so d > 0; NaN and Inf differences behave as in the
 * reference: a NaN d is never lower, an Inf one adds Inf). The first term
 * needs no add (+0.0f + d is d; +0 where not lower, the reference's start).
 * The count is the sum of the lane masks (-1 each), in integers. */
/* Pins a vector's value in a register at this point of the program order:
 * a scheduling hint only (GCC otherwise computes every direction's masked
 * difference first and then runs the chain of adds, spilling them). */
#if defined(__GNUC__) || defined(__clang__)
#define KEEP(v) __asm__ volatile("" : "+x"(v))
#else
#define KEEP(v) ((void)0)
#endif

/* What pass 1 carries from a column's sums to its shares. */
typedef struct share_state2 {
    __m256 sum[WK__EROSION_MAX_ROWS], hc[WK__EROSION_MAX_ROWS];
    __m256i nc[WK__EROSION_MAX_ROWS]; /* minus the count: the sum of the lane masks (-1 each) */
} share_state2;

/* The sums and counts of the column at i for the rows: direction by
 * direction, the rows' chains of dependent adds interleaved so that they
 * overlap (and the neighbours are read from memory as the subtractions'
 * operands, a height row once per column and direction). */
WK_INLINE void share_sums(const float *const *h, float talus, size_t rows, size_t i, size_t m, share_state2 *st) {
    const __m256 vtalus = _mm256_set1_ps(talus), ntalus = _mm256_set1_ps(-talus);
    __m256 ce[WK__EROSION_MAX_ROWS + 2], sum[WK__EROSION_MAX_ROWS], below[WK__EROSION_MAX_ROWS];
    __m256i nc[WK__EROSION_MAX_ROWS];
    FOR_ROWS2(q, rows + 2, ce[q] = wk_vf_load_n(h[q] + i, m));
    FOR_ROWS(k, rows,
        __m256 d = _mm256_sub_ps(ce[k + 1], wk_vf_load_n(h[k] + i - 1, m));
        __m256 mk = _mm256_cmp_ps(d, vtalus, _CMP_GT_OQ);
        sum[k] = _mm256_and_ps(d, mk); /* +0.0f + d is d */
        nc[k] = _mm256_castps_si256(mk);
        below[k] = _mm256_sub_ps(ce[k + 1], ce[k + 2]); /* d6; the next row's d1 = -d6 */
    );
    FOR_ROWS(k, rows,
        __m256 mk;
        if (k == 0) {
            __m256 d = _mm256_sub_ps(ce[1], ce[0]);
            mk = _mm256_cmp_ps(d, vtalus, _CMP_GT_OQ);
            sum[0] = _mm256_add_ps(sum[0], _mm256_and_ps(d, mk));
        } else {
            mk = _mm256_cmp_ps(below[k - 1], ntalus, _CMP_LT_OQ);
            sum[k] = _mm256_sub_ps(sum[k], _mm256_and_ps(below[k - 1], mk));
        }
        nc[k] = _mm256_add_epi32(nc[k], _mm256_castps_si256(mk));
        KEEP(sum[k]); KEEP(nc[k]);
    );
#define STEP_D(q, dx)                                                               \
    FOR_ROWS(k, rows,                      \
        __m256 d_ = _mm256_sub_ps(ce[k + 1], wk_vf_load_n(h[k + (q)] + i + (dx), m)); \
        __m256 mk_ = _mm256_cmp_ps(d_, vtalus, _CMP_GT_OQ);                          \
        sum[k] = _mm256_add_ps(sum[k], _mm256_and_ps(d_, mk_));                      \
        nc[k] = _mm256_add_epi32(nc[k], _mm256_castps_si256(mk_));                   \
        KEEP(sum[k]); KEEP(nc[k]);                                                                \
    );
    STEP_D(0, 1)
    STEP_D(1, -1)
    STEP_D(1, 1)
    STEP_D(2, -1)
    FOR_ROWS(k, rows,
        __m256 mk = _mm256_cmp_ps(below[k], vtalus, _CMP_GT_OQ);
        sum[k] = _mm256_add_ps(sum[k], _mm256_and_ps(below[k], mk));
        nc[k] = _mm256_add_epi32(nc[k], _mm256_castps_si256(mk));
        KEEP(sum[k]); KEEP(nc[k]);
    );
    STEP_D(2, 1)
#undef STEP_D
    FOR_ROWS(k, rows, st->sum[k] = sum[k], st->hc[k] = ce[k + 1], st->nc[k] = nc[k]);
}

/* The shares and heights minus what is given of the column at i. */
/* Two 8-entry tables indexed by minus the count (vpermd reads the low 3
 * bits: -c & 7, counts 0 and 8 share entry 0). A count of 0 has the sum
 * +0 and so the excess +0 (+0 + +0 * talus), and the share +0 / den is +0
 * for any den > 0, and hc - +0 * countf is hc for any finite countf: so
 * entry 0 holds count 8's den (144) and count 8, exact for both. The
 * excess adds (-count) * talus, the reference's sum - count * talus
 * exactly (a product's negation is exact, and x + -y is x - y); for count
 * 0 both are +0. */
static const uint32_t DEN8_BITS[8] = {0x43100000u /* 144: c = 8 (or 0) */, 0x42e00000u /* 112: c = 7 */,
                                      0x42a80000u /* 84 */, 0x42700000u /* 60 */, 0x42200000u /* 40 */,
                                      0x41c00000u /* 24 */, 0x41400000u /* 12 */, 0x40800000u /* 4: c = 1 */};
static const uint32_t COUNT8_BITS[8] = {0x41000000u /* 8 (or 0) */, 0x40e00000u, 0x40c00000u, 0x40a00000u,
                                        0x40800000u, 0x40400000u, 0x40000000u, 0x3f800000u /* 1 */};

WK_INLINE void share_finish(float *const *s, float *const *p, float talus, __m256i den8, __m256i count8,
                            size_t rows, size_t i, size_t m, const share_state2 *st) {
    const __m256 vtalus = _mm256_set1_ps(talus);
    FOR_ROWS(k, rows,
        __m256 ncountf = _mm256_cvtepi32_ps(st->nc[k]);
        __m256 excess = _mm256_add_ps(st->sum[k], _mm256_mul_ps(ncountf, vtalus));
        __m256 den = _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(den8, st->nc[k]));
        __m256 countf = _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(count8, st->nc[k]));
        __m256 share = _mm256_div_ps(excess, den);
        wk_vf_store_n(s[k] + i, share, m);
        wk_vf_store_n(p[k] + i, _mm256_sub_ps(st->hc[k], _mm256_mul_ps(share, countf)), m);
    );
}

/* (Software-pipelining by one column, as on AVX-512, measured no faster
 * here: it only adds register copies.) */
WK_INLINE void share_rows(const float *const *h, size_t rows, size_t n, float talus, float *const *s,
                          float *const *p, uint8_t *const *masks) {
    (void)masks; /* AVX2 recomputes the height tests in pass 2 */
    const __m256i den8 = _mm256_loadu_si256((const __m256i *)(const void *)DEN8_BITS),
                  count8 = _mm256_loadu_si256((const __m256i *)(const void *)COUNT8_BITS);
    const float *hl[WK__EROSION_MAX_ROWS + 2];
    float *sl[WK__EROSION_MAX_ROWS], *pl[WK__EROSION_MAX_ROWS];
    FOR_ROWS2(q, rows + 2, hl[q] = h[q]);
    FOR_ROWS(k, rows, sl[k] = s[k], pl[k] = p[k]);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        share_state2 cur;
        share_sums(hl, talus, rows, i, 8, &cur);
        share_finish(sl, pl, talus, den8, count8, rows, i, 8, &cur);
    }
    if (i < n) {
        share_state2 last;
        share_sums(hl, talus, rows, i, n - i, &last);
        share_finish(sl, pl, talus, den8, count8, rows, i, n - i, &last);
    }
}

#else
/* One neighbour k of pass 1: d = hc - hn; lanes with d > talus add d and 1. */
#define SHARE_STEP(hn_ptr)                                   \
    do {                                                     \
        wk_vf d_ = wk_vf_sub(hc, wk_vf_load_n((hn_ptr), m)); \
        wk_vm lower_ = wk_vf_gt(d_, vtalus);                 \
        sum = wk_vf_add_mask(sum, lower_, d_);               \
        count = wk_vi_inc_mask(count, lower_);               \
    } while (0)

WK_INLINE void share_vec(const float *up, const float *mid, const float *dn, float talus, float *s, float *p,
                         wk_lut16 den_lut, size_t i, size_t m) {
    const wk_vf vtalus = wk_vf_set1(talus);
    wk_vi count = wk_vi_set1(0);
    const wk_vf hc = wk_vf_load_n(mid + i, m);
    wk_vf sum = wk_vf_set1(0.0f);
    SHARE_STEP(up + i - 1);
    SHARE_STEP(up + i);
    SHARE_STEP(up + i + 1);
    SHARE_STEP(mid + i - 1);
    SHARE_STEP(mid + i + 1);
    SHARE_STEP(dn + i - 1);
    SHARE_STEP(dn + i);
    SHARE_STEP(dn + i + 1);
    wk_vf countf = wk_vf_from_vi_s(count);
    wk_vf excess = wk_vf_sub(sum, wk_vf_mul(countf, vtalus));
    wk_vf den = wk_vi_as_vf(wk_lut16_get(den_lut, count));
    wk_vf share = wk_vf_div(excess, den);
    wk_vf_store_n(s + i, share, m);
    wk_vf_store_n(p + i, wk_vf_sub(hc, wk_vf_mul(share, countf)), m);
}

static void share(const float *const *h, size_t rows, size_t n, float talus, float *const *s, float *const *p,
                  uint8_t *const *masks) {
    (void)masks;
    const wk_lut16 den_lut = wk_lut16_load(DEN_BITS);
    for (size_t k = 0; k < rows; k++) {
        const float *up = h[k], *mid = h[k + 1], *dn = h[k + 2];
        float *sk = s[k], *pk = p[k];
        WK_VECTOR_LOOP(n, share_vec, up, mid, dn, talus, sk, pk, den_lut);
    }
}
#endif

#if MASK_BYTES_PATH || defined(WK_SIMD_AVX2)
/* The rows of a driver step in pairs, a last odd row alone: each call's row
 * count is a compile-time constant, so that the row loops unroll and the
 * loaded rows stay in registers. */
static void share(const float *const *h, size_t rows, size_t n, float talus, float *const *s, float *const *p,
                  uint8_t *const *masks) {
    size_t k = 0;
    for (; k + 2 <= rows; k += 2) share_rows(h + k, 2, n, talus, s + k, p + k, masks + k);
    if (k < rows) share_rows(h + k, 1, n, talus, s + k, p + k, masks + k);
}
#endif

/* ------------------------------------------------------------- pass 2 */

#if MASK_BYTES_PATH
/* Elements [i, i + 16) of a padded share row of n cells (element n is
 * readable); lanes past element n read as 0. */
WK_INLINE wk_vf load_span(const float *s, size_t i, size_t n) {
    return i + 16 <= n + 1 ? wk_vf_loadu(s + i) : i <= n ? wk_vf_load_part(s + i, n + 1 - i) : wk_vf_set1(0.0f);
}

/* Neighbour n of this cell that sees this cell as its neighbour q, in mask
 * record `mrow`, dx columns away: its lower mask towards this cell. */
#define HIGHER(mrow, q, dx) mask_bit((mrow) + 16 + i + (dx), q)

/* The rows of one call go down each column of 16 cells together: each share
 * row is loaded and shifted left and right once for the up to three rows
 * that read it. */
WK_INLINE void gather_rows(const float *const *h, const float *const *shp, const uint8_t *const *mrp,
                           const float *const *pp, size_t rows, size_t n, float talus, float *const *outp) {
    (void)h, (void)talus; /* the mask bytes hold the height tests */
    const float *sh[WK__EROSION_MAX_ROWS + 2], *p[WK__EROSION_MAX_ROWS];
    const uint8_t *mr[WK__EROSION_MAX_ROWS + 2];
    float *out[WK__EROSION_MAX_ROWS];
    FOR_ROWS2(q, rows + 2, sh[q] = shp[q], mr[q] = mrp[q]);
    FOR_ROWS(k, rows, p[k] = pp[k], out[k] = outp[k]);
    wk_vf s0[WK__EROSION_MAX_ROWS + 2], s1[WK__EROSION_MAX_ROWS + 2];
    FOR_ROWS2(q, rows + 2,
        s0[q] = wk_vf_set1(sh[q][-1]);
        s1[q] = load_span(sh[q], 0, n);
    );
    for (size_t i = 0; i < n; i += 16) {
        const size_t m = n - i < 16 ? n - i : 16;
        wk_vf lf[WK__EROSION_MAX_ROWS + 2], rt[WK__EROSION_MAX_ROWS + 2];
        FOR_ROWS2(q, rows + 2,
            wk_vf s2 = load_span(sh[q], i + 16, n);
            lf[q] = lanes_from_prev(s0[q], s1[q]);
            rt[q] = lanes_from_next(s1[q], s2);
            s0[q] = s1[q];
            s1[q] = s2;
        );
        /* each row's received is a chain of dependent adds: interleaved
         * direction by direction, so that the rows' chains overlap;
         * neighbour d of a cell sees the cell as its neighbour 7 - d. The
         * first term is a blend, off the float adders: -0.0f + s is s for
         * every s, and -0.0f stays where the neighbour is not higher. */
        wk_vf received[WK__EROSION_MAX_ROWS];
#define GATHER_D(q, dir, dx, sv)                                                                            \
    FOR_ROWS(k, rows, received[k] =                                 \
        dir == 7 ? wk_vf_select(HIGHER(mr[k + (q)], dir, dx), (sv), wk_vf_set1(-0.0f))                      \
                 : wk_vf_add_mask(received[k], HIGHER(mr[k + (q)], dir, dx), (sv)));
        GATHER_D(0, 7, -1, lf[k])
        GATHER_D(0, 6, 0, s0[k])
        GATHER_D(0, 5, 1, rt[k])
        GATHER_D(1, 4, -1, lf[k + 1])
        GATHER_D(1, 3, 1, rt[k + 1])
        GATHER_D(2, 2, -1, lf[k + 2])
        GATHER_D(2, 1, 0, s0[k + 2])
        GATHER_D(2, 0, 1, rt[k + 2])
#undef GATHER_D
        FOR_ROWS(k, rows,
            wk_vf_store_n(out[k] + i, wk_vf_add(wk_vf_load_n(p[k] + i, m), received[k]), m));
    }
}

#elif defined(WK_SIMD_AVX2)
/* AVX2: the rows of one call go down a column of 8 cells together: each
 * height and share row is loaded once per column (at i-1, i, i+1) for the up
 * to three rows that read it; the vertical difference between two rows,
 * v = h[k+2][i] - h[k+1][i], is the upper row's down test (v > talus) and
 * the lower row's up test (-v > talus, i.e. v < -talus, exactly). The
 * received sum starts at -0.0f, and x + -0.0f is x for every x (+0, -0,
 * NaN and Inf included), so each step adds the share where the neighbour is
 * higher and -0.0f elsewhere: the same bits as the reference's conditional
 * add, and the blend stays off the chain of dependent adds. The first term
 * is the blend alone (-0.0f + s is s). */
WK_INLINE void gather_col(const float *const *h, const float *const *sh, const float *const *p, float talus,
                          float *const *out, size_t rows, size_t i, size_t m) {
    const __m256 vtalus = _mm256_set1_ps(talus), ntalus = _mm256_set1_ps(-talus), nzero = _mm256_set1_ps(-0.0f);
    __m256 hm[WK__EROSION_MAX_ROWS + 2], r[WK__EROSION_MAX_ROWS], vdn[WK__EROSION_MAX_ROWS];
    FOR_ROWS2(q, rows + 2, hm[q] = wk_vf_load_n(h[q] + i, m));
    /* direction by direction, the rows' chains of dependent adds
     * interleaved so that they overlap */
    FOR_ROWS(k, rows,
        __m256 mk = _mm256_cmp_ps(_mm256_sub_ps(wk_vf_load_n(h[k] + i - 1, m), hm[k + 1]), vtalus, _CMP_GT_OQ);
        r[k] = _mm256_blendv_ps(nzero, wk_vf_load_n(sh[k] + i - 1, m), mk);
        vdn[k] = _mm256_sub_ps(hm[k + 2], hm[k + 1]); /* below minus centre */
    );
    FOR_ROWS(k, rows,
        __m256 mk = k == 0 ? _mm256_cmp_ps(_mm256_sub_ps(hm[0], hm[1]), vtalus, _CMP_GT_OQ)
                           : _mm256_cmp_ps(vdn[k - 1], ntalus, _CMP_LT_OQ);
        r[k] = _mm256_add_ps(r[k], _mm256_blendv_ps(nzero, wk_vf_load_n(sh[k] + i, m), mk));
    );
#define STEP_G(q, dx)                                                                                       \
    FOR_ROWS(k, rows,                                              \
        __m256 mk_ =                                                                                        \
            _mm256_cmp_ps(_mm256_sub_ps(wk_vf_load_n(h[k + (q)] + i + (dx), m), hm[k + 1]), vtalus, _CMP_GT_OQ); \
        r[k] = _mm256_add_ps(r[k], _mm256_blendv_ps(nzero, wk_vf_load_n(sh[k + (q)] + i + (dx), m), mk_));    \
    );
    STEP_G(0, 1)
    STEP_G(1, -1)
    STEP_G(1, 1)
    STEP_G(2, -1)
    FOR_ROWS(k, rows,
        __m256 mk = _mm256_cmp_ps(vdn[k], vtalus, _CMP_GT_OQ);
        r[k] = _mm256_add_ps(r[k], _mm256_blendv_ps(nzero, wk_vf_load_n(sh[k + 2] + i, m), mk));
    );
    STEP_G(2, 1)
#undef STEP_G
    FOR_ROWS(k, rows,
        wk_vf_store_n(out[k] + i, _mm256_add_ps(wk_vf_load_n(p[k] + i, m), r[k]), m));
}

WK_INLINE void gather_rows(const float *const *h, const float *const *sh, const uint8_t *const *m,
                           const float *const *p, size_t rows, size_t n, float talus, float *const *out) {
    (void)m; /* AVX2 recomputes the height tests */
    /* this step's row pointers in local arrays, indexed by constants in gather_col */
    const float *hl[WK__EROSION_MAX_ROWS + 2], *sl[WK__EROSION_MAX_ROWS + 2], *pl[WK__EROSION_MAX_ROWS];
    float *ol[WK__EROSION_MAX_ROWS];
    FOR_ROWS2(q, rows + 2, hl[q] = h[q], sl[q] = sh[q]);
    FOR_ROWS(k, rows, pl[k] = p[k], ol[k] = out[k]);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) gather_col(hl, sl, pl, talus, ol, rows, i, 8);
    if (i < n) gather_col(hl, sl, pl, talus, ol, rows, i, n - i);
}
#else
/* One neighbour of pass 2: lanes whose neighbour is higher by more than
 * talus receive its share. */
#define GATHER_STEP(hn_ptr, sn_ptr)                                                                    \
    received = wk_vf_add_mask(received, wk_vf_gt(wk_vf_sub(wk_vf_load_n((hn_ptr), m), hc), vtalus), \
                              wk_vf_load_n((sn_ptr), m))

WK_INLINE void gather_vec(const float *hup, const float *hmid, const float *hdn, const float *sup,
                          const float *smid, const float *sdn, const float *p, float talus, float *out, size_t i,
                          size_t m) {
    const wk_vf vtalus = wk_vf_set1(talus);
    const wk_vf hc = wk_vf_load_n(hmid + i, m);
    wk_vf received = wk_vf_set1(-0.0f);
    GATHER_STEP(hup + i - 1, sup + i - 1);
    GATHER_STEP(hup + i, sup + i);
    GATHER_STEP(hup + i + 1, sup + i + 1);
    GATHER_STEP(hmid + i - 1, smid + i - 1);
    GATHER_STEP(hmid + i + 1, smid + i + 1);
    GATHER_STEP(hdn + i - 1, sdn + i - 1);
    GATHER_STEP(hdn + i, sdn + i);
    GATHER_STEP(hdn + i + 1, sdn + i + 1);
    wk_vf_store_n(out + i, wk_vf_add(wk_vf_load_n(p + i, m), received), m);
}

static void gather(const float *const *h, const float *const *sh, const uint8_t *const *m, const float *const *p,
                   size_t rows, size_t n, float talus, float *const *out) {
    (void)m;
    for (size_t k = 0; k < rows; k++) {
        const float *hup = h[k], *hmid = h[k + 1], *hdn = h[k + 2], *sup = sh[k], *smid = sh[k + 1], *sdn = sh[k + 2];
        const float *pk = p[k];
        float *outk = out[k];
        WK_VECTOR_LOOP(n, gather_vec, hup, hmid, hdn, sup, smid, sdn, pk, talus, outk);
    }
}
#endif

#if MASK_BYTES_PATH || defined(WK_SIMD_AVX2)
/* The rows of a driver step in pairs, as for pass 1 (share); on AVX-512 a
 * whole step of 4 rows in one sweep (6 share rows loaded and lane-shifted
 * for 4 rows, rather than 4 for 2: 11.6 rather than 12.5 cycles per 16
 * cells and row on Zen 4). Pass 1 stays in pairs: with 4 rows its live
 * vectors spill (1 cycle slower). */
static void gather(const float *const *h, const float *const *sh, const uint8_t *const *m, const float *const *p,
                   size_t rows, size_t n, float talus, float *const *out) {
    size_t k = 0;
#if WK__EROSION_MAX_ROWS >= 4 && MASK_BYTES_PATH
    if (rows == 4) {
        gather_rows(h, sh, m, p, 4, n, talus, out);
        return;
    }
#endif
    for (; k + 2 <= rows; k += 2) gather_rows(h + k, sh + k, m + k, p + k, 2, n, talus, out + k);
    if (k < rows) gather_rows(h + k, sh + k, m + k, p + k, 1, n, talus, out + k);
}
#endif

const wk__erosion_kernels WK_SIMD_NAME(wk__erosion_kernels) = {share, gather};
