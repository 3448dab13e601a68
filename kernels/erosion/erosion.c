/* Public entry points of thermal erosion: validation, the row-band split and
 * the pipeline that runs several iterations over a few cached rows.
 *
 * The pipeline (one band of rows [y0, y1), K iterations): level 0 is the map
 * as the pass starts, level j the map after j iterations. Level j needs rows
 * [y0 - 2(K - j), y1 + 2(K - j)) (clipped to the map), since a cell's next
 * height depends on heights two cells away. Rows stream in order, R =
 * STEP_ROWS at a time: at step t, each level j produces its rows t - 2j ..
 * t - 2j + R - 1 (level 0 copies them in, level j > 0 gathers them from level
 * j - 1), then computes pass 1 (shares) of its rows t - 2j - 1 ..
 * t - 2j + R - 2 (R = 4: a kernel call loads each row once for the R rows
 * that read it, and AVX-512's pass 2 takes the 4 rows in one sweep, 6% faster
 * than 2 + 2; the calls cost less per row too. R = 2 cached a third fewer
 * rows, but measured 1-4% slower per cell at 256 to 4096 wide). Each level
 * keeps R + 3 height rows, and R + 2 share rows, rows of heights-minus-given
 * and mask records in a ring; level K writes straight into the map, in place
 * (a band reads its own rows before it overwrites them, and the rows it reads
 * from other bands come from copies taken before the pass). Every cell is
 * computed by the same row kernels from the same inputs however the map is
 * cut, so bands and passes never change a bit. */
#include "core/wk_fp_guard.h"

#include <math.h>
#include <string.h>

#include "core/wk_core.h"
#include "erosion_impl.h"

WK__DISPATCH_SIMD(wk__erosion_kernels, erosion_kernels)

wk__erosion_tuning wk__erosion_tune = {0, 0};

#ifndef ROWS_PER_STEP
#define ROWS_PER_STEP 4
#endif
enum {
    STEP_ROWS = ROWS_PER_STEP,      /* rows each level advances per step */
    H_SLOTS = STEP_ROWS + 3,        /* per level: heights rows, */
    S_SLOTS = STEP_ROWS + 2,        /* shares rows, as many heights-minus-given rows and mask records */
    RING_ROWS = H_SLOTS + 2 * S_SLOTS,
    MAX_GROUP = 8,                  /* iterations per pass over the cached rows, at most */
    CACHE_FLOATS = 1536 * 1024 / 4  /* rings of one part: L2-sized (each step touches a few rows of each level) */
};
/* the rows of a step go to the row kernels in one call */
_Static_assert(STEP_ROWS <= WK__EROSION_MAX_ROWS, "a step's rows exceed what one kernel call takes at once");

/* A cached row: element 0 sits 16 floats (64 bytes) into its slot, so that
 * with the rings aligned to 64 bytes vector loads and stores at a row's
 * cells start on cache lines; elements -1 and w are padding. */
enum { ROW_LEAD = 16 };
static size_t padded_row(uint32_t w) { return ((size_t)w + ROW_LEAD + 1 + 15) / 16 * 16; }

/* Floats holding the S_SLOTS mask records of a level (one per row
 * y % S_SLOTS), a multiple of 16 floats (64 bytes). */
static size_t mask_floats(uint32_t w) { return (S_SLOTS * WK__EROSION_MASK_BYTES(w) / 4 + 15) / 16 * 16; }
/* Floats of one level of a ring: its rows, then its mask records. */
static size_t level_floats(uint32_t w) { return RING_ROWS * padded_row(w) + mask_floats(w); }

/* Iterations per pass for rows of width w: as many as fit the cache budget. */
static uint32_t group_for_width(uint32_t w) {
    size_t k = CACHE_FLOATS / level_floats(w);
    return k < 1 ? 1 : k > MAX_GROUP ? MAX_GROUP : (uint32_t)k;
}

/* Scratch floats for `bands` bands (and as many parts) with K iterations per
 * pass: a NaN row, a zero row and zero mask records, the rings, and 4K
 * copied rows per boundary between bands. 0 when it overflows size_t bytes. */
