/* Scalar reference of the contour family: every cell, in row-major order,
 * through the shared per-cell logic of contour_impl.h. */
#include "core/wk_fp_guard.h"

#include "contour_impl.h"

static unsigned cell_case(const wk__msq_job *job, uint32_t i, uint32_t j, float v[4]) {
    wk__msq_values(job, i, j, v);
    return wk__msq_case(v[0], v[1], v[2], v[3], job->iso);
}

/* Vertices owned by cell row j. */
static uint32_t row_owned(const wk__msq_job *job, uint32_t j) {
    int tri = (job->flags & WK_MSQ_TRIANGLES) != 0;
    uint32_t n = 0;
    float v[4];
    for (uint32_t i = 0; i < job->cw; i++) n += wk__msq_owned_count(cell_case(job, i, j, v), tri, i, j);
    return n;
}

static void count_rows_ref(const wk__msq_job *job, uint32_t j0, uint32_t j1, wk__msq_counts *c) {
    int tri = (job->flags & WK_MSQ_TRIANGLES) != 0, seg = (job->flags & WK_MSQ_SEGMENTS) != 0;
    float v[4];
    for (uint32_t j = j0; j < j1; j++)
        for (uint32_t i = 0; i < job->cw; i++) {
            unsigned cs = cell_case(job, i, j, v);
            c->vert += wk__msq_owned_count(cs, tri, i, j);
            int connected = wk__msq_is_saddle(cs) ? wk__msq_connected(v[0], v[1], v[2], v[3], job->iso) : 0;
            if (tri) c->tri += (uint64_t)wk__msq_ntri(cs, connected);
            if (seg) c->seg += (uint64_t)wk__msq_nseg(cs);
        }
}

static void write_rows_ref(const wk__msq_job *job, uint32_t j0, uint32_t j1, uint32_t vbase, uint32_t tbase,
                           uint32_t sbase, wk__msq_counts *c) {
    int tri = (job->flags & WK_MSQ_TRIANGLES) != 0;
    wk__msq_row r = {0};
    r.cur = vbase;
    r.tri = tbase;
    r.seg = sbase;
    uint32_t below = j0 > 0 ? vbase - row_owned(job, j0 - 1) : 0;
    float v[4], bv[4];
    for (uint32_t j = j0; j < j1; j++) {
        r.below = below;
        below = r.cur;
        for (uint32_t i = 0; i < job->cw; i++) {
            if (j > 0) wk__msq_below_step(&r, cell_case(job, i, j - 1, bv), tri, i, j);
            wk__msq_cell(job, &r, cell_case(job, i, j, v), v, i, j);
        }
    }
    c->vert = r.cur - vbase;
    c->tri = r.tri - tbase;
    c->seg = r.seg - sbase;
}

const wk__contour_kernels wk__contour_kernels_ref = {count_rows_ref, write_rows_ref};
