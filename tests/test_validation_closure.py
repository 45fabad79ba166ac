"""The validator is closed under moves: every successor of a state it accepts is accepted too.

A state the validator accepts is one the engine promises to play. If one of its successors
(after any legal move or any chance outcome) is rejected, the validator let through a state
the game cannot reach, or apply built an invalid one. Starting points are the states of
seeded random games; they are edited three ways: a move half applied (some of the fields a
move changes take their new values, the rest keep the old ones), fields crossed over from
another state, and the JSON fuzz's edits (tests/test_fuzz.py). Every successor of an accepted
edit is re-validated through es_validate (its raw blob loaded again).

The half-applied moves are also swept exhaustively over a sample of states (deterministic);
a deeper random search: ES_FUZZ_EXAMPLES=3000 ES_FUZZ_RANDOM=1 python -m pytest
tests/test_validation_closure.py, and ES_CLOSURE_EVERY=1 sweeps every state.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eurosearch as es
from test_fuzz import GAMES, _edit, _pool, load_or_none

CLOSURE = settings(max_examples=int(os.environ.get("ES_FUZZ_EXAMPLES", 150)), deadline=None,
                   derandomize=not os.environ.get("ES_FUZZ_RANDOM"),
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
HEADER = 24   # es_encode's header before the raw state blob
#: every state of one seeded game per game and player count: each kind of node is there
POOL = {key: _pool(key, 2000 + key[1], every=1) for key in GAMES}
#: the exhaustive sweep starts from every this many states of the pool
SWEEP_EVERY = int(os.environ.get("ES_CLOSURE_EVERY", 7))


def successors(s):
    """(text, successor) for every legal move or every chance outcome of s."""
    moves = [m for m, _ in s.chance_outcomes()] if s.is_chance() else s.legal_moves()
    for m in moves:
        t = s.clone()
        t.apply(m)
        yield s.move_to_str(m), t


def assert_closed(g, s) -> None:
    """Every successor of s passes the validator (through the raw-blob path of es_validate)."""
    for text, t in successors(s):
        try:
            g._from_raw(t.to_bytes()[HEADER:-8])
        except es.StateFormatError as exc:
            raise AssertionError(f"{text!r} from an accepted state led to a rejected one: {exc}\n"
                                 f"state: {s.to_json()}") from None


def _numeric_edit(doc: dict, data) -> None:
    """One number nudged by a little: the edits most likely to pass the validator."""
    state = doc["state"]
    name = data.draw(st.sampled_from(sorted(state)))
    delta = data.draw(st.integers(-3, 3).filter(bool))
    holder, index = state, name
    while isinstance(holder[index], list) and holder[index]:
        holder, index = holder[index], data.draw(st.integers(0, len(holder[index]) - 1))
    if isinstance(holder[index], int):
        holder[index] += delta


def _crossover(doc: dict, other: dict, data) -> None:
    """Some fields taken from another state of the same game: every value is a real one, and
    fields that must agree (a card's place and the piles) often still do."""
    names = sorted(other["state"])
    for name in data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=6, unique=True)):
        doc["state"][name] = other["state"][name]


def _moves(s) -> list[int]:
    return [m for m, _ in s.chance_outcomes()] if s.is_chance() else s.legal_moves()


def half_applied(before: dict, after: dict, names, forward: bool) -> dict:
    """A move half applied, as a JSON document: the fields `names` from `after` over `before`
    (forward: a board updated under the old phase, say), or from `before` over `after`."""
    base, over = (before, after) if forward else (after, before)
    doc = json.loads(json.dumps(base))
    for name in names:
        doc["state"][name] = over["state"][name]
    return doc


def changed_fields(before: dict, after: dict) -> list[str]:
    return sorted(name for name in after["state"] if after["state"][name] != before["state"][name])


