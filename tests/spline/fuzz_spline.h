/* Shared pieces of the spline family's libFuzzer targets: a byte reader and
 * the ISA loop. Each target calls its entry for the scalar reference and
 * every supported ISA (exec.isa), and abort()s when a status or an output
 * differs. */
#ifndef WK_FUZZ_SPLINE_H
#define WK_FUZZ_SPLINE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/spline.h"

typedef struct fz { const uint8_t *p; size_t n; } fz;

static uint32_t fz_u32(fz *f, uint32_t mod) {
    uint32_t v = 0;
    for (int i = 0; i < 4 && f->n; i++, f->p++, f->n--) v = v << 8 | *f->p;
    return mod ? v % mod : v;
}

/* A float: raw bits (NaN, Inf, denormals included) or a tame value. */
static float fz_float(fz *f, float scale) {
    uint32_t sel = fz_u32(f, 0);
    if (sel & 1) {
        uint32_t bits = fz_u32(f, 0);
        float v;
        memcpy(&v, &bits, sizeof v);
        return v;
    }
    return ((float)(sel >> 1) / 2147483648.0f - 0.5f) * 2.0f * scale;
}

static int fz_isas(int isas[WK_ISA_COUNT]) {
    int count = 0;
    for (int isa = WK_ISA_SCALAR; isa < WK_ISA_COUNT; isa++)
        if (wk_isa_supported((wk_isa)isa)) isas[count++] = isa;
    return count;
}

static wk_exec fz_exec(int isa, int threads) {
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = isa;
    e.threads = threads;
    return e;
}

static void fz_check(int ok, const char *what, int isa) {
    if (!ok) {
        fprintf(stderr, "%s differs on %s\n", what, wk_isa_name((wk_isa)isa));
        abort();
    }
}

#endif
