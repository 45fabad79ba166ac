/* The generic half of the ABI: game instances, checked apply, serialization, text moves and
 * random playouts, written once over the es_game_def interface. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eurosearch.h"
#include "hash.h"
#include "legal.h"
#include "playloop.h"
#include "rng.h"
#include "search.h"
#include "stop.h"

#define ES_PLAYOUT_STEP_LIMIT (1 << 22)

static int observation_fits(const es_game *g);
static uint8_t *unreflected_mask(const es_game_def *def);

static void set_err(char *err, size_t errlen, const char *msg) {
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

int es_abi_version(void) { return ES_ABI_VERSION; }

es_game *es_game_new(const char *name, int players, const int32_t *table, size_t table_len,
                     const int32_t *options, size_t n_options, char *err, size_t errlen) {
    char msg[256];
    const es_game_def *def = es_find_game(name);
    if (!def) {
        snprintf(msg, sizeof msg, "unknown game '%s'", name ? name : "(null)");
        set_err(err, errlen, msg);
        return NULL;
    }
    if (players < def->min_players || players > def->max_players) {
        snprintf(msg, sizeof msg, "%s takes %d to %d players, got %d", def->name, def->min_players,
                 def->max_players, players);
        set_err(err, errlen, msg);
        return NULL;
    }
    if (options && (int)n_options != def->n_options) {
        snprintf(msg, sizeof msg, "%s takes %d options, got %zu", def->name, def->n_options, n_options);
        set_err(err, errlen, msg);
        return NULL;
    }
    if (def->max_moves > ES_STACK_MOVES || def->max_chance_outcomes > ES_STACK_MOVES ||
        def->n_options > 16 || def->state_size % 8 != 0 || def->state_size > ES_MAX_STATE_BYTES) {
        set_err(err, errlen, "game definition exceeds the core's limits");
        return NULL;
    }
    es_game *g = (es_game *)calloc(1, sizeof *g);
    if (!g) {
        set_err(err, errlen, "out of memory");
        return NULL;
    }
    g->unreflected = unreflected_mask(def);
    if (!g->unreflected) {
        set_err(err, errlen, "internal error: the reflection table does not fit the state");
        free(g);
        return NULL;
    }
    g->def = def;
    g->players = players;
    for (int i = 0; i < def->n_options; i++)
        g->options[i] = options ? options[i] : def->default_options[i];
    uint64_t h = es_hash_bytes(table, table_len * sizeof(int32_t), 0x5EEDull);
    g->data_fingerprint = es_hash_bytes(g->options, sizeof g->options, h);
    if (def->setup(g, table, table_len, err, errlen) != ES_OK) {
        free(g->unreflected);
        free(g);
        return NULL;
    }
    if (!observation_fits(g)) {
        set_err(err, errlen, "internal error: the observation is longer than observation_size");
        es_game_free(g);
        return NULL;
    }
    return g;
}

/* A game's observe() must write at most observation_size floats: check it once, with a
 * canary past the end, on the initial state. */
static int observation_fits(const es_game *g) {
    int n = g->def->observation_size(g), ok = 1;
    float *buf = (float *)malloc(sizeof(float) * (size_t)(n + 64));
    uint64_t s[ES_MAX_STATE_BYTES / 8];
    if (!buf) return 0;
    for (int i = 0; i < n + 64; i++) buf[i] = -12345.0f;
    es_init(g, s);
    g->def->observe(g, s, 0, buf);
    for (int i = n; i < n + 64; i++) ok &= buf[i] == -12345.0f;
    free(buf);
    return ok;
}

void es_game_free(es_game *g) {
    if (!g) return;
    if (g->def->teardown)
        g->def->teardown(g);
    else
        free(g->data);   /* the usual case: one block of tables built by setup() */
    free(g->unreflected);
    free(g);
}

static size_t field_type_bytes(uint8_t type) {
    switch (type) {
    case ES_U8: case ES_I8: return 1;
    case ES_U16: return 2;
    case ES_U32: return 4;
    case ES_U64: return 8;
    default: return 0;
    }
}

/* A field's kind fits its type and has a name table exactly when it needs one; a derived
 * field needs the game's derive hook. */
