#include "worldkern/wk.h"

const char *wk_version(void) { return WK_VERSION_STRING; }
