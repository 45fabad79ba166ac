/* eurosearch public C ABI.
 *
 * One game is one table of function pointers (es_game_def). A game instance (es_game) binds a
 * definition to a player count, the game's component data (an int32 table built from the
 * game's data file) and its options. States are plain fixed-size byte blobs of
 * es_state_size(g) bytes: a clone is a memcpy. Moves and chance outcomes are small positive
 * integers. Randomness is always passed in (es_rng); a state never holds hidden randomness.
 * Nothing here allocates except es_game_new.
 *
 * Usable from any FFI: every entry point takes plain pointers and integers.
 */
#ifndef EUROSEARCH_H
#define EUROSEARCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ES_ABI_VERSION 9   /* 2: es_game_def.random_move, es_random_move;
                              3: es_request_stop, es_watch_stops, ES_ERR_INTERRUPTED;
                                 es_game_def.render_view, es_render_view,
                                 es_has_hidden_information;
                              4: es_game_def.move_kinds (dense action space), es_num_actions,
                                 es_move_to_action, es_action_to_move, es_legal_actions_mask;
                                 es_game_def.observation_layout, es_observation_layout;
                              5: es_mcts_ensemble (many worlds, many threads), es_search_stats.bytes,
                                 es_move_view; es_field_desc.kind and .names (es_name_table),
                                 es_field_item_name;
                              6: ES_K_DERIVED fields, es_game_def.derive, es_derive;
                                 es_mcts_config.widening;
                              7: es_game_def.is_legal, es_is_legal, es_apply_cost;
                              8: es_eval_model, es_mcts_config.eval_model;
                              9: es_game_def.random_play, es_random_play, es_uses_pdep */

/* current_player() sentinels */
#define ES_CHANCE (-1)
#define ES_TERMINAL (-2)

/* Return codes */
#define ES_OK 0
#define ES_ERR_ILLEGAL (-1)   /* move not legal in this state; state unchanged */
#define ES_ERR_FORMAT (-2)    /* bytes are not a valid state of this game */
#define ES_ERR_BUFFER (-3)    /* caller's buffer too small */
#define ES_ERR_ARG (-4)       /* bad argument (player index, player count, data table...) */
#define ES_ERR_PHASE (-5)     /* wrong kind of node (e.g. chance outcomes asked at a decision) */
#define ES_ERR_LIMIT (-6)     /* a safety limit was hit (e.g. a playout that never ends) */
#define ES_ERR_INTERRUPTED (-7)   /* a stop was requested (es_request_stop: Ctrl-C) */

typedef int32_t es_move;

/* xoshiro256** state; seed it with es_rng_seed. */
typedef struct es_rng {
    uint64_t s[4];
} es_rng;

/* Reflection of a state's layout, so that generic code can print and parse any state. */
enum es_field_type { ES_U8 = 1, ES_I8 = 2, ES_U16 = 3, ES_U32 = 4, ES_U64 = 5 };

