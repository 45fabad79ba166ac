"""Agents: spec strings, legal and reproducible choices, no peeking at hidden cards, strength."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import eurosearch as es
from eurosearch import agents
from eurosearch.match import run_match


def test_specs_build_agents_and_bad_specs_list_the_valid_ones():
    a = agents.make("mcts:iterations=50:c=0.7:seed=3")
    assert isinstance(a, agents.MCTSAgent) and a.iterations == 50 and a.c == 0.7
    assert agents.make("ismcts:seconds=0.01").information_sets
    with pytest.raises(ValueError, match="valid agents: ai, expectimax, heuristic, ismcts, mcts, moismcts, random"):
        agents.make("alphazero")
    with pytest.raises(ValueError, match="valid keys: c, depth, eval, iterations, max_nodes, rollout, scale, seconds, seed, threads, widening, worlds"):
        agents.make("mcts:width=3")
    with pytest.raises(ValueError, match="rollout must be random, greedy or the share"):
        agents.make("mcts:rollout=smart")
    with pytest.raises(ValueError, match="iterations > 0 or seconds > 0"):
        agents.make("mcts:iterations=0")


def test_agents_are_reachable_from_the_package_without_importing_them_first():
    code = "import eurosearch as es; print(repr(es.agents.make('mcts:iterations=1000')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "<mcts:iterations=1000 agent>"


@pytest.mark.parametrize("spec", ["random", "heuristic:seed=2", "ismcts:seconds=0.5", "expectimax:depth=3:nodes=5000"])
def test_an_agent_shows_its_spec(spec):
    assert repr(agents.make(spec)) == f"<{spec} agent>"


@pytest.mark.parametrize("spec,name", [
    ("mcts:seconds=nan", "mcts seconds"), ("mcts:seconds=-1", "mcts seconds"), ("mcts:seconds=inf", "mcts seconds"),
    ("mcts:iterations=-5:seconds=1", "mcts iterations"), ("ismcts:seconds=-0.5", "mcts seconds"),
    ("mcts:max_nodes=-1", "mcts max_nodes"),
    ("expectimax:seconds=nan", "expectimax seconds"), ("expectimax:seconds=-2", "expectimax seconds"),
    ("expectimax:nodes=-1:depth=2", "expectimax nodes"), ("expectimax:table_mb=0", "expectimax table_mb"),
    ("expectimax:table_mb=-3", "expectimax table_mb"), ("expectimax:table_mb=1000000000", "expectimax table_mb"),
])
def test_absurd_agent_limits_are_refused_naming_the_parameter(spec, name):
    with pytest.raises(ValueError, match=name):
        agents.make(spec)


def decision_states(game: str, players: int, seed: int, count: int):
    """States at decision nodes along a seeded random game."""
    g = es.game(game, players=players)
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    out = []
    while not s.is_terminal() and len(out) < count:
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(64)))
            continue
        if len(s.legal_moves()) > 1 and rng.random() < 0.3:
            out.append(s.clone())
        s.apply(rng.choice(s.legal_moves()))
    return out


@pytest.mark.parametrize("spec", ["mcts:iterations=60", "ismcts:iterations=60", "moismcts:iterations=60",
                                  "mcts:iterations=30:depth=0",
                                  "mcts:iterations=30:depth=-1", "mcts:iterations=20:rollout=greedy",
                                  "ismcts:iterations=20:rollout=0.5", "random",
                                  "heuristic"])
@pytest.mark.parametrize("game,players", [("vienna", 3), ("oh_my_goods", 3), ("coal_baron", 3)])
def test_choices_are_legal_and_reproducible(spec, game, players):
    for s in decision_states(game, players, seed=4, count=5):
        p = s.current_player
        first = agents.make(spec, seed=11).choose(s.clone(), p)
        assert first in s.legal_moves()
        assert agents.make(spec, seed=11).choose(s.clone(), p) == first


@pytest.mark.parametrize("spec", ["mcts:iterations=80", "ismcts:iterations=80", "moismcts:iterations=80",
                                  "expectimax:nodes=2000",
                                  "random", "heuristic"])
def test_choices_do_not_depend_on_hidden_cards(spec):
    """Issue 5: resampling what the player cannot see (consistently with what it saw) leaves
    the choice of a seeded agent unchanged."""
    changed_worlds = 0
    for s in decision_states("oh_my_goods", 3, seed=9, count=8):
        p = s.current_player
        other = s.determinize(p, 424242)
        changed_worlds += other != s
        assert agents.make(spec, seed=5).choose(s, p) == agents.make(spec, seed=5).choose(other, p)
    assert changed_worlds >= 6, "the test needs worlds that really differ"


@pytest.mark.parametrize("game,specs", [
    ("vienna", ["mcts:iterations=120", "random", "random"]),
    ("oh_my_goods", ["ismcts:iterations=120", "random"]),
    ("coal_baron", ["mcts:iterations=120", "random"]),
])
def test_mcts_beats_random(game, specs):
    result = run_match(game, specs, games=4, seed=2, progress=False)
    assert result.seats[0].wins >= 3, result.as_dict()


@pytest.mark.parametrize("game,players", [("vienna", 3), ("oh_my_goods", 2), ("coal_baron", 2)])
def test_heuristic_beats_random(game, players):
    result = run_match(game, ["heuristic"] + ["random"] * (players - 1), games=6, seed=3, progress=False)
    assert result.seats[0].wins >= 5, result.as_dict()


def test_mcts_search_reports_its_statistics():
    g = es.game("vienna", players=3)
    s = g.new_state(seed=1)
    moves, visits, values, stats = s.mcts(s.current_player, iterations=300, seed=1)
    assert sorted(moves) == sorted(s.legal_moves())        # every root move was tried
    assert sum(visits) == 300 and stats["iterations"] == 300
    assert all(0.0 <= v <= 1.0 for v in values)
    with pytest.raises(ValueError, match="not to move"):
        s.mcts((s.current_player + 1) % 3, iterations=10)


@pytest.mark.parametrize("game, players", [("vienna", 3), ("oh_my_goods", 2), ("coal_baron", 2)])
@pytest.mark.parametrize("information_sets", [False, True])
def test_mcts_tries_every_root_move_once_before_any_twice(game, players, information_sets):
    """Expansion picks among the untried moves only (in the open mode by a child count and
    rejection sampling, in the information-set mode by availability), so n iterations over n
    root moves visit each once, and the next n leave no move behind."""
    s = _midgame(es.game(game, players=players), seed=5)
    n = len(s.legal_moves())
    assert n > 3
    moves, visits, _, _ = s.mcts(s.current_player, iterations=n, seed=2, rollout_depth=-1,
                                 information_sets=information_sets)
    assert sorted(moves) == sorted(s.legal_moves()) and set(visits) == {1}
    moves, visits, _, _ = s.mcts(s.current_player, iterations=4 * n, seed=2, rollout_depth=-1,
                                 information_sets=information_sets)
    assert sum(visits) == 4 * n and min(visits) >= 1


def test_mcts_concentrates_on_the_move_that_scores():
    """UCT exploits: in Vienna at 3 players the search spends most visits on moves whose
    evaluation is near the best, not uniformly (a broken selection would spread them)."""
    s = _midgame(es.game("vienna", players=3), seed=7)
    moves, visits, values, _ = s.mcts(s.current_player, iterations=20000, seed=1, rollout_depth=-1)
    top = max(range(len(moves)), key=visits.__getitem__)
    assert visits[top] > 3 * sum(visits) / len(moves)
    assert values[top] >= max(values) - 0.05


def _midgame(g, seed: int, decisions: int = 12):
    """A decision node some random decisions into a seeded game, with several legal moves."""
    rng = random.Random(seed)
    s = g.new_state(seed=seed)
    done = 0
    while True:
        while s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(63)))
        if done >= decisions and len(s.legal_moves()) > 3:
            return s
        s.apply(rng.choice(s.legal_moves()))
        done += 1
