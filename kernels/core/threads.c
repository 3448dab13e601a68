/* Thread count for kernels that split work across an OpenMP team. */
#include <stdatomic.h>

#include "wk_core.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static atomic_int requested_threads = 0; /* 0: all cores */

wk_status wk_set_threads(int threads) {
    if (threads < 0) return WK_ERR_INVALID_ARG;
    atomic_store(&requested_threads, threads);
    return WK_OK;
}

int wk_threads(void) {
#ifdef _OPENMP
    int threads = atomic_load(&requested_threads);
    return threads > 0 ? threads : omp_get_num_procs();
#else
    return 1;
#endif
}

int wk_threads_for(size_t items, size_t min_items_per_thread) {
    int threads = wk_threads();
    size_t useful = min_items_per_thread ? items / min_items_per_thread : items;
    if (useful < (size_t)threads) threads = useful > 1 ? (int)useful : 1;
    return threads;
}
