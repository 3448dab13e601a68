/* Public entry points of the noise family: validate, prepare lattice data in
 * shared scalar code, split the work across threads, call the ISA table. */
#include "core/wk_fp_guard.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>

#include "core/wk_core.h"
#include "noise_impl.h"
#include "noise_lattice.h"

WK__DISPATCH_SIMD(wk__noise_kernels, noise_kernels)

/* ------------------------------------------------------------------ points */

enum { POINT_CHUNK = 4096 };

typedef struct points_job {
    const wk__noise_kernels *k;
    const float *x, *y, *z; /* z NULL: 2D */
    size_t n;
    const wk_perm *perm;
    float *out;
} points_job;

static void points_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    const points_job *job = ctx;
    for (size_t c = begin; c < end; c++) {
        size_t start = c * POINT_CHUNK, count = job->n - start < POINT_CHUNK ? job->n - start : POINT_CHUNK;
        if (job->z)
            job->k->perlin3(job->x + start, job->y + start, job->z + start, count, job->perm, job->out + start);
        else
            job->k->perlin2(job->x + start, job->y + start, count, job->perm, job->out + start);
    }
}

/* out may equal an input exactly, but not overlap it partially. */
static wk_status check_out_alias(const float *in, const float *out, size_t n, const char *name) {
    if (in != out && wk__overlap(in, n * sizeof(float), out, n * sizeof(float)))
        return wk__fail(WK_ERR_ALIAS, "out overlaps %s partially (equal pointers are allowed)", name);
    return WK_OK;
}

/* Perlin noise at points, 2D when dims is 2. */
static wk_status perlin_points(const wk__call *call, int dims, const float *x, const float *y,
                               const float *z, size_t n, uint32_t seed, float *out) {
    if (n == 0) return WK_OK;
    if (!x || !y || (dims == 3 && !z) || !out)
        return wk__fail(WK_ERR_NULL, "x, y%s and out must not be NULL with n = %zu", dims == 3 ? ", z" : "", n);
    if (n > SIZE_MAX / sizeof(float)) return wk__fail(WK_ERR_OVERFLOW, "n = %zu floats overflow size_t bytes", n);
    wk_status s = check_out_alias(x, out, n, "x");
    if (s == WK_OK) s = check_out_alias(y, out, n, "y");
    if (s == WK_OK && dims == 3) s = check_out_alias(z, out, n, "z");
    if (s != WK_OK) return s;
    points_job job = {noise_kernels(call), x, y, dims == 3 ? z : NULL, n, wk__perm_get(seed), out};
    wk__parallel_for(call, n / POINT_CHUNK + (n % POINT_CHUNK != 0), POINT_CHUNK, points_part, &job);
    return WK_OK;
}

wk_status wk_noise_perlin2(const float *x, const float *y, size_t n, uint32_t seed, float *out,
                           const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = perlin_points(&call, 2, x, y, NULL, n, seed, out);
    return wk__end(&call, s);
}

wk_status wk_noise_perlin3(const float *x, const float *y, const float *z, size_t n, uint32_t seed,
                           float *out, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = perlin_points(&call, 3, x, y, z, n, seed, out);
    return wk__end(&call, s);
}

/* -------------------------------------------------------------- fBm plans */

enum { MAX_OCTAVES = 16 };

/* Everything about an fBm call that does not depend on the grid point. */
typedef struct fbm_plan {
    int octaves;
    uint32_t lattice;
    uint32_t fractal;
    const struct wk__noise_kernels *kern; /* the call's ISA table (grids) */
    double step;
    double freq[MAX_OCTAVES];
    float amp[MAX_OCTAVES];
    uint32_t seed[MAX_OCTAVES];
    int normalize;
    float amp_sum;
    const wk_perm *perm[MAX_OCTAVES]; /* PERM only: per-thread cache (noise_lattice.h) */
} fbm_plan;

static wk_status plan_fbm(const wk_fbm *f, double step, fbm_plan *plan) {
    if (!f) return wk__fail(WK_ERR_NULL, "f is NULL");
    if (!wk__all_zero(f->reserved, sizeof f->reserved)) return wk__fail(WK_ERR_INVALID_ARG, "f->reserved must be zero");
    if (f->lattice != WK_LATTICE_PERM && f->lattice != WK_LATTICE_HASH)
        return wk__fail(WK_ERR_INVALID_ARG, "f->lattice must be WK_LATTICE_PERM (0) or WK_LATTICE_HASH (1), got %u",
                        f->lattice);
    if (f->fractal > WK_FRACTAL_BILLOW)
        return wk__fail(WK_ERR_INVALID_ARG,
                        "f->fractal must be WK_FRACTAL_FBM (0), WK_FRACTAL_RIDGED (1) or WK_FRACTAL_BILLOW (2), got %u",
                        f->fractal);
    if (f->octaves < 1 || f->octaves > MAX_OCTAVES)
        return wk__fail(WK_ERR_INVALID_ARG, "f->octaves must be 1..%d, got %d", MAX_OCTAVES, (int)f->octaves);
    if (!isfinite(f->frequency)) return wk__fail(WK_ERR_NOT_FINITE, "f->frequency must be finite, got %g", f->frequency);
    if (!isfinite(f->lacunarity))
        return wk__fail(WK_ERR_NOT_FINITE, "f->lacunarity must be finite, got %g", f->lacunarity);
    if (!isfinite(f->gain)) return wk__fail(WK_ERR_NOT_FINITE, "f->gain must be finite, got %g", (double)f->gain);
    if (!(f->frequency > 0)) return wk__fail(WK_ERR_INVALID_ARG, "f->frequency must be > 0, got %g", f->frequency);
    if (!(f->lacunarity > 0))
        return wk__fail(WK_ERR_INVALID_ARG, "f->lacunarity must be > 0, got %g", f->lacunarity);
    plan->octaves = f->octaves;
    plan->kern = &wk__noise_kernels_ref;
    plan->lattice = f->lattice;
    plan->fractal = f->fractal;
    plan->step = step;
    plan->normalize = f->normalize != 0;
    double freq = f->frequency;
    float amp = 1.0f, amp_sum = 0.0f;
    for (int k = 0; k < f->octaves; k++) {
        plan->freq[k] = freq;
        plan->amp[k] = amp;
        plan->seed[k] = f->seed + (uint32_t)k;
        amp_sum += amp;
        freq *= f->lacunarity;
        amp *= f->gain;
    }
    if (!isfinite(amp_sum))
        return wk__fail(WK_ERR_OVERFLOW, "the amplitudes gain^k (gain %g) sum to infinity", (double)f->gain);
    if (plan->normalize && amp_sum == 0.0f)
        return wk__fail(WK_ERR_INVALID_ARG, "f->normalize needs a nonzero amplitude sum (gain %g)", (double)f->gain);
    plan->amp_sum = amp_sum;
    return WK_OK;
}

