/* Helpers shared by the spline family's check sources. */
#ifndef WK_SPLINE_TEST_H
#define WK_SPLINE_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wk_checks.h"
#include "worldkern/spline.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static inline size_t sp_first_diff(const float *a, const float *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (wk_bits(a[i]) != wk_bits(b[i])) return i;
    return n;
}

/* Compares n floats bit for bit; prints the first difference. */
#define EXPECT_SAME(a, b, n, ...)                                                                       \
    do {                                                                                                \
        size_t at_ = sp_first_diff((a), (b), (n));                                                      \
        if (at_ < (size_t)(n)) {                                                                        \
            char what_[200];                                                                            \
            snprintf(what_, sizeof what_, __VA_ARGS__);                                                 \
            FAIL("%s: differs at %zu of %zu: %.9g (0x%08x) vs %.9g (0x%08x)", what_, at_, (size_t)(n), \
                 (double)(a)[at_], (unsigned)wk_bits((a)[at_]), (double)(b)[at_],                       \
                 (unsigned)wk_bits((b)[at_]));                                                          \
        }                                                                                               \
    } while (0)

static inline void *sp_alloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        abort();
    }
    return p;
}

/* A random float in [lo, hi). */
static inline float sp_rand(wk_rng *r, double lo, double hi) { return (float)wk_rng_range(r, lo, hi); }

#endif
