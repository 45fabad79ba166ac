/* Wolsung: the rules of shared/rules/wolsung.md as nodes of the es_game_def interface.
 * The node sequence and the move ids are docs/wolsung_engine.md ("frozen"). */
#include <stdlib.h>
#include <string.h>

#include "wolsung.h"
#include "../core/obslayout.h"
#include "../core/playloop.h"
#include "../core/rng.h"
#include "../core/text.h"

#define DATA(g) ((const wo_data *)(g)->data)
#define MV(kind, payload) ((es_move)((kind) + 32 * (payload)))
#define MV_KIND(m) ((int)((m) & 31))
#define MV_ARG(m) ((int)((m) >> 5))
#define IN(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

/* Transient phases: run() passes through them and never stores a state there. */
enum { T_FILLALL = 32, T_DEAL, T_ROUND, T_WORKER, T_FACTORY, T_TM, T_RANK, T_TIES, T_PICK,
       T_FACTORY_END, T_FACTORIES_DONE, T_MACHINE, T_MACHINE_END, T_ENDROUND, T_NEXTROUND };

static const char *RES_NAME[WO_NRES] = {"coal", "glass", "iron", "wood", "gold"};
static const char *UPG_NAME[3] = {"fourth_worker", "time_machine", "converter"};
static const int UPG_COST[3] = {3, 2, 1};

static inline int rounds_of(const es_game *g) { return g->players <= 3 ? 25 : 29; }
static inline int start_of(const es_game *g, const wo_state *s) { return (s->start0 + s->round - 1) % g->players; }
static inline int popc(uint64_t x) { return __builtin_popcountll(x); }
static inline int st_index(const uint8_t *st) { return st[0] + 5 * st[1] + 25 * st[2] + 125 * st[3] + 625 * st[4]; }
static inline void st_unpack(int idx, uint8_t *st) { for (int r = 0; r < WO_NRES; r++) { st[r] = (uint8_t)(idx % 5); idx /= 5; } }
static inline int capacity(const wo_state *s, int p) { return (s->upg[p] & 1) ? 4 : 3; }
static inline int sched_fac(const es_game *g, const wo_state *s) { return DATA(g)->sched[s->round - 1][s->fac_idx]; }

/* ---------------------------------------------------------------- setup */

static int build_payment_lists(const es_game *g, wo_data *d);

static int wo_setup(es_game *g, const int32_t *t, size_t len, char *err, size_t errlen) {
    size_t need = 9 + WO_ROUNDS * 4 + WO_NFAC * 10 + WO_NMACH * 7 + WO_NTASKCARDS * (1 + WO_MAXTASKS * (2 + WO_MAXICONS))
                  + WO_NSPECIAL * 7 + (WO_NCARDS + WO_NTASKCARDS + WO_NSPECIAL) * ES_NAME_INTS;
    if (!t || len != need) return es_setup_error(err, errlen, "wolsung data: the table has %zu entries, expected %zu", len, need);
    if (t[0] != WO_TABLE_VERSION) return es_setup_error(err, errlen, "wolsung data: table version %d, expected %d", t[0], WO_TABLE_VERSION);
    const int32_t *o = g->options;
    if (!IN(o[WO_OPT_START_PLAYER], -1, g->players - 1))
        return es_setup_error(err, errlen, "wolsung option start_player must be -1 or a seat 0..%d", g->players - 1);
    for (int i = 1; i < WO_NOPTIONS; i++)
        if (!IN(o[i], 0, 1)) return es_setup_error(err, errlen, "wolsung option %d must be 0 or 1", i);
    wo_data *d = calloc(1, sizeof *d);
    if (!d) return es_setup_error(err, errlen, "wolsung: out of memory");
#define NEED(c, ...) do { if (!(c)) { int _rc = es_setup_error(err, errlen, __VA_ARGS__); free(d); return _rc; } } while (0)
    size_t k = 1;
    int seen = 0;
    for (int i = 0; i < 3; i++) {
        d->factory_order[i] = t[k++];
        NEED(IN(d->factory_order[i], 0, 2) && !(seen & (1 << d->factory_order[i])), "wolsung data: factory_order: not a permutation");
        seen |= 1 << d->factory_order[i];
    }
    for (int r = 0; r < WO_NRES; r++) { d->supply[r] = t[k++]; NEED(IN(d->supply[r], 0, 76), "wolsung data: supply out of range"); }
    for (int r = 0; r < WO_ROUNDS; r++) {
        d->sched_n[r] = t[k++];
        NEED(IN(d->sched_n[r], 0, 3), "wolsung data: rounds.schedule: round %d opens %d factories", r + 1, d->sched_n[r]);
        int m = 0;
        for (int i = 0; i < 3; i++) {
            d->sched[r][i] = t[k++];
            if (i < d->sched_n[r]) {
                NEED(IN(d->sched[r][i], 0, 2) && !(m & (1 << d->sched[r][i])), "wolsung data: rounds.schedule: round %d: bad factory", r + 1);
                m |= 1 << d->sched[r][i];
            }
        }
    }
    for (int f = 0; f < WO_NFAC; f++)
        for (int y = 0; y < 2; y++)
            for (int r = 0; r < WO_NRES; r++) {
                d->siding[y][f][r] = t[k++];
                NEED(IN(d->siding[y][f][r], 0, 15), "wolsung data: factories[%d]: siding count out of range 0..15", f);
            }
    for (int c = 0; c < WO_NMACH; c++) {
        d->m_type[c] = t[k++]; d->m_region[c] = t[k++]; d->m_vp[c] = t[k++];
        NEED(IN(d->m_type[c], 0, 3) && IN(d->m_region[c], 0, 3) && IN(d->m_vp[c], 1, 4), "wolsung data: machines[%d]: type, region or vp out of range", c);
        int sum = 0;
        for (int r = 0; r < 4; r++) { d->m_cost[c][r] = t[k++]; sum += d->m_cost[c][r]; NEED(IN(d->m_cost[c][r], 0, 3), "wolsung data: machines[%d]: cost out of range 0..3", c); }
        NEED(sum >= 1, "wolsung data: machines[%d]: empty cost", c);
        if (d->m_vp[c] <= 2) d->deck_a |= 1ULL << c; else d->deck_b |= 1ULL << c;
        d->cat_mask[d->m_type[c]] |= 1ULL << c;          /* task icons: types 0..3, regions 4..7 */
        d->cat_mask[4 + d->m_region[c]] |= 1ULL << c;
    }
    d->deck_a |= 1ULL << WO_STRIKE;
    NEED(popc(d->deck_a) >= 4, "wolsung data: machines: deck A needs at least 3 machines");
    for (int c = 0; c < WO_NTASKCARDS; c++) {
        d->t_n[c] = t[k++];
        NEED(IN(d->t_n[c], 1, WO_MAXTASKS), "wolsung data: task_cards[%d]: 1..3 tasks", c);
        for (int j = 0; j < WO_MAXTASKS; j++) {
            d->t_pts[c][j] = t[k++]; d->t_nic[c][j] = t[k++];
            if (j < d->t_n[c]) NEED(IN(d->t_pts[c][j], 1, 9) && IN(d->t_nic[c][j], 1, WO_MAXICONS), "wolsung data: task_cards[%d]: bad task %d", c, j);
            for (int i = 0; i < WO_MAXICONS; i++) {
                d->t_icon[c][j][i] = t[k++];
                NEED(IN(d->t_icon[c][j][i], 0, 7), "wolsung data: task_cards[%d]: icon out of range", c);
            }
        }
    }
    for (int i = 0; i < WO_NSPECIAL; i++) {
        d->sp_value[i] = t[k++]; d->sp_change[i] = t[k++];
        NEED(IN(d->sp_value[i], 0, 15) && IN(d->sp_change[i], 0, 1), "wolsung data: specials[%d]: value or change out of range", i);
        int m = 0;
        for (int r = 0; r < WO_NRES; r++) {
            d->sp_order[i][r] = t[k++];
            NEED(IN(d->sp_order[i][r], 0, 4) && !(m & (1 << d->sp_order[i][r])), "wolsung data: specials[%d]: order is not a permutation", i);
            m |= 1 << d->sp_order[i][r];
        }
        d->n_change += d->sp_change[i];
        for (int j = 0; j < i; j++) NEED(d->sp_value[j] != d->sp_value[i], "wolsung data: specials: values must be distinct (WO-A5)");
    }
    for (int idx = 0; idx < WO_NSTORE; idx++) st_unpack(idx, d->digit[idx]);
    g->data = d;   /* the payment search reads the data and options */
    int too_many = build_payment_lists(g, d);
    g->data = NULL;
    NEED(!too_many, "wolsung data: machines: too many payments to list");
    for (int c = 0; c < WO_NCARDS; c++, k += ES_NAME_INTS) es_read_name(t + k, d->card_id[c]);
    for (int c = 0; c < WO_NTASKCARDS; c++, k += ES_NAME_INTS) es_read_name(t + k, d->task_id[c]);
    for (int c = 0; c < WO_NSPECIAL; c++, k += ES_NAME_INTS) es_read_name(t + k, d->special_id[c]);
#undef NEED
    g->data = d;
    return ES_OK;
}

/* ---------------------------------------------------------------- payments (spec 4.6) */

static const int P5[WO_NRES] = {1, 5, 25, 125, 625};

/* Dedupe marks for the payment search: a generation stamp per storage index, so that a new
 * round of marks costs one increment instead of clearing the table. */
static __thread uint32_t mark_gen, mark_stamp[WO_NSTORE];
static inline void marks_next(void) {
    if (++mark_gen == 0) { memset(mark_stamp, 0, sizeof mark_stamp); mark_gen = 1; }
}

/* Every distinct storage left after building machine c from st (spec 4.6): each unit of cost
 * of type t is paid by a cube of t, or 3 gold, or (Converter) 2 cubes of types other than t
 * (building types; gold too with converter_accepts_gold). Returns the count, indices in out.
 * Used at setup, from a full storage, to list every payment (see payment lists below). */
