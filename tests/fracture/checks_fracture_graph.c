/* The fracture family's checks of the support graph: every break against a
 * full breadth-first search written in the test, the cases the issue lists,
 * and bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fracture_test_util.h"
#include "wk_checks.h"
#include "worldkern/fracture.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Checks one break's result against the reference: the alive set equals the
 * breadth-first support with every broken id removed, and `fallen` lists
 * exactly the fragments alive before, not broken now, not alive after,
 * ascending. Updates prev (alive before) to the new state. */
static int check_break(const char *what, wk_fracture_graph *g, const ref_graph *ref, const uint8_t *anchor,
                       const uint8_t *removed, const uint8_t *broken_now, uint8_t *prev, uint8_t *want,
                       uint8_t *got, const uint32_t *fallen, size_t fallen_count) {
    int fails = 0;
    uint32_t n = ref->n, want_count = ref_support(ref, anchor, removed, want), got_count = 0;
    EXPECT(wk_fracture_graph_alive(g, got, &got_count) == WK_OK, "%s: alive", what);
    EXPECT(got_count == want_count, "%s: %u alive, breadth-first search says %u", what, got_count, want_count);
    EXPECT(memcmp(got, want, n) == 0, "%s: alive flags differ from breadth-first search", what);
    size_t k = 0;
    int listed_ok = 1;
    for (uint32_t v = 0; v < n; v++) {
        if (!(prev[v] && !want[v] && !broken_now[v])) continue;
        if (k >= fallen_count || fallen[k] != v) listed_ok = 0;
        k++;
    }
    EXPECT(listed_ok && k == fallen_count, "%s: fallen list (%zu) differs from the expected (%zu)", what,
           fallen_count, k);
    memcpy(prev, want, n);
    return fails;
}

typedef struct graph_case {
    uint32_t n;
    uint32_t *pairs;
    size_t npairs;
    uint8_t *anchor;
} graph_case;

static void free_case(graph_case *c) {
    free(c->pairs);
    free(c->anchor);
}

/* Random graphs of four shapes: contact graphs of random boxes anchored by
 * a ground box; a lattice anchored at the bottom; random sparse pairs with
 * duplicates and self pairs and a few random anchors; long chains and
 * rings joined at random. */
static graph_case make_case(int shape, wk_rng *r) {
    graph_case c = {0, NULL, 0, NULL};
    if (shape == 0 || shape == 1) {
        uint32_t n = shape == 0 ? 2000 : 1331;
        boxset b = boxset_new(n);
        gen_boxes(&b, r, shape == 0 ? 0 : 1);
        adjacency_alloc(&b, 0.0f, NULL, &c.pairs, &c.npairs);
        boxset ground = boxset_new(1);
        boxset_set(&ground, 0, -100, -100, -100, 100, 100, shape == 0 ? 1.0f : 0.0f);
        c.n = n;
        c.anchor = malloc(n);
        wk_boxes f = boxset_view(&b), a = boxset_view(&ground);
        wk_fracture_anchors(&f, 0.0f, &a, c.anchor, NULL);
        boxset_free(&b);
        boxset_free(&ground);
    } else if (shape == 2) {
        uint32_t n = 3000;
        c.n = n;
        c.npairs = 4500;
        c.pairs = malloc(c.npairs * 2 * sizeof(uint32_t));
        for (size_t k = 0; k < c.npairs; k++) {
            c.pairs[2 * k] = (uint32_t)(wk_rng_u64(r) % n);
            c.pairs[2 * k + 1] = (uint32_t)(wk_rng_u64(r) % n);
            if (k % 97 == 0) c.pairs[2 * k + 1] = c.pairs[2 * k];                      /* self pair */
            if (k % 89 == 1) {                                                          /* repeated, reversed */
                c.pairs[2 * k] = c.pairs[2 * k - 1];
                c.pairs[2 * k + 1] = c.pairs[2 * k - 2];
            }
        }
        c.anchor = malloc(n);
        for (uint32_t v = 0; v < n; v++) c.anchor[v] = wk_rng_u64(r) % 40 == 0;
    } else {
        uint32_t n = 1500;
        c.n = n;
        c.npairs = n + 60;
        c.pairs = malloc(c.npairs * 2 * sizeof(uint32_t));
        for (uint32_t v = 0; v < n; v++) { /* chains of 100, each closed into a ring */
            c.pairs[2 * v] = v;
            c.pairs[2 * v + 1] = v % 100 == 99 ? v - 99 : v + 1;
        }
        for (size_t k = n; k < c.npairs; k++) { /* random bridges */
            c.pairs[2 * k] = (uint32_t)(wk_rng_u64(r) % n);
            c.pairs[2 * k + 1] = (uint32_t)(wk_rng_u64(r) % n);
        }
        c.anchor = calloc(n, 1);
        for (uint32_t v = 0; v < n; v += 250) c.anchor[v] = 1;
    }
    return c;
}

