/* Scalar reference of the voxel ray cast: one ray at a time through the
 * exact traversal (voxel_trace.c). */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "voxel_impl.h"

void wk__voxel_raycast_ref(const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t begin,
                           size_t end) {
    for (size_t i = begin; i < end; i++) {
        wk__vray ray;
        wk__vhit hit;
        if (wk__vray_load(r, i, &ray) && wk__voxel_trace(w, &ray, &hit)) {
            wk__voxel_write_hit(h, i, hit.t, hit.x, hit.y, hit.z, hit.sub, hit.face);
        } else {
            wk__voxel_write_miss(h, i);
        }
    }
}

const wk__voxel_kernels wk__voxel_kernels_ref = {wk__voxel_raycast_ref};
