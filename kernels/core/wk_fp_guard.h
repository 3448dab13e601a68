/* Included first by every kernel source: the exactness contract in the
 * source itself, so that a build without -ffp-contract=off (gcc's default
 * is fast contraction into FMA) or with -ffast-math cannot quietly change
 * results. */
#ifndef WK_FP_GUARD_H
#define WK_FP_GUARD_H

#ifdef __FAST_MATH__
#error "worldkern kernels must not be built with -ffast-math: results would differ between ISAs"
#endif

#include <float.h>
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "worldkern kernels need FLT_EVAL_METHOD == 0 (SSE2 or NEON floating point)"
#endif

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#else
#pragma STDC FP_CONTRACT OFF
#endif

#endif /* WK_FP_GUARD_H */
