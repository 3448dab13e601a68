/* The voxel family's internals: the world's layout, read-only lookups and
 * the per-ISA kernel table. */
#ifndef WK_VOXEL_IMPL_H
#define WK_VOXEL_IMPL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "worldkern/voxel.h"

/* A group's occupancy: block bit b (bx + 4 by + 16 bz, block coordinates
 * within the group) is set in occ when the block is nonempty, and also in
 * brick when it is a brick. The two words share a cache line, so that a
 * walk that finds a nonempty block reads its brick bit from the line it
 * already has. An empty group (occ 0) has no bricks; its brick word holds
 * instead an empty box of groups of its chunk around it (fields
 * WK__VGBOX_*, extents 0..3 inside the chunk), kept empty by edits: the
 * SIMD walks leave a group in an empty aligned pair of groups through it. Brick bits are read only where occ has the block's bit. */
typedef struct wk__vgroup {
    uint64_t occ, brick;
} wk__vgroup;

/* A chunk: 16^3 blocks as 4x4x4 groups of 4x4x4 blocks. Group g (gx + 4 gy
 * + 16 gz) has its occupancy in grp[g]; the brick masks of group g lie in
 * bricks[g] in the order of grp[g].brick's bits (index = popcount of the
 * lower bits). groups has bit g when grp[g].occ != 0. */
typedef struct wk__vchunk {
    int32_t cx, cy, cz;
    uint32_t bricks_total;
    uint64_t groups;
    uint64_t unused; /* grp at offset 32: its 16-byte records never straddle a line (with malloc's alignment) */
    wk__vgroup grp[64];
    uint64_t *bricks[64];
    uint8_t cap[64];
} wk__vchunk;

/* A slot of the chunk table: the key next to the pointer, so that a
 * lookup reads one line of the table and no chunk. c == NULL: free. */
typedef struct wk__vslot {
    int32_t cx, cy, cz, unused;
    wk__vchunk *c;
} wk__vslot;

/* A chunk directory entry (see struct wk_voxel_world); 16 bytes. */
typedef struct wk__vdirent {
    uintptr_t c;     /* chunk address | WK__VDIR_PAIR_EMPTY | group-pair summary (see WK__VDIR_GPAIRS) */
    uint64_t groups; /* the chunk's groups mask, 0 without a chunk */
} wk__vdirent;

struct wk_voxel_world {
    wk_allocator hooks;
    wk__vslot *table;       /* open addressing, linear probing */
    uint64_t mask;          /* capacity - 1 (capacity a power of two) */
    uint64_t chunks;
    uint64_t bytes, solid_blocks, bricks;
    int has_bounds;         /* some chunk has been nonempty */
    int32_t lo[3], hi[3];   /* chunk bounds (inclusive) of every chunk ever nonempty */
    /* The chunk directory, an acceleration the casts use when present: a
     * dense box of chunk entries with its low corner at chunk dlo and dn
     * chunks per axis, containing the bounds; every chunk inside it is in
     * it. An entry (wk__vdirent) is the chunk's address (0: no chunk)
     * with bit 0 (WK__VDIR_PAIR_EMPTY) set when the aligned 2 x 2 x 2
     * block of chunks around it (chunk coordinates 2k and 2k + 1 on each
     * axis) holds no nonempty chunk, and a copy of the chunk's groups mask
     * (0 without a chunk), so that a walk entering a chunk reads one line
     * of the directory and no chunk header; on x86-64 the address word also
     * carries the chunk's group-pair summary (WK__VDIR_GPAIRS), so that the
     * SIMD walk reads that one word. Edits keep all of it exact. Rebuilt
     * larger when the bounds outgrow it; dropped (dir == NULL, casts use
     * the table) when it would exceed WK__VDIR_MAX entries or its
     * allocation fails. */
    struct wk__vdirent *dir;
    int64_t dlo[3];
    uint64_t dn[3];
    size_t dir_entries;
};

/* The directory's largest size: 2^22 entries (64 MiB of 16-byte entries), and no
 * more than max(2^16, 64 per chunk). */
#define WK__VDIR_MAX ((uint64_t)1 << 22)

#define WK__VDIR_PAIR_EMPTY ((uintptr_t)1)

