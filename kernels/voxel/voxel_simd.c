/* The voxel ray cast's SIMD paths, one source compiled once per ISA.
 *
 * AVX-512 (and AVX-512 + VBMI): packets of 8 rays in double lanes walk
 * together, three packets interleaved; a lane whose ray finishes (hit,
 * miss, left the bounds) is refilled at once from a small queue of rays
 * set up 8 at a time in vectors. Each step makes, per lane, the scalar
 * walk's decisions (voxel_trace.c) with the same IEEE double operations
 * (no FMA; exact power-of-two scalings aside), so every decision and
 * every output bit is the reference's (see the comment above step_chunk for
 * the few places where it computes less and why that changes no bit).
 * The rare per-lane work (a chunk lookup by hash, a brick's mask, the
 * exact fix-up near a plane, a ray's setup near a plane) calls the
 * reference's own functions.
 *
 * AVX2: the same walk in packets of 4 double lanes (see its section), three
 * packets interleaved, with AVX-512's lazy exact quotient, per-ray margin,
 * chunk-change detection, one directory word per chunk entered, group-pair
 * test before the occupancy load, and empty chunk and group boxes; the
 * directory and occupancy words by four scalar loads (no gathers); rays are
 * set up 4 at a time in vectors (setup4, as setup8) into a small queue.
 *
 * NEON: a port of the earlier AVX2 walk (two packets of 4 lanes, rays set
 * up one at a time) in packets of 4 rays whose two halves (one float64x2_t
 * per quantity) step in turn, finished lanes refilled by the reference's
 * wk__voxel_begin, leaving empty chunks and empty pairs of
 * groups through their empty boxes as AVX-512 does (see its section).
 * Counted under qemu-aarch64 (instructions per ray by a TCG plugin, gcc 12
 * -O2, one thread, setup included), on the benchmark's scene
 * (bench/voxel_scene.c, 256^2 of its camera rays and 65536 of its random
 * rays): 1851 against the scalar reference's 2678 per camera ray (-31%),
 * 1246 against 1645 per random ray (-24%); clang 14: 2001 against 2928
 * (-32%), 1333 against 1787 (-25%). Not timed on ARM hardware. */
#include "core/wk_fp_guard.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "voxel_impl.h"
#include "wk_simd.h"

void wk__voxel_raycast_ref(const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t begin,
                           size_t end);

/* 2 B, where B = the largest |bound| of the world's bounds in cells, plus
 * 128: B bounds |x4| of any position a walk accepts (see the comment above
 * step_chunk), and the walks' per-ray margins are taken from it. */
static inline double position_bound2(const struct wk_voxel_world *w) {
    double bmax = 0;
    for (int a = 0; a < 3; a++) {
        double lo = fabs((double)w->lo[a] * 64.0), hi = fabs(((double)w->hi[a] + 1.0) * 64.0);
        bmax = lo > bmax ? lo : bmax;
        bmax = hi > bmax ? hi : bmax;
    }
    return 2.0 * (bmax + 128.0);
}

#if defined(WK_SIMD_AVX512)
#include <immintrin.h>

enum { L = 8 };

/* the position margin's bound B below allows nodes 128 cells past the bounds */
_Static_assert(WK__VBOX_MAX <= 2, "an empty box reaches at most 2 chunks past the lane's chunk");

#if !WK__VDIR_GPAIRS
#error "the AVX-512 walk reads the directory's group-pair summary (x86-64)"
#endif

/* The lanes' state, kept in registers: lanes are changed one at a time
 * with masked broadcasts (never scalar stores that a vector load would
 * have to wait for). Per-lane constants of the ray (its axis signs, the
 * face and the step of each axis) are set once at the refill. The walk
 * keeps no s: the s of the last event is recomputed at a hit from the
 * cell and the face (the entered plane), by the same division. */
typedef struct lanes {
    __m512d o4[3], d4[3], inv4[3], len, limit; /* 4 o, 4 d, 1/(4 d): exact scalings of o, d, 1/d */
    __m512i q[3], face;
    __m512i chunk; /* the directory word of the lane's chunk (address, group-pair summary, empty-pair bit) */
    __m512i back[3];  /* 0 (d > 0) or -1 (d < 0): the cell beyond the exit plane P is P + back */
    __m512i fcode[3]; /* the face entered stepping along the axis: 2a (d > 0) or 2a + 1 */
    __m512d eps, eps1; /* the position test's margin for the whole ray (see walk_step), 1 - eps */
    __mmask8 pos[3], mov[3], fin; /* d > 0; d != 0; tmax finite */
    __mmask8 chg; /* lanes that entered another chunk (or a new ray): chunk to look up */
    __m512i idx; /* the ray of each lane */
} lanes;

/* Rays set up for the walk, waiting for a lane: a small queue in structure
 * of arrays, filled 8 rays at a time by the vector setup below. */
enum { QCAP = 64, QLOW = 16 };
typedef struct rayq {
    /* QCAP + 2 L: reads of 8 entries (a refill) or 16 (a compaction, see
     * q_more) from any head up to QCAP stay inside.
     * o, d, inv hold the lanes' 4 o, 4 d and 1/(4 d) (exact scalings), eps
     * the ray's position margin (see walk_step), all as the lanes keep them */
    _Alignas(64) double o[3][QCAP + 2 * L];
    double d[3][QCAP + 2 * L], inv[3][QCAP + 2 * L], len[QCAP + 2 * L], limit[QCAP + 2 * L], eps[QCAP + 2 * L];
    int64_t q[3][QCAP + 2 * L], face[QCAP + 2 * L], idx[QCAP + 2 * L];
    int head, tail;
    size_t next, end;
    double b2; /* 2 B: B bounds |x4| of an accepted position (see walk_step) */
} rayq;

/* Appends the lanes `m` of the vectors to the queue (compressed). */
static inline __attribute__((always_inline)) void q_append(rayq *rq, __mmask8 m, const __m512d *o, const __m512d *d,
                                                           const __m512d *inv, __m512d len, __m512d limit,
                                                           const __m512i *q, __m512i face, __m512i idx) {
    int t = rq->tail;
    const __m512d four = _mm512_set1_pd(4.0), quarter = _mm512_set1_pd(0.25);
    __m512d ao4 = _mm512_setzero_pd();
    for (int a = 0; a < 3; a++) {
        __m512d o4 = _mm512_mul_pd(o[a], four);
        ao4 = _mm512_max_pd(ao4, _mm512_abs_pd(o4));
        _mm512_storeu_pd(&rq->o[a][t], _mm512_maskz_compress_pd(m, o4));
        _mm512_storeu_pd(&rq->d[a][t], _mm512_maskz_compress_pd(m, _mm512_mul_pd(d[a], four)));
        _mm512_storeu_pd(&rq->inv[a][t], _mm512_maskz_compress_pd(m, _mm512_mul_pd(inv[a], quarter)));
        _mm512_storeu_si512((void *)&rq->q[a][t], _mm512_maskz_compress_epi64(m, q[a]));
    }
    /* the position test's margin for the whole ray (see walk_step) */
    __m512d eps = _mm512_mul_pd(_mm512_add_pd(_mm512_set1_pd(rq->b2), ao4), _mm512_set1_pd(WK__VOXEL_REL_MARGIN * 1.0000001));
    _mm512_storeu_pd(&rq->eps[t], _mm512_maskz_compress_pd(m, eps));
    _mm512_storeu_pd(&rq->len[t], _mm512_maskz_compress_pd(m, len));
    _mm512_storeu_pd(&rq->limit[t], _mm512_maskz_compress_pd(m, limit));
    _mm512_storeu_si512((void *)&rq->face[t], _mm512_maskz_compress_epi64(m, face));
    _mm512_storeu_si512((void *)&rq->idx[t], _mm512_maskz_compress_epi64(m, idx));
    rq->tail = t + __builtin_popcount(m);
}

/* Sets up the next (up to) 8 rays as wk__voxel_begin does, with the same
 * double operations in the same order: the start cell, 1/d, |d|, and for
 * an origin outside the bounds the entry jump (the latest entry plane by
 * exact quotients, the other axes placed from the position when clearly
 * inside a cell). Lanes that would need begin's exact fix-up are set up
 * by wk__voxel_begin itself. Misses are written at once; the rest go to
 * the queue (which must have room for 8 more). */
