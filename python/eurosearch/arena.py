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
from . import sprt as sprt_stats
from .progress import Progress
from .sprt import SprtSettings
from .tables import render
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
                "interrupted": self.interrupted, "data_status": self.data_sources.get("status", ""), "agents": out}


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (fractional successes allowed)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def ahead(returns: Sequence[float], scores: Sequence[float], i: int, j: int) -> float:
    """Seat i's result against seat j at one table: 1 if it finished ahead (a larger share of
    the win, or the same share and more points), 1/2 if level on both, else 0. The rule of
    the ratings (`pairwise`) and of the SPRT."""
    if returns[i] != returns[j]:
        return 1.0 if returns[i] > returns[j] else 0.0
    if scores[i] != scores[j]:
        return 1.0 if scores[i] > scores[j] else 0.0
    return 0.5


def pairwise(records: Sequence[GameRecord], k: int) -> list[list[float]]:
    """wins[a][b]: how often agent a finished ahead of agent b at one table (ties count half)."""
    wins = [[0.0] * k for _ in range(k)]
    for r in records:
        for i, a in enumerate(r.seats):
            for j, b in enumerate(r.seats):
                if a == b or i == j:
                    continue
                wins[a][b] += ahead(r.returns, r.scores, i, j)
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


Played = tuple[int, list[float], list[float]]    # a game's index, returns and scores


def _play_one(job: tuple) -> Played:
    """(index, returns, scores) of one arena game (run in a worker process or in this one).

    The job names the spec and the agent seed of every seat and the seed of the chance
    stream, so that the caller decides who sits where (rotation, or SPRT pairs)."""
    game_name, players, data, options, seed, index, seat_specs, agent_seeds, chance_seed, record = job
    g = make_game(game_name, players=players, data=data, options=options)
    table = [agent_registry.make(spec, seed=s) for spec, s in zip(seat_specs, agent_seeds)]
    rec = Recorder(g, seed, list(seat_specs), index, "arena", record) if record is not None else None
    scores, returns, _, _ = play_game(g, table, random.Random(chance_seed), on_step=rec.step if rec else None)
    if rec:
        rec.save()
    return index, list(returns), list(scores)


def _rotation_job(game_name: str, players: int, specs: Sequence[str], data: Any, options: Any, seed: int,
                  index: int, record: Any) -> tuple:
    """The job of game `index` of a rating arena: agents rotate through the seats."""
    seats = seating(index, len(specs), players)
    return (game_name, players, data, options, seed, index, [specs[a] for a in seats],
            [seed * 1_000_003 + index * 31 + s for s in range(players)], seed * 7_919 + index, record)


@contextmanager
def _games_played(workers: int) -> Iterator[Callable[[Iterable[tuple]], Iterator[Played]]]:
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
    jobs = (_rotation_job(game_name, n, specs, data, options, seed, i, record) for i in range(games))
    result = ArenaResult(game_name, n, specs, data_sources=g.data_sources())
    finished: dict[int, GameRecord] = {}
    try:
        with Progress(games, "games", enabled=progress) as bar, _games_played(workers) as play:
            for index, returns, scores in play(jobs):
                finished[index] = GameRecord(seating(index, len(specs), n), returns, scores)
                bar.update()
    except KeyboardInterrupt:
        result.interrupted = True
    result.records = [finished[i] for i in sorted(finished)]   # game order, however they finished
    result.ratings = rate(result.records, len(specs), seed=seed)
    if result.interrupted:
        raise Interrupted(result)
    return result


def data_note(sources: dict[str, Any]) -> list[str]:
    """A note under a result table when the game's component data is not all published."""
    status = sources.get("status", "published")
    if status in ("published", ""):
        return []
    return [f"component data: {status} ({sources.get('file', '')}); results on it are provisional"]


def format_arena(r: ArenaResult, terminal: bool = False) -> str:
    """The table printed by ``eurosearch arena`` (styled by rich when `terminal`)."""
    d = r.as_dict()
    rows = []
    for a in d["agents"]:
        lo, hi = a["win_rate_ci95"]
        rlo, rhi = a["rating_ci95"]
        rows.append([a["name"], str(a["games"]), f"{100 * a['win_rate']:.1f}%", f"{100 * lo:.1f}-{100 * hi:.1f}%",
                     f"{a['mean_score']:.2f}", f"{a['rating']:+.0f}", f"{rlo:+.0f} to {rhi:+.0f}"])
    return render([("agent", "left"), ("games", "right"), ("win %", "right"), ("95% interval", "right"),
                   ("mean score", "right"), ("rating", "right"), ("95% interval", "right")], rows,
                  title=f"{r.game}, {r.players} players, {d['games']} games (agents rotate through the seats)"
                  + INTERRUPTED_NOTE * r.interrupted, notes=data_note(r.data_sources), terminal=terminal)


# --- SPRT: two agents, games in pairs, stop when the test decides (eurosearch arena --sprt) ---


