"""The public entry points: which games exist and how to create one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import _native
from .gamedata import DataError
from .games import GAMES, GameSpec

Game = _native.Game
State = _native.State
CHANCE: int = _native.CHANCE
TERMINAL: int = _native.TERMINAL


def games() -> list[str]:
    """Names of the implemented games."""
    return sorted(GAMES)


def game_spec(name: str) -> GameSpec:
    """The registry entry of a game; ValueError listing the games for an unknown name."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; implemented: {', '.join(games())}") from None


def game(
    name: str,
    players: int | None = None,
    data: str | Path | None = None,
    options: dict[str, Any] | None = None,
) -> Game:
    """Create a game.

    Args:
        name: one of :func:`games`.
        players: the player count (default: the game's smallest); a count outside the
            game's range raises ValueError naming the range.
        data: a component data file of the game's format (TOML or JSON); default: the
            bundled file. Errors name the entry and the field.
        options: switches for the rules file's open questions, e.g.
            ``{"carriage": "furthest"}``; unknown keys raise ValueError.
    """
    spec = game_spec(name)
    if players is None:
        players = spec.min_players
    if isinstance(players, bool) or not isinstance(players, int) or not spec.min_players <= players <= spec.max_players:
        raise ValueError(f"{name} takes {spec.min_players} to {spec.max_players} players, got {players!r}")
    opts = spec.parse_options(options, players)
    loaded = spec.load_data(data, opts)
    g = _new_native_game(name, players, loaded, spec.table(loaded), spec.option_array(opts))
    g.data = loaded
    g.options = opts
    g.spec = spec
    return g


def _new_native_game(name: str, players: int, loaded: Any, table: list[int], options: list[int]) -> Game:
    """The native game; DataError for data the C setup refuses.

    The loader checks each entry of the data file, but some checks need the player count or
    the engine's limits (e.g. a starting card for every player) and live in the game's C
    setup, whose message then starts with "<name> data: " and names the entry and the field.
    """
    try:
        return _native.Game(name, players, table, options)
    except ValueError as exc:
        prefix = f"{name} data: "
        message = str(exc)
        if message.startswith(prefix):
            raise DataError(f"{loaded.origin}: {message[len(prefix):]}") from None
        raise


def _rebuild_game(name: str, players: int, loaded: Any, opts: Any) -> Game:
    """Unpickling a Game: the native game rebuilt from the loaded data and parsed options it
    was made with (a user data file's content travels with it, not its path)."""
    spec = game_spec(name)
    g = _new_native_game(name, players, loaded, spec.table(loaded), spec.option_array(opts))
    g.data = loaded
    g.options = opts
    g.spec = spec
    return g
