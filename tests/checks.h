/* worldkern test checks: plain C functions shared by the Criterion test
 * (test_noise.c, native builds) and the plain runner (plain_runner.c, every
 * build, the one run under qemu-aarch64). Each check returns its number of
 * failures (0 = pass) and prints one line per failure to stderr. */
#ifndef WK_TESTS_CHECKS_H
#define WK_TESTS_CHECKS_H

#include <stddef.h>
#include <stdint.h>

/* Every check, in run order. X(name) declares int wk_check_<name>(void). */
#define WK_CHECK_LIST(X)            \
    X(api_basics)                   \
    X(perlin_double_known_answers)  \
    X(perlin3_vs_double)            \
    X(perlin2_vs_double)            \
    X(perlin_seeded_vs_double)      \
    X(perlin2_isa_sizes)            \
    X(perlin3_isa_sizes)            \
    X(perlin_isa_random_wide)       \
    X(perlin_non_finite)            \
    X(perlin_alias)                 \
    X(minmax_isa)                   \
    X(minmax_semantics)             \
    X(remap_isa)                    \
    X(fbm2_grid_isa)                \
    X(fbm3_grid_isa)                \
    X(fbm2_deriv_isa)               \
    X(fbm_vs_double)                \
    X(grid_chunk_invariance)        \
    X(thread_invariance)            \
    X(grid_equals_perlin)           \
    X(grid_smooth_far)              \
    X(deriv_finite_differences)     \
    X(bad_points)                   \
    X(bad_minmax_remap)             \
    X(bad_grids)

#define WK_DECLARE_CHECK(name) int wk_check_##name(void);
WK_CHECK_LIST(WK_DECLARE_CHECK)

/* ---- helpers (checks_common.c) ---- */

/* Report one failure: prints "FAIL file:line: message" (first few per check). */
void wk_fail_at(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#define FAIL(...) (wk_fail_at(__FILE__, __LINE__, __VA_ARGS__), fails++)
#define EXPECT(cond, ...) ((cond) ? (void)0 : (void)FAIL(__VA_ARGS__))

/* Resets the per-check message limit; the runners call it between checks. */
void wk_fail_reset(void);

/* Deterministic generator (splitmix64). */
typedef struct wk_rng { uint64_t s; } wk_rng;
uint64_t wk_rng_u64(wk_rng *r);
double wk_rng_unit(wk_rng *r);                 /* [0, 1) */
double wk_rng_range(wk_rng *r, double lo, double hi);

/* A float buffer with GUARD canary floats before and after `n` floats at
 * `offset` floats past a 64-byte boundary (offset 1 = unaligned). */
enum { WK_GUARD = 16 };
typedef struct wk_buf {
    float *base;   /* allocation */
    float *p;      /* the n usable floats */
    size_t n, offset;
} wk_buf;
wk_buf wk_buf_new(size_t n, size_t offset);
void wk_buf_free(wk_buf *b);
void wk_buf_fill_canary(wk_buf *b);   /* whole allocation, guards included */
int wk_buf_guards_ok(const wk_buf *b); /* guards still canary? */
int wk_buf_all_canary(const wk_buf *b); /* usable part still canary? */
extern const uint32_t wk_canary_bits;
int wk_is_canary(float f);

/* The thread count checks run with (and restore): 0 (all cores) natively;
 * 1 when built with WK_TESTS_SINGLE_THREAD (the aarch64 cross build: under
 * qemu-aarch64 7.2 any OpenMP team of more than one thread hangs). */
int wk_test_threads(void);

/* ISAs this machine supports, WK_ISA_SCALAR first; returns the count. */
int wk_supported_isas(int isas[4]);

uint32_t wk_bits(float f);
float wk_from_bits(uint32_t u);

#endif /* WK_TESTS_CHECKS_H */
