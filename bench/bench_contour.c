/* bench_contour.c: the contour family. Names:
 *   contour/<kernel>/<isa>/<size>/t<threads>
 * kernel: segments (WK_MSQ_SEGMENTS), mesh (TRIANGLES | SEGMENTS), each on
 * a sparse field (a low-frequency fBm: ~2% of cells crossed) and a dense one
 * (high frequency: ~20%), named <kernel>_sparse / <kernel>_dense; chains
 * and simplify (scalar code on every ISA: benchmarked once); brush_rebuild
 * (one dig stroke of radius 6 cells on a 1024^2 field cut into 32x32-cell
 * chunks, plus the rebuild of the chunks it dirtied); segments_u8_sparse
 * (wk_msq_build_u8 on the sparse field quantized to bytes); *_cold (64 MB
 * written between calls, untimed, so field and outputs come from memory).
 * Items are cells (strokes for brush_rebuild). Before timing, each build is
 * compared with the scalar reference (counts, positions, indices).
 * mesh_sparse_store / mesh_sparse_cold_store (isa "plain"): the same output
 * bytes as mesh_sparse written with plain stores (warm and cold buffers;
 * plain C loops, built for the baseline target: 16-byte stores on x86-64);
 * mesh_sparse_memset: the same bytes by the C library's memset, its widest
 * stores (the fastest way this machine writes them); mesh_sparse_store at
 * 4096^2 also on two threads (each writes half of every array), the
 * yardstick of the mesh's two-thread scaling,
 * the baseline of the mesh goal (a build within 1.5x of it). Output
 * buffers hold the exact counts (a count pass runs first, as for any caller
 * that does not pass wk_msq_bound capacities), except at 256^2 (a chunk),
 * where they have wk_msq_bound capacities and the build is one pass. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <worldkern/contour.h>
#include <worldkern/noise.h>

#include "bench_shim.h"

typedef struct field_cache {
    uint32_t n;
    int dense;
    float *v;
} field_cache;

static field_cache fields[8];

/* The view of an n x n field of v (stride n). */
static wk_field2 square_field(const float *v, uint32_t n) {
    wk_field2 f;
    memset(&f, 0, sizeof f);
    f.v = v;
    f.w = n;
    f.h = n;
    f.stride = n;
    return f;
}

static const float *get_field(uint32_t n, int dense) {
    for (int i = 0; i < 8; i++)
        if (fields[i].v && fields[i].n == n && fields[i].dense == dense) return fields[i].v;
    for (int i = 0; i < 8; i++) {
        if (fields[i].v) continue;
        float *v = malloc(sizeof(float) * (size_t)n * n);
        if (!v) return NULL;
        wk_fbm f = WK_FBM_DEFAULTS;
        f.seed = 5;
        f.octaves = 4;
        f.frequency = dense ? 1.0 / 6.0 : 1.0 / 160.0;
        wk_grid2 g = WK_GRID2_DEFAULTS;
        g.nx = n;
        g.ny = n;
        g.step = 1.0;
        g.stride = n;
        if (wk_noise_fbm2_grid(&f, &g, v, NULL) != WK_OK) {
            free(v);
            return NULL;
        }
        fields[i].n = n;
        fields[i].dense = dense;
        fields[i].v = v;
        return v;
    }
    return NULL;
}

typedef struct bcase {
    const char *kernel;
    uint32_t n;
    int dense;
    int u8;    /* byte field: bytes = clamp((v + 1) * 127.5), iso 128 */
    int cold;  /* evict the caches (64 MB written, untimed) before each call */
    int fill;  /* store baseline: the C library's memset (its widest stores) instead of loops */
    uint32_t flags;
    wk_isa isa;
    int threads;
} bcase;

static void skip(wk_bench_state *st, const char *msg) {
    wk_bench_set_counter(st, "verified", 0.0);
    wk_bench_skip_with_error(st, msg);
}

typedef struct mesh_alloc {
    wk_mesh2 m;
} mesh_alloc;

static int mesh_alloc_for(wk_mesh2 *m, uint32_t vc, uint32_t tc, uint32_t sc) {
    memset(m, 0, sizeof *m);
    m->vert_cap = vc;
    m->tri_cap = tc;
    m->seg_cap = sc;
    m->x = malloc(sizeof(float) * ((size_t)vc + 1));
    m->y = malloc(sizeof(float) * ((size_t)vc + 1));
    m->tri = malloc(sizeof(uint32_t) * (3 * (size_t)tc + 1));
    m->seg = malloc(sizeof(uint32_t) * (2 * (size_t)sc + 1));
    return m->x && m->y && m->tri && m->seg;
}

