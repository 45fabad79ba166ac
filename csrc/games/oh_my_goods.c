/* Oh My Goods!: the rules. Card data comes in as a table (oh_my_goods.h). Sequencing, move ids,
 * knowledge and forced decisions follow docs/oh_my_goods_engine.md; rule references (spec
 * sections, OMG-A ids) are to shared/rules/oh_my_goods.md. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oh_my_goods.h"
#include "../core/obslayout.h"
#include "../core/bitset.h"
#include "../core/legal.h"
#include "../core/rng.h"
#include "../core/table.h"
#include "../core/text.h"

_Static_assert(sizeof(omg_state) % 8 == 0, "state must be a multiple of 8 bytes");
_Static_assert(sizeof(omg_state) == 640, "state layout changed: update the reflection table");
_Static_assert(sizeof(omg_building) == 16, "a building's address is a shift of its index (hot lookups)");

#define DATA(g) ((const omg_data *)(g)->data)
#define BIT(i) (1u << (i))
#define NONE8 255
#define INF_VALUE 16
#define IN(v, lo, hi) ((v) >= (lo) && (v) <= (hi))

/* Chain inputs in a CHAIN move */
#define CH_NONE 127
#define CH_GOOD 100   /* 100 + source slot */

#define MV(type, arg) ((type) | (int32_t)(arg) << 5)
#define MV_TYPE(m) ((m) & 31)
#define MV_ARG(m, shift, bits) (((m) >> (shift)) & ((1 << (bits)) - 1))

/* ---------------------------------------------------------------- small helpers */

static inline int all_seen(const es_game *g) { return (1 << g->players) - 1; }
/* The seat at turn-order index i: (start + i) mod players, without a division for the usual
 * start + i < 2 * players (a division costs more than the rest of a step). */
static inline int order(const es_game *g, const omg_state *s, int i) {
    int j = s->start + i, n = g->players;
    j -= n & -(j >= n);   /* a mask, not a branch: the turn order is unpredictable */
    return j < n ? j : j % n;
}

/* Slot 0 holds the Charburner (slot_card -1 there), the others a card: picked by a select,
 * not a branch, as the slots visited are unpredictable. */
static inline const omg_building *slot_building(const omg_data *d, const omg_state *s, int p, int slot) {
    int c = s->slot_card[p][slot], charburner = s->charburner[p];   /* both read: a select, no branch */
    return &d->building[c >= 0 ? OMG_NCB + c : charburner];
}

static inline int slot_value(const omg_data *d, const omg_state *s, int p, int slot) {
    const omg_building *b = slot_building(d, s, p, slot);
    return b->output >= 0 ? d->good_value[b->output] : 0;
}

static inline int producing(const omg_data *d, const omg_state *s, int p, int slot) {
    return slot_building(d, s, p, slot)->office < 0;
}

static int gold(const omg_data *d, const omg_state *s, int p) {
    int total = 0;
    if (s->charburner[p] < 0) return 0;   /* before the deal */
    for (int k = 0; k < s->n_slots[p]; k++) total += s->goods_n[p][k] * slot_value(d, s, p, k);
    return total;
}

static int hand_size(const omg_state *s, int p) { return es_bits128_count(s->hand[p]); }

/* Where a person stands: the slot of assistant a, with pending phase II moves if asked. */
static inline int asst_at(const omg_state *s, int a, int pending) {
    return pending && s->pend_move[a] >= 0 ? s->pend_move[a] : s->asst_slot[a];
}

/* Bit i: bytes[i] == v, for 8 bytes at once (no branch per byte). */
static inline uint32_t bytes_equal8(const void *bytes, uint8_t v) { return es_bytes_equal(es_load_le64(bytes), v); }

/* 0xff in byte i where bit i of `bits` (8 bits) is set, else 0: the byte is copied into all
 * eight, byte i keeps bit i, and a nonzero byte becomes 0xff. Byte order as bytes_equal8. */
static inline uint64_t bytes_of_bits8(uint64_t bits) {
    uint64_t x = (bits * 0x0101010101010101ull) & 0x8040201008040201ull;
    uint64_t m = (((x + 0x7f7f7f7f7f7f7f7full) | x) >> 7 & 0x0101010101010101ull) * 0xff;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    m = __builtin_bswap64(m);
#endif
    return m;
}

/* bytes[c] = (bytes[c] & keep) | v for the cards c of `set`, in a per-card array (loc, seen),
 * eight cards at a time. */
static void update_card_bytes(uint8_t bytes[OMG_NCARDS], const uint64_t set[2], uint8_t keep, uint8_t v) {
    uint64_t keep8 = 0x0101010101010101ull * keep, v8 = 0x0101010101010101ull * v, w;
    for (int i = 0; i < OMG_NCARDS / 8; i++) {
        uint64_t m = bytes_of_bits8(set[i >> 3] >> (8 * (i & 7)) & 0xff);
        memcpy(&w, bytes + 8 * i, 8);
        w = (w & (~m | keep8)) | (v8 & m);
        memcpy(bytes + 8 * i, &w, 8);
    }
    for (int c = OMG_NCARDS / 8 * 8; c < OMG_NCARDS; c++)
        if (es_bits128_test(set, c)) bytes[c] = (uint8_t)((bytes[c] & keep) | v);
}

/* Bit a: p owns assistant a. Callers then visit only the (at most two) owned ones, which keeps
 * the hot move generators free of 8-way unpredictable loops. */
_Static_assert(OMG_NASSIST == 8, "owned_assistants compares the eight owner bytes as one word");
static inline uint32_t owned_assistants(const omg_state *s, int p) { return bytes_equal8(s->asst_owner, (uint8_t)p); }

/* Bit j: card 8i + j is at location `at`, from loc eight bytes at a time (the last 94 % 8
 * cards padded with "draw pile"). */
static inline uint32_t cards_at8(const omg_state *s, int i, int at) {
    if (i < OMG_NCARDS / 8) return bytes_equal8(s->loc + 8 * i, (uint8_t)at);
    uint8_t tail[8] = {0};
    memcpy(tail, s->loc + OMG_NCARDS / 8 * 8, OMG_NCARDS % 8);
    return bytes_equal8(tail, (uint8_t)at) & (BIT(OMG_NCARDS % 8) - 1);
}

/* The cards at location `at` (a goods slot: their order is by id), as a card set. */
static void cards_at(const omg_state *s, int at, uint64_t out[2]) {
    out[0] = out[1] = 0;
    for (int i = 0; i <= OMG_NCARDS / 8; i++) out[i >> 3] |= (uint64_t)cards_at8(s, i, at) << (8 * (i & 7));
}

/* The r-th of them (by id), or -1 if fewer are there: the same scan, stopping at that card. */
static int nth_card_at(const omg_state *s, int at, int r) {
    for (int i = 0; i <= OMG_NCARDS / 8; i++) {
        uint32_t bits = cards_at8(s, i, at);
        int here = __builtin_popcount(bits);
        if (r < here) return 8 * i + es_select_in_byte[r][bits];
        r -= here;
    }
    return -1;
}

static int assistants_of(const omg_state *s, int p) { return __builtin_popcount(owned_assistants(s, p)); }

/* Slots of p holding one of p's assistants (pending moves included if asked). */
static uint32_t assistant_slots(const omg_state *s, int p, int pending) {
    uint32_t m = 0;
    for (uint32_t own = owned_assistants(s, p); own; own &= own - 1) {
        int at = asst_at(s, __builtin_ctz(own), pending);
        if (at >= 0) m |= BIT(at);
    }
    return m;
}

/* The per-card tables (card_value ...) of the card in slot k >= 1 of p: slots past the last
 * one hold no card (-1), so loops may run over all slots, with no unpredictable exit. */
static inline int slot_card1(const omg_state *s, int p, int k) { return s->slot_card[p][k] + 1; }

static uint32_t producing_slots(const omg_data *d, const omg_state *s, int p) {
    uint32_t m = s->n_slots[p] > 0;   /* slot 0: the Charburner, always producing */
    for (int k = 1; k < OMG_SLOTS; k++) m |= (uint32_t)d->card_producing[slot_card1(s, p, k)] << k;
    return m;
}

/* Producing buildings of p with no person on them, pending phase II moves included: where an
 * assistant may move and where the worker may go (phase II). */
static uint32_t free_producing_slots(const omg_data *d, const omg_state *s, int p) {
    return producing_slots(d, s, p) & ~assistant_slots(s, p, 1);
}

/* The hand cards p may still add to a phase I redraw: those above the ones chosen (ids
 * ascending, one card per decision), into out. */
static void redraw_pool(const omg_state *s, int p, uint64_t out[2]) {
    es_bits128_above(s->hand[p], es_bits128_highest(s->pending[p]), out);
}

/* Move card c from `old` (its location) to a location, keeping every mask and count in step.
 * Inline, so that at the many call sites with a constant destination only the leaving half
 * branches, and with a known origin (a draw) neither. */
static inline void put_from(omg_state *s, int c, int old, int loc, int seen) {
    if (old == OMG_L_DECK) es_bits128_clear(s->deck, c);
    else if (old == OMG_L_DISCARD) es_bits128_clear(s->discard, c);
    else if (old == OMG_L_MARKET1 || old == OMG_L_MARKET2) es_bits128_clear(s->market, c);
    else if (old >= OMG_L_HAND && old < OMG_L_HAND + OMG_MAXP) es_bits128_clear(s->hand[old - OMG_L_HAND], c);
    else if (old >= OMG_L_GOOD) s->goods_n[(old - OMG_L_GOOD) / OMG_SLOTS][(old - OMG_L_GOOD) % OMG_SLOTS]--;
    if (loc == OMG_L_DECK) es_bits128_set(s->deck, c);
    else if (loc == OMG_L_DISCARD) es_bits128_set(s->discard, c);
    else if (loc == OMG_L_MARKET1 || loc == OMG_L_MARKET2) es_bits128_set(s->market, c);
    else if (loc >= OMG_L_HAND && loc < OMG_L_HAND + OMG_MAXP) es_bits128_set(s->hand[loc - OMG_L_HAND], c);
    else if (loc >= OMG_L_GOOD) s->goods_n[(loc - OMG_L_GOOD) / OMG_SLOTS][(loc - OMG_L_GOOD) % OMG_SLOTS]++;
    s->loc[c] = (uint8_t)loc;
    s->seen[c] = (uint8_t)seen;
}

static inline void put(omg_state *s, int c, int loc, int seen) { put_from(s, c, s->loc[c], loc, seen); }

/* p's resource offices (4.0): how many of each resource they give, into offices; their total. */
static inline int resource_offices(const omg_data *d, const omg_state *s, int p, int offices[OMG_NRES + 1]) {
    /* counted in four bits per resource of one word ([0]: none; at most nine slots), not by
     * increments of offices[] in memory, each waiting on the one before */
    _Static_assert(OMG_SLOTS - 1 < 16 && 4 * (OMG_NRES + 1) <= 32, "nibble counts");
    uint32_t counts = 0;
    for (int k = 1; k < OMG_SLOTS; k++) counts += 1u << 4 * d->card_office[slot_card1(s, p, k)];
    offices[0] = 0;
    for (int r = 1; r <= OMG_NRES; r++) offices[r] = counts >> 4 * r & 15;
    return OMG_SLOTS - 1 - (int)(counts & 15);
}

/* Resources p has for normal production: both market rows + p's resource offices (4.0). */
static void available(const omg_data *d, const omg_state *s, int p, int avail[OMG_NRES + 1], int *any) {
    *any = resource_offices(d, s, p, avail);
    for (int r = 1; r <= OMG_NRES; r++) {
        int shown = es_bits128_count_and(s->market, d->res_cards[r]);
        avail[r] += shown;
        *any += shown;
    }
}

static int hand_of_resource(const omg_data *d, const omg_state *s, int p, int r) {
    return es_bits128_count_and(s->hand[p], d->res_cards[r]);
}

/* ---------------------------------------------------------------- payments (minimal only) */

/* Can slots j.. complete a payment, `total` paid so far with smallest value minv, minimally?
 * A completion whose smallest good is worth u pays an extra S from goods worth >= u with
 * cost <= total + S < cost + min(minv, u); so it exists iff for some u among the remaining
 * values the bounded subset sums of those goods (a bit mask; sums stay below 64) meet that
 * window. Taking u smaller than the true smallest only narrows the window, so any u works.
 * The goods are taken by value, highest first, so that the sums for each u grow from those
 * for the value above it (subset sums do not depend on the order goods are added in, nor on
 * which slot of a value they lie on: one count per value will do).
 * The sums depend on j only, so pay_sums works them out once for all the totals gen_pay
 * tries at slot j, and can_complete meets them with each window. */
typedef struct pay_sums {
    int m, value[OMG_SLOTS];    /* the distinct values of slots j.., highest first */
    uint64_t reach[OMG_SLOTS];  /* bit x: goods worth >= value[i] can pay an extra x */
} pay_sums;

/* Slots j >= 1 of p; counting the free goods per value (1..15, read from the card table)
 * needs no sort of the slots, and slots past the last hold no goods. */
static void pay_sums_of(const omg_data *d, const omg_state *s, int p, int j, pay_sums *ps) {
    int count[INF_VALUE] = {0};
    uint32_t values = 0;   /* bit v: free goods worth v */
    for (int k = j; k < OMG_SLOTS; k++) {
        int v = d->card_value[slot_card1(s, p, k)], a = s->goods_n[p][k] - s->reserved[p][k];
        count[v] += a;
        values |= (uint32_t)(a > 0) << v;
    }
    values &= ~1u;        /* value 0: offices make no goods */
    uint64_t reach = 1;   /* bit x: an extra payment of x is possible */
    ps->m = 0;
    for (; values; values &= ~BIT(31 - __builtin_clz(values))) {
        int v = 31 - __builtin_clz(values);
        uint64_t acc = reach;
        for (int a = 1; a <= count[v] && a * v < 64; a++) acc |= reach << (a * v);
        reach = acc;
        ps->value[ps->m] = v;
        ps->reach[ps->m++] = reach;
    }
}

static int can_complete(int cost, const pay_sums *ps, int total, int minv) {
    int need = cost - total;
    for (int i = 0; i < ps->m; i++) {
        int width = ps->value[i] < minv ? ps->value[i] : minv;
        uint64_t window = ((1ull << width) - 1) << need;   /* need + width <= 31 + 15 < 64 */
        if (ps->reach[i] & window) return 1;
    }
    return 0;
}

/* A minimal payment exists iff the goods not yet promised are worth the cost: pay them all,
 * then leave goods out one by one while the rest still covers it. */
static int free_gold(const omg_data *d, const omg_state *s, int p) {
    int total = (s->goods_n[p][0] - s->reserved[p][0]) * slot_value(d, s, p, 0);
    for (int k = 1; k < OMG_SLOTS; k++)   /* no goods past the last slot */
        total += (s->goods_n[p][k] - s->reserved[p][k]) * d->card_value[slot_card1(s, p, k)];
    return total;
}

static int can_pay(const omg_data *d, const omg_state *s, int p, int cost) { return free_gold(d, s, p) >= cost; }

/* ---------------------------------------------------------------- the flow */

static void begin_round(const es_game *g, omg_state *s);
static void chain_input(const es_game *g, omg_state *s, int p, int k, int in);
static void cleanup(const es_game *g, omg_state *s);

static void start_draw(omg_state *s, int dest, int player, int slot, int count) {
    s->sub = OMG_SUB_DRAW;
    s->draw_dest = (uint8_t)dest;
    s->draw_player = (uint8_t)player;
    s->draw_slot = (uint8_t)slot;
    s->draw_left = (uint8_t)count;
    s->row_suns = 0;   /* suns in a market row; goods received for a production */
}

static void start_pay(const es_game *g, omg_state *s, int p, int cost, int purpose, int arg) {
    (void)g;
    s->sub = OMG_SUB_PAY;
    s->pay_player = (uint8_t)p;
    s->pay_cost = (uint8_t)cost;
    s->pay_for = (uint8_t)purpose;
    s->pay_arg = (uint8_t)arg;
    s->pay_total = 0;
    s->pay_min = INF_VALUE;
    s->pay_slot = 0;
    memset(s->pay_counts, 0, sizeof s->pay_counts);
}

/* take_after codes */
enum { TAKE_AFTER_BUILD = 1, TAKE_AFTER_HIRE, TAKE_AFTER_REVEAL, TAKE_AFTER_CHAIN };

static void start_take(omg_state *s, int p, const uint8_t counts[OMG_SLOTS], int dest_slot, int after) {
    s->sub = OMG_SUB_TAKE;
    s->take_player = (uint8_t)p;
    memcpy(s->take_left, counts, OMG_SLOTS);
    s->take_dest_slot = (uint8_t)dest_slot;
    s->take_after = (uint8_t)after;
}

static void finish_p2_commit_step(omg_state *s) {
    s->p2_asst++;
}

static void next_p4_player(const es_game *g, omg_state *s) {
    s->idx++;
    s->stage = OMG_ST_P4_PRODUCE;
    if (s->idx >= g->players) cleanup(g, s);
}

static void return_aside(const es_game *g, omg_state *s, int p) {
    if (s->aside[p] >= 0) put(s, s->aside[p], OMG_L_HAND + p, BIT(p));
    s->aside[p] = -1;
    (void)g;
}

static void after_take(const es_game *g, omg_state *s) {
    const omg_data *d = DATA(g);
    int p = s->take_player;
    s->sub = OMG_SUB_NONE;
    switch (s->take_after) {
    case TAKE_AFTER_BUILD: {
        int c = s->aside[p];
        s->aside[p] = -1;
        s->slot_card[p][s->n_slots[p]++] = (int8_t)c;
        put(s, c, OMG_L_BUILT + p, all_seen(g));
        if (s->n_slots[p] >= OMG_BUILDINGS_END) s->end_triggered = 1;   /* 4.6, OMG-A24 */
        next_p4_player(g, s);
        break;
    }
    case TAKE_AFTER_HIRE: {
        int a = s->pay_arg >> 4, slot = s->pay_arg & 15;
        s->asst_owner[a] = (int8_t)p;
        s->asst_slot[a] = (int8_t)slot;
        return_aside(g, s, p);   /* hire instead of build (OMG-A17) */
        next_p4_player(g, s);
        break;
    }
    case TAKE_AFTER_REVEAL:
        s->idx++;
        break;
    case TAKE_AFTER_CHAIN:
        if (s->chain_in1 != CH_NONE) {
            int in = s->chain_in1;
            s->chain_in1 = CH_NONE;
            chain_input(g, s, p, s->take_dest_slot, in);
        }
        break;
    }
    (void)d;
}

static void clear_payment(omg_state *s) {
    s->pay_for = s->pay_arg = s->pay_cost = s->pay_total = s->pay_min = s->pay_slot = s->pay_player = 0;
    memset(s->pay_counts, 0, sizeof s->pay_counts);
}

static void after_pay(const es_game *g, omg_state *s) {
    int p = s->pay_player;
    (void)g;
    s->sub = OMG_SUB_NONE;
    if (s->pay_for == OMG_PAY_MOVE) {   /* a promise, paid at the phase II reveal (OMG-A20) */
        for (int k = 0; k < OMG_SLOTS; k++) s->reserved[p][k] += s->pay_counts[k];
        clear_payment(s);   /* nothing of the hidden choice may linger in the state */
        finish_p2_commit_step(s);
        return;
    }
    start_take(s, p, s->pay_counts, NONE8, s->pay_for == OMG_PAY_BUILD ? TAKE_AFTER_BUILD : TAKE_AFTER_HIRE);
}

