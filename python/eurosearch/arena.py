"""The arena: many games between agents in rotating seats, on several processes, rated.

Each agent gets a win rate with a 95% interval (Wilson), a mean score, and a Bradley-Terry
rating on the Elo scale (games split into pairwise results between the agents at the table)
with a 95% interval from a bootstrap over games.
"""

from __future__ import annotations

import math
import random
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

from . import agents as agent_registry
from .api import game as make_game
from .match import INTERRUPTED_NOTE, Interrupted, play_game
from .play.record import Recorder
from .progress import Progress
from .workers import WorkerPool

Z95 = 1.959963984540054


@dataclass
class GameRecord:
    """One finished game: which agent sat in each seat, and what each seat got."""

    seats: list[int]          # agent index per seat
    returns: list[float]
    scores: list[float]


@dataclass
class ArenaResult:
    game: str
    players: int
    specs: list[str]
    records: list[GameRecord] = field(default_factory=list)
    ratings: list[tuple[float, float, float]] = field(default_factory=list)   # (rating, lo, hi)
    data_sources: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False   # Ctrl-C stopped it; `records` holds the finished games

    @property
    def names(self) -> list[str]:
        """The agents' names in tables: the spec, numbered from its second time on (random #2)."""
        out = []
        for a, spec in enumerate(self.specs):
            k = self.specs[:a].count(spec)
            out.append(spec if k == 0 else f"{spec} #{k + 1}")
        return out

    def as_dict(self) -> dict[str, Any]:
        out = []
        for a, (spec, name) in enumerate(zip(self.specs, self.names)):
            played = [(r.returns[s], r.scores[s]) for r in self.records for s, x in enumerate(r.seats) if x == a]
            n = len(played)
            wins = sum(w for w, _ in played)
            lo, hi = wilson(wins, n)
            rating, rlo, rhi = self.ratings[a] if self.ratings else (0.0, 0.0, 0.0)
            out.append({
                "name": name, "spec": spec, "games": n, "wins": wins, "win_rate": wins / n if n else 0.0,
                "win_rate_ci95": [lo, hi], "mean_score": sum(sc for _, sc in played) / n if n else 0.0,
                "rating": rating, "rating_ci95": [rlo, rhi],
            })
        return {"game": self.game, "games": len(self.records), "players": self.players,
                "interrupted": self.interrupted, "agents": out}


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (fractional successes allowed)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def pairwise(records: Sequence[GameRecord], k: int) -> list[list[float]]:
    """wins[a][b]: how often agent a finished ahead of agent b at one table (ties count half)."""
    wins = [[0.0] * k for _ in range(k)]
    for r in records:
        for i, a in enumerate(r.seats):
            for j, b in enumerate(r.seats):
                if a == b or i == j:
                    continue
                if r.returns[i] > r.returns[j] or (r.returns[i] == r.returns[j] and r.scores[i] > r.scores[j]):
                    wins[a][b] += 1
                elif r.returns[i] == r.returns[j] and r.scores[i] == r.scores[j]:
                    wins[a][b] += 0.5
    return wins


def bradley_terry(wins: list[list[float]], tolerance: float = 1e-10, max_iterations: int = 100_000,
                  start: Sequence[float] | None = None) -> list[float]:
    """Elo-scale ratings (mean 0) fitted by the MM algorithm, with half a win of prior against
    an average opponent so that unbeaten or winless agents stay finite.

    Iterates until no log-strength moves by more than `tolerance`: with lopsided results the
    MM steps are small, and a fixed number of them stops far from the fit. `start`: ratings
    to begin from (a bootstrap sample starts from the point estimate)."""
    k = len(wins)
    strength = [10 ** (r / 400) for r in start] if start else [1.0] * k
    for _ in range(max_iterations):
        new = []
        for a in range(k):
            w = sum(wins[a]) + 0.5
            denom = 1.0 / (strength[a] + 1.0)   # the prior's average opponent
            for b in range(k):
                games = wins[a][b] + wins[b][a]
                if games:
                    denom += games / (strength[a] + strength[b])
            new.append(w / denom)
        mean_log = sum(math.log(x) for x in new) / k
        new = [x / math.exp(mean_log) for x in new]
        moved = max(abs(math.log(x / y)) for x, y in zip(new, strength))
        strength = new
        if moved < tolerance:
            break
    return [400 * math.log10(x) for x in strength]


