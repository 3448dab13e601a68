/* The voxel family's SIMD paths: ABSENT. Every ISA runs the scalar
 * reference (the dispatch in voxel.c is WK__DISPATCH_REF), because a packet
 * traversal bit-identical to the double-precision reference is not written
 * yet. This source is compiled once per ISA like every <family>_simd.c and
 * defines nothing. */
#include "core/wk_fp_guard.h"

typedef int wk__voxel_simd_absent;
