/* The random-play loop (es_random_play's contract, eurosearch.h): at a decision es_random_move's
 * draw (the game's random_move, or the list where it has no shortcut), at a chance node
 * sample_chance, then apply.
 *
 * game.c runs it over the es_game_def table's hooks. A game's random_play hook runs it over the
 * game's own static hooks passed as constants (ES_RANDOM_PLAY_HOOK): inlined there, the loop
 * calls them directly, or inlines them, instead of jumping through the table, which is a few
 * percent of a playout where the steps are cheap. tests/test_cffi.py holds every game's random
 * play to the step-by-step loop written out over the ABI. A game whose playouts can skip work
 * (Oh My Goods!: forced moves found from the counts its random moves draw from) writes its own
 * loop instead. */
#ifndef ES_CORE_PLAYLOOP_H
#define ES_CORE_PLAYLOOP_H
#include "eurosearch.h"

static inline __attribute__((always_inline)) int es_play_loop(
    const es_game *g, void *s, es_rng *rng, int64_t max_steps, int64_t max_decisions, int64_t *decisions,
    int64_t *chance, int (*current_player)(const es_game *, const void *),
    es_move (*random_move)(const es_game *, const void *, es_rng *, int *),
    es_move (*sample_chance)(const es_game *, const void *, es_rng *), void (*apply)(const es_game *, void *, es_move)) {
    int64_t dec = 0, ch = 0;
    int rc = ES_OK;
    while (dec + ch < max_steps && dec < max_decisions) {
        int cp = current_player(g, s);
        if (cp == ES_TERMINAL) break;
        es_move m;
        if (cp == ES_CHANCE) {
            m = sample_chance(g, s, rng);
            ch++;
        } else {
            int n;
            m = random_move(g, s, rng, &n);
            if (n < 0) m = es_random_move(g, s, rng, &n);   /* no shortcut at this node: the list */
            if (n <= 0) {
                rc = ES_ERR_LIMIT;
                break;
            }
            dec++;
        }
        apply(g, s, m);
    }
    *decisions += dec;
    *chance += ch;
    return rc;
}

/* Defines `name`, a random_play hook: es_play_loop over the game's static hooks. */
#define ES_RANDOM_PLAY_HOOK(name, current_player, random_move, sample_chance, apply)                                 \
    static int name(const es_game *g, void *s, es_rng *rng, int64_t max_steps, int64_t max_decisions,              \
                    int64_t *decisions, int64_t *chance) {                                                         \
        return es_play_loop(g, s, rng, max_steps, max_decisions, decisions, chance, current_player, random_move,   \
                            sample_chance, apply);                                                                 \
    }

#endif
