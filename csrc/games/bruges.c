/* Bruges engine: flow, legal moves, chance nodes, scoring, determinization, validation.
 * Contract: docs/bruges_engine.md. Work in progress (see bruges.h). */
#include "bruges.h"

#include <stdlib.h>
#include <string.h>

#include "../core/bitset.h"
#include "../core/legal.h"
#include "../core/obslayout.h"
#include "../core/playloop.h"
#include "../core/rng.h"

#define D(g) ((const bruges_data *)(g)->data)
#define MV(type, arg) ((es_move)((type) | ((arg) << 4)))
#define MV_TYPE(m) ((m) & 15)
#define MV_ARG(m) ((m) >> 4)

/* ---------------------------------------------------------------------------- data */

static int br_setup(es_game *g, const int32_t *t, size_t len, char *err, size_t errlen) {
    if (len < BR_TAB_CARDS + BR_CARDS * (BR_TAB_CARD + ES_NAME_INTS))
        return es_setup_error(err, errlen, "bruges data: table too short (%zu ints)", len);
    if (t[0] != BR_TABLE_VERSION || t[1] != BR_CARDS)
        return es_setup_error(err, errlen, "bruges data: table version %d / %d cards not supported",
                              (int)t[0], (int)t[1]);
    bruges_data *d = calloc(1, sizeof *d);
    if (!d) return es_setup_error(err, errlen, "bruges: out of memory");
    d->start_score = t[2];
    d->start_money = t[3];
    d->start_workers = t[4];
    d->hand_size = t[5];
    for (int c = 0; c < BR_NCOL; c++) d->disaster[c] = (uint8_t)t[6 + c];
    for (int i = 0; i < BR_SPACES; i++) d->canal_cost[i] = (uint8_t)t[11 + i];
    for (int p = 0; p < BR_MAXP; p++)
        for (int s = 0; s < 2; s++)
            for (int i = 0; i < BR_SPACES; i++) d->canal_colour[p][s][i] = (uint8_t)t[16 + p * 10 + s * 5 + i];
    d->rep_positions = t[56];
    for (int i = 0; i < BR_MAX_REP; i++) d->rep_vp[i] = (uint8_t)t[57 + i];
    d->n_statues = t[73];
    for (int i = 0; i < BR_MAX_STATUES; i++) d->statue[i] = (uint8_t)t[74 + i];
    const int32_t *c = t + BR_TAB_CARDS;
    for (int k = 0; k < BR_CARDS; k++, c += BR_TAB_CARD) {
        br_card *q = &d->card[k];
        q->colour = (uint8_t)c[0]; q->group = (uint8_t)c[1]; q->cost = (uint8_t)c[2]; q->vp = (uint8_t)c[3];
        q->activation = (uint8_t)c[4]; q->worker = (int8_t)c[5]; q->effect = (uint8_t)c[6];
        q->amount = (uint8_t)c[7]; q->group_param = (int8_t)c[8];
        if (q->colour >= BR_NCOL || q->effect >= BR_NFX || q->activation > BR_A_LAUREL || q->cost > BR_MAX_COST) {
            free(d);
            return es_setup_error(err, errlen, "bruges data: card %d: colour, activation, effect or cost out of range", k);
        }
    }
    for (int k = 0; k < BR_CARDS; k++) {
        es_read_name(c + k * ES_NAME_INTS, d->card[k].id);
        d->colour_set[d->card[k].colour][k >> 6] |= 1ull << (k & 63);
        d->effect_set[d->card[k].effect][k >> 6] |= 1ull << (k & 63);
        const br_card *q = &d->card[k];
        d->colour_of[k] = q->colour;
        d->cost_of[k] = q->cost;
        d->activation_need[k] = q->activation == BR_A_INF1                         ? BR_NEED_NOTHING
                                : q->activation == BR_A_WORKER && q->worker >= 0 ? (uint8_t)q->worker
                                                                                 : BR_NEED_NEVER;
    }
    g->data = d;
    return ES_OK;
}

/* ---------------------------------------------------------------------------- helpers */

/* (start + seat) mod players, without a division: in reachable states both are below the
 * player count, so one subtraction does; the % is only for out-of-range bytes. */
static inline int seat_player(const es_game *g, const br_state *s) {
    int n = g->players, x = s->start + s->seat;
    if (x >= n) x -= n;
    return x < n ? x : x % n;
}

/* Card sets (BR_WORDS words, card c = bit c&63 of word c>>6), built from the zone and owner
 * bytes 16 at a time: the hot paths iterate the cards of one zone and owner, not all 165. */
static inline void set_and(uint64_t *a, const uint64_t *b) {
    for (int w = 0; w < BR_WORDS; w++) a[w] &= b[w];
}
static inline int set_count(const uint64_t *a) {
    int n = 0;
    for (int w = 0; w < BR_WORDS; w++) n += __builtin_popcountll(a[w]);
    return n;
}
static inline int set_empty(const uint64_t *a) {
    uint64_t any = 0;
    for (int w = 0; w < BR_WORDS; w++) any |= a[w];
    return !any;
}
/* The i-th card (from 0, in card order) of a set with more than i cards. */
static inline int set_nth(const uint64_t *a, int i) {
    for (int w = 0; w < BR_WORDS; w++) {
        int n = __builtin_popcountll(a[w]);
        if (i < n) {
            uint64_t x = a[w];
            while (i--) x &= x - 1;
            return (w << 6) + __builtin_ctzll(x);
        }
        i -= n;
    }
    return -1;
}
#define SET_FOREACH(c, set) ES_BITS_FOREACH(c, set, BR_WORDS)

/* The kept set of the cards at (zone z, owner o), or NULL for the discard pile (no set kept). */
static inline uint64_t *card_set(br_state *s, int z, int o) {
    if (z == BR_Z_POOL) return s->pool;
    if (z >= BR_Z_HAND && z <= BR_Z_PERSON && o < BR_MAXP) return s->held[z - BR_Z_HAND][o];
    return NULL;
}
static inline const uint64_t *held(const br_state *s, int z, int p) { return s->held[z - BR_Z_HAND][p]; }

/* Every change of a card's zone or owner goes through here, so the kept sets stay exact. */
static inline void place_card(const es_game *g, br_state *s, int c, int z, int o) {
    uint64_t bit = 1ull << (c & 63), *from = card_set(s, s->zone[c], s->owner[c]), *to;
    int k = D(g)->colour_of[c];
    if (from) from[c >> 6] &= ~bit;
    s->pool_n[k] = (uint8_t)(s->pool_n[k] - (s->zone[c] == BR_Z_POOL) + (z == BR_Z_POOL));
    s->zone[c] = (uint8_t)z;
    s->owner[c] = (uint8_t)o;
    if ((to = card_set(s, z, o))) to[c >> 6] |= bit;
}

/* place_card's hot case, a card of the undecided pool drawn into p's hand, without the
 * generic lookups of both zones' sets. */
static inline void draw_into_hand(const es_game *g, br_state *s, int c, int p) {
    uint64_t bit = 1ull << (c & 63);
    s->pool[c >> 6] &= ~bit;
    s->pool_n[D(g)->colour_of[c]]--;
    s->zone[c] = BR_Z_HAND;
    s->owner[c] = (uint8_t)p;
    s->held[BR_Z_HAND - BR_Z_HAND][p][c >> 6] |= bit;
}

/* The kept sets from the zone and owner bytes (after a state was built field by field, or
 * its cards were redealt). Safe on any bytes: out-of-range zones and owners are skipped. */
static void derive_sets(const es_game *g, br_state *s) {
    memset(s->pool_n, 0, sizeof s->pool_n);
    memset(s->held, 0, sizeof s->held);
    memset(s->pool, 0, sizeof s->pool);
    for (int c = 0; c < BR_CARDS; c++) {
        uint64_t *set = card_set(s, s->zone[c], s->owner[c]);
        if (set) set[c >> 6] |= 1ull << (c & 63);
        s->pool_n[D(g)->card[c].colour] += s->zone[c] == BR_Z_POOL;
    }
}

static void br_derive(const es_game *g, void *sv) { derive_sets(g, (br_state *)sv); }

/* Undecided cards of colour k. */
static inline int pool_count(const br_state *s, int k) { return s->pool_n[k]; }

/* p's hand: the cards in it and, in p's refill, those drawn but not yet revealed. */
static int hand_size(const br_state *s, int p) {
    int n = set_count(held(s, BR_Z_HAND, p));
    if (p == s->cur && (s->phase == BR_PH_DRAW || s->phase == BR_PH_REVEAL))   /* else none pending */
        for (int k = 0; k < BR_NCOL; k++) n += s->pending[p][k];
    return n;
}

/* hand_size of the drawer in phase 1 (s->cur, the phase known): the hand and the drawn cards. */
static inline int refill_hand_size(const br_state *s) {
    int n = set_count(held(s, BR_Z_HAND, s->cur));
    for (int k = 0; k < BR_NCOL; k++) n += s->pending[s->cur][k];
    return n;
}

/* Sum of `amount` over p's placed persons with effect fx (copies add). */
static int placed_amount(const es_game *g, const br_state *s, int p, int fx, int *maxv) {
    uint64_t x[BR_WORDS];
    int sum = 0, mx = 0;
    memcpy(x, held(s, BR_Z_PERSON, p), sizeof x);
    set_and(x, D(g)->effect_set[fx]);
    SET_FOREACH(c, x) {
        sum += D(g)->card[c].amount;
        if (D(g)->card[c].amount > mx) mx = D(g)->card[c].amount;
    }
    if (maxv) *maxv = mx;
    return sum;
}

static int hand_target(const es_game *g, const br_state *s, int p) {
    int mx;
    placed_amount(g, s, p, BR_FX_HAND_TARGET, &mx);   /* the Inventor does not stack */
    return mx > D(g)->hand_size ? mx : D(g)->hand_size;
}

/* A player's hand, houses and persons. */
typedef struct br_sets {
    const uint64_t *hand, *house, *person;
} br_sets;

static void player_sets(const br_state *s, int p, br_sets *o) {
    o->hand = held(s, BR_Z_HAND, p);
    o->house = held(s, BR_Z_HOUSE, p);
    o->person = held(s, BR_Z_PERSON, p);
}

/* The oldest empty house in the sets of a player, or -1. */
static int empty_house_of(const br_state *s, const br_sets *ps) {
    uint64_t houses[BR_WORDS];
    memcpy(houses, ps->house, sizeof houses);
    SET_FOREACH(c, ps->person) houses[s->link[c] >> 6] &= ~(1ull << (s->link[c] & 63));
    int best = -1;
    SET_FOREACH(h, houses)
        if (best < 0 || s->link[h] < s->link[best]) best = h;
    return best;
}

