/* aarch64 Advanced SIMD (NEON) flavour of wk_simd.h. */
#include <arm_neon.h>
#include <string.h>

#define WK_W 4
typedef float32x4_t wk_vf;
typedef uint32x4_t wk_vi;
typedef uint32x4_t wk_vm; /* all-ones lanes */

static inline wk_vf wk_vf_set1(float a) { return vdupq_n_f32(a); }
static inline wk_vi wk_vi_set1(uint32_t a) { return vdupq_n_u32(a); }
static inline wk_vf wk_vf_loadu(const float *p) { return vld1q_f32(p); }
static inline void wk_vf_storeu(float *p, wk_vf a) { vst1q_f32(p, a); }
static inline wk_vi wk_vi_loadu(const uint32_t *p) { return vld1q_u32(p); }
static inline void wk_vi_storeu(uint32_t *p, wk_vi a) { vst1q_u32(p, a); }
/* No masked loads: go through a zeroed lane buffer. */
static inline wk_vf wk_vf_load_part(const float *p, size_t n) {
    float lanes[4] = {0, 0, 0, 0};
    memcpy(lanes, p, n * sizeof *p);
    return vld1q_f32(lanes);
}
static inline void wk_vf_store_part(float *p, wk_vf a, size_t n) {
    float lanes[4];
    vst1q_f32(lanes, a);
    memcpy(p, lanes, n * sizeof *p);
}
static inline wk_vi wk_vi_load_part(const uint32_t *p, size_t n) {
    uint32_t lanes[4] = {0, 0, 0, 0};
    memcpy(lanes, p, n * sizeof *p);
    return vld1q_u32(lanes);
}

static inline wk_vf wk_vf_add(wk_vf a, wk_vf b) { return vaddq_f32(a, b); }
static inline wk_vf wk_vf_sub(wk_vf a, wk_vf b) { return vsubq_f32(a, b); }
static inline wk_vf wk_vf_mul(wk_vf a, wk_vf b) { return vmulq_f32(a, b); }
static inline wk_vf wk_vf_div(wk_vf a, wk_vf b) { return vdivq_f32(a, b); }
static inline wk_vf wk_vf_floor(wk_vf a) { return vrndmq_f32(a); }

static inline wk_vi wk_vi_add(wk_vi a, wk_vi b) { return vaddq_u32(a, b); }
static inline wk_vi wk_vi_and(wk_vi a, wk_vi b) { return vandq_u32(a, b); }
static inline wk_vi wk_vi_or(wk_vi a, wk_vi b) { return vorrq_u32(a, b); }
static inline wk_vi wk_vi_xor(wk_vi a, wk_vi b) { return veorq_u32(a, b); }
#define wk_vi_slli(a, n) vshlq_n_u32((a), (n))
#define wk_vi_srli(a, n) vshrq_n_u32((a), (n))
static inline wk_vi wk_vi_mullo(wk_vi a, wk_vi b) { return vmulq_u32(a, b); }
static inline wk_vi wk_vi_min_s(wk_vi a, wk_vi b) {
    return vreinterpretq_u32_s32(vminq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b)));
}
static inline wk_vi wk_vi_max_s(wk_vi a, wk_vi b) {
    return vreinterpretq_u32_s32(vmaxq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b)));
}
static inline wk_vi wk_vi_from_vf_trunc(wk_vf a) { return vreinterpretq_u32_s32(vcvtq_s32_f32(a)); }
static inline wk_vi wk_vf_as_vi(wk_vf a) { return vreinterpretq_u32_f32(a); }
static inline wk_vf wk_vi_as_vf(wk_vi a) { return vreinterpretq_f32_u32(a); }

static inline wk_vm wk_vf_isnan(wk_vf a) { return vmvnq_u32(vceqq_f32(a, a)); }
static inline wk_vm wk_vi_lt_s(wk_vi a, wk_vi b) {
    return vcltq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b));
}
static inline wk_vf wk_vf_select(wk_vm m, wk_vf a, wk_vf b) { return vbslq_f32(m, a, b); }
static inline wk_vi wk_vi_select(wk_vm m, wk_vi a, wk_vi b) { return vbslq_u32(m, a, b); }
static inline wk_vi wk_vi_ternary_xor_and(wk_vi a, wk_vi m, wk_vi s) {
    return veorq_u32(vandq_u32(a, m), s);
}