/* What the values of a field mean, so that the JSON form of a state (python/eurosearch/
 * statejson.py, docs/state_json.md) can write them for people: names instead of indices and
 * bit sets, null instead of sentinels. "None" below is the type's sentinel: -1 for ES_I8, the
 * all-ones value for the unsigned types (255 for ES_U8). Every kind applies to each element
 * of the field, except ITEMSET_ROW and PER_ITEM, which take the last dimension as one value.
 * es_validate checks every value against its kind, so that every valid state can be written;
 * es_game_new refuses a table whose kinds do not fit (a name table exactly for the named kinds,
 * unsigned types for the sets, an array for the row kinds).
 *   ES_K_INT          a number (the default: a field declared without a kind)
 *   ES_K_BOOL         a flag: 0 or 1 only
 *   ES_K_SEAT         a seat 0 .. players-1, or none
 *   ES_K_OPT          a number, or none (a street field or -1, a space index or 255 ...)
 *   ES_K_SEATSET      a bit set of seats (bit p: seat p)
 *   ES_K_ITEM         an index into `names`, or none, or "hidden": an item is there but the
 *                     viewer of a redacted state cannot see which (the type's largest value
 *                     below none: 127 for ES_I8, 254 for ES_U8)
 *   ES_K_ITEMSET      a bit set over `names` (bit i: entry i), one per element
 *   ES_K_ITEMSET_ROW  a bit set over `names` spread over the last dimension's words, low word
 *                     first (bit b of word w: entry 64w + b; 128 cards in two ES_U64)
 *   ES_K_PER_ITEM     the last dimension is indexed by `names` (a count per card type ...);
 *                     elements past the named entries are zero
 *   ES_K_PAD          padding or reserved bytes: always zero (es_validate checks it), not
 *                     part of the JSON form
 *   ES_K_DERIVED      a cache the engine keeps in step with other fields (card sets of a zone,
 *                     counts) so that hot loops need not recompute it: not part of the JSON
 *                     form, rebuilt by es_derive when a state is built field by field, and
 *                     checked against the other fields by the game's validate()
 * A name table lists names that live in the game's data (es_game.data, built by setup from
 * the data file's ids): entry i's NUL-terminated name at offset + i * stride, count entries,
 * an empty name for an unused entry (data with fewer entries than the engine's maximum); the
 * other names are distinct (the data loaders check their ids). */
enum es_field_kind {
    ES_K_INT = 0, ES_K_BOOL, ES_K_SEAT, ES_K_OPT, ES_K_SEATSET, ES_K_ITEM, ES_K_ITEMSET,
    ES_K_ITEMSET_ROW, ES_K_PER_ITEM, ES_K_PAD, ES_K_DERIVED
};
typedef struct es_name_table {
    const char *what;    /* what the entries are ("cards", "tiles"), for documentation */
    uint32_t offset;     /* byte offset of entry 0's name in es_game.data */
    uint32_t stride;     /* bytes from one entry's name to the next */
    uint32_t count;      /* entries (the engine's maximum) */
} es_name_table;
typedef struct es_field_desc {
    const char *name;
    uint32_t offset;     /* byte offset in the state */
    uint8_t type;        /* es_field_type */
    uint8_t dim0, dim1;  /* element counts; dim1 = 0 for a 1-D array, dim0 = 1 for a scalar */
    uint8_t kind;        /* es_field_kind */
    const es_name_table *names;   /* ES_K_ITEM, ES_K_ITEMSET(_ROW), ES_K_PER_ITEM; else NULL */
} es_field_desc;

/* The dense action space (for RL tools and OpenSpiel), declared by a game rather than coded:
 * a move id is a type in its low `move_type_bits` bits plus parameters in bit fields above.
 * Each decision move type is one es_move_kind listing its parameter fields (lowest field
 * first); parameter values 0 .. 2^bits - 1 are all counted. The action of a move is the
 * offset of its kind (the sizes of the kinds before it, in table order) plus its parameters
 * read as a mixed-radix number (the first field least significant). Chance outcome types are
 * not listed: they are no player's action. A move with bits outside its kind's fields has no
 * action. */
#define ES_MOVE_MAX_PARAMS 8
typedef struct es_move_param {
    uint8_t shift, bits;
} es_move_param;
typedef struct es_move_kind {
    int32_t type;          /* the value of the type bits */
    int n_params;
    es_move_param params[ES_MOVE_MAX_PARAMS];
} es_move_kind;

/* One named slice of observe()'s vector: dim0 floats (dim1 = 0), or a dim0 x dim1 row-major
 * block (one row per seat, card, space...). */
typedef struct es_obs_slice {
    const char *name;
    int offset, dim0, dim1;
} es_obs_slice;

typedef struct es_game es_game;

