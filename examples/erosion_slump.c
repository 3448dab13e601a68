/* Thermal erosion of an fBm height map with a 35-degree talus (README,
 * erosion). */
#include <stdio.h>
#include <stdlib.h>
#include <worldkern/erosion.h>
#include <worldkern/noise.h>

int main(void) {
    enum { W = 256, H = 256 };
    float *heights = malloc(sizeof(float) * W * H);
    wk_fbm f = WK_FBM_DEFAULTS;
    wk_grid2 g = {0, 0, W, H, 1.0, W, {0, 0}};
    if (!heights || wk_noise_fbm2_grid(&f, &g, heights, NULL) != WK_OK) return 1;
    for (int i = 0; i < W * H; i++) heights[i] *= 60.0f; /* metres */
    float talus;                                          /* 35 degrees over 1 m cells */
    wk_erosion_talus_from_angle(35.0, 1.0, &talus);
    size_t n;                                             /* scratch for up to 2 threads */
    wk_erosion_scratch_bound(W, H, 2, &n);
    float *scratch = malloc(n * sizeof(float));
    wk_heightmap map = WK_HEIGHTMAP_DEFAULTS;
    map.v = heights, map.w = W, map.h = H, map.stride = W;
    wk_status s = wk_erosion_thermal(&map, talus, 50, scratch, n, NULL);
    printf("%s; height at the centre %g m\n", wk_status_str(s), heights[H / 2 * W + W / 2]);
    free(scratch);
    free(heights);
    return s == WK_OK ? 0 : 1;
}
