/* Lattice setup shared by every ISA. */
#ifndef WK_NOISE_LATTICE_H
#define WK_NOISE_LATTICE_H

#include <math.h>

#include "noise_impl.h"

/* Perlin's permutation for seed 0, else its documented seeded shuffle. */
void wk__perm_init(wk_perm *perm, uint32_t seed);

/* The same permutation from a per-thread cache (seed 0: Perlin's table,
 * static). Valid until this thread asks for another seed with the same low
 * 4 bits; the 16 consecutive seeds of one call's octaves never collide. */
const wk_perm *wk__perm_get(uint32_t seed);

/* The HASH lattice's hash of one axis (0 = x, 1 = y, 2 = z), noise.h. */
static inline uint32_t wk__axis_hash(int64_t cell, uint32_t seed, unsigned axis) {
    uint64_t v = (uint64_t)cell * 0x9E3779B97F4A7C15u + ((uint64_t)seed + 1) * 0xD1B54A32D192ED03u +
                 ((uint64_t)axis + 1) * 0x8CB92BA72F3D8DD7u;
    v = (v ^ (v >> 32)) * 0xD6E8FEB86659FD93u;
    return (uint32_t)(v ^ (v >> 32));
}

/* Lattice data of n coordinates pos[i] * freq along one axis (the
 * arithmetic of noise.c's axis_lattice, which the grids use): keys of the
 * cell and the next (PERM: cell & 255, then through `perm` when not NULL;
 * HASH: axis hashes), fraction, fraction - 1 and fade. Every ISA's table
 * compiles this same C (no contraction, IEEE double and int64 arithmetic),
 * so the bits agree. (GCC 12 keeps the coordinate loops scalar, reporting
 * no vector type for them; the gains come from the hoisted branches and the
 * shared hash base. Vectorizing them needs double and int64 ops in the
 * vector layer.) */
static inline void wk__coords_impl(const double *pos, size_t n, double freq, uint32_t lattice, uint32_t seed,
                                   unsigned axis, const uint8_t *perm, uint32_t *restrict key0,
                                   uint32_t *restrict key1, float *restrict frac, float *restrict frac1,
                                   float *restrict fade) {
    if (lattice == WK_LATTICE_PERM) {
        for (size_t i = 0; i < n; i++) {
            double p = pos[i] * freq, cell = floor(p);
            int64_t c = (int64_t)cell;
            key0[i] = (uint32_t)((uint64_t)c & 255);
            key1[i] = (uint32_t)((uint64_t)(c + 1) & 255);
            float t = (float)(p - cell);
            frac[i] = t;
            frac1[i] = t - 1.0f;
            fade[i] = wk_fade(t);
        }
        if (perm)
            for (size_t i = 0; i < n; i++) key0[i] = perm[key0[i]], key1[i] = perm[key1[i]];
        return;
    }
    const uint64_t base = ((uint64_t)seed + 1) * 0xD1B54A32D192ED03u + ((uint64_t)axis + 1) * 0x8CB92BA72F3D8DD7u;
    for (size_t i = 0; i < n; i++) {
        double p = pos[i] * freq, cell = floor(p);
        int64_t c = (int64_t)cell;
        /* wk__axis_hash(c) and wk__axis_hash(c + 1) */
        uint64_t v0 = (uint64_t)c * 0x9E3779B97F4A7C15u + base, v1 = v0 + 0x9E3779B97F4A7C15u;
        v0 = (v0 ^ (v0 >> 32)) * 0xD6E8FEB86659FD93u;
        v1 = (v1 ^ (v1 >> 32)) * 0xD6E8FEB86659FD93u;
        key0[i] = (uint32_t)(v0 ^ (v0 >> 32));
        key1[i] = (uint32_t)(v1 ^ (v1 >> 32));
        float t = (float)(p - cell);
        frac[i] = t;
        frac1[i] = t - 1.0f;
        fade[i] = wk_fade(t);
    }
}

/* Lattice data of `count` grid samples along one axis: the coordinate of
 * sample i is ((double)(origin + i) * step) * freq; cells[i] = floor of it,
 * keys of that cell and the next (PERM: cell & 255; HASH: axis hashes),
 * fraction t (float), t - 1, fade(t) and fade'(t). All outputs required.
 * Compiled per ISA like wk__coords_impl (same bits everywhere); grids
 * call it for columns, rows and slices. */
static inline void wk__grid_coords_impl(int64_t origin, size_t count, double step, double freq, uint32_t lattice,
                                        uint32_t seed, unsigned axis, int64_t *restrict cells,
                                        uint32_t *restrict key0, uint32_t *restrict key1, float *restrict frac,
                                        float *restrict frac1, float *restrict fade, float *restrict dfade) {
    for (size_t i = 0; i < count; i++) {
        double p = ((double)(origin + (int64_t)i) * step) * freq, cell = floor(p);
        int64_t c = (int64_t)cell;
        cells[i] = c;
        float t = (float)(p - cell);
        frac[i] = t;
        frac1[i] = t - 1.0f;
        fade[i] = wk_fade(t);
        dfade[i] = wk_fade_deriv(t);
    }
    if (lattice == WK_LATTICE_PERM) {
        for (size_t i = 0; i < count; i++) {
            key0[i] = (uint32_t)((uint64_t)cells[i] & 255);
            key1[i] = (uint32_t)((uint64_t)(cells[i] + 1) & 255);
        }
        return;
    }
    const uint64_t base = ((uint64_t)seed + 1) * 0xD1B54A32D192ED03u + ((uint64_t)axis + 1) * 0x8CB92BA72F3D8DD7u;
    for (size_t i = 0; i < count; i++) {
        uint64_t v0 = (uint64_t)cells[i] * 0x9E3779B97F4A7C15u + base, v1 = v0 + 0x9E3779B97F4A7C15u;
        v0 = (v0 ^ (v0 >> 32)) * 0xD6E8FEB86659FD93u;
        v1 = (v1 ^ (v1 >> 32)) * 0xD6E8FEB86659FD93u;
        key0[i] = (uint32_t)(v0 ^ (v0 >> 32));
        key1[i] = (uint32_t)(v1 ^ (v1 >> 32));
    }
}

#endif /* WK_NOISE_LATTICE_H */