static void after_draw(const es_game *g, omg_state *s) {
    int n = g->players;
    s->sub = OMG_SUB_NONE;
    switch (s->stage) {
    case OMG_ST_DEAL:
    case OMG_ST_P1_DRAW:
        s->idx++;
        break;
    case OMG_ST_SUNRISE:
        s->stage = OMG_ST_P2_COMMIT;
        s->idx = s->p2_step = s->p2_asst = 0;
        break;
    case OMG_ST_SUNSET:
        s->stage = OMG_ST_P4_PRODUCE;
        s->idx = 0;
        break;
    case OMG_ST_P4_PRODUCE:
        if (s->row_suns) s->produced[s->draw_player] |= (uint16_t)BIT(s->draw_slot);
        break;
    }
    (void)n;
}

static void begin_round(const es_game *g, omg_state *s) {
    const omg_data *d = DATA(g);
    s->round++;
    for (int p = 0; p < g->players; p++) {   /* extra-card office, checked at the start (OMG-A12) */
        int offices = 0;
        for (int k = 1; k < s->n_slots[p]; k++) offices += d->card[s->slot_card[p][k]].office == 0;
        int extra = offices && hand_size(s, p) <= 3 ? (g->options[OMG_OPT_EXTRA_STACKS] ? offices : 1) : 0;
        s->extra_cards[p] = (uint8_t)(2 + extra);
        s->redraw_n[p] = 0;
    }
    s->stage = OMG_ST_P1_COMMIT;
    s->idx = 0;
}

static void cleanup(const es_game *g, omg_state *s) {
    ES_BITS_FOREACH(c, s->market, 2)   /* from either row (the same mask): no test of where it lies */
        put_from(s, c, OMG_L_MARKET1, OMG_L_DISCARD, all_seen(g));
    memset(s->produced, 0, sizeof s->produced);
    memset(s->tried, 0, sizeof s->tried);
    memset(s->worker_slot, -1, sizeof s->worker_slot);
    memset(s->worker_exact, 0, sizeof s->worker_exact);
    s->start = (uint8_t)((s->start + 1) % g->players);
    s->idx = 0;
    if (s->final_full || s->round >= g->options[OMG_OPT_ROUND_CAP]) {
        s->stage = OMG_ST_OVER;
    } else if (s->end_triggered) {
        if (g->options[OMG_OPT_FULL_ROUND]) {
            s->final_full = 1;
            begin_round(g, s);
        } else {
            s->stage = OMG_ST_FINAL;
        }
    } else {
        begin_round(g, s);
    }
    s->actor = -1;
}

static int any_exhaust_hand(const es_game *g, const omg_state *s) {
    for (int p = 0; p < g->players; p++)
        if (hand_size(s, p) >= 2) return 1;
    return 0;
}

/* The rarer, bulkier transitions of step(), out of line so that step() itself stays small
 * (it runs about twice per node; most runs only find who is to act). */
#define OUT_OF_LINE static __attribute__((noinline))

/* The draw pile is empty: shuffle the discards in (OMG-A4), else halve hands (OMG-A5), else
 * the draw fails and ends its batch (OMG-A6). */
OUT_OF_LINE void refill_deck(const es_game *g, omg_state *s) {
    if (es_bits128_any(s->discard)) {   /* put(), for a whole pile at once */
        update_card_bytes(s->loc, s->discard, 0, OMG_L_DECK);
        update_card_bytes(s->seen, s->discard, 0, (uint8_t)all_seen(g));
        memcpy(s->deck, s->discard, sizeof s->deck);
        memset(s->discard, 0, sizeof s->discard);
        s->deck_known = (uint8_t)all_seen(g);
    } else if (any_exhaust_hand(g, s)) {
        s->sub = OMG_SUB_EXHAUST;
        s->exhaust_idx = 0;
        s->exhaust_left = NONE8;
    } else {
        s->draw_left = 0;
        if (s->draw_dest == OMG_D_MARKET) s->row_suns = 2;
    }
}

/* Every player has halved: the chosen cards go into the draw pile. */
OUT_OF_LINE void collect_halves(const es_game *g, omg_state *s) {
    int collected = 0;
    for (int p = 0; p < g->players; p++)
        ES_BITS_FOREACH(c, s->pending[p], 2) {
            put_from(s, c, OMG_L_HAND + p, OMG_L_DECK, BIT(p));   /* chosen from the hand */
            s->deck_known |= (uint8_t)BIT(p);
            collected++;
        }
    memset(s->pending, 0, sizeof s->pending);
    s->sub = OMG_SUB_DRAW;
    if (!collected) {
        s->draw_left = 0;
        if (s->draw_dest == OMG_D_MARKET) s->row_suns = 2;
    }
}

/* All goods of slot k of the taker leave (no choice of which). */
OUT_OF_LINE void take_all(const es_game *g, omg_state *s, int k) {
    int p = s->take_player;
    int dest = s->take_dest_slot == NONE8 ? OMG_L_DISCARD : OMG_L_GOOD + p * OMG_SLOTS + s->take_dest_slot;
    uint64_t goods[2];
    cards_at(s, OMG_L_GOOD + p * OMG_SLOTS + k, goods);
    ES_BITS_FOREACH(c, goods, 2) put(s, c, dest, dest == OMG_L_DISCARD ? all_seen(g) : s->seen[c]);
    s->take_left[k] = 0;
}

/* Phase I reveal: the chosen cards go face up (OMG-A3, A7). */
OUT_OF_LINE void reveal_redraws(const es_game *g, omg_state *s) {
    for (int p = 0; p < g->players; p++) {
        s->redraw_n[p] = (uint8_t)es_bits128_count(s->pending[p]);
        ES_BITS_FOREACH(c, s->pending[p], 2) put_from(s, c, OMG_L_HAND + p, OMG_L_DISCARD, all_seen(g));   /* hand cards */
    }
    memset(s->pending, 0, sizeof s->pending);
    s->stage = OMG_ST_P1_DRAW;
    s->idx = 0;
}

/* Phase II reveal of p's plan: assistants move, the worker is placed, the card set aside, and
 * the promised goods are paid. */
OUT_OF_LINE void reveal_plan(omg_state *s, int p) {
    for (int a = 0; a < OMG_NASSIST; a++)
        if (s->asst_owner[a] == p && s->pend_move[a] >= 0) {
            s->asst_slot[a] = s->pend_move[a];
            s->pend_move[a] = -1;
        }
    s->worker_slot[p] = s->pend_worker[p];
    s->worker_exact[p] = s->pend_exact[p];
    s->pend_worker[p] = -1;
    s->pend_exact[p] = 0;
    if (s->pend_aside[p] >= 0) put(s, s->pend_aside[p], OMG_L_ASIDE + p, BIT(p));
    s->aside[p] = s->pend_aside[p];
    s->pend_aside[p] = -1;
    uint8_t counts[OMG_SLOTS];
    memcpy(counts, s->reserved[p], OMG_SLOTS);
    memset(s->reserved[p], 0, OMG_SLOTS);
    start_take(s, p, counts, NONE8, TAKE_AFTER_REVEAL);
}

/* One deterministic step; 0 when the state waits at a decision or chance node. Inlined into
 * run()'s loop (about two steps per run), which then saves its registers once per run, not per step. */
static inline __attribute__((always_inline)) int step_inline(const es_game *g, omg_state *s) {
    const omg_data *d = DATA(g);
    int n = g->players;
    s->actor = -1;
    if (s->sub != OMG_SUB_NONE) switch (s->sub) {   /* most steps are of a stage: test that first */
    case OMG_SUB_DRAW: {
        int want_more = s->draw_left == NONE8 ? s->row_suns < 2 : s->draw_left > 0;
        if (!want_more) {
            after_draw(g, s);
            return 1;
        }
        if (!es_bits128_any(s->deck)) {   /* lazy reshuffle */
            refill_deck(g, s);
            return 1;
        }
        return 0;   /* chance: DRAW */
    }
    case OMG_SUB_EXHAUST: {
        if (s->exhaust_idx >= n) {
            collect_halves(g, s);
            return 1;
        }
        int p = order(g, s, s->exhaust_idx);
        if (s->exhaust_left == NONE8) s->exhaust_left = (uint8_t)(hand_size(s, p) / 2);
        if (s->exhaust_left == 0) {
            s->exhaust_idx++;
            s->exhaust_left = NONE8;
            return 1;
        }
        s->actor = (int8_t)p;
        return 0;
    }
    case OMG_SUB_PAY:
        s->actor = (int8_t)s->pay_player;
        return 0;
    case OMG_SUB_TAKE: {
        int p = s->take_player;
        for (int k = 0; k < OMG_SLOTS; k++) {
            if (!s->take_left[k]) continue;
            if (s->take_left[k] < s->goods_n[p][k]) return 0;   /* chance: TAKE */
            take_all(g, s, k);
            return 1;
        }
        after_take(g, s);
        return 1;
    }
    case OMG_SUB_SUPPLY: {
        int p = order(g, s, s->idx);
        int need = 0;
        for (int r = 0; r <= OMG_NRES; r++) need += s->sup_need[r];
        if (need) {
            s->actor = (int8_t)p;
            return 0;
        }
        start_draw(s, OMG_D_GOOD, p, s->sup_slot, s->sup_goods);
        return 1;
    }
    default:
        break;
    }

    switch (s->stage) {
    case OMG_ST_CHARBURNER:
        if (s->idx < n) return 0;
        s->stage = OMG_ST_DISPLAY;
        s->idx = 0;
        return 1;
    case OMG_ST_DISPLAY: {
        int shown = 0;
        for (int a = 0; a < OMG_NASSIST; a++) shown += s->asst_owner[a] == -1;
        if (2 * n >= OMG_NASSIST) {
            for (int a = 0; a < OMG_NASSIST; a++) s->asst_owner[a] = -1;
        } else if (shown < 2 * n) {
            return 0;
        } else {
            for (int a = 0; a < OMG_NASSIST; a++)
                if (s->asst_owner[a] == -2) s->asst_owner[a] = -3;
        }
        s->stage = OMG_ST_SIDE;
        s->idx = 0;
        return 1;
    }
    case OMG_ST_SIDE:
        while (s->idx < OMG_NASSIST && s->asst_owner[s->idx] != -1) s->idx++;
        if (s->idx < OMG_NASSIST) return 0;
        s->stage = OMG_ST_START;
        s->idx = 0;
        return 1;
    case OMG_ST_START:
        if (g->options[OMG_OPT_START_PLAYER] < 0) return 0;
        s->start = (uint8_t)g->options[OMG_OPT_START_PLAYER];
        s->stage = OMG_ST_DEAL;
        s->idx = 0;
        return 1;
    case OMG_ST_DEAL:   /* 5 hand cards each, then 7 goods each (3.1) */
        if (s->idx >= 2 * n) {
            begin_round(g, s);
        } else if (s->idx < n) {
            start_draw(s, OMG_D_HAND, order(g, s, s->idx), 0, 5);
        } else {
            start_draw(s, OMG_D_GOOD, order(g, s, s->idx - n), 0, 7);
        }
        return 1;
    case OMG_ST_P1_COMMIT:
        if (s->idx < n) {
            s->actor = (int8_t)order(g, s, s->idx);
            return 0;
        }
        reveal_redraws(g, s);
        return 1;
    case OMG_ST_P1_DRAW:
        if (s->idx < n) {
            int p = order(g, s, s->idx);
            start_draw(s, OMG_D_HAND, p, 0, s->redraw_n[p] + s->extra_cards[p]);
        } else {
            s->stage = OMG_ST_SUNRISE;
            start_draw(s, OMG_D_MARKET, 1, 0, NONE8);
        }
        return 1;
    case OMG_ST_P2_COMMIT:
        /* each player plans in turn; the steps that only move on are taken here at once */
        while (s->idx < n) {
            int p = order(g, s, s->idx);
            if (s->p2_step == 0) {
                uint32_t left = owned_assistants(s, p) >> s->p2_asst << s->p2_asst;   /* p's next assistant */
                s->p2_asst = left ? (uint8_t)__builtin_ctz(left) : OMG_NASSIST;
                if (s->p2_asst < OMG_NASSIST) {
                    s->actor = (int8_t)p;
                    return 0;
                }
                s->p2_step = 1;
            }
            if (s->p2_step == 1) {
                if (free_producing_slots(d, s, p)) {
                    s->actor = (int8_t)p;
                    return 0;
                }
                s->pend_worker[p] = -1;   /* every producing building has an assistant (OMG-A9) */
                s->p2_step = 2;
            }
            if (s->p2_step == 2) {
                s->actor = (int8_t)p;
                return 0;
            }
            s->idx++;
            s->p2_step = s->p2_asst = 0;
        }
        s->stage = OMG_ST_P2_REVEAL;
        s->idx = 0;
        return 1;
    case OMG_ST_P2_REVEAL: {
        if (s->idx >= n) {
            s->stage = OMG_ST_SUNSET;
            start_draw(s, OMG_D_MARKET, 2, 0, NONE8);
            return 1;
        }
        reveal_plan(s, order(g, s, s->idx));
        return 1;
    }
    case OMG_ST_P4_PRODUCE:
    case OMG_ST_P4_BUILD:
    case OMG_ST_FINAL:
        if (s->idx >= n) {
            if (s->stage == OMG_ST_FINAL) {
                s->stage = OMG_ST_OVER;
                return 1;
            }
            cleanup(g, s);
            return 1;
        }
        s->actor = (int8_t)order(g, s, s->idx);
        return 0;
    default:
        return 0;   /* OVER, or a chance stage waiting */
    }
}

static int step(const es_game *g, omg_state *s) { return step_inline(g, s); }

/* ---------------------------------------------------------------- move generation */

static int gen_pay(const es_game *g, const omg_state *s, es_move *out) {
    const omg_data *d = DATA(g);
    pay_sums rest;
    int n = 0, j = s->pay_slot, p = s->pay_player, cost = s->pay_cost;
    int value = slot_value(d, s, p, j), avail = value ? s->goods_n[p][j] - s->reserved[p][j] : 0;
    pay_sums_of(d, s, p, j + 1, &rest);
    for (int k = 0; k <= avail; k++) {
        int t = s->pay_total + k * value;
        int mv = k && value < s->pay_min ? value : s->pay_min;
        if (t >= cost) {
            if (t - cost < mv) out[n++] = MV(OMG_M_PAY, k);   /* minimal: no good to spare */
            break;
        }
        if (can_complete(cost, &rest, t, mv)) out[n++] = MV(OMG_M_PAY, k);
    }
    return n;
}

/* Need per resource (need[0] for "any N") of slot k, after an omission, given what is
 * available (avail per resource, any = their total). */
static void production_need(const omg_data *d, const omg_state *s, int p, int k, const int avail[OMG_NRES + 1],
                            int any, int short_worker, int omit, int need[OMG_NRES + 1]) {
    const omg_building *b = slot_building(d, s, p, k);
    memset(need, 0, sizeof(int) * (OMG_NRES + 1));
    if (b->input_any) {
        int want = b->input_any - (short_worker ? 1 : 0);
        need[0] = want > any ? want - any : 0;
        return;
    }
    for (int r = 1; r <= OMG_NRES; r++) {
        int want = b->input[r] - (r == omit ? 1 : 0);
        need[r] = want > avail[r] ? want - avail[r] : 0;
    }
}

static int gen_produce(const es_game *g, const omg_state *s, int p, es_move *out, int n, int cap) {
    const omg_data *d = DATA(g);
    uint32_t active = assistant_slots(s, p, 0);
    int ws = s->worker_slot[p];
    if (ws >= 0) active |= BIT(ws);
    active &= ~(uint32_t)s->tried[p] & (BIT(s->n_slots[p]) - 1);
    if (!active) return n;
    int offices[OMG_NRES + 1];
    resource_offices(d, s, p, offices);
    for (; active; active &= active - 1) {   /* production_need and can_cover, for all omissions at once */
        int k = __builtin_ctz(active), short_w = k == ws && !s->worker_exact[p];
        const omg_building *b = slot_building(d, s, p, k);
        if (b->input_any) {
            int avail[OMG_NRES + 1], any;
            available(d, s, p, avail, &any);
            if (b->input_any - short_w - any <= hand_size(s, p)) out[n++] = MV(OMG_M_PRODUCE, k);
        } else {
            int need[OMG_NRES + 1], hand[OMG_NRES + 1];
            uint32_t needed = 0, uncovered = 0;   /* resources beyond the available ones; beyond the hand too */
            /* the resources b takes (input[1..5] nonzero, compared as bytes 0..7 of input): the
             * others need none, and most buildings take one or two */
            uint32_t inputs = ~bytes_equal8(b->input, 0) & (BIT(OMG_NRES + 1) - 2);
            _Static_assert(offsetof(omg_building, input) + 8 <= sizeof(omg_building), "8 bytes from input");
            for (uint32_t m = inputs; m; m &= m - 1) {
                int r = __builtin_ctz(m), avail = offices[r] + es_bits128_count_and(s->market, d->res_cards[r]);
                need[r] = b->input[r] > avail ? b->input[r] - avail : 0;
                hand[r] = hand_of_resource(d, s, p, r);
                needed |= (uint32_t)(need[r] > 0) << r;
                uncovered |= (uint32_t)(need[r] > hand[r]) << r;
            }
            if (short_w && needed) {   /* omit one unit of a resource still needed (OMG-A10) */
                for (uint32_t m = needed; m; m &= m - 1) {
                    int r = __builtin_ctz(m);
                    if (!(uncovered & ~BIT(r)) && need[r] - 1 <= hand[r]) out[n++] = MV(OMG_M_PRODUCE, k | r << 4);
                }
            } else if (!uncovered) {
                out[n++] = MV(OMG_M_PRODUCE, k);
            }
        }
        if (n >= cap) return n;
    }
    return n;
}

/* p's slots holding goods: the ten counts compared with 0 as bytes 0..7 and 2..9. */
static uint32_t slots_with_goods(const omg_state *s, int p) {
    _Static_assert(OMG_SLOTS == 10, "two overlapping 8-byte compares cover the slots");
    uint32_t empty = bytes_equal8(s->goods_n[p], 0) | bytes_equal8(s->goods_n[p] + 2, 0) << 2;
    return ~empty & (BIT(s->n_slots[p]) - 1);
}

/* The slots among `stocked` (p's slots holding goods) that make good g. */
static uint32_t good_sources(const omg_data *d, const omg_state *s, int p, uint32_t stocked, int g) {
    uint32_t m = 0;
    for (; stocked; stocked &= stocked - 1) {
        int k = __builtin_ctz(stocked);
        m |= (uint32_t)(slot_building(d, s, p, k)->output == g) << k;
    }
    return m;
}

/* The chain of one building: where each input may come from, as a set (the hand cards of a
 * resource, or the slots holding a good, in word 0), and how many moves it offers. gen_chains
 * lists the moves (input 0's sources outer, input 1's inner, both ascending); random_move
 * counts them and builds only the one it draws (chain_move). */
typedef struct chain_opts {
    int n_in;               /* inputs: 1 or 2 */
    int good[2];            /* input i takes a good (move id CH_GOOD + slot), else a hand card */
    uint64_t src[2][2];     /* input i's sources */
    int cnt[2];             /* their number; cnt[1] = 1 (CH_NONE) for one input */
    uint32_t single;        /* the same good twice: source slots holding one, which cannot give both */
    int moves;
} chain_opts;

/* The chain of slot k of p. `stocked`: slots_with_goods, or ~0u until an input takes a good.
 * Returns the number of moves (0: the building has no chain, or an input has no source). */
static inline int chain_options(const omg_data *d, const omg_state *s, int p, int k, uint32_t *stocked, chain_opts *o) {
    const omg_building *b = slot_building(d, s, p, k);
    if (!b->chain_n) return o->moves = 0;
    o->n_in = b->chain_n;
    o->cnt[1] = 1;
    o->single = 0;
    for (int i = 0; i < b->chain_n; i++) {
        int code = b->chain[i];
        o->good[i] = code >= 16;
        if (code < 16) {
            o->src[i][0] = s->hand[p][0] & d->res_cards[code][0];
            o->src[i][1] = s->hand[p][1] & d->res_cards[code][1];
        } else {
            if (*stocked == ~0u) *stocked = slots_with_goods(s, p);
            o->src[i][0] = good_sources(d, s, p, *stocked & ~BIT(k), code - 16);
            o->src[i][1] = 0;
        }
        o->cnt[i] = es_bits128_count(o->src[i]);
        if (!o->cnt[i]) return o->moves = 0;   /* an input with no source: no chain here */
    }
    if (b->chain_n == 2 && b->chain[0] == b->chain[1] && o->good[0])   /* two resources never (read_chain) */
        for (uint32_t m = (uint32_t)o->src[0][0]; m; m &= m - 1)
            o->single |= (uint32_t)(s->goods_n[p][__builtin_ctz(m)] < 2) << __builtin_ctz(m);
    return o->moves = o->cnt[0] * o->cnt[1] - __builtin_popcount(o->single);
}

