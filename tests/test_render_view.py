"""str(state) is the omniscient view (labelled as such where cards are hidden);
state.to_text(viewer=p) shows player p only what p may see."""

from __future__ import annotations

import random

import pytest

import eurosearch as es

GAMES = [("vienna", 3), ("bruges", 3), ("oh_my_goods", 2), ("oh_my_goods", 4), ("coal_baron", 2), ("coal_baron", 4)]
OMNISCIENT = "omniscient view"


def played_states(name: str, players: int, seed: int, every: int = 5, limit: int = 400):
    """Every `every`-th state of a seeded random game (chance nodes included)."""
    rng = random.Random(seed)
    s = es.game(name, players=players).new_state(seed=seed)
    for step in range(limit):
        if s.is_terminal():
            break
        if step % every == 0:
            yield s.clone()
        s.apply(s.sample_chance(rng.getrandbits(63)) if s.is_chance() else rng.choice(s.legal_moves()))


def body(text: str) -> str:
    """The board without its label line (the omniscient label or the viewer line)."""
    first, rest = text.split("\n", 1)
    return rest if first.startswith((OMNISCIENT, "view of player")) else text


@pytest.mark.parametrize("name,players", GAMES)
def test_a_view_does_not_change_when_the_hidden_cards_do(name, players):
    """Resampling everything p has not seen leaves p's text unchanged: it names no hidden card."""
    hidden_changed = differs = 0
    for s in played_states(name, players, seed=11):
        for p in range(players):
            view = s.to_text(viewer=p)
            assert view.startswith(f"view of player {p}\n") and OMNISCIENT not in view
            for k in range(3):
                other = s.determinize(p, 1000 * k + p)
                assert other.to_text(viewer=p) == view, (p, str(s), str(other))
                hidden_changed += str(other) != str(s)
            differs += body(view) != body(str(s))
    if name == "vienna":                # no hidden information: the views are the whole board
        assert hidden_changed == 0 and differs == 0
    else:                               # the check above was not vacuous, and views hide something
        assert hidden_changed > 0 and differs > 0


@pytest.mark.parametrize("name,players", GAMES)
def test_str_is_labelled_as_the_omniscient_view_in_games_with_hidden_cards(name, players):
    s = es.game(name, players=players).new_state(seed=2)
    assert str(s) == s.to_text()
    assert str(s).startswith(OMNISCIENT) == (name != "vienna")


def test_an_opponents_hand_is_shown_as_a_count():
    g = es.game("oh_my_goods", players=2)
    s = g.new_state(seed=3)
    rng = random.Random(1)
    while "hand 0:" in str(s) or s.is_chance():
        s.apply(s.sample_chance(rng.getrandbits(63)) if s.is_chance() else rng.choice(s.legal_moves()))
    full = str(s).splitlines()
    p1_row = next(line for line in full if line.startswith("P1"))
    hand = p1_row.split(":", 1)[1].split()
    view = s.to_text(viewer=0)
    assert f"{p1_row.split(':', 1)[0]}: +{len(hand)} hidden" in view
    assert not any(card in view.split() for card in hand)


def test_a_bad_viewer_is_a_value_error():
    s = es.game("oh_my_goods", players=2).new_state(seed=1)
    with pytest.raises(ValueError):
        s.to_text(viewer=2)
