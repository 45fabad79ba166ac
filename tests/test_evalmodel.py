"""Learned evaluations (evalmodel.py, evaltrain.py, es_eval_model in C): what the search does
with one, the model files' checks, and the training on a small run."""

from __future__ import annotations

import json

import numpy as np
import pytest

import eurosearch as es
from eurosearch import agents, evalmodel
from eurosearch.cli import main
from eurosearch.evalmodel import EvalModel, EvalModelError
from eurosearch.evaltrain import Records, fit, log_loss, self_play


def decision_state(name: str, players: int, seed: int = 1):
    s = es.game(name, players=players).new_state(seed=seed)
    while s.is_chance():
        s.apply(s.sample_chance(seed))
    return s


def test_zero_weights_with_the_hand_scale_search_exactly_like_the_hand_evaluation():
    # softmax(0.5 * eval) is the default evaluation: a model with no feature weights and
    # eval_weight 0.5 must give the same search, visit for visit
    s = decision_state("oh_my_goods", 2)
    p = s.current_player
    zero = np.zeros(s.game.observation_size)
    hand = s.mcts(p, iterations=300, seed=4, rollout_depth=10)
    learned = s.mcts(p, iterations=300, seed=4, rollout_depth=10, eval_weights=zero, eval_weight=0.5)
    assert hand[:2] == learned[:2]


def test_a_learned_evaluation_changes_the_search_and_is_used_by_every_search_mode():
    s = decision_state("oh_my_goods", 2)
    p = s.current_player
    g = s.game
    w = np.zeros(g.observation_size)
    w[:40] = np.linspace(-1, 1, 40)   # any weights that tell the players apart
    hand = s.mcts(p, iterations=300, seed=4, rollout_depth=10)
    learned = s.mcts(p, iterations=300, seed=4, rollout_depth=10, eval_weights=w, eval_weight=0.1)
    assert hand[1] != learned[1]
    for extra in ({"information_sets": True}, {"information_sets": True, "multi_observer": True},
                  {"worlds": 2, "threads": 2}):
        a = s.mcts(p, iterations=200, seed=4, rollout_depth=10, **extra)
        b = s.mcts(p, iterations=200, seed=4, rollout_depth=10, eval_weights=w, eval_weight=0.1, **extra)
        assert a[1] != b[1], extra


def test_learned_returns_are_the_softmax_of_the_logits_at_a_leaf():
    # depth -1 evaluates each new leaf at once: a one-ply search's root values are the model's
    # win chance for the searcher after each move, averaged over the chance that follows
    s = decision_state("vienna", 3)
    g = s.game
    p = s.current_player
    rng = np.random.default_rng(0)
    w = rng.normal(0, 0.3, g.observation_size)
    moves, visits, values, _ = s.mcts(p, iterations=len(s.legal_moves()), seed=1, rollout_depth=-1,
                                      eval_weights=w, eval_weight=0.2, exploration=0.0)
    checked = 0
    for m, n, v in zip(moves, visits, values):
        child = s.clone()
        child.apply(m)
        if n != 1 or child.is_chance() or child.is_terminal():
            continue
        logits = np.array([np.dot(np.float32(w).astype(np.float64), np.asarray(child.observation(q), dtype=np.float64))
                           + 0.2 * child.evaluate()[q] for q in range(g.players)])
        expect = np.exp(logits - logits.max())
        assert v == pytest.approx(expect[p] / expect.sum(), rel=1e-4)
        checked += 1
    assert checked > 0


def test_bad_weights_are_refused_before_the_search():
    s = decision_state("oh_my_goods", 2)
    p = s.current_player
    with pytest.raises(ValueError, match="1092 numbers"):
        s.mcts(p, iterations=10, eval_weights=np.zeros(5))
    bad = np.zeros(s.game.observation_size)
    bad[3] = np.nan
    with pytest.raises(ValueError, match="finite"):
        s.mcts(p, iterations=10, eval_weights=bad)
    with pytest.raises(ValueError, match="finite"):
        s.mcts(p, iterations=10, eval_weights=np.zeros(s.game.observation_size), eval_weight=float("inf"))


def model_doc(**change):
    g = es.game("wolsung", players=2)
    doc = EvalModel("wolsung", 2, np.zeros(g.observation_size, np.float32), 0.5, {"note": "test"}).to_dict()
    doc.update(change)
    return doc


