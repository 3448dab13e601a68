/* The voxel benchmarks' scene: see voxel_scene.h. */
#include "voxel_scene.h"

#include <math.h>
#include <stdlib.h>

#include <worldkern/noise.h>

enum { SIZE = WK_SCENE_SIZE };

uint32_t wk_scene_next_u32(uint32_t *state) {
    uint32_t z = (*state += 0x9E3779B9u);
    z = (z ^ (z >> 16)) * 0x85EBCA6Bu;
    z = (z ^ (z >> 13)) * 0xC2B2AE35u;
    return z ^ (z >> 16);
}

double wk_scene_unit(uint32_t *state) { return (double)(wk_scene_next_u32(state) >> 8) * (1.0 / 16777216.0); }

int wk_scene_build_world(wk_voxel_world **w, float *height, uint32_t *rng, uint64_t *bricks) {
    *bricks = 0;
    if (wk_voxel_world_create(w, NULL) != WK_OK) return 0;
    uint8_t *box = calloc((size_t)SIZE * SIZE * SIZE, 1);
    if (!box) return 0;
    wk_fbm fbm = WK_FBM_DEFAULTS;
    wk_grid2 g = {0, 0, SIZE, SIZE, 1.0, SIZE, {0, 0}};
    int ok = wk_noise_fbm2_grid(&fbm, &g, height, NULL) == WK_OK;
    for (size_t i = 0; ok && i < SIZE * SIZE; i++) {
        float h = 128.0f + 110.0f * height[i];
        height[i] = h < 40.0f ? 40.0f : h > 216.0f ? 216.0f : h;
    }
    /* box index x + SIZE * (y + SIZE * z) */
    for (int z = 0; ok && z < SIZE; z++)
        for (int x = 0; x < SIZE; x++) {
            float h = height[z * SIZE + x];
            for (int y = 0; y < SIZE && (float)y < h; y++) box[(size_t)x + SIZE * ((size_t)y + SIZE * (size_t)z)] = 1;
        }
    ok = ok && wk_voxel_set_box(*w, 0, 0, 0, SIZE, SIZE, SIZE, box, SIZE, (size_t)SIZE * SIZE) == WK_OK;
    free(box);
    for (int z = 0; ok && z < SIZE; z++)
        for (int x = 0; ok && x < SIZE; x++) {
            if (wk_scene_next_u32(rng) % 100 != 0) continue;
            int top = (int)ceilf(height[z * SIZE + x]) - 1;
            uint64_t m = ((uint64_t)wk_scene_next_u32(rng) << 32) | wk_scene_next_u32(rng);
            if (m == 0 || m == WK_VOXEL_FULL) m = 0x5555;
            ok = wk_voxel_set_sub(*w, x, top, z, m) == WK_OK;
            *bricks += ok;
        }
    return ok;
}

int wk_scene_camera_rays(uint32_t side, float *const o[3], float *const d[3]) {
    /* from above the (0, 0) corner, looking towards the middle of the far side */
    float pos[3] = {-8.0f, 250.0f, -8.0f}, target[3] = {160.0f, 60.0f, 200.0f};
    float f[3], len = 0;
    for (int a = 0; a < 3; a++) {
        f[a] = target[a] - pos[a];
        len += f[a] * f[a];
    }
    len = sqrtf(len);
    for (int a = 0; a < 3; a++) f[a] /= len;
    float right[3] = {f[2], 0, -f[0]}; /* f x up */
    float rl = sqrtf(right[0] * right[0] + right[2] * right[2]);
    right[0] /= rl;
    right[2] /= rl;
    float up[3] = {right[1] * f[2] - right[2] * f[1], right[2] * f[0] - right[0] * f[2],
                   right[0] * f[1] - right[1] * f[0]};
    if (up[1] < 0)
        for (int a = 0; a < 3; a++) up[a] = -up[a];
    if (right[0] * f[2] - right[2] * f[0] > 0) /* keep a right-handed image; any is fine */
        for (int a = 0; a < 3; a++) right[a] = -right[a];
    wk_voxel_camera cam = {{pos[0], pos[1], pos[2]}, {f[0], f[1], f[2]}, {right[0], right[1], right[2]},
                           {up[0], up[1], up[2]}, 0.7f, 0.7f, {0}};
    return wk_voxel_camera_rays(&cam, side, side, o[0], o[1], o[2], d[0], d[1], d[2], NULL) == WK_OK;
}

void wk_scene_random_rays(const float *height, uint32_t *rng, size_t n, float *const o[3], float *const d[3]) {
    for (size_t i = 0; i < n; i++) {
        int x = (int)(wk_scene_next_u32(rng) % SIZE), z = (int)(wk_scene_next_u32(rng) % SIZE);
        float h = height[z * SIZE + x];
        o[0][i] = (float)(x + wk_scene_unit(rng));
        o[2][i] = (float)(z + wk_scene_unit(rng));
        o[1][i] = (float)(h + 1.0 + wk_scene_unit(rng) * (SIZE - 1 - h));
        double v[3], l2;
        do {
            for (int a = 0; a < 3; a++) v[a] = wk_scene_unit(rng) * 2 - 1;
            l2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        } while (l2 > 1 || l2 < 1e-6);
        for (int a = 0; a < 3; a++) d[a][i] = (float)v[a];
    }
}