static void plan_permutations(fbm_plan *plan) {
    if (plan->lattice == WK_LATTICE_PERM)
        for (int k = 0; k < plan->octaves; k++) plan->perm[k] = wk__perm_get(plan->seed[k]);
}

/* Lattice coordinates must stay below 2^53 in magnitude: beyond, a double
 * has no fraction bits left and every sample would be a lattice point
 * (noise 0). Global indices must stay within +-2^53 (exact in double). */
#define LATTICE_LIMIT 0x1p53

static wk_status check_axis(const fbm_plan *plan, int64_t origin, uint32_t count, const char *axis) {
    const int64_t limit = (int64_t)1 << 53;
    if (origin < -limit || origin > limit - (int64_t)count)
        return wk__fail(WK_ERR_OVERFLOW, "g->%s0 + n%s must stay within +-2^53, got origin %lld, count %u", axis,
                        axis, (long long)origin, count);
    /* Rounding is monotonic: the farthest index gives the largest |coordinate|. */
    double reach = fmax(fabs((double)origin), fabs((double)(origin + (int64_t)count - 1)));
    for (int k = 0; k < plan->octaves; k++) {
        double pos = (reach * plan->step) * plan->freq[k];
        if (!(pos < LATTICE_LIMIT))
            return wk__fail(WK_ERR_OVERFLOW,
                            "lattice coordinate along %s reaches %g at octave %d (index %.0f, step %g, frequency %g); "
                            "it must stay below 2^53",
                            axis, pos, k, reach, plan->step, plan->freq[k]);
    }
    return WK_OK;
}

static wk_octave octave_of(const fbm_plan *plan, int k) {
    wk_octave o;
    o.lattice = plan->lattice;
    o.perm = plan->perm[k];
    o.amp = plan->amp[k];
    o.first = k == 0;
    o.divide = plan->normalize && k == plan->octaves - 1;
    o.divisor = plan->amp_sum;
    o.fractal = plan->fractal;
    return o;
}

/* ------------------------------------------------------- lattice per axis */

enum { TILE_COLS = 256 };

/* Lattice data of `count` consecutive samples along one axis at octave k
 * (`cells` and `dfade` may be NULL): cell = floor(coordinate), keys of the
 * cell and the next (PERM: cell & 255; HASH: axis hashes), fraction
 * t = (float)(coordinate - cell), t - 1, fade(t), fade'(t). Points use the
 * same arithmetic (wk__coords_impl in noise_lattice.h), so equal
 * coordinates give equal bits.
 * The lattice coordinate is ((origin + i) * step) * freq, formed in double;
 * only the fraction goes on in float. */
static void axis_lattice(const fbm_plan *plan, int k, unsigned axis, int64_t origin,
                         size_t count, int64_t *cells, uint32_t *key0, uint32_t *key1,
                         float *frac, float *frac1, float *fade, float *dfade) {
    int64_t cell_scratch[TILE_COLS];
    float dfade_scratch[TILE_COLS];
    /* counts never exceed a tile's side (TILE_COLS >= every tile dimension) */
    plan->kern->grid_coords(origin, count, plan->step, plan->freq[k], plan->lattice, plan->seed[k], axis,
                            cells ? cells : cell_scratch, key0, key1, frac, frac1, fade,
                            dfade ? dfade : dfade_scratch);
}

/* Column data of a tile: lattice of the x axis; PERM column keys become
 * perm[X] and perm[X+1] so a corner is perm[(key + Y) & 255].
 * A dense tile is cut into segments of equal width (the last may be
 * shorter) that each span at most WK_DENSE_CELLS cells; each column's cell
 * is numbered from its segment's first cell, and each segment keeps the
 * column key of each of its cells. */
enum { MIN_SEGMENT = 32, MAX_SEGMENTS = TILE_COLS / MIN_SEGMENT };

/* Scratch arrays start on 64-byte boundaries (each is a multiple of 64
 * bytes long), so full-vector loads never straddle cache lines: with
 * AVX-512 a misaligned frame cost small chunks a fifth of their time. */
#define WK_ALIGN64 _Alignas(64)

typedef struct tile_columns {
    WK_ALIGN64 uint32_t q0[TILE_COLS], q1[TILE_COLS];
    float fx[TILE_COLS], fx1[TILE_COLS], u[TILE_COLS], du[TILE_COLS];
    int64_t cells[TILE_COLS];
    int dense;
    uint32_t count, segment_cols, segments;
    uint32_t cell[TILE_COLS];
    uint32_t ncells[MAX_SEGMENTS]; /* cells a segment spans, the next one included */
    uint32_t cell_key[MAX_SEGMENTS][WK_DENSE_CELLS];
} tile_columns;

static uint32_t column_key(const fbm_plan *plan, int k, int64_t cell) {
    if (plan->lattice == WK_LATTICE_PERM) return plan->perm[k]->p[(uint64_t)cell & 255];
    return wk__axis_hash(cell, plan->seed[k], 0);
}

/* Cells grow with the column, so a segment's first and last bound its span. */
static int segments_fit(const tile_columns *c, uint32_t width, int64_t max_cells) {
    for (uint32_t s = 0; s < c->count; s += width) {
        uint32_t last = s + width < c->count ? s + width - 1 : c->count - 1;
        if (c->cells[last] - c->cells[s] + 2 > max_cells) return 0;
    }
    return 1;
}

