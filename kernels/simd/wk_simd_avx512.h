/* AVX-512 (F, BW, DQ, VL; byte permutes with VBMI) flavour of wk_simd.h. */
#include <immintrin.h>
#include <string.h>

#define WK_W 16
typedef __m512 wk_vf;
typedef __m512i wk_vi;
typedef __mmask16 wk_vm;

static inline __mmask16 wk_part_mask(size_t n) { return (__mmask16)((1u << n) - 1u); }

static inline wk_vf wk_vf_set1(float a) { return _mm512_set1_ps(a); }
static inline wk_vi wk_vi_set1(uint32_t a) { return _mm512_set1_epi32((int)a); }
static inline wk_vf wk_vf_loadu(const float *p) { return _mm512_loadu_ps(p); }
static inline void wk_vf_storeu(float *p, wk_vf a) { _mm512_storeu_ps(p, a); }
static inline wk_vi wk_vi_loadu(const uint32_t *p) { return _mm512_loadu_si512(p); }
static inline void wk_vi_storeu(uint32_t *p, wk_vi a) { _mm512_storeu_si512(p, a); }
static inline wk_vf wk_vf_load_part(const float *p, size_t n) {
    return _mm512_maskz_loadu_ps(wk_part_mask(n), p);
}
static inline void wk_vf_store_part(float *p, wk_vf a, size_t n) {
    _mm512_mask_storeu_ps(p, wk_part_mask(n), a);
}
static inline wk_vi wk_vi_load_part(const uint32_t *p, size_t n) {
    return _mm512_maskz_loadu_epi32(wk_part_mask(n), p);
}

static inline wk_vf wk_vf_add(wk_vf a, wk_vf b) { return _mm512_add_ps(a, b); }
static inline wk_vf wk_vf_sub(wk_vf a, wk_vf b) { return _mm512_sub_ps(a, b); }
static inline wk_vf wk_vf_mul(wk_vf a, wk_vf b) { return _mm512_mul_ps(a, b); }
static inline wk_vf wk_vf_div(wk_vf a, wk_vf b) { return _mm512_div_ps(a, b); }
static inline wk_vf wk_vf_floor(wk_vf a) {
    return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
}

static inline wk_vi wk_vi_add(wk_vi a, wk_vi b) { return _mm512_add_epi32(a, b); }
static inline wk_vi wk_vi_and(wk_vi a, wk_vi b) { return _mm512_and_si512(a, b); }
static inline wk_vi wk_vi_or(wk_vi a, wk_vi b) { return _mm512_or_si512(a, b); }
static inline wk_vi wk_vi_xor(wk_vi a, wk_vi b) { return _mm512_xor_si512(a, b); }
#define wk_vi_slli(a, n) _mm512_slli_epi32((a), (n))
#define wk_vi_srli(a, n) _mm512_srli_epi32((a), (n))
static inline wk_vi wk_vi_mullo(wk_vi a, wk_vi b) { return _mm512_mullo_epi32(a, b); }
static inline wk_vi wk_vi_min_s(wk_vi a, wk_vi b) { return _mm512_min_epi32(a, b); }
static inline wk_vi wk_vi_max_s(wk_vi a, wk_vi b) { return _mm512_max_epi32(a, b); }
static inline wk_vi wk_vi_from_vf_trunc(wk_vf a) { return _mm512_cvttps_epi32(a); }
static inline wk_vi wk_vf_as_vi(wk_vf a) { return _mm512_castps_si512(a); }
static inline wk_vf wk_vi_as_vf(wk_vi a) { return _mm512_castsi512_ps(a); }

static inline wk_vm wk_vf_isnan(wk_vf a) { return _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q); }
static inline wk_vm wk_vi_lt_s(wk_vi a, wk_vi b) { return _mm512_cmplt_epi32_mask(a, b); }
static inline wk_vf wk_vf_select(wk_vm m, wk_vf a, wk_vf b) { return _mm512_mask_blend_ps(m, b, a); }
static inline wk_vi wk_vi_select(wk_vm m, wk_vi a, wk_vi b) {
    return _mm512_mask_blend_epi32(m, b, a);
}
static inline wk_vi wk_vi_ternary_xor_and(wk_vi a, wk_vi m, wk_vi s) {
    return _mm512_ternarylogic_epi32(a, m, s, 0x6A); /* (a & m) ^ s */
}

typedef __m512i wk_lut16;
static inline wk_lut16 wk_lut16_load(const uint32_t t[16]) { return _mm512_loadu_si512(t); }
static inline wk_vi wk_lut16_get(wk_lut16 t, wk_vi h) { return _mm512_permutexvar_epi32(h, t); }

#ifdef WK_SIMD_VBMI
/* 256-entry byte table in four registers; two 128-entry byte permutes and a
 * blend on bit 7 of the index. Only each lane's low byte is looked up (the
 * others are zeroed), so no masking of the index is needed. */
