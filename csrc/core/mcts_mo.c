/* Multiple-observer information-set MCTS (es_mcts_config.information_sets == 2).
 *
 * Single-observer IS-MCTS (mcts.c) keys its one tree by what the searcher sees, so where an
 * opponent chooses something the searcher cannot see (a card laid face down, a secret
 * commitment) all of the opponent's options share one edge and the opponent is modelled as
 * choosing among them at random. Here every player has a tree keyed by what that player sees
 * (es_game_def.move_view); all trees descend together along the same determinized game, and
 * at each decision the player to move chooses by UCT in its own tree, over the moves as it
 * sees them. An opponent's hidden choices are then made as well as its tree can, from what
 * it knows, and the searcher still learns nothing it cannot see: its tree's edges are keyed
 * by its own view. Every iteration starts from a fresh determinization for the searcher, as
 * in the single-observer mode. (The method: Cowling, Powley and Whitehouse, "Information Set
 * Monte Carlo Tree Search", IEEE TCIAIG 2012.)
 *
 * The node bound max_nodes is shared: each tree may hold max_nodes / players nodes. A descent
 * stops after the step at which any tree gains a node, or when a tree is full.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcts_tree.h"
#include "stop.h"

/* The decision of player cp at its node in its own tree t: an untried move (as cp sees
 * moves) while there is one and room for it, else UCT over the children available now.
 * Marks availability in t. *fresh: the chosen move has no child in t yet. */
static es_move choose(const es_game *g, const es_mcts_config *cfg, tree *t, int32_t node, const void *s, int cp,
                      const es_move *legal, int n, uint32_t stamp, es_rng *rng, es_move *untried, es_move *same,
                      void *scratch) {
    int n_untried = 0, n_avail = 0;
    for (int i = 0; i < n; i++) {
        int32_t ch = find_child(t, node, view_of(g, s, legal[i], cp, 1));
        if (ch < 0) {
            untried[n_untried++] = legal[i];
        } else if (t->nodes[ch].stamp != stamp) {
            t->nodes[ch].stamp = stamp;
            t->nodes[ch].avail++;
            n_avail++;
        }
    }
    int widen = cfg->widening > 0;
    uint32_t room = widen ? widen_limit(cfg->widening, t->nodes[node].visits) : UINT32_MAX;
    if (n_untried && (!widen || n_avail == 0 || (uint32_t)n_avail < room))
        return widen ? most_promising(g, s, untried, n_untried, cp, rng, scratch)
                     : untried[es_rng_u32_below(rng, (uint32_t)n_untried)];
    int32_t next = uct_child(t, node, cp, cfg->exploration, 1, stamp);
    if (next < 0) return legal[es_rng_u32_below(rng, (uint32_t)n)];   /* a full tree */
    int k = 0;   /* the moves behind the edge (cp cannot tell them apart): one at random */
    for (int i = 0; i < n; i++)
        if (view_of(g, s, legal[i], cp, 1) == t->nodes[next].key) same[k++] = legal[i];
    return same[k > 1 ? es_rng_u32_below(rng, (uint32_t)k) : 0];
}

