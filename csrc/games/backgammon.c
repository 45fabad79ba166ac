/* Backgammon (calibration game): rules of OpenSpiel's "backgammon", see backgammon.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backgammon.h"
#include "../core/bitset.h"
#include "../core/obslayout.h"
#include "../core/rng.h"
#include "../core/table.h"
#include "../core/text.h"

_Static_assert(sizeof(bg_state) == 64, "the state is 64 bytes, no padding");

#define DATA(g) ((const bg_data *)(g)->data)
#define PLAY(f1, f2, hi) ((es_move)(BG_M_PLAY | (f1) << 2 | (f2) << 7 | (hi) << 12))
#define M_TYPE(m) ((int)((m) & 3))
#define M_FROM1(m) ((int)(((m) >> 2) & 31))
#define M_FROM2(m) ((int)(((m) >> 7) & 31))
#define M_HI(m) ((int)(((m) >> 12) & 1))
#define M_LOW(m) ((int)(((m) >> 2) & 7))
#define M_HIGH(m) ((int)(((m) >> 5) & 7))
#define M_STARTER(m) ((int)(((m) >> 8) & 1))
#define IN(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

/* ---------------------------------------------------------------- setup */

static int bg_setup(es_game *g, const int32_t *t, size_t len, char *err, size_t errlen) {
    if (!t || len != BG_TABLE_LEN)
        return es_setup_error(err, errlen, "backgammon data: the table has %zu entries, expected %d", len, BG_TABLE_LEN);
    if (t[0] != BG_TABLE_VERSION)
        return es_setup_error(err, errlen, "backgammon data: table version %d, expected %d", t[0], BG_TABLE_VERSION);
    if (t[1] != BG_CHECKERS)
        return es_setup_error(err, errlen, "backgammon data: board.checkers is %d, the engine plays %d", t[1], BG_CHECKERS);
    int sum = 0;
    for (int i = 0; i < BG_POINTS; i++) {
        if (!IN(t[2 + i], 0, BG_CHECKERS))
            return es_setup_error(err, errlen, "backgammon data: board.start: point %d holds %d checkers", i, t[2 + i]);
        sum += t[2 + i];
    }
    if (sum != BG_CHECKERS)
        return es_setup_error(err, errlen, "backgammon data: board.start places %d checkers, expected %d", sum, BG_CHECKERS);
    for (int i = 0; i < BG_POINTS; i++)
        if (t[2 + i] && t[2 + (BG_POINTS - 1 - i)])
            return es_setup_error(err, errlen, "backgammon data: board.start: point %d is held by both players", i);
    if (!IN(g->options[BG_OPT_MAX_TURNS], 1, 60000))
        return es_setup_error(err, errlen, "backgammon option max_turns must be 1..60000");
    bg_data *d = calloc(1, sizeof *d);
    if (!d) return es_setup_error(err, errlen, "backgammon: out of memory");
    d->checkers = t[1];
    for (int i = 0; i < BG_POINTS; i++) d->start[i] = (uint8_t)t[2 + i];
    g->data = d;
    return ES_OK;
}

static void bg_init(const es_game *g, void *vs) {
    bg_state *s = (bg_state *)vs;
    memset(s, 0, sizeof *s);
    for (int i = 0; i < BG_POINTS; i++) {
        s->board[0][i] = DATA(g)->start[i];
        s->board[1][BG_POINTS - 1 - i] = DATA(g)->start[i];
    }
    s->phase = BG_PH_START;
}

static int bg_current_player(const es_game *g, const void *vs) {
    (void)g;
    const bg_state *s = (const bg_state *)vs;
    if (s->phase == BG_PH_OVER) return ES_TERMINAL;
    return s->phase == BG_PH_MOVE ? s->player : ES_CHANCE;
}

/* ---------------------------------------------------------------- checker steps */

/* Where a step of d pips from `from` lands for player p: a point, or -1 for borne off. */
static inline int dest(int p, int from, int d) {
    int to;
    if (from == BG_BAR) to = p == 0 ? d - 1 : BG_POINTS - d;
    else to = p == 0 ? from + d : from - d;
    return IN(to, 0, BG_POINTS - 1) ? to : -1;
}

/* 1 if all of p's checkers are in the home board (none on the bar, none on the 18 points
 * outside it, read 8 + 8 + 2 bytes at a time). */
static int all_home(const bg_state *s, int p) {
    const uint8_t *out = s->board[p] + (p == 0 ? 0 : 6);
    uint64_t a, b;
    uint16_t c;
    memcpy(&a, out, 8);
    memcpy(&b, out + 8, 8);
    memcpy(&c, out + 16, 2);
    return !s->bar[p] && !(a | b | c);
}

/* The furthest-back point of p's checkers (call only when all are home), or -1. */
static int furthest_home(const bg_state *s, int p) {
    if (p == 0) {
        for (int i = 18; i < BG_POINTS; i++) if (s->board[0][i]) return i;
    } else {
        for (int i = 5; i >= 0; i--) if (s->board[1][i]) return i;
    }
    return -1;
}

/* Is the step (from, d) legal for p now? A checker on the bar must enter first; bearing off
 * needs all checkers home and either the exact count or no checker further back. */
