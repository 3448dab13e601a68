/* Public entry points of the fracture box kernels: adjacency and anchors.
 *
 * Adjacency. The padded boxes are sorted by a counting sort into uniform
 * grids, one per size class ("level"): level L holds the boxes whose
 * largest extent is at most cs_L * (1 - 2^-16), cs_L = cs0 * 2^L, in cells
 * of size 2/3 cs_L, each box in the cell of its min corner. Cells of one
 * level are numbered x fastest, so a run of cells along x is one contiguous
 * range of the sorted boxes. Box i finds every box j > i that touches it by
 * visiting, in every level, the cells from c(lo_i - reach_L) to c(hi_i) on
 * each axis, reach_L bounding the level's extents: j touches i only if
 * lo_j <= hi_i and lo_j >= lo_i - extent_j >= lo_i - reach_L, so j's cell is
 * within that range (c is monotone; margins cover the roundings). The boxes
 * of a cell of few boxes share one set of runs, those of the union of their
 * boxes (a superset of each one's own). Where ids follow the cells (a
 * lattice numbered along x, y, z), the runs whose ids are all at most the
 * cell's smallest are dropped (per cell, a bound on the ids up to it
 * along its row). Each box is in one cell, and each level's
 * cells are visited once per box, so j is found once; the list of box i is
 * then sorted, which makes the whole output sorted (i ascending). The box
 * tests over the runs are the per-ISA kernel (same IEEE compares
 * everywhere), the rest is shared scalar code, so every ISA returns the
 * same pairs. cs0 starts at 1.5 x the largest extent among the boxes of
 * about the median size (from a sample) and doubles until all levels' grids
 * hold at most 2n + 64 cells. */
#include "core/wk_fp_guard.h"

#include <math.h>
#include <string.h>

#include "core/wk_core.h"
#include "fracture_impl.h"

WK__DISPATCH_SIMD(wk__fracture_kernels, fracture_kernels)

#if defined(__GNUC__) || defined(__clang__)
#define WK_PREFETCH(p) __builtin_prefetch(p)
#else
#define WK_PREFETCH(p) ((void)(p))
#endif

/* The adjacency's kernels: the dispatched ones, except that the AVX-512
 * variants take the box tests and the short sort from AVX2. The runs of a
 * lattice hold about 4 boxes, a quarter of a 16-lane vector; measured on
 * the 100k lattice (AMD Zen 4), the 16-lane rows_slack and sort32 (mask
 * compares, vpcompressd, mask moves) made the count pass 35% slower than
 * the 8-lane ones, and an 8-lane form with mask registers was 10% slower.
 * Same IEEE compares, so the same pairs either way. */
static const wk__fracture_kernels *adjacency_kernels(const wk__call *call, wk__fracture_kernels *mix) {
    const wk__fracture_kernels *k = fracture_kernels(call);
#if defined(WK_HAVE_AVX2) && defined(WK_HAVE_AVX512)
    if (k == &wk__fracture_kernels_avx512 || k == &wk__fracture_kernels_avx512vbmi) {
        *mix = *k;
        mix->rows_slack = wk__fracture_kernels_avx2.rows_slack;
        mix->sort32 = wk__fracture_kernels_avx2.sort32;
        return mix;
    }
#else
    (void)mix;
#endif
    return k;
}

enum { CHUNK = 256, MAX_LEVELS = 40, ALIGN = 64, CACHE = 16, MORE = 16, RANGES = 64, CELL_RANGES = 128 };
/* Cells of at most this many boxes share one set of runs (measured: 2 to 8
 * alike on the lattice; all cells sharing was 60% slower on 100k random
 * boxes of sizes 0.2 to 5, whose cells hold about 30). */
enum { SHARE_MAX = 4 };
/* How many ids ahead emit_part prefetches a list. */
enum { AHEAD = 16 };

/* ------------------------------------------------------------ box checks */

static const float *const *box_arrays(const wk_boxes *b, const float *a[6]) {
    a[WK__LO_X] = b->min_x;
    a[WK__LO_Y] = b->min_y;
    a[WK__LO_Z] = b->min_z;
    a[WK__HI_X] = b->max_x;
    a[WK__HI_Y] = b->max_y;
    a[WK__HI_Z] = b->max_z;
    return a;
}

static wk_status check_padding(float padding) {
    if (!isfinite(padding)) return wk__fail(WK_ERR_NOT_FINITE, "padding must be finite, got %g", (double)padding);
    if (!(padding >= 0)) return wk__fail(WK_ERR_INVALID_ARG, "padding must be >= 0, got %g", (double)padding);
    return WK_OK;
}

/* Reserved space, pointers, and every bound finite with min <= max and
 * min - pad, max + pad finite. */
