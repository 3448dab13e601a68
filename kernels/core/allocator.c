/* The allocator hooks of wk.h: defaults and checks, shared by every family
 * that owns memory. */
#include <stdlib.h>

#include "wk_core.h"

static void *default_alloc(void *user, size_t bytes) {
    (void)user;
    return malloc(bytes);
}

static void default_free(void *user, void *p, size_t bytes) {
    (void)user;
    (void)bytes;
    free(p);
}

wk_status wk__allocator_resolve(const wk_allocator *given, const char *name, wk_allocator *out) {
    const wk_allocator standard = {default_alloc, default_free, NULL, {0, 0}};
    *out = standard;
    if (!given) return WK_OK;
    if (!wk__all_zero(given->reserved, sizeof given->reserved))
        return wk__fail(WK_ERR_INVALID_ARG, "%s->reserved must be zero", name);
    if (!given->alloc != !given->free)
        return wk__fail(WK_ERR_INVALID_ARG, "%s->alloc and %s->free must both be set or both NULL", name, name);
    if (given->alloc) *out = *given;
    return WK_OK;
}
