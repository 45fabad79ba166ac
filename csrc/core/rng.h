/* Inline RNG for hot loops: xoshiro256** seeded by splitmix64. Every game uses this one. */
#ifndef ES_CORE_RNG_H
#define ES_CORE_RNG_H
#include "eurosearch.h"

static inline uint64_t es_rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t es_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t es_rng_u64(es_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = es_rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = es_rotl64(s[3], 45);
    return result;
}

/* Lemire's multiply-shift with rejection: exactly uniform in [0, n). */
static inline uint32_t es_rng_u32_below(es_rng *r, uint32_t n) {
    uint64_t m = (uint64_t)(uint32_t)(es_rng_u64(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(es_rng_u64(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Uniform in [0, 1), 53 random bits. */
static inline double es_rng_unit(es_rng *r) { return (double)(es_rng_u64(r) >> 11) * 0x1.0p-53; }
#endif
