/* The dense reference walk (see voxel_dense.h). */
#include "voxel_dense.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

dense_world dense_new(int32_t x0, int32_t y0, int32_t z0, int32_t nx, int32_t ny, int32_t nz) {
    dense_world d = {x0, y0, z0, nx, ny, nz, NULL};
    d.m = calloc((size_t)nx * ny * nz, sizeof(uint64_t));
    if (!d.m) abort();
    return d;
}

void dense_free(dense_world *d) {
    free(d->m);
    d->m = NULL;
}

static int inside(const dense_world *d, int64_t x, int64_t y, int64_t z) {
    return x >= d->x0 && x < (int64_t)d->x0 + d->nx && y >= d->y0 && y < (int64_t)d->y0 + d->ny && z >= d->z0 &&
           z < (int64_t)d->z0 + d->nz;
}

void dense_set(dense_world *d, int32_t x, int32_t y, int32_t z, uint64_t mask) {
    if (!inside(d, x, y, z)) abort();
    d->m[((size_t)(z - d->z0) * d->ny + (size_t)(y - d->y0)) * d->nx + (size_t)(x - d->x0)] = mask;
}

uint64_t dense_get(const dense_world *d, int64_t x, int64_t y, int64_t z) {
    if (!inside(d, x, y, z)) return 0;
    return d->m[((size_t)(z - d->z0) * d->ny + (size_t)(y - d->y0)) * d->nx + (size_t)(x - d->x0)];
}

/* floor(q / 4) and q mod 4 in plain integer arithmetic */
static int64_t fdiv4(int64_t q) { return q >= 0 ? q / 4 : -((-q + 3) / 4); }

int dense_cell(const dense_world *d, int64_t qx, int64_t qy, int64_t qz) {
    int64_t bx = fdiv4(qx), by = fdiv4(qy), bz = fdiv4(qz);
    uint64_t m = dense_get(d, bx, by, bz);
    int bit = (int)((qx - 4 * bx) + 4 * (qy - 4 * by) + 16 * (qz - 4 * bz));
    return (int)((m >> bit) & 1u);
}

int dense_cast(const dense_world *dw, const float of[3], const float df[3], double limit, int limit_in_s,
               dense_hit *hit) {
    hit->t = INFINITY;
    hit->x = hit->y = hit->z = 0;
    hit->sub = -1;
    hit->face = -1;
    double o[3], d[3];
    for (int a = 0; a < 3; a++) {
        o[a] = of[a];
        d[a] = df[a];
        if (o[a] != o[a] || d[a] != d[a]) return 0;
    }
    if (!(limit >= 0)) return 0;
    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    int64_t q[3];
    for (int a = 0; a < 3; a++) q[a] = (int64_t)floor(o[a] * 4.0);
    const int64_t lo[3] = {4 * (int64_t)dw->x0, 4 * (int64_t)dw->y0, 4 * (int64_t)dw->z0};
    const int64_t hi[3] = {lo[0] + 4 * (int64_t)dw->nx, lo[1] + 4 * (int64_t)dw->ny, lo[2] + 4 * (int64_t)dw->nz};
    double s = 0.0;
    int face = 6;
    for (;;) {
        if (dense_cell(dw, q[0], q[1], q[2])) {
            double t = s * len + 0.0;
            if (limit_in_s ? !(s <= limit) : !(t <= limit)) return 0;
            hit->t = (float)t;
            hit->x = (int32_t)fdiv4(q[0]);
            hit->y = (int32_t)fdiv4(q[1]);
            hit->z = (int32_t)fdiv4(q[2]);
            uint64_t m = dense_get(dw, hit->x, hit->y, hit->z);
            int bit = (int)((q[0] - 4 * (int64_t)hit->x) + 4 * (q[1] - 4 * (int64_t)hit->y) +
                            16 * (q[2] - 4 * (int64_t)hit->z));
            hit->sub = (int8_t)(m == ~(uint64_t)0 ? -1 : bit);
            hit->face = (int8_t)face;
            return 1;
        }
        for (int a = 0; a < 3; a++) {
            if (q[a] < lo[a] && !(d[a] > 0)) return 0;
            if (q[a] >= hi[a] && !(d[a] < 0)) return 0;
        }
        int best = -1;
        double bs = 0.0;
        for (int a = 0; a < 3; a++) {
            if (d[a] == 0) continue;
            int64_t P = d[a] > 0 ? q[a] + 1 : q[a];
            double sa = ((double)P * 0.25 - o[a]) / d[a];
            if (best < 0 || sa < bs) {
                best = a;
                bs = sa;
            }
        }
        if (best < 0) return 0;
        if (limit_in_s ? !(bs <= limit) : !(bs * len <= limit)) return 0;
        q[best] += d[best] > 0 ? 1 : -1;
        s = bs;
        face = 2 * best + (d[best] > 0 ? 0 : 1);
    }
}
