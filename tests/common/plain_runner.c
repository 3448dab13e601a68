/* Plain test runner (no Criterion): runs every check of every family, or
 * only those named on the command line (--kind isa: only the checks that
 * compare ISAs), prints "N passed, M failed" and exits nonzero on failure.
 * --print-golden prints the golden hash table (tools/wk golden).
 * The aarch64 build runs this under qemu-aarch64, the windows one under wine. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "golden/golden.h"
#include "wk_checks.h"
#include "worldkern/wk.h"

typedef struct entry { const char *name, *kind; int (*fn)(void); } entry;

#define WK_ENTRY(name, kind) {#name, #kind, wk_check_##name},
static const entry checks[] = {WK_ALL_CHECKS(WK_ENTRY)};
static const char *only_kind;

static int selected(const entry *e, int argc, char **argv) {
    if (only_kind && strcmp(e->kind, only_kind) != 0) return 0;
    if (argc < 2) return 1;
    const char *name = e->name;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0) return 1;
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--print-golden") == 0) return wk_golden_print() ? 1 : 0;
    if (argc >= 3 && strcmp(argv[1], "--kind") == 0) {
        only_kind = argv[2];
        argv += 2;
        argc -= 2;
    }
    for (int i = 1; i < argc; i++) {
        int known = 0;
        for (size_t c = 0; c < sizeof checks / sizeof checks[0]; c++) known |= strcmp(argv[i], checks[c].name) == 0;
        if (!known) {
            fprintf(stderr, "unknown check '%s'\n", argv[i]);
            return 2;
        }
    }
    wk_set_threads(wk_test_threads());
    printf("worldkern %s, active ISA %s; supported:", wk_version(), wk_isa_name(wk_isa_active()));
    for (int isa = WK_ISA_SCALAR; isa < WK_ISA_COUNT; isa++)
        if (wk_isa_supported((wk_isa)isa)) printf(" %s", wk_isa_name((wk_isa)isa));
    printf("\n");
    fflush(stdout);
    int passed = 0, failed = 0;
    for (size_t c = 0; c < sizeof checks / sizeof checks[0]; c++) {
        if (!selected(&checks[c], argc, argv)) continue;
        wk_fail_reset();
        clock_t t0 = clock();
        int fails = checks[c].fn();
        double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
        printf("%-32s %s (%d failures, %.2f s cpu)\n", checks[c].name, fails ? "FAIL" : "ok", fails, secs);
        fflush(stdout);
        fflush(stderr);
        if (fails) failed++;
        else passed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