static wk_status check_boxes_scan(const wk_boxes *b, const char *name, float pad, int scan_values) {
    if (!b) return wk__fail(WK_ERR_NULL, "%s is NULL", name);
    if (b->reserved32 || !wk__all_zero(b->reserved, sizeof b->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "%s->reserved must be zero", name);
    if (b->n > WK_FRACTURE_MAX_FRAGMENTS)
        return wk__fail(WK_ERR_OVERFLOW, "%s->n must be <= %u, got %u", name, WK_FRACTURE_MAX_FRAGMENTS, b->n);
    if (b->n == 0) return WK_OK;
    const float *a[6];
    box_arrays(b, a);
    for (int k = 0; k < 6; k++)
        if (!a[k]) return wk__fail(WK_ERR_NULL, "%s: a bounds array is NULL with n = %u", name, b->n);
    if (!scan_values) return WK_OK;
    static const char axis[3] = {'x', 'y', 'z'};
    for (uint32_t i = 0; i < b->n; i++)
        for (int k = 0; k < 3; k++) {
            float lo = a[k][i], hi = a[k + 3][i];
            if (!isfinite(lo) || !isfinite(hi))
                return wk__fail(WK_ERR_NOT_FINITE, "%s box %u: %c bounds must be finite, got [%g, %g]", name, i,
                                axis[k], (double)lo, (double)hi);
            if (!(lo <= hi))
                return wk__fail(WK_ERR_INVALID_ARG, "%s box %u: min_%c must be <= max_%c, got %g > %g", name, i,
                                axis[k], axis[k], (double)lo, (double)hi);
            if (!isfinite(lo - pad) || !isfinite(hi + pad))
                return wk__fail(WK_ERR_OVERFLOW, "%s box %u: %c bounds padded by %g overflow float", name, i,
                                axis[k], (double)pad);
        }
    return WK_OK;
}

static wk_status check_boxes(const wk_boxes *b, const char *name, float pad) {
    return check_boxes_scan(b, name, pad, 1);
}

static int arrays_overlap(const wk_boxes *b, const void *p, size_t bytes) {
    if (b->n == 0 || !p || bytes == 0) return 0;
    const float *a[6];
    box_arrays(b, a);
    for (int k = 0; k < 6; k++)
        if (wk__overlap(a[k], (size_t)b->n * sizeof(float), p, bytes)) return 1;
    return 0;
}

/* -------------------------------------------------------------- workspace */

typedef struct ws_layout {
    size_t bounds, sid, level, cell, start, chunk, cache, count, rowmax, more, total;
    size_t cells_max, chunks;
} ws_layout;

/* n <= WK_FRACTURE_MAX_FRAGMENTS, so none of this overflows 64-bit size_t;
 * on 32-bit size_t the caller checks total against the limits first. */
static int layout_for(uint32_t n, ws_layout *l) {
    uint64_t nn = n;
    l->cells_max = (size_t)(2 * nn + 64 < 0xFFFFFFF0u ? 2 * nn + 64 : 0xFFFFFFF0u); /* cell ids are uint32_t */
    l->chunks = (size_t)((nn + CHUNK - 1) / CHUNK);
    uint64_t off = ALIGN; /* room to align the caller's pointer */
    uint64_t padded_n = nn + WK__FRACTURE_PAD;
    uint64_t parts[10] = {6 * 4 * padded_n, 4 * padded_n, nn, 4 * nn, 4 * ((uint64_t)l->cells_max + 1),
                          8 * ((uint64_t)l->chunks + 1), 4 * (uint64_t)CACHE * nn, 4 * nn,
                          4 * ((uint64_t)l->cells_max + 1), 4 * (uint64_t)MORE * nn};
    size_t *at[10] = {&l->bounds, &l->sid, &l->level, &l->cell, &l->start, &l->chunk, &l->cache, &l->count,
                      &l->rowmax, &l->more};
    for (int k = 0; k < 10; k++) {
        if (off > SIZE_MAX) return 0;
        *at[k] = (size_t)off;
        off = (off + parts[k] + ALIGN - 1) / ALIGN * ALIGN;
    }
    if (off > SIZE_MAX) return 0;
    l->total = (size_t)off;
    return 1;
}

wk_status wk_fracture_adjacency_workspace_size(uint32_t n, size_t *bytes) {
    wk__detail_reset(__func__);
    if (!bytes) return wk__fail(WK_ERR_NULL, "bytes is NULL");
    if (n > WK_FRACTURE_MAX_FRAGMENTS)
        return wk__fail(WK_ERR_OVERFLOW, "n must be <= %u, got %u", WK_FRACTURE_MAX_FRAGMENTS, n);
    ws_layout l;
    if (!layout_for(n, &l)) return wk__fail(WK_ERR_OVERFLOW, "the workspace for n = %u overflows size_t", n);
    *bytes = l.total;
    return WK_OK;
}

/* -------------------------------------------------------------- the grid */

typedef struct level_grid {
    uint32_t level;         /* size class */
    uint32_t dx, dy, dz;    /* cells per axis */
    size_t base;            /* first cell in the start array */
    double inv;             /* 1 / cell size */
    double top[3];          /* dx - 1, dy - 1, dz - 1 */
    double reach;           /* a bound on how far below a box's min a touching box of this
                               level can start: the level's largest extent, with margin */
} level_grid;

typedef struct adj_job {
    const wk__fracture_kernels *k;
    wk__fracture_kernels mix; /* see adjacency_kernels */
    const float *in[6];     /* the caller's bounds, by id */
    float pad;
    uint32_t n;
    const float *b[6];      /* padded bounds, sorted by cell */
    const uint32_t *sid;    /* sorted position -> id */
    const uint32_t *start;  /* per cell: first sorted position (and one past the last cell) */
    const uint32_t *rowmax; /* per cell: a bound on the ids in it and the cells before it in its
                               row; NULL: not used (ids in no spatial order) */
    size_t *chunk_count;    /* per chunk: pairs (pass 1), then first pair (pass 2) */
    uint32_t *cache;        /* per box: up to CACHE neighbours j > i, sorted (pass 1) */
    uint32_t *more;         /* per box: the next MORE of them (ids in no spatial order give a
                               box more than CACHE of its neighbours above it, touched only
                               then) */
    uint32_t *count;        /* per sorted position: the box's number of neighbours j > i */
    const uint32_t *pos;    /* per id: sorted position */
    uint32_t *pairs;        /* NULL in the counting pass */
    double origin[3];
    level_grid grid[MAX_LEVELS];
    uint32_t levels;
    size_t cells;           /* cells of all levels */
} adj_job;

/* Cell of coordinate x along one axis of a grid with cells 0..top (top =
 * the cell count - 1, as a double): monotone in x; below the origin (and
 * NaN) 0, past the end top. Branch-free, no libm call (truncation is floor
 * for v >= 0). */
static inline uint32_t cell_of(double x, double origin, double inv, double top) {
    double v = (x - origin) * inv;
    v = v > 0 ? v : 0;
    v = v < top ? v : top;
    return (uint32_t)(int64_t)v; /* 0 <= v <= top < 2^32 */
}

static inline void padded(const float *const in[6], float pad, uint32_t i, float q[6]) {
    for (int a = 0; a < 3; a++) {
        q[a] = in[a][i] - pad;
        q[a + 3] = in[a + 3][i] + pad;
    }
}

/* Histogram bin of an extent: its binary exponent (0 for 0). */
enum { BINS = 320 };
static inline uint32_t bin_of(double e) {
    if (!(e > 0)) return 0;
    uint64_t bits;
    memcpy(&bits, &e, sizeof bits);
    int ex = (int)(bits >> 52 & 0x7FF) - 1023 + 160; /* denormal extents share bin 1 */
    return ex < 1 ? 1 : ex >= BINS ? BINS - 1 : (uint32_t)ex;
}

static const double MARGIN = 1.0 - 1.0 / 65536.0;

/* A level's cells are 2/3 of its size class (about the largest box of the
 * class): boxes span up to two cells, and a query's runs hold few boxes
 * that cannot touch (measured on the 100k lattice: 1.0 was 8% slower, 0.5
 * 5% slower). The correctness argument does not need a box to fit in a
 * cell: the runs start at c(lo - reach), reach bounding the extents. */
static const double CELL_OF_LEVEL = 2.0 / 3.0;

/* Smallest level whose cells hold a box of extent e. */
static inline uint32_t level_of(double e, double cs0) {
    uint32_t L = 0;
    double cs = cs0 * MARGIN;
    while (e > cs && L + 1 < MAX_LEVELS) {
        cs *= 2;
        L++;
    }
    return L;
}

/* Ascending sort of n ids: insertion for short lists, heap sort otherwise. */
static void sort_ids(uint32_t *out, size_t found) {
    if (found <= 32) {
        for (size_t a = 1; a < found; a++) {
            uint32_t v = out[a];
            size_t b = a;
            for (; b > 0 && out[b - 1] > v; b--) out[b] = out[b - 1];
            out[b] = v;
        }
        return;
    }
    for (size_t s = found / 2; s-- > 0;) {
        for (size_t r = s;;) {
            size_t c = 2 * r + 1;
            if (c >= found) break;
            if (c + 1 < found && out[c + 1] > out[c]) c++;
            if (out[r] >= out[c]) break;
            uint32_t t = out[r]; out[r] = out[c]; out[c] = t;
            r = c;
        }
    }
    for (size_t e = found; e-- > 1;) {
        uint32_t t = out[0]; out[0] = out[e]; out[e] = t;
        for (size_t r = 0;;) {
            size_t c = 2 * r + 1;
            if (c >= e) break;
            if (c + 1 < e && out[c + 1] > out[c]) c++;
            if (out[r] >= out[c]) break;
            t = out[r]; out[r] = out[c]; out[c] = t;
            r = c;
        }
    }
}

/* The runs of cells (ranges of sorted positions) that hold every box j
 * touching any box whose padded bounds lie within q (a box, or the union of
 * the boxes of one cell): in every level, the cells from c(q.lo - reach) - the
 * margin to c(q.hi) on each axis. A box j touching a box i inside q has
 * lo_j <= hi_i <= q.hi and lo_j >= lo_i - extent_j >= q.lo - reach, the
 * bound the cells are computed from. Writes the non-empty runs to range and
 * returns their number, or SIZE_MAX when there may be more than cap (then
 * the boxes go one by one through box_pairs). */
static size_t cell_ranges(const adj_job *job, const float q[6], uint32_t *range, uint32_t *top_id, size_t cap) {
    size_t nr = 0;
    for (uint32_t g = 0; g < job->levels; g++) {
        const level_grid *lg = &job->grid[g];
        uint32_t c0[3], c1[3];
        const double *d = lg->top;
        for (int a = 0; a < 3; a++) {
            /* lo_j >= lo_i - extent_j >= lo_i - largest extent; the
             * margins cover the roundings of the extents and of this
             * subtraction. */
            double x = (double)q[a];
            c0[a] = cell_of(x - lg->reach - fabs(x) * 0x1p-50, job->origin[a], lg->inv, d[a]);
            c1[a] = cell_of(q[a + 3], job->origin[a], lg->inv, d[a]);
        }
        size_t runs = (size_t)(c1[1] - c0[1] + 1) * (c1[2] - c0[2] + 1);
        if (nr + runs > cap) return SIZE_MAX;
        /* Locals: the stores to range[] may alias the grid's fields. */
        const uint32_t *start = job->start, *rowmax = job->rowmax;
        const size_t base = lg->base, dx = lg->dx, dy = lg->dy, x0 = c0[0], x1 = (size_t)c1[0] + 1;
        for (size_t z = c0[2]; z <= c1[2]; z++) {
            const size_t slab = base + z * dy * dx;
            for (size_t y = c0[1]; y <= c1[1]; y++) {
                uint32_t begin = start[slab + y * dx + x0], end = start[slab + y * dx + x1];
                range[2 * nr] = begin;
                range[2 * nr + 1] = end;
                top_id[nr] = rowmax ? rowmax[slab + y * dx + x1 - 1] : UINT32_MAX; /* >= every id in the run */
                nr += begin != end;
            }
        }
    }
    return nr;
}

/* Keeps the runs that may hold an id above i (top_id[r] > i), in order, in
 * place; returns their number. */
static size_t runs_above(uint32_t *range, const uint32_t *top_id, size_t nr, uint32_t i) {
    size_t k = 0;
    for (size_t r = 0; r < nr; r++) {
        range[2 * k] = range[2 * r];
        range[2 * k + 1] = range[2 * r + 1];
        k += top_id[r] > i;
    }
    return k;
}

/* Neighbours j > i of box i: returns their number and writes the first
 * `cap` to out (in cell order, unsorted). */
static size_t box_pairs(const adj_job *job, uint32_t i, const float q[6], uint32_t *out, size_t cap) {
    size_t found = 0, nr = 0;
    uint32_t range[2 * RANGES];
    for (uint32_t g = 0; g < job->levels; g++) {
        const level_grid *lg = &job->grid[g];
        uint32_t c0[3], c1[3];
        const double *d = lg->top;
        for (int a = 0; a < 3; a++) {
            double x = (double)q[a];
            c0[a] = cell_of(x - lg->reach - fabs(x) * 0x1p-50, job->origin[a], lg->inv, d[a]);
            c1[a] = cell_of(q[a + 3], job->origin[a], lg->inv, d[a]);
        }
        /* Locals: the stores to range[] may alias the grid's fields. */
        const uint32_t *start = job->start;
        const size_t base = lg->base, dx = lg->dx, dy = lg->dy, x0 = c0[0], x1 = (size_t)c1[0] + 1;
        for (size_t z = c0[2]; z <= c1[2]; z++) {
            const uint32_t *slab = start + base + z * dy * dx;
            for (size_t y = c0[1]; y <= c1[1]; y++) {
                uint32_t begin = slab[y * dx + x0], end = slab[y * dx + x1];
                if (begin == end) continue;
                range[2 * nr] = begin;
                range[2 * nr + 1] = end;
                if (++nr == RANGES) {
                    found += job->k->rows(job->b, job->sid, range, nr, q, i, out + (found < cap ? found : cap),
                                          found < cap ? cap - found : 0);
                    nr = 0;
                }
            }
        }
    }
    if (nr)
        found += job->k->rows(job->b, job->sid, range, nr, q, i, out + (found < cap ? found : cap),
                              found < cap ? cap - found : 0);
    return found;
}

/* Spreads n sorted ids at out[0..n) into pairs (i, id) at out[0..2n). */
static void spread(uint32_t *out, size_t n, uint32_t i) {
    for (size_t t = n; t-- > 0;) {
        out[2 * t + 1] = out[t];
        out[2 * t] = i;
    }
}

static inline void sort_list(const adj_job *job, size_t p, const uint32_t *list) {
    size_t found = job->count[p];
    if (found <= CACHE) {
        job->k->sort32(list, found, job->cache + p * CACHE);
    } else if (found <= CACHE + MORE) {
        uint32_t sorted[CACHE + MORE];
        job->k->sort32(list, found, sorted);
        memcpy(job->cache + p * CACHE, sorted, CACHE * sizeof *sorted);
        memcpy(job->more + p * MORE, sorted + CACHE, (found - CACHE) * sizeof *sorted);
    }
}

/* Pass 1 runs over the boxes in cell order (sorted positions), so that
 * neighbouring boxes' queries share the cache whatever the ids' order;
 * lists and counts are kept by position (pos[id] finds them). The boxes of
 * one cell share one set of runs: those of the union of their boxes (a
 * superset of each box's own, see cell_ranges), built once per cell. */
static void count_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    adj_job *job = ctx;
    const uint32_t *start = job->start;
    size_t p = begin * CHUNK, p1 = end * CHUNK < job->n ? end * CHUNK : job->n;
    /* The cell of position p: the last c with start[c] <= p. */
    size_t lo = 0, hi = job->cells;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (start[mid] <= p) lo = mid;
        else hi = mid - 1;
    }
    size_t c = lo;
    uint32_t range[2 * CELL_RANGES], top_id[CELL_RANGES];
    uint32_t lists[2][CACHE + MORE + WK__FRACTURE_SLACK];
    const size_t first = p;
    /* Locals: the stores to the lists may alias the job's fields. */
    const float *b[6];
    for (int a = 0; a < 6; a++) b[a] = job->b[a];
    while (p < p1) {
        while (start[c + 1] <= p) c++;
        size_t e = start[c + 1] < p1 ? start[c + 1] : p1;
        /* A cell of few boxes: the union of its boxes (all of them, also
         * those of another task: the same runs whoever builds them). A
         * fuller cell: each box its own runs (a union of many boxes of
         * mixed sizes reaches far more boxes than each one's own). */
        size_t nr = SIZE_MAX;
        int shared = start[c + 1] - start[c] <= SHARE_MAX;
        if (shared) {
            float u[6];
            for (int a = 0; a < 6; a++) u[a] = b[a][start[c]];
            for (size_t t = start[c] + 1; t < start[c + 1]; t++)
                for (int a = 0; a < 3; a++) {
                    float l = b[a][t], h = b[a + 3][t];
                    u[a] = l < u[a] ? l : u[a];
                    u[a + 3] = h > u[a + 3] ? h : u[a + 3];
                }
            nr = cell_ranges(job, u, range, top_id, CELL_RANGES);
            /* Without the runs that hold no id above the cell's smallest
             * (where ids follow space, as in a lattice numbered x, y, z:
             * about half of them). */
            if (nr != SIZE_MAX && job->rowmax) nr = runs_above(range, top_id, nr, job->sid[start[c]]);
        }
        for (; p < e; p++) {
            uint32_t i = job->sid[p];
            float q[6];
            for (int a = 0; a < 6; a++) q[a] = b[a][p];
            uint32_t *list = lists[p & 1];
            if (!shared) {
                nr = cell_ranges(job, q, range, top_id, CELL_RANGES);
                if (nr != SIZE_MAX && job->rowmax) nr = runs_above(range, top_id, nr, i);
            }
            size_t found;
            if (nr != SIZE_MAX) {
                found = job->k->rows_slack(job->b, job->sid, range, nr, q, i, list, CACHE + MORE);
            } else {
                found = box_pairs(job, i, q, list, CACHE + MORE);
            }
            job->count[p] = (uint32_t)found; /* < n: every j is another box */
            /* The previous box's list is sorted now, one box late: the
             * vector loads of a list just written by the box tests' packed
             * stores would wait for those stores. */
            if (p > first) sort_list(job, p - 1, lists[(p - 1) & 1]);
        }
    }
    if (p1 > first) sort_list(job, p1 - 1, lists[(p1 - 1) & 1]);
}