/* The move id of input i's j-th source. */
static int chain_input_id(const chain_opts *o, int i, int j) {
    if (i >= o->n_in) return CH_NONE;
    return es_bits128_select(o->src[i], j) + (o->good[i] ? CH_GOOD : 0);
}

/* All of input i's source ids, ascending; their number. */
static int chain_input_ids(const chain_opts *o, int i, int ids[OMG_NCARDS]) {
    if (i >= o->n_in) {
        ids[0] = CH_NONE;
        return 1;
    }
    int n = es_bits128_list(o->src[i], ids);
    if (o->good[i])
        for (int j = 0; j < n; j++) ids[j] += CH_GOOD;
    return n;
}

/* The r-th move (r < o->moves) gen_chains lists for the chain of slot k. */
static es_move chain_move(const chain_opts *o, int k, int r) {
    int a = 0, c2 = r;
    if (!o->single) {
        a = r / o->cnt[1];
        c2 = r % o->cnt[1];
    } else {   /* row a lacks the pair (a, a) when source a has one good */
        for (;; a++) {
            int skip = (o->single >> es_bits128_select(o->src[0], a)) & 1, row = o->cnt[1] - skip;
            if (r < row) {
                c2 = r + (skip && r >= a);
                break;
            }
            r -= row;
        }
    }
    return OMG_M_CHAIN | k << 5 | chain_input_id(o, 0, a) << 9 | chain_input_id(o, 1, c2) << 16;
}

/* The slots whose chains p may use now: those that produced this round, or any (final round). */
static uint32_t chain_slots(const omg_state *s, int p, int anywhere) {
    return (anywhere ? ~0u : s->produced[p]) & (BIT(s->n_slots[p]) - 1);
}

static int gen_chains(const es_game *g, const omg_state *s, int p, int anywhere, es_move *out, int n, int cap) {
    const omg_data *d = DATA(g);
    uint32_t stocked = ~0u;
    for (uint32_t slots = chain_slots(s, p, anywhere); slots; slots &= slots - 1) {
        int k = __builtin_ctz(slots), ids[2][OMG_NCARDS];
        chain_opts o;
        if (!chain_options(d, s, p, k, &stocked, &o)) continue;
        int n0 = chain_input_ids(&o, 0, ids[0]), n1 = chain_input_ids(&o, 1, ids[1]);
        for (int a = 0; a < n0; a++)
            for (int c2 = 0; c2 < n1; c2++) {
                int i0 = ids[0][a], i1 = ids[1][c2];
                if (i1 != CH_NONE && i0 == i1) {
                    if (i0 < CH_GOOD || s->goods_n[p][i0 - CH_GOOD] < 2) continue;   /* same source twice */
                }
                out[n++] = OMG_M_CHAIN | k << 5 | i0 << 9 | i1 << 16;
                if (n >= cap) return n;
            }
    }
    return n;
}

/* Has p a chain move (would gen_chains list one)? */
static int any_chain(const omg_data *d, const omg_state *s, int p, int anywhere) {
    uint32_t stocked = ~0u;
    chain_opts o;
    for (uint32_t slots = chain_slots(s, p, anywhere); slots; slots &= slots - 1) {
        int k = __builtin_ctz(slots);
        if (chain_options(d, s, p, k, &stocked, &o)) return 1;
    }
    return 0;
}

/* The index of the move drawn among n (the count random_move reports). `forced_free`: a
 * single move is taken without a draw, as run() takes a forced move (random_play's lazy flow). */
static inline int draw_index(es_rng *rng, int n, int *count, int forced_free) {
    *count = n;
    if (forced_free && n == 1) return 0;
    return (int)es_rng_u32_below(rng, (uint32_t)n);
}

/* random_move at a node of `first` (END_PRODUCTION or END_CHAINS), then `np` listed moves,
 * then the chains: one draw among them all, the chain move built from its counts. */
static inline es_move pick_with_chains(const es_game *g, const omg_state *s, int p, int anywhere, es_move first,
                                       const es_move *listed, int np, es_rng *rng, int *count, int forced_free) {
    const omg_data *d = DATA(g);
    chain_opts o[OMG_SLOTS];
    int ks[OMG_SLOTS], m = 0, n = 1 + np;
    uint32_t stocked = ~0u;
    for (uint32_t slots = chain_slots(s, p, anywhere); slots; slots &= slots - 1) {
        int k = __builtin_ctz(slots);
        if (!chain_options(d, s, p, k, &stocked, &o[m])) continue;
        n += o[m].moves;
        ks[m++] = k;
    }
    int r = draw_index(rng, n, count, forced_free);
    if (r == 0) return first;
    if (--r < np) return listed[r];
    r -= np;
    int i = 0;
    for (; r >= o[i].moves; i++) r -= o[i].moves;
    return chain_move(&o[i], ks[i], r);
}

/* p's buildings per colour: the five resources, then the Charburner's own (OMG-A19). */
static void colours_built(const omg_data *d, const omg_state *s, int p, int have[OMG_NCOLOURS]) {
    memset(have, 0, sizeof(int) * OMG_NCOLOURS);
    have[OMG_NCOLOURS - 1] = 1;
    for (int k = 1; k < s->n_slots[p]; k++) have[d->card[s->slot_card[p][k]].resource - 1]++;
}

static int requirement_met(const omg_data *d, const omg_state *s, const int have[OMG_NCOLOURS], int a) {
    for (int c = 0; c < OMG_NCOLOURS; c++)
        if (have[c] < d->asst_req[a][s->asst_side[a]][c]) return 0;
    return 1;
}

/* Where p may put a newly hired assistant: a producing building with no one on it (OMG-A18).
 * The Hungarian text keeps the brown worker on its building for the whole round ("minden
 * épülethez csak egy Munkás rendelhető, legyen az barna keretű Munkás vagy Segédmunkás"); with
 * worker_leaves_after_production (2nd edition) the worker's building is free after production. */
static uint32_t hire_targets(const es_game *g, const omg_state *s, int p) {
    uint32_t free = producing_slots(DATA(g), s, p) & ~assistant_slots(s, p, 0);
    if (!g->options[OMG_OPT_WORKER_LEAVES] && s->worker_slot[p] >= 0) free &= ~BIT(s->worker_slot[p]);
    return free;
}

/* At the building step p may pass, build the card set aside if the goods not promised pay for
 * it (gold_free: free_gold(d, s, p)), or hire. */
static int can_build(const omg_data *d, const omg_state *s, int p, int gold_free) {
    return s->aside[p] >= 0 && s->n_slots[p] < OMG_SLOTS && gold_free >= d->card[s->aside[p]].cost;
}

/* The hires: each assistant of *hire (on display, affordable, requirements met) onto each slot
 * of *onto. gen_build lists them by assistant, then slot; random_move counts them. */
static void hire_options(const es_game *g, const omg_state *s, int p, int gold_free, uint32_t *hire, uint32_t *onto) {
    const omg_data *d = DATA(g);
    uint32_t affordable = 0;   /* on display and paid for by the goods not promised */
    *hire = *onto = 0;
    if (assistants_of(s, p) >= OMG_MAX_ASSISTANTS) return;
    for (uint32_t shown = owned_assistants(s, -1); shown; shown &= shown - 1) {
        int a = __builtin_ctz(shown);
        affordable |= (uint32_t)(gold_free >= d->asst_cost[a][s->asst_side[a]]) << a;
    }
    if (!affordable) return;   /* the cheaper tests first: most building steps end here */
    uint32_t free = hire_targets(g, s, p) & (BIT(s->n_slots[p]) - 1);
    if (!free) return;   /* nowhere to put one: no hire */
    int have[OMG_NCOLOURS];
    colours_built(d, s, p, have);
    for (; affordable; affordable &= affordable - 1)
        if (requirement_met(d, s, have, __builtin_ctz(affordable))) *hire |= BIT(__builtin_ctz(affordable));
    *onto = *hire ? free : 0;
}

static int gen_build(const es_game *g, const omg_state *s, int p, es_move *out, int cap) {
    const omg_data *d = DATA(g);
    int n = 0, gold_free = free_gold(d, s, p);
    out[n++] = OMG_M_PASS;
    if (can_build(d, s, p, gold_free)) out[n++] = OMG_M_BUILD;
    if (n >= cap) return n;
    uint32_t hire, onto;
    hire_options(g, s, p, gold_free, &hire, &onto);
    for (; hire; hire &= hire - 1) {
        for (uint32_t f = onto; f; f &= f - 1) out[n++] = OMG_M_HIRE | __builtin_ctz(hire) << 5 | __builtin_ctz(f) << 8;
        if (n >= cap) return n;
    }
    return n;
}

/* Where p's assistant a may move in a phase II plan (besides staying): a free producing
 * building other than its own, if p can pay for the move. */
static uint32_t move_targets(const omg_data *d, const omg_state *s, int p, int a) {
    if (!can_pay(d, s, p, OMG_MOVE_COST)) return 0;
    return free_producing_slots(d, s, p) & ~BIT(asst_at(s, a, 1));
}

/* Choosing `left` cards one at a time in increasing id order from `above` (the cards above the
 * last one chosen): a card is offered only if enough higher cards remain to finish the choice
 * (no dead end), so the moves are the lowest count(above) - left + 1 cards. */
static int ascending_count(const uint64_t above[2], int left) { return es_bits128_count(above) - left + 1; }

static int gen_ascending(const uint64_t above[2], int left, int type, es_move *out) {
    int ids[OMG_NCARDS], n = ascending_count(above, left);
    es_bits128_list(above, ids);
    for (int i = 0; i < n; i++) out[i] = MV(type, ids[i]);
    return n > 0 ? n : 0;
}

/* The hand cards p may supply next, into pool; returns the resource still needed (0: any). */
static int supply_pool(const omg_data *d, const omg_state *s, int p, uint64_t pool[2]) {
    int r = 0;
    pool[0] = s->hand[p][0];
    pool[1] = s->hand[p][1];
    if (!s->sup_any) {
        for (r = 1; r <= OMG_NRES && !s->sup_need[r]; r++) {}
        pool[0] &= d->res_cards[r][0];
        pool[1] &= d->res_cards[r][1];
    }
    return r;
}

/* At a halving or supply node (the ascending choices), the cards above the last one chosen,
 * how many are still to choose and the move type; 0 at other nodes. */
static int ascending_choice(const es_game *g, const omg_state *s, int p, uint64_t above[2], int *left, int *type) {
    if (s->sub == OMG_SUB_EXHAUST) {
        es_bits128_above(s->hand[p], es_bits128_highest(s->pending[p]), above);
        *left = s->exhaust_left;
        *type = OMG_M_HALVE;
        return 1;
    }
    if (s->sub == OMG_SUB_SUPPLY) {
        uint64_t pool[2];
        int r = supply_pool(DATA(g), s, p, pool);
        es_bits128_above(pool, s->sup_last == NONE8 ? -1 : s->sup_last, above);
        *left = s->sup_need[r];
        *type = OMG_M_SUPPLY;
        return 1;
    }
    return 0;
}

static int omg_legal_moves_raw(const es_game *g, const omg_state *s, es_move *out, int cap) {
    const omg_data *d = DATA(g);
    int p = s->actor, n = 0;
    if (p < 0) return 0;
    switch (s->sub) {
    case OMG_SUB_PAY:
        return gen_pay(g, s, out);
    case OMG_SUB_EXHAUST:
    case OMG_SUB_SUPPLY: {
        uint64_t above[2];
        int left, type;
        ascending_choice(g, s, p, above, &left, &type);
        return gen_ascending(above, left, type, out);
    }
    default:
        break;
    }
    switch (s->stage) {
    case OMG_ST_P1_COMMIT: {
        if (g->options[OMG_OPT_ALL_OR_NOTHING]) {
            out[n++] = MV(OMG_M_REDRAW, 127);
            if (es_bits128_any(s->hand[p])) out[n++] = MV(OMG_M_REDRAW, 126);
            return n;
        }
        int ids[OMG_NCARDS];
        uint64_t above[2];
        redraw_pool(s, p, above);
        int m = es_bits128_list(above, ids);
        for (int i = 0; i < m; i++) out[n++] = MV(OMG_M_REDRAW, ids[i]);
        out[n++] = MV(OMG_M_REDRAW, 127);
        return n;
    }
    case OMG_ST_P2_COMMIT:
        if (s->p2_step == 0) {   /* stay, then each target */
            int a = s->p2_asst;
            out[n++] = OMG_M_MOVE | a << 5 | 15 << 8;
            for (uint32_t to = move_targets(d, s, p, a); to; to &= to - 1) out[n++] = OMG_M_MOVE | a << 5 | __builtin_ctz(to) << 8;
            return n;
        }
        if (s->p2_step == 1) {
            uint32_t free = free_producing_slots(d, s, p);
            for (int k = 0; k < s->n_slots[p]; k++)
                if ((free >> k) & 1) {
                    out[n++] = OMG_M_WORKER | k << 5 | 1 << 9;
                    out[n++] = OMG_M_WORKER | k << 5;
                }
            return n;
        }
        int ids[OMG_NCARDS], m = es_bits128_list(s->hand[p], ids);
        for (int i = 0; i < m; i++) out[n++] = MV(OMG_M_ASIDE, ids[i]);
        out[n++] = MV(OMG_M_ASIDE, 127);
        return n;
    case OMG_ST_P4_PRODUCE:
        out[n++] = OMG_M_END_PRODUCTION;
        n = gen_produce(g, s, p, out, n, cap);
        if (n >= cap) return n;
        return gen_chains(g, s, p, s->final_full, out, n, cap);
    case OMG_ST_P4_BUILD:
        return gen_build(g, s, p, out, cap);
    case OMG_ST_FINAL:
        out[n++] = OMG_M_END_CHAINS;
        return gen_chains(g, s, p, 1, out, n, cap);
    default:
        return 0;
    }
}

/* ---------------------------------------------------------------- chance */

static int omg_chance_outcomes(const es_game *g, const void *vs, es_move *out, double *prob) {
    const omg_state *s = (const omg_state *)vs;
    int n = 0;
    if (s->sub == OMG_SUB_DRAW) {
        double each = 1.0 / (double)es_bits128_count(s->deck);
        for (int c = 0; c < OMG_NCARDS; c++)
            if (es_bits128_test(s->deck, c)) {
                out[n] = MV(OMG_M_DRAW, c);
                prob[n++] = each;
            }
        return n;
    }
    if (s->sub == OMG_SUB_TAKE) {
        int p = s->take_player, k = 0;
        while (k < OMG_SLOTS && !s->take_left[k]) k++;
        if (k >= OMG_SLOTS) return 0;
        double each = 1.0 / (double)s->goods_n[p][k];
        for (int c = 0; c < OMG_NCARDS; c++)
            if (s->loc[c] == OMG_L_GOOD + p * OMG_SLOTS + k) {
                out[n] = MV(OMG_M_TAKE, c);
                prob[n++] = each;
            }
        return n;
    }
    switch (s->stage) {
    case OMG_ST_CHARBURNER: {
        int left = 0;
        for (int c = 0; c < OMG_NCB; c++) {
            int used = 0;
            for (int p = 0; p < s->idx; p++) used |= s->charburner[p] == c;
            if (!used) out[left++] = MV(OMG_M_CHARBURNER, c);
        }
        for (int i = 0; i < left; i++) prob[i] = 1.0 / (double)left;
        return left;
    }
    case OMG_ST_DISPLAY: {
        for (int a = 0; a < OMG_NASSIST; a++)
            if (s->asst_owner[a] == -2) out[n++] = MV(OMG_M_DISPLAY, a);
        for (int i = 0; i < n; i++) prob[i] = 1.0 / (double)n;
        return n;
    }
    case OMG_ST_SIDE:
        out[0] = MV(OMG_M_SIDE, 0);
        out[1] = MV(OMG_M_SIDE, 1);
        prob[0] = prob[1] = 1.0 / 2.0;
        return 2;
    case OMG_ST_START:
        for (int p = 0; p < g->players; p++) {
            out[p] = MV(OMG_M_START, p);
            prob[p] = 1.0 / (double)g->players;
        }
        return g->players;
    default:
        return 0;
    }
}

static int omg_current_player(const es_game *g, const void *vs) {
    const omg_state *s = (const omg_state *)vs;
    (void)g;
    if (s->stage == OMG_ST_OVER) return ES_TERMINAL;
    return s->actor >= 0 ? s->actor : ES_CHANCE;
}

/* A uniform pick from the list; out of line, so that the common draws need no list buffers. */
OUT_OF_LINE es_move sample_listed(const es_game *g, const omg_state *s, es_rng *rng) {
    es_move out[OMG_MAX_CHANCE];
    double prob[OMG_MAX_CHANCE];
    int n = omg_chance_outcomes(g, s, out, prob);   /* all other nodes are uniform */
    return n ? out[es_rng_u32_below(rng, (uint32_t)n)] : 0;
}

/* The other nodes than draws, out of line so that a draw (nine chance nodes in ten) saves and
 * restores no registers. */
OUT_OF_LINE es_move sample_other(const es_game *g, const omg_state *s, es_rng *rng) {
    if (s->sub == OMG_SUB_TAKE) {   /* the r-th good on the first slot still giving goods */
        int p = s->take_player, k = 0;
        while (k < OMG_SLOTS && !s->take_left[k]) k++;
        if (k < OMG_SLOTS && s->goods_n[p][k]) {
            int r = (int)es_rng_u32_below(rng, s->goods_n[p][k]);
            int c = nth_card_at(s, OMG_L_GOOD + p * OMG_SLOTS + k, r);
            if (c >= 0) return MV(OMG_M_TAKE, c);
        }
    }
    return sample_listed(g, s, rng);
}

static es_move omg_sample_chance(const es_game *g, const void *vs, es_rng *rng) {
    const omg_state *s = (const omg_state *)vs;
    if (s->sub == OMG_SUB_DRAW) {
        int k = (int)es_rng_u32_below(rng, (uint32_t)es_bits128_count(s->deck));
        return MV(OMG_M_DRAW, es_bits128_select(s->deck, k));
    }
    return sample_other(g, s, rng);
}

/* ---------------------------------------------------------------- is_legal */

/* The card of a one-card move id of `type` (MV(type, c), c a deck card or 126/127), else -1. */
static int card_arg(es_move m, int type) {
    if (m < 0 || MV_TYPE(m) != type) return -1;
    int c = m >> 5;
    return c < 128 ? c : -1;
}

/* Membership by the list, for the rarer nodes. */
static int listed(const es_game *g, const omg_state *s, es_move m) {
    es_move out[OMG_MAX_MOVES];
    double prob[OMG_MAX_CHANCE];
    int n = s->actor >= 0 ? omg_legal_moves_raw(g, s, out, OMG_MAX_MOVES) : omg_chance_outcomes(g, s, out, prob);
    return es_moves_have(out, n, m);
}

/* is_legal hook: the draws, goods taken and the commitments of phases I and II (most nodes of
 * a game) are decoded; the rest are checked against their (short) lists. */
