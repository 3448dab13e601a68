/* Independent double-precision Perlin "improved noise" (Ken Perlin, 2002),
 * written from the published algorithm (https://mrl.nyu.edu/~perlin/noise/):
 * his permutation, fade 6t^5-15t^4+10t^3, lerp a + t(b - a) and the 12+4
 * gradient directions picked from hash & 15. Also the 2D variant, the seed
 * shuffle and the HASH lattice exactly as include/worldkern/noise.h words
 * them. Nothing here comes from kernels/. */
#include "perlin_double.h"

#include <math.h>
#include <string.h>

/* Ken Perlin's published permutation. */
static const int perlin_p[256] = {
    151,160,137,91,90,15,131,13,201,95,96,53,194,233,7,225,140,36,103,30,69,142,8,99,37,240,21,10,
    23,190,6,148,247,120,234,75,0,26,197,62,94,252,219,203,117,35,11,32,57,177,33,88,237,149,56,87,
    174,20,125,136,171,168,68,175,74,165,71,134,139,48,27,166,77,146,158,231,83,111,229,122,60,211,
    133,230,220,105,92,41,55,46,245,40,244,102,143,54,65,25,63,161,1,216,80,73,209,76,132,187,208,
    89,18,169,200,196,135,130,116,188,159,86,164,100,109,198,173,186,3,64,52,217,226,250,124,123,5,
    202,38,147,118,126,255,82,85,212,207,206,59,227,47,16,58,17,182,189,28,42,223,183,170,213,119,
    248,152,2,44,154,163,70,221,153,101,155,167,43,172,9,129,22,39,253,19,98,108,110,79,113,224,232,
    178,185,112,104,218,246,97,228,251,34,242,193,238,210,144,12,191,179,162,241,81,51,145,235,249,
    14,239,107,49,192,214,31,181,199,106,157,184,84,204,176,115,121,50,45,127,4,150,254,138,236,205,
    93,222,114,67,29,24,72,243,141,128,195,78,66,215,61,156,180};

/* The doubled table p[0..511] for a seed (noise.h: Fisher-Yates driven by a
 * 32-bit mixer). One small cache: the last seed used. */
typedef struct table { uint32_t seed; int valid; int p[512]; } table;

static uint32_t shuffle_next(uint32_t *state) {
    *state += 0x9E3779B9u;
    uint32_t z = *state;
    z = (z ^ (z >> 16)) * 0x85EBCA6Bu;
    z = (z ^ (z >> 13)) * 0xC2B2AE35u;
    return z ^ (z >> 16);
}

static const int *table_for(uint32_t seed) {
    static _Thread_local table t;
    if (t.valid && t.seed == seed) return t.p;
    int q[256];
    memcpy(q, perlin_p, sizeof q);
    if (seed != 0) {
        uint32_t state = seed;
        for (int i = 255; i >= 1; i--) {
            int j = (int)(shuffle_next(&state) % (uint32_t)(i + 1));
            int tmp = q[i];
            q[i] = q[j];
            q[j] = tmp;
        }
    }
    for (int i = 0; i < 512; i++) t.p[i] = q[i & 255];
    t.seed = seed;
    t.valid = 1;
    return t.p;
}

static double fade(double t) { return t * t * t * (t * (t * 6 - 15) + 10); }
static double lerp(double t, double a, double b) { return a + t * (b - a); }

static double grad3(int hash, double x, double y, double z) {
    int h = hash & 15;
    double u = h < 8 ? x : y;
    double v = h < 4 ? y : (h == 12 || h == 14) ? x : z;
    return ((h & 1) == 0 ? u : -u) + ((h & 2) == 0 ? v : -v);
}

static double grad2(int hash, double x, double y) {
    int h = hash & 7;
    double u = h < 4 ? x : y;
    double v = h < 4 ? y : x;
    return ((h & 1) == 0 ? u : -u) + ((h & 2) == 0 ? v : -v);
}

static int wrap255(int64_t c) { return (int)((uint64_t)c & 255u); }

