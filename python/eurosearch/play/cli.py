"""The ``play`` and ``replay`` subcommands (wired into eurosearch.cli)."""

from __future__ import annotations

import argparse
import json
import sys

from ..api import games
from ..errors import StateFormatError
from ..gamedata import provisional_warning
from .record import load_record
from .session import HUMAN, Session, default_ai, with_a_person


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", choices=games(), help="the game (not needed with --load)")
    p.add_argument("--players", type=int, default=None, help="player count (default: the game's smallest)")
    p.add_argument("--seat", type=int, action="append", default=None,
                   help="your seat (default 0); repeat for several people at one screen")
    p.add_argument("--ai", action="append", default=None,
                   help="agent spec of the AI seats, in seat order; repeat or give a comma list "
                        "(default: a search with 2 seconds per move)")
    p.add_argument("--seed", type=int, default=0, help="seed of the dice and cards")
    p.add_argument("--options", help="rule options as JSON")
    p.add_argument("--data", help="the game's component data file (default: the bundled one)")
    p.add_argument("--load", metavar="FILE", help="continue a saved game record")
    p.add_argument("--web", action="store_true", help="play in the browser instead of the terminal")
    p.add_argument("--host", default="127.0.0.1", help="with --web: the address to listen on (default loopback)")
    p.add_argument("--port", type=int, default=8765, help="with --web: the port (0: any free port)")
    p.add_argument("--no-color", action="store_true", help="plain text in the terminal")


def add_replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game record written by play, match --record or arena --record")
    p.add_argument("--seat", type=int, default=0, help="whose view of the board to print (default 0)")
    p.add_argument("--no-boards", action="store_true", help="only the moves")
    p.add_argument("--color", action="store_true", help="ANSI colours")


def seat_specs(players: int, humans: list[int], ai: list[str] | None, game_name: str) -> list[str]:
    """"human" for the people's seats, the --ai specs in order for the others (the last one
    repeated, or the game's default AI when none is given)."""
    for h in humans:
        if not 0 <= h < players:
            raise ValueError(f"--seat must be 0..{players - 1}, got {h}")
    specs = [a.strip() for item in (ai or []) for a in item.split(",") if a.strip()] or [default_ai(game_name)]
    out, k = [], 0
    for p in range(players):
        if p in humans:
            out.append(HUMAN)
        else:
            out.append(specs[min(k, len(specs) - 1)])
            k += 1
    if k and k < len(specs):
        raise ValueError(f"{len(specs)} --ai specs for {k} AI seat(s)")
    return out


def _session(args: argparse.Namespace) -> Session:
    humans = args.seat if args.seat is not None else [0]
    if args.load:
        rec = load_record(args.load)
        seats = seat_specs(rec.players, humans, args.ai, rec.game) if (args.seat or args.ai) else with_a_person(rec.seats)
        return Session.from_record(rec, seats, data=args.data)
    if not args.game:
        raise ValueError("name a game (one of " + ", ".join(games()) + ") or give --load FILE")
    options = None
    if args.options:
        try:
            options = json.loads(args.options)
        except json.JSONDecodeError as exc:
            raise ValueError(f"--options must be a JSON object: {exc}") from None
    from ..api import game as make_game
    g = make_game(args.game, players=args.players, data=args.data, options=options)
    return Session(g, seat_specs(g.players, humans, args.ai, args.game), args.seed, data=args.data)


def run_play(args: argparse.Namespace) -> int:
    try:
        session = _session(args)
    except (ValueError, StateFormatError) as exc:
        print(f"eurosearch play: {exc}", file=sys.stderr)
        return 2
    warn = provisional_warning(session.game.name, session.game.data_sources())
    if warn:
        print(warn, file=sys.stderr)
    if args.web:
        from .web import serve
        return serve(session, host=args.host, port=args.port)
    from .terminal import play_terminal
    try:
        return play_terminal(session, color=False if args.no_color else None)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


def run_replay(args: argparse.Namespace) -> int:
    from .replay import print_replay
    try:
        rec = load_record(args.file)
        print_replay(rec, sys.stdout, seat=args.seat, color=args.color, boards=not args.no_boards)
    except ValueError as exc:
        print(f"eurosearch replay: {exc}", file=sys.stderr)
        return 2
    return 0
