/* The benchmark program: every family's bench_<family>.c registers its
 * benchmarks (wk_bench_register_<family>), then Google Benchmark runs the
 * selection. CMake generates the family list from the bench_*.c files. */
#include "bench_families.h"
#include "bench_shim.h"

#define DECLARE(family) void wk_bench_register_##family(void);
WK_BENCH_FAMILIES(DECLARE)

int main(int argc, char **argv) {
#define REGISTER(family) wk_bench_register_##family();
    WK_BENCH_FAMILIES(REGISTER)
    return wk_bench_run(argc, argv);
}