static int machine_results(const es_game *g, const uint8_t *st, int c, int converter, uint16_t *out) {
    const wo_data *d = DATA(g);
    const int *k = d->m_cost[c];
    int base = st_index(st), n = 0;
    if (!converter) {
        /* a unit is a cube of its type or 3 gold: the results differ exactly by how many units
         * of each type are exchanged (e[t] from the shortfall up to k[t], 3 gold each) */
        int lo[4], xmax = st[WO_GOLD] / 3;
        for (int t = 0; t < 4; t++) lo[t] = k[t] > st[t] ? k[t] - st[t] : 0;
        if (lo[0] + lo[1] + lo[2] + lo[3] > xmax) return 0;
        for (int e0 = lo[0]; e0 <= k[0]; e0++)
            for (int e1 = lo[1]; e1 <= k[1]; e1++)
                for (int e2 = lo[2]; e2 <= k[2]; e2++)
                    for (int e3 = lo[3]; e3 <= k[3]; e3++) {
                        int x = e0 + e1 + e2 + e3;
                        if (x > xmax) break;
                        out[n++] = (uint16_t)(base - (k[0] - e0) - 5 * (k[1] - e1) - 25 * (k[2] - e2) - 125 * (k[3] - e3) - 3 * 625 * x);
                    }
        return n;
    }
    /* With the Converter: breadth-first over the units, one frontier of distinct storages each */
    static __thread uint16_t buf[2][WO_NSTORE];
    int top = g->options[WO_OPT_CONV_GOLD] ? WO_NRES : 4, cur = 0;
    n = 1;
    buf[0][0] = (uint16_t)base;
    for (int t = 0; t < 4; t++) {
        int pair_off[10], pa[10], pb[10], np = 0;   /* the Converter pairs for a unit of t */
        for (int a = 0; a < top; a++)
            for (int b = a; b < top; b++)
                if (a != t && b != t) { pair_off[np] = P5[a] + P5[b]; pa[np] = a; pb[np++] = b; }
        for (int u = 0; u < k[t]; u++) {
            int nx = cur ^ 1, m = 0;
            marks_next();
#define ADD(idx) do { int _i = (idx); if (mark_stamp[_i] != mark_gen) { mark_stamp[_i] = mark_gen; buf[nx][m++] = (uint16_t)_i; } } while (0)
            for (int i = 0; i < n; i++) {
                int idx = buf[cur][i];
                const uint8_t *r = d->digit[idx];
                if (r[t]) ADD(idx - P5[t]);
                if (r[WO_GOLD] >= 3) ADD(idx - 3 * P5[WO_GOLD]);
                for (int j = 0; j < np; j++)
                    if (r[pa[j]] && r[pb[j]] >= 1 + (pa[j] == pb[j])) ADD(idx - pair_off[j]);
            }
#undef ADD
            n = m;
            cur = nx;
            if (!n) return 0;
        }
    }
    memcpy(out, buf[cur], (size_t)n * sizeof *out);
    return n;
}

/* Every distinct storage left after paying an upgrade of `cost` gold (spec 4.6): a gold units
 * paid directly, the other cost - a with 3 building cubes each (3 cubes of any type with
 * exchange_allows_gold_input, x of them gold). The total paid, 3 cost - 2a, fixes a, and the
 * gold paid then fixes x: every (a, x, building cubes) below is a different storage. */
static int upgrade_results(const es_game *g, const uint8_t *st, int cost, uint16_t *out) {
    int base = st_index(st), n = 0, xgold = g->options[WO_OPT_XGOLD];
    for (int a = cost < st[WO_GOLD] ? cost : st[WO_GOLD]; a >= 0; a--) {
        int m = 3 * (cost - a), xmax = xgold ? (m < st[WO_GOLD] - a ? m : st[WO_GOLD] - a) : 0;
        for (int x = 0; x <= xmax; x++) {
            int b = m - x;
            for (int b0 = 0; b0 <= st[0] && b0 <= b; b0++)
                for (int b1 = 0; b1 <= st[1] && b0 + b1 <= b; b1++)
                    for (int b2 = 0; b2 <= st[2] && b0 + b1 + b2 <= b; b2++) {
                        int b3 = b - b0 - b1 - b2;
                        if (b3 <= st[3]) out[n++] = (uint16_t)(base - b0 - 5 * b1 - 25 * b2 - 125 * b3 - 625 * (a + x));
                    }
        }
    }
    return n;
}

/* Payment lists. Whether a vector P of paid cubes pays a machine (or an upgrade) does not depend
 * on the storage: the payment is legal from storage s iff P <= s. So setup lists, per machine
 * card and Converter flag and per upgrade, every payment vector a full storage (4 of each) can
 * make, and the moves from s are the entries with P <= s, leaving s - P: distinct P give
 * distinct storages. An entry is P in 4-bit fields (bits 0-19) and P's storage index (bits
 * 20-31); P <= s is one subtraction against s's fields with guard bits (pack_guarded). */
#define WO_GUARD 0x88888u
static inline uint32_t pack_guarded(const uint8_t *st) {
    return WO_GUARD | st[0] | (uint32_t)st[1] << 4 | (uint32_t)st[2] << 8 | (uint32_t)st[3] << 12 | (uint32_t)st[4] << 16;
}
static inline int fits(uint32_t guarded, uint32_t entry) { return ((guarded - (entry & 0xFFFFFu)) & WO_GUARD) == WO_GUARD; }

/* The payment list of machine c with or without the Converter, and of upgrade u. */
static inline int machine_list(int c, int conv) { return 2 * c + conv; }
static inline int upgrade_list(int u) { return 2 * WO_NMACH + u; }

/* Append payment list `list` to the pool, sorted by P's storage index: its buckets (P's three
 * high digits: iron, wood, gold) with, per bucket, how many entries fit each (coal, glass) of a
 * storage, and per storage how many entries fit (a sum over the dominated storages). -1 if the
 * pool is full. */
static int add_payments(wo_data *d, int list, const uint16_t *res, int m) {
    static __thread uint8_t paid[WO_NSTORE];
    if (d->pay_used + m > WO_PAY_POOL) return -1;
    int full = WO_NSTORE - 1, n = d->pay_used;
    uint16_t *bucket = d->bucket[list];
    memset(paid, 0, sizeof paid);
    for (int i = 0; i < m; i++) paid[full - res[i]] = 1;
    d->list_off[list] = n;
    for (int pidx = 0; pidx < WO_NSTORE; pidx++) {
        if (pidx % 25 == 0) bucket[pidx / 25] = (uint16_t)(n - d->pay_used);
        if (!paid[pidx]) continue;
        const uint8_t *q = d->digit[pidx];
        d->pay_pool[n++] = (uint32_t)(q[0] | q[1] << 4 | q[2] << 8 | q[3] << 12 | q[4] << 16) | (uint32_t)pidx << 20;
        for (int low = 0; low < 25; low++)   /* low = s0 + 5 s1 */
            d->bucket_fit[list][pidx / 25][low] = (uint8_t)(d->bucket_fit[list][pidx / 25][low] + (q[0] <= low % 5 && q[1] <= low / 5));
    }
    bucket[WO_NBUCKET] = (uint16_t)m;
    uint16_t *fit = d->fit_count[list];
    for (int i = 0; i < WO_NSTORE; i++) fit[i] = paid[i];
    for (int r = 0; r < WO_NRES; r++)
        for (int i = 0; i < WO_NSTORE; i++)
            if (d->digit[i][r]) fit[i] = (uint16_t)(fit[i] + fit[i - P5[r]]);
    d->pay_used = n;
    return 0;
}

static int build_payment_lists(const es_game *g, wo_data *d) {
    static __thread uint16_t res[WO_NSTORE];
    const uint8_t full[WO_NRES] = {4, 4, 4, 4, 4};
    for (int c = 0; c < WO_NMACH; c++)
        for (int conv = 0; conv < 2; conv++)
            if (add_payments(d, machine_list(c, conv), res, machine_results(g, full, c, conv, res))) return -1;
    for (int u = 0; u < 3; u++)
        if (add_payments(d, upgrade_list(u), res, upgrade_results(g, full, UPG_COST[u], res))) return -1;
    return 0;
}

/* The storages left from st by the payments of `list`, as move ids of kind with argument
 * arg + 3 * storage; only the buckets whose high digits fit are read. */
static int list_payments(const wo_data *d, const uint8_t *st, int list, int kind, int arg, es_move *out) {
    uint32_t gs = pack_guarded(st);
    int base = st_index(st), m = 0;
    const uint32_t *e = d->pay_pool + d->list_off[list];
    const uint16_t *bucket = d->bucket[list];
    for (int g4 = 0; g4 <= st[4]; g4++)
        for (int g3 = 0; g3 <= st[3]; g3++)
            for (int g2 = 0; g2 <= st[2]; g2++) {
                int b = g2 + 5 * g3 + 25 * g4;
                for (int i = bucket[b], end = bucket[b + 1]; i < end; i++)
                    if (fits(gs, e[i])) out[m++] = MV(kind, arg + 3 * (base - (int)(e[i] >> 20)));
            }
    return m;
}

/* The storage index left from st by the want-th payment of `list` that st can make, in
 * list_payments' order (how many there are: fit_count); whole buckets are skipped by count. */
static int nth_payment(const wo_data *d, const uint8_t *st, int list, int want) {
    uint32_t gs = pack_guarded(st);
    const uint32_t *e = d->pay_pool + d->list_off[list];
    const uint16_t *bucket = d->bucket[list];
    int low = st[0] + 5 * st[1];
    for (int g4 = 0; g4 <= st[4]; g4++)
        for (int g3 = 0; g3 <= st[3]; g3++)
            for (int g2 = 0; g2 <= st[2]; g2++) {
                int b = g2 + 5 * g3 + 25 * g4, here = d->bucket_fit[list][b][low];
                if (want >= here) { want -= here; continue; }
                for (int i = bucket[b], end = bucket[b + 1]; i < end; i++)
                    if (fits(gs, e[i]) && want-- == 0) return st_index(st) - (int)(e[i] >> 20);
            }
    return -1;
}

/* Whether list_payments(d, st, list, ...) lists the payment that leaves storage index `left`:
 * the list's entry for the paid vector st - left (found in its bucket, sorted by index), if the
 * list has one and it fits st (fits: the generator's test). */
static int has_payment(const wo_data *d, const uint8_t *st, int list, int left) {
    int pidx = st_index(st) - left;
    if (left < 0 || left >= WO_NSTORE || pidx < 0) return 0;
    const uint32_t *e = d->pay_pool + d->list_off[list];
    const uint16_t *bucket = d->bucket[list];
    for (int i = bucket[pidx / 25], end = bucket[pidx / 25 + 1]; i < end; i++)
        if ((int)(e[i] >> 20) == pidx) return fits(pack_guarded(st), e[i]);
    return 0;
}

/* ---------------------------------------------------------------- scoring (spec 8.2) */

/* Augmenting-path matching of icons to machines. */
static int match_try(int i, const uint64_t *adj, int *mate, uint64_t *used) {
    uint64_t a = adj[i] & ~*used;
    while (a) {
        int m = __builtin_ctzll(a);
        a &= a - 1;
        *used |= 1ULL << m;
        if (mate[m] < 0 || match_try(mate[m], adj, mate, used)) { mate[m] = i; return 1; }
    }
    return 0;
}

static int task_points(const wo_data *d, uint64_t owned, int card) {
    if (card < 0) return 0;
    int best = 0, nt = d->t_n[card], have = popc(owned);
    for (int sub = 1; sub < (1 << nt); sub++) {
        int pts = 0, ni = 0;
        for (int j = 0; j < nt; j++)
            if (sub >> j & 1) { pts += d->t_pts[card][j]; ni += d->t_nic[card][j]; }
        if (pts <= best || ni > have) continue;
        uint64_t adj[WO_MAXTASKS * WO_MAXICONS];
        ni = 0;
        for (int j = 0; j < nt; j++)
            if (sub >> j & 1)
                for (int i = 0; i < d->t_nic[card][j]; i++) adj[ni++] = owned & d->cat_mask[d->t_icon[card][j][i]];
        int mate[WO_NMACH];
        for (int m = 0; m < WO_NMACH; m++) mate[m] = -1;
        int ok = 1;
        for (int i = 0; i < ni && ok; i++) { uint64_t used = 0; ok = match_try(i, adj, mate, &used); }
        if (ok) best = pts;
    }
    return best;
}

