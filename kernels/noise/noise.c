/* Public entry points of the noise family: validate, prepare lattice data in
 * shared scalar code, split the work across threads, call the ISA table. */
#include <math.h>
#include <stdint.h>

#include "../core/wk_core.h"
#ifdef _OPENMP
#include <omp.h>
#endif
#include "noise_impl.h"
#include "noise_lattice.h"

/* ---------------------------------------------------------------- dispatch */

extern const wk_noise_kernels wk_noise_kernels_ref;
#ifdef WK_HAVE_AVX2
extern const wk_noise_kernels wk_noise_kernels_avx2;
#endif
#ifdef WK_HAVE_AVX512
extern const wk_noise_kernels wk_noise_kernels_avx512, wk_noise_kernels_avx512vbmi;
#endif
#ifdef WK_HAVE_NEON
extern const wk_noise_kernels wk_noise_kernels_neon;
#endif

const wk_noise_kernels *wk_noise_kernels_for(int isa) {
    switch (isa) {
    case WK_ISA_SCALAR: return &wk_noise_kernels_ref;
#ifdef WK_HAVE_AVX2
    case WK_ISA_AVX2: return &wk_noise_kernels_avx2;
#endif
#ifdef WK_HAVE_AVX512
    case WK_ISA_AVX512:
        return wk_cpu_has_avx512vbmi() ? &wk_noise_kernels_avx512vbmi : &wk_noise_kernels_avx512;
#endif
#ifdef WK_HAVE_NEON
    case WK_ISA_NEON: return &wk_noise_kernels_neon;
#endif
    default: return NULL;
    }
}

static const wk_noise_kernels *kernels(void) { return wk_noise_kernels_for(wk_isa_active()); }

/* ------------------------------------------------------------------ points */

enum { POINT_CHUNK = 4096, POINTS_PER_THREAD = 16384 };

static wk_status check_points(size_t n, const void *a, const void *b, const void *c,
                              const void *out) {
    if (n == 0) return WK_OK;
    if (!a || !b || !c || !out) return WK_ERR_NULL;
    if (n > SIZE_MAX / sizeof(float)) return WK_ERR_OVERFLOW;
    return WK_OK;
}

/* Perlin noise at points, 2D when z is NULL: chunks across the team. */
static wk_status perlin_points(const float *x, const float *y, const float *z, size_t n,
                               uint32_t seed, float *out) {
    wk_status s = check_points(n, x, y, z ? z : x, out);
    if (s != WK_OK || n == 0) return s;
    wk_perm perm;
    wk_perm_init(&perm, seed);
    const wk_noise_kernels *k = kernels();
    long long chunks = (long long)((n + POINT_CHUNK - 1) / POINT_CHUNK);
    int threads = wk_threads_for(n, POINTS_PER_THREAD);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (long long c = 0; c < chunks; c++) {
        size_t start = (size_t)c * POINT_CHUNK, count = n - start < POINT_CHUNK ? n - start : POINT_CHUNK;
        if (z)
            k->perlin3(x + start, y + start, z + start, count, &perm, out + start);
        else
            k->perlin2(x + start, y + start, count, &perm, out + start);
    }
    return WK_OK;
}

wk_status wk_noise_perlin2(const float *x, const float *y, size_t n, uint32_t seed, float *out) {
    return perlin_points(x, y, NULL, n, seed, out);
}

wk_status wk_noise_perlin3(const float *x, const float *y, const float *z, size_t n,
                           uint32_t seed, float *out) {
    if (n > 0 && !z) return WK_ERR_NULL;
    return perlin_points(x, y, z, n, seed, out);
}

/* -------------------------------------------------------------- fBm plans */

enum { MAX_OCTAVES = 16 };

/* Everything about an fBm call that does not depend on the grid point. */
typedef struct fbm_plan {
    int octaves;
    wk_lattice lattice;
    double step;
    double freq[MAX_OCTAVES];
    float amp[MAX_OCTAVES];
    uint32_t seed[MAX_OCTAVES];
    int normalize;
    float amp_sum;
    wk_perm perm[MAX_OCTAVES]; /* PERM only */
} fbm_plan;