static void columns_lattice(const fbm_plan *plan, int k, int64_t origin, uint32_t count,
                            int with_deriv, tile_columns *c) {
    axis_lattice(plan, k, 0, origin, count, c->cells, c->q0, c->q1, c->fx, c->fx1, c->u,
                 with_deriv ? c->du : NULL);
    if (plan->lattice == WK_LATTICE_PERM)
        for (uint32_t i = 0; i < count; i++) {
            c->q0[i] = plan->perm[k]->p[c->q0[i]];
            c->q1[i] = plan->perm[k]->p[c->q1[i]];
        }
    c->count = count;
    c->dense = 0;
    /* Segments of at most 8 cells (one-register tables on AVX2) when they
     * can stay 64 columns wide, else of at most 16. */
    for (uint32_t width = TILE_COLS; width >= 64 && !c->dense; width /= 2)
        if (segments_fit(c, width, 8)) {
            c->dense = 1;
            c->segment_cols = width;
        }
    for (uint32_t width = TILE_COLS; width >= MIN_SEGMENT && !c->dense; width /= 2)
        if (segments_fit(c, width, WK_DENSE_CELLS)) {
            c->dense = 1;
            c->segment_cols = width;
        }
    if (!c->dense) return;
    c->segments = (count + c->segment_cols - 1) / c->segment_cols;
    for (uint32_t s = 0; s < c->segments; s++) {
        uint32_t start = s * c->segment_cols;
        uint32_t end = start + c->segment_cols < count ? start + c->segment_cols : count;
        int64_t first = c->cells[start];
        c->ncells[s] = (uint32_t)(c->cells[end - 1] - first + 2);
        for (uint32_t i = start; i < end; i++) c->cell[i] = (uint32_t)(c->cells[i] - first);
        for (uint32_t j = 0; j < WK_DENSE_CELLS; j++)
            c->cell_key[s][j] = j < c->ncells[s] ? column_key(plan, k, first + j) : 0;
    }
}

/* A dense segment's corner gradient indices per cell: corner (cell, row key). */
static void dense_corners(const wk_octave *o, uint32_t ncells, const uint32_t *col_keys,
                          uint32_t row_key, int shift, uint32_t table[WK_DENSE_CELLS]) {
    for (uint32_t j = 0; j < ncells; j++) table[j] = wk_corner_index(o, col_keys[j], row_key, shift);
    for (uint32_t j = ncells; j < WK_DENSE_CELLS; j++) table[j] = 0;
}

/* Columns [*start, *end) of segment s, or of the whole tile when not dense. */
static uint32_t segment_count(const tile_columns *c) { return c->dense ? c->segments : 1; }
static void segment_range(const tile_columns *c, uint32_t s, uint32_t *start, uint32_t *end) {
    if (!c->dense) {
        *start = 0;
        *end = c->count;
        return;
    }
    *start = s * c->segment_cols;
    *end = *start + c->segment_cols < c->count ? *start + c->segment_cols : c->count;
}

/* One sample's lattice data along y or z. */
typedef struct lattice_1d {
    uint32_t key0, key1;
    float f, f1, fade, dfade;
} lattice_1d;

static lattice_1d lattice_at(const fbm_plan *plan, int k, unsigned axis, int64_t index) {
    lattice_1d l;
    axis_lattice(plan, k, axis, index, 1, NULL, &l.key0, &l.key1, &l.f, &l.f1, &l.fade, &l.dfade);
    return l;
}

/* ----------------------------------------------------------------- 2D grid */

enum { TILE_ROWS_2D = 256 };

static wk_status check_grid2(const wk_fbm *f, const wk_grid2 *g, fbm_plan *plan, size_t *floats) {
    wk_status s = wk__check_grid2(g, "g", floats);
    if (s == WK_OK) s = plan_fbm(f, g->step, plan);
    if (s != WK_OK || *floats == 0) return s;
    if ((s = check_axis(plan, g->i0, g->nx, "i")) != WK_OK) return s;
    return check_axis(plan, g->j0, g->ny, "j");
}

/* Lattice data of a tile's rows. */
typedef struct tile_rows {
    WK_ALIGN64 uint32_t key0[TILE_ROWS_2D], key1[TILE_ROWS_2D];
    float f[TILE_ROWS_2D], f1[TILE_ROWS_2D], fade[TILE_ROWS_2D];
} tile_rows;

/* Value (and, with ddx/ddy, derivatives) of the 2D fBm over one tile. */
static void fbm2_tile(const wk__noise_kernels *kern, const fbm_plan *plan, const wk_grid2 *g,
                      uint32_t col0, uint32_t cols, uint32_t row0, uint32_t rows, float *value,
                      float *ddx, float *ddy) {
    tile_columns c;
    uint32_t h_y0[WK_DENSE_CELLS], h_y1[WK_DENSE_CELLS];
    int with_deriv = ddx != NULL;
    for (int k = 0; k < plan->octaves; k++) {
        wk_octave o = octave_of(plan, k);
        columns_lattice(plan, k, g->i0 + col0, cols, with_deriv, &c);
        if (!with_deriv) {
            /* One call per tile and octave: the rows' lattice data in arrays. */
            tile_rows y;
            axis_lattice(plan, k, 1, g->j0 + row0, rows, NULL, y.key0, y.key1, y.f, y.f1, y.fade, NULL);
            wk_tile2 t = {cols, rows, g->stride, c.q0, c.q1, c.fx, c.fx1, c.u, y.key0, y.key1, y.f, y.f1, y.fade,
                          c.dense ? c.cell : NULL, (const uint32_t(*)[WK_DENSE_CELLS])c.cell_key, c.ncells,
                          c.dense ? c.segment_cols : cols, c.dense ? c.segments : 1};
            kern->tile2(&t, &o, value + (size_t)row0 * g->stride + col0);
            continue;
        }
        for (uint32_t j = row0; j < row0 + rows; j++) {
            lattice_1d y = lattice_at(plan, k, 1, g->j0 + j);
            for (uint32_t seg = 0; seg < segment_count(&c); seg++) {
                uint32_t start, end;
                segment_range(&c, seg, &start, &end);
                if (c.dense) {
                    dense_corners(&o, c.ncells[seg], c.cell_key[seg], y.key0, 29, h_y0);
                    dense_corners(&o, c.ncells[seg], c.cell_key[seg], y.key1, 29, h_y1);
                }
                wk_row2d d = {
                    .r = {c.q0 + start, c.q1 + start, c.fx + start, c.fx1 + start, c.u + start,
                          y.key0, y.key1, y.f, y.f1, y.fade, c.dense ? c.cell + start : NULL,
                          c.dense ? h_y0 : NULL, c.dense ? h_y1 : NULL},
                    .du = c.du + start,
                    .dv = y.dfade,
                    .sx = (float)plan->freq[k],
                    .sy = (float)plan->freq[k],
                };
                size_t at = (size_t)j * g->stride + col0 + start;
                if (with_deriv)
                    kern->row2d(&d, &o, end - start, value + at, ddx + at, ddy + at);
                else
                    kern->row2(&d.r, &o, end - start, value + at);
            }
        }
    }
}

