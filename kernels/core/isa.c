/* Which instruction set the kernels run on: the process cap (WK_ISA,
 * wk_set_isa) and per-call caps, resolved to a dispatch variant. */
#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "wk_core.h"

/* What the build compiled in; CMake defines WK_HAVE_<ISA>. */
static unsigned built_isa_mask(void) {
    unsigned mask = 1u << WK_ISA_SCALAR;
#ifdef WK_HAVE_AVX2
    mask |= 1u << WK_ISA_AVX2;
#endif
#ifdef WK_HAVE_AVX512
    mask |= 1u << WK_ISA_AVX512;
#endif
#ifdef WK_HAVE_NEON
    mask |= 1u << WK_ISA_NEON;
#endif
    return mask;
}

static const char *const isa_names[WK_ISA_COUNT] = {"default", "scalar", "avx2", "avx512", "neon"};

const char *wk_isa_name(wk_isa isa) {
    return (unsigned)isa < WK_ISA_COUNT ? isa_names[isa] : "unknown";
}

const char *wk__variant_name(wk__variant v) {
    static const char *const names[WK__VARIANTS] = {"ref", "avx2", "avx512", "avx512vbmi", "neon"};
    return (unsigned)v < WK__VARIANTS ? names[v] : "unknown";
}

/* Built in and on this CPU (the CPU probe is cached). */
static unsigned supported_mask(void) { return built_isa_mask() & wk__cpu_isa_mask(); }

int wk_isa_supported(wk_isa isa) {
    if (isa <= WK_ISA_DEFAULT || (unsigned)isa >= WK_ISA_COUNT) return 0;
    return (supported_mask() >> isa) & 1;
}

/* Capability level used by caps: scalar 0, avx2 and neon 1, avx512 2. */
static int isa_level(wk_isa isa) {
    switch (isa) {
    case WK_ISA_AVX2: case WK_ISA_NEON: return 1;
    case WK_ISA_AVX512: return 2;
    case WK_ISA_DEFAULT: return 3; /* no cap */
    default: return 0;
    }
}

/* The best supported ISA at or below the cap. */
static wk_isa best_under(wk_isa cap) {
    unsigned supported = supported_mask();
    wk_isa best = WK_ISA_SCALAR;
    for (int isa = WK_ISA_SCALAR + 1; isa < WK_ISA_COUNT; isa++)
        if (((supported >> isa) & 1) && isa_level((wk_isa)isa) <= isa_level(cap) &&
            isa_level((wk_isa)isa) >= isa_level(best))
            best = (wk_isa)isa;
    return best;
}

static int equals_ignoring_case(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

static char env_warning[160];

/* WK_ISA, read once: a cap, or WK_ISA_DEFAULT (with a warning when the
 * value names no supported ISA). */
static wk_isa env_cap(void) {
    const char *env = getenv("WK_ISA");
    if (!env || !*env) return WK_ISA_DEFAULT;
    for (int isa = WK_ISA_DEFAULT; isa < WK_ISA_COUNT; isa++)
        if (equals_ignoring_case(env, isa_names[isa])) {
            if (isa == WK_ISA_DEFAULT || wk_isa_supported((wk_isa)isa)) return (wk_isa)isa;
            snprintf(env_warning, sizeof env_warning,
                     "worldkern: WK_ISA=%.40s is not supported here; running %s", env,
                     wk_isa_name(best_under(WK_ISA_DEFAULT)));
            fprintf(stderr, "%s\n", env_warning);
            return WK_ISA_DEFAULT;
        }
    snprintf(env_warning, sizeof env_warning,
             "worldkern: WK_ISA=%.40s names no ISA (default, scalar, avx2, avx512, neon); running %s",
             env, wk_isa_name(best_under(WK_ISA_DEFAULT)));
    fprintf(stderr, "%s\n", env_warning);
    return WK_ISA_DEFAULT;
}

/* The process cap; -1 until first use (racing first calls agree, and the
 * environment is read under a once-flag so the warning prints once). */
static atomic_int process_cap = -1;
static atomic_flag env_read = ATOMIC_FLAG_INIT;
static atomic_int env_result = -1;

static wk_isa current_cap(void) {
    int cap = atomic_load_explicit(&process_cap, memory_order_acquire);
    if (cap >= 0) return (wk_isa)cap;
    if (!atomic_flag_test_and_set(&env_read)) atomic_store(&env_result, (int)env_cap());
    while ((cap = atomic_load(&env_result)) < 0) {
    }
    int expected = -1;
    if (!atomic_compare_exchange_strong(&process_cap, &expected, cap)) cap = expected;
    return (wk_isa)cap;
}

const char *wk_isa_env_warning(void) {
    current_cap();
    return env_warning[0] ? env_warning : NULL;
}

wk_isa wk_isa_active(void) { return best_under(current_cap()); }

wk_status wk_set_isa(wk_isa isa) {
    if (isa != WK_ISA_DEFAULT && !wk_isa_supported(isa)) return WK_ERR_UNSUPPORTED_ISA;
    current_cap(); /* read WK_ISA first so it cannot overwrite this later */
    atomic_store_explicit(&process_cap, (int)isa, memory_order_release);
    return WK_OK;
}

/* The variant for the process cap lowered by a per-call cap. */
wk__variant wk__variant_for(wk_isa call_cap) {
    wk_isa isa = wk_isa_active();
    if (call_cap != WK_ISA_DEFAULT && isa_level(call_cap) < isa_level(isa)) isa = best_under(call_cap);
    switch (isa) {
    case WK_ISA_AVX2: return WK__AVX2;
    case WK_ISA_AVX512: return wk__cpu_has_avx512vbmi() ? WK__AVX512VBMI : WK__AVX512;
    case WK_ISA_NEON: return WK__NEON;
    default: return WK__REF;
    }
}
