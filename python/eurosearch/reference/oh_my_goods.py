"""Plain pure-Python reference implementation of Oh My Goods!

Rules: ``shared/rules/oh_my_goods.md`` (the spec; section numbers, OMG-A ids and T examples in
the comments refer to it). Engine mapping (decision and chance nodes, move ids, sequencing of
setup, phases, commitments and reveals, payments, knowledge): the contract
``docs/oh_my_goods_engine.md`` ("contract" below). This module is written to be read against
those two documents; it favours clarity over speed. A differential test plays it step by step
against the C core, so every node, every move id and every probability follows the contract.

Every observable step of the game is a node:

* a **decision node** (``current_player() >= 0``): ``legal_moves()`` lists the move ids, always
  at least two (contract "Forced decisions": a decision with one legal move is applied
  automatically and never presented);
* a **chance node** (``current_player() == -1``): ``chance_outcomes()`` lists (id, probability);
* the **terminal** state (``current_player() == -2``).

How the game is driven: the state holds a stack of small immutable *tasks* (tuples). The top
task is either a node (a decision or a chance event waiting for its move or outcome) or a
deterministic step (a reveal, a reshuffle, the clean-up, ...) that ``_advance`` runs at once.
A task that expands into a sequence pushes the sequence (first step on top). ``apply`` hands
one move or outcome to the top task and then advances to the next node.

Interpretations of the contract that another reader could make differently are marked
"CONTRACT NOTE" in comments.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from eurosearch.games.oh_my_goods import OmgOptions
from eurosearch.games.oh_my_goods_data import Building, OmgData
from .base import check_players, move_id, random_playout as playout

# --- Rule constants (spec sections in brackets; not data) -------------------------------------
HAND_AT_SETUP = 5          # spec 3.1 step 4
COAL_AT_SETUP = 7          # spec 3.1 step 5
ASSISTANTS_PER_PLAYER = 2  # spec 3.1 step 3: 2n assistants are displayed
DEAL = 2                   # spec 4.1 step 3
DEAL_EXTRA_CARD = 3        # spec 4.1 step 3 / OMG-A12: "not two but three"
EXTRA_CARD_MAX_HAND = 3    # spec 2.5: the extra-card office needs a hand of at most 3 cards
SUNS_PER_ROW = 2           # spec 4.2.1 / 4.3: a row closes at its 2nd half sun
MOVE_COST = 2              # spec 4.2.2a: moving an assistant costs 2 gold
EXACT_GOODS = 2            # spec 4.2.2b
SHORT_GOODS = 1            # spec 4.2.2b
ASSISTANT_GOODS = 1        # spec 4.4.2
MAX_ASSISTANTS = 2         # spec 4.4.7
END_BUILDINGS = 8          # spec 4.6: the 8th building (Charburner included) triggers the end
GOLD_PER_VP = 5            # spec 8

# --- Move ids (contract "Move ids"): bits 0-4 type, the rest parameters ------------------------
REDRAW, HALVE, MOVE, WORKER, SET_ASIDE, PAY, PRODUCE, SUPPLY, CHAIN = range(1, 10)
END_PRODUCTION, BUILD, HIRE, PASS, END_CHAINS = range(10, 15)
DRAW, CHARBURNER, DISPLAY, SIDE, START, TAKE = range(16, 22)
TYPE_MASK = 0x1F

NO_CARD = 127              # REDRAW(127) done / keep, SET_ASIDE(127) none, CHAIN input none
REDRAW_ALL = 126           # all_or_nothing: discard the whole hand
STAY = 15                  # MOVE(a, 15): the assistant stays where it is
GOOD_FROM_SLOT = 100       # CHAIN input 100 + s: a good from slot s

MOVE_NAMES = {
    REDRAW: "REDRAW", HALVE: "HALVE", MOVE: "MOVE", WORKER: "WORKER", SET_ASIDE: "SET_ASIDE",
    PAY: "PAY", PRODUCE: "PRODUCE", SUPPLY: "SUPPLY", CHAIN: "CHAIN",
    END_PRODUCTION: "END_PRODUCTION", BUILD: "BUILD", HIRE: "HIRE", PASS: "PASS",
    END_CHAINS: "END_CHAINS", DRAW: "DRAW", CHARBURNER: "CHARBURNER", DISPLAY: "DISPLAY",
    SIDE: "SIDE", START: "START", TAKE: "TAKE",
}


def move_type(move: int) -> int:
    return move & TYPE_MASK


def redraw_move(card: int) -> int:
    return REDRAW | (card << 5)


def halve_move(card: int) -> int:
    return HALVE | (card << 5)


def assistant_move(assistant: int, slot: int) -> int:
    """MOVE(a, s); ``slot == STAY`` leaves the assistant where it is."""
    return MOVE | (assistant << 5) | (slot << 8)


def worker_move(slot: int, exact: bool) -> int:
    return WORKER | (slot << 5) | (int(exact) << 9)


def set_aside_move(card: int) -> int:
    return SET_ASIDE | (card << 5)


def pay_move(k: int) -> int:
    return PAY | (k << 5)


def produce_move(slot: int, omit: int = 0) -> int:
    return PRODUCE | (slot << 5) | (omit << 9)


def supply_move(card: int) -> int:
    return SUPPLY | (card << 5)


def chain_move(slot: int, in0: int, in1: int = NO_CARD) -> int:
    """CHAIN(s, in0, in1): an input is a hand card id, GOOD_FROM_SLOT + slot, or NO_CARD."""
    return CHAIN | (slot << 5) | (in0 << 9) | (in1 << 16)


END_PRODUCTION_MOVE = END_PRODUCTION
BUILD_MOVE = BUILD
PASS_MOVE = PASS
END_CHAINS_MOVE = END_CHAINS


def hire_move(assistant: int, slot: int) -> int:
    return HIRE | (assistant << 5) | (slot << 8)


def draw_move(card: int) -> int:
    return DRAW | (card << 5)


def charburner_move(charburner: int) -> int:
    return CHARBURNER | (charburner << 5)


def display_move(assistant: int) -> int:
    return DISPLAY | (assistant << 5)


def side_move(side: int) -> int:
    return SIDE | (side << 5)


def start_move(seat: int) -> int:
    return START | (seat << 5)


def take_move(card: int) -> int:
    return TAKE | (card << 5)


def describe(move: int) -> str:
    """A readable form of a move id (for messages and debugging)."""
    t = move_type(move)
    name = MOVE_NAMES.get(t, f"?{t}")
    if t in (REDRAW, HALVE, SET_ASIDE, SUPPLY, DRAW, TAKE):
        return f"{name}({(move >> 5) & 0x7F})"
    if t in (MOVE, HIRE):
        return f"{name}(a={(move >> 5) & 7}, s={(move >> 8) & 0xF})"
    if t == WORKER:
        return f"{name}(s={(move >> 5) & 0xF}, {'exact' if (move >> 9) & 1 else 'short'})"
    if t == PAY:
        return f"{name}({(move >> 5) & 0x1F})"
    if t == PRODUCE:
        return f"{name}(s={(move >> 5) & 0xF}, omit={(move >> 9) & 7})"
    if t == CHAIN:
        return f"{name}(s={(move >> 5) & 0xF}, {(move >> 9) & 0x7F}, {(move >> 16) & 0x7F})"
    if t in (CHARBURNER, START):
        return f"{name}({(move >> 5) & 3})"
    if t == DISPLAY:
        return f"{name}({(move >> 5) & 7})"
    if t == SIDE:
        return f"{name}({(move >> 5) & 1})"
    return name


# --- Task kinds ---------------------------------------------------------------------------------
#: Tasks that are chance nodes when they are on top (after their run step, if any).
CHANCE_TASKS = frozenset({"charburner", "display", "side", "start", "batch", "take"})
#: Tasks that are decision nodes when they are on top (after their run step, if any).
DECISION_TASKS = frozenset({"redraw", "halve", "move", "pay", "worker", "aside", "production",
                            "supply", "build_or_hire", "final_chains"})
#: Decisions that are hidden commitments (contract "Knowledge": pending commitments of other
#: players are not shown). A "pay" task is hidden when it pays an assistant move (phase II).
HIDDEN_TASKS = frozenset({"redraw", "halve", "move", "worker", "aside"})

# Assistant owner codes.
OUT_OF_GAME = -2
ON_DISPLAY = -1

# Card places (observation and conservation).
P_DRAW, P_DISCARD, P_MARKET, P_HAND, P_ASIDE, P_BUILT, P_GOOD = (
    "draw", "discard", "market", "hand", "aside", "built", "good")

_NO_MIN = 1 << 30          # "no good paid yet" in the payment search


@lru_cache(maxsize=65536)
def _completable(values: tuple[int, ...], avail: tuple[int, ...], cost: int, j: int,
                 total: int, min_paid: int) -> bool:
    """Can slots j.. complete a payment with running ``total`` into a **minimal** one?

    Minimal (OMG-A32, contract "Payments"): total >= cost and no single paid good could be left
    out, i.e. total - (smallest value among the paid goods) < cost.
    """
    if total >= cost:
        # Paying anything more would leave out-able goods: later slots must pay 0.
        return total - min_paid < cost
    if j == len(values):
        return False
    v = values[j]
    for k in range(avail[j] + 1):
        if k > 0 and total + (k - 1) * v >= cost:
            break           # one of these k goods could be left out
        if _completable(values, avail, cost, j + 1, total + k * v,
                        min(min_paid, v) if k else min_paid):
            return True
    return False


class OmgReference:
    """The game definition: data, player count and options."""

    def __init__(self, data: OmgData, players: int, options: OmgOptions | None = None):
        check_players("Oh My Goods!", players, 2, 4)
        self.data = data
        self.players = players
        self.options = options if options is not None else OmgOptions()
        o = self.options
        if o.start_player is not None and not 0 <= o.start_player < players:
            raise ValueError(f"start_player must be None or a seat 0..{players - 1}")
        if o.final_round not in ("chains_only", "full_round"):
            raise ValueError(f"final_round must be 'chains_only' or 'full_round', got {o.final_round!r}")
        if o.phase1_redraw not in ("any", "all_or_nothing"):
            raise ValueError(f"phase1_redraw must be 'any' or 'all_or_nothing', got {o.phase1_redraw!r}")
        self.all_seen = (1 << players) - 1
        self.deck_size = len(data.cards)
        self.assistant_count = len(data.assistants)
        self.card_resource = tuple(c.resource for c in data.cards)
        self.card_sun = tuple(c.sun for c in data.cards)

    def initial_state(self) -> "OmgRefState":
        """The state before any setup chance event (the first node is a CHARBURNER chance)."""
        state = OmgRefState(self)
        state._advance()
        return state


class OmgRefState:
    """A game position. Mutated in place by ``apply``; ``clone`` for a copy."""

    def __init__(self, ref: OmgReference):
        self.ref = ref
        n = ref.players
        o = ref.options
        # Card places. Every deck card is in exactly one of these containers.
        self.draw: list[int] = list(range(ref.deck_size))    # a set; its order is irrelevant
        self.discard: set[int] = set()
        self.market: list[list[int]] = [[], []]               # Sunrise row, Sunset row
        self.hand: list[set[int]] = [set() for _ in range(n)]
        self.aside: list[int] = [-1] * n                      # revealed set-aside card, -1 none
        self.built: list[list[int]] = [[] for _ in range(n)]  # slot s >= 1 holds built[p][s-1]
        self.goods: list[list[list[int]]] = [[[]] for _ in range(n)]  # goods[p][slot]: card ids
        # Knowledge (contract "Knowledge"): bit p set when p knows the card is exactly there.
        # At the start every card is known to be in the draw pile.
        self.seen: list[int] = [ref.all_seen] * ref.deck_size
        # Public tableau state.
        self.charburner: list[int] = [-1] * n
        self.assistant_owner: list[int] = [OUT_OF_GAME] * ref.assistant_count
        self.assistant_side: list[int] = [0] * ref.assistant_count
        self.assistant_slot: list[int] = [-1] * ref.assistant_count
        self.worker_slot: list[int] = [-1] * n
        self.worker_exact: list[bool] = [False] * n
        self.produced: list[set[int]] = [set() for _ in range(n)]
        self.start = -1 if o.start_player is None else o.start_player
        self.round = 0                 # rounds begun (the final chains round is not counted)
        self.rounds_done = 0
        self.end_triggered = False
        self.final_round = False       # in the special final round (either kind)
        self.over = False
        # Pending (hidden) commitments, applied at their reveal (spec 7).
        self.redraw_pending: list[list[int]] = [[] for _ in range(n)]
        self.halve_pending: list[list[int]] = [[] for _ in range(n)]
        self.pending_moves: list[dict[int, int]] = [{} for _ in range(n)]   # assistant -> slot
        self.reserved: list[dict[int, int]] = [{} for _ in range(n)]        # slot -> goods
        self.pending_worker: list[tuple[int, bool] | None] = [None] * n
        self.pending_aside: list[int] = [-1] * n
        # Control.
        self.tasks: list[tuple] = []
        self._moves: list[int] | None = None
        self._move_set: set[int] | None = None
        self._outcomes: list[tuple[int, float]] | None = None

        # Setup (contract "Setup"), all chance, pushed in order.
        setup: list[tuple] = [("charburner", seat) for seat in range(n)]
        displayed = ASSISTANTS_PER_PLAYER * n
        if displayed < ref.assistant_count:
            setup.append(("display", displayed))
        else:
            # n = 4: all eight assistants are displayed without a chance node.
            self.assistant_owner = [ON_DISPLAY] * ref.assistant_count
        # CONTRACT NOTE: "Unless n = 4: DISPLAY ... Then SIDE ..." is read with SIDE nodes for
        # every player count (spec 3.1 step 3 / OMG-A8: every displayed assistant gets a random
        # side, also when all eight are displayed).
        setup.append(("sides",))
        if self.start < 0:
            setup.append(("start",))
        setup += [("deal",), ("round",)]
        self._push(setup)

    # ================================================================== public interface

    def current_player(self) -> int:
        if self.over:
            return -2
        kind = self.tasks[-1][0]
        if kind in CHANCE_TASKS:
            return -1
        return self.tasks[-1][1]

    def is_chance(self) -> bool:
        return not self.over and self.tasks[-1][0] in CHANCE_TASKS

    def is_terminal(self) -> bool:
        return self.over

    def stage(self) -> str:
        """The kind of the current node ("batch" = a DRAW, "production", ...; "over")."""
        return "over" if self.over else self.tasks[-1][0]

    def legal_moves(self) -> list[int]:
        if self.over or self.tasks[-1][0] not in DECISION_TASKS:
            return []
        if self._moves is None:
            self._moves = sorted(self._generate_moves(self.tasks[-1]))
            self._move_set = set(self._moves)
        return list(self._moves)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance():
            return []
        if self._outcomes is None:
            self._outcomes = self._generate_outcomes(self.tasks[-1])
        return list(self._outcomes)

    def sample_chance(self, rng: random.Random) -> int:
        """One chance outcome with the distribution of chance_outcomes(), drawn directly."""
        if not self.is_chance():
            raise ValueError("sample_chance: not a chance node")
        task = self.tasks[-1]
        kind = task[0]
        if kind == "charburner":
            free = [c for c in range(len(self.ref.data.charburners)) if c not in self.charburner]
            return charburner_move(free[rng.randrange(len(free))])
        if kind == "display":
            free = [a for a, o in enumerate(self.assistant_owner) if o == OUT_OF_GAME]
            return display_move(free[rng.randrange(len(free))])
        if kind == "side":
            return side_move(rng.randrange(2))
        if kind == "start":
            return start_move(rng.randrange(self.ref.players))
        if kind == "batch":
            return draw_move(self.draw[rng.randrange(len(self.draw))])
        _, p, slot, _, _ = task   # "take"
        pile = self.goods[p][slot]
        return take_move(pile[rng.randrange(len(pile))])

    def apply(self, move: int) -> None:
        """Apply a decision move or a chance outcome; ValueError (state unchanged) if not legal."""
        move = move_id(move)
        if self.over:
            raise ValueError("the game is over")
        if self.is_chance():
            if move not in {o for o, _ in self.chance_outcomes()}:
                raise ValueError(f"{describe(move)} is not a chance outcome here ({self.stage()})")
            self._clear_cache()
            self._resolve_chance(self.tasks[-1], move)
        else:
            self.legal_moves()
            assert self._move_set is not None
            if move not in self._move_set:
                raise ValueError(f"{describe(move)} is not a legal move here ({self.stage()})")
            self._clear_cache()
            self._apply_decision(self.tasks[-1], move)
        self._advance()

    def apply_sampled(self, outcome: int) -> None:
        """Apply an outcome from sample_chance() without listing the outcomes."""
        self._clear_cache()
        self._resolve_chance(self.tasks[-1], outcome)
        self._advance()

    def scores(self) -> list[float]:
        """VP per spec 8: buildings + assistants' face-up sides + floor(G / 5)."""
        return [float(self._vp(p)) for p in range(self.ref.players)]

    def returns(self) -> list[float]:
        """0 until the end; then 1/w for each of the w winners (OMG-A25)."""
        n = self.ref.players
        if not self.over:
            return [0.0] * n
        vp = [self._vp(p) for p in range(n)]
        best = max(vp)
        tied = [p for p in range(n) if vp[p] == best]
        # Tie-break 1 (spec 8): the larger leftover gold, G mod 5; then shared (OMG-A25).
        rest = {p: self._gold(p) % GOLD_PER_VP for p in tied}
        best_rest = max(rest.values())
        winners = [p for p in tied if rest[p] == best_rest]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]

    def clone(self) -> "OmgRefState":
        other = OmgRefState.__new__(OmgRefState)
        other.__dict__.update(self.__dict__)
        other.draw = list(self.draw)
        other.discard = set(self.discard)
        other.market = [list(row) for row in self.market]
        other.hand = [set(h) for h in self.hand]
        other.aside = list(self.aside)
        other.built = [list(b) for b in self.built]
        other.goods = [[list(g) for g in slots] for slots in self.goods]
        other.seen = list(self.seen)
        other.charburner = list(self.charburner)
        other.assistant_owner = list(self.assistant_owner)
        other.assistant_side = list(self.assistant_side)
        other.assistant_slot = list(self.assistant_slot)
        other.worker_slot = list(self.worker_slot)
        other.worker_exact = list(self.worker_exact)
        other.produced = [set(s) for s in self.produced]
        other.redraw_pending = [list(x) for x in self.redraw_pending]
        other.halve_pending = [list(x) for x in self.halve_pending]
        other.pending_moves = [dict(x) for x in self.pending_moves]
        other.reserved = [dict(x) for x in self.reserved]
        other.pending_worker = list(self.pending_worker)
        other.pending_aside = list(self.pending_aside)
        other.tasks = list(self.tasks)
        other._clear_cache()
        return other

    def observation_key(self, player: int) -> tuple:
        """Everything ``player`` may see (contract "Knowledge"), as a hashable tuple.

        Cards whose ``seen`` mask has the player's bit are listed with their place (and mask);
        the others only as counts per (place, mask). Other players' pending commitments are
        left out entirely; the player's own are included.
        """
        p = player
        visible = []
        hidden: Counter = Counter()
        for card, place in self.card_places().items():
            mask = self.seen[card]
            if mask >> p & 1:
                visible.append((card, place, mask))
            else:
                hidden[(place, mask)] += 1
        n = self.ref.players
        public = (
            self.start, self.round, self.rounds_done, self.end_triggered, self.final_round,
            self.over, tuple(self.charburner), tuple(tuple(b) for b in self.built),
            tuple(tuple(row) for row in self.market), tuple(self.assistant_owner),
            tuple(self.assistant_side), tuple(self.assistant_slot), tuple(self.worker_slot),
            tuple(self.worker_exact), tuple(tuple(sorted(s)) for s in self.produced),
            tuple(self.aside[q] >= 0 for q in range(n)),
        )
        own = (tuple(self.redraw_pending[p]), tuple(self.halve_pending[p]),
               tuple(sorted(self.pending_moves[p].items())),
               tuple(sorted(self.reserved[p].items())), self.pending_worker[p],
               self.pending_aside[p])
        return (public, tuple(sorted(visible)), tuple(sorted(hidden.items())), own,
                self._public_node(p))

    # ------------------------------------------------------------------ extra helpers

    def snapshot(self) -> tuple:
        """Every piece of game state as a hashable tuple (for tests and debugging)."""
        return (
            tuple(sorted(self.draw)), tuple(sorted(self.discard)),
            tuple(tuple(r) for r in self.market), tuple(tuple(sorted(h)) for h in self.hand),
            tuple(self.aside), tuple(tuple(b) for b in self.built),
            tuple(tuple(tuple(sorted(g)) for g in slots) for slots in self.goods),
            tuple(self.seen), tuple(self.charburner), tuple(self.assistant_owner),
            tuple(self.assistant_side), tuple(self.assistant_slot), tuple(self.worker_slot),
            tuple(self.worker_exact), tuple(tuple(sorted(s)) for s in self.produced),
            self.start, self.round, self.rounds_done, self.end_triggered, self.final_round,
            self.over, tuple(tuple(x) for x in self.redraw_pending),
            tuple(tuple(x) for x in self.halve_pending),
            tuple(tuple(sorted(x.items())) for x in self.pending_moves),
            tuple(tuple(sorted(x.items())) for x in self.reserved), tuple(self.pending_worker),
            tuple(self.pending_aside), tuple(self.tasks),
        )

    def card_places(self) -> dict[int, tuple]:
        """card id -> its place; raises AssertionError if a card is in two places or none."""
        places: dict[int, tuple] = {}

        def put(card: int, place: tuple) -> None:
            assert card not in places, f"card {card} in {places[card]} and {place}"
            places[card] = place

        for c in self.draw:
            put(c, (P_DRAW,))
        for c in self.discard:
            put(c, (P_DISCARD,))
        for row, cards in enumerate(self.market):
            for c in cards:
                put(c, (P_MARKET, row))
        for p in range(self.ref.players):
            for c in self.hand[p]:
                put(c, (P_HAND, p))
            if self.aside[p] >= 0:
                put(self.aside[p], (P_ASIDE, p))
            for i, c in enumerate(self.built[p]):
                put(c, (P_BUILT, p, i + 1))
            for s, pile in enumerate(self.goods[p]):
                for c in pile:
                    put(c, (P_GOOD, p, s))
        assert len(places) == self.ref.deck_size, "a card is missing"
        return places

    def gold(self, player: int) -> int:
        return self._gold(player)

    def slot_count(self, player: int) -> int:
        return 1 + len(self.built[player])

    def building(self, player: int, slot: int) -> Building:
        """The building in a player's slot (slot 0 is the Charburner)."""
        if slot == 0:
            return self.ref.data.charburners[self.charburner[player]]
        return self.ref.data.cards[self.built[player][slot - 1]]

    def __repr__(self) -> str:
        return (f"OmgRefState(round={self.round}, stage={self.stage()}, "
                f"player={self.current_player()}, scores={self.scores()})")

    # ================================================================== small helpers

    def _clear_cache(self) -> None:
        self._moves = None
        self._move_set = None
        self._outcomes = None

    def _push(self, sequence: list[tuple]) -> None:
        """Push tasks so that sequence[0] runs first."""
        self.tasks.extend(reversed(sequence))

    def _replace(self, task: tuple) -> None:
        self.tasks[-1] = task

    def _order(self) -> list[int]:
        """Turn order: from the start player clockwise (contract "Seats")."""
        n = self.ref.players
        return [(self.start + i) % n for i in range(n)]

    def _value(self, player: int, slot: int) -> int:
        """Gold value of one good on a slot (0 for a Market Office, which holds none)."""
        b = self.building(player, slot)
        return self.ref.data.good_values[b.output] if b.output >= 0 else 0

    def _producing(self, player: int, slot: int) -> bool:
        """Any slot but a Market Office (spec 4.0); the Charburner is producing."""
        return slot == 0 or self.ref.data.cards[self.built[player][slot - 1]].producing

    def _gold(self, player: int) -> int:
        """G: total value of the goods on the player's slots (spec 4.0)."""
        return sum(len(pile) * self._value(player, s)
                   for s, pile in enumerate(self.goods[player]) if pile)

    def _vp(self, player: int) -> int:
        d = self.ref.data
        vp = 0
        # CONTRACT NOTE: "VP of built cards"; the Charburner's VP (0 in the data) is included, as
        # spec 8 scores "built buildings" and spec 4.0 counts the Charburner as a building.
        if self.charburner[player] >= 0:
            vp += d.charburners[self.charburner[player]].vp
        vp += sum(d.cards[c].vp for c in self.built[player])
        vp += sum(d.assistants[a].sides[self.assistant_side[a]].vp
                  for a in self._assistants_of(player))
        return vp + self._gold(player) // GOLD_PER_VP

    def _assistants_of(self, player: int) -> list[int]:
        return [a for a, owner in enumerate(self.assistant_owner) if owner == player]

    def _assistant_at(self, player: int, pending: bool) -> dict[int, int]:
        """slot -> assistant for the player's assistants (with pending phase II moves)."""
        at = {}
        for a in self._assistants_of(player):
            slot = self.pending_moves[player].get(a, self.assistant_slot[a]) if pending \
                else self.assistant_slot[a]
            at[slot] = a
        return at

    def _available_gold(self, player: int) -> int:
        """Gold in goods not reserved by pending commitments (contract "Payments")."""
        res = self.reserved[player]
        return sum((len(pile) - res.get(s, 0)) * self._value(player, s)
                   for s, pile in enumerate(self.goods[player]))

    def _move_to_discard(self, card: int) -> None:
        self.discard.add(card)
        self.seen[card] = self.ref.all_seen          # the discard pile is public (OMG-A7)

    # ================================================================== driving the game

    def _advance(self) -> None:
        """Run deterministic tasks and forced decisions until the next node."""
        while True:
            if not self.tasks:
                self.over = True
                return
            task = self.tasks[-1]
            kind = task[0]
            run = getattr(self, "_run_" + kind, None)
            if run is not None and not run(task):
                continue                 # deterministic work done; look at the new top
            if kind in CHANCE_TASKS:
                return
            moves = self._generate_moves(task)
            if len(moves) >= 2:
                self._moves = sorted(moves)
                self._move_set = set(self._moves)
                return
            # Contract "Forced decisions": one legal move is applied by the engine itself.
            assert len(moves) == 1, f"decision {task} without a legal move"
            self._apply_decision(task, moves[0])

    def _generate_moves(self, task: tuple) -> list[int]:
        return getattr(self, "_moves_" + task[0])(task)

    def _apply_decision(self, task: tuple, move: int) -> None:
        getattr(self, "_do_" + task[0])(task, move)

    def _generate_outcomes(self, task: tuple) -> list[tuple[int, float]]:
        kind = task[0]
        if kind == "charburner":
            free = [c for c in range(len(self.ref.data.charburners)) if c not in self.charburner]
            return [(charburner_move(c), float(1) / float(len(free))) for c in free]
        if kind == "display":
            free = [a for a, o in enumerate(self.assistant_owner) if o == OUT_OF_GAME]
            return [(display_move(a), float(1) / float(len(free))) for a in free]
        if kind == "side":
            return [(side_move(0), float(1) / float(2)), (side_move(1), float(1) / float(2))]
        if kind == "start":
            n = self.ref.players
            return [(start_move(p), float(1) / float(n)) for p in range(n)]
        if kind == "batch":
            size = len(self.draw)
            return [(draw_move(c), float(1) / float(size)) for c in sorted(self.draw)]
        _, p, slot, _, _ = task   # "take"
        pile = self.goods[p][slot]
        return [(take_move(c), float(1) / float(len(pile))) for c in sorted(pile)]

    def _resolve_chance(self, task: tuple, outcome: int) -> None:
        kind = task[0]
        value = outcome >> 5
        if kind == "charburner":
            self.charburner[task[1]] = value
            self.tasks.pop()
        elif kind == "display":
            self.assistant_owner[value] = ON_DISPLAY
            left = task[1] - 1
            if left:
                self._replace(("display", left))
            else:
                self.tasks.pop()
        elif kind == "side":
            self.assistant_side[task[1]] = value
            self.tasks.pop()
        elif kind == "start":
            self.start = value
            self.tasks.pop()
        elif kind == "batch":
            self._resolve_draw(task, value)
        else:
            self._resolve_take(task, value)

    # ================================================================== setup

    def _run_sides(self, task: tuple) -> bool:
        """SIDE(s) for each displayed assistant in increasing id order (contract "Setup" 2)."""
        self.tasks.pop()
        self._push([("side", a) for a, o in enumerate(self.assistant_owner) if o == ON_DISPLAY])
        return False

    def _run_deal(self, task: tuple) -> bool:
        """5 hand cards per seat in turn order, then 7 goods per seat (contract "Setup" 4)."""
        self.tasks.pop()
        order = self._order()
        self._push([("batch", P_HAND, p, 0, HAND_AT_SETUP) for p in order]
                   + [("batch", P_GOOD, p, 0, COAL_AT_SETUP) for p in order])
        return False

    # ================================================================== draws (spec 4.8)

    def _run_batch(self, task: tuple) -> bool:
        """A batch of draws: a hand deal, a production's goods, or a market row.

        task = ("batch", place, player, slot or market row, remaining); for a market row
        ``remaining`` counts the half suns still needed, otherwise the cards still owed.
        """
        if task[4] == 0:
            self.tasks.pop()
            return False
        if self.draw:
            return True                                      # a DRAW chance node
        if self.discard:
            # OMG-A4: lazily, the discard pile becomes the draw pile; all know it is there.
            for c in self.discard:
                self.seen[c] = self.ref.all_seen
            self.draw = sorted(self.discard)
            self.discard = set()
            return False
        # OMG-A5 exhaustion: each player in turn order with >= 2 cards discards floor(h/2).
        halves = [("halve", p, len(self.hand[p]) // 2) for p in self._order()
                  if len(self.hand[p]) >= 2]
        self._push(halves + [("collect",)])
        return False

    def _resolve_draw(self, task: tuple, card: int) -> None:
        _, place, p, slot, remaining = task
        self.draw.remove(card)
        if place == P_HAND:
            self.hand[p].add(card)
            self.seen[card] = 1 << p
            # Contract "Knowledge": the pile keeps only the bits of those who saw the draw.
            for c in self.draw:
                self.seen[c] &= 1 << p
            remaining -= 1
        elif place == P_GOOD:
            self.goods[p][slot].append(card)
            self.seen[card] = 0                              # OMG-A16: nobody looks
            for c in self.draw:
                self.seen[c] = 0
            remaining -= 1
        else:
            self.market[slot].append(card)                   # face up: public
            self.seen[card] = self.ref.all_seen
            if self.ref.card_sun[card]:
                remaining -= 1                               # spec 4.2.1: stop at the 2nd sun
        self._replace(("batch", place, p, slot, remaining))

    def _moves_halve(self, task: tuple) -> list[int]:
        """HALVE(card) in increasing id order, exactly ``remaining`` more cards.

        CONTRACT NOTE: the contract asks for floor(h/2) cards "in increasing id order"; a card is
        offered only if enough higher-id cards remain to finish the count (else the player would
        be stuck with no legal move).
        """
        _, p, remaining = task
        chosen = self.halve_pending[p]
        last = chosen[-1] if chosen else -1
        cards = sorted(self.hand[p])
        return [halve_move(c) for i, c in enumerate(cards)
                if c > last and len(cards) - 1 - i >= remaining - 1]

    def _do_halve(self, task: tuple, move: int) -> None:
        _, p, remaining = task
        self.halve_pending[p].append(move >> 5)
        if remaining > 1:
            self._replace(("halve", p, remaining - 1))
        else:
            self.tasks.pop()

    def _run_collect(self, task: tuple) -> bool:
        """The exhaustion cards form the new draw pile, each known only to its discarder."""
        self.tasks.pop()
        collected = 0
        for p in range(self.ref.players):
            for c in self.halve_pending[p]:
                self.hand[p].remove(c)
                self.draw.append(c)
                self.seen[c] = 1 << p
                collected += 1
            self.halve_pending[p] = []
        if collected == 0:
            # No card collected: the pending draw fails and ends its batch.
            assert self.tasks[-1][0] == "batch"
            self.tasks.pop()
        return False

    # ================================================================== a round

    def _run_round(self, task: tuple) -> bool:
        """Phases I-IV and the clean-up (spec 4)."""
        self.tasks.pop()
        self.round += 1
        order = self._order()
        self._push(
            [("phase1",)]
            + [("batch", P_MARKET, -1, 0, SUNS_PER_ROW)]              # phase II: Sunrise
            + [("planning", p) for p in order] + [("planning_reveal",)]
            + [("batch", P_MARKET, -1, 1, SUNS_PER_ROW)]              # phase III: Sunset
            + [step for p in order for step in (("production", p), ("build_or_hire", p))]
            + [("cleanup",)]
        )
        return False

    # ------------------------------------------------------------------ phase I

    def _run_phase1(self, task: tuple) -> bool:
        """Extra-card flags, then redraw commitments in turn order (contract "Phase I")."""
        self.tasks.pop()
        d = self.ref.data
        deal = []
        for p in range(self.ref.players):
            offices = sum(1 for c in self.built[p] if d.cards[c].office == 0)
            # Spec 4.1 step 1 / OMG-A12: checked on the hand at the start of phase I.
            if offices and len(self.hand[p]) <= EXTRA_CARD_MAX_HAND:
                deal.append(DEAL + offices if self.ref.options.office_extra_card_stacks
                            else DEAL_EXTRA_CARD)
            else:
                deal.append(DEAL)
        self._push([("redraw", p) for p in self._order() if self.hand[p]]
                   + [("redraw_reveal", tuple(deal))])
        return False

    def _moves_redraw(self, task: tuple) -> list[int]:
        p = task[1]
        if self.ref.options.phase1_redraw == "all_or_nothing":
            return [redraw_move(REDRAW_ALL), redraw_move(NO_CARD)]
        chosen = self.redraw_pending[p]
        last = chosen[-1] if chosen else -1
        return [redraw_move(c) for c in self.hand[p] if c > last] + [redraw_move(NO_CARD)]

    def _do_redraw(self, task: tuple, move: int) -> None:
        p, card = task[1], move >> 5
        if card == NO_CARD:
            self.tasks.pop()
        elif card == REDRAW_ALL:
            self.redraw_pending[p] = sorted(self.hand[p])
            self.tasks.pop()
        else:
            self.redraw_pending[p].append(card)

    def _run_redraw_reveal(self, task: tuple) -> bool:
        """Chosen cards go face up to the discard pile; then each player's draws in turn order."""
        self.tasks.pop()
        deal = task[1]
        owed = [0] * self.ref.players
        for p in range(self.ref.players):
            for c in self.redraw_pending[p]:
                self.hand[p].remove(c)
                self._move_to_discard(c)
            owed[p] = len(self.redraw_pending[p]) + deal[p]
            self.redraw_pending[p] = []
        # One batch per player: replacements, then the deal (a failed draw skips the rest).
        self._push([("batch", P_HAND, p, 0, owed[p]) for p in self._order()])
        return False

    # ------------------------------------------------------------------ phase II planning

    def _run_planning(self, task: tuple) -> bool:
        """A player's hidden commitment: assistant moves, worker, set-aside (contract II.2)."""
        self.tasks.pop()
        p = task[1]
        self._push([("move", p, a) for a in self._assistants_of(p)]
                   + [("worker", p), ("aside", p)])
        return False

    def _moves_move(self, task: tuple) -> list[int]:
        _, p, a = task
        moves = [assistant_move(a, STAY)]
        if self._available_gold(p) >= MOVE_COST:
            occupied = self._assistant_at(p, pending=True)
            moves += [assistant_move(a, s) for s in range(self.slot_count(p))
                      if self._producing(p, s) and s not in occupied]
        return moves

    def _do_move(self, task: tuple, move: int) -> None:
        _, p, a = task
        slot = (move >> 8) & 0xF
        if slot == STAY:
            self.tasks.pop()
            return
        self.pending_moves[p][a] = slot
        self._replace(("pay", p, MOVE_COST, ("move", a, slot), ()))

    def _run_worker(self, task: tuple) -> bool:
        p = task[1]
        if self._free_worker_slots(p):
            return True
        # Spec OMG-A9: with every producing building occupied the worker is not placed.
        self.pending_worker[p] = None
        self.tasks.pop()
        return False

    def _free_worker_slots(self, p: int) -> list[int]:
        occupied = self._assistant_at(p, pending=True)
        return [s for s in range(self.slot_count(p)) if self._producing(p, s) and s not in occupied]

    def _moves_worker(self, task: tuple) -> list[int]:
        return [worker_move(s, exact) for s in self._free_worker_slots(task[1])
                for exact in (True, False)]

    def _do_worker(self, task: tuple, move: int) -> None:
        self.pending_worker[task[1]] = ((move >> 5) & 0xF, bool((move >> 9) & 1))
        self.tasks.pop()

    def _moves_aside(self, task: tuple) -> list[int]:
        return [set_aside_move(c) for c in self.hand[task[1]]] + [set_aside_move(NO_CARD)]

    def _do_aside(self, task: tuple, move: int) -> None:
        card = move >> 5
        self.pending_aside[task[1]] = -1 if card == NO_CARD else card
        self.tasks.pop()

    def _run_planning_reveal(self, task: tuple) -> bool:
        """Apply every phase II commitment at once (spec 7 step 4, contract II.3).

        CONTRACT NOTE: moves, workers and set-asides all take effect first; the TAKE nodes of
        the move payments follow (nothing at those nodes depends on the order).
        """
        self.tasks.pop()
        takes = []
        for p in self._order():
            for a, slot in self.pending_moves[p].items():
                self.assistant_slot[a] = slot
            if self.pending_worker[p] is not None:
                self.worker_slot[p], self.worker_exact[p] = self.pending_worker[p]
            if self.pending_aside[p] >= 0:
                # The card leaves the hand; its identity stays with its owner (OMG-A17).
                self.hand[p].remove(self.pending_aside[p])
                self.aside[p] = self.pending_aside[p]
            # CONTRACT NOTE: the payments of all of a player's assistant moves leave the slots
            # together, per slot in index order (one batch of TAKE nodes per slot, k = the sum
            # of the reserved goods), players in turn order.
            takes += [("take", p, s, k, -1) for s, k in sorted(self.reserved[p].items()) if k]
            self.pending_moves[p] = {}
            self.reserved[p] = {}
            self.pending_worker[p] = None
            self.pending_aside[p] = -1
        self._push(takes)
        return False

    # ------------------------------------------------------------------ payments

    def _pay_values(self, p: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        res = self.reserved[p]
        n_slots = self.slot_count(p)
        values = tuple(self._value(p, s) for s in range(n_slots))
        avail = tuple(len(self.goods[p][s]) - res.get(s, 0) for s in range(n_slots))
        return values, avail

    def _run_pay(self, task: tuple) -> bool:
        """task = ("pay", player, cost, purpose, paid per slot so far)."""
        _, p, cost, purpose, paid = task
        if len(paid) < self.slot_count(p):
            return True                                       # a PAY(k) decision
        self.tasks.pop()
        takes = [("take", p, s, k, -1) for s, k in enumerate(paid) if k]
        if purpose[0] == "move":
            # Phase II: reserve the goods; they leave at the reveal (OMG-A20).
            for s, k in enumerate(paid):
                if k:
                    self.reserved[p][s] = self.reserved[p].get(s, 0) + k
        elif purpose[0] == "build":
            # CONTRACT NOTE: the card becomes a slot after the paid goods have left.
            self._push(takes + [("build_done", p)])
        else:
            # CONTRACT NOTE: likewise the hired assistant (and its VP) arrives after the TAKEs.
            _, a, slot = purpose
            self._push(takes + [("hire_done", p, a, slot)])
        return False

    def _moves_pay(self, task: tuple) -> list[int]:
        """PAY(k) for every k that can still end in a minimal payment (contract "Payments")."""
        _, p, cost, _, paid = task
        values, avail = self._pay_values(p)
        j = len(paid)
        total = sum(k * values[s] for s, k in enumerate(paid))
        min_paid = min((values[s] for s, k in enumerate(paid) if k), default=_NO_MIN)
        v = values[j]
        return [pay_move(k) for k in range(avail[j] + 1)
                if _completable(values, avail, cost, j + 1, total + k * v,
                                min(min_paid, v) if k else min_paid)]

    def _do_pay(self, task: tuple, move: int) -> None:
        _, p, cost, purpose, paid = task
        self._replace(("pay", p, cost, purpose, paid + ((move >> 5) & 0x1F,)))

    def _run_take(self, task: tuple) -> bool:
        """k goods leave a slot: TAKE chance nodes unless all of them leave (OMG-A15).

        task = ("take", player, slot, k, destination slot or -1 for the discard pile).
        """
        _, p, slot, k, dest = task
        pile = self.goods[p][slot]
        if k == 0:
            self.tasks.pop()
            return False
        if k < len(pile):
            return True
        assert k == len(pile), task
        for card in list(pile):
            self._take_good(p, slot, card, dest)
        self.tasks.pop()
        return False

    def _resolve_take(self, task: tuple, card: int) -> None:
        _, p, slot, k, dest = task
        self._take_good(p, slot, card, dest)
        if k > 1:
            self._replace(("take", p, slot, k - 1, dest))
        else:
            self.tasks.pop()

    def _take_good(self, p: int, slot: int, card: int, dest: int) -> None:
        self.goods[p][slot].remove(card)
        if dest < 0:
            self._move_to_discard(card)                   # paid away: to the public discard
        else:
            self.goods[p][dest].append(card)              # moved by a chain: keeps its mask

    # ------------------------------------------------------------------ phase IV production

    def _activated(self, p: int) -> list[tuple[int, str]]:
        """(slot, person) for the worker's slot and every assistant's slot (spec 4.0)."""
        out = []
        if self.worker_slot[p] >= 0:
            out.append((self.worker_slot[p], "exact" if self.worker_exact[p] else "short"))
        out += [(self.assistant_slot[a], "assistant") for a in self._assistants_of(p)]
        return out

    def _production_options(self, p: int, slot: int, person: str) -> list[tuple[int, tuple, bool]]:
        """(omit, need, any-N?) for each PRODUCE(slot, omit) whose need the hand can cover.

        need[t] = hand cards of resource t still to discard (spec 4.4.1); for an "any N" input
        need[0] is the number of hand cards of any resource.
        """
        d = self.ref.data
        b = self.building(p, slot)
        offices = [d.cards[c].office for c in self.built[p] if d.cards[c].office > 0]
        if b.input_any:
            # Spec 4.4.1 / T18: |A| = market cards + own resource offices; short needs N - 1.
            required = b.input_any - (1 if person == "short" else 0)
            available = len(self.market[0]) + len(self.market[1]) + len(offices)
            need = max(0, required - available)
            return [(0, (need, 0, 0, 0, 0, 0), True)] if len(self.hand[p]) >= need else []
        available = [0] * 6
        for c in self.market[0] + self.market[1]:
            available[self.ref.card_resource[c]] += 1
        for r in offices:
            available[r] += 1                     # OMG-A11: for each of the owner's buildings
        need = [0] + [max(0, b.input[t] - available[t]) for t in range(1, 6)]
        in_hand = [0] * 6
        for c in self.hand[p]:
            in_hand[self.ref.card_resource[c]] += 1
        if person == "short" and any(need):
            # OMG-A10 / contract: omit one unit of a type whose need is positive.
            candidates = []
            for t in range(1, 6):
                if need[t] > 0:
                    reduced = list(need)
                    reduced[t] -= 1
                    candidates.append((t, reduced))
        else:
            candidates = [(0, need)]
        return [(omit, tuple(nd), False) for omit, nd in candidates
                if all(in_hand[t] >= nd[t] for t in range(1, 6))]

    def _produce_moves(self, p: int) -> list[int]:
        return [produce_move(slot, omit) for slot, person in self._activated(p)
                if slot not in self.produced[p]
                for omit, _, _ in self._production_options(p, slot, person)]

    def _chain_moves(self, p: int, any_slot: bool) -> list[int]:
        """CHAIN(s, in0, in1) per distinct input choice (spec 4.4.3, contract IV.1)."""
        moves = []
        hand = sorted(self.hand[p])
        n_slots = self.slot_count(p)
        for s in range(n_slots):
            b = self.building(p, s)
            if not b.chain or not (any_slot or s in self.produced[p]):
                continue
            choices = []
            for kind, x in b.chain:
                if kind == "resource":
                    # From hand only, never the market or an office (spec 4.4.3).
                    choices.append([c for c in hand if self.ref.card_resource[c] == x])
                else:
                    # A good from a slot whose building outputs that good (OMG-A14).
                    # Never from the chain building itself: that would move nothing.
                    choices.append([GOOD_FROM_SLOT + t for t in range(n_slots)
                                    if t != s and self.goods[p][t] and self.building(p, t).output == x])
            if len(choices) == 1:
                moves += [chain_move(s, c) for c in choices[0]]
                continue
            same_resource = b.chain[0] == b.chain[1] and b.chain[0][0] == "resource"
            for c0 in choices[0]:
                for c1 in choices[1]:
                    if c0 < GOOD_FROM_SLOT and c1 < GOOD_FROM_SLOT and c0 == c1:
                        continue                        # one card cannot pay both inputs
                    if same_resource and c0 > c1:
                        continue                        # contract: the first card id is smaller
                    if c0 >= GOOD_FROM_SLOT and c0 == c1 and \
                            len(self.goods[p][c0 - GOOD_FROM_SLOT]) < 2:
                        continue
                    moves.append(chain_move(s, c0, c1))
        return moves

    def _moves_production(self, task: tuple) -> list[int]:
        p = task[1]
        # Full final round: chains at every slot in its phase IV (OMG-A1 flag, contract).
        return (self._produce_moves(p) + self._chain_moves(p, any_slot=self.final_round)
                + [END_PRODUCTION_MOVE])

    def _do_production(self, task: tuple, move: int) -> None:
        p = task[1]
        t = move_type(move)
        if t == END_PRODUCTION:
            self.tasks.pop()                    # unproduced slots stay unproduced
        elif t == PRODUCE:
            slot, omit = (move >> 5) & 0xF, (move >> 9) & 7
            person = dict(self._activated(p))[slot]
            _, need, is_any = next(o for o in self._production_options(p, slot, person)
                                   if o[0] == omit)
            out = EXACT_GOODS if person == "exact" else \
                SHORT_GOODS if person == "short" else ASSISTANT_GOODS
            self._push([("supply", p, slot, need, is_any, (-1,) * 6, out)])
        else:
            self._push_chain(p, move)

    def _push_chain(self, p: int, move: int) -> None:
        # CONTRACT NOTE: inputs are taken in the data's order, each completely (with its TAKE
        # node, if any) before the next.
        slot, in0, in1 = (move >> 5) & 0xF, (move >> 9) & 0x7F, (move >> 16) & 0x7F
        self._push([("chain_in", p, slot, code) for code in (in0, in1) if code != NO_CARD])

    def _run_chain_in(self, task: tuple) -> bool:
        """One chain input onto the chain building (spec 4.4.3)."""
        _, p, slot, code = task
        self.tasks.pop()
        if code < GOOD_FROM_SLOT:
            self.hand[p].remove(code)
            self.goods[p][slot].append(code)
            self.seen[code] = self.ref.all_seen         # shown before being placed (spec 4.4.3)
        else:
            self._push([("take", p, code - GOOD_FROM_SLOT, 1, slot)])
        return False

    def _run_supply(self, task: tuple) -> bool:
        """task = ("supply", player, slot, need, any-N?, last supplied id per need key, goods)."""
        _, p, slot, need, _, _, out = task
        if any(need):
            return True                                 # a SUPPLY decision
        self.tasks.pop()
        # The slot counts as produced only if at least one good arrived (spec 4.4.3: a chain
        # needs "at least one good this round"); a draw can fail after exhaustion.
        self._push([("batch", P_GOOD, p, slot, out), ("produced", p, slot, len(self.goods[p][slot]))])
        return False

    def _moves_supply(self, task: tuple) -> list[int]:
        """SUPPLY(card): a card whose resource still has need, canonical order per resource.

        Resources are supplied in increasing resource order, and within one resource (any
        card for "any N") in increasing id order, so no multiset is offered twice (spec 9.3).
        A card is offered only if enough higher-id cards of its kind remain to cover the rest
        of that need.
        """
        _, p, _, need, is_any, last, _ = task
        hand = sorted(self.hand[p])
        current = 0 if is_any else min(t for t in range(1, 6) if need[t])
        moves = []
        for c in hand:
            key = 0 if is_any else self.ref.card_resource[c]
            if key != current or c <= last[key]:
                continue
            higher = sum(1 for x in hand if x > c and (is_any or self.ref.card_resource[x] == key))
            if higher >= need[key] - 1:
                moves.append(supply_move(c))
        return moves

    def _do_supply(self, task: tuple, move: int) -> None:
        _, p, slot, need, is_any, last, out = task
        card = move >> 5
        key = 0 if is_any else self.ref.card_resource[card]
        self.hand[p].remove(card)
        self._move_to_discard(card)                     # production supplies are public
        need = need[:key] + (need[key] - 1,) + need[key + 1:]
        last = last[:key] + (card,) + last[key + 1:]
        self._replace(("supply", p, slot, need, is_any, last, out))

    def _run_produced(self, task: tuple) -> bool:
        _, p, slot, goods_before = task
        if len(self.goods[p][slot]) > goods_before:
            self.produced[p].add(slot)
        self.tasks.pop()
        return False

    # ------------------------------------------------------------------ phase IV build or hire

    def _hire_slots(self, p: int) -> list[int]:
        """Producing slots with no one on them (spec 4.4.7, OMG-A18).

        The Hungarian text keeps the brown worker on its building all round (one person per
        building), so its slot is excluded unless ``worker_leaves_after_production`` (2nd edition).
        """
        occupied = self._assistant_at(p, pending=False)
        slots = [s for s in range(self.slot_count(p)) if self._producing(p, s) and s not in occupied]
        if not self.ref.options.worker_leaves_after_production:
            slots = [s for s in slots if s != self.worker_slot[p]]
        return slots

    def _colour_counts(self, p: int) -> list[int]:
        """Buildings per colour index: resources 1..5 -> 0..4, the Charburner -> 5 (OMG-A19)."""
        counts = [0] * 6
        counts[5] = 1
        for c in self.built[p]:
            counts[self.ref.data.cards[c].resource - 1] += 1
        return counts

    def _moves_build_or_hire(self, task: tuple) -> list[int]:
        p = task[1]
        d = self.ref.data
        gold = self._gold(p)
        moves = [PASS_MOVE]
        if self.aside[p] >= 0 and gold >= d.cards[self.aside[p]].cost:
            moves.append(BUILD_MOVE)
        if len(self._assistants_of(p)) < MAX_ASSISTANTS:
            colours = self._colour_counts(p)
            slots = self._hire_slots(p)
            for a, owner in enumerate(self.assistant_owner):
                if owner != ON_DISPLAY:
                    continue
                side = d.assistants[a].sides[self.assistant_side[a]]
                if gold >= side.cost and all(have >= need for have, need in zip(colours, side.requires)):
                    moves += [hire_move(a, s) for s in slots]
        return moves

    def _do_build_or_hire(self, task: tuple, move: int) -> None:
        p = task[1]
        t = move_type(move)
        self.tasks.pop()
        if t == PASS:
            self._return_aside(p)
        elif t == BUILD:
            self._push([("pay", p, self.ref.data.cards[self.aside[p]].cost, ("build",), ())])
        else:
            a, slot = (move >> 5) & 7, (move >> 8) & 0xF
            cost = self.ref.data.assistants[a].sides[self.assistant_side[a]].cost
            self._push([("pay", p, cost, ("hire", a, slot), ())])

    def _return_aside(self, p: int) -> None:
        """The set-aside card returns to the hand, unrevealed (spec 4.4.6, OMG-A17)."""
        if self.aside[p] >= 0:
            self.hand[p].add(self.aside[p])
            self.aside[p] = -1

    def _run_build_done(self, task: tuple) -> bool:
        p = task[1]
        self.tasks.pop()
        card = self.aside[p]
        self.aside[p] = -1
        self.built[p].append(card)
        self.goods[p].append([])
        self.seen[card] = self.ref.all_seen
        if self.slot_count(p) >= END_BUILDINGS:
            self.end_triggered = True            # spec 4.6 / OMG-A24
        return False

    def _run_hire_done(self, task: tuple) -> bool:
        _, p, a, slot = task
        self.tasks.pop()
        self.assistant_owner[a] = p
        self.assistant_slot[a] = slot
        self._return_aside(p)                    # hire instead of building (OMG-A17)
        return False

    # ------------------------------------------------------------------ clean-up and the end

    def _run_cleanup(self, task: tuple) -> bool:
        """Spec 4.5 and contract "Clean-up and the end"."""
        self.tasks.pop()
        for row in self.market:
            for c in row:
                self._move_to_discard(c)
            row.clear()
        n = self.ref.players
        self.produced = [set() for _ in range(n)]
        self.worker_slot = [-1] * n
        self.worker_exact = [False] * n
        self.start = (self.start + 1) % n
        self.rounds_done += 1
        if self.rounds_done >= self.ref.options.round_cap or self.final_round:
            # OMG-A37 round cap, or the end of the full final round: score.
            self._push([("score",)])
        elif self.end_triggered:
            self.final_round = True
            if self.ref.options.final_round == "chains_only":
                # OMG-A1: only chains, at every building, each player in turn order.
                self._push([("final_chains", p) for p in self._order()] + [("score",)])
            else:
                self._push([("round",)])
        else:
            self._push([("round",)])
        return False

    def _moves_final_chains(self, task: tuple) -> list[int]:
        return self._chain_moves(task[1], any_slot=True) + [END_CHAINS_MOVE]

    def _do_final_chains(self, task: tuple, move: int) -> None:
        if move_type(move) == END_CHAINS:
            self.tasks.pop()
        else:
            self._push_chain(task[1], move)

    def _run_score(self, task: tuple) -> bool:
        self.tasks.pop()
        self.over = True
        return False

    # ------------------------------------------------------------------ observation

    def _public_node(self, viewer: int) -> tuple:
        """The current node as ``viewer`` sees it: others' hidden commitments are opaque."""
        if self.over:
            return ("over",)
        task = self.tasks[-1]
        kind = task[0]
        hidden = kind in HIDDEN_TASKS or (kind == "pay" and task[3][0] == "move")
        if hidden and task[1] != viewer:
            return ("commitment", task[1])
        return task


def random_playout(ref: OmgReference, rng: random.Random) -> tuple[list[float], int]:
    """One game from ref.initial_state() played uniformly at random: (final scores, decisions taken)."""
    return playout(ref.initial_state(), rng)
