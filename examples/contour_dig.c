/* Dig a hole into 2D terrain, build its mesh and contour, chain and
 * simplify the contour for an edge collider (README, contour). */
#include <stdio.h>
#include <stdlib.h>
#include <worldkern/contour.h>

int main(void) {
    enum { W = 65, H = 65 };
    static float density[W * H]; /* 1 = rock, 0 = air; iso 0.5 */
    for (int i = 0; i < W * H; i++) density[i] = (i / W) < H / 2 ? 1.0f : 0.0f;
    uint32_t touched[4];
    wk_msq_brush(density, W, H, W, 32.0f, 32.0f, 10.0f, 1.0f, WK_BRUSH_DIG, touched, NULL);

    const uint32_t flags = WK_MSQ_TRIANGLES | WK_MSQ_SEGMENTS;
    wk_field2 f = {density, W, H, W, {0, 0}};
    wk_mesh2 m = WK_MESH2_DEFAULTS;
    wk_msq_bound(W - 1, H - 1, flags, &m.vert_cap, &m.tri_cap, &m.seg_cap);
    m.x = malloc(sizeof(float) * m.vert_cap);
    m.y = malloc(sizeof(float) * m.vert_cap);
    m.tri = malloc(sizeof(uint32_t) * 3 * m.tri_cap);
    m.seg = malloc(sizeof(uint32_t) * 2 * m.seg_cap);
    if (wk_msq_build(&f, 0, 0, W - 1, H - 1, 0.5f, 1.0f, flags, &m, NULL) != WK_OK) {
        fprintf(stderr, "%s\n", wk_last_error_detail());
        return 1;
    }
    wk_chains c = WK_CHAINS_DEFAULTS;
    c.idx_cap = 2 * m.nseg;
    c.chain_cap = m.nseg;
    c.idx = malloc(sizeof(uint32_t) * c.idx_cap);
    c.start = malloc(sizeof(uint32_t) * (c.chain_cap + 1));
    c.closed = malloc(c.chain_cap);
    size_t work_len = wk_msq_chains_work(m.nvert, m.nseg);
    uint32_t *work = malloc(sizeof(uint32_t) * work_len);
    wk_msq_chains(&m, &c, work, work_len, NULL);
    uint32_t *kept = malloc(sizeof(uint32_t) * c.idx_cap);
    for (uint32_t k = 0; k < c.nchain; k++) {
        uint32_t n = c.start[k + 1] - c.start[k], nkept;
        wk_msq_simplify(m.x, m.y, m.nvert, c.idx + c.start[k], n, c.closed[k], 0.1f, WK_SIMPLIFY_RDP, kept, n,
                        &nkept, NULL);
        printf("chain %u: %s, %u points -> %u\n", k, c.closed[k] ? "closed" : "open", n, nkept);
    }
    printf("%u vertices, %u triangles, %u segments\n", m.nvert, m.ntri, m.nseg);
    free(m.x), free(m.y), free(m.tri), free(m.seg);
    free(c.idx), free(c.start), free(c.closed), free(work), free(kept);
    return 0;
}
