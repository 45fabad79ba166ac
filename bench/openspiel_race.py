"""Backgammon: eurosearch against OpenSpiel, the same work on both sides, in one run.

    pip install '.[race]'          # OpenSpiel (pyspiel)
    python bench/openspiel_race.py [--runs 3] [--seconds 2] [--arena-games 200] [--arena-time 0.01]

Backgammon is eurosearch's calibration game: its rules are OpenSpiel's "backgammon" exactly
(default parameters; tests/test_backgammon_openspiel.py plays both in lockstep), so each row
below times the same task on both engines. Rates are medians of --runs runs; the ratio is
ours / OpenSpiel's (the goal is at least 3 on every row).

  random playouts   actions/s of whole random games in native code: es_random_playouts
                    against pyspiel.evaluate_bots with two C++ uniform random bots (actions:
                    decisions and chance outcomes, as OpenSpiel's history counts them)
  python random     actions/s of random games driven from Python the same way on both sides
                    (legal moves, a uniform choice, chance outcomes sampled by their weights)
  mcts              simulations/s of UCT with random rollouts to the end (c = 1.4), the same
                    number of simulations per search, from the same mid-game positions:
                    State.mcts against pyspiel.MCTSBot with a RandomRolloutEvaluator
  expectimax        nodes/s of a depth-2 expectimax with a pip-count evaluation at the horizon:
                    State.expectimax(depth=2) against OpenSpiel's expectiminimax (the Python
                    one: this pyspiel build binds no C++ expectiminimax). OpenSpiel's depth is
                    2 half-turns, ours 2 turns (they differ only after doubles), and its nodes
                    are counted by walking the same tree outside the timing
  arena             the two MCTS at equal time per move (--arena-time seconds), seats
                    alternating, through an adapter that maps our move to the OpenSpiel action
                    with the same resulting position: our win rate with a 95% interval
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import subprocess
import sys
import time

import eurosearch as es

try:
    import pyspiel
    from open_spiel.python.algorithms import minimax
except ImportError:  # pragma: no cover - the script's only dependency beyond eurosearch
    sys.exit("OpenSpiel is not installed: pip install '.[race]'")

#: OpenSpiel's chance outcome values by index: the 30 ordered non-double pairs, then doubles.
OS_DICE = [p for lo in range(1, 7) for hi in range(lo + 1, 7) for p in ((lo, hi), (hi, lo))] + [(d, d) for d in range(1, 7)]
UCT_C = 1.4


# ---------------------------------------------------------------- the adapter

def board_key(obs) -> tuple:
    """The position in an observation seen by player 0 (both engines encode it alike)."""
    obs = list(obs)
    return tuple(obs[:192]) + (obs[192], obs[193], obs[195], obs[196])


def os_chance_action(text: str) -> int:
    """OpenSpiel's outcome for our chance move text ("x starts 3-1" / "roll 6-6")."""
    words = text.split()
    hi, lo = (int(x) for x in words[-1].split("-"))
    if words[0] == "roll":
        return OS_DICE.index((lo, hi))
    return OS_DICE.index((lo, hi) if words[0] == "x" else (hi, lo))


def os_action_for(s, o, move: int) -> int:
    """The OpenSpiel action whose resulting position is our move's."""
    c = s.clone()
    c.apply(move)
    want = board_key(c.observation(0))
    for a in o.legal_actions():
        oc = o.clone()
        oc.apply_action(a)
        if board_key(oc.observation_tensor(0)) == want:
            return a
    raise AssertionError(f"no OpenSpiel action plays {s.move_to_str(move)}")


def apply_both(s, o, move: int) -> None:
    if s.is_chance():
        o.apply_action(os_chance_action(s.move_to_str(move)))
    else:
        o.apply_action(os_action_for(s, o, move))
    s.apply(move)


