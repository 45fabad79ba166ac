/* Hashing of state blobs (word-wise multiply-xorshift). States are multiples of 8 bytes. */
#ifndef ES_CORE_HASH_H
#define ES_CORE_HASH_H
#include <stdint.h>
#include <string.h>
#include <stddef.h>

static inline uint64_t es_rotl_hash(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t es_mix64(uint64_t z) {
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDull;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ull;
    return z ^ (z >> 33);
}

static inline uint64_t es_hash_bytes(const void *p, size_t n, uint64_t seed) {
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(n + 1));
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = es_rotl_hash(h ^ es_mix64(w + i), 27) * 0x9E3779B97F4A7C15ull;
    }
    uint64_t tail = 0;
    memcpy(&tail, b + i, n - i);
    return es_mix64(h ^ es_mix64(tail ^ 0xA5A5A5A5ull));
}
#endif
