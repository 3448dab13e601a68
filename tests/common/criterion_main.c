/* Criterion front end: one Criterion test per check of one family's list
 * (the same functions the plain runner calls). CMake builds it once per
 * family with WK_FAMILY_CHECKS set to that family's list macro. */
#include <criterion/criterion.h>

#include "wk_checks.h"

#ifndef WK_FAMILY_CHECKS
#error "build with -DWK_FAMILY_CHECKS=WK_CHECKS_<FAMILY>"
#endif

#define WK_CRITERION_TEST(name, kind)                                            \
    Test(worldkern, name, .timeout = 300) {                                      \
        wk_fail_reset();                                                         \
        int fails = wk_check_##name();                                           \
        cr_assert_eq(fails, 0, "%s: %d failures (details on stderr)", #name, fails); \
    }

WK_FAMILY_CHECKS(WK_CRITERION_TEST)
