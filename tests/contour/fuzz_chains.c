/* Fuzz target: wk_msq_chains on arbitrary segment graphs (any degrees,
 * self-loops, out-of-range indices, small capacities) on every ISA, against
 * the scalar run; checks that a successful call uses every segment once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/contour.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3) return 0;
    uint32_t nvert = 1 + data[0] % 40, caps = data[1], nseg = (uint32_t)(size - 2) / 2;
    uint32_t *seg = malloc(sizeof(uint32_t) * (2 * nseg + 1));
    for (uint32_t i = 0; i < 2 * nseg; i++) seg[i] = data[2 + i] % (nvert + (caps == 255));
    wk_mesh2 m = WK_MESH2_DEFAULTS;
    m.seg = seg;
    m.nseg = nseg;
    m.nvert = nvert;
    uint32_t icap = caps & 1 ? 2 * nseg : 2 * nseg * (caps >> 1) / 128;
    uint32_t ccap = caps & 2 ? nseg : nseg * (caps >> 2) / 64;
    size_t wl = wk_msq_chains_work(nvert, nseg);
    uint32_t *work = malloc(sizeof(uint32_t) * (wl + 1));
    uint32_t *idx[2], *start[2];
    uint8_t *closed[2];
    wk_status st[2] = {WK_OK, WK_OK};
    wk_chains c[2];
    for (int k = 0; k < 2; k++) {
        idx[k] = calloc(icap + 1, sizeof(uint32_t));
        start[k] = calloc(ccap + 2, sizeof(uint32_t));
        closed[k] = calloc(ccap + 1, 1);
    }
    for (int isa = WK_ISA_SCALAR; isa < WK_ISA_COUNT; isa++) {
        if (!wk_isa_supported((wk_isa)isa)) continue;
        int k = isa != WK_ISA_SCALAR;
        wk_chains z = WK_CHAINS_DEFAULTS;
        c[k] = z;
        c[k].idx = idx[k], c[k].idx_cap = icap, c[k].start = start[k], c[k].closed = closed[k], c[k].chain_cap = ccap;
        wk_exec e = WK_EXEC_DEFAULTS;
        e.isa = isa;
        st[k] = wk_msq_chains(&m, &c[k], work, wl, &e);
        if (k && (st[1] != st[0] || c[1].nidx != c[0].nidx || c[1].nchain != c[0].nchain ||
                  memcmp(idx[0], idx[1], 4 * (icap + 1)) || memcmp(start[0], start[1], 4 * (ccap + 2)) ||
                  memcmp(closed[0], closed[1], ccap + 1)))
            abort();
    }
    if (st[0] == WK_OK) {
        uint32_t used = 0;
        for (uint32_t k = 0; k < c[0].nchain; k++) {
            uint32_t len = start[0][k + 1] - start[0][k];
            if (len == 0) abort();
            used += closed[0][k] ? len : len - 1;
        }
        if (used != nseg || start[0][c[0].nchain] != c[0].nidx) abort();
    }
    for (int k = 0; k < 2; k++) free(idx[k]), free(start[k]), free(closed[k]);
    free(work);
    free(seg);
    return 0;
}
