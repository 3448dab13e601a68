/* worldkern: data-oriented SIMD and threaded kernels for game-world hot paths.
 *
 * wk.h is the core header: status codes, instruction-set selection, threads
 * and version. Each kernel family has its own header (noise.h, ...), which
 * includes this one.
 *
 * Conventions shared by every family:
 *  - Every public function returns wk_status; WK_OK is 0.
 *  - The caller owns all memory. Kernels never allocate.
 *  - On an error the outputs are left untouched.
 *  - Results are bit-identical across instruction sets, thread counts and
 *    however a grid is cut into sub-grids, unless a header states a bound.
 */
#ifndef WORLDKERN_WK_H
#define WORLDKERN_WK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the public API: the shared library exports nothing else. On
 * Windows the DLL build defines WORLDKERN_BUILDING_DLL, and consumers of the
 * DLL get WK_SHARED from the worldkern::worldkern target (static users: none). */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(WORLDKERN_BUILDING_DLL)
#define WK_API __declspec(dllexport)
#elif defined(WK_SHARED)
#define WK_API __declspec(dllimport)
#else
#define WK_API
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define WK_API __attribute__((visibility("default")))
#else
#define WK_API
#endif

#define WK_VERSION_MAJOR 0
#define WK_VERSION_MINOR 1
#define WK_VERSION_PATCH 0
#define WK_VERSION_STRING "0.1.0"
/* One integer that compares in release order: 0x00MMmmpp. */
#define WK_VERSION_NUMBER \
    ((WK_VERSION_MAJOR << 16) | (WK_VERSION_MINOR << 8) | WK_VERSION_PATCH)

typedef enum wk_status {
    WK_OK = 0,
    WK_ERR_NULL = 1,            /* a required pointer is NULL */
    WK_ERR_INVALID_ARG = 2,     /* an argument is outside its documented range */
    WK_ERR_NOT_FINITE = 3,      /* a parameter is NaN or infinite */
    WK_ERR_OVERFLOW = 4,        /* sizes or coordinates overflow their types */
    WK_ERR_STRIDE = 5,          /* a stride is smaller than the row it steps over */
    WK_ERR_UNSUPPORTED_ISA = 6  /* the instruction set is not built or not on this CPU */
} wk_status;

/* A short English explanation of a status; never NULL (unknown codes get
 * "unknown status"). The string is static. */
WK_API const char *wk_status_str(wk_status status);

typedef enum wk_isa {
    WK_ISA_SCALAR = 0,  /* plain C reference, always available */
    WK_ISA_AVX2 = 1,    /* x86-64 AVX2 + FMA */
    WK_ISA_AVX512 = 2,  /* x86-64 AVX-512 F/BW/DQ/VL (byte permutes with VBMI) */
    WK_ISA_NEON = 3     /* aarch64 Advanced SIMD */
} wk_isa;
#define WK_ISA_COUNT 4

/* The instruction set kernels run on now. Chosen on first use: the best one
 * that is both built into the library and reported by the CPU (cpuid + xgetbv
 * on x86, HWCAP on aarch64), capped by the environment variable
 * WK_ISA=scalar|avx2|avx512|neon (read once; an unknown or unsupported value
 * leaves the best choice in place) and by wk_set_isa(). */
WK_API wk_isa wk_isa_active(void);

/* Nonzero when `isa` is built into the library and supported by this CPU. */
WK_API int wk_isa_supported(wk_isa isa);

/* Run every kernel on `isa` from now on. WK_ERR_UNSUPPORTED_ISA (and no
 * change) when wk_isa_supported(isa) is 0. Process-wide; intended for tests,
 * benchmarks and users who need one path. */
WK_API wk_status wk_set_isa(wk_isa isa);

/* "scalar", "avx2", "avx512" or "neon"; "unknown" for other values. */
WK_API const char *wk_isa_name(wk_isa isa);

/* Threads used by kernels that split work (OpenMP underneath). 0 means all
 * cores (the default); a negative count is WK_ERR_INVALID_ARG. Results never
 * depend on the thread count. Without OpenMP support wk_threads() is 1. */
WK_API wk_status wk_set_threads(int threads);
WK_API int wk_threads(void);

/* WK_VERSION_STRING of the library actually linked. */
WK_API const char *wk_version(void);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_WK_H */
