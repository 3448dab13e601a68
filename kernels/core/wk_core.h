/* Internal core services shared by every kernel family. */
#ifndef WK_CORE_H
#define WK_CORE_H

#include <stddef.h>

#include "worldkern/wk.h"

/* Bit (1 << isa) set for each ISA this CPU can run, scalar always included.
 * Says nothing about what is built in; see wk_isa_supported(). */
unsigned wk_cpu_isa_mask(void);

/* Nonzero when the CPU has AVX-512 VBMI (byte permutes). */
int wk_cpu_has_avx512vbmi(void);

/* Threads to use for `items` units of work costing about the same each:
 * wk_threads(), but 1 when the work is too small to be worth a team. */
int wk_threads_for(size_t items, size_t min_items_per_thread);

#endif /* WK_CORE_H */