def rate(records: Sequence[GameRecord], k: int, samples: int = 200, seed: int = 0) -> list[tuple[float, float, float]]:
    """Ratings with 95% bootstrap intervals (games resampled with replacement)."""
    point = bradley_terry(pairwise(records, k))
    if not records:
        return [(p, p, p) for p in point]
    rng = random.Random(seed)
    boot: list[list[float]] = [[] for _ in range(k)]
    for _ in range(samples):
        sample = [records[rng.randrange(len(records))] for _ in records]
        for a, v in enumerate(bradley_terry(pairwise(sample, k), tolerance=1e-7, start=point)):
            boot[a].append(v)
    out = []
    for a in range(k):
        vals = sorted(boot[a])
        out.append((point[a], vals[int(0.025 * (len(vals) - 1))], vals[int(0.975 * (len(vals) - 1))]))
    return out


def seating(index: int, k: int, players: int) -> list[int]:
    """Agents (by index) in seat order for game `index`: rotate through the agents."""
    return [(index + j) % k for j in range(players)]


def _play_one(job: tuple) -> tuple[int, GameRecord]:
    """(index, record) of game `index` of an arena (run in a worker process or in this one)."""
    game_name, players, specs, data, options, seed, index, record = job
    g = make_game(game_name, players=players, data=data, options=options)
    seats = seating(index, len(specs), players)
    table = [agent_registry.make(specs[a], seed=seed * 1_000_003 + index * 31 + s) for s, a in enumerate(seats)]
    rec = Recorder(g, seed, [specs[a] for a in seats], index, "arena", record) if record is not None else None
    scores, returns, _, _ = play_game(g, table, random.Random(seed * 7_919 + index), on_step=rec.step if rec else None)
    if rec:
        rec.save()
    return index, GameRecord(seats, list(returns), list(scores))


@contextmanager
def _games_played(workers: int) -> Iterator[Callable[[Iterable[tuple]], Iterator[tuple[int, GameRecord]]]]:
    """A function playing arena jobs: here, or on `workers` processes that stop with the block."""
    if workers == 1:
        yield lambda jobs: map(_play_one, jobs)
    else:
        with WorkerPool(_play_one, workers) as pool:
            yield pool.imap_unordered


def run_arena(game_name: str, specs: Sequence[str], games: int, seed: int = 0, workers: int = 1,
              players: int | None = None, data: Any = None, options: dict[str, Any] | None = None,
              progress: bool | None = None, record: Any = None) -> ArenaResult:
    """Play `games` games with the agents rotating through the seats; rate them. With
    `record` (a directory), every game's record is written there.

    Ctrl-C stops the worker processes and raises Interrupted, whose result rates the games
    finished so far."""
    if games < 1:
        raise ValueError("games must be at least 1")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    specs = list(specs)
    for spec in specs:
        agent_registry.parse_spec(spec)   # a bad spec fails here, not in a worker
    n = players or len(specs)
    g = make_game(game_name, players=n, data=data, options=options)   # checks the count and the data
    if len(specs) < 2:
        raise ValueError("an arena needs at least two agents")
    if len(specs) < n:
        raise ValueError(f"{n} seats but only {len(specs)} agents; give one agent per seat or more")
    jobs = ((game_name, n, specs, data, options, seed, i, record) for i in range(games))
    result = ArenaResult(game_name, n, specs, data_sources=g.data_sources())
    finished: dict[int, GameRecord] = {}
    try:
        with Progress(games, "games", enabled=progress) as bar, _games_played(workers) as play:
            for index, played in play(jobs):
                finished[index] = played
                bar.update()
    except KeyboardInterrupt:
        result.interrupted = True
    result.records = [finished[i] for i in sorted(finished)]   # game order, however they finished
    result.ratings = rate(result.records, len(specs), seed=seed)
    if result.interrupted:
        raise Interrupted(result)
    return result


def format_arena(r: ArenaResult) -> str:
    d = r.as_dict()
    width = max(5, *(len(a["name"]) for a in d["agents"]))
    lines = [f"{r.game}, {r.players} players, {d['games']} games (agents rotate through the seats)"
             + INTERRUPTED_NOTE * r.interrupted,
             f"{'agent':<{width}}  {'games':>5}  {'win %':>6}  {'95% interval':>15}  {'mean score':>10}  {'rating':>7}  {'95% interval':>15}"]
    for a in d["agents"]:
        lo, hi = a["win_rate_ci95"]
        rlo, rhi = a["rating_ci95"]
        lines.append(f"{a['name']:<{width}}  {a['games']:>5}  {100 * a['win_rate']:>5.1f}%  "
                     f"{100 * lo:>6.1f}-{100 * hi:>5.1f}%  {a['mean_score']:>10.2f}  {a['rating']:>7.0f}  "
                     f"{rlo:>7.0f}-{rhi:>6.0f}")
    return "\n".join(lines)