int wk_check_fracture_graph_vs_bfs(void) {
    int fails = 0;
    wk_rng r = {2024};
    int total_breaks = 0;
    for (int shape = 0; shape < 4; shape++)
        for (int rep = 0; rep < 2; rep++) {
            graph_case c = make_case(shape, &r);
            uint32_t n = c.n;
            ref_graph ref = ref_graph_new(n, c.pairs, c.npairs);
            wk_fracture_graph *g = NULL;
            wk_status s = wk_fracture_graph_create(n, c.pairs, c.npairs, c.anchor, NULL, &g, NULL);
            EXPECT(s == WK_OK && g, "shape %d: create status %d (%s)", shape, s, wk_last_error_detail());
            if (!g) continue;
            uint8_t *removed = calloc(n, 1), *broken_now = calloc(n, 1), *prev = malloc(n), *want = malloc(n),
                    *got = malloc(n);
            ref_support(&ref, c.anchor, NULL, prev);
            uint8_t *initial = malloc(n);
            memcpy(initial, prev, n);
            uint32_t init_count = 0;
            wk_fracture_graph_alive(g, got, &init_count);
            EXPECT(memcmp(got, prev, n) == 0, "shape %d: initial support differs", shape);
            for (int b = 0; b < 1250 && fails == 0; b++, total_breaks++) {
                uint32_t ids[6];
                size_t k = wk_rng_u64(&r) % 8 == 0 ? 1 + wk_rng_u64(&r) % 6 : 1;
                for (size_t i = 0; i < k; i++) {
                    ids[i] = (uint32_t)(wk_rng_u64(&r) % n);
                    /* Mostly alive fragments: breaking dead ones is a no-op. */
                    for (int tries = 0; tries < 4 && !prev[ids[i]]; tries++) ids[i] = (uint32_t)(wk_rng_u64(&r) % n);
                }
                for (size_t i = 0; i < k; i++) {
                    if (prev[ids[i]]) broken_now[ids[i]] = 1;
                    removed[ids[i]] = 1;
                }
                const uint32_t *fallen = NULL;
                size_t fallen_count = 99;
                s = wk_fracture_graph_break(g, ids, k, &fallen, &fallen_count, NULL);
                EXPECT(s == WK_OK, "break status %d", s);
                char what[96];
                snprintf(what, sizeof what, "shape %d rep %d break %d (k %zu, id %u)", shape, rep, b, k, ids[0]);
                fails += check_break(what, g, &ref, c.anchor, removed, broken_now, prev, want, got, fallen, fallen_count);
                for (size_t i = 0; i < k; i++) broken_now[ids[i]] = 0;
                /* Now and then, the same ids again: nothing happens. */
                if (b % 16 == 5) {
                    s = wk_fracture_graph_break(g, ids, k, &fallen, &fallen_count, NULL);
                    EXPECT(s == WK_OK && fallen_count == 0, "%s: breaking again returned %zu", what, fallen_count);
                }
                uint32_t alive_count = 0;
                wk_fracture_graph_alive(g, got, &alive_count);
                if (alive_count < n / 10) { /* mostly gone: start over */
                    EXPECT(wk_fracture_graph_reset(g) == WK_OK, "reset");
                    memset(removed, 0, n);
                    memcpy(prev, initial, n);
                    wk_fracture_graph_alive(g, got, &alive_count);
                    EXPECT(memcmp(got, initial, n) == 0 && alive_count == init_count, "reset state differs");
                }
            }
            wk_fracture_graph_destroy(g);
            free(removed);
            free(broken_now);
            free(prev);
            free(want);
            free(got);
            free(initial);
            ref_graph_free(&ref);
            free_case(&c);
        }
    EXPECT(total_breaks >= 10000, "only %d breaks checked", total_breaks);
    return fails;
}

