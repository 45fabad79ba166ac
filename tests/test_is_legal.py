"""State.is_legal (es_is_legal) is exactly membership in legal_moves() at a decision node and
in chance_outcomes() at a chance node. Games answer it with their own is_legal hook, which
decodes a move instead of listing every move (issue 19: a checked apply at most twice an
unchecked one); this differential test holds each hook to the lists, on nodes of seeded random
games at every player count, with candidates that are legal, nearly legal (one bit flipped, a
neighbouring id), legal somewhere else in the game, or arbitrary ints."""
from __future__ import annotations

import random

import pytest

import eurosearch as es
from eurosearch.errors import IllegalMoveError

INT32 = (-(1 << 31), (1 << 31) - 1)

# option sets that change which moves exist, beside each game's defaults
OPTION_VARIANTS: dict[str, list[dict]] = {
    "oh_my_goods": [{"phase1_redraw": "all_or_nothing", "final_round": "full_round"},
                    {"worker_leaves_after_production": True}],
    "wolsung": [{"hidden_placement": True},
                {"exchange_allows_gold_input": True, "converter_accepts_gold": True,   # more payments
                 "fe_single_pick_only": True, "time_machine_per_factory": True, "finite_supply": True}],
    "bruges": [{"start_player": 1}],   # no start-player chance node
    # bribes measured from the furthest field, declining a person, paid changes only on the roll turn
    "vienna": [{"carriage": "furthest", "person_optional": True}, {"modify_every_turn": False}],
}


def _cases() -> list[tuple[str, int, dict | None]]:
    out = []
    for name in es.games():
        spec = es.game_spec(name)
        for players in range(spec.min_players, spec.max_players + 1):
            out.append((name, players, None))
        for opts in OPTION_VARIANTS.get(name, []):
            out.append((name, spec.min_players, opts))
    return out


def _listed(s: es.State) -> set[int]:
    if s.is_chance():
        return {m for m, _ in s.chance_outcomes()}
    return set(s.legal_moves())


def _candidates(listed: set[int], seen: list[int], rng: random.Random) -> set[int]:
    out = set(listed)
    for m in list(listed)[:12]:
        out.update({m + 1, m - 1, m ^ (1 << rng.randrange(31)), m ^ (1 << rng.randrange(8))})
        out.update(m ^ (1 << b) for b in range(0, 24, 3))
    out.update(rng.sample(seen, min(len(seen), 24)))
    out.update(rng.randint(*INT32) for _ in range(4))
    out.update({0, -1, 1, INT32[0], INT32[1]})
    return {c for c in out if INT32[0] <= c <= INT32[1]}


@pytest.mark.parametrize("name,players,options", _cases(), ids=lambda v: str(v))
def test_is_legal_is_membership_in_the_lists(name: str, players: int, options: dict | None) -> None:
    g = es.game(name, players=players, options=options)
    rng = random.Random(players * 1000 + len(name))
    seen: list[int] = []
    checked = 0
    for game_seed in range(3):
        s = g.new_state(seed=game_seed)
        while not s.is_terminal():
            listed = _listed(s)
            for c in _candidates(listed, seen, rng):
                assert s.is_legal(c) == (c in listed), (name, players, s.current_player, c, c in listed)
                checked += 1
            seen.extend(rng.sample(sorted(listed), min(3, len(listed))))
            del seen[:-400]
            s.apply(rng.choice(sorted(listed)))
        assert not s.is_legal(0) and not s.is_legal(seen[-1])   # nothing is legal at the end
    assert checked > 1000


@pytest.mark.parametrize("name", es.games())
def test_is_legal_at_the_setup_chance_nodes(name: str) -> None:
    """new_state(seed=...) resolves the setup's chance nodes (first start player, dealt cards,
    initial displays), so the walks above never ask is_legal there: walk them here."""
    g = es.game(name, players=es.game_spec(name).max_players)
    rng = random.Random(11)
    for _ in range(3):
        s = g.new_state()
        seen: list[int] = []
        while s.is_chance():
            listed = _listed(s)
            for c in _candidates(listed, seen, rng):
                assert s.is_legal(c) == (c in listed), (name, c, c in listed)
            seen.extend(sorted(listed)[:3])
            s.apply(rng.choice(sorted(listed)))


@pytest.mark.parametrize("name", es.games())
def test_checked_apply_refuses_what_is_legal_refuses_and_keeps_the_state(name: str) -> None:
    g = es.game(name, players=es.game_spec(name).min_players)
    rng = random.Random(5)
    s = g.new_state(seed=5)
    seen: list[int] = []
    for _ in range(300):
        if s.is_terminal():
            break
        listed = _listed(s)
        for c in _candidates(listed, seen, rng) - listed:
            t = s.clone()   # a fresh clone: apply cannot reuse a list made for s
            before = t.to_bytes()
            with pytest.raises(IllegalMoveError):
                t.apply(c)
            assert t.to_bytes() == before
        seen.extend(sorted(listed)[:3])
        t = s.clone()
        m = rng.choice(sorted(listed))
        t.apply(m)   # checked (no list made for t), and legal
        s.apply(m)
        assert t.to_bytes() == s.to_bytes()


def test_is_legal_rejects_non_ints_and_ints_out_of_range() -> None:
    s = es.game("vienna").new_state(seed=1)
    with pytest.raises(TypeError):
        s.is_legal("1")
    with pytest.raises(TypeError):
        s.is_legal(True)
    assert not s.is_legal(1 << 40)
    assert not s.is_legal(-(1 << 40))


