/* The exact traversal shared by the ray cast and segment queries.
 *
 * Cells are sub-voxels (1/4 block), indexed by int64 q per axis. The walk
 * is the double Amanatides-Woo walk: events are plane crossings, the plane
 * at lattice coordinate P of axis a crossed at s = (P / 4 - o_a) / d_a,
 * ordered by the key (s, a). The state after any event K is, on each
 * axis, the cell reached by crossing exactly the planes whose key is <= K
 * (plane times are monotone along the direction of travel, so that is a
 * prefix). Empty nodes (an aligned 2^3 block of chunks, a chunk of 64^3
 * cells, a group of 16^3, a block of 4^3, aligned pairs of groups and of
 * blocks) are left in one jump: the first of their exit planes (key
 * order) is the event, and every other axis is brought to the state after it. That
 * is the state the cell-by-cell walk reaches at the same event, and no
 * solid cell lies in between, so the first solid cell is the one the plain
 * walk finds.
 *
 * Speed without giving up exactness: divisions are few. The exit plane is
 * chosen with estimates num * (1 / d), whose relative error against the
 * exact quotient is below 4 ulp; only candidates within 2^-46 of each
 * other are compared by their exact quotients. The other axes' cells come
 * from the position o + s * d, accepted when it lies clearly inside a cell
 * (further than the rounding bound from both of its planes) and otherwise
 * found by exact key comparisons. */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "voxel_impl.h"

#ifdef WK_VOXEL_STATS
long wk__vstat[4];
#define STAT(i) (wk__vstat[i]++)
#else
#define STAT(i) ((void)0)
#endif

/* s of the plane at lattice coordinate P on an axis with origin o and
 * direction d (d != 0): the definition. */
static inline double plane_s(int64_t P, double o, double d) { return ((double)P * 0.25 - o) / d; }

/* Key (s, a) before or equal to (ks, ka)? */
static inline int key_le(double s, int a, double ks, int ka) { return s < ks || (s == ks && a <= ka); }

/* floor(x) for |x| < 2^62 without a library call. */
static inline int64_t floor_i64(double x) {
    int64_t t = (int64_t)x;
    return (double)t > x ? t - 1 : t;
}

/* Brings axis b from cell q (valid for an earlier key) to the cell after
 * every crossing with key <= K = (ks, ka), exactly, moving no further than
 * lim (lim is at or ahead of q in the direction step). */
int64_t wk__voxel_exact_advance(int64_t q, int step, int b, double o, double d, double ks, int ka, int64_t lim) {
    STAT(1);
    double e = (o + ks * d) * 4.0;
    int64_t c;
    if (step > 0) c = !(e >= (double)q) ? q : e >= (double)lim ? lim : floor_i64(e);
    else c = !(e <= (double)q) ? q : e <= (double)lim ? lim : floor_i64(e);
    int moved_back = 0;
    /* Back while the plane entering c is not crossed. */
    while (c != q) {
        if (key_le(plane_s(step > 0 ? c : c + 1, o, d), b, ks, ka)) break;
        c -= step;
        moved_back = 1;
    }
    if (moved_back) return c;
    /* Forward while the plane leaving c is crossed. */
    while (c != lim && key_le(plane_s(step > 0 ? c + 1 : c, o, d), b, ks, ka)) c += step;
    return c;
}

/* 2^-46: far above the < 4 ulp (2^-51) error of an estimate. */
static const double REL_MARGIN = WK__VOXEL_REL_MARGIN;

