"""Fitting the tools people already use (issue 20): pickling and copying, the dense action
space, batched observations and masks. Generic over es.games() and every player count."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

import eurosearch as es

GAMES = {(name, n): es.game(name, players=n) for name in es.games()
         for n in range(es.game_spec(name).min_players, es.game_spec(name).max_players + 1)}


def states_along_a_game(g, seed, limit=400):
    """Every state of one random game (chance sampled), up to `limit` of them."""
    rng = random.Random(seed)
    s = g.new_state()
    out = [s.clone()]
    while not s.is_terminal() and len(out) < limit:
        if s.is_chance():
            s.apply(s.sample_chance(rng.randrange(2 ** 32)))
        else:
            s.apply(rng.choice(s.legal_moves()))
        out.append(s.clone())
    return out


@pytest.mark.parametrize("key", sorted(GAMES))
def test_pickle_and_copy_round_trip_exactly(key):
    g = GAMES[key]
    g2 = pickle.loads(pickle.dumps(g))
    assert (g2.name, g2.players, g2.fingerprint) == (g.name, g.players, g.fingerprint)
    assert copy.copy(g) is g
    assert copy.deepcopy(g).fingerprint == g.fingerprint
    for s in states_along_a_game(g, 1, limit=60):
        t = pickle.loads(pickle.dumps(s))
        assert t.to_bytes() == s.to_bytes() and t.game.fingerprint == g.fingerprint
        assert t.legal_moves() == s.legal_moves() and t.current_player == s.current_player
        for c in (copy.copy(s), copy.deepcopy(s)):
            assert c == s and c is not s
            if c.current_player >= 0:
                c.apply(c.legal_moves()[0])
                assert s.to_bytes() == t.to_bytes()   # the copy is independent


def test_pickled_states_share_one_game_and_keep_a_users_data(tmp_path):
    spec_file = tmp_path / "mine.toml"
    bundled = es.game("vienna", players=3)
    text = open(bundled.data.origin).read() if hasattr(bundled.data, "origin") else None
    if text is None:
        pytest.skip("the loaded data does not name its file")
    spec_file.write_text(text)
    g = es.game("vienna", players=3, data=spec_file)
    states = [g.new_state(seed=k) for k in range(3)]
    spec_file.unlink()   # the data travels with the pickle, not the path
    back = pickle.loads(pickle.dumps(states))
    assert back[0].game is back[1].game
    assert back[0].game.fingerprint == g.fingerprint
    assert [b.to_bytes() for b in back] == [s.to_bytes() for s in states]


def test_a_corrupt_pickle_is_refused():
    s = GAMES[("vienna", 3)].new_state(seed=3)
    data = pickle.dumps(s).replace(s.to_bytes()[-8:], b"\xff" * 8)
    with pytest.raises(es.StateFormatError):
        pickle.loads(data)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_legal_move_is_one_dense_action_and_back(key):
    g = GAMES[key]
    n = g.num_distinct_actions()
    for seed in range(3):
        for s in states_along_a_game(g, seed):
            moves = s.legal_moves()
            actions = [s.move_to_action(m) for m in moves]
            assert len(set(actions)) == len(moves)
            assert all(0 <= a < n for a in actions)
            assert [s.action_to_move(a) for a in actions] == moves
            mask = s.legal_actions_mask()
            assert mask.dtype == np.bool_ and mask.shape == (n,)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(actions)


@pytest.mark.parametrize("name", es.games())
def test_bad_actions_and_moves_are_refused(name):
    g = GAMES[(name, es.game_spec(name).min_players)]
    n = g.num_distinct_actions()
    for bad in (-1, n, 2 ** 70):
        with pytest.raises(ValueError, match="action"):
            g.action_to_move(bad)
    with pytest.raises(TypeError):
        g.action_to_move("3")
    for bad in (-5, 0, 2 ** 40, 0x7FFFFFFF):
        with pytest.raises(ValueError, match="no decision move"):
            g.move_to_action(bad)
    assert g.move_to_action(g.action_to_move(n - 1)) == n - 1


@pytest.mark.parametrize("key", sorted(GAMES))
def test_batched_observations_and_masks_equal_one_by_one(key):
    g = GAMES[key]
    states = states_along_a_game(g, 5, limit=50)
    obs = g.observations(states, 0)
    assert obs.shape == (len(states), g.observation_size) and obs.dtype == np.float32
    masks = g.legal_actions_masks(states)
    for k, s in enumerate(states):
        assert np.array_equal(obs[k], s.observation(0))
        assert np.array_equal(masks[k], s.legal_actions_mask())
    assert g.observations([], 1).shape == (0, g.observation_size)
    other = next(h for h in GAMES.values() if h is not g)
    with pytest.raises(ValueError, match="State of this game"):
        g.observations([other.new_state()], 0)
    with pytest.raises(ValueError, match="seat"):
        g.observations(states, g.players)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_observation_layout_tiles_the_vector_and_names_the_actor(key):
    g = GAMES[key]
    layout = g.observation_layout()
    offset = 0
    for name, start, shape in layout:
        assert start == offset, name
        assert all(d > 0 for d in shape) and len(shape) in (1, 2)
        offset += int(np.prod(shape))
    assert offset == g.observation_size
    assert len({name for name, _, _ in layout}) == len(layout)
    slices = {name: (start, shape) for name, start, shape in layout}
    start, shape = slices["actor"]   # seats relative to the viewer: the one to move sees row 0
    for s in states_along_a_game(g, 7, limit=80):
        p = s.current_player
        if p >= 0:
            actor = s.observation(p)[start:start + shape[0]]
            assert actor[0] == 1 and actor.sum() == 1
