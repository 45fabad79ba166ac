/* Oh My Goods! (Pfister, 2015): rules in C, card data from the game's data file.
 * Spec: shared/rules/oh_my_goods.md. Engine contract: docs/oh_my_goods_engine.md. */
#ifndef ES_GAMES_OH_MY_GOODS_H
#define ES_GAMES_OH_MY_GOODS_H
#include <stdint.h>
#include "eurosearch.h"
#include "../core/table.h"

#define OMG_MAXP 4
#define OMG_NCARDS 94          /* deck cards (rulebook) */
#define OMG_NCB 4              /* Charburners */
#define OMG_NASSIST 8
#define OMG_SLOTS 10           /* Charburner + up to 9 built cards */
#define OMG_MAXGOODS 24        /* kinds of goods */
#define OMG_NRES 5             /* resources 1..5: grain, wood, clay, stone, wool */
#define OMG_NCOLOURS 6         /* resource colours + the Charburner's */
#define OMG_MAX_MOVES 2048
#define OMG_MAX_CHANCE 96
#define OMG_BUILDINGS_END 8    /* the 8th building triggers the end (rulebook) */
#define OMG_MAX_ASSISTANTS 2
#define OMG_MOVE_COST 2        /* gold per assistant move (rulebook) */
#define OMG_GOLD_PER_VP 5

/* Option array (python/eurosearch/games/oh_my_goods.py option_array) */
enum { OMG_OPT_START_PLAYER, OMG_OPT_FULL_ROUND, OMG_OPT_ALL_OR_NOTHING, OMG_OPT_EXTRA_STACKS,
       OMG_OPT_WORKER_LEAVES, OMG_OPT_ROUND_CAP, OMG_NOPTIONS };

/* Move types (docs/oh_my_goods_engine.md) */
enum {
    OMG_M_REDRAW = 1, OMG_M_HALVE, OMG_M_MOVE, OMG_M_WORKER, OMG_M_ASIDE, OMG_M_PAY,
    OMG_M_PRODUCE, OMG_M_SUPPLY, OMG_M_CHAIN, OMG_M_END_PRODUCTION, OMG_M_BUILD, OMG_M_HIRE,
    OMG_M_PASS, OMG_M_END_CHAINS,
    OMG_M_DRAW = 16, OMG_M_CHARBURNER, OMG_M_DISPLAY, OMG_M_SIDE, OMG_M_START, OMG_M_TAKE
};

/* Data table (int32), built by python/eurosearch/games/oh_my_goods_data.py to_table():
 *   [0] version 1, [1] deck cards (94), [2] goods G, then G good values,
 *   4 Charburners x 10: input grain..wool (5), vp, output good, chain count, chain inputs 0, 1,
 *   94 cards x 15: resource, sun, cost, vp, office (-1 producing, 0 extra card, 1..5 resource),
 *                  input grain..wool (5), input_any, output good (-1 office), chain count,
 *                  chain input 0, chain input 1   (chain input: 1..5 resource, 16+g good g),
 *   8 assistants x 2 sides x 8: cost, vp, required buildings per colour (6),
 *   names, 6 int32 each: the 94 card ids, the 4 Charburner ids, the 8 assistant ids. */
#define OMG_TABLE_VERSION 1

typedef struct omg_building {
    uint8_t resource, sun, cost, vp;
    int8_t office, output;
    uint8_t input[OMG_NRES + 1], input_any, chain_n, chain[2];
} omg_building;

typedef struct omg_data {
    int n_goods;
    int good_value[OMG_MAXGOODS];
    union {   /* the Charburners, then the deck cards, also as one array (slot_building) */
        struct {
            omg_building cb[OMG_NCB];
            omg_building card[OMG_NCARDS];
        };
        omg_building building[OMG_NCB + OMG_NCARDS];
    };
    /* Per slot card c at [c + 1], 0 at [0] for "no card" (slot_card's -1), so that a loop over
     * a player's slots can visit all OMG_SLOTS without a test per slot: */
    uint8_t card_value[OMG_NCARDS + 1];       /* gold per good it makes (0: an office) */
    uint8_t card_producing[OMG_NCARDS + 1];   /* 1: a production building */
    uint8_t card_office[OMG_NCARDS + 1];      /* the resource of a resource office, else 0 */
    uint8_t asst_cost[OMG_NASSIST][2], asst_vp[OMG_NASSIST][2], asst_req[OMG_NASSIST][2][OMG_NCOLOURS];
    char card_id[OMG_NCARDS][ES_NAME_BYTES], cb_id[OMG_NCB][ES_NAME_BYTES], asst_id[OMG_NASSIST][ES_NAME_BYTES];
    uint64_t res_cards[OMG_NRES + 1][2];   /* deck cards of each resource */
} omg_data;

/* Card locations (loc[card]) */
enum {
    OMG_L_DECK = 0, OMG_L_DISCARD, OMG_L_MARKET1, OMG_L_MARKET2,
    OMG_L_HAND = 4,       /* + player */
    OMG_L_ASIDE = 8,      /* + player: set aside (revealed to be there at the phase II reveal) */
    OMG_L_BUILT = 12,     /* + player */
    OMG_L_GOOD = 16       /* + player * OMG_SLOTS + slot */
};

