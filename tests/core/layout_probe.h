/* Sizes and offsets of the public structs, as one translation unit sees
 * them. layout_probe.c is compiled twice: normally and with -fshort-enums;
 * the two tables must agree (fixed-width fields only, no enums). */
#include <stddef.h>

typedef struct wk_layout_entry { const char *what; size_t value; } wk_layout_entry;
enum { WK_LAYOUT_ENTRIES = 26 };
void wk_layout_probe(wk_layout_entry out[WK_LAYOUT_ENTRIES]);
void wk_layout_probe_short_enums(wk_layout_entry out[WK_LAYOUT_ENTRIES]);
