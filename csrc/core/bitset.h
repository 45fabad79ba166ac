/* Sets of up to 128 cards as two 64-bit words (card c is bit c&63 of word c>>6). */
#ifndef ES_CORE_BITSET_H
#define ES_CORE_BITSET_H
#include <stdint.h>
#include <string.h>

/* for each member c of a set of `words` 64-bit words, in increasing order; a word is read when
 * its turn comes, so the body may change members already visited. */
#define ES_BITS_FOREACH(c, set, words) \
    for (int w_ = 0; w_ < (words); w_++) \
        for (uint64_t x_ = (set)[w_]; x_; x_ &= x_ - 1) \
            for (int c = (w_ << 6) + __builtin_ctzll(x_), once_ = 1; once_; once_ = 0)

static inline void es_bits128_set(uint64_t *b, int c) { b[c >> 6] |= 1ull << (c & 63); }
static inline void es_bits128_clear(uint64_t *b, int c) { b[c >> 6] &= ~(1ull << (c & 63)); }
static inline int es_bits128_test(const uint64_t *b, int c) { return (int)((b[c >> 6] >> (c & 63)) & 1); }
static inline int es_bits128_any(const uint64_t *b) { return (b[0] | b[1]) != 0; }
static inline int es_bits128_count(const uint64_t *b) {
    return __builtin_popcountll(b[0]) + __builtin_popcountll(b[1]);
}
static inline int es_bits128_count_and(const uint64_t *a, const uint64_t *b) {
    return __builtin_popcountll(a[0] & b[0]) + __builtin_popcountll(a[1] & b[1]);
}
/* Highest member, or -1 for the empty set. */
static inline int es_bits128_highest(const uint64_t *b) {
    if (b[1]) return 127 - __builtin_clzll(b[1]);
    if (b[0]) return 63 - __builtin_clzll(b[0]);
    return -1;
}
/* 8 bytes as a little-endian word: byte i at bits 8i..8i+7, whatever the machine's order. */
static inline uint64_t es_load_le64(const uint8_t *b) {
    uint64_t x;
    memcpy(&x, b, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    return x;
}

/* One bit per byte of x (bit i for byte i): whether the byte is at least `at_least`, for bytes
 * below 128 and at_least <= 128. Adding 128 - at_least never carries into the next byte and
 * sets a byte's top bit exactly when the byte is at least at_least; the multiply gathers the
 * 8 top bits into the top byte. No branch per byte. */
/* Bit i: the top bit of byte i of x (the multiply gathers the eight top bits into the top byte). */
static inline uint32_t es_byte_tops(uint64_t x) {
    return (uint32_t)((((x & 0x8080808080808080ull) >> 7) * 0x0102040810204080ull) >> 56);
}

static inline uint32_t es_bytes_at_least(uint64_t x, unsigned at_least) {
    return es_byte_tops(x + 0x0101010101010101ull * (uint64_t)(128 - at_least));
}

/* Bit i: byte i of x equals v (any bytes): a byte of x ^ v is zero exactly there, and a zero
 * byte, alone, keeps its top bit clear in ((y & 0x7f..) + 0x7f..) | y. */
static inline uint32_t es_bytes_equal(uint64_t x, uint8_t v) {
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t y = x ^ (0x0101010101010101ull * v);
    return es_byte_tops(~(((y & low7) + low7) | y));
}

/* The set of i < n (n <= 32) with bytes[i] < limit (bytes below 128, limit <= 128). */
static inline uint32_t es_bytes_below(const uint8_t *bytes, int n, unsigned limit) {
    uint8_t padded[32] = {0};
    memcpy(padded, bytes, (size_t)n);
    uint32_t set = 0;
    for (int i = 0; i < n; i += 8) set |= (~es_bytes_at_least(es_load_le64(padded + i), limit) & 0xFFu) << i;
    return n < 32 ? set & ((1u << n) - 1) : set;
}

/* es_select_in_byte[k][b]: the position of the k-th set bit of byte b (bitset.c fills it
 * when the library loads). */
extern uint8_t es_select_in_byte[8][256];
/* On x86-64, es_bits64_select uses BMI2's pdep instruction when es_cpu_fast_pdep is set:
 * bitset.c sets it when the library loads, if the CPU has BMI2 and runs pdep in hardware
 * (Intel since Haswell, AMD since Zen 3; Zen 1 and 2 microcode it, many times slower), unless
 * the environment variable EUROSEARCH_PORTABLE is set. The instruction is written in inline
 * assembly, so that the library itself is built for every x86-64 CPU. */
#if defined(__x86_64__) && defined(__GNUC__)
#define ES_PDEP 1
extern int es_cpu_fast_pdep;
#else
#define ES_PDEP 0
#endif
/* The k-th set bit of x (0-based; k < popcount(x)), without branches (k is random in
 * playouts, so branches would be mispredicted): the running bit counts of x's bytes, one per
 * byte, tell by one compare of all eight which byte holds the bit; a lookup finds it there.
 * Byte i of `sums` counts the bits of bytes 0..i (at most 64, so no byte overflows). */
static inline int es_bits64_select(uint64_t x, int k) {
#if ES_PDEP
    /* BMI2's pdep puts bit k of the mask 1 << k on the k-th set bit of x, in one instruction;
     * used only where the CPU runs it fast (es_cpu_fast_pdep). The same result either way. */
    if (es_cpu_fast_pdep) {
        uint64_t one = 1ull << k, bit;
        __asm__("pdep %2, %1, %0" : "=r"(bit) : "r"(one), "rm"(x));
        return __builtin_ctzll(bit);
    }
#endif
    const uint64_t ones = 0x0101010101010101ull, tops = 0x8080808080808080ull;
    uint64_t sums = x - ((x >> 1) & 0x5555555555555555ull);
    sums = (sums & 0x3333333333333333ull) + ((sums >> 2) & 0x3333333333333333ull);
    sums = ((sums + (sums >> 4)) & 0x0f0f0f0f0f0f0f0full) * ones;
    /* the top bit of byte i: sums byte i <= k (k + 128 - sum never borrows from the next byte);
     * those bytes come first, so their number is the byte of the bit */
    int shift = 8 * __builtin_popcountll((((uint64_t)k * ones | tops) - sums) & tops);
    int before = (int)((sums << 8) >> shift & 0xff);   /* bits in the bytes below it */
    return shift + es_select_in_byte[k - before][(x >> shift) & 0xff];
}
/* The k-th member in increasing order (0-based; k < count); the word is picked by a mask, not
 * a branch, for the same reason. */
static inline int es_bits128_select(const uint64_t *b, int k) {
    int low = __builtin_popcountll(b[0]), up = -(k >= low);
    uint64_t word = b[0] ^ ((b[0] ^ b[1]) & (uint64_t)(int64_t)up);
    return (64 & up) + es_bits64_select(word, k - (low & up));
}
/* The members of b greater than c (all of b for c < 0). */
static inline void es_bits128_above(const uint64_t *b, int c, uint64_t *out) {
    out[0] = c < 0 ? b[0] : c >= 63 ? 0 : b[0] & ~((2ull << c) - 1);
    out[1] = c < 64 ? b[1] : c >= 127 ? 0 : b[1] & ~((2ull << (c - 64)) - 1);
}

/* Members in increasing order into out; returns how many. */
static inline int es_bits128_list(const uint64_t *b, int *out) {
    int n = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t x = b[w]; x; x &= x - 1) out[n++] = (w << 6) + __builtin_ctzll(x);
    return n;
}
#endif