static void setup8(rayq *rq, const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h) {
    size_t i0 = rq->next, k = rq->end - i0 < L ? rq->end - i0 : L;
    rq->next = i0 + k;
    const __mmask8 valid = (__mmask8)((1u << k) - 1);
    const __m512d zd = _mm512_setzero_pd(), inf = _mm512_set1_pd(INFINITY);
    const __m512i one = _mm512_set1_epi64(1);
    __m512i idx = _mm512_add_epi64(_mm512_set1_epi64((int64_t)i0), _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
    const float *src[6] = {r->ox + i0, r->oy + i0, r->oz + i0, r->dx + i0, r->dy + i0, r->dz + i0};
    __m512d o[3], d[3], inv[3];
    __mmask8 nan = 0;
    for (int a = 0; a < 3; a++) {
        o[a] = _mm512_cvtps_pd(_mm256_maskz_loadu_ps(valid, src[a]));
        d[a] = _mm512_cvtps_pd(_mm256_maskz_loadu_ps(valid, src[3 + a]));
        nan |= _mm512_cmp_pd_mask(o[a], o[a], _CMP_UNORD_Q) | _mm512_cmp_pd_mask(d[a], d[a], _CMP_UNORD_Q);
    }
    __m512d limit = r->tmax ? _mm512_cvtps_pd(_mm256_maskz_loadu_ps(valid, r->tmax + i0)) : inf;
    /* no hit: a NaN component, tmax < 0 or NaN, an empty world */
    __mmask8 miss = valid & (nan | (__mmask8)~_mm512_cmp_pd_mask(limit, zd, _CMP_GE_OQ));
    if (!w->has_bounds) miss = valid;
    __mmask8 todo = valid & (__mmask8)~miss;
    __m512d len = _mm512_sqrt_pd(
        _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(d[0], d[0]), _mm512_mul_pd(d[1], d[1])), _mm512_mul_pd(d[2], d[2])));
    __m512i q[3], LO[3], HI[3];
    __mmask8 pos[3], neg[3], below[3], above[3], outside = 0, bad = 0;
    for (int a = 0; a < 3; a++) {
        __m512d x4 = _mm512_mul_pd(o[a], _mm512_set1_pd(4.0));
        q[a] = _mm512_cvttpd_epi64(_mm512_roundscale_pd(x4, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
        pos[a] = _mm512_cmp_pd_mask(d[a], zd, _CMP_GT_OQ);
        neg[a] = _mm512_cmp_pd_mask(d[a], zd, _CMP_LT_OQ);
        inv[a] = _mm512_maskz_div_pd(pos[a] | neg[a], _mm512_set1_pd(1.0), d[a]);
        LO[a] = _mm512_set1_epi64((int64_t)w->lo[a] * 64);
        HI[a] = _mm512_set1_epi64(((int64_t)w->hi[a] + 1) * 64);
        below[a] = _mm512_cmplt_epi64_mask(q[a], LO[a]);
        above[a] = _mm512_cmpge_epi64_mask(q[a], HI[a]);
        outside |= below[a] | above[a];
        bad |= (below[a] & (__mmask8)~pos[a]) | (above[a] & (__mmask8)~neg[a]);
    }
    miss |= todo & bad;
    todo &= (__mmask8)~bad;
    __m512i face = _mm512_set1_epi64(6);
    __mmask8 jump = todo & outside, slow = 0;
    if (jump) {
        /* the latest entry plane among the axes outside (key order: on equal s the
         * later axis), chosen by the estimates num * (1/d) as the walk chooses its exit
         * planes (see walk_step): a lane with another candidate within the margin
         * is set up by wk__voxel_begin (exact keys), a finite tmax divides the
         * chosen plane's exact quotient for the test below, and elsewhere the
         * other axes are placed from the estimate (within 3 ulp of the quotient,
         * far inside the position test's margin) */
        __m512d es = zd;
        __m512i ea = _mm512_setzero_si512(), eP = _mm512_setzero_si512();
        __mmask8 got = 0, oam[3];
        __m512i P[3];
        __m512d numa[3], esta[3];
        for (int a = 0; a < 3; a++) {
            __mmask8 oa = jump & (below[a] | above[a]);
            P[a] = _mm512_mask_mov_epi64(HI[a], below[a], LO[a]);
            numa[a] = _mm512_sub_pd(_mm512_mul_pd(_mm512_cvtepi64_pd(P[a]), _mm512_set1_pd(0.25)), o[a]);
            __m512d s = _mm512_maskz_mul_pd(oa, numa[a], inv[a]);
            __mmask8 take = oa & ((__mmask8)~got | _mm512_cmp_pd_mask(s, es, _CMP_GE_OQ));
            es = _mm512_mask_mov_pd(es, take, s);
            ea = _mm512_mask_mov_epi64(ea, take, _mm512_set1_epi64(a));
            eP = _mm512_mask_mov_epi64(eP, take, P[a]);
            got |= oa;
            oam[a] = oa;
            esta[a] = s;
        }
        {
            const __m512d nearv = _mm512_sub_pd(es, _mm512_mul_pd(es, _mm512_set1_pd(WK__VOXEL_REL_MARGIN)));
            __mmask8 tie = 0;
            for (int a = 0; a < 3; a++)
                tie |= _mm512_mask_cmp_pd_mask(oam[a] & (__mmask8)~_mm512_cmpeq_epi64_mask(ea, _mm512_set1_epi64(a)),
                                               esta[a], nearv, _CMP_GE_OQ);
            slow |= tie;
            jump &= (__mmask8)~tie;
            __mmask8 fx = jump & _mm512_cmp_pd_mask(limit, inf, _CMP_NEQ_UQ);
            if (fx) {
                __mmask8 e1 = _mm512_cmpeq_epi64_mask(ea, one), e2 = _mm512_cmpeq_epi64_mask(ea, _mm512_set1_epi64(2));
                __m512d nsel = _mm512_mask_mov_pd(_mm512_mask_mov_pd(numa[0], e1, numa[1]), e2, numa[2]);
                __m512d dsel = _mm512_mask_mov_pd(_mm512_mask_mov_pd(d[0], e1, d[1]), e2, d[2]);
                es = _mm512_mask_div_pd(es, fx, nsel, dsel);
            }
        }
        __mmask8 far = jump & (__mmask8)~_mm512_cmp_pd_mask(_mm512_mul_pd(es, len), limit, _CMP_LE_OQ);
        miss |= far;
        jump &= (__mmask8)~far;
        const __m512d four = _mm512_set1_pd(4.0), onev = _mm512_set1_pd(1.0),
                      margin = _mm512_set1_pd(WK__VOXEL_REL_MARGIN);
        for (int b = 0; b < 3; b++) {
            __mmask8 isb = _mm512_cmpeq_epi64_mask(ea, _mm512_set1_epi64(b));
            __mmask8 m = jump & (__mmask8)~isb & (pos[b] | neg[b]);
            if (m) {
                /* one past the bounds at most, as begin */
                __m512i lim = _mm512_mask_mov_epi64(_mm512_sub_epi64(LO[b], one), pos[b], HI[b]);
                __m512i lo = _mm512_mask_mov_epi64(lim, pos[b], q[b]), hi = _mm512_mask_mov_epi64(q[b], pos[b], lim);
                __m512d sd = _mm512_mul_pd(es, d[b]);
                __m512d x4 = _mm512_mul_pd(_mm512_add_pd(o[b], sd), four);
                __mmask8 inr = _mm512_cmp_pd_mask(x4, _mm512_cvtepi64_pd(lo), _CMP_GE_OQ) &
                               _mm512_cmp_pd_mask(x4, _mm512_add_pd(_mm512_cvtepi64_pd(hi), onev), _CMP_LT_OQ);
                __m512d fl = _mm512_roundscale_pd(x4, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
                __m512d frac = _mm512_sub_pd(x4, fl);
                __m512d eps = _mm512_mul_pd(_mm512_add_pd(_mm512_abs_pd(x4), _mm512_mul_pd(four, _mm512_abs_pd(sd))),
                                            margin);
                __mmask8 ok = m & inr & _mm512_cmp_pd_mask(frac, eps, _CMP_GT_OQ) &
                              _mm512_cmp_pd_mask(frac, _mm512_sub_pd(onev, eps), _CMP_LT_OQ);
                q[b] = _mm512_mask_mov_epi64(q[b], ok, _mm512_cvttpd_epi64(fl));
                /* far past lim (two cells and more, with a relative margin for large x4):
                 * begin's exact fix-up stops at lim, one past the bounds: a miss */
                __m512d slack = _mm512_add_pd(_mm512_set1_pd(2.0),
                                              _mm512_mul_pd(_mm512_abs_pd(x4), _mm512_set1_pd(0x1p-40)));
                __m512d limd = _mm512_cvtepi64_pd(lim);
                __mmask8 beyond = (pos[b] & _mm512_cmp_pd_mask(x4, _mm512_add_pd(limd, slack), _CMP_GT_OQ)) |
                                  (neg[b] & _mm512_cmp_pd_mask(x4, _mm512_sub_pd(limd, slack), _CMP_LT_OQ));
                beyond &= m & (__mmask8)~ok;
                miss |= beyond;
                slow |= m & (__mmask8)~(ok | beyond);
            }
            /* the entry axis: the cell beyond the plane */
            __mmask8 me = jump & isb;
            q[b] = _mm512_mask_mov_epi64(q[b], me, _mm512_mask_sub_epi64(eP, neg[b], eP, one));
            face = _mm512_mask_mov_epi64(face, me, _mm512_set1_epi64(2 * b + 0));
            face = _mm512_mask_mov_epi64(face, me & neg[b], _mm512_set1_epi64(2 * b + 1));
        }
        jump &= (__mmask8)~(slow | miss);
        slow &= (__mmask8)~miss;
        /* still outside after the jump: a miss */
        __mmask8 out2 = 0;
        for (int a = 0; a < 3; a++)
            out2 |= _mm512_cmplt_epi64_mask(q[a], LO[a]) | _mm512_cmpge_epi64_mask(q[a], HI[a]);
        miss |= jump & out2;
    }
    __mmask8 ready = todo & (__mmask8)~(miss | slow);
    q_append(rq, ready, o, d, inv, len, limit, q, face, idx);
    for (unsigned m = miss; m; m &= m - 1) wk__voxel_write_miss(h, i0 + (size_t)__builtin_ctz(m));
    for (unsigned m = slow; m; m &= m - 1) {
        size_t i = i0 + (size_t)__builtin_ctz(m);
        wk__vray ray;
        wk__vstate st;
        if (!wk__vray_load(r, i, &ray) || wk__voxel_begin(w, &ray, &st) != 2) {
            wk__voxel_write_miss(h, i);
            continue;
        }
        int t = rq->tail++;
        double ao4 = 0.0;
        for (int a = 0; a < 3; a++) {
            rq->o[a][t] = ray.o[a] * 4.0;
            rq->d[a][t] = ray.d[a] * 4.0;
            rq->inv[a][t] = st.inv[a] * 0.25;
            rq->q[a][t] = st.q[a];
            double v = fabs(rq->o[a][t]);
            ao4 = ao4 > v ? ao4 : v; /* as _mm512_max_pd(ao4, v): v where v is not greater */
        }
        rq->eps[t] = (rq->b2 + ao4) * (WK__VOXEL_REL_MARGIN * 1.0000001);
        rq->len[t] = st.len;
        rq->limit[t] = ray.limit;
        rq->face[t] = st.face;
        rq->idx[t] = (int64_t)i;
    }
}

/* The walk's integer constants, broadcast from memory where the walk uses
 * them (KQ(name) reads wk__vk[K_name] through a pointer the compiler cannot
 * see through): GCC otherwise makes each one anew at every use, a move into
 * a general register and a broadcast from it (on the vector pipes), and in
 * this loop those cost about 4% (camera rays). */
static const int64_t wk__vk[] = {1,  3,   12,  48,   (int64_t)WK__VDIR_ADDR, (int64_t)0xFF00000000000000,
                                 2,  4,   (int64_t)1 << 56, 8, (int64_t)WK__VPAIR, 0x2A,
                                 64, 128, 32,  16,   0xF0, 0x1F0, ~(int64_t)63, -1, 0, 5};
enum {
    K_1, K_3, K_12, K_48, K_ADDR, K_TOP, K_2, K_4, K_B56, K_8, K_PAIR, K_S2A,
    K_64, K_128, K_32, K_16, K_F0, K_1F0, K_NOT63, K_M1, K_0, K_5
};
#define KQ(n) _mm512_set1_epi64(kq[K_##n])
#define KQ_INIT                  \
    const int64_t *kq = wk__vk; \
    __asm__("" : "+r"(kq))

#if defined(__clang__)
#define WK__UNROLL_GCC
#else
#define WK__UNROLL_GCC _Pragma("GCC unroll 4")
#endif

/* Sets up 8 more rays into the queue (there are fewer than QLOW waiting). */
static inline __attribute__((always_inline)) void q_more(rayq *rq, const struct wk_voxel_world *w, const wk_rays *r,
                                                         const wk_hits *h) {
    if (rq->tail + L > QCAP) {
        /* move the (fewer than QLOW = 2 L) waiting rays to the front (no overlap:
         * head >= QCAP - L - QLOW) */
        const int hd = rq->head;
        for (int j = 0; j < QLOW; j += L) {
            for (int a = 0; a < 3; a++) {
                _mm512_storeu_pd(&rq->o[a][j], _mm512_loadu_pd(&rq->o[a][hd + j]));
                _mm512_storeu_pd(&rq->d[a][j], _mm512_loadu_pd(&rq->d[a][hd + j]));
                _mm512_storeu_pd(&rq->inv[a][j], _mm512_loadu_pd(&rq->inv[a][hd + j]));
                _mm512_storeu_si512((void *)&rq->q[a][j], _mm512_loadu_si512((const void *)&rq->q[a][hd + j]));
            }
            _mm512_storeu_pd(&rq->len[j], _mm512_loadu_pd(&rq->len[hd + j]));
            _mm512_storeu_pd(&rq->eps[j], _mm512_loadu_pd(&rq->eps[hd + j]));
            _mm512_storeu_pd(&rq->limit[j], _mm512_loadu_pd(&rq->limit[hd + j]));
            _mm512_storeu_si512((void *)&rq->face[j], _mm512_loadu_si512((const void *)&rq->face[hd + j]));
            _mm512_storeu_si512((void *)&rq->idx[j], _mm512_loadu_si512((const void *)&rq->idx[hd + j]));
        }
        rq->tail -= hd;
        rq->head = 0;
    }
    setup8(rq, w, r, h);
}

/* Fills the lanes `want` of packet p from the queue (set up more rays
 * first when it runs short); returns the lanes filled (fewer at the end
 * of the rays). */
static inline __attribute__((always_inline)) __mmask8 fill(lanes *p, __mmask8 want, rayq *rq,
                                                           const struct wk_voxel_world *w, const wk_rays *r,
                                                           const wk_hits *h) {
    int k = __builtin_popcount(want);
    while (rq->tail - rq->head < k && rq->next < rq->end) q_more(rq, w, r, h);
    int avail = rq->tail - rq->head, m = avail < k ? avail : k;
    if (m == 0) return 0;
    /* the lowest m lanes of want (all of them but at the end of the rays) */
    unsigned f = want;
    if (m < k) {
        unsigned rest = want;
        f = 0;
        for (int j = 0; j < m; j++) {
            f |= rest & (0u - rest);
            rest &= rest - 1;
        }
    }
    const int hd = rq->head;
    rq->head = hd + m;
    KQ_INIT;
    /* the face codes 0..5 (2 a, 2 a + 1) as wk__vk entries, read from memory like KQ */
    static const unsigned char fc[6] = {K_0, K_1, K_2, K_3, K_4, K_5};
    const __m512i zero = _mm512_setzero_si512();
    const __m512d zd = _mm512_setzero_pd();
    for (int a = 0; a < 3; a++) {
        p->o4[a] = _mm512_mask_expand_pd(p->o4[a], f, _mm512_loadu_pd(&rq->o[a][hd]));
        p->d4[a] = _mm512_mask_expand_pd(p->d4[a], f, _mm512_loadu_pd(&rq->d[a][hd]));
        p->inv4[a] = _mm512_mask_expand_pd(p->inv4[a], f, _mm512_loadu_pd(&rq->inv[a][hd]));
        p->q[a] = _mm512_mask_expand_epi64(p->q[a], f, _mm512_loadu_si512((const void *)&rq->q[a][hd]));
        /* the per-lane axis constants, for every lane (idle lanes hold old rays or zeros) */
        __mmask8 ps = _mm512_cmp_pd_mask(p->d4[a], zd, _CMP_GT_OQ), ng = _mm512_cmp_pd_mask(p->d4[a], zd, _CMP_LT_OQ);
        p->pos[a] = ps;
        p->mov[a] = ps | ng;
        p->back[a] = _mm512_maskz_mov_epi64(ng, KQ(M1));
        p->fcode[a] = _mm512_mask_mov_epi64(_mm512_set1_epi64(kq[fc[2 * a]]), ng, _mm512_set1_epi64(kq[fc[2 * a + 1]]));
    }
    p->eps = _mm512_mask_expand_pd(p->eps, f, _mm512_loadu_pd(&rq->eps[hd]));
    p->eps1 = _mm512_sub_pd(_mm512_set1_pd(1.0), p->eps);
    p->len = _mm512_mask_expand_pd(p->len, f, _mm512_loadu_pd(&rq->len[hd]));
    p->limit = _mm512_mask_expand_pd(p->limit, f, _mm512_loadu_pd(&rq->limit[hd]));
    p->fin = _mm512_cmp_pd_mask(p->limit, _mm512_set1_pd(INFINITY), _CMP_NEQ_UQ);
    p->face = _mm512_mask_expand_epi64(p->face, f, _mm512_loadu_si512((const void *)&rq->face[hd]));
    p->idx = _mm512_mask_expand_epi64(p->idx, f, _mm512_loadu_si512((const void *)&rq->idx[hd]));
    p->chunk = _mm512_mask_mov_epi64(p->chunk, f, zero);
    p->chg |= (__mmask8)f;
    return (__mmask8)f;
}

/* The walk's step, in three parts (step_chunk, step_cell, step_exit). Each
 * step makes, per lane, the scalar walk's decisions (voxel_trace.c) with
 * the same IEEE double operations (no FMA), with differences that change
 * no result: the exit plane's exact quotient is
 * only divided out where it decides something (a near-tie of estimates, a
 * finite tmax, an exact fix-up, a hit). Elsewhere the other axes' cells
 * are placed from the estimate instead (`sv` below): the estimate
 * num * fl(1/d) lies within 3 ulp of the quotient fl(num/d), which moves
 * o + s*d by at most 3 * 2^-53 |s*d|, far inside the acceptance margin
 * (|x4| + 4 |s*d|) * 2^-46 of the position test; a position accepted from
 * the estimate is therefore the cell the exact quotient gives, and any
 * other lane is settled by wk__voxel_exact_advance with the exact
 * quotient, as in the reference.
 * The lanes hold 4 o, 4 d and 1/(4 d) (scalings by powers of two, exact):
 * 4 num = P - 4 o, its estimate (4 num) (1/(4 d)) and quotient
 * (4 num) / (4 d) are the reference's num * (1/d) and num / d bit for bit,
 * and x4 = 4 o + s (4 d) is its (o + s d) 4.
 * The margin itself is a per-ray constant no smaller than the reference's
 * (a larger margin only accepts fewer positions): an accepted x4 lies in
 * the node (an aligned cube of at most 128 cells around a cell inside the
 * bounds, an empty box reaching at most WK__VBOX_MAX <= 2 chunks past the
 * lane's chunk, or a box of groups inside it), so |x4| <= B = max |LO|,
 * |HI| + 128 cells, and
 * 4 |s*d| <= |x4| + 4 |o|, so (|x4| + 4 |s*d|) <= 2 B + 4 max |o_a|; the
 * product is taken with a 1 + 1e-7 factor over its own rounding.
 * The reference's check that an accepted cell is not behind q is left out:
 * the position test alone proves the cell (the state after the event is
 * decided by the plane quotients around x4, wherever q was). */

/* A step's state between its three parts (see raycast_avx512). */
typedef struct step_state {
    __mmask8 act, done, hits, live, hasg, gnear;
    __m512i N, occ, gaddr;
    const int64_t *wc; /* the world's lo[3], hi - lo + 1 [3] (chunks), 2 dn0 dn1, 2 dn0 */
} step_state;

/* Step, part 1: lanes leaving the bounds, chunk lookups. */
static inline __attribute__((always_inline)) void step_chunk(lanes *p, step_state *s, const struct wk_voxel_world *w,
                                                      const wk_hits *h) {
    (void)w;
    (void)h;
    /* the bounds in chunks: lo and nb = hi - lo + 1 chunks per axis; the
     * directory entry of chunk lo + r lies at dir + K + ((r2 dn1 + r1) dn0 + r0) */
    /* (broadcast from s->wc, made once per call: see KQ) */
    const int64_t *wc = s->wc;
    const __m512i clo[3] = {_mm512_set1_epi64(wc[0]), _mm512_set1_epi64(wc[1]), _mm512_set1_epi64(wc[2])};
    const __m512i nb[3] = {_mm512_set1_epi64(wc[3]), _mm512_set1_epi64(wc[4]), _mm512_set1_epi64(wc[5])};
    _Alignas(64) int64_t tc[3][L];
    __m512i *q = p->q;
    __mmask8 done = 0, act = s->act, live = act;
    __mmask8 changed = act & p->chg;
    if (changed) {
        /* leaving the bounds: a miss. The bounds are whole chunks, so only a
         * lane that entered another chunk can have left them. Inside: the
         * chunk's offset r from lo is below nb, unsigned. */
        __m512i r[3];
        __mmask8 ina[3];
        for (int a = 0; a < 3; a++) {
            r[a] = _mm512_sub_epi64(_mm512_srai_epi64(q[a], 6), clo[a]);
            ina[a] = _mm512_cmplt_epu64_mask(r[a], nb[a]); /* the three compares side by side */
        }
        __mmask8 in = changed & ina[0] & ina[1] & ina[2];
        done |= changed & (__mmask8)~in;
        live &= (__mmask8)~(changed & (__mmask8)~in);
        changed = in;
        if (changed) {
            /* chunk lookups where a lane entered another chunk */
            if (w->dir) {
                /* the directory (lanes are inside the bounds, which it contains) */
                /* 2 i = r2 (2 dn0 dn1) + r1 (2 dn0) + 2 r0: the two products side by side */
                const __m512i s2 = _mm512_set1_epi64(wc[6]), s1 = _mm512_set1_epi64(wc[7]);
                const wk__vdirent *base = wk__vdir_get(w, w->lo[0], w->lo[1], w->lo[2]);
                __m512i i2 = _mm512_add_epi64(_mm512_mullo_epi64(r[2], s2), _mm512_mullo_epi64(r[1], s1));
                i2 = _mm512_add_epi64(i2, _mm512_add_epi64(r[0], r[0]));
                /* entry i's word c: the chunk's address, its group-pair summary and the
                 * empty-pair bit (see WK__VDIR_GPAIRS): all the walk needs, one load */
                p->chunk = _mm512_mask_i64gather_epi64(p->chunk, changed, i2, (const void *)base, 8);
            } else {
                for (int a = 0; a < 3; a++) _mm512_store_si512((void *)tc[a], _mm512_add_epi64(r[a], clo[a]));
                for (unsigned m = changed; m; m &= m - 1) {
                    int l = __builtin_ctz(m);
                    const wk__vchunk *c = wk__vfind(w, (int32_t)tc[0][l], (int32_t)tc[1][l], (int32_t)tc[2][l]);
                    /* the directory word without the empty-pair bit and with box code 0 (the
                     * chunk alone) for an empty chunk */
                    int64_t word = c && c->groups ? (int64_t)((uintptr_t)c | wk__vdir_gpairs(c->groups)) : 0;
                    p->chunk = _mm512_mask_set1_epi64(p->chunk, (__mmask8)(1u << l), word);
                }
            }
        }
    }
    s->done = done;
    s->live = live;
}

/* Step, part 2a: the occupancy words of the lanes' groups (one gather). */
static inline __attribute__((always_inline)) void step_occ(lanes *p, step_state *s) {
    KQ_INIT;
    const __m512i zero = _mm512_setzero_si512(), one = KQ(1), three = KQ(3);
    const __m512i m12 = KQ(12), m48 = KQ(48);
    /* p.chunk holds the directory word: group g's record lies at (chunk & WK__VDIR_ADDR) + off_occ + 16 g */
    const void *off_occ = (const void *)(uintptr_t)(offsetof(wk__vchunk, grp) + offsetof(wk__vgroup, occ));
    const __m512i addr_mask = KQ(ADDR);
    const __m512i *q = p->q;
    const __m512i chunk = p->chunk;
    /* an absent or empty chunk (no group-pair bit): a node of 64^3 cells */
    __mmask8 hasg = s->live & _mm512_test_epi64_mask(chunk, KQ(TOP));
    /* group g = bits 4-5 of q0, q1, q2 as bits 0-1, 2-3, 4-5 */
    __m512i g = _mm512_and_si512(_mm512_srli_epi64(q[0], 4), three);
    g = _mm512_ternarylogic_epi64(m12, _mm512_srli_epi64(q[1], 2), g, 0xEA); /* (A & B) | C */
    g = _mm512_ternarylogic_epi64(m48, q[2], g, 0xEA);
    __m512i gaddr = _mm512_add_epi64(_mm512_and_si512(chunk, addr_mask), _mm512_slli_epi64(g, 4));
    /* the group pair k = bits 5 of q0, q1, q2 as bits 0, 1, 2: its summary bit 56 + k.
     * A group in an empty pair is empty: its word (0) is not loaded */
    __m512i gk = _mm512_and_si512(_mm512_srli_epi64(q[0], 5), one);
    gk = _mm512_ternarylogic_epi64(KQ(2), _mm512_srli_epi64(q[1], 4), gk, 0xEA);
    gk = _mm512_ternarylogic_epi64(KQ(4), _mm512_srli_epi64(q[2], 3), gk, 0xEA);
    /* within hasg: a set group-pair bit makes the top byte nonzero (tested on
     * live, side by side with hasg) */
    const __m512i gbit = _mm512_sllv_epi64(KQ(B56), gk);
    __mmask8 gnear = _mm512_mask_test_epi64_mask(s->live, chunk, gbit);
    /* a group in an empty pair is empty: its record's second word (brick, 0 for an
     * empty group) holds its empty box of groups (see wk__vgroup), loaded instead */
    const __m512i raddr = _mm512_mask_add_epi64(gaddr, hasg & (__mmask8)~gnear, gaddr, KQ(8));
    s->occ = _mm512_mask_i64gather_epi64(zero, hasg, raddr, off_occ, 1);
    s->gaddr = gaddr;
    s->hasg = hasg;
    s->gnear = gnear;
}

/* Step, part 2: the node around each cell (its size N), hits (written out). */
static inline __attribute__((always_inline)) void step_cell(lanes *p, step_state *s, const struct wk_voxel_world *w,
                                                      const wk_hits *h) {
    KQ_INIT;
    (void)w;
    (void)h;
    const __m512i zero = _mm512_setzero_si512();
    const __m512d zd = _mm512_setzero_pd();
    const __m512i one = KQ(1), three = KQ(3);
    const __m512i pair = KQ(PAIR), sel2a = KQ(S2A);
    const __m512i m12 = KQ(12), m48 = KQ(48);
    _Alignas(64) int64_t tq[3][L], tface[L], tsub[L], tidx[L];
    _Alignas(64) double tt[L];
    _Alignas(64) uint64_t tchunk[L];
    __m512i *q = p->q;
    __mmask8 done = s->done, hits = 0, live = s->live;
    const __m512i chunk = p->chunk;
    const __mmask8 hasg = s->hasg;
    const __m512i gaddr = s->gaddr, occ = s->occ;
    const __mmask8 gnear = s->gnear; /* within hasg: occ holds the group's occupancy there, a box elsewhere */
    __mmask8 hasocc = _mm512_mask_cmpneq_epi64_mask(gnear, occ, zero);
    __m512i bb = _mm512_and_si512(_mm512_srli_epi64(q[0], 2), three);
    bb = _mm512_ternarylogic_epi64(m12, q[1], bb, 0xEA);
    bb = _mm512_ternarylogic_epi64(m48, _mm512_slli_epi64(q[2], 2), bb, 0xEA);
    /* within hasocc: a set bit means occ != 0 (tested side by side with hasocc) */
    __mmask8 occbit = _mm512_mask_test_epi64_mask(gnear, _mm512_srlv_epi64(occ, bb), one);
    /* empty group (block) in an empty aligned pair: twice as far (as the reference) */
    __mmask8 bnear = _mm512_test_epi64_mask(occ, _mm512_sllv_epi64(pair, _mm512_and_si512(bb, sel2a)));
    /* an empty chunk in an empty aligned pair of chunks: 128 (a nonempty chunk never has the bit) */
    __m512i N = _mm512_mask_mov_epi64(KQ(64), _mm512_test_epi64_mask(chunk, one), KQ(128));
    N = _mm512_mask_mov_epi64(N, hasg, KQ(32));
    N = _mm512_mask_mov_epi64(N, hasg & gnear, KQ(16));
    N = _mm512_mask_mov_epi64(N, hasocc, KQ(8));
    N = _mm512_mask_mov_epi64(N, hasocc & bnear, KQ(4));
    N = _mm512_mask_mov_epi64(N, occbit, one);
    if (occbit) {
        /* the brick bit: lane by lane (usually one lane; a gather costs more) */
        _Alignas(64) uint64_t tga[L], tbb[L];
        _mm512_store_si512((void *)tga, gaddr);
        _mm512_store_si512((void *)tbb, bb);
        __mmask8 isbrick = 0;
        for (unsigned m = occbit; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            uint64_t br = *(const uint64_t *)(uintptr_t)(tga[l] + offsetof(wk__vchunk, grp) + offsetof(wk__vgroup, brick));
            isbrick |= (__mmask8)(((br >> tbb[l]) & 1) << l);
        }
        hits = occbit & (__mmask8)~isbrick;
        __m512i sub = _mm512_set1_epi64(-1);
        if (isbrick) {
            for (int a = 0; a < 3; a++) _mm512_store_si512((void *)tq[a], q[a]);
            _mm512_store_si512((void *)tchunk, chunk);
            for (unsigned m = isbrick; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                const wk__vchunk *c = wk__vdir_chunk((uintptr_t)tchunk[l]);
                uint64_t ux = (uint64_t)tq[0][l], uy = (uint64_t)tq[1][l], uz = (uint64_t)tq[2][l];
                int gl = wk__vpart(ux, uy, uz, 4);
                int bl = wk__vpart(ux, uy, uz, 2);
                uint64_t mk = wk__vbrick_mask(c, gl, bl);
                int s = wk__vpart(ux, uy, uz, 0);
                if ((mk >> s) & 1) {
                    sub = _mm512_mask_set1_epi64(sub, (__mmask8)(1u << l), s);
                    hits |= (__mmask8)(1u << l);
                }
            }
        }
        if (hits) {
            /* s of the last event: the entered plane's quotient, as the walk divided it
             * (face 6: the start, s = 0); t = s * len + 0.0, counted when t <= tmax */
            __m512i fa = _mm512_srli_epi64(p->face, 1), fb = _mm512_and_si512(p->face, one);
            __mmask8 f1 = _mm512_cmpeq_epi64_mask(fa, one), f2 = _mm512_cmpeq_epi64_mask(fa, KQ(2));
            __mmask8 f6 = _mm512_cmpeq_epi64_mask(p->face, _mm512_set1_epi64(6));
            __m512i qs = _mm512_mask_mov_epi64(_mm512_mask_mov_epi64(q[0], f1, q[1]), f2, q[2]);
            __m512d os = _mm512_mask_mov_pd(_mm512_mask_mov_pd(p->o4[0], f1, p->o4[1]), f2, p->o4[2]);
            __m512d ds = _mm512_mask_mov_pd(_mm512_mask_mov_pd(p->d4[0], f1, p->d4[1]), f2, p->d4[2]);
            /* 4 num / (4 d): the same quotient as num / d */
            __m512d num = _mm512_sub_pd(_mm512_cvtepi64_pd(_mm512_add_epi64(qs, fb)), os);
            __m512d ks = _mm512_maskz_div_pd(hits & (__mmask8)~f6, num, ds);
            __m512d t = _mm512_add_pd(_mm512_mul_pd(ks, p->len), zd);
            __mmask8 in = hits & _mm512_cmp_pd_mask(t, p->limit, _CMP_LE_OQ);
            _mm512_store_pd(tt, t);
            for (int a = 0; a < 3; a++) _mm512_store_si512((void *)tq[a], _mm512_srai_epi64(q[a], 2));
            _mm512_store_si512((void *)tface, p->face);
            _mm512_store_si512((void *)tsub, sub);
            _mm512_store_si512((void *)tidx, p->idx);
            for (unsigned m = hits; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                size_t i = (size_t)tidx[l];
                if (!((in >> l) & 1)) {
                    wk__voxel_write_miss(h, i);
                    continue;
                }
                wk__voxel_write_hit(h, i, (float)tt[l], (int32_t)tq[0][l], (int32_t)tq[1][l], (int32_t)tq[2][l],
                                    (int8_t)tsub[l], (int8_t)tface[l]);
            }
        }
        done |= hits;
        live &= (__mmask8)~hits;
    }
    s->done = done;
    s->hits = hits;
    s->live = live;
    s->N = N;
}

/* Step, part 3: leaving the node; misses written out; returns the lanes that finished. */
static inline __attribute__((always_inline)) __mmask8 step_exit(lanes *p, step_state *s, const struct wk_voxel_world *w,
                                                      const wk_hits *h) {
    KQ_INIT;
    (void)w;
    (void)h;
    const __m512i zero = _mm512_setzero_si512();
    const __m512i one = KQ(1);
    const __m512d inf = _mm512_set1_pd(INFINITY), quarter = _mm512_set1_pd(0.25), margin = _mm512_set1_pd(WK__VOXEL_REL_MARGIN);
    _Alignas(64) int64_t tq[3][L], tea[L], tbase[3][L], tNa[3][L], tidx[L];
    _Alignas(64) double to[3][L], td[3][L], tes[L];
    __m512i *q = p->q;
    __mmask8 done = s->done, hits = s->hits, live = s->live;
    __m512i N = s->N;
    if (live) {
        /* the exit plane by estimate. The node: the aligned cube of N cells around q,
         * or in an empty or absent chunk (no group-pair bit) the directory word's
         * empty box of chunks (see WK__VBOX_MAX), or in a group of an empty aligned
         * pair of groups the group's empty box of groups (see wk__vgroup; none
         * where its word is 0): per axis a, units c - lo to c - lo + s (s = lo + hi),
         * from cell base = (c - lo) unit, Na = (s + 1) unit cells (unit 64 or 16).
         * Every cell of any of them is empty, so leaving it in one jump is the
         * reference's walk (voxel_trace.c's argument holds for any empty box) */
        const __m512i Nm1 = _mm512_sub_epi64(N, one);
        /* boxes: chunk boxes where the chunk is empty, group boxes where the group's
         * pair is empty and its box word nonzero (0: none, the pair's 32^3 cells) */
        const __mmask8 gbox = _mm512_mask_test_epi64_mask(live & s->hasg & (__mmask8)~s->gnear, s->occ, s->occ);
        const __mmask8 isbox = (live & (__mmask8)~s->hasg) | gbox;
        /* the box's word: the directory word, or in a chunk the group's (gathered in step_occ) */
        const __m512i bw = _mm512_mask_mov_epi64(p->chunk, gbox, s->occ);
        /* a box's unit: 64 cells (chunks) or 16 (groups) */
        const __m512i unit = _mm512_mask_mov_epi64(KQ(64), gbox, KQ(16));
        /* the low bits cleared from q: N - 1, or unit - 1 in a box (its chunk or group) */
        const __m512i clr = _mm512_mask_sub_epi64(Nm1, isbox, unit, one);
        __m512d *o = p->o4, *d = p->d4; /* scaled by 4: num below is 4 num, its quotients and estimates the same */
        __m512i base[3], P[3], Na[3];
        __m512d num[3], est[3];
        for (int a = 0; a < 3; a++) {
            /* lo unit and s unit of a box (bits WK__VBOX_LO(a) and WK__VBOX_S(a) of a chunk's,
             * 2 lower of a group's: see WK__VGBOX_LO), 0 elsewhere */
            __m512i lo64 = _mm512_maskz_and_epi64(isbox, _mm512_srli_epi64(bw, WK__VBOX_LO(a) - 6), KQ(F0));
            __m512i s64 = _mm512_maskz_and_epi64(isbox, _mm512_srli_epi64(bw, WK__VBOX_S(a) - 6), KQ(1F0));
            base[a] = _mm512_sub_epi64(_mm512_andnot_si512(clr, q[a]), lo64);
            /* N, or (s + 1) unit in a box */
            Na[a] = _mm512_add_epi64(_mm512_mask_mov_epi64(N, isbox, unit), s64);
            P[a] = _mm512_mask_add_epi64(base[a], p->pos[a], base[a], Na[a]);
            num[a] = _mm512_sub_pd(_mm512_cvtepi64_pd(P[a]), o[a]);
            est[a] = _mm512_mask_mul_pd(inf, p->mov[a], num[a], p->inv4[a]);
        }
        /* the first smallest estimate (est of a still axis: +inf) */
        __mmask8 t1 = _mm512_cmp_pd_mask(est[1], est[0], _CMP_LT_OQ);
        /* min(a, b) is a < b ? a : b (b on equal, -0 and NaN included): the same
         * value as the selections by t1 and t2, off the masks' latency */
        __m512d best01 = _mm512_min_pd(est[1], est[0]);
        __mmask8 t2 = _mm512_cmp_pd_mask(est[2], best01, _CMP_LT_OQ);
        __m512d best = _mm512_min_pd(est[2], best01);
        __mmask8 is[3];
        is[2] = t2;
        is[1] = t1 & (__mmask8)~t2;
        is[0] = (__mmask8)~(t1 | t2);
        __mmask8 none = live & _mm512_cmp_pd_mask(best, inf, _CMP_EQ_OQ);
        done |= none;
        live &= (__mmask8)~none;
        /* near-ties: another axis's estimate within the margin; the reference's exact comparisons */
        __m512d nearv = _mm512_add_pd(best, _mm512_mul_pd(best, margin));
        /* two of the three within: (l0 & l1) | ((l0 | l1) & l2), as masked compares */
        __mmask8 l0 = _mm512_mask_cmp_pd_mask(live, est[0], nearv, _CMP_LE_OQ);
        __mmask8 l1 = _mm512_mask_cmp_pd_mask(live, est[1], nearv, _CMP_LE_OQ);
        __mmask8 tie = _mm512_mask_cmp_pd_mask(l0, est[1], nearv, _CMP_LE_OQ) |
                       _mm512_mask_cmp_pd_mask(l0 | l1, est[2], nearv, _CMP_LE_OQ);
        __m512d sv = best; /* the s the other axes are placed at */
        __mmask8 exact = 0; /* lanes whose sv is the exact quotient */
        if (tie) {
            __m512i ea = _mm512_mask_mov_epi64(_mm512_mask_mov_epi64(zero, is[1], one), is[2], KQ(2));
            __m512d nsel = _mm512_mask_mov_pd(_mm512_mask_mov_pd(num[0], is[1], num[1]), is[2], num[2]);
            __m512d dsel = _mm512_mask_mov_pd(_mm512_mask_mov_pd(d[0], is[1], d[1]), is[2], d[2]);
            __m512d es = _mm512_mask_div_pd(best, tie, nsel, dsel);
            for (int a = 0; a < 3; a++) {
                __m512i av = _mm512_set1_epi64(a);
                __mmask8 m = tie & p->mov[a] & (__mmask8)~_mm512_cmpeq_epi64_mask(ea, av) &
                             _mm512_cmp_pd_mask(est[a], nearv, _CMP_LE_OQ);
                if (!m) continue;
                __m512d s2 = _mm512_mask_div_pd(es, m, num[a], d[a]);
                /* key (es, ea) <= (s, a)? */
                __mmask8 le = _mm512_cmp_pd_mask(es, s2, _CMP_LT_OQ) |
                              (_mm512_cmp_pd_mask(es, s2, _CMP_EQ_OQ) & _mm512_cmple_epi64_mask(ea, av));
                __mmask8 upd = m & (__mmask8)~le;
                es = _mm512_mask_mov_pd(es, upd, s2);
                ea = _mm512_mask_mov_epi64(ea, upd, av);
            }
            for (int a = 0; a < 3; a++)
                is[a] = (is[a] & (__mmask8)~tie) | (tie & _mm512_cmpeq_epi64_mask(ea, _mm512_set1_epi64(a)));
            sv = _mm512_mask_mov_pd(sv, tie, es);
            exact = tie;
        }
        /* a finite tmax: the event must lie within it (exact quotient) */
        __mmask8 fl = live & p->fin;
        if (fl) {
            __mmask8 need = fl & (__mmask8)~exact;
            __m512d nsel = _mm512_mask_mov_pd(_mm512_mask_mov_pd(num[0], is[1], num[1]), is[2], num[2]);
            __m512d dsel = _mm512_mask_mov_pd(_mm512_mask_mov_pd(d[0], is[1], d[1]), is[2], d[2]);
            sv = _mm512_mask_div_pd(sv, need, nsel, dsel);
            exact |= need;
            __mmask8 over = fl & (__mmask8)~_mm512_cmp_pd_mask(_mm512_mul_pd(sv, p->len), p->limit, _CMP_LE_OQ);
            done |= over;
            live &= (__mmask8)~over;
        }
        /* the other axes: from the position, exact fix-up near a plane */
        __mmask8 big = live & _mm512_cmpgt_epi64_mask(N, one);
        __mmask8 fix[3] = {0, 0, 0};
        __m512i qold[3] = {q[0], q[1], q[2]};
        if (big) {
            for (int b2 = 0; b2 < 3; b2++) {
                __mmask8 m = big & p->mov[b2] & (__mmask8)~is[b2];
                __m512d x4 = _mm512_add_pd(o[b2], _mm512_mul_pd(sv, d[b2])); /* = (o + sv d) 4, exactly */
                __m512d fl4 = _mm512_roundscale_pd(x4, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
                /* floor(x4) converted in one rounding (= cvtt(fl4)); out of range or NaN:
                 * INT64_MIN, refused below */
                __m512i c = _mm512_cvt_roundpd_epi64(x4, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
                __m512d frac = _mm512_sub_pd(x4, fl4);
                __mmask8 ok = _mm512_mask_cmp_pd_mask(m, frac, p->eps, _CMP_GT_OQ) &
                              _mm512_cmp_pd_mask(frac, p->eps1, _CMP_LT_OQ);
                /* within the node (base <= c < base + Na); the reference's "not behind q"
                 * follows from the position test (the cell q held at the last event) */
                ok &= _mm512_cmplt_epu64_mask(_mm512_sub_epi64(c, base[b2]), Na[b2]);
                q[b2] = _mm512_mask_mov_epi64(q[b2], ok, c);
                fix[b2] = m & (__mmask8)~ok;
            }
        }
        if (fix[0] | fix[1] | fix[2]) {
            /* the exact quotient of the exit plane, as the reference divides it */
            __m512d nsel = _mm512_mask_mov_pd(_mm512_mask_mov_pd(num[0], is[1], num[1]), is[2], num[2]);
            __m512d dsel = _mm512_mask_mov_pd(_mm512_mask_mov_pd(d[0], is[1], d[1]), is[2], d[2]);
            __m512d es = _mm512_mask_div_pd(sv, (__mmask8)((fix[0] | fix[1] | fix[2]) & ~exact), nsel, dsel);
            __m512i ea = _mm512_mask_mov_epi64(_mm512_mask_mov_epi64(zero, is[1], one), is[2], KQ(2));
            _mm512_store_pd(tes, es);
            _mm512_store_si512((void *)tea, ea);
            for (int b2 = 0; b2 < 3; b2++) {
                if (!fix[b2]) continue;
                _mm512_store_si512((void *)tbase[b2], base[b2]);
                _mm512_store_si512((void *)tNa[b2], Na[b2]);
                _mm512_store_si512((void *)tq[b2], qold[b2]);
                _mm512_store_pd(to[b2], _mm512_mul_pd(o[b2], quarter));
                _mm512_store_pd(td[b2], _mm512_mul_pd(d[b2], quarter));
                for (unsigned m = fix[b2]; m; m &= m - 1) {
                    int l = __builtin_ctz(m);
                    int step = td[b2][l] > 0 ? 1 : -1;
                    int64_t lim = step > 0 ? tbase[b2][l] + tNa[b2][l] - 1 : tbase[b2][l];
                    int64_t nq = wk__voxel_exact_advance(tq[b2][l], step, b2, to[b2][l], td[b2][l], tes[l],
                                                         (int)tea[l], lim);
                    q[b2] = _mm512_mask_set1_epi64(q[b2], (__mmask8)(1u << l), nq);
                }
            }
        }
        /* the exit axis steps out of the node */
        for (int a = 0; a < 3; a++) {
            __mmask8 m = live & is[a];
            q[a] = _mm512_mask_add_epi64(q[a], m, P[a], p->back[a]);
            p->face = _mm512_mask_mov_epi64(p->face, m, p->fcode[a]);
        }
        /* entered another chunk: a 64-cell boundary crossed on some axis */
        __m512i x = _mm512_xor_si512(q[0], qold[0]);
        x = _mm512_ternarylogic_epi64(q[1], qold[1], x, 0xBE); /* (A ^ B) | C */
        x = _mm512_ternarylogic_epi64(q[2], qold[2], x, 0xBE);
        p->chg = live & _mm512_test_epi64_mask(x, KQ(NOT63));
    }
    if (done & (__mmask8)~hits) {
        _mm512_store_si512((void *)tidx, p->idx);
        for (unsigned m = done & (__mmask8)~hits; m; m &= m - 1) wk__voxel_write_miss(h, (size_t)tidx[__builtin_ctz(m)]);
    }
    return done;
}


#ifndef NPK
#define NPK 3
#endif

static void packet_clear(lanes *p) {
    const __m512i zero = _mm512_setzero_si512();
    const __m512d zd = _mm512_setzero_pd();
    for (int a = 0; a < 3; a++) {
        p->o4[a] = p->d4[a] = p->inv4[a] = zd;
        p->q[a] = p->back[a] = p->fcode[a] = zero;
        p->pos[a] = p->mov[a] = 0;
    }
    p->fin = p->chg = 0;
    p->len = p->limit = p->eps = p->eps1 = zd;
    p->face = p->chunk = p->idx = zero;
}

/* NPK packets walk in turn, part by part: their steps are independent,
 * so the core overlaps one's latencies (gathers, conversions, compares)
 * with the others' work. The gathers of all packets are issued together
 * (step_chunk for every packet, then step_occ for every packet); then
 * each packet runs step_cell and step_exit back to back (its node size and
 * masks stay in registers). Measured on Zen 4: issuing the gathers
 * together paid about 3%; spreading them out (a rotation of the parts
 * over the packets, the directory gather right after step_exit) and
 * splitting step_exit in two over the packets were 5-10% slower. A
 * finished lane is refilled from the queue at once. */
static void raycast_avx512(const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t begin,
                           size_t end) {
    rayq rq;
    memset(&rq, 0, sizeof rq);
    rq.next = begin;
    rq.end = end;
    rq.b2 = position_bound2(w);
    lanes pk[NPK];
    __mmask8 act[NPK];
    for (int k = 0; k < NPK; k++) {
        packet_clear(&pk[k]);
        act[k] = fill(&pk[k], 0xFF, &rq, w, r, h);
    }
    step_state st[NPK];
    memset(st, 0, sizeof st);
    int64_t wc[8];
    for (int a = 0; a < 3; a++) {
        wc[a] = w->lo[a];
        wc[3 + a] = (int64_t)w->hi[a] - w->lo[a] + 1;
    }
    wc[6] = w->dir ? (int64_t)(2 * w->dn[0] * w->dn[1]) : 0;
    wc[7] = w->dir ? (int64_t)(2 * w->dn[0]) : 0;
    for (int k = 0; k < NPK; k++) st[k].wc = wc;
    for (;;) {
        /* the packets' steps part by part, so that one packet's loads
         * (gathers) are in flight while the other's wait or compute; the
         * loops over the packets are unrolled (each packet's parts get
         * their own code and branches) */
        __mmask8 any = 0;
        for (int k = 0; k < NPK; k++) {
            st[k].act = act[k];
            any |= act[k];
        }
        if (!any) break;
        _Pragma("GCC unroll 4") for (int k = 0; k < NPK; k++)
            if (act[k]) step_chunk(&pk[k], &st[k], w, h);
        _Pragma("GCC unroll 4") for (int k = 0; k < NPK; k++)
            if (act[k]) step_occ(&pk[k], &st[k]);
        /* keep the queue ahead of the refills: rays are set up here, while the
         * gathers are in flight, and not (or rarely) inside a refill, where a
         * refilled packet's next step would wait for the setup */
        if (rq.tail - rq.head < QLOW && rq.next < rq.end) q_more(&rq, w, r, h);
        /* (GCC unrolls this loop; clang 14 cannot, and warns when asked) */
        WK__UNROLL_GCC for (int k = 0; k < NPK; k++) {
            if (!act[k]) continue;
            step_cell(&pk[k], &st[k], w, h);
            __mmask8 done = step_exit(&pk[k], &st[k], w, h);
            if (done) act[k] = (__mmask8)((act[k] & ~done) | fill(&pk[k], done, &rq, w, r, h));
        }
    }
}

const wk__voxel_kernels WK_SIMD_NAME(wk__voxel_kernels) = {raycast_avx512};
#elif defined(WK_SIMD_AVX2)
#include <immintrin.h>

/* AVX2: the AVX-512 walk in packets of 4 double lanes, with the same
 * decisions and the same IEEE operations (see the AVX-512 section): the
 * lanes hold 4 o, 4 d and 1/(4 d); one directory word per chunk entered
 * (address, group-pair summary, or an empty chunk's box of chunks); the
 * group-pair bit tested before the occupancy load, which loads an empty
 * group's box of groups instead where the pair is empty; empty chunk and
 * group boxes left in one jump; the exit plane's exact quotient divided
 * only where it decides. Rays are set up 4 at a time by setup4 (setup8's
 * steps; the rare lanes that need an exact fix-up by wk__voxel_begin).
 * Measured on Zen 4 (busy, same-run minima; AVX-512 rows unchanged): camera
 * rays 181 -> 101 ns, random 148 -> 81 ns. Tried without gain: element
 * stores instead of blends in the refill (1-2% slower), 4 packets (same as
 * 3). AVX2 lacks 64-bit arithmetic shifts and int64 <-> double
 * conversions: the shifts add a bias (cells lie within +-2^36), the
 * conversions use the 2^52 + 2^51 constant (exact for integers below 2^51
 * in magnitude, which every converted value is, where it is used). Lane
 * masks are kept as vectors (all ones / zeros per lane) where they feed
 * blends, as bit sets where they feed branches. */

enum { L = 4 };

#if !WK__VDIR_GPAIRS
#error "the AVX2 walk reads the directory's group-pair summary (x86-64)"
#endif

typedef struct lanes {
    __m256d o4[3], d4[3], inv4[3], len, limit; /* 4 o, 4 d, 1/(4 d): exact scalings of o, d, 1/d */
    __m256d eps, eps1; /* the position test's margin for the ray (as AVX-512), 1 - eps */
    __m256i q[3], face;
    __m256i chunk; /* the directory word of the lane's chunk (address, group-pair summary, or box) */
    __m256i pos[3], mov[3]; /* masks: d > 0, d != 0 */
    __m256i back[3], fcode[3]; /* -1 where d < 0 (else 0); the face entered stepping along the axis */
    unsigned chg; /* lanes that entered another chunk (or a new ray) */
    unsigned fin; /* lanes whose tmax is finite */
    size_t idx[L];
} lanes;

static const int64_t mask_table[16][4] = {
    {0, 0, 0, 0},   {-1, 0, 0, 0},   {0, -1, 0, 0},   {-1, -1, 0, 0},   {0, 0, -1, 0},   {-1, 0, -1, 0},
    {0, -1, -1, 0}, {-1, -1, -1, 0}, {0, 0, 0, -1},   {-1, 0, 0, -1},   {0, -1, 0, -1},  {-1, -1, 0, -1},
    {0, 0, -1, -1}, {-1, 0, -1, -1}, {0, -1, -1, -1}, {-1, -1, -1, -1}};
static const double MAGIC = 6755399441055744.0; /* 2^52 + 2^51 */

static inline __m256i vmask(unsigned b) { return _mm256_loadu_si256((const __m256i *)(const void *)mask_table[b & 15]); }
static inline unsigned mb(__m256i m) { return (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(m)); }
static inline unsigned mbd(__m256d m) { return (unsigned)_mm256_movemask_pd(m); }
/* blends by a vector mask */
static inline __m256i bl_i(__m256i m, __m256i yes, __m256i no) { return _mm256_blendv_epi8(no, yes, m); }
static inline __m256d bl_d(__m256i m, __m256d yes, __m256d no) {
    return _mm256_blendv_pd(no, yes, _mm256_castsi256_pd(m));
}
static inline __m256d i2d(__m256i x) {
    const __m256d m = _mm256_set1_pd(MAGIC);
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(x, _mm256_castpd_si256(m))), m);
}
static inline __m256i d2i(__m256d v) {
    const __m256d m = _mm256_set1_pd(MAGIC);
    return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(v, m)), _mm256_castpd_si256(m));
}
/* floor(x / 2^k) for |x| < 2^40 */
static inline __m256i srai(__m256i x, int k) {
    const int64_t bias = (int64_t)1 << 40;
    return _mm256_sub_epi64(_mm256_srli_epi64(_mm256_add_epi64(x, _mm256_set1_epi64x(bias)), k),
                            _mm256_set1_epi64x(bias >> k));
}
static inline unsigned gt64(__m256i a, __m256i b) { return mb(_mm256_cmpgt_epi64(a, b)); }
static inline unsigned eq64(__m256i a, __m256i b) { return mb(_mm256_cmpeq_epi64(a, b)); }
/* vector masks */
#define VCMPD(a, b, pred) _mm256_castpd_si256(_mm256_cmp_pd((a), (b), (pred)))
#define CMPD(a, b, pred) mbd(_mm256_cmp_pd((a), (b), (pred)))
static inline __m256i vnz(__m256i x) { /* x != 0 */
    return _mm256_xor_si256(_mm256_cmpeq_epi64(x, _mm256_setzero_si256()), _mm256_set1_epi64x(-1));
}

