"""Many worlds on many threads (es_mcts_ensemble, the `worlds` and `threads` of mcts/ismcts).

Root-parallel MCTS: k independent trees, each (in the open mode) on its own determinization
for the searcher, merged at the root. What must hold: the iteration budget is the total; the
result depends on the seed and the number of worlds but never on the thread count; the
search of a hidden-information game depends only on what the searcher sees; the budgets are
honoured; bad arguments are refused."""
from __future__ import annotations

import time

import pytest

import eurosearch as es
from eurosearch import agents

from positions import midgame


def _smallest(game: str) -> int:
    return es.game_spec(game).min_players


def _midgame(game: str, players: int | None, seed: int, steps: int = 25) -> es.State:
    return midgame(es.game(game, players=players or _smallest(game)), seed, steps)


@pytest.mark.parametrize("game, players", [(name, None) for name in es.games()])
@pytest.mark.parametrize("information_sets", [False, True])
def test_the_thread_count_never_changes_an_iteration_budgeted_search(game, players, information_sets):
    s = _midgame(game, players, seed=3)
    runs = [s.mcts(s.current_player, iterations=301, seed=9, worlds=5, threads=t, rollout_depth=4,
                   information_sets=information_sets)[:3] for t in (1, 2, 5)]
    assert runs[0] == runs[1] == runs[2]
    moves, visits, _ = runs[0]
    assert sorted(moves) == moves and len(set(moves)) == len(moves)   # merged: one entry per move
    assert set(moves) <= set(s.legal_moves()) or information_sets


@pytest.mark.parametrize("game", es.games())
def test_the_iteration_budget_is_the_total_over_the_worlds(game):
    s = _midgame(game, None, seed=4)
    moves, visits, values, stats = s.mcts(s.current_player, iterations=403, worlds=4, threads=2, seed=1,
                                          rollout_depth=2)
    assert stats["iterations"] == 403 and sum(visits) == 403
    assert all(0.0 <= v <= 1.0 for v in values)


def test_fewer_iterations_than_worlds_still_searches_them():
    s = _midgame("vienna", 3, seed=2)
    moves, visits, _, stats = s.mcts(s.current_player, iterations=3, worlds=8, threads=8, seed=1)
    assert sum(visits) == 3 == stats["iterations"]


def test_worlds_differ_from_one_world_and_merge_their_visits():
    """Each world is its own tree with its own seed: 4 worlds of 100 iterations are not one
    world of 400 (the merge adds the trees' root visits)."""
    s = _midgame("coal_baron", 2, seed=6)
    one = s.mcts(s.current_player, iterations=400, worlds=1, seed=3, rollout_depth=3)[:2]
    four = s.mcts(s.current_player, iterations=400, worlds=4, seed=3, rollout_depth=3)[:2]
    assert one != four and sum(one[1]) == sum(four[1]) == 400


@pytest.mark.parametrize("game", [g for g in es.games() if es.game(g, players=_smallest(g)).has_hidden_information])
def test_the_search_depends_only_on_what_the_searcher_sees(game):
    """Two states the searcher cannot tell apart (the real one and one of its
    determinizations) give the same search: no world is built from the true hidden cards."""
    s = _midgame(game, None, seed=8)
    p = s.current_player
    other = s.determinize(p, 12345)
    assert other.to_bytes() != s.to_bytes()
    a = s.mcts(p, iterations=200, worlds=4, threads=2, seed=5, rollout_depth=3)[:3]
    b = other.mcts(p, iterations=200, worlds=4, threads=2, seed=5, rollout_depth=3)[:3]
    assert a == b


def test_a_time_budget_is_honoured_by_the_agent():
    """seconds= covers the whole move, Python included, with or without threads."""
    s = _midgame("vienna", 3, seed=1)
    for spec in ("mcts:seconds=0.3", "mcts:seconds=0.3:worlds=4:threads=2", "ismcts:seconds=0.3:worlds=2",
                 "expectimax:seconds=0.3:nodes=0:worlds=3", "ai:seconds=0.3"):
        agent = agents.make(spec)
        start = time.monotonic()
        agent.choose(s, s.current_player)
        took = time.monotonic() - start
        assert 0.2 < took < 0.6, (spec, took)