static int empty_house(const br_state *s, int p) {
    br_sets ps;
    player_sets(s, p, &ps);
    return empty_house_of(s, &ps);
}

/* Whether p has an empty house: each person sits on its own house of its owner (the validator
 * checks it), so the empty ones are the houses beyond the persons. */
static inline int has_empty_house(const br_sets *ps) { return set_count(ps->house) > set_count(ps->person); }

static int rep_cost(const br_state *s) {
    int r = 0;
    for (int k = 0; k < BR_NCOL; k++)
        if (s->die[k] <= 2) r += s->die[k];
    return r;
}

#define BR_CHANCE_PHASES (1u << BR_PH_START | 1u << BR_PH_REVEAL | 1u << BR_PH_DICE)
static inline int is_chance(const br_state *s) {
    return ((s->need_card | s->need_top) | (BR_CHANCE_PHASES >> s->phase & 1u)) != 0;   /* no branch */
}

static void discard(const es_game *g, br_state *s, int c) {
    place_card(g, s, c, BR_Z_DISCARD, 0);
    s->link[c] = 0;
    s->flags[c] = BR_F_PUBLIC;
}

/* ---------------------------------------------------------------------------- flow */

static void begin_turn(const es_game *g, br_state *s);

static void phase4(const es_game *g, br_state *s) {
    int n = g->players;
    int val[3][BR_MAXP];
    for (int p = 0; p < n; p++) {
        val[0][p] = s->rep[p];
        val[1][p] = set_count(held(s, BR_Z_PERSON, p));
        val[2][p] = s->canal[p][0] + s->canal[p][1];
    }
    for (int m = 0; m < 3; m++)
        for (int p = 0; p < n; p++) {
            int sole = 1;
            for (int q = 0; q < n; q++)
                if (q != p && val[m][q] >= val[m][p]) sole = 0;
            if (sole) s->markers[p] |= (uint8_t)(1 << m);
        }
    s->start = (uint8_t)((s->start + 1) % n);
    for (int q = 0; q < n; q++)   /* only persons turn */
        SET_FOREACH(c, held(s, BR_Z_PERSON, q)) s->flags[c] &= (uint8_t)~BR_F_ROTATED;
    if (s->final_flag == 1 || s->round >= g->options[BR_OPT_MAX_ROUNDS]) {
        s->phase = BR_PH_OVER;
        return;
    }
    if (s->final_flag == 2) s->final_flag = 1;
    s->round++;
    s->phase = BR_PH_DRAW;
    s->seat = 0;
    s->optional = 0;
    s->cur = s->start;
}

static void end_turn(const es_game *g, br_state *s) {
    s->seat++;
    if (s->seat == g->players) {
        s->seat = 0;
        s->lap++;
        if (s->lap == 4) {
            phase4(g, s);
            return;
        }
    }
    begin_turn(g, s);
}

/* A player with an empty hand at the start of a turn passes it (BR-A24). */
static void begin_turn(const es_game *g, br_state *s) {
    s->phase = BR_PH_TURN;
    s->cur = (uint8_t)seat_player(g, s);
    s->plays_left = 1;
    s->played = 0;
    s->draws_left = 0;
    s->jailer_left = 0;
    if (set_empty(held(s, BR_Z_HAND, s->cur))) end_turn(g, s);   /* in a turn no card is pending */
}

static void begin_rep(const es_game *g, br_state *s) {
    s->phase = BR_PH_REP;
    s->seat = 0;
    s->cur = s->start;
    (void)g;
}

static void begin_disasters_of_seat(const es_game *g, br_state *s) {
    s->phase = BR_PH_DISASTER;
    s->cur = (uint8_t)seat_player(g, s);
    s->pending_dis = 0;
    for (int k = 0; k < BR_NCOL; k++)
        if (s->threats[s->cur][k] >= 3) s->pending_dis |= (uint8_t)(1 << k);
}

static void resolve_disaster(const es_game *g, br_state *s, int k) {
    int p = s->cur;
    s->pending_dis &= (uint8_t)~(1 << k);
    s->threats[p][k] = 0;   /* the set of 3 returns to the supply, no VP */
    switch (D(g)->disaster[k]) {
    case BR_D_FLOOD: memset(s->workers[p], 0, BR_NCOL); break;
    case BR_D_RIOT: s->money[p] = 0; break;
    case BR_D_INTRIGUE: s->score[p] = s->score[p] >= 3 ? (uint16_t)(s->score[p] - 3) : 0; break;
    case BR_D_FIRE: s->fire_left = 1; break;
    case BR_D_PLAGUE: s->plague_left = 1; break;
    }
}

static void next_drawer(const es_game *g, br_state *s) {
    s->seat++;
    s->optional = 0;
    if (s->seat == g->players) {
        s->phase = BR_PH_DICE;
        s->dice_rolled = 0;
        return;
    }
    s->cur = (uint8_t)seat_player(g, s);
    s->phase = BR_PH_DRAW;
}

static int any_pending(const br_state *s, int p) {
    for (int k = 0; k < BR_NCOL; k++)
        if (s->pending[p][k]) return 1;
    return 0;
}

/* A decision state with no legal move: take the rule's next step (no node). */
static void advance(const es_game *g, br_state *s) {
    switch (s->phase) {
    case BR_PH_DRAW:
        if (any_pending(s, s->cur)) s->phase = BR_PH_REVEAL;
        else next_drawer(g, s);
        break;
    case BR_PH_DISASTER:
        if (s->fire_left) s->fire_left = 0;            /* nothing to burn */
        else if (s->plague_left) s->plague_left = 0;   /* no person (BR-A21) */
        else if (s->pending_dis) {
            int k = __builtin_ctz(s->pending_dis);
            resolve_disaster(g, s, k);
        } else {
            s->seat++;
            if (s->seat == g->players) begin_rep(g, s);
            else begin_disasters_of_seat(g, s);
        }
        break;
    case BR_PH_REP:
        s->seat++;
        if (s->seat == g->players) {
            s->seat = 0;
            s->lap = 0;
            begin_turn(g, s);
        } else {
            s->cur = (uint8_t)seat_player(g, s);
        }
        break;
    case BR_PH_TURN:
        if (s->draws_left) s->draws_left = 0;       /* no pile left (BR-A10) */
        else if (s->jailer_left) s->jailer_left = 0;
        else end_turn(g, s);                        /* nothing left to do: every step progresses */
        break;
    }
}

/* Slot `slot` just became empty (docs: Exhaustion). */
static void exhaust(const es_game *g, br_state *s, int slot) {
    (void)g;
    if (!s->extra_entered) {
        s->extra_entered = 1;
        s->size[slot] = s->extra_size;
        s->extra_size = 0;
        s->need_top = (uint8_t)(slot + 1);
        s->final_flag = s->phase == BR_PH_DRAW ? 1 : 2;   /* BR-A7 */
        return;
    }
    int o = 1 - slot, m = s->size[o];
    if (m >= 2) {   /* BR-A12: the bottom half moves to the empty slot */
        s->size[slot] = (uint8_t)(m / 2);
        s->size[o] = (uint8_t)(m - m / 2);
        s->need_top = (uint8_t)(slot + 1);
    }
}

static void draw_from(const es_game *g, br_state *s, int slot) {
    int k = s->top[slot];
    s->size[slot]--;
    if (s->phase == BR_PH_DRAW) s->pending[s->cur][k]++;
    else s->need_card = (uint8_t)(k + 1);
    if (s->size[slot] == 0) exhaust(g, s, slot);
    else s->need_top = (uint8_t)(slot + 1);
}

/* ---------------------------------------------------------------------------- moves */

static int can_draw(const br_state *s) { return s->size[0] > 0 || s->size[1] > 0; }

static int list_draws(const br_state *s, es_move *out, int n) {
    for (int sl = 0; sl < 2; sl++)
        if (s->size[sl]) out[n++] = MV(BR_M_DRAW, sl);
    return n;
}

/* Whether p's person c can be activated now: not yet this round, and its icon's condition. */
static inline int can_activate(const es_game *g, const br_state *s, int p, int c) {
    int k = D(g)->activation_need[c];
    return !(s->flags[c] & BR_F_ROTATED) && (k == BR_NEED_NOTHING || (k < BR_NCOL && s->workers[p][k]));
}

/* Whether p can activate one of their persons now. */
static int any_activation(const es_game *g, const br_state *s, int p) {
    SET_FOREACH(c, held(s, BR_Z_PERSON, p))
        if (can_activate(g, s, p, c)) return 1;
    return 0;
}

/* Whether a card of colour k can build p's canal section sec now (action IV). */
static inline int canal_open(const es_game *g, const br_state *s, int p, int sec, int k) {
    const bruges_data *d = D(g);
    int len = s->canal[p][sec];
    return len < BR_SPACES && d->canal_colour[p][sec][len] == k && s->money[p] >= d->canal_cost[len];
}

/* How many of the actions I-V a hand card allows p, per colour (VI depends on the card): I and
 * II always, III with a threat of the colour, V with a worker of the colour, IV for the colour
 * each open canal section asks for next. */
static void colour_plays(const es_game *g, const br_state *s, int p, int per_colour[BR_NCOL]) {
    const bruges_data *d = D(g);
    for (int k = 0; k < BR_NCOL; k++) per_colour[k] = 2 + (s->threats[p][k] > 0) + (s->workers[p][k] > 0);
    for (int sec = 0; sec < 2; sec++) {
        int len = s->canal[p][sec];
        if (len < BR_SPACES && s->money[p] >= d->canal_cost[len]) per_colour[d->canal_colour[p][sec][len]]++;
    }
}

/* Whether p can take action a (BR_ACT_*) with hand card c: I and II always, III with a threat
 * of the card's colour, IV for the colour an open canal section asks for next, V with a worker
 * of the colour, VI if the card is affordable and recruit (p has an empty house). One rule for
 * the move list and for is_legal. */
static inline int play_allowed(const es_game *g, const br_state *s, int p, int c, int a, int recruit) {
    int k = D(g)->colour_of[c];
    switch (a) {
    case BR_ACT_I: case BR_ACT_II: return 1;
    case BR_ACT_III: return s->threats[p][k] > 0;
    case BR_ACT_IV0: case BR_ACT_IV1: return canal_open(g, s, p, a - BR_ACT_IV0, k);
    case BR_ACT_V: return s->workers[p][k] > 0;
    case BR_ACT_VI: return recruit && s->money[p] >= D(g)->cost_of[c];
    }
    return 0;
}

