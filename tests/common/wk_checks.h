/* worldkern test checks: plain C functions shared by the Criterion front
 * end (criterion_main.c, one executable per family, native builds) and the
 * plain runner (plain_runner.c, every build, the one run under qemu-aarch64
 * and wine). Each check returns its number of failures (0 = pass) and prints
 * one line per failure to stderr.
 *
 * Each family lists its checks in tests/<family>/<family>_checks.h:
 *     #define WK_CHECKS_<FAMILY>(X) X(name, kind) ...
 * with kind `isa` (compares ISAs; rerun with VBMI hidden and under FTZ/DAZ)
 * or `plain`. CMake finds the lists and generates wk_all_checks.h, whose
 * WK_ALL_CHECKS(X) chains them; no check name appears in CMake. */
#ifndef WK_TESTS_CHECKS_H
#define WK_TESTS_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#include "worldkern/wk.h"
#include "wk_all_checks.h"

#define WK_DECLARE_CHECK(name, kind) int wk_check_##name(void);
WK_ALL_CHECKS(WK_DECLARE_CHECK)

/* ---- helpers (checks_common.c) ---- */

/* Report one failure: prints "FAIL file:line: message" (first few per check). */
void wk_fail_at(const char *file, int line, const char *fmt, ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 3, 4))) /* C99 stdio (__USE_MINGW_ANSI_STDIO) */
#elif defined(__GNUC__)
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
int wk_supported_isas(int isas[WK_ISA_COUNT]);

uint32_t wk_bits(float f);
float wk_from_bits(uint32_t u);

/* ---- the ISA harness (harness.c) ----
 * One run of a kernel: fills `out` (out_bytes) computing with `exec`, the
 * output cut the way `split` (0 .. splits - 1; 0 = whole) says. */
typedef int (*wk_harness_run)(void *ctx, const wk_exec *exec, uint32_t split, void *out);
typedef struct wk_harness {
    const char *what;      /* names the case in failure messages */
    wk_harness_run run;    /* returns the wk_status of the call(s) */
    void *ctx;
    size_t out_bytes;
    uint32_t splits;       /* >= 1 */
} wk_harness;

/* Runs the scalar reference once (1 thread, whole), then every supported
 * ISA x threads {1, 2, 3, 0 (default), 3 on a reversing task runner} x
 * every split, each into a canary-filled buffer, and compares the whole
 * buffer (gaps between rows included) by memcmp, plus guards past its ends.
 * With WK_TEST_FTZ=1 in the environment every call runs with the caller's
 * flush-to-zero / denormals-are-zero set, and the harness checks that the
 * caller's environment comes back. Returns the number of failures. */
int wk_harness_compare(const wk_harness *h);

/* The exec that runs `isa` on `threads` threads. */
wk_exec wk_exec_for(int isa, int threads);

/* Sets FTZ/DAZ (x86 MXCSR) or FZ (aarch64 FPCR) on this thread; returns
 * the previous control word so wk_fp_restore can put it back. */
uint64_t wk_fp_set_flush(void);
uint64_t wk_fp_control(void);
void wk_fp_restore(uint64_t saved);

#endif /* WK_TESTS_CHECKS_H */