/* Stages of the flow; the sub-machines (draw, pay, take, supply, exhaustion) nest in them. */
enum {
    OMG_ST_CHARBURNER = 1, OMG_ST_DISPLAY, OMG_ST_SIDE, OMG_ST_START, OMG_ST_DEAL,
    OMG_ST_P1_COMMIT, OMG_ST_P1_DRAW, OMG_ST_SUNRISE, OMG_ST_P2_COMMIT, OMG_ST_P2_REVEAL,
    OMG_ST_SUNSET, OMG_ST_P4_PRODUCE, OMG_ST_P4_BUILD, OMG_ST_FINAL, OMG_ST_OVER, OMG_NSTAGES
};
enum { OMG_SUB_NONE, OMG_SUB_DRAW, OMG_SUB_EXHAUST, OMG_SUB_PAY, OMG_SUB_TAKE, OMG_SUB_SUPPLY };
/* What a payment is for */
enum { OMG_PAY_MOVE = 1, OMG_PAY_BUILD, OMG_PAY_HIRE };
/* Where drawn cards go */
enum { OMG_D_HAND = 1, OMG_D_MARKET, OMG_D_GOOD };

/* The whole state: fixed size, no pointers (clone = memcpy). Every byte is a reflected field
 * except the 5 bytes of tail padding after `spare`, which es_validate requires to be zero
 * (one byte form per state). take_dest_slot is a slot exactly when take_after is a chain. */
typedef struct omg_state {
    uint64_t deck[2], discard[2], market[2];
    uint64_t hand[OMG_MAXP][2];
    uint64_t pending[OMG_MAXP][2];     /* chosen in a hidden commitment (redraw or halve) */
    uint16_t produced[OMG_MAXP];       /* slots that produced at least one good this round */
    uint16_t tried[OMG_MAXP];          /* slots whose production was started this round */
    uint8_t loc[OMG_NCARDS];
    uint8_t seen[OMG_NCARDS];          /* bit p: player p knows where the card is */
    uint8_t goods_n[OMG_MAXP][OMG_SLOTS];
    int8_t slot_card[OMG_MAXP][OMG_SLOTS];   /* slot 0 = Charburner (-1 here), then card ids */
    uint8_t n_slots[OMG_MAXP];
    int8_t charburner[OMG_MAXP];       /* Charburner index, -1 before the deal */
    int8_t asst_owner[OMG_NASSIST];    /* -3 out of the game, -2 not drawn yet, -1 on display */
    uint8_t asst_side[OMG_NASSIST];
    int8_t asst_slot[OMG_NASSIST];
    int8_t worker_slot[OMG_MAXP];      /* -1 = not placed */
    uint8_t worker_exact[OMG_MAXP];
    int8_t aside[OMG_MAXP];            /* revealed set-aside card, -1 none */
    /* hidden commitments of phase II, applied at the reveal */
    int8_t pend_move[OMG_NASSIST];     /* target slot, -1 none */
    int8_t pend_worker[OMG_MAXP];
    uint8_t pend_exact[OMG_MAXP];
    int8_t pend_aside[OMG_MAXP];       /* card, -1 none */
    uint8_t reserved[OMG_MAXP][OMG_SLOTS];   /* goods promised to pending payments */
    /* flow */
    uint8_t stage, sub, round, start;
    int8_t actor;                      /* decider, or -1 */
    uint8_t idx;                       /* turn-order index within the stage */
    uint8_t p2_step, p2_asst;          /* progress inside a phase II commitment */
    uint8_t end_triggered, final_full; /* end triggered; playing the full final round */
    uint8_t extra_cards[OMG_MAXP];     /* cards dealt in phase I (2, 3, ...) */
    uint8_t redraw_n[OMG_MAXP];        /* cards discarded in the phase I reveal */
    /* draw sub-machine */
    uint8_t draw_dest, draw_player, draw_slot, draw_left;   /* draw_left 255 = market row */
    uint8_t row_suns;                  /* half suns in this market row; goods received in a production */
    uint8_t exhaust_idx, exhaust_left;
    /* pay sub-machine */
    uint8_t pay_for, pay_arg, pay_cost, pay_total, pay_min, pay_slot, pay_player;
    uint8_t pay_counts[OMG_SLOTS];
    /* take sub-machine: goods leaving slots of take_player */
    uint8_t take_left[OMG_SLOTS];
    uint8_t take_player, take_dest_slot, take_after;   /* dest 255 = discard pile */
    /* supply sub-machine */
    uint8_t sup_slot, sup_any, sup_goods, sup_last;
    uint8_t sup_need[OMG_NRES + 1];
    uint8_t chain_in1;                 /* second chain input still to move (127 none) */
    uint8_t deck_known;                /* bit p: p may know a card of the draw pile (upper bound) */
    uint8_t spare[4];                  /* zero */
} omg_state;

#endif