/* The interface every game implements. */
typedef struct es_game_def {
    const char *name;
    int min_players, max_players;
    size_t state_size;        /* bytes */
    int max_moves;            /* upper bound on legal_moves() */
    int max_chance_outcomes;  /* upper bound on chance_outcomes() */
    int n_options;            /* length of the int32 option array */
    const int32_t *default_options;

    /* Build g->data from the data table and g->options; ES_OK or ES_ERR_ARG with a message.
     * A message about the data table starts with "<name> data: " and names the entry and the
     * field of the data file at fault (es_game_new passes it on): the data file is checked
     * when it is loaded, but some checks need the player count or the engine's limits. */
    int (*setup)(es_game *g, const int32_t *table, size_t table_len, char *err, size_t errlen);
    void (*teardown)(es_game *g);   /* NULL: free(g->data) */
    int (*observation_size)(const es_game *g);

    void (*init)(const es_game *g, void *s);
    int (*current_player)(const es_game *g, const void *s);
    int (*legal_moves)(const es_game *g, const void *s, es_move *out);
    /* Optional, for random playouts: the move legal_moves would list at index
     * es_rng_below(rng, n) (drawn once, exactly so), without writing the list; n into
     * *count (0: no legal move). *count < 0 (rng untouched): no shortcut for this state, the
     * caller builds the list and indexes it, as it does when the hook is NULL. */
    es_move (*random_move)(const es_game *g, const void *s, es_rng *rng, int *count);
    int (*chance_outcomes)(const es_game *g, const void *s, es_move *out, double *prob);
    es_move (*sample_chance)(const es_game *g, const void *s, es_rng *rng);
    void (*apply)(const es_game *g, void *s, es_move m);   /* unchecked: m must be legal */
    void (*scores)(const es_game *g, const void *s, double *out);
    void (*returns)(const es_game *g, const void *s, double *out);
    void (*determinize)(const es_game *g, void *s, int observer, es_rng *rng);
    /* ES_OK if s is a state this game can reach, else ES_ERR_FORMAT with a message. */
    int (*validate)(const es_game *g, const void *s, char *err, size_t errlen);
    void (*observe)(const es_game *g, const void *s, int player, float *out);
    int (*move_to_str)(const es_game *g, const void *s, es_move m, char *buf, size_t cap);
    int (*render)(const es_game *g, const void *s, char *buf, size_t cap);
    /* The state as `viewer` sees it (hidden cards and others' pending choices blanked), in
     * the same layout; NULL for games without hidden information. */
    void (*redact)(const es_game *g, const void *s, int viewer, void *out);
    /* What `viewer` sees of move m made in s: moves viewer cannot tell apart map to one id
     * (an opponent's hidden choice, a card drawn face down). NULL: every move is public. */
    es_move (*move_view)(const es_game *g, const void *s, es_move m, int viewer);
    /* A static estimate of each player's final score (higher is better), from what is on the
     * table; for heuristic play, depth-limited search and move ordering. NULL: scores(). */
    void (*evaluate)(const es_game *g, const void *s, double *out);
    /* The text of `view` (a redacted state, see redact) for its viewer; `real` is the state it
     * was made from, for public counts the view has lost (hand sizes, draw pile size). NULL:
     * render(view). A game whose render of a redacted view is complete needs none. */
    int (*render_view)(const es_game *g, const void *view, const void *real, char *buf, size_t cap);

    const es_field_desc *fields;
    int n_fields;

    /* The dense action space (see es_move_kind): every decision move id legal_moves can list
     * must match one kind, exactly. NULL / 0: the game has no dense action space, and
     * es_num_actions returns ES_ERR_ARG. */
    int move_type_bits;
    const es_move_kind *move_kinds;
    int n_move_kinds;
    /* Names observe()'s vector: writes the slices in order into out (at most cap) and returns
     * how many. The slices are contiguous from offset 0 and end at observation_size(g).
     * NULL: the layout is undocumented (es_observation_layout returns ES_ERR_ARG). */
    int (*observation_layout)(const es_game *g, es_obs_slice *out, int cap);
    /* Rebuild the ES_K_DERIVED fields of s from its other fields. Must be safe on any bytes
     * (it runs before validation: range-check every index). NULL: the game has none. */
    void (*derive)(const es_game *g, void *s);
    /* Optional, for a cheap checked apply: 1 if m is in the list legal_moves (at a decision
     * node) or chance_outcomes (at a chance node) would write for s, else 0; 0 at a terminal
     * node. Exactly that membership, for any 32-bit m (decode and range-check before use),
     * without building the list. NULL: es_is_legal builds the list. */
    int (*is_legal)(const es_game *g, const void *s, es_move m);
    /* Optional, for fast random playouts: play on from s exactly as es_random_play's own loop
     * would (at a decision es_random_move, at a chance node sample_chance, both from rng, then
     * apply), leaving s, rng and the counts as that loop leaves them. Stop at a terminal state,
     * after max_steps steps (decisions and chance events; >= 1), after max_decisions decisions
     * (>= 1), or at a decision without a move (then return ES_ERR_LIMIT; otherwise ES_OK). Adds
     * the decisions and chance events made to *decisions and *chance (never NULL). In one loop
     * inside the game, the common steps need no calls through this table, and a node's moves
     * can be counted once instead of once to find forced moves and again to draw one. NULL:
     * es_random_play runs its loop over the other hooks. */
    int (*random_play)(const es_game *g, void *s, es_rng *rng, int64_t max_steps, int64_t max_decisions,
                       int64_t *decisions, int64_t *chance);
} es_game_def;

