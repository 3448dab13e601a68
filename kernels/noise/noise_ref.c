#include "core/wk_fp_guard.h"

/* Scalar reference of the noise family: plain, obvious C, one point at a
 * time, following Ken Perlin's reference code. Every SIMD path must return
 * exactly these bits. */
#include <math.h>
#include <string.h>

#include "noise_impl.h"
#include "noise_lattice.h"

static float lerp(float t, float a, float b) { return a + t * (b - a); }

static float grad2(uint32_t hash, float x, float y) {
    uint32_t h = hash & 7;
    float u = h < 4 ? x : y;
    float v = h < 4 ? y : x;
    return ((h & 1) ? -u : u) + ((h & 2) ? -v : v);
}

static float grad3(uint32_t hash, float x, float y, float z) {
    uint32_t h = hash & 15;
    float u = h < 8 ? x : y;
    float v = h < 4 ? y : (h == 12 || h == 14) ? x : z;
    return ((h & 1) ? -u : u) + ((h & 2) ? -v : v);
}

/* The reference always derives corners from the keys (wk_corner_index) and
 * ignores the dense-tile tables, so comparing with it checks them too. */

static void accumulate(const wk_octave *o, float n, float *out) {
    if (o->fractal == WK_FRACTAL_RIDGED) n = 1.0f - fabsf(n) * 2.0f;
    else if (o->fractal == WK_FRACTAL_BILLOW) n = fabsf(n) * 2.0f - 1.0f;
    float s = o->first ? o->amp * n : *out + o->amp * n;
    if (o->divide) s = s / o->divisor;
    *out = s;
}

void wk__noise_row2_ref(const wk_row2 *r, const wk_octave *o, size_t n, float *out) {
    for (size_t i = 0; i < n; i++) {
        float g00 = grad2(wk_corner_index(o, r->q0[i], r->y0, 29), r->fx[i], r->fy);
        float g10 = grad2(wk_corner_index(o, r->q1[i], r->y0, 29), r->fx1[i], r->fy);
        float g01 = grad2(wk_corner_index(o, r->q0[i], r->y1, 29), r->fx[i], r->fy1);
        float g11 = grad2(wk_corner_index(o, r->q1[i], r->y1, 29), r->fx1[i], r->fy1);
        float value = lerp(r->v, lerp(r->u[i], g00, g10), lerp(r->u[i], g01, g11));
        accumulate(o, value, &out[i]);
    }
}

void wk__noise_row3_ref(const wk_row3 *r, const wk_octave *o, size_t n, float *out) {
    for (size_t i = 0; i < n; i++) {
        float x0 = r->fx[i], x1 = r->fx1[i], u = r->u[i];
        float g000 = grad3(wk_corner_index(o, r->q00[i], r->z0, 28), x0, r->fy, r->fz);
        float g100 = grad3(wk_corner_index(o, r->q10[i], r->z0, 28), x1, r->fy, r->fz);
        float g010 = grad3(wk_corner_index(o, r->q01[i], r->z0, 28), x0, r->fy1, r->fz);
        float g110 = grad3(wk_corner_index(o, r->q11[i], r->z0, 28), x1, r->fy1, r->fz);
        float g001 = grad3(wk_corner_index(o, r->q00[i], r->z1, 28), x0, r->fy, r->fz1);
        float g101 = grad3(wk_corner_index(o, r->q10[i], r->z1, 28), x1, r->fy, r->fz1);
        float g011 = grad3(wk_corner_index(o, r->q01[i], r->z1, 28), x0, r->fy1, r->fz1);
        float g111 = grad3(wk_corner_index(o, r->q11[i], r->z1, 28), x1, r->fy1, r->fz1);
        float near = lerp(r->v, lerp(u, g000, g100), lerp(u, g010, g110));
        float far = lerp(r->v, lerp(u, g001, g101), lerp(u, g011, g111));
        accumulate(o, lerp(r->w, near, far), &out[i]);
    }
}

/* A tile: its rows one by one (the dense tables are ignored). */
void wk__noise_tile2_ref(const wk_tile2 *t, const wk_octave *o, float *out) {
    for (size_t j = 0; j < t->rows; j++) {
        wk_row2 r = {t->q0, t->q1, t->fx, t->fx1, t->u, t->y0[j], t->y1[j], t->fy[j], t->fy1[j], t->v[j],
                     NULL, NULL, NULL};
        wk__noise_row2_ref(&r, o, t->cols, out + j * t->stride);
    }
}