static int omg_is_legal(const es_game *g, const void *vs, es_move m) {
    const omg_state *s = (const omg_state *)vs;
    if (s->stage == OMG_ST_OVER) return 0;
    int p = s->actor;
    if (p < 0 && s->sub == OMG_SUB_DRAW) {   /* any card of the draw pile (omg_chance_outcomes) */
        int c = card_arg(m, OMG_M_DRAW);
        return c >= 0 && c < OMG_NCARDS && es_bits128_test(s->deck, c);
    }
    if (p < 0 && s->sub == OMG_SUB_TAKE) {   /* any good on the first slot still giving goods */
        int c = card_arg(m, OMG_M_TAKE), k = 0;
        while (k < OMG_SLOTS && !s->take_left[k]) k++;
        return c >= 0 && c < OMG_NCARDS && k < OMG_SLOTS && s->loc[c] == OMG_L_GOOD + s->take_player * OMG_SLOTS + k;
    }
    if (p >= 0 && s->sub == OMG_SUB_NONE && s->stage == OMG_ST_P1_COMMIT && !g->options[OMG_OPT_ALL_OR_NOTHING]) {
        int c = card_arg(m, OMG_M_REDRAW);   /* a hand card above the ones chosen, or done */
        uint64_t pool[2];
        redraw_pool(s, p, pool);
        return c == 127 || (c >= 0 && c < OMG_NCARDS && es_bits128_test(pool, c));
    }
    if (p >= 0 && s->sub == OMG_SUB_NONE && s->stage == OMG_ST_P2_COMMIT && s->p2_step == 2) {
        int c = card_arg(m, OMG_M_ASIDE);   /* a hand card, or none */
        return c == 127 || (c >= 0 && c < OMG_NCARDS && es_bits128_test(s->hand[p], c));
    }
    if (p >= 0 && s->sub == OMG_SUB_NONE && s->stage == OMG_ST_P2_COMMIT && s->p2_step == 1) {
        if (m < 0 || MV_TYPE(m) != OMG_M_WORKER || m >> 10) return 0;   /* a free producing slot, two modes */
        uint32_t free = free_producing_slots(DATA(g), s, p);
        return (free >> MV_ARG(m, 5, 4)) & 1;
    }
    return listed(g, s, m);
}

/* ---------------------------------------------------------------- random_move */

/* The k-th move of gen_ascending(above, left, type) and how many there are, without the list. */
static es_move ascending_pick(const uint64_t above[2], int left, int type, es_rng *rng, int *count, int forced_free) {
    int n = ascending_count(above, left);
    if (n <= 0) {
        *count = 0;
        return 0;
    }
    return MV(type, es_bits128_select(above, draw_index(rng, n, count, forced_free)));
}

/* random_move hook: every decision is counted and indexed in omg_legal_moves_raw's order,
 * building only the move drawn (the chains of production and the final round by their counts,
 * chain_move), except a payment's few amounts and the productions, listed here. With
 * `forced_free` (random_play), a node's only move is taken without a draw. */
static inline __attribute__((always_inline)) es_move pick_move(const es_game *g, const omg_state *s, es_rng *rng,
                                                               int *count, int forced_free) {
    const omg_data *d = DATA(g);
    int p = s->actor;
    uint64_t above[2];
    int left, type;
    *count = -1;
    if (p < 0) return 0;
    if (s->sub != OMG_SUB_NONE) {   /* a payment or an ascending choice; the commitments (no sub-step) below */
        if (s->sub == OMG_SUB_PAY) {
            es_move pay[OMG_NCARDS + 1];   /* 0 .. all the goods of a slot */
            int n = gen_pay(g, s, pay);
            if (!n) {
                *count = 0;
                return 0;
            }
            return pay[draw_index(rng, n, count, forced_free)];
        }
        if (ascending_choice(g, s, p, above, &left, &type)) return ascending_pick(above, left, type, rng, count, forced_free);
        return 0;
    }
    switch (s->stage) {
    case OMG_ST_P1_COMMIT: {   /* cards above, then done */
        if (g->options[OMG_OPT_ALL_OR_NOTHING]) return 0;
        redraw_pool(s, p, above);
        int n = es_bits128_count(above) + 1, k = draw_index(rng, n, count, forced_free);
        return MV(OMG_M_REDRAW, k < n - 1 ? es_bits128_select(above, k) : 127);
    }
    case OMG_ST_P2_COMMIT:
        if (s->p2_step == 0) {   /* stay, then each target */
            int a = s->p2_asst;
            uint64_t to[2] = {move_targets(d, s, p, a), 0};
            int k = draw_index(rng, 1 + (int)es_bits128_count(to), count, forced_free);
            return OMG_M_MOVE | a << 5 | (k ? es_bits128_select(to, k - 1) : 15) << 8;
        }
        if (s->p2_step == 1) {   /* each free slot, exact then short */
            uint64_t free[2] = {free_producing_slots(d, s, p), 0};
            int n = 2 * es_bits128_count(free);
            if (!n) return 0;
            int k = draw_index(rng, n, count, forced_free);
            return OMG_M_WORKER | es_bits128_select(free, k >> 1) << 5 | (k & 1 ? 0 : 1 << 9);
        } else {   /* a hand card, then none */
            int n = es_bits128_count(s->hand[p]) + 1, k = draw_index(rng, n, count, forced_free);
            return MV(OMG_M_ASIDE, k < n - 1 ? es_bits128_select(s->hand[p], k) : 127);
        }
    case OMG_ST_P4_PRODUCE: {   /* end, the productions (listed: a few), the chains */
        es_move produce[OMG_SLOTS * OMG_NRES];
        int np = gen_produce(g, s, p, produce, 0, OMG_SLOTS * OMG_NRES);
        return pick_with_chains(g, s, p, s->final_full, OMG_M_END_PRODUCTION, produce, np, rng, count, forced_free);
    }
    case OMG_ST_P4_BUILD: {   /* pass, build, the hires by assistant then slot */
        int gold_free = free_gold(d, s, p), build = can_build(d, s, p, gold_free);
        uint32_t hire, onto;
        hire_options(g, s, p, gold_free, &hire, &onto);
        int slots = __builtin_popcount(onto);
        int r = draw_index(rng, 1 + build + __builtin_popcount(hire) * slots, count, forced_free);
        if (r == 0) return OMG_M_PASS;
        if (r == 1 && build) return OMG_M_BUILD;
        int k = r - 1 - build;   /* the hires */
        uint64_t hs[2] = {hire, 0}, os[2] = {onto, 0};
        return OMG_M_HIRE | es_bits128_select(hs, k / slots) << 5 | es_bits128_select(os, k % slots) << 8;
    }
    case OMG_ST_FINAL:   /* end, the chains */
        return pick_with_chains(g, s, p, 1, OMG_M_END_CHAINS, NULL, 0, rng, count, forced_free);
    default:
        return 0;
    }
}

static es_move omg_random_move(const es_game *g, const void *vs, es_rng *rng, int *count) {
    return pick_move(g, (const omg_state *)vs, rng, count, 0);
}

/* ---------------------------------------------------------------- apply */

static void run(const es_game *g, omg_state *s);

/* Card c leaves the draw pile (the only outcomes of a draw node). Inlined into omg_apply: nine
 * chance nodes in ten are draws. */
static inline __attribute__((always_inline)) void apply_draw(const es_game *g, omg_state *s, int c) {
    int p = s->draw_player;
    if (s->draw_dest == OMG_D_MARKET) {
        put_from(s, c, OMG_L_DECK, s->draw_player == 1 ? OMG_L_MARKET1 : OMG_L_MARKET2, all_seen(g));
        s->row_suns += DATA(g)->card[c].sun;
        return;
    }
    int knows = s->draw_dest == OMG_D_HAND ? BIT(p) : 0;
    /* whoever did not see this draw no longer knows where the other deck cards are */
    if (s->deck_known & ~knows) update_card_bytes(s->seen, s->deck, (uint8_t)knows, 0);
    s->deck_known &= (uint8_t)knows;
    if (s->draw_dest == OMG_D_HAND) {
        put_from(s, c, OMG_L_DECK, OMG_L_HAND + p, BIT(p));
    } else {
        put_from(s, c, OMG_L_DECK, OMG_L_GOOD + p * OMG_SLOTS + s->draw_slot, 0);
        s->row_suns++;
    }
    s->draw_left--;
}

static void apply_take(const es_game *g, omg_state *s, int c) {
    int p = s->take_player;
    int k = (s->loc[c] - OMG_L_GOOD) % OMG_SLOTS;
    if (s->take_dest_slot == NONE8)
        put(s, c, OMG_L_DISCARD, all_seen(g));
    else
        put(s, c, OMG_L_GOOD + p * OMG_SLOTS + s->take_dest_slot, s->seen[c]);
    s->take_left[k]--;
}

static void apply_produce(const es_game *g, omg_state *s, int p, int k, int omit) {
    const omg_data *d = DATA(g);
    int need[OMG_NRES + 1], avail[OMG_NRES + 1], any;
    int by_worker = k == s->worker_slot[p];
    available(d, s, p, avail, &any);
    production_need(d, s, p, k, avail, any, by_worker && !s->worker_exact[p], omit, need);
    s->tried[p] |= (uint16_t)BIT(k);
    s->sub = OMG_SUB_SUPPLY;
    s->sup_slot = (uint8_t)k;
    s->sup_any = slot_building(d, s, p, k)->input_any != 0;
    for (int r = 0; r <= OMG_NRES; r++) s->sup_need[r] = (uint8_t)need[r];
    s->sup_goods = by_worker && s->worker_exact[p] ? 2 : 1;
    s->sup_last = NONE8;
}

static void apply_supply(const es_game *g, omg_state *s, int p, int c) {
    const omg_data *d = DATA(g);
    int r = s->sup_any ? 0 : d->card[c].resource;
    put_from(s, c, OMG_L_HAND + p, OMG_L_DISCARD, all_seen(g));   /* a hand card (supply_pool) */
    s->sup_need[r]--;
    s->sup_last = s->sup_need[r] || s->sup_any ? (uint8_t)c : NONE8;
}

/* Chain inputs in the data's order, each complete (a good leaving by its TAKE nodes)
 * before the next. */
static void chain_input(const es_game *g, omg_state *s, int p, int k, int in) {
    if (in < CH_GOOD) {
        put(s, in, OMG_L_GOOD + p * OMG_SLOTS + k, all_seen(g));   /* shown (spec 4.4.3) */
        return;
    }
    uint8_t counts[OMG_SLOTS] = {0};
    counts[in - CH_GOOD] = 1;
    start_take(s, p, counts, k, TAKE_AFTER_CHAIN);
}

static void apply_chain(const es_game *g, omg_state *s, int p, es_move m) {
    int k = MV_ARG(m, 5, 4), in0 = MV_ARG(m, 9, 7), in1 = MV_ARG(m, 16, 7);
    if (in1 < CH_GOOD) s->seen[in1] = (uint8_t)all_seen(g);   /* named in the public move */
    s->chain_in1 = (uint8_t)in1;
    chain_input(g, s, p, k, in0);
    if (s->sub != OMG_SUB_TAKE && in1 != CH_NONE) {
        s->chain_in1 = CH_NONE;
        chain_input(g, s, p, k, in1);
    } else if (s->sub != OMG_SUB_TAKE) {
        s->chain_in1 = CH_NONE;
    }
}

static inline __attribute__((always_inline)) void apply_one_inline(const es_game *g, omg_state *s, es_move m) {
    const omg_data *d = DATA(g);
    int p = s->actor;
    switch (MV_TYPE(m)) {
    case OMG_M_DRAW:
        apply_draw(g, s, MV_ARG(m, 5, 7));
        break;
    case OMG_M_TAKE:
        apply_take(g, s, MV_ARG(m, 5, 7));
        break;
    case OMG_M_CHARBURNER:
        s->charburner[s->idx++] = (int8_t)MV_ARG(m, 5, 2);
        break;
    case OMG_M_DISPLAY:
        s->asst_owner[MV_ARG(m, 5, 3)] = -1;
        break;
    case OMG_M_SIDE:
        s->asst_side[s->idx++] = (uint8_t)MV_ARG(m, 5, 1);
        break;
    case OMG_M_START:
        s->start = (uint8_t)MV_ARG(m, 5, 2);
        s->stage = OMG_ST_DEAL;
        s->idx = 0;
        break;
    case OMG_M_REDRAW: {
        int c = MV_ARG(m, 5, 7);
        if (c == 127) {
            s->idx++;
        } else if (c == 126) {
            s->pending[p][0] = s->hand[p][0];
            s->pending[p][1] = s->hand[p][1];
            s->idx++;
        } else {
            es_bits128_set(s->pending[p], c);
        }
        break;
    }
    case OMG_M_HALVE:
        es_bits128_set(s->pending[p], MV_ARG(m, 5, 7));
        s->exhaust_left--;
        break;
    case OMG_M_MOVE: {
        int a = MV_ARG(m, 5, 3), k = MV_ARG(m, 8, 4);
        if (k == 15) {
            finish_p2_commit_step(s);
        } else {
            s->pend_move[a] = (int8_t)k;
            start_pay(g, s, p, OMG_MOVE_COST, OMG_PAY_MOVE, a);
        }
        break;
    }
    case OMG_M_WORKER:
        s->pend_worker[p] = (int8_t)MV_ARG(m, 5, 4);
        s->pend_exact[p] = (uint8_t)MV_ARG(m, 9, 1);
        s->p2_step = 2;
        break;
    case OMG_M_ASIDE: {
        int c = MV_ARG(m, 5, 7);
        s->pend_aside[p] = (int8_t)(c == 127 ? -1 : c);
        s->p2_step = 3;
        break;
    }
    case OMG_M_PAY: {
        int k = MV_ARG(m, 5, 5), j = s->pay_slot;
        int v = slot_value(d, s, s->pay_player, j);
        s->pay_counts[j] = (uint8_t)k;
        s->pay_total = (uint8_t)(s->pay_total + k * v);
        if (k && v < s->pay_min) s->pay_min = (uint8_t)v;
        s->pay_slot++;
        if (s->pay_total >= s->pay_cost) after_pay(g, s);
        break;
    }
    case OMG_M_PRODUCE:
        apply_produce(g, s, p, MV_ARG(m, 5, 4), MV_ARG(m, 9, 3));
        break;
    case OMG_M_SUPPLY:
        apply_supply(g, s, p, MV_ARG(m, 5, 7));
        break;
    case OMG_M_CHAIN:
        apply_chain(g, s, p, m);
        break;
    case OMG_M_END_PRODUCTION:
        s->stage = OMG_ST_P4_BUILD;
        break;
    case OMG_M_BUILD:
        start_pay(g, s, p, d->card[s->aside[p]].cost, OMG_PAY_BUILD, 0);
        break;
    case OMG_M_HIRE: {
        int a = MV_ARG(m, 5, 3), k = MV_ARG(m, 8, 4);
        start_pay(g, s, p, d->asst_cost[a][s->asst_side[a]], OMG_PAY_HIRE, a << 4 | k);
        break;
    }
    case OMG_M_PASS:
        return_aside(g, s, p);
        next_p4_player(g, s);
        break;
    case OMG_M_END_CHAINS:
        s->idx++;
        break;
    default:
        break;
    }
    /* a payment that completes at once (cost 0) */
    if (s->sub == OMG_SUB_PAY && s->pay_total >= s->pay_cost) after_pay(g, s);
}

/* The handlers are inlined into apply_decision (one move per decision), saving a call and
 * its register saves there; run()'s forced moves and determinize call them here. */
static void omg_apply_one(const es_game *g, omg_state *s, es_move m) { apply_one_inline(g, s, m); }

/* At a phase I redraw of p (one card per decision): may p still add a card, besides "done"? */
static inline int redraw_card_left(const es_game *g, const omg_state *s, int p) {
    return !g->options[OMG_OPT_ALL_OR_NOTHING] && es_bits128_highest(s->hand[p]) > es_bits128_highest(s->pending[p]);
}

/* A production p surely has, found cheaply: the worker's building, not yet run, with each of
 * its inputs in the market and hand (resource offices would only add). Most production nodes
 * are answered here, without gen_produce's offices and assistants. */
static inline int worker_surely_produces(const omg_data *d, const omg_state *s, int p) {
    int ws = s->worker_slot[p];
    if (ws < 0 || ws >= s->n_slots[p] || (s->tried[p] >> ws & 1)) return 0;
    const omg_building *b = slot_building(d, s, p, ws);
    if (b->input_any) return 0;
    uint32_t inputs = ~bytes_equal8(b->input, 0) & (BIT(OMG_NRES + 1) - 2);   /* as gen_produce */
    for (; inputs; inputs &= inputs - 1) {
        int r = __builtin_ctz(inputs);
        if (b->input[r] > es_bits128_count_and(s->market, d->res_cards[r]) + hand_of_resource(d, s, p, r)) return 0;
    }
    return 1;
}

/* Does the decision node offer at least two moves? O(1) for the commonest nodes; otherwise
 * the first two moves are listed into `moves` (so a forced move is moves[0]). */
static int several_moves(const es_game *g, const omg_state *s, es_move *moves) {
    int p = s->actor;
    if (s->sub == OMG_SUB_NONE) {   /* most nodes: the commitments, production, building */
        if (s->stage == OMG_ST_P1_COMMIT && !g->options[OMG_OPT_ALL_OR_NOTHING]) {
            if (redraw_card_left(g, s, p)) return 1;   /* a card + done */
            moves[0] = MV(OMG_M_REDRAW, 127);          /* no card above those chosen: done */
            return 0;
        }
        if (s->stage == OMG_ST_P2_COMMIT && s->p2_step == 1) return 1;              /* two modes */
        if (s->stage == OMG_ST_P2_COMMIT && s->p2_step == 2 && es_bits128_any(s->hand[p])) return 1;
        const omg_data *d = DATA(g);
        if (s->stage == OMG_ST_P4_PRODUCE || s->stage == OMG_ST_FINAL) {   /* the end, or a production or chain */
            int final = s->stage == OMG_ST_FINAL;
            es_move produce[OMG_NRES];   /* gen_produce stops after the first building's moves */
            if (!final && worker_surely_produces(d, s, p)) return 1;
            if ((!final && gen_produce(g, s, p, produce, 0, 1)) || any_chain(d, s, p, final || s->final_full)) return 1;
            moves[0] = final ? OMG_M_END_CHAINS : OMG_M_END_PRODUCTION;
            return 0;
        }
        if (s->stage == OMG_ST_P4_BUILD) {   /* a pass, or a build or hire */
            int gold_free = free_gold(d, s, p);
            uint32_t hire, onto;
            if (can_build(d, s, p, gold_free)) return 1;
            hire_options(g, s, p, gold_free, &hire, &onto);
            if (hire) return 1;
            moves[0] = OMG_M_PASS;
            return 0;
        }
        if (s->stage == OMG_ST_P2_COMMIT && s->p2_step == 0) {   /* the assistant stays, or moves */
            if (move_targets(d, s, p, s->p2_asst)) return 1;
            moves[0] = OMG_M_MOVE | s->p2_asst << 5 | 15 << 8;
            return 0;
        }
        return omg_legal_moves_raw(g, s, moves, 2) >= 2;
    }
    if (s->sub == OMG_SUB_PAY && s->pay_slot < s->n_slots[p] &&
        (!slot_value(DATA(g), s, p, s->pay_slot) || s->goods_n[p][s->pay_slot] == s->reserved[p][s->pay_slot])) {
        /* a slot with no goods to give: paying 0 is the one move, as the payment can still be
         * completed from here (start_pay's can_pay and gen_pay's can_complete keep it so) */
        moves[0] = MV(OMG_M_PAY, 0);
        return 0;
    }
    if (s->sub == OMG_SUB_PAY) return gen_pay(g, s, moves) >= 2;
    uint64_t above[2];
    int left, type;
    if (ascending_choice(g, s, p, above, &left, &type) && ascending_count(above, left) > 0) {
        if (ascending_count(above, left) >= 2) return 1;
        moves[0] = MV(type, es_bits128_select(above, 0));   /* the one card left to choose */
        return 0;
    }
    return omg_legal_moves_raw(g, s, moves, 2) >= 2;
}

