/* The voxel family's internals: the world's layout, read-only lookups and
 * the per-ISA kernel table. */
#ifndef WK_VOXEL_IMPL_H
#define WK_VOXEL_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "worldkern/voxel.h"

/* A chunk: 16^3 blocks as 4x4x4 groups of 4x4x4 blocks. Group g (gx + 4 gy
 * + 16 gz) holds block bit b (bx + 4 by + 16 bz, block coordinates within
 * the group) in occ[g] when the block is nonempty, and also in brick[g]
 * when it is a brick; the brick masks of group g lie in bricks[g] in the
 * order of brick[g]'s bits (index = popcount of the lower bits). groups
 * has bit g when occ[g] != 0. */
typedef struct wk__vchunk {
    int32_t cx, cy, cz;
    uint32_t bricks_total;
    uint64_t groups;
    uint64_t occ[64];
    uint64_t brick[64];
    uint64_t *bricks[64];
    uint8_t cap[64];
} wk__vchunk;

struct wk_voxel_world {
    wk_voxel_alloc hooks;
    wk__vchunk **table;     /* open addressing, linear probing; NULL = free */
    uint64_t mask;          /* capacity - 1 (capacity a power of two) */
    uint64_t chunks;
    uint64_t bytes, solid_blocks, bricks;
    int has_bounds;         /* some chunk has been nonempty */
    int32_t lo[3], hi[3];   /* chunk bounds (inclusive) of every chunk ever nonempty */
};

static inline uint64_t wk__vhash(int32_t cx, int32_t cy, int32_t cz) {
    uint64_t h = (uint64_t)(uint32_t)cx * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)cy * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)(uint32_t)cz * 0x165667B19E3779F9ull;
    return h ^ (h >> 29);
}

static inline const wk__vchunk *wk__vfind(const struct wk_voxel_world *w, int32_t cx, int32_t cy,
                                          int32_t cz) {
    uint64_t i = wk__vhash(cx, cy, cz) & w->mask;
    for (;;) {
        const wk__vchunk *c = w->table[i];
        if (!c) return NULL;
        if (c->cx == cx && c->cy == cy && c->cz == cz) return c;
        i = (i + 1) & w->mask;
    }
}

static inline int wk__popcount64(uint64_t v) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(v);
#else
    int n = 0;
    for (; v; v &= v - 1) n++;
    return n;
#endif
}

/* Arithmetic shift right of a signed coordinate (floor division by 2^k). */
static inline int64_t wk__vshr(int64_t v, int k) {
    return v >= 0 ? v >> k : -((-v - 1) >> k) - 1;
}

/* A ray for the traversal: origin and direction in double, the limit in
 * t (Euclidean) or, with limit_in_s, in the ray parameter s. */
typedef struct wk__vray {
    double o[3], d[3];
    double limit;
    int limit_in_s;
} wk__vray;

typedef struct wk__vhit {
    float t;
    int32_t x, y, z;
    int8_t sub, face;
    double s;
} wk__vhit;

/* The traversal (voxel_trace.c): 1 and *hit on a hit, 0 (hit untouched)
 * when none. */
int wk__voxel_trace(const struct wk_voxel_world *w, const wk__vray *ray, wk__vhit *hit);

typedef struct wk__voxel_kernels {
    /* Rays [begin, end) of r into h; r, h validated. */
    void (*raycast)(const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t begin,
                    size_t end);
} wk__voxel_kernels;

#endif /* WK_VOXEL_IMPL_H */
