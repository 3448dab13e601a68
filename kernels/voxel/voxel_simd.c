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

typedef struct packet {
    double o[3][L], d[3][L], inv[3][L];
    double limit[L], len[L], ks[L];
    int64_t q[3][L];
    int64_t face[L];
    int64_t cc[3][L];           /* chunk coordinates cached per lane */
    uint64_t chunk[L];          /* the cached chunk (pointer), 0 = none */
    uint64_t groups[L];         /* 1 when the chunk exists */
    size_t idx[L];              /* the lane's ray */
} packet;

static void write_miss(const wk_hits *h, size_t i) {
    h->t[i] = INFINITY;
    h->x[i] = 0;
    h->y[i] = 0;
    h->z[i] = 0;
    h->sub[i] = -1;
    h->face[i] = -1;
}

/* The hit of lane l at its cell (as the reference writes it). */
static void write_hit(const packet *p, int l, int sub, const wk_hits *h) {
    size_t i = p->idx[l];
    double t = p->ks[l] * p->len[l] + 0.0;
    if (!(t <= p->limit[l])) {
        write_miss(h, i);
        return;
    }
    h->t[i] = (float)t;
    h->x[i] = (int32_t)(p->q[0][l] >> 2);
    h->y[i] = (int32_t)(p->q[1][l] >> 2);
    h->z[i] = (int32_t)(p->q[2][l] >> 2);
    h->sub[i] = (int8_t)sub;
    h->face[i] = (int8_t)p->face[l];
}

/* Fills lane l with the next ray that needs a walk; 0 when none is left. */
static int refill(packet *p, int l, const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t *next,
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
        for (int a = 0; a < 3; a++) {
            p->o[a][l] = ray.o[a];
            p->d[a][l] = ray.d[a];
            p->inv[a][l] = st.inv[a];
            p->q[a][l] = st.q[a];
            p->cc[a][l] = INT64_MAX; /* no chunk cached */
        }
        p->limit[l] = ray.limit;
        p->len[l] = st.len;
        p->ks[l] = st.ks;
        p->face[l] = st.face;
        p->chunk[l] = 0;
        p->groups[l] = 0;
        p->idx[l] = i;
        return 1;
    }
    return 0;
}

#define LD(a) _mm512_load_pd(a)
#define LDI(a) _mm512_load_si512((const void *)(a))

