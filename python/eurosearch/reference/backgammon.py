"""Backgammon in plain Python, written from the rules (docs/backgammon_engine.md), not from the C.

The differential test's oracle (tests/test_backgammon_differential.py). It keeps each player's
checkers in that player's own pip numbering (1 = the last point before bearing off, 24 = the
opponent's home corner, 25 = the bar, 0 = borne off), where the C keeps one absolute board, and
finds the legal half-turns by playing the dice in every order and keeping the longest plays.
Only the move and chance ids are shared with the C (they are the interface, backgammon.h).
"""

from __future__ import annotations

import random

from ..games.backgammon import BackgammonOptions
from ..games.backgammon_data import BackgammonData
from .base import random_playout as playout

PLAY, FIRST, ROLL = 1, 2, 3
BAR_ID, NONE_ID = 24, 25     # a step's "from" in a move id: the bar, no step
BAR = 25                     # the bar in pip numbering
START, ROLLING, MOVING, OVER = 1, 2, 3, 4


def play_id(from1: int, from2: int, high_first: int) -> int:
    return PLAY | from1 << 2 | from2 << 7 | high_first << 12


def first_id(low: int, high: int, starter: int) -> int:
    return FIRST | low << 2 | high << 5 | starter << 8


def roll_id(low: int, high: int) -> int:
    return ROLL | low << 2 | high << 5


def absolute(player: int, pip: int) -> int:
    """The absolute point (0..23) of player's pip number 1..24 (player 0 bears off past 23)."""
    return 24 - pip if player == 0 else pip - 1


class BackgammonReference:
    """The rules for one data set and options; makes initial states."""

    def __init__(self, data: BackgammonData, players: int = 2, options: BackgammonOptions | None = None):
        if players != 2:
            raise ValueError("backgammon is a two-player game")
        self.data = data
        self.options = options or BackgammonOptions()

    def initial_state(self) -> "BackgammonRefState":
        return BackgammonRefState(self)


