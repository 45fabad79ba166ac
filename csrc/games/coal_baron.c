/* Coal Baron: the rules. Component data comes in as a table (coal_baron.h); nothing here knows
 * the printed components. Sequencing, move ids, forced decisions and knowledge follow
 * docs/coal_baron_engine.md; rule references (spec sections, CB-A ids) are to
 * shared/rules/coal_baron.md. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coal_baron.h"
#include "../core/obslayout.h"
#include "../core/bitset.h"
#include "../core/kdeck.h"
#include "../core/majority.h"
#include "../core/playloop.h"
#include "../core/rng.h"
#include "../core/table.h"
#include "../core/text.h"

_Static_assert(sizeof(cb_state) % 8 == 0, "state must be a multiple of 8 bytes");
_Static_assert(sizeof(es_kdeck) % 8 == 0, "deck must be a multiple of 8 bytes");

#define DATA(g) ((const cb_data *)(g)->data)
#define NONE8 CB_NONE
#define HIDDEN_MOVE (1 << 30)

static const char COLOUR_CH[CB_NCOL] = {'Y', 'B', 'G', 'K'};

/* ---------------------------------------------------------------- move ids */

#define MV_TYPE(m) ((m) & 31)
#define MV_ARG(m, shift, bits) (((m) >> (shift)) & ((1 << (bits)) - 1))
#define MV_DRAFT(c) (CB_M_DRAFT | (c) << 5)
#define MV_PLACE(s) (CB_M_PLACE | (s) << 5)
#define MV_CAGE(l) (CB_M_CAGE | (l) << 5)
#define MV_LOAD(x) (CB_M_LOAD | (x) << 5)
#define MV_PUT(src, x, c) (CB_M_PUT | (src) << 5 | (x) << 6 | (c) << 8)
#define MV_PAIR(a, b, c, d) (CB_M_PAIR | (a) << 5 | (b) << 8 | (c) << 11 | (d) << 17)
#define MV_STORE(x) (CB_M_STORE | (x) << 5)
#define MV_STOP CB_M_STOP
#define MV_KEEP(i) (CB_M_KEEP | (i) << 5)
#define MV_DEST(b) (CB_M_DEST | (b) << 5)
#define MV_RETURN(i) (CB_M_RETURN | (i) << 5)
#define MV_SHORTAGE(x) (CB_M_SHORTAGE | (x) << 5)
#define MV_START(p) (CB_M_START | (p) << 5)
#define MV_TILE(t) (CB_M_TILE | (t) << 5)
#define MV_CARD(c) (CB_M_CARD | (c) << 5)

/* ---------------------------------------------------------------- small helpers */

static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int lowest(uint64_t x) { return __builtin_ctzll(x); }
static inline int is_open(const cb_data *d, int sp) { return (d->open >> sp) & 1; }
static inline int cage_total(const cb_state *s, int p) {
    const uint8_t *c = s->cage[p];
    return c[0] + c[1] + c[2] + c[3];
}
static inline int level_cubes(const cb_state *s, int p, int l) {
    const uint8_t *m = s->mine[p][l];
    return m[0] + m[1] + m[2] + m[3];
}
static inline int coal_total(const cb_state *s) { return s->coal[0] + s->coal[1] + s->coal[2] + s->coal[3]; }

static inline int complete(const cb_data *d, const cb_state *s, int c) {
    uint32_t f;
    memcpy(&f, s->filled[c], 4);
    return f == d->spaces_packed[c];
}

/* The item held by a buffer or deck of this kind is a tile type (16) or a card (44). */
static inline es_kdeck *deck_of(cb_state *s, int kind) { return kind == CB_BUF_TILES ? &s->tiles : &s->orders; }
static inline const es_kdeck *cdeck_of(const cb_state *s, int kind) { return kind == CB_BUF_TILES ? &s->tiles : &s->orders; }
static inline int ntypes_of(int kind) { return kind == CB_BUF_TILES ? CB_NTYPES : CB_NCARDS; }

/* ---------------------------------------------------------------- flow of the game */

static void begin_turn(const es_game *g, cb_state *s, int p);
static void end_turn(const es_game *g, cb_state *s);
static void setup_next(const es_game *g, cb_state *s);
static void draw5_next(const es_game *g, cb_state *s);
static void after_acquire(const es_game *g, cb_state *s);

/* Fill the minecarts of the tile being acquired (spec 4.13(c), CB-A6); stops at a SHORTAGE
 * decision when the tile's colour is out and more than one other colour is left. Returns 1
 * when every minecart is done. */
static int fill_carts(cb_state *s, int p) {
    int l = s->short_level;
    while (s->short_left) {
        if (s->coal[l]) {
            s->coal[l]--;
            s->mine[p][l][l]++;
        } else {
            int avail = 0, last = -1;
            for (int x = 0; x < CB_NCOL; x++)
                if (s->coal[x]) avail++, last = x;
            if (avail > 1) {
                s->phase = CB_PH_SHORTAGE;
                s->actor = (int8_t)p;
                return 0;
            }
            if (avail == 1) {   /* a forced choice */
                s->coal[last]--;
                s->mine[p][l][last]++;
            }   /* else: an empty supply leaves the minecart empty */
        }
        s->short_left--;
    }
    return 1;
}

/* Acquire a tile of type t: it goes to its colour's level on its printed side. */
static int acquire_tile(const es_game *g, cb_state *s, int p, int t) {
    const cb_data *d = DATA(g);
    int c = d->t_colour[t];
    s->money[p] -= (uint16_t)d->t_cost[t];
    s->carts[p][c] += d->t_carts[t];
    s->owned[p][t]++;
    if (d->t_side[t]) s->dark[p]++;
    else s->light[p]++;
    s->short_left = d->t_carts[t];
    s->short_level = (uint8_t)c;
    return fill_carts(s, p);
}

static void deliver(const es_game *g, cb_state *s, int p, int v) {
    const cb_data *d = DATA(g);
    for (uint64_t x = s->outstanding[p] & d->vehicle_cards[v]; x; x &= x - 1) {
        int c = lowest(x);
        if (!complete(d, s, c)) continue;
        s->vp[p] += d->vp[c];
        for (int k = 0; k < CB_NCOL; k++) s->coal[k] += s->oncard[c][k];
        memset(s->oncard[c], 0, CB_NCOL);
        memset(s->filled[c], 0, CB_NCOL);
        s->outstanding[p] &= ~(1ull << c);
        s->delivered[p] |= 1ull << c;
    }
}

/* Shift scoring of elements 1..per_shift*shift (spec 7.2). */
static void shift_scoring(const es_game *g, cb_state *s) {
    const cb_data *d = DATA(g);
    int n = g->players, count[CB_NELEM][CB_MAXP], vp[CB_MAXP] = {0};
    memset(count, 0, sizeof count);
    for (int p = 0; p < n; p++) {
        if (g->options[CB_OPT_NEED_DELIVERY] && !s->delivered[p]) continue;   /* CB-A2 */
        for (uint64_t x = s->delivered[p]; x; x &= x - 1) {
            int c = lowest(x);
            for (int k = 0; k < CB_NCOL; k++) count[k][p] += d->spaces[c][k];
            count[4 + d->vehicle[c]][p] += d->total[c];
        }
        for (int l = 0; l < CB_NCOL; l++) count[8 + l][p] = s->carts[p][l] - level_cubes(s, p, l);   /* CB-A15 */
    }
    int elems = d->per_shift * s->shift;
    for (int e = 0; e < elems && e < CB_NELEM; e++)
        es_majority_award(count[e], n, d->first[e], d->second[e], n > 2, vp);
    for (int p = 0; p < n; p++) s->vp[p] += (uint16_t)vp[p];
}

static int cubes_owned(const cb_state *s, int p) {
    int c = cage_total(s, p);
    for (int k = 0; k < CB_NCOL; k++) c += s->storage[p][k] + level_cubes(s, p, k);
    for (uint64_t x = s->outstanding[p]; x; x &= x - 1) {
        const uint8_t *o = s->oncard[lowest(x)];
        c += o[0] + o[1] + o[2] + o[3];
    }
    return c;
}

static void final_scoring(const es_game *g, cb_state *s) {
    const cb_data *d = DATA(g);
    for (int p = 0; p < g->players; p++) {
        s->vp[p] += (uint16_t)(s->money[p] / d->marks_per_vp);   /* CB-A13 */
        s->money[p] %= (uint16_t)d->marks_per_vp;
        s->vp[p] += (uint16_t)(cubes_owned(s, p) / d->cubes_per_vp);
        int bal = s->light[p] - s->dark[p];
        s->penalty[p] = (uint16_t)(d->outstanding_pen * popcount64(s->outstanding[p]) +
                                   d->balance_pen * (bal < 0 ? -bal : bal));
    }
    s->phase = CB_PH_OVER;
    s->actor = -1;
}

static int factory_workers(const cb_state *s, int p) {
    int w = 0;
    for (int sp = CB_S_F1; sp <= CB_S_FD; sp++)
        if (s->owner[sp] == p) w += s->count[sp];
    return w;
}

/* Next start player (spec 4.11, CB-A10): the sole leader, else the nearest tied player
 * clockwise from the current start player, never the current one. */
static int next_start(const es_game *g, const cb_state *s) {
    int n = g->players, w[CB_MAXP], top = -1, tops = 0, lead = 0;
    for (int p = 0; p < n; p++) {
        w[p] = factory_workers(s, p);
        if (w[p] > top) top = w[p], tops = 1, lead = p;
        else if (w[p] == top) tops++;
    }
    if (tops == 1) return lead;
    for (int i = 1; i < n; i++) {
        int q = (s->start + i) % n;
        if (w[q] == top) return q;
    }
    return s->start;   /* unreachable: a tie has a player other than the start player */
}

static void shift_end(const es_game *g, cb_state *s) {
    const cb_data *d = DATA(g);
    shift_scoring(g, s);
    if (s->shift >= CB_SHIFTS) {
        final_scoring(g, s);
        return;
    }
    s->start = (uint8_t)next_start(g, s);
    memset(s->owner, -1, sizeof s->owner);
    memset(s->count, 0, sizeof s->count);
    for (int p = 0; p < g->players; p++) {
        s->supply[p] = (uint8_t)d->workers;
        s->canteen[p] = s->bank[p] = 0;
    }
    s->shift++;
    begin_turn(g, s, s->start);
}

static void begin_turn(const es_game *g, cb_state *s, int p) {
    (void)g;
    s->turn = s->actor = (int8_t)p;
    s->phase = CB_PH_PLACE;
    s->action = NONE8;
}

static void next_player(const es_game *g, cb_state *s) {
    int n = g->players;
    for (int i = 1; i <= n; i++) {   /* players without workers are skipped (T20) */
        int q = (s->turn + i) % n;
        if (s->supply[q]) {
            begin_turn(g, s, q);
            return;
        }
    }
    shift_end(g, s);
}

/* Put a drawn item into display slot sp (a factory tile or an order card). */
static inline void put_in_slot(cb_state *s, int sp, int item) {
    if (sp < CB_S_FD) s->factory[sp] = (uint8_t)item;
    else s->display[sp - CB_S_O1] = (uint8_t)item;
}

/* End of the turn: the display refill (spec 4.5 step 4, 4.9), then the next player. */
static void end_turn(const es_game *g, cb_state *s) {
    if (s->refill != NONE8) {
        int item = 0, r = es_kdeck_draw(s->refill < CB_S_FD ? &s->tiles : &s->orders, &item);
        if (r == 0) {
            s->phase = CB_PH_REFILL;
            s->actor = -1;
            return;
        }
        if (r == 1) put_in_slot(s, s->refill, item);
        s->refill = NONE8;   /* an empty deck leaves the slot empty (spec 4.13(b)) */
    }
    s->action = NONE8;
    next_player(g, s);
}

/* Setup (contract "Setup" steps 2-7): stops at the next chance or draft node. */
static void setup_next(const es_game *g, cb_state *s) {
    const cb_data *d = DATA(g);
    int n = g->players;
    if (s->phase == CB_PH_SETUP_TILES) {
        for (int i = 0; i < 8; i++)
            if (is_open(d, i) && s->factory[i] == NONE8) return;   /* next chance node */
        if (s->start == NONE8) {
            s->phase = CB_PH_START;
            return;
        }
        s->phase = CB_PH_POOL;
    }
    if (s->phase == CB_PH_START) s->phase = CB_PH_POOL;
    if (s->phase == CB_PH_POOL) {
        if (popcount64(s->pool) < d->pool) return;
        s->phase = CB_PH_DRAFT;
    }
    if (s->phase == CB_PH_DRAFT) {
        if (s->pick < n * d->picks) {
            s->actor = (int8_t)(((s->start - 1 - s->pick) % n + n) % n);   /* CB-A14 */
            return;
        }
        s->actor = -1;
        s->display[d->leftover - CB_S_O1] = (uint8_t)lowest(s->pool);
        s->pool = 0;
        s->phase = CB_PH_DISPLAY;
    }
    if (s->phase == CB_PH_DISPLAY) {
        for (int i = 0; i < 4; i++)
            if (is_open(d, CB_S_O1 + i) && s->display[i] == NONE8) return;
        s->shift = 1;
        begin_turn(g, s, s->start);
    }
}

