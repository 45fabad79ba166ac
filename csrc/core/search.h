/* Helpers shared by the search modules (MCTS, expectimax): limits, time, and the ways a
 * position's scores or evaluation become a value per player. */
#ifndef ES_CORE_SEARCH_H
#define ES_CORE_SEARCH_H
#include <math.h>
#include <time.h>

#include "eurosearch.h"
#include "stop.h"

#define ES_STACK_MOVES 8192       /* every game's max_moves / max_chance_outcomes fits */
#define ES_MAX_STATE_BYTES 8192   /* scratch states may live on the stack */

static inline double es_now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Win chances from estimated scores: a softmax with `scale` per point (a win-chance proxy). */
static inline void es_softmax_returns(int players, const double *v, double scale, double *out) {
    double top = -1e300, sum = 0;
    for (int p = 0; p < players; p++)
        if (v[p] > top) top = v[p];
    for (int p = 0; p < players; p++) sum += out[p] = exp(scale * (v[p] - top));
    for (int p = 0; p < players; p++) out[p] /= sum;
}

/* Whether a search's learned evaluation (if any) fits the game: ES_OK or ES_ERR_ARG. */
static inline int es_eval_model_check(const es_game *g, const es_mcts_config *cfg) {
    const es_eval_model *m = cfg->eval_model;
    if (!m) return ES_OK;
    return m->weights && m->size == g->def->observation_size(g) && m->size <= ES_EVAL_MAX_FEATURES
               ? ES_OK : ES_ERR_ARG;
}

/* Player p's score minus the best other player's (alone: the score). */
static inline double es_score_margin(int players, const double *v, int p) {
    double best = -1e300;
    for (int q = 0; q < players; q++)
        if (q != p && v[q] > best) best = v[q];
    return players > 1 ? v[p] - best : v[p];
}

/* Each player's score minus the best other player's. */
static inline void es_score_margins(int players, const double *v, double *out) {
    for (int p = 0; p < players; p++) out[p] = es_score_margin(players, v, p);
}
/* es_mcts for a search run on behalf of another thread: `stop` is that thread's watch
 * (es_stop_begin taken there), so Ctrl-C reaches searches on worker threads. */
int es_mcts_watched(const es_game *g, const void *root, int player, const es_mcts_config *cfg,
                    const es_stop *stop, es_move *moves, int64_t *visits, double *values, int cap,
                    es_search_stats *stats);
#endif
