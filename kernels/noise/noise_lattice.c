#include "core/wk_fp_guard.h"

/* Lattice setup shared by every ISA: seeded permutations and axis hashes. */
#include "noise_lattice.h"

/* Ken Perlin's permutation from his 2002 improved-noise reference. */
static const wk_perm perlin_perm = {{
    151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225,
    140, 36, 103, 30, 69, 142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148,
    247, 120, 234, 75, 0, 26, 197, 62, 94, 252, 219, 203, 117, 35, 11, 32,
    57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171, 168, 68, 175,
    74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122,
    60, 211, 133, 230, 220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54,
    65, 25, 63, 161, 1, 216, 80, 73, 209, 76, 132, 187, 208, 89, 18, 169,
    200, 196, 135, 130, 116, 188, 159, 86, 164, 100, 109, 198, 173, 186, 3, 64,
    52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118, 126, 255, 82, 85, 212,
    207, 206, 59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170, 213,
    119, 248, 152, 2, 44, 154, 163, 70, 221, 153, 101, 155, 167, 43, 172, 9,
    129, 22, 39, 253, 19, 98, 108, 110, 79, 113, 224, 232, 178, 185, 112, 104,
    218, 246, 97, 228, 251, 34, 242, 193, 238, 210, 144, 12, 191, 179, 162, 241,
    81, 51, 145, 235, 249, 14, 239, 107, 49, 192, 214, 31, 181, 199, 106, 157,
    184, 84, 204, 176, 115, 121, 50, 45, 127, 4, 150, 254, 138, 236, 205, 93,
    222, 114, 67, 29, 24, 72, 243, 141, 128, 195, 78, 66, 215, 61, 156, 180,
    151, 160, 137, 91, /* padding: the first four again */
}};
#define perlin_permutation perlin_perm.p

/* The seed sequence documented in noise.h. */
static uint32_t next_shuffle_value(uint32_t *state) {
    *state += 0x9E3779B9u;
    uint32_t z = *state;
    z = (z ^ (z >> 16)) * 0x85EBCA6Bu;
    z = (z ^ (z >> 13)) * 0xC2B2AE35u;
    return z ^ (z >> 16);
}

/* r % d for d in 1..256, exactly, without a division: Lemire's fastmod
 * with M = ceil(2^64 / d) gives floor(frac(r * M / 2^64) * d) = r % d for
 * every 32-bit r (Lemire, Kaser, Kurz 2019). */
static inline uint32_t mod_small(uint32_t r, uint64_t m, uint32_t d) {
    uint64_t low = m * r;
#if defined(__SIZEOF_INT128__)
    return (uint32_t)(((unsigned __int128)low * d) >> 64);
#else
    /* high 64 bits of low * d with d < 2^32 */
    uint64_t hi = (low >> 32) * d, lo = (low & 0xFFFFFFFFu) * d;
    return (uint32_t)((hi + (lo >> 32)) >> 32);
#endif
}

static void perm_shuffle(wk_perm *perm, uint32_t seed) {
    for (int i = 0; i < 256; i++) perm->p[i] = perlin_permutation[i];
    if (seed != 0) {
        uint32_t state = seed;
        for (uint32_t i = 255; i >= 1; i--) {
            uint32_t d = i + 1;
            uint32_t j = mod_small(next_shuffle_value(&state), UINT64_MAX / d + 1, d);
            uint8_t t = perm->p[i];
            perm->p[i] = perm->p[j];
            perm->p[j] = t;
        }
    }
    for (int i = 0; i < 4; i++) perm->p[256 + i] = perm->p[i];
}

void wk__perm_init(wk_perm *perm, uint32_t seed) { perm_shuffle(perm, seed); }

#if defined(_MSC_VER)
#define WK_THREAD_LOCAL __declspec(thread)
#else
#define WK_THREAD_LOCAL _Thread_local
#endif

/* Seed 0 is Perlin's table itself; other seeds live in a small per-thread
 * cache, direct mapped by the low bits of the seed, so that a program that
 * generates chunk after chunk with the same fBm shuffles each seed once per
 * thread. Sixteen slots: the octaves of one call (consecutive seeds, at most
 * 16) never evict each other. */
enum { PERM_CACHE = 16 };
typedef struct perm_slot {
    uint32_t seed;
    uint32_t valid;
    wk_perm perm;
} perm_slot;
static WK_THREAD_LOCAL perm_slot perm_cache[PERM_CACHE];

const wk_perm *wk__perm_get(uint32_t seed) {
    if (seed == 0) return &perlin_perm;
    perm_slot *slot = &perm_cache[seed & (PERM_CACHE - 1)];
    if (!slot->valid || slot->seed != seed) {
        perm_shuffle(&slot->perm, seed);
        slot->seed = seed;
        slot->valid = 1;
    }
    return &slot->perm;
}