static void emit_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    adj_job *job = ctx;
    for (size_t c = begin; c < end; c++) {
        uint32_t i0 = (uint32_t)(c * CHUNK), i1 = (uint32_t)((c + 1) * CHUNK < job->n ? (c + 1) * CHUNK : job->n);
        uint32_t *out = job->pairs + 2 * job->chunk_count[c];
        for (uint32_t i = i0; i < i1; i++) {
            /* Ids in no spatial order read the lists at random positions:
             * ask for those of a later id early (one miss at a time was
             * 2/3 of the whole call on a shuffled lattice). */
            if (i + AHEAD < job->n) {
                size_t pa = job->pos[i + AHEAD];
                WK_PREFETCH(job->count + pa);
                WK_PREFETCH(job->cache + pa * CACHE);
            }
            size_t p = job->pos[i], found = job->count[p];
            if (found <= CACHE + MORE) {
                const uint32_t *cache = job->cache + p * CACHE, *rest = job->more + p * MORE;
                size_t t = 0;
                for (; t < found && t < CACHE; t++) {
                    out[2 * t] = i;
                    out[2 * t + 1] = cache[t];
                }
                for (; t < found; t++) {
                    out[2 * t] = i;
                    out[2 * t + 1] = rest[t - CACHE];
                }
            } else {
                /* More than the cache holds: again, straight into the output. */
                float q[6];
                padded(job->in, job->pad, i, q);
                found = box_pairs(job, i, q, out, found);
                sort_ids(out, found);
                spread(out, found, i);
            }
            out += 2 * found;
        }
    }
}

