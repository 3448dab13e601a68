/* worldkern array utilities: reductions and maps over plain float arrays,
 * e.g. to normalize a generated height field. */
#ifndef WORLDKERN_ARRAY_H
#define WORLDKERN_ARRAY_H

#include "wk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Minimum and maximum of n floats, ignoring NaNs; -0.0f orders below +0.0f.
 * When n is 0 or every value is NaN, *min = +INFINITY and *max = -INFINITY
 * (the identities, so results of chunks combine). x may be NULL when n is 0.
 * Errors: WK_ERR_NULL (min, max, or x with n > 0). */
WK_API wk_status wk_minmax(const float *x, size_t n, float *min, float *max, const wk_exec *exec);

/* Maps [lo, hi] linearly onto [a, b]: with t = (x[i] - lo) / (hi - lo),
 *     out[i] = t * b + (1 - t) * a
 * (float arithmetic in that order, so x = lo gives exactly a and x = hi
 * exactly b; values outside [lo, hi] extrapolate). [a, b] = [0, 1] is the
 * classic normalization. Inverted ranges work both ways (hi < lo, b < a).
 * lo == hi (-0 and +0 included) gives the constant a for every element,
 * NaN inputs too. Otherwise a NaN input gives NaN.
 * out may equal x exactly; partial overlap is WK_ERR_ALIAS. n = 0 is a no-op
 * (pointers may be NULL). Bit-identical on every ISA.
 * Errors (out untouched): WK_ERR_NOT_FINITE when lo, hi, a or b is not
 * finite; WK_ERR_OVERFLOW when hi - lo overflows float or n floats overflow
 * size_t; WK_ERR_NULL. */
WK_API wk_status wk_remap(const float *x, size_t n, float lo, float hi, float a, float b, float *out,
                          const wk_exec *exec);

/* Redistribution: out[i] = pow(x[i], exponent), e.g. to flatten valleys
 * and sharpen peaks of a height field in [0, 1] (exponent > 1) or the
 * reverse (exponent < 1). Computed with SLEEF's deterministic pow (1.0 ULP,
 * the same bits on every ISA and in the scalar reference; builds without
 * SLEEF use the C library's powf on every path). C99 pow special cases: a
 * negative x with a non-integer exponent gives NaN, pow(x, 0) = 1.
 * exponent must be finite (WK_ERR_NOT_FINITE). out may equal x exactly;
 * partial overlap is WK_ERR_ALIAS. n = 0 is a no-op. Errors otherwise as
 * wk_remap. */
WK_API wk_status wk_pow(const float *x, size_t n, float exponent, float *out, const wk_exec *exec);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_ARRAY_H */
