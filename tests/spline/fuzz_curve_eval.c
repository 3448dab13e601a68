/* libFuzzer target: wk_spline_curve_eval, wk_spline_redistribute and
 * wk_spline_terrace on every ISA against the scalar reference. */
#include "fuzz_spline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = {data, size};
    uint32_t nkeys = fz_u32(&f, 24), n = fz_u32(&f, 200), levels = fz_u32(&f, 40);
    int sorted = fz_u32(&f, 4) != 0;
    wk_curve_key *k = malloc((nkeys + 1) * sizeof *k);
    float *x = malloc((n + 1) * sizeof *x), *ref = malloc((n + 1) * sizeof *ref), *out = malloc((n + 1) * sizeof *out);
    if (!k || !x || !ref || !out) abort();
    float t = fz_float(&f, 10.0f);
    for (uint32_t j = 0; j < nkeys; j++) {
        k[j].time = sorted ? t : fz_float(&f, 10.0f);
        t += (float)(1 + fz_u32(&f, 1000)) / 256.0f;
        k[j].value = fz_float(&f, 5.0f);
        k[j].in_tangent = fz_float(&f, 5.0f);
        k[j].out_tangent = fz_float(&f, 5.0f);
    }
    for (uint32_t i = 0; i < n; i++) x[i] = fz_u32(&f, 3) ? fz_float(&f, 12.0f) : (nkeys ? k[fz_u32(&f, nkeys)].time : 0);
    float exponent = fz_float(&f, 8.0f), blend = fz_float(&f, 1.0f);
    int isas[WK_ISA_COUNT];
    int nisa = fz_isas(isas);
    for (int form = 0; form < 3; form++) {
        wk_status rs = WK_OK;
        for (int t2 = 0; t2 < nisa; t2++) {
            wk_exec e = fz_exec(isas[t2], t2 == 0 ? 1 : 0);
            float *o = t2 == 0 ? ref : out;
            memset(o, 0xE1, (n + 1) * sizeof *o);
            wk_status st = form == 0   ? wk_spline_curve_eval(k, nkeys, x, n, o, &e)
                           : form == 1 ? wk_spline_redistribute(x, n, exponent, o, &e)
                                       : wk_spline_terrace(x, n, levels, blend, o, &e);
            if (t2 == 0) rs = st;
            fz_check(st == rs, "status", isas[t2]);
            if (t2 > 0) fz_check(memcmp(ref, out, (n + 1) * sizeof *out) == 0, "output", isas[t2]);
        }
    }
    free(k);
    free(x);
    free(ref);
    free(out);
    return 0;
}