@pytest.mark.parametrize("change, message", [
    ({"format": "other"}, "not an evaluation model"),
    ({"version": 99}, "version 99"),
    ({"weights": [0.0] * 3}, "3 weights but observation_size"),
    ({"weights": None}, "'weights' has the wrong type"),
    ({"eval_weight": "x"}, "'eval_weight' has the wrong type"),
    ({"players": 0}, "players must be"),
    ({"players": True}, "'players' has the wrong type"),
    ({"training": []}, "'training' must be an object"),
])
def test_malformed_model_files_raise_a_named_error(tmp_path, change, message):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model_doc(**change)))
    with pytest.raises(EvalModelError, match=message):
        evalmodel.load(path)


def test_unreadable_and_non_json_model_files_raise_a_named_error(tmp_path):
    with pytest.raises(EvalModelError, match="cannot read"):
        evalmodel.load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_bytes(b"{\xff")
    with pytest.raises(EvalModelError):
        evalmodel.load(tmp_path / "bad.json")
    (tmp_path / "list.json").write_text("[1, 2]")
    with pytest.raises(EvalModelError, match="not a JSON object"):
        evalmodel.load(tmp_path / "list.json")
    doc = model_doc()
    doc["weights"][0] = float("nan")
    (tmp_path / "nan.json").write_text(json.dumps(doc))
    with pytest.raises(EvalModelError, match="finite"):
        evalmodel.load(tmp_path / "nan.json")


def test_a_model_for_another_game_or_player_count_is_refused(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model_doc()))
    model = evalmodel.load(path)
    model.check_game(es.game("wolsung", players=2))
    with pytest.raises(EvalModelError, match="cannot evaluate wolsung with 3 players"):
        model.check_game(es.game("wolsung", players=3))
    agent = agents.make(f"mcts:iterations=20:eval={path}")
    with pytest.raises(EvalModelError, match="cannot evaluate oh_my_goods"):
        agent.choose(decision_state("oh_my_goods", 2), decision_state("oh_my_goods", 2).current_player)
    with pytest.raises(EvalModelError, match="no learned evaluation ships for backgammon"):
        agents.make("mcts:iterations=20:eval=learned").choose(decision_state("backgammon", 2),
                                                                decision_state("backgammon", 2).current_player)


def test_save_round_trips_and_never_replaces_a_file_unasked(tmp_path):
    path = tmp_path / "m.json"
    path.write_text("keep me")
    model = evalmodel.from_dict(model_doc())
    with pytest.raises(FileExistsError):
        model.save(path)
    assert path.read_text() == "keep me"
    model.save(path, overwrite=True)
    again = evalmodel.load(path)
    assert (again.game, again.players, again.eval_weight, again.training) == ("wolsung", 2, 0.5, {"note": "test"})
    assert np.array_equal(again.weights, model.weights)


def test_every_shipped_model_fits_its_game_and_beats_the_hand_evaluation_held_out():
    shipped = sorted(evalmodel.SHIPPED_DIR.glob("*.json"))
    assert shipped, "the package ships learned evaluations"
    for path in shipped:
        model = evalmodel.load(path)
        assert path.name == f"{model.game}-{model.players}p.json"
        model.check_game(es.game(model.game, players=model.players))
        t = model.training
        assert t["heldout_log_loss"] < t["hand_heldout_log_loss"], path.name


def synthetic_records(n_games: int = 60, per_game: int = 20, seed: int = 0) -> tuple[Records, np.ndarray]:
    # two players, 6 features; the winner is drawn from softmax(true . x): the fit must find it
    rng = np.random.default_rng(seed)
    true = np.array([1.5, -1.0, 0.0, 0.5, 0.0, 2.0])
    n = n_games * per_game
    obs = rng.normal(0, 1, (n, 2, 6)).astype(np.float32)
    logits = obs @ true
    p0 = 1 / (1 + np.exp(logits[:, 1] - logits[:, 0]))
    first = rng.random(n) < p0
    win = np.stack([first, ~first], axis=1).astype(np.float64)
    return Records(obs=obs, ev=np.zeros((n, 2)), win=win, game_id=np.repeat(np.arange(n_games), per_game)), true


