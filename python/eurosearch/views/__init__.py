"""Per-game views: what one seat may see of a state, as structured data.

A view is built only from the redacted state (``State.to_json(viewer=seat)``) and the seat's
observation, never from the full state, so it cannot show another seat's hidden cards. The
terminal (``views.text``) and the browser page draw the same view.

Shape of a view (plain JSON data)::

    {"game", "players", "seat", "title", "to_move" (seat or None), "over",
     "scores": [per seat], "seats": [{"seat", "name", "facts": {k: v}, "zones": [zone]}],
     "board": [zone]}
    zone = {"title", "items": [item], "note"}
    item = {"label", "name", "kind", "tone", "props": {k: v}}   # kind: card, die, cube, token, space

A game without a view function here gets the generic view (every redacted field by name), so
a new game can be played with no change to this package.
"""

from __future__ import annotations

import json
from typing import Any, Callable

View = dict[str, Any]
Zone = dict[str, Any]
Item = dict[str, Any]


def item(label: str, name: str = "", kind: str = "card", tone: str = "", **props: Any) -> Item:
    """One thing on the table: a card, die, cube, token or board space."""
    return {"label": label, "name": name, "kind": kind, "tone": tone, "props": props}


def zone(title: str, items: list[Item] | None = None, note: str = "") -> Zone:
    """A named group of items (a hand, a display, a mine level)."""
    return {"title": title, "items": items or [], "note": note}


def redacted(state: Any, seat: int) -> dict[str, Any]:
    """The fields of the state as `seat` may see them, as the struct's integers (the JSON form's
    format 1: the game views index their data tables with them)."""
    return json.loads(state.to_json(viewer=seat, format=1))["state"]


def title_line(state: Any) -> str:
    """The first line of the game's own text (game, round, phase, who acts).

    Only for games whose first line shows public facts (checked per game by the views'
    hidden-card tests); the rest of that text may show hidden cards and is never used."""
    return str(state).split("\n", 1)[0]


def base_view(state: Any, seat: int, title: str, scores: list[float]) -> View:
    """The fields every view has; the game's function fills seats and board."""
    cp = state.current_player
    return {
        "game": state.game.name, "players": state.game.players, "seat": seat, "title": title,
        "to_move": cp if cp >= 0 else None, "over": state.is_terminal(),
        "scores": scores, "seats": [], "board": [],
    }


def generic_view(state: Any, seat: int) -> View:
    """Every redacted field by name: the fallback for a game without a view function."""
    fields = redacted(state, seat)
    scores = state.scores() if state.is_terminal() else [0.0] * state.game.players
    v = base_view(state, seat, f"{state.game.name}, {state.game.players} players", scores)
    v["board"] = [zone("state", [item(k, str(val), kind="token") for k, val in fields.items()])]
    v["seats"] = [{"seat": p, "name": f"P{p}", "facts": {}, "zones": []} for p in range(state.game.players)]
    return v


def _registry() -> dict[str, Callable[[Any, int], View]]:
    from . import bruges, coal_baron, oh_my_goods, vienna, wolsung
    return {"oh_my_goods": oh_my_goods.view, "vienna": vienna.view, "coal_baron": coal_baron.view,
            "wolsung": wolsung.view, "bruges": bruges.view}


def view(state: Any, seat: int) -> View:
    """What `seat` sees of `state`: the game's own view, or the generic one."""
    g = state.game
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < g.players:
        raise ValueError(f"seat must be 0..{g.players - 1}, got {seat!r}")
    fn = _registry().get(g.name, generic_view)
    return fn(state, seat)


__all__ = ["View", "base_view", "generic_view", "item", "redacted", "title_line", "view", "zone"]
