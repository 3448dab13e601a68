/* Scalar reference of the array utilities. */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "array_impl.h"
#include "wk_math.h"

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

static void remap_ref(const float *x, size_t n, float lo, float range, float a, float b, float *out) {
    for (size_t i = 0; i < n; i++) {
        float t = (x[i] - lo) / range;
        out[i] = t * b + (1.0f - t) * a;
    }
}

static void pow_ref(const float *x, size_t n, float exponent, float *out) {
    for (size_t i = 0; i < n; i++) out[i] = wk__powf(x[i], exponent);
}

const wk__array_kernels wk__array_kernels_ref = {minmax_ref, remap_ref, pow_ref};
