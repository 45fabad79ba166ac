"""Training a learned evaluation (python/eurosearch/evalmodel.py) from self-play, for any game.

1. Self-play: MCTS (in C, a fixed iteration budget, with the game's own evaluation or a
   model given by ``--eval``, so a model can be trained from the play of the one before) plays whole
   games; at a random 30% of the decision points every player's observation and the game's
   evaluation are kept, and each is labelled, once the game is over, with each player's
   share of the win (1 for the winner, split on a tie).
2. Fit: a conditional logit over the players (the returns MCTS backs up are win chances),
   by full-batch Adam on standardised features with an L2 penalty, on four games in five
   (every fifth game is held out to report on, and to choose the penalty from a grid), starting from the hand evaluation at the search's default scale so
   the fit only ever moves away from it on evidence. The standardisation folds back into the
   weights exactly: a shift common to every player cancels in the softmax.

Nothing here depends on the game: its observation is the feature vector. ``eurosearch
train-eval GAME`` runs both steps and writes the model file.
"""

from __future__ import annotations

import contextlib
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

from .evalmodel import EvalModel, for_game

SAMPLE_RATE = 0.3        # the share of decision points kept (fewer near-duplicate neighbours)
HOLDOUT_EVERY = 5        # every fifth game is held out to choose the penalty and report
DEFAULT_SCALE = 0.5      # MCTS's default eval_scale: the starting point of the fit
L2_GRID = (1e-3,)        # held-out choice among these; 1e-3 won on every game tried
STEPS = 1500


@dataclass
class Records:
    """Self-play positions: obs[n, player, feature], the game's evaluation ev[n, player], the
    win shares win[n, player], and the game each came from."""

    obs: np.ndarray
    ev: np.ndarray
    win: np.ndarray
    game_id: np.ndarray


#: game, players, iterations, rollout depth, extra ``State.mcts`` arguments (a model's weights), seed
Task = tuple[str, int, int, int, dict[str, Any], int]


def play_one(task: Task) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """One self-play game (a worker's task): (obs, ev, win shares) of its sampled positions."""
    from .api import game as make_game   # a worker process imports the package afresh

    name, players, iterations, depth, search, seed = task
    g = make_game(name, players=players)
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    obs: list[np.ndarray] = []
    ev: list[list[float]] = []
    while not s.is_terminal():
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(62)))
            continue
        p = s.current_player
        if rng.random() < SAMPLE_RATE:
            obs.append(np.stack([np.asarray(s.observation(q), dtype=np.float32) for q in range(players)]))
            ev.append(list(s.evaluate()))
        root = s.determinize(p, rng.getrandbits(62)) if g.has_hidden_information else s
        moves, visits, _, _ = root.mcts(p, iterations=iterations, seed=rng.getrandbits(62), rollout_depth=depth,
                                     **search)
        s.apply(moves[int(np.argmax(visits))])
    if not obs:
        return None
    scores = np.asarray(s.scores(), dtype=np.float64)
    win = (scores == scores.max()).astype(np.float64)
    win /= win.sum()
    return np.stack(obs), np.asarray(ev, dtype=np.float64), np.tile(win, (len(obs), 1))


def self_play(name: str, players: int, games: int, iterations: int = 500, depth: int = 20, seed: int = 0,
              workers: int = 1, progress: Callable[[int], None] | None = None,
              search: dict[str, Any] | None = None) -> Records:
    """`games` self-play games of `name` on `workers` processes (the arena's worker pool), each
    search given the extra ``State.mcts`` arguments `search` (a model's ``search_arguments()``:
    the model is loaded once, by the caller, and travels with the tasks)."""
    from .workers import WorkerPool

    tasks = [(name, players, iterations, depth, search or {}, seed + i) for i in range(games)]
    parts: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    with contextlib.ExitStack() as stack:
        if workers <= 1:
            results: Iterable[tuple[int, Any]] = map(_play_with_seed, tasks)
        else:
            results = stack.enter_context(WorkerPool(_play_with_seed, workers)).imap_unordered(tasks)
        for done, (game_seed, part) in enumerate(results, 1):
            if part is not None:
                parts[game_seed] = part
            if progress:
                progress(done)
    if not parts:
        raise ValueError(f"self-play of {name} kept no positions")
    return _gather(parts)


def _gather(parts: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]) -> Records:
    """The games' positions in seed order, each game's arrays released once copied (the
    observations are most of the memory: the program never holds them twice, though the
    allocator may keep the freed blocks, so the process can still peak near twice their size)."""
    n = sum(len(part[0]) for part in parts.values())
    first = next(iter(parts.values()))
    records = Records(obs=np.empty((n, *first[0].shape[1:]), dtype=first[0].dtype),
                      ev=np.empty((n, *first[1].shape[1:])), win=np.empty((n, *first[2].shape[1:])),
                      game_id=np.empty(n, dtype=np.int64))
    at = 0
    for seed in sorted(parts):
        obs, ev, win = parts.pop(seed)
        rows = slice(at, at + len(obs))
        records.obs[rows], records.ev[rows], records.win[rows], records.game_id[rows] = obs, ev, win, seed
        at += len(obs)
    return records


def _play_with_seed(task: Task) -> tuple[int, Any]:
    return task[-1], play_one(task)


def log_loss(logits: np.ndarray, win: np.ndarray) -> tuple[float, float]:
    """Mean cross-entropy of the softmax of `logits` against the win shares, and how often
    the highest logit is the winner's."""
    z = logits - logits.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-(win * log_p).sum(axis=1).mean()), float((logits.argmax(axis=1) == win.argmax(axis=1)).mean())


