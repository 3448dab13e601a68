/* Helpers shared by the checks: failure reporting, a deterministic RNG,
 * canary-guarded buffers and the list of supported ISAs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef _WIN32
#include <malloc.h>
#endif
#include <string.h>

#include "wk_checks.h"
#include "worldkern/wk.h"

enum { MAX_MESSAGES = 20 };
static int messages;

void wk_fail_reset(void) { messages = 0; }

void wk_fail_at(const char *file, int line, const char *fmt, ...) {
    if (messages++ >= MAX_MESSAGES) {
        if (messages == MAX_MESSAGES + 1) fprintf(stderr, "  (further failures not printed)\n");
        return;
    }
    const char *base = strrchr(file, '/');
    fprintf(stderr, "  FAIL %s:%d: ", base ? base + 1 : file, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

uint64_t wk_rng_u64(wk_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double wk_rng_unit(wk_rng *r) { return (double)(wk_rng_u64(r) >> 11) * 0x1p-53; }

double wk_rng_range(wk_rng *r, double lo, double hi) { return lo + (hi - lo) * wk_rng_unit(r); }

const uint32_t wk_canary_bits = 0x7FA5C3E1u; /* a signalling-NaN pattern no kernel writes */

uint32_t wk_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

float wk_from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

int wk_is_canary(float f) { return wk_bits(f) == wk_canary_bits; }

wk_buf wk_buf_new(size_t n, size_t offset) {
    wk_buf b;
    size_t total = 32 + offset + n + WK_GUARD;
    size_t bytes = (total * sizeof(float) + 63) / 64 * 64;
#ifdef _WIN32
    b.base = _aligned_malloc(bytes, 64); /* the C runtime of mingw has no aligned_alloc */
#else
    b.base = aligned_alloc(64, bytes);
#endif
    if (!b.base) {
        fprintf(stderr, "out of memory\n");
        abort();
    }
    b.n = n;
    b.offset = offset;
    b.p = b.base + 32 + offset; /* 32 floats = 128 bytes in: aligned, plus offset */
    wk_buf_fill_canary(&b);
    return b;
}

static size_t buf_total(const wk_buf *b) { return 32 + b->offset + b->n + WK_GUARD; }

void wk_buf_free(wk_buf *b) {
#ifdef _WIN32
    _aligned_free(b->base);
#else
    free(b->base);
#endif
    b->base = b->p = NULL;
}

void wk_buf_fill_canary(wk_buf *b) {
    size_t total = buf_total(b);
    for (size_t i = 0; i < total; i++) b->base[i] = wk_from_bits(wk_canary_bits);
}

int wk_buf_guards_ok(const wk_buf *b) {
    for (size_t i = 0; i < WK_GUARD; i++)
        if (!wk_is_canary(b->p[-1 - (ptrdiff_t)i]) || !wk_is_canary(b->p[b->n + i])) return 0;
    return 1;
}

int wk_buf_all_canary(const wk_buf *b) {
    for (size_t i = 0; i < b->n; i++)
        if (!wk_is_canary(b->p[i])) return 0;
    return wk_buf_guards_ok(b);
}

int wk_supported_isas(int isas[WK_ISA_COUNT]) {
    int count = 0;
    for (int isa = WK_ISA_SCALAR; isa < WK_ISA_COUNT; isa++)
        if (wk_isa_supported((wk_isa)isa)) isas[count++] = isa;
    return count;
}

int wk_test_threads(void) {
#ifdef WK_TESTS_SINGLE_THREAD
    return 1;
#else
    return 0;
#endif
}
