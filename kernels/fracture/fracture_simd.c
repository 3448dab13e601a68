/* The fracture box tests' SIMD paths, one source compiled once per ISA.
 * The same IEEE compares as the reference, so the same boxes touch. */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "fracture_impl.h"
#include "wk_simd.h"

/* Lanes [0, m) of the vector at box k that touch q and have ids > min_id. */
WK_INLINE uint32_t row_mask(const float *const b[6], const uint32_t *ids, const wk_vf q[6], wk_vi min_id,
                            size_t k, size_t m) {
    /* Full loads: the arrays are padded past their end (WK__FRACTURE_PAD),
     * lanes past m are masked off below. */
    wk_vm t = wk_vf_le(wk_vf_loadu(b[WK__LO_X] + k), q[WK__HI_X]);
    t = wk_vm_and(t, wk_vf_le(q[WK__LO_X], wk_vf_loadu(b[WK__HI_X] + k)));
    t = wk_vm_and(t, wk_vf_le(wk_vf_loadu(b[WK__LO_Y] + k), q[WK__HI_Y]));
    t = wk_vm_and(t, wk_vf_le(q[WK__LO_Y], wk_vf_loadu(b[WK__HI_Y] + k)));
    t = wk_vm_and(t, wk_vf_le(wk_vf_loadu(b[WK__LO_Z] + k), q[WK__HI_Z]));
    t = wk_vm_and(t, wk_vf_le(q[WK__LO_Z], wk_vf_loadu(b[WK__HI_Z] + k)));
    t = wk_vm_and(t, wk_vi_lt_s(min_id, wk_vi_loadu(ids + k)));
    uint32_t bits = wk_vm_bits(t);
    return m == WK_W ? bits : bits & ((1u << m) - 1u);
}

static size_t rows(const float *const b[6], const uint32_t *ids, const uint32_t *range, size_t nr,
                   const float qs[6], uint32_t min_id, uint32_t *out, size_t cap) {
    wk_vf q[6];
    for (int a = 0; a < 6; a++) q[a] = wk_vf_set1(qs[a]);
    const wk_vi vmin = wk_vi_set1(min_id);
    size_t found = 0;
    for (size_t r = 0; r < nr; r++) {
        size_t end = range[2 * r + 1];
        for (size_t k = range[2 * r]; k < end; k += WK_W) {
            size_t m = end - k < WK_W ? end - k : WK_W;
            uint32_t bits = row_mask(b, ids, q, vmin, k, m);
            while (bits) {
                if (found < cap) out[found] = ids[k + (size_t)__builtin_ctz(bits)];
                found++;
                bits &= bits - 1;
            }
        }
    }
    return found;
}

/* rows with a branch-free body: each vector's selected ids are packed to
 * out + min(found, cap) (out has WK__FRACTURE_SLACK >= WK_W entries of
 * room past cap); lanes past a run's end are masked by their index. */
