"""es.solve: exact endgame values, open and information-set modes, limits and bad input."""

from __future__ import annotations

import inspect
import json
import random

import pytest
from test_expectimax import late_positions

import eurosearch as es
from eurosearch.reference import expectimax as reference


@pytest.mark.parametrize("objective", ["win", "score"])
@pytest.mark.parametrize("game,players", [("vienna", 3), ("oh_my_goods", 2), ("coal_baron", 2), ("coal_baron", 4)])
def test_open_values_agree_with_plain_expectimax(game, players, objective):
    for from_end in (1, 2, 3):
        for s in late_positions(game, players, seed=40 + from_end, from_end=from_end, count=2):
            r = es.solve(s, objective=objective)
            assert r.solved and r.mode == "open" and r.player == s.current_player
            expected = reference.move_values(s, objective)
            assert r.moves == s.legal_moves()
            for m, v in zip(r.moves, r.values):
                assert v == pytest.approx(expected[m], abs=1e-9)
            ranked = sorted(expected.values(), reverse=True)
            assert r.value == pytest.approx(ranked[0], abs=1e-9)
            assert r.margin == pytest.approx(ranked[0] - ranked[1], abs=1e-9)
            # the best move is the first best in legal order
            assert r.best == next(m for m in r.moves if expected[m] >= ranked[0] - 1e-9)


def test_info_mode_averages_the_open_values_over_determinizations():
    for s in late_positions("oh_my_goods", 2, seed=7, from_end=2, count=2):
        p = s.current_player
        r = es.solve(s, mode="info", samples=5, seed=3)
        assert r.solved and r.samples == 5 and r.move_samples == [5] * len(r.moves)
        rng = random.Random(3)
        dets = [s.determinize(p, rng.getrandbits(63)) for _ in range(5)]
        for m, v in zip(r.moves, r.values):
            assert v == pytest.approx(sum(reference.move_values(d, "win")[m] for d in dets) / 5, abs=1e-9)
        # the player's own view is all that matters: resampling the others' cards changes nothing
        other = s.determinize(p, 99)
        assert es.solve(other, mode="info", samples=5, seed=3).values == pytest.approx(r.values, abs=1e-12)


def test_a_game_without_hidden_information_has_equal_open_and_info_values():
    s = late_positions("vienna", 3, seed=2, from_end=2, count=1)[0]
    assert es.solve(s, mode="info", samples=3).values == pytest.approx(es.solve(s).values, abs=1e-12)


def test_limits_end_with_estimates_of_the_deepest_finished_search():
    start = es.game("vienna", players=3).new_state(seed=1)
    for r in (es.solve(start, max_nodes=2000), es.solve(start, seconds=0.05)):
        assert not r.solved and r.depth is not None and r.depth >= 1
        assert 0 < r.nodes and r.seconds < 5
        values = dict(zip(r.moves, r.values))         # a list even when not solved
        assert len(values) == len(r.moves) and all(isinstance(v, float) for v in r.values)
        assert r.best in r.moves and r.value == max(r.values)
        d = r.as_dict()
        json.dumps(d)
        assert d["solved"] is False and d["depth"] == r.depth and all(m["value"] is not None for m in d["moves"])
    # the estimates are the values of a search of that depth with the evaluation at the horizon
    r = es.solve(start, max_nodes=2000)
    moves, values, info = start.expectimax(depth=r.depth)
    assert moves == r.moves and values == pytest.approx(r.values, abs=1e-9)
    assert es.solve(start, max_nodes=2000, mode="info", samples=3).depth >= 1


def test_a_solved_result_has_depth_zero():
    s = late_positions("vienna", 3, seed=2, from_end=2, count=1)[0]
    r = es.solve(s)
    assert r.solved and r.depth == 0 and r.as_dict()["depth"] == 0


def test_solve_has_a_default_time_limit():
    assert inspect.signature(es.solve).parameters["seconds"].default > 0


@pytest.mark.parametrize("kwargs,name", [
    ({"seconds": float("nan")}, "seconds"), ({"seconds": -1}, "seconds"), ({"seconds": float("inf")}, "seconds"),
    ({"max_nodes": -1}, "max_nodes"), ({"max_nodes": 1.5}, "max_nodes"), ({"max_nodes": True}, "max_nodes"),
    ({"table_mb": 0}, "table_mb"), ({"table_mb": 1e-6}, "table_mb"), ({"table_mb": float("nan")}, "table_mb"),
    ({"table_mb": float("inf")}, "table_mb"), ({"table_mb": -64}, "table_mb"),
])
def test_absurd_limits_are_refused_naming_the_parameter(kwargs, name):
    s = es.game("vienna", players=3).new_state(seed=1)
    with pytest.raises(ValueError, match=name):
        es.solve(s, **kwargs)


def test_a_table_bigger_than_the_machine_is_refused_unless_asked_for():
    s = es.game("vienna", players=3).new_state(seed=1)
    with pytest.raises(ValueError, match="table_mb.*memory.*table_over_memory=True"):
        es.solve(s, table_mb=2**30)            # a petabyte


class _CountingState:
    """A state whose determinizations count how many of them are alive at once."""

    def __init__(self, state):
        self.state = state
        self.alive = self.most = self.made = 0

    def __getattr__(self, name):
        return getattr(self.state, name)

    def determinize(self, player, seed):
        outer = self

        class Det:
            def __init__(self, inner):
                self.inner = inner
                outer.alive += 1
                outer.made += 1
                outer.most = max(outer.most, outer.alive)

            def __del__(self):
                outer.alive -= 1

            def __getattr__(self, name):
                return getattr(self.inner, name)

        return Det(self.state.determinize(player, seed))


def test_info_mode_makes_each_determinization_when_it_is_searched():
    s = es.game("oh_my_goods", players=2).new_state(seed=1)
    counting = _CountingState(s)
    r = es.solve(counting, mode="info", samples=10**6, max_nodes=50_000)
    assert not r.solved and 1 <= counting.made < 100 and counting.most <= 2


def test_bad_input_is_a_value_error_naming_the_problem():
    g = es.game("vienna", players=3)
    chance = g.new_state()
    with pytest.raises(ValueError, match="chance node"):
        es.solve(chance)
    s = g.new_state(seed=1)
    with pytest.raises(ValueError, match="objective"):
        es.solve(s, objective="draw")
    with pytest.raises(ValueError, match="mode"):
        es.solve(s, mode="closed")
    with pytest.raises(ValueError, match="samples"):
        es.solve(s, mode="info", samples=0)
    end = s.clone()
    while not end.is_terminal():
        end.apply(end.sample_chance(1) if end.is_chance() else end.legal_moves()[0])
    with pytest.raises(ValueError, match="game is over"):
        es.solve(end)


def test_result_dict_names_moves_and_is_json_ready():
    s = late_positions("oh_my_goods", 2, seed=5, from_end=2, count=1)[0]
    d = es.solve(s, objective="score").as_dict()
    json.dumps(d)
    assert d["best_name"] == s.move_to_str(d["best"])
    assert [m["name"] for m in d["moves"]] == [s.move_to_str(m) for m in s.legal_moves()]
