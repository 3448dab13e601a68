/* The array family's per-ISA entry points. */
#ifndef WK_ARRAY_IMPL_H
#define WK_ARRAY_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "worldkern/array.h"

typedef struct wk__array_kernels {
    void (*minmax)(const float *x, size_t n, float *min, float *max);
    /* range = hi - lo, nonzero */
    void (*remap)(const float *x, size_t n, float lo, float range, float a, float b, float *out);
    void (*pow)(const float *x, size_t n, float exponent, float *out);
} wk__array_kernels;

/* Total order key of a float for min/max: monotonic in the value, with
 * -0 below +0, so that reductions in any order give the same bits. */
static inline int32_t wk__float_order_key(float f) {
    union { float f; uint32_t u; } bits = {f};
    uint32_t flip = (bits.u >> 31) ? 0x7FFFFFFFu : 0u;
    return (int32_t)(bits.u ^ flip);
}

#endif /* WK_ARRAY_IMPL_H */
