/* The lookup table behind es_bits64_select (bitset.h). */
#include "bitset.h"

uint8_t es_select_in_byte[8][256];

/* Filled once when the library is loaded, before any game can run. */
__attribute__((constructor)) static void es_select_in_byte_init(void) {
    for (int b = 0; b < 256; b++)
        for (int i = 0, k = 0; i < 8; i++)
            if ((b >> i) & 1) es_select_in_byte[k++][b] = (uint8_t)i;
}
