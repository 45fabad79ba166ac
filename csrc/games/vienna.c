/* Vienna: the rules. Component data comes in as a table (vienna.h); nothing here knows the
 * board. Sequencing, move ids and automatic single-option decisions follow
 * docs/vienna_engine.md; rule references (spec sections, VI-A ids) are to
 * shared/rules/vienna.md. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vienna.h"
#include "../core/bitset.h"
#include "../core/obslayout.h"
#include "../core/dice.h"
#include "../core/legal.h"
#include "../core/multiset.h"
#include "../core/playloop.h"
#include "../core/rng.h"
#include "../core/table.h"
#include "../core/text.h"

_Static_assert(sizeof(vienna_state) % 8 == 0, "state must be a multiple of 8 bytes");
_Static_assert(sizeof(vienna_state) == 544, "state layout changed: update the reflection table");

#define DATA(g) ((const vienna_data *)(g)->data)
#define BIT(i) (1u << (i))

static const char *const SYMBOL_NAME[3] = {"citizen", "cross", "crown"};

/* ---------------------------------------------------------------- small helpers */

static inline int dice_per_player(int n) { return n == 3 ? 5 : 4; }
static inline int left_of(int n, int p) { return (p + 1) % n; }
static inline int right_of(int n, int p) { return (p + n - 1) % n; }
static inline int popcount32(uint32_t x) { return __builtin_popcount(x); }
static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int lowest_bit(uint64_t x) { return __builtin_ctzll(x); }

static inline int hand_total(const vienna_state *s, int p) {
    const uint8_t *h = s->hand[p];
    return h[0] + h[1] + h[2] + h[3] + h[4] + h[5];
}

/* Dice p still has to place this round (a player who has not rolled has all of them). */
static inline int unplaced(const es_game *g, const vienna_state *s, int p) {
    if (!((s->rolled >> p) & 1)) return dice_per_player(g->players) + (s->white_holder == p);
    return hand_total(s, p) + (s->white_holder == p && s->white_face != 0);
}

/* The six face counts of p's hand as the low bytes of one word (face a in byte a - 1). */
static inline uint64_t hand_bytes(const vienna_state *s, int p) {
    uint64_t bytes = 0;
    memcpy(&bytes, s->hand[p], 6);
    return bytes;
}

static inline void set_hand_bytes(vienna_state *s, int p, uint64_t bytes) { memcpy(s->hand[p], &bytes, 6); }

/* A roll's or reroll's 3-bit digits (digit a - 1: dice of face a) as hand bytes. */
static inline uint64_t digits_to_bytes(uint32_t digits) {
    uint64_t bytes = 0;
    for (int i = 0; i < 6; i++) bytes |= (uint64_t)((digits >> (3 * i)) & 7) << (8 * i);
    return bytes;
}

/* unplaced(g, s, p) > 0, without summing the hand: the turn order asks this at every turn. */
static inline int has_unplaced(const vienna_state *s, int p) {
    return !((s->rolled >> p) & 1) || hand_bytes(s, p) || (s->white_holder == p && s->white_face != 0);
}

/* The face of p's white die while it is in p's hand, else 0. */
static inline int white_face_of(const vienna_state *s, int p) { return s->white_holder == p ? s->white_face : 0; }

/* p holds an unplaced die showing f: a coloured one, or (w) the white one. Move decoders pass
 * any f, so it is range-checked before it indexes the hand. */
static inline int holds_die(const vienna_state *s, int p, int f, int w) {
    if (f < 1 || f > 6) return 0;
    return w ? white_face_of(s, p) == f : s->hand[p][f - 1] > 0;
}

/* A die may be turned one pip up or down, without wrapping (VI-A14). */
static inline int can_step(int f, int up) { return up ? f < 6 : f > 1; }

/* Coloured dice a and b (a <= b) can be placed together: two of them if the faces are equal. */
static inline int pair_held(const uint8_t *h, int a, int b) { return h[b - 1] > (a == b); }

static inline int sym_of(const vienna_data *d, const vienna_state *s, int p, int sym) {
    return s->sym[p][sym] + (s->special_owner[VI_S_GI] == p ? d->gi[sym] : 0);
}

static inline int specials_owned(const vienna_state *s, int p) {
    int c = 0;
    for (int i = 0; i < VI_NSPECIAL; i++) c += s->special_owner[i] == p;
    return c;
}

/* The field that decides whether a placement goes backwards (VI-A8). */
static inline int carriage_ref(const es_game *g, const vienna_state *s, int p) {
    return g->options[VI_OPT_CARRIAGE] ? s->furthest[p] : s->carriage[p];
}

static inline uint32_t fields_for_totals(const vienna_data *d, uint32_t totals) {
    uint32_t m = 0;
    while (totals) {
        m |= d->fields_for_total[__builtin_ctz(totals)];
        totals &= totals - 1;
    }
    return m;
}

/* Totals two dice can make; a wild die (Dice joker on a 1, VI-A40) counts as any face. */
static inline uint32_t pair_totals(int x, int xwild, int y, int ywild) {
    if (xwild && ywild) return 0x1FFCu;         /* 2..12 */
    if (xwild) return 0x7Eu << y;                /* y+1..y+6 */
    if (ywild) return 0x7Eu << x;
    return BIT(x + y);
}

/* ---------------------------------------------------------------- move ids */

#define MV_DRAFT(c) (VI_M_DRAFT | (c) << 4)
#define MV_PLACE(f, c1, c2, w) (VI_M_PLACE | (f) << 4 | (c1) << 9 | (c2) << 12 | (w) << 15)
#define MV_NUDGE(f, up, w) (VI_M_NUDGE | (f) << 4 | (up) << 7 | (w) << 8)
#define MV_GENDARME(f) (VI_M_GENDARME | (f) << 4)
#define MV_KRIEAU(coin) (VI_M_KRIEAU | (coin) << 4)
#define MV_PRATER(f, w, t) (VI_M_PRATER | (f) << 4 | (w) << 7 | (t) << 8)
#define MV_DOUBLE(yes) (VI_M_DOUBLE | (yes) << 4)
#define MV_PERSON(t) (VI_M_PERSON | (t) << 4)
#define MV_PERSON_DECLINE (VI_M_PERSON | 1 << 10)
#define MV_GLORIETTE(sym) (VI_M_GLORIETTE | (sym) << 4)
#define MV_START(p) (VI_M_START | (p) << 4)
#define MV_ROLL(packed, w) (VI_M_ROLL | (int32_t)(packed) << 4 | (w) << 22)
#define MV_REVEAL(t) (VI_M_REVEAL | (t) << 4)
#define MV_TYPE(m) ((m) & 15)
#define MV_ARG(m, shift, bits) (((m) >> (shift)) & ((1 << (bits)) - 1))

/* ---------------------------------------------------------------- flow of the game */

static void draft_next(const es_game *g, vienna_state *s);
static void refill(const es_game *g, vienna_state *s);
static void end_turn(const es_game *g, vienna_state *s);
static void evaluate(const es_game *g, vienna_state *s, int from);

static void take_start_card(const es_game *g, vienna_state *s, int p, int c) {
    const vienna_data *d = DATA(g);
    s->start_card[p] = (int8_t)c;
    s->start_taken |= (uint8_t)BIT(c);
    s->drafted++;
    s->coins[p] += (uint16_t)d->start_coins[c];
    for (int k = 0; k < 3; k++) s->sym[p][k] += d->start_sym[c][k];
}

/* Draft order: right of the start player first, counter-clockwise, start player last. */
static void draft_next(const es_game *g, vienna_state *s) {
    const vienna_data *d = DATA(g);
    int n = g->players;
    while (s->drafted < n) {
        int sp = s->special_owner[VI_S_START];
        int picker = ((sp - 1 - s->drafted) % n + n) % n;
        uint32_t avail = (BIT(d->n_start) - 1) & ~(uint32_t)s->start_taken;
        if (popcount32(avail) > 1) {
            s->phase = VI_PH_DRAFT;
            s->actor = (int8_t)picker;
            return;
        }
        take_start_card(g, s, picker, __builtin_ctz(avail));
    }
    refill(g, s);
}

static void start_turn(const es_game *g, vienna_state *s, int p) {
    s->turn = s->actor = (int8_t)p;
    if (!((s->rolled >> p) & 1)) {
        s->phase = VI_PH_ROLL;
        s->roll_n = (uint8_t)dice_per_player(g->players);
        s->roll_white = s->white_holder == p;
    } else {
        s->phase = VI_PH_TURN;
    }
}

static void round_start(const es_game *g, vienna_state *s) {
    s->round++;
    s->rolled = 0;
    memset(s->hand, 0, sizeof s->hand);
    memset(s->carriage, -1, sizeof s->carriage);
    memset(s->furthest, -1, sizeof s->furthest);
    memset(s->sym_used, 0, sizeof s->sym_used);
    memset(s->geheimbund, 0, sizeof s->geheimbund);
    memset(s->occupant, -1, sizeof s->occupant);
    memset(s->field_dice, 0, sizeof s->field_dice);
    s->blocked = 0;
    s->gendarme = -1;
    s->double_used = 0;
    s->roll_turn = 0;
    s->white_holder = s->special_owner[VI_S_EXTRA];  /* S5 at round start (spec 4.7.3) */
    s->white_face = 0;
    s->white_placed = 0;
    start_turn(g, s, s->special_owner[VI_S_START]);
}

static int all_deck_cards_duplicate(const vienna_data *d, const vienna_state *s) {
    for (int t = 0; t < d->n_ptypes; t++)
        if (s->deck[t] && !((s->display >> t) & 1)) return 0;
    for (int i = 0; i < s->queue_len; i++)
        if (!((s->display >> s->queue[i]) & 1)) return 0;
    return 1;
}

/* A revealed person joins the display, or goes under the deck if it is a duplicate (5.3). */
static void place_revealed(vienna_state *s, int t) {
    if ((s->display >> t) & 1)
        s->queue[s->queue_len++] = (uint8_t)t;
    else
        s->display |= 1ull << t;
}

/* Refill the display to n-1 cards; stops at a chance node or starts the next round. */
static void refill(const es_game *g, vienna_state *s) {
    const vienna_data *d = DATA(g);
    while (popcount64(s->display) < g->players - 1) {
        if (s->deck_total == 0 && s->queue_len == 0) {
            if (s->discard_total == 0) break;
            for (int t = 0; t < d->n_ptypes; t++) {   /* VI-A34: reshuffle the discard pile */
                s->deck[t] = s->discard[t];
                s->discard[t] = 0;
            }
            s->deck_total = s->discard_total;
            s->discard_total = 0;
            continue;
        }
        if (all_deck_cards_duplicate(d, s)) break;   /* VI-A35 */
        if (s->deck_total) {
            s->phase = VI_PH_REVEAL;
            s->actor = -1;
            return;
        }
        int t = s->queue[0];
        memmove(s->queue, s->queue + 1, --s->queue_len);
        s->queue[s->queue_len] = 0;
        place_revealed(s, t);
    }
    round_start(g, s);
}

static void next_turn(const es_game *g, vienna_state *s) {
    int n = g->players;
    s->roll_turn = 0;
    for (int i = 1; i <= n; i++) {
        int q = (s->turn + i) % n;
        if (has_unplaced(s, q)) {
            start_turn(g, s, q);
            return;
        }
    }
    evaluate(g, s, 0);
}

static void end_turn(const es_game *g, vienna_state *s) {
    int p = s->turn;
    if (s->special_owner[VI_S_DOUBLE] == p && !s->double_used && has_unplaced(s, p)) {
        s->phase = VI_PH_DOUBLE;
        s->actor = (int8_t)p;
        return;
    }
    next_turn(g, s);
}

