"""The registry of implemented games: for each, its data loader, options and native name.

Adding a game means a C module registered in ``csrc/core/registry.c`` and one entry here;
nothing in the search code changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import vienna


@dataclass(frozen=True)
class GameSpec:
    """What the Python layer needs to create one game."""

    name: str
    min_players: int
    max_players: int
    #: (data path or None, parsed options) -> validated data object with a ``sources`` dict
    load_data: Callable[[str | Path | None, Any], Any]
    #: (user options dict or None, players) -> options object
    parse_options: Callable[[dict[str, Any] | None, int], Any]
    #: validated data -> int32 table for the C core
    table: Callable[[Any], list[int]]
    #: options object -> int32 option array for the C core
    option_array: Callable[[Any], list[int]]
    #: (data, players, options) -> the plain-Python reference engine (has initial_state())
    reference: Callable[[Any, int, Any], Any]
    #: (reference engine, random.Random) -> (final scores, decisions): one random game
    reference_playout: Callable[[Any, Any], tuple[list[float], int]]


GAMES: dict[str, GameSpec] = {
    "vienna": GameSpec(
        name="vienna",
        min_players=vienna.MIN_PLAYERS,
        max_players=vienna.MAX_PLAYERS,
        load_data=vienna.load_data,
        parse_options=vienna.parse_options,
        table=vienna.table,
        option_array=vienna.option_array,
        reference=vienna.reference,
        reference_playout=vienna.reference_playout,
    ),
}