static int step_legal(const bg_state *s, int p, int from, int d, int home, int furthest) {
    int q = 1 - p;
    if (from == BG_BAR) return s->bar[p] && s->board[q][dest(p, BG_BAR, d)] <= 1;
    if (s->bar[p] || !s->board[p][from]) return 0;
    int to = dest(p, from, d);
    if (to >= 0) return s->board[q][to] <= 1;
    if (!home) return 0;
    int exact = p == 0 ? from + d == BG_POINTS : from - d == -1;
    return exact || from == furthest;
}

/* Play the step (hitting a lone opposing checker). */
static inline void step_apply(bg_state *s, int p, int from, int d) {
    int to = dest(p, from, d), q = 1 - p;
    if (from == BG_BAR) s->bar[p]--;
    else s->board[p][from]--;
    if (to < 0) { s->off[p]++; return; }
    if (s->board[q][to] == 1) { s->board[q][to] = 0; s->bar[q]++; }
    s->board[p][to]++;
}

/* The legal single steps for p with the dice in dv (n distinct values), as from * 8 + d. */
static int single_steps(const bg_state *s, int p, const int *dv, int n, int *out) {
    int k = 0;
    if (s->bar[p]) {
        for (int j = 0; j < n; j++)
            if (step_legal(s, p, BG_BAR, dv[j], 0, -1)) out[k++] = BG_BAR * 8 + dv[j];
        return k;
    }
    int home = all_home(s, p), furthest = home ? furthest_home(s, p) : -1;
    for (int i = 0; i < BG_POINTS; i++) {
        if (!s->board[p][i]) continue;
        for (int j = 0; j < n; j++)
            if (step_legal(s, p, i, dv[j], home, furthest)) out[k++] = i * 8 + dv[j];
    }
    return k;
}

/* The legal first steps of p with the roll (both dice; a double's one value), as from * 8 + d. */
static int first_steps(const bg_state *s, int p, int *out) {
    int lo = s->dice[0], hi = s->dice[1], dv[2] = {hi, lo};
    return single_steps(s, p, dv, lo == hi ? 1 : 2, out);
}

/* The die a half-turn plays after one of d. */
static inline int other_die(const bg_state *s, int d) { return d == s->dice[1] ? s->dice[0] : s->dice[1]; }

/* ---------------------------------------------------------------- legal moves */

