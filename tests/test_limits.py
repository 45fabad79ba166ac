"""Absurd limits and ids are refused up front, with a ValueError naming the parameter.

A NaN time limit compares false against every clock (a search without end), an integer past
int64 used to fail as a bare OverflowError, a table or a score array larger than the machine
was only found out by the allocator, and the text of a move id that is not a move of the state
was whatever the game's printer made of it.
"""

from __future__ import annotations

import os

import pytest

import eurosearch as es

MEMORY = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


@pytest.fixture(scope="module")
def state():
    return es.game("vienna", players=3).new_state(seed=1)


BAD_SECONDS = [float("nan"), float("inf"), -1.0, -0.5]
BAD_COUNTS = [2 ** 70, 2 ** 63, -1]


@pytest.mark.parametrize("seconds", BAD_SECONDS)
def test_mcts_refuses_a_time_limit_that_is_not_finite_and_nonnegative(state, seconds):
    with pytest.raises(ValueError, match="seconds"):
        state.mcts(state.current_player, iterations=10, seconds=seconds)


@pytest.mark.parametrize("key", ["iterations", "max_nodes"])
@pytest.mark.parametrize("value", BAD_COUNTS)
def test_mcts_refuses_counts_outside_int64_naming_them(state, key, value):
    kwargs = {"iterations": 10, key: value}
    with pytest.raises(ValueError, match=key):
        state.mcts(state.current_player, **kwargs)


@pytest.mark.parametrize("kwargs, name", [
    ({"exploration": float("nan")}, "exploration"),
    ({"exploration": -1.0}, "exploration"),
    ({"eval_scale": float("inf")}, "eval_scale"),
    ({"rollout_policy": 2}, "rollout_policy"),
    ({"rollout_depth": -2}, "rollout_depth"),
    ({"rollout_depth": 2 ** 40}, "rollout_depth"),
])
def test_mcts_refuses_other_absurd_settings(state, kwargs, name):
    with pytest.raises(ValueError, match=name):
        state.mcts(state.current_player, iterations=10, **kwargs)


def test_mcts_player_must_be_a_seat(state):
    with pytest.raises(ValueError, match="player"):
        state.mcts(2 ** 70, iterations=10)
    with pytest.raises(ValueError, match="player"):
        state.mcts(7, iterations=10)


def test_mcts_accepts_numpy_integers_and_a_huge_node_bound(state):
    import numpy as np
    stats = state.mcts(state.current_player, iterations=np.int64(50), max_nodes=2 ** 40)[3]
    assert stats["iterations"] == 50


@pytest.mark.parametrize("seconds", BAD_SECONDS)
def test_expectimax_refuses_a_time_limit_that_is_not_finite_and_nonnegative(state, seconds):
    with pytest.raises(ValueError, match="seconds"):
        state.expectimax(depth=1, seconds=seconds)


@pytest.mark.parametrize("key", ["max_nodes", "table_bytes", "depth"])
@pytest.mark.parametrize("value", BAD_COUNTS)
def test_expectimax_refuses_counts_outside_their_range_naming_them(state, key, value):
    with pytest.raises(ValueError, match=key):
        state.expectimax(**{"depth": 1, key: value})


def test_expectimax_refuses_a_table_larger_than_the_machine(state):
    with pytest.raises(ValueError, match="table_bytes.*memory"):
        state.expectimax(depth=1, table_bytes=MEMORY + 1)
    _, _, info = state.expectimax(depth=1, table_bytes=1 << 20)   # a sane one still works
    assert info["complete"]


def test_solve_passes_bad_limits_on_as_value_errors(state):
    with pytest.raises(ValueError, match="seconds"):
        es.solve(state, seconds=float("nan"))


@pytest.mark.parametrize("n", [2 ** 40, 2 ** 70, -1])
def test_random_playouts_refuses_an_absurd_count_before_allocating(n):
    g = es.game("vienna", players=3)
    with pytest.raises(ValueError, match="n "):
        g.random_playouts(n)
    assert g.random_playouts(3).shape == (3, 3)


def _not_a_move(ids: set[int]) -> list[int]:
    return [m for m in (0, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 40, max(ids) + 1, max(ids) + 1000) if m not in ids]


@pytest.mark.parametrize("name, players", [("vienna", 3), ("oh_my_goods", 2), ("coal_baron", 2)])
def test_move_to_str_of_an_id_that_is_no_move_of_the_state_is_an_illegal_move_error(name, players):
    g = es.game(name, players=players)
    s = g.initial_state()
    k = 0
    seen_chance = seen_decision = False
    while not s.is_terminal() and not (seen_chance and seen_decision and k > 50):
        if s.is_chance():
            ids = {m for m, _ in s.chance_outcomes()}
            seen_chance = True
        else:
            ids = set(s.legal_moves())
            seen_decision = True
        for m in ids:
            assert s.move_to_str(m)                      # every real move has its text
        for bad in _not_a_move(ids):
            with pytest.raises(es.IllegalMoveError):
                s.move_to_str(bad)
        s.apply(s.sample_chance(k) if s.is_chance() else s.random_move(k))
        k += 1
    with pytest.raises(TypeError):
        s.move_to_str("1")


def test_move_to_str_at_the_end_of_the_game_is_an_illegal_move_error():
    g = es.game("vienna", players=3)
    s = g.new_state(seed=1)
    s.random_playout(1)
    assert s.is_terminal()
    with pytest.raises(es.IllegalMoveError, match="over"):
        s.move_to_str(1)
