"""Multiple-observer information-set MCTS (`moismcts`, es_mcts_config.information_sets == 2,
csrc/core/mcts_mo.c): one tree per player, each keyed by what its player sees.

What must hold: where every player sees every move the trees are copies of the single
observer's tree (the same search, to the last visit); where moves are hidden the search
differs but still never depends on what the searcher cannot see; the node bound is shared by
the trees; threads never change an iteration-budgeted search; specs and bad arguments."""
from __future__ import annotations

import pytest

import eurosearch as es
from eurosearch import agents

from positions import midgame

HIDDEN = ["oh_my_goods", "bruges", "wolsung", "coal_baron"]
#: options under which some moves are hidden from other players (Wolsung's by default are not:
#: only its task cards are secret, dealt before the first decision)
HIDDEN_MOVES = {"wolsung": {"hidden_placement": True}}


def _midgame(game: str, players: int, seed: int, steps: int = 30) -> es.State:
    return midgame(es.game(game, players=players, options=HIDDEN_MOVES.get(game)), seed, steps)


@pytest.mark.parametrize("game, players", [("vienna", 3), ("vienna", 5), ("backgammon", 2)])
def test_where_every_move_is_seen_by_all_the_trees_are_copies_of_the_single_observers(game, players):
    for seed in (1, 2, 3):
        s = _midgame(game, players, seed)
        p = s.current_player
        single = s.mcts(p, iterations=700, seed=seed, rollout_depth=6, information_sets=True)
        multi = s.mcts(p, iterations=700, seed=seed, rollout_depth=6, information_sets=True, multi_observer=True)
        assert single[:3] == multi[:3]
        assert multi[3]["nodes"] == players * single[3]["nodes"]   # one copy per player


@pytest.mark.parametrize("game", HIDDEN)
def test_where_moves_are_hidden_the_opponents_choose_by_their_own_trees(game):
    """The opponents' trees tell apart what the searcher's cannot, so the searches differ
    (at some of several positions) and the trees together hold more distinct edges."""
    differ = 0
    for seed in range(1, 7):
        s = _midgame(game, 2, seed)
        p = s.current_player
        single = s.mcts(p, iterations=600, seed=seed, rollout_depth=10, information_sets=True)
        multi = s.mcts(p, iterations=600, seed=seed, rollout_depth=10, information_sets=True, multi_observer=True)
        assert sum(multi[1]) == sum(single[1]) == 600
        assert set(multi[0]) <= set(s.legal_moves())
        differ += single[:2] != multi[:2]
    assert differ >= 3


@pytest.mark.parametrize("game", HIDDEN)
def test_the_search_never_depends_on_what_the_searcher_cannot_see(game):
    changed = 0
    for seed in range(1, 9):
        s = _midgame(game, 2, seed)
        p = s.current_player
        other = s.determinize(p, 4242 + seed)
        changed += other != s
        a = s.mcts(p, iterations=300, seed=7, rollout_depth=8, information_sets=True, multi_observer=True)
        b = other.mcts(p, iterations=300, seed=7, rollout_depth=8, information_sets=True, multi_observer=True)
        assert a[:3] == b[:3]
    assert changed >= 3, "the test needs worlds that really differ"


@pytest.mark.parametrize("players", [2, 4])
def test_the_trees_share_the_node_bound(players):
    s = _midgame("oh_my_goods", players, 5)
    moves, visits, _, stats = s.mcts(s.current_player, iterations=3000, seed=1, rollout_depth=4, max_nodes=400,
                                     information_sets=True, multi_observer=True)
    assert stats["iterations"] == 3000 and sum(visits) == 3000
    assert players * 2 <= stats["nodes"] <= 400
    assert stats["bytes"] > 0


def test_threads_never_change_an_iteration_budgeted_search():
    s = _midgame("bruges", 2, 3)
    runs = [s.mcts(s.current_player, iterations=301, seed=9, worlds=4, threads=t, rollout_depth=4,
                   information_sets=True, multi_observer=True)[:3] for t in (1, 2, 4)]
    assert runs[0] == runs[1] == runs[2]


def test_the_agent_spec_and_its_refusals():
    a = agents.make("moismcts:iterations=50:seed=3")
    assert a.information_sets and a.multi_observer and repr(a) == "<moismcts:iterations=50:seed=3 agent>"
    s = _midgame("oh_my_goods", 2, 4)
    assert a.choose(s.clone(), s.current_player) in s.legal_moves()
    with pytest.raises(ValueError, match="multi_observer needs information_sets"):
        agents.MCTSAgent(iterations=10, multi_observer=True)
    with pytest.raises(ValueError, match="multi_observer needs information_sets"):
        s.mcts(s.current_player, iterations=10, multi_observer=True)
