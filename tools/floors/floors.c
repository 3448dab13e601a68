/* Throughput floors behind two goals that README calls out of reach on
 * this machine: loops that hold only the vector operations the scalar
 * references' roundings require (no loads but the ones named, no branches
 * besides the loop's), timed in cycles of this CPU's measured clock.
 *
 *   cc -O2 -mavx512f -mavx512bw -mavx512vl tools/floors/floors.c -o floors && ./floors
 *
 * x86-64 with AVX-512, gcc or clang (inline asm, AT&T syntax). Not part of
 * the build: a measurement to rerun on another CPU before trusting a goal.
 *
 * 1. Thermal erosion, one column of 16 cells (erosion_ref.c): 7 differences
 *    (the vertical one reused from the row above), 16 compares (8 "lower"
 *    for pass 1, 8 "higher" for pass 2, recomputed instead of stored),
 *    16 ordered masked adds (each sum's first term a masked move), the count
 *    in one operation, the finish (count * talus, excess, division, share *
 *    count, heights minus given) and the final add.
 * 2. Catmull-Rom samples evenly spaced, 16 per vector (spline_ref.c, the
 *    fastest exact form of spline_simd.c): k += 16, s = k / d by a two-term
 *    product (2), t = s * seg, u = t - i, Horner on halved coefficients
 *    (3 multiplies, 3 adds), one store into L1; against a store loop. */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Cycles per second: a chain of dependent integer adds, one per cycle. */
static double clock_hz(void) {
    const long n = 200000000;
    long x = 0;
    double t0 = now();
    for (long i = 0; i < n; i++) __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x));
    return 4.0 * (double)n / (now() - t0);
}

#define ZMM_CLOBBERS                                                                                                  \
    "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",         \
        "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm30",    \
        "xmm31", "k1", "k2", "k3", "k4", "k5", "k6"
#define ZERO_CONSTANTS                                                                                 \
    __asm__ volatile("vxorps %%xmm20,%%xmm20,%%xmm20\n vxorps %%xmm21,%%xmm21,%%xmm21\n"               \
                     "vxorps %%xmm22,%%xmm22,%%xmm22\n vxorps %%xmm0,%%xmm0,%%xmm0\n"                  \
                     "vxorps %%xmm10,%%xmm10,%%xmm10\n" ::                                            \
                         : ZMM_CLOBBERS)

#define SUB(i) "vsubps %%zmm20,%%zmm" #i ",%%zmm" #i "\n"
#define SHIFT(i, j) "valignd $1,%%zmm21,%%zmm" #i ",%%zmm" #j "\n"
#define CMP(i, k) "vcmpps $0x1e,%%zmm22,%%zmm" #i ",%%k" #k "\n"
#define MADD(acc, i, k) "vaddps %%zmm" #i ",%%zmm" #acc ",%%zmm" #acc "%{%%k" #k "%}\n"
#define MMOV(acc, i, k) "vmovaps %%zmm" #i ",%%zmm" #acc "%{%%k" #k "%}%{z%}\n"

static double erosion_cycles(double hz) {
    const long n = 20000000;
    long left = n;
    ZERO_CONSTANTS;
    double t0 = now();
    __asm__ volatile("1:\n" SUB(0) SUB(1) SUB(2) SUB(3) SHIFT(0, 4) SHIFT(1, 5) SHIFT(2, 6)
                     CMP(0, 1) CMP(1, 2) CMP(2, 3) CMP(3, 4) CMP(4, 5) CMP(5, 6) CMP(6, 1) CMP(0, 2)
                     MMOV(8, 0, 1) MADD(30, 1, 2) MADD(31, 2, 3) MADD(19, 3, 4) MADD(30, 4, 5) MADD(31, 5, 6)
                     MADD(19, 6, 1) MADD(30, 0, 2)
                     "vcvtdq2ps %%zmm21,%%zmm9\n"
                     "vmulps %%zmm9,%%zmm22,%%zmm12\n vsubps %%zmm12,%%zmm8,%%zmm12\n"
                     "vdivps %%zmm9,%%zmm21,%%zmm13\n vmulps %%zmm13,%%zmm9,%%zmm14\n vsubps %%zmm14,%%zmm7,%%zmm14\n"
                     SHIFT(13, 15) SHIFT(13, 16)
                     CMP(0, 1) CMP(1, 2) CMP(2, 3) CMP(3, 4) CMP(4, 5) CMP(5, 6) CMP(6, 1) CMP(0, 2)
                     MMOV(17, 13, 1) MADD(31, 15, 2) MADD(19, 16, 3) MADD(30, 13, 4) MADD(31, 15, 5) MADD(19, 16, 6)
                     MADD(30, 13, 1) MADD(31, 15, 2)
                     "vaddps %%zmm17,%%zmm14,%%zmm18\n"
                     "dec %0\n jnz 1b\n"
                     : "+r"(left)::ZMM_CLOBBERS, "cc");
    return (now() - t0) * hz / (double)n;
}

