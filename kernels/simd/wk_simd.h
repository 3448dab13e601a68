/* worldkern's thin vector layer. A *_simd.c source includes this header and
 * is compiled once per ISA; CMake defines exactly one of WK_SIMD_AVX2,
 * WK_SIMD_AVX512, WK_SIMD_NEON (and WK_SIMD_VBMI with AVX-512 byte permutes)
 * plus WK_SIMD_SUFFIX, the suffix of every per-ISA symbol.
 *
 * Every ISA header provides the same names:
 *   WK_W                      lanes per vector
 *   wk_vf / wk_vi / wk_vm     float, uint32 and mask vectors
 *   wk_vf_set1 wk_vi_set1     broadcast
 *   wk_vf_loadu wk_vf_storeu wk_vi_loadu wk_vi_storeu
 *   wk_vf_load_part wk_vf_store_part wk_vi_load_part
 *                             the first n < WK_W lanes; others read as 0 and
 *                             are never written, nor is memory past n touched
 *   wk_vf_add sub mul div floor
 *   wk_vi_add and or xor slli srli mullo min_s max_s   (min/max signed)
 *   wk_vi_from_vf_trunc       truncating conversion (lanes out of range: any value)
 *   wk_vf_as_vi wk_vi_as_vf   bit casts
 *   wk_vm wk_vf_isnan(a)      lanes that are NaN
 *   wk_vm wk_vi_lt_s(a, b)    signed a < b
 *   wk_vf wk_vf_select(m, a, b), wk_vi wk_vi_select(m, a, b): m ? a : b
 *   wk_vi wk_vi_ternary_xor_and(a, m, s)  (a & m) ^ s
 *   wk_lut16 wk_lut16_load(const uint32_t t[16]); wk_vi wk_lut16_get(t, h): t[h & 15]
 *   wk_perm256_init(&t, const uint8_t p[260]); wk_vi wk_perm256_get(&t, i): p[i & 255]
 *   uint32_t wk_vi_hmin_s / wk_vi_hmax_s   horizontal signed min / max
 *   (added for spline)
 *   wk_vm wk_vf_lt(a, b)      ordered a < b (false when either is NaN), no exception
 *   wk_vf wk_vf_gather(base, idx)  base[idx[lane]] per lane; idx signed, every lane valid
 *   (added for erosion)
 *   wk_vm wk_vf_gt(a, b)      a > b, ordered (false where either is NaN)
 *   wk_vf wk_vf_add_mask(a, m, b)  m ? a + b : a (unselected lanes keep a's bits)
 *   wk_vi wk_vi_add_mask(a, m, b)  m ? a + b : a, integers
 *   wk_vi wk_vi_inc_mask(a, m)     m ? a + 1 : a, integers
 *   wk_vf wk_vf_from_vi_s(a)  signed int32 -> float, round to nearest
 *   wk_vm_store_bits(uint8_t *p, m), wk_vm wk_vm_load_bits(const uint8_t *p)
 *                             a mask as WK_VM_BYTES bytes, lane i = bit i;
 *                             WK_VM_BITS_CHEAP is 1 where each is one
 *                             instruction (AVX-512 mask registers)
 *   (added for fracture)
 *   wk_vm wk_vf_le(a, b)      lanes with a <= b (ordered: false when either is NaN)
 *   wk_vm wk_vm_and(a, b)     lanes set in both masks
 *   uint32_t wk_vm_bits(m)    bit k set when lane k of m is set (k < WK_W)
 *   wk_vi wk_lut16_get_lo8(t, h): t[h] where every lane has h < 8 (other
 *                             lanes unspecified); one permute on AVX2
 *                             (added for noise)
 *   wk_vm wk_vf_ge(a, b)      a >= b per lane, ordered (NaN lanes false)   [contour]
 *   WK_W8, uint64_t wk_u8_ge_bits(p, t)  bit k iff p[k] >= t (unsigned), for
 *                             the WK_W8 bytes at p (32 / 64 / 16)          [contour]
 *   wk_vf wk_vf_fma(a, b, c)  a * b + c with one rounding (fused)      [spline perf]
 *   uint32_t wk_vi_compress_storeu(p, m, a)  the lanes of a selected by m, in
 *                             lane order, to p[0..count); returns count; writes
 *                             all WK_W entries at p (past count: unspecified)
 *                                                                 [fracture perf]
 *
 * and, on top of them (this file):
 *   WK_INLINE                 static inline, always inlined
 *   WK_VECTOR_LOOP(n, fn, ...) full vectors, then the tail through the same code
 *   wk_vf_load_n wk_vi_load_n wk_vf_store_n   m <= WK_W lanes (full or tail)
 *   wk_vf_xor_bits wk_lut16_compose
 */
#ifndef WK_SIMD_H
#define WK_SIMD_H

#include <stddef.h>
#include <stdint.h>

#if defined(WK_SIMD_AVX512)
#include "wk_simd_avx512.h"
#elif defined(WK_SIMD_AVX2)
#include "wk_simd_avx2.h"
#elif defined(WK_SIMD_NEON)
#include "wk_simd_neon.h"
#else
#error "compile a *_simd.c source with one of WK_SIMD_AVX2, WK_SIMD_AVX512, WK_SIMD_NEON"
#endif

#define WK_SIMD_CAT2(a, b) a##_##b
#define WK_SIMD_CAT(a, b) WK_SIMD_CAT2(a, b)
/* wk_foo -> wk_foo_avx2 (or _avx512, _avx512vbmi, _neon). */
#define WK_SIMD_NAME(name) WK_SIMD_CAT(name, WK_SIMD_SUFFIX)

#if defined(__GNUC__) || defined(__clang__)
#define WK_INLINE static inline __attribute__((always_inline))
#else
#define WK_INLINE static inline
#endif

/* Runs fn(args..., i, m) over the full vectors of n lanes, then once over the
 * tail (m < WK_W): the same vector code, inlined twice so that the main loop
 * compiles with m a constant. Tails never go through a second scalar copy. */
#define WK_VECTOR_LOOP(n, fn, ...)                                       \
    do {                                                                 \
        size_t i_ = 0;                                                   \
        for (; i_ + WK_W <= (n); i_ += WK_W) fn(__VA_ARGS__, i_, WK_W);  \
        if (i_ < (n)) fn(__VA_ARGS__, i_, (n) - i_);                     \
    } while (0)

/* Loads and stores of m <= WK_W lanes: full vectors or the tail. */
WK_INLINE wk_vf wk_vf_load_n(const float *p, size_t m) {
    return m == WK_W ? wk_vf_loadu(p) : wk_vf_load_part(p, m);
}
WK_INLINE wk_vi wk_vi_load_n(const uint32_t *p, size_t m) {
    return m == WK_W ? wk_vi_loadu(p) : wk_vi_load_part(p, m);
}
WK_INLINE void wk_vf_store_n(float *p, wk_vf a, size_t m) {
    if (m == WK_W) wk_vf_storeu(p, a);
    else wk_vf_store_part(p, a, m);
}

static inline wk_vf wk_vf_xor_bits(wk_vf a, wk_vi bits) {
    return wk_vi_as_vf(wk_vi_xor(wk_vf_as_vi(a), bits));
}

/* The table c -> table[index[c]] for 16 indices. */
static inline wk_lut16 wk_lut16_compose(wk_lut16 table, const uint32_t index[16]) {
    uint32_t composed[16];
    for (int b = 0; b < 16; b += WK_W) wk_vi_storeu(composed + b, wk_lut16_get(table, wk_vi_loadu(index + b)));
    return wk_lut16_load(composed);
}

#endif /* WK_SIMD_H */