/* Tiles along an axis of `count` samples; size_t so that counts near
 * UINT32_MAX do not wrap. */
static size_t tiles_along(uint32_t count, uint32_t tile) { return ((size_t)count + tile - 1) / tile; }

typedef struct fbm2_job {
    const wk__noise_kernels *kern;
    const fbm_plan *plan;
    const wk_grid2 *g;
    size_t tiles_x;
    float *value, *ddx, *ddy;
} fbm2_job;

static void fbm2_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    const fbm2_job *job = ctx;
    const wk_grid2 *g = job->g;
    for (size_t t = begin; t < end; t++) {
        uint32_t col0 = (uint32_t)(t % job->tiles_x * TILE_COLS), row0 = (uint32_t)(t / job->tiles_x * TILE_ROWS_2D);
        uint32_t cols = g->nx - col0 < TILE_COLS ? g->nx - col0 : TILE_COLS;
        uint32_t rows = g->ny - row0 < TILE_ROWS_2D ? g->ny - row0 : TILE_ROWS_2D;
        fbm2_tile(job->kern, job->plan, g, col0, cols, row0, rows, job->value, job->ddx, job->ddy);
    }
}

static wk_status fbm2_run(const wk__call *call, const wk_fbm *f, const wk_grid2 *g, float *value, float *ddx,
                          float *ddy, int with_deriv) {
    fbm_plan plan;
    size_t floats;
    wk_status s = check_grid2(f, g, &plan, &floats);
    if (s != WK_OK || floats == 0) return s;
    if (with_deriv && plan.fractal != WK_FRACTAL_FBM)
        return wk__fail(WK_ERR_INVALID_ARG, "derivatives need f->fractal = WK_FRACTAL_FBM (0), got %u", plan.fractal);
    if (!value || (with_deriv && (!ddx || !ddy)))
        return wk__fail(WK_ERR_NULL, with_deriv ? "value, ddx and ddy must not be NULL" : "out is NULL");
    size_t bytes = floats * sizeof(float);
    if (with_deriv && (wk__overlap(value, bytes, ddx, bytes) || wk__overlap(value, bytes, ddy, bytes) ||
                       wk__overlap(ddx, bytes, ddy, bytes)))
        return wk__fail(WK_ERR_ALIAS, "value, ddx and ddy must not overlap");
    plan_permutations(&plan);
    plan.kern = noise_kernels(call);
    fbm2_job job = {noise_kernels(call), &plan, g, tiles_along(g->nx, TILE_COLS), value, ddx, ddy};
    size_t tiles = job.tiles_x * tiles_along(g->ny, TILE_ROWS_2D);
    wk__parallel_for(call, tiles, (size_t)TILE_COLS * TILE_ROWS_2D * (size_t)plan.octaves, fbm2_part, &job);
    return WK_OK;
}

wk_status wk_noise_fbm2_grid(const wk_fbm *f, const wk_grid2 *g, float *out, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = fbm2_run(&call, f, g, out, NULL, NULL, 0);
    return wk__end(&call, s);
}

wk_status wk_noise_fbm2_grid_deriv(const wk_fbm *f, const wk_grid2 *g, float *value, float *ddx, float *ddy,
                                   const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = fbm2_run(&call, f, g, value, ddx, ddy, 1);
    return wk__end(&call, s);
}

/* ----------------------------------------------------------------- 3D grid */

enum { TILE_ROWS_3D = 16, TILE_SLICES_3D = 16 };

static wk_status check_grid3(const wk_fbm *f, const wk_grid3 *g, fbm_plan *plan, size_t *floats) {
    wk_status s = wk__check_grid3(g, "g", floats);
    if (s == WK_OK) s = plan_fbm(f, g->step, plan);
    if (s != WK_OK || *floats == 0) return s;
    if ((s = check_axis(plan, g->i0, g->nx, "i")) != WK_OK) return s;
    if ((s = check_axis(plan, g->j0, g->ny, "j")) != WK_OK) return s;
    return check_axis(plan, g->k0, g->nz, "k");
}

/* Per-column keys of one 3D row: the column keys combined with the row's Y. */
typedef struct row_keys {
    WK_ALIGN64 uint32_t q00[TILE_COLS], q10[TILE_COLS], q01[TILE_COLS], q11[TILE_COLS];
    /* dense tiles: per segment and cell */
    uint32_t cell_y0[MAX_SEGMENTS][WK_DENSE_CELLS], cell_y1[MAX_SEGMENTS][WK_DENSE_CELLS];
} row_keys;

/* Column keys with the row's Y folded in, as wk_row3 describes. */
static uint32_t fold_row(const fbm_plan *plan, int k, uint32_t col, uint32_t row) {
    if (plan->lattice == WK_LATTICE_PERM) return plan->perm[k]->p[(col + row) & 255];
    return col ^ row;
}