/* The decision nodes whose moves pick_move counts (all but the phase I commitments and the
 * ascending choices): in random_play's lazy flow, run_lazy stops at them without asking
 * several_moves, and a forced one is played there from pick_move's count. */
static inline int counted_node(const omg_state *s) {
    return s->sub == OMG_SUB_PAY || (s->sub == OMG_SUB_NONE && s->stage != OMG_ST_P1_COMMIT);
}

/* Advance through deterministic steps and forced decisions to the next real node; `lazy`:
 * stop at a counted node even when its move is forced (random_play plays it). */
static inline __attribute__((always_inline)) void run_impl(const es_game *g, omg_state *s, int lazy) {
    es_move moves[OMG_MAX_MOVES];
    for (int guard = 0; guard < 100000; guard++) {
        if (step_inline(g, s)) continue;
        if (s->actor >= 0 && !(lazy && counted_node(s)) && !several_moves(g, s, moves)) {
            omg_apply_one(g, s, moves[0]);
            continue;
        }
        return;
    }
}

static void run(const es_game *g, omg_state *s) { run_impl(g, s, 0); }
OUT_OF_LINE void run_lazy(const es_game *g, omg_state *s) { run_impl(g, s, 1); }
static inline void run_as(const es_game *g, omg_state *s, int lazy) {
    if (lazy)
        run_lazy(g, s);
    else
        run(g, s);
}

/* After a draw: does its batch go on (the next node another draw, as step() would find)? */
static inline int draw_batch_goes_on(const omg_state *s) {
    return es_bits128_any(s->deck) && (s->draw_left == NONE8 ? s->row_suns < 2 : s->draw_left > 0);
}

/* Will apply_draw clear seen bytes of the deck (a call to update_card_bytes)? Rarely. */
static inline int draw_forgets(const omg_state *s) {
    return s->draw_dest != OMG_D_MARKET && (s->deck_known & ~(s->draw_dest == OMG_D_HAND ? BIT(s->draw_player) : 0));
}

/* A draw that clears seen bytes, and a decision's move: out of line, so that omg_apply's
 * common draws make no call but tail calls, and save no registers. */
OUT_OF_LINE void apply_draw_then_run(const es_game *g, omg_state *s, int c) {
    apply_draw(g, s, c);
    if (!draw_batch_goes_on(s)) run(g, s);
}

static inline __attribute__((always_inline)) void apply_decision_impl(const es_game *g, omg_state *s, es_move m,
                                                                      int lazy) {
    apply_one_inline(g, s, m);
    /* fast paths, where the next node is known to be a choice (what step() and several_moves()
     * would find): in a phase I redraw, after a card the same player chooses again and after
     * "done" the next player, if a card is left to add */
    if (MV_TYPE(m) == OMG_M_REDRAW && s->sub == OMG_SUB_NONE && s->stage == OMG_ST_P1_COMMIT && s->idx < g->players) {
        int p = order(g, s, s->idx);
        if (redraw_card_left(g, s, p)) {
            s->actor = (int8_t)p;
            return;
        }
    }
    /* a worker placed in a phase II plan: the same planner sets a card aside next, a choice if
     * the hand holds a card */
    if (MV_TYPE(m) == OMG_M_WORKER && es_bits128_any(s->hand[s->actor])) return;
    run_as(g, s, lazy);
}

OUT_OF_LINE void apply_decision(const es_game *g, omg_state *s, es_move m) { apply_decision_impl(g, s, m, 0); }
OUT_OF_LINE void apply_decision_lazy(const es_game *g, omg_state *s, es_move m) { apply_decision_impl(g, s, m, 1); }

/* A good taken (chance): goods leave one at a time, and another take follows at once while
 * the slot has more goods than it still gives (what step() would find). */
static inline __attribute__((always_inline)) void apply_take_impl(const es_game *g, omg_state *s, int c, int lazy) {
    int k = (s->loc[c] - OMG_L_GOOD) % OMG_SLOTS;   /* the first slot still giving goods */
    apply_take(g, s, c);
    if (s->take_left[k] && s->take_left[k] < s->goods_n[s->take_player][k]) return;
    run_as(g, s, lazy);
}

OUT_OF_LINE void apply_take_then_run(const es_game *g, omg_state *s, int c) { apply_take_impl(g, s, c, 0); }
OUT_OF_LINE void apply_take_lazy(const es_game *g, omg_state *s, int c) { apply_take_impl(g, s, c, 1); }

static void omg_apply(const es_game *g, void *vs, es_move m) {
    omg_state *s = (omg_state *)vs;
    if (MV_TYPE(m) != OMG_M_DRAW || s->sub != OMG_SUB_DRAW) {
        if (MV_TYPE(m) == OMG_M_TAKE) apply_take_then_run(g, s, MV_ARG(m, 5, 7));
        else apply_decision(g, s, m);
        return;
    }
    /* the commonest move, straight to its handler (at a draw node omg_apply_one adds nothing to
     * it: no payment is under way) */
    if (draw_forgets(s)) {
        apply_draw_then_run(g, s, MV_ARG(m, 5, 7));
        return;
    }
    apply_draw(g, s, MV_ARG(m, 5, 7));
    if (!draw_batch_goes_on(s)) run(g, s);
}

/* random_play hook: omg_sample_chance, pick_move and omg_apply's paths in one loop, with the
 * lazy flow (run_lazy): where pick_move counts a node's moves, run() does not first ask
 * several_moves whether there is a choice; a forced move is played from the count, without a
 * draw or a decision counted, as run() would play it. The draws of a batch follow each other
 * in an inner loop. */
static int omg_random_play(const es_game *g, void *vs, es_rng *rng, int64_t max_steps, int64_t max_decisions,
                           int64_t *decisions, int64_t *chance) {
    omg_state *s = (omg_state *)vs;
    int64_t dec = 0, ch = 0;
    int rc = ES_OK;
    while (s->stage != OMG_ST_OVER && dec + ch < max_steps && dec < max_decisions) {
        if (s->actor < 0) {
            ch++;
            if (s->sub != OMG_SUB_DRAW) {
                es_move m = sample_other(g, s, rng);
                if (MV_TYPE(m) == OMG_M_TAKE)
                    apply_take_lazy(g, s, MV_ARG(m, 5, 7));
                else
                    apply_decision_lazy(g, s, m);
                continue;
            }
            for (;;) {   /* a batch of draws (omg_sample_chance, then omg_apply's draw path) */
                int k = (int)es_rng_u32_below(rng, (uint32_t)es_bits128_count(s->deck));
                apply_draw(g, s, es_bits128_select(s->deck, k));
                if (!draw_batch_goes_on(s)) {
                    run_lazy(g, s);
                    break;
                }
                if (dec + ch >= max_steps) break;
                ch++;
            }
            continue;
        }
        int n, lazy = counted_node(s);
        es_move m = pick_move(g, s, rng, &n, lazy);
        if (n < 0) {   /* no count for this node: es_random_move's list */
            es_move moves[OMG_MAX_MOVES];
            n = omg_legal_moves_raw(g, s, moves, OMG_MAX_MOVES);
            if (n > 0) m = moves[lazy && n == 1 ? 0 : es_rng_u32_below(rng, (uint32_t)n)];
        }
        if (n <= 0) {
            rc = ES_ERR_LIMIT;
            break;
        }
        dec += !(lazy && n == 1);   /* a forced move is no decision: run() would have played it */
        apply_decision_lazy(g, s, m);
    }
    /* stopped at a counted node: play its forced moves, as after any apply */
    if (rc == ES_OK && s->actor >= 0 && counted_node(s)) run(g, s);
    *decisions += dec;
    *chance += ch;
    return rc;
}

static int omg_legal_moves(const es_game *g, const void *vs, es_move *out) {
    return omg_legal_moves_raw(g, (const omg_state *)vs, out, OMG_MAX_MOVES);
}

/* ---------------------------------------------------------------- setup */

static void omg_init(const es_game *g, void *vs) {
    omg_state *s = (omg_state *)vs;
    memset(s->slot_card, -1, sizeof s->slot_card);
    memset(s->charburner, -1, sizeof s->charburner);
    memset(s->asst_owner, -2, sizeof s->asst_owner);
    memset(s->asst_slot, -1, sizeof s->asst_slot);
    memset(s->worker_slot, -1, sizeof s->worker_slot);
    memset(s->aside, -1, sizeof s->aside);
    memset(s->pend_move, -1, sizeof s->pend_move);
    memset(s->pend_worker, -1, sizeof s->pend_worker);
    memset(s->pend_aside, -1, sizeof s->pend_aside);
    for (int p = 0; p < g->players; p++) s->n_slots[p] = 1;
    for (int c = 0; c < OMG_NCARDS; c++) {
        s->loc[c] = OMG_L_DECK;
        s->seen[c] = (uint8_t)all_seen(g);   /* every card starts in the draw pile */
        es_bits128_set(s->deck, c);
    }
    s->deck_known = (uint8_t)all_seen(g);
    s->stage = OMG_ST_CHARBURNER;
    s->chain_in1 = CH_NONE;
    s->actor = -1;
    run(g, s);
}

/* A failed check names the data file's entry and field (the table follows oh_my_goods_data.py). */
#define NEED(cond, ...) \
    do { if (!(cond)) { es_setup_error(err, errlen, "oh_my_goods data: " __VA_ARGS__); free(d); return ES_ERR_ARG; } } while (0)
#define NEED_OPTION(cond, name) \
    do { if (!(cond)) { free(d); return es_setup_error(err, errlen, "oh_my_goods option %s out of range", name); } } while (0)

static const char *const resource_key[OMG_NRES + 1] = {"?", "grain", "wood", "clay", "stone", "wool"};
static const char *const colour_key[OMG_NCOLOURS] = {"grain", "wood", "clay", "stone", "wool", "charburner"};

static int read_chain(omg_building *b, const int32_t *t, int n_goods) {
    if (!IN(t[0], 0, 2)) return 0;
    b->chain_n = (uint8_t)t[0];
    int resources = 0;
    for (int i = 0; i < b->chain_n; i++) {
        int code = t[1 + i];
        if (!(IN(code, 1, OMG_NRES) || IN(code, 16, 16 + n_goods - 1))) return 0;
        resources += code < 16;
        b->chain[i] = (uint8_t)code;
    }
    return resources < 2;   /* two hand-card inputs per use are not supported */
}

static int omg_setup(es_game *g, const int32_t *t, size_t len, char *err, size_t errlen) {
    omg_data *d = (omg_data *)calloc(1, sizeof *d);
    if (!d) return es_setup_error(err, errlen, "out of memory");
    NEED(len >= 3 && t[0] == OMG_TABLE_VERSION, "unknown table version");
    NEED(t[1] == OMG_NCARDS, "cards: %d deck cards (cards + offices); the engine takes %d", t[1], OMG_NCARDS);
    d->n_goods = t[2];
    NEED(IN(d->n_goods, 1, OMG_MAXGOODS), "goods: %d goods; the engine takes 1..%d", d->n_goods, OMG_MAXGOODS);
    size_t names_len = (OMG_NCARDS + OMG_NCB + OMG_NASSIST) * ES_NAME_INTS;
    size_t want = 3 + (size_t)d->n_goods + OMG_NCB * 10 + OMG_NCARDS * 15 + OMG_NASSIST * 2 * 8 + names_len;
    NEED(len == want, "the table has %zu ints, its counts say %zu", len, want);
    /* the ids, to name the entries: deck cards, Charburners, assistants */
    const int32_t *x = t + want - names_len;
    for (int c = 0; c < OMG_NCARDS; c++, x += ES_NAME_INTS) es_read_name(x, d->card_id[c]);
    for (int c = 0; c < OMG_NCB; c++, x += ES_NAME_INTS) es_read_name(x, d->cb_id[c]);
    for (int a = 0; a < OMG_NASSIST; a++, x += ES_NAME_INTS) es_read_name(x, d->asst_id[a]);
    x = t + 3;
    for (int i = 0; i < d->n_goods; i++, x++) {
        NEED(IN(*x, 1, 15), "goods (good %d): field 'value': %d is out of range 1..15", i + 1, *x);
        d->good_value[i] = *x;
    }
    for (int c = 0; c < OMG_NCB; c++, x += 10) {
        omg_building *b = &d->cb[c];
        const char *id = d->cb_id[c];
        for (int r = 1; r <= OMG_NRES; r++) {
            NEED(IN(x[r - 1], 0, 7), "charburners (%s): field 'input.%s': %d is out of range 0..7", id, resource_key[r],
                 x[r - 1]);
            b->input[r] = (uint8_t)x[r - 1];
        }
        NEED(IN(x[5], 0, 15), "charburners (%s): field 'vp': %d is out of range 0..15", id, x[5]);
        b->vp = (uint8_t)x[5];
        b->office = -1;
        NEED(IN(x[6], 0, d->n_goods - 1), "charburners (%s): field 'output': not a good", id);
        b->output = (int8_t)x[6];
        NEED(read_chain(b, x + 7, d->n_goods), "charburners (%s): field 'chain': at most 2 resources or goods, "
             "at most one of them a resource", id);
    }
    for (int c = 0; c < OMG_NCARDS; c++, x += 15) {
        omg_building *b = &d->card[c];
        const char *id = d->card_id[c], *list = x[4] >= 0 ? "offices" : "cards";
        NEED(IN(x[0], 1, OMG_NRES), "%s (%s): field 'resource': not a resource", list, id);
        NEED(IN(x[1], 0, 1), "%s (%s): field 'sun': not true or false", list, id);
        NEED(IN(x[2], 0, 31), "%s (%s): field 'cost': %d is out of range 0..31", list, id, x[2]);
        NEED(IN(x[3], 0, 15), "%s (%s): field 'vp': %d is out of range 0..15", list, id, x[3]);
        NEED(IN(x[4], -1, OMG_NRES), "%s (%s): field 'bonus': not a resource or card", list, id);
        b->resource = (uint8_t)x[0], b->sun = (uint8_t)x[1], b->cost = (uint8_t)x[2], b->vp = (uint8_t)x[3];
        b->office = (int8_t)x[4];
        int sum = 0;
        for (int r = 1; r <= OMG_NRES; r++) {
            NEED(IN(x[4 + r], 0, 7), "%s (%s): field 'input.%s': %d is out of range 0..7", list, id, resource_key[r],
                 x[4 + r]);
            b->input[r] = (uint8_t)x[4 + r];
            sum += b->input[r];
        }
        NEED(IN(x[10], 0, 15), "%s (%s): field 'input_any': %d is out of range 0..15", list, id, x[10]);
        b->input_any = (uint8_t)x[10];
        NEED(IN(x[11], -1, d->n_goods - 1) && (x[11] < 0) == (b->office >= 0),
             "%s (%s): field 'output': a production building makes one good, an office none", list, id);
        b->output = (int8_t)x[11];
        NEED(b->office >= 0 || (sum > 0) != (b->input_any > 0),
             "%s (%s): field 'input': give exactly one of input (per resource) or input_any", list, id);
        NEED(read_chain(b, x + 12, d->n_goods) && (b->office < 0 || b->chain_n == 0),
             "%s (%s): field 'chain': at most 2 resources or goods, at most one of them a resource (none for an "
             "office)", list, id);
        d->res_cards[b->resource][c >> 6] |= 1ull << (c & 63);
        d->card_value[c + 1] = (uint8_t)(b->output >= 0 ? d->good_value[b->output] : 0);
        d->card_producing[c + 1] = b->office < 0;
        d->card_office[c + 1] = (uint8_t)(b->office > 0 ? b->office : 0);
    }

    for (int a = 0; a < OMG_NASSIST; a++)
        for (int side = 0; side < 2; side++, x += 8) {
            const char *id = d->asst_id[a];
            NEED(IN(x[0], 0, 31), "assistants (%s).sides[%d]: field 'cost': %d is out of range 0..31", id, side, x[0]);
            NEED(IN(x[1], 0, 15), "assistants (%s).sides[%d]: field 'vp': %d is out of range 0..15", id, side, x[1]);
            d->asst_cost[a][side] = (uint8_t)x[0];
            d->asst_vp[a][side] = (uint8_t)x[1];
            for (int c = 0; c < OMG_NCOLOURS; c++) {
                NEED(IN(x[2 + c], 0, 9), "assistants (%s).sides[%d]: field 'requires': %d buildings of the colour of "
                     "%s (see [colours]) is out of range 0..9", id, side, x[2 + c], colour_key[c]);
                d->asst_req[a][side][c] = (uint8_t)x[2 + c];
            }
        }

    const int32_t *o = g->options;
    NEED_OPTION(IN(o[OMG_OPT_START_PLAYER], -1, g->players - 1), "start_player");
    for (int i = OMG_OPT_FULL_ROUND; i <= OMG_OPT_WORKER_LEAVES; i++) NEED_OPTION(IN(o[i], 0, 1), "(a boolean one)");
    NEED_OPTION(IN(o[OMG_OPT_ROUND_CAP], 1, 100), "round_cap");
    g->data = d;
    return ES_OK;
}

/* ---------------------------------------------------------------- results */

static int score(const omg_data *d, const omg_state *s, int p) {
    if (s->charburner[p] < 0) return 0;
    int vp = d->cb[s->charburner[p]].vp;
    for (int k = 1; k < s->n_slots[p]; k++) vp += d->card[s->slot_card[p][k]].vp;
    for (int a = 0; a < OMG_NASSIST; a++)
        if (s->asst_owner[a] == p) vp += d->asst_vp[a][s->asst_side[a]];
    return vp + gold(d, s, p) / OMG_GOLD_PER_VP;
}

static void omg_scores(const es_game *g, const void *vs, double *out) {
    const omg_state *s = (const omg_state *)vs;
    for (int p = 0; p < g->players; p++) out[p] = s->charburner[p] >= 0 ? score(DATA(g), s, p) : 0;
}

/* Most VP; then more gold left after conversion (G mod 5); else shared (spec 8, OMG-A25). */
static void omg_returns(const es_game *g, const void *vs, double *out) {
    const omg_state *s = (const omg_state *)vs;
    int n = g->players, best = -1, key[OMG_MAXP], winners = 0;
    for (int p = 0; p < n; p++) {
        out[p] = 0;
        if (s->charburner[p] < 0) return;
        key[p] = score(DATA(g), s, p) * 8 + gold(DATA(g), s, p) % OMG_GOLD_PER_VP;
        if (key[p] > best) best = key[p];
    }
    if (s->stage != OMG_ST_OVER) return;
    for (int p = 0; p < n; p++) winners += key[p] == best;
    for (int p = 0; p < n; p++)
        if (key[p] == best) out[p] = 1.0 / winners;
}

/* ---------------------------------------------------------------- knowledge */

/* Pending commitments of `p` (hidden from everyone else until the reveal). */
static int committing(const omg_state *s) {
    return s->stage == OMG_ST_P1_COMMIT || s->stage == OMG_ST_P2_COMMIT || s->sub == OMG_SUB_EXHAUST;
}

static void clear_pending(omg_state *s, int p) {
    s->pending[p][0] = s->pending[p][1] = 0;
    for (int a = 0; a < OMG_NASSIST; a++)
        if (s->asst_owner[a] == p) s->pend_move[a] = -1;
    s->pend_worker[p] = -1;
    s->pend_exact[p] = 0;
    s->pend_aside[p] = -1;
    memset(s->reserved[p], 0, OMG_SLOTS);
}

/* Has p already committed (fully) in the current simultaneous step? */
static int has_committed(const es_game *g, const omg_state *s, int p) {
    int i = (p - s->start + g->players) % g->players;
    int at = s->sub == OMG_SUB_EXHAUST ? s->exhaust_idx : s->idx;
    return i < at;
}

/* The state as `viewer` sees it: unseen cards and others' pending commitments blanked out.
 * Counts of cards per place stay (hand sizes, goods per slot, draw-pile size). */
