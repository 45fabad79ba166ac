/* Reading a game's int32 data table, and describing a state struct for reflection. */
#ifndef ES_CORE_TABLE_H
#define ES_CORE_TABLE_H
#include <stddef.h>
#include <stdint.h>

#define ES_NAME_BYTES 24
#define ES_NAME_INTS 6   /* a name is 24 bytes, NUL padded, 4 per int32, low byte first */

static inline void es_read_name(const int32_t *t, char out[ES_NAME_BYTES]) {
    for (int i = 0; i < ES_NAME_INTS; i++)
        for (int b = 0; b < 4; b++) out[4 * i + b] = (char)(((uint32_t)t[i] >> (8 * b)) & 0xFF);
    out[ES_NAME_BYTES - 1] = 0;
}

/* Reflection entries: a scalar, a 1-D array of n, a 2-D array a x b. */
#define ES_FIELD(st, name, type) {#name, offsetof(st, name), type, 1, 0}
#define ES_ARRAY(st, name, type, n) {#name, offsetof(st, name), type, n, 0}
#define ES_ARRAY2(st, name, type, a, b) {#name, offsetof(st, name), type, a, b}
#endif
