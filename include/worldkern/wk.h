/* worldkern: data-oriented SIMD and threaded kernels for game-world hot paths.
 *
 * wk.h is the core header: status codes, error detail, instruction sets,
 * threads, the per-call execution descriptor and the version. grid.h has
 * the grid and field views; each kernel family has its own header
 * (noise.h, ...), which includes what it needs.
 *
 * Conventions shared by every family:
 *  - Every public function returns wk_status; WK_OK is 0.
 *  - The caller owns all memory. Kernels never allocate.
 *  - On an error the outputs are left untouched, and wk_last_error_detail()
 *    says what was wrong.
 *  - Every kernel entry takes `const wk_exec *exec` last (NULL = defaults).
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
#define WK_VERSION_MINOR 2
#define WK_VERSION_PATCH 0
#define WK_VERSION_STRING "0.2.0"
/* One integer that compares in release order: 0x00MMmmpp. */
#define WK_VERSION_NUMBER \
    ((WK_VERSION_MAJOR << 16) | (WK_VERSION_MINOR << 8) | WK_VERSION_PATCH)

/* Public structs grow by one rule: each ends in reserved space that callers
 * must leave zero (the WK_*_DEFAULTS initializers and `= {0}` do). A field
 * added later takes reserved space, and its zero means "the default", so a
 * program compiled against an older header keeps working unchanged. Struct
 * fields use fixed-width types only (no enums), so -fshort-enums changes
 * nothing. Functions reject nonzero reserved space with WK_ERR_INVALID_ARG. */

typedef enum wk_status {
    WK_OK = 0,
    WK_ERR_NULL = 1,            /* a required pointer is NULL */
    WK_ERR_INVALID_ARG = 2,     /* an argument is outside its documented range */
    WK_ERR_NOT_FINITE = 3,      /* a parameter is NaN or infinite */
    WK_ERR_OVERFLOW = 4,        /* sizes or coordinates overflow their types */
    WK_ERR_STRIDE = 5,          /* a stride is smaller than the row it steps over */
    WK_ERR_UNSUPPORTED_ISA = 6, /* the instruction set is not built or not on this CPU */
    WK_ERR_CAPACITY = 7,        /* an output buffer is too small; the counts needed are reported */
    WK_ERR_ALIAS = 8,           /* buffers that must not overlap do */
    WK_ERR_NO_MEMORY = 9        /* an allocation failed (object-creating functions only) */
} wk_status;

/* A short English explanation of a status; never NULL (unknown codes get
 * "unknown status"). The string is static. */
WK_API const char *wk_status_str(wk_status status);

/* What the last failed worldkern call on this thread found wrong, naming
 * the function, the argument, the rule and the value, e.g.
 * "wk_noise_fbm2_grid: f->octaves must be 1..16, got 0".
 * "" after a call that succeeded. Thread-local; valid until the next
 * worldkern call on this thread. Never NULL. */
WK_API const char *wk_last_error_detail(void);

/* Instruction sets, in the order the x86 ones build on each other. */
typedef enum wk_isa {
    WK_ISA_DEFAULT = 0, /* no choice: the process default (as a cap: no cap) */
    WK_ISA_SCALAR = 1,  /* plain C reference, always available */
    WK_ISA_AVX2 = 2,    /* x86-64 AVX2 + FMA + POPCNT */
    WK_ISA_AVX512 = 3,  /* x86-64 AVX-512 F/BW/DQ/VL (byte permutes, popcounts with VBMI, BITALG) */
    WK_ISA_NEON = 4     /* aarch64 Advanced SIMD */
} wk_isa;
#define WK_ISA_COUNT 5

/* ISA caps. A cap names the most capable ISA a call may run: the best
 * supported ISA at or below it, where scalar < avx2 < avx512 on x86-64 and
 * scalar < neon on aarch64 (a cap of avx2 or avx512 on aarch64 means neon,
 * a cap of neon on x86-64 means avx2). A supported ISA used as a cap runs
 * exactly that ISA.
 *
 * The process cap comes from the environment variable WK_ISA (read once,
 * case-insensitive: default, scalar, avx2, avx512 or neon), then from
 * wk_set_isa(). A per-call cap (wk_exec.isa) lowers it further. */

/* The ISA kernels run on under the process cap (no per-call cap). */
WK_API wk_isa wk_isa_active(void);

