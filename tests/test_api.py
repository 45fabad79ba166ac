"""The public Python API contract of eurosearch, exercised on Vienna.

Everything here goes through ``import eurosearch as es`` only (plus the documented move ids of
docs/vienna_engine.md where a test needs to build a specific illegal move).
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter

import numpy as np
import pytest

import eurosearch as es

PLAYER_COUNTS = (3, 4, 5)

# Phase codes of csrc/games/vienna.h (only used to find chance nodes of a given kind).
PH_START, PH_DRAFT, PH_REVEAL, PH_ROLL, PH_OVER = 1, 2, 3, 4, 13


# ----------------------------------------------------------------------------- helpers

_GAMES: dict = {}


def game(players: int = 3, **options):
    """One cached game per (players, options): State equality needs the same Game object."""
    key = (players, tuple(sorted(options.items())))
    if key not in _GAMES:
        _GAMES[key] = es.game("vienna", players=players, options=options or None)
    return _GAMES[key]


def walk(g, seed: int, start=None, max_steps: int = 20000):
    """Yield every state (a live object: clone it to keep it) along one seeded random game,
    from the very first (setup chance) node to the terminal node."""
    rng = random.Random(seed)
    s = g.initial_state() if start is None else start
    for _ in range(max_steps):
        yield s
        if s.is_terminal():
            return
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(64)))
        else:
            moves = s.legal_moves()
            s.apply(moves[rng.randrange(len(moves))])
    raise AssertionError(f"game of seed {seed} did not end within {max_steps} steps")


def sampled_states(g, seed: int, every: int = 7) -> list:
    """Clones of every `every`-th state of a seeded game, plus its last (terminal) state."""
    out = []
    last = None
    for i, s in enumerate(walk(g, seed)):
        last = s
        if i % every == 0:
            out.append(s.clone())
    out.append(last.clone())
    return out


def state_doc(s) -> dict:
    return json.loads(s.to_json())["state"]


# ----------------------------------------------------------------------------- names


def test_public_names_exist():
    for name in ("games", "game", "game_spec", "Game", "State", "CHANCE", "TERMINAL",
                 "IllegalMoveError", "StateFormatError", "DataError", "library_path", "include_dir"):
        assert hasattr(es, name), name
    assert es.CHANCE == -1
    assert es.TERMINAL == -2
    for exc in (es.IllegalMoveError, es.StateFormatError, es.DataError):
        assert issubclass(exc, ValueError)
    assert len({es.IllegalMoveError, es.StateFormatError, es.DataError}) == 3
    g = game()
    s = g.new_state(seed=1)
    assert isinstance(g, es.Game)
    assert isinstance(s, es.State)
    for meth in ("legal_moves", "chance_outcomes", "apply", "sample_chance", "clone", "hash",
                 "scores", "returns", "move_to_str", "str_to_move", "to_bytes", "to_json",
                 "determinize", "observation", "is_chance", "is_terminal"):
        assert callable(getattr(s, meth)), meth
    for meth in ("new_state", "initial_state", "state_from_bytes", "state_from_json",
                 "random_playouts", "data_sources"):
        assert callable(getattr(g, meth)), meth


def test_games_lists_the_implemented_games():
    assert es.games() == ["backgammon", "bruges", "coal_baron", "oh_my_goods", "vienna", "wolsung"]


def test_unknown_game_is_value_error_naming_the_games():
    with pytest.raises(ValueError, match="vienna"):
        es.game("chess", players=3)


@pytest.mark.parametrize("players", [2, 6, 0, -1, 100])
def test_player_count_out_of_range(players):
    with pytest.raises(ValueError) as info:
        es.game("vienna", players=players)
    msg = str(info.value)
    assert re.search(r"\b3\b", msg) and re.search(r"\b5\b", msg), msg
    assert "3 to 5" in msg, msg


@pytest.mark.parametrize("players", [True, 3.0, "3"])
def test_player_count_wrong_type(players):
    with pytest.raises(ValueError):
        es.game("vienna", players=players)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_valid_player_counts(players):
    g = es.game("vienna", players=players)
    assert g.players == players
    assert isinstance(g.observation_size, int) and g.observation_size > 0
    s = g.new_state(seed=3)
    assert len(s.scores()) == players
    assert len(s.returns()) == players


def test_default_player_count_is_the_smallest():
    assert es.game("vienna").players == 3


def test_game_exposes_validated_data():
    g = game()
    assert len(g.data.street) == 24
    assert sum(p.copies for p in g.data.persons) == 44
    assert g.data.street[0].kind == "krieau" and g.data.street[-1].kind == "heuriger"


# ----------------------------------------------------------------------------- new states


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_new_state_with_seed_reaches_a_decision(players):
    g = game(players)
    for seed in range(10):
        s = g.new_state(seed=seed)
        assert s.current_player >= 0
        assert not s.is_chance() and not s.is_terminal()
        assert 0 <= s.current_player < players
        assert s.legal_moves()
        assert s.chance_outcomes() == []


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_new_state_is_reproducible(players):
    g = game(players)
    other = es.game("vienna", players=players)   # a second, identically built game
    for seed in (0, 1, 7, 2**40 + 3):
        a, b = g.new_state(seed=seed), g.new_state(seed=seed)
        assert a == b
        assert a.to_bytes() == b.to_bytes()
        assert a.hash() == b.hash()
        assert other.new_state(seed=seed).to_bytes() == a.to_bytes()


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_different_seeds_usually_differ(players):
    g = game(players)
    states = [g.new_state(seed=seed) for seed in range(40)]
    distinct = {s.to_bytes() for s in states}
    # The only setup chance before the first decision is the start player: every seat must
    # come up over 40 seeds, so there are exactly `players` distinct states.
    assert len(distinct) == players
    starters = Counter(state_doc(s)["special_owner"][0] for s in states)
    assert set(starters) == set(range(players))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_new_state_without_seed_stops_at_first_setup_chance(players):
    g = game(players)
    s = g.new_state()
    assert s.is_chance()
    assert s.current_player == es.CHANCE
    assert s.legal_moves() == []
    outcomes = s.chance_outcomes()
    assert len(outcomes) == players   # the first start player: one outcome per seat
    assert all(p == pytest.approx(1 / players) for _, p in outcomes)
    assert sorted(s.move_to_str(m) for m, _ in outcomes) == [f"start P{i}" for i in range(players)]
    assert g.initial_state() == s
    assert g.initial_state().to_bytes() == s.to_bytes()


def test_fixed_start_player_has_no_start_chance():
    g = game(3, start_player=1)
    s = g.new_state()
    assert s == g.initial_state()
    assert s.current_player >= 0       # straight into the draft
    assert state_doc(s)["special_owner"][0] == 1
    # the first picker is right of the start player
    assert s.current_player == 0
    # with no setup chance before the first decision every seed gives the same state
    assert g.new_state(seed=1) == g.new_state(seed=2) == s


# ----------------------------------------------------------------------------- chance


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_chance_outcomes_are_distributions(players):
    g = game(players)
    checked = 0
    for seed in range(3):
        for s in walk(g, seed):
            co = s.chance_outcomes()
            if not s.is_chance():
                assert co == []
                continue
            assert s.legal_moves() == []
            assert co, "chance node without outcomes"
            ids = [m for m, _ in co]
            assert len(set(ids)) == len(ids), "an outcome appears twice"
            assert all(isinstance(m, int) and m > 0 for m in ids)
            assert all(p > 0 for _, p in co)
            assert math.fsum(p for _, p in co) == pytest.approx(1.0, abs=1e-9)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_sample_chance_returns_a_listed_outcome(players):
    g = game(players)
    rng = random.Random(players)
    for s in walk(g, 11):
        if s.is_chance():
            ids = {m for m, _ in s.chance_outcomes()}
            for _ in range(5):
                assert s.sample_chance(rng.getrandbits(64)) in ids
            before = s.to_bytes()
            s.sample_chance(123)
            assert s.to_bytes() == before, "sample_chance must not change the state"


def test_sample_chance_is_deterministic_per_seed():
    s = game(4).new_state()
    assert [s.sample_chance(k) for k in range(50)] == [s.sample_chance(k) for k in range(50)]


def test_sample_chance_at_a_decision_raises():
    s = game().new_state(seed=1)
    with pytest.raises(ValueError):
        s.sample_chance(1)


def _first_chance_nodes():
    """One chance node of each kind, found along fixed seeded games."""
    found = {}
    wanted = {"start", "reveal", "round roll", "reroll", "roll with white"}
    for players in PLAYER_COUNTS:
        g = game(players)
        for seed in range(40):
            for s in walk(g, seed):
                if not s.is_chance():
                    continue
                d = state_doc(s)
                if d["phase"] == PH_START:
                    kind = "start"
                elif d["phase"] == PH_REVEAL:
                    kind = "reveal"
                elif d["roll_white"]:
                    kind = "roll with white"
                elif d["actor"] in d["rolled"]:   # the seats that rolled this round
                    kind = "reroll"
                else:
                    kind = "round roll"
                if kind not in found:
                    found[kind] = s.clone()
            if set(found) == wanted:
                return found
    return found


CHANCE_NODES = _first_chance_nodes()


@pytest.mark.parametrize("kind", ["start", "reveal", "round roll", "reroll", "roll with white"])
def test_sample_chance_frequencies_match_probabilities(kind):
    """Chi-square goodness of fit of sample_chance over consecutive seeds.

    Deterministic: seeds 0..N-1 with N chosen so that every outcome expects at least 8 hits
    (at least 20,000 draws). Tolerance: the statistic must stay below df + 8*sqrt(2*df) + 10,
    i.e. about eight standard deviations above its mean, which a correct sampler fails with
    probability far below 1e-6 and a biased one (e.g. modulo bias, a wrong white-die factor,
    a skewed reveal) exceeds by orders of magnitude at these sample sizes.
    """
    assert kind in CHANCE_NODES, f"no {kind} chance node found in 40 seeded games"
    s = CHANCE_NODES[kind]
    outcomes = dict(s.chance_outcomes())
    n = max(20000, math.ceil(8 / min(outcomes.values())))
    counts = Counter(s.sample_chance(seed) for seed in range(n))
    assert set(counts) <= set(outcomes), "sampled an outcome not in chance_outcomes()"
    chi2 = sum((counts.get(m, 0) - n * p) ** 2 / (n * p) for m, p in outcomes.items())
    df = len(outcomes) - 1
    bound = df + 8 * math.sqrt(2 * df) + 10
    assert chi2 < bound, f"{kind}: chi2 {chi2:.1f} over {df} df (bound {bound:.1f}, {n} draws)"
    if len(outcomes) <= 64:
        assert set(counts) == set(outcomes), "some outcome is never sampled"


# ----------------------------------------------------------------------------- apply


def _illegal_candidates(s) -> list[int]:
    legal = set(s.legal_moves()) | {m for m, _ in s.chance_outcomes()}
    cands = [0, -1, -2**31, 2**31 - 1, 15, 1 << 30, 2**31, 2**32 + 1, -2**63, 2**64, 10**30]
    for m in list(legal)[:10]:
        cands += [m | (1 << 28), m + (1 << 25), -m]
    # a chance outcome at a decision node and a decision move at a chance node
    cands += [12, 13 | (5 << 4), 14 | (63 << 4), 2 | (31 << 4), 1 | (15 << 4)]
    return [m for m in cands if m not in legal]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_illegal_apply_raises_and_leaves_state_unchanged(players):
    g = game(players)
    for s in sampled_states(g, 5, every=37):
        before = s.to_bytes()
        for m in _illegal_candidates(s):
            with pytest.raises(es.IllegalMoveError):
                s.apply(m)
            assert s.to_bytes() == before, f"illegal move {m} changed the state"


def test_illegal_move_error_is_a_value_error():
    s = game().new_state(seed=1)
    with pytest.raises(ValueError):
        s.apply(0)


def test_apply_at_terminal_raises():
    g = game()
    *_, last = walk(g, 3)
    assert last.is_terminal()
    before = last.to_bytes()
    for m in (0, 1, 2, 12, 13, 14, 17):
        with pytest.raises(es.IllegalMoveError):
            last.apply(m)
    assert last.to_bytes() == before
    assert last.legal_moves() == [] and last.chance_outcomes() == []


def test_legal_moves_all_apply():
    g = game(4)
    for s in sampled_states(g, 8, every=13):
        for m in s.legal_moves() + [m for m, _ in s.chance_outcomes()]:
            c = s.clone()
            c.apply(m)


# ----------------------------------------------------------------------------- clone / hash


def test_clone_is_independent():
    g = game()
    s = g.new_state(seed=4)
    c = s.clone()
    assert c == s and c is not s
    assert c.hash() == s.hash()
    before = s.to_bytes()
    c.apply(c.legal_moves()[0])
    assert c != s
    assert s.to_bytes() == before
    # and the other way round
    c2 = s.clone()
    s.apply(s.legal_moves()[-1])
    assert c2.to_bytes() == before


def test_hash_equal_for_equal_states_and_distinct_along_a_game():
    g = game(3)
    seen: dict[bytes, int] = {}
    for s in walk(g, 21):
        h = s.hash()
        assert isinstance(h, int)
        assert s.clone().hash() == h
        assert g.state_from_bytes(s.to_bytes()).hash() == h
        assert g.state_from_json(s.to_json()).hash() == h
        seen.setdefault(s.to_bytes(), h)
        assert seen[s.to_bytes()] == h
    hashes = set(seen.values())
    assert len(hashes) == len(seen), "distinct states along one game share a hash"


def test_equality_semantics():
    g = game()
    a, b = g.new_state(seed=1), g.new_state(seed=1)
    assert a == b and not (a != b)
    b.apply(b.legal_moves()[0])
    assert a != b
    assert (a == "state") is False


# ----------------------------------------------------------------------------- results


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_returns_zero_until_terminal_then_winners_share_one(players):
    g = game(players)
    for seed in range(4):
        last = None
        for s in walk(g, seed):
            last = s
            if not s.is_terminal():
                assert s.returns() == [0.0] * players
        assert last.is_terminal()
        r = last.returns()
        assert math.fsum(r) == pytest.approx(1.0)
        winners = [p for p in range(players) if r[p] > 0]
        assert winners
        assert all(r[p] == pytest.approx(1 / len(winners)) for p in winners)
        assert all(r[p] == 0 for p in range(players) if p not in winners)
        # the winners are the players with the best (VP, special cards, coins) (spec 7.3)
        d = state_doc(last)
        specials = [sum(1 for o in d["special_owner"] if o == p) for p in range(players)]
        key = [(d["vp"][p], specials[p], d["coins"][p]) for p in range(players)]
        assert winners == [p for p in range(players) if key[p] == max(key)]
        assert last.scores() == [float(v) for v in d["vp"][:players]]
        assert max(last.scores()) == max(last.scores()[p] for p in winners)


# ----------------------------------------------------------------------------- text moves


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_move_text_round_trip(players):
    """Every legal move and chance outcome along two games reads back as itself.

    str_to_move scans the node's whole list, so at the few chance nodes with hundreds of
    outcomes (5 dice: 252, + white die: 1512) a fixed random sample of 80 is parsed back; texts
    are still checked to be distinct over the whole list."""
    g = game(players)
    rng = random.Random(players)
    nodes = 0
    for seed in range(2):
        for s in walk(g, seed + 100):
            moves = s.legal_moves() + [m for m, _ in s.chance_outcomes()]
            texts = [s.move_to_str(m) for m in moves]
            assert len(set(texts)) == len(texts), f"two moves share a text: {texts}"
            pairs = list(zip(moves, texts))
            if len(pairs) > 120:
                pairs = rng.sample(pairs, 80)
            for m, t in pairs:
                assert isinstance(t, str) and t and "invalid" not in t and "?" not in t, t
                assert s.str_to_move(t) == m, t
            nodes += 1
    assert nodes > 300


def test_str_to_move_unknown_text_raises():
    s = game().new_state(seed=2)
    before = s.to_bytes()
    for text in ("", "fly away", "draft ST9", "place krieau 1"):
        with pytest.raises(es.IllegalMoveError):
            s.str_to_move(text)
    assert s.to_bytes() == before


# ----------------------------------------------------------------------------- serialization


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_bytes_and_json_round_trip(players):
    g = game(players)
    for s in sampled_states(g, 31, every=5):
        b = s.to_bytes()
        assert isinstance(b, bytes)
        t = g.state_from_bytes(b)
        assert t == s and t.hash() == s.hash() and t.to_bytes() == b
        assert g.state_from_bytes(bytearray(b)) == s
        assert g.state_from_bytes(memoryview(b)) == s
        j = s.to_json()
        doc = json.loads(j)
        assert doc["game"] == "vienna" and doc["players"] == players
        u = g.state_from_json(j)
        assert u == s and u.hash() == s.hash() and u.to_bytes() == b
        assert u.to_json() == j
        # the loaded states play on identically
        assert u.legal_moves() == s.legal_moves()
        assert u.chance_outcomes() == s.chance_outcomes()


def test_foreign_states_are_rejected():
    s3 = game(3).new_state(seed=1)
    with pytest.raises(es.StateFormatError):
        game(4).state_from_bytes(s3.to_bytes())
    with pytest.raises(es.StateFormatError):
        game(4).state_from_json(s3.to_json())
    # same player count, other options: other data fingerprint
    with pytest.raises(es.StateFormatError):
        game(3, carriage="furthest").state_from_bytes(s3.to_bytes())
    with pytest.raises(es.StateFormatError):
        game(3).state_from_bytes(b"")
    with pytest.raises(es.StateFormatError):
        game(3).state_from_json("not json")


def test_a_pickled_state_keeps_its_games_options():
    import pickle

    s = game(3, carriage="furthest").new_state(seed=1)
    t = pickle.loads(pickle.dumps(s))
    assert t.game.options == s.game.options and t.game.fingerprint == s.game.fingerprint
    assert t.to_bytes() == s.to_bytes()


# ----------------------------------------------------------------------------- determinize


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_determinize_returns_an_equal_state(players):
    g = game(players)
    for s in sampled_states(g, 41, every=29):
        before = s.to_bytes()
        for p in range(players):
            for seed in (0, 1, 99):
                d = s.determinize(p, seed)
                assert d == s and d is not s
                assert d.to_bytes() == before
        assert s.to_bytes() == before
    with pytest.raises(ValueError):
        g.new_state(seed=1).determinize(players, 0)
    with pytest.raises(ValueError):
        g.new_state(seed=1).determinize(-1, 0)


# ----------------------------------------------------------------------------- observation


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_observation_shape_and_values(players):
    g = game(players)
    size = g.observation_size
    nodes = differing = 0
    for seed in range(2):
        for s in walk(g, seed + 50):
            obs = [s.observation(p) for p in range(players)]
            for o in obs:
                assert isinstance(o, np.ndarray)
                assert o.dtype == np.float32
                assert o.shape == (size,)
                assert np.all(np.isfinite(o))
            nodes += 1
            if all(not np.array_equal(obs[p], obs[q]) for p in range(players) for q in range(p)):
                differing += 1
    assert differing > nodes // 2, f"players see the same observation at {nodes - differing}/{nodes} nodes"


def test_observation_bad_player():
    s = game().new_state(seed=1)
    for p in (-1, 3, True, "0"):
        with pytest.raises(ValueError):
            s.observation(p)


def test_observation_does_not_modify_state():
    s = game().new_state(seed=1)
    before = s.to_bytes()
    s.observation(0)
    assert s.to_bytes() == before


# ----------------------------------------------------------------------------- playouts


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_playouts(players):
    g = game(players)
    a = g.random_playouts(20, 5)
    assert isinstance(a, np.ndarray)
    assert a.shape == (20, players)
    assert np.issubdtype(a.dtype, np.floating)
    assert np.all(np.isfinite(a)) and np.all(a >= 0)
    assert np.array_equal(a, g.random_playouts(20, 5))
    assert not np.array_equal(a, g.random_playouts(20, 6))
    # with max_rounds = 100 a game ends because somebody reached 25 VP (spec 7.3)
    assert np.all(a.max(axis=1) >= 25)
    assert g.random_playouts(0, 1).shape == (0, players)
    # the first k games of a longer run are the same games
    assert np.array_equal(g.random_playouts(5, 5), a[:5])


def test_random_playouts_negative_count():
    with pytest.raises(ValueError):
        game().random_playouts(-1, 0)


# ----------------------------------------------------------------------------- options


def test_unknown_option_lists_valid_ones():
    with pytest.raises(ValueError) as info:
        es.game("vienna", players=3, options={"colour": "red"})
    msg = str(info.value)
    assert "colour" in msg
    for key in ("start_player", "carriage", "modify_every_turn", "person_optional", "side", "max_rounds"):
        assert key in msg, msg


@pytest.mark.parametrize(
    "options, key",
    [
        ({"carriage": "nearest"}, "carriage"),
        ({"carriage": 1}, "carriage"),
        ({"side": "dusk"}, "side"),
        ({"modify_every_turn": 1}, "modify_every_turn"),
        ({"modify_every_turn": "yes"}, "modify_every_turn"),
        ({"person_optional": None}, "person_optional"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"max_rounds": 201}, "max_rounds"),
        ({"max_rounds": True}, "max_rounds"),
        ({"max_rounds": "5"}, "max_rounds"),
        ({"start_player": 3}, "start_player"),
        ({"start_player": -1}, "start_player"),
        ({"start_player": True}, "start_player"),
        ({"start_player": 1.0}, "start_player"),
    ],
)
def test_bad_option_values(options, key):
    with pytest.raises(ValueError) as info:
        es.game("vienna", players=3, options=options)
    assert key in str(info.value)


def test_options_must_be_a_dict():
    with pytest.raises(ValueError):
        es.game("vienna", players=3, options=[("carriage", "last")])


@pytest.mark.parametrize(
    "options",
    [{}, {"carriage": "furthest"}, {"modify_every_turn": False}, {"person_optional": True},
     {"side": "night"}, {"max_rounds": 1}, {"start_player": 4}],
)
def test_valid_options_play(options):
    g = es.game("vienna", players=5, options=options)
    for key, value in options.items():
        assert getattr(g.options, key) == value
    last = None
    for s in walk(g, 2, start=g.new_state(seed=2)):
        last = s
    assert last.is_terminal()
    if options.get("max_rounds") == 1:
        assert state_doc(last)["round"] == 1


def test_options_change_the_fingerprint_and_the_play():
    a = es.game("vienna", players=3)
    b = es.game("vienna", players=3, options={"max_rounds": 1})
    assert a.new_state(seed=1).to_bytes() != b.new_state(seed=1).to_bytes()


# ----------------------------------------------------------------------------- data sources


def test_data_sources_of_bundled_data():
    src = game().data_sources()
    assert src["game"] == "vienna"
    assert src["status"] == "provisional"
    by_tag = src["by_tag"]
    assert set(by_tag) == {"rulebook", "external-high", "external-medium", "external-low", "provisional"}
    assert all(isinstance(v, int) and v >= 0 for v in by_tag.values())
    assert sum(by_tag.values()) == src["entries"] > 0
    assert src["provisional"] == by_tag["provisional"] > 0
    assert by_tag["rulebook"] > 0
    assert 0 < src["provisional_fraction"] < 1
    assert src["provisional_fraction"] == pytest.approx(by_tag["provisional"] / src["entries"])
    assert len(src["provisional_items"]) == by_tag["provisional"]


def test_data_sources_returns_a_copy():
    """Editing the returned report must not change the game's own record."""
    g = es.game("vienna", players=3)
    src = g.data_sources()
    rulebook = src["by_tag"]["rulebook"]
    src["status"] = "edited"
    src["by_tag"]["rulebook"] = -5
    src["provisional_items"].clear()
    again = g.data_sources()
    assert again["status"] == "provisional"
    assert again["by_tag"]["rulebook"] == rulebook
    assert len(again["provisional_items"]) == again["provisional"] > 0


# ----------------------------------------------------------------------------- rendering


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_str_shows_player_rows_and_field_ids(players):
    g = game(players)
    for s in sampled_states(g, 61, every=101):
        text = str(s)
        lines = text.splitlines()
        for p in range(players):
            assert any(line.startswith(f"P{p}") for line in lines), text
        assert not any(line.startswith(f"P{players}") for line in lines), text
        for f in g.data.street:
            assert f.id in text, f.id
        assert "geheimbund" in text
    assert "vienna" in repr(game(players).new_state(seed=1)).lower()
