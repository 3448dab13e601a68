/* The fracture family's checks of the box kernels and volumes: adjacency
 * against an all-pairs reference written here, every ISA against the
 * scalar reference (harness), anchors, volumes against known answers, and
 * bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fracture_test_util.h"
#include "wk_checks.h"
#include "worldkern/fracture.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const uint32_t sizes[] = {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 33, 100, 343, 700};
static const float paddings[] = {0.0f, 0.05f, 0.5f};

/* ------------------------------------------------------------- adjacency */

int wk_check_fracture_adjacency_vs_all_pairs(void) {
    int fails = 0;
    wk_rng r = {42};
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    for (int kind = 0; kind < GEN_KINDS; kind++)
        for (size_t si = 0; si < COUNT(sizes); si++)
            for (size_t pi = 0; pi < COUNT(paddings); pi++) {
                boxset b = boxset_new(sizes[si]);
                gen_boxes(&b, &r, kind);
                size_t want_count;
                uint32_t *want = all_pairs(&b, paddings[pi], &want_count);
                for (int t = 0; t < nisa; t++) {
                    wk_exec e = wk_exec_for(isas[t], 1);
                    uint32_t *got;
                    size_t got_count = 0;
                    wk_status s = adjacency_alloc(&b, paddings[pi], &e, &got, &got_count);
                    EXPECT(s == WK_OK, "kind %d n %u: status %d (%s)", kind, b.n, s, wk_last_error_detail());
                    EXPECT(got_count == want_count, "kind %d n %u pad %g %s: %zu pairs, all-pairs says %zu", kind,
                           b.n, (double)paddings[pi], wk_isa_name((wk_isa)isas[t]), got_count, want_count);
                    if (s == WK_OK && got_count == want_count && want_count > 0)
                        EXPECT(memcmp(got, want, want_count * 2 * sizeof(uint32_t)) == 0,
                               "kind %d n %u pad %g %s: pairs differ from all-pairs", kind, b.n,
                               (double)paddings[pi], wk_isa_name((wk_isa)isas[t]));
                    free(got);
                }
                free(want);
                boxset_free(&b);
            }
    return fails;
}

/* Touching unit cubes on an a x b x c lattice: cells (i, j) touch exactly
 * when every coordinate differs by at most 1 (26 neighbours). Counted from
 * the coordinates, independently of any box test. With a gap between the
 * cubes, padding decides. */
int wk_check_fracture_adjacency_lattice(void) {
    int fails = 0;
    static const uint32_t dims[][3] = {{1, 1, 1}, {2, 1, 1}, {3, 3, 3}, {5, 4, 3}, {17, 2, 9}, {20, 20, 20}};
    for (size_t d = 0; d < COUNT(dims); d++)
        for (int gap_case = 0; gap_case < 3; gap_case++) {
            uint32_t X = dims[d][0], Y = dims[d][1], Z = dims[d][2], n = X * Y * Z;
            /* gap 0 with padding 0; gap 0.25 with padding 0.25 (touch); gap
             * 0.25 with padding 0.0625 (apart). */
            float gap = gap_case == 0 ? 0.0f : 0.25f, pad = gap_case == 1 ? 0.25f : gap_case == 2 ? 0.0625f : 0.0f;
            boxset b = boxset_new(n);
            for (uint32_t i = 0; i < n; i++) {
                float x = (float)(i % X) * (1 + gap), y = (float)(i / X % Y) * (1 + gap), z = (float)(i / X / Y) * (1 + gap);
                boxset_set(&b, i, x, y, z, x + 1, y + 1, z + 1);
            }
            size_t want = 0;
            for (uint32_t i = 0; i < n; i++)
                for (uint32_t j = i + 1; j < n; j++) {
                    long di = labs((long)(i % X) - (long)(j % X)), dj = labs((long)(i / X % Y) - (long)(j / X % Y)),
                         dk = labs((long)(i / X / Y) - (long)(j / X / Y));
                    if (gap_case != 2 && di <= 1 && dj <= 1 && dk <= 1) want++;
                }
            uint32_t *got;
            size_t count = 0;
            wk_status s = adjacency_alloc(&b, pad, NULL, &got, &count);
            EXPECT(s == WK_OK && count == want, "lattice %ux%ux%u gap %g pad %g: %zu pairs, want %zu (status %d)", X, Y,
                   Z, (double)gap, (double)pad, count, want, s);
            for (size_t k = 0; s == WK_OK && k < count; k++) {
                uint32_t i = got[2 * k], j = got[2 * k + 1];
                EXPECT(i < j, "pair %zu not ordered", k);
                if (k > 0) {
                    uint32_t pi = got[2 * k - 2], pj = got[2 * k - 1];
                    EXPECT(pi < i || (pi == i && pj < j), "pairs not sorted at %zu", k);
                }
            }
            free(got);
            boxset_free(&b);
        }
    return fails;
}

/* Crowded cells: five identical big boxes share one cell of a coarse
 * level and each reaches more rows of the fine level than one set of runs
 * holds (the one-box-at-a-time path), beside a jittered lattice of small
 * boxes (cells of few boxes sharing their runs, lists sorted and not);
 * ids interleaved. Every ISA and 1 or 2 threads against all pairs. */