static size_t rows_slack(const float *const b[6], const uint32_t *ids, const uint32_t *range, size_t nr,
                         const float qs[6], uint32_t min_id, uint32_t *out, size_t cap) {
    static const uint32_t iota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    /* Locals: the stores to out may alias b's pointers as far as the
     * compiler knows. */
    const float *lx = b[WK__LO_X], *ly = b[WK__LO_Y], *lz = b[WK__LO_Z];
    const float *hx = b[WK__HI_X], *hy = b[WK__HI_Y], *hz = b[WK__HI_Z];
    const wk_vf qlx = wk_vf_set1(qs[WK__LO_X]), qly = wk_vf_set1(qs[WK__LO_Y]), qlz = wk_vf_set1(qs[WK__LO_Z]);
    const wk_vf qhx = wk_vf_set1(qs[WK__HI_X]), qhy = wk_vf_set1(qs[WK__HI_Y]), qhz = wk_vf_set1(qs[WK__HI_Z]);
    const wk_vi vmin = wk_vi_set1(min_id), lane = wk_vi_loadu(iota), step = wk_vi_set1((uint32_t)-WK_W);
    size_t found = 0;
    for (size_t r = 0; r < nr; r++) {
        size_t k = range[2 * r], end = range[2 * r + 1];
        /* Lanes k + l < end, as signed compares (positions < 2^31). */
        wk_vi left = wk_vi_set1((uint32_t)(end - k));
        do {
            wk_vm t = wk_vf_le(wk_vf_loadu(lx + k), qhx);
            t = wk_vm_and(t, wk_vf_le(qlx, wk_vf_loadu(hx + k)));
            t = wk_vm_and(t, wk_vf_le(wk_vf_loadu(ly + k), qhy));
            t = wk_vm_and(t, wk_vf_le(qly, wk_vf_loadu(hy + k)));
            t = wk_vm_and(t, wk_vf_le(wk_vf_loadu(lz + k), qhz));
            t = wk_vm_and(t, wk_vf_le(qlz, wk_vf_loadu(hz + k)));
            wk_vi id = wk_vi_loadu(ids + k);
            t = wk_vm_and(t, wk_vm_and(wk_vi_lt_s(vmin, id), wk_vi_lt_s(lane, left)));
            found += wk_vi_compress_storeu(out + (found < cap ? found : cap), t, id);
            left = wk_vi_add(left, step);
            k += WK_W;
        } while (k < end);
    }
    return found;
}

/* One vector of prep: lanes [0, m) of one axis. */
WK_INLINE void prep_block(const float *lo, const float *hi, wk_vf pad, float *ql, float *qh, wk_vf *mn, wk_vf *mx,
                          wk_vi *bad, size_t i, size_t m) {
    wk_vf a = wk_vf_load_n(lo + i, m), b = wk_vf_load_n(hi + i, m);
    wk_vf l = wk_vf_sub(a, pad), h = wk_vf_add(b, pad);
    wk_vf_store_n(ql + i, l, m);
    wk_vf_store_n(qh + i, h, m);
    /* Tail lanes read 0: l = -pad, h = pad, finite and ordered; they
     * must not reach the min and max. */
    static const uint32_t iota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    wk_vm live = wk_vi_lt_s(wk_vi_loadu(iota), wk_vi_set1((uint32_t)m));
    /* NaN for an infinite or NaN bound; a <= b false for NaN too. */
    wk_vm ok = wk_vm_and(wk_vf_le(a, b), wk_vm_and(wk_vf_le(wk_vf_sub(l, l), wk_vf_sub(h, h)),
                                                  wk_vf_le(wk_vf_sub(h, h), wk_vf_sub(l, l))));
    *bad = wk_vi_select(live, wk_vi_add(*bad, wk_vi_select(ok, wk_vi_set1(0), wk_vi_set1(1))), *bad);
    *mn = wk_vf_select(wk_vm_and(live, wk_vf_lt(l, *mn)), l, *mn);
    *mx = wk_vf_select(wk_vm_and(live, wk_vf_lt(*mx, h)), h, *mx);
}

static int prep(const float *const in[6], size_t n, float pads, float *const q[6], float lohi[6]) {
    const wk_vf pad = wk_vf_set1(pads);
    int valid = 1;
    for (int a = 0; a < 3; a++) {
        wk_vf mn = wk_vf_set1(INFINITY), mx = wk_vf_set1(-INFINITY);
        wk_vi bad = wk_vi_set1(0);
        WK_VECTOR_LOOP(n, prep_block, in[a], in[a + 3], pad, q[a], q[a + 3], &mn, &mx, &bad);
        float l[16], h[16];
        uint32_t b[16];
        wk_vf_storeu(l, mn);
        wk_vf_storeu(h, mx);
        wk_vi_storeu(b, bad);
        float lo = l[0], hi = h[0];
        for (int k = 0; k < WK_W; k++) {
            lo = l[k] < lo ? l[k] : lo;
            hi = h[k] > hi ? h[k] : hi;
            valid &= b[k] == 0;
        }
        lohi[a] = lo;
        lohi[a + 3] = hi;
    }
    return valid;
}

