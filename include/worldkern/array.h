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

/* out[i] = (x[i] - lo) / (hi - lo): maps [lo, hi] linearly onto [0, 1]
 * (values outside extrapolate). out may equal x exactly; partial overlap is
 * WK_ERR_ALIAS. Errors: WK_ERR_NOT_FINITE when lo or hi is not finite,
 * WK_ERR_INVALID_ARG unless hi > lo, WK_ERR_OVERFLOW when hi - lo
 * overflows, WK_ERR_NULL. */
WK_API wk_status wk_remap(const float *x, size_t n, float lo, float hi, float *out, const wk_exec *exec);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_ARRAY_H */