static int machine_vp(const wo_data *d, uint64_t owned) {
    int v = 0;
    for (; owned; owned &= owned - 1) v += d->m_vp[__builtin_ctzll(owned)];
    return v;
}

static int score_of(const wo_data *d, const wo_state *s, int p) {
    return machine_vp(d, s->owned[p]) + task_points(d, s->owned[p], s->task[p]);
}

static void wo_scores(const es_game *g, const void *vs, double *out) {
    const wo_state *s = (const wo_state *)vs;
    for (int p = 0; p < g->players; p++) out[p] = score_of(DATA(g), s, p);
}

/* Highest score, then most cubes, then the best single machine (WO-A22); winners share 1. */
static void wo_returns(const es_game *g, const void *vs, double *out) {
    const wo_state *s = (const wo_state *)vs;
    const wo_data *d = DATA(g);
    long key[WO_MAXP], best = -1;
    int winners = 0;
    for (int p = 0; p < g->players; p++) {
        out[p] = 0;
        int cubes = 0, top = 0;
        for (int r = 0; r < WO_NRES; r++) cubes += s->storage[p][r];
        for (uint64_t o = s->owned[p]; o; o &= o - 1) if (d->m_vp[__builtin_ctzll(o)] > top) top = d->m_vp[__builtin_ctzll(o)];
        key[p] = ((long)score_of(d, s, p) * 256 + cubes) * 16 + top;
        if (key[p] > best) best = key[p];
    }
    if (s->phase != WO_PH_OVER) return;
    for (int p = 0; p < g->players; p++) winners += key[p] == best;
    for (int p = 0; p < g->players; p++) if (key[p] == best) out[p] = 1.0 / winners;
}

/* ---------------------------------------------------------------- flow */

static void run(const es_game *g, wo_state *s);

/* Draw into slot k, then continue at phase cont (an empty deck leaves the slot empty). */
static void fill_one(wo_state *s, int slot, int cont) {
    s->fill_slot = (uint8_t)slot;
    s->cont = (uint8_t)cont;
    s->office[slot] = -1;
    if (s->deck) { s->phase = WO_PH_DRAW; return; }
    s->phase = (uint8_t)cont;
    s->cont = s->fill_slot = 0;
}

static int cubes_on(const wo_state *s, int f) {
    int c = 0;
    for (int r = 0; r < WO_NRES; r++) c += s->siding[f][r];
    return c;
}

static int fe_forced_here(const es_game *g, const wo_state *s) {
    return !g->options[WO_OPT_FE_LAST] || s->fac_idx == DATA(g)->sched_n[s->round - 1] - 1;
}

/* The pick options of seat p now: bit r for resource r, bit 5 for the First Engineer. */
static int pick_options(const es_game *g, const wo_state *s, int p) {
    int f = sched_fac(g, s), opt = 0;
    for (int r = 0; r < WO_NRES; r++)
        if (s->siding[f][r] && s->storage[p][r] < WO_CAP) opt |= 1 << r;
    if (s->fe < 0 && !(g->options[WO_OPT_FE_SINGLE] && s->turn == 0)) opt |= 1 << 5;
    return opt;
}

static void take_pick(const es_game *g, wo_state *s, int p, int what) {
    if (what == 5) s->fe = (int8_t)p;
    else { s->siding[sched_fac(g, s)][what]--; s->storage[p][what]++; }
    s->took = 1;
    s->picks_left--;
}

static int tm_eligible(const es_game *g, const wo_state *s, int p) {
    int bit = g->options[WO_OPT_TM_PER_FACTORY] ? (1 << sched_fac(g, s)) : 1;
    return (s->upg[p] & 2) && !(s->tm_used[p] & bit) && s->workshop[p] >= 1;
}

static int machine_move_count(const es_game *g, const wo_state *s, int p, es_move *out);

static void refill_sidings(const es_game *g, wo_state *s) {
    const wo_data *d = DATA(g);
    int y = g->players == 4, r0 = s->round - 1;
    int avail[WO_NRES];
    for (int r = 0; r < WO_NRES; r++) {
        avail[r] = d->supply[r];
        for (int p = 0; p < g->players; p++) avail[r] -= s->storage[p][r];
        for (int f = 0; f < WO_NFAC; f++) avail[r] -= s->siding[f][r];
    }
    for (int i = 0; i < d->sched_n[r0]; i++) {
        int f = d->sched[r0][i];
        for (int r = 0; r < WO_NRES; r++) {
            int want = d->siding[y][f][r] - s->siding[f][r];
            if (g->options[WO_OPT_FINITE] && want > avail[r]) want = avail[r] > 0 ? avail[r] : 0;
            s->siding[f][r] = (uint8_t)(s->siding[f][r] + want);
            avail[r] -= want;
        }
    }
}

static void run(const es_game *g, wo_state *s) {
    const wo_data *d = DATA(g);
    int n = g->players;
    for (;;) {
        switch (s->phase) {
        case T_FILLALL: {
            int k = 2;
            while (k >= 0 && s->office[k] >= 0) k--;
            if (k < 0 || !s->deck) { s->phase = s->fill_cont; s->fill_cont = 0; break; }
            fill_one(s, k, T_FILLALL);
            break;
        }
        case T_DEAL:
            if (s->seat_ptr < n) { s->phase = WO_PH_DEAL; s->actor = -1; return; }
            if (g->options[WO_OPT_START_PLAYER] >= 0) { s->start0 = (uint8_t)g->options[WO_OPT_START_PLAYER]; s->phase = T_ROUND; break; }
            s->phase = WO_PH_START; s->actor = -1; return;
        case T_ROUND:
            s->seat_ptr = 0;
            s->phase = T_WORKER;
            break;
        case T_WORKER:
            while (s->seat_ptr < n) {
                int p = (start_of(g, s) + s->seat_ptr) % n;
                if (s->workshop[p] >= 1) { s->actor = (int8_t)p; s->phase = WO_PH_PLACE; return; }
                s->seat_ptr++;
            }
            for (int p = 0; p < n; p++)
                while (s->workshop[p] < capacity(s, p) && s->supply[p]) { s->workshop[p]++; s->supply[p]--; }
            s->fac_idx = 0;
            s->phase = d->sched_n[s->round - 1] ? T_FACTORY : T_ENDROUND;
            break;
        case T_FACTORY:
            if (s->fac_idx >= d->sched_n[s->round - 1]) { s->phase = T_FACTORIES_DONE; break; }
            s->neutral_count = 0; s->count_card = -1; s->order_card = -1;
            s->seat_ptr = 0;
            if (n == 2) { s->phase = WO_PH_NCOUNT; s->actor = -1; return; }
            s->phase = T_TM;
            break;
        case T_TM:
            while (s->seat_ptr < n) {
                int p = (start_of(g, s) + s->seat_ptr) % n;
                if (tm_eligible(g, s, p)) { s->actor = (int8_t)p; s->phase = WO_PH_TM; return; }
                s->seat_ptr++;
            }
            s->phase = T_RANK;
            break;
        case T_RANK: {
            int f = sched_fac(g, s), k = 0;
            for (int p = 0; p < n; p++)
                if (s->fac[p][f]) { s->order[k] = (uint8_t)p; s->cnt[k++] = s->fac[p][f]; }
            if (s->neutral_count > 0) { s->order[k] = WO_NEUTRAL; s->cnt[k++] = (uint8_t)s->neutral_count; }
            for (int i = 1; i < k; i++)   /* insertion sort by count, descending (stable) */
                for (int j = i; j > 0 && s->cnt[j] > s->cnt[j - 1]; j--) {
                    uint8_t a = s->order[j], b = s->cnt[j];
                    s->order[j] = s->order[j - 1]; s->cnt[j] = s->cnt[j - 1];
                    s->order[j - 1] = a; s->cnt[j - 1] = b;
                }
            s->order_len = (uint8_t)k;
            for (int i = k; i < 5; i++) s->order[i] = s->cnt[i] = 0;
            for (int p = 0; p < n; p++) { s->supply[p] = (uint8_t)(s->supply[p] + s->fac[p][f]); s->fac[p][f] = 0; }
            s->tie_lo = 0;
            s->phase = T_TIES;
            break;
        }
        case T_TIES: {
            int i = s->tie_lo;
            while (i < s->order_len) {
                int j = i;
                while (j + 1 < s->order_len && s->cnt[j + 1] == s->cnt[i]) j++;
                if (j > i) { s->tie_lo = (uint8_t)i; s->tie_hi = (uint8_t)j; s->phase = WO_PH_TIE; s->actor = -1; return; }
                i = j + 1;
            }
            s->tie_lo = s->tie_hi = 0;
            s->turn = 0; s->picks_left = 2; s->took = 0; s->skip_run = 0;
            if (s->neutral_count > 0) { s->phase = WO_PH_NORDER; s->actor = -1; return; }
            s->phase = T_PICK;
            break;
        }
        case T_PICK: {
            int f = sched_fac(g, s), k = s->order_len;
            if (!k) { s->phase = T_FACTORY_END; break; }
            if (s->picks_left == (s->turn == 0 ? 2 : 1) && !s->took) {   /* a turn starts */
                int human = 0;
                for (int i = 0; i < k; i++) human |= s->order[i] != WO_NEUTRAL;
                if (s->skip_run >= k || (!cubes_on(s, f) && (s->fe >= 0 || !human || !fe_forced_here(g, s)))) {
                    s->phase = T_FACTORY_END;
                    break;
                }
            }
            int q = s->order[s->turn % k];
            int opt = 0;
            if (s->picks_left) {
                if (q == WO_NEUTRAL) {
                    for (int i = 0; i < WO_NRES; i++) {
                        int r = d->sp_order[s->order_card][i];
                        if (s->siding[f][r]) { s->siding[f][r]--; s->took = 1; s->picks_left--; opt = -1; break; }
                    }
                    if (opt < 0) break;   /* the neutral's next pick, if any */
                } else {
                    opt = pick_options(g, s, q);
                    if (opt && !(opt & (opt - 1))) { take_pick(g, s, q, __builtin_ctz(opt)); break; }
                    if (opt) { s->actor = (int8_t)q; s->phase = WO_PH_PICK; return; }
                }
            }
            /* the turn ends */
            s->skip_run = s->took ? 0 : (uint8_t)(s->skip_run + 1);
            s->turn++;
            s->picks_left = 1;
            s->took = 0;
            break;
        }
        case T_FACTORY_END: {
            int f = sched_fac(g, s);
            memset(s->siding[f], 0, sizeof s->siding[f]);   /* leftovers to the supply; refilled after the phase */
            s->order_len = 0;
            memset(s->order, 0, sizeof s->order);
            memset(s->cnt, 0, sizeof s->cnt);
            s->turn = s->picks_left = s->took = s->skip_run = 0;
            s->neutral_count = 0; s->count_card = s->order_card = -1;
            s->fac_idx++;
            s->phase = T_FACTORY;
            break;
        }
        case T_FACTORIES_DONE:
            if (s->fe < 0) s->fe = (int8_t)start_of(g, s);
            refill_sidings(g, s);
            s->fac_idx = 0;
            s->actor = s->fe;
            s->pass_run = 0; s->built = 0;
            s->phase = T_MACHINE;
            break;
        case T_MACHINE:
            if (s->pass_run >= n) {
                int change;
                if (!s->built) change = 1;
                else if (d->n_change == 0) change = 0;
                else if (d->n_change == WO_NSPECIAL) change = 1;
                else { s->phase = WO_PH_CHANGE; s->actor = -1; return; }
                if (change) {
                    if (s->office[2] >= 0) s->discard |= 1ULL << s->office[2];
                    s->office[2] = s->office[1]; s->office[1] = s->office[0];
                    fill_one(s, 0, T_MACHINE_END);
                } else s->phase = T_MACHINE_END;
                break;
            }
            if (machine_move_count(g, s, s->actor, NULL) >= 2) { s->phase = WO_PH_MACHINE; return; }
            s->pass_run++;
            s->actor = (int8_t)((s->actor + 1) % n);
            break;
        case T_MACHINE_END:
            s->fe = -1;
            s->pass_run = 0; s->built = 0;
            s->phase = T_ENDROUND;
            break;
        case T_ENDROUND:
            memset(s->tm_used, 0, sizeof s->tm_used);
            s->actor = -1;
            if (s->round == 12) {
                s->deck |= s->deck_b; s->deck_b = 0;
                s->fill_cont = T_NEXTROUND; s->phase = T_FILLALL;
            } else if (s->round == 22) {
                uint64_t back = s->discard & (g->options[WO_OPT_STRIKE_22] ? ~0ULL : ~(1ULL << WO_STRIKE));
                s->deck |= back; s->discard &= ~back;
                s->fill_cont = T_NEXTROUND; s->phase = T_FILLALL;
            } else s->phase = T_NEXTROUND;
            break;
        case T_NEXTROUND:
            s->fill_cont = 0;
            if (s->round >= rounds_of(g)) { s->phase = WO_PH_OVER; s->actor = -1; return; }
            s->round++;
            s->phase = T_ROUND;
            break;
        default:
            return;   /* a node */
        }
    }
}