/* The slot the next setup chance node fills. */
static int setup_slot(const cb_data *d, const cb_state *s) {
    if (s->phase == CB_PH_SETUP_TILES) {
        for (int i = 0; i < 8; i++)
            if (is_open(d, i) && s->factory[i] == NONE8) return i;
    } else {
        for (int i = 0; i < 4; i++)
            if (is_open(d, CB_S_O1 + i) && s->display[i] == NONE8) return CB_S_O1 + i;
    }
    return -1;
}

/* Draw-5 (spec 4.5, 4.9): draw into the buffer until it holds buf_goal items. */
static void draw5_next(const es_game *g, cb_state *s) {
    (void)g;
    es_kdeck *dk = deck_of(s, s->buf_kind);
    while (s->buf_n < s->buf_goal) {
        int item = 0, r = es_kdeck_draw(dk, &item);
        if (r == 0) {
            s->phase = CB_PH_DRAW5;
            s->actor = -1;
            return;
        }
        s->buf[s->buf_n++] = (uint8_t)item;   /* r == 1: buf_goal never exceeds the deck */
    }
    s->phase = CB_PH_KEEP;
    s->actor = s->turn;
}

/* After the KEEP decision (and the kept tile's minecarts): destination or the end. */
static void after_keep(const es_game *g, cb_state *s) {
    if (s->buf_n == 0) {
        s->buf_kind = CB_BUF_NONE;
        s->buf_goal = 0;
        end_turn(g, s);
        return;
    }
    s->buf_ordered = 0;
    s->actor = s->turn;
    if (es_kdeck_len(deck_of(s, s->buf_kind)) == 0) {   /* nothing to go under: as if on top */
        s->buf_dest = 0;
        s->phase = CB_PH_RETURN;
    } else {
        s->phase = CB_PH_DEST;
    }
}

static void commit_return(const es_game *g, cb_state *s) {
    es_kdeck_return(deck_of(s, s->buf_kind), s->buf, s->buf_n, s->buf_dest, (uint8_t)(1u << s->turn));
    memset(s->buf, 0, sizeof s->buf);
    s->buf_n = s->buf_goal = s->buf_ordered = s->buf_dest = 0;
    s->buf_kind = CB_BUF_NONE;
    end_turn(g, s);
}

static void after_acquire(const es_game *g, cb_state *s) {
    if (s->action == CB_S_FD) after_keep(g, s);
    else end_turn(g, s);   /* a factory slot: the refill is due at the end of the turn */
}

/* ---------------------------------------------------------------- legality */

/* The spaces p may place a worker on (bit sp), the Bank aside (always open): every space's
 * test at once, by the board's fixed layout (CB_S_*, checked at setup), so that a placement
 * node, the commonest decision, costs no branch per space. */
static uint32_t place_mask(const es_game *g, const cb_state *s, int p) {
    const cb_data *d = DATA(g);
    uint32_t room = es_bytes_below(s->count, CB_NSPACES, s->supply[p]), ok = 0;
    for (int i = 0; i < 8; i++) {   /* factory: a tile p can pay for (CB-A22) */
        int t = s->factory[i];
        ok |= (uint32_t)(t != NONE8 && s->money[p] >= d->t_cost[t]) << i;
    }
    ok |= (uint32_t)(es_kdeck_len(&s->tiles) > 0) << CB_S_FD;   /* CB-A7 */
    ok |= (uint32_t)(es_kdeck_len(&s->orders) > 0) << CB_S_OD;
    ok |= 0xFu << CB_S_M | 0xFu << CB_S_MONEY;                    /* mining (CB-A12), money */
    for (int i = 0; i < 4; i++) ok |= (uint32_t)(s->display[i] != NONE8) << (CB_S_O1 + i);
    for (int sp = CB_S_D; sp < CB_S_D + CB_NVEH; sp++)             /* delivery: a complete order */
        for (uint64_t x = s->outstanding[p] & d->vehicle_cards[d->value[sp]]; x; x &= x - 1)
            if (complete(d, s, lowest(x))) {
                ok |= 1u << sp;
                break;
            }
    return ok & room & d->open;
}

/* Whether p may place on any space: a mining or money space, always allowed where there is
 * room, answers it for almost every node without the other tests. */
static int place_any(const es_game *g, const cb_state *s, int p) {
    uint32_t always = (0xFu << CB_S_M | 0xFu << CB_S_MONEY) & DATA(g)->open;
    return (es_bytes_below(s->count, CB_NSPACES, s->supply[p]) & always) || place_mask(g, s, p);
}

/* A draw-5 item p may keep: any order card, a tile only if p can pay for it. */
static inline int keep_affordable(const es_game *g, const cb_state *s, int p, int it) {
    return s->buf_kind != CB_BUF_TILES || DATA(g)->t_cost[it] <= s->money[p];
}

static int keep_has_choice(const es_game *g, const cb_state *s) {
    if (s->buf_kind == CB_BUF_ORDERS) return s->buf_n > 0;
    for (int i = 0; i < s->buf_n; i++)
        if (keep_affordable(g, s, s->turn, s->buf[i])) return 1;
    return 0;
}

static int return_has_choice(const cb_state *s) {
    for (int i = s->buf_ordered + 1; i < s->buf_n; i++)
        if (s->buf[i] != s->buf[s->buf_ordered]) return 1;
    return 0;
}

/* Work steps (spec 4.7): the conditions that both the generator and is_legal test. */

/* Cubes p can put on an order from source code src*4 + colour: the cage at the surface (src
 * 0) or the storage (src 1). */
static inline int cube_avail(const cb_state *s, int p, int code) {
    if (code < CB_NCOL) return s->cage_level[p] == 0 ? s->cage[p][code] : 0;
    return s->storage[p][code - CB_NCOL];
}

/* Two cubes (codes a <= b) can fill one space together: both there, two if the same. */
static inline int pair_avail(const int *avail, int a, int b) {
    return avail[a] && avail[b] && (a != b || avail[a] >= 2);
}

/* Order c is p's outstanding order and still has an empty space of colour k. */
static inline int space_to_fill(const cb_data *d, const cb_state *s, int p, int c, int k) {
    return c < CB_NCARDS && ((s->outstanding[p] >> c) & 1) && s->filled[c][k] < d->spaces[c][k];
}

/* The cage, down in the mine, has room and its level's minecarts hold a cube of colour x. */
static inline int can_load(const cb_data *d, const cb_state *s, int p, int x) {
    int L = s->cage_level[p];
    return L >= 1 && s->mine[p][L - 1][x] && cage_total(s, p) < d->cage_cap;
}

/* The cage, at the surface, holds a cube of colour x to store. */
static inline int can_store(const cb_state *s, int p, int x) { return s->cage_level[p] == 0 && s->cage[p][x]; }

/* ---------------------------------------------------------------- move generation */

static int gen_mining(const es_game *g, const cb_state *s, int p, es_move *out) {
    const cb_data *d = DATA(g);
    int L = s->cage_level[p], left = s->steps, n = 0;
    for (int l = 0; l <= CB_NCOL; l++)
        if (l != L) out[n++] = MV_CAGE(l);
    out[n++] = MV_STOP;
    for (int x = 0; x < CB_NCOL; x++) {
        if (can_load(d, s, p, x)) out[n++] = MV_LOAD(x);
        if (can_store(s, p, x)) out[n++] = MV_STORE(x);
    }
    /* cube sources: code src*4 + colour, with their counts */
    int avail[8], codes[8], nc = 0;
    for (int k = 0; k < 8; k++)
        if ((avail[k] = cube_avail(s, p, k))) codes[nc++] = k;
    if (!nc) return n;
    int pairs[36], np = 0;
    if (left >= 2)
        for (int i = 0; i < nc; i++)
            for (int j = i; j < nc; j++)
                if (pair_avail(avail, codes[i], codes[j])) pairs[np++] = codes[i] | codes[j] << 3;
    for (uint64_t x = s->outstanding[p]; x; x &= x - 1) {
        int c = lowest(x);
        for (int k = 0; k < CB_NCOL; k++) {
            if (!space_to_fill(d, s, p, c, k)) continue;
            if (avail[k]) out[n++] = MV_PUT(0, k, c);
            if (avail[4 + k]) out[n++] = MV_PUT(1, k, c);
            for (int i = 0; i < np; i++) out[n++] = MV_PAIR(pairs[i] & 7, pairs[i] >> 3, c, k);
        }
    }
    return n;
}

static int cb_legal_moves(const es_game *g, const void *vs, es_move *out) {
    const cb_state *s = (const cb_state *)vs;
    int p = s->actor, n = 0;
    switch (s->phase) {
    case CB_PH_DRAFT:
        for (uint64_t x = s->pool; x; x &= x - 1) out[n++] = MV_DRAFT(lowest(x));
        return n;
    case CB_PH_PLACE:
        out[n++] = MV_PLACE(CB_BANK);
        for (uint32_t x = place_mask(g, s, p); x; x &= x - 1) out[n++] = MV_PLACE(lowest(x));
        return n;
    case CB_PH_MINE:
        return gen_mining(g, s, p, out);
    case CB_PH_SHORTAGE:
        for (int x = 0; x < CB_NCOL; x++)
            if (s->coal[x]) out[n++] = MV_SHORTAGE(x);
        return n;
    case CB_PH_KEEP: {
        uint64_t seen = 0;
        out[n++] = MV_KEEP(CB_KEEP_NONE);
        for (int i = 0; i < s->buf_n; i++) {
            int it = s->buf[i];
            if ((seen >> it) & 1) continue;
            seen |= 1ull << it;
            if (!keep_affordable(g, s, p, it)) continue;
            out[n++] = MV_KEEP(it);
        }
        return n;
    }
    case CB_PH_DEST:
        out[0] = MV_DEST(0);
        out[1] = MV_DEST(1);
        return 2;
    case CB_PH_RETURN: {
        uint64_t seen = 0;
        for (int i = s->buf_ordered; i < s->buf_n; i++) {
            int it = s->buf[i];
            if ((seen >> it) & 1) continue;
            seen |= 1ull << it;
            out[n++] = MV_RETURN(it);
        }
        return n;
    }
    default:
        return 0;
    }
}

/* random_move hook: at a placement node, the move cb_legal_moves would list at the drawn
 * index (the Bank first, then the spaces in order), from the mask alone; elsewhere the lists
 * are a few moves long and the caller lists them. */
static es_move cb_random_move(const es_game *g, const void *vs, es_rng *rng, int *count) {
    const cb_state *s = (const cb_state *)vs;
    if (s->phase != CB_PH_PLACE) {
        *count = -1;
        return 0;
    }
    uint32_t mask = place_mask(g, s, s->actor);
    *count = 1 + popcount64(mask);
    uint32_t k = es_rng_u32_below(rng, (uint32_t)*count);
    return MV_PLACE(k == 0 ? CB_BANK : es_bits64_select(mask, (int)k - 1));
}

/* ---------------------------------------------------------------- chance */

static int chance_kind(const cb_state *s) {
    switch (s->phase) {
    case CB_PH_SETUP_TILES: return CB_BUF_TILES;
    case CB_PH_POOL:
    case CB_PH_DISPLAY: return CB_BUF_ORDERS;
    case CB_PH_DRAW5: return s->buf_kind;
    case CB_PH_REFILL: return s->refill < CB_S_FD ? CB_BUF_TILES : CB_BUF_ORDERS;
    default: return CB_BUF_NONE;
    }
}

static int cb_chance_outcomes(const es_game *g, const void *vs, es_move *out, double *prob) {
    const cb_state *s = (const cb_state *)vs;
    int n = 0;
    if (s->phase == CB_PH_START) {
        for (int p = 0; p < g->players; p++) {
            out[n] = MV_START(p);
            prob[n++] = 1.0 / (double)g->players;
        }
        return n;
    }
    int kind = chance_kind(s);
    if (kind == CB_BUF_NONE) return 0;
    const es_kdeck *dk = kind == CB_BUF_TILES ? &s->tiles : &s->orders;
    double total = (double)dk->unknown_n;
    for (int t = 0; t < ntypes_of(kind); t++)
        if (dk->unknown[t]) {
            out[n] = kind == CB_BUF_TILES ? MV_TILE(t) : MV_CARD(t);
            prob[n++] = (double)dk->unknown[t] / total;
        }
    return n;
}

