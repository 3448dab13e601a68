/* The voxel world: sparse chunk storage and O(1) edits. */
#include "core/wk_fp_guard.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/wk_core.h"
#include "voxel_impl.h"
#include "worldkern/noise.h"

typedef struct wk_voxel_world world;

/* Directories whose region around the bounds has more entries than this
 * get no empty boxes at a rebuild (code 0 everywhere; edits still grow the
 * boxes of chunks that become empty). */
#define WK__VBOX_REBUILD_MAX ((uint64_t)1 << 16)


static void *w_alloc(world *w, size_t bytes) {
    void *p = w->hooks.alloc(w->hooks.user, bytes);
    if (p) w->bytes += bytes;
    return p;
}
static void w_free(world *w, void *p, size_t bytes) {
    if (!p) return;
    w->hooks.free(w->hooks.user, p, bytes);
    w->bytes -= bytes;
}

enum { INITIAL_CAPACITY = 64 };

static wk_status create_run(wk_voxel_world **out, const wk_allocator *alloc) {
    if (!out) return wk__fail(WK_ERR_NULL, "w is NULL");
    *out = NULL;
    wk_allocator hooks;
    wk_status s = wk__allocator_resolve(alloc, "alloc", &hooks);
    if (s != WK_OK) return s;
    world *w = hooks.alloc(hooks.user, sizeof *w);
    if (!w) return wk__fail(WK_ERR_NO_MEMORY, "allocating the world (%zu bytes) failed", sizeof *w);
    memset(w, 0, sizeof *w);
    w->hooks = hooks;
    w->bytes = sizeof *w;
    size_t tbytes = INITIAL_CAPACITY * sizeof(wk__vslot);
    w->table = w_alloc(w, tbytes);
    if (!w->table) {
        hooks.free(hooks.user, w, sizeof *w);
        return wk__fail(WK_ERR_NO_MEMORY, "allocating the chunk table (%zu bytes) failed", tbytes);
    }
    memset(w->table, 0, tbytes);
    w->mask = INITIAL_CAPACITY - 1;
    *out = w;
    return WK_OK;
}

wk_status wk_voxel_world_create(wk_voxel_world **w, const wk_allocator *alloc) {
    wk__detail_reset(__func__);
    return create_run(w, alloc);
}

void wk_voxel_world_destroy(wk_voxel_world *w) {
    if (!w) return;
    for (uint64_t i = 0; i <= w->mask; i++) {
        wk__vchunk *c = w->table[i].c;
        if (!c) continue;
        for (int g = 0; g < 64; g++) w_free(w, c->bricks[g], (size_t)c->cap[g] * sizeof(uint64_t));
        w_free(w, c, sizeof *c);
    }
    w_free(w, w->table, (size_t)(w->mask + 1) * sizeof(wk__vslot));
    w_free(w, w->dir, w->dir_entries * sizeof *w->dir);
    wk_allocator hooks = w->hooks;
    hooks.free(hooks.user, w, sizeof *w);
}

/* Doubles the table; 0 on allocation failure (table unchanged). */
static int grow_table(world *w) {
    uint64_t cap = (w->mask + 1) * 2;
    if (cap > SIZE_MAX / sizeof(wk__vslot)) return 0;
    wk__vslot *t = w_alloc(w, (size_t)cap * sizeof *t);
    if (!t) return 0;
    memset(t, 0, (size_t)cap * sizeof *t);
    for (uint64_t i = 0; i <= w->mask; i++) {
        const wk__vslot *o = &w->table[i];
        if (!o->c) continue;
        uint64_t j = wk__vhash(o->cx, o->cy, o->cz) & (cap - 1);
        while (t[j].c) j = (j + 1) & (cap - 1);
        t[j] = *o;
    }
    w_free(w, w->table, (size_t)(w->mask + 1) * sizeof *t);
    w->table = t;
    w->mask = cap - 1;
    return 1;
}

/* The code of an empty box with extents lo, hi per axis: a directory
 * word's box of chunks (WK__VBOX_*), or with `group` a group's box of
 * groups (WK__VGBOX_*: lo and s two bits lower). */
static uint64_t box_encode(const int lo[3], const int hi[3], int group) {
    uint64_t v = 0;
    for (int a = 0; a < 3; a++) {
        const int down = group ? WK__VBOX_LO(a) - WK__VGBOX_LO(a) : 0;
        v |= ((uint64_t)lo[a] << (WK__VBOX_LO(a) - down)) | ((uint64_t)hi[a] << WK__VBOX_HI(a)) |
             ((uint64_t)(lo[a] + hi[a]) << (WK__VBOX_S(a) - down));
    }
    return v;
}

/* The empty boxes of groups in a chunk (see wk__vgroup): the brick word of
 * an empty group. Group g's coordinates are g & 3, (g >> 2) & 3, g >> 4.
 *
 * The groups of the box l..h (inclusive) as a groups mask: the row of x
 * bits times one bit per y row (4 apart) times one per z layer (16 apart);
 * the products never carry. */
static uint64_t gmask(const int l[3], const int h[3]) {
    const uint64_t row = (2ull << h[0]) - (1ull << l[0]);
    const uint64_t rows = (0x1111ull >> (4 * (3 - h[1]))) & ~((1ull << (4 * l[1])) - 1);
    const uint64_t layers = (0x0001000100010001ull >> (16 * (3 - h[2]))) & ~((1ull << (16 * l[2])) - 1);
    return row * rows * layers;
}

/* An empty box around the cell r of a grid of n[a] cells per axis (a
 * chunk's groups, or the directory's chunks), grown a slab at a time
 * (faces -x, +x, -y, +y, -z, +z in turn) while the slab is inside the grid,
 * its extent stays <= max and slab_empty(ctx, l, h) says the slab l..h
 * (inclusive) is empty; its extents in lo, hi. */
typedef int (*slab_empty_fn)(const void *ctx, const int64_t l[3], const int64_t h[3]);

