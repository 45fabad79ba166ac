"""A fingerprint of what the engines compute, to show that a speed change changed nothing else.

    python bench/fingerprint.py            # one line of JSON: a digest per game and part

Per game, at its smallest and largest player count: seeded native random games (decisions,
chance nodes, final scores), MCTS results (moves, visit counts, values; with playouts to the end
and of 20 decisions), expectimax results (moves, values, best move, node count) and the
evaluation (every bit) from positions along seeded games. Run it with the build before and the
build after a change (e.g. two virtual environments) and compare: the lines must be equal. The
digests cover exact values, so any change of the games played, of a tree or of a search's
values shows.
"""

from __future__ import annotations

import hashlib
import json
import random

import eurosearch as es


def _digest(items: list) -> str:
    return hashlib.sha256(repr(items).encode()).hexdigest()[:16]


def _positions(g: es.Game, seed: int, count: int) -> list[es.State]:
    """Decision states spread along one seeded random game."""
    s, rng, out = g.new_state(seed=seed), random.Random(seed), []
    while not s.is_terminal():
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(32)))
            continue
        if rng.random() < 0.08 and len(out) < count:
            out.append(s.clone())
        moves = s.legal_moves()
        s.apply(moves[rng.randrange(len(moves))])
    return out


def _mcts(s: es.State, **settings) -> list:
    """One seeded search's moves, visit counts and values (to 9 places)."""
    moves, visits, values, _ = s.mcts(s.current_player, iterations=400, **settings)
    return [list(moves), list(visits), [round(v, 9) for v in values]]


def fingerprint(name: str, players: int, positions: int = 6) -> dict[str, str]:
    g = es.game(name, players=players)
    scores, dec, ch = g.random_playout_stats(300, 11)
    random_part = [dec, ch, scores.round(9).tolist()]
    mcts_part, depth_part, exp_part = [], [], []
    # the evaluation, exactly (every bit of the doubles), at decision states of seeded games
    eval_part = [s.evaluate() for seed in (7, 8, 9) for s in _positions(g, seed, 40)]
    for k, s in enumerate(_positions(g, 5, positions)):
        mcts_part.append(_mcts(s, seed=k))
        mcts_part.append(_mcts(s, seed=k, information_sets=g.has_hidden_information))
        depth_part.append(_mcts(s, seed=k, rollout_depth=20))
        moves, values, info = s.expectimax(depth=3, iterative=True, max_nodes=20_000, table_bytes=1 << 20)
        exp_part.append(info["depth"])
        exp_part.append([list(moves), [round(v, 9) for v in values], info["best"], info["nodes"]])
    return {"random": _digest(random_part), "mcts": _digest(mcts_part), "mcts_depth20": _digest(depth_part),
            "expectimax": _digest(exp_part),
            "evaluate": _digest([[v.hex() for v in values] for values in eval_part])}


def fingerprints() -> dict[str, dict[str, str]]:
    """The fingerprint of every game at its smallest and largest player count."""
    out = {}
    for name in es.games():
        spec = es.game_spec(name)
        for players in sorted({spec.min_players, spec.max_players}):
            out[f"{name}/{players}"] = fingerprint(name, players)
    return out


def main() -> None:
    print(json.dumps(fingerprints(), sort_keys=True))


if __name__ == "__main__":
    main()
