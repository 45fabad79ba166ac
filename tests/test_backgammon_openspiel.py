"""Backgammon against OpenSpiel's "backgammon" (default parameters), in lockstep.

The calibration game must be OpenSpiel's game exactly, so that bench/openspiel_race.py times
the same work on both engines. Both engines play the same seeded random games: the same dice
(our chance outcome mapped to one of OpenSpiel's outcomes with the same dice and starter), the
same moves (our move mapped to an OpenSpiel action with the same resulting position). At every
step they must agree on the player to move, the observation (we use OpenSpiel's Tesauro
encoding), the set of positions the legal moves lead to, the chance distribution, terminality
and the returns (OpenSpiel's winloss returns are 2r - 1 of ours: +1/-1, and 0/0 for the turn cap).
Skipped when pyspiel is not importable.
"""

from __future__ import annotations

import random

import pytest

import eurosearch as es

pyspiel = pytest.importorskip("pyspiel")

#: OpenSpiel's chance outcome values (dice pairs) by outcome index, as its game lists them:
#: the 30 ordered non-double pairs (1,2), (2,1), (1,3), (3,1), ... then the six doubles.
OS_DICE = [p for lo in range(1, 7) for hi in range(lo + 1, 7) for p in ((lo, hi), (hi, lo))] + [(d, d) for d in range(1, 7)]


def board_key(obs) -> tuple:
    """The position in an observation seen by player 0: points, then bar and off of each player."""
    obs = list(obs)
    return tuple(obs[:192]) + (obs[192], obs[193], obs[195], obs[196])


def os_chance_action(move_text: str) -> int:
    """OpenSpiel's outcome index for our chance move text ("x starts 3-1" / "roll 6-6")."""
    words = move_text.split()
    hi, lo = (int(x) for x in words[-1].split("-"))
    if words[0] == "roll":
        return OS_DICE.index((lo, hi))
    # the opening roll: even outcome indices are x starting, odd ones o starting
    return OS_DICE.index((lo, hi) if words[0] == "x" else (hi, lo))


def os_dice_distribution(st) -> dict:
    dist: dict = {}
    for a, p in st.chance_outcomes():
        lo, hi = sorted(OS_DICE[a])
        key = (lo, hi, a % 2) if st.move_number() == 0 else (lo, hi)
        dist[key] = dist.get(key, 0.0) + p
    return dist


def our_dice_distribution(s) -> dict:
    dist = {}
    for m, p in s.chance_outcomes():
        words = s.move_to_str(m).split()
        hi, lo = (int(x) for x in words[-1].split("-"))
        key = (lo, hi) if words[0] == "roll" else (lo, hi, 0 if words[0] == "x" else 1)
        dist[key] = p
    return dist


def play_lockstep(game, os_game, seed: int) -> int:
    rng = random.Random(seed)
    s, o = game.initial_state(), os_game.new_initial_state()
    steps = 0
    while True:
        assert s.is_terminal() == o.is_terminal(), f"step {steps}: terminal"
        if s.is_terminal():
            ours = s.returns()
            assert o.returns() == [2 * r - 1 for r in ours], f"returns {ours} vs {o.returns()}"
            return steps
        assert s.current_player == o.current_player(), f"step {steps}: player to move"
        assert list(s.observation(0))[:200] == list(o.observation_tensor(0)), f"step {steps}: observation"
        if s.is_chance():
            dist, theirs = our_dice_distribution(s), os_dice_distribution(o)
            assert dist.keys() == theirs.keys()
            assert all(abs(dist[k] - theirs[k]) < 1e-12 for k in dist), f"step {steps}: chance probabilities"
            m = s.sample_chance(rng.getrandbits(64))
            o.apply_action(os_chance_action(s.move_to_str(m)))
            s.apply(m)
        else:
            after: dict = {}
            for m in s.legal_moves():
                c = s.clone()
                c.apply(m)
                key = board_key(c.observation(0))
                assert key not in after, f"step {steps}: two legal moves lead to one position"
                after[key] = m
            theirs: dict = {}
            for a in o.legal_actions():
                c = o.clone()
                c.apply_action(a)
                theirs.setdefault(board_key(c.observation_tensor(0)), a)
            assert after.keys() == theirs.keys(), (
                f"step {steps}: legal successors differ\n{s}\nours only "
                f"{[s.move_to_str(after[k]) for k in after.keys() - theirs.keys()]}, OpenSpiel only "
                f"{[o.action_to_string(theirs[k]) for k in theirs.keys() - after.keys()]}")
            key = rng.choice(sorted(after))
            s.apply(after[key])
            o.apply_action(theirs[key])
        steps += 1


def test_lockstep_200_random_games():
    game, os_game = es.game("backgammon"), pyspiel.load_game("backgammon")
    total = sum(play_lockstep(game, os_game, seed) for seed in range(200))
    assert total > 200 * 50


def test_turn_cap_matches():
    """A short cap ends both engines' games on the same step, as a draw (0 / 0 in OpenSpiel)."""
    game = es.game("backgammon", options={"max_turns": 12})
    os_game = pyspiel.load_game("backgammon", {"max_player_turns": 12})
    for seed in range(20):
        play_lockstep(game, os_game, 1000 + seed)


def test_defaults_are_openspiels():
    params = pyspiel.load_game("backgammon").get_parameters()
    assert params["scoring_type"] == "winloss_scoring" and params["max_player_turns"] == 500
    # our vector is OpenSpiel's 200 floats, then the 2-float "actor" slice every game has
    assert es.game("backgammon").observation_size == pyspiel.load_game("backgammon").observation_tensor_size() + 2