static inline void grow_box(const int64_t r[3], const int64_t n[3], int max, slab_empty_fn slab_empty,
                            const void *ctx, int lo[3], int hi[3]) {
    for (int a = 0; a < 3; a++) lo[a] = hi[a] = 0;
    for (int grown = 1; grown;) {
        grown = 0;
        for (int f = 0; f < 6; f++) {
            int a = f >> 1, *e = (f & 1) ? &hi[a] : &lo[a];
            if (*e >= max) continue;
            int64_t s = (f & 1) ? r[a] + hi[a] + 1 : r[a] - lo[a] - 1;
            if (s < 0 || s >= n[a]) continue;
            int64_t l[3], h[3];
            for (int b = 0; b < 3; b++) {
                l[b] = r[b] - lo[b];
                h[b] = r[b] + hi[b];
            }
            l[a] = h[a] = s;
            if (slab_empty(ctx, l, h)) {
                (*e)++;
                grown = 1;
            }
        }
    }
}

/* Whether the groups l..h of chunk ctx are all empty. */
static int groups_empty(const void *ctx, const int64_t l[3], const int64_t h[3]) {
    const int li[3] = {(int)l[0], (int)l[1], (int)l[2]}, hi[3] = {(int)h[0], (int)h[1], (int)h[2]};
    return !(((const wk__vchunk *)ctx)->groups & gmask(li, hi));
}

/* The box of the empty group g (see grow_box). */
static uint64_t gbox_grow(const wk__vchunk *c, int g) {
    const int64_t gc[3] = {g & 3, (g >> 2) & 3, g >> 4}, n[3] = {4, 4, 4};
    int lo[3], hi[3];
    grow_box(gc, n, 3, groups_empty, c, lo, hi);
    return box_encode(lo, hi, 1);
}

/* A box that contains a cell newly nonempty at offset d (per axis) from
 * its own cell is cut on the axis on which d is largest, the first such
 * axis on equal distances (WK__CUT_AXIS); WK__CUT_D is d on axis b. */
#define WK__ABS(v) ((v) < 0 ? -(v) : (v))
#define WK__CUT_AXIS(d0, d1, d2)                                                            \
    (WK__ABS(d0) >= WK__ABS(d1) ? (WK__ABS(d0) >= WK__ABS(d2) ? 0 : 2)                    \
                                : (WK__ABS(d1) >= WK__ABS(d2) ? 1 : 2))
#define WK__CUT_D(d0, d1, d2, b) ((b) == 0 ? (d0) : (b) == 1 ? (d1) : (d2))

/* Group g became nonempty. In a chunk that had other nonempty groups, every
 * empty group's box that contains g is cut on the axis on which g lies
 * farthest (the first on equal distances): the extent towards g becomes
 * that distance - 1. In a chunk that was empty, every other group's box
 * becomes 0 (none: the walk leaves its 2 x 2 x 2 block of groups), until
 * the group goes empty again or a bulk edit grows the boxes (gboxes_grow). */
static void gboxes_exclude(wk__vchunk *c, int g, int first) {
    if (first) {
        for (int k = 0; k < 64; k++)
            if (k != g) c->grp[k].brick = 0;
        return;
    }
    const int gc[3] = {g & 3, (g >> 2) & 3, g >> 4};
    for (int k = 0; k < 64; k++) {
        if ((c->groups >> k) & 1) continue; /* g itself, or a nonempty group: no box */
        const uint64_t v = c->grp[k].brick;
        const int d[3] = {gc[0] - (k & 3), gc[1] - ((k >> 2) & 3), gc[2] - (k >> 4)};
#define WK__GF(at) ((int)((v >> (at)) & 3))
        const int in = d[0] >= -WK__GF(WK__VGBOX_LO(0)) && d[0] <= WK__GF(WK__VGBOX_HI(0)) &&
                       d[1] >= -WK__GF(WK__VGBOX_LO(1)) && d[1] <= WK__GF(WK__VGBOX_HI(1)) &&
                       d[2] >= -WK__GF(WK__VGBOX_LO(2)) && d[2] <= WK__GF(WK__VGBOX_HI(2));
        if (!in) continue;
        const int b = WK__CUT_AXIS(d[0], d[1], d[2]);
        const int db = WK__CUT_D(d[0], d[1], d[2], b), ab = WK__ABS(db);
        const int at = db > 0 ? WK__VGBOX_HI(0) + WK__VBOX_STRIDE * b : WK__VGBOX_LO(0) + WK__VBOX_STRIDE * b;
        const uint64_t drop = (uint64_t)(WK__GF(at) - (ab - 1)); /* >= 1: the extent was >= |d| */
#undef WK__GF
        c->grp[k].brick = v - (drop << at) - (drop << (WK__VGBOX_S(0) + WK__VBOX_STRIDE * b));
    }
}

/* Grows the box of every empty group of a nonempty chunk (after a bulk edit). */
static void gboxes_grow(wk__vchunk *c) {
    if (!c->groups) return;
    for (int k = 0; k < 64; k++)
        if (!((c->groups >> k) & 1)) c->grp[k].brick = gbox_grow(c, k);
}

/* The chunk, made (empty) when absent and `make`; NULL when absent and not
 * made, or on allocation failure (*nomem set). */
static wk__vchunk *get_chunk(world *w, int32_t cx, int32_t cy, int32_t cz, int make, int *nomem) {
    wk__vchunk *c = (wk__vchunk *)wk__vfind(w, cx, cy, cz);
    if (c || !make) return c;
    if ((w->chunks + 1) * 2 > w->mask + 1 && !grow_table(w)) {
        *nomem = 1;
        return NULL;
    }
    c = w_alloc(w, sizeof *c);
    if (c && ((uintptr_t)c & ~WK__VDIR_ADDR)) {
        /* an address the directory word cannot carry (a hook returning
         * tagged or misaligned memory): refused like a failed allocation */
        w_free(w, c, sizeof *c);
        c = NULL;
    }
    if (!c) {
        *nomem = 1;
        return NULL;
    }
    memset(c, 0, sizeof *c);
    c->cx = cx;
    c->cy = cy;
    c->cz = cz;
    uint64_t i = wk__vhash(cx, cy, cz) & w->mask;
    while (w->table[i].c) i = (i + 1) & w->mask;
    w->table[i].cx = cx;
    w->table[i].cy = cy;
    w->table[i].cz = cz;
    w->table[i].unused = 0;
    w->table[i].c = c;
    w->chunks++;
    /* a new chunk is empty: its directory entry (empty-pair bit, empty box, no
     * address) stays as it is; the address goes in when the chunk becomes
     * nonempty (sync_groups) */
    return c;
}

/* The directory entry of chunk (cx, cy, cz); NULL without a directory or
 * outside it. */
