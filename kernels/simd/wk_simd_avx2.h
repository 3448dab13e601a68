/* AVX2 + FMA flavour of wk_simd.h. */
#include <immintrin.h>
#include <string.h>

#define WK_W 8
typedef __m256 wk_vf;
typedef __m256i wk_vi;
typedef __m256i wk_vm; /* all-ones lanes */

/* Lanes below n all ones, the rest zero. */
static inline __m256i wk_part_mask(size_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

static inline wk_vf wk_vf_set1(float a) { return _mm256_set1_ps(a); }
static inline wk_vi wk_vi_set1(uint32_t a) { return _mm256_set1_epi32((int)a); }
static inline wk_vf wk_vf_loadu(const float *p) { return _mm256_loadu_ps(p); }
static inline void wk_vf_storeu(float *p, wk_vf a) { _mm256_storeu_ps(p, a); }
static inline wk_vi wk_vi_loadu(const uint32_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void wk_vi_storeu(uint32_t *p, wk_vi a) { _mm256_storeu_si256((__m256i *)p, a); }
static inline wk_vf wk_vf_load_part(const float *p, size_t n) {
    return _mm256_maskload_ps(p, wk_part_mask(n));
}
static inline void wk_vf_store_part(float *p, wk_vf a, size_t n) {
    _mm256_maskstore_ps(p, wk_part_mask(n), a);
}
static inline wk_vi wk_vi_load_part(const uint32_t *p, size_t n) {
    return _mm256_maskload_epi32((const int *)p, wk_part_mask(n));
}

static inline wk_vf wk_vf_add(wk_vf a, wk_vf b) { return _mm256_add_ps(a, b); }
static inline wk_vf wk_vf_sub(wk_vf a, wk_vf b) { return _mm256_sub_ps(a, b); }
static inline wk_vf wk_vf_mul(wk_vf a, wk_vf b) { return _mm256_mul_ps(a, b); }
static inline wk_vf wk_vf_div(wk_vf a, wk_vf b) { return _mm256_div_ps(a, b); }
static inline wk_vf wk_vf_floor(wk_vf a) { return _mm256_floor_ps(a); }

static inline wk_vi wk_vi_add(wk_vi a, wk_vi b) { return _mm256_add_epi32(a, b); }
static inline wk_vi wk_vi_and(wk_vi a, wk_vi b) { return _mm256_and_si256(a, b); }
static inline wk_vi wk_vi_or(wk_vi a, wk_vi b) { return _mm256_or_si256(a, b); }
static inline wk_vi wk_vi_xor(wk_vi a, wk_vi b) { return _mm256_xor_si256(a, b); }
#define wk_vi_slli(a, n) _mm256_slli_epi32((a), (n))
#define wk_vi_srli(a, n) _mm256_srli_epi32((a), (n))
static inline wk_vi wk_vi_mullo(wk_vi a, wk_vi b) { return _mm256_mullo_epi32(a, b); }
static inline wk_vi wk_vi_min_s(wk_vi a, wk_vi b) { return _mm256_min_epi32(a, b); }
static inline wk_vi wk_vi_max_s(wk_vi a, wk_vi b) { return _mm256_max_epi32(a, b); }
static inline wk_vi wk_vi_from_vf_trunc(wk_vf a) { return _mm256_cvttps_epi32(a); }
static inline wk_vi wk_vf_as_vi(wk_vf a) { return _mm256_castps_si256(a); }
static inline wk_vf wk_vi_as_vf(wk_vi a) { return _mm256_castsi256_ps(a); }

static inline wk_vm wk_vf_isnan(wk_vf a) { return _mm256_castps_si256(_mm256_cmp_ps(a, a, _CMP_UNORD_Q)); }
static inline wk_vm wk_vi_lt_s(wk_vi a, wk_vi b) { return _mm256_cmpgt_epi32(b, a); }
static inline wk_vf wk_vf_select(wk_vm m, wk_vf a, wk_vf b) {
    return _mm256_blendv_ps(b, a, _mm256_castsi256_ps(m));
}
static inline wk_vi wk_vi_select(wk_vm m, wk_vi a, wk_vi b) { return _mm256_blendv_epi8(b, a, m); }
static inline wk_vi wk_vi_ternary_xor_and(wk_vi a, wk_vi m, wk_vi s) {
    return _mm256_xor_si256(_mm256_and_si256(a, m), s);
}

/* 16 entries in two registers; vpermd uses the low 3 bits, bit 3 blends. */
typedef struct { __m256i lo, hi; } wk_lut16;
static inline wk_lut16 wk_lut16_load(const uint32_t t[16]) {
    wk_lut16 r = {_mm256_loadu_si256((const __m256i *)t), _mm256_loadu_si256((const __m256i *)(t + 8))};
    return r;
}
static inline wk_vi wk_lut16_get(wk_lut16 t, wk_vi h) {
    __m256 lo = _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(t.lo, h));
    __m256 hi = _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(t.hi, h));
    return _mm256_castps_si256(_mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32(h, 28))));
}

