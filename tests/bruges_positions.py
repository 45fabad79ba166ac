"""Shared helpers for the Bruges tests: card look-ups in the bundled (provisional) data, the
engine's move encoding (docs/bruges_engine.md, "Move and chance ids (frozen)"), seeded random
states, and positions built on the ENGINE through its public JSON (state_from_json).

The reference tests (test_reference_bruges.py) use `card` and the colour names; the engine
tests (test_bruges_rules.py, test_bruges_hidden.py, the coverage test) use the rest.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import eurosearch as es
from eurosearch.games.bruges_data import load

DATA = load()
BLUE, BROWN, YELLOW, RED, PURPLE = 0, 1, 2, 3, 4
COLOURS = ("blue", "brown", "yellow", "red", "purple")

# Engine zones, flags and phases (csrc/games/bruges.h).
Z_POOL, Z_HAND, Z_HOUSE, Z_PERSON, Z_DISCARD = range(5)
F_ROTATED, F_PUBLIC = 1, 2
PH_START, PH_DRAW, PH_REVEAL, PH_DICE, PH_DISASTER, PH_REP, PH_TURN, PH_OVER = range(8)

# Move types (bits 0-3) and PLAY actions (bits 12-14 of the id).
DRAW, DRAW_STOP, REP, ORDER, FIRE_HOUSE, FIRE_CANAL, PLAGUE, ACTIVATE, PLAY, END_TURN, JAILER = range(1, 12)
START, DIE, TOP, CARD = range(12, 16)
A_WORKERS, A_MONEY, A_THREAT, A_CANAL0, A_CANAL1, A_HOUSE, A_RECRUIT = range(7)
HIDDEN_CARD = 200            # move_view's card id for a card seen only by its colour


def card(effect: str, colour: int | None = None, cost: int | None = None, taken=()) -> int:
    """The first card id with this effect kind (and colour, cost), not in `taken`."""
    for i, c in enumerate(DATA.cards):
        if c.effect == effect and (colour is None or c.colour == colour) \
                and (cost is None or c.cost == cost) and i not in taken:
            return i
    raise LookupError(effect)


def mv(kind: int, arg: int = 0) -> int:
    return kind | arg << 4


def play_move(c: int, action: int) -> int:
    return mv(PLAY, c | action << 8)


def die_move(colour: int, face: int) -> int:
    return mv(DIE, colour | face << 3)


def fields(s, viewer: int | None = None) -> dict[str, Any]:
    return json.loads(s.to_json(viewer=viewer, format=1))["state"]   # raw values: indexed by card number


def texts(s) -> set[str]:
    """The legal moves (or chance outcomes) of s as text."""
    moves = [m for m, _ in s.chance_outcomes()] if s.is_chance() else s.legal_moves()
    return {s.move_to_str(m) for m in moves}


def step(s, rng: random.Random, build: bool = False) -> None:
    """One random step: a chance outcome by its probability, or a uniform legal move (with
    `build`, the builder's preference for canals, persons, houses and activations)."""
    if s.is_chance():
        s.apply(s.sample_chance(rng.getrandbits(63)))
    else:
        moves = s.legal_moves()
        s.apply(builder(moves, rng) if build else rng.choice(moves))


def builder(moves: list[int], rng: random.Random) -> int:
    """Prefers building (canals, persons, houses) and activations, so that random games reach
    full displays, statues and face-down houses more often than uniform play does."""
    if rng.random() < 0.8:
        for actions in ((A_CANAL0, A_CANAL1), (A_RECRUIT,), (A_HOUSE,)):
            best = [m for m in moves if m & 15 == PLAY and m >> 12 & 7 in actions]
            if best:
                return rng.choice(best)
        act = [m for m in moves if m & 15 in (ACTIVATE, REP) and m != mv(REP, 0)]
        if act:
            return rng.choice(act)
    return rng.choice(moves)


def random_states(n: int, seed: int, every: int = 9, games: int = 2, build: bool = True) -> Iterator[Any]:
    """Every `every`-th state (chance nodes included) of `games` seeded random games."""
    g = es.game("bruges", players=n)
    rng = random.Random(seed)
    for _ in range(games):
        s = g.new_state(seed=rng.getrandbits(32))
        k = 0
        while not s.is_terminal():
            if k % every == 0:
                yield s.clone()
            k += 1
            step(s, rng, build and k % 2 == 0)


def reach(g, until, seed: int = 0, build: bool = True, limit: int = 20000):
    """Play seeded random steps from a new state until `until(state)` holds."""
    rng = random.Random(seed)
    s = g.new_state(seed=seed)
    for _ in range(limit):
        if until(s):
            return s
        if s.is_terminal():
            s = g.new_state(seed=rng.getrandbits(32))
            continue
        step(s, rng, build)
    raise AssertionError("position not reached")


def roll(s, faces) -> None:
    """Apply the five dice (blue, brown, yellow, red, purple) as chance outcomes."""
    for k, face in enumerate(faces):
        s.apply(die_move(k, face))


def by_text(s, text: str) -> int:
    """The legal move whose text is `text` (IllegalMoveError if none)."""
    return s.str_to_move(text)


def at_turn(p: int):
    """Predicate: a phase-3 decision of player p."""
    return lambda s: not s.is_chance() and s.current_player == p and fields(s)["phase"] == PH_TURN


class Position:
    """An engine state as editable JSON fields, loaded back with state_from_json (so every
    position passes the engine's validator). Moving a card into or out of the undecided pool
    (piles, extra pile) adjusts the pile sizes so the pool stays consistent."""

    def __init__(self, s) -> None:
        self.g = s.game
        self.doc = json.loads(s.to_json(format=1))   # the raw form: edited by card number
        self.f = self.doc["state"]

    @classmethod
    def turn(cls, n: int = 2, p: int = 0, seed: int = 0, options: dict | None = None) -> "Position":
        """A phase-3 turn of player p (start of its turn) reached by random play, with every
        player's hand, display, canals and markers cleared: the tests add what they need."""
        opts = {"start_player": p, **(options or {})}
        g = es.game("bruges", players=n, options=opts)
        s = reach(g, lambda t: at_turn(p)(t) and fields(t)["round"] == 1 and fields(t)["lap"] == 0, seed, build=False)
        pos = cls(s)
        pos.clear()
        return pos

    def clear(self) -> None:
        f = self.f
        for p in range(self.g.players):     # cards being drawn go back into the piles
            self._grow_pool(sum(f["pending"][p]))
            f["pending"][p] = [0] * 5
        for c in range(165):
            if f["zone"][c] in (Z_HAND, Z_HOUSE, Z_PERSON):
                self.to_pool(c)
        for p in range(self.g.players):
            f["canal"][p] = [0, 0]
            f["statue"][p] = [0, 0]
            f["threats"][p] = [0] * 5
            f["workers"][p] = [1] * 5
            f["markers"][p] = 0
            f["house_seq"][p] = 0
            f["rep"][p] = 0
            f["money"][p] = 5
            f["score"][p] = 5
        f["statues_taken"] = 0

    def at(self, phase: int, **changes: Any) -> "Position":
        """Move the position to another node of the same round (seat = the start player's
        turn to act in that phase), e.g. at(PH_DICE) before the roll or at(PH_DISASTER,
        fire_left=1) at a Fire target choice; `changes` set further fields."""
        f = self.f
        f.update(phase=phase, seat=0, lap=0, plays_left=0, played=0, optional=0, draws_left=0,
                 jailer_left=0, pending_dis=0, fire_left=0, plague_left=0, need_top=0, need_card=0)
        f["cur"] = f["start"]
        if phase == PH_TURN:
            f["plays_left"] = 1
        if phase == PH_DICE:   # the dice come once every seat has drawn (seat = player count)
            f.update(dice_rolled=0, die=[0] * 5, seat=self.g.players)
        f.update(changes)
        return self

    def seats(self, key: str, values: list) -> "Position":
        """Set a per-player field for seats 0..len(values)-1 (the arrays always hold 4 seats)."""
        self.f[key][:len(values)] = values
        return self

    def last_turn(self, p: int) -> "Position":
        """Player p's turn in the last lap of phase 3, as the last seat: the turn's end runs
        phase 4 (majorities, un-rotation, next round or final scoring)."""
        n = self.g.players
        return self.at(PH_TURN, start=(p + 1) % n, cur=p, seat=n - 1, lap=3)

    def _grow_pool(self, delta: int) -> None:
        f = self.f
        for _ in range(abs(delta)):   # into the smaller pile, out of the bigger one
            if delta > 0:
                f["size"][0 if f["size"][0] <= f["size"][1] else 1] += 1
            else:
                f["size"][0 if f["size"][0] >= f["size"][1] else 1] -= 1

    def to_pool(self, c: int) -> None:
        f = self.f
        if f["zone"][c] == Z_POOL:
            return
        for e in range(165):   # a house's person goes with it
            if f["zone"][e] == Z_PERSON and f["link"][e] == c and e != c:
                self.to_pool(e)
        f["zone"][c], f["owner"][c], f["link"][c], f["flags"][c] = Z_POOL, 0, 0, 0
        self._grow_pool(1)

    def _take(self, c: int) -> None:
        f = self.f
        if f["zone"][c] == Z_POOL:
            self._grow_pool(-1)
        else:
            self.to_pool(c)
            self._grow_pool(-1)

    def hand(self, p: int, *cards: int, public: bool = False) -> "Position":
        for c in cards:
            self._take(c)
            f = self.f
            f["zone"][c], f["owner"][c], f["link"][c], f["flags"][c] = Z_HAND, p, 0, F_PUBLIC if public else 0
        return self

    def house(self, p: int, h: int, person: int | None = None, rotated: bool = False) -> "Position":
        f = self.f
        self._take(h)
        f["zone"][h], f["owner"][h], f["link"][h], f["flags"][h] = Z_HOUSE, p, f["house_seq"][p], 0
        f["house_seq"][p] += 1
        if person is not None:
            self._take(person)
            f["zone"][person], f["owner"][person], f["link"][person] = Z_PERSON, p, h
            f["flags"][person] = F_PUBLIC | (F_ROTATED if rotated else 0)
        return self

    def discard(self, *cards: int) -> "Position":
        for c in cards:
            self._take(c)
            f = self.f
            f["zone"][c], f["owner"][c], f["link"][c], f["flags"][c] = Z_DISCARD, 0, 0, F_PUBLIC
        return self

    def any_card(self, taken=()) -> int:
        """Any card still in the piles (a house's own identity never matters to the rules)."""
        return next(c for c in range(165) if self.f["zone"][c] == Z_POOL and c not in taken)

    def fresh_card(self, effect: str = "none", colour: int | None = None, cost: int | None = None,
                   taken=()) -> int:
        """A card of this kind still in the pool (so it can be placed anywhere)."""
        used = set(taken) | {c for c in range(165) if self.f["zone"][c] != Z_POOL}
        return card(effect, colour, cost, used)

    def state(self):
        f = self.f
        for sl in (0, 1):   # keep each pile top's colour available in the pool
            if f["size"][sl] and not any(f["zone"][c] == Z_POOL and DATA.cards[c].colour == f["top"][sl]
                                         for c in range(165)):
                f["top"][sl] = next(DATA.cards[c].colour for c in range(165) if f["zone"][c] == Z_POOL)
        return self.g.state_from_json(json.dumps(self.doc))


def t20_persons() -> tuple[int, int, int, int, int]:
    """Spec §10 T20's five placed persons on the provisional data: printed VP 3, 1, 2, 0, 2,
    two of them Office (the 1-VP one and an Office Mayor-type, which counts itself, BR-A16)."""
    office = DATA.groups.index("Office")
    cards = DATA.cards
    mayor = next(i for i, c in enumerate(cards) if c.effect == "vp_per_group" and c.group == office)
    prince = next(i for i, c in enumerate(cards) if c.cost == 9 and c.group != office)
    one = next(i for i, c in enumerate(cards) if c.vp == 1 and c.group == office and c.activation != "laurel")
    zero = next(i for i, c in enumerate(cards) if c.vp == 0 and c.group != office)
    two = next(i for i, c in enumerate(cards) if c.vp == 2 and c.group != office
               and c.activation != "laurel" and i != mayor)
    return prince, one, mayor, zero, two
