/* Backgammon, a calibration game (not one of the Euro games): the standard rules exactly as
 * OpenSpiel's "backgammon" plays them with its default parameters (winloss scoring, no cube,
 * max_player_turns 500), so that the same work can be timed on both engines
 * (bench/openspiel_race.py, tests/test_backgammon_openspiel.py). Rules as played, move
 * encoding and what differs from the Euro games: docs/backgammon_engine.md.
 *
 * Board: points 0..23 in one absolute numbering for both players. Player 0 ("x") moves up,
 * enters from the bar on point d-1 and bears off past 23 (home 18..23); player 1 ("o") moves
 * down, enters on 24-d and bears off below 0 (home 0..5).
 *
 * Sequencing (OpenSpiel's): a chance node rolls the first turn (30 outcomes of 1/30: who
 * starts x the 15 non-double rolls; the first roll is never a double); then each decision
 * plays up to two dice of the roll (one "half-turn"); a double gives a second half-turn to the
 * same player when the first one used both dice; then a chance node rolls the other player's
 * dice (21 outcomes: doubles 1/36, the rest 1/18). A turn counts when its first half-turn is
 * played; the game also ends (a draw) once more than max_turns turns were played.
 *
 * Move ids (low 2 bits = type):
 *   BG_M_PLAY  | from1 << 2 | from2 << 7 | high_first << 12
 *       from = 0..23 a point, 24 the bar, 25 no step; high_first: the first step uses the
 *       higher die (for a double always 1; for a pass 0). Moves with the same resulting
 *       position are listed once, under the smallest id.
 *   BG_M_FIRST | low << 2 | high << 5 | starter << 8   (chance: the opening roll, low < high)
 *   BG_M_ROLL  | low << 2 | high << 5                  (chance: a roll, low <= high)
 *
 * Data table (int32, python/eurosearch/games/backgammon_data.py to_table()):
 *   [0] version = 1, [1] checkers per player (15), [2..25] player 0's checkers on points
 *   0..23 at the start (player 1's are the mirror image, point 23 - i).
 */
#ifndef ES_GAMES_BACKGAMMON_H
#define ES_GAMES_BACKGAMMON_H
#include <stdint.h>
#include "eurosearch.h"

#define BG_POINTS 24
#define BG_CHECKERS 15
#define BG_BAR 24               /* a step's "from" for a checker entering from the bar */
#define BG_NONE 25              /* no step */
#define BG_MAX_MOVES 1024       /* bound: 32 first steps x 32 second steps */
#define BG_MAX_CHANCE 30        /* the opening roll */
#define BG_TABLE_VERSION 1
#define BG_TABLE_LEN (2 + BG_POINTS)

enum { BG_M_PLAY = 1, BG_M_FIRST = 2, BG_M_ROLL = 3 };
enum { BG_OPT_MAX_TURNS, BG_NOPTIONS };
enum { BG_PH_START = 1, BG_PH_ROLL, BG_PH_MOVE, BG_PH_OVER, BG_NPHASES };

typedef struct bg_data {
    int checkers;
    uint8_t start[BG_POINTS];   /* player 0's opening position */
} bg_data;

/* The whole state: 64 bytes, no padding (every byte is a reflected field). */
typedef struct bg_state {
    uint8_t board[2][BG_POINTS];   /* checkers of each player on each point */
    uint8_t bar[2], off[2];
    uint16_t turns;                /* turns played (a double's two half-turns count once) */
    uint8_t phase;
    int8_t player;                 /* to move; at a roll, the one who rolls */
    uint8_t dice[2];               /* low, high while moving; 0 otherwise */
    uint8_t double_half;           /* 1: the second half-turn of a double */
    uint8_t reserved[5];           /* zero; pads the state to 64 bytes */
} bg_state;

#endif
