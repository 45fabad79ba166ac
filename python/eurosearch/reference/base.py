"""What every plain-Python reference engine shares: the checks of its constructor and of a
move id, the returns of a finished game and the random playout the benchmarks time.

The references are written from the rules, each in its own module; only mechanics that are
the same in every game live here, so that a reference stays readable on its own."""

from __future__ import annotations

import operator
import random
from typing import Any, Protocol


def check_players(game: str, players: int, lo: int, hi: int) -> None:
    """ValueError unless lo <= players <= hi."""
    if not lo <= players <= hi:
        raise ValueError(f"{game} takes {lo}..{hi} players, got {players}")


def check_start_player(start_player: int | None, players: int) -> None:
    """ValueError unless the option is None (chance decides) or a seat."""
    if start_player is not None and not 0 <= start_player < players:
        raise ValueError(f"start_player must be None or a seat 0..{players - 1}, got {start_player!r}")


def move_id(move: Any) -> int:
    """`move` as an int move id; ValueError for anything else (a bool included)."""
    if isinstance(move, bool):
        raise ValueError(f"not a move id: {move!r}")
    try:
        return operator.index(move)
    except TypeError:
        raise ValueError(f"not a move id: {move!r}") from None


def shared_returns(players: int, over: bool, winners: list[int]) -> list[float]:
    """0 for everyone until the game is over; then the winners share 1."""
    if not over:
        return [0.0] * players
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(players)]


class RefState(Protocol):
    def is_terminal(self) -> bool: ...
    def is_chance(self) -> bool: ...
    def legal_moves(self) -> list[int]: ...
    def sample_chance(self, rng: random.Random) -> int: ...
    def apply(self, move: int) -> None: ...
    def scores(self) -> list[float]: ...


def random_playout(state: RefState, rng: random.Random) -> tuple[list[float], int]:
    """Play `state` to the end, choosing uniformly among legal moves and sampling chance
    outcomes by their probabilities; (final scores, decisions taken). A sampled outcome goes
    through the state's apply_sampled where it has one (no legality check: it was drawn
    from the outcomes), else through apply."""
    apply_outcome = getattr(state, "apply_sampled", state.apply)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance():
            apply_outcome(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_moves()))
            decisions += 1
    return state.scores(), decisions