static wk__vdirent *dir_slot(world *w, int64_t cx, int64_t cy, int64_t cz) {
    if (!w->dir) return NULL;
    int64_t cc[3] = {cx, cy, cz};
    for (int a = 0; a < 3; a++)
        if (cc[a] < w->dlo[a] || (uint64_t)(cc[a] - w->dlo[a]) >= w->dn[a]) return NULL;
    return &w->dir[((uint64_t)(cz - w->dlo[2]) * w->dn[1] + (uint64_t)(cy - w->dlo[1])) * w->dn[0] +
                   (uint64_t)(cx - w->dlo[0])];
}

/* The directory's empty boxes (see WK__VBOX_MAX). Coordinates here are
 * relative to the directory's low corner. */
static uint64_t dir_at(const world *w, const int64_t r[3]) {
    return ((uint64_t)r[2] * w->dn[1] + (uint64_t)r[1]) * w->dn[0] + (uint64_t)r[0];
}

/* Whether every entry of the box l..h (inclusive, inside the directory
 * ctx) is empty. */
static int dir_box_empty(const void *ctx, const int64_t l[3], const int64_t h[3]) {
    const world *w = ctx;
    const uint64_t sy = w->dn[0], sz = w->dn[0] * w->dn[1];
    for (int64_t z = l[2]; z <= h[2]; z++)
        for (int64_t y = l[1]; y <= h[1]; y++) {
            const wk__vdirent *row = &w->dir[(uint64_t)z * sz + (uint64_t)y * sy];
            uint64_t any = 0;
            for (int64_t x = l[0]; x <= h[0]; x++) any |= row[x].groups;
            if (any) return 0;
        }
    return 1;
}

/* The box of the empty entry r (see grow_box). */
static uintptr_t box_grow(const world *w, const int64_t r[3]) {
    const int64_t n[3] = {(int64_t)w->dn[0], (int64_t)w->dn[1], (int64_t)w->dn[2]};
    int lo[3], hi[3];
    grow_box(r, n, WK__VBOX_MAX, dir_box_empty, w, lo, hi);
    return (uintptr_t)box_encode(lo, hi, 0);
}

/* What boxes_exclude does to the entry at offset d = r - entry (each of
 * d0, d1, d2 in -2..2) from the entry r that became nonempty; it depends on
 * d alone, so it is a table. The entry's box contains r when its extent
 * towards r on every axis is >= |d| on that axis: an extent (at most 2) is
 * >= 1 when either of its two bits is set and >= 2 when its high bit is,
 * so need1 holds the low bit of each extent field that must be >= 1 and
 * need2 that of each one that must be >= 2. The cut is on the axis on which
 * r lies farthest (the first such axis on equal distances): that extent
 * (its field at bit `at`, the size s at bit `s_at`) drops to |d| - 1 =
 * `keep`. */
typedef struct box_cut {
    uint64_t need1, need2;
    uint8_t at, s_at, keep;
} box_cut;

#define WK__NEED1(d, a) ((d) == -1 ? 1ull << WK__VBOX_LO(a) : (d) == 1 ? 1ull << WK__VBOX_HI(a) : 0)
#define WK__NEED2(d, a) ((d) == -2 ? 1ull << WK__VBOX_LO(a) : (d) == 2 ? 1ull << WK__VBOX_HI(a) : 0)
#define WK__CUT_AT(d0, d1, d2, b) \
    ((WK__CUT_D(d0, d1, d2, b) > 0 ? WK__VBOX_HI(0) : WK__VBOX_LO(0)) + WK__VBOX_STRIDE * (b))
#define WK__CUT(d0, d1, d2)                                                                                   \
    {WK__NEED1(d0, 0) | WK__NEED1(d1, 1) | WK__NEED1(d2, 2), WK__NEED2(d0, 0) | WK__NEED2(d1, 1) | WK__NEED2(d2, 2), \
     WK__CUT_AT(d0, d1, d2, WK__CUT_AXIS(d0, d1, d2)), WK__VBOX_S(0) + WK__VBOX_STRIDE * WK__CUT_AXIS(d0, d1, d2), \
     (uint8_t)(WK__ABS(WK__CUT_D(d0, d1, d2, WK__CUT_AXIS(d0, d1, d2))) - 1)}
#define WK__CUTS_X(d1, d2) \
    WK__CUT(-2, d1, d2), WK__CUT(-1, d1, d2), WK__CUT(0, d1, d2), WK__CUT(1, d1, d2), WK__CUT(2, d1, d2)
#define WK__CUTS_XY(d2) \
    WK__CUTS_X(-2, d2), WK__CUTS_X(-1, d2), WK__CUTS_X(0, d2), WK__CUTS_X(1, d2), WK__CUTS_X(2, d2)

_Static_assert(WK__VBOX_MAX <= 2, "box_cuts covers offsets -2..2 and extents of at most 2");
/* index (d0 + 2) + 5 (d1 + 2) + 25 (d2 + 2) */
static const box_cut box_cuts[125] = {WK__CUTS_XY(-2), WK__CUTS_XY(-1), WK__CUTS_XY(0), WK__CUTS_XY(1),
                                      WK__CUTS_XY(2)};

/* Entry r became nonempty: every empty box around it that contains it is
 * cut (see box_cut). r itself and nonempty entries hold no box. */
static void boxes_exclude(world *w, const int64_t r[3]) {
    const int64_t M = WK__VBOX_MAX;
    int64_t l[3], h[3];
    for (int a = 0; a < 3; a++) {
        l[a] = r[a] - M < 0 ? 0 : r[a] - M;
        h[a] = r[a] + M > (int64_t)w->dn[a] - 1 ? (int64_t)w->dn[a] - 1 : r[a] + M;
    }
    const uint64_t sy = w->dn[0], sz = w->dn[0] * w->dn[1];
    for (int64_t z = l[2]; z <= h[2]; z++)
        for (int64_t y = l[1]; y <= h[1]; y++) {
            wk__vdirent *row = &w->dir[(uint64_t)z * sz + (uint64_t)y * sy];
            const int64_t yz = 25 * (r[2] - z + 2) + 5 * (r[1] - y + 2);
            for (int64_t x = l[0]; x <= h[0]; x++) {
                wk__vdirent *e = &row[x];
                const box_cut *k = &box_cuts[yz + r[0] - x + 2];
                const uint64_t c = e->c;
                const uint64_t in = (uint64_t)((e->groups == 0) & (((c | (c >> 1)) & k->need1) == k->need1) &
                                               (((c >> 1) & k->need2) == k->need2));
                /* >= 1 where in (the extent was >= |d|); 0 elsewhere (no branch: in is unpredictable) */
                const uint64_t drop = (((c >> k->at) & 3) - k->keep) & (0 - in);
                e->c = (uintptr_t)(c - (drop << k->at) - (drop << k->s_at));
            }
        }
}

