/* The voxel family's checks: the world and its ray casts against the dense
 * reference walk of voxel_dense.c, known answers worked out by hand from
 * the geometry, the ISA harness, and bad input. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "voxel_dense.h"
#include "wk_checks.h"
#include "worldkern/noise.h"
#include "worldkern/voxel.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------- helpers */

typedef struct ray_set {
    size_t n;
    float *o[3], *d[3], *tmax;
    float *t;
    int32_t *x, *y, *z;
    int8_t *sub, *face;
} ray_set;

static ray_set rays_new(size_t n) {
    ray_set r;
    memset(&r, 0, sizeof r);
    r.n = n;
    size_t m = n ? n : 1;
    for (int a = 0; a < 3; a++) {
        r.o[a] = calloc(m, sizeof(float));
        r.d[a] = calloc(m, sizeof(float));
    }
    r.tmax = calloc(m, sizeof(float));
    r.t = calloc(m, sizeof(float));
    r.x = calloc(m, sizeof(int32_t));
    r.y = calloc(m, sizeof(int32_t));
    r.z = calloc(m, sizeof(int32_t));
    r.sub = calloc(m, 1);
    r.face = calloc(m, 1);
    if (!r.tmax || !r.t || !r.x || !r.y || !r.z || !r.sub || !r.face) abort();
    for (int a = 0; a < 3; a++)
        if (!r.o[a] || !r.d[a]) abort();
    for (size_t i = 0; i < n; i++) r.tmax[i] = INFINITY;
    return r;
}

static void rays_free(ray_set *r) {
    for (int a = 0; a < 3; a++) {
        free(r->o[a]);
        free(r->d[a]);
    }
    free(r->tmax);
    free(r->t);
    free(r->x);
    free(r->y);
    free(r->z);
    free(r->sub);
    free(r->face);
}

static void ray_put(ray_set *r, size_t i, float ox, float oy, float oz, float dx, float dy, float dz, float tmax) {
    r->o[0][i] = ox;
    r->o[1][i] = oy;
    r->o[2][i] = oz;
    r->d[0][i] = dx;
    r->d[1][i] = dy;
    r->d[2][i] = dz;
    r->tmax[i] = tmax;
}

static wk_status cast(const wk_voxel_world *w, ray_set *r, int with_tmax, const wk_exec *exec) {
    wk_rays rays = {r->o[0], r->o[1], r->o[2], r->d[0], r->d[1], r->d[2], with_tmax ? r->tmax : NULL, r->n, {0}};
    wk_hits hits = {r->t, r->x, r->y, r->z, r->sub, r->face, {0}};
    return wk_voxel_raycast(w, &rays, &hits, exec);
}

/* Compares ray i of r (already cast) with the dense walk. */
static int same_as_dense(const dense_world *dw, const ray_set *r, size_t i, int with_tmax, const char *what) {
    int fails = 0;
    float o[3] = {r->o[0][i], r->o[1][i], r->o[2][i]}, d[3] = {r->d[0][i], r->d[1][i], r->d[2][i]};
    dense_hit e;
    dense_cast(dw, o, d, with_tmax ? (double)r->tmax[i] : INFINITY, 0, &e);
    if (wk_bits(e.t) != wk_bits(r->t[i]) || e.x != r->x[i] || e.y != r->y[i] || e.z != r->z[i] ||
        e.sub != r->sub[i] || e.face != r->face[i])
        FAIL("%s: ray %zu o (%.9g, %.9g, %.9g) d (%.9g, %.9g, %.9g) tmax %.9g: got t %.9g (%d, %d, %d) sub %d "
             "face %d, dense walk t %.9g (%d, %d, %d) sub %d face %d",
             what, i, o[0], o[1], o[2], d[0], d[1], d[2], with_tmax ? r->tmax[i] : INFINITY, r->t[i], r->x[i],
             r->y[i], r->z[i], r->sub[i], r->face[i], e.t, e.x, e.y, e.z, e.sub, e.face);
    return fails;
}

/* Casts r with every supported ISA (one thread) and compares each ray with
 * the dense walk, up to 5 failures in all counting fails_before; labels
 * "<what> (<isa>)". Returns the new failures. */
static int every_isa_as_dense(const wk_voxel_world *w, const dense_world *dw, ray_set *r, int with_tmax,
                              const char *what, int fails_before) {
    int fails = 0;
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    for (int k = 0; k < nisa && fails_before + fails < 5; k++) {
        wk_exec e = wk_exec_for(isas[k], 1);
        char label[128];
        snprintf(label, sizeof label, "%s (%s)", what, wk_isa_name((wk_isa)isas[k]));
        wk_status s = cast(w, r, with_tmax, &e);
        EXPECT(s == WK_OK, "%s: status %d (%s)", label, s, wk_last_error_detail());
        for (size_t i = 0; i < r->n && s == WK_OK && fails_before + fails < 5; i++)
            fails += same_as_dense(dw, r, i, with_tmax, label);
    }
    return fails;
}

/* every_isa_as_dense (with tmax) for round `round` of the edit sequence `what`. */
static int round_as_dense(const wk_voxel_world *w, const dense_world *dw, ray_set *r, const char *what, int round,
                          int fails_before) {
    char label[96];
    snprintf(label, sizeof label, "%s round %d", what, round);
    return every_isa_as_dense(w, dw, r, 1, label, fails_before);
}

static wk_voxel_world *new_world(void) {
    wk_voxel_world *w = NULL;
    if (wk_voxel_world_create(&w, NULL) != WK_OK || !w) {
        fprintf(stderr, "world_create failed: %s\n", wk_last_error_detail());
        abort();
    }
    return w;
}

/* Sets a block in both worlds. */
static wk_status set_both(wk_voxel_world *w, dense_world *dw, int32_t x, int32_t y, int32_t z, uint64_t mask) {
    dense_set(dw, x, y, z, mask);
    return wk_voxel_set_sub(w, x, y, z, mask);
}

static uint64_t random_mask(wk_rng *r) {
    switch (wk_rng_u64(r) % 6) {
    case 0: return ~(uint64_t)0;
    case 1: return (uint64_t)1 << (wk_rng_u64(r) % 64);
    case 2: return ~((uint64_t)1 << (wk_rng_u64(r) % 64));
    case 3: return wk_rng_u64(r) & wk_rng_u64(r) & wk_rng_u64(r);
    default: return wk_rng_u64(r);
    }
}

/* A random world in a box: sparse or dense solid blocks and bricks. */
static void random_world(wk_voxel_world *w, dense_world *dw, wk_rng *r) {
    double density = wk_rng_range(r, 0.002, 0.25), bricky = wk_rng_unit(r);
    int style = (int)(wk_rng_u64(r) % 3);
    for (int32_t k = 0; k < dw->nz; k++)
        for (int32_t j = 0; j < dw->ny; j++)
            for (int32_t i = 0; i < dw->nx; i++) {
                int solid;
                if (style == 0) solid = wk_rng_unit(r) < density;
                else if (style == 1) /* terrain-like: a wavy floor */
                    solid = j < dw->ny / 3 + (int)(3.0 * sin(i * 0.4) * cos(k * 0.3)) && wk_rng_unit(r) < 0.97;
                else /* clustered */
                    solid = ((i / 3 + j / 5 + k / 4) % 3 == 0) && wk_rng_unit(r) < 0.5;
                if (!solid) continue;
                uint64_t m = wk_rng_unit(r) < bricky * 0.5 ? random_mask(r) : ~(uint64_t)0;
                if (m == 0) continue;
                if (set_both(w, dw, dw->x0 + i, dw->y0 + j, dw->z0 + k, m) != WK_OK) abort();
            }
}

/* A direction component drawn from the cases the rules name. */
static float random_dir(wk_rng *r) {
    switch (wk_rng_u64(r) % 16) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return (wk_rng_u64(r) & 1 ? 1 : -1) * FLT_TRUE_MIN * (float)(1 + wk_rng_u64(r) % 5); /* subnormal */
    case 3: return (wk_rng_u64(r) & 1) ? 1.0f : -1.0f;
    case 4: return (float)wk_rng_range(r, -1e-30, 1e-30);
    case 5: return (float)wk_rng_range(r, -1e30, 1e30);
    case 6: return (wk_rng_u64(r) & 1) ? 0.5f : -0.25f;
    default: return (float)wk_rng_range(r, -1.0, 1.0);
    }
}

/* An origin coordinate in [lo - margin, hi + margin), sometimes on a block
 * or sub-voxel boundary. */
static float random_origin(wk_rng *r, int32_t lo, int32_t n, double margin) {
    double v = wk_rng_range(r, lo - margin, lo + n + margin);
    switch (wk_rng_u64(r) % 6) {
    case 0: return (float)floor(v);
    case 1: return (float)(floor(v * 4.0) / 4.0);
    case 2: return nextafterf((float)floor(v), INFINITY);
    case 3: return nextafterf((float)floor(v), -INFINITY);
    default: return (float)v;
    }
}

static void random_rays(ray_set *rs, const dense_world *dw, wk_rng *r) {
    for (size_t i = 0; i < rs->n; i++) {
        float o[3] = {random_origin(r, dw->x0, dw->nx, 6), random_origin(r, dw->y0, dw->ny, 6),
                      random_origin(r, dw->z0, dw->nz, 6)};
        float d[3];
        int kind = (int)(wk_rng_u64(r) % 10);
        for (int a = 0; a < 3; a++) d[a] = random_dir(r);
        if (kind == 0) { /* diagonal through edges and corners */
            for (int a = 0; a < 3; a++) d[a] = (wk_rng_u64(r) % 3 == 0) ? 0.0f : (wk_rng_u64(r) & 1 ? 1.0f : -1.0f);
            for (int a = 0; a < 3; a++) o[a] = (float)(floor(o[a] * 4.0) / 4.0) + ((wk_rng_u64(r) & 1) ? 0.125f : 0.0f);
        } else if (kind == 1) { /* aimed at a random block corner of the box */
            double tx = dw->x0 + (double)(wk_rng_u64(r) % (uint64_t)dw->nx);
            double ty = dw->y0 + (double)(wk_rng_u64(r) % (uint64_t)dw->ny);
            double tz = dw->z0 + (double)(wk_rng_u64(r) % (uint64_t)dw->nz);
            d[0] = (float)(tx - o[0]);
            d[1] = (float)(ty - o[1]);
            d[2] = (float)(tz - o[2]);
        }
        float tmax;
        switch (wk_rng_u64(r) % 10) {
        case 0: tmax = 0.0f; break;
        case 1: tmax = -1.0f; break;
        case 2: tmax = NAN; break;
        case 3: tmax = (float)wk_rng_range(r, 0.0, 10.0); break;
        case 4: tmax = -0.0f; break;
        default: tmax = INFINITY; break;
        }
        ray_put(rs, i, o[0], o[1], o[2], d[0], d[1], d[2], tmax);
    }
}

/* ------------------------------------------------------ known answers */

typedef struct known {
    float o[3], d[3], tmax;
    float t; /* expected */
    int32_t x, y, z;
    int sub, face;
} known;

static int check_known(const wk_voxel_world *w, const known *k, size_t count, const char *what) {
    int fails = 0;
    ray_set r = rays_new(count);
    for (size_t i = 0; i < count; i++)
        ray_put(&r, i, k[i].o[0], k[i].o[1], k[i].o[2], k[i].d[0], k[i].d[1], k[i].d[2], k[i].tmax);
    wk_status s = cast(w, &r, 1, NULL);
    EXPECT(s == WK_OK, "%s: status %d (%s)", what, s, wk_last_error_detail());
    for (size_t i = 0; i < count && s == WK_OK; i++) {
        int t_ok = isinf(k[i].t) ? isinf(r.t[i]) : fabsf(r.t[i] - k[i].t) <= 1e-6f * (1.0f + fabsf(k[i].t));
        if (k[i].t == 0.0f) t_ok = wk_bits(r.t[i]) == 0u; /* +0, never -0 */
        EXPECT(t_ok && r.x[i] == k[i].x && r.y[i] == k[i].y && r.z[i] == k[i].z && r.sub[i] == k[i].sub &&
                   r.face[i] == k[i].face,
               "%s case %zu: got t %.9g (%d, %d, %d) sub %d face %d, expected t %.9g (%d, %d, %d) sub %d face %d",
               what, i, r.t[i], r.x[i], r.y[i], r.z[i], r.sub[i], r.face[i], k[i].t, k[i].x, k[i].y, k[i].z,
               k[i].sub, k[i].face);
    }
    rays_free(&r);
    return fails;
}

