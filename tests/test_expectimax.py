"""The native expectimax (csrc/core/expectimax.c) against plain expectimax over the Python API.

Positions are late-game decision nodes of seeded random games, small enough for the Python
reference. The native search prunes (alpha-beta, Star1/Star2) and uses a transposition
table, the reference does neither: the values of every move must still agree to 1e-9.
"""

from __future__ import annotations

import random

import pytest

import eurosearch as es
from eurosearch import agents
from eurosearch.reference import expectimax as reference
from eurosearch.solve.positions import decision_path

NODE_LIMIT = 6000      # positions whose native search needs more are too big for the reference
REFERENCE_LIMIT = 4000  # nor those where the reference (no table, no pruning) would visit more


def small_enough(state) -> bool:
    try:
        reference.move_values(state, "win", max_nodes=REFERENCE_LIMIT)
    except reference.TooLarge:
        return False
    return True


def late_positions(game: str, players: int, seed: int, from_end: int, count: int, for_reference: bool = True):
    """Decision nodes `from_end` decisions before the end of random games (the game's own path)."""
    g = es.game(game, players=players)
    rng = random.Random(seed)
    found, tries = [], 0
    while len(found) < count and tries < 40 * count:
        tries += 1
        path = decision_path(g, rng)
        if len(path) < from_end:
            continue
        candidate = path[-from_end]
        _, _, info = candidate.expectimax(max_nodes=NODE_LIMIT)
        if info["complete"] and len(candidate.legal_moves()) > 1 and (not for_reference or small_enough(candidate)):
            found.append(candidate)
    assert found, f"no small enough {game} positions {from_end} decisions from the end"
    return found


CASES = [("vienna", 3), ("oh_my_goods", 2), ("oh_my_goods", 3), ("coal_baron", 2), ("coal_baron", 3)]


@pytest.mark.parametrize("objective", ["win", "score"])
@pytest.mark.parametrize("game,players", CASES)
def test_exact_values_agree_with_plain_expectimax(game, players, objective):
    for from_end in (1, 2, 3):
        for s in late_positions(game, players, seed=11 + from_end, from_end=from_end, count=2):
            moves, values, info = s.expectimax(objective=objective)
            assert info["complete"] and info["exact"] and info["depth"] == 0
            expected = reference.move_values(s, objective)
            assert sorted(moves) == sorted(expected)
            for m, v in zip(moves, values):
                assert v == pytest.approx(expected[m], abs=1e-9), (s.move_to_str(m), from_end)
            assert values[moves.index(info["best"])] == pytest.approx(max(values), abs=1e-12)


@pytest.mark.parametrize("game,players", [("vienna", 3), ("oh_my_goods", 2), ("coal_baron", 2)])
def test_depth_limited_values_use_the_evaluation_at_the_horizon(game, players):
    for s in late_positions(game, players, seed=5, from_end=4, count=2):
        for depth in (1, 2):
            moves, values, info = s.expectimax(depth=depth)
            expected = reference.move_values(s, "win", depth=depth)
            assert info["complete"] and info["depth"] == depth
            for m, v in zip(moves, values):
                assert v == pytest.approx(expected[m], abs=1e-9)


def test_paranoid_values_agree_with_plain_paranoid_search():
    for s in late_positions("vienna", 3, seed=8, from_end=2, count=3):
        moves, values, _ = s.expectimax(paranoid=True)
        expected = reference.move_values(s, "win", paranoid=True)
        for m, v in zip(moves, values):
            assert v == pytest.approx(expected[m], abs=1e-9)


@pytest.mark.parametrize("objective", ["win", "score"])
@pytest.mark.parametrize("game,players", [("oh_my_goods", 2), ("coal_baron", 2), ("vienna", 3)])
def test_pruning_changes_the_node_count_but_never_a_value(game, players, objective):
    for s in late_positions(game, players, seed=21, from_end=3, count=3):
        m1, v1, pruned = s.expectimax(pruning=True, objective=objective)
        m2, v2, full = s.expectimax(pruning=False, objective=objective)
        assert pruned["complete"] and full["complete"]
        assert m1 == m2 and v1 == pytest.approx(v2, abs=1e-9)


def test_star1_cuts_chance_nodes_in_two_player_endgames():
    pruned = full = 0
    for s in late_positions("oh_my_goods", 2, seed=21, from_end=6, count=4, for_reference=False):
        pruned += s.expectimax(pruning=True, objective="score")[2]["nodes"]
        full += s.expectimax(pruning=False, objective="score")[2]["nodes"]
    assert pruned < full, "Star1 never cut a chance node"