/* The actions p can take with hand card c, in id order, into acts; returns their count. */
static inline int card_plays(const es_game *g, const br_state *s, int p, int c, int recruit, int acts[7]) {
    int m = 0;
    for (int a = BR_ACT_I; a <= BR_ACT_VI; a++)
        if (play_allowed(g, s, p, c, a, recruit)) acts[m++] = a;
    return m;
}

/* The r-th action (from 0, in id order) p can take with hand card c: card_plays(...)[r]
 * without listing the rest (I and II, always allowed, come first, so most picks stop there). */
static inline int nth_play(const es_game *g, const br_state *s, int p, int c, int recruit, int r) {
    for (int a = BR_ACT_I; a < BR_ACT_VI; a++)
        if (play_allowed(g, s, p, c, a, recruit) && r-- == 0) return a;
    return BR_ACT_VI;   /* r counted the card's moves: the last one */
}

/* The common phase-1 node: both piles open and a hand below the refill size, so the moves are
 * exactly the two draws, in slot order (legal_raw's list). */
static inline int plain_refill(const es_game *g, const br_state *s) {
    return s->phase == BR_PH_DRAW && s->size[0] && s->size[1] && refill_hand_size(s) < D(g)->hand_size;
}

static int legal_raw(const es_game *g, const br_state *s, es_move *out) {
    const bruges_data *d = D(g);
    int p = s->cur, n = 0;
    switch (s->phase) {
    case BR_PH_DRAW: {
        if (!can_draw(s)) return 0;
        int h = hand_size(s, p);
        if (h < d->hand_size) return list_draws(s, out, 0);
        if (!s->optional && h < hand_target(g, s, p)) {
            n = list_draws(s, out, 0);
            out[n++] = MV(BR_M_DRAW_STOP, 0);
        }
        return n;
    }
    case BR_PH_DISASTER:
        if (s->fire_left) {
            SET_FOREACH(c, held(s, BR_Z_HOUSE, p)) out[n++] = MV(BR_M_FIRE_HOUSE, c);
            for (int sec = 0; sec < 2; sec++)
                if (s->canal[p][sec]) out[n++] = MV(BR_M_FIRE_CANAL, sec);
            return n;
        }
        if (s->plague_left) {
            SET_FOREACH(c, held(s, BR_Z_PERSON, p)) out[n++] = MV(BR_M_PLAGUE, c);
            return n;
        }
        if (__builtin_popcount(s->pending_dis) >= 2)
            for (int k = 0; k < BR_NCOL; k++)
                if (s->pending_dis & (1 << k)) out[n++] = MV(BR_M_ORDER, k);
        return n;
    case BR_PH_REP: {
        int r = rep_cost(s);
        if (r > 0 && s->money[p] >= r && s->rep[p] + 1 < d->rep_positions) {
            out[n++] = MV(BR_M_REP, 0);
            out[n++] = MV(BR_M_REP, 1);
        }
        return n;
    }
    case BR_PH_TURN: {
        if (s->draws_left) return list_draws(s, out, 0);
        if (s->jailer_left) {
            for (int k = 0; k < BR_NCOL; k++)
                if (s->threats[p][k]) out[n++] = MV(BR_M_JAILER, k);
            return n;
        }
        br_sets ps;
        uint64_t both[BR_WORDS];
        player_sets(s, p, &ps);
        for (int w = 0; w < BR_WORDS; w++) both[w] = (s->plays_left ? ps.hand[w] : 0) | ps.person[w];
        int recruit = s->plays_left && has_empty_house(&ps);
        SET_FOREACH(c, both) {   /* in card order: a person's activation, a hand card's plays */
            if (s->zone[c] == BR_Z_PERSON) {
                if (can_activate(g, s, p, c)) out[n++] = MV(BR_M_ACTIVATE, c);
                continue;
            }
            int acts[7], m = card_plays(g, s, p, c, recruit, acts);
            for (int i = 0; i < m; i++) out[n++] = MV(BR_M_PLAY, c | (acts[i] << 8));
        }
        int hand_n = set_count(ps.hand);
        if (s->played || hand_n == 0) out[n++] = MV(BR_M_END_TURN, 0);
        return n;
    }
    }
    return 0;
}

/* random_move hook. In a turn: one pass over the cards in legal_raw's order (card order) notes
 * each card's number of moves (a hand card's plays: those of its colour, plus VI if it is
 * affordable and a house is empty; a person: its activation); draw one index and find its move
 * in those notes, without listing the others. */
static es_move br_random_move(const es_game *g, const void *sv, es_rng *rng, int *count) {
    const br_state *s = sv;
    const bruges_data *d = D(g);
    if (s->phase == BR_PH_DRAW && !is_chance(s) && plain_refill(g, s)) {
        *count = 2;
        return MV(BR_M_DRAW, (int)es_rng_u32_below(rng, 2));
    }
    if (s->phase != BR_PH_TURN || is_chance(s) || s->draws_left || s->jailer_left) {
        *count = -1;   /* few moves: the list is cheap */
        return 0;
    }
    int p = s->cur, n = 0, per_colour[BR_NCOL];
    br_sets ps;
    player_sets(s, p, &ps);
    int recruit = s->plays_left && has_empty_house(&ps), money = s->money[p];
    if (s->plays_left) colour_plays(g, s, p, per_colour);   /* else no hand card is looked at */
    uint8_t card[BR_CARDS], moves[BR_CARDS];   /* the cards with moves, in order, and how many */
    int nc = 0;
    for (int w = 0; w < BR_WORDS; w++) {
        uint64_t person = ps.person[w];
        for (uint64_t x = (s->plays_left ? ps.hand[w] : 0) | person; x; x &= x - 1) {
            int c = (w << 6) + __builtin_ctzll(x), m;
            if (person >> (c & 63) & 1) m = can_activate(g, s, p, c);
            else m = per_colour[d->colour_of[c]] + (recruit & (money >= d->cost_of[c]));
            card[nc] = (uint8_t)c;
            moves[nc++] = (uint8_t)m;
            n += m;
        }
    }
    n += s->played || set_empty(ps.hand);   /* END_TURN, last in the list */
    *count = n;
    if (n == 0) return 0;
    int r = (int)es_rng_u32_below(rng, (uint32_t)n);
    for (int i = 0; i < nc; i++) {   /* walk legal_raw's order to the r-th move */
        if (r >= moves[i]) {
            r -= moves[i];
            continue;
        }
        int c = card[i];
        if (s->zone[c] == BR_Z_PERSON) return MV(BR_M_ACTIVATE, c);
        return MV(BR_M_PLAY, c | (nth_play(g, s, p, c, recruit, r) << 8));
    }
    return MV(BR_M_END_TURN, 0);
}

static void apply_decision(const es_game *g, br_state *s, es_move m) {
    const bruges_data *d = D(g);
    int p = s->cur, arg = MV_ARG(m);
    switch (MV_TYPE(m)) {
    case BR_M_DRAW:
        if (s->phase == BR_PH_TURN) s->draws_left--;
        draw_from(g, s, arg & 1);
        break;
    case BR_M_DRAW_STOP: s->optional = 1; break;
    case BR_M_REP:
        if (arg) {
            s->money[p] = (uint16_t)(s->money[p] - rep_cost(s));
            s->rep[p]++;
        }
        advance(g, s);   /* the next player's choice */
        break;
    case BR_M_ORDER: resolve_disaster(g, s, arg & 7); break;
    case BR_M_FIRE_HOUSE: {
        int h = arg & 255;
        for (int c = 0; c < BR_CARDS; c++)
            if (s->zone[c] == BR_Z_PERSON && s->link[c] == h) {   /* the person returns to hand */
                place_card(g, s, c, BR_Z_HAND, s->owner[c]);
                s->link[c] = 0;
                s->flags[c] = BR_F_PUBLIC;
            }
        discard(g, s, h);
        s->fire_left = 0;
        break;
    }
    case BR_M_FIRE_CANAL: s->canal[p][arg & 1]--; s->fire_left = 0; break;   /* statue kept (BR-A33) */
    case BR_M_PLAGUE: discard(g, s, arg & 255); s->plague_left = 0; break;
    case BR_M_JAILER:
        s->threats[p][arg & 7]--;
        s->score[p]++;
        s->jailer_left--;
        break;
    case BR_M_ACTIVATE: {
        int c = arg & 255;
        const br_card *q = &d->card[c];
        if (q->activation == BR_A_WORKER) s->workers[p][q->worker]--;
        s->flags[c] |= BR_F_ROTATED;
        switch (q->effect) {
        case BR_FX_DRAW_CARDS: s->draws_left = (uint8_t)(s->draws_left + q->amount); break;
        case BR_FX_EXTRA_PLAY: s->plays_left = (uint8_t)(s->plays_left + q->amount); break;
        case BR_FX_MONEY_PER_ROUND: s->money[p] = (uint16_t)(s->money[p] + q->amount); break;
        }
        break;
    }
    case BR_M_PLAY: {
        int c = arg & 255, a = (arg >> 8) & 7;
        const br_card *q = &d->card[c];
        int k = q->colour;
        s->plays_left--;
        s->played++;
        switch (a) {
        case BR_ACT_I:
            s->workers[p][k] = (uint8_t)(s->workers[p][k] + 2 + placed_amount(g, s, p, BR_FX_EXTRA_WORKERS_A1, NULL));
            discard(g, s, c);
            break;
        case BR_ACT_II: s->money[p] = (uint16_t)(s->money[p] + s->die[k]); discard(g, s, c); break;
        case BR_ACT_III: s->threats[p][k]--; s->score[p]++; discard(g, s, c); break;
        case BR_ACT_IV0: case BR_ACT_IV1: {
            int sec = a - BR_ACT_IV0, len = s->canal[p][sec];
            s->money[p] = (uint16_t)(s->money[p] - d->canal_cost[len]);
            s->canal[p][sec]++;
            if (s->canal[p][sec] == BR_SPACES && !s->statue[p][sec] && s->statues_taken < d->n_statues)
                s->statue[p][sec] = d->statue[s->statues_taken++];   /* BR-A36, BR-A9 */
            discard(g, s, c);
            break;
        }
        case BR_ACT_V: {
            s->workers[p][k]--;
            place_card(g, s, c, BR_Z_HOUSE, p);
            s->link[c] = s->house_seq[p]++;
            s->flags[c] = 0;
            /* Others see only the colour of the new house: a card of that colour they knew in
             * p's hand (returned by Fire) may now be the house, so it is no longer known. */
            uint64_t hand[BR_WORDS];
            memcpy(hand, held(s, BR_Z_HAND, p), sizeof hand);
            set_and(hand, d->colour_set[k]);
            SET_FOREACH(e, hand) s->flags[e] &= (uint8_t)~BR_F_PUBLIC;
            break;
        }
        case BR_ACT_VI: {
            int h = empty_house(s, p);
            s->money[p] = (uint16_t)(s->money[p] - q->cost);
            place_card(g, s, c, BR_Z_PERSON, p);
            s->link[c] = (uint8_t)h;
            s->flags[c] = BR_F_PUBLIC;
            if (q->effect == BR_FX_MONEY_ON_RECRUIT) s->money[p] = (uint16_t)(s->money[p] + q->amount);
            if (q->effect == BR_FX_RETURN_THREAT) s->jailer_left = q->amount;
            break;
        }
        }
        break;
    }
    case BR_M_END_TURN: end_turn(g, s); break;
    }
}

