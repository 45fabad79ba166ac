"""The optional adapters (issue 20), each checked by its framework's own test: PettingZoo's
api_test, Gymnasium's check_env, OpenSpiel's random simulation test. Skipped when the extra
is not installed (the README's test command installs them all)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import eurosearch as es


def smallest(name):
    return es.game_spec(name).min_players


@pytest.mark.parametrize("name", es.games())
def test_pettingzoo_env_passes_api_test(name):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    import eurosearch.pettingzoo as ep

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(ep.env(name, players=smallest(name), render_mode="ansi"), num_cycles=200)


@pytest.mark.parametrize("name", es.games())
def test_pettingzoo_plays_a_whole_game_by_the_masks(name):
    pytest.importorskip("pettingzoo")
    import eurosearch.pettingzoo as ep

    env = ep.env(name, players=smallest(name), render_mode="ansi")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert f"view of player {env.possible_agents.index(agent)}" in env.render()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.state_.is_terminal()
    with pytest.raises(ValueError, match="render_mode"):
        ep.env(name, render_mode="human")


@pytest.mark.parametrize("name", es.games())
def test_gym_env_passes_check_env(name):
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    import eurosearch.gym as eg

    env = eg.make(name, players=smallest(name), opponents="heuristic", render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env)
    obs, info = env.reset(seed=2)
    done = False
    while not done:
        mask = info["action_mask"]
        assert mask.any()
        obs, reward, done, truncated, info = env.step(env.action_space.sample(mask=mask.astype(np.int8)))
    assert env.state.is_terminal() and reward == env.state.returns()[0]


def test_gym_illegal_action_ends_the_episode_with_the_penalty():
    pytest.importorskip("gymnasium")
    import eurosearch.gym as eg

    env = eg.make("vienna", players=3, opponents="random", illegal_reward=-5)
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    obs, reward, done, truncated, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-5, True, True)
    with pytest.raises(ValueError, match="opponents"):
        eg.make("vienna", opponents="strong")


@pytest.mark.parametrize("name", es.games())
def test_openspiel_random_simulation_test_with_serialization(name):
    pyspiel = pytest.importorskip("pyspiel")
    import eurosearch.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(f"eurosearch_{name}", {"players": smallest(name)})
    hidden = es.game(name).has_hidden_information
    info = pyspiel.GameType.Information
    assert game.get_type().information == (info.IMPERFECT_INFORMATION if hidden else info.PERFECT_INFORMATION)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == es.game(name).num_distinct_actions()
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", es.games())
def test_openspiel_mcts_and_observer_run_on_our_games(name):
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.observation import make_observation

    import eurosearch.openspiel  # noqa: F401

    game = pyspiel.load_game(f"eurosearch_{name}", {"players": smallest(name)})
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 1.4, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    observer = make_observation(game)
    for _ in range(6):
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(int(rng.choice(actions, p=probs)))
        if state.is_terminal():
            break
        player = state.current_player()
        observer.set_from(state, player)
        assert np.array_equal(observer.tensor, state.es_state.observation(player))
        assert observer.string_from(state, player) == state.es_state.to_text(viewer=player)
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


HIDDEN = [name for name in es.games() if es.game(name).has_hidden_information]


def _play_chance(state, rng):
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))


@pytest.mark.parametrize("name", HIDDEN)
def test_openspiel_ismcts_runs_on_the_hidden_information_games(name):
    """OpenSpiel's own information-set MCTS: every search samples worlds through
    resample_from_infostate and asserts that each has the root's information state."""
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import ismcts, mcts

    import eurosearch.openspiel  # noqa: F401

    import pyspiel

    game = pyspiel.load_game(f"eurosearch_{name}", {"players": smallest(name)})
    assert game.get_type().provides_information_state_string
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.4, 12, random_state=rng)
    state = game.new_initial_state()
    for _ in range(4):
        _play_chance(state, rng)
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("name", HIDDEN)
def test_openspiel_information_state_is_perfect_recall_and_hides_the_unseen(name):
    """Two chance outcomes that player 0 cannot tell apart leave player 0's information state
    the same (it must not leak which one happened); outcomes player 0 can tell apart give
    different ones (perfect recall); a resampled world keeps player 0's information state and
    observation, and over a few seeds differs from the true state."""
    pyspiel = pytest.importorskip("pyspiel")
    import eurosearch.openspiel  # noqa: F401

    game = pyspiel.load_game(f"eurosearch_{name}", {"players": smallest(name)})
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    hidden_pair = told_apart = False
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            seen = [state.es_state.move_view(state._move(a), 0) for a, _ in outcomes]
            for i in range(1, len(outcomes)):
                a, b = state.clone(), state.clone()
                a.apply_action(outcomes[0][0])
                b.apply_action(outcomes[i][0])
                same = a.information_state_string(0) == b.information_state_string(0)
                assert same == (seen[0] == seen[i]), (name, seen[0], seen[i])
                hidden_pair |= same
                told_apart |= not same
            actions, probs = zip(*outcomes)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        if hidden_pair and told_apart:
            break
    assert hidden_pair and told_apart
    truth = state.es_state.to_bytes()
    differs = False
    for k in range(8):
        world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
        assert world.information_state_string(0) == state.information_state_string(0)
        assert world.observation_string(0) == state.observation_string(0)
        differs |= world.es_state.to_bytes() != truth
    assert differs


def test_openspiel_expectiminimax_solves_a_bear_off_race_exactly():
    """OpenSpiel's expectiminimax on our backgammon from the race worked out by hand in
    tests/test_backgammon_rules.py: x to play 2-1 from its 6-point, o one checker on its
    6-point. x reaches its 3-point; o bears off with 27 of 36 rolls, else x wins: 9/36."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import minimax

    import eurosearch.openspiel  # noqa: F401

    from test_backgammon_rules import position

    state = pyspiel.load_game("eurosearch_backgammon").new_initial_state()
    state.es_state = position({18: 1}, {5: 1}, (2, 1))
    value, action = minimax.expectiminimax(state, 10, None, 0)
    assert value == pytest.approx(9 / 36, abs=1e-12)
    assert action in state.legal_actions()