struct es_game {
    const es_game_def *def;
    int players;
    int32_t options[16];
    uint64_t data_fingerprint;   /* hash of the data table: states of other data are foreign */
    void *data;                  /* game-specific tables, built by setup() */
    /* state_size bytes, 0xFF where no reflected field lies (struct padding, unused tail):
     * es_validate requires those bytes to be zero, so that a state has one byte form. */
    uint8_t *unreflected;
};

/* ---- registry and game instances ---- */
int es_abi_version(void);
/* 1 if the core picks the k-th member of a set (a card drawn, a move of a random playout) with
 * BMI2's pdep instruction on this CPU; 0 if with portable code: no BMI2, a CPU that microcodes
 * pdep (AMD before Zen 3), or the environment variable EUROSEARCH_PORTABLE set when the library
 * was loaded. Both ways give the same results. */
int es_uses_pdep(void);
int es_game_count(void);
const es_game_def *es_game_def_at(int i);
const es_game_def *es_find_game(const char *name);

/* Create a game instance. options may be NULL (defaults) or n_options long. Returns NULL and
 * writes a message into err on failure. */
es_game *es_game_new(const char *name, int players, const int32_t *table, size_t table_len,
                     const int32_t *options, size_t n_options, char *err, size_t errlen);
void es_game_free(es_game *g);

size_t es_state_size(const es_game *g);
int es_max_moves(const es_game *g);
int es_max_chance_outcomes(const es_game *g);
int es_observation_size(const es_game *g);
int es_players(const es_game *g);

/* ---- states ---- */
void es_init(const es_game *g, void *s);
int es_current_player(const es_game *g, const void *s);
/* out must hold es_max_moves(g) entries. Returns the count (0 at chance or terminal nodes). */
int es_legal_moves(const es_game *g, const void *s, es_move *out);
/* out/prob must hold es_max_chance_outcomes(g) entries. Returns the count (0 unless chance). */
int es_chance_outcomes(const es_game *g, const void *s, es_move *out, double *prob);
/* 1 if m is a legal move (decision node) or a possible outcome (chance node) of s, else 0:
 * membership in es_legal_moves / es_chance_outcomes, by the game's is_legal hook when it has one. */
