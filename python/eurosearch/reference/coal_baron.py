"""Plain pure-Python reference implementation of Coal Baron (Glück Auf).

Rules: ``shared/rules/coal_baron.md`` (the spec; section numbers and CB-A ids in comments refer
to it). Engine mapping (decision nodes, chance nodes, integer move ids, sequencing): the contract
``docs/coal_baron_engine.md``. This module is written to be read against those two documents; it
favours clarity over speed. A differential test plays it step by step against the C core.

Every observable step of the game is a node:

* a **decision node** (``current_player() >= 0``): ``legal_moves()`` lists the move ids;
* a **chance node** (``current_player() == -1``): ``chance_outcomes()`` lists (id, probability);
* the **terminal** state (``current_player() == -2``).

The game flow is an *agenda*: a stack of small tasks ("draw a tile into F3", "next turn",
"end the shift", ...). ``apply()`` resolves the pending node, then runs tasks until one of them
stops at a node. A decision node with a single legal move is never shown: that move is applied
automatically (contract "Forced decisions").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from eurosearch.games.coal_baron import CoalBaronOptions
from eurosearch.games.coal_baron_data import CoalBaronData
from .base import check_players, check_start_player, move_id, random_playout as playout, shared_returns

CHANCE = -1
TERMINAL = -2
COLOURS = 4                # Y, B, G, K; the tunnel level of colour c is c + 1
LEVELS = 5                 # 0 = surface, 1..4 tunnel levels
SHIFTS = 3
CAGE, STORAGE = 0, 1       # cube sources (contract "Move ids": cube code = src*4 + colour)
TILE_DECK, CARD_DECK = "tile", "card"

# --- Move ids (contract "Move ids"): bits 0-4 type, the rest parameters ------------------------
DRAFT, PLACE, CAGE_MOVE, LOAD, PUT, PAIR, STORE, STOP = 1, 2, 3, 4, 5, 6, 7, 8
KEEP, DEST, RETURN, SHORTAGE = 9, 10, 11, 12
START, TILE, CARD = 16, 17, 18
BANK = 26                  # PLACE(26) is the Bank (not a space)
KEEP_NONE_ITEM = 63

MOVE_NAMES = {
    DRAFT: "DRAFT", PLACE: "PLACE", CAGE_MOVE: "CAGE", LOAD: "LOAD", PUT: "PUT", PAIR: "PAIR",
    STORE: "STORE", STOP: "STOP", KEEP: "KEEP", DEST: "DEST", RETURN: "RETURN",
    SHORTAGE: "SHORTAGE", START: "START", TILE: "TILE", CARD: "CARD",
}
DECISION_TYPES = (DRAFT, PLACE, CAGE_MOVE, LOAD, PUT, PAIR, STORE, STOP, KEEP, DEST, RETURN, SHORTAGE)
CHANCE_TYPES = (START, TILE, CARD)


def move_type(move: int) -> int:
    return move & 0x1F


def draft_move(card: int) -> int:
    return DRAFT | (card << 5)


def place_move(space: int) -> int:
    return PLACE | (space << 5)


def cage_move(level: int) -> int:
    return CAGE_MOVE | (level << 5)


def load_move(colour: int) -> int:
    return LOAD | (colour << 5)


def put_move(src: int, colour: int, card: int) -> int:
    return PUT | (src << 5) | (colour << 6) | (card << 8)


def pair_move(a: int, b: int, card: int, demanded: int) -> int:
    """PAIR of cube codes ``a <= b`` (``src*4 + colour``) onto a ``demanded``-colour space."""
    a, b = min(a, b), max(a, b)
    return PAIR | (a << 5) | (b << 8) | (card << 11) | (demanded << 17)


def store_move(colour: int) -> int:
    return STORE | (colour << 5)


STOP_MOVE = STOP


def keep_move(item: int) -> int:
    return KEEP | (item << 5)


KEEP_NONE = keep_move(KEEP_NONE_ITEM)


def dest_move(bottom: bool) -> int:
    return DEST | (int(bottom) << 5)


def return_move(item: int) -> int:
    return RETURN | (item << 5)


def shortage_move(colour: int) -> int:
    return SHORTAGE | (colour << 5)


def start_move(seat: int) -> int:
    return START | (seat << 5)


def tile_outcome(tile_type: int) -> int:
    return TILE | (tile_type << 5)


def card_outcome(card: int) -> int:
    return CARD | (card << 5)


def describe(move: int) -> str:
    """A short debugging name such as ``PLACE(26)`` (not the engine's text format)."""
    t = move_type(move)
    return f"{MOVE_NAMES.get(t, '?')}({move >> 5})"


# --- State pieces ------------------------------------------------------------------------------

@dataclass
class Deck:
    """A face-down deck as three parts in draw order (contract "Decks"):
    ``top ++ unknown ++ bottom``. ``unknown`` holds counts per item (tile type or card)."""

    unknown: list[int]
    top: list[int] = field(default_factory=list)
    bottom: list[int] = field(default_factory=list)

    def unknown_total(self) -> int:
        return sum(self.unknown)

    def __len__(self) -> int:
        return len(self.top) + self.unknown_total() + len(self.bottom)

    def copy(self) -> "Deck":
        return Deck(self.unknown[:], self.top[:], self.bottom[:])


@dataclass
class Player:
    """One seat's public state (spec 2.3, 8.2)."""

    supply: int                                   # workers in the personal supply
    money: int
    vp: int = 0
    cage_level: int = 0                           # 0 = surface (spec 3 step 5)
    cage: list[int] = field(default_factory=lambda: [0] * COLOURS)
    storage: list[int] = field(default_factory=lambda: [0] * COLOURS)
    # carts[c]: minecarts on level c+1; mine[c][x]: cubes of colour x on level c+1.
    carts: list[int] = field(default_factory=lambda: [1] * COLOURS)   # the printed minecarts
    mine: list[list[int]] = field(
        default_factory=lambda: [[int(x == c) for x in range(COLOURS)] for c in range(COLOURS)])
    light: int = 0                                # Light / Dark tunnel *tiles* (spec 7.3.4)
    dark: int = 0
    outstanding: list[int] = field(default_factory=list)              # card indices
    filled: dict[int, list[int]] = field(default_factory=dict)        # card -> filled spaces per colour
    oncard: dict[int, list[int]] = field(default_factory=dict)        # card -> cubes on it per colour
    delivered: list[int] = field(default_factory=list)

    def copy(self) -> "Player":
        return Player(
            supply=self.supply, money=self.money, vp=self.vp, cage_level=self.cage_level,
            cage=self.cage[:], storage=self.storage[:], carts=self.carts[:],
            mine=[row[:] for row in self.mine], light=self.light, dark=self.dark,
            outstanding=self.outstanding[:], filled={c: v[:] for c, v in self.filled.items()},
            oncard={c: v[:] for c, v in self.oncard.items()}, delivered=self.delivered[:],
        )

    def cubes(self) -> int:
        """Every cube the player owns (spec 7.3.2): minecarts, cage, storage, outstanding orders."""
        return (sum(map(sum, self.mine)) + sum(self.cage) + sum(self.storage)
                + sum(sum(self.oncard[c]) for c in self.outstanding))

    def snapshot(self) -> tuple:
        return (self.supply, self.money, self.vp, self.cage_level, tuple(self.cage),
                tuple(self.storage), tuple(self.carts), tuple(map(tuple, self.mine)), self.light,
                self.dark, tuple(sorted(self.outstanding)),
                tuple(sorted((c, tuple(v)) for c, v in self.filled.items())),
                tuple(sorted((c, tuple(v)) for c, v in self.oncard.items())),
                tuple(sorted(self.delivered)))


# --- Node kinds --------------------------------------------------------------------------------
N_START = "start"            # chance: the first start player (CB-A20)
N_TILE = "tile"              # chance: a tile drawn from the unknown part of the stack
N_CARD = "card"              # chance: a card drawn from the unknown part of the order deck
N_DRAFT = "draft"            # decision: pick a draft card (CB-A14)
N_PLACE = "place"            # decision: a worker space or the Bank
N_MINING = "mining"          # decision: one work step
N_KEEP = "keep"              # decision: draw-5 keep
N_DEST = "dest"              # decision: draw-5 top / bottom
N_RETURN = "return"          # decision: draw-5 return order (CB-A19)
N_SHORTAGE = "shortage"      # decision: colour of an off-colour cube (CB-A6)
N_OVER = "over"              # terminal
N_NONE = ""                  # between nodes (only while the agenda runs)

CHANCE_NODES = (N_START, N_TILE, N_CARD)


class CoalBaronReference:
    """The game definition: data, player count and options."""

    def __init__(self, data: CoalBaronData, players: int, options: CoalBaronOptions | None = None):
        check_players("Coal Baron", players, 2, 4)
        self.data = data
        self.players = players
        self.options = options if options is not None else CoalBaronOptions()
        check_start_player(self.options.start_player, players)
        # A space is locked (absent) when min_players > n (spec 2.5.3, CB-A3).
        self.open_spaces = [s for s in data.spaces if s.open(players)]
        self.factory_slots = [s.index for s in self.open_spaces if s.kind == "factory"]
        self.order_slots = [s.index for s in self.open_spaces if s.kind == "order"]
        # Spaces whose workers count for the start-player rule: F1..F8 and FD (CB-A10).
        self.factory_spaces = [s.index for s in self.open_spaces if s.kind in ("factory", "factory_draw")]
        # Shift clock with CB-A1 applied: elements 7 and 8 (truck, locomotive) take second_tr_lo.
        clock = [list(pair) for pair in data.shift_clock]
        if self.options.second_tr_lo is not None:
            clock[6][1] = clock[7][1] = self.options.second_tr_lo
        self.clock = [tuple(pair) for pair in clock]

    def initial_state(self) -> "CoalBaronRefState":
        state = CoalBaronRefState(self)
        state._setup()
        return state


class CoalBaronRefState:
    """A game position. Mutated in place by ``apply``; ``clone`` for a copy."""

    def __init__(self, ref: CoalBaronReference):
        self.ref = ref
        n, d = ref.players, ref.data
        self.players = [Player(supply=d.workers[n], money=d.money[n]) for _ in range(n)]
        # Each player's 4 printed minecarts took one cube of their colour (spec 3 step 5).
        self.coal = [d.coal_per_colour - n] * COLOURS
        self.decks = {
            TILE_DECK: Deck([t.copies for t in d.tiles]),
            CARD_DECK: Deck([1] * len(d.cards)),
        }
        self.factory: dict[int, int | None] = {s: None for s in ref.factory_slots}  # slot -> tile
        self.display: dict[int, int | None] = {s: None for s in ref.order_slots}    # slot -> card
        self.count = [0] * len(d.spaces)      # workers on each space (all of one owner)
        self.owner = [-1] * len(d.spaces)
        self.pool: list[int] = []             # draft pool (face up)
        self.start_player = 0
        self.shift = 0
        self.current = 0                      # whose turn it is (PLACE and its sub-decisions)
        # Sub-action state.
        self.steps_left = 0                   # mining work steps left
        self.buffer: list[int] = []           # draw-5 buffer (tile types or cards)
        self.buffer_kind = TILE_DECK
        self.returned: list[int] = []         # draw-5 items ordered so far (future draw order)
        self.return_top = True
        self.shortage_level = 0               # colour / level of the minecart awaiting a cube
        # Control.
        self.node = N_NONE
        self.actor = -1
        self.draw_dest: tuple = ()            # where the item of a pending TILE/CARD node goes
        self.agenda: list[tuple] = []         # task stack: the last element runs next
        self.winners: list[int] = []
        self._moves: list[int] | None = None
        self._move_set: set[int] | None = None

    # ------------------------------------------------------------------ public interface

    def current_player(self) -> int:
        if self.node == N_OVER:
            return TERMINAL
        if self.node in CHANCE_NODES:
            return CHANCE
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
        """(outcome, probability): START 1/n each; TILE u_t/U; CARD 1/U (contract "Decks")."""
        if self.node == N_START:
            n = self.ref.players
            return [(start_move(p), 1 / n) for p in range(n)]
        if self.node in (N_TILE, N_CARD):
            unknown = self.decks[self.node].unknown
            total = sum(unknown)
            make = tile_outcome if self.node == N_TILE else card_outcome
            return [(make(x), u / total) for x, u in enumerate(unknown) if u > 0]
        return []

    def apply(self, move: int) -> None:
        """Apply a decision move or a chance outcome; ValueError (state unchanged) if not legal."""
        move = move_id(move)
        if self.node == N_OVER:
            raise ValueError("the game is over")
        if self.node in CHANCE_NODES:
            if move not in {o for o, _ in self.chance_outcomes()}:
                raise ValueError(f"{move} is not a chance outcome here ({self.node})")
        else:
            self.legal_moves()
            assert self._move_set is not None
            if move not in self._move_set:
                raise ValueError(f"{describe(move)} is not a legal move here ({self.node})")
        self._resolve(move)
        self._run()

    def sample_chance(self, rng: random.Random) -> int:
        """One chance outcome with the chance_outcomes() distribution (without listing them)."""
        if self.node == N_START:
            return start_move(rng.randrange(self.ref.players))
        if self.node in (N_TILE, N_CARD):
            unknown = self.decks[self.node].unknown
            pick = rng.randrange(sum(unknown))
            for x, u in enumerate(unknown):
                pick -= u
                if pick < 0:
                    return (tile_outcome if self.node == N_TILE else card_outcome)(x)
        raise ValueError("sample_chance: not a chance node")

    def apply_sampled(self, outcome: int) -> None:
        """Apply an outcome from sample_chance() without re-checking it."""
        self._resolve(outcome)
        self._run()

    def scores(self) -> list[float]:
        """Every player's VP: in-game VP during play, final VP once over (contract)."""
        return [float(pl.vp) for pl in self.players]

    def returns(self) -> list[float]:
        return shared_returns(self.ref.players, self.node == N_OVER, self.winners)

    def clone(self) -> "CoalBaronRefState":
        other = CoalBaronRefState.__new__(CoalBaronRefState)
        other.__dict__.update(self.__dict__)
        other.players = [pl.copy() for pl in self.players]
        other.decks = {k: dk.copy() for k, dk in self.decks.items()}
        other.factory = dict(self.factory)
        other.display = dict(self.display)
        for name in ("coal", "count", "owner", "pool", "buffer", "returned", "agenda", "winners"):
            setattr(other, name, list(getattr(self, name)))
        other._clear_cache()
        return other

    def snapshot(self) -> tuple:
        """Every piece of game state as a hashable tuple (for tests and debugging)."""
        decks = tuple((k, tuple(dk.unknown), tuple(dk.top), tuple(dk.bottom))
                      for k, dk in sorted(self.decks.items()))
        return (
            tuple(pl.snapshot() for pl in self.players), tuple(self.coal), decks,
            tuple(sorted(self.factory.items())), tuple(sorted(self.display.items())),
            tuple(self.count), tuple(self.owner), tuple(sorted(self.pool)), self.start_player,
            self.shift, self.current, self.steps_left, tuple(sorted(self.buffer)),
            self.buffer_kind, tuple(self.returned), self.return_top, self.shortage_level,
            self.node, self.actor, self.draw_dest, tuple(self.agenda), tuple(self.winners),
        )

    def coal_total(self) -> int:
        """Supply plus every cube players own (spec 8.8: always 4 * coal_per_colour)."""
        return sum(self.coal) + sum(pl.cubes() for pl in self.players)

    def __repr__(self) -> str:
        return (f"CoalBaronRefState(shift={self.shift}, node={self.node}, actor={self.actor}, "
                f"vp={[pl.vp for pl in self.players]}, money={[pl.money for pl in self.players]})")

    # ------------------------------------------------------------------ the agenda

    def _clear_cache(self) -> None:
        self._moves = None
        self._move_set = None

    def _push(self, *tasks: tuple) -> None:
        """Schedule tasks to run next, in the given order (before anything already queued)."""
        self.agenda.extend(reversed(tasks))

    def _run(self) -> None:
        """Run tasks until a node with a real choice (or a chance node, or the end) is reached.

        Forced decisions (exactly one legal move) are applied here (contract "Forced decisions").
        """
        while True:
            if self.node != N_NONE:
                if self.node in CHANCE_NODES or self.node == N_OVER:
                    return
                moves = self.legal_moves()
                if len(moves) != 1:
                    return
                self._resolve(moves[0])
                continue
            task = self.agenda.pop()
            getattr(self, "_task_" + task[0])(*task[1:])

    def _resolve(self, move: int) -> None:
        """Leave the current node by ``move`` (already known to be legal)."""
        node = self.node
        self.node = N_NONE
        self._clear_cache()
        if node == N_START:
            self.start_player = move >> 5
        elif node in (N_TILE, N_CARD):
            item = move >> 5
            self.decks[node].unknown[item] -= 1
            self._deliver(node, item, self.draw_dest)
        elif node == N_DRAFT:
            self._take_order(self.actor, move >> 5)
            self.pool.remove(move >> 5)
        elif node == N_PLACE:
            self._place(self.actor, move >> 5)
        elif node == N_MINING:
            self._mining_step(self.actor, move)
        elif node == N_KEEP:
            self._keep(self.actor, move >> 5)
        elif node == N_DEST:
            self.return_top = (move >> 5) == 0
            self._push(("return",))
        elif node == N_RETURN:
            self._return_item(move >> 5)
        elif node == N_SHORTAGE:
            self._put_on_minecart(self.actor, self.shortage_level, move >> 5)
        else:
            raise AssertionError(f"no node to resolve ({node!r})")

    def _decide(self, node: str, actor: int) -> None:
        self.node = node
        self.actor = actor

    # ------------------------------------------------------------------ setup (spec 3)

    def _setup(self) -> None:
        ref = self.ref
        n = ref.players
        tasks: list[tuple] = [("draw", TILE_DECK, ("factory", s)) for s in ref.factory_slots]
        tasks.append(("choose_start",))
        tasks += [("draw", CARD_DECK, ("pool",))] * ref.data.draft_pool[n]
        tasks += [("draft", i) for i in range(ref.data.draft_picks * n)]
        tasks.append(("leftover",))
        tasks.append(("begin_shift",))
        self._push(*tasks)
        self._run()

    def _task_choose_start(self) -> None:
        sp = self.ref.options.start_player
        if sp is None:
            self.node = N_START               # CB-A20: uniform chance node
        else:
            self.start_player = sp

    def _task_draft(self, i: int) -> None:
        # CB-A14: counter-clockwise from the start player's right-hand neighbour, same cycle.
        self._decide(N_DRAFT, (self.start_player - 1 - i) % self.ref.players)

    def _task_leftover(self) -> None:
        # CB-A14: the leftover card goes on O4; the other open slots are drawn in index order.
        (card,) = self.pool
        self.pool = []
        slot = self.ref.data.leftover_slot
        self.display[slot] = card
        self._push(*[("draw", CARD_DECK, ("display", s)) for s in self.ref.order_slots if s != slot])

    # ------------------------------------------------------------------ decks

    def _task_draw(self, deck_name: str, dest: tuple) -> None:
        """Draw one item: the known top first, then a chance node over the unknown part, then the
        known bottom; from an empty deck nothing is drawn (spec 4.13(b): no reshuffle)."""
        deck = self.decks[deck_name]
        if deck.top:
            self._deliver(deck_name, deck.top.pop(0), dest)
        elif deck.unknown_total() > 0:
            self.node = deck_name             # N_TILE / N_CARD
            self.draw_dest = dest
        elif deck.bottom:
            self._deliver(deck_name, deck.bottom.pop(0), dest)

    def _deliver(self, deck_name: str, item: int, dest: tuple) -> None:
        where = dest[0]
        if where == "factory":
            self.factory[dest[1]] = item
        elif where == "display":
            self.display[dest[1]] = item
        elif where == "pool":
            self.pool.append(item)
        elif where == "buffer":
            self.buffer.append(item)
        else:
            raise AssertionError(dest)

    # ------------------------------------------------------------------ turns (spec 4.1-4.3)

    def _task_begin_shift(self) -> None:
        self.shift += 1
        self.current = self.start_player
        self._push(("turn",))

    def _task_turn(self) -> None:
        self._decide(N_PLACE, self.current)

    def _task_end_turn(self) -> None:
        """Next clockwise player with workers (T20: empty supplies are skipped), or shift end."""
        n = self.ref.players
        for i in range(1, n + 1):
            q = (self.current + i) % n
            if self.players[q].supply > 0:
                self.current = q
                self._push(("turn",))
                return
        self._push(("end_shift",))

    def _space_performable(self, p: int, s: int) -> bool:
        """Whether the action of space s can be performed by p (spec 4.5-4.9, 8.4)."""
        pl, sp = self.players[p], self.ref.data.spaces[s]
        kind = sp.kind
        if kind == "factory":
            t = self.factory[s]               # CB-A22: an emptied slot is never legal
            return t is not None and self.ref.data.tiles[t].cost <= pl.money
        if kind == "factory_draw":
            return len(self.decks[TILE_DECK]) > 0          # CB-A7
        if kind in ("mining", "money"):
            return True                                     # CB-A12
        if kind == "delivery":
            return any(self._complete(p, c) for c in pl.outstanding
                       if self.ref.data.cards[c].vehicle == sp.value)
        if kind == "order":
            return self.display[s] is not None
        if kind == "order_draw":
            return len(self.decks[CARD_DECK]) > 0           # CB-A7
        raise AssertionError(kind)

    def _place_moves(self, p: int) -> list[int]:
        moves = [place_move(BANK)]            # spec 4.4: always legal
        supply = self.players[p].supply
        for sp in self.ref.open_spaces:
            if supply >= self.count[sp.index] + 1 and self._space_performable(p, sp.index):
                moves.append(place_move(sp.index))
        return moves

    def _place(self, p: int, s: int) -> None:
        pl, d = self.players[p], self.ref.data
        if s == BANK:
            pl.supply -= 1
            pl.money += d.bank_marks
            self._push(("end_turn",))
            return
        # Spec 4.3: the k workers there go to the Canteen (not tracked), p places k + 1.
        need = self.count[s] + 1
        self.count[s] = need
        self.owner[s] = p
        pl.supply -= need
        sp = d.spaces[s]
        if sp.kind == "factory":
            t = self.factory[s]
            assert t is not None
            self.factory[s] = None
            pl.money -= d.tiles[t].cost
            # The refill happens at the end of the turn, after the shortage decisions (4.5).
            self._acquire_tile(p, t, then=[("draw", TILE_DECK, ("factory", s)), ("end_turn",)])
        elif sp.kind == "factory_draw":
            self._start_draw_five(TILE_DECK)
        elif sp.kind == "mining":
            self.steps_left = sp.value
            self._push(("mining",), ("end_turn",))
        elif sp.kind == "delivery":
            self._deliver_vehicle(p, sp.value)
            self._push(("end_turn",))
        elif sp.kind == "money":
            pl.money += sp.value
            self._push(("end_turn",))
        elif sp.kind == "order":
            card = self.display[s]
            assert card is not None
            self.display[s] = None
            self._take_order(p, card)
            self._push(("draw", CARD_DECK, ("display", s)), ("end_turn",))   # immediate refill
        elif sp.kind == "order_draw":
            self._start_draw_five(CARD_DECK)
        else:
            raise AssertionError(sp.kind)

    # ------------------------------------------------------------------ tiles (spec 4.5, 4.13(c))

    def _acquire_tile(self, p: int, t: int, then: list[tuple]) -> None:
        """Add tile type t to p's mine; one cube per minecart, in turn; then run ``then``."""
        tile = self.ref.data.tiles[t]
        pl = self.players[p]
        pl.carts[tile.colour] += tile.carts
        if tile.side == 0:
            pl.light += 1
        else:
            pl.dark += 1
        self._push(*[("minecart", p, tile.colour)] * tile.carts, *then)

    def _task_minecart(self, p: int, c: int) -> None:
        """Fill one new minecart of colour c (CB-A6: off-colour is mandatory if any cube exists)."""
        if self.coal[c] > 0:
            self._put_on_minecart(p, c, c)
        elif sum(self.coal) > 0:
            self.shortage_level = c
            self._decide(N_SHORTAGE, p)
        # else: the supply is empty, the minecart stays empty (CB-A6).

    def _put_on_minecart(self, p: int, level_colour: int, cube: int) -> None:
        self.coal[cube] -= 1
        self.players[p].mine[level_colour][cube] += 1

    # ------------------------------------------------------------------ draw-5 (spec 4.5, 4.9)

    def _start_draw_five(self, deck_name: str) -> None:
        k = min(self.ref.data.draw_count, len(self.decks[deck_name]))   # CB-A7
        self.buffer = []
        self.buffer_kind = deck_name
        self.returned = []
        self._push(*[("draw", deck_name, ("buffer",))] * k, ("keep",), ("end_turn",))

    def _task_keep(self) -> None:
        self._decide(N_KEEP, self.current)

    def _keep_moves(self, p: int) -> list[int]:
        moves = [KEEP_NONE]
        money = self.players[p].money
        for x in set(self.buffer):
            if self.buffer_kind == CARD_DECK or self.ref.data.tiles[x].cost <= money:
                moves.append(keep_move(x))
        return moves

    def _keep(self, p: int, item: int) -> None:
        if item == KEEP_NONE_ITEM:
            self._push(("after_keep",))
            return
        self.buffer.remove(item)
        if self.buffer_kind == TILE_DECK:
            self.players[p].money -= self.ref.data.tiles[item].cost
            self._acquire_tile(p, item, then=[("after_keep",)])   # shortage decisions now
        else:
            self._take_order(p, item)
            self._push(("after_keep",))

    def _task_after_keep(self) -> None:
        if not self.buffer:
            return
        if len(self.decks[self.buffer_kind]) == 0:
            # The returned items form the whole deck: no destination decision.
            self.return_top = True
            self._push(("return",))
        else:
            self._decide(N_DEST, self.current)

    def _task_return(self) -> None:
        self._decide(N_RETURN, self.current)

    def _return_item(self, item: int) -> None:
        """CB-A19: the chosen sequence is the future draw order, on top or at the bottom."""
        self.buffer.remove(item)
        self.returned.append(item)
        if self.buffer:
            self._push(("return",))
            return
        deck = self.decks[self.buffer_kind]
        if self.return_top:
            deck.top = self.returned + deck.top
        else:
            deck.bottom = deck.bottom + self.returned
        self.returned = []

    # ------------------------------------------------------------------ orders

    def _take_order(self, p: int, card: int) -> None:
        pl = self.players[p]
        pl.outstanding.append(card)
        pl.filled[card] = [0] * COLOURS
        pl.oncard[card] = [0] * COLOURS

    def _complete(self, p: int, card: int) -> bool:
        return self.players[p].filled[card] == list(self.ref.data.cards[card].spaces)

    def _deliver_vehicle(self, p: int, vehicle: int) -> None:
        """CB-A18: every complete outstanding order of the vehicle, no subset."""
        pl, cards = self.players[p], self.ref.data.cards
        for card in [c for c in pl.outstanding if cards[c].vehicle == vehicle and self._complete(p, c)]:
            pl.vp += cards[card].vp
            for x in range(COLOURS):
                self.coal[x] += pl.oncard[card][x]
            pl.outstanding.remove(card)
            del pl.filled[card]
            del pl.oncard[card]
            pl.delivered.append(card)

    # ------------------------------------------------------------------ mining (spec 4.6)

    def _task_mining(self) -> None:
        if self.steps_left > 0:
            self._decide(N_MINING, self.current)

    def _mining_moves(self, p: int) -> list[int]:
        pl, cards = self.players[p], self.ref.data.cards
        level, left = pl.cage_level, self.steps_left
        moves = [STOP_MOVE]
        moves += [cage_move(lv) for lv in range(LEVELS) if lv != level]          # S1/S2
        if level >= 1 and sum(pl.cage) < self.ref.data.cage_capacity:           # S3, CB-A21
            moves += [load_move(x) for x in range(COLOURS) if pl.mine[level - 1][x] > 0]
        at_surface = level == 0
        if at_surface:                                                           # S5, CB-A5
            moves += [store_move(x) for x in range(COLOURS) if pl.cage[x] > 0]
        # Cubes available for orders: (source, colour) -> count; the cage only at the surface.
        avail: dict[int, int] = {}
        for x in range(COLOURS):
            if at_surface and pl.cage[x] > 0:
                avail[CAGE * 4 + x] = pl.cage[x]
            if pl.storage[x] > 0:
                avail[STORAGE * 4 + x] = pl.storage[x]
        codes = sorted(avail)
        pairs = [(a, b) for i, a in enumerate(codes) for b in codes[i:] if a != b or avail[a] >= 2]
        for card in pl.outstanding:
            printed, filled = cards[card].spaces, pl.filled[card]
            for d in range(COLOURS):
                if filled[d] >= printed[d]:
                    continue
                for code in codes:                                               # S4/S6
                    if code % 4 == d:
                        moves.append(put_move(code // 4, d, card))
                if left >= 2:                                                    # S4x, CB-A4
                    moves += [pair_move(a, b, card, d) for a, b in pairs]
        return moves

    def _take_cube(self, pl: Player, code: int) -> int:
        src, colour = divmod(code, 4)
        (pl.cage if src == CAGE else pl.storage)[colour] -= 1
        return colour

    def _mining_step(self, p: int, move: int) -> None:
        pl = self.players[p]
        t = move_type(move)
        if t == STOP:
            self.steps_left = 0
            return
        cost = 1
        if t == CAGE_MOVE:
            pl.cage_level = move >> 5
        elif t == LOAD:
            x = move >> 5
            pl.mine[pl.cage_level - 1][x] -= 1
            pl.cage[x] += 1
        elif t == STORE:
            x = move >> 5
            pl.cage[x] -= 1
            pl.storage[x] += 1
        elif t == PUT:
            src, x, card = (move >> 5) & 1, (move >> 6) & 3, (move >> 8) & 63
            self._take_cube(pl, src * 4 + x)
            pl.filled[card][x] += 1
            pl.oncard[card][x] += 1
        elif t == PAIR:
            a, b, card, d = (move >> 5) & 7, (move >> 8) & 7, (move >> 11) & 63, (move >> 17) & 3
            for code in (a, b):
                pl.oncard[card][self._take_cube(pl, code)] += 1
            pl.filled[card][d] += 1           # one printed space of colour d is filled
            cost = 2
        else:
            raise AssertionError(describe(move))
        self.steps_left -= cost
        self._push(("mining",))

    # ------------------------------------------------------------------ moves

    def _generate_moves(self) -> list[int]:
        node, p = self.node, self.actor
        if node == N_DRAFT:
            return [draft_move(c) for c in self.pool]
        if node == N_PLACE:
            return self._place_moves(p)
        if node == N_MINING:
            return self._mining_moves(p)
        if node == N_KEEP:
            return self._keep_moves(p)
        if node == N_DEST:
            return [dest_move(False), dest_move(True)]
        if node == N_RETURN:
            return [return_move(x) for x in set(self.buffer)]
        if node == N_SHORTAGE:
            return [shortage_move(x) for x in range(COLOURS) if self.coal[x] > 0]
        raise AssertionError(f"no moves at node {node!r}")

    # ------------------------------------------------------------------ shift end (spec 4.11, 7)

    def _task_end_shift(self) -> None:
        self._shift_scoring()
        if self.shift < SHIFTS:
            self.start_player = self._next_start_player()
            n, d = self.ref.players, self.ref.data
            self.count = [0] * len(d.spaces)
            self.owner = [-1] * len(d.spaces)
            for pl in self.players:
                pl.supply = d.workers[n]
            self._push(("begin_shift",))
        else:
            self._final_scoring()
            self.node = N_OVER

    def _element_counts(self, element: int) -> list[int]:
        """Counts per player for shift-clock element 0..11 (spec 7.2)."""
        cards = self.ref.data.cards
        out = []
        for pl in self.players:
            if element < 4:                   # 1-4: printed spaces of a colour, delivered
                k = sum(cards[c].spaces[element] for c in pl.delivered)
            elif element < 8:                 # 5-8: all printed spaces of a vehicle, delivered
                k = sum(cards[c].total_spaces for c in pl.delivered if cards[c].vehicle == element - 4)
            else:                             # 9-12: empty minecarts (CB-A15)
                lv = element - 8
                k = pl.carts[lv] - sum(pl.mine[lv])
            if self.ref.options.empty_carts_need_delivery and not pl.delivered:
                k = 0                         # CB-A2 (a): a delivered order is needed to score
            out.append(k)
        return out

    def element_awards(self, element: int) -> list[int]:
        """VP each player gets from shift-clock element 0..11 (spec 7.2 reference procedure)."""
        n = self.ref.players
        first, second = self.ref.clock[element]
        counts = self._element_counts(element)
        awards = [0] * n
        top = max(counts)
        if top == 0:
            return awards                     # a count of 0 never scores (CB-A2)
        firsts = [p for p in range(n) if counts[p] == top]
        for p in firsts:
            awards[p] += first
        if n == 2 or len(firsts) >= 2:
            return awards                     # no 2nd place at 2 players or after a tie
        rest = [k for k in counts if 1 <= k < top]
        if rest:
            s = max(rest)
            for p in range(n):
                if counts[p] == s:
                    awards[p] += second       # every tied second gets the full VP
        return awards

    def _shift_scoring(self) -> None:
        # CB-A23: elements 1 .. 4 * shift, all additive.
        for e in range(self.ref.data.elements_per_shift * self.shift):
            for p, vp in enumerate(self.element_awards(e)):
                self.players[p].vp += vp

    def _next_start_player(self) -> int:
        """CB-A10: most workers on F1..F8 + FD; ties go clockwise from the start player, never
        to the start player itself."""
        n, sp = self.ref.players, self.start_player
        workers = [0] * n
        for s in self.ref.factory_spaces:
            if self.count[s] > 0:
                workers[self.owner[s]] += self.count[s]
        most = max(workers)
        tied = [p for p in range(n) if workers[p] == most]
        if len(tied) == 1:
            return tied[0]
        for i in range(1, n):
            if (sp + i) % n in tied:
                return (sp + i) % n
        raise AssertionError("a tie always has a player other than the start player")

    def _final_scoring(self) -> None:
        """Spec 7.3 and 7.4 (CB-A13: the Marks left after conversion break ties)."""
        d = self.ref.data
        for pl in self.players:
            pl.vp += pl.money // d.marks_per_vp
            pl.money %= d.marks_per_vp
            pl.vp += pl.cubes() // d.cubes_per_vp
            pl.vp -= d.outstanding_penalty * len(pl.outstanding)
            pl.vp -= d.balance_penalty * abs(pl.light - pl.dark)
        best = max((pl.vp, pl.money) for pl in self.players)
        self.winners = [p for p, pl in enumerate(self.players) if (pl.vp, pl.money) == best]


def random_playout(ref: CoalBaronReference, rng: random.Random) -> tuple[list[float], int]:
    """One game from ref.initial_state() played uniformly at random: (final scores, decisions taken)."""
    return playout(ref.initial_state(), rng)
