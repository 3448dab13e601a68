/* The fracture family's per-ISA entry points and shared internals. */
#ifndef WK_FRACTURE_IMPL_H
#define WK_FRACTURE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "worldkern/fracture.h"

/* Six bound arrays of boxes, in this order. */
enum { WK__LO_X, WK__LO_Y, WK__LO_Z, WK__HI_X, WK__HI_Y, WK__HI_Z };

/* Entries past the end of the sorted box arrays that vector loads may read
 * (padding that never touches anything: NaN bounds). */
#define WK__FRACTURE_PAD 16

/* Room past cap that rows_slack may write (the widest vector's lanes). */
#define WK__FRACTURE_SLACK 16

typedef struct wk__fracture_kernels {
    /* Over the boxes k in the nr ranges [range[2r], range[2r + 1]) of b
     * (six arrays, WK__LO_X order): those with ids[k] > min_id whose box
     * touches q (closed intervals: b.lo <= q.hi and q.lo <= b.hi on every
     * axis). Returns their number; writes the first `cap` of their ids to
     * out, in range and k order. ids < 2^31. b and ids are readable (and
     * never touch) up to WK__FRACTURE_PAD entries past every range's end. */
    size_t (*rows)(const float *const b[6], const uint32_t *ids, const uint32_t *range, size_t nr,
                   const float q[6], uint32_t min_id, uint32_t *out, size_t cap);
    /* rows, except that out needs room for cap + WK__FRACTURE_SLACK ids:
     * entries of out past min(count, cap) may be written (unspecified). */
    size_t (*rows_slack)(const float *const b[6], const uint32_t *ids, const uint32_t *range, size_t nr,
                         const float q[6], uint32_t min_id, uint32_t *out, size_t cap);
    /* dst[0..n) = the n <= 32 distinct ids < 2^31 of src[0..n), ascending;
     * src is readable up to n rounded up to 16, plus 1, entries (contents
     * past n: any); dst has room for n rounded up to 16 (entries past n may
     * be written: unspecified). */
    void (*sort32)(const uint32_t *src, size_t n, uint32_t *dst);
    /* q[a][i] = in[a][i] - pad (a < 3), in[a][i] + pad (a >= 3) for i < n,
     * in float; lohi[a] = the smallest q[a][i] (a < 3), the largest (a >=
     * 3). Returns 1 when every q is finite and in[a][i] <= in[a + 3][i],
     * else 0 (then q and lohi are unspecified). n >= 1. */
    int (*prep)(const float *const in[6], size_t n, float pad, float *const q[6], float lohi[6]);
    /* flags[i] = 1 for fragments i in [0, n) whose box grown by pad
     * (min - pad, max + pad in float) touches box a (six floats); others
     * left as they are. */
    void (*anchor)(const float *const f[6], size_t n, float pad, const float a[6], uint8_t *flags);
} wk__fracture_kernels;

#endif /* WK_FRACTURE_IMPL_H */
