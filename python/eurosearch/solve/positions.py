"""Positions for bulk solving: reading a JSON-lines file, and making positions by self-play.

One input line is a JSON object ``{"id": "...", "state": {...}}`` where ``state`` is a state
document as ``State.to_json()`` writes it (or that document as a string); a bare state
document is accepted too. ``id`` is optional (default: ``line-<n>``). Every line is checked
here, as it is read, so that a bad line is reported with its number.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator


@dataclass(frozen=True)
class Position:
    """One position to solve: its id, where it came from, and its state document (JSON text)."""

    id: str
    line: int          # 1-based line of the input file; 0 for generated positions
    state_json: str


class PositionError(ValueError):
    """A malformed input line; ``line`` is its 1-based number."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


def parse_line(text: str, line: int, game: Any) -> Position:
    """The position on one input line, validated against `game`; PositionError if malformed."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(line, f"not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise PositionError(line, "expected a JSON object")
    if "format" in obj and "state" in obj and "game" in obj:
        doc, pid = obj, None                      # a bare state document
    else:
        unknown = set(obj) - {"id", "state"}
        if unknown:
            raise PositionError(line, f"unknown key(s) {', '.join(sorted(unknown))} (expected id, state)")
        if "state" not in obj:
            raise PositionError(line, "no 'state'")
        doc, pid = obj["state"], obj.get("id")
    if pid is not None and (isinstance(pid, bool) or not isinstance(pid, (str, int))):
        raise PositionError(line, "'id' must be a string or an integer")
    state_json = doc if isinstance(doc, str) else json.dumps(doc, separators=(",", ":"))
    try:
        state = game.state_from_json(state_json)
    except ValueError as exc:                     # StateFormatError is a ValueError
        raise PositionError(line, f"bad state: {exc}") from None
    if state.is_terminal():
        raise PositionError(line, "the game is over in this state: nothing to solve")
    if state.is_chance():
        raise PositionError(line, "a chance node: give a position where a player is to move")
    return Position(str(pid) if pid is not None else f"line-{line}", line, state_json)


class PositionFile:
    """The positions of a JSON-lines file, read afresh at each iteration and never held in
    memory: a Position or the PositionError it raises for every non-blank line."""

    def __init__(self, path: str | Path, game: Any):
        self.path = path
        self.game = game

    def __iter__(self) -> Iterator[Position | PositionError]:
        with open(self.path, "rb") as fh:
            for n, raw in enumerate(fh, start=1):
                if not raw.strip():
                    continue
                try:
                    yield parse_line(_utf8(raw, n), n, self.game)
                except PositionError as exc:
                    yield exc

    def __len__(self) -> int:
        """How many items an iteration yields (its non-blank lines), counted without parsing."""
        with open(self.path, "rb") as fh:
            return sum(1 for raw in fh if raw.strip())


def _utf8(raw: bytes, line: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PositionError(line, f"not UTF-8 text (byte {exc.start + 1})") from None


def read_positions(path: str | Path, game: Any) -> PositionFile:
    """Every non-blank line of a positions file, as a Position or the PositionError it raises
    (a re-iterable that streams the file)."""
    return PositionFile(path, game)


def decision_path(game: Any, rng: random.Random, choose: Callable[[Any], int] | None = None) -> list[Any]:
    """Every decision node, in order, of one game played from a seeded start: chance sampled,
    decisions by `choose(state)` (default: uniformly at random)."""
    s = game.new_state(seed=rng.getrandbits(63))
    path = []
    while not s.is_terminal():
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(63)))
            continue
        path.append(s.clone())
        s.apply(choose(s) if choose else rng.choice(s.legal_moves()))
    return path


def generate_positions(game: Any, count: int, from_end: int, seed: int = 0,
                       random_share: float = 0.2) -> list[Position]:
    """`count` positions `from_end` decisions before the end of self-play games.

    The players are the game's greedy heuristic with a share of uniformly random moves (so
    that positions are varied but plausible). The same (game, count, from_end, seed) always
    gives the same positions, with ids ``gen-<seed>-<i>``, so a generated job can be resumed.
    """
    if count < 0 or from_end < 1:
        raise ValueError("--generate needs a count >= 0 and --from-end >= 1")
    rng = random.Random(seed)
    out: list[Position] = []
    tries = 0
    while len(out) < count:
        tries += 1
        if tries > 20 * count + 20:
            raise ValueError(f"self-play games of {game.name} are too short for --from-end {from_end}")
        def choose(s: Any) -> int:
            if rng.random() < random_share:
                return rng.choice(s.legal_moves())
            return s.heuristic_move(rng.getrandbits(63))

        path = decision_path(game, rng, choose)
        if len(path) >= from_end:
            out.append(Position(f"gen-{seed}-{len(out)}", 0, path[-from_end].to_json()))
    return out