static int field_kind_ok(const es_game_def *def, const es_field_desc *f) {
    int named = f->kind == ES_K_ITEM || f->kind == ES_K_ITEMSET || f->kind == ES_K_ITEMSET_ROW ||
                f->kind == ES_K_PER_ITEM;
    int rows = f->kind == ES_K_ITEMSET_ROW || f->kind == ES_K_PER_ITEM;   /* take the last dimension */
    int is_set = f->kind == ES_K_SEATSET || f->kind == ES_K_ITEMSET || f->kind == ES_K_ITEMSET_ROW;
    if (f->kind > ES_K_DERIVED || named != (f->names != NULL)) return 0;
    if (f->kind == ES_K_DERIVED && !def->derive) return 0;
    if (named && (f->names->count == 0 || f->names->stride == 0)) return 0;
    if (is_set && f->type == ES_I8) return 0;
    if (rows && f->dim0 == 1 && f->dim1 == 0) return 0;   /* a row needs an array */
    return 1;
}

/* The state bytes no reflected field covers (0xFF each), or NULL when a field has an unknown
 * type or kind, lies outside the state or overlaps another: one byte would then have two
 * meanings. ES_K_PAD fields are reflected (they cover their bytes) but must stay zero, so
 * their bytes count as unreflected in the mask. */
static uint8_t *unreflected_mask(const es_game_def *def) {
    uint8_t *mask = (uint8_t *)malloc(def->state_size ? def->state_size : 1);
    if (!mask) return NULL;
    memset(mask, 0xFF, def->state_size);
    for (int i = 0; i < def->n_fields; i++) {
        const es_field_desc *f = &def->fields[i];
        size_t bytes = field_type_bytes(f->type) * f->dim0 * (f->dim1 ? f->dim1 : 1);
        int ok = bytes > 0 && f->offset + bytes <= def->state_size && field_kind_ok(def, f);
        for (size_t b = 0; ok && b < bytes; b++) ok = mask[f->offset + b] == 0xFF;
        if (!ok) {
            free(mask);
            return NULL;
        }
        memset(mask + f->offset, 0, bytes);
    }
    for (int i = 0; i < def->n_fields; i++) {
        const es_field_desc *f = &def->fields[i];
        if (f->kind == ES_K_PAD)
            memset(mask + f->offset, 0xFF, field_type_bytes(f->type) * f->dim0 * (f->dim1 ? f->dim1 : 1));
    }
    return mask;
}

size_t es_state_size(const es_game *g) { return g->def->state_size; }
int es_max_moves(const es_game *g) { return g->def->max_moves; }
int es_max_chance_outcomes(const es_game *g) { return g->def->max_chance_outcomes; }
int es_observation_size(const es_game *g) { return g->def->observation_size(g); }
int es_players(const es_game *g) { return g->players; }

void es_init(const es_game *g, void *s) {
    memset(s, 0, g->def->state_size);
    g->def->init(g, s);
}

int es_current_player(const es_game *g, const void *s) { return g->def->current_player(g, s); }

int es_legal_moves(const es_game *g, const void *s, es_move *out) {
    if (g->def->current_player(g, s) < 0) return 0;
    return g->def->legal_moves(g, s, out);
}

es_move es_random_move(const es_game *g, const void *s, es_rng *rng, int *count) {
    const es_game_def *d = g->def;
    if (d->random_move) {
        es_move m = d->random_move(g, s, rng, count);
        if (*count >= 0) return m;
    }
    es_move moves[ES_STACK_MOVES];
    int n = *count = d->legal_moves(g, s, moves);
    return n > 0 ? moves[es_rng_u32_below(rng, (uint32_t)n)] : 0;
}

int es_chance_outcomes(const es_game *g, const void *s, es_move *out, double *prob) {
    if (g->def->current_player(g, s) != ES_CHANCE) return 0;
    return g->def->chance_outcomes(g, s, out, prob);
}

/* A move is applied only if it is in the list the game itself generates here: without an
 * is_legal hook, build the list (its buffers, 100 KB of stack, live in this function only, so
 * that a hook's checked apply does not pay for them). */
static __attribute__((noinline)) int listed_here(const es_game *g, const void *s, es_move m) {
    es_move moves[ES_STACK_MOVES];
    double prob[ES_STACK_MOVES];
    int cp = g->def->current_player(g, s), n;
    if (cp == ES_TERMINAL) return 0;
    n = cp == ES_CHANCE ? g->def->chance_outcomes(g, s, moves, prob) : g->def->legal_moves(g, s, moves);
    return es_moves_have(moves, n, m);
}

static inline int is_legal_here(const es_game *g, const void *s, es_move m) {
    return g->def->is_legal ? g->def->is_legal(g, s, m) != 0 : listed_here(g, s, m);
}

