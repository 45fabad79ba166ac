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