/* Zobrist-style key of one (player, place, count) cell: place 0..23 a point, 24 the bar, 25 off. */
static inline uint64_t cell_key(int p, int place, int count) {
    uint64_t z = (uint64_t)((p * 26 + place) * 16 + count) * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* step_apply, also updating key (the XOR of the changed cells' keys: equal positions reached
 * from one state have equal keys). */
static inline void step_apply_keyed(bg_state *s, int p, int from, int d, uint64_t *key) {
    int to = dest(p, from, d), q = 1 - p;
    uint64_t k = *key;
    if (from == BG_BAR) { k ^= cell_key(p, 24, s->bar[p]) ^ cell_key(p, 24, s->bar[p] - 1); s->bar[p]--; }
    else { k ^= cell_key(p, from, s->board[p][from]) ^ cell_key(p, from, s->board[p][from] - 1); s->board[p][from]--; }
    if (to < 0) {
        k ^= cell_key(p, 25, s->off[p]) ^ cell_key(p, 25, s->off[p] + 1);
        s->off[p]++;
    } else {
        if (s->board[q][to] == 1) {
            k ^= cell_key(q, to, 1) ^ cell_key(q, to, 0) ^ cell_key(q, 24, s->bar[q]) ^ cell_key(q, 24, s->bar[q] + 1);
            s->board[q][to] = 0;
            s->bar[q]++;
        }
        k ^= cell_key(p, to, s->board[p][to]) ^ cell_key(p, to, s->board[p][to] + 1);
        s->board[p][to]++;
    }
    *key = k;
}

typedef struct bg_cand {
    es_move id;
    uint64_t key;
    uint8_t board[2][BG_POINTS];
    uint8_t bar[2], off[2];
} bg_cand;

#define BG_SLOTS 2048   /* open-addressing table over the candidates (more than twice BG_MAX_MOVES) */

typedef struct bg_dedup {
    bg_cand cand[BG_MAX_MOVES];
    int16_t slot[BG_SLOTS];          /* candidate index, valid when stamp[i] == gen */
    uint32_t stamp[BG_SLOTS], gen;
    int n;
} bg_dedup;

static inline int same_result(const bg_cand *a, const bg_state *r) {
    return memcmp(a->board, r->board, sizeof r->board) == 0 && a->bar[0] == r->bar[0] && a->bar[1] == r->bar[1]
           && a->off[0] == r->off[0] && a->off[1] == r->off[1];
}

/* Add move id with result r, unless a listed move has the same result (then keep the smaller id). */
static void add_cand(bg_dedup *t, uint64_t key, es_move id, const bg_state *r) {
    for (uint32_t i = (uint32_t)key & (BG_SLOTS - 1);; i = (i + 1) & (BG_SLOTS - 1)) {
        if (t->stamp[i] != t->gen) {
            bg_cand *x = &t->cand[t->n];
            x->id = id;
            x->key = key;
            memcpy(x->board, r->board, sizeof r->board);
            x->bar[0] = r->bar[0]; x->bar[1] = r->bar[1];
            x->off[0] = r->off[0]; x->off[1] = r->off[1];
            t->stamp[i] = t->gen;
            t->slot[i] = (int16_t)t->n++;
            return;
        }
        bg_cand *c = &t->cand[t->slot[i]];
        if (c->key == key && same_result(c, r)) {
            if (id < c->id) c->id = id;
            return;
        }
    }
}

static inline void dedup_reset(bg_dedup *t) {
    t->n = 0;
    if (++t->gen == 0) { memset(t->stamp, 0, sizeof t->stamp); t->gen = 1; }
}

/* The legal half-turns: play two dice if possible; else one, the higher if either could be
 * played alone; else pass. */
static int bg_legal_moves(const es_game *g, const void *vs, es_move *out) {
    (void)g;
    const bg_state *s = (const bg_state *)vs;
    if (s->phase != BG_PH_MOVE) return 0;
    int p = s->player, lo = s->dice[0], hi = s->dice[1];
    int first[64], nfirst = first_steps(s, p, first);
    if (nfirst == 0) { out[0] = PLAY(BG_NONE, BG_NONE, 0); return 1; }

    static _Thread_local bg_dedup t;
    dedup_reset(&t);
    int two = 0;
    for (int a = 0; a < nfirst; a++) {
        int f1 = first[a] >> 3, d1 = first[a] & 7, d2 = other_die(s, d1);
        int h = lo == hi ? 1 : d1 == hi;
        bg_state u = *s;
        uint64_t k1 = 0;
        step_apply_keyed(&u, p, f1, d1, &k1);
        int second[64], nsecond = single_steps(&u, p, &d2, 1, second);
        if (nsecond && !two) { two = 1; dedup_reset(&t); }   /* two dice playable: drop single steps */
        if (two) {
            for (int b = 0; b < nsecond; b++) {
                bg_state r = u;
                uint64_t k2 = k1;
                step_apply_keyed(&r, p, second[b] >> 3, d2, &k2);
                add_cand(&t, k2, PLAY(f1, second[b] >> 3, h), &r);
            }
        } else if (d1 == hi || lo == hi) {
            add_cand(&t, k1, PLAY(f1, BG_NONE, h), &u);
        }
    }
    if (!two && t.n == 0) {
        /* only the lower die can be played: play it */
        for (int a = 0; a < nfirst; a++) {
            bg_state u = *s;
            uint64_t k1 = 0;
            step_apply_keyed(&u, p, first[a] >> 3, first[a] & 7, &k1);
            add_cand(&t, k1, PLAY(first[a] >> 3, BG_NONE, 0), &u);
        }
    }
    for (int i = 0; i < t.n; i++) out[i] = t.cand[i].id;
    return t.n;
}

/* ---------------------------------------------------------------- is_legal */

/* The is_legal hook (issue 19) decides without the list, which dedups up to hundreds of plays
 * by their result. A given play's steps are checked on the state's bytes, the second step
 * against what the first one changed (no copy of the state); the questions about all steps
 * (may the player pass, play one die only) are answered by bit masks of the board. A play is
 * passed around as plain ints: the ids and dice stay in registers. */

/* A bear-off from `from` (landing past the board on `to`) with all checkers home: by the exact
 * count, or from the furthest-back point. */
static inline int bear_off_ok(const bg_state *s, int p, int from, int to) {
    return all_home(s, p) && (to == (p == 0 ? BG_POINTS : -1) || from == furthest_home(s, p));
}

/* step_legal, working out the bearing-off facts only for a step that bears off. */
static inline int step_ok(const bg_state *s, int p, int from, int d) {
    int home = from != BG_BAR && dest(p, from, d) < 0 && all_home(s, p);
    return step_legal(s, p, from, d, home, home ? furthest_home(s, p) : -1);
}

/* Whether the step (f2, d2) is legal once the legal step (f1, d1) is played. That one moved a
 * checker from f1 to t1 and at most emptied an opposing blot, which blocks nothing: only a
 * second step bearing off (home and furthest checker may have changed) needs the new position. */
static int second_step_ok(const bg_state *s, int p, int f1, int d1, int f2, int d2) {
    const uint8_t *opp = s->board[1 - p];
    int bar = s->bar[p] - (f1 == BG_BAR);
    if (f2 == BG_BAR) return bar > 0 && opp[dest(p, BG_BAR, d2)] <= 1;
    if (bar || s->board[p][f2] - (f2 == f1) + (f2 == dest(p, f1, d1)) <= 0) return 0;
    int to = p == 0 ? f2 + d2 : f2 - d2;
    if ((unsigned)to < BG_POINTS) return opp[to] <= 1;
    bg_state u = *s;
    step_apply(&u, p, f1, d1);
    return bear_off_ok(&u, p, f2, to);
}

/* Whether the play (f1, d1) then (f2, d2) is legal, each step in its turn. */
static inline int play_ok(const bg_state *s, int p, int f1, int d1, int f2, int d2) {
    return step_ok(s, p, f1, d1) && second_step_ok(s, p, f1, d1, f2, d2);
}

/* The opposing blots the play hits, as a mask of points: with its net checker move, what fixes its result. */
static inline uint32_t hits(const bg_state *s, int p, int f1, int d1, int f2, int d2) {
    int t1 = dest(p, f1, d1), t2 = dest(p, f2, d2);
    return (t1 >= 0 && s->board[1 - p][t1] == 1 ? 1u << t1 : 0) | (t2 >= 0 && s->board[1 - p][t2] == 1 ? 1u << t2 : 0);
}

/* The id of the play (f1, d1) then f2 with the other die, for the roll lo-hi. */
static inline es_move play_id(int f1, int d1, int f2, int lo, int hi) { return PLAY(f1, f2, (lo == hi) | (d1 == hi)); }

/* Whether the legal two-step play x = (f1, d1), (f2, d2) is the one the list keeps for its
 * result (the smallest id), given the other legal plays with x's net checker move. Moving two
 * checkers: x in the other order (same landings, same result) and, if both steps bear off either
 * way, the dice the other way round. Moving one checker net (from -> to: x's steps chained, or
 * the second filling the point the first left): the ways via from + either die, in either
 * order, whose result is x's if they hit the same blots. */
static int listed_for_its_result(const bg_state *s, int p, int f1, int d1, int f2, int d2) {
    int lo = s->dice[0], hi = s->dice[1], t1 = dest(p, f1, d1), t2 = dest(p, f2, d2);
    es_move id = play_id(f1, d1, f2, lo, hi);
    if (f2 != t1 && t2 != f1) {
        if (play_id(f2, d2, f1, lo, hi) < id && play_ok(s, p, f2, d2, f1, d1)) return 0;
        if (t1 >= 0 || t2 >= 0 || dest(p, f1, d2) >= 0 || dest(p, f2, d1) >= 0) return 1;
        return !(play_id(f1, d2, f2, lo, hi) < id && play_ok(s, p, f1, d2, f2, d1)) &&
               !(play_id(f2, d1, f1, lo, hi) < id && play_ok(s, p, f2, d1, f1, d2));
    }
    int from = f2 == t1 ? f1 : f2, to = f2 == t1 ? t2 : t1;
    uint32_t hx = hits(s, p, f1, d1, f2, d2);
    for (int i = lo == hi; i < 2; i++) {   /* a double: one way */
        int e = i ? hi : lo, o = i ? lo : hi, z = dest(p, from, e);
        if (z < 0 || dest(p, z, o) != to) continue;
        if (play_id(from, e, z, lo, hi) < id && hits(s, p, from, e, z, o) == hx && play_ok(s, p, from, e, z, o)) return 0;
        if (play_id(z, o, from, lo, hi) < id && hits(s, p, z, o, from, e) == hx && play_ok(s, p, z, o, from, e)) return 0;
    }
    return 1;
}

/* Whether the two-step play (f1, d1), (f2, d2) is listed. The common plays, from points to
 * points with nobody on the bar, have closed forms of listed_for_its_result's rules: written
 * out here, they cost a few byte reads instead of its search of the other plays. */
static int two_steps_listed(const bg_state *s, int p, int f1, int d1, int f2, int d2) {
    int lo = s->dice[0], hi = s->dice[1], t1 = dest(p, f1, d1), t2 = dest(p, f2, d2);
    const uint8_t *own = s->board[p], *opp = s->board[1 - p];
    if (s->bar[p] || f1 == BG_BAR || f2 == BG_BAR || t1 < 0 || t2 < 0 || t2 == f1)
        return play_ok(s, p, f1, d1, f2, d2) && listed_for_its_result(s, p, f1, d1, f2, d2);
    if (f2 != t1)   /* two checkers: when legal, the other order is too; the smaller id is kept */
        return own[f1] && own[f2] > (f1 == f2) && opp[t1] <= 1 && opp[t2] <= 1 && (lo == hi ? f1 >= f2 : d1 == lo);
    /* One checker f1 -> t1 -> t2. The same result (same blots hit) by a smaller id: a checker
     * already on t1 moving on while this one takes its place, with the higher die first (or,
     * a double, when moving up the points); for two dice, also the route via the other
     * midpoint z when neither midpoint holds an opposing checker: this checker with the higher
     * die first, or, moving up, a checker already on z moving on. */
    if (!own[f1] || opp[t1] > 1 || opp[t2] > 1) return 0;
    int up = f1 < t1;
    if (lo == hi) return !(own[t1] && up);
    int z = dest(p, f1, d2), clear = !opp[t1] && !opp[z];
    return !(d1 == hi && (own[t1] || clear)) && !(up && own[z] && clear);
}

/* The mover's side of the board as bit masks over places in the mover's own direction: place 0
 * is the bar, place 1 + r the r-th point from the mover's entry side, so that a step of d goes
 * from place x to x + d and bears off from place 25 on. "Is there a step with this die" is then
 * a few bit operations instead of a scan of the points. */
#define X_OFF 25                     /* the first place past the last point: borne off */
#define X_POINTS 0x1FFFFFEu          /* places 1..24 */
#define X_OUTSIDE 0x7FFFFu           /* the bar and the 18 points outside the home board */

typedef struct bg_side {
    uint32_t own;       /* places holding the mover's checkers (the bar included) */
    uint32_t single;    /* ... exactly one of them */
    uint32_t blocked;   /* points holding two or more opposing checkers */
} bg_side;

/* The points of a row with counts at least `at_least`, as places of player p (player 1's
 * points mirrored: byte order reversed). */
static inline uint32_t place_mask(const uint8_t *row, int p, int at_least) {
    uint64_t w0 = es_load_le64(row), w1 = es_load_le64(row + 8), w2 = es_load_le64(row + 16);
    if (p) {
        uint64_t t = __builtin_bswap64(w0);
        w0 = __builtin_bswap64(w2);
        w1 = __builtin_bswap64(w1);
        w2 = t;
    }
    return (es_bytes_at_least(w0, at_least) | es_bytes_at_least(w1, at_least) << 8 | es_bytes_at_least(w2, at_least) << 16) << 1;
}

static bg_side side_of(const bg_state *s, int p) {
    uint32_t own = place_mask(s->board[p], p, 1) | (s->bar[p] > 0), two = place_mask(s->board[p], p, 2) | (s->bar[p] > 1);
    return (bg_side){own, own & ~two, place_mask(s->board[1 - p], p, 2)};
}

/* The mover's checkers after the legal step from place x by d (`single` is not kept: it is
 * only needed for a first step). */
static inline bg_side side_after(const bg_side *v, int x, int d) {
    return (bg_side){(v->own & ~(v->single & 1u << x)) | (1u << (x + d) & X_POINTS), 0, v->blocked};
}

/* The places with a legal step of d (step_legal), as a mask: the bar's entry if a checker is
 * there; else the checkers with an open point to land on, and, all home, the bear-offs by the
 * exact count or from the furthest-back point. */
static inline uint32_t side_movers(const bg_side *v, int d) {
    if (v->own & 1) return !(v->blocked >> d & 1);
    uint32_t m = v->own & ~(v->blocked >> d) & ((1u << (X_OFF - d)) - 1);
    if (v->own && !(v->own & X_OUTSIDE)) {
        int furthest = __builtin_ctz(v->own);
        m |= v->own & (1u << (X_OFF - d) | (furthest + d > X_OFF ? 1u << furthest : 0));
    }
    return m;
}

/* Whether both dice can be played (a first step that leaves a second). */
static int side_both_dice(const bg_side *v, int lo, int hi) {
    for (int i = 0; i < 1 + (lo != hi); i++) {
        int d1 = i ? lo : hi, d2 = i ? hi : lo;
        for (uint32_t first = side_movers(v, d1); first; first &= first - 1) {
            bg_side u = side_after(v, __builtin_ctz(first), d1);
            if (side_movers(&u, d2)) return 1;
        }
    }
    return 0;
}

/* Whether the play id m is in the list at a move node: its steps are legal, then the list's
 * rules: both dice when possible, else the higher die when possible; the pass only without any
 * step; the smallest id of its result (listed_for_its_result). Kept out of bg_is_legal so that
 * a chance node's test does not pay for this one's stack frame. */
static __attribute__((noinline)) int play_is_listed(const bg_state *s, es_move m) {
    if ((m & ~0x1FFF) || M_TYPE(m) != BG_M_PLAY) return 0;
    int p = s->player, f1 = M_FROM1(m), f2 = M_FROM2(m), h = M_HI(m), lo = s->dice[0], hi = s->dice[1];
    if (f1 == BG_NONE) {   /* the pass */
        bg_side v = side_of(s, p);
        return f2 == BG_NONE && !h && !side_movers(&v, hi) && !side_movers(&v, lo);
    }
    if (f1 > BG_BAR || f2 > BG_NONE || (lo == hi && !h)) return 0;
    int d1 = h ? hi : lo, d2 = h ? lo : hi;
    if (f2 != BG_NONE) return two_steps_listed(s, p, f1, d1, f2, d2);
    if (!step_ok(s, p, f1, d1)) return 0;
    bg_side v = side_of(s, p);
    if (side_both_dice(&v, lo, hi)) return 0;
    return h || !side_movers(&v, hi);   /* the lower die alone only if the higher cannot move */
}

/* The dice pairs (bit lo | hi << 3) of a roll (lo <= hi) and of the opening roll (lo < hi). */
#define DICE_ROW(hi, top) ((uint64_t)((1u << (top)) - 1) << (8 * (hi) + 1))   /* lo = 1..top */
#define ROLLS (DICE_ROW(1, 1) | DICE_ROW(2, 2) | DICE_ROW(3, 3) | DICE_ROW(4, 4) | DICE_ROW(5, 5) | DICE_ROW(6, 6))
#define FIRST_ROLLS (DICE_ROW(2, 1) | DICE_ROW(3, 2) | DICE_ROW(4, 3) | DICE_ROW(5, 4) | DICE_ROW(6, 5))

/* is_legal hook: a roll is a table test on its decoded dice; a play, play_is_listed. */
static int bg_is_legal(const es_game *g, const void *vs, es_move m) {
    (void)g;
    const bg_state *s = (const bg_state *)vs;
    switch (s->phase) {
    case BG_PH_ROLL: return !(m & ~0xFF) & (M_TYPE(m) == BG_M_ROLL) & (int)(ROLLS >> (m >> 2 & 63) & 1);
    case BG_PH_MOVE: return play_is_listed(s, m);
    case BG_PH_START: return !(m & ~0x1FF) & (M_TYPE(m) == BG_M_FIRST) & (int)(FIRST_ROLLS >> (m >> 2 & 63) & 1);
    }
    return 0;
}

/* ---------------------------------------------------------------- chance */

static int bg_chance_outcomes(const es_game *g, const void *vs, es_move *out, double *prob) {
    (void)g;
    const bg_state *s = (const bg_state *)vs;
    int k = 0;
    if (s->phase == BG_PH_START) {
        for (int starter = 0; starter < 2; starter++)
            for (int lo = 1; lo <= 6; lo++)
                for (int hi = lo + 1; hi <= 6; hi++) {
                    out[k] = BG_M_FIRST | lo << 2 | hi << 5 | starter << 8;
                    prob[k++] = 1.0 / 30.0;
                }
    } else if (s->phase == BG_PH_ROLL) {
        for (int lo = 1; lo <= 6; lo++)
            for (int hi = lo; hi <= 6; hi++) {
                out[k] = BG_M_ROLL | lo << 2 | hi << 5;
                prob[k++] = lo == hi ? 1.0 / 36.0 : 1.0 / 18.0;
            }
    }
    return k;
}

static es_move bg_sample_chance(const es_game *g, const void *vs, es_rng *rng) {
    (void)g;
    const bg_state *s = (const bg_state *)vs;
    if (s->phase == BG_PH_START) {
        int r = (int)es_rng_below(rng, 30), starter = r / 15, k = r % 15;
        for (int lo = 1; lo <= 6; lo++)
            for (int hi = lo + 1; hi <= 6; hi++)
                if (k-- == 0) return BG_M_FIRST | lo << 2 | hi << 5 | starter << 8;
    }
    int a = 1 + (int)es_rng_below(rng, 6), b = 1 + (int)es_rng_below(rng, 6);
    if (a > b) { int x = a; a = b; b = x; }
    return BG_M_ROLL | a << 2 | b << 5;
}

/* ---------------------------------------------------------------- apply */

static void bg_apply(const es_game *g, void *vs, es_move m) {
    bg_state *s = (bg_state *)vs;
    switch (M_TYPE(m)) {
    case BG_M_FIRST:
        s->player = (int8_t)M_STARTER(m);
        s->dice[0] = (uint8_t)M_LOW(m);
        s->dice[1] = (uint8_t)M_HIGH(m);
        s->phase = BG_PH_MOVE;
        return;
    case BG_M_ROLL:
        s->dice[0] = (uint8_t)M_LOW(m);
        s->dice[1] = (uint8_t)M_HIGH(m);
        s->phase = BG_PH_MOVE;
        return;
    default: break;
    }
    int p = s->player, lo = s->dice[0], hi = s->dice[1];
    int f1 = M_FROM1(m), f2 = M_FROM2(m), d1 = M_HI(m) ? hi : lo, d2 = M_HI(m) ? lo : hi;
    if (f1 != BG_NONE) step_apply(s, p, f1, d1);
    if (f2 != BG_NONE) step_apply(s, p, f2, d2);
    int again = !s->double_half && lo == hi && f1 != BG_NONE && f2 != BG_NONE;
    if (!s->double_half) s->turns++;
    if (again) {
        s->double_half = 1;
    } else {
        s->double_half = 0;
        s->dice[0] = s->dice[1] = 0;
        s->player = (int8_t)(1 - p);
        s->phase = BG_PH_ROLL;
    }
    if (s->off[p] == BG_CHECKERS || s->turns > g->options[BG_OPT_MAX_TURNS]) {
        s->phase = BG_PH_OVER;
        s->dice[0] = s->dice[1] = 0;
        s->double_half = 0;
    }
}

/* ---------------------------------------------------------------- scores and evaluation */

/* Checkers borne off. */
static void bg_scores(const es_game *g, const void *vs, double *out) {
    (void)g;
    const bg_state *s = (const bg_state *)vs;
    out[0] = s->off[0];
    out[1] = s->off[1];
}

/* 1 to the winner (all checkers off), 0 to the loser; 1/2 each when the turn cap ends the
 * game. (OpenSpiel's winloss returns are 2r - 1 of these: +1 / -1, 0 / 0.) */
static void bg_returns(const es_game *g, const void *vs, double *out) {
    (void)g;
    const bg_state *s = (const bg_state *)vs;
    out[0] = out[1] = 0;
    if (s->phase != BG_PH_OVER) return;
    if (s->off[0] == BG_CHECKERS) out[0] = 1;
    else if (s->off[1] == BG_CHECKERS) out[1] = 1;
    else out[0] = out[1] = 0.5;
}

/* Pips p still has to travel to bear everything off. */
static int pips(const bg_state *s, int p) {
    int n = s->bar[p] * 25;
    for (int i = 0; i < BG_POINTS; i++) n += s->board[p][i] * (p == 0 ? BG_POINTS - i : i + 1);
    return n;
}

/* The race: minus the pip count in rolls (8.17 pips a roll on average); a finished player's 0
 * pips rank first. */
static void bg_evaluate(const es_game *g, const void *vs, double *out) {
    (void)g;
    const bg_state *s = (const bg_state *)vs;
    for (int p = 0; p < 2; p++) out[p] = -pips(s, p) / 8.17;
}

/* Perfect information: nothing is hidden, so every world is the state itself. */
static void bg_determinize(const es_game *g, void *vs, int observer, es_rng *rng) {
    (void)g; (void)vs; (void)observer; (void)rng;
}

/* ---------------------------------------------------------------- validation */

#define BAD(...) do { if (err && errlen) { int _k = snprintf(err, errlen, "invalid backgammon state: "); \
    if (_k > 0 && (size_t)_k < errlen) snprintf(err + _k, errlen - (size_t)_k, __VA_ARGS__); } return ES_ERR_FORMAT; } while (0)