/* Builds the directory around the bounds with room to grow (half the
 * extent plus 2 chunks on each side), or drops it when too large or out of
 * memory. Casts are exact either way. */
static void rebuild_dir(world *w) {
    int64_t lo[3], n[3];
    uint64_t entries = 1;
    for (int a = 0; a < 3; a++) {
        int64_t ext = (int64_t)w->hi[a] - w->lo[a] + 1, m = ext / 2 + 2;
        int64_t l = (int64_t)w->lo[a] - m, h = (int64_t)w->hi[a] + m;
        if (l < -((int64_t)1 << 27)) l = -((int64_t)1 << 27);
        if (h > ((int64_t)1 << 27) - 1) h = ((int64_t)1 << 27) - 1;
        lo[a] = l;
        n[a] = h - l + 1;
        entries = entries > WK__VDIR_MAX ? entries : entries * (uint64_t)n[a];
    }
    uint64_t cap = w->chunks * 64 > ((uint64_t)1 << 16) ? w->chunks * 64 : ((uint64_t)1 << 16);
    wk__vdirent *dir = NULL;
    if (entries <= WK__VDIR_MAX && entries <= cap) dir = w_alloc(w, (size_t)entries * sizeof *dir);
    w_free(w, w->dir, w->dir_entries * sizeof *dir);
    w->dir = dir;
    w->dir_entries = dir ? (size_t)entries : 0;
    if (!dir) return;
    for (uint64_t i = 0; i < entries; i++) {
        dir[i].c = WK__VDIR_PAIR_EMPTY;
        dir[i].groups = 0;
    }
    for (int a = 0; a < 3; a++) {
        w->dlo[a] = lo[a];
        w->dn[a] = (uint64_t)n[a];
    }
    for (uint64_t i = 0; i <= w->mask; i++) {
        const wk__vslot *t = &w->table[i];
        if (!t->c) continue;
        wk__vdirent *e = dir_slot(w, t->cx, t->cy, t->cz);
        if (e) {
            e->c = (uintptr_t)t->c | wk__vdir_gpairs(t->c->groups) | (e->c & WK__VDIR_PAIR_EMPTY);
            e->groups = t->c->groups;
        }
    }
    /* clear the bit around every nonempty chunk */
    for (uint64_t i = 0; i <= w->mask; i++) {
        const wk__vslot *t = &w->table[i];
        if (!t->c || !t->c->groups) continue;
        for (int k = 0; k < 8; k++) {
            wk__vdirent *e = dir_slot(w, ((int64_t)t->cx & ~(int64_t)1) + (k & 1),
                                      ((int64_t)t->cy & ~(int64_t)1) + ((k >> 1) & 1),
                                      ((int64_t)t->cz & ~(int64_t)1) + (k >> 2));
            if (e) e->c &= ~WK__VDIR_PAIR_EMPTY;
        }
    }
    /* the empty boxes around the bounds (elsewhere code 0, the chunk alone:
     * walks do not go there before the bounds grow) */
    int64_t blo[3], bhi[3];
    uint64_t region = 1;
    for (int a = 0; a < 3; a++) {
        blo[a] = (int64_t)w->lo[a] - w->dlo[a] - WK__VBOX_MAX;
        bhi[a] = (int64_t)w->hi[a] - w->dlo[a] + WK__VBOX_MAX;
        if (blo[a] < 0) blo[a] = 0;
        if (bhi[a] > (int64_t)w->dn[a] - 1) bhi[a] = (int64_t)w->dn[a] - 1;
        region *= (uint64_t)(bhi[a] - blo[a] + 1);
    }
    if (region > WK__VBOX_REBUILD_MAX) return;
    int64_t r[3];
    for (r[2] = blo[2]; r[2] <= bhi[2]; r[2]++)
        for (r[1] = blo[1]; r[1] <= bhi[1]; r[1]++)
            for (r[0] = blo[0]; r[0] <= bhi[0]; r[0]++) {
                wk__vdirent *e = &dir[dir_at(w, r)];
                if (!e->groups) e->c = (e->c & WK__VDIR_PAIR_EMPTY) | box_grow(w, r);
            }
}

/* Makes the directory's empty-pair bit of the 2 x 2 x 2 block of chunks
 * around chunk (cx, cy, cz) exact again, after that chunk became nonempty
 * (nonempty = 1: the block is nonempty) or empty (0: look at the others;
 * its own entry's groups already updated). The chunk is inside the
 * directory. */
static void update_pair(world *w, int64_t cx, int64_t cy, int64_t cz, int nonempty) {
    if (!w->dir) return;
    /* the block's entries inside the directory (outside it no chunk was ever nonempty) */
    const int64_t lo[3] = {cx & ~(int64_t)1, cy & ~(int64_t)1, cz & ~(int64_t)1};
    int64_t first[3], count[3];
    for (int a = 0; a < 3; a++) {
        int64_t l = lo[a] - w->dlo[a], h = l + 1; /* relative to the directory, inclusive */
        if (l < 0) l = 0;
        if (h > (int64_t)w->dn[a] - 1) h = (int64_t)w->dn[a] - 1;
        first[a] = l;
        count[a] = h - l + 1; /* >= 1: the chunk itself is inside */
    }
    const uint64_t sy = w->dn[0], sz = w->dn[0] * w->dn[1];
    wk__vdirent *base = &w->dir[(uint64_t)first[2] * sz + (uint64_t)first[1] * sy + (uint64_t)first[0]];
    if (!nonempty) /* the chunk went empty: is the whole block empty? */
        for (int64_t k = 0; k < count[2]; k++)
            for (int64_t j = 0; j < count[1]; j++)
                for (int64_t i = 0; i < count[0]; i++) nonempty |= base[k * sz + j * sy + i].groups != 0;
    for (int64_t k = 0; k < count[2]; k++)
        for (int64_t j = 0; j < count[1]; j++)
            for (int64_t i = 0; i < count[0]; i++) {
                wk__vdirent *e = &base[k * sz + j * sy + i];
                e->c = (e->c & ~WK__VDIR_PAIR_EMPTY) | (nonempty ? 0 : WK__VDIR_PAIR_EMPTY);
            }
}

