/* Appending formatted text to a caller's fixed buffer, never overflowing it. */
#ifndef ES_CORE_TEXT_H
#define ES_CORE_TEXT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

typedef struct es_text {
    char *buf;
    size_t cap, len;   /* len may exceed cap: the text needed that much */
} es_text;

static inline es_text es_text_make(char *buf, size_t cap) {
    es_text t = {buf, cap, 0};
    if (cap) buf[0] = 0;
    return t;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline void es_text_add(es_text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->len < t->cap ? t->cap - t->len : 0;
    int n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) t->len += (size_t)n;
}

/* The usual return value: length written, or -3 (ES_ERR_BUFFER) when it did not fit. */
static inline int es_text_result(const es_text *t) { return t->len < t->cap ? (int)t->len : -3; }
#endif
