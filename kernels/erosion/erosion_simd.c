/* Thermal erosion's SIMD paths, one source compiled once per ISA: cells of a
 * row across the vector lanes, the reference's operations in its order, so
 * every ISA returns the reference's bits.
 *
 * Pass 2 needs, per neighbour n of a cell c, whether n is higher by more
 * than the talus: h[n] - h[c] > talus. That is exactly the test pass 1 ran
 * for n towards its neighbour c (n's d = h[n] - h[c]: the same subtraction of
 * the same operands). On AVX-512, pass 1 records its 8 "lower" masks as rows
 * of bytes (one row per direction, 0xff or 0 per cell) and pass 2 reads n's
 * byte, one column left or right for diagonal and horizontal neighbours,
 * instead of subtracting and comparing again; the shares of the columns
 * left and right come from aligned vectors by lane shifts (a misaligned
 * 64-byte load straddles two cache lines). Elsewhere pass 2 recomputes the
 * masks.
 * The count of lower neighbours is kept in integers (exact, and off the
 * float adders), then converted: equal to the reference's float count; the
 * reference's count * (count + 1) * 2 (1 when count is 0), exact small
 * integers, comes from a table of those 9 values. */
#include "core/wk_fp_guard.h"

#include "erosion_impl.h"
#include "wk_simd.h"

/* den[count] = count * (count + 1) * 2 as float bits, 1.0f for count 0. */
static const uint32_t DEN_BITS[16] = {0x3f800000u, 0x40800000u, 0x41400000u, 0x41c00000u, 0x42200000u, 0x42700000u,
                                      0x42a80000u, 0x42e00000u, 0x43100000u, 0x3f800000u, 0x3f800000u, 0x3f800000u,
                                      0x3f800000u, 0x3f800000u, 0x3f800000u, 0x3f800000u};

#if defined(WK_SIMD_AVX512)
#define MASK_BYTES_PATH 1
/* AVX-512 only (mask registers and byte-granular mask moves; the other ISAs
 * recompute the masks), so these few helpers use its intrinsics directly:
 * lower masks as 16 bytes (0xff / 0), a count of them in bytes, lane shifts. */
typedef __m128i count_bytes;
WK_INLINE count_bytes count_zero(void) { return _mm_setzero_si128(); }
WK_INLINE count_bytes record_lower(uint8_t *p, wk_vm lower, count_bytes count) {
    __m128i b = _mm_movm_epi8(lower);
    _mm_storeu_si128((__m128i *)(void *)p, b);
    return _mm_sub_epi8(count, b); /* 0xff = -1 */
}
WK_INLINE wk_vi count_to_vi(count_bytes count) { return _mm512_cvtepu8_epi32(count); }
WK_INLINE wk_vm mask_bytes(const uint8_t *p) {
    return _mm_test_epi8_mask(_mm_loadu_si128((const __m128i *)(const void *)p), _mm_set1_epi8(-1));
}
WK_INLINE wk_vf lanes_from_prev(wk_vf prev, wk_vf cur) { /* prev[15], cur[0..14] */
    return _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(cur), _mm512_castps_si512(prev), 15));
}
WK_INLINE wk_vf lanes_from_next(wk_vf cur, wk_vf next) { /* cur[1..15], next[0] */
    return _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(next), _mm512_castps_si512(cur), 1));
}
/* Plane k of a mask record: 16 zero bytes, then cell x at byte 16 + x. */
static size_t plane_bytes(size_t n) { return WK__EROSION_MASK_BYTES(n) / 8; }
#else
#define MASK_BYTES_PATH 0
#endif

/* ------------------------------------------------------------- pass 1 */

/* One neighbour k of pass 1: d = hc - hn; lanes with d > talus add d and 1. */
#if MASK_BYTES_PATH
#define COUNT_LOWER(lower, k) (count = record_lower(mk + (k) * pb, (lower), count))
#else
#define COUNT_LOWER(lower, k) (count = wk_vi_inc_mask(count, (lower)))
#endif
#define SHARE_STEP(hn_ptr, k)                                \
    do {                                                     \
        wk_vf d_ = wk_vf_sub(hc, wk_vf_load_n((hn_ptr), m)); \
        wk_vm lower_ = wk_vf_gt(d_, vtalus);                 \
        sum = wk_vf_add_mask(sum, lower_, d_);               \
        COUNT_LOWER(lower_, k);                              \
    } while (0)

