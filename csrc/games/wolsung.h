/* Wolsung (Kuznia Gier, 2008): rules in C, component data from the game's data file.
 * Spec: shared/rules/wolsung.md. Engine contract (move and chance ids, node sequence, what each
 * player sees): docs/wolsung_engine.md. All bundled data is the spec's PROVISIONAL set (P1-P8):
 * none of the cards, the round track or the sidings are in the rulebook.
 *
 * Sizes: 2-4 players (2: with the neutral, order-track entry WO_NEUTRAL), 25 rounds (29 with 4),
 * 3 factories with a SMALL (2-3 players) and a LARGE siding each, 40 machines + the Strike (card
 * 40; decks A = vp 1-2 + Strike, B = vp 3-4), 8 task cards of up to 3 tasks of up to 6 icons,
 * 5 special cards. Storage: 0..4 of each of 5 resources, as a base-5 index 0..3124 (WO_NSTORE).
 * Options (WO_OPT_*, python/eurosearch/games/wolsung.py option_array): start player (-1: chance
 * node C4), hidden placement (spec 4.9), exchange_allows_gold_input (4.6), converter_accepts_gold
 * (WO-A7), finite supply (WO-A19), FE forced in the last factory only / FE never on the double
 * first pick (WO-A4), Time machine per factory (WO-A9), Strike back at round 22 (WO-A13).
 * Move ids (WO_M_*): kind + 32 * payload, all < 2^19; decisions PLACE (a0 + 5 a1 + 25 a2),
 * TIME_MACHINE (0/1), PICK (resource 0-4, 5 = the First Engineer), PASS, BUILD (slot + 3 x
 * storage after payment), UPGRADE (upgrade + 3 x storage after payment); PLACE_HIDDEN (total)
 * only as another player sees a placement under 4.9; chance DRAW, DEAL, START, STRIKE, TIE,
 * NEUTRAL_COUNT, NEUTRAL_ORDER, CHANGE (spec 5, C1-C11). Two payments leaving the same storage
 * are one move (4.6); the payments are listed from per-card tables built at setup (wolsung.c,
 * "Payment lists").
 *
 * Data table layout (int32), built by python/eurosearch/games/wolsung_data.py to_table():
 *   [0] version = 1, [1..3] factory order, [4..8] supply per resource,
 *   29 rounds x 4: count, factory, factory, factory (in opening order),
 *   3 factories x 10: small siding (5), large siding (5),
 *   40 machines x 7: type, region, vp, cost coal, glass, iron, wood,
 *   8 task cards x (1 + 3 x 8): n tasks, then per task: points, n icons, 6 icons,
 *   5 specials x 7: value, change symbol, resource order (5),
 *   then names (6 int32 each): 40 machines, the Strike, 8 task cards, 5 specials. */
#ifndef ES_GAMES_WOLSUNG_H
#define ES_GAMES_WOLSUNG_H
#include <stdint.h>
#include "eurosearch.h"
#include "../core/table.h"

#define WO_MAXP 4
#define WO_NEUTRAL 4
#define WO_NRES 5
#define WO_GOLD 4
#define WO_NFAC 3
#define WO_NMACH 40
#define WO_STRIKE 40
#define WO_NCARDS 41
#define WO_NTASKCARDS 8
#define WO_MAXTASKS 3
#define WO_MAXICONS 6
#define WO_NSPECIAL 5
#define WO_ROUNDS 29
#define WO_CAP 4                 /* storage cap per resource (spec 2.2) */
#define WO_WORKERS 21
#define WO_NSTORE 3125           /* 5^5 storage indices */
/* The longest legal-move list, with any data the engine accepts and any options, is 6308 < 6400:
 * PASS + 3 office cards x at most 1837 distinct payments each + the Time machine's 221 and the
 * Fourth worker's 575 (the Converter, needed for more than 5 payments of a card, is then owned).
 * The counts are the most distinct resulting storages over every cost the engine accepts (0..3
 * of each building type) and every storage, counted exhaustively; the count only grows with the
 * storage (a payment possible from s is possible from any s' >= s), so a full storage, 4 of each
 * type, is the worst. 1837 and 221/575 need converter_accepts_gold and exchange_allows_gold_input;
 * with the defaults the maxima are 693 per card and 89/169 (and 21 for the Converter itself).
 * tests/test_wolsung_rules.py drives that worst case (test_move_list_bound...). */
#define WO_MAX_MOVES 6400
#define WO_MAX_CHANCE 64
/* Payment-list entries: per machine at most 1837 with the Converter and 5 without, plus the
 * upgrades' 36 + 221 + 575 (the maxima of WO_MAX_MOVES's comment) */
#define WO_PAY_POOL (WO_NMACH * (1837 + 5) + 832)
#define WO_NBUCKET 125          /* payment-list buckets: the paid iron, wood and gold (5^3) */
#define WO_NLISTS (2 * WO_NMACH + 3)   /* payment lists: machines x Converter flag, upgrades */

