/* CPU feature detection: cpuid + xgetbv on x86-64; NEON is mandatory on aarch64. */
#include <stdatomic.h>

#include "wk_core.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long read_xcr0(void) {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

/* Leaf 7 sub-leaf 0 registers, or zeros when the leaf is absent. */
static void cpuid7(unsigned *ebx, unsigned *ecx) {
    unsigned eax, edx;
    *ebx = *ecx = 0;
    if (__get_cpuid_max(0, 0) >= 7) __cpuid_count(7, 0, eax, *ebx, *ecx, edx);
}

static unsigned detect_isa_mask(void) {
    unsigned mask = 1u << WK_ISA_SCALAR;
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return mask;
    int osxsave = (ecx >> 27) & 1, fma = (ecx >> 12) & 1, avx = (ecx >> 28) & 1;
    int popcnt = (ecx >> 23) & 1; /* every AVX2 CPU has it; the AVX2 objects are built with -mpopcnt */
    if (!osxsave || !avx) return mask;
    unsigned long long xcr0 = read_xcr0();
    int ymm_state = (xcr0 & 0x6) == 0x6;      /* SSE and AVX state saved by the OS */
    int zmm_state = (xcr0 & 0xe6) == 0xe6;    /* plus opmask and both ZMM halves */
    unsigned b7, c7;
    cpuid7(&b7, &c7);
    int avx2 = (b7 >> 5) & 1;
    int avx512 = ((b7 >> 16) & 1) && ((b7 >> 17) & 1) && ((b7 >> 30) & 1) && ((b7 >> 31) & 1);
    if (ymm_state && avx2 && fma && popcnt) mask |= 1u << WK_ISA_AVX2;
    if (zmm_state && avx2 && fma && popcnt && avx512) mask |= 1u << WK_ISA_AVX512;
    return mask;
}

/* The VBMI variant needs byte permutes (AVX512_VBMI) and byte popcounts
 * (AVX512_BITALG): Ice Lake, Sapphire Rapids, Zen 4 and later have both.
 * WK_AVX512_VBMI=0 in the environment hides it, so that tests can run the
 * plain AVX-512 path on a CPU that has them. */
static int detect_avx512vbmi(void) {
    unsigned b7, c7;
    cpuid7(&b7, &c7);
    const char *env = getenv("WK_AVX512_VBMI");
    if (env && strcmp(env, "0") == 0) return 0;
    return (detect_isa_mask() >> WK_ISA_AVX512) & (c7 >> 1) & (c7 >> 12) & 1;
}

/* cpuid can trap to the hypervisor on virtual machines: detect once.
 * Bit 31 marks the cache as filled; racing first calls store the same value. */
static atomic_uint cpu_features;

static unsigned features(void) {
    unsigned f = atomic_load_explicit(&cpu_features, memory_order_relaxed);
    if (!f) {
        f = 0x80000000u | detect_isa_mask() | ((unsigned)detect_avx512vbmi() << 8);
        atomic_store_explicit(&cpu_features, f, memory_order_relaxed);
    }
    return f;
}

unsigned wk__cpu_isa_mask(void) { return features() & 0xFFu; }

int wk__cpu_has_avx512vbmi(void) { return (features() >> 8) & 1; }

#elif defined(__aarch64__) || defined(_M_ARM64)
/* Advanced SIMD is mandatory on AArch64 (Linux, macOS, Windows alike), so
 * there is nothing to probe. */
unsigned wk__cpu_isa_mask(void) { return (1u << WK_ISA_SCALAR) | (1u << WK_ISA_NEON); }

int wk__cpu_has_avx512vbmi(void) { return 0; }

#else
unsigned wk__cpu_isa_mask(void) { return 1u << WK_ISA_SCALAR; }
int wk__cpu_has_avx512vbmi(void) { return 0; }
#endif