/* 16 words as 64 table bytes; each lane's index becomes four byte indices. */
typedef uint8x16x4_t wk_lut16;
static inline wk_lut16 wk_lut16_load(const uint32_t t[16]) {
    return vld1q_u8_x4((const uint8_t *)t);
}
static inline wk_vi wk_lut16_get(wk_lut16 t, wk_vi h) {
    uint32x4_t bytes = vmlaq_n_u32(vdupq_n_u32(0x03020100u), vandq_u32(h, vdupq_n_u32(15)), 0x04040404u);
    return vreinterpretq_u32_u8(vqtbl4q_u8(t, vreinterpretq_u8_u32(bytes)));
}

/* 256-entry byte table: four 64-byte lookups; out-of-range indices of tbx
 * keep what an earlier one found. */
typedef struct { uint8x16x4_t q[4]; } wk_perm256;
static inline void wk_perm256_init(wk_perm256 *t, const uint8_t *p) {
    for (int i = 0; i < 4; i++) t->q[i] = vld1q_u8_x4(p + 64 * i);
}
static inline wk_vi wk_perm256_get(const wk_perm256 *t, wk_vi i) {
    uint8x16_t idx = vreinterpretq_u8_u32(vandq_u32(i, vdupq_n_u32(255)));
    uint8x16_t r = vqtbl4q_u8(t->q[0], idx);
    r = vqtbx4q_u8(r, t->q[1], vsubq_u8(idx, vdupq_n_u8(64)));
    r = vqtbx4q_u8(r, t->q[2], vsubq_u8(idx, vdupq_n_u8(128)));
    r = vqtbx4q_u8(r, t->q[3], vsubq_u8(idx, vdupq_n_u8(192)));
    return vandq_u32(vreinterpretq_u32_u8(r), vdupq_n_u32(255));
}

static inline uint32_t wk_vi_hmin_s(wk_vi a) { return (uint32_t)vminvq_s32(vreinterpretq_s32_u32(a)); }
static inline uint32_t wk_vi_hmax_s(wk_vi a) { return (uint32_t)vmaxvq_s32(vreinterpretq_s32_u32(a)); }

/* ---- added for spline ---- */
static inline wk_vm wk_vf_lt(wk_vf a, wk_vf b) { return vcltq_f32(a, b); }
static inline wk_vf wk_vf_gather(const float *base, wk_vi idx) {
    float32x4_t r = vdupq_n_f32(0.0f);
    r = vld1q_lane_f32(base + (int32_t)vgetq_lane_u32(idx, 0), r, 0);
    r = vld1q_lane_f32(base + (int32_t)vgetq_lane_u32(idx, 1), r, 1);
    r = vld1q_lane_f32(base + (int32_t)vgetq_lane_u32(idx, 2), r, 2);
    r = vld1q_lane_f32(base + (int32_t)vgetq_lane_u32(idx, 3), r, 3);
    return r;
}
/* ---- added for erosion ---- */
/* a > b per lane (ordered: false where either is NaN). */
static inline wk_vm wk_vf_gt(wk_vf a, wk_vf b) { return vcgtq_f32(a, b); }
/* m ? a + b : a per lane (unselected lanes keep a's exact bits, -0 included). */
static inline wk_vf wk_vf_add_mask(wk_vf a, wk_vm m, wk_vf b) { return vbslq_f32(m, vaddq_f32(a, b), a); }
/* m ? a + b : a per lane, integers. */
static inline wk_vi wk_vi_add_mask(wk_vi a, wk_vm m, wk_vi b) { return vaddq_u32(a, vandq_u32(m, b)); }
/* Signed int32 lanes to float (round to nearest). */
static inline wk_vf wk_vf_from_vi_s(wk_vi a) { return vcvtq_f32_s32(vreinterpretq_s32_u32(a)); }
/* Masks as bits: lane i -> bit i of WK_VM_BYTES little-endian bytes at p.
 * WK_VM_BITS_CHEAP: 1 where a store and a load are one instruction each. */
