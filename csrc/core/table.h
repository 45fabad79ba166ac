/* Reading a game's int32 data table, and describing a state struct for reflection. */
#ifndef ES_CORE_TABLE_H
#define ES_CORE_TABLE_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "eurosearch.h"

#define ES_NAME_BYTES 24
#define ES_NAME_INTS 6   /* a name is 24 bytes, NUL padded, 4 per int32, low byte first */

static inline void es_read_name(const int32_t *t, char out[ES_NAME_BYTES]) {
    for (int i = 0; i < ES_NAME_INTS; i++)
        for (int b = 0; b < 4; b++) out[4 * i + b] = (char)(((uint32_t)t[i] >> (8 * b)) & 0xFF);
    out[ES_NAME_BYTES - 1] = 0;
}

/* A failed check in a game's setup(): the message into err, ES_ERR_ARG returned. A message
 * about the data table starts with "<game> data: " and names the data file's entry and field
 * (eurosearch.h, es_game_def.setup). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline int es_setup_error(char *err, size_t errlen, const char *fmt, ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return ES_ERR_ARG;
}

/* Reflection entries: a scalar, a 1-D array of n, a 2-D array a x b; a plain number
 * (ES_K_INT), or with the meaning of its values (es_field_kind, over a name table or NULL). */
#define ES_FIELD(st, name, type) {#name, offsetof(st, name), type, 1, 0, ES_K_INT, NULL}
#define ES_ARRAY(st, name, type, n) {#name, offsetof(st, name), type, n, 0, ES_K_INT, NULL}
#define ES_ARRAY2(st, name, type, a, b) {#name, offsetof(st, name), type, a, b, ES_K_INT, NULL}
#define ES_FIELD_K(st, name, type, kind, names) {#name, offsetof(st, name), type, 1, 0, kind, names}
#define ES_ARRAY_K(st, name, type, n, kind, names) {#name, offsetof(st, name), type, n, 0, kind, names}
#define ES_ARRAY2_K(st, name, type, a, b, kind, names) {#name, offsetof(st, name), type, a, b, kind, names}
/* A name table of the game's data struct dt: `first` is entry 0's name (a char array), entries
 * `stride` bytes apart, n of them (es_name_table). */
#define ES_NAMES(what, dt, first, stride, n) {what, (uint32_t)offsetof(dt, first), (uint32_t)(stride), (uint32_t)(n)}

#endif