/* Cells of all non-empty levels for base cell size cs0 (levels from
 * level_count), or SIZE_MAX past `limit`. */
static size_t plan_cells(const double span[3], double cs0, const uint32_t *level_count, size_t limit) {
    size_t total = 0;
    for (uint32_t L = 0; L < MAX_LEVELS; L++) {
        if (!level_count[L]) continue;
        double inv = 1.0 / ldexp(cs0 * CELL_OF_LEVEL, (int)L), cells = 1;
        for (int a = 0; a < 3; a++) cells *= floor(span[a] * inv) + 1;
        if (!(cells <= (double)limit) || (double)total + cells > (double)limit) return SIZE_MAX;
        total += (size_t)cells;
    }
    return total;
}

static wk_status adjacency_run(const wk__call *call, const wk_boxes *frags, float padding, void *workspace,
                               size_t workspace_bytes, uint32_t *pairs, size_t capacity, size_t *count) {
    if (!count) return wk__fail(WK_ERR_NULL, "count is NULL");
    wk_status s = check_padding(padding);
    if (s != WK_OK) return s;
    /* Pointers and reserved space now; the values in the first pass over
     * the boxes below (check_boxes names the first bad one). */
    s = check_boxes_scan(frags, "frags", padding, 0);
    if (s != WK_OK) return s;
    if (!pairs && capacity > 0) return wk__fail(WK_ERR_NULL, "pairs is NULL with capacity %zu", capacity);
    if (capacity > SIZE_MAX / (2 * sizeof(uint32_t)))
        return wk__fail(WK_ERR_OVERFLOW, "capacity %zu pairs overflow size_t bytes", capacity);
    uint32_t n = frags->n;
    if (n < 2) {
        s = check_boxes(frags, "frags", padding);
        if (s == WK_OK) *count = 0;
        return s;
    }
    ws_layout l;
    if (!layout_for(n, &l)) return wk__fail(WK_ERR_OVERFLOW, "the workspace for n = %u overflows size_t", n);
    if (!workspace) return wk__fail(WK_ERR_NULL, "workspace is NULL");
    if (workspace_bytes < l.total)
        return wk__fail(WK_ERR_CAPACITY, "workspace must be >= %zu bytes for n = %u, got %zu", l.total, n,
                        workspace_bytes);
    size_t pair_bytes = capacity * 2 * sizeof(uint32_t);
    if (pairs && wk__overlap(workspace, workspace_bytes, pairs, pair_bytes))
        return wk__fail(WK_ERR_ALIAS, "workspace overlaps pairs");
    if (arrays_overlap(frags, workspace, workspace_bytes))
        return wk__fail(WK_ERR_ALIAS, "workspace overlaps the bounds arrays");
    if (pairs && arrays_overlap(frags, pairs, pair_bytes))
        return wk__fail(WK_ERR_ALIAS, "pairs overlaps the bounds arrays");

    /* Regions at their layout offsets past the first 64-byte boundary. */
    unsigned char *base = (unsigned char *)workspace + (ALIGN - (uintptr_t)workspace % ALIGN) % ALIGN - ALIGN;
#define REGION(type, off) ((type *)(void *)(base + (off)))
    float *bounds = REGION(float, l.bounds);
    uint32_t *sid = REGION(uint32_t, l.sid);
    uint8_t *level = REGION(uint8_t, l.level);
    uint32_t *cell = REGION(uint32_t, l.cell);
    uint32_t *start = REGION(uint32_t, l.start);
    size_t *chunk_count = REGION(size_t, l.chunk);
    uint32_t *cache = REGION(uint32_t, l.cache);
    uint32_t *box_count = REGION(uint32_t, l.count);
    uint32_t *rowmax = REGION(uint32_t, l.rowmax);
    uint32_t *more = REGION(uint32_t, l.more);
#undef REGION

    adj_job jobs;
    memset(&jobs, 0, sizeof jobs);
    adj_job *job = &jobs;
    job->k = adjacency_kernels(call, &job->mix);
    box_arrays(frags, job->in);
    job->pad = padding;
    job->n = n;

    /* Padded bounds by id (structure of arrays in the cache region,
     * unused until pass 1; then each box's largest extent as a double),
     * the world's extent and the values' check: one vector pass. */
    float *qbuf = (float *)(void *)cache;
    float *qa[6];
    for (int a = 0; a < 6; a++) qa[a] = qbuf + (size_t)a * n;
    double *ext = (double *)(void *)(qbuf + 6 * (size_t)n);
    float lohi[6];
    if (!job->k->prep(job->in, n, padding, qa, lohi)) return check_boxes(frags, "frags", padding);
    double lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = lohi[a];
        hi[a] = lohi[a + 3];
    }
    double ext_max = 0;
    for (uint32_t i = 0; i < n; i++) {
        double e0 = (double)qa[3][i] - (double)qa[0][i], e1 = (double)qa[4][i] - (double)qa[1][i];
        double e2 = (double)qa[5][i] - (double)qa[2][i], e = e0 > e1 ? e0 : e1;
        e = e > e2 ? e : e2;
        ext[i] = e;
        ext_max = e > ext_max ? e : ext_max;
    }
    /* The extents' histogram (binary exponents), over a sample of at
     * most about 2^15 boxes: it only picks the cell size. */
    uint32_t bins[BINS];
    memset(bins, 0, sizeof bins);
    uint32_t sample_step = n > 65536 ? n / 32768 : 1, sampled = 0;
    for (uint32_t i = 0; i < n; i += sample_step, sampled++) bins[bin_of(ext[i])]++;
    double span[3], span_max = 0;
    for (int a = 0; a < 3; a++) {
        job->origin[a] = lo[a];
        span[a] = hi[a] - lo[a];
        if (span[a] > span_max) span_max = span[a];
    }
    /* Base cell size: 1.5 x the largest extent among the boxes whose extents
     * lie within a factor 4 of the median's power of two (a few huge boxes
     * must not make the cells of the many small ones huge; they go to
     * coarser levels). */
    uint32_t median = 0;
    for (uint32_t seen = 0; median < BINS; median++) {
        seen += bins[median];
        if (seen > sampled / 2) break;
    }
    double kept_max = 0;
    for (uint32_t i = 0; i < n; i += sample_step) {
        double e = ext[i];
        uint32_t b = bin_of(e);
        if (b + 2 >= median && b <= median + 2 && e > kept_max) kept_max = e;
    }
    double cs0 = kept_max * 1.5; /* a little larger than the boxes: fewer, longer runs */
    if (!(cs0 >= span_max * 0x1p-20)) cs0 = span_max * 0x1p-20;
    if (!(cs0 >= 0x1p-100)) cs0 = 1.0; /* every box is one point: one cell */

    /* Levels and the grids' size; cs0 doubles until the grids fit. */
    uint32_t level_count[MAX_LEVELS];
    double level_reach[MAX_LEVELS];
    size_t cells;
    for (;;) {
        memset(level_count, 0, sizeof level_count);
        for (uint32_t L = 0; L < MAX_LEVELS; L++) level_reach[L] = 0;
        if (level_of(ext_max, cs0) == 0) {
            /* Every box in level 0 (boxes of similar size). */
            memset(level, 0, n);
            level_count[0] = n;
            level_reach[0] = ext_max;
        } else {
            for (uint32_t i = 0; i < n; i++) {
                double e = ext[i];
                uint32_t L = level_of(e, cs0);
                level[i] = (uint8_t)L;
                level_count[L]++;
                if (e > level_reach[L]) level_reach[L] = e;
            }
        }
        cells = plan_cells(span, cs0, level_count, l.cells_max);
        if (cells != SIZE_MAX) break;
        cs0 *= 2;
    }
    size_t next = 0;
    for (uint32_t L = 0; L < MAX_LEVELS; L++) {
        if (!level_count[L]) continue;
        level_grid *g = &job->grid[job->levels++];
        g->level = L;
        g->inv = 1.0 / ldexp(cs0 * CELL_OF_LEVEL, (int)L);
        g->reach = level_reach[L] * (1.0 + 0x1p-20);
        g->dx = (uint32_t)(floor(span[0] * g->inv) + 1);
        g->dy = (uint32_t)(floor(span[1] * g->inv) + 1);
        g->dz = (uint32_t)(floor(span[2] * g->inv) + 1);
        g->top[0] = (double)(g->dx - 1);
        g->top[1] = (double)(g->dy - 1);
        g->top[2] = (double)(g->dz - 1);
        g->base = next;
        next += (size_t)g->dx * g->dy * g->dz;
    }
    uint32_t grid_of_level[MAX_LEVELS];
    for (uint32_t g = 0; g < job->levels; g++) grid_of_level[job->grid[g].level] = g;

    /* Counting sort of the boxes by cell. */
    memset(start, 0, (cells + 1) * sizeof *start);
    for (uint32_t i = 0; i < n; i++) {
        const level_grid *g = &job->grid[grid_of_level[level[i]]];
        uint32_t cx = cell_of(qa[0][i], job->origin[0], g->inv, g->top[0]);
        uint32_t cy = cell_of(qa[1][i], job->origin[1], g->inv, g->top[1]);
        uint32_t cz = cell_of(qa[2][i], job->origin[2], g->inv, g->top[2]);
        size_t c = g->base + ((size_t)cz * g->dy + cy) * g->dx + cx;
        cell[i] = (uint32_t)c;
        start[c]++;
    }
    uint32_t run = 0;
    for (size_t c = 0; c <= cells; c++) {
        run += start[c];
        start[c] = run; /* one past the cell's last position */
    }
    size_t stride = (size_t)n + WK__FRACTURE_PAD;
    for (uint32_t a = 0; a < 6; a++) {
        job->b[a] = bounds + (size_t)a * stride;
        for (size_t k = n; k < stride; k++) bounds[(size_t)a * stride + k] = NAN; /* never touches */
    }
    for (size_t k = n; k < stride; k++) sid[k] = 0;
    for (uint32_t i = n; i-- > 0;) {
        uint32_t pos = --start[cell[i]];
        sid[pos] = i;
        for (int a = 0; a < 6; a++) bounds[(size_t)a * stride + pos] = qa[a][i];
        cell[i] = pos; /* from now on: the id's sorted position */
    }
    /* Per cell, a bound on the ids in it and the cells before it along x
     * (ids ascend within a cell: its last box's id): a run whose last
     * cell's bound is at most i holds no j > i. */
    /* Only where ids mostly follow the cells (a cell's smallest id above
     * the previous non-empty cell's largest in at least half the cells):
     * with ids in no spatial order, hardly a run is skipped. */
    size_t ordered = 0, filled = 0;
    for (size_t c = 0, prev = 0; c < cells; c++) {
        if (start[c] == start[c + 1]) continue;
        filled++;
        ordered += sid[start[c]] > prev;
        prev = sid[start[c + 1] - 1];
    }
    if (2 * ordered < filled) rowmax = NULL;
    for (uint32_t g = 0; rowmax && g < job->levels; g++) {
        const level_grid *lg = &job->grid[g];
        size_t rows = (size_t)lg->dy * lg->dz;
        for (size_t r = 0; r < rows; r++) {
            size_t c0 = lg->base + r * lg->dx;
            uint32_t m = 0;
            for (size_t c = c0; c < c0 + lg->dx; c++) {
                /* The last box before the cell's end (another cell's for an
                 * empty cell: only a larger bound); branch-free. */
                uint32_t e = start[c + 1], last = sid[(e ? e : 1) - 1];
                m = last > m ? last : m;
                rowmax[c] = m;
            }
        }
    }
    job->rowmax = rowmax;
    job->pos = cell;
    job->sid = sid;
    job->start = start;
    job->cells = cells;
    job->chunk_count = chunk_count;
    job->cache = cache;
    job->more = more;
    job->count = box_count;

    /* Pass 1: every box's neighbours j > i (cached when few), then each
     * chunk of ids' first pair. */
    size_t chunks = l.chunks;
    wk__parallel_for(call, chunks, CHUNK * 32, count_part, job);
    size_t total = 0;
    for (size_t c = 0; c < chunks; c++) {
        chunk_count[c] = total;
        size_t i1 = (c + 1) * CHUNK < n ? (c + 1) * CHUNK : n;
        for (size_t i = c * CHUNK; i < i1; i++) total += box_count[cell[i]];
    }
    if (!pairs) {
        *count = total;
        return WK_OK;
    }
    if (total > capacity) {
        *count = total;
        return wk__fail(WK_ERR_CAPACITY, "pairs has room for %zu pairs, %zu needed", capacity, total);
    }
    /* Pass 2: each chunk writes its own range. */
    job->pairs = pairs;
    wk__parallel_for(call, chunks, CHUNK * 32, emit_part, job);
    *count = total;
    return WK_OK;
}