/* Grows the bounds (the chunks ever nonempty) to hold chunks lo..hi, and
 * the directory with them (one rebuild at most). */
static void note_range(world *w, const int32_t lo[3], const int32_t hi[3]) {
    if (!w->has_bounds) {
        for (int a = 0; a < 3; a++) w->lo[a] = lo[a], w->hi[a] = hi[a];
        w->has_bounds = 1;
        rebuild_dir(w);
        return;
    }
    int grew = 0;
    for (int a = 0; a < 3; a++) {
        if (lo[a] < w->lo[a]) w->lo[a] = lo[a], grew = 1;
        if (hi[a] > w->hi[a]) w->hi[a] = hi[a], grew = 1;
    }
    if (!grew) return;
    /* keep the directory containing the bounds, or go without one */
    int inside = w->dir != NULL;
    for (int a = 0; a < 3 && inside; a++)
        inside = w->lo[a] >= w->dlo[a] && (uint64_t)((int64_t)w->hi[a] - w->dlo[a]) < w->dn[a];
    if (!inside) rebuild_dir(w);
}

static void note_bounds(world *w, const wk__vchunk *c) {
    const int32_t cc[3] = {c->cx, c->cy, c->cz};
    note_range(w, cc, cc);
}

typedef struct place {
    int32_t cx, cy, cz;
    int g, b;
} place;

static place place_of(int32_t x, int32_t y, int32_t z) {
    place p;
    p.cx = (int32_t)wk__vshr(x, 4);
    p.cy = (int32_t)wk__vshr(y, 4);
    p.cz = (int32_t)wk__vshr(z, 4);
    p.g = ((x >> 2) & 3) + 4 * ((y >> 2) & 3) + 16 * ((z >> 2) & 3);
    p.b = (x & 3) + 4 * (y & 3) + 16 * (z & 3);
    return p;
}

/* Removes the bricks of the blocks in `gone` (a subset of group g's brick
 * bits) from group g, keeping the others in order; the array keeps its
 * capacity. */
static void drop_bricks(world *w, wk__vchunk *c, int g, uint64_t gone) {
    uint64_t *b = c->bricks[g];
    int kept = 0, k = 0;
    for (uint64_t m = c->grp[g].brick; m; m &= m - 1, k++)
        if (!(m & (0 - m) & gone)) b[kept++] = b[k];
    const int n = wk__popcount64(gone);
    c->grp[g].brick &= ~gone;
    c->bricks_total -= (uint32_t)n;
    w->bricks -= (uint64_t)n;
}

/* After an edit of chunk c whose groups mask was old: the directory's
 * copy of the mask, and the empty-pair bits when c became empty or
 * nonempty. */
static void sync_groups(world *w, const wk__vchunk *c, uint64_t old) {
    if (c->groups == old) return;
    wk__vdirent *e = dir_slot(w, c->cx, c->cy, c->cz);
    if (!e) return; /* no directory (or c outside it: impossible for a nonempty chunk) */
    e->groups = c->groups;
    const int64_t r[3] = {(int64_t)c->cx - w->dlo[0], (int64_t)c->cy - w->dlo[1], (int64_t)c->cz - w->dlo[2]};
    if (c->groups) e->c = (uintptr_t)c | wk__vdir_gpairs(c->groups) | (e->c & WK__VDIR_PAIR_EMPTY);
    else e->c = (e->c & WK__VDIR_PAIR_EMPTY) | box_grow(w, r); /* became empty: its own box */
    if ((old == 0) != (c->groups == 0)) {
        update_pair(w, c->cx, c->cy, c->cz, c->groups != 0);
        if (c->groups) boxes_exclude(w, r);
    }
}

/* Sets block bit b of group g of chunk c to mask (0 empty, WK_VOXEL_FULL
 * solid, else a brick), keeping the counts, the summaries and the
 * directory; reads group g's brick word as brick bits (see set_in_chunk).
 * 0 when a brick array could not be allocated (c unchanged). */
static int set_in_chunk_raw(world *w, wk__vchunk *c, int g, int b, uint64_t mask) {
    uint64_t bit = 1ull << b;
    int was = (c->grp[g].occ & bit) != 0, was_brick = (c->grp[g].brick & bit) != 0;
    const uint64_t old_groups = c->groups;
    if (mask != 0 && mask != WK_VOXEL_FULL) {
        if (was_brick) {
            c->bricks[g][wk__popcount64(c->grp[g].brick & (bit - 1))] = mask;
            return 1;
        }
        int count = wk__popcount64(c->grp[g].brick);
        if (count == c->cap[g]) {
            int cap = count == 0 ? 2 : count * 2 > 64 ? 64 : count * 2;
            uint64_t *nb = w_alloc(w, (size_t)cap * sizeof(uint64_t));
            if (!nb) return 0;
            if (count) memcpy(nb, c->bricks[g], (size_t)count * sizeof(uint64_t));
            w_free(w, c->bricks[g], (size_t)c->cap[g] * sizeof(uint64_t));
            c->bricks[g] = nb;
            c->cap[g] = (uint8_t)cap;
        }
        int idx = wk__popcount64(c->grp[g].brick & (bit - 1));
        memmove(c->bricks[g] + idx + 1, c->bricks[g] + idx, (size_t)(count - idx) * sizeof(uint64_t));
        c->bricks[g][idx] = mask;
        c->grp[g].brick |= bit;
        c->bricks_total++;
        w->bricks++;
        if (was) w->solid_blocks--;
        c->grp[g].occ |= bit;
        c->groups |= 1ull << g;
        note_bounds(w, c);
        sync_groups(w, c, old_groups);
        return 1;
    }
    if (was_brick) drop_bricks(w, c, g, bit);
    else if (was) w->solid_blocks--;
    if (mask == 0) {
        c->grp[g].occ &= ~bit;
        if (!c->grp[g].occ) c->groups &= ~(1ull << g);
    } else {
        w->solid_blocks++;
        c->grp[g].occ |= bit;
        c->groups |= 1ull << g;
        note_bounds(w, c);
    }
    sync_groups(w, c, old_groups);
    return 1;
}

/* Sets block bit b of group g of chunk c to mask (see set_in_chunk_raw),
 * keeping the groups' empty boxes: an empty group's brick word is its box,
 * set aside while the group is edited. */