/* Gather 32-bit words at byte offsets and keep the low byte (the table is
 * padded so every read stays inside). */
typedef struct { const uint8_t *p; } wk_perm256;
static inline void wk_perm256_init(wk_perm256 *t, const uint8_t *p) { t->p = p; }
static inline wk_vi wk_perm256_get(const wk_perm256 *t, wk_vi i) {
    const __m256i byte = _mm256_set1_epi32(255);
    __m256i words = _mm256_i32gather_epi32((const int *)(const void *)t->p, _mm256_and_si256(i, byte), 1);
    return _mm256_and_si256(words, byte);
}

static inline uint32_t wk_vi_hmin_s(wk_vi a) {
    __m128i m = _mm_min_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    m = _mm_min_epi32(m, _mm_shuffle_epi32(m, 0x4E));
    m = _mm_min_epi32(m, _mm_shuffle_epi32(m, 0xB1));
    return (uint32_t)_mm_cvtsi128_si32(m);
}
static inline uint32_t wk_vi_hmax_s(wk_vi a) {
    __m128i m = _mm_max_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0x4E));
    m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0xB1));
    return (uint32_t)_mm_cvtsi128_si32(m);
}

/* ---- added for spline ---- */
static inline wk_vm wk_vf_lt(wk_vf a, wk_vf b) { return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_LT_OQ)); }
static inline wk_vf wk_vf_gather(const float *base, wk_vi idx) { return _mm256_i32gather_ps(base, idx, 4); }
/* ---- added for erosion ---- */
/* a > b per lane (ordered: false where either is NaN). */
static inline wk_vm wk_vf_gt(wk_vf a, wk_vf b) { return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_GT_OQ)); }
/* m ? a + b : a per lane (unselected lanes keep a's exact bits, -0 included). */
static inline wk_vf wk_vf_add_mask(wk_vf a, wk_vm m, wk_vf b) {
    return _mm256_blendv_ps(a, _mm256_add_ps(a, b), _mm256_castsi256_ps(m));
}
/* m ? a + b : a per lane, integers. */
static inline wk_vi wk_vi_add_mask(wk_vi a, wk_vm m, wk_vi b) { return _mm256_add_epi32(a, _mm256_and_si256(m, b)); }
/* Signed int32 lanes to float (round to nearest). */
static inline wk_vf wk_vf_from_vi_s(wk_vi a) { return _mm256_cvtepi32_ps(a); }
/* Masks as bits: lane i -> bit i of WK_VM_BYTES little-endian bytes at p.
 * WK_VM_BITS_CHEAP: 1 where a store and a load are one instruction each. */
