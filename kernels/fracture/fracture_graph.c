/* The support graph: CSR neighbour arrays plus a spanning forest of routes
 * towards the anchors, kept up to date by breaks.
 *
 * State: every alive fragment is supported and has a route: parent[v] is an
 * alive neighbour closer to an anchor along the forest (NONE for an anchor),
 * depth[v] > depth[parent[v]] (0 for anchors: depths fall strictly along
 * every route; right after a build they are hop counts), and each node keeps
 * its children in a doubly linked list (child, next, prev), so that the
 * fragments whose route runs through a broken one (its descendants, the
 * orphans) can be listed without looking at anything else.
 *
 * A break of X: mark X removed. Each alive child c of a broken fragment
 * first tries the fast path: a neighbour v with depth[v] <= min depth over
 * X cannot descend from X (depths fall strictly along routes), so c and its
 * whole subtree hang on v at once (depth[c] = depth[v] + 1, no more than
 * before, so the rule holds for c's children). The children that find no
 * such neighbour, with their subtrees, are the orphans; every other alive
 * fragment keeps a valid route. Each
 * orphan that touches a routed fragment (alive, not a pending orphan) is
 * attached to the one with the fewest hops (then the lowest id); the
 * attached ones grow breadth-first through the pending orphans. Orphans
 * left pending have no path to an anchor: they fall. Work: the orphans and
 * their neighbour lists (twice), never the rest of the graph.
 *
 * Why it is right: a pending orphan u with a path to an alive anchor a
 * (anchors have no parent, so they are never orphans) reaches, along that
 * path, a first fragment that is not a pending orphan; the fragment before
 * it on the path is an orphan next to a routed fragment, so it was
 * attached, and the breadth-first growth reaches u. Fragments that fall
 * have no children (children of orphans are orphans, and only attached or
 * routed fragments become parents), so no route runs through them. */
#include "core/wk_fp_guard.h"

#include <stdlib.h>
#include <string.h>

#include "core/wk_core.h"
#include "worldkern/fracture.h"

#define NONE 0xFFFFFFFFu

struct wk_fracture_graph {
    wk_allocator alloc;
    void *mem;
    size_t mem_bytes;
    uint32_t n;
    size_t pairs;         /* undirected neighbour pairs after dedup */
    uint32_t *off;        /* n + 1: neighbours of v are adj[off[v] .. off[v + 1]), ascending */
    uint32_t *adj;
    uint8_t *anchor;      /* as given (1 / 0) */
    uint8_t *alive;
    uint32_t *parent, *depth, *child, *next, *prev;
    uint32_t *mark;       /* epoch stamps: == epoch pending orphan, == epoch + 1 attached */
    uint32_t *list;       /* orphans of the current break, then what fell */
    uint32_t *queue;      /* broken ids, then the breadth-first queue */
    uint32_t epoch;
    uint32_t alive_count;
};


/* Ascending sort of a short-ish list of ids (insertion, or heap sort). */
static void sort_ids(uint32_t *v, size_t n) {
    if (n <= 32) {
        for (size_t a = 1; a < n; a++) {
            uint32_t x = v[a];
            size_t b = a;
            for (; b > 0 && v[b - 1] > x; b--) v[b] = v[b - 1];
            v[b] = x;
        }
        return;
    }
    for (size_t s = n / 2; s-- > 0;)
        for (size_t r = s;;) {
            size_t c = 2 * r + 1;
            if (c >= n) break;
            if (c + 1 < n && v[c + 1] > v[c]) c++;
            if (v[r] >= v[c]) break;
            uint32_t t = v[r]; v[r] = v[c]; v[c] = t;
            r = c;
        }
    for (size_t e = n; e-- > 1;) {
        uint32_t t = v[0]; v[0] = v[e]; v[e] = t;
        for (size_t r = 0;;) {
            size_t c = 2 * r + 1;
            if (c >= e) break;
            if (c + 1 < e && v[c + 1] > v[c]) c++;
            if (v[r] >= v[c]) break;
            t = v[r]; v[r] = v[c]; v[c] = t;
            r = c;
        }
    }
}

/* Ascending sort of n ids < 2^31 with scratch tmp (n entries): insertion
 * for short lists, else three 11-bit radix passes. */
