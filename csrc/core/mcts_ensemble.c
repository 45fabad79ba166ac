/* Many worlds on many threads: root-parallel MCTS (es_mcts_ensemble, contract in eurosearch.h).
 *
 * Each world is an independent es_mcts tree with its own seed (and, in the open mode, its own
 * determinization of the root), so the trees share nothing while they grow and need no locks;
 * their root statistics are merged at the end. Averaging over determinizations is what makes
 * determinized MCTS sound in games with hidden cards (one tree per sampled world, as in
 * "perfect-information Monte Carlo"); on a game without hidden information the worlds differ
 * only by their random streams, which is plain root parallelisation.
 *
 * Thread t runs worlds t, t + T, t + 2T, ...; a world's result depends only on its seed and its
 * iteration share, never on which thread ran it, so an iteration budget is reproducible
 * whatever the thread count. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "eurosearch.h"
#include "rng.h"
#include "search.h"
#include "stop.h"

#define MAX_WORLDS 256

typedef struct world_out {
    int count, status;
    es_move *moves;
    int64_t *visits;
    double *values;
    es_search_stats stats;
} world_out;

typedef struct ensemble_job {
    const es_game *g;
    const void *root;
    int player, worlds, threads, cap;
    const es_mcts_config *cfg;
    const es_stop *stop;   /* the caller's watch: Ctrl-C stops every thread */
    double start;
    world_out *out;        /* one per world */
} ensemble_job;

typedef struct thread_arg {
    ensemble_job *job;
    int first;
} thread_arg;

/* World i's seed: a splitmix64 step away from the caller's, distinct per world. */
static uint64_t world_seed(uint64_t seed, int i) {
    uint64_t x = seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(i + 1));
    return es_splitmix64(&x);
}

static void run_world(ensemble_job *job, int i, int worlds_left) {
    const es_game *g = job->g;
    const es_mcts_config *base = job->cfg;
    world_out *o = &job->out[i];
    es_mcts_config cfg = *base;
    cfg.seed = world_seed(base->seed, i);
    if (base->iterations > 0)
        cfg.iterations = base->iterations / job->worlds + (i < base->iterations % job->worlds ? 1 : 0);
    if (base->seconds > 0) {
        double left = base->seconds - (es_now_seconds() - job->start);
        cfg.seconds = left / worlds_left;
        if (cfg.seconds <= 0) cfg.seconds = 1e-9;   /* out of time: a token search */
    }
    if (base->iterations > 0 && cfg.iterations == 0) {   /* fewer iterations than worlds */
        o->count = 0;
        o->status = 0;
        return;
    }
    uint64_t state_buf[ES_MAX_STATE_BYTES / 8];
    memcpy(state_buf, job->root, g->def->state_size);
    if (!cfg.information_sets) {
        es_rng rng;
        es_rng_seed(&rng, cfg.seed ^ 0xD1B54A32D192ED03ull);
        es_determinize(g, state_buf, job->player, &rng);
    }
    int n = es_mcts_watched(g, state_buf, job->player, &cfg, job->stop, o->moves, o->visits, o->values,
                            job->cap, &o->stats);
    o->status = n < 0 ? n : 0;
    o->count = n < 0 ? 0 : n;
}

static void *run_thread(void *p) {
    thread_arg *a = (thread_arg *)p;
    ensemble_job *job = a->job;
    int mine = 0;
    for (int i = a->first; i < job->worlds; i += job->threads) mine++;
    for (int i = a->first, k = 0; i < job->worlds; i += job->threads, k++) {
        run_world(job, i, mine - k);
        if (job->out[i].status == ES_ERR_INTERRUPTED) break;
    }
    return NULL;
}

typedef struct root_entry {
    es_move move;
    int64_t visits;
    double value_sum;
} root_entry;

static int by_move(const void *a, const void *b) {
    es_move x = ((const root_entry *)a)->move, y = ((const root_entry *)b)->move;
    return (x > y) - (x < y);
}