static void wo_init(const es_game *g, void *vs) {
    const wo_data *d = DATA(g);
    wo_state *s = (wo_state *)vs;
    memset(s, 0, sizeof *s);
    s->deck = d->deck_a;
    s->deck_b = d->deck_b;
    s->round = 1;
    s->fe = -1;
    s->neutral_count = 0; s->count_card = s->order_card = -1;
    for (int k = 0; k < 3; k++) s->office[k] = -1;
    int y = g->players == 4;
    for (int f = 0; f < WO_NFAC; f++)
        for (int r = 0; r < WO_NRES; r++) s->siding[f][r] = (uint8_t)d->siding[y][f][r];
    for (int p = 0; p < WO_MAXP; p++) s->task[p] = -1;
    for (int p = 0; p < g->players; p++) { s->workshop[p] = 3; s->supply[p] = WO_WORKERS - 3; }
    s->fill_cont = T_DEAL;
    s->phase = T_FILLALL;
    s->actor = -1;
    run(g, s);
}

static int wo_current_player(const es_game *g, const void *vs) {
    const wo_state *s = (const wo_state *)vs;
    (void)g;
    switch (s->phase) {
    case WO_PH_PLACE: case WO_PH_TM: case WO_PH_PICK: case WO_PH_MACHINE: return s->actor;
    case WO_PH_OVER: return ES_TERMINAL;
    default: return ES_CHANCE;
    }
}

/* ---------------------------------------------------------------- moves */

/* The payment list of machine-phase target t for p (t 0-2: office slot t, BUILD; t 3-5: upgrade
 * t - 3, UPGRADE), or -1 if the target is closed (an empty slot, an upgrade p owns). */
static inline int target_list(const wo_state *s, int p, int t) {
    if (t < 3) return s->office[t] >= 0 ? machine_list(s->office[t], (s->upg[p] >> 2) & 1) : -1;
    return s->upg[p] >> (t - 3) & 1 ? -1 : upgrade_list(t - 3);
}

static int machine_move_count(const es_game *g, const wo_state *s, int p, es_move *out) {
    const wo_data *d = DATA(g);
    int n = 0;
    if (!out) {   /* only "is anything but PASS legal?" (run() skips forced passes) */
        int st = st_index(s->storage[p]);
        for (int t = 0; t < 6; t++)
            if (target_list(s, p, t) >= 0 && d->fit_count[target_list(s, p, t)][st]) return 2;
        return 1;
    }
    out[n++] = MV(WO_M_PASS, 0);
    for (int t = 0; t < 6; t++)
        if (target_list(s, p, t) >= 0)
            n += list_payments(d, s->storage[p], target_list(s, p, t), t < 3 ? WO_M_BUILD : WO_M_UPGRADE, t % 3, out + n);
    return n;
}

static int wo_legal_moves(const es_game *g, const void *vs, es_move *out) {
    const wo_state *s = (const wo_state *)vs;
    int p = s->actor, n = 0;
    switch (s->phase) {
    case WO_PH_PLACE: {
        int w = s->workshop[p];
        for (int a = 0; a <= w; a++)
            for (int b = 0; a + b <= w; b++) out[n++] = MV(WO_M_PLACE, a + 5 * b + 25 * (w - a - b));
        return n;
    }
    case WO_PH_TM:
        out[0] = MV(WO_M_TM, 0); out[1] = MV(WO_M_TM, 1);
        return 2;
    case WO_PH_PICK: {
        int opt = pick_options(g, s, p);
        for (int r = 0; r < 6; r++) if (opt >> r & 1) out[n++] = MV(WO_M_PICK, r);
        return n;
    }
    case WO_PH_MACHINE:
        return machine_move_count(g, s, p, out);
    default:
        return 0;
    }
}

/* The move legal_moves would list at index es_rng_u32_below(rng, n), without the list (the
 * eurosearch.h contract): placements and picks by their rank, machine-phase moves by counting
 * each target's payments and then finding the drawn one. */
static es_move wo_random_move(const es_game *g, const void *vs, es_rng *rng, int *count) {
    const wo_state *s = (const wo_state *)vs;
    const wo_data *d = DATA(g);
    int p = s->actor;
    switch (s->phase) {
    case WO_PH_PLACE: {
        int w = s->workshop[p], n = *count = (w + 1) * (w + 2) / 2;
        int k = (int)es_rng_u32_below(rng, (uint32_t)n);
        for (int a = 0; a <= w; a++) {
            if (k <= w - a) return MV(WO_M_PLACE, a + 5 * k + 25 * (w - a - k));
            k -= w - a + 1;
        }
        return 0;
    }
    case WO_PH_TM:
        *count = 2;
        return MV(WO_M_TM, (int)es_rng_u32_below(rng, 2));
    case WO_PH_PICK: {
        int opt = pick_options(g, s, p), n = *count = __builtin_popcount((unsigned)opt);
        if (!n) return 0;
        for (int k = (int)es_rng_u32_below(rng, (uint32_t)n); k > 0; k--) opt &= opt - 1;
        return MV(WO_M_PICK, __builtin_ctz((unsigned)opt));
    }
    case WO_PH_MACHINE: {
        int cnt[6] = {0}, list[6], total = 1, st = st_index(s->storage[p]);
        for (int t = 0; t < 6; t++) {   /* targets: office slots 0-2, upgrades 0-2 */
            if ((list[t] = target_list(s, p, t)) < 0) continue;
            total += cnt[t] = d->fit_count[list[t]][st];
        }
        *count = total;
        int k = (int)es_rng_u32_below(rng, (uint32_t)total);
        if (k-- == 0) return MV(WO_M_PASS, 0);
        for (int t = 0; t < 6; t++) {
            if (k < cnt[t]) {
                return MV(t < 3 ? WO_M_BUILD : WO_M_UPGRADE, t % 3 + 3 * nth_payment(d, s->storage[p], list[t], k));
            }
            k -= cnt[t];
        }
        return 0;
    }
    default:
        *count = -1;   /* not a decision node: the caller lists (and finds none) */
        return 0;
    }
}

static int fact(int k) { return k <= 1 ? 1 : k * fact(k - 1); }

static int wo_chance_outcomes(const es_game *g, const void *vs, es_move *out, double *prob) {
    const wo_state *s = (const wo_state *)vs;
    const wo_data *d = DATA(g);
    int n = 0, np = g->players;
    switch (s->phase) {
    case WO_PH_DRAW: {
        int sz = popc(s->deck);
        for (uint64_t x = s->deck; x; x &= x - 1) { out[n] = MV(WO_M_DRAW, __builtin_ctzll(x)); prob[n++] = 1.0 / sz; }
        return n;
    }
    case WO_PH_DEAL: {
        int used = 0;
        for (int p = 0; p < np; p++) if (s->task[p] >= 0) used |= 1 << s->task[p];
        int left = WO_NTASKCARDS - __builtin_popcount(used);
        for (int c = 0; c < WO_NTASKCARDS; c++) if (!(used >> c & 1)) { out[n] = MV(WO_M_DEAL, c); prob[n++] = 1.0 / left; }
        return n;
    }
    case WO_PH_START:
        for (int p = 0; p < np; p++) { out[n] = MV(WO_M_START, p); prob[n++] = 1.0 / np; }
        return n;
    case WO_PH_STRIKE:
        for (int a = 0; a < np; a++)
            for (int b = 0; b < np; b++)
                if (a != b) { out[n] = MV(WO_M_STRIKE, a + 4 * b); prob[n++] = 1.0 / (np * (np - 1)); }
        return n;
    case WO_PH_TIE: {
        int k = s->tie_hi - s->tie_lo + 1, idx[5];
        for (int i = 0; i < k; i++) idx[i] = i;
        double pr = 1.0 / fact(k);
        for (;;) {   /* permutations in lexicographic order */
            int code = 0, mul = 1;
            for (int i = 0; i < k; i++) { code += s->order[s->tie_lo + idx[i]] * mul; mul *= 5; }
            out[n] = MV(WO_M_TIE, code); prob[n++] = pr;
            int i = k - 2;
            while (i >= 0 && idx[i] > idx[i + 1]) i--;
            if (i < 0) break;
            int j = k - 1;
            while (idx[j] < idx[i]) j--;
            int t = idx[i]; idx[i] = idx[j]; idx[j] = t;
            for (int a = i + 1, b = k - 1; a < b; a++, b--) { t = idx[a]; idx[a] = idx[b]; idx[b] = t; }
        }
        return n;
    }
    case WO_PH_NCOUNT:
        for (int i = 0; i < WO_NSPECIAL; i++) { out[n] = MV(WO_M_NCOUNT, i); prob[n++] = 1.0 / WO_NSPECIAL; }
        return n;
    case WO_PH_NORDER:
        for (int i = 0; i < WO_NSPECIAL; i++)
            if (i != s->count_card) { out[n] = MV(WO_M_NORDER, i); prob[n++] = 1.0 / (WO_NSPECIAL - 1); }
        return n;
    case WO_PH_CHANGE:
        out[0] = MV(WO_M_CHANGE, 0); prob[0] = 1.0 - (double)d->n_change / WO_NSPECIAL;
        out[1] = MV(WO_M_CHANGE, 1); prob[1] = (double)d->n_change / WO_NSPECIAL;
        return 2;
    default:
        return 0;
    }
}