WK_INLINE void anchor_block(const float *const f[6], wk_vf pad, const wk_vf a[6], uint8_t *flags, size_t i,
                            size_t m) {
    wk_vm t = wk_vf_le(wk_vf_sub(wk_vf_load_n(f[WK__LO_X] + i, m), pad), a[WK__HI_X]);
    t = wk_vm_and(t, wk_vf_le(a[WK__LO_X], wk_vf_add(wk_vf_load_n(f[WK__HI_X] + i, m), pad)));
    t = wk_vm_and(t, wk_vf_le(wk_vf_sub(wk_vf_load_n(f[WK__LO_Y] + i, m), pad), a[WK__HI_Y]));
    t = wk_vm_and(t, wk_vf_le(a[WK__LO_Y], wk_vf_add(wk_vf_load_n(f[WK__HI_Y] + i, m), pad)));
    t = wk_vm_and(t, wk_vf_le(wk_vf_sub(wk_vf_load_n(f[WK__LO_Z] + i, m), pad), a[WK__HI_Z]));
    t = wk_vm_and(t, wk_vf_le(a[WK__LO_Z], wk_vf_add(wk_vf_load_n(f[WK__HI_Z] + i, m), pad)));
    uint32_t bits = wk_vm_bits(t);
    if (m < WK_W) bits &= (1u << m) - 1u;
    while (bits) {
        flags[i + (size_t)__builtin_ctz(bits)] = 1;
        bits &= bits - 1;
    }
}

static void anchor(const float *const f[6], size_t n, float pads, const float as[6], uint8_t *flags) {
    wk_vf a[6];
    for (int k = 0; k < 6; k++) a[k] = wk_vf_set1(as[k]);
    const wk_vf pad = wk_vf_set1(pads);
    WK_VECTOR_LOOP(n, anchor_block, f, pad, a, flags);
}

/* Rank sort: each id's place is the number of ids below it (the ids are
 * distinct); lanes past n read as 2^31 - 1, above every id. A list that is
 * already ascending (about 2/3 of a lattice's numbered along x, y, z: its
 * runs are visited in cell order) is copied. V vectors (a constant: the
 * loops unroll), n <= V * WK_W. */
WK_INLINE void sort_ranks(const uint32_t *src, size_t n, uint32_t *dst, const size_t V) {
    static const uint32_t iota[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    wk_vi all[32 / WK_W];
    const wk_vi top = wk_vi_set1(0x7FFFFFFFu), count = wk_vi_set1((uint32_t)n);
    const wk_vi pairs = wk_vi_set1((uint32_t)n - 1u); /* src[l] < src[l + 1] for l < n - 1 (none for n = 0) */
    uint32_t descents = 0;
    for (size_t b = 0; b < V; b++) {
        wk_vi l = wk_vi_loadu(iota + b * WK_W), v = wk_vi_loadu(src + b * WK_W);
        all[b] = wk_vi_select(wk_vi_lt_s(l, count), v, top);
        descents |= wk_vm_bits(wk_vm_and(wk_vi_lt_s(l, pairs), wk_vi_lt_s(wk_vi_loadu(src + b * WK_W + 1), v)));
    }
    if (!descents) {
        for (size_t b = 0; b < V; b++) wk_vi_storeu(dst + b * WK_W, all[b]);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        wk_vi x = wk_vi_set1(src[i]);
        uint32_t below = 0;
        for (size_t b = 0; b < V; b++) below += (uint32_t)__builtin_popcount(wk_vm_bits(wk_vi_lt_s(all[b], x)));
        dst[below] = src[i];
    }
}

static void sort32(const uint32_t *src, size_t n, uint32_t *dst) {
    if (n <= 16) sort_ranks(src, n, dst, 16 / WK_W);
    else sort_ranks(src, n, dst, 32 / WK_W);
}

const wk__fracture_kernels WK_SIMD_NAME(wk__fracture_kernels) = {rows, rows_slack, sort32, prep, anchor};