@pytest.mark.parametrize("name", es.games())
def test_apply_cost_reports_both_kinds_of_node(name: str) -> None:
    g = es.game(name, players=es.game_spec(name).min_players)
    c = g.apply_cost(2000, seed=1)
    assert c["decisions"] + c["chance_nodes"] == 2000
    assert c["decisions"] > 0 and c["decision_unchecked_ns"] > 0 and c["decision_checked_ns"] > 0
    if c["chance_nodes"]:
        assert c["chance_unchecked_ns"] > 0 and c["chance_checked_ns"] > 0
    with pytest.raises(ValueError):
        g.apply_cost(0)


def test_backgammon_is_legal_over_every_play_id() -> None:
    """Backgammon lists a play once per resulting position, under its smallest id: its hook must
    refuse the same play in another order or with the dice the other way round, and must know the
    forced cases (one die, the higher die, the pass). Every play id (from1, from2 = 0..25, the
    high-first bit), on every decision of 30 games, bear-offs included."""
    g = es.game("backgammon")
    rng = random.Random(3)
    plays = [1 | f1 << 2 | f2 << 7 | h << 12 for f1 in range(26) for f2 in range(26) for h in range(2)]
    nodes = 0
    for seed in range(30):
        s = g.new_state(seed=seed)
        while not s.is_terminal():
            listed = _listed(s)
            if not s.is_chance():
                assert [c for c in plays if s.is_legal(c) != (c in listed)] == [], s.to_json()
                nodes += 1
            s.apply(rng.choice(sorted(listed)))
    assert nodes > 1000


def _bg_position(x: dict[int, int], o: dict[int, int], dice: tuple[int, int], player: int = 0,
                 x_bar: int = 0, o_bar: int = 0) -> es.State:
    """A backgammon decision state: checkers per absolute point, the rest borne off."""
    import json
    g = es.game("backgammon")
    board = [[x.get(i, 0) for i in range(24)], [o.get(i, 0) for i in range(24)]]
    off = [15 - sum(board[0]) - x_bar, 15 - sum(board[1]) - o_bar]
    d = json.loads(g.initial_state().to_json())
    d["state"].update(board=board, bar=[x_bar, o_bar], off=off, turns=3, phase=3, player=player,
                      dice=sorted(dice), double_half=0)
    return g.state_from_json(json.dumps(d))


# (x, o, dice, player, x_bar, o_bar): the rules' edge cases, for either player
_BG_EDGE_POSITIONS = [
    ({0: 2, 11: 5, 16: 3, 18: 4}, {5: 5, 7: 3, 12: 5, 23: 2}, (6, 4), 0, 1, 0),          # bar entry first
    ({0: 2, 11: 5, 16: 3, 18: 3}, {5: 5, 7: 3, 12: 5, 23: 2}, (6, 4), 0, 2, 0),          # two on the bar
    ({0: 2, 11: 5, 16: 3, 18: 3}, {5: 5, 7: 3, 12: 5, 23: 2}, (4, 4), 0, 2, 0),          # two on the bar, a double
    ({0: 2, 11: 5, 16: 3, 18: 4}, {3: 2, 5: 5, 7: 3, 12: 3, 23: 2}, (6, 4), 0, 1, 0),    # blocked entry: pass
    ({10: 1}, {16: 2, 0: 13}, (6, 1), 0, 0, 0),                                            # must use both dice
    ({10: 1}, {17: 2, 0: 13}, (6, 1), 0, 0, 0),                                            # must use the larger die
    ({10: 1}, {17: 2, 11: 2, 0: 11}, (6, 1), 0, 0, 0),                                     # only the smaller die
    ({21: 1, 22: 1}, {0: 15}, (6, 5), 0, 0, 0),                                            # bear off with higher dice
    ({19: 1, 22: 1}, {0: 15}, (6, 1), 0, 0, 0),                                            # bear off or move first
    ({18: 3, 20: 2, 23: 4}, {0: 15}, (2, 2), 0, 0, 0),                                     # bear off with a double
    ({0: 2, 11: 5, 16: 3, 18: 5}, {5: 5, 7: 3, 12: 4, 14: 1, 23: 2}, (3, 1), 0, 0, 0),   # hits, chained and split
    ({0: 2, 11: 5, 16: 3, 18: 5}, {5: 5, 7: 3, 12: 5, 23: 2}, (3, 3), 0, 0, 0),          # a double
    ({23: 2, 12: 5, 7: 3, 5: 5}, {18: 5, 16: 3, 11: 4, 9: 1, 0: 2}, (5, 2), 1, 0, 0),    # player 1, a blot to hit
    ({23: 2, 12: 5, 7: 3, 5: 4}, {18: 5, 16: 3, 11: 5, 0: 2}, (6, 3), 1, 1, 0),          # player 1 on the bar
    ({4: 1, 1: 2}, {23: 15}, (6, 5), 1, 0, 0),                                             # player 1 bears off
]


@pytest.mark.parametrize("case", range(len(_BG_EDGE_POSITIONS)))
def test_backgammon_is_legal_on_the_rules_edge_cases(case: int) -> None:
    """Bar entry (one or two checkers on the bar, blocked), must-use-both-dice, the larger die,
    bearing off with a higher die, doubles, hits and player 1's mirrored board: every play id."""
    x, o, dice, player, x_bar, o_bar = _BG_EDGE_POSITIONS[case]
    s = _bg_position(x, o, dice, player, x_bar, o_bar)
    listed = set(s.legal_moves())
    plays = [1 | f1 << 2 | f2 << 7 | h << 12 for f1 in range(32) for f2 in range(32) for h in range(2)]
    assert [c for c in plays if s.is_legal(c) != (c in listed)] == []
