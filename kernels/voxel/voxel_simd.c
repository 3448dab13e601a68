/* The voxel ray cast's SIMD paths, one source compiled once per ISA.
 *
 * AVX-512 (and AVX-512 + VBMI): packets of 8 rays in double lanes walk
 * together; a lane whose ray finishes (hit, miss, left the bounds) is
 * refilled with the next ray at once. Each step does, per lane, exactly
 * the operations of the scalar walk (voxel_trace.c) in the same order:
 * the same IEEE double adds, multiplies and divides (no FMA), the same
 * comparisons, so every decision and every output bit is the reference's.
 * The rare per-lane work (a chunk lookup when a lane enters another chunk,
 * a brick's mask, the exact fix-up near a plane, a ray's setup) calls the
 * reference's own functions.
 *
 * AVX2 and NEON: ABSENT. Their tables hold the scalar reference (AVX2
 * lacks int64 <-> double conversions and 64-bit arithmetic shifts, NEON
 * has two double lanes); results are the reference's by construction. */
#include "core/wk_fp_guard.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "voxel_impl.h"
#include "wk_simd.h"

void wk__voxel_raycast_ref(const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t begin,
                           size_t end);

#if defined(WK_SIMD_AVX512)
#include <immintrin.h>

enum { L = 8 };

/* The lanes' state, kept in registers: lanes are changed one at a time
 * with masked broadcasts (never scalar stores that a vector load would
 * have to wait for). */
typedef struct lanes {
    __m512d o[3], d[3], inv[3], len, limit, ks;
    __m512i q[3], face, cc[3], chunk;
    size_t idx[L];
} lanes;

static void write_miss(const wk_hits *h, size_t i) {
    h->t[i] = INFINITY;
    h->x[i] = 0;
    h->y[i] = 0;
    h->z[i] = 0;
    h->sub[i] = -1;
    h->face[i] = -1;
}

/* Fills lane l with the next ray that needs a walk; 0 when none is left. */
static inline __attribute__((always_inline)) int refill(lanes *p, int l, const struct wk_voxel_world *w,
                                                        const wk_rays *r, const wk_hits *h, size_t *next,
                                                        size_t end) {
    while (*next < end) {
        size_t i = (*next)++;
        wk__vray ray;
        ray.o[0] = r->ox[i];
        ray.o[1] = r->oy[i];
        ray.o[2] = r->oz[i];
        ray.d[0] = r->dx[i];
        ray.d[1] = r->dy[i];
        ray.d[2] = r->dz[i];
        ray.limit = r->tmax ? (double)r->tmax[i] : INFINITY;
        ray.limit_in_s = 0;
        int any_nan = 0;
        for (int a = 0; a < 3; a++) any_nan |= isnan(ray.o[a]) | isnan(ray.d[a]);
        wk__vstate st;
        if (any_nan || wk__voxel_begin(w, &ray, &st) != 2) {
            write_miss(h, i);
            continue;
        }
        const __mmask8 m = (__mmask8)(1u << l);
        for (int a = 0; a < 3; a++) {
            p->o[a] = _mm512_mask_mov_pd(p->o[a], m, _mm512_set1_pd(ray.o[a]));
            p->d[a] = _mm512_mask_mov_pd(p->d[a], m, _mm512_set1_pd(ray.d[a]));
            p->inv[a] = _mm512_mask_mov_pd(p->inv[a], m, _mm512_set1_pd(st.inv[a]));
            p->q[a] = _mm512_mask_set1_epi64(p->q[a], m, st.q[a]);
            p->cc[a] = _mm512_mask_set1_epi64(p->cc[a], m, INT64_MAX); /* no chunk cached */
        }
        p->limit = _mm512_mask_mov_pd(p->limit, m, _mm512_set1_pd(ray.limit));
        p->len = _mm512_mask_mov_pd(p->len, m, _mm512_set1_pd(st.len));
        p->ks = _mm512_mask_mov_pd(p->ks, m, _mm512_set1_pd(st.ks));
        p->face = _mm512_mask_set1_epi64(p->face, m, st.face);
        p->chunk = _mm512_mask_set1_epi64(p->chunk, m, 0);
        p->idx[l] = i;
        return 1;
    }
    return 0;
}