static int bg_validate(const es_game *g, const void *vs, char *err, size_t errlen) {
    const bg_state *s = (const bg_state *)vs;
    for (int p = 0; p < 2; p++) {
        int total = s->bar[p] + s->off[p];
        if (s->bar[p] > BG_CHECKERS || s->off[p] > BG_CHECKERS) BAD("player %d: bar %d, off %d", p, s->bar[p], s->off[p]);
        for (int i = 0; i < BG_POINTS; i++) {
            if (s->board[p][i] > BG_CHECKERS) BAD("player %d has %d checkers on point %d", p, s->board[p][i], i);
            total += s->board[p][i];
        }
        if (total != BG_CHECKERS) BAD("player %d has %d checkers, expected %d", p, total, BG_CHECKERS);
    }
    for (int i = 0; i < BG_POINTS; i++)
        if (s->board[0][i] && s->board[1][i]) BAD("point %d holds checkers of both players", i);
    if (!IN(s->phase, BG_PH_START, BG_PH_OVER)) BAD("phase %d", s->phase);
    if (!IN(s->player, 0, 1)) BAD("player %d", s->player);
    for (int i = 0; i < 5; i++)
        if (s->reserved[i]) BAD("reserved byte %d is %d", i, s->reserved[i]);
    int cap = g->options[BG_OPT_MAX_TURNS];
    int done = s->off[0] == BG_CHECKERS || s->off[1] == BG_CHECKERS;
    if (s->off[0] == BG_CHECKERS && s->off[1] == BG_CHECKERS) BAD("both players have borne off");
    if (s->turns > cap + 1) BAD("%d turns played, the cap is %d", s->turns, cap);
    if (s->phase == BG_PH_OVER) {
        if (!done && s->turns <= cap) BAD("over, but nobody has borne off and the turn cap is not reached");
    } else {
        if (done || s->turns > cap) BAD("the game is over but the phase is %d", s->phase);
    }
    if (s->phase == BG_PH_START && (s->turns || s->player)) BAD("opening roll after %d turns", s->turns);
    if (s->phase == BG_PH_ROLL && s->turns == 0) BAD("a roll before any turn was played");
    if (s->phase == BG_PH_MOVE && s->turns == 0 && s->double_half) BAD("a second half-turn before any turn was played");
    if (s->phase == BG_PH_MOVE) {
        if (!IN(s->dice[0], 1, 6) || !IN(s->dice[1], s->dice[0], 6)) BAD("dice %d-%d", s->dice[0], s->dice[1]);
        if (s->double_half && s->dice[0] != s->dice[1]) BAD("a second half-turn without a double");
    } else {
        if (s->dice[0] || s->dice[1] || s->double_half) BAD("dice outside a move");
    }
    return ES_OK;
}

