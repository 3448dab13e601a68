// Install smoke test: a C++17 program that uses the installed worldkern.
#include <cstdio>
#include <string_view>

#include <worldkern/wk.h>

int main() {
    std::string_view version = wk_version();
    std::printf("worldkern %s: %s\n", version.data(), wk_status_str(WK_OK));
    return version.empty() ? 1 : 0;
}
