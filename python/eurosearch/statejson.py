"""The JSON form of a state, written and read through the game's reflection table.

Every game's C module describes its state struct field by field (name, offset, type, shape)
and declares what the values mean (es_field_kind in eurosearch.h: a number, a flag, a seat,
a card index or a card set over one of its data's name tables, ...), so one codec serves all
games. Format 2 (the default, docs/state_json.md) writes every value for people and tools:
cards by their data file ids, sets as lists, sentinels as null, flags as booleans, and no
integer above 2^53 (so that tools reading numbers as doubles, like jq, cannot corrupt it).
Format 1 (the raw integers of the struct) is still read, and written on request.

A document carries the game's fingerprint (a hash of its data table and options, as in the
binary header): a state made under other options or another data file is refused on load.
Documents written before the fingerprint existed have none; they are accepted (users' bulk
positions files hold such documents) and validated field by field as before.
"""

from __future__ import annotations

import functools
import json
import struct
from typing import Any, Callable

from .errors import StateFormatError

FORMAT = 2                 # written by default
FORMATS = (1, 2)           # read
_CODES = {1: "B", 2: "b", 3: "H", 4: "I", 5: "Q"}  # es_field_type -> struct code
_BITS = {1: 8, 2: 8, 3: 16, 4: 32, 5: 64}
_KEYS = {"game", "players", "format", "fingerprint", "state", "viewer"}
_MAX_DIGITS = 20   # a state field is at most 64 bits: longer numbers are refused before int()
_MAX_SAFE = 1 << 53  # the largest integer a double holds exactly

# es_field_kind (eurosearch.h)
K_INT, K_BOOL, K_SEAT, K_OPT, K_SEATSET, K_ITEM, K_ITEMSET, K_ITEMSET_ROW, K_PER_ITEM, K_PAD, K_DERIVED = range(11)
HIDDEN = "?"               # K_ITEM: the item is there, but the viewer cannot see which
_ROW_KINDS = (K_ITEMSET_ROW, K_PER_ITEM)   # kinds that take the last dimension as one value
KIND_NAMES = ("int", "bool", "seat", "int or null", "seat set", "name or null", "name set",
              "name set", "count per name", "padding")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise StateFormatError(f"number with {len(text)} digits is out of range")
    return int(text)


def _no_float(text: str) -> float:
    raise StateFormatError(f"expected integers, got the number {text[:30]}")


def _loads(text: str) -> Any:
    """json.loads that only raises StateFormatError (deep nesting, huge or non-integer numbers)."""
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_no_float, parse_constant=_no_float)
    except RecursionError:
        raise StateFormatError("not a state document: JSON nested too deeply") from None
    except StateFormatError:
        raise
    except ValueError as exc:    # JSONDecodeError and the like
        raise StateFormatError(f"not JSON: {exc}") from None