static es_move cb_sample_chance(const es_game *g, const void *vs, es_rng *rng) {
    const cb_state *s = (const cb_state *)vs;
    if (s->phase == CB_PH_START) return MV_START(es_rng_u32_below(rng, (uint32_t)g->players));
    int kind = chance_kind(s);
    if (kind == CB_BUF_TILES) return MV_TILE(es_kdeck_sample(&s->tiles, CB_NTYPES, rng));
    if (kind == CB_BUF_ORDERS) return MV_CARD(es_kdeck_sample(&s->orders, CB_NCARDS, rng));
    return 0;
}

/* ---------------------------------------------------------------- is_legal */

/* A work step, decoded: a mining turn lists up to 2,200 steps (every pair of cubes for every
 * space of every order). Fields are range-checked before they index anything. */
static int mining_legal(const es_game *g, const cb_state *s, int p, uint32_t u) {
    const cb_data *d = DATA(g);
    uint32_t arg = u >> 5;
    switch (MV_TYPE(u)) {
    case CB_M_CAGE:
        return arg <= CB_NCOL && arg != s->cage_level[p];
    case CB_M_STOP:
        return arg == 0;
    case CB_M_LOAD:
        return arg < CB_NCOL && can_load(d, s, p, (int)arg);
    case CB_M_STORE:
        return arg < CB_NCOL && can_store(s, p, (int)arg);
    case CB_M_PUT: {   /* src (1 bit), colour (2), card (6) */
        int src = arg & 1, x = (arg >> 1) & 3;
        return arg >> 9 == 0 && cube_avail(s, p, src * 4 + x) && space_to_fill(d, s, p, (int)(arg >> 3), x);
    }
    case CB_M_PAIR: {   /* codes a <= b (3 bits each), card (6), colour of the space (2) */
        int avail[8], a = arg & 7, b = (arg >> 3) & 7;
        if (arg >> 14 || s->steps < 2 || a > b) return 0;
        for (int k = 0; k < 8; k++) avail[k] = cube_avail(s, p, k);
        return pair_avail(avail, a, b) && space_to_fill(d, s, p, (arg >> 6) & 63, (int)(arg >> 12));
    }
    default:
        return 0;
    }
}

/* Item it is in the draw-5 buffer at or after position from. */
static int in_buffer(const cb_state *s, int from, uint32_t it) {
    for (int i = from; i < s->buf_n; i++)
        if (s->buf[i] == it) return 1;
    return 0;
}

/* Membership in cb_legal_moves / cb_chance_outcomes without the list, so that a checked apply
 * costs little more than an unchecked one (issue 19). */
static int cb_is_legal(const es_game *g, const void *vs, es_move m) {
    const cb_state *s = (const cb_state *)vs;
    uint32_t u = (uint32_t)m, arg = u >> 5;
    int p = s->actor, type = MV_TYPE(u);
    switch (s->phase) {
    case CB_PH_START:
        return type == CB_M_START && arg < (uint32_t)g->players;
    case CB_PH_SETUP_TILES:
    case CB_PH_POOL:
    case CB_PH_DISPLAY:
    case CB_PH_DRAW5:
    case CB_PH_REFILL: {   /* an item of the deck's unknown part */
        int kind = chance_kind(s);
        if (kind == CB_BUF_NONE || type != (kind == CB_BUF_TILES ? CB_M_TILE : CB_M_CARD)) return 0;
        return arg < (uint32_t)ntypes_of(kind) && cdeck_of(s, kind)->unknown[arg];
    }
    case CB_PH_DRAFT:
        return type == CB_M_DRAFT && arg < 64 && ((s->pool >> arg) & 1);
    case CB_PH_PLACE:
        return type == CB_M_PLACE && (arg == CB_BANK || (arg < CB_NSPACES && ((place_mask(g, s, p) >> arg) & 1)));
    case CB_PH_MINE:
        return mining_legal(g, s, p, u);
    case CB_PH_SHORTAGE:
        return type == CB_M_SHORTAGE && arg < CB_NCOL && s->coal[arg];
    case CB_PH_KEEP:
        if (type != CB_M_KEEP) return 0;
        return arg == CB_KEEP_NONE || (in_buffer(s, 0, arg) && keep_affordable(g, s, p, (int)arg));
    case CB_PH_DEST:
        return type == CB_M_DEST && arg <= 1;
    case CB_PH_RETURN:
        return type == CB_M_RETURN && in_buffer(s, s->buf_ordered, arg);
    default:   /* over */
        return 0;
    }
}

/* ---------------------------------------------------------------- apply */

static void apply_place(const es_game *g, cb_state *s, int p, int sp) {
    const cb_data *d = DATA(g);
    if (sp == CB_BANK) {
        s->supply[p]--;
        s->bank[p]++;
        s->money[p] += (uint16_t)d->bank;
        end_turn(g, s);
        return;
    }
    int k = s->count[sp];
    if (k) s->canteen[s->owner[sp]] += (uint8_t)k;   /* displaced (spec 4.3) */
    s->supply[p] -= (uint8_t)(k + 1);
    s->count[sp] = (uint8_t)(k + 1);
    s->owner[sp] = (int8_t)p;
    s->action = (uint8_t)sp;
    switch (d->kind[sp]) {
    case CB_K_FACTORY: {
        int t = s->factory[sp];
        s->factory[sp] = NONE8;
        s->refill = (uint8_t)sp;
        if (acquire_tile(g, s, p, t)) after_acquire(g, s);
        return;
    }
    case CB_K_FACTORY_DRAW:
    case CB_K_ORDER_DRAW: {
        s->buf_kind = d->kind[sp] == CB_K_FACTORY_DRAW ? CB_BUF_TILES : CB_BUF_ORDERS;
        int len = es_kdeck_len(deck_of(s, s->buf_kind));
        s->buf_goal = (uint8_t)(len < d->draw ? len : d->draw);   /* CB-A7 */
        s->buf_n = s->buf_ordered = s->buf_dest = 0;
        draw5_next(g, s);
        return;
    }
    case CB_K_MINING:
        s->steps = d->value[sp];
        s->phase = CB_PH_MINE;
        return;
    case CB_K_DELIVERY:
        deliver(g, s, p, d->value[sp]);
        break;
    case CB_K_MONEY:
        s->money[p] += d->value[sp];
        break;
    case CB_K_ORDER: {
        int i = sp - CB_S_O1;
        s->outstanding[p] |= 1ull << s->display[i];
        s->display[i] = NONE8;
        s->refill = (uint8_t)sp;   /* refilled at once: nothing happens in between */
        break;
    }
    default:
        break;
    }
    end_turn(g, s);
}

static inline void take_cube(cb_state *s, int p, int code) {
    if (code < 4) s->cage[p][code]--;
    else s->storage[p][code - 4]--;
}

static void apply_mining(const es_game *g, cb_state *s, int p, es_move m) {
    int cost = 1;
    switch (MV_TYPE(m)) {
    case CB_M_STOP:
        s->steps = 0;
        end_turn(g, s);
        return;
    case CB_M_CAGE:
        s->cage_level[p] = (uint8_t)MV_ARG(m, 5, 3);
        break;
    case CB_M_LOAD: {
        int x = MV_ARG(m, 5, 2), l = s->cage_level[p] - 1;
        s->mine[p][l][x]--;
        s->cage[p][x]++;
        break;
    }
    case CB_M_STORE: {
        int x = MV_ARG(m, 5, 2);
        s->cage[p][x]--;
        s->storage[p][x]++;
        break;
    }
    case CB_M_PUT: {
        int src = MV_ARG(m, 5, 1), x = MV_ARG(m, 6, 2), c = MV_ARG(m, 8, 6);
        take_cube(s, p, src * 4 + x);
        s->oncard[c][x]++;
        s->filled[c][x]++;
        break;
    }
    case CB_M_PAIR: {
        int a = MV_ARG(m, 5, 3), b = MV_ARG(m, 8, 3), c = MV_ARG(m, 11, 6), k = MV_ARG(m, 17, 2);
        take_cube(s, p, a);
        take_cube(s, p, b);
        s->oncard[c][a & 3]++;
        s->oncard[c][b & 3]++;
        s->filled[c][k]++;   /* one space of colour k, holding two cubes (CB-A4) */
        cost = 2;
        break;
    }
    default:
        break;
    }
    s->steps -= (uint8_t)cost;
    if (!s->steps) end_turn(g, s);   /* unused steps are lost; with none left the action ends */
}

static void apply_chance(const es_game *g, cb_state *s, es_move m) {
    const cb_data *d = DATA(g);
    if (MV_TYPE(m) == CB_M_START) {
        s->start = (uint8_t)MV_ARG(m, 5, 2);
        setup_next(g, s);
        return;
    }
    int item = MV_TYPE(m) == CB_M_TILE ? MV_ARG(m, 5, 4) : MV_ARG(m, 5, 6);
    es_kdeck_take_unknown(MV_TYPE(m) == CB_M_TILE ? &s->tiles : &s->orders, item);
    switch (s->phase) {
    case CB_PH_SETUP_TILES:
    case CB_PH_DISPLAY:
        put_in_slot(s, setup_slot(d, s), item);
        setup_next(g, s);
        break;
    case CB_PH_POOL:
        s->pool |= 1ull << item;
        setup_next(g, s);
        break;
    case CB_PH_DRAW5:
        s->buf[s->buf_n++] = (uint8_t)item;
        draw5_next(g, s);
        break;
    case CB_PH_REFILL:
        put_in_slot(s, s->refill, item);
        s->refill = NONE8;
        s->action = NONE8;
        next_player(g, s);
        break;
    default:
        break;
    }
}

static void apply_one(const es_game *g, cb_state *s, es_move m) {
    int p = s->actor;
    switch (MV_TYPE(m)) {
    case CB_M_START:
    case CB_M_TILE:
    case CB_M_CARD:
        apply_chance(g, s, m);
        break;
    case CB_M_DRAFT:
        s->pool &= ~(1ull << MV_ARG(m, 5, 6));
        s->outstanding[p] |= 1ull << MV_ARG(m, 5, 6);
        s->pick++;
        setup_next(g, s);
        break;
    case CB_M_PLACE:
        apply_place(g, s, p, MV_ARG(m, 5, 5));
        break;
    case CB_M_CAGE:
    case CB_M_LOAD:
    case CB_M_PUT:
    case CB_M_PAIR:
    case CB_M_STORE:
    case CB_M_STOP:
        apply_mining(g, s, p, m);
        break;
    case CB_M_SHORTAGE: {
        int x = MV_ARG(m, 5, 2);
        s->coal[x]--;
        s->mine[p][s->short_level][x]++;
        s->short_left--;
        if (fill_carts(s, p)) after_acquire(g, s);
        break;
    }
    case CB_M_KEEP: {
        int it = MV_ARG(m, 5, 6);
        if (it == CB_KEEP_NONE) {
            after_keep(g, s);
            break;
        }
        for (int i = 0; i < s->buf_n; i++)
            if (s->buf[i] == it) {
                s->buf[i] = s->buf[--s->buf_n];
                s->buf[s->buf_n] = 0;
                break;
            }
        if (s->buf_kind == CB_BUF_ORDERS) {
            s->outstanding[p] |= 1ull << it;
            after_keep(g, s);
        } else if (acquire_tile(g, s, p, it)) {
            after_keep(g, s);
        }
        break;
    }
    case CB_M_DEST:
        s->buf_dest = (uint8_t)MV_ARG(m, 5, 1);
        s->phase = CB_PH_RETURN;
        break;
    case CB_M_RETURN: {
        int it = MV_ARG(m, 5, 6);
        for (int i = s->buf_ordered; i < s->buf_n; i++)
            if (s->buf[i] == it) {
                s->buf[i] = s->buf[s->buf_ordered];
                s->buf[s->buf_ordered++] = (uint8_t)it;
                break;
            }
        break;
    }
    default:
        break;
    }
}

/* Forced decisions (a single legal move) are applied at once (contract "Forced decisions"). */
static void settle(const es_game *g, cb_state *s) {
    for (;;) {
        switch (s->phase) {
        case CB_PH_PLACE: {
            if (place_any(g, s, s->actor)) return;
            apply_place(g, s, s->actor, CB_BANK);
            break;
        }
        case CB_PH_KEEP:
            if (keep_has_choice(g, s)) return;
            after_keep(g, s);
            break;
        case CB_PH_RETURN:
            if (return_has_choice(s)) return;
            s->buf_ordered = s->buf_n;   /* the rest are equal: their order is forced */
            commit_return(g, s);
            break;
        default:
            return;
        }
    }
}

static void cb_apply(const es_game *g, void *vs, es_move m) {
    cb_state *s = (cb_state *)vs;
    apply_one(g, s, m);
    settle(g, s);
}

