/* Transcendental functions with the same bits on every ISA and in the
 * scalar reference. With SLEEF (WK_HAVE_SLEEF) they bind SLEEF's
 * deterministic no-FMA ("cinz") variants by their explicit-ISA names:
 * purec for the reference, avx (run by the AVX2 path), avx512fnofma and
 * advsimdnofma; these share one algorithm and rounding, so results agree bit
 * for bit (Debian 12's libsleef 3.5.1 has cinz for all four; the FMA "finz"
 * set has no purec variant that runs without FMA). Without SLEEF (e.g. the
 * mingw build) every path calls the C library's powf per lane, which agrees
 * with itself.
 *
 * Scalar: wk__powf(x, y). Vector (in *_simd.c, after wk_simd.h):
 * wk_vf_pow(x, y). Accuracy: SLEEF's u10 (1.0 ULP) or the C library's. */
#ifndef WK_MATH_H
#define WK_MATH_H

#include <math.h>

#ifdef WK_HAVE_SLEEF
#include <sleef.h>
static inline float wk__powf(float x, float y) { return Sleef_cinz_powf1_u10purec(x, y); }
#else
static inline float wk__powf(float x, float y) { return powf(x, y); }
#endif

#ifdef WK_W /* included from a *_simd.c source, after wk_simd.h */
#if defined(WK_HAVE_SLEEF) && defined(WK_SIMD_AVX512)
static inline wk_vf wk_vf_pow(wk_vf x, wk_vf y) { return Sleef_cinz_powf16_u10avx512fnofma(x, y); }
#elif defined(WK_HAVE_SLEEF) && defined(WK_SIMD_AVX2)
static inline wk_vf wk_vf_pow(wk_vf x, wk_vf y) { return Sleef_cinz_powf8_u10avx(x, y); }
#elif defined(WK_HAVE_SLEEF) && defined(WK_SIMD_NEON)
static inline wk_vf wk_vf_pow(wk_vf x, wk_vf y) { return Sleef_cinz_powf4_u10advsimdnofma(x, y); }
#else
static inline wk_vf wk_vf_pow(wk_vf x, wk_vf y) {
    float a[WK_W], b[WK_W];
    wk_vf_storeu(a, x);
    wk_vf_storeu(b, y);
    for (int i = 0; i < WK_W; i++) a[i] = wk__powf(a[i], b[i]);
    return wk_vf_loadu(a);
}
#endif
#endif

#endif /* WK_MATH_H */