/* A directory entry's word c: the chunk's address (8-aligned; for an
 * empty or absent chunk the empty box code instead, see WK__VBOX_MAX),
 * bit 0 WK__VDIR_PAIR_EMPTY, and on x86-64 the chunk's group-pair summary
 * in bits 56-63 (WK__VDIR_GPAIRS): bit 56 + k is set when the aligned
 * 2 x 2 x 2 block k of groups (k = gx / 2 + 2 (gy / 2) + 4 (gz / 2)) holds a
 * nonempty group, so the summary is nonzero exactly when the chunk is
 * nonempty. The SIMD walk reads this one word per chunk it enters, instead
 * of the word and the groups mask. x86-64 user-space addresses lie below
 * 2^56 (canonical form, 5-level paging included), so the top byte is free;
 * elsewhere the summary is not stored (a tagged pointer may use the top
 * byte) and only the address and bit 0 are there. */
#if defined(__x86_64__) || defined(_M_X64)
#define WK__VDIR_GPAIRS 1
#define WK__VDIR_ADDR (((uintptr_t)1 << 56) - 8)
#else
#define WK__VDIR_GPAIRS 0
#define WK__VDIR_ADDR (~(uintptr_t)7)
#endif

/* A directory entry's word c when its chunk is empty or absent (groups
 * 0; the summary byte 0): no address (nothing reads an empty chunk), but
 * an empty box of chunks around it, all of them empty, so that a walk in
 * the chunk may leave the whole box in one jump. The box is the chunks
 * c - lo .. c + hi per axis a (0 <= lo, hi <= WK__VBOX_MAX), stored as lo
 * in bits WK__VBOX_LO(a), hi in bits WK__VBOX_HI(a) (2 bits each) and
 * s = lo + hi in bits WK__VBOX_S(a) (3 bits). Code 0 is the chunk alone. A
 * box always lies inside the directory. Edits keep every box empty: a
 * chunk that becomes nonempty cuts the boxes around it that contain it,
 * one that becomes empty grows its own box (so a box may be smaller than
 * the largest empty one: that changes no result, only how far a walk
 * jumps). The SIMD walks (AVX-512, AVX2, NEON) use the boxes; the scalar
 * reference uses the 64^3 and 128^3 nodes. */
#define WK__VBOX_MAX 2
#define WK__VBOX_STRIDE 12
#define WK__VBOX_LO(a) (10 + WK__VBOX_STRIDE * (a))
#define WK__VBOX_S(a) (14 + WK__VBOX_STRIDE * (a))
#define WK__VBOX_HI(a) (18 + WK__VBOX_STRIDE * (a))
/* A group's box (see wk__vgroup): the same fields for boxes of groups in
 * the chunk (extents 0..3), with lo and s 2 bits lower, so that one shift
 * and mask yields lo 64 and s 64 of a chunk's box or lo 16 and s 16 of a
 * group's (the bits in between are 0 in both). */
#define WK__VGBOX_LO(a) (WK__VBOX_LO(a) - 2)
#define WK__VGBOX_S(a) (WK__VBOX_S(a) - 2)
#define WK__VGBOX_HI(a) WK__VBOX_HI(a)

/* The chunk of a directory word c whose groups mask is nonzero. */
static inline const struct wk__vchunk *wk__vdir_chunk(uintptr_t c) {
    return (const struct wk__vchunk *)(c & WK__VDIR_ADDR);
}

/* The directory entry of the chunk at chunk coordinates inside the
 * bounds (w->dir must not be NULL). */
static inline const wk__vdirent *wk__vdir_get(const struct wk_voxel_world *w, int64_t cx, int64_t cy, int64_t cz) {
    return &w->dir[((uint64_t)(cz - w->dlo[2]) * w->dn[1] + (uint64_t)(cy - w->dlo[1])) * w->dn[0] +
                   (uint64_t)(cx - w->dlo[0])];
}

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
        const wk__vslot *t = &w->table[i];
        if (!t->c) return NULL;
        if (t->cx == cx && t->cy == cy && t->cz == cz) return t->c;
        i = (i + 1) & w->mask;
    }
}

/* Bit count. Generic x86-64 code has no popcnt instruction, and GCC then
 * calls libgcc's __popcountdi2 (table lookups); the bit-parallel sum below
 * is a dozen inline operations (what clang emits for the builtin there). */
static inline int wk__popcount64(uint64_t v) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__)))
    return __builtin_popcountll(v);
#else
    v -= (v >> 1) & 0x5555555555555555ull;
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((v * 0x0101010101010101ull) >> 56);
#endif
}

/* The 0..63 index of a 4x4x4 part from cell coordinates (quarter blocks,
 * two's complement): shift 4 gives the group in its chunk, 2 the block in
 * its group, 0 the sub-voxel in its block. */