static es_move wo_sample_chance(const es_game *g, const void *vs, es_rng *rng) {
    const wo_state *s = (const wo_state *)vs;
    if (s->phase == WO_PH_DRAW) {
        int k = (int)es_rng_u32_below(rng, (uint32_t)popc(s->deck));
        uint64_t x = s->deck;
        while (k--) x &= x - 1;
        return MV(WO_M_DRAW, __builtin_ctzll(x));
    }
    es_move out[WO_MAX_CHANCE];
    double prob[WO_MAX_CHANCE];
    int n = wo_chance_outcomes(g, vs, out, prob);
    if (n <= 0) return 0;
    if (s->phase == WO_PH_CHANGE) {
        double u = es_rng_unit(rng);
        return u < prob[0] ? out[0] : out[1];
    }
    return out[es_rng_u32_below(rng, (uint32_t)n)];   /* every other node is uniform */
}

/* Whether the outcome code of a TIE node orders exactly the tied entries order[tie_lo..tie_hi]
 * (distinct seats, or the neutral): k base-5 digits, each one of them, once. */
static int tie_code_ok(const wo_state *s, int code) {
    int k = s->tie_hi - s->tie_lo + 1, want = 0;
    for (int i = s->tie_lo; i <= s->tie_hi && i < 5; i++) want |= 1 << s->order[i];
    for (int i = 0; i < k; i++, code /= 5) {
        if (!(want >> (code % 5) & 1)) return 0;
        want &= ~(1 << (code % 5));
    }
    return code == 0 && want == 0;
}

/* is_legal hook (issue 19): a checked apply without the list, whose machine phase can hold
 * thousands of payments. m is decoded and tested with the generator's conditions: a placement
 * of all the workshop, pick_options, an open target (target_list) whose payment list holds the
 * payment (has_payment); a chance outcome by its node's range. */
static int wo_is_legal(const es_game *g, const void *vs, es_move m) {
    const wo_state *s = (const wo_state *)vs;
    int a = MV_ARG(m), kind = MV_KIND(m), p = s->actor, np = g->players;
    if (m < 0) return 0;
    switch (s->phase) {
    case WO_PH_PLACE: return kind == WO_M_PLACE && a < 125 && a % 5 + a / 5 % 5 + a / 25 == s->workshop[p];
    case WO_PH_TM: return kind == WO_M_TM && a <= 1;
    case WO_PH_PICK: return kind == WO_M_PICK && a < 6 && (pick_options(g, s, p) >> a & 1);
    case WO_PH_MACHINE: {
        int t = kind == WO_M_BUILD ? a % 3 : kind == WO_M_UPGRADE ? 3 + a % 3 : -1, list;
        if (kind == WO_M_PASS) return a == 0;
        return t >= 0 && (list = target_list(s, p, t)) >= 0 && has_payment(DATA(g), s->storage[p], list, a / 3);
    }
    case WO_PH_DRAW: return kind == WO_M_DRAW && a < 64 && (s->deck >> a & 1);
    case WO_PH_DEAL:
        for (int q = 0; q < np; q++)
            if (s->task[q] == a) return 0;
        return kind == WO_M_DEAL && a < WO_NTASKCARDS;
    case WO_PH_START: return kind == WO_M_START && a < np;
    case WO_PH_STRIKE: return kind == WO_M_STRIKE && a < 16 && a % 4 < np && a / 4 < np && a % 4 != a / 4;
    case WO_PH_TIE: return kind == WO_M_TIE && tie_code_ok(s, a);
    case WO_PH_NCOUNT: return kind == WO_M_NCOUNT && a < WO_NSPECIAL;
    case WO_PH_NORDER: return kind == WO_M_NORDER && a < WO_NSPECIAL && a != s->count_card;
    case WO_PH_CHANGE: return kind == WO_M_CHANGE && a <= 1;
    }
    return 0;
}

static void wo_apply(const es_game *g, void *vs, es_move m) {
    wo_state *s = (wo_state *)vs;
    const wo_data *d = DATA(g);
    int n = g->players, a = MV_ARG(m), p = s->actor;
    switch (MV_KIND(m)) {
    case WO_M_PLACE: {
        int w[3] = {a % 5, a / 5 % 5, a / 25};
        for (int f = 0; f < 3; f++) s->fac[p][f] = (uint8_t)(s->fac[p][f] + w[f]);
        s->placed[p][s->round] = s->workshop[p];
        s->workshop[p] = 0;
        s->seat_ptr++;
        s->phase = T_WORKER;
        break;
    }
    case WO_M_TM:
        if (a) {
            s->workshop[p]--;
            s->fac[p][sched_fac(g, s)]++;
            s->tm_used[p] |= (uint8_t)(g->options[WO_OPT_TM_PER_FACTORY] ? (1 << sched_fac(g, s)) : 1);
        }
        s->seat_ptr++;
        s->phase = T_TM;
        break;
    case WO_M_PICK:
        take_pick(g, s, p, a);
        s->phase = T_PICK;
        break;
    case WO_M_PASS:
        s->pass_run++;
        s->actor = (int8_t)((p + 1) % n);
        s->phase = T_MACHINE;
        break;
    case WO_M_BUILD: {
        int k = a % 3, c = s->office[k];
        st_unpack(a / 3, s->storage[p]);
        s->owned[p] |= 1ULL << c;
        for (int j = k; j > 0; j--) s->office[j] = s->office[j - 1];
        s->built = 1;
        s->pass_run = 0;
        s->actor = (int8_t)((p + 1) % n);
        fill_one(s, 0, T_MACHINE);
        break;
    }
    case WO_M_UPGRADE: {
        int u = a % 3;
        st_unpack(a / 3, s->storage[p]);
        s->upg[p] |= (uint8_t)(1 << u);
        if (u == 0 && s->supply[p]) { s->supply[p]--; s->workshop[p]++; }
        s->pass_run = 0;
        s->actor = (int8_t)((p + 1) % n);
        s->phase = T_MACHINE;
        break;
    }
    case WO_M_DRAW:
        s->deck &= ~(1ULL << a);
        if (a == WO_STRIKE) { s->discard |= 1ULL << a; s->phase = WO_PH_STRIKE; return; }
        s->office[s->fill_slot] = (int8_t)a;
        s->phase = s->cont;
        s->cont = s->fill_slot = 0;
        break;
    case WO_M_STRIKE: {
        int hi = a % 4, lo = a / 4;
        int x = s->workshop[hi] < 2 ? s->workshop[hi] : 2;
        s->workshop[hi] = (uint8_t)(s->workshop[hi] - x); s->supply[hi] = (uint8_t)(s->supply[hi] + x);
        x = s->workshop[lo] < 1 ? s->workshop[lo] : 1;
        s->workshop[lo] = (uint8_t)(s->workshop[lo] - x); s->supply[lo] = (uint8_t)(s->supply[lo] + x);
        fill_one(s, s->fill_slot, s->cont);
        break;
    }
    case WO_M_DEAL:
        s->task[s->seat_ptr++] = (int8_t)a;
        s->phase = T_DEAL;
        if (s->seat_ptr >= n) s->seat_ptr = n;
        break;
    case WO_M_START:
        s->start0 = (uint8_t)a;
        s->seat_ptr = 0;
        s->phase = T_ROUND;
        break;
    case WO_M_TIE: {
        int k = s->tie_hi - s->tie_lo + 1;
        for (int i = 0; i < k; i++) { s->order[s->tie_lo + i] = (uint8_t)(a % 5); a /= 5; }
        s->tie_lo = (uint8_t)(s->tie_hi + 1);
        s->phase = T_TIES;
        break;
    }
    case WO_M_NCOUNT:
        s->count_card = (int8_t)a;
        s->neutral_count = (int8_t)d->sp_value[a];
        s->phase = T_TM;
        break;
    case WO_M_NORDER:
        s->order_card = (int8_t)a;
        s->phase = T_PICK;
        break;
    case WO_M_CHANGE:
        if (a) {
            if (s->office[2] >= 0) s->discard |= 1ULL << s->office[2];
            s->office[2] = s->office[1]; s->office[1] = s->office[0];
            fill_one(s, 0, T_MACHINE_END);
        } else s->phase = T_MACHINE_END;
        break;
    }
    if (s->phase == T_ROUND && MV_KIND(m) == WO_M_DEAL) s->seat_ptr = 0;
    run(g, s);
}

/* ---------------------------------------------------------------- knowledge */

/* Hidden placement (spec 4.9, option hidden_placement): each player's per-factory placement
 * is private until the factory opens; each player's total placed per round is public
 * (placed[][]), and so is every workshop and personal supply, hence each player's total of
 * workers still hidden in the factories. */

/* The factory being resolved now (its counts are public from its opening), or -1. */
static int open_factory(const es_game *g, const wo_state *s) {
    int ph = s->phase;
    if (ph == WO_PH_NCOUNT || ph == WO_PH_TM || ph == WO_PH_TIE || ph == WO_PH_NORDER || ph == WO_PH_PICK)
        return sched_fac(g, s);
    return -1;
}

/* How many of the current round's factories have opened (their placements so far revealed). */
static int opened_this_round(const es_game *g, const wo_state *s) {
    int ph = s->phase, all = DATA(g)->sched_n[s->round - 1];
    if (ph == WO_PH_NCOUNT || ph == WO_PH_TM || ph == WO_PH_TIE || ph == WO_PH_NORDER || ph == WO_PH_PICK)
        return s->fac_idx + 1;
    if (ph == WO_PH_MACHINE || ph == WO_PH_CHANGE || ph == WO_PH_OVER) return all;
    if ((ph == WO_PH_DRAW || ph == WO_PH_STRIKE) && s->fill_cont != T_DEAL) return all;   /* machine phase or round end */
    return 0;   /* setup, worker phase */
}

/* Workers p placed since factory f last opened: public, and an upper bound on p's workers in f. */
static int placed_since_open(const es_game *g, const wo_state *s, int p, int f) {
    const wo_data *d = DATA(g);
    int last = 0, total = 0;
    for (int r = 1; r <= s->round; r++) {
        int k = r < s->round ? d->sched_n[r - 1] : opened_this_round(g, s);
        for (int i = 0; i < k; i++) if (d->sched[r - 1][i] == f) last = r;
    }
    for (int r = last + 1; r <= s->round; r++) total += s->placed[p][r];
    return total;
}

