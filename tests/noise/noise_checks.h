/* The noise family's checks (and, for now, the array utilities' and the
 * core API basics), in run order; see common/wk_checks.h. */
#define WK_CHECKS_NOISE(X)                 \
    X(api_basics, plain)                   \
    X(perlin_double_known_answers, plain)  \
    X(perlin3_vs_double, isa)              \
    X(perlin2_vs_double, isa)              \
    X(perlin_seeded_vs_double, plain)      \
    X(perlin2_isa_sizes, isa)              \
    X(perlin3_isa_sizes, isa)              \
    X(perlin_isa_random_wide, isa)         \
    X(perlin_non_finite, isa)              \
    X(perlin_alias, isa)                   \
    X(minmax_isa, isa)                     \
    X(minmax_semantics, isa)               \
    X(fbm2_grid_isa, isa)                  \
    X(fbm3_grid_isa, isa)                  \
    X(fbm2_deriv_isa, isa)                 \
    X(fbm_vs_double, plain)                \
    X(grid_chunk_invariance, isa)          \
    X(thread_invariance, plain)            \
    X(grid_equals_perlin, isa)             \
    X(grid_smooth_far, plain)              \
    X(deriv_finite_differences, plain)     \
    X(bad_points, plain)                   \
    X(bad_minmax, plain)                   \
    X(bad_grids, plain)                    \
    X(points_equal_grid, isa)              \
    X(points_isa_random, isa)              \
    X(bad_fbm_points, plain)               \
    X(grid_2p53, plain)