static int set_in_chunk(world *w, wk__vchunk *c, int g, int b, uint64_t mask) {
    const uint64_t old_groups = c->groups;
    const int was_empty = c->grp[g].occ == 0;
    const uint64_t box = c->grp[g].brick;
    if (was_empty) c->grp[g].brick = 0;
    const int ok = set_in_chunk_raw(w, c, g, b, mask);
    if (c->grp[g].occ == 0) {
        /* still empty: its box back; went empty (no bricks left) in a nonempty chunk: a box
         * of its own (in a chunk that went empty nothing reads the groups' boxes) */
        if (was_empty) c->grp[g].brick = box;
        else if (c->groups) c->grp[g].brick = gbox_grow(c, g);
    } else if (was_empty) gboxes_exclude(c, g, old_groups == 0);
    return ok;
}

static wk_status set_mask(world *w, int32_t x, int32_t y, int32_t z, uint64_t mask) {
    if (!w) return wk__fail(WK_ERR_NULL, "w is NULL");
    place p = place_of(x, y, z);
    int nomem = 0;
    wk__vchunk *c = get_chunk(w, p.cx, p.cy, p.cz, mask != 0, &nomem);
    if (nomem)
        return wk__fail(WK_ERR_NO_MEMORY, "allocating a chunk for block (%d, %d, %d) failed", x, y, z);
    if (!c) return WK_OK; /* clearing where nothing is */
    if (!set_in_chunk(w, c, p.g, p.b, mask))
        return wk__fail(WK_ERR_NO_MEMORY, "allocating a brick for block (%d, %d, %d) failed", x, y, z);
    return WK_OK;
}

wk_status wk_voxel_set_block(wk_voxel_world *w, int32_t x, int32_t y, int32_t z, int solid) {
    wk__detail_reset(__func__);
    return set_mask(w, x, y, z, solid ? WK_VOXEL_FULL : 0);
}

wk_status wk_voxel_set_sub(wk_voxel_world *w, int32_t x, int32_t y, int32_t z, uint64_t mask) {
    wk__detail_reset(__func__);
    return set_mask(w, x, y, z, mask);
}

wk_status wk_voxel_get_block(const wk_voxel_world *w, int32_t x, int32_t y, int32_t z, uint64_t *mask) {
    wk__detail_reset(__func__);
    if (!w || !mask) return wk__fail(WK_ERR_NULL, "w and mask must not be NULL");
    place p = place_of(x, y, z);
    const wk__vchunk *c = wk__vfind(w, p.cx, p.cy, p.cz);
    uint64_t bit = 1ull << p.b, m = 0;
    if (c && (c->grp[p.g].occ & bit)) {
        m = WK_VOXEL_FULL;
        if (c->grp[p.g].brick & bit) m = wk__vbrick_mask(c, p.g, p.b);
    }
    *mask = m;
    return WK_OK;
}

/* Bulk edits (set_box, set_terrain) set the blocks of a box a chunk and a
 * group at a time. A block source gives the solid blocks of the part
 * l..h (inclusive, block coordinates within the group, 0..3) of the group
 * whose first block is g0, as group block bits (bx + 4 by + 16 bz); the
 * other blocks of the part are set empty. */
typedef uint64_t (*bulk_source)(const void *src, const int64_t g0[3], const int l[3], const int h[3]);

/* Sets every block of chunk c inside the box lo..hi (block coordinates,
 * inclusive; the chunk overlaps it) to solid or empty as `solid` says (a
 * brick there is dropped), keeping the counts, the summaries, the
 * directory, and the group boxes (grown anew). Never allocates. The bounds
 * already hold c if it ends nonempty: set_blocks noted every chunk made for
 * a solid block, and a chunk nonempty before was in them. */
static void set_chunk_blocks(world *w, wk__vchunk *c, const int64_t lo[3], const int64_t hi[3],
                             bulk_source solid, const void *src) {
    const uint64_t old_groups = c->groups;
    const int64_t base[3] = {16 * (int64_t)c->cx, 16 * (int64_t)c->cy, 16 * (int64_t)c->cz};
    int gl[3], gh[3];
    for (int a = 0; a < 3; a++) {
        gl[a] = (int)((lo[a] > base[a] ? lo[a] - base[a] : 0) >> 2);
        gh[a] = (int)((hi[a] < base[a] + 15 ? hi[a] - base[a] : 15) >> 2);
    }
    int gc[3];
    for (gc[2] = gl[2]; gc[2] <= gh[2]; gc[2]++)
        for (gc[1] = gl[1]; gc[1] <= gh[1]; gc[1]++)
            for (gc[0] = gl[0]; gc[0] <= gh[0]; gc[0]++) {
                const int g = gc[0] + 4 * gc[1] + 16 * gc[2];
                int64_t g0[3];
                int l[3], h[3];
                for (int a = 0; a < 3; a++) {
                    g0[a] = base[a] + 4 * gc[a];
                    l[a] = lo[a] > g0[a] ? (int)(lo[a] - g0[a]) : 0;
                    h[a] = hi[a] < g0[a] + 3 ? (int)(hi[a] - g0[a]) : 3;
                }
                const uint64_t inside = gmask(l, h), bits = solid(src, g0, l, h);
                wk__vgroup *gr = &c->grp[g];
                if (!gr->occ) gr->brick = 0; /* its empty box: grown anew below */
                w->solid_blocks -= (uint64_t)wk__popcount64(gr->occ & ~gr->brick & inside);
                w->solid_blocks += (uint64_t)wk__popcount64(bits);
                if (gr->brick & inside) drop_bricks(w, c, g, gr->brick & inside);
                gr->occ = (gr->occ & ~inside) | bits;
                c->groups = gr->occ ? c->groups | 1ull << g : c->groups & ~(1ull << g);
            }
    sync_groups(w, c, old_groups);
    gboxes_grow(c);
}

/* The chunks that will hold a bulk edit's solid blocks: lo..hi, empty while
 * lo[0] > hi[0]. */
typedef struct chunk_range {
    int32_t lo[3], hi[3];
} chunk_range;
#define CHUNK_RANGE_EMPTY {{INT32_MAX, INT32_MAX, INT32_MAX}, {INT32_MIN, INT32_MIN, INT32_MIN}}

/* Makes the chunk of block (x, y, z), about to get a solid block, and adds
 * it to r. Returns 0 when out of memory. */
