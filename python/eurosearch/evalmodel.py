"""Learned evaluations: a weight per observation feature, so that MCTS ends a playout cut short
in win chances learned from self-play instead of the game's hand-written evaluation.

Player q's logit is ``weights . observation(q) + eval_weight * evaluate()[q]`` and the
returns are the softmax of the logits over the players (a conditional logit model: the
chance that q is the one who wins). The search runs it in C (``es_eval_model`` in
``csrc/include/eurosearch.h``); this module reads, checks and writes the weight files.
``python/eurosearch/evaltrain.py`` makes them (``eurosearch train-eval``).

A model belongs to one game and one player count (the observation's size depends on both).
The models shipped with the package live in ``data/eval/<game>-<players>p.json``; a file a
user trained themselves loads the same way (``mcts:eval=path/to/model.json``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .files import read_text, write_atomically
from .gamedata import DataError

FORMAT = "eurosearch-eval-model"
VERSION = 1
SHIPPED_DIR = Path(__file__).resolve().parent / "data" / "eval"


class EvalModelError(DataError):
    """An evaluation model file is unreadable, malformed, or made for another game."""


@dataclass(frozen=True)
class EvalModel:
    """A learned evaluation for `game` with `players` players.

    `weights` has one float per observation feature (the game's ``observation_size``);
    `eval_weight` multiplies the game's own evaluation; `training` records how the model was
    made (self-play games, search budget, held-out log-loss against the hand evaluation) and
    whether it rests on provisional game data."""

    game: str
    players: int
    weights: np.ndarray
    eval_weight: float
    training: dict[str, Any] = field(default_factory=dict)

    def search_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``State.mcts`` that make a search use this model."""
        return {"eval_weights": self.weights, "eval_weight": self.eval_weight}

    def check_game(self, game: Any) -> None:
        """Raise EvalModelError unless this model fits `game` (name, players, observation size)."""
        if (self.game, self.players) != (game.name, game.players):
            raise EvalModelError(f"evaluation model for {self.game} with {self.players} players cannot "
                                 f"evaluate {game.name} with {game.players} players")
        if len(self.weights) != game.observation_size:
            raise EvalModelError(f"evaluation model for {self.game} has {len(self.weights)} weights but the "
                                 f"game's observation has {game.observation_size} features (retrain it)")

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "game": self.game, "players": self.players,
                "observation_size": len(self.weights), "eval_weight": self.eval_weight,
                "training": self.training, "weights": [float(w) for w in self.weights]}

    def save(self, path: str | Path, overwrite: bool = False) -> Path:
        """Write the model as JSON (through a temporary file, so a failed write leaves any
        earlier file whole); refuses to replace an existing file unless `overwrite`."""
        target = Path(path)
        if target.exists() and not overwrite:
            raise FileExistsError(f"{target} exists; pass overwrite=True (--force) to replace it")
        return write_atomically(target, json.dumps(self.to_dict(), indent=1) + "\n")


def _field(doc: dict[str, Any], key: str, kinds: tuple[type, ...], where: str) -> Any:
    if key not in doc:
        raise EvalModelError(f"{where}: missing field {key!r}")
    value = doc[key]
    if not isinstance(value, kinds) or isinstance(value, bool):
        raise EvalModelError(f"{where}: field {key!r} has the wrong type ({type(value).__name__})")
    return value


def from_dict(doc: Any, where: str = "evaluation model") -> EvalModel:
    """Check a parsed model file and build the model; EvalModelError names what is wrong."""
    if not isinstance(doc, dict):
        raise EvalModelError(f"{where}: not a JSON object")
    if doc.get("format") != FORMAT:
        raise EvalModelError(f"{where}: not an evaluation model (format must be {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise EvalModelError(f"{where}: version {doc.get('version')!r} is not supported (this package reads {VERSION})")
    game = _field(doc, "game", (str,), where)
    players = _field(doc, "players", (int,), where)
    size = _field(doc, "observation_size", (int,), where)
    eval_weight = float(_field(doc, "eval_weight", (int, float), where))
    raw = _field(doc, "weights", (list,), where)
    training = doc.get("training", {})
    if not isinstance(training, dict):
        raise EvalModelError(f"{where}: field 'training' must be an object")
    if not 1 <= players <= 8:
        raise EvalModelError(f"{where}: players must be 1..8, got {players}")
    if len(raw) != size:
        raise EvalModelError(f"{where}: {len(raw)} weights but observation_size is {size}")
    if not all(isinstance(w, (int, float)) and not isinstance(w, bool) for w in raw):
        raise EvalModelError(f"{where}: weights must all be numbers")
    weights = np.asarray(raw, dtype=np.float32)
    if not (np.isfinite(weights).all() and math.isfinite(eval_weight)):
        raise EvalModelError(f"{where}: weights must be finite numbers")
    return EvalModel(game, players, weights, eval_weight, training)


def load(path: str | Path) -> EvalModel:
    """Read a model file written by EvalModel.save (or shipped with the package)."""
    p = Path(path)
    text = read_text(p, EvalModelError, "evaluation model")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EvalModelError(f"{p}: not valid JSON ({exc})") from None
    return from_dict(doc, str(p))


def shipped_path(game_name: str, players: int) -> Path:
    """Where the package keeps its model for `game_name` with `players` players."""
    return SHIPPED_DIR / f"{game_name}-{players}p.json"


def shipped(game_name: str, players: int) -> EvalModel | None:
    """The package's model for this game and player count, or None if it has none."""
    path = shipped_path(game_name, players)
    return load(path) if path.exists() else None


def for_game(spec: str, game: Any) -> EvalModel | None:
    """The model an agent's ``eval=`` setting names, checked against `game`: None for
    ``hand`` (the game's evaluation), the shipped model for ``learned``, else a file path."""
    if spec == "hand":
        return None
    if spec == "learned":
        model = shipped(game.name, game.players)
        if model is None:
            raise EvalModelError(f"no learned evaluation ships for {game.name} with {game.players} players; "
                                 "train one with 'eurosearch train-eval' and pass eval=<file>")
    else:
        model = load(spec)
    model.check_game(game)
    return model