def midgame_pairs(game, os_game, count: int, seed: int, skip: int = 20) -> list[tuple]:
    """(our state, OpenSpiel state) at the same decision, `skip` random steps into games."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s, o = game.initial_state(), os_game.new_initial_state()
        for _ in range(skip):
            if s.is_terminal():
                break
            apply_both(s, o, s.sample_chance(rng.getrandbits(64)) if s.is_chance() else rng.choice(s.legal_moves()))
        while s.is_chance():
            apply_both(s, o, s.sample_chance(rng.getrandbits(64)))
        if not s.is_terminal():
            out.append((s, o))
    return out


# ---------------------------------------------------------------- the rows

def median_rate(runs: int, measure) -> float:
    return statistics.median(measure(r) for r in range(runs))


def playouts_native(game, seconds: float, run: int) -> float:
    n, done, elapsed = 50, 0, 0.0
    while elapsed < seconds:
        t = time.perf_counter()
        _, dec, ch = game.random_playout_stats(n, seed=1000 * run + done)
        elapsed += time.perf_counter() - t
        done += dec + ch
    return done / elapsed


def playouts_openspiel(os_game, seconds: float, run: int) -> float:
    done, elapsed, k = 0, 0.0, 0
    while elapsed < seconds:
        k += 1
        bots = [pyspiel.make_uniform_random_bot(0, 2 * k + run), pyspiel.make_uniform_random_bot(1, 2 * k + 1 + run)]
        o = os_game.new_initial_state()
        t = time.perf_counter()
        pyspiel.evaluate_bots(o, bots, 1000 * run + k)
        elapsed += time.perf_counter() - t
        done += len(o.history())
    return done / elapsed


def python_random(new_state, legal, apply, chance, is_chance, is_terminal, seconds: float, run: int) -> float:
    rng = random.Random(run)
    done, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = new_state()
        while not is_terminal(s):
            if is_chance(s):
                moves, probs = zip(*chance(s))
                apply(s, rng.choices(moves, probs)[0])
            else:
                apply(s, rng.choice(legal(s)))
            done += 1
    return done / (time.perf_counter() - t0)


def mcts_native(pairs, iterations: int, run: int) -> float:
    t = time.perf_counter()
    for k, (s, _) in enumerate(pairs):
        s.mcts(s.current_player, iterations=iterations, exploration=UCT_C, seed=1000 * run + k)
    return iterations * len(pairs) / (time.perf_counter() - t)


def mcts_openspiel(os_game, pairs, iterations: int, run: int) -> float:
    t = time.perf_counter()
    for k, (_, o) in enumerate(pairs):
        evaluator = pyspiel.RandomRolloutEvaluator(1, 1000 * run + k)   # the bot does not own it
        bot = pyspiel.MCTSBot(os_game, evaluator, UCT_C, iterations, 1000, False, 1000 * run + k, False)
        bot.step(o)
    return iterations * len(pairs) / (time.perf_counter() - t)


def pip_value(obs, player: int) -> float:
    """Horizon value for `player` from an observation seen by player 0: the pip-count race,
    as a win chance (the same logistic of pips per roll on both sides)."""
    pips = [0.0, 0.0]
    for p, base in ((0, 0), (1, 96)):
        for i in range(24):
            f = obs[base + 4 * i: base + 4 * i + 4]
            n = f[0] + 2 * f[1] + 3 * f[2] + (3 + f[3] if f[3] else 0)
            pips[p] += n * (24 - i if p == 0 else i + 1)
    pips[0] += 25 * obs[192]
    pips[1] += 25 * obs[195]
    edge = (pips[1 - player] - pips[player]) / 8.17
    return 2 / (1 + math.exp(-edge)) - 1      # OpenSpiel's returns are -1..1


def count_nodes(o, depth: int) -> int:
    """The nodes of OpenSpiel's expectiminimax tree (depth counts decisions, not chance)."""
    if o.is_terminal() or depth == 0:
        return 1
    n = 1
    if o.is_chance_node():
        for a, _ in o.chance_outcomes():
            n += count_nodes(o.child(a), depth)
    else:
        for a in o.legal_actions():
            n += count_nodes(o.child(a), depth - 1)
    return n


def expectimax_native(pairs, depth: int, run: int) -> float:
    nodes, elapsed = 0, 0.0
    for s, _ in pairs:
        _, _, info = s.expectimax(depth=depth, table_bytes=16 << 20)
        nodes += info["nodes"]
        elapsed += info["seconds"]
    return nodes / elapsed


def expectimax_openspiel(pairs, depth: int, run: int, node_counts: dict) -> float:
    elapsed, nodes = 0.0, 0
    for k, (_, o) in enumerate(pairs):
        p = o.current_player()
        t = time.perf_counter()
        minimax.expectiminimax(o, depth, lambda st, p=p: pip_value(st.observation_tensor(0), p), p)
        elapsed += time.perf_counter() - t
        if k not in node_counts:
            node_counts[k] = count_nodes(o, depth)
        nodes += node_counts[k]
    return nodes / elapsed


