/* libFuzzer target: wk_spline_water_step (with sleeping bodies),
 * wk_spline_water_displace and wk_spline_water_surface on every ISA against
 * the scalar reference. */
#include "fuzz_spline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = {data, size};
    uint32_t B = fz_u32(&f, 70), N = 1 + fz_u32(&f, 40), extra = fz_u32(&f, 20), steps = 1 + fz_u32(&f, 4);
    size_t stride = B + extra, floats = stride * N + 1;
    wk_water_params prm = WK_WATER_PARAMS_DEFAULTS;
    if (fz_u32(&f, 2)) {
        prm.k = fz_float(&f, 1.0f);
        prm.damping = fz_float(&f, 1.0f);
        prm.spread = fz_float(&f, 0.5f);
        prm.passes = fz_u32(&f, 12);
        prm.sleep_threshold = fz_float(&f, 0.01f);
    }
    float *pos0 = malloc(floats * sizeof(float)), *vel0 = malloc(floats * sizeof(float));
    float *rest = malloc(floats * sizeof(float));
    uint8_t *sl0 = malloc(B + 1);
    /* per ISA: pos, vel, flags, surface */
    uint32_t R = fz_u32(&f, 40);
    size_t surf = (size_t)R * (B + 1) + 1, total = 2 * floats + surf;
    float *ref = malloc(total * sizeof(float) + B + 1), *out = malloc(total * sizeof(float) + B + 1);
    if (!pos0 || !vel0 || !rest || !sl0 || !ref || !out) abort();
    for (size_t i = 0; i < floats; i++) {
        rest[i] = fz_float(&f, 1.0f);
        pos0[i] = fz_float(&f, 1.0f);
        vel0[i] = fz_u32(&f, 2) ? 0.0f : fz_float(&f, 0.1f);
    }
    for (uint32_t b = 0; b <= B; b++) sl0[b] = (uint8_t)fz_u32(&f, 2);
    uint32_t body = fz_u32(&f, B + 1), smode = fz_u32(&f, 2);
    float sx = fz_float(&f, 1.0f), amount = fz_float(&f, 1.0f);
    int isas[WK_ISA_COUNT];
    int nisa = fz_isas(isas);
    wk_status rs[3] = {WK_OK, WK_OK, WK_OK};
    for (int t = 0; t < nisa; t++) {
        wk_exec e = fz_exec(isas[t], t == 0 ? 1 : 0);
        float *o = t == 0 ? ref : out;
        memset(o, 0xE1, total * sizeof(float) + B + 1);
        memcpy(o, pos0, floats * sizeof(float));
        memcpy(o + floats, vel0, floats * sizeof(float));
        uint8_t *flags = (uint8_t *)(o + total);
        memcpy(flags, sl0, B + 1);
        wk_water w = WK_WATER_DEFAULTS;
        w.pos = o;
        w.vel = o + floats;
        w.rest = rest;
        w.asleep = flags;
        w.bodies = B;
        w.springs = N;
        w.stride = stride;
        wk_status st[3] = {WK_OK, WK_OK, WK_OK};
        for (uint32_t s = 0; s < steps; s++) {
            wk_status a = wk_spline_water_step(&w, &prm, &e);
            if (a != WK_OK) st[0] = a;
            if (s == 0) st[1] = wk_spline_water_displace(&w, &body, &sx, &amount, 1, &e);
        }
        st[2] = wk_spline_water_surface(&w, smode, R, o + 2 * floats, B + 1, &e);
        for (int i = 0; i < 3; i++) {
            if (t == 0) rs[i] = st[i];
            fz_check(st[i] == rs[i], "status", isas[t]);
        }
        if (t > 0) fz_check(memcmp(ref, out, total * sizeof(float) + B + 1) == 0, "state", isas[t]);
    }
    free(pos0);
    free(vel0);
    free(rest);
    free(sl0);
    free(ref);
    free(out);
    return 0;
}