/* ---------------------------------------------------------------------------- chance */

static inline void top_free(const br_state *s, int slot, int freec[BR_NCOL]) {
    for (int k = 0; k < BR_NCOL; k++) freec[k] = pool_count(s, k);
    for (int sl = 0; sl < 2; sl++)
        if (sl != slot && s->size[sl] && !(s->need_top == sl + 1) && !(sl == 1 && s->setup_b))   /* unrevealed: pins nothing */
            freec[s->top[sl]]--;
    if (s->phase == BR_PH_DRAW || s->phase == BR_PH_REVEAL)   /* the only step with undrawn cards */
        for (int k = 0; k < BR_NCOL; k++) freec[k] -= s->pending[s->cur][k];
}

static int card_colour_pending(const br_state *s) {
    if (s->need_card) return s->need_card - 1;
    if (s->phase == BR_PH_REVEAL)
        for (int k = 0; k < BR_NCOL; k++)
            if (s->pending[s->cur][k]) return k;
    return -1;
}

/* The kind of chance node s is: BR_C_CARD (a card of colour *k), BR_C_TOP, BR_C_START or
 * BR_C_DIE; 0 for none. The one order chance_outcomes, sample_chance and is_legal follow. */
static int chance_kind(const br_state *s, int *k) {
    if ((*k = card_colour_pending(s)) >= 0) return BR_C_CARD;
    if (s->need_top) return BR_C_TOP;
    if (s->phase == BR_PH_START) return BR_C_START;
    if (s->phase == BR_PH_DICE) return BR_C_DIE;
    return 0;
}

static int br_chance_outcomes(const es_game *g, const void *sv, es_move *out, double *prob) {
    const br_state *s = sv;
    int n = 0, k, kind = chance_kind(s, &k);
    if (kind == BR_C_CARD) {
        uint64_t x[BR_WORDS];
        memcpy(x, s->pool, sizeof x);
        set_and(x, D(g)->colour_set[k]);
        double p = 1.0 / set_count(x);
        SET_FOREACH(c, x) {
            out[n] = MV(BR_C_CARD, c);
            prob[n++] = p;
        }
        return n;
    }
    if (kind == BR_C_TOP) {
        int slot = s->need_top - 1, fr[BR_NCOL], tot = 0;
        top_free(s, slot, fr);
        for (int i = 0; i < BR_NCOL; i++) tot += fr[i] > 0 ? fr[i] : 0;
        for (int i = 0; i < BR_NCOL; i++)
            if (fr[i] > 0) {
                out[n] = MV(BR_C_TOP, slot | (i << 1));
                prob[n++] = (double)fr[i] / tot;
            }
        return n;
    }
    if (kind == BR_C_START) {
        for (int p = 0; p < g->players; p++) {
            out[n] = MV(BR_C_START, p);
            prob[n++] = 1.0 / g->players;
        }
        return n;
    }
    if (kind == BR_C_DIE) {
        for (int f = 1; f <= 6; f++) {
            out[n] = MV(BR_C_DIE, s->dice_rolled | (f << 3));
            prob[n++] = 1.0 / 6;
        }
        return n;
    }
    return 0;
}

static void apply_chance(const es_game *g, br_state *s, es_move m) {
    int arg = MV_ARG(m);
    switch (MV_TYPE(m)) {
    case BR_C_START:
        s->start = s->cur = (uint8_t)arg;
        s->phase = BR_PH_DRAW;
        s->need_top = 1;
        s->setup_b = 1;
        break;
    case BR_C_TOP: {
        int slot = arg & 1;
        s->top[slot] = (uint8_t)(arg >> 1);
        s->need_top = 0;
        if (s->setup_b) {   /* setup: pile B's top is revealed after pile A's */
            s->setup_b = 0;
            s->need_top = 2;
        }
        break;
    }
    case BR_C_CARD: {
        int c = arg & 255, k = D(g)->colour_of[c];
        draw_into_hand(g, s, c, s->cur);
        s->flags[c] = 0;
        if (s->need_card) s->need_card = 0;
        else {
            s->pending[s->cur][k]--;
            if (!any_pending(s, s->cur)) next_drawer(g, s);
        }
        break;
    }
    case BR_C_DIE: {
        s->die[arg & 7] = (uint8_t)((arg >> 3) & 7);
        if (++s->dice_rolled == BR_NCOL) {
            for (int k = 0; k < BR_NCOL; k++)
                if (s->die[k] >= 5)
                    for (int p = 0; p < g->players; p++) s->threats[p][k]++;
            s->seat = 0;
            begin_disasters_of_seat(g, s);
        }
        break;
    }
    }
}

/* ---------------------------------------------------------------------------- driver */

/* Whether s is the end, a chance node, or a decision known to have two moves or more without
 * listing them: the common cases, checked inline after every move. */
static inline int settled(const es_game *g, const br_state *s) {
    return s->phase == BR_PH_OVER || is_chance(s) ||
           (s->phase == BR_PH_TURN && s->plays_left && !s->draws_left && !s->jailer_left &&
            !set_empty(held(s, BR_Z_HAND, s->cur))) ||   /* in a turn no card is pending */
           plain_refill(g, s);   /* a card to play (actions I and II at least), or two piles to draw from */
}

/* Apply forced moves and silent steps until a real decision, a chance node or the end; s is
 * not settled (the caller checked it inline). */
static void settle(const es_game *g, br_state *s) {
    es_move buf[BR_MAX_MOVES];
    do {
        if (s->phase == BR_PH_TURN && !s->plays_left && !s->draws_left && !s->jailer_left) {
            if (any_activation(g, s, s->cur)) return;   /* and END_TURN: two moves at least */
            end_turn(g, s);                             /* END_TURN, the only move */
            continue;
        }
        int n = legal_raw(g, s, buf);
        if (n >= 2) return;
        if (n == 1) apply_decision(g, s, buf[0]);
        else advance(g, s);
    } while (!settled(g, s));
}

static void br_init(const es_game *g, void *sv) {
    const bruges_data *d = D(g);
    br_state *s = sv;
    int n = g->players;
    memset(s, 0, sizeof *s);
    s->round = 1;
    s->size[0] = (uint8_t)((33 * n + 1) / 2);
    s->size[1] = (uint8_t)(33 * n - s->size[0]);
    s->extra_size = (uint8_t)(BR_CARDS - 33 * n);
    for (int p = 0; p < n; p++) {
        s->score[p] = (uint16_t)d->start_score;
        s->money[p] = (uint16_t)d->start_money;
        memset(s->workers[p], d->start_workers, BR_NCOL);
    }
    int sp = g->options[BR_OPT_START_PLAYER];
    if (sp >= 0) {
        s->start = s->cur = (uint8_t)sp;
        s->phase = BR_PH_DRAW;
        s->need_top = 1;
        s->setup_b = 1;
    } else {
        s->phase = BR_PH_START;
    }
    for (int k = 0; k < BR_NCOL; k++) {   /* every card undecided: the union of the colours */
        for (int w = 0; w < BR_WORDS; w++) s->pool[w] |= d->colour_set[k][w];
        s->pool_n[k] = (uint8_t)set_count(d->colour_set[k]);
    }
}

static int br_current_player(const es_game *g, const void *sv) {
    (void)g;
    const br_state *s = sv;
    if (s->phase == BR_PH_OVER) return ES_TERMINAL;
    if (is_chance(s)) return ES_CHANCE;
    return s->cur;
}

static int br_legal_moves(const es_game *g, const void *sv, es_move *out) {
    const br_state *s = sv;
    if (s->phase == BR_PH_OVER || is_chance(s)) return 0;
    return legal_raw(g, s, out);
}

static void br_apply(const es_game *g, void *sv, es_move m) {
    br_state *s = sv;
    /* A legal move is a chance outcome exactly at a chance node, and the outcome types come
     * after the decision types: the move's type says which it is, without reading the state. */
    if (MV_TYPE(m) >= BR_C_START) apply_chance(g, s, m);
    else apply_decision(g, s, m);
    if (!settled(g, s)) settle(g, s);
}

/* One outcome by its probability, without listing them (the same distribution as
 * br_chance_outcomes: a uniform card of the colour, a die face, a colour by its free count). */
static es_move br_sample_chance(const es_game *g, const void *sv, es_rng *rng) {
    const br_state *s = sv;
    int k, kind = chance_kind(s, &k);
    if (kind == BR_C_CARD) {
        uint64_t x[BR_WORDS];
        memcpy(x, s->pool, sizeof x);
        set_and(x, D(g)->colour_set[k]);
        int c = set_nth(x, (int)es_rng_u32_below(rng, (uint32_t)pool_count(s, k)));
        return c >= 0 ? MV(BR_C_CARD, c) : 0;   /* validated states have a card of the colour */
    }
    if (kind == BR_C_TOP) {
        int slot = s->need_top - 1, fr[BR_NCOL], tot = 0, last = 0;
        top_free(s, slot, fr);
        for (int i = 0; i < BR_NCOL; i++) {
            fr[i] = fr[i] > 0 ? fr[i] : 0;   /* a colour with no free card has weight 0 */
            if (fr[i]) tot += fr[i], last = i;
        }
        int r = (int)es_rng_u32_below(rng, (uint32_t)tot);
        for (int i = 0; i < BR_NCOL; i++)
            if ((r -= fr[i]) < 0) return MV(BR_C_TOP, slot | (i << 1));
        return MV(BR_C_TOP, slot | (last << 1));
    }
    if (kind == BR_C_START) return MV(BR_C_START, (int)es_rng_u32_below(rng, (uint32_t)g->players));
    return MV(BR_C_DIE, s->dice_rolled | ((1 + (int)es_rng_u32_below(rng, 6)) << 3));
}

