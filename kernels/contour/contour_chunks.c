/* The chunked field: per-chunk meshes over one shared field, dirty marking
 * and parallel rebuilds into buffers the object owns. */
#include "core/wk_fp_guard.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contour_impl.h"
#include "core/wk_core.h"

typedef struct chunk {
    float *x, *y;
    uint32_t *tri, *seg;
    uint32_t vcap, tcap, scap;
    uint32_t nvert, ntri, nseg;
    uint32_t need_v, need_t, need_s; /* from a build that ran out of room */
    int32_t status;                  /* of the last build in this rebuild */
    uint8_t dirty;
} chunk;

struct wk_msq_chunks {
    wk_msq_chunks_desc d;
    wk_allocator hooks;    /* d.alloc resolved */
    uint32_t cw, ch;       /* cells */
    uint32_t nx, ny;       /* chunks */
    chunk *chunks;
    uint32_t *dirty;       /* list of dirty chunk ids */
    uint32_t ndirty;
    uint32_t *retry;       /* chunks to build again after growing */
};

static void *c_alloc(const wk_allocator *h, size_t bytes) {
    if (bytes == 0) bytes = 1;
    return h->alloc(h->user, bytes);
}
/* bytes: what c_alloc was asked for (the hooks get the size back). */
static void c_free(const wk_allocator *h, void *p, size_t bytes) {
    if (p) h->free(h->user, p, bytes ? bytes : 1);
}

static wk_status create_run(const wk_msq_chunks_desc *d, wk_msq_chunks **out) {
    if (!out) return wk__fail(WK_ERR_NULL, "out is NULL");
    *out = NULL;
    if (!d) return wk__fail(WK_ERR_NULL, "d is NULL");
    if (!wk__all_zero(d->reserved, sizeof d->reserved)) return wk__fail(WK_ERR_INVALID_ARG, "d->reserved must be zero");
    if (d->w < 2 || d->h < 2) return wk__fail(WK_ERR_INVALID_ARG, "d->w and d->h must be >= 2, got %u x %u", d->w, d->h);
    if (d->chunk < 1 || d->chunk > 65536)
        return wk__fail(WK_ERR_INVALID_ARG, "d->chunk must be 1..65536, got %u", d->chunk);
    if (!isfinite(d->iso) || !isfinite(d->cell))
        return wk__fail(WK_ERR_NOT_FINITE, "d->iso and d->cell must be finite, got %g and %g", (double)d->iso,
                        (double)d->cell);
    if (!(d->cell > 0)) return wk__fail(WK_ERR_INVALID_ARG, "d->cell must be > 0, got %g", (double)d->cell);
    if ((d->flags & ~(uint32_t)(WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS | WK_MSQ_CLOCKWISE)) ||
        !(d->flags & (WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS)))
        return wk__fail(WK_ERR_INVALID_ARG, "d->flags must be WK_MSQ_* with TRIANGLES or SEGMENTS, got 0x%x", d->flags);
    wk_allocator hooks;
    wk_status s = wk__allocator_resolve(&d->alloc, "d->alloc", &hooks);
    if (s != WK_OK) return s;
    uint32_t cw = d->w - 1, ch = d->h - 1;
    uint32_t nx = cw / d->chunk + (cw % d->chunk != 0), ny = ch / d->chunk + (ch % d->chunk != 0);
    uint64_t n = (uint64_t)nx * ny;
    if (n > UINT32_MAX / 2 || n > SIZE_MAX / sizeof(chunk))
        return wk__fail(WK_ERR_OVERFLOW, "%llu chunks are too many", (unsigned long long)n);
    wk_msq_chunks *c = c_alloc(&hooks, sizeof *c);
    if (!c) return wk__fail(WK_ERR_NO_MEMORY, "allocating the object failed");
    memset(c, 0, sizeof *c);
    c->d = *d;
    c->hooks = hooks;
    c->cw = cw;
    c->ch = ch;
    c->nx = nx;
    c->ny = ny;
    c->chunks = c_alloc(&hooks, (size_t)n * sizeof(chunk));
    c->dirty = c_alloc(&hooks, (size_t)n * sizeof(uint32_t));
    c->retry = c_alloc(&hooks, (size_t)n * sizeof(uint32_t));
    if (!c->chunks || !c->dirty || !c->retry) {
        wk_msq_chunks_destroy(c);
        return wk__fail(WK_ERR_NO_MEMORY, "allocating %llu chunks failed", (unsigned long long)n);
    }
    memset(c->chunks, 0, (size_t)n * sizeof(chunk));
    for (uint32_t i = 0; i < (uint32_t)n; i++) {
        c->chunks[i].dirty = 1;
        c->dirty[i] = i;
    }
    c->ndirty = (uint32_t)n;
    *out = c;
    return WK_OK;
}