/* Rays set up for the walk, waiting for a lane: a small queue in structure
 * of arrays, filled 4 rays at a time by setup4 (topped up once per step
 * while the loads are in flight, see raycast_avx2). o, d, inv hold the
 * lanes' 4 o, 4 d and 1/(4 d), eps the ray's position margin. QCAP + L:
 * setup4's stores of 4 entries from any tail up to QCAP stay inside. */
enum { QCAP = 16, QLOW = 4 };
typedef struct rayq {
    _Alignas(32) double o4[3][QCAP + L], d4[3][QCAP + L], inv4[3][QCAP + L], len[QCAP + L], limit[QCAP + L],
        eps[QCAP + L];
    _Alignas(32) int64_t q[3][QCAP + L], face[QCAP + L], idx[QCAP + L];
    int head, tail;
    size_t next, end;
    double b2; /* 2 B (see the AVX-512 section) */
} rayq;

/* vpermd indices moving the 64-bit lanes of mask m to the front, in order */
static const int32_t cperm[16][8] = {
    {0, 1, 0, 1, 0, 1, 0, 1}, {0, 1, 0, 1, 0, 1, 0, 1}, {2, 3, 0, 1, 0, 1, 0, 1}, {0, 1, 2, 3, 0, 1, 0, 1},
    {4, 5, 0, 1, 0, 1, 0, 1}, {0, 1, 4, 5, 0, 1, 0, 1}, {2, 3, 4, 5, 0, 1, 0, 1}, {0, 1, 2, 3, 4, 5, 0, 1},
    {6, 7, 0, 1, 0, 1, 0, 1}, {0, 1, 6, 7, 0, 1, 0, 1}, {2, 3, 6, 7, 0, 1, 0, 1}, {0, 1, 2, 3, 6, 7, 0, 1},
    {4, 5, 6, 7, 0, 1, 0, 1}, {0, 1, 4, 5, 6, 7, 0, 1}, {2, 3, 4, 5, 6, 7, 0, 1}, {0, 1, 2, 3, 4, 5, 6, 7}};