int es_mcts_ensemble(const es_game *g, const void *s, int player, const es_mcts_config *cfg, int worlds,
                     int threads, es_move *moves, int64_t *visits, double *values, int cap,
                     es_search_stats *stats) {
    if (!g || !s || !cfg || worlds < 1 || worlds > MAX_WORLDS || threads < 1 || threads > MAX_WORLDS || cap < 0)
        return ES_ERR_ARG;
    if (g->def->state_size > ES_MAX_STATE_BYTES) return ES_ERR_ARG;
    if (player < 0 || player >= g->players) return ES_ERR_ARG;
    if (g->def->current_player(g, s) != player) return ES_ERR_PHASE;
    if (cfg->iterations <= 0 && cfg->seconds <= 0) return ES_ERR_ARG;
    if (es_eval_model_check(g, cfg) != ES_OK) return ES_ERR_ARG;
    if (threads > worlds) threads = worlds;

    int per = g->def->max_moves;   /* a root lists at most this many children */
    world_out *out = (world_out *)calloc((size_t)worlds, sizeof *out);
    es_move *mv = (es_move *)malloc((size_t)worlds * (size_t)per * sizeof *mv);
    int64_t *vv = (int64_t *)malloc((size_t)worlds * (size_t)per * sizeof *vv);
    double *va = (double *)malloc((size_t)worlds * (size_t)per * sizeof *va);
    root_entry *all = (root_entry *)malloc((size_t)worlds * (size_t)per * sizeof *all);
    thread_arg *args = (thread_arg *)malloc((size_t)threads * sizeof *args);
    pthread_t *tid = (pthread_t *)malloc((size_t)threads * sizeof *tid);
    if (!out || !mv || !vv || !va || !all || !args || !tid) {
        free(out), free(mv), free(vv), free(va), free(all), free(args), free(tid);
        return ES_ERR_LIMIT;
    }
    for (int i = 0; i < worlds; i++) {
        out[i].moves = mv + (size_t)i * per;
        out[i].visits = vv + (size_t)i * per;
        out[i].values = va + (size_t)i * per;
    }
    es_stop stop = es_stop_begin();
    ensemble_job job = {g, s, player, worlds, threads, per, cfg, &stop, es_now_seconds(), out};

    /* threads - 1 helpers; the calling thread runs the first share itself */
    int started = 0;
    for (int t = 1; t < threads; t++) {
        args[t].job = &job;
        args[t].first = t;
        if (pthread_create(&tid[t], NULL, run_thread, &args[t]) != 0) break;
        started = t;
    }
    args[0].job = &job;
    args[0].first = 0;
    run_thread(&args[0]);
    for (int t = 1; t <= started; t++) pthread_join(tid[t], NULL);
    /* A thread that could not be started leaves its worlds unsearched: run them here. */
    for (int t = started + 1; t < threads; t++) {
        args[t].job = &job;
        args[t].first = t;
        run_thread(&args[t]);
    }

    int status = 0, n_all = 0;
    es_search_stats total = {0, 0, 0, 0};
    for (int i = 0; i < worlds; i++) {
        if (out[i].status == ES_ERR_INTERRUPTED) status = ES_ERR_INTERRUPTED;
        else if (out[i].status < 0 && status == 0) status = out[i].status;
        total.iterations += out[i].stats.iterations;
        total.nodes += out[i].stats.nodes;
        total.bytes += out[i].stats.bytes;   /* worlds on one thread run one after another: an upper bound */
        for (int k = 0; k < out[i].count; k++) {
            root_entry *e = &all[n_all++];
            e->move = out[i].moves[k];
            e->visits = out[i].visits[k];
            e->value_sum = out[i].values[k] * (double)out[i].visits[k];
        }
    }
    total.seconds = es_now_seconds() - job.start;
    qsort(all, (size_t)n_all, sizeof *all, by_move);
    int count = 0;
    for (int k = 0; k < n_all;) {
        root_entry sum = all[k++];
        while (k < n_all && all[k].move == sum.move) {
            sum.visits += all[k].visits;
            sum.value_sum += all[k].value_sum;
            k++;
        }
        if (count < cap) {
            moves[count] = sum.move;
            visits[count] = sum.visits;
            values[count] = sum.visits ? sum.value_sum / (double)sum.visits : 0.0;
            count++;
        }
    }
    if (stats) *stats = total;
    free(out), free(mv), free(vv), free(va), free(all), free(args), free(tid);
    return status < 0 ? status : count;
}
