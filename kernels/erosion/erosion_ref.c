/* Scalar reference of thermal erosion: plain C, the arithmetic of erosion.h
 * cell by cell, in the fixed neighbour order. */
#include "core/wk_fp_guard.h"

#include "erosion_impl.h"

static void share_row(const float *up, const float *mid, const float *dn, size_t n, float talus, float *s,
                      float *p) {
    for (size_t i = 0; i < n; i++) {
        const float *u = up + i, *c = mid + i, *b = dn + i; /* neighbours at -1, 0, +1 */
        const float hc = c[0];
        const float hn[8] = {u[-1], u[0], u[1], c[-1], c[1], b[-1], b[0], b[1]};
        float sum = 0.0f, count = 0.0f;
        for (int k = 0; k < 8; k++) {
            float d = hc - hn[k];
            if (d > talus) {
                sum = sum + d;
                count = count + 1.0f;
            }
        }
        float excess = sum - count * talus;
        float den = count * (count + 1.0f) * 2.0f;
        if (!(count > 0.0f)) den = 1.0f;
        float share = excess / den;
        s[i] = share;
        p[i] = hc - share * count;
    }
}

static void share_ref(const float *const *h, size_t rows, size_t n, float talus, float *const *s, float *const *p,
                      uint8_t *const *masks) {
    (void)masks;
    for (size_t k = 0; k < rows; k++) share_row(h[k], h[k + 1], h[k + 2], n, talus, s[k], p[k]);
}

static void gather_row(const float *hup, const float *hmid, const float *hdn, const float *sup, const float *smid,
                       const float *sdn, const float *p, size_t n, float talus, float *out) {
    for (size_t i = 0; i < n; i++) {
        const float *hu = hup + i, *hm = hmid + i, *hd = hdn + i, *su = sup + i, *sm = smid + i, *sd = sdn + i;
        const float hc = hm[0];
        const float hn[8] = {hu[-1], hu[0], hu[1], hm[-1], hm[1], hd[-1], hd[0], hd[1]};
        const float sn[8] = {su[-1], su[0], su[1], sm[-1], sm[1], sd[-1], sd[0], sd[1]};
        float received = -0.0f;
        for (int k = 0; k < 8; k++)
            if (hn[k] - hc > talus) received = received + sn[k];
        out[i] = p[i] + received;
    }
}

static void gather_ref(const float *const *h, const float *const *sh, const uint8_t *const *m, const float *const *p,
                       size_t rows, size_t n, float talus, float *const *out) {
    (void)m;
    for (size_t k = 0; k < rows; k++)
        gather_row(h[k], h[k + 1], h[k + 2], sh[k], sh[k + 1], sh[k + 2], p[k], n, talus, out[k]);
}

const wk__erosion_kernels wk__erosion_kernels_ref = {share_ref, gather_ref};