#define WK_VM_BYTES 1
#define WK_VM_BITS_CHEAP 0
static inline void wk_vm_store_bits(uint8_t *p, wk_vm m) { *p = (uint8_t)_mm256_movemask_ps(_mm256_castsi256_ps(m)); }
static inline wk_vm wk_vm_load_bits(const uint8_t *p) {
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(*p), bit), bit);
}
/* m ? a + 1 : a per lane, integers (a mask lane is -1: one subtraction). */
static inline wk_vi wk_vi_inc_mask(wk_vi a, wk_vm m) { return _mm256_sub_epi32(a, m); }
/* ---- added for fracture ---- */
static inline wk_vm wk_vf_le(wk_vf a, wk_vf b) { return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_LE_OQ)); }
static inline wk_vm wk_vm_and(wk_vm a, wk_vm b) { return _mm256_and_si256(a, b); }
static inline uint32_t wk_vm_bits(wk_vm m) { return (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(m)); }
/* ---- added for noise ---- */
/* t[h] for lanes with h in 0..7 (other lanes: unspecified): one vpermd. */
static inline wk_vi wk_lut16_get_lo8(wk_lut16 t, wk_vi h) { return _mm256_permutevar8x32_epi32(t.lo, h); }
/* ---- added for contour ---- */
/* a >= b per lane (ordered: a NaN lane is false). */
static inline wk_vm wk_vf_ge(wk_vf a, wk_vf b) { return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_GE_OQ)); }
/* WK_W8 bytes per byte vector; the unsigned x >= t mask of WK_W8 bytes at p
 * (bit k: byte p[k]). */
#define WK_W8 32
static inline uint64_t wk_u8_ge_bits(const uint8_t *p, uint8_t t) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i ge = _mm256_cmpeq_epi8(_mm256_max_epu8(x, _mm256_set1_epi8((char)t)), x);
    return (uint32_t)_mm256_movemask_epi8(ge);
}
/* ---- added for spline (perf) ---- */
/* a * b + c per lane with one rounding (fused multiply-add). */
static inline wk_vf wk_vf_fma(wk_vf a, wk_vf b, wk_vf c) { return _mm256_fmadd_ps(a, b, c); }
/* ---- added for fracture (perf) ---- */
/* Stores the lanes of a that m selects, in lane order, to p[0..count) and
 * returns count; writes all WK_W entries at p (those past count:
 * unspecified), so p needs room for WK_W. */
