"""Plain pure-Python reference implementation of Wolsung.

Rules: ``shared/rules/wolsung.md`` (the spec; section numbers, WO-A ids, C1-C11 chance events
and the E/D worked examples in comments refer to it). Engine mapping (decision and chance
nodes, move ids, sequencing): ``docs/wolsung_engine.md`` (the "contract"). This module is
written from the spec, to be read against it; it favours clarity over speed. A differential
test plays it step by step against the C core.

Every observable step of the game is a node:

* a **decision node** (``current_player() >= 0``): ``legal_moves()`` lists the move ids. A
  decision with a single legal move is applied automatically and never presented (the forced
  picks of spec 9.3, the only placement of an empty workshop, ...);
* a **chance node** (``current_player() == -1``): ``chance_outcomes()`` lists (id, probability);
  a chance node with a single outcome is still a chance node;
* the **terminal** state (``current_player() == -2``).

How the game is driven: the rules are written as plain methods that run the game forward
(``_advance``) until they need a decision or a chance outcome; they then record a *pending
node* (``self.node`` plus the data it needs) and return. ``apply`` hands the move or outcome
to the method that owns the node and advances again. Deck draws can nest (a Strike drawn while
refilling the office, spec 4.4.5 and WO-A33), so a draw records what to do once the slot is
filled (``self.after_draw``).
"""

from __future__ import annotations

import itertools
import operator
import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Sequence

from .base import random_playout as playout

# --- Rule constants (spec sections in brackets; not data) -------------------------------------
COAL, GLASS, IRON, WOOD, GOLD = range(5)          # spec 2.2
RESOURCES = 5
BUILDING = (COAL, GLASS, IRON, WOOD)               # spec 2.2: the building resources
STORAGE_CAP = 4                                    # spec 2.2: at most 4 cubes of each type
START_WORKSHOP = 3                                 # spec 3.1 step 6
WORKERS_PER_PLAYER = 21                            # spec 2.1
OFFICE_SLOTS = 3                                   # spec 4.4.3
FACTORIES = 3
EXCHANGE_RATE = 3                                  # spec 4.6: 3 : 1 both ways
CONVERTER_INPUTS = 2                               # spec 4.5: one resource -> 2 other resources
FOURTH_WORKER, TIME_MACHINE, CONVERTER = range(3)  # spec 4.5
UPGRADE_COST = (3, 2, 1)                           # spec 4.5, in gold
ROUND_MERGE_B = 12                                 # spec 4.7 step 2
ROUND_RECYCLE = 22                                 # spec 4.7 step 3
STRIKE_LOSS = (2, 1)                               # spec 4.4.5: highest loses 2, second 1
NEUTRAL = 4                                        # order-track entry of the 2-player neutral
SPECIALS = 5                                       # spec 2.5
CATEGORIES = 8                                     # task icons: 4 types then 4 regions (2.4)
FE_ON_BOARD = -1

# --- Move and outcome ids (contract "Move and chance ids (frozen)") ---------------------------
# A move id is kind + 32 * payload.
PLACE, TIME, PICK, PASS, BUILD, UPGRADE = 1, 2, 3, 4, 5, 6
PLACE_HIDDEN = 7                                   # what others see of a PLACE under 4.9
DRAW, DEAL, START, STRIKE, TIE, NCOUNT, NORDER, CHANGE = range(16, 24)
KIND = 32
FE_PICK = 5                                        # PICK(5): the First Engineer


def _move(kind: int, payload: int) -> int:
    return kind + KIND * payload


def storage_code(s: Sequence[int]) -> int:
    """A storage (5 counts 0..4) as base-5 digits, coal lowest."""
    code = 0
    for t in reversed(range(RESOURCES)):
        code = code * 5 + s[t]
    return code


def storage_from_code(code: int) -> tuple[int, ...]:
    out = []
    for _ in range(RESOURCES):
        out.append(code % 5)
        code //= 5
    return tuple(out)


def place_move(a: Sequence[int]) -> int:
    """PLACE: workers dropped into F1, F2, F3."""
    return _move(PLACE, a[0] + 5 * a[1] + 25 * a[2])


def time_move(use: bool) -> int:
    return _move(TIME, int(use))


def pick_move(item: int) -> int:
    """PICK: a resource type 0..4, or FE_PICK."""
    return _move(PICK, item)


PASS_MOVE = _move(PASS, 0)


def build_move(slot: int, result: Sequence[int]) -> int:
    """BUILD the card in office slot 0..2 (0 = the spec's slot 1, the top), leaving ``result``."""
    return _move(BUILD, slot + 3 * storage_code(result))


def upgrade_move(upgrade: int, result: Sequence[int]) -> int:
    return _move(UPGRADE, upgrade + 3 * storage_code(result))


def deal_outcome(card: int) -> int:
    return _move(DEAL, card)


def start_outcome(seat: int) -> int:
    return _move(START, seat)


def draw_outcome(card: int) -> int:
    return _move(DRAW, card)


def strike_outcome(first: int, second: int) -> int:
    return _move(STRIKE, first + 4 * second)


