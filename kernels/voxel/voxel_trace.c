/* The exact traversal shared by the ray cast and segment queries.
 *
 * Cells are sub-voxels (1/4 block), indexed by int64 q per axis. The walk
 * is the double Amanatides-Woo walk: events are plane crossings, the plane
 * at lattice coordinate P of axis a crossed at s = (P / 4 - o_a) / d_a,
 * ordered by the key (s, a). The state after any event K is, on each
 * axis, the cell reached by crossing exactly the planes whose key is <= K
 * (plane times are monotone along the direction of travel, so that is a
 * prefix). Empty nodes (a chunk of 64^3 cells, a group of 16^3, a block of
 * 4^3) are left in one jump: the first of their exit planes (key order) is
 * the event, and every other axis is brought to the state after it by an
 * estimate fixed up with exact key comparisons. That is the state the
 * cell-by-cell walk reaches at the same event, and no solid cell lies in
 * between, so the first solid cell is the one the plain walk finds. */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "voxel_impl.h"

/* s of the plane at lattice coordinate P on an axis with origin o and
 * direction d (d != 0). */
static inline double plane_s(int64_t P, double o, double d) { return ((double)P * 0.25 - o) / d; }

/* Key (s, a) before or equal to (ks, ka)? */
static inline int key_le(double s, int a, double ks, int ka) { return s < ks || (s == ks && a <= ka); }

/* Brings axis b from cell q (whose next plane is crossed by key K =
 * (ks, ka), so the result moves) to the cell after every crossing with
 * key <= K, moving no further than lim. *tn gets the s of the next plane
 * of the result. */
static int64_t advance(int64_t q, int step, int b, double o, double d, double ks, int ka, int64_t lim,
                       double *tn) {
    int64_t first = q + step;
    double e = floor((o + ks * d) * 4.0);
    int64_t c;
    if (step > 0) {
        if (!(e >= (double)first)) c = first;
        else if (e >= (double)lim) c = lim;
        else c = (int64_t)e;
    } else {
        if (!(e <= (double)first)) c = first;
        else if (e <= (double)lim) c = lim;
        else c = (int64_t)e;
    }
    /* Back while the plane entering c is not crossed. */
    int known = 0;
    while (c != first) {
        int64_t P = step > 0 ? c : c + 1;
        double se = plane_s(P, o, d);
        if (key_le(se, b, ks, ka)) break;
        c -= step;
        *tn = se;
        known = 1;
    }
    if (known) return c;
    /* Forward while the plane leaving c is crossed. */
    for (;;) {
        int64_t P = step > 0 ? c + 1 : c;
        double sn = plane_s(P, o, d);
        if (c == lim || !key_le(sn, b, ks, ka)) {
            *tn = sn;
            return c;
        }
        c += step;
    }
}