/* Breaks ids and compares the fallen list with the expected one. */
static int expect_fall(wk_fracture_graph *g, const uint32_t *ids, size_t k, const uint32_t *want, size_t want_count,
                       const char *what) {
    int fails = 0;
    const uint32_t *fallen = NULL;
    size_t count = 12345;
    wk_status s = wk_fracture_graph_break(g, ids, k, &fallen, &count, NULL);
    EXPECT(s == WK_OK, "%s: status %d (%s)", what, s, wk_last_error_detail());
    EXPECT(count == want_count, "%s: %zu fell, want %zu", what, count, want_count);
    for (size_t i = 0; i < count && i < want_count; i++)
        EXPECT(fallen[i] == want[i], "%s: fallen[%zu] = %u, want %u", what, i, fallen[i], want[i]);
    return fails;
}

static wk_fracture_graph *make_graph(uint32_t n, const uint32_t *pairs, size_t npairs, const uint8_t *anchor) {
    wk_fracture_graph *g = NULL;
    if (wk_fracture_graph_create(n, pairs, npairs, anchor, NULL, &g, NULL) != WK_OK) return NULL;
    return g;
}

typedef struct counting_alloc {
    int allocs, frees, fail;
    size_t live;
} counting_alloc;

static void *count_alloc(void *user, size_t bytes) {
    counting_alloc *c = user;
    if (c->fail) return NULL;
    c->allocs++;
    c->live += bytes;
    return malloc(bytes);
}

static void count_free(void *user, void *p, size_t bytes) {
    counting_alloc *c = user;
    c->frees++;
    c->live -= bytes;
    free(p);
}