static void sort_ids_radix(uint32_t *v, uint32_t *tmp, size_t n) {
    if (n <= 64) {
        sort_ids(v, n);
        return;
    }
    uint32_t count[2048];
    uint32_t *from = v, *to = tmp;
    for (int shift = 0; shift < 33; shift += 11) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++) count[from[i] >> shift & 2047]++;
        uint32_t sum = 0;
        for (int b = 0; b < 2048; b++) {
            uint32_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) to[count[from[i] >> shift & 2047]++] = from[i];
        uint32_t *t = from;
        from = to;
        to = t;
    }
    memcpy(v, from, n * sizeof *v); /* three passes: the result is in tmp */
}

static inline void link_child(wk_fracture_graph *g, uint32_t p, uint32_t c) {
    g->parent[c] = p;
    g->depth[c] = g->depth[p] + 1;
    uint32_t first = g->child[p];
    g->next[c] = first;
    g->prev[c] = NONE;
    if (first != NONE) g->prev[first] = c;
    g->child[p] = c;
}

static inline void unlink_child(wk_fracture_graph *g, uint32_t c) {
    uint32_t p = g->parent[c], a = g->prev[c], b = g->next[c];
    if (a != NONE) g->next[a] = b;
    else g->child[p] = b;
    if (b != NONE) g->prev[b] = a;
}

/* The state right after create: breadth-first routes from every anchor. */
static void graph_reset(wk_fracture_graph *g) {
    uint32_t n = g->n, head = 0, tail = 0;
    for (uint32_t v = 0; v < n; v++) {
        g->child[v] = NONE;
        g->parent[v] = NONE;
        g->mark[v] = 0;
        g->alive[v] = 0;
        if (g->anchor[v]) {
            g->alive[v] = 1;
            g->depth[v] = 0;
            g->queue[tail++] = v;
        }
    }
    while (head < tail) {
        uint32_t u = g->queue[head++];
        for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
            uint32_t w = g->adj[e];
            if (g->alive[w]) continue;
            g->alive[w] = 1;
            link_child(g, u, w);
            g->queue[tail++] = w;
        }
    }
    g->alive_count = tail;
    g->epoch = 2;
}

static wk_status create_run(uint32_t n, const uint32_t *pairs, size_t npairs, const uint8_t *anchor,
                            const wk_allocator *alloc, wk_fracture_graph **out) {
    if (!out) return wk__fail(WK_ERR_NULL, "g is NULL");
    *out = NULL;
    if (n > WK_FRACTURE_MAX_FRAGMENTS)
        return wk__fail(WK_ERR_OVERFLOW, "n must be <= %u, got %u", WK_FRACTURE_MAX_FRAGMENTS, n);
    if (npairs > 0 && !pairs) return wk__fail(WK_ERR_NULL, "pairs is NULL with npairs = %zu", npairs);
    wk_allocator hooks;
    wk_status s = wk__allocator_resolve(alloc, "alloc", &hooks);
    if (s != WK_OK) return s;
    size_t directed = 0;
    for (size_t k = 0; k < npairs; k++) {
        uint32_t a = pairs[2 * k], b = pairs[2 * k + 1];
        if (a >= n || b >= n)
            return wk__fail(WK_ERR_INVALID_ARG, "pair %zu: ids must be < n = %u, got (%u, %u)", k, n, a, b);
        if (a != b) directed += 2;
        if (directed > 0xFFFFFFFEu)
            return wk__fail(WK_ERR_OVERFLOW, "more than 2^31 - 1 distinct pairs (pair %zu)", k);
    }
    /* One block: the struct, then the arrays, each 16-byte aligned. */
    size_t nn = n;
    size_t sizes[] = {sizeof(wk_fracture_graph), 4 * (nn + 1), 4 * directed, nn, nn,
                      4 * nn, 4 * nn, 4 * nn, 4 * nn, 4 * nn, 4 * nn, 4 * nn, 4 * nn};
    enum { PARTS = sizeof sizes / sizeof sizes[0] };
    size_t at[PARTS], total = 0;
    for (int k = 0; k < PARTS; k++) {
        at[k] = total;
        if (sizes[k] > SIZE_MAX - total - 16) return wk__fail(WK_ERR_OVERFLOW, "the graph's size overflows size_t");
        total += (sizes[k] + 15) & ~(size_t)15;
    }
    unsigned char *mem = hooks.alloc(hooks.user, total);
    if (!mem) return wk__fail(WK_ERR_NO_MEMORY, "allocating %zu bytes failed", total);
    wk_fracture_graph *g = (wk_fracture_graph *)(void *)mem;
    memset(g, 0, sizeof *g);
    g->alloc = hooks;
    g->mem = mem;
    g->mem_bytes = total;
    g->n = n;
    g->off = (uint32_t *)(void *)(mem + at[1]);
    g->adj = (uint32_t *)(void *)(mem + at[2]);
    g->anchor = mem + at[3];
    g->alive = mem + at[4];
    g->parent = (uint32_t *)(void *)(mem + at[5]);
    g->depth = (uint32_t *)(void *)(mem + at[6]);
    g->child = (uint32_t *)(void *)(mem + at[7]);
    g->next = (uint32_t *)(void *)(mem + at[8]);
    g->prev = (uint32_t *)(void *)(mem + at[9]);
    g->mark = (uint32_t *)(void *)(mem + at[10]);
    g->list = (uint32_t *)(void *)(mem + at[11]);
    g->queue = (uint32_t *)(void *)(mem + at[12]);

    /* CSR: degrees, offsets, fill (parent as the cursor), then each list
     * sorted and deduplicated in place, compacted to the front. */
    memset(g->off, 0, 4 * (nn + 1));
    for (size_t k = 0; k < npairs; k++) {
        uint32_t a = pairs[2 * k], b = pairs[2 * k + 1];
        if (a == b) continue;
        g->off[a + 1]++;
        g->off[b + 1]++;
    }
    for (uint32_t v = 0; v < n; v++) g->off[v + 1] += g->off[v];
    for (uint32_t v = 0; v < n; v++) g->parent[v] = g->off[v];
    for (size_t k = 0; k < npairs; k++) {
        uint32_t a = pairs[2 * k], b = pairs[2 * k + 1];
        if (a == b) continue;
        g->adj[g->parent[a]++] = b;
        g->adj[g->parent[b]++] = a;
    }
    uint32_t write = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t begin = g->off[v], end = g->off[v + 1];
        sort_ids(g->adj + begin, end - begin);
        g->off[v] = write;
        for (uint32_t e = begin; e < end; e++)
            if (e == begin || g->adj[e] != g->adj[e - 1]) g->adj[write++] = g->adj[e];
    }
    g->off[n] = write;
    g->pairs = write / 2;
    for (uint32_t v = 0; v < n; v++) g->anchor[v] = anchor && anchor[v] ? 1 : 0;
    graph_reset(g);
    *out = g;
    return WK_OK;
}