WK_INLINE void share_vec(const float *up, const float *mid, const float *dn, float talus, float *s, float *p,
                         uint8_t *masks, size_t pb, wk_lut16 den_lut, size_t i, size_t m) {
    const wk_vf vtalus = wk_vf_set1(talus);
#if MASK_BYTES_PATH
    uint8_t *mk = masks + 16 + i;
    count_bytes count = count_zero();
#else
    (void)masks, (void)pb;
    wk_vi count = wk_vi_set1(0);
#endif
    const wk_vf hc = wk_vf_load_n(mid + i, m);
    wk_vf sum = wk_vf_set1(0.0f);
    SHARE_STEP(up + i - 1, 0);
    SHARE_STEP(up + i, 1);
    SHARE_STEP(up + i + 1, 2);
    SHARE_STEP(mid + i - 1, 3);
    SHARE_STEP(mid + i + 1, 4);
    SHARE_STEP(dn + i - 1, 5);
    SHARE_STEP(dn + i, 6);
    SHARE_STEP(dn + i + 1, 7);
#if MASK_BYTES_PATH
    wk_vi icount = count_to_vi(count);
#else
    wk_vi icount = count;
#endif
    wk_vf countf = wk_vf_from_vi_s(icount);
    wk_vf excess = wk_vf_sub(sum, wk_vf_mul(countf, vtalus));
    wk_vf den = wk_vi_as_vf(wk_lut16_get(den_lut, icount));
    wk_vf share = wk_vf_div(excess, den);
    wk_vf_store_n(s + i, share, m);
    wk_vf_store_n(p + i, wk_vf_sub(hc, wk_vf_mul(share, countf)), m);
}

static void share(const float *up, const float *mid, const float *dn, size_t n, float talus, float *s, float *p,
                  uint8_t *masks) {
    const wk_lut16 den_lut = wk_lut16_load(DEN_BITS);
#if MASK_BYTES_PATH
    /* writes the bytes of the cells in whole vectors: those of a last
     * partial vector past n as 0 (those lanes compare 0 > talus); the zero
     * bytes before and after each plane are the driver's */
    const size_t pb = plane_bytes(n);
#else
    const size_t pb = 0;
#endif
    WK_VECTOR_LOOP(n, share_vec, up, mid, dn, talus, s, p, masks, pb, den_lut);
}

/* ------------------------------------------------------------- pass 2 */

#if MASK_BYTES_PATH
/* Elements [i, i + 16) of a padded share row of n cells (element n is
 * readable); lanes past element n read as 0. */
WK_INLINE wk_vf load_span(const float *s, size_t i, size_t n) {
    return i + 16 <= n + 1 ? wk_vf_loadu(s + i) : i <= n ? wk_vf_load_part(s + i, n + 1 - i) : wk_vf_set1(0.0f);
}

/* Neighbour n of this cell that sees this cell as its neighbour q, in mask
 * record `mrow`, dx columns away: its lower mask towards this cell. */
#define HIGHER(mrow, q, dx) mask_bytes((mrow) + (q) * pb + 16 + i + (dx))

static void gather(const float *hup, const float *hmid, const float *hdn, const float *sup, const float *smid,
                   const float *sdn, const float *p, const uint8_t *mup, const uint8_t *mmid, const uint8_t *mdn,
                   size_t n, float talus, float *out) {
    (void)hup, (void)hmid, (void)hdn, (void)talus;
    const size_t pb = plane_bytes(n);
    wk_vf u0 = wk_vf_set1(sup[-1]), m0 = wk_vf_set1(smid[-1]), d0 = wk_vf_set1(sdn[-1]);
    wk_vf u1 = load_span(sup, 0, n), m1 = load_span(smid, 0, n), d1 = load_span(sdn, 0, n);
    for (size_t i = 0; i < n; i += 16) {
        const size_t m = n - i < 16 ? n - i : 16;
        wk_vf u2 = load_span(sup, i + 16, n), m2 = load_span(smid, i + 16, n), d2 = load_span(sdn, i + 16, n);
        wk_vf received = wk_vf_set1(-0.0f);
        /* neighbour k of this cell sees this cell as its neighbour 7 - k */
        received = wk_vf_add_mask(received, HIGHER(mup, 7, -1), lanes_from_prev(u0, u1));
        received = wk_vf_add_mask(received, HIGHER(mup, 6, 0), u1);
        received = wk_vf_add_mask(received, HIGHER(mup, 5, 1), lanes_from_next(u1, u2));
        received = wk_vf_add_mask(received, HIGHER(mmid, 4, -1), lanes_from_prev(m0, m1));
        received = wk_vf_add_mask(received, HIGHER(mmid, 3, 1), lanes_from_next(m1, m2));
        received = wk_vf_add_mask(received, HIGHER(mdn, 2, -1), lanes_from_prev(d0, d1));
        received = wk_vf_add_mask(received, HIGHER(mdn, 1, 0), d1);
        received = wk_vf_add_mask(received, HIGHER(mdn, 0, 1), lanes_from_next(d1, d2));
        wk_vf_store_n(out + i, wk_vf_add(wk_vf_load_n(p + i, m), received), m);
        u0 = u1, u1 = u2, m0 = m1, m1 = m2, d0 = d1, d1 = d2;
    }
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

static void gather(const float *hup, const float *hmid, const float *hdn, const float *sup, const float *smid,
                   const float *sdn, const float *p, const uint8_t *mup, const uint8_t *mmid, const uint8_t *mdn,
                   size_t n, float talus, float *out) {
    (void)mup, (void)mmid, (void)mdn;
    WK_VECTOR_LOOP(n, gather_vec, hup, hmid, hdn, sup, smid, sdn, p, talus, out);
}
#endif

const wk__erosion_kernels WK_SIMD_NAME(wk__erosion_kernels) = {share, gather};
