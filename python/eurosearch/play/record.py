"""Game records: a game's setup and every move and chance outcome, as JSON.

A record is enough to rebuild every state of the game (the moves are replayed from the
initial state), and carries a fingerprint of the component data and options so that a record
is never replayed on different cards.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..api import Game, State, game as make_game
from ..errors import IllegalMoveError, StateFormatError
from ..files import read_text, write_atomically

FORMAT = 1
CHANCE_PLAYER = -1


def data_fingerprint(g: Game) -> str:
    """The game's fingerprint (its data table and options, as the core hashes them for the
    binary and JSON state forms): two games with the same fingerprint and player count play by
    the same rules on the same components."""
    return g.fingerprint


@dataclass
class Step:
    """One move or chance outcome: who (CHANCE_PLAYER for chance), the id, its text."""

    player: int
    move: int
    text: str
    seconds: float = 0.0
    agent: str | None = None                   # the AI that chose it; None for a person or chance
    alternatives: list[dict[str, Any]] = field(default_factory=list)   # the AI's top moves


@dataclass
class GameRecord:
    game: str
    players: int
    options: dict[str, Any]
    fingerprint: str
    seed: int
    seats: list[str]                           # "human" or an agent spec per seat
    steps: list[Step] = field(default_factory=list)
    data: str | None = None                    # a user's data file, if one was used
    meta: dict[str, Any] = field(default_factory=dict)   # e.g. {"source": "match", "index": 3}

    def history(self) -> list[tuple[int, int, str]]:
        """The moves from the start: (player or CHANCE_PLAYER, move id, text)."""
        return [(s.player, s.move, s.text) for s in self.steps]

    def to_json(self) -> str:
        doc = {"format": FORMAT, **asdict(self)}
        return json.dumps(doc, indent=1)

    def save(self, path: str | Path) -> None:
        """Write the record; written to a temporary file first so a failure never leaves a
        half-written record in place of an old one."""
        write_atomically(path, self.to_json())


def options_dict(g: Game) -> dict[str, Any]:
    """The game's parsed options as plain JSON data."""
    try:
        return {k: v for k, v in asdict(g.options).items()}
    except TypeError:
        return {}


def new_record(g: Game, seed: int, seats: list[str], data: str | None = None) -> GameRecord:
    return GameRecord(g.name, g.players, options_dict(g), data_fingerprint(g), seed, seats, data=data)


def _fail(msg: str) -> StateFormatError:
    return StateFormatError(f"bad game record: {msg}")


def parse_record(text: str) -> GameRecord:
    """A record from its JSON text; StateFormatError naming what is wrong."""
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise _fail(f"not JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise _fail("expected a JSON object")
    if doc.get("format") != FORMAT:
        raise _fail(f"unknown format {doc.get('format')!r}")
    types = {"game": str, "players": int, "options": dict, "fingerprint": str, "seed": int, "seats": list,
             "steps": list}
    for key, t in types.items():
        if not isinstance(doc.get(key), t) or isinstance(doc.get(key), bool):
            raise _fail(f"field {key!r} must be {t.__name__}")
    steps = []
    for i, st in enumerate(doc["steps"]):
        if not isinstance(st, dict) or not all(isinstance(st.get(k), int) and not isinstance(st.get(k), bool)
                                               for k in ("player", "move")) or not isinstance(st.get("text"), str):
            raise _fail(f"step {i + 1} needs integer player and move and a text")
        alternatives = st.get("alternatives") or []
        if not isinstance(alternatives, list) or not all(
                isinstance(a, dict) and isinstance(a.get("text"), str) and isinstance(a.get("visits"), int)
                and (a.get("win") is None or isinstance(a.get("win"), (int, float))) for a in alternatives):
            raise _fail(f"step {i + 1}: alternatives must be objects with text, visits and win")
        seconds, agent = st.get("seconds") or 0.0, st.get("agent")
        if not isinstance(seconds, (int, float)) or (agent is not None and not isinstance(agent, str)):
            raise _fail(f"step {i + 1}: seconds must be a number and agent a string")
        steps.append(Step(st["player"], st["move"], st["text"], float(seconds), agent, alternatives))
    if len(doc["seats"]) != doc["players"]:
        raise _fail(f"{len(doc['seats'])} seats for {doc['players']} players")
    data = doc.get("data")
    meta = doc.get("meta")
    return GameRecord(doc["game"], doc["players"], doc["options"], doc["fingerprint"], doc["seed"],
                      [str(x) for x in doc["seats"]], steps, data if isinstance(data, str) else None,
                      meta if isinstance(meta, dict) else {})


def load_record(path: str | Path) -> GameRecord:
    """Read a record file; StateFormatError for a missing, unreadable or corrupt file."""
    return parse_record(read_text(path, StateFormatError, "game record"))


def game_of(rec: GameRecord, data: str | Path | None = None) -> Game:
    """The game a record was played in; StateFormatError if this data or these options differ."""
    try:
        g = make_game(rec.game, players=rec.players, data=data if data is not None else rec.data,
                      options=rec.options)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if data_fingerprint(g) != rec.fingerprint:
        raise _fail(f"it was played with other component data or options (fingerprint {rec.fingerprint}, "
                    f"this data gives {data_fingerprint(g)})")
    return g


def replay_states(g: Game, rec: GameRecord) -> list[State]:
    """Every state of the record: states[0] the initial state, states[i] after i steps.
    StateFormatError naming the first step that is not legal or whose text disagrees."""
    s = g.initial_state()
    states = [s.clone()]
    for i, st in enumerate(rec.steps):
        cp = s.current_player
        if cp != st.player:
            raise _fail(f"step {i + 1} is by {st.player}, but {cp} is to move")
        try:
            text = s.move_to_str(st.move)     # IllegalMoveError for a move that is not legal here
            if text != st.text:
                raise _fail(f"step {i + 1} reads {st.text!r}, but move {st.move} is {text!r} here")
            s.apply(st.move)
        except IllegalMoveError as exc:
            raise _fail(f"step {i + 1}: {exc}") from None
        states.append(s.clone())
    return states


class Recorder:
    """Builds the record of a game played elsewhere (``match`` and ``arena --record DIR``):
    ``step`` is called with each move or chance outcome before it is applied."""

    def __init__(self, g: Game, seed: int, seats: list[str], index: int, source: str, directory: str | Path,
                 data: str | None = None):
        self.record = new_record(g, seed, seats, data)
        self.record.meta = {"source": source, "index": index}
        self.path = Path(directory) / f"{g.name}-{source}-seed{seed}-game{index:05d}.json"
        self.last = time.monotonic()

    def step(self, state: State, player: int, move: int) -> None:
        now = time.monotonic()
        agent = self.record.seats[player] if player >= 0 else None
        self.record.steps.append(Step(player, move, state.move_to_str(move),
                                      round(now - self.last, 4) if agent else 0.0, agent))
        self.last = now

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.record.save(self.path)
