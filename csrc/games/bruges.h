/* Bruges (Feld, 2013): rules in C, component data from the game's data file.
 * Spec: shared/rules/bruges.md. Engine contract (move ids, node sequence, card pool):
 * docs/bruges_engine.md. The bundled data is the spec's provisional person set.
 *
 * Sizes: 2-4 players, 165 person cards (BR_CARDS) in BR_GROUPS groups, 5 threat colours.
 * Options (BR_OPT_*): start player (-1 = chance), the Bishop's caption reading (BR-A5), a round cap.
 * Move ids (BR_M_*, docs/bruges_engine.md "Move and chance ids"): bits 0-3 the type, parameters
 * above, every id below 2^16; chance outcomes use the same encoding.
 * Dense action space: BR_M_* kinds in bruges.c (bruges_move_kinds), 2840 actions at every player
 * count. The state keeps card sets (each player's hand, houses and persons; the undecided pool
 * and its count per colour) beside the zone and owner bytes, updated by every move (place_card)
 * and checked by the validator, so the hot paths touch the cards of one zone, not all 165.
 * Those sets are ES_K_DERIVED fields: not in the JSON form, rebuilt by the derive hook.
 */
#ifndef ES_GAMES_BRUGES_H
#define ES_GAMES_BRUGES_H
#include <stdint.h>
#include "eurosearch.h"
#include "../core/table.h"

#define BR_MAXP 4
#define BR_NCOL 5
#define BR_CARDS 165
#define BR_GROUPS 11
#define BR_SPACES 5
#define BR_MAX_REP 16
#define BR_MAX_STATUES 8
#define BR_MAX_MOVES 1200     /* bound: 165 cards x 7 actions + activations + end */
#define BR_MAX_CHANCE 165
#define BR_WORDS 3            /* 64-bit words of a card set */
#define BR_MAX_COST 15        /* a person's cost, as the data loader bounds it (setup checks) */

/* Colours (spec section 1 order) and disasters (data loader DISASTERS order). */
enum { BR_BLUE, BR_BROWN, BR_YELLOW, BR_RED, BR_PURPLE };
enum { BR_D_FLOOD, BR_D_PLAGUE, BR_D_RIOT, BR_D_FIRE, BR_D_INTRIGUE };
/* Activation icons (loader ACTIVATIONS) and the effect catalogue (loader EFFECTS order). */
enum { BR_A_NONE, BR_A_LIGHTNING, BR_A_WORKER, BR_A_INF1, BR_A_INF2, BR_A_INF3, BR_A_LAUREL };
enum { BR_NEED_NOTHING = BR_NCOL, BR_NEED_NEVER };   /* bruges_data.activation_need, after the colours */
enum {
    BR_FX_NONE, BR_FX_MONEY_ON_RECRUIT, BR_FX_RETURN_THREAT, BR_FX_DRAW_CARDS, BR_FX_EXTRA_PLAY,
    BR_FX_MONEY_PER_ROUND, BR_FX_EXTRA_WORKERS_A1, BR_FX_HAND_TARGET, BR_FX_VP_PER_WORKERS,
    BR_FX_VP_PER_GROUP, BR_NFX
};
/* Option array (python/eurosearch/games/bruges.py option_array). */
enum { BR_OPT_START_PLAYER, BR_OPT_BISHOP_CAPTION, BR_OPT_MAX_ROUNDS, BR_NOPTIONS };

/* Move and chance types (docs/bruges_engine.md, "Move and chance ids (frozen)"). */
enum {
    BR_M_DRAW = 1, BR_M_DRAW_STOP, BR_M_REP, BR_M_ORDER, BR_M_FIRE_HOUSE, BR_M_FIRE_CANAL,
    BR_M_PLAGUE, BR_M_ACTIVATE, BR_M_PLAY, BR_M_END_TURN, BR_M_JAILER,
    BR_C_START, BR_C_DIE, BR_C_TOP, BR_C_CARD
};
enum { BR_ACT_I, BR_ACT_II, BR_ACT_III, BR_ACT_IV0, BR_ACT_IV1, BR_ACT_V, BR_ACT_VI };

/* Data table layout (int32), python/eurosearch/games/bruges_data.py to_table():
 *   [0] version 1, [1] cards (165), [2] start score, [3] start money, [4] start workers per
 *   colour, [5] hand size, [6..10] disaster per colour, [11..15] canal cost per space,
 *   [16..55] canal colour [tower 4][section 2][space 5], [56] rep positions P, [57..72] rep VP
 *   (16, zero padded), [73] statues S, [74..81] statue values top first (8, zero padded),
 *   then 165 x 9: colour, group, cost, vp, activation, worker colour (-1), effect, amount,
 *   group parameter (-1); then 165 names, 6 int32 each. */
