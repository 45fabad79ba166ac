"""Bruges component data: schema, validation, and the table handed to the C core.

The rulebook gives only 10 of the 165 persons (spec 2.4, BR-A1), so the bundled file holds the
spec's provisional person set and provisional board values; every result made with it is
provisional. An owner writes the real cards into a copy of the file. A card names an effect
kind from the catalogue the C engine implements (``EFFECTS``, docs/bruges_engine.md); a kind
outside the catalogue is refused with a DataError naming the card and the kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..gamedata import DataError, Entry, SourceLedger, check_id, name_ints, read_file

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "data" / "bruges.toml"

TABLE_VERSION = 1
COLOURS = ("blue", "brown", "yellow", "red", "purple")
DISASTERS = ("flood", "plague", "riot", "fire", "intrigue")
ACTIVATIONS = ("none", "lightning", "worker", "inf1", "inf2", "inf3", "laurel")
CARDS = 165
GROUPS = 11
TOWERS = 4
SECTIONS = 2
SPACES = 5
MAX_REP_POSITIONS = 16

#: The effect catalogue: kind -> (activations it may carry, needs amount, needs a group).
#: The one place a new effect is named on the Python side; csrc/games/bruges.h BR_FX_* has
#: the same order (the index is the kind's number in the C table).
EFFECTS: dict[str, tuple[tuple[str, ...], bool, bool]] = {
    "none": (ACTIVATIONS, False, False),
    "money_on_recruit": (("lightning",), True, False),
    "return_threat": (("lightning",), True, False),
    "draw_cards": (("worker",), True, False),
    "extra_play": (("worker",), True, False),
    "money_per_round": (("inf1",), True, False),
    "extra_workers_action1": (("inf2",), True, False),
    "hand_target": (("inf3",), True, False),
    "vp_per_workers": (("laurel",), True, False),
    "vp_per_group": (("laurel",), True, True),
}
EFFECT_KINDS = tuple(EFFECTS)


@dataclass(frozen=True)
class Card:
    """One person card (docs/bruges_engine.md, `Card` fields)."""

    id: str
    name: str
    colour: int
    group: int
    cost: int
    vp: int
    activation: str
    worker_colour: int      # 0..4 for a worker-icon person, else -1
    effect: str
    amount: int
    group_param: int        # group id for vp_per_group, else -1
    provisional: bool


@dataclass(frozen=True)
class BrugesData:
    origin: str
    status: str
    colours: tuple[str, ...]
    groups: tuple[str, ...]
    cards: tuple[Card, ...]
    canal_colour: tuple[tuple[tuple[int, ...], ...], ...]   # [tower][section][space]
    canal_cost: tuple[int, ...]
    rep_vp: tuple[int, ...]
    statues: tuple[int, ...]                                 # top of the stack first
    disaster: tuple[str, ...]                                # per colour
    start_score: int
    start_money: int
    start_workers: int
    hand_size: int
    sources: dict[str, Any] = field(compare=False, default_factory=dict)

    def card_index(self, card_id: str) -> int:
        for i, c in enumerate(self.cards):
            if c.id == card_id:
                return i
        raise KeyError(card_id)


def load(path: str | Path | None = None) -> BrugesData:
    p = Path(path) if path is not None else DEFAULT_DATA
    return validate(read_file(p), str(p))


def _colour(e: Entry, key: str) -> int:
    return COLOURS.index(e.str(key, choices=COLOURS))


def _names(e: Entry, count: int) -> tuple[str, ...]:
    v = e.table.get("names")
    e.used.add("names")
    if not isinstance(v, list) or len(v) != count or not all(isinstance(x, str) and x for x in v):
        e.fail("names", f"expected a list of {count} non-empty names")
    if len(set(v)) != count:
        e.fail("names", "names must differ")
    return tuple(v)


def _card(origin: str, i: int, row: Any, groups: tuple[str, ...], seen: set[str], ledger: SourceLedger) -> Card:
    e = Entry(origin, f"cards[{i}]", row)
    cid = e.str("id")
    check_id(e, cid, seen)
    e.where = f"cards[{i}] ({cid})"
    name = e.str("name", cid)
    colour = _colour(e, "colour")
    group = groups.index(e.str("group", choices=groups))
    cost = e.int("cost", lo=0, hi=15)
    vp = e.int("vp", lo=0, hi=7)
    activation = e.str("activation", choices=ACTIVATIONS)
    kind = e.str("effect")
    if kind not in EFFECTS:
        raise DataError(f"{origin}: card {cid}: effect kind {kind!r} is not in the catalogue "
                        f"({', '.join(EFFECT_KINDS)}); see docs/bruges_engine.md")
    allowed, needs_amount, needs_group = EFFECTS[kind]
    if activation not in allowed:
        e.fail("activation", f"effect {kind!r} needs activation {' or '.join(allowed)}, not {activation!r}")
    worker = _colour(e, "worker") if activation == "worker" else -1
    if activation != "worker" and e.has("worker"):
        e.fail("worker", "only a worker-icon person names a worker colour")
    amount = e.int("amount", lo=1, hi=12) if needs_amount else e.int("amount", 0, lo=0, hi=0)
    if kind == "hand_target" and amount < 5:
        e.fail("amount", "a hand target below the normal 5 has no effect; give 6 or more")
    group_param = groups.index(e.str("effect_group", choices=groups)) if needs_group else -1
    if not needs_group and e.has("effect_group"):
        e.fail("effect_group", f"effect {kind!r} takes no group")
    provisional = e.bool("provisional", False)
    e.tag(ledger)
    if provisional and e.table["tag"] != "provisional":
        e.fail("tag", "a card marked provisional must carry the tag 'provisional'")
    e.done()
    return Card(cid, name, colour, group, cost, vp, activation, worker, kind, amount, group_param, provisional)


def validate(raw: dict[str, Any], origin: str = "<data>") -> BrugesData:
    ledger = SourceLedger()
    top = Entry(origin, "", raw)
    meta = top.sub("meta")
    status = meta.str("status", "unknown")
    meta.int("schema", 1, lo=1, hi=1)
    meta.bool("published_data", False)
    meta.done(("game",))

    col = top.sub("colours")
    names = _names(col, 5)
    if names != COLOURS:
        col.fail("names", f"the engine's colours are {', '.join(COLOURS)} in this order")
    col.tag(ledger)
    col.done()

    gr = top.sub("groups")
    groups = _names(gr, GROUPS)
    gr.tag(ledger)
    gr.done()

    dis = top.sub("disasters")
    disaster = tuple(dis.str(c, choices=DISASTERS) for c in COLOURS)
    if sorted(disaster) != sorted(DISASTERS):
        dis.fail(None, f"each disaster ({', '.join(DISASTERS)}) belongs to exactly one colour")
    dis.tag(ledger)
    dis.done()

    st = top.sub("start")
    start_score = st.int("score", lo=0, hi=50)
    start_money = st.int("money", lo=0, hi=50)
    start_workers = st.int("workers", lo=0, hi=10)
    hand_size = st.int("hand_size", lo=1, hi=8)
    statues = st.int_list("statues", lo=1, hi=15)
    if not 0 <= len(statues) <= 8:
        st.fail("statues", "at most 8 statues (4 players x 2 sections)")
    st.tag(ledger)
    st.done()

    ca = top.sub("canals")
    cost = ca.int_list("cost", lo=0, hi=15)
    if len(cost) != SPACES:
        ca.fail("cost", f"expected {SPACES} costs, one per space")
    ledger.add("canals.cost", ca.str("cost_tag"))
    ca._check_tag("cost_tag", ca.table["cost_tag"])
    towers = ca.table.get("towers")
    ca.used.add("towers")
    shape_ok = (isinstance(towers, list) and len(towers) == TOWERS
                and all(isinstance(t, list) and len(t) == SECTIONS for t in towers)
                and all(isinstance(s, list) and len(s) == SPACES for t in towers for s in t))
    if not shape_ok:
        ca.fail("towers", f"expected {TOWERS} towers x {SECTIONS} sections x {SPACES} colour names")
    canal_colour = []
    for p, t in enumerate(towers):
        secs = []
        for s, sec in enumerate(t):
            for i, name in enumerate(sec):
                if name not in COLOURS:
                    ca.fail("towers", f"tower {p} section {s} space {i}: {name!r} is not a colour")
            secs.append(tuple(COLOURS.index(x) for x in sec))
        canal_colour.append(tuple(secs))
    ca.tag(ledger)
    ca.done(("cost_tag",))

    rep = top.sub("reputation")
    rep_vp = rep.int_list("vp", lo=0, hi=99)
    if not 2 <= len(rep_vp) <= MAX_REP_POSITIONS or rep_vp[0] != 0:
        rep.fail("vp", f"2..{MAX_REP_POSITIONS} values, position 0 (town hall) worth 0")
    rep.tag(ledger)
    rep.done()

    seen: set[str] = set()
    rows = top.table_list("cards")
    if len(rows) != CARDS:
        top.fail("cards", f"{len(rows)} cards; the game has {CARDS} (spec 2.1)")
    cards = tuple(_card(origin, i, row, groups, seen, ledger) for i, row in enumerate(rows))
    top.done()

    data = BrugesData(origin, status, names, groups, cards, tuple(canal_colour), tuple(cost),
                      tuple(rep_vp), tuple(statues), disaster, start_score, start_money,
                      start_workers, hand_size)
    object.__setattr__(data, "sources", ledger.report("bruges", origin, status))
    return data



def to_table(d: BrugesData) -> list[int]:
    """The int32 layout of csrc/games/bruges.h (BR_TAB_*)."""
    t = [TABLE_VERSION, len(d.cards), d.start_score, d.start_money, d.start_workers, d.hand_size]
    t += [DISASTERS.index(x) for x in d.disaster]
    t += list(d.canal_cost)
    for tower in d.canal_colour:
        for sec in tower:
            t += list(sec)
    t += [len(d.rep_vp), *d.rep_vp, *([0] * (MAX_REP_POSITIONS - len(d.rep_vp)))]
    t += [len(d.statues), *d.statues, *([0] * (8 - len(d.statues)))]
    for c in d.cards:
        t += [c.colour, c.group, c.cost, c.vp, ACTIVATIONS.index(c.activation), c.worker_colour,
              EFFECT_KINDS.index(c.effect), c.amount, c.group_param]
    for c in d.cards:
        t += name_ints(c.id)
    return t
