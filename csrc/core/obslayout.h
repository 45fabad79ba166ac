/* Building an observation layout (es_game_def.observation_layout): slices appended in order,
 * each starting where the previous ended. */
#ifndef ES_OBSLAYOUT_H
#define ES_OBSLAYOUT_H

#include "eurosearch.h"

typedef struct es_obs_builder {
    es_obs_slice *out;
    int cap, n, offset;
} es_obs_builder;

static inline es_obs_builder es_obs_begin(es_obs_slice *out, int cap) {
    es_obs_builder b = {out, cap, 0, 0};
    return b;
}

/* A dim0 x dim1 block (dim1 = 0: dim0 floats). */
static inline void es_obs_add(es_obs_builder *b, const char *name, int dim0, int dim1) {
    if (b->n < b->cap) {
        es_obs_slice sl = {name, b->offset, dim0, dim1};
        b->out[b->n] = sl;
    }
    b->n++;
    b->offset += dim1 ? dim0 * dim1 : dim0;
}

#endif