#define MISS INFINITY, 0, 0, 0, -1, -1

int wk_check_voxel_known_answers(void) {
    int fails = 0;
    wk_voxel_world *w = new_world();
    /* a floor: blocks y = 9 for x, z in 0..7 */
    for (int x = 0; x < 8; x++)
        for (int z = 0; z < 8; z++) EXPECT(wk_voxel_set_block(w, x, 9, z, 1) == WK_OK, "set_block");
    const float inf = INFINITY;
    const known k[] = {
        /* origin on top of the floor moving down: enters y = 9 at t = 0 through its top face */
        {{0.5f, 10.0f, 0.5f}, {0, -1, 0}, inf, 0.0f, 0, 9, 0, -1, 3},
        {{0.5f, 10.0f, 0.5f}, {-0.0f, -2, -0.0f}, inf, 0.0f, 0, 9, 0, -1, 3},
        /* from above, falling 2.5 blocks, direction not normalized */
        {{3.25f, 12.5f, 4.75f}, {0, -8, 0}, inf, 2.5f, 3, 9, 4, -1, 3},
        /* tmax just short of / at the hit */
        {{3.25f, 12.5f, 4.75f}, {0, -1, 0}, 2.4999f, MISS},
        {{3.25f, 12.5f, 4.75f}, {0, -1, 0}, 2.5f, 2.5f, 3, 9, 4, -1, 3},
        /* start inside solid: t = 0, face 6; tmax 0 still hits; negative / NaN tmax: no hit */
        {{2.5f, 9.5f, 2.5f}, {1, 0, 0}, inf, 0.0f, 2, 9, 2, -1, 6},
        {{2.5f, 9.5f, 2.5f}, {1, 0, 0}, 0.0f, 0.0f, 2, 9, 2, -1, 6},
        {{2.5f, 9.5f, 2.5f}, {1, 0, 0}, -0.0f, 0.0f, 2, 9, 2, -1, 6},
        {{2.5f, 9.5f, 2.5f}, {1, 0, 0}, -1.0f, MISS},
        {{2.5f, 9.5f, 2.5f}, {1, 0, 0}, NAN, MISS},
        {{2.5f, 9.5f, 2.5f}, {0, 0, 0}, inf, 0.0f, 2, 9, 2, -1, 6},
        /* zero direction in air: nothing */
        {{2.5f, 11.5f, 2.5f}, {0, 0, 0}, inf, MISS},
        /* origin on the bottom plane y = 9 is in the block above (y = 9 is solid), on y = 10 in air */
        {{-3.0f, 9.0f, 0.5f}, {1, 0, 0}, inf, 3.0f, 0, 9, 0, -1, 0},
        {{-3.0f, 10.0f, 0.5f}, {1, 0, 0}, inf, MISS},
        /* along the top plane moving +x (upper cell: air), then the tmax = INFINITY miss terminates */
        {{-3.0f, 10.0f, 10.0f}, {1, 0, 0}, inf, MISS},
        /* from below through the bottom face, from the side through -x / +x / -z / +z faces */
        {{0.5f, 5.0f, 0.5f}, {0, 1, 0}, inf, 4.0f, 0, 9, 0, -1, 2},
        {{-1.5f, 9.5f, 0.5f}, {2, 0, 0}, inf, 1.5f, 0, 9, 0, -1, 0},
        {{10.0f, 9.5f, 0.5f}, {-1, 0, 0}, inf, 2.0f, 7, 9, 0, -1, 1},
        {{0.5f, 9.5f, -4.0f}, {0, 0, 1}, inf, 4.0f, 0, 9, 0, -1, 4},
        {{0.5f, 9.5f, 8.0f}, {0, 0, -1}, inf, 0.0f, 0, 9, 7, -1, 5},
        /* pointing away: no hit, terminates */
        {{0.5f, 12.0f, 0.5f}, {0, 1, 0}, inf, MISS},
        {{0.5f, 12.0f, 0.5f}, {1e-30f, 1, -1e-30f}, inf, MISS},
        /* NaN rays: no hit, no hang */
        {{NAN, 12.0f, 0.5f}, {0, -1, 0}, inf, MISS},
        {{0.5f, 12.0f, 0.5f}, {0, NAN, 0}, inf, MISS},
        {{2.5f, 9.5f, 2.5f}, {NAN, 0, 0}, inf, MISS},
        /* subnormal direction: a real direction; t is the distance */
        {{-2.5f, 9.5f, 0.5f}, {FLT_TRUE_MIN, 0, 0}, inf, 2.5f, 0, 9, 0, -1, 0},
        /* (-2.5 + u, 12 - u): x reaches 0 at u = 2.5 with y = 9.5, inside the floor's block (0, 9, 0) */
        {{-2.5f, 12.0f, 0.5f}, {FLT_TRUE_MIN, -FLT_TRUE_MIN, 0}, inf, 2.5f * 1.41421356f, 0, 9, 0, -1, 0},
        /* huge direction */
        {{0.5f, 14.0f, 0.5f}, {0, -3e38f, 0}, inf, 4.0f, 0, 9, 0, -1, 3},
    };
    fails += check_known(w, k, COUNT(k), "floor");
    wk_voxel_world_destroy(w);
    return fails;
}

int wk_check_voxel_ties_and_signs(void) {
    int fails = 0;
    wk_voxel_world *w = new_world();
    const float inf = INFINITY, r2 = 0.70710678f;
    /* Ray (0.5, 0.5, 0.5) + s (1, 1, 0) passes the edge x = 1, y = 1 at s = 0.5.
     * Order x before y: it visits (1, 0, 0), then (1, 1, 0); (0, 1, 0) never. */
    EXPECT(wk_voxel_set_block(w, 1, 0, 0, 1) == WK_OK, "set");
    EXPECT(wk_voxel_set_block(w, 0, 1, 0, 1) == WK_OK, "set");
    known a[] = {
        {{0.5f, 0.5f, 0.5f}, {1, 1, 0}, inf, r2, 1, 0, 0, -1, 0},
        /* y before z at the edge y = 1, z = 1 from (0.5, 0.5, 0.5) along (0, 1, 1): (0, 1, 0) first */
        {{0.5f, 0.5f, 0.5f}, {0, 1, 1}, inf, r2, 0, 1, 0, -1, 2},
        /* x before z: (1, 0, 0) */
        {{0.5f, 0.5f, 0.5f}, {1, 0, 1}, inf, r2, 1, 0, 0, -1, 0},
    };
    fails += check_known(w, a, COUNT(a), "edge ties");
    EXPECT(wk_voxel_set_block(w, 1, 0, 0, 0) == WK_OK, "clear");
    EXPECT(wk_voxel_set_block(w, 0, 1, 0, 0) == WK_OK, "clear");
    /* only (0, 1, 0) solid: the diagonal skips it through the edge; (1, 1, 0) solid is entered via y */
    EXPECT(wk_voxel_set_block(w, 0, 1, 0, 1) == WK_OK, "set");
    EXPECT(wk_voxel_set_block(w, 1, 1, 0, 1) == WK_OK, "set");
    known b[] = {
        {{0.5f, 0.5f, 0.5f}, {1, 1, 0}, inf, r2, 1, 1, 0, -1, 2},
        /* the mirror image: moving -x from (1.5, 0.5) reaches x = 1 and y = 1 together: x first -> (0, 0, 0)
           (empty), then y -> (0, 1, 0) */
        {{1.5f, 0.5f, 0.5f}, {-1, 1, 0}, inf, r2, 0, 1, 0, -1, 2},
    };
    fails += check_known(w, b, COUNT(b), "edge skip");
    /* corner: from (0.5, 0.5, 0.5) along (1, 1, 1), all three planes at s = 0.5: x, then y, then z */
    wk_voxel_world_destroy(w);
    w = new_world();
    EXPECT(wk_voxel_set_block(w, 1, 1, 0, 1) == WK_OK, "set");
    EXPECT(wk_voxel_set_block(w, 0, 1, 1, 1) == WK_OK, "set");
    EXPECT(wk_voxel_set_block(w, 1, 1, 1, 1) == WK_OK, "set");
    known c[] = {
        {{0.5f, 0.5f, 0.5f}, {1, 1, 1}, inf, 0.8660254f, 1, 1, 0, -1, 2},
        {{0.5f, 0.5f, 0.5f}, {-1, -1, -1}, inf, MISS},
    };
    fails += check_known(w, c, COUNT(c), "corner");
    /* negative coordinates: block (-1, -1, -1) occupies [-1, 0)^3 */
    EXPECT(wk_voxel_set_block(w, -1, -1, -1, 1) == WK_OK, "set");
    EXPECT(wk_voxel_set_block(w, -17, -1, -1, 1) == WK_OK, "set");
    known d[] = {
        {{-0.5f, -0.5f, 5.0f}, {0, 0, -1}, inf, 5.0f, -1, -1, -1, -1, 5},
        {{-0.5f, -0.5f, -0.5f}, {0, 0, -1}, inf, 0.0f, -1, -1, -1, -1, 6},
        {{0.0f, -0.5f, -0.5f}, {-1, 0, 0}, inf, 0.0f, -1, -1, -1, -1, 1},
        {{-2.0f, -0.5f, -0.5f}, {-1, 0, 0}, inf, 14.0f, -17, -1, -1, -1, 1},
        {{-20.0f, -0.5f, -0.5f}, {1, 0, 0}, inf, 3.0f, -17, -1, -1, -1, 0},
        {{-16.0f, -0.5f, -0.5f}, {1, 0, 0}, inf, 15.0f, -1, -1, -1, -1, 0},
    };
    fails += check_known(w, d, COUNT(d), "negative");
    wk_voxel_world_destroy(w);
    return fails;
}

/* A brick with one sub-voxel per face, each entered from outside. */
int wk_check_voxel_brick_faces(void) {
    int fails = 0;
    wk_voxel_world *w = new_world();
    const float inf = INFINITY;
    /* block (5, 6, 7); sub (i, j, k) is bit i + 4j + 16k */
    for (int axis = 0; axis < 3; axis++)
        for (int side = 0; side < 2; side++) {
            int ijk[3] = {1, 2, 1};
            ijk[axis] = side ? 3 : 0;
            int bit = ijk[0] + 4 * ijk[1] + 16 * ijk[2];
            EXPECT(wk_voxel_set_sub(w, 5, 6, 7, (uint64_t)1 << bit) == WK_OK, "set_sub");
            float o[3] = {5.0f + (ijk[0] + 0.5f) / 4, 6.0f + (ijk[1] + 0.5f) / 4, 7.0f + (ijk[2] + 0.5f) / 4};
            float dir[3] = {0, 0, 0};
            float base = axis == 0 ? 5.0f : axis == 1 ? 6.0f : 7.0f;
            o[axis] = side ? base + 3.0f : base - 2.0f; /* 2 blocks off either face */
            dir[axis] = side ? -0.5f : 0.5f;
            known k = {{o[0], o[1], o[2]}, {dir[0], dir[1], dir[2]}, inf, 2.0f, 5, 6, 7, bit, 2 * axis + side};
            fails += check_known(w, &k, 1, "brick face");
            /* a ray that passes the brick in an empty sub-voxel row */
            float o2[3] = {o[0], o[1], o[2]};
            int other = (axis + 1) % 3;
            o2[other] += 0.25f;
            known m = {{o2[0], o2[1], o2[2]}, {dir[0], dir[1], dir[2]}, inf, MISS};
            fails += check_known(w, &m, 1, "brick face (empty row)");
        }
    /* starting inside an empty sub-voxel, then entering a solid one */
    EXPECT(wk_voxel_set_sub(w, 5, 6, 7, (uint64_t)1 << (3 + 4 * 1 + 16 * 2)) == WK_OK, "set_sub");
    known k2[] = {
        {{5.125f, 6.375f, 7.625f}, {1, 0, 0}, inf, 0.625f, 5, 6, 7, 3 + 4 + 32, 0},
        {{5.875f, 6.375f, 7.625f}, {-1, 0, 0}, inf, 0.0f, 5, 6, 7, 3 + 4 + 32, 6},
        {{5.125f, 6.375f, 7.625f}, {-1, 0, 0}, inf, MISS},
    };
    fails += check_known(w, k2, COUNT(k2), "inside brick");
    wk_voxel_world_destroy(w);
    return fails;
}