static inline int set_has(const uint64_t *a, int c) { return (int)(a[c >> 6] >> (c & 63) & 1); }

/* Whether m is one of chance_outcomes' outcomes at the chance node s, decoded: a card of the
 * pending colour still undecided, a top colour with a free card, a seat, the next die's face. */
static int chance_has(const es_game *g, const br_state *s, es_move m) {
    int t = MV_TYPE(m), a = MV_ARG(m), k, kind = chance_kind(s, &k), fr[BR_NCOL];
    if (t != kind) return 0;
    switch (kind) {
    case BR_C_CARD: return a < BR_CARDS && D(g)->card[a].colour == k && set_has(s->pool, a);
    case BR_C_TOP:
        if ((a & 1) != s->need_top - 1 || (a >> 1) >= BR_NCOL) return 0;
        top_free(s, a & 1, fr);
        return fr[a >> 1] > 0;
    case BR_C_START: return a < g->players;
    case BR_C_DIE: return (a & 7) == s->dice_rolled && (a >> 3) >= 1 && (a >> 3) <= 6;
    }
    return 0;
}

/* is_legal hook (issue 19): a checked apply without the list. Chance outcomes and the moves of a
 * turn's main step (up to 7 per hand card) are decoded and tested with the generator's own
 * conditions (play_allowed, can_activate); every other decision has a few moves: list them. */
static int br_is_legal(const es_game *g, const void *sv, es_move m) {
    const br_state *s = sv;
    int a = MV_ARG(m), p = s->cur;
    if (s->phase == BR_PH_OVER || m < 0) return 0;
    if (is_chance(s)) return chance_has(g, s, m);
    if (s->phase != BR_PH_TURN || s->draws_left || s->jailer_left) {
        es_move moves[BR_MAX_MOVES];
        return es_moves_have(moves, legal_raw(g, s, moves), m);
    }
    br_sets ps;
    player_sets(s, p, &ps);
    switch (MV_TYPE(m)) {
    case BR_M_ACTIVATE: return a < BR_CARDS && set_has(ps.person, a) && can_activate(g, s, p, a);
    case BR_M_PLAY: {
        int c = a & 255, act = a >> 8;
        if (!s->plays_left || c >= BR_CARDS || act > BR_ACT_VI || !set_has(ps.hand, c)) return 0;
        return play_allowed(g, s, p, c, act, act == BR_ACT_VI && has_empty_house(&ps));
    }
    case BR_M_END_TURN: return a == 0 && (s->played || set_count(ps.hand) == 0);
    }
    return 0;
}

/* ---------------------------------------------------------------------------- scoring */

static int final_score(const es_game *g, const br_state *s, int p) {
    const bruges_data *d = D(g);
    int vp = s->score[p] + set_count(held(s, BR_Z_HOUSE, p)), workers = 0;
    for (int k = 0; k < BR_NCOL; k++) workers += s->workers[p][k];
    const uint64_t *persons = held(s, BR_Z_PERSON, p);
    SET_FOREACH(c, persons) {
        const br_card *q = &d->card[c];
        vp += q->vp;
        if (q->effect == BR_FX_VP_PER_WORKERS)   /* BR-A5 */
            vp += q->amount * (workers / 2) * (g->options[BR_OPT_BISHOP_CAPTION] ? 2 : 1);
        if (q->effect == BR_FX_VP_PER_GROUP)     /* BR-A16: itself included */
            SET_FOREACH(e, persons) vp += d->card[e].group == q->group_param ? q->amount : 0;
    }
    vp += 4 * __builtin_popcount(s->markers[p]);
    for (int sec = 0; sec < 2; sec++) vp += (s->canal[p][sec] >= 3 ? 3 : 0) + s->statue[p][sec];   /* BR-A8 */
    vp += d->rep_vp[s->rep[p]];
    return vp;
}

static void br_scores(const es_game *g, const void *sv, double *out) {
    const br_state *s = sv;
    for (int p = 0; p < g->players; p++)
        out[p] = s->phase == BR_PH_OVER ? final_score(g, s, p) : s->score[p];
}

static void br_returns(const es_game *g, const void *sv, double *out) {
    const br_state *s = sv;
    int n = g->players, best = -1, bestm = -1, w = 0, v[BR_MAXP];
    for (int p = 0; p < n; p++) out[p] = 0;
    if (s->phase != BR_PH_OVER) return;
    for (int p = 0; p < n; p++) {
        v[p] = final_score(g, s, p);
        if (v[p] > best || (v[p] == best && s->money[p] > bestm)) {
            best = v[p];
            bestm = s->money[p];
        }
    }
    for (int p = 0; p < n; p++) w += v[p] == best && s->money[p] == bestm;
    for (int p = 0; p < n; p++)
        if (v[p] == best && s->money[p] == bestm) out[p] = 1.0 / w;
}

/* ---------------------------------------------------------------------------- evaluation */

/* Rounds still to come after this one: 0 in the final round; otherwise the draw piles' cards
 * over the ~4n a round takes (a pile empties about when both are halved: a rough guide). */
static double rounds_after_this(const es_game *g, const br_state *s) {
    if (s->phase == BR_PH_OVER || s->final_flag == 1) return 0;
    if (s->final_flag == 2) return 1;
    double r = (s->size[0] + s->size[1]) / (4.0 * g->players) - 0.5;
    return r < 1 ? 1 : r > 7 ? 7 : r;
}

/* What a disaster of colour k would cost p now, in VP (the money and worker rates below). */
static double disaster_cost(const es_game *g, const br_state *s, int p, int k) {
    const bruges_data *d = D(g);
    int workers = 0, best = 0;
    for (int c = 0; c < BR_NCOL; c++) workers += s->workers[p][c];
    int houses = set_count(held(s, BR_Z_HOUSE, p)), persons = set_count(held(s, BR_Z_PERSON, p));
    SET_FOREACH(c, held(s, BR_Z_PERSON, p)) if (d->card[c].vp > best) best = d->card[c].vp;
    switch (d->disaster[k]) {
    case BR_D_FLOOD: return 0.3 * workers;
    case BR_D_RIOT: return 0.3 * s->money[p];
    case BR_D_INTRIGUE: return s->score[p] >= 3 ? 3 : s->score[p];
    case BR_D_FIRE: return houses || s->canal[p][0] || s->canal[p][1] ? 1.5 : 0;
    default: return persons ? 1.0 + best : 0;   /* plague: the cheapest person would go */
    }
}

/* Estimated final VP: the final scoring as if the game ended now, plus what money, workers,
 * hand cards and empty houses will become (about 0.3 VP per guilder or worker, 0.8 per card),
 * the persons' effects still to come, majority and canal prospects, minus the expected cost of
 * the disasters the threat markers may bring. Exact at the end of the game. */
static void br_evaluate(const es_game *g, const void *sv, double *out) {
    const br_state *s = sv;
    const bruges_data *d = D(g);
    int n = g->players;
    if (s->phase == BR_PH_OVER) {
        for (int p = 0; p < n; p++) out[p] = final_score(g, s, p);
        return;
    }
    double left = rounds_after_this(g, s);
    int this_round = s->phase <= BR_PH_TURN;   /* phase 3 of this round is still to come or on */
    double future = left + (this_round ? 0.5 : 0);
    int val[3][BR_MAXP];
    for (int p = 0; p < n; p++) {
        val[0][p] = s->rep[p];
        val[1][p] = set_count(held(s, BR_Z_PERSON, p));
        val[2][p] = s->canal[p][0] + s->canal[p][1];
    }
    for (int p = 0; p < n; p++) {
        double v = final_score(g, s, p);
        v += 0.3 * s->money[p];
        for (int k = 0; k < BR_NCOL; k++) {
            v += 0.3 * s->workers[p][k] + (future > 0 ? 0.8 * s->pending[p][k] : 0);
            if (s->threats[p][k] && future > 0)
                v -= (s->threats[p][k] >= 2 ? 1.0 / 3 : 1.0 / 27) * disaster_cost(g, s, p, k);
        }
        /* hand cards and persons from the kept sets, in card order as the terms always were
         * added (the same sums to the last bit) */
        const uint64_t *hand = held(s, BR_Z_HAND, p), *person = held(s, BR_Z_PERSON, p);
        uint64_t counted[BR_WORDS];
        for (int w = 0; w < BR_WORDS; w++) counted[w] = (future > 0 ? hand[w] : 0) | person[w];
        SET_FOREACH(c, counted) {
            if (hand[c >> 6] >> (c & 63) & 1) {
                v += 0.8;
                continue;
            }
            const br_card *q = &d->card[c];
            switch (q->effect) {   /* what the person still brings */
            case BR_FX_MONEY_PER_ROUND: v += 0.3 * q->amount * future; break;
            case BR_FX_EXTRA_WORKERS_A1: v += 0.3 * q->amount * future; break;
            case BR_FX_DRAW_CARDS: case BR_FX_EXTRA_PLAY: v += 0.5 * q->amount * future; break;
            case BR_FX_HAND_TARGET: v += 0.4 * left; break;
            }
        }
        if (future > 0) v += 0.5 * (set_count(held(s, BR_Z_HOUSE, p)) - val[1][p]);
        for (int m = 0; m < 3; m++) {   /* an unflipped marker: a sole lead flips it in phase 4 */
            if (s->markers[p] >> m & 1) continue;
            int above = 1, tied = 0;
            for (int q = 0; q < n; q++)
                if (q != p) {
                    if (val[m][q] > val[m][p]) above = 0;
                    if (val[m][q] == val[m][p]) tied = 1;
                }
            if (above && val[m][p] > 0) v += tied ? 1.0 : (this_round ? 3.0 : 2.0);
        }
        for (int sec = 0; sec < 2; sec++) {   /* tiles toward the 3-VP bonus and a statue */
            int len = s->canal[p][sec];
            if (len < 3) v += 0.8 * len;
            else if (len < BR_SPACES && !s->statue[p][sec] && s->statues_taken < d->n_statues) v += 0.8 * (len - 2);
        }
        out[p] = v;
    }
}

/* ---------------------------------------------------------------------------- knowledge */

/* The cards whose identity `observer` cannot see, per colour: the pool, others' non-public
 * hand cards and others' houses. Their places, in a canonical order, are dealt back to the
 * same cards: at random (determinization, spec 6.3: every place keeps its colour) or, without
 * rng, in order (redaction). Either way the result depends only on what the observer knows
 * (and the rng). */
