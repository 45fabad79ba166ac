"""Wolsung component data: schema, validation, and the table handed to the C core.

None of Wolsung's cards, round track or sidings are in the rulebook (spec 2.7-2.9). The bundled
file is the spec's provisional data set (P1-P8), every entry tagged ``provisional``; an owner's
file with the real board and cards replaces it. The checks below are the spec's P8 assertions
that follow from the rulebook text (counts, storage cap, icon counts); the provisional-only
ones (exact siding sizes, the supply split) are checked only for a provisional file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..gamedata import DataError, Entry, SourceLedger, check_id, id_entry, name_ints, read_file

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "data" / "wolsung.toml"

TABLE_VERSION = 1
RESOURCES = ("coal", "glass", "iron", "wood", "gold")
BUILDING = RESOURCES[:4]
TYPES = ("golem", "steam_car", "steam_locomotive", "airship")
REGIONS = ("aquitaine", "alfheim", "morgovia", "wotany")
#: Task icon categories: the 4 types, then the 4 regions.
CATEGORIES = TYPES + REGIONS
MACHINES = 40          # spec 2.3 [TEXT]
TASK_CARDS = 8         # spec 2.4 [TEXT]
SPECIALS = 5           # spec 2.5 [TEXT]
ROUNDS = 29            # the 4-player game (spec 1)
FACTORIES = 3
MAX_ICONS = 6          # engine limit per task
MAX_TASKS = 3          # spec 2.4: three tasks per card
STORAGE_CAP = 4        # spec 2.2


@dataclass(frozen=True)
class Machine:
    id: str
    name: str
    type: int          # index into TYPES
    region: int        # index into REGIONS
    vp: int            # 1..4; deck A iff vp <= 2
    cost: tuple[int, int, int, int]   # coal, glass, iron, wood


@dataclass(frozen=True)
class Task:
    points: int
    icons: tuple[int, ...]   # categories 0..7


@dataclass(frozen=True)
class TaskCard:
    id: str
    tasks: tuple[Task, ...]


@dataclass(frozen=True)
class Special:
    id: str
    value: int
    change: bool
    order: tuple[int, ...]   # the 5 resources, most wanted first


@dataclass(frozen=True)
class WolsungData:
    """Validated Wolsung data; the layout is documented in docs/wolsung_engine.md."""

    origin: str
    status: str
    schedule: tuple[tuple[int, ...], ...]        # schedule[r-1]: factories opened in round r
    factory_order: tuple[int, ...]
    factory_ids: tuple[str, ...]
    siding_small: tuple[tuple[int, ...], ...]
    siding_large: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    machines: tuple[Machine, ...]
    strike_id: str
    task_cards: tuple[TaskCard, ...]
    specials: tuple[Special, ...]
    sources: dict[str, Any] = field(compare=False, default_factory=dict)

    @property
    def change_symbols(self) -> int:
        """S of chance node C8: special cards with the Design Office change symbol."""
        return sum(s.change for s in self.specials)


def load(path: str | Path | None = None) -> WolsungData:
    p = Path(path) if path is not None else DEFAULT_DATA
    return validate(read_file(p), str(p))






def _cubes(e: Entry, key: str, names: tuple[str, ...], hi: int) -> tuple[int, ...]:
    sub = e.sub(key)
    counts = [0] * len(names)
    for name in list(sub.table):
        if name not in names:
            sub.fail(name, f"not one of {', '.join(names)}")
        counts[names.index(name)] = sub.int(name, lo=0, hi=hi)
    return tuple(counts)


def validate(raw: dict[str, Any], origin: str = "<data>") -> WolsungData:
    """Check a parsed data file and build WolsungData; DataError names the entry and field."""
    ledger = SourceLedger()
    top = Entry(origin, "", raw)
    meta = top.sub("meta")
    status = meta.str("status", "unknown")
    meta.int("schema", 1, lo=1, hi=1)
    meta.bool("published_data", False)
    meta.done(("game",))
    provisional = status == "provisional"

    seen: set[str] = set()
    factory_ids: list[str] = []
    small: list[tuple[int, ...]] = []
    large: list[tuple[int, ...]] = []
    for i, row in enumerate(top.table_list("factories")):
        e, fid = id_entry(origin, f"factories[{i}]", row, seen)
        s = _cubes(e, "small", RESOURCES, 15)
        lg = _cubes(e, "large", RESOURCES, 15)
        if not 1 <= sum(s) <= 30 or not 1 <= sum(lg) <= 30:
            e.fail("small", "a siding holds 1..30 cubes")
        if provisional and (sum(s) != 6 or sum(lg) != 8):
            e.fail("small", f"P8: a SMALL siding holds 6 cubes and a LARGE one 8 (got {sum(s)}, {sum(lg)})")
        factory_ids.append(fid)
        small.append(s)
        large.append(lg)
        e.tag(ledger)
        e.done()
    if len(factory_ids) != FACTORIES:
        top.fail("factories", f"{len(factory_ids)} factories; the rulebook has {FACTORIES}")

    fo = top.sub("factory_order")
    order_raw = fo._get("order", None)
    if not isinstance(order_raw, list) or sorted(map(str, order_raw)) != sorted(factory_ids) or len(order_raw) != 3:
        fo.fail("order", f"expected the 3 factory ids {', '.join(factory_ids)} once each, got {order_raw!r}")
    factory_order = tuple(factory_ids.index(x) for x in order_raw)
    fo.tag(ledger)
    fo.done()
    rank = {f: k for k, f in enumerate(factory_order)}

    rounds = top.sub("rounds")
    schedule: list[tuple[int, ...]] = [()] * ROUNDS
    for i, row in enumerate(rounds.table_list("schedule")):
        e = Entry(origin, f"rounds.schedule[{i}]", row)
        r = e.int("round", lo=1, hi=ROUNDS)
        opened = e._get("open", None)
        if not isinstance(opened, list) or not all(isinstance(x, str) for x in opened):
            e.fail("open", "expected a list of factory ids")
        if any(x not in factory_ids for x in opened):
            e.fail("open", f"{opened!r}: factory ids are {', '.join(factory_ids)}")
        if len(set(opened)) != len(opened) or len(opened) > 3:
            e.fail("open", "each factory opens at most once per round (0..3 factories, WO-A36)")
        if schedule[r - 1]:
            e.fail("round", f"round {r} is listed twice")
        schedule[r - 1] = tuple(sorted((factory_ids.index(x) for x in opened), key=lambda f: rank[f]))
        e.done()
    rounds.tag(ledger)
    rounds.done()
    if provisional:
        if sum(1 for r in schedule[:25] if r) != 12:
            rounds.fail("schedule", "P8: 12 production rounds in rounds 1..25")
        if any(len(r) > 2 for r in schedule):
            rounds.fail("schedule", "P8: no round opens more than 2 factories")

    sup = top.sub("supply")
    supply = tuple(sup.int(r, lo=0, hi=76) for r in RESOURCES)
    if sum(supply) != 76:
        sup.fail(None, f"the supply adds up to {sum(supply)}; the rulebook has 76 cubes")
    for f in range(FACTORIES):
        if any(max(small[f][t], large[f][t]) > supply[t] for t in range(5)):
            sup.fail(None, f"factory {factory_ids[f]}: a siding holds more cubes than the supply")
    sup.tag(ledger)
    sup.done()

    machines: list[Machine] = []
    for i, row in enumerate(top.table_list("machines")):
        e, mid = id_entry(origin, f"machines[{i}]", row, seen)
        cost = _cubes(e, "cost", BUILDING, STORAGE_CAP - 1)
        if sum(cost) == 0:
            e.fail("cost", "a machine costs at least one resource")
        machines.append(Machine(mid, e.str("name", mid), TYPES.index(e.str("type", choices=TYPES)),
                                REGIONS.index(e.str("region", choices=REGIONS)), e.int("vp", lo=1, hi=4), cost))
        e.tag(ledger)
        e.done()
    if len(machines) != MACHINES:
        top.fail("machines", f"{len(machines)} machines; the rulebook has {MACHINES}")
    n_a = sum(m.vp <= 2 for m in machines)
    if n_a < 3:
        top.fail("machines", f"deck A (vp 1-2) has {n_a} machines; the office needs 3")

    st = top.sub("strike")
    strike_id = st.str("id")
    check_id(st, strike_id, seen)
    st.tag(ledger)
    st.done()

    cards: list[TaskCard] = []
    for i, row in enumerate(top.table_list("task_cards")):
        e, cid = id_entry(origin, f"task_cards[{i}]", row, seen)
        tasks = []
        rows = e.table_list("tasks")
        if not 1 <= len(rows) <= MAX_TASKS:
            e.fail("tasks", f"a task card has 1..{MAX_TASKS} tasks (the rulebook: 3)")
        for k, trow in enumerate(rows):
            te = Entry(origin, f"{e.where}.tasks[{k}]", trow)
            pts = te.int("points", lo=1, hi=9)
            icons = te._get("icons", None)
            if not isinstance(icons, list) or not 1 <= len(icons) <= MAX_ICONS or any(x not in CATEGORIES for x in icons):
                te.fail("icons", f"expected 1..{MAX_ICONS} icons from {', '.join(CATEGORIES)}, got {icons!r}")
            if (pts == 3 and len(icons) != 4) or (pts == 2 and len(icons) != 3):
                te.fail("icons", "the rulebook: a 3-point task has 4 icons, a 2-point task 3")
            te.done()
            tasks.append(Task(pts, tuple(CATEGORIES.index(x) for x in icons)))
        cards.append(TaskCard(cid, tuple(tasks)))
        e.tag(ledger)
        e.done()
    if len(cards) != TASK_CARDS:
        top.fail("task_cards", f"{len(cards)} task cards; the rulebook has {TASK_CARDS}")

    specials: list[Special] = []
    for i, row in enumerate(top.table_list("specials")):
        e, sid = id_entry(origin, f"specials[{i}]", row, seen)
        order = e._get("order", None)
        if not isinstance(order, list) or sorted(map(str, order)) != sorted(RESOURCES) or len(order) != 5:
            e.fail("order", f"expected the 5 resources once each, got {order!r}")
        specials.append(Special(sid, e.int("value", lo=0, hi=15), e.bool("change"),
                                tuple(RESOURCES.index(x) for x in order)))
        e.tag(ledger)
        e.done()
    if len(specials) != SPECIALS:
        top.fail("specials", f"{len(specials)} special cards; the rulebook has {SPECIALS}")
    if len({s.value for s in specials}) != SPECIALS:
        top.fail("specials", "the special cards' values must be distinct (WO-A5)")
    if provisional and sum(s.change for s in specials) != 2:
        top.fail("specials", "P8: exactly 2 special cards carry the change symbol")
    top.done()

    data = WolsungData(origin, status, tuple(schedule), factory_order, tuple(factory_ids), tuple(small),
                       tuple(large), supply, tuple(machines), strike_id, tuple(cards), tuple(specials))
    object.__setattr__(data, "sources", ledger.report("wolsung", origin, status))
    return data



def to_table(d: WolsungData) -> list[int]:
    """The int32 layout of csrc/games/wolsung.h (WO_TABLE_*)."""
    t = [TABLE_VERSION, *d.factory_order, *d.supply]
    for r in d.schedule:
        t += [len(r), *r, *([0] * (3 - len(r)))]
    for f in range(FACTORIES):
        t += [*d.siding_small[f], *d.siding_large[f]]
    for m in d.machines:
        t += [m.type, m.region, m.vp, *m.cost]
    for c in d.task_cards:
        t.append(len(c.tasks))
        for k in range(MAX_TASKS):
            task = c.tasks[k] if k < len(c.tasks) else Task(0, ())
            t += [task.points, len(task.icons), *task.icons, *([0] * (MAX_ICONS - len(task.icons)))]
    for s in d.specials:
        t += [s.value, int(s.change), *s.order]
    for name in [m.id for m in d.machines] + [d.strike_id] + [c.id for c in d.task_cards] + [s.id for s in d.specials]:
        t += name_ints(name)
    return t


__all__ = ["DataError", "WolsungData", "load", "validate", "to_table"]
