/* Scalar reference of the voxel ray cast: one ray at a time through the
 * exact traversal (voxel_trace.c). */
#include "core/wk_fp_guard.h"

#include <math.h>

#include "voxel_impl.h"

void wk__voxel_raycast_ref(const struct wk_voxel_world *w, const wk_rays *r, const wk_hits *h, size_t begin,
                           size_t end) {
    for (size_t i = begin; i < end; i++) {
        wk__vray ray;
        ray.o[0] = r->ox[i];
        ray.o[1] = r->oy[i];
        ray.o[2] = r->oz[i];
        ray.d[0] = r->dx[i];
        ray.d[1] = r->dy[i];
        ray.d[2] = r->dz[i];
        ray.limit = r->tmax ? (double)r->tmax[i] : INFINITY;
        ray.limit_in_s = 0;
        wk__vhit hit;
        int any_nan = 0;
        for (int a = 0; a < 3; a++) any_nan |= isnan(ray.o[a]) | isnan(ray.d[a]);
        if (!any_nan && wk__voxel_trace(w, &ray, &hit)) {
            h->t[i] = hit.t;
            h->x[i] = hit.x;
            h->y[i] = hit.y;
            h->z[i] = hit.z;
            h->sub[i] = hit.sub;
            h->face[i] = hit.face;
        } else {
            h->t[i] = INFINITY;
            h->x[i] = 0;
            h->y[i] = 0;
            h->z[i] = 0;
            h->sub[i] = -1;
            h->face[i] = -1;
        }
    }
}

const wk__voxel_kernels wk__voxel_kernels_ref = {wk__voxel_raycast_ref};
