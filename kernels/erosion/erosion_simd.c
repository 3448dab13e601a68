/* Thermal erosion's SIMD paths, one source compiled once per ISA: cells of a
 * row across the vector lanes, the reference's operations in its order, so
 * every ISA returns the reference's bits.
 *
 * Pass 2 needs, per neighbour n of a cell c, whether n is higher by more
 * than the talus: h[n] - h[c] > talus. That is exactly the test pass 1 ran
 * for n, towards its neighbour c (n's d = h[n] - h[c], the same subtraction
 * with the same operands). Where masks are registers that store and load in
 * one instruction (AVX-512), pass 1 records its 8 "lower" masks as bit rows
 * (one per direction) and pass 2 reads n's bits, shifted by one column for
 * the diagonal and horizontal neighbours, instead of subtracting and
 * comparing again; elsewhere pass 2 recomputes them.
 * The count of lower neighbours is kept in integers (exact, and off the
 * float adders, which bound this kernel), then converted: equal to the
 * reference's float count; the reference's count * (count + 1) * 2 (1 when
 * count is 0), exact small integers, comes from a table of those 9 values. */
#include "core/wk_fp_guard.h"

#include <string.h>

#include "erosion_impl.h"
#include "wk_simd.h"

/* den[count] = count * (count + 1) * 2 as float bits, 1.0f for count 0. */
static const uint32_t DEN_BITS[16] = {0x3f800000u, 0x40800000u, 0x41400000u, 0x41c00000u, 0x42200000u, 0x42700000u,
                                      0x42a80000u, 0x42e00000u, 0x43100000u, 0x3f800000u, 0x3f800000u, 0x3f800000u,
                                      0x3f800000u, 0x3f800000u, 0x3f800000u, 0x3f800000u};

#if WK_VM_BITS_CHEAP
/* The mask bit rows of one row of n cells: 8 planes (one per neighbour
 * direction k), each a zero word, one WK_VM_BYTES word per vector of cells
 * (lane i = bit i), then a zero word; words are 16 bits (WK_W = 16). */
_Static_assert(WK_W == 16 && WK_VM_BYTES == 2, "mask words are 16 lanes");
static size_t plane_bytes(size_t n) { return WK__EROSION_MASK_BYTES(n) / 8; }

static wk_vm mask_from_bits(uint32_t bits) {
    uint8_t b[4];
    memcpy(b, &bits, sizeof b);
    return wk_vm_load_bits(b);
}
static uint32_t load_u32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
#define RECORD_LOWER(lower, k) wk_vm_store_bits(mk + (k) * pb, (lower))
#else
#define RECORD_LOWER(lower, k) ((void)0)
#endif

/* One neighbour k of pass 1: d = hc - hn; lanes with d > talus add d and 1. */
#define SHARE_STEP(hn_ptr, k)                                \
    do {                                                     \
        wk_vf d_ = wk_vf_sub(hc, wk_vf_load_n((hn_ptr), m)); \
        wk_vm lower_ = wk_vf_gt(d_, vtalus);                 \
        sum = wk_vf_add_mask(sum, lower_, d_);               \
        count = wk_vi_inc_mask(count, lower_);               \
        RECORD_LOWER(lower_, k);                             \
    } while (0)

WK_INLINE void share_vec(const float *up, const float *mid, const float *dn, float talus, float *s, float *p,
                         uint8_t *masks, size_t pb, wk_lut16 den_lut, size_t i, size_t m) {
    const wk_vf vtalus = wk_vf_set1(talus);
#if WK_VM_BITS_CHEAP
    uint8_t *mk = masks + 2 * (i / 16 + 1);
#else
    (void)masks, (void)pb;
#endif
    const wk_vf hc = wk_vf_load_n(mid + i, m);
    wk_vf sum = wk_vf_set1(0.0f);
    wk_vi count = wk_vi_set1(0);
    SHARE_STEP(up + i - 1, 0);
    SHARE_STEP(up + i, 1);
    SHARE_STEP(up + i + 1, 2);
    SHARE_STEP(mid + i - 1, 3);
    SHARE_STEP(mid + i + 1, 4);
    SHARE_STEP(dn + i - 1, 5);
    SHARE_STEP(dn + i, 6);
    SHARE_STEP(dn + i + 1, 7);
    wk_vf countf = wk_vf_from_vi_s(count);
    wk_vf excess = wk_vf_sub(sum, wk_vf_mul(countf, vtalus));
    wk_vf den = wk_vi_as_vf(wk_lut16_get(den_lut, count));
    wk_vf share = wk_vf_div(excess, den);
    wk_vf_store_n(s + i, share, m);
    wk_vf_store_n(p + i, wk_vf_sub(hc, wk_vf_mul(share, countf)), m);
}