static int cb_current_player(const es_game *g, const void *vs) {
    (void)g;
    const cb_state *s = (const cb_state *)vs;
    switch (s->phase) {
    case CB_PH_SETUP_TILES:
    case CB_PH_START:
    case CB_PH_POOL:
    case CB_PH_DISPLAY:
    case CB_PH_DRAW5:
    case CB_PH_REFILL:
        return ES_CHANCE;
    case CB_PH_OVER:
        return ES_TERMINAL;
    default:
        return s->actor;
    }
}

/* ---------------------------------------------------------------- setup and init */

static void cb_init(const es_game *g, void *vs) {
    const cb_data *d = DATA(g);
    cb_state *s = (cb_state *)vs;
    int n = g->players;
    memset(s->owner, -1, sizeof s->owner);
    memset(s->factory, NONE8, sizeof s->factory);
    memset(s->display, NONE8, sizeof s->display);
    for (int t = 0; t < CB_NTYPES; t++) s->tiles.unknown[t] = d->t_copies[t];
    s->tiles.unknown_n = CB_NTILES;
    for (int c = 0; c < CB_NCARDS; c++) s->orders.unknown[c] = 1;
    s->orders.unknown_n = CB_NCARDS;
    for (int k = 0; k < CB_NCOL; k++) s->coal[k] = (uint8_t)(d->coal - n);
    for (int p = 0; p < n; p++) {
        s->supply[p] = (uint8_t)d->workers;
        s->money[p] = (uint16_t)d->money;
        for (int l = 0; l < CB_NCOL; l++) {   /* the printed minecart of each level, filled */
            s->carts[p][l] = 1;
            s->mine[p][l][l] = 1;
        }
    }
    s->actor = s->turn = -1;
    s->action = s->refill = NONE8;
    s->start = g->options[CB_OPT_START_PLAYER] >= 0 ? (uint8_t)g->options[CB_OPT_START_PLAYER] : NONE8;
    s->phase = CB_PH_SETUP_TILES;
    setup_next(g, s);
}

/* A failed check names the data file's entry and field (the table follows coal_baron_data.py). */
#define NEED(cond, ...) \
    do { if (!(cond)) { es_setup_error(err, errlen, "coal_baron data: " __VA_ARGS__); free(d); return ES_ERR_ARG; } } while (0)
#define NEED_OPTION(cond, name) \
    do { if (!(cond)) { free(d); return es_setup_error(err, errlen, "coal_baron option %s out of range", name); } } while (0)
#define IN(v, lo, hi) ((v) >= (lo) && (v) <= (hi))

static const char *const colour_key[CB_NCOL] = {"Y", "B", "G", "K"};

static int cb_setup(es_game *g, const int32_t *t, size_t len, char *err, size_t errlen) {
    cb_data *d = (cb_data *)calloc(1, sizeof *d);
    if (!d) return es_setup_error(err, errlen, "out of memory");
    int n = g->players;
    size_t names_len = (size_t)(CB_NSPACES + CB_NCARDS + CB_NTYPES) * ES_NAME_INTS;
    size_t want = CB_TABLE_HEAD + 3 * CB_NSPACES + 6 * CB_NCARDS + 4 * CB_NTYPES + names_len;
    NEED(len == want, "the table has %zu ints, the layout %zu", len, want);
    NEED(t[0] == CB_TABLE_VERSION, "unknown table version %d", t[0]);
    /* the ids, to name the entries: board spaces, order cards, tile types */
    const int32_t *nt = t + want - names_len;
    for (int i = 0; i < CB_NSPACES; i++, nt += ES_NAME_INTS) es_read_name(nt, d->space_id[i]);
    for (int i = 0; i < CB_NCARDS; i++, nt += ES_NAME_INTS) es_read_name(nt, d->card_id[i]);
    for (int i = 0; i < CB_NTYPES; i++, nt += ES_NAME_INTS) es_read_name(nt, d->tile_id[i]);
    d->workers = t[1 + n - 2];
    d->money = t[4 + n - 2];
    d->pool = t[7 + n - 2];
    d->picks = t[10];
    d->leftover = t[11];
    d->coal = t[12];
    d->cage_cap = t[13];
    d->draw = t[14];
    d->bank = t[15];
    NEED(IN(d->workers, 1, CB_MAX_WORKERS), "setup: field 'workers.%d': %d is out of range 1..%d", n, d->workers,
         CB_MAX_WORKERS);
    NEED(IN(d->money, 0, 100), "setup: field 'money.%d': %d is out of range 0..100", n, d->money);
    NEED(IN(d->picks, 1, 5), "setup: field 'draft_picks': %d is out of range 1..5", d->picks);
    NEED(d->pool == n * d->picks + 1, "setup: field 'draft_pool.%d': %d cards; the draft needs %d x %d picks + 1", n,
         d->pool, n, d->picks);
    NEED(IN(d->leftover, CB_S_O1, CB_S_O1 + 3), "setup: field 'leftover_slot': not an order display slot");
    NEED(IN(d->coal, n + 1, 32), "components: field 'coal_per_colour': %d is out of range %d..32", d->coal, n + 1);
    NEED(IN(d->cage_cap, 1, 10), "components: field 'cage_capacity': %d is out of range 1..10", d->cage_cap);
    NEED(IN(d->draw, 1, CB_MAX_DRAW), "components: field 'draw_count': %d is out of range 1..%d", d->draw, CB_MAX_DRAW);
    NEED(IN(d->bank, 0, 20), "components: field 'bank_marks': %d is out of range 0..20", d->bank);
    for (int k = 0; k < CB_NCOL; k++) {
        d->cart_cost[k] = t[16 + k];
        NEED(IN(d->cart_cost[k], 0, 20), "components.cart_cost: field '%s': %d is out of range 0..20", colour_key[k],
             d->cart_cost[k]);
    }
    d->per_shift = t[20];
    NEED(d->per_shift * CB_SHIFTS == CB_NELEM, "shift_clock: field 'elements_per_shift': %d x %d shifts must cover "
         "the %d elements", d->per_shift, CB_SHIFTS, CB_NELEM);
    for (int e = 0; e < CB_NELEM; e++) {
        d->first[e] = t[21 + 2 * e];
        d->second[e] = t[22 + 2 * e];
        NEED(IN(d->first[e], 0, 50) && IN(d->second[e], 0, 50),
             "shift_clock.elements[%d]: field 'first' or 'second': out of range 0..50", e);
    }
    d->marks_per_vp = t[45], d->cubes_per_vp = t[46], d->outstanding_pen = t[47], d->balance_pen = t[48];
    NEED(IN(d->marks_per_vp, 1, 20), "final: field 'marks_per_vp': %d is out of range 1..20", d->marks_per_vp);
    NEED(IN(d->cubes_per_vp, 1, 20), "final: field 'cubes_per_vp': %d is out of range 1..20", d->cubes_per_vp);
    NEED(IN(d->outstanding_pen, 0, 10), "final: field 'outstanding_penalty': %d is out of range 0..10",
         d->outstanding_pen);
    NEED(IN(d->balance_pen, 0, 10), "final: field 'balance_penalty': %d is out of range 0..10", d->balance_pen);
    static const uint8_t want_kind[CB_NSPACES] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                                  4, 4, 4, 4, 5, 5, 5, 5, 6};
    const int32_t *st = t + CB_TABLE_HEAD;
    int vehicles = 0;
    for (int sp = 0; sp < CB_NSPACES; sp++, st += 3) {
        const char *id = d->space_id[sp];
        NEED(st[0] == want_kind[sp], "board (%s): a space of another kind than the engine's board has here", id);
        NEED(IN(st[2], 2, CB_MAXP), "board (%s): field 'min_players': %d is out of range 2..%d", id, st[2], CB_MAXP);
        if (want_kind[sp] == CB_K_MINING)
            NEED(IN(st[1], 1, 15), "board (%s): field 'steps': %d is out of range 1..15", id, st[1]);
        else if (want_kind[sp] == CB_K_MONEY)
            NEED(IN(st[1], 0, 20), "board (%s): field 'marks': %d is out of range 0..20", id, st[1]);
        else if (want_kind[sp] == CB_K_DELIVERY)
            NEED(IN(st[1], 0, 3) && !((vehicles >> st[1]) & 1),
                 "board (%s): field 'vehicle': one delivery space per vehicle", id);
        else
            NEED(st[1] == 0, "board (%s): this kind of space takes no value", id);
        if (want_kind[sp] == CB_K_DELIVERY) vehicles |= 1 << st[1];
        d->kind[sp] = (uint8_t)st[0];
        d->value[sp] = (uint8_t)st[1];
        d->minp[sp] = (uint8_t)st[2];
        if (st[2] <= n) d->open |= 1u << sp;
    }
    NEED(d->minp[d->leftover] == 2, "setup: field 'leftover_slot': %s is locked with 2 players; the leftover card's "
         "slot is open at every player count", d->space_id[d->leftover]);
    const int32_t *ct = st;
    for (int c = 0; c < CB_NCARDS; c++, ct += 6) {
        const char *id = d->card_id[c];
        int tot = 0;
        NEED(ct[0] == c / 11, "deck.orders (%s): field 'vehicle': the cards are 11 per vehicle in vehicle order", id);
        NEED(IN(ct[1], 0, 50), "deck.orders (%s): field 'vp': %d is out of range 0..50", id, ct[1]);
        d->vehicle[c] = (uint8_t)ct[0];
        d->vp[c] = (uint8_t)ct[1];
        for (int k = 0; k < CB_NCOL; k++) {
            NEED(IN(ct[2 + k], 0, 3), "deck.orders (%s): field 'spaces': %d spaces of %s; at most 3 of one colour", id,
                 ct[2 + k], colour_key[k]);
            d->spaces[c][k] = (uint8_t)ct[2 + k];
            tot += ct[2 + k];
        }
        NEED(IN(tot, 1, 4), "deck.orders (%s): field 'spaces': %d order spaces; a card has 1..4", id, tot);
        d->total[c] = (uint8_t)tot;
        memcpy(&d->spaces_packed[c], d->spaces[c], 4);
        d->vehicle_cards[ct[0]] |= 1ull << c;
    }
    const int32_t *tt = ct;
    int copies = 0;
    for (int i = 0; i < CB_NTYPES; i++, tt += 4) {
        const char *id = d->tile_id[i];
        NEED(tt[0] == i / 4 && tt[1] == i % 4 / 2 + 1 && tt[2] == i % 2,
             "deck.tiles (%s): tile types must be in the engine's order (colour, carts, side)", id);
        NEED(IN(tt[3], 0, CB_NTILES), "deck.tiles (%s): field 'copies': %d is out of range 0..%d", id, tt[3], CB_NTILES);
        d->t_colour[i] = (uint8_t)tt[0];
        d->t_carts[i] = (uint8_t)tt[1];
        d->t_side[i] = (uint8_t)tt[2];
        d->t_copies[i] = (uint8_t)tt[3];
        d->t_cost[i] = (uint8_t)(tt[1] * d->cart_cost[tt[0]]);
        copies += tt[3];
    }
    NEED(copies == CB_NTILES, "deck.tiles: the copies add up to %d; there are %d tunnel tiles", copies, CB_NTILES);

    const int32_t *o = g->options;
    NEED_OPTION(IN(o[CB_OPT_START_PLAYER], -1, n - 1), "start_player");
    NEED_OPTION(IN(o[CB_OPT_SECOND_TR_LO], -1, 20), "second_tr_lo");
    NEED_OPTION(IN(o[CB_OPT_NEED_DELIVERY], 0, 1), "empty_carts_need_delivery");
    if (o[CB_OPT_SECOND_TR_LO] >= 0) d->second[6] = d->second[7] = o[CB_OPT_SECOND_TR_LO];   /* CB-A1 */
    g->data = d;
    return ES_OK;
}

/* ---------------------------------------------------------------- results */

static inline int score_of(const cb_state *s, int p) { return (int)s->vp[p] - (int)s->penalty[p]; }

static void cb_scores(const es_game *g, const void *vs, double *out) {
    const cb_state *s = (const cb_state *)vs;
    for (int p = 0; p < g->players; p++) out[p] = score_of(s, p);
}

/* Most VP; then most Marks left after the conversion; else shared (spec 7.4). */
static void cb_returns(const es_game *g, const void *vs, double *out) {
    const cb_state *s = (const cb_state *)vs;
    int n = g->players, winners = 0;
    long best = -(1L << 40), key[CB_MAXP];
    for (int p = 0; p < n; p++) {
        out[p] = 0;
        key[p] = (long)score_of(s, p) * 65536L + s->money[p];
        if (key[p] > best) best = key[p];
    }
    if (s->phase != CB_PH_OVER) return;
    for (int p = 0; p < n; p++) winners += key[p] == best;
    for (int p = 0; p < n; p++)
        if (key[p] == best) out[p] = 1.0 / winners;
}

