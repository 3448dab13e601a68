/* The contour family's checks, in run order; see common/wk_checks.h. */
#define WK_CHECKS_CONTOUR(X)           \
    X(msq_cases, plain)                \
    X(msq_iso_nodes, plain)            \
    X(msq_closed_area, plain)          \
    X(msq_chunk_seams, plain)          \
    X(msq_isa_sizes, isa)              \
    X(msq_isa_wide, isa)               \
    X(msq_isa_random, isa)             \
    X(msq_isa_runs, isa)               \
    X(msq_isa_long_runs, isa)          \
    X(msq_isa_part_ends, isa)          \
    X(msq_isa_one_pass_ends, isa)      \
    X(msq_bad_input, plain)            \
    X(msq_canaries, isa)               \
    X(msq_u8, isa)                     \
    X(chains_vs_flood, plain)          \
    X(chains_bad_input, plain)         \
    X(simplify_known, plain)           \
    X(simplify_contours, plain)        \
    X(brush_formula, plain)            \
    X(brush_round, plain)              \
    X(chunks_rebuild, isa)
