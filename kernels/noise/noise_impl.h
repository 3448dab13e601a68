/* The noise family's internal contract: the one list of per-ISA entry points
 * and the data they share. noise.c validates and prepares lattice data in
 * scalar code shared by every ISA (so per-column and per-row values are
 * identical everywhere); the per-ISA functions do the per-point work. */
#ifndef WK_NOISE_IMPL_H
#define WK_NOISE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "worldkern/grid.h"
#include "worldkern/noise.h"

/* A seeded permutation: 256 entries plus padding so that a 4-byte read at
 * any index 0..255 stays inside (the AVX2 gather reads 32-bit words). */
typedef struct wk_perm {
    uint8_t p[256 + 4];
} wk_perm;

/* The corner keys of one lattice row for the current octave.
 * PERM: keys are cell & 255 and a corner's gradient index is
 *       perm[(column key + row key) & 255].
 * HASH: keys are the axis hashes of noise.h and a corner's gradient index is
 *       mix(column key ^ row key) >> 29 (2D) or >> 28 (3D). */
typedef struct wk_octave {
    uint32_t lattice;
    const wk_perm *perm;  /* PERM only */
    float amp;            /* amplitude of this octave */
    int first;            /* 1: out = amp * n; 0: out += amp * n */
    int divide;           /* 1: then out /= divisor (normalized last octave) */
    float divisor;
    uint32_t fractal;     /* WK_FRACTAL_*: the noise n becomes 1 - 2|n| (ridged) or 2|n| - 1 (billow) first */
} wk_octave;

/* One row of a 2D grid octave: per-column arrays (n entries each) and the
 * row's scalars. For PERM, q0 = perm[X & 255] and q1 = perm[(X+1) & 255] and
 * y0, y1 = Y & 255, (Y+1) & 255; for HASH, q0/q1 = ax(X), ax(X+1) and
 * y0/y1 = ay(Y), ay(Y+1). fx1 = fx - 1.0f, u = fade(fx); likewise fy1, v. */
typedef struct wk_row2 {
    const uint32_t *q0, *q1;
    const float *fx, *fx1, *u;
    uint32_t y0, y1;
    float fy, fy1, v;
    /* Dense tiles (at most WK_DENSE_CELLS lattice cells across the row) may
     * also give, per column, the cell's offset from the tile's first cell,
     * and per cell offset c the gradient indices of corners (c, Y) and
     * (c, Y+1): the SIMD paths then look corners up in registers. The
     * values are those the keys give; NULL when not dense. */
    const uint32_t *cell;
    const uint32_t *h_y0, *h_y1;
} wk_row2;

/* One row of a 3D grid octave at fixed (j, k). The per-column keys already
 * fold in the row's Y: PERM q_ab = perm[(perm[(X+a) & 255] + Y + b) & 255],
 * HASH q_ab = ax(X+a) ^ ay(Y+b); z0/z1 are PERM (Z & 255, (Z+1) & 255) or
 * HASH az(Z), az(Z+1). */
typedef struct wk_row3 {
    const uint32_t *q00, *q10, *q01, *q11;
    const float *fx, *fx1, *u;
    uint32_t z0, z1;
    float fy, fy1, v;
    float fz, fz1, w;
    /* Dense tiles, as wk_row2: per cell offset c the gradient indices of
     * corners (c, Y+b, Z+d) in h[b + 2 d]; NULL when not dense. */
    const uint32_t *cell;
    const uint32_t *h[4];
} wk_row3;

/* Most cells a dense row may span, the next cell included: one 16-entry
 * register table. */
#define WK_DENSE_CELLS 16

/* A whole 2D tile of one octave in one call: the columns (as wk_row2) and
 * per row j the row keys y0[j], y1[j] and fy[j], fy1[j], v[j]; row j goes
 * to out + j * stride. Dense tiles (cell != NULL) are cut into `segments`
 * runs of seg_cols columns (the last may be shorter); cell[i] is column
 * i's cell offset from its segment's first cell and cell_key[s][c] the
 * column key of that segment's cell c (c < 16; entries past the segment's
 * cells are never looked up). The per-ISA code then builds each row's
 * 16-entry corner tables from the keys in registers. */