int wk_check_fracture_adjacency_crowded(void) {
    int fails = 0;
    enum { GX = 16, GY = 16, GZ = 8, SMALL = GX * GY * GZ, BIG = 5, N = SMALL + BIG };
    boxset b = boxset_new(N);
    wk_rng r = {99};
    uint32_t s = 0;
    for (uint32_t i = 0; i < N; i++) {
        if (i % 400 == 17 && i / 400 < BIG) {
            boxset_set(&b, i, 0.5f, 0.5f, -1.0f, 14.5f, 14.5f, 13.0f);
            continue;
        }
        float x = (float)(s % GX), y = (float)(s / GX % GY), z = (float)(s / GX / GY);
        s++;
        float jx = (float)(wk_rng_u64(&r) % 9) * 0.01f, jy = (float)(wk_rng_u64(&r) % 9) * 0.01f;
        boxset_set(&b, i, x + jx, y + jy, z, x + jx + 0.95f, y + jy + 0.95f, z + 0.95f);
    }
    EXPECT(s == SMALL, "generator placed %u small boxes", s);
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    for (int pi = 0; pi < 2; pi++) {
        float pad = pi ? 0.05f : 0.0f;
        size_t want_count;
        uint32_t *want = all_pairs(&b, pad, &want_count);
        for (int t = 0; t < nisa; t++)
            for (int threads = 1; threads <= 2; threads++) {
                wk_exec e = wk_exec_for(isas[t], threads);
                uint32_t *got;
                size_t got_count = 0;
                wk_status st = adjacency_alloc(&b, pad, &e, &got, &got_count);
                EXPECT(st == WK_OK && got_count == want_count, "crowded pad %g %s t%d: %zu pairs, all-pairs %zu (%d)",
                       (double)pad, wk_isa_name((wk_isa)isas[t]), threads, got_count, want_count, st);
                if (st == WK_OK && got_count == want_count && want_count > 0)
                    EXPECT(memcmp(got, want, want_count * 2 * sizeof(uint32_t)) == 0,
                           "crowded pad %g %s t%d: pairs differ from all-pairs", (double)pad,
                           wk_isa_name((wk_isa)isas[t]), threads);
                free(got);
            }
        free(want);
    }
    boxset_free(&b);
    return fails;
}

typedef struct adj_ctx {
    const boxset *b;
    float pad;
    size_t count;
    void *ws;
    size_t ws_bytes;
} adj_ctx;

static int adj_run(void *vctx, const wk_exec *exec, uint32_t split, void *out) {
    (void)split;
    adj_ctx *c = vctx;
    wk_boxes v = boxset_view(c->b);
    size_t count = 0;
    wk_status s = wk_fracture_adjacency(&v, c->pad, c->ws, c->ws_bytes, out, c->count, &count, exec);
    return s == WK_OK && count != c->count ? WK_ERR_INVALID_ARG : (int)s;
}

/* Every ISA x thread count against the scalar reference, byte for byte, on
 * inputs larger than the all-pairs check can afford. */
int wk_check_fracture_adjacency_isa(void) {
    int fails = 0;
    wk_rng r = {7};
    static const uint32_t ns[] = {1000, 3001};
    for (int kind = 0; kind < GEN_KINDS; kind++)
        for (size_t si = 0; si < COUNT(ns); si++) {
            boxset b = boxset_new(ns[si]);
            gen_boxes(&b, &r, kind);
            adj_ctx c = {&b, 0.01f, 0, NULL, 0};
            wk_fracture_adjacency_workspace_size(b.n, &c.ws_bytes);
            c.ws = malloc(c.ws_bytes);
            wk_boxes v = boxset_view(&b);
            wk_exec scalar = wk_exec_for(WK_ISA_SCALAR, 1);
            wk_status s = wk_fracture_adjacency(&v, c.pad, c.ws, c.ws_bytes, NULL, 0, &c.count, &scalar);
            EXPECT(s == WK_OK, "count: %s", wk_last_error_detail());
            if (kind == 6 && ns[si] > 1000) c.count = 0; /* one spot: n^2 pairs, skip the big ones */
            if (s == WK_OK && c.count > 0) {
                char what[64];
                snprintf(what, sizeof what, "adjacency kind %d n %u", kind, b.n);
                wk_harness h = {what, adj_run, &c, c.count * 2 * sizeof(uint32_t), 1};
                fails += wk_harness_compare(&h);
            }
            free(c.ws);
            boxset_free(&b);
        }
    return fails;
}