int wk__voxel_trace(const struct wk_voxel_world *w, const wk__vray *ray, wk__vhit *hit) {
    const double *o = ray->o, *d = ray->d;
    const double limit = ray->limit;
    if (!(limit >= 0)) return 0;
    if (!w->has_bounds) return 0;
    const double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    int64_t q[3], LO[3], HI[3];
    int step[3];
    double tq[3];
    for (int a = 0; a < 3; a++) {
        q[a] = (int64_t)floor(o[a] * 4.0);
        step[a] = d[a] > 0 ? 1 : d[a] < 0 ? -1 : 0;
        tq[a] = step[a] ? plane_s(step[a] > 0 ? q[a] + 1 : q[a], o[a], d[a]) : INFINITY;
        LO[a] = (int64_t)w->lo[a] * 64;
        HI[a] = ((int64_t)w->hi[a] + 1) * 64;
    }
    double ks = 0.0; /* s of the last event (0: the start) */
    int face = 6;
    const wk__vchunk *chunk = NULL;
    int64_t ccx = 0, ccy = 0, ccz = 0;
    int have_chunk = 0;
    for (;;) {
        int outside = 0;
        for (int a = 0; a < 3; a++) {
            if (q[a] < LO[a]) {
                if (step[a] <= 0) return 0;
                outside = 1;
            } else if (q[a] >= HI[a]) {
                if (step[a] >= 0) return 0;
                outside = 1;
            }
        }
        int64_t N;
        if (outside) {
            /* Jump to the latest entry event of the axes outside. */
            double es = -1.0;
            int ea = -1;
            int64_t eP = 0;
            for (int a = 0; a < 3; a++) {
                int64_t P;
                if (q[a] < LO[a]) P = LO[a];
                else if (q[a] >= HI[a]) P = HI[a];
                else continue;
                double s = plane_s(P, o[a], d[a]);
                if (ea < 0 || !key_le(s, a, es, ea)) {
                    es = s;
                    ea = a;
                    eP = P;
                }
            }
            if (ray->limit_in_s ? !(es <= limit) : !(es * len <= limit)) return 0;
            int64_t nq[3];
            double ntq[3];
            for (int b = 0; b < 3; b++) {
                nq[b] = q[b];
                ntq[b] = tq[b];
                if (b == ea) {
                    nq[b] = step[b] > 0 ? eP : eP - 1;
                    ntq[b] = plane_s(step[b] > 0 ? nq[b] + 1 : nq[b], o[b], d[b]);
                } else if (step[b] && key_le(tq[b], b, es, ea)) {
                    /* One past the bounds at most: beyond is a miss anyway. */
                    int64_t lim = step[b] > 0 ? HI[b] : LO[b] - 1;
                    nq[b] = advance(q[b], step[b], b, o[b], d[b], es, ea, lim, &ntq[b]);
                }
            }
            for (int b = 0; b < 3; b++) {
                q[b] = nq[b];
                tq[b] = ntq[b];
            }
            ks = es;
            face = 2 * ea + (step[ea] > 0 ? 0 : 1);
            continue;
        }
        /* Inside the bounds: find the largest empty node around q. */
        int64_t cx = wk__vshr(q[0], 6), cy = wk__vshr(q[1], 6), cz = wk__vshr(q[2], 6);
        if (!have_chunk || cx != ccx || cy != ccy || cz != ccz) {
            chunk = wk__vfind(w, (int32_t)cx, (int32_t)cy, (int32_t)cz);
            ccx = cx;
            ccy = cy;
            ccz = cz;
            have_chunk = 1;
        }
        const uint64_t ux = (uint64_t)q[0], uy = (uint64_t)q[1], uz = (uint64_t)q[2];
        int g = (int)(((ux >> 4) & 3) + 4 * ((uy >> 4) & 3) + 16 * ((uz >> 4) & 3));
        int bb = (int)(((ux >> 2) & 3) + 4 * ((uy >> 2) & 3) + 16 * ((uz >> 2) & 3));
        if (!chunk || !chunk->groups) N = 64;
        else if (!chunk->occ[g]) N = 16;
        else if (!((chunk->occ[g] >> bb) & 1)) N = 4;
        else {
            int sub = -1;
            int solid = 1;
            if ((chunk->brick[g] >> bb) & 1) {
                uint64_t m = chunk->bricks[g][wk__popcount64(chunk->brick[g] & ((1ull << bb) - 1))];
                sub = (int)((ux & 3) + 4 * (uy & 3) + 16 * (uz & 3));
                solid = (int)((m >> sub) & 1);
            }
            if (solid) {
                double t = ks * len + 0.0; /* never -0.0 */
                if (ray->limit_in_s ? !(ks <= limit) : !(t <= limit)) return 0;
                hit->t = (float)t;
                hit->s = ks;
                hit->x = (int32_t)wk__vshr(q[0], 2);
                hit->y = (int32_t)wk__vshr(q[1], 2);
                hit->z = (int32_t)wk__vshr(q[2], 2);
                hit->sub = (int8_t)sub;
                hit->face = (int8_t)face;
                return 1;
            }
            N = 1;
        }
        /* Leave the node of N cells per axis around q: the first exit plane. */
        double es = INFINITY;
        int ea = -1;
        int64_t eP = 0;
        for (int a = 0; a < 3; a++) {
            if (!step[a]) continue;
            int64_t base = (int64_t)((uint64_t)q[a] & ~(uint64_t)(N - 1));
            int64_t P = step[a] > 0 ? base + N : base;
            int64_t next = step[a] > 0 ? q[a] + 1 : q[a];
            double s = P == next ? tq[a] : plane_s(P, o[a], d[a]);
            if (ea < 0 || !key_le(es, ea, s, a)) {
                es = s;
                ea = a;
                eP = P;
            }
        }
        if (ea < 0) return 0;
        if (ray->limit_in_s ? !(es <= limit) : !(es * len <= limit)) return 0;
        for (int b = 0; b < 3; b++) {
            if (b == ea || !step[b] || !key_le(tq[b], b, es, ea)) continue;
            int64_t base = (int64_t)((uint64_t)q[b] & ~(uint64_t)(N - 1));
            int64_t lim = step[b] > 0 ? base + N - 1 : base;
            q[b] = advance(q[b], step[b], b, o[b], d[b], es, ea, lim, &tq[b]);
        }
        q[ea] = step[ea] > 0 ? eP : eP - 1;
        tq[ea] = plane_s(step[ea] > 0 ? q[ea] + 1 : q[ea], o[ea], d[ea]);
        ks = es;
        face = 2 * ea + (step[ea] > 0 ? 0 : 1);
    }
}