CHUNK_ROWS = 1 << 13     # rows per pass when summing feature moments (two float64 temporaries of ~100 MB)


def _moments(flat: np.ndarray, evf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard deviation of each feature column (the evaluation last), summed in
    float64 a chunk at a time: never a float64 copy of the whole matrix."""
    total = np.zeros(flat.shape[1] + 1)
    squares = np.zeros(flat.shape[1] + 1)
    for start in range(0, len(flat), CHUNK_ROWS):
        chunk = flat[start:start + CHUNK_ROWS].astype(np.float64)
        total[:-1] += chunk.sum(axis=0)
        squares[:-1] += (chunk * chunk).sum(axis=0)
    total[-1], squares[-1] = evf.sum(), (evf * evf).sum()
    mean = total / len(flat)
    sd = np.sqrt(np.maximum(squares / len(flat) - mean * mean, 0.0))
    sd[sd < 1e-6] = 1.0
    return mean, sd


def _logits(flat: np.ndarray, evf: np.ndarray, w: np.ndarray, players: int) -> np.ndarray:
    """Each row's logit under raw-feature weights w (the evaluation's last), per position."""
    return (flat @ w[:-1].astype(np.float32) + evf * w[-1]).reshape(-1, players)


def _adam(flat: np.ndarray, evf: np.ndarray, win: np.ndarray, train: np.ndarray, mean: np.ndarray,
          sd: np.ndarray, u: np.ndarray, l2: float, steps: int, lr: float = 0.02) -> np.ndarray:
    """Minimise the conditional-logit loss on the positions where `train` holds, plus
    l2/2 |u|^2, over the weights u of the standardised features (the raw weights are u / sd).

    The features are never copied: a standardised logit differs from the raw one by a shift
    common to every player of a position (it cancels in the softmax), and the gradient's
    standardisation is applied to the product with the raw matrix."""
    players = win.shape[1]
    keep = (np.repeat(train, players) / train.sum()).astype(np.float32)   # held-out rows weigh 0
    u = u.copy()
    m = np.zeros_like(u)
    v = np.zeros_like(u)
    raw_grad = np.empty_like(u)
    for t in range(1, steps + 1):
        logits = _logits(flat, evf, u / sd, players)
        z = np.exp(logits - logits.max(axis=1, keepdims=True))
        residual = (z / z.sum(axis=1, keepdims=True) - win).reshape(-1).astype(np.float32) * keep
        raw_grad[:-1] = flat.T @ residual
        raw_grad[-1] = evf @ residual
        grad = (raw_grad - mean * float(residual.sum(dtype=np.float64))) / sd + l2 * u
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        u -= lr * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return u


def fit(records: Records, name: str, players: int, steps: int = STEPS, l2_grid: tuple[float, ...] = L2_GRID,
        training: dict[str, Any] | None = None) -> tuple[EvalModel, dict[str, Any]]:
    """Fit the model on four games in five and return it with a report of its log-loss and
    accuracy on the fifth, held out, beside the hand evaluation's (at the default scale).
    Memory: the records and a few vectors of one float per row (no copy of the features)."""
    n, p, f = records.obs.shape
    flat = records.obs.reshape(n * p, f)
    evf = records.ev.reshape(n * p).astype(np.float32)
    mean, sd = _moments(flat, evf)
    test = records.game_id % HOLDOUT_EVERY == 0
    if test.all() or not test.any():
        raise ValueError("train-eval needs at least 2 self-play games with positions (one is held out)")
    start = np.zeros(f + 1)
    start[f] = DEFAULT_SCALE * sd[f]
    best: tuple[float, float, float, np.ndarray] | None = None
    for l2 in l2_grid:
        u = _adam(flat, evf, records.win, ~test, mean, sd, start, l2, steps)
        loss, acc = log_loss(_logits(flat, evf, u / sd, p)[test], records.win[test])
        if best is None or loss < best[0]:
            best = (loss, acc, l2, u)
    assert best is not None
    hand_loss, hand_acc = log_loss(DEFAULT_SCALE * records.ev[test], records.win[test])
    w = best[3] / sd
    report = {"positions": int(n), "games": int(len(np.unique(records.game_id))), "l2": best[2],
              "heldout_log_loss": round(best[0], 4), "heldout_accuracy": round(best[1], 4),
              "hand_heldout_log_loss": round(hand_loss, 4), "hand_heldout_accuracy": round(hand_acc, 4)}
    model = EvalModel(name, players, w[:f].astype(np.float32), float(w[f]), {**(training or {}), **report})
    return model, report


def train(game: Any, games: int = 3000, iterations: int = 500, depth: int = 20, seed: int = 0,
          workers: int = 1, progress: Callable[[int], None] | None = None,
          eval_spec: str = "hand") -> tuple[EvalModel, dict[str, Any]]:
    """Self-play and fit: a learned evaluation for `game` (an ``es.game(...)``) at its player
    count; the self-play searches evaluate with `eval_spec` (checked here, before any game)."""
    name, players = game.name, game.players
    self_play_model = for_game(eval_spec, game)
    started = time.monotonic()
    records = self_play(name, players, games, iterations, depth, seed, workers, progress,
                        self_play_model.search_arguments() if self_play_model else None)
    sources = game.data_sources()
    training = {"self_play_games": games, "iterations": iterations, "rollout_depth": depth, "seed": seed,
                "self_play_eval": eval_spec,
                "data_status": sources.get("status", ""), "provisional": sources.get("provisional", 0) > 0}
    model, report = fit(records, name, players, training=training)
    report["seconds"] = round(time.monotonic() - started, 1)
    return model, report
