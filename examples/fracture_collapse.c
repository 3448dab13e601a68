/* A 10 x 10 x 10 stack of fragments on the ground: break its second layer
 * and see what falls (README, fracture). */
#include <stdio.h>
#include <stdlib.h>
#include <worldkern/fracture.h>

int main(void) {
    enum { N = 1000 };
    static float x0[N], y0[N], z0[N], x1[N], y1[N], z1[N];
    for (int i = 0; i < N; i++) {
        x0[i] = (float)(i % 10), y0[i] = (float)(i / 10 % 10), z0[i] = (float)(i / 100);
        x1[i] = x0[i] + 1, y1[i] = y0[i] + 1, z1[i] = z0[i] + 1;
    }
    wk_boxes frags = {x0, y0, z0, x1, y1, z1, N, 0, {0, 0}};
    size_t ws_bytes, npairs;
    wk_fracture_adjacency_workspace_size(N, &ws_bytes);
    void *ws = malloc(ws_bytes);
    wk_fracture_adjacency(&frags, 0.01f, ws, ws_bytes, NULL, 0, &npairs, NULL); /* count */
    uint32_t *pairs = malloc(npairs * 2 * sizeof(uint32_t));
    wk_fracture_adjacency(&frags, 0.01f, ws, ws_bytes, pairs, npairs, &npairs, NULL);
    float gx0 = -100, gy0 = -100, gz0 = -1, gx1 = 100, gy1 = 100, gz1 = 0; /* ground */
    wk_boxes ground = {&gx0, &gy0, &gz0, &gx1, &gy1, &gz1, 1, 0, {0, 0}};
    uint8_t anchor[N];
    wk_fracture_anchors(&frags, 0.0f, &ground, anchor, NULL);
    wk_fracture_graph *g;
    if (wk_fracture_graph_create(N, pairs, npairs, anchor, NULL, &g, NULL) != WK_OK) return 1;
    uint32_t layer[100];
    for (int i = 0; i < 100; i++) layer[i] = 100 + (uint32_t)i; /* the second layer */
    const uint32_t *fallen;
    size_t nfallen;
    wk_fracture_graph_break(g, layer, 100, &fallen, &nfallen, NULL);
    printf("%zu pairs, %zu fell\n", npairs, nfallen);
    wk_fracture_graph_destroy(g);
    free(pairs);
    free(ws);
    return 0;
}
