/* es_apply_cost: what a checked apply costs against an unchecked one, for `eurosearch bench`.
 * Issue 19's rule: a checked apply costs at most twice an unchecked one in every game, which
 * needs a per-game is_legal hook where listing every move (or every chance outcome: 1,512
 * dice throws in Vienna) is the cost. */
#include <stdlib.h>
#include <string.h>

#include "eurosearch.h"
#include "rng.h"
#include "search.h"

#define BATCH 64   /* applies per clock reading: the clock itself costs about 20 ns */

/* Seconds to apply the recorded actions idx[0..k) to fresh copies of their states, unchecked
 * into secs[0] and checked into secs[1]: batch by batch, one way then the other, so that
 * neither pass runs on a colder cache than the other. */
static void time_applies(const es_game *g, const uint8_t *states, const es_move *acts, const int *idx, int k,
                         uint8_t *work, double secs[2], int *refused) {
    size_t sz = g->def->state_size;
    secs[0] = secs[1] = 0;
    for (int b = 0; b < k; b += BATCH) {
        int e = b + BATCH < k ? b + BATCH : k;
        for (int checked = 0; checked < 2; checked++) {
            /* copy the batch first, so that the timed loop is the applies alone */
            for (int i = b; i < e; i++) memcpy(work + (size_t)(i - b) * sz, states + (size_t)idx[i] * sz, sz);
            double t0 = es_now_seconds();
            if (checked) {
                for (int i = b; i < e; i++)
                    if (es_apply(g, work + (size_t)(i - b) * sz, acts[idx[i]]) != ES_OK) (*refused)++;
            } else {
                for (int i = b; i < e; i++) g->def->apply(g, work + (size_t)(i - b) * sz, acts[idx[i]]);
            }
            secs[checked] += es_now_seconds() - t0;
        }
    }
}

int es_apply_cost(const es_game *g, int n, uint64_t seed, double out[6]) {
    if (n < 1 || n > 1000000) return ES_ERR_ARG;
    size_t sz = g->def->state_size;
    uint8_t *states = malloc(sz * (size_t)n), *work = malloc(sz * BATCH);
    es_move *acts = malloc(sizeof(es_move) * (size_t)n);
    int *dec = malloc(sizeof(int) * (size_t)n), *chn = malloc(sizeof(int) * (size_t)n);
    uint64_t s[ES_MAX_STATE_BYTES / 8];
    int rc = ES_OK, nd = 0, nc = 0, refused = 0;
    if (!states || !work || !acts || !dec || !chn) {
        rc = ES_ERR_LIMIT;
        goto done;
    }
    es_rng rng;
    es_rng_seed(&rng, seed);
    es_init(g, s);
    for (int i = 0; i < n;) {   /* record nodes of random games with the action taken there */
        int cp = g->def->current_player(g, s), count = 0;
        if (cp == ES_TERMINAL) {
            es_init(g, s);
            continue;
        }
        es_move m = cp == ES_CHANCE ? g->def->sample_chance(g, s, &rng) : es_random_move(g, s, &rng, &count);
        if (cp != ES_CHANCE && count <= 0) {
            rc = ES_ERR_LIMIT;   /* a decision without moves: the game is broken */
            goto done;
        }
        memcpy(states + (size_t)i * sz, s, sz);
        acts[i] = m;
        if (cp == ES_CHANCE) chn[nc++] = i; else dec[nd++] = i;
        g->def->apply(g, s, m);
        i++;
    }
    double secs[2] = {0, 0};
    time_applies(g, states, acts, dec, nd, work, secs, &refused);
    out[0] = nd ? secs[0] / nd * 1e9 : 0;
    out[1] = nd ? secs[1] / nd * 1e9 : 0;
    time_applies(g, states, acts, chn, nc, work, secs, &refused);
    out[2] = nc ? secs[0] / nc * 1e9 : 0;
    out[3] = nc ? secs[1] / nc * 1e9 : 0;
    out[4] = nd;
    out[5] = nc;
    if (refused) rc = ES_ERR_ILLEGAL;
done:
    free(states);
    free(work);
    free(acts);
    free(dec);
    free(chn);
    return rc;
}
