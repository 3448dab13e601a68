/* The array utilities' checks (wk_remap, wk_pow; wk_minmax is still checked
 * in tests/noise), in run order; see common/wk_checks.h. */
#define WK_CHECKS_ARRAY(X)       \
    X(remap_isa, isa)            \
    X(remap_known, plain)        \
    X(bad_remap, plain)          \
    X(pow_isa, isa)              \
    X(pow_accuracy, plain)       \
    X(bad_pow, plain)