static inline int wk__vpart(uint64_t ux, uint64_t uy, uint64_t uz, int shift) {
    return (int)(((ux >> shift) & 3) + 4 * ((uy >> shift) & 3) + 16 * ((uz >> shift) & 3));
}

/* The sub-voxel mask of block bb of group g of chunk c, a brick (its brick
 * bit set): bricks are kept in the order of their bits. */
static inline uint64_t wk__vbrick_mask(const wk__vchunk *c, int g, int bb) {
    return c->bricks[g][wk__popcount64(c->grp[g].brick & ((1ull << bb) - 1))];
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

/* Ray i of r as the walk's input; 0 when a component is NaN (no hit). Every
 * path loads rays through this, so they all start from the same doubles. */
static inline int wk__vray_load(const wk_rays *r, size_t i, wk__vray *ray) {
    ray->o[0] = r->ox[i];
    ray->o[1] = r->oy[i];
    ray->o[2] = r->oz[i];
    ray->d[0] = r->dx[i];
    ray->d[1] = r->dy[i];
    ray->d[2] = r->dz[i];
    ray->limit = r->tmax ? (double)r->tmax[i] : INFINITY;
    ray->limit_in_s = 0;
    int any_nan = 0;
    for (int a = 0; a < 3; a++) any_nan |= isnan(ray->o[a]) | isnan(ray->d[a]);
    return !any_nan;
}

/* Ray i's hit: t, the block, the sub-voxel (-1: a full block), the face. */
static inline void wk__voxel_write_hit(const wk_hits *h, size_t i, float t, int32_t x, int32_t y, int32_t z,
                                       int8_t sub, int8_t face) {
    h->t[i] = t;
    h->x[i] = x;
    h->y[i] = y;
    h->z[i] = z;
    h->sub[i] = sub;
    h->face[i] = face;
}

/* Ray i's "no hit": t = INFINITY, cell 0, sub and face -1. */
static inline void wk__voxel_write_miss(const wk_hits *h, size_t i) {
    h->t[i] = INFINITY;
    h->x[i] = 0;
    h->y[i] = 0;
    h->z[i] = 0;
    h->sub[i] = -1;
    h->face[i] = -1;
}

/* A ray's walk after its setup: the cell, the last event's s and face,
 * the bounds in cells (LO inclusive, HI exclusive) and per-axis constants. */
typedef struct wk__vstate {
    int64_t q[3], LO[3], HI[3];
    double inv[3];
    double ks, len;
    int step[3];
    int face;
} wk__vstate;

/* The setup of wk__voxel_trace: 0 when the ray cannot hit (limit, empty
 * world, misses the bounds), 2 with *st inside the bounds, ready for the
 * walk's first look at a cell. */
int wk__voxel_begin(const struct wk_voxel_world *w, const wk__vray *ray, wk__vstate *st);

/* The exact state of axis b after every crossing with key <= (ks, ka),
 * from cell q, moving at most to lim. */
int64_t wk__voxel_exact_advance(int64_t q, int step, int b, double o, double d, double ks, int ka, int64_t lim);

/* The bits of the 2 x 2 x 2 cells i, j, k in {0, 1} of a 4 x 4 x 4 mask
 * (bit i + 4j + 16k); shifted left by (index & 0x2A), the aligned pair
 * block around cell `index`. */
#define WK__VPAIR UINT64_C(0x0000000000330033)

/* The group-pair summary of a chunk's groups mask, as stored in the
 * directory word (see WK__VDIR_GPAIRS; 0 where it is not stored). */
static inline uintptr_t wk__vdir_gpairs(uint64_t groups) {
    uintptr_t s = 0;
#if WK__VDIR_GPAIRS
    for (int k = 0; k < 8; k++)
        if (groups & (WK__VPAIR << (2 * (k & 1) + 8 * ((k >> 1) & 1) + 32 * (k >> 2)))) s |= (uintptr_t)1 << (56 + k);
#else
    (void)groups;
#endif
    return s;
}

/* 2^-46: the relative margin of the estimates (see voxel_trace.c). */
#define WK__VOXEL_REL_MARGIN 1.4210854715202004e-14

typedef struct wk__voxel_kernels {
    /* Rays [begin, end) of r into h; r, h validated. */
    void (*raycast)(const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t begin,
                    size_t end);
} wk__voxel_kernels;

#endif /* WK_VOXEL_IMPL_H */
