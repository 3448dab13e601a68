/* The shared ISA harness: every supported ISA x thread counts x splits
 * against the scalar reference, by memcmp, under the caller's FP
 * environment of choice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wk_checks.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
uint64_t wk_fp_control(void) { return _mm_getcsr() & ~0x3Fu; } /* control bits, not flags */
void wk_fp_restore(uint64_t saved) { _mm_setcsr((unsigned)saved); }
uint64_t wk_fp_set_flush(void) {
    uint64_t saved = wk_fp_control();
    _mm_setcsr(_mm_getcsr() | 0x8040u); /* FTZ | DAZ */
    return saved;
}
#elif defined(__aarch64__)
uint64_t wk_fp_control(void) {
    uint64_t v;
    __asm__ volatile("mrs %0, fpcr" : "=r"(v));
    return v;
}
void wk_fp_restore(uint64_t saved) { __asm__ volatile("msr fpcr, %0" : : "r"(saved)); }
uint64_t wk_fp_set_flush(void) {
    uint64_t saved = wk_fp_control();
    wk_fp_restore(saved | (1ull << 24)); /* FZ */
    return saved;
}
#else
uint64_t wk_fp_control(void) { return 0; }
void wk_fp_restore(uint64_t saved) { (void)saved; }
uint64_t wk_fp_set_flush(void) { return 0; }
#endif

wk_exec wk_exec_for(int isa, int threads) {
    wk_exec e = WK_EXEC_DEFAULTS;
    e.isa = isa;
    e.threads = threads;
    return e;
}

/* A job system stand-in: runs the parts on the calling thread, last first,
 * so that a kernel relying on part order would show it. Its "workers" run
 * with flush-to-zero set when the harness tests that (user != NULL), as an
 * engine's job threads may: each part must enter the default environment. */
static void reversing_runner(void *user, wk_task_fn task, void *task_ctx, uint32_t count) {
    for (uint32_t i = count; i-- > 0;) {
        uint64_t saved = user ? wk_fp_set_flush() : 0;
        task(task_ctx, i);
        if (user) wk_fp_restore(saved);
    }
}

enum { GUARD_BYTES = 64 };
static const unsigned char CANARY = 0xE1;

static unsigned char *canary_buffer(size_t bytes) {
    unsigned char *b = malloc(bytes + 2 * GUARD_BYTES + 1);
    if (!b) {
        fprintf(stderr, "out of memory\n");
        abort();
    }
    memset(b, CANARY, bytes + 2 * GUARD_BYTES + 1);
    return b;
}

static int guards_intact(const unsigned char *b, size_t bytes) {
    for (size_t i = 0; i < GUARD_BYTES; i++)
        if (b[i] != CANARY || b[GUARD_BYTES + bytes + i] != CANARY) return 0;
    return 1;
}

static size_t first_difference(const unsigned char *a, const unsigned char *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return i;
    return n;
}

int wk_harness_compare(const wk_harness *h) {
    int fails = 0;
    const char *ftz_env = getenv("WK_TEST_FTZ");
    int flush = ftz_env && strcmp(ftz_env, "1") == 0;
    /* Unaligned by one byte past the guard: kernels must not assume alignment
     * beyond the element's (the harness's runs keep float alignment: +0). */
    unsigned char *ref = canary_buffer(h->out_bytes), *out = canary_buffer(h->out_bytes);
    wk_exec scalar = wk_exec_for(WK_ISA_SCALAR, 1);
    int s = h->run(h->ctx, &scalar, 0, ref + GUARD_BYTES);
    EXPECT(s == WK_OK, "%s: scalar reference status %d (%s)", h->what, s, wk_last_error_detail());
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    const int thread_counts[] = {1, 2, 3, 0, -3}; /* -3: 3 parts on the reversing runner */
    int nthreads = wk_test_threads() == 1 ? 1 : (int)(sizeof thread_counts / sizeof thread_counts[0]);
    for (int t = 0; t < nisa && s == WK_OK; t++)
        for (int c = 0; c < nthreads; c++)
            for (uint32_t split = 0; split < h->splits; split++) {
                wk_exec e = wk_exec_for(isas[t], thread_counts[c] < 0 ? -thread_counts[c] : thread_counts[c]);
                if (thread_counts[c] < 0) {
                    e.runner = reversing_runner;
                    e.runner_user = flush ? &flush : NULL;
                }
                memset(out, CANARY, h->out_bytes + 2 * GUARD_BYTES);
                uint64_t saved = flush ? wk_fp_set_flush() : 0, during = wk_fp_control();
                int rs = h->run(h->ctx, &e, split, out + GUARD_BYTES);
                uint64_t after = wk_fp_control();
                if (flush) wk_fp_restore(saved);
                const char *isa = wk_isa_name((wk_isa)isas[t]);
                EXPECT(rs == WK_OK, "%s: %s threads %d split %u status %d (%s)", h->what, isa, thread_counts[c],
                       split, rs, wk_last_error_detail());
                EXPECT(after == during, "%s: %s threads %d: the caller's FP control word changed (%llx -> %llx)",
                       h->what, isa, thread_counts[c], (unsigned long long)during, (unsigned long long)after);
                size_t at = first_difference(ref + GUARD_BYTES, out + GUARD_BYTES, h->out_bytes);
                EXPECT(at == h->out_bytes, "%s: %s threads %d split %u%s differs from scalar at byte %zu of %zu",
                       h->what, isa, thread_counts[c], split, flush ? " (caller FTZ/DAZ)" : "", at, h->out_bytes);
                EXPECT(guards_intact(out, h->out_bytes), "%s: %s threads %d split %u wrote past its output",
                       h->what, isa, thread_counts[c], split);
            }
    free(ref);
    free(out);
    return fails;
}