static int make_chunk(world *w, int32_t x, int32_t y, int32_t z, chunk_range *r) {
    const place p = place_of(x, y, z);
    int nomem = 0;
    get_chunk(w, p.cx, p.cy, p.cz, 1, &nomem);
    const int32_t cc[3] = {p.cx, p.cy, p.cz};
    for (int a = 0; a < 3; a++) {
        if (cc[a] < r->lo[a]) r->lo[a] = cc[a];
        if (cc[a] > r->hi[a]) r->hi[a] = cc[a];
    }
    return !nomem;
}

/* Sets the blocks of the box lo..hi from `solid`, a chunk at a time. Every
 * chunk holding a solid block of the box exists (made by the caller, with
 * make_chunk into `made`); an absent chunk has nothing to clear. The bounds
 * and the directory grow once, to the range made (each chunk would grow
 * them in turn, rebuilding the directory each time they outgrow it). */
static void set_blocks(world *w, const int64_t lo[3], const int64_t hi[3], const chunk_range *made,
                       bulk_source solid, const void *src) {
    if (made->lo[0] <= made->hi[0]) note_range(w, made->lo, made->hi);
    for (int64_t cz = wk__vshr(lo[2], 4); cz <= wk__vshr(hi[2], 4); cz++)
        for (int64_t cy = wk__vshr(lo[1], 4); cy <= wk__vshr(hi[1], 4); cy++)
            for (int64_t cx = wk__vshr(lo[0], 4); cx <= wk__vshr(hi[0], 4); cx++) {
                wk__vchunk *c = (wk__vchunk *)wk__vfind(w, (int32_t)cx, (int32_t)cy, (int32_t)cz);
                if (c) set_chunk_blocks(w, c, lo, hi, solid, src);
            }
}

/* set_box's blocks: byte (x - x0) + stride (y - y0) + slice_stride (z - z0) of v. */
typedef struct byte_box {
    const uint8_t *v;
    int64_t x0, y0, z0;
    size_t stride, slice_stride;
} byte_box;

/* Bytes b0..b3 (each 0 or 1; b0 the lowest) as the nibble b0 + 2 b1 + 4 b2 +
 * 8 b3: the product puts each b_i at bit 24 + i, and no two of its
 * sixteen partial products share a bit, so nothing carries. */
static inline uint32_t bytes_to_nibble(uint32_t bytes) { return (bytes * 0x01020408u) >> 24 & 15u; }

static uint64_t byte_box_solid(const void *src, const int64_t g0[3], const int l[3], const int h[3]) {
    const byte_box *s = src;
    uint64_t bits = 0;
    for (int z = l[2]; z <= h[2]; z++)
        for (int y = l[1]; y <= h[1]; y++) {
            /* the part's first byte of the row (the group may start before the box) */
            const uint8_t *row = s->v + (size_t)(g0[2] + z - s->z0) * s->slice_stride +
                                 (size_t)(g0[1] + y - s->y0) * s->stride + (size_t)(g0[0] + l[0] - s->x0);
            uint32_t bytes = 0; /* the part's bytes (0 or 1 each), little end first */
            if (h[0] - l[0] == 3)
                memcpy(&bytes, row, 4);
            else
                for (int x = l[0]; x <= h[0]; x++) bytes |= (uint32_t)row[x - l[0]] << 8 * (x - l[0]);
            bits |= (uint64_t)bytes_to_nibble(bytes) << (l[0] + 4 * y + 16 * z);
        }
    return bits;
}

/* The OR of n bytes (a loop compilers vectorize, unlike a search). */
static uint8_t bytes_or(const uint8_t *b, size_t n) {
    uint8_t any = 0;
    for (size_t i = 0; i < n; i++) any |= b[i];
    return any;
}

wk_status wk_voxel_set_box(wk_voxel_world *w, int32_t x0, int32_t y0, int32_t z0, uint32_t nx, uint32_t ny,
                           uint32_t nz, const uint8_t *v, size_t stride, size_t slice_stride) {
    wk__detail_reset(__func__);
    if (!w) return wk__fail(WK_ERR_NULL, "w is NULL");
    if (nx == 0 || ny == 0 || nz == 0) return WK_OK;
    if (!v) return wk__fail(WK_ERR_NULL, "v is NULL with a %ux%ux%u box", nx, ny, nz);
    if ((int64_t)x0 + nx - 1 > INT32_MAX || (int64_t)y0 + ny - 1 > INT32_MAX || (int64_t)z0 + nz - 1 > INT32_MAX)
        return wk__fail(WK_ERR_OVERFLOW, "the box from (%d, %d, %d) of %ux%ux%u leaves int32 coordinates", x0, y0,
                        z0, nx, ny, nz);
    if (stride < nx) return wk__fail(WK_ERR_STRIDE, "stride must be >= nx (%u), got %zu", nx, stride);
    if ((ny - 1) > (SIZE_MAX - nx) / stride)
        return wk__fail(WK_ERR_OVERFLOW, "%u rows of stride %zu overflow size_t", ny, stride);
    size_t slice = (size_t)(ny - 1) * stride + nx;
    if (slice_stride < slice)
        return wk__fail(WK_ERR_STRIDE, "slice_stride must be >= %zu, got %zu", slice, slice_stride);
    if ((nz - 1) > (SIZE_MAX - slice) / slice_stride)
        return wk__fail(WK_ERR_OVERFLOW, "%u slices of stride %zu overflow size_t", nz, slice_stride);
    /* Validate, then make every chunk a solid byte needs: after that, no
     * step can fail (setting solid or empty never allocates a brick). */
    for (uint32_t k = 0; k < nz; k++)
        for (uint32_t j = 0; j < ny; j++) {
            const uint8_t *row = v + k * slice_stride + j * stride;
            if (bytes_or(row, nx) <= 1) continue;
            uint32_t i = 0;
            while (row[i] <= 1) i++;
            return wk__fail(WK_ERR_INVALID_ARG, "v at (%u, %u, %u) must be 0 or 1, got %u", i, j, k, (unsigned)row[i]);
        }
    chunk_range made = CHUNK_RANGE_EMPTY;
    for (uint32_t k = 0; k < nz; k++)
        for (uint32_t j = 0; j < ny; j++) {
            const uint8_t *row = v + k * slice_stride + j * stride;
            int32_t y = (int32_t)((int64_t)y0 + j), z = (int32_t)((int64_t)z0 + k);
            for (uint32_t i = 0, span; i < nx; i += span) { /* a chunk's part of the row at a time */
                int32_t x = (int32_t)((int64_t)x0 + i);
                span = 16 - (uint32_t)(x & 15);
                if (span > nx - i) span = nx - i;
                if (bytes_or(row + i, span) && !make_chunk(w, x, y, z, &made))
                    return wk__fail(WK_ERR_NO_MEMORY, "allocating a chunk for block (%d, %d, %d) failed", x, y, z);
            }
        }
    const byte_box src = {v, x0, y0, z0, stride, slice_stride};
    const int64_t lo[3] = {x0, y0, z0}, hi[3] = {(int64_t)x0 + nx - 1, (int64_t)y0 + ny - 1, (int64_t)z0 + nz - 1};
    set_blocks(w, lo, hi, &made, byte_box_solid, &src);
    return WK_OK;
}