int wk_check_fracture_adjacency_two_call(void) {
    int fails = 0;
    wk_rng r = {3};
    boxset b = boxset_new(500);
    gen_boxes(&b, &r, 0);
    wk_boxes v = boxset_view(&b);
    size_t bytes;
    EXPECT(wk_fracture_adjacency_workspace_size(b.n, &bytes) == WK_OK, "workspace size");
    /* Unaligned workspace, one byte off. */
    unsigned char *ws = malloc(bytes + 1);
    size_t count = 0;
    EXPECT(wk_fracture_adjacency(&v, 0.0f, ws + 1, bytes, NULL, 0, &count, NULL) == WK_OK, "count call");
    EXPECT(count > 0, "some pairs expected");
    uint32_t *pairs = malloc((count + 4) * 2 * sizeof(uint32_t));
    /* Too small: CAPACITY, the count needed, pairs untouched. */
    memset(pairs, 0xAB, (count + 4) * 2 * sizeof(uint32_t));
    size_t needed = 0;
    wk_status s = wk_fracture_adjacency(&v, 0.0f, ws + 1, bytes, pairs, count - 1, &needed, NULL);
    EXPECT(s == WK_ERR_CAPACITY && needed == count, "capacity: status %d needed %zu of %zu", s, needed, count);
    int untouched = 1;
    for (size_t k = 0; k < (count + 4) * 2; k++) untouched &= pairs[k] == 0xABABABABu;
    EXPECT(untouched, "pairs written on WK_ERR_CAPACITY");
    /* Enough room (more than needed): the rest stays untouched. */
    s = wk_fracture_adjacency(&v, 0.0f, ws + 1, bytes, pairs, count + 4, &needed, NULL);
    EXPECT(s == WK_OK && needed == count, "second call: status %d count %zu", s, needed);
    for (size_t k = count * 2; k < (count + 4) * 2; k++)
        EXPECT(pairs[k] == 0xABABABABu, "wrote past the pairs at %zu", k);
    size_t want_count;
    uint32_t *want = all_pairs(&b, 0.0f, &want_count);
    EXPECT(want_count == count && memcmp(want, pairs, count * 8) == 0, "pairs differ from all-pairs");
    /* Unaligned bounds arrays (one float past the allocation's alignment)
     * give the same pairs. */
    {
        float *shifted[6];
        for (int a = 0; a < 6; a++) {
            shifted[a] = malloc(((size_t)b.n + 1) * sizeof(float));
            memcpy(shifted[a] + 1, b.v[a], (size_t)b.n * sizeof(float));
        }
        wk_boxes u = v;
        u.min_x = shifted[0] + 1, u.min_y = shifted[1] + 1, u.min_z = shifted[2] + 1;
        u.max_x = shifted[3] + 1, u.max_y = shifted[4] + 1, u.max_z = shifted[5] + 1;
        uint32_t *again = malloc(count * 2 * sizeof(uint32_t));
        size_t again_count = 0;
        s = wk_fracture_adjacency(&u, 0.0f, ws + 1, bytes, again, count, &again_count, NULL);
        EXPECT(s == WK_OK && again_count == count && memcmp(again, pairs, count * 8) == 0, "unaligned bounds differ");
        free(again);
        for (int a = 0; a < 6; a++) free(shifted[a]);
    }
    /* Workspace too small. */
    s = wk_fracture_adjacency(&v, 0.0f, ws, bytes - 1, pairs, count, &needed, NULL);
    EXPECT(s == WK_ERR_CAPACITY, "small workspace: status %d", s);
    /* n = 0 and 1: no pairs, workspace may be NULL. */
    v.n = 1;
    EXPECT(wk_fracture_adjacency(&v, 0.0f, NULL, 0, NULL, 0, &count, NULL) == WK_OK && count == 0, "n = 1");
    wk_boxes empty = WK_BOXES_DEFAULTS;
    EXPECT(wk_fracture_adjacency(&empty, 0.0f, NULL, 0, NULL, 0, &count, NULL) == WK_OK && count == 0, "n = 0");
    free(want);
    free(pairs);
    free(ws);
    boxset_free(&b);
    return fails;
}