static void row_keys_for(const fbm_plan *plan, int k, const tile_columns *c, size_t cols,
                         const lattice_1d *y, row_keys *r) {
    if (c->dense)
        for (uint32_t s = 0; s < c->segments; s++)
            for (uint32_t j = 0; j < WK_DENSE_CELLS; j++) {
                int used = j < c->ncells[s];
                r->cell_y0[s][j] = used ? fold_row(plan, k, c->cell_key[s][j], y->key0) : 0;
                r->cell_y1[s][j] = used ? fold_row(plan, k, c->cell_key[s][j], y->key1) : 0;
            }
    if (plan->lattice == WK_LATTICE_PERM) {
        const uint8_t *p = plan->perm[k]->p;
        for (size_t i = 0; i < cols; i++) {
            r->q00[i] = p[(c->q0[i] + y->key0) & 255];
            r->q10[i] = p[(c->q1[i] + y->key0) & 255];
            r->q01[i] = p[(c->q0[i] + y->key1) & 255];
            r->q11[i] = p[(c->q1[i] + y->key1) & 255];
        }
    } else {
        for (size_t i = 0; i < cols; i++) {
            r->q00[i] = c->q0[i] ^ y->key0;
            r->q10[i] = c->q1[i] ^ y->key0;
            r->q01[i] = c->q0[i] ^ y->key1;
            r->q11[i] = c->q1[i] ^ y->key1;
        }
    }
}

static void fbm3_tile(const wk__noise_kernels *kern, const fbm_plan *plan, const wk_grid3 *g,
                      uint32_t col0, uint32_t cols, uint32_t row0, uint32_t rows, uint32_t slice0,
                      uint32_t slices, float *out) {
    tile_columns c;
    row_keys keys;
    uint32_t z0[TILE_SLICES_3D], z1[TILE_SLICES_3D];
    float fz[TILE_SLICES_3D], fz1[TILE_SLICES_3D], w[TILE_SLICES_3D];
    for (int k = 0; k < plan->octaves; k++) {
        wk_octave o = octave_of(plan, k);
        columns_lattice(plan, k, g->i0 + col0, cols, 0, &c);
        axis_lattice(plan, k, 2, g->k0 + slice0, slices, NULL, z0, z1, fz, fz1, w, NULL);
        for (uint32_t j = row0; j < row0 + rows; j++) {
            lattice_1d y = lattice_at(plan, k, 1, g->j0 + j);
            row_keys_for(plan, k, &c, cols, &y, &keys);
            /* One call per row: the slices loop in the ISA code. */
            wk_tile3 t = {cols, slices, g->slice_stride, keys.q00, keys.q10, keys.q01, keys.q11,
                          c.fx, c.fx1, c.u, y.f, y.f1, y.fade, z0, z1, fz, fz1, w,
                          c.dense ? c.cell : NULL, (const uint32_t(*)[WK_DENSE_CELLS])keys.cell_y0,
                          (const uint32_t(*)[WK_DENSE_CELLS])keys.cell_y1, c.ncells, c.dense ? c.segment_cols : cols,
                          c.dense ? c.segments : 1};
            kern->tile3(&t, &o, out + (size_t)slice0 * g->slice_stride + (size_t)j * g->stride + col0);
        }
    }
}

/* Value and derivatives of the 3D fBm over one tile: rows and slices one
 * at a time through the keys (no dense tables). */
static void fbm3_tile_deriv(const wk__noise_kernels *kern, const fbm_plan *plan, const wk_grid3 *g,
                            uint32_t col0, uint32_t cols, uint32_t row0, uint32_t rows, uint32_t slice0,
                            uint32_t slices, float *const out[4]) {
    tile_columns c;
    row_keys keys;
    uint32_t z0[TILE_SLICES_3D], z1[TILE_SLICES_3D];
    float fz[TILE_SLICES_3D], fz1[TILE_SLICES_3D], w[TILE_SLICES_3D], dw[TILE_SLICES_3D];
    for (int k = 0; k < plan->octaves; k++) {
        wk_octave o = octave_of(plan, k);
        float scale = (float)plan->freq[k];
        columns_lattice(plan, k, g->i0 + col0, cols, 1, &c);
        axis_lattice(plan, k, 2, g->k0 + slice0, slices, NULL, z0, z1, fz, fz1, w, dw);
        for (uint32_t j = row0; j < row0 + rows; j++) {
            lattice_1d y = lattice_at(plan, k, 1, g->j0 + j);
            row_keys_for(plan, k, &c, cols, &y, &keys);
            for (uint32_t s = 0; s < slices; s++) {
                wk_row3d d = {{keys.q00, keys.q10, keys.q01, keys.q11, c.fx, c.fx1, c.u, z0[s], z1[s], y.f, y.f1,
                               y.fade, fz[s], fz1[s], w[s], NULL, {NULL, NULL, NULL, NULL}},
                              c.du, y.dfade, dw[s], scale, scale, scale};
                size_t at = (size_t)(slice0 + s) * g->slice_stride + (size_t)j * g->stride + col0;
                kern->row3d(&d, &o, cols, out[0] + at, out[1] + at, out[2] + at, out[3] + at);
            }
        }
    }
}

typedef struct fbm3_job {
    const wk__noise_kernels *kern;
    const fbm_plan *plan;
    const wk_grid3 *g;
    size_t tx, ty;
    float *out;
    float *deriv[4]; /* value, ddx, ddy, ddz; NULL without derivatives */
} fbm3_job;

static void fbm3_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    const fbm3_job *job = ctx;
    const wk_grid3 *g = job->g;
    for (size_t t = begin; t < end; t++) {
        uint32_t col0 = (uint32_t)(t % job->tx * TILE_COLS);
        uint32_t row0 = (uint32_t)(t / job->tx % job->ty * TILE_ROWS_3D);
        uint32_t slice0 = (uint32_t)(t / (job->tx * job->ty) * TILE_SLICES_3D);
        uint32_t cols = g->nx - col0 < TILE_COLS ? g->nx - col0 : TILE_COLS;
        uint32_t rows = g->ny - row0 < TILE_ROWS_3D ? g->ny - row0 : TILE_ROWS_3D;
        uint32_t slices = g->nz - slice0 < TILE_SLICES_3D ? g->nz - slice0 : TILE_SLICES_3D;
        if (job->deriv[0])
            fbm3_tile_deriv(job->kern, job->plan, g, col0, cols, row0, rows, slice0, slices, job->deriv);
        else
            fbm3_tile(job->kern, job->plan, g, col0, cols, row0, rows, slice0, slices, job->out);
    }
}