def ncount_outcome(card: int) -> int:
    return _move(NCOUNT, card)


def tie_outcome(order: Sequence[int]) -> int:
    """TIE: the tied entries (seats 0..3, NEUTRAL = 4) from the highest card down."""
    return _move(TIE, sum(e * 5 ** i for i, e in enumerate(order)))


def norder_outcome(card: int) -> int:
    return _move(NORDER, card)


def change_outcome(change: bool) -> int:
    return _move(CHANGE, int(change))


# --- Data ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Machine:
    type: int                     # 0..3: Golem, Steam car, Steam locomotive, Airship
    region: int                   # 0..3: Aquitaine, Alfheim, Morgovia, Wotany
    vp: int
    cost: tuple[int, ...]         # 5 counts (coal, glass, iron, wood, gold); gold 0 (WO-A30)


@dataclass(frozen=True)
class Task:
    points: int
    icons: tuple[int, ...]        # categories: type t -> t, region r -> 4 + r


@dataclass(frozen=True)
class Special:
    value: int
    change: bool
    order: tuple[int, ...]        # resource order, best first (neutral, 2 players)


@dataclass(frozen=True)
class RefData:
    """The spec's static data (2.8), in the reference's own shape."""

    schedule: tuple[tuple[int, ...], ...]      # schedule[r] for r = 1..29 (index 0 unused)
    factory_order: tuple[int, ...]             # opening order of factories 0..2
    sidings: tuple[tuple[tuple[int, ...], ...], ...]   # sidings[f][mode]: mode 0 SMALL, 1 LARGE
    machines: tuple[Machine, ...]              # 40 machines; the Strike is id len(machines)
    tasks: tuple[tuple[Task, ...], ...]        # 8 cards x 3 tasks
    specials: tuple[Special, ...]              # 5 cards
    supply: tuple[int, ...]                    # SUPPLY_TOTAL (used only with finite_supply)

    @property
    def strike(self) -> int:
        return len(self.machines)


@dataclass(frozen=True)
class RefOptions:
    """The spec's switches (2.8, section 10); defaults are its recommendations."""

    start_player: int | None = None            # None: chance node C4
    finite_supply: bool = False                # WO-A19
    exchange_allows_gold_input: bool = False   # 4.6 / WO-A8
    converter_accepts_gold: bool = False       # WO-A7
    fe_forced_last_factory_only: bool = False  # WO-A4
    fe_single_pick_only: bool = False          # WO-A4
    time_machine_per_factory: bool = False     # WO-A9 alternative
    strike_returns_at_22: bool = False         # WO-A13 alternative
    hidden_placement: bool = False             # 4.9: changes only what players see


def _option(options: Any, name: str, default: Any) -> Any:
    if options is None:
        return default
    if isinstance(options, dict):
        return options.get(name, default)
    return getattr(options, name, default)


def ref_options(options: Any) -> RefOptions:
    """Read the switches from the game's options object or a dict (missing keys: defaults)."""
    return RefOptions(**{
        f: _option(options, f, getattr(RefOptions(), f)) for f in RefOptions.__dataclass_fields__
    })


# --- Payments (spec 4.6) -----------------------------------------------------------------------

@lru_cache(maxsize=None)
def machine_payments(storage: tuple[int, ...], cost: tuple[int, ...], converter: bool,
                     converter_gold: bool, exchange_gold: bool) -> frozenset[tuple[int, ...]]:
    """Every distinct storage left after paying ``cost`` for a machine (spec 4.6).

    Each unit of cost of type t is paid by one method: D one cube of t; X 3 gold (for a building
    resource); V (Converter owned) 2 cubes of types other than t, building resources unless
    CONVERTER_ACCEPTS_GOLD. A gold unit of cost (WO-A30, none in the data) is paid by one gold
    or by 3 building cubes (any cubes with EXCHANGE_ALLOWS_GOLD_INPUT)."""
    units = [t for t in range(RESOURCES) for _ in range(cost[t])]
    paid = {(0,) * RESOURCES}
    for t in units:
        options: list[tuple[int, ...]] = [_unit(t)]
        if t == GOLD:
            pool = range(RESOURCES) if exchange_gold else BUILDING
            options += [_vec(c) for c in itertools.combinations_with_replacement(pool, EXCHANGE_RATE)]
        else:
            options.append(_vec((GOLD,) * EXCHANGE_RATE))
            if converter:
                pool = [u for u in (range(RESOURCES) if converter_gold else BUILDING) if u != t]
                options += [_vec(c) for c in itertools.combinations_with_replacement(pool, CONVERTER_INPUTS)]
        paid = {
            q for p in paid for o in options
            if all((q := tuple(a + b for a, b in zip(p, o)))[i] <= storage[i] for i in range(RESOURCES))
        }
    return frozenset(tuple(s - p for s, p in zip(storage, q)) for q in paid)