#define WO_TABLE_VERSION 1

enum { WO_OPT_START_PLAYER, WO_OPT_HIDDEN, WO_OPT_XGOLD, WO_OPT_CONV_GOLD, WO_OPT_FINITE,
       WO_OPT_FE_LAST, WO_OPT_FE_SINGLE, WO_OPT_TM_PER_FACTORY, WO_OPT_STRIKE_22, WO_NOPTIONS };

/* Move kinds (docs/wolsung_engine.md): id = kind + 32 * payload */
enum { WO_M_PLACE = 1, WO_M_TM, WO_M_PICK, WO_M_PASS, WO_M_BUILD, WO_M_UPGRADE, WO_M_PLACE_HIDDEN,
       WO_M_DRAW = 16, WO_M_DEAL, WO_M_START, WO_M_STRIKE, WO_M_TIE, WO_M_NCOUNT, WO_M_NORDER,
       WO_M_CHANGE };

typedef struct wo_data {
    int factory_order[3];
    int supply[WO_NRES];
    int sched_n[WO_ROUNDS], sched[WO_ROUNDS][3];
    int siding[2][WO_NFAC][WO_NRES];       /* [0] small, [1] large */
    int m_type[WO_NMACH], m_region[WO_NMACH], m_vp[WO_NMACH], m_cost[WO_NMACH][4];
    int t_n[WO_NTASKCARDS], t_pts[WO_NTASKCARDS][WO_MAXTASKS], t_nic[WO_NTASKCARDS][WO_MAXTASKS];
    int t_icon[WO_NTASKCARDS][WO_MAXTASKS][WO_MAXICONS];
    int sp_value[WO_NSPECIAL], sp_change[WO_NSPECIAL], sp_order[WO_NSPECIAL][WO_NRES];
    int n_change;
    uint64_t deck_a, deck_b;                /* initial card masks */
    uint64_t cat_mask[8];                   /* machines of each task icon category */
    uint8_t digit[WO_NSTORE][WO_NRES];      /* storage index -> the 5 counts (payment search) */
    /* payment lists (wolsung.c, "Payment lists"): per machine and Converter flag, per upgrade */
    int list_off[WO_NLISTS], pay_used;
    uint16_t bucket[WO_NLISTS][WO_NBUCKET + 1];
    uint8_t bucket_fit[WO_NLISTS][WO_NBUCKET][25];     /* per bucket and (coal, glass): entries that fit */
    uint16_t fit_count[WO_NLISTS][WO_NSTORE];          /* per storage: payments it can make */
    uint32_t pay_pool[WO_PAY_POOL];
    char card_id[WO_NCARDS][ES_NAME_BYTES];
    char task_id[WO_NTASKCARDS][ES_NAME_BYTES];
    char special_id[WO_NSPECIAL][ES_NAME_BYTES];
} wo_data;

/* Node phases (stored states are always at one of these) */
enum { WO_PH_DRAW = 1, WO_PH_STRIKE, WO_PH_DEAL, WO_PH_START, WO_PH_PLACE, WO_PH_NCOUNT, WO_PH_TM,
       WO_PH_TIE, WO_PH_NORDER, WO_PH_PICK, WO_PH_MACHINE, WO_PH_CHANGE, WO_PH_OVER, WO_NPHASES };

typedef struct wo_state {
    uint64_t deck;                 /* bit c: card c in the draw deck */
    uint64_t deck_b;               /* deck B set aside (until the end of round 12) */
    uint64_t discard;
    uint64_t owned[WO_MAXP];
    uint8_t phase;
    int8_t actor;
    uint8_t round;
    uint8_t start0;
    int8_t fe;                     /* -1: on the board */
    uint8_t fac_idx;
    uint8_t seat_ptr;
    uint8_t pass_run;
    uint8_t built;
    uint8_t turn;
    uint8_t picks_left;
    uint8_t took;
    uint8_t skip_run;
    uint8_t order_len;
    uint8_t order[5];
    uint8_t cnt[5];                /* worker counts of order[] entries (ranking) */
    uint8_t tie_lo, tie_hi;
    int8_t neutral_count;
    int8_t count_card, order_card;
    uint8_t cont, fill_cont, fill_slot;
    int8_t office[3];
    uint8_t siding[WO_NFAC][WO_NRES];
    uint8_t storage[WO_MAXP][WO_NRES];
    uint8_t workshop[WO_MAXP];
    uint8_t supply[WO_MAXP];
    uint8_t fac[WO_MAXP][WO_NFAC];
    uint8_t upg[WO_MAXP];
    uint8_t tm_used[WO_MAXP];
    int8_t task[WO_MAXP];
    uint8_t hidden_workers[WO_MAXP];   /* redacted views only: others' unseen factory workers */
    uint8_t placed[WO_MAXP][32];       /* workers placed per round (public totals) */
    uint8_t reserved[2];
} wo_state;

#endif