/* Other players' task cards are hidden (spec 6); with hidden placement, also their workers in
 * the factories not being resolved: shown as 0, their sum in hidden_workers (public). */
static void wo_redact(const es_game *g, const void *vs, int viewer, void *vout) {
    wo_state *s = (wo_state *)vout;
    memcpy(s, vs, sizeof *s);
    int open = open_factory(g, s);
    for (int p = 0; p < g->players; p++) {
        if (p == viewer) continue;
        s->task[p] = -1;
        if (!g->options[WO_OPT_HIDDEN]) continue;
        for (int f = 0; f < WO_NFAC; f++)
            if (f != open) { s->hidden_workers[p] = (uint8_t)(s->hidden_workers[p] + s->fac[p][f]); s->fac[p][f] = 0; }
    }
}

/* A task card dealt to another seat is seen face down; with hidden placement, another
 * player's placement is seen as its total only (PLACE_HIDDEN). */
static es_move wo_move_view(const es_game *g, const void *vs, es_move m, int viewer) {
    const wo_state *s = (const wo_state *)vs;
    if (MV_KIND(m) == WO_M_DEAL && s->seat_ptr != viewer) return MV(WO_M_DEAL, 31);
    if (MV_KIND(m) == WO_M_PLACE && g->options[WO_OPT_HIDDEN] && s->actor != viewer) {
        int a = MV_ARG(m);
        return MV(WO_M_PLACE_HIDDEN, a % 5 + a / 5 % 5 + a / 25);
    }
    return m;
}

/* Opponents' task cards are redealt uniformly from the cards the observer has not seen. With
 * hidden placement, each other player's hidden workers are redistributed over the factories
 * not being resolved: uniformly over the vectors with the public total in which no factory
 * holds more than the player placed since it last opened (docs/wolsung_engine.md says why
 * this distribution). */
static void wo_determinize(const es_game *g, void *vs, int observer, es_rng *rng) {
    wo_state *s = (wo_state *)vs;
    int pool[WO_NTASKCARDS], np = 0, who[WO_MAXP], nw = 0;
    for (int c = 0; c < WO_NTASKCARDS; c++)
        if (!(IN(observer, 0, g->players - 1) && s->task[observer] == c)) pool[np++] = c;
    for (int p = 0; p < g->players; p++)
        if (p != observer && s->task[p] >= 0) who[nw++] = p;
    for (int i = 0; i < nw; i++) {
        int j = i + (int)es_rng_u32_below(rng, (uint32_t)(np - i));
        int t = pool[i]; pool[i] = pool[j]; pool[j] = t;
        s->task[who[i]] = (int8_t)pool[i];
    }
    if (!g->options[WO_OPT_HIDDEN]) return;
    int open = open_factory(g, s);
    for (int p = 0; p < g->players; p++) {
        if (p == observer) continue;
        int cap[WO_NFAC], h = 0;
        for (int f = 0; f < WO_NFAC; f++) {
            cap[f] = f == open ? 0 : placed_since_open(g, s, p, f);
            if (f != open) h += s->fac[p][f];
        }
        if (!h) continue;
        /* ways(y0) = number of (y1, y2) with y1 + y2 = h - y0 within the caps */
        uint32_t total = 0, ways[WO_WORKERS + 1];
        for (int y0 = 0; y0 <= h && y0 <= cap[0]; y0++) {
            int rest = h - y0, lo = rest - cap[2] > 0 ? rest - cap[2] : 0, hi = rest < cap[1] ? rest : cap[1];
            ways[y0] = hi >= lo ? (uint32_t)(hi - lo + 1) : 0;
            total += ways[y0];
        }
        uint32_t k = es_rng_u32_below(rng, total);   /* total >= 1: the true split is one */
        int y0 = 0;
        while (k >= ways[y0]) k -= ways[y0++];
        int rest = h - y0, lo = rest - cap[2] > 0 ? rest - cap[2] : 0;
        int y1 = lo + (int)k;
        int y[WO_NFAC] = {y0, y1, rest - y1};
        for (int f = 0; f < WO_NFAC; f++) if (f != open) s->fac[p][f] = (uint8_t)y[f];
    }
}

/* ---------------------------------------------------------------- evaluation */

static int match_size(const wo_data *d, uint64_t owned, int card, int j) {
    uint64_t adj[WO_MAXICONS];
    int ni = d->t_nic[card][j], mate[WO_NMACH], got = 0;
    for (int i = 0; i < ni; i++) adj[i] = owned & d->cat_mask[d->t_icon[card][j][i]];
    for (int m = 0; m < WO_NMACH; m++) mate[m] = -1;
    for (int i = 0; i < ni; i++) { uint64_t used = 0; got += match_try(i, adj, mate, &used); }
    return got;
}

/* Score now, plus task progress (each task's share of matched icons, half value), plus
 * what stored cubes and upgrades are worth toward future machines. */
static void wo_evaluate(const es_game *g, const void *vs, double *out) {
    const wo_state *s = (const wo_state *)vs;
    const wo_data *d = DATA(g);
    double left = (double)(rounds_of(g) - s->round + 1) / rounds_of(g);
    for (int p = 0; p < g->players; p++) {
        double v = score_of(d, s, p);
        int card = s->task[p];
        if (card >= 0)
            for (int j = 0; j < d->t_n[card]; j++) {
                int ni = d->t_nic[card][j], got = match_size(d, s->owned[p], card, j);
                if (got < ni) v += 0.5 * d->t_pts[card][j] * got / ni;
            }
        for (int r = 0; r < 4; r++) v += 0.3 * s->storage[p][r];
        v += 0.35 * s->storage[p][WO_GOLD];
        v += left * (2.0 * (s->upg[p] & 1) + 1.0 * (s->upg[p] >> 1 & 1) + 1.0 * (s->upg[p] >> 2 & 1));
        out[p] = v;
    }
}

/* ---------------------------------------------------------------- validation */

#define BAD(...) do { if (err && errlen) { int _k = snprintf(err, errlen, "invalid wolsung state: "); \
    if (_k >= 0 && (size_t)_k < errlen) snprintf(err + _k, errlen - (size_t)_k, __VA_ARGS__); } return ES_ERR_FORMAT; } while (0)

static int valid_cont(int c) { return c == T_FILLALL || c == T_MACHINE || c == T_MACHINE_END || c == T_NEXTROUND || c == T_DEAL; }