int es_is_legal(const es_game *g, const void *s, es_move m);
/* Checked apply: ES_OK, or ES_ERR_ILLEGAL leaving s unchanged. */
int es_apply(const es_game *g, void *s, es_move m);
/* Unchecked apply for search code that took m from es_legal_moves/es_chance_outcomes. */
void es_apply_unchecked(const es_game *g, void *s, es_move m);
/* One chance outcome drawn with the exact probabilities (s must be a chance node). */
es_move es_sample_chance(const es_game *g, const void *s, es_rng *rng);
void es_scores(const es_game *g, const void *s, double *out);
void es_returns(const es_game *g, const void *s, double *out);
uint64_t es_hash(const es_game *g, const void *s);
void es_clone(const es_game *g, void *dst, const void *src);
/* Resample what `observer` cannot see, consistently with what they saw. */
int es_determinize(const es_game *g, void *s, int observer, es_rng *rng);
int es_observe(const es_game *g, const void *s, int player, float *out);
int es_move_to_str(const es_game *g, const void *s, es_move m, char *buf, size_t cap);
/* Parse a move (or chance outcome) written as es_move_to_str writes it; ES_ERR_ILLEGAL if no
 * legal move of s has that text. */
int es_str_to_move(const es_game *g, const void *s, const char *text, es_move *out);
int es_render(const es_game *g, const void *s, char *buf, size_t cap);
/* What `viewer` may see of s, written into out (same size); ES_ERR_ARG for a bad viewer. */
int es_redact(const es_game *g, const void *s, int viewer, void *out);
/* The text of what `viewer` may see of s (render of the redacted state); ES_ERR_ARG for a bad
 * viewer. es_render shows everything: for a game with hidden information, the omniscient view. */
int es_render_view(const es_game *g, const void *s, int viewer, char *buf, size_t cap);
/* 1 if players of this game can hold information others cannot see (the game redacts), else 0. */
int es_has_hidden_information(const es_game *g);
/* What `viewer` sees of move m made in s (es_game_def.move_view): m itself when viewer can
 * tell it from the other choices, else the id all the moves viewer cannot tell apart share.
 * m for a game without the hook; s must be a state where m is legal. */
es_move es_move_view(const es_game *g, const void *s, es_move m, int viewer);

/* ---- serialization ---- */
/* Bytes needed by es_encode. */
size_t es_encoded_size(const es_game *g);
/* Returns the number of bytes written, or ES_ERR_BUFFER. */
int es_encode(const es_game *g, const void *s, uint8_t *buf, size_t cap);
/* ES_OK, or ES_ERR_FORMAT with a message (corrupt, truncated or foreign bytes). */
int es_decode(const es_game *g, const uint8_t *buf, size_t len, void *s, char *err, size_t errlen);
/* Check a raw state blob (as built from the reflection table): ES_OK or ES_ERR_FORMAT. Every
 * byte outside the reflected fields (and of ES_K_PAD fields) must be zero, every value must be
 * of its field's kind (flags 0/1, seats of this game, items and set members named by the data,
 * per-item rows zero past the named entries), then the game's validate() decides. */
int es_validate(const es_game *g, const void *s, char *err, size_t errlen);
/* Rebuild s's ES_K_DERIVED fields from its other fields (nothing for a game without any): for
 * a state written field by field (the JSON form), before es_validate. */
void es_derive(const es_game *g, void *s);
const es_field_desc *es_state_fields(const es_game *g, int *count);
/* The name of entry `item` of field `field`'s name table in this game's data: "" for an unused
 * entry, NULL when the field has no names or an index is out of range. */
const char *es_field_item_name(const es_game *g, int field, int item);

/* ---- dense action space (es_game_def.move_kinds) ---- */
/* The number of distinct actions (a fixed size per game), or ES_ERR_ARG if the game declares
 * no move kinds. */