static const int32_t mask32_table[5][4] = {{0, 0, 0, 0}, {-1, 0, 0, 0}, {-1, -1, 0, 0}, {-1, -1, -1, 0}, {-1, -1, -1, -1}};

static inline __m256d cmp_d(__m256d x, __m256i perm) {
    return _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(x), perm));
}
static inline __m256i cmp_i(__m256i x, __m256i perm) { return _mm256_permutevar8x32_epi32(x, perm); }

/* Sets up the next (up to) 4 rays as wk__voxel_begin does, with the same
 * double operations in the same order (see setup8 in the AVX-512 section):
 * the start cell, 1/d, |d|, and for an origin outside the bounds the entry
 * jump. Lanes that would need begin's exact fix-up (and origins beyond
 * 2^48 cells) are set up by wk__voxel_begin itself. Misses are written at
 * once; the rest go to the queue (moved to its front first when fewer than
 * 4 entries are left at its end). */
static void setup4(rayq *rq, const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h) {
    if (rq->tail + L > QCAP) {
        /* the (fewer than QLOW = L) waiting rays to the front (no overlap: head >= QCAP - 2 L) */
        const int hd = rq->head;
        for (int a = 0; a < 3; a++) {
            _mm256_storeu_pd(rq->o4[a], _mm256_loadu_pd(&rq->o4[a][hd]));
            _mm256_storeu_pd(rq->d4[a], _mm256_loadu_pd(&rq->d4[a][hd]));
            _mm256_storeu_pd(rq->inv4[a], _mm256_loadu_pd(&rq->inv4[a][hd]));
            _mm256_storeu_si256((__m256i *)(void *)rq->q[a], _mm256_loadu_si256((const __m256i *)(const void *)&rq->q[a][hd]));
        }
        _mm256_storeu_pd(rq->len, _mm256_loadu_pd(&rq->len[hd]));
        _mm256_storeu_pd(rq->limit, _mm256_loadu_pd(&rq->limit[hd]));
        _mm256_storeu_pd(rq->eps, _mm256_loadu_pd(&rq->eps[hd]));
        _mm256_storeu_si256((__m256i *)(void *)rq->face, _mm256_loadu_si256((const __m256i *)(const void *)&rq->face[hd]));
        _mm256_storeu_si256((__m256i *)(void *)rq->idx, _mm256_loadu_si256((const __m256i *)(const void *)&rq->idx[hd]));
        rq->tail -= hd;
        rq->head = 0;
    }
    const int t0 = rq->tail;
    size_t i0 = rq->next, k = rq->end - i0 < L ? rq->end - i0 : L;
    rq->next = i0 + k;
    const unsigned valid = (1u << k) - 1;
    const __m256d zd = _mm256_setzero_pd(), inf = _mm256_set1_pd(INFINITY), onev = _mm256_set1_pd(1.0),
                  four = _mm256_set1_pd(4.0), quarter = _mm256_set1_pd(0.25),
                  margin = _mm256_set1_pd(WK__VOXEL_REL_MARGIN);
    const __m256i one = _mm256_set1_epi64x(1);
    const __m128i m32 = _mm_loadu_si128((const __m128i *)(const void *)mask32_table[k]);
    const float *src[6] = {r->ox + i0, r->oy + i0, r->oz + i0, r->dx + i0, r->dy + i0, r->dz + i0};
    __m256d o[3], d[3], inv[3];
    unsigned nan = 0, slow = 0;
    for (int a = 0; a < 3; a++) {
        o[a] = _mm256_cvtps_pd(k == L ? _mm_loadu_ps(src[a]) : _mm_maskload_ps(src[a], m32));
        d[a] = _mm256_cvtps_pd(k == L ? _mm_loadu_ps(src[3 + a]) : _mm_maskload_ps(src[3 + a], m32));
        nan |= CMPD(o[a], o[a], _CMP_UNORD_Q) | CMPD(d[a], d[a], _CMP_UNORD_Q);
    }
    __m256d limit = inf;
    if (r->tmax) limit = _mm256_cvtps_pd(k == L ? _mm_loadu_ps(r->tmax + i0) : _mm_maskload_ps(r->tmax + i0, m32));
    /* no hit: a NaN component, tmax < 0 or NaN, an empty world */
    unsigned miss = valid & (nan | (~CMPD(limit, zd, _CMP_GE_OQ) & 15u));
    if (!w->has_bounds) miss = valid;
    unsigned todo = valid & ~miss;
    __m256d len = _mm256_sqrt_pd(
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(d[0], d[0]), _mm256_mul_pd(d[1], d[1])), _mm256_mul_pd(d[2], d[2])));
    __m256i q[3], LO[3], HI[3], pos[3], neg[3], below[3], above[3];
    __m256i outside = _mm256_setzero_si256(), bad = _mm256_setzero_si256();
    __m256d x4s[3], ao4 = zd;
    for (int a = 0; a < 3; a++) {
        __m256d x4 = _mm256_mul_pd(o[a], four);
        x4s[a] = x4;
        ao4 = _mm256_max_pd(ao4, _mm256_andnot_pd(_mm256_set1_pd(-0.0), x4));
        /* beyond 2^48 cells: begin's own floor (the conversion below is exact below 2^51) */
        slow |= CMPD(_mm256_andnot_pd(_mm256_set1_pd(-0.0), x4), _mm256_set1_pd(0x1p48), _CMP_NLT_UQ);
        q[a] = d2i(_mm256_floor_pd(x4));
        pos[a] = VCMPD(d[a], zd, _CMP_GT_OQ);
        neg[a] = VCMPD(d[a], zd, _CMP_LT_OQ);
        __m256i mv = _mm256_or_si256(pos[a], neg[a]);
        inv[a] = _mm256_and_pd(_mm256_castsi256_pd(mv), _mm256_div_pd(onev, bl_d(mv, d[a], onev)));
        LO[a] = _mm256_set1_epi64x((int64_t)w->lo[a] * 64);
        HI[a] = _mm256_set1_epi64x(((int64_t)w->hi[a] + 1) * 64);
        below[a] = _mm256_cmpgt_epi64(LO[a], q[a]);
        above[a] = _mm256_xor_si256(_mm256_cmpgt_epi64(HI[a], q[a]), _mm256_set1_epi64x(-1));
        outside = _mm256_or_si256(outside, _mm256_or_si256(below[a], above[a]));
        bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_andnot_si256(pos[a], below[a]),
                                                   _mm256_andnot_si256(neg[a], above[a])));
    }
    slow &= todo;
    todo &= ~slow;
    miss |= todo & mb(bad);
    todo &= ~mb(bad);
    __m256i face = _mm256_set1_epi64x(6);
    unsigned jump = todo & mb(outside);
    if (jump) {
        /* the latest entry plane among the axes outside (key order: on equal s the
         * later axis), chosen by estimates as setup8 does */
        __m256d es = zd;
        __m256i ea = _mm256_setzero_si256(), eP = _mm256_setzero_si256();
        const __m256i jv = vmask(jump);
        __m256i got = _mm256_setzero_si256(), oam[3], P[3];
        __m256d numa[3], esta[3];
        for (int a = 0; a < 3; a++) {
            __m256i oa = _mm256_and_si256(jv, _mm256_or_si256(below[a], above[a]));
            P[a] = bl_i(below[a], LO[a], HI[a]);
            numa[a] = _mm256_sub_pd(_mm256_mul_pd(i2d(P[a]), quarter), o[a]);
            __m256d s = _mm256_and_pd(_mm256_castsi256_pd(oa), _mm256_mul_pd(numa[a], inv[a]));
            __m256i take = _mm256_and_si256(oa, _mm256_or_si256(_mm256_xor_si256(got, _mm256_set1_epi64x(-1)),
                                                                VCMPD(s, es, _CMP_GE_OQ)));
            es = bl_d(take, s, es);
            ea = bl_i(take, _mm256_set1_epi64x(a), ea);
            eP = bl_i(take, P[a], eP);
            got = _mm256_or_si256(got, oa);
            oam[a] = oa;
            esta[a] = s;
        }
        {
            const __m256d nearv = _mm256_sub_pd(es, _mm256_mul_pd(es, margin));
            __m256i tie = _mm256_setzero_si256();
            for (int a = 0; a < 3; a++)
                tie = _mm256_or_si256(tie, _mm256_and_si256(_mm256_andnot_si256(_mm256_cmpeq_epi64(ea, _mm256_set1_epi64x(a)), oam[a]),
                                                            VCMPD(esta[a], nearv, _CMP_GE_OQ)));
            unsigned tb = mb(tie);
            slow |= tb;
            jump &= ~tb;
            unsigned fx = jump & CMPD(limit, inf, _CMP_NEQ_UQ);
            if (fx) {
                const __m256i fv = vmask(fx);
                __m256i e1 = _mm256_cmpeq_epi64(ea, one), e2 = _mm256_cmpeq_epi64(ea, _mm256_set1_epi64x(2));
                __m256d nsel = bl_d(e2, numa[2], bl_d(e1, numa[1], numa[0]));
                __m256d dsel = bl_d(e2, d[2], bl_d(e1, d[1], d[0]));
                es = bl_d(fv, _mm256_div_pd(nsel, bl_d(fv, dsel, onev)), es);
            }
        }
        unsigned far = jump & ~CMPD(_mm256_mul_pd(es, len), limit, _CMP_LE_OQ);
        miss |= far;
        jump &= ~far;
        const __m256i jv2 = vmask(jump);
        for (int b = 0; b < 3; b++) {
            __m256i isb = _mm256_cmpeq_epi64(ea, _mm256_set1_epi64x(b));
            __m256i m = _mm256_and_si256(_mm256_andnot_si256(isb, jv2), _mm256_or_si256(pos[b], neg[b]));
            if (mb(m)) {
                /* one past the bounds at most, as begin */
                __m256i lim = bl_i(pos[b], HI[b], _mm256_sub_epi64(LO[b], one));
                __m256i lo = bl_i(pos[b], q[b], lim), hi = bl_i(pos[b], lim, q[b]);
                __m256d sd = _mm256_mul_pd(es, d[b]);
                __m256d x4 = _mm256_mul_pd(_mm256_add_pd(o[b], sd), four);
                __m256i inr = _mm256_and_si256(VCMPD(x4, i2d(lo), _CMP_GE_OQ),
                                               VCMPD(x4, _mm256_add_pd(i2d(hi), onev), _CMP_LT_OQ));
                __m256d fl = _mm256_floor_pd(x4);
                __m256d frac = _mm256_sub_pd(x4, fl);
                const __m256d absm = _mm256_set1_pd(-0.0);
                __m256d eps = _mm256_mul_pd(
                    _mm256_add_pd(_mm256_andnot_pd(absm, x4), _mm256_mul_pd(four, _mm256_andnot_pd(absm, sd))), margin);
                __m256i ok = _mm256_and_si256(_mm256_and_si256(m, inr),
                                              _mm256_and_si256(VCMPD(frac, eps, _CMP_GT_OQ),
                                                               VCMPD(frac, _mm256_sub_pd(onev, eps), _CMP_LT_OQ)));
                q[b] = bl_i(ok, d2i(fl), q[b]);
                /* far past lim (as setup8): begin's exact fix-up stops at lim, one past
                 * the bounds: a miss */
                __m256d slack = _mm256_add_pd(_mm256_set1_pd(2.0),
                                              _mm256_mul_pd(_mm256_andnot_pd(absm, x4), _mm256_set1_pd(0x1p-40)));
                __m256d limd = i2d(lim);
                __m256i beyond = _mm256_or_si256(_mm256_and_si256(pos[b], VCMPD(x4, _mm256_add_pd(limd, slack), _CMP_GT_OQ)),
                                                 _mm256_and_si256(neg[b], VCMPD(x4, _mm256_sub_pd(limd, slack), _CMP_LT_OQ)));
                beyond = _mm256_andnot_si256(ok, _mm256_and_si256(m, beyond));
                miss |= mb(beyond);
                slow |= mb(_mm256_andnot_si256(_mm256_or_si256(ok, beyond), m));
            }
            /* the entry axis: the cell beyond the plane */
            __m256i me = _mm256_and_si256(jv2, isb);
            q[b] = bl_i(me, _mm256_add_epi64(eP, neg[b]), q[b]);
            face = bl_i(me, _mm256_sub_epi64(_mm256_set1_epi64x(2 * b), neg[b]), face);
        }
        jump &= ~(slow | miss);
        slow &= ~miss;
        /* still outside after the jump: a miss */
        __m256i out2 = _mm256_setzero_si256();
        for (int a = 0; a < 3; a++)
            out2 = _mm256_or_si256(out2, _mm256_or_si256(_mm256_cmpgt_epi64(LO[a], q[a]),
                                                         _mm256_xor_si256(_mm256_cmpgt_epi64(HI[a], q[a]),
                                                                          _mm256_set1_epi64x(-1))));
        miss |= jump & mb(out2);
    }
    unsigned ready = todo & ~(miss | slow);
    {
        /* the ready lanes to the queue, compressed */
        const __m256i perm = _mm256_loadu_si256((const __m256i *)(const void *)cperm[ready]);
        __m256i idx = _mm256_add_epi64(_mm256_set1_epi64x((int64_t)i0), _mm256_set_epi64x(3, 2, 1, 0));
        for (int a = 0; a < 3; a++) {
            _mm256_storeu_pd(&rq->o4[a][t0], cmp_d(x4s[a], perm));
            _mm256_storeu_pd(&rq->d4[a][t0], cmp_d(_mm256_mul_pd(d[a], four), perm));
            _mm256_storeu_pd(&rq->inv4[a][t0], cmp_d(_mm256_mul_pd(inv[a], quarter), perm));
            _mm256_storeu_si256((__m256i *)(void *)&rq->q[a][t0], cmp_i(q[a], perm));
        }
        __m256d eps = _mm256_mul_pd(_mm256_add_pd(_mm256_set1_pd(rq->b2), ao4),
                                    _mm256_set1_pd(WK__VOXEL_REL_MARGIN * 1.0000001));
        _mm256_storeu_pd(&rq->eps[t0], cmp_d(eps, perm));
        _mm256_storeu_pd(&rq->len[t0], cmp_d(len, perm));
        _mm256_storeu_pd(&rq->limit[t0], cmp_d(limit, perm));
        _mm256_storeu_si256((__m256i *)(void *)&rq->face[t0], cmp_i(face, perm));
        _mm256_storeu_si256((__m256i *)(void *)&rq->idx[t0], cmp_i(idx, perm));
        rq->tail = t0 + __builtin_popcount(ready);
    }
    for (unsigned m = miss; m; m &= m - 1) wk__voxel_write_miss(h, i0 + (size_t)__builtin_ctz(m));
    for (unsigned m = slow; m; m &= m - 1) {
        size_t i = i0 + (size_t)__builtin_ctz(m);
        wk__vray ray;
        wk__vstate st;
        if (!wk__vray_load(r, i, &ray) || wk__voxel_begin(w, &ray, &st) != 2) {
            wk__voxel_write_miss(h, i);
            continue;
        }
        int t = rq->tail++;
        double a4 = 0.0;
        for (int a = 0; a < 3; a++) {
            rq->o4[a][t] = ray.o[a] * 4.0;
            rq->d4[a][t] = ray.d[a] * 4.0;
            rq->inv4[a][t] = st.inv[a] * 0.25;
            rq->q[a][t] = st.q[a];
            double v = fabs(rq->o4[a][t]);
            a4 = a4 > v ? a4 : v; /* as _mm256_max_pd(a4, v) */
        }
        rq->eps[t] = (rq->b2 + a4) * (WK__VOXEL_REL_MARGIN * 1.0000001);
        rq->len[t] = st.len;
        rq->limit[t] = ray.limit;
        rq->face[t] = st.face;
        rq->idx[t] = (int64_t)i;
    }
}

