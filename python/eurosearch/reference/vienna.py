"""Plain pure-Python reference implementation of Vienna.

Rules: ``shared/rules/vienna.md`` (the spec; section numbers and VI-A ids in comments refer to
it). Engine mapping (decision nodes, chance nodes, integer move ids, sequencing): the contract
``docs/vienna_engine.md``. This module is written to be read against those two documents; it
favours clarity over speed. A differential test plays it step by step against the C core.

Every observable step of the game is a node:

* a **decision node** (``current_player() >= 0``): ``legal_moves()`` lists the move ids;
* a **chance node** (``current_player() == -1``): ``chance_outcomes()`` lists (id, probability);
* the **terminal** state (``current_player() == -2``).

``apply()`` takes one move or outcome and then runs every deterministic step (auto-resolved
single-option sub-decisions, queue draws, reshuffles, evaluation of fields without choices,
cleanup, round start) until the next node.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field
from functools import cache

from eurosearch.games.vienna import ViennaOptions
from eurosearch.games.vienna_data import GEHEIMBUND, ViennaData
from .base import check_players, check_start_player, move_id, random_playout as playout, shared_returns

# --- Rule constants (contract "Seats, options, data"; not data) ------------------------------
END_TRIGGER_VP = 25        # spec 7.3 step 1
FINAL_MAJORITY_VP = 1      # spec 7.3 step 2 (VI-A31)
COINS_PER_VP = 3           # spec 7.3 step 3 (VI-A32)
BRIBE_COST = 1             # spec 4.5, VI-A9
MODIFY_COST = 1            # spec 4.3

# Special cards, in the order of vienna_data.SPECIAL_EFFECTS (spec 2.3).
S1_START_PLAYER, S2_DOUBLE_MOVE, S3_DICE_JOKER, S4_GREATER_INFLUENCE, S5_EXTRA_DIE = range(5)
SPECIAL_COUNT = 5
# Symbols (spec 2.2).
CITIZEN, CROSS, CROWN = range(3)
SYMBOL_COUNT = 3
FACES = range(1, 7)

# --- Move ids (contract "Move ids"): bits 0-3 type, the rest parameters ------------------------
DRAFT, PLACE, REROLL, NUDGE, GENDARME, KRIEAU, PRATER, DOUBLE = 1, 2, 3, 4, 5, 6, 7, 8
PERSON, GLORIETTE, TIERGARTEN, START, ROLL, REVEAL = 9, 10, 11, 12, 13, 14


def move_type(move: int) -> int:
    return move & 0xF


def draft_move(card: int) -> int:
    return DRAFT | (card << 4)


def place_move(field_index: int, c1: int = 0, c2: int = 0, white: bool = False) -> int:
    """PLACE: coloured dice ``c1`` (alone when ``c2 == 0``) or ``c1 <= c2``; optional white die."""
    return PLACE | (field_index << 4) | (c1 << 9) | (c2 << 12) | (int(white) << 15)


def _face_counts_bits(counts: list[int] | tuple[int, ...]) -> int:
    """Counts per face 1..6 (``counts[f]``, index 0 unused) as 3-bit fields from bit 4."""
    bits = 0
    for f in FACES:
        bits |= counts[f] << (4 + 3 * (f - 1))
    return bits


def _decode_face_counts(move: int) -> list[int]:
    return [0] + [(move >> (4 + 3 * (f - 1))) & 7 for f in FACES]


def reroll_move(counts: list[int] | tuple[int, ...], white: bool = False) -> int:
    """REROLL ``counts[f]`` coloured dice showing f (index 0 unused), plus the white die."""
    return REROLL | _face_counts_bits(counts) | (int(white) << 22)


def nudge_move(face: int, up: bool, white: bool = False) -> int:
    return NUDGE | (face << 4) | (int(up) << 7) | (int(white) << 8)


def gendarme_move(field_index: int) -> int:
    return GENDARME | (field_index << 4)


def krieau_move(take_coins: bool) -> int:
    return KRIEAU | (int(take_coins) << 4)


def prater_move(from_face: int = 0, white: bool = False, to_face: int = 0) -> int:
    """PRATER; with no arguments the skip move."""
    return PRATER | (from_face << 4) | (int(white) << 7) | (to_face << 8)


def double_move(use: bool) -> int:
    return DOUBLE | (int(use) << 4)


def person_move(person_type: int) -> int:
    return PERSON | (person_type << 4)


PERSON_DECLINE = PERSON | (1 << 10)


def gloriette_move(symbol: int) -> int:
    return GLORIETTE | (symbol << 4)


def tiergarten_move(taken: list[int] | tuple[int, ...]) -> int:
    """TIERGARTEN: ``taken[p]`` coins taken from seat p."""
    move = TIERGARTEN
    for p, coins in enumerate(taken):
        move |= coins << (4 + 3 * p)
    return move


def start_move(seat: int) -> int:
    return START | (seat << 4)


def roll_move(counts: list[int] | tuple[int, ...], white_face: int = 0) -> int:
    """ROLL outcome: ``counts[f]`` coloured dice show f (index 0 unused); white face or 0."""
    return ROLL | _face_counts_bits(counts) | (white_face << 22)


def reveal_move(person_type: int) -> int:
    return REVEAL | (person_type << 4)


@cache
def _roll_table(dice: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every multiset of ``dice`` six-sided dice: (counts per face, index 0 unused; weight).

    The weight is the number of orderings, dice! / (c1! ... c6!) (spec 5.1).
    """
    table = []
    for faces in itertools.combinations_with_replacement(FACES, dice):
        counts = [0] * 7
        for f in faces:
            counts[f] += 1
        weight = math.factorial(dice)
        for f in FACES:
            weight //= math.factorial(counts[f])
        table.append((tuple(counts), weight))
    return tuple(table)