int64_t es_num_actions(const es_game *g);
/* The action of move m (0 .. es_num_actions - 1), or ES_ERR_ARG if m matches no kind. */
int64_t es_move_to_action(const es_game *g, es_move m);
/* The move id of action a, or ES_ERR_ARG for a out of range. */
es_move es_action_to_move(const es_game *g, int64_t a);
/* mask[0 .. es_num_actions - 1] = 1 for the actions of s's legal moves, else 0. ES_OK, or
 * ES_ERR_ARG (no move kinds, or a legal move matching no kind: a bug in the declaration). */
int es_legal_actions_mask(const es_game *g, const void *s, uint8_t *mask);

/* The slices of es_observe's vector (see es_game_def.observation_layout): their count, or
 * ES_ERR_ARG if the game names none. */
int es_observation_layout(const es_game *g, es_obs_slice *out, int cap);

/* ---- bulk ---- */
/* n uniformly random games from the initial state, entirely in C. scores_out holds
 * n * players doubles; decisions_out (may be NULL) receives the decision count, chance_out
 * (may be NULL) the chance-node count. ES_OK, ES_ERR_LIMIT or ES_ERR_INTERRUPTED. */
int es_random_playouts(const es_game *g, int64_t n, uint64_t seed, double *scores_out,
                       int64_t *decisions_out, int64_t *chance_out);
/* Play one random game on from state s (modified in place). ES_OK, ES_ERR_LIMIT (no end after
 * 2^22 steps, or a decision without moves) or ES_ERR_INTERRUPTED. */
int es_random_playout_from(const es_game *g, void *s, es_rng *rng, int64_t *decisions,
                           int64_t *chance);
/* Random play from s as es_random_playout_from, but stopping after max_decisions decisions
 * (max_decisions < 0: none, to the end), at the node the last of them led to. ES_OK (the end
 * or the decisions reached), ES_ERR_LIMIT or ES_ERR_INTERRUPTED. */
int es_random_play(const es_game *g, void *s, es_rng *rng, int64_t max_decisions, int64_t *decisions,
                   int64_t *chance);
/* What a checked apply costs against an unchecked one: records `n` consecutive nodes of seeded
 * random games with the action random play takes there, then times es_apply_unchecked and
 * es_apply on copies of them (in batches, so the clock's own cost does not count). out[0..3]:
 * nanoseconds per unchecked decision, checked decision, unchecked chance outcome, checked
 * chance outcome (0 where no such node was seen); out[4], out[5]: decision and chance nodes
 * timed. ES_OK, ES_ERR_ARG (n outside 1..1,000,000), ES_ERR_LIMIT (no memory) or
 * ES_ERR_ILLEGAL (a checked apply refused a legal action: a bug in the game's is_legal). */
int es_apply_cost(const es_game *g, int n, uint64_t seed, double out[6]);
/* A uniformly random legal move at decision node s: the one es_legal_moves' list would give at
 * index es_rng_below(rng, n), so random play is the same whether or not the game has a
 * random_move hook; *count receives n (0: no legal move, and the move is meaningless). */
es_move es_random_move(const es_game *g, const void *s, es_rng *rng, int *count);

/* ---- stopping (Ctrl-C) ----
 * A search or playout loop runs in C for as long as its limits say, out of reach of the
 * caller's signal handling. To stop it early: the thread that calls it watches for stop
 * requests (es_watch_stops(1) before the call), and a SIGINT handler calls es_request_stop().
 * es_mcts, es_expectimax and es_random_playouts then return ES_ERR_INTERRUPTED within a few
 * milliseconds (they look where they look at their clock), es_random_playout_from within 4096
 * steps; what they searched so far is lost. A search counts as its caller's thread's even
 * when it runs on a thread of its own (es_expectimax). Searches called by threads that do not
 * watch (the default) are never stopped, so a Ctrl-C aimed at one search leaves the others
 * alone. The Python bindings do this around every long call made from the main thread. */