int wk_check_fracture_adjacency_bad_input(void) {
    int fails = 0;
    boxset b = boxset_new(20);
    wk_rng r = {5};
    gen_boxes(&b, &r, 1);
    wk_boxes v = boxset_view(&b);
    size_t bytes;
    wk_fracture_adjacency_workspace_size(b.n, &bytes);
    void *ws = malloc(bytes);
    uint32_t pairs[400];
    size_t count = 12345;
    memset(pairs, 0xCD, sizeof pairs);
#define BAD(expr, code, what)                                                                  \
    do {                                                                                       \
        count = 12345;                                                                         \
        wk_status s_ = (expr);                                                                 \
        EXPECT(s_ == (code), "%s: status %d, want %d (%s)", what, s_, code, wk_last_error_detail()); \
        EXPECT(count == 12345, "%s: count written", what);                                     \
        EXPECT(pairs[0] == 0xCDCDCDCDu && pairs[399] == 0xCDCDCDCDu, "%s: pairs written", what); \
        EXPECT(strlen(wk_last_error_detail()) > 0, "%s: no detail", what);                    \
    } while (0)
    BAD(wk_fracture_adjacency(NULL, 0, ws, bytes, pairs, 200, &count, NULL), WK_ERR_NULL, "frags NULL");
    EXPECT(wk_fracture_adjacency(&v, 0, ws, bytes, pairs, 200, NULL, NULL) == WK_ERR_NULL, "count NULL");
    BAD(wk_fracture_adjacency(&v, 0, NULL, bytes, pairs, 200, &count, NULL), WK_ERR_NULL, "workspace NULL");
    BAD(wk_fracture_adjacency(&v, 0, ws, bytes, NULL, 200, &count, NULL), WK_ERR_NULL, "pairs NULL, capacity");
    BAD(wk_fracture_adjacency(&v, NAN, ws, bytes, pairs, 200, &count, NULL), WK_ERR_NOT_FINITE, "padding NaN");
    BAD(wk_fracture_adjacency(&v, INFINITY, ws, bytes, pairs, 200, &count, NULL), WK_ERR_NOT_FINITE, "padding Inf");
    BAD(wk_fracture_adjacency(&v, -1.0f, ws, bytes, pairs, 200, &count, NULL), WK_ERR_INVALID_ARG, "padding < 0");
    float keep_hi = b.v[3][0];
    b.v[3][0] = 3e38f;
    BAD(wk_fracture_adjacency(&v, 1e38f, ws, bytes, pairs, 200, &count, NULL), WK_ERR_OVERFLOW, "padding overflows");
    b.v[3][0] = keep_hi;
    float keep = b.v[1][7];
    b.v[1][7] = NAN;
    BAD(wk_fracture_adjacency(&v, 0, ws, bytes, pairs, 200, &count, NULL), WK_ERR_NOT_FINITE, "NaN bound");
    b.v[1][7] = -INFINITY;
    BAD(wk_fracture_adjacency(&v, 0, ws, bytes, pairs, 200, &count, NULL), WK_ERR_NOT_FINITE, "Inf bound");
    b.v[1][7] = b.v[4][7] + 1;
    BAD(wk_fracture_adjacency(&v, 0, ws, bytes, pairs, 200, &count, NULL), WK_ERR_INVALID_ARG, "min > max");
    b.v[1][7] = keep;
    wk_boxes bad = v;
    bad.max_z = NULL;
    BAD(wk_fracture_adjacency(&bad, 0, ws, bytes, pairs, 200, &count, NULL), WK_ERR_NULL, "bounds NULL");
    bad = v;
    bad.reserved[1] = 1;
    BAD(wk_fracture_adjacency(&bad, 0, ws, bytes, pairs, 200, &count, NULL), WK_ERR_INVALID_ARG, "reserved");
    bad = v;
    bad.n = 0x80000000u;
    BAD(wk_fracture_adjacency(&bad, 0, ws, bytes, pairs, 200, &count, NULL), WK_ERR_OVERFLOW, "n too large");
    BAD(wk_fracture_adjacency(&v, 0, (unsigned char *)pairs, bytes, pairs, 200, &count, NULL), WK_ERR_ALIAS,
        "workspace aliases pairs");
    wk_exec e = WK_EXEC_DEFAULTS;
    e.threads = -1;
    BAD(wk_fracture_adjacency(&v, 0, ws, bytes, pairs, 200, &count, &e), WK_ERR_INVALID_ARG, "exec threads");
    EXPECT(wk_fracture_adjacency_workspace_size(0x80000000u, &bytes) == WK_ERR_OVERFLOW, "workspace size overflow");
    EXPECT(wk_fracture_adjacency_workspace_size(1, NULL) == WK_ERR_NULL, "workspace size NULL");
#undef BAD
    free(ws);
    boxset_free(&b);
    return fails;
}

/* ---------------------------------------------------------------- anchors */

typedef struct anchor_ctx {
    const boxset *f, *a;
    float pad;
} anchor_ctx;

static int anchor_run(void *vctx, const wk_exec *exec, uint32_t split, void *out) {
    (void)split;
    anchor_ctx *c = vctx;
    wk_boxes f = boxset_view(c->f), a = boxset_view(c->a);
    return wk_fracture_anchors(&f, c->pad, &a, out, exec);
}

