/* Internal core services shared by every kernel family: the per-call
 * context (ISA variant, threads, floating-point environment), the one
 * parallel-for, error details and view checks. Internal symbols are named
 * wk__* and have hidden visibility. Family code never includes omp.h.
 *
 * The shape of a public entry point:
 *
 *     wk_status wk_fam_verb(..., const wk_exec *exec) {
 *         wk__call call;
 *         wk_status s = wk__begin(&call, exec, __func__);
 *         if (s == WK_OK) s = verb_run(&call, ...);   // validate, then work
 *         return wk__end(&call, s);
 *     }
 *
 * wk__begin sets the default floating-point environment before any
 * argument is looked at (DAZ would turn a denormal step into 0), and
 * wk__end gives the caller's back. */
#ifndef WK_CORE_H
#define WK_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "worldkern/grid.h"
#include "worldkern/wk.h"
#include "wk_dispatch.h"
#include "wk_fpenv.h"

/* ------------------------------------------------------------ CPU probe */

/* Bit (1 << isa) set for each ISA this CPU can run, scalar always included.
 * Says nothing about what is built in; see wk_isa_supported(). */
unsigned wk__cpu_isa_mask(void);

/* Nonzero when the CPU has AVX-512 VBMI (byte permutes) and BITALG (byte
 * popcounts) and the environment does not hide them (WK_AVX512_VBMI=0). */
int wk__cpu_has_avx512vbmi(void);

/* The dispatch variant for the process cap lowered by a per-call cap. */
wk__variant wk__variant_for(wk_isa call_cap);

/* ---------------------------------------------------------- call context */

typedef struct wk__call {
    wk__variant variant;     /* which per-ISA implementation runs */
    int threads;             /* most parts run at once, >= 1 */
    wk_task_runner runner;   /* NULL: OpenMP (or the caller's thread) */
    void *runner_user;
    wk__fpenv saved_env;     /* the caller's, given back by wk__end */
} wk__call;

/* Resolves exec (NULL = defaults) into call and enters the default FP
 * environment. On an error (bad exec) the environment is left as it was;
 * wk__end must still be called. */
wk_status wk__begin(wk__call *call, const wk_exec *exec, const char *entry);

/* Gives the caller's FP environment back; returns s. */
wk_status wk__end(wk__call *call, wk_status s);

/* Runs body(ctx, begin, end, part) over [0, tasks) cut into contiguous
 * ranges, one per part, parts running at once on the call's threads (an
 * OpenMP team or the engine's runner), each in the default FP environment.
 * `work_per_task` (items, about) decides how many parts are worth it: small
 * work runs on the calling thread, with no team. Parts number at most
 * WK__MAX_PARTS, so a reduction can keep one partial result per part.
 * Results must not depend on the cut: families make each task's output
 * independent of which part runs it. */
#define WK__MAX_PARTS WK_MAX_THREADS
typedef void (*wk__range_fn)(void *ctx, size_t begin, size_t end, uint32_t part);
void wk__parallel_for(const wk__call *call, size_t tasks, size_t work_per_task, wk__range_fn body,
                      void *ctx);

/* Parts wk__parallel_for would use for this work (>= 1). */
uint32_t wk__parts_for(const wk__call *call, size_t tasks, size_t work_per_task);

/* -------------------------------------------------------------- errors */

/* Records "entry: message" as this thread's error detail and returns code. */
wk_status wk__fail(wk_status code, const char *fmt, ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 2, 3))) /* C99 stdio (__USE_MINGW_ANSI_STDIO) */
#elif defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Clears the detail and names the entry point later failures report. */
void wk__detail_reset(const char *entry);

/* Nonzero when n bytes at p are all zero (the reserved-space rule). */
int wk__all_zero(const void *p, size_t n);

/* Nonzero when [a, a + abytes) and [b, b + bbytes) share a byte. */
int wk__overlap(const void *a, size_t abytes, const void *b, size_t bbytes);

/* The hooks to use for `given` (NULL or both NULL: malloc/free), checked
 * (reserved zero, both or neither set); `name` names it in the detail. */
wk_status wk__allocator_resolve(const wk_allocator *given, const char *name, wk_allocator *out);

/* ------------------------------------------------------- views (grid.h) */

/* Checks a grid's reserved space, step (finite, > 0), strides and extent.
 * *floats gets the output extent in floats (0 for an empty grid). `name`
 * names the argument in the error detail. */
wk_status wk__check_grid2(const wk_grid2 *g, const char *name, size_t *floats);
wk_status wk__check_grid3(const wk_grid3 *g, const char *name, size_t *floats);

/* Checks a field: v not NULL, w >= min_w and h >= min_h (d >= min_d),
 * strides, extent, reserved space. */
wk_status wk__check_field2(const wk_field2 *f, const char *name, uint32_t min_w, uint32_t min_h);
wk_status wk__check_field3(const wk_field3 *f, const char *name, uint32_t min_w, uint32_t min_h,
                           uint32_t min_d);

/* Floats from the first node to one past the last (0 when empty). */
size_t wk__field2_extent(const wk_field2 *f);
size_t wk__field3_extent(const wk_field3 *f);

#endif /* WK_CORE_H */