static void reassign(const es_game *g, br_state *s, int observer, es_rng *rng) {
    uint8_t remap[BR_CARDS];
    for (int c = 0; c < BR_CARDS; c++) remap[c] = (uint8_t)c;
    br_state old = *s;
    /* one pass over the cards: the hidden ones per colour, in id order, with their place's key
     * (zone, owner, link, flags). Determinization runs once per iteration of information-set
     * MCTS, so the keys are computed once each rather than at every comparison. */
    int ids[BR_NCOL][BR_CARDS], places[BR_NCOL][BR_CARDS], m[BR_NCOL] = {0};
    uint32_t keys[BR_NCOL][BR_CARDS];
    for (int c = 0; c < BR_CARDS; c++) {
        int z = old.zone[c];
        if (z == BR_Z_POOL || (old.owner[c] != observer &&
                               ((z == BR_Z_HAND && !(old.flags[c] & BR_F_PUBLIC)) || z == BR_Z_HOUSE))) {
            int k = D(g)->colour_of[c], i = m[k]++;
            ids[k][i] = places[k][i] = c;
            keys[k][i] = (uint32_t)z << 24 | (uint32_t)old.owner[c] << 16 | (uint32_t)old.link[c] << 8 | old.flags[c];
        }
    }
    for (int k = 0; k < BR_NCOL; k++) {
        int n = m[k], *pl = places[k];
        uint32_t *key = keys[k];
        /* places sorted by their key, a stable insertion sort (n <= 165): equal keys are
         * interchangeable places, so the order depends only on what the observer knows */
        for (int i = 1; i < n; i++) {
            int x = pl[i], j = i - 1;
            uint32_t kx = key[i];
            for (; j >= 0 && key[j] > kx; j--) {
                pl[j + 1] = pl[j];
                key[j + 1] = key[j];
            }
            pl[j + 1] = x;
            key[j + 1] = kx;
        }
        if (rng)   /* determinization: a uniform deal from that canonical order (FINDINGS #3) */
            for (int i = n - 1; i > 0; i--) {
                int j = (int)es_rng_u32_below(rng, (uint32_t)(i + 1));
                int t = pl[i]; pl[i] = pl[j]; pl[j] = t;
            }
        for (int i = 0; i < n; i++) {   /* card ids[i] takes the place of card places[i] */
            int to = ids[k][i], from = pl[i];
            s->zone[to] = old.zone[from];
            s->owner[to] = old.owner[from];
            s->link[to] = old.link[from];
            s->flags[to] = old.flags[from];
            remap[from] = (uint8_t)to;
        }
    }
    for (int c = 0; c < BR_CARDS; c++)   /* persons follow their house's new id */
        if (s->zone[c] == BR_Z_PERSON) s->link[c] = remap[old.link[c]];
    derive_sets(g, s);
}

static void br_determinize(const es_game *g, void *sv, int observer, es_rng *rng) {
    reassign(g, (br_state *)sv, observer, rng);
}

static void br_redact(const es_game *g, const void *sv, int viewer, void *out) {
    memcpy(out, sv, sizeof(br_state));
    reassign(g, (br_state *)out, viewer, NULL);
}

/* What `viewer` sees of m: an opponent's house (action V) and the identity of a card drawn
 * into an opponent's hand are only a colour: card id BR_HIDDEN_CARD + colour. */
#define BR_HIDDEN_CARD 200
static es_move br_move_view(const es_game *g, const void *sv, es_move m, int viewer) {
    const br_state *s = sv;
    int arg = MV_ARG(m);
    if (MV_TYPE(m) == BR_M_PLAY && ((arg >> 8) & 7) == BR_ACT_V && s->cur != viewer)
        return MV(BR_M_PLAY, (BR_HIDDEN_CARD + D(g)->card[arg & 255].colour) | (BR_ACT_V << 8));
    if (MV_TYPE(m) == BR_C_CARD && s->cur != viewer)
        return MV(BR_C_CARD, BR_HIDDEN_CARD + D(g)->card[arg & 255].colour);
    return m;
}

/* ---------------------------------------------------------------------------- validation */

#define BR_CHECK(cond, ...) do { if (!(cond)) { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); return ES_ERR_FORMAT; } } while (0)

static int br_validate(const es_game *g, const void *sv, char *err, size_t errlen) {
    const bruges_data *d = D(g);
    const br_state *s = sv;
    int n = g->players;
    BR_CHECK(s->phase <= BR_PH_OVER, "phase %d out of range", s->phase);
    BR_CHECK(s->round >= 1 && s->round <= 60, "round %d out of range", s->round);
    BR_CHECK(s->start < n && s->cur < n, "start or current player out of range");
    BR_CHECK(s->final_flag <= 2 && s->extra_entered <= 1 && s->setup_b <= 1 && s->optional <= 1, "flag out of range");
    BR_CHECK(s->need_top <= 2 && s->need_card <= BR_NCOL, "pending chance out of range");
    BR_CHECK(s->seat <= n && s->lap <= 4 && s->dice_rolled <= BR_NCOL, "seat, lap or dice count out of range");
    BR_CHECK(s->pending_dis < 32 && s->fire_left <= 1 && s->plague_left <= 1, "disaster state out of range");
    BR_CHECK(s->plays_left <= 8 && s->played <= 8 && s->draws_left <= 16 && s->jailer_left <= 16, "turn counters out of range");
    for (int k = 0; k < BR_NCOL; k++) BR_CHECK(s->die[k] <= 6, "die out of range");
    for (int sl = 0; sl < 2; sl++) BR_CHECK(s->top[sl] < BR_NCOL, "top colour out of range");
    BR_CHECK(s->statues_taken <= d->n_statues, "statues taken out of range");
    BR_CHECK(s->size[0] + s->size[1] + s->extra_size <= BR_CARDS, "pile sizes out of range");
    BR_CHECK(!s->extra_entered || s->extra_size == 0, "extra pile entered but not empty");
    for (int p = 0; p < BR_MAXP; p++) {
        if (p >= n) {
            BR_CHECK(!s->money[p] && !s->score[p] && !s->rep[p] && !s->markers[p] && !s->house_seq[p],
                     "seat %d is not in the game", p);
            for (int k = 0; k < BR_NCOL; k++)
                BR_CHECK(!s->workers[p][k] && !s->threats[p][k] && !s->pending[p][k], "seat %d is not in the game", p);
            BR_CHECK(!s->canal[p][0] && !s->canal[p][1] && !s->statue[p][0] && !s->statue[p][1], "seat %d is not in the game", p);
            continue;
        }
        BR_CHECK(s->rep[p] < d->rep_positions, "player %d: reputation out of range", p);
        BR_CHECK(s->markers[p] < 8, "player %d: markers out of range", p);
        for (int k = 0; k < BR_NCOL; k++) {
            BR_CHECK(s->threats[p][k] <= 3, "player %d: threats out of range", p);
            BR_CHECK(s->threats[p][k] < 3 || s->phase == BR_PH_DISASTER || s->phase == BR_PH_DICE,
                     "player %d: 3 threat markers outside phase 2", p);
            BR_CHECK(!s->pending[p][k] || (p == s->cur && (s->phase == BR_PH_DRAW || s->phase == BR_PH_REVEAL)),
                     "player %d: undrawn cards outside their refill", p);
        }
        for (int sec = 0; sec < 2; sec++) {
            BR_CHECK(s->canal[p][sec] <= BR_SPACES, "player %d: canal out of range", p);
            int v = s->statue[p][sec], ok = v == 0;
            for (int i = 0; i < s->statues_taken; i++) ok |= d->statue[i] == v;
            BR_CHECK(ok, "player %d: statue %d not taken from the stack", p, v);
        }
    }
    int pool = 0, pend = 0;
    for (int p = 0; p < n; p++)
        for (int k = 0; k < BR_NCOL; k++) pend += s->pending[p][k];
    for (int c = 0; c < BR_CARDS; c++) {
        int z = s->zone[c];
        BR_CHECK(z <= BR_Z_DISCARD, "card %d: zone out of range", c);
        BR_CHECK(s->flags[c] <= (BR_F_ROTATED | BR_F_PUBLIC), "card %d: flags out of range", c);
        if (z == BR_Z_POOL || z == BR_Z_DISCARD) {
            BR_CHECK(!s->owner[c] && !s->link[c], "card %d: owner or link set in a public pile", c);
            BR_CHECK(s->flags[c] == (z == BR_Z_DISCARD ? BR_F_PUBLIC : 0), "card %d: flags", c);
            pool += z == BR_Z_POOL;
            continue;
        }
        BR_CHECK(s->owner[c] < n, "card %d: owner out of range", c);
        if (z == BR_Z_HAND) BR_CHECK(!s->link[c] && !(s->flags[c] & BR_F_ROTATED), "card %d: hand card state", c);
        if (z == BR_Z_HOUSE) BR_CHECK(s->link[c] < s->house_seq[s->owner[c]] && !s->flags[c], "card %d: house state", c);
        if (z == BR_Z_PERSON) {
            int h = s->link[c];
            BR_CHECK(h < BR_CARDS && s->zone[h] == BR_Z_HOUSE && s->owner[h] == s->owner[c], "card %d: not on a house of its owner", c);
            BR_CHECK(s->flags[c] & BR_F_PUBLIC, "card %d: a person is public", c);
            for (int e = 0; e < c; e++) BR_CHECK(!(s->zone[e] == BR_Z_PERSON && s->link[e] == h), "house %d holds two persons", h);
        }
    }
    br_state kept = *s;   /* the derived sets, as the zones and owners (now range-checked) give them */
    derive_sets(g, &kept);
    BR_CHECK(!memcmp(kept.pool_n, s->pool_n, sizeof s->pool_n) && !memcmp(kept.held, s->held, sizeof s->held) &&
             !memcmp(kept.pool, s->pool, sizeof s->pool), "the derived card sets do not match the zones and owners");
    BR_CHECK(pool == s->size[0] + s->size[1] + s->extra_size + pend + (s->need_card ? 1 : 0),
             "card pool (%d) does not match the piles and draws", pool);
    int fr[BR_NCOL];
    if (s->need_top && s->phase != BR_PH_OVER) {
        top_free(s, s->need_top - 1, fr);
        int tot = 0;
        for (int k = 0; k < BR_NCOL; k++) tot += fr[k] > 0 ? fr[k] : 0;
        BR_CHECK(tot > 0 && s->size[s->need_top - 1] > 0, "a pile top to reveal but no card for it");
    }
    for (int sl = 0; sl < 2; sl++)
        if (s->size[sl] && s->need_top != sl + 1 && !(sl == 1 && s->setup_b)) {
            BR_CHECK(pool_count(s, s->top[sl]) > 0, "pile %d: top colour has no card", sl);
        }
    int k = card_colour_pending(s);
    if (k >= 0) BR_CHECK(pool_count(s, k) > 0, "a card to draw of colour %d but none left", k);
    BR_CHECK(s->phase != BR_PH_REVEAL || any_pending(s, s->cur), "a reveal without drawn cards");
    BR_CHECK(s->phase != BR_PH_DICE || s->dice_rolled < BR_NCOL, "all dice rolled but still rolling");
    BR_CHECK(s->phase != BR_PH_START || (s->round == 1 && g->options[BR_OPT_START_PLAYER] < 0), "start player chance out of place");
    /* Phase fields: each sub-step's counters are zero outside the step that uses them. */
    int ph = s->phase, seated = ph == BR_PH_DRAW || ph == BR_PH_REVEAL || ph == BR_PH_DISASTER || ph == BR_PH_REP || ph == BR_PH_TURN;
    if (seated) BR_CHECK(s->seat < n && s->cur == seat_player(g, s), "the player to act (%d) is not the seat in turn", s->cur);
    BR_CHECK(ph == BR_PH_TURN || (!s->draws_left && !s->jailer_left && !s->need_card), "card draws or Jailer returns outside a turn");
    BR_CHECK(ph == BR_PH_DISASTER || (!s->pending_dis && !s->fire_left && !s->plague_left), "a disaster pending outside phase 2");
    BR_CHECK(!(s->fire_left && s->plague_left), "Fire and Plague pending at once");
    BR_CHECK(ph == BR_PH_DRAW || ph == BR_PH_REVEAL || !s->optional, "optional draws outside phase 1");
    if (ph == BR_PH_TURN) {
        BR_CHECK(s->lap < 4, "phase 3 lap %d out of range", s->lap);
        BR_CHECK(s->plays_left || s->played, "a turn with no card played and none to play");
        BR_CHECK(!(s->draws_left && s->jailer_left), "card draws and Jailer returns pending at once");
    }
    if (ph == BR_PH_DISASTER || ph == BR_PH_REP || ph == BR_PH_TURN) {
        BR_CHECK(s->dice_rolled == BR_NCOL, "dice not rolled in phase %d", ph);
        for (int k = 0; k < BR_NCOL; k++) BR_CHECK(s->die[k] >= 1, "die %d has no face", k);
    }
    if (ph == BR_PH_DICE) {
        BR_CHECK(s->seat == n, "dice rolled before every player drew");
        for (int k = 0; k < s->dice_rolled; k++) BR_CHECK(s->die[k] >= 1, "die %d has no face", k);
    }
    if (s->phase != BR_PH_OVER && !is_chance(s)) {
        es_move buf[BR_MAX_MOVES];
        BR_CHECK(legal_raw(g, s, buf) >= 2, "a decision with fewer than 2 moves (forced moves are applied)");
    }
    return ES_OK;
}

