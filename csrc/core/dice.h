/* Pools of identical six-sided dice, held as a multiset: counts[f-1] = dice showing f.
 * A roll of j interchangeable dice is one chance node whose outcomes are the C(j+5,5)
 * multisets, with multinomial weights j!/(c1!...c6!) out of 6^j. */
#ifndef ES_CORE_DICE_H
#define ES_CORE_DICE_H
#include <stdint.h>
#include "rng.h"

#define ES_DICE_MAX 8   /* largest pool rolled at once */

/* 3 bits per face: counts of faces 1..6 in bits 0..17. */
static inline uint32_t es_dice_pack(const uint8_t counts[6]) {
    uint32_t v = 0;
    for (int f = 0; f < 6; f++) v |= (uint32_t)counts[f] << (3 * f);
    return v;
}

static inline void es_dice_unpack(uint32_t v, uint8_t counts[6]) {
    for (int f = 0; f < 6; f++) counts[f] = (uint8_t)((v >> (3 * f)) & 7);
}

static inline int es_dice_total(const uint8_t counts[6]) {
    return counts[0] + counts[1] + counts[2] + counts[3] + counts[4] + counts[5];
}

/* Roll j dice into counts (cleared first). */
static inline void es_dice_roll(es_rng *r, int j, uint8_t counts[6]) {
    for (int f = 0; f < 6; f++) counts[f] = 0;
    for (int i = 0; i < j; i++) counts[es_rng_u32_below(r, 6)]++;
}

/* 1 iff v is one of the packed multisets es_dice_multisets(j) lists: nothing above the 18
 * count bits and the six counts add up to j. Lets a checked apply test a roll outcome without
 * listing C(j+5,5) of them. Exact for j <= 7 (a count of 8 does not fit its 3 bits). */
static inline int es_dice_is_multiset(uint32_t v, int j) {
    if (v >> 18) return 0;
    int total = 0;
    for (int f = 0; f < 6; f++) total += (int)((v >> (3 * f)) & 7);
    return total == j;
}

/* Number of orderings of a multiset: j!/(c1!...c6!). */
uint32_t es_dice_weight(const uint8_t counts[6]);
/* 6^j */
uint32_t es_dice_space(int j);
/* Writes every multiset of j dice (packed) into out, returns how many (C(j+5,5)). */
int es_dice_multisets(int j, uint32_t *out);
#endif
