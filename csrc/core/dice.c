#include "dice.h"

static const uint32_t factorial[ES_DICE_MAX + 1] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};

uint32_t es_dice_weight(const uint8_t counts[6]) {
    uint32_t w = factorial[es_dice_total(counts)];
    for (int f = 0; f < 6; f++) w /= factorial[counts[f]];
    return w;
}

uint32_t es_dice_space(int j) {
    uint32_t v = 1;
    for (int i = 0; i < j; i++) v *= 6;
    return v;
}

/* Odometer over counts with the last face taking the remainder. */
int es_dice_multisets(int j, uint32_t *out) {
    uint8_t c[6] = {0, 0, 0, 0, 0, 0};
    int n = 0;
    c[0] = (uint8_t)j;
    for (;;) {
        out[n++] = es_dice_pack(c);
        /* next composition of j into 6 parts, in colex order */
        int f = 0;
        while (f < 5 && c[f] == 0) f++;
        if (f == 5) break;
        uint8_t take = c[f];
        c[f] = 0;
        c[f + 1]++;
        c[0] = (uint8_t)(take - 1);
    }
    return n;
}