static void mesh_release(wk_mesh2 *m) {
    free(m->x);
    free(m->y);
    free(m->tri);
    free(m->seg);
}

static int same_mesh(const wk_mesh2 *a, const wk_mesh2 *b) {
    return a->nvert == b->nvert && a->ntri == b->ntri && a->nseg == b->nseg &&
           !memcmp(a->x, b->x, 4 * (size_t)a->nvert) && !memcmp(a->y, b->y, 4 * (size_t)a->nvert) &&
           !memcmp(a->tri, b->tri, 12 * (size_t)a->ntri) && !memcmp(a->seg, b->seg, 8 * (size_t)a->nseg);
}

static const uint8_t *get_bytes(uint32_t n, int dense) {
    static uint8_t *bytes[2][8];
    static uint32_t sizes[2][8];
    for (int i = 0; i < 8; i++)
        if (bytes[dense][i] && sizes[dense][i] == n) return bytes[dense][i];
    const float *v = get_field(n, dense);
    if (!v) return NULL;
    for (int i = 0; i < 8; i++) {
        if (bytes[dense][i]) continue;
        uint8_t *b = malloc((size_t)n * n);
        if (!b) return NULL;
        for (size_t k = 0; k < (size_t)n * n; k++) {
            float q = (v[k] + 1.0f) * 127.5f;
            b[k] = (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
        }
        bytes[dense][i] = b;
        sizes[dense][i] = n;
        return b;
    }
    return NULL;
}

static wk_status build_any(const bcase *c, const wk_field2 *f, const uint8_t *b, wk_mesh2 *m, const wk_exec *e) {
    uint32_t cells = c->n - 1;
    if (c->u8) return wk_msq_build_u8(b, c->n, c->n, c->n, 0, 0, cells, cells, 128, 1.0f, c->flags, m, e);
    return wk_msq_build(f, 0, 0, cells, cells, 0.0f, 1.0f, c->flags, m, e);
}

static unsigned char *evict_buffer(void) {
    static unsigned char *b;
    if (!b) b = malloc(64u << 20);
    return b;
}

/* Writes the 64 MB buffer, untimed, so that the next call finds field and
 * outputs in memory, not in cache. */
static void evict_caches(wk_bench_state *st, unsigned char *evict) {
    wk_bench_pause_timing(st);
    memset(evict, (int)(wk_bench_iterations(st) & 255), 64u << 20);
    wk_bench_clobber_memory();
    wk_bench_resume_timing(st);
}

static void bm_build(wk_bench_state *st, void *vctx) {
    const bcase *c = vctx;
    const float *v = get_field(c->n, c->dense);
    const uint8_t *bytes = c->u8 ? get_bytes(c->n, c->dense) : NULL;
    if (!v || (c->u8 && !bytes) || (c->cold && !evict_buffer())) {
        skip(st, "field allocation failed");
        return;
    }
    wk_field2 f = square_field(v, c->n);
    uint32_t cells = c->n - 1;
    wk_exec scalar = WK_EXEC_DEFAULTS, e = WK_EXEC_DEFAULTS;
    scalar.isa = WK_ISA_SCALAR;
    scalar.threads = 1;
    e.isa = c->isa;
    e.threads = c->threads;
    /* counts from a build with no room */
    wk_mesh2 probe = WK_MESH2_DEFAULTS;
    wk_status s = build_any(c, &f, bytes, &probe, &scalar);
    if (s != WK_ERR_CAPACITY && s != WK_OK) {
        skip(st, "count failed");
        return;
    }
    uint32_t vc = probe.nvert, tc = probe.ntri, sc = probe.nseg;
    if (c->n <= 256) wk_msq_bound(cells, cells, c->flags, &vc, &tc, &sc);
    wk_mesh2 ref, out;
    if (!mesh_alloc_for(&ref, vc, tc, sc) || !mesh_alloc_for(&out, vc, tc, sc)) {
        mesh_release(&ref);
        mesh_release(&out);
        skip(st, "buffer allocation failed");
        return;
    }
    s = build_any(c, &f, bytes, &ref, &scalar);
    wk_status s2 = build_any(c, &f, bytes, &out, &e);
    if (s != WK_OK || s2 != WK_OK || !same_mesh(&ref, &out)) {
        mesh_release(&ref);
        mesh_release(&out);
        skip(st, "output differs from the scalar reference");
        return;
    }
    wk_bench_set_counter(st, "verified", 1.0);
    uint32_t crossed = 0;
    {
        /* fraction of cells the contour crosses (of the float field) */
        for (uint32_t y = 0; y < cells; y++)
            for (uint32_t x = 0; x < cells; x++) {
                const float *p = v + (size_t)y * c->n + x;
                int a = p[0] >= 0, b = p[1] >= 0, d = p[c->n] >= 0, g = p[c->n + 1] >= 0;
                crossed += (a + b + d + g) % 4 != 0;
            }
    }
    wk_bench_set_counter(st, "crossed_pct", 100.0 * crossed / ((double)cells * cells));
    unsigned char *evict = c->cold ? evict_buffer() : NULL;
    while (wk_bench_keep_running(st)) {
        if (evict) evict_caches(st, evict);
        build_any(c, &f, bytes, &out, &e);
        wk_bench_do_not_optimize(out.x);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)cells * cells);
    mesh_release(&ref);
    mesh_release(&out);
}

