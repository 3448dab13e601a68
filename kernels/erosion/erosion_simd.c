/* Thermal erosion's SIMD paths, one source compiled once per ISA: cells of a
 * row across the vector lanes, the reference's operations in its order, so
 * every ISA returns the reference's bits. */
#include "core/wk_fp_guard.h"

#include "erosion_impl.h"
#include "wk_simd.h"

/* One neighbour of pass 1: d = hc - hn; lanes with d > talus add d and 1. */
#define SHARE_STEP(hn_ptr)                                  \
    do {                                                    \
        wk_vf d_ = wk_vf_sub(hc, wk_vf_load_n((hn_ptr), m)); \
        wk_vm lower_ = wk_vf_gt(d_, vtalus);                \
        sum = wk_vf_add_mask(sum, lower_, d_);              \
        count = wk_vf_add_mask(count, lower_, one);         \
    } while (0)

WK_INLINE void share_vec(const float *up, const float *mid, const float *dn, float talus, float *s, float *p,
                         size_t i, size_t m) {
    const wk_vf vtalus = wk_vf_set1(talus), one = wk_vf_set1(1.0f), zero = wk_vf_set1(0.0f);
    const wk_vf hc = wk_vf_load_n(mid + i, m);
    wk_vf sum = zero, count = zero;
    SHARE_STEP(up + i - 1);
    SHARE_STEP(up + i);
    SHARE_STEP(up + i + 1);
    SHARE_STEP(mid + i - 1);
    SHARE_STEP(mid + i + 1);
    SHARE_STEP(dn + i - 1);
    SHARE_STEP(dn + i);
    SHARE_STEP(dn + i + 1);
    wk_vf excess = wk_vf_sub(sum, wk_vf_mul(count, vtalus));
    wk_vf den = wk_vf_mul(wk_vf_mul(count, wk_vf_add(count, one)), wk_vf_set1(2.0f));
    den = wk_vf_select(wk_vf_gt(count, zero), den, one);
    wk_vf share = wk_vf_div(excess, den);
    wk_vf_store_n(s + i, share, m);
    wk_vf_store_n(p + i, wk_vf_sub(hc, wk_vf_mul(share, count)), m);
}

static void share(const float *up, const float *mid, const float *dn, size_t n, float talus, float *s, float *p) {
    WK_VECTOR_LOOP(n, share_vec, up, mid, dn, talus, s, p);
}

/* One neighbour of pass 2: lanes whose neighbour is higher by more than
 * talus receive its share. */
#define GATHER_STEP(hn_ptr, sn_ptr)                                              \
    do {                                                                         \
        wk_vm higher_ = wk_vf_gt(wk_vf_sub(wk_vf_load_n((hn_ptr), m), hc), vtalus); \
        received = wk_vf_add_mask(received, higher_, wk_vf_load_n((sn_ptr), m));    \
    } while (0)

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
                   const float *sdn, const float *p, size_t n, float talus, float *out) {
    WK_VECTOR_LOOP(n, gather_vec, hup, hmid, hdn, sup, smid, sdn, p, talus, out);
}

const wk__erosion_kernels WK_SIMD_NAME(wk__erosion_kernels) = {share, gather};
