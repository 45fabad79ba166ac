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
#include <time.h>

#include "eurosearch.h"
#include "rng.h"
#include "search.h"
#include "stop.h"

#define DEFAULT_MAX_NODES (4 << 20)

typedef struct mnode {
    es_move key;              /* the move into this node, as the searcher sees it */
    int32_t parent;           /* -1 at the root */
    int32_t child, sibling;   /* first child, next sibling (-1: none) */
    uint32_t visits, avail;
    uint32_t stamp;           /* iteration in which this child was last available */
    uint32_t kids;            /* number of children */
    float value[ES_SEARCH_MAX_PLAYERS];   /* sum of each player's returns */
} mnode;

typedef struct tree {
    mnode *nodes;
    int64_t n, cap, limit;
    /* (parent, key) -> child, open addressing; slots hold child ids, -1 = empty */
    int32_t *index;
    int64_t index_cap;   /* a power of two, at least twice the nodes */
} tree;

static inline uint64_t edge_hash(int32_t parent, es_move key) {
    uint64_t z = ((uint64_t)(uint32_t)parent << 32 | (uint32_t)key) * 0x9E3779B97F4A7C15ull;
    return z ^ (z >> 29);
}


static void index_insert(tree *t, int32_t id) {
    const mnode *m = &t->nodes[id];
    uint64_t mask = (uint64_t)t->index_cap - 1, i = edge_hash(m->parent, m->key) & mask;
    while (t->index[i] >= 0) i = (i + 1) & mask;
    t->index[i] = id;
}

static int grow_index(tree *t) {
    int64_t cap = t->index_cap * 2;
    int32_t *fresh = (int32_t *)malloc((size_t)cap * sizeof(int32_t));
    if (!fresh) return 0;
    free(t->index);
    t->index = fresh;
    t->index_cap = cap;
    memset(t->index, -1, (size_t)cap * sizeof(int32_t));
    for (int32_t id = 1; id < t->n; id++) index_insert(t, id);
    return 1;
}

/* A new child of `parent` (or the root when parent < 0); -1 when the tree is full. */
static int32_t add_node(tree *t, int32_t parent, es_move key) {
    if (t->n >= t->limit) return -1;
    if (t->n == t->cap) {
        int64_t cap = t->cap * 2 < t->limit ? t->cap * 2 : t->limit;   /* max_nodes bounds the memory */
        mnode *grown = (mnode *)realloc(t->nodes, (size_t)cap * sizeof(mnode));
        if (!grown) return -1;
        t->nodes = grown;
        t->cap = cap;
    }
    if (2 * (t->n + 1) > t->index_cap && !grow_index(t)) return -1;
    int32_t id = (int32_t)t->n++;
    mnode *m = &t->nodes[id];
    memset(m, 0, sizeof *m);
    m->key = key;
    m->parent = parent;
    m->child = -1;
    m->sibling = -1;
    if (parent >= 0) {
        m->sibling = t->nodes[parent].child;
        t->nodes[parent].child = id;
        t->nodes[parent].kids++;
        index_insert(t, id);
    }
    return id;
}

static int32_t find_child(const tree *t, int32_t parent, es_move key) {
    uint64_t mask = (uint64_t)t->index_cap - 1, i = edge_hash(parent, key) & mask;
    for (int32_t id; (id = t->index[i]) >= 0; i = (i + 1) & mask)
        if (t->nodes[id].parent == parent && t->nodes[id].key == key) return id;
    return -1;
}

/* Open mode: a node stands for one state (chance children are keyed by their outcome), so
 * its legal moves are the same list on every visit and a child count tells whether any are
 * untried. One of them, uniformly: by rejection while few are left to find, else by a scan. */