/* out[0] the values; out[1..3] the derivatives, or NULL. */
static wk_status fbm3_run(const wk__call *call, const wk_fbm *f, const wk_grid3 *g, float *const out[4]) {
    fbm_plan plan;
    size_t floats;
    int with_deriv = out[1] || out[2] || out[3];
    wk_status s = check_grid3(f, g, &plan, &floats);
    if (s != WK_OK || floats == 0) return s;
    if (with_deriv && plan.fractal != WK_FRACTAL_FBM)
        return wk__fail(WK_ERR_INVALID_ARG, "derivatives need f->fractal = WK_FRACTAL_FBM (0), got %u", plan.fractal);
    if (!out[0] || (with_deriv && (!out[1] || !out[2] || !out[3])))
        return wk__fail(WK_ERR_NULL, with_deriv ? "value, ddx, ddy and ddz must not be NULL" : "out is NULL");
    size_t bytes = floats * sizeof(float);
    if (with_deriv)
        for (int a = 0; a < 4; a++)
            for (int b = a + 1; b < 4; b++)
                if (wk__overlap(out[a], bytes, out[b], bytes))
                    return wk__fail(WK_ERR_ALIAS, "value, ddx, ddy and ddz must not overlap");
    plan_permutations(&plan);
    plan.kern = noise_kernels(call);
    fbm3_job job = {noise_kernels(call), &plan, g, tiles_along(g->nx, TILE_COLS), tiles_along(g->ny, TILE_ROWS_3D),
                    out[0], {NULL, NULL, NULL, NULL}};
    if (with_deriv)
        for (int a = 0; a < 4; a++) job.deriv[a] = out[a];
    size_t tiles = job.tx * job.ty * tiles_along(g->nz, TILE_SLICES_3D);
    wk__parallel_for(call, tiles, (size_t)TILE_COLS * TILE_ROWS_3D * TILE_SLICES_3D * (size_t)plan.octaves,
                     fbm3_part, &job);
    return WK_OK;
}

wk_status wk_noise_fbm3_grid(const wk_fbm *f, const wk_grid3 *g, float *out, const wk_exec *exec) {
    wk__call call;
    float *const outs[4] = {out, NULL, NULL, NULL};
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = fbm3_run(&call, f, g, outs);
    return wk__end(&call, s);
}

wk_status wk_noise_fbm3_grid_deriv(const wk_fbm *f, const wk_grid3 *g, float *value, float *ddx, float *ddy,
                                   float *ddz, const wk_exec *exec) {
    wk__call call;
    float *const outs[4] = {value, ddx, ddy, ddz};
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) {
        if (!ddx || !ddy || !ddz) {
            /* a NULL derivative must not turn the call into a plain one */
            size_t floats;
            s = wk__check_grid3(g, "g", &floats);
            if (s == WK_OK && floats > 0) s = wk__fail(WK_ERR_NULL, "value, ddx, ddy and ddz must not be NULL");
            else if (s == WK_OK) s = fbm3_run(&call, f, g, outs);
        } else {
            s = fbm3_run(&call, f, g, outs);
        }
    }
    return wk__end(&call, s);
}

/* ------------------------------------------------------------ fBm points */

enum { PTS_CHUNK = 256, PTS_TASK = 4096 };

static wk_status check_coords(const fbm_plan *plan, const double *v, size_t n, const char *name) {
    double reach = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i])) return wk__fail(WK_ERR_NOT_FINITE, "%s[%zu] must be finite, got %g", name, i, v[i]);
        double a = fabs(v[i]);
        if (a > reach) reach = a;
    }
    for (int k = 0; k < plan->octaves; k++) {
        double pos = reach * plan->freq[k];
        if (!(pos < LATTICE_LIMIT))
            return wk__fail(WK_ERR_OVERFLOW,
                            "lattice coordinate %s * frequency reaches %g at octave %d (|%s| up to %g, frequency %g); "
                            "it must stay below 2^53",
                            name, pos, k, name, reach, plan->freq[k]);
    }
    return WK_OK;
}

typedef struct pts_job {
    const wk__noise_kernels *kern;
    const fbm_plan *plan;
    const double *x, *y, *z; /* z NULL: 2D */
    size_t n;
    float *out;
} pts_job;

typedef struct pts_scratch {
    WK_ALIGN64 uint32_t q[4][PTS_CHUNK], k0[PTS_CHUNK], k1[PTS_CHUNK], y0[PTS_CHUNK], y1[PTS_CHUNK];
    uint32_t x0[PTS_CHUNK], x1[PTS_CHUNK];
    float fx[PTS_CHUNK], fx1[PTS_CHUNK], u[PTS_CHUNK], fy[PTS_CHUNK], fy1[PTS_CHUNK], v[PTS_CHUNK];
    float fz[PTS_CHUNK], fz1[PTS_CHUNK], w[PTS_CHUNK];
} pts_scratch;

