"""The Coal Baron view: action spaces, the tile factory and order display, and each
player's mine levels, cage, storage and orders. Another player's draw-5 look is shown as
face-down items."""

from __future__ import annotations

from typing import Any

from ..games.coal_baron_data import COLOURS, VEHICLES
from . import View, base_view, item, redacted, title_line, zone

COLOUR_TONES = {"Y": "yellow", "B": "brown", "G": "grey", "K": "black"}
HIDDEN = 255                 # ES_KDECK_HIDDEN in a redacted draw-5 buffer; also "empty" slots
BUF_TILES, BUF_ORDERS = 1, 2


def _cubes(counts: list[int]) -> list[dict[str, Any]]:
    return [item(c, f"{COLOUR_TONES[c]} coal", "cube", COLOUR_TONES[c]) for k, c in enumerate(COLOURS) for _ in range(counts[k])]


def _order(d: Any, s: dict[str, Any], c: int) -> dict[str, Any]:
    card = d.cards[c]
    need = "".join(COLOURS[k] * card.spaces[k] for k in range(len(COLOURS)))
    have = "".join(COLOURS[k] * s["oncard"][c][k] for k in range(len(COLOURS)))
    it = item(card.id, VEHICLES[card.vehicle], "card", "white", vp=card.vp, needs=need)
    if have:
        it["props"]["loaded"] = have
    return it


def _tile(d: Any, t: int) -> dict[str, Any]:
    tile = d.tiles[t]
    return item(tile.id, "tunnel tile", "card", COLOUR_TONES[COLOURS[tile.colour]], carts=tile.carts, cost=tile.cost,
                side="dark" if tile.side else "light")


def _bits(x: int) -> list[int]:
    return [i for i in range(64) if (x >> i) & 1]


def view(state: Any, seat: int) -> View:
    g = state.game
    d = g.data
    n = g.players
    s = redacted(state, seat)
    v = base_view(state, seat, title_line(state), [float(s["vp"][p] - s["penalty"][p]) for p in range(n)])
    spaces = []
    for sp in d.spaces:
        if sp.min_players > n:
            continue
        props: dict[str, Any] = {}
        if s["count"][sp.index]:
            props["workers"] = f"P{s['owner'][sp.index]} x{s['count'][sp.index]}"
        spaces.append(item(sp.id, sp.kind, "space", "", **props))
    factory = [_tile(d, t) for t in s["factory"] if t != HIDDEN]
    display = [_order(d, s, c) for c in s["display"] if c != HIDDEN]
    v["board"] = [zone("action spaces", spaces),
                  zone("tile factory", factory, f"stack {s['tiles.unknown_n'] + s['tiles.top_n'] + s['tiles.bot_n']}"),
                  zone("order display", display,
                       f"deck {s['orders.unknown_n'] + s['orders.top_n'] + s['orders.bot_n']}"),
                  zone("coal supply", [item(f"{c}{s['coal'][k]}", "coal", "cube", COLOUR_TONES[c])
                                       for k, c in enumerate(COLOURS)])]
    if s["pool"]:
        v["board"].append(zone("draft pool", [_order(d, s, c) for c in _bits(s["pool"])]))
    if s["buf_kind"]:
        look = [item("??", "face down", "card", "hidden") if b == HIDDEN else
                (_tile(d, b) if s["buf_kind"] == BUF_TILES else _order(d, s, b)) for b in s["buf"][:s["buf_n"]]]
        v["board"].append(zone(f"draw-5 look of P{s['turn']}", look))
    for p in range(n):
        mine = [zone(f"level {lvl + 1}: {s['carts'][p][lvl]} carts", _cubes(s["mine"][p][lvl * 4:lvl * 4 + 4]))  # mine is [seat][level * 4 + colour]
                for lvl in range(len(COLOURS))]
        zones = [zone(f"cage at level {s['cage_level'][p]}", _cubes(s["cage"][p])),
                 zone("storage", _cubes(s["storage"][p])), *mine,
                 zone("orders", [_order(d, s, c) for c in _bits(s["outstanding"][p])]),
                 zone("delivered", [_order(d, s, c) for c in _bits(s["delivered"][p])])]
        facts = {"vp": s["vp"][p] - s["penalty"][p], "marks": s["money"][p], "workers": s["supply"][p],
                 "tiles": f"{s['light'][p]} light / {s['dark'][p]} dark"}
        v["seats"].append({"seat": p, "name": f"P{p}", "facts": facts, "zones": zones})
    return v