int wk_check_voxel_full_mask_is_solid(void) {
    int fails = 0;
    wk_rng rng = {11};
    wk_voxel_world *a = new_world(), *b = new_world();
    for (int i = 0; i < 200; i++) {
        int32_t x = (int32_t)(wk_rng_u64(&rng) % 20) - 10, y = (int32_t)(wk_rng_u64(&rng) % 20) - 10,
                z = (int32_t)(wk_rng_u64(&rng) % 20) - 10;
        EXPECT(wk_voxel_set_block(a, x, y, z, 1) == WK_OK, "set_block");
        /* b gets a brick first, then the full mask over it */
        EXPECT(wk_voxel_set_sub(b, x, y, z, 0x1234) == WK_OK, "set_sub");
        EXPECT(wk_voxel_set_sub(b, x, y, z, WK_VOXEL_FULL) == WK_OK, "set_sub full");
        uint64_t m = 0;
        EXPECT(wk_voxel_get_block(b, x, y, z, &m) == WK_OK && m == WK_VOXEL_FULL, "get_block full");
    }
    wk_voxel_stats sa, sb;
    EXPECT(wk_voxel_world_stats(a, &sa) == WK_OK && wk_voxel_world_stats(b, &sb) == WK_OK, "stats");
    EXPECT(sa.solid_blocks == sb.solid_blocks && sb.bricks == 0, "stats: %llu vs %llu solid, %llu bricks",
           (unsigned long long)sa.solid_blocks, (unsigned long long)sb.solid_blocks, (unsigned long long)sb.bricks);
    ray_set ra = rays_new(2000), rb = rays_new(2000);
    dense_world box = dense_new(-10, -10, -10, 20, 20, 20);
    random_rays(&ra, &box, &rng);
    for (size_t i = 0; i < ra.n; i++)
        ray_put(&rb, i, ra.o[0][i], ra.o[1][i], ra.o[2][i], ra.d[0][i], ra.d[1][i], ra.d[2][i], ra.tmax[i]);
    EXPECT(cast(a, &ra, 1, NULL) == WK_OK && cast(b, &rb, 1, NULL) == WK_OK, "cast");
    EXPECT(memcmp(ra.t, rb.t, 4 * ra.n) == 0 && memcmp(ra.x, rb.x, 4 * ra.n) == 0 &&
               memcmp(ra.y, rb.y, 4 * ra.n) == 0 && memcmp(ra.z, rb.z, 4 * ra.n) == 0 &&
               memcmp(ra.sub, rb.sub, ra.n) == 0 && memcmp(ra.face, rb.face, ra.n) == 0,
           "full-mask bricks cast differently from solid blocks");
    dense_free(&box);
    rays_free(&ra);
    rays_free(&rb);
    wk_voxel_world_destroy(a);
    wk_voxel_world_destroy(b);
    return fails;
}

/* Random worlds (boxes at various offsets, across chunk boundaries) and
 * random rays against the dense walk, bit for bit. */
static int random_vs_dense(uint64_t seed, int worlds, int32_t base, size_t nrays, const char *what) {
    int fails = 0;
    wk_rng rng = {seed};
    for (int wi = 0; wi < worlds && fails < 5; wi++) {
        int32_t nx = 4 + (int32_t)(wk_rng_u64(&rng) % 30), ny = 4 + (int32_t)(wk_rng_u64(&rng) % 30),
                nz = 4 + (int32_t)(wk_rng_u64(&rng) % 30);
        int32_t x0 = base + (int32_t)(wk_rng_u64(&rng) % 64) - 32, y0 = base + (int32_t)(wk_rng_u64(&rng) % 64) - 32,
                z0 = -base + (int32_t)(wk_rng_u64(&rng) % 64) - 32;
        dense_world dw = dense_new(x0, y0, z0, nx, ny, nz);
        wk_voxel_world *w = new_world();
        random_world(w, &dw, &rng);
        /* Every third world gets a far block that no ray of the test can
         * reach (one block thousands of blocks away, off every diagonal): its bounds are too large for
         * the chunk directory, so chunks are looked up in the hash table. */
        if (wi % 3 == 2) wk_voxel_set_block(w, dw.x0 + 3000, dw.y0 + 3500, dw.z0 + 4100, 1);
        ray_set rs = rays_new(nrays);
        random_rays(&rs, &dw, &rng);
        int with_tmax = (int)(wk_rng_u64(&rng) % 4 != 0);
        /* every ISA against the dense walk (the harness compares them too, on fewer worlds) */
        fails += every_isa_as_dense(w, &dw, &rs, with_tmax, what, fails);
        rays_free(&rs);
        dense_free(&dw);
        wk_voxel_world_destroy(w);
    }
    return fails;
}

int wk_check_voxel_random_vs_dense(void) { return random_vs_dense(1, 60, 0, 3000, "random world"); }

int wk_check_voxel_far_coordinates(void) {
    int fails = 0;
    fails += random_vs_dense(2, 12, 1 << 20, 2000, "near +2^20");
    fails += random_vs_dense(3, 12, -(1 << 20), 2000, "near -2^20");
    fails += random_vs_dense(4, 6, (1 << 24) + 7, 2000, "near 2^24");
    fails += random_vs_dense(6, 6, (1 << 30) + 100, 2000, "near 2^30");
    return fails;
}

int wk_check_voxel_int32_limits(void) {
    int fails = 0;
    wk_voxel_world *w = new_world();
    const float inf = INFINITY;
    EXPECT(wk_voxel_set_block(w, INT32_MAX, 0, 0, 1) == WK_OK, "set max");
    EXPECT(wk_voxel_set_block(w, INT32_MIN, 0, 0, 1) == WK_OK, "set min");
    EXPECT(wk_voxel_set_sub(w, INT32_MAX, INT32_MAX, INT32_MAX, 1) == WK_OK, "set max sub");
    uint64_t m = 0;
    EXPECT(wk_voxel_get_block(w, INT32_MAX, 0, 0, &m) == WK_OK && m == WK_VOXEL_FULL, "get max");
    EXPECT(wk_voxel_get_block(w, INT32_MIN, 0, 0, &m) == WK_OK && m == WK_VOXEL_FULL, "get min");
    EXPECT(wk_voxel_get_block(w, INT32_MAX - 1, 0, 0, &m) == WK_OK && m == 0, "get max - 1");
    const float top = 2147483520.0f; /* 2^31 - 128, the largest float below 2^31 */
    known k[] = {
        {{top, 0.5f, 0.5f}, {1, 0, 0}, inf, 127.0f, INT32_MAX, 0, 0, -1, 0},
        {{-2147483648.0f, 0.5f, 0.5f}, {0, 0, 0}, inf, 0.0f, INT32_MIN, 0, 0, -1, 6},
        {{-2147483520.0f, 0.5f, 0.5f}, {-1, 0, 0}, inf, 127.0f, INT32_MIN, 0, 0, -1, 1},
        /* through the corner: x, y, then z step at the same s, so z enters last (face 4) */
        {{top, top, top}, {1, 1, 1}, inf, 127.0f * 1.7320508f, INT32_MAX, INT32_MAX, INT32_MAX, 0, 4},
        /* moving past the end of the world: no hit, terminates */
        {{top, 5.5f, 0.5f}, {1, 0, 0}, inf, MISS},
        {{-2147483648.0f, 5.5f, 0.5f}, {-1, 0, 0}, inf, MISS},
    };
    fails += check_known(w, k, COUNT(k), "int32 limits");
    /* unrepresentable origins: a clear error, outputs untouched */
    ray_set r = rays_new(3);
    ray_put(&r, 0, 0.5f, 0.5f, 0.5f, 1, 0, 0, inf);
    ray_put(&r, 1, 2147483648.0f, 0.5f, 0.5f, -1, 0, 0, inf);
    ray_put(&r, 2, 0.5f, 0.5f, 0.5f, 1, 0, 0, inf);
    memset(r.face, 0x55, 3);
    EXPECT(cast(w, &r, 1, NULL) == WK_ERR_OVERFLOW, "origin 2^31: status");
    EXPECT(r.face[0] == 0x55 && r.face[2] == 0x55, "origin 2^31: outputs touched");
    EXPECT(strstr(wk_last_error_detail(), "r->ox[1]") != NULL, "detail names the ray: %s", wk_last_error_detail());
    ray_put(&r, 1, 0.5f, -3e9f, 0.5f, -1, 0, 0, inf);
    EXPECT(cast(w, &r, 1, NULL) == WK_ERR_OVERFLOW, "origin -3e9: status");
    ray_put(&r, 1, 0.5f, 0.5f, INFINITY, -1, 0, 0, inf);
    EXPECT(cast(w, &r, 1, NULL) == WK_ERR_NOT_FINITE, "origin inf: status");
    ray_put(&r, 1, 0.5f, 0.5f, 0.5f, -INFINITY, 0, 0, inf);
    EXPECT(cast(w, &r, 1, NULL) == WK_ERR_NOT_FINITE, "direction -inf: status");
    EXPECT(r.face[0] == 0x55, "errors: outputs touched");
    rays_free(&r);
    wk_voxel_world_destroy(w);
    return fails;
}

/* Random edits (set, clear, bricks over solids and back) interleaved with
 * casts, against the dense world with the same edits. */
int wk_check_voxel_edit_then_cast(void) {
    int fails = 0;
    wk_rng rng = {77};
    dense_world dw = dense_new(-20, -3, 5, 40, 12, 40);
    wk_voxel_world *w = new_world();
    ray_set rs = rays_new(400);
    for (int round = 0; round < 40 && fails < 5; round++) {
        int edits = 1 + (int)(wk_rng_u64(&rng) % 200);
        for (int e = 0; e < edits; e++) {
            int32_t x = dw.x0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.nx);
            int32_t y = dw.y0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.ny);
            int32_t z = dw.z0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.nz);
            int kind = (int)(wk_rng_u64(&rng) % 4);
            uint64_t m = kind == 0 ? 0 : kind == 1 ? WK_VOXEL_FULL : random_mask(&rng);
            if (kind == 3) {
                EXPECT(wk_voxel_set_block(w, x, y, z, (int)(wk_rng_u64(&rng) & 1)) == WK_OK, "set_block");
                uint64_t got = 0;
                wk_voxel_get_block(w, x, y, z, &got);
                dense_set(&dw, x, y, z, got);
            } else {
                EXPECT(set_both(w, &dw, x, y, z, m) == WK_OK, "set_sub");
            }
        }
        /* every block reads back */
        for (int probe = 0; probe < 200; probe++) {
            int32_t x = dw.x0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.nx);
            int32_t y = dw.y0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.ny);
            int32_t z = dw.z0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.nz);
            uint64_t got = 1;
            EXPECT(wk_voxel_get_block(w, x, y, z, &got) == WK_OK && got == dense_get(&dw, x, y, z),
                   "get_block (%d, %d, %d): %llx vs %llx", x, y, z, (unsigned long long)got,
                   (unsigned long long)dense_get(&dw, x, y, z));
        }
        random_rays(&rs, &dw, &rng);
        EXPECT(cast(w, &rs, 1, NULL) == WK_OK, "cast");
        for (size_t i = 0; i < rs.n && fails < 5; i++) fails += same_as_dense(&dw, &rs, i, 1, "edit then cast");
    }
    /* clear everything: no ray hits, stats back to zero */
    for (int32_t z = 0; z < dw.nz; z++)
        for (int32_t y = 0; y < dw.ny; y++)
            for (int32_t x = 0; x < dw.nx; x++) set_both(w, &dw, dw.x0 + x, dw.y0 + y, dw.z0 + z, 0);
    wk_voxel_stats st;
    EXPECT(wk_voxel_world_stats(w, &st) == WK_OK && st.solid_blocks == 0 && st.bricks == 0, "stats after clear");
    random_rays(&rs, &dw, &rng);
    EXPECT(cast(w, &rs, 1, NULL) == WK_OK, "cast");
    for (size_t i = 0; i < rs.n; i++) EXPECT(rs.face[i] == -1 && isinf(rs.t[i]), "hit in a cleared world");
    rays_free(&rs);
    dense_free(&dw);
    wk_voxel_world_destroy(w);
    return fails;
}

