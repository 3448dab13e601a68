/* A noise terrain of blocks with one sub-voxel brick, and two exact rays
 * (README, voxel). */
#include <stdio.h>
#include <worldkern/noise.h>
#include <worldkern/voxel.h>

int main(void) {
    wk_voxel_world *w = NULL;
    if (wk_voxel_world_create(&w, NULL) != WK_OK) return 1;     /* NULL: malloc/free */
    wk_fbm f = WK_FBM_DEFAULTS;                                   /* terrain in one call */
    wk_voxel_set_terrain(w, &f, 0, 0, 256, 256, 0, 256, 128.0f, 100.0f, NULL);
    wk_voxel_set_sub(w, 10, 200, 10, 0x000F000F000F000Full);     /* a brick: its bottom layer */
    float ox[2] = {10.5f, 0.5f}, oy[2] = {250, 250}, oz[2] = {10.5f, 0.5f};
    float dx[2] = {0, 1}, dy[2] = {-1, -1}, dz[2] = {0, 1};
    wk_rays rays = {ox, oy, oz, dx, dy, dz, NULL, 2, {0}};       /* tmax NULL: INFINITY */
    float t[2];
    int32_t x[2], y[2], z[2];
    int8_t sub[2], face[2];
    wk_hits hits = {t, x, y, z, sub, face, {0}};
    if (wk_voxel_raycast(w, &rays, &hits, NULL) != WK_OK) return 1;
    for (int i = 0; i < 2; i++)
        printf("ray %d: t %g, block (%d, %d, %d), sub %d, face %d\n", i, t[i], x[i], y[i], z[i], sub[i], face[i]);
    wk_voxel_world_destroy(w);
    return 0;
}