int wk_check_fracture_anchors(void) {
    int fails = 0;
    wk_rng r = {11};
    static const uint32_t ns[] = {1, 7, 15, 16, 17, 31, 1000, 70000};
    for (size_t si = 0; si < COUNT(ns); si++)
        for (uint32_t m = 0; m < 4; m++) {
            boxset f = boxset_new(ns[si]), a = boxset_new(m);
            gen_boxes(&f, &r, 0);
            double side = cbrt((double)ns[si]) + 1;
            for (uint32_t j = 0; j < m; j++) {
                float x = (float)wk_rng_range(&r, 0, side), y = (float)wk_rng_range(&r, 0, side);
                boxset_set(&a, j, x, y, -1.0f, x + (float)side / 3, y + (float)side / 3, 0.75f);
            }
            /* Known answer: the same closed test written out. */
            uint8_t *want = malloc(f.n), *got = malloc(f.n + 2);
            for (uint32_t i = 0; i < f.n; i++) {
                want[i] = 0;
                for (uint32_t j = 0; j < m; j++) {
                    int t = 1;
                    for (int k = 0; k < 3; k++)
                        if (!(f.v[k][i] - 0.125f <= a.v[k + 3][j] && a.v[k][j] <= f.v[k + 3][i] + 0.125f)) t = 0;
                    want[i] |= (uint8_t)t;
                }
            }
            memset(got, 7, f.n + 2);
            wk_boxes fv = boxset_view(&f), av = boxset_view(&a);
            wk_status s = wk_fracture_anchors(&fv, 0.125f, &av, got + 1, NULL);
            EXPECT(s == WK_OK && memcmp(want, got + 1, f.n) == 0, "anchors n %u m %u differ from the direct test",
                   f.n, m);
            EXPECT(got[0] == 7 && got[f.n + 1] == 7, "anchors wrote outside flags");
            anchor_ctx c = {&f, &a, 0.125f};
            char what[64];
            snprintf(what, sizeof what, "anchors n %u m %u", f.n, m);
            wk_harness h = {what, anchor_run, &c, f.n, 1};
            fails += wk_harness_compare(&h);
            free(want);
            free(got);
            boxset_free(&f);
            boxset_free(&a);
        }
    /* Touching exactly counts; a hair apart does not. */
    boxset f = boxset_new(2), a = boxset_new(1);
    boxset_set(&f, 0, 0, 0, 1, 1, 1, 2);
    boxset_set(&f, 1, 0, 0, nextafterf(1.0f, 2.0f), 1, 1, 2);
    boxset_set(&a, 0, -5, -5, -1, 5, 5, 1);
    wk_boxes fv = boxset_view(&f), av = boxset_view(&a);
    uint8_t flags[2];
    EXPECT(wk_fracture_anchors(&fv, 0, &av, flags, NULL) == WK_OK && flags[0] == 1 && flags[1] == 0,
           "touching anchor: flags %d %d, want 1 0", flags[0], flags[1]);
    boxset_free(&f);
    boxset_free(&a);
    return fails;
}

int wk_check_fracture_anchors_bad_input(void) {
    int fails = 0;
    boxset f = boxset_new(4), a = boxset_new(1);
    wk_rng r = {1};
    gen_boxes(&f, &r, 1);
    boxset_set(&a, 0, 0, 0, 0, 1, 1, 1);
    wk_boxes fv = boxset_view(&f), av = boxset_view(&a);
    uint8_t flags[4] = {9, 9, 9, 9};
    EXPECT(wk_fracture_anchors(NULL, 0, &av, flags, NULL) == WK_ERR_NULL, "frags NULL");
    EXPECT(wk_fracture_anchors(&fv, 0, NULL, flags, NULL) == WK_ERR_NULL, "anchors NULL");
    EXPECT(wk_fracture_anchors(&fv, 0, &av, NULL, NULL) == WK_ERR_NULL, "flags NULL");
    EXPECT(wk_fracture_anchors(&fv, NAN, &av, flags, NULL) == WK_ERR_NOT_FINITE, "padding NaN");
    a.v[3][0] = NAN;
    EXPECT(wk_fracture_anchors(&fv, 0, &av, flags, NULL) == WK_ERR_NOT_FINITE, "anchor NaN");
    a.v[3][0] = -2;
    EXPECT(wk_fracture_anchors(&fv, 0, &av, flags, NULL) == WK_ERR_INVALID_ARG, "anchor min > max");
    a.v[3][0] = 1;
    EXPECT(wk_fracture_anchors(&fv, 0, &av, (uint8_t *)f.v[0], NULL) == WK_ERR_ALIAS, "flags alias bounds");
    EXPECT(flags[0] == 9 && flags[3] == 9, "flags written on error");
    boxset_free(&f);
    boxset_free(&a);
    return fails;
}

/* ---------------------------------------------------------------- volumes */

/* A mesh under construction: vertices and triangles appended. */
typedef struct mesh_builder {
    float *vx, *vy, *vz;
    uint32_t nv, cap_v;
    uint32_t *tris;
    uint32_t nt, cap_t;
    uint32_t starts[16];
    uint32_t meshes;
} mesh_builder;

static void mb_vertex(mesh_builder *m, double x, double y, double z) {
    if (m->nv == m->cap_v) {
        m->cap_v = m->cap_v ? 2 * m->cap_v : 64;
        m->vx = realloc(m->vx, m->cap_v * sizeof(float));
        m->vy = realloc(m->vy, m->cap_v * sizeof(float));
        m->vz = realloc(m->vz, m->cap_v * sizeof(float));
        if (!m->vx || !m->vy || !m->vz) abort();
    }
    m->vx[m->nv] = (float)x;
    m->vy[m->nv] = (float)y;
    m->vz[m->nv] = (float)z;
    m->nv++;
}

static void mb_tri(mesh_builder *m, uint32_t a, uint32_t b, uint32_t c) {
    if (m->nt == m->cap_t) {
        m->cap_t = m->cap_t ? 2 * m->cap_t : 64;
        m->tris = realloc(m->tris, (size_t)m->cap_t * 3 * sizeof(uint32_t));
        if (!m->tris) abort();
    }
    m->tris[3 * m->nt] = a;
    m->tris[3 * m->nt + 1] = b;
    m->tris[3 * m->nt + 2] = c;
    m->nt++;
}

static void mb_begin(mesh_builder *m) { m->starts[m->meshes++] = m->nt; }

/* Axis-aligned box [x0, x1] x ..., counter-clockwise from outside (inverted
 * when `flip`), skipping triangle `skip` (0..11, or -1). */