static wk_status plan_fbm(const wk_fbm *f, double step, fbm_plan *plan) {
    if (f->lattice != WK_LATTICE_PERM && f->lattice != WK_LATTICE_HASH) return WK_ERR_INVALID_ARG;
    if (f->octaves < 1 || f->octaves > MAX_OCTAVES) return WK_ERR_INVALID_ARG;
    if (!isfinite(step) || !isfinite(f->frequency) || !isfinite(f->lacunarity) ||
        !isfinite(f->gain))
        return WK_ERR_NOT_FINITE;
    if (!(step > 0) || !(f->frequency > 0) || !(f->lacunarity > 0)) return WK_ERR_INVALID_ARG;
    plan->octaves = f->octaves;
    plan->lattice = f->lattice;
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
    if (!isfinite(amp_sum)) return WK_ERR_OVERFLOW;
    if (plan->normalize && amp_sum == 0.0f) return WK_ERR_INVALID_ARG;
    plan->amp_sum = amp_sum;
    return WK_OK;
}

static void plan_permutations(fbm_plan *plan) {
    if (plan->lattice == WK_LATTICE_PERM)
        for (int k = 0; k < plan->octaves; k++) wk_perm_init(&plan->perm[k], plan->seed[k]);
}

/* Global indices must stay within +-2^53 (exact in double) and lattice
 * coordinates within +-2^62 (exact cells in int64) at every octave. */
static wk_status check_axis(const fbm_plan *plan, int64_t origin, uint32_t count) {
    const int64_t limit = (int64_t)1 << 53;
    if (origin < -limit || origin > limit - (int64_t)count) return WK_ERR_OVERFLOW;
    double reach = fmax(fabs((double)origin), fabs((double)(origin + (int64_t)count - 1)));
    for (int k = 0; k < plan->octaves; k++)
        if (!(reach * plan->step * plan->freq[k] < 0x1p62)) return WK_ERR_OVERFLOW;
    return WK_OK;
}

static wk_octave octave_of(const fbm_plan *plan, int k) {
    wk_octave o;
    o.lattice = plan->lattice;
    o.perm = &plan->perm[k];
    o.amp = plan->amp[k];
    o.first = k == 0;
    o.divide = plan->normalize && k == plan->octaves - 1;
    o.divisor = plan->amp_sum;
    return o;
}

/* ------------------------------------------------------- lattice per axis */

enum { TILE_COLS = 256 };

/* Lattice data of `count` consecutive samples along one axis at octave k:
 * keys of the cell and the next cell (PERM: cell & 255; HASH: axis hash),
 * fraction, fraction - 1, fade and, when dfade is not NULL, its derivative;
 * the cells themselves when `cells` is not NULL.
 * The lattice coordinate is ((origin + i) * step) * freq, formed in double;
 * only the fraction goes on in float. */
static void axis_lattice(const fbm_plan *plan, int k, unsigned axis, int64_t origin,
                         size_t count, int64_t *cells, uint32_t *key0, uint32_t *key1,
                         float *frac, float *frac1, float *fade, float *dfade) {
    for (size_t i = 0; i < count; i++) {
        double pos = ((double)(origin + (int64_t)i) * plan->step) * plan->freq[k];
        double cell = floor(pos);
        int64_t c = (int64_t)cell;
        float t = (float)(pos - cell);
        if (cells) cells[i] = c;
        if (plan->lattice == WK_LATTICE_PERM) {
            key0[i] = (uint32_t)((uint64_t)c & 255);
            key1[i] = (uint32_t)((uint64_t)(c + 1) & 255);
        } else {
            key0[i] = wk_axis_hash(c, plan->seed[k], axis);
            key1[i] = wk_axis_hash(c + 1, plan->seed[k], axis);
        }
        frac[i] = t;
        frac1[i] = t - 1.0f;
        fade[i] = wk_fade(t);
        if (dfade) dfade[i] = wk_fade_deriv(t);
    }
}

/* Column data of a tile: lattice of the x axis; PERM column keys become
 * perm[X] and perm[X+1] so a corner is perm[(key + Y) & 255].
 * A dense tile is cut into segments of equal width (the last may be
 * shorter) that each span at most WK_DENSE_CELLS cells; each column's cell
 * is numbered from its segment's first cell, and each segment keeps the
 * column key of each of its cells. */
enum { MIN_SEGMENT = 32, MAX_SEGMENTS = TILE_COLS / MIN_SEGMENT };

typedef struct tile_columns {
    uint32_t q0[TILE_COLS], q1[TILE_COLS];
    float fx[TILE_COLS], fx1[TILE_COLS], u[TILE_COLS], du[TILE_COLS];
    int64_t cells[TILE_COLS];
    int dense;
    uint32_t count, segment_cols, segments;
    uint32_t cell[TILE_COLS];
    uint32_t ncells[MAX_SEGMENTS]; /* cells a segment spans, the next one included */
    uint32_t cell_key[MAX_SEGMENTS][WK_DENSE_CELLS];
} tile_columns;