int es_is_legal(const es_game *g, const void *s, es_move m) { return is_legal_here(g, s, m); }

int es_apply(const es_game *g, void *s, es_move m) {
    if (!is_legal_here(g, s, m)) return ES_ERR_ILLEGAL;
    g->def->apply(g, s, m);
    return ES_OK;
}

void es_apply_unchecked(const es_game *g, void *s, es_move m) { g->def->apply(g, s, m); }

es_move es_sample_chance(const es_game *g, const void *s, es_rng *rng) {
    if (g->def->current_player(g, s) != ES_CHANCE) return 0;
    return g->def->sample_chance(g, s, rng);
}

void es_scores(const es_game *g, const void *s, double *out) { g->def->scores(g, s, out); }
void es_returns(const es_game *g, const void *s, double *out) { g->def->returns(g, s, out); }

uint64_t es_hash(const es_game *g, const void *s) {
    return es_hash_bytes(s, g->def->state_size, g->data_fingerprint);
}

void es_clone(const es_game *g, void *dst, const void *src) { memcpy(dst, src, g->def->state_size); }

int es_determinize(const es_game *g, void *s, int observer, es_rng *rng) {
    if (observer < 0 || observer >= g->players) return ES_ERR_ARG;
    g->def->determinize(g, s, observer, rng);
    return ES_OK;
}

int es_observe(const es_game *g, const void *s, int player, float *out) {
    if (player < 0 || player >= g->players) return ES_ERR_ARG;
    g->def->observe(g, s, player, out);
    return ES_OK;
}

int es_move_to_str(const es_game *g, const void *s, es_move m, char *buf, size_t cap) {
    return g->def->move_to_str(g, s, m, buf, cap);
}

/* Lower-case with runs of white space folded to one space, trimmed. */
static void normalize(const char *in, char *out, size_t cap) {
    size_t n = 0;
    int space = 1;
    for (; *in && n + 1 < cap; in++) {
        unsigned char c = (unsigned char)*in;
        if (isspace(c)) {
            if (!space) out[n++] = ' ';
            space = 1;
        } else {
            out[n++] = (char)tolower(c);
            space = 0;
        }
    }
    if (n && out[n - 1] == ' ') n--;
    out[n] = 0;
}

int es_str_to_move(const es_game *g, const void *s, const char *text, es_move *out) {
    es_move moves[ES_STACK_MOVES];
    double prob[ES_STACK_MOVES];
    char want[256], buf[256], got[256];
    int cp = g->def->current_player(g, s), n;
    if (cp == ES_TERMINAL || !text) return ES_ERR_ILLEGAL;
    n = cp == ES_CHANCE ? g->def->chance_outcomes(g, s, moves, prob) : g->def->legal_moves(g, s, moves);
    normalize(text, want, sizeof want);
    for (int i = 0; i < n; i++) {
        g->def->move_to_str(g, s, moves[i], buf, sizeof buf);
        normalize(buf, got, sizeof got);
        if (strcmp(want, got) == 0) {
            *out = moves[i];
            return ES_OK;
        }
    }
    return ES_ERR_ILLEGAL;
}

int es_redact(const es_game *g, const void *s, int viewer, void *out) {
    if (viewer < 0 || viewer >= g->players) return ES_ERR_ARG;
    if (g->def->redact)
        g->def->redact(g, s, viewer, out);
    else
        memcpy(out, s, g->def->state_size);
    return ES_OK;
}

int es_render(const es_game *g, const void *s, char *buf, size_t cap) {
    return g->def->render(g, s, buf, cap);
}

int es_render_view(const es_game *g, const void *s, int viewer, char *buf, size_t cap) {
    uint64_t view[ES_MAX_STATE_BYTES / 8];   /* aligned like any state struct */
    if (es_redact(g, s, viewer, view) != ES_OK) return ES_ERR_ARG;
    if (g->def->render_view) return g->def->render_view(g, view, s, buf, cap);
    return g->def->render(g, view, buf, cap);
}

int es_has_hidden_information(const es_game *g) { return g->def->redact != NULL; }

es_move es_move_view(const es_game *g, const void *s, es_move m, int viewer) {
    if (!g->def->move_view || viewer < 0 || viewer >= g->players) return m;
    return g->def->move_view(g, s, m, viewer);
}

/* ---- serialization: header, raw state, checksum ---- */

#define ES_HEADER 24
static const unsigned char magic[4] = {'E', 'S', 'S', '1'};

