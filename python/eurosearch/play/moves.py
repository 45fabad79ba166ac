"""Moves as a player sees them: grouped by kind with their text, and other players' moves
(or chance outcomes) shown only as far as the viewing seat can tell them apart."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class MoveChoice:
    """One legal move in the numbered list a player picks from (numbers start at 1)."""

    number: int
    move: int
    text: str
    kind: str


def kind_of(text: str) -> str:
    """The kind of a move: the first word of its text ("place", "draw", "buy")."""
    return text.split(" ", 1)[0] if text else "?"


def grouped_moves(state: Any) -> list[MoveChoice]:
    """The legal moves grouped by kind (kinds in order of first appearance), numbered from 1.

    The order is stable: the same state always lists the same moves under the same numbers."""
    texts = [(m, state.move_to_str(m)) for m in state.legal_moves()]
    kinds: dict[str, list[tuple[int, str]]] = {}
    for m, t in texts:
        kinds.setdefault(kind_of(t), []).append((m, t))
    out: list[MoveChoice] = []
    for kind, items in kinds.items():
        for m, t in items:
            out.append(MoveChoice(len(out) + 1, m, t, kind))
    return out


def _view_after(state: Any, move: int, viewer: int) -> str:
    s = state.clone()
    s.apply(move)
    return s.to_json(viewer=viewer)


def visible_to(state: Any, move: int, viewer: int) -> bool:
    """Whether `viewer` can tell `move` (made in `state`) from every other choice there.

    The move is hidden when the game says so (``State.move_view`` maps it to another id, as
    for an opponent's face-down card even when no other move of the same colour is legal), or
    when another legal move or chance outcome leaves `viewer` with the same view afterwards (a
    check on the redacted states only, for games without the hook)."""
    if state.move_view(move, viewer) != move:
        return False
    after = state.clone()
    after.apply(move)
    seen = after.to_json(viewer=viewer)
    full = after.to_json()
    if seen[: seen.rfind(',"viewer"')] + "}" == full:   # nothing hidden from viewer afterwards
        return True
    others = [o for o, _ in state.chance_outcomes()] if state.is_chance() else state.legal_moves()
    return not any(o != move and _view_after(state, o, viewer) == seen for o in others)


def public_text(state: Any, move: int, viewer: int | None) -> str:
    """The text of `move` (made in `state`) as `viewer` may read it; None: the full text."""
    text = state.move_to_str(move)
    if viewer is None or visible_to(state, move, viewer):
        return text
    return f"{kind_of(text)} (hidden)"


def moves_public(state: Any, viewer: int, samples: int = 3) -> bool:
    """Whether `viewer` could list the legal moves here: the same in every world consistent
    with what `viewer` saw (checked on a few determinizations). An AI's alternatives are shown
    to a person only then, since a legal move can give away a hidden card."""
    if state.current_player < 0 or state.current_player == viewer:
        return True
    texts = sorted(state.move_to_str(m) for m in state.legal_moves())
    for seed in range(samples):
        d = state.determinize(viewer, seed)
        if sorted(d.move_to_str(m) for m in d.legal_moves()) != texts:
            return False
    return True
