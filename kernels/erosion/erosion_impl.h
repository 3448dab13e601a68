/* The erosion family's per-ISA row kernels and the driver's test hook. */
#ifndef WK_EROSION_IMPL_H
#define WK_EROSION_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "worldkern/erosion.h"

/* Rows are padded: element -1 and element w of a height row are readable
 * (NaN: no neighbour), as are those of a share row (0). */
/* Bytes of one row's mask record for n cells: 8 planes (one per neighbour
 * direction) of one byte per cell (0xff: lower by more than the talus),
 * rounded up to 16 cells, with 16 zero bytes before and after. */
#define WK__EROSION_MASK_BYTES(n) (8 * ((((size_t)(n) + 15) / 16) * 16 + 32))

typedef struct wk__erosion_kernels {
    /* Pass 1 for the n cells of one row (every column; the driver then
     * zeroes what border cells give): mid[i] with its neighbours
     * up[i-1..i+1], mid[i-1], mid[i+1], dn[i-1..i+1]. Writes the share each
     * lower neighbour receives, s[i], and the height minus what the cell
     * gives, p[i] (erosion.h has the arithmetic). A path may also record in
     * `masks` (WK__EROSION_MASK_BYTES(n) bytes, zeroed by the driver before
     * its first use; a path writes the same bytes of it on every call) which
     * neighbours are lower by more than the talus, for its own gather of
     * this row and of the rows above and below. */
    void (*share)(const float *up, const float *mid, const float *dn, size_t n, float talus, float *s, float *p,
                  uint8_t *masks);
    /* Pass 2 for the n cells of one row: out[i] = p[i] + the shares
     * s?[i-1..i+1] of the neighbours higher than hmid[i] by more than talus,
     * added in the fixed neighbour order from -0.0f. `mup`, `mmid`, `mdn` are
     * what share recorded for the rows above, this row and below (all zero
     * bytes for a row outside the map). */
    void (*gather)(const float *hup, const float *hmid, const float *hdn, const float *sup, const float *smid,
                   const float *sdn, const float *p, const uint8_t *mup, const uint8_t *mmid, const uint8_t *mdn,
                   size_t n, float talus, float *out);
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
