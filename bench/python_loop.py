"""Python-driven random play and State.clone(), per game, in CPU time.

    python bench/python_loop.py            # one line of JSON per run

The loop is the one a user writes: legal_moves() + apply(one of them) at a decision,
sample_chance() + apply(it) at a chance node. CPU time (time.process_time) rather than wall
time, so that other processes on a shared machine move the figures less. Run it alternately
with two builds' interpreters (e.g. three times each) and compare medians.
"""

from __future__ import annotations

import json
import random
import time

import eurosearch as es


def loop_actions_per_second(g: es.Game, actions: int = 60_000, seed: int = 1) -> float:
    """Actions (decisions and chance outcomes) per CPU second of the Python loop."""
    rng, s, done = random.Random(seed), g.new_state(seed=seed), 0
    start = time.process_time()
    while done < actions:
        if s.is_terminal():
            s = g.new_state(seed=done)
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(32)))
        else:
            moves = s.legal_moves()
            s.apply(moves[rng.randrange(len(moves))])
        done += 1
    return done / (time.process_time() - start)


def clone_ns(g: es.Game, calls: int = 300_000) -> float:
    """CPU nanoseconds per State.clone() of a new game's state."""
    s = g.new_state(seed=1)
    start = time.process_time()
    for _ in range(calls):
        s.clone()
    return (time.process_time() - start) / calls * 1e9


def main() -> None:
    out = {}
    for name in es.games():
        g = es.game(name, players=es.game_spec(name).min_players)
        out[name] = {"loop_actions_per_s": round(loop_actions_per_second(g)), "clone_ns": round(clone_ns(g), 1)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