static void mb_box(mesh_builder *m, double x0, double y0, double z0, double x1, double y1, double z1, int flip,
                   int skip) {
    uint32_t b = m->nv;
    for (int k = 0; k < 8; k++) mb_vertex(m, k & 1 ? x1 : x0, k & 2 ? y1 : y0, k & 4 ? z1 : z0);
    /* Faces as quads (outward normal by the right-hand rule). */
    static const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    int t = 0;
    for (int f = 0; f < 6; f++) {
        const int *q = quads[f];
        int tri[2][3] = {{q[0], q[1], q[2]}, {q[0], q[2], q[3]}};
        for (int h = 0; h < 2; h++, t++) {
            if (t == skip) continue;
            if (flip) mb_tri(m, b + (uint32_t)tri[h][0], b + (uint32_t)tri[h][2], b + (uint32_t)tri[h][1]);
            else mb_tri(m, b + (uint32_t)tri[h][0], b + (uint32_t)tri[h][1], b + (uint32_t)tri[h][2]);
        }
    }
}

/* A UV sphere of radius rad at c with `seg` segments and `rings` rings. */
static void mb_sphere(mesh_builder *m, double cx, double cy, double cz, double rad, int seg, int rings) {
    const double pi = 3.14159265358979323846;
    uint32_t top = m->nv;
    mb_vertex(m, cx, cy, cz + rad);
    for (int i = 1; i < rings; i++) {
        double th = pi * i / rings;
        for (int j = 0; j < seg; j++) {
            double ph = 2 * pi * j / seg;
            mb_vertex(m, cx + rad * sin(th) * cos(ph), cy + rad * sin(th) * sin(ph), cz + rad * cos(th));
        }
    }
    uint32_t bottom = m->nv;
    mb_vertex(m, cx, cy, cz - rad);
#define RING(i, j) (top + 1 + (uint32_t)((i) - 1) * (uint32_t)seg + (uint32_t)((j) % seg))
    for (int j = 0; j < seg; j++) mb_tri(m, top, RING(1, j), RING(1, j + 1));
    for (int i = 1; i < rings - 1; i++)
        for (int j = 0; j < seg; j++) {
            mb_tri(m, RING(i, j), RING(i + 1, j), RING(i + 1, j + 1));
            mb_tri(m, RING(i, j), RING(i + 1, j + 1), RING(i, j + 1));
        }
    for (int j = 0; j < seg; j++) mb_tri(m, bottom, RING(rings - 1, j + 1), RING(rings - 1, j));
#undef RING
}

static wk_meshes mb_view(mesh_builder *m) {
    m->starts[m->meshes] = m->nt;
    wk_meshes v = WK_MESHES_DEFAULTS;
    v.vx = m->vx;
    v.vy = m->vy;
    v.vz = m->vz;
    v.vertex_count = m->nv;
    v.mesh_count = m->meshes;
    v.tris = m->tris;
    v.tri_count = m->nt;
    v.tri_start = m->starts;
    return v;
}

static void mb_free(mesh_builder *m) {
    free(m->vx);
    free(m->vy);
    free(m->vz);
    free(m->tris);
}

/* Volume of mesh k by the divergence theorem about the origin, with every
 * vertex first moved by -shift (exact in double for these floats): an
 * independent formula (sum of x * (area normal x) / 1, in long double). */
static long double volume_by_divergence(const wk_meshes *v, uint32_t k, double shift) {
    long double sum = 0;
    for (uint32_t t = v->tri_start[k]; t < v->tri_start[k + 1]; t++) {
        const uint32_t *tr = v->tris + 3 * (size_t)t;
        long double p[3][3];
        for (int c = 0; c < 3; c++) {
            p[c][0] = (long double)v->vx[tr[c]] - shift;
            p[c][1] = (long double)v->vy[tr[c]] - shift;
            p[c][2] = (long double)v->vz[tr[c]] - shift;
        }
        /* x-component of (b - a) x (c - a), times the mean x of the triangle. */
        long double ux = p[1][1] - p[0][1], uz = p[1][2] - p[0][2], wy = p[2][1] - p[0][1], wz = p[2][2] - p[0][2];
        long double nx = ux * wz - uz * wy;
        sum += nx * (p[0][0] + p[1][0] + p[2][0]) / 3;
    }
    return sum / 2;
}

typedef struct vol_ctx {
    wk_meshes v;
    void *ws;
    size_t ws_bytes;
} vol_ctx;

static int vol_run(void *vctx, const wk_exec *exec, uint32_t split, void *out) {
    (void)split;
    vol_ctx *c = vctx;
    uint32_t mc = c->v.mesh_count;
    double *vol = out, *mass = vol + mc;
    uint8_t *flags = (uint8_t *)(mass + mc);
    return wk_fracture_volumes(&c->v, 2.5, c->ws, c->ws_bytes, vol, mass, flags, exec);
}