# --- Node kinds -------------------------------------------------------------------------------
N_START = "start"            # chance: first start player
N_DRAFT = "draft"            # decision: starting card
N_REVEAL = "reveal"          # chance: person card reveal
N_ROLL = "roll"              # chance: round roll or paid reroll
N_MAIN = "main"              # decision: modify or place
N_GENDARME = "gendarme"      # decision: Krieau gendarme field
N_KRIEAU = "krieau"          # decision: Krieau VP or coins
N_PRATER = "prater"          # decision: Prater die turn
N_DOUBLE = "double"          # decision: use Double move
N_PERSON = "person"          # decision: person card pick (evaluation)
N_GLORIETTE = "gloriette"    # decision: Gloriette symbol (evaluation)
N_TIERGARTEN = "tiergarten"  # decision: Tiergarten take (evaluation)
N_OVER = "over"              # terminal

CHANCE_NODES = (N_START, N_REVEAL, N_ROLL)


@dataclass
class PlayerState:
    """One seat's public state."""

    vp: int
    persons: list[int]                          # person cards owned, count per type
    coins: int = 0
    symbols: list[int] = field(default_factory=lambda: [0] * SYMBOL_COUNT)  # starting + persons
    starting_card: int = -1
    hand: list[int] = field(default_factory=lambda: [0] * 7)  # unplaced coloured dice per face
    rolled: bool = False                        # rolled this round (spec 4.2)
    carriage: int = -1                          # street field index, -1 = none (spec 4.5)
    evaluated: list[bool] = field(default_factory=lambda: [False] * SYMBOL_COUNT)

    def copy(self) -> "PlayerState":
        return PlayerState(
            vp=self.vp, persons=self.persons[:], coins=self.coins, symbols=self.symbols[:],
            starting_card=self.starting_card, hand=self.hand[:], rolled=self.rolled,
            carriage=self.carriage, evaluated=self.evaluated[:],
        )

    def snapshot(self) -> tuple:
        return (self.vp, tuple(self.persons), self.coins, tuple(self.symbols), self.starting_card,
                tuple(self.hand), self.rolled, self.carriage, tuple(self.evaluated))


class ViennaReference:
    """The game definition: data, player count and options."""

    def __init__(self, data: ViennaData, players: int, options: ViennaOptions | None = None):
        check_players("Vienna", players, 3, 5)
        self.data = data
        self.players = players
        self.options = options if options is not None else ViennaOptions()
        check_start_player(self.options.start_player, players)
        if self.options.carriage not in ("last", "furthest"):
            raise ValueError(f"carriage must be 'last' or 'furthest', got {self.options.carriage!r}")
        # Spec 3.2: 5 coloured dice each at 3 players, else 4.
        self.dice_per_player = 5 if players == 3 else 4
        self.display_size = players - 1           # spec 3.1 step 7
        self.street = data.street
        self.person_types = len(data.persons)

    def initial_state(self) -> "ViennaRefState":
        state = ViennaRefState(self)
        state._setup()
        return state


