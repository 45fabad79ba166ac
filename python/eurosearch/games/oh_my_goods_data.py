"""Oh My Goods! component data: schema, validation, and the table handed to the C core.

The rulebook gives no card list (spec 2.7); the bundled file holds the third-party card data of
spec 2.8 and provisional placeholders for what nobody has transcribed (the assistants).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..gamedata import DataError, Entry, SourceLedger, id_entry, name_ints, read_file

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "data" / "oh_my_goods.toml"

TABLE_VERSION = 1
#: Resources in engine order (ids 1..5).
RESOURCES = ("grain", "wood", "clay", "stone", "wool")
#: Colour indices used by assistant requirements: the five resources, then the Charburner.
COLOUR_KEYS = RESOURCES + ("charburner",)
DECK_CARDS = 94           # spec 2.1: 110 cards = 4 Charburners + 4 workers + 8 assistants + 94
GREEN_CARDS = 26          # spec 2.3: "26 green cards, 17 of every other type"
OTHER_CARDS = 17
CHARBURNERS = 4
ASSISTANTS = 8


@dataclass(frozen=True)
class Building:
    """A deck card (producing building or Market Office) or a Charburner."""

    id: str
    kind: str
    resource: int                   # 1..5; 0 for a Charburner (not a deck card)
    sun: bool
    cost: int
    vp: int
    input: tuple[int, ...]          # units per resource 1..5 (index 0 unused)
    input_any: int                  # N for "N resources of any kinds", else 0
    output: int                     # good index, -1 for a Market Office
    chain: tuple[tuple[str, int], ...]   # ("resource", r) or ("good", g) per chain input
    office: int = -1                # Market Office: 0 extra card, 1..5 resource; -1 otherwise

    @property
    def producing(self) -> bool:
        return self.office < 0


@dataclass(frozen=True)
class AssistantSide:
    cost: int
    vp: int
    requires: tuple[int, ...]       # buildings needed per colour index (COLOUR_KEYS)


@dataclass(frozen=True)
class Assistant:
    id: str
    sides: tuple[AssistantSide, AssistantSide]


@dataclass(frozen=True)
class OmgData:
    origin: str
    status: str
    goods: tuple[str, ...]
    good_values: tuple[int, ...]
    charburners: tuple[Building, ...]
    cards: tuple[Building, ...]     # deck cards, ids 0..93: producing first, then offices
    assistants: tuple[Assistant, ...]
    colour_of: dict[str, str]
    sources: dict[str, Any] = field(compare=False, default_factory=dict)

    def card_index(self, card_id: str) -> int:
        for i, c in enumerate(self.cards):
            if c.id == card_id:
                return i
        raise KeyError(card_id)


def load(path: str | Path | None = None) -> OmgData:
    p = Path(path) if path is not None else DEFAULT_DATA
    return validate(read_file(p), str(p))






def _resources(e: Entry, key: str) -> tuple[int, ...]:
    sub = e.sub(key)
    counts = [0] * 6
    for name, value in sub.table.items():
        if name not in RESOURCES:
            sub.fail(name, f"not a resource ({', '.join(RESOURCES)})")
        counts[RESOURCES.index(name) + 1] = sub.int(name, lo=0, hi=7)
    return tuple(counts)


def _chain(e: Entry, goods: list[str]) -> tuple[tuple[str, int], ...]:
    raw = e.table.get("chain", [])
    e.used.add("chain")
    if not isinstance(raw, list) or len(raw) > 2 or not all(isinstance(x, str) for x in raw):
        e.fail("chain", "expected a list of at most 2 resource or good names")
    out = []
    for x in raw:
        if x in RESOURCES:
            out.append(("resource", RESOURCES.index(x) + 1))
        elif x in goods:
            out.append(("good", goods.index(x)))
        else:
            e.fail("chain", f"{x!r} is neither a resource ({', '.join(RESOURCES)}) nor a good of [goods]")
    if sum(kind == "resource" for kind, _ in out) > 1:
        e.fail("chain", "at most one input of a chain can be a hand card (the engine does not take two)")
    return tuple(out)


def validate(raw: dict[str, Any], origin: str = "<data>") -> OmgData:
    ledger = SourceLedger()
    top = Entry(origin, "", raw)
    meta = top.sub("meta")
    status = meta.str("status", "unknown")
    meta.int("schema", 1, lo=1, hi=1)
    meta.done(("game",))

    col = top.sub("colours")
    colour_of = {k: col.str(k) for k in COLOUR_KEYS}
    if len(set(colour_of.values())) != len(COLOUR_KEYS):
        col.fail(None, "every resource and the Charburner need a colour of their own")
    col.tag(ledger)
    col.done()
    colour_index = {c: i for i, c in enumerate(colour_of[k] for k in COLOUR_KEYS)}

    gtab = top.sub("goods")
    goods: list[str] = []
    values: list[int] = []
    for name in list(gtab.table):
        g = gtab.sub(name)
        values.append(g.int("value", lo=1, hi=15))
        g.tag(ledger)
        g.done()
        goods.append(name)
    if not 1 <= len(goods) <= 24:
        gtab.fail(None, f"{len(goods)} goods; the engine takes 1..24")
    if "coal" not in goods:
        gtab.fail(None, "the Charburner's good 'coal' is missing (rulebook)")

    seen: set[str] = set()
    charburners: list[Building] = []
    for i, row in enumerate(top.table_list("charburners")):
        e, cid = id_entry(origin, f"charburners[{i}]", row, seen)
        if e.str("output", choices=("coal",)) != "coal":
            e.fail("output", "Charburners make coal")
        charburners.append(Building(cid, "Charburner", 0, False, 0, e.int("vp", 0, lo=0, hi=15),
                                    _resources(e, "input"), 0, goods.index("coal"), _chain(e, goods)))
        e.tag(ledger, parts=("card", "input", "chain"))
        e.done()
    if len(charburners) != CHARBURNERS:
        top.fail("charburners", f"{len(charburners)} Charburners; the rulebook has {CHARBURNERS}")

    cards: list[Building] = []
    for i, row in enumerate(top.table_list("cards")):
        e, cid = id_entry(origin, f"cards[{i}]", row, seen)
        res = RESOURCES.index(e.str("resource", choices=RESOURCES)) + 1
        has_any = e.has("input_any")
        if has_any == e.has("input"):
            e.fail("input", "give exactly one of input (per resource) or input_any (N of any kinds)")
        inp = (0,) * 6 if has_any else _resources(e, "input")
        n_any = e.int("input_any", lo=1, hi=15) if has_any else 0
        if not has_any and sum(inp) == 0:
            e.fail("input", "a producing building needs at least one resource")
        output = e.str("output", choices=goods)
        cards.append(Building(cid, e.str("kind"), res, e.bool("sun"), e.int("cost", lo=0, hi=31),
                              e.int("vp", lo=0, hi=15), inp, n_any, goods.index(output), _chain(e, goods)))
        e.tag(ledger, parts=("card", "input", "sun", "chain"))
        e.done()
    for i, row in enumerate(top.table_list("offices")):
        e, cid = id_entry(origin, f"offices[{i}]", row, seen)
        bonus = e.str("bonus", choices=RESOURCES + ("card",))
        office = 0 if bonus == "card" else RESOURCES.index(bonus) + 1
        cards.append(Building(cid, "Market Office", RESOURCES.index(e.str("resource", "stone", choices=RESOURCES)) + 1,
                              e.bool("sun"), e.int("cost", lo=0, hi=31), e.int("vp", lo=0, hi=15),
                              (0,) * 6, 0, -1, (), office))
        e.tag(ledger, parts=("card", "bonus", "sun"))
        e.done()
    if len(cards) != DECK_CARDS:
        top.fail("cards", f"{len(cards)} deck cards (cards + offices); the rulebook has {DECK_CARDS}")
    by_colour = {r: sum(c.resource == r for c in cards) for r in range(1, 6)}
    green = RESOURCES.index(next(k for k in RESOURCES if colour_of[k] == "green")) + 1 if "green" in colour_of.values() else None
    for r, n in by_colour.items():
        want = GREEN_CARDS if r == green else OTHER_CARDS
        if n != want:
            top.fail("cards", f"{n} {RESOURCES[r - 1]} cards; the rulebook has 26 green cards and 17 of every other type")

    assistants: list[Assistant] = []
    for i, row in enumerate(top.table_list("assistants")):
        e, aid = id_entry(origin, f"assistants[{i}]", row, seen)
        sides_raw = e.table_list("sides")
        if len(sides_raw) != 2:
            e.fail("sides", "an assistant card has exactly 2 sides (rulebook)")
        sides = []
        for k, srow in enumerate(sides_raw):
            se = Entry(origin, f"{e.where}.sides[{k}]", srow)
            req = [0] * len(COLOUR_KEYS)
            rq = se.sub("requires")
            for colour in list(rq.table):
                if colour not in colour_index:
                    rq.fail(colour, f"not a colour of [colours] ({', '.join(colour_index)})")
                req[colour_index[colour]] = rq.int(colour, lo=1, hi=9)
            if not any(req):
                se.fail("requires", "a side requires at least one building")
            sides.append(AssistantSide(se.int("cost", lo=0, hi=31), se.int("vp", lo=0, hi=15), tuple(req)))
            se.done()
        e.tag(ledger)
        e.done()
        assistants.append(Assistant(aid, (sides[0], sides[1])))
    if len(assistants) != ASSISTANTS:
        top.fail("assistants", f"{len(assistants)} assistants; the rulebook has {ASSISTANTS}")
    top.done()

    data = OmgData(origin, status, tuple(goods), tuple(values), tuple(charburners), tuple(cards),
                   tuple(assistants), colour_of)
    object.__setattr__(data, "sources", ledger.report("oh_my_goods", origin, status))
    return data


def _chain_codes(b: Building) -> list[int]:
    codes = [x if kind == "resource" else 16 + x for kind, x in b.chain]
    return [len(codes)] + codes + [0] * (2 - len(codes))



def to_table(d: OmgData) -> list[int]:
    """The int32 layout of csrc/games/oh_my_goods.h."""
    t = [TABLE_VERSION, len(d.cards), len(d.goods), *d.good_values]
    for b in d.charburners:
        t += [*b.input[1:], b.vp, b.output, *_chain_codes(b)]
    for b in d.cards:
        t += [b.resource, int(b.sun), b.cost, b.vp, b.office, *b.input[1:], b.input_any, b.output, *_chain_codes(b)]
    for a in d.assistants:
        for side in a.sides:
            t += [side.cost, side.vp, *side.requires]
    for name in [c.id for c in d.cards] + [c.id for c in d.charburners] + [a.id for a in d.assistants]:
        t += name_ints(name)
    return t
