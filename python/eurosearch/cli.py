"""The ``eurosearch`` command line (also ``python -m eurosearch``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from . import __version__
from .api import games
from .gamedata import provisional_warning


ARENA_GAMES = 100          # eurosearch arena --games default
SPRT_MAX_GAMES = 10_000    # eurosearch arena --sprt: the default maximum (pairs stop earlier once decided)


def _options(text: str | None) -> dict | None:
    if not text:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SystemExit(f"--options must be a JSON object: {exc}")
    if not isinstance(value, dict):
        raise SystemExit("--options must be a JSON object")
    return value


def _check_and_warn(game_name: str, specs: list[str], players: int, data: str | None, options: dict | None) -> None:
    """Check the agent specs and the game (ValueError), then print provisional_warning before
    any game is played."""
    from . import agents
    from .api import game

    for spec in specs:
        agents.parse_spec(spec)
    warn = provisional_warning(game_name, game(game_name, players=players, data=data, options=options).data_sources())
    if warn:
        print(warn, file=sys.stderr)


def cmd_match(args: argparse.Namespace) -> int:
    from .match import Interrupted, format_table, run_match
    from .tables import stdout_is_terminal

    specs = [a.strip() for a in args.agents.split(",") if a.strip()]
    code = 0
    try:
        options = _options(args.options)
        _check_and_warn(args.game, specs, len(specs), args.data, options)
        result = run_match(args.game, specs, args.games, args.seed, data=args.data,
                           options=options, progress=None if not args.no_progress else False,
                           record=args.record)
    except ValueError as exc:
        print(f"eurosearch match: {exc}", file=sys.stderr)
        return 2
    except Interrupted as stop:        # Ctrl-C: the games finished so far
        result, code = stop.result, 130
    print(json.dumps(result.as_dict()) if args.json else format_table(result, terminal=stdout_is_terminal()))
    return code


def cmd_arena(args: argparse.Namespace) -> int:
    from .arena import format_arena, format_sprt, run_arena, run_sprt
    from .match import Interrupted
    from .sprt import parse_sprt
    from .tables import stdout_is_terminal
    from .workers import WorkerError

    specs = [a.strip() for a in args.agents.split(",") if a.strip()]
    filler = [f.strip() for f in (args.filler or "").split(",") if f.strip()]
    code = 0
    try:
        options = _options(args.options)
        if args.workers < 1:
            raise ValueError(f"--workers must be at least 1, got {args.workers}")
        progress = False if args.no_progress else None
        if args.sprt is not None:
            settings = parse_sprt(args.sprt)
            if len(specs) != 2:
                raise ValueError(f"--sprt compares exactly two agents (--agents A,B), got {len(specs)}; "
                                 "other seats take --filler agents")
            games = SPRT_MAX_GAMES if args.games is None else args.games
            _check_and_warn(args.game, specs + filler, args.players or 2, args.data, options)
            result = run_sprt(args.game, specs, settings, games, seed=args.seed, workers=args.workers,
                              players=args.players, filler=filler, data=args.data, options=options,
                              progress=progress, record=args.record)
        else:
            if filler:
                raise ValueError("--filler goes with --sprt (a rating arena seats every agent given)")
            _check_and_warn(args.game, specs, args.players or len(specs), args.data, options)
            result = run_arena(args.game, specs, ARENA_GAMES if args.games is None else args.games, seed=args.seed,
                               workers=args.workers, players=args.players, data=args.data, options=options,
                               progress=progress, record=args.record)
    except (ValueError, WorkerError) as exc:
        print(f"eurosearch arena: {exc}", file=sys.stderr)
        return 2
    except Interrupted as stop:        # Ctrl-C: the games finished so far, rated or tested
        result, code = stop.result, 130
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        show = format_sprt if args.sprt is not None else format_arena
        print(show(result, terminal=stdout_is_terminal()))    # type: ignore[arg-type]
    return code


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import format_report, run_benchmarks
    from .tables import stdout_is_terminal

    names = [args.game] if args.game else games()
    try:
        if args.search:
            import time

            from .bench import machine
            from .bench_search import bench_search, format_search_report
            report = {"machine": machine(), "date": time.strftime("%Y-%m-%d"),
                      "results": [bench_search(n, players=args.players, seconds=args.seconds, seed=args.seed)
                                  for n in names]}
            print(json.dumps(report) if args.json else format_search_report(report, terminal=stdout_is_terminal()))
            return 0
        report = run_benchmarks(names, players=args.players, seconds=args.seconds, seed=args.seed, repeat=args.repeat)
    except ValueError as exc:
        print(f"eurosearch bench: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else format_report(report, terminal=stdout_is_terminal()))
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from .api import game
    from .solve import JobError, SolveSettings, format_summary, generate_positions, read_positions, run_bulk
    from .tables import stdout_is_terminal

    def report(msg: str) -> None:
        print(f"eurosearch solve: {msg}", file=sys.stderr)

    if (args.positions is None) == (args.generate is None):
        report("give either --positions FILE or --generate N")
        return 2
    try:
        options = _options(args.options)
        g = game(args.game, players=args.players, data=args.data, options=options)
        if args.positions is not None:
            if not Path(args.positions).exists():
                raise ValueError(f"no positions file {args.positions}")
            positions = read_positions(args.positions, g)     # streamed, never held whole
        else:
            positions = generate_positions(g, args.generate, args.from_end, seed=args.seed)
        settings = SolveSettings(args.game, g.players, options, args.data, args.objective, args.mode,
                                 args.samples, args.seed, args.max_nodes, args.seconds, args.table_mb)
        summary = run_bulk(settings, positions, args.out, workers=args.workers, on_error=args.on_error,
                           ray=args.ray, retry_unsolved=args.retry_unsolved,
                           progress=False if args.no_progress else None, report=report)
    except (ValueError, JobError) as exc:
        report(str(exc))
        return 2
    except KeyboardInterrupt:
        report(f"interrupted; the finished results are kept in {args.out}, "
               "rerun the same command to resume")
        return 130
    print(json.dumps(summary.as_dict()) if args.json else format_summary(summary, terminal=stdout_is_terminal()))
    return 1 if summary.failed or summary.bad_lines else 0


def cmd_play(args: argparse.Namespace) -> int:
    from .play.cli import run_play

    return run_play(args)


def cmd_replay(args: argparse.Namespace) -> int:
    from .play.cli import run_replay

    return run_replay(args)


def cmd_data(args: argparse.Namespace) -> int:
    from .datatool import check, template
    from .gamedata import DataError

    if args.data_command == "template":
        sys.stdout.write(template(args.game))
        return 0
    try:
        name, report = check(args.file, args.game)
    except (DataError, ValueError) as exc:
        print(f"eurosearch data check: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report))
        return 0
    tags = ", ".join(f"{t} {n}" for t, n in report["by_tag"].items() if n)
    print(f"{args.file}: valid {name} data for every player count; {report['entries']} tagged entries ({tags})")
    items = report["provisional_items"]
    if items:
        print(f"still provisional ({len(items)}):")
        for item in items:
            print(f"  {item}")
    else:
        print("nothing provisional")
    return 0


def cmd_train_eval(args: argparse.Namespace) -> int:
    from .api import game
    from .evalmodel import EvalModelError
    from .evaltrain import train
    from .progress import Progress
    from .workers import WorkerError

    try:
        g = game(args.game, players=args.players)
        players = g.players
        out = Path(args.out or f"{args.game}-{players}p.json")
        if args.games < 2 or args.iterations < 1 or args.workers < 1:
            raise ValueError("--games must be at least 2, --iterations and --workers at least 1")
        if out.exists() and not args.force:
            raise ValueError(f"{out} exists; --force replaces it")
        warn = provisional_warning(args.game, g.data_sources())
        if warn:
            print(warn, file=sys.stderr)
        with Progress(args.games, "games", enabled=False if args.no_progress else None) as bar:
            model, report = train(g, games=args.games, iterations=args.iterations, seed=args.seed,
                                  workers=args.workers, progress=lambda done: bar.update(), eval_spec=args.eval)
        model.save(out, overwrite=args.force)
    except (ValueError, WorkerError, EvalModelError, OSError) as exc:
        print(f"eurosearch train-eval: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"file": str(out), **report}))
    else:
        print(f"{out}: {report['positions']} positions from {report['games']} games in {report['seconds']} s; "
              f"held-out log-loss {report['heldout_log_loss']} (hand evaluation {report['hand_heldout_log_loss']}), "
              f"winner ranked first {report['heldout_accuracy']:.1%} (hand {report['hand_heldout_accuracy']:.1%})")
        if report["heldout_log_loss"] >= report["hand_heldout_log_loss"]:
            print("note: the model predicts the held-out games no better than the game's own evaluation; "
                  "train on more games before playing with it", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="eurosearch", description="Search engines for Euro board games.")
    p.add_argument("--version", action="version", version=f"eurosearch {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    m = sub.add_parser("match", help="play games between agents and print a table per seat")
    m.add_argument("game", choices=games())
    m.add_argument("--agents", required=True, help="comma-separated agent specs, one per seat (e.g. random,random,random)")
    m.add_argument("--games", type=int, default=100)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--data", help="the game's component data file (default: the bundled one)")
    m.add_argument("--options", help='rule options as JSON, e.g. \'{"carriage": "furthest"}\'')
    m.add_argument("--json", action="store_true", help="print the result as one JSON object")
    m.add_argument("--no-progress", action="store_true", help="never draw the progress bar")
    m.add_argument("--record", metavar="DIR", help="write every game's record (JSON) into DIR")
    m.set_defaults(func=cmd_match)

    a = sub.add_parser("arena", help="rate agents over many games in rotating seats, on several processes")
    a.add_argument("game", choices=games())
    a.add_argument("--agents", required=True, help="comma-separated agent specs (e.g. mcts:iterations=2000,heuristic,random)")
    a.add_argument("--games", type=int, default=None,
                   help=f"games to play (default {ARENA_GAMES}); with --sprt the most to play, even "
                        f"(default {SPRT_MAX_GAMES})")
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--workers", type=int, default=1, help="processes playing games at once")
    a.add_argument("--sprt", metavar="elo0=E0,elo1=E1[,alpha=A,beta=B]",
                   help="test whether the first agent is elo1 (H1) or only elo0 (H0) logistic Elo stronger "
                        "than the second; games in pairs on one seed with the seats swapped, stopping when the "
                        "test decides (alpha, beta default 0.05; statistic=trinomial counts single games)")
    a.add_argument("--filler", metavar="SPEC[,SPEC...]",
                   help="with --sprt and more than two --players: the agent(s) in the other seats")
    a.add_argument("--players", type=int, default=None, help="seats per game (default: one per agent; with --sprt 2)")
    a.add_argument("--data", help="the game's component data file (default: the bundled one)")
    a.add_argument("--options", help="rule options as JSON")
    a.add_argument("--json", action="store_true", help="print the result as one JSON object")
    a.add_argument("--no-progress", action="store_true", help="never draw the progress bar")
    a.add_argument("--record", metavar="DIR", help="write every game's record (JSON) into DIR")
    a.set_defaults(func=cmd_arena)

    b = sub.add_parser("bench", help="speed of native play, Python-driven play and the reference")
    b.add_argument("game", nargs="?", choices=games())
    b.add_argument("--players", type=int, default=None)
    b.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--repeat", type=int, default=1, help="runs per measurement; the median is reported")
    b.add_argument("--search", action="store_true",
                   help="MCTS iterations/s (C vs plain Python) and expectimax nodes/s instead of random play")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench)

    s = sub.add_parser("solve", help="exact values of many endgame positions, resumable, on all cores or Ray")
    s.add_argument("game", choices=games())
    src = s.add_mutually_exclusive_group()
    src.add_argument("--positions", help="JSON lines: {\"id\": ..., \"state\": <State.to_json() document>}")
    src.add_argument("--generate", type=int, help="make this many positions by self-play instead")
    s.add_argument("--from-end", type=int, default=6, help="with --generate: decisions before the end (default 6)")
    s.add_argument("--seed", type=int, default=0, help="seed of --generate and of info-mode determinizations")
    s.add_argument("--players", type=int, default=None, help="player count (default: the game's smallest)")
    s.add_argument("--out", required=True, help="JSON-lines results; an existing file is resumed")
    s.add_argument("--workers", type=int, default=1, help="local processes")
    s.add_argument("--ray", metavar="ADDRESS", help="run on a Ray cluster: 'auto', host:port, or 'local'")
    s.add_argument("--objective", choices=["win", "score"], default="win")
    s.add_argument("--mode", choices=["open", "info"], default="open",
                   help="open: all cards face up; info: mean over --samples determinizations")
    s.add_argument("--samples", type=int, default=16)
    s.add_argument("--max-nodes", type=int, default=20_000_000, help="per position (0: no limit)")
    s.add_argument("--seconds", type=float, default=60.0, help="per position (0: no limit)")
    s.add_argument("--table-mb", type=float, default=64, help="transposition table per search")
    s.add_argument("--on-error", choices=["skip", "stop"], default="skip",
                   help="a malformed input line: report and skip it, or reject the job "
                        "(stop reads the file twice: a checking pass first)")
    s.add_argument("--retry-unsolved", action="store_true", help="solve again what a limit stopped last time")
    s.add_argument("--data", help="the game's component data file (default: the bundled one)")
    s.add_argument("--options", help="rule options as JSON")
    s.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    s.add_argument("--no-progress", action="store_true", help="never draw the progress bar")
    s.set_defaults(func=cmd_solve)

    d = sub.add_parser("data", help="component data: a template for a game's owner, and a check of it")
    dsub = d.add_subparsers(dest="data_command", required=True)
    dt = dsub.add_parser("template", help="print the bundled data file, provisional entries marked")
    dt.add_argument("game", choices=games())
    dc = dsub.add_parser("check", help="validate a data file and list what is still provisional")
    dc.add_argument("file")
    dc.add_argument("--game", choices=games(), help="the game (default: the one the template header names)")
    dc.add_argument("--json", action="store_true", help="print the source report as one JSON object")
    d.set_defaults(func=cmd_data)

    te = sub.add_parser("train-eval", help="learn an evaluation for MCTS from self-play (mcts:eval=learned or =FILE)")
    te.add_argument("game", choices=games())
    te.add_argument("--players", type=int, help="player count (default: the game's smallest)")
    te.add_argument("--games", type=int, default=3000, help="self-play games (default 3000)")
    te.add_argument("--iterations", type=int, default=500, help="MCTS iterations per self-play move (default 500)")
    te.add_argument("--seed", type=int, default=0)
    te.add_argument("--eval", default="hand", help="the evaluation the self-play searches use: hand (default), "
                    "learned (the shipped model) or a model file, to train a model from its predecessor's play")
    te.add_argument("--workers", type=int, default=1, help="processes playing the games (default 1)")
    te.add_argument("--out", help="model file to write (default: GAME-Np.json here; the package's own are in "
                    "eurosearch/data/eval/)")
    te.add_argument("--force", action="store_true", help="replace an existing model file")
    te.add_argument("--json", action="store_true", help="print the training report as one JSON object")
    te.add_argument("--no-progress", action="store_true", help="never draw the progress bar")
    te.set_defaults(func=cmd_train_eval)

    from .play.cli import add_play_arguments, add_replay_arguments
    add_play_arguments(sub.add_parser("play", help="play a game against the AI, in the terminal or the browser"))
    sub.choices["play"].set_defaults(func=cmd_play)
    add_replay_arguments(sub.add_parser("replay", help="print a recorded game move by move with the board"))
    sub.choices["replay"].set_defaults(func=cmd_replay)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:       # Ctrl-C before a command had results to show
        print(f"eurosearch {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
