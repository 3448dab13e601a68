/* The fracture family's checks, in run order; see common/wk_checks.h. */
#define WK_CHECKS_FRACTURE(X)              \
    X(fracture_adjacency_vs_all_pairs, isa) \
    X(fracture_adjacency_lattice, isa)     \
    X(fracture_adjacency_isa, isa)         \
    X(fracture_adjacency_crowded, isa)     \
    X(fracture_adjacency_two_call, plain)  \
    X(fracture_adjacency_bad_input, plain) \
    X(fracture_anchors, isa)               \
    X(fracture_anchors_bad_input, plain)   \
    X(fracture_volumes_known, isa)         \
    X(fracture_volumes_flags, plain)       \
    X(fracture_volumes_bad_input, plain)   \
    X(fracture_graph_vs_bfs, plain)        \
    X(fracture_graph_cases, plain)         \
    X(fracture_graph_bad_input, plain)     \
    X(fracture_pipeline, plain)