/* The blocks a check has set (up to 64; more are not kept), for rays aimed
 * at them. */
typedef struct placed_blocks {
    int32_t at[64][3];
    int n;
} placed_blocks;

static void placed_add(placed_blocks *p, int32_t x, int32_t y, int32_t z) {
    if (p->n == 64) return;
    p->at[p->n][0] = x;
    p->at[p->n][1] = y;
    p->at[p->n][2] = z;
    p->n++;
}

static void placed_remove(placed_blocks *p, int k) {
    for (int a = 0; a < 3; a++) p->at[k][a] = p->at[p->n - 1][a];
    p->n--;
}

/* Three rays in four (of random_rays') aimed at a random point of a placed
 * block; tmax infinite, or with random_tmax one in four in [0, 200). */
static void aim_at_placed(ray_set *rs, wk_rng *rng, const placed_blocks *p, int random_tmax) {
    for (size_t i = 0; i < rs->n && p->n > 0; i++) {
        if (wk_rng_u64(rng) % 4 == 0) continue;
        int k = (int)(wk_rng_u64(rng) % (uint64_t)p->n);
        for (int a = 0; a < 3; a++) rs->d[a][i] = (float)(p->at[k][a] + wk_rng_unit(rng) - rs->o[a][i]);
        rs->tmax[i] = !random_tmax || (wk_rng_u64(rng) % 4) ? INFINITY : (float)wk_rng_range(rng, 0.0, 200.0);
    }
}

/* Sparse edits over a box of 6^3 chunks, so that whole 2 x 2 x 2 blocks
 * of chunks go empty and nonempty again (the directory's empty-pair bits,
 * which let the walk leave 128^3 cells at once), the bounds grow (the
 * directory is rebuilt), and rays aimed at the edited blocks cross those
 * blocks of chunks: every ISA against the dense world. */
static int sparse_edits(uint64_t seed, int32_t x0, int32_t y0, int32_t z0, int32_t n, int rounds, int max_placed,
                        const char *what) {
    int fails = 0;
    wk_rng rng = {seed};
    dense_world dw = dense_new(x0, y0, z0, n, n, n);
    wk_voxel_world *w = new_world();
    ray_set rs = rays_new(300);
    placed_blocks placed = {.n = 0};
    if (max_placed > 64) max_placed = 64;
    for (int round = 0; round < rounds && fails < 5; round++) {
        int edits = 1 + (int)(wk_rng_u64(&rng) % 4);
        for (int e = 0; e < edits; e++) {
            if (placed.n > 0 && (placed.n == max_placed || wk_rng_u64(&rng) % 3 == 0)) {
                /* clear a block set earlier: its chunk (and maybe its block of chunks) goes empty */
                int k = (int)(wk_rng_u64(&rng) % (uint64_t)placed.n);
                EXPECT(set_both(w, &dw, placed.at[k][0], placed.at[k][1], placed.at[k][2], 0) == WK_OK, "clear");
                placed_remove(&placed, k);
            } else {
                int32_t x = dw.x0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.nx);
                int32_t y = dw.y0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.ny);
                int32_t z = dw.z0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.nz);
                uint64_t m = wk_rng_u64(&rng) % 2 ? WK_VOXEL_FULL : random_mask(&rng);
                if (m == 0) m = 1;
                EXPECT(set_both(w, &dw, x, y, z, m) == WK_OK, "set");
                placed_add(&placed, x, y, z);
            }
        }
        random_rays(&rs, &dw, &rng);
        /* most rays aimed at an edited block (or where one was) from across the box */
        aim_at_placed(&rs, &rng, &placed, 1);
        fails += round_as_dense(w, &dw, &rs, what, round, fails);
    }
    rays_free(&rs);
    dense_free(&dw);
    wk_voxel_world_destroy(w);
    return fails;
}

int wk_check_voxel_sparse_edits(void) { return sparse_edits(91, -40, -30, -50, 96, 30, 64, "sparse edits"); }

/* The same with a few blocks in a box of 2^3 chunks around the origin, so
 * that aligned 2 x 2 x 2 blocks of groups (the directory word's group-pair
 * summary, which lets the walk leave 32^3 cells at once) go empty and
 * nonempty again inside chunks that stay nonempty. */
int wk_check_voxel_group_pair_edits(void) {
    return sparse_edits(93, -16, -16, -16, 32, 60, 12, "group-pair edits");
}

/* The AVX-512 walk leaves an empty or absent chunk through the directory's
 * empty box of chunks around it (up to 5 x 5 x 5 chunks, voxel_impl.h),
 * which edits keep empty: a chunk going nonempty cuts the boxes that
 * contain it, one going empty grows its own. Edits in a box of 8^3 chunks
 * with at most 64 blocks placed (boxes of every shape, cut and grown again),
 * rays aimed at them; then a world without a directory (bounds too large
 * for one), where the walk looks chunks up by hash: a chunk made and left
 * empty there must count as the chunk alone. Every ISA against the dense
 * walk. */
int wk_check_voxel_empty_boxes(void) {
    int fails = sparse_edits(95, -64, -48, -64, 128, 40, 64, "empty boxes");
    wk_rng rng = {97};
    dense_world dw = dense_new(-40, -24, -40, 80, 48, 80);
    wk_voxel_world *w = new_world();
    /* two blocks 1000 chunks apart on x, cleared at once: the bounds stay, too large for a directory */
    EXPECT(wk_voxel_set_block(w, -8000, 0, 0, 1) == WK_OK && wk_voxel_set_block(w, 8000, 0, 0, 1) == WK_OK,
           "far blocks");
    EXPECT(wk_voxel_set_block(w, -8000, 0, 0, 0) == WK_OK && wk_voxel_set_block(w, 8000, 0, 0, 0) == WK_OK,
           "far blocks cleared");
    ray_set rs = rays_new(300);
    placed_blocks placed = {.n = 0}; /* up to 48 here */
    for (int round = 0; round < 8 && fails < 5; round++) {
        for (int e = 0; e < 12; e++) {
            int32_t x = dw.x0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.nx);
            int32_t y = dw.y0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.ny);
            int32_t z = dw.z0 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)dw.nz);
            EXPECT(set_both(w, &dw, x, y, z, WK_VOXEL_FULL) == WK_OK, "set");
            if (e % 2 == 0) EXPECT(set_both(w, &dw, x, y, z, 0) == WK_OK, "clear"); /* an empty chunk made */
            else if (placed.n < 48)
                placed_add(&placed, x, y, z);
        }
        random_rays(&rs, &dw, &rng);
        aim_at_placed(&rs, &rng, &placed, 0);
        fails += round_as_dense(w, &dw, &rs, "no directory", round, fails);
    }
    /* the directory would take 2004 x 16 x 16 entries of 16 bytes: none was kept */
    wk_voxel_stats st;
    EXPECT(wk_voxel_world_stats(w, &st) == WK_OK && st.bytes < ((uint64_t)4 << 20),
           "the world without a directory holds %llu bytes", (unsigned long long)st.bytes);
    rays_free(&rs);
    dense_free(&dw);
    wk_voxel_world_destroy(w);
    return fails;
}

/* The AVX-512 walk leaves a group in an empty aligned 2 x 2 x 2 block of
 * groups through the group's empty box of groups, kept in its brick word
 * (voxel_impl.h, wk__vgroup): grown by bulk edits, cut when a group goes
 * nonempty, grown again when one goes empty, dropped (0: the 2 x 2 x 2
 * block) in a chunk whose first group is set. A lumpy floor of 3^3 chunks
 * from set_box (empty groups above it), then rounds of single edits above
 * the floor (groups going nonempty and empty) and now and then a chunk
 * emptied and one block set in it again, with rays aimed at the edited
 * blocks; every ISA against the dense walk. */
int wk_check_voxel_group_boxes(void) {
    int fails = 0;
    wk_rng rng = {99};
    enum { N = 48 };
    const int32_t x0 = -24, y0 = -16, z0 = -24;
    dense_world dw = dense_new(x0, y0, z0, N, N, N);
    wk_voxel_world *w = new_world();
    uint8_t *v = calloc((size_t)N * N * N, 1);
    int height[N][N];
    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++) {
            height[k][i] = 6 + (i * 7 + k * 3) % 17 + (int)(wk_rng_u64(&rng) % 4);
            for (int j = 0; j < height[k][i]; j++) {
                v[((size_t)k * N + (size_t)j) * N + (size_t)i] = 1;
                dense_set(&dw, x0 + i, y0 + j, z0 + k, WK_VOXEL_FULL);
            }
        }
    EXPECT(wk_voxel_set_box(w, x0, y0, z0, N, N, N, v, N, (size_t)N * N) == WK_OK, "set_box: %s",
           wk_last_error_detail());
    free(v);
    ray_set rs = rays_new(300);
    placed_blocks placed = {.n = 0};
    for (int round = 0; round < 30 && fails < 5; round++) {
        int32_t fresh[6] = {0, 0, 0, 0, 0, 0}; /* a chunk emptied this round (corner) and its new block */
        int has_fresh = round % 6 == 5;
        if (has_fresh) {
            /* empty a chunk of the floor's top (its groups' boxes go stale), then set one block in it */
            int32_t cx = x0 + 16 * (int32_t)(wk_rng_u64(&rng) % 3), cz = z0 + 16 * (int32_t)(wk_rng_u64(&rng) % 3);
            int32_t cy = y0 + 16;
            for (int32_t z = cz; z < cz + 16; z++)
                for (int32_t y = cy; y < cy + 16; y++)
                    for (int32_t x = cx; x < cx + 16; x++) EXPECT(set_both(w, &dw, x, y, z, 0) == WK_OK, "clear");
            int keep = 0;
            for (int k = 0; k < placed.n; k++) {
                int inside = placed.at[k][0] >= cx && placed.at[k][0] < cx + 16 && placed.at[k][1] >= cy &&
                             placed.at[k][1] < cy + 16 && placed.at[k][2] >= cz && placed.at[k][2] < cz + 16;
                if (inside) continue;
                for (int a = 0; a < 3; a++) placed.at[keep][a] = placed.at[k][a];
                keep++;
            }
            placed.n = keep;
            int32_t x = cx + (int32_t)(wk_rng_u64(&rng) % 16), y = cy + (int32_t)(wk_rng_u64(&rng) % 16),
                    z = cz + (int32_t)(wk_rng_u64(&rng) % 16);
            EXPECT(set_both(w, &dw, x, y, z, WK_VOXEL_FULL) == WK_OK, "set");
            placed_add(&placed, x, y, z);
            const int32_t f[6] = {cx, cy, cz, x, y, z};
            memcpy(fresh, f, sizeof f);
        }
        for (int e = 0; e < 3 && !has_fresh; e++) {
            if (placed.n > 0 && (placed.n == 64 || wk_rng_u64(&rng) % 3 == 0)) {
                int k = (int)(wk_rng_u64(&rng) % (uint64_t)placed.n);
                EXPECT(set_both(w, &dw, placed.at[k][0], placed.at[k][1], placed.at[k][2], 0) == WK_OK, "clear");
                placed_remove(&placed, k);
            } else {
                int i = (int)(wk_rng_u64(&rng) % N), k = (int)(wk_rng_u64(&rng) % N);
                int32_t y = y0 + height[k][i] + 1 + (int32_t)(wk_rng_u64(&rng) % (uint64_t)(N - height[k][i] - 1));
                uint64_t m = wk_rng_u64(&rng) % 2 ? WK_VOXEL_FULL : random_mask(&rng);
                if (m == 0) m = 1;
                EXPECT(set_both(w, &dw, x0 + i, y, z0 + k, m) == WK_OK, "set");
                placed_add(&placed, x0 + i, y, z0 + k);
            }
        }
        random_rays(&rs, &dw, &rng);
        aim_at_placed(&rs, &rng, &placed, 0);
        for (size_t i = 0; i < rs.n && has_fresh; i++) /* three in four from inside the emptied chunk at its block */
            for (int a = 0; a < 3 && i % 4 != 0; a++) {
                rs.o[a][i] = (float)(fresh[a] + wk_rng_range(&rng, 0.0, 16.0));
                rs.d[a][i] = (float)(fresh[3 + a] + wk_rng_unit(&rng) - rs.o[a][i]);
                rs.tmax[i] = INFINITY;
            }
        fails += round_as_dense(w, &dw, &rs, "group boxes", round, fails);
    }
    rays_free(&rs);
    dense_free(&dw);
    wk_voxel_world_destroy(w);
    return fails;
}