static void share(const float *up, const float *mid, const float *dn, size_t n, float talus, float *s, float *p,
                  uint8_t *masks) {
    const wk_lut16 den_lut = wk_lut16_load(DEN_BITS);
#if WK_VM_BITS_CHEAP
    const size_t pb = plane_bytes(n);
    for (int k = 0; k < 8; k++) { /* the zero words at both ends of each plane */
        memset(masks + k * pb, 0, 2);
        memset(masks + k * pb + pb - 2, 0, 2);
    }
#else
    const size_t pb = 0;
#endif
    WK_VECTOR_LOOP(n, share_vec, up, mid, dn, talus, s, p, masks, pb, den_lut);
}

/* One neighbour k of pass 2: lanes whose neighbour is higher by more than
 * talus receive its share. With mask bits, `HIGHER` reads the neighbour's
 * own lower mask towards this cell: plane q of mask row `mrow`, the bits of
 * the columns one left (dx = -1), at (0) or one right (+1) of these cells. */
#if WK_VM_BITS_CHEAP
#define BITS_DX_M1(mrow, q) mask_from_bits(load_u32((mrow) + (q) * pb + 2 * v) >> 15)
#define BITS_DX_0(mrow, q) wk_vm_load_bits((mrow) + (q) * pb + 2 * (v + 1))
#define BITS_DX_P1(mrow, q) mask_from_bits(load_u32((mrow) + (q) * pb + 2 * (v + 1)) >> 1)
#define HIGHER(hn_ptr, bits) bits
#else
#define HIGHER(hn_ptr, bits) wk_vf_gt(wk_vf_sub(wk_vf_load_n((hn_ptr), m), hc), vtalus)
#endif
#define GATHER_STEP(hn_ptr, sn_ptr, bits) \
    received = wk_vf_add_mask(received, HIGHER(hn_ptr, bits), wk_vf_load_n((sn_ptr), m))

WK_INLINE void gather_vec(const float *hup, const float *hmid, const float *hdn, const float *sup,
                          const float *smid, const float *sdn, const float *p, const uint8_t *mup,
                          const uint8_t *mmid, const uint8_t *mdn, size_t pb, float talus, float *out, size_t i,
                          size_t m) {
#if WK_VM_BITS_CHEAP
    const size_t v = i / 16;
    (void)hup, (void)hmid, (void)hdn, (void)talus;
#else
    const wk_vf vtalus = wk_vf_set1(talus);
    const wk_vf hc = wk_vf_load_n(hmid + i, m);
    (void)mup, (void)mmid, (void)mdn, (void)pb;
#endif
    wk_vf received = wk_vf_set1(-0.0f);
    /* neighbour k of this cell sees this cell as its neighbour 7 - k */
    GATHER_STEP(hup + i - 1, sup + i - 1, BITS_DX_M1(mup, 7));
    GATHER_STEP(hup + i, sup + i, BITS_DX_0(mup, 6));
    GATHER_STEP(hup + i + 1, sup + i + 1, BITS_DX_P1(mup, 5));
    GATHER_STEP(hmid + i - 1, smid + i - 1, BITS_DX_M1(mmid, 4));
    GATHER_STEP(hmid + i + 1, smid + i + 1, BITS_DX_P1(mmid, 3));
    GATHER_STEP(hdn + i - 1, sdn + i - 1, BITS_DX_M1(mdn, 2));
    GATHER_STEP(hdn + i, sdn + i, BITS_DX_0(mdn, 1));
    GATHER_STEP(hdn + i + 1, sdn + i + 1, BITS_DX_P1(mdn, 0));
    wk_vf_store_n(out + i, wk_vf_add(wk_vf_load_n(p + i, m), received), m);
}

static void gather(const float *hup, const float *hmid, const float *hdn, const float *sup, const float *smid,
                   const float *sdn, const float *p, const uint8_t *mup, const uint8_t *mmid, const uint8_t *mdn,
                   size_t n, float talus, float *out) {
#if WK_VM_BITS_CHEAP
    const size_t pb = plane_bytes(n);
#else
    const size_t pb = 0;
#endif
    WK_VECTOR_LOOP(n, gather_vec, hup, hmid, hdn, sup, smid, sdn, p, mup, mmid, mdn, pb, talus, out);
}

const wk__erosion_kernels WK_SIMD_NAME(wk__erosion_kernels) = {share, gather};