static void raycast_avx512(const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t begin,
                           size_t end) {
    lanes p;
    const __m512i zero = _mm512_setzero_si512();
    const __m512d zd = _mm512_setzero_pd();
    for (int a = 0; a < 3; a++) {
        p.o[a] = p.d[a] = p.inv[a] = zd;
        p.q[a] = p.cc[a] = zero;
    }
    p.len = p.limit = p.ks = zd;
    p.face = p.chunk = zero;
    memset(p.idx, 0, sizeof p.idx);
    size_t next = begin;
    __mmask8 act = 0;
    for (int l = 0; l < L; l++)
        if (refill(&p, l, w, r, h, &next, end)) act |= (__mmask8)(1u << l);
    if (!act) return;
    const __m512i LO[3] = {_mm512_set1_epi64((int64_t)w->lo[0] * 64), _mm512_set1_epi64((int64_t)w->lo[1] * 64),
                           _mm512_set1_epi64((int64_t)w->lo[2] * 64)};
    const __m512i HI[3] = {_mm512_set1_epi64(((int64_t)w->hi[0] + 1) * 64),
                           _mm512_set1_epi64(((int64_t)w->hi[1] + 1) * 64),
                           _mm512_set1_epi64(((int64_t)w->hi[2] + 1) * 64)};
    const __m512i one = _mm512_set1_epi64(1), three = _mm512_set1_epi64(3);
    const __m512d inf = _mm512_set1_pd(INFINITY), quarter = _mm512_set1_pd(0.25), four = _mm512_set1_pd(4.0),
                  onev = _mm512_set1_pd(1.0), margin = _mm512_set1_pd(WK__VOXEL_REL_MARGIN);
    const __m512i off_occ = _mm512_set1_epi64((int64_t)offsetof(wk__vchunk, occ));
    const __m512i dlo[3] = {_mm512_set1_epi64(w->dlo[0]), _mm512_set1_epi64(w->dlo[1]), _mm512_set1_epi64(w->dlo[2])};
    const __m512i dn[2] = {_mm512_set1_epi64((int64_t)w->dn[0]), _mm512_set1_epi64((int64_t)w->dn[1])};
    const __m512i off_brick = _mm512_set1_epi64((int64_t)offsetof(wk__vchunk, brick));
    _Alignas(64) int64_t tq[3][L], tc[3][L], tface[L], tea[L], tbase[3][L], tN[L];
    _Alignas(64) double tks[L], tlen[L], tlim[L], to[3][L], td[3][L], tes[L];
    _Alignas(64) uint64_t tchunk[L];
    while (act) {
        __m512i *q = p.q;
        __mmask8 done = 0, hits = 0;
        /* leaving the bounds: a miss */
        __mmask8 out = 0;
        for (int a = 0; a < 3; a++)
            out |= _mm512_cmplt_epi64_mask(q[a], LO[a]) | _mm512_cmpge_epi64_mask(q[a], HI[a]);
        out &= act;
        done |= out;
        __mmask8 live = act & (__mmask8)~out;
        /* chunk lookups where a lane entered another chunk */
        __m512i c3[3] = {_mm512_srai_epi64(q[0], 6), _mm512_srai_epi64(q[1], 6), _mm512_srai_epi64(q[2], 6)};
        __mmask8 changed = live & (_mm512_cmpneq_epi64_mask(c3[0], p.cc[0]) |
                                   _mm512_cmpneq_epi64_mask(c3[1], p.cc[1]) |
                                   _mm512_cmpneq_epi64_mask(c3[2], p.cc[2]));
        if (changed) {
            for (int a = 0; a < 3; a++) p.cc[a] = _mm512_mask_mov_epi64(p.cc[a], changed, c3[a]);
            if (w->dir) {
                /* the directory: one gather (lanes are inside the bounds) */
                __m512i i = _mm512_sub_epi64(c3[2], dlo[2]);
                i = _mm512_add_epi64(_mm512_mullo_epi64(i, dn[1]), _mm512_sub_epi64(c3[1], dlo[1]));
                i = _mm512_add_epi64(_mm512_mullo_epi64(i, dn[0]), _mm512_sub_epi64(c3[0], dlo[0]));
                p.chunk = _mm512_mask_i64gather_epi64(p.chunk, changed, i, (const void *)w->dir, 8);
            } else {
                for (int a = 0; a < 3; a++) _mm512_store_si512((void *)tc[a], c3[a]);
                for (unsigned m = changed; m; m &= m - 1) {
                    int l = __builtin_ctz(m);
                    const wk__vchunk *c = wk__vfind(w, (int32_t)tc[0][l], (int32_t)tc[1][l], (int32_t)tc[2][l]);
                    p.chunk = _mm512_mask_set1_epi64(p.chunk, (__mmask8)(1u << l), (int64_t)(uintptr_t)c);
                }
            }
        }
        const __m512i chunk = p.chunk;
        /* An absent chunk is a node of 64^3 cells. A chunk present but
         * empty (emptied by edits) is walked group by group here, where the
         * reference leaves it at once: the first solid cell is the same. */
        __mmask8 hasg = live & _mm512_cmpneq_epi64_mask(chunk, zero);
        __m512i g = _mm512_and_si512(_mm512_srli_epi64(q[0], 4), three);
        g = _mm512_or_si512(g, _mm512_slli_epi64(_mm512_and_si512(_mm512_srli_epi64(q[1], 4), three), 2));
        g = _mm512_or_si512(g, _mm512_slli_epi64(_mm512_and_si512(_mm512_srli_epi64(q[2], 4), three), 4));
        __m512i g8 = _mm512_slli_epi64(g, 3);
        __m512i occ = _mm512_mask_i64gather_epi64(zero, hasg, _mm512_add_epi64(_mm512_add_epi64(chunk, off_occ), g8),
                                                  (void *)0, 1);
        __mmask8 hasocc = hasg & _mm512_cmpneq_epi64_mask(occ, zero);
        __m512i bb = _mm512_and_si512(_mm512_srli_epi64(q[0], 2), three);
        bb = _mm512_or_si512(bb, _mm512_slli_epi64(_mm512_and_si512(_mm512_srli_epi64(q[1], 2), three), 2));
        bb = _mm512_or_si512(bb, _mm512_slli_epi64(_mm512_and_si512(_mm512_srli_epi64(q[2], 2), three), 4));
        __mmask8 occbit = hasocc & _mm512_test_epi64_mask(_mm512_srlv_epi64(occ, bb), one);
        __m512i N = _mm512_set1_epi64(64);
        N = _mm512_mask_mov_epi64(N, hasg, _mm512_set1_epi64(16));
        N = _mm512_mask_mov_epi64(N, hasocc, _mm512_set1_epi64(4));
        N = _mm512_mask_mov_epi64(N, occbit, one);
        if (occbit) {
            __m512i brick = _mm512_mask_i64gather_epi64(
                zero, occbit, _mm512_add_epi64(_mm512_add_epi64(chunk, off_brick), g8), (void *)0, 1);
            __mmask8 isbrick = occbit & _mm512_test_epi64_mask(_mm512_srlv_epi64(brick, bb), one);
            hits = occbit & (__mmask8)~isbrick;
            _Alignas(64) int64_t tsub[L];
            _mm512_store_si512((void *)tsub, _mm512_set1_epi64(-1));
            if (isbrick) {
                for (int a = 0; a < 3; a++) _mm512_store_si512((void *)tq[a], q[a]);
                _mm512_store_si512((void *)tchunk, chunk);
                for (unsigned m = isbrick; m; m &= m - 1) {
                    int l = __builtin_ctz(m);
                    const wk__vchunk *c = (const wk__vchunk *)(uintptr_t)tchunk[l];
                    uint64_t ux = (uint64_t)tq[0][l], uy = (uint64_t)tq[1][l], uz = (uint64_t)tq[2][l];
                    int gl = (int)(((ux >> 4) & 3) + 4 * ((uy >> 4) & 3) + 16 * ((uz >> 4) & 3));
                    int bl = (int)(((ux >> 2) & 3) + 4 * ((uy >> 2) & 3) + 16 * ((uz >> 2) & 3));
                    uint64_t mk = c->bricks[gl][wk__popcount64(c->brick[gl] & ((1ull << bl) - 1))];
                    int sub = (int)((ux & 3) + 4 * (uy & 3) + 16 * (uz & 3));
                    if ((mk >> sub) & 1) {
                        tsub[l] = sub;
                        hits |= (__mmask8)(1u << l);
                    }
                }
            }
            if (hits) {
                /* t = ks * len + 0.0, counted when t <= tmax (as the reference) */
                __m512d t = _mm512_add_pd(_mm512_mul_pd(p.ks, p.len), zd);
                __mmask8 in = hits & _mm512_cmp_pd_mask(t, p.limit, _CMP_LE_OQ);
                _Alignas(64) double tt[L];
                _mm512_store_pd(tt, t);
                for (int a = 0; a < 3; a++) _mm512_store_si512((void *)tq[a], _mm512_srai_epi64(q[a], 2));
                _mm512_store_si512((void *)tface, p.face);
                for (unsigned m = hits; m; m &= m - 1) {
                    int l = __builtin_ctz(m);
                    size_t i = p.idx[l];
                    if (!((in >> l) & 1)) {
                        write_miss(h, i);
                        continue;
                    }
                    h->t[i] = (float)tt[l];
                    h->x[i] = (int32_t)tq[0][l];
                    h->y[i] = (int32_t)tq[1][l];
                    h->z[i] = (int32_t)tq[2][l];
                    h->sub[i] = (int8_t)tsub[l];
                    h->face[i] = (int8_t)tface[l];
                }
            }
            done |= hits;
            live &= (__mmask8)~hits;
        }
        if (live) {
            /* the exit plane: estimates, then exact quotients near ties */
            const __m512i Nm1 = _mm512_sub_epi64(N, one);
            __m512d *o = p.o, *d = p.d;
            __m512i base[3], P[3];
            __m512d num[3], est[3];
            __mmask8 pos[3], mov[3];
            __m512d best = inf;
            __m512i ea = _mm512_set1_epi64(-1);
            for (int a = 0; a < 3; a++) {
                pos[a] = _mm512_cmp_pd_mask(d[a], zd, _CMP_GT_OQ);
                mov[a] = pos[a] | _mm512_cmp_pd_mask(d[a], zd, _CMP_LT_OQ);
                base[a] = _mm512_andnot_si512(Nm1, q[a]);
                P[a] = _mm512_mask_add_epi64(base[a], pos[a], base[a], N);
                num[a] = _mm512_sub_pd(_mm512_mul_pd(_mm512_cvtepi64_pd(P[a]), quarter), o[a]);
                est[a] = _mm512_mul_pd(num[a], p.inv[a]);
                __mmask8 take = live & mov[a] &
                                (_mm512_cmplt_epi64_mask(ea, zero) | _mm512_cmp_pd_mask(est[a], best, _CMP_LT_OQ));
                best = _mm512_mask_mov_pd(best, take, est[a]);
                ea = _mm512_mask_mov_epi64(ea, take, _mm512_set1_epi64(a));
            }
            __mmask8 none = live & _mm512_cmplt_epi64_mask(ea, zero);
            done |= none;
            live &= (__mmask8)~none;
            __mmask8 is[3];
            for (int a = 0; a < 3; a++) is[a] = _mm512_cmpeq_epi64_mask(ea, _mm512_set1_epi64(a));
            __m512d nsel = _mm512_mask_mov_pd(_mm512_mask_mov_pd(num[0], is[1], num[1]), is[2], num[2]);
            __m512d dsel = _mm512_mask_mov_pd(_mm512_mask_mov_pd(d[0], is[1], d[1]), is[2], d[2]);
            __m512d es = _mm512_maskz_div_pd(live, nsel, _mm512_mask_mov_pd(onev, live, dsel));
            __m512d nearv = _mm512_add_pd(best, _mm512_mul_pd(best, margin));
            for (int a = 0; a < 3; a++) {
                __mmask8 m = live & mov[a] & (__mmask8)~_mm512_cmpeq_epi64_mask(ea, _mm512_set1_epi64(a)) &
                             _mm512_cmp_pd_mask(est[a], nearv, _CMP_LE_OQ);
                if (!m) continue;
                __m512d s2 = _mm512_mask_div_pd(es, m, num[a], d[a]);
                /* key (es, ea) <= (s, a)? */
                __mmask8 le = _mm512_cmp_pd_mask(es, s2, _CMP_LT_OQ) |
                              (_mm512_cmp_pd_mask(es, s2, _CMP_EQ_OQ) & _mm512_cmple_epi64_mask(ea, _mm512_set1_epi64(a)));
                __mmask8 upd = m & (__mmask8)~le;
                es = _mm512_mask_mov_pd(es, upd, s2);
                ea = _mm512_mask_mov_epi64(ea, upd, _mm512_set1_epi64(a));
            }
            __mmask8 over = live & (__mmask8)~_mm512_cmp_pd_mask(_mm512_mul_pd(es, p.len), p.limit, _CMP_LE_OQ);
            done |= over;
            live &= (__mmask8)~over;
            for (int a = 0; a < 3; a++) is[a] = _mm512_cmpeq_epi64_mask(ea, _mm512_set1_epi64(a));
            /* the other axes: from the position, exact fix-up near a plane */
            __mmask8 big = live & _mm512_cmpgt_epi64_mask(N, one);
            __mmask8 fix[3] = {0, 0, 0};
            __m512i qold[3] = {q[0], q[1], q[2]};
            if (big) {
                for (int b2 = 0; b2 < 3; b2++) {
                    __mmask8 m = big & mov[b2] & (__mmask8)~is[b2];
                    if (!m) continue;
                    __m512d sd = _mm512_mul_pd(es, d[b2]);
                    __m512d x4 = _mm512_mul_pd(_mm512_add_pd(o[b2], sd), four);
                    __m512d lo = _mm512_cvtepi64_pd(base[b2]), hi = _mm512_cvtepi64_pd(_mm512_add_epi64(base[b2], N));
                    __mmask8 inr = _mm512_cmp_pd_mask(x4, lo, _CMP_GE_OQ) & _mm512_cmp_pd_mask(x4, hi, _CMP_LT_OQ);
                    __m512d fl = _mm512_roundscale_pd(x4, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
                    __m512i c = _mm512_maskz_cvttpd_epi64(inr & m, fl);
                    __m512d frac = _mm512_sub_pd(x4, _mm512_cvtepi64_pd(c));
                    __m512d ax4 = _mm512_abs_pd(x4), asd = _mm512_abs_pd(sd);
                    __m512d eps = _mm512_mul_pd(_mm512_add_pd(ax4, _mm512_mul_pd(four, asd)), margin);
                    __mmask8 ok = inr & m & _mm512_cmp_pd_mask(frac, eps, _CMP_GT_OQ) &
                                  _mm512_cmp_pd_mask(frac, _mm512_sub_pd(onev, eps), _CMP_LT_OQ);
                    __mmask8 mono = (pos[b2] & _mm512_cmpge_epi64_mask(c, q[b2])) |
                                    ((__mmask8)~pos[b2] & _mm512_cmple_epi64_mask(c, q[b2]));
                    ok &= mono;
                    q[b2] = _mm512_mask_mov_epi64(q[b2], ok, c);
                    fix[b2] = m & (__mmask8)~ok;
                }
            }
            if (fix[0] | fix[1] | fix[2]) {
                _mm512_store_pd(tes, es);
                _mm512_store_si512((void *)tea, ea);
                _mm512_store_si512((void *)tN, N);
                for (int b2 = 0; b2 < 3; b2++) {
                    if (!fix[b2]) continue;
                    _mm512_store_si512((void *)tbase[b2], base[b2]);
                    _mm512_store_si512((void *)tq[b2], qold[b2]);
                    _mm512_store_pd(to[b2], o[b2]);
                    _mm512_store_pd(td[b2], d[b2]);
                    for (unsigned m = fix[b2]; m; m &= m - 1) {
                        int l = __builtin_ctz(m);
                        int step = td[b2][l] > 0 ? 1 : -1;
                        int64_t lim = step > 0 ? tbase[b2][l] + tN[l] - 1 : tbase[b2][l];
                        int64_t nq = wk__voxel_exact_advance(tq[b2][l], step, b2, to[b2][l], td[b2][l], tes[l],
                                                             (int)tea[l], lim);
                        q[b2] = _mm512_mask_set1_epi64(q[b2], (__mmask8)(1u << l), nq);
                    }
                }
            }
            /* the exit axis steps out of the node */
            for (int a = 0; a < 3; a++) {
                __m512i nq = _mm512_mask_sub_epi64(P[a], (__mmask8)~pos[a], P[a], one);
                q[a] = _mm512_mask_mov_epi64(q[a], live & is[a], nq);
                __m512i f = _mm512_mask_add_epi64(_mm512_set1_epi64(2 * a), (__mmask8)~pos[a],
                                                  _mm512_set1_epi64(2 * a), one);
                p.face = _mm512_mask_mov_epi64(p.face, live & is[a], f);
            }
            p.ks = _mm512_mask_mov_pd(p.ks, live, es);
        }
        for (unsigned m = done & (__mmask8)~hits; m; m &= m - 1) write_miss(h, p.idx[__builtin_ctz(m)]);
        act &= (__mmask8)~done;
        for (unsigned m = done; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (refill(&p, l, w, r, h, &next, end)) act |= (__mmask8)(1u << l);
        }
    }
    (void)tlen;
    (void)tlim;
    (void)tks;
}

const wk__voxel_kernels WK_SIMD_NAME(wk__voxel_kernels) = {raycast_avx512};

#else

/* AVX2, NEON: absent; the scalar reference runs (see the top). */
const wk__voxel_kernels WK_SIMD_NAME(wk__voxel_kernels) = {wk__voxel_raycast_ref};

#endif