static void krieau_reward(const es_game *g, vienna_state *s) {
    const vi_field *f = &DATA(g)->field[DATA(g)->krieau];
    int p = s->turn;
    if (f->choose_one) {
        s->phase = VI_PH_KRIEAU;
        s->actor = (int8_t)p;
        return;
    }
    s->vp[p] += f->vp;
    s->coins[p] += f->coins;
    end_turn(g, s);
}

/* Krieau (4.6.1): the gendarme goes on an empty street field, then +VP or +coins. */
static void krieau_gendarme(const es_game *g, vienna_state *s) {
    uint32_t empty = DATA(g)->street_mask & ~s->blocked;
    if (popcount32(empty) > 1) {
        s->phase = VI_PH_GENDARME;
        s->actor = s->turn;
        return;
    }
    if (empty) {
        s->gendarme = (int8_t)__builtin_ctz(empty);
        s->blocked |= empty;
    }
    krieau_reward(g, s);
}

static void compare(const vienna_data *d, vienna_state *s, int n, int o, int sym) {
    int mine = sym_of(d, s, o, sym);
    int nb[2] = {left_of(n, o), right_of(n, o)};
    for (int i = 0; i < 2; i++) {
        int theirs = sym_of(d, s, nb[i], sym);
        if (mine > theirs) {
            s->vp[o] += (uint16_t)d->maj_vp;
            s->coins[o] += (uint16_t)d->maj_coins;
        } else if (mine == theirs) {   /* 0 = 0 is a tie too (VI-A26) */
            s->vp[o] += (uint16_t)d->tie_vp;
            s->coins[o] += (uint16_t)d->tie_coins;
        }
    }
    s->sym_used[o] |= (uint8_t)BIT(sym);
}

/* Distinct vectors of coins taken at Tiergarten (4.10.7, VI-A29), as move ids. */
static int tiergarten_options(const es_game *g, const vienna_state *s, int o, es_move *out) {
    const vi_field *f = &DATA(g)->field[s->eval_pos];
    int n = g->players, count = 0;
    es_move cand[1 + VI_MAXP + VI_MAXP * VI_MAXP];
    int nc = 0;
    cand[nc++] = VI_M_TIERGARTEN;
    for (int q = 0; q < n; q++) {
        if (q == o) continue;
        int take = s->coins[q] < f->steal_one ? s->coins[q] : f->steal_one;
        cand[nc++] = VI_M_TIERGARTEN | take << (4 + 3 * q);
    }
    for (int q1 = 0; q1 < n; q1++) {
        for (int q2 = q1 + 1; q2 < n; q2++) {
            if (q1 == o || q2 == o) continue;
            int t1 = s->coins[q1] < f->steal_two ? s->coins[q1] : f->steal_two;
            int t2 = s->coins[q2] < f->steal_two ? s->coins[q2] : f->steal_two;
            cand[nc++] = VI_M_TIERGARTEN | t1 << (4 + 3 * q1) | t2 << (4 + 3 * q2);
        }
    }
    for (int i = 0; i < nc; i++) {
        int dup = 0;
        for (int j = 0; j < count && !dup; j++) dup = out[j] == cand[i];
        if (!dup) out[count++] = cand[i];
    }
    return count;
}

static void take_person(const es_game *g, vienna_state *s, int o, int t) {
    const vienna_data *d = DATA(g);
    s->coins[o] -= d->field[s->eval_pos].cost;
    s->display &= ~(1ull << t);
    s->owned[o][t]++;
    for (int k = 0; k < 3; k++) s->sym[o][k] += d->psym[t][k];
}

static void final_scoring(const es_game *g, vienna_state *s) {
    const vienna_data *d = DATA(g);
    int n = g->players, bonus[VI_MAXP] = {0};
    for (int p = 0; p < n; p++)
        for (int k = 0; k < 3; k++) {
            int mine = sym_of(d, s, p, k);
            if (mine > sym_of(d, s, left_of(n, p), k) && mine > sym_of(d, s, right_of(n, p), k))
                bonus[p] += VI_FINAL_MAJORITY_VP;   /* VI-A31 */
        }
    for (int p = 0; p < n; p++) {
        s->vp[p] += (uint16_t)(bonus[p] + s->coins[p] / VI_COINS_PER_VP);   /* VI-A32 */
        s->coins[p] %= VI_COINS_PER_VP;
    }
    s->phase = VI_PH_OVER;
    s->actor = -1;
}

static void cleanup(const es_game *g, vienna_state *s) {
    int over = s->round >= g->options[VI_OPT_MAX_ROUNDS];
    for (int p = 0; p < g->players; p++) over |= s->vp[p] >= VI_END_VP;
    if (over) {
        final_scoring(g, s);
        return;
    }
    for (uint64_t x = s->display; x; x &= x - 1) {   /* the display's cards, not all the types */
        s->discard[lowest_bit(x)]++;
        s->discard_total++;
    }
    s->display = 0;
    refill(g, s);
}

/* Evaluation phase (4.9): fields in street order from `from`; stops at a decision. */
static void evaluate(const es_game *g, vienna_state *s, int from) {
    const vienna_data *d = DATA(g);
    es_move opts[16];
    /* occupied fields are blocked (so are the gendarme's, unoccupied): skip the empty ones */
    for (uint32_t x = s->blocked & ~(BIT(from) - 1); x; x &= x - 1) {
        int i = __builtin_ctz(x), o = s->occupant[i];
        if (o < 0) continue;
        const vi_field *f = &d->field[i];
        s->eval_pos = (uint8_t)i;
        switch (f->kind) {
        case VI_K_GAIN:
            if (f->pay && s->coins[o] < f->pay) break;   /* VI-A23: the action is lost */
            s->coins[o] -= f->pay;
            s->vp[o] += f->vp;
            s->coins[o] += f->coins;
            break;
        case VI_K_SPECIAL:
            s->special_owner[f->card] = (int8_t)o;
            break;
        case VI_K_PERSON: {
            if (!s->display || s->coins[o] < f->cost) break;
            int options = popcount64(s->display) + (g->options[VI_OPT_PERSON_OPTIONAL] != 0);
            if (options > 1) {
                s->phase = VI_PH_PERSON;
                s->actor = (int8_t)o;
                return;
            }
            take_person(g, s, o, lowest_bit(s->display));
            break;
        }
        case VI_K_COMPARE:
            compare(d, s, g->players, o, f->symbol);
            break;
        case VI_K_GLORIETTE: {
            uint32_t eligible = 7u & ~(uint32_t)s->sym_used[o];
            if (!eligible || s->coins[o] < f->pay) break;   /* VI-A27 */
            if (popcount32(eligible) > 1) {
                s->phase = VI_PH_GLORIETTE;
                s->actor = (int8_t)o;
                return;
            }
            s->coins[o] -= f->pay;
            compare(d, s, g->players, o, __builtin_ctz(eligible));
            break;
        }
        case VI_K_TIERGARTEN:
            if (tiergarten_options(g, s, o, opts) > 1) {
                s->phase = VI_PH_TIERGARTEN;
                s->actor = (int8_t)o;
                return;
            }
            break;
        case VI_K_HEURIGER:
            s->vp[o] += (uint16_t)(f->vp_per_special * specials_owned(s, o));   /* VI-A30 */
            break;
        default: /* Krieau and Prater resolved at placement */
            break;
        }
    }
    s->eval_pos = 0;
    cleanup(g, s);
}

/* ---------------------------------------------------------------- move generation */

/* REROLL (VI-A15): every non-empty sub-multiset of the hand's faces + white, as a mixed-radix
 * number whose digit i is the move's 3-bit field at 4 + 3i. Returns the radix product. */
static int reroll_radix(const vienna_state *s, int p, int radix[7]) {
    int combos = 1;
    for (int f = 0; f < 6; f++) combos *= (radix[f] = s->hand[p][f] + 1);
    return combos * (radix[6] = white_face_of(s, p) ? 2 : 1);
}

/* How many rerolls gen_modifications lists for hand h and white face wf (0: none in hand):
 * reroll_radix's product less the empty choice. */
static inline int reroll_count(const uint8_t *h, int wf) {
    return (h[0] + 1) * (h[1] + 1) * (h[2] + 1) * (h[3] + 1) * (h[4] + 1) * (h[5] + 1) * (wf ? 2 : 1) - 1;
}

/* NUDGE: +-1 without wrapping (VI-A14) */
static int gen_nudges(const vienna_state *s, int p, es_move *out) {
    const uint8_t *h = s->hand[p];   /* not holds_die: f needs no range check here (hot loop) */
    int wf = white_face_of(s, p), n = 0;
    for (int f = 1; f <= 6; f++) {
        if (!h[f - 1]) continue;
        if (can_step(f, 1)) out[n++] = MV_NUDGE(f, 1, 0);
        if (can_step(f, 0)) out[n++] = MV_NUDGE(f, 0, 0);
    }
    if (wf) {
        if (can_step(wf, 1)) out[n++] = MV_NUDGE(wf, 1, 1);
        if (can_step(wf, 0)) out[n++] = MV_NUDGE(wf, 0, 1);
    }
    return n;
}

static int gen_modifications(const vienna_state *s, int p, es_move *out) {
    /* rerolls counted by an odometer, no division (this loop was most of a playout's time) */
    int radix[7], digit[7] = {0}, combos = reroll_radix(s, p, radix), n = 0;
    es_move m = VI_M_REROLL;
    for (int idx = 1; idx < combos; idx++) {
        int i = 0;
        for (; digit[i] + 1 == radix[i]; i++) {
            m -= digit[i] << (4 + 3 * i);
            digit[i] = 0;
        }
        digit[i]++;
        m += 1 << (4 + 3 * i);
        out[n++] = m;
    }
    return n + gen_nudges(s, p, out + n);
}

/* The idx-th reroll (1 <= idx < radix product), as gen_modifications lists it. */
static es_move reroll_at(const int radix[7], int idx) {
    es_move m = VI_M_REROLL;
    for (int i = 0; i < 7; i++) {
        m |= (idx % radix[i]) << (4 + 3 * i);
        idx /= radix[i];
    }
    return m;
}

/* Street fields p may still place on: free, and behind the carriage only with a coin for
 * the bribe (4.5). */
static uint32_t open_fields(const es_game *g, const vienna_state *s, int p) {
    uint32_t open = DATA(g)->street_mask & ~s->blocked;
    int carr = carriage_ref(g, s, p);
    if (carr >= 0 && s->coins[p] == 0) open &= ~(BIT(carr) - 1);   /* no coin, no bribe */
    return open;
}

/* The street fields a die showing a takes, alone (b = 0) or with a second die showing b; a 1
 * is wild for the holder of the Dice joker (VI-A40). */
static inline uint32_t dice_fit(const vienna_data *d, int joker, int a, int b) {
    return d->fit[joker][a][b];
}

/* p's dice as bit sets (bit a: face a), read once per call: with them a turn's moves are
 * counted and one of them found without listing them (a turn often has a hundred). */
typedef struct {
    uint32_t faces;             /* faces of p's unplaced coloured dice */
    uint32_t doubles;           /* faces p holds two or more coloured dice of */
    int wf;                     /* the white die's face while in p's hand, else 0 */
    uint32_t open;              /* open_fields */
    const uint32_t (*fit)[7];   /* dice_fit for p: fit[a][b] */
} vi_dice;

