/* Helpers for a game's is_legal hook (es_game_def.is_legal, issue 19): answer "is m in the
 * list here" by listing only a small part of it, or by decoding m. */
#ifndef ES_CORE_LEGAL_H
#define ES_CORE_LEGAL_H
#include "eurosearch.h"

/* Whether m is among moves[0..n): for a node whose whole list is short, or for the few moves
 * of one kind, card or target that a hook lists instead of all of them. */
static inline int es_moves_have(const es_move *moves, int n, es_move m) {
    for (int i = 0; i < n; i++)
        if (moves[i] == m) return 1;
    return 0;
}
#endif
