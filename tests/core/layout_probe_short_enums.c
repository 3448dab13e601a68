/* layout_probe.c again, compiled with -fshort-enums (tests/CMakeLists.txt). */
#define WK_LAYOUT_PROBE_NAME wk_layout_probe_short_enums
#include "layout_probe.c"
