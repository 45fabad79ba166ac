/* Vienna (Schmidauer-König, 2015): rules in C, component data from the game's data file.
 * Spec: shared/rules/vienna.md. Engine contract (moves, sequencing): docs/vienna_engine.md. */
#ifndef ES_GAMES_VIENNA_H
#define ES_GAMES_VIENNA_H
#include <stdint.h>
#include "eurosearch.h"
#include "../core/table.h"

#define VI_MAXP 5
#define VI_MAX_STREET 30
#define VI_GEHEIMBUND 31       /* field id of the off-street field */
#define VI_MAX_START 8
#define VI_MAX_PTYPES 44
#define VI_DECK 44             /* person cards in the game (rulebook) */
#define VI_NSPECIAL 5
#define VI_MAX_MOVES 1152      /* bound: 34 dice choices x 31 fields + 63 rerolls + 14 nudges */
#define VI_MAX_CHANCE 1512     /* 5 dice + white: 252 multisets x 6 */

/* Rule constants (spec 7.3, 4.3, 4.4) */
#define VI_END_VP 25
#define VI_FINAL_MAJORITY_VP 1
#define VI_COINS_PER_VP 3

/* Special cards, in the data loader's SPECIAL_EFFECTS order (spec S1..S5) */
enum { VI_S_START, VI_S_DOUBLE, VI_S_JOKER, VI_S_GI, VI_S_EXTRA };
/* Street field kinds (data loader FIELD_KINDS) */
enum {
    VI_K_KRIEAU, VI_K_PRATER, VI_K_GAIN, VI_K_SPECIAL, VI_K_PERSON,
    VI_K_COMPARE, VI_K_GLORIETTE, VI_K_TIERGARTEN, VI_K_HEURIGER, VI_NKINDS
};
/* Option array (python/eurosearch/games/vienna.py option_array) */
enum { VI_OPT_START_PLAYER, VI_OPT_CARRIAGE, VI_OPT_MODIFY_EVERY_TURN, VI_OPT_PERSON_OPTIONAL,
       VI_OPT_MAX_ROUNDS, VI_NOPTIONS };

/* Move types (docs/vienna_engine.md, "Move ids") */
enum {
    VI_M_DRAFT = 1, VI_M_PLACE, VI_M_REROLL, VI_M_NUDGE, VI_M_GENDARME, VI_M_KRIEAU,
    VI_M_PRATER, VI_M_DOUBLE, VI_M_PERSON, VI_M_GLORIETTE, VI_M_TIERGARTEN,
    VI_M_START, VI_M_ROLL, VI_M_REVEAL
};

/* Data table layout (int32), built by python/eurosearch/games/vienna_data.py to_table():
 *   [0] version = 1, [1] F street fields, [2] starting cards, [3] person types,
 *   [4..6] start VP for 3/4/5 players, [7..10] majority VP, majority coins, tie VP, tie coins,
 *   [11..13] Greater influence symbols, [14..16] Geheimbund coins per die, VP, coins,
 *   then F x 13: kind, accept mask (bit t = total t), pair, vp, coins, pay, cost, card,
 *                symbol, choose_one, steal_one, steal_two, vp_per_special,
 *   then starting cards x 4: coins, citizen, cross, crown,
 *   then person types x 4: copies, citizen, cross, crown,
 *   then names, 6 int32 each (24 bytes, NUL padded, 4 bytes per int32 low byte first):
 *   the F field ids, the starting card ids, the person type ids. */
#define VI_TABLE_VERSION 1
#define VI_TABLE_HEAD 17
#define VI_TABLE_FIELD 13

typedef struct vi_field {
    uint8_t kind, pair, vp, coins, pay, cost, choose_one, steal_one, steal_two, vp_per_special;
    int8_t card, symbol;
    uint16_t accept;   /* bit t: accepts total t (1..12) */
    char id[ES_NAME_BYTES];  /* the data file's id, used in text moves */
} vi_field;

typedef struct vienna_data {
    int F, n_start, n_ptypes;
    int start_vp[6];
    int maj_vp, maj_coins, tie_vp, tie_coins;
    int gi[3];
    int gb_coins_per_die, gb_vp, gb_coins;
    vi_field field[VI_MAX_STREET];
    int start_coins[VI_MAX_START];
    uint8_t start_sym[VI_MAX_START][3];
    uint8_t copies[VI_MAX_PTYPES];
    uint8_t psym[VI_MAX_PTYPES][3];
    char start_id[VI_MAX_START][ES_NAME_BYTES];
    char person_id[VI_MAX_PTYPES][ES_NAME_BYTES];
    /* derived */
    uint32_t street_mask;            /* bits 0..F-1 */
    uint32_t fields_for_total[13];   /* street fields accepting total t (numeric fields) */
    uint32_t pair_fields;
    /* fit[joker][a][b]: the street fields a die of face a fits alone (b = 0) or with a second
     * die of face b (a double or a wild die also fits the pair fields), for a player without
     * or with the Dice joker (a 1 is wild for its holder); before blocked fields and bribes.
     * Resolved at setup so that the move generator's inner loop is a single lookup. */
    uint32_t fit[2][7][7];
    int krieau, prater;              /* field index, or -1 */
} vienna_data;

