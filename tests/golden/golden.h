/* Golden cases: each fills a buffer from fixed seeds and parameters; its
 * FNV-1a 64 hash must equal the committed one in golden_table.h.
 *
 * Changing a hash is deliberate: regenerate the table with
 *     tools/wk golden        (runs: plain_runner --print-golden)
 * and say in the commit why worlds change. */
#ifndef WK_GOLDEN_H
#define WK_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

typedef struct wk_golden_entry { const char *name; uint64_t hash; } wk_golden_entry;

/* Prints every case's hash in golden_table.h's format; returns failures. */
int wk_golden_print(void);

#endif /* WK_GOLDEN_H */