/* Loads the next ray that needs a walk into lane l (set up more rays when
 * the queue is empty); 0 when the rays are used up. The lane's axis
 * constants are set for the whole packet by lane_consts afterwards. */
static inline __attribute__((always_inline)) int refill(lanes *p, int l, rayq *rq, const struct wk_voxel_world *w,
                                                        const wk_rays *r, const wk_hits *h) {
    while (rq->head == rq->tail) {
        if (rq->next >= rq->end) return 0;
        setup4(rq, w, r, h);
    }
    const int t = rq->head++;
    const unsigned m = 1u << l;
    const __m256i vm = vmask(m);
    for (int a = 0; a < 3; a++) {
        p->o4[a] = bl_d(vm, _mm256_broadcast_sd(&rq->o4[a][t]), p->o4[a]);
        p->d4[a] = bl_d(vm, _mm256_broadcast_sd(&rq->d4[a][t]), p->d4[a]);
        p->inv4[a] = bl_d(vm, _mm256_broadcast_sd(&rq->inv4[a][t]), p->inv4[a]);
        p->q[a] = bl_i(vm, _mm256_set1_epi64x(rq->q[a][t]), p->q[a]);
    }
    const double eps = rq->eps[t], limit = rq->limit[t];
    p->eps = bl_d(vm, _mm256_set1_pd(eps), p->eps);
    p->eps1 = bl_d(vm, _mm256_set1_pd(1.0 - eps), p->eps1);
    p->limit = bl_d(vm, _mm256_set1_pd(limit), p->limit);
    p->fin = (p->fin & ~m) | (limit != INFINITY ? m : 0u);
    p->chg |= m;
    p->len = bl_d(vm, _mm256_broadcast_sd(&rq->len[t]), p->len);
    p->face = bl_i(vm, _mm256_set1_epi64x(rq->face[t]), p->face);
    p->chunk = _mm256_andnot_si256(vm, p->chunk);
    p->idx[l] = (size_t)rq->idx[t];
    return 1;
}

/* The per-lane axis constants from d, for every lane (idle lanes hold old rays or zeros). */
static inline __attribute__((always_inline)) void lane_consts(lanes *p) {
    const __m256d zd = _mm256_setzero_pd();
    for (int a = 0; a < 3; a++) {
        __m256i ps = VCMPD(p->d4[a], zd, _CMP_GT_OQ), ng = VCMPD(p->d4[a], zd, _CMP_LT_OQ);
        p->pos[a] = ps;
        p->mov[a] = _mm256_or_si256(ps, ng);
        p->back[a] = ng;
        p->fcode[a] = _mm256_sub_epi64(_mm256_set1_epi64x(2 * a), ng);
    }
}

/* A step's state between its parts (see raycast_avx2). */
typedef struct step2 {
    unsigned act, done, hits, live;
    __m256i N, occ, gaddr, hasg, gnear;
} step2;

/* The world's constants for the walk: lo, hi - lo (chunks), dn0, dn1. */
typedef struct wconst {
    __m256i clo[3], nbm1[3], dn0, dn1;
    const wk__vdirent *base;
} wconst;

static const uint64_t zero_word = 0;

/* The 64-bit words at the 4 addresses of a, by four scalar loads (masked
 * lanes point at zero_word). On Zen 4 this measured the same as a 4-lane
 * gather, which is many more micro-ops on Zen 2 and 3, and slower on Intel
 * parts with the gather (GDS) mitigation. */
static inline __attribute__((always_inline)) __m256i load4(__m256i a) {
    __m128i lo = _mm256_castsi256_si128(a), hi = _mm256_extracti128_si256(a, 1);
    const double *p0 = (const double *)(uintptr_t)_mm_cvtsi128_si64(lo);
    const double *p1 = (const double *)(uintptr_t)_mm_extract_epi64(lo, 1);
    const double *p2 = (const double *)(uintptr_t)_mm_cvtsi128_si64(hi);
    const double *p3 = (const double *)(uintptr_t)_mm_extract_epi64(hi, 1);
    __m128d r0 = _mm_loadh_pd(_mm_load_sd(p0), p1), r1 = _mm_loadh_pd(_mm_load_sd(p2), p3);
    return _mm256_castpd_si256(_mm256_insertf128_pd(_mm256_castpd128_pd256(r0), r1, 1));
}

/* Step, part 1: lanes leaving the bounds, chunk lookups (one directory word each). */
static inline __attribute__((always_inline)) void s2_chunk(lanes *p, step2 *s, const struct wk_voxel_world *w,
                                                           const wconst *wc) {
    const __m256i zero = _mm256_setzero_si256();
    _Alignas(32) int64_t tc[3][L];
    __m256i *q = p->q;
    unsigned done = 0, act = s->act, live = act, changed = act & p->chg;
    if (changed) {
        /* leaving the bounds (whole chunks): only a lane that entered another chunk.
         * Inside: the chunk's offset r from lo lies in 0 .. hi - lo */
        __m256i r[3], out = zero;
        for (int a = 0; a < 3; a++) {
            r[a] = _mm256_sub_epi64(srai(q[a], 6), wc->clo[a]);
            out = _mm256_or_si256(out, _mm256_or_si256(_mm256_cmpgt_epi64(zero, r[a]),
                                                       _mm256_cmpgt_epi64(r[a], wc->nbm1[a])));
        }
        unsigned o = changed & mb(out);
        done |= o;
        live &= ~o;
        changed &= ~o;
        if (changed) {
            if (w->dir) {
                /* entry (r2 dn1 + r1) dn0 + r0 from the entry of chunk lo; indices below 2^22
                 * (the directory's size): 32-bit products suffice */
                __m256i i = _mm256_add_epi64(_mm256_mul_epu32(r[2], wc->dn1), r[1]);
                i = _mm256_add_epi64(_mm256_mul_epu32(i, wc->dn0), r[0]);
                /* entry i's word c: all the walk needs (see WK__VDIR_GPAIRS), one load */
                const __m256i cv = vmask(changed);
                __m256i ea = _mm256_add_epi64(_mm256_set1_epi64x((int64_t)(uintptr_t)wc->base), _mm256_slli_epi64(i, 4));
                p->chunk = bl_i(cv, load4(bl_i(cv, ea, _mm256_set1_epi64x((int64_t)(uintptr_t)&zero_word))), p->chunk);
            } else {
                for (int a = 0; a < 3; a++)
                    _mm256_store_si256((__m256i *)(void *)tc[a], _mm256_add_epi64(r[a], wc->clo[a]));
                for (unsigned m = changed; m; m &= m - 1) {
                    int l = __builtin_ctz(m);
                    const wk__vchunk *c = wk__vfind(w, (int32_t)tc[0][l], (int32_t)tc[1][l], (int32_t)tc[2][l]);
                    /* the directory word without the empty-pair bit and with box code 0 (the
                     * chunk alone) for an empty chunk */
                    int64_t word = c && c->groups ? (int64_t)((uintptr_t)c | wk__vdir_gpairs(c->groups)) : 0;
                    p->chunk = bl_i(vmask(1u << l), _mm256_set1_epi64x(word), p->chunk);
                }
            }
        }
    }
    s->done = done;
    s->live = live;
}