static size_t scratch_need(uint32_t w, uint64_t bands, uint64_t group) {
    uint64_t rw = padded_row(w);
    uint64_t need = 16 + 2 * rw + mask_floats(w) + bands * group * level_floats(w) +
                    (bands - 1) * 4 * group * (uint64_t)w;
    if (need > SIZE_MAX / sizeof(float)) return 0;
    return (size_t)need;
}

wk_status wk_erosion_talus_from_angle(double degrees, double cell_size, float *talus) {
    wk__detail_reset(__func__);
    if (!talus) return wk__fail(WK_ERR_NULL, "talus must not be NULL");
    if (!isfinite(degrees) || !isfinite(cell_size))
        return wk__fail(WK_ERR_NOT_FINITE, "degrees and cell_size must be finite, got %g and %g", degrees,
                        cell_size);
    if (!(degrees >= 0.0 && degrees < 90.0))
        return wk__fail(WK_ERR_INVALID_ARG, "degrees must be in [0, 90), got %g", degrees);
    if (!(cell_size > 0.0)) return wk__fail(WK_ERR_INVALID_ARG, "cell_size must be > 0, got %g", cell_size);
    double t = cell_size * tan(degrees * (3.14159265358979323846 / 180.0));
    if (!(t <= (double)3.40282346638528859812e+38F))
        return wk__fail(WK_ERR_OVERFLOW, "talus %g (degrees %g, cell_size %g) is not a finite float", t, degrees,
                        cell_size);
    *talus = (float)t;
    return WK_OK;
}

uint32_t wk_erosion_halo(uint32_t iterations) {
    return iterations > UINT32_MAX / 2 ? UINT32_MAX : 2 * iterations;
}

wk_status wk_erosion_scratch_bound(uint32_t w, uint32_t h, int32_t threads, size_t *floats) {
    wk__detail_reset(__func__);
    if (!floats) return wk__fail(WK_ERR_NULL, "floats must not be NULL");
    if (threads < 0) return wk__fail(WK_ERR_INVALID_ARG, "threads must be >= 0, got %d", (int)threads);
    uint64_t parts = threads == 0 ? (uint64_t)wk_threads() : (uint64_t)threads;
    if (parts > WK_MAX_THREADS) parts = WK_MAX_THREADS;
    if (parts > h) parts = h;
    if (parts < 1) parts = 1;
    size_t need = scratch_need(w, parts, group_for_width(w));
    if (need == 0) return wk__fail(WK_ERR_OVERFLOW, "scratch for w = %u overflows size_t bytes", w);
    *floats = need;
    return WK_OK;
}

/* ------------------------------------------------------------ the pipeline */

typedef struct erosion_job {
    const wk__erosion_kernels *k;
    float *map;
    size_t stride;
    int64_t w, h;
    float talus;
    int64_t group;      /* K: iterations this pass */
    uint32_t bands;
    size_t rw;          /* padded row length */
    const float *nan_row, *zero_row; /* padded: point at element 0 */
    const uint8_t *zero_masks;       /* the mask record of a row outside the map */
    size_t level;       /* floats per level of a ring */
    float *rings;       /* per part: group * level floats */
    size_t ring_floats;
    float *halo;        /* per boundary b = 1 .. bands - 1: 4 * group rows of w */
} erosion_job;

static int64_t band_start(const erosion_job *job, int64_t band) {
    return (int64_t)((uint64_t)band * (uint64_t)job->h / job->bands);
}

typedef struct band_rows {
    const erosion_job *job;
    float *ring;
    int64_t y0, y1;
    uint32_t band;
} band_rows;

