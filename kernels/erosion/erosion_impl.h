/* The erosion family's per-ISA row kernels and the driver's test hook. */
#ifndef WK_EROSION_IMPL_H
#define WK_EROSION_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "worldkern/erosion.h"

/* Rows are padded: element -1 and element w of a height row are readable
 * (NaN: no neighbour), as are those of a share row (0). */
/* Bytes of one row's mask record for n cells: one byte per cell (bit k: the
 * neighbour in direction k is lower by more than the talus), rounded up to
 * 16 cells, with 16 zero bytes before and after. */
#define WK__EROSION_MASK_BYTES(n) ((((size_t)(n) + 15) / 16) * 16 + 32)

/* Rows one kernel call handles at once (the driver's rows per step, at
 * most); a call with more rows takes them this many at a time. */
#define WK__EROSION_MAX_ROWS 4

typedef struct wk__erosion_kernels {
    /* Pass 1 for `rows` (>= 1) consecutive rows of n
     * cells (every column; the driver then zeroes what border cells give):
     * row k < rows is h[k + 1], its cell i has the neighbours h[k][i-1..i+1],
     * h[k + 1][i-1], h[k + 1][i+1], h[k + 2][i-1..i+1]. Writes the share each
     * lower neighbour receives, s[k][i], and the height minus what the cell
     * gives, p[k][i] (erosion.h has the arithmetic). A path may also record in
     * masks[k] (WK__EROSION_MASK_BYTES(n) bytes, zeroed by the driver before
     * its first use; a path writes the same bytes of it on every call) which
     * neighbours are lower by more than the talus, for its own gather of
     * this row and of the rows above and below. */
    void (*share)(const float *const *h, size_t rows, size_t n, float talus, float *const *s, float *const *p,
                  uint8_t *const *masks);
    /* Pass 2 for `rows` consecutive rows of n cells: row k < rows has the
     * heights h[k + 1] (neighbours in h[k], h[k + 1], h[k + 2]), and
     * out[k][i] = p[k][i] + the shares sh[k..k+2][i-1..i+1] of the neighbours
     * higher than h[k + 1][i] by more than talus, added in the fixed
     * neighbour order from -0.0f. m[k .. k + 2] are what share recorded for
     * the rows above, this row and below (all zero bytes for a row outside
     * the map). */
    void (*gather)(const float *const *h, const float *const *sh, const uint8_t *const *m, const float *const *p,
                   size_t rows, size_t n, float talus, float *const *out);
} wk__erosion_kernels;

/* Test hook (tests only; zero = automatic): forces the number of row bands
 * (capped at the map's height, and at what the scratch allows) and the
 * number of iterations run per pass over the cached rows. Results never
 * depend on either; the tests check that. Not thread-safe to change. */
typedef struct wk__erosion_tuning {
    uint32_t bands;
    uint32_t group;
} wk__erosion_tuning;
extern wk__erosion_tuning wk__erosion_tune;

#endif /* WK_EROSION_IMPL_H */