/* Nonzero when `isa` is built into the library and supported by this CPU
 * (WK_ISA_DEFAULT: 0). */
WK_API int wk_isa_supported(wk_isa isa);

/* Sets the process cap. WK_ISA_DEFAULT removes it (best ISA again).
 * WK_ERR_UNSUPPORTED_ISA, and no change, when wk_isa_supported(isa) is 0,
 * so that a caller asking for avx2 runs avx2 or hears why not. */
WK_API wk_status wk_set_isa(wk_isa isa);

/* "default", "scalar", "avx2", "avx512" or "neon"; "unknown" otherwise. */
WK_API const char *wk_isa_name(wk_isa isa);

/* When WK_ISA is set to something that names no supported ISA, the kernels
 * run the best ISA, the problem is printed once on stderr, and this returns
 * that message; NULL when WK_ISA is unset or valid. */
WK_API const char *wk_isa_env_warning(void);

/* Most threads one call uses; larger requests are capped to it (and to
 * OpenMP's thread limit), never an error or a failed thread creation. */
#define WK_MAX_THREADS 256

/* Process default thread count for kernels that split work. 0 (the
 * default) means omp_get_max_threads(), so OMP_NUM_THREADS is honoured;
 * a negative count is WK_ERR_INVALID_ARG. Results never depend on the
 * thread count. Without OpenMP, and without a task runner, kernels run on
 * the calling thread. */
WK_API wk_status wk_set_threads(int threads);
/* The thread count a call with no wk_exec gets now (capped, >= 1). */
WK_API int wk_threads(void);

/* A part of a kernel call's parallel work: runs part `index`. */
typedef void (*wk_task_fn)(void *task_ctx, uint32_t index);

/* An engine's job system. Must run task(task_ctx, i) exactly once for every
 * i in [0, count), on any threads, in any order, concurrently or not, and
 * return only when all have returned. worldkern sets the floating-point
 * environment it needs inside each task and restores the worker's. */
typedef void (*wk_task_runner)(void *runner_user, wk_task_fn task, void *task_ctx, uint32_t count);

/* Per-call execution: the last parameter of every kernel entry point.
 * NULL, or any field left zero, means the process default.
 * threads  0 = process default (wk_set_threads), 1 = the calling thread
 *          only, n = at most n parts at once (capped at WK_MAX_THREADS);
 *          negative: WK_ERR_INVALID_ARG.
 * isa      a wk_isa cap for this call (see above); WK_ISA_DEFAULT = none.
 * runner   when not NULL, parallel parts (at most `threads` of them) go to
 *          runner(runner_user, ...) instead of OpenMP.
 * reserved must be zero.
 *
 * Every kernel may be called from any number of threads at once. Each call
 * computes in the default floating-point environment (round to nearest, no
 * flush-to-zero, no denormals-are-zero) on every thread it uses, whatever
 * the caller set, and gives the caller's environment back on return. */
typedef struct wk_exec {
    int32_t threads;
    int32_t isa;
    wk_task_runner runner;
    void *runner_user;
    uint64_t reserved[4];
} wk_exec;
#define WK_EXEC_DEFAULTS {0, 0, 0, 0, {0, 0, 0, 0}}

/* Optional allocator hooks for the objects that own memory (a voxel world,
 * a fracture graph); kernels themselves never allocate. alloc(user, bytes)
 * returns memory aligned to at least 16 bytes, or NULL on failure (a voxel
 * world keeps flags in its chunk addresses: it refuses a chunk that is not
 * 8-aligned or, on x86-64, lies at or above 2^56, e.g. a tagged pointer,
 * with WK_ERR_NO_MEMORY);
 * free(user, p, bytes) gets back exactly what alloc returned, with the same
 * size. Both NULL (or a NULL wk_allocator pointer): the C library's malloc
 * and free. Exactly one NULL is WK_ERR_INVALID_ARG. reserved must be zero. */
typedef struct wk_allocator {
    void *(*alloc)(void *user, size_t bytes);
    void (*free)(void *user, void *p, size_t bytes);
    void *user;
    uint64_t reserved[2];
} wk_allocator;
#define WK_ALLOCATOR_DEFAULTS {0, 0, 0, {0, 0}}

/* WK_VERSION_STRING of the library actually linked. */
WK_API const char *wk_version(void);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_WK_H */
