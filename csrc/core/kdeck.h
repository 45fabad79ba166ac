/* A face-down deck that players can partly know: in draw order
 *
 *     top (known items)  ++  unknown (a multiset nobody has seen)  ++  bottom (known items)
 *
 * Items are small type ids (< ES_KDECK_TYPES); a deck of distinct cards is a multiset with
 * counts 0/1. Known items were put back by a player ("look at the top k, return them in an
 * order of your choice to the top or the bottom") and carry a mask of the players who know
 * them. A draw takes the first known top item (no chance), else one item of the unknown
 * multiset (a chance node: type t with probability unknown[t] / unknown_n), else the first
 * bottom item. Fixed size, no pointers: it lives inside a game's state struct. */
#ifndef ES_CORE_KDECK_H
#define ES_CORE_KDECK_H
#include <stdint.h>
#include <string.h>
#include "multiset.h"
#include "rng.h"

#define ES_KDECK_MAX 48     /* items in one deck */
#define ES_KDECK_TYPES 48   /* distinct item types */
#define ES_KDECK_HIDDEN 255 /* an item a viewer cannot see (in a redacted view) */

typedef struct es_kdeck {
    uint8_t unknown[ES_KDECK_TYPES];   /* counts per type */
    uint8_t top[ES_KDECK_MAX];         /* known top block, reversed: top[top_n-1] is drawn first */
    uint8_t top_seen[ES_KDECK_MAX];    /* bit p: player p knows that item */
    uint8_t bot[ES_KDECK_MAX];         /* known bottom block in draw order: bot[0] is drawn first */
    uint8_t bot_seen[ES_KDECK_MAX];
    uint8_t unknown_n, top_n, bot_n, reserved;
    uint8_t pad[4];
} es_kdeck;

static inline int es_kdeck_len(const es_kdeck *d) { return d->top_n + d->unknown_n + d->bot_n; }

/* The next draw: 1 = a known item (written to *item, taken off the deck); 0 = a chance node
 * over the unknown multiset (nothing taken; resolve it with es_kdeck_take_unknown);
 * -1 = the deck is empty. */
static inline int es_kdeck_draw(es_kdeck *d, int *item) {
    if (d->top_n) {
        d->top_n--;
        *item = d->top[d->top_n];
        d->top[d->top_n] = 0;
        d->top_seen[d->top_n] = 0;
        return 1;
    }
    if (d->unknown_n) return 0;
    if (d->bot_n) {
        *item = d->bot[0];
        d->bot_n--;
        memmove(d->bot, d->bot + 1, d->bot_n);
        memmove(d->bot_seen, d->bot_seen + 1, d->bot_n);
        d->bot[d->bot_n] = d->bot_seen[d->bot_n] = 0;
        return 1;
    }
    return -1;
}

/* Whether the next draw is a chance node. */
static inline int es_kdeck_chance(const es_kdeck *d) { return !d->top_n && d->unknown_n; }

static inline void es_kdeck_take_unknown(es_kdeck *d, int t) {
    d->unknown[t]--;
    d->unknown_n--;
}

/* A chance outcome of the unknown part, drawn with its exact probability. */
static inline int es_kdeck_sample(const es_kdeck *d, int ntypes, es_rng *r) {
    return es_multiset_draw(d->unknown, ntypes, d->unknown_n, r);
}

/* Put a returned sequence back, r[0] to be drawn first: on top (r[0] becomes the top item) or
 * at the bottom (r[0] directly under the rest of the deck, r[k-1] at the very bottom). */
static inline void es_kdeck_return(es_kdeck *d, const uint8_t *r, int k, int bottom, uint8_t seen) {
    if (bottom) {
        for (int i = 0; i < k; i++) {
            d->bot[d->bot_n] = r[i];
            d->bot_seen[d->bot_n++] = seen;
        }
    } else {
        for (int i = k - 1; i >= 0; i--) {
            d->top[d->top_n] = r[i];
            d->top_seen[d->top_n++] = seen;
        }
    }
}

/* Known items a viewer does not know, added to counts (per type); returns how many. */
static inline int es_kdeck_hidden_counts(const es_kdeck *d, int viewer, uint8_t *counts) {
    int n = 0;
    for (int i = 0; i < d->top_n; i++)
        if (!((d->top_seen[i] >> viewer) & 1)) counts[d->top[i]]++, n++;
    for (int i = 0; i < d->bot_n; i++)
        if (!((d->bot_seen[i] >> viewer) & 1)) counts[d->bot[i]]++, n++;
    return n;
}

/* The deck as `viewer` sees it: known items they do not know become ES_KDECK_HIDDEN and join
 * the unknown counts (so the unknown pool is what the viewer cannot place). */
static inline void es_kdeck_redact(es_kdeck *d, int viewer) {
    d->unknown_n = (uint8_t)(d->unknown_n + es_kdeck_hidden_counts(d, viewer, d->unknown));
    for (int i = 0; i < d->top_n; i++)
        if (!((d->top_seen[i] >> viewer) & 1)) d->top[i] = ES_KDECK_HIDDEN;
    for (int i = 0; i < d->bot_n; i++)
        if (!((d->bot_seen[i] >> viewer) & 1)) d->bot[i] = ES_KDECK_HIDDEN;
}

/* Uniform shuffle of a pool of item types (Fisher-Yates). */
static inline void es_kdeck_shuffle(uint8_t *pool, int n, es_rng *r) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)es_rng_u32_below(r, (uint32_t)(i + 1));
        uint8_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
}

/* Expand counts into a sorted pool of types (a canonical order); returns its size. */
static inline int es_kdeck_pool(const uint8_t *counts, int ntypes, uint8_t *pool) {
    int n = 0;
    for (int t = 0; t < ntypes; t++)
        for (int k = 0; k < counts[t]; k++) pool[n++] = (uint8_t)t;
    return n;
}
#endif