void wk__noise_tile3_ref(const wk_tile3 *t, const wk_octave *o, float *out) {
    for (size_t s = 0; s < t->slices; s++) {
        wk_row3 r = {t->q00, t->q10, t->q01, t->q11, t->fx, t->fx1, t->u, t->z0[s], t->z1[s], t->fy, t->fy1, t->v,
                     t->fz[s], t->fz1[s], t->w[s], NULL, {NULL, NULL, NULL, NULL}};
        wk__noise_row3_ref(&r, o, t->cols, out + s * t->slice_stride);
    }
}

/* Points: the row formulas with the row's scalars per point. */
void wk__noise_pts2_ref(const wk_pts2 *p, const wk_octave *o, size_t n, float *out) {
    for (size_t i = 0; i < n; i++) {
        float g00 = grad2(wk_corner_index(o, p->q0[i], p->y0[i], 29), p->fx[i], p->fy[i]);
        float g10 = grad2(wk_corner_index(o, p->q1[i], p->y0[i], 29), p->fx1[i], p->fy[i]);
        float g01 = grad2(wk_corner_index(o, p->q0[i], p->y1[i], 29), p->fx[i], p->fy1[i]);
        float g11 = grad2(wk_corner_index(o, p->q1[i], p->y1[i], 29), p->fx1[i], p->fy1[i]);
        float value = lerp(p->v[i], lerp(p->u[i], g00, g10), lerp(p->u[i], g01, g11));
        accumulate(o, value, &out[i]);
    }
}

void wk__noise_pts3_ref(const wk_pts3 *p, const wk_octave *o, size_t n, float *out) {
    for (size_t i = 0; i < n; i++) {
        float x0 = p->fx[i], x1 = p->fx1[i], u = p->u[i], y0 = p->fy[i], y1 = p->fy1[i];
        float z0 = p->fz[i], z1 = p->fz1[i];
        uint32_t k0 = p->z0[i], k1 = p->z1[i];
        float g000 = grad3(wk_corner_index(o, p->q00[i], k0, 28), x0, y0, z0);
        float g100 = grad3(wk_corner_index(o, p->q10[i], k0, 28), x1, y0, z0);
        float g010 = grad3(wk_corner_index(o, p->q01[i], k0, 28), x0, y1, z0);
        float g110 = grad3(wk_corner_index(o, p->q11[i], k0, 28), x1, y1, z0);
        float g001 = grad3(wk_corner_index(o, p->q00[i], k1, 28), x0, y0, z1);
        float g101 = grad3(wk_corner_index(o, p->q10[i], k1, 28), x1, y0, z1);
        float g011 = grad3(wk_corner_index(o, p->q01[i], k1, 28), x0, y1, z1);
        float g111 = grad3(wk_corner_index(o, p->q11[i], k1, 28), x1, y1, z1);
        float near = lerp(p->v[i], lerp(u, g000, g100), lerp(u, g010, g110));
        float far = lerp(p->v[i], lerp(u, g001, g101), lerp(u, g011, g111));
        accumulate(o, lerp(p->w[i], near, far), &out[i]);
    }
}

/* d/dx and d/dy of a 2D gradient value: the signs of its x and y terms. */
static float grad2_dx(uint32_t hash) {
    uint32_t h = hash & 7;
    return (h < 4 ? (h & 1) : (h & 2)) ? -1.0f : 1.0f;
}

static float grad2_dy(uint32_t hash) {
    uint32_t h = hash & 7;
    return (h < 4 ? (h & 2) : (h & 1)) ? -1.0f : 1.0f;
}

void wk__noise_row2d_ref(const wk_row2d *d, const wk_octave *o, size_t n, float *value,
                        float *ddx, float *ddy) {
    const wk_row2 *r = &d->r;
    for (size_t i = 0; i < n; i++) {
        uint32_t h00 = wk_corner_index(o, r->q0[i], r->y0, 29), h10 = wk_corner_index(o, r->q1[i], r->y0, 29);
        uint32_t h01 = wk_corner_index(o, r->q0[i], r->y1, 29), h11 = wk_corner_index(o, r->q1[i], r->y1, 29);
        float g00 = grad2(h00, r->fx[i], r->fy), g10 = grad2(h10, r->fx1[i], r->fy);
        float g01 = grad2(h01, r->fx[i], r->fy1), g11 = grad2(h11, r->fx1[i], r->fy1);
        float u = r->u[i], du = d->du[i];
        float a = lerp(u, g00, g10), b = lerp(u, g01, g11);
        /* Product rule on lerp(u, g0, g1) = g0 + u (g1 - g0). */
        float ax = lerp(u, grad2_dx(h00), grad2_dx(h10)) + du * (g10 - g00);
        float bx = lerp(u, grad2_dx(h01), grad2_dx(h11)) + du * (g11 - g01);
        float ay = lerp(u, grad2_dy(h00), grad2_dy(h10));
        float by = lerp(u, grad2_dy(h01), grad2_dy(h11));
        accumulate(o, lerp(r->v, a, b), &value[i]);
        accumulate(o, lerp(r->v, ax, bx) * d->sx, &ddx[i]);
        accumulate(o, (lerp(r->v, ay, by) + d->dv * (b - a)) * d->sy, &ddy[i]);
    }
}

