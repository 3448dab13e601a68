/* Test fields shared by the contour checks. */
#ifndef WK_TESTS_CONTOUR_FIELDS_H
#define WK_TESTS_CONTOUR_FIELDS_H

#include <stdint.h>

/* A w x h field (stride w, malloc'ed) of 3-octave fBm at `freq` lattice
 * cells per node, plus `shift`. */
float *wk_contour_noise_field(uint32_t w, uint32_t h, uint32_t seed, double freq, float shift);

#endif /* WK_TESTS_CONTOUR_FIELDS_H */
