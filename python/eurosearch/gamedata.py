"""Reading and validating a game's component data file (TOML or JSON).

Rules live in C; every card, tile and board value lives in one data file per game. This
module holds what every game's loader shares: reading the file, typed access to entries with
errors that name the entry and the field, and counting the source tag of every entry.
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .files import read_text

#: Source tags, from the surest to the least sure.
TAGS: tuple[str, ...] = ("rulebook", "external-high", "external-medium", "external-low", "provisional")

_MISSING = object()


class DataError(ValueError):
    """A game data file is malformed; the message names the file, the entry and the field."""


def read_file(path: str | Path) -> dict[str, Any]:
    """Parse a ``.toml`` or ``.json`` data file into a dict."""
    p = Path(path)
    text = read_text(p, DataError, "data file")
    try:
        data = json.loads(text) if p.suffix.lower() == ".json" else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{p}: not a valid {p.suffix.lstrip('.') or 'TOML'} file: {exc}") from None
    if not isinstance(data, dict):
        raise DataError(f"{p}: the top level must be a table")
    return data


@dataclass
class SourceLedger:
    """Counts, per source tag, the tagged parts of a data set."""

    by_tag: Counter = field(default_factory=Counter)
    provisional: list[str] = field(default_factory=list)

    def add(self, where: str, tag: str) -> None:
        self.by_tag[tag] += 1
        if tag == "provisional":
            self.provisional.append(where)

    def report(self, game: str, origin: str, status: str) -> dict[str, Any]:
        total = sum(self.by_tag.values())
        return {
            "game": game,
            "file": origin,
            "status": status,
            "entries": total,
            "by_tag": {t: self.by_tag.get(t, 0) for t in TAGS},
            "provisional": self.by_tag.get("provisional", 0),
            "provisional_fraction": (self.by_tag.get("provisional", 0) / total) if total else 0.0,
            "provisional_items": list(self.provisional),
        }


class Entry:
    """Typed, checked access to one table of a data file.

    Every error names the file (``origin``), the entry (``where``) and the key.
    """

    def __init__(self, origin: str, where: str, table: Any):
        self.origin = origin
        self.where = where
        if not isinstance(table, dict):
            self.fail(None, f"expected a table, got {type(table).__name__}")
        self.table: dict[str, Any] = table
        self.used: set[str] = set()

    def fail(self, key: str | None, message: str) -> None:
        at = f"{self.where}" + (f": field '{key}'" if key else "")
        raise DataError(f"{self.origin}: {at}: {message}")

    def has(self, key: str) -> bool:
        return key in self.table

    def _get(self, key: str, default: Any) -> Any:
        self.used.add(key)
        if key in self.table:
            return self.table[key]
        if default is _MISSING:
            self.fail(key, "missing")
        return default

    def int(self, key: str, default: Any = _MISSING, lo: int = 0, hi: int = 1 << 30) -> int:
        v = self._get(key, default)
        if isinstance(v, bool) or not isinstance(v, int):
            self.fail(key, f"expected an integer, got {v!r}")
        if not lo <= v <= hi:
            self.fail(key, f"{v} is out of range {lo}..{hi}")
        return v

    def bool(self, key: str, default: Any = _MISSING) -> bool:
        v = self._get(key, default)
        if not isinstance(v, bool):
            self.fail(key, f"expected true or false, got {v!r}")
        return v

    def str(self, key: str, default: Any = _MISSING, choices: Iterable[str] | None = None) -> str:
        v = self._get(key, default)
        if not isinstance(v, str) or not v:
            self.fail(key, f"expected a non-empty string, got {v!r}")
        if choices is not None and v not in choices:
            self.fail(key, f"{v!r} is not one of {', '.join(sorted(choices))}")
        return v

    def int_list(self, key: str, default: Any = _MISSING, lo: int = 0, hi: int = 1 << 30) -> list[int]:
        v = self._get(key, default)
        if not isinstance(v, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in v):
            self.fail(key, f"expected a list of integers, got {v!r}")
        for x in v:
            if not lo <= x <= hi:
                self.fail(key, f"{x} is out of range {lo}..{hi}")
        return list(v)

    def table_list(self, key: str) -> list[Any]:
        v = self._get(key, _MISSING)
        if not isinstance(v, list):
            self.fail(key, f"expected a list of tables, got {type(v).__name__}")
        return v

    def sub(self, key: str, default: Any = _MISSING) -> "Entry":
        v = self._get(key, default)
        return Entry(self.origin, f"{self.where}.{key}" if self.where else key, v)

    def tag(self, ledger: SourceLedger, key: str = "tag", parts: tuple[str, ...] = ()) -> None:
        """Check the source tag (a string, or a table of per-part tags) and count it."""
        v = self._get(key, _MISSING)
        if isinstance(v, str):
            self._check_tag(key, v)
            for part in parts or ("",):
                ledger.add(f"{self.where}{'.' + part if part else ''}", v)
            return
        if not isinstance(v, dict) or not parts:
            self.fail(key, f"expected one of {', '.join(TAGS)}" + (" or a table of them" if parts else ""))
        for part in parts:
            if part not in v:
                self.fail(key, f"no tag for '{part}' (needs {', '.join(parts)})")
            self._check_tag(f"{key}.{part}", v[part])
            ledger.add(f"{self.where}.{part}", v[part])
        extra = set(v) - set(parts)
        if extra:
            self.fail(key, f"unknown part(s) {', '.join(sorted(extra))}")

    def _check_tag(self, key: str, value: Any) -> None:
        if value not in TAGS:
            self.fail(key, f"{value!r} is not a source tag ({', '.join(TAGS)})")

    def done(self, allowed_extra: Iterable[str] = ()) -> None:
        """Reject keys that nothing read: a typo must not be silently ignored."""
        unknown = set(self.table) - self.used - set(allowed_extra)
        if unknown:
            self.fail(None, f"unknown key(s) {', '.join(sorted(unknown))}")


NAME_BYTES = 24  # the C tables hold ids as 24-byte NUL-terminated strings


def check_id(e: Entry, value: str, seen: set[str] | None = None, reserved: Iterable[str] = ()) -> None:
    """Refuse an id the C tables and text moves cannot carry, a reserved word, or (with seen) a repeat."""
    reserved = tuple(reserved)
    if len(value.encode("utf-8")) >= NAME_BYTES or not value.isascii() or any(c.isspace() for c in value) \
            or value.lower() in reserved:
        e.fail("id", f"{value!r}: an id is at most 23 ASCII characters without spaces"
                     f"{', not a reserved word' if reserved else ''} (it is used in text moves)")
    if seen is not None:
        if value in seen:
            e.fail("id", f"duplicate id {value!r}")
        seen.add(value)


def id_entry(origin: str, where: str, row: Any, seen: set[str]) -> tuple[Entry, str]:
    """Open a list entry that has an id: check the id, and name the entry by it in errors."""
    e = Entry(origin, where, row)
    eid = e.str("id")
    check_id(e, eid, seen)
    e.where = f"{where} ({eid})"
    return e, eid


def name_ints(name: str) -> list[int]:
    """An id as the C data table holds it: NAME_BYTES NUL-padded bytes, read as little-endian int32 words."""
    raw = name.encode()[: NAME_BYTES - 1].ljust(NAME_BYTES, b"\0")
    return [int.from_bytes(raw[i:i + 4], "little", signed=True) for i in range(0, NAME_BYTES, 4)]


def provisional_warning(game_name: str, src: dict) -> str | None:
    """One line warning when the game's component data is (partly) provisional."""
    if src["provisional"] == 0:
        return None
    return (f"warning: {game_name} runs on provisional component data ({src['provisional']} of "
            f"{src['entries']} entries, {100 * src['provisional_fraction']:.0f}%, are placeholders; "
            f"see {src['file']})")