/* ---------------------------------------------------------------------------- text */

static const char *const COLOUR_NAME[BR_NCOL] = {"blue", "brown", "yellow", "red", "purple"};
static const char *const ACTION_NAME[7] = {"workers", "money", "threat", "canal0", "canal1", "house", "recruit"};

static const char *card_name(const es_game *g, int c) {
    return c < BR_CARDS ? D(g)->card[c].id : c >= BR_HIDDEN_CARD && c < BR_HIDDEN_CARD + BR_NCOL ? COLOUR_NAME[c - BR_HIDDEN_CARD] : "?";
}

static int br_move_to_str(const es_game *g, const void *sv, es_move m, char *buf, size_t cap) {
    (void)sv;
    int a = MV_ARG(m), w = -1;
    switch (MV_TYPE(m)) {
    case BR_M_DRAW: w = snprintf(buf, cap, "draw %c", (a & 1) ? 'B' : 'A'); break;
    case BR_M_DRAW_STOP: w = snprintf(buf, cap, "stop"); break;
    case BR_M_REP: w = snprintf(buf, cap, (a & 1) ? "reputation" : "pass"); break;
    case BR_M_ORDER: w = snprintf(buf, cap, "disaster %s", COLOUR_NAME[a % BR_NCOL]); break;
    case BR_M_FIRE_HOUSE: w = snprintf(buf, cap, "burn %s", card_name(g, a & 255)); break;
    case BR_M_FIRE_CANAL: w = snprintf(buf, cap, "burn canal%d", a & 1); break;
    case BR_M_PLAGUE: w = snprintf(buf, cap, "plague %s", card_name(g, a & 255)); break;
    case BR_M_ACTIVATE: w = snprintf(buf, cap, "activate %s", card_name(g, a & 255)); break;
    case BR_M_PLAY: w = snprintf(buf, cap, "%s %s", ACTION_NAME[((a >> 8) & 7) % 7], card_name(g, a & 255)); break;
    case BR_M_END_TURN: w = snprintf(buf, cap, "end"); break;
    case BR_M_JAILER: w = snprintf(buf, cap, "return %s", COLOUR_NAME[a % BR_NCOL]); break;
    case BR_C_START: w = snprintf(buf, cap, "start %d", a & 3); break;
    case BR_C_DIE: w = snprintf(buf, cap, "die %s %d", COLOUR_NAME[(a & 7) % BR_NCOL], (a >> 3) & 7); break;
    case BR_C_TOP: w = snprintf(buf, cap, "top %c %s", (a & 1) ? 'B' : 'A', COLOUR_NAME[((a >> 1) & 7) % BR_NCOL]); break;
    case BR_C_CARD: w = snprintf(buf, cap, "card %s", card_name(g, a & 255)); break;
    default: w = snprintf(buf, cap, "?%d", (int)m);
    }
    return w < 0 ? ES_ERR_BUFFER : (size_t)w >= cap ? ES_ERR_BUFFER : w;
}

/* The text of s; viewer >= 0: as that player sees it (others' hidden hand cards and houses by
 * colour only), -1: everything. */
static int render_impl(const es_game *g, const br_state *s, int viewer, char *buf, size_t cap) {
    size_t o = 0;
#define OUT(...) do { int w_ = snprintf(buf + (o < cap ? o : cap), o < cap ? cap - o : 0, __VA_ARGS__); if (w_ > 0) o += (size_t)w_; } while (0)
    static const char *const PH[] = {"start", "draw", "reveal", "dice", "disasters", "reputation", "play", "over"};
    OUT("Bruges (provisional data) round %d, phase %s, start player %d, to move %d\n", s->round, PH[s->phase], s->start, s->cur);
    OUT("piles A %d (top %s), B %d (top %s), extra %d%s; dice", s->size[0], COLOUR_NAME[s->top[0]], s->size[1],
        COLOUR_NAME[s->top[1]], s->extra_size, s->final_flag == 1 ? ", final round" : s->final_flag == 2 ? ", next round final" : "");
    for (int k = 0; k < BR_NCOL; k++) OUT(" %s %d", COLOUR_NAME[k], s->die[k]);
    OUT("\n");
    for (int p = 0; p < g->players; p++) {
        OUT("player %d: score %d, money %d, reputation %d, markers %d, canals %d/%d, statues %d/%d\n  workers", p,
            s->score[p], s->money[p], s->rep[p], s->markers[p], s->canal[p][0], s->canal[p][1], s->statue[p][0], s->statue[p][1]);
        for (int k = 0; k < BR_NCOL; k++) OUT(" %d", s->workers[p][k]);
        OUT(", threats");
        for (int k = 0; k < BR_NCOL; k++) OUT(" %d", s->threats[p][k]);
        OUT("\n  hand:");
        int hidden = viewer >= 0 && viewer != p;
        for (int c = 0; c < BR_CARDS; c++)
            if (s->zone[c] == BR_Z_HAND && s->owner[c] == p)
                OUT(" %s(%s)", hidden && !(s->flags[c] & BR_F_PUBLIC) ? "?" : D(g)->card[c].id, COLOUR_NAME[D(g)->card[c].colour]);
        for (int k = 0; k < BR_NCOL; k++)
            for (int i = 0; i < s->pending[p][k]; i++) OUT(" ?(%s)", COLOUR_NAME[k]);
        OUT("\n  houses:");
        for (int c = 0; c < BR_CARDS; c++)
            if (s->zone[c] == BR_Z_HOUSE && s->owner[c] == p) {
                OUT(" [%s %s", COLOUR_NAME[D(g)->card[c].colour], hidden ? "?" : D(g)->card[c].id);
                for (int e = 0; e < BR_CARDS; e++)
                    if (s->zone[e] == BR_Z_PERSON && s->link[e] == c)
                        OUT(" + %s%s", D(g)->card[e].id, (s->flags[e] & BR_F_ROTATED) ? " (used)" : "");
                OUT("]");
            }
        OUT("\n");
    }
#undef OUT
    return o < cap ? (int)o : ES_ERR_BUFFER;
}

static int br_render(const es_game *g, const void *sv, char *buf, size_t cap) {
    return render_impl(g, sv, -1, buf, cap);
}

static void br_redact(const es_game *g, const void *sv, int viewer, void *out);

/* The hook is given the view, not the viewer: the viewer is the seat whose redaction of the
 * real state is this view (seats whose views coincide see the same text). */
static int br_render_view(const es_game *g, const void *view, const void *real, char *buf, size_t cap) {
    br_state mine;
    for (int p = 0; p < g->players; p++) {
        br_redact(g, real, p, &mine);
        if (!memcmp(&mine, view, sizeof mine)) return render_impl(g, view, p, buf, cap);
    }
    return render_impl(g, view, -1, buf, cap);
}

/* ---------------------------------------------------------------------------- observation */

/* The vector's slices, in order (br_observation_layout names them); seats relative to the
 * viewer (row 0 is the viewer, then clockwise). Only public facts and the viewer's own cards. */
#define BR_OBS_SEAT (9 + 2 * BR_NCOL + BR_NCOL + 4 + BR_NFX)
#define BR_OBS_CARD 5
#define BR_NPHASES (BR_PH_OVER + 1)
static int br_observation_size(const es_game *g) {
    int n = g->players;
    return n * BR_OBS_SEAT + n + BR_NPHASES + BR_NCOL + 2 * (1 + BR_NCOL) + 8 + 11 + BR_CARDS * BR_OBS_CARD;
}

