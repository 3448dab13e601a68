/* Helpers shared by the fracture checks (see fracture_test_util.h). */
#include "fracture_test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xmalloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        abort();
    }
    return p;
}

boxset boxset_new(uint32_t n) {
    boxset b;
    b.n = n;
    for (int a = 0; a < 6; a++) b.v[a] = xmalloc((size_t)n * sizeof(float) + 4);
    return b;
}

void boxset_free(boxset *b) {
    for (int a = 0; a < 6; a++) {
        free(b->v[a]);
        b->v[a] = NULL;
    }
}

wk_boxes boxset_view(const boxset *b) {
    wk_boxes v = WK_BOXES_DEFAULTS;
    v.min_x = b->v[0];
    v.min_y = b->v[1];
    v.min_z = b->v[2];
    v.max_x = b->v[3];
    v.max_y = b->v[4];
    v.max_z = b->v[5];
    v.n = b->n;
    return v;
}

void boxset_set(boxset *b, uint32_t i, float x0, float y0, float z0, float x1, float y1, float z1) {
    b->v[0][i] = x0;
    b->v[1][i] = y0;
    b->v[2][i] = z0;
    b->v[3][i] = x1;
    b->v[4][i] = y1;
    b->v[5][i] = z1;
}

void gen_boxes(boxset *b, wk_rng *r, int kind) {
    uint32_t n = b->n, g = 1;
    while ((uint64_t)g * g * g < n) g++;
    double side = cbrt((double)n) + 1;
    for (uint32_t i = 0; i < n; i++) {
        float p[3], s[3];
        uint32_t c[3] = {i % g, i / g % g, i / g / g};
        switch (kind) {
        case 0:
            for (int a = 0; a < 3; a++) {
                p[a] = (float)wk_rng_range(r, 0, side);
                s[a] = (float)wk_rng_range(r, 0.5, 1.5);
            }
            break;
        case 1:
            for (int a = 0; a < 3; a++) {
                p[a] = (float)c[a];
                s[a] = 1.0f;
            }
            break;
        case 2:
            for (int a = 0; a < 3; a++) {
                p[a] = (float)wk_rng_range(r, 0, side * 2);
                s[a] = (float)wk_rng_range(r, 0.1, 1.0);
            }
            if (wk_rng_u64(r) % 50 == 0)
                for (int a = 0; a < 3; a++) s[a] = (float)wk_rng_range(r, 1, side * 2);
            break;
        case 3:
            for (int a = 0; a < 3; a++) {
                p[a] = (float)(wk_rng_u64(r) % (g + 1));
                s[a] = 0.0f;
            }
            break;
        case 4:
            for (int a = 0; a < 3; a++) {
                p[a] = (float)c[a] * 2.0f;
                s[a] = a == 2 ? 0.0f : 2.0f;
            }
            p[2] = (float)(c[2] % 2);
            break;
        case 5:
            for (int a = 0; a < 3; a++) {
                p[a] = 100000.0f + (float)c[a] * 0.25f;
                s[a] = 0.25f;
            }
            break;
        case 6:
            for (int a = 0; a < 3; a++) {
                p[a] = 3.0f;
                s[a] = (float)(wk_rng_u64(r) % 2);
            }
            break;
        default: /* two clusters 1e30 apart: the grid's cells get huge */
            for (int a = 0; a < 3; a++) {
                p[a] = (float)wk_rng_range(r, 0, side) + (i % 2 ? 1e30f : 0.0f);
                s[a] = (float)wk_rng_range(r, 0.5, 1.5);
            }
            break;
        }
        boxset_set(b, i, p[0], p[1], p[2], p[0] + s[0], p[1] + s[1], p[2] + s[2]);
    }
}

uint32_t *all_pairs(const boxset *b, float pad, size_t *count) {
    size_t cap = 64, k = 0;
    uint32_t *out = xmalloc(cap * 2 * sizeof(uint32_t));
    for (uint32_t i = 0; i < b->n; i++)
        for (uint32_t j = i + 1; j < b->n; j++) {
            int touch = 1;
            for (int a = 0; a < 3; a++) {
                float lo_i = b->v[a][i] - pad, hi_i = b->v[a + 3][i] + pad;
                float lo_j = b->v[a][j] - pad, hi_j = b->v[a + 3][j] + pad;
                if (!(lo_i <= hi_j && lo_j <= hi_i)) touch = 0;
            }
            if (!touch) continue;
            if (k == cap) {
                cap *= 2;
                uint32_t *grown = realloc(out, cap * 2 * sizeof(uint32_t));
                if (!grown) abort();
                out = grown;
            }
            out[2 * k] = i;
            out[2 * k + 1] = j;
            k++;
        }
    *count = k;
    return out;
}

wk_status adjacency_alloc(const boxset *b, float pad, const wk_exec *exec, uint32_t **pairs, size_t *count) {
    wk_boxes v = boxset_view(b);
    size_t bytes = 0;
    *pairs = NULL;
    wk_status s = wk_fracture_adjacency_workspace_size(b->n, &bytes);
    if (s != WK_OK) return s;
    void *ws = xmalloc(bytes);
    s = wk_fracture_adjacency(&v, pad, ws, bytes, NULL, 0, count, exec);
    if (s == WK_OK && *count > 0) {
        *pairs = xmalloc(*count * 2 * sizeof(uint32_t));
        size_t again = 0;
        s = wk_fracture_adjacency(&v, pad, ws, bytes, *pairs, *count, &again, exec);
        if (s == WK_OK && again != *count) s = WK_ERR_INVALID_ARG;
    }
    free(ws);
    return s;
}

ref_graph ref_graph_new(uint32_t n, const uint32_t *pairs, size_t npairs) {
    ref_graph g;
    g.n = n;
    g.off = calloc((size_t)n + 2, sizeof(uint32_t));
    g.adj = xmalloc(npairs * 2 * sizeof(uint32_t) + 4);
    g.queue = xmalloc((size_t)n * sizeof(uint32_t) + 4);
    uint32_t *fill = xmalloc((size_t)n * sizeof(uint32_t) + 4);
    if (!g.off) abort();
    for (size_t k = 0; k < npairs; k++) {
        g.off[pairs[2 * k] + 1]++;
        g.off[pairs[2 * k + 1] + 1]++;
    }
    for (uint32_t v = 0; v < n; v++) g.off[v + 1] += g.off[v];
    memcpy(fill, g.off, (size_t)n * sizeof(uint32_t));
    for (size_t k = 0; k < npairs; k++) {
        uint32_t a = pairs[2 * k], b = pairs[2 * k + 1];
        g.adj[fill[a]++] = b;
        g.adj[fill[b]++] = a;
    }
    free(fill);
    return g;
}

void ref_graph_free(ref_graph *g) {
    free(g->off);
    free(g->adj);
    free(g->queue);
}

uint32_t ref_support(const ref_graph *g, const uint8_t *anchor, const uint8_t *removed, uint8_t *alive) {
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        alive[v] = 0;
        if (anchor && anchor[v] && !(removed && removed[v])) {
            alive[v] = 1;
            g->queue[tail++] = v;
        }
    }
    while (head < tail) {
        uint32_t u = g->queue[head++];
        for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
            uint32_t w = g->adj[e];
            if (alive[w] || (removed && removed[w])) continue;
            alive[w] = 1;
            g->queue[tail++] = w;
        }
    }
    return tail;
}