/* Step, part 2a: the occupancy words of the lanes' groups (one load each). */
static inline __attribute__((always_inline)) void s2_occ(lanes *p, step2 *s) {
    const __m256i one = _mm256_set1_epi64x(1), three = _mm256_set1_epi64x(3);
    const void *off_occ = (const void *)(uintptr_t)(offsetof(wk__vchunk, grp) + offsetof(wk__vgroup, occ));
    const __m256i *q = p->q;
    const __m256i chunk = p->chunk;
    const __m256i lv = vmask(s->live);
    /* an absent or empty chunk (no group-pair bit): a box of chunks */
    const __m256i hasg = _mm256_and_si256(lv, vnz(_mm256_and_si256(chunk, _mm256_set1_epi64x((int64_t)0xFF00000000000000))));
    /* group g = bits 4-5 of q0, q1, q2 as bits 0-1, 2-3, 4-5 */
    __m256i g = _mm256_and_si256(_mm256_srli_epi64(q[0], 4), three);
    g = _mm256_or_si256(g, _mm256_and_si256(_mm256_srli_epi64(q[1], 2), _mm256_set1_epi64x(12)));
    g = _mm256_or_si256(g, _mm256_and_si256(q[2], _mm256_set1_epi64x(48)));
    const __m256i gaddr = _mm256_add_epi64(_mm256_and_si256(chunk, _mm256_set1_epi64x((int64_t)WK__VDIR_ADDR)),
                                           _mm256_slli_epi64(g, 4));
    /* the group pair k = bits 5 of q0, q1, q2 as bits 0, 1, 2: its summary bit 56 + k */
    __m256i gk = _mm256_and_si256(_mm256_srli_epi64(q[0], 5), one);
    gk = _mm256_or_si256(gk, _mm256_and_si256(_mm256_srli_epi64(q[1], 4), _mm256_set1_epi64x(2)));
    gk = _mm256_or_si256(gk, _mm256_and_si256(_mm256_srli_epi64(q[2], 3), _mm256_set1_epi64x(4)));
    const __m256i gbit = _mm256_sllv_epi64(_mm256_set1_epi64x((int64_t)1 << 56), gk);
    /* within hasg (a box word has no top byte) */
    const __m256i gnear = _mm256_and_si256(lv, vnz(_mm256_and_si256(chunk, gbit)));
    /* a group in an empty pair is empty: its record's second word holds its box of groups */
    const __m256i raddr = _mm256_add_epi64(gaddr, _mm256_and_si256(_mm256_andnot_si256(gnear, hasg),
                                                                   _mm256_set1_epi64x(8)));
    s->occ = load4(bl_i(hasg, _mm256_add_epi64(raddr, _mm256_set1_epi64x((int64_t)(uintptr_t)off_occ)),
                        _mm256_set1_epi64x((int64_t)(uintptr_t)&zero_word)));
    s->gaddr = gaddr;
    s->hasg = hasg;
    s->gnear = gnear;
}

/* Step, part 2: the node around each cell (its size N), hits (written out). */
static inline __attribute__((always_inline)) void s2_cell(lanes *p, step2 *s, const wk_hits *h) {
    const __m256d zd = _mm256_setzero_pd();
    const __m256i one = _mm256_set1_epi64x(1), three = _mm256_set1_epi64x(3);
    _Alignas(32) int64_t tq[3][L], tface[L], tsub[L];
    _Alignas(32) double tt[L];
    _Alignas(32) uint64_t tchunk[L];
    __m256i *q = p->q;
    unsigned done = s->done, hits = 0, live = s->live;
    const __m256i hasg = s->hasg, gnear = s->gnear, occ = s->occ, gaddr = s->gaddr;
    /* within gnear occ is the group's occupancy, elsewhere in hasg a box */
    const __m256i hasocc = _mm256_and_si256(gnear, vnz(occ));
    __m256i bb = _mm256_and_si256(_mm256_srli_epi64(q[0], 2), three);
    bb = _mm256_or_si256(bb, _mm256_and_si256(q[1], _mm256_set1_epi64x(12)));
    bb = _mm256_or_si256(bb, _mm256_and_si256(_mm256_slli_epi64(q[2], 2), _mm256_set1_epi64x(48)));
    const __m256i occbitv = _mm256_and_si256(gnear, vnz(_mm256_and_si256(_mm256_srlv_epi64(occ, bb), one)));
    const unsigned occbit = mb(occbitv);
    /* empty block in an empty aligned pair of blocks: twice as far (as the reference) */
    const __m256i bnear = vnz(_mm256_and_si256(
        occ, _mm256_sllv_epi64(_mm256_set1_epi64x((int64_t)WK__VPAIR), _mm256_and_si256(bb, _mm256_set1_epi64x(0x2A)))));
    __m256i N = bl_i(hasg, _mm256_set1_epi64x(32), _mm256_set1_epi64x(64));
    N = bl_i(gnear, _mm256_set1_epi64x(16), N);
    N = bl_i(hasocc, bl_i(bnear, _mm256_set1_epi64x(4), _mm256_set1_epi64x(8)), N);
    N = bl_i(occbitv, one, N);
    if (occbit) {
        /* the brick bit: lane by lane */
        _Alignas(32) uint64_t tga[L], tbb[L];
        _mm256_store_si256((__m256i *)(void *)tga, gaddr);
        _mm256_store_si256((__m256i *)(void *)tbb, bb);
        unsigned isbrick = 0;
        for (unsigned m = occbit; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            uint64_t br =
                *(const uint64_t *)(uintptr_t)(tga[l] + offsetof(wk__vchunk, grp) + offsetof(wk__vgroup, brick));
            isbrick |= (unsigned)(((br >> tbb[l]) & 1) << l);
        }
        hits = occbit & ~isbrick;
        for (int l = 0; l < L; l++) tsub[l] = -1;
        if (isbrick) {
            for (int a = 0; a < 3; a++) _mm256_store_si256((__m256i *)(void *)tq[a], q[a]);
            _mm256_store_si256((__m256i *)(void *)tchunk, p->chunk);
            for (unsigned m = isbrick; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                const wk__vchunk *c = wk__vdir_chunk((uintptr_t)tchunk[l]);
                uint64_t ux = (uint64_t)tq[0][l], uy = (uint64_t)tq[1][l], uz = (uint64_t)tq[2][l];
                int gl = wk__vpart(ux, uy, uz, 4);
                int bl = wk__vpart(ux, uy, uz, 2);
                uint64_t mk = wk__vbrick_mask(c, gl, bl);
                int sub = wk__vpart(ux, uy, uz, 0);
                if ((mk >> sub) & 1) {
                    tsub[l] = sub;
                    hits |= 1u << l;
                }
            }
        }
        if (hits) {
            /* s of the last event: the entered plane's quotient, as the walk divided it
             * (face 6: the start, s = 0); 4 num / (4 d): the same quotient as num / d */
            const __m256i hv = vmask(hits);
            __m256i fa = _mm256_srli_epi64(p->face, 1), fb = _mm256_and_si256(p->face, one);
            __m256i f1 = _mm256_cmpeq_epi64(fa, one), f2 = _mm256_cmpeq_epi64(fa, _mm256_set1_epi64x(2));
            __m256i f6 = _mm256_cmpeq_epi64(p->face, _mm256_set1_epi64x(6));
            __m256i qs = bl_i(f2, q[2], bl_i(f1, q[1], q[0]));
            __m256d os = bl_d(f2, p->o4[2], bl_d(f1, p->o4[1], p->o4[0]));
            __m256d ds = bl_d(f2, p->d4[2], bl_d(f1, p->d4[1], p->d4[0]));
            __m256d num = _mm256_sub_pd(i2d(_mm256_add_epi64(qs, fb)), os);
            __m256i dv = _mm256_andnot_si256(f6, hv);
            __m256d ks = bl_d(dv, _mm256_div_pd(num, bl_d(dv, ds, _mm256_set1_pd(1.0))), zd);
            __m256d t = _mm256_add_pd(_mm256_mul_pd(ks, p->len), zd);
            unsigned in = hits & CMPD(t, p->limit, _CMP_LE_OQ);
            _mm256_store_pd(tt, t);
            for (int a = 0; a < 3; a++) _mm256_store_si256((__m256i *)(void *)tq[a], srai(q[a], 2));
            _mm256_store_si256((__m256i *)(void *)tface, p->face);
            for (unsigned m = hits; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                size_t i = p->idx[l];
                if (!((in >> l) & 1)) {
                    wk__voxel_write_miss(h, i);
                    continue;
                }
                /* wk__voxel_write_hit written out: through the call GCC 12 made
                 * raycast_avx2 34 instructions longer and it measured 1% slower */
                h->t[i] = (float)tt[l];
                h->x[i] = (int32_t)tq[0][l];
                h->y[i] = (int32_t)tq[1][l];
                h->z[i] = (int32_t)tq[2][l];
                h->sub[i] = (int8_t)tsub[l];
                h->face[i] = (int8_t)tface[l];
            }
        }
        done |= hits;
        live &= ~hits;
    }
    s->done = done;
    s->hits = hits;
    s->live = live;
    s->N = N;
}

/* Step, part 3: leaving the node (as step_exit of the AVX-512 section); misses
 * written out; returns the lanes that finished. */
static inline __attribute__((always_inline)) unsigned s2_exit(lanes *p, step2 *s, const wk_hits *h) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i one = _mm256_set1_epi64x(1);
    const __m256d inf = _mm256_set1_pd(INFINITY), quarter = _mm256_set1_pd(0.25), onev = _mm256_set1_pd(1.0),
                  margin = _mm256_set1_pd(WK__VOXEL_REL_MARGIN);
    _Alignas(32) int64_t tq[3][L], tea[L], tbase[3][L], tNa[3][L];
    _Alignas(32) double to[3][L], td[3][L], tes[L];
    __m256i *q = p->q;
    unsigned done = s->done, hits = s->hits, live = s->live;
    if (live) {
        const __m256i lv = vmask(live);
        const __m256i N = s->N;
        /* the node: the aligned cube of N cells around q, or a box (see step_exit):
         * chunk boxes where the chunk is empty, group boxes where the group's pair
         * is empty and its box word nonzero */
        const __m256i gbox = _mm256_and_si256(_mm256_andnot_si256(s->gnear, s->hasg), vnz(s->occ));
        const __m256i isbox = _mm256_or_si256(_mm256_andnot_si256(s->hasg, lv), gbox);
        /* (0 where the node is a cube) */
        const __m256i bw = _mm256_and_si256(isbox, bl_i(gbox, s->occ, p->chunk));
        const __m256i unit = bl_i(gbox, _mm256_set1_epi64x(16), _mm256_set1_epi64x(64));
        const __m256i Nb = bl_i(isbox, unit, N);
        const __m256i clr = _mm256_sub_epi64(Nb, one);
        __m256d *o = p->o4, *d = p->d4;
        __m256i base[3], P[3], Na[3];
        __m256d num[3], est[3];
        for (int a = 0; a < 3; a++) {
            __m256i lo64 = _mm256_and_si256(_mm256_srli_epi64(bw, WK__VBOX_LO(a) - 6), _mm256_set1_epi64x(0xF0));
            __m256i s64 = _mm256_and_si256(_mm256_srli_epi64(bw, WK__VBOX_S(a) - 6), _mm256_set1_epi64x(0x1F0));
            base[a] = _mm256_sub_epi64(_mm256_andnot_si256(clr, q[a]), lo64);
            Na[a] = _mm256_add_epi64(Nb, s64);
            P[a] = _mm256_add_epi64(base[a], _mm256_and_si256(p->pos[a], Na[a]));
            num[a] = _mm256_sub_pd(i2d(P[a]), o[a]);
            est[a] = bl_d(p->mov[a], _mm256_mul_pd(num[a], p->inv4[a]), inf);
        }
        /* the first smallest estimate (min(a, b) is a < b ? a : b) */
        __m256i t1 = VCMPD(est[1], est[0], _CMP_LT_OQ);
        __m256d best01 = _mm256_min_pd(est[1], est[0]);
        __m256i t2 = VCMPD(est[2], best01, _CMP_LT_OQ);
        __m256d best = _mm256_min_pd(est[2], best01);
        __m256i is[3];
        is[2] = t2;
        is[1] = _mm256_andnot_si256(t2, t1);
        is[0] = _mm256_andnot_si256(_mm256_or_si256(t1, t2), _mm256_set1_epi64x(-1));
        unsigned none = live & CMPD(best, inf, _CMP_EQ_OQ);
        done |= none;
        live &= ~none;
        /* near-ties: another axis's estimate within the margin; the reference's exact comparisons */
        __m256d nearv = _mm256_add_pd(best, _mm256_mul_pd(best, margin));
        __m256i l[3];
        for (int a = 0; a < 3; a++) l[a] = VCMPD(est[a], nearv, _CMP_LE_OQ);
        unsigned tie = live & mb(_mm256_or_si256(_mm256_and_si256(l[0], l[1]),
                                                 _mm256_and_si256(_mm256_or_si256(l[0], l[1]), l[2])));
        __m256d sv = best; /* the s the other axes are placed at */
        unsigned exact = 0; /* lanes whose sv is the exact quotient */
        if (tie) {
            const __m256i tv = vmask(tie);
            __m256i ea = bl_i(is[2], _mm256_set1_epi64x(2), _mm256_and_si256(is[1], one));
            __m256d nsel = bl_d(is[2], num[2], bl_d(is[1], num[1], num[0]));
            __m256d dsel = bl_d(is[2], d[2], bl_d(is[1], d[1], d[0]));
            __m256d es = bl_d(tv, _mm256_div_pd(nsel, bl_d(tv, dsel, onev)), best);
            for (int a = 0; a < 3; a++) {
                __m256i av = _mm256_set1_epi64x(a);
                __m256i m = _mm256_and_si256(_mm256_and_si256(tv, p->mov[a]),
                                             _mm256_andnot_si256(_mm256_cmpeq_epi64(ea, av), l[a]));
                if (!mb(m)) continue;
                __m256d s2 = _mm256_div_pd(num[a], bl_d(m, d[a], onev));
                /* key (es, ea) <= (s, a)? */
                __m256i le = _mm256_or_si256(VCMPD(es, s2, _CMP_LT_OQ),
                                             _mm256_andnot_si256(_mm256_cmpgt_epi64(ea, av), VCMPD(es, s2, _CMP_EQ_OQ)));
                __m256i upd = _mm256_andnot_si256(le, m);
                es = bl_d(upd, s2, es);
                ea = bl_i(upd, av, ea);
            }
            for (int a = 0; a < 3; a++) is[a] = bl_i(tv, _mm256_cmpeq_epi64(ea, _mm256_set1_epi64x(a)), is[a]);
            sv = bl_d(tv, es, sv);
            exact = tie;
        }
        /* a finite tmax: the event must lie within it (exact quotient) */
        unsigned fl = live & p->fin;
        if (fl) {
            unsigned need = fl & ~exact;
            if (need) {
                const __m256i nv = vmask(need);
                __m256d nsel = bl_d(is[2], num[2], bl_d(is[1], num[1], num[0]));
                __m256d dsel = bl_d(is[2], d[2], bl_d(is[1], d[1], d[0]));
                sv = bl_d(nv, _mm256_div_pd(nsel, bl_d(nv, dsel, onev)), sv);
                exact |= need;
            }
            unsigned over = fl & ~CMPD(_mm256_mul_pd(sv, p->len), p->limit, _CMP_LE_OQ);
            done |= over;
            live &= ~over;
        }
        /* the other axes: from the position, exact fix-up near a plane */
        unsigned big = live & gt64(N, one);
        unsigned fix[3] = {0, 0, 0};
        __m256i qold[3] = {q[0], q[1], q[2]};
        if (big) {
            const __m256i bv = vmask(big);
            for (int b2 = 0; b2 < 3; b2++) {
                __m256i m = _mm256_and_si256(bv, _mm256_andnot_si256(is[b2], p->mov[b2]));
                __m256d x4 = _mm256_add_pd(o[b2], _mm256_mul_pd(sv, d[b2])); /* = (o + sv d) 4, exactly */
                __m256d fl4 = _mm256_floor_pd(x4);
                /* floor(x4) converted: exact below 2^51 in magnitude; beyond (and for
                 * NaN or inf) the conversion yields |c| >= 2^51 (or a wrapped value just
                 * as far), never within the node, refused below */
                __m256i c = d2i(fl4);
                /* within the node: 0 <= c - base < Na */
                __m256i cb = _mm256_sub_epi64(c, base[b2]);
                __m256i ok = _mm256_andnot_si256(_mm256_cmpgt_epi64(_mm256_setzero_si256(), cb),
                                                 _mm256_cmpgt_epi64(Na[b2], cb));
                __m256d frac = _mm256_sub_pd(x4, fl4);
                ok = _mm256_and_si256(ok, _mm256_and_si256(VCMPD(frac, p->eps, _CMP_GT_OQ),
                                                           VCMPD(frac, p->eps1, _CMP_LT_OQ)));
                ok = _mm256_and_si256(ok, m);
                q[b2] = bl_i(ok, c, q[b2]);
                fix[b2] = mb(_mm256_andnot_si256(ok, m));
            }
        }
        if (fix[0] | fix[1] | fix[2]) {
            /* the exact quotient of the exit plane, as the reference divides it */
            unsigned need = (fix[0] | fix[1] | fix[2]) & ~exact;
            const __m256i nv = vmask(need);
            __m256d nsel = bl_d(is[2], num[2], bl_d(is[1], num[1], num[0]));
            __m256d dsel = bl_d(is[2], d[2], bl_d(is[1], d[1], d[0]));
            __m256d es = bl_d(nv, _mm256_div_pd(nsel, bl_d(nv, dsel, onev)), sv);
            __m256i ea = bl_i(is[2], _mm256_set1_epi64x(2), _mm256_and_si256(is[1], one));
            _mm256_store_pd(tes, es);
            _mm256_store_si256((__m256i *)(void *)tea, ea);
            for (int b2 = 0; b2 < 3; b2++) {
                if (!fix[b2]) continue;
                _mm256_store_si256((__m256i *)(void *)tbase[b2], base[b2]);
                _mm256_store_si256((__m256i *)(void *)tNa[b2], Na[b2]);
                _mm256_store_si256((__m256i *)(void *)tq[b2], qold[b2]);
                _mm256_store_pd(to[b2], _mm256_mul_pd(o[b2], quarter));
                _mm256_store_pd(td[b2], _mm256_mul_pd(d[b2], quarter));
                for (unsigned m = fix[b2]; m; m &= m - 1) {
                    int ln = __builtin_ctz(m);
                    int step = td[b2][ln] > 0 ? 1 : -1;
                    int64_t lim = step > 0 ? tbase[b2][ln] + tNa[b2][ln] - 1 : tbase[b2][ln];
                    int64_t nq = wk__voxel_exact_advance(tq[b2][ln], step, b2, to[b2][ln], td[b2][ln], tes[ln],
                                                         (int)tea[ln], lim);
                    q[b2] = bl_i(vmask(1u << ln), _mm256_set1_epi64x(nq), q[b2]);
                }
            }
        }
        /* the exit axis steps out of the node */
        const __m256i lv2 = vmask(live);
        for (int a = 0; a < 3; a++) {
            __m256i m = _mm256_and_si256(lv2, is[a]);
            q[a] = bl_i(m, _mm256_add_epi64(P[a], p->back[a]), q[a]);
            p->face = bl_i(m, p->fcode[a], p->face);
        }
        /* entered another chunk: a 64-cell boundary crossed on some axis */
        __m256i x = _mm256_or_si256(_mm256_xor_si256(q[0], qold[0]),
                                    _mm256_or_si256(_mm256_xor_si256(q[1], qold[1]), _mm256_xor_si256(q[2], qold[2])));
        p->chg = live & ~eq64(_mm256_andnot_si256(_mm256_set1_epi64x(63), x), zero);
    }
    for (unsigned m = done & ~hits; m; m &= m - 1) wk__voxel_write_miss(h, p->idx[__builtin_ctz(m)]);
    return done;
}