static void omg_redact(const es_game *g, const void *vs, int viewer, void *vout) {
    omg_state *s = (omg_state *)vout;
    memcpy(s, vs, sizeof *s);
    for (int c = 0; c < OMG_NCARDS; c++) {
        if ((s->seen[c] >> viewer) & 1) continue;
        int l = s->loc[c];
        if (l == OMG_L_DECK) es_bits128_clear(s->deck, c);
        else if (l >= OMG_L_HAND && l < OMG_L_HAND + OMG_MAXP) es_bits128_clear(s->hand[l - OMG_L_HAND], c);
        s->loc[c] = 255;   /* "somewhere hidden" */
        s->seen[c] = 0;
    }
    for (int p = 0; p < g->players; p++) {
        if (p == viewer) continue;
        s->pending[p][0] = s->pending[p][1] = 0;
        if (committing(s)) {
            for (int a = 0; a < OMG_NASSIST; a++)
                if (s->asst_owner[a] == p) s->pend_move[a] = -1;
            s->pend_worker[p] = -1;
            s->pend_exact[p] = 0;
            memset(s->reserved[p], 0, OMG_SLOTS);
        }
        s->pend_aside[p] = -1;
        if (s->aside[p] >= 0 && !((s->seen[s->aside[p]] >> viewer) & 1)) s->aside[p] = 127;   /* present */
    }
    /* the supplier's canonical position is bookkeeping of the supplier's own choice order */
    if (s->sub == OMG_SUB_SUPPLY && order(g, s, s->idx) != viewer) s->sup_last = NONE8;
    /* progress of another player's commitment (how many cards chosen) is hidden too */
    if (s->sub == OMG_SUB_EXHAUST && s->actor != viewer) s->exhaust_left = 0;
    if (s->actor >= 0 && s->actor != viewer && committing(s)) {
        s->p2_asst = s->p2_step = 0;
        if (s->sub == OMG_SUB_PAY) s->sub = OMG_SUB_NONE;
        clear_payment(s);
    }
}

/* Public facts about hidden cards that a resampled world must keep: an opponent half-way
 * through supplying a production still holds the cards it needs, and a card being paid for
 * has the cost being paid. */
static int consistent(const es_game *g, const omg_state *s, int observer) {
    const omg_data *d = DATA(g);
    int a = s->actor;
    if (a < 0 || a == observer) return 1;
    if (s->sub == OMG_SUB_SUPPLY) {
        if (s->sup_any) return hand_size(s, a) >= s->sup_need[0];
        for (int r = 1; r <= OMG_NRES; r++)
            if (hand_of_resource(d, s, a, r) < s->sup_need[r]) return 0;
    }
    if (s->sub == OMG_SUB_PAY && s->pay_for == OMG_PAY_BUILD && s->aside[a] >= 0)
        return d->card[s->aside[a]].cost == s->pay_cost;
    return 1;
}

/* Deal the cards `observer` has not seen uniformly back into the places they occupy. */
static void shuffle_unseen(omg_state *s, int observer, es_rng *rng, const int *cards, const int *locs,
                           const int *seens, int n) {
    int deal[OMG_NCARDS];
    memcpy(deal, cards, sizeof(int) * n);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)es_rng_u32_below(rng, (uint32_t)(i + 1));
        int t = deal[i];
        deal[i] = deal[j];
        deal[j] = t;
    }
    for (int i = 0; i < n; i++) {
        s->loc[deal[i]] = (uint8_t)locs[i];
        s->seen[deal[i]] = (uint8_t)seens[i];
    }
    memset(s->deck, 0, sizeof s->deck);
    memset(s->hand, 0, sizeof s->hand);
    for (int c = 0; c < OMG_NCARDS; c++) {
        int l = s->loc[c];
        if (l == OMG_L_DECK) es_bits128_set(s->deck, c);
        else if (l >= OMG_L_HAND && l < OMG_L_HAND + OMG_MAXP) es_bits128_set(s->hand[l - OMG_L_HAND], c);
        else if (l >= OMG_L_ASIDE && l < OMG_L_ASIDE + OMG_MAXP) s->aside[l - OMG_L_ASIDE] = (int8_t)c;
    }
    (void)observer;
}

static int random_hand_card(const omg_state *s, int p, const uint64_t excluded[2], es_rng *rng) {
    uint64_t free_cards[2] = {s->hand[p][0] & ~excluded[0], s->hand[p][1] & ~excluded[1]};
    int k = es_bits128_count(free_cards);
    return k ? es_bits128_select(free_cards, (int)es_rng_u32_below(rng, (uint32_t)k)) : -1;
}

/* Resample what `observer` does not know (spec 6): the cards they have not seen are dealt
 * uniformly (among deals keeping the public facts above) back into the places they occupy,
 * and commitments other players have made but not revealed are replaced by uniformly random
 * legal ones. */
static void omg_determinize(const es_game *g, void *vs, int observer, es_rng *rng) {
    omg_state *s = (omg_state *)vs;
    int cards[OMG_NCARDS], locs[OMG_NCARDS], seens[OMG_NCARDS], n = 0, pend_count[OMG_MAXP];
    for (int p = 0; p < g->players; p++) pend_count[p] = es_bits128_count(s->pending[p]);
    /* The places in a canonical order (by place, then by who has seen the card there), so that
     * for a seed the deal depends only on what the observer knows (the unseen cards and the
     * places), not on which card is where: a counting pass by place, then an insertion sort
     * that only has to order the few cards of one place seen by different players. This runs
     * once per iteration of information-set MCTS. */
    int per_loc[256] = {0};
    for (int c = 0; c < OMG_NCARDS; c++)
        if (!((s->seen[c] >> observer) & 1)) {
            cards[n++] = c;
            per_loc[s->loc[c]]++;
        }
    for (int l = 0, at = 0; l < 256; l++) {
        int k = per_loc[l];
        per_loc[l] = at;
        at += k;
    }
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        locs[per_loc[s->loc[c]]++] = s->loc[c] << 8 | s->seen[c];
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && locs[j - 1] > locs[j]; j--) {
            int t = locs[j];
            locs[j] = locs[j - 1];
            locs[j - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        seens[i] = locs[i] & 0xFF;
        locs[i] >>= 8;
    }
    omg_state trial;
    for (int attempt = 0; attempt < 10000; attempt++) {   /* rejection: uniform among consistent deals */
        memcpy(&trial, s, sizeof trial);
        shuffle_unseen(&trial, observer, rng, cards, locs, seens, n);
        if (consistent(g, &trial, observer)) break;
    }
    if (!consistent(g, &trial, observer)) return;   /* cannot happen: the true deal is consistent */
    memcpy(s, &trial, sizeof *s);
    if (s->sub == OMG_SUB_SUPPLY && s->actor != observer) s->sup_last = NONE8;   /* canonical order restarts */
    /* At the reveal a set-aside card's presence is public, not which card: it is some card of
     * its owner's (resampled) hand. (During planning the whole commitment is replayed below;
     * deciding by its hidden presence here would make the deal depend on it.) */
    for (int p = 0; p < g->players && !committing(s); p++)
        if (p < OMG_MAXP && p != observer && s->pend_aside[p] >= 0)
            s->pend_aside[p] = (int8_t)random_hand_card(s, p, s->pending[p], rng);
    if (!committing(s)) return;
    /* other players' unrevealed commitments: replay them with uniformly random choices */
    int a0 = s->actor;
    if (a0 >= 0 && a0 != observer) {   /* the actor's choices so far are hidden: start it over */
        int halving = s->sub == OMG_SUB_EXHAUST;
        clear_pending(s, a0);
        s->p2_step = s->p2_asst = 0;
        if (s->sub == OMG_SUB_PAY) s->sub = OMG_SUB_NONE;
        if (halving) s->exhaust_left = NONE8;
        pend_count[a0] = 0;
        run(g, s);
    }
    for (int p = 0; p < g->players; p++) {
        if (p == observer || !has_committed(g, s, p)) continue;
        if (s->stage == OMG_ST_P1_COMMIT || s->sub == OMG_SUB_EXHAUST) {
            /* a redraw or halve choice: a random subset of the new hand (halving: same size) */
            int h = hand_size(s, p), want;
            s->pending[p][0] = s->pending[p][1] = 0;
            if (s->sub == OMG_SUB_EXHAUST) {
                want = pend_count[p];
            } else if (g->options[OMG_OPT_ALL_OR_NOTHING]) {
                want = es_rng_u32_below(rng, 2) ? h : 0;
            } else {
                want = 0;
                for (int i = 0; i < h; i++) want += (int)es_rng_u32_below(rng, 2);
            }
            for (int k = 0; k < want; k++) es_bits128_set(s->pending[p], random_hand_card(s, p, s->pending[p], rng));
        } else {
            /* phase II: replay p's planning in a scratch state with random choices */
            omg_state t;
            es_move moves[OMG_MAX_MOVES];
            int turn = (p - s->start + g->players) % g->players;
            memcpy(&t, s, sizeof t);
            clear_pending(&t, p);
            t.idx = (uint8_t)turn;
            t.p2_step = t.p2_asst = 0;
            t.sub = OMG_SUB_NONE;
            for (int guard = 0; guard < 1000; guard++) {
                if (step(g, &t)) continue;
                if (t.actor != p || t.idx != turn || t.stage != OMG_ST_P2_COMMIT) break;
                int k = omg_legal_moves_raw(g, &t, moves, OMG_MAX_MOVES);
                if (k <= 0) break;
                omg_apply_one(g, &t, moves[es_rng_u32_below(rng, (uint32_t)k)]);
            }
            for (int a = 0; a < OMG_NASSIST; a++)
                if (s->asst_owner[a] == p) s->pend_move[a] = t.pend_move[a];
            s->pend_worker[p] = t.pend_worker[p];
            s->pend_exact[p] = t.pend_exact[p];
            s->pend_aside[p] = t.pend_aside[p];
            memcpy(s->reserved[p], t.reserved[p], OMG_SLOTS);
        }
    }
}

/* Estimated final VP: buildings, assistants and gold at 5 per VP as they stand, plus goods
 * about to arrive, a share of what worked buildings may still produce this round, and a
 * little for cards in hand and a planned building. */
static void omg_evaluate(const es_game *g, const void *vs, double *out) {
    const omg_state *s = (const omg_state *)vs;
    const omg_data *d = DATA(g);
    if (s->stage == OMG_ST_OVER) {
        omg_scores(g, vs, out);
        return;
    }
    for (int p = 0; p < g->players; p++) {
        if (s->charburner[p] < 0) {
            out[p] = 0;
            continue;
        }
        int g5 = gold(d, s, p);
        double v = score(d, s, p) - g5 / OMG_GOLD_PER_VP + g5 / (double)OMG_GOLD_PER_VP;   /* gold counted in fractions */
        v += 0.05 * hand_size(s, p);
        int aside = s->aside[p] >= 0 ? s->aside[p] : s->pend_aside[p];
        if (aside >= 0 && aside < OMG_NCARDS) v += 0.3 * d->card[aside].vp;
        int ws = s->worker_slot[p] >= 0 ? s->worker_slot[p] : s->pend_worker[p];
        int exact = s->worker_slot[p] >= 0 ? s->worker_exact[p] : s->pend_exact[p];
        if (ws >= 0 && !((s->tried[p] >> ws) & 1)) v += 0.3 * (exact ? 2 : 1) * slot_value(d, s, p, ws) / OMG_GOLD_PER_VP;
        out[p] = v;
    }
    if (s->sub == OMG_SUB_SUPPLY) {
        int p = order(g, s, s->idx);
        out[p] += s->sup_goods * slot_value(d, s, p, s->sup_slot) / (double)OMG_GOLD_PER_VP;
    } else if ((s->sub == OMG_SUB_DRAW || s->sub == OMG_SUB_EXHAUST) && s->draw_dest == OMG_D_GOOD) {
        out[s->draw_player] += s->draw_left * slot_value(d, s, s->draw_player, s->draw_slot) / (double)OMG_GOLD_PER_VP;
    }
}

/* What `viewer` sees of move m (for information-set search): a card drawn or moved face
 * down where viewer cannot see it, and another player's choice inside a hidden commitment,
 * are one move to viewer. The hidden ids carry bit 30, which no real move has. */
#define OMG_HIDDEN (1 << 30)

static es_move omg_move_view(const es_game *g, const void *vs, es_move m, int viewer) {
    const omg_state *s = (const omg_state *)vs;
    (void)g;
    int t = MV_TYPE(m);
    if (t == OMG_M_DRAW && s->draw_dest != OMG_D_MARKET && !(s->draw_dest == OMG_D_HAND && s->draw_player == viewer))
        return OMG_HIDDEN | t;
    if (t == OMG_M_TAKE && s->take_dest_slot != NONE8 && !((s->seen[MV_ARG(m, 5, 7)] >> viewer) & 1))
        return OMG_HIDDEN | t;
    if (s->actor >= 0 && s->actor != viewer && committing(s)) return OMG_HIDDEN | t;
    return m;
}

/* ---------------------------------------------------------------- validation */

#define BAD(msg) do { if (err && errlen) snprintf(err, errlen, "invalid oh_my_goods state: %s", msg); return ES_ERR_FORMAT; } while (0)

/* Slot k of p exists and produces. The validator meets slot numbers before it has related
 * them to everything else, so unlike producing() this is safe for any k once the slot table
 * is bounded (slot 0 is empty until p's Charburner is dealt). */
static int producing_slot(const omg_data *d, const omg_state *s, int p, int k) {
    return IN(k, 0, s->n_slots[p] - 1) && (k > 0 || s->charburner[p] >= 0) && producing(d, s, p, k);
}

/* p holds phase II choices not yet revealed: assistant moves, the worker, a set-aside card,
 * goods promised to a payment. */
static int holds_phase2_choices(const omg_state *s, int p) {
    int held = s->pend_worker[p] >= 0 || s->pend_aside[p] >= 0;
    for (int k = 0; k < OMG_SLOTS; k++) held |= s->reserved[p][k] != 0;
    for (int a = 0; a < OMG_NASSIST; a++) held |= s->asst_owner[a] == p && s->pend_move[a] >= 0;
    return held;
}

