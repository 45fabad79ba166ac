/* Expectimax over the game interface, for every game: depth-limited play and exact solving.
 *
 * Two players (or more, paranoid): one value, the searcher's, maximised at the searcher's
 * nodes and minimised at the others'; alpha-beta at decision nodes and, at chance nodes,
 * Star1 (the bounds of the unsearched outcomes cut the average off early) with Star2 probing
 * (one move of each successor gives a tighter bound before the full search). More players
 * (max^n): a value per player, each maximises its own; no pruning.
 *
 * A transposition table keyed by the state hash stores bounds (or value vectors) with the
 * depth they were searched to; a value whose subtree never met the horizon is exact at any
 * depth. The search stops cleanly at a node or time limit: the caller then gets the last
 * completed iteration, or nothing.
 *
 * Values: the win objective uses the game's returns at the end (ties shared) and a softmax of
 * the evaluation at the horizon; the score objective the final score margin over the best
 * opponent, or the evaluation's margin at the horizon.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "eurosearch.h"
#include "search.h"
#include "stop.h"

#define DEPTH_INF (1 << 30)
#define MAX_PLY 1500              /* recursion bound: deeper games report "not complete" */
#define DEFAULT_TABLE_BYTES (64ll << 20)
#define SCORE_BOUND 1e9           /* |score margin| bound for the chance-node cut-offs */
/* The recursion runs up to MAX_PLY plies deep, 300-500 bytes of stack each (measured), with
 * the game's own functions at the bottom: up to about 1 MiB, more than the caller's thread
 * may have (a Python thread can have 256 KiB). So the search runs on a thread of its own with
 * this stack (reserved address space; only the pages it touches are backed). */
#define SEARCH_STACK_BYTES ((size_t)8 << 20)

/* Per-ply scratch, allocated once per depth reached. */
typedef struct frame {
    es_move *moves;
    double *weight;     /* chance probabilities, or move-ordering keys */
    double *lo, *hi;    /* bounds on each chance outcome's value (Star1/Star2) */
    uint8_t *child;
} frame;

typedef struct ctx {
    const es_game *g;
    const es_game_def *d;
    const es_expectimax_config *cfg;
    int root, np, vec;   /* vec: max^n mode (a value per player) */
    double lo_bound, hi_bound, scale;
    uint8_t *table;
    uint64_t table_mask;
    size_t stride;       /* bytes per table entry */
    frame frames[MAX_PLY];
    int n_frames, frame_moves;
    int64_t nodes, max_nodes, hits;
    double deadline;
    es_stop stop;        /* the caller's watch for stop requests (Ctrl-C) */
    int aborted, interrupted;
    int horizon;         /* a horizon leaf was met in the current subtree */
} ctx;

/* A table entry: key, depth, best move, flags, then the values (lo, hi or one per player). */
typedef struct entry {
    uint64_t key;
    int32_t depth;
    es_move best;
    int32_t horizon, pad;
    double v[];
} entry;

static frame *frame_at(ctx *c, int ply) {
    if (ply >= MAX_PLY) return NULL;
    while (c->n_frames <= ply) {
        frame *f = &c->frames[c->n_frames];
        size_t n = (size_t)c->frame_moves;
        f->moves = (es_move *)malloc(n * sizeof(es_move));
        f->weight = (double *)malloc(n * sizeof(double));
        f->lo = (double *)malloc(n * sizeof(double));
        f->hi = (double *)malloc(n * sizeof(double));
        f->child = (uint8_t *)malloc(c->d->state_size);
        c->n_frames++;
        if (!f->moves || !f->weight || !f->lo || !f->hi || !f->child) return NULL;
    }
    return &c->frames[ply];
}

static void free_frames(ctx *c) {
    for (int i = 0; i < c->n_frames; i++) {
        free(c->frames[i].moves);
        free(c->frames[i].weight);
        free(c->frames[i].lo);
        free(c->frames[i].hi);
        free(c->frames[i].child);
    }
}

