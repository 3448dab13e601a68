/* The erosion family's checks, in run order; see common/wk_checks.h. */
#define WK_CHECKS_EROSION(X)               \
    X(erosion_flat_stays_flat, isa)        \
    X(erosion_spike_by_hand, isa)          \
    X(erosion_talus_exact_moves_nothing, isa) \
    X(erosion_border_receives, plain)      \
    X(erosion_mass_conservation, plain)    \
    X(erosion_vs_independent, isa)         \
    X(erosion_isa_1_iteration, isa)        \
    X(erosion_isa_50_iterations, isa)      \
    X(erosion_small_maps, isa)             \
    X(erosion_nan_holes, isa)              \
    X(erosion_vector_edges, isa)           \
    X(erosion_avx2_tails, isa)             \
    X(erosion_non_finite_no_crash, isa)    \
    X(erosion_tile_halo, plain)            \
    X(erosion_scratch_sizes, plain)        \
    X(erosion_talus_from_angle, plain)     \
    X(erosion_bad_input, plain)