int wk_check_fracture_volumes_known(void) {
    int fails = 0;
    mesh_builder m;
    memset(&m, 0, sizeof m);
    mb_begin(&m);
    mb_box(&m, 0, 0, 0, 1, 1, 1, 0, -1); /* unit cube */
    mb_begin(&m);
    mb_sphere(&m, 1e4, 1e4, 1e4, 1.0, 64, 32); /* far from the origin */
    mb_begin(&m);
    mb_box(&m, 0, 0, 0, 1, 1, 1, 1, -1); /* inverted cube */
    mb_begin(&m);
    mb_box(&m, 1e4, -2e4, 3e4, 1e4 + 2, -2e4 + 3, 3e4 + 0.5, 0, -1); /* 2 x 3 x 0.5 far away */
    mb_begin(&m);
    mb_sphere(&m, -3, 2, 1, 2.0, 24, 12);
    wk_meshes v = mb_view(&m);
    size_t bytes;
    EXPECT(wk_fracture_volumes_workspace_size(v.tri_count, &bytes) == WK_OK, "workspace size");
    void *ws = malloc(bytes + 1);
    double vol[5], mass[5];
    uint8_t flags[5];
    wk_status s = wk_fracture_volumes(&v, 2.5, (unsigned char *)ws + 1, bytes, vol, mass, flags, NULL);
    EXPECT(s == WK_OK, "status %d (%s)", s, wk_last_error_detail());
    EXPECT(vol[0] == 1.0 && flags[0] == 0 && mass[0] == 2.5, "unit cube: volume %.17g flags %d mass %g", vol[0], flags[0],
           mass[0]);
    /* The sphere: against the divergence-theorem volume of the same float
     * vertices, and against 4/3 pi (the polyhedron is a little smaller). */
    long double want = volume_by_divergence(&v, 1, 1e4);
    EXPECT(fabs(vol[1] - (double)want) <= 1e-9 * (double)want, "sphere at 1e4: %.15g, divergence says %.15Lg", vol[1],
           want);
    double ball = 4.0 / 3.0 * 3.14159265358979323846;
    EXPECT(vol[1] < ball && vol[1] > ball * 0.99, "sphere at 1e4: %.15g vs 4/3 pi %.15g", vol[1], ball);
    EXPECT(flags[1] == 0, "sphere flags %d", flags[1]);
    EXPECT(vol[2] == -1.0 && flags[2] == WK_MESH_INVERTED && mass[2] == -2.5, "inverted cube: %g flags %d mass %g",
           vol[2], flags[2], mass[2]);
    EXPECT(vol[3] == 3.0 && flags[3] == 0, "far box: %.17g flags %d (want 3 exactly)", vol[3], flags[3]);
    long double want4 = volume_by_divergence(&v, 4, 0);
    EXPECT(fabs(vol[4] - (double)want4) <= 1e-12 * (double)want4 && flags[4] == 0, "sphere r 2: %.15g vs %.15Lg", vol[4],
           want4);
    /* Every ISA and thread count: the same bits. */
    vol_ctx c = {v, ws, bytes};
    wk_harness h = {"volumes", vol_run, &c, 5 * (2 * sizeof(double) + 1), 1};
    fails += wk_harness_compare(&h);
    free(ws);
    mb_free(&m);
    return fails;
}

int wk_check_fracture_volumes_flags(void) {
    int fails = 0;
    mesh_builder m;
    memset(&m, 0, sizeof m);
    mb_begin(&m);
    mb_box(&m, 0, 0, 0, 1, 1, 1, 0, 5); /* one triangle missing: open */
    mb_begin(&m); /* empty */
    mb_begin(&m);
    mb_box(&m, 0, 0, 0, 2, 2, 2, 0, -1);
    mb_tri(&m, m.nv - 8, m.nv - 8, m.nv - 1); /* degenerate triangle on the space diagonal */
    mb_begin(&m);
    mb_box(&m, 0, 0, 0, 1, 1, 1, 0, -1);
    mb_box(&m, 5, 0, 0, 6, 1, 1, 0, -1); /* two closed boxes in one mesh: closed, volume 2 */
    mb_begin(&m);
    {
        /* A cube with one face wound the wrong way: open (edges unmatched). */
        uint32_t first = m.nt;
        mb_box(&m, 0, 0, 0, 1, 1, 1, 0, -1);
        uint32_t *t = m.tris + 3 * (size_t)first;
        uint32_t x = t[1];
        t[1] = t[2];
        t[2] = x;
        x = t[4];
        t[4] = t[5];
        t[5] = x;
    }
    mb_begin(&m);
    mb_box(&m, 0, 0, 0, 1, 1, 1, 0, -1);
    mb_box(&m, 0, 0, 0, 1, 1, 1, 0, -1); /* the same cube twice, same vertices would be shared: distinct here */
    wk_meshes v = mb_view(&m);
    size_t bytes;
    wk_fracture_volumes_workspace_size(v.tri_count, &bytes);
    void *ws = malloc(bytes);
    double vol[6];
    uint8_t flags[6];
    wk_status s = wk_fracture_volumes(&v, 1.0, ws, bytes, vol, NULL, flags, NULL);
    EXPECT(s == WK_OK, "status %d (%s)", s, wk_last_error_detail());
    EXPECT(flags[0] == WK_MESH_OPEN, "open cube flags %d", flags[0]);
    EXPECT(flags[1] == WK_MESH_EMPTY && vol[1] == 0, "empty flags %d volume %g", flags[1], vol[1]);
    EXPECT(flags[2] == WK_MESH_DEGENERATE && vol[2] == 8.0, "degenerate flags %d volume %g", flags[2], vol[2]);
    EXPECT(flags[3] == 0 && vol[3] == 2.0, "two boxes flags %d volume %g", flags[3], vol[3]);
    EXPECT(flags[4] & WK_MESH_OPEN, "flipped face flags %d", flags[4]);
    EXPECT(flags[5] == 0 && vol[5] == 2.0, "cube twice flags %d volume %g", flags[5], vol[5]);
    /* A shared-vertex duplicate: the same triangles twice on the same
     * vertices is not a 2-manifold: open. */
    mesh_builder d;
    memset(&d, 0, sizeof d);
    mb_begin(&d);
    mb_box(&d, 0, 0, 0, 1, 1, 1, 0, -1);
    uint32_t nt = d.nt;
    for (uint32_t t = 0; t < nt; t++) mb_tri(&d, d.tris[3 * t], d.tris[3 * t + 1], d.tris[3 * t + 2]);
    wk_meshes dv = mb_view(&d);
    size_t dbytes;
    wk_fracture_volumes_workspace_size(dv.tri_count, &dbytes);
    void *dws = malloc(dbytes);
    EXPECT(wk_fracture_volumes(&dv, 1.0, dws, dbytes, vol, NULL, flags, NULL) == WK_OK && flags[0] == WK_MESH_OPEN &&
               vol[0] == 2.0,
           "doubled triangles: flags %d volume %g", flags[0], vol[0]);
    /* Without flags no workspace is needed. */
    EXPECT(wk_fracture_volumes(&v, 1.0, NULL, 0, vol, NULL, NULL, NULL) == WK_OK && vol[3] == 2.0, "no flags");
    free(dws);
    mb_free(&d);
    free(ws);
    mb_free(&m);
    return fails;
}

