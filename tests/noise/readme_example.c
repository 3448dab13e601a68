/* The README's example, verbatim between the markers (a check compiles and
 * runs it: wk_check_readme_example). */
/* ---- README example begins ---- */
#include <stdint.h>
#include <stdlib.h>
#include <worldkern/array.h>
#include <worldkern/noise.h>

enum { TILE = 256 };

/* The world's terrain settings: the HASH lattice never repeats (PERM repeats
 * every 256 lattice cells: every 16384 world units at 1/64 cells per unit). */
static wk_fbm terrain(void) {
    wk_fbm f = WK_FBM_DEFAULTS; /* HASH, 5 octaves, normalized, 1/64 cells per unit */
    f.seed = 1234;
    return f;
}

/* One streamed tile, heights in [0, 1]. Normalized fBm (gain > 0) lies in
 * [-1, 1] in 2D (|perlin2| <= 1), so a fixed range maps every tile the same
 * way: no seams. (Per-tile min/max is for one-off images only.) */
int make_tile(int64_t tile_x, int64_t tile_y, float *height /* TILE * TILE floats */) {
    wk_fbm f = terrain();
    wk_grid2 g = WK_GRID2_DEFAULTS;
    g.i0 = tile_x * TILE, g.j0 = tile_y * TILE; /* global sample indices */
    g.nx = TILE, g.ny = TILE, g.step = 1.0, g.stride = TILE;
    size_t n = (size_t)TILE * TILE;
    if (wk_noise_fbm2_grid(&f, &g, height, NULL) != WK_OK) return -1;
    if (wk_remap(height, n, -1.0f, 1.0f, 0.0f, 1.0f, height, NULL) != WK_OK) return -1;
    return wk_pow(height, n, 1.5f, height, NULL) == WK_OK ? 0 : -1; /* flatter lowlands */
}

/* Surface normals of a tile from the analytic gradient (per world unit). */
int tile_slopes(int64_t tile_x, int64_t tile_y, float *value, float *ddx, float *ddy) {
    wk_fbm f = terrain();
    wk_grid2 g = WK_GRID2_DEFAULTS;
    g.i0 = tile_x * TILE, g.j0 = tile_y * TILE;
    g.nx = TILE, g.ny = TILE, g.step = 1.0, g.stride = TILE;
    return wk_noise_fbm2_grid_deriv(&f, &g, value, ddx, ddy, NULL) == WK_OK ? 0 : -1;
}

/* The height under a player between tile generations: the same bits the
 * tile holds at that sample position. */
float height_at(double x, double y) {
    wk_fbm f = terrain();
    float h = 0.0f;
    wk_noise_fbm2_points(&f, &x, &y, 1, &h, NULL);
    wk_remap(&h, 1, -1.0f, 1.0f, 0.0f, 1.0f, &h, NULL);
    wk_pow(&h, 1, 1.5f, &h, NULL);
    return h;
}
/* ---- README example ends ---- */
