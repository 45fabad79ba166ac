"""apply() checks every move, and in the usual Python loop it reuses what the loop just made:
the list of legal_moves() of this very state, or the outcome sample_chance() just drew
here. These tests make sure the reuse never lets an illegal move through: after a change of
the state, after another state's list, after a different outcome."""
from __future__ import annotations

import random

import pytest

import eurosearch as es
from eurosearch.errors import IllegalMoveError


def _states(name: str, seed: int = 1, n: int = 400) -> list[es.State]:
    """Decision and chance states along a random game (copies)."""
    g = es.game(name, players=es.game_spec(name).min_players)
    s, rng, out = g.new_state(seed=seed), random.Random(seed), []
    while not s.is_terminal() and len(out) < n:
        out.append(s.clone())
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(32)))
        else:
            moves = s.legal_moves()
            s.apply(moves[rng.randrange(len(moves))])
    return out


def _foreign_move(states: list[es.State], a: es.State) -> tuple[es.State, int] | None:
    """A decision state b and a move legal in b but not in a."""
    mine = set(a.legal_moves())
    for b in states:
        if not b.is_chance() and not b.is_terminal():
            extra = [m for m in b.legal_moves() if m not in mine]
            if extra:
                return b, extra[0]
    return None


@pytest.mark.parametrize("name", es.games())
def test_a_listed_move_is_refused_once_the_state_has_changed(name):
    checked = 0
    for s in _states(name):
        if s.is_chance() or s.is_terminal():
            continue
        before = s.legal_moves()
        s.apply(before[0])
        while s.is_chance():
            s.apply(s.sample_chance(7))
        if s.is_terminal():
            continue
        stale = [m for m in before if m not in set(s.legal_moves())]
        if stale:
            s.legal_moves()
            snapshot = s.to_bytes()
            with pytest.raises(IllegalMoveError):
                s.apply(stale[0])
            assert s.to_bytes() == snapshot
            checked += 1
    assert checked > 5


@pytest.mark.parametrize("name", es.games())
def test_another_states_list_never_vouches_for_a_move(name):
    states = _states(name)
    checked = 0
    for a in states[::7]:
        if a.is_chance() or a.is_terminal():
            continue
        found = _foreign_move(states, a)
        if not found:
            continue
        b, move = found
        a.legal_moves()
        b.legal_moves()          # the shared buffer now holds b's list
        with pytest.raises(IllegalMoveError):
            a.apply(move)
        b.apply(move)            # legal there
        checked += 1
    assert checked > 3


@pytest.mark.parametrize("name", es.games())
def test_a_sampled_outcome_vouches_only_for_itself_and_only_here(name):
    checked = 0
    for s in _states(name):
        if not s.is_chance():
            continue
        outcomes = {o for o, _ in s.chance_outcomes()}
        drawn = s.sample_chance(3)
        other = next(o for o in range(min(outcomes), max(outcomes) + 2) if o not in outcomes)
        with pytest.raises(IllegalMoveError):
            s.apply(other)
        c = s.clone()
        c.apply(drawn)            # the clone did not draw it, so this is a full check, and legal
        s.apply(drawn)
        assert s == c
        checked += 1
        if checked > 20:
            break
    assert checked > 0


@pytest.mark.parametrize("name", es.games())
def test_chance_outcomes_are_never_a_stale_copy(name):
    """chance_outcomes() hands back a copy of the previous answer when the distribution is the
    same (every roll of the same dice). Visited out of order, every chance node must still
    give exactly what a game that has seen no other chance node gives, and a caller changing
    the list it got must not change the next answer."""
    states = [s for s in _states(name, seed=5, n=1500) if s.is_chance()]
    assert len(states) >= 8
    order = list(range(len(states)))
    random.Random(6).shuffle(order)
    order = order[:60] + order[:60][::-1]         # repeats, in both directions
    g = states[0].game
    for i in order:
        got = states[i].chance_outcomes()
        fresh_game = es.game(name, players=g.players, options=g.options)
        expected = fresh_game.state_from_bytes(states[i].to_bytes()).chance_outcomes()
        assert got == expected
        got.clear()
        got.append((-1, 1.0))                      # a caller's own edits stay its own
    assert states[order[0]].chance_outcomes() == states[order[0]].chance_outcomes() != [(-1, 1.0)]