/* Per 8-bit mask: the selected lanes' indices, one per byte. */
static const uint64_t wk__compress8_lanes[256] = {
    0x0u, 0x0u, 0x1u, 0x100u, 0x2u, 0x200u, 0x201u, 0x20100u,
    0x3u, 0x300u, 0x301u, 0x30100u, 0x302u, 0x30200u, 0x30201u, 0x3020100u,
    0x4u, 0x400u, 0x401u, 0x40100u, 0x402u, 0x40200u, 0x40201u, 0x4020100u,
    0x403u, 0x40300u, 0x40301u, 0x4030100u, 0x40302u, 0x4030200u, 0x4030201u, 0x403020100ull,
    0x5u, 0x500u, 0x501u, 0x50100u, 0x502u, 0x50200u, 0x50201u, 0x5020100u,
    0x503u, 0x50300u, 0x50301u, 0x5030100u, 0x50302u, 0x5030200u, 0x5030201u, 0x503020100ull,
    0x504u, 0x50400u, 0x50401u, 0x5040100u, 0x50402u, 0x5040200u, 0x5040201u, 0x504020100ull,
    0x50403u, 0x5040300u, 0x5040301u, 0x504030100ull, 0x5040302u, 0x504030200ull, 0x504030201ull, 0x50403020100ull,
    0x6u, 0x600u, 0x601u, 0x60100u, 0x602u, 0x60200u, 0x60201u, 0x6020100u,
    0x603u, 0x60300u, 0x60301u, 0x6030100u, 0x60302u, 0x6030200u, 0x6030201u, 0x603020100ull,
    0x604u, 0x60400u, 0x60401u, 0x6040100u, 0x60402u, 0x6040200u, 0x6040201u, 0x604020100ull,
    0x60403u, 0x6040300u, 0x6040301u, 0x604030100ull, 0x6040302u, 0x604030200ull, 0x604030201ull, 0x60403020100ull,
    0x605u, 0x60500u, 0x60501u, 0x6050100u, 0x60502u, 0x6050200u, 0x6050201u, 0x605020100ull,
    0x60503u, 0x6050300u, 0x6050301u, 0x605030100ull, 0x6050302u, 0x605030200ull, 0x605030201ull, 0x60503020100ull,
    0x60504u, 0x6050400u, 0x6050401u, 0x605040100ull, 0x6050402u, 0x605040200ull, 0x605040201ull, 0x60504020100ull,
    0x6050403u, 0x605040300ull, 0x605040301ull, 0x60504030100ull, 0x605040302ull, 0x60504030200ull, 0x60504030201ull, 0x6050403020100ull,
    0x7u, 0x700u, 0x701u, 0x70100u, 0x702u, 0x70200u, 0x70201u, 0x7020100u,
    0x703u, 0x70300u, 0x70301u, 0x7030100u, 0x70302u, 0x7030200u, 0x7030201u, 0x703020100ull,
    0x704u, 0x70400u, 0x70401u, 0x7040100u, 0x70402u, 0x7040200u, 0x7040201u, 0x704020100ull,
    0x70403u, 0x7040300u, 0x7040301u, 0x704030100ull, 0x7040302u, 0x704030200ull, 0x704030201ull, 0x70403020100ull,
    0x705u, 0x70500u, 0x70501u, 0x7050100u, 0x70502u, 0x7050200u, 0x7050201u, 0x705020100ull,
    0x70503u, 0x7050300u, 0x7050301u, 0x705030100ull, 0x7050302u, 0x705030200ull, 0x705030201ull, 0x70503020100ull,
    0x70504u, 0x7050400u, 0x7050401u, 0x705040100ull, 0x7050402u, 0x705040200ull, 0x705040201ull, 0x70504020100ull,
    0x7050403u, 0x705040300ull, 0x705040301ull, 0x70504030100ull, 0x705040302ull, 0x70504030200ull, 0x70504030201ull, 0x7050403020100ull,
    0x706u, 0x70600u, 0x70601u, 0x7060100u, 0x70602u, 0x7060200u, 0x7060201u, 0x706020100ull,
    0x70603u, 0x7060300u, 0x7060301u, 0x706030100ull, 0x7060302u, 0x706030200ull, 0x706030201ull, 0x70603020100ull,
    0x70604u, 0x7060400u, 0x7060401u, 0x706040100ull, 0x7060402u, 0x706040200ull, 0x706040201ull, 0x70604020100ull,
    0x7060403u, 0x706040300ull, 0x706040301ull, 0x70604030100ull, 0x706040302ull, 0x70604030200ull, 0x70604030201ull, 0x7060403020100ull,
    0x70605u, 0x7060500u, 0x7060501u, 0x706050100ull, 0x7060502u, 0x706050200ull, 0x706050201ull, 0x70605020100ull,
    0x7060503u, 0x706050300ull, 0x706050301ull, 0x70605030100ull, 0x706050302ull, 0x70605030200ull, 0x70605030201ull, 0x7060503020100ull,
    0x7060504u, 0x706050400ull, 0x706050401ull, 0x70605040100ull, 0x706050402ull, 0x70605040200ull, 0x70605040201ull, 0x7060504020100ull,
    0x706050403ull, 0x70605040300ull, 0x70605040301ull, 0x7060504030100ull, 0x70605040302ull, 0x7060504030200ull, 0x7060504030201ull, 0x706050403020100ull,
};
static inline uint32_t wk_vi_compress_storeu(uint32_t *p, wk_vm m, wk_vi a) {
    uint32_t bits = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(m));
    __m256i lanes = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)wk__compress8_lanes[bits]));
    _mm256_storeu_si256((__m256i *)p, _mm256_permutevar8x32_epi32(a, lanes));
    return (uint32_t)__builtin_popcount(bits);
}
