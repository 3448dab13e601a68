/* Signed volumes, masses and closedness of triangle meshes. Scalar double
 * arithmetic on every ISA (the sum runs in triangle order), so every ISA
 * and thread count gives the same bits. */
#include "core/wk_fp_guard.h"

#include <math.h>
#include <string.h>

#include "core/wk_core.h"
#include "worldkern/fracture.h"

/* Three arrays of three directed edges (uint64_t) per triangle. */
enum { EDGE_BYTES = 9 * sizeof(uint64_t), ALIGN = 16 };

wk_status wk_fracture_volumes_workspace_size(uint32_t tri_count, size_t *bytes) {
    wk__detail_reset(__func__);
    if (!bytes) return wk__fail(WK_ERR_NULL, "bytes is NULL");
    if ((double)tri_count > (double)(SIZE_MAX - ALIGN) / EDGE_BYTES)
        return wk__fail(WK_ERR_OVERFLOW, "tri_count %u overflows size_t bytes", tri_count);
    *bytes = (size_t)tri_count * EDGE_BYTES + ALIGN;
    return WK_OK;
}

typedef struct vol_job {
    const wk_meshes *m;
    double density;
    uint64_t *edges; /* 3 per triangle, or NULL */
    double *volumes, *masses;
    uint8_t *flags;
} vol_job;

/* Sorts n keys (LSD radix, 8-bit digits, digits every key shares are
 * skipped); the result is in *a or *tmp, returned. */
static uint64_t *sort_keys(uint64_t *a, uint64_t *tmp, size_t n) {
    size_t count[256];
    for (int shift = 0; shift < 64; shift += 8) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++) count[a[i] >> shift & 255]++;
        if (count[a[0] >> shift & 255] == n) continue;
        size_t sum = 0;
        for (int b = 0; b < 256; b++) {
            size_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) tmp[count[a[i] >> shift & 255]++] = a[i];
        uint64_t *t = a;
        a = tmp;
        tmp = t;
    }
    return a;
}

static void one_mesh(const vol_job *job, uint32_t k) {
    const wk_meshes *m = job->m;
    uint32_t t0 = m->tri_start[k], t1 = m->tri_start[k + 1];
    const uint32_t *tri = m->tris;
    uint8_t flags = 0;
    double volume = 0;
    if (t0 == t1) {
        flags |= WK_MESH_EMPTY;
    } else {
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        const float *v[3] = {m->vx, m->vy, m->vz};
        for (size_t t = 3 * (size_t)t0; t < 3 * (size_t)t1; t++)
            for (int a = 0; a < 3; a++) {
                double c = v[a][tri[t]];
                if (c < lo[a]) lo[a] = c;
                if (c > hi[a]) hi[a] = c;
            }
        double r[3];
        for (int a = 0; a < 3; a++) r[a] = lo[a] * 0.5 + hi[a] * 0.5;
        double sum = 0;
        for (uint32_t t = t0; t < t1; t++) {
            uint32_t ia = tri[3 * (size_t)t], ib = tri[3 * (size_t)t + 1], ic = tri[3 * (size_t)t + 2];
            if (ia == ib || ib == ic || ia == ic) flags |= WK_MESH_DEGENERATE;
            double ax = (double)m->vx[ia] - r[0], ay = (double)m->vy[ia] - r[1], az = (double)m->vz[ia] - r[2];
            double bx = (double)m->vx[ib] - r[0], by = (double)m->vy[ib] - r[1], bz = (double)m->vz[ib] - r[2];
            double cx = (double)m->vx[ic] - r[0], cy = (double)m->vy[ic] - r[1], cz = (double)m->vz[ic] - r[2];
            sum += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
        }
        volume = sum / 6.0;
        if (volume < 0) flags |= WK_MESH_INVERTED;
        if (job->flags) {
            /* Closed with consistent winding: every directed edge (a, b)
             * appears once and (b, a) once, i.e. the sorted directed edges
             * have no repeats and equal the sorted reversed edges. */
            size_t slot = 3 * (size_t)t0, all = 3 * (size_t)job->m->tri_start[job->m->mesh_count];
            uint64_t *e = job->edges + slot, *rev = job->edges + all + slot, *tmp = job->edges + 2 * all + slot;
            size_t ne = 0;
            for (size_t t = t0; t < t1; t++)
                for (int c = 0; c < 3; c++) {
                    uint32_t a = tri[3 * t + (size_t)c], b = tri[3 * t + (size_t)(c + 1) % 3];
                    if (a != b) e[ne++] = (uint64_t)a << 32 | b;
                }
            if (ne > 0) {
                uint64_t *se = sort_keys(e, tmp, ne);
                uint64_t *other = se == e ? tmp : e; /* free now */
                for (size_t i = 0; i < ne; i++) rev[i] = se[i] >> 32 | se[i] << 32;
                uint64_t *sr = sort_keys(rev, other, ne);
                for (size_t i = 0; i < ne; i++)
                    if ((i > 0 && se[i] == se[i - 1]) || se[i] != sr[i]) {
                        flags |= WK_MESH_OPEN;
                        break;
                    }
            }
        }
    }
    job->volumes[k] = volume;
    if (job->masses) job->masses[k] = job->density * volume;
    if (job->flags) job->flags[k] = flags;
}