int wk__voxel_begin(const struct wk_voxel_world *w, const wk__vray *ray, wk__vstate *st) {
    const double *o = ray->o, *d = ray->d;
    const double limit = ray->limit;
    const int in_s = ray->limit_in_s;
    if (!(limit >= 0)) return 0;
    if (!w->has_bounds) return 0;
    st->len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    int64_t *q = st->q, *LO = st->LO, *HI = st->HI;
    int *step = st->step;
    for (int a = 0; a < 3; a++) {
        q[a] = floor_i64(o[a] * 4.0);
        step[a] = d[a] > 0 ? 1 : d[a] < 0 ? -1 : 0;
        st->inv[a] = step[a] ? 1.0 / d[a] : 0.0;
        LO[a] = (int64_t)w->lo[a] * 64;
        HI[a] = ((int64_t)w->hi[a] + 1) * 64;
    }
    st->ks = 0.0; /* s of the last event (0: the start) */
    st->face = 6;
    /* Outside the bounds: jump to the latest entry event of the axes
     * outside (exact). After it, an axis still outside is a miss. */
    for (int pass = 0; pass < 2; pass++) {
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
        if (!outside) return 2;
        if (pass) return 0;
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
        if (in_s ? !(es <= limit) : !(es * st->len <= limit)) return 0;
        for (int b = 0; b < 3; b++) {
            if (b == ea) q[b] = step[b] > 0 ? eP : eP - 1;
            /* one past the bounds at most: beyond is a miss anyway */
            else if (step[b]) {
                int64_t lim = step[b] > 0 ? HI[b] : LO[b] - 1;
                /* the position when clearly inside a cell, as in the walk */
                double sd = es * d[b];
                double x4 = (o[b] + sd) * 4.0;
                int64_t lo = step[b] > 0 ? q[b] : lim, hi = step[b] > 0 ? lim : q[b];
                if (x4 >= (double)lo && x4 < (double)hi + 1.0) {
                    int64_t c = floor_i64(x4);
                    double frac = x4 - (double)c;
                    double eps = (fabs(x4) + 4.0 * fabs(sd)) * REL_MARGIN;
                    if (frac > eps && frac < 1.0 - eps) {
                        q[b] = c;
                        continue;
                    }
                }
                q[b] = wk__voxel_exact_advance(q[b], step[b], b, o[b], d[b], es, ea, lim);
            }
        }
        st->ks = es;
        st->face = 2 * ea + (step[ea] > 0 ? 0 : 1);
    }
    return 0;
}