/* ---------------------------------------------------------------- knowledge */

/* Another player's draw-5 buffer is hidden from viewer. */
static inline int buffer_hidden(const cb_state *s, int viewer) {
    return s->buf_kind != CB_BUF_NONE && s->turn != viewer && (s->buf_n || s->phase == CB_PH_DRAW5);
}

/* The state as viewer sees it (contract "Knowledge"): deck items viewer does not know are 255,
 * and the unknown pools hold everything viewer cannot place. */
static void cb_redact(const es_game *g, const void *vs, int viewer, void *vout) {
    (void)g;
    cb_state *s = (cb_state *)vout;
    memcpy(s, vs, sizeof *s);
    if (buffer_hidden(s, viewer)) {
        es_kdeck *dk = deck_of(s, s->buf_kind);
        for (int i = 0; i < s->buf_n; i++) {
            dk->unknown[s->buf[i]]++;
            dk->unknown_n++;
            s->buf[i] = ES_KDECK_HIDDEN;
        }
    }
    es_kdeck_redact(&s->tiles, viewer);
    es_kdeck_redact(&s->orders, viewer);
}

/* Resample one deck's items the observer cannot place (unknown part, unseen known positions,
 * another player's buffer) uniformly back into those places. The pool and the places are
 * taken in a canonical order, so the world depends only on what the observer sees. */
static void resample_deck(cb_state *s, es_kdeck *dk, int ntypes, int with_buffer, int observer, es_rng *rng) {
    uint8_t counts[ES_KDECK_TYPES], pool[ES_KDECK_MAX + CB_MAX_DRAW];
    memcpy(counts, dk->unknown, sizeof counts);
    es_kdeck_hidden_counts(dk, observer, counts);
    if (with_buffer)
        for (int i = 0; i < s->buf_n; i++) counts[s->buf[i]]++;
    int n = es_kdeck_pool(counts, ntypes, pool);
    es_kdeck_shuffle(pool, n, rng);
    int k = 0;
    for (int i = 0; i < dk->top_n; i++)
        if (!((dk->top_seen[i] >> observer) & 1)) dk->top[i] = pool[k++];
    for (int i = 0; i < dk->bot_n; i++)
        if (!((dk->bot_seen[i] >> observer) & 1)) dk->bot[i] = pool[k++];
    if (with_buffer)
        for (int i = 0; i < s->buf_n; i++) s->buf[i] = pool[k++];
    memset(dk->unknown, 0, sizeof dk->unknown);
    for (; k < n; k++) dk->unknown[pool[k]]++;
}

/* A presented decision tells the others something about a hidden buffer: a KEEP node has an
 * affordable tile, a RETURN node has two different items left. Worlds must keep that. */
static int buffer_consistent(const es_game *g, const cb_state *s) {
    if (s->phase == CB_PH_KEEP) return keep_has_choice(g, s);
    if (s->phase == CB_PH_RETURN) return return_has_choice(s);
    return 1;
}

static void cb_determinize(const es_game *g, void *vs, int observer, es_rng *rng) {
    cb_state *s = (cb_state *)vs, trial;
    int hidden = buffer_hidden(s, observer);
    for (int attempt = 0; attempt < 10000; attempt++) {   /* rejection: uniform among consistent worlds */
        memcpy(&trial, s, sizeof trial);
        resample_deck(&trial, &trial.tiles, CB_NTYPES, hidden && s->buf_kind == CB_BUF_TILES, observer, rng);
        resample_deck(&trial, &trial.orders, CB_NCARDS, hidden && s->buf_kind == CB_BUF_ORDERS, observer, rng);
        if (!hidden || buffer_consistent(g, &trial)) {
            memcpy(s, &trial, sizeof *s);
            return;
        }
    }   /* cannot happen in practice: the true world is consistent; s is left unchanged */
}

/* What viewer sees of move m: another player's return order, and items drawn into another
 * player's buffer, are one move each (bit 30 is never set in a real move). */
static es_move cb_move_view(const es_game *g, const void *vs, es_move m, int viewer) {
    (void)g;
    const cb_state *s = (const cb_state *)vs;
    int t = MV_TYPE(m);
    if (s->turn != viewer && ((s->phase == CB_PH_RETURN && t == CB_M_RETURN) || s->phase == CB_PH_DRAW5))
        return HIDDEN_MOVE | t;
    return m;
}

/* ---------------------------------------------------------------- evaluation */

/* How many cubes a mining action with `steps` steps left could still put on p's orders, by a
 * simple plan: storage first, then the cage's cubes, then one trip per level (down, load, up,
 * put), fullest levels first. Only cubes of a colour some order space still needs count. */
static int mining_plan(const cb_data *d, const cb_state *s, int p, int steps, const int *need_in) {
    int need[CB_NCOL], count = 0, L = s->cage_level[p];
    memcpy(need, need_in, sizeof need);
    for (int k = 0; k < CB_NCOL && steps > 0; k++) {   /* storage -> order: 1 step each */
        int m = s->storage[p][k] < need[k] ? s->storage[p][k] : need[k];
        if (m > steps) m = steps;
        count += m, steps -= m, need[k] -= m;
    }
    int in_cage = 0;
    for (int k = 0; k < CB_NCOL; k++) in_cage += s->cage[p][k] < need[k] ? s->cage[p][k] : need[k];
    if (in_cage && L != 0 && steps > 0) steps--, L = 0;   /* up to the surface */
    if (in_cage && L == 0)
        for (int k = 0; k < CB_NCOL && steps > 0; k++) {
            int m = s->cage[p][k] < need[k] ? s->cage[p][k] : need[k];
            if (m > steps) m = steps;
            count += m, steps -= m, need[k] -= m;
        }
    int room = d->cage_cap - cage_total(s, p) + in_cage;   /* the matched cage cubes are unloaded */
    if (room > d->cage_cap) room = d->cage_cap;
    for (int trip = 0; trip < CB_NCOL && steps > 2; trip++) {
        int best = -1, bestn = 0;
        for (int l = 0; l < CB_NCOL; l++) {
            int m = 0;
            for (int k = 0; k < CB_NCOL; k++) m += s->mine[p][l][k] < need[k] ? s->mine[p][l][k] : need[k];
            if (m > bestn || (m == bestn && m && l + 1 == L)) best = l, bestn = m;
        }
        if (best < 0) break;
        int cost = (best + 1 == L ? 0 : 1) + 1;   /* down (unless already there), up */
        int j = bestn < room ? bestn : room;
        if (2 * j > steps - cost) j = (steps - cost) / 2;
        if (j <= 0) break;
        steps -= cost + 2 * j;
        count += j;
        for (int k = 0; k < CB_NCOL && j > 0; k++) {   /* which colours were taken */
            int m = s->mine[p][best][k] < need[k] ? s->mine[p][best][k] : need[k];
            if (m > j) m = j;
            need[k] -= m, j -= m;
        }
        L = 0;
        room = d->cage_cap;
    }
    return count;
}

/* Estimated final score: VP, money and coal at their conversion rates, a share of the
 * outstanding orders by how far they are filled, workers still to place, cubes on their way to
 * orders that need them (in the cage or storage, the cage where it can load or unload them),
 * the shift scorings still to come as the majorities stand now, and the end-game penalties.
 * The small terms give a one-move lookahead (the greedy agent) a direction inside a mining
 * action, where a single step rarely changes the score. */
static void cb_evaluate(const es_game *g, const void *vs, double *out) {
    const cb_state *s = (const cb_state *)vs;
    const cb_data *d = DATA(g);
    int n = g->players;
    if (s->phase == CB_PH_OVER) {
        cb_scores(g, vs, out);
        return;
    }
    int shift = s->shift ? s->shift : 1, last = shift == CB_SHIFTS;
    for (int p = 0; p < n; p++) {
        double v = s->vp[p] + s->money[p] / (double)d->marks_per_vp + cubes_owned(s, p) / (double)d->cubes_per_vp;
        v += 1.2 * s->supply[p];            /* each worker is one more action this shift */
        int need[CB_NCOL] = {0};
        for (uint64_t x = s->outstanding[p]; x; x &= x - 1) {
            int c = lowest(x), f = s->filled[c][0] + s->filled[c][1] + s->filled[c][2] + s->filled[c][3];
            double frac = (double)f / d->total[c];
            v += d->vp[c] * (0.1 + 0.75 * frac) - d->outstanding_pen * (0.5 + 0.5 * last);
            for (int k = 0; k < CB_NCOL; k++) need[k] += d->spaces[c][k] - s->filled[c][k];
        }
        int L = s->cage_level[p], room = d->cage_cap - cage_total(s, p);
        for (int k = 0; k < CB_NCOL; k++) {
            int carried = s->cage[p][k] + s->storage[p][k];
            int matched = carried < need[k] ? carried : need[k];
            int left = need[k] - matched, mined = 0;
            for (int l = 0; l < CB_NCOL; l++) mined += s->mine[p][l][k];
            if (mined > left) mined = left;
            v += 0.6 * matched + 0.45 * mined;
            if (L == 0) v += 0.2 * (s->cage[p][k] < need[k] ? s->cage[p][k] : need[k]);
            if (L >= 1 && room > 0 && left > 0 && s->mine[p][L - 1][k]) v += 0.3;
        }
        /* a mining action under way: its steps are worth the cubes they can still bring */
        if (s->phase == CB_PH_MINE && s->turn == p) v += 1.5 * mining_plan(d, s, p, s->steps, need);
        int bal = s->light[p] - s->dark[p];
        v -= d->balance_pen * (bal < 0 ? -bal : bal) * (last ? 0.9 : shift == 2 ? 0.5 : 0.2);
        out[p] = v;
    }
    /* the remaining shift scorings, each at today's standings */
    cb_state t;
    memcpy(&t, s, sizeof t);
    memset(t.vp, 0, sizeof t.vp);
    for (int sh = shift; sh <= CB_SHIFTS; sh++) {
        t.shift = (uint8_t)sh;
        shift_scoring(g, &t);
    }
    for (int p = 0; p < n; p++) out[p] += 0.7 * t.vp[p];
}

/* ---------------------------------------------------------------- validation */

#define BAD(msg) do { if (err && errlen) snprintf(err, errlen, "invalid coal_baron state: %s", msg); return ES_ERR_FORMAT; } while (0)

static int check_deck(const es_kdeck *dk, int ntypes, int n, char *err, size_t errlen) {
    int total = 0;
    for (int t = 0; t < ES_KDECK_TYPES; t++) {
        if (t >= ntypes && dk->unknown[t]) BAD("deck holds an unknown item type");
        total += dk->unknown[t];
    }
    if (total != dk->unknown_n) BAD("deck count does not match its contents");
    if (dk->top_n > ES_KDECK_MAX || dk->bot_n > ES_KDECK_MAX || es_kdeck_len(dk) > ES_KDECK_MAX) BAD("deck too long");
    if (dk->reserved || dk->pad[0] || dk->pad[1] || dk->pad[2] || dk->pad[3]) BAD("reserved deck bytes");
    for (int i = 0; i < ES_KDECK_MAX; i++) {
        if (i < dk->top_n) {
            if (dk->top[i] >= ntypes || !dk->top_seen[i] || dk->top_seen[i] >> n) BAD("known top item");
        } else if (dk->top[i] || dk->top_seen[i]) BAD("stale deck entry");
        if (i < dk->bot_n) {
            if (dk->bot[i] >= ntypes || !dk->bot_seen[i] || dk->bot_seen[i] >> n) BAD("known bottom item");
        } else if (dk->bot[i] || dk->bot_seen[i]) BAD("stale deck entry");
    }
    return ES_OK;
}

