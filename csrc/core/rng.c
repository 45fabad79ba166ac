#include "rng.h"

void es_rng_seed(es_rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = es_splitmix64(&x);
}

uint64_t es_rng_next(es_rng *r) { return es_rng_u64(r); }

uint32_t es_rng_below(es_rng *r, uint32_t n) { return n ? es_rng_u32_below(r, n) : 0; }