wk_status wk_msq_chunks_create(const wk_msq_chunks_desc *d, wk_msq_chunks **out) {
    wk__detail_reset(__func__);
    return create_run(d, out);
}

void wk_msq_chunks_destroy(wk_msq_chunks *c) {
    if (!c) return;
    wk_allocator h = c->hooks;
    size_t n = (size_t)c->nx * c->ny;
    if (c->chunks)
        for (size_t i = 0; i < n; i++) {
            chunk *k = &c->chunks[i];
            c_free(&h, k->x, (size_t)k->vcap * sizeof(float));
            c_free(&h, k->y, (size_t)k->vcap * sizeof(float));
            c_free(&h, k->tri, (size_t)k->tcap * 3 * sizeof(uint32_t));
            c_free(&h, k->seg, (size_t)k->scap * 2 * sizeof(uint32_t));
        }
    c_free(&h, c->chunks, n * sizeof(chunk));
    c_free(&h, c->dirty, n * sizeof(uint32_t));
    c_free(&h, c->retry, n * sizeof(uint32_t));
    c_free(&h, c, sizeof *c);
}

wk_status wk_msq_chunks_grid(const wk_msq_chunks *c, uint32_t *nx, uint32_t *ny) {
    wk__detail_reset(__func__);
    if (!c || !nx || !ny) return wk__fail(WK_ERR_NULL, "c, nx and ny must not be NULL");
    *nx = c->nx;
    *ny = c->ny;
    return WK_OK;
}

wk_status wk_msq_chunks_mark(wk_msq_chunks *c, const uint32_t rect[4]) {
    wk__detail_reset(__func__);
    if (!c || !rect) return wk__fail(WK_ERR_NULL, "c and rect must not be NULL");
    uint32_t x0 = rect[0], y0 = rect[1], x1 = rect[2] < c->d.w ? rect[2] : c->d.w, y1 = rect[3] < c->d.h ? rect[3] : c->d.h;
    if (x0 >= x1 || y0 >= y1) return WK_OK;
    /* node x touches cells x - 1 and x (those that exist) */
    uint32_t cx0 = x0 > 0 ? x0 - 1 : 0, cy0 = y0 > 0 ? y0 - 1 : 0;
    uint32_t cx1 = x1 - 1 < c->cw ? x1 - 1 : c->cw - 1, cy1 = y1 - 1 < c->ch ? y1 - 1 : c->ch - 1;
    uint32_t n = c->d.chunk;
    for (uint32_t ky = cy0 / n; ky <= cy1 / n; ky++)
        for (uint32_t kx = cx0 / n; kx <= cx1 / n; kx++) {
            uint32_t id = ky * c->nx + kx;
            if (!c->chunks[id].dirty) {
                c->chunks[id].dirty = 1;
                c->dirty[c->ndirty++] = id;
            }
        }
    return WK_OK;
}