/* Bulk edits (set_box, set_terrain) set a chunk's blocks a group at a time
 * and then grow the boxes of all its empty groups anew. A world
 * of 3^3 chunks whose empty groups hold boxes (a first, very sparse set_box
 * over all of it), then rounds of set_box over random sub-boxes with sparse
 * blocks (groups go nonempty inside the boxes of groups outside the
 * sub-box, also of groups that single edits gave a box of their own) and,
 * every third round, a set_terrain patch; rays aimed at the blocks each
 * round set; every ISA against the dense walk. */
int wk_check_voxel_bulk_edit_boxes(void) {
    int fails = 0;
    wk_rng rng = {101};
    enum { N = 48 };
    const int32_t lo[3] = {-24, -16, -24};
    dense_world dw = dense_new(lo[0], lo[1], lo[2], N, N, N);
    wk_voxel_world *w = new_world();
    uint8_t *v = malloc((size_t)N * N * N);
    float *top = malloc((size_t)N * N * sizeof(float));
    wk_fbm f = WK_FBM_DEFAULTS;
    f.frequency = 1.0 / 16;
    ray_set rs = rays_new(300);
    for (int round = 0; round < 24 && fails < 5 && v && top; round++) {
        int32_t o[3];
        uint32_t n[3];
        for (int a = 0; a < 3; a++) {
            n[a] = round == 0 ? N : 1 + (uint32_t)(wk_rng_u64(&rng) % 20);
            o[a] = lo[a] + (int32_t)(wk_rng_u64(&rng) % (N - n[a] + 1));
        }
        /* blocks set and cleared again: their groups, gone empty, grow boxes of their own */
        for (int e = 0; e < 24 && round > 0; e++) {
            int32_t x = lo[0] + (int32_t)(wk_rng_u64(&rng) % N), y = lo[1] + (int32_t)(wk_rng_u64(&rng) % N),
                    z = lo[2] + (int32_t)(wk_rng_u64(&rng) % N);
            uint64_t m = 0;
            EXPECT(wk_voxel_get_block(w, x, y, z, &m) == WK_OK, "get");
            if (m) continue;
            EXPECT(wk_voxel_set_block(w, x, y, z, 1) == WK_OK && wk_voxel_set_block(w, x, y, z, 0) == WK_OK,
                   "set and clear");
        }
        placed_blocks placed = {.n = 0};
        if (round % 3 == 2) {
            /* heights across the patch's y range; solid below them, empty above */
            const float base = (float)o[1] + 0.5f * (float)n[1], amplitude = 0.5f * (float)n[1];
            EXPECT(wk_voxel_set_terrain(w, &f, o[0], o[2], n[0], n[2], o[1], n[1], base, amplitude, NULL) == WK_OK,
                   "set_terrain: %s", wk_last_error_detail());
            wk_grid2 g = {o[0], o[2], n[0], n[2], 1.0, n[0], {0, 0}};
            EXPECT(wk_noise_fbm2_grid(&f, &g, top, NULL) == WK_OK, "fbm");
            for (uint32_t k = 0; k < n[2]; k++)
                for (uint32_t i = 0; i < n[0]; i++) {
                    const float t = base + amplitude * top[k * n[0] + i];
                    for (uint32_t j = 0; j < n[1]; j++) {
                        const int32_t x = o[0] + (int32_t)i, y = o[1] + (int32_t)j, z = o[2] + (int32_t)k;
                        dense_set(&dw, x, y, z, (float)y < t ? WK_VOXEL_FULL : 0);
                        if ((float)y < t && !((float)(y + 1) < t) && wk_rng_u64(&rng) % 8 == 0)
                            placed_add(&placed, x, y, z); /* a column's top block */
                    }
                }
        } else {
            const uint64_t one_in = round == 0 ? 2048 : 64;
            for (uint32_t k = 0; k < n[2]; k++)
                for (uint32_t j = 0; j < n[1]; j++)
                    for (uint32_t i = 0; i < n[0]; i++) {
                        const int solid = wk_rng_u64(&rng) % one_in == 0;
                        const int32_t x = o[0] + (int32_t)i, y = o[1] + (int32_t)j, z = o[2] + (int32_t)k;
                        v[((size_t)k * n[1] + j) * n[0] + i] = (uint8_t)solid;
                        dense_set(&dw, x, y, z, solid ? WK_VOXEL_FULL : 0);
                        if (solid) placed_add(&placed, x, y, z);
                    }
            EXPECT(wk_voxel_set_box(w, o[0], o[1], o[2], n[0], n[1], n[2], v, n[0], (size_t)n[0] * n[1]) == WK_OK,
                   "set_box: %s", wk_last_error_detail());
        }
        random_rays(&rs, &dw, &rng);
        aim_at_placed(&rs, &rng, &placed, 0);
        fails += round_as_dense(w, &dw, &rs, "bulk edit boxes", round, fails);
    }
    EXPECT(v && top, "out of memory");
    rays_free(&rs);
    free(v);
    free(top);
    dense_free(&dw);
    wk_voxel_world_destroy(w);
    return fails;
}

/* Rays from outside the world's bounds on the quarter-block lattice, with
 * directions of quarter steps (many zero components): their entry point lies
 * on a plane of the other axes, where a SIMD setup hands the ray to the
 * reference's exact entry (the slow path, whose rays join the queue with the
 * same scaled values and margin as the vector setup's): every ISA against
 * the dense walk. */
int wk_check_voxel_entry_on_planes(void) {
    int fails = 0;
    wk_rng rng = {95};
    dense_world dw = dense_new(-8, -8, -8, 40, 40, 40);
    wk_voxel_world *w = new_world();
    for (int i = 0; i < 300; i++) {
        int32_t x = -8 + (int32_t)(wk_rng_u64(&rng) % 40), y = -8 + (int32_t)(wk_rng_u64(&rng) % 40),
                z = -8 + (int32_t)(wk_rng_u64(&rng) % 40);
        uint64_t m = wk_rng_u64(&rng) % 3 ? WK_VOXEL_FULL : random_mask(&rng);
        EXPECT(set_both(w, &dw, x, y, z, m) == WK_OK, "set");
    }
    ray_set rs = rays_new(4000);
    for (size_t i = 0; i < rs.n; i++) {
        int ax = (int)(wk_rng_u64(&rng) % 3);
        for (int a = 0; a < 3; a++) {
            rs.o[a][i] = (float)((int)(wk_rng_u64(&rng) % 64) - 16) * 0.25f;
            rs.d[a][i] = (float)((int)(wk_rng_u64(&rng) % 9) - 4) * 0.25f;
        }
        int low = (int)(wk_rng_u64(&rng) & 1);
        rs.o[ax][i] = low ? -40.0f : 70.0f;
        rs.d[ax][i] = low ? 1.0f : -1.0f;
        if (wk_rng_u64(&rng) % 3 == 0)
            for (int a = 0; a < 3; a++)
                if (a != ax) rs.d[a][i] = 0.0f;
        rs.tmax[i] = wk_rng_u64(&rng) % 4 ? INFINITY : (float)(wk_rng_u64(&rng) % 100);
    }
    fails += every_isa_as_dense(w, &dw, &rs, 1, "entry on planes", fails);
    rays_free(&rs);
    dense_free(&dw);
    wk_voxel_world_destroy(w);
    return fails;
}

/* 3000 blocks and bricks in the box -16 .. 31 (blocks) of w and dw, most of
 * them in the two outer layers of some axis, where rays from outside enter:
 * an entry cell off by one shows in the first hit. Returns the failures. */
static int fill_entry_layers(wk_voxel_world *w, dense_world *dw, wk_rng *rng) {
    int fails = 0;
    for (int i = 0; i < 3000; i++) {
        int32_t c[3];
        for (int a = 0; a < 3; a++) c[a] = -16 + (int32_t)(wk_rng_u64(rng) % 48);
        int a = (int)(wk_rng_u64(rng) % 4);
        if (a < 3) c[a] = (int32_t)(wk_rng_u64(rng) % 4) < 2 ? -16 + (int32_t)(wk_rng_u64(rng) % 2)
                                                            : 30 + (int32_t)(wk_rng_u64(rng) % 2);
        uint64_t m = wk_rng_u64(rng) % 3 ? WK_VOXEL_FULL : random_mask(rng);
        EXPECT(set_both(w, dw, c[0], c[1], c[2], m) == WK_OK, "set");
    }
    return fails;
}

/* Rays from outside the bounds on two or three axes at once, whose entry
 * planes are crossed at the same s (exact ties: the key order takes the later
 * axis) or at an s one float step apart on one axis (the vector setup chooses
 * the entry plane by estimates and hands near-ties to the reference's exact
 * entry): every ISA against the dense walk, with and without tmax. */
int wk_check_voxel_entry_ties(void) {
    int fails = 0;
    wk_rng rng = {97};
    dense_world dw = dense_new(-16, -16, -16, 48, 48, 48);
    wk_voxel_world *w = new_world();
    fails += fill_entry_layers(w, &dw, &rng);
    /* the bounds are whole chunks: blocks -16 .. 31 on every axis */
    static const float dirs[] = {0.25f, 0.5f, 1.0f, 0.75f, 2.0f, 0.125f};
    ray_set rs = rays_new(6000);
    for (size_t i = 0; i < rs.n; i++) {
        float s0 = (float)(1 + (int)(wk_rng_u64(&rng) % 40)) * 0.25f; /* the common entry s */
        int outside = (int)(wk_rng_u64(&rng) % 8); /* bit a: axis a starts outside */
        if (__builtin_popcount((unsigned)outside) < 2) outside |= 3 << (int)(wk_rng_u64(&rng) % 2);
        for (int a = 0; a < 3; a++) {
            float d = dirs[wk_rng_u64(&rng) % 6];
            int low = (int)(wk_rng_u64(&rng) & 1);
            if ((outside >> a) & 1) {
                /* entering through plane -16 (moving up) or 32 (moving down) at s0 */
                rs.o[a][i] = low ? -16.0f - s0 * d : 32.0f + s0 * d;
                rs.d[a][i] = low ? d : -d;
                if (wk_rng_u64(&rng) % 4 == 0) /* one float step off the tie */
                    rs.o[a][i] = nextafterf(rs.o[a][i], (wk_rng_u64(&rng) & 1) ? INFINITY : -INFINITY);
            } else {
                rs.o[a][i] = (float)((int)(wk_rng_u64(&rng) % 160) - 64) * 0.25f;
                rs.d[a][i] = (float)((int)(wk_rng_u64(&rng) % 9) - 4) * 0.25f;
            }
        }
        rs.tmax[i] = wk_rng_u64(&rng) % 4 ? INFINITY : (float)(wk_rng_u64(&rng) % 100) * 0.5f;
    }
    fails += every_isa_as_dense(w, &dw, &rs, 1, "entry ties", fails);
    fails += every_isa_as_dense(w, &dw, &rs, 0, "entry ties, no tmax", fails);
    rays_free(&rs);
    dense_free(&dw);
    wk_voxel_world_destroy(w);
    return fails;
}