static inline entry *slot(ctx *c, uint64_t key) {
    return (entry *)(c->table + (size_t)(key & c->table_mask) * c->stride);
}

static inline entry *lookup(ctx *c, uint64_t key) {
    entry *e = slot(c, key);
    return e->key == key ? e : NULL;
}

/* Where to store a result: a different position is replaced, the same one only by a search at
 * least as deep. NULL: keep what is there. */
static inline entry *store_slot(ctx *c, uint64_t key, int depth) {
    entry *e = slot(c, key);
    if (e->key == key && e->depth > depth) return NULL;
    e->key = key;
    return e;
}

/* Every player's value at a leaf: the end of the game, or the horizon. */
static void leaf_values(ctx *c, const void *s, int terminal, double *out) {
    double x[ES_SEARCH_MAX_PLAYERS];
    if (terminal) {
        if (c->cfg->objective == ES_OBJECTIVE_WIN) {
            c->d->returns(c->g, s, out);
            return;
        }
        c->d->scores(c->g, s, x);
    } else {
        es_evaluate(c->g, s, x);
        if (c->cfg->objective == ES_OBJECTIVE_WIN) {
            es_softmax_returns(c->np, x, c->scale, out);
            return;
        }
    }
    es_score_margins(c->np, x, out);
}

static double leaf_value(ctx *c, const void *s, int terminal) {
    double v[ES_SEARCH_MAX_PLAYERS];
    leaf_values(c, s, terminal, v);
    return v[c->root];
}

/* Counts a node; 1 when the search must stop. */
static inline int out_of_budget(ctx *c) {
    c->nodes++;
    if (c->aborted) return 1;
    if (c->max_nodes > 0 && c->nodes > c->max_nodes) c->aborted = 1;
    if ((c->nodes & 1023) == 0) {
        if (c->deadline > 0 && es_now_seconds() > c->deadline) c->aborted = 1;
        if (es_stop_requested(&c->stop)) c->aborted = c->interrupted = 1;
    }
    return c->aborted;
}

/* The table entry for a finished node (NULL if the slot is kept for a deeper one), with its
 * depth, best move and horizon flag filled in; the caller writes the values. A subtree that
 * met no horizon is exact at any depth. Restores the caller's horizon flag (outer). */
static entry *store_result(ctx *c, uint64_t key, int depth, es_move best, int outer) {
    int horizon = c->horizon;
    c->horizon = outer | horizon;
    int stored_depth = horizon ? depth : DEPTH_INF;
    entry *w = store_slot(c, key, stored_depth);
    if (w) {
        w->depth = stored_depth;
        w->best = best;
        w->horizon = horizon;
    }
    return w;
}

/* ---------------------------------------------------------------- two players / paranoid */

static double ab_search(ctx *c, const void *s, int depth, int ply, double alpha, double beta, int prev);

/* Depth counts turns, not decisions: a decision by the player who made the previous one (a
 * reroll or nudge before placing, a follow-up choice) continues that player's turn and
 * costs no depth. Else a horizon could fall in the middle of a turn, where the evaluation
 * favours moves that keep the turn (the mover gets two decisions, the others none). */
static inline int turn_depth(int depth, int cp, int prev) {
    return cp >= 0 && cp == prev && depth < DEPTH_INF ? depth + 1 : depth;
}

/* Orders f->moves[0..n) for the player to move: the table's best move first, then by the value
 * after the move (evaluation), best first for the mover. Stable, so ties keep legal order. */