@lru_cache(maxsize=None)
def upgrade_payments(storage: tuple[int, ...], gold: int, exchange_gold: bool) -> frozenset[tuple[int, ...]]:
    """Every distinct storage left after paying ``gold`` gold for an upgrade (spec 4.6): a gold
    cubes directly and the other units 3 building cubes each (any cubes with the flag)."""
    pool = range(RESOURCES) if exchange_gold else BUILDING
    out = set()
    for direct in range(min(gold, storage[GOLD]) + 1):
        for combo in itertools.combinations_with_replacement(pool, EXCHANGE_RATE * (gold - direct)):
            p = list(_vec(combo))
            p[GOLD] += direct
            if all(p[i] <= storage[i] for i in range(RESOURCES)):
                out.add(tuple(s - q for s, q in zip(storage, p)))
    return frozenset(out)


def _unit(t: int) -> tuple[int, ...]:
    v = [0] * RESOURCES
    v[t] = 1
    return tuple(v)


def _vec(cubes: Iterable[int]) -> tuple[int, ...]:
    v = [0] * RESOURCES
    for c in cubes:
        v[c] += 1
    return tuple(v)


# --- Task scoring (spec 8.2) --------------------------------------------------------------------

def task_points(tasks: Sequence[Task], machines: Sequence[Machine]) -> int:
    """The best total over subsets of tasks whose icons can all be matched to distinct machines,
    each machine serving one icon as its type or its region (a bipartite matching, E4)."""
    best = 0
    for r in range(len(tasks) + 1):
        for subset in itertools.combinations(tasks, r):
            pts = sum(t.points for t in subset)
            if pts > best and _matchable([i for t in subset for i in t.icons], machines):
                best = pts
    return best


def _matchable(icons: list[int], machines: Sequence[Machine]) -> bool:
    if len(icons) > len(machines):
        return False
    owner: dict[int, int] = {}                     # machine index -> icon index

    def augment(i: int, seen: set[int]) -> bool:
        for m, mach in enumerate(machines):
            if m in seen or icons[i] not in (mach.type, 4 + mach.region):
                continue
            seen.add(m)
            if m not in owner or augment(owner[m], seen):
                owner[m] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(icons)))


# --- State --------------------------------------------------------------------------------------

@dataclass
class Player:
    storage: list[int] = field(default_factory=lambda: [0] * RESOURCES)
    workshop: int = START_WORKSHOP
    supply: int = WORKERS_PER_PLAYER - START_WORKSHOP
    in_factory: list[int] = field(default_factory=lambda: [0] * FACTORIES)
    upgrades: list[bool] = field(default_factory=lambda: [False] * 3)
    tm_used: bool = False
    task: int = -1
    built: list[int] = field(default_factory=list)

    def copy(self) -> "Player":
        return Player(self.storage[:], self.workshop, self.supply, self.in_factory[:],
                      self.upgrades[:], self.tm_used, self.task, self.built[:])

    @property
    def capacity(self) -> int:
        return 4 if self.upgrades[FOURTH_WORKER] else 3


class WolsungReference:
    """Static rules context: data, player count and options."""

    def __init__(self, data: Any, players: int, options: Any = None):
        if players not in (2, 3, 4):
            raise ValueError(f"Wolsung is for 2-4 players, not {players}")
        self.data: RefData = data if isinstance(data, RefData) else from_game_data(data)
        self.players = players
        self.options = ref_options(options)
        self.rounds = 25 if players <= 3 else 29                     # spec 1, 3.2
        self.mode = 1 if players == 4 else 0                         # spec 3.2: SMALL / LARGE
        self.deck_a = frozenset(i for i, m in enumerate(self.data.machines) if m.vp <= 2) | {self.data.strike}
        self.deck_b = frozenset(i for i, m in enumerate(self.data.machines) if m.vp >= 3)
        self.change_cards = sum(s.change for s in self.data.specials)
        self.task_cache: dict[tuple[int, tuple[int, ...]], int] = {}

    def initial_state(self) -> "WolsungRefState":
        return WolsungRefState(self)