static inline vi_dice read_dice(const es_game *g, const vienna_state *s, int p) {
    uint64_t bytes = hand_bytes(s, p);   /* counts of at most 5 */
    vi_dice v;
    v.faces = es_bytes_at_least(bytes, 1) << 1;
    v.doubles = es_bytes_at_least(bytes, 2) << 1;
    v.wf = white_face_of(s, p);
    v.open = open_fields(g, s, p);
    v.fit = DATA(g)->fit[s->special_owner[VI_S_JOKER] == p];
    return v;
}

/* The faces b a die of face a is placed together with, in list order (b >= a): a itself if
 * p has two of them (pair_held), then every higher face p holds. `above` is the faces above
 * a, which the loops over the faces have at hand (their remaining bits). */
static inline uint32_t pair_partners(const vi_dice *v, int a, uint32_t above) {
    return (v->doubles & BIT(a)) | above;
}

/* PLACE (4.4), in list order: for each held face a, a alone, a with each partner b, a with
 * the white die; then the white die alone. Each such group of dice takes the street fields it
 * fits, in order, then Geheimbund (any dice, always free, 4.6.3). gen_placements,
 * placement_count and placement_at walk the groups in this same order. */
static int list_group(uint32_t fields, int c1, int c2, int w, es_move *out, int n) {
    for (; fields; fields &= fields - 1) out[n++] = MV_PLACE(__builtin_ctz(fields), c1, c2, w);
    out[n++] = MV_PLACE(VI_GEHEIMBUND, c1, c2, w);
    return n;
}

static int gen_placements(const es_game *g, const vienna_state *s, int p, es_move *out, int n) {
    vi_dice v = read_dice(g, s, p);
    for (uint32_t as = v.faces; as; as &= as - 1) {
        int a = __builtin_ctz(as);
        n = list_group(v.fit[a][0] & v.open, a, 0, 0, out, n);
        for (uint32_t bs = pair_partners(&v, a, as & (as - 1)); bs; bs &= bs - 1) {
            int b = __builtin_ctz(bs);
            n = list_group(v.fit[a][b] & v.open, a, b, 0, out, n);
        }
        if (v.wf) n = list_group(v.fit[a][v.wf] & v.open, a, 0, 1, out, n);
    }
    if (v.wf) n = list_group(0, 0, 0, 1, out, n);   /* the white die alone: only on Geheimbund */
    return n;
}

/* How many moves gen_placements lists: per group its fields and Geheimbund. */
static int placement_count(const vi_dice *v) {
    const uint32_t open = v->open, (*fit)[7] = v->fit;
    const int wf = v->wf;
    int n = 0;
    for (uint32_t as = v->faces; as; as &= as - 1) {
        int a = __builtin_ctz(as);
        n += popcount32(fit[a][0] & open) + 1;
        for (uint32_t bs = pair_partners(v, a, as & (as - 1)); bs; bs &= bs - 1)
            n += popcount32(fit[a][__builtin_ctz(bs)] & open) + 1;
        if (wf) n += popcount32(fit[a][wf] & open) + 1;
    }
    return n + (wf != 0);
}

/* The k-th move of a group (its fields, then Geheimbund), or 0 (no move id is 0) with the
 * group's size taken off k. */
static inline es_move group_move_at(uint32_t fields, int c1, int c2, int w, int *k) {
    int size = popcount32(fields) + 1;
    if (*k >= size) {
        *k -= size;
        return 0;
    }
    for (int i = *k; i > 0; i--) fields &= fields - 1;   /* drop the k lowest; none left: Geheimbund */
    return MV_PLACE(fields ? __builtin_ctz(fields) : VI_GEHEIMBUND, c1, c2, w);
}

/* gen_placements' k-th move (0 <= k < placement_count), without the list. */
static es_move placement_at(const vi_dice *v, int k) {
    const uint32_t open = v->open, (*fit)[7] = v->fit;
    const int wf = v->wf;
    es_move m;
    for (uint32_t as = v->faces; as; as &= as - 1) {
        int a = __builtin_ctz(as);
        if ((m = group_move_at(fit[a][0] & open, a, 0, 0, &k))) return m;
        for (uint32_t bs = pair_partners(v, a, as & (as - 1)); bs; bs &= bs - 1) {
            int b = __builtin_ctz(bs);
            if ((m = group_move_at(fit[a][b] & open, a, b, 0, &k))) return m;
        }
        if (wf && (m = group_move_at(fit[a][wf] & open, a, 0, 1, &k))) return m;
    }
    return wf ? group_move_at(0, 0, 0, 1, &k) : 0;
}

static inline int may_modify(const es_game *g, const vienna_state *s, int p) {
    return s->coins[p] && (g->options[VI_OPT_MODIFY_EVERY_TURN] || s->roll_turn);
}

static int gen_prater(const vienna_state *s, int p, es_move *out) {
    int n = 0;
    out[n++] = VI_M_PRATER;   /* skip */
    for (int f = 1; f <= 6; f++) {
        if (!holds_die(s, p, f, 0)) continue;
        for (int t = 1; t <= 6; t++)
            if (t != f) out[n++] = MV_PRATER(f, 0, t);
    }
    int wf = white_face_of(s, p);
    if (wf)
        for (int t = 1; t <= 6; t++)
            if (t != wf) out[n++] = MV_PRATER(wf, 1, t);
    return n;
}

static int vi_legal_moves(const es_game *g, const void *vs, es_move *out) {
    const vienna_state *s = (const vienna_state *)vs;
    const vienna_data *d = DATA(g);
    int p = s->actor, n = 0;
    switch (s->phase) {
    case VI_PH_DRAFT:
        for (int c = 0; c < d->n_start; c++)
            if (!((s->start_taken >> c) & 1)) out[n++] = MV_DRAFT(c);
        return n;
    case VI_PH_TURN:
        if (may_modify(g, s, p)) n = gen_modifications(s, p, out);
        return gen_placements(g, s, p, out, n);
    case VI_PH_GENDARME: {
        uint32_t empty = d->street_mask & ~s->blocked;
        while (empty) {
            out[n++] = MV_GENDARME(__builtin_ctz(empty));
            empty &= empty - 1;
        }
        return n;
    }
    case VI_PH_KRIEAU:
        out[0] = MV_KRIEAU(0);
        out[1] = MV_KRIEAU(1);
        return 2;
    case VI_PH_PRATER:
        return gen_prater(s, p, out);
    case VI_PH_DOUBLE:
        out[0] = MV_DOUBLE(1);
        out[1] = MV_DOUBLE(0);
        return 2;
    case VI_PH_PERSON:
        for (uint64_t x = s->display; x; x &= x - 1) out[n++] = MV_PERSON(lowest_bit(x));
        if (g->options[VI_OPT_PERSON_OPTIONAL]) out[n++] = MV_PERSON_DECLINE;
        return n;
    case VI_PH_GLORIETTE:
        for (int k = 0; k < 3; k++)
            if (!((s->sym_used[p] >> k) & 1)) out[n++] = MV_GLORIETTE(k);
        return n;
    case VI_PH_TIERGARTEN:
        return tiergarten_options(g, s, p, out);
    default:
        return 0;
    }
}

/* Nudges gen_nudges lists: each held face up unless a 6 and down unless a 1 (can_step). */
static inline int nudge_count(const vi_dice *v) {
    int n = 2 * popcount32(v->faces) - (int)((v->faces >> 1) & 1) - (int)((v->faces >> 6) & 1);
    return v->wf ? n + 2 - (v->wf == 1) - (v->wf == 6) : n;
}

/* A turn's move for a random playout: the list (rerolls, nudges, placements; often a hundred
 * moves) is counted, and only the drawn move is built, in vi_legal_moves order. */
static es_move vi_random_move(const es_game *g, const void *vs, es_rng *rng, int *count) {
    const vienna_state *s = (const vienna_state *)vs;
    if (s->phase != VI_PH_TURN) {   /* other phases have a few moves: the list is cheap */
        *count = -1;
        return 0;
    }
    int p = s->actor, rerolls = 0, nudges = 0;
    vi_dice v = read_dice(g, s, p);
    if (may_modify(g, s, p)) {
        rerolls = reroll_count(s->hand[p], v.wf);
        nudges = nudge_count(&v);
    }
    int n = *count = rerolls + nudges + placement_count(&v);
    if (n <= 0) return 0;
    int k = (int)es_rng_u32_below(rng, (uint32_t)n);
    if (k < rerolls) {
        int radix[7];
        reroll_radix(s, p, radix);
        return reroll_at(radix, k + 1);
    }
    k -= rerolls;
    if (k < nudges) {
        es_move m[16];
        gen_nudges(s, p, m);
        return m[k];
    }
    return placement_at(&v, k - nudges);
}

/* ---------------------------------------------------------------- chance */

static int vi_chance_outcomes(const es_game *g, const void *vs, es_move *out, double *prob) {
    const vienna_state *s = (const vienna_state *)vs;
    const vienna_data *d = DATA(g);
    int n = 0;
    switch (s->phase) {
    case VI_PH_START:
        for (int p = 0; p < g->players; p++) {
            out[n] = MV_START(p);
            prob[n++] = 1.0 / (double)g->players;
        }
        return n;
    case VI_PH_ROLL: {
        uint32_t sets[252];
        int m = es_dice_multisets(s->roll_n, sets);
        double total = (double)es_dice_space(s->roll_n + s->roll_white);
        for (int i = 0; i < m; i++) {
            uint8_t c[6];
            es_dice_unpack(sets[i], c);
            double w = (double)es_dice_weight(c);
            if (s->roll_white) {
                for (int wf = 1; wf <= 6; wf++) {
                    out[n] = MV_ROLL(sets[i], wf);
                    prob[n++] = w / total;
                }
            } else {
                out[n] = MV_ROLL(sets[i], 0);
                prob[n++] = w / total;
            }
        }
        return n;
    }
    case VI_PH_REVEAL:
        for (int t = 0; t < d->n_ptypes; t++)
            if (s->deck[t]) {
                out[n] = MV_REVEAL(t);
                prob[n++] = (double)s->deck[t] / (double)s->deck_total;
            }
        return n;
    default:
        return 0;
    }
}

static es_move vi_sample_chance(const es_game *g, const void *vs, es_rng *rng) {
    const vienna_state *s = (const vienna_state *)vs;
    switch (s->phase) {
    case VI_PH_START:
        return MV_START(es_rng_u32_below(rng, (uint32_t)g->players));
    case VI_PH_ROLL: {
        uint8_t c[6];
        es_dice_roll(rng, s->roll_n, c);
        int wf = s->roll_white ? 1 + (int)es_rng_u32_below(rng, 6) : 0;
        return MV_ROLL(es_dice_pack(c), wf);
    }
    case VI_PH_REVEAL:
        return MV_REVEAL(es_multiset_draw(s->deck, DATA(g)->n_ptypes, s->deck_total, rng));
    default:
        return 0;
    }
}

/* ---------------------------------------------------------------- is_legal */

/* REROLL of some of p's dice: each 3-bit digit at most what p holds of that face (the white
 * digit at most 1, and only with the white die in hand), not all zero, nothing above. */
static int reroll_legal(const vienna_state *s, int p, uint32_t u) {
    int radix[7];
    uint32_t any = 0;
    reroll_radix(s, p, radix);
    if (u >> 25) return 0;
    for (int i = 0; i < 7; i++) {
        uint32_t digit = (u >> (4 + 3 * i)) & 7;
        if (digit >= (uint32_t)radix[i]) return 0;
        any |= digit;
    }
    return any != 0;
}

/* PLACE: (c1, c2, w) must be a group gen_placements lists, and f Geheimbund or one of the
 * street fields that group fits. */