int es_mcts_mo(const es_game *g, const void *root, int player, const es_mcts_config *cfg, const es_stop *stop,
               es_move *moves, int64_t *visits, double *values, int cap, es_search_stats *stats) {
    const es_game_def *d = g->def;
    int np = g->players;
    int64_t per_tree = tree_node_limit(cfg) / np;
    if (per_tree < 1) per_tree = 1;
    tree t[ES_SEARCH_MAX_PLAYERS];
    int ok = 1;
    for (int q = 0; q < np; q++) ok &= tree_open(&t[q], per_tree);
    int64_t path_cap = 4096;   /* path[depth * np + q]: tree q's node at that depth */
    int32_t *path = (int32_t *)malloc((size_t)(path_cap * np) * sizeof(int32_t));
    if (!ok || !path) {
        for (int q = 0; q < np; q++) tree_close(&t[q]);
        free(path);
        return ES_ERR_LIMIT;
    }

    uint64_t state_buf[ES_MAX_STATE_BYTES / 8], scratch_buf[ES_MAX_STATE_BYTES / 8];
    void *s = state_buf, *scratch = scratch_buf;
    es_move legal[ES_STACK_MOVES], untried[ES_STACK_MOVES], same[ES_STACK_MOVES];
    int32_t node[ES_SEARCH_MAX_PLAYERS], next[ES_SEARCH_MAX_PLAYERS];
    double returns[ES_SEARCH_MAX_PLAYERS];
    es_rng rng;
    es_rng_seed(&rng, cfg->seed);
    double start = es_now_seconds(), elapsed = 0;
    int64_t it = 0;
    int interrupted = 0;

    for (;; it++) {
        if (search_over(cfg, stop, it, start, &elapsed, &interrupted)) break;
        uint32_t stamp = (uint32_t)(it + 1);
        memcpy(s, root, d->state_size);
        d->determinize(g, s, player, &rng);

        int64_t depth = 1;
        for (int q = 0; q < np; q++) path[q] = node[q] = 0;
        for (;;) {
            int cp = d->current_player(g, s);
            if (cp == ES_TERMINAL) break;
            es_move m;
            if (cp == ES_CHANCE) {
                m = d->sample_chance(g, s, &rng);
            } else {
                int n = d->legal_moves(g, s, legal);
                if (n <= 0) break;
                m = choose(g, cfg, &t[cp], node[cp], s, cp, legal, n, stamp, &rng, untried, same, scratch);
            }
            /* every tree follows the move as its player sees it */
            int grown = 0, full = 0;
            for (int q = 0; q < np; q++) {
                es_move key = view_of(g, s, m, q, 1);
                int32_t ch = find_child(&t[q], node[q], key);
                if (ch < 0 && (ch = add_node(&t[q], node[q], key)) >= 0) {
                    grown = 1;
                    t[q].nodes[ch].stamp = stamp;
                    t[q].nodes[ch].avail = 1;
                }
                full |= ch < 0;
                next[q] = ch;
            }
            d->apply(g, s, m);
            if (full) break;   /* a full tree: the rollout starts here */
            if (depth == path_cap) {
                int32_t *longer = (int32_t *)realloc(path, (size_t)(2 * path_cap * np) * sizeof(int32_t));
                if (!longer) break;
                path = longer;
                path_cap *= 2;
            }
            for (int q = 0; q < np; q++) path[depth * np + q] = node[q] = next[q];
            depth++;
            if (grown) break;
        }
        if (!playout(g, cfg, s, &rng, returns)) continue;   /* a playout that never ended */
        for (int64_t i = 0; i < depth; i++)
            for (int q = 0; q < np; q++) {
                mnode *x = &t[q].nodes[path[i * np + q]];
                x->visits++;
                for (int p = 0; p < np; p++) x->value[p] += (float)returns[p];
            }
    }
    if (stats) {
        stats->iterations = it;
        stats->nodes = 0;
        stats->bytes = 0;
        for (int q = 0; q < np; q++) {
            stats->nodes += t[q].n;
            stats->bytes += tree_bytes(&t[q]);
        }
        stats->seconds = es_now_seconds() - start;
    }
    int count = 0;
    const tree *mine = &t[player];
    for (int32_t ch = mine->nodes[0].child; ch >= 0 && count < cap; ch = mine->nodes[ch].sibling) {
        moves[count] = mine->nodes[ch].key;
        visits[count] = mine->nodes[ch].visits;
        values[count] = mine->nodes[ch].visits ? mine->nodes[ch].value[player] / mine->nodes[ch].visits : 0.0;
        count++;
    }
    for (int q = 0; q < np; q++) tree_close(&t[q]);
    free(path);
    return interrupted ? ES_ERR_INTERRUPTED : count;
}