static float *ring_row(const band_rows *b, int64_t level, int slot) {
    return b->ring + (size_t)level * b->job->level + (size_t)slot * b->job->rw + ROW_LEAD;
}
static const float *height_row(const band_rows *b, int64_t level, int64_t y) {
    if (y < 0 || y >= b->job->h) return b->job->nan_row;
    return ring_row(b, level, (int)(y % H_SLOTS));
}
static const float *share_row(const band_rows *b, int64_t level, int64_t y) {
    if (y < 0 || y >= b->job->h) return b->job->zero_row;
    return ring_row(b, level, H_SLOTS + (int)(y % S_SLOTS));
}

/* Row y of the map as the pass started. */
static const float *input_row(const band_rows *b, int64_t y) {
    const erosion_job *job = b->job;
    size_t w = (size_t)job->w, rows = 4 * (size_t)job->group;
    if (y < b->y0) return job->halo + ((size_t)(b->band - 1) * rows + (size_t)(y - (b->y0 - 2 * job->group))) * w;
    if (y >= b->y1) return job->halo + ((size_t)b->band * rows + (size_t)(y - (b->y1 - 2 * job->group))) * w;
    return job->map + (size_t)y * job->stride;
}

/* The mask record of row y at a level: S_SLOTS of them (y % S_SLOTS) after
 * the level's rows; a row outside the map reads zero masks. */
static uint8_t *mask_row(const band_rows *b, int64_t level, int64_t y) {
    if (y < 0 || y >= b->job->h) return (uint8_t *)(uintptr_t)b->job->zero_masks;
    uint8_t *base = (uint8_t *)(b->ring + (size_t)level * b->job->level + RING_ROWS * b->job->rw);
    return base + (size_t)(y % S_SLOTS) * WK__EROSION_MASK_BYTES(b->job->w);
}

/* Pass 1 of the rows [r0, r0 + rows) at level j (rows <= STEP_ROWS): shares
 * and heights minus what is given, for every cell; then border cells give
 * nothing. */
static void pass1(const band_rows *b, int64_t j, int64_t r0, int64_t rows) {
    const erosion_job *job = b->job;
    size_t w = (size_t)job->w;
    const float *hs[STEP_ROWS + 2];
    float *ss[STEP_ROWS] = {0}, *ps[STEP_ROWS] = {0};
    uint8_t *ms[STEP_ROWS] = {0};
    for (int64_t k = 0; k < rows + 2; k++) hs[k] = height_row(b, j, r0 - 1 + k);
    for (int64_t k = 0; k < rows; k++) {
        int64_t r = r0 + k;
        ss[k] = ring_row(b, j, H_SLOTS + (int)(r % S_SLOTS));
        ps[k] = ring_row(b, j, H_SLOTS + S_SLOTS + (int)(r % S_SLOTS));
        ms[k] = mask_row(b, j, r);
    }
    job->k->share(hs, (size_t)rows, w, job->talus, ss, ps, ms);
    for (int64_t k = 0; k < rows; k++) {
        int64_t r = r0 + k;
        const float *hr = hs[k + 1];
        float *s = ss[k], *p = ps[k];
        if (r == 0 || r == job->h - 1) {
            memset(s, 0, w * sizeof *s);
            memcpy(p, hr, w * sizeof *p);
            continue;
        }
        s[0] = 0.0f;
        p[0] = hr[0];
        s[w - 1] = 0.0f;
        p[w - 1] = hr[w - 1];
    }
}

/* Pass 2 of the rows [y0, y0 + rows) from level j - 1 into level j (into
 * the map at level K). */
static void pass2(const band_rows *b, int64_t j, int64_t y0, int64_t rows) {
    const erosion_job *job = b->job;
    const float *hs[STEP_ROWS + 2], *ss[STEP_ROWS + 2], *ps[STEP_ROWS];
    const uint8_t *ms[STEP_ROWS + 2];
    float *outs[STEP_ROWS];
    for (int64_t k = 0; k < rows + 2; k++) {
        hs[k] = height_row(b, j - 1, y0 - 1 + k);
        ss[k] = share_row(b, j - 1, y0 - 1 + k);
        ms[k] = mask_row(b, j - 1, y0 - 1 + k);
    }
    for (int64_t k = 0; k < rows; k++) {
        int64_t y = y0 + k;
        ps[k] = ring_row(b, j - 1, H_SLOTS + S_SLOTS + (int)(y % S_SLOTS));
        outs[k] = j == job->group ? job->map + (size_t)y * job->stride : ring_row(b, j, (int)(y % H_SLOTS));
    }
    job->k->gather(hs, ss, ms, ps, (size_t)rows, (size_t)job->w, job->talus, outs);
}