static int place_legal(const es_game *g, const vienna_state *s, int p, uint32_t u) {
    if (u >> 16) return 0;
    int f = MV_ARG(u, 4, 5), c1 = MV_ARG(u, 9, 3), c2 = MV_ARG(u, 12, 3), w = MV_ARG(u, 15, 1);
    int wf = white_face_of(s, p);
    if (!c1) return !c2 && w && wf && f == VI_GEHEIMBUND;   /* the white die alone */
    if (!holds_die(s, p, c1, 0)) return 0;
    if (w && (c2 || !wf)) return 0;   /* one coloured die with the white one */
    if (c2 && (c2 < c1 || c2 > 6 || !pair_held(s->hand[p], c1, c2))) return 0;   /* two coloured dice */
    if (f == VI_GEHEIMBUND) return 1;
    uint32_t fields = dice_fit(DATA(g), s->special_owner[VI_S_JOKER] == p, c1, w ? wf : c2) & open_fields(g, s, p);
    return (fields >> f) & 1;
}

/* A turn's move, decoded (a turn can list a thousand moves). */
static int turn_move_legal(const es_game *g, const vienna_state *s, int p, uint32_t u) {
    switch (MV_TYPE(u)) {
    case VI_M_REROLL:
        return may_modify(g, s, p) && reroll_legal(s, p, u);
    case VI_M_NUDGE:
        return may_modify(g, s, p) && !(u >> 9) && holds_die(s, p, MV_ARG(u, 4, 3), MV_ARG(u, 8, 1)) &&
               can_step(MV_ARG(u, 4, 3), MV_ARG(u, 7, 1));
    case VI_M_PLACE:
        return place_legal(g, s, p, u);
    default:
        return 0;
    }
}

/* Membership in vi_legal_moves / vi_chance_outcomes without the list, so that a checked apply
 * costs little more than an unchecked one (issue 19): at a roll the list is up to 1,512
 * throws. Every field of m is range-checked before it indexes anything. */
static int vi_is_legal(const es_game *g, const void *vs, es_move m) {
    const vienna_state *s = (const vienna_state *)vs;
    const vienna_data *d = DATA(g);
    uint32_t u = (uint32_t)m, arg = u >> 4;
    int p = s->actor, type = MV_TYPE(u);
    switch (s->phase) {
    case VI_PH_START:
        return type == VI_M_START && arg < (uint32_t)g->players;
    case VI_PH_ROLL:   /* a multiset of roll_n dice, and the white face iff the white die rolls */
        return type == VI_M_ROLL && es_dice_is_multiset(arg & 0x3FFFF, s->roll_n) &&
               (s->roll_white ? arg >> 18 >= 1 && arg >> 18 <= 6 : arg >> 18 == 0);
    case VI_PH_REVEAL:
        return type == VI_M_REVEAL && arg < (uint32_t)d->n_ptypes && s->deck[arg];
    case VI_PH_DRAFT:
        return type == VI_M_DRAFT && arg < (uint32_t)d->n_start && !((s->start_taken >> arg) & 1);
    case VI_PH_TURN:
        return turn_move_legal(g, s, p, u);
    case VI_PH_GENDARME:
        return type == VI_M_GENDARME && arg < 32 && (((d->street_mask & ~s->blocked) >> arg) & 1);
    case VI_PH_KRIEAU:
        return type == VI_M_KRIEAU && arg <= 1;
    case VI_PH_PRATER:   /* skip, or turn a held die to another face */
        if (u == VI_M_PRATER) return 1;
        return type == VI_M_PRATER && !(u >> 11) && holds_die(s, p, MV_ARG(u, 4, 3), MV_ARG(u, 7, 1)) &&
               MV_ARG(u, 8, 3) >= 1 && MV_ARG(u, 8, 3) <= 6 && MV_ARG(u, 8, 3) != MV_ARG(u, 4, 3);
    case VI_PH_DOUBLE:
        return type == VI_M_DOUBLE && arg <= 1;
    case VI_PH_PERSON:
        if (u == MV_PERSON_DECLINE) return g->options[VI_OPT_PERSON_OPTIONAL] != 0;
        return type == VI_M_PERSON && arg < 64 && ((s->display >> arg) & 1);
    case VI_PH_GLORIETTE:
        return type == VI_M_GLORIETTE && arg < 3 && !((s->sym_used[p] >> arg) & 1);
    case VI_PH_TIERGARTEN: {   /* at most 11 options: the list is cheap */
        es_move opts[1 + VI_MAXP + VI_MAXP * VI_MAXP];
        return es_moves_have(opts, tiergarten_options(g, s, p, opts), m);
    }
    default:   /* over */
        return 0;
    }
}

/* ---------------------------------------------------------------- apply */

static void apply_place(const es_game *g, vienna_state *s, es_move m) {
    const vienna_data *d = DATA(g);
    int p = s->turn;
    int f = MV_ARG(m, 4, 5), c1 = MV_ARG(m, 9, 3), c2 = MV_ARG(m, 12, 3), w = MV_ARG(m, 15, 1);
    int ncol = (c1 > 0) + (c2 > 0);
    if (c1) s->hand[p][c1 - 1]--;
    if (c2) s->hand[p][c2 - 1]--;
    if (w) {
        s->white_face = 0;
        s->white_placed = f == VI_GEHEIMBUND ? 2 : 1;
    }
    if (f == VI_GEHEIMBUND) {   /* off the street: no bribe, carriage stays (VI-A10, VI-A11) */
        s->geheimbund[p] += (uint8_t)ncol;
        s->coins[p] += (uint16_t)(d->gb_coins_per_die * (ncol + w) + d->gb_coins);
        s->vp[p] += (uint16_t)d->gb_vp;
        end_turn(g, s);
        return;
    }
    int carr = carriage_ref(g, s, p);
    if (carr >= 0 && f < carr) s->coins[p]--;   /* bribe the coachman (4.5, VI-A9) */
    s->occupant[f] = (int8_t)p;
    s->field_dice[f] = (uint8_t)(ncol | w << 2);
    s->blocked |= BIT(f);
    s->carriage[p] = (int8_t)f;
    if (f > s->furthest[p]) s->furthest[p] = (int8_t)f;
    const vi_field *fd = &d->field[f];
    if (fd->kind == VI_K_KRIEAU) {
        krieau_gendarme(g, s);
    } else if (fd->kind == VI_K_PRATER) {
        s->vp[p] += fd->vp;
        s->coins[p] += fd->coins;
        if (has_unplaced(s, p)) {
            s->phase = VI_PH_PRATER;
            s->actor = (int8_t)p;
        } else {
            end_turn(g, s);
        }
    } else {
        end_turn(g, s);
    }
}

static void vi_apply(const es_game *g, void *vs, es_move m) {
    vienna_state *s = (vienna_state *)vs;
    int p = s->actor;
    switch (MV_TYPE(m)) {
    case VI_M_START:
        s->special_owner[VI_S_START] = (int8_t)MV_ARG(m, 4, 3);
        draft_next(g, s);
        break;
    case VI_M_DRAFT:
        take_start_card(g, s, p, MV_ARG(m, 4, 4));
        draft_next(g, s);
        break;
    case VI_M_REVEAL: {
        int t = MV_ARG(m, 4, 6);
        s->deck[t]--;
        s->deck_total--;
        place_revealed(s, t);
        refill(g, s);
        break;
    }
    case VI_M_ROLL: {
        /* bytewise add: a hand holds at most 5 dice, so no byte carries into the next */
        set_hand_bytes(s, p, hand_bytes(s, p) + digits_to_bytes(MV_ARG(m, 4, 18)));
        if (s->roll_white) s->white_face = (uint8_t)MV_ARG(m, 22, 3);
        if (!((s->rolled >> p) & 1)) {
            s->rolled |= (uint8_t)BIT(p);
            s->roll_turn = 1;
        }
        s->roll_n = s->roll_white = 0;
        s->phase = VI_PH_TURN;
        break;
    }
    case VI_M_REROLL: {
        int j = 0;
        s->coins[p]--;
        for (int f = 0; f < 6; f++) {
            int r = MV_ARG(m, 4 + 3 * f, 3);
            s->hand[p][f] -= (uint8_t)r;
            j += r;
        }
        s->roll_n = (uint8_t)j;
        s->roll_white = (uint8_t)MV_ARG(m, 22, 1);
        if (s->roll_white) s->white_face = 0;
        s->phase = VI_PH_ROLL;
        break;
    }
    case VI_M_NUDGE: {
        int f = MV_ARG(m, 4, 3), to = MV_ARG(m, 7, 1) ? f + 1 : f - 1;
        s->coins[p]--;
        if (MV_ARG(m, 8, 1)) {
            s->white_face = (uint8_t)to;
        } else {
            s->hand[p][f - 1]--;
            s->hand[p][to - 1]++;
        }
        break;
    }
    case VI_M_PLACE:
        apply_place(g, s, m);
        break;
    case VI_M_GENDARME: {
        int f = MV_ARG(m, 4, 5);
        s->gendarme = (int8_t)f;
        s->blocked |= BIT(f);
        krieau_reward(g, s);
        break;
    }
    case VI_M_KRIEAU: {
        const vi_field *f = &DATA(g)->field[DATA(g)->krieau];
        if (MV_ARG(m, 4, 1))
            s->coins[p] += f->coins;
        else
            s->vp[p] += f->vp;
        end_turn(g, s);
        break;
    }
    case VI_M_PRATER:
        if (m != VI_M_PRATER) {
            int f = MV_ARG(m, 4, 3), t = MV_ARG(m, 8, 3);
            if (MV_ARG(m, 7, 1)) {
                s->white_face = (uint8_t)t;
            } else {
                s->hand[p][f - 1]--;
                s->hand[p][t - 1]++;
            }
        }
        end_turn(g, s);
        break;
    case VI_M_DOUBLE:
        if (MV_ARG(m, 4, 1)) {   /* an extra turn without a roll (VI-A38) */
            s->double_used = 1;
            s->roll_turn = 0;
            s->phase = VI_PH_TURN;
        } else {
            next_turn(g, s);
        }
        break;
    case VI_M_PERSON:
        if (m != MV_PERSON_DECLINE) take_person(g, s, p, MV_ARG(m, 4, 6));
        evaluate(g, s, s->eval_pos + 1);
        break;
    case VI_M_GLORIETTE:
        s->coins[p] -= DATA(g)->field[s->eval_pos].pay;
        compare(DATA(g), s, g->players, p, MV_ARG(m, 4, 2));
        evaluate(g, s, s->eval_pos + 1);
        break;
    case VI_M_TIERGARTEN:
        for (int q = 0; q < g->players; q++) {
            int take = MV_ARG(m, 4 + 3 * q, 3);
            s->coins[q] -= (uint16_t)take;
            s->coins[p] += (uint16_t)take;
        }
        evaluate(g, s, s->eval_pos + 1);
        break;
    default:
        break;
    }
}

/* ---------------------------------------------------------------- setup and init */

static int vi_current_player(const es_game *g, const void *vs) {
    (void)g;
    const vienna_state *s = (const vienna_state *)vs;
    switch (s->phase) {
    case VI_PH_START:
    case VI_PH_REVEAL:
    case VI_PH_ROLL:
        return ES_CHANCE;
    case VI_PH_OVER:
        return ES_TERMINAL;
    default:
        return s->actor;
    }
}

