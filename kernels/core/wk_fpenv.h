/* The floating-point environment kernels compute in: round to nearest,
 * no flush-to-zero, no denormals-are-zero (MXCSR on x86-64, FPCR on
 * aarch64). Games often set FTZ/DAZ, and OpenMP workers keep whatever
 * environment they were created with, so every call and every worker part
 * enters the default and leaves with the previous one. Entering costs a
 * register read when the environment is already the default. */
#ifndef WK_FPENV_H
#define WK_FPENV_H

#include <stdint.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>

typedef struct wk__fpenv { uint32_t saved; int changed; } wk__fpenv;

enum { WK__MXCSR_FLAGS = 0x3F, WK__MXCSR_DEFAULT = 0x1F80 };

static inline wk__fpenv wk__fpenv_enter(void) {
    wk__fpenv e;
    e.saved = _mm_getcsr();
    e.changed = (e.saved & ~(uint32_t)WK__MXCSR_FLAGS) != WK__MXCSR_DEFAULT;
    if (e.changed) _mm_setcsr(WK__MXCSR_DEFAULT | (e.saved & WK__MXCSR_FLAGS));
    return e;
}

/* Restores the control bits; exception flags raised meanwhile stay raised. */
static inline void wk__fpenv_leave(wk__fpenv e) {
    if (e.changed) _mm_setcsr(e.saved | (_mm_getcsr() & WK__MXCSR_FLAGS));
}

#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))

typedef struct wk__fpenv { uint64_t saved; int changed; } wk__fpenv;

/* FPCR: FZ16 (19), RMode (22-23), FZ (24), DN (25), AHP (26). */
#define WK__FPCR_CONTROL ((1ull << 19) | (3ull << 22) | (1ull << 24) | (1ull << 25) | (1ull << 26))

static inline uint64_t wk__fpcr_read(void) {
    uint64_t v;
    __asm__ volatile("mrs %0, fpcr" : "=r"(v));
    return v;
}
static inline void wk__fpcr_write(uint64_t v) { __asm__ volatile("msr fpcr, %0" : : "r"(v)); }

static inline wk__fpenv wk__fpenv_enter(void) {
    wk__fpenv e;
    e.saved = wk__fpcr_read();
    e.changed = (e.saved & WK__FPCR_CONTROL) != 0;
    if (e.changed) wk__fpcr_write(e.saved & ~WK__FPCR_CONTROL);
    return e;
}
static inline void wk__fpenv_leave(wk__fpenv e) {
    if (e.changed) wk__fpcr_write(e.saved);
}

#else
#include <fenv.h>

/* Elsewhere only the rounding mode is known to C. */
typedef struct wk__fpenv { int saved; int changed; } wk__fpenv;

static inline wk__fpenv wk__fpenv_enter(void) {
    wk__fpenv e;
    e.saved = fegetround();
    e.changed = e.saved != FE_TONEAREST;
    if (e.changed) fesetround(FE_TONEAREST);
    return e;
}
static inline void wk__fpenv_leave(wk__fpenv e) {
    if (e.changed) fesetround(e.saved);
}
#endif

#endif /* WK_FPENV_H */