static void run_band(const erosion_job *job, uint32_t band, float *ring) {
    band_rows b = {job, ring, band_start(job, band), band_start(job, (int64_t)band + 1), band};
    const int64_t K = job->group, h = job->h;
    const size_t w = (size_t)job->w;
    for (int64_t j = 0; j < K; j++) {
        for (int slot = 0; slot < RING_ROWS; slot++) {
            float *row = ring_row(&b, j, slot);
            float pad = slot < H_SLOTS ? NAN : 0.0f;
            row[-1] = pad;
            row[w] = pad;
        }
        memset(mask_row(&b, j, 0), 0, S_SLOTS * WK__EROSION_MASK_BYTES(w));
    }
    int64_t first = b.y0 - 2 * K < 0 ? 0 : b.y0 - 2 * K;
    for (int64_t t = first; t <= b.y1 - 1 + 2 * K; t += STEP_ROWS) {
        for (int64_t j = 0; j <= K; j++) {
            int64_t lo = b.y0 - 2 * (K - j), hi = b.y1 + 2 * (K - j);
            if (lo < 0) lo = 0;
            if (hi > h) hi = h;
            /* the rows of this step in [lo, hi): level 0 copies them in,
             * level j > 0 gathers them */
            int64_t y0 = t - 2 * j < lo ? lo : t - 2 * j, y1 = t - 2 * j + STEP_ROWS > hi ? hi : t - 2 * j + STEP_ROWS;
            if (j == 0) {
                for (int64_t y = y0; y < y1; y++)
                    memcpy(ring_row(&b, 0, (int)(y % H_SLOTS)), input_row(&b, y), w * sizeof(float));
            } else if (y0 < y1) {
                pass2(&b, j, y0, y1 - y0);
            }
            /* pass 1 of this step's rows whose neighbours this level has (a
             * contiguous run: the map's border rows, and the rows in
             * (lo, hi - 1)) */
            if (j < K) {
                int64_t r0 = -1, rows = 0;
                for (int64_t r = t - 2 * j - 1; r < t - 2 * j - 1 + STEP_ROWS; r++) {
                    int ok = r >= lo && r < hi && (r == 0 || r == h - 1 || (r - 1 >= lo && r + 1 < hi));
                    if (ok && rows > 0 && r == r0 + rows) {
                        rows++;
                        continue;
                    }
                    if (rows > 0) pass1(&b, j, r0, rows);
                    r0 = r, rows = ok ? 1 : 0;
                }
                if (rows > 0) pass1(&b, j, r0, rows);
            }
        }
    }
}

static void band_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    const erosion_job *job = ctx;
    float *ring = job->rings + (size_t)part * job->ring_floats;
    for (size_t band = begin; band < end; band++) run_band(job, (uint32_t)band, ring);
}

/* Copies, for each boundary between bands, the rows within 2K of it. */
static void copy_halos(const erosion_job *job) {
    size_t w = (size_t)job->w, rows = 4 * (size_t)job->group;
    for (uint32_t bd = 1; bd < job->bands; bd++) {
        int64_t yb = band_start(job, bd);
        for (int64_t y = yb - 2 * job->group; y < yb + 2 * job->group; y++) {
            if (y < 0 || y >= job->h) continue;
            memcpy(job->halo + ((size_t)(bd - 1) * rows + (size_t)(y - (yb - 2 * job->group))) * w,
                   job->map + (size_t)y * job->stride, w * sizeof(float));
        }
    }
}

