/* libFuzzer target: wk_fracture_adjacency and wk_fracture_anchors on boxes
 * decoded from the input (small integer grids for exact touches, plus
 * NaN, infinities, huge values and negative extents), for every supported
 * ISA and 1 or 3 threads, against the scalar reference and an all-pairs
 * test written here. abort() on any mismatch. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worldkern/fracture.h"

typedef struct reader { const uint8_t *p; size_t n; } reader;
static uint8_t byte(reader *r) {
    if (!r->n) return 0;
    r->n--;
    return *r->p++;
}

static float value(reader *r) {
    static const float specials[] = {NAN, INFINITY, -INFINITY, 3e38f, -3e38f, 1e-40f, -0.0f, 0.5f};
    uint8_t b = byte(r);
    if (b >= 248) return specials[b - 248];
    if (b >= 200) return (float)(b - 200) * 0.25f + 1000.0f; /* far cluster */
    return (float)(b % 16) * 0.5f;                           /* grid: exact touches */
}

enum { MAX_N = 96 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    uint32_t n = byte(&r) % MAX_N;
    static const float pads[] = {0.0f, 0.25f, 0.001f, 2.0f, NAN, INFINITY, -1.0f, 1e38f};
    float pad = pads[byte(&r) % 8];
    static float v[6][MAX_N + 1];
    for (uint32_t i = 0; i < n; i++) {
        for (int a = 0; a < 3; a++) {
            float lo = value(&r), ext = value(&r);
            v[a][i] = lo;
            v[a + 3][i] = (byte(&r) & 7) == 0 ? lo - 1.0f : lo + ext; /* sometimes min > max */
        }
    }
    wk_boxes b = WK_BOXES_DEFAULTS;
    b.min_x = v[0], b.min_y = v[1], b.min_z = v[2], b.max_x = v[3], b.max_y = v[4], b.max_z = v[5];
    b.n = n;
    size_t bytes;
    if (wk_fracture_adjacency_workspace_size(n, &bytes) != WK_OK) abort();
    void *ws = malloc(bytes + 1);
    size_t cap = (size_t)n * n / 2 + 1;
    uint32_t *ref = malloc(cap * 8), *out = malloc(cap * 8);
    wk_exec scalar = WK_EXEC_DEFAULTS;
    scalar.isa = WK_ISA_SCALAR;
    scalar.threads = 1;
    size_t ref_count = 0;
    wk_status rs = wk_fracture_adjacency(&b, pad, ws, bytes, ref, cap, &ref_count, &scalar);
    if (rs == WK_OK) {
        /* All pairs, written out. */
        size_t k = 0;
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = i + 1; j < n; j++) {
                int t = 1;
                for (int a = 0; a < 3; a++)
                    if (!(v[a][i] - pad <= v[a + 3][j] + pad && v[a][j] - pad <= v[a + 3][i] + pad)) t = 0;
                if (!t) continue;
                if (k >= ref_count || ref[2 * k] != i || ref[2 * k + 1] != j) abort();
                k++;
            }
        if (k != ref_count) abort();
    }
    static const wk_isa isas[] = {WK_ISA_SCALAR, WK_ISA_AVX2, WK_ISA_AVX512, WK_ISA_NEON};
    for (int t = 0; t < 4; t++) {
        if (!wk_isa_supported(isas[t])) continue;
        for (int threads = 1; threads <= 3; threads += 2) {
            wk_exec e = WK_EXEC_DEFAULTS;
            e.isa = isas[t];
            e.threads = threads;
            size_t count = 0;
            wk_status s = wk_fracture_adjacency(&b, pad, (unsigned char *)ws + 1, bytes, out, cap, &count, &e);
            if (s != rs) abort();
            if (s == WK_OK && (count != ref_count || memcmp(out, ref, count * 8) != 0)) abort();
        }
    }
    /* Anchors: the first boxes as anchor volumes for the rest. */
    if (n >= 2) {
        uint32_t m = 1 + byte(&r) % 3;
        if (m > n / 2) m = n / 2;
        wk_boxes frags = b, anchors = b;
        anchors.n = m;
        frags.min_x += m, frags.min_y += m, frags.min_z += m, frags.max_x += m, frags.max_y += m, frags.max_z += m;
        frags.n = n - m;
        uint8_t flags_ref[MAX_N], flags[MAX_N];
        wk_status as = wk_fracture_anchors(&frags, pad, &anchors, flags_ref, &scalar);
        for (int t = 0; t < 4; t++) {
            if (!wk_isa_supported(isas[t])) continue;
            wk_exec e = WK_EXEC_DEFAULTS;
            e.isa = isas[t];
            if (wk_fracture_anchors(&frags, pad, &anchors, flags, &e) != as) abort();
            if (as == WK_OK && memcmp(flags, flags_ref, frags.n) != 0) abort();
        }
    }
    free(ws);
    free(ref);
    free(out);
    return 0;
}