static int pick_untried(const tree *t, int32_t node, const es_move *legal, int n, es_rng *rng,
                        es_move *scratch, es_move *out) {
    for (int tries = 0; tries < 8; tries++) {
        es_move m = legal[es_rng_u32_below(rng, (uint32_t)n)];
        if (find_child(t, node, m) < 0) return *out = m, 1;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (find_child(t, node, legal[i]) < 0) scratch[k++] = legal[i];
    if (!k) return 0;   /* a game listing a move twice: every distinct move has its child */
    *out = scratch[es_rng_u32_below(rng, (uint32_t)k)];
    return 1;
}

/* How many children a decision node visited `visits` times may have (widening > 0). */
static inline uint32_t widen_limit(double widening, uint32_t visits) {
    return (uint32_t)ceil(widening * sqrt((double)visits + 1.0));
}

/* How good move m looks for cp: the evaluation (or the returns at the end) after it, as cp's
 * estimate minus the best other player's. */
static double move_promise(const es_game *g, const void *s, es_move m, int cp, void *scratch) {
    double v[ES_SEARCH_MAX_PLAYERS];
    memcpy(scratch, s, g->def->state_size);
    g->def->apply(g, scratch, m);
    if (g->def->current_player(g, scratch) == ES_TERMINAL) g->def->returns(g, scratch, v);
    else es_evaluate(g, scratch, v);
    return es_score_margin(g->players, v, cp);
}

/* Widening's new child: the most promising of up to ES_WIDEN_SAMPLE of the `n` candidates
 * (moves without a child), drawn without replacement; candidates is reordered. */
static es_move most_promising(const es_game *g, const void *s, es_move *candidates, int n, int cp,
                              es_rng *rng, void *scratch) {
    int k = n < ES_WIDEN_SAMPLE ? n : ES_WIDEN_SAMPLE;
    es_move best = candidates[0];
    double best_v = -1e300;
    for (int i = 0; i < k; i++) {
        int j = i + (int)es_rng_u32_below(rng, (uint32_t)(n - i));
        es_move m = candidates[j];
        candidates[j] = candidates[i];
        candidates[i] = m;
        double v = move_promise(g, s, m, cp, scratch);
        if (v > best_v) best_v = v, best = m;
    }
    return best;
}

/* UCT over the children of node for player cp. Information-set mode: only the children
 * available in this iteration (stamp), each explored by its availability count; the open
 * mode: every child, by the parent's visits. -1 when no child qualifies. */
static int32_t uct_child(const tree *t, int32_t node, int cp, double c, int info_sets, uint32_t stamp) {
    const mnode *here = &t->nodes[node];
    double best = -1e300, log_n = log((double)(here->visits > 0 ? here->visits : 1));
    int32_t next = -1;
    for (int32_t ch = here->child; ch >= 0; ch = t->nodes[ch].sibling) {
        const mnode *x = &t->nodes[ch];
        if (info_sets && x->stamp != stamp) continue;
        double explore = info_sets ? log((double)x->avail) : log_n;
        double u = x->visits == 0 ? 1e100 : x->value[cp] / x->visits + c * sqrt(explore / x->visits);
        if (u > best) {
            best = u;
            next = ch;
        }
    }
    return next;
}

/* In information-set mode an edge is what the searcher sees of the move; in the open mode
 * the move itself. */
static inline es_move view_of(const es_game *g, const void *s, es_move m, int viewer, int info_sets) {
    return info_sets && g->def->move_view ? g->def->move_view(g, s, m, viewer) : m;
}

/* Returns from an evaluation: a softmax over the estimated scores (a win-chance proxy). */
static void evaluation_returns(const es_game *g, const void *s, double scale, double *returns) {
    double v[ES_SEARCH_MAX_PLAYERS];
    es_evaluate(g, s, v);
    es_softmax_returns(g->players, v, scale, returns);
}

/* From the leaf: a playout (random or greedy, to the end or to a depth) or the evaluation.
 * 0 when a playout hit the step limit. */
static int playout(const es_game *g, const es_mcts_config *cfg, void *s, es_rng *rng, double *returns) {
    const es_game_def *d = g->def;
    double scale = cfg->eval_scale > 0 ? cfg->eval_scale : 0.5;
    int depth = cfg->rollout_depth < 0 ? 0 : cfg->rollout_depth;
    if (cfg->rollout_depth == 0 && cfg->rollout_policy == 0) {
        if (d->current_player(g, s) != ES_TERMINAL && es_random_playout_from(g, s, rng, NULL, NULL) != ES_OK) return 0;
        d->returns(g, s, returns);
        return 1;
    }
    for (int64_t step = 0, decisions = 0; step < (1 << 22); step++) {
        int cp = d->current_player(g, s);
        if (cp == ES_TERMINAL) {
            d->returns(g, s, returns);
            return 1;
        }
        if (cfg->rollout_depth != 0 && decisions >= depth) break;
        es_move m;
        if (cp == ES_CHANCE) {
            m = d->sample_chance(g, s, rng);
        } else {
            if (cfg->rollout_policy == 1) {
                m = es_heuristic_move(g, s, rng);
            } else {
                int n;
                m = es_random_move(g, s, rng, &n);
                if (n <= 0) return 0;
            }
            decisions++;
        }
        d->apply(g, s, m);
    }
    evaluation_returns(g, s, scale, returns);
    return 1;
}

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

    int64_t limit = cfg->max_nodes > 0 ? cfg->max_nodes : DEFAULT_MAX_NODES;
    if (limit > INT32_MAX) limit = INT32_MAX;   /* node ids are int32 */
    tree t = {NULL, 0, 1024, limit, NULL, 4096};
    t.nodes = (mnode *)malloc((size_t)t.cap * sizeof(mnode));
    t.index = (int32_t *)malloc((size_t)t.index_cap * sizeof(int32_t));
    if (t.index) memset(t.index, -1, (size_t)t.index_cap * sizeof(int32_t));
    int64_t path_cap = 4096;
    int32_t *path = (int32_t *)malloc((size_t)path_cap * sizeof(int32_t));
    if (!t.nodes || !path || !t.index) {
        free(t.nodes);
        free(t.index);
        free(path);
        return ES_ERR_LIMIT;
    }
    add_node(&t, -1, 0);

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
        if (cfg->iterations > 0 && it >= cfg->iterations) break;
        if ((interrupted = es_stop_requested(stop))) break;
        if (cfg->seconds > 0 && (it & 31) == 0 && (elapsed = es_now_seconds() - start) >= cfg->seconds) break;
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
            } else {
                int n = d->legal_moves(g, s, legal);
                if (n <= 0) break;
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
        stats->bytes = t.cap * (int64_t)sizeof(mnode) + t.index_cap * (int64_t)sizeof(int32_t);
    }
    int count = 0;
    for (int32_t ch = t.nodes[0].child; ch >= 0 && count < cap; ch = t.nodes[ch].sibling) {
        moves[count] = t.nodes[ch].key;
        visits[count] = t.nodes[ch].visits;
        values[count] = t.nodes[ch].visits ? t.nodes[ch].value[player] / t.nodes[ch].visits : 0.0;
        count++;
    }
    free(t.nodes);
    free(t.index);
    free(path);
    return interrupted ? ES_ERR_INTERRUPTED : count;
}