/* fBm of `plan` at count <= PTS_CHUNK points (z NULL: 2D) into out. */
static void pts_eval(const wk__noise_kernels *kern, const fbm_plan *plan, const double *x, const double *y,
                     const double *z, size_t count, float *out, pts_scratch *s) {
    for (int k = 0; k < plan->octaves; k++) {
        wk_octave o = octave_of(plan, k);
        double freq = plan->freq[k];
        /* axis_lattice's arithmetic (noise_lattice.h), from the ISA table;
         * PERM column keys go through the permutation: perm[X], perm[X+1]. */
        const uint8_t *perm = plan->lattice == WK_LATTICE_PERM ? plan->perm[k]->p : NULL;
        kern->coords(x, count, freq, plan->lattice, plan->seed[k], 0, perm, s->x0, s->x1, s->fx, s->fx1, s->u);
        kern->coords(y, count, freq, plan->lattice, plan->seed[k], 1, NULL, s->y0, s->y1, s->fy, s->fy1, s->v);
        if (!z) {
            wk_pts2 p = {s->x0, s->x1, s->y0, s->y1, s->fx, s->fx1, s->u, s->fy, s->fy1, s->v};
            kern->pts2(&p, &o, count, out);
            continue;
        }
        kern->coords(z, count, freq, plan->lattice, plan->seed[k], 2, NULL, s->k0, s->k1, s->fz, s->fz1, s->w);
        for (size_t i = 0; i < count; i++) {
            /* fold the point's Y into the column keys, as row_keys_for */
            s->q[0][i] = fold_row(plan, k, s->x0[i], s->y0[i]);
            s->q[1][i] = fold_row(plan, k, s->x1[i], s->y0[i]);
            s->q[2][i] = fold_row(plan, k, s->x0[i], s->y1[i]);
            s->q[3][i] = fold_row(plan, k, s->x1[i], s->y1[i]);
        }
        wk_pts3 p = {s->q[0], s->q[1], s->q[2], s->q[3], s->k0, s->k1, s->fx, s->fx1, s->u,
                     s->fy, s->fy1, s->v, s->fz, s->fz1, s->w};
        kern->pts3(&p, &o, count, out);
    }
}

static void pts_chunk(const pts_job *job, size_t start, size_t count, pts_scratch *s) {
    pts_eval(job->kern, job->plan, job->x + start, job->y + start, job->z ? job->z + start : NULL, count,
             job->out + start, s);
}

static void pts_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    const pts_job *job = ctx;
    pts_scratch s;
    for (size_t start = begin * PTS_TASK; start < end * PTS_TASK && start < job->n; start += PTS_CHUNK) {
        size_t count = job->n - start < PTS_CHUNK ? job->n - start : PTS_CHUNK;
        pts_chunk(job, start, count, &s);
    }
}

static wk_status fbm_points_run(const wk__call *call, const wk_fbm *f, const double *x, const double *y,
                                const double *z, int dims, size_t n, float *out) {
    fbm_plan plan;
    wk_status s = plan_fbm(f, 1.0, &plan);
    if (s != WK_OK || n == 0) return s;
    if (!x || !y || (dims == 3 && !z) || !out)
        return wk__fail(WK_ERR_NULL, "x, y%s and out must not be NULL with n = %zu", dims == 3 ? ", z" : "", n);
    if (n > SIZE_MAX / sizeof(double)) return wk__fail(WK_ERR_OVERFLOW, "n = %zu doubles overflow size_t bytes", n);
    size_t ob = n * sizeof(float), ib = n * sizeof(double);
    if (wk__overlap(out, ob, x, ib) || wk__overlap(out, ob, y, ib) || (dims == 3 && wk__overlap(out, ob, z, ib)))
        return wk__fail(WK_ERR_ALIAS, "out must not overlap x, y%s", dims == 3 ? " or z" : "");
    if ((s = check_coords(&plan, x, n, "x")) != WK_OK) return s;
    if ((s = check_coords(&plan, y, n, "y")) != WK_OK) return s;
    if (dims == 3 && (s = check_coords(&plan, z, n, "z")) != WK_OK) return s;
    plan_permutations(&plan);
    pts_job job = {noise_kernels(call), &plan, x, y, dims == 3 ? z : NULL, n, out};
    wk__parallel_for(call, n / PTS_TASK + (n % PTS_TASK != 0), (size_t)PTS_TASK * (size_t)plan.octaves, pts_part,
                     &job);
    return WK_OK;
}

wk_status wk_noise_fbm2_points(const wk_fbm *f, const double *x, const double *y, size_t n, float *out,
                               const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = fbm_points_run(&call, f, x, y, NULL, 2, n, out);
    return wk__end(&call, s);
}

wk_status wk_noise_fbm3_points(const wk_fbm *f, const double *x, const double *y, const double *z, size_t n,
                               float *out, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = fbm_points_run(&call, f, x, y, z, 3, n, out);
    return wk__end(&call, s);
}

/* ------------------------------------------------------------ domain warp */

/* Seed offset of the warp noise for axis a (noise.h). */
#define WARP_SEED_STEP 0x9E3779B9u

typedef struct warp_job {
    const wk__noise_kernels *kern;
    const fbm_plan *plan;      /* the sampled fBm */
    const fbm_plan *warp[3];   /* the warp noise per axis */
    double amplitude;
    int dims;
    const wk_grid2 *g2;
    const wk_grid3 *g3;
    size_t samples;            /* nx * ny (* nz) */
    float *out;
} warp_job;

static void warp_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    const warp_job *job = ctx;
    pts_scratch s;
    double pos[3][PTS_CHUNK], moved[3][PTS_CHUNK];
    float off[PTS_CHUNK], val[PTS_CHUNK];
    uint32_t nx = job->dims == 2 ? job->g2->nx : job->g3->nx, ny = job->dims == 2 ? job->g2->ny : job->g3->ny;
    for (size_t first = begin * PTS_CHUNK; first < end * PTS_CHUNK && first < job->samples; first += PTS_CHUNK) {
        size_t count = job->samples - first < PTS_CHUNK ? job->samples - first : PTS_CHUNK;
        for (size_t a = 0; a < count; a++) { /* the grid's world positions, formed as the grids form them */
            size_t idx = first + a, i = idx % nx, j = idx / nx % ny, k = idx / nx / ny;
            if (job->dims == 2) {
                pos[0][a] = (double)(job->g2->i0 + (int64_t)i) * job->g2->step;
                pos[1][a] = (double)(job->g2->j0 + (int64_t)j) * job->g2->step;
            } else {
                pos[0][a] = (double)(job->g3->i0 + (int64_t)i) * job->g3->step;
                pos[1][a] = (double)(job->g3->j0 + (int64_t)j) * job->g3->step;
                pos[2][a] = (double)(job->g3->k0 + (int64_t)k) * job->g3->step;
            }
        }
        const double *z = job->dims == 3 ? pos[2] : NULL;
        for (int axis = 0; axis < job->dims; axis++) {
            pts_eval(job->kern, job->warp[axis], pos[0], pos[1], z, count, off, &s);
            for (size_t a = 0; a < count; a++) moved[axis][a] = pos[axis][a] + job->amplitude * (double)off[a];
        }
        pts_eval(job->kern, job->plan, moved[0], moved[1], job->dims == 3 ? moved[2] : NULL, count, val, &s);
        for (size_t a = 0; a < count; a++) {
            size_t idx = first + a, i = idx % nx, j = idx / nx % ny, k = idx / nx / ny;
            size_t at = job->dims == 2 ? j * job->g2->stride + i
                                       : k * job->g3->slice_stride + j * job->g3->stride + i;
            job->out[at] = val[a];
        }
    }
}