/* One thread's share of the plain-store baseline: part `part` of `parts`
 * equal index ranges of each output array. */
typedef struct store_part {
    const wk_mesh2 *m;
    size_t nv, ni, ns;
    int part, parts, fill;
    uint32_t round;
} store_part;

static void *store_part_run(void *arg) {
    const store_part *p = arg;
    size_t v0 = p->nv * (size_t)p->part / (size_t)p->parts, v1 = p->nv * (size_t)(p->part + 1) / (size_t)p->parts;
    size_t i0 = p->ni * (size_t)p->part / (size_t)p->parts, i1 = p->ni * (size_t)(p->part + 1) / (size_t)p->parts;
    size_t s0 = p->ns * (size_t)p->part / (size_t)p->parts, s1 = p->ns * (size_t)(p->part + 1) / (size_t)p->parts;
    float *x = p->m->x, *y = p->m->y;
    uint32_t *t = p->m->tri, *g = p->m->seg, round = p->round;
    if (p->fill) {
        memset(x + v0, (int)(round & 255), (v1 - v0) * sizeof *x);
        memset(y + v0, (int)(round & 255), (v1 - v0) * sizeof *y);
        memset(t + i0, (int)(round & 255), (i1 - i0) * sizeof *t);
        memset(g + s0, (int)(round & 255), (s1 - s0) * sizeof *g);
    } else {
        /* no conversions in the loops: they run at store speed */
        const float fx = (float)round, fy = (float)round + 0.5f;
        for (size_t k = v0; k < v1; k++) x[k] = fx;
        for (size_t k = v0; k < v1; k++) y[k] = fy;
        for (size_t k = i0; k < i1; k++) t[k] = (uint32_t)k + round;
        for (size_t k = s0; k < s1; k++) g[k] = (uint32_t)k ^ round;
    }
    return NULL;
}

/* The plain-store baseline of a mesh build: the same output bytes as the
 * build of c (its vertex x, y and triangle and segment indices, counts from
 * the scalar build) written with plain stores into buffers of the same
 * sizes, warm (reused) or cold (64 MB written between calls, untimed). The
 * mesh goal compares a build with this in the same run. */