#define HORNER(u, v) "vmulps %%zmm21,%%zmm" u ",%%zmm" v "\n vaddps %%zmm20,%%zmm" v ",%%zmm" v "\n" \
    "vmulps %%zmm" u ",%%zmm" v ",%%zmm" v "\n vaddps %%zmm20,%%zmm" v ",%%zmm" v "\n"        \
    "vmulps %%zmm" u ",%%zmm" v ",%%zmm" v "\n vaddps %%zmm20,%%zmm" v ",%%zmm" v "\n"
#define SAMPLES(k, s, t, u, v, off)                                                                \
    "vaddps %%zmm20,%%zmm" k ",%%zmm" k "\n"                                                      \
    "vmulps %%zmm21,%%zmm" k ",%%zmm" s "\n vfmadd231ps %%zmm21,%%zmm" k ",%%zmm" s "\n"          \
    "vmulps %%zmm21,%%zmm" s ",%%zmm" t "\n vsubps %%zmm20,%%zmm" t ",%%zmm" u "\n" HORNER(u, v) \
    "vmovups %%zmm" v "," off "(%1)\n"

static float l1_buffer[64] __attribute__((aligned(64)));

/* Cycles per 16 samples (store_only: per 16 floats of a store loop). */
static double spline_cycles(double hz, int store_only) {
    const long n = 50000000;
    long left = n;
    float *p = l1_buffer;
    ZERO_CONSTANTS;
    double t0 = now();
    if (store_only)
        __asm__ volatile("1:\n vmovups %%zmm20,(%1)\n vmovups %%zmm20,64(%1)\n dec %0\n jnz 1b\n"
                         : "+r"(left)
                         : "r"(p)
                         : ZMM_CLOBBERS, "cc", "memory");
    else
        __asm__ volatile("1:\n" SAMPLES("0", "1", "2", "3", "4", "0") SAMPLES("10", "11", "12", "13", "14", "64")
                         "dec %0\n jnz 1b\n"
                         : "+r"(left)
                         : "r"(p)
                         : ZMM_CLOBBERS, "cc", "memory");
    return (now() - t0) * hz / (double)n / 2.0;
}

int main(void) {
    double hz = clock_hz();
    printf("clock: %.2f GHz\n", hz * 1e-9);
    double e = 1e9, s = 1e9, w = 1e9;
    for (int r = 0; r < 3; r++) { /* the minimum of three */
        double x = erosion_cycles(hz), y = spline_cycles(hz, 0), z = spline_cycles(hz, 1);
        e = x < e ? x : e, s = y < s ? y : s, w = z < w ? z : w;
    }
    printf("erosion: %.1f cycles per 16 cells = %.3f ns per cell and iteration (goal 0.4)\n", e, e / 16 / hz * 1e9);
    printf("spline:  %.1f cycles per 16 samples = %.4f ns per sample; store loop in L1: %.1f cycles = %.4f ns per "
           "float\n",
           s, s / 16 / hz * 1e9, w, w / 16 / hz * 1e9);
    return 0;
}