static void packet2_clear(lanes *p) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256d zd = _mm256_setzero_pd();
    for (int a = 0; a < 3; a++) {
        p->o4[a] = p->d4[a] = p->inv4[a] = zd;
        p->q[a] = p->pos[a] = p->mov[a] = p->back[a] = p->fcode[a] = zero;
    }
    p->len = p->limit = p->eps = p->eps1 = zd;
    p->chg = p->fin = 0;
    p->face = p->chunk = zero;
    memset(p->idx, 0, sizeof p->idx);
}

#ifndef NPK2
#define NPK2 3
#endif

#if defined(__clang__)
#define WK__UNROLL_GCC
#else
#define WK__UNROLL_GCC _Pragma("GCC unroll 4")
#endif

/* NPK2 packets walk in turn, part by part (as AVX-512): the loads of all
 * packets are issued together (s2_chunk for every packet, then s2_occ);
 * then each packet runs s2_cell and s2_exit back to back; the loops over
 * the packets are unrolled (own code and branches per packet). A finished
 * lane is refilled at once. Measured on Zen 4 (AVX2 code, busy machine):
 * 3 packets 3-5% faster than 2, 4 about as fast as 3; the unrolling 3-6%. */
static void raycast_avx2(const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t begin,
                         size_t end) {
    const double b2 = position_bound2(w);
    wconst wc;
    for (int a = 0; a < 3; a++) {
        wc.clo[a] = _mm256_set1_epi64x(w->lo[a]);
        wc.nbm1[a] = _mm256_set1_epi64x((int64_t)w->hi[a] - w->lo[a]);
    }
    wc.dn0 = _mm256_set1_epi64x(w->dir ? (int64_t)w->dn[0] : 0);
    wc.dn1 = _mm256_set1_epi64x(w->dir ? (int64_t)w->dn[1] : 0);
    wc.base = w->dir && w->has_bounds ? wk__vdir_get(w, w->lo[0], w->lo[1], w->lo[2]) : NULL;
    rayq rq;
    memset(&rq, 0, sizeof rq);
    rq.next = begin;
    rq.end = end;
    rq.b2 = b2;
    lanes pk[NPK2];
    unsigned act[NPK2];
    for (int k = 0; k < NPK2; k++) {
        packet2_clear(&pk[k]);
        act[k] = 0;
        for (int l = 0; l < L; l++)
            if (refill(&pk[k], l, &rq, w, r, h)) act[k] |= 1u << l;
        lane_consts(&pk[k]);
    }
    step2 st[NPK2];
    memset(st, 0, sizeof st);
    for (;;) {
        unsigned any = 0;
        for (int k = 0; k < NPK2; k++) {
            st[k].act = act[k];
            any |= act[k];
        }
        if (!any) break;
        _Pragma("GCC unroll 4") for (int k = 0; k < NPK2; k++)
            if (act[k]) s2_chunk(&pk[k], &st[k], w, &wc);
        _Pragma("GCC unroll 4") for (int k = 0; k < NPK2; k++)
            if (act[k]) s2_occ(&pk[k], &st[k]);
        /* keep the queue ahead of the refills: rays are set up here, while the
         * loads are in flight, and not (or rarely) inside a refill */
        if (rq.tail - rq.head < QLOW && rq.next < rq.end) setup4(&rq, w, r, h);
        WK__UNROLL_GCC for (int k = 0; k < NPK2; k++) {
            if (!act[k]) continue;
            s2_cell(&pk[k], &st[k], h);
            unsigned done = s2_exit(&pk[k], &st[k], h);
            if (!done) continue;
            act[k] &= ~done;
            for (unsigned m = done; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                if (refill(&pk[k], l, &rq, w, r, h)) act[k] |= 1u << l;
            }
            lane_consts(&pk[k]);
        }
    }
}

const wk__voxel_kernels WK_SIMD_NAME(wk__voxel_kernels) = {raycast_avx2};

#else

/* NEON: the AVX2 walk in packets of 4 rays, whose two halves of 2 lanes
 * (one float64x2_t or int64x2_t per quantity: two halves side by side
 * would not fit the 32 registers) step in turn; lane masks are all-ones
 * lanes. The lanes' state lives in the packet's arrays (a refill writes
 * one lane with scalar stores; a step loads what it needs as vectors and
 * stores the cells, faces, chunks and chunk changes back). As AVX-512, the
 * lanes keep 4 o, 4 d and 1/(4 d) (exact scalings: the same estimates,
 * quotients and positions), a per-ray position margin, and leave an empty
 * chunk (group of an empty pair of groups) through its empty box. NEON
 * has no gathers: the directory entries, the groups' occupancy (or box)
 * words are read with one lane load per lane (from a zero word where a
 * lane has no chunk), and at a nonempty block the brick and the hit lane
 * by lane, the hit by the reference's own operations. */

enum { L = 4 };

/* 2 lanes (one half of a packet) per vector; masks: all-ones lanes */
typedef float64x2_t vd;
typedef int64x2_t vi;
typedef uint64x2_t vm;

typedef struct lanes {
    double o[3][L], d[3][L], len[L], limit[L]; /* the ray as the reference has it */
    double o4[3][L], d4[3][L], inv4[3][L];    /* 4 o, 4 d, 1/(4 d): exact scalings (as AVX-512) */
    double eps[L], eps1[L];                   /* the position test's margin for the ray (as AVX-512), 1 - eps */
    int64_t q[3][L], face[L], fcode[3][L];    /* fcode: the face entered stepping along the axis */
    int fin[2];                               /* a lane of the half has had a finite tmax */
    uint64_t chunk[L], groups[L]; /* as AVX2: the directory word (address | empty-pair bit), the groups mask */
    uint64_t chg[L], act[L];      /* all-ones lanes: entered another chunk (or a new ray); walking */
    size_t idx[L];
} lanes;

#define N_INL static inline __attribute__((always_inline))
N_INL vd ldd(const double *p) { return vld1q_f64(p); }
N_INL vi ldi(const int64_t *p) { return vld1q_s64(p); }
N_INL vm ldm(const uint64_t *p) { return vld1q_u64(p); }
N_INL void sti(int64_t *p, vi v) { vst1q_s64(p, v); }
N_INL void stm(uint64_t *p, vm v) { vst1q_u64(p, v); }
N_INL void std2(double *p, vd v) { vst1q_f64(p, v); }
N_INL vm zm(void) { return vdupq_n_u64(0); }
N_INL vi dupi(int64_t x) { return vdupq_n_s64(x); }
N_INL vd addd(vd x, vd y) { return vaddq_f64(x, y); }
N_INL vd subd(vd x, vd y) { return vsubq_f64(x, y); }
N_INL vd muld(vd x, vd y) { return vmulq_f64(x, y); }
N_INL vd divd(vd x, vd y) { return vdivq_f64(x, y); }
N_INL vi addi(vi x, vi y) { return vaddq_s64(x, y); }
N_INL vi subi(vi x, vi y) { return vsubq_s64(x, y); }
N_INL vi andi(vi x, vi y) { return vandq_s64(x, y); }
N_INL vi ori(vi x, vi y) { return vorrq_s64(x, y); }
N_INL vi xori(vi x, vi y) { return veorq_s64(x, y); }
N_INL vi bici(vi x, vi y) { return vbicq_s64(x, y); } /* x & ~y */
/* x << s (s >= 0) or x >> -s (logical), per lane */
N_INL vi shlv(vi x, vi s) { return vreinterpretq_s64_u64(vshlq_u64(vreinterpretq_u64_s64(x), s)); }
#define SHRI(x, k) vshrq_n_s64((x), k) /* arithmetic */
#define SHLI(x, k) vshlq_n_s64((x), k)
N_INL vd i2d(vi x) { return vcvtq_f64_s64(x); }
N_INL vi floori(vd x) { return vcvtmq_s64_f64(x); } /* floor, exact in range */
N_INL vm andm(vm x, vm y) { return vandq_u64(x, y); }
N_INL vm orm(vm x, vm y) { return vorrq_u64(x, y); }
N_INL vm bicm(vm x, vm y) { return vbicq_u64(x, y); } /* x & ~y */
N_INL vm ltd(vd x, vd y) { return vcltq_f64(x, y); }
N_INL vm led(vd x, vd y) { return vcleq_f64(x, y); }
N_INL vm gtd(vd x, vd y) { return vcgtq_f64(x, y); }
N_INL vm eqd(vd x, vd y) { return vceqq_f64(x, y); }
N_INL vm lti(vi x, vi y) { return vcltq_s64(x, y); }
N_INL vm lei(vi x, vi y) { return vcleq_s64(x, y); }
N_INL vm gti(vi x, vi y) { return vcgtq_s64(x, y); }
N_INL vm gei(vi x, vi y) { return vcgeq_s64(x, y); }
N_INL vm eqi(vi x, vi y) { return vceqq_s64(x, y); }
N_INL vm tsti(vi x, vi y) { return vtstq_s64(x, y); } /* (x & y) != 0 */
N_INL vd seld(vm m, vd yes, vd no) { return vbslq_f64(m, yes, no); }
N_INL vi seli(vm m, vi yes, vi no) { return vbslq_s64(m, yes, no); }
N_INL vi mi(vm m) { return vreinterpretq_s64_u64(m); }
/* Nonzero when some lane is set. */
N_INL int anym(vm m) { return vmaxvq_u32(vreinterpretq_u32_u64(m)) != 0; }
/* The lanes as a bit set (lane l: bit l). */
N_INL unsigned bitsm(vm m) {
    return (unsigned)(vgetq_lane_u64(m, 0) & 1) | (unsigned)(vgetq_lane_u64(m, 1) & 2);
}
N_INL uint64x2_t vmvnq_u32_u64(uint64x2_t m) { return vreinterpretq_u64_u32(vmvnq_u32(vreinterpretq_u32_u64(m))); }
N_INL vm bitsv(unsigned b) {
    static const uint64_t t[4][2] = {{0, 0}, {~0ull, 0}, {0, ~0ull}, {~0ull, ~0ull}};
    return ldm(t[b & 3]);
}

static int refill(lanes *p, int l, const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t *next,
                  size_t end, double b2) {
    while (*next < end) {
        size_t i = (*next)++;
        wk__vray ray;
        wk__vstate st;
        if (!wk__vray_load(r, i, &ray) || wk__voxel_begin(w, &ray, &st) != 2) {
            wk__voxel_write_miss(h, i);
            continue;
        }
        for (int a = 0; a < 3; a++) {
            p->o[a][l] = ray.o[a];
            p->d[a][l] = ray.d[a];
            p->o4[a][l] = ray.o[a] * 4.0;
            p->d4[a][l] = ray.d[a] * 4.0;
            p->inv4[a][l] = st.inv[a] * 0.25;
            p->fcode[a][l] = 2 * a + (ray.d[a] > 0 ? 0 : 1);
            p->q[a][l] = st.q[a];
        }
        p->limit[l] = ray.limit;
        p->fin[l >> 1] |= ray.limit != INFINITY;
        {
            /* (2 B + 4 max |o_a|) 2^-46 (1 + 1e-7): see the AVX-512 section */
            double ao = fabs(ray.o[0]) > fabs(ray.o[1]) ? fabs(ray.o[0]) : fabs(ray.o[1]);
            ao = fabs(ray.o[2]) > ao ? fabs(ray.o[2]) : ao;
            double eps = (b2 + ao * 4.0) * (WK__VOXEL_REL_MARGIN * 1.0000001);
            p->eps[l] = eps;
            p->eps1[l] = 1.0 - eps;
        }
        p->len[l] = st.len;
        p->face[l] = st.face;
        p->chunk[l] = 0;
        p->groups[l] = 0;
        p->chg[l] = ~(uint64_t)0;
        p->act[l] = ~(uint64_t)0;
        p->idx[l] = i;
        return 1;
    }
    p->act[l] = 0;
    return 0;
}

/* The lanes' chunks by the hash table (a world without a directory). */
static __attribute__((noinline)) void lookup_table(lanes *p, int hf, unsigned cb, const struct wk_voxel_world *w) {
    for (unsigned m = cb; m; m &= m - 1) {
        int l = hf + __builtin_ctz(m);
        const wk__vchunk *c =
            wk__vfind(w, (int32_t)(p->q[0][l] >> 6), (int32_t)(p->q[1][l] >> 6), (int32_t)(p->q[2][l] >> 6));
        /* as a directory word: an empty chunk's is 0 (no address; box code 0, the chunk alone) */
        p->groups[l] = c ? c->groups : 0;
        p->chunk[l] = p->groups[l] ? (uint64_t)(uintptr_t)c : 0;
    }
}

/* A group's record: occ, then its brick word (an empty group's box), 8 bytes on */
_Static_assert(offsetof(wk__vgroup, brick) == offsetof(wk__vgroup, occ) + 8, "the group box lies 8 bytes past occ");

/* The step's constants, in one object (one base address for all). */
static const struct nconst {
    int64_t one[2], three[2], twelve[2], f48[2], occoff[2], pair[2], sel2a[2], n64[2], n32[2], n16[2], n8[2], n4[2],
        hi58[2], zaddr[2], f0[2], f1f0[2], shlo[3][2], shs[3][2];
    double onev[2], inf[2], margin[2];
} NK = {{1, 1},
        {3, 3},
        {12, 12},
        {48, 48},
        {(int64_t)(offsetof(wk__vchunk, grp) + offsetof(wk__vgroup, occ)),
         (int64_t)(offsetof(wk__vchunk, grp) + offsetof(wk__vgroup, occ))},
        {(int64_t)WK__VPAIR, (int64_t)WK__VPAIR},
        {0x2A, 0x2A},
        {64, 64},
        {32, 32},
        {16, 16},
        {8, 8},
        {4, 4},
        {~(int64_t)63, ~(int64_t)63},
        {0, 0},
        {0xF0, 0xF0},
        {0x1F0, 0x1F0},
        {{6 - WK__VBOX_LO(0), 6 - WK__VBOX_LO(0)},
         {6 - WK__VBOX_LO(1), 6 - WK__VBOX_LO(1)},
         {6 - WK__VBOX_LO(2), 6 - WK__VBOX_LO(2)}},
        {{6 - WK__VBOX_S(0), 6 - WK__VBOX_S(0)},
         {6 - WK__VBOX_S(1), 6 - WK__VBOX_S(1)},
         {6 - WK__VBOX_S(2), 6 - WK__VBOX_S(2)}},
        {1.0, 1.0},
        {INFINITY, INFINITY},
        {WK__VOXEL_REL_MARGIN, WK__VOXEL_REL_MARGIN}};
#define KI(name) vld1q_s64(K->name)
#define KD(name) vld1q_f64(K->name)

/* The walk's per-call values: the bounds in cells (LO inclusive, HI
 * exclusive), the directory's corner (chunks), address and sizes, the mask
 * of a directory word's address and empty-pair bit. */
typedef struct nctx {
    vi LO[3], HI[3], DLO[3], dir, cmask;
    uint32x2_t dn0, dn1;
} nctx;

/* One step of the walking lanes of half hf (lanes hf, hf + 1) of the packet,
 * as the AVX2 walk's three parts; returns the lanes (bits 0, 1) that
 * finished, their hits or misses written. */
