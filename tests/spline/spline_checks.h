/* The spline family's checks, in run order; see common/wk_checks.h. */
#define WK_CHECKS_SPLINE(X)              \
    X(spline_even_positions, plain)      \
    X(spline_even_positions_fma, plain)  \
    X(spline_cr_even_long, plain)        \
    X(spline_even_halved, plain)         \
    X(spline_cr_even_scales, plain)      \
    X(spline_cr_vs_double, plain)        \
    X(spline_cr_knots, plain)            \
    X(spline_cr_c1, plain)               \
    X(spline_cr_isa, isa)                \
    X(spline_cr_sample_is_eval, isa)     \
    X(spline_cr_edges, isa)              \
    X(spline_cr_bad_input, plain)        \
    X(spline_curve_known, plain)         \
    X(spline_curve_isa, isa)             \
    X(spline_curve_bad_input, plain)     \
    X(spline_redistribute_terrace, plain) \
    X(spline_map_isa, isa)               \
    X(spline_water_game_loop, isa)       \
    X(spline_water_isa, isa)             \
    X(spline_water_conservation, plain)  \
    X(spline_water_stability, plain)     \
    X(spline_water_sleep, plain)         \
    X(spline_water_surface, isa)         \
    X(spline_water_bad_input, plain)