static void vol_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    for (size_t k = begin; k < end; k++) one_mesh(ctx, (uint32_t)k);
}

static wk_status volumes_run(const wk__call *call, const wk_meshes *m, double density, void *workspace,
                             size_t workspace_bytes, double *volumes, double *masses, uint8_t *flags) {
    if (!m) return wk__fail(WK_ERR_NULL, "meshes is NULL");
    if (m->reserved32 || !wk__all_zero(m->reserved, sizeof m->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "meshes->reserved must be zero");
    if (!isfinite(density)) return wk__fail(WK_ERR_NOT_FINITE, "density must be finite, got %g", density);
    if (m->mesh_count == 0) return WK_OK;
    if (!m->tri_start) return wk__fail(WK_ERR_NULL, "meshes->tri_start is NULL");
    if (!volumes) return wk__fail(WK_ERR_NULL, "volumes is NULL");
    uint32_t mc = m->mesh_count;
    for (uint32_t k = 0; k < mc; k++)
        if (m->tri_start[k + 1] < m->tri_start[k])
            return wk__fail(WK_ERR_INVALID_ARG, "meshes->tri_start must not decrease: [%u] = %u > [%u] = %u", k,
                            m->tri_start[k], k + 1, m->tri_start[k + 1]);
    uint32_t used = m->tri_start[mc];
    if (used > m->tri_count)
        return wk__fail(WK_ERR_INVALID_ARG, "meshes->tri_start[%u] = %u must be <= tri_count %u", mc, used,
                        m->tri_count);
    if (used > 0 && (!m->tris || !m->vx || !m->vy || !m->vz))
        return wk__fail(WK_ERR_NULL, "meshes: tris and vertex arrays must not be NULL");
    for (size_t t = 3 * (size_t)m->tri_start[0]; t < 3 * (size_t)used; t++)
        if (m->tris[t] >= m->vertex_count)
            return wk__fail(WK_ERR_INVALID_ARG, "meshes->tris[%zu] = %u must be < vertex_count %u", t, m->tris[t],
                            m->vertex_count);
    if (used > 0)
        for (uint32_t i = 0; i < m->vertex_count; i++)
            if (!isfinite(m->vx[i]) || !isfinite(m->vy[i]) || !isfinite(m->vz[i]))
                return wk__fail(WK_ERR_NOT_FINITE, "vertex %u must be finite, got (%g, %g, %g)", i, (double)m->vx[i],
                                (double)m->vy[i], (double)m->vz[i]);
    size_t need = (size_t)used * EDGE_BYTES + ALIGN;
    if (flags) {
        if (!workspace) return wk__fail(WK_ERR_NULL, "workspace is NULL (needed with flags)");
        if (workspace_bytes < need)
            return wk__fail(WK_ERR_CAPACITY, "workspace must be >= %zu bytes, got %zu", need, workspace_bytes);
    }
    size_t vb = (size_t)mc * sizeof(double);
    if ((masses && wk__overlap(volumes, vb, masses, vb)) || (flags && wk__overlap(volumes, vb, flags, mc)) ||
        (masses && flags && wk__overlap(masses, vb, flags, mc)))
        return wk__fail(WK_ERR_ALIAS, "volumes, masses and flags must not overlap");
    if (flags && (wk__overlap(workspace, workspace_bytes, volumes, vb) ||
                  wk__overlap(workspace, workspace_bytes, flags, mc) ||
                  (masses && wk__overlap(workspace, workspace_bytes, masses, vb))))
        return wk__fail(WK_ERR_ALIAS, "workspace overlaps an output");
    vol_job job;
    job.m = m;
    job.density = density;
    job.edges = NULL;
    if (flags) {
        uintptr_t p = (uintptr_t)workspace;
        job.edges = (uint64_t *)(void *)((unsigned char *)workspace + (ALIGN - p % ALIGN) % ALIGN);
    }
    job.volumes = volumes;
    job.masses = masses;
    job.flags = flags;
    wk__parallel_for(call, mc, (size_t)used / mc * 4 + 16, vol_part, &job);
    return WK_OK;
}

wk_status wk_fracture_volumes(const wk_meshes *meshes, double density, void *workspace, size_t workspace_bytes,
                              double *volumes, double *masses, uint8_t *flags, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = volumes_run(&call, meshes, density, workspace, workspace_bytes, volumes, masses, flags);
    return wk__end(&call, s);
}
