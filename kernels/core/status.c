/* Status strings and the thread-local error detail. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "wk_core.h"

const char *wk_status_str(wk_status status) {
    switch (status) {
    case WK_OK: return "ok";
    case WK_ERR_NULL: return "a required pointer is NULL";
    case WK_ERR_INVALID_ARG: return "an argument is outside its documented range";
    case WK_ERR_NOT_FINITE: return "a parameter is NaN or infinite";
    case WK_ERR_OVERFLOW: return "sizes or coordinates overflow their types";
    case WK_ERR_STRIDE: return "a stride is smaller than the row it steps over";
    case WK_ERR_UNSUPPORTED_ISA: return "instruction set not built in or not supported by this CPU";
    case WK_ERR_CAPACITY: return "an output buffer is too small";
    case WK_ERR_ALIAS: return "buffers that must not overlap do";
    case WK_ERR_NO_MEMORY: return "out of memory";
    }
    return "unknown status";
}

#if defined(_MSC_VER)
#define WK_THREAD_LOCAL __declspec(thread)
#else
#define WK_THREAD_LOCAL _Thread_local
#endif

enum { DETAIL_CHARS = 256 };
static WK_THREAD_LOCAL char detail[DETAIL_CHARS];
static WK_THREAD_LOCAL const char *detail_entry;

const char *wk_last_error_detail(void) { return detail; }

void wk__detail_reset(const char *entry) {
    detail[0] = '\0';
    detail_entry = entry;
}

wk_status wk__fail(wk_status code, const char *fmt, ...) {
    int used = snprintf(detail, DETAIL_CHARS, "%s: ", detail_entry ? detail_entry : "worldkern");
    if (used < 0 || used >= DETAIL_CHARS) used = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail + used, DETAIL_CHARS - (size_t)used, fmt, ap);
    va_end(ap);
    return code;
}

/* Reserved space is checked on every call: eight bytes at a time. */
int wk__all_zero(const void *p, size_t n) {
    const unsigned char *b = p;
    uint64_t any = 0, word;
    size_t i = 0;
    for (; i + sizeof word <= n; i += sizeof word) {
        memcpy(&word, b + i, sizeof word);
        any |= word;
    }
    for (; i < n; i++) any |= b[i];
    return any == 0;
}

int wk__overlap(const void *a, size_t abytes, const void *b, size_t bbytes) {
    if (!a || !b || abytes == 0 || bbytes == 0) return 0;
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return pa < pb ? pb - pa < abytes : pa - pb < bbytes;
}
