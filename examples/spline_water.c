/* Catmull-Rom samples, a height curve with pow redistribution, and a row
 * of spring-water bodies with a splash (README, spline). */
#include <stdio.h>
#include <worldkern/spline.h>

int main(void) {
    float p[2][5] = {{0, 1, 0, 1, 0}, {0, 2, 4, 6, 8}}, out[2][9];
    if (wk_spline_cr_sample(&p[0][0], 5, 5, 2, WK_SPLINE_END_PHANTOM, 9, &out[0][0], 9, NULL) != WK_OK) {
        fprintf(stderr, "%s\n", wk_last_error_detail());
        return 1;
    }
    wk_curve_key keys[2] = {{0, 0, 0, 0}, {1, 1, 0, 0}}; /* time, value, in, out tangent */
    float h[4] = {0.1f, 0.5f, 0.9f, 2.0f};
    wk_spline_curve_eval(keys, 2, h, 4, h, NULL);
    wk_spline_redistribute(h, 4, 2.0f, h, NULL);
    enum { B = 64, N = 32, R = 128 };
    static float pos[N * B], vel[N * B], rest[N * B], surface[R * B];
    static uint8_t asleep[B];
    wk_water w = WK_WATER_DEFAULTS;
    w.pos = pos, w.vel = vel, w.rest = rest, w.asleep = asleep, w.bodies = B, w.springs = N;
    wk_water_params prm = WK_WATER_PARAMS_DEFAULTS;
    wk_water_stability st;
    wk_spline_water_check(&prm, N, &st, NULL);
    uint32_t body = 3;
    float x = 0.5f, amount = -0.3f;
    wk_spline_water_displace(&w, &body, &x, &amount, 1, NULL);
    for (int i = 0; i < 60; i++) wk_spline_water_step(&w, &prm, NULL);
    wk_spline_water_surface(&w, WK_SPLINE_END_PHANTOM, R, surface, B, NULL); /* [k * B + b] */
    printf("%g %g %g %s\n", out[0][4], h[1], surface[64 * B + 3], st.unstable ? "unstable" : "stable");
    return 0;
}
