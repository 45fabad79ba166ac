"""Parsing a user's ``options={...}`` dict into a game's frozen options dataclass.

Every game's options are a dataclass whose defaults are the rules file's recommendations;
this checks a user's dict against it with errors that name the key and the allowed values.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, TypeVar

T = TypeVar("T")


def parse_options(game: str, cls: type[T], options: dict[str, Any] | None, players: int,
                  choices: dict[str, tuple[str, ...]], int_ranges: dict[str, tuple[int, int]]) -> T:
    """Build `cls` from `options`; ValueError for unknown keys or bad values.

    ``start_player`` (None or a seat), the keys of `choices` (one of the strings), the keys of
    `int_ranges` (an int in the range) and every field with a bool default (true or false)
    are checked."""
    if options is None:
        return cls()
    if isinstance(options, cls):
        return options
    if not isinstance(options, dict):
        raise ValueError(f"{game} options must be a dict, got {type(options).__name__}")
    known = {f.name for f in fields(cls)}
    unknown = set(options) - known
    if unknown:
        raise ValueError(f"unknown {game} option(s) {', '.join(sorted(unknown))}; valid: {', '.join(sorted(known))}")
    o = cls(**options)
    sp = getattr(o, "start_player", None)
    if sp is not None and (isinstance(sp, bool) or not isinstance(sp, int) or not 0 <= sp < players):
        raise ValueError(f"{game} option start_player must be None or a seat 0..{players - 1}, got {sp!r}")
    for key, allowed in choices.items():
        if getattr(o, key) not in allowed:
            raise ValueError(f"{game} option {key} must be one of {', '.join(allowed)}, got {getattr(o, key)!r}")
    for f in fields(cls):
        if f.default is not MISSING and isinstance(f.default, bool) and not isinstance(getattr(o, f.name), bool):
            raise ValueError(f"{game} option {f.name} must be true or false, got {getattr(o, f.name)!r}")
    for key, (lo, hi) in int_ranges.items():
        v = getattr(o, key)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"{game} option {key} must be an integer {lo}..{hi}, got {v!r}")
    return o
