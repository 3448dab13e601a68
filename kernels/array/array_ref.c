/* Scalar reference of the array utilities. */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "array_impl.h"

static void minmax_ref(const float *x, size_t n, float *min, float *max) {
    float lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (x[i] != x[i]) continue;
        if (wk__float_order_key(x[i]) < wk__float_order_key(lo)) lo = x[i];
        if (wk__float_order_key(x[i]) > wk__float_order_key(hi)) hi = x[i];
    }
    *min = lo;
    *max = hi;
}

static void remap_ref(const float *x, size_t n, float lo, float range, float *out) {
    for (size_t i = 0; i < n; i++) out[i] = (x[i] - lo) / range;
}

const wk__array_kernels wk__array_kernels_ref = {minmax_ref, remap_ref};