static void raycast_avx512(const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t begin,
                           size_t end) {
    _Alignas(64) packet p;
    memset(&p, 0, sizeof p);
    size_t next = begin;
    __mmask8 act = 0;
    for (int l = 0; l < L; l++)
        if (refill(&p, l, w, r, h, &next, end)) act |= (__mmask8)(1u << l);
    if (!w->has_bounds) return;
    const __m512i LO[3] = {_mm512_set1_epi64((int64_t)w->lo[0] * 64), _mm512_set1_epi64((int64_t)w->lo[1] * 64),
                           _mm512_set1_epi64((int64_t)w->lo[2] * 64)};
    const __m512i HI[3] = {_mm512_set1_epi64(((int64_t)w->hi[0] + 1) * 64),
                           _mm512_set1_epi64(((int64_t)w->hi[1] + 1) * 64),
                           _mm512_set1_epi64(((int64_t)w->hi[2] + 1) * 64)};
    const __m512i one = _mm512_set1_epi64(1), three = _mm512_set1_epi64(3), zero = _mm512_setzero_si512();
    const __m512d zd = _mm512_setzero_pd(), inf = _mm512_set1_pd(INFINITY), quarter = _mm512_set1_pd(0.25),
                  four = _mm512_set1_pd(4.0), onev = _mm512_set1_pd(1.0),
                  margin = _mm512_set1_pd(WK__VOXEL_REL_MARGIN);
    const __m512i off_occ = _mm512_set1_epi64((int64_t)offsetof(wk__vchunk, occ));
    const __m512i off_brick = _mm512_set1_epi64((int64_t)offsetof(wk__vchunk, brick));
    while (act) {
        __m512i q[3] = {LDI(p.q[0]), LDI(p.q[1]), LDI(p.q[2])};
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
        __mmask8 changed = live & (_mm512_cmpneq_epi64_mask(c3[0], LDI(p.cc[0])) |
                                   _mm512_cmpneq_epi64_mask(c3[1], LDI(p.cc[1])) |
                                   _mm512_cmpneq_epi64_mask(c3[2], LDI(p.cc[2])));
        if (changed) {
            for (int a = 0; a < 3; a++) _mm512_mask_storeu_epi64(p.cc[a], changed, c3[a]);
            for (unsigned m = changed; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                const wk__vchunk *c = wk__vfind(w, (int32_t)p.cc[0][l], (int32_t)p.cc[1][l], (int32_t)p.cc[2][l]);
                p.chunk[l] = (uint64_t)(uintptr_t)c;
                p.groups[l] = c != NULL; /* an emptied chunk: its groups read empty below */
            }
        }
        const __m512i chunk = LDI(p.chunk);
        /* An absent chunk is a node of 64^3 cells. A chunk present but
         * empty (emptied by edits) is walked group by group here, where the
         * reference leaves it at once: the first solid cell is the same. */
        __mmask8 hasg = live & _mm512_cmpneq_epi64_mask(LDI(p.groups), zero);
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
            __mmask8 solid = occbit & (__mmask8)~isbrick;
            for (unsigned m = solid; m; m &= m - 1) write_hit(&p, __builtin_ctz(m), -1, h);
            hits |= solid;
            for (unsigned m = isbrick; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                const wk__vchunk *c = (const wk__vchunk *)(uintptr_t)p.chunk[l];
                uint64_t ux = (uint64_t)p.q[0][l], uy = (uint64_t)p.q[1][l], uz = (uint64_t)p.q[2][l];
                int gl = (int)(((ux >> 4) & 3) + 4 * ((uy >> 4) & 3) + 16 * ((uz >> 4) & 3));
                int bl = (int)(((ux >> 2) & 3) + 4 * ((uy >> 2) & 3) + 16 * ((uz >> 2) & 3));
                uint64_t mk = c->bricks[gl][wk__popcount64(c->brick[gl] & ((1ull << bl) - 1))];
                int sub = (int)((ux & 3) + 4 * (uy & 3) + 16 * (uz & 3));
                if ((mk >> sub) & 1) {
                    write_hit(&p, l, sub, h);
                    hits |= (__mmask8)(1u << l);
                }
            }
            done |= hits;
            live &= (__mmask8)~hits;
        }
        if (live) {
            /* the exit plane: estimates, then exact quotients near ties */
            const __m512i Nm1 = _mm512_sub_epi64(N, one);
            __m512d o[3] = {LD(p.o[0]), LD(p.o[1]), LD(p.o[2])}, d[3] = {LD(p.d[0]), LD(p.d[1]), LD(p.d[2])};
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
                est[a] = _mm512_mul_pd(num[a], LD(p.inv[a]));
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
                __m512d s = _mm512_mask_div_pd(es, m, num[a], d[a]);
                /* key (es, ea) <= (s, a)? */
                __mmask8 le = _mm512_cmp_pd_mask(es, s, _CMP_LT_OQ) |
                              (_mm512_cmp_pd_mask(es, s, _CMP_EQ_OQ) & _mm512_cmple_epi64_mask(ea, _mm512_set1_epi64(a)));
                __mmask8 upd = m & (__mmask8)~le;
                es = _mm512_mask_mov_pd(es, upd, s);
                ea = _mm512_mask_mov_epi64(ea, upd, _mm512_set1_epi64(a));
            }
            __m512d len = LD(p.len), limit = LD(p.limit);
            __mmask8 over = live & (__mmask8)~_mm512_cmp_pd_mask(_mm512_mul_pd(es, len), limit, _CMP_LE_OQ);
            done |= over;
            live &= (__mmask8)~over;
            for (int a = 0; a < 3; a++) is[a] = _mm512_cmpeq_epi64_mask(ea, _mm512_set1_epi64(a));
            /* the other axes: from the position, exact fix-up near a plane */
            __mmask8 big = live & _mm512_cmpgt_epi64_mask(N, one);
            __mmask8 fix[3] = {0, 0, 0};
            if (big) {
                for (int b = 0; b < 3; b++) {
                    __mmask8 m = big & mov[b] & (__mmask8)~is[b];
                    if (!m) continue;
                    __m512d sd = _mm512_mul_pd(es, d[b]);
                    __m512d x4 = _mm512_mul_pd(_mm512_add_pd(o[b], sd), four);
                    __m512d lo = _mm512_cvtepi64_pd(base[b]), hi = _mm512_cvtepi64_pd(_mm512_add_epi64(base[b], N));
                    __mmask8 inr = _mm512_cmp_pd_mask(x4, lo, _CMP_GE_OQ) & _mm512_cmp_pd_mask(x4, hi, _CMP_LT_OQ);
                    __m512d fl = _mm512_roundscale_pd(x4, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
                    __m512i c = _mm512_maskz_cvttpd_epi64(inr & m, fl);
                    __m512d frac = _mm512_sub_pd(x4, _mm512_cvtepi64_pd(c));
                    __m512d ax4 = _mm512_abs_pd(x4), asd = _mm512_abs_pd(sd);
                    __m512d eps = _mm512_mul_pd(_mm512_add_pd(ax4, _mm512_mul_pd(four, asd)), margin);
                    __mmask8 ok = inr & m & _mm512_cmp_pd_mask(frac, eps, _CMP_GT_OQ) &
                                  _mm512_cmp_pd_mask(frac, _mm512_sub_pd(onev, eps), _CMP_LT_OQ);
                    __mmask8 mono = (pos[b] & _mm512_cmpge_epi64_mask(c, q[b])) |
                                    ((__mmask8)~pos[b] & _mm512_cmple_epi64_mask(c, q[b]));
                    ok &= mono;
                    q[b] = _mm512_mask_mov_epi64(q[b], ok, c);
                    fix[b] = m & (__mmask8)~ok;
                }
            }
            /* the exit axis steps out of the node */
            for (int a = 0; a < 3; a++) {
                __m512i nq = _mm512_mask_sub_epi64(P[a], (__mmask8)~pos[a], P[a], one);
                q[a] = _mm512_mask_mov_epi64(q[a], live & is[a], nq);
            }
            __m512i face = LDI(p.face);
            for (int a = 0; a < 3; a++) {
                __m512i f = _mm512_mask_add_epi64(_mm512_set1_epi64(2 * a), (__mmask8)~pos[a],
                                                  _mm512_set1_epi64(2 * a), one);
                face = _mm512_mask_mov_epi64(face, live & is[a], f);
            }
            _mm512_mask_store_pd(p.ks, live, es);
            _mm512_mask_store_epi64(p.face, live, face);
            for (int a = 0; a < 3; a++) _mm512_mask_store_epi64(p.q[a], live, q[a]);
            if (fix[0] | fix[1] | fix[2]) {
                _Alignas(64) double esv[L];
                _Alignas(64) int64_t eav[L], basev[3][L], Nv[L];
                _mm512_store_pd(esv, es);
                _mm512_store_si512((void *)eav, ea);
                _mm512_store_si512((void *)Nv, N);
                for (int b = 0; b < 3; b++) _mm512_store_si512((void *)basev[b], base[b]);
                for (int b = 0; b < 3; b++)
                    for (unsigned m = fix[b]; m; m &= m - 1) {
                        int l = __builtin_ctz(m);
                        int step = p.d[b][l] > 0 ? 1 : -1;
                        /* the cell before this step: the exit axis moved, this one did not */
                        int64_t lim = step > 0 ? basev[b][l] + Nv[l] - 1 : basev[b][l];
                        p.q[b][l] = wk__voxel_exact_advance(p.q[b][l], step, b, p.o[b][l], p.d[b][l], esv[l],
                                                            (int)eav[l], lim);
                    }
            }
        }
        for (unsigned m = done & (__mmask8)~hits; m; m &= m - 1) write_miss(h, p.idx[__builtin_ctz(m)]);
        act &= (__mmask8)~done;
        for (unsigned m = done; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (refill(&p, l, w, r, h, &next, end)) act |= (__mmask8)(1u << l);
        }
    }
}

const wk__voxel_kernels WK_SIMD_NAME(wk__voxel_kernels) = {raycast_avx512};

#else

/* AVX2, NEON: absent; the scalar reference runs (see the top). */
const wk__voxel_kernels WK_SIMD_NAME(wk__voxel_kernels) = {wk__voxel_raycast_ref};

#endif