typedef struct { __m512i t0, t1, t2, t3; } wk_perm256;
static inline void wk_perm256_init(wk_perm256 *t, const uint8_t *p) {
    t->t0 = _mm512_loadu_si512(p);
    t->t1 = _mm512_loadu_si512(p + 64);
    t->t2 = _mm512_loadu_si512(p + 128);
    t->t3 = _mm512_loadu_si512(p + 192);
}
static inline wk_vi wk_perm256_get(const wk_perm256 *t, wk_vi i) {
    const __mmask64 low_bytes = 0x1111111111111111ull;
    __m512i lo = _mm512_maskz_permutex2var_epi8(low_bytes, t->t0, i, t->t1);
    __m512i hi = _mm512_maskz_permutex2var_epi8(low_bytes, t->t2, i, t->t3);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(i), lo, hi);
}
#else
/* Without VBMI: gather 32-bit words at byte offsets and keep the low byte
 * (the table is padded so every read stays inside). */
typedef struct { const uint8_t *p; } wk_perm256;
static inline void wk_perm256_init(wk_perm256 *t, const uint8_t *p) { t->p = p; }
static inline wk_vi wk_perm256_get(const wk_perm256 *t, wk_vi i) {
    const __m512i byte = _mm512_set1_epi32(255);
    __m512i words = _mm512_i32gather_epi32(_mm512_and_si512(i, byte), (const void *)t->p, 1);
    return _mm512_and_si512(words, byte);
}
#endif

static inline uint32_t wk_vi_hmin_s(wk_vi a) { return (uint32_t)_mm512_reduce_min_epi32(a); }
static inline uint32_t wk_vi_hmax_s(wk_vi a) { return (uint32_t)_mm512_reduce_max_epi32(a); }

/* ---- added for spline ---- */
static inline wk_vm wk_vf_lt(wk_vf a, wk_vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
static inline wk_vf wk_vf_gather(const float *base, wk_vi idx) { return _mm512_i32gather_ps(idx, base, 4); }
/* ---- added for erosion ---- */
/* a > b per lane (ordered: false where either is NaN). */
static inline wk_vm wk_vf_gt(wk_vf a, wk_vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
/* m ? a + b : a per lane (unselected lanes keep a's exact bits, -0 included). */
static inline wk_vf wk_vf_add_mask(wk_vf a, wk_vm m, wk_vf b) { return _mm512_mask_add_ps(a, m, a, b); }
/* m ? a + b : a per lane, integers. */
static inline wk_vi wk_vi_add_mask(wk_vi a, wk_vm m, wk_vi b) { return _mm512_mask_add_epi32(a, m, a, b); }
/* Signed int32 lanes to float (round to nearest). */
static inline wk_vf wk_vf_from_vi_s(wk_vi a) { return _mm512_cvtepi32_ps(a); }
/* Masks as bits: lane i -> bit i of WK_VM_BYTES little-endian bytes at p.
 * WK_VM_BITS_CHEAP: 1 where a store and a load are one instruction each. */
#define WK_VM_BYTES 2
#define WK_VM_BITS_CHEAP 1
static inline void wk_vm_store_bits(uint8_t *p, wk_vm m) { memcpy(p, &m, sizeof m); }
static inline wk_vm wk_vm_load_bits(const uint8_t *p) {
    __mmask16 m;
    memcpy(&m, p, sizeof m);
    return m;
}
/* m ? a + 1 : a per lane, integers. */
static inline wk_vi wk_vi_inc_mask(wk_vi a, wk_vm m) { return _mm512_mask_add_epi32(a, m, a, _mm512_set1_epi32(1)); }
/* ---- added for fracture ---- */
static inline wk_vm wk_vf_le(wk_vf a, wk_vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
static inline wk_vm wk_vm_and(wk_vm a, wk_vm b) { return (wk_vm)(a & b); }
static inline uint32_t wk_vm_bits(wk_vm m) { return (uint32_t)m; }
/* ---- added for noise ---- */
/* t[h] for lanes with h in 0..7 (other lanes: unspecified). */
static inline wk_vi wk_lut16_get_lo8(wk_lut16 t, wk_vi h) { return wk_lut16_get(t, h); }
/* ---- added for contour ---- */
/* a >= b per lane (ordered: a NaN lane is false). */
static inline wk_vm wk_vf_ge(wk_vf a, wk_vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
/* WK_W8 bytes per byte vector; the unsigned x >= t mask of WK_W8 bytes at p
 * (bit k: byte p[k]). */
#define WK_W8 64
static inline uint64_t wk_u8_ge_bits(const uint8_t *p, uint8_t t) {
    return (uint64_t)_mm512_cmpge_epu8_mask(_mm512_loadu_si512(p), _mm512_set1_epi8((char)t));
}
/* ---- added for spline (perf) ---- */
/* a * b + c per lane with one rounding (fused multiply-add). */
static inline wk_vf wk_vf_fma(wk_vf a, wk_vf b, wk_vf c) { return _mm512_fmadd_ps(a, b, c); }
/* ---- added for fracture (perf) ---- */
/* Stores the lanes of a that m selects, in lane order, to p[0..count) and
 * returns count; writes all WK_W entries at p (those past count:
 * unspecified), so p needs room for WK_W. */
static inline uint32_t wk_vi_compress_storeu(uint32_t *p, wk_vm m, wk_vi a) {
    /* The register form and a plain store: vpcompressd to memory is slow
     * on some cores (microcoded on AMD Zen 4). */
    _mm512_storeu_si512(p, _mm512_maskz_compress_epi32(m, a));
    return (uint32_t)__builtin_popcount((uint32_t)m);
}