wk_status wk_fracture_graph_create(uint32_t n, const uint32_t *pairs, size_t npairs, const uint8_t *anchor,
                                   const wk_allocator *alloc, wk_fracture_graph **g, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = create_run(n, pairs, npairs, anchor, alloc, g);
    else if (g) *g = NULL;
    return wk__end(&call, s);
}

void wk_fracture_graph_destroy(wk_fracture_graph *g) {
    if (!g) return;
    wk_allocator hooks = g->alloc;
    hooks.free(hooks.user, g->mem, g->mem_bytes);
}

wk_status wk_fracture_graph_reset(wk_fracture_graph *g) {
    wk__detail_reset(__func__);
    if (!g) return wk__fail(WK_ERR_NULL, "g is NULL");
    graph_reset(g);
    return WK_OK;
}

uint32_t wk_fracture_graph_size(const wk_fracture_graph *g) { return g ? g->n : 0; }
size_t wk_fracture_graph_pair_count(const wk_fracture_graph *g) { return g ? g->pairs : 0; }

wk_status wk_fracture_graph_alive(const wk_fracture_graph *g, uint8_t *alive, uint32_t *alive_count) {
    wk__detail_reset(__func__);
    if (!g) return wk__fail(WK_ERR_NULL, "g is NULL");
    if (!alive && g->n > 0) return wk__fail(WK_ERR_NULL, "alive is NULL");
    if (g->n) memcpy(alive, g->alive, g->n);
    if (alive_count) *alive_count = g->alive_count;
    return WK_OK;
}

