/* Per-ISA dispatch, owned by core. Core knows the variant list, the CPU
 * probe and the fallback chain; a family only names its table type.
 *
 * A family's kernels form a struct of function pointers, one definition per
 * variant: `const wk_fam_kernels wk_fam_kernels_ref` in <fam>_ref.c and
 * `const wk_fam_kernels WK_SIMD_NAME(wk_fam_kernels)` in <fam>_simd.c (built
 * once per SIMD variant). In <fam>.c, one line gives the lookup:
 *
 *     WK__DISPATCH_SIMD(wk_fam_kernels, fam_kernels)   // has <fam>_simd.c
 *     WK__DISPATCH_REF(wk_fam_kernels, fam_kernels)    // reference only
 *
 * which defines `static const wk_fam_kernels *fam_kernels(const wk__call *)`.
 * A variant a family lacks falls back down the chain
 * avx512vbmi -> avx512 -> avx2 -> ref, neon -> ref: never NULL. */
#ifndef WK_DISPATCH_H
#define WK_DISPATCH_H

typedef enum wk__variant {
    WK__REF = 0,
    WK__AVX2,
    WK__AVX512,
    WK__AVX512VBMI, /* AVX-512 with byte permutes and byte popcounts (VBMI, BITALG) */
    WK__NEON,
    WK__VARIANTS
} wk__variant;

/* The next variant down the chain (REF stays REF). */
static inline wk__variant wk__variant_fallback(wk__variant v) {
    switch (v) {
    case WK__AVX512VBMI: return WK__AVX512;
    case WK__AVX512: return WK__AVX2;
    default: return WK__REF;
    }
}

/* "ref", "avx2", "avx512", "avx512vbmi", "neon". */
const char *wk__variant_name(wk__variant v);

#ifdef WK_HAVE_AVX2
#define WK__IF_AVX2(...) __VA_ARGS__
#else
#define WK__IF_AVX2(...)
#endif
#ifdef WK_HAVE_AVX512
#define WK__IF_AVX512(...) __VA_ARGS__
#else
#define WK__IF_AVX512(...)
#endif
#ifdef WK_HAVE_NEON
#define WK__IF_NEON(...) __VA_ARGS__
#else
#define WK__IF_NEON(...)
#endif

#define WK__DISPATCH_LOOKUP(type, fn, ...)                                        \
    static const type *fn(const struct wk__call *call) {                          \
        static const type *const table[WK__VARIANTS] = {__VA_ARGS__};            \
        wk__variant v = call->variant;                                           \
        while (!table[v]) v = wk__variant_fallback(v);                           \
        return table[v];                                                         \
    }

#define WK__DISPATCH_REF(type, fn)         \
    extern const type type##_ref;          \
    WK__DISPATCH_LOOKUP(type, fn, [WK__REF] = &type##_ref)

#define WK__DISPATCH_SIMD(type, fn)                                                      \
    extern const type type##_ref;                                                        \
    WK__IF_AVX2(extern const type type##_avx2;)                                          \
    WK__IF_AVX512(extern const type type##_avx512; extern const type type##_avx512vbmi;) \
    WK__IF_NEON(extern const type type##_neon;)                                          \
    WK__DISPATCH_LOOKUP(type, fn, [WK__REF] = &type##_ref,                               \
                        WK__IF_AVX2([WK__AVX2] = &type##_avx2, )                         \
                        WK__IF_AVX512([WK__AVX512] = &type##_avx512,                     \
                                      [WK__AVX512VBMI] = &type##_avx512vbmi, )           \
                        WK__IF_NEON([WK__NEON] = &type##_neon, ))

#endif /* WK_DISPATCH_H */