def test_root_cutoffs_keep_the_best_move_and_its_value():
    for s in late_positions("oh_my_goods", 2, seed=3, from_end=3, count=3):
        moves, values, full = s.expectimax(all_values=True)
        _, _, cut = s.expectimax(all_values=False)
        best = max(values)
        assert values[moves.index(cut["best"])] == pytest.approx(best, abs=1e-12)


def test_iterative_deepening_ends_exact_and_limits_end_incomplete():
    s = late_positions("oh_my_goods", 2, seed=4, from_end=3, count=1)[0]
    moves, values, info = s.expectimax(iterative=True)
    assert info["complete"] and info["exact"]
    assert values == pytest.approx(s.expectimax()[1], abs=1e-12)
    start = es.game("vienna", players=3).new_state(seed=1)
    _, _, info = start.expectimax(max_nodes=500)                # far too small to solve
    assert not info["complete"] and info["best"] is None and info["nodes"] <= 600
    _, _, info = start.expectimax(iterative=True, max_nodes=2000)  # some shallow iteration finishes
    assert info["complete"] and not info["exact"] and info["best"] in start.legal_moves()


def test_bad_arguments_are_value_errors():
    s = es.game("oh_my_goods", players=2).new_state(seed=1)
    with pytest.raises(ValueError, match="objective"):
        s.expectimax(objective="draws")
    with pytest.raises(ValueError, match="depth"):
        s.expectimax(depth=-1)
    g = es.game("vienna", players=3)
    chance = g.new_state()
    assert chance.is_chance()
    with pytest.raises(ValueError, match="decision node"):
        chance.expectimax()


def test_expectimax_agent_spec_choices_and_budget():
    a = agents.make("expectimax:nodes=3000:seed=2")
    assert isinstance(a, agents.ExpectimaxAgent) and a.nodes == 3000
    with pytest.raises(ValueError, match="objective"):
        agents.make("expectimax:objective=draws")
    with pytest.raises(ValueError, match="budget"):
        agents.make("expectimax:nodes=0")
    for game, players in CASES:
        s = es.game(game, players=players).new_state(seed=9)
        while s.is_chance():
            s.apply(s.sample_chance(1))
        p = s.current_player
        first = agents.make("expectimax:nodes=3000:seed=2").choose(s, p)
        assert first in s.legal_moves()
        assert agents.make("expectimax:nodes=3000:seed=2").choose(s, p) == first


def test_expectimax_agent_plays_the_solved_best_move_near_the_end():
    a = agents.make("expectimax:nodes=200000:seed=1")
    for s in late_positions("vienna", 3, seed=30, from_end=2, count=3):
        moves, values, _ = s.expectimax()
        best = max(values)
        chosen = a.choose(s, s.current_player)      # Vienna has no hidden information
        assert values[moves.index(chosen)] == pytest.approx(best, abs=1e-12)


def _position_with_a_nudge(seed: int):
    """A Vienna decision node, some turns into a game, where the mover may nudge a die."""
    rng = random.Random(seed)
    s = es.game("vienna", players=3).new_state(seed=seed)
    decisions = 0
    while True:
        while s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(63)))
        nudges = [m for m in s.legal_moves() if s.move_to_str(m).startswith("nudge")]
        if nudges and decisions >= 10:
            return s, nudges[0]
        s.apply(s.heuristic_move(rng.getrandbits(63)))
        decisions += 1


def _rest_of_turn(state, mover: int) -> float:
    """The mover's value when its turn ends: the best of its further decisions, then the
    evaluation (a chance node or another player's decision ends the turn)."""
    if state.is_terminal() or state.is_chance() or state.current_player != mover:
        return reference.leaf_values(state, "win")[mover]
    best = -1.0
    for m in state.legal_moves():
        child = state.clone()
        child.apply(m)
        best = max(best, _rest_of_turn(child, mover))
    return best


@pytest.mark.parametrize("paranoid", [False, True])
def test_depth_counts_turns_not_decisions(paranoid):
    """A nudge keeps the mover's turn, so at depth 1 it is worth the best placement after it
    (the whole turn, evaluated when the turn ends), not the evaluation in the middle of the
    turn, which would see a coin spent for nothing."""
    for seed in (1, 2, 3):
        s, nudge = _position_with_a_nudge(seed)
        mover = s.current_player
        moves, values, info = s.expectimax(depth=1, paranoid=paranoid)
        assert info["complete"] and info["depth"] == 1
        after = s.clone()
        after.apply(nudge)
        assert after.current_player == mover
        assert values[moves.index(nudge)] == pytest.approx(_rest_of_turn(after, mover), abs=1e-12)
        assert _rest_of_turn(after, mover) != pytest.approx(reference.leaf_values(after, "win")[mover], abs=1e-6)