int wk__voxel_trace(const struct wk_voxel_world *w, const wk__vray *ray, wk__vhit *hit) {
    wk__vstate st;
    if (wk__voxel_begin(w, ray, &st) != 2) return 0;
    const double *o = ray->o, *d = ray->d, *inv = st.inv;
    const double limit = ray->limit, len = st.len;
    const int in_s = ray->limit_in_s;
    int64_t *q = st.q;
    const int64_t *LO = st.LO, *HI = st.HI;
    const int *step = st.step;
    double ks = st.ks;
    int face = st.face;
    const wk__vchunk *chunk = NULL;
    int64_t ccx = 0, ccy = 0, ccz = 0;
    int have_chunk = 0, pair_empty = 0;
    uint64_t groups = 0;
    for (;;) {
        /* Only leaving the bounds is possible now: a miss. */
        if (q[0] < LO[0] || q[0] >= HI[0] || q[1] < LO[1] || q[1] >= HI[1] || q[2] < LO[2] || q[2] >= HI[2])
            return 0;
        STAT(0);
        /* Inside the bounds: find the largest empty node around q. */
        int64_t cx = q[0] >> 6, cy = q[1] >> 6, cz = q[2] >> 6; /* arithmetic shifts (floor) */
        if (!have_chunk || cx != ccx || cy != ccy || cz != ccz) {
            if (w->dir) {
                const wk__vdirent *e = wk__vdir_get(w, cx, cy, cz);
                groups = e->groups;
                chunk = groups ? wk__vdir_chunk(e->c) : NULL; /* an empty entry holds a box, no address */
                pair_empty = (int)(e->c & WK__VDIR_PAIR_EMPTY);
            } else {
                chunk = wk__vfind(w, (int32_t)cx, (int32_t)cy, (int32_t)cz);
                groups = chunk ? chunk->groups : 0;
            }
            ccx = cx;
            ccy = cy;
            ccz = cz;
            have_chunk = 1;
        }
        const uint64_t ux = (uint64_t)q[0], uy = (uint64_t)q[1], uz = (uint64_t)q[2];
        int64_t N;
        /* an empty chunk in an empty aligned pair of chunks: twice as far */
        if (!groups) N = pair_empty ? 128 : 64;
        else {
            int g = wk__vpart(ux, uy, uz, 4);
            uint64_t occ = chunk->grp[g].occ;
            int bb = wk__vpart(ux, uy, uz, 2);
            /* An empty group (block) inside an empty aligned pair of
             * groups (blocks) on every axis leaves twice as far. */
            if (!occ) N = (groups & (WK__VPAIR << (g & 0x2A))) ? 16 : 32;
            else if (!((occ >> bb) & 1)) N = (occ & (WK__VPAIR << (bb & 0x2A))) ? 4 : 8;
            else {
                int sub = -1, solid = 1;
                if ((chunk->grp[g].brick >> bb) & 1) {
                    uint64_t m = wk__vbrick_mask(chunk, g, bb);
                    sub = wk__vpart(ux, uy, uz, 0);
                    solid = (int)((m >> sub) & 1);
                }
                if (solid) {
                    /* s of the last event: the entered plane's quotient (as divided when
                     * it was the event), or the start's */
                    if (face != 6) {
                        const int fa = face >> 1;
                        ks = plane_s((face & 1) ? q[fa] + 1 : q[fa], o[fa], d[fa]);
                    }
                    double t = ks * len + 0.0; /* never -0.0 */
                    if (in_s ? !(ks <= limit) : !(t <= limit)) return 0;
                    hit->t = (float)t;
                    hit->s = ks;
                    hit->x = (int32_t)(q[0] >> 2);
                    hit->y = (int32_t)(q[1] >> 2);
                    hit->z = (int32_t)(q[2] >> 2);
                    hit->sub = (int8_t)sub;
                    hit->face = (int8_t)face;
                    return 1;
                }
                N = 1;
            }
        }
        /* Leave the node of N cells per axis around q: the first exit
         * plane by estimate, near-ties settled by exact quotients. */
        const uint64_t nmask = ~(uint64_t)(N - 1);
        int64_t P[3] = {0, 0, 0};
        double num[3] = {0, 0, 0}, est[3] = {INFINITY, INFINITY, INFINITY};
        int ea = -1;
        double best = INFINITY;
        for (int a = 0; a < 3; a++) {
            if (!step[a]) continue;
            int64_t base = (int64_t)((uint64_t)q[a] & nmask);
            P[a] = step[a] > 0 ? base + N : base;
            num[a] = (double)P[a] * 0.25 - o[a];
            est[a] = num[a] * inv[a];
            if (ea < 0 || est[a] < best) {
                best = est[a];
                ea = a;
            }
        }
        if (ea < 0) return 0;
        /* The exact quotient es = num / d of the exit plane is divided only
         * where it decides something: near-ties of estimates (compared
         * exactly, as the key order requires), a finite limit, an exact
         * fix-up, and (recomputed from the cell and the face) a hit. The
         * other axes are otherwise placed from the estimate sv = best,
         * within 3 ulp of es: a shift of o + s*d far inside the position
         * test's margin, so an accepted cell is the one es gives. */
        const double near = best + best * REL_MARGIN;
        double es = best, sv = best;
        int exact = 0;
        for (int a = 0; a < 3; a++)
            if (a != ea && step[a] && est[a] <= near) exact = 1;
        if (exact) {
            es = num[ea] / d[ea];
            for (int a = 0; a < 3; a++) {
                if (a == ea || !step[a] || !(est[a] <= near)) continue;
                double s = num[a] / d[a];
                if (!key_le(es, ea, s, a)) {
                    es = s;
                    ea = a;
                }
            }
            sv = es;
        }
        if (in_s || limit != INFINITY) {
            if (!exact) es = sv = num[ea] / d[ea];
            exact = 1;
            if (in_s ? !(es <= limit) : !(es * len <= limit)) return 0;
        }
        if (N > 1) {
            for (int b = 0; b < 3; b++) {
                if (b == ea || !step[b]) continue;
                int64_t base = (int64_t)((uint64_t)q[b] & nmask);
                int64_t lim = step[b] > 0 ? base + N - 1 : base;
                double sd = sv * d[b];
                double x4 = (o[b] + sd) * 4.0;
                if (x4 >= (double)base && x4 < (double)(base + N)) {
                    int64_t c = floor_i64(x4);
                    double frac = x4 - (double)c;
                    double eps = (fabs(x4) + 4.0 * fabs(sd)) * REL_MARGIN;
                    if (frac > eps && frac < 1.0 - eps && (step[b] > 0 ? c >= q[b] : c <= q[b])) {
                        q[b] = c;
                        continue;
                    }
                }
                if (!exact) es = num[ea] / d[ea];
                exact = 1;
                q[b] = wk__voxel_exact_advance(q[b], step[b], b, o[b], d[b], es, ea, lim);
            }
        }
        q[ea] = step[ea] > 0 ? P[ea] : P[ea] - 1;
        face = 2 * ea + (step[ea] > 0 ? 0 : 1);
    }
}