static void bm_store(wk_bench_state *st, void *vctx) {
    const bcase *c = vctx;
    const float *v = get_field(c->n, c->dense);
    if (!v || (c->cold && !evict_buffer())) {
        skip(st, "field allocation failed");
        return;
    }
    wk_field2 f = square_field(v, c->n);
    uint32_t cells = c->n - 1;
    wk_exec scalar = WK_EXEC_DEFAULTS;
    scalar.isa = WK_ISA_SCALAR;
    scalar.threads = 1;
    wk_mesh2 probe = WK_MESH2_DEFAULTS, m;
    wk_status s = wk_msq_build(&f, 0, 0, cells, cells, 0.0f, 1.0f, c->flags, &probe, &scalar);
    if ((s != WK_ERR_CAPACITY && s != WK_OK) || !mesh_alloc_for(&m, probe.nvert, probe.ntri, probe.nseg)) {
        mesh_release(&m);
        skip(st, "count or allocation failed");
        return;
    }
    size_t nv = probe.nvert, ni = 3 * (size_t)probe.ntri, ns = 2 * (size_t)probe.nseg;
    wk_bench_set_counter(st, "verified", 1.0);
    wk_bench_set_counter(st, "bytes", (double)(8 * nv + 4 * ni + 4 * ns));
    /* touch every page once, untimed, as the build benchmarks do with their
     * verification call: otherwise the first rounds time page faults */
    memset(m.x, 0, nv * sizeof *m.x);
    memset(m.y, 0, nv * sizeof *m.y);
    memset(m.tri, 0, ni * sizeof *m.tri);
    memset(m.seg, 0, ns * sizeof *m.seg);
    unsigned char *evict = c->cold ? evict_buffer() : NULL;
    uint32_t round = 0;
    while (wk_bench_keep_running(st)) {
        if (evict) evict_caches(st, evict);
        round++;
        store_part shares[2];
        int parts = c->threads == 2 ? 2 : 1;
        for (int h = 0; h < parts; h++) {
            store_part sp = {&m, nv, ni, ns, h, parts, c->fill, round};
            shares[h] = sp;
        }
        pthread_t second;
        int spawned = parts == 2 && pthread_create(&second, NULL, store_part_run, &shares[1]) == 0;
        store_part_run(&shares[0]);
        if (parts == 2) {
            if (spawned) pthread_join(second, NULL);
            else store_part_run(&shares[1]); /* no second thread: the caller writes both */
        }
        wk_bench_do_not_optimize(m.x);
        wk_bench_do_not_optimize(m.tri);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)cells * cells);
    mesh_release(&m);
}

/* chains + simplify over the segments of the whole field */
static void bm_chains(wk_bench_state *st, void *vctx) {
    const bcase *c = vctx;
    const float *v = get_field(c->n, c->dense);
    if (!v) {
        skip(st, "field allocation failed");
        return;
    }
    wk_field2 f = square_field(v, c->n);
    uint32_t cells = c->n - 1;
    wk_mesh2 probe = WK_MESH2_DEFAULTS, m;
    wk_msq_build(&f, 0, 0, cells, cells, 0.0f, 1.0f, WK_MSQ_SEGMENTS, &probe, NULL);
    if (!mesh_alloc_for(&m, probe.nvert, 0, probe.nseg)) {
        mesh_release(&m);
        skip(st, "allocation failed");
        return;
    }
    wk_msq_build(&f, 0, 0, cells, cells, 0.0f, 1.0f, WK_MSQ_SEGMENTS, &m, NULL);
    wk_chains ch = WK_CHAINS_DEFAULTS;
    ch.idx_cap = 2 * m.nseg;
    ch.chain_cap = m.nseg;
    ch.idx = malloc(sizeof(uint32_t) * ((size_t)ch.idx_cap + 1));
    ch.start = malloc(sizeof(uint32_t) * ((size_t)ch.chain_cap + 1));
    ch.closed = malloc((size_t)ch.chain_cap + 1);
    size_t wl = wk_msq_chains_work(m.nvert, m.nseg);
    uint32_t *work = malloc(sizeof(uint32_t) * (wl + 1));
    uint32_t *simple = malloc(sizeof(uint32_t) * ((size_t)ch.idx_cap + 1));
    int simplify = strcmp(c->kernel, "chains") != 0;
    uint32_t method = strcmp(c->kernel, "simplify_rdp") == 0 ? WK_SIMPLIFY_RDP : WK_SIMPLIFY_GREEDY;
    if (!ch.idx || !ch.start || !ch.closed || !work || !simple ||
        wk_msq_chains(&m, &ch, work, wl, NULL) != WK_OK) {
        skip(st, "chains failed");
    } else {
        wk_bench_set_counter(st, "verified", 1.0);
        wk_bench_set_counter(st, "chains", ch.nchain);
        uint64_t points = 0;
        while (wk_bench_keep_running(st)) {
            if (!simplify) {
                wk_msq_chains(&m, &ch, work, wl, NULL);
                points = m.nseg;
            } else {
                points = 0;
                for (uint32_t k = 0; k < ch.nchain; k++) {
                    uint32_t n = ch.start[k + 1] - ch.start[k], nout;
                    wk_msq_simplify(m.x, m.y, m.nvert, ch.idx + ch.start[k], n, ch.closed[k], 0.25f, method,
                                    simple + ch.start[k], n, &nout, NULL);
                    points += n;
                }
            }
            wk_bench_clobber_memory();
        }
        /* items: segments (chains) or points (simplify) */
        wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)points);
    }
    free(ch.idx);
    free(ch.start);
    free(ch.closed);
    free(work);
    free(simple);
    mesh_release(&m);
}