static void order_moves(ctx *c, const void *s, frame *f, int n, int maxing, es_move first, int depth) {
    if (depth >= 2 || depth == DEPTH_INF) {
        for (int i = 0; i < n; i++) {
            memcpy(f->child, s, c->d->state_size);
            c->d->apply(c->g, f->child, f->moves[i]);
            int cp = c->d->current_player(c->g, f->child);
            double v = leaf_value(c, f->child, cp == ES_TERMINAL);
            f->weight[i] = maxing ? -v : v;   /* ascending keys */
        }
        for (int i = 1; i < n; i++) {
            es_move m = f->moves[i];
            double k = f->weight[i];
            int j = i - 1;
            for (; j >= 0 && f->weight[j] > k; j--) {
                f->moves[j + 1] = f->moves[j];
                f->weight[j + 1] = f->weight[j];
            }
            f->moves[j + 1] = m;
            f->weight[j + 1] = k;
        }
    }
    if (first) {
        for (int i = 0; i < n; i++)
            if (f->moves[i] == first) {
                memmove(f->moves + 1, f->moves, (size_t)i * sizeof(es_move));
                f->moves[0] = first;
                break;
            }
    }
}

/* A decision node (fail-soft alpha-beta). probe: search only the first move (Star2), whose
 * value bounds the node from the mover's side. */
static double ab_decision(ctx *c, const void *s, int cp, int depth, int ply, double alpha, double beta,
                          es_move first, int probe, es_move *best_move) {
    frame *f = frame_at(c, ply);
    if (!f) {
        c->aborted = 1;
        return 0;
    }
    int n = c->d->legal_moves(c->g, s, f->moves);
    int maxing = cp == c->root;
    order_moves(c, s, f, n, maxing, first, depth);
    double best = maxing ? -INFINITY : INFINITY;
    es_move bm = n ? f->moves[0] : 0;
    for (int i = 0; i < n; i++) {
        memcpy(f->child, s, c->d->state_size);
        c->d->apply(c->g, f->child, f->moves[i]);
        double v = ab_search(c, f->child, depth - 1, ply + 1, alpha, beta, cp);
        if (c->aborted) return 0;
        if (maxing ? v > best : v < best) {
            best = v;
            bm = f->moves[i];
        }
        if (maxing && best > alpha) alpha = best;
        if (!maxing && best < beta) beta = best;
        if (alpha >= beta || probe) break;
    }
    if (best_move) *best_move = bm;
    return best;
}

/* A chance node: Star2 probing, then Star1. lo/hi hold bounds on each outcome's value; the
 * average is cut off as soon as the searched outcomes and the bounds of the rest put it
 * outside (alpha, beta). */
