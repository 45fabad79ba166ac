/* Coal Baron / Glück Auf (Kramer & Kiesling, 2013): rules in C, component data from the game's
 * data file. Spec: shared/rules/coal_baron.md. Engine contract: docs/coal_baron_engine.md. */
#ifndef ES_GAMES_COAL_BARON_H
#define ES_GAMES_COAL_BARON_H
#include <stdint.h>
#include "eurosearch.h"
#include "../core/kdeck.h"
#include "../core/table.h"

#define CB_MAXP 4
#define CB_NCARDS 44          /* order cards (rulebook) */
#define CB_NTYPES 16          /* tunnel-tile types: colour x minecarts x side */
#define CB_NTILES 48          /* tunnel tiles (rulebook) */
#define CB_NCOL 4             /* coal colours Y, B, G, K = levels 1..4 */
#define CB_NVEH 4             /* vehicles WB, HC, TR, LO */
#define CB_NSPACES 26         /* worker spaces (contract table) */
#define CB_BANK 26            /* PLACE(26) */
#define CB_NELEM 12           /* shift-clock elements */
#define CB_SHIFTS 3
#define CB_MAX_DRAW 8         /* engine cap on the draw-5 size (data draw_count) */
#define CB_MAX_WORKERS 18     /* per colour (rulebook) */
#define CB_NONE 255
#define CB_MAX_MOVES 2200     /* 56 (card, colour) targets x (36 pairs + 2 puts) + 13 other steps */
#define CB_MAX_CHANCE 48

/* Space kinds (coal_baron_data.SPACE_KINDS) and fixed space indices */
enum { CB_K_FACTORY, CB_K_FACTORY_DRAW, CB_K_MINING, CB_K_DELIVERY, CB_K_MONEY, CB_K_ORDER, CB_K_ORDER_DRAW };
enum { CB_S_F1 = 0, CB_S_FD = 8, CB_S_M = 9, CB_S_D = 13, CB_S_MONEY = 17, CB_S_O1 = 21, CB_S_OD = 25 };

/* Option array (python/eurosearch/games/coal_baron.py option_array) */
enum { CB_OPT_START_PLAYER, CB_OPT_SECOND_TR_LO, CB_OPT_NEED_DELIVERY, CB_NOPTIONS };

/* Move types (docs/coal_baron_engine.md, "Move ids") */
enum {
    CB_M_DRAFT = 1, CB_M_PLACE, CB_M_CAGE, CB_M_LOAD, CB_M_PUT, CB_M_PAIR, CB_M_STORE, CB_M_STOP,
    CB_M_KEEP, CB_M_DEST, CB_M_RETURN, CB_M_SHORTAGE,
    CB_M_START = 16, CB_M_TILE, CB_M_CARD
};
#define CB_KEEP_NONE 63

/* Data table (int32), built by python/eurosearch/games/coal_baron_data.py to_table():
 *   [0] version 1, [1..3] workers for 2/3/4 players, [4..6] starting money, [7..9] draft pool,
 *   [10] draft picks, [11] leftover slot (space index), [12] coal per colour, [13] cage
 *   capacity, [14] draw count, [15] bank Marks, [16..19] Marks per minecart Y/B/G/K,
 *   [20] elements per shift, [21..44] 12 x (first, second), [45..48] Marks per VP, cubes per VP,
 *   outstanding penalty, balance penalty,
 *   then 26 spaces x 3: kind, value, min players,
 *   then 44 cards x 6: vehicle, VP, spaces Y/B/G/K,
 *   then 16 tile types x 4: colour, minecarts, side, copies,
 *   then names, 6 int32 each: the 26 space ids, the 44 card ids, the 16 tile ids. */
#define CB_TABLE_VERSION 1
#define CB_TABLE_HEAD 49

typedef struct cb_data {
    int workers, money, pool;          /* for this game's player count */
    int picks, leftover, coal, cage_cap, draw, bank;
    int cart_cost[CB_NCOL];
    int per_shift;
    int first[CB_NELEM], second[CB_NELEM];   /* second of 7/8 already overridden by the option */
    int marks_per_vp, cubes_per_vp, outstanding_pen, balance_pen;
    uint8_t kind[CB_NSPACES], value[CB_NSPACES], minp[CB_NSPACES];
    uint8_t vehicle[CB_NCARDS], vp[CB_NCARDS], spaces[CB_NCARDS][CB_NCOL], total[CB_NCARDS];
    uint8_t t_colour[CB_NTYPES], t_carts[CB_NTYPES], t_side[CB_NTYPES], t_copies[CB_NTYPES], t_cost[CB_NTYPES];
    char space_id[CB_NSPACES][ES_NAME_BYTES], card_id[CB_NCARDS][ES_NAME_BYTES], tile_id[CB_NTYPES][ES_NAME_BYTES];
    /* derived */
    uint32_t open;                     /* bit s: space s exists with this many players */
    uint64_t vehicle_cards[CB_NVEH];
    uint32_t spaces_packed[CB_NCARDS]; /* spaces[c] as 4 bytes, to compare with filled[c] */
} cb_data;

