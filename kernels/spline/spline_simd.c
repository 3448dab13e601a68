/* The spline family's SIMD paths, one source compiled once per ISA. Every
 * function computes exactly the reference's operations in the same order
 * (no fused multiply-add), so results are bit-identical. */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "spline_impl.h"
#include "wk_simd.h"
#include "wk_math.h"

static const uint32_t lane_index[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

WK_INLINE wk_vf canon(wk_vf v) {
    return wk_vf_select(wk_vf_isnan(v), wk_vi_as_vf(wk_vi_set1(WK__SPLINE_NAN_BITS)), v);
}

WK_INLINE wk_vf clamp01(wk_vf v) {
    const wk_vf zero = wk_vf_set1(0.0f), one = wk_vf_set1(1.0f);
    v = wk_vf_select(wk_vf_lt(v, zero), zero, v);
    return wk_vf_select(wk_vf_lt(one, v), one, v);
}

/* ---------------------------------------------------------- Catmull-Rom */

typedef struct cr_coef { wk_vf a, b, c, d; } cr_coef;

WK_INLINE cr_coef coeffs_of(wk_vf p0, wk_vf p1, wk_vf p2, wk_vf p3) {
    const wk_vf two = wk_vf_set1(2.0f), three = wk_vf_set1(3.0f), four = wk_vf_set1(4.0f), five = wk_vf_set1(5.0f);
    cr_coef c;
    c.a = wk_vf_add(wk_vf_sub(wk_vf_sub(wk_vf_mul(three, p1), p0), wk_vf_mul(three, p2)), p3);
    c.b = wk_vf_sub(wk_vf_add(wk_vf_sub(wk_vf_mul(two, p0), wk_vf_mul(five, p1)), wk_vf_mul(four, p2)), p3);
    c.c = wk_vf_sub(p2, p0);
    c.d = wk_vf_mul(two, p1);
    return c;
}

WK_INLINE wk_vf horner(cr_coef c, wk_vf u) {
    wk_vf v = wk_vf_add(wk_vf_mul(u, c.a), c.b);
    v = wk_vf_add(wk_vf_mul(u, v), c.c);
    v = wk_vf_add(wk_vf_mul(u, v), c.d);
    return canon(wk_vf_mul(wk_vf_set1(0.5f), v));
}

/* The segment of t per lane: clamped floor (float) and its index. */
WK_INLINE wk_vf segment_of(wk_vf t, float flo, float fhi, uint32_t lo, uint32_t hi, wk_vi *index) {
    const wk_vf vlo = wk_vf_set1(flo), vhi = wk_vf_set1(fhi);
    wk_vf f = wk_vf_floor(t);
    f = wk_vf_select(wk_vf_lt(f, vlo), vlo, f);
    f = wk_vf_select(wk_vf_lt(vhi, f), vhi, f);
    /* NaN lanes convert to anything: keep the index in range. */
    *index = wk_vi_min_s(wk_vi_max_s(wk_vi_from_vf_trunc(f), wk_vi_set1(lo)), wk_vi_set1(hi));
    return f;
}

/* Per-lane coefficients of segment i[lane] of curve p, from gathers. */
WK_INLINE cr_coef coeffs_gather(const float *p, uint32_t n, uint32_t mode, wk_vi i, float ph_lo, float ph_hi) {
    const wk_vi one = wk_vi_set1(1), two = wk_vi_set1(2), minus_one = wk_vi_set1(0xFFFFFFFFu);
    wk_vf p1 = wk_vf_gather(p, i), p2 = wk_vf_gather(p, wk_vi_add(i, one)), p0, p3;
    if (mode == WK_SPLINE_END_PHANTOM) {
        wk_vi im1 = wk_vi_add(wk_vi_max_s(i, one), minus_one);
        wk_vi ip2 = wk_vi_add(wk_vi_min_s(i, wk_vi_set1(n - 3)), two);
        p0 = wk_vf_select(wk_vi_lt_s(i, one), wk_vf_set1(ph_lo), wk_vf_gather(p, im1));
        p3 = wk_vf_select(wk_vi_lt_s(wk_vi_set1(n - 3), i), wk_vf_set1(ph_hi), wk_vf_gather(p, ip2));
    } else {
        p0 = wk_vf_gather(p, wk_vi_add(i, minus_one));
        p3 = wk_vf_gather(p, wk_vi_add(i, two));
    }
    return coeffs_of(p0, p1, p2, p3);
}

/* Broadcast coefficients of segment i (scalar, exactly the reference's). */
static cr_coef coeffs_broadcast(const float *p, uint32_t n, uint32_t mode, uint32_t i) {
    float q[4], c[4];
    wk__cr_points(p, n, mode, i, q);
    wk__cr_coeffs(q, c);
    cr_coef r = {wk_vf_set1(c[0]), wk_vf_set1(c[1]), wk_vf_set1(c[2]), wk_vf_set1(c[3])};
    return r;
}

/* The segment of evenly spaced sample k: the reference's float division
 * replaced by the double product that spline_impl.h proves equal. */
static uint32_t even_segment(uint32_t k, double r, float seg, float flo, float fhi, uint32_t lo) {
    uint32_t i;
    wk__cr_segment((float)((double)k * r) * seg, flo, fhi, lo, &i);
    return i;
}

/* The first sample k > ... whose segment is past `cur` (m when none):
 * estimated from the exact quotient, then moved to the true boundary with
 * the same segment computation the samples use (segments are monotonic). */
static uint32_t next_boundary(uint32_t cur, uint32_t hi, uint32_t m, double r, float seg, float flo, float fhi,
                              uint32_t lo) {
    if (cur >= hi) return m;
    double est = ceil((double)(cur + 1) * (double)(m - 1) / (double)seg);
    uint32_t k = est < 0.0 ? 0 : est > (double)m ? m : (uint32_t)est;
    while (k > 0 && even_segment(k - 1, r, seg, flo, fhi, lo) > cur) k--;
    while (k < m && even_segment(k, r, seg, flo, fhi, lo) <= cur) k++;
    return k;
}

/* Halved coefficients for evenly spaced samples. The reference computes
 * 0.5 * v3 with v1 = u a + b, v2 = u v1 + c, v3 = u v2 + d (each operation
 * rounded). When every coefficient is 0 or 2^-40 <= |c| <= 2^100 (halvable
 * below), the same Horner steps on a/2, b/2, c/2, d/2 give exactly v3 / 2,
 * with no NaN step and no final multiply. Proof: evenly spaced positions
 * have u = 0 or 2^-24 <= |u| <= 2 (u = t - f is a multiple of ulp(t) >=
 * 2^-23 when t >= 1, t >= 2^-23 when f = 0 since s >= 2^-24 and n - 1 >= 3,
 * and 1 - t >= 2^-24 for the clamp mode's t < 1 at f = 1). For floats x, y
 * with x + y != 0, |x + y| >= 2^-25 max(|x|, |y|) (either no cancellation,
 * or a multiple of the smaller ulp). So the exact values u a, v1, u v1, v2,
 * u v2, v3 are 0 or at least 2^-64, 2^-65, 2^-89, 2^-89, 2^-113, 2^-113 in
 * magnitude, and below 2^106 (|u| <= 2): halving every exact intermediate
 * keeps it in the normal range, where rounding commutes with scaling by
 * 2^-1 (zeros keep their signs: the halved operands have the same signs).
 * By induction each halved step returns exactly half the reference's, and
 * the reference's 0.5 * v3 is exact. No NaN or infinity can arise, so the
 * NaN step is the identity. Checked in tests/spline (spline_even_halved,
 * spline_cr_even_scales). */
WK_INLINE wk_vf horner_half(cr_coef c, wk_vf u) {
    wk_vf v = wk_vf_add(wk_vf_mul(u, c.a), c.b);
    v = wk_vf_add(wk_vf_mul(u, v), c.c);
    return wk_vf_add(wk_vf_mul(u, v), c.d);
}

static int halvable(float c) {
    float a = fabsf(c);
    return c == 0.0f || (a >= 0x1p-40f && a <= 0x1p100f); /* false for NaN */
}

/* halvable() per lane, as lane bits */
WK_INLINE uint32_t halvable_bits(wk_vf c) {
    wk_vf a = wk_vi_as_vf(wk_vi_and(wk_vf_as_vi(c), wk_vi_set1(0x7FFFFFFFu)));
    wk_vm in = wk_vm_and(wk_vf_le(wk_vf_set1(0x1p-40f), a), wk_vf_le(a, wk_vf_set1(0x1p100f)));
    return wk_vm_bits(in) | wk_vm_bits(wk_vf_le(a, wk_vf_set1(0.0f)));
}

/* Broadcast coefficients of segment i; *half: all four halvable. */
static cr_coef coeffs_broadcast_h(const float *p, uint32_t n, uint32_t mode, uint32_t i, int *half) {
    float q[4], c[4];
    wk__cr_points(p, n, mode, i, q);
    wk__cr_coeffs(q, c);
    *half = halvable(c[0]) & halvable(c[1]) & halvable(c[2]) & halvable(c[3]);
    cr_coef r = {wk_vf_set1(c[0]), wk_vf_set1(c[1]), wk_vf_set1(c[2]), wk_vf_set1(c[3])};
    return r;
}

WK_INLINE cr_coef coeffs_halved(cr_coef c) {
    const wk_vf h = wk_vf_set1(0.5f);
    cr_coef r = {wk_vf_mul(c.a, h), wk_vf_mul(c.b, h), wk_vf_mul(c.c, h), wk_vf_mul(c.d, h)};
    return r;
}

/* Positions t = s * (n - 1) of evenly spaced samples, s = k / (m - 1) as the
 * reference rounds it, from float lanes k (exact: k < m <= 2^24): for m <=
 * WK__CR_FMA_MAX_M by the fused two-term product of spline_impl.h, else by
 * the reference's own division (r: the scalar segment searches' double
 * reciprocal). */
typedef struct even_pos {
    wk_vf rh, rl, d, seg;
    double r;
} even_pos;

WK_INLINE wk_vf even_t(const even_pos *e, int fma_pos, wk_vf kf) {
    wk_vf s = fma_pos ? wk_vf_fma(kf, e->rh, wk_vf_mul(kf, e->rl)) : wk_vf_div(kf, e->d);
    return wk_vf_mul(s, e->seg);
}

WK_INLINE even_pos even_pos_for(uint32_t m, uint32_t n, int fma_pos) {
    float rh = 0.0f, rl = 0.0f;
    if (fma_pos) wk__cr_even_split(m, &rh, &rl);
    const even_pos e = {wk_vf_set1(rh), wk_vf_set1(rl), wk_vf_set1((float)(m - 1)), wk_vf_set1((float)(n - 1)),
                        1.0 / (double)(m - 1)};
    return e;
}

/* The positions of samples kb .. kb + bn - 1 (rounded up to whole vectors:
 * lanes past bn are in range, unused): u to ub, the segment to ib. */
WK_INLINE void block_positions(const even_pos *e, int fma_pos, uint32_t lo, uint32_t hi, uint32_t kb, size_t bn,
                               float *ub, uint32_t *ib) {
    const wk_vi lanes = wk_vi_loadu(lane_index);
    const wk_vf fw = wk_vf_set1((float)WK_W);
    wk_vf kf = wk_vf_add(wk_vf_set1((float)kb), wk_vf_from_vi_s(lanes));
    for (size_t q = 0; q < bn; q += WK_W) {
        wk_vi idx;
        wk_vf t = even_t(e, fma_pos, kf);
        wk_vf f = segment_of(t, (float)lo, (float)hi, lo, hi, &idx);
        wk_vf_storeu(ub + q, wk_vf_sub(t, f));
        wk_vi_storeu(ib + q, idx);
        kf = wk_vf_add(kf, fw);
    }
}

/* One vector of samples kf .. kf + w - 1 from segment i_first = cur (its
 * coefficients cc) onward: two segments select, more gather. Returns the
 * last lane's segment. */
WK_INLINE uint32_t cr_even_mixed(const float *p, uint32_t n, uint32_t mode, wk_vf t, uint32_t i_first,
                                 uint32_t i_last, cr_coef cc, uint32_t lo, uint32_t hi, float ph_lo, float ph_hi,
                                 cr_coef *next, int *next_half, wk_vf *value) {
    wk_vi idx;
    wk_vf f = segment_of(t, (float)lo, (float)hi, lo, hi, &idx);
    cr_coef c;
    *next = coeffs_broadcast_h(p, n, mode, i_last, next_half);
    if (i_last - i_first <= 1) {
        wk_vm second = wk_vf_lt(wk_vf_set1((float)i_first), f); /* lanes past the first segment */
        c.a = wk_vf_select(second, next->a, cc.a);
        c.b = wk_vf_select(second, next->b, cc.b);
        c.c = wk_vf_select(second, next->c, cc.c);
        c.d = wk_vf_select(second, next->d, cc.d);
    } else {
        c = coeffs_gather(p, n, mode, idx, ph_lo, ph_hi);
    }
    *value = horner(c, wk_vf_sub(t, f));
    return i_last;
}

WK_INLINE void cr_even_impl(const float *p, uint32_t n, uint32_t mode, uint32_t m, uint32_t k0, size_t count,
                            float *out, const int fma_pos) {
    uint32_t lo, hi;
    wk__cr_range(n, mode, &lo, &hi);
    const float flo = (float)lo, fhi = (float)hi, seg = (float)(n - 1);
    const float ph_lo = 2.0f * p[0] - p[1], ph_hi = 2.0f * p[n - 1] - p[n - 2];
    const even_pos e = even_pos_for(m, n, fma_pos);
    const double r = e.r;
    const wk_vi lanes = wk_vi_loadu(lane_index);
    const wk_vf flanes = wk_vf_from_vi_s(lanes), fw = wk_vf_set1((float)WK_W);
    uint32_t cur = even_segment(k0, r, seg, flo, fhi, lo);
    int half;
    cr_coef cc = coeffs_broadcast_h(p, n, mode, cur, &half);
    /* Dense sampling (>= 4 vectors per segment): segments are monotonic in
     * k, so each segment's samples form one run [.., k_next) found once
     * (exactly, with the samples' own segment computation); the run's full
     * vectors broadcast its coefficients (halved when they allow it); a
     * vector across a boundary selects per lane. */
    if ((double)(m - 1) >= 4.0 * WK_W * (double)(n - 1)) {
        size_t q = 0;
        while (q < count) {
            uint32_t k_next = next_boundary(cur, hi, m, r, seg, flo, fhi, lo);
            size_t run_end = (size_t)(k_next - k0) < count ? (size_t)(k_next - k0) : count;
            const wk_vf fcur = wk_vf_set1((float)cur);
            wk_vf kf = wk_vf_add(wk_vf_set1((float)(k0 + (uint32_t)q)), flanes);
            if (half) {
                const cr_coef ch = coeffs_halved(cc);
                const wk_vf fw2 = wk_vf_set1((float)(2 * WK_W));
                wk_vf kf2 = wk_vf_add(kf, fw);
                for (; q + 2 * WK_W <= run_end; q += 2 * WK_W) {
                    wk_vf t = even_t(&e, fma_pos, kf);
                    wk_vf t2 = even_t(&e, fma_pos, kf2);
                    wk_vf_storeu(out + q, horner_half(ch, wk_vf_sub(t, fcur)));
                    wk_vf_storeu(out + q + WK_W, horner_half(ch, wk_vf_sub(t2, fcur)));
                    kf = wk_vf_add(kf, fw2);
                    kf2 = wk_vf_add(kf2, fw2);
                }
                for (; q + WK_W <= run_end; q += WK_W) {
                    wk_vf t = even_t(&e, fma_pos, kf);
                    wk_vf_storeu(out + q, horner_half(ch, wk_vf_sub(t, fcur)));
                    kf = wk_vf_add(kf, fw);
                }
            } else {
                for (; q + WK_W <= run_end; q += WK_W) {
                    wk_vf t = even_t(&e, fma_pos, kf);
                    wk_vf_storeu(out + q, horner(cc, wk_vf_sub(t, fcur)));
                    kf = wk_vf_add(kf, fw);
                }
            }
            if (q >= count) break;
            size_t w = count - q < WK_W ? count - q : WK_W;
            uint32_t kf0 = k0 + (uint32_t)q, kl = kf0 + (uint32_t)w - 1;
            wk_vf t = even_t(&e, fma_pos, kf), value;
            if (kl < k_next) { /* the tail, inside the run */
                value = horner(cc, wk_vf_sub(t, fcur));
            } else { /* segments hold > W samples here: the vector ends in the next one */
                cur = cr_even_mixed(p, n, mode, t, cur, cur + 1, cc, lo, hi, ph_lo, ph_hi, &cc, &half, &value);
            }
            wk_vf_store_n(out + q, value, w);
            q += WK_W;
        }
        return;
    }
    /* Sparse sampling: the last lane's segment per vector. */
    wk_vf kf = wk_vf_add(wk_vf_set1((float)k0), flanes);
    for (size_t q = 0; q < count; q += WK_W) {
        size_t w = count - q < WK_W ? count - q : WK_W;
        uint32_t kf0 = k0 + (uint32_t)q, kl = kf0 + (uint32_t)w - 1;
        wk_vf t = even_t(&e, fma_pos, kf), value;
        uint32_t i_last = even_segment(kl, r, seg, flo, fhi, lo);
        if (i_last == cur) value = horner(cc, wk_vf_sub(t, wk_vf_set1((float)cur)));
        else {
            uint32_t i_first = even_segment(kf0, r, seg, flo, fhi, lo);
            cr_coef first = i_first == cur ? cc : coeffs_broadcast(p, n, mode, i_first);
            cur = cr_even_mixed(p, n, mode, t, i_first, i_last, first, lo, hi, ph_lo, ph_hi, &cc, &half, &value);
        }
        wk_vf_store_n(out + q, value, w);
        kf = wk_vf_add(kf, fw);
    }
}

static void cr_even_one(const float *p, uint32_t n, uint32_t mode, uint32_t m, uint32_t k0, size_t count,
                        float *out) {
    if (m <= WK__CR_FMA_MAX_M) cr_even_impl(p, n, mode, m, k0, count, out, 1);
    else cr_even_impl(p, n, mode, m, k0, count, out, 0);
}

enum { EVEN_BLOCK = 1024 };

/* Curves of up to 17 points (at most 16 segments), several at once: each
 * block of samples gets its positions (u and segment per lane) once, then
 * every curve reads them with its segments' coefficients in registers. */
WK_INLINE void cr_even_small_impl(const float *p, size_t p_stride, uint32_t curves, uint32_t n, uint32_t mode,
                                  uint32_t m, uint32_t k0, size_t count, float *out, size_t out_stride,
                                  const int fma_pos) {
    uint32_t lo, hi;
    wk__cr_range(n, mode, &lo, &hi);
    const even_pos e = even_pos_for(m, n, fma_pos);
    const wk_vi lanes = wk_vi_loadu(lane_index);
    float ub[EVEN_BLOCK];
    uint32_t ib[EVEN_BLOCK];
    for (size_t b0 = 0; b0 < count; b0 += EVEN_BLOCK) {
        size_t bn = count - b0 < EVEN_BLOCK ? count - b0 : EVEN_BLOCK;
        block_positions(&e, fma_pos, lo, hi, k0 + (uint32_t)b0, bn, ub, ib);
        for (uint32_t c = 0; c < curves; c++) {
            const float *pc = p + (size_t)c * p_stride;
            float *oc = out + (size_t)c * out_stride + b0;
            /* ext[j + 1] = point j, phantom ends at ext[0] and ext[n + 1]:
             * lane i of ext + j is point i - 1 + j */
            float ext[16 + 4 + WK_W];
            for (uint32_t j = 0; j < 16 + 4; j += WK_W) wk_vf_storeu(ext + j, wk_vf_set1(0.0f));
            for (uint32_t j = 0; j < n; j += WK_W) wk_vf_storeu(ext + 1 + j, wk_vf_load_n(pc + j, n - j < WK_W ? n - j : WK_W));
            if (mode == WK_SPLINE_END_PHANTOM) {
                ext[0] = 2.0f * pc[0] - pc[1];
                ext[n + 1] = 2.0f * pc[n - 1] - pc[n - 2];
            }
            uint32_t tab[4][16], tabh[4][16];
            int finite = 1;
            for (uint32_t j = 0; j < 16; j += WK_W) {
                cr_coef cf = coeffs_of(wk_vf_loadu(ext + j), wk_vf_loadu(ext + j + 1), wk_vf_loadu(ext + j + 2),
                                       wk_vf_loadu(ext + j + 3));
                wk_vf_storeu((float *)(void *)(tab[0] + j), cf.a);
                wk_vf_storeu((float *)(void *)(tab[1] + j), cf.b);
                wk_vf_storeu((float *)(void *)(tab[2] + j), cf.c);
                wk_vf_storeu((float *)(void *)(tab[3] + j), cf.d);
                cr_coef ch = coeffs_halved(cf);
                wk_vf_storeu((float *)(void *)(tabh[0] + j), ch.a);
                wk_vf_storeu((float *)(void *)(tabh[1] + j), ch.b);
                wk_vf_storeu((float *)(void *)(tabh[2] + j), ch.c);
                wk_vf_storeu((float *)(void *)(tabh[3] + j), ch.d);
                /* the segments in use all halvable: halved tables */
                uint32_t ok = halvable_bits(cf.a) & halvable_bits(cf.b) & halvable_bits(cf.c) & halvable_bits(cf.d);
                wk_vi seg = wk_vi_add(lanes, wk_vi_set1(j));
                uint32_t used =
                    wk_vm_bits(wk_vm_and(wk_vi_lt_s(wk_vi_set1(lo - 1), seg), wk_vi_lt_s(seg, wk_vi_set1(hi + 1))));
                finite &= (ok & used) == used;
            }
            uint32_t(*tt)[16] = finite ? tabh : tab;
            const wk_lut16 la = wk_lut16_load(tt[0]), lb = wk_lut16_load(tt[1]), lc = wk_lut16_load(tt[2]),
                           ld = wk_lut16_load(tt[3]);
#define CR_SMALL_BODY(HORNER)                                                                                     \
    for (size_t q = 0; q < bn; q += WK_W) {                                                                    \
        size_t w = bn - q < WK_W ? bn - q : WK_W;                                                              \
        wk_vi idx = wk_vi_loadu(ib + q);                                                                       \
        cr_coef cq = {wk_vi_as_vf(wk_lut16_get(la, idx)), wk_vi_as_vf(wk_lut16_get(lb, idx)),                  \
                      wk_vi_as_vf(wk_lut16_get(lc, idx)), wk_vi_as_vf(wk_lut16_get(ld, idx))};                 \
        wk_vf_store_n(oc + q, HORNER(cq, wk_vf_loadu(ub + q)), w);                                             \
    }
            if (finite) {
                CR_SMALL_BODY(horner_half)
            } else {
                CR_SMALL_BODY(horner)
            }
#undef CR_SMALL_BODY
        }
    }
}

enum { WIN_BLOCK = 512, WIN_SEGS = WIN_BLOCK / 2 + 32 };

/* The window path needs every vector of samples within 8 segments:
 * (W - 1) (n - 1) / (m - 1) <= 6 keeps it with room for rounding (a vector
 * that still spans more is checked and gathers). */
static int window_fits(uint32_t n, uint32_t m) { return (double)(WK_W - 1) * (double)(n - 1) <= 6.0 * (double)(m - 1); }

/* Curves of any length sampled densely enough (window_fits): each block of
 * WIN_BLOCK samples gets its positions (u and segment per lane) once; per
 * curve, the coefficients of the block's segments go to four arrays (the
 * reference's operations, vectorized) and each vector looks its lanes'
 * coefficients up in a 16-segment window of them held in registers; the
 * window starts at a multiple of 8 and moves when the first lane's segment
 * leaves it. */
WK_INLINE void cr_even_window_impl(const float *p, size_t p_stride, uint32_t curves, uint32_t n, uint32_t mode,
                                   uint32_t m, uint32_t k0, size_t count, float *out, size_t out_stride,
                                   const int fma_pos) {
    uint32_t lo, hi;
    wk__cr_range(n, mode, &lo, &hi);
    const even_pos e = even_pos_for(m, n, fma_pos);
    const wk_vi lanes = wk_vi_loadu(lane_index);
    float ub[WIN_BLOCK];
    uint32_t ib[WIN_BLOCK];
    /* coefficient arrays: segment base0 + j at [j]; ext[j + 1] = point base0 - 1 + j */
    float ca[WIN_SEGS + 64], cb[WIN_SEGS + 64], cc[WIN_SEGS + 64], cd[WIN_SEGS + 64], ext[WIN_SEGS + 64];
    for (size_t b0 = 0; b0 < count; b0 += WIN_BLOCK) {
        size_t bn = count - b0 < WIN_BLOCK ? count - b0 : WIN_BLOCK;
        block_positions(&e, fma_pos, lo, hi, k0 + (uint32_t)b0, bn, ub, ib);
        const uint32_t s_lo = ib[0], s_hi = ib[bn - 1], base0 = s_lo & ~7u;
        const uint32_t nseg = s_hi - base0 + 1; /* <= WIN_SEGS by window_fits */
        if (nseg + 8 > WIN_SEGS) { /* cannot happen; stay correct anyway */
            for (uint32_t c = 0; c < curves; c++)
                cr_even_one(p + (size_t)c * p_stride, n, mode, m, k0 + (uint32_t)b0, bn,
                            out + (size_t)c * out_stride + b0);
            continue;
        }
        const uint32_t nfill = (nseg + 16 + WK_W - 1) / WK_W * WK_W; /* segments computed, window padding included */
        for (uint32_t c = 0; c < curves; c++) {
            const float *pc = p + (size_t)c * p_stride;
            float *oc = out + (size_t)c * out_stride + b0;
            /* points base0 - 1 .. base0 + nfill + 2, phantom ends, zeros past them */
            {
                /* ext[j] = point x = base0 - 1 + j for x in [x0, x1) */
                uint32_t j0 = base0 == 0 ? 1 : 0, x0 = base0 + j0 - 1;
                uint32_t x1 = base0 - 1 + nfill + 4 < n ? base0 - 1 + nfill + 4 : n, len = x1 - x0;
                for (uint32_t j = 0; j < nfill + 4 + WK_W; j += WK_W) wk_vf_storeu(ext + j, wk_vf_set1(0.0f));
                for (uint32_t j = 0; j < len; j += WK_W)
                    wk_vf_storeu(ext + j0 + j, wk_vf_load_n(pc + x0 + j, len - j < WK_W ? len - j : WK_W));
                if (mode == WK_SPLINE_END_PHANTOM) {
                    if (base0 == 0) ext[0] = 2.0f * pc[0] - pc[1];
                    if (n - (base0 - 1) < nfill + 4) ext[n - (base0 - 1)] = 2.0f * pc[n - 1] - pc[n - 2];
                }
            }
            uint32_t halvable_all = 1;
            for (uint32_t j = 0; j < nfill; j += WK_W) {
                cr_coef cf = coeffs_of(wk_vf_loadu(ext + j), wk_vf_loadu(ext + j + 1), wk_vf_loadu(ext + j + 2),
                                       wk_vf_loadu(ext + j + 3));
                wk_vf_storeu(ca + j, cf.a);
                wk_vf_storeu(cb + j, cf.b);
                wk_vf_storeu(cc + j, cf.c);
                wk_vf_storeu(cd + j, cf.d);
                uint32_t ok = halvable_bits(cf.a) & halvable_bits(cf.b) & halvable_bits(cf.c) & halvable_bits(cf.d);
                wk_vi seg = wk_vi_add(lanes, wk_vi_set1(base0 + j));
                uint32_t used =
                    wk_vm_bits(wk_vm_and(wk_vi_lt_s(wk_vi_set1(s_lo - 1), seg), wk_vi_lt_s(seg, wk_vi_set1(s_hi + 1))));
                halvable_all &= (ok & used) == used;
            }
            if (halvable_all)
                for (uint32_t j = 0; j < nfill; j += WK_W) {
                    const wk_vf h = wk_vf_set1(0.5f);
                    wk_vf_storeu(ca + j, wk_vf_mul(wk_vf_loadu(ca + j), h));
                    wk_vf_storeu(cb + j, wk_vf_mul(wk_vf_loadu(cb + j), h));
                    wk_vf_storeu(cc + j, wk_vf_mul(wk_vf_loadu(cc + j), h));
                    wk_vf_storeu(cd + j, wk_vf_mul(wk_vf_loadu(cd + j), h));
                }
            uint32_t wbase = UINT32_MAX;
            wk_lut16 la = wk_lut16_load((const uint32_t *)(const void *)ca), lb = la, lc = la, ld = la;
            for (size_t q = 0; q < bn; q += WK_W) {
                size_t w = bn - q < WK_W ? bn - q : WK_W;
                uint32_t first = ib[q] - base0, last = ib[q + w - 1] - base0;
                wk_vi idx = wk_vi_add(wk_vi_loadu(ib + q), wk_vi_set1(0u - base0));
                cr_coef cq;
                if (last - (first & ~7u) < 16) {
                    if ((first & ~7u) != wbase) {
                        wbase = first & ~7u;
                        la = wk_lut16_load((const uint32_t *)(const void *)(ca + wbase));
                        lb = wk_lut16_load((const uint32_t *)(const void *)(cb + wbase));
                        lc = wk_lut16_load((const uint32_t *)(const void *)(cc + wbase));
                        ld = wk_lut16_load((const uint32_t *)(const void *)(cd + wbase));
                    }
                    wk_vi rel = wk_vi_add(idx, wk_vi_set1(0u - wbase));
                    cq.a = wk_vi_as_vf(wk_lut16_get(la, rel));
                    cq.b = wk_vi_as_vf(wk_lut16_get(lb, rel));
                    cq.c = wk_vi_as_vf(wk_lut16_get(lc, rel));
                    cq.d = wk_vi_as_vf(wk_lut16_get(ld, rel));
                } else { /* wider than a window (not expected): gather */
                    cq.a = wk_vf_gather(ca, idx);
                    cq.b = wk_vf_gather(cb, idx);
                    cq.c = wk_vf_gather(cc, idx);
                    cq.d = wk_vf_gather(cd, idx);
                }
                wk_vf uq = wk_vf_loadu(ub + q);
                wk_vf_store_n(oc + q, halvable_all ? horner_half(cq, uq) : horner(cq, uq), w);
            }
        }
    }
}

static void cr_even(const float *p, size_t p_stride, uint32_t curves, uint32_t n, uint32_t mode, uint32_t m,
                    uint32_t k0, size_t count, float *out, size_t out_stride) {
    const int dense = (double)(m - 1) >= 4.0 * WK_W * (double)(n - 1);
    if (n <= 17 && (curves > 1 || !dense)) {
        if (m <= WK__CR_FMA_MAX_M) cr_even_small_impl(p, p_stride, curves, n, mode, m, k0, count, out, out_stride, 1);
        else cr_even_small_impl(p, p_stride, curves, n, mode, m, k0, count, out, out_stride, 0);
        return;
    }
    /* several curves share the windows' positions; one curve takes runs */
    if (curves > 1 && window_fits(n, m)) {
        if (m <= WK__CR_FMA_MAX_M) cr_even_window_impl(p, p_stride, curves, n, mode, m, k0, count, out, out_stride, 1);
        else cr_even_window_impl(p, p_stride, curves, n, mode, m, k0, count, out, out_stride, 0);
        return;
    }
    for (uint32_t c = 0; c < curves; c++)
        cr_even_one(p + (size_t)c * p_stride, n, mode, m, k0, count, out + (size_t)c * out_stride);
}

/* Curves of up to 17 points: the segments' coefficients (computed once, as
 * the reference computes them) looked up per lane from registers. */
static void cr_at_small(const float *p, uint32_t n, uint32_t mode, const float *s, size_t count, float *out) {
    uint32_t lo, hi;
    wk__cr_range(n, mode, &lo, &hi);
    uint32_t tab[4][16];
    memset(tab, 0, sizeof tab);
    for (uint32_t i = lo; i <= hi; i++) {
        float q[4], c[4];
        wk__cr_points(p, n, mode, i, q);
        wk__cr_coeffs(q, c);
        for (int z = 0; z < 4; z++) memcpy(&tab[z][i], &c[z], 4);
    }
    const wk_lut16 la = wk_lut16_load(tab[0]), lb = wk_lut16_load(tab[1]), lc = wk_lut16_load(tab[2]),
                    ld = wk_lut16_load(tab[3]);
    const float flo = (float)lo, fhi = (float)hi;
    const wk_vf vseg = wk_vf_set1((float)(n - 1));
    for (size_t q = 0; q < count; q += WK_W) {
        size_t w = count - q < WK_W ? count - q : WK_W;
        wk_vf t = wk_vf_mul(wk_vf_load_n(s + q, w), vseg);
        wk_vi idx;
        wk_vf f = segment_of(t, flo, fhi, lo, hi, &idx);
        cr_coef c = {wk_vi_as_vf(wk_lut16_get(la, idx)), wk_vi_as_vf(wk_lut16_get(lb, idx)),
                     wk_vi_as_vf(wk_lut16_get(lc, idx)), wk_vi_as_vf(wk_lut16_get(ld, idx))};
        wk_vf_store_n(out + q, horner(c, wk_vf_sub(t, f)), w);
    }
}

static void cr_at(const float *p, uint32_t n, uint32_t mode, const float *s, size_t count, float *out) {
    if (n <= 17) {
        cr_at_small(p, n, mode, s, count, out);
        return;
    }
    uint32_t lo, hi;
    wk__cr_range(n, mode, &lo, &hi);
    const float flo = (float)lo, fhi = (float)hi;
    const float ph_lo = 2.0f * p[0] - p[1], ph_hi = 2.0f * p[n - 1] - p[n - 2];
    const wk_vf vseg = wk_vf_set1((float)(n - 1));
    for (size_t q = 0; q < count; q += WK_W) {
        size_t w = count - q < WK_W ? count - q : WK_W;
        wk_vf t = wk_vf_mul(wk_vf_load_n(s + q, w), vseg);
        wk_vi idx;
        wk_vf f = segment_of(t, flo, fhi, lo, hi, &idx);
        wk_vf_store_n(out + q, horner(coeffs_gather(p, n, mode, idx, ph_lo, ph_hi), wk_vf_sub(t, f)), w);
    }
}

enum { MAX_COLS = 64 };

static void cr_even_cols(const float *p, size_t p_stride, uint32_t n, uint32_t mode, uint32_t lanes, uint32_t m,
                         float *out, size_t out_stride) {
    uint32_t lo, hi;
    wk__cr_range(n, mode, &lo, &hi);
    const float flo = (float)lo, fhi = (float)hi, seg = (float)(n - 1);
    float coef[4][MAX_COLS];
    uint32_t cur = UINT32_MAX;
    for (uint32_t k = 0; k < m; k++) {
        uint32_t i;
        float t = wk__cr_even_s(k, m) * seg;
        float f = wk__cr_segment(t, flo, fhi, lo, &i);
        if (i != cur) {
            /* the segment's coefficients for every column, once */
            cur = i;
            for (uint32_t c = 0; c < lanes; c += WK_W) {
                size_t w = lanes - c < WK_W ? lanes - c : WK_W;
#define ROW(j) wk_vf_load_n(p + (size_t)(j) * p_stride + c, w)
                wk_vf p1 = ROW(i), p2 = ROW(i + 1), p0, p3;
                const wk_vf two = wk_vf_set1(2.0f);
                if (mode == WK_SPLINE_END_PHANTOM) {
                    p0 = i == 0 ? wk_vf_sub(wk_vf_mul(two, ROW(0)), ROW(1)) : ROW(i - 1);
                    p3 = i + 2 >= n ? wk_vf_sub(wk_vf_mul(two, ROW(n - 1)), ROW(n - 2)) : ROW(i + 2);
                } else {
                    p0 = ROW(i - 1);
                    p3 = ROW(i + 2);
                }
#undef ROW
                cr_coef cf = coeffs_of(p0, p1, p2, p3);
                wk_vf_storeu(coef[0] + c, cf.a);
                wk_vf_storeu(coef[1] + c, cf.b);
                wk_vf_storeu(coef[2] + c, cf.c);
                wk_vf_storeu(coef[3] + c, cf.d);
            }
        }
        const wk_vf u = wk_vf_set1(t - f);
        float *row = out + (size_t)k * out_stride;
        for (uint32_t c = 0; c < lanes; c += WK_W) {
            size_t w = lanes - c < WK_W ? lanes - c : WK_W;
            cr_coef cf = {wk_vf_loadu(coef[0] + c), wk_vf_loadu(coef[1] + c), wk_vf_loadu(coef[2] + c),
                          wk_vf_loadu(coef[3] + c)};
            wk_vf_store_n(row + c, horner(cf, u), w);
        }
    }
}

/* -------------------------------------------------------- height curves */

/* Up to 64 segments: each segment's terms computed once (the reference's
 * operations, so the same bits), looked up per lane from registers (T
 * tables of 16 segments per term, the lane's table chosen by select); the
 * segment is the count of interior key times <= x (what the reference's
 * binary search finds). No gathers: they are slow where a 16-lane gather
 * costs ~20 cycles. */
WK_INLINE wk_vi lut_get_t(const wk_lut16 *t, int T, wk_vi j, wk_vm m16, wk_vm m32, wk_vm m48) {
    wk_vi r = wk_lut16_get(t[0], j);
    if (T > 1) r = wk_vi_select(m16, wk_lut16_get(t[1], j), r);
    if (T > 2) r = wk_vi_select(m32, wk_lut16_get(t[2], j), r);
    if (T > 3) r = wk_vi_select(m48, wk_lut16_get(t[3], j), r);
    return r;
}

WK_INLINE void curve_tables_impl(const wk_curve_key *keys, uint32_t nkeys, const float *x, size_t count, float *out,
                                 const int T) {
    uint32_t tab[7][64];
    memset(tab, 0, sizeof tab);
    for (uint32_t j = 0; j + 1 < nkeys; j++) {
        const wk_curve_key *k0 = &keys[j], *k1 = &keys[j + 1];
        float dt = k1->time - k0->time, v0 = k0->value, v1 = k1->value;
        float m0 = k0->out_tangent * dt, m1 = k1->in_tangent * dt;
        float c2 = ((3.0f * (v1 - v0)) - 2.0f * m0) - m1;
        float c3 = ((2.0f * (v0 - v1)) + m0) + m1;
        float terms[6] = {k0->time, dt, v0, m0, c2, c3};
        for (int q = 0; q < 6; q++) memcpy(&tab[q][j], &terms[q], 4);
        tab[6][j] = (!isfinite(k0->out_tangent) || !isfinite(k1->in_tangent)) ? 0xFFFFFFFFu : 0u;
    }
    wk_lut16 lt0[4], ldt[4], lv0[4], lm0[4], lc2[4], lc3[4], lstep[4];
    for (int g = 0; g < T; g++) {
        lt0[g] = wk_lut16_load(tab[0] + 16 * g);
        ldt[g] = wk_lut16_load(tab[1] + 16 * g);
        lv0[g] = wk_lut16_load(tab[2] + 16 * g);
        lm0[g] = wk_lut16_load(tab[3] + 16 * g);
        lc2[g] = wk_lut16_load(tab[4] + 16 * g);
        lc3[g] = wk_lut16_load(tab[5] + 16 * g);
        lstep[g] = wk_lut16_load(tab[6] + 16 * g);
    }
    const wk_vf nan = wk_vi_as_vf(wk_vi_set1(WK__SPLINE_NAN_BITS));
    const wk_vf t_first = wk_vf_set1(keys[0].time), t_last = wk_vf_set1(keys[nkeys - 1].time);
    const wk_vf v_first = wk_vf_set1(keys[0].value), v_last = wk_vf_set1(keys[nkeys - 1].value);
    const wk_vi zero = wk_vi_set1(0);
    for (size_t q = 0; q < count; q += WK_W) {
        size_t w = count - q < WK_W ? count - q : WK_W;
        wk_vf xv = wk_vf_load_n(x + q, w);
        wk_vi j = zero;
        for (uint32_t i = 1; i + 1 < nkeys; i++) /* NaN lanes count anything: replaced below */
            j = wk_vi_inc_mask(j, wk_vf_ge(xv, wk_vf_set1(keys[i].time)));
        wk_vm m16 = wk_vi_lt_s(wk_vi_set1(15), j), m32 = wk_vi_lt_s(wk_vi_set1(31), j);
        wk_vm m48 = wk_vi_lt_s(wk_vi_set1(47), j);
        wk_vf t0 = wk_vi_as_vf(lut_get_t(lt0, T, j, m16, m32, m48));
        wk_vf dt = wk_vi_as_vf(lut_get_t(ldt, T, j, m16, m32, m48));
        wk_vf v0 = wk_vi_as_vf(lut_get_t(lv0, T, j, m16, m32, m48));
        wk_vf m0 = wk_vi_as_vf(lut_get_t(lm0, T, j, m16, m32, m48));
        wk_vf c2 = wk_vi_as_vf(lut_get_t(lc2, T, j, m16, m32, m48));
        wk_vf c3 = wk_vi_as_vf(lut_get_t(lc3, T, j, m16, m32, m48));
        wk_vf u = wk_vf_div(wk_vf_sub(xv, t0), dt);
        wk_vf h = wk_vf_add(wk_vf_mul(c3, u), c2);
        h = wk_vf_add(wk_vf_mul(h, u), m0);
        h = canon(wk_vf_add(wk_vf_mul(h, u), v0));
        h = wk_vf_select(wk_vi_lt_s(lut_get_t(lstep, T, j, m16, m32, m48), zero), v0, h);
        h = wk_vf_select(wk_vf_lt(xv, t_last), h, v_last);
        h = wk_vf_select(wk_vf_lt(t_first, xv), h, v_first);
        wk_vf_store_n(out + q, wk_vf_select(wk_vf_isnan(xv), nan, h), w);
    }
}

static void curve_small(const wk_curve_key *keys, uint32_t nkeys, const float *x, size_t count, float *out) {
    uint32_t T = (nkeys - 1 + 15) / 16;
    if (T <= 1) curve_tables_impl(keys, nkeys, x, count, out, 1);
    else if (T == 2) curve_tables_impl(keys, nkeys, x, count, out, 2);
    else if (T == 3) curve_tables_impl(keys, nkeys, x, count, out, 3);
    else curve_tables_impl(keys, nkeys, x, count, out, 4);
}

static void curve(const wk_curve_key *keys, uint32_t nkeys, const float *x, size_t count, float *out) {
    if (nkeys >= 2 && nkeys <= 65) {
        curve_small(keys, nkeys, x, count, out);
        return;
    }
    const float *kf = (const float *)(const void *)keys;
    const wk_vf nan = wk_vi_as_vf(wk_vi_set1(WK__SPLINE_NAN_BITS));
    const wk_vf t_first = wk_vf_set1(keys[0].time), t_last = wk_vf_set1(keys[nkeys - 1].time);
    const wk_vf v_first = wk_vf_set1(keys[0].value), v_last = wk_vf_set1(keys[nkeys - 1].value);
    const uint32_t last_seg = nkeys >= 2 ? nkeys - 2 : 0;
    uint32_t top = 1;
    while (top * 2 <= last_seg) top *= 2;
    const wk_vf two = wk_vf_set1(2.0f), three = wk_vf_set1(3.0f);
    for (size_t q = 0; q < count; q += WK_W) {
        size_t w = count - q < WK_W ? count - q : WK_W;
        wk_vf xv = wk_vf_load_n(x + q, w);
        wk_vf val = v_first;
        if (nkeys >= 2) {
            /* largest j <= nkeys - 2 with t[j] <= x (t[0] < x here) */
            wk_vi j = wk_vi_set1(0);
            for (uint32_t step = last_seg ? top : 0; step > 0; step >>= 1) {
                wk_vi cand = wk_vi_min_s(wk_vi_add(j, wk_vi_set1(step)), wk_vi_set1(last_seg));
                wk_vf tc = wk_vf_gather(kf, wk_vi_slli(cand, 2));
                j = wk_vi_select(wk_vf_lt(xv, tc), j, cand);
            }
            wk_vi b = wk_vi_slli(j, 2);
            wk_vf t0 = wk_vf_gather(kf, b), v0 = wk_vf_gather(kf + 1, b), out0 = wk_vf_gather(kf + 3, b);
            wk_vf t1 = wk_vf_gather(kf + 4, b), v1 = wk_vf_gather(kf + 5, b), in1 = wk_vf_gather(kf + 6, b);
            wk_vf dt = wk_vf_sub(t1, t0);
            wk_vf u = wk_vf_div(wk_vf_sub(xv, t0), dt);
            wk_vf m0 = wk_vf_mul(out0, dt), m1 = wk_vf_mul(in1, dt);
            wk_vf c2 = wk_vf_sub(wk_vf_sub(wk_vf_mul(three, wk_vf_sub(v1, v0)), wk_vf_mul(two, m0)), m1);
            wk_vf c3 = wk_vf_add(wk_vf_add(wk_vf_mul(two, wk_vf_sub(v0, v1)), m0), m1);
            wk_vf h = wk_vf_add(wk_vf_mul(c3, u), c2);
            h = wk_vf_add(wk_vf_mul(h, u), m0);
            h = wk_vf_add(wk_vf_mul(h, u), v0);
            h = canon(h);
            /* infinite tangent: a step holding v0 */
            const wk_vi abs_mask = wk_vi_set1(0x7FFFFFFFu);
            wk_vi big = wk_vi_max_s(wk_vi_and(wk_vf_as_vi(out0), abs_mask), wk_vi_and(wk_vf_as_vi(in1), abs_mask));
            h = wk_vf_select(wk_vi_lt_s(wk_vi_set1(0x7F7FFFFFu), big), v0, h);
            h = wk_vf_select(wk_vf_lt(xv, t_last), h, v_last);
            val = wk_vf_select(wk_vf_lt(t_first, xv), h, v_first);
        }
        wk_vf_store_n(out + q, wk_vf_select(wk_vf_isnan(xv), nan, val), w);
    }
}

static void redistribute(const float *v, size_t n, float exponent, float *out) {
    const wk_vf e = wk_vf_set1(exponent);
    for (size_t q = 0; q < n; q += WK_W) {
        size_t w = n - q < WK_W ? n - q : WK_W;
        wk_vf_store_n(out + q, canon(wk_vf_pow(clamp01(wk_vf_load_n(v + q, w)), e)), w);
    }
}

static void terrace(const float *v, size_t n, float levels, float one_minus_w, float inv_w, float *out) {
    const wk_vf k = wk_vf_set1(levels), omw = wk_vf_set1(one_minus_w), iw = wk_vf_set1(inv_w);
    const wk_vf two = wk_vf_set1(2.0f), three = wk_vf_set1(3.0f);
    const int blend = inv_w > 0.0f;
    for (size_t q = 0; q < n; q += WK_W) {
        size_t w = n - q < WK_W ? n - q : WK_W;
        wk_vf qv = wk_vf_mul(clamp01(wk_vf_load_n(v + q, w)), k);
        wk_vf f = wk_vf_floor(qv);
        wk_vf b = wk_vf_set1(0.0f);
        if (blend) {
            b = clamp01(wk_vf_mul(wk_vf_sub(wk_vf_sub(qv, f), omw), iw));
            b = wk_vf_mul(wk_vf_mul(b, b), wk_vf_sub(three, wk_vf_mul(two, b)));
        }
        wk_vf_store_n(out + q, canon(wk_vf_div(wk_vf_add(f, b), k)), w);
    }
}

/* ---------------------------------------------------------------- water */

/* Stores `now` where the lane is awake, else what was there (`was`). */
#define KEEP(masked, awake, now, was) ((masked) ? wk_vf_select((awake), (now), (was)) : (now))

/* One spring of one spreading pass: from the heights at the pass's start
 * (hp, hc, hn: springs i-1, i, i+1) and vel[i], the new pos[i] and vel[i]
 * (right[i-1] first, then left[i+1], as the game loop adds them). */
WK_INLINE void spring_update(wk_vf sp, wk_vf hp, wk_vf hc, wk_vf hn, wk_vf v, int has_left, int has_right,
                             int masked, wk_vm awake, wk_vf *np, wk_vf *nv) {
    wk_vf p = hc, q = v;
    if (has_left) {
        wk_vf rr = wk_vf_mul(sp, wk_vf_sub(hp, hc));
        q = wk_vf_add(q, rr);
        p = wk_vf_add(p, rr);
    }
    if (has_right) {
        wk_vf ll = wk_vf_mul(sp, wk_vf_sub(hn, hc));
        q = wk_vf_add(q, ll);
        p = wk_vf_add(p, ll);
    }
    *np = KEEP(masked, awake, p, hc);
    *nv = KEEP(masked, awake, q, v);
}

/* Two spreading passes in one sweep (N >= 3): at spring j, pass A updates
 * spring j and pass B spring j-1, whose inputs (pass A's results at j-2,
 * j-1, j) are all known by then. The same operations on the same values as
 * two sweeps, half the loads and stores. */
WK_INLINE void pass_pair(float *pos, float *vel, size_t ps, size_t w, uint32_t N, wk_vf sp, int masked,
                         wk_vm awake) {
    wk_vf a_cur = wk_vf_load_n(pos, w), a_next = wk_vf_load_n(pos + ps, w), a_prev, pa, va;
    spring_update(sp, a_cur, a_cur, a_next, wk_vf_load_n(vel, w), 0, 1, masked, awake, &pa, &va);
    wk_vf b_prev = pa, b_cur = pa, b_v = va, pb, vb;
    a_prev = a_cur;
    a_cur = a_next;
    /* j = 1: B at spring 0 has no left neighbour */
    a_next = wk_vf_load_n(pos + 2 * ps, w);
    spring_update(sp, a_prev, a_cur, a_next, wk_vf_load_n(vel + ps, w), 1, 1, masked, awake, &pa, &va);
    spring_update(sp, b_prev, b_cur, pa, b_v, 0, 1, masked, awake, &pb, &vb);
    wk_vf_store_n(pos, pb, w);
    wk_vf_store_n(vel, vb, w);
    b_prev = b_cur;
    b_cur = pa;
    b_v = va;
    a_prev = a_cur;
    a_cur = a_next;
    for (uint32_t j = 2; j + 1 < N; j++) {
        size_t o = (size_t)j * ps;
        a_next = wk_vf_load_n(pos + o + ps, w);
        spring_update(sp, a_prev, a_cur, a_next, wk_vf_load_n(vel + o, w), 1, 1, masked, awake, &pa, &va);
        spring_update(sp, b_prev, b_cur, pa, b_v, 1, 1, masked, awake, &pb, &vb);
        wk_vf_store_n(pos + o - ps, pb, w);
        wk_vf_store_n(vel + o - ps, vb, w);
        b_prev = b_cur;
        b_cur = pa;
        b_v = va;
        a_prev = a_cur;
        a_cur = a_next;
    }
    /* j = N-1: A has no right neighbour; then B at N-1 */
    size_t o = (size_t)(N - 1) * ps;
    spring_update(sp, a_prev, a_cur, a_cur, wk_vf_load_n(vel + o, w), 1, 0, masked, awake, &pa, &va);
    spring_update(sp, b_prev, b_cur, pa, b_v, 1, 1, masked, awake, &pb, &vb);
    wk_vf_store_n(pos + o - ps, pb, w);
    wk_vf_store_n(vel + o - ps, vb, w);
    spring_update(sp, b_cur, pa, pa, va, 1, 0, masked, awake, &pb, &vb);
    wk_vf_store_n(pos + o, pb, w);
    wk_vf_store_n(vel + o, vb, w);
}

/* One step of the W (or w < W) bodies at pos/vel (springs `ps` floats
 * apart) with rest (springs `rs` apart), the reference's sequential loop per
 * lane. masked: lanes not in `awake` keep their state. */
WK_INLINE void step_vector(float *pos, float *vel, size_t ps, const float *rest, size_t rs, size_t w, size_t wr,
                           uint32_t N, const wk__water_args *a, int masked, wk_vm awake) {
    const wk_vf k = wk_vf_set1(a->k), d = wk_vf_set1(a->damping), sp = wk_vf_set1(a->spread);
    for (uint32_t i = 0; i < N; i++) {
        size_t o = (size_t)i * ps;
        wk_vf p = wk_vf_load_n(pos + o, w), v = wk_vf_load_n(vel + o, w), r = wk_vf_load_n(rest + (size_t)i * rs, wr);
        wk_vf v1 = wk_vf_add(v, wk_vf_mul(wk_vf_sub(r, p), k));
        wk_vf p1 = wk_vf_add(p, v1);
        v1 = wk_vf_mul(v1, d);
        wk_vf_store_n(pos + o, KEEP(masked, awake, p1, p), w);
        wk_vf_store_n(vel + o, KEEP(masked, awake, v1, v), w);
    }
    if (N < 2) return;
    uint32_t pass = 0;
    if (N >= 3)
        for (; pass + 2 <= a->passes; pass += 2) pass_pair(pos, vel, ps, w, N, sp, masked, awake);
    for (; pass < a->passes; pass++) {
        /* spring 0: only left[1] */
        wk_vf h_cur = wk_vf_load_n(pos, w), h_next = wk_vf_load_n(pos + ps, w);
        wk_vf v = wk_vf_load_n(vel, w);
        wk_vf ll = wk_vf_mul(sp, wk_vf_sub(h_next, h_cur));
        wk_vf_store_n(vel, KEEP(masked, awake, wk_vf_add(v, ll), v), w);
        wk_vf_store_n(pos, KEEP(masked, awake, wk_vf_add(h_cur, ll), h_cur), w);
        wk_vf h_prev = h_cur;
        h_cur = h_next;
        for (uint32_t i = 1; i + 1 < N; i++) {
            size_t o = (size_t)i * ps;
            h_next = wk_vf_load_n(pos + o + ps, w);
            v = wk_vf_load_n(vel + o, w);
            wk_vf rr = wk_vf_mul(sp, wk_vf_sub(h_prev, h_cur)); /* right[i-1] */
            ll = wk_vf_mul(sp, wk_vf_sub(h_next, h_cur));        /* left[i+1] */
            wk_vf_store_n(vel + o, KEEP(masked, awake, wk_vf_add(wk_vf_add(v, rr), ll), v), w);
            wk_vf_store_n(pos + o, KEEP(masked, awake, wk_vf_add(wk_vf_add(h_cur, rr), ll), h_cur), w);
            h_prev = h_cur;
            h_cur = h_next;
        }
        /* spring N-1: only right[N-2] */
        size_t o = (size_t)(N - 1) * ps;
        v = wk_vf_load_n(vel + o, w);
        wk_vf rr = wk_vf_mul(sp, wk_vf_sub(h_prev, h_cur));
        wk_vf_store_n(vel + o, KEEP(masked, awake, wk_vf_add(v, rr), v), w);
        wk_vf_store_n(pos + o, KEEP(masked, awake, wk_vf_add(h_cur, rr), h_cur), w);
    }
}

/* Bodies' springs sit `stride` floats apart; with a stride that is a large
 * power of two every spring of a block maps to the same cache set and the
 * passes would miss on every access. A block of W bodies of up to TILE_SPRINGS
 * springs is therefore copied into a contiguous tile (springs W floats apart),
 * stepped there and copied back: the same operations on the same values. */
enum { TILE_FLOATS = 4096 }; /* pos + vel: 16 KiB of stack */
#define TILE_SPRINGS (TILE_FLOATS / (2 * WK_W))

static void water_step(float *pos, float *vel, const float *rest, size_t stride, uint32_t lanes, uint32_t springs,
                       const wk__water_args *a, uint8_t *asleep) {
    const wk_vi lane = wk_vi_loadu(lane_index);
    const wk_vi abs_mask = wk_vi_set1(0x7FFFFFFFu);
    float tile[TILE_FLOATS];
    const int tiled = springs <= TILE_SPRINGS && stride > WK_W;
    for (uint32_t b = 0; b < lanes; b += WK_W) {
        size_t w = lanes - b < WK_W ? lanes - b : WK_W;
        uint32_t flags[16] = {0};
        uint32_t n_awake = (uint32_t)w;
        if (asleep) {
            n_awake = 0;
            for (size_t l = 0; l < w; l++) {
                flags[l] = asleep[b + l] ? 1u : 0u;
                n_awake += asleep[b + l] == 0;
            }
            if (n_awake == 0) continue;
        }
        float *p = pos + b, *v = vel + b;
        size_t ps = stride;
        if (tiled) {
            p = tile;
            v = tile + (size_t)springs * WK_W;
            ps = WK_W;
            for (uint32_t i = 0; i < springs; i++) {
                wk_vf_storeu(p + (size_t)i * WK_W, wk_vf_load_n(pos + (size_t)i * stride + b, w));
                wk_vf_storeu(v + (size_t)i * WK_W, wk_vf_load_n(vel + (size_t)i * stride + b, w));
            }
        }
        /* full vectors with a constant lane count (the tile always has W lanes) */
        const wk_vm none = wk_vi_lt_s(lane, wk_vi_set1(0)), awake_lanes = wk_vi_lt_s(wk_vi_loadu(flags), wk_vi_set1(1));
        if (tiled || w == WK_W) {
            if (n_awake == w) step_vector(p, v, ps, rest + b, stride, WK_W, w, springs, a, 0, none);
            else step_vector(p, v, ps, rest + b, stride, WK_W, w, springs, a, 1, awake_lanes);
        } else {
            if (n_awake == w) step_vector(p, v, ps, rest + b, stride, w, w, springs, a, 0, none);
            else step_vector(p, v, ps, rest + b, stride, w, w, springs, a, 1, awake_lanes);
        }
        if (asleep && a->threshold > 0.0f) {
            wk_vi big = wk_vi_set1(0);
            for (uint32_t i = 0; i < springs; i++) {
                wk_vf pp = wk_vf_load_n(p + (size_t)i * ps, w), vv = wk_vf_load_n(v + (size_t)i * ps, w);
                wk_vf r = wk_vf_load_n(rest + (size_t)i * stride + b, w);
                big = wk_vi_max_s(big, wk_vi_and(wk_vf_as_vi(vv), abs_mask));
                big = wk_vi_max_s(big, wk_vi_and(wk_vf_as_vi(wk_vf_sub(pp, r)), abs_mask));
            }
            uint32_t thr_bits;
            memcpy(&thr_bits, &a->threshold, sizeof thr_bits);
            uint32_t settled[16];
            wk_vi_storeu(settled, wk_vi_select(wk_vi_lt_s(big, wk_vi_set1(thr_bits)), wk_vi_set1(1), wk_vi_set1(0)));
            for (size_t l = 0; l < w; l++)
                if (!flags[l] && settled[l]) asleep[b + l] = 1;
        }
        /* NaNs leave the step as the canonical NaN (operand order decides
         * which payload survives an operation; whether a value is NaN does
         * not depend on it). Sleeping lanes keep their bits. */
        const int masked = n_awake != w;
        const wk_vm awake = wk_vi_lt_s(wk_vi_loadu(flags), wk_vi_set1(1));
        for (uint32_t i = 0; i < springs; i++) {
            float *tp = tiled ? p + (size_t)i * WK_W : pos + (size_t)i * stride + b;
            float *tv = tiled ? v + (size_t)i * WK_W : vel + (size_t)i * stride + b;
            wk_vf pp = wk_vf_load_n(tp, w), vv = wk_vf_load_n(tv, w);
            wk_vf_store_n(pos + (size_t)i * stride + b, KEEP(masked, awake, canon(pp), pp), w);
            wk_vf_store_n(vel + (size_t)i * stride + b, KEEP(masked, awake, canon(vv), vv), w);
        }
    }
}

const wk__spline_kernels WK_SIMD_NAME(wk__spline_kernels) = {cr_even, cr_at,     cr_even_cols, curve,
                                                             redistribute, terrace, water_step};