/* one dig stroke + rebuild of the dirtied 32x32-cell chunks */
static void bm_brush(wk_bench_state *st, void *vctx) {
    const bcase *c = vctx;
    uint32_t n = c->n;
    float *v = malloc(sizeof(float) * (size_t)n * n);
    if (!v) {
        skip(st, "allocation failed");
        return;
    }
    for (size_t i = 0; i < (size_t)n * n; i++) v[i] = (i / n) < n / 2 ? 1.0f : 0.0f; /* ground below */
    wk_msq_chunks_desc d = WK_MSQ_CHUNKS_DESC_DEFAULTS;
    d.w = n;
    d.h = n;
    d.chunk = 32;
    d.flags = c->flags;
    d.iso = 0.5f;
    d.cell = 1.0f;
    wk_msq_chunks *ck = NULL;
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = c->isa;
    e.threads = c->threads;
    wk_field2 f = square_field(v, n);
    uint32_t rebuilt = 0;
    if (wk_msq_chunks_create(&d, &ck) != WK_OK || wk_msq_chunks_rebuild(ck, &f, &rebuilt, &e) != WK_OK) {
        skip(st, "chunks failed");
        wk_msq_chunks_destroy(ck);
        free(v);
        return;
    }
    /* strokes walk along the surface; warm up once over the whole path */
    float x = 40.0f;
    uint32_t t[4];
    for (int i = 0; i < 200; i++) {
        float cx = 40.0f + (float)(i % 100) * 9.0f, cy = (float)(n / 2);
        wk_msq_brush(v, n, n, n, cx, cy, 6.0f, 1.0f, (i / 100) % 2 ? WK_BRUSH_FILL : WK_BRUSH_DIG, t, &e);
        wk_msq_chunks_mark(ck, t);
        wk_msq_chunks_rebuild(ck, &f, &rebuilt, &e);
    }
    wk_bench_set_counter(st, "verified", 1.0);
    int i = 0;
    uint64_t chunks = 0;
    while (wk_bench_keep_running(st)) {
        float cx = x + (float)(i % 100) * 9.0f, cy = (float)(n / 2);
        wk_msq_brush(v, n, n, n, cx, cy, 6.0f, 1.0f, (i / 100) % 2 ? WK_BRUSH_FILL : WK_BRUSH_DIG, t, &e);
        wk_msq_chunks_mark(ck, t);
        wk_msq_chunks_rebuild(ck, &f, &rebuilt, &e);
        chunks += rebuilt;
        i++;
    }
    wk_bench_set_counter(st, "chunks_per_stroke", (double)chunks / (double)(i ? i : 1));
    wk_bench_set_items_processed(st, wk_bench_iterations(st));
    wk_msq_chunks_destroy(ck);
    free(v);
}

static const wk_isa all_isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};

