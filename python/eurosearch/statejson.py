"""The JSON form of a state, written and read through the game's reflection table.

Every game's C module describes its state struct field by field (name, offset, type, shape),
so one codec serves all games: the JSON names every field, and reading it back builds the
struct and has the C core validate it.

A document carries the game's fingerprint (a hash of its data table and options, as in the
binary header): a state made under other options or another data file is refused on load.
Documents written before the fingerprint existed have none; they are accepted (users' bulk
positions files hold such documents) and validated field by field as before.
"""

from __future__ import annotations

import json
import struct
from typing import Any

from .errors import StateFormatError

FORMAT = 1
_CODES = {1: "B", 2: "b", 3: "H", 4: "I", 5: "Q"}  # es_field_type -> struct code
_KEYS = {"game", "players", "format", "fingerprint", "state", "viewer"}
_MAX_DIGITS = 20   # a state field is at most 64 bits: longer numbers are refused before int()


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


def json_from_raw(game: Any, raw: bytes, viewer: int | None = None) -> str:
    """A JSON document of a state blob (a viewer's redacted view when `viewer` is given)."""
    state: dict[str, Any] = {}
    for name, offset, ftype, dim0, dim1 in game.state_fields():
        code = _CODES[ftype]
        count = dim0 * (dim1 or 1)
        values = list(struct.unpack_from(f"<{count}{code}", raw, offset))
        if dim1:
            state[name] = [values[i * dim1:(i + 1) * dim1] for i in range(dim0)]
        elif dim0 == 1:
            state[name] = values[0]
        else:
            state[name] = values
    doc: dict[str, Any] = {"game": game.name, "players": game.players, "format": FORMAT,
                           "fingerprint": game.fingerprint, "state": state}
    if viewer is not None:
        doc["viewer"] = viewer
    return json.dumps(doc, separators=(",", ":"))


def raw_from_json(game: Any, text: str) -> bytes:
    """The state blob described by a JSON document (validated later by the C core)."""
    doc = _loads(text)
    if not isinstance(doc, dict) or not isinstance(doc.get("state"), dict):
        raise StateFormatError("expected an object with a 'state' table")
    if doc.get("game") != game.name:
        raise StateFormatError(f"a state of {doc.get('game')!r}, not {game.name!r}")
    if doc.get("players") != game.players:
        raise StateFormatError(f"a {doc.get('players')}-player state, this game has {game.players} players")
    if "viewer" in doc:
        raise StateFormatError("this is one player's view of a state, not a whole state")
    if doc.get("format") != FORMAT:
        raise StateFormatError(f"unknown state format {doc.get('format')!r}")
    extra = set(doc) - _KEYS
    if extra:
        raise StateFormatError(f"unknown key(s) {', '.join(sorted(map(repr, extra)))} in a state document")
    if "fingerprint" in doc and doc["fingerprint"] != game.fingerprint:
        raise StateFormatError(
            f"the state was made with other game data or options (fingerprint {doc['fingerprint']!r}, "
            f"this game {game.fingerprint!r})")
    state = doc["state"]
    raw = bytearray(game.state_size)
    fields = game.state_fields()
    unknown = set(state) - {f[0] for f in fields}
    if unknown:
        raise StateFormatError(f"unknown state field(s) {', '.join(sorted(unknown))}")
    for name, offset, ftype, dim0, dim1 in fields:
        if name not in state:
            raise StateFormatError(f"missing state field {name!r}")
        value = state[name]
        if dim1:
            if not isinstance(value, list) or len(value) != dim0 or any(
                not isinstance(row, list) or len(row) != dim1 for row in value
            ):
                raise StateFormatError(f"field {name!r}: expected {dim0} lists of {dim1}")
            flat = [x for row in value for x in row]
        elif dim0 == 1:
            flat = [value]
        else:
            if not isinstance(value, list) or len(value) != dim0:
                raise StateFormatError(f"field {name!r}: expected a list of {dim0}")
            flat = value
        if any(isinstance(x, bool) or not isinstance(x, int) for x in flat):
            raise StateFormatError(f"field {name!r}: expected integers")
        try:
            struct.pack_into(f"<{len(flat)}{_CODES[ftype]}", raw, offset, *flat)
        except struct.error as exc:
            raise StateFormatError(f"field {name!r}: {exc}") from None
    return bytes(raw)
