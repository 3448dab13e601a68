/* libFuzzer target: random support graphs (pairs with self and repeated
 * pairs, anchors) and random break sequences, every break checked against
 * a full breadth-first search written here; reset in the middle; bad ids.
 * abort() on any mismatch. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/fracture.h"

typedef struct reader { const uint8_t *p; size_t n; } reader;
static uint8_t byte(reader *r) {
    if (!r->n) return 0;
    r->n--;
    return *r->p++;
}

enum { MAX_N = 200, MAX_P = 600 };

static uint32_t n, npairs;
static uint32_t pairs[2 * MAX_P];
static uint8_t anchor[MAX_N], removed[MAX_N];

static uint32_t bfs(uint8_t *alive) {
    uint32_t queue[MAX_N], head = 0, tail = 0;
    for (uint32_t v = 0; v < n; v++) {
        alive[v] = anchor[v] && !removed[v];
        if (alive[v]) queue[tail++] = v;
    }
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t k = 0; k < npairs; k++) {
            uint32_t a = pairs[2 * k], b = pairs[2 * k + 1], w;
            if (a == u) w = b;
            else if (b == u) w = a;
            else continue;
            if (alive[w] || removed[w]) continue;
            alive[w] = 1;
            queue[tail++] = w;
        }
    }
    return tail;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    n = 1 + byte(&r) % MAX_N;
    npairs = byte(&r) * 3u % MAX_P;
    for (uint32_t k = 0; k < npairs; k++) {
        pairs[2 * k] = byte(&r) % n;
        pairs[2 * k + 1] = (byte(&r) & 3) == 0 ? pairs[2 * k] : byte(&r) % n;
    }
    uint8_t density = byte(&r);
    for (uint32_t v = 0; v < n; v++) anchor[v] = (uint8_t)((v * 37u + density) % 16 < (density & 7u));
    memset(removed, 0, sizeof removed);
    wk_fracture_graph *g = NULL;
    if (wk_fracture_graph_create(n, pairs, npairs, anchor, NULL, &g, NULL) != WK_OK) abort();
    uint8_t want[MAX_N], got[MAX_N], prev[MAX_N];
    bfs(prev);
    uint32_t count;
    if (wk_fracture_graph_alive(g, got, &count) != WK_OK || memcmp(got, prev, n) != 0) abort();
    while (r.n > 0) {
        uint8_t op = byte(&r);
        if (op == 255) { /* reset */
            if (wk_fracture_graph_reset(g) != WK_OK) abort();
            memset(removed, 0, sizeof removed);
            bfs(prev);
            continue;
        }
        uint32_t ids[8], k = 1 + op % 8;
        uint8_t now[MAX_N];
        memset(now, 0, n);
        for (uint32_t i = 0; i < k; i++) ids[i] = byte(&r) % (n + (op == 254 ? 1 : 0));
        const uint32_t *fallen = NULL;
        size_t fallen_count = 0;
        wk_status s = wk_fracture_graph_break(g, ids, k, &fallen, &fallen_count, NULL);
        int bad = 0;
        for (uint32_t i = 0; i < k; i++) bad |= ids[i] >= n;
        if (bad) {
            if (s != WK_ERR_INVALID_ARG) abort();
            continue;
        }
        if (s != WK_OK) abort();
        for (uint32_t i = 0; i < k; i++) {
            if (prev[ids[i]]) now[ids[i]] = 1;
            removed[ids[i]] = 1;
        }
        uint32_t want_count = bfs(want);
        if (wk_fracture_graph_alive(g, got, &count) != WK_OK || count != want_count || memcmp(got, want, n) != 0)
            abort();
        size_t j = 0;
        for (uint32_t v = 0; v < n; v++) {
            if (!(prev[v] && !want[v] && !now[v])) continue;
            if (j >= fallen_count || fallen[j] != v) abort();
            j++;
        }
        if (j != fallen_count) abort();
        memcpy(prev, want, n);
    }
    wk_fracture_graph_destroy(g);
    return 0;
}