int wk_check_fracture_graph_cases(void) {
    int fails = 0;
    {
        /* The broken fragment is an anchor: a chain 0-1-2-3. */
        uint32_t pairs[] = {0, 1, 1, 2, 2, 3};
        uint8_t one[4] = {1, 0, 0, 0}, two[4] = {1, 0, 0, 1};
        wk_fracture_graph *g = make_graph(4, pairs, 3, one);
        uint32_t id = 0, want[] = {1, 2, 3};
        fails += expect_fall(g, &id, 1, want, 3, "chain, only anchor broken");
        fails += expect_fall(g, &id, 1, NULL, 0, "the same again");
        wk_fracture_graph_destroy(g);
        g = make_graph(4, pairs, 3, two);
        fails += expect_fall(g, &id, 1, NULL, 0, "chain, one of two anchors broken");
        id = 3;
        fails += expect_fall(g, &id, 1, want, 2, "chain, the other anchor broken");
        wk_fracture_graph_destroy(g);
    }
    {
        /* One break makes three islands: a hub 0 with arms 1-2, 3-4, 5-6;
         * the anchor is at the end of the first arm. */
        uint32_t pairs[] = {0, 1, 1, 2, 0, 3, 3, 4, 0, 5, 5, 6};
        uint8_t anchor[7] = {0, 0, 1, 0, 0, 0, 0};
        wk_fracture_graph *g = make_graph(7, pairs, 6, anchor);
        uint32_t id = 0, want[] = {3, 4, 5, 6};
        fails += expect_fall(g, &id, 1, want, 4, "three islands");
        uint8_t alive[7];
        uint32_t count;
        wk_fracture_graph_alive(g, alive, &count);
        EXPECT(count == 2 && alive[1] && alive[2], "three islands: %u alive", count);
        wk_fracture_graph_destroy(g);
    }
    {
        /* Isolated fragments: anchored ones stay, the others are never alive
         * and never reported. */
        uint8_t anchor[5] = {0, 1, 0, 1, 0};
        wk_fracture_graph *g = make_graph(5, NULL, 0, anchor);
        uint8_t alive[5];
        uint32_t count;
        wk_fracture_graph_alive(g, alive, &count);
        EXPECT(count == 2 && alive[1] && alive[3] && !alive[0], "isolated: %u alive", count);
        uint32_t ids[] = {0, 1, 2};
        fails += expect_fall(g, ids, 3, NULL, 0, "isolated broken");
        wk_fracture_graph_alive(g, alive, &count);
        EXPECT(count == 1 && alive[3], "isolated after: %u alive", count);
        wk_fracture_graph_destroy(g);
    }
    {
        /* Two anchored components: 0-1-2 (anchor 0), 3-4-5 (anchor 5). */
        uint32_t pairs[] = {0, 1, 1, 2, 3, 4, 4, 5};
        uint8_t anchor[6] = {1, 0, 0, 0, 0, 1};
        wk_fracture_graph *g = make_graph(6, pairs, 4, anchor);
        uint32_t id = 1, w2[] = {2}, w3[] = {3};
        fails += expect_fall(g, &id, 1, w2, 1, "first component");
        id = 4;
        fails += expect_fall(g, &id, 1, w3, 1, "second component");
        wk_fracture_graph_destroy(g);
    }
    {
        /* A ring 0..7 anchored at 0: one cut leaves it hanging on the other
         * side; the second cut drops what is between. */
        uint32_t pairs[16];
        for (uint32_t v = 0; v < 8; v++) {
            pairs[2 * v] = v;
            pairs[2 * v + 1] = (v + 1) % 8;
        }
        uint8_t anchor[8] = {1};
        wk_fracture_graph *g = make_graph(8, pairs, 8, anchor);
        uint32_t id = 3, want[] = {4, 5};
        fails += expect_fall(g, &id, 1, NULL, 0, "ring, one cut");
        id = 6;
        fails += expect_fall(g, &id, 1, want, 2, "ring, second cut");
        wk_fracture_graph_destroy(g);
    }
    {
        /* Several breaks before one query: a 4 x 4 x 4 lattice anchored at
         * the bottom, the second layer broken in four calls but for one
         * corner, then that corner: everything above falls at once. */
        boxset b = boxset_new(64);
        for (uint32_t i = 0; i < 64; i++) {
            float x = (float)(i % 4), y = (float)(i / 4 % 4), z = (float)(i / 16);
            boxset_set(&b, i, x, y, z, x + 1, y + 1, z + 1);
        }
        uint32_t *pairs;
        size_t np;
        adjacency_alloc(&b, 0, NULL, &pairs, &np);
        uint8_t anchor[64];
        for (uint32_t i = 0; i < 64; i++) anchor[i] = i < 16;
        wk_fracture_graph *g = make_graph(64, pairs, np, anchor);
        for (uint32_t part = 0; part < 4; part++) {
            uint32_t ids[4];
            size_t k = 0;
            for (uint32_t i = 16 + part * 4; i < 20 + part * 4; i++)
                if (i != 31) ids[k++] = i;
            fails += expect_fall(g, ids, k, NULL, 0, "second layer but one");
        }
        uint32_t last = 31, want[32];
        for (uint32_t i = 0; i < 32; i++) want[i] = 32 + i;
        fails += expect_fall(g, &last, 1, want, 32, "last pillar");
        uint8_t alive[64];
        uint32_t count;
        wk_fracture_graph_alive(g, alive, &count);
        EXPECT(count == 16, "lattice: %u alive, want 16", count);
        wk_fracture_graph_destroy(g);
        free(pairs);
        boxset_free(&b);
    }
    {
        /* Duplicates and self pairs are ignored: the same graph as without. */
        uint32_t pairs[] = {1, 1, 0, 1, 1, 0, 0, 1, 2, 2, 1, 2, 2, 1};
        uint8_t anchor[3] = {1, 0, 0};
        wk_fracture_graph *g = make_graph(3, pairs, 7, anchor);
        EXPECT(g && wk_fracture_graph_pair_count(g) == 2 && wk_fracture_graph_size(g) == 3, "dedup: %zu pairs",
               wk_fracture_graph_pair_count(g));
        uint32_t id = 1, want[] = {2};
        fails += expect_fall(g, &id, 1, want, 1, "dedup break");
        /* Repeated ids, k = 0 and reset. */
        fails += expect_fall(g, NULL, 0, NULL, 0, "k = 0");
        EXPECT(wk_fracture_graph_reset(g) == WK_OK, "reset");
        uint32_t ids[] = {1, 1, 1};
        fails += expect_fall(g, ids, 3, want, 1, "repeated ids");
        wk_fracture_graph_destroy(g);
    }
    {
        /* Allocator hooks: one allocation, given back; a failing one. */
        counting_alloc ca = {0, 0, 0, 0};
        wk_allocator hooks = WK_ALLOCATOR_DEFAULTS;
        hooks.alloc = count_alloc;
        hooks.free = count_free;
        hooks.user = &ca;
        uint32_t pairs[] = {0, 1};
        wk_fracture_graph *g = NULL;
        EXPECT(wk_fracture_graph_create(2, pairs, 1, NULL, &hooks, &g, NULL) == WK_OK && ca.allocs == 1, "hooks");
        wk_fracture_graph_destroy(g);
        EXPECT(ca.frees == 1 && ca.live == 0, "hooks: %d frees, %zu bytes live", ca.frees, ca.live);
        ca.fail = 1;
        g = (wk_fracture_graph *)&ca;
        EXPECT(wk_fracture_graph_create(2, pairs, 1, NULL, &hooks, &g, NULL) == WK_ERR_NO_MEMORY && g == NULL,
               "failing allocator");
        wk_fracture_graph_destroy(NULL);
        g = NULL;
        EXPECT(wk_fracture_graph_create(0, NULL, 0, NULL, NULL, &g, NULL) == WK_OK && g, "empty graph");
        fails += expect_fall(g, NULL, 0, NULL, 0, "empty graph break");
        wk_fracture_graph_destroy(g);
    }
    return fails;
}