/* The largest |value| an fBm plan can produce: each octave's noise is
 * within [-1.1, 1.1] (|perlin3| <= 1.04, ridged and billow <= 1). */
static double fbm_bound(const fbm_plan *plan) {
    double sum = 0;
    for (int k = 0; k < plan->octaves; k++) sum += fabs((double)plan->amp[k]);
    sum *= 1.1;
    return plan->normalize ? sum / fabs((double)plan->amp_sum) : sum;
}

static wk_status warp_run(const wk__call *call, const wk_fbm *f, const wk_warp *w, int dims, const wk_grid2 *g2,
                          const wk_grid3 *g3, float *out) {
    fbm_plan plan, warp[3];
    wk_perm perms[4][MAX_OCTAVES];
    size_t floats;
    wk_status s = dims == 2 ? wk__check_grid2(g2, "g", &floats) : wk__check_grid3(g3, "g", &floats);
    double step = dims == 2 ? (g2 ? g2->step : 1.0) : (g3 ? g3->step : 1.0);
    if (s == WK_OK) s = plan_fbm(f, step, &plan);
    if (s != WK_OK) return s;
    if (!w) return wk__fail(WK_ERR_NULL, "w is NULL");
    if (!wk__all_zero(w->reserved, sizeof w->reserved)) return wk__fail(WK_ERR_INVALID_ARG, "w->reserved must be zero");
    if (!isfinite(w->amplitude)) return wk__fail(WK_ERR_NOT_FINITE, "w->amplitude must be finite, got %g", w->amplitude);
    for (int a = 0; a < dims; a++) {
        wk_fbm wf = w->noise;
        wf.seed += (uint32_t)a * WARP_SEED_STEP;
        s = plan_fbm(&wf, step, &warp[a]);
        if (s != WK_OK) {
            char why[200];
            snprintf(why, sizeof why, "%s", wk_last_error_detail());
            return wk__fail(s, "w->noise (as warp axis %d): %s", a, why);
        }
    }
    if (floats == 0) return WK_OK;
    if (!out) return wk__fail(WK_ERR_NULL, "out is NULL");
    /* Unwarped positions: the grid rules for the warp noise. */
    const int64_t origin[3] = {dims == 2 ? g2->i0 : g3->i0, dims == 2 ? g2->j0 : g3->j0, dims == 3 ? g3->k0 : 0};
    const uint32_t count[3] = {dims == 2 ? g2->nx : g3->nx, dims == 2 ? g2->ny : g3->ny, dims == 3 ? g3->nz : 1};
    static const char *const axis_name[3] = {"i", "j", "k"};
    for (int a = 0; a < dims; a++)
        if ((s = check_axis(&warp[0], origin[a], count[a], axis_name[a])) != WK_OK) return s;
    /* Warped positions: within amplitude * bound of the grid's. */
    double reach = 0;
    for (int a = 0; a < dims; a++) {
        double r = fmax(fabs((double)origin[a]), fabs((double)(origin[a] + (int64_t)count[a] - 1))) * step;
        if (r > reach) reach = r;
    }
    double moved = reach + fabs(w->amplitude) * fbm_bound(&warp[0]);
    for (int k = 0; k < plan.octaves; k++)
        if (!(moved * plan.freq[k] * (1 + 0x1p-40) < LATTICE_LIMIT))
            return wk__fail(WK_ERR_OVERFLOW,
                            "warped lattice coordinates may reach %g at octave %d (positions up to %g world units "
                            "plus the warp amplitude %g); they must stay below 2^53",
                            moved * plan.freq[k], k, reach, w->amplitude);
    /* Several plans at once: each keeps its own copy of its permutations
     * (the per-thread cache may hand the same slot to two of them). */
    fbm_plan *plans[4] = {&plan, &warp[0], &warp[1], &warp[2]};
    for (int p = 0; p <= dims; p++)
        if (plans[p]->lattice == WK_LATTICE_PERM)
            for (int k = 0; k < plans[p]->octaves; k++) {
                perms[p][k] = *wk__perm_get(plans[p]->seed[k]);
                plans[p]->perm[k] = &perms[p][k];
            }
    size_t samples = (size_t)count[0] * count[1] * count[2];
    warp_job job = {noise_kernels(call), &plan, {&warp[0], &warp[1], dims == 3 ? &warp[2] : NULL}, w->amplitude,
                    dims, g2, g3, samples, out};
    size_t work = (size_t)PTS_CHUNK * (size_t)(plan.octaves + dims * warp[0].octaves);
    wk__parallel_for(call, samples / PTS_CHUNK + (samples % PTS_CHUNK != 0), work, warp_part, &job);
    return WK_OK;
}

wk_status wk_noise_fbm2_grid_warp(const wk_fbm *f, const wk_warp *w, const wk_grid2 *g, float *out,
                                  const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = warp_run(&call, f, w, 2, g, NULL, out);
    return wk__end(&call, s);
}

wk_status wk_noise_fbm3_grid_warp(const wk_fbm *f, const wk_warp *w, const wk_grid3 *g, float *out,
                                  const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = warp_run(&call, f, w, 3, NULL, g, out);
    return wk__end(&call, s);
}
