"""Matches between agents: play games, tally wins, scores and game length per seat."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from . import agents as agent_registry
from .api import CHANCE, TERMINAL, Game, game as make_game
from .play.record import Recorder
from .progress import Progress
from .tables import render


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a match or an arena; ``result`` holds the games finished before it."""

    def __init__(self, result: Any):
        super().__init__()
        self.result = result


@dataclass
class SeatStats:
    seat: int
    agent: str
    wins: float = 0.0          # a shared win counts as 1/w
    score_sum: float = 0.0
    decisions: int = 0

    def win_rate(self, games: int) -> float:
        return self.wins / games if games else 0.0


@dataclass
class MatchResult:
    game: str
    players: int
    games: int
    seed: int
    seats: list[SeatStats]
    decisions: int = 0
    chance_events: int = 0
    data_sources: dict[str, Any] = field(default_factory=dict)
    scores: list[list[float]] = field(default_factory=list)
    interrupted: bool = False  # Ctrl-C stopped it; `games` counts the finished ones

    def as_dict(self) -> dict[str, Any]:
        n = max(self.games, 1)
        return {
            "game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
            "interrupted": self.interrupted,
            "data_status": self.data_sources.get("status", ""),
            "mean_decisions": self.decisions / n, "mean_chance_events": self.chance_events / n,
            "seats": [
                {"seat": s.seat, "agent": s.agent, "wins": s.wins, "win_rate": s.win_rate(self.games),
                 "mean_score": s.score_sum / n, "decisions_per_game": s.decisions / n}
                for s in self.seats
            ],
        }


def play_game(g: Game, seats: Sequence[Any], rng: random.Random,
              on_step: Callable[[Any, int, int], None] | None = None) -> tuple[list[float], list[float], list[int], int]:
    """One game from the initial state; chance drawn from `rng`; `on_step(state, player,
    move)` sees every move and chance outcome before it is applied (game records).

    Returns (scores, returns, decisions per seat, chance events)."""
    s = g.initial_state()
    decisions = [0] * g.players
    chance = 0
    while True:
        cp = s.current_player
        if cp == TERMINAL:
            return s.scores(), s.returns(), decisions, chance
        if cp == CHANCE:
            move = s.sample_chance(rng.getrandbits(64))
            chance += 1
        else:
            move = seats[cp].choose(s, cp)
            decisions[cp] += 1
        if on_step:
            on_step(s, cp, move)
        s.apply(move)


def run_match(
    game_name: str,
    agent_specs: Sequence[str],
    games: int,
    seed: int = 0,
    data: str | Path | None = None,
    options: dict[str, Any] | None = None,
    progress: bool | None = None,
    record: str | Path | None = None,
) -> MatchResult:
    """Play `games` games with agent_specs[i] in seat i; one agent per seat for the match.
    With `record`, every game's record is written into that directory. Ctrl-C raises
    Interrupted, whose result holds the games finished so far."""
    if games < 1:
        raise ValueError("games must be at least 1")
    g = make_game(game_name, players=len(agent_specs), data=data, options=options)
    seats = [agent_registry.make(spec, seed=seed * 7919 + i) for i, spec in enumerate(agent_specs)]
    result = MatchResult(game_name, g.players, games, seed, [SeatStats(i, spec) for i, spec in enumerate(agent_specs)],
                         data_sources=g.data_sources())
    with Progress(games, "games", enabled=progress) as bar:
        try:
            for i in range(games):
                rng = random.Random(seed * 1_000_003 + i)
                rec = Recorder(g, seed, list(agent_specs), i, "match", record) if record is not None else None
                scores, returns, decisions, chance = play_game(g, seats, rng, on_step=rec.step if rec else None)
                if rec:
                    rec.save()
                for st, sc, rt, d in zip(result.seats, scores, returns, decisions):
                    st.wins += rt
                    st.score_sum += sc
                    st.decisions += d
                result.decisions += sum(decisions)
                result.chance_events += chance
                result.scores.append(scores)      # last: it counts the finished games
                bar.update()
        except KeyboardInterrupt:
            result.games, result.interrupted = len(result.scores), True
            raise Interrupted(result) from None
    return result


INTERRUPTED_NOTE = " (interrupted: the games finished before Ctrl-C)"


def format_table(r: MatchResult, terminal: bool = False) -> str:
    """The per-seat table printed by ``eurosearch match`` (styled by rich when `terminal`)."""
    n = max(r.games, 1)
    rows = [[str(s.seat), s.agent, f"{s.wins:.2f}", f"{100 * s.win_rate(r.games):.1f}%", f"{s.score_sum / n:.2f}",
             f"{s.decisions / n:.1f}"] for s in r.seats]
    return render([("seat", "right"), ("agent", "left"), ("wins", "right"), ("win %", "right"),
                   ("mean score", "right"), ("decisions/game", "right")], rows,
                  title=f"{r.game}, {r.players} players, {r.games} games, seed {r.seed}"
                  + INTERRUPTED_NOTE * r.interrupted,
                  notes=[f"game length: {r.decisions / n:.1f} decisions and {r.chance_events / n:.1f} "
                         "chance events per game"],
                  terminal=terminal)