def test_the_fit_recovers_a_known_conditional_logit():
    records, true = synthetic_records()
    model, report = fit(records, "wolsung", 2, steps=400)
    assert np.corrcoef(model.weights, true)[0, 1] > 0.95
    assert report["heldout_log_loss"] < report["hand_heldout_log_loss"] == pytest.approx(np.log(2), abs=1e-4)
    assert log_loss(np.zeros((2, 2)), np.array([[1.0, 0.0], [0.5, 0.5]]))[0] == pytest.approx(np.log(2))


def test_train_eval_command_writes_a_model_the_agent_plays_with(tmp_path, capsys):
    out = tmp_path / "wolsung.json"
    assert main(["train-eval", "wolsung", "--games", "6", "--iterations", "20", "--out", str(out),
                 "--no-progress", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["file"] == str(out) and report["games"] == 6
    model = evalmodel.load(out)
    assert model.training["provisional"] is True   # Wolsung's data set is provisional
    s = decision_state("wolsung", 2)
    move = agents.make(f"mcts:iterations=50:eval={out}").choose(s, s.current_player)
    assert move in s.legal_moves()
    assert main(["train-eval", "wolsung", "--games", "6", "--out", str(out), "--no-progress"]) == 2
    assert "exists" in capsys.readouterr().err


def test_train_eval_can_self_play_with_an_earlier_model(tmp_path, capsys):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    assert main(["train-eval", "wolsung", "--games", "4", "--iterations", "20", "--out", str(first),
                 "--no-progress"]) == 0
    assert evalmodel.load(first).training["self_play_eval"] == "hand"
    assert main(["train-eval", "wolsung", "--games", "4", "--iterations", "20", "--out", str(second),
                 "--eval", str(first), "--no-progress"]) == 0
    assert evalmodel.load(second).training["self_play_eval"] == str(first)
    # the model steers the self-play searches: the same seeds play other games
    by_hand = self_play("wolsung", 2, 2, iterations=20)
    by_model = self_play("wolsung", 2, 2, iterations=20, search=evalmodel.load(first).search_arguments())
    assert by_hand.obs.shape != by_model.obs.shape or not np.array_equal(by_hand.obs, by_model.obs)
    capsys.readouterr()
    assert main(["train-eval", "wolsung", "--games", "4", "--out", str(tmp_path / "x.json"),
                 "--eval", str(tmp_path / "missing.json"), "--no-progress"]) == 2
    assert "missing.json" in capsys.readouterr().err and not (tmp_path / "x.json").exists()


def test_the_default_ai_uses_a_learned_evaluation_only_where_one_ships():
    ai = agents.make("ai:iterations=50:threads=1")
    # docs/strength.md, stops 31, 32, 35 and 36: shipped where it played stronger than the hand one
    for game, players in (("vienna", 3), ("vienna", 4), ("bruges", 2), ("bruges", 4), ("oh_my_goods", 2),
                          ("oh_my_goods", 3), ("coal_baron", 2), ("coal_baron", 3)):
        assert ai.agent_for(game, players).eval == "learned", (game, players)
    assert ai.agent_for("bruges", 3).eval == "hand"         # trained, played weaker: not shipped
    assert ai.agent_for("coal_baron", 4).eval == "hand"     # trained, no gain at equal time: not shipped
    assert ai.agent_for("oh_my_goods", 4).eval == "hand"    # no model yet
    assert ai.agent_for("wolsung", 2).eval == "hand"        # its ai does not ask for one
    s = decision_state("vienna", 3)
    assert ai.choose(s, s.current_player) in s.legal_moves()


def test_self_play_games_are_gathered_in_seed_order_without_changing_a_value():
    from eurosearch.evaltrain import _gather
    rng = np.random.default_rng(0)
    parts = {seed: (rng.random((k, 2, 3)).astype(np.float32), rng.random((k, 2)), rng.random((k, 2)))
             for seed, k in ((7, 3), (2, 4), (5, 1))}
    expected = [np.concatenate([parts[seed][i] for seed in (2, 5, 7)]) for i in range(3)]
    records = _gather(dict(parts))
    for got, want in zip((records.obs, records.ev, records.win), expected):
        assert got.dtype == want.dtype and np.array_equal(got, want)
    assert records.game_id.tolist() == [2, 2, 2, 2, 5, 7, 7, 7]