void wk_bench_register_contour(void) {
    static bcase cases[256];
    int nc = 0;
    int saved = wk_threads();
    wk_set_threads(0);
    int all = wk_threads();
    wk_set_threads(saved);
    int thread_opts[2] = {1, all};
    int nthreads = all > 1 ? 2 : 1;
    const uint32_t sizes[] = {256, 1024, 4096};
    char name[160];
    for (int kind = 0; kind < 2; kind++)
        for (int dense = 0; dense < 2; dense++)
            for (size_t si = 0; si < 3; si++)
                for (int ti = 0; ti < nthreads; ti++)
                    for (size_t ii = 0; ii < 4; ii++) {
                        if (!wk_isa_supported(all_isas[ii])) continue;
                        uint32_t n = sizes[si];
                        if (kind == 1 && dense && n == 4096) continue; /* ~0.5 GB of output */
                        if (ti == 1 && n == 256) continue;
                        bcase *c = &cases[nc++];
                        c->kernel = kind ? (dense ? "mesh_dense" : "mesh_sparse")
                                         : (dense ? "segments_dense" : "segments_sparse");
                        c->n = n;
                        c->dense = dense;
                        c->flags = kind ? WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS : WK_MSQ_SEGMENTS;
                        c->isa = all_isas[ii];
                        c->threads = thread_opts[ti];
                        snprintf(name, sizeof name, "contour/%s/%s/%ux%u/t%d", c->kernel, wk_isa_name(c->isa), n, n,
                                 c->threads);
                        wk_bench_register(name, bm_build, c, c->threads);
                    }
    /* the byte field, and cold caches, at 1024^2 and 4096^2, one thread */
    for (int variant = 0; variant < 3; variant++)
        for (size_t si = 1; si < 3; si++)
            for (size_t ii = 0; ii < 4; ii++) {
                if (!wk_isa_supported(all_isas[ii])) continue;
                bcase *c = &cases[nc++];
                c->n = sizes[si];
                c->isa = all_isas[ii];
                c->threads = 1;
                c->u8 = variant == 0;
                c->cold = variant != 0;
                c->flags = variant == 2 ? WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS : WK_MSQ_SEGMENTS;
                c->kernel = variant == 0 ? "segments_u8_sparse" : variant == 1 ? "segments_sparse_cold" : "mesh_sparse_cold";
                snprintf(name, sizeof name, "contour/%s/%s/%ux%u/t1", c->kernel, wk_isa_name(c->isa), c->n, c->n);
                wk_bench_register(name, bm_build, c, 1);
            }
    /* plain stores of the sparse mesh's output bytes, warm and cold, beside
     * the mesh builds (mesh_sparse, mesh_sparse_cold); and the same bytes
     * by memset, warm (variant 2) */
    for (int variant = 0; variant < 3; variant++)
        for (size_t si = 1; si < 3; si++) {
            bcase *c = &cases[nc++];
            c->kernel = variant == 2 ? "mesh_sparse_memset" : variant ? "mesh_sparse_cold_store" : "mesh_sparse_store";
            c->n = sizes[si];
            c->cold = variant == 1;
            c->fill = variant == 2;
            c->flags = WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS;
            c->isa = WK_ISA_SCALAR;
            c->threads = 1;
            snprintf(name, sizeof name, "contour/%s/plain/%ux%u/t1", c->kernel, c->n, c->n);
            wk_bench_register(name, bm_store, c, 1);
        }
    /* the warm plain stores on two threads (each writes half of every
     * array): what two threads can gain on writing the mesh's bytes */
    {
        bcase *c = &cases[nc++];
        c->kernel = "mesh_sparse_store";
        c->n = sizes[2];
        c->flags = WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS;
        c->isa = WK_ISA_SCALAR;
        c->threads = 2;
        snprintf(name, sizeof name, "contour/%s/plain/%ux%u/t2", c->kernel, c->n, c->n);
        wk_bench_register(name, bm_store, c, 2);
    }
    const char *chain_kernels[] = {"chains", "simplify_greedy", "simplify_rdp"};
    for (int k = 0; k < 3; k++)
        for (int dense = 0; dense < 2; dense++) {
            bcase *c = &cases[nc++];
            c->kernel = chain_kernels[k];
            c->n = 1024;
            c->dense = dense;
            c->isa = WK_ISA_SCALAR;
            c->threads = 1;
            snprintf(name, sizeof name, "contour/%s_%s/scalar/1024x1024/t1", c->kernel, dense ? "dense" : "sparse");
            wk_bench_register(name, bm_chains, c, 1);
        }
    for (int ti = 0; ti < nthreads; ti++)
        for (size_t ii = 0; ii < 4; ii++) {
            if (!wk_isa_supported(all_isas[ii])) continue;
            bcase *c = &cases[nc++];
            c->kernel = "brush_rebuild";
            c->n = 1024;
            c->flags = WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS;
            c->isa = all_isas[ii];
            c->threads = thread_opts[ti];
            snprintf(name, sizeof name, "contour/brush_rebuild/%s/1024x1024-c32/t%d", wk_isa_name(c->isa), c->threads);
            wk_bench_register(name, bm_brush, c, c->threads);
        }
}