def test_iterations_and_seconds_together_stop_at_whichever_comes_first():
    s = _midgame("vienna", 3, seed=1)
    few = agents.make("mcts:iterations=50:seconds=30:worlds=2")
    start = time.monotonic()
    few.choose(s, s.current_player)
    assert time.monotonic() - start < 5 and few.last_stats["iterations"] == 50
    short = agents.make("mcts:iterations=100000000:seconds=0.2")
    short.choose(s, s.current_player)
    assert short.last_stats["iterations"] < 100000000


def test_seconds_alone_is_a_time_budget_not_the_default_iteration_count():
    agent = agents.make("mcts:seconds=2")
    assert agent.seconds == 2 and agent.iterations == 0
    assert agents.make("mcts").iterations == 1000


@pytest.mark.parametrize("kwargs, message", [
    ({"worlds": 257}, "worlds"), ({"worlds": -1}, "worlds"), ({"threads": 0}, "threads"),
    ({"threads": 1000}, "threads"),
])
def test_bad_worlds_and_threads_are_refused(kwargs, message):
    s = _midgame("vienna", 3, seed=1)
    with pytest.raises(ValueError, match=message):
        s.mcts(s.current_player, iterations=10, **kwargs)


@pytest.mark.parametrize("spec, message", [
    ("mcts:worlds=0", "worlds"), ("mcts:worlds=300", "worlds"), ("mcts:threads=-1", "threads"),
    ("ismcts:threads=999", "threads"),
])
def test_bad_agent_specs_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        agents.make(spec)


def test_expectimax_over_worlds_plays_a_legal_move_from_what_it_sees():
    """expectimax:worlds=k averages k determinizations; like mcts it must not depend on the
    true hidden cards: the same move from two states the player cannot tell apart."""
    s = _midgame("oh_my_goods", 2, seed=8)
    p = s.current_player
    other = s.determinize(p, 99)
    a = agents.make("expectimax:depth=2:nodes=20000:worlds=3:seed=4")
    b = agents.make("expectimax:depth=2:nodes=20000:worlds=3:seed=4")
    move = a.choose(s, p)
    assert move in s.legal_moves() and move == b.choose(other, p)
    assert a.last_stats["worlds"] == 3


def test_expectimax_worlds_are_range_checked():
    with pytest.raises(ValueError, match="worlds"):
        agents.make("expectimax:worlds=0")


@pytest.mark.parametrize("game", es.games())
def test_the_default_ai_plays_every_game_with_its_own_configuration(game):
    s = _midgame(game, None, seed=2)
    ai = agents.make("ai:iterations=200:threads=2:seed=1")
    move = ai.choose(s, s.current_player)
    assert move in s.legal_moves()
    inner = ai.agent_for(game, s.game.players)
    assert inner.worlds == 2 and inner.threads == 2 and inner.iterations == 200
    assert ai.last_stats["iterations"] == 200
    # a fixed iteration budget is reproducible, whatever the thread count
    again = agents.make("ai:iterations=200:threads=2:seed=1").choose(s, s.current_player)
    assert again == move


def test_a_hint_from_the_default_ai_lists_searched_moves():
    from eurosearch.play.session import analyse
    s = _midgame("vienna", 3, seed=5)
    a = analyse(s, s.current_player, "ai:iterations=300:threads=2", seed=3, information_sets=True)
    assert a.top and sum(t["visits"] for t in a.top) <= 300 and a.move in s.legal_moves()


@pytest.mark.parametrize("worlds", [0, 3])
def test_max_nodes_bounds_the_trees_memory_and_the_search_reports_it(worlds):
    """A node is 64 bytes and the edge index at most 4 int32 slots per node, so a tree of at
    most max_nodes nodes stays within max_nodes x 80 bytes plus the first allocation
    (1024 nodes, 4096 slots); the stats report the bytes."""
    s = _midgame("vienna", 3, seed=3)
    small = s.mcts(s.current_player, iterations=20000, max_nodes=5000, worlds=worlds, threads=2, seed=1)[3]
    trees = max(worlds, 1)
    assert small["nodes"] <= 5000 * trees
    assert 0 < small["bytes"] <= trees * (5000 * 80 + 1024 * 64 + 4096 * 4)
    big = s.mcts(s.current_player, iterations=20000, worlds=worlds, threads=2, seed=1)[3]
    assert big["nodes"] > small["nodes"] and big["bytes"] > small["bytes"]