class _Field:
    """One reflected field and how its values are written in format 2."""

    def __init__(self, desc: tuple, players: int):
        self.name, self.offset, self.ftype, self.dim0, self.dim1, self.kind, names = desc
        self.code = _CODES[self.ftype]
        self.count = self.dim0 * (self.dim1 or 1)
        bits = _BITS[self.ftype]
        signed = self.ftype == 2
        self.lo, self.hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        self.none = -1 if signed else self.hi      # the type's sentinel
        self.hidden = self.hi if signed else self.hi - 1   # an item a view hides (K_ITEM)
        self.bits = bits
        self.players = players
        self.names: tuple[str, ...] = names or ()
        self.index = {n: i for i, n in enumerate(self.names) if n}
        if len(self.index) != sum(1 for n in self.names if n):
            raise StateFormatError(f"field {self.name!r}: the game data names two entries alike")
        # the nested shape of the JSON value; row kinds take the last dimension as one value
        shape = [self.dim0, self.dim1] if self.dim1 else ([self.dim0] if self.dim0 > 1 else [])
        self.row = 1
        if self.kind in _ROW_KINDS:
            self.row = shape.pop()
        self.shape = shape

    # ---- writing

    def write(self, values: list[int]) -> Any:
        if self.kind in _ROW_KINDS:
            leaves = [self._leaf_out(values[i:i + self.row], i // self.row) for i in range(0, self.count, self.row)]
        else:
            leaves = [self._leaf_out(v, i) for i, v in enumerate(values)]
        return _nest(leaves, self.shape)

    def _item_name(self, index: int, where: int) -> str:
        if 0 <= index < len(self.names) and self.names[index]:
            return self.names[index]
        # a valid state never gets here (the C validator range-checks every index)
        raise StateFormatError(f"field {self.name!r}: element {where} is entry {index}, which the data does not name")

    def _leaf_out(self, v: Any, where: int) -> Any:
        kind = self.kind
        if kind == K_INT:
            return v if -_MAX_SAFE <= v <= _MAX_SAFE else str(v)
        if kind == K_BOOL:
            if v not in (0, 1):
                raise StateFormatError(f"field {self.name!r}: element {where} is {v}, not a flag")
            return v == 1
        if kind in (K_SEAT, K_OPT):
            return None if v == self.none else v
        if kind == K_SEATSET:
            return [p for p in range(self.bits) if (v >> p) & 1]
        if kind == K_ITEM:
            return None if v == self.none else HIDDEN if v == self.hidden else self._item_name(v, where)
        if kind in (K_ITEMSET, K_ITEMSET_ROW):
            words = v if isinstance(v, list) else [v]
            out = []
            for w, word in enumerate(words):
                while word:
                    low = word & -word
                    out.append(self._item_name(w * self.bits + low.bit_length() - 1, where))
                    word ^= low
            return out
        if kind == K_PER_ITEM:
            for i, x in enumerate(v):
                if x and not (i < len(self.names) and self.names[i]):
                    self._item_name(i, where)
            return {n: v[i] for i, n in enumerate(self.names[:len(v)]) if n}
        raise StateFormatError(f"field {self.name!r}: unknown kind {kind}")

    # ---- reading

    def read(self, value: Any) -> list[int]:
        out: list[int] = []
        self._read_nested(value, self.shape, "", out)
        return out

    def _where(self, path: str) -> str:
        return f"field {self.name!r}{path}"

    def _read_nested(self, value: Any, shape: list[int], path: str, out: list[int]) -> None:
        if shape:
            if not isinstance(value, list) or len(value) != shape[0]:
                raise StateFormatError(f"{self._where(path)}: expected a list of {shape[0]}")
            for i, x in enumerate(value):
                self._read_nested(x, shape[1:], f"{path}[{i}]", out)
        else:
            out.extend(self._leaf_in(value, path))

    def _int_in(self, v: Any, path: str, lo: int, hi: int) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise StateFormatError(f"{self._where(path)}: expected an integer, got {_show(v)}")
        if not lo <= v <= hi:
            raise StateFormatError(f"{self._where(path)}: {v} is out of range {lo}..{hi}")
        return v

    def _name_in(self, v: Any, path: str) -> int:
        if not isinstance(v, str):
            raise StateFormatError(f"{self._where(path)}: expected a name, got {_show(v)}")
        if v not in self.index:
            raise StateFormatError(f"{self._where(path)}: unknown name {v[:40]!r}")
        return self.index[v]

    def _leaf_in(self, v: Any, path: str) -> list[int]:
        kind = self.kind
        if kind == K_INT:
            if isinstance(v, str) and v.isdigit() and len(v) <= _MAX_DIGITS and int(v) > _MAX_SAFE:
                v = int(v)   # written as a string because it is above 2^53
            return [self._int_in(v, path, self.lo, self.hi)]
        if kind == K_BOOL:
            if not isinstance(v, bool):
                raise StateFormatError(f"{self._where(path)}: expected true or false, got {_show(v)}")
            return [int(v)]
        if kind in (K_SEAT, K_OPT, K_ITEM) and v is None:
            return [self.none]
        if kind == K_SEAT:
            return [self._int_in(v, path, 0, self.players - 1)]
        if kind == K_OPT:
            if isinstance(v, int) and not isinstance(v, bool) and v == self.none:
                raise StateFormatError(f"{self._where(path)}: {v} is the 'none' value: write null")
            return [self._int_in(v, path, self.lo, self.hi)]
        if kind == K_ITEM:
            return [self.hidden if v == HIDDEN else self._name_in(v, path)]
        if kind == K_SEATSET:
            return [self._set_in(v, path, lambda x, p: self._int_in(x, p, 0, self.players - 1), 1)[0]]
        if kind in (K_ITEMSET, K_ITEMSET_ROW):
            return self._set_in(v, path, self._name_in, self.row)
        if kind == K_PER_ITEM:
            if not isinstance(v, dict):
                raise StateFormatError(f"{self._where(path)}: expected an object of counts by name")
            row = [0] * self.row
            for name, x in v.items():
                i = self._name_in(name, path)
                if i >= self.row:
                    raise StateFormatError(f"{self._where(path)}: {name!r} does not fit the field")
                row[i] = self._int_in(x, f"{path}[{name!r}]", self.lo, self.hi)
            missing = [n for n in self.names[:self.row] if n and n not in v]
            if missing:
                raise StateFormatError(f"{self._where(path)}: missing {missing[0]!r}")
            return row
        raise StateFormatError(f"{self._where(path)}: unknown kind {kind}")

    def _set_in(self, v: Any, path: str, member: Callable[[Any, str], int], words: int) -> list[int]:
        if not isinstance(v, list):
            raise StateFormatError(f"{self._where(path)}: expected a list, got {_show(v)}")
        out = [0] * words
        for i, x in enumerate(v):
            bit = member(x, f"{path}[{i}]")
            w, b = divmod(bit, self.bits)
            if w >= words:
                raise StateFormatError(f"{self._where(path)}[{i}]: {_show(x)} does not fit the field")
            if (out[w] >> b) & 1:
                raise StateFormatError(f"{self._where(path)}[{i}]: {_show(x)} is listed twice")
            out[w] |= 1 << b
        return out


def _show(v: Any) -> str:
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _nest(leaves: list[Any], shape: list[int]) -> Any:
    if not shape:
        return leaves[0]
    if len(shape) == 1:
        return leaves
    n = shape[1]
    return [leaves[i * n:(i + 1) * n] for i in range(shape[0])]


@functools.lru_cache(maxsize=32)
def _fields(game: Any) -> list[_Field]:
    """The codec of each field of a game (built once per game: the name tables are its data's).
    Derived fields (caches the engine rebuilds from the others) are in no document."""
    return [_Field(desc, game.players) for desc in game.state_fields() if desc[5] != K_DERIVED]


# ---------------------------------------------------------------- writing

def json_from_raw(game: Any, raw: bytes, viewer: int | None = None, fmt: int | None = None) -> str:
    """A JSON document of a state blob (a viewer's redacted view when `viewer` is given), in
    format `fmt` (default: the current one)."""
    fmt = FORMAT if fmt is None else fmt
    if fmt not in FORMATS:
        raise ValueError(f"unknown state format {fmt!r}; this version writes formats {', '.join(map(str, FORMATS))}")
    state: dict[str, Any] = {}
    for f in _fields(game):
        values = list(struct.unpack_from(f"<{f.count}{f.code}", raw, f.offset))
        if fmt == 1:
            if f.dim1:
                state[f.name] = [values[i * f.dim1:(i + 1) * f.dim1] for i in range(f.dim0)]
            elif f.dim0 == 1:
                state[f.name] = values[0]
            else:
                state[f.name] = values
        elif f.kind != K_PAD:
            state[f.name] = f.write(values)
    doc: dict[str, Any] = {"game": game.name, "players": game.players, "format": fmt,
                           "fingerprint": game.fingerprint, "state": state}
    if viewer is not None:
        doc["viewer"] = viewer
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------- reading

def decode(game: Any, text: str) -> tuple[bytes, int | None]:
    """The state blob a document describes, and its viewer (None for a whole state): checked
    field by field here, not yet by the C core (a view is no state it could validate)."""
    doc = _loads(text)
    if not isinstance(doc, dict) or not isinstance(doc.get("state"), dict):
        raise StateFormatError("expected an object with a 'state' table")
    if doc.get("game") != game.name:
        raise StateFormatError(f"a state of {doc.get('game')!r}, not {game.name!r}")
    if doc.get("players") != game.players:
        raise StateFormatError(f"a {doc.get('players')}-player state, this game has {game.players} players")
    fmt = doc.get("format")
    if isinstance(fmt, bool) or fmt not in FORMATS:
        raise StateFormatError(f"unknown state format {fmt!r}: this version reads formats "
                               f"{', '.join(map(str, FORMATS))}")
    extra = set(doc) - _KEYS
    if extra:
        raise StateFormatError(f"unknown key(s) {', '.join(sorted(map(repr, extra)))} in a state document")
    if "fingerprint" in doc and doc["fingerprint"] != game.fingerprint:
        raise StateFormatError(
            f"the state was made with other game data or options (fingerprint {doc['fingerprint']!r}, "
            f"this game {game.fingerprint!r})")
    viewer = doc.get("viewer")
    if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                               or not 0 <= viewer < game.players):
        raise StateFormatError(f"viewer {_show(viewer)} is not a seat of this game")
    state = doc["state"]
    fields = _fields(game)
    written = [f for f in fields if fmt == 1 or f.kind != K_PAD]
    unknown = set(state) - {f.name for f in written}
    if unknown:
        raise StateFormatError(f"unknown state field(s) {', '.join(sorted(unknown))}")
    raw = bytearray(game.state_size)
    for f in written:
        if f.name not in state:
            raise StateFormatError(f"missing state field {f.name!r}")
        flat = _read_raw(f, state[f.name]) if fmt == 1 else f.read(state[f.name])
        struct.pack_into(f"<{len(flat)}{f.code}", raw, f.offset, *flat)
    return bytes(raw), viewer


def _read_raw(f: _Field, value: Any) -> list[int]:
    """A field of a format-1 document: the struct's integers, nested by the field's shape."""
    if f.dim1:
        if not isinstance(value, list) or len(value) != f.dim0 or any(
            not isinstance(row, list) or len(row) != f.dim1 for row in value
        ):
            raise StateFormatError(f"field {f.name!r}: expected {f.dim0} lists of {f.dim1}")
        flat = [x for row in value for x in row]
    elif f.dim0 == 1:
        flat = [value]
    else:
        if not isinstance(value, list) or len(value) != f.dim0:
            raise StateFormatError(f"field {f.name!r}: expected a list of {f.dim0}")
        flat = value
    for i, x in enumerate(flat):
        if isinstance(x, bool) or not isinstance(x, int):
            raise StateFormatError(f"field {f.name!r}: expected integers")
        if not f.lo <= x <= f.hi:
            raise StateFormatError(f"field {f.name!r}: element {i} ({x}) is out of range {f.lo}..{f.hi}")
    return flat


def raw_from_json(game: Any, text: str) -> bytes:
    """The state blob described by a JSON document of a whole state (validated later by the
    C core); a player's view is refused."""
    raw, viewer = decode(game, text)
    if viewer is not None:
        raise StateFormatError("this is one player's view of a state, not a whole state")
    return raw
