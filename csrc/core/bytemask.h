/* Which entries of a byte array equal a value, as a bitset (entry i is bit i&63 of word i>>6).
 * For games that keep one byte per card (a zone, an owner) and need the cards of one zone or
 * one owner fast: 16 entries per SSE2 compare instead of one per loop step. */
#ifndef ES_CORE_BYTEMASK_H
#define ES_CORE_BYTEMASK_H
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* out[0 .. (n+63)/64 - 1] = the set {i < n : a[i] == v}; reads only a[0 .. n-1]. */
static inline void es_bytes_eq_bits(const uint8_t *a, int n, uint8_t v, uint64_t *out) {
    int words = (n + 63) >> 6, i = 0;
    memset(out, 0, sizeof(uint64_t) * (size_t)words);
#if defined(__SSE2__)
    const __m128i key = _mm_set1_epi8((char)v);
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(a + i));
        uint64_t m = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, key));
        out[i >> 6] |= m << (i & 63);   /* i is a multiple of 16: a block never spans two words */
    }
#endif
    for (; i < n; i++) out[i >> 6] |= (uint64_t)(a[i] == v) << (i & 63);
}

#endif
