/* worldkern noise family: batched gradient noise for terrain and caves.
 *
 * Seed 0 with the permutation lattice is Ken Perlin's 2002 improved noise
 * with his permutation table: fade 6t^5 - 15t^4 + 10t^3, 3D gradients from
 * hash & 15 as in his reference. The 2D variant uses the corner hashes
 * p[p[X]+Y], p[p[X]+Y+1], p[p[X+1]+Y], p[p[X+1]+Y+1] and, with h = hash & 7,
 * u = h<4 ? x : y, v = h<4 ? y : x, gradient ((h&1) ? -u : u) + ((h&2) ? -v : v).
 *
 * Accuracy: every function here returns bit-identical results on every
 * instruction set, thread count and sub-grid split (floats compared with
 * memcmp). Against Ken Perlin's double-precision function evaluated at the
 * same (float) coordinate, results agree within 2e-6 absolute wherever every
 * |coordinate| < 2^16.
 *
 * Range (every seed, both lattices): |perlin2| <= 1 and |perlin3| <= 1.0364.
 * These are the suprema over every possible choice of corner gradients, so
 * they hold for any permutation or hash: at a point p of a cell the value
 * is sum_c w_c(p) g_c . (p - c) with fade weights w_c >= 0 summing to 1,
 * and the best gradient per corner gives |dx| + |dy| (2D diagonals) or the
 * two largest of |dx|, |dy|, |dz| (3D edge vectors); maximizing that sum
 * over the cell gives 1 at the cell centre (2D) and 1.0363538 at about
 * (0.355, 0.5, 0.481) (3D). Float rounding adds at most a few ulps. A sum
 * of octaves is bounded by B * sum |amp_k| (B = 1 or 1.0364); normalized
 * fBm with gain > 0 therefore lies in [-B, B], and ridged / billow octaves
 * (1 - 2|n|, 2|n| - 1) in [1 - 2B, 1]. Normalize heights with these fixed
 * ranges (wk_remap(h, n, -B, B, 0, 1, ...)); a per-tile min/max makes
 * visible seams between streamed tiles.
 *
 * 2D streaks: the 2D gradient set (four diagonals, from the seed-0
 * definition) shows 45-degree streaks in single-octave 2D noise; sampling
 * the 3D function on a plane (wk_noise_fbm3_grid with nz = 1, or
 * wk_noise_fbm3_points with a constant z) does not. Several octaves hide it.
 *
 * Worlds: prefer WK_LATTICE_HASH; the PERM lattice repeats every 256
 * lattice cells (every 16384 world units at frequency 1/64).
 *
 * Seeds: seed 0 is Perlin's table. Any other seed s shuffles that table with
 * Fisher-Yates, for i = 255 down to 1 swapping entries i and r % (i + 1),
 * where r is the next output of this generator, state starting at s:
 *     state += 0x9E3779B9; z = state;
 *     z = (z ^ (z >> 16)) * 0x85EBCA6B; z = (z ^ (z >> 13)) * 0xC2B2AE35;
 *     r = z ^ (z >> 16);                  (all uint32_t arithmetic)
 * Shuffled tables are kept in a small per-thread cache (16 seeds), so a
 * program generating chunk after chunk with one setting pays each seed's
 * shuffle once per thread; calls never allocate.
 */
#ifndef WORLDKERN_NOISE_H
#define WORLDKERN_NOISE_H

#include "grid.h"
#include "wk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Perlin noise at n points given as structure of arrays.
 * x, y (z): n coordinates each, in lattice units (one lattice cell = 1.0).
 * out: n floats. Inputs and output may alias exactly (out == x is fine) but
 * must not overlap partially. n = 0 is a no-op (pointers may then be NULL).
 * A NaN or infinite coordinate gives a NaN output (the quiet NaN 0x7FC00000).
 * Partial overlap of out with an input is WK_ERR_ALIAS.
 * Errors: WK_ERR_NULL; WK_ERR_OVERFLOW when n * sizeof(float) overflows. */
WK_API wk_status wk_noise_perlin2(const float *x, const float *y, size_t n,
                                  uint32_t seed, float *out, const wk_exec *exec);
WK_API wk_status wk_noise_perlin3(const float *x, const float *y, const float *z,
                                  size_t n, uint32_t seed, float *out, const wk_exec *exec);

/* Which lattice fBm samples.
 * WK_LATTICE_PERM: the seeded permutation above (period 256 cells).
 * WK_LATTICE_HASH: the same gradients on a lattice without period: the
 *   gradient index of corner (X, Y[, Z]) (int64 cells) is
 *       h = ax(X) ^ ay(Y) [^ az(Z)];  h = (h ^ (h >> 16)) * 0x7FEB352D;
 *       gradient = h >> 29 (2D, 0..7) or h >> 28 (3D, 0..15)
 *   with, for axis a = 0, 1, 2 (x, y, z), all uint64_t arithmetic:
 *       v = (uint64_t)C * 0x9E3779B97F4A7C15 + (seed + 1) * 0xD1B54A32D192ED03
 *           + (a + 1) * 0x8CB92BA72F3D8DD7;
 *       v = (v ^ (v >> 32)) * 0xD6E8FEB86659FD93;  axis hash = (uint32_t)(v ^ (v >> 32)). */