int wk_check_fracture_graph_bad_input(void) {
    int fails = 0;
    uint32_t pairs[] = {0, 1, 1, 2};
    uint8_t anchor[3] = {1, 0, 0};
    wk_fracture_graph *g = (wk_fracture_graph *)pairs;
    EXPECT(wk_fracture_graph_create(3, pairs, 2, anchor, NULL, NULL, NULL) == WK_ERR_NULL, "g NULL");
    EXPECT(wk_fracture_graph_create(3, NULL, 2, anchor, NULL, &g, NULL) == WK_ERR_NULL && !g, "pairs NULL");
    g = (wk_fracture_graph *)pairs;
    EXPECT(wk_fracture_graph_create(2, pairs, 2, anchor, NULL, &g, NULL) == WK_ERR_INVALID_ARG && !g, "id >= n");
    EXPECT(wk_fracture_graph_create(0x80000000u, pairs, 2, anchor, NULL, &g, NULL) == WK_ERR_OVERFLOW, "n too big");
    wk_allocator hooks = WK_ALLOCATOR_DEFAULTS;
    hooks.alloc = count_alloc;
    EXPECT(wk_fracture_graph_create(3, pairs, 2, anchor, &hooks, &g, NULL) == WK_ERR_INVALID_ARG, "one hook");
    hooks.alloc = NULL;
    hooks.reserved[0] = 1;
    EXPECT(wk_fracture_graph_create(3, pairs, 2, anchor, &hooks, &g, NULL) == WK_ERR_INVALID_ARG, "hooks reserved");
    EXPECT(wk_fracture_graph_create(3, pairs, 2, anchor, NULL, &g, NULL) == WK_OK, "good create");
    const uint32_t *fallen = (const uint32_t *)anchor;
    size_t count = 777;
    uint32_t ids[] = {1, 3};
    EXPECT(wk_fracture_graph_break(g, ids, 2, &fallen, &count, NULL) == WK_ERR_INVALID_ARG, "id >= n");
    EXPECT(fallen == (const uint32_t *)anchor && count == 777, "outputs written on error");
    uint8_t alive[3];
    uint32_t alive_count;
    wk_fracture_graph_alive(g, alive, &alive_count);
    EXPECT(alive_count == 3, "graph changed by a failed break (%u alive)", alive_count);
    EXPECT(wk_fracture_graph_break(NULL, ids, 1, &fallen, &count, NULL) == WK_ERR_NULL, "g NULL");
    EXPECT(wk_fracture_graph_break(g, NULL, 1, &fallen, &count, NULL) == WK_ERR_NULL, "ids NULL");
    EXPECT(wk_fracture_graph_break(g, ids, 1, NULL, &count, NULL) == WK_ERR_NULL, "fallen NULL");
    EXPECT(wk_fracture_graph_alive(NULL, alive, NULL) == WK_ERR_NULL, "alive g NULL");
    EXPECT(wk_fracture_graph_alive(g, NULL, NULL) == WK_ERR_NULL, "alive NULL");
    EXPECT(wk_fracture_graph_reset(NULL) == WK_ERR_NULL, "reset NULL");
    EXPECT(wk_fracture_graph_size(NULL) == 0 && wk_fracture_graph_pair_count(NULL) == 0, "NULL sizes");
    wk_fracture_graph_destroy(g);
    return fails;
}

