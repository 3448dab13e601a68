/* Thermal erosion's SIMD paths, one source compiled once per ISA: cells of a
 * row across the vector lanes, the reference's operations in its order, so
 * every ISA returns the reference's bits.
 *
 * Pass 2 needs, per neighbour, whether it is higher by more than the talus:
 * h[n] - h[c] > talus, which is d < -talus for pass 1's d = h[c] - h[n]
 * (float subtraction rounds symmetrically, so h[n] - h[c] == -d exactly,
 * NaN comparing false either way). Where masks are registers that store and
 * load in one instruction (AVX-512), pass 1 records these 8 masks and pass 2
 * does no subtraction or comparison; elsewhere pass 2 recomputes them.
 * The count of lower neighbours is kept in integers (exact, and off the
 * float adders, which bound this kernel), then converted: equal to the
 * reference's float count. */
#include "core/wk_fp_guard.h"

#include "erosion_impl.h"
#include "wk_simd.h"

/* One neighbour k of pass 1: d = hc - hn; lanes with d > talus add d and 1. */
#if WK_VM_BITS_CHEAP
#define RECORD_HIGHER(d, k) wk_vm_store_bits(mk + (k) * WK_VM_BYTES, wk_vf_gt(neg_talus, (d)))
#else
#define RECORD_HIGHER(d, k) ((void)0)
#endif
#define SHARE_STEP(hn_ptr, k)                                \
    do {                                                     \
        wk_vf d_ = wk_vf_sub(hc, wk_vf_load_n((hn_ptr), m)); \
        wk_vm lower_ = wk_vf_gt(d_, vtalus);                 \
        sum = wk_vf_add_mask(sum, lower_, d_);               \
        count = wk_vi_inc_mask(count, lower_);               \
        RECORD_HIGHER(d_, k);                                \
    } while (0)

WK_INLINE void share_vec(const float *up, const float *mid, const float *dn, float talus, float *s, float *p,
                         uint8_t *masks, size_t i, size_t m) {
    const wk_vf vtalus = wk_vf_set1(talus), one = wk_vf_set1(1.0f), zero = wk_vf_set1(0.0f);
#if WK_VM_BITS_CHEAP
    const wk_vf neg_talus = wk_vf_set1(-talus);
    uint8_t *mk = masks + (i / WK_W) * 8 * WK_VM_BYTES;
#else
    (void)masks;
#endif
    const wk_vf hc = wk_vf_load_n(mid + i, m);
    wk_vf sum = zero;
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
    wk_vf den = wk_vf_mul(wk_vf_mul(countf, wk_vf_add(countf, one)), wk_vf_set1(2.0f));
    den = wk_vf_select(wk_vf_gt(countf, zero), den, one);
    wk_vf share = wk_vf_div(excess, den);
    wk_vf_store_n(s + i, share, m);
    wk_vf_store_n(p + i, wk_vf_sub(hc, wk_vf_mul(share, countf)), m);
}

static void share(const float *up, const float *mid, const float *dn, size_t n, float talus, float *s, float *p,
                  uint8_t *masks) {
    WK_VECTOR_LOOP(n, share_vec, up, mid, dn, talus, s, p, masks);
}

/* One neighbour k of pass 2: lanes whose neighbour is higher by more than
 * talus receive its share. */
#if WK_VM_BITS_CHEAP
#define HIGHER(hn_ptr, k) wk_vm_load_bits(mk + (k) * WK_VM_BYTES)
#else
#define HIGHER(hn_ptr, k) wk_vf_gt(wk_vf_sub(wk_vf_load_n((hn_ptr), m), hc), vtalus)
#endif
#define GATHER_STEP(hn_ptr, sn_ptr, k) \
    received = wk_vf_add_mask(received, HIGHER(hn_ptr, k), wk_vf_load_n((sn_ptr), m))

WK_INLINE void gather_vec(const float *hup, const float *hmid, const float *hdn, const float *sup,
                          const float *smid, const float *sdn, const float *p, const uint8_t *masks, float talus,
                          float *out, size_t i, size_t m) {
#if WK_VM_BITS_CHEAP
    const uint8_t *mk = masks + (i / WK_W) * 8 * WK_VM_BYTES;
    (void)hup, (void)hmid, (void)hdn, (void)talus;
#else
    const wk_vf vtalus = wk_vf_set1(talus);
    const wk_vf hc = wk_vf_load_n(hmid + i, m);
    (void)masks;
#endif
    wk_vf received = wk_vf_set1(-0.0f);
    GATHER_STEP(hup + i - 1, sup + i - 1, 0);
    GATHER_STEP(hup + i, sup + i, 1);
    GATHER_STEP(hup + i + 1, sup + i + 1, 2);
    GATHER_STEP(hmid + i - 1, smid + i - 1, 3);
    GATHER_STEP(hmid + i + 1, smid + i + 1, 4);
    GATHER_STEP(hdn + i - 1, sdn + i - 1, 5);
    GATHER_STEP(hdn + i, sdn + i, 6);
    GATHER_STEP(hdn + i + 1, sdn + i + 1, 7);
    wk_vf_store_n(out + i, wk_vf_add(wk_vf_load_n(p + i, m), received), m);
}

static void gather(const float *hup, const float *hmid, const float *hdn, const float *sup, const float *smid,
                   const float *sdn, const float *p, const uint8_t *masks, size_t n, float talus, float *out) {
    WK_VECTOR_LOOP(n, gather_vec, hup, hmid, hdn, sup, smid, sdn, p, masks, talus, out);
}

const wk__erosion_kernels WK_SIMD_NAME(wk__erosion_kernels) = {share, gather};
