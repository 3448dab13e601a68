/* bench_shim.h: a small C API over Google Benchmark, so that the benchmarks
 * themselves stay C11. bench_shim.cc is the only C++ in bench/.
 *
 * A benchmark is a function that sets up (allocates, verifies), then loops:
 *
 *     static void bm(wk_bench_state *st, void *ctx) {
 *         ... setup, check output against the reference ...
 *         if (mismatch) { wk_bench_skip_with_error(st, "..."); return; }
 *         wk_bench_set_counter(st, "verified", 1.0);
 *         while (wk_bench_keep_running(st)) { kernel(...); wk_bench_clobber_memory(); }
 *         wk_bench_set_items_processed(st, wk_bench_iterations(st) * items);
 *     }
 *     wk_bench_register("family/kernel/isa/size/t1", bm, ctx, 1);
 *     return wk_bench_run(argc, argv);
 *
 * Every benchmark is timed in wall-clock (real) time, since kernels may run
 * on an OpenMP team that the benchmark's own thread only waits for.
 */
#ifndef WORLDKERN_BENCH_SHIM_H
#define WORLDKERN_BENCH_SHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wk_bench_state wk_bench_state;
typedef void (*wk_bench_fn)(wk_bench_state *st, void *ctx);

/* Registers a benchmark. `name` is copied; by convention it reads
 * family/kernel/isa/size/t<threads>. `threads_label` is the number of threads
 * the kernel runs on (the library's own team, not Google Benchmark threads);
 * it becomes the table's threads column and the JSON counter "threads".
 * `ctx` is passed to `fn` unchanged and must outlive wk_bench_run. */
void wk_bench_register(const char *name, wk_bench_fn fn, void *ctx, int threads_label);

/* Timed-loop condition: true while more iterations are wanted. */
int wk_bench_keep_running(wk_bench_state *st);

/* Iterations run so far (the full count once the loop has ended). */
int64_t wk_bench_iterations(const wk_bench_state *st);

/* Items processed over the whole run (iterations * items per iteration);
 * Google Benchmark reports items_per_second from it. */
void wk_bench_set_items_processed(wk_bench_state *st, int64_t items);
void wk_bench_set_bytes_processed(wk_bench_state *st, int64_t bytes);

/* A user counter, reported as is (JSON and table). The table reads
 * "verified" (1.0 = the output matched the reference). */
void wk_bench_set_counter(wk_bench_state *st, const char *name, double value);

/* Marks the run as failed with `msg`; call before the loop (the loop then
 * does not run) and return. The table shows verified = no. */
void wk_bench_skip_with_error(wk_bench_state *st, const char *msg);

/* Pause/resume the timer inside the loop (costly; avoid in hot loops). */
void wk_bench_pause_timing(wk_bench_state *st);
void wk_bench_resume_timing(wk_bench_state *st);

/* Out-of-line fallbacks of the barriers below. */
void wk_bench_do_not_optimize_fn(const void *p);
void wk_bench_clobber_memory_fn(void);

/* Equivalents of benchmark::DoNotOptimize / ClobberMemory. */
#if defined(__GNUC__) || defined(__clang__)
static inline void wk_bench_do_not_optimize(const void *p) {
    __asm__ volatile("" : : "r"(p) : "memory");
}
static inline void wk_bench_clobber_memory(void) { __asm__ volatile("" : : : "memory"); }
#else
#define wk_bench_do_not_optimize(p) wk_bench_do_not_optimize_fn(p)
#define wk_bench_clobber_memory() wk_bench_clobber_memory_fn()
#endif

/* Initializes Google Benchmark with argv (all --benchmark_* flags work,
 * including --benchmark_out=FILE --benchmark_out_format=json), runs the
 * selected benchmarks, then prints the summary table. Unless argv sets
 * --benchmark_min_time (or BENCHMARK_MIN_TIME is set), each benchmark runs
 * for at least 0.1 s.
 * Returns 0, 1 when a benchmark failed (error or unverified), 2 on bad flags. */
int wk_bench_run(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* WORLDKERN_BENCH_SHIM_H */