def arena(game, os_game, games: int, move_time: float, seed: int, our_rate: float, os_rate: float) -> dict:
    """Our MCTS against OpenSpiel's MCTSBot at equal time per move, seats alternating.

    Equal time is set as equal budgets from the measured rates (the mcts row): each side gets
    the simulations it runs in move_time seconds. (pyspiel's own wall-clock limit,
    max_wall_clock_time, crashes mid-game in this build.)"""
    rng = random.Random(seed)
    ours_iters, os_iters = max(1, round(our_rate * move_time)), max(1, round(os_rate * move_time))
    wins = draws = 0
    for k in range(games):
        ours_seat = k % 2
        s, o = game.initial_state(), os_game.new_initial_state()
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed + k)   # the bot does not own it
        bot = pyspiel.MCTSBot(os_game, evaluator, UCT_C, os_iters, 1000, False, seed + k, False)
        while not s.is_terminal():
            if s.is_chance():
                apply_both(s, o, s.sample_chance(rng.getrandbits(64)))
            elif len(s.legal_moves()) == 1:
                # a forced move (often a pass) is played without a search on both sides:
                # pyspiel's MCTSBot crashes on a state with one legal action
                apply_both(s, o, s.legal_moves()[0])
            elif s.current_player == ours_seat:
                mv, visits, _, _ = s.mcts(ours_seat, iterations=ours_iters, exploration=UCT_C, seed=rng.getrandbits(63))
                apply_both(s, o, mv[max(range(len(mv)), key=visits.__getitem__)])
            else:
                a = bot.step(o)
                c = o.clone()
                c.apply_action(a)
                want = board_key(c.observation_tensor(0))
                for m in s.legal_moves():
                    t = s.clone()
                    t.apply(m)
                    if board_key(t.observation(0)) == want:
                        apply_both(s, o, m)
                        break
                else:
                    raise AssertionError("OpenSpiel's move has no eurosearch counterpart")
        r = s.returns()[ours_seat]
        wins += r == 1.0
        draws += r == 0.5
    score = (wins + draws / 2) / games
    half = 1.96 * math.sqrt(max(score * (1 - score), 1e-9) / games)
    return {"games": games, "move_seconds": move_time, "wins": wins, "draws": draws,
            "score": score, "interval95": [max(0.0, score - half), min(1.0, score + half)],
            "our_simulations": ours_iters, "openspiel_simulations": os_iters}


def machine() -> dict:
    model, cores = platform.processor(), None
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
            if line.startswith("CPU(s):"):
                cores = int(line.split(":", 1)[1])
    except OSError:
        pass
    return {"cpu": model, "cores": cores, "python": platform.python_version(), "pyspiel": getattr(pyspiel, "__version__", "?")}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="runs per row (the median is reported)")
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per engine per run (playout rows)")
    ap.add_argument("--positions", type=int, default=4, help="mid-game positions for mcts and expectimax")
    ap.add_argument("--iterations", type=int, default=1000, help="simulations per MCTS search")
    ap.add_argument("--depth", type=int, default=2, help="expectimax depth")
    ap.add_argument("--arena-games", type=int, default=200)
    ap.add_argument("--arena-time", type=float, default=0.01, help="seconds per move in the arena")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write the report here")
    args = ap.parse_args(argv)

    game, os_game = es.game("backgammon"), pyspiel.load_game("backgammon")
    pairs = midgame_pairs(game, os_game, args.positions, args.seed)
    rows = {}

    def row(name, unit, ours, theirs):
        rows[name] = {"unit": unit, "eurosearch": ours, "openspiel": theirs, "ratio": ours / theirs}
        print(f"{name:16s} {unit:14s} eurosearch {ours:14,.0f}   OpenSpiel {theirs:12,.0f}   ratio {ours / theirs:7.1f}",
              flush=True)

    row("random playouts", "actions/s", median_rate(args.runs, lambda r: playouts_native(game, args.seconds, r)),
        median_rate(args.runs, lambda r: playouts_openspiel(os_game, args.seconds, r)))
    row("python random", "actions/s",
        median_rate(args.runs, lambda r: python_random(
            game.initial_state, lambda s: s.legal_moves(), lambda s, m: s.apply(m), lambda s: s.chance_outcomes(),
            lambda s: s.is_chance(), lambda s: s.is_terminal(), args.seconds, r)),
        median_rate(args.runs, lambda r: python_random(
            os_game.new_initial_state, lambda o: o.legal_actions(), lambda o, a: o.apply_action(a),
            lambda o: o.chance_outcomes(), lambda o: o.is_chance_node(), lambda o: o.is_terminal(), args.seconds, r)))
    row("mcts", "simulations/s", median_rate(args.runs, lambda r: mcts_native(pairs, args.iterations, r)),
        median_rate(args.runs, lambda r: mcts_openspiel(os_game, pairs, args.iterations, r)))
    counts: dict = {}
    row(f"expectimax d{args.depth}", "nodes/s", median_rate(args.runs, lambda r: expectimax_native(pairs, args.depth, r)),
        median_rate(args.runs, lambda r: expectimax_openspiel(pairs, args.depth, r, counts)))
    report = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": machine(),
              "command": " ".join(["python", "bench/openspiel_race.py", *(argv if argv is not None else sys.argv[1:])]),
              "rows": rows}
    if args.arena_games:
        report["arena"] = arena(game, os_game, args.arena_games, args.arena_time, args.seed,
                                rows["mcts"]["eurosearch"], rows["mcts"]["openspiel"])
        a = report["arena"]
        print(f"arena            {a['games']} games at {a['move_seconds']} s/move: eurosearch scores {a['score']:.3f} "
              f"(95% {a['interval95'][0]:.3f}..{a['interval95'][1]:.3f}), {a['wins']} wins, {a['draws']} draws, "
              f"simulations per move {a['our_simulations']} vs {a['openspiel_simulations']}", flush=True)
    print(json.dumps(report["machine"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
