/* The array utilities' SIMD paths, one source compiled once per ISA. */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "array_impl.h"
#include "wk_simd.h"
#include "wk_math.h"

static const uint32_t lane_index[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* Order key of wk__float_order_key, per lane. */
static inline wk_vi order_key(wk_vf a) {
    wk_vi bits = wk_vf_as_vi(a);
    wk_vm negative = wk_vi_lt_s(bits, wk_vi_set1(0));
    return wk_vi_xor(bits, wk_vi_select(negative, wk_vi_set1(0x7FFFFFFFu), wk_vi_set1(0)));
}

static inline float float_of_key(uint32_t key) {
    union { uint32_t u; float f; } bits = {key ^ ((key >> 31) ? 0x7FFFFFFFu : 0u)};
    return bits.f;
}

static void minmax(const float *x, size_t n, float *min, float *max) {
    const wk_vi key_inf = order_key(wk_vf_set1(INFINITY)), key_ninf = order_key(wk_vf_set1(-INFINITY));
    const wk_vi lanes = wk_vi_loadu(lane_index);
    wk_vi lo = key_inf, hi = key_ninf;
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vf a = wk_vf_load_n(x + i, m);
        /* NaN lanes and lanes past the end take no part. */
        wk_vm valid = wk_vi_lt_s(lanes, wk_vi_set1((uint32_t)m)), nan = wk_vf_isnan(a);
        wk_vi key = order_key(a);
        lo = wk_vi_min_s(lo, wk_vi_select(valid, wk_vi_select(nan, key_inf, key), key_inf));
        hi = wk_vi_max_s(hi, wk_vi_select(valid, wk_vi_select(nan, key_ninf, key), key_ninf));
    }
    *min = float_of_key(wk_vi_hmin_s(lo));
    *max = float_of_key(wk_vi_hmax_s(hi));
}

static void remap(const float *x, size_t n, float lo, float range, float a, float b, float *out) {
    const wk_vf vlo = wk_vf_set1(lo), vrange = wk_vf_set1(range), va = wk_vf_set1(a), vb = wk_vf_set1(b);
    const wk_vf one = wk_vf_set1(1.0f);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vf t = wk_vf_div(wk_vf_sub(wk_vf_load_n(x + i, m), vlo), vrange);
        wk_vf_store_n(out + i, wk_vf_add(wk_vf_mul(t, vb), wk_vf_mul(wk_vf_sub(one, t), va)), m);
    }
}

static void pow_simd(const float *x, size_t n, float exponent, float *out) {
    const wk_vf e = wk_vf_set1(exponent);
    for (size_t i = 0; i < n; i += WK_W) {
        size_t m = n - i < WK_W ? n - i : WK_W;
        wk_vf_store_n(out + i, wk_vf_pow(wk_vf_load_n(x + i, m), e), m);
    }
}

const wk__array_kernels WK_SIMD_NAME(wk__array_kernels) = {minmax, remap, pow_simd};