static double ab_chance(ctx *c, const void *s, int depth, int ply, double alpha, double beta, int prev) {
    frame *f = frame_at(c, ply);
    if (!f) {
        c->aborted = 1;
        return 0;
    }
    const es_game_def *d = c->d;
    int n = d->chance_outcomes(c->g, s, f->moves, f->weight);
    double *p = f->weight, *lo = f->lo, *hi = f->hi;
    int prune = c->cfg->pruning;
    double sum_lo = 0, sum_hi = 0;
    for (int i = 0; i < n; i++) {
        lo[i] = c->lo_bound;
        hi[i] = c->hi_bound;
        if (prune) {
            /* bounds that cost nothing: the end of the game, the table */
            memcpy(f->child, s, d->state_size);
            d->apply(c->g, f->child, f->moves[i]);
            int cp = d->current_player(c->g, f->child);
            if (cp == ES_TERMINAL) {
                lo[i] = hi[i] = leaf_value(c, f->child, 1);
            } else {
                entry *e = lookup(c, es_hash(c->g, f->child) | 1);
                if (e && e->depth >= turn_depth(depth, cp, prev)) {
                    lo[i] = e->v[0];
                    hi[i] = e->v[1];
                    if (e->horizon) c->horizon = 1;
                }
            }
        }
        sum_lo += p[i] * lo[i];
        sum_hi += p[i] * hi[i];
    }
    if (prune) {
        if (sum_lo >= beta) return sum_lo;
        if (sum_hi <= alpha) return sum_hi;
        /* Star2: one move of each successor that is a decision node. Only for the win
         * objective: with the score objective's loose bounds a probe almost never cuts and
         * costs more nodes than it saves (measured on Oh My Goods! endgames). */
        for (int i = 0; i < n && c->cfg->objective == ES_OBJECTIVE_WIN; i++) {
            if (lo[i] >= hi[i]) continue;
            memcpy(f->child, s, d->state_size);
            d->apply(c->g, f->child, f->moves[i]);
            int cp = d->current_player(c->g, f->child);
            if (cp < 0) continue;
            if (out_of_budget(c)) return 0;
            entry *e = lookup(c, es_hash(c->g, f->child) | 1);
            double a = (alpha - (sum_hi - p[i] * hi[i])) / p[i], b = (beta - (sum_lo - p[i] * lo[i])) / p[i];
            if (a < lo[i]) a = lo[i];
            if (b > hi[i]) b = hi[i];
            double v = ab_decision(c, f->child, cp, turn_depth(depth, cp, prev), ply + 1, a, b, e ? e->best : 0, 1, NULL);
            if (c->aborted) return 0;
            if (cp == c->root && v > a && v > lo[i]) {   /* the node is worth at least one move */
                sum_lo += p[i] * (v - lo[i]);
                lo[i] = v;
                if (sum_lo >= beta) return sum_lo;
            } else if (cp != c->root && v < b && v < hi[i]) {
                sum_hi -= p[i] * (hi[i] - v);
                hi[i] = v;
                if (sum_hi <= alpha) return sum_hi;
            }
        }
    }
    /* Star1; rest_lo / rest_hi: the bounds of the outcomes after i (exactly 0 after the last) */
    double done = 0, rest_lo = sum_lo, rest_hi = sum_hi;
    for (int i = 0; i < n; i++) {
        rest_lo = i == n - 1 ? 0 : rest_lo - p[i] * lo[i];
        rest_hi = i == n - 1 ? 0 : rest_hi - p[i] * hi[i];
        double a = prune ? (alpha - done - rest_hi) / p[i] : -INFINITY;
        double b = prune ? (beta - done - rest_lo) / p[i] : INFINITY;
        double wa = a > lo[i] ? a : lo[i], wb = b < hi[i] ? b : hi[i];
        double v;
        if (lo[i] == hi[i]) {
            v = lo[i];
        } else {
            memcpy(f->child, s, d->state_size);
            d->apply(c->g, f->child, f->moves[i]);
            v = ab_search(c, f->child, depth, ply + 1, wa, wb, prev);
            if (c->aborted) return 0;
            if (v < lo[i]) v = lo[i];
            if (v > hi[i]) v = hi[i];
        }
        if (v >= b) return done + p[i] * v + rest_lo;   /* at least beta */
        if (v <= a) return done + p[i] * v + rest_hi;   /* at most alpha */
        done += p[i] * v;
    }
    return done;
}

static double ab_search(ctx *c, const void *s, int depth, int ply, double alpha, double beta, int prev) {
    if (out_of_budget(c)) return 0;
    int cp = c->d->current_player(c->g, s);
    if (cp == ES_TERMINAL) return leaf_value(c, s, 1);
    depth = turn_depth(depth, cp, prev);
    if (depth <= 0) {
        c->horizon = 1;
        return leaf_value(c, s, 0);
    }
    uint64_t key = es_hash(c->g, s) | 1;
    entry *e = lookup(c, key);
    es_move first = 0;
    if (e) {
        first = e->best;
        if (e->depth >= depth) {
            c->hits++;
            if (e->horizon) c->horizon = 1;
            double lo = e->v[0], hi = e->v[1];
            if (lo >= beta) return lo;
            if (hi <= alpha || lo == hi) return hi;
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
        }
    }
    int outer = c->horizon;
    c->horizon = 0;
    es_move best = 0;
    double v = cp == ES_CHANCE ? ab_chance(c, s, depth, ply, alpha, beta, prev)
                               : ab_decision(c, s, cp, depth, ply, alpha, beta, first, 0, &best);
    if (c->aborted) return 0;
    entry *w = store_result(c, key, depth, best, outer);
    if (w) {
        w->v[0] = v > alpha ? v : c->lo_bound;   /* fail low: only an upper bound */
        w->v[1] = v < beta ? v : c->hi_bound;    /* fail high: only a lower bound */
    }
    return v;
}