static int omg_validate(const es_game *g, const void *vs, char *err, size_t errlen) {
    const omg_state *s = (const omg_state *)vs;
    const omg_data *d = DATA(g);
    int n = g->players, all = all_seen(g);
    if (!IN(s->stage, OMG_ST_CHARBURNER, OMG_ST_OVER) || s->sub > OMG_SUB_SUPPLY) BAD("unknown stage");
    if (s->spare[0] || s->spare[1] || s->spare[2] || s->spare[3]) BAD("spare bytes are not zero");
    for (int c = 0; c < OMG_NCARDS; c++)
        if (s->loc[c] == OMG_L_DECK && (s->seen[c] & ~s->deck_known)) BAD("draw-pile knowledge");
    if (s->start >= n || !IN(s->actor, -1, n - 1)) BAD("player out of range");
    if (s->round > g->options[OMG_OPT_ROUND_CAP]) BAD("round out of range");
    /* Bounds first: the slot table (slot counts, built cards, Charburners) is what most
     * checks below index through, so it is bounded before any of them reads it. */
    for (int p = 0; p < OMG_MAXP; p++) {
        if (p < n ? !IN(s->n_slots[p], 1, OMG_SLOTS) : s->n_slots[p] != 0) BAD("slot count");
        if (!IN(s->charburner[p], -1, OMG_NCB - 1) || (p >= n && s->charburner[p] != -1)) BAD("Charburner index");
        for (int k = 0; k < OMG_SLOTS; k++) {
            int c = s->slot_card[p][k];
            if (k == 0 || k >= s->n_slots[p] ? c != -1 : !IN(c, 0, OMG_NCARDS - 1)) BAD("slot card");
        }
    }
    /* cards: the masks agree with the locations, and each location is a real place */
    uint64_t deck[2] = {0, 0}, discard[2] = {0, 0}, market[2] = {0, 0}, hand[OMG_MAXP][2];
    uint8_t goods[OMG_MAXP][OMG_SLOTS];
    memset(hand, 0, sizeof hand);
    memset(goods, 0, sizeof goods);
    for (int c = 0; c < OMG_NCARDS; c++) {
        int l = s->loc[c];
        if (s->seen[c] & ~all) BAD("knowledge of an unused seat");
        if (l == OMG_L_DECK) es_bits128_set(deck, c);
        else if (l == OMG_L_DISCARD) es_bits128_set(discard, c);
        else if (l == OMG_L_MARKET1 || l == OMG_L_MARKET2) es_bits128_set(market, c);
        else if (IN(l, OMG_L_HAND, OMG_L_HAND + n - 1)) es_bits128_set(hand[l - OMG_L_HAND], c);
        else if (IN(l, OMG_L_ASIDE, OMG_L_ASIDE + n - 1)) {
            if (s->aside[l - OMG_L_ASIDE] != c) BAD("set-aside card bookkeeping");
        } else if (IN(l, OMG_L_BUILT, OMG_L_BUILT + n - 1)) {
            int p = l - OMG_L_BUILT, found = 0;
            for (int k = 1; k < s->n_slots[p]; k++) found += s->slot_card[p][k] == c;
            if (found != 1) BAD("built card not in a slot");
        } else if (l >= OMG_L_GOOD && l < OMG_L_GOOD + n * OMG_SLOTS) {
            int p = (l - OMG_L_GOOD) / OMG_SLOTS, k = (l - OMG_L_GOOD) % OMG_SLOTS;
            if (!producing_slot(d, s, p, k)) BAD("good on a missing or non-producing slot");
            goods[p][k]++;
        } else {
            BAD("card in an unknown place");
        }
        int public_place = l == OMG_L_DISCARD || l == OMG_L_MARKET1 || l == OMG_L_MARKET2 || IN(l, OMG_L_BUILT, OMG_L_BUILT + 3);
        if (public_place && s->seen[c] != all) BAD("a public card is not known to all");
        int waiting = s->chain_in1 == c && s->sub == OMG_SUB_TAKE;   /* shown, not yet moved */
        if (IN(l, OMG_L_HAND, OMG_L_HAND + 3) && s->seen[c] != (waiting ? all : (int)BIT(l - OMG_L_HAND)))
            BAD("hand knowledge");
        if (IN(l, OMG_L_ASIDE, OMG_L_ASIDE + 3) && s->seen[c] != BIT(l - OMG_L_ASIDE)) BAD("set-aside knowledge");
    }
    if (memcmp(deck, s->deck, sizeof deck) || memcmp(discard, s->discard, sizeof discard) ||
        memcmp(market, s->market, sizeof market) || memcmp(hand, s->hand, sizeof hand))
        BAD("card sets do not match the card locations");
    if (memcmp(goods, s->goods_n, sizeof goods)) BAD("goods counts do not match the cards");
    for (int p = 0; p < n; p++) {
        if (s->pending[p][0] & ~s->hand[p][0] || s->pending[p][1] & ~s->hand[p][1]) BAD("pending cards not in hand");
        for (int k = 0; k < OMG_SLOTS; k++) {
            if (IN(k, 1, s->n_slots[p] - 1) && s->loc[s->slot_card[p][k]] != OMG_L_BUILT + p) BAD("slot card");
            if (s->reserved[p][k] > s->goods_n[p][k]) BAD("reserved goods");
        }
        if ((s->stage != OMG_ST_CHARBURNER || p < s->idx) != (s->charburner[p] >= 0)) BAD("Charburner dealt out of order");
        for (int q = 0; q < p; q++)
            if (s->charburner[p] >= 0 && s->charburner[p] == s->charburner[q]) BAD("Charburner dealt twice");
        if (!IN(s->worker_slot[p], -1, s->n_slots[p] - 1) || s->worker_exact[p] > 1) BAD("worker");
        if (s->worker_slot[p] >= 0 && !producing_slot(d, s, p, s->worker_slot[p])) BAD("worker on an office");
        if (!IN(s->pend_worker[p], -1, s->n_slots[p] - 1) || s->pend_exact[p] > (s->pend_worker[p] >= 0)) BAD("pending worker");
        if (s->pend_worker[p] >= 0 && !producing_slot(d, s, p, s->pend_worker[p])) BAD("pending worker on an office");
        if (s->aside[p] != -1 && (!IN(s->aside[p], 0, OMG_NCARDS - 1) || s->loc[s->aside[p]] != OMG_L_ASIDE + p)) BAD("set-aside card");
        if (s->pend_aside[p] != -1 && (!IN(s->pend_aside[p], 0, OMG_NCARDS - 1) || !es_bits128_test(s->hand[p], s->pend_aside[p])))
            BAD("pending set-aside card");
        if (s->produced[p] & ~s->tried[p] || s->tried[p] >> s->n_slots[p]) BAD("production marks");
        if (assistants_of(s, p) > OMG_MAX_ASSISTANTS) BAD("more than 2 assistants");
        if (s->extra_cards[p] > 2 + OMG_NCARDS || (s->stage >= OMG_ST_P1_COMMIT && s->extra_cards[p] < 2)) BAD("cards to deal");
    }
    for (int p = n; p < OMG_MAXP; p++)
        if (s->hand[p][0] || s->hand[p][1] || s->pending[p][0] || s->pending[p][1] || s->n_slots[p] || s->charburner[p] != -1)
            BAD("data in an unused seat");
    uint32_t used_slots[OMG_MAXP] = {0};
    for (int a = 0; a < OMG_NASSIST; a++) {
        int o = s->asst_owner[a];
        if (!IN(o, -3, n - 1) || s->asst_side[a] > 1) BAD("assistant");
        if (o >= 0) {
            int k = s->asst_slot[a];
            if (!producing_slot(d, s, o, k) || ((used_slots[o] >> k) & 1)) BAD("assistant slot");
            used_slots[o] |= BIT(k);
            if (s->pend_move[a] != -1 && !producing_slot(d, s, o, s->pend_move[a]))
                BAD("pending assistant move");
        } else if (s->asst_slot[a] != -1 || s->pend_move[a] != -1) {
            BAD("assistant not owned has a slot");
        }
    }
    for (int p = 0; p < n; p++) {
        /* the worker stays on its building all round (OMG-A18); only with worker_leaves_after_production
         * may a worker who has finished producing share its slot with a newly hired assistant */
        int turn = (p - s->start + n) % n;
        int done = g->options[OMG_OPT_WORKER_LEAVES] && (s->stage == OMG_ST_P4_PRODUCE || s->stage == OMG_ST_P4_BUILD) &&
                   (turn < s->idx || (turn == s->idx && s->stage == OMG_ST_P4_BUILD && s->sub != OMG_SUB_SUPPLY));
        if (s->worker_slot[p] >= 0 && ((used_slots[p] >> s->worker_slot[p]) & 1) && !done)
            BAD("worker and assistant on one slot");
    }
    /* the node itself must be well-formed: its generators read these fields as indices */
    if (s->sub == OMG_SUB_PAY) {
        if (s->pay_player >= n || s->pay_slot >= s->n_slots[s->pay_player] || s->pay_total >= s->pay_cost ||
            s->pay_min > INF_VALUE || !IN(s->pay_for, OMG_PAY_MOVE, OMG_PAY_HIRE))
            BAD("payment");
        if (s->pay_for == OMG_PAY_BUILD && s->aside[s->pay_player] < 0) BAD("build payment without a card");
        if (s->pay_for == OMG_PAY_HIRE && ((s->pay_arg >> 4) >= OMG_NASSIST || (s->pay_arg & 15) >= s->n_slots[s->pay_player])) BAD("hire payment");
        if (s->pay_for == OMG_PAY_MOVE && s->pay_arg >= OMG_NASSIST) BAD("move payment");
    }
    if (s->sub == OMG_SUB_TAKE) {
        if (s->take_player >= n || (s->take_dest_slot != NONE8 && s->take_dest_slot >= s->n_slots[s->take_player])) BAD("take");
        for (int k = 0; k < OMG_SLOTS; k++)
            if (s->take_left[k] > s->goods_n[s->take_player][k]) BAD("take more goods than the slot holds");
        if (!IN(s->take_after, TAKE_AFTER_BUILD, TAKE_AFTER_CHAIN)) BAD("take continuation");
        /* a chain's goods go to its building, a payment's and a reveal's to the discard pile */
        if ((s->take_dest_slot == NONE8) == (s->take_after == TAKE_AFTER_CHAIN)) BAD("take destination");
        if (s->take_after == TAKE_AFTER_BUILD && s->aside[s->take_player] < 0) BAD("build without a card");
        if (s->take_after == TAKE_AFTER_HIRE && ((s->pay_arg >> 4) >= OMG_NASSIST || (s->pay_arg & 15) >= s->n_slots[s->take_player])) BAD("hire");
    }
    if (s->chain_in1 != CH_NONE && (s->sub != OMG_SUB_TAKE || s->take_after != TAKE_AFTER_CHAIN ||
        (s->chain_in1 < CH_GOOD ? s->loc[s->chain_in1 < OMG_NCARDS ? s->chain_in1 : 0] != OMG_L_HAND + s->take_player || s->chain_in1 >= OMG_NCARDS
                                : s->chain_in1 - CH_GOOD >= s->n_slots[s->take_player])))
        BAD("chain input");
    if (s->sub == OMG_SUB_SUPPLY) {
        if (s->stage != OMG_ST_P4_PRODUCE || s->idx >= n || s->sup_slot >= s->n_slots[order(g, s, s->idx)] || s->sup_any > 1 ||
            !IN(s->sup_goods, 1, 2) || (s->sup_last != NONE8 && s->sup_last >= OMG_NCARDS))
            BAD("supply");
        for (int r = 0; r <= OMG_NRES; r++) if (s->sup_need[r] > 15) BAD("supply need");
    }
    if (s->sub == OMG_SUB_DRAW || s->sub == OMG_SUB_EXHAUST) {
        if (!IN(s->draw_dest, OMG_D_HAND, OMG_D_GOOD) || s->draw_player >= (s->draw_dest == OMG_D_MARKET ? 3 : n) ||
            (s->draw_dest == OMG_D_GOOD && s->draw_slot >= s->n_slots[s->draw_player]) ||
            (s->draw_dest == OMG_D_MARKET && (s->draw_player < 1 || s->row_suns > 2)) ||
            (s->draw_dest == OMG_D_HAND && s->row_suns) || (s->draw_dest == OMG_D_GOOD && s->row_suns > 7))
            BAD("draw");
        if (s->draw_dest == OMG_D_GOOD && !producing_slot(d, s, s->draw_player, s->draw_slot)) BAD("goods drawn onto an office");
        /* each stage draws for one purpose: who draws, where and how many follow from it */
        int who = s->idx < n ? order(g, s, s->idx) : -1, ok;
        switch (s->stage) {
        case OMG_ST_DEAL:
            ok = s->idx < n ? s->draw_dest == OMG_D_HAND && s->draw_player == who && s->draw_left <= 5
                            : s->idx < 2 * n && s->draw_dest == OMG_D_GOOD && s->draw_slot == 0 &&
                                  s->draw_player == order(g, s, s->idx - n) && s->draw_left + s->row_suns == 7;
            break;
        case OMG_ST_P1_DRAW:
            ok = who >= 0 && s->draw_dest == OMG_D_HAND && s->draw_player == who;
            break;
        case OMG_ST_SUNRISE:
        case OMG_ST_SUNSET:
            ok = s->draw_dest == OMG_D_MARKET && s->draw_left == NONE8 &&
                 s->draw_player == (s->stage == OMG_ST_SUNRISE ? 1 : 2);
            break;
        case OMG_ST_P4_PRODUCE:
            ok = who >= 0 && s->draw_dest == OMG_D_GOOD && s->draw_player == who &&
                 ((s->tried[who] >> s->draw_slot) & 1) && !((s->produced[who] >> s->draw_slot) & 1) &&
                 s->draw_left + s->row_suns <= 2;
            break;
        default:
            ok = 0;
        }
        if (!ok) BAD("a draw that does not belong to this stage");
    }
    if (s->sub == OMG_SUB_EXHAUST && (s->exhaust_idx > n)) BAD("exhaustion");
    if (s->idx > (s->stage == OMG_ST_SIDE ? OMG_NASSIST : 2 * n)) BAD("turn index");
    if (s->stage == OMG_ST_P2_COMMIT && (s->p2_step > 3 || s->p2_asst > OMG_NASSIST)) BAD("planning step");
    if (s->stage == OMG_ST_P2_COMMIT && s->p2_step == 0 && s->p2_asst < OMG_NASSIST && s->idx < n &&
        s->asst_owner[s->p2_asst] >= 0 && s->asst_owner[s->p2_asst] != order(g, s, s->idx))
        BAD("planning another player's assistant");
    /* per-round bookkeeping exists only in the stages that use it */
    {
        int st = s->stage, sub = s->sub, in_p4 = st == OMG_ST_P4_PRODUCE || st == OMG_ST_P4_BUILD;
        int setup = st < OMG_ST_P1_COMMIT;
        if (setup != (s->round == 0) && st != OMG_ST_OVER) BAD("round does not match the stage");
        if (st == OMG_ST_FINAL && !s->end_triggered) BAD("final round without an end trigger");
        if (s->final_full && !s->end_triggered) BAD("full final round without an end trigger");
        for (int p = 0; p < n; p++) {
            int turn = (p - s->start + n) % n;
            int exhaust_ok = sub == OMG_SUB_EXHAUST && turn <= s->exhaust_idx;
            if ((s->pending[p][0] | s->pending[p][1]) && !exhaust_ok && !(st == OMG_ST_P1_COMMIT && turn <= s->idx))
                BAD("a redraw choice outside phase I");
            int p2 = (st == OMG_ST_P2_COMMIT && turn <= s->idx) || (st == OMG_ST_P2_REVEAL && turn >= s->idx);
            if (holds_phase2_choices(s, p) && !p2) BAD("a phase II choice outside phase II");
            int revealed = turn < s->idx || (turn == s->idx && sub == OMG_SUB_TAKE);   /* being revealed */
            int placed = (st == OMG_ST_P2_REVEAL && revealed) || st == OMG_ST_SUNSET || in_p4;
            if (s->worker_slot[p] >= 0 && !placed) BAD("a worker outside the round's production");
            if (s->aside[p] >= 0 && !(placed && !(in_p4 && turn < s->idx))) BAD("a set-aside card at the wrong time");
            if ((s->tried[p] || s->produced[p]) && !(in_p4 && turn <= s->idx) &&
                !(st == OMG_ST_P4_PRODUCE && s->final_full))
                BAD("production marks outside phase IV");
        }
        for (int c = 0; c < OMG_NCARDS; c++) {
            if (s->loc[c] == OMG_L_MARKET1 && !(st >= OMG_ST_SUNRISE && st <= OMG_ST_P4_BUILD)) BAD("a market card outside the market phases");
            if (s->loc[c] == OMG_L_MARKET2 && !(st == OMG_ST_SUNSET || in_p4)) BAD("a sunset card before sunset");
        }
        if (sub == OMG_SUB_PAY && (s->pay_for == OMG_PAY_MOVE ? st != OMG_ST_P2_COMMIT || s->p2_step != 0 : st != OMG_ST_P4_BUILD))
            BAD("a payment in the wrong stage");
        if (sub == OMG_SUB_TAKE &&
            !((s->take_after == TAKE_AFTER_REVEAL && st == OMG_ST_P2_REVEAL) ||
              ((s->take_after == TAKE_AFTER_BUILD || s->take_after == TAKE_AFTER_HIRE) && st == OMG_ST_P4_BUILD) ||
              (s->take_after == TAKE_AFTER_CHAIN && (st == OMG_ST_P4_PRODUCE || st == OMG_ST_FINAL))))
            BAD("goods leaving a slot in the wrong stage");
        if (sub != OMG_SUB_NONE && (setup ? st != OMG_ST_DEAL || (sub != OMG_SUB_DRAW && sub != OMG_SUB_EXHAUST) : st == OMG_ST_OVER))
            BAD("a sub-step in the wrong stage");
    }
    /* the control fields agree with each other */
    {
        int st = s->stage, cur = s->idx < n ? order(g, s, s->idx) : -1;
        if (st == OMG_ST_P2_COMMIT && cur >= 0) {
            if (s->p2_step == 0) {
                if (s->p2_asst >= OMG_NASSIST || s->asst_owner[s->p2_asst] != cur) BAD("planning an assistant not the planner's");
                for (int a = s->p2_asst; a < OMG_NASSIST; a++)
                    if (s->asst_owner[a] == cur && s->pend_move[a] >= 0 && !(a == s->p2_asst && s->sub == OMG_SUB_PAY))
                        BAD("an assistant moved before its turn in planning");
            } else if (s->p2_asst != OMG_NASSIST) {
                BAD("planning position");
            }
            if (s->p2_step < 2 && s->pend_aside[cur] >= 0) BAD("set aside before placing the worker");
            if (s->p2_step < 1 && s->pend_worker[cur] >= 0) BAD("worker placed before the assistants");
        } else if (s->p2_step || s->p2_asst) {
            BAD("planning position outside planning");
        }
        if (s->sub == OMG_SUB_PAY) {
            int a = s->pay_arg >> 4, k = s->pay_arg & 15, p = s->pay_player;
            if (p != cur || s->actor != cur) BAD("a payment by a player whose turn it is not");
            if (s->pay_for == OMG_PAY_MOVE && (s->pay_arg != s->p2_asst || s->pend_move[s->p2_asst] < 0 || s->pay_cost != OMG_MOVE_COST))
                BAD("an assistant-move payment");
            if (s->pay_for == OMG_PAY_BUILD && (s->aside[p] < 0 || s->pay_cost != d->card[s->aside[p]].cost)) BAD("a build payment");
            if (s->pay_for == OMG_PAY_HIRE &&
                (s->asst_owner[a] != -1 || assistants_of(s, p) >= OMG_MAX_ASSISTANTS || s->charburner[p] < 0 ||
                 !producing_slot(d, s, p, k) || !((hire_targets(g, s, p) >> k) & 1) ||
                 s->pay_cost != d->asst_cost[a][s->asst_side[a]]))
                BAD("a hiring payment");
        }
        if (s->sub == OMG_SUB_TAKE) {
            if (s->take_player != cur) BAD("goods leaving the slots of a player whose turn it is not");
            if (st == OMG_ST_P4_BUILD && s->pay_for != (s->take_after == TAKE_AFTER_BUILD ? OMG_PAY_BUILD : OMG_PAY_HIRE))
                BAD("a payment's goods leaving for another purpose");
            if (s->take_after == TAKE_AFTER_HIRE) {
                int a = s->pay_arg >> 4, k = s->pay_arg & 15;
                /* hire_targets reads every slot: the Charburner must be dealt first */
                if (s->asst_owner[a] != -1 || assistants_of(s, cur) >= OMG_MAX_ASSISTANTS || s->charburner[cur] < 0 ||
                    !producing_slot(d, s, cur, k) || !((hire_targets(g, s, cur) >> k) & 1))
                    BAD("a hire that cannot happen");
            }
            if (s->take_after == TAKE_AFTER_REVEAL) {
                if (holds_phase2_choices(s, cur)) BAD("a reveal still holding choices");
            }
        }
    }
    /* sub-machine bookkeeping is what its own steps would have written */
    {
        int cur = s->idx < n ? order(g, s, s->idx) : -1;
        for (int p = 0; p < n; p++) {   /* one person per building, pending moves included */
            uint32_t seen_slots = 0;
            for (int a = 0; a < OMG_NASSIST; a++) {
                if (s->asst_owner[a] != p) continue;
                int k = asst_at(s, a, 1);
                if ((seen_slots >> k) & 1) BAD("two assistants planned onto one building");
                seen_slots |= BIT(k);
            }
            if (s->pend_worker[p] >= 0 && ((seen_slots >> s->pend_worker[p]) & 1)) BAD("worker planned onto an assistant's building");
            uint32_t active = assistant_slots(s, p, 0) | (s->worker_slot[p] >= 0 ? BIT(s->worker_slot[p]) : 0);
            if (s->tried[p] & ~active) BAD("production on a building nobody works");
        }
        if (s->sub == OMG_SUB_SUPPLY) {
            int k = s->sup_slot, ws = s->worker_slot[cur];
            const omg_building *b = slot_building(d, s, cur, k);
            if (!((s->tried[cur] >> k) & 1) || ((s->produced[cur] >> k) & 1)) BAD("supplying a building not being produced");
            if (s->sup_any != (b->input_any != 0) || s->sup_goods != (k == ws && s->worker_exact[cur] ? 2 : 1))
                BAD("supply bookkeeping");
            if (s->sup_any ? s->sup_need[0] > b->input_any || hand_size(s, cur) < s->sup_need[0] : s->sup_need[0] != 0)
                BAD("supply need");
            for (int r = 1; r <= OMG_NRES; r++)
                if (s->sup_need[r] > b->input[r] || hand_of_resource(d, s, cur, r) < s->sup_need[r]) BAD("supply need");
            if (s->sup_last != NONE8 && (s->loc[s->sup_last] != OMG_L_DISCARD ||
                                         (!s->sup_any && !s->sup_need[d->card[s->sup_last].resource])))
                BAD("supply position");
        }
        if (s->sub == OMG_SUB_PAY) {
            int p = s->pay_player, total = 0, minv = INF_VALUE;
            for (int k = 0; k < OMG_SLOTS; k++) {
                int c = s->pay_counts[k];
                if (k >= s->pay_slot ? c != 0 : c > s->goods_n[p][k] - s->reserved[p][k]) BAD("payment counts");
                if (!c) continue;
                int v = slot_value(d, s, p, k);
                total += c * v;
                if (v < minv) minv = v;
            }
            if (total != s->pay_total || minv != s->pay_min) BAD("payment totals");
        }
        if (s->sub == OMG_SUB_TAKE && s->take_dest_slot != NONE8) {
            const omg_building *b = slot_building(d, s, s->take_player, s->take_dest_slot);
            if (b->office >= 0 || !b->chain_n) BAD("goods moving onto a building without a chain");
        }
    }
    /* the actor must be the one the flow says */
    omg_state t;
    memcpy(&t, s, sizeof t);
    int expected_node = !step(g, &t);
    if (!expected_node) BAD("state is between nodes");
    if (t.actor != s->actor) BAD("wrong player to act");
    return ES_OK;
}

/* ---------------------------------------------------------------- observation */

static int omg_observation_size(const es_game *g) {
    int n = g->players;
    return OMG_NCARDS * (6 + 2 * n) + n * (4 + 3 * OMG_SLOTS + 2) + OMG_NASSIST * (n + 4) + OMG_NSTAGES + 6 + 2 * n + 6;
}

/* The vector reads the state as omg_redact would show it to `viewer`, without building that
 * copy (the learned evaluation calls this at every MCTS leaf): an unseen card is "somewhere
 * hidden" (loc 255), and an opponent's phase being committed hides its sub-step and payment.
 * The vector is mostly zeros: clear it, then set the few ones. */