typedef struct wk_tile2 {
    size_t cols, rows, stride;
    const uint32_t *q0, *q1;
    const float *fx, *fx1, *u;
    const uint32_t *y0, *y1;
    const float *fy, *fy1, *v;
    const uint32_t *cell;
    const uint32_t (*cell_key)[WK_DENSE_CELLS];
    const uint32_t *ncells; /* per segment: cells it spans, the next one included (<= 16) */
    size_t seg_cols, segments;
} wk_tile2;

/* One row (fixed j) of a 3D tile across its slices in one call: the
 * row's column keys with Y folded in and its y scalars as wk_row3, and per
 * slice s the z keys z0[s], z1[s] and fz[s], fz1[s], w[s]; slice s goes to
 * out + s * slice_stride. Dense rows (cell != NULL): segments as wk_tile2,
 * cell_y0[seg][c] / cell_y1[seg][c] the keys of cell c with Y (Y+1)
 * folded in (entries past the segment's cells are zero and never used). */
typedef struct wk_tile3 {
    size_t cols, slices, slice_stride;
    const uint32_t *q00, *q10, *q01, *q11;
    const float *fx, *fx1, *u;
    float fy, fy1, v;
    const uint32_t *z0, *z1;
    const float *fz, *fz1, *w;
    const uint32_t *cell;
    const uint32_t (*cell_y0)[WK_DENSE_CELLS], (*cell_y1)[WK_DENSE_CELLS];
    const uint32_t *ncells; /* per segment, as wk_tile2 */
    size_t seg_cols, segments;
} wk_tile3;

/* Derivative rows of a 2D grid octave add the fade derivatives. */
typedef struct wk_row2d {
    wk_row2 r;
    const float *du;  /* per column fade'(fx) */
    float dv;         /* fade'(fy) */
    float sx, sy;     /* world-to-lattice scale of this octave (frequency) */
} wk_row2d;

/* fBm at arbitrary points: per-point lattice data of one octave (every
 * array n entries). 2D: q0/q1 are the column keys of X and X+1 as in
 * wk_row2 (PERM perm[X & 255], perm[(X+1) & 255]; HASH ax(X), ax(X+1)) and
 * y0/y1 the point's row keys (PERM Y & 255, (Y+1) & 255; HASH ay(Y),
 * ay(Y+1)). 3D: q_ab fold in the point's Y as in wk_row3 and z0/z1 are
 * the point's Z keys. The corner gradient and the arithmetic are those of
 * the grid rows, so a point gives the bits of the grid sample at the same
 * lattice coordinate. */
typedef struct wk_pts2 {
    const uint32_t *q0, *q1, *y0, *y1;
    const float *fx, *fx1, *u, *fy, *fy1, *v;
} wk_pts2;

typedef struct wk_pts3 {
    const uint32_t *q00, *q10, *q01, *q11, *z0, *z1;
    const float *fx, *fx1, *u, *fy, *fy1, *v, *fz, *fz1, *w;
} wk_pts3;

/* Derivative rows of a 3D grid octave (keys only, no dense tables). */
typedef struct wk_row3d {
    wk_row3 r;
    const float *du;  /* per column fade'(fx) */
    float dv, dw;     /* fade'(fy), fade'(fz) */
    float sx, sy, sz; /* world-to-lattice scale (frequency) */
} wk_row3d;

