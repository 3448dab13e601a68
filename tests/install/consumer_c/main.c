/* Install smoke test: a C program that uses the installed worldkern. */
#include <stdio.h>

#include <worldkern/wk.h>

int main(void) {
    printf("worldkern %s: %s\n", wk_version(), wk_status_str(0));
    return 0;
}
