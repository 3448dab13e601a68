/* The fracture family's per-ISA entry points and shared internals. */
#ifndef WK_FRACTURE_IMPL_H
#define WK_FRACTURE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "worldkern/fracture.h"

/* Six bound arrays of boxes, in this order. */
enum { WK__LO_X, WK__LO_Y, WK__LO_Z, WK__HI_X, WK__HI_Y, WK__HI_Z };

typedef struct wk__fracture_kernels {
    /* Over boxes k in [begin, end) of b (six arrays, WK__LO_X order): those
     * with ids[k] > min_id whose box touches q (closed intervals: b.lo <=
     * q.hi and q.lo <= b.hi on every axis). Returns their number; when out
     * is not NULL also writes their ids there, in k order. ids < 2^31. */
    size_t (*row)(const float *const b[6], const uint32_t *ids, size_t begin, size_t end, const float q[6],
                  uint32_t min_id, uint32_t *out);
    /* flags[i] = 1 for fragments i in [0, n) whose box grown by pad
     * (min - pad, max + pad in float) touches box a (six floats); others
     * left as they are. */
    void (*anchor)(const float *const f[6], size_t n, float pad, const float a[6], uint8_t *flags);
} wk__fracture_kernels;

#endif /* WK_FRACTURE_IMPL_H */