#define WK_VM_BYTES 1
#define WK_VM_BITS_CHEAP 0
static inline void wk_vm_store_bits(uint8_t *p, wk_vm m) {
    const uint32_t bits[4] = {1, 2, 4, 8};
    *p = (uint8_t)vaddvq_u32(vandq_u32(m, vld1q_u32(bits)));
}
static inline wk_vm wk_vm_load_bits(const uint8_t *p) {
    const uint32_t bits[4] = {1, 2, 4, 8};
    uint32x4_t bit = vld1q_u32(bits);
    return vceqq_u32(vandq_u32(vdupq_n_u32(*p), bit), bit);
}
/* m ? a + 1 : a per lane, integers (a mask lane is all ones: one subtraction). */
static inline wk_vi wk_vi_inc_mask(wk_vi a, wk_vm m) { return vsubq_u32(a, m); }
/* ---- added for fracture ---- */
static inline wk_vm wk_vf_le(wk_vf a, wk_vf b) { return vcleq_f32(a, b); }
static inline wk_vm wk_vm_and(wk_vm a, wk_vm b) { return vandq_u32(a, b); }
static inline uint32_t wk_vm_bits(wk_vm m) {
    static const uint32_t weights[4] = {1, 2, 4, 8};
    return vaddvq_u32(vandq_u32(m, vld1q_u32(weights)));
}
/* ---- added for noise ---- */
/* t[h] for lanes with h in 0..7 (other lanes: unspecified). */
static inline wk_vi wk_lut16_get_lo8(wk_lut16 t, wk_vi h) { return wk_lut16_get(t, h); }
/* ---- added for contour ---- */
/* a >= b per lane (ordered: a NaN lane is false). */
static inline wk_vm wk_vf_ge(wk_vf a, wk_vf b) { return vcgeq_f32(a, b); }
/* WK_W8 bytes per byte vector; the unsigned x >= t mask of WK_W8 bytes at p
 * (bit k: byte p[k]). */
#define WK_W8 16
static inline uint64_t wk_u8_ge_bits(const uint8_t *p, uint8_t t) {
    static const uint8_t weight[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t m = vandq_u8(vcgeq_u8(vld1q_u8(p), vdupq_n_u8(t)), vld1q_u8(weight));
    return (uint64_t)vaddv_u8(vget_low_u8(m)) | (uint64_t)vaddv_u8(vget_high_u8(m)) << 8;
}
/* ---- added for spline (perf) ---- */
/* a * b + c per lane with one rounding (fused multiply-add). */
static inline wk_vf wk_vf_fma(wk_vf a, wk_vf b, wk_vf c) { return vfmaq_f32(c, a, b); }
/* ---- added for fracture (perf) ---- */
/* Stores the lanes of a that m selects, in lane order, to p[0..count) and
 * returns count; writes all WK_W entries at p (those past count:
 * unspecified), so p needs room for WK_W. */
/* Per 4-bit mask: the byte shuffle that packs the selected lanes. */
static const uint8_t wk__compress4_bytes[16][16] = {
    {255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255},
    {0, 1, 2, 3, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255},
    {4, 5, 6, 7, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255},
    {0, 1, 2, 3, 4, 5, 6, 7, 255, 255, 255, 255, 255, 255, 255, 255},
    {8, 9, 10, 11, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255},
    {0, 1, 2, 3, 8, 9, 10, 11, 255, 255, 255, 255, 255, 255, 255, 255},
    {4, 5, 6, 7, 8, 9, 10, 11, 255, 255, 255, 255, 255, 255, 255, 255},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 255, 255, 255, 255},
    {12, 13, 14, 15, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255},
    {0, 1, 2, 3, 12, 13, 14, 15, 255, 255, 255, 255, 255, 255, 255, 255},
    {4, 5, 6, 7, 12, 13, 14, 15, 255, 255, 255, 255, 255, 255, 255, 255},
    {0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 255, 255, 255, 255},
    {8, 9, 10, 11, 12, 13, 14, 15, 255, 255, 255, 255, 255, 255, 255, 255},
    {0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 255, 255, 255, 255},
    {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 255, 255, 255, 255},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
};
static inline uint32_t wk_vi_compress_storeu(uint32_t *p, wk_vm m, wk_vi a) {
    uint32_t bits = wk_vm_bits(m);
    uint8x16_t packed = vqtbl1q_u8(vreinterpretq_u8_u32(a), vld1q_u8(wk__compress4_bytes[bits]));
    vst1q_u32(p, vreinterpretq_u32_u8(packed));
    return (uint32_t)__builtin_popcount(bits);
}