/* Partial derivatives of a 3D gradient value: +-1 for the axes it uses
 * (u signed by bit 0, v by bit 1), +0 for the one it does not. */
static float grad3_dx(uint32_t hash) {
    uint32_t h = hash & 15;
    if (h < 8) return (h & 1) ? -1.0f : 1.0f;      /* u = x */
    if (h == 12 || h == 14) return (h & 2) ? -1.0f : 1.0f; /* v = x */
    return 0.0f;
}

static float grad3_dy(uint32_t hash) {
    uint32_t h = hash & 15;
    if (h >= 8) return (h & 1) ? -1.0f : 1.0f;     /* u = y */
    if (h < 4) return (h & 2) ? -1.0f : 1.0f;      /* v = y */
    return 0.0f;
}

static float grad3_dz(uint32_t hash) {
    uint32_t h = hash & 15;
    if (h >= 4 && h != 12 && h != 14) return (h & 2) ? -1.0f : 1.0f; /* v = z */
    return 0.0f;
}

void wk__noise_row3d_ref(const wk_row3d *d, const wk_octave *o, size_t n, float *value, float *ddx, float *ddy,
                        float *ddz) {
    const wk_row3 *r = &d->r;
    for (size_t i = 0; i < n; i++) {
        const uint32_t q[4] = {r->q00[i], r->q10[i], r->q01[i], r->q11[i]};
        float x[2] = {r->fx[i], r->fx1[i]}, y[2] = {r->fy, r->fy1}, z[2] = {r->fz, r->fz1};
        float g[8], gx[8], gy[8], gz[8];
        for (int c = 0; c < 8; c++) { /* corner a + 2 b + 4 d */
            uint32_t h = wk_corner_index(o, q[c & 3], c & 4 ? r->z1 : r->z0, 28);
            g[c] = grad3(h, x[c & 1], y[(c >> 1) & 1], z[c >> 2]);
            gx[c] = grad3_dx(h), gy[c] = grad3_dy(h), gz[c] = grad3_dz(h);
        }
        float u = r->u[i], du = d->du[i], a[4], ax[4], ay[4], az[4];
        for (int e = 0; e < 4; e++) { /* edge along x at (b, d) = (e & 1, e >> 1) */
            a[e] = lerp(u, g[2 * e], g[2 * e + 1]);
            /* product rule on lerp(u, g0, g1) = g0 + u (g1 - g0) */
            ax[e] = lerp(u, gx[2 * e], gx[2 * e + 1]) + du * (g[2 * e + 1] - g[2 * e]);
            ay[e] = lerp(u, gy[2 * e], gy[2 * e + 1]);
            az[e] = lerp(u, gz[2 * e], gz[2 * e + 1]);
        }
        float near = lerp(r->v, a[0], a[1]), far = lerp(r->v, a[2], a[3]);
        float nx = lerp(r->v, ax[0], ax[1]), fx = lerp(r->v, ax[2], ax[3]);
        float ny = lerp(r->v, ay[0], ay[1]) + d->dv * (a[1] - a[0]);
        float fy = lerp(r->v, ay[2], ay[3]) + d->dv * (a[3] - a[2]);
        float nz = lerp(r->v, az[0], az[1]), fz = lerp(r->v, az[2], az[3]);
        accumulate(o, lerp(r->w, near, far), &value[i]);
        accumulate(o, lerp(r->w, nx, fx) * d->sx, &ddx[i]);
        accumulate(o, lerp(r->w, ny, fy) * d->sy, &ddy[i]);
        accumulate(o, (lerp(r->w, nz, fz) + d->dw * (far - near)) * d->sz, &ddz[i]);
    }
}

/* Lattice cell of a float coordinate reduced mod 256, and its fraction.
 * Exact for every finite float: floor, the scaling by 1/256 and 256, and the
 * difference of two integers below 2^24 apart are all exact in float. */
