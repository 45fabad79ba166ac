"""Speed measurements printed by ``eurosearch bench``: native random play in C, the same
play driven from Python through the API, and the plain-Python reference, all in one run so
that the ratios compare like with like on a shared, noisy machine."""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from typing import Any, Callable

from . import _native
from .api import CHANCE, TERMINAL, game as make_game, game_spec
from .limits import check_duration
from .tables import render


def _timed(run_batch: Callable[[int], tuple[int, int]], seconds: float) -> dict[str, float]:
    """Run batches of growing size until `seconds` have passed; return games/s, decisions/s."""
    games = decisions = 0
    batch = 1
    start = time.perf_counter()
    while True:
        g, d = run_batch(batch)
        games += g
        decisions += d
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
        batch = min(batch * 2, 1 << 16)
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed}


def python_driven_game(g: Any, rng: random.Random) -> int:
    """One uniformly random game played from Python: legal_moves + apply per decision."""
    s = g.initial_state()
    decisions = 0
    while True:
        cp = s.current_player
        if cp == TERMINAL:
            return decisions
        if cp == CHANCE:
            s.apply(s.sample_chance(rng.getrandbits(64)))
        else:
            moves = s.legal_moves()
            s.apply(moves[rng.randrange(len(moves))])
            decisions += 1


def bench_game(name: str, players: int | None = None, seconds: float = 2.0, seed: int = 1) -> dict[str, Any]:
    check_duration("seconds", seconds)
    spec = game_spec(name)
    g = make_game(name, players=players)
    counter = iter(range(1 << 62))

    def native(n: int) -> tuple[int, int]:
        _, dec, _ = g.random_playout_stats(n, seed + next(counter))
        return n, dec

    rng = random.Random(seed)

    def driven(n: int) -> tuple[int, int]:
        return n, sum(python_driven_game(g, rng) for _ in range(n))

    ref = spec.reference(g.data, g.players, g.options)
    ref_rng = random.Random(seed)

    def reference(n: int) -> tuple[int, int]:
        return n, sum(spec.reference_playout(ref, ref_rng)[1] for _ in range(n))

    res = {"native": _timed(native, seconds), "python_driven": _timed(driven, seconds),
           "reference": _timed(reference, seconds)}
    base = res["reference"]["decisions_per_s"]
    return {
        "game": name, "players": g.players, **res,
        "ratio_native_reference": res["native"]["decisions_per_s"] / base,
        "ratio_python_driven_reference": res["python_driven"]["decisions_per_s"] / base,
        "determinize_us": determinize_cost_us(g, seed),
        "apply_cost": g.apply_cost(100_000, seed),
    }


def determinize_cost_us(g: Any, seed: int, states: int = 200, calls: int = 20) -> float:
    """Mean microseconds of one State.determinize call (Python call included), over states
    sampled along random games, for the player to move."""
    rng = random.Random(seed)
    sample = []
    s = g.initial_state()
    while len(sample) < states:
        if s.is_terminal():
            s = g.initial_state()
        cp = s.current_player
        if cp == CHANCE:
            s.apply(s.sample_chance(rng.getrandbits(64)))
            continue
        if rng.random() < 0.2:
            sample.append((s.clone(), cp))
        s.apply(rng.choice(s.legal_moves()))
    start = time.perf_counter()
    for st, p in sample:
        for k in range(calls):
            st.determinize(p, k)
    return (time.perf_counter() - start) / (len(sample) * calls) * 1e6


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    select = "pdep" if _native.USES_PDEP else "portable"
    return f"{model}, {os.cpu_count()} logical CPUs, Python {platform.python_version()}, set selection: {select}"


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One result from repeated runs: the median of every rate and ratio (shared machines are
    noisy; a median of a few runs moves far less than one run)."""
    out = dict(runs[0])
    for key in ("native", "python_driven", "reference"):
        out[key] = {k: statistics.median(r[key][k] for r in runs) for k in runs[0][key]}
    for key in ("ratio_native_reference", "ratio_python_driven_reference", "determinize_us"):
        out[key] = statistics.median(r[key] for r in runs)
    out["apply_cost"] = {k: statistics.median(r["apply_cost"][k] for r in runs) for k in runs[0]["apply_cost"]}
    out["runs"] = len(runs)
    out["ratios_native_reference"] = [r["ratio_native_reference"] for r in runs]
    return out


def run_benchmarks(names: list[str], players: int | None = None, seconds: float = 2.0, seed: int = 1,
                   repeat: int = 1) -> dict[str, Any]:
    results = [median_of([bench_game(n, players, seconds, seed + k) for k in range(max(repeat, 1))]) for n in names]
    return {"machine": machine(), "date": time.strftime("%Y-%m-%d"), "repeat": repeat, "results": results}


def apply_cost_text(c: dict[str, float]) -> str:
    """One line on the checked apply's cost against the unchecked one (es_apply_cost)."""
    parts = []
    for kind in ("decision", "chance"):
        u, k = c[f"{kind}_unchecked_ns"], c[f"{kind}_checked_ns"]
        if u > 0:
            parts.append(f"{kind} {u:.0f} -> {k:.0f} ns (x{k / u:.2f})")
    return "checked apply: " + ", ".join(parts) if parts else "checked apply: no nodes"


def format_report(report: dict[str, Any], terminal: bool = False) -> str:
    """The table printed by ``eurosearch bench`` (styled by rich when `terminal`)."""
    rows, notes = [], []
    for r in report["results"]:
        base = r["reference"]["decisions_per_s"]
        for key in ("native", "python_driven", "reference"):
            m = r[key]
            rows.append([r["game"], str(r["players"]), key, f"{m['games_per_s']:.1f}", f"{m['decisions_per_s']:,.0f}",
                         f"{m['decisions_per_s'] / base:.1f}"])
        notes.append(f"{r['game']} ({r['players']} players): determinize {r['determinize_us']:.2f} us per call")
        if "apply_cost" in r:   # reports saved before the figure existed have none
            notes.append(f"{r['game']} ({r['players']} players): {apply_cost_text(r['apply_cost'])}")
        if r.get("runs", 1) > 1:
            notes.append(f"{r['game']} ({r['players']} players): median of {r['runs']} runs; native/reference per run: "
                         + ", ".join(f"{x:.1f}" for x in r["ratios_native_reference"]))
    return render([("game", "left"), ("players", "right"), ("engine", "left"), ("games/s", "right"),
                   ("decisions/s", "right"), ("x reference", "right")], rows,
                  title=f"machine: {report['machine']}  date: {report['date']}  (one core, random play)",
                  notes=notes, terminal=terminal)
