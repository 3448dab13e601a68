/* Scalar reference of the fracture box tests. */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "fracture_impl.h"

static size_t rows_ref(const float *const b[6], const uint32_t *ids, const uint32_t *range, size_t nr,
                       const float q[6], uint32_t min_id, uint32_t *out, size_t cap) {
    size_t found = 0;
    for (size_t r = 0; r < nr; r++)
    for (size_t k = range[2 * r]; k < range[2 * r + 1]; k++) {
        int touch = b[WK__LO_X][k] <= q[WK__HI_X] && q[WK__LO_X] <= b[WK__HI_X][k] &&
                    b[WK__LO_Y][k] <= q[WK__HI_Y] && q[WK__LO_Y] <= b[WK__HI_Y][k] &&
                    b[WK__LO_Z][k] <= q[WK__HI_Z] && q[WK__LO_Z] <= b[WK__HI_Z][k];
        if (touch && ids[k] > min_id) {
            if (found < cap) out[found] = ids[k];
            found++;
        }
    }
    return found;
}

static void anchor_ref(const float *const f[6], size_t n, float pad, const float a[6], uint8_t *flags) {
    for (size_t i = 0; i < n; i++) {
        float lx = f[WK__LO_X][i] - pad, ly = f[WK__LO_Y][i] - pad, lz = f[WK__LO_Z][i] - pad;
        float hx = f[WK__HI_X][i] + pad, hy = f[WK__HI_Y][i] + pad, hz = f[WK__HI_Z][i] + pad;
        if (lx <= a[WK__HI_X] && a[WK__LO_X] <= hx && ly <= a[WK__HI_Y] && a[WK__LO_Y] <= hy &&
            lz <= a[WK__HI_Z] && a[WK__LO_Z] <= hz)
            flags[i] = 1;
    }
}

static int prep_ref(const float *const in[6], size_t n, float pad, float *const q[6], float lohi[6]) {
    int valid = 1;
    for (int a = 0; a < 3; a++) {
        float lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            float l = in[a][i] - pad, h = in[a + 3][i] + pad;
            q[a][i] = l;
            q[a + 3][i] = h;
            /* x - x == 0 only for finite x. */
            valid &= (l - l == 0) & (h - h == 0) & (in[a][i] <= in[a + 3][i]);
            lo = l < lo ? l : lo;
            hi = h > hi ? h : hi;
        }
        lohi[a] = lo;
        lohi[a + 3] = hi;
    }
    return valid;
}

static void sort32_ref(const uint32_t *src, size_t n, uint32_t *v) {
    for (size_t a = 0; a < n; a++) v[a] = src[a];
    for (size_t a = 1; a < n; a++) {
        uint32_t x = v[a];
        size_t b = a;
        for (; b > 0 && v[b - 1] > x; b--) v[b] = v[b - 1];
        v[b] = x;
    }
}

const wk__fracture_kernels wk__fracture_kernels_ref = {rows_ref, rows_ref, sort32_ref, prep_ref, anchor_ref};