wk_status wk_voxel_world_stats(const wk_voxel_world *w, wk_voxel_stats *stats) {
    wk__detail_reset(__func__);
    if (!w || !stats) return wk__fail(WK_ERR_NULL, "w and stats must not be NULL");
    memset(stats, 0, sizeof *stats);
    stats->bytes = w->bytes;
    stats->chunks = w->chunks;
    stats->solid_blocks = w->solid_blocks;
    stats->bricks = w->bricks;
    return WK_OK;
}

/* set_terrain's blocks: in column (x, z), the blocks y0 .. y0 + run - 1 with
 * run = runs[(z - z0) nx + (x - x0)] (solid_run below). */
typedef struct height_runs {
    const uint32_t *runs;
    size_t nx;
    int64_t x0, y0, z0;
} height_runs;

/* How many blocks y0, y0 + 1, ... of a column of ny are solid under the
 * height top: block y is solid iff (float)y < top, and since (float)y never
 * decreases as y grows, the solid blocks are a run from y0 up; a binary
 * search on the same test finds its end. */
static uint32_t solid_run(float top, int64_t y0, uint32_t ny) {
    uint32_t lo = 0, hi = ny;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if ((float)(y0 + mid) < top)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint64_t height_runs_solid(const void *src, const int64_t g0[3], const int l[3], const int h[3]) {
    const height_runs *s = src;
    uint64_t bits = 0;
    for (int z = l[2]; z <= h[2]; z++)
        for (int x = l[0]; x <= h[0]; x++) {
            const int64_t end = s->y0 + s->runs[(size_t)(g0[2] + z - s->z0) * s->nx + (size_t)(g0[0] + x - s->x0)];
            const int64_t last = end - 1 - g0[1] < h[1] ? end - 1 - g0[1] : h[1]; /* the column's last solid y */
            if (last < l[1]) continue;
            const int cl[3] = {x, l[1], z}, ch[3] = {x, (int)last, z};
            bits |= gmask(cl, ch);
        }
    return bits;
}

wk_status wk_voxel_set_terrain(wk_voxel_world *w, const struct wk_fbm *f, int32_t x0, int32_t z0, uint32_t nx,
                               uint32_t nz, int32_t y0, uint32_t ny, float base, float amplitude,
                               const wk_exec *exec) {
    wk__detail_reset(__func__);
    if (!w || !f) return wk__fail(WK_ERR_NULL, "w and f must not be NULL");
    if (!isfinite(base) || !isfinite(amplitude))
        return wk__fail(WK_ERR_NOT_FINITE, "base and amplitude must be finite, got %g and %g", (double)base,
                        (double)amplitude);
    if (nx == 0 || ny == 0 || nz == 0) return WK_OK;
    if ((int64_t)x0 + nx - 1 > INT32_MAX || (int64_t)y0 + ny - 1 > INT32_MAX || (int64_t)z0 + nz - 1 > INT32_MAX)
        return wk__fail(WK_ERR_OVERFLOW, "the box from (%d, %d, %d) of %ux%ux%u leaves int32 coordinates", x0, y0,
                        z0, nx, ny, nz);
    if ((uint64_t)nx * nz > SIZE_MAX / (sizeof(float) + sizeof(uint32_t)))
        return wk__fail(WK_ERR_OVERFLOW, "%u x %u heights overflow size_t bytes", nx, nz);
    size_t cells = (size_t)nx * nz, bytes = cells * (sizeof(float) + sizeof(uint32_t));
    float *h = w_alloc(w, bytes); /* the heights, then each column's solid run */
    if (!h) return wk__fail(WK_ERR_NO_MEMORY, "allocating %zu bytes of heights failed", bytes);
    uint32_t *runs = (uint32_t *)(void *)(h + cells);
    wk_grid2 g = {x0, z0, nx, nz, 1.0, nx, {0, 0}};
    wk_status s = wk_noise_fbm2_grid(f, &g, h, exec);
    if (s != WK_OK) {
        w_free(w, h, bytes);
        return s; /* the detail is the noise function's */
    }
    wk__detail_reset(__func__);
    for (size_t i = 0; i < cells; i++) runs[i] = solid_run(base + amplitude * h[i], y0, ny);
    /* Make every chunk a solid block needs first: then nothing can fail. */
    chunk_range made = CHUNK_RANGE_EMPTY;
    for (uint32_t k = 0; k < nz; k++)
        for (uint32_t i = 0; i < nx; i++) {
            const uint32_t run = runs[(size_t)k * nx + i];
            const int32_t x = (int32_t)((int64_t)x0 + i), z = (int32_t)((int64_t)z0 + k);
            for (int64_t cy = wk__vshr(y0, 4); run && cy <= wk__vshr((int64_t)y0 + run - 1, 4); cy++) {
                const int32_t y = (int32_t)(cy * 16 > y0 ? cy * 16 : y0); /* the chunk's first block here */
                if (!make_chunk(w, x, y, z, &made)) {
                    w_free(w, h, bytes);
                    return wk__fail(WK_ERR_NO_MEMORY, "allocating a chunk for block (%d, %d, %d) failed", x, y, z);
                }
            }
        }
    const height_runs src = {runs, nx, x0, y0, z0};
    const int64_t lo[3] = {x0, y0, z0}, hi[3] = {(int64_t)x0 + nx - 1, (int64_t)y0 + ny - 1, (int64_t)z0 + nz - 1};
    set_blocks(w, lo, hi, &made, height_runs_solid, &src);
    w_free(w, h, bytes);
    return WK_OK;
}