static uint32_t column_key(const fbm_plan *plan, int k, int64_t cell) {
    if (plan->lattice == WK_LATTICE_PERM) return plan->perm[k].p[(uint64_t)cell & 255];
    return wk_axis_hash(cell, plan->seed[k], 0);
}

/* Cells grow with the column, so a segment's first and last bound its span. */
static int segments_fit(const tile_columns *c, uint32_t width) {
    for (uint32_t s = 0; s < c->count; s += width) {
        uint32_t last = s + width < c->count ? s + width - 1 : c->count - 1;
        if (c->cells[last] - c->cells[s] + 2 > WK_DENSE_CELLS) return 0;
    }
    return 1;
}

static void columns_lattice(const fbm_plan *plan, int k, int64_t origin, uint32_t count,
                            int with_deriv, tile_columns *c) {
    axis_lattice(plan, k, 0, origin, count, c->cells, c->q0, c->q1, c->fx, c->fx1, c->u,
                 with_deriv ? c->du : NULL);
    if (plan->lattice == WK_LATTICE_PERM)
        for (uint32_t i = 0; i < count; i++) {
            c->q0[i] = plan->perm[k].p[c->q0[i]];
            c->q1[i] = plan->perm[k].p[c->q1[i]];
        }
    c->count = count;
    c->dense = 0;
    for (uint32_t width = TILE_COLS; width >= MIN_SEGMENT && !c->dense; width /= 2)
        if (segments_fit(c, width)) {
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

enum { TILE_ROWS_2D = 256, GRID_POINTS_PER_THREAD = 32768 };

static wk_status check_grid2(const wk_fbm *f, const wk_grid2 *g, fbm_plan *plan) {
    wk_status s = plan_fbm(f, g->step, plan);
    if (s != WK_OK) return s;
    if (g->nx == 0 || g->ny == 0) return WK_OK;
    if (g->stride < g->nx) return WK_ERR_STRIDE;
    size_t rows_before_last = (size_t)g->ny - 1;
    if (rows_before_last > (SIZE_MAX / sizeof(float) - g->nx) / g->stride) return WK_ERR_OVERFLOW;
    if ((s = check_axis(plan, g->i0, g->nx)) != WK_OK) return s;
    return check_axis(plan, g->j0, g->ny);
}

/* Value (and, with ddx/ddy, derivatives) of the 2D fBm over one tile. */
static void fbm2_tile(const wk_noise_kernels *kern, const fbm_plan *plan, const wk_grid2 *g,
                      uint32_t col0, uint32_t cols, uint32_t row0, uint32_t rows, float *value,
                      float *ddx, float *ddy) {
    tile_columns c;
    uint32_t h_y0[WK_DENSE_CELLS], h_y1[WK_DENSE_CELLS];
    int with_deriv = ddx != NULL;
    for (int k = 0; k < plan->octaves; k++) {
        wk_octave o = octave_of(plan, k);
        columns_lattice(plan, k, g->i0 + col0, cols, with_deriv, &c);
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

static wk_status fbm2_run(const wk_fbm *f, const wk_grid2 *g, float *value, float *ddx,
                          float *ddy, int with_deriv) {
    if (!f || !g) return WK_ERR_NULL;
    fbm_plan plan;
    wk_status s = check_grid2(f, g, &plan);
    if (s != WK_OK || g->nx == 0 || g->ny == 0) return s;
    if (!value || (with_deriv && (!ddx || !ddy))) return WK_ERR_NULL;
    plan_permutations(&plan);
    const wk_noise_kernels *kern = kernels();
    long long tiles_x = (g->nx + TILE_COLS - 1) / TILE_COLS;
    long long tiles_y = (g->ny + TILE_ROWS_2D - 1) / TILE_ROWS_2D;
    int threads = wk_threads_for((size_t)g->nx * g->ny * (size_t)plan.octaves, GRID_POINTS_PER_THREAD);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (long long t = 0; t < tiles_x * tiles_y; t++) {
        uint32_t col0 = (uint32_t)(t % tiles_x) * TILE_COLS, row0 = (uint32_t)(t / tiles_x) * TILE_ROWS_2D;
        uint32_t cols = g->nx - col0 < TILE_COLS ? g->nx - col0 : TILE_COLS;
        uint32_t rows = g->ny - row0 < TILE_ROWS_2D ? g->ny - row0 : TILE_ROWS_2D;
        fbm2_tile(kern, &plan, g, col0, cols, row0, rows, value, ddx, ddy);
    }
    return WK_OK;
}

wk_status wk_noise_fbm2_grid(const wk_fbm *f, const wk_grid2 *g, float *out) {
    return fbm2_run(f, g, out, NULL, NULL, 0);
}

wk_status wk_noise_fbm2_grid_deriv(const wk_fbm *f, const wk_grid2 *g, float *value, float *ddx,
                                   float *ddy) {
    return fbm2_run(f, g, value, ddx, ddy, 1);
}

/* ----------------------------------------------------------------- 3D grid */

enum { TILE_ROWS_3D = 16, TILE_SLICES_3D = 16 };

static wk_status check_grid3(const wk_fbm *f, const wk_grid3 *g, fbm_plan *plan) {
    wk_status s = plan_fbm(f, g->step, plan);
    if (s != WK_OK) return s;
    if (g->nx == 0 || g->ny == 0 || g->nz == 0) return WK_OK;
    if (g->stride < g->nx) return WK_ERR_STRIDE;
    const size_t max_floats = SIZE_MAX / sizeof(float);
    size_t rows_before_last = (size_t)g->ny - 1;
    if (rows_before_last > (max_floats - g->nx) / g->stride) return WK_ERR_OVERFLOW;
    size_t slice_extent = rows_before_last * g->stride + g->nx;
    if (g->slice_stride < slice_extent) return WK_ERR_STRIDE;
    if ((size_t)g->nz - 1 > (max_floats - slice_extent) / g->slice_stride) return WK_ERR_OVERFLOW;
    if ((s = check_axis(plan, g->i0, g->nx)) != WK_OK) return s;
    if ((s = check_axis(plan, g->j0, g->ny)) != WK_OK) return s;
    return check_axis(plan, g->k0, g->nz);
}

/* Per-column keys of one 3D row: the column keys combined with the row's Y. */
typedef struct row_keys {
    uint32_t q00[TILE_COLS], q10[TILE_COLS], q01[TILE_COLS], q11[TILE_COLS];
    /* dense tiles: per segment and cell */
    uint32_t cell_y0[MAX_SEGMENTS][WK_DENSE_CELLS], cell_y1[MAX_SEGMENTS][WK_DENSE_CELLS];
} row_keys;

/* Column keys with the row's Y folded in, as wk_row3 describes. */
static uint32_t fold_row(const fbm_plan *plan, int k, uint32_t col, uint32_t row) {
    if (plan->lattice == WK_LATTICE_PERM) return plan->perm[k].p[(col + row) & 255];
    return col ^ row;
}

static void row_keys_for(const fbm_plan *plan, int k, const tile_columns *c, size_t cols,
                         const lattice_1d *y, row_keys *r) {
    if (c->dense)
        for (uint32_t s = 0; s < c->segments; s++)
            for (uint32_t j = 0; j < c->ncells[s]; j++) {
                r->cell_y0[s][j] = fold_row(plan, k, c->cell_key[s][j], y->key0);
                r->cell_y1[s][j] = fold_row(plan, k, c->cell_key[s][j], y->key1);
            }
    if (plan->lattice == WK_LATTICE_PERM) {
        const uint8_t *p = plan->perm[k].p;
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

static void fbm3_tile(const wk_noise_kernels *kern, const fbm_plan *plan, const wk_grid3 *g,
                      uint32_t col0, uint32_t cols, uint32_t row0, uint32_t rows, uint32_t slice0,
                      uint32_t slices, float *out) {
    tile_columns c;
    row_keys keys;
    lattice_1d z[TILE_SLICES_3D];
    uint32_t h[4][WK_DENSE_CELLS];
    for (int k = 0; k < plan->octaves; k++) {
        wk_octave o = octave_of(plan, k);
        columns_lattice(plan, k, g->i0 + col0, cols, 0, &c);
        for (uint32_t s = 0; s < slices; s++) z[s] = lattice_at(plan, k, 2, g->k0 + slice0 + s);
        for (uint32_t j = row0; j < row0 + rows; j++) {
            lattice_1d y = lattice_at(plan, k, 1, g->j0 + j);
            row_keys_for(plan, k, &c, cols, &y, &keys);
            for (uint32_t s = 0; s < slices; s++)
                for (uint32_t seg = 0; seg < segment_count(&c); seg++) {
                    uint32_t start, end;
                    segment_range(&c, seg, &start, &end);
                    wk_row3 r = {keys.q00 + start, keys.q10 + start, keys.q01 + start, keys.q11 + start,
                                 c.fx + start, c.fx1 + start, c.u + start, z[s].key0, z[s].key1,
                                 y.f, y.f1, y.fade, z[s].f, z[s].f1, z[s].fade,
                                 NULL, {NULL, NULL, NULL, NULL}};
                    if (c.dense) {
                        r.cell = c.cell + start;
                        for (int t = 0; t < 4; t++) {
                            dense_corners(&o, c.ncells[seg], t & 1 ? keys.cell_y1[seg] : keys.cell_y0[seg],
                                          t & 2 ? z[s].key1 : z[s].key0, 28, h[t]);
                            r.h[t] = h[t];
                        }
                    }
                    size_t at = (size_t)(slice0 + s) * g->slice_stride + (size_t)j * g->stride + col0 + start;
                    kern->row3(&r, &o, end - start, out + at);
                }
        }
    }
}

wk_status wk_noise_fbm3_grid(const wk_fbm *f, const wk_grid3 *g, float *out) {
    if (!f || !g) return WK_ERR_NULL;
    fbm_plan plan;
    wk_status s = check_grid3(f, g, &plan);
    if (s != WK_OK || g->nx == 0 || g->ny == 0 || g->nz == 0) return s;
    if (!out) return WK_ERR_NULL;
    plan_permutations(&plan);
    const wk_noise_kernels *kern = kernels();
    long long tx = (g->nx + TILE_COLS - 1) / TILE_COLS;
    long long ty = (g->ny + TILE_ROWS_3D - 1) / TILE_ROWS_3D;
    long long tz = (g->nz + TILE_SLICES_3D - 1) / TILE_SLICES_3D;
    size_t points = (size_t)g->nx * g->ny;
    points = points > SIZE_MAX / g->nz ? SIZE_MAX : points * g->nz;
    int threads = wk_threads_for(points, GRID_POINTS_PER_THREAD);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (long long t = 0; t < tx * ty * tz; t++) {
        uint32_t col0 = (uint32_t)(t % tx) * TILE_COLS;
        uint32_t row0 = (uint32_t)((t / tx) % ty) * TILE_ROWS_3D;
        uint32_t slice0 = (uint32_t)(t / (tx * ty)) * TILE_SLICES_3D;
        uint32_t cols = g->nx - col0 < TILE_COLS ? g->nx - col0 : TILE_COLS;
        uint32_t rows = g->ny - row0 < TILE_ROWS_3D ? g->ny - row0 : TILE_ROWS_3D;
        uint32_t slices = g->nz - slice0 < TILE_SLICES_3D ? g->nz - slice0 : TILE_SLICES_3D;
        fbm3_tile(kern, &plan, g, col0, cols, row0, rows, slice0, slices, out);
    }
    return WK_OK;
}

/* ------------------------------------------------------- minmax and remap */

enum { REDUCE_PER_THREAD = 1 << 16 };

wk_status wk_minmax(const float *x, size_t n, float *min, float *max) {
    if (!min || !max || (n > 0 && !x)) return WK_ERR_NULL;
    const wk_noise_kernels *k = kernels();
    float lo = INFINITY, hi = -INFINITY;
    int threads = wk_threads_for(n, REDUCE_PER_THREAD);
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        int team = 1, id = 0;
#ifdef _OPENMP
        team = omp_get_num_threads();
        id = omp_get_thread_num();
#endif
        size_t start = n / (size_t)team * (size_t)id, end = id == team - 1 ? n : n / (size_t)team * (size_t)(id + 1);
        float part_lo, part_hi;
        k->minmax(x + start, end - start, &part_lo, &part_hi);
        /* The order of the team does not matter: min and max over a total order. */
#pragma omp critical(wk_minmax_combine)
        {
            if (wk_float_order_key(part_lo) < wk_float_order_key(lo)) lo = part_lo;
            if (wk_float_order_key(part_hi) > wk_float_order_key(hi)) hi = part_hi;
        }
    }
    *min = lo;
    *max = hi;
    return WK_OK;
}

wk_status wk_remap(const float *x, size_t n, float lo, float hi, float *out) {
    if (!isfinite(lo) || !isfinite(hi)) return WK_ERR_NOT_FINITE;
    if (!(hi > lo)) return WK_ERR_INVALID_ARG;
    float range = hi - lo;
    if (!isfinite(range)) return WK_ERR_OVERFLOW;
    if (n == 0) return WK_OK;
    if (!x || !out) return WK_ERR_NULL;
    if (n > SIZE_MAX / sizeof(float)) return WK_ERR_OVERFLOW;
    const wk_noise_kernels *k = kernels();
    long long chunks = (long long)((n + POINT_CHUNK - 1) / POINT_CHUNK);
    int threads = wk_threads_for(n, REDUCE_PER_THREAD);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (long long c = 0; c < chunks; c++) {
        size_t start = (size_t)c * POINT_CHUNK, count = n - start < POINT_CHUNK ? n - start : POINT_CHUNK;
        k->remap(x + start, count, lo, range, out + start);
    }
    return WK_OK;
}
