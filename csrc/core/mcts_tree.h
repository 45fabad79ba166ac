/* The MCTS tree and the helpers every MCTS loop shares (csrc/core/mcts.c: the open and
 * single-observer modes; csrc/core/mcts_mo.c: the multiple-observer mode): nodes with an
 * (parent, key) index, UCT selection, the edge key as a player sees a move, widening's
 * choice of a new child, and the playout from a leaf. Internal to the core. */
#ifndef ES_CORE_MCTS_TREE_H
#define ES_CORE_MCTS_TREE_H
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eurosearch.h"
#include "rng.h"
#include "search.h"
#include "stop.h"

#define DEFAULT_MAX_NODES (4 << 20)
typedef struct mnode {
    es_move key;              /* the move into this node, as the searcher sees it */
    int32_t parent;           /* -1 at the root */
    int32_t child, sibling;   /* first child, next sibling (-1: none) */
    uint32_t visits;
    union {
        uint32_t avail;       /* information sets: iterations in which this child was available */
        uint32_t moves;       /* open mode: legal moves at this node, 0 until listed */
    };
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


static inline void index_insert(tree *t, int32_t id) {
    const mnode *m = &t->nodes[id];
    uint64_t mask = (uint64_t)t->index_cap - 1, i = edge_hash(m->parent, m->key) & mask;
    while (t->index[i] >= 0) i = (i + 1) & mask;
    t->index[i] = id;
}

static inline int grow_index(tree *t) {
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
static inline int32_t add_node(tree *t, int32_t parent, es_move key) {
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

/* An empty tree (the root only) that may grow to `limit` nodes; 0 when out of memory (then
 * tree_close still frees what was made). */
static inline int tree_open(tree *t, int64_t limit) {
    *t = (tree){NULL, 0, 1024, limit, NULL, 4096};
    t->nodes = (mnode *)malloc((size_t)t->cap * sizeof(mnode));
    t->index = (int32_t *)malloc((size_t)t->index_cap * sizeof(int32_t));
    if (!t->nodes || !t->index) return 0;
    memset(t->index, -1, (size_t)t->index_cap * sizeof(int32_t));
    return add_node(t, -1, 0) == 0;
}

static inline void tree_close(tree *t) {
    free(t->nodes);
    free(t->index);
    t->nodes = NULL;
    t->index = NULL;
}

static inline int64_t tree_bytes(const tree *t) {
    return t->cap * (int64_t)sizeof(mnode) + t->index_cap * (int64_t)sizeof(int32_t);
}

/* The node bound of a search: max_nodes, or the default; node ids are int32. */
static inline int64_t tree_node_limit(const es_mcts_config *cfg) {
    int64_t limit = cfg->max_nodes > 0 ? cfg->max_nodes : DEFAULT_MAX_NODES;
    return limit > INT32_MAX ? INT32_MAX : limit;
}

/* Whether iteration `it` of a search started at `start` must not run: its iteration budget
 * is spent, a stop was asked for (*interrupted set), or its time is up (the clock is read
 * every 32 iterations, into *elapsed). */
static inline int search_over(const es_mcts_config *cfg, const es_stop *stop, int64_t it, double start,
                              double *elapsed, int *interrupted) {
    if (cfg->iterations > 0 && it >= cfg->iterations) return 1;
    if ((*interrupted = es_stop_requested(stop))) return 1;
    return cfg->seconds > 0 && (it & 31) == 0 && (*elapsed = es_now_seconds() - start) >= cfg->seconds;
}

static inline int32_t find_child(const tree *t, int32_t parent, es_move key) {
    uint64_t mask = (uint64_t)t->index_cap - 1, i = edge_hash(parent, key) & mask;
    for (int32_t id; (id = t->index[i]) >= 0; i = (i + 1) & mask)
        if (t->nodes[id].parent == parent && t->nodes[id].key == key) return id;
    return -1;
}

/* Open mode: a node stands for one state (chance children are keyed by their outcome), so
 * its legal moves are the same list on every visit and a child count tells whether any are
 * untried. One of them, uniformly: by rejection while few are left to find, else by a scan. */
static inline int pick_untried(const tree *t, int32_t node, const es_move *legal, int n, es_rng *rng,
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
static inline double move_promise(const es_game *g, const void *s, es_move m, int cp, void *scratch) {
    double v[ES_SEARCH_MAX_PLAYERS];
    memcpy(scratch, s, g->def->state_size);
    g->def->apply(g, scratch, m);
    if (g->def->current_player(g, scratch) == ES_TERMINAL) g->def->returns(g, scratch, v);
    else es_evaluate(g, scratch, v);
    return es_score_margin(g->players, v, cp);
}

/* Widening's new child: the most promising of up to ES_WIDEN_SAMPLE of the `n` candidates
 * (moves without a child), drawn without replacement; candidates is reordered. */
static inline es_move most_promising(const es_game *g, const void *s, es_move *candidates, int n, int cp,
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
static inline int32_t uct_child(const tree *t, int32_t node, int cp, double c, int info_sets, uint32_t stamp) {
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

/* weights . features, summed in 8 independent lanes (then pairwise): one serial chain of
 * additions over a thousand features was the learned evaluation's largest cost. The order
 * is fixed, so a seeded search stays reproducible. */
static inline double es_eval_dot(const float *w, const float *x, int size) {
    double lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int i = 0;
    for (; i + 8 <= size; i += 8)
        for (int k = 0; k < 8; k++) lane[k] += (double)(w[i + k] * x[i + k]);
    for (; i < size; i++) lane[i & 7] += (double)(w[i] * x[i]);
    return ((lane[0] + lane[4]) + (lane[1] + lane[5])) + ((lane[2] + lane[6]) + (lane[3] + lane[7]));
}

/* Returns from an evaluation: a softmax over the estimated scores (a win-chance proxy), or
 * over the learned model's logits (es_eval_model: each player's observation, weighted). */
static inline void evaluation_returns(const es_game *g, const es_mcts_config *cfg, const void *s, double scale,
                                      double *returns) {
    double v[ES_SEARCH_MAX_PLAYERS];
    es_evaluate(g, s, v);
    const es_eval_model *m = cfg->eval_model;
    if (!m) {
        es_softmax_returns(g->players, v, scale, returns);
        return;
    }
    float obs[ES_EVAL_MAX_FEATURES];
    for (int q = 0; q < g->players; q++) {
        g->def->observe(g, s, q, obs);
        v[q] = m->eval_weight * v[q] + es_eval_dot(m->weights, obs, m->size);
    }
    es_softmax_returns(g->players, v, 1.0, returns);
}

/* From the leaf: a playout (random or greedy, to the end or to a depth) or the evaluation.
 * 0 when a playout hit the step limit. */
static inline int playout(const es_game *g, const es_mcts_config *cfg, void *s, es_rng *rng, double *returns) {
    const es_game_def *d = g->def;
    double scale = cfg->eval_scale > 0 ? cfg->eval_scale : 0.5;
    int depth = cfg->rollout_depth < 0 ? 0 : cfg->rollout_depth;
    if (cfg->rollout_policy == 0) {   /* random: to the end, or `depth` decisions on, then evaluated */
        int64_t until = cfg->rollout_depth == 0 ? -1 : depth;
        if (d->current_player(g, s) != ES_TERMINAL && es_random_play(g, s, rng, until, NULL, NULL) != ES_OK) return 0;
        if (d->current_player(g, s) == ES_TERMINAL)
            d->returns(g, s, returns);
        else
            evaluation_returns(g, cfg, s, scale, returns);
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
            if (cfg->rollout_policy == 1 && (cfg->greedy_share <= 0 || cfg->greedy_share >= 1 ||
                                             es_rng_unit(rng) < cfg->greedy_share)) {
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
    evaluation_returns(g, cfg, s, scale, returns);
    return 1;
}

/* The multiple-observer mode (mcts_mo.c), entered from es_mcts_watched. */
int es_mcts_mo(const es_game *g, const void *root, int player, const es_mcts_config *cfg, const es_stop *stop,
               es_move *moves, int64_t *visits, double *values, int cap, es_search_stats *stats);

#endif