enum { WK_LATTICE_PERM = 0, WK_LATTICE_HASH = 1 };

/* Fractal Brownian motion: the sum of `octaves` noise layers.
 * Octave k (0-based) evaluates the noise with seed (seed + k) at
 * position * frequency * lacunarity^k with amplitude gain^k (both powers by
 * repeated multiplication, frequency in double, amplitude in float). With
 * normalize != 0 the sum is divided by the sum of the amplitudes.
 * Fixed-width fields and reserved space (zero) follow wk.h's growth rule. */
typedef struct wk_fbm {
    uint32_t lattice;   /* WK_LATTICE_PERM or WK_LATTICE_HASH */
    uint32_t seed;
    int32_t octaves;    /* 1..16 */
    int32_t normalize;  /* nonzero: divide by the sum of amplitudes (must not be 0) */
    double frequency;   /* lattice cells per world unit; finite, > 0 */
    double lacunarity;  /* frequency factor per octave; finite, > 0 */
    float gain;         /* amplitude factor per octave; finite */
    uint32_t fractal;   /* WK_FRACTAL_FBM (0), WK_FRACTAL_RIDGED or WK_FRACTAL_BILLOW */
    uint32_t reserved[6];
} wk_fbm;
/* HASH lattice, seed 0, 5 octaves normalized, a lattice cell every 64 world
 * units, lacunarity 2, gain 0.5, plain fBm. */
#define WK_FBM_DEFAULTS {WK_LATTICE_HASH, 0, 5, 1, 1.0 / 64, 2.0, 0.5f, 0, {0, 0, 0, 0, 0, 0}}

/* Fractal variants (wk_fbm.fractal): what each octave adds, with n the
 * octave's noise value. Every variant is exact across ISAs like fBm.
 * WK_FRACTAL_FBM     amp * n (the default; 0 in older code's reserved space)
 * WK_FRACTAL_RIDGED  amp * (1 - 2|n|): sharp ridges (value 1) where the noise
 *                    crosses zero; FastNoiseLite's "Ridged" fractal with
 *                    weighted strength 0
 * WK_FRACTAL_BILLOW  amp * (2|n| - 1): billowy, rounded lumps with creases
 *                    at zero (libnoise's Billow without its 0.5 offset)
 * With normalize, the sum is divided by the sum of amplitudes, so for
 * gain > 0 ridged and billow values lie in [-1, 1] too. The derivative
 * functions accept only WK_FRACTAL_FBM (others: WK_ERR_INVALID_ARG). */
enum { WK_FRACTAL_FBM = 0, WK_FRACTAL_RIDGED = 1, WK_FRACTAL_BILLOW = 2 };

/* Grids: wk_grid2 / wk_grid3 of grid.h. Lattice coordinates (cell +
 * fraction) are formed in double, so sampling stays smooth far from the
 * origin. */

/* fBm over a grid. Errors, with `out` untouched (wk_last_error_detail()
 * names the argument and value):
 *   WK_ERR_NULL         f, g or out is NULL (out may be NULL for an empty grid)
 *   WK_ERR_INVALID_ARG  octaves outside 1..16, lattice or fractal unknown, step,
 *                       frequency or lacunarity <= 0, normalize with a zero
 *                       amplitude sum, nonzero reserved space
 *   WK_ERR_NOT_FINITE   step, frequency, lacunarity or gain not finite
 *   WK_ERR_STRIDE       stride < nx, or slice_stride too small (3D)
 *   WK_ERR_OVERFLOW     the buffer extent overflows size_t, a global index
 *                       leaves +-2^53, a lattice coordinate
 *                       ((i0 + i) * step) * frequency * lacunarity^k reaches
 *                       2^53 in magnitude at some octave (a double has no
 *                       fraction bits left there: every sample would be a
 *                       lattice point), or the amplitudes (gain^k) sum to
 *                       infinity
 *
 * Precision far from the origin: the fraction within a cell is taken from
 * the double lattice coordinate, so its resolution is one ulp of that
 * coordinate: 2^-28 cells at 2^24, 1/2 cell at 2^51, and from 2^52 on every
 * double is a whole number (every sample a lattice point, noise 0, still
 * accepted below the 2^53 limit). Float's own resolution of the fraction
 * (2^-24) holds below 2^29 cells; keep worlds well inside that. */
WK_API wk_status wk_noise_fbm2_grid(const wk_fbm *f, const wk_grid2 *g, float *out,
                                    const wk_exec *exec);
WK_API wk_status wk_noise_fbm3_grid(const wk_fbm *f, const wk_grid3 *g, float *out,
                                    const wk_exec *exec);