def _halfway(s, doc: dict, data) -> dict:
    """`doc` (the document of s) with one to three of the fields a few moves change half applied."""
    t = s.clone()
    for _ in range(data.draw(st.integers(1, 3))):
        if t.is_terminal():
            break
        t.apply(data.draw(st.sampled_from(_moves(t))))
    after = json.loads(t.to_json(format=1))
    changed = changed_fields(doc, after)
    if not changed:
        return doc
    names = data.draw(st.lists(st.sampled_from(changed), min_size=1, max_size=3, unique=True))
    return half_applied(doc, after, names, data.draw(st.booleans()))


def _check_game(game: str, data) -> None:
    key = data.draw(st.sampled_from([k for k in sorted(GAMES) if k[0] == game]))
    g = GAMES[key]
    s = data.draw(st.sampled_from(POOL[key]))
    doc = json.loads(s.to_json(format=1))
    for _ in range(data.draw(st.integers(0, 2))):
        kind = data.draw(st.sampled_from(["halfway", "numeric", "crossover", "any"]))
        if kind == "halfway":
            doc = _halfway(s, doc, data)
        elif kind == "numeric":
            _numeric_edit(doc, data)
        elif kind == "crossover":
            _crossover(doc, json.loads(data.draw(st.sampled_from(POOL[key])).to_json(format=1)), data)
        else:   # the JSON fuzz's edits (wrong types, removed fields...): always the last
            _edit(doc, data)
            break
    loaded = load_or_none(g, doc)
    if loaded is not None:
        assert_closed(g, loaded)


@pytest.mark.parametrize("game", sorted(es.games()))
def test_successors_of_reachable_states_validate(game):
    for key in sorted(GAMES):
        if key[0] == game:
            for s in POOL[key]:
                assert_closed(GAMES[key], s)


@pytest.mark.parametrize("key", sorted(GAMES), ids=lambda k: f"{k[0]}-{k[1]}")
def test_half_applied_moves_are_rejected_or_closed(key):
    """Every half-applied move (one or two of the changed fields, either way) of the first two
    moves of a sample of states: rejected, or every successor validates."""
    g = GAMES[key]
    loaded = 0
    for s in POOL[key][::SWEEP_EVERY]:
        before = json.loads(s.to_json(format=1))
        for m in _moves(s)[:2]:
            t = s.clone()
            t.apply(m)
            after = json.loads(t.to_json(format=1))
            changed = changed_fields(before, after)
            subsets = [[a] for a in changed] + [[a, b] for i, a in enumerate(changed) for b in changed[i + 1:]]
            for names in subsets:
                for forward in (True, False):
                    try:
                        hybrid = g.state_from_json(json.dumps(half_applied(before, after, names, forward)))
                    except es.StateFormatError:
                        continue
                    loaded += 1
                    assert_closed(g, hybrid)
    assert loaded > 0


@CLOSURE
@given(data=st.data())
def test_vienna_validation_is_closed_under_moves(data):
    _check_game("vienna", data)


@CLOSURE
@given(data=st.data())
def test_oh_my_goods_validation_is_closed_under_moves(data):
    _check_game("oh_my_goods", data)


@CLOSURE
@given(data=st.data())
def test_coal_baron_validation_is_closed_under_moves(data):
    _check_game("coal_baron", data)


def test_a_reveal_into_a_full_display_is_rejected():
    """The audit's case: a Vienna board whose display is full, put at the reveal that a move
    from it leads to (phase and actor of the next state). Its reveal would overfill the display."""
    tried = 0
    for key in sorted(GAMES):
        if key[0] != "vienna":
            continue
        g = GAMES[key]
        for s in POOL[key]:
            before = json.loads(s.to_json(format=1))
            if s.is_terminal() or bin(before["state"]["display"]).count("1") != key[1] - 1:
                continue
            for m in _moves(s):
                t = s.clone()
                t.apply(m)
                after = json.loads(t.to_json(format=1))
                if after["state"]["phase"] == 3:   # VI_PH_REVEAL
                    tried += 1
                    with pytest.raises(es.StateFormatError):
                        g.state_from_json(json.dumps(half_applied(before, after, ["phase", "actor"], True)))
    assert tried > 0