int wk_check_fracture_volumes_bad_input(void) {
    int fails = 0;
    mesh_builder m;
    memset(&m, 0, sizeof m);
    mb_begin(&m);
    mb_box(&m, 0, 0, 0, 1, 1, 1, 0, -1);
    wk_meshes v = mb_view(&m);
    size_t bytes;
    wk_fracture_volumes_workspace_size(v.tri_count, &bytes);
    void *ws = malloc(bytes);
    double vol[1] = {-7};
    uint8_t flags[1] = {77};
    EXPECT(wk_fracture_volumes(NULL, 1, ws, bytes, vol, NULL, flags, NULL) == WK_ERR_NULL, "meshes NULL");
    EXPECT(wk_fracture_volumes(&v, 1, ws, bytes, NULL, NULL, flags, NULL) == WK_ERR_NULL, "volumes NULL");
    EXPECT(wk_fracture_volumes(&v, NAN, ws, bytes, vol, NULL, flags, NULL) == WK_ERR_NOT_FINITE, "density NaN");
    EXPECT(wk_fracture_volumes(&v, 1, ws, bytes - 1, vol, NULL, flags, NULL) == WK_ERR_CAPACITY, "small workspace");
    EXPECT(wk_fracture_volumes(&v, 1, NULL, 0, vol, NULL, flags, NULL) == WK_ERR_NULL, "workspace NULL");
    m.tris[4] = 99;
    EXPECT(wk_fracture_volumes(&v, 1, ws, bytes, vol, NULL, flags, NULL) == WK_ERR_INVALID_ARG, "index out of range");
    m.tris[4] = 1;
    m.vy[3] = INFINITY;
    EXPECT(wk_fracture_volumes(&v, 1, ws, bytes, vol, NULL, flags, NULL) == WK_ERR_NOT_FINITE, "vertex Inf");
    m.vy[3] = 1;
    uint32_t starts[2] = {5, 2};
    wk_meshes bad = v;
    bad.tri_start = starts;
    EXPECT(wk_fracture_volumes(&bad, 1, ws, bytes, vol, NULL, flags, NULL) == WK_ERR_INVALID_ARG, "starts decrease");
    starts[1] = 13;
    starts[0] = 0;
    EXPECT(wk_fracture_volumes(&bad, 1, ws, bytes, vol, NULL, flags, NULL) == WK_ERR_INVALID_ARG, "past tri_count");
    bad = v;
    bad.reserved32 = 1;
    EXPECT(wk_fracture_volumes(&bad, 1, ws, bytes, vol, NULL, flags, NULL) == WK_ERR_INVALID_ARG, "reserved");
    EXPECT(wk_fracture_volumes(&v, 1, ws, bytes, vol, vol, flags, NULL) == WK_ERR_ALIAS, "masses alias volumes");
    EXPECT(wk_fracture_volumes(&v, 1, vol, bytes, vol, NULL, flags, NULL) == WK_ERR_ALIAS, "workspace alias");
    EXPECT(vol[0] == -7 && flags[0] == 77, "outputs written on error");
    free(ws);
    mb_free(&m);
    return fails;
}