/* Async-signal-safe. Stops the searches of every thread watching at this moment. */
void es_request_stop(void);
/* on = 1: the calling thread's searches from now on stop at a request made after this call;
 * on = 0: they never stop on a request. Per thread. */
void es_watch_stops(int on);

/* ---- search ---- */
#define ES_SEARCH_MAX_PLAYERS 8

/* A learned evaluation (python/eurosearch/evalmodel.py trains and loads one): player q's logit
 * is weights . observe(s, q) + eval_weight * evaluate(s)[q], and the returns are the softmax of
 * the logits over the players (win chances). `size` must be the game's observation_size and
 * at most ES_EVAL_MAX_FEATURES. The weights are only read. */
typedef struct es_eval_model {
    int size;
    const float *weights;
    double eval_weight;
} es_eval_model;
#define ES_EVAL_MAX_FEATURES 4096

typedef struct es_mcts_config {
    int64_t iterations;     /* stop after this many iterations (0: no limit) */
    double seconds;         /* stop after this much time (0: no limit; one of the two is needed) */
    double exploration;     /* the UCT constant c */
    int information_sets;   /* 0: the state as given (the open mode); 1: single-observer IS-MCTS, a
                               new determinization for the searcher every iteration, one tree keyed
                               by what the searcher sees; 2: multiple-observer IS-MCTS, the same
                               with one tree per player, keyed by what that player sees, in which
                               it chooses its own moves (csrc/core/mcts_mo.c) */
    int64_t max_nodes;      /* tree size bound (0: 4 million nodes) */
    uint64_t seed;
    int rollout_depth;      /* 0: play out to the end; k > 0: k decisions, then the evaluation;
                               -1: no playout, evaluate the new leaf */
    int rollout_policy;     /* 0: uniformly random moves; 1: the greedy heuristic (es_heuristic_move) */
    double eval_scale;      /* evaluation to returns: softmax of scale x estimated score (0: 0.5) */
    double widening;        /* progressive widening (0: off): a decision node visited N times has
                               at most ceil(widening * sqrt(N + 1)) children, and each new child is
                               the best by the game's evaluation of ES_WIDEN_SAMPLE untried moves
                               drawn at random (for games listing thousands of moves) */
    const es_eval_model *eval_model;   /* NULL: a playout cut short ends in the game's evaluation
                                          (softmax with eval_scale); else in this learned one */
    double greedy_share;    /* with rollout_policy 1: each playout decision is greedy with this
                               probability and uniformly random otherwise (0 or 1: always greedy);
                               a mix keeps greedy play's direction with random play's spread */
} es_mcts_config;
#define ES_WIDEN_SAMPLE 8

typedef struct es_search_stats {
    int64_t iterations, nodes;
    double seconds;
    int64_t bytes;   /* the search's largest allocation for its trees (nodes and edge index) */
} es_search_stats;

/* Monte Carlo tree search from s for `player`, who must be to move: UCT with a value per
 * player (max^n), chance sampled by its probabilities, random playouts to the end in C.
 * Writes the root moves with their visit counts and mean return for `player` (at most cap);
 * returns how many, or an ES_ERR_* code (ES_ERR_INTERRUPTED: stopped by es_request_stop, stats
 * still written). */
int es_mcts(const es_game *g, const void *s, int player, const es_mcts_config *cfg, es_move *moves,
            int64_t *visits, double *values, int cap, es_search_stats *stats);

/* Root-parallel MCTS over `worlds` independent trees, run on up to `threads` threads (the
 * calling thread included), merged at the root: a move's visits are summed over the trees
 * and its value is the visit-weighted mean. In the open mode (cfg->information_sets = 0) each
 * tree searches its own determinization of s for `player` (so a game with hidden cards is
 * searched over many possible worlds, never the true hidden cards); in the information-set
 * mode each tree is an IS-MCTS of its own. World i uses a seed derived from cfg->seed and i.
 * Budgets are totals for the whole search: cfg->iterations is split evenly over the worlds
 * (so equal iterations mean equal work whatever `worlds` is); cfg->seconds is the wall time,
 * each thread giving each of its worlds an equal share of what is left. With an iteration
 * budget the result depends on the seed and `worlds` but not on `threads`; with a time
 * budget it depends on the machine's speed. cfg->max_nodes bounds each tree. Returns as
 * es_mcts (the moves ordered by id); ES_ERR_ARG for worlds or threads outside 1..256. */
