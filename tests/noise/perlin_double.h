/* An independent double-precision implementation of Ken Perlin's 2002
 * improved noise (and the 2D variant and seeding documented in noise.h),
 * written from the published algorithm, for known-answer tests. */
#ifndef WK_TESTS_PERLIN_DOUBLE_H
#define WK_TESTS_PERLIN_DOUBLE_H

#include <stdint.h>

/* Perlin's noise(x, y, z) with his permutation (seed 0) or the table
 * shuffled as noise.h documents for `seed`. */
double pd_noise3(double x, double y, double z, uint32_t seed);
/* The 2D variant of noise.h. */
double pd_noise2(double x, double y, uint32_t seed);

/* The HASH lattice of noise.h in double: 2D and 3D noise at a lattice point
 * given as integer cell + fraction per axis. */
double pd_hash_noise2(int64_t cx, double fx, int64_t cy, double fy, uint32_t seed);
double pd_hash_noise3(int64_t cx, double fx, int64_t cy, double fy, int64_t cz, double fz,
                      uint32_t seed);
/* The PERM lattice at cell + fraction (cells reduced mod 256). */
double pd_perm_noise2(int64_t cx, double fx, int64_t cy, double fy, uint32_t seed);
double pd_perm_noise3(int64_t cx, double fx, int64_t cy, double fy, int64_t cz, double fz,
                      uint32_t seed);

#endif