static int br_observation_layout(const es_game *g, es_obs_slice *out, int cap) {
    int n = g->players;
    es_obs_builder b = es_obs_begin(out, cap);
    es_obs_add(&b, "seats", n, BR_OBS_SEAT);
    es_obs_add(&b, "actor", n, 0);                /* one-hot, relative seat */
    es_obs_add(&b, "phase", BR_NPHASES, 0);       /* one-hot */
    es_obs_add(&b, "dice", BR_NCOL, 0);           /* face / 6 */
    es_obs_add(&b, "piles", 2, 1 + BR_NCOL);      /* size / 100, top colour one-hot */
    es_obs_add(&b, "progress", 8, 0);
    es_obs_add(&b, "turn", 11, 0);
    es_obs_add(&b, "cards", BR_CARDS, BR_OBS_CARD);
    return b.n;
}

static void br_observe(const es_game *g, const void *sv, int player, float *out) {
    const br_state *s = sv;
    const bruges_data *d = D(g);
    int n = g->players, i = 0;
    memset(out, 0, sizeof(float) * (size_t)br_observation_size(g));
    for (int r = 0; r < n; r++) {   /* seats: see the layout table in docs/bruges_engine.md */
        int p = (player + r) % n;
        float *o = out + i;
        o[0] = s->score[p] / 50.0f; o[1] = s->money[p] / 20.0f; o[2] = s->rep[p] / 8.0f;
        for (int m = 0; m < 3; m++) o[3 + m] = (float)(s->markers[p] >> m & 1);
        o[6] = s->canal[p][0] / 5.0f; o[7] = s->canal[p][1] / 5.0f;
        o[8] = (s->statue[p][0] + s->statue[p][1]) / 7.0f;
        for (int k = 0; k < BR_NCOL; k++) {
            o[9 + k] = s->workers[p][k] / 5.0f;
            o[14 + k] = s->threats[p][k] / 3.0f;
            o[19 + k] = s->pending[p][k] / 5.0f;   /* hand colours (public), drawn cards included */
        }
        o[24] = (float)(s->start == p);
        i += BR_OBS_SEAT;
    }
    for (int c = 0; c < BR_CARDS; c++) {   /* each owned card adds to its owner's seat, in card order */
        int p = s->owner[c];
        if (p >= n || s->zone[c] == BR_Z_POOL || s->zone[c] == BR_Z_DISCARD) continue;
        float *o = out + ((p - player + n) % n) * BR_OBS_SEAT;
        if (s->zone[c] == BR_Z_HAND) o[19 + d->card[c].colour] += 0.2f;
        else if (s->zone[c] == BR_Z_HOUSE) o[25] += 0.1f;
        else {
            o[26] += 0.1f;
            o[27] += (float)(s->flags[c] & BR_F_ROTATED);
            o[28 + d->card[c].effect] += 1;
        }
    }
    if (s->phase != BR_PH_OVER && !is_chance(s)) out[i + (s->cur - player + n) % n] = 1;
    i += n;
    out[i + s->phase] = 1;
    i += BR_NPHASES;
    for (int k = 0; k < BR_NCOL; k++) out[i++] = s->die[k] / 6.0f;
    for (int sl = 0; sl < 2; sl++) {
        out[i] = s->size[sl] / 100.0f;
        if (s->size[sl] && s->need_top != sl + 1 && !(sl == 1 && s->setup_b)) out[i + 1 + s->top[sl]] = 1;
        i += 1 + BR_NCOL;
    }
    out[i++] = s->round / 10.0f;
    out[i++] = (float)(s->final_flag == 1);
    out[i++] = (float)(s->final_flag == 2);
    out[i++] = s->extra_size / 100.0f;
    out[i++] = s->extra_entered;
    out[i++] = s->statues_taken / 6.0f;
    out[i++] = s->lap / 4.0f;
    out[i++] = rep_cost(s) / 10.0f;
    out[i++] = s->plays_left; out[i++] = s->played; out[i++] = s->draws_left; out[i++] = s->jailer_left;
    out[i++] = s->fire_left; out[i++] = s->plague_left;
    for (int k = 0; k < BR_NCOL; k++) out[i++] = (float)(s->pending_dis >> k & 1);
    for (int c = 0; c < BR_CARDS; c++, i += BR_OBS_CARD) {
        int z = s->zone[c];
        out[i + 0] = (float)(z == BR_Z_HAND && s->owner[c] == player);
        out[i + 1] = (float)(z == BR_Z_HOUSE && s->owner[c] == player);
        out[i + 2] = (float)(z == BR_Z_PERSON);
        out[i + 3] = (float)(z == BR_Z_DISCARD);
        out[i + 4] = (float)(z == BR_Z_HAND && s->owner[c] != player && (s->flags[c] & BR_F_PUBLIC));   /* known (Fire) */
    }
}

/* Dense action space (docs/bruges_engine.md): the type in bits 0-3, parameters above. */
static const es_move_kind bruges_move_kinds[] = {
    {BR_M_DRAW, 1, {{4, 1}}},
    {BR_M_DRAW_STOP, 0, {{0, 0}}},
    {BR_M_REP, 1, {{4, 1}}},
    {BR_M_ORDER, 1, {{4, 3}}},
    {BR_M_FIRE_HOUSE, 1, {{4, 8}}},
    {BR_M_FIRE_CANAL, 1, {{4, 1}}},
    {BR_M_PLAGUE, 1, {{4, 8}}},
    {BR_M_ACTIVATE, 1, {{4, 8}}},
    {BR_M_PLAY, 2, {{4, 8}, {12, 3}}},   /* card, action */
    {BR_M_END_TURN, 0, {{0, 0}}},
    {BR_M_JAILER, 1, {{4, 3}}},
};

/* ---------------------------------------------------------------------------- definition */

static const int32_t bruges_default_options[BR_NOPTIONS] = {-1, 0, 30};

/* The data's names (bruges_data): the person cards. Field kinds (es_field_kind): the per-card
 * arrays by card id, seats as seats. */
static const es_name_table bruges_card_names = ES_NAMES("person cards", bruges_data, card[0].id, sizeof(br_card), BR_CARDS);
#define BR_PER_CARD(name) ES_ARRAY_K(br_state, name, ES_U8, BR_CARDS, ES_K_PER_ITEM, &bruges_card_names)

static const es_field_desc bruges_fields[] = {
    ES_FIELD(br_state, phase, ES_U8), ES_FIELD(br_state, round, ES_U8), ES_FIELD_K(br_state, start, ES_U8, ES_K_SEAT, NULL),
    ES_FIELD_K(br_state, cur, ES_U8, ES_K_SEAT, NULL), ES_FIELD(br_state, final_flag, ES_U8), ES_FIELD(br_state, extra_entered, ES_U8),
    ES_FIELD(br_state, extra_size, ES_U8), ES_ARRAY(br_state, size, ES_U8, 2), ES_ARRAY(br_state, top, ES_U8, 2),
    ES_FIELD(br_state, need_top, ES_U8), ES_FIELD_K(br_state, setup_b, ES_U8, ES_K_BOOL, NULL), ES_FIELD(br_state, need_card, ES_U8),
    ES_FIELD(br_state, seat, ES_U8), ES_FIELD(br_state, lap, ES_U8), ES_FIELD_K(br_state, optional, ES_U8, ES_K_BOOL, NULL),
    ES_FIELD(br_state, plays_left, ES_U8), ES_FIELD(br_state, played, ES_U8), ES_FIELD(br_state, draws_left, ES_U8),
    ES_FIELD(br_state, jailer_left, ES_U8), ES_FIELD(br_state, pending_dis, ES_U8), ES_FIELD(br_state, fire_left, ES_U8),
    ES_FIELD(br_state, plague_left, ES_U8), ES_FIELD(br_state, dice_rolled, ES_U8), ES_ARRAY(br_state, die, ES_U8, BR_NCOL),
    ES_FIELD(br_state, statues_taken, ES_U8), ES_ARRAY(br_state, money, ES_U16, BR_MAXP),
    ES_ARRAY(br_state, score, ES_U16, BR_MAXP), ES_ARRAY(br_state, rep, ES_U8, BR_MAXP),
    ES_ARRAY(br_state, markers, ES_U8, BR_MAXP), ES_ARRAY(br_state, house_seq, ES_U8, BR_MAXP),
    ES_ARRAY2(br_state, workers, ES_U8, BR_MAXP, BR_NCOL), ES_ARRAY2(br_state, threats, ES_U8, BR_MAXP, BR_NCOL),
    ES_ARRAY2(br_state, pending, ES_U8, BR_MAXP, BR_NCOL), ES_ARRAY2(br_state, canal, ES_U8, BR_MAXP, 2),
    ES_ARRAY2(br_state, statue, ES_U8, BR_MAXP, 2), BR_PER_CARD(zone), BR_PER_CARD(owner), BR_PER_CARD(link),
    BR_PER_CARD(flags),
    ES_ARRAY_K(br_state, pool_n, ES_U8, BR_NCOL, ES_K_DERIVED, NULL),
    {"held", offsetof(br_state, held), ES_U64, 3 * BR_MAXP, BR_WORDS, ES_K_DERIVED, NULL},
    ES_ARRAY_K(br_state, pool, ES_U64, BR_WORDS, ES_K_DERIVED, NULL),
};

/* random_play hook: the library's loop, with this game's hooks called directly */
ES_RANDOM_PLAY_HOOK(br_random_play, br_current_player, br_random_move, br_sample_chance, br_apply)

const es_game_def es_bruges_def = {
    .name = "bruges",
    .min_players = 2,
    .max_players = BR_MAXP,
    .state_size = sizeof(br_state),
    .max_moves = BR_MAX_MOVES,
    .max_chance_outcomes = BR_MAX_CHANCE,
    .n_options = BR_NOPTIONS,
    .default_options = bruges_default_options,
    .setup = br_setup,
    .observation_size = br_observation_size,
    .init = br_init,
    .current_player = br_current_player,
    .legal_moves = br_legal_moves,
    .random_move = br_random_move,
    .random_play = br_random_play,
    .chance_outcomes = br_chance_outcomes,
    .sample_chance = br_sample_chance,
    .apply = br_apply,
    .scores = br_scores,
    .returns = br_returns,
    .determinize = br_determinize,
    .validate = br_validate,
    .observe = br_observe,
    .move_to_str = br_move_to_str,
    .render = br_render,
    .render_view = br_render_view,
    .redact = br_redact,
    .move_view = br_move_view,
    .evaluate = br_evaluate,
    .fields = bruges_fields,
    .n_fields = (int)(sizeof bruges_fields / sizeof bruges_fields[0]),
    .move_type_bits = 4,
    .move_kinds = bruges_move_kinds,
    .n_move_kinds = (int)(sizeof bruges_move_kinds / sizeof bruges_move_kinds[0]),
    .observation_layout = br_observation_layout,
    .derive = br_derive,
    .is_legal = br_is_legal,
};
