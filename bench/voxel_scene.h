/* voxel_scene.h: the voxel benchmarks' scene, shared by bench_voxel.c and
 * bench_voxel_embree.c so that both trace the same world and rays.
 *
 * A 256^3 terrain: heights from wk_noise_fbm2_grid (5 octaves, a lattice
 * cell every 64 blocks) mapped to 40..216, blocks below the height solid
 * (one wk_voxel_set_box call), then about 1% of the surface blocks carved
 * into random bricks. Camera rays look from above one corner across the
 * terrain; random rays start at random points in the air. */
#ifndef WK_BENCH_VOXEL_SCENE_H
#define WK_BENCH_VOXEL_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include <worldkern/voxel.h>

enum { WK_SCENE_SIZE = 256 };

/* A small counter-based generator; unit: [0, 1) with 24 bits. */
uint32_t wk_scene_next_u32(uint32_t *state);
double wk_scene_unit(uint32_t *state);

/* Creates *w and fills it with the terrain; height receives the
 * WK_SCENE_SIZE^2 heights (index z * SIZE + x). The bricks are drawn from
 * *rng (start it at 99), which random rays then continue. *bricks: how many
 * blocks were carved. Returns 1, or 0 on failure (*w may be set). */
int wk_scene_build_world(wk_voxel_world **w, float *height, uint32_t *rng, uint64_t *bricks);

/* side x side pinhole rays into o[3], d[3] (side^2 floats each). */
int wk_scene_camera_rays(uint32_t side, float *const o[3], float *const d[3]);

/* n rays from random points above the terrain, random directions. */
void wk_scene_random_rays(const float *height, uint32_t *rng, size_t n, float *const o[3], float *const d[3]);

#endif
