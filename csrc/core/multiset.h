/* Draws from a multiset of card types held as counts (a face-down deck nobody has seen). */
#ifndef ES_CORE_MULTISET_H
#define ES_CORE_MULTISET_H
#include <stdint.h>
#include "rng.h"

/* Index of a type drawn with probability counts[t] / total (total = sum of counts > 0). */
static inline int es_multiset_draw(const uint8_t *counts, int ntypes, int total, es_rng *r) {
    int x = (int)es_rng_u32_below(r, (uint32_t)total);
    for (int t = 0; t < ntypes; t++) {
        x -= counts[t];
        if (x < 0) return t;
    }
    return ntypes - 1; /* unreachable when total is the sum */
}

static inline int es_multiset_total(const uint8_t *counts, int ntypes) {
    int total = 0;
    for (int t = 0; t < ntypes; t++) total += counts[t];
    return total;
}
#endif