class WolsungRefState:
    def __init__(self, ref: WolsungReference):
        self.ref = ref
        d, n = ref.data, ref.players
        self.round = 1
        self.start_player = 0
        self.players = [Player() for _ in range(n)]
        self.sidings = [list(d.sidings[f][ref.mode]) for f in range(FACTORIES)]
        self.general = list(d.supply) if ref.options.finite_supply else None   # WO-A19
        for f in range(FACTORIES):
            if self.general is not None:
                for t in range(RESOURCES):
                    self.general[t] -= self.sidings[f][t]
        self.fe = FE_ON_BOARD
        self.office: list[int | None] = [None] * OFFICE_SLOTS       # index 0 = slot 1 (top)
        self.deck = set(ref.deck_a)                                 # the draw deck (unordered)
        self.deck_b = set(ref.deck_b)
        self.discard: list[int] = []
        # pending node
        self.node = "start"
        self.actor = -1
        self.winners: list[int] = []
        # continuation of the running phase (see _advance)
        self.phase = "setup"
        self.after_draw: list[tuple] = []     # stack of what to do once a drawn slot is filled
        self.draw_slot = 0
        # factory phase
        self.factories: list[int] = []
        self.fac_idx = 0
        self.counts: list[int] = []
        self.neutral_count = 0
        self.specials_used: set[int] = set()
        self.tm_queue: list[int] = []
        self.ranking: list[list[int]] = []    # groups of equal counts, best first
        self.track: list[int] = []
        self.neutral_order: tuple[int, ...] = ()
        self.pick_turn = 0
        self.picks_left = 0
        self.idle_turns = 0
        # worker phase
        self.to_place: list[int] = []
        # machine phase
        self.pass_run = 0
        self.built_this_phase = False
        self._moves: list[int] | None = None
        self._advance_setup()

    # ------------------------------------------------------------------ public interface

    def current_player(self) -> int:
        if self.node == "over":
            return -2
        if self.node in CHANCE_NODES:
            return -1
        return self.actor

    def is_chance(self) -> bool:
        return self.node in CHANCE_NODES

    def is_terminal(self) -> bool:
        return self.node == "over"

    def legal_moves(self) -> list[int]:
        if self.node == "over" or self.node in CHANCE_NODES:
            return []
        if self._moves is None:
            self._moves = sorted(set(self._generate_moves()))
        return list(self._moves)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.node not in CHANCE_NODES:
            return []
        weighted = self._weighted_outcomes()
        total = sum(w for _, w in weighted)
        return [(o, w / total) for o, w in weighted]

    def apply(self, move: int) -> None:
        """Apply a decision move or a chance outcome; ValueError (state unchanged) if not legal."""
        if isinstance(move, bool):
            raise ValueError(f"not a move id: {move!r}")
        try:
            move = operator.index(move)
        except TypeError:
            raise ValueError(f"not a move id: {move!r}") from None
        if self.node == "over":
            raise ValueError("the game is over")
        if self.node in CHANCE_NODES:
            if move not in {o for o, _ in self._weighted_outcomes()}:
                raise ValueError(f"{move} is not a chance outcome here ({self.node})")
            self._moves = None
            self._apply_chance(move)
        else:
            if move not in self.legal_moves():
                raise ValueError(f"{move} is not a legal move here ({self.node})")
            self._moves = None
            self._apply_decision(move)
        self._settle()

    def sample_chance(self, rng: random.Random) -> int:
        outcomes = self._weighted_outcomes()
        pick = rng.randrange(sum(w for _, w in outcomes))
        for o, w in outcomes:
            pick -= w
            if pick < 0:
                return o
        raise AssertionError("unreachable")

    def scores(self) -> list[float]:
        """Machine VP plus task points (spec 8.2), at any node (the contract's current value)."""
        m = self.ref.data.machines
        return [float(sum(m[c].vp for c in pl.built) + self._task_points(p))
                for p, pl in enumerate(self.players)]

    def returns(self) -> list[float]:
        n = self.ref.players
        if self.node != "over":
            return [0.0] * n
        return [1.0 / len(self.winners) if p in self.winners else 0.0 for p in range(n)]

    def clone(self) -> "WolsungRefState":
        c = object.__new__(WolsungRefState)
        c.__dict__.update(self.__dict__)
        c.players = [pl.copy() for pl in self.players]
        c.sidings = [s[:] for s in self.sidings]
        c.general = None if self.general is None else self.general[:]
        c.office = self.office[:]
        c.deck, c.deck_b, c.discard = set(self.deck), set(self.deck_b), self.discard[:]
        c.after_draw = self.after_draw[:]
        c.factories, c.counts = self.factories[:], self.counts[:]
        c.specials_used, c.tm_queue = set(self.specials_used), self.tm_queue[:]
        c.ranking = [g[:] for g in self.ranking]
        c.track, c.to_place = self.track[:], self.to_place[:]
        return c

    def __repr__(self) -> str:
        return f"WolsungRefState(round={self.round}, node={self.node}, actor={self.actor})"

    # ------------------------------------------------------------------ what a player sees (4.9, 6)

    def open_factory(self) -> int | None:
        """The factory being resolved: its counts are public from its opening (4.3 step 1)."""
        if self.phase == "factory" and self.node != "over":
            return self.factories[self.fac_idx]
        return None

    def visible_workers(self, viewer: int) -> tuple[list[list[int]], list[int]]:
        """Workers in the factories as `viewer` sees them: per seat and factory, and per seat the
        number viewer cannot place. Open placement: everything. Hidden placement (4.9): another
        player's workers are seen only in the factory being resolved; their total stays public
        (placed totals and workshops are public, 4.9)."""
        n = self.ref.players
        seen = [pl.in_factory[:] for pl in self.players]
        hidden = [0] * n
        if self.ref.options.hidden_placement:
            open_f = self.open_factory()
            for p in range(n):
                if p == viewer:
                    continue
                for f in range(FACTORIES):
                    if f != open_f:
                        hidden[p] += seen[p][f]
                        seen[p][f] = 0
        return seen, hidden

    def move_view(self, move: int, viewer: int) -> int:
        """What `viewer` sees of `move` made here: under 4.9 another player's placement is seen
        as its total only; a task card dealt to another seat is seen face down (6)."""
        kind, arg = move % KIND, move // KIND
        if kind == DEAL and self.dealt_seat() != viewer:
            return _move(DEAL, 31)
        if kind == PLACE and self.ref.options.hidden_placement and self.actor != viewer:
            return _move(PLACE_HIDDEN, arg % 5 + arg // 5 % 5 + arg // 25)
        return move

    def dealt_seat(self) -> int:
        """The seat the next DEAL outcome goes to (setup, C3)."""
        return sum(pl.task >= 0 for pl in self.players)

    # ------------------------------------------------------------------ helpers

    def _task_points(self, p: int) -> int:
        pl = self.players[p]
        if pl.task < 0:
            return 0
        key = (pl.task, tuple(sorted(pl.built)))
        cache = self.ref.task_cache
        if key not in cache:
            cache[key] = task_points(self.ref.data.tasks[pl.task], [self.ref.data.machines[c] for c in pl.built])
        return cache[key]

    def _settle(self) -> None:
        """Apply forced decisions (a single legal move) until a real node is reached."""
        while self.node not in CHANCE_NODES and self.node != "over":
            moves = self.legal_moves()
            if len(moves) != 1:
                return
            self._moves = None
            self._apply_decision(moves[0])

    def _seat_order(self, first: int) -> list[int]:
        n = self.ref.players
        return [(first + i) % n for i in range(n)]

    def _to_general(self, t: int, k: int = 1) -> None:
        if self.general is not None:
            self.general[t] += k

    # ------------------------------------------------------------------ setup (spec 3)

    def _advance_setup(self) -> None:
        """Setup chance (contract "Setup"), in this order: the office filled bottom slot first
        (C1; a Strike here is resolved, WO-A12 a), the task cards dealt seat by seat (C3), then
        the start player (C4) unless an option fixes it."""
        self.phase = "setup"
        self._fill_empty_slots(("deal",))
        self._settle()

    def _setup_step(self) -> None:
        for p, pl in enumerate(self.players):
            if pl.task < 0:
                self.node, self.actor = "deal", p
                return
        if self.ref.options.start_player is None:
            self.node = "start"
            return
        self.start_player = self.ref.options.start_player
        self._begin_round()

    # ------------------------------------------------------------------ office and deck (4.4.3)

    def _fill_empty_slots(self, then: tuple) -> None:
        """Fill every empty slot, bottom first (setup, merges: WO-A14); then continue ``then``."""
        for slot in reversed(range(OFFICE_SLOTS)):
            if self.office[slot] is None and self.deck:
                self._draw_into(slot, ("fill_empty", then))
                return
        self._continue(then)

    def _draw_into(self, slot: int, then: tuple) -> None:
        """A C5 draw into ``slot``; an empty deck leaves it empty (WO-A14)."""
        if not self.deck:
            self._continue(then)
            return
        self.draw_slot = slot
        self.after_draw.append(then)
        self.node = "draw"

    def _drawn(self, card: int) -> None:
        self.deck.discard(card)
        if card == self.ref.data.strike:
            self.discard.append(card)                     # 4.4.5: the Strike is discarded
            self.node = "strike"                          # C6; then draw again (WO-A12 b)
            return
        self.office[self.draw_slot] = card
        self._continue(self.after_draw.pop())

    def _strike(self, first: int, second: int) -> None:
        for p, loss in zip((first, second), STRIKE_LOSS):
            pl = self.players[p]
            k = min(loss, pl.workshop)                    # WO-A12 c
            pl.workshop -= k
            pl.supply += k
        self._draw_into(self.draw_slot, self.after_draw.pop())

    def _shift_and_draw(self, removed_slot: int, then: tuple) -> None:
        """Remove slot k; slots above move down one; draw into slot 1 (4.4.3, WO-A24)."""
        for s in range(removed_slot, 0, -1):
            self.office[s] = self.office[s - 1]
        self.office[0] = None
        self._draw_into(0, then)

    def _continue(self, then: tuple) -> None:
        kind = then[0]
        if kind == "fill_empty":
            self._fill_empty_slots(then[1])
        elif kind == "deal":
            self._setup_step()
        elif kind == "machine_turn":
            self._next_machine_turn()
        elif kind == "end_machine_phase":
            self._end_machine_phase_done()
        elif kind == "after_merge":
            self._end_round_continue(then[1])
        else:
            raise AssertionError(then)

    # ------------------------------------------------------------------ worker phase (4.2)

    def _begin_round(self) -> None:
        self.phase = "worker"
        self.to_place = self._seat_order(self.start_player)
        self._next_placement()

    def _next_placement(self) -> None:
        if self.to_place:
            self.node, self.actor = "place", self.to_place[0]
            return
        for pl in self.players:                           # 4.2 step 4, WO-A17
            k = min(pl.capacity - pl.workshop, pl.supply)
            pl.workshop += k
            pl.supply -= k
        if self.ref.data.schedule[self.round]:
            order = self.ref.data.factory_order
            self.factories = sorted(self.ref.data.schedule[self.round], key=order.index)
            self.fac_idx = 0
            self.phase = "factory"
            for pl in self.players:
                pl.tm_used = False
            self._open_factory()
        else:
            self._end_round()

    # ------------------------------------------------------------------ factory phase (4.3)

    def _open_factory(self) -> None:
        f = self.factories[self.fac_idx]
        self.counts = [pl.in_factory[f] for pl in self.players]
        self.specials_used = set()                        # one draw event per factory (WO-A5)
        self.neutral_count = 0
        if self.ref.players == 2:
            self.node = "ncount"                          # C9
            return
        self._open_tm_window()

    def _open_tm_window(self) -> None:
        if self.ref.options.time_machine_per_factory:
            for pl in self.players:
                pl.tm_used = False
        self.tm_queue = [p for p in self._seat_order(self.start_player)]
        self._next_tm()

    def _next_tm(self) -> None:
        while self.tm_queue:
            p = self.tm_queue[0]
            pl = self.players[p]
            if pl.upgrades[TIME_MACHINE] and not pl.tm_used and pl.workshop >= 1:
                self.node, self.actor = "tm", p
                return
            self.tm_queue.pop(0)
        self._rank()

    def _rank(self) -> None:
        f = self.factories[self.fac_idx]
        entries = [(c, p) for p, c in enumerate(self.counts) if c >= 1]     # WO-A10
        if self.neutral_count >= 1:
            entries.append((self.neutral_count, NEUTRAL))
        by_count: dict[int, list[int]] = {}
        for c, e in entries:
            by_count.setdefault(c, []).append(e)
        self.ranking = [sorted(by_count[c]) for c in sorted(by_count, reverse=True)]
        self.track = []
        # Workers leave the factory: all back to personal supply by the end of its resolution
        # (WO-A16); nothing observable happens in between, so return them now.
        for pl in self.players:
            pl.supply += pl.in_factory[f]
            pl.in_factory[f] = 0
        self._resolve_ties()

    def _resolve_ties(self) -> None:
        while self.ranking:
            group = self.ranking[0]
            if len(group) > 1:
                self.node = "tie"                         # C7, one node per tied group
                return
            self.track.append(group[0])
            self.ranking.pop(0)
        if self.ref.players == 2 and NEUTRAL in self.track:
            self.node = "norder"                          # C10
            return
        self._begin_picking()

    def _begin_picking(self) -> None:
        self.pick_turn = 0
        self.picks_left = 2
        self.idle_turns = 0
        self.picked_this_turn = 0
        self._next_pick()

    def _fe_offerable(self) -> bool:
        return self.fe == FE_ON_BOARD

    def _pick_options(self, e: int) -> list[int]:
        f = self.factories[self.fac_idx]
        siding = self.sidings[f]
        if e == NEUTRAL:                                  # 4.8: highest-ranked type present
            for t in self.neutral_order:
                if siding[t] > 0:
                    return [t]
            return []
        st = self.players[e].storage
        opts = [t for t in range(RESOURCES) if siding[t] > 0 and st[t] < STORAGE_CAP]
        if self.fe == FE_ON_BOARD and not (self.ref.options.fe_single_pick_only and self.pick_turn == 0):
            opts.append(FE_PICK)
        return opts

    def _fe_forced_here(self) -> bool:
        """WO-A4 (b): picking may not end while the FE is on the board and a player ranks here."""
        if self.fe != FE_ON_BOARD:
            return False
        if not any(e != NEUTRAL for e in self.track):
            return False
        if self.ref.options.fe_forced_last_factory_only:
            return self.fac_idx == len(self.factories) - 1
        return True

    def _next_pick(self) -> None:
        """The pick loop of 4.3 step 5."""
        f = self.factories[self.fac_idx]
        k = len(self.track)
        while True:
            if k == 0:
                break
            e = self.track[self.pick_turn % k]
            if self.picks_left > 0:
                opts = self._pick_options(e)
                if opts:
                    if e == NEUTRAL:
                        self._take(e, opts[0])
                        continue
                    self.node, self.actor = "pick", e
                    return
            # this turn is over
            if self.picked_this_turn:
                self.idle_turns = 0
            else:
                self.idle_turns += 1
            cubes_left = sum(self.sidings[f])
            if cubes_left == 0 and not self._fe_forced_here():
                break
            if self.idle_turns >= k:
                break
            self.pick_turn += 1
            self.picks_left = 1
            self.picked_this_turn = 0
        self._end_factory()

    def _take(self, e: int, item: int) -> None:
        f = self.factories[self.fac_idx]
        if item == FE_PICK:
            self.fe = e
        else:
            self.sidings[f][item] -= 1
            if e == NEUTRAL:
                self._to_general(item)                    # 4.8: neutral cubes go to supply
            else:
                self.players[e].storage[item] += 1
        self.picks_left -= 1
        self.picked_this_turn += 1

    def _end_factory(self) -> None:
        f = self.factories[self.fac_idx]
        for t in range(RESOURCES):                        # leftovers to the general supply
            self._to_general(t, self.sidings[f][t])
            self.sidings[f][t] = 0
        self.fac_idx += 1
        if self.fac_idx < len(self.factories):
            self._open_factory()
            return
        for f in self.factories:                          # step 8: refill (WO-A19 if finite)
            full = self.ref.data.sidings[f][self.ref.mode]
            for t in range(RESOURCES):
                k = full[t]
                if self.general is not None:
                    k = min(k, self.general[t])
                    self.general[t] -= k
                self.sidings[f][t] = k
        if self.fe == FE_ON_BOARD:                        # WO-A4 (c)
            self.fe = self.start_player
        self._begin_machine_phase()

    # ------------------------------------------------------------------ machine phase (4.4)

    def _begin_machine_phase(self) -> None:
        self.phase = "machine"
        self.pass_run = 0
        self.built_this_phase = False
        self.actor = self.fe                              # WO-A6
        self.node = "machine"

    def _next_machine_turn(self) -> None:
        if self.pass_run >= self.ref.players:             # WO-A6: N consecutive passes
            self._end_machine_phase()
            return
        self.node = "machine"

    def _end_machine_phase(self) -> None:
        if not self.built_this_phase:
            self._office_change()
        else:
            self.node = "change"                          # C8

    def _office_change(self) -> None:
        if self.office[2] is not None:
            self.discard.append(self.office[2])
        self._shift_and_draw(2, ("end_machine_phase",))

    def _end_machine_phase_done(self) -> None:
        self.fe = FE_ON_BOARD                             # 4.4.4 step 2
        self._end_round()

    # ------------------------------------------------------------------ end of round (4.7)

    def _end_round(self) -> None:
        self.phase = "end_round"
        self.start_player = (self.start_player + 1) % self.ref.players
        self._end_round_continue(0)

    def _end_round_continue(self, stage: int) -> None:
        if stage == 0:
            if self.round == ROUND_MERGE_B:               # WO-A25
                self.deck |= self.deck_b
                self.deck_b = set()
                self._fill_empty_slots(("after_merge", 1))
                return
            stage = 1
        if stage == 1:
            if self.round == ROUND_RECYCLE:               # WO-A13
                strike = self.ref.data.strike
                back = [c for c in self.discard if c != strike or self.ref.options.strike_returns_at_22]
                self.discard = [c for c in self.discard if c not in back]
                self.deck |= set(back)
                self._fill_empty_slots(("after_merge", 2))
                return
        if self.round == self.ref.rounds:
            self._game_over()
            return
        self.round += 1
        self._begin_round()

    def _game_over(self) -> None:
        self.node = "over"
        self.actor = -2
        scores = self.scores()
        best = max(scores)
        tied = [p for p in range(self.ref.players) if scores[p] == best]
        if len(tied) > 1:                                 # 8.3, WO-A22
            cubes = {p: sum(self.players[p].storage) for p in tied}
            top = max(cubes.values())
            tied = [p for p in tied if cubes[p] == top]
        if len(tied) > 1:
            m = self.ref.data.machines
            best_vp = {p: max((m[c].vp for c in self.players[p].built), default=0) for p in tied}
            top = max(best_vp.values())
            tied = [p for p in tied if best_vp[p] == top]
        self.winners = tied

    # ------------------------------------------------------------------ decisions

    def _generate_moves(self) -> list[int]:
        p = self.actor
        if self.node == "place":
            w = self.players[p].workshop
            return [place_move((a, b, w - a - b)) for a in range(w + 1) for b in range(w - a + 1)]
        if self.node == "tm":
            return [time_move(False), time_move(True)]
        if self.node == "pick":
            return [pick_move(i) for i in self._pick_options(p)]
        if self.node == "machine":
            return self._machine_moves(p)
        raise AssertionError(self.node)

    def _machine_moves(self, p: int) -> list[int]:
        o = self.ref.options
        pl = self.players[p]
        st = tuple(pl.storage)
        moves = [PASS_MOVE]
        for slot, card in enumerate(self.office):
            if card is None:
                continue
            for r in machine_payments(st, self.ref.data.machines[card].cost, pl.upgrades[CONVERTER],
                                      o.converter_accepts_gold, o.exchange_allows_gold_input):
                moves.append(build_move(slot, r))
        for u in range(3):
            if not pl.upgrades[u]:
                for r in upgrade_payments(st, UPGRADE_COST[u], o.exchange_allows_gold_input):
                    moves.append(upgrade_move(u, r))
        return moves

    def _apply_decision(self, move: int) -> None:
        kind, arg = move % KIND, move // KIND
        p = self.actor
        pl = self.players[p]
        if kind == PLACE:
            a = (arg % 5, arg // 5 % 5, arg // 25)
            for f in range(FACTORIES):
                pl.in_factory[f] += a[f]
            pl.workshop -= sum(a)
            self.to_place.pop(0)
            self._next_placement()
        elif kind == TIME:
            self.tm_queue.pop(0)
            if arg:
                f = self.factories[self.fac_idx]
                pl.workshop -= 1
                pl.tm_used = True
                self.counts[p] += 1
                pl.in_factory[f] += 1
            self._next_tm()
        elif kind == PICK:
            self._take(p, arg)
            self._next_pick()
        elif kind == PASS:
            self.pass_run += 1
            self.actor = (p + 1) % self.ref.players
            self._next_machine_turn()
        elif kind == BUILD:
            slot, result = arg % 3, storage_from_code(arg // 3)
            self._pay(pl, result)
            card = self.office[slot]
            pl.built.append(card)
            self.built_this_phase = True
            self.pass_run = 0
            self.actor = (p + 1) % self.ref.players
            self._shift_and_draw(slot, ("machine_turn",))
        elif kind == UPGRADE:
            u = arg % 3
            self._pay(pl, storage_from_code(arg // 3))
            pl.upgrades[u] = True
            if u == FOURTH_WORKER and pl.supply > 0:          # WO-A18
                pl.supply -= 1
                pl.workshop += 1
            self.pass_run = 0
            self.actor = (p + 1) % self.ref.players
            self._next_machine_turn()
        else:
            raise AssertionError(move)

    def _pay(self, pl: Player, result: tuple[int, ...]) -> None:
        for t in range(RESOURCES):
            self._to_general(t, pl.storage[t] - result[t])
            pl.storage[t] = result[t]

    # ------------------------------------------------------------------ chance

    def _weighted_outcomes(self) -> list[tuple[int, int]]:
        """(outcome, integer weight) of the pending chance node."""
        n = self.ref.players
        if self.node == "deal":                           # C3: one card per seat, in seat order
            seen = {pl.task for pl in self.players}
            return [(deal_outcome(c), 1) for c in range(len(self.ref.data.tasks)) if c not in seen]
        if self.node == "start":                          # C4
            return [(start_outcome(p), 1) for p in range(n)]
        if self.node == "draw":                           # C5
            return [(draw_outcome(c), 1) for c in sorted(self.deck)]
        if self.node == "strike":                         # C6
            return [(strike_outcome(a, b), 1) for a in range(n) for b in range(n) if a != b]
        if self.node == "ncount":                         # C9
            return [(ncount_outcome(c), 1) for c in range(SPECIALS)]
        if self.node == "tie":                            # C7
            return [(tie_outcome(perm), 1) for perm in itertools.permutations(self.ranking[0])]
        if self.node == "norder":                         # C10
            return [(norder_outcome(c), 1) for c in range(SPECIALS) if c not in self.specials_used]
        if self.node == "change":                         # C8
            s = self.ref.change_cards
            return [(o, w) for o, w in ((change_outcome(False), SPECIALS - s), (change_outcome(True), s)) if w]
        raise AssertionError(self.node)

    def _apply_chance(self, o: int) -> None:
        kind, arg = o % KIND, o // KIND
        if kind == DEAL:
            self.players[self.actor].task = arg
            self._setup_step()
        elif kind == START:
            self.start_player = arg
            self._begin_round()
        elif kind == DRAW:
            self._drawn(arg)
        elif kind == STRIKE:
            self._strike(arg % 4, arg // 4)
        elif kind == NCOUNT:
            card = arg
            self.specials_used.add(card)
            self.neutral_count = self.ref.data.specials[card].value
            self._open_tm_window()
        elif kind == TIE:
            k = len(self.ranking[0])
            order = [arg // 5 ** i % 5 for i in range(k)]
            self.track.extend(order)
            self.ranking.pop(0)
            self._resolve_ties()
        elif kind == NORDER:
            card = arg
            self.specials_used.add(card)
            self.neutral_order = self.ref.data.specials[card].order
            self._begin_picking()
        elif kind == CHANGE:
            if arg:
                self._office_change()
            else:
                self._end_machine_phase_done()
        else:
            raise AssertionError(o)


CHANCE_NODES = frozenset({"deal", "start", "draw", "strike", "ncount", "tie", "norder", "change"})


def from_game_data(data: Any) -> RefData:
    """The native game's data object (contract "g.data", ``WolsungData``) in the reference's
    shape. Only plain fields are read, so the reference does not depend on the loader."""
    return RefData(
        schedule=((),) + tuple(tuple(r) for r in data.schedule),
        factory_order=tuple(data.factory_order),
        sidings=tuple((tuple(data.siding_small[f]), tuple(data.siding_large[f])) for f in range(FACTORIES)),
        machines=tuple(Machine(m.type, m.region, m.vp, tuple(m.cost) + (0,) * (RESOURCES - len(m.cost)))
                       for m in data.machines),
        tasks=tuple(tuple(Task(t.points, tuple(t.icons)) for t in k.tasks) for k in data.task_cards),
        specials=tuple(Special(c.value, bool(c.change), tuple(c.order)) for c in data.specials),
        supply=tuple(data.supply),
    )


def random_playout(ref: WolsungReference, rng: random.Random) -> tuple[list[float], int]:
    """One game from ref.initial_state() played uniformly at random: (final scores, decisions taken)."""
    return playout(ref.initial_state(), rng)
