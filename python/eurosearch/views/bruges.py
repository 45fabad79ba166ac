"""The Bruges view: piles with their top colours, dice, statues, and per player the hand,
houses with their persons, canals, workers, threats, money, reputation and markers.

Built only from the redacted state (``to_json(viewer=seat)``): there, every card the seat
cannot identify (an opponent's hand card or face-down house, a card still in the piles) carries
a placeholder id of the right colour, so this view shows such a card by its colour alone and
names only the cards the seat knows (its own hand and houses, persons, discards, and cards that
went back to a hand in public, spec 6.1 / 6.2). Bundled data: the provisional person set.
"""

from __future__ import annotations

from typing import Any

from ..games.bruges_data import COLOURS
from . import View, base_view, item, redacted, zone

# Card zones and flags in the state (csrc/games/bruges.h).
Z_POOL, Z_HAND, Z_HOUSE, Z_PERSON, Z_DISCARD = range(5)
F_ROTATED, F_PUBLIC = 1, 2
PH_DICE, PH_OVER = 3, 7
MARKERS = ("reputation", "persons", "canals")


def _known(s: dict[str, Any], c: int, seat: int) -> bool:
    """Whether `seat` knows which card c is (else only its colour)."""
    z = s["zone"][c]
    if z in (Z_PERSON, Z_DISCARD):
        return True
    if z == Z_HAND:
        return s["owner"][c] == seat or bool(s["flags"][c] & F_PUBLIC)
    return z == Z_HOUSE and s["owner"][c] == seat


def _card(d: Any, c: int, **extra: Any) -> dict[str, Any]:
    q = d.cards[c]
    props: dict[str, Any] = {"cost": q.cost, "vp": q.vp, "group": d.groups[q.group]}
    if q.activation != "none":
        props["icon"] = q.activation if q.activation != "worker" else f"{COLOURS[q.worker_colour]} worker"
    if q.effect != "none":
        props["effect"] = q.effect + (f" {q.amount}" if q.amount else "")
        if q.group_param >= 0:
            props["effect"] += f" per {d.groups[q.group_param]}"
    props.update(extra)
    return item(q.id, q.name, "card", COLOURS[q.colour], **props)


def _back(d: Any, c: int, what: str) -> dict[str, Any]:
    """A card seen from the back: only its colour."""
    colour = COLOURS[d.cards[c].colour]
    return item("?", what, "card", colour, colour=colour)


def view(state: Any, seat: int) -> View:
    g = state.game
    d = g.data
    n = g.players
    s = redacted(state, seat)
    # The engine's text of the redacted state opens with the public header line (round,
    # phase, start player, who moves); views.title_line would read the omniscient text.
    title = state.to_text(viewer=seat).split("\n")[1]
    v = base_view(state, seat, title, [float(x) for x in state.scores()])
    cards = range(len(d.cards))

    piles = []
    for sl, name in enumerate(("pile A", "pile B")):
        if s["size"][sl]:
            top = COLOURS[s["top"][sl]]
            piles.append(item(name, f"top {top}", "token", top, cards=s["size"][sl], top=top))
        else:
            piles.append(item(name, "empty", "token", "grey", cards=0))
    if not s["extra_entered"]:
        piles.append(item("extra pile", "set aside", "token", "grey", cards=s["extra_size"]))
    final = {1: "final round", 2: "next round is final"}.get(s["final_flag"], "")
    v["board"].append(zone("draw piles", piles, "; ".join(x for x in (final, "provisional data") if x)))
    if s["phase"] > PH_DICE or any(s["die"]):
        dice = [item(f"{COLOURS[k]} {f}", "", "die", COLOURS[k]) for k, f in enumerate(s["die"]) if f]
        v["board"].append(zone("dice", dice))
    stack = d.statues[s["statues_taken"]:]
    v["board"].append(zone("statues (top first)", [item(str(x), "statue", "token", "white") for x in stack]))
    discards = [c for c in cards if s["zone"][c] == Z_DISCARD]
    per_colour = [(k, sum(1 for c in discards if d.cards[c].colour == k)) for k in range(5)]
    v["board"].append(zone("discard pile (face up)", [item(f"{COLOURS[k]} {x}", "", "cube", COLOURS[k], count=x)
                                                      for k, x in per_colour if x], f"{len(discards)} cards"))

    person_on = {s["link"][c]: c for c in cards if s["zone"][c] == Z_PERSON}   # house card -> its person
    for p in range(n):
        hand = [c for c in cards if s["zone"][c] == Z_HAND and s["owner"][c] == p]
        pending = [item("?", "being drawn", "card", COLOURS[k], colour=COLOURS[k])
                   for k in range(5) for _ in range(s["pending"][p][k])]
        shown = [_card(d, c, seen_by_all=True) if s["flags"][c] & F_PUBLIC and p != seat
                 else _card(d, c) if _known(s, c, seat) else _back(d, c, "card") for c in hand]
        houses = sorted((c for c in cards if s["zone"][c] == Z_HOUSE and s["owner"][c] == p), key=lambda c: s["link"][c])
        display = []
        for number, h in enumerate(houses, 1):
            person = person_on.get(h)
            house = _card(d, h, face_down=True) if _known(s, h, seat) else _back(d, h, "house")
            house["props"]["house"] = number
            display.append(house)
            if person is not None:
                display.append(_card(d, person, on_house=number, used=bool(s["flags"][person] & F_ROTATED)))
        canals = []
        for sec in range(2):
            built = s["canal"][p][sec]
            # spaces from the guard tower outward; built ones in brackets (kind "cube": one text line)
            spaces = [item(f"[{COLOURS[k]}]" if i < built else COLOURS[k], "canal space", "cube", COLOURS[k],
                           cost=d.canal_cost[i], built=i < built) for i, k in enumerate(d.canal_colour[p][sec])]
            statue = s["statue"][p][sec]
            note = f"{built}/5" + (f", next costs {d.canal_cost[built]}" if built < 5 else "")
            canals.append(zone(f"canal {sec}", spaces, note + (f", statue {statue}" if statue else "")))
        facts: dict[str, Any] = {
            "score": s["score"][p], "money": s["money"][p],
            "reputation": f"{s['rep'][p]} ({d.rep_vp[s['rep'][p]]} VP)",
            "hand": len(hand) + len(pending),
            "workers": " ".join(f"{COLOURS[k]} {x}" for k, x in enumerate(s["workers"][p]) if x) or "none",
            "threats": " ".join(f"{COLOURS[k]} {x}" for k, x in enumerate(s["threats"][p]) if x) or "none",
        }
        flipped = [MARKERS[m] for m in range(3) if s["markers"][p] >> m & 1]
        if flipped:
            facts["majorities"] = " ".join(flipped)
        if s["start"] == p:
            facts["start player"] = True
        zones = [zone("your hand" if p == seat else "hand", shown + pending),
                 zone("houses and persons", display)] + canals
        v["seats"].append({"seat": p, "name": f"P{p}", "facts": facts, "zones": zones})
    return v
