/* Execution: thread counts, the per-call context and the one parallel-for.
 * The only core file that includes omp.h. */
#include <stdatomic.h>

#include "wk_core.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static atomic_int requested_threads = 0; /* 0: omp_get_max_threads() */

wk_status wk_set_threads(int threads) {
    if (threads < 0) return WK_ERR_INVALID_ARG;
    atomic_store(&requested_threads, threads);
    return WK_OK;
}

/* A request capped at WK_MAX_THREADS and at OpenMP's thread limit. */
static int capped_threads(int requested) {
    int limit = WK_MAX_THREADS;
#ifdef _OPENMP
    int omp_limit = omp_get_thread_limit();
    if (omp_limit > 0 && omp_limit < limit) limit = omp_limit;
#endif
    return requested < 1 ? 1 : requested > limit ? limit : requested;
}

int wk_threads(void) {
    int threads = atomic_load(&requested_threads);
#ifdef _OPENMP
    if (threads == 0) threads = omp_get_max_threads();
#else
    if (threads == 0) threads = 1;
#endif
    return capped_threads(threads);
}

wk_status wk__begin(wk__call *call, const wk_exec *exec, const char *entry) {
    wk__detail_reset(entry);
    call->saved_env.changed = 0;
    call->runner = NULL;
    call->runner_user = NULL;
    call->threads = 1;
    call->variant = WK__REF;
    if (exec) {
        if (!wk__all_zero(exec->reserved, sizeof exec->reserved))
            return wk__fail(WK_ERR_INVALID_ARG, "exec->reserved must be zero");
        if (exec->threads < 0)
            return wk__fail(WK_ERR_INVALID_ARG, "exec->threads must be >= 0, got %d", (int)exec->threads);
        if (exec->isa < 0 || exec->isa >= WK_ISA_COUNT)
            return wk__fail(WK_ERR_INVALID_ARG, "exec->isa must be a wk_isa (0..%d), got %d",
                            WK_ISA_COUNT - 1, (int)exec->isa);
    }
    call->variant = wk__variant_for(exec ? (wk_isa)exec->isa : WK_ISA_DEFAULT);
    call->threads = exec && exec->threads > 0 ? capped_threads(exec->threads) : wk_threads();
    if (exec && exec->runner) {
        call->runner = exec->runner;
        call->runner_user = exec->runner_user;
    }
#ifdef _OPENMP
    /* Called from inside an OpenMP team (an engine's own parallel loop):
     * the caller's threads are busy already. */
    if (!call->runner && omp_in_parallel()) call->threads = 1;
#endif
    call->saved_env = wk__fpenv_enter();
    return WK_OK;
}

wk_status wk__end(wk__call *call, wk_status s) {
    wk__fpenv_leave(call->saved_env);
    call->saved_env.changed = 0;
    return s;
}

/* Below this much work (items) per part, another part costs more than it
 * saves (waking a thread is a few microseconds). */
enum { MIN_WORK_PER_PART = 16384 };

uint32_t wk__parts_for(const wk__call *call, size_t tasks, size_t work_per_task) {
    size_t parts = (size_t)call->threads;
    if (parts > tasks) parts = tasks;
    size_t worth = work_per_task == 0 ? 1
                   : tasks > SIZE_MAX / work_per_task ? SIZE_MAX / MIN_WORK_PER_PART
                                                      : tasks * work_per_task / MIN_WORK_PER_PART;
    if (parts > worth) parts = worth;
    if (parts > WK__MAX_PARTS) parts = WK__MAX_PARTS;
    return parts < 1 ? 1 : (uint32_t)parts;
}

typedef struct range_job {
    wk__range_fn body;
    void *ctx;
    size_t tasks;
    uint32_t parts;
} range_job;

/* Part p of the job: tasks [p * q + min(p, r), ...) with q, r = tasks / parts,
 * tasks % parts, in the default FP environment. */
static void run_part(void *job_ptr, uint32_t part) {
    const range_job *job = job_ptr;
    size_t q = job->tasks / job->parts, r = job->tasks % job->parts;
    size_t begin = part * q + (part < r ? part : r);
    size_t end = begin + q + (part < r ? 1 : 0);
    wk__fpenv env = wk__fpenv_enter();
    job->body(job->ctx, begin, end, part);
    wk__fpenv_leave(env);
}

void wk__parallel_for(const wk__call *call, size_t tasks, size_t work_per_task, wk__range_fn body,
                      void *ctx) {
    if (tasks == 0) return;
    range_job job = {body, ctx, tasks, wk__parts_for(call, tasks, work_per_task)};
    if (job.parts == 1) {
        body(ctx, 0, tasks, 0);
        return;
    }
    if (call->runner) {
        call->runner(call->runner_user, run_part, &job, job.parts);
        return;
    }
#ifdef _OPENMP
#pragma omp parallel for num_threads((int)job.parts) schedule(static, 1)
    for (int p = 0; p < (int)job.parts; p++) run_part(&job, (uint32_t)p);
#else
    for (uint32_t p = 0; p < job.parts; p++) run_part(&job, p);
#endif
}
