"""Hardening of the state validators (issue 14): hostile field values and stray bytes.

A state blob reaches a game's validator from ``Game.state_from_json``, ``state_from_bytes``
and ``Game._from_raw``. The validator must bound every field before it uses it as an index
(a wrong value is a StateFormatError, never an out-of-bounds read), and a state must have one
byte form: bytes that no reflected field covers (struct padding, unused tail) are zero.

Out-of-bounds reads rarely crash a normal build; these tests get their teeth in the sanitizer
run (tests/test_sanitizers.py), where any such read fails the run.
"""

from __future__ import annotations

import json
import os
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eurosearch as es
from eurosearch import statejson
from test_fuzz import GAMES, POOL

#: es_field_type -> (struct code, byte width)
CODES = {1: ("B", 1), 2: ("b", 1), 3: ("H", 2), 4: ("I", 4), 5: ("Q", 8)}
#: values most likely to slip past a bound or flip a sign, per es_field_type
EXTREMES = {
    1: (1, 2, 3, 4, 5, 8, 9, 10, 11, 16, 44, 94, 127, 128, 200, 254, 255),
    2: (-128, -100, -4, -3, -2, -1, 4, 5, 8, 9, 10, 44, 93, 94, 100, 127),
    3: (1, 255, 256, 4001, 32768, 65535),
    4: (1, 1 << 31, 2**32 - 1),
    5: (1, 1 << 63, 2**64 - 1),
}
HEADER = 24   # es_encode: magic, game tag, players, size, data fingerprint


def payload(s) -> bytes:
    """The raw state blob inside ``s.to_bytes()``."""
    b = s.to_bytes()
    return b[HEADER:-8]


def elements(g):
    """(field name, element offset, es_field_type) of every element of every reflected field."""
    for name, offset, ftype, dim0, dim1, _kind, _names in g.state_fields():
        width = CODES[ftype][1]
        for i in range(dim0 * (dim1 or 1)):
            yield name, offset + i * width, ftype


def uncovered(g) -> list[int]:
    """State bytes outside every reflected field."""
    covered = bytearray(g.state_size)
    for _, offset, ftype in elements(g):
        covered[offset:offset + CODES[ftype][1]] = b"\x01" * CODES[ftype][1]
    return [i for i, c in enumerate(covered) if not c]


_DERIVED: dict[tuple[str, int], set[int]] = {}


def derived(g) -> set[int]:
    """State bytes of derived fields (ES_K_DERIVED: caches the engine rebuilds from the rest)."""
    key = (g.name, g.players)
    if key in _DERIVED:
        return _DERIVED[key]
    out = _DERIVED[key] = set()
    for _, offset, ftype, dim0, dim1, kind, _names in g.state_fields():
        if kind == statejson.K_DERIVED:
            out.update(range(offset, offset + CODES[ftype][1] * dim0 * (dim1 or 1)))
    return out


def load_or_reject(g, raw: bytes) -> None:
    """A raw blob either raises StateFormatError or is a state with one byte form that
    survives both codecs. Derived bytes are rebuilt on this path (as for a JSON document), so
    a blob whose caches were edited loads as the state its other fields describe, and the
    byte codec, which takes the caches as they are, refuses it."""
    try:
        t = g._from_raw(raw)
    except es.StateFormatError:
        return
    cache = derived(g)
    got = payload(t)
    assert [b for i, b in enumerate(got) if i not in cache] == [b for i, b in enumerate(raw) if i not in cache]
    if got != raw:
        with pytest.raises(es.StateFormatError, match="derived"):
            g.state_from_bytes(_reencode(t, raw))
    assert g.state_from_json(t.to_json()) == t
    assert g.state_from_bytes(t.to_bytes()) == t


# ----------------------------------------------------------------------------- item 1


#: every how many pooled states the exhaustive edits start from (the sanitizer run takes fewer)
EVERY = int(os.environ.get("ES_HARDEN_EVERY", 2))


def _sample(key, every: int = EVERY) -> list:
    return POOL[key][::every]


@pytest.mark.parametrize("key", sorted(GAMES), ids=lambda k: f"{k[0]}-{k[1]}")
def test_every_field_at_extreme_values_is_rejected_or_valid(key):
    """One field element of a real state set to an extreme value: the validator must not read
    out of bounds on the way to its verdict (checked by the sanitizer run)."""
    g = GAMES[key]
    places = list(elements(g))
    tried = 0
    for s in _sample(key):
        good = payload(s)
        for _, offset, ftype in places:
            code = "<" + CODES[ftype][0]
            current = struct.unpack_from(code, good, offset)[0]
            for value in EXTREMES[ftype]:
                if value == current:
                    continue
                raw = bytearray(good)
                struct.pack_into(code, raw, offset, value)
                load_or_reject(g, bytes(raw))
                tried += 1
    assert tried > 1000


