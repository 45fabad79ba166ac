"""``eurosearch replay FILE``: a recorded game move by move, with the board after each."""

from __future__ import annotations

from typing import TextIO

from ..views import text as view_text, view
from .record import GameRecord, game_of, replay_states
from .terminal import format_top


def print_replay(rec: GameRecord, out: TextIO, seat: int = 0, color: bool = False, boards: bool = True) -> None:
    """Every step of the record (whole texts: the game is over) and the board `seat` saw."""
    g = game_of(rec)
    states = replay_states(g, rec)
    if not 0 <= seat < g.players:
        raise ValueError(f"seat must be 0..{g.players - 1}, got {seat}")
    out.write(f"{rec.game}, {rec.players} players, seats: {', '.join(rec.seats)}; {len(rec.steps)} steps\n")
    for i, st in enumerate(rec.steps):
        who = "chance" if st.player < 0 else f"P{st.player}"
        out.write(f"\n{i + 1}. {who}: {st.text}" + (f"  ({st.agent}, {st.seconds:.1f}s)" if st.agent else "") + "\n")
        if st.alternatives:
            out.write(format_top(st.alternatives) + "\n")
        if boards and st.player >= 0:
            out.write(view_text.render(view(states[i + 1], seat), color=color) + "\n")
    end = states[-1]
    if end.is_terminal():
        out.write("\n" + view_text.render(view(end, seat), color=color) + "\n")
        out.write(f"final scores: {', '.join(f'P{p} {s:g}' for p, s in enumerate(end.scores()))}\n")
    else:
        out.write("\n(the record ends before the game does)\n")