/* The whole pipeline: boxes -> adjacency -> anchors -> graph -> break ->
 * volumes of what fell. A 10 x 10 x 10 lattice of unit cubes on a ground
 * slab; breaking the second layer drops the 800 cubes above it. */
int wk_check_fracture_pipeline(void) {
    int fails = 0;
    uint32_t n = 1000;
    boxset b = boxset_new(n);
    for (uint32_t i = 0; i < n; i++) {
        float x = (float)(i % 10), y = (float)(i / 10 % 10), z = (float)(i / 100);
        boxset_set(&b, i, x, y, z, x + 1, y + 1, z + 1);
    }
    uint32_t *pairs;
    size_t np;
    EXPECT(adjacency_alloc(&b, 0.001f, NULL, &pairs, &np) == WK_OK, "adjacency");
    boxset ground = boxset_new(1);
    boxset_set(&ground, 0, -50, -50, -1, 50, 50, 0);
    uint8_t *anchor = malloc(n);
    wk_boxes f = boxset_view(&b), a = boxset_view(&ground);
    EXPECT(wk_fracture_anchors(&f, 0.0f, &a, anchor, NULL) == WK_OK, "anchors");
    uint32_t anchors = 0;
    for (uint32_t i = 0; i < n; i++) anchors += anchor[i];
    EXPECT(anchors == 100, "%u anchors, want the 100 of the bottom layer", anchors);
    wk_fracture_graph *g = NULL;
    EXPECT(wk_fracture_graph_create(n, pairs, np, anchor, NULL, &g, NULL) == WK_OK, "create");
    uint32_t layer[100];
    for (uint32_t i = 0; i < 100; i++) layer[i] = 100 + i;
    const uint32_t *fallen;
    size_t count = 0;
    EXPECT(g && wk_fracture_graph_break(g, layer, 100, &fallen, &count, NULL) == WK_OK && count == 800,
           "second layer: %zu fell, want 800", count);
    for (size_t i = 0; i < count && i < 800; i++) EXPECT(fallen[i] == 200 + i, "fallen[%zu] = %u", i, fallen[i]);
    wk_fracture_graph_destroy(g);
    free(anchor);
    free(pairs);
    boxset_free(&ground);
    boxset_free(&b);
    return fails;
}