/* Rays entering through two or three faces at exactly the same s, with
 * direction components in odd ratios (d_a = k_a u, distance to the plane
 * k_a v, k_a in 1, 3, 5, 7): the quotients num / d are equal, but the
 * estimates num * (1 / d) differ by rounding, so an entry (or exit) chosen
 * by estimates alone, without the exact near-tie comparison, picks the
 * wrong axis. Every axis moves, so ties recur at later planes too. */
int wk_check_voxel_entry_odd_ties(void) {
    int fails = 0;
    wk_rng rng = {131};
    dense_world dw = dense_new(-16, -16, -16, 48, 48, 48);
    wk_voxel_world *w = new_world();
    fails += fill_entry_layers(w, &dw, &rng);
    ray_set rs = rays_new(8000);
    for (size_t i = 0; i < rs.n; i++) {
        /* u, v with few mantissa bits: k u, k v and the origins are exact floats */
        float u = (float)(1 + (int)(wk_rng_u64(&rng) % 255)) * 0x1p-8f;
        float v = (float)(1 + (int)(wk_rng_u64(&rng) % 511)) * 0x1p-8f;
        int outside = (int)(wk_rng_u64(&rng) % 8); /* bit a: axis a starts outside */
        if (__builtin_popcount((unsigned)outside) < 2) outside |= 3 << (int)(wk_rng_u64(&rng) % 2);
        for (int a = 0; a < 3; a++) {
            float k = (float)(1 + 2 * (int)(wk_rng_u64(&rng) % 4));
            int low = (int)(wk_rng_u64(&rng) & 1);
            float d = k * u;
            if ((outside >> a) & 1) {
                /* entering through plane -16 (moving up) or 32 (moving down) at s = v / u */
                rs.o[a][i] = low ? -16.0f - k * v : 32.0f + k * v;
                rs.d[a][i] = low ? d : -d;
            } else {
                /* inside on this axis, on a quarter-cell lattice shifted by k v: later
                 * crossings tie too */
                rs.o[a][i] = (float)((int)(wk_rng_u64(&rng) % 96) - 16) - k * v;
                rs.d[a][i] = low ? d : -d;
            }
        }
        rs.tmax[i] = wk_rng_u64(&rng) % 4 ? INFINITY : (float)(wk_rng_u64(&rng) % 100) * 0.5f;
    }
    fails += every_isa_as_dense(w, &dw, &rs, 1, "odd entry ties", fails);
    fails += every_isa_as_dense(w, &dw, &rs, 0, "odd entry ties, no tmax", fails);
    rays_free(&rs);
    dense_free(&dw);
    wk_voxel_world_destroy(w);
    return fails;
}

/* ------------------------------------------------------------ ISA harness */

typedef struct cast_ctx {
    const wk_voxel_world *w;
    ray_set *r;
    int with_tmax;
} cast_ctx;

/* Output: t, x, y, z (4n bytes each), sub, face (n each); split 1 casts
 * the batch in two calls (first third, rest). */
static int harness_cast(void *vctx, const wk_exec *exec, uint32_t split, void *out) {
    cast_ctx *c = vctx;
    size_t n = c->r->n;
    unsigned char *o = out;
    size_t parts = split ? 2 : 1, cut = split ? n / 3 : n;
    for (size_t p = 0; p < parts; p++) {
        size_t lo = p ? cut : 0, hi = p || !split ? n : cut;
        wk_rays rays = {c->r->o[0] + lo, c->r->o[1] + lo, c->r->o[2] + lo, c->r->d[0] + lo, c->r->d[1] + lo,
                        c->r->d[2] + lo, c->with_tmax ? c->r->tmax + lo : NULL, hi - lo, {0}};
        wk_hits hits = {(float *)(void *)(o) + lo,          (int32_t *)(void *)(o + 4 * n) + lo,
                        (int32_t *)(void *)(o + 8 * n) + lo, (int32_t *)(void *)(o + 12 * n) + lo,
                        (int8_t *)(o + 16 * n) + lo,         (int8_t *)(o + 17 * n) + lo,
                        {0}};
        int s = wk_voxel_raycast(c->w, &rays, &hits, exec);
        if (s != WK_OK) return s;
    }
    return WK_OK;
}

int wk_check_voxel_raycast_isa(void) {
    int fails = 0;
    wk_rng rng = {5};
    /* 40000: 79 blocks of 512 rays, 9 units of 8 and 7 blocks past them, so that threaded
     * calls visit the units in their scrambled order (voxel.c); 1 to 9: every tail of a
     * packet (NEON: 4 rays in two halves of 2) */
    static const size_t sizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 63, 64, 65, 1000, 4099, 40000};
    for (size_t si = 0; si < COUNT(sizes); si++) {
        dense_world dw = dense_new(-8, -4, 3, 24, 16, 20);
        wk_voxel_world *w = new_world();
        random_world(w, &dw, &rng);
        if (si % 3 == 1) /* empty some chunks again: paths may skip them differently, results may not differ */
            for (int32_t z = 3; z < 19; z++)
                for (int32_t y = -4; y < 12; y++)
                    for (int32_t x = -8; x < 16; x++) {
                        wk_voxel_set_block(w, x, y, z, 0);
                        dense_set(&dw, x, y, z, 0);
                    }
        if (si % 4 == 3) /* a far block: bounds too large for the chunk directory, lookups by hash */
            wk_voxel_set_block(w, 3000, 3000, 3000, 1);
        ray_set rs = rays_new(sizes[si]);
        random_rays(&rs, &dw, &rng);
        cast_ctx ctx = {w, &rs, (int)(si & 1)};
        char what[64];
        snprintf(what, sizeof what, "raycast n=%zu", sizes[si]);
        wk_harness h = {what, harness_cast, &ctx, 18 * sizes[si], 2};
        fails += wk_harness_compare(&h);
        rays_free(&rs);
        dense_free(&dw);
        wk_voxel_world_destroy(w);
    }
    return fails;
}

/* ------------------------------------------------ segments, points, box */

int wk_check_voxel_segments_vs_dense(void) {
    int fails = 0;
    wk_rng rng = {21};
    for (int wi = 0; wi < 10 && fails < 5; wi++) {
        dense_world dw = dense_new(-6, 0, -6, 20, 16, 20);
        wk_voxel_world *w = new_world();
        random_world(w, &dw, &rng);
        size_t n = 777;
        float *p[6];
        for (int a = 0; a < 6; a++) p[a] = malloc(n * sizeof(float));
        uint8_t *vis = malloc(n);
        for (size_t i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++) {
                int32_t lo = a == 0 ? dw.x0 : a == 1 ? dw.y0 : dw.z0, nn = a == 0 ? dw.nx : a == 1 ? dw.ny : dw.nz;
                p[a][i] = random_origin(&rng, lo, nn, 3);
                p[3 + a][i] = (wk_rng_u64(&rng) % 5 == 0) ? p[a][i] : random_origin(&rng, lo, nn, 3);
            }
            if (i % 97 == 5) p[4][i] = NAN;
        }
        EXPECT(wk_voxel_segments(w, p[0], p[1], p[2], p[3], p[4], p[5], n, vis, NULL) == WK_OK, "segments: %s",
               wk_last_error_detail());
        for (size_t i = 0; i < n && fails < 5; i++) {
            int expect;
            if (p[4][i] != p[4][i]) expect = 0;
            else {
                /* the dense walk with d = b - a in double: pass through floats only when exact */
                double dd[3];
                float o[3], df[3];
                int exact = 1;
                for (int a = 0; a < 3; a++) {
                    o[a] = p[a][i];
                    dd[a] = (double)p[3 + a][i] - (double)p[a][i];
                    df[a] = (float)dd[a];
                    exact &= (double)df[a] == dd[a];
                }
                if (!exact) continue;
                dense_hit hh;
                expect = !dense_cast(&dw, o, df, 1.0, 1, &hh);
            }
            EXPECT(vis[i] == expect, "segment %zu: visible %d, dense walk %d", i, vis[i], expect);
        }
        for (int a = 0; a < 6; a++) free(p[a]);
        free(vis);
        dense_free(&dw);
        wk_voxel_world_destroy(w);
    }
    return fails;
}

int wk_check_voxel_points_vs_dense(void) {
    int fails = 0;
    wk_rng rng = {31};
    dense_world dw = dense_new(-5, -5, -5, 18, 18, 18);
    wk_voxel_world *w = new_world();
    random_world(w, &dw, &rng);
    size_t n = 5001;
    float *x = malloc(n * 4), *y = malloc(n * 4), *z = malloc(n * 4);
    uint8_t *solid = malloc(n);
    int8_t *sub = malloc(n);
    for (size_t i = 0; i < n; i++) {
        x[i] = random_origin(&rng, dw.x0, dw.nx, 2);
        y[i] = random_origin(&rng, dw.y0, dw.ny, 2);
        z[i] = random_origin(&rng, dw.z0, dw.nz, 2);
    }
    x[7] = NAN;
    EXPECT(wk_voxel_query_points(w, x, y, z, n, solid, sub, NULL) == WK_OK, "query: %s", wk_last_error_detail());
    for (size_t i = 0; i < n && fails < 5; i++) {
        int es = 0, esub = -1;
        if (x[i] == x[i]) {
            int64_t q[3] = {(int64_t)floor((double)x[i] * 4), (int64_t)floor((double)y[i] * 4),
                            (int64_t)floor((double)z[i] * 4)};
            es = dense_cell(&dw, q[0], q[1], q[2]);
            int64_t b[3];
            for (int a = 0; a < 3; a++) b[a] = (int64_t)floor((double)q[a] / 4.0);
            uint64_t m = dense_get(&dw, b[0], b[1], b[2]);
            if (m != 0 && m != WK_VOXEL_FULL) esub = (int)((q[0] - 4 * b[0]) + 4 * (q[1] - 4 * b[1]) + 16 * (q[2] - 4 * b[2]));
        }
        EXPECT(solid[i] == es && sub[i] == esub, "point %zu (%g, %g, %g): solid %d sub %d, expected %d %d", i, x[i], y[i],
               z[i], solid[i], sub[i], es, esub);
    }
    /* sub may be NULL */
    memset(solid, 9, n);
    EXPECT(wk_voxel_query_points(w, x, y, z, n, solid, NULL, NULL) == WK_OK && solid[0] <= 1, "query, sub NULL");
    free(x);
    free(y);
    free(z);
    free(solid);
    free(sub);
    dense_free(&dw);
    wk_voxel_world_destroy(w);
    return fails;
}