# The audit's reproducers: one edited field of a real Oh My Goods! state's JSON (in the raw
# layout of format 1, to reach the C validator with values format 2 cannot even name).
@pytest.mark.parametrize("field, index, value", [
    ("charburner", 0, -128), ("charburner", 1, 127), ("charburner", 0, 4),
    ("slot_card", 0, 5), ("slot_card", 1, 100), ("n_slots", 0, 255), ("n_slots", 1, 11),
    ("worker_slot", 0, 9), ("asst_slot", 0, 9), ("aside", 0, 127), ("pend_aside", 1, -128),
])
def test_oh_my_goods_audit_edits_are_state_format_errors(field, index, value):
    for players in (2, 4):
        g = GAMES[("oh_my_goods", players)]
        for s in _sample(("oh_my_goods", players), every=3):
            doc = json.loads(s.to_json(format=1))
            row = doc["state"][field]
            if isinstance(row[index], list):
                row[index][min(len(row[index]) - 1, 3)] = value
            else:
                row[index] = value
            with pytest.raises(es.StateFormatError):
                g.state_from_json(json.dumps(doc))


# ----------------------------------------------------------------------------- item 2


def test_padding_is_where_expected():
    """The bytes no field covers: tail padding of the Oh My Goods! and Coal Baron structs."""
    assert uncovered(GAMES[("vienna", 3)]) == []
    assert uncovered(GAMES[("oh_my_goods", 2)]) == [635, 636, 637, 638, 639]
    assert uncovered(GAMES[("coal_baron", 2)]) == [1238, 1239]


def _mix64(z: int) -> int:
    m = 2**64 - 1
    z = ((z ^ (z >> 33)) * 0xFF51AFD7ED558CCD) & m
    z = ((z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53) & m
    return z ^ (z >> 33)


def _checksum(data: bytes) -> int:
    """csrc/core/hash.h es_hash_bytes with es_encode's seed: an independent oracle, so that
    the test can forge bytes whose only fault is the one under test."""
    m, golden = 2**64 - 1, 0x9E3779B97F4A7C15
    h = 0xC0FFEE ^ ((golden * (len(data) + 1)) & m)
    i = 0
    while i + 8 <= len(data):
        w = int.from_bytes(data[i:i + 8], "little")
        x = h ^ _mix64((w + i) & m)
        h = (((x << 27) | (x >> 37)) & m) * golden & m
        i += 8
    tail = int.from_bytes(data[i:], "little")
    return _mix64(h ^ _mix64(tail ^ 0xA5A5A5A5))


def _reencode(s, raw: bytes) -> bytes:
    body = s.to_bytes()[:HEADER] + raw
    return body + _checksum(body).to_bytes(8, "little")


def test_checksum_oracle_matches_the_core():
    for s in POOL[("vienna", 3)][:3]:
        assert _reencode(s, payload(s)) == s.to_bytes()


@pytest.mark.parametrize("key", sorted(GAMES), ids=lambda k: f"{k[0]}-{k[1]}")
def test_bytes_outside_the_fields_are_rejected(key):
    g = GAMES[key]
    gaps = uncovered(g)
    for s in _sample(key, every=2 * EVERY):
        good = payload(s)
        for i in gaps:
            for value in (1, 0x80, 0xFF):
                raw = bytearray(good)
                raw[i] = value
                with pytest.raises(es.StateFormatError, match=f"byte {i} "):
                    g._from_raw(bytes(raw))
                with pytest.raises(es.StateFormatError, match=f"byte {i} "):
                    g.state_from_bytes(_reencode(s, bytes(raw)))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(key=st.sampled_from(sorted(GAMES)), data=st.data())
def test_an_accepted_state_has_one_byte_form(key, data):
    """Any byte of a real state's blob changed (padding included): what loads survives the JSON
    round trip byte for byte, so the JSON form names every byte that matters."""
    g = GAMES[key]
    s = data.draw(st.sampled_from(POOL[key]))
    raw = bytearray(payload(s))
    gaps = uncovered(g)
    anywhere = st.integers(0, len(raw) - 1)
    where = data.draw(st.sampled_from(gaps) | anywhere if gaps else anywhere)
    raw[where] = data.draw(st.integers(0, 255))
    load_or_reject(g, bytes(raw))