/* ---------------------------------------------------------------- max^n */

static void maxn_search(ctx *c, const void *s, int depth, int ply, int prev, double *out) {
    int np = c->np;
    if (out_of_budget(c)) return;
    int cp = c->d->current_player(c->g, s);
    depth = turn_depth(depth, cp, prev);
    if (cp == ES_TERMINAL || depth <= 0) {
        if (cp != ES_TERMINAL) c->horizon = 1;
        leaf_values(c, s, cp == ES_TERMINAL, out);
        return;
    }
    uint64_t key = es_hash(c->g, s) | 1;
    entry *e = lookup(c, key);
    if (e && e->depth >= depth) {
        c->hits++;
        if (e->horizon) c->horizon = 1;
        memcpy(out, e->v, (size_t)np * sizeof(double));
        return;
    }
    frame *f = frame_at(c, ply);
    if (!f) {
        c->aborted = 1;
        return;
    }
    int outer = c->horizon;
    c->horizon = 0;
    double v[ES_SEARCH_MAX_PLAYERS];
    es_move best = 0;
    if (cp == ES_CHANCE) {
        int n = c->d->chance_outcomes(c->g, s, f->moves, f->weight);
        for (int q = 0; q < np; q++) out[q] = 0;
        for (int i = 0; i < n; i++) {
            memcpy(f->child, s, c->d->state_size);
            c->d->apply(c->g, f->child, f->moves[i]);
            maxn_search(c, f->child, depth, ply + 1, prev, v);
            if (c->aborted) return;
            for (int q = 0; q < np; q++) out[q] += f->weight[i] * v[q];
        }
    } else {
        /* legal order, the first best kept: ties are broken the same way at every depth */
        int n = c->d->legal_moves(c->g, s, f->moves);
        for (int i = 0; i < n; i++) {
            memcpy(f->child, s, c->d->state_size);
            c->d->apply(c->g, f->child, f->moves[i]);
            maxn_search(c, f->child, depth - 1, ply + 1, cp, v);
            if (c->aborted) return;
            if (i == 0 || v[cp] > out[cp]) {
                memcpy(out, v, (size_t)np * sizeof(double));
                best = f->moves[i];
            }
        }
    }
    entry *w = store_result(c, key, depth, best, outer);
    if (w) memcpy(w->v, out, (size_t)np * sizeof(double));
}

/* ---------------------------------------------------------------- the root */

/* One iteration at `depth`: every root move's value into values[]. 0 when it was cut off. */
static int search_root(ctx *c, const void *s, const es_move *moves, int n, int depth, double *values,
                       es_move *best) {
    frame *f = frame_at(c, 0);
    if (!f) return 0;
    double top = -INFINITY, v[ES_SEARCH_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        memcpy(f->child, s, c->d->state_size);
        c->d->apply(c->g, f->child, moves[i]);
        if (c->vec) {
            maxn_search(c, f->child, depth - 1, 1, c->root, v);
            values[i] = v[c->root];
        } else {
            /* all_values: a full window, so each value is exact; else only better moves are */
            double alpha = c->cfg->all_values || i == 0 ? c->lo_bound : top;
            values[i] = ab_search(c, f->child, depth - 1, 1, alpha, c->hi_bound, c->root);
        }
        if (c->aborted) return 0;
        if (values[i] > top) {
            top = values[i];
            *best = moves[i];
        }
    }
    return 1;
}

/* The iterations of one call, run on the search thread. */
typedef struct job {
    ctx *c;
    const void *s;
    es_move *root_moves, *moves;
    double *vals, *values;
    int cap, count;
    es_expectimax_result *res;
} job;

