#include "worldkern/wk.h"

const char *wk_status_str(wk_status status) {
    switch (status) {
    case WK_OK: return "ok";
    case WK_ERR_NULL: return "a required pointer is NULL";
    case WK_ERR_INVALID_ARG: return "an argument is outside its documented range";
    case WK_ERR_NOT_FINITE: return "a parameter is NaN or infinite";
    case WK_ERR_OVERFLOW: return "sizes or coordinates overflow their types";
    case WK_ERR_STRIDE: return "a stride is smaller than the row it steps over";
    case WK_ERR_UNSUPPORTED_ISA: return "instruction set not built in or not supported by this CPU";
    }
    return "unknown status";
}