/* Per-ISA entry points; `n` counts points (columns). */
#define WK_NOISE_FUNCS(sfx)                                                          \
    void wk__noise_row2_##sfx(const wk_row2 *r, const wk_octave *o, size_t n,        \
                             float *out);                                           \
    void wk__noise_row3_##sfx(const wk_row3 *r, const wk_octave *o, size_t n,        \
                             float *out);                                           \
    void wk__noise_row2d_##sfx(const wk_row2d *r, const wk_octave *o, size_t n,      \
                              float *value, float *ddx, float *ddy);                \
    void wk__perlin2_##sfx(const float *x, const float *y, size_t n,                 \
                          const wk_perm *perm, float *out);                         \
    void wk__perlin3_##sfx(const float *x, const float *y, const float *z, size_t n, \
                          const wk_perm *perm, float *out);                         \
    void wk__noise_tile2_##sfx(const wk_tile2 *t, const wk_octave *o, float *out);  \
    void wk__noise_row3d_##sfx(const wk_row3d *r, const wk_octave *o, size_t n,      \
                              float *value, float *ddx, float *ddy, float *ddz);    \
    void wk__noise_tile3_##sfx(const wk_tile3 *t, const wk_octave *o, float *out);  \
    void wk__noise_coords_##sfx(const double *pos, size_t n, double freq, uint32_t lattice,    \
                               uint32_t seed, unsigned axis, const uint8_t *perm, uint32_t *key0, \
                               uint32_t *key1, float *frac, float *frac1, float *fade);       \
    void wk__noise_grid_coords_##sfx(int64_t origin, size_t count, double step, double freq,        \
                                    uint32_t lattice, uint32_t seed, unsigned axis, int64_t *cells,  \
                                    uint32_t *key0, uint32_t *key1, float *frac, float *frac1,       \
                                    float *fade, float *dfade);                                       \
    void wk__noise_pts2_##sfx(const wk_pts2 *p, const wk_octave *o, size_t n,        \
                             float *out);                                           \
    void wk__noise_pts3_##sfx(const wk_pts3 *p, const wk_octave *o, size_t n,        \
                             float *out);

WK_NOISE_FUNCS(ref)
WK_NOISE_FUNCS(avx2)
WK_NOISE_FUNCS(avx512)
WK_NOISE_FUNCS(avx512vbmi)
WK_NOISE_FUNCS(neon)

typedef struct wk__noise_kernels {
    void (*row2)(const wk_row2 *, const wk_octave *, size_t, float *);
    void (*row3)(const wk_row3 *, const wk_octave *, size_t, float *);
    void (*row2d)(const wk_row2d *, const wk_octave *, size_t, float *, float *, float *);
    void (*perlin2)(const float *, const float *, size_t, const wk_perm *, float *);
    void (*perlin3)(const float *, const float *, const float *, size_t, const wk_perm *,
                    float *);
    void (*pts2)(const wk_pts2 *, const wk_octave *, size_t, float *);
    void (*pts3)(const wk_pts3 *, const wk_octave *, size_t, float *);
    void (*tile2)(const wk_tile2 *, const wk_octave *, float *);
    void (*tile3)(const wk_tile3 *, const wk_octave *, float *);
    void (*coords)(const double *, size_t, double, uint32_t, uint32_t, unsigned, const uint8_t *, uint32_t *,
                   uint32_t *, float *, float *, float *);
    void (*grid_coords)(int64_t, size_t, double, double, uint32_t, uint32_t, unsigned, int64_t *, uint32_t *,
                        uint32_t *, float *, float *, float *, float *);
    void (*row3d)(const wk_row3d *, const wk_octave *, size_t, float *, float *, float *, float *);
} wk__noise_kernels;

/* ---- Scalar building blocks shared by the reference and lattice setup. ---- */

/* Ken Perlin's fade 6t^5 - 15t^4 + 10t^3, in his operation order. */
static inline float wk_fade(float t) { return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f); }

/* Its derivative 30 t^2 (t - 1)^2. */
static inline float wk_fade_deriv(float t) {
    float s = t * (t - 1.0f);
    return 30.0f * (s * s);
}

/* The HASH lattice's per-corner mix (noise.h). */
static inline uint32_t wk_hash_mix(uint32_t h) { return (h ^ (h >> 16)) * 0x7FEB352Du; }

/* Gradient index of a lattice corner from its column key and row key;
 * shift is 29 for 2D gradients and 28 for 3D. */
static inline uint32_t wk_corner_index(const wk_octave *o, uint32_t col, uint32_t row, int shift) {
    if (o->lattice == WK_LATTICE_PERM) return o->perm->p[(col + row) & 255];
    return wk_hash_mix(col ^ row) >> shift;
}

/* The quiet NaN every path returns for a non-finite coordinate. */
#define WK_CANONICAL_NAN_BITS 0x7FC00000u

#endif /* WK_NOISE_IMPL_H */