/* ---------------------------------------------------------------- observation and text */

/* OpenSpiel's (Tesauro's) encoding, seen by `player`: for own then opposing checkers, per
 * point 0..23: one, two, three, and the number beyond three; then bar, off, to-move for
 * each; then the two dice (low, high; 0 outside a move). The first 200 floats are
 * OpenSpiel's vector; eurosearch's "actor" slice (who moves, relative to the viewer) ends it. */
#define BG_OBS_SIZE (2 * BG_POINTS * 4 + 6 + 2 + 2)
static int bg_observation_size(const es_game *g) { (void)g; return BG_OBS_SIZE; }

static int bg_observation_layout(const es_game *g, es_obs_slice *out, int cap) {
    (void)g;
    es_obs_builder b = es_obs_begin(out, cap);
    es_obs_add(&b, "own_points", BG_POINTS, 4);
    es_obs_add(&b, "opponent_points", BG_POINTS, 4);
    es_obs_add(&b, "own", 3, 0);        /* bar, off, to move */
    es_obs_add(&b, "opponent", 3, 0);   /* bar, off, to move */
    es_obs_add(&b, "dice", 2, 0);
    es_obs_add(&b, "actor", 2, 0);      /* one-hot, relative seat: the viewer first */
    return b.n;
}

static void bg_observe(const es_game *g, const void *vs, int player, float *out) {
    (void)g;
    const bg_state *s = (const bg_state *)vs;
    int i = 0;
    for (int k = 0; k < 2; k++) {
        int p = k == 0 ? player : 1 - player;
        for (int pt = 0; pt < BG_POINTS; pt++) {
            int c = s->board[p][pt];
            out[i++] = c == 1;
            out[i++] = c == 2;
            out[i++] = c == 3;
            out[i++] = c > 3 ? (float)(c - 3) : 0.0f;
        }
    }
    for (int k = 0; k < 2; k++) {
        int p = k == 0 ? player : 1 - player;
        out[i++] = s->bar[p];
        out[i++] = s->off[p];
        out[i++] = s->phase == BG_PH_MOVE && s->player == p;
    }
    out[i++] = s->dice[0];
    out[i++] = s->dice[1];
    for (int k = 0; k < 2; k++) out[i++] = s->phase == BG_PH_MOVE && s->player == (player + k) % 2;
}