wk_status wk_msq_chunks_dirty(const wk_msq_chunks *c, uint32_t cx, uint32_t cy, uint32_t *dirty, uint32_t *ndirty) {
    wk__detail_reset(__func__);
    if (!c) return wk__fail(WK_ERR_NULL, "c is NULL");
    if (dirty) {
        if (cx >= c->nx || cy >= c->ny)
            return wk__fail(WK_ERR_INVALID_ARG, "chunk (%u, %u) outside %u x %u", cx, cy, c->nx, c->ny);
        *dirty = c->chunks[cy * c->nx + cx].dirty;
    }
    if (ndirty) *ndirty = c->ndirty;
    return WK_OK;
}

wk_status wk_msq_chunks_mesh(const wk_msq_chunks *c, uint32_t cx, uint32_t cy, wk_mesh2 *view) {
    wk__detail_reset(__func__);
    if (!c || !view) return wk__fail(WK_ERR_NULL, "c and view must not be NULL");
    if (cx >= c->nx || cy >= c->ny) return wk__fail(WK_ERR_INVALID_ARG, "chunk (%u, %u) outside %u x %u", cx, cy, c->nx, c->ny);
    const chunk *k = &c->chunks[cy * c->nx + cx];
    memset(view, 0, sizeof *view);
    view->x = k->x;
    view->y = k->y;
    view->vert_cap = k->vcap;
    view->nvert = k->nvert;
    view->tri = k->tri;
    view->tri_cap = k->tcap;
    view->ntri = k->ntri;
    view->seg = k->seg;
    view->seg_cap = k->scap;
    view->nseg = k->nseg;
    return WK_OK;
}

typedef struct rebuild_job {
    wk_msq_chunks *c;
    const wk_field2 *f;
    const uint32_t *list;
    wk__call one; /* one thread, the caller's ISA */
} rebuild_job;

static void rebuild_part(void *ctx, size_t begin, size_t end, uint32_t part) {
    (void)part;
    rebuild_job *j = ctx;
    wk_msq_chunks *c = j->c;
    uint32_t n = c->d.chunk;
    for (size_t t = begin; t < end; t++) {
        uint32_t id = j->list[t];
        chunk *k = &c->chunks[id];
        uint32_t kx = id % c->nx, ky = id / c->nx;
        uint32_t x0 = kx * n, y0 = ky * n;
        uint32_t cw = c->cw - x0 < n ? c->cw - x0 : n, ch = c->ch - y0 < n ? c->ch - y0 : n;
        wk_mesh2 m;
        memset(&m, 0, sizeof m);
        m.x = k->x;
        m.y = k->y;
        m.vert_cap = k->vcap;
        m.tri = k->tri;
        m.tri_cap = k->tcap;
        m.seg = k->seg;
        m.seg_cap = k->scap;
        wk_status s = wk__msq_build_run(&j->one, j->f, x0, y0, cw, ch, c->d.iso, c->d.cell, c->d.flags, &m);
        k->status = (int32_t)s;
        if (s == WK_OK) {
            k->nvert = m.nvert;
            k->ntri = m.ntri;
            k->nseg = m.nseg;
        } else if (s == WK_ERR_CAPACITY) {
            k->need_v = m.nvert;
            k->need_t = m.ntri;
            k->need_s = m.nseg;
        }
    }
}

static uint32_t grown(uint32_t need) {
    uint64_t g = (uint64_t)need + need / 4 + 16;
    return g > UINT32_MAX ? UINT32_MAX : (uint32_t)g;
}