static uint32_t name_tag(const char *name) {
    uint32_t h = 2166136261u;
    for (; *name; name++) h = (h ^ (unsigned char)*name) * 16777619u;
    return h;
}

size_t es_encoded_size(const es_game *g) { return ES_HEADER + g->def->state_size + 8; }

int es_encode(const es_game *g, const void *s, uint8_t *buf, size_t cap) {
    size_t size = g->def->state_size, total = es_encoded_size(g);
    if (cap < total) return ES_ERR_BUFFER;
    uint32_t tag = name_tag(g->def->name), sz = (uint32_t)size;
    memcpy(buf, magic, 4);
    memcpy(buf + 4, &tag, 4);
    buf[8] = (uint8_t)g->players;
    buf[9] = buf[10] = buf[11] = 0;
    memcpy(buf + 12, &sz, 4);
    memcpy(buf + 16, &g->data_fingerprint, 8);
    memcpy(buf + ES_HEADER, s, size);
    uint64_t sum = es_hash_bytes(buf, ES_HEADER + size, 0xC0FFEEull);
    memcpy(buf + ES_HEADER + size, &sum, 8);
    return (int)total;
}

/* Element k of field f in state s, sign-extended for ES_I8. */
static int64_t field_value(const es_field_desc *f, const uint8_t *s, size_t k) {
    const uint8_t *p = s + f->offset + k * field_type_bytes(f->type);
    switch (f->type) {
    case ES_U8: return *p;
    case ES_I8: return (int8_t)*p;
    case ES_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case ES_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return (int64_t)v; }
    }
}

/* Entry i of f's name table is a name of this game's data. */
static int named(const es_game *g, const es_field_desc *f, uint64_t i) {
    const char *name = i < f->names->count ? es_field_item_name(g, (int)(f - g->def->fields), (int)i) : NULL;
    return name && name[0];
}

/* Every value means what its field's kind declares (eurosearch.h, es_field_kind): flags are 0 or
 * 1, seats are seats of this game, items and set members are named entries, per-item rows are
 * zero past the named entries. The JSON form can then write every valid state. */
static int check_kinds(const es_game *g, const uint8_t *s, char *err, size_t errlen) {
    char msg[200];
    for (int i = 0; i < g->def->n_fields; i++) {
        const es_field_desc *f = &g->def->fields[i];
        size_t n = (size_t)f->dim0 * (f->dim1 ? f->dim1 : 1);
        size_t row = f->kind == ES_K_ITEMSET_ROW || f->kind == ES_K_PER_ITEM ? (f->dim1 ? f->dim1 : f->dim0) : 1;
        int bits = 8 * (int)field_type_bytes(f->type);
        uint64_t all = bits == 64 ? ~0ull : (1ull << bits) - 1;
        int64_t none = f->type == ES_I8 ? -1 : (int64_t)all;
        for (size_t k = 0; k < n; k++) {
            int64_t v = field_value(f, s, k);
            uint64_t u = (uint64_t)v & all;
            const char *bad = NULL;
            switch (f->kind) {
            case ES_K_BOOL: if (v != 0 && v != 1) bad = "is not 0 or 1 (a flag)"; break;
            case ES_K_SEAT: if (v != none && (v < 0 || v >= g->players)) bad = "is not a seat of this game"; break;
            case ES_K_SEATSET: if (g->players < 64 && (u >> g->players)) bad = "holds a seat this game does not have"; break;
            case ES_K_ITEM: if (v != none && (v < 0 || !named(g, f, (uint64_t)v))) bad = "is not an entry of the data"; break;
            case ES_K_ITEMSET:
            case ES_K_ITEMSET_ROW:
                for (uint64_t x = u; x && !bad; x &= x - 1)
                    if (!named(g, f, (k % row) * (uint64_t)bits + (uint64_t)__builtin_ctzll(x))) bad = "holds an entry the data does not have";
                break;
            case ES_K_PER_ITEM: if (v != 0 && !named(g, f, k % row)) bad = "is not zero past the data's entries"; break;
            default: break;
            }
            if (bad) {
                snprintf(msg, sizeof msg, "field '%s' element %zu (%lld) %s", f->name, k, (long long)v, bad);
                set_err(err, errlen, msg);
                return ES_ERR_FORMAT;
            }
        }
    }
    return ES_OK;
}

