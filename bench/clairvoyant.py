"""What the hidden cards are worth to a search: MCTS that sees the true state (a clairvoyant,
which no fair agent can be) against the same MCTS on a determinization, at equal time.

    python bench/clairvoyant.py oh_my_goods --seconds 0.02 --games 200 --seed 51

The clairvoyant's edge bounds what any way of handling hidden information (many worlds,
information-set trees, inference from the opponents' moves) can gain over single-
determinization MCTS with the same search: a fair agent knows at most what the clairvoyant
knows. Chance events to come (draws, dice) stay chance nodes for both: only what the state
hides from the player now (hands, the order of cards already dealt) differs. Both sides use
the `mcts` agent's defaults (rollouts of 20 moves and the evaluation) on one thread; the seats
alternate over the same deals, so each deal is played from both sides.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import eurosearch as es
from eurosearch.agents.mcts import MCTSAgent
from eurosearch.arena import wilson
from eurosearch.match import play_game
from eurosearch.progress import Progress


class Clairvoyant(MCTSAgent):
    """The `mcts` agent searching the true state instead of a determinization of it."""

    def search(self, state: Any, player: int, seed: int, information_sets: bool | None = None,
               started: float | None = None) -> tuple[list[int], list[int], list[float], dict[str, Any]]:
        started = time.monotonic() if started is None else started
        return state.mcts(player, **self.search_settings(seed, False, started, state.game))


def run(game: str, seconds: float, games: int, seed: int) -> dict[str, Any]:
    """Plays `games` two-player games, the clairvoyant in seat 0 of even games and seat 1 of
    odd ones, game 2k and 2k+1 on the same deal; returns its share of the wins."""
    g = es.game(game, players=2)
    wins = 0.0
    with Progress(games, "games") as bar:
        for i in range(games):
            cheat = Clairvoyant(seconds=seconds, threads=1, seed=seed * 1_000_003 + i)
            fair = MCTSAgent(seconds=seconds, threads=1, seed=seed * 1_000_003 + i + 500_000)
            seats = [cheat, fair] if i % 2 == 0 else [fair, cheat]
            _, returns, _, _ = play_game(g, seats, random.Random(seed * 7_919 + i // 2))
            wins += returns[i % 2]
            bar.update()
    lo, hi = wilson(wins, games)
    return {"game": game, "seconds": seconds, "games": games, "seed": seed, "clairvoyant": wins / games,
            "ci95": [lo, hi], "data_sources": g.data_sources()}


def describe(r: dict[str, Any]) -> str:
    """One line for a person; a result on provisional component data says so."""
    status = (r.get("data_sources") or {}).get("status", "")
    label = f" ({status} data)" if "provisional" in status else ""
    return (f"{r['game']}{label}: the clairvoyant wins {r['clairvoyant']:.1%} ({r['ci95'][0]:.1%}-{r['ci95'][1]:.1%}) "
            f"of {r['games']} games at {r['seconds']:g} s a move")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--seconds", type=float, default=0.02, help="time per move, both sides")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    r = run(a.game, a.seconds, a.games, a.seed)
    if a.json:
        print(json.dumps(r))
    else:
        print(describe(r))


if __name__ == "__main__":
    main()