static const es_move_kind bg_move_kinds[] = {
    {BG_M_PLAY, 3, {{2, 5}, {7, 5}, {12, 1}}},   /* from1, from2, high_first */
};

/* A point in the player's own numbering (1 = the last point before bearing off). */
static int own_point(int p, int pt) { return p == 0 ? BG_POINTS - pt : pt + 1; }

static void step_text(es_text *t, const bg_state *s, int p, int from, int d) {
    int to = dest(p, from, d);
    if (from == BG_BAR) es_text_add(t, "bar/");
    else es_text_add(t, "%d/", own_point(p, from));
    if (to < 0) es_text_add(t, "off");
    else es_text_add(t, "%d%s", own_point(p, to), s->board[1 - p][to] == 1 ? "*" : "");
}

/* "13/8 8/5*", "bar/22 6/off", "pass"; chance: "x starts 3-1", "roll 6-6". */
static int bg_move_to_str(const es_game *g, const void *vs, es_move m, char *buf, size_t cap) {
    (void)g;
    const bg_state *s = (const bg_state *)vs;
    es_text t = es_text_make(buf, cap);
    switch (M_TYPE(m)) {
    case BG_M_FIRST: es_text_add(&t, "%s starts %d-%d", M_STARTER(m) ? "o" : "x", M_HIGH(m), M_LOW(m)); break;
    case BG_M_ROLL: es_text_add(&t, "roll %d-%d", M_HIGH(m), M_LOW(m)); break;
    case BG_M_PLAY: {
        int f1 = M_FROM1(m), f2 = M_FROM2(m);
        if (f1 == BG_NONE && f2 == BG_NONE) { es_text_add(&t, "pass"); break; }
        int p = IN(s->player, 0, 1) ? s->player : 0, lo = s->dice[0], hi = s->dice[1];
        int d1 = M_HI(m) ? hi : lo, d2 = M_HI(m) ? lo : hi;
        if (!IN(d1, 1, 6) || !IN(d2, 1, 6) || f1 > BG_NONE || f2 > BG_NONE || f1 == BG_NONE) { es_text_add(&t, "?%d", (int)m); break; }
        bg_state r = *s;
        if (!(f1 == BG_BAR ? r.bar[p] : r.board[p][f1])) { es_text_add(&t, "?%d", (int)m); break; }
        step_text(&t, &r, p, f1, d1);
        step_apply(&r, p, f1, d1);
        if (f2 != BG_NONE) {
            if (!(f2 == BG_BAR ? r.bar[p] : r.board[p][f2])) { es_text_add(&t, " ?"); break; }
            es_text_add(&t, " ");
            step_text(&t, &r, p, f2, d2);
        }
        break;
    }
    default: es_text_add(&t, "?%d", (int)m);
    }
    return es_text_result(&t);
}