static wk_status break_run(wk_fracture_graph *g, const uint32_t *ids, size_t k, const uint32_t **fallen,
                           size_t *fallen_count) {
    if (!g) return wk__fail(WK_ERR_NULL, "g is NULL");
    if (!fallen || !fallen_count) return wk__fail(WK_ERR_NULL, "fallen and fallen_count must not be NULL");
    if (k > 0 && !ids) return wk__fail(WK_ERR_NULL, "ids is NULL with k = %zu", k);
    for (size_t i = 0; i < k; i++)
        if (ids[i] >= g->n) return wk__fail(WK_ERR_INVALID_ARG, "ids[%zu] must be < n = %u, got %u", i, g->n, ids[i]);

    if (g->epoch > 0xFFFFFFF0u) {
        memset(g->mark, 0, (size_t)g->n * sizeof *g->mark);
        g->epoch = 2;
    }
    const uint32_t pending = g->epoch, attached = g->epoch + 1;
    g->epoch += 2;
    uint32_t *list = g->list, *queue = g->queue, *mark = g->mark;
    uint8_t *alive = g->alive;
    const uint32_t *off = g->off, *adj = g->adj, *depth = g->depth;

    /* The broken fragments (alive ones, once each). */
    uint32_t broken = 0;
    for (size_t i = 0; i < k; i++) {
        uint32_t x = ids[i];
        if (!alive[x]) continue;
        alive[x] = 0;
        queue[broken++] = x;
    }
    g->alive_count -= broken;

    /* The broken fragments' children lose their route. Fast path: a child
     * next to a fragment v with depth[v] <= dmin (the least depth among the
     * broken ones) hangs on v with its whole subtree: depths fall strictly
     * along every route, so v descends from no broken fragment and its
     * route is intact. The rest ("hard" children) and their subtrees are
     * the orphans. */
    uint32_t tops = 0, dmin = NONE;
    for (uint32_t b = 0; b < broken; b++) {
        uint32_t x = queue[b];
        if (g->depth[x] < dmin) dmin = g->depth[x];
        for (uint32_t c = g->child[x]; c != NONE; c = g->next[c])
            if (alive[c]) list[tops++] = c;
    }
    uint32_t orphans = 0;
    for (uint32_t t = 0; t < tops; t++) {
        uint32_t c = list[t], found = NONE;
        for (uint32_t e = off[c]; e < off[c + 1]; e++) {
            uint32_t w = adj[e];
            if (alive[w] && depth[w] <= dmin) {
                found = w;
                break;
            }
        }
        if (found != NONE) {
            link_child(g, found, c);
        } else {
            mark[c] = pending;
            list[orphans++] = c; /* orphans <= t: the list compacts in place */
        }
    }
    for (uint32_t o = 0; o < orphans; o++)
        for (uint32_t c = g->child[list[o]]; c != NONE; c = g->next[c])
            if (alive[c] && mark[c] != pending) {
                mark[c] = pending;
                list[orphans++] = c;
            }
    /* Broken fragments leave their (routed) parent's child list; their own
     * and the orphans' lists are rebuilt as fragments attach. */
    for (uint32_t b = 0; b < broken; b++) {
        uint32_t x = queue[b], p = g->parent[x];
        if (p != NONE && alive[p] && mark[p] != pending) unlink_child(g, x);
    }
    for (uint32_t b = 0; b < broken; b++) g->child[queue[b]] = NONE;
    for (uint32_t o = 0; o < orphans; o++) g->child[list[o]] = NONE;

    /* Attach orphans next to routed fragments (fewest hops, then lowest id),
     * then grow breadth-first through the pending ones. */
    uint32_t head = 0, tail = 0;
    for (uint32_t o = 0; o < orphans; o++) {
        uint32_t u = list[o], best = NONE, best_depth = NONE;
        for (uint32_t e = off[u]; e < off[u + 1]; e++) {
            uint32_t w = adj[e];
            if (mark[w] != pending && alive[w] && depth[w] < best_depth) {
                best = w;
                best_depth = depth[w];
            }
        }
        if (best != NONE) {
            link_child(g, best, u);
            mark[u] = attached;
            queue[tail++] = u;
        }
    }
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t e = off[u]; e < off[u + 1]; e++) {
            uint32_t w = adj[e];
            if (mark[w] == pending && alive[w]) {
                link_child(g, u, w);
                mark[w] = attached;
                queue[tail++] = w;
            }
        }
    }

    /* What is still pending fell. */
    uint32_t fell = 0;
    for (uint32_t o = 0; o < orphans; o++) {
        uint32_t u = list[o];
        if (mark[u] != pending) continue;
        alive[u] = 0;
        g->parent[u] = NONE;
        list[fell++] = u;
    }
    g->alive_count -= fell;
    sort_ids_radix(list, queue, fell);
    *fallen = list;
    *fallen_count = fell;
    return WK_OK;
}

wk_status wk_fracture_graph_break(wk_fracture_graph *g, const uint32_t *ids, size_t k, const uint32_t **fallen,
                                  size_t *fallen_count, const wk_exec *exec) {
    wk__call call;
    wk_status s = wk__begin(&call, exec, __func__);
    if (s == WK_OK) s = break_run(g, ids, k, fallen, fallen_count);
    return wk__end(&call, s);
}