static void vi_init(const es_game *g, void *vs) {
    const vienna_data *d = DATA(g);
    vienna_state *s = (vienna_state *)vs;
    memset(s->special_owner, -1, sizeof s->special_owner);
    memset(s->start_card, -1, sizeof s->start_card);
    memset(s->carriage, -1, sizeof s->carriage);
    memset(s->furthest, -1, sizeof s->furthest);
    memset(s->occupant, -1, sizeof s->occupant);
    s->gendarme = -1;
    s->white_holder = -1;
    s->actor = -1;
    s->turn = 0;
    for (int p = 0; p < g->players; p++) s->vp[p] = (uint16_t)d->start_vp[g->players];
    for (int t = 0; t < d->n_ptypes; t++) s->deck[t] = d->copies[t];
    s->deck_total = VI_DECK;
    if (g->options[VI_OPT_START_PLAYER] >= 0) {
        s->special_owner[VI_S_START] = (int8_t)g->options[VI_OPT_START_PLAYER];
        draft_next(g, s);
    } else {
        s->phase = VI_PH_START;
    }
}

/* A failed check names the data file's entry and field (the table follows vienna_data.py). */
#define NEED(cond, ...) \
    do { if (!(cond)) { es_setup_error(err, errlen, "vienna data: " __VA_ARGS__); free(d); return ES_ERR_ARG; } } while (0)
#define NEED_OPTION(cond, name) \
    do { if (!(cond)) { free(d); return es_setup_error(err, errlen, "vienna option %s out of range", name); } } while (0)
#define IN(v, lo, hi) ((v) >= (lo) && (v) <= (hi))

/* The data file's key of each head value of the table (t[4..16]). */
static const char *const head_key[VI_TABLE_HEAD] = {
    NULL, NULL, NULL, NULL, "start_vp.3", "start_vp.4", "start_vp.5",
    "compare_reward.majority_vp", "compare_reward.majority_coins", "compare_reward.tie_vp",
    "compare_reward.tie_coins", "greater_influence.citizen", "greater_influence.cross",
    "greater_influence.crown", "board.offstreet (geheimbund): coins_per_die",
    "board.offstreet (geheimbund): vp", "board.offstreet (geheimbund): coins",
};
static const char *const field_key[VI_TABLE_FIELD] = {
    "kind", "accept", "pair", "vp", "coins", "pay", "cost", "card", "symbol", "choose_one",
    "steal_one", "steal_two", "vp_per_special",
};

static int vi_setup(es_game *g, const int32_t *t, size_t len, char *err, size_t errlen) {
    vienna_data *d = (vienna_data *)calloc(1, sizeof *d);
    if (!d) return es_setup_error(err, errlen, "out of memory");
    NEED(len >= VI_TABLE_HEAD, "the table is too short (%zu ints)", len);
    NEED(t[0] == VI_TABLE_VERSION, "unknown table version %d", t[0]);
    d->F = t[1];
    d->n_start = t[2];
    d->n_ptypes = t[3];
    NEED(IN(d->F, 3, VI_MAX_STREET), "board.fields: %d street fields; the engine takes 3..%d", d->F, VI_MAX_STREET);
    NEED(IN(d->n_start, 1, VI_MAX_START), "cards.starting: %d starting cards; the engine takes 1..%d", d->n_start,
         VI_MAX_START);
    NEED(d->n_start >= g->players, "cards.starting: %d starting cards for %d players; each player draws one",
         d->n_start, g->players);
    NEED(IN(d->n_ptypes, 1, VI_MAX_PTYPES), "cards.persons: %d person types; the engine takes 1..%d", d->n_ptypes,
         VI_MAX_PTYPES);
    size_t want = VI_TABLE_HEAD + (size_t)d->F * VI_TABLE_FIELD + (size_t)(d->n_start + d->n_ptypes) * 4 +
                  (size_t)(d->F + d->n_start + d->n_ptypes) * ES_NAME_INTS;
    NEED(len == want, "the table has %zu ints, its counts say %zu", len, want);
    /* the ids, to name the entries: street fields, starting cards, person cards */
    const int32_t *names = t + want - (size_t)(d->F + d->n_start + d->n_ptypes) * ES_NAME_INTS;
    for (int i = 0; i < d->F; i++) es_read_name(names + i * ES_NAME_INTS, d->field[i].id);
    for (int c = 0; c < d->n_start; c++) es_read_name(names + (d->F + c) * ES_NAME_INTS, d->start_id[c]);
    for (int p = 0; p < d->n_ptypes; p++)
        es_read_name(names + (d->F + d->n_start + p) * ES_NAME_INTS, d->person_id[p]);
    for (int i = 4; i < VI_TABLE_HEAD; i++) NEED(IN(t[i], 0, 24), "%s: %d is out of range 0..24", head_key[i], t[i]);
    for (int n = 3; n <= 5; n++) d->start_vp[n] = t[4 + n - 3];
    d->maj_vp = t[7], d->maj_coins = t[8], d->tie_vp = t[9], d->tie_coins = t[10];
    for (int k = 0; k < 3; k++) {
        d->gi[k] = t[11 + k];
        NEED(d->gi[k] <= 7, "%s: %d is out of range 0..7", head_key[11 + k], d->gi[k]);
    }
    d->gb_coins_per_die = t[14], d->gb_vp = t[15], d->gb_coins = t[16];
    d->krieau = d->prater = -1;
    const int32_t *ft = t + VI_TABLE_HEAD;
    for (int i = 0; i < d->F; i++, ft += VI_TABLE_FIELD) {
        vi_field *f = &d->field[i];
        const char *id = f->id;
        NEED(IN(ft[0], 0, VI_NKINDS - 1), "board.fields (%s, position %d): field 'kind': unknown kind %d", id, i + 1, ft[0]);
        NEED((ft[1] & ~0x1FFE) == 0, "board.fields (%s, position %d): field 'accept': totals outside 1..12", id, i + 1);
        NEED(IN(ft[2], 0, 1) && (ft[2] ? ft[1] == 0 : ft[1] != 0),
             "board.fields (%s, position %d): field 'accept': a field takes totals or a pair", id, i + 1);
        for (int k = 3; k <= 6; k++)
            NEED(IN(ft[k], 0, 15), "board.fields (%s, position %d): field '%s': %d is out of range 0..15", id, i + 1,
                 field_key[k], ft[k]);
        NEED(IN(ft[9], 0, 1), "board.fields (%s, position %d): field 'choose_one': not true or false", id, i + 1);
        for (int k = 10; k <= 12; k++)
            NEED(IN(ft[k], 0, 7), "board.fields (%s, position %d): field '%s': %d is out of range 0..7", id, i + 1,
                 field_key[k], ft[k]);
        f->kind = (uint8_t)ft[0];
        f->accept = (uint16_t)ft[1];
        f->pair = (uint8_t)ft[2];
        f->vp = (uint8_t)ft[3], f->coins = (uint8_t)ft[4], f->pay = (uint8_t)ft[5], f->cost = (uint8_t)ft[6];
        f->card = (int8_t)(f->kind == VI_K_SPECIAL ? ft[7] : -1);
        f->symbol = (int8_t)(f->kind == VI_K_COMPARE ? ft[8] : -1);
        f->choose_one = (uint8_t)ft[9];
        f->steal_one = (uint8_t)ft[10], f->steal_two = (uint8_t)ft[11], f->vp_per_special = (uint8_t)ft[12];
        if (f->kind == VI_K_SPECIAL)
            NEED(IN(ft[7], 0, VI_NSPECIAL - 1), "board.fields (%s, position %d): field 'card': not a special card", id,
                 i + 1);
        if (f->kind == VI_K_COMPARE)
            NEED(IN(ft[8], 0, 2), "board.fields (%s, position %d): field 'symbol': not a symbol", id, i + 1);
        if (f->kind == VI_K_KRIEAU)
            NEED(i == 0 && d->krieau < 0, "board.fields (%s, position %d): field 'kind': Krieau must be the first "
                 "street field, exactly once", id, i + 1);
        if (f->kind == VI_K_HEURIGER)
            NEED(i == d->F - 1, "board.fields (%s, position %d): field 'kind': Heuriger must be the last street field",
                 id, i + 1);
        if (f->kind == VI_K_PRATER)
            NEED(d->prater < 0, "board.fields (%s, position %d): field 'kind': a second Prater (the first is %s); the "
                 "engine takes at most one", id, i + 1, d->field[d->prater].id);
        if (f->kind == VI_K_KRIEAU) d->krieau = i;
        if (f->kind == VI_K_PRATER) d->prater = i;
        if (f->pair) d->pair_fields |= BIT(i);
        for (int tot = 1; tot <= 12; tot++)
            if ((f->accept >> tot) & 1) d->fields_for_total[tot] |= BIT(i);
    }
    NEED(d->krieau == 0 && d->field[d->F - 1].kind == VI_K_HEURIGER,
         "board.fields: Krieau must be the first street field and Heuriger the last");
    d->street_mask = BIT(d->F) - 1;
    for (int joker = 0; joker < 2; joker++)
        for (int a = 1; a <= 6; a++) {
            int aw = joker && a == 1;
            d->fit[joker][a][0] = fields_for_totals(d, aw ? 0x7Eu : BIT(a));
            for (int b = 1; b <= 6; b++) {
                int bw = joker && b == 1;
                d->fit[joker][a][b] = fields_for_totals(d, pair_totals(a, aw, b, bw)) |
                                      (a == b || aw || bw ? d->pair_fields : 0);
            }
        }
    const int32_t *ct = ft;
    for (int c = 0; c < d->n_start; c++, ct += 4) {
        NEED(IN(ct[0], 0, 20), "cards.starting (%s): field 'coins': %d is out of range 0..20", d->start_id[c], ct[0]);
        NEED(IN(ct[1], 0, 7) && IN(ct[2], 0, 7) && IN(ct[3], 0, 7),
             "cards.starting (%s): a symbol count is out of range 0..7", d->start_id[c]);
        d->start_coins[c] = ct[0];
        for (int k = 0; k < 3; k++) d->start_sym[c][k] = (uint8_t)ct[1 + k];
    }
    int copies = 0;
    for (int p = 0; p < d->n_ptypes; p++, ct += 4) {
        NEED(IN(ct[0], 1, VI_DECK), "cards.persons (%s): field 'copies': %d is out of range 1..%d", d->person_id[p],
             ct[0], VI_DECK);
        NEED(IN(ct[1], 0, 7) && IN(ct[2], 0, 7) && IN(ct[3], 0, 7),
             "cards.persons (%s): a symbol count is out of range 0..7", d->person_id[p]);
        d->copies[p] = (uint8_t)ct[0];
        copies += ct[0];
        for (int k = 0; k < 3; k++) d->psym[p][k] = (uint8_t)ct[1 + k];
    }
    NEED(copies == VI_DECK, "cards.persons: the copies add up to %d; the deck has %d person cards", copies, VI_DECK);

    const int32_t *o = g->options;
    NEED_OPTION(IN(o[VI_OPT_START_PLAYER], -1, g->players - 1), "start_player");
    NEED_OPTION(IN(o[VI_OPT_CARRIAGE], 0, 1), "carriage");
    NEED_OPTION(IN(o[VI_OPT_MODIFY_EVERY_TURN], 0, 1), "modify_every_turn");
    NEED_OPTION(IN(o[VI_OPT_PERSON_OPTIONAL], 0, 1), "person_optional");
    NEED_OPTION(IN(o[VI_OPT_MAX_ROUNDS], 1, 200), "max_rounds");
    g->data = d;
    return ES_OK;
}

/* ---------------------------------------------------------------- results */

static void vi_scores(const es_game *g, const void *vs, double *out) {
    const vienna_state *s = (const vienna_state *)vs;
    for (int p = 0; p < g->players; p++) out[p] = s->vp[p];
}