static int bg_render(const es_game *g, const void *vs, char *buf, size_t cap) {
    (void)g;
    const bg_state *s = (const bg_state *)vs;
    static const char *PH[] = {"?", "opening roll", "roll", "move", "over"};
    es_text t = es_text_make(buf, cap);
    es_text_add(&t, "Backgammon (calibration game) turn %d, %s", s->turns, IN(s->phase, 1, 4) ? PH[s->phase] : "?");
    if (s->phase == BG_PH_MOVE)
        es_text_add(&t, ", %s to play %d-%d%s", s->player ? "o" : "x", s->dice[1], s->dice[0],
                    s->double_half ? " (second half)" : "");
    else if (s->phase == BG_PH_ROLL) es_text_add(&t, ", %s to roll", s->player ? "o" : "x");
    es_text_add(&t, "\npoint:");
    for (int i = 0; i < BG_POINTS; i++) es_text_add(&t, " %2d", i);
    es_text_add(&t, "\n      ");
    for (int i = 0; i < BG_POINTS; i++) {
        if (s->board[0][i]) es_text_add(&t, " %dx", s->board[0][i]);
        else if (s->board[1][i]) es_text_add(&t, " %do", s->board[1][i]);
        else es_text_add(&t, "  .");
    }
    es_text_add(&t, "\nx (moves up): bar %d, off %d, %d pips\no (moves down): bar %d, off %d, %d pips\n",
                s->bar[0], s->off[0], pips(s, 0), s->bar[1], s->off[1], pips(s, 1));
    return es_text_result(&t);
}