static uint32_t cell_and_fraction(float x, float *frac) {
    float cell = floorf(x);
    float cell_mod = cell - 256.0f * floorf(cell * (1.0f / 256.0f));
    *frac = x - cell;
    /* NaN and infinity fail the test; their output becomes NaN anyway. */
    return (cell_mod >= 0.0f && cell_mod < 256.0f) ? (uint32_t)cell_mod : 0;
}

static float canonical_nan_if(float v) {
    if (v != v) {
        uint32_t bits = WK_CANONICAL_NAN_BITS;
        memcpy(&v, &bits, sizeof v);
    }
    return v;
}

void wk__perlin2_ref(const float *xs, const float *ys, size_t n, const wk_perm *perm,
                    float *out) {
    const uint8_t *p = perm->p;
    for (size_t i = 0; i < n; i++) {
        float x, y;
        uint32_t X = cell_and_fraction(xs[i], &x), Y = cell_and_fraction(ys[i], &y);
        float u = wk_fade(x), v = wk_fade(y);
        uint32_t A = p[X], B = p[(X + 1) & 255];
        float x1 = x - 1.0f, y1 = y - 1.0f;
        float value = lerp(v, lerp(u, grad2(p[(A + Y) & 255], x, y), grad2(p[(B + Y) & 255], x1, y)),
                           lerp(u, grad2(p[(A + Y + 1) & 255], x, y1),
                                grad2(p[(B + Y + 1) & 255], x1, y1)));
        out[i] = canonical_nan_if(value);
    }
}

void wk__perlin3_ref(const float *xs, const float *ys, const float *zs, size_t n,
                    const wk_perm *perm, float *out) {
    const uint8_t *p = perm->p;
    for (size_t i = 0; i < n; i++) {
        float x, y, z;
        uint32_t X = cell_and_fraction(xs[i], &x), Y = cell_and_fraction(ys[i], &y);
        uint32_t Z = cell_and_fraction(zs[i], &z);
        float u = wk_fade(x), v = wk_fade(y), w = wk_fade(z);
        float x1 = x - 1.0f, y1 = y - 1.0f, z1 = z - 1.0f;
        uint32_t A = p[X] + Y, AA = p[A & 255] + Z, AB = p[(A + 1) & 255] + Z;
        uint32_t B = p[(X + 1) & 255] + Y, BA = p[B & 255] + Z, BB = p[(B + 1) & 255] + Z;
        float near = lerp(v, lerp(u, grad3(p[AA & 255], x, y, z), grad3(p[BA & 255], x1, y, z)),
                          lerp(u, grad3(p[AB & 255], x, y1, z), grad3(p[BB & 255], x1, y1, z)));
        float far = lerp(v,
                         lerp(u, grad3(p[(AA + 1) & 255], x, y, z1),
                              grad3(p[(BA + 1) & 255], x1, y, z1)),
                         lerp(u, grad3(p[(AB + 1) & 255], x, y1, z1),
                              grad3(p[(BB + 1) & 255], x1, y1, z1)));
        out[i] = canonical_nan_if(lerp(w, near, far));
    }
}


/* Points' lattice setup: the shared C of noise_lattice.h, compiled here. */
void wk__noise_coords_ref(const double *pos, size_t n, double freq, uint32_t lattice, uint32_t seed, unsigned axis,
        const uint8_t *perm, uint32_t *key0, uint32_t *key1, float *frac, float *frac1, float *fade) {
    wk__coords_impl(pos, n, freq, lattice, seed, axis, perm, key0, key1, frac, frac1, fade);
}


void wk__noise_grid_coords_ref(int64_t origin, size_t count, double step, double freq, uint32_t lattice, uint32_t seed,
        unsigned axis, int64_t *cells, uint32_t *key0, uint32_t *key1, float *frac, float *frac1, float *fade,
        float *dfade) {
    wk__grid_coords_impl(origin, count, step, freq, lattice, seed, axis, cells, key0, key1, frac, frac1, fade, dfade);
}

const wk__noise_kernels wk__noise_kernels_ref = {
    .row2 = wk__noise_row2_ref,
    .row3 = wk__noise_row3_ref,
    .row2d = wk__noise_row2d_ref,
    .perlin2 = wk__perlin2_ref,
    .perlin3 = wk__perlin3_ref,
    .pts2 = wk__noise_pts2_ref,
    .pts3 = wk__noise_pts3_ref,
    .tile2 = wk__noise_tile2_ref,
    .tile3 = wk__noise_tile3_ref,
    .row3d = wk__noise_row3d_ref,
    .coords = wk__noise_coords_ref,
    .grid_coords = wk__noise_grid_coords_ref,
};