static int observe_impl(const es_game *g, const omg_state *s, int viewer, float *out) {
    const omg_data *d = DATA(g);
    int n = g->players, i = 0, width = 6 + 2 * n;
    int hidden_commit = s->actor >= 0 && s->actor != viewer && committing(s);
    int rel[OMG_MAXP];   /* seat relative to the viewer */
    for (int q = 0; q < n; q++) rel[q] = (q - viewer + n) % n;
    memset(out, 0, sizeof(float) * (size_t)(OMG_NCARDS * width));
    for (int c = 0; c < OMG_NCARDS; c++, i += width) {
        float *row = out + i;
        int l = (s->seen[c] >> viewer) & 1 ? s->loc[c] : 255;
        if (l == OMG_L_HAND + viewer) row[0] = 1;
        if (l == OMG_L_ASIDE + viewer || s->pend_aside[viewer] == c) row[1] = 1;
        if (l == OMG_L_MARKET1 || l == OMG_L_MARKET2) row[2] = 1;
        if (l == OMG_L_DISCARD) row[3] = 1;
        if (l == OMG_L_DECK) row[4] = 1;
        if (es_bits128_test(s->pending[viewer], c)) row[5] = 1;
        if (l >= OMG_L_BUILT && l < OMG_L_BUILT + n) row[6 + 2 * rel[l - OMG_L_BUILT]] = 1;
        if (l >= OMG_L_GOOD && l < OMG_L_GOOD + n * OMG_SLOTS) row[7 + 2 * rel[(l - OMG_L_GOOD) / OMG_SLOTS]] = 1;
    }
#define PUT(x) (out[i++] = (float)(x))
    for (int r = 0; r < n; r++) {
        int q = (viewer + r) % n;
        PUT(hand_size(s, q) / 10.0);
        PUT(s->aside[q] >= 0);
        PUT(gold(d, s, q) / 20.0);
        PUT(score(d, s, q) / 30.0);
        for (int k = 0; k < OMG_SLOTS; k++) {
            PUT(s->goods_n[q][k] / 10.0);
            PUT(s->worker_slot[q] == k ? (s->worker_exact[q] ? 1.0 : 0.5) : 0.0);
            PUT(((s->produced[q] >> k) & 1) + ((s->tried[q] >> k) & 1) * 0.5);
        }
        PUT(s->n_slots[q] / 10.0);
        PUT(assistants_of(s, q) / 2.0);
    }
    for (int a = 0; a < OMG_NASSIST; a++) {
        for (int r = 0; r < n; r++) PUT(s->asst_owner[a] == (viewer + r) % n);
        PUT(s->asst_owner[a] == -1);
        PUT(s->asst_side[a]);
        PUT((s->asst_slot[a] + 1) / 10.0);
        PUT((asst_at(s, a, s->asst_owner[a] == viewer) + 1) / 10.0);
    }
    for (int st = 1; st <= OMG_NSTAGES; st++) PUT(s->stage == st);
    PUT((hidden_commit && s->sub == OMG_SUB_PAY ? OMG_SUB_NONE : s->sub) / 5.0);
    PUT(s->round / 20.0);
    PUT(es_bits128_count(s->deck) / 94.0);
    PUT(es_bits128_count(s->discard) / 94.0);
    PUT(s->end_triggered);
    PUT(s->final_full);
    for (int r = 0; r < n; r++) PUT(s->actor == (viewer + r) % n);
    for (int r = 0; r < n; r++) PUT(s->start == (viewer + r) % n);
    PUT((s->pend_worker[viewer] + 1) / 10.0);
    PUT(s->pend_exact[viewer]);
    PUT(hidden_commit ? 0 : s->p2_step / 3.0);
    PUT(hidden_commit ? 0 : s->pay_total / 20.0);
    PUT(hidden_commit ? 0 : s->pay_cost / 20.0);
    PUT(s->row_suns / 2.0);
#undef PUT
    return i;
}

static void omg_observe(const es_game *g, const void *vs, int player, float *out) {
    observe_impl(g, (const omg_state *)vs, player, out);
}

/* ---------------------------------------------------------------- text */

static const char *const RES_NAME[OMG_NRES + 1] = {"any", "grain", "wood", "clay", "stone", "wool"};

static void chain_input_text(const omg_data *d, es_text *t, int in) {
    if (in == CH_NONE) return;
    if (in >= CH_GOOD) es_text_add(t, " slot%d", in - CH_GOOD);
    else if (in < OMG_NCARDS) es_text_add(t, " %s", d->card_id[in]);
    else es_text_add(t, " ?");
}

static const char *card_name(const omg_data *d, int c) { return c < OMG_NCARDS ? d->card_id[c] : "?"; }

static int omg_move_to_str(const es_game *g, const void *vs, es_move m, char *buf, size_t cap) {
    const omg_data *d = DATA(g);
    (void)vs;
    es_text t = es_text_make(buf, cap);
    int c = MV_ARG(m, 5, 7);
    switch (MV_TYPE(m)) {
    case OMG_M_REDRAW:
        if (c == 127) es_text_add(&t, "redraw done");
        else if (c == 126) es_text_add(&t, "redraw all");
        else es_text_add(&t, "redraw %s", card_name(d, c));
        break;
    case OMG_M_HALVE: es_text_add(&t, "halve %s", card_name(d, c)); break;
    case OMG_M_MOVE:
        if (MV_ARG(m, 8, 4) == 15) es_text_add(&t, "keep %s", d->asst_id[MV_ARG(m, 5, 3)]);
        else es_text_add(&t, "move %s slot%d", d->asst_id[MV_ARG(m, 5, 3)], MV_ARG(m, 8, 4));
        break;
    case OMG_M_WORKER: es_text_add(&t, "worker slot%d %s", MV_ARG(m, 5, 4), MV_ARG(m, 9, 1) ? "exact" : "short"); break;
    case OMG_M_ASIDE:
        if (c == 127) es_text_add(&t, "aside none");
        else es_text_add(&t, "aside %s", card_name(d, c));
        break;
    case OMG_M_PAY: es_text_add(&t, "pay %d", MV_ARG(m, 5, 5)); break;
    case OMG_M_PRODUCE:
        es_text_add(&t, "produce slot%d", MV_ARG(m, 5, 4));
        if (MV_ARG(m, 9, 3)) es_text_add(&t, " omit %s", RES_NAME[MV_ARG(m, 9, 3) % (OMG_NRES + 1)]);
        break;
    case OMG_M_SUPPLY: es_text_add(&t, "supply %s", card_name(d, c)); break;
    case OMG_M_CHAIN:
        es_text_add(&t, "chain slot%d", MV_ARG(m, 5, 4));
        chain_input_text(d, &t, MV_ARG(m, 9, 7));
        chain_input_text(d, &t, MV_ARG(m, 16, 7));
        break;
    case OMG_M_END_PRODUCTION: es_text_add(&t, "end production"); break;
    case OMG_M_BUILD: es_text_add(&t, "build"); break;
    case OMG_M_HIRE: es_text_add(&t, "hire %s slot%d", d->asst_id[MV_ARG(m, 5, 3)], MV_ARG(m, 8, 4)); break;
    case OMG_M_PASS: es_text_add(&t, "pass"); break;
    case OMG_M_END_CHAINS: es_text_add(&t, "end chains"); break;
    case OMG_M_DRAW: es_text_add(&t, "draw %s", card_name(d, c)); break;
    case OMG_M_TAKE: es_text_add(&t, "take %s", card_name(d, c)); break;
    case OMG_M_CHARBURNER: es_text_add(&t, "charburner %s", d->cb_id[MV_ARG(m, 5, 2)]); break;
    case OMG_M_DISPLAY: es_text_add(&t, "display %s", d->asst_id[MV_ARG(m, 5, 3)]); break;
    case OMG_M_SIDE: es_text_add(&t, "side %d", MV_ARG(m, 5, 1)); break;
    case OMG_M_START: es_text_add(&t, "start P%d", MV_ARG(m, 5, 2)); break;
    default: es_text_add(&t, "invalid move %d", (int)m);
    }
    return es_text_result(&t);
}

static const char *const STAGE_NAME[OMG_NSTAGES + 1] = {
    "?", "charburners", "assistant display", "assistant sides", "start player", "deal",
    "phase I redraw", "phase I draws", "sunrise", "phase II planning", "phase II reveal",
    "sunset", "production", "build or hire", "final round", "game over"};

/* The text of s, a state or a viewer's redacted view of `real`: cards are named from s (a view
 * names only the cards its viewer knows), the sizes of hands and piles come from real. */
static int render_impl(const es_game *g, const omg_state *s, const omg_state *real, char *buf, size_t cap) {
    const omg_data *d = DATA(g);
    es_text t = es_text_make(buf, cap);
    es_text_add(&t, "Oh My Goods!, %d players, round %d, %s", g->players, s->round, STAGE_NAME[s->stage % (OMG_NSTAGES + 1)]);
    if (s->actor >= 0) es_text_add(&t, " (P%d to act)", s->actor);
    es_text_add(&t, "\nmarket:");
    for (int c = 0; c < OMG_NCARDS; c++)
        if (s->loc[c] == OMG_L_MARKET1 || s->loc[c] == OMG_L_MARKET2)
            es_text_add(&t, " %s(%s%s)", d->card_id[c], RES_NAME[d->card[c].resource], d->card[c].sun ? "*" : "");
    es_text_add(&t, "\ndraw pile %d, discard %d\n", es_bits128_count(real->deck), es_bits128_count(real->discard));
    for (int p = 0; p < g->players; p++) {
        es_text_add(&t, "P%d%s vp %d gold %d hand %d:", p, s->start == p ? "*" : " ", s->charburner[p] >= 0 ? score(d, s, p) : 0,
                    gold(d, s, p), hand_size(real, p));
        int shown = 0;
        for (int c = 0; c < OMG_NCARDS; c++)
            if (s->loc[c] == OMG_L_HAND + p) es_text_add(&t, " %s", d->card_id[c]), shown++;
        if (shown < hand_size(real, p)) es_text_add(&t, " +%d hidden", hand_size(real, p) - shown);
        es_text_add(&t, "\n   buildings:");
        for (int k = 0; k < s->n_slots[p]; k++) {
            if (k == 0) es_text_add(&t, " [0 %s", s->charburner[p] >= 0 ? d->cb_id[s->charburner[p]] : "-");
            else es_text_add(&t, " [%d %s", k, d->card_id[s->slot_card[p][k]]);
            es_text_add(&t, " x%d", s->goods_n[p][k]);
            if (s->worker_slot[p] == k) es_text_add(&t, " worker-%s", s->worker_exact[p] ? "exact" : "short");
            for (int a = 0; a < OMG_NASSIST; a++)
                if (s->asst_owner[a] == p && s->asst_slot[a] == k) es_text_add(&t, " %s", d->asst_id[a]);
            es_text_add(&t, "]");
        }
        es_text_add(&t, "\n");
    }
    es_text_add(&t, "assistants on display:");
    for (int a = 0; a < OMG_NASSIST; a++)
        if (s->asst_owner[a] == -1) es_text_add(&t, " %s(side %d)", d->asst_id[a], s->asst_side[a]);
    es_text_add(&t, "\n");
    return es_text_result(&t);
}

static int omg_render(const es_game *g, const void *vs, char *buf, size_t cap) {
    return render_impl(g, (const omg_state *)vs, (const omg_state *)vs, buf, cap);
}

static int omg_render_view(const es_game *g, const void *view, const void *real, char *buf, size_t cap) {
    return render_impl(g, (const omg_state *)view, (const omg_state *)real, buf, cap);
}

/* ---------------------------------------------------------------- reflection and definition */

#define F1(name, type) ES_FIELD(omg_state, name, type)
#define FA(name, type, n) ES_ARRAY(omg_state, name, type, n)
#define F2(name, type, a, b) ES_ARRAY2(omg_state, name, type, a, b)
#define K1(name, type, kind, names) ES_FIELD_K(omg_state, name, type, kind, names)
#define KA(name, type, n, kind, names) ES_ARRAY_K(omg_state, name, type, n, kind, names)
#define K2(name, type, a, b, kind, names) ES_ARRAY2_K(omg_state, name, type, a, b, kind, names)
/* The data's names (omg_data): deck cards, Charburners, assistants. */
static const es_name_table omg_card_names = ES_NAMES("cards", omg_data, card_id, ES_NAME_BYTES, OMG_NCARDS);
static const es_name_table omg_cb_names = ES_NAMES("charburners", omg_data, cb_id, ES_NAME_BYTES, OMG_NCB);
static const es_name_table omg_asst_names = ES_NAMES("assistants", omg_data, asst_id, ES_NAME_BYTES, OMG_NASSIST);

/* Field kinds (es_field_kind): card sets (two words each) and cards by the data's ids, per-card and
 * per-assistant arrays by name, seats and "none" (-1 / 255) as null. */
static const es_field_desc omg_fields[] = {
    KA(deck, ES_U64, 2, ES_K_ITEMSET_ROW, &omg_card_names), KA(discard, ES_U64, 2, ES_K_ITEMSET_ROW, &omg_card_names),
    KA(market, ES_U64, 2, ES_K_ITEMSET_ROW, &omg_card_names),
    K2(hand, ES_U64, OMG_MAXP, 2, ES_K_ITEMSET_ROW, &omg_card_names),
    K2(pending, ES_U64, OMG_MAXP, 2, ES_K_ITEMSET_ROW, &omg_card_names),
    FA(produced, ES_U16, OMG_MAXP), FA(tried, ES_U16, OMG_MAXP),
    KA(loc, ES_U8, OMG_NCARDS, ES_K_PER_ITEM, &omg_card_names), KA(seen, ES_U8, OMG_NCARDS, ES_K_PER_ITEM, &omg_card_names),
    F2(goods_n, ES_U8, OMG_MAXP, OMG_SLOTS), K2(slot_card, ES_I8, OMG_MAXP, OMG_SLOTS, ES_K_ITEM, &omg_card_names),
    FA(n_slots, ES_U8, OMG_MAXP), KA(charburner, ES_I8, OMG_MAXP, ES_K_ITEM, &omg_cb_names),
    KA(asst_owner, ES_I8, OMG_NASSIST, ES_K_PER_ITEM, &omg_asst_names),
    KA(asst_side, ES_U8, OMG_NASSIST, ES_K_PER_ITEM, &omg_asst_names),
    KA(asst_slot, ES_I8, OMG_NASSIST, ES_K_PER_ITEM, &omg_asst_names),
    KA(worker_slot, ES_I8, OMG_MAXP, ES_K_OPT, NULL), KA(worker_exact, ES_U8, OMG_MAXP, ES_K_BOOL, NULL),
    KA(aside, ES_I8, OMG_MAXP, ES_K_ITEM, &omg_card_names),
    KA(pend_move, ES_I8, OMG_NASSIST, ES_K_PER_ITEM, &omg_asst_names), KA(pend_worker, ES_I8, OMG_MAXP, ES_K_OPT, NULL),
    KA(pend_exact, ES_U8, OMG_MAXP, ES_K_BOOL, NULL), KA(pend_aside, ES_I8, OMG_MAXP, ES_K_ITEM, &omg_card_names),
    F2(reserved, ES_U8, OMG_MAXP, OMG_SLOTS),
    F1(stage, ES_U8), F1(sub, ES_U8), F1(round, ES_U8), K1(start, ES_U8, ES_K_SEAT, NULL), K1(actor, ES_I8, ES_K_SEAT, NULL),
    F1(idx, ES_U8), F1(p2_step, ES_U8), F1(p2_asst, ES_U8), K1(end_triggered, ES_U8, ES_K_BOOL, NULL),
    K1(final_full, ES_U8, ES_K_BOOL, NULL), FA(extra_cards, ES_U8, OMG_MAXP), FA(redraw_n, ES_U8, OMG_MAXP),
    F1(draw_dest, ES_U8), F1(draw_player, ES_U8), F1(draw_slot, ES_U8), F1(draw_left, ES_U8),
    F1(row_suns, ES_U8), F1(exhaust_idx, ES_U8), F1(exhaust_left, ES_U8),
    F1(pay_for, ES_U8), F1(pay_arg, ES_U8), F1(pay_cost, ES_U8), F1(pay_total, ES_U8), F1(pay_min, ES_U8),
    F1(pay_slot, ES_U8), K1(pay_player, ES_U8, ES_K_SEAT, NULL), FA(pay_counts, ES_U8, OMG_SLOTS),
    FA(take_left, ES_U8, OMG_SLOTS), K1(take_player, ES_U8, ES_K_SEAT, NULL), F1(take_dest_slot, ES_U8),
    F1(take_after, ES_U8), F1(sup_slot, ES_U8), F1(sup_any, ES_U8), F1(sup_goods, ES_U8), F1(sup_last, ES_U8),
    FA(sup_need, ES_U8, OMG_NRES + 1), F1(chain_in1, ES_U8), K1(deck_known, ES_U8, ES_K_SEATSET, NULL),
    KA(spare, ES_U8, 4, ES_K_PAD, NULL),
};

static const int32_t omg_default_options[OMG_NOPTIONS] = {-1, 0, 0, 0, 1, 60};

/* Dense action space (docs/oh_my_goods_engine.md, "Move ids"): decision move types and their parameter bits. */
static const es_move_kind omg_move_kinds[] = {
    {1, 1, {{5, 7}}},   /* REDRAW */
    {2, 1, {{5, 7}}},   /* HALVE */
    {3, 1, {{5, 7}}},   /* MOVE */
    {4, 1, {{5, 5}}},   /* WORKER */
    {5, 1, {{5, 7}}},   /* SET_ASIDE */
    {6, 1, {{5, 5}}},   /* PAY */
    {7, 1, {{5, 7}}},   /* PRODUCE */
    {8, 1, {{5, 7}}},   /* SUPPLY */
    {9, 1, {{5, 18}}},   /* CHAIN */
    {10, 0, {{0, 0}}},   /* END_PRODUCTION */
    {11, 0, {{0, 0}}},   /* BUILD */
    {12, 1, {{5, 7}}},   /* HIRE */
    {13, 0, {{0, 0}}},   /* PASS */
    {14, 0, {{0, 0}}},   /* END_CHAINS */
};

/* The slices of observe_impl's vector; seats relative to the viewer. cards row (per deck
 * card): in my hand, set aside, market, discard, deck, pending; then built / good per seat. */
static int omg_observation_layout(const es_game *g, es_obs_slice *out, int cap) {
    int n = g->players;
    es_obs_builder b = es_obs_begin(out, cap);
    es_obs_add(&b, "cards", OMG_NCARDS, 6 + 2 * n);
    es_obs_add(&b, "seats", n, 4 + 3 * OMG_SLOTS + 2);   /* hand, aside, gold, score, slots, ... */
    es_obs_add(&b, "assistants", OMG_NASSIST, n + 4);   /* owner, free, side, slot, at */
    es_obs_add(&b, "stage", OMG_NSTAGES, 0);
    es_obs_add(&b, "progress", 6, 0);     /* sub, round, deck, discard, end triggered, final */
    es_obs_add(&b, "actor", n, 0);
    es_obs_add(&b, "start", n, 0);
    es_obs_add(&b, "pending", 6, 0);      /* worker, exact, p2 step, pay total, pay cost, suns */
    return b.n;
}

const es_game_def es_oh_my_goods_def = {
    .name = "oh_my_goods",
    .min_players = 2,
    .max_players = OMG_MAXP,
    .state_size = sizeof(omg_state),
    .max_moves = OMG_MAX_MOVES,
    .max_chance_outcomes = OMG_MAX_CHANCE,
    .n_options = OMG_NOPTIONS,
    .default_options = omg_default_options,
    .setup = omg_setup,
    .observation_size = omg_observation_size,
    .init = omg_init,
    .current_player = omg_current_player,
    .legal_moves = omg_legal_moves,
    .is_legal = omg_is_legal,
    .random_move = omg_random_move,
    .random_play = omg_random_play,
    .chance_outcomes = omg_chance_outcomes,
    .sample_chance = omg_sample_chance,
    .apply = omg_apply,
    .scores = omg_scores,
    .returns = omg_returns,
    .determinize = omg_determinize,
    .validate = omg_validate,
    .observe = omg_observe,
    .move_to_str = omg_move_to_str,
    .render = omg_render,
    .render_view = omg_render_view,
    .redact = omg_redact,
    .move_view = omg_move_view,
    .evaluate = omg_evaluate,
    .fields = omg_fields,
    .n_fields = (int)(sizeof omg_fields / sizeof omg_fields[0]),
    .move_type_bits = 5,
    .move_kinds = omg_move_kinds,
    .n_move_kinds = (int)(sizeof omg_move_kinds / sizeof omg_move_kinds[0]),
    .observation_layout = omg_observation_layout,
};
