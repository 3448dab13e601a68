/* Scalar reference of thermal erosion: plain C, the arithmetic of erosion.h
 * cell by cell, in the fixed neighbour order. */
#include "core/wk_fp_guard.h"

#include "erosion_impl.h"

static void share_ref(const float *up, const float *mid, const float *dn, size_t n, float talus, float *s,
                      float *p, uint8_t *masks) {
    (void)masks;
    for (size_t i = 0; i < n; i++) {
        const float hc = mid[i];
        const float hn[8] = {up[i - 1], up[i], up[i + 1], mid[i - 1], mid[i + 1], dn[i - 1], dn[i], dn[i + 1]};
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

static void gather_ref(const float *hup, const float *hmid, const float *hdn, const float *sup, const float *smid,
                       const float *sdn, const float *p, const uint8_t *masks, size_t n, float talus, float *out) {
    (void)masks;
    for (size_t i = 0; i < n; i++) {
        const float hc = hmid[i];
        const float hn[8] = {hup[i - 1], hup[i],  hup[i + 1], hmid[i - 1],
                             hmid[i + 1], hdn[i - 1], hdn[i], hdn[i + 1]};
        const float sn[8] = {sup[i - 1], sup[i],  sup[i + 1], smid[i - 1],
                             smid[i + 1], sdn[i - 1], sdn[i], sdn[i + 1]};
        float received = -0.0f;
        for (int k = 0; k < 8; k++)
            if (hn[k] - hc > talus) received = received + sn[k];
        out[i] = p[i] + received;
    }
}

const wk__erosion_kernels wk__erosion_kernels_ref = {share_ref, gather_ref};
