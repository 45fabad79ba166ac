"""Vienna component data: schema, validation, and the table handed to the C core.

The rulebook gives no board map and no card lists (spec section 2), so all of it is data:
``python/eurosearch/data/vienna.toml`` by default, or a user's own file. The format is the one
of the spec's provisional data set (P7).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..gamedata import DataError, Entry, SourceLedger, check_id, name_ints, read_file

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "data" / "vienna.toml"

#: Layout version of the int32 table (see csrc/games/vienna.h).
TABLE_VERSION = 1
MAX_STREET = 30
GEHEIMBUND = 31
SYMBOLS = ("citizen", "cross", "crown")
#: Special cards by effect, in the engine's fixed order (S1..S5 of the spec).
SPECIAL_EFFECTS = ("start_player", "double_move", "dice_joker", "greater_influence", "extra_die")
#: Street field kinds, with their code in the C table.
FIELD_KINDS = {
    "krieau": 0, "prater": 1, "gain": 2, "special": 3, "person": 4,
    "compare": 5, "gloriette": 6, "tiergarten": 7, "heuriger": 8,
}
IMMEDIATE_KINDS = ("krieau", "prater")
#: Keys each field kind may carry besides the common ones.
_KIND_KEYS = {
    "krieau": ("vp", "coins", "choose_one"),
    "prater": ("vp", "coins"),
    "gain": ("vp", "coins", "pay"),
    "special": ("card",),
    "person": ("cost",),
    "compare": ("symbol",),
    "gloriette": ("pay",),
    "tiergarten": ("steal_one", "steal_two"),
    "heuriger": ("vp_per_special",),
}
_FIELD_PARTS = ("name", "pos", "accept", "action")
#: The rulebook's deck size (spec 2.1).
PERSON_CARDS = 44


@dataclass(frozen=True)
class StreetField:
    """One field of the street, in street order (``index = pos - 1``)."""

    index: int
    id: str
    name: str
    kind: str
    accept: tuple[int, ...]
    pair: bool
    vp: int = 0
    coins: int = 0
    pay: int = 0
    cost: int = 0
    card: int = -1          # special card index (order of SPECIAL_EFFECTS), for kind "special"
    symbol: int = -1        # 0 citizen, 1 cross, 2 crown, for kind "compare"
    choose_one: bool = False
    steal_one: int = 0
    steal_two: int = 0
    vp_per_special: int = 0

    @property
    def immediate(self) -> bool:
        return self.kind in IMMEDIATE_KINDS


@dataclass(frozen=True)
class Geheimbund:
    """The off-street field: any dice, any number of times, coins per die at once."""

    coins_per_die: int = 1
    vp: int = 0
    coins: int = 0


@dataclass(frozen=True)
class Card:
    """A starting card (with coins) or a person type (with copies)."""

    id: str
    symbols: tuple[int, int, int]
    coins: int = 0
    copies: int = 1


@dataclass(frozen=True)
class SpecialCard:
    id: str
    name: str
    effect: str


@dataclass(frozen=True)
class ViennaData:
    """A validated Vienna data set."""

    origin: str
    status: str
    street: tuple[StreetField, ...]
    geheimbund: Geheimbund
    start_vp: dict[int, int]
    majority_vp: int
    majority_coins: int
    tie_vp: int
    tie_coins: int
    gi_symbols: tuple[int, int, int]
    specials: tuple[SpecialCard, ...]    # in SPECIAL_EFFECTS order
    starting: tuple[Card, ...]
    persons: tuple[Card, ...]
    sources: dict[str, Any] = field(compare=False, default_factory=dict)

    def field_index(self, field_id: str) -> int:
        for f in self.street:
            if f.id == field_id:
                return f.index
        if field_id == "geheimbund":
            return GEHEIMBUND
        raise KeyError(field_id)


def load(path: str | Path | None = None, side: str = "day") -> ViennaData:
    """Load and validate a Vienna data file (the bundled one by default)."""
    p = Path(path) if path is not None else DEFAULT_DATA
    return validate(read_file(p), str(p), side=side)


def validate(raw: dict[str, Any], origin: str = "<data>", side: str = "day") -> ViennaData:
    """Check every entry of a parsed data file and build a :class:`ViennaData`."""
    ledger = SourceLedger()
    top = Entry(origin, "", raw)

    meta = top.sub("meta")
    status = meta.str("status", "unknown")
    meta.int("schema", 1, lo=1, hi=1)
    sides_identical = meta.bool("sides_identical", True)
    meta.done(("game", "published_data"))

    sv = top.sub("start_vp")
    start_vp = {n: sv.int(str(n), lo=0, hi=24) for n in (3, 4, 5)}
    sv.tag(ledger)
    sv.done()

    cr = top.sub("compare_reward")
    comp = [cr.int(k, lo=0, hi=15) for k in ("majority_vp", "majority_coins", "tie_vp", "tie_coins")]
    cr.tag(ledger)
    cr.done()

    gi = top.sub("greater_influence")
    gi_symbols = tuple(gi.int(s, lo=0, hi=7) for s in SYMBOLS)
    gi.tag(ledger)
    gi.done()

    cards = top.sub("cards")
    specials = _specials(cards, ledger)
    starting = _cards(cards, "starting", ledger, with_coins=True)
    persons = _cards(cards, "persons", ledger, with_coins=False)
    cards.done()
    if not 1 <= len(starting) <= 8:
        cards.fail("starting", f"{len(starting)} starting cards; the engine takes 1..8 (the rulebook has 6)")
    if len(persons) > PERSON_CARDS:
        cards.fail("persons", f"{len(persons)} person types; at most {PERSON_CARDS}")
    total = sum(c.copies for c in persons)
    if total != PERSON_CARDS:
        cards.fail("persons", f"the copies add up to {total}; the rulebook's deck has {PERSON_CARDS} person cards")

    board_key = "board"
    if side not in ("day", "night"):
        raise DataError(f"{origin}: unknown board side {side!r} (day or night)")
    if side == "night" and not sides_identical:
        board_key = "board_night"
    board = top.sub(board_key)
    street = _street(board, specials, ledger)
    geheimbund = _geheimbund(board, ledger)
    board.done()
    top.done(("board_night",))

    card_field = {f.card: f for f in street if f.kind == "special"}
    for i, sc in enumerate(cards.table.get("special", [])):
        ref = sc.get("field") if isinstance(sc, dict) else None
        if ref is not None and (i not in card_field or card_field[i].id != ref):
            cards.fail("special", f"card {sc.get('id')!r} names field {ref!r}, which does not show that card")

    data = ViennaData(
        origin=origin, status=status, street=tuple(street), geheimbund=geheimbund,
        start_vp=start_vp, majority_vp=comp[0], majority_coins=comp[1], tie_vp=comp[2],
        tie_coins=comp[3], gi_symbols=gi_symbols, specials=specials,
        starting=tuple(starting), persons=tuple(persons),
    )
    object.__setattr__(data, "sources", ledger.report("vienna", origin, status))
    return data


def _specials(cards: Entry, ledger: SourceLedger) -> tuple[SpecialCard, ...]:
    rows = cards.table_list("special")
    by_effect: dict[str, SpecialCard] = {}
    for i, row in enumerate(rows):
        e = Entry(cards.origin, f"cards.special[{i}]", row)
        sc = SpecialCard(e.str("id"), e.str("name", e.table.get("id", "")), e.str("effect", choices=SPECIAL_EFFECTS))
        e.where = f"cards.special[{i}] ({sc.id})"
        if sc.effect in by_effect:
            e.fail("effect", f"{sc.effect!r} appears twice")
        e.tag(ledger)
        if e.has("field_tag"):
            e.tag(ledger, "field_tag")
        e.str("field", None) if e.has("field") else None
        e.done()
        by_effect[sc.effect] = sc
    missing = [x for x in SPECIAL_EFFECTS if x not in by_effect]
    if missing:
        cards.fail("special", f"missing the special card(s) {', '.join(missing)}; the rulebook has exactly these five: {', '.join(SPECIAL_EFFECTS)}")
    return tuple(by_effect[x] for x in SPECIAL_EFFECTS)




def _cards(cards: Entry, key: str, ledger: SourceLedger, with_coins: bool) -> list[Card]:
    out: list[Card] = []
    seen: set[str] = set()
    for i, row in enumerate(cards.table_list(key)):
        e = Entry(cards.origin, f"cards.{key}[{i}]", row)
        cid = e.str("id")
        check_id(e, cid)
        e.where = f"cards.{key}[{i}] ({cid})"
        if cid in seen:
            e.fail("id", f"duplicate id {cid!r}")
        seen.add(cid)
        syms = tuple(e.int(s, lo=0, hi=7) for s in SYMBOLS)
        coins = e.int("coins", lo=0, hi=20) if with_coins else 0
        copies = 1 if with_coins else e.int("copies", lo=1, hi=PERSON_CARDS)
        e.tag(ledger)
        e.done()
        out.append(Card(cid, syms, coins, copies))  # type: ignore[arg-type]
    return out


def _street(board: Entry, specials: tuple[SpecialCard, ...], ledger: SourceLedger) -> list[StreetField]:
    rows = board.table_list("fields")
    if not 3 <= len(rows) <= MAX_STREET:
        board.fail("fields", f"{len(rows)} street fields; the engine takes 3..{MAX_STREET} (the published board has 24)")
    special_ids = {sc.id: i for i, sc in enumerate(specials)}
    parsed: list[tuple[int, StreetField, Entry]] = []
    ids: set[str] = set()
    for i, row in enumerate(rows):
        e = Entry(board.origin, f"{board.where}.fields[{i}]", row)
        fid = e.str("id")
        check_id(e, fid)
        e.where = f"{board.where}.fields[{i}] ({fid})"
        if fid in ids or fid == "geheimbund":
            e.fail("id", f"duplicate id {fid!r}")
        ids.add(fid)
        pos = e.int("pos", lo=1, hi=len(rows))
        kind = e.str("kind", choices=FIELD_KINDS)
        pair = e.bool("pair", False)
        accept = e.int_list("accept", [], lo=1, hi=12)
        if pair and accept:
            e.fail("accept", "a pair field takes any two equal dice; leave accept empty")
        if not pair and not accept:
            e.fail("accept", "a field needs at least one accepted total (or pair = true)")
        if len(set(accept)) != len(accept):
            e.fail("accept", f"repeated totals in {accept}")
        if e.bool("immediate", kind in IMMEDIATE_KINDS) != (kind in IMMEDIATE_KINDS):
            e.fail("immediate", "the lightning fields are exactly Krieau, Prater and Geheimbund (rulebook)")
        kw: dict[str, Any] = {}
        allowed = _KIND_KEYS[kind]
        for key in ("vp", "coins", "pay", "cost", "steal_one", "steal_two", "vp_per_special"):
            if key in allowed:
                kw[key] = e.int(key, 0, lo=0, hi=7 if key.startswith("steal") else 15)
            elif e.has(key):
                e.fail(key, f"a {kind} field takes no {key} (allowed: {', '.join(allowed) or 'none'})")
        if kind == "krieau":
            kw["choose_one"] = e.bool("choose_one", False)
        elif e.has("choose_one"):
            e.fail("choose_one", "only Krieau chooses between VP and coins")
        if kind == "special":
            card = e.str("card")
            if card not in special_ids:
                e.fail("card", f"{card!r} is not a special card id ({', '.join(special_ids)})")
            kw["card"] = special_ids[card]
        elif e.has("card"):
            e.fail("card", f"a {kind} field shows no special card")
        if kind == "compare":
            kw["symbol"] = SYMBOLS.index(e.str("symbol", choices=SYMBOLS))
        elif e.has("symbol"):
            e.fail("symbol", f"a {kind} field compares no symbol")
        if kind == "tiergarten" and not (e.has("steal_one") or e.has("steal_two")):
            kw["steal_one"], kw["steal_two"] = 3, 1
        if kind == "heuriger" and not e.has("vp_per_special"):
            kw["vp_per_special"] = 1
        e.tag(ledger, parts=_FIELD_PARTS)
        e.done(("name",))
        name = e.table.get("name", fid)
        if not isinstance(name, str):
            e.fail("name", "expected a string")
        parsed.append((pos, StreetField(pos - 1, fid, name, kind, tuple(accept), pair, **kw), e))

    parsed.sort(key=lambda t: t[0])
    for want, (pos, _, e) in enumerate(parsed, start=1):
        if pos != want:
            e.fail("pos", f"positions must be 1..{len(rows)}, each once (position {want} is missing or repeated)")
    street = [f for _, f, _ in parsed]
    entries = [e for _, _, e in parsed]
    kinds = [f.kind for f in street]
    if kinds.count("krieau") != 1 or street[0].kind != "krieau":
        entries[0].fail("kind", "Krieau must be the first street field, exactly once (rulebook)")
    if kinds.count("heuriger") != 1 or street[-1].kind != "heuriger":
        entries[-1].fail("kind", "Heuriger must be the last street field, exactly once (rulebook)")
    persons = [i for i, f in enumerate(street) if f.kind == "person"]
    if persons and street[persons[-1]].cost != 0:
        entries[persons[-1]].fail("cost", "the last person-card field on the street is free (rulebook)")
    return street


def _geheimbund(board: Entry, ledger: SourceLedger) -> Geheimbund:
    rows = board.table_list("offstreet")
    if len(rows) != 1:
        board.fail("offstreet", "exactly one off-street field (Geheimbund)")
    e = Entry(board.origin, f"{board.where}.offstreet[0]", rows[0])
    e.str("id", choices=("geheimbund",))
    e.str("kind", choices=("geheimbund",))
    if not e.bool("any_dice", True):
        e.fail("any_dice", "Geheimbund takes any dice (rulebook)")
    if not e.bool("immediate", True):
        e.fail("immediate", "Geheimbund is a lightning field (rulebook)")
    g = Geheimbund(e.int("coins_per_die", 1, lo=0, hi=7), e.int("vp", 0, lo=0, hi=15), e.int("coins", 0, lo=0, hi=15))
    e.tag(ledger, parts=("name", "accept", "action"))
    e.done(("name",))
    return g


def to_table(d: ViennaData) -> list[int]:
    """Flatten a data set into the int32 table layout of ``csrc/games/vienna.h``."""
    t = [TABLE_VERSION, len(d.street), len(d.starting), len(d.persons)]
    t += [d.start_vp[3], d.start_vp[4], d.start_vp[5]]
    t += [d.majority_vp, d.majority_coins, d.tie_vp, d.tie_coins]
    t += list(d.gi_symbols)
    t += [d.geheimbund.coins_per_die, d.geheimbund.vp, d.geheimbund.coins]
    for f in d.street:
        mask = 0
        for a in f.accept:
            mask |= 1 << a
        t += [FIELD_KINDS[f.kind], mask, int(f.pair), f.vp, f.coins, f.pay, f.cost, f.card,
              f.symbol, int(f.choose_one), f.steal_one, f.steal_two, f.vp_per_special]
    for c in d.starting:
        t += [c.coins, *c.symbols]
    for c in d.persons:
        t += [c.copies, *c.symbols]
    for name in [f.id for f in d.street] + [c.id for c in d.starting] + [c.id for c in d.persons]:
        t += name_ints(name)
    return t