/* ---------------------------------------------------------------- reflection and definition */

static const es_field_desc bg_fields[] = {
    ES_ARRAY2(bg_state, board, ES_U8, 2, BG_POINTS),
    ES_ARRAY(bg_state, bar, ES_U8, 2), ES_ARRAY(bg_state, off, ES_U8, 2),
    ES_FIELD(bg_state, turns, ES_U16), ES_FIELD(bg_state, phase, ES_U8), ES_FIELD(bg_state, player, ES_I8),
    ES_ARRAY(bg_state, dice, ES_U8, 2), ES_FIELD(bg_state, double_half, ES_U8),
    ES_ARRAY(bg_state, reserved, ES_U8, 5),
};

static const int32_t bg_default_options[BG_NOPTIONS] = {500};

const es_game_def es_backgammon_def = {
    .name = "backgammon",
    .min_players = 2,
    .max_players = 2,
    .state_size = sizeof(bg_state),
    .max_moves = BG_MAX_MOVES,
    .max_chance_outcomes = BG_MAX_CHANCE,
    .n_options = BG_NOPTIONS,
    .default_options = bg_default_options,
    .setup = bg_setup,
    .observation_size = bg_observation_size,
    .init = bg_init,
    .current_player = bg_current_player,
    .legal_moves = bg_legal_moves,
    .chance_outcomes = bg_chance_outcomes,
    .sample_chance = bg_sample_chance,
    .apply = bg_apply,
    .scores = bg_scores,
    .returns = bg_returns,
    .determinize = bg_determinize,
    .validate = bg_validate,
    .observe = bg_observe,
    .move_to_str = bg_move_to_str,
    .render = bg_render,
    .evaluate = bg_evaluate,
    .fields = bg_fields,
    .n_fields = (int)(sizeof bg_fields / sizeof bg_fields[0]),
    .move_type_bits = 2,
    .move_kinds = bg_move_kinds,
    .n_move_kinds = 1,
    .observation_layout = bg_observation_layout,
    .is_legal = bg_is_legal,
};
