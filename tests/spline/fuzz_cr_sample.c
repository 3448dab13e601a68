/* libFuzzer target: wk_spline_cr_sample, _sample2, _sample_cols and
 * _cr_eval on every ISA against the scalar reference. */
#include "fuzz_spline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = {data, size};
    uint32_t n = fz_u32(&f, 72), curves = fz_u32(&f, 6), mode = fz_u32(&f, 3), m = fz_u32(&f, 400);
    uint32_t count = fz_u32(&f, 100), shared = fz_u32(&f, 2);
    size_t pts = (size_t)(n ? n : 1) * (curves ? curves : 1);
    float *p = malloc(pts * sizeof *p), *s = malloc((size_t)(count + 1) * (curves + 1) * sizeof *s);
    size_t outn = (size_t)(m > count ? m : count) * (curves + 1) + 1;
    float *ref = malloc(2 * outn * sizeof *ref), *out = malloc(2 * outn * sizeof *out);
    if (!p || !s || !ref || !out) abort();
    for (size_t i = 0; i < pts; i++) p[i] = fz_float(&f, 100.0f);
    for (size_t i = 0; i < (size_t)(count + 1) * (curves + 1); i++) s[i] = fz_float(&f, 2.0f);
    int isas[WK_ISA_COUNT];
    int nisa = fz_isas(isas);
    for (int form = 0; form < 4; form++) {
        wk_status rs = WK_OK;
        for (int t = 0; t < nisa; t++) {
            wk_exec e = fz_exec(isas[t], t == 0 ? 1 : 0);
            float *o = t == 0 ? ref : out;
            memset(o, 0xE1, 2 * outn * sizeof *o);
            wk_status st;
            switch (form) {
            case 0: st = wk_spline_cr_sample(p, n, n, curves, mode, m, o, m, &e); break;
            case 1: st = wk_spline_cr_sample_cols(p, curves, n, curves, mode, m, o, curves, &e); break;
            case 2: st = wk_spline_cr_eval(p, n, n, curves, mode, s, shared ? 0 : count + 1, count, o, count, &e); break;
            default:
                st = curves > 1 ? wk_spline_cr_sample2(p, p + n, n * 2, n, curves / 2, mode, m, o, o + outn, m, &e)
                                : WK_OK;
            }
            if (t == 0) rs = st;
            fz_check(st == rs, "status", isas[t]);
            if (t > 0) fz_check(memcmp(ref, out, 2 * outn * sizeof *out) == 0, "output", isas[t]);
        }
    }
    free(p);
    free(s);
    free(ref);
    free(out);
    return 0;
}
