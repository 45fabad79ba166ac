"""Coal Baron component data: schema, validation, and the table handed to the C core.

The Hungarian rulebook gives the rules and setup counts but not the printed components (spec
2.4): the order cards, tunnel tiles and worker-space values come from the spec's section 2.5.
All of it is data: ``python/eurosearch/data/coal_baron.toml`` by default, or a user's own file
(``es.game("coal_baron", data=path)``). The engine contract (docs/coal_baron_engine.md) names
the attributes of :class:`CoalBaronData` that the C core and the reference both use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..gamedata import DataError, Entry, SourceLedger, check_id, name_ints, read_file

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "data" / "coal_baron.toml"

#: Layout version of the int32 table (see csrc/games/coal_baron.h).
TABLE_VERSION = 1
PLAYER_COUNTS = (2, 3, 4)
COLOURS = ("Y", "B", "G", "K")            # level of colour c is c + 1
VEHICLES = ("WB", "HC", "TR", "LO")
SIDES = ("light", "dark")
#: Rulebook counts (spec 2.1): the C state is sized for these.
ORDER_CARDS = 44
CARDS_PER_VEHICLE = 11
TUNNEL_TILES = 48
TILE_TYPES = 16
WORKERS_PER_COLOUR = 18
SHIFTS = 3
#: The shift clock's elements in scoring order (spec 7.2) and what each counts.
ELEMENTS = (
    ("yellow", "colour"), ("brown", "colour"), ("grey", "colour"), ("black", "colour"),
    ("wheelbarrow", "vehicle"), ("horse_cart", "vehicle"), ("truck", "vehicle"), ("locomotive", "vehicle"),
    ("empty_yellow", "empty_carts"), ("empty_brown", "empty_carts"), ("empty_grey", "empty_carts"),
    ("empty_black", "empty_carts"),
)
#: Worker-space kinds with their code in the C table, and the board sections in engine order
#: (section key, kind, number of spaces; None = one space given as a table).
SPACE_KINDS = {"factory": 0, "factory_draw": 1, "mining": 2, "delivery": 3, "money": 4, "order": 5, "order_draw": 6}
BOARD_SECTIONS = (
    ("factory", "factory", 8), ("factory_draw", "factory_draw", None), ("mining", "mining", 4),
    ("delivery", "delivery", 4), ("money", "money", 4), ("orders", "order", 4), ("order_draw", "order_draw", None),
)
SPACES = 26
BANK = 26                                  # PLACE(26) is the Bank (not a space)
RESERVED_IDS = ("bank", "none", "top", "bottom")  # words of the text move syntax
# Engine caps (the C state's field widths), not rules.
MAX_COAL = 32
MAX_DRAW = 8
MAX_CAGE = 10


@dataclass(frozen=True)
class OrderCard:
    """An order card: its vehicle (0..3), VP and order spaces per colour (Y, B, G, K)."""

    index: int
    id: str
    vehicle: int
    vp: int
    spaces: tuple[int, int, int, int]

    @property
    def total_spaces(self) -> int:
        return sum(self.spaces)


@dataclass(frozen=True)
class TileType:
    """A tunnel-tile type: index ``4*colour + 2*(carts-1) + side`` (side 0 Light, 1 Dark)."""

    index: int
    id: str
    colour: int
    carts: int
    side: int
    copies: int
    cost: int


@dataclass(frozen=True)
class Space:
    """A worker space in engine order: ``value`` is the work steps (mining), the Marks (money),
    the vehicle (delivery), else 0. Locked (absent) when ``min_players`` exceeds the players."""

    index: int
    id: str
    kind: str
    value: int
    min_players: int

    def open(self, players: int) -> bool:
        return self.min_players <= players


@dataclass(frozen=True)
class CoalBaronData:
    """A validated Coal Baron data set (attribute names: docs/coal_baron_engine.md)."""

    origin: str
    status: str
    cards: tuple[OrderCard, ...]
    tiles: tuple[TileType, ...]
    spaces: tuple[Space, ...]
    cart_cost: tuple[int, int, int, int]
    workers: dict[int, int]
    money: dict[int, int]
    draft_pool: dict[int, int]
    draft_picks: int
    leftover_slot: int
    coal_per_colour: int
    cage_capacity: int
    draw_count: int
    bank_marks: int
    shift_clock: tuple[tuple[int, int], ...]
    elements_per_shift: int
    marks_per_vp: int
    cubes_per_vp: int
    outstanding_penalty: int
    balance_penalty: int
    sources: dict[str, Any] = field(compare=False, default_factory=dict)

    def card_index(self, card_id: str) -> int:
        for c in self.cards:
            if c.id == card_id:
                return c.index
        raise KeyError(card_id)

    def tile_index(self, tile_id: str) -> int:
        for t in self.tiles:
            if t.id == tile_id:
                return t.index
        raise KeyError(tile_id)

    def space_index(self, space_id: str) -> int:
        if space_id.lower() == "bank":
            return BANK
        for s in self.spaces:
            if s.id == space_id:
                return s.index
        raise KeyError(space_id)


def load(path: str | Path | None = None) -> CoalBaronData:
    """Load and validate a Coal Baron data file (the bundled one by default)."""
    p = Path(path) if path is not None else DEFAULT_DATA
    return validate(read_file(p), str(p))


def validate(raw: dict[str, Any], origin: str = "<data>") -> CoalBaronData:
    """Check every entry of a parsed data file and build a :class:`CoalBaronData`."""
    ledger = SourceLedger()
    top = Entry(origin, "", raw)

    meta = top.sub("meta")
    status = meta.str("status", "unknown")
    meta.int("schema", 1, lo=1, hi=1)
    meta.done(("game", "published_data"))

    setup = top.sub("setup")
    workers = _per_count(setup, "workers", 1, WORKERS_PER_COLOUR)
    money = _per_count(setup, "money", 0, 100)
    draft_pool = _per_count(setup, "draft_pool", 1, ORDER_CARDS)
    picks = setup.int("draft_picks", lo=1, hi=5)
    for n in PLAYER_COUNTS:
        if draft_pool[n] != n * picks + 1:
            setup.fail("draft_pool", f"{draft_pool[n]} cards for {n} players; the draft needs {n} x {picks} picks "
                                     f"+ 1 leftover card = {n * picks + 1} (rulebook)")
    leftover_id = setup.str("leftover_slot")
    setup.tag(ledger, parts=("workers", "money", "draft", "leftover_slot"))
    setup.done()

    comp = top.sub("components")
    coal = comp.int("coal_per_colour", lo=len(PLAYER_COUNTS) + 1, hi=MAX_COAL)
    cage = comp.int("cage_capacity", lo=1, hi=MAX_CAGE)
    draw = comp.int("draw_count", lo=1, hi=MAX_DRAW)
    bank = comp.int("bank_marks", lo=0, hi=20)
    cc = comp.sub("cart_cost")
    cart_cost = tuple(cc.int(c, lo=0, hi=20) for c in COLOURS)
    cc.done()
    comp.tag(ledger)
    comp.done()

    sc = top.sub("shift_clock")
    per_shift = sc.int("elements_per_shift", lo=1, hi=12)
    rows = sc.table_list("elements")
    if len(rows) != len(ELEMENTS):
        sc.fail("elements", f"{len(rows)} elements; the shift clock has {len(ELEMENTS)} (rulebook)")
    if per_shift * SHIFTS != len(ELEMENTS):
        sc.fail("elements_per_shift", f"{per_shift} x {SHIFTS} shifts must cover the {len(ELEMENTS)} elements")
    clock = []
    for i, row in enumerate(rows):
        e = Entry(origin, f"shift_clock.elements[{i}]", row)
        want_id, want_counts = ELEMENTS[i]
        e.str("id", choices=(want_id,))
        e.where = f"shift_clock.elements[{i}] ({want_id})"
        e.str("counts", choices=(want_counts,))
        first = e.int("first", lo=0, hi=50)
        second = e.int("second", lo=0, hi=50)
        e.tag(ledger)
        e.done()
        clock.append((first, second))
    sc.done()

    fin = top.sub("final")
    marks_per_vp = fin.int("marks_per_vp", lo=1, hi=20)
    cubes_per_vp = fin.int("cubes_per_vp", lo=1, hi=20)
    outstanding = fin.int("outstanding_penalty", lo=0, hi=10)
    balance = fin.int("balance_penalty", lo=0, hi=10)
    fin.tag(ledger)
    fin.done()

    spaces = _board(top.sub("board"), ledger)
    by_id = {s.id: s for s in spaces}
    if leftover_id not in by_id or by_id[leftover_id].kind != "order":
        setup.fail("leftover_slot", f"{leftover_id!r} is not an order display slot "
                                    f"({', '.join(s.id for s in spaces if s.kind == 'order')})")
    if by_id[leftover_id].min_players != min(PLAYER_COUNTS):
        setup.fail("leftover_slot", f"{leftover_id!r} is locked with {min(PLAYER_COUNTS)} players; the leftover "
                                    "card's slot is open at every player count (CB-A14)")

    deck = top.sub("deck")
    cards = _cards(deck, ledger)
    tiles = _tiles(deck, ledger, cart_cost)
    deck.done()
    top.done()

    data = CoalBaronData(
        origin=origin, status=status, cards=tuple(cards), tiles=tuple(tiles), spaces=tuple(spaces),
        cart_cost=cart_cost, workers=workers, money=money, draft_pool=draft_pool, draft_picks=picks,
        leftover_slot=by_id[leftover_id].index, coal_per_colour=coal, cage_capacity=cage, draw_count=draw,
        bank_marks=bank, shift_clock=tuple(clock), elements_per_shift=per_shift, marks_per_vp=marks_per_vp,
        cubes_per_vp=cubes_per_vp, outstanding_penalty=outstanding, balance_penalty=balance,
    )
    object.__setattr__(data, "sources", ledger.report("coal_baron", origin, status))
    return data


def _per_count(e: Entry, key: str, lo: int, hi: int) -> dict[int, int]:
    sub = e.sub(key)
    out = {n: sub.int(str(n), lo=lo, hi=hi) for n in PLAYER_COUNTS}
    sub.done()
    return out




def _board(board: Entry, ledger: SourceLedger) -> list[Space]:
    spaces: list[Space] = []
    ids: set[str] = set()
    for key, kind, count in BOARD_SECTIONS:
        rows = [board.table.get(key)] if count is None else board.table_list(key)
        if count is None:
            board.sub(key)   # marks the key used; a missing or non-table value fails here
        elif len(rows) != count:
            board.fail(key, f"{len(rows)} spaces; the engine's board has {count} (spec 2.5.3)")
        vehicles_seen: set[int] = set()
        for i, row in enumerate(rows):
            where = f"board.{key}" if count is None else f"board.{key}[{i}]"
            e = Entry(board.origin, where, row)
            sid = e.str("id")
            check_id(e, sid, reserved=RESERVED_IDS)
            e.where = f"{where} ({sid})"
            if sid in ids:
                e.fail("id", f"duplicate id {sid!r}")
            ids.add(sid)
            value = 0
            if kind == "mining":
                value = e.int("steps", lo=1, hi=15)
            elif kind == "money":
                value = e.int("marks", lo=0, hi=20)
            elif kind == "delivery":
                value = VEHICLES.index(e.str("vehicle", choices=VEHICLES))
                if value in vehicles_seen:
                    e.fail("vehicle", f"{VEHICLES[value]} has two delivery spaces; one per vehicle (spec 4.7)")
                vehicles_seen.add(value)
            minp = e.int("min_players", lo=min(PLAYER_COUNTS), hi=max(PLAYER_COUNTS))
            e.tag(ledger)
            e.done()
            spaces.append(Space(len(spaces), sid, kind, value, minp))
    board.done()
    return spaces


def _cards(deck: Entry, ledger: SourceLedger) -> list[OrderCard]:
    rows = deck.table_list("orders")
    if len(rows) != ORDER_CARDS:
        deck.fail("orders", f"{len(rows)} order cards; the rulebook has {ORDER_CARDS}")
    out: list[OrderCard] = []
    ids: set[str] = set()
    per_vehicle = [0] * len(VEHICLES)
    for i, row in enumerate(rows):
        e = Entry(deck.origin, f"deck.orders[{i}]", row)
        cid = e.str("id")
        check_id(e, cid, reserved=RESERVED_IDS)
        e.where = f"deck.orders[{i}] ({cid})"
        if cid in ids:
            e.fail("id", f"duplicate id {cid!r}")
        ids.add(cid)
        vehicle = VEHICLES.index(e.str("vehicle", choices=VEHICLES))
        if i // CARDS_PER_VEHICLE != vehicle:
            e.fail("vehicle", f"row {i} must be a {VEHICLES[i // CARDS_PER_VEHICLE]} card: the rows are "
                              f"{CARDS_PER_VEHICLE} per vehicle in the order {', '.join(VEHICLES)} (engine card index)")
        per_vehicle[vehicle] += 1
        vp = e.int("vp", lo=0, hi=50)
        text = e.str("spaces")
        if any(ch not in COLOURS for ch in text) or not 1 <= len(text) <= 4:
            e.fail("spaces", f"{text!r}: 1 to 4 letters of {''.join(COLOURS)}, one per order space")
        spaces = tuple(text.count(c) for c in COLOURS)
        if max(spaces) > 3:
            e.fail("spaces", f"{text!r}: at most 3 spaces of one colour on a card")
        e.tag(ledger)
        e.done()
        out.append(OrderCard(i, cid, vehicle, vp, spaces))  # type: ignore[arg-type]
    return out


def _tiles(deck: Entry, ledger: SourceLedger, cart_cost: tuple[int, ...]) -> list[TileType]:
    rows = deck.table_list("tiles")
    if len(rows) != TILE_TYPES:
        deck.fail("tiles", f"{len(rows)} tile types; there is one per colour x minecarts x side, {TILE_TYPES}")
    out: list[TileType] = []
    ids: set[str] = set()
    for i, row in enumerate(rows):
        e = Entry(deck.origin, f"deck.tiles[{i}]", row)
        tid = e.str("id")
        check_id(e, tid, reserved=RESERVED_IDS)
        e.where = f"deck.tiles[{i}] ({tid})"
        if tid in ids:
            e.fail("id", f"duplicate id {tid!r}")
        ids.add(tid)
        colour = COLOURS.index(e.str("colour", choices=COLOURS))
        carts = e.int("carts", lo=1, hi=2)
        side = SIDES.index(e.str("side", choices=SIDES))
        if 4 * colour + 2 * (carts - 1) + side != i:
            e.fail("colour", f"row {i} must be the type 4*colour + 2*(carts-1) + side = {i} "
                             f"(colour {COLOURS[i // 4]}, {i % 4 // 2 + 1} minecart(s), {SIDES[i % 2]})")
        copies = e.int("copies", lo=0, hi=TUNNEL_TILES)
        e.tag(ledger)
        e.done()
        out.append(TileType(i, tid, colour, carts, side, copies, carts * cart_cost[colour]))
    total = sum(t.copies for t in out)
    if total != TUNNEL_TILES:
        deck.fail("tiles", f"the copies add up to {total}; the rulebook has {TUNNEL_TILES} tunnel tiles")
    return out


def to_table(d: CoalBaronData) -> list[int]:
    """Flatten a data set into the int32 table layout of ``csrc/games/coal_baron.h``."""
    t = [TABLE_VERSION]
    t += [d.workers[n] for n in PLAYER_COUNTS]
    t += [d.money[n] for n in PLAYER_COUNTS]
    t += [d.draft_pool[n] for n in PLAYER_COUNTS]
    t += [d.draft_picks, d.leftover_slot, d.coal_per_colour, d.cage_capacity, d.draw_count, d.bank_marks]
    t += list(d.cart_cost)
    t += [d.elements_per_shift]
    for first, second in d.shift_clock:
        t += [first, second]
    t += [d.marks_per_vp, d.cubes_per_vp, d.outstanding_penalty, d.balance_penalty]
    for s in d.spaces:
        t += [SPACE_KINDS[s.kind], s.value, s.min_players]
    for c in d.cards:
        t += [c.vehicle, c.vp, *c.spaces]
    for tt in d.tiles:
        t += [tt.colour, tt.carts, tt.side, tt.copies]
    for name in [s.id for s in d.spaces] + [c.id for c in d.cards] + [tt.id for tt in d.tiles]:
        t += name_ints(name)
    return t



__all__ = ["CoalBaronData", "DataError", "OrderCard", "Space", "TileType", "load", "to_table", "validate"]