/* Most VP; then most special cards; then most coins left; else shared (7.3). */
static void vi_returns(const es_game *g, const void *vs, double *out) {
    const vienna_state *s = (const vienna_state *)vs;
    int n = g->players, winners = 0;
    long best = -1, key[VI_MAXP];
    for (int p = 0; p < n; p++) {
        out[p] = 0;
        key[p] = (long)s->vp[p] * 1000000L + specials_owned(s, p) * 100000L + s->coins[p];
        if (key[p] > best) best = key[p];
    }
    if (s->phase != VI_PH_OVER) return;
    for (int p = 0; p < n; p++) winners += key[p] == best;
    for (int p = 0; p < n; p++)
        if (key[p] == best) out[p] = 1.0 / winners;
}

/* Nothing in Vienna is hidden between players, and the deck is held as the multiset nobody
 * has seen (spec 6): there is nothing to resample. */
static void vi_determinize(const es_game *g, void *vs, int observer, es_rng *rng) {
    (void)g, (void)vs, (void)observer, (void)rng;
}

/* ---------------------------------------------------------------- evaluation */

/* What a field still to be evaluated is worth to its occupant, in VP (a coin = 1/3 VP). */
static double pending_field_value(const es_game *g, const vienna_state *s, int f, int o) {
    const vienna_data *d = DATA(g);
    const vi_field *x = &d->field[f];
    int n = g->players;
    switch (x->kind) {
    case VI_K_GAIN:
        if (x->pay && s->coins[o] < x->pay) return 0;
        return x->vp + (x->coins - x->pay) / 3.0;
    case VI_K_SPECIAL:
        return s->special_owner[x->card] == o ? 0 : 1.0;
    case VI_K_PERSON:
        return s->display && s->coins[o] >= x->cost ? 1.0 - x->cost / 3.0 : 0;
    case VI_K_COMPARE: {
        double v = 0;
        int mine = sym_of(d, s, o, x->symbol), nb[2] = {left_of(n, o), right_of(n, o)};
        for (int i = 0; i < 2; i++) {
            int theirs = sym_of(d, s, nb[i], x->symbol);
            v += mine > theirs ? d->maj_vp + d->maj_coins / 3.0 : mine == theirs ? d->tie_vp + d->tie_coins / 3.0 : 0;
        }
        return v;
    }
    case VI_K_GLORIETTE:
        return s->coins[o] >= x->pay && (s->sym_used[o] & 7) != 7 ? 1.5 : 0;
    case VI_K_TIERGARTEN: {
        int most = 0;
        for (int q = 0; q < n; q++)
            if (q != o && s->coins[q] > most) most = s->coins[q];
        return (most < x->steal_one ? most : x->steal_one) / 3.0;
    }
    case VI_K_HEURIGER:
        return x->vp_per_special * specials_owned(s, o);
    default:
        return 0;   /* Krieau and Prater pay at placement */
    }
}

/* Estimated final VP: VP, coins at 3 per VP, the fields still to be evaluated, special
 * cards, and the final symbol majorities as they stand. */
static void vi_evaluate(const es_game *g, const void *vs, double *out) {
    const vienna_state *s = (const vienna_state *)vs;
    const vienna_data *d = DATA(g);
    int n = g->players;
    if (s->phase == VI_PH_OVER) {
        vi_scores(g, vs, out);
        return;
    }
    int evaluating = s->phase >= VI_PH_PERSON && s->phase <= VI_PH_TIERGARTEN;
    for (int p = 0; p < n; p++) {
        double v = s->vp[p] + s->coins[p] / 3.0 + 0.5 * specials_owned(s, p);
        for (int k = 0; k < 3; k++) {
            int mine = sym_of(d, s, p, k);
            v += 0.1 * mine;
            if (mine > sym_of(d, s, left_of(n, p), k) && mine > sym_of(d, s, right_of(n, p), k)) v += VI_FINAL_MAJORITY_VP;
        }
        out[p] = v;
    }
    for (int f = evaluating ? s->eval_pos : 0; f < d->F; f++)
        if (s->occupant[f] >= 0) out[s->occupant[f]] += pending_field_value(g, s, f, s->occupant[f]);
}

/* ---------------------------------------------------------------- validation */

#define BAD(msg) do { if (err && errlen) snprintf(err, errlen, "invalid vienna state: %s", msg); return ES_ERR_FORMAT; } while (0)

static int vi_validate(const es_game *g, const void *vs, char *err, size_t errlen) {
    const vienna_state *s = (const vienna_state *)vs;
    const vienna_data *d = DATA(g);
    int n = g->players, k = dice_per_player(n);
    if (!IN(s->phase, VI_PH_START, VI_PH_OVER)) BAD("unknown phase");
    if (s->reserved0 || s->reserved1[0] || s->reserved1[1] || s->reserved1[2] || s->reserved1[3] || s->reserved1[4])
        BAD("reserved bytes are not zero");
    for (int p = n; p < VI_MAXP; p++) {
        if (s->vp[p] || s->coins[p] || s->start_card[p] != -1 || s->carriage[p] != -1 || s->furthest[p] != -1 ||
            s->sym_used[p] || s->geheimbund[p] || hand_total(s, p))
            BAD("data in an unused seat");
        for (int t = 0; t < VI_MAX_PTYPES; t++) if (s->owned[p][t]) BAD("data in an unused seat");
        for (int x = 0; x < 3; x++) if (s->sym[p][x]) BAD("data in an unused seat");
    }
    int setup = s->phase == VI_PH_START || s->phase == VI_PH_DRAFT || (s->phase == VI_PH_REVEAL && s->round == 0);
    if (s->round > g->options[VI_OPT_MAX_ROUNDS] || (!setup && s->round == 0)) BAD("round out of range");
    if (!IN(s->turn, 0, n - 1)) BAD("turn player out of range");
    int decision = s->phase != VI_PH_START && s->phase != VI_PH_REVEAL && s->phase != VI_PH_OVER;
    if (decision ? !IN(s->actor, 0, n - 1) : s->actor != -1) BAD("actor out of range");
    for (int i = 0; i < VI_NSPECIAL; i++)
        if (!IN(s->special_owner[i], -1, n - 1)) BAD("special card owner out of range");
    if (s->phase != VI_PH_START && s->special_owner[VI_S_START] < 0) BAD("nobody holds the start player card");
    if (s->phase == VI_PH_START && (s->drafted || s->start_taken)) BAD("draft before the start player");

    /* starting cards and symbols */
    int taken = 0;
    for (int p = 0; p < n; p++) {
        int c = s->start_card[p];
        if (!IN(c, -1, d->n_start - 1)) BAD("starting card out of range");
        if (c >= 0) {
            if (!((s->start_taken >> c) & 1)) BAD("starting card not marked taken");
            taken++;
        }
        for (int x = 0; x < 3; x++) {
            int want = c >= 0 ? d->start_sym[c][x] : 0;
            for (int t = 0; t < d->n_ptypes; t++) want += s->owned[p][t] * d->psym[t][x];
            if (s->sym[p][x] != want) BAD("symbol counts do not match the cards");
        }
    }
    if (s->start_taken >> d->n_start || popcount32(s->start_taken) != taken || s->drafted != taken)
        BAD("draft bookkeeping");
    if (!setup && taken != n) BAD("draft incomplete outside setup");
    if (s->phase == VI_PH_DRAFT) {
        int sp = s->special_owner[VI_S_START];
        if (s->actor != ((sp - 1 - s->drafted) % n + n) % n || taken >= n) BAD("wrong drafter");
    }

    /* person cards: every copy is somewhere, once */
    int deck_total = 0, discard_total = 0;
    if (s->queue_len > VI_DECK) BAD("queue too long");
    if (s->display >> d->n_ptypes) BAD("display holds an unknown person");
    if (popcount64(s->display) > n - 1) BAD("display too large");
    for (int i = s->queue_len; i < VI_DECK; i++) if (s->queue[i]) BAD("stale queue entry");
    for (int t = 0; t < VI_MAX_PTYPES; t++) {
        int where = s->deck[t] + s->discard[t] + (int)((s->display >> t) & 1);
        for (int i = 0; i < s->queue_len; i++) where += s->queue[i] == t;
        for (int p = 0; p < n; p++) where += s->owned[p][t];
        if (where != (t < d->n_ptypes ? d->copies[t] : 0)) BAD("person cards are not conserved");
        deck_total += s->deck[t];
        discard_total += s->discard[t];
    }
    for (int i = 0; i < s->queue_len; i++) if (s->queue[i] >= d->n_ptypes) BAD("queue holds an unknown person");
    if (deck_total != s->deck_total || discard_total != s->discard_total) BAD("deck totals");
    if (s->phase == VI_PH_REVEAL && !s->deck_total) BAD("reveal from an empty deck");
    /* a reveal is where refill() stopped: the display still short and a new person possible */
    if (s->phase == VI_PH_REVEAL && (popcount64(s->display) >= n - 1 || all_deck_cards_duplicate(d, s)))
        BAD("reveal into a full display");

    /* board */
    uint32_t blocked = 0;
    if (!IN(s->gendarme, -1, d->F - 1)) BAD("gendarme out of range");
    if (s->gendarme >= 0) {
        if (s->occupant[s->gendarme] >= 0) BAD("gendarme on an occupied field");
        if (d->krieau < 0 || s->occupant[d->krieau] < 0) BAD("gendarme without Krieau");
        blocked |= BIT(s->gendarme);
    }
    int placed[VI_MAXP] = {0}, white_on_street = 0;
    for (int f = 0; f < VI_MAX_STREET; f++) {
        int o = s->occupant[f], fd = s->field_dice[f];
        if (f >= d->F) {
            if (o != -1 || fd) BAD("occupant beyond the street");
            continue;
        }
        if (!IN(o, -1, n - 1)) BAD("occupant out of range");
        if (o < 0) {
            if (fd) BAD("dice on an empty field");
            continue;
        }
        int ncol = fd & 3, w = (fd >> 2) & 1, nd = ncol + w;
        if ((fd & ~7) || ncol == 3 || !IN(nd, 1, 2)) BAD("field dice");
        if (d->field[f].pair && nd != 2) BAD("a pair field holds one die");
        if (w && !ncol) BAD("white die alone on the street");
        if (w && o != s->white_holder) BAD("white die placed by another player");
        placed[o] += ncol;
        white_on_street += w;
        blocked |= BIT(f);
    }
    if (blocked != s->blocked) BAD("blocked fields do not match the board");
    if (setup && (blocked || s->rolled || s->white_holder != -1)) BAD("board in use during setup");

    /* dice */
    if (!IN(s->white_holder, -1, n - 1)) BAD("white holder out of range");
    if (s->white_face > 6 || s->white_placed > 2 || s->roll_white > 1 || s->roll_n > k) BAD("dice values");
    if (s->phase != VI_PH_ROLL && (s->roll_n || s->roll_white)) BAD("roll pending outside a roll");
    if (s->double_used > 1 || s->roll_turn > 1 || s->rolled >> n) BAD("flags");
    if (s->double_used && s->special_owner[VI_S_DOUBLE] < 0) BAD("double move used without the card");
    for (int p = 0; p < n; p++) {
        int rolling = s->phase == VI_PH_ROLL && s->actor == p;
        int rolled = (s->rolled >> p) & 1;
        for (int f = 0; f < 6; f++) if (s->hand[p][f] > k) BAD("hand too large");
        int dice = hand_total(s, p) + placed[p] + s->geheimbund[p] + (rolling ? s->roll_n : 0);
        /* before the round roll nothing is out; while it is rolling, all k dice are in the air */
        if (dice != (rolled || rolling ? k : 0)) BAD("coloured dice are not conserved");
        if (!IN(s->carriage[p], -1, d->F - 1) || !IN(s->furthest[p], -1, d->F - 1)) BAD("carriage out of range");
        if (s->carriage[p] >= 0 && s->occupant[s->carriage[p]] != p) BAD("carriage not on own field");
        if (s->furthest[p] >= 0 && s->occupant[s->furthest[p]] != p) BAD("furthest not on own field");
        if (s->furthest[p] < s->carriage[p]) BAD("furthest before the carriage");
        for (int f = s->furthest[p] + 1; f < d->F; f++) if (s->occupant[f] == p) BAD("furthest is not the furthest");
        if ((s->carriage[p] < 0) != (s->furthest[p] < 0)) BAD("carriage bookkeeping");
        if (!rolled && (s->carriage[p] >= 0 || s->geheimbund[p] || s->sym_used[p])) BAD("placed before rolling");
        if (s->sym_used[p] > 7) BAD("symbols evaluated");
        if (s->vp[p] > 4000 || s->coins[p] > 4000) BAD("VP or coins out of range");
    }
    /* the white die: unrolled, being rolled, in hand, or placed - exactly one of them */
    int h = s->white_holder;
    if (h < 0) {
        if (s->white_face || s->white_placed || s->roll_white) BAD("white die without a holder");
    } else {
        int rolled = (s->rolled >> h) & 1;
        int rolling = s->phase == VI_PH_ROLL && s->actor == h && s->roll_white;
        int states = (s->white_face != 0) + (s->white_placed != 0) + rolling;
        if (rolled ? states != 1 : (states != rolling || s->white_face || s->white_placed)) BAD("white die location");
        if ((s->white_placed == 1) != (white_on_street == 1) || white_on_street > 1) BAD("white die on the street");
        if (s->roll_white && !rolling) BAD("white roll by another player");
    }
    if (white_on_street && h < 0) BAD("white die on the street without a holder");

    /* the node itself */
    int a = s->actor;
    switch (s->phase) {
    case VI_PH_ROLL:
        if (a != s->turn) BAD("roll by a player whose turn it is not");
        if (!((s->rolled >> a) & 1) && (s->roll_n != k || s->roll_white != (h == a))) BAD("round roll of the wrong dice");
        if (s->roll_n + s->roll_white == 0) BAD("a reroll of no dice");
        break;
    case VI_PH_TURN:
        if (a != s->turn || !unplaced(g, s, a) || !((s->rolled >> a) & 1)) BAD("turn without dice");
        break;
    case VI_PH_GENDARME:
        if (a != s->turn || d->krieau < 0 || s->occupant[d->krieau] != a || s->gendarme >= 0 ||
            popcount32(d->street_mask & ~s->blocked) < 2)
            BAD("gendarme decision");
        break;
    case VI_PH_KRIEAU:
        if (a != s->turn || d->krieau < 0 || s->occupant[d->krieau] != a || !d->field[d->krieau].choose_one ||
            (s->gendarme < 0 && (d->street_mask & ~s->blocked)))
            BAD("Krieau reward decision");
        break;
    case VI_PH_PRATER:
        if (a != s->turn || d->prater < 0 || s->occupant[d->prater] != a || !unplaced(g, s, a)) BAD("Prater decision");
        break;
    case VI_PH_DOUBLE:
        if (a != s->turn || s->special_owner[VI_S_DOUBLE] != a || s->double_used || !unplaced(g, s, a))
            BAD("double move decision");
        break;
    case VI_PH_PERSON:
    case VI_PH_GLORIETTE:
    case VI_PH_TIERGARTEN: {
        int kind = s->phase == VI_PH_PERSON ? VI_K_PERSON : s->phase == VI_PH_GLORIETTE ? VI_K_GLORIETTE : VI_K_TIERGARTEN;
        if (s->eval_pos >= d->F || d->field[s->eval_pos].kind != kind || s->occupant[s->eval_pos] != a)
            BAD("evaluation decision on the wrong field");
        for (int p = 0; p < n; p++) if (unplaced(g, s, p)) BAD("evaluation with dice still unplaced");
        if (kind == VI_K_PERSON && (!s->display || s->coins[a] < d->field[s->eval_pos].cost)) BAD("person pick impossible");
        if (kind == VI_K_GLORIETTE && ((s->sym_used[a] & 7) == 7 || s->coins[a] < d->field[s->eval_pos].pay)) BAD("Gloriette impossible");
        break;
    }
    default:
        if (s->eval_pos) BAD("evaluation cursor outside evaluation");
        break;
    }
    return ES_OK;
}

