/* Lattice setup shared by every ISA. */
#ifndef WK_NOISE_LATTICE_H
#define WK_NOISE_LATTICE_H

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

#endif /* WK_NOISE_LATTICE_H */