class BackgammonRefState:
    def __init__(self, ref: BackgammonReference):
        self.ref = ref
        # pips[p][k] = p's checkers k pips from bearing off (k = 25: on the bar; k = 0: off)
        self.pips = [[0] * 26 for _ in range(2)]
        for point, n in enumerate(ref.data.start):
            # player 0's point i is 24 - i pips from home; player 1 starts on the mirror image
            self.pips[0][24 - point] += n
            self.pips[1][24 - point] += n
        self.stage = START
        self.player = 0
        self.dice: tuple[int, int] | None = None
        self.second_half = False
        self.turns = 0

    # ---- queries

    def current_player(self) -> int:
        if self.stage == OVER:
            return -2
        return self.player if self.stage == MOVING else -1

    def is_chance(self) -> bool:
        return self.stage in (START, ROLLING)

    def is_terminal(self) -> bool:
        return self.stage == OVER

    def scores(self) -> list[float]:
        return [float(self.pips[0][0]), float(self.pips[1][0])]

    def returns(self) -> list[float]:
        if self.stage != OVER:
            return [0.0, 0.0]
        for p in (0, 1):
            if self.pips[p][0] == 15:
                return [1.0, 0.0] if p == 0 else [0.0, 1.0]
        return [0.5, 0.5]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.stage == START:
            # the opening roll: two different dice, either player starting
            return [(first_id(a, b, p), 1 / 30) for p in (0, 1) for a in range(1, 7) for b in range(a + 1, 7)]
        if self.stage == ROLLING:
            return [(roll_id(a, b), 1 / 36 if a == b else 2 / 36) for a in range(1, 7) for b in range(a, 7)]
        return []

    def sample_chance(self, rng: random.Random) -> int:
        moves, probs = zip(*self.chance_outcomes())
        return rng.choices(moves, probs)[0]

    def clone(self) -> "BackgammonRefState":
        c = BackgammonRefState.__new__(BackgammonRefState)
        c.__dict__.update(self.__dict__)
        c.pips = [row[:] for row in self.pips]
        return c

    # ---- checker play

    def _opponent_on(self, p: int, k: int) -> int:
        """Opposing checkers on the point p calls k (1..24)."""
        return self.pips[1 - p][25 - k]

    def _can_step(self, p: int, k: int, die: int) -> bool:
        """May p move a checker from pip k (25: the bar) by die?"""
        mine = self.pips[p]
        if mine[k] == 0:
            return False
        if mine[BAR] and k != BAR:
            return False                       # the bar first
        target = k - die
        if target >= 1:
            return self._opponent_on(p, target) < 2   # not onto a made point
        if any(mine[j] for j in range(7, 26)):
            return False                       # bearing off needs everything home
        if target == 0:
            return True
        return not any(mine[j] for j in range(k + 1, 7))   # higher die: only from the back

    def _step(self, p: int, k: int, die: int) -> None:
        target = max(k - die, 0)
        self.pips[p][k] -= 1
        self.pips[p][target] += 1
        if target and self._opponent_on(p, target) == 1:
            self.pips[1 - p][25 - target] = 0  # hit: the lone checker goes to the bar
            self.pips[1 - p][BAR] += 1

    def _plays(self, dice: list[int]) -> list[list[tuple[int, int]]]:
        """Every play of the dice in this order, as far as it goes: lists of (pip, die)."""
        p = self.player
        if not dice:
            return [[]]
        out = []
        for k in range(1, 26):
            if self._can_step(p, k, dice[0]):
                c = self.clone()
                c._step(p, k, dice[0])
                out += [[(k, dice[0])] + rest for rest in c._plays(dice[1:])]
        return out or [[]]

    def _position(self) -> tuple:
        return tuple(self.pips[0]), tuple(self.pips[1])

    def legal_moves(self) -> list[int]:
        if self.stage != MOVING:
            return []
        low, high = self.dice
        orders = [[high, low]] if low == high else [[high, low], [low, high]]
        plays = [pl for order in orders for pl in self._plays(order)]
        longest = max(len(pl) for pl in plays)
        plays = [pl for pl in plays if len(pl) == longest]
        if longest == 1 and low != high and any(d == high for _, d in (pl[0] for pl in plays)):
            plays = [pl for pl in plays if pl[0][1] == high]   # one die only: the larger
        p = self.player
        best: dict[tuple, int] = {}
        for pl in plays:
            c = self.clone()
            ids = []
            for k, d in pl:
                c._step(p, k, d)
                ids.append(BAR_ID if k == BAR else absolute(p, k))
            ids += [NONE_ID] * (2 - len(ids))
            high_first = 1 if low == high else int(bool(pl) and pl[0][1] == high)
            mid = play_id(ids[0], ids[1], high_first if pl else 0)
            key = c._position()
            best[key] = min(best.get(key, mid), mid)
        return sorted(best.values())

    def apply(self, move: int) -> None:
        kind = move & 3
        if kind == FIRST:
            assert self.stage == START
            self.player = move >> 8 & 1
            self.dice = (move >> 2 & 7, move >> 5 & 7)
            self.stage = MOVING
            return
        if kind == ROLL:
            assert self.stage == ROLLING
            self.dice = (move >> 2 & 7, move >> 5 & 7)
            self.stage = MOVING
            return
        p = self.player
        low, high = self.dice
        froms = [move >> 2 & 31, move >> 7 & 31]
        dice = [high, low] if move >> 12 & 1 else [low, high]
        used = 0
        for f, d in zip(froms, dice):
            if f != NONE_ID:
                self._step(p, BAR if f == BAR_ID else (24 - f if p == 0 else f + 1), d)
                used += 1
        if not self.second_half:
            self.turns += 1
        if not self.second_half and low == high and used == 2:
            self.second_half = True            # a double: the same dice once more
        else:
            self.second_half = False
            self.dice = None
            self.player = 1 - p
            self.stage = ROLLING
        if self.pips[p][0] == 15 or self.turns > self.ref.options.max_turns:
            self.stage = OVER
            self.dice = None
            self.second_half = False


def random_playout(ref: BackgammonReference, rng: random.Random) -> tuple[list[float], int]:
    """One game from ref.initial_state() played uniformly at random: (final scores, decisions taken)."""
    return playout(ref.initial_state(), rng)