/* ---------------------------------------------------------------- observation */

static int vi_observation_size(const es_game *g) {
    int n = g->players, F = DATA(g)->F;
    return 26 * n + F * (n + 1) + 16 + 3 + VI_NPHASES + n + 5;
}

/* Seats are relative to the viewer: block 0 is the viewer, then clockwise. */
static int observe_impl(const es_game *g, const vienna_state *s, int viewer, float *out) {
    const vienna_data *d = DATA(g);
    int n = g->players, i = 0;
#define PUT(x) (out[i++] = (float)(x))
    for (int r = 0; r < n; r++) {
        int p = (viewer + r) % n;
        PUT(s->vp[p] / 25.0);
        PUT(s->coins[p] / 10.0);
        for (int k = 0; k < 3; k++) PUT(sym_of(d, s, p, k) / 10.0);
        for (int f = 0; f < 6; f++) PUT(s->hand[p][f] / 5.0);
        PUT((s->rolled >> p) & 1);
        PUT(unplaced(g, s, p) / 6.0);
        PUT(s->white_holder == p);
        PUT(s->white_holder == p ? s->white_face / 6.0 : 0.0);
        PUT((s->carriage[p] + 1) / (double)d->F);
        PUT((s->furthest[p] + 1) / (double)d->F);
        for (int k = 0; k < 3; k++) PUT((s->sym_used[p] >> k) & 1);
        for (int c = 0; c < VI_NSPECIAL; c++) PUT(s->special_owner[c] == p);
        PUT(s->geheimbund[p] / 5.0);
    }
    for (int f = 0; f < d->F; f++) {
        for (int r = 0; r < n; r++) PUT(s->occupant[f] == (viewer + r) % n);
        PUT(s->gendarme == f);
    }
    uint64_t disp = s->display;
    for (int slot = 0; slot < 4; slot++) {
        int t = disp ? lowest_bit(disp) : -1;
        if (disp) disp &= disp - 1;
        PUT(t >= 0);
        for (int k = 0; k < 3; k++) PUT(t >= 0 ? d->psym[t][k] / 3.0 : 0.0);
    }
    PUT(s->deck_total / 44.0);
    PUT(s->discard_total / 44.0);
    PUT(s->queue_len / 44.0);
    for (int ph = 1; ph <= VI_NPHASES; ph++) PUT(s->phase == ph);
    for (int r = 0; r < n; r++) PUT(s->actor == (viewer + r) % n);
    PUT(s->round / 20.0);
    PUT(s->double_used);
    PUT(s->eval_pos / (double)d->F);
    PUT(s->roll_n / 5.0);
    PUT(s->roll_white);
#undef PUT
    return i;
}

static void vi_observe(const es_game *g, const void *vs, int player, float *out) {
    observe_impl(g, (const vienna_state *)vs, player, out);
}

/* ---------------------------------------------------------------- text */

static const char *field_name(const vienna_data *d, int f) {
    if (f == VI_GEHEIMBUND) return "geheimbund";
    return f < d->F ? d->field[f].id : "?";
}

static void dice_text(es_text *t, int c1, int c2, int w, int wf) {
    int first = 1;
    if (c1) { es_text_add(t, "%d", c1); first = 0; }
    if (c2) { es_text_add(t, "%s%d", first ? "" : "+", c2); first = 0; }
    if (w) es_text_add(t, "%sW%d", first ? "" : "+", wf);
}

static int vi_move_to_str(const es_game *g, const void *vs, es_move m, char *buf, size_t cap) {
    const vienna_state *s = (const vienna_state *)vs;
    const vienna_data *d = DATA(g);
    es_text t = es_text_make(buf, cap);
    int wf = s->white_holder >= 0 ? s->white_face : 0;
    switch (MV_TYPE(m)) {
    case VI_M_DRAFT: {
        int c = MV_ARG(m, 4, 4);
        es_text_add(&t, "draft %s", c < d->n_start ? d->start_id[c] : "?");
        break;
    }
    case VI_M_PLACE:
        es_text_add(&t, "place %s ", field_name(d, MV_ARG(m, 4, 5)));
        dice_text(&t, MV_ARG(m, 9, 3), MV_ARG(m, 12, 3), MV_ARG(m, 15, 1), wf);
        break;
    case VI_M_REROLL: {
        int first = 1;
        es_text_add(&t, "reroll ");
        for (int f = 0; f < 6; f++)
            for (int r = MV_ARG(m, 4 + 3 * f, 3); r > 0; r--) {
                es_text_add(&t, "%s%d", first ? "" : ",", f + 1);
                first = 0;
            }
        if (MV_ARG(m, 22, 1)) es_text_add(&t, "%sW%d", first ? "" : ",", wf);
        break;
    }
    case VI_M_NUDGE: {
        int f = MV_ARG(m, 4, 3);
        es_text_add(&t, "nudge %s%d->%d", MV_ARG(m, 8, 1) ? "W" : "", f, MV_ARG(m, 7, 1) ? f + 1 : f - 1);
        break;
    }
    case VI_M_GENDARME:
        es_text_add(&t, "gendarme %s", field_name(d, MV_ARG(m, 4, 5)));
        break;
    case VI_M_KRIEAU:
        es_text_add(&t, "krieau %s", MV_ARG(m, 4, 1) ? "coins" : "vp");
        break;
    case VI_M_PRATER:
        if (m == VI_M_PRATER)
            es_text_add(&t, "prater skip");
        else
            es_text_add(&t, "prater %s%d->%d", MV_ARG(m, 7, 1) ? "W" : "", MV_ARG(m, 4, 3), MV_ARG(m, 8, 3));
        break;
    case VI_M_DOUBLE:
        es_text_add(&t, "double %s", MV_ARG(m, 4, 1) ? "yes" : "no");
        break;
    case VI_M_PERSON: {
        int p = MV_ARG(m, 4, 6);
        if (m == MV_PERSON_DECLINE)
            es_text_add(&t, "person decline");
        else
            es_text_add(&t, "person %s", p < d->n_ptypes ? d->person_id[p] : "?");
        break;
    }
    case VI_M_GLORIETTE:
        es_text_add(&t, "gloriette %s", SYMBOL_NAME[MV_ARG(m, 4, 2) % 3]);
        break;
    case VI_M_TIERGARTEN: {
        int any = 0;
        es_text_add(&t, "tiergarten");
        for (int q = 0; q < VI_MAXP; q++) {
            int take = MV_ARG(m, 4 + 3 * q, 3);
            if (take) {
                es_text_add(&t, " P%d:%d", q, take);
                any = 1;
            }
        }
        if (!any) es_text_add(&t, " nothing");
        break;
    }
    case VI_M_START:
        es_text_add(&t, "start P%d", MV_ARG(m, 4, 3));
        break;
    case VI_M_ROLL: {
        int first = 1;
        es_text_add(&t, "roll ");
        for (int f = 0; f < 6; f++)
            for (int r = MV_ARG(m, 4 + 3 * f, 3); r > 0; r--) {
                es_text_add(&t, "%s%d", first ? "" : ",", f + 1);
                first = 0;
            }
        if (MV_ARG(m, 22, 3)) es_text_add(&t, "%sW%d", first ? "" : " ", MV_ARG(m, 22, 3));
        if (first && !MV_ARG(m, 22, 3)) es_text_add(&t, "-");
        break;
    }
    case VI_M_REVEAL: {
        int p = MV_ARG(m, 4, 6);
        es_text_add(&t, "reveal %s", p < d->n_ptypes ? d->person_id[p] : "?");
        break;
    }
    default:
        es_text_add(&t, "invalid move %d", (int)m);
    }
    return es_text_result(&t);
}

