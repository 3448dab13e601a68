/* The voxel family's checks, in run order; see common/wk_checks.h. */
#define WK_CHECKS_VOXEL(X)                 \
    X(voxel_known_answers, plain)          \
    X(voxel_ties_and_signs, plain)         \
    X(voxel_brick_faces, plain)            \
    X(voxel_full_mask_is_solid, plain)     \
    X(voxel_random_vs_dense, plain)        \
    X(voxel_far_coordinates, plain)        \
    X(voxel_int32_limits, plain)           \
    X(voxel_edit_then_cast, plain)         \
    X(voxel_sparse_edits, plain)           \
    X(voxel_group_pair_edits, plain)       \
    X(voxel_empty_boxes, plain)            \
    X(voxel_group_boxes, plain)            \
    X(voxel_bulk_edit_boxes, plain)        \
    X(voxel_entry_on_planes, plain)        \
    X(voxel_entry_ties, plain)             \
    X(voxel_entry_odd_ties, plain)         \
    X(voxel_raycast_isa, isa)              \
    X(voxel_segments_vs_dense, plain)      \
    X(voxel_points_vs_dense, plain)        \
    X(voxel_set_box, plain)                \
    X(voxel_set_terrain, plain)            \
    X(voxel_camera, plain)                 \
    X(voxel_allocator, plain)              \
    X(voxel_bad_input, plain)