static wk_status thermal_run(const wk__call *call, const wk_heightmap *map, float talus, uint32_t iterations,
                             float *scratch, size_t scratch_floats) {
    if (!map) return wk__fail(WK_ERR_NULL, "map is NULL");
    wk_field2 view = {map->v, map->w, map->h, map->stride, {map->reserved[0], map->reserved[1]}};
    wk_status s = wk__check_field2(&view, "map", 1, 1);
    if (s != WK_OK) return s;
    if (!isfinite(talus)) return wk__fail(WK_ERR_NOT_FINITE, "talus must be finite, got %g", (double)talus);
    if (!(talus >= 0.0f)) return wk__fail(WK_ERR_INVALID_ARG, "talus must be >= 0, got %g", (double)talus);
    if (iterations == 0 || map->w < 3 || map->h < 3) return WK_OK; /* nothing moves */

    uint32_t w = map->w, h = map->h;
    uint32_t group = group_for_width(w);
    size_t min_need = scratch_need(w, 1, group);
    if (min_need == 0) return wk__fail(WK_ERR_OVERFLOW, "scratch for w = %u overflows size_t bytes", w);
    if (!scratch) return wk__fail(WK_ERR_NULL, "scratch is NULL");
    if (scratch_floats < min_need)
        return wk__fail(WK_ERR_CAPACITY, "scratch must hold at least %zu floats (wk_erosion_scratch_bound), got %zu",
                        min_need, scratch_floats);
    size_t extent = wk__field2_extent(&view);
    if (wk__overlap(scratch, scratch_floats * sizeof(float), map->v, extent * sizeof(float)))
        return wk__fail(WK_ERR_ALIAS, "scratch overlaps the map");

    if (wk__erosion_tune.group) group = wk__erosion_tune.group < 64 ? wk__erosion_tune.group : 64;
    if (group > iterations) group = iterations;
    uint64_t bands = wk__parts_for(call, h, (size_t)w * group); /* <= WK_MAX_THREADS */
    if (wk__erosion_tune.bands) bands = wk__erosion_tune.bands < 4096 ? wk__erosion_tune.bands : 4096;
    if (bands > h) bands = h;
    for (;;) { /* fewer bands (and then fewer iterations per pass) until the scratch holds them */
        size_t need = scratch_need(w, bands, group);
        if (need != 0 && need <= scratch_floats) break;
        if (bands > 1) bands--;
        else group--; /* group = 1 with one band fits: min_need >= that */
    }

    erosion_job job;
    job.k = erosion_kernels(call);
    job.map = map->v;
    job.stride = map->stride;
    job.w = w;
    job.h = h;
    job.talus = talus;
    job.bands = (uint32_t)bands;
    job.rw = padded_row(w);
    float *base = scratch + (16 - ((uintptr_t)scratch / sizeof(float)) % 16) % 16; /* 64-byte aligned */
    float *nan_row = base, *zero_row = base + job.rw;
    for (size_t i = 0; i < job.rw; i++) {
        nan_row[i] = NAN;
        zero_row[i] = 0.0f;
    }
    job.nan_row = nan_row + ROW_LEAD;
    job.zero_row = zero_row + ROW_LEAD;
    float *zero_masks = base + 2 * job.rw;
    memset(zero_masks, 0, mask_floats(w) * sizeof(float));
    job.zero_masks = (const uint8_t *)zero_masks;
    job.level = level_floats(w);
    job.rings = zero_masks + mask_floats(w);
    for (uint32_t done = 0; done < iterations;) {
        uint32_t k = iterations - done < group ? iterations - done : group;
        job.group = k;
        job.ring_floats = (size_t)k * job.level;
        job.halo = job.rings + (size_t)bands * job.ring_floats;
        copy_halos(&job);
        wk__parallel_for(call, bands, (size_t)w * (h / bands) * k, band_part, &job);
        done += k;
    }
    return WK_OK;
}

wk_status wk_erosion_thermal(const wk_heightmap *map, float talus, uint32_t iterations, float *scratch,
                             size_t scratch_floats, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = thermal_run(&call, map, talus, iterations, scratch, scratch_floats);
    return wk__end(&call, s);
}
