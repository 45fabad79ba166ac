/* The dense action space: move ids <-> 0 .. N-1 from a game's declared move kinds
 * (es_game_def.move_kinds), with no per-game code. */
#include <string.h>

#include "eurosearch.h"

static int64_t kind_size(const es_move_kind *k) {
    int bits = 0;
    for (int i = 0; i < k->n_params; i++) bits += k->params[i].bits;
    return (int64_t)1 << bits;
}

int64_t es_num_actions(const es_game *g) {
    const es_game_def *d = g->def;
    if (!d->move_kinds || d->n_move_kinds <= 0) return ES_ERR_ARG;
    int64_t n = 0;
    for (int i = 0; i < d->n_move_kinds; i++) n += kind_size(&d->move_kinds[i]);
    return n;
}

int64_t es_move_to_action(const es_game *g, es_move m) {
    const es_game_def *d = g->def;
    if (!d->move_kinds || m < 0) return ES_ERR_ARG;
    uint32_t u = (uint32_t)m;
    int32_t type = (int32_t)(u & ((1u << d->move_type_bits) - 1));
    int64_t base = 0;
    for (int i = 0; i < d->n_move_kinds; i++) {
        const es_move_kind *k = &d->move_kinds[i];
        if (k->type != type) {
            base += kind_size(k);
            continue;
        }
        uint32_t covered = (1u << d->move_type_bits) - 1;
        int64_t a = 0, radix = 1;
        for (int j = 0; j < k->n_params; j++) {
            uint32_t mask = (1u << k->params[j].bits) - 1;
            a += radix * (int64_t)((u >> k->params[j].shift) & mask);
            radix <<= k->params[j].bits;
            covered |= mask << k->params[j].shift;
        }
        if (u & ~covered) return ES_ERR_ARG;   /* stray bits: not a move of this kind */
        return base + a;
    }
    return ES_ERR_ARG;
}

es_move es_action_to_move(const es_game *g, int64_t a) {
    const es_game_def *d = g->def;
    if (!d->move_kinds || a < 0) return ES_ERR_ARG;
    for (int i = 0; i < d->n_move_kinds; i++) {
        const es_move_kind *k = &d->move_kinds[i];
        int64_t size = kind_size(k);
        if (a >= size) {
            a -= size;
            continue;
        }
        uint32_t m = (uint32_t)k->type;
        for (int j = 0; j < k->n_params; j++) {
            m |= (uint32_t)(a & ((1 << k->params[j].bits) - 1)) << k->params[j].shift;
            a >>= k->params[j].bits;
        }
        return (es_move)m;
    }
    return ES_ERR_ARG;
}

int es_legal_actions_mask(const es_game *g, const void *s, uint8_t *mask) {
    int64_t n = es_num_actions(g);
    if (n < 0) return ES_ERR_ARG;
    memset(mask, 0, (size_t)n);
    es_move moves[g->def->max_moves > 0 ? g->def->max_moves : 1];
    int count = es_legal_moves(g, s, moves);
    for (int i = 0; i < count; i++) {
        int64_t a = es_move_to_action(g, moves[i]);
        if (a < 0) return ES_ERR_ARG;
        mask[a] = 1;
    }
    return ES_OK;
}

int es_observation_layout(const es_game *g, es_obs_slice *out, int cap) {
    if (!g->def->observation_layout) return ES_ERR_ARG;
    return g->def->observation_layout(g, out, cap);
}
