/* See layout_probe.h. Built a second time as layout_probe_short_enums.c. */
#include <stddef.h>

#include "layout_probe.h"
#include "worldkern/grid.h"
#include "worldkern/noise.h"
#include "worldkern/wk.h"

#ifndef WK_LAYOUT_PROBE_NAME
#define WK_LAYOUT_PROBE_NAME wk_layout_probe
#endif

#define ENTRY(what) {#what, what}

void WK_LAYOUT_PROBE_NAME(wk_layout_entry out[WK_LAYOUT_ENTRIES]) {
    const wk_layout_entry table[WK_LAYOUT_ENTRIES] = {
        ENTRY(sizeof(wk_exec)),
        ENTRY(offsetof(wk_exec, isa)),
        ENTRY(offsetof(wk_exec, runner)),
        ENTRY(offsetof(wk_exec, runner_user)),
        ENTRY(offsetof(wk_exec, reserved)),
        ENTRY(sizeof(wk_grid2)),
        ENTRY(offsetof(wk_grid2, nx)),
        ENTRY(offsetof(wk_grid2, step)),
        ENTRY(offsetof(wk_grid2, stride)),
        ENTRY(offsetof(wk_grid2, reserved)),
        ENTRY(sizeof(wk_grid3)),
        ENTRY(offsetof(wk_grid3, nx)),
        ENTRY(offsetof(wk_grid3, step)),
        ENTRY(offsetof(wk_grid3, slice_stride)),
        ENTRY(sizeof(wk_field2)),
        ENTRY(offsetof(wk_field2, w)),
        ENTRY(offsetof(wk_field2, stride)),
        ENTRY(sizeof(wk_field3)),
        ENTRY(offsetof(wk_field3, d)),
        ENTRY(offsetof(wk_field3, slice_stride)),
        ENTRY(sizeof(wk_fbm)),
        ENTRY(offsetof(wk_fbm, octaves)),
        ENTRY(offsetof(wk_fbm, frequency)),
        ENTRY(offsetof(wk_fbm, lacunarity)),
        ENTRY(offsetof(wk_fbm, gain)),
        ENTRY(offsetof(wk_fbm, reserved)),
    };
    for (int i = 0; i < WK_LAYOUT_ENTRIES; i++) out[i] = table[i];
}
