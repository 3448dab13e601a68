/* Fuzz target: wk_msq_simplify (both methods, open and closed chains,
 * repeated and collinear points) on every ISA against the scalar run;
 * checks that endpoints stay and loops keep at least 3 points. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/contour.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 4) return 0;
    uint32_t method = data[0] & 1, closed = (data[0] >> 1) & 1, nvert = 1 + data[1] % 64;
    float tol = data[2] == 255 ? NAN : (float)data[2] / 32.0f;
    uint32_t n = (uint32_t)(size - 3) / 3;
    float x[64], y[64];
    for (uint32_t i = 0; i < nvert; i++) {
        x[i] = (float)((i * 7 + data[1]) % 13) * 0.5f;
        y[i] = (float)((i * 5) % 11) * 0.25f;
    }
    uint32_t *chain = malloc(sizeof(uint32_t) * (n + 1)), *out[2];
    for (uint32_t i = 0; i < n; i++) {
        chain[i] = data[3 + 3 * i] % (nvert + (data[2] == 254));
        if (chain[i] < nvert) {
            x[chain[i]] = ((float)data[4 + 3 * i] - 128.0f) / 8.0f;
            y[chain[i]] = ((float)data[5 + 3 * i] - 128.0f) / 8.0f;
        }
    }
    wk_status st[2];
    uint32_t nout[2] = {0, 0};
    for (int k = 0; k < 2; k++) out[k] = calloc(n + 1, sizeof(uint32_t));
    for (int isa = WK_ISA_SCALAR; isa < WK_ISA_COUNT; isa++) {
        if (!wk_isa_supported((wk_isa)isa)) continue;
        int k = isa != WK_ISA_SCALAR;
        wk_exec e = WK_EXEC_DEFAULTS;
        e.isa = isa;
        st[k] = wk_msq_simplify(x, y, nvert, chain, n, closed, tol, method, out[k], n, &nout[k], &e);
        if (k && (st[1] != st[0] || nout[1] != nout[0] || memcmp(out[0], out[1], 4 * (n + 1)))) abort();
    }
    if (st[0] == WK_OK && n > 0) {
        if (nout[0] > n || out[0][0] != chain[0]) abort();
        if (!closed && out[0][nout[0] - 1] != chain[n - 1]) abort();
        if (closed && n >= 3 && nout[0] < 3) abort();
    }
    free(out[0]), free(out[1]);
    free(chain);
    return 0;
}
