/* Monte Carlo tree search over the game interface, for every game.
 *
 * UCT with a value per player (max^n backup: each node holds the sum of every player's
 * returns, and a player choosing at a node maximises its own), chance nodes sampled by their
 * probabilities, random playouts to the end run in C.
 *
 * Information-set mode (single-observer IS-MCTS): every iteration starts from a fresh
 * determinization of the root for the searching player, so the search never depends on what
 * that player cannot see. Tree edges are keyed by the move as the searcher sees it
 * (es_game_def.move_view), so an opponent's hidden choices, or cards drawn face down, share
 * one edge; and UCT counts a child's availability (the iterations in which its move was
 * legal) instead of the parent's visits. With a single determinization (the open mode) this
 * is plain UCT.
 *
 * Progressive widening (cfg->widening > 0), for games listing hundreds or thousands of
 * moves: a decision node visited N times may have at most ceil(widening * sqrt(N + 1))
 * children, so the search deepens instead of trying every move once; each new child is the
 * one the game's evaluation likes best among ES_WIDEN_SAMPLE untried moves drawn at random.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcts_tree.h"
#include "stop.h"


int es_mcts(const es_game *g, const void *root, int player, const es_mcts_config *cfg, es_move *moves,
            int64_t *visits, double *values, int cap, es_search_stats *stats) {
    es_stop stop = es_stop_begin();
    return es_mcts_watched(g, root, player, cfg, &stop, moves, visits, values, cap, stats);
}

int es_mcts_watched(const es_game *g, const void *root, int player, const es_mcts_config *cfg,
                    const es_stop *stop, es_move *moves, int64_t *visits, double *values, int cap,
                    es_search_stats *stats) {
    const es_game_def *d = g->def;
    int np = g->players;
    if (!cfg || player < 0 || player >= np || np > ES_SEARCH_MAX_PLAYERS || d->state_size > ES_MAX_STATE_BYTES)
        return ES_ERR_ARG;
    if (d->current_player(g, root) != player) return ES_ERR_PHASE;
    if (cfg->iterations <= 0 && cfg->seconds <= 0) return ES_ERR_ARG;
    if (es_eval_model_check(g, cfg) != ES_OK) return ES_ERR_ARG;

    if (cfg->information_sets == 2) return es_mcts_mo(g, root, player, cfg, stop, moves, visits, values, cap, stats);
    int64_t limit = tree_node_limit(cfg);
    tree t;
    int64_t path_cap = 4096;
    int32_t *path = (int32_t *)malloc((size_t)path_cap * sizeof(int32_t));
    if (!tree_open(&t, limit) || !path) {
        tree_close(&t);
        free(path);
        return ES_ERR_LIMIT;
    }

    uint64_t state_buf[ES_MAX_STATE_BYTES / 8], scratch_buf[ES_MAX_STATE_BYTES / 8];
    void *s = state_buf, *scratch = scratch_buf;
    int widen = cfg->widening > 0;
    es_move legal[ES_STACK_MOVES], untried[ES_STACK_MOVES], same[ES_STACK_MOVES];
    double returns[ES_SEARCH_MAX_PLAYERS];
    es_rng rng;
    es_rng_seed(&rng, cfg->seed);
    double start = es_now_seconds(), elapsed = 0;
    double c = cfg->exploration;
    int64_t it = 0;
    int interrupted = 0;

    for (;; it++) {
        if (search_over(cfg, stop, it, start, &elapsed, &interrupted)) break;
        uint32_t stamp = (uint32_t)(it + 1);
        memcpy(s, root, d->state_size);
        if (cfg->information_sets) d->determinize(g, s, player, &rng);

        int64_t depth = 0;
        int32_t node = 0;
        path[depth++] = 0;
        int expanded = 0;
        for (;;) {
            int cp = d->current_player(g, s);
            if (cp == ES_TERMINAL) break;
            es_move m;
            int32_t next;
            if (cp == ES_CHANCE) {
                m = d->sample_chance(g, s, &rng);
                es_move key = view_of(g, s, m, player, cfg->information_sets);
                next = find_child(&t, node, key);
                if (next < 0 && !expanded) {
                    next = add_node(&t, node, key);
                    expanded = 1;
                }
            } else if (!cfg->information_sets && !widen && t.nodes[node].moves &&
                       t.nodes[node].kids >= t.nodes[node].moves) {
                /* open mode, every move tried: the node's state is the same on every visit,
                 * so UCT needs no list (the branch below would come to the same child) */
                next = uct_child(&t, node, cp, c, 0, 0);
                m = t.nodes[next].key;
            } else {
                int n = d->legal_moves(g, s, legal);
                if (n <= 0) break;
                if (!cfg->information_sets) t.nodes[node].moves = (uint32_t)n;
                uint32_t room = widen ? widen_limit(cfg->widening, t.nodes[node].visits) : UINT32_MAX;
                if (!cfg->information_sets) {
                    int kids = (int)t.nodes[node].kids, n_new = 0;
                    if (kids < n && kids < (int64_t)room && widen) {   /* the untried moves, then the best of a sample */
                        for (int i = 0; i < n; i++)
                            if (find_child(&t, node, legal[i]) < 0) untried[n_new++] = legal[i];
                        if (n_new) m = most_promising(g, s, untried, n_new, cp, &rng, scratch);
                    }
                    if (n_new || (kids < n && !widen && pick_untried(&t, node, legal, n, &rng, untried, &m))) {
                        next = add_node(&t, node, m);
                        expanded = 1;
                    } else {
                        next = uct_child(&t, node, cp, c, 0, 0);   /* kids >= 1: never -1 */
                        m = t.nodes[next].key;
                    }
                } else {
                    /* which children are available now; which moves have no child yet */
                    int n_untried = 0, n_avail = 0;
                    for (int i = 0; i < n; i++) {
                        es_move key = view_of(g, s, legal[i], player, cfg->information_sets);
                        int32_t ch = find_child(&t, node, key);
                        if (ch < 0) {
                            untried[n_untried++] = legal[i];
                        } else if (t.nodes[ch].stamp != stamp) {
                            t.nodes[ch].stamp = stamp;
                            t.nodes[ch].avail++;
                            n_avail++;
                        }
                    }
                    /* widening: no new child while the available ones fill the node's room */
                    if (n_untried && !expanded && (!widen || n_avail == 0 || (uint32_t)n_avail < room)) {
                        m = widen ? most_promising(g, s, untried, n_untried, cp, &rng, scratch)
                                  : untried[es_rng_u32_below(&rng, (uint32_t)n_untried)];
                        next = add_node(&t, node, view_of(g, s, m, player, cfg->information_sets));
                        if (next >= 0) {
                            t.nodes[next].stamp = stamp;
                            t.nodes[next].avail = 1;
                        }
                        expanded = 1;
                    } else {
                        next = uct_child(&t, node, cp, c, 1, stamp);
                        if (next < 0) { /* a full tree and an unseen move: play on without the tree */
                            m = legal[es_rng_u32_below(&rng, (uint32_t)n)];
                        } else {
                            /* the moves behind this edge: the searcher cannot tell them apart */
                            int k = 0;
                            for (int i = 0; i < n; i++)
                                if (view_of(g, s, legal[i], player, cfg->information_sets) == t.nodes[next].key) same[k++] = legal[i];
                            m = same[k > 1 ? es_rng_u32_below(&rng, (uint32_t)k) : 0];
                        }
                    }
                }
            }
            d->apply(g, s, m);
            if (next < 0) break;   /* off the tree: the rollout starts here */
            node = next;
            if (depth == path_cap) {
                path_cap *= 2;
                int32_t *grown = (int32_t *)realloc(path, (size_t)path_cap * sizeof(int32_t));
                if (!grown) break;
                path = grown;
            }
            path[depth++] = node;
            if (expanded) break;
        }
        if (!playout(g, cfg, s, &rng, returns)) continue;   /* a playout that never ended */
        for (int64_t i = 0; i < depth; i++) {
            mnode *x = &t.nodes[path[i]];
            x->visits++;
            for (int p = 0; p < np; p++) x->value[p] += (float)returns[p];
        }
    }
    if (stats) {
        stats->iterations = it;
        stats->nodes = t.n;
        stats->seconds = es_now_seconds() - start;
        stats->bytes = tree_bytes(&t);
    }
    int count = 0;
    for (int32_t ch = t.nodes[0].child; ch >= 0 && count < cap; ch = t.nodes[ch].sibling) {
        moves[count] = t.nodes[ch].key;
        visits[count] = t.nodes[ch].visits;
        values[count] = t.nodes[ch].visits ? t.nodes[ch].value[player] / t.nodes[ch].visits : 0.0;
        count++;
    }
    tree_close(&t);
    free(path);
    return interrupted ? ES_ERR_INTERRUPTED : count;
}