static int cb_validate(const es_game *g, const void *vs, char *err, size_t errlen) {
    const cb_state *s = (const cb_state *)vs;
    const cb_data *d = DATA(g);
    int n = g->players, ph = s->phase;
    if (!IN(ph, CB_PH_SETUP_TILES, CB_PH_OVER)) BAD("unknown phase");
    if (s->reserved[0] || s->reserved[1]) BAD("reserved bytes are not zero");
    if (check_deck(&s->tiles, CB_NTYPES, n, err, errlen) || check_deck(&s->orders, CB_NCARDS, n, err, errlen))
        return ES_ERR_FORMAT;
    int setup = ph <= CB_PH_DISPLAY;
    if (setup ? s->shift != 0 : !IN(s->shift, 1, CB_SHIFTS)) BAD("shift out of range");
    if (s->start == NONE8 ? !(ph == CB_PH_SETUP_TILES || ph == CB_PH_START) : s->start >= n) BAD("start player");
    if (ph == CB_PH_START && s->start != NONE8) BAD("start player chance");
    int decision = ph == CB_PH_DRAFT || (ph >= CB_PH_PLACE && ph <= CB_PH_RETURN);
    if (decision ? !IN(s->actor, 0, n - 1) : s->actor != -1) BAD("actor out of range");
    if (setup ? s->turn != -1 : !IN(s->turn, 0, n - 1)) BAD("turn player out of range");
    if (!setup && ph != CB_PH_OVER && ph != CB_PH_DRAW5 && ph != CB_PH_REFILL && s->actor != s->turn) BAD("actor is not the turn player");

    /* unused seats */
    for (int p = n; p < CB_MAXP; p++) {
        if (s->vp[p] || s->penalty[p] || s->money[p] || s->supply[p] || s->canteen[p] || s->bank[p] ||
            s->cage_level[p] || s->light[p] || s->dark[p] || s->outstanding[p] || s->delivered[p])
            BAD("data in an unused seat");
        for (int k = 0; k < CB_NCOL; k++) {
            if (s->cage[p][k] || s->storage[p][k] || s->carts[p][k]) BAD("data in an unused seat");
            for (int x = 0; x < CB_NCOL; x++) if (s->mine[p][k][x]) BAD("data in an unused seat");
        }
        for (int t = 0; t < CB_NTYPES; t++) if (s->owned[p][t]) BAD("data in an unused seat");
    }

    /* order cards: each in exactly one place */
    uint64_t seen = 0;
#define PLACE_CARD(c) do { int c_ = (c); if (c_ >= CB_NCARDS) BAD("card out of range"); \
        if ((seen >> c_) & 1) BAD("a card in two places"); seen |= 1ull << c_; } while (0)
#define PLACE_SET(x) do { uint64_t x_ = (x); if (x_ >> CB_NCARDS) BAD("card out of range"); \
        if (x_ & seen) BAD("a card in two places"); seen |= x_; } while (0)
    for (int c = 0; c < CB_NCARDS; c++) {
        if (s->orders.unknown[c] > 1) BAD("a card twice in the deck");
        if (s->orders.unknown[c]) PLACE_CARD(c);
    }
    for (int i = 0; i < s->orders.top_n; i++) PLACE_CARD(s->orders.top[i]);
    for (int i = 0; i < s->orders.bot_n; i++) PLACE_CARD(s->orders.bot[i]);
    if (s->buf_kind == CB_BUF_ORDERS)
        for (int i = 0; i < s->buf_n && i < CB_MAX_DRAW; i++) PLACE_CARD(s->buf[i]);
    for (int i = 0; i < 4; i++)
        if (s->display[i] != NONE8) PLACE_CARD(s->display[i]);
    PLACE_SET(s->pool);
    for (int p = 0; p < n; p++) {
        PLACE_SET(s->outstanding[p]);
        PLACE_SET(s->delivered[p]);
    }
#undef PLACE_CARD
#undef PLACE_SET
    if (seen != (1ull << CB_NCARDS) - 1) BAD("order cards are not conserved");
    for (int i = 0; i < 4; i++)
        if (!is_open(d, CB_S_O1 + i) && s->display[i] != NONE8) BAD("card on a locked order slot");

    /* tiles: per type */
    int tcount[CB_NTYPES];
    for (int t = 0; t < CB_NTYPES; t++) tcount[t] = s->tiles.unknown[t];
    for (int i = 0; i < s->tiles.top_n; i++) tcount[s->tiles.top[i]]++;
    for (int i = 0; i < s->tiles.bot_n; i++) tcount[s->tiles.bot[i]]++;
    for (int i = 0; i < 8; i++) {
        if (s->factory[i] == NONE8) continue;
        if (s->factory[i] >= CB_NTYPES || !is_open(d, i)) BAD("factory slot");
        tcount[s->factory[i]]++;
    }
    if (s->buf_kind == CB_BUF_TILES)
        for (int i = 0; i < s->buf_n && i < CB_MAX_DRAW; i++) {
            if (s->buf[i] >= CB_NTYPES) BAD("buffer item out of range");
            tcount[s->buf[i]]++;
        }
    for (int p = 0; p < n; p++)
        for (int t = 0; t < CB_NTYPES; t++) tcount[t] += s->owned[p][t];
    for (int t = 0; t < CB_NTYPES; t++) if (tcount[t] != d->t_copies[t]) BAD("tiles are not conserved");

    /* buffer */
    if (s->buf_kind > CB_BUF_ORDERS || s->buf_n > CB_MAX_DRAW || s->buf_goal > d->draw || s->buf_n > s->buf_goal ||
        s->buf_ordered > s->buf_n || s->buf_dest > 1)
        BAD("draw-5 buffer");
    for (int i = s->buf_n; i < CB_MAX_DRAW; i++) if (s->buf[i]) BAD("stale buffer entry");
    int in_draw5 = ph == CB_PH_DRAW5 || ph == CB_PH_KEEP || ph == CB_PH_DEST || ph == CB_PH_RETURN ||
                   (ph == CB_PH_SHORTAGE && s->action == CB_S_FD);
    if (!in_draw5 && (s->buf_kind || s->buf_n || s->buf_goal || s->buf_ordered || s->buf_dest)) BAD("buffer outside a draw-5");
    if (in_draw5) {
        int want = s->action == CB_S_FD ? CB_BUF_TILES : s->action == CB_S_OD ? CB_BUF_ORDERS : -1;
        if (s->buf_kind != want || !s->buf_goal) BAD("draw-5 without its space");
        if (ph == CB_PH_DRAW5 && (s->buf_n >= s->buf_goal || !es_kdeck_chance(cdeck_of(s, s->buf_kind))))
            BAD("draw-5 chance");
        if (ph == CB_PH_DRAW5 && s->buf_goal - s->buf_n > es_kdeck_len(cdeck_of(s, s->buf_kind))) BAD("draw-5 beyond the deck");
        if (ph == CB_PH_KEEP && s->buf_n != s->buf_goal) BAD("keep before the draw is done");
        if ((ph == CB_PH_DEST || ph == CB_PH_RETURN) && !s->buf_n) BAD("return of nothing");
        if (ph == CB_PH_DEST && (s->buf_ordered || !es_kdeck_len(cdeck_of(s, s->buf_kind)))) BAD("destination");
        if (ph != CB_PH_RETURN && s->buf_ordered) BAD("return order outside the return");
        if (ph == CB_PH_RETURN && s->buf_ordered >= s->buf_n) BAD("return already complete");
        if (ph == CB_PH_SHORTAGE && s->buf_n + 1 > s->buf_goal) BAD("shortage without a kept tile");
    }

    /* coal: conserved per colour */
    for (int k = 0; k < CB_NCOL; k++) {
        int total = s->coal[k];
        for (int p = 0; p < n; p++) {
            total += s->cage[p][k] + s->storage[p][k];
            for (int l = 0; l < CB_NCOL; l++) total += s->mine[p][l][k];
        }
        for (int c = 0; c < CB_NCARDS; c++) total += s->oncard[c][k];
        if (total != d->coal) BAD("coal is not conserved");
    }

    /* cards' fill state */
    uint64_t outstanding_all = 0;
    for (int p = 0; p < n; p++) outstanding_all |= s->outstanding[p];
    for (int c = 0; c < CB_NCARDS; c++) {
        int f = 0, cubes = 0;
        for (int k = 0; k < CB_NCOL; k++) {
            if (s->filled[c][k] > d->spaces[c][k]) BAD("card overfilled");
            f += s->filled[c][k];
            cubes += s->oncard[c][k];
        }
        if (!((outstanding_all >> c) & 1) && (f || cubes)) BAD("cubes on a card that is not outstanding");
        if (cubes < f || cubes > 2 * f) BAD("cubes on a card do not match its filled spaces");
    }

    /* players */
    int workers_on[CB_MAXP] = {0};
    for (int sp = 0; sp < CB_NSPACES; sp++) {
        int o = s->owner[sp], k = s->count[sp];
        if (!is_open(d, sp) && (o != -1 || k)) BAD("workers on a locked space");
        if (k == 0 ? o != -1 : !IN(o, 0, n - 1)) BAD("space owner");
        if (k > CB_MAX_WORKERS) BAD("too many workers on a space");
        if (o >= 0) workers_on[o] += k;
    }
    for (int p = 0; p < n; p++) {
        int placed = workers_on[p] + s->canteen[p] + s->bank[p];
        if (setup && (placed || s->supply[p] != d->workers)) BAD("workers placed during setup");
        if (s->supply[p] + placed != d->workers) BAD("workers are not conserved");
        if (s->cage_level[p] > CB_NCOL || cage_total(s, p) > d->cage_cap) BAD("cage");
        int light = 0, dark = 0;
        for (int l = 0; l < CB_NCOL; l++) {
            int carts = 1;
            for (int t = 0; t < CB_NTYPES; t++)
                if (d->t_colour[t] == l) carts += s->owned[p][t] * d->t_carts[t];
            if (s->carts[p][l] != carts) BAD("minecarts do not match the tiles");
            if (level_cubes(s, p, l) > carts) BAD("more cubes than minecarts");
        }
        for (int t = 0; t < CB_NTYPES; t++) {
            if (d->t_side[t]) dark += s->owned[p][t];
            else light += s->owned[p][t];
        }
        if (s->light[p] != light || s->dark[p] != dark) BAD("tile sides do not match the tiles");
        if (s->money[p] > 5000 || s->vp[p] > 2000) BAD("money or VP out of range");
        if (ph != CB_PH_OVER && s->penalty[p]) BAD("final penalty before the end");
        if (s->penalty[p] > 200) BAD("penalty out of range");
        if (ph == CB_PH_OVER && s->money[p] >= d->marks_per_vp) BAD("Marks left over the conversion");
        if (setup && (s->delivered[p] || s->vp[p])) BAD("deliveries during setup");
    }

    /* flow */
    if (s->action != NONE8 && s->action >= CB_NSPACES) BAD("action out of range");
    if (s->refill != NONE8 && !((s->refill < 8 && is_open(d, s->refill)) || (IN(s->refill, CB_S_O1, CB_S_O1 + 3) && is_open(d, s->refill))))
        BAD("refill slot");
    if (s->refill != NONE8 && (s->refill < 8 ? s->factory[s->refill] : s->display[s->refill - CB_S_O1]) != NONE8)
        BAD("refill of a full slot");
    if (s->refill != NONE8 && s->action != s->refill) BAD("refill without its action");
    int mining = ph == CB_PH_MINE;
    if (mining ? !(s->action != NONE8 && d->kind[s->action] == CB_K_MINING && IN(s->steps, 1, d->value[s->action])) : s->steps)
        BAD("work steps");
    if (ph == CB_PH_SHORTAGE) {
        int ok = s->action != NONE8 && (d->kind[s->action] == CB_K_FACTORY || s->action == CB_S_FD);
        if (!ok || !IN(s->short_left, 1, 2) || s->short_level >= CB_NCOL || s->coal[s->short_level]) BAD("shortage");
        int avail = 0;
        for (int x = 0; x < CB_NCOL; x++) avail += s->coal[x] > 0;
        if (avail < 2) BAD("shortage without a choice");
        if (s->carts[s->actor][s->short_level] < level_cubes(s, s->actor, s->short_level) + s->short_left) BAD("shortage");
    } else if (s->short_left) BAD("pending minecarts outside a shortage");
    if (s->short_level >= CB_NCOL) BAD("shortage level");
    if (ph == CB_PH_PLACE && (s->action != NONE8 || s->refill != NONE8)) BAD("placement in the middle of an action");
    if (ph == CB_PH_PLACE && !s->supply[s->actor]) BAD("a turn without workers");
    if (ph == CB_PH_REFILL) {
        if (s->refill == NONE8) BAD("refill chance without a slot");
        if (!es_kdeck_chance(s->refill < 8 ? &s->tiles : &s->orders)) BAD("refill chance without unknown items");
    }
    if (ph == CB_PH_DRAFT || ph == CB_PH_POOL || ph == CB_PH_SETUP_TILES || ph == CB_PH_START) {
        for (int i = 0; i < 4; i++) if (s->display[i] != NONE8) BAD("order display filled before the draft ends");
    }
    int pool_n = popcount64(s->pool), held = 0;
    for (int p = 0; p < n; p++) held += popcount64(s->outstanding[p]);
    if (setup) {
        if (s->pick != held) BAD("draft picks");
        if (ph == CB_PH_DRAFT && (pool_n + s->pick != d->pool || s->pick >= n * d->picks)) BAD("draft pool");
        if (ph == CB_PH_DRAFT && s->actor != ((s->start - 1 - s->pick) % n + n) % n) BAD("wrong drafter");
        if ((ph == CB_PH_POOL || ph == CB_PH_START || ph == CB_PH_SETUP_TILES) && (s->pick || pool_n >= d->pool)) BAD("draft pool");
        if (ph == CB_PH_DISPLAY && (pool_n || s->pick != n * d->picks)) BAD("display before the draft ends");
        if (ph == CB_PH_SETUP_TILES || ph == CB_PH_START) {
            int empty = 0;
            for (int i = 0; i < 8; i++) empty += is_open(d, i) && s->factory[i] == NONE8;
            if ((ph == CB_PH_SETUP_TILES) != (empty > 0) || pool_n) BAD("factory setup");
        }
        if (ph == CB_PH_DISPLAY && setup_slot(d, s) < 0) BAD("display setup");
        if (s->action != NONE8 || s->refill != NONE8) BAD("an action during setup");
        for (int p = 0; p < n; p++)
            if (s->cage_level[p] || cage_total(s, p)) BAD("mining during setup");
        if (s->tiles.top_n || s->tiles.bot_n || s->orders.top_n || s->orders.bot_n) BAD("known deck items during setup");
    } else {
        if (pool_n || s->pick != n * d->picks) BAD("draft pool after setup");
        for (int i = 0; i < 8; i++) if (!is_open(d, i) && s->factory[i] != NONE8) BAD("tile on a locked slot");
    }
    if (ph == CB_PH_OVER && s->shift != CB_SHIFTS) BAD("game over before the third shift");
    return ES_OK;
}