def sprt_seating(index: int, players: int) -> list[int]:
    """Agents by seat for game `index` of an SPRT run: 0 and 1 are the agents under test,
    2, 3, ... the fillers. Games 2k and 2k+1 are pair k: agents 0 and 1 sit in the adjacent
    seats k mod n and k+1 mod n, swapped in the pair's second game; the fillers take the
    other seats in order. Over a pair, each tested agent has had both seats against the same
    fillers in the same seats, so the pair is fair between them; over pairs, the tested seats
    go round the table."""
    pair, second = divmod(index, 2)
    first = pair % players
    seats = [-1] * players
    seats[first], seats[(first + 1) % players] = (1, 0) if second else (0, 1)
    fillers = iter(range(2, players))
    return [a if a >= 0 else next(fillers) for a in seats]


@dataclass
class SprtResult:
    """An SPRT run so far: the complete pairs in pair order, and the test on them."""

    game: str
    players: int
    specs: list[str]                     # the two agents under test, then the fillers
    settings: SprtSettings
    max_games: int
    seed: int
    records: list[GameRecord] = field(default_factory=list)
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)   # pairs by agent 0's points: 0, 1/2, ..., 2
    trinomial: list[int] = field(default_factory=lambda: [0] * 3)     # games by agent 0's result: loss, tie, win
    data_sources: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False
    llr: float = 0.0                     # of the counts so far (updated by add_pair)

    def add_pair(self, first: GameRecord, second: GameRecord) -> None:
        points = 0.0
        for r in (first, second):
            a, b = r.seats.index(0), r.seats.index(1)
            x = ahead(r.returns, r.scores, a, b)
            points += x
            self.trinomial[round(2 * x)] += 1
            self.records.append(r)
        self.pentanomial[round(2 * points)] += 1
        st = self.settings
        self.llr = sprt_stats.llr(self.counts, sprt_stats.score_of_elo(st.elo0), sprt_stats.score_of_elo(st.elo1),
                                  st.outcomes)

    @property
    def counts(self) -> list[int]:
        """The counts the test runs on (pairs, or single games with statistic=trinomial)."""
        return self.pentanomial if self.settings.statistic == "pentanomial" else self.trinomial

    @property
    def decision(self) -> str | None:
        """'H1' (agent 0 is elo1 or more stronger), 'H0' (elo0 or less), None (undecided)."""
        return sprt_stats.decision(self.llr, self.settings)

    def as_dict(self) -> dict[str, Any]:
        st = self.settings
        score, elo, lo, hi = sprt_stats.elo_estimate(self.counts, st.outcomes)
        finite = lambda x: x if math.isfinite(x) else None   # noqa: E731 -- JSON has no infinity, no NaN
        agents = []
        for a, spec in enumerate(self.specs[:2]):
            played = [(r.returns[s], r.scores[s]) for r in self.records for s, x in enumerate(r.seats) if x == a]
            agents.append({"name": spec if a == 0 or spec != self.specs[0] else f"{spec} #2", "spec": spec,
                           "games": len(played), "wins": sum(w for w, _ in played),
                           "mean_score": sum(sc for _, sc in played) / len(played) if played else 0.0})
        return {
            "game": self.game, "players": self.players, "seed": self.seed, "games": len(self.records),
            "data_status": self.data_sources.get("status", ""),
            "pairs": len(self.records) // 2, "max_games": self.max_games, "interrupted": self.interrupted,
            "agents": agents, "fillers": self.specs[2:],
            "sprt": {"elo0": st.elo0, "elo1": st.elo1, "alpha": st.alpha, "beta": st.beta,
                     "elo_model": "logistic", "statistic": st.statistic,
                     "llr": self.llr, "lower": st.lower, "upper": st.upper, "decision": self.decision,
                     "pentanomial": list(self.pentanomial), "trinomial": list(self.trinomial),
                     "score": finite(score), "elo": finite(elo), "elo_ci95": [finite(lo), finite(hi)]},
        }


def _sprt_job(game_name: str, specs: Sequence[str], players: int, data: Any, options: Any, seed: int,
              index: int, record: Any) -> tuple:
    """Game `index` of an SPRT run: both games of a pair share the chance seed (the same deal
    and chance stream) and every agent keeps its seed within the pair."""
    pair = index // 2
    seats = sprt_seating(index, players)
    return (game_name, players, data, options, seed, index, [specs[a] for a in seats],
            [seed * 1_000_003 + pair * 31 + a for a in seats], seed * 7_919 + pair, record)


def fillers_for(players: int, filler: Sequence[str]) -> list[str]:
    """The filler agents of the seats beyond the two under test: one spec for all of them,
    or one per seat."""
    need = players - 2
    filler = [f for f in filler if f]
    if need == 0:
        if filler:
            raise ValueError("--filler is for games of more than two seats; this one has two")
        return []
    if not filler:
        raise ValueError(f"{players} seats: give --filler SPEC (one spec, or {need} comma-separated) "
                         "for the seats beside the two agents under test")
    if len(filler) == 1:
        return filler * need
    if len(filler) != need:
        raise ValueError(f"{players} seats leave {need} for fillers, but --filler gives {len(filler)} specs")
    return list(filler)