#define BR_TABLE_VERSION 1
#define BR_TAB_CARDS 82
#define BR_TAB_CARD 9

typedef struct br_card {
    uint8_t colour, group, cost, vp, activation, effect, amount;
    int8_t worker, group_param;
    char id[ES_NAME_BYTES];
} br_card;

typedef struct bruges_data {
    int start_score, start_money, start_workers, hand_size;
    uint8_t disaster[BR_NCOL];
    uint8_t canal_cost[BR_SPACES];
    uint8_t canal_colour[BR_MAXP][2][BR_SPACES];
    int rep_positions;
    uint8_t rep_vp[BR_MAX_REP];
    int n_statues;
    uint8_t statue[BR_MAX_STATUES];
    br_card card[BR_CARDS];
    uint64_t colour_set[BR_NCOL][BR_WORDS];   /* derived: the cards of each colour */
    uint64_t effect_set[BR_NFX][BR_WORDS];    /* derived: the cards of each effect kind */
    /* derived: what activating each card needs in phase 3: a worker of colour 0..4,
     * BR_NEED_NOTHING (the infinity-1 icon) or BR_NEED_NEVER (no activation in a turn) */
    uint8_t activation_need[BR_CARDS];
    /* derived: each card's colour and cost in dense byte arrays (a br_card row is 33 bytes),
     * for the per-card loops of the move generator and apply */
    uint8_t colour_of[BR_CARDS], cost_of[BR_CARDS];
} bruges_data;

/* Card zones. POOL: identity undecided (pile bodies, pile tops, extra pile, drawn-unrevealed). */
enum { BR_Z_POOL, BR_Z_HAND, BR_Z_HOUSE, BR_Z_PERSON, BR_Z_DISCARD };
enum { BR_F_ROTATED = 1, BR_F_PUBLIC = 2 };

/* Phases: the kind of node the state is at when no chance is pending. */
enum {
    BR_PH_START, BR_PH_DRAW, BR_PH_REVEAL, BR_PH_DICE, BR_PH_DISASTER, BR_PH_REP,
    BR_PH_TURN, BR_PH_OVER
};

typedef struct br_state {
    uint8_t phase, round, start, cur;
    uint8_t final_flag;        /* 0 none, 1 this round is final, 2 the next round is final */
    uint8_t extra_entered, extra_size;
    uint8_t size[2], top[2];   /* pile slots A, B: size and colour of the top card */
    uint8_t need_top;          /* slot + 1: a TOP chance node is pending */
    uint8_t setup_b;           /* 1 until pile B's first top colour is revealed */
    uint8_t need_card;         /* colour + 1: a phase-3 CARD chance is pending for cur */
    uint8_t seat;              /* offset from start of the player acting in this phase step */
    uint8_t lap;               /* phase 3: 0..3 */
    uint8_t optional;          /* phase 1: 1 once the drawer is in the optional draws */
    uint8_t plays_left, played, draws_left, jailer_left;
    uint8_t pending_dis;       /* colour mask of cur's pending disasters */
    uint8_t fire_left, plague_left;   /* a disaster waiting for its target choice */
    uint8_t dice_rolled;
    uint8_t die[BR_NCOL];
    uint8_t statues_taken;
    uint16_t money[BR_MAXP], score[BR_MAXP];
    uint8_t rep[BR_MAXP], markers[BR_MAXP], house_seq[BR_MAXP];
    uint8_t workers[BR_MAXP][BR_NCOL], threats[BR_MAXP][BR_NCOL], pending[BR_MAXP][BR_NCOL];
    uint8_t canal[BR_MAXP][2], statue[BR_MAXP][2];
    uint8_t zone[BR_CARDS], owner[BR_CARDS], link[BR_CARDS], flags[BR_CARDS];
    /* Derived (ES_K_DERIVED): the card sets of zone and owner, kept in step by every move so
     * that the hot paths never scan the 165 zone bytes. pool_n[k]: undecided cards of colour
     * k; held[z - BR_Z_HAND][p]: p's hand, houses or persons; pool: the undecided cards. */
    uint8_t pool_n[BR_NCOL];
    uint64_t held[3][BR_MAXP][BR_WORDS];
    uint64_t pool[BR_WORDS];
} __attribute__((aligned(8))) br_state;   /* the core needs a size that is a multiple of 8 */

#endif
