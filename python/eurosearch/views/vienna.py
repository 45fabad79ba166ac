"""The Vienna view: the street with its dice, the person display, each player's dice,
symbols, persons and special cards. Vienna has no hidden information."""

from __future__ import annotations

from typing import Any

from ..games.vienna_data import SYMBOLS
from . import View, base_view, item, redacted, title_line, zone

SEAT_TONES = ("red", "blue", "green", "yellow", "purple")


def _person(card: Any) -> dict[str, Any]:
    props = {sym: k for sym, k in zip(SYMBOLS, card.symbols) if k}
    if card.coins:
        props["coins"] = card.coins
    return item(card.id, "person", "card", "white", **props)


def view(state: Any, seat: int) -> View:
    g = state.game
    d = g.data
    n = g.players
    s = redacted(state, seat)
    v = base_view(state, seat, title_line(state), [float(x) for x in s["vp"][:n]])
    street = []
    for f in d.street:
        props: dict[str, Any] = {"accepts": "+".join(str(a) for a in f.accept)}
        occ = s["occupant"][f.index]
        if occ >= 0:
            dice = s["field_dice"][f.index]
            props["taken by"] = f"P{occ}"
            props["dice"] = (dice & 3) + (1 if dice & 4 else 0)
        if s["gendarme"] == f.index:
            props["gendarme"] = True
        street.append(item(f.id, f.name, "space", SEAT_TONES[occ] if occ >= 0 else "", **props))
    display = [_person(c) for t, c in enumerate(d.persons) if (s["display"] >> t) & 1]
    v["board"] = [zone("street", street),
                  zone("person display", display, f"deck {s['deck_total']}, discard {s['discard_total']}")]
    for p in range(n):
        dice = [item(str(x), "die", "die", SEAT_TONES[p]) for x in s["hand"][p] if x]
        if s["white_holder"] == p and s["white_face"] and not s["white_placed"]:
            dice.append(item(f"W{s['white_face']}", "white die", "die", "white"))
        persons = [_person(d.persons[t]) for t in range(len(d.persons)) for _ in range(s["owned"][p][t])]
        specials = [item(sc.id, sc.name, "card", "gold") for i, sc in enumerate(d.specials) if s["special_owner"][i] == p]
        if s["start_card"][p] >= 0:
            specials.insert(0, item(d.starting[s["start_card"][p]].id, "starting card", "card", "grey"))
        facts: dict[str, Any] = {"vp": s["vp"][p], "coins": s["coins"][p]}
        facts.update({sym: s["sym"][p][i] for i, sym in enumerate(SYMBOLS)})
        if s["geheimbund"][p]:
            facts["geheimbund dice"] = s["geheimbund"][p]
        v["seats"].append({"seat": p, "name": f"P{p}", "facts": facts,
                           "zones": [zone("dice", dice), zone("cards", specials + persons)]})
    return v