def run_sprt(game_name: str, specs: Sequence[str], settings: SprtSettings, max_games: int, seed: int = 0,
             workers: int = 1, players: int | None = None, filler: Sequence[str] = (), data: Any = None,
             options: dict[str, Any] | None = None, progress: bool | None = None, record: Any = None) -> SprtResult:
    """Play pairs of games between specs[0] and specs[1] until the SPRT decides or
    `max_games` (even) are played. With more than two seats the others hold filler agents
    (see `sprt_seating`); a game's result between the two is who finished ahead (`ahead`).

    The test looks only at complete pairs, in pair order, and stops at the first pair that
    decides, so for a fixed seed the result is the same for any number of workers (games
    finished beyond that pair are dropped). Ctrl-C raises Interrupted with the pairs so far."""
    if len(specs) != 2:
        raise ValueError(f"an SPRT compares exactly two agents, got {len(specs)}")
    if max_games < 2 or max_games % 2:
        raise ValueError(f"with --sprt, games are played in pairs: the maximum must be even and >= 2, got {max_games}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    n = players or 2
    for spec in (*specs, *filler):
        agent_registry.parse_spec(spec)
    g = make_game(game_name, players=n, data=data, options=options)    # checks the count and the data
    all_specs = list(specs) + fillers_for(n, filler)
    jobs = (_sprt_job(game_name, all_specs, n, data, options, seed, i, record) for i in range(max_games))
    result = SprtResult(game_name, n, all_specs, settings, max_games, seed, data_sources=g.data_sources())
    finished: dict[int, GameRecord] = {}
    pair = 0
    try:
        with Progress(max_games, "games", enabled=progress) as bar, _games_played(workers) as play:
            for index, returns, scores in play(jobs):
                finished[index] = GameRecord(sprt_seating(index, n), returns, scores)
                while 2 * pair in finished and 2 * pair + 1 in finished and result.decision is None:
                    result.add_pair(finished.pop(2 * pair), finished.pop(2 * pair + 1))
                    pair += 1
                bar.update(status=f"LLR {result.llr:+.2f} ({settings.lower:+.2f}, {settings.upper:+.2f})")
                if result.decision is not None:
                    break
    except KeyboardInterrupt:
        result.interrupted = True
        raise Interrupted(result) from None
    return result


def _elo(x: float) -> str:
    if math.isnan(x):
        return "n/a"
    return f"{x:+.1f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def format_sprt(r: SprtResult, terminal: bool = False) -> str:
    """What ``eurosearch arena --sprt`` prints: the test, the Elo estimate, the pair counts."""
    d = r.as_dict()
    t = d["sprt"]
    a, b = d["agents"]
    _, elo, lo, hi = sprt_stats.elo_estimate(r.counts, r.settings.outcomes)
    if d["interrupted"]:
        state = "interrupted: the pairs finished before Ctrl-C; no decision"
    elif t["decision"] == "H1":
        state = (f"H1 accepted: {a['name']} is at least {t['elo1']:g} Elo stronger than {b['name']} "
                 f"(rather than at most {t['elo0']:g})")
    elif t["decision"] == "H0":
        state = (f"H0 accepted: {a['name']} is at most {t['elo0']:g} Elo stronger than {b['name']} "
                 f"(rather than at least {t['elo1']:g})")
    else:
        state = f"no decision within {d['max_games']} games"
    seats = f", fillers {', '.join(d['fillers'])}" if d["fillers"] else ""
    title = (f"{r.game}, {r.players} players, {d['games']} games in {d['pairs']} pairs (each deal played twice, "
             f"seats swapped){seats}, seed {r.seed}")
    rows = [[ag["name"], str(ag["games"]), f"{ag['wins']:.2f}", f"{ag['mean_score']:.2f}"] for ag in (a, b)]
    pairs = ", ".join(f"{k / 2:g}: {c}" for k, c in enumerate(t["pentanomial"]))
    notes = [f"SPRT {r.settings.describe()} (logistic Elo, {t['statistic']}): {state}",
             f"LLR {t['llr']:+.3f}, bounds [{t['lower']:+.3f}, {t['upper']:+.3f}]",
             f"Elo {_elo(elo)} (95% interval {_elo(lo)} to {_elo(hi)})"
             + (f", score {100 * t['score']:.1f}%" if t["score"] is not None else ", no complete pair"),
             f"pairs by {a['name']}'s points in the pair: {pairs}; games lost/tied/won: "
             + "/".join(str(x) for x in t["trinomial"])] + data_note(r.data_sources)
    return render([("agent", "left"), ("games", "right"), ("wins", "right"), ("mean score", "right")], rows,
                  title=title, notes=notes, terminal=terminal)