/* Phases: which node the state is at. */
enum {
    CB_PH_SETUP_TILES = 1,   /* chance: a tile for the initial factory display */
    CB_PH_START,             /* chance: the first start player */
    CB_PH_POOL,              /* chance: a card for the draft pool */
    CB_PH_DRAFT,             /* decision: draft a card */
    CB_PH_DISPLAY,           /* chance: a card for the initial order display */
    CB_PH_PLACE,             /* decision: a worker space or the Bank */
    CB_PH_MINE,              /* decision: a work step */
    CB_PH_SHORTAGE,          /* decision: the colour of an off-colour cube */
    CB_PH_KEEP,              /* decision: which draw-5 item to keep */
    CB_PH_DEST,              /* decision: return to the top or the bottom */
    CB_PH_RETURN,            /* decision: the next returned item */
    CB_PH_DRAW5,             /* chance: an unknown item drawn into the draw-5 buffer */
    CB_PH_REFILL,            /* chance: an unknown item drawn into a display slot */
    CB_PH_OVER,              /* terminal */
    CB_NPHASES
};
enum { CB_BUF_NONE, CB_BUF_TILES, CB_BUF_ORDERS };

/* The whole state: fixed size, no pointers (a clone is a memcpy). Every byte is a field the
 * reflection table names except the 2 bytes of tail padding after `reserved`, which
 * es_validate requires to be zero (one byte form per state). Colour-indexed arrays: index
 * c = Y, B, G, K; the minecart arrays are per level c+1. */
typedef struct cb_state {
    es_kdeck tiles;                        /* the tunnel-tile stack (types 0..15) */
    es_kdeck orders;                       /* the order deck (cards 0..43) */
    uint64_t pool;                         /* bit c: card c in the draft pool */
    uint64_t outstanding[CB_MAXP];
    uint64_t delivered[CB_MAXP];
    uint16_t vp[CB_MAXP];
    uint16_t penalty[CB_MAXP];             /* final-scoring deductions; score = vp - penalty */
    uint16_t money[CB_MAXP];
    uint8_t supply[CB_MAXP];               /* workers in the personal supply */
    uint8_t canteen[CB_MAXP];              /* displaced workers, by owner */
    uint8_t bank[CB_MAXP];                 /* workers on the Bank */
    uint8_t cage_level[CB_MAXP];           /* 0 = surface .. 4 */
    uint8_t cage[CB_MAXP][CB_NCOL];
    uint8_t storage[CB_MAXP][CB_NCOL];
    uint8_t carts[CB_MAXP][CB_NCOL];       /* minecarts per level (printed one included) */
    uint8_t mine[CB_MAXP][CB_NCOL][CB_NCOL];   /* cubes in the minecarts of a level, per colour */
    uint8_t light[CB_MAXP], dark[CB_MAXP]; /* tiles per side */
    uint8_t owned[CB_MAXP][CB_NTYPES];     /* acquired tiles per type */
    uint8_t filled[CB_NCARDS][CB_NCOL];    /* filled spaces per demanded colour (outstanding) */
    uint8_t oncard[CB_NCARDS][CB_NCOL];    /* cubes on the card per colour */
    int8_t owner[CB_NSPACES];              /* whose workers are on the space, -1 none */
    uint8_t count[CB_NSPACES];
    uint8_t factory[8];                    /* tile type on F1..F8, 255 empty */
    uint8_t display[4];                    /* card on O1..O4, 255 empty */
    uint8_t coal[CB_NCOL];                 /* general supply */
    uint8_t buf[CB_MAX_DRAW];              /* draw-5 buffer; buf[0..buf_ordered) chosen return order */
    uint8_t buf_n, buf_goal, buf_kind, buf_ordered, buf_dest;
    uint8_t phase;
    int8_t actor;                          /* who decides now, -1 at chance/terminal nodes */
    int8_t turn;                           /* whose turn it is */
    uint8_t shift;                         /* 1..3; 0 during setup */
    uint8_t start;                         /* start player (255 before the chance node) */
    uint8_t pick;                          /* draft picks made */
    uint8_t steps;                         /* work steps left (mining) */
    uint8_t action;                        /* space being resolved this turn, 255 none */
    uint8_t refill;                        /* display slot (space index) to refill, 255 none */
    uint8_t short_left, short_level;       /* minecarts still to fill of an acquired tile */
    uint8_t reserved[2];
} cb_state;

#endif