/* Phases: which node the state is at. */
enum {
    VI_PH_START = 1,   /* chance: the first start player */
    VI_PH_DRAFT,       /* decision: actor drafts a starting card */
    VI_PH_REVEAL,      /* chance: reveal a person card into the display */
    VI_PH_ROLL,        /* chance: actor's round roll, or a paid reroll */
    VI_PH_TURN,        /* decision: modify or place */
    VI_PH_GENDARME,    /* decision: where the gendarme goes (after Krieau) */
    VI_PH_KRIEAU,      /* decision: +VP or +coins (after Krieau) */
    VI_PH_PRATER,      /* decision: turn one unplaced die (after Prater) */
    VI_PH_DOUBLE,      /* decision: use Double move now? */
    VI_PH_PERSON,      /* decision: which person card (evaluation) */
    VI_PH_GLORIETTE,   /* decision: which symbol (evaluation) */
    VI_PH_TIERGARTEN,  /* decision: whose coins (evaluation) */
    VI_PH_OVER,        /* terminal */
    VI_NPHASES
};

/* The whole game state: fixed size, no pointers; a clone is a memcpy. Ordered by type so
 * that the struct has no padding (every byte is a field the reflection table names; the core
 * would reject a non-zero byte outside them). */
typedef struct vienna_state {
    uint64_t display;               /* bit t: person type t face up */
    uint32_t blocked;               /* bit f: street field f has dice or the gendarme */
    uint16_t vp[VI_MAXP];
    uint16_t coins[VI_MAXP];
    uint8_t phase;
    int8_t actor;                   /* who decides now (the rolling player at a roll) */
    int8_t turn;                    /* whose placement turn it is */
    uint8_t round;                  /* 1 = first round; 0 during setup */
    int8_t gendarme;                /* street field, or -1 */
    uint8_t eval_pos;               /* field being evaluated at an evaluation decision */
    uint8_t double_used;
    uint8_t roll_turn;              /* the current turn is the turn player's roll turn */
    int8_t white_holder;            /* who has the white die this round, or -1 */
    uint8_t white_face;             /* 1..6 while rolled and unplaced, else 0 */
    uint8_t white_placed;           /* 0 no, 1 on a street field, 2 on Geheimbund */
    uint8_t roll_n;                 /* coloured dice being rolled (phase ROLL) */
    uint8_t roll_white;             /* the white die is being rolled (phase ROLL) */
    uint8_t rolled;                 /* bit p: p rolled this round */
    uint8_t start_taken;            /* bit c: starting card c drafted */
    uint8_t drafted;                /* picks made */
    uint8_t deck_total, discard_total, queue_len, reserved0;
    int8_t special_owner[VI_NSPECIAL];   /* -1 = supply */
    int8_t start_card[VI_MAXP];     /* -1 = none yet */
    int8_t carriage[VI_MAXP];       /* street field placed on last this round, or -1 */
    int8_t furthest[VI_MAXP];       /* furthest street field placed on this round, or -1 */
    uint8_t sym_used[VI_MAXP];      /* bit s: symbol s evaluated this round */
    uint8_t geheimbund[VI_MAXP];    /* coloured dice on Geheimbund this round */
    uint8_t sym[VI_MAXP][3];        /* starting card + person cards (not Greater influence) */
    uint8_t hand[VI_MAXP][6];       /* unplaced coloured dice showing 1..6 */
    int8_t occupant[VI_MAX_STREET]; /* -1 = empty */
    uint8_t field_dice[VI_MAX_STREET]; /* coloured dice (bits 0-1) + white die (bit 2) */
    uint8_t deck[VI_MAX_PTYPES];    /* unknown part of the person deck, per type */
    uint8_t discard[VI_MAX_PTYPES];
    uint8_t queue[VI_DECK];         /* known cards under the deck, front first */
    uint8_t owned[VI_MAXP][VI_MAX_PTYPES];
    uint8_t reserved1[5];
} vienna_state;

#endif