double pd_perm_noise3(int64_t cx, double x, int64_t cy, double y, int64_t cz, double z,
                      uint32_t seed) {
    const int *p = table_for(seed);
    int X = wrap255(cx), Y = wrap255(cy), Z = wrap255(cz);
    double u = fade(x), v = fade(y), w = fade(z);
    int A = p[X] + Y, AA = p[A] + Z, AB = p[A + 1] + Z;
    int B = p[X + 1] + Y, BA = p[B] + Z, BB = p[B + 1] + Z;
    return lerp(w,
                lerp(v, lerp(u, grad3(p[AA], x, y, z), grad3(p[BA], x - 1, y, z)),
                     lerp(u, grad3(p[AB], x, y - 1, z), grad3(p[BB], x - 1, y - 1, z))),
                lerp(v, lerp(u, grad3(p[AA + 1], x, y, z - 1), grad3(p[BA + 1], x - 1, y, z - 1)),
                     lerp(u, grad3(p[AB + 1], x, y - 1, z - 1),
                          grad3(p[BB + 1], x - 1, y - 1, z - 1))));
}

double pd_perm_noise2(int64_t cx, double x, int64_t cy, double y, uint32_t seed) {
    const int *p = table_for(seed);
    int X = wrap255(cx), Y = wrap255(cy);
    double u = fade(x), v = fade(y);
    int AA = p[p[X] + Y], AB = p[p[X] + Y + 1];
    int BA = p[p[X + 1] + Y], BB = p[p[X + 1] + Y + 1];
    return lerp(v, lerp(u, grad2(AA, x, y), grad2(BA, x - 1, y)),
                lerp(u, grad2(AB, x, y - 1), grad2(BB, x - 1, y - 1)));
}

double pd_noise3(double x, double y, double z, uint32_t seed) {
    double fx = floor(x), fy = floor(y), fz = floor(z);
    return pd_perm_noise3((int64_t)fx, x - fx, (int64_t)fy, y - fy, (int64_t)fz, z - fz, seed);
}

double pd_noise2(double x, double y, uint32_t seed) {
    double fx = floor(x), fy = floor(y);
    return pd_perm_noise2((int64_t)fx, x - fx, (int64_t)fy, y - fy, seed);
}

/* ---- HASH lattice (noise.h) ---- */

static uint32_t axis_hash(int64_t c, uint32_t seed, unsigned a) {
    uint64_t v = (uint64_t)c * 0x9E3779B97F4A7C15ull + ((uint64_t)seed + 1u) * 0xD1B54A32D192ED03ull +
                 ((uint64_t)a + 1u) * 0x8CB92BA72F3D8DD7ull;
    v = (v ^ (v >> 32)) * 0xD6E8FEB86659FD93ull;
    return (uint32_t)(v ^ (v >> 32));
}

static uint32_t corner_mix(uint32_t h) { return (h ^ (h >> 16)) * 0x7FEB352Du; }

double pd_hash_noise2(int64_t cx, double x, int64_t cy, double y, uint32_t seed) {
    uint32_t ax0 = axis_hash(cx, seed, 0), ax1 = axis_hash(cx + 1, seed, 0);
    uint32_t ay0 = axis_hash(cy, seed, 1), ay1 = axis_hash(cy + 1, seed, 1);
    int g00 = (int)(corner_mix(ax0 ^ ay0) >> 29), g10 = (int)(corner_mix(ax1 ^ ay0) >> 29);
    int g01 = (int)(corner_mix(ax0 ^ ay1) >> 29), g11 = (int)(corner_mix(ax1 ^ ay1) >> 29);
    double u = fade(x), v = fade(y);
    return lerp(v, lerp(u, grad2(g00, x, y), grad2(g10, x - 1, y)),
                lerp(u, grad2(g01, x, y - 1), grad2(g11, x - 1, y - 1)));
}

double pd_hash_noise3(int64_t cx, double x, int64_t cy, double y, int64_t cz, double z,
                      uint32_t seed) {
    uint32_t ax[2] = {axis_hash(cx, seed, 0), axis_hash(cx + 1, seed, 0)};
    uint32_t ay[2] = {axis_hash(cy, seed, 1), axis_hash(cy + 1, seed, 1)};
    uint32_t az[2] = {axis_hash(cz, seed, 2), axis_hash(cz + 1, seed, 2)};
    double g[2][2][2];
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 2; c++)
                g[a][b][c] = grad3((int)(corner_mix(ax[a] ^ ay[b] ^ az[c]) >> 28), x - a, y - b, z - c);
    double u = fade(x), v = fade(y), w = fade(z);
    return lerp(w, lerp(v, lerp(u, g[0][0][0], g[1][0][0]), lerp(u, g[0][1][0], g[1][1][0])),
                lerp(v, lerp(u, g[0][0][1], g[1][0][1]), lerp(u, g[0][1][1], g[1][1][1])));
}