static const char *const PHASE_NAME[VI_NPHASES + 1] = {
    "?", "start player", "draft", "reveal", "roll", "turn", "gendarme", "krieau reward",
    "prater", "double move", "person pick", "gloriette", "tiergarten", "game over"};

static int vi_render(const es_game *g, const void *vs, char *buf, size_t cap) {
    const vienna_state *s = (const vienna_state *)vs;
    const vienna_data *d = DATA(g);
    es_text t = es_text_make(buf, cap);
    int n = g->players;
    es_text_add(&t, "Vienna, %d players, round %d, %s", n, s->round, PHASE_NAME[s->phase % (VI_NPHASES + 1)]);
    if (s->actor >= 0) es_text_add(&t, " (P%d to act)", s->actor);
    es_text_add(&t, "\n");
    for (int p = 0; p < n; p++) {
        es_text_add(&t, "P%d%s vp %2d coins %2d  symbols %d/%d/%d  dice ", p,
                    s->special_owner[VI_S_START] == p ? "*" : " ", s->vp[p], s->coins[p],
                    sym_of(d, s, p, 0), sym_of(d, s, p, 1), sym_of(d, s, p, 2));
        if (!((s->rolled >> p) & 1)) {
            es_text_add(&t, "(%d to roll)", unplaced(g, s, p));
        } else {
            int any = 0;
            for (int f = 0; f < 6; f++)
                for (int r = 0; r < s->hand[p][f]; r++, any = 1) es_text_add(&t, "%d", f + 1);
            if (s->white_holder == p && s->white_face) es_text_add(&t, " W%d", s->white_face), any = 1;
            if (!any) es_text_add(&t, "-");
        }
        es_text_add(&t, "  specials:");
        for (int c = 0; c < VI_NSPECIAL; c++)
            if (s->special_owner[c] == p) es_text_add(&t, " S%d", c + 1);
        if (s->carriage[p] >= 0) es_text_add(&t, "  carriage %s", d->field[s->carriage[p]].id);
        es_text_add(&t, "\n");
    }
    es_text_add(&t, "street:");
    for (int f = 0; f < d->F; f++) {
        es_text_add(&t, "%s %s", f % 6 ? "" : "\n ", d->field[f].id);
        if (s->gendarme == f) es_text_add(&t, "[gendarme]");
        else if (s->occupant[f] >= 0) es_text_add(&t, "[P%d%s]", s->occupant[f], (s->field_dice[f] & 4) ? "+W" : "");
    }
    es_text_add(&t, "\ngeheimbund:");
    for (int p = 0; p < n; p++) if (s->geheimbund[p]) es_text_add(&t, " P%dx%d", p, s->geheimbund[p]);
    if (s->white_placed == 2) es_text_add(&t, " W(P%d)", s->white_holder);
    es_text_add(&t, "\ndisplay:");
    for (uint64_t x = s->display; x; x &= x - 1) {
        int ty = lowest_bit(x);
        es_text_add(&t, " %s(%d/%d/%d)", d->person_id[ty], d->psym[ty][0], d->psym[ty][1], d->psym[ty][2]);
    }
    es_text_add(&t, "  deck %d + %d known, discard %d\n", s->deck_total, s->queue_len, s->discard_total);
    return es_text_result(&t);
}

/* ---------------------------------------------------------------- reflection and table */

#define F1(name, type) ES_FIELD(vienna_state, name, type)
#define FA(name, type, n) ES_ARRAY(vienna_state, name, type, n)
#define F2(name, type, a, b) ES_ARRAY2(vienna_state, name, type, a, b)
#define K1(name, type, kind, names) ES_FIELD_K(vienna_state, name, type, kind, names)
#define KA(name, type, n, kind, names) ES_ARRAY_K(vienna_state, name, type, n, kind, names)
#define K2(name, type, a, b, kind, names) ES_ARRAY2_K(vienna_state, name, type, a, b, kind, names)
/* The data's names (vienna_data): street fields, starting cards, person types (fewer than the
 * engine's maximum in a smaller data file: the rest are unnamed). */
static const es_name_table vi_field_names = ES_NAMES("street fields", vienna_data, field[0].id, sizeof(vi_field), VI_MAX_STREET);
static const es_name_table vi_start_names = ES_NAMES("starting cards", vienna_data, start_id, ES_NAME_BYTES, VI_MAX_START);
static const es_name_table vi_person_names = ES_NAMES("person types", vienna_data, person_id, ES_NAME_BYTES, VI_MAX_PTYPES);

/* Field kinds (es_field_kind): sets and cards by the data's ids, seats and -1 as null, flags as booleans. */
static const es_field_desc vienna_fields[] = {
    K1(display, ES_U64, ES_K_ITEMSET, &vi_person_names), K1(blocked, ES_U32, ES_K_ITEMSET, &vi_field_names),
    FA(vp, ES_U16, VI_MAXP), FA(coins, ES_U16, VI_MAXP),
    F1(phase, ES_U8), K1(actor, ES_I8, ES_K_SEAT, NULL), K1(turn, ES_I8, ES_K_SEAT, NULL), F1(round, ES_U8),
    K1(gendarme, ES_I8, ES_K_ITEM, &vi_field_names), F1(eval_pos, ES_U8), K1(double_used, ES_U8, ES_K_BOOL, NULL),
    K1(roll_turn, ES_U8, ES_K_BOOL, NULL), K1(white_holder, ES_I8, ES_K_SEAT, NULL),
    F1(white_face, ES_U8), F1(white_placed, ES_U8), F1(roll_n, ES_U8), K1(roll_white, ES_U8, ES_K_BOOL, NULL),
    K1(rolled, ES_U8, ES_K_SEATSET, NULL), K1(start_taken, ES_U8, ES_K_ITEMSET, &vi_start_names), F1(drafted, ES_U8),
    F1(deck_total, ES_U8), F1(discard_total, ES_U8), F1(queue_len, ES_U8), K1(reserved0, ES_U8, ES_K_PAD, NULL),
    KA(special_owner, ES_I8, VI_NSPECIAL, ES_K_SEAT, NULL), KA(start_card, ES_I8, VI_MAXP, ES_K_ITEM, &vi_start_names),
    KA(carriage, ES_I8, VI_MAXP, ES_K_ITEM, &vi_field_names), KA(furthest, ES_I8, VI_MAXP, ES_K_ITEM, &vi_field_names),
    FA(sym_used, ES_U8, VI_MAXP), FA(geheimbund, ES_U8, VI_MAXP),
    F2(sym, ES_U8, VI_MAXP, 3), F2(hand, ES_U8, VI_MAXP, 6), KA(occupant, ES_I8, VI_MAX_STREET, ES_K_SEAT, NULL),
    FA(field_dice, ES_U8, VI_MAX_STREET), KA(deck, ES_U8, VI_MAX_PTYPES, ES_K_PER_ITEM, &vi_person_names),
    KA(discard, ES_U8, VI_MAX_PTYPES, ES_K_PER_ITEM, &vi_person_names),
    KA(queue, ES_U8, VI_DECK, ES_K_ITEM, &vi_person_names),
    K2(owned, ES_U8, VI_MAXP, VI_MAX_PTYPES, ES_K_PER_ITEM, &vi_person_names), KA(reserved1, ES_U8, 5, ES_K_PAD, NULL),
};

static const int32_t vienna_default_options[VI_NOPTIONS] = {-1, 0, 1, 0, 100};

/* Dense action space (docs/vienna_engine.md, "Move ids"): decision move types and their parameter bits. */
static const es_move_kind vienna_move_kinds[] = {
    {1, 1, {{4, 4}}},   /* DRAFT */
    {2, 1, {{4, 12}}},   /* PLACE */
    {3, 1, {{4, 19}}},   /* REROLL */
    {4, 1, {{4, 5}}},   /* NUDGE */
    {5, 1, {{4, 5}}},   /* GENDARME */
    {6, 1, {{4, 1}}},   /* KRIEAU */
    {7, 1, {{4, 7}}},   /* PRATER */
    {8, 1, {{4, 1}}},   /* DOUBLE */
    {9, 1, {{4, 7}}},   /* PERSON */
    {10, 1, {{4, 2}}},   /* GLORIETTE */
    {11, 1, {{4, 15}}},   /* TIERGARTEN */
};

/* The slices of observe_impl's vector; seats relative to the viewer (row 0 is the viewer).
 * seats row: vp, coins, 3 symbols, 6 hand dice, rolled, unplaced, has white, white face,
 * carriage, furthest, 3 symbols used, 5 special cards owned, geheimbund. street row (per
 * field): occupied by each seat, gendarme. display row: present, 3 symbols. */
static int vi_observation_layout(const es_game *g, es_obs_slice *out, int cap) {
    int n = g->players;
    es_obs_builder b = es_obs_begin(out, cap);
    es_obs_add(&b, "seats", n, 21 + VI_NSPECIAL);
    es_obs_add(&b, "street", DATA(g)->F, n + 1);
    es_obs_add(&b, "display", 4, 4);
    es_obs_add(&b, "piles", 3, 0);            /* deck, discard, queue sizes */
    es_obs_add(&b, "phase", VI_NPHASES, 0);   /* one-hot */
    es_obs_add(&b, "actor", n, 0);            /* one-hot, relative seat */
    es_obs_add(&b, "progress", 5, 0);         /* round, double used, eval pos, roll n, roll white */
    return b.n;
}

/* random_play hook: the library's loop, with this game's hooks called directly */
ES_RANDOM_PLAY_HOOK(vi_random_play, vi_current_player, vi_random_move, vi_sample_chance, vi_apply)

const es_game_def es_vienna_def = {
    .name = "vienna",
    .min_players = 3,
    .max_players = VI_MAXP,
    .state_size = sizeof(vienna_state),
    .max_moves = VI_MAX_MOVES,
    .max_chance_outcomes = VI_MAX_CHANCE,
    .n_options = VI_NOPTIONS,
    .default_options = vienna_default_options,
    .setup = vi_setup,
    .observation_size = vi_observation_size,
    .init = vi_init,
    .current_player = vi_current_player,
    .legal_moves = vi_legal_moves,
    .random_move = vi_random_move,
    .random_play = vi_random_play,
    .chance_outcomes = vi_chance_outcomes,
    .sample_chance = vi_sample_chance,
    .apply = vi_apply,
    .scores = vi_scores,
    .returns = vi_returns,
    .determinize = vi_determinize,
    .validate = vi_validate,
    .observe = vi_observe,
    .move_to_str = vi_move_to_str,
    .render = vi_render,
    .evaluate = vi_evaluate,
    .fields = vienna_fields,
    .n_fields = (int)(sizeof vienna_fields / sizeof vienna_fields[0]),
    .move_type_bits = 4,
    .move_kinds = vienna_move_kinds,
    .n_move_kinds = (int)(sizeof vienna_move_kinds / sizeof vienna_move_kinds[0]),
    .observation_layout = vi_observation_layout,
    .is_legal = vi_is_legal,
};