/* ---------------------------------------------------------------- observation */

#define OBS_PLAYER 48
#define OBS_SPACE (1 + CB_MAXP)
static int cb_observation_size(const es_game *g) {
    (void)g;
    return CB_MAXP * OBS_PLAYER + CB_NSPACES * OBS_SPACE + 8 * 7 + 4 * 9 + 4 + 4 + 2 * (CB_NTYPES + 1) + 9 +
           CB_NTYPES + CB_MAX_DRAW * 9 + CB_NPHASES + CB_MAXP + CB_SHIFTS + 3;
}

static void card_features(const cb_data *d, int c, float *out) {
    for (int v = 0; v < CB_NVEH; v++) out[v] = c >= 0 && d->vehicle[c] == v;
    out[4] = c >= 0 ? d->vp[c] / 12.0f : 0;
    for (int k = 0; k < CB_NCOL; k++) out[5 + k] = c >= 0 ? d->spaces[c][k] / 3.0f : 0;
}

/* Seats relative to the viewer (block 0 is the viewer, then clockwise); computed from the
 * viewer's redacted view, so it shows exactly what the viewer may see. */
static void cb_observe(const es_game *g, const void *vs, int viewer, float *out) {
    const cb_data *d = DATA(g);
    cb_state v;
    cb_redact(g, vs, viewer, &v);
    const cb_state *s = &v;
    int n = g->players, i = 0, size = cb_observation_size(g);
    for (int k = 0; k < size; k++) out[k] = 0;
#define PUT(x) (out[i++] = (float)(x))
    for (int r = 0; r < CB_MAXP; r++) {
        int start = i, p = (viewer + r) % n;
        if (r < n) {
            PUT(score_of(s, p) / 50.0);
            PUT(s->money[p] / 20.0);
            PUT(s->supply[p] / 18.0);
            for (int l = 0; l <= CB_NCOL; l++) PUT(s->cage_level[p] == l);
            for (int k = 0; k < CB_NCOL; k++) PUT(s->cage[p][k] / 5.0);
            for (int k = 0; k < CB_NCOL; k++) PUT(s->storage[p][k] / 5.0);
            for (int l = 0; l < CB_NCOL; l++) PUT(s->carts[p][l] / 5.0);
            for (int l = 0; l < CB_NCOL; l++) PUT(level_cubes(s, p, l) / 5.0);
            PUT(s->light[p] / 10.0);
            PUT(s->dark[p] / 10.0);
            int dcol[CB_NCOL] = {0}, dveh[CB_NVEH] = {0}, need[CB_NCOL] = {0}, ready[CB_NVEH] = {0};
            for (uint64_t x = s->delivered[p]; x; x &= x - 1) {
                int c = lowest(x);
                for (int k = 0; k < CB_NCOL; k++) dcol[k] += d->spaces[c][k];
                dveh[d->vehicle[c]] += d->total[c];
            }
            for (uint64_t x = s->outstanding[p]; x; x &= x - 1) {
                int c = lowest(x);
                for (int k = 0; k < CB_NCOL; k++) need[k] += d->spaces[c][k] - s->filled[c][k];
                if (complete(d, s, c)) ready[d->vehicle[c]]++;
            }
            for (int k = 0; k < CB_NCOL; k++) PUT(dcol[k] / 10.0);
            for (int k = 0; k < CB_NVEH; k++) PUT(dveh[k] / 10.0);
            for (int k = 0; k < CB_NCOL; k++) PUT(need[k] / 5.0);
            for (int k = 0; k < CB_NVEH; k++) PUT(ready[k] / 3.0);
            PUT(popcount64(s->outstanding[p]) / 10.0);
            PUT(popcount64(s->delivered[p]) / 10.0);
            PUT(factory_workers(s, p) / 10.0);
            PUT(s->canteen[p] / 10.0);
            PUT(s->bank[p] / 10.0);
            PUT(s->start == p);
        }
        i = start + OBS_PLAYER;
    }
    for (int sp = 0; sp < CB_NSPACES; sp++) {
        PUT(s->count[sp] / 5.0);
        for (int r = 0; r < CB_MAXP; r++) PUT(r < n && s->owner[sp] == (viewer + r) % n);
    }
    for (int f = 0; f < 8; f++) {
        int t = s->factory[f];
        PUT(t != NONE8);
        for (int k = 0; k < CB_NCOL; k++) PUT(t != NONE8 && d->t_colour[t] == k);
        PUT(t != NONE8 ? d->t_carts[t] / 2.0 : 0);
        PUT(t != NONE8 ? d->t_side[t] : 0);
    }
    for (int o = 0; o < 4; o++) {
        int c = s->display[o];
        card_features(d, c == NONE8 ? -1 : c, out + i);
        i += 9;
    }
    for (int k = 0; k < CB_NCOL; k++) PUT(s->coal[k] / 16.0);
    PUT(es_kdeck_len(&s->tiles) / 48.0);
    PUT(es_kdeck_len(&s->orders) / 44.0);
    PUT(s->tiles.top_n / 10.0);
    PUT(s->orders.top_n / 10.0);
    /* the next tile, if the viewer knows it (a top item it returned) */
    int next_tile = s->tiles.top_n ? s->tiles.top[s->tiles.top_n - 1] : -1;
    for (int t = 0; t < CB_NTYPES; t++) PUT(next_tile == t);
    PUT(next_tile >= 0 && next_tile != ES_KDECK_HIDDEN);
    for (int t = 0; t < CB_NTYPES; t++) PUT(s->tiles.unknown[t] / 6.0);
    PUT(s->tiles.unknown_n / 48.0);
    int next_card = s->orders.top_n ? s->orders.top[s->orders.top_n - 1] : -1;
    card_features(d, next_card >= 0 && next_card < CB_NCARDS ? next_card : -1, out + i);
    i += 9;
    /* the draw-5 buffer (the viewer's own; another player's shows only its size) */
    for (int b = 0; b < CB_NTYPES; b++) PUT(0);
    for (int b = 0; b < s->buf_n; b++)
        if (s->buf_kind == CB_BUF_TILES && s->buf[b] < CB_NTYPES) out[i - CB_NTYPES + s->buf[b]] += 1.0f / 3;
    for (int b = 0; b < CB_MAX_DRAW; b++) {
        int c = b < s->buf_n && s->buf_kind == CB_BUF_ORDERS && s->buf[b] < CB_NCARDS ? s->buf[b] : -1;
        card_features(d, c, out + i);
        i += 9;
    }
    for (int ph = 1; ph <= CB_NPHASES; ph++) PUT(s->phase == ph);
    for (int r = 0; r < CB_MAXP; r++) PUT(r < n && s->actor == (viewer + r) % n);
    for (int sh = 1; sh <= CB_SHIFTS; sh++) PUT(s->shift == sh);
    PUT(s->steps / 10.0);
    PUT(s->buf_n / 5.0);
    PUT(s->buf_ordered / 5.0);
#undef PUT
}

/* ---------------------------------------------------------------- text */

static const char *tile_name(const cb_data *d, int t) { return t >= 0 && t < CB_NTYPES ? d->tile_id[t] : "?"; }
static const char *card_name(const cb_data *d, int c) { return c >= 0 && c < CB_NCARDS ? d->card_id[c] : "?"; }

static void cube_text(es_text *t, int code) {
    es_text_add(t, "%s:%c", code < 4 ? "cage" : "storage", COLOUR_CH[code & 3]);
}

static int cb_move_to_str(const es_game *g, const void *vs, es_move m, char *buf, size_t cap) {
    const cb_state *s = (const cb_state *)vs;
    const cb_data *d = DATA(g);
    es_text t = es_text_make(buf, cap);
    int kind = s->buf_kind;
    switch (MV_TYPE(m)) {
    case CB_M_DRAFT: es_text_add(&t, "draft %s", card_name(d, MV_ARG(m, 5, 6))); break;
    case CB_M_PLACE: {
        int sp = MV_ARG(m, 5, 5);
        es_text_add(&t, "place %s", sp == CB_BANK ? "bank" : sp < CB_NSPACES ? d->space_id[sp] : "?");
        break;
    }
    case CB_M_CAGE: es_text_add(&t, "cage %d", MV_ARG(m, 5, 3)); break;
    case CB_M_LOAD: es_text_add(&t, "load %c", COLOUR_CH[MV_ARG(m, 5, 2)]); break;
    case CB_M_PUT:
        es_text_add(&t, "put %s %c %s", MV_ARG(m, 5, 1) ? "storage" : "cage", COLOUR_CH[MV_ARG(m, 6, 2)],
                    card_name(d, MV_ARG(m, 8, 6)));
        break;
    case CB_M_PAIR:
        es_text_add(&t, "pair ");
        cube_text(&t, MV_ARG(m, 5, 3));
        es_text_add(&t, "+");
        cube_text(&t, MV_ARG(m, 8, 3));
        es_text_add(&t, " %s:%c", card_name(d, MV_ARG(m, 11, 6)), COLOUR_CH[MV_ARG(m, 17, 2)]);
        break;
    case CB_M_STORE: es_text_add(&t, "store %c", COLOUR_CH[MV_ARG(m, 5, 2)]); break;
    case CB_M_STOP: es_text_add(&t, "stop"); break;
    case CB_M_KEEP: {
        int it = MV_ARG(m, 5, 6);
        if (it == CB_KEEP_NONE) es_text_add(&t, "keep none");
        else es_text_add(&t, "keep %s", kind == CB_BUF_ORDERS ? card_name(d, it) : tile_name(d, it));
        break;
    }
    case CB_M_DEST: es_text_add(&t, "dest %s", MV_ARG(m, 5, 1) ? "bottom" : "top"); break;
    case CB_M_RETURN: {
        int it = MV_ARG(m, 5, 6);
        es_text_add(&t, "return %s", kind == CB_BUF_ORDERS ? card_name(d, it) : tile_name(d, it));
        break;
    }
    case CB_M_SHORTAGE: es_text_add(&t, "shortage %c", COLOUR_CH[MV_ARG(m, 5, 2)]); break;
    case CB_M_START: es_text_add(&t, "start P%d", MV_ARG(m, 5, 2)); break;
    case CB_M_TILE: es_text_add(&t, "tile %s", tile_name(d, MV_ARG(m, 5, 4))); break;
    case CB_M_CARD: es_text_add(&t, "card %s", card_name(d, MV_ARG(m, 5, 6))); break;
    default: es_text_add(&t, "invalid move %d", (int)m);
    }
    return es_text_result(&t);
}

static const char *const PHASE_NAME[CB_NPHASES + 1] = {
    "?", "setup: factory", "setup: start player", "setup: draft pool", "draft", "setup: order display",
    "placement", "mining", "coal shortage", "draw-5 keep", "draw-5 destination", "draw-5 order",
    "draw-5 draw", "refill", "game over"};

static void card_text(es_text *t, const cb_data *d, const cb_state *s, int c) {
    es_text_add(t, " %s(%d:", d->card_id[c], d->vp[c]);
    for (int k = 0; k < CB_NCOL; k++)
        for (int j = 0; j < d->spaces[c][k]; j++) es_text_add(t, "%c", j < s->filled[c][k] ? COLOUR_CH[k] + 32 : COLOUR_CH[k]);
    es_text_add(t, ")");
}