int es_validate(const es_game *g, const void *s, char *err, size_t errlen) {
    /* One byte form per state: padding and unused tail bytes are zero, as es_init leaves
     * them; otherwise equal states would compare and hash differently. */
    const uint8_t *bytes = (const uint8_t *)s;
    for (size_t i = 0; i < g->def->state_size; i++) {
        if (bytes[i] & g->unreflected[i]) {
            char msg[120];
            snprintf(msg, sizeof msg, "byte %zu of the state is outside every field and not zero", i);
            set_err(err, errlen, msg);
            return ES_ERR_FORMAT;
        }
    }
    if (check_kinds(g, bytes, err, errlen) != ES_OK) return ES_ERR_FORMAT;
    if (g->def->validate(g, s, err, errlen) != ES_OK) return ES_ERR_FORMAT;
    /* Every node a state can be in must offer something to do. */
    es_move moves[ES_STACK_MOVES];
    double prob[ES_STACK_MOVES];
    int cp = g->def->current_player(g, s);
    if (cp >= 0 && g->def->legal_moves(g, s, moves) <= 0) {
        set_err(err, errlen, "decision node without legal moves");
        return ES_ERR_FORMAT;
    }
    if (cp == ES_CHANCE) {
        int n = g->def->chance_outcomes(g, s, moves, prob);
        double total = 0;
        for (int i = 0; i < n; i++) total += prob[i];
        if (n <= 0 || total < 1 - 1e-9 || total > 1 + 1e-9) {
            set_err(err, errlen, "chance node without a probability distribution");
            return ES_ERR_FORMAT;
        }
    }
    return ES_OK;
}

int es_decode(const es_game *g, const uint8_t *buf, size_t len, void *s, char *err, size_t errlen) {
    char msg[200];
    size_t size = g->def->state_size, total = es_encoded_size(g);
    uint32_t tag, sz;
    uint64_t fp, sum;
    if (len < ES_HEADER || memcmp(buf, magic, 4) != 0) {
        set_err(err, errlen, "not a eurosearch state (bad magic)");
        return ES_ERR_FORMAT;
    }
    memcpy(&tag, buf + 4, 4);
    if (tag != name_tag(g->def->name)) {
        snprintf(msg, sizeof msg, "a state of another game, not %s", g->def->name);
        set_err(err, errlen, msg);
        return ES_ERR_FORMAT;
    }
    if (buf[8] != g->players) {
        snprintf(msg, sizeof msg, "a %d-player state, this game has %d players", buf[8], g->players);
        set_err(err, errlen, msg);
        return ES_ERR_FORMAT;
    }
    memcpy(&sz, buf + 12, 4);
    if (sz != size || len != total) {
        snprintf(msg, sizeof msg, "expected %zu bytes, got %zu (truncated or padded)", total, len);
        set_err(err, errlen, msg);
        return ES_ERR_FORMAT;
    }
    memcpy(&fp, buf + 16, 8);
    if (fp != g->data_fingerprint) {
        set_err(err, errlen, "the state was made with other game data or options");
        return ES_ERR_FORMAT;
    }
    memcpy(&sum, buf + ES_HEADER + size, 8);
    if (sum != es_hash_bytes(buf, ES_HEADER + size, 0xC0FFEEull)) {
        set_err(err, errlen, "checksum mismatch (corrupt bytes)");
        return ES_ERR_FORMAT;
    }
    /* validate a copy so that s is only written when the bytes are good */
    uint64_t tmp[ES_MAX_STATE_BYTES / 8];   /* aligned like any state struct */
    memcpy(tmp, buf + ES_HEADER, size);
    if (es_validate(g, tmp, err, errlen) != ES_OK) return ES_ERR_FORMAT;
    memcpy(s, tmp, size);
    return ES_OK;
}

void es_derive(const es_game *g, void *s) {
    if (g->def->derive) g->def->derive(g, s);
}

const es_field_desc *es_state_fields(const es_game *g, int *count) {
    if (count) *count = g->def->n_fields;
    return g->def->fields;
}

const char *es_field_item_name(const es_game *g, int field, int item) {
    if (field < 0 || field >= g->def->n_fields) return NULL;
    const es_name_table *t = g->def->fields[field].names;
    if (!t || item < 0 || (uint32_t)item >= t->count || !g->data) return NULL;
    return (const char *)g->data + t->offset + (size_t)item * t->stride;
}

/* ---- random playouts ---- */

/* es_play_loop over the table's hooks: the random play of a game without a random_play hook
 * (es_random_move draws from the list where the game has no random_move). */