int es_mcts_ensemble(const es_game *g, const void *s, int player, const es_mcts_config *cfg, int worlds,
                     int threads, es_move *moves, int64_t *visits, double *values, int cap,
                     es_search_stats *stats);

/* Expectimax: decision nodes take the best move for the player to move, chance nodes the
 * exact average over every outcome with its probability. The same search plays (a depth limit,
 * the game's evaluation at the horizon, iterative deepening under a time budget) and solves
 * endgames exactly (no depth limit: every leaf is the end of the game). */
#define ES_OBJECTIVE_WIN 0     /* the chance of winning, ties shared (the game's returns) */
#define ES_OBJECTIVE_SCORE 1   /* final score minus the best opponent's */

typedef struct es_expectimax_config {
    int depth;             /* turns to search (consecutive decisions of one player count once);
                            * 0: no limit (to the end of the game) */
    int iterative;         /* 1: deepen 1, 2, ... up to depth while the budget lasts */
    double seconds;        /* time limit (0: none) */
    int64_t max_nodes;     /* node limit (0: none) */
    int64_t table_bytes;   /* transposition table memory (0: 64 MiB; rounded down to a power of two) */
    int objective;         /* ES_OBJECTIVE_* */
    int paranoid;          /* more than 2 players: 1 = every opponent minimises the searcher's value;
                              0 = max^n (each player maximises its own) */
    int pruning;           /* 1: Star1/Star2 cut-offs at chance nodes (2 players or paranoid; Star2
                              probing for the win objective only); alpha-beta is always on */
    int all_values;        /* 1: every root move's value is exact; 0: only the best one is */
    double eval_scale;     /* horizon value for the win objective: softmax of scale x evaluation */
} es_expectimax_config;

typedef struct es_expectimax_result {
    int complete;    /* the deepest iteration finished within the limits */
    int exact;       /* ... and no leaf was a horizon: the values are the game's exact values */
    int depth;       /* deepest completed depth (turns; 0 when unlimited) */
    es_move best;    /* best move of the deepest completed iteration (first in legal order on ties) */
    int64_t nodes;   /* nodes visited, over all iterations */
    int64_t table_hits;
    int64_t table_bytes;
    double seconds;
} es_expectimax_result;

/* Search s (a decision node) for the player to move. Writes each root move with its value for
 * that player (legal-move order, at most cap) and returns how many; 0 when not even the first
 * iteration finished (res->complete = 0); or an ES_ERR_* code (ES_ERR_LIMIT: no memory for the
 * table, or no thread; ES_ERR_INTERRUPTED: stopped by es_request_stop). The search runs on a
 * thread of its own with an 8 MiB stack, so the caller's stack may be small. */
int es_expectimax(const es_game *g, const void *s, const es_expectimax_config *cfg, es_move *moves,
                  double *values, int cap, es_expectimax_result *res);

/* The game's evaluation (es_game_def.evaluate, or the scores). */
void es_evaluate(const es_game *g, const void *s, double *out);
/* A greedy move for the player to move: the legal move after which that player's evaluation
 * minus the best opponent's is highest (ties broken by rng). 0 unless at a decision. */
es_move es_heuristic_move(const es_game *g, const void *s, es_rng *rng);

/* ---- rng ---- */
void es_rng_seed(es_rng *r, uint64_t seed);
uint64_t es_rng_next(es_rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint32_t es_rng_below(es_rng *r, uint32_t n);

#ifdef __cplusplus
}
#endif
#endif