/* fBm over a 2D grid with its analytic gradient: value as wk_noise_fbm2_grid
 * (bit-identical), ddx and ddy the derivatives of that value with respect to
 * world x and y (per world unit). All three buffers use the grid's layout and
 * must not overlap (WK_ERR_ALIAS). Errors as wk_noise_fbm2_grid. */
WK_API wk_status wk_noise_fbm2_grid_deriv(const wk_fbm *f, const wk_grid2 *g, float *value,
                                          float *ddx, float *ddy, const wk_exec *exec);

/* fBm over a 3D grid with its analytic gradient (cave and voxel normals):
 * value as wk_noise_fbm3_grid (bit-identical), ddx, ddy, ddz the
 * derivatives of that value with respect to world x, y and z (per world
 * unit), by the product rule through the fade curves, exact across ISAs.
 * The four buffers use the grid's layout and must not overlap
 * (WK_ERR_ALIAS); any of them NULL is WK_ERR_NULL (for a non-empty grid).
 * Errors as wk_noise_fbm3_grid; f->fractal must be WK_FRACTAL_FBM. */
WK_API wk_status wk_noise_fbm3_grid_deriv(const wk_fbm *f, const wk_grid3 *g, float *value,
                                          float *ddx, float *ddy, float *ddz, const wk_exec *exec);

/* fBm at n arbitrary world positions (x[i], y[i]) (2D) or (x[i], y[i],
 * z[i]) (3D), in double, both lattices. The lattice coordinate of octave k
 * is x[i] * (frequency * lacunarity^k), formed in double as the grids form
 * ((i0 + i) * step) * ...: a point at x = (double)(i0 + i) * step returns
 * exactly the bits the grid gives at sample i (any origin), on every ISA.
 * out: n floats. Inputs are not modified; out must not overlap them
 * (WK_ERR_ALIAS). n = 0 is a no-op (pointers may be NULL). Per call the
 * coordinates are scanned once for validation before anything is written.
 * Errors, out untouched:
 *   WK_ERR_NULL         f, or x, y (z) or out with n > 0
 *   WK_ERR_INVALID_ARG  f as wk_noise_fbm2_grid
 *   WK_ERR_NOT_FINITE   a coordinate is NaN or infinite (detail names it),
 *                       or f's frequency, lacunarity or gain
 *   WK_ERR_OVERFLOW     |coordinate| * frequency * lacunarity^k reaches 2^53
 *                       at some octave, n * sizeof(double) overflows size_t,
 *                       or the amplitudes sum to infinity
 * Thread safety: any number of calls at once. */
WK_API wk_status wk_noise_fbm2_points(const wk_fbm *f, const double *x, const double *y, size_t n,
                                      float *out, const wk_exec *exec);
WK_API wk_status wk_noise_fbm3_points(const wk_fbm *f, const double *x, const double *y,
                                      const double *z, size_t n, float *out, const wk_exec *exec);

/* Domain warp (FastNoiseLite style): each grid sample's world position p
 * is first moved by a second noise, then f is sampled there:
 *     q_a = p_a + amplitude * W_a(p)      for each axis a (0 = x, 1 = y, 2 = z)
 *     out = f at q
 * where p = ((i0 + i) * step, ...) as for the grids (double), W_a is the fBm
 * `noise` with seed noise.seed + a * 0x9E3779B9 (uint32 arithmetic),
 * evaluated as wk_noise_fbm2_points / wk_noise_fbm3_points at p (a float),
 * q_a = p_a + amplitude * (double)W_a in double, and out is exactly
 * wk_noise_fbm*_points(f, q). Bit-identical across ISAs, thread counts and
 * sub-grid splits. Costs about (1 + dims x warp octaves / f octaves) times
 * the point path per sample. */
typedef struct wk_warp {
    wk_fbm noise;      /* the warping noise (any lattice, fractal, octaves) */
    double amplitude;  /* world units the position moves per unit of noise; finite (0: no warp) */
    uint64_t reserved[2];
} wk_warp;
/* Default fBm noise warping by up to about 32 world units (half a cell at
 * the default frequency). */
#define WK_WARP_DEFAULTS {WK_FBM_DEFAULTS, 32.0, {0, 0}}

/* Domain-warped fBm over a grid. Errors, out untouched: as
 * wk_noise_fbm2_grid / wk_noise_fbm3_grid, plus WK_ERR_NULL for w,
 * WK_ERR_INVALID_ARG for w's reserved space or a bad w->noise,
 * WK_ERR_NOT_FINITE for the amplitude, and WK_ERR_OVERFLOW when a warped
 * lattice coordinate could reach 2^53 (bounded with |noise| <= 1.1 per
 * octave). */
WK_API wk_status wk_noise_fbm2_grid_warp(const wk_fbm *f, const wk_warp *w, const wk_grid2 *g,
                                         float *out, const wk_exec *exec);
WK_API wk_status wk_noise_fbm3_grid_warp(const wk_fbm *f, const wk_warp *w, const wk_grid3 *g,
                                         float *out, const wk_exec *exec);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_NOISE_H */