int wk_check_voxel_set_box(void) {
    int fails = 0;
    wk_rng rng = {41};
    wk_voxel_world *a = new_world(), *b = new_world();
    /* b starts with bricks and solids that the box overwrites, also around
     * it (kept, in groups the box cuts through): expect[] mirrors the
     * blocks of x -20..19, y 0..9, z -7..22 */
    enum { EX = 40, EY = 10, EZ = 30 };
    uint64_t *expect = calloc((size_t)EX * EY * EZ, sizeof *expect);
#define WK__AT(x, y, z) expect[((size_t)((z) + 7) * EY + (size_t)(y)) * EX + (size_t)((x) + 20)]
    for (int i = 0; i < 300; i++) {
        const int32_t x = (int32_t)(wk_rng_u64(&rng) % EX) - 20, y = (int32_t)(wk_rng_u64(&rng) % EY),
                      z = (int32_t)(wk_rng_u64(&rng) % EZ) - 7;
        const uint64_t m = random_mask(&rng);
        wk_voxel_set_sub(b, x, y, z, m);
        WK__AT(x, y, z) = m;
    }
    const uint32_t nx = 37, ny = 9, nz = 29;
    size_t stride = 40, slice = 9 * 40 + 3;
    uint8_t *v = calloc(slice * nz, 1);
    for (uint32_t k = 0; k < nz; k++)
        for (uint32_t j = 0; j < ny; j++)
            for (uint32_t i = 0; i < nx; i++) {
                v[k * slice + j * stride + i] = (uint8_t)(wk_rng_u64(&rng) % 3 == 0);
                WK__AT(-19 + (int32_t)i, (int32_t)j, -6 + (int32_t)k) = v[k * slice + j * stride + i] ? WK_VOXEL_FULL : 0;
            }
    EXPECT(wk_voxel_set_box(b, -19, 0, -6, nx, ny, nz, v, stride, slice) == WK_OK, "set_box: %s",
           wk_last_error_detail());
    uint64_t solid = 0, bricks = 0;
    for (int32_t z = -7; z < EZ - 7; z++)
        for (int32_t y = 0; y < EY; y++)
            for (int32_t x = -20; x < EX - 20; x++) {
                uint64_t m = 1;
                EXPECT(wk_voxel_get_block(b, x, y, z, &m) == WK_OK && m == WK__AT(x, y, z),
                       "block (%d, %d, %d) after set_box: %llx, expected %llx", x, y, z, (unsigned long long)m,
                       (unsigned long long)WK__AT(x, y, z));
                solid += WK__AT(x, y, z) == WK_VOXEL_FULL;
                bricks += WK__AT(x, y, z) != 0 && WK__AT(x, y, z) != WK_VOXEL_FULL;
            }
#undef WK__AT
    free(expect);
    /* bad bytes, strides, overflow: the world is unchanged */
    wk_voxel_stats before, after;
    wk_voxel_world_stats(b, &before);
    EXPECT(before.solid_blocks == solid && before.bricks == bricks, "stats after set_box: %llu solid, %llu bricks, expected %llu, %llu",
           (unsigned long long)before.solid_blocks, (unsigned long long)before.bricks, (unsigned long long)solid,
           (unsigned long long)bricks);
    v[5] = 2;
    EXPECT(wk_voxel_set_box(b, 0, 0, 0, nx, ny, nz, v, stride, slice) == WK_ERR_INVALID_ARG, "byte 2");
    v[5] = 0;
    EXPECT(wk_voxel_set_box(b, 0, 0, 0, nx, ny, nz, v, nx - 1, slice) == WK_ERR_STRIDE, "stride");
    EXPECT(wk_voxel_set_box(b, 0, 0, 0, nx, ny, nz, v, stride, 10) == WK_ERR_STRIDE, "slice stride");
    EXPECT(wk_voxel_set_box(b, INT32_MAX - 5, 0, 0, nx, ny, nz, v, stride, slice) == WK_ERR_OVERFLOW, "overflow");
    EXPECT(wk_voxel_set_box(b, 0, 0, 0, nx, ny, nz, NULL, stride, slice) == WK_ERR_NULL, "NULL v");
    EXPECT(wk_voxel_set_box(NULL, 0, 0, 0, nx, ny, nz, v, stride, slice) == WK_ERR_NULL, "NULL w");
    EXPECT(wk_voxel_set_box(b, 0, 0, 0, 0, ny, nz, NULL, 0, 0) == WK_OK, "empty box");
    wk_voxel_world_stats(b, &after);
    EXPECT(before.solid_blocks == after.solid_blocks && before.bricks == after.bricks, "failed set_box changed world");
    free(v);
    wk_voxel_world_destroy(a);
    wk_voxel_world_destroy(b);
    return fails;
}

int wk_check_voxel_set_terrain(void) {
    int fails = 0;
    wk_voxel_world *w = new_world();
    /* bricks and solids above and below that the terrain overwrites */
    wk_rng rng = {61};
    for (int i = 0; i < 200; i++)
        wk_voxel_set_sub(w, -30 + (int32_t)(wk_rng_u64(&rng) % 60), -5 + (int32_t)(wk_rng_u64(&rng) % 50),
                         -20 + (int32_t)(wk_rng_u64(&rng) % 40), random_mask(&rng));
    wk_fbm f = WK_FBM_DEFAULTS;
    f.frequency = 1.0 / 16;
    const int32_t x0 = -27, z0 = -13, y0 = -3;
    const uint32_t nx = 45, nz = 33, ny = 41;
    EXPECT(wk_voxel_set_terrain(w, &f, x0, z0, nx, nz, y0, ny, 15.0f, 20.0f, NULL) == WK_OK, "set_terrain: %s",
           wk_last_error_detail());
    float *h = malloc(nx * nz * sizeof(float));
    wk_grid2 g = {x0, z0, nx, nz, 1.0, nx, {0, 0}};
    EXPECT(wk_noise_fbm2_grid(&f, &g, h, NULL) == WK_OK, "fbm");
    int solid_seen = 0, empty_seen = 0;
    for (uint32_t k = 0; k < nz; k++)
        for (uint32_t i = 0; i < nx; i++) {
            float top = 15.0f + 20.0f * h[k * nx + i];
            for (uint32_t j = 0; j < ny; j++) {
                int32_t y = y0 + (int32_t)j;
                uint64_t m = 1;
                wk_voxel_get_block(w, x0 + (int32_t)i, y, z0 + (int32_t)k, &m);
                uint64_t expect = (float)y < top ? WK_VOXEL_FULL : 0;
                solid_seen += expect != 0;
                empty_seen += expect == 0;
                EXPECT(m == expect, "terrain block (%d, %d, %d): %llx, height %g", x0 + (int32_t)i, y, z0 + (int32_t)k,
                       (unsigned long long)m, top);
            }
        }
    EXPECT(solid_seen > 1000 && empty_seen > 1000, "terrain too flat: %d solid, %d empty", solid_seen, empty_seen);
    /* the counts agree with the blocks (every block ever set lies in this region) */
    uint64_t solid = 0, bricks = 0;
    for (int32_t z = -20; z < 20; z++)
        for (int32_t y = -5; y < 45; y++)
            for (int32_t x = -30; x < 30; x++) {
                uint64_t m = 0;
                wk_voxel_get_block(w, x, y, z, &m);
                solid += m == WK_VOXEL_FULL;
                bricks += m != 0 && m != WK_VOXEL_FULL;
            }
    wk_voxel_stats st;
    EXPECT(wk_voxel_world_stats(w, &st) == WK_OK && st.solid_blocks == solid && st.bricks == bricks,
           "stats after set_terrain: %llu solid, %llu bricks; the blocks: %llu, %llu",
           (unsigned long long)st.solid_blocks, (unsigned long long)st.bricks, (unsigned long long)solid,
           (unsigned long long)bricks);
    /* heights past 2^24, where (float)y rounds: the same test decides */
    const int32_t y_big = (1 << 24) - 24;
    EXPECT(wk_voxel_set_terrain(w, &f, 0, 0, 6, 6, y_big, 48, 16777216.0f, 40.0f, NULL) == WK_OK,
           "set_terrain past 2^24: %s", wk_last_error_detail());
    wk_grid2 g_big = {0, 0, 6, 6, 1.0, 6, {0, 0}};
    EXPECT(wk_noise_fbm2_grid(&f, &g_big, h, NULL) == WK_OK, "fbm");
    for (int32_t z = 0; z < 6; z++)
        for (int32_t x = 0; x < 6; x++)
            for (int32_t y = y_big; y < y_big + 48; y++) {
                const float top = 16777216.0f + 40.0f * h[z * 6 + x];
                uint64_t m = 1;
                wk_voxel_get_block(w, x, y, z, &m);
                EXPECT(m == ((float)y < top ? WK_VOXEL_FULL : 0), "block (%d, %d, %d) past 2^24: %llx, height %.1f",
                       x, y, z, (unsigned long long)m, top);
            }
    f.octaves = 0;
    EXPECT(wk_voxel_set_terrain(w, &f, 0, 0, 4, 4, 0, 4, 0, 1, NULL) == WK_ERR_INVALID_ARG, "bad fbm");
    f.octaves = 3;
    EXPECT(wk_voxel_set_terrain(w, &f, 0, 0, 4, 4, 0, 4, NAN, 1, NULL) == WK_ERR_NOT_FINITE, "NaN base");
    EXPECT(wk_voxel_set_terrain(w, NULL, 0, 0, 4, 4, 0, 4, 0, 1, NULL) == WK_ERR_NULL, "NULL f");
    EXPECT(wk_voxel_set_terrain(w, &f, 0, INT32_MAX, 4, 4, 0, 4, 0, 1, NULL) == WK_ERR_OVERFLOW, "overflow");
    /* 2^61 columns: the heights and runs (8 bytes a column) would wrap size_t to 0 on 64-bit */
    if (sizeof(size_t) == 8)
        EXPECT(wk_voxel_set_terrain(w, &f, INT32_MIN, INT32_MIN, 1u << 31, 1u << 30, 0, 4, 0, 1, NULL) ==
                   WK_ERR_OVERFLOW,
               "2^61 columns: %s", wk_last_error_detail());
    EXPECT(wk_voxel_set_terrain(w, &f, 0, 0, 0, 4, 0, 4, 0, 1, NULL) == WK_OK, "empty");
    free(h);
    wk_voxel_world_destroy(w);
    return fails;
}

int wk_check_voxel_camera(void) {
    int fails = 0;
    wk_voxel_camera cam = {{1.5f, 20.25f, -3.0f}, {0.1f, -0.5f, 1.0f}, {1, 0, -0.1f}, {0, 1, 0.5f}, 0.75f, 0.5f, {0}};
    const uint32_t W = 13, H = 7;
    float *o[6];
    for (int a = 0; a < 6; a++) o[a] = malloc(W * H * sizeof(float));
    EXPECT(wk_voxel_camera_rays(&cam, W, H, o[0], o[1], o[2], o[3], o[4], o[5], NULL) == WK_OK, "camera");
    for (uint32_t j = 0; j < H; j++)
        for (uint32_t i = 0; i < W; i++) {
            volatile float u = ((float)i + 0.5f) * (2.0f / (float)W);
            u = (u - 1.0f) * cam.tan_half_fov_x;
            volatile float v = ((float)j + 0.5f) * (2.0f / (float)H);
            v = (1.0f - v) * cam.tan_half_fov_y;
            for (int a = 0; a < 3; a++) {
                volatile float ur = u * cam.right[a], vu = v * cam.up[a];
                volatile float d = cam.forward[a] + ur;
                d = d + vu;
                size_t k = (size_t)j * W + i;
                EXPECT(o[a][k] == cam.pos[a] && wk_bits(o[3 + a][k]) == wk_bits(d), "camera ray (%u, %u) axis %d", i,
                       j, a);
            }
        }
    cam.tan_half_fov_x = NAN;
    EXPECT(wk_voxel_camera_rays(&cam, W, H, o[0], o[1], o[2], o[3], o[4], o[5], NULL) == WK_ERR_NOT_FINITE, "NaN fov");
    cam.tan_half_fov_x = 1;
    cam.reserved[1] = 1;
    EXPECT(wk_voxel_camera_rays(&cam, W, H, o[0], o[1], o[2], o[3], o[4], o[5], NULL) == WK_ERR_INVALID_ARG, "reserved");
    cam.reserved[1] = 0;
    EXPECT(wk_voxel_camera_rays(&cam, W, H, o[0], o[0], o[2], o[3], o[4], o[5], NULL) == WK_ERR_ALIAS, "alias");
    EXPECT(wk_voxel_camera_rays(NULL, W, H, o[0], o[1], o[2], o[3], o[4], o[5], NULL) == WK_ERR_NULL, "NULL cam");
    for (int a = 0; a < 6; a++) free(o[a]);
    return fails;
}

/* ----------------------------------------------------------- allocator */

typedef struct counting {
    long long live_bytes, allocs, fail_after; /* fail_after < 0: never */
} counting;

static void *count_alloc(void *user, size_t bytes) {
    counting *c = user;
    if (c->fail_after >= 0 && c->allocs >= c->fail_after) return NULL;
    c->allocs++;
    c->live_bytes += (long long)bytes;
    return malloc(bytes);
}
static void count_free(void *user, void *p, size_t bytes) {
    counting *c = user;
    c->live_bytes -= (long long)bytes;
    free(p);
}

/* Hooks that break the allocator contract on purpose while `skew` is set,
 * handing out memory 4 bytes past an 8-aligned block: a chunk at such an
 * address cannot go into a directory word, so the edit fails as out of
 * memory. */
typedef struct skewing {
    counting count;
    int skew;
} skewing;