static int wo_validate(const es_game *g, const void *vs, char *err, size_t errlen) {
    const wo_state *s = (const wo_state *)vs;
    const wo_data *d = DATA(g);
    int n = g->players;
    uint64_t all = (1ULL << WO_NCARDS) - 1, seen = 0;
    if (!IN(s->phase, WO_PH_DRAW, WO_PH_OVER)) BAD("phase %d", s->phase);
    if (!IN(s->round, 1, rounds_of(g))) BAD("round %d", s->round);
    if (!IN(s->start0, 0, n - 1)) BAD("start player %d", s->start0);
    if (!IN(s->fe, -1, n - 1)) BAD("fe %d", s->fe);
    uint64_t sets[3 + WO_MAXP] = {s->deck, s->deck_b, s->discard};
    for (int p = 0; p < WO_MAXP; p++) sets[3 + p] = s->owned[p];
    for (int i = 0; i < 3 + WO_MAXP; i++) {
        if (sets[i] & ~all) BAD("card set %d holds no card", i);
        if (sets[i] & seen) BAD("a card is in two places");
        seen |= sets[i];
    }
    for (int p = n; p < WO_MAXP; p++) if (s->owned[p]) BAD("seat %d does not play", p);
    for (int p = 0; p < WO_MAXP; p++) if (s->owned[p] >> WO_STRIKE & 1) BAD("the Strike is owned");
    if (s->deck_b & ~d->deck_b) BAD("deck B holds a 1-2 VP card");
    if (s->deck_b && s->round > 12) BAD("deck B after round 12");
    for (int k = 0; k < 3; k++) {
        if (!IN(s->office[k], -1, WO_NMACH - 1)) BAD("office slot %d", k);
        if (s->office[k] >= 0) {
            if (seen >> s->office[k] & 1) BAD("office card %d is elsewhere", s->office[k]);
            seen |= 1ULL << s->office[k];
        }
    }
    int draw_pending = s->phase == WO_PH_DRAW || s->phase == WO_PH_STRIKE;
    if (draw_pending && (s->fill_slot > 2 || s->office[s->fill_slot] >= 0 || !valid_cont(s->cont))) BAD("draw target");
    if (s->phase == WO_PH_DRAW && !s->deck) BAD("draw from an empty deck");
    if (seen != all) BAD("a card is nowhere");
    if (!draw_pending && (s->cont || s->fill_slot || s->fill_cont)) BAD("draw fields outside a draw");
    if (draw_pending) {
        if ((s->cont == T_FILLALL) != (s->fill_cont != 0)) BAD("fill continuation");
        if (s->cont == T_MACHINE && (!s->built || s->pass_run || s->fe < 0 || !IN(s->actor, 0, n - 1))) BAD("draw after a build");
        if (s->cont == T_MACHINE_END && (s->fe < 0 || s->pass_run != n)) BAD("draw after a change");
        if (s->fill_cont == T_NEXTROUND && s->round != 12 && s->round != 22) BAD("merge fill outside rounds 12 and 22");
        if (s->fill_cont == T_DEAL && s->round != 1) BAD("setup fill after round 1");
        if (s->cont == T_FILLALL && s->fe >= 0) BAD("fill with the engineer taken");
    }
    if (s->fill_cont && !(s->fill_cont == T_DEAL || s->fill_cont == T_NEXTROUND)) BAD("fill continuation");
    int used = 0, dealt = 0;
    for (int p = 0; p < WO_MAXP; p++) {
        if (!IN(s->task[p], -1, WO_NTASKCARDS - 1)) BAD("task of seat %d", p);
        if (s->task[p] >= 0) {
            if (p >= n || (used >> s->task[p] & 1)) BAD("task card %d dealt twice", s->task[p]);
            used |= 1 << s->task[p];
            dealt++;
        }
        int tot = s->workshop[p] + s->supply[p];
        for (int f = 0; f < WO_NFAC; f++) tot += s->fac[p][f];
        for (int r = 0; r < WO_NRES; r++) if (s->storage[p][r] > WO_CAP) BAD("storage over the cap");
        if (p < n) {
            if (tot != WO_WORKERS) BAD("seat %d has %d workers", p, tot);
            if (s->workshop[p] > 4 || s->upg[p] > 7 || s->tm_used[p] > 7) BAD("seat %d workshop", p);
            if (s->workshop[p] > capacity(s, p)) BAD("workshop over capacity");
        } else if (tot || s->upg[p] || s->tm_used[p] || s->storage[p][0] || s->storage[p][1] || s->storage[p][2] || s->storage[p][3] || s->storage[p][4]) BAD("seat %d does not play", p);
        if (s->hidden_workers[p]) BAD("hidden workers in a real state");
        for (int r = 0; r < 32; r++) if (s->placed[p][r] > 4 || ((r > s->round || r == 0 || p >= n) && s->placed[p][r])) BAD("placed");
    }
    if (s->phase == WO_PH_DEAL || (s->phase == WO_PH_DRAW && s->fill_cont == T_DEAL) || (s->phase == WO_PH_STRIKE && s->fill_cont == T_DEAL)) {
        if (s->seat_ptr != dealt || dealt >= n + (s->phase != WO_PH_DEAL)) BAD("deal position");
        for (int p = 0; p < n; p++) if ((s->task[p] >= 0) != (p < dealt)) BAD("deal order");
    } else if (s->phase != WO_PH_DRAW && s->phase != WO_PH_STRIKE ? dealt != n : (s->fill_cont != T_DEAL && dealt != n)) BAD("tasks not dealt");
    for (int f = 0; f < WO_NFAC; f++) for (int r = 0; r < WO_NRES; r++) if (s->siding[f][r] > 15) BAD("siding");
    if (s->reserved[0] || s->reserved[1]) BAD("reserved bytes");
    int ph = s->phase;
    int in_factory = ph == WO_PH_NCOUNT || ph == WO_PH_TM || ph == WO_PH_TIE || ph == WO_PH_NORDER || ph == WO_PH_PICK;
    if (in_factory) {
        if (s->fac_idx >= d->sched_n[s->round - 1]) BAD("factory index");
        if (n != 2 && s->neutral_count) BAD("neutral with %d players", n);
        if (!IN(s->count_card, -1, 4) || !IN(s->order_card, -1, 4)) BAD("special card");
        if (n == 2 && ph != WO_PH_NCOUNT && (s->count_card < 0 || s->neutral_count != d->sp_value[s->count_card])) BAD("neutral count");
        if (s->order_card >= 0 && s->order_card == s->count_card) BAD("order card = count card");
    } else if (s->fac_idx || s->order_len || s->neutral_count || s->count_card != -1 || s->order_card != -1 || s->turn || s->picks_left || s->took || s->skip_run || s->tie_lo || s->tie_hi) BAD("factory fields outside the factory phase");
    if (s->order_len > 5 || s->tie_hi >= 5 || s->tie_lo > s->tie_hi + 1) BAD("order track");
    for (int i = 0; i < 5; i++) {
        if (i < s->order_len) {
            if (!(s->order[i] < n || (s->order[i] == WO_NEUTRAL && n == 2))) BAD("order track entry");
            for (int j = 0; j < i; j++) if (s->order[j] == s->order[i]) BAD("order track twice");
        } else if (s->order[i] || s->cnt[i]) BAD("order track tail");
    }
    if (ph == WO_PH_TIE && (s->tie_hi <= s->tie_lo || s->tie_hi >= s->order_len)) BAD("tie group");
    if (ph == WO_PH_PICK || ph == WO_PH_NORDER) {
        if (!s->order_len || s->picks_left > 2 || (s->picks_left == 2 && s->turn)) BAD("pick state");
        int neutral_in = 0;
        for (int i = 0; i < s->order_len; i++) neutral_in |= s->order[i] == WO_NEUTRAL;
        if (neutral_in != (s->order_card >= 0 || ph == WO_PH_NORDER) || (ph == WO_PH_NORDER && s->order_card >= 0)) BAD("neutral order card");
    }
    if (ph == WO_PH_PICK && (s->order[s->turn % s->order_len] != s->actor || !s->picks_left || s->skip_run >= s->order_len)) BAD("picker");
    int decision = ph == WO_PH_PLACE || ph == WO_PH_TM || ph == WO_PH_PICK || ph == WO_PH_MACHINE;
    if (decision && !IN(s->actor, 0, n - 1)) BAD("actor %d", s->actor);
    if (!decision && !IN(s->actor, -1, n - 1)) BAD("actor %d", s->actor);
    if ((ph == WO_PH_PLACE || ph == WO_PH_TM) && (s->seat_ptr >= n || (start_of(g, s) + s->seat_ptr) % n != s->actor)) BAD("seat order");
    if (ph != WO_PH_PLACE && ph != WO_PH_TM && ph != WO_PH_DEAL && !(draw_pending && s->fill_cont == T_DEAL) && s->seat_ptr > n) BAD("seat pointer");
    if (ph == WO_PH_PLACE && !s->workshop[s->actor]) BAD("placement without workers");
    if (ph == WO_PH_TM && !tm_eligible(g, s, s->actor)) BAD("time machine not eligible");
    if (ph == WO_PH_MACHINE && (s->fe < 0 || s->pass_run >= n)) BAD("machine phase");
    if (s->pass_run > n || s->built > 1) BAD("pass run");
    int machine_ctx = ph == WO_PH_MACHINE || ph == WO_PH_CHANGE || (draw_pending && (s->cont == T_MACHINE || s->cont == T_MACHINE_END));
    if (!machine_ctx && (s->pass_run || s->built)) BAD("machine-phase fields outside the machine phase");
    if (ph == WO_PH_CHANGE && (s->pass_run != n || s->fe < 0)) BAD("change check before the phase ends");
    if ((ph == WO_PH_PLACE || ph == WO_PH_DEAL || ph == WO_PH_START || ((ph == WO_PH_NCOUNT || ph == WO_PH_TM) && s->fac_idx == 0)) && s->fe >= 0)
        BAD("the engineer is taken outside the factory and machine phases");
    if (ph == WO_PH_CHANGE && (!s->built || d->n_change == 0 || d->n_change == WO_NSPECIAL)) BAD("change check");
    if (decision) {
        es_move tmp[WO_MAX_MOVES];
        if (wo_legal_moves(g, s, tmp) < 2) BAD("a decision with fewer than 2 moves");
    }
    return ES_OK;
}

/* ---------------------------------------------------------------- observation and text */

/* The vector's slices, in order (wo_observation_layout names them); seats relative to the viewer. */
#define WO_OBS_SEAT (WO_NRES + 2 + WO_NFAC + 3 + 1 + 4 + 4 + 2)
static int wo_observation_size(const es_game *g) {
    return g->players * (WO_OBS_SEAT + 1) + 8 + 1 + WO_NPHASES + 3 * 9 + WO_NFAC * WO_NRES + 5;
}

static int observe_impl(const es_game *g, const wo_state *s, int viewer, float *out) {
    const wo_data *d = DATA(g);
    int n = g->players, i = 0;
    for (int k = 0; k < n; k++) {
        int p = (viewer + k) % n;
        for (int r = 0; r < WO_NRES; r++) out[i++] = s->storage[p][r] / 4.0f;
        out[i++] = s->workshop[p] / 4.0f;
        out[i++] = s->supply[p] / 21.0f;
        for (int f = 0; f < WO_NFAC; f++) out[i++] = s->fac[p][f] / 8.0f;
        for (int u = 0; u < 3; u++) out[i++] = (float)(s->upg[p] >> u & 1);
        out[i++] = machine_vp(d, s->owned[p]) / 30.0f;
        for (int c = 0; c < 4; c++) { int m = 0; for (uint64_t o = s->owned[p]; o; o &= o - 1) m += d->m_type[__builtin_ctzll(o)] == c; out[i++] = m / 5.0f; }
        for (int c = 0; c < 4; c++) { int m = 0; for (uint64_t o = s->owned[p]; o; o &= o - 1) m += d->m_region[__builtin_ctzll(o)] == c; out[i++] = m / 5.0f; }
        out[i++] = (float)(s->fe == p);
        out[i++] = (float)(start_of(g, s) == p);
    }
    for (int k = 0; k < n; k++) out[i++] = (float)(s->actor == (viewer + k) % n);
    for (int c = 0; c < 8; c++) out[i++] = (float)(IN(viewer, 0, n - 1) && s->task[viewer] == c);
    out[i++] = s->round / 29.0f;
    for (int ph = 0; ph < WO_NPHASES; ph++) out[i++] = (float)(s->phase == ph);
    for (int k = 0; k < 3; k++) {
        int c = s->office[k];
        out[i++] = c >= 0 ? d->m_vp[c] / 4.0f : 0;
        for (int t = 0; t < 4; t++) out[i++] = (float)(c >= 0 && d->m_type[c] == t);
        for (int t = 0; t < 4; t++) out[i++] = (float)(c >= 0 && d->m_region[c] == t);
    }
    for (int f = 0; f < WO_NFAC; f++) for (int r = 0; r < WO_NRES; r++) out[i++] = s->siding[f][r] / 4.0f;
    out[i++] = (float)(s->fe < 0);
    out[i++] = popc(s->deck) / 41.0f;
    out[i++] = popc(s->deck_b) / 16.0f;
    out[i++] = popc(s->discard) / 41.0f;
    out[i++] = s->built;
    return i;
}

/* seats row: storage (5 resources), workshop, supply, workers in the 3 factories, 3 upgrades,
 * machine VP, machines per type (4) and per region (4), first engineer, start player. */
static int wo_observation_layout(const es_game *g, es_obs_slice *out, int cap) {
    int n = g->players;
    es_obs_builder b = es_obs_begin(out, cap);
    es_obs_add(&b, "seats", n, WO_OBS_SEAT);
    es_obs_add(&b, "actor", n, 0);            /* one-hot, relative seat */
    es_obs_add(&b, "own_task", 8, 0);         /* one-hot: the viewer's secret task card */
    es_obs_add(&b, "round", 1, 0);
    es_obs_add(&b, "phase", WO_NPHASES, 0);   /* one-hot */
    es_obs_add(&b, "office", 3, 9);           /* per office card: VP, type one-hot, region one-hot */
    es_obs_add(&b, "sidings", WO_NFAC, WO_NRES);
    es_obs_add(&b, "board", 5, 0);            /* engineer on the board, deck, deck B, discard sizes, built */
    return b.n;
}

/* Dense action space (docs/wolsung_engine.md): decision kinds, payload above the 5 kind bits. */
static const es_move_kind wolsung_move_kinds[] = {
    {WO_M_PLACE, 1, {{5, 7}}},     /* three factory counts, mixed radix 5/5/5 */
    {WO_M_TM, 1, {{5, 1}}},
    {WO_M_PICK, 1, {{5, 3}}},      /* resource 0-4, 5 = the First Engineer */
    {WO_M_PASS, 0, {{0, 0}}},
    {WO_M_BUILD, 1, {{5, 14}}},    /* office slot + 3 * storage index */
    {WO_M_UPGRADE, 1, {{5, 14}}},  /* upgrade + 3 * storage index */
};

static void wo_observe(const es_game *g, const void *vs, int player, float *out) {
    wo_state view;
    wo_redact(g, vs, player, &view);
    observe_impl(g, &view, player, out);
}

