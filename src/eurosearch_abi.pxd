# Cython view of the public C ABI (csrc/include/eurosearch.h).
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t

cdef extern from "eurosearch.h" nogil:
    int ES_CHANCE
    int ES_TERMINAL
    int ES_OK
    int ES_ERR_ILLEGAL
    int ES_ERR_FORMAT
    int ES_ERR_BUFFER
    int ES_ERR_LIMIT
    int ES_ERR_PHASE
    int ES_ERR_ARG
    int ES_ERR_INTERRUPTED
    ctypedef int32_t es_move
    ctypedef struct es_rng:
        uint64_t s[4]
    ctypedef struct es_field_desc:
        const char *name
        uint32_t offset
        uint8_t type
        uint8_t dim0
        uint8_t dim1
        uint8_t kind
        const void *names
    ctypedef struct es_game_def:
        const char *name
        int min_players
        int max_players
    ctypedef struct es_game:
        const es_game_def *def_ "def"
        int players
        uint64_t data_fingerprint

    int es_abi_version()
    int es_uses_pdep()
    int es_game_count()
    const es_game_def *es_game_def_at(int i)
    es_game *es_game_new(const char *name, int players, const int32_t *table, size_t table_len,
                         const int32_t *options, size_t n_options, char *err, size_t errlen)
    void es_game_free(es_game *g)
    size_t es_state_size(const es_game *g)
    int es_max_moves(const es_game *g)
    int es_max_chance_outcomes(const es_game *g)
    int es_observation_size(const es_game *g)
    void es_init(const es_game *g, void *s)
    int es_current_player(const es_game *g, const void *s)
    int es_legal_moves(const es_game *g, const void *s, es_move *out)
    int es_chance_outcomes(const es_game *g, const void *s, es_move *out, double *prob)
    int es_is_legal(const es_game *g, const void *s, es_move m)
    int es_apply(const es_game *g, void *s, es_move m)
    void es_apply_unchecked(const es_game *g, void *s, es_move m)
    es_move es_sample_chance(const es_game *g, const void *s, es_rng *rng)
    void es_scores(const es_game *g, const void *s, double *out)
    void es_returns(const es_game *g, const void *s, double *out)
    uint64_t es_hash(const es_game *g, const void *s)
    int es_determinize(const es_game *g, void *s, int observer, es_rng *rng)
    int es_observe(const es_game *g, const void *s, int player, float *out)
    int es_move_to_str(const es_game *g, const void *s, es_move m, char *buf, size_t cap)
    int es_str_to_move(const es_game *g, const void *s, const char *text, es_move *out)
    int es_render(const es_game *g, const void *s, char *buf, size_t cap)
    int es_redact(const es_game *g, const void *s, int viewer, void *out)
    int es_render_view(const es_game *g, const void *s, int viewer, char *buf, size_t cap)
    es_move es_move_view(const es_game *g, const void *s, es_move m, int viewer)
    int es_has_hidden_information(const es_game *g)
    int64_t es_num_actions(const es_game *g)
    int64_t es_move_to_action(const es_game *g, es_move m)
    es_move es_action_to_move(const es_game *g, int64_t a)
    int es_legal_actions_mask(const es_game *g, const void *s, uint8_t *mask)
    ctypedef struct es_obs_slice:
        const char *name
        int offset, dim0, dim1
    int es_observation_layout(const es_game *g, es_obs_slice *out, int cap)
    size_t es_encoded_size(const es_game *g)
    int es_encode(const es_game *g, const void *s, uint8_t *buf, size_t cap)
    int es_decode(const es_game *g, const uint8_t *buf, size_t len, void *s, char *err, size_t errlen)
    int es_validate(const es_game *g, const void *s, char *err, size_t errlen)
    void es_derive(const es_game *g, void *s)
    const es_field_desc *es_state_fields(const es_game *g, int *count)
    const char *es_field_item_name(const es_game *g, int field, int item)
    int es_apply_cost(const es_game *g, int n, uint64_t seed, double *out) nogil
    int es_random_playouts(const es_game *g, int64_t n, uint64_t seed, double *scores_out,
                           int64_t *decisions_out, int64_t *chance_out)
    int es_random_playout_from(const es_game *g, void *s, es_rng *rng, int64_t *decisions,
                               int64_t *chance)
    void es_request_stop()
    void es_watch_stops(int on)
    void es_rng_seed(es_rng *r, uint64_t seed)
    uint32_t es_rng_below(es_rng *r, uint32_t n)
    es_move es_random_move(const es_game *g, const void *s, es_rng *rng, int *count)
    ctypedef struct es_eval_model:
        int size
        const float *weights
        double eval_weight
    ctypedef struct es_mcts_config:
        int64_t iterations
        double seconds
        double exploration
        int information_sets
        int64_t max_nodes
        uint64_t seed
        int rollout_depth
        int rollout_policy
        double eval_scale
        double widening
        const es_eval_model *eval_model
        double greedy_share
    ctypedef struct es_search_stats:
        int64_t iterations
        int64_t nodes
        double seconds
        int64_t bytes
    ctypedef struct es_expectimax_config:
        int depth
        int iterative
        double seconds
        int64_t max_nodes
        int64_t table_bytes
        int objective
        int paranoid
        int pruning
        int all_values
        double eval_scale
        double widening
    ctypedef struct es_expectimax_result:
        int complete
        int exact
        int depth
        es_move best
        int64_t nodes
        int64_t table_hits
        int64_t table_bytes
        double seconds
    int es_expectimax(const es_game *g, const void *s, const es_expectimax_config *cfg, es_move *moves,
                      double *values, int cap, es_expectimax_result *res)
    void es_evaluate(const es_game *g, const void *s, double *out)
    es_move es_heuristic_move(const es_game *g, const void *s, es_rng *rng)
    int es_mcts(const es_game *g, const void *s, int player, const es_mcts_config *cfg, es_move *moves,
                int64_t *visits, double *values, int cap, es_search_stats *stats)
    int es_mcts_ensemble(const es_game *g, const void *s, int player, const es_mcts_config *cfg, int worlds,
                         int threads, es_move *moves, int64_t *visits, double *values, int cap,
                         es_search_stats *stats)
