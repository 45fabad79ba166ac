"""bench/clairvoyant.py: the clairvoyant searches the true state, its opponent a determinization;
bench/wolsung_task_signal.py: the beliefs it scores."""

from __future__ import annotations

import sys
from pathlib import Path

import eurosearch as es
from eurosearch.agents.mcts import MCTSAgent
from positions import midgame

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import clairvoyant  # noqa: E402


def test_the_clairvoyant_searches_the_true_state_and_the_fair_agent_a_world():
    g = es.game("oh_my_goods", players=2)
    s = midgame(g, seed=3, steps=40)
    p = s.current_player
    world = s.determinize(p, 5)
    assert world.to_json() != s.to_json()   # the opponent's hand differs: the test can tell them apart
    settings = dict(iterations=300, seed=5, rollout_depth=20, eval_scale=0.5, exploration=1.4)
    cheat = clairvoyant.Clairvoyant(iterations=300, threads=1).search(s, p, seed=5)
    fair = MCTSAgent(iterations=300, threads=1).search(s, p, seed=5)
    assert cheat[:3] == s.mcts(p, **settings)[:3]
    assert fair[:3] == world.mcts(p, **settings)[:3]
    assert cheat[:3] != fair[:3]


def test_a_short_run_alternates_seats_and_reports_a_share_with_its_interval():
    r = clairvoyant.run("oh_my_goods", seconds=0.001, games=2, seed=1)
    assert r["games"] == 2 and 0 <= r["clairvoyant"] <= 1
    assert r["ci95"][0] <= r["clairvoyant"] <= r["ci95"][1]
    assert "provisional" in clairvoyant.describe(r)   # Oh My Goods! data is partly provisional


def test_a_result_on_published_data_carries_no_label():
    r = {"game": "g", "seconds": 0.02, "games": 10, "clairvoyant": 0.5, "ci95": [0.2, 0.8],
         "data_sources": {"status": "published"}}
    assert clairvoyant.describe(r) == "g: the clairvoyant wins 50.0% (20.0%-80.0%) of 10 games at 0.02 s a move"


def test_wolsung_task_signal_scores_every_card_the_opponent_cannot_rule_out():
    import wolsung_task_signal as signal

    g = es.game("wolsung", players=2)
    s = midgame(g, seed=2, steps=60)
    for q in (0, 1):
        points, true = signal.card_points(g, s, q)
        assert len(points) == 7 and true in points   # 8 cards but the other player's own
        assert points[true] == s.scores()[q]          # the true card scores as the state does