static int cb_render(const es_game *g, const void *vs, char *buf, size_t cap) {
    const cb_state *s = (const cb_state *)vs;
    const cb_data *d = DATA(g);
    es_text t = es_text_make(buf, cap);
    int n = g->players;
    es_text_add(&t, "Coal Baron, %d players, shift %d, %s", n, s->shift, PHASE_NAME[s->phase % (CB_NPHASES + 1)]);
    if (s->actor >= 0) es_text_add(&t, " (P%d to act)", s->actor);
    if (s->phase == CB_PH_MINE) es_text_add(&t, ", %d steps left", s->steps);
    es_text_add(&t, "\n");
    for (int p = 0; p < n; p++) {
        es_text_add(&t, "P%d%s vp %3d marks %3d workers %2d  cage L%d [", p, s->start == p ? "*" : " ", score_of(s, p),
                    s->money[p], s->supply[p], s->cage_level[p]);
        for (int k = 0; k < CB_NCOL; k++) for (int j = 0; j < s->cage[p][k]; j++) es_text_add(&t, "%c", COLOUR_CH[k]);
        es_text_add(&t, "] storage [");
        for (int k = 0; k < CB_NCOL; k++) for (int j = 0; j < s->storage[p][k]; j++) es_text_add(&t, "%c", COLOUR_CH[k]);
        es_text_add(&t, "] tiles %dL/%dD\n    mine:", s->light[p], s->dark[p]);
        for (int l = 0; l < CB_NCOL; l++) {
            es_text_add(&t, " L%d %d carts [", l + 1, s->carts[p][l]);
            for (int k = 0; k < CB_NCOL; k++) for (int j = 0; j < s->mine[p][l][k]; j++) es_text_add(&t, "%c", COLOUR_CH[k]);
            es_text_add(&t, "]");
        }
        es_text_add(&t, "\n    orders:");
        for (uint64_t x = s->outstanding[p]; x; x &= x - 1) card_text(&t, d, s, lowest(x));
        es_text_add(&t, "\n    delivered:");
        for (uint64_t x = s->delivered[p]; x; x &= x - 1) es_text_add(&t, " %s", d->card_id[lowest(x)]);
        es_text_add(&t, "\n");
    }
    es_text_add(&t, "spaces:");
    for (int sp = 0; sp < CB_NSPACES; sp++) {
        if (!is_open(d, sp)) continue;
        es_text_add(&t, " %s", d->space_id[sp]);
        if (s->count[sp]) es_text_add(&t, "[P%dx%d]", s->owner[sp], s->count[sp]);
    }
    es_text_add(&t, "\nfactory:");
    for (int f = 0; f < 8; f++)
        if (is_open(d, f)) es_text_add(&t, " %s=%s", d->space_id[f], s->factory[f] == NONE8 ? "-" : tile_name(d, s->factory[f]));
    es_text_add(&t, "  stack %d\norders:", es_kdeck_len(&s->tiles));
    for (int o = 0; o < 4; o++)
        if (is_open(d, CB_S_O1 + o)) {
            es_text_add(&t, " %s=", d->space_id[CB_S_O1 + o]);
            if (s->display[o] == NONE8) es_text_add(&t, "-");
            else card_text(&t, d, s, s->display[o]);
        }
    es_text_add(&t, "  deck %d\ncoal supply Y%d B%d G%d K%d", es_kdeck_len(&s->orders), s->coal[0], s->coal[1], s->coal[2], s->coal[3]);
    if (s->pool) {
        es_text_add(&t, "\ndraft pool:");
        for (uint64_t x = s->pool; x; x &= x - 1) card_text(&t, d, s, lowest(x));
    }
    if (s->buf_kind) {
        es_text_add(&t, "\ndraw-5 (P%d):", s->turn);
        for (int b = 0; b < s->buf_n; b++)
            es_text_add(&t, " %s", s->buf[b] == ES_KDECK_HIDDEN ? "??" : s->buf_kind == CB_BUF_TILES ? tile_name(d, s->buf[b]) : card_name(d, s->buf[b]));
    }
    es_text_add(&t, "\n");
    return es_text_result(&t);
}

/* ---------------------------------------------------------------- reflection and definition */

#define F1(name, type) ES_FIELD(cb_state, name, type)
#define FA(name, type, n) ES_ARRAY(cb_state, name, type, n)
#define F2(name, type, a, b) ES_ARRAY2(cb_state, name, type, a, b)
#define K1(name, type, kind, names) ES_FIELD_K(cb_state, name, type, kind, names)
#define KA(name, type, n, kind, names) ES_ARRAY_K(cb_state, name, type, n, kind, names)
#define K2(name, type, a, b, kind, names) ES_ARRAY2_K(cb_state, name, type, a, b, kind, names)
/* The data's names (cb_data): order cards, tunnel-tile types, worker spaces. */
static const es_name_table cb_card_names = ES_NAMES("order cards", cb_data, card_id, ES_NAME_BYTES, CB_NCARDS);
static const es_name_table cb_tile_names = ES_NAMES("tile types", cb_data, tile_id, ES_NAME_BYTES, CB_NTYPES);
static const es_name_table cb_space_names = ES_NAMES("worker spaces", cb_data, space_id, ES_NAME_BYTES, CB_NSPACES);
#define DECK_FIELDS(dk, names)                                                                         \
    KA(dk.unknown, ES_U8, ES_KDECK_TYPES, ES_K_PER_ITEM, names), KA(dk.top, ES_U8, ES_KDECK_MAX, ES_K_ITEM, names), \
    KA(dk.top_seen, ES_U8, ES_KDECK_MAX, ES_K_SEATSET, NULL), KA(dk.bot, ES_U8, ES_KDECK_MAX, ES_K_ITEM, names),   \
    KA(dk.bot_seen, ES_U8, ES_KDECK_MAX, ES_K_SEATSET, NULL), F1(dk.unknown_n, ES_U8), F1(dk.top_n, ES_U8),       \
    F1(dk.bot_n, ES_U8), K1(dk.reserved, ES_U8, ES_K_PAD, NULL), KA(dk.pad, ES_U8, 4, ES_K_PAD, NULL)

/* Field kinds (es_field_kind): card sets and cards by the data's ids, seats and "none" (255 / -1) as null. */
static const es_field_desc cb_fields[] = {
    DECK_FIELDS(tiles, &cb_tile_names), DECK_FIELDS(orders, &cb_card_names),
    K1(pool, ES_U64, ES_K_ITEMSET, &cb_card_names), KA(outstanding, ES_U64, CB_MAXP, ES_K_ITEMSET, &cb_card_names),
    KA(delivered, ES_U64, CB_MAXP, ES_K_ITEMSET, &cb_card_names),
    FA(vp, ES_U16, CB_MAXP), FA(penalty, ES_U16, CB_MAXP), FA(money, ES_U16, CB_MAXP),
    FA(supply, ES_U8, CB_MAXP), FA(canteen, ES_U8, CB_MAXP), FA(bank, ES_U8, CB_MAXP), FA(cage_level, ES_U8, CB_MAXP),
    F2(cage, ES_U8, CB_MAXP, CB_NCOL), F2(storage, ES_U8, CB_MAXP, CB_NCOL), F2(carts, ES_U8, CB_MAXP, CB_NCOL),
    F2(mine, ES_U8, CB_MAXP, CB_NCOL * CB_NCOL), FA(light, ES_U8, CB_MAXP), FA(dark, ES_U8, CB_MAXP),
    K2(owned, ES_U8, CB_MAXP, CB_NTYPES, ES_K_PER_ITEM, &cb_tile_names), F2(filled, ES_U8, CB_NCARDS, CB_NCOL),
    F2(oncard, ES_U8, CB_NCARDS, CB_NCOL),
    KA(owner, ES_I8, CB_NSPACES, ES_K_SEAT, NULL), KA(count, ES_U8, CB_NSPACES, ES_K_PER_ITEM, &cb_space_names),
    KA(factory, ES_U8, 8, ES_K_ITEM, &cb_tile_names), KA(display, ES_U8, 4, ES_K_ITEM, &cb_card_names),
    FA(coal, ES_U8, CB_NCOL), KA(buf, ES_U8, CB_MAX_DRAW, ES_K_OPT, NULL), F1(buf_n, ES_U8), F1(buf_goal, ES_U8),
    F1(buf_kind, ES_U8), F1(buf_ordered, ES_U8), F1(buf_dest, ES_U8), F1(phase, ES_U8), K1(actor, ES_I8, ES_K_SEAT, NULL),
    K1(turn, ES_I8, ES_K_SEAT, NULL), F1(shift, ES_U8), K1(start, ES_U8, ES_K_SEAT, NULL), F1(pick, ES_U8),
    F1(steps, ES_U8), K1(action, ES_U8, ES_K_ITEM, &cb_space_names), K1(refill, ES_U8, ES_K_ITEM, &cb_space_names),
    F1(short_left, ES_U8), F1(short_level, ES_U8), KA(reserved, ES_U8, 2, ES_K_PAD, NULL),
};

static const int32_t cb_default_options[CB_NOPTIONS] = {-1, -1, 1};

/* Dense action space (docs/coal_baron_engine.md, "Move ids"): decision move types and their parameter bits. */
static const es_move_kind cb_move_kinds[] = {
    {1, 1, {{5, 6}}},   /* DRAFT */
    {2, 1, {{5, 5}}},   /* PLACE */
    {3, 1, {{5, 3}}},   /* CAGE */
    {4, 1, {{5, 2}}},   /* LOAD */
    {5, 1, {{5, 9}}},   /* PUT */
    {6, 1, {{5, 14}}},   /* PAIR */
    {7, 1, {{5, 2}}},   /* STORE */
    {8, 0, {{0, 0}}},   /* STOP */
    {9, 1, {{5, 6}}},   /* KEEP */
    {10, 1, {{5, 1}}},   /* DEST */
    {11, 1, {{5, 6}}},   /* RETURN */
    {12, 1, {{5, 2}}},   /* SHORTAGE */
};

/* The slices of cb_observe's vector; seat rows relative to the viewer, CB_MAXP rows always. */
static int cb_observation_layout(const es_game *g, es_obs_slice *out, int cap) {
    (void)g;
    es_obs_builder b = es_obs_begin(out, cap);
    es_obs_add(&b, "seats", CB_MAXP, OBS_PLAYER);
    es_obs_add(&b, "spaces", CB_NSPACES, OBS_SPACE);   /* count, owner per relative seat */
    es_obs_add(&b, "factory", 8, 7);                   /* present, colour one-hot, carts, side */
    es_obs_add(&b, "display", 4, 9);                   /* order card features */
    es_obs_add(&b, "coal", CB_NCOL, 0);
    es_obs_add(&b, "stacks", 4, 0);                    /* tiles, orders, known tops of each */
    es_obs_add(&b, "next_tile", CB_NTYPES + 1, 0);     /* one-hot, known */
    es_obs_add(&b, "unknown_tiles", CB_NTYPES + 1, 0); /* per type, total */
    es_obs_add(&b, "next_order", 9, 0);
    es_obs_add(&b, "buffer_tiles", CB_NTYPES, 0);
    es_obs_add(&b, "buffer_orders", CB_MAX_DRAW, 9);
    es_obs_add(&b, "phase", CB_NPHASES, 0);
    es_obs_add(&b, "actor", CB_MAXP, 0);
    es_obs_add(&b, "shift", CB_SHIFTS, 0);
    es_obs_add(&b, "progress", 3, 0);                  /* steps, buffer size, buffer ordered */
    return b.n;
}

/* random_play hook: the library's loop, with this game's hooks called directly */
ES_RANDOM_PLAY_HOOK(cb_random_play, cb_current_player, cb_random_move, cb_sample_chance, cb_apply)

const es_game_def es_coal_baron_def = {
    .name = "coal_baron",
    .min_players = 2,
    .max_players = CB_MAXP,
    .state_size = sizeof(cb_state),
    .max_moves = CB_MAX_MOVES,
    .max_chance_outcomes = CB_MAX_CHANCE,
    .n_options = CB_NOPTIONS,
    .default_options = cb_default_options,
    .setup = cb_setup,
    .observation_size = cb_observation_size,
    .init = cb_init,
    .current_player = cb_current_player,
    .legal_moves = cb_legal_moves,
    .random_move = cb_random_move,
    .random_play = cb_random_play,
    .chance_outcomes = cb_chance_outcomes,
    .sample_chance = cb_sample_chance,
    .apply = cb_apply,
    .scores = cb_scores,
    .returns = cb_returns,
    .determinize = cb_determinize,
    .validate = cb_validate,
    .observe = cb_observe,
    .move_to_str = cb_move_to_str,
    .render = cb_render,
    .redact = cb_redact,
    .move_view = cb_move_view,
    .evaluate = cb_evaluate,
    .fields = cb_fields,
    .n_fields = (int)(sizeof cb_fields / sizeof cb_fields[0]),
    .move_type_bits = 5,
    .move_kinds = cb_move_kinds,
    .n_move_kinds = (int)(sizeof cb_move_kinds / sizeof cb_move_kinds[0]),
    .observation_layout = cb_observation_layout,
    .is_legal = cb_is_legal,
};
