/* Which instruction set the kernels run on: chosen once, cached atomically. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

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

static const char *const isa_names[WK_ISA_COUNT] = {"scalar", "avx2", "avx512", "neon"};

const char *wk_isa_name(wk_isa isa) {
    return (unsigned)isa < WK_ISA_COUNT ? isa_names[isa] : "unknown";
}

int wk_isa_supported(wk_isa isa) {
    if ((unsigned)isa >= WK_ISA_COUNT) return 0;
    return ((built_isa_mask() & wk_cpu_isa_mask()) >> isa) & 1;
}

/* The best supported ISA, capped by WK_ISA when it names a supported one. */
static wk_isa initial_isa(void) {
    wk_isa best = WK_ISA_SCALAR;
    for (int isa = 0; isa < WK_ISA_COUNT; isa++)
        if (wk_isa_supported((wk_isa)isa)) best = (wk_isa)isa;
    const char *env = getenv("WK_ISA");
    if (env)
        for (int isa = 0; isa < WK_ISA_COUNT; isa++)
            if (strcmp(env, isa_names[isa]) == 0 && wk_isa_supported((wk_isa)isa))
                return (wk_isa)isa;
    return best;
}

/* -1 until first use; racing first calls compute the same value. */
static atomic_int active_isa = -1;

wk_isa wk_isa_active(void) {
    int isa = atomic_load_explicit(&active_isa, memory_order_acquire);
    if (isa < 0) {
        int expected = -1;
        isa = (int)initial_isa();
        if (!atomic_compare_exchange_strong(&active_isa, &expected, isa)) isa = expected;
    }
    return (wk_isa)isa;
}

wk_status wk_set_isa(wk_isa isa) {
    if (!wk_isa_supported(isa)) return WK_ERR_UNSUPPORTED_ISA;
    atomic_store_explicit(&active_isa, (int)isa, memory_order_release);
    return WK_OK;
}