N_INL unsigned step_neon(lanes *p, const int hf, const struct nconst *K, const nctx *C,
                         const struct wk_voxel_world *w, const wk_hits *h) {
    vm live = ldm(p->act + hf), done = zm();
    vi q[3] = {ldi(p->q[0] + hf), ldi(p->q[1] + hf), ldi(p->q[2] + hf)};
    unsigned hitb = 0;

    /* Part 1: lanes leaving the bounds (whole chunks: only a lane that
     * entered another chunk), chunk lookups. */
    vi chunk = ldi((const int64_t *)(const void *)(p->chunk + hf));
    vi groups = ldi((const int64_t *)(const void *)(p->groups + hf));
    vm changed = andm(live, ldm(p->chg + hf));
    if (anym(changed)) {
        vm out = orm(orm(lti(q[0], C->LO[0]), gei(q[0], C->HI[0])),
                     orm(orm(lti(q[1], C->LO[1]), gei(q[1], C->HI[1])), orm(lti(q[2], C->LO[2]), gei(q[2], C->HI[2]))));
        out = andm(out, changed);
        done = out;
        live = bicm(live, out);
        changed = bicm(changed, out);
        if (w->dir) {
            /* the entries' indices (below 2^22, the directory's size: 32-bit products)
             * and addresses; a lane without a lookup reads entry 0 */
            uint32x2_t x = vmovn_u64(vreinterpretq_u64_s64(subi(SHRI(q[0], 6), C->DLO[0])));
            uint32x2_t y = vmovn_u64(vreinterpretq_u64_s64(subi(SHRI(q[1], 6), C->DLO[1])));
            uint32x2_t z = vmovn_u64(vreinterpretq_u64_s64(subi(SHRI(q[2], 6), C->DLO[2])));
            uint64x2_t i = vmlal_u32(vmovl_u32(y), z, C->dn1);
            i = vmlal_u32(vmovl_u32(x), vmovn_u64(i), C->dn0);
            vi e = seli(changed, addi(C->dir, SHLI(vreinterpretq_s64_u64(i), 4)), C->dir);
            const wk__vdirent *e0 = (const wk__vdirent *)(uintptr_t)vgetq_lane_s64(e, 0);
            const wk__vdirent *e1 = (const wk__vdirent *)(uintptr_t)vgetq_lane_s64(e, 1);
            uint64x2_t ec = vld1q_lane_u64((const uint64_t *)&e1->c, vld1q_dup_u64((const uint64_t *)&e0->c), 1);
            uint64x2_t eg = vld1q_lane_u64(&e1->groups, vld1q_dup_u64(&e0->groups), 1);
            /* the address and the empty-pair bit */
            chunk = seli(changed, andi(vreinterpretq_s64_u64(ec), C->cmask), chunk);
            groups = seli(changed, vreinterpretq_s64_u64(eg), groups);
            sti((int64_t *)(void *)(p->chunk + hf), chunk);
            sti((int64_t *)(void *)(p->groups + hf), groups);
        } else {
            unsigned cb = bitsm(changed);
            if (cb) {
                lookup_table(p, hf, cb, w);
                chunk = ldi((const int64_t *)(const void *)(p->chunk + hf));
                groups = ldi((const int64_t *)(const void *)(p->groups + hf));
            }
        }
    }

    /* Part 2: the node around each cell (its size N), hits (written out). */
    const vi one = KI(one), three = KI(three), twelve = KI(twelve), f48 = KI(f48);
    vm hasg = andm(live, tsti(groups, groups)); /* an absent or empty chunk: 64^3 cells */
    /* the group and block indices: 2 bits of q per axis (g: bits 4-5, bb: bits 2-3) */
    vi g = ori(ori(andi(SHRI(q[0], 4), three), andi(SHRI(q[1], 2), twelve)), andi(q[2], f48));
    vi bb = ori(ori(andi(SHRI(q[0], 2), three), andi(q[1], twelve)), andi(SHLI(q[2], 2), f48));
    const vi pair = KI(pair), sel2a = KI(sel2a);
    /* the group's aligned pair of groups holds a nonempty group (else the group is
     * empty, and its record's second word holds its empty box of groups, see
     * wk__vgroup: loaded instead of occ, as AVX-512) */
    vm gnear = tsti(groups, shlv(pair, andi(g, sel2a)));
    /* group g's record at chunk + offsetof(grp) + 16 g; a lane without a chunk reads a zero word */
    vi addr = addi(addi(chunk, KI(occoff)), addi(SHLI(g, 4), bici(KI(n8), mi(gnear))));
    addr = seli(hasg, addr, vdupq_n_s64((int64_t)(uintptr_t)K->zaddr));
    uint64x2_t occu = vld1q_dup_u64((const uint64_t *)(uintptr_t)vgetq_lane_s64(addr, 0));
    occu = vld1q_lane_u64((const uint64_t *)(uintptr_t)vgetq_lane_s64(addr, 1), occu, 1);
    const vi occ = vreinterpretq_s64_u64(occu); /* within gnear: the occupancy; elsewhere in hasg a box */
    vm hasocc = andm(gnear, tsti(occ, occ)); /* 0 where the lane has no chunk */
    vm occbit = andm(gnear, tsti(occ, shlv(one, bb)));
    vm bnear = tsti(occ, shlv(pair, andi(bb, sel2a)));
    /* an empty chunk in an empty aligned pair of chunks: 128 (a nonempty chunk never has the bit) */
    vi N = shlv(KI(n64), andi(chunk, one));
    N = seli(hasg, seli(gnear, KI(n16), KI(n32)), N);
    N = seli(hasocc, seli(bnear, KI(n4), KI(n8)), N);
    N = seli(occbit, one, N);
    if (anym(occbit)) {
        for (unsigned m = bitsm(occbit); m; m &= m - 1) {
            int l = hf + __builtin_ctz(m);
            const wk__vchunk *c = (const wk__vchunk *)(uintptr_t)p->chunk[l];
            const int64_t qx = p->q[0][l], qy = p->q[1][l], qz = p->q[2][l];
            const uint64_t ux = (uint64_t)qx, uy = (uint64_t)qy, uz = (uint64_t)qz;
            int gl = wk__vpart(ux, uy, uz, 4);
            int bl = wk__vpart(ux, uy, uz, 2);
            int sub = -1, solid = 1;
            if ((c->grp[gl].brick >> bl) & 1) {
                uint64_t mk = wk__vbrick_mask(c, gl, bl);
                sub = wk__vpart(ux, uy, uz, 0);
                solid = (int)((mk >> sub) & 1);
            }
            if (!solid) continue;
            /* s of the last event: the entered plane's quotient, as the walk divided it
             * (face 6: the start, s = 0); t as the reference */
            const int face = (int)p->face[l];
            double ks = 0.0;
            if (face != 6) {
                const int fa = face >> 1;
                ks = ((double)((face & 1) ? p->q[fa][l] + 1 : p->q[fa][l]) * 0.25 - p->o[fa][l]) / p->d[fa][l];
            }
            double t = ks * p->len[l] + 0.0;
            size_t i = p->idx[l];
            hitb |= 1u << (l - hf);
            if (!(t <= p->limit[l])) {
                wk__voxel_write_miss(h, i);
                continue;
            }
            wk__voxel_write_hit(h, i, (float)t, (int32_t)(qx >> 2), (int32_t)(qy >> 2), (int32_t)(qz >> 2), (int8_t)sub,
                                (int8_t)face);
        }
        if (hitb) {
            vm hits = bitsv(hitb);
            done = orm(done, hits);
            live = bicm(live, hits);
        }
    }

    /* Part 3: leaving the node (as AVX2; z[a]: the lanes with d_a = 0, no step on axis a). */
    if (anym(live)) {
        const vd onev = KD(onev);
        /* The node: the aligned cube of N cells around q, or in an empty or absent
         * chunk the directory word's empty box of chunks (see WK__VBOX_MAX), or in a
         * group of an empty aligned pair of groups the group's empty box of groups
         * (none where its word is 0): per axis, units c - lo to c - lo + s, from cell
         * base = (c - lo) unit, Na = (s + 1) unit cells (unit 64 or 16), as AVX-512.
         * Every cell of any of them is empty: leaving it in one jump is the
         * reference's walk (voxel_trace.c's argument holds for any empty box). */
        const vm gbox = bicm(andm(hasg, tsti(occ, occ)), gnear);
        const vm isbox = orm(bicm(live, hasg), gbox);
        vi clr = subi(N, one), Nb = N; /* the low bits cleared from q; the cells of a box's unit */
        vi lo64[3] = {vdupq_n_s64(0), vdupq_n_s64(0), vdupq_n_s64(0)}, s64[3] = {lo64[0], lo64[0], lo64[0]};
        if (anym(isbox)) {
            const vi bw = seli(gbox, occ, chunk); /* the box's word */
            const vi unit = seli(gbox, KI(n16), KI(n64));
            clr = seli(isbox, subi(unit, one), clr);
            Nb = seli(isbox, unit, N);
            for (int a = 0; a < 3; a++) {
                /* lo unit and s unit of a box (bits WK__VBOX_LO(a) and WK__VBOX_S(a) of a chunk's
                 * word, 2 lower in a group's: see WK__VGBOX_LO), 0 elsewhere */
                lo64[a] = andi(andi(shlv(bw, ldi(K->shlo[a])), KI(f0)), mi(isbox));
                s64[a] = andi(andi(shlv(bw, ldi(K->shs[a])), KI(f1f0)), mi(isbox));
            }
        }
        vd o[3], d[3], num[3], est[3];
        vi base[3], P[3], Na[3];
        vm pos[3], z[3], is[3];
        for (int a = 0; a < 3; a++) {
            o[a] = ldd(p->o4[a] + hf); /* scaled by 4 (exact): num, d and the position too */
            d[a] = ldd(p->d4[a] + hf);
            pos[a] = vcgtzq_f64(d[a]);
            z[a] = vceqzq_f64(d[a]);
            base[a] = subi(bici(q[a], clr), lo64[a]);
            Na[a] = addi(Nb, s64[a]);
            P[a] = addi(base[a], andi(Na[a], mi(pos[a])));
            num[a] = subd(i2d(P[a]), o[a]);
            est[a] = muld(num[a], ldd(p->inv4[a] + hf));
        }
        /* the first smallest estimate, as the reference's strict comparisons (an
         * estimate is finite; a still axis's is +inf here: none where every axis is) */
        const vd inf = KD(inf);
        for (int a = 0; a < 3; a++) est[a] = seld(z[a], inf, est[a]);
        const vm t1 = ltd(est[1], est[0]);
        vd best = seld(t1, est[1], est[0]);
        const vm t2 = ltd(est[2], best);
        best = seld(t2, est[2], best);
        is[2] = t2;
        is[1] = bicm(t1, t2);
        is[0] = vmvnq_u32_u64(orm(t1, t2));
        vm none = andm(live, eqd(best, inf));
        done = orm(done, none);
        live = bicm(live, none);
        /* the exact quotient only where it decides (see the AVX-512 section):
         * near-ties, a finite tmax, fix-ups, hits */
        vd nearv = addd(best, muld(best, KD(margin)));
        vm la[3];
        for (int a = 0; a < 3; a++) la[a] = andm(live, led(est[a], nearv));
        vm tie = orm(andm(la[0], orm(la[1], la[2])), andm(la[1], la[2]));
        vm exact = zm();
        vd es = best;
        if (anym(tie)) {
            vi ea = addi(andi(mi(is[1]), one), SHLI(andi(mi(is[2]), one), 1)); /* the exit axis */
            vd nsel = seld(is[2], num[2], seld(is[1], num[1], num[0]));
            vd dsel = seld(is[2], d[2], seld(is[1], d[1], d[0]));
            es = seld(tie, divd(nsel, seld(tie, dsel, onev)), best);
            exact = tie;
            for (int a = 0; a < 3; a++) {
                vi av = vdupq_n_s64(a);
                vm m = bicm(la[a], eqi(ea, av));
                if (!anym(m)) continue;
                vd s2 = divd(num[a], seld(m, d[a], onev));
                /* key (es, ea) <= (s, a)? */
                vm le = orm(ltd(es, s2), andm(eqd(es, s2), lei(ea, av)));
                vm upd = bicm(m, le);
                es = seld(upd, s2, es);
                ea = seli(upd, av, ea);
            }
            is[0] = vceqzq_s64(ea);
            is[1] = eqi(ea, one);
            is[2] = eqi(ea, vdupq_n_s64(2));
        }
        const vd limit = ldd(p->limit + hf);
        vm fl = zm();
        if (p->fin[hf >> 1]) fl = bicm(live, eqd(limit, inf));
        if (anym(fl)) {
            vm need = bicm(fl, exact);
            vd nsel = seld(is[2], num[2], seld(is[1], num[1], num[0]));
            vd dsel = seld(is[2], d[2], seld(is[1], d[1], d[0]));
            es = seld(need, divd(nsel, seld(need, dsel, onev)), es);
            exact = orm(exact, need);
            vm over = bicm(fl, led(muld(es, ldd(p->len + hf)), limit));
            done = orm(done, over);
            live = bicm(live, over);
        }
        vm big = andm(live, gti(N, one));
        const vi qold[3] = {q[0], q[1], q[2]};
        if (anym(big)) {
            /* the other axes' cells from the position, when clearly inside a cell of the node */
            const vd eps = ldd(p->eps + hf), eps1 = ldd(p->eps1 + hf);
            vm fix[3], anyfix = zm();
            for (int b = 0; b < 3; b++) {
                vm m = bicm(bicm(big, z[b]), is[b]);
                vd x4 = addd(o[b], muld(es, d[b])); /* (o + s d) 4, exactly */
                vi c = floori(x4); /* exact where inside the node (|x4| < 2^63) */
                vm inr = vcltq_u64(vreinterpretq_u64_s64(subi(c, base[b])), vreinterpretq_u64_s64(Na[b]));
                vd frac = subd(x4, i2d(c));
                vm ok = andm(andm(inr, m), andm(gtd(frac, eps), ltd(frac, eps1)));
                q[b] = seli(ok, c, q[b]);
                fix[b] = bicm(m, ok);
                anyfix = orm(anyfix, fix[b]);
            }
            if (anym(anyfix)) {
                vm need = bicm(anyfix, exact);
                vd nsel = seld(is[2], num[2], seld(is[1], num[1], num[0]));
                vd dsel = seld(is[2], d[2], seld(is[1], d[1], d[0]));
                es = seld(need, divd(nsel, seld(need, dsel, onev)), es);
                double tes[2];
                int64_t tea[2], tN[2], tbase[2], tq[2], tnq[2]; /* tN: Na of the axis */
                std2(tes, es);
                sti(tea, addi(andi(mi(is[1]), one), SHLI(andi(mi(is[2]), one), 1)));
                for (int b = 0; b < 3; b++) {
                    unsigned fb = bitsm(fix[b]);
                    if (!fb) continue;
                    sti(tbase, base[b]);
                    sti(tN, Na[b]);
                    sti(tq, qold[b]);
                    sti(tnq, q[b]);
                    for (unsigned m = fb; m; m &= m - 1) {
                        int k = __builtin_ctz(m), l = hf + k;
                        int stp = p->d[b][l] > 0 ? 1 : -1;
                        int64_t lim = stp > 0 ? tbase[k] + tN[k] - 1 : tbase[k];
                        tnq[k] = wk__voxel_exact_advance(tq[k], stp, b, p->o[b][l], p->d[b][l], tes[k], (int)tea[k],
                                                         lim);
                    }
                    q[b] = ldi(tnq);
                }
            }
        }
        vi face = ldi(p->face + hf);
        for (int a = 0; a < 3; a++) {
            vm m = andm(live, is[a]);
            /* the cell beyond the plane: P (d > 0) or P - 1; the face 2a or 2a + 1 */
            q[a] = seli(m, subi(subi(P[a], one), mi(pos[a])), q[a]);
            face = seli(m, ldi(p->fcode[a] + hf), face);
            sti(p->q[a] + hf, q[a]);
        }
        sti(p->face + hf, face);
        /* entered another chunk: a 64-cell boundary crossed on some axis */
        vi x = ori(xori(q[0], qold[0]), ori(xori(q[1], qold[1]), xori(q[2], qold[2])));
        stm(p->chg + hf, andm(live, tsti(x, KI(hi58))));
    }
    unsigned db = 0;
    if (anym(done)) {
        db = bitsm(done);
        for (unsigned m = db & ~hitb; m; m &= m - 1) wk__voxel_write_miss(h, p->idx[hf + __builtin_ctz(m)]);
        stm(p->act + hf, bicm(ldm(p->act + hf), done));
    }
    return db;
}

static void raycast_neon(const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t begin,
                         size_t end) {
    const double b2 = position_bound2(w);
    size_t next = begin;
    lanes pk;
    memset(&pk, 0, sizeof pk);
    unsigned act = 0;
    for (int l = 0; l < L; l++)
        if (refill(&pk, l, w, r, h, &next, end, b2)) act |= 1u << l;
    /* the constants' address in a register (one base for every constant load) */
    const struct nconst *K = &NK;
    __asm__("" : "+r"(K));
    nctx C;
    for (int a = 0; a < 3; a++) {
        C.LO[a] = dupi((int64_t)w->lo[a] * 64);
        C.HI[a] = dupi(((int64_t)w->hi[a] + 1) * 64);
        C.DLO[a] = dupi(w->dir ? w->dlo[a] : 0);
    }
    C.dir = dupi((int64_t)(uintptr_t)w->dir);
    C.cmask = dupi((int64_t)(WK__VDIR_ADDR | WK__VDIR_PAIR_EMPTY));
    C.dn0 = vdup_n_u32(w->dir ? (uint32_t)w->dn[0] : 0);
    C.dn1 = vdup_n_u32(w->dir ? (uint32_t)w->dn[1] : 0);
    while (act) {
        unsigned done = 0;
        if (act & 3) done = step_neon(&pk, 0, K, &C, w, h);
        if (act & 12) done |= step_neon(&pk, 2, K, &C, w, h) << 2;
        act &= ~done;
        for (unsigned m = done; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (refill(&pk, l, w, r, h, &next, end, b2)) act |= 1u << l;
        }
    }
}

const wk__voxel_kernels WK_SIMD_NAME(wk__voxel_kernels) = {raycast_neon};

#endif