static void *iterate(void *arg) {
    job *j = (job *)arg;
    ctx *c = j->c;
    es_expectimax_result *res = j->res;
    int n = c->d->legal_moves(c->g, j->s, j->root_moves);
    int last = c->cfg->depth > 0 ? c->cfg->depth : DEPTH_INF;
    for (int depth = c->cfg->iterative ? 1 : last;; depth++) {
        es_move best = 0;
        c->horizon = 0;
        if (!search_root(c, j->s, j->root_moves, n, depth, j->vals, &best)) break;
        res->complete = 1;
        res->exact = !c->horizon;
        res->depth = depth == DEPTH_INF ? 0 : depth;
        res->best = best;
        j->count = n < j->cap ? n : j->cap;
        memcpy(j->moves, j->root_moves, (size_t)j->count * sizeof(es_move));
        memcpy(j->values, j->vals, (size_t)j->count * sizeof(double));
        if (res->exact || depth >= last) break;
    }
    return NULL;
}

/* iterate() on a thread with SEARCH_STACK_BYTES of stack; 0 if no such thread can start. */
static int iterate_on_big_stack(job *j) {
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) != 0) return 0;
    int ok = pthread_attr_setstacksize(&attr, SEARCH_STACK_BYTES) == 0 &&
             pthread_create(&thread, &attr, iterate, j) == 0;
    pthread_attr_destroy(&attr);
    if (ok) pthread_join(thread, NULL);
    return ok;
}

int es_expectimax(const es_game *g, const void *s, const es_expectimax_config *cfg, es_move *moves,
                  double *values, int cap, es_expectimax_result *res) {
    const es_game_def *d = g->def;
    if (!cfg || !res || g->players > ES_SEARCH_MAX_PLAYERS || cfg->depth < 0 ||
        (cfg->objective != ES_OBJECTIVE_WIN && cfg->objective != ES_OBJECTIVE_SCORE))
        return ES_ERR_ARG;
    int player = d->current_player(g, s);
    if (player < 0) return ES_ERR_PHASE;
    memset(res, 0, sizeof *res);
    double start = es_now_seconds();

    ctx *c = (ctx *)calloc(1, sizeof(ctx));
    if (!c) return ES_ERR_LIMIT;
    c->g = g;
    c->d = d;
    c->cfg = cfg;
    c->root = player;
    c->np = g->players;
    c->vec = g->players > 2 && !cfg->paranoid;
    c->lo_bound = cfg->objective == ES_OBJECTIVE_WIN ? 0.0 : -SCORE_BOUND;
    c->hi_bound = cfg->objective == ES_OBJECTIVE_WIN ? 1.0 : SCORE_BOUND;
    c->scale = cfg->eval_scale > 0 ? cfg->eval_scale : 0.5;
    c->max_nodes = cfg->max_nodes;
    c->deadline = cfg->seconds > 0 ? start + cfg->seconds : 0;
    c->stop = es_stop_begin();   /* taken here: the search thread does not watch by itself */
    c->frame_moves = d->max_moves > d->max_chance_outcomes ? d->max_moves : d->max_chance_outcomes;
    c->stride = sizeof(entry) + (size_t)(c->vec ? c->np : 2) * sizeof(double);
    int64_t bytes = cfg->table_bytes > 0 ? cfg->table_bytes : DEFAULT_TABLE_BYTES;
    uint64_t slots = 1;
    while (slots * 2 * c->stride <= (uint64_t)bytes) slots *= 2;
    c->table = (uint8_t *)calloc(slots, c->stride);   /* untouched pages cost nothing */
    c->table_mask = slots - 1;
    es_move *root_moves = (es_move *)malloc((size_t)d->max_moves * sizeof(es_move));
    double *vals = (double *)malloc((size_t)d->max_moves * sizeof(double));
    job j = {c, s, root_moves, moves, vals, values, cap, 0, res};
    int rc = ES_ERR_LIMIT;
    if (c->table && root_moves && vals && iterate_on_big_stack(&j)) {
        res->table_bytes = (int64_t)(slots * c->stride);
        res->nodes = c->nodes;
        res->table_hits = c->hits;
        res->seconds = es_now_seconds() - start;
        rc = c->interrupted ? ES_ERR_INTERRUPTED : j.count;
    }
    free_frames(c);
    free(c->table);
    free(root_moves);
    free(vals);
    free(c);
    return rc;
}