static int wo_move_to_str(const es_game *g, const void *vs, es_move m, char *buf, size_t cap) {
    const wo_data *d = DATA(g);
    const wo_state *s = (const wo_state *)vs;
    es_text t = es_text_make(buf, cap);
    int a = MV_ARG(m);
    switch (MV_KIND(m)) {
    case WO_M_PLACE: es_text_add(&t, "place %d/%d/%d", a % 5, a / 5 % 5, a / 25); break;
    case WO_M_PLACE_HIDDEN: es_text_add(&t, "place %d hidden", a); break;
    case WO_M_TM: es_text_add(&t, a ? "time-machine" : "no-time-machine"); break;
    case WO_M_PICK: es_text_add(&t, "pick %s", a == 5 ? "engineer" : (a < 5 ? RES_NAME[a] : "?")); break;
    case WO_M_PASS: es_text_add(&t, "pass"); break;
    case WO_M_BUILD: case WO_M_UPGRADE: {
        uint8_t st[WO_NRES];
        st_unpack(a / 3 % WO_NSTORE, st);
        if (MV_KIND(m) == WO_M_BUILD) {
            int c = s->office[a % 3];
            es_text_add(&t, "build %s", c >= 0 ? d->card_id[c] : "?");
        } else es_text_add(&t, "upgrade %s", UPG_NAME[a % 3]);
        es_text_add(&t, " keep %d.%d.%d.%d.%d", st[0], st[1], st[2], st[3], st[4]);
        break;
    }
    case WO_M_DRAW: es_text_add(&t, "draw %s", a < WO_NCARDS ? d->card_id[a] : "?"); break;
    case WO_M_DEAL: es_text_add(&t, "deal %s", a < WO_NTASKCARDS ? d->task_id[a] : "hidden"); break;
    case WO_M_START: es_text_add(&t, "start P%d", a); break;
    case WO_M_STRIKE: es_text_add(&t, "strike P%d-2 P%d-1", a % 4, a / 4); break;
    case WO_M_TIE: {
        int k = s->phase == WO_PH_TIE ? s->tie_hi - s->tie_lo + 1 : 2;
        es_text_add(&t, "tie");
        for (int i = 0; i < k; i++, a /= 5) { if (a % 5 == 4) es_text_add(&t, " N"); else es_text_add(&t, " P%d", a % 5); }
        break;
    }
    case WO_M_NCOUNT: es_text_add(&t, "neutral-count %s", a < WO_NSPECIAL ? d->special_id[a] : "?"); break;
    case WO_M_NORDER: es_text_add(&t, "neutral-order %s", a < WO_NSPECIAL ? d->special_id[a] : "?"); break;
    case WO_M_CHANGE: es_text_add(&t, a ? "change" : "no-change"); break;
    default: es_text_add(&t, "?%d", (int)m);
    }
    return es_text_result(&t);
}

static int render_impl(const es_game *g, const wo_state *s, char *buf, size_t cap) {
    const wo_data *d = DATA(g);
    es_text t = es_text_make(buf, cap);
    static const char *PH[] = {"?", "draw", "strike", "deal", "start", "place", "neutral-count", "time-machine", "tie",
                               "neutral-order", "pick", "machine", "change", "over"};
    es_text_add(&t, "Wolsung (provisional data) round %d/%d, %s, start P%d, engineer %s\n", s->round, rounds_of(g),
                s->phase < WO_NPHASES ? PH[s->phase] : "?", start_of(g, s), s->fe < 0 ? "on the board" : (s->fe == 0 ? "P0" : s->fe == 1 ? "P1" : s->fe == 2 ? "P2" : "P3"));
    es_text_add(&t, "office:");
    for (int k = 0; k < 3; k++) {
        int c = s->office[k];
        if (c < 0) { es_text_add(&t, " [-]"); continue; }
        es_text_add(&t, " [%s %dvp t%d r%d cost %d.%d.%d.%d]", d->card_id[c], d->m_vp[c], d->m_type[c], d->m_region[c],
                    d->m_cost[c][0], d->m_cost[c][1], d->m_cost[c][2], d->m_cost[c][3]);
    }
    es_text_add(&t, "\ndraw deck %d, deck B %d, discard %d\n", popc(s->deck), popc(s->deck_b), popc(s->discard));
    for (int f = 0; f < WO_NFAC; f++)
        es_text_add(&t, "F%d siding %d.%d.%d.%d.%d\n", f + 1, s->siding[f][0], s->siding[f][1], s->siding[f][2], s->siding[f][3], s->siding[f][4]);
    if (s->order_len) {
        es_text_add(&t, "order track:");
        for (int i = 0; i < s->order_len; i++) { if (s->order[i] == WO_NEUTRAL) es_text_add(&t, " N(%d)", s->cnt[i]); else es_text_add(&t, " P%d(%d)", s->order[i], s->cnt[i]); }
        es_text_add(&t, "\n");
    }
    for (int p = 0; p < g->players; p++) {
        es_text_add(&t, "P%d score %d storage c%d g%d i%d w%d G%d workshop %d supply %d factories %d/%d/%d",
                    p, score_of(d, s, p), s->storage[p][0], s->storage[p][1], s->storage[p][2], s->storage[p][3], s->storage[p][4],
                    s->workshop[p], s->supply[p], s->fac[p][0], s->fac[p][1], s->fac[p][2]);
        if (s->hidden_workers[p]) es_text_add(&t, " +%d hidden", s->hidden_workers[p]);   /* a view (4.9): not yet opened */
        es_text_add(&t, " upgrades %s%s%s task %s machines:",
                    s->upg[p] & 1 ? "4" : "-", s->upg[p] & 2 ? "T" : "-", s->upg[p] & 4 ? "C" : "-",
                    s->task[p] >= 0 ? d->task_id[s->task[p]] : "hidden");
        for (uint64_t o = s->owned[p]; o; o &= o - 1) es_text_add(&t, " %s", d->card_id[__builtin_ctzll(o)]);
        es_text_add(&t, "\n");
    }
    return es_text_result(&t);
}

static int wo_render(const es_game *g, const void *vs, char *buf, size_t cap) { return render_impl(g, (const wo_state *)vs, buf, cap); }

/* ---------------------------------------------------------------- reflection and definition */

#define F1(name, type) ES_FIELD(wo_state, name, type)
#define FA(name, type, n) ES_ARRAY(wo_state, name, type, n)
#define F2(name, type, a, b) ES_ARRAY2(wo_state, name, type, a, b)
#define K1(name, type, kind, names) ES_FIELD_K(wo_state, name, type, kind, names)
#define KA(name, type, n, kind, names) ES_ARRAY_K(wo_state, name, type, n, kind, names)
/* The data's names (wo_data): machines and the Strike, task cards, special cards. */
static const es_name_table wo_card_names = ES_NAMES("cards", wo_data, card_id, ES_NAME_BYTES, WO_NCARDS);
static const es_name_table wo_task_names = ES_NAMES("task cards", wo_data, task_id, ES_NAME_BYTES, WO_NTASKCARDS);
static const es_name_table wo_special_names = ES_NAMES("special cards", wo_data, special_id, ES_NAME_BYTES, WO_NSPECIAL);

/* Field kinds (es_field_kind): card sets and cards by the data's ids, seats and -1 as null. */
static const es_field_desc wo_fields[] = {
    K1(deck, ES_U64, ES_K_ITEMSET, &wo_card_names), K1(deck_b, ES_U64, ES_K_ITEMSET, &wo_card_names),
    K1(discard, ES_U64, ES_K_ITEMSET, &wo_card_names), KA(owned, ES_U64, WO_MAXP, ES_K_ITEMSET, &wo_card_names),
    F1(phase, ES_U8), K1(actor, ES_I8, ES_K_SEAT, NULL), F1(round, ES_U8), F1(start0, ES_U8), K1(fe, ES_I8, ES_K_SEAT, NULL),
    F1(fac_idx, ES_U8), F1(seat_ptr, ES_U8), F1(pass_run, ES_U8), F1(built, ES_U8), F1(turn, ES_U8), F1(picks_left, ES_U8),
    F1(took, ES_U8), F1(skip_run, ES_U8), F1(order_len, ES_U8), FA(order, ES_U8, 5), FA(cnt, ES_U8, 5), F1(tie_lo, ES_U8),
    F1(tie_hi, ES_U8), F1(neutral_count, ES_I8), K1(count_card, ES_I8, ES_K_ITEM, &wo_special_names),
    K1(order_card, ES_I8, ES_K_ITEM, &wo_special_names), F1(cont, ES_U8), F1(fill_cont, ES_U8),
    F1(fill_slot, ES_U8), KA(office, ES_I8, 3, ES_K_ITEM, &wo_card_names), F2(siding, ES_U8, WO_NFAC, WO_NRES),
    F2(storage, ES_U8, WO_MAXP, WO_NRES), FA(workshop, ES_U8, WO_MAXP), FA(supply, ES_U8, WO_MAXP),
    F2(fac, ES_U8, WO_MAXP, WO_NFAC), FA(upg, ES_U8, WO_MAXP), FA(tm_used, ES_U8, WO_MAXP),
    KA(task, ES_I8, WO_MAXP, ES_K_ITEM, &wo_task_names), FA(hidden_workers, ES_U8, WO_MAXP),
    F2(placed, ES_U8, WO_MAXP, 32), KA(reserved, ES_U8, 2, ES_K_PAD, NULL),
};

static const int32_t wo_default_options[WO_NOPTIONS] = {-1, 0, 0, 0, 0, 0, 0, 0, 0};

/* random_play hook: the library's loop, with this game's hooks called directly */
ES_RANDOM_PLAY_HOOK(wo_random_play, wo_current_player, wo_random_move, wo_sample_chance, wo_apply)

const es_game_def es_wolsung_def = {
    .name = "wolsung",
    .min_players = 2,
    .max_players = WO_MAXP,
    .state_size = sizeof(wo_state),
    .max_moves = WO_MAX_MOVES,
    .max_chance_outcomes = WO_MAX_CHANCE,
    .n_options = WO_NOPTIONS,
    .default_options = wo_default_options,
    .setup = wo_setup,
    .observation_size = wo_observation_size,
    .init = wo_init,
    .current_player = wo_current_player,
    .legal_moves = wo_legal_moves,
    .random_move = wo_random_move,
    .random_play = wo_random_play,
    .chance_outcomes = wo_chance_outcomes,
    .sample_chance = wo_sample_chance,
    .apply = wo_apply,
    .scores = wo_scores,
    .returns = wo_returns,
    .determinize = wo_determinize,
    .validate = wo_validate,
    .observe = wo_observe,
    .move_to_str = wo_move_to_str,
    .render = wo_render,
    .redact = wo_redact,
    .move_view = wo_move_view,
    .evaluate = wo_evaluate,
    .fields = wo_fields,
    .n_fields = (int)(sizeof wo_fields / sizeof wo_fields[0]),
    .move_type_bits = 5,
    .move_kinds = wolsung_move_kinds,
    .n_move_kinds = (int)(sizeof wolsung_move_kinds / sizeof wolsung_move_kinds[0]),
    .observation_layout = wo_observation_layout,
    .is_legal = wo_is_legal,
};