wk_status wk_fracture_adjacency(const wk_boxes *frags, float padding, void *workspace, size_t workspace_bytes,
                                uint32_t *pairs, size_t capacity, size_t *count, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = adjacency_run(&call, frags, padding, workspace, workspace_bytes, pairs, capacity, count);
    return wk__end(&call, s);
}

/* ---------------------------------------------------------------- anchors */

typedef struct anchor_job {
    const wk__fracture_kernels *k;
    const float *f[6];
    const float *a[6];
    uint32_t n, m;
    float pad;
    uint8_t *flags;
} anchor_job;

static void anchor_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    anchor_job *job = ctx;
    size_t i0 = begin * CHUNK * 16, i1 = end * CHUNK * 16 < job->n ? end * CHUNK * 16 : job->n;
    const float *f[6];
    for (int k = 0; k < 6; k++) f[k] = job->f[k] + i0;
    memset(job->flags + i0, 0, i1 - i0);
    for (uint32_t j = 0; j < job->m; j++) {
        float box[6];
        for (int k = 0; k < 6; k++) box[k] = job->a[k][j];
        job->k->anchor(f, i1 - i0, job->pad, box, job->flags + i0);
    }
}

static wk_status anchors_run(const wk__call *call, const wk_boxes *frags, float padding, const wk_boxes *anchors,
                             uint8_t *flags) {
    wk_status s = check_padding(padding);
    if (s == WK_OK) s = check_boxes(frags, "frags", padding);
    if (s == WK_OK) s = check_boxes(anchors, "anchors", 0.0f);
    if (s != WK_OK) return s;
    if (frags->n == 0) return WK_OK;
    if (!flags) return wk__fail(WK_ERR_NULL, "flags is NULL with n = %u", frags->n);
    if (arrays_overlap(frags, flags, frags->n) || arrays_overlap(anchors, flags, frags->n))
        return wk__fail(WK_ERR_ALIAS, "flags overlaps a bounds array");
    anchor_job job;
    job.k = fracture_kernels(call);
    box_arrays(frags, job.f);
    box_arrays(anchors, job.a);
    job.n = frags->n;
    job.m = anchors->n;
    job.pad = padding;
    job.flags = flags;
    size_t block = CHUNK * 16, tasks = (job.n + block - 1) / block;
    wk__parallel_for(call, tasks, block * (job.m + 1), anchor_part, &job);
    return WK_OK;
}

wk_status wk_fracture_anchors(const wk_boxes *frags, float padding, const wk_boxes *anchors, uint8_t *flags,
                              const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = anchors_run(&call, frags, padding, anchors, flags);
    return wk__end(&call, s);
}