static void *skew_alloc(void *user, size_t bytes) {
    skewing *k = user;
    char *p = count_alloc(&k->count, bytes + 8);
    return p && k->skew ? p + 4 : p;
}
static void skew_free(void *user, void *p, size_t bytes) {
    skewing *k = user;
    count_free(&k->count, (uintptr_t)p & 7 ? (char *)p - 4 : p, bytes + 8);
}

static int misaligned_chunk(void) {
    int fails = 0;
    skewing k = {{0, 0, -1}, 0};
    wk_allocator hooks = {skew_alloc, skew_free, &k, {0, 0}};
    wk_voxel_world *w = NULL;
    EXPECT(wk_voxel_world_create(&w, &hooks) == WK_OK, "create with skewing hooks");
    k.skew = 1;
    EXPECT(wk_voxel_set_block(w, 3, 4, 5, 1) == WK_ERR_NO_MEMORY, "misaligned chunk refused");
    uint64_t m = 1;
    EXPECT(wk_voxel_get_block(w, 3, 4, 5, &m) == WK_OK && m == 0, "refused edit left the block empty");
    k.skew = 0;
    EXPECT(wk_voxel_set_block(w, 3, 4, 5, 1) == WK_OK, "aligned chunk taken");
    EXPECT(wk_voxel_get_block(w, 3, 4, 5, &m) == WK_OK && m == ~(uint64_t)0, "block set");
    wk_voxel_world_destroy(w);
    EXPECT(k.count.live_bytes == 0, "destroy left %lld bytes", k.count.live_bytes);
    return fails;
}

int wk_check_voxel_allocator(void) {
    int fails = 0;
    counting c = {0, 0, -1};
    wk_allocator hooks = {count_alloc, count_free, &c, {0, 0}};
    wk_voxel_world *w = NULL;
    EXPECT(wk_voxel_world_create(&w, &hooks) == WK_OK, "create with hooks");
    wk_rng rng = {51};
    for (int i = 0; i < 3000; i++)
        EXPECT(wk_voxel_set_sub(w, (int32_t)(wk_rng_u64(&rng) % 200) - 100, (int32_t)(wk_rng_u64(&rng) % 50),
                                (int32_t)(wk_rng_u64(&rng) % 200) - 100, random_mask(&rng)) == WK_OK,
               "set_sub");
    wk_voxel_stats st;
    EXPECT(wk_voxel_world_stats(w, &st) == WK_OK, "stats");
    EXPECT((long long)st.bytes == c.live_bytes, "stats.bytes %llu, hooks hold %lld", (unsigned long long)st.bytes,
           c.live_bytes);
    /* every allocation failing from now: edits that need memory fail, the world unchanged */
    c.fail_after = c.allocs;
    dense_world probe = dense_new(-100, 0, -100, 200, 50, 200);
    uint64_t before_hash = 0;
    for (int32_t z = -100; z < 100; z += 3)
        for (int32_t y = 0; y < 50; y += 2)
            for (int32_t x = -100; x < 100; x += 3) {
                uint64_t m = 0;
                wk_voxel_get_block(w, x, y, z, &m);
                before_hash = before_hash * 31 + m;
            }
    int nomem = 0;
    for (int i = 0; i < 2000; i++) {
        int32_t x = (int32_t)(wk_rng_u64(&rng) % 100000) - 50000, y = (int32_t)(wk_rng_u64(&rng) % 50),
                z = (int32_t)(wk_rng_u64(&rng) % 200) - 100;
        uint64_t old = 0;
        wk_voxel_get_block(w, x, y, z, &old);
        wk_status s = wk_voxel_set_sub(w, x, y, z, 0x00F0F0F000000001ull);
        if (s == WK_ERR_NO_MEMORY) {
            nomem++;
            EXPECT(strstr(wk_last_error_detail(), "failed") != NULL, "detail: %s", wk_last_error_detail());
            uint64_t now = 1;
            wk_voxel_get_block(w, x, y, z, &now);
            EXPECT(now == old, "failed edit changed the block");
        } else {
            EXPECT(s == WK_OK, "set_sub status %d", s);
            /* undo so the hash below compares */
            wk_voxel_set_sub(w, x, y, z, old);
        }
    }
    EXPECT(nomem > 0, "no allocation failure seen");
    uint64_t after_hash = 0;
    for (int32_t z = -100; z < 100; z += 3)
        for (int32_t y = 0; y < 50; y += 2)
            for (int32_t x = -100; x < 100; x += 3) {
                uint64_t m = 0;
                wk_voxel_get_block(w, x, y, z, &m);
                after_hash = after_hash * 31 + m;
            }
    EXPECT(before_hash == after_hash, "world changed by failed edits");
    dense_free(&probe);
    wk_voxel_world_destroy(w);
    EXPECT(c.live_bytes == 0, "destroy left %lld bytes", c.live_bytes);
    /* create failing */
    counting c2 = {0, 0, 0};
    wk_allocator h2 = {count_alloc, count_free, &c2, {0, 0}};
    wk_voxel_world *w2 = (wk_voxel_world *)&c2;
    EXPECT(wk_voxel_world_create(&w2, &h2) == WK_ERR_NO_MEMORY && w2 == NULL, "create: no memory");
    c2.fail_after = 1;
    EXPECT(wk_voxel_world_create(&w2, &h2) == WK_ERR_NO_MEMORY && w2 == NULL && c2.live_bytes == 0,
           "create: table no memory");
    wk_allocator h3 = {count_alloc, NULL, &c2, {0, 0}};
    EXPECT(wk_voxel_world_create(&w2, &h3) == WK_ERR_INVALID_ARG, "one hook");
    wk_allocator h4 = {NULL, NULL, NULL, {0, 1}};
    EXPECT(wk_voxel_world_create(&w2, &h4) == WK_ERR_INVALID_ARG, "reserved");
    EXPECT(wk_voxel_world_create(NULL, NULL) == WK_ERR_NULL, "NULL w");
    wk_voxel_world_destroy(NULL);
    fails += misaligned_chunk();
    return fails;
}

/* ----------------------------------------------------------- bad input */

int wk_check_voxel_bad_input(void) {
    int fails = 0;
    wk_voxel_world *w = new_world();
    wk_voxel_set_block(w, 0, 0, 0, 1);
    ray_set r = rays_new(8);
    for (size_t i = 0; i < 8; i++) ray_put(&r, i, 0.5f, 3.5f, 0.5f, 0, -1, 0, INFINITY);
    memset(r.face, 0x55, 8);
    memset(r.t, 0x55, 32);
    wk_rays rays = {r.o[0], r.o[1], r.o[2], r.d[0], r.d[1], r.d[2], NULL, 8, {0}};
    wk_hits hits = {r.t, r.x, r.y, r.z, r.sub, r.face, {0}};
    EXPECT(wk_voxel_raycast(NULL, &rays, &hits, NULL) == WK_ERR_NULL, "NULL w");
    EXPECT(wk_voxel_raycast(w, NULL, &hits, NULL) == WK_ERR_NULL, "NULL r");
    EXPECT(wk_voxel_raycast(w, &rays, NULL, NULL) == WK_ERR_NULL, "NULL h");
    rays.reserved[3] = 1;
    EXPECT(wk_voxel_raycast(w, &rays, &hits, NULL) == WK_ERR_INVALID_ARG, "rays reserved");
    rays.reserved[3] = 0;
    hits.reserved[0] = 1;
    EXPECT(wk_voxel_raycast(w, &rays, &hits, NULL) == WK_ERR_INVALID_ARG, "hits reserved");
    hits.reserved[0] = 0;
    rays.oy = NULL;
    EXPECT(wk_voxel_raycast(w, &rays, &hits, NULL) == WK_ERR_NULL, "NULL oy");
    rays.oy = r.o[1];
    hits.sub = NULL;
    EXPECT(wk_voxel_raycast(w, &rays, &hits, NULL) == WK_ERR_NULL, "NULL sub");
    hits.sub = r.sub;
    rays.n = SIZE_MAX / 2;
    EXPECT(wk_voxel_raycast(w, &rays, &hits, NULL) == WK_ERR_OVERFLOW, "n overflow");
    rays.n = 8;
    hits.x = (int32_t *)(void *)(r.t + 2);
    EXPECT(wk_voxel_raycast(w, &rays, &hits, NULL) == WK_ERR_ALIAS, "t overlaps x");
    hits.x = r.x;
    hits.t = r.o[0];
    EXPECT(wk_voxel_raycast(w, &rays, &hits, NULL) == WK_ERR_ALIAS, "t is ox");
    hits.t = r.t;
    wk_exec bad = WK_EXEC_DEFAULTS;
    bad.threads = -1;
    EXPECT(wk_voxel_raycast(w, &rays, &hits, &bad) == WK_ERR_INVALID_ARG, "bad exec");
    for (size_t i = 0; i < 8; i++) EXPECT(r.face[i] == 0x55 && wk_bits(r.t[i]) == 0x55555555u, "outputs touched");
    /* n = 0 with NULL arrays is a no-op */
    wk_rays empty = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, {0}};
    wk_hits none = {NULL, NULL, NULL, NULL, NULL, NULL, {0}};
    EXPECT(wk_voxel_raycast(w, &empty, &none, NULL) == WK_OK, "n = 0");
    /* then a good call */
    EXPECT(wk_voxel_raycast(w, &rays, &hits, NULL) == WK_OK, "good call: %s", wk_last_error_detail());
    EXPECT(r.face[0] == 3 && r.t[0] == 2.5f, "good call result face %d t %g", r.face[0], r.t[0]);
    /* an empty world: no hits */
    wk_voxel_world *e = new_world();
    EXPECT(wk_voxel_raycast(e, &rays, &hits, NULL) == WK_OK && r.face[0] == -1, "empty world");
    wk_voxel_world_destroy(e);
    /* edits and queries */
    EXPECT(wk_voxel_set_block(NULL, 0, 0, 0, 1) == WK_ERR_NULL, "set_block NULL");
    EXPECT(wk_voxel_set_sub(NULL, 0, 0, 0, 1) == WK_ERR_NULL, "set_sub NULL");
    uint64_t m;
    EXPECT(wk_voxel_get_block(w, 0, 0, 0, NULL) == WK_ERR_NULL, "get_block NULL");
    EXPECT(wk_voxel_get_block(NULL, 0, 0, 0, &m) == WK_ERR_NULL, "get_block NULL w");
    EXPECT(wk_voxel_world_stats(w, NULL) == WK_ERR_NULL, "stats NULL");
    uint8_t vis[8];
    memset(vis, 7, 8);
    EXPECT(wk_voxel_segments(w, r.o[0], r.o[1], r.o[2], r.d[0], NULL, r.d[2], 8, vis, NULL) == WK_ERR_NULL,
           "segments NULL");
    EXPECT(wk_voxel_segments(w, r.o[0], r.o[1], r.o[2], r.d[0], r.d[1], r.d[2], 8, (uint8_t *)r.o[1], NULL) ==
               WK_ERR_ALIAS,
           "segments alias");
    r.d[1][3] = INFINITY;
    EXPECT(wk_voxel_segments(w, r.o[0], r.o[1], r.o[2], r.d[0], r.d[1], r.d[2], 8, vis, NULL) == WK_ERR_NOT_FINITE,
           "segments inf");
    r.d[1][3] = 3e9f;
    EXPECT(wk_voxel_segments(w, r.o[0], r.o[1], r.o[2], r.d[0], r.d[1], r.d[2], 8, vis, NULL) == WK_ERR_OVERFLOW,
           "segments 3e9");
    for (int i = 0; i < 8; i++) EXPECT(vis[i] == 7, "segments output touched");
    EXPECT(wk_voxel_query_points(w, r.o[0], r.o[1], NULL, 8, vis, NULL, NULL) == WK_ERR_NULL, "points NULL");
    r.o[2][1] = -INFINITY;
    EXPECT(wk_voxel_query_points(w, r.o[0], r.o[1], r.o[2], 8, vis, NULL, NULL) == WK_ERR_NOT_FINITE, "points inf");
    for (int i = 0; i < 8; i++) EXPECT(vis[i] == 7, "points output touched");
    rays_free(&r);
    wk_voxel_world_destroy(w);
    return fails;
}