class ViennaRefState:
    """A game position. Mutated in place by ``apply``; ``clone`` for a copy."""

    def __init__(self, ref: ViennaReference):
        self.ref = ref
        n, d = ref.players, ref.data
        self.players = [PlayerState(vp=d.start_vp[n], persons=[0] * ref.person_types)
                        for _ in range(n)]
        self.special_owner = [-1] * SPECIAL_COUNT   # -1 = supply
        self.white_holder = -1                      # who has the white die this round
        self.white_face = 0                         # face of the white die (0 = not rolled)
        self.white_placed = False
        self.occupant = [-1] * len(ref.street)      # street field -> seat, -1 = empty
        self.gendarme = -1                          # street field index, -1 = off the board
        self.double_used = False
        # Person deck (contract "Person deck and display"): unknown multiset, then known queue.
        self.deck_unknown = [c.copies for c in d.persons]
        self.deck_queue: list[int] = []
        self.discard = [0] * ref.person_types
        self.display: list[int] = []                # distinct person types, kept sorted
        self.round = 0
        self.draft_order: list[int] = []
        self.draft_next = 0
        self.starting_taken = [False] * len(d.starting)
        # Control.
        self.node = N_START
        self.actor = -1             # the deciding seat, or the seat rolling at a ROLL node
        self.roll_turn = False      # the current turn began with this player's round roll
        self.rolling = (0, False)   # dice being rolled at a ROLL node: (coloured count, white?)
        self.pending_field = -1     # the street field whose sub-decision is pending
        self.winners: list[int] = []
        self._moves: list[int] | None = None
        self._move_set: set[int] | None = None
        self._outcomes: list[tuple[int, float]] | None = None

    # ------------------------------------------------------------------ public interface

    def current_player(self) -> int:
        if self.node == N_OVER:
            return -2
        if self.node in CHANCE_NODES:
            return -1
        return self.actor

    def is_chance(self) -> bool:
        return self.node in CHANCE_NODES

    def is_terminal(self) -> bool:
        return self.node == N_OVER

    def legal_moves(self) -> list[int]:
        if self.node == N_OVER or self.node in CHANCE_NODES:
            return []
        if self._moves is None:
            self._moves = sorted(set(self._generate_moves()))
            self._move_set = set(self._moves)
        return list(self._moves)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.node not in CHANCE_NODES:
            return []
        if self._outcomes is None:
            self._outcomes = self._generate_outcomes()
        return list(self._outcomes)

    def apply(self, move: int) -> None:
        """Apply a decision move or a chance outcome; ValueError (state unchanged) if not legal."""
        move = move_id(move)
        if self.node == N_OVER:
            raise ValueError("the game is over")
        if self.node in CHANCE_NODES:
            if move not in {o for o, _ in self.chance_outcomes()}:
                raise ValueError(f"{move} is not a chance outcome here ({self.node})")
            self._clear_cache()
            self._apply_chance(move)
        else:
            self.legal_moves()
            assert self._move_set is not None
            if move not in self._move_set:
                raise ValueError(f"{move} is not a legal move here ({self.node})")
            self._clear_cache()
            self._apply_decision(move)
        self._clear_cache()

    def sample_chance(self, rng: random.Random) -> int:
        """One chance outcome drawn the way a player draws it: roll the dice, pick a card.

        Same distribution as chance_outcomes(), without listing every outcome."""
        if self.node == N_START:
            return start_move(rng.randrange(self.ref.players))
        if self.node == N_REVEAL:
            pick = rng.randrange(sum(self.deck_unknown))
            for t, c in enumerate(self.deck_unknown):
                pick -= c
                if pick < 0:
                    return reveal_move(t)
        if self.node == N_ROLL:
            dice, white = self.rolling
            counts = [0] * 7
            for _ in range(dice):
                counts[rng.randint(1, 6)] += 1
            return roll_move(counts, rng.randint(1, 6) if white else 0)
        raise ValueError("sample_chance: not a chance node")

    def apply_sampled(self, outcome: int) -> None:
        """Apply an outcome from sample_chance() without re-listing the outcomes."""
        self._clear_cache()
        self._apply_chance(outcome)
        self._clear_cache()

    def scores(self) -> list[float]:
        return [float(pl.vp) for pl in self.players]

    def returns(self) -> list[float]:
        return shared_returns(self.ref.players, self.node == N_OVER, self.winners)

    def clone(self) -> "ViennaRefState":
        other = ViennaRefState.__new__(ViennaRefState)
        other.__dict__.update(self.__dict__)
        other.players = [pl.copy() for pl in self.players]
        for name in ("special_owner", "occupant", "deck_unknown", "deck_queue", "discard",
                     "display", "draft_order", "starting_taken", "winners"):
            setattr(other, name, list(getattr(self, name)))
        other._clear_cache()
        return other

    def snapshot(self) -> tuple:
        """Every piece of game state as a hashable tuple (for tests and debugging)."""
        return (
            tuple(pl.snapshot() for pl in self.players), tuple(self.special_owner),
            self.white_holder, self.white_face, self.white_placed, tuple(self.occupant),
            self.gendarme, self.double_used, tuple(self.deck_unknown), tuple(self.deck_queue),
            tuple(self.discard), tuple(self.display), self.round, tuple(self.draft_order),
            self.draft_next, tuple(self.starting_taken), self.node, self.actor, self.roll_turn,
            self.rolling, self.pending_field, tuple(self.winners),
        )

    def __repr__(self) -> str:
        return (f"ViennaRefState(round={self.round}, node={self.node}, actor={self.actor}, "
                f"vp={[pl.vp for pl in self.players]}, coins={[pl.coins for pl in self.players]})")

    # ------------------------------------------------------------------ helpers

    def _clear_cache(self) -> None:
        self._moves = None
        self._move_set = None
        self._outcomes = None

    def _left(self, p: int) -> int:
        return (p + 1) % self.ref.players

    def _right(self, p: int) -> int:
        return (p - 1) % self.ref.players

    def _sym(self, p: int, s: int) -> int:
        """sym(p, s): starting card + person cards + Greater influence if p owns S4 now (4.10.4)."""
        count = self.players[p].symbols[s]
        if self.special_owner[S4_GREATER_INFLUENCE] == p:
            count += self.ref.data.gi_symbols[s]
        return count

    def _white_unplaced(self, p: int) -> bool:
        return self.white_holder == p and not self.white_placed

    def _has_unplaced_die(self, p: int) -> bool:
        """A player who has not rolled has all dice unplaced (contract "A round")."""
        pl = self.players[p]
        if not pl.rolled:
            return True
        return sum(pl.hand) > 0 or self._white_unplaced(p)

    def _specials_owned(self, p: int) -> int:
        return sum(1 for owner in self.special_owner if owner == p)

    # ------------------------------------------------------------------ setup (spec 3.1)

    def _setup(self) -> None:
        sp = self.ref.options.start_player
        if sp is None:
            self.node = N_START          # chance node START(p), 1/n each
        else:
            self._begin_draft(sp)

    def _begin_draft(self, sp: int) -> None:
        """The start player owns S1; draft order right(sp), right(right(sp)), ..., sp (3.1 step 5)."""
        n = self.ref.players
        self.special_owner[S1_START_PLAYER] = sp
        self.draft_order = [(sp - 1 - i) % n for i in range(n)]
        self.draft_next = 0
        self._continue_draft()

    def _available_starting_cards(self) -> list[int]:
        return [c for c, taken in enumerate(self.starting_taken) if not taken]

    def _continue_draft(self) -> None:
        while self.draft_next < len(self.draft_order):
            picker = self.draft_order[self.draft_next]
            available = self._available_starting_cards()
            if not available:            # only with data of fewer starting cards than players
                self.draft_next += 1
                continue
            if len(available) == 1:      # a picker with one card left takes it automatically
                self._take_starting_card(picker, available[0])
                continue
            self.node, self.actor = N_DRAFT, picker
            return
        # 3.1 step 7: the person deck starts fully unknown; reveal the display, then round 1.
        self._refill_display()

    def _take_starting_card(self, p: int, card: int) -> None:
        """The picker gets the card's coins and symbols at once (3.1 step 6, VI-A5)."""
        c = self.ref.data.starting[card]
        pl = self.players[p]
        self.starting_taken[card] = True
        pl.starting_card = card
        pl.coins += c.coins
        for s in range(SYMBOL_COUNT):
            pl.symbols[s] += c.symbols[s]
        self.draft_next += 1

    # ------------------------------------------------------------------ person deck (spec 5.3)

    def _refill_display(self) -> None:
        """Refill the display to n - 1 distinct persons, then start the next round."""
        types = range(self.ref.person_types)
        while len(self.display) < self.ref.display_size:
            if sum(self.deck_unknown) == 0 and not self.deck_queue:
                if sum(self.discard) == 0:
                    break                                        # nothing left anywhere
                self.deck_unknown = self.discard                 # VI-A34: reshuffle the discards
                self.discard = [0] * self.ref.person_types
                continue
            remaining = {t for t in types if self.deck_unknown[t] > 0} | set(self.deck_queue)
            if remaining <= set(self.display):
                break                                            # VI-A35: only duplicates left
            if sum(self.deck_unknown) > 0:
                self.node = N_REVEAL                             # chance: REVEAL(t)
                return
            self._receive_revealed(self.deck_queue.pop(0))       # known bottom card
        self._start_round()

    def _receive_revealed(self, t: int) -> None:
        """Duplicate rule (5.3): a person already displayed goes to the bottom of the deck."""
        if t in self.display:
            self.deck_queue.append(t)
        else:
            self.display.append(t)
            self.display.sort()

    # ------------------------------------------------------------------ round and turns (spec 4)

    def _start_round(self) -> None:
        self.round += 1
        for pl in self.players:
            pl.rolled = False
            pl.hand = [0] * 7
            pl.carriage = -1
            pl.evaluated = [False] * SYMBOL_COUNT
        self.occupant = [-1] * len(self.ref.street)
        self.gendarme = -1
        self.double_used = False                              # 4.11 step 3
        self.white_holder = self.special_owner[S5_EXTRA_DIE]  # 4.7.3: holder at round start
        self.white_face = 0
        self.white_placed = False
        self._begin_turn(self.special_owner[S1_START_PLAYER])  # 4.11 step 7

    def _begin_turn(self, p: int) -> None:
        self.actor = p
        if not self.players[p].rolled:
            # 4.2: the first turn of the round begins with rolling all own dice (chance node).
            self.rolling = (self.ref.dice_per_player, self.white_holder == p)
            self.node = N_ROLL
        else:
            self.roll_turn = False
            self.node = N_MAIN

    def _end_turn(self, p: int) -> None:
        """4.7.1: offer Double move, else pass the turn."""
        if (self.special_owner[S2_DOUBLE_MOVE] == p and not self.double_used
                and self._has_unplaced_die(p)):
            self.node, self.actor = N_DOUBLE, p
            return
        self._pass_turn(p)

    def _pass_turn(self, p: int) -> None:
        """4.8, VI-A16: the next player clockwise with an unplaced die; nobody: evaluation."""
        n = self.ref.players
        for i in range(1, n + 1):
            q = (p + i) % n
            if self._has_unplaced_die(q):
                self._begin_turn(q)
                return
        self._evaluate_from(0)

    # ------------------------------------------------------------------ main decision moves

    def _can_modify(self, p: int) -> bool:
        """4.3, VI-A12: paid modification needs a coin (and, if switched, the roll turn)."""
        return (self.players[p].coins >= MODIFY_COST
                and (self.ref.options.modify_every_turn or self.roll_turn))

    def _reroll_moves(self, p: int) -> list[int]:
        """Every non-empty sub-multiset of the unplaced dice, white die optional (VI-A15)."""
        hand = self.players[p].hand
        white_options = (False, True) if self._white_unplaced(p) else (False,)
        moves = []
        for picks in itertools.product(*(range(hand[f] + 1) for f in FACES)):
            counts = [0, *picks]
            for white in white_options:
                if sum(picks) > 0 or white:
                    moves.append(reroll_move(counts, white))
        return moves

    def _nudge_moves(self, p: int) -> list[int]:
        """One die +1 or -1, no wrap-around (VI-A14)."""
        dice = [(f, False) for f in FACES if self.players[p].hand[f] > 0]
        if self._white_unplaced(p):
            dice.append((self.white_face, True))
        moves = []
        for face, white in dice:
            if face < 6:
                moves.append(nudge_move(face, True, white))
            if face > 1:
                moves.append(nudge_move(face, False, white))
        return moves

    def _dice_choices(self, p: int) -> list[tuple[int, int, bool]]:
        """Every distinct choice of 1 or 2 unplaced dice as (c1, c2, white) (contract PLACE)."""
        hand = self.players[p].hand
        faces = [f for f in FACES if hand[f] > 0]
        choices = [(f, 0, False) for f in faces]
        for a in faces:
            for b in faces:
                if b > a or (b == a and hand[a] >= 2):
                    choices.append((a, b, False))
        if self._white_unplaced(p):
            choices.append((0, 0, True))
            choices += [(f, 0, True) for f in faces]
        return choices

    def _die_values(self, c1: int, c2: int, white: bool) -> list[int]:
        values = [c for c in (c1, c2) if c > 0]
        if white:
            values.append(self.white_face)
        return values

    def _fits(self, street_field, values: list[int], joker: bool) -> bool:
        """4.4 rule 2: one die's value or two dice's sum is accepted; pair fields need a pair.

        VI-A40: for the Dice joker holder every die showing 1 may count as any value 1..6.
        """
        options = [FACES if joker and v == 1 else (v,) for v in values]
        if street_field.pair:
            return len(values) == 2 and any(a == b for a in options[0] for b in options[1])
        if len(values) == 1:
            return any(a in street_field.accept for a in options[0])
        return any(a + b in street_field.accept for a in options[0] for b in options[1])

    def _bribe(self, p: int, f: int) -> int:
        """4.5, VI-A9: a field behind the carriage costs 1 coin."""
        carriage = self.players[p].carriage
        return BRIBE_COST if carriage >= 0 and f < carriage else 0

    def _place_moves(self, p: int) -> list[int]:
        joker = self.special_owner[S3_DICE_JOKER] == p
        coins = self.players[p].coins
        moves = []
        for c1, c2, white in self._dice_choices(p):
            moves.append(place_move(GEHEIMBUND, c1, c2, white))   # 4.6.3: any 1 or 2 dice
            if white and c1 == 0:
                continue                      # 4.4 rule 3: the white die alone only on Geheimbund
            values = self._die_values(c1, c2, white)
            for f, street_field in enumerate(self.ref.street):
                if self.occupant[f] >= 0 or self.gendarme == f:
                    continue                  # 4.4 rule 1: empty and not the gendarme
                if not self._fits(street_field, values, joker):
                    continue
                if coins < self._bribe(p, f):
                    continue                  # VI-A9: no bribe with 0 coins
                moves.append(place_move(f, c1, c2, white))
        return moves

    # ------------------------------------------------------------------ move generation

    def _generate_moves(self) -> list[int]:
        node, p = self.node, self.actor
        if node == N_DRAFT:
            return [draft_move(c) for c in self._available_starting_cards()]
        if node == N_MAIN:
            moves = []
            if self._can_modify(p):
                moves += self._reroll_moves(p) + self._nudge_moves(p)
            return moves + self._place_moves(p)
        if node == N_GENDARME:
            return [gendarme_move(g) for g in self._gendarme_fields()]
        if node == N_KRIEAU:
            return [krieau_move(False), krieau_move(True)]
        if node == N_PRATER:
            return self._prater_moves(p)
        if node == N_DOUBLE:
            return [double_move(False), double_move(True)]
        if node == N_PERSON:
            return self._person_moves()
        if node == N_GLORIETTE:
            return [gloriette_move(s) for s in self._gloriette_symbols(p)]
        if node == N_TIERGARTEN:
            return [tiergarten_move(v) for v in self._tiergarten_takes(p)]
        raise AssertionError(f"no moves at node {node}")

    def _generate_outcomes(self) -> list[tuple[int, float]]:
        """Chance outcomes with probability float(weight) / float(total) (contract)."""
        if self.node == N_START:
            n = self.ref.players
            return [(start_move(p), float(1) / float(n)) for p in range(n)]
        if self.node == N_REVEAL:
            total = sum(self.deck_unknown)
            return [(reveal_move(t), float(c) / float(total))
                    for t, c in enumerate(self.deck_unknown) if c > 0]
        # N_ROLL, spec 5.1 / 5.2: multiset of j dice, weight j!/(c1!...c6!), total 6^j
        # (6^(j+1) with the white die, each white face keeping the weight).
        dice, white = self.rolling
        outcomes = []
        if white:
            total = 6 ** (dice + 1)
            for counts, weight in _roll_table(dice):
                for wf in FACES:
                    outcomes.append((roll_move(counts, wf), float(weight) / float(total)))
        else:
            total = 6 ** dice
            for counts, weight in _roll_table(dice):
                outcomes.append((roll_move(counts, 0), float(weight) / float(total)))
        return outcomes

    # ------------------------------------------------------------------ applying chance

    def _apply_chance(self, move: int) -> None:
        if self.node == N_START:
            self._begin_draft((move >> 4) & 7)
        elif self.node == N_REVEAL:
            t = (move >> 4) & 0x3F
            self.deck_unknown[t] -= 1
            self._receive_revealed(t)
            self._refill_display()
        else:
            self._apply_roll(move)

    def _apply_roll(self, move: int) -> None:
        p = self.actor
        pl = self.players[p]
        counts = _decode_face_counts(move)
        for f in FACES:
            pl.hand[f] += counts[f]
        if self.rolling[1]:
            self.white_face = (move >> 22) & 7
        if not pl.rolled:
            pl.rolled = True          # the round roll: no further free roll this round (4.2)
            self.roll_turn = True
        self.rolling = (0, False)
        self.node = N_MAIN

    # ------------------------------------------------------------------ applying decisions

    def _apply_decision(self, move: int) -> None:
        node, p = self.node, self.actor
        if node == N_DRAFT:
            self._take_starting_card(p, (move >> 4) & 0xF)
            self._continue_draft()
        elif node == N_MAIN:
            kind = move_type(move)
            if kind == REROLL:
                self._apply_reroll(p, move)
            elif kind == NUDGE:
                self._apply_nudge(p, move)
            else:
                self._apply_place(p, move)
        elif node == N_GENDARME:
            self.gendarme = (move >> 4) & 0x1F
            self._krieau_reward(p)
        elif node == N_KRIEAU:
            f = self.ref.street[self.pending_field]
            if (move >> 4) & 1:
                self.players[p].coins += f.coins
            else:
                self.players[p].vp += f.vp
            self._end_turn(p)
        elif node == N_PRATER:
            self._apply_prater(p, move)
            self._end_turn(p)
        elif node == N_DOUBLE:
            if (move >> 4) & 1:
                self.double_used = True   # 4.7.1: rotate the card; an extra turn, no roll
                self.roll_turn = False
                self.node = N_MAIN
            else:
                self._pass_turn(p)
        elif node == N_PERSON:
            if move != PERSON_DECLINE:
                self._take_person(p, self.pending_field, (move >> 4) & 0x3F)
            self._evaluate_from(self.pending_field + 1)
        elif node == N_GLORIETTE:
            self._gloriette(p, self.pending_field, (move >> 4) & 3)
            self._evaluate_from(self.pending_field + 1)
        elif node == N_TIERGARTEN:
            n = self.ref.players
            self._tiergarten(p, [(move >> (4 + 3 * q)) & 7 for q in range(n)])
            self._evaluate_from(self.pending_field + 1)
        else:
            raise AssertionError(f"no decision at node {node}")

    def _apply_reroll(self, p: int, move: int) -> None:
        """4.3 (a): pay 1 coin, take up the chosen dice and roll them (chance node)."""
        pl = self.players[p]
        counts = _decode_face_counts(move)
        white = bool((move >> 22) & 1)
        pl.coins -= MODIFY_COST
        for f in FACES:
            pl.hand[f] -= counts[f]
        if white:
            self.white_face = 0
        self.rolling = (sum(counts), white)
        self.node = N_ROLL

    def _apply_nudge(self, p: int, move: int) -> None:
        """4.3 (b): pay 1 coin, one die one higher or lower."""
        pl = self.players[p]
        face = (move >> 4) & 7
        new_face = face + 1 if (move >> 7) & 1 else face - 1
        pl.coins -= MODIFY_COST
        if (move >> 8) & 1:
            self.white_face = new_face
        else:
            pl.hand[face] -= 1
            pl.hand[new_face] += 1
        self.node = N_MAIN

    def _apply_place(self, p: int, move: int) -> None:
        """4.4: pay any bribe, move the dice, occupy the field, move the carriage, effects."""
        pl = self.players[p]
        f = (move >> 4) & 0x1F
        c1, c2, white = (move >> 9) & 7, (move >> 12) & 7, bool((move >> 15) & 1)
        ndice = (c1 > 0) + (c2 > 0) + int(white)
        for c in (c1, c2):
            if c > 0:
                pl.hand[c] -= 1
        if white:
            self.white_placed = True
        if f == GEHEIMBUND:
            # 4.6.3, VI-A10, VI-A11: free, carriage unchanged, coins per die at once.
            g = self.ref.data.geheimbund
            pl.coins += g.coins_per_die * ndice + g.coins
            pl.vp += g.vp
            self._end_turn(p)
            return
        pl.coins -= self._bribe(p, f)
        self.occupant[f] = p
        if self.ref.options.carriage == "furthest":   # VI-A8 switch
            pl.carriage = max(pl.carriage, f)
        else:
            pl.carriage = f
        street_field = self.ref.street[f]
        self.pending_field = f
        if street_field.kind == "krieau":
            self._krieau_gendarme(p)
        elif street_field.kind == "prater":
            # 4.6.2: printed rewards, then optionally turn one unplaced die (VI-A19).
            pl.vp += street_field.vp
            pl.coins += street_field.coins
            if self._has_unplaced_die(p):
                self.node = N_PRATER
            else:
                self._end_turn(p)
        else:
            self._end_turn(p)

    # ------------------------------------------------------------------ immediate fields (4.6)

    def _gendarme_fields(self) -> list[int]:
        """VI-A17: any empty street field (never Geheimbund)."""
        return [g for g in range(len(self.ref.street))
                if self.occupant[g] < 0 and self.gendarme != g]

    def _krieau_gendarme(self, p: int) -> None:
        """4.6.1 step 1, VI-A18: the gendarme must go on a free field (automatic with one)."""
        fields = self._gendarme_fields()
        if len(fields) > 1:
            self.node, self.actor = N_GENDARME, p
            return
        if len(fields) == 1:
            self.gendarme = fields[0]
        self._krieau_reward(p)

    def _krieau_reward(self, p: int) -> None:
        """4.6.1 step 2: +VP or +coins (``choose_one``), else both."""
        f = self.ref.street[self.pending_field]
        if f.choose_one:
            self.node, self.actor = N_KRIEAU, p
            return
        self.players[p].vp += f.vp
        self.players[p].coins += f.coins
        self._end_turn(p)

    def _prater_moves(self, p: int) -> list[int]:
        dice = [(f, False) for f in FACES if self.players[p].hand[f] > 0]
        if self._white_unplaced(p):
            dice.append((self.white_face, True))
        moves = [prater_move()]                                  # skip
        for face, white in dice:
            moves += [prater_move(face, white, t) for t in FACES if t != face]
        return moves

    def _apply_prater(self, p: int, move: int) -> None:
        if move == prater_move():
            return
        face, white, to_face = (move >> 4) & 7, bool((move >> 7) & 1), (move >> 8) & 7
        if white:
            self.white_face = to_face
        else:
            self.players[p].hand[face] -= 1
            self.players[p].hand[to_face] += 1

    # ------------------------------------------------------------------ evaluation (4.9, 4.10)

    def _evaluate_from(self, start: int) -> None:
        """Resolve street fields in order from ``start``; stop at a pending decision."""
        for i in range(start, len(self.ref.street)):
            o = self.occupant[i]
            if o < 0 or self.ref.street[i].immediate:
                continue                  # empty, gendarme, or a lightning field (4.9)
            if self._resolve_field(i, o):
                return
        self._end_round()

    def _resolve_field(self, i: int, o: int) -> bool:
        """Carry out field i for its occupant o; True if a decision is now pending."""
        f = self.ref.street[i]
        pl = self.players[o]
        self.pending_field = i
        if f.kind == "gain":
            # 4.10.1, VI-A23: a field that costs coins gives nothing when they are missing.
            if f.pay > 0:
                if pl.coins < f.pay:
                    return False
                pl.coins -= f.pay
            pl.vp += f.vp
            pl.coins += f.coins
        elif f.kind == "special":
            self.special_owner[f.card] = o            # 4.10.3, VI-A37
        elif f.kind == "person":
            # 4.10.2, VI-A20: nothing with an empty display or too few coins.
            if not self.display or pl.coins < f.cost:
                return False
            moves = self._person_moves()
            if len(moves) == 1:
                self._take_person(o, i, self.display[0])
                return False
            self.node, self.actor = N_PERSON, o
            return True
        elif f.kind == "compare":
            self._compare(o, f.symbol)                # 4.10.5
        elif f.kind == "gloriette":
            # 4.10.6, VI-A27: nothing without an eligible symbol or the coin.
            symbols = self._gloriette_symbols(o)
            if not symbols or pl.coins < f.pay:
                return False
            if len(symbols) == 1:
                self._gloriette(o, i, symbols[0])
                return False
            self.node, self.actor = N_GLORIETTE, o
            return True
        elif f.kind == "tiergarten":
            takes = self._tiergarten_takes(o)         # 4.10.7, VI-A29
            if len(takes) == 1:
                self._tiergarten(o, takes[0])
                return False
            self.node, self.actor = N_TIERGARTEN, o
            return True
        elif f.kind == "heuriger":
            pl.vp += f.vp_per_special * self._specials_owned(o)   # 4.10.8, VI-A30
        return False

    def _person_moves(self) -> list[int]:
        moves = [person_move(t) for t in self.display]
        if self.ref.options.person_optional:
            moves.append(PERSON_DECLINE)
        return moves

    def _take_person(self, o: int, i: int, t: int) -> None:
        """Pay the field's cost and add person t from the display to o's collection."""
        pl = self.players[o]
        pl.coins -= self.ref.street[i].cost
        pl.persons[t] += 1
        for s in range(SYMBOL_COUNT):
            pl.symbols[s] += self.ref.data.persons[t].symbols[s]
        self.display.remove(t)

    def _compare(self, o: int, s: int) -> None:
        """4.10.5: o against left(o), then right(o); ties include 0 = 0 (VI-A26)."""
        d = self.ref.data
        pl = self.players[o]
        mine = self._sym(o, s)
        for q in (self._left(o), self._right(o)):
            theirs = self._sym(q, s)
            if mine > theirs:
                pl.vp += d.majority_vp
                pl.coins += d.majority_coins
            elif mine == theirs:
                pl.vp += d.tie_vp
                pl.coins += d.tie_coins
        pl.evaluated[s] = True

    def _gloriette_symbols(self, o: int) -> list[int]:
        return [s for s in range(SYMBOL_COUNT) if not self.players[o].evaluated[s]]

    def _gloriette(self, o: int, i: int, s: int) -> None:
        self.players[o].coins -= self.ref.street[i].pay
        self._compare(o, s)

    def _tiergarten_takes(self, o: int) -> list[tuple[int, ...]]:
        """Distinct vectors of coins taken: nothing, one player, or two different players."""
        f = self.ref.street[self.pending_field]
        n = self.ref.players
        coins = [pl.coins for pl in self.players]
        others = [q for q in range(n) if q != o]
        takes = [[0] * n]
        for q in others:
            v = [0] * n
            v[q] = min(f.steal_one, coins[q])
            takes.append(v)
        for q, r in itertools.combinations(others, 2):
            v = [0] * n
            v[q] = min(f.steal_two, coins[q])
            v[r] = min(f.steal_two, coins[r])
            takes.append(v)
        return sorted(set(tuple(v) for v in takes))

    def _tiergarten(self, o: int, taken: list[int] | tuple[int, ...]) -> None:
        for q, amount in enumerate(taken):
            self.players[q].coins -= amount
            self.players[o].coins += amount

    # ------------------------------------------------------------------ cleanup and end (4.11, 7.3)

    def _end_round(self) -> None:
        if (any(pl.vp >= END_TRIGGER_VP for pl in self.players)
                or self.round >= self.ref.options.max_rounds):
            self._final_scoring()
            return
        # 4.11 step 6: leftover display cards to the discard pile, then a fresh display.
        for t in self.display:
            self.discard[t] += 1
        self.display = []
        self._refill_display()

    def _final_scoring(self) -> None:
        n = self.ref.players
        # 7.3 step 2, VI-A31: +1 VP per symbol with strictly more than both neighbours,
        # all players on the same counts.
        counts = [[self._sym(p, s) for s in range(SYMBOL_COUNT)] for p in range(n)]
        bonus = [0] * n
        for p in range(n):
            left, right = self._left(p), self._right(p)
            for s in range(SYMBOL_COUNT):
                if counts[p][s] > counts[left][s] and counts[p][s] > counts[right][s]:
                    bonus[p] += FINAL_MAJORITY_VP
        for p, pl in enumerate(self.players):
            pl.vp += bonus[p]
            # 7.3 step 3, VI-A32: convert coins automatically.
            pl.vp += pl.coins // COINS_PER_VP
            pl.coins %= COINS_PER_VP
        # 7.3 step 4, VI-A33: most VP; then most special cards; then most coins left; else shared.
        keys = [(pl.vp, self._specials_owned(p), pl.coins) for p, pl in enumerate(self.players)]
        best = max(keys)
        self.winners = [p for p in range(n) if keys[p] == best]
        self.node, self.actor = N_OVER, -1


def random_playout(ref: ViennaReference, rng: random.Random) -> tuple[list[float], int]:
    """One game from ref.initial_state() played uniformly at random: (final scores, decisions taken)."""
    return playout(ref.initial_state(), rng)