/* Grows chunk k's buffers to its needs; 0 when an allocation failed. */
static int grow(const wk_allocator *h, chunk *k) {
    if (k->need_v > k->vcap) {
        uint32_t cap = grown(k->need_v);
        float *x = c_alloc(h, (size_t)cap * sizeof(float)), *y = c_alloc(h, (size_t)cap * sizeof(float));
        if (!x || !y) {
            c_free(h, x, (size_t)cap * sizeof(float));
            c_free(h, y, (size_t)cap * sizeof(float));
            return 0;
        }
        c_free(h, k->x, (size_t)k->vcap * sizeof(float));
        c_free(h, k->y, (size_t)k->vcap * sizeof(float));
        k->x = x;
        k->y = y;
        k->vcap = cap;
        k->nvert = 0;
    }
    if (k->need_t > k->tcap) {
        uint32_t cap = grown(k->need_t);
        uint32_t *t = c_alloc(h, (size_t)cap * 3 * sizeof(uint32_t));
        if (!t) return 0;
        c_free(h, k->tri, (size_t)k->tcap * 3 * sizeof(uint32_t));
        k->tri = t;
        k->tcap = cap;
        k->ntri = 0;
    }
    if (k->need_s > k->scap) {
        uint32_t cap = grown(k->need_s);
        uint32_t *s = c_alloc(h, (size_t)cap * 2 * sizeof(uint32_t));
        if (!s) return 0;
        c_free(h, k->seg, (size_t)k->scap * 2 * sizeof(uint32_t));
        k->seg = s;
        k->scap = cap;
        k->nseg = 0;
    }
    return 1;
}

static wk_status rebuild_run(const wk__call *call, wk_msq_chunks *c, const wk_field2 *f, uint32_t *rebuilt) {
    if (!c) return wk__fail(WK_ERR_NULL, "c is NULL");
    wk_status s = wk__check_field2(f, "f", 2, 2);
    if (s != WK_OK) return s;
    if (f->w != c->d.w || f->h != c->d.h)
        return wk__fail(WK_ERR_INVALID_ARG, "f is %u x %u nodes, the chunks were made for %u x %u", f->w, f->h, c->d.w,
                        c->d.h);
    uint32_t n = c->ndirty, done = 0;
    if (rebuilt) *rebuilt = 0;
    if (n == 0) return WK_OK;
    rebuild_job job;
    job.c = c;
    job.f = f;
    job.list = c->dirty;
    job.one = *call;
    job.one.threads = 1;
    job.one.runner = NULL;
    size_t work = (size_t)c->d.chunk * c->d.chunk;
    wk__parallel_for(call, n, work, rebuild_part, &job);
    /* Grow where needed (the only allocation), then build those again. */
    uint32_t nretry = 0;
    wk_status first_error = WK_OK;
    for (uint32_t i = 0; i < n; i++) {
        chunk *k = &c->chunks[c->dirty[i]];
        if (k->status == WK_ERR_CAPACITY) {
            if (!grow(&c->hooks, k)) {
                if (first_error == WK_OK) first_error = wk__fail(WK_ERR_NO_MEMORY, "growing a chunk's buffers failed");
                continue;
            }
            c->retry[nretry++] = c->dirty[i];
        } else if (k->status != WK_OK && first_error == WK_OK) {
            first_error = (wk_status)k->status;
        }
    }
    if (nretry > 0) {
        job.list = c->retry;
        wk__parallel_for(call, nretry, work, rebuild_part, &job);
    }
    /* Keep the chunks that failed dirty, in order. */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        chunk *k = &c->chunks[c->dirty[i]];
        if (k->status == WK_OK) {
            k->dirty = 0;
            done++;
        } else {
            if (first_error == WK_OK) first_error = (wk_status)k->status;
            c->dirty[kept++] = c->dirty[i];
        }
    }
    c->ndirty = kept;
    if (rebuilt) *rebuilt = done;
    if (first_error != WK_OK && first_error != WK_ERR_NO_MEMORY)
        return wk__fail(first_error, "rebuilding a chunk failed: %s", wk_status_str(first_error));
    if (first_error == WK_OK) wk__detail_reset("wk_msq_chunks_rebuild"); /* a capacity retry is no error */
    return first_error;
}

wk_status wk_msq_chunks_rebuild(wk_msq_chunks *c, const wk_field2 *f, uint32_t *rebuilt, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = rebuild_run(&call, c, f, rebuilt);
    return wk__end(&call, s);
}
