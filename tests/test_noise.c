/* Criterion test suite: one Criterion test per check of checks.h (the same
 * functions the plain runner calls). */
#include <criterion/criterion.h>

#include "checks.h"

#define WK_CRITERION_TEST(name)                                                  \
    Test(worldkern, name, .timeout = 300) {                                      \
        wk_fail_reset();                                                         \
        int fails = wk_check_##name();                                           \
        cr_assert_eq(fails, 0, "%s: %d failures (details on stderr)", #name, fails); \
    }

WK_CHECK_LIST(WK_CRITERION_TEST)