static int table_random_play(const es_game *g, void *s, es_rng *rng, int64_t max_steps, int64_t max_decisions,
                             int64_t *decisions, int64_t *chance) {
    const es_game_def *d = g->def;
    return es_play_loop(g, s, rng, max_steps, max_decisions, decisions, chance, d->current_player, es_random_move,
                        d->sample_chance, d->apply);
}

/* Random play on from s until the end, or until `max_decisions` decisions (< 0: no limit), in
 * rounds of 4096 steps with a look for a stop request between them. The counts are added to
 * *decisions and *chance (either may be NULL). */
static int playout(const es_game *g, void *s, es_rng *rng, int64_t max_decisions, int64_t *decisions,
                   int64_t *chance, const es_stop *stop) {
    const es_game_def *d = g->def;
    int (*play)(const es_game *, void *, es_rng *, int64_t, int64_t, int64_t *, int64_t *) =
        d->random_play ? d->random_play : table_random_play;
    int64_t dec = 0, ch = 0, limit = max_decisions < 0 ? INT64_MAX : max_decisions;
    int rc = ES_ERR_LIMIT;
    for (int64_t steps = 0; steps < ES_PLAYOUT_STEP_LIMIT;) {
        if (dec >= limit || d->current_player(g, s) == ES_TERMINAL) {
            rc = ES_OK;
            break;
        }
        if (steps && es_stop_requested(stop)) {
            rc = ES_ERR_INTERRUPTED;
            break;
        }
        int64_t before = dec + ch, round = ES_PLAYOUT_STEP_LIMIT - steps < 4096 ? ES_PLAYOUT_STEP_LIMIT - steps : 4096;
        rc = play(g, s, rng, round, limit - dec, &dec, &ch);
        if (rc != ES_OK) break;
        rc = ES_ERR_LIMIT;
        steps += dec + ch - before;
    }
    if (decisions) *decisions += dec;
    if (chance) *chance += ch;
    return rc;
}

int es_random_playout_from(const es_game *g, void *s, es_rng *rng, int64_t *decisions,
                           int64_t *chance) {
    return es_random_play(g, s, rng, -1, decisions, chance);
}

int es_random_play(const es_game *g, void *s, es_rng *rng, int64_t max_decisions, int64_t *decisions,
                   int64_t *chance) {
    es_stop stop = es_stop_begin();
    return playout(g, s, rng, max_decisions, decisions, chance, &stop);
}

int es_random_playouts(const es_game *g, int64_t n, uint64_t seed, double *scores_out,
                       int64_t *decisions_out, int64_t *chance_out) {
    uint64_t s[ES_MAX_STATE_BYTES / 8];
    es_rng rng;
    es_stop stop = es_stop_begin();
    int64_t dec = 0, ch = 0;
    es_rng_seed(&rng, seed);
    for (int64_t i = 0; i < n; i++) {
        if (es_stop_requested(&stop)) return ES_ERR_INTERRUPTED;
        es_init(g, s);
        int rc = playout(g, s, &rng, -1, &dec, &ch, &stop);
        if (rc != ES_OK) return rc;
        if (scores_out) g->def->scores(g, s, scores_out + i * g->players);
    }
    if (decisions_out) *decisions_out = dec;
    if (chance_out) *chance_out = ch;
    return ES_OK;
}

/* ---- evaluation and greedy play ---- */

void es_evaluate(const es_game *g, const void *s, double *out) {
    if (g->def->evaluate)
        g->def->evaluate(g, s, out);
    else
        g->def->scores(g, s, out);
}

es_move es_heuristic_move(const es_game *g, const void *s, es_rng *rng) {
    es_move moves[ES_STACK_MOVES];
    uint64_t t[ES_MAX_STATE_BYTES / 8];
    double v[16], best = -1e300;
    int p = g->def->current_player(g, s), n, ties = 0;
    if (p < 0) return 0;
    n = g->def->legal_moves(g, s, moves);
    es_move choice = n ? moves[0] : 0;
    for (int i = 0; i < n; i++) {
        memcpy(t, s, g->def->state_size);
        g->def->apply(g, t, moves[i]);
        es_evaluate(g, t, v);
        double m = es_score_margin(g->players, v, p);
        if (m > best + 1e-9) {
            best = m;
            choice = moves[i];
            ties = 1;
        } else if (m > best - 1e-9 && es_rng_u32_below(rng, (uint32_t)++ties) == 0) {
            choice = moves[i];   /* reservoir choice among equal moves */
        }
    }
    return choice;
}
