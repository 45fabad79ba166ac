"""The Wolsung view: the Design Office, the sidings, the order track and each workshop
(storage, workers, upgrades, built machines). Only the viewer's own task card is shown."""

from __future__ import annotations

from typing import Any

from ..games.wolsung_data import REGIONS, RESOURCES, TYPES
from . import View, base_view, item, redacted, title_line, zone

SEAT_TONES = ("red", "blue", "green", "yellow")
UPGRADES = ("fourth worker", "time machine", "converter")


def _machine(d: Any, c: int) -> dict[str, Any]:
    m = d.machines[c]
    cost = {RESOURCES[r]: k for r, k in enumerate(m.cost) if k}
    return item(m.id, f"{TYPES[m.type]} of {REGIONS[m.region]}", "card", "white", vp=m.vp, **cost)


def view(state: Any, seat: int) -> View:
    g = state.game
    d = g.data
    n = g.players
    s = redacted(state, seat)
    v = base_view(state, seat, title_line(state), [float(x) for x in state.scores()] if state.is_terminal() else [0.0] * n)
    office = [_machine(d, c) if c >= 0 else item("empty", "", "space") for c in s["office"]]
    sidings = [zone(f"{fid} siding", [item(RESOURCES[r], "", "cube", "", count=k) for r, k in enumerate(s["siding"][f]) if k])
               for f, fid in enumerate(d.factory_ids)]
    track = [item("neutral" if q == 4 else f"P{q}", "order track", "token", "grey" if q == 4 else SEAT_TONES[q], workers=s["cnt"][i])
             for i, q in enumerate(s["order"][:s["order_len"]])]
    v["board"] = [zone("design office (top first)", office,
                       f"draw deck {bin(s['deck']).count('1')}, deck B {bin(s['deck_b']).count('1')}, "
                       f"discard {bin(s['discard']).count('1')}; provisional data")] + sidings + [zone("order track", track)]
    for p in range(n):
        facts: dict[str, Any] = {RESOURCES[r]: s["storage"][p][r] for r in range(5)}
        facts.update({"workshop": s["workshop"][p], "supply": s["supply"][p],
                      "in factories": "/".join(str(x) for x in s["fac"][p])})
        if s["hidden_workers"][p]:   # hidden placement (spec 4.9): not yet opened, total only
            facts["hidden in factories"] = s["hidden_workers"][p]
        if s["fe"] == p:
            facts["first engineer"] = True
        built = [_machine(d, c) for c in range(len(d.machines)) if (s["owned"][p] >> c) & 1]
        ups = [item(UPGRADES[u], "upgrade", "token", SEAT_TONES[p]) for u in range(3) if (s["upg"][p] >> u) & 1]
        zones = [zone("machines", built), zone("upgrades", ups)]
        if s["task"][p] >= 0:
            card = d.task_cards[s["task"][p]]
            zones.append(zone("task card " + card.id, [
                item(f"{t.points} pts", " ".join((TYPES + REGIONS)[i] for i in t.icons), "card", "gold") for t in card.tasks]))
        v["seats"].append({"seat": p, "name": f"P{p}", "facts": facts, "zones": zones})
    return v
